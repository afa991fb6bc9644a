//! Fixed group motion: a squad whose centre follows one A* path while every member keeps to
//! its own slot of a formation around that centre.
//!
//! How it works, step by step:
//!
//! 1. The formation is a list of slot offsets relative to the centre (line, wedge or column,
//!    `spacing` apart), expressed in the squad's own frame: x forward along the heading, y to
//!    the side. The offsets are shifted so that their mean is the centre.
//! 2. The centre plans one A* path (8-connected, no corner cutting, octile estimate) from its
//!    cell to the goal cell and shortens it by line of sight (each corner is dropped when the
//!    corner before it sees the one after it). It then walks along that polyline; its heading
//!    turns towards the direction of travel at a limited rate (slow enough that the outermost
//!    slot never sweeps faster than a member can run), and the slots turn with it; when the
//!    squad sets off from rest it faces its first leg at once and members take the nearest
//!    slots.
//!    The centre slows down while the members are far from their slots, so that the squad
//!    waits for stragglers.
//! 3. A slot that falls inside a wall, or behind one as seen from the centre, is pulled along
//!    the ray from the centre to just before the wall and then pushed clear of nearby walls
//!    (by [`WALL_REACH`] when there is room, so the wall field does not fight the slot):
//!    the member packs in towards the centre instead of walking into the wall.
//! 4. Each member's acceleration is a sum of fields: attraction to its slot (an arrive
//!    behaviour on top of the slot's own velocity), repulsion from members closer than
//!    [`SEPARATION`], and repulsion from walls closer than [`WALL_REACH`]. The attraction has
//!    hysteresis: a member counts as in place once within [`R_IN`] (0.2 cells) of its slot and
//!    then only matches the slot's velocity; it starts correcting again only when it drifts
//!    beyond [`R_OUT`] (0.6 cells). Without the band a member hovering near its slot would
//!    switch between pulling and coasting every few steps: on the "squad" tour the switches
//!    roughly halve with it (345 against 661 in 200 s for the default line of nine). Movement slides along walls cell by cell, so a member's centre never enters a
//!    wall cell.
//! 5. A member that cannot see its slot, or is farther than [`Squad::cut_off_distance`] from
//!    it, for longer than [`CUT_OFF_DELAY`] is cut off: it asks for its own A* path to its slot
//!    (or to the centre when the slot is not usable), follows it, and rejoins the formation once
//!    it sees its slot again within [`Squad::rejoin_distance`]. Requests wait in a queue and at
//!    most one A* runs per step; paths are kept until walked or older than [`REPLAN_AFTER`].
//!
//! ```
//! use pathlab_core::crowd::squad::{Formation, Squad, SquadParams};
//! use pathlab_core::grid::{Grid, Point};
//! use pathlab_core::boids::{Vec2, Walls};
//! let walls = Walls::new(Grid::new(30, 20).unwrap(), 1.0);
//! let start: Vec<Vec2> = (0..5).map(|i| Vec2::new(4.0 + i as f32 * 0.5, 10.0)).collect();
//! let params = SquadParams { formation: Formation::Wedge, ..SquadParams::default() };
//! let mut squad = Squad::new(walls, Vec2::new(5.0, 10.5), &start, params).unwrap();
//! squad.set_goal(Point::new(25, 10)).unwrap();
//! for _ in 0..600 { squad.step(); }
//! assert!(squad.centre().x > 20.0);
//! assert!((0..squad.len()).all(|i| squad.slot_distance(i) < 1.0));
//! ```
//!
//! The files, one per concept:
//! - this one: the squad itself, its centre walking the smoothed A* path, and the step;
//! - [`formation`]: the arrangements of slots and placing the slots around the centre, clear
//!   of walls;
//! - [`members`]: each member's fields, the hysteresis, and being cut off and finding the way
//!   back;
//! - [`scene`]: the two demonstrations the crowd page runs ("squad" and "squad-cutoff");
//! - [`block`]: the rigid block of the course's book (ranks by files, moved by its barycentre
//!   and yaw, nobody steering), the other way to move a formation;
//! - [`formations`]: the block beside a squad held by fields, a tree in the way of each
//!   ("formation-tree"), and several squads at once ("squads").
//!
//! Everything public is re-exported here, so `crowd::squad::Squad` and the like keep their
//! paths.

