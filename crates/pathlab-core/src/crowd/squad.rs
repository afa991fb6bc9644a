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
//! use pathlab_core::steer::{Vec2, Walls};
//! let walls = Walls::new(Grid::new(30, 20).unwrap(), 1.0);
//! let start: Vec<Vec2> = (0..5).map(|i| Vec2::new(4.0 + i as f32 * 0.5, 10.0)).collect();
//! let params = SquadParams { formation: Formation::Wedge, ..SquadParams::default() };
//! let mut squad = Squad::new(walls, Vec2::new(5.0, 10.5), &start, params).unwrap();
//! squad.set_goal(Point::new(25, 10)).unwrap();
//! for _ in 0..600 { squad.step(); }
//! assert!(squad.centre().x > 20.0);
//! assert!((0..squad.len()).all(|i| squad.slot_distance(i) < 1.0));
//! ```

use std::collections::VecDeque;

use super::scene::{Action, Frame, Ink, Metric, Param, Scene, SceneConfig, SceneError};
use crate::grid::{Diagonal, Grid, Point, WALL};
use crate::heuristic::Heuristic;
use crate::search::astar::astar;
use crate::search::sight::line_of_sight;
use crate::steer::{Pcg32, Vec2, Walls};

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
/// The largest squad.
pub const MAX_MEMBERS: usize = 30;

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

/// The arrangement of slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formation {
    /// Side by side, across the direction of travel.
    Line,
    /// A V with its tip forward: the first member at the tip, then pairs on either side.
    Wedge,
    /// One behind another along the direction of travel.
    Column,
}

impl Formation {
    /// Every formation in the order of the scene's choice parameter.
    pub const ALL: [Formation; 3] = [Formation::Line, Formation::Wedge, Formation::Column];

    /// The formation's name.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Wedge => "wedge",
            Formation::Column => "column",
        }
    }

    /// Slot offsets for `n` members `spacing` apart in the squad's frame (x forward, y to the
    /// side), shifted so that their mean is zero.
    pub fn offsets(self, n: usize, spacing: f32) -> Vec<Vec2> {
        let mut out: Vec<Vec2> = (0..n)
            .map(|i| {
                let k = i as f32;
                match self {
                    Formation::Line => Vec2::new(0.0, k * spacing),
                    Formation::Column => Vec2::new(-k * spacing, 0.0),
                    Formation::Wedge => {
                        // Row r = (i + 1) / 2 holds members 2r - 1 (one side) and 2r (other).
                        let row = i.div_ceil(2) as f32;
                        let side = if i % 2 == 1 { -1.0 } else { 1.0 };
                        Vec2::new(-row * spacing * 0.8, side * row * spacing * 0.8)
                    }
                }
            })
            .collect();
        if n > 0 {
            let mut mean = Vec2::ZERO;
            for o in &out {
                mean += *o;
            }
            let mean = mean / n as f32;
            for o in &mut out {
                *o -= mean;
            }
        }
        out
    }
}

/// The squad's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SquadParams {
    /// The arrangement of slots.
    pub formation: Formation,
    /// Distance between neighbouring slots, world units (see [`SPACING_RANGE`]).
    pub spacing: f32,
    /// The centre's cruising speed, world units per second (see [`SPEED_RANGE`]).
    pub speed: f32,
}

impl Default for SquadParams {
    fn default() -> Self {
        Self { formation: Formation::Line, spacing: 1.4, speed: 1.5 }
    }
}

/// Checks a spacing: NaN or infinite is an error, out of range is clamped with a message.
pub fn check_spacing(value: f64) -> Result<(f32, Option<String>), SceneError> {
    clamp_param("spacing", value, SPACING_RANGE)
}

/// Checks a speed: NaN or infinite is an error, out of range is clamped with a message.
pub fn check_speed(value: f64) -> Result<(f32, Option<String>), SceneError> {
    clamp_param("speed", value, SPEED_RANGE)
}

fn clamp_param(name: &str, value: f64, (lo, hi): (f64, f64)) -> Result<(f32, Option<String>), SceneError> {
    if !value.is_finite() {
        return Err(SceneError::Invalid(format!("{name} must be a finite number, not {value}")));
    }
    let v = value.clamp(lo, hi);
    let msg = (v != value).then(|| format!("{name} {value} is outside [{lo}, {hi}]; using {v}"));
    Ok((v as f32, msg))
}

