//! The human-like explorer: how a person finds the way through a place they have never seen,
//! with a compass and a memory. It heads for the goal, at every junction takes the untried way
//! that points most nearly towards it, remembers where it has been, and at a dead end walks
//! back to the last junction that still has an untried way. It plans nothing ahead and knows
//! only what it has seen, so its walk is seldom the cheapest; but it never gets stuck and
//! reaches the goal whenever the goal can be reached.
//!
//! # The rules, precisely
//!
//! The agent moves one cell per step, on the moves the diagonal setting allows (the four
//! straight moves under `never`, all eight otherwise, a diagonal only where the rule lets it
//! pass the corner). Its memory holds:
//!
//! - **the map in its head**: every cell it has seen, free or wall. It sees the cells within
//!   [`SearchConfig::sensor`] cells of where it stands (Chebyshev distance: a square box), on
//!   the start and after every move; a sensor of 0 means it knows the whole map from the
//!   start. Its choices read this map only, never the true one; with a sensor of at least 1
//!   every cell a move depends on (the cell entered and, for a diagonal, the two beside it) is
//!   within sight.
//! - **the places visited**: every cell it has stood on.
//! - **the way back**: the cells from the start to where it stands along which it came, less
//!   the dead ends it has walked out of (a stack).
//!
//! One step, with the agent on cell `a`:
//!
//! 1. If `a` is the goal, the walk is over ([`Found`](Status::Found); the step moves nothing).
//! 2. **Untried ways** are the legal moves from `a` (judged on the map in its head) to cells it
//!    has not visited. If there are any, it takes the one closest in angle to the straight line
//!    from `a` to the goal: the largest `(goal - a) · u / |u|` over the move directions `u`.
//!    A tie goes to the first in the order N, E, S, W, NE, SE, SW, NW. The cell entered goes
//!    on the way back.
//! 3. Otherwise `a` is a dead end (or a junction whose ways have all been tried): it steps back
//!    one cell along the way back, taking `a` off it. Stepping back repeats, one cell a step,
//!    until it stands on a cell with an untried way: the last junction.
//! 4. If there is no way back (it stands on the start with nothing untried), every place it
//!    can reach has been visited and none is the goal: [`NoPath`](Status::NoPath).
//!
//! Every move is made between two cells it has seen free, so it never enters a wall.
//!
//! This is depth-first search walked on foot: every cell it can reach is entered once going
//! forward and left once going back, so a walk takes at most `2 x (cells reachable - 1)` moves
//! and ends with the goal found or every reachable cell visited.
//!
//! # What the page sees
//!
//! - [`states`](Stepper::states): `Closed` for the cells visited, `Current` for the agent.
//! - [`g_values`](Stepper::g_values) and [`parents`](Stepper::parents): the cost walked
//!   when the agent first stood on each cell, and the cell it came from then.
//! - [`path_indices`](Stepper::path_indices): the trail, back-ups included;
//!   [`cost`](Explorer::cost): the cost walked, once on the goal.
//! - The overlay: the agent, the trail, the cells stood on more than once, the walls in its
//!   head ([`MarkKind::KnownWall`], the most recent [`MAX_WALL_MARKS`]), the walls seen in the
//!   last step ([`MarkKind::Discovered`]), the junctions on the way back that still have an
//!   untried way ([`MarkKind::Junction`]), the sensor's box, and notes: what it is doing, the
//!   dead ends met, the junctions left to try.
//! - [`expanded`](Stepper::expanded) counts moves; [`open_count`](Stepper::open_count) is
//!   always 0; [`h`](Stepper::h) is 0 (it estimates nothing: it reads a compass).

use super::engine::{check_ends, paint_cells};
use super::stepper::{BoxKind, Overlay, OverlayBox, OverlayMark};
use super::walk::{self, walking_agent_stepper, Walk};
use super::{
    Algorithm, CellState, MarkKind, NoRecord, NodeTable, Recorder, SearchConfig, SearchError, Status, StepEvent,
    Stepper, NO_PARENT,
};
use crate::grid::{Grid, Point, WALL};