pub mod block;
pub mod formation;
pub mod formations;
pub mod members;
pub mod scene;

use std::collections::VecDeque;

use super::scene::SceneError;
use crate::boids::{Vec2, Walls};
use crate::grid::{Diagonal, Grid, Point};
use crate::heuristic::Heuristic;
use crate::search::astar::astar;
use crate::search::sight::line_of_sight;

pub use block::{
    block_offsets, block_reach, check_shape, clearance_grid, Block, MAX_FILES, MAX_FORMATION_MEMBERS, MAX_RANKS,
};
pub use formation::{check_spacing, check_speed, Formation, SquadParams};
pub use formations::{FormationLayout, FormationScene, UnitKind, FORMATION_SPACING, MAX_SQUADS, REFORMED, TREE_RADIUS};
pub use members::{in_place_after, slot_seek};
pub use scene::{SquadMap, SquadScene};

use members::Member;

/// A member counts as in place within this distance of its slot (world units; one cell is one
/// unit in the scenes).
pub const R_IN: f32 = 0.2;
/// An in-place member starts correcting again only beyond this distance from its slot.
pub const R_OUT: f32 = 0.6;
/// Members' radius in world units.
pub const RADIUS: f32 = 0.3;
/// Members closer than this push each other apart (centre to centre).
pub const SEPARATION: f32 = 0.8;
/// Walls closer than this push a member away.
pub const WALL_REACH: f32 = 0.7;
/// How long a member must be out of sight of its slot (or too far from it) before it plans its
/// own path, in seconds.
pub const CUT_OFF_DELAY: f32 = 0.6;
/// A cut-off member's path older than this is planned again (its slot has moved), in seconds.
pub const REPLAN_AFTER: f32 = 4.0;
/// The smallest and largest spacing between slots, in world units.
pub const SPACING_RANGE: (f64, f64) = (0.8, 4.0);
/// The smallest and largest speed of the centre, in world units per second.
pub const SPEED_RANGE: (f64, f64) = (0.2, 4.0);
/// The largest squad (as large as the largest block formation).
pub const MAX_MEMBERS: usize = block::MAX_FORMATION_MEMBERS;

/// Seconds per step.
const DT: f32 = 0.05;
/// How fast the heading (and with it the formation) may turn, in radians per second.
const TURN_RATE: f32 = 1.2;
/// Members' top speed as a multiple of the centre's speed (they must be able to catch up).
const MEMBER_SPEED_FACTOR: f32 = 2.0;
/// Members' largest acceleration, world units per second squared.
const MAX_ACCEL: f32 = 10.0;
/// Time constant of the velocity correction, seconds.
const TAU: f32 = 0.25;
/// Within this distance the arrive behaviour slows down.
const SLOW_RADIUS: f32 = 1.5;
/// Strength of the separation field.
const K_SEPARATION: f32 = 14.0;
/// Strength of the wall field.
const K_WALL: f32 = 16.0;

/// Measurements of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SquadMetrics {
    /// Mean distance of members (not cut off) from their slots.
    pub mean_slot_distance: f32,
    /// Largest distance of any member from its slot.
    pub max_slot_distance: f32,
    /// Members within their hysteresis band (in place).
    pub in_place: usize,
    /// Members currently cut off.
    pub cut_off: usize,
    /// How many times a cut-off member has rejoined.
    pub rejoins: u32,
    /// Simulated seconds.
    pub time: f32,
    /// Distance the centre has travelled along its paths.
    pub centre_travel: f32,
    /// Length of the centre's current path (0 when it has none).
    pub centre_path_length: f32,
    /// A* searches run so far (centre and members).
    pub searches: u32,
}