/// A cut-off member's own path back.
#[derive(Clone, Debug, PartialEq)]
struct OwnPath {
    points: Vec<Vec2>,
    next: usize,
    age: f32,
}

/// One member of the squad.
#[derive(Clone, Debug, PartialEq)]
struct Member {
    pos: Vec2,
    vel: Vec2,
    /// Index into the squad's slots.
    slot: usize,
    in_place: bool,
    /// Seconds the member has been out of sight of its slot or too far from it.
    away: f32,
    cut_off: bool,
    /// Waiting in the planning queue.
    queued: bool,
    own: Option<OwnPath>,
}

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
/// use pathlab_core::steer::{Vec2, Walls};
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

    /// Member `i`'s position.
    pub fn position(&self, i: usize) -> Vec2 {
        self.members[i].pos
    }

    /// Member `i`'s velocity.
    pub fn velocity(&self, i: usize) -> Vec2 {
        self.members[i].vel
    }

    /// Where member `i` should stand now (after moving the slot off walls).
    pub fn slot(&self, i: usize) -> Vec2 {
        self.slots[self.members[i].slot]
    }

    /// The index of member `i`'s slot in [`Formation::offsets`].
    pub fn slot_index(&self, i: usize) -> usize {
        self.members[i].slot
    }

    /// Where member `i`'s slot would be without walls.
    pub fn nominal_slot(&self, i: usize) -> Vec2 {
        let o = self.offsets[self.members[i].slot];
        self.centre + self.heading * o.x + self.heading.perp() * o.y
    }

    /// Whether member `i`'s slot had to be moved off or out from behind a wall.
    pub fn slot_moved(&self, i: usize) -> bool {
        self.slot_moved[self.members[i].slot]
    }

    /// Member `i`'s distance from its slot.
    pub fn slot_distance(&self, i: usize) -> f32 {
        self.members[i].pos.distance(self.slot(i))
    }

    /// True when member `i` is in place (within the hysteresis band).
    pub fn in_place(&self, i: usize) -> bool {
        self.members[i].in_place
    }

    /// True when member `i` is cut off and finding its own way back.
    pub fn is_cut_off(&self, i: usize) -> bool {
        self.members[i].cut_off
    }

    /// A cut-off member's own path (from its next waypoint on), if it has one.
    pub fn own_path(&self, i: usize) -> Option<&[Vec2]> {
        self.members[i].own.as_ref().map(|o| &o.points[o.next.min(o.points.len())..])
    }

    /// Beyond this distance from its slot a member counts as cut off (after
    /// [`CUT_OFF_DELAY`]): four spacings, at least 4 units.
    pub fn cut_off_distance(&self) -> f32 {
        (4.0 * self.params.spacing).max(4.0)
    }

    /// A cut-off member rejoins once it sees its slot within this distance: two spacings, at
    /// least 2 units.
    pub fn rejoin_distance(&self) -> f32 {
        (2.0 * self.params.spacing).max(2.0)
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

    /// Changes the formation; members are given the slots nearest to them.
    pub fn set_formation(&mut self, formation: Formation) {
        self.params.formation = formation;
        self.offsets = formation.offsets(self.members.len(), self.params.spacing);
        self.place_slots();
        self.assign_slots();
    }

    /// Changes the spacing; NaN is an error, out-of-range values are clamped with a message.
    pub fn set_spacing(&mut self, value: f64) -> Result<Option<String>, SceneError> {
        let (v, msg) = check_spacing(value)?;
        self.params.spacing = v;
        self.offsets = self.params.formation.offsets(self.members.len(), v);
        self.place_slots();
        Ok(msg)
    }

    /// Changes the centre's speed; NaN is an error, out-of-range values are clamped with a
    /// message.
    pub fn set_speed(&mut self, value: f64) -> Result<Option<String>, SceneError> {
        let (v, msg) = check_speed(value)?;
        self.params.speed = v;
        Ok(msg)
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
        let found = astar(grid, from, goal, Heuristic::Octile, Diagonal::NoCornerCutting)
            .map_err(|e| SceneError::Refused(e.to_string()))?
            .ok_or_else(|| SceneError::Refused(format!("the goal {goal} cannot be reached from the squad")))?;
        let mut points = vec![self.centre];
        points.extend(smooth(grid, &found.points).into_iter().skip(1).map(|p| self.walls.centre(p)));
        if points.len() < 2 {
            points.push(self.walls.centre(goal));
        }
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

    /// Moves member `i` to the point `to` (e.g. behind a wall) so that it has to find its way
    /// back.
    ///
    /// # Errors
    /// [`SceneError::Refused`] for a point in a wall or off the map, or an unknown member.
    pub fn place_member(&mut self, i: usize, to: Vec2) -> Result<(), SceneError> {
        if i >= self.members.len() {
            return Err(SceneError::Refused(format!("there is no member {i}")));
        }
        if !self.walls.is_free(to) {
            return Err(SceneError::Refused(format!("({:.1}, {:.1}) is in a wall or off the map", to.x, to.y)));
        }
        let push = self.walls.push_out(to, RADIUS);
        let p = if self.walls.is_free(to + push) { to + push } else { to };
        let m = &mut self.members[i];
        m.pos = p;
        m.vel = Vec2::ZERO;
        m.in_place = false;
        m.away = 0.0;
        m.own = None;
        Ok(())
    }

    /// The index of the member nearest to a point.
    pub fn nearest_member(&self, at: Vec2) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for (i, m) in self.members.iter().enumerate() {
            let d = m.pos.distance(at);
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((i, d));
            }
        }
        best.map(|(i, _)| i)
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

    /// World slot positions from the offsets, moved off and out from behind walls.
    fn place_slots(&mut self) {
        let fwd = self.heading;
        let side = fwd.perp();
        for (k, o) in self.offsets.iter().enumerate() {
            let want = self.centre + fwd * o.x + side * o.y;
            let (p, moved) = self.clear_slot(want);
            self.slots[k] = p;
            self.slot_moved[k] = moved;
        }
    }

    fn clear_slot(&self, want: Vec2) -> (Vec2, bool) {
        let to = want - self.centre;
        let d = to.length();
        let mut p = want;
        let mut moved = false;
        if d > 1e-6 {
            let dir = to / d;
            if let Some(hit) = self.walls.raycast(self.centre, dir, d + RADIUS) {
                p = self.centre + dir * (hit.dist - RADIUS * 1.5).clamp(0.0, d);
                moved = true;
            }
        }
        // Clear of the wall field if there is room, else at least clear of the body.
        for clearance in [WALL_REACH, RADIUS * 1.2] {
            let push = self.walls.push_out(p, clearance);
            if push.length() <= 1e-6 {
                break;
            }
            if self.walls.is_free(p + push) && self.walls.push_out(p + push, RADIUS).length() <= 1e-6 {
                p += push;
                moved = true;
                break;
            }
        }
        if !self.walls.is_free(p) {
            return (self.centre, true);
        }
        (p, moved)
    }

    /// Gives members the slots nearest to them, slot by slot (greedy), so that a new formation
    /// does not send members across one another.
    fn assign_slots(&mut self) {
        let n = self.members.len();
        let mut taken = vec![false; n];
        for k in 0..n {
            let mut best: Option<(usize, f32)> = None;
            for (i, m) in self.members.iter().enumerate() {
                if taken[i] {
                    continue;
                }
                let d = m.pos.distance(self.slots[k]);
                if best.is_none_or(|(_, b)| d < b) {
                    best = Some((i, d));
                }
            }
            if let Some((i, _)) = best {
                taken[i] = true;
                self.members[i].slot = k;
                self.members[i].in_place = false;
            }
        }
    }

    fn check_cut_offs(&mut self) {
        let far = self.cut_off_distance();
        let rejoin = self.rejoin_distance();
        for i in 0..self.members.len() {
            let slot = self.slot(i);
            let pos = self.members[i].pos;
            let d = pos.distance(slot);
            let sees = self.sees(pos, slot);
            let m = &mut self.members[i];
            if m.cut_off {
                if sees && d <= rejoin {
                    m.cut_off = false;
                    m.own = None;
                    m.away = 0.0;
                    self.rejoins += 1;
                } else {
                    let stale = m.own.as_ref().is_none_or(|o| o.next >= o.points.len() || o.age > REPLAN_AFTER);
                    if stale && !m.queued {
                        m.queued = true;
                        self.queue.push_back(i);
                    }
                }
            } else if !sees || d > far {
                m.away += DT;
                if m.away > CUT_OFF_DELAY {
                    m.cut_off = true;
                    m.in_place = false;
                    if !m.queued {
                        m.queued = true;
                        self.queue.push_back(i);
                    }
                }
            } else {
                m.away = 0.0;
            }
        }
    }

    /// Plans one queued member's path: at most one A* per step.
    fn plan_one(&mut self) {
        while let Some(i) = self.queue.pop_front() {
            self.members[i].queued = false;
            if !self.members[i].cut_off {
                continue;
            }
            let slot = self.slot(i);
            let target = self.cell_of(slot).or_else(|| self.cell_of(self.centre));
            let Some(from) = self.cell_of(self.members[i].pos) else { return };
            let Some(to) = target else { return };
            self.searches += 1;
            let grid = self.walls.grid();
            let found = astar(grid, from, to, Heuristic::Octile, Diagonal::NoCornerCutting).ok().flatten();
            let points: Vec<Vec2> = match found {
                Some(p) => smooth(grid, &p.points).into_iter().skip(1).map(|c| self.walls.centre(c)).collect(),
                // Unreachable: head for the slot directly and let the walls stop it.
                None => vec![slot],
            };
            self.members[i].own = Some(OwnPath { points, next: 0, age: 0.0 });
            return;
        }
    }

    fn move_members(&mut self) {
        let n = self.members.len();
        let top = self.params.speed * MEMBER_SPEED_FACTOR;
        let mut accel = vec![Vec2::ZERO; n];
        for (i, acc) in accel.iter_mut().enumerate() {
            let m = &self.members[i];
            let slot_vel = self.slot_vel[m.slot];
            // Attraction: where the member wants to go.
            let desired = if m.cut_off {
                match &m.own {
                    Some(o) if o.next < o.points.len() => {
                        let last = o.next + 1 == o.points.len();
                        arrive(m.pos, o.points[o.next], top, last)
                    }
                    _ => Vec2::ZERO,
                }
            } else {
                slot_seek(m.pos, self.slots[m.slot], slot_vel, m.in_place, top).0
            };
            let mut a = (desired - m.vel) / TAU;
            // Repulsion from members.
            for (j, o) in self.members.iter().enumerate() {
                if j == i {
                    continue;
                }
                let off = m.pos - o.pos;
                let d = off.length();
                if d < SEPARATION {
                    let away = if d > 1e-5 {
                        off / d
                    } else {
                        // Exactly on top of each other: split by index.
                        Vec2::new(if i < j { -1.0 } else { 1.0 }, 0.0)
                    };
                    a += away * (K_SEPARATION * (SEPARATION - d) / SEPARATION);
                }
            }
            // Repulsion from walls.
            if let Some((q, d)) = self.walls.nearest_wall(m.pos, WALL_REACH) {
                if d > 1e-5 {
                    a += (m.pos - q) / d * (K_WALL * (WALL_REACH - d) / WALL_REACH);
                }
            }
            *acc = a.truncate(MAX_ACCEL);
        }
        for (i, a) in accel.into_iter().enumerate() {
            let slot = self.slots[self.members[i].slot];
            let walls = &self.walls;
            let m = &mut self.members[i];
            m.vel = (m.vel + a * DT).truncate(top);
            let (mut p, stop_x, stop_y) = walls.slide(m.pos, m.vel * DT);
            if stop_x {
                m.vel.x = 0.0;
            }
            if stop_y {
                m.vel.y = 0.0;
            }
            let push = walls.push_out(p, RADIUS);
            if push.length() > 0.0 && walls.is_free(p + push) {
                let (q, _, _) = walls.slide(p, push);
                p = q;
            }
            m.pos = p;
            if !m.cut_off {
                m.in_place = in_place_after(p.distance(slot), m.in_place);
            }
            if let Some(o) = &mut m.own {
                o.age += DT;
                // Next waypoint reached, or already in sight of the one after: move on.
                while o.next < o.points.len() {
                    let reached = p.distance(o.points[o.next]) < 0.4;
                    if reached {
                        o.next += 1;
                    } else {
                        break;
                    }
                }
            }
        }
        // Skip a waypoint when the one after it is already in sight (one check per member).
        for i in 0..n {
            let pos = self.members[i].pos;
            let skip = match &self.members[i].own {
                Some(o) if o.next + 1 < o.points.len() => self.sees(pos, o.points[o.next + 1]),
                _ => false,
            };
            if skip {
                if let Some(o) = &mut self.members[i].own {
                    o.next += 1;
                }
            }
        }
    }
}

