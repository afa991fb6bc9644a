//! The rigid block: a formation that moves as one body, as the course's book draws it (a
//! squadron of 60 in 6 ranks of 10, represented by its barycentre and its yaw). Nobody in it
//! steers: every member stands at its fixed slot in the block's own frame, so the block keeps
//! its exact shape, and only the block plans. To get round a tree the whole block changes its
//! course.
//!
//! How it moves:
//!
//! 1. The slots ([`block_offsets`]) are `files` side by side and `ranks` deep, `spacing`
//!    apart, rank 0 in front, centred on the barycentre: slot `r * files + f` sits at
//!    `x = ((ranks - 1) / 2 - r) * spacing` (forward) and `y = (f - (files - 1) / 2) * spacing`
//!    (to the side).
//! 2. The block's reach is its farthest slot from the barycentre plus a member's radius. The
//!    barycentre plans on a copy of the grid where every cell closer than the reach to a wall
//!    (or the world's edge) is a wall too ([`clearance_grid`]): one A* (8-connected, no corner
//!    cutting), shortened by line of sight on the same copy. Wherever the barycentre is on
//!    that path, the block can stand at any yaw without touching a wall.
//! 3. Each step the barycentre walks its path at the block's speed, slowed while the yaw lags
//!    behind the direction of travel (and stopped while it lags by more than a right angle,
//!    so the block wheels on the spot), and the yaw turns towards the direction of travel at
//!    a limited rate. Then every member is put at `barycentre + yaw * x + side * y`.
//!
//! ```
//! use pathlab_core::crowd::squad::{Block, block_offsets};
//! use pathlab_core::boids::{Vec2, Walls};
//! use pathlab_core::grid::{Grid, Point};
//! // The book's squadron: 6 ranks of 10.
//! assert_eq!(block_offsets(6, 10, 1.0).len(), 60);
//! let walls = Walls::new(Grid::new(60, 30).unwrap(), 1.0);
//! let mut block = Block::new(&walls, Vec2::new(8.5, 15.5), 6, 10, 1.0, 1.5).unwrap();
//! block.set_goal(Point::new(50, 15)).unwrap();
//! while !block.arrived() { block.step(); }
//! assert_eq!(block.centre(), Vec2::new(50.5, 15.5));
//! assert!(block.shape_error() < 1e-4);
//! ```

use super::{route, RADIUS};
use crate::boids::{Vec2, Walls};
use crate::crowd::scene::SceneError;
use crate::grid::{Grid, Point, WALL};

/// The most ranks a block may have.
pub const MAX_RANKS: usize = 10;
/// The most files (members per rank) a block may have.
pub const MAX_FILES: usize = 20;
/// The most members of one formation (ranks times files), rigid or held by fields.
pub const MAX_FORMATION_MEMBERS: usize = MAX_RANKS * MAX_FILES;

/// Seconds per step (the squad's).
const DT: f32 = super::DT;
/// How fast the yaw may turn, radians per second.
const TURN_RATE: f32 = 1.2;
/// The outermost member never sweeps faster than this multiple of the block's speed.
const SWEEP_FACTOR: f32 = 2.0;
/// Extra clearance kept from walls beyond the reach, world units.
const MARGIN: f32 = 0.05;

/// The slots of a block of `ranks` by `files`, `spacing` apart, in the block's frame (x
/// forward, y to the side), rank 0 in front, centred on the barycentre. Slot `r * files + f` is
/// rank `r`, file `f`.
///
/// ```
/// use pathlab_core::crowd::squad::block_offsets;
/// use pathlab_core::boids::Vec2;
/// // Two ranks of three, 2 apart: the front rank at x = 1, files at y = -2, 0, 2.
/// let o = block_offsets(2, 3, 2.0);
/// assert_eq!(o[0], Vec2::new(1.0, -2.0));
/// assert_eq!(o[5], Vec2::new(-1.0, 2.0));
/// ```
pub fn block_offsets(ranks: usize, files: usize, spacing: f32) -> Vec<Vec2> {
    let mid_rank = (ranks as f32 - 1.0) / 2.0;
    let mid_file = (files as f32 - 1.0) / 2.0;
    let mut out = Vec::with_capacity(ranks * files);
    for r in 0..ranks {
        for f in 0..files {
            out.push(Vec2::new((mid_rank - r as f32) * spacing, (f as f32 - mid_file) * spacing));
        }
    }
    out
}

/// The farthest point of a member's body from the barycentre: the farthest slot plus
/// [`RADIUS`].
pub fn block_reach(offsets: &[Vec2]) -> f32 {
    offsets.iter().map(|o| o.length()).fold(0.0_f32, f32::max) + RADIUS
}