/// A squad moving in formation on a wall grid. See the [module documentation](self).
///
/// ```
/// use pathlab_core::crowd::squad::{Squad, SquadParams};
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::boids::{Vec2, Walls};
/// let walls = Walls::new(Grid::new(12, 12).unwrap(), 1.0);
/// let c = Vec2::new(6.5, 6.5);
/// let mut squad = Squad::new(walls, c, &[c, c + Vec2::new(0.5, 0.0)], SquadParams::default()).unwrap();
/// squad.set_goal(Point::new(6, 10)).unwrap();
/// while !squad.arrived() { squad.step(); }
/// assert_eq!(squad.centre(), Vec2::new(6.5, 10.5));
/// ```
#[derive(Clone, Debug)]
pub struct Squad {
    walls: Walls,
    params: SquadParams,
    centre: Vec2,
    centre_vel: Vec2,
    heading: Vec2,
    goal: Option<Point>,
    path: Vec<Vec2>,
    path_next: usize,
    path_length: f32,
    offsets: Vec<Vec2>,
    slots: Vec<Vec2>,
    slot_vel: Vec<Vec2>,
    /// Whether each slot had to be moved off or out from behind a wall.
    slot_moved: Vec<bool>,
    members: Vec<Member>,
    queue: VecDeque<usize>,
    steps: u64,
    rejoins: u32,
    travel: f32,
    searches: u32,
    arrived_at: Option<f32>,
}

impl Squad {
    /// A squad whose centre starts at `centre`, with one member at each of `members`.
    ///
    /// # Errors
    /// [`SceneError::Invalid`] when there are no members or more than [`MAX_MEMBERS`], when a
    /// position is not finite or lies in a wall or off the grid, or when a parameter is NaN.
    pub fn new(walls: Walls, centre: Vec2, members: &[Vec2], params: SquadParams) -> Result<Self, SceneError> {
        if members.is_empty() || members.len() > MAX_MEMBERS {
            return Err(SceneError::Invalid(format!(
                "a squad needs between 1 and {MAX_MEMBERS} members, not {}",
                members.len()
            )));
        }
        if !walls.is_free(centre) {
            return Err(SceneError::Invalid(format!("the squad's centre {centre:?} is in a wall or off the map")));
        }
        for (i, &p) in members.iter().enumerate() {
            if !walls.is_free(p) {
                return Err(SceneError::Invalid(format!("member {i} at {p:?} is in a wall or off the map")));
            }
        }
        let (spacing, _) = check_spacing(f64::from(params.spacing))?;
        let (speed, _) = check_speed(f64::from(params.speed))?;
        let params = SquadParams { spacing, speed, ..params };
        let n = members.len();
        let mut squad = Self {
            walls,
            params,
            centre,
            centre_vel: Vec2::ZERO,
            heading: Vec2::new(1.0, 0.0),
            goal: None,
            path: Vec::new(),
            path_next: 0,
            path_length: 0.0,
            offsets: Vec::new(),
            slots: vec![centre; n],
            slot_vel: vec![Vec2::ZERO; n],
            slot_moved: vec![false; n],
            members: members
                .iter()
                .enumerate()
                .map(|(i, &pos)| Member {
                    pos,
                    vel: Vec2::ZERO,
                    slot: i,
                    in_place: false,
                    away: 0.0,
                    cut_off: false,
                    queued: false,
                    own: None,
                })
                .collect(),
            queue: VecDeque::new(),
            steps: 0,
            rejoins: 0,
            travel: 0.0,
            searches: 0,
            arrived_at: None,
        };
        squad.offsets = params.formation.offsets(n, spacing);
        squad.place_slots();
        squad.assign_slots();
        squad.slot_vel.fill(Vec2::ZERO);
        Ok(squad)
    }

    /// The walls.
    pub fn walls(&self) -> &Walls {
        &self.walls
    }