/// The move directions as (dx, dy), y growing downward, in the order ties are broken: N, E,
/// S, W, then NE, SE, SW, NW.
const DIRECTIONS: [(isize, isize); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// The most wall marks an overlay carries (the walls seen last); a note says when some are
/// left out.
pub const MAX_WALL_MARKS: usize = 8192;

/// The most junction marks an overlay carries (the nearest the agent, along the way back).
pub const MAX_JUNCTION_MARKS: usize = 4096;

/// How far back along the way back the overlay looks for junctions (the cells nearest the
/// agent), so that a frame costs little on a huge map.
const JUNCTION_SCAN: usize = 65_536;

/// A cell of the map in the explorer's head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Known {
    /// Not seen yet.
    Unseen = 0,
    /// Seen, and not a wall.
    Free = 1,
    /// Seen, and a wall.
    Wall = 2,
}

/// What a record of [`Known`] bytes holds: (cells seen, walls among them).
pub(crate) fn tally(sight: &[u8]) -> (usize, usize) {
    sight.iter().fold((0, 0), |(seen, walls), &k| {
        (seen + usize::from(k != Known::Unseen as u8), walls + usize::from(k == Known::Wall as u8))
    })
}

/// The human-like explorer, one move per [`step`](Explorer::step). See the
/// [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::search::explorer::Explorer;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status};
/// // S . #      The goal lies south-east. East and south point at it equally: the tie
/// // . . #      goes to east (N, E, S, W order); the wall then turns it south, and
/// // . . G      east again on the bottom row.
/// let rows = ["..#", "..#", "..."];
/// let cells = rows.iter().flat_map(|r| r.bytes().map(|b| u8::from(b != b'#'))).collect();
/// let grid = Grid::from_cells(3, 3, cells).unwrap();
/// let config = SearchConfig::new(Algorithm::Explorer).diagonal(Diagonal::Never).sensor(1);
/// let mut s = Explorer::new(grid, Point::new(0, 0), Point::new(2, 2), config).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(4.0)); // E, S, S, E: (1,0), (1,1), (1,2), (2,2)
/// ```
#[derive(Clone, Debug)]
pub struct Explorer {
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    /// States, the cost walked and the cell come from when each cell was first stood on.
    nodes: NodeTable,
    walk: Walk,
    /// The map in its head, one [`Known`] byte per cell.
    known: Vec<u8>,
    /// The cells seen, in the order seen (to forget them on reset).
    seen: Vec<u32>,
    /// The walls seen, in the order seen.
    walls: Vec<u32>,
    /// The walls seen in the last step.
    fresh_walls: Vec<u32>,
    /// The way back: the cells from the start to the agent, less the dead ends left.
    way: Vec<u32>,
    agent: u32,
    backing: bool,
    dead_ends: usize,
}