/// The hysteresis rule: a member that was in place stays so up to [`R_OUT`] from its slot; one
/// that was not becomes so only within [`R_IN`].
pub fn in_place_after(distance: f32, was_in_place: bool) -> bool {
    if was_in_place {
        distance <= R_OUT
    } else {
        distance <= R_IN
    }
}

/// The slot's attraction on a member at `pos`: the velocity it wants and whether it counts as
/// in place. In place (see [`in_place_after`]) it only keeps pace with the slot (`slot_vel`);
/// otherwise it adds an arrive behaviour towards the slot, slowing down within 1.5 units, and
/// the sum is capped at `top`.
///
/// ```
/// use pathlab_core::crowd::squad::slot_seek;
/// use pathlab_core::steer::Vec2;
/// let (slot, pace) = (Vec2::new(10.0, 0.0), Vec2::new(1.0, 0.0));
/// // 0.4 from the slot: an in-place member only keeps pace, one that is not heads for it.
/// assert_eq!(slot_seek(Vec2::new(9.6, 0.0), slot, pace, true, 3.0), (pace, true));
/// let (v, in_place) = slot_seek(Vec2::new(9.6, 0.0), slot, pace, false, 3.0);
/// assert!(!in_place && v.x > pace.x);
/// ```
pub fn slot_seek(pos: Vec2, slot: Vec2, slot_vel: Vec2, was_in_place: bool, top: f32) -> (Vec2, bool) {
    if in_place_after(pos.distance(slot), was_in_place) {
        (slot_vel, true)
    } else {
        ((slot_vel + arrive(pos, slot, top, true)).truncate(top), false)
    }
}

