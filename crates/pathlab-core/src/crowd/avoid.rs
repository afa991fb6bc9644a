//! Local collision avoidance with velocity obstacles: VO, reciprocal VO (RVO), hybrid RVO
//! (HRVO) and optimal reciprocal collision avoidance (ORCA), for discs moving in the plane,
//! with static obstacles (wall cells) as well.
//!
//! Every agent is a disc with a position, a velocity, a preferred velocity (where it would go
//! with nobody around) and a top speed. Once per step each agent picks a new velocity from its
//! neighbours' positions and velocities alone, by [`new_velocity`]:
//!
//! - **VO**: the velocity obstacle of neighbour B is the cone of velocities `v` for which the
//!   ray `t (v - v_B)`, `t >= 0`, hits the disc of radius `r_A + r_B` around `p_B - p_A`: its
//!   apex is `v_B`. Only collisions within the time horizon count.
//! - **RVO**: each agent takes half the work: `v'` is forbidden when `2 v' - v_A` lies in the
//!   VO, a cone with apex `(v_A + v_B) / 2`.
//! - **HRVO**: the hybrid of both. The side of the RVO on which the agent's current velocity
//!   lies (the side it passes the neighbour on) is kept; the other side is the VO's, so that
//!   crossing over to pass the other way costs as much as under a VO. The apex moves to where
//!   the two sides meet ([`hrvo_apex`]). This ends the "reciprocal dance" where both agents
//!   swap sides together, step after step.
//! - For all three, candidate velocities are sampled (see [`sample_velocities`]) and the one
//!   nearest the preferred velocity outside every cone wins; when every candidate is inside
//!   some cone, the one with the least penalty `w / tc + |v_pref - v|` wins (`tc` the time to
//!   the first collision, `w` = [`AvoidParams::penalty`]).
//! - **ORCA**: each neighbour gives a half-plane of allowed velocities. With `u` the smallest
//!   change of the relative velocity that leaves the VO truncated at the time horizon and `n`
//!   the outward normal there, agent A must keep to `(v - (v_A + u / 2)) . n >= 0`. The
//!   allowed velocity nearest the preferred one, within the top speed, comes from a 2-D
//!   linear program (incremental, one constraint at a time, expected linear time). When the
//!   half-planes leave nothing, a 3-D program instead finds the velocity that violates the
//!   worst half-plane least.
//!
//! [`Crowd`] runs many agents with goals: a uniform [`SpatialGrid`] finds the neighbours, every
//! new velocity is computed from the frozen state before any agent moves, and
//! [`Crowd::metrics`] counts collisions, the smallest gap, times to goal and path lengths.
//!
//! ```
//! use pathlab_core::crowd::avoid::{AvoidParams, Crowd, Method, Scenario};
//! let params = AvoidParams { method: Method::Orca, ..AvoidParams::default() };
//! let mut crowd = Crowd::scenario(Scenario::Circle, 8, params, 1).unwrap();
//! crowd.run(600);
//! let m = crowd.metrics();
//! assert_eq!(m.collisions, 0);
//! assert_eq!(m.arrived, 8);
//! ```

use std::f32::consts::TAU;
use std::fmt;

use crate::steer::rng::hash3;
use crate::steer::{Pcg32, SpatialGrid, Vec2};

/// The avoidance rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Velocity obstacles: cones with apex at the neighbour's velocity; sampled.
    Vo,
    /// Reciprocal velocity obstacles: cones with apex halfway between both velocities; sampled.
    Rvo,
    /// Optimal reciprocal collision avoidance: half-planes and a linear program.
    Orca,
    /// Hybrid reciprocal velocity obstacles: the RVO cone widened on the side the agent should
    /// not cross to (its apex moved to where the RVO side the agent passes on meets the VO
    /// side opposite, see [`hrvo_apex`]); sampled like VO and RVO.
    Hrvo,
}

/// The parameters of the avoidance, shared by every agent of a crowd.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AvoidParams {
    /// The rule used.
    pub method: Method,
    /// Neighbours farther than this (centre to centre) are ignored.
    pub neighbour_dist: f32,
    /// At most this many neighbours, the nearest, are considered.
    pub max_neighbours: usize,
    /// Collisions further ahead than this many seconds are ignored (`tau`).
    pub time_horizon: f32,
    /// Every agent's radius.
    pub radius: f32,
    /// Every agent's top speed.
    pub max_speed: f32,
    /// The simulation step in seconds (ORCA resolves overlaps within one step).
    pub dt: f32,
    /// Weight `w` of the time-to-collision term in the VO/RVO/HRVO penalty `w / tc + |v_pref - v|`.
    pub penalty: f32,
    /// Extra clearance a [`Crowd`] adds to every radius when avoiding (not when measuring
    /// collisions): a cushion against the error of moving in whole steps.
    pub margin: f32,
}

impl Default for AvoidParams {
    /// ORCA with radius 0.5, top speed 1.5, a 2 s horizon, 10 neighbours within 3, steps of
    /// 0.1 s, penalty weight 1 and a margin of 0.1 (a fifth of the radius).
    fn default() -> Self {
        Self {
            method: Method::Orca,
            neighbour_dist: 3.0,
            max_neighbours: 10,
            time_horizon: 2.0,
            radius: 0.5,
            max_speed: 1.5,
            dt: 0.1,
            penalty: 1.0,
            margin: 0.1,
        }
    }
}

/// Why parameters or agents were refused.
#[derive(Clone, Debug, PartialEq)]
pub enum AvoidError {
    /// A parameter is NaN or infinite.
    NotANumber {
        /// The parameter's name.
        name: &'static str,
    },
    /// A parameter is out of its range.
    OutOfRange {
        /// The parameter's name.
        name: &'static str,
        /// Its value.
        value: f32,
        /// What it must be.
        rule: &'static str,
    },
}

impl fmt::Display for AvoidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotANumber { name } => write!(f, "avoidance parameter `{name}` is not a finite number"),
            Self::OutOfRange { name, value, rule } => {
                write!(f, "avoidance parameter `{name}` is {value} but must be {rule}")
            }
        }
    }
}

impl std::error::Error for AvoidError {}

fn check(name: &'static str, value: f32, positive: bool) -> Result<(), AvoidError> {
    if !value.is_finite() {
        return Err(AvoidError::NotANumber { name });
    }
    if positive && value <= 0.0 {
        return Err(AvoidError::OutOfRange { name, value, rule: "greater than 0" });
    }
    if value < 0.0 {
        return Err(AvoidError::OutOfRange { name, value, rule: "0 or more" });
    }
    Ok(())
}

impl AvoidParams {
    /// Checks every field: all finite; radius, top speed, time horizon, step and neighbour
    /// distance above 0; penalty and margin 0 or more. The error names the first bad field.
    pub fn validate(&self) -> Result<(), AvoidError> {
        check("radius", self.radius, true)?;
        check("max_speed", self.max_speed, true)?;
        check("time_horizon", self.time_horizon, true)?;
        check("dt", self.dt, true)?;
        check("neighbour_dist", self.neighbour_dist, true)?;
        check("penalty", self.penalty, false)?;
        check("margin", self.margin, false)?;
        Ok(())
    }
}

