//! A crowd of walkers that ask a [`FramePlanner`] for paths and walk them: the model of the
//! path-request page (requests.html), which only paints it.
//!
//! Every frame ([`RequestScene::frame`]) does three things in order:
//! 1. each walking walker moves [`WALK_SPEED`] cells along its path (a diagonal move is
//!    sqrt 2 long); one that reaches the end of its path becomes idle there;
//! 2. each idle walker asks for a path from its cell to a random cell of the *area* with a
//!    random urgency from 1 to [`MAX_URGENCY`], and waits;
//! 3. the planner spends the frame's budget ([`FramePlanner::tick`]); every finished request
//!    is handed to its walker (which walks a found path, or is idle again to pick another goal
//!    after no path) and forgotten.
//!
//! The area is the largest 4-connected region of open cells ([`largest_region`]), found when
//! the walkers are placed: walkers stand and aim only there, so every request has a path (a
//! goal walled off from its walker would make A* search the walker's whole region for
//! nothing). With no corner cutting a diagonal move joins nothing that two straight moves do
//! not, so the region is the same under 8-way moves.
//!
//! Randomness comes from one [`Pcg32`] seeded by [`RequestScene::place`]: the same map, seed,
//! walker count and sequence of frames and bursts give the same scene, bit for bit.
//!
//! ```
//! use pathlab_core::grid::Grid;
//! use pathlab_core::search::request_scene::{RequestScene, WalkerState};
//! use pathlab_core::search::slicing::FramePlanner;
//! use pathlab_core::search::{Algorithm, SearchConfig};
//! let planner = FramePlanner::new(Grid::new(12, 8).unwrap(), SearchConfig::new(Algorithm::AStar)).unwrap();
//! let mut scene = RequestScene::new(planner);
//! assert_eq!(scene.place(5, 7), 5);
//! scene.frame(1000);
//! // Every walker asked once, and a budget of 1000 steps answered them all on an open grid.
//! assert_eq!(scene.stats().served, 5);
//! assert!(scene.walkers().iter().all(|w| w.state() != WalkerState::Waiting));
//! ```

use super::slicing::{FramePlanner, RequestId, RequestStatus, Tick};
use super::SearchError;
use crate::boids::rng::Pcg32;
use crate::generate::largest_region;
use crate::grid::{named_enum, Grid};

/// Cells a walking walker moves per frame.
pub const WALK_SPEED: f64 = 0.2;

/// Urgencies are drawn from 1 to this (whole numbers).
pub const MAX_URGENCY: u32 = 9;

named_enum! {
    /// What a walker is doing; one byte per walker in the page's view.
    WalkerState, "walker state" {
        /// Standing on its cell; it asks for a path at the next frame.
        Idle = 0, "idle";
        /// Its request is queued or being searched.
        Waiting = 1, "waiting";
        /// Walking the path it was given.
        Walking = 2, "walking";
    }
}

/// One walker: where it is, what it does, and the path it walks.
#[derive(Clone, Debug, PartialEq)]
pub struct Walker {
    x: f64,
    y: f64,
    cell: usize,
    state: WalkerState,
    request: Option<RequestId>,
    goal: usize,
    /// The path being walked (row-major cell indices), empty unless walking.
    path: Vec<usize>,
    /// The path's move being walked: from `path[seg]` to `path[seg + 1]`.
    seg: usize,
    /// How far along that move, in cells.
    t: f64,
}

/// The centre of cell `index` of a grid `width` cells wide.
fn centre(index: usize, width: usize) -> (f64, f64) {
    ((index % width) as f64 + 0.5, (index / width) as f64 + 0.5)
}

/// The length of the move between two neighbouring cells: 1 straight, sqrt 2 diagonal.
fn move_length(a: usize, b: usize, width: usize) -> f64 {
    let dx = (a % width).abs_diff(b % width) as f64;
    let dy = (a / width).abs_diff(b / width) as f64;
    (dx * dx + dy * dy).sqrt()
}

impl Walker {
    /// An idle walker standing on cell `index` of a grid `width` cells wide.
    pub fn standing(index: usize, width: usize) -> Self {
        let (x, y) = centre(index, width);
        Self {
            x,
            y,
            cell: index,
            state: WalkerState::Idle,
            request: None,
            goal: index,
            path: Vec::new(),
            seg: 0,
            t: 0.0,
        }
    }