/// The desired velocity towards `target` at `top` speed, slowing down within
/// [`SLOW_RADIUS`] when `slow` is set.
fn arrive(pos: Vec2, target: Vec2, top: f32, slow: bool) -> Vec2 {
    let to = target - pos;
    let d = to.length();
    if d < 1e-6 {
        return Vec2::ZERO;
    }
    let speed = if slow { top * (d / SLOW_RADIUS).min(1.0) } else { top };
    to / d * speed
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

/// Which map a squad scene uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquadMap {
    /// Open ground with a few blocks; the squad tours a list of goals.
    Tour,
    /// A long wall with one member starting on the wrong side of it.
    CutOff,
}

/// A squad demonstration for the page: "squad" (a tour round a few blocks) or "squad-cutoff"
/// (one member starts behind a wall and must find its way back).
#[derive(Clone, Debug)]
pub struct SquadScene {
    squad: Squad,
    map: SquadMap,
    tour: Vec<Point>,
    tour_next: usize,
    /// True once the user has set a goal: the tour stops.
    user_goal: bool,
}

/// Seconds the squad rests at a goal before the tour moves on.
const REST: f32 = 3.0;

fn fill(grid: &mut Grid, x0: usize, y0: usize, x1: usize, y1: usize) {
    for y in y0..=y1 {
        for x in x0..=x1 {
            let _ = grid.set(Point::new(x, y), WALL);
        }
    }
}