/// The agent choosing a velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentState {
    /// An identifier; it only decides which way two agents on exactly the same spot part.
    pub id: u32,
    /// Position.
    pub pos: Vec2,
    /// Current velocity.
    pub vel: Vec2,
    /// Preferred velocity.
    pub pref: Vec2,
    /// Radius.
    pub radius: f32,
    /// Top speed.
    pub max_speed: f32,
}

/// A neighbour as the agent sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbour {
    /// An identifier (see [`AgentState::id`]).
    pub id: u32,
    /// Position.
    pub pos: Vec2,
    /// Velocity.
    pub vel: Vec2,
    /// Radius.
    pub radius: f32,
}

/// A velocity obstacle to draw, in velocity space: the velocities `apex + s * left` and
/// `apex + s * right` (`s >= 0`) bound it, the forbidden velocities lie between.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone {
    /// The apex: the neighbour's velocity (VO), the mean of both velocities (RVO), [`hrvo_apex`]
    /// (HRVO), or 0 for a static obstacle.
    pub apex: Vec2,
    /// Unit direction of the left side.
    pub left: Vec2,
    /// Unit direction of the right side.
    pub right: Vec2,
}

/// An ORCA half-plane in velocity space: velocities `v` with `direction x (v - point) >= 0`
/// (to the left of the directed line) are allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalfPlane {
    /// A point on the boundary line.
    pub point: Vec2,
    /// Unit direction of the boundary line; the allowed side is on its left.
    pub direction: Vec2,
}

impl HalfPlane {
    /// How far `v` is inside (positive) or outside (negative) the half-plane.
    #[inline]
    pub fn signed_distance(&self, v: Vec2) -> f32 {
        self.direction.cross(v - self.point)
    }
}

/// What [`new_velocity`] looked at, for drawing; filled only when asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AvoidDebug {
    /// The cones (VO, RVO and HRVO; static obstacles first, with apex 0).
    pub cones: Vec<Cone>,
    /// The half-planes (ORCA).
    pub planes: Vec<HalfPlane>,
    /// The chosen velocity.
    pub chosen: Vec2,
    /// False when no allowed velocity existed (VO/RVO/HRVO: every candidate in a cone; ORCA: the
    /// 2-D program was infeasible and the 3-D fallback ran).
    pub feasible: bool,
}

/// Candidate speeds of the VO/RVO/HRVO sampling, as fractions of the top speed.
pub const SAMPLE_RINGS: usize = 8;
/// Candidate headings per ring of the VO/RVO/HRVO sampling.
pub const SAMPLE_HEADINGS: usize = 32;

/// The candidate velocities of VO, RVO and HRVO for an agent: the preferred velocity (capped at the
/// top speed), the current velocity, zero, and [`SAMPLE_RINGS`] rings at speeds
/// `max_speed * k / SAMPLE_RINGS` (`k = 1..=SAMPLE_RINGS`) of [`SAMPLE_HEADINGS`] headings each,
/// evenly spaced from the preferred heading (odd rings turned by half a spacing) — 259 in all.
pub fn sample_velocities(agent: &AgentState, mut visit: impl FnMut(Vec2)) {
    let top = agent.max_speed;
    visit(agent.pref.truncate(top));
    visit(agent.vel.truncate(top));
    visit(Vec2::ZERO);
    let base = if agent.pref.length_sq() > 1e-12 { agent.pref.y.atan2(agent.pref.x) } else { 0.0 };
    let step = TAU / SAMPLE_HEADINGS as f32;
    for k in 1..=SAMPLE_RINGS {
        let speed = top * k as f32 / SAMPLE_RINGS as f32;
        let offset = if k % 2 == 1 { 0.5 * step } else { 0.0 };
        for j in 0..SAMPLE_HEADINGS {
            visit(Vec2::from_angle(base + offset + step * j as f32) * speed);
        }
    }
}

/// The time until a disc moving at relative velocity `v` from the origin first touches the
/// disc of radius `r` around `p`: infinity when never; 0 when they overlap already and `v`
/// closes in (overlapping discs moving apart count as never).
pub fn time_to_collision(p: Vec2, v: Vec2, r: f32) -> f32 {
    let pv = p.dot(v);
    let c = p.length_sq() - r * r;
    if c <= 0.0 {
        return if pv > 0.0 { 0.0 } else { f32::INFINITY };
    }
    let a = v.length_sq();
    if pv <= 0.0 || a <= 0.0 {
        return f32::INFINITY;
    }
    let disc = pv * pv - a * c;
    if disc < 0.0 {
        return f32::INFINITY;
    }
    ((pv - disc.sqrt()) / a).max(0.0)
}

/// The two sides of the cone of directions from the origin that hit the disc of radius `r`
/// around `p`: (left, right), unit. Overlapping discs give the half-plane facing `p`.
fn cone_sides(p: Vec2, r: f32) -> (Vec2, Vec2) {
    let d2 = p.length_sq();
    if d2 <= r * r || d2 <= 0.0 {
        let n = p.normalized();
        let n = if n == Vec2::ZERO { Vec2::new(1.0, 0.0) } else { n };
        return (n.perp(), -n.perp());
    }
    let leg = (d2 - r * r).sqrt();
    let left = Vec2::new(p.x * leg - p.y * r, p.x * r + p.y * leg) * (1.0 / d2);
    let right = Vec2::new(p.x * leg + p.y * r, -p.x * r + p.y * leg) * (1.0 / d2);
    (left, right)
}

/// The new velocity of `agent` among `neighbours` under `params` (its method, time horizon,
/// step and penalty; the agent's own radius and top speed come from `agent`). Pass `Some` as
/// `debug` to get the cones or half-planes and the chosen velocity; `None` costs nothing.
///
/// The result is always finite and never faster than `agent.max_speed` (up to rounding).
/// Non-finite neighbours are skipped; a non-finite preferred velocity counts as zero.
pub fn new_velocity(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    debug: Option<&mut AvoidDebug>,
) -> Vec2 {
    new_velocity_among(params, agent, neighbours, &[], debug)
}

/// How far ahead, in seconds, static obstacles are avoided (shorter than the agents' horizon,
/// so that an agent walking along a wall is not slowed by the wall far ahead).
pub const OBSTACLE_HORIZON: f32 = 1.0;