/// A copy of the walls' grid where every cell with a point closer than `reach` to a wall cell
/// or to the world's edge is a wall as well (the configuration space of a disc of radius
/// `reach`). A disc centred anywhere in an open cell of the copy touches no wall.
pub fn clearance_grid(walls: &Walls, reach: f32) -> Grid {
    let grid = walls.grid();
    let (w, h) = (grid.width(), grid.height());
    let cell = walls.cell();
    let r = reach + MARGIN;
    let mut out = grid.clone();
    let wall_cells: Vec<(i64, i64)> =
        (0..w * h).filter(|&i| grid.cells()[i] == WALL).map(|i| ((i % w) as i64, (i / w) as i64)).collect();
    let span = (r / cell).ceil() as i64 + 1;
    for y in 0..h {
        for x in 0..w {
            let p = Point::new(x, y);
            let edge = x.min(w - 1 - x).min(y).min(h - 1 - y) as f32 * cell;
            let mut near = edge < r;
            if !near {
                for &(wx, wy) in &wall_cells {
                    let (dx, dy) = ((wx - x as i64).abs(), (wy - y as i64).abs());
                    if dx > span || dy > span {
                        continue;
                    }
                    // Gap between the two squares along each axis.
                    let gx = (dx - 1).max(0) as f32 * cell;
                    let gy = (dy - 1).max(0) as f32 * cell;
                    if gx.hypot(gy) < r {
                        near = true;
                        break;
                    }
                }
            }
            if near {
                // The cell is on the grid, so the write cannot fail.
                let _ = out.set(p, WALL);
            }
        }
    }
    out
}

/// A rigid block formation. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Block {
    ranks: usize,
    files: usize,
    spacing: f32,
    speed: f32,
    offsets: Vec<Vec2>,
    reach: f32,
    /// The grid the barycentre plans on (walls grown by the reach).
    plan: Walls,
    centre: Vec2,
    yaw: Vec2,
    members: Vec<Vec2>,
    goal: Option<Point>,
    path: Vec<Vec2>,
    path_next: usize,
    travel: f32,
    steps: u64,
    searches: u32,
}

impl Block {
    /// A block of `ranks` by `files`, `spacing` apart, moving at `speed`, with its barycentre at
    /// `centre`, facing east, on `walls`.
    ///
    /// # Errors
    /// [`SceneError::Invalid`] for ranks or files of 0 or over [`MAX_RANKS`] / [`MAX_FILES`],
    /// a spacing or speed that is not a positive
    /// finite number, or a barycentre where the block does not fit clear of the walls.
    pub fn new(
        walls: &Walls,
        centre: Vec2,
        ranks: usize,
        files: usize,
        spacing: f32,
        speed: f32,
    ) -> Result<Self, SceneError> {
        check_shape(ranks, files)?;
        if !(spacing.is_finite() && spacing > 0.0 && speed.is_finite() && speed > 0.0) {
            return Err(SceneError::Invalid(format!(
                "a block needs a positive spacing and speed, not {spacing} and {speed}"
            )));
        }
        let offsets = block_offsets(ranks, files, spacing);
        let reach = block_reach(&offsets);
        let plan = Walls::new(clearance_grid(walls, reach), walls.cell());
        if !plan.is_free(centre) {
            return Err(SceneError::Invalid(format!(
                "a block of {ranks} x {files} does not fit clear of the walls at ({:.1}, {:.1})",
                centre.x, centre.y
            )));
        }
        let mut block = Self {
            ranks,
            files,
            spacing,
            speed,
            offsets,
            reach,
            plan,
            centre,
            yaw: Vec2::new(1.0, 0.0),
            members: Vec::new(),
            goal: None,
            path: Vec::new(),
            path_next: 0,
            travel: 0.0,
            steps: 0,
            searches: 0,
        };
        block.place();
        Ok(block)
    }

    /// Ranks (rows, one behind another).
    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// Files (members per rank).
    pub fn files(&self) -> usize {
        self.files
    }