    /// A walker at the first cell of `path` (row-major cell indices of neighbouring cells),
    /// about to walk it; idle there when the path has fewer than two cells.
    pub fn following(path: Vec<usize>, width: usize) -> Self {
        let mut walker = Self::standing(path.first().copied().unwrap_or(0), width);
        walker.goal = path.last().copied().unwrap_or(walker.cell);
        if path.len() > 1 {
            walker.state = WalkerState::Walking;
            walker.path = path;
        }
        walker
    }

    /// Horizontal position in cells (a cell's centre is at its column + 0.5).
    pub fn x(&self) -> f64 {
        self.x
    }

    /// Vertical position in cells (a cell's centre is at its row + 0.5).
    pub fn y(&self) -> f64 {
        self.y
    }

    /// The cell it stands on: while walking, the nearer end of the move it is on.
    pub fn cell(&self) -> usize {
        self.cell
    }

    /// What it is doing.
    pub fn state(&self) -> WalkerState {
        self.state
    }

    /// Its open request while waiting.
    pub fn request(&self) -> Option<RequestId> {
        self.request
    }

    /// The cell it last asked to go to.
    pub fn goal(&self) -> usize {
        self.goal
    }

    /// The cells of its path still ahead (after the move it is on); empty unless walking.
    pub fn route(&self) -> &[usize] {
        self.path.get(self.seg + 1..).unwrap_or(&[])
    }

    /// Moves `speed` cells along the path; at its end the walker stands on the last cell,
    /// idle. Does nothing unless walking.
    pub fn walk(&mut self, speed: f64, width: usize) {
        if self.state != WalkerState::Walking {
            return;
        }
        let path = &self.path;
        let mut left = speed;
        while left > 0.0 && self.seg + 1 < path.len() {
            let length = move_length(path[self.seg], path[self.seg + 1], width);
            if self.t + left >= length {
                left -= length - self.t;
                self.seg += 1;
                self.t = 0.0;
            } else {
                self.t += left;
                left = 0.0;
            }
        }
        let a = path[self.seg];
        let Some(&b) = path.get(self.seg + 1) else {
            *self = Self { goal: self.goal, ..Self::standing(a, width) };
            return;
        };
        let f = self.t / move_length(a, b, width);
        let ((ax, ay), (bx, by)) = (centre(a, width), centre(b, width));
        self.x = ax + (bx - ax) * f;
        self.y = ay + (by - ay) * f;
        self.cell = if f < 0.5 { a } else { b };
    }

    /// Stops on the nearer end of the move it is on (see [`cell`](Walker::cell)).
    fn stop(&mut self, width: usize) {
        let goal = self.goal;
        *self = Self { goal, ..Self::standing(self.cell, width) };
    }
}

/// What the scene has counted since the walkers were placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SceneStats {
    /// Frames run.
    pub frames: u64,
    /// Requests answered with a path.
    pub served: u64,
    /// Requests answered with no path.
    pub no_path: u64,
    /// The frames the served requests took from asking to their answer, summed.
    pub wait_sum: u64,
    /// The longest of those waits.
    pub wait_max: u64,
    /// Search steps the last frame spent.
    pub spent: usize,
}

/// Walkers on one grid that ask a [`FramePlanner`] for paths, wait for them and walk them.
/// See the module notes for one frame and the area walkers use.
#[derive(Clone, Debug)]
pub struct RequestScene {
    planner: FramePlanner,
    area: Vec<usize>,
    walkers: Vec<Walker>,
    rng: Pcg32,
    stats: SceneStats,
    refusal: Option<SearchError>,
}

impl RequestScene {
    /// A scene over `planner`'s grid with no walkers yet (see [`place`](Self::place)).
    pub fn new(planner: FramePlanner) -> Self {
        Self {
            planner,
            area: Vec::new(),
            walkers: Vec::new(),
            rng: Pcg32::new(0),
            stats: SceneStats::default(),
            refusal: None,
        }
    }

    /// The planner that serves the requests.
    pub fn planner(&self) -> &FramePlanner {
        &self.planner
    }

    /// The planner, to edit its grid or settings or to submit requests of one's own; the
    /// walkers keep their area until placed again.
    pub fn planner_mut(&mut self) -> &mut FramePlanner {
        &mut self.planner
    }

    /// Replaces the map: every request and every walker goes (place them again).
    pub fn set_grid(&mut self, grid: Grid) {
        self.planner.clear();
        self.planner.set_grid(grid);
        self.walkers.clear();
        self.area.clear();
    }