/// As [`new_velocity`], with static `obstacles` as well: discs that do not move (their
/// velocity is ignored) and take no share of the avoidance, so the agent does all of it.
/// Obstacles always count as velocity obstacles with apex 0 (whatever the method) and are
/// looked at [`OBSTACLE_HORIZON`] seconds ahead; under ORCA their half-planes are hard (the
/// fallback for crowded cases relaxes only the agents' half-planes); under VO, RVO and HRVO a
/// candidate that would touch an obstacle within two steps is never taken (standing still is
/// always possible).
pub fn new_velocity_among(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    obstacles: &[Neighbour],
    debug: Option<&mut AvoidDebug>,
) -> Vec2 {
    let mut agent = *agent;
    if !agent.pref.is_finite() {
        agent.pref = Vec2::ZERO;
    }
    if !agent.vel.is_finite() {
        agent.vel = Vec2::ZERO;
    }
    if !(agent.max_speed.is_finite() && agent.max_speed >= 0.0) {
        agent.max_speed = 0.0;
    }
    let (chosen, feasible) = match params.method {
        Method::Orca => orca(params, &agent, neighbours, obstacles),
        Method::Vo | Method::Rvo | Method::Hrvo => sampled(params, &agent, neighbours, obstacles),
    };
    let chosen = if chosen.is_finite() { chosen.truncate(agent.max_speed) } else { Vec2::ZERO };
    if let Some(d) = debug {
        d.cones.clear();
        d.planes.clear();
        match params.method {
            Method::Orca => {
                let mut lines = Vec::new();
                planes_with_share(params, &agent, obstacles, 1.0, OBSTACLE_HORIZON, &mut lines);
                orca_planes(params, &agent, neighbours, &mut lines);
                d.planes = lines;
            }
            Method::Vo | Method::Rvo | Method::Hrvo => {
                for n in obstacles.iter().filter(|n| usable(n)) {
                    let (left, right) = cone_sides(n.pos - agent.pos, agent.radius + n.radius);
                    d.cones.push(Cone { apex: Vec2::ZERO, left, right });
                }
                for n in neighbours.iter().filter(|n| usable(n)) {
                    let apex = cone_apex(params.method, &agent, n);
                    let (left, right) = cone_sides(n.pos - agent.pos, agent.radius + n.radius);
                    d.cones.push(Cone { apex, left, right });
                }
            }
        }
        d.chosen = chosen;
        d.feasible = feasible;
    }
    chosen
}

/// The apex of the HRVO of `agent` against `n`: with `left`, `right` the sides of the cone
/// (as in [`Cone`]), `v_B` the neighbour's velocity and `m = (v_A + v_B) / 2` the RVO's apex:
/// when the agent's velocity relative to the neighbour lies left of the centre line (the
/// direction to the neighbour), `cross(p_B - p_A, v_A - v_B) > 0`, the apex is where the line
/// `m + t left` (the RVO's left side) meets the line `v_B + s right` (the VO's right side);
/// otherwise where `m + t right` meets `v_B + s left`. Overlapping discs (parallel sides) give
/// the RVO apex `m`.
///
/// ```
/// use pathlab_core::crowd::avoid::{hrvo_apex, AgentState, Neighbour};
/// use pathlab_core::steer::Vec2;
/// // B at rest 2 ahead, combined radius 1 (cone half-angle 30 degrees), A moving sideways:
/// let a = AgentState {
///     id: 0, pos: Vec2::ZERO, vel: Vec2::new(0.0, 1.0), pref: Vec2::ZERO, radius: 0.5, max_speed: 2.0,
/// };
/// let b = Neighbour { id: 1, pos: Vec2::new(2.0, 0.0), vel: Vec2::ZERO, radius: 0.5 };
/// let apex = hrvo_apex(&a, &b);
/// assert!((apex.x + 0.75_f32.sqrt() / 2.0).abs() < 1e-5 && (apex.y - 0.25).abs() < 1e-5);
/// ```
pub fn hrvo_apex(agent: &AgentState, n: &Neighbour) -> Vec2 {
    let p = n.pos - agent.pos;
    let (left, right) = cone_sides(p, agent.radius + n.radius);
    let mid = (agent.vel + n.vel) * 0.5;
    let det = right.cross(left);
    if det.abs() <= 1e-6 {
        return mid;
    }
    // Solve v_B + s a = m + t b for s: s (a x b) = (m - v_B) x b.
    let half = mid - n.vel;
    let (along_vo, along_rvo) = if p.cross(agent.vel - n.vel) > 0.0 { (right, left) } else { (left, right) };
    let s = half.cross(along_rvo) / along_vo.cross(along_rvo);
    let apex = n.vel + along_vo * s;
    if apex.is_finite() {
        apex
    } else {
        mid
    }
}

/// The apex of the cone of `method` (VO: `v_B`; RVO: `(v_A + v_B) / 2`; HRVO: [`hrvo_apex`];
/// ORCA has no cone and gives the RVO apex).
pub fn cone_apex(method: Method, agent: &AgentState, n: &Neighbour) -> Vec2 {
    match method {
        Method::Vo => n.vel,
        Method::Rvo | Method::Orca => (agent.vel + n.vel) * 0.5,
        Method::Hrvo => hrvo_apex(agent, n),
    }
}

fn usable(n: &Neighbour) -> bool {
    n.pos.is_finite() && n.vel.is_finite() && n.radius.is_finite() && n.radius >= 0.0
}

/// VO/RVO/HRVO by sampling: (chosen, whether it was outside every cone).
fn sampled(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    obstacles: &[Neighbour],
) -> (Vec2, bool) {
    let horizon = params.time_horizon;
    let mut best_free: Option<(f32, Vec2)> = None;
    let mut best_penalty: Option<(f32, Vec2)> = None;
    let apexes: Vec<Vec2> = neighbours.iter().map(|n| cone_apex(params.method, agent, n)).collect();
    sample_velocities(agent, |cand| {
        // Static obstacles: never touch one within two steps; a touch within the obstacle
        // horizon makes the candidate not free.
        let mut blocked = false;
        for n in obstacles.iter().filter(|n| usable(n)) {
            let t = time_to_collision(n.pos - agent.pos, cand, agent.radius + n.radius);
            if t <= 2.0 * params.dt {
                return;
            }
            blocked |= t <= OBSTACLE_HORIZON;
        }
        // The earliest collision over all neighbours, within the horizon.
        let mut tc = f32::INFINITY;
        for (n, &apex) in neighbours.iter().zip(&apexes).filter(|(n, _)| usable(n)) {
            // VO: relative velocity cand - v_B; RVO: (2 cand - v_A) - v_B = 2 (cand - apex);
            // HRVO likewise twice the offset from its apex.
            let rel = match params.method {
                Method::Vo => cand - n.vel,
                _ => (cand - apex) * 2.0,
            };
            let t = time_to_collision(n.pos - agent.pos, rel, agent.radius + n.radius);
            if t < tc {
                tc = t;
            }
        }
        let dist = (agent.pref - cand).length();
        if tc > horizon && !blocked {
            if best_free.is_none_or(|(d, _)| dist < d) {
                best_free = Some((dist, cand));
            }
        } else {
            let penalty = params.penalty / tc.max(1e-6) + dist;
            if best_penalty.is_none_or(|(p, _)| penalty < p) {
                best_penalty = Some((penalty, cand));
            }
        }
    });
    match (best_free, best_penalty) {
        (Some((_, v)), _) => (v, true),
        (None, Some((_, v))) => (v, false),
        (None, None) => (Vec2::ZERO, false),
    }
}