    /// Distance between neighbouring slots.
    pub fn spacing(&self) -> f32 {
        self.spacing
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Always false: a block has at least one member.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The barycentre.
    pub fn centre(&self) -> Vec2 {
        self.centre
    }

    /// The yaw: the unit vector the block faces.
    pub fn yaw(&self) -> Vec2 {
        self.yaw
    }

    /// Member `i`'s position.
    pub fn position(&self, i: usize) -> Vec2 {
        self.members[i]
    }

    /// Every member's position, slot order.
    pub fn positions(&self) -> &[Vec2] {
        &self.members
    }

    /// The slots in the block's frame (see [`block_offsets`]).
    pub fn offsets(&self) -> &[Vec2] {
        &self.offsets
    }

    /// The farthest point of any member's body from the barycentre.
    pub fn reach(&self) -> f32 {
        self.reach
    }

    /// The grid the barycentre plans on: the walls grown by the reach.
    pub fn plan_grid(&self) -> &Grid {
        self.plan.grid()
    }

    /// The barycentre's path still to walk, from its next corner on (empty when arrived).
    pub fn path(&self) -> &[Vec2] {
        &self.path[self.path_next.min(self.path.len())..]
    }

    /// The goal cell, if one is set.
    pub fn goal(&self) -> Option<Point> {
        self.goal
    }

    /// True when the barycentre has reached its goal (or has none).
    pub fn arrived(&self) -> bool {
        self.path.is_empty()
    }

    /// Distance the barycentre has walked.
    pub fn travel(&self) -> f32 {
        self.travel
    }

    /// A* searches run.
    pub fn searches(&self) -> u32 {
        self.searches
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Changes the speed (a positive finite number; anything else is ignored).
    pub fn set_speed(&mut self, speed: f32) {
        if speed.is_finite() && speed > 0.0 {
            self.speed = speed;
        }
    }

    /// The largest distance of a member from where its slot puts it, recomputed from the
    /// barycentre and yaw (zero up to rounding: the block keeps its shape).
    pub fn shape_error(&self) -> f32 {
        let side = self.yaw.perp();
        self.members
            .iter()
            .zip(&self.offsets)
            .map(|(&p, o)| p.distance(self.centre + self.yaw * o.x + side * o.y))
            .fold(0.0_f32, f32::max)
    }

    /// The four corners of the block's footprint (slots grown by a member's radius), for
    /// drawing.
    pub fn outline(&self) -> [Vec2; 4] {
        let fx = (self.ranks as f32 - 1.0) / 2.0 * self.spacing + RADIUS;
        let fy = (self.files as f32 - 1.0) / 2.0 * self.spacing + RADIUS;
        let (f, s, c) = (self.yaw, self.yaw.perp(), self.centre);
        [c + f * fx - s * fy, c + f * fx + s * fy, c - f * fx + s * fy, c - f * fx - s * fy]
    }

    /// Plans the barycentre's path to `goal` (one A* on the grown walls) and starts walking it.
    ///
    /// # Errors
    /// [`SceneError::Refused`] when the block cannot stand at the goal or cannot get there.
    pub fn set_goal(&mut self, goal: Point) -> Result<(), SceneError> {
        let grid = self.plan.grid();
        if !grid.is_passable(goal) {
            return Err(SceneError::Refused(format!("the block does not fit at {goal}")));
        }
        let (cx, cy) = self.plan.cell_at(self.centre);
        let from = Point::new(cx.max(0) as usize, cy.max(0) as usize);
        self.searches += 1;
        self.path = route(&self.plan, self.centre, from, goal, format!("the block cannot get to {goal}"))?;
        self.path_next = 1;
        self.goal = Some(goal);
        Ok(())
    }

    /// Advances the block by one step: the barycentre walks, the yaw turns, the members are
    /// placed at their slots.
    pub fn step(&mut self) {
        self.steps += 1;
        if self.path.is_empty() {
            return;
        }
        let next = self.path[self.path_next];
        let to = next - self.centre;
        let dir = if to.length() > 1e-6 { to.normalized() } else { self.yaw };
        let angle = self.yaw.cross(dir).atan2(self.yaw.dot(dir));
        let rate = TURN_RATE.min(SWEEP_FACTOR * self.speed / self.reach.max(1e-3));
        self.yaw = self.yaw.rotated(angle.clamp(-rate * DT, rate * DT)).normalized();
        // Slow down while the yaw lags; wheel on the spot beyond a right angle.
        let mut budget = self.speed * angle.cos().max(0.0) * DT;
        let start = self.centre;
        while budget > 0.0 && self.path_next < self.path.len() {
            let target = self.path[self.path_next];
            let d = self.centre.distance(target);
            if d <= budget {
                self.centre = target;
                budget -= d;
                self.path_next += 1;
            } else {
                self.centre += (target - self.centre) * (budget / d);
                budget = 0.0;
            }
        }
        self.travel += self.centre.distance(start);
        if self.path_next >= self.path.len() {
            self.path.clear();
            self.path_next = 0;
        }
        self.place();
    }

    fn place(&mut self) {
        let side = self.yaw.perp();
        let (c, f) = (self.centre, self.yaw);
        self.members.clear();
        self.members.extend(self.offsets.iter().map(|o| c + f * o.x + side * o.y));
    }
}

/// Checks a block's ranks and files.
///
/// # Errors
/// [`SceneError::Invalid`] naming the number out of range.
pub fn check_shape(ranks: usize, files: usize) -> Result<(), SceneError> {
    if ranks == 0 || ranks > MAX_RANKS {
        return Err(SceneError::Invalid(format!("ranks must be from 1 to {MAX_RANKS}, not {ranks}")));
    }
    if files == 0 || files > MAX_FILES {
        return Err(SceneError::Invalid(format!("files must be from 1 to {MAX_FILES}, not {files}")));
    }
    Ok(())
}