impl SquadScene {
    /// Builds a scene; `config.agents` is clamped to 1..=[`MAX_MEMBERS`] (default 9).
    ///
    /// # Errors
    /// [`SceneError::Invalid`] if the set-up cannot be made.
    pub fn new(map: SquadMap, config: &SceneConfig) -> Result<Self, SceneError> {
        let n = config.agents.unwrap_or(9).clamp(1, MAX_MEMBERS);
        let mut rng = Pcg32::new(config.seed);
        let invalid = |e: crate::grid::GridError| SceneError::Invalid(e.to_string());
        let (grid, centre, tour, stray) = match map {
            SquadMap::Tour => {
                let mut g = Grid::new(48, 32).map_err(invalid)?;
                fill(&mut g, 15, 6, 18, 13);
                fill(&mut g, 24, 0, 26, 7);
                fill(&mut g, 28, 18, 34, 23);
                fill(&mut g, 10, 21, 13, 31);
                fill(&mut g, 38, 10, 40, 14);
                let tour = vec![Point::new(42, 5), Point::new(42, 26), Point::new(20, 26), Point::new(6, 5)];
                (g, Vec2::new(6.5, 5.5), tour, None)
            }
            SquadMap::CutOff => {
                let mut g = Grid::new(40, 24).map_err(invalid)?;
                fill(&mut g, 0, 11, 30, 12);
                let tour = vec![Point::new(35, 5), Point::new(5, 5)];
                (g, Vec2::new(6.5, 5.5), tour, Some(Vec2::new(6.5, 17.5)))
            }
        };
        let walls = Walls::new(grid, 1.0);
        let mut members = Vec::with_capacity(n);
        let mut tries = 0;
        while members.len() < n {
            tries += 1;
            if tries > 100_000 {
                return Err(SceneError::Invalid("no room to place the squad's members".to_string()));
            }
            let p = centre + Vec2::new(rng.range(-2.5, 2.5), rng.range(-2.5, 2.5));
            if walls.is_free(p) && walls.push_out(p, RADIUS) == Vec2::ZERO {
                members.push(p);
            }
        }
        if let Some(s) = stray {
            members[0] = s;
        }
        let mut squad = Squad::new(walls, centre, &members, SquadParams::default())?;
        squad.set_goal(tour[0])?;
        Ok(Self { squad, map, tour, tour_next: 1, user_goal: false })
    }