/// The ORCA half-planes of `agent` against each usable neighbour, appended to `out`.
pub fn orca_planes(params: &AvoidParams, agent: &AgentState, neighbours: &[Neighbour], out: &mut Vec<HalfPlane>) {
    planes_with_share(params, agent, neighbours, 0.5, params.time_horizon, out);
}

/// ORCA half-planes where the agent takes `share` of the avoidance (0.5 for agents, 1 for
/// static obstacles) looking `horizon` seconds ahead.
fn planes_with_share(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    share: f32,
    horizon: f32,
    out: &mut Vec<HalfPlane>,
) {
    let inv_tau = 1.0 / horizon;
    let inv_dt = 1.0 / params.dt;
    for n in neighbours.iter().filter(|n| usable(n)) {
        let p = n.pos - agent.pos;
        // A static obstacle's velocity is 0 whatever it says.
        let v = if share >= 1.0 { agent.vel } else { agent.vel - n.vel };
        let r = agent.radius + n.radius;
        let d2 = p.length_sq();
        let r2 = r * r;
        let (direction, u);
        if d2 > r2 {
            // Apart: the VO truncated at the horizon is the cone cut by the disc of radius
            // r / tau around p / tau.
            let w = v - p * inv_tau;
            let w2 = w.length_sq();
            let wp = w.dot(p);
            if wp < 0.0 && wp * wp > r2 * w2 {
                // Nearest boundary point lies on the cut-off arc.
                let wl = w2.sqrt();
                let unit = if wl > 0.0 { w * (1.0 / wl) } else { p.normalized() * -1.0 };
                direction = Vec2::new(unit.y, -unit.x);
                u = unit * (r * inv_tau - wl);
            } else {
                // Nearest boundary point lies on a leg.
                let (left, right) = cone_sides(p, r);
                direction = if p.cross(w) > 0.0 { left } else { -right };
                u = direction * v.dot(direction) - v;
            }
        } else {
            // Overlapping: leave the overlap within one step.
            let w = v - p * inv_dt;
            let wl = w.length();
            let unit = if wl > 1e-9 {
                w * (1.0 / wl)
            } else {
                // On top of each other with equal velocities: push apart along the x axis,
                // opposite ways for the two agents (the lower id goes to +x).
                let away = -p.normalized();
                if away != Vec2::ZERO {
                    away
                } else if agent.id < n.id {
                    Vec2::new(1.0, 0.0)
                } else {
                    Vec2::new(-1.0, 0.0)
                }
            };
            direction = Vec2::new(unit.y, -unit.x);
            u = unit * (r * inv_dt - wl);
        }
        if direction.is_finite() && u.is_finite() && direction != Vec2::ZERO {
            out.push(HalfPlane { point: agent.vel + u * share, direction });
        }
    }
}

fn orca(params: &AvoidParams, agent: &AgentState, neighbours: &[Neighbour], obstacles: &[Neighbour]) -> (Vec2, bool) {
    let mut lines = Vec::with_capacity(neighbours.len() + obstacles.len());
    planes_with_share(params, agent, obstacles, 1.0, OBSTACLE_HORIZON, &mut lines);
    let hard = lines.len();
    orca_planes(params, agent, neighbours, &mut lines);
    solve_hard(&lines, hard, agent.max_speed, agent.pref)
}

/// The velocity of at most `max_speed` nearest `pref` that satisfies every half-plane, and
/// true; or, when none does, the velocity of at most `max_speed` whose worst violation is
/// least, and false.
pub fn solve(lines: &[HalfPlane], max_speed: f32, pref: Vec2) -> (Vec2, bool) {
    solve_hard(lines, 0, max_speed, pref)
}

/// As [`solve`], but the first `hard` lines (static obstacles) are never relaxed by the
/// fallback: it minimises the worst violation of the others within them.
pub fn solve_hard(lines: &[HalfPlane], hard: usize, max_speed: f32, pref: Vec2) -> (Vec2, bool) {
    let hard = hard.min(lines.len());
    let mut result = Vec2::ZERO;
    let failed = lp2(lines, max_speed, pref, false, &mut result);
    if failed < lines.len() {
        lp3(lines, hard, failed.max(hard), max_speed, &mut result);
        (result, false)
    } else {
        (result, true)
    }
}

const EPS: f32 = 1e-5;

/// Optimises on the boundary of line `i`, within the speed disc and lines `0..i`.
fn lp1(lines: &[HalfPlane], i: usize, max_speed: f32, target: Vec2, direction_opt: bool, result: &mut Vec2) -> bool {
    let line = lines[i];
    let along = line.point.dot(line.direction);
    let disc = along * along + max_speed * max_speed - line.point.length_sq();
    if disc < 0.0 {
        // The speed disc misses the line entirely.
        return false;
    }
    let s = disc.sqrt();
    let (mut t_lo, mut t_hi) = (-along - s, -along + s);
    for other in &lines[..i] {
        // Points p_i + t d_i must satisfy d_j x (p_i + t d_i - p_j) >= 0.
        let a = other.direction.cross(line.direction);
        let b = other.direction.cross(line.point - other.point);
        if a.abs() <= EPS {
            if b < 0.0 {
                // Parallel and entirely outside.
                return false;
            }
            continue;
        }
        let t = -b / a;
        if a > 0.0 {
            t_lo = t_lo.max(t);
        } else {
            t_hi = t_hi.min(t);
        }
        if t_lo > t_hi {
            return false;
        }
    }
    let t = if direction_opt {
        if target.dot(line.direction) > 0.0 {
            t_hi
        } else {
            t_lo
        }
    } else {
        (target - line.point).dot(line.direction).clamp(t_lo, t_hi)
    };
    *result = line.point + line.direction * t;
    true
}

/// Incremental 2-D program; returns the index of the first line it could not satisfy, or
/// `lines.len()` on success.
fn lp2(lines: &[HalfPlane], max_speed: f32, target: Vec2, direction_opt: bool, result: &mut Vec2) -> usize {
    *result = if direction_opt { target * max_speed } else { target.truncate(max_speed) };
    for i in 0..lines.len() {
        if lines[i].signed_distance(*result) < 0.0 {
            let keep = *result;
            if !lp1(lines, i, max_speed, target, direction_opt, result) {
                *result = keep;
                return i;
            }
        }
    }
    lines.len()
}

/// The fallback: minimise the largest violation, starting from the line `begin` where the 2-D
/// program failed, by a 2-D program on each offending line's bisectors with the others.
fn lp3(lines: &[HalfPlane], hard: usize, begin: usize, max_speed: f32, result: &mut Vec2) {
    let mut worst = 0.0_f32;
    let mut projected = Vec::with_capacity(lines.len());
    for i in begin..lines.len() {
        let li = lines[i];
        if -li.signed_distance(*result) > worst {
            projected.clear();
            projected.extend_from_slice(&lines[..hard]);
            for lj in &lines[hard..i] {
                let det = li.direction.cross(lj.direction);
                let point = if det.abs() <= EPS {
                    if li.direction.dot(lj.direction) > 0.0 {
                        // Same direction: line j is no tighter in this comparison.
                        continue;
                    }
                    (li.point + lj.point) * 0.5
                } else {
                    li.point + li.direction * (lj.direction.cross(li.point - lj.point) / det)
                };
                let direction = (lj.direction - li.direction).normalized();
                if direction == Vec2::ZERO {
                    continue;
                }
                projected.push(HalfPlane { point, direction });
            }
            let keep = *result;
            if lp2(&projected, max_speed, li.direction.perp(), true, result) < projected.len() {
                // Only rounding can get here; keep the previous answer.
                *result = keep;
            }
            worst = -li.signed_distance(*result);
        }
    }
}