impl Explorer {
    /// Sets up the explorer (`config.algorithm` = [`Algorithm::Explorer`]) on the start, having
    /// looked around once. Fails when an end is outside the grid or on a wall, a setting is out
    /// of range, or the algorithm is another one.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        walk::check_agent_setup(&grid, (start, goal), &config, Algorithm::Explorer, "the human-like explorer")?;
        let n = grid.len();
        let mut search = Self {
            grid,
            start,
            goal,
            config,
            nodes: NodeTable::new(n),
            walk: Walk::new(n),
            known: vec![Known::Unseen as u8; n],
            seen: Vec::new(),
            walls: Vec::new(),
            fresh_walls: Vec::new(),
            way: Vec::new(),
            agent: 0,
            backing: false,
            dead_ends: 0,
        };
        search.reset();
        Ok(search)
    }

    /// Goes back to step 0: the agent on the start, knowing only what it sees there.
    pub fn reset(&mut self) {
        for &c in &self.seen {
            self.known[c as usize] = Known::Unseen as u8;
        }
        self.seen.clear();
        self.walls.clear();
        self.nodes.reset();
        let s = self.grid.index(self.start) as u32;
        self.walk.begin(s);
        self.agent = s;
        self.way.clear();
        self.way.push(s);
        self.nodes.set_g(s, 0.0, NO_PARENT);
        self.nodes.set_state(s, CellState::Current);
        self.backing = false;
        self.dead_ends = 0;
        self.look_around();
        self.fresh_walls.clear();
    }

    /// Moves the start and goal; the search goes back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.start = start;
        self.goal = goal;
        self.reset();
        Ok(())
    }

    /// Sets every listed cell to `value` as a brush stroke does (cells outside the grid are
    /// skipped, and so are the start and goal when `value` is a wall); returns how many
    /// changed. When any did, the search goes back to step 0. Terrain is free ground to the
    /// explorer and only counts in the cost walked.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let changed = paint_cells(&mut self.grid, self.start, self.goal, cells, value);
        if changed > 0 {
            self.reset();
        }
        changed
    }

    /// Puts every cell within sensor range of the agent into the map in its head.
    fn look_around(&mut self) {
        let r = self.config.sensor as usize;
        if r == 0 && !self.seen.is_empty() {
            return; // it has seen the whole map from the start
        }
        let (w, h) = (self.grid.width(), self.grid.height());
        let at = self.grid.point_at(self.agent as usize);
        let (x0, x1, y0, y1) = if r == 0 {
            (0, w - 1, 0, h - 1)
        } else {
            (at.x.saturating_sub(r), (at.x + r).min(w - 1), at.y.saturating_sub(r), (at.y + r).min(h - 1))
        };
        for y in y0..=y1 {
            for x in x0..=x1 {
                let i = y * w + x;
                if self.known[i] != Known::Unseen as u8 {
                    continue;
                }
                self.seen.push(i as u32);
                if self.grid.cells()[i] == WALL {
                    self.known[i] = Known::Wall as u8;
                    self.walls.push(i as u32);
                    self.fresh_walls.push(i as u32);
                } else {
                    self.known[i] = Known::Free as u8;
                }
            }
        }
    }

    /// True when the map in its head shows `p` free (an unseen cell is not trusted).
    fn seen_free(&self, x: usize, y: usize) -> bool {
        x < self.grid.width() && y < self.grid.height() && self.known[y * self.grid.width() + x] == Known::Free as u8
    }

    /// The cell one move from `at` in direction `d`, when the map in its head allows the move.
    fn target(&self, at: Point, d: usize) -> Option<Point> {
        let (dx, dy) = DIRECTIONS[d];
        let x = at.x.checked_add_signed(dx)?;
        let y = at.y.checked_add_signed(dy)?;
        if !self.seen_free(x, y) {
            return None;
        }
        let diagonal = dx != 0 && dy != 0;
        let allowed = !diagonal || self.config.diagonal.allows(self.seen_free(x, at.y), self.seen_free(at.x, y));
        allowed.then_some(Point::new(x, y))
    }

    /// The number of move directions under the diagonal rule: 4 or 8.
    fn directions(&self) -> usize {
        if self.config.diagonal.is_eight_connected() {
            8
        } else {
            4
        }
    }

    /// The untried way from `at` that points most nearly at the goal, if any.
    fn untried(&self, at: Point) -> Option<(usize, Point)> {
        let gx = self.goal.x as f64 - at.x as f64;
        let gy = self.goal.y as f64 - at.y as f64;
        let mut best: Option<(usize, Point, f64)> = None;
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate().take(self.directions()) {
            let Some(p) = self.target(at, d) else { continue };
            if self.walk.visits[self.grid.index(p)] > 0 {
                continue;
            }
            let length = if d >= 4 { std::f64::consts::SQRT_2 } else { 1.0 };
            let score = (gx * dx as f64 + gy * dy as f64) / length;
            if best.is_none_or(|(_, _, s)| score > s) {
                best = Some((d, p, score));
            }
        }
        best.map(|(d, p, _)| (d, p))
    }

    /// Performs one step: one move (or the step that ends the walk).
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` about the move: `expanded(cell left)` and
    /// `opened(cell entered, cell left, its first cost if stood on before, cost walked)`.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.nodes.status.is_finished() {
            return StepEvent::Finished;
        }
        self.nodes.steps += 1;
        self.nodes.status = Status::Searching;
        self.fresh_walls.clear();
        let from = self.agent as usize;
        let at = self.grid.point_at(from);
        if at == self.goal {
            self.nodes.status = Status::Found;
            return StepEvent::Found { cost: self.walk.travelled };
        }
        let (next_at, diagonal) = if let Some((d, p)) = self.untried(at) {
            self.backing = false;
            self.way.push(self.grid.index(p) as u32);
            (p, d >= 4)
        } else {
            if self.way.len() <= 1 {
                self.nodes.status = Status::NoPath;
                return StepEvent::NoPath;
            }
            if !self.backing {
                self.dead_ends += 1;
            }
            self.backing = true;
            self.way.pop();
            let back = self.grid.point_at(self.way[self.way.len() - 1] as usize);
            (back, back.x != at.x && back.y != at.y)
        };
        let next = self.grid.index(next_at);
        let cost = self.config.costs.step(diagonal, self.grid.cells()[next]);
        let before = self.walk.move_to(next as u32, cost);
        recorder.expanded(from as u32);
        recorder.opened(next as u32, from as u32, before.then_some(self.nodes.g()[next]), self.walk.travelled);
        if !before {
            self.nodes.set_g(next as u32, self.walk.travelled, from as u32);
        }
        self.nodes.set_state(from as u32, CellState::Closed);
        self.nodes.set_state(next as u32, CellState::Current);
        self.agent = next as u32;
        self.look_around();
        if next_at == self.goal {
            self.nodes.status = Status::Found;
            return StepEvent::Found { cost: self.walk.travelled };
        }
        StepEvent::Expanded(at)
    }

    /// Runs to the end (found, or every reachable cell visited) and returns the final status.
    pub fn run(&mut self) -> Status {
        while !self.nodes.status.is_finished() {
            self.step();
        }
        self.nodes.status
    }

    /// The cost walked, once the agent stands on the goal.
    pub fn cost(&self) -> Option<f64> {
        (self.nodes.status == Status::Found).then_some(self.walk.travelled)
    }

    /// The map in its head: one [`Known`] byte per cell, row-major.
    pub fn known(&self) -> &[u8] {
        &self.known
    }

    /// The way back: the cells from the start to the agent, less the dead ends walked out of.
    pub fn way_back(&self) -> &[u32] {
        &self.way
    }

    /// How many dead ends it has walked back from.
    pub fn dead_ends(&self) -> usize {
        self.dead_ends
    }

    /// True while it is walking back to the last junction.
    pub fn is_backing_up(&self) -> bool {
        self.backing
    }

    /// The overlay: agent, trail, the map in its head, junctions, the sensor box and notes.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        let doing = if self.backing { "walking back to the last junction" } else { "heading for the goal" };
        overlay.notes.push(("doing", doing.to_string()));
        let skip = self.walls.len().saturating_sub(MAX_WALL_MARKS);
        overlay.marks.extend(self.walls[skip..].iter().map(|&cell| OverlayMark { cell, kind: MarkKind::KnownWall }));
        overlay.marks.extend(self.fresh_walls.iter().map(|&cell| OverlayMark { cell, kind: MarkKind::Discovered }));
        let on_way = &self.way[..self.way.len().saturating_sub(1)];
        let mut junctions = 0;
        for &c in on_way.iter().rev().take(JUNCTION_SCAN) {
            if self.untried(self.grid.point_at(c as usize)).is_some() {
                junctions += 1;
                if junctions <= MAX_JUNCTION_MARKS {
                    overlay.marks.push(OverlayMark { cell: c, kind: MarkKind::Junction });
                }
            }
        }
        let r = self.config.sensor as usize;
        if r > 0 {
            let at = self.grid.point_at(self.agent as usize);
            let min = Point::new(at.x.saturating_sub(r), at.y.saturating_sub(r));
            let max = Point::new((at.x + r).min(self.grid.width() - 1), (at.y + r).min(self.grid.height() - 1));
            overlay.boxes.push(OverlayBox { min, max, kind: BoxKind::Sensor });
        }
        let scanned = if on_way.len() > JUNCTION_SCAN { " (in the last 65536 cells of the way back)" } else { "" };
        overlay.notes.push(("junctions to try", format!("{junctions}{scanned}")));
        overlay.notes.push(("dead ends", self.dead_ends.to_string()));
        overlay.notes.push(("walls known", self.walls.len().to_string()));
        if skip > 0 {
            overlay.notes.push(("walls shown", format!("the last {MAX_WALL_MARKS} seen of {}", self.walls.len())));
        }
        self.walk.draw(&mut overlay);
        if self.nodes.status == Status::NoPath {
            overlay.notes.push((
                "no path",
                format!(
                    "the explorer has been everywhere it can reach from {} and not found the goal {}",
                    self.start, self.goal
                ),
            ));
        }
        overlay
    }
}

impl Stepper for Explorer {
    walking_agent_stepper!(Explorer);

    fn sensed(&self) -> Option<&[u8]> {
        Some(&self.known)
    }
}
