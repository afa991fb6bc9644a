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
//! [`Crowd`] runs many agents with goals: a uniform [`SpatialGrid`](crate::boids::SpatialGrid) finds the neighbours, every
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
//!
//! The files, one per concept:
//! - this one: the parameters, the agent and its neighbours as [`new_velocity`] sees them, and
//!   [`new_velocity`] itself, which hands each method to its file;
//! - [`sampled`]: VO, RVO and HRVO, velocity-obstacle cones and the sampled candidates;
//! - [`orca`]: ORCA's half-planes, one per neighbour or static disc;
//! - [`obstacles`]: walls as polygons, as RVO2 models them, and their ORCA half-planes;
//! - [`linear_program`]: the incremental 2-D program over half-planes and its 3-D fallback;
//! - [`simulator`]: [`Crowd`], many agents walking to their goals, with scenarios and metrics.
//!
//! Everything public is re-exported here, so `crowd::avoid::Crowd` and the like keep their
//! paths.

pub mod linear_program;
pub mod obstacles;
pub mod orca;
pub mod sampled;
pub mod simulator;

use std::fmt;

use crate::boids::Vec2;

pub use linear_program::{solve, solve_hard, HalfPlane};
pub use obstacles::{obstacle_planes, ObstacleError, ObstacleVertex, Obstacles};
pub use orca::orca_planes;
pub use sampled::{cone_apex, hrvo_apex, sample_velocities, time_to_collision, Cone, SAMPLE_HEADINGS, SAMPLE_RINGS};
pub use simulator::{
    Crowd, CrowdRules, Metrics, Scenario, ARRIVAL_FRACTION, GAP_REACH, MAX_WALL_POINTS, PERTURBATION, SIDESTEP,
    STUCK_SPEED,
};

use orca::planes_with_share;
use sampled::{cone_sides, sampled};

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
    /// Collisions with static obstacles further ahead than this many seconds are ignored
    /// (RVO2's `timeHorizonObst`; [`OBSTACLE_HORIZON`] by default). Shorter than the agents'
    /// horizon, it lets an agent walk along a wall without being slowed by the wall ahead.
    pub obstacle_horizon: f32,
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
    /// ORCA with radius 0.5, top speed 1.5, a 2 s horizon (1 s for obstacles), 10
    /// neighbours within 3, steps of 0.1 s, penalty weight 1 and a margin of 0.1 (a fifth of
    /// the radius).
    fn default() -> Self {
        Self {
            method: Method::Orca,
            neighbour_dist: 3.0,
            max_neighbours: 10,
            time_horizon: 2.0,
            obstacle_horizon: OBSTACLE_HORIZON,
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
    /// Checks every field: all finite; radius, top speed, both time horizons, step and
    /// neighbour distance above 0; penalty and margin 0 or more. The error names the first bad field.
    pub fn validate(&self) -> Result<(), AvoidError> {
        check("radius", self.radius, true)?;
        check("max_speed", self.max_speed, true)?;
        check("time_horizon", self.time_horizon, true)?;
        check("obstacle_horizon", self.obstacle_horizon, true)?;
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

/// The default of [`AvoidParams::obstacle_horizon`]: how far ahead, in seconds, static
/// obstacles are avoided.
pub const OBSTACLE_HORIZON: f32 = 1.0;

/// As [`new_velocity`], with static `obstacles` as well: discs that do not move (their
/// velocity is ignored) and take no share of the avoidance, so the agent does all of it.
/// Obstacles always count as velocity obstacles with apex 0 (whatever the method) and are
/// looked at [`AvoidParams::obstacle_horizon`] seconds ahead; under ORCA their half-planes are
/// hard (the fallback for crowded cases relaxes only the agents' half-planes); under VO, RVO
/// and HRVO a candidate that would touch an obstacle within two steps is never taken
/// (standing still is always possible).
pub fn new_velocity_among(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    obstacles: &[Neighbour],
    debug: Option<&mut AvoidDebug>,
) -> Vec2 {
    decide(params, agent, neighbours, obstacles, None, debug)
}

/// As [`new_velocity`], among polygon obstacles: `near` lists the edges of `walls` the agent
/// must look at, nearest first ([`Obstacles::near`] within [`AvoidParams::obstacle_horizon`]
/// times the top speed plus the radius, as RVO2 does). Under ORCA the edges give RVO2's
/// obstacle half-planes ([`obstacle_planes`]), placed before the agents' and never relaxed;
/// the sampled methods avoid the nearest point of each edge as a static disc of radius 0.
///
/// ```
/// use pathlab_core::boids::Vec2;
/// use pathlab_core::crowd::avoid::{new_velocity_near_walls, AgentState, AvoidParams, Obstacles};
/// let mut walls = Obstacles::new();
/// // A wall from x = 1 onward (obstacle on the left of each edge).
/// walls.add_polygon(&[Vec2::new(1.0, -5.0), Vec2::new(3.0, -5.0), Vec2::new(3.0, 5.0), Vec2::new(1.0, 5.0)]).unwrap();
/// let agent = AgentState {
///     id: 0, pos: Vec2::ZERO, vel: Vec2::new(1.0, 0.0), pref: Vec2::new(1.0, 0.0), radius: 0.5, max_speed: 1.0,
/// };
/// let params = AvoidParams::default();
/// let mut near = Vec::new();
/// walls.near(agent.pos, params.obstacle_horizon * agent.max_speed + agent.radius, &mut near);
/// let v = new_velocity_near_walls(&params, &agent, &[], &walls, &near, None);
/// // Half a unit from the wall, looking 1 s ahead: at most 0.5 toward it.
/// assert!(v.x <= 0.5 + 1e-5, "{v:?}");
/// ```
pub fn new_velocity_near_walls(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    walls: &Obstacles,
    near: &[(f32, u32)],
    debug: Option<&mut AvoidDebug>,
) -> Vec2 {
    decide(params, agent, neighbours, &[], Some((walls, near)), debug)
}

fn decide(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    discs: &[Neighbour],
    walls: Option<(&Obstacles, &[(f32, u32)])>,
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
    let mut lines = Vec::new();
    let mut points = Vec::new();
    let (chosen, feasible) = match params.method {
        Method::Orca => {
            if let Some((w, near)) = walls {
                obstacle_planes(&agent, w, near, params.obstacle_horizon, &mut lines);
            }
            planes_with_share(params, &agent, discs, 1.0, params.obstacle_horizon, &mut lines);
            let hard = lines.len();
            orca_planes(params, &agent, neighbours, &mut lines);
            solve_hard(&lines, hard, agent.max_speed, agent.pref)
        }
        Method::Vo | Method::Rvo | Method::Hrvo => {
            points.extend_from_slice(discs);
            if let Some((w, near)) = walls {
                w.nearest_points(agent.pos, near, &mut points);
            }
            sampled(params, &agent, neighbours, &points)
        }
    };
    let chosen = if chosen.is_finite() { chosen.truncate(agent.max_speed) } else { Vec2::ZERO };
    if let Some(d) = debug {
        d.cones.clear();
        d.planes.clear();
        match params.method {
            Method::Orca => d.planes = lines,
            Method::Vo | Method::Rvo | Method::Hrvo => {
                for n in points.iter().filter(|n| usable(n)) {
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

fn usable(n: &Neighbour) -> bool {
    n.pos.is_finite() && n.vel.is_finite() && n.radius.is_finite() && n.radius >= 0.0
}