/// A scenario of [`Crowd::scenario`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scenario {
    /// Agents evenly spread on a circle, each heading for the opposite point.
    Circle,
    /// Two groups at the two ends of a narrow band (a corridor without walls), swapping ends.
    Corridor,
    /// Two square blocks of agents crossing at right angles (one eastward, one northward).
    Crossing,
}

/// The outcome of a run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Steps run.
    pub steps: u32,
    /// Pair-steps with an overlap deeper than the tolerance (a pair overlapping for 3 steps
    /// counts 3).
    pub collisions: u32,
    /// The deepest overlap seen, as a fraction of the radius (0 when none).
    pub worst_overlap: f32,
    /// The smallest gap between two agents' edges seen after any step (negative: overlap),
    /// over pairs closer than [`GAP_REACH`] radii centre to centre; infinity when there were
    /// none.
    pub min_gap: f32,
    /// Agents that reached their goal.
    pub arrived: usize,
    /// Mean time to goal in seconds over the agents that arrived.
    pub mean_time: f32,
    /// Longest time to goal in seconds over the agents that arrived.
    pub max_time: f32,
    /// Mean distance walked per agent.
    pub mean_path: f32,
    /// Mean of (distance walked / straight start-to-goal distance) over the agents that arrived
    /// from a start away from their goal (0 when none has); an agent still walking would pull
    /// the mean below 1 with a path it has not finished.
    pub mean_path_ratio: f32,
    /// Agent-steps ending with an agent inside a wall cell deeper than the tolerance.
    pub wall_hits: u32,
    /// The deepest any agent reached into a wall cell, as a fraction of the radius (0: none).
    pub worst_wall_overlap: f32,
}

/// A crowd of discs walking to their goals with velocity-obstacle avoidance.
///
/// Agents are stored as a structure of arrays. Each step: file the agents in the spatial grid,
/// compute every agent's new velocity from the frozen positions and velocities (its nearest
/// [`AvoidParams::max_neighbours`] within [`AvoidParams::neighbour_dist`]), then move all
/// agents, then measure overlaps.
///
/// ```
/// use pathlab_core::crowd::avoid::{AvoidParams, Crowd};
/// use pathlab_core::steer::Vec2;
/// let mut crowd = Crowd::new(AvoidParams::default(), 20.0, 20.0).unwrap();
/// crowd.add(Vec2::new(2.0, 10.0), Vec2::new(18.0, 10.0));
/// crowd.add(Vec2::new(18.0, 10.0), Vec2::new(2.0, 10.0));
/// crowd.run(400);
/// assert_eq!(crowd.metrics().arrived, 2);
/// assert_eq!(crowd.metrics().collisions, 0);
/// ```
#[derive(Clone, Debug)]
pub struct Crowd {
    params: AvoidParams,
    width: f32,
    height: f32,
    seed: u64,
    /// Overlap tolerance as a fraction of the radius.
    tolerance: f32,
    xs: Vec<f32>,
    ys: Vec<f32>,
    vxs: Vec<f32>,
    vys: Vec<f32>,
    gxs: Vec<f32>,
    gys: Vec<f32>,
    straight: Vec<f32>,
    walked: Vec<f32>,
    /// Step at which each agent arrived (u32::MAX: not yet).
    arrived_at: Vec<u32>,
    next_vx: Vec<f32>,
    next_vy: Vec<f32>,
    grid: SpatialGrid,
    found: Vec<(u32, f32)>,
    neighbours: Vec<Neighbour>,
    order: Vec<(f32, u32)>,
    metrics: Metrics,
    /// Wall cells (true: wall), row by row; empty: no walls.
    walls: Vec<bool>,
    wall_width: usize,
    wall_height: usize,
    wall_cell: f32,
    /// Per agent: the point to head for instead of the goal (NaN: none).
    waypoints: Vec<Vec2>,
    obstacles: Vec<Neighbour>,
}

/// An agent counts as stuck when the avoidance leaves it less than this fraction of its
/// preferred speed (and that is at least this fraction of the top speed); a stuck agent in a
/// [`Crowd`] decides again with its preferred velocity turned right by [`SIDESTEP`]. This
/// dissolves the symmetric jams where ORCA leaves every agent of a ring standing still.
pub const STUCK_SPEED: f32 = 0.1;

/// The turn to the right, in radians, of a stuck agent's preferred velocity.
pub const SIDESTEP: f32 = std::f32::consts::FRAC_PI_3;

/// The largest turn, in radians, of the seeded perturbation of preferred velocities.
pub const PERTURBATION: f32 = 0.05;

/// Pairs farther apart than this many radii (centre to centre) are left out of
/// [`Metrics::min_gap`], which keeps the measuring pass cheap.
pub const GAP_REACH: f32 = 4.0;

/// The most wall points an agent of a [`Crowd`] avoids at once (the nearest; the guard against
/// walls needs only those within a step's reach, far fewer).
pub const MAX_WALL_POINTS: usize = 16;

/// Distance from the goal at which an agent counts as arrived, as a fraction of its radius.
pub const ARRIVAL_FRACTION: f32 = 0.25;

impl Crowd {
    /// An empty crowd in the rectangle `[0, width] x [0, height]` (the area of the spatial
    /// grid; agents outside still work, filed in the edge cells).
    pub fn new(params: AvoidParams, width: f32, height: f32) -> Result<Self, AvoidError> {
        params.validate()?;
        check("width", width, true)?;
        check("height", height, true)?;
        let grid = SpatialGrid::new(width, height, params.neighbour_dist);
        Ok(Self {
            params,
            width,
            height,
            seed: 0,
            tolerance: 0.02,
            xs: Vec::new(),
            ys: Vec::new(),
            vxs: Vec::new(),
            vys: Vec::new(),
            gxs: Vec::new(),
            gys: Vec::new(),
            straight: Vec::new(),
            walked: Vec::new(),
            arrived_at: Vec::new(),
            next_vx: Vec::new(),
            next_vy: Vec::new(),
            grid,
            found: Vec::new(),
            neighbours: Vec::new(),
            order: Vec::new(),
            metrics: Metrics { min_gap: f32::INFINITY, ..Metrics::default() },
            walls: Vec::new(),
            wall_width: 0,
            wall_height: 0,
            wall_cell: 1.0,
            waypoints: Vec::new(),
            obstacles: Vec::new(),
        })
    }