    /// The squad.
    pub fn squad(&self) -> &Squad {
        &self.squad
    }
}

impl Scene for SquadScene {
    fn name(&self) -> &'static str {
        match self.map {
            SquadMap::Tour => "squad",
            SquadMap::CutOff => "squad-cutoff",
        }
    }
    fn grid(&self) -> &Grid {
        self.squad.walls.grid()
    }
    fn cell_size(&self) -> f32 {
        self.squad.walls.cell()
    }
    fn dt(&self) -> f32 {
        DT
    }
    fn step(&mut self) {
        self.squad.step();
        if !self.user_goal && self.squad.arrived_for().is_some_and(|t| t >= REST) {
            let goal = self.tour[self.tour_next % self.tour.len()];
            self.tour_next = (self.tour_next + 1) % self.tour.len();
            // The tour's goals are open and connected; a refusal would only skip one.
            let _ = self.squad.set_goal(goal);
        }
    }
    fn steps(&self) -> u64 {
        self.squad.steps
    }
    fn len(&self) -> usize {
        self.squad.len()
    }
    fn kinds(&self) -> Vec<&'static str> {
        vec!["in formation", "cut off"]
    }
    fn frame(&self, selected: Option<usize>, out: &mut Frame) {
        out.clear();
        let s = &self.squad;
        for m in &s.members {
            let heading = if m.vel.length() > 0.05 { m.vel } else { s.heading };
            out.agent(m.pos, heading, RADIUS, u8::from(m.cut_off));
        }
        // The squad's path, centre and goal.
        if !s.path.is_empty() {
            out.line(s.centre, s.path[s.path_next.min(s.path.len() - 1)], Ink::Route);
            for w in s.path[s.path_next.min(s.path.len() - 1)..].windows(2) {
                out.line(w[0], w[1], Ink::Route);
            }
        }
        out.circle(s.centre, 0.15, Ink::Route);
        out.line(s.centre, s.centre + s.heading * 0.8, Ink::Preferred);
        if let Some(g) = s.goal {
            out.circle(s.walls.centre(g), 0.45, Ink::Goal);
        }
        // Every member lightly: its slot and a link to it; cut-off members' own paths.
        for (i, m) in s.members.iter().enumerate() {
            let slot = s.slots[m.slot];
            out.circle(slot, 0.12, Ink::Slot);
            if m.cut_off {
                if let Some(path) = s.own_path(i) {
                    let mut prev = m.pos;
                    for &p in path {
                        out.line(prev, p, Ink::Route);
                        prev = p;
                    }
                }
            } else {
                out.line(m.pos, slot, Ink::Link);
            }
        }
        // The selected member in full: its hysteresis band, velocity, link, the slot's own
        // velocity, and where its slot was moved from when a wall was in the way.
        if let Some(i) = selected.filter(|&i| i < s.len()) {
            let m = &s.members[i];
            let slot = s.slots[m.slot];
            out.circle(slot, R_IN, Ink::Slot);
            out.circle(slot, R_OUT, Ink::Reach);
            out.line(m.pos, slot, Ink::Link);
            out.line(m.pos, m.pos + m.vel, Ink::Velocity);
            out.line(slot, slot + s.slot_vel[m.slot], Ink::Preferred);
            if s.slot_moved[m.slot] {
                // Where the slot would be without walls, and where it was moved to.
                let nominal = s.nominal_slot(i);
                out.circle(nominal, 0.12, Ink::Slot);
                out.line(nominal, slot, Ink::Slot);
            }
        }
    }
    fn metrics(&self) -> Vec<Metric> {
        let m = self.squad.metrics();
        vec![
            Metric {
                name: "mean_slot_distance",
                label: "Mean distance from slot",
                value: f64::from(m.mean_slot_distance),
                unit: "cells",
            },
            Metric {
                name: "max_slot_distance",
                label: "Max distance from slot",
                value: f64::from(m.max_slot_distance),
                unit: "cells",
            },
            Metric { name: "in_place", label: "Members in place", value: m.in_place as f64, unit: "" },
            Metric { name: "cut_off", label: "Members cut off", value: m.cut_off as f64, unit: "" },
            Metric { name: "rejoins", label: "Rejoins", value: f64::from(m.rejoins), unit: "" },
            Metric { name: "time", label: "Time", value: f64::from(m.time), unit: "s" },
            Metric {
                name: "centre_travel",
                label: "Centre's distance walked",
                value: f64::from(m.centre_travel),
                unit: "cells",
            },
            Metric {
                name: "centre_path_length",
                label: "Centre's current path length",
                value: f64::from(m.centre_path_length),
                unit: "cells",
            },
            Metric { name: "searches", label: "A* searches", value: f64::from(m.searches), unit: "" },
        ]
    }
    fn params(&self) -> Vec<Param> {
        let p = self.squad.params;
        let formation = Formation::ALL.iter().position(|&f| f == p.formation).unwrap_or(0);
        vec![
            Param {
                name: "formation",
                label: "Formation",
                min: 0.0,
                max: (Formation::ALL.len() - 1) as f64,
                step: 1.0,
                value: formation as f64,
                choices: Formation::ALL.iter().map(|f| f.name()).collect(),
            },
            Param {
                name: "spacing",
                label: "Spacing (cells)",
                min: SPACING_RANGE.0,
                max: SPACING_RANGE.1,
                step: 0.1,
                value: f64::from(p.spacing),
                choices: Vec::new(),
            },
            Param {
                name: "speed",
                label: "Squad speed (cells/s)",
                min: SPEED_RANGE.0,
                max: SPEED_RANGE.1,
                step: 0.1,
                value: f64::from(p.speed),
                choices: Vec::new(),
            },
        ]
    }
    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError> {
        match name {
            "formation" => {
                if !value.is_finite() {
                    return Err(SceneError::Invalid(format!("formation must be a finite number, not {value}")));
                }
                let last = (Formation::ALL.len() - 1) as f64;
                let k = value.round().clamp(0.0, last);
                self.squad.set_formation(Formation::ALL[k as usize]);
                Ok((k != value).then(|| format!("formation {value} is not one of 0..={last}; using {k}")))
            }
            "spacing" => self.squad.set_spacing(value),
            "speed" => self.squad.set_speed(value),
            _ => Err(SceneError::UnknownParam(name.to_string())),
        }
    }
    fn actions(&self) -> Vec<Action> {
        vec![
            Action { name: "set-goal", label: "Set the squad's goal" },
            Action { name: "cut-off", label: "Move the nearest member here (behind a wall)" },
        ]
    }
    fn act(&mut self, action: &str, at: Vec2) -> Result<String, SceneError> {
        match action {
            "set-goal" => {
                let (cx, cy) = self.squad.walls.cell_at(at);
                if !at.is_finite() || self.squad.walls.blocked(cx, cy) {
                    return Err(SceneError::Refused(format!("({:.1}, {:.1}) is in a wall or off the map", at.x, at.y)));
                }
                let goal = Point::new(cx as usize, cy as usize);
                self.squad.set_goal(goal)?;
                self.user_goal = true;
                Ok(format!("the squad heads for cell {goal} along a path of {:.1} cells", self.squad.path_length))
            }
            "cut-off" => {
                let i = self
                    .squad
                    .nearest_member(at)
                    .ok_or_else(|| SceneError::Refused("the squad has no members".to_string()))?;
                self.squad.place_member(i, at)?;
                Ok(format!("member {i} moved to ({:.1}, {:.1}); it must find its way back", at.x, at.y))
            }
            _ => Err(SceneError::UnknownAction(action.to_string())),
        }
    }
}