    /// Drops every request and places `count` idle walkers on random cells of the area (the
    /// largest open region of the grid as it is now), drawn from a generator seeded with
    /// `seed`; the counts start again. Returns how many stand: `count`, or 0 when every cell
    /// is a wall.
    pub fn place(&mut self, count: usize, seed: u64) -> usize {
        self.planner.clear();
        let grid = self.planner.grid();
        let width = grid.width();
        self.area = largest_region(width, grid.height(), grid.cells());
        self.area.sort_unstable();
        self.rng = Pcg32::new(seed);
        self.walkers.clear();
        if !self.area.is_empty() {
            for _ in 0..count {
                let cell = self.random_cell();
                self.walkers.push(Walker::standing(cell, width));
            }
        }
        self.stats = SceneStats::default();
        self.refusal = None;
        self.walkers.len()
    }

    /// The cells walkers stand on and aim for, in row-major order.
    pub fn area(&self) -> &[usize] {
        &self.area
    }

    /// The walkers, in the order they were placed.
    pub fn walkers(&self) -> &[Walker] {
        &self.walkers
    }

    /// The counts since the walkers were placed.
    pub fn stats(&self) -> SceneStats {
        self.stats
    }

    /// Why the last request the scene made was refused, once (then None); requests in the
    /// area are refused only when the planner holds too many.
    pub fn take_refusal(&mut self) -> Option<SearchError> {
        self.refusal.take()
    }

    fn random_cell(&mut self) -> usize {
        self.area[self.rng.below(self.area.len() as u32) as usize]
    }

    /// Walker `k` asks for a path from its cell to a random cell of the area.
    fn ask(&mut self, k: usize) {
        let goal = self.random_cell();
        let urgency = 1 + self.rng.below(MAX_URGENCY);
        let grid = self.planner.grid();
        let (from, to) = (grid.point_at(self.walkers[k].cell), grid.point_at(goal));
        match self.planner.submit(from, to, f64::from(urgency)) {
            Ok(id) => {
                let walker = &mut self.walkers[k];
                walker.state = WalkerState::Waiting;
                walker.request = Some(id);
                walker.goal = goal;
                walker.path.clear();
            }
            Err(e) => self.refusal = Some(e),
        }
    }

    /// Every walker not already waiting stops where it is (on the nearer end of its move)
    /// and asks for a new path at once.
    pub fn burst(&mut self) {
        let width = self.planner.grid().width();
        for k in 0..self.walkers.len() {
            match self.walkers[k].state {
                WalkerState::Waiting => continue,
                WalkerState::Walking => self.walkers[k].stop(width),
                WalkerState::Idle => {}
            }
            self.ask(k);
        }
    }

    /// One frame: walkers walk, idle ones ask, `budget` search steps are spent, and the
    /// answers are handed out (module notes). Returns what the planner's tick did.
    pub fn frame(&mut self, budget: usize) -> Tick {
        let width = self.planner.grid().width();
        for walker in &mut self.walkers {
            walker.walk(WALK_SPEED, width);
        }
        for k in 0..self.walkers.len() {
            if self.walkers[k].state == WalkerState::Idle {
                self.ask(k);
            }
        }
        let tick = self.planner.tick(budget);
        self.stats.frames += 1;
        self.stats.spent = tick.spent;
        for &id in &tick.finished {
            // Its walker: the one waiting on it (a scan; a frame finishes few requests).
            let owner = self.walkers.iter().position(|w| w.request == Some(id));
            let answer = self.planner.request(id).map(|r| {
                let path: Vec<usize> = r
                    .path()
                    .map(|p| p.points.iter().map(|&q| self.planner.grid().index(q)).collect())
                    .unwrap_or_default();
                (r.status(), r.ticks_to_finish().unwrap_or(0), path)
            });
            self.planner.forget(id);
            let (Some(k), Some((status, waited, path))) = (owner, answer) else { continue };
            let walker = &mut self.walkers[k];
            walker.request = None;
            walker.state = WalkerState::Idle;
            if status == RequestStatus::Found {
                self.stats.served += 1;
                self.stats.wait_sum += waited;
                self.stats.wait_max = self.stats.wait_max.max(waited);
                *walker = Walker::following(path, width);
            } else {
                // Unreachable: the walker picks another goal next frame.
                self.stats.no_path += 1;
            }
        }
        tick
    }
}