    /// Adds an agent at rest at `pos` heading for `goal`; returns its index. Non-finite
    /// points are replaced by the origin.
    pub fn add(&mut self, pos: Vec2, goal: Vec2) -> usize {
        let pos = if pos.is_finite() { pos } else { Vec2::ZERO };
        let goal = if goal.is_finite() { goal } else { pos };
        self.xs.push(pos.x);
        self.ys.push(pos.y);
        self.vxs.push(0.0);
        self.vys.push(0.0);
        self.gxs.push(goal.x);
        self.gys.push(goal.y);
        self.straight.push(pos.distance(goal));
        self.walked.push(0.0);
        self.arrived_at.push(if pos.distance(goal) <= ARRIVAL_FRACTION * self.params.radius { 0 } else { u32::MAX });
        self.next_vx.push(0.0);
        self.next_vy.push(0.0);
        self.waypoints.push(Vec2::new(f32::NAN, f32::NAN));
        self.xs.len() - 1
    }

    /// Makes the wall cells (terrain 0) of `grid` static obstacles, the grid's cell (cx, cy)
    /// covering `[cx * cell, (cx + 1) * cell) x [cy * cell, (cy + 1) * cell)`. Each step an
    /// agent avoids, for every wall cell near it, the point of that cell nearest to it (a disc
    /// of radius 0 that takes no share of the avoidance, see [`new_velocity_among`]); a last
    /// guard then removes any part of the chosen velocity that would carry the agent's disc
    /// into one of those points within the step. Cells outside the grid are open.
    pub fn set_walls(&mut self, grid: &crate::grid::Grid, cell: f32) -> Result<(), AvoidError> {
        check("cell", cell, true)?;
        self.walls = grid.cells().iter().map(|&c| c == 0).collect();
        self.wall_width = grid.width();
        self.wall_height = grid.height();
        self.wall_cell = cell;
        Ok(())
    }