    /// The settings in use.
    pub fn params(&self) -> SquadParams {
        self.params
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Always false: a squad has at least one member.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The centre's position.
    pub fn centre(&self) -> Vec2 {
        self.centre
    }

    /// The squad's heading (a unit vector).
    pub fn heading(&self) -> Vec2 {
        self.heading
    }

    /// The goal cell, if one is set.
    pub fn goal(&self) -> Option<Point> {
        self.goal
    }

    /// The centre's smoothed path (empty when it has arrived or has no goal).
    pub fn path(&self) -> &[Vec2] {
        &self.path
    }

    /// True when the centre has reached its goal (or has none).
    pub fn arrived(&self) -> bool {
        self.path.is_empty()
    }

    /// Seconds since the centre arrived at its last goal (None while it travels).
    pub fn arrived_for(&self) -> Option<f32> {
        self.arrived_at.map(|t| self.time() - t)
    }

    /// Simulated seconds.
    pub fn time(&self) -> f32 {
        self.steps as f32 * DT
    }

    /// Seconds per step.
    pub fn dt(&self) -> f32 {
        DT
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Plans the centre's path to `goal` (one A*) and starts walking it.
    ///
    /// # Errors
    /// [`SceneError::Refused`] when the goal is a wall, off the grid, or cannot be reached from
    /// the centre.
    pub fn set_goal(&mut self, goal: Point) -> Result<(), SceneError> {
        let grid = self.walls.grid();
        if !grid.is_passable(goal) {
            return Err(SceneError::Refused(format!("the goal {goal} is a wall or off the map")));
        }
        let from = self
            .cell_of(self.centre)
            .ok_or_else(|| SceneError::Refused("the squad's centre is not on an open cell".to_string()))?;
        self.searches += 1;
        let unreachable = format!("the goal {goal} cannot be reached from the squad");
        let points = route(&self.walls, self.centre, from, goal, unreachable)?;
        self.path_length = points.windows(2).map(|w| w[0].distance(w[1])).sum();
        if self.path.is_empty() {
            // Setting off from rest: face the first leg at once and give each member the slot
            // nearest to it, instead of swinging the whole formation round on the way.
            let first = points[1] - points[0];
            if first.length() > 1e-6 {
                self.heading = first.normalized();
            }
            self.place_slots();
            self.assign_slots();
        }
        self.path = points;
        self.path_next = 1;
        self.goal = Some(goal);
        self.arrived_at = None;
        Ok(())
    }

    /// The measurements so far.
    pub fn metrics(&self) -> SquadMetrics {
        let mut sum = 0.0;
        let mut count = 0usize;
        let mut max = 0.0_f32;
        for i in 0..self.members.len() {
            let d = self.slot_distance(i);
            max = max.max(d);
            if !self.members[i].cut_off {
                sum += d;
                count += 1;
            }
        }
        SquadMetrics {
            mean_slot_distance: if count > 0 { sum / count as f32 } else { f32::NAN },
            max_slot_distance: max,
            in_place: self.members.iter().filter(|m| m.in_place).count(),
            cut_off: self.members.iter().filter(|m| m.cut_off).count(),
            rejoins: self.rejoins,
            time: self.time(),
            centre_travel: self.travel,
            centre_path_length: if self.path.is_empty() { 0.0 } else { self.path_length },
            searches: self.searches,
        }
    }

    /// Advances the squad by one step of [`Squad::dt`] seconds: the centre moves along its
    /// path, the slots follow, at most one queued member path is planned, and every member
    /// moves under the sum of its fields.
    pub fn step(&mut self) {
        self.move_centre();
        let before = self.slots.clone();
        self.place_slots();
        for (k, v) in self.slot_vel.iter_mut().enumerate() {
            *v = ((self.slots[k] - before[k]) / DT).truncate(self.params.speed * MEMBER_SPEED_FACTOR);
        }
        self.check_cut_offs();
        self.plan_one();
        self.move_members();
        self.steps += 1;
    }

    fn cell_of(&self, p: Vec2) -> Option<Point> {
        let (cx, cy) = self.walls.cell_at(p);
        if self.walls.blocked(cx, cy) {
            return None;
        }
        Some(Point::new(cx as usize, cy as usize))
    }

    /// True when the cells of `a` and `b` are open and see each other.
    fn sees(&self, a: Vec2, b: Vec2) -> bool {
        match (self.cell_of(a), self.cell_of(b)) {
            (Some(p), Some(q)) => line_of_sight(self.walls.grid(), p, q, Diagonal::NoCornerCutting),
            _ => false,
        }
    }

    fn move_centre(&mut self) {
        if self.path.is_empty() {
            self.centre_vel = Vec2::ZERO;
            return;
        }
        // Slow down while the members (not cut off) are far from their slots.
        let mut sum = 0.0;
        let mut count = 0;
        for i in 0..self.members.len() {
            if !self.members[i].cut_off {
                sum += self.slot_distance(i);
                count += 1;
            }
        }
        let mean = if count > 0 { sum / count as f32 } else { 0.0 };
        let factor = (1.5 - mean / self.params.spacing).clamp(0.3, 1.0);
        let mut budget = self.params.speed * factor * DT;
        let start = self.centre;
        let mut dir = self.heading;
        while budget > 0.0 && self.path_next < self.path.len() {
            let target = self.path[self.path_next];
            let to = target - self.centre;
            let d = to.length();
            if d > 1e-6 {
                dir = to / d;
            }
            if d <= budget {
                self.centre = target;
                budget -= d;
                self.path_next += 1;
            } else {
                self.centre += to * (budget / d);
                budget = 0.0;
            }
        }
        self.travel += self.centre.distance(start);
        self.centre_vel = (self.centre - start) / DT;
        // Turn the heading towards the direction of travel at a limited rate.
        let angle = self.heading.cross(dir).atan2(self.heading.dot(dir));
        // The outermost slot must not sweep faster than a member can run.
        let reach = self.offsets.iter().map(|o| o.length()).fold(0.0_f32, f32::max);
        let top = self.params.speed * MEMBER_SPEED_FACTOR;
        let rate = if reach > 1e-3 { TURN_RATE.min(0.7 * top / reach) } else { TURN_RATE } * factor;
        let turn = angle.clamp(-rate * DT, rate * DT);
        self.heading = self.heading.rotated(turn).normalized();
        if self.path_next >= self.path.len() {
            self.path.clear();
            self.path_next = 0;
            self.arrived_at = Some(self.time());
        }
    }
}

/// The way from `start`, a point in cell `from`, to the centre of cell `goal`: one A*
/// (8-connected, no corner cutting, octile estimate) shortened by line of sight, as the points
/// to walk through, `start` first and at least two. Refused with the message `unreachable`
/// when there is no path. The squad's centre and the rigid block plan their walks so.
fn route(walls: &Walls, start: Vec2, from: Point, goal: Point, unreachable: String) -> Result<Vec<Vec2>, SceneError> {
    let grid = walls.grid();
    let found = astar(grid, from, goal, Heuristic::Octile, Diagonal::NoCornerCutting)
        .map_err(|e| SceneError::Refused(e.to_string()))?
        .ok_or(SceneError::Refused(unreachable))?;
    let mut points = vec![start];
    points.extend(smooth(grid, &found.points).into_iter().skip(1).map(|p| walls.centre(p)));
    if points.len() < 2 {
        points.push(walls.centre(goal));
    }
    Ok(points)
}

/// Shortens a cell path by line of sight: from each kept corner, jump to the farthest later
/// cell it sees.
fn smooth(grid: &Grid, cells: &[Point]) -> Vec<Point> {
    if cells.len() <= 2 {
        return cells.to_vec();
    }
    let mut out = vec![cells[0]];
    let mut i = 0;
    while i + 1 < cells.len() {
        let mut j = i + 1;
        // Farthest visible cell, scanning forward until sight is lost.
        while j + 1 < cells.len() && line_of_sight(grid, cells[i], cells[j + 1], Diagonal::NoCornerCutting) {
            j += 1;
        }
        out.push(cells[j]);
        i = j;
    }
    out
}