    /// The nearest point of every wall cell within `reach` of `pos` that touches open ground
    /// (a cell walled in on all four sides is never the nearest), as obstacle discs of radius
    /// 0 (cleared first), nearest first, at most [`MAX_WALL_POINTS`].
    pub fn wall_points(&self, pos: Vec2, reach: f32, out: &mut Vec<Neighbour>) {
        out.clear();
        if self.walls.is_empty() || !pos.is_finite() || !reach.is_finite() {
            return;
        }
        let c = self.wall_cell;
        let cells = |v: f32, n: usize| -> usize { ((v / c).floor().max(0.0) as usize).min(n.saturating_sub(1)) };
        let (x0, x1) = (cells(pos.x - reach, self.wall_width), cells(pos.x + reach, self.wall_width));
        let (y0, y1) = (cells(pos.y - reach, self.wall_height), cells(pos.y + reach, self.wall_height));
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                if !self.walls[cy * self.wall_width + cx] || self.walled_in(cx, cy) {
                    continue;
                }
                let (lx, ly) = (cx as f32 * c, cy as f32 * c);
                let q = Vec2::new(pos.x.clamp(lx, lx + c), pos.y.clamp(ly, ly + c));
                if q.distance(pos) <= reach {
                    out.push(Neighbour { id: u32::MAX, pos: q, vel: Vec2::ZERO, radius: 0.0 });
                }
            }
        }
        out.sort_by(|a, b| a.pos.distance(pos).total_cmp(&b.pos.distance(pos)));
        out.truncate(MAX_WALL_POINTS);
    }

    /// A wall cell whose four side neighbours are walls or outside the grid.
    fn walled_in(&self, cx: usize, cy: usize) -> bool {
        let wall = |x: Option<usize>, y: Option<usize>| match (x, y) {
            (Some(x), Some(y)) if x < self.wall_width && y < self.wall_height => self.walls[y * self.wall_width + x],
            _ => true,
        };
        wall(cx.checked_sub(1), Some(cy))
            && wall(Some(cx + 1), Some(cy))
            && wall(Some(cx), cy.checked_sub(1))
            && wall(Some(cx), Some(cy + 1))
    }

    /// How deep a disc of radius `r` at `pos` reaches into the nearest wall cell (0: clear).
    pub fn wall_depth(&self, pos: Vec2, r: f32) -> f32 {
        let mut points = Vec::new();
        self.wall_points(pos, r, &mut points);
        points.first().map_or(0.0, |q| (r - q.pos.distance(pos)).max(0.0))
    }

    /// Sets (or with `None` clears) the point agent `i` heads for at top speed instead of its
    /// goal: a waypoint of a route around walls. Non-finite points clear it.
    pub fn set_waypoint(&mut self, i: usize, at: Option<Vec2>) {
        if let Some(w) = self.waypoints.get_mut(i) {
            *w = at.filter(|p| p.is_finite()).unwrap_or(Vec2::new(f32::NAN, f32::NAN));
        }
    }

    /// The waypoint of agent `i`, if one is set.
    pub fn waypoint(&self, i: usize) -> Option<Vec2> {
        self.waypoints.get(i).copied().filter(|p| p.is_finite())
    }

    /// Whether agent `i` has arrived.
    pub fn has_arrived(&self, i: usize) -> bool {
        self.arrived_at.get(i).is_some_and(|&a| a != u32::MAX)
    }

    /// The guard against walls: removes from `v` the part that carries a disc of radius `r`
    /// at `pos` toward a wall point it would come nearer than `r` to within the step; stands
    /// still when that is not enough.
    fn wall_guard(&self, pos: Vec2, mut v: Vec2, r: f32, points: &[Neighbour]) -> Vec2 {
        let dt = self.params.dt;
        let hits = |v: Vec2| {
            points.iter().find(|q| {
                let to = q.pos - pos;
                (pos + v * dt).distance(q.pos) < r && to.dot(v) > 0.0
            })
        };
        for _ in 0..4 {
            match hits(v) {
                None => return v,
                Some(q) => {
                    let n = (q.pos - pos).normalized();
                    v = v - n * v.dot(n).max(0.0);
                }
            }
        }
        if hits(v).is_some() {
            Vec2::ZERO
        } else {
            v
        }
    }

    /// A scenario with `n` agents (at least 2), seeded: the seed jitters the start points,
    /// which breaks the perfect symmetries where every agent waits for the others (the seed
    /// also drives the per-step perturbation of preferred velocities).
    ///
    /// - Circle: agents at evenly spaced angles on a circle big enough for 3 radii of arc
    ///   between neighbours (radius at least 10 agent radii), each pushed outward by up to 5% of
    ///   the circle's radius, each heading for the antipode of its unjittered point.
    /// - Corridor (start points jittered by up to 1% of the radius): a band 12 radii high;
    ///   half the agents in rows of 3 (3 radii apart) at the left end, half at the right end,
    ///   each heading for the mirror point at the other end.
    /// - Crossing: one block walks east, the other north, through a shared square.
    pub fn scenario(scenario: Scenario, n: usize, params: AvoidParams, seed: u64) -> Result<Self, AvoidError> {
        params.validate()?;
        let n = n.max(2);
        let r = params.radius;
        let mut rng = Pcg32::new(seed);
        let mut jitter_rng = Pcg32::new(seed ^ 0x5eed);
        let mut jitter = move || Vec2::new(rng.range(-0.01, 0.01) * r, rng.range(-0.01, 0.01) * r);
        match scenario {
            Scenario::Circle => {
                let ring = (n as f32 * 3.0 * r / TAU).max(10.0 * r);
                let size = 2.4 * ring + 8.0 * r;
                let centre = Vec2::new(size * 0.5, size * 0.5);
                let mut crowd = Self::new(params, size, size)?;
                crowd.seed = seed;
                for i in 0..n {
                    let a = TAU * i as f32 / n as f32;
                    let at = Vec2::from_angle(a) * ring;
                    let out = 1.0 + 0.05 * jitter_rng.unit();
                    crowd.add(centre + at * out, centre - at);
                }
                Ok(crowd)
            }
            Scenario::Corridor => {
                let spacing = 3.0 * r;
                let per_side = n.div_ceil(2);
                let columns = per_side.div_ceil(3);
                let depth = columns as f32 * spacing;
                let gap = 10.0 * r + depth;
                let length = 2.0 * depth + gap + 4.0 * r;
                let height = 12.0 * r;
                let mut crowd = Self::new(params, length, height)?;
                crowd.seed = seed;
                for i in 0..n {
                    let k = i / 2;
                    let (col, row) = ((k / 3) as f32, (k % 3) as f32);
                    let y = 3.0 * r + row * spacing;
                    let x = 2.0 * r + r + col * spacing;
                    let (from, to) = if i % 2 == 0 {
                        (Vec2::new(x, y), Vec2::new(length - x, y))
                    } else {
                        (Vec2::new(length - x, y), Vec2::new(x, y))
                    };
                    crowd.add(from + jitter(), to);
                }
                Ok(crowd)
            }
            Scenario::Crossing => {
                let spacing = 3.0 * r;
                let per_side = n.div_ceil(2);
                let side = (per_side as f32).sqrt().ceil() as usize;
                let block = side as f32 * spacing;
                let size = 4.0 * block + 8.0 * r;
                let mut crowd = Self::new(params, size, size)?;
                crowd.seed = seed;
                let mid = size * 0.5;
                for i in 0..n {
                    let k = i / 2;
                    let (a, b) = ((k / side) as f32 * spacing, (k % side) as f32 * spacing);
                    let lateral = mid - block * 0.5 + b + spacing * 0.5;
                    let along = 2.0 * r + a + spacing * 0.5;
                    let (from, to) = if i % 2 == 0 {
                        (Vec2::new(along, lateral), Vec2::new(size - along, lateral))
                    } else {
                        (Vec2::new(lateral, along), Vec2::new(lateral, size - along))
                    };
                    crowd.add(from + jitter(), to);
                }
                Ok(crowd)
            }
        }
    }

    /// The parameters.
    pub fn params(&self) -> &AvoidParams {
        &self.params
    }

    /// Replaces the parameters while the crowd runs (checked first; nothing changes on error).
    pub fn set_params(&mut self, params: AvoidParams) -> Result<(), AvoidError> {
        params.validate()?;
        if params.neighbour_dist.to_bits() != self.params.neighbour_dist.to_bits() {
            self.grid = SpatialGrid::new(self.width, self.height, params.neighbour_dist);
        }
        self.params = params;
        Ok(())
    }

    /// Sets the overlap depth (fraction of the radius) above which a pair counts as a
    /// collision; 0.02 by default.
    pub fn set_tolerance(&mut self, fraction: f32) -> Result<(), AvoidError> {
        check("tolerance", fraction, false)?;
        self.tolerance = fraction;
        Ok(())
    }

    /// Number of agents.
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// True when there are no agents.
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }

    /// Position of agent `i`.
    pub fn position(&self, i: usize) -> Vec2 {
        Vec2::new(self.xs[i], self.ys[i])
    }

    /// Velocity of agent `i`.
    pub fn velocity(&self, i: usize) -> Vec2 {
        Vec2::new(self.vxs[i], self.vys[i])
    }

    /// Goal of agent `i`.
    pub fn goal(&self, i: usize) -> Vec2 {
        Vec2::new(self.gxs[i], self.gys[i])
    }

    /// Metrics so far.
    pub fn metrics(&self) -> Metrics {
        let mut m = self.metrics;
        let dt = self.params.dt;
        let (mut sum, mut max, mut count) = (0.0_f64, 0.0_f32, 0usize);
        for &a in &self.arrived_at {
            if a != u32::MAX {
                let t = a as f32 * dt;
                sum += f64::from(t);
                max = max.max(t);
                count += 1;
            }
        }
        m.arrived = count;
        m.mean_time = if count > 0 { (sum / count as f64) as f32 } else { 0.0 };
        m.max_time = max;
        let n = self.len().max(1);
        m.mean_path = (self.walked.iter().map(|&w| f64::from(w)).sum::<f64>() / n as f64) as f32;
        let ratios: Vec<f64> = self
            .walked
            .iter()
            .zip(&self.straight)
            .zip(&self.arrived_at)
            .filter(|((_, &s), &a)| s > 0.0 && a != u32::MAX)
            .map(|((&w, &s), _)| f64::from(w / s))
            .collect();
        m.mean_path_ratio =
            if ratios.is_empty() { 0.0 } else { (ratios.iter().sum::<f64>() / ratios.len() as f64) as f32 };
        m
    }

    /// True when every agent has arrived.
    pub fn all_arrived(&self) -> bool {
        self.arrived_at.iter().all(|&a| a != u32::MAX)
    }

    /// The preferred velocity of agent `i`: toward its goal at top speed, slowing within two
    /// radii of it (proportionally to the distance), and never overshooting in one step.
    pub fn preferred(&self, i: usize) -> Vec2 {
        if let Some(w) = self.waypoint(i) {
            let to = w - self.position(i);
            let dist = to.length();
            if dist > 1e-6 {
                return to * (self.params.max_speed.min(dist / self.params.dt) / dist);
            }
        }
        let to_goal = self.goal(i) - self.position(i);
        let dist = to_goal.length();
        if dist <= 1e-6 {
            return Vec2::ZERO;
        }
        let p = &self.params;
        let speed = p.max_speed.min(p.max_speed * dist / (2.0 * p.radius)).min(dist / p.dt);
        to_goal * (speed / dist)
    }

    fn gather(&mut self, i: usize) {
        let p = &self.params;
        let centre = self.position(i);
        let count = self.grid.slots_within(centre, p.neighbour_dist, &mut self.found);
        self.order.clear();
        for &(slot, d2) in &self.found[..count] {
            let (id, _, _) = self.grid.slot(slot);
            if id as usize != i {
                self.order.push((d2, slot));
            }
        }
        let keep = p.max_neighbours.min(self.order.len());
        let by = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if keep < self.order.len() && keep > 0 {
            self.order.select_nth_unstable_by(keep - 1, by);
        }
        self.order.truncate(keep);
        self.order.sort_unstable_by(by);
        self.neighbours.clear();
        for &(_, slot) in &self.order {
            let (id, pos, vel) = self.grid.slot(slot);
            self.neighbours.push(Neighbour { id, pos, vel, radius: p.radius + p.margin });
        }
    }

    /// The state agent `i` decides from, its current neighbours, and what it would choose.
    pub fn inspect(&mut self, i: usize) -> (AgentState, Vec<Neighbour>, AvoidDebug) {
        self.refile();
        self.gather(i);
        let agent = self.agent(i);
        let mut obstacles = Vec::new();
        self.wall_points(agent.pos, self.obstacle_reach(), &mut obstacles);
        let mut debug = AvoidDebug::default();
        let _ = new_velocity_among(&self.params, &agent, &self.neighbours, &obstacles, Some(&mut debug));
        (agent, self.neighbours.clone(), debug)
    }

    /// As [`Crowd::inspect`] without changing anything (for drawing from a shared borrow).
    pub fn inspect_view(&self, i: usize) -> (AgentState, Vec<Neighbour>, AvoidDebug) {
        let mut copy = self.clone();
        copy.inspect(i)
    }

    fn obstacle_reach(&self) -> f32 {
        let p = &self.params;
        p.radius + p.margin + p.max_speed * OBSTACLE_HORIZON
    }

    /// Sets the seed of the per-step perturbation (scenarios set it from their seed).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// The state agent `i` decides from: its preferred velocity turned by a tiny seeded angle
    /// (up to [`PERTURBATION`] radians, a stateless hash of seed, step and agent), which
    /// breaks the perfect symmetries (a circle of agents all aiming at one point) where every
    /// agent would otherwise wait for the others; and its radius grown by the margin.
    fn agent(&self, i: usize) -> AgentState {
        let turn = PERTURBATION * hash3(self.seed, u64::from(self.metrics.steps), i as u32);
        AgentState {
            id: i as u32,
            pos: self.position(i),
            vel: self.velocity(i),
            pref: self.preferred(i).rotated(turn),
            radius: self.params.radius + self.params.margin,
            max_speed: self.params.max_speed,
        }
    }

    fn refile(&mut self) {
        let n = self.len();
        self.grid.rebuild(&self.xs, &self.ys, &self.vxs, &self.vys, 0..n);
    }

    /// One step: new velocities for all from the frozen state, then everyone moves.
    pub fn step(&mut self) {
        let n = self.len();
        self.refile();
        let reach = self.obstacle_reach();
        let mut obstacles = std::mem::take(&mut self.obstacles);
        for i in 0..n {
            self.gather(i);
            let mut agent = self.agent(i);
            self.wall_points(agent.pos, reach, &mut obstacles);
            let mut v = new_velocity_among(&self.params, &agent, &self.neighbours, &obstacles, None);
            let want = agent.pref.length();
            if want > STUCK_SPEED * self.params.max_speed && v.length() < STUCK_SPEED * want {
                // Stuck: try keeping to the right, as pedestrians do.
                agent.pref = agent.pref.rotated(-SIDESTEP);
                v = new_velocity_among(&self.params, &agent, &self.neighbours, &obstacles, None);
            }
            if !obstacles.is_empty() {
                v = self.wall_guard(agent.pos, v, self.params.radius, &obstacles);
            }
            self.next_vx[i] = v.x;
            self.next_vy[i] = v.y;
        }
        self.obstacles = obstacles;
        let dt = self.params.dt;
        self.metrics.steps += 1;
        let step = self.metrics.steps;
        for i in 0..n {
            self.vxs[i] = self.next_vx[i];
            self.vys[i] = self.next_vy[i];
            self.xs[i] += self.vxs[i] * dt;
            self.ys[i] += self.vys[i] * dt;
            self.walked[i] += self.velocity(i).length() * dt;
            if self.arrived_at[i] == u32::MAX
                && self.position(i).distance(self.goal(i)) <= ARRIVAL_FRACTION * self.params.radius
            {
                self.arrived_at[i] = step;
            }
        }
        self.measure();
    }

    /// Runs `steps` steps, stopping early once every agent has arrived and stopped.
    pub fn run(&mut self, steps: u32) {
        for _ in 0..steps {
            if self.all_arrived() && self.vxs.iter().chain(&self.vys).all(|v| v.abs() < 1e-3) {
                break;
            }
            self.step();
        }
    }

    /// Overlaps after a move, each pair once, through the grid.
    fn measure(&mut self) {
        let n = self.len();
        self.refile();
        let r = self.params.radius;
        let reach = GAP_REACH * r;
        let mut min_gap = self.metrics.min_gap;
        let mut worst = self.metrics.worst_overlap;
        let mut collisions = 0;
        let limit = self.tolerance * r;
        for i in 0..n {
            let centre = self.position(i);
            let count = self.grid.slots_within(centre, reach, &mut self.found);
            for &(slot, d2) in &self.found[..count] {
                let (j, _, _) = self.grid.slot(slot);
                if (j as usize) <= i {
                    continue;
                }
                let gap = d2.sqrt() - 2.0 * r;
                min_gap = min_gap.min(gap);
                if gap < 0.0 {
                    worst = worst.max(-gap / r);
                    if -gap > limit {
                        collisions += 1;
                    }
                }
            }
        }
        self.metrics.min_gap = min_gap;
        self.metrics.worst_overlap = worst;
        self.metrics.collisions += collisions;
        if !self.walls.is_empty() {
            for i in 0..n {
                let depth = self.wall_depth(self.position(i), r);
                if depth > 0.0 {
                    self.metrics.worst_wall_overlap = self.metrics.worst_wall_overlap.max(depth / r);
                    if depth > limit {
                        self.metrics.wall_hits += 1;
                    }
                }
            }
        }
    }

    /// Positions and velocities of all agents as bits, for comparing runs exactly.
    pub fn fingerprint(&self) -> Vec<u32> {
        self.xs.iter().chain(&self.ys).chain(&self.vxs).chain(&self.vys).map(|v| v.to_bits()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_program_returns_the_preferred_velocity_capped() {
        let (v, ok) = solve(&[], 1.0, Vec2::new(3.0, 4.0));
        assert!(ok);
        assert!((v.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn contradictory_planes_fall_back_to_the_least_violation() {
        // v.x >= 1 and v.x <= -1 cannot both hold: the best compromise is v.x = 0.
        let lines = [
            HalfPlane { point: Vec2::new(1.0, 0.0), direction: Vec2::new(0.0, -1.0) },
            HalfPlane { point: Vec2::new(-1.0, 0.0), direction: Vec2::new(0.0, 1.0) },
        ];
        assert!(lines[0].signed_distance(Vec2::new(2.0, 0.0)) > 0.0);
        let (v, ok) = solve(&lines, 2.0, Vec2::new(0.0, 1.0));
        assert!(!ok);
        assert!(v.x.abs() < 1e-4, "{v:?}");
    }
}
