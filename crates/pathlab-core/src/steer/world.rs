//! The boid world: agents in structure-of-arrays form, species, walls, circles, goals and a
//! path, advanced by a fixed-step, two-phase update.
//!
//! One [`World::step`]:
//! 1. rebuild one spatial grid per species (a counting sort);
//! 2. phase one, read-only: for every agent gather its neighbours from the grids, compute each
//!    behaviour's force, combine them ([`Combine`]), and run the vehicle model up to the new
//!    velocity (force -> truncate to max force -> acceleration = force / mass -> velocity +=
//!    acceleration * dt -> truncate to max speed); work out the sphere-sphere collision
//!    response; write the result to a scratch buffer;
//! 3. phase two: for every agent take the new velocity, move by velocity * dt plus the
//!    collision push through [`Walls::slide`] (so no wall is crossed), push the body off any
//!    wall it overlaps, and take the heading from the velocity.
//!
//! No agent reads another's new state, so the order of agents does not matter, and the same
//! seed gives the same run.
//!
//! ```
//! use pathlab_core::steer::{Scenario, World};
//! let mut world = Scenario::Flock.build(200, 7).unwrap();
//! world.step();
//! assert_eq!(world.len(), 200);
//! assert!(world.xs().iter().all(|x| x.is_finite()));
//! ```

use super::behaviours::{
    arrive, collide_agents, collide_circles, containment, evade, flee, flock_lanes, leader_following,
    obstacle_avoidance, path_following, pursue, seek, unaligned_avoidance, wall_following, wander, wander_turn, Agent,
    Body, Circle, FlockRules, FlockSums, Neighbour, Obstacles,
};
use super::combine::{context_force, context_map, priority, weighted_sum, ContextMap, Forces};
use super::params::{
    Behaviour, Combine, ParamError, Rule, SpeciesParams, WorldParams, BEHAVIOURS, MAX_AGENTS, MAX_SPECIES,
};
use super::path::{PathError, SteerPath};
use super::rng::{hash3, Pcg32};
use super::spatial::SpatialGrid;
use super::{Vec2, Walls};
use crate::grid::{GridError, Point};

/// How one species relates to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The same species: a flock (separation, alignment, cohesion, collisions).
    Mate,
    /// Another flock: kept apart (separation, unaligned avoidance, collisions) but not
    /// followed.
    Other,
    /// The other species is hunted by this one.
    Prey,
    /// The other species hunts this one.
    Predator,
}

/// What an agent carries from one step to the next besides its position and velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Memory {
    /// Where the wander point is on the wander circle: a unit vector relative to the heading.
    pub wander: Vec2,
    /// The path segment the agent was last nearest to (`u32::MAX`: not known yet).
    pub progress: u32,
    /// Index of the goal the agent is heading for.
    pub goal: u16,
}

/// The result of phase one for one agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Update {
    /// The new velocity.
    pub vel: Vec2,
    /// The collision push to add to this step's displacement.
    pub push: Vec2,
    /// The new memory.
    pub memory: Memory,
}

/// The world around an agent, shared by all agents in a step.
#[derive(Clone, Copy, Debug)]
pub struct Env<'a> {
    /// Walls.
    pub walls: &'a Walls,
    /// Circles.
    pub obstacles: &'a Obstacles,
    /// The path to follow, if any.
    pub path: Option<&'a SteerPath>,
    /// Goals for seek, flee and arrive, visited in turn.
    pub goals: &'a [Vec2],
    /// The leader, if any.
    pub leader: Option<Body>,
    /// World settings.
    pub params: WorldParams,
    /// Seed of the run.
    pub seed: u64,
    /// Steps taken so far.
    pub step: u64,
}

/// An agent's neighbourhood, gathered from the spatial grids.
#[derive(Clone, Copy, Debug)]
pub struct Hood<'a> {
    /// Agents of its own and other flocks within reach, for unaligned avoidance and the
    /// collision response. The step lists them all only for species with unaligned avoidance
    /// on (and [`World::inspect`] always); otherwise only those near enough to touch, all the
    /// collision response looks at.
    pub near: &'a [Neighbour],
    /// The flocking rules' sums over every neighbour within reach.
    pub flock: FlockSums,
    /// The nearest prey within the hunt radius.
    pub prey: Option<Body>,
    /// The nearest predator within the panic radius.
    pub predator: Option<Body>,
    /// The smallest distance in `near` (infinite when empty): the collision response is
    /// skipped when nothing is close enough to touch.
    pub closest: f32,
}

/// The first four bytes of [`World::motion`]'s output ("PLM1").
const MOTION_TAG: u32 = u32::from_le_bytes(*b"PLM1");
/// Bytes of [`World::motion`] before the agents: the tag, the step count and the agent count.
const MOTION_HEADER: usize = 16;
/// Bytes per agent: eight `f32` (position, velocity, heading, wander spot), path progress
/// (`u32`) and goal (`u16`).
const MOTION_PER_AGENT: usize = 8 * 4 + 4 + 2;

/// Why [`World::set_motion`] refused its input.
#[derive(Clone, Debug, PartialEq)]
pub enum MotionError {
    /// The bytes do not start like [`World::motion`]'s output.
    NotMotion,
    /// The motion is of a different number of agents.
    WrongCount {
        /// Agents in the world.
        world: usize,
        /// Agents in the motion.
        motion: usize,
    },
    /// The bytes are too few or too many for the agent count.
    WrongLength {
        /// The length for the world's agents.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// An agent's numbers include NaN or an infinity.
    NotFinite {
        /// The agent.
        agent: usize,
    },
    /// An agent's position is outside the world.
    Outside {
        /// The agent.
        agent: usize,
        /// Its x.
        x: f32,
        /// Its y.
        y: f32,
    },
}

impl std::fmt::Display for MotionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotMotion => write!(f, "the data is not a boid world's motion"),
            Self::WrongCount { world, motion } => {
                write!(f, "the motion is of {motion} agents but the world has {world}")
            }
            Self::WrongLength { expected, got } => {
                write!(f, "the motion should be {expected} bytes long for this world, not {got}")
            }
            Self::NotFinite { agent } => write!(f, "agent {agent}'s motion is not a finite number"),
            Self::Outside { agent, x, y } => {
                write!(f, "agent {agent} would be outside the world, at ({x}, {y})")
            }
        }
    }
}

impl std::error::Error for MotionError {}

/// Scratch space for finding how far an agent's nearest `max_neighbours` reach.
#[derive(Clone, Debug, Default)]
struct Reach {
    /// Slots and squared distances from [`SpatialGrid::slots_within`].
    slots: Vec<(u32, f32)>,
    /// The squared distances of every neighbour within the gathering radii.
    d2s: Vec<f32>,
}

/// Values of a species worked out once per step from its parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Derived {
    /// The flocking rules' radii (0 for a rule that is off) and view cones.
    pub rules: FlockRules,
    /// Neighbours nearer than this may touch: the body radius plus the largest of any
    /// species when collisions are on, otherwise 0.
    pub touch: f32,
    /// How far to gather flockmates.
    pub mate_radius: f32,
    /// How far to gather members of other flocks.
    pub other_radius: f32,
    /// Which behaviours are on (weight above 0).
    pub on: [bool; BEHAVIOURS],
    /// The largest body radius of any species.
    pub largest_radius: f32,
}

impl Derived {
    fn of(p: &SpeciesParams, collide_reach: f32, largest_radius: f32) -> Self {
        let mut on = [false; BEHAVIOURS];
        for (o, w) in on.iter_mut().zip(p.weights) {
            *o = w > 0.0;
        }
        let r = |b: Behaviour, radius: f32| if on[b as usize] { radius } else { 0.0 };
        let sep = r(Behaviour::Separation, p.separation.radius);
        let una = r(Behaviour::UnalignedAvoidance, p.unaligned.radius);
        let mate_radius = sep
            .max(r(Behaviour::Alignment, p.alignment.radius))
            .max(r(Behaviour::Cohesion, p.cohesion.radius))
            .max(una)
            .max(collide_reach);
        let rule = |b: Behaviour, rule: Rule| (r(b, rule.radius), SpeciesParams::half_cos(rule.view_angle));
        Self {
            rules: FlockRules::new(
                (sep, SpeciesParams::half_cos(p.separation.view_angle)),
                rule(Behaviour::Alignment, p.alignment),
                rule(Behaviour::Cohesion, p.cohesion),
            ),
            touch: collide_reach,
            mate_radius,
            other_radius: sep.max(una).max(collide_reach),
            on,
            largest_radius,
        }
    }
}

/// Receives the details of one agent's update. The default methods do nothing and
/// [`NoProbe`] is inlined away, so the normal step pays nothing for them; [`World::inspect`]
/// uses a [`Recorder`].
pub trait Probe {
    /// True when the probe wants the context map even if the species does not steer by it.
    const ACTIVE: bool;

    /// The weighted forces of the behaviours.
    #[inline]
    fn forces(&mut self, forces: &Forces) {
        let _ = forces;
    }

    /// The context map.
    #[inline]
    fn context(&mut self, map: &ContextMap) {
        let _ = map;
    }

    /// The combined steering force, before truncation to the maximum force.
    #[inline]
    fn steering(&mut self, force: Vec2) {
        let _ = force;
    }

    /// The point the agent is steering at (goal, path look-ahead point), if any.
    #[inline]
    fn target(&mut self, at: Vec2) {
        let _ = at;
    }
}

/// A probe that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProbe;

impl Probe for NoProbe {
    const ACTIVE: bool = false;
}

/// A probe that keeps everything, for showing one agent.
#[derive(Clone, Copy, Debug, Default)]
pub struct Recorder {
    /// The weighted forces.
    pub forces: Forces,
    /// The context map.
    pub context: Option<ContextMap>,
    /// The combined force.
    pub steering: Vec2,
    /// The point steered at.
    pub target: Option<Vec2>,
}

impl Probe for Recorder {
    const ACTIVE: bool = true;

    fn forces(&mut self, forces: &Forces) {
        self.forces = *forces;
    }

    fn context(&mut self, map: &ContextMap) {
        self.context = Some(*map);
    }

    fn steering(&mut self, force: Vec2) {
        self.steering = force;
    }

    fn target(&mut self, at: Vec2) {
        self.target = Some(at);
    }
}

/// Phase one for one agent: every behaviour's force, their combination and the vehicle model
/// up to the new velocity, plus the collision response. Pure: it reads its arguments only.
#[allow(clippy::too_many_lines)]
pub fn update_agent<P: Probe>(
    me: &Agent,
    memory: Memory,
    p: &SpeciesParams,
    d: &Derived,
    hood: &Hood<'_>,
    env: &Env<'_>,
    probe: &mut P,
) -> Update {
    let on = |b: Behaviour| d.on[b as usize];
    let w = |b: Behaviour| p.weights[b as usize];
    let mut forces = Forces::default();
    let mut next = memory;

    // Goals: seek, flee and arrive share the current goal; reaching it moves on to the next.
    if !env.goals.is_empty() && (on(Behaviour::Seek) || on(Behaviour::Flee) || on(Behaviour::Arrive)) {
        let k = usize::from(memory.goal) % env.goals.len();
        let goal = env.goals[k];
        if env.goals.len() > 1 && me.pos.distance(goal) <= p.goal.reached_radius {
            next.goal = ((k + 1) % env.goals.len()) as u16;
        }
        if P::ACTIVE {
            probe.target(goal);
        }
        if on(Behaviour::Seek) {
            forces.set(Behaviour::Seek, seek(me, goal), w(Behaviour::Seek));
        }
        if on(Behaviour::Flee) {
            forces.set(Behaviour::Flee, flee(me, goal, p.goal.panic_radius), w(Behaviour::Flee));
        }
        if on(Behaviour::Arrive) {
            forces.set(Behaviour::Arrive, arrive(me, goal, p.goal.slowing_radius), w(Behaviour::Arrive));
        }
    }
    if on(Behaviour::Pursue) {
        if let Some(prey) = &hood.prey {
            forces.set(Behaviour::Pursue, pursue(me, prey, &p.chase), w(Behaviour::Pursue));
        }
    }
    if on(Behaviour::Evade) {
        if let Some(predator) = &hood.predator {
            forces.set(Behaviour::Evade, evade(me, predator, &p.chase), w(Behaviour::Evade));
        }
    }
    if on(Behaviour::Wander) {
        forces.set(Behaviour::Wander, wander(me, memory.wander, &p.wander), w(Behaviour::Wander));
        let random = hash3(env.seed, env.step, me.index);
        next.wander = wander_turn(memory.wander, random, &p.wander, env.params.dt);
    }
    if on(Behaviour::PathFollowing) {
        if let Some(path) = env.path {
            let (f, progress) = path_following(me, path, memory.progress, &p.path, p.goal.slowing_radius);
            next.progress = progress;
            if P::ACTIVE {
                probe.target(me.pos + f + me.vel);
            }
            forces.set(Behaviour::PathFollowing, f, w(Behaviour::PathFollowing));
        }
    }
    if on(Behaviour::WallFollowing) {
        forces.set(Behaviour::WallFollowing, wall_following(me, env.walls, &p.wall), w(Behaviour::WallFollowing));
    }
    if on(Behaviour::Containment) {
        forces.set(Behaviour::Containment, containment(me, env.walls, &p.probes), w(Behaviour::Containment));
    }
    if on(Behaviour::ObstacleAvoidance) {
        let f = obstacle_avoidance(me, env.walls, env.obstacles, &p.probes);
        forces.set(Behaviour::ObstacleAvoidance, f, w(Behaviour::ObstacleAvoidance));
    }
    let (sep_on, ali_on, coh_on) = (on(Behaviour::Separation), on(Behaviour::Alignment), on(Behaviour::Cohesion));
    if sep_on || ali_on || coh_on {
        // The sums come from the gathering pass; a rule that is off had radius 0 there.
        let (sep, ali, coh) = hood.flock.forces(me);
        if sep_on {
            forces.set(Behaviour::Separation, sep, w(Behaviour::Separation));
        }
        if ali_on {
            forces.set(Behaviour::Alignment, ali, w(Behaviour::Alignment));
        }
        if coh_on {
            forces.set(Behaviour::Cohesion, coh, w(Behaviour::Cohesion));
        }
    }
    if on(Behaviour::LeaderFollowing) {
        if let Some(leader) = &env.leader {
            let f = leader_following(me, leader, &p.leader, p.goal.slowing_radius);
            forces.set(Behaviour::LeaderFollowing, f, w(Behaviour::LeaderFollowing));
        }
    }
    if on(Behaviour::UnalignedAvoidance) {
        let f = unaligned_avoidance(me, hood.near, &p.unaligned);
        forces.set(Behaviour::UnalignedAvoidance, f, w(Behaviour::UnalignedAvoidance));
    }

    let max_force = p.vehicle.max_force;
    let steering = match p.combine {
        Combine::WeightedSum => weighted_sum(&forces, max_force),
        Combine::Priority => priority(&forces, max_force),
        Combine::Context => {
            let map = context_map(&forces, me.vel, me.heading, p.slots as usize);
            if P::ACTIVE {
                probe.context(&map);
            }
            context_force(&map, me.vel, me.max_speed, max_force)
        }
    };
    if P::ACTIVE {
        probe.forces(&forces);
        probe.steering(steering);
        if p.combine != Combine::Context {
            probe.context(&context_map(&forces, me.vel, me.heading, p.slots as usize));
        }
    }

    // The vehicle model.
    let force = steering.truncate(max_force);
    let accel = force / p.vehicle.mass;
    let mut vel = (me.vel + accel * env.params.dt).truncate(p.vehicle.max_speed);

    let mut push = Vec2::ZERO;
    if env.params.collisions {
        let (pa, v) = if hood.closest < me.radius + d.largest_radius {
            collide_agents(me, hood.near, vel)
        } else {
            (Vec2::ZERO, vel)
        };
        let (pc, v) = collide_circles(me, env.obstacles, v);
        push = pa + pc;
        vel = v.truncate(p.vehicle.max_speed);
    }
    if !vel.is_finite() {
        vel = Vec2::ZERO;
    }
    if !push.is_finite() {
        push = Vec2::ZERO;
    }
    Update { vel, push, memory: next }
}

/// Everything [`World::inspect`] tells about one agent.
#[derive(Clone, Debug)]
pub struct Inspection {
    /// The agent.
    pub index: u32,
    /// Its species.
    pub species: u8,
    /// Position.
    pub pos: Vec2,
    /// Velocity.
    pub vel: Vec2,
    /// Heading.
    pub heading: Vec2,
    /// Body radius.
    pub radius: f32,
    /// Separation's neighbourhood.
    pub separation: Rule,
    /// Alignment's neighbourhood.
    pub alignment: Rule,
    /// Cohesion's neighbourhood.
    pub cohesion: Rule,
    /// How the forces combine.
    pub combine: Combine,
    /// Each behaviour's weighted force.
    pub forces: Forces,
    /// The combined force (before truncation).
    pub steering: Vec2,
    /// The context map.
    pub context: Option<ContextMap>,
    /// The neighbours gathered.
    pub neighbours: Vec<u32>,
    /// The point steered at, if any.
    pub target: Option<Vec2>,
    /// The velocity the next step will give it.
    pub next_vel: Vec2,
}

/// The boid world.
#[derive(Clone, Debug)]
pub struct World {
    xs: Vec<f32>,
    ys: Vec<f32>,
    vxs: Vec<f32>,
    vys: Vec<f32>,
    hxs: Vec<f32>,
    hys: Vec<f32>,
    species: Vec<u8>,
    memory: Vec<Memory>,
    scratch: Vec<Update>,
    params: Vec<SpeciesParams>,
    derived: Vec<Derived>,
    grids: Vec<SpatialGrid>,
    walls: Walls,
    obstacles: Obstacles,
    goals: Vec<Vec2>,
    waypoints: Vec<Point>,
    path: Option<SteerPath>,
    path_error: Option<PathError>,
    leader: Option<u32>,
    settings: WorldParams,
    seed: u64,
    rng: Pcg32,
    steps: u64,
    hood: Vec<Neighbour>,
    reach: Reach,
}

impl World {
    /// An empty world over `walls` with these species (1 to [`MAX_SPECIES`], each valid).
    pub fn new(walls: Walls, species: Vec<SpeciesParams>, world: WorldParams, seed: u64) -> Result<Self, ParamError> {
        if species.is_empty() || species.len() > MAX_SPECIES {
            return Err(ParamError::UnknownSpecies(species.len()));
        }
        for (s, p) in species.iter().enumerate() {
            p.validate()?;
            if let Some(prey) = p.prey {
                if usize::from(prey) >= species.len() || usize::from(prey) == s {
                    return Err(ParamError::BadPrey(prey));
                }
            }
        }
        world.validate()?;
        let obstacles = Obstacles::new(Vec::new(), walls.width(), walls.height());
        Ok(Self {
            xs: Vec::new(),
            ys: Vec::new(),
            vxs: Vec::new(),
            vys: Vec::new(),
            hxs: Vec::new(),
            hys: Vec::new(),
            species: Vec::new(),
            memory: Vec::new(),
            scratch: Vec::new(),
            derived: vec![Derived::default(); species.len()],
            grids: vec![SpatialGrid::default(); species.len()],
            params: species,
            walls,
            obstacles,
            goals: Vec::new(),
            waypoints: Vec::new(),
            path: None,
            path_error: None,
            leader: None,
            settings: world,
            seed,
            rng: Pcg32::new(seed),
            steps: 0,
            hood: Vec::new(),
            reach: Reach::default(),
        })
    }

    // ---- agents -----------------------------------------------------------------------------

    /// Number of agents.
    pub fn len(&self) -> usize {
        self.xs.len()
    }

    /// True when there are no agents.
    pub fn is_empty(&self) -> bool {
        self.xs.is_empty()
    }

    /// x of every agent.
    pub fn xs(&self) -> &[f32] {
        &self.xs
    }

    /// y of every agent.
    pub fn ys(&self) -> &[f32] {
        &self.ys
    }

    /// x velocity of every agent.
    pub fn vxs(&self) -> &[f32] {
        &self.vxs
    }

    /// y velocity of every agent.
    pub fn vys(&self) -> &[f32] {
        &self.vys
    }

    /// x of every agent's unit heading.
    pub fn hxs(&self) -> &[f32] {
        &self.hxs
    }

    /// y of every agent's unit heading.
    pub fn hys(&self) -> &[f32] {
        &self.hys
    }

    /// Every agent's species.
    pub fn species_of(&self) -> &[u8] {
        &self.species
    }

    /// Agent `i`'s position.
    pub fn pos(&self, i: usize) -> Vec2 {
        Vec2::new(self.xs[i], self.ys[i])
    }

    /// Agent `i`'s velocity.
    pub fn vel(&self, i: usize) -> Vec2 {
        Vec2::new(self.vxs[i], self.vys[i])
    }

    /// Agent `i`'s heading.
    pub fn heading(&self, i: usize) -> Vec2 {
        Vec2::new(self.hxs[i], self.hys[i])
    }

    /// Adds an agent of `species` at `pos` (moved to the nearest open cell if it is in a wall)
    /// moving at `vel`; returns its index.
    pub fn add_agent(&mut self, species: u8, pos: Vec2, vel: Vec2) -> Result<usize, ParamError> {
        if usize::from(species) >= self.params.len() {
            return Err(ParamError::UnknownSpecies(usize::from(species)));
        }
        if self.len() >= MAX_AGENTS {
            return Err(ParamError::TooManyAgents(self.len() + 1));
        }
        let pos = if self.walls.is_free(pos) {
            pos
        } else {
            self.walls.nearest_open(pos).unwrap_or(Vec2::new(self.walls.cell() * 0.5, self.walls.cell() * 0.5))
        };
        let vel = if vel.is_finite() {
            vel.truncate(self.params[usize::from(species)].vehicle.max_speed)
        } else {
            Vec2::ZERO
        };
        let heading = if vel.length_sq() > 1e-12 { vel.normalized() } else { Vec2::new(1.0, 0.0) };
        self.xs.push(pos.x);
        self.ys.push(pos.y);
        self.vxs.push(vel.x);
        self.vys.push(vel.y);
        self.hxs.push(heading.x);
        self.hys.push(heading.y);
        self.species.push(species);
        let goal = if self.goals.is_empty() { 0 } else { (usize::from(species) % self.goals.len()) as u16 };
        let wander = Vec2::from_angle(self.rng.range(-1.0, 1.0));
        self.memory.push(Memory { wander, progress: u32::MAX, goal });
        Ok(self.len() - 1)
    }

    /// Adds `count` agents of `species` at random open places inside `area` (x0, y0, x1, y1;
    /// the whole world when `None`), heading in random directions at half their top speed.
    /// Refuses (adding none) when the total would pass [`MAX_AGENTS`].
    pub fn spawn(&mut self, species: u8, count: usize, area: Option<[f32; 4]>) -> Result<(), ParamError> {
        if usize::from(species) >= self.params.len() {
            return Err(ParamError::UnknownSpecies(usize::from(species)));
        }
        let total = self.len().saturating_add(count);
        if total > MAX_AGENTS {
            return Err(ParamError::TooManyAgents(total));
        }
        let (w, h) = (self.walls.width(), self.walls.height());
        let [x0, y0, x1, y1] = area.unwrap_or([0.0, 0.0, w, h]);
        let (x0, x1) = (x0.clamp(0.0, w), x1.clamp(0.0, w).max(x0.clamp(0.0, w)));
        let (y0, y1) = (y0.clamp(0.0, h), y1.clamp(0.0, h).max(y0.clamp(0.0, h)));
        let speed = self.params[usize::from(species)].vehicle.max_speed * 0.5;
        let radius = self.params[usize::from(species)].vehicle.radius;
        for _ in 0..count {
            let mut pos = Vec2::new(self.rng.range(x0, x1.max(x0 + 1e-3)), self.rng.range(y0, y1.max(y0 + 1e-3)));
            for _ in 0..32 {
                if self.is_clear(pos, radius) {
                    break;
                }
                pos = Vec2::new(self.rng.range(x0, x1.max(x0 + 1e-3)), self.rng.range(y0, y1.max(y0 + 1e-3)));
            }
            let angle = self.rng.range(-std::f32::consts::PI, std::f32::consts::PI);
            let vel = Vec2::from_angle(angle) * speed;
            self.add_agent(species, pos, vel)?;
        }
        Ok(())
    }

    fn is_clear(&self, pos: Vec2, radius: f32) -> bool {
        if !self.walls.is_free(pos) || self.walls.push_out(pos, radius) != Vec2::ZERO {
            return false;
        }
        let mut clear = true;
        self.obstacles.for_each_near(pos, radius, |_| clear = false);
        clear
    }

    /// Removes agent `i` (the last agent takes its index). The leader, if removed, is gone.
    pub fn remove_agent(&mut self, i: usize) {
        if i >= self.len() {
            return;
        }
        let last = self.len() - 1;
        self.xs.swap_remove(i);
        self.ys.swap_remove(i);
        self.vxs.swap_remove(i);
        self.vys.swap_remove(i);
        self.hxs.swap_remove(i);
        self.hys.swap_remove(i);
        self.species.swap_remove(i);
        self.memory.swap_remove(i);
        self.leader = match self.leader {
            Some(l) if l as usize == i => None,
            Some(l) if l as usize == last => Some(i as u32),
            other => other,
        };
    }

    /// Removes up to `count` agents of `species` (any species when `None`), the most recently
    /// added first, never the leader. Returns how many were removed.
    pub fn remove_agents(&mut self, count: usize, species: Option<u8>) -> usize {
        let mut removed = 0;
        let mut i = self.len();
        while removed < count && i > 0 {
            i -= 1;
            if species.is_some_and(|s| self.species[i] != s) || self.leader == Some(i as u32) {
                continue;
            }
            self.remove_agent(i);
            removed += 1;
        }
        removed
    }

    /// Removes every agent.
    pub fn clear_agents(&mut self) {
        let n = self.len();
        for v in [&mut self.xs, &mut self.ys, &mut self.vxs, &mut self.vys, &mut self.hxs, &mut self.hys] {
            v.clear();
        }
        self.species.clear();
        self.memory.clear();
        self.leader = None;
        debug_assert!(n == 0 || self.is_empty());
    }

    // ---- species and settings --------------------------------------------------------------

    /// The species.
    pub fn species(&self) -> &[SpeciesParams] {
        &self.params
    }

    /// A species' parameters.
    pub fn species_params(&self, s: usize) -> Result<&SpeciesParams, ParamError> {
        self.params.get(s).ok_or(ParamError::UnknownSpecies(s))
    }

    /// Sets a parameter of species `s` by name (see [`SpeciesParams::set`]).
    pub fn set_param(&mut self, s: usize, name: &str, value: f32) -> Result<Option<String>, ParamError> {
        self.params.get_mut(s).ok_or(ParamError::UnknownSpecies(s))?.set(name, value)
    }

    /// Sets how species `s` combines its forces.
    pub fn set_combine(&mut self, s: usize, combine: Combine) -> Result<(), ParamError> {
        self.params.get_mut(s).ok_or(ParamError::UnknownSpecies(s))?.combine = combine;
        Ok(())
    }

    /// Counts of agents per species.
    pub fn census(&self) -> Vec<usize> {
        let mut counts = vec![0; self.params.len()];
        for &s in &self.species {
            counts[usize::from(s)] += 1;
        }
        counts
    }

    /// How species `s` relates to species `t`.
    pub fn relation(&self, s: usize, t: usize) -> Relation {
        if s == t {
            Relation::Mate
        } else if self.params[s].prey == Some(t as u8) {
            Relation::Prey
        } else if self.params[t].prey == Some(s as u8) {
            Relation::Predator
        } else {
            Relation::Other
        }
    }

    /// World settings.
    pub fn world_params(&self) -> WorldParams {
        self.settings
    }

    /// Turns collisions on or off.
    pub fn set_collisions(&mut self, on: bool) {
        self.settings.collisions = on;
    }

    /// Switches path following between straight segments and a spline, re-planning the path.
    pub fn set_spline(&mut self, on: bool) {
        self.settings.spline = on;
        self.replan();
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Everything a step changes, as bytes: the step count and each agent's position,
    /// velocity, heading and memory. [`World::set_motion`] puts it into a world that differs
    /// at most in those (the page steps a copy of its world in a worker thread and takes the
    /// copy's motion back after every step).
    ///
    /// ```
    /// use pathlab_core::steer::Scenario;
    /// let mut a = Scenario::Flock.build(50, 7).unwrap();
    /// let mut b = a.clone();
    /// a.advance(30);
    /// b.set_motion(&a.motion()).unwrap();
    /// a.step();
    /// b.step();
    /// assert_eq!((a.xs(), a.steps()), (b.xs(), b.steps()));
    /// ```
    pub fn motion(&self) -> Vec<u8> {
        let n = self.len();
        let mut out = Vec::with_capacity(MOTION_HEADER + n * MOTION_PER_AGENT);
        out.extend_from_slice(&MOTION_TAG.to_le_bytes());
        out.extend_from_slice(&self.steps.to_le_bytes());
        out.extend_from_slice(&(n as u32).to_le_bytes());
        for column in [&self.xs, &self.ys, &self.vxs, &self.vys, &self.hxs, &self.hys] {
            out.extend(column.iter().flat_map(|v| v.to_le_bytes()));
        }
        out.extend(self.memory.iter().flat_map(|m| m.wander.x.to_le_bytes()));
        out.extend(self.memory.iter().flat_map(|m| m.wander.y.to_le_bytes()));
        out.extend(self.memory.iter().flat_map(|m| m.progress.to_le_bytes()));
        out.extend(self.memory.iter().flat_map(|m| m.goal.to_le_bytes()));
        out
    }

    /// Puts motion from [`World::motion`] into this world, which must hold as many agents.
    /// Checked before anything changes: the length, the agent count, and every number
    /// (finite, positions inside the world).
    pub fn set_motion(&mut self, bytes: &[u8]) -> Result<(), MotionError> {
        let n = self.len();
        let expected = MOTION_HEADER + n * MOTION_PER_AGENT;
        let word = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        if bytes.len() < MOTION_HEADER || word(0) != MOTION_TAG {
            return Err(MotionError::NotMotion);
        }
        let count = word(12) as usize;
        if count != n {
            return Err(MotionError::WrongCount { world: n, motion: count });
        }
        if bytes.len() != expected {
            return Err(MotionError::WrongLength { expected, got: bytes.len() });
        }
        let float = |column: usize, i: usize| f32::from_bits(word(MOTION_HEADER + (column * n + i) * 4));
        let (w, h) = (self.walls.width(), self.walls.height());
        for i in 0..n {
            if (0..8).any(|c| !float(c, i).is_finite()) {
                return Err(MotionError::NotFinite { agent: i });
            }
            let (x, y) = (float(0, i), float(1, i));
            if !(0.0..=w).contains(&x) || !(0.0..=h).contains(&y) {
                return Err(MotionError::Outside { agent: i, x, y });
            }
        }
        let steps = u64::from(word(4)) | (u64::from(word(8)) << 32);
        for (c, column) in [&mut self.xs, &mut self.ys, &mut self.vxs, &mut self.vys, &mut self.hxs, &mut self.hys]
            .into_iter()
            .enumerate()
        {
            for (i, v) in column.iter_mut().enumerate() {
                *v = float(c, i);
            }
        }
        let progress = MOTION_HEADER + 8 * n * 4;
        let goal = progress + n * 4;
        for (i, m) in self.memory.iter_mut().enumerate() {
            m.wander = Vec2::new(float(6, i), float(7, i));
            m.progress = word(progress + i * 4);
            m.goal = u16::from_le_bytes([bytes[goal + i * 2], bytes[goal + i * 2 + 1]]);
        }
        self.steps = steps;
        Ok(())
    }

    // ---- the environment -------------------------------------------------------------------

    /// The walls.
    pub fn walls(&self) -> &Walls {
        &self.walls
    }

    /// Paints `value` (0 for a wall) on cells; agents caught inside new walls move to the
    /// nearest open cell, and the path is planned again. Returns how many cells changed.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> Result<usize, GridError> {
        let changed = self.walls.paint(cells, value)?;
        if changed > 0 {
            for i in 0..self.len() {
                let p = self.pos(i);
                if !self.walls.is_free(p) {
                    if let Some(q) = self.walls.nearest_open(p) {
                        self.xs[i] = q.x;
                        self.ys[i] = q.y;
                    }
                }
            }
            self.replan();
        }
        Ok(changed)
    }

    /// The circles.
    pub fn circles(&self) -> &[Circle] {
        self.obstacles.circles()
    }

    /// Replaces the circles (non-finite or non-positive ones are dropped).
    pub fn set_circles(&mut self, circles: Vec<Circle>) {
        let circles = circles
            .into_iter()
            .filter(|c| c.centre.is_finite() && c.radius.is_finite() && c.radius > 0.0)
            .map(|c| Circle { radius: c.radius.min(super::params::MAX_LENGTH), ..c })
            .collect();
        self.obstacles = Obstacles::new(circles, self.walls.width(), self.walls.height());
    }

    /// The goals.
    pub fn goals(&self) -> &[Vec2] {
        &self.goals
    }

    /// Replaces the goals (non-finite points dropped, the rest clamped into the world); every
    /// agent heads for the first.
    pub fn set_goals(&mut self, goals: Vec<Vec2>) {
        let (w, h) = (self.walls.width(), self.walls.height());
        self.goals = goals
            .into_iter()
            .filter(|g| g.is_finite())
            .map(|g| Vec2::new(g.x.clamp(0.0, w), g.y.clamp(0.0, h)))
            .take(usize::from(u16::MAX))
            .collect();
        for m in &mut self.memory {
            m.goal = 0;
        }
    }

    /// Sets each agent's current goal from its species: species `s` heads for goal `s` (modulo
    /// the number of goals). Scenarios with two-way traffic use it.
    pub fn goals_by_species(&mut self) {
        if self.goals.is_empty() {
            return;
        }
        for (m, &s) in self.memory.iter_mut().zip(&self.species) {
            m.goal = (usize::from(s) % self.goals.len()) as u16;
        }
    }

    /// Sets the path's waypoints (cells), planned with A* into a loop when `closed`.
    pub fn set_waypoints(&mut self, waypoints: Vec<Point>) -> Result<(), PathError> {
        self.waypoints = waypoints;
        self.replan();
        match &self.path_error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// The path's waypoints.
    pub fn waypoints(&self) -> &[Point] {
        &self.waypoints
    }

    fn replan(&mut self) {
        if self.waypoints.len() < 2 {
            self.path = None;
            self.path_error = None;
            return;
        }
        match SteerPath::plan(&self.walls, &self.waypoints, true, self.settings.spline) {
            Ok(path) => {
                self.path = Some(path);
                self.path_error = None;
            }
            Err(e) => {
                self.path = None;
                self.path_error = Some(e);
            }
        }
        for m in &mut self.memory {
            m.progress = u32::MAX;
        }
    }

    /// The path, when planned.
    pub fn path(&self) -> Option<&SteerPath> {
        self.path.as_ref()
    }

    /// Why the path could not be planned, if it could not.
    pub fn path_error(&self) -> Option<&PathError> {
        self.path_error.as_ref()
    }

    /// The leader's index.
    pub fn leader(&self) -> Option<usize> {
        self.leader.map(|l| l as usize).filter(|&l| l < self.len())
    }

    /// Makes agent `i` the leader (or nobody).
    pub fn set_leader(&mut self, i: Option<usize>) {
        self.leader = i.filter(|&i| i < self.len()).map(|i| i as u32);
    }

    // ---- stepping --------------------------------------------------------------------------

    /// Works out the per-species values and rebuilds the spatial grids.
    fn prepare(&mut self) {
        let largest = self.params.iter().map(|p| p.vehicle.radius).fold(0.0, f32::max);
        for (s, p) in self.params.iter().enumerate() {
            let reach = if self.settings.collisions { p.vehicle.radius + largest } else { 0.0 };
            self.derived[s] = Derived::of(p, reach, largest);
        }
        let (w, h) = (self.walls.width(), self.walls.height());
        let n = self.len();
        for s in 0..self.params.len() {
            // Cells as large as the largest radius any species queries this one with, except
            // predators' hunting radii (few predators look far; the many prey look near).
            let mut cell = self.derived[s].mate_radius;
            for t in 0..self.params.len() {
                match self.relation(t, s) {
                    Relation::Mate | Relation::Prey => {}
                    Relation::Other => cell = cell.max(self.derived[t].other_radius),
                    Relation::Predator => cell = cell.max(self.params[t].chase.panic_radius),
                }
            }
            // Cells half as wide as the query radius: a query scans about five runs of five cells,
            // 2.0 times the circle's area (three of three cells as wide as the radius: 2.9
            // times). That pays for the extra runs once flocks have grown dense (measured 5 to
            // 10% faster in Chromium from a few hundred steps on, the same before); smaller
            // cells lose more to the lanes left empty at the runs' ends.
            let cell = (cell / 2.0).max(0.5);
            let grid = &mut self.grids[s];
            if grid.cell() != cell || grid.is_empty() {
                grid.resize(w, h, cell);
            }
            let species = &self.species;
            let s8 = s as u8;
            grid.rebuild(&self.xs, &self.ys, &self.vxs, &self.vys, (0..n).filter(move |&i| species[i] == s8));
        }
    }

    fn env(&self) -> Env<'_> {
        let leader = self.leader().map(|l| Body { pos: self.pos(l), vel: self.vel(l), heading: self.heading(l) });
        Env {
            walls: &self.walls,
            obstacles: &self.obstacles,
            path: self.path.as_ref(),
            goals: &self.goals,
            leader,
            params: self.settings,
            seed: self.seed,
            step: self.steps,
        }
    }

    fn agent(&self, i: usize) -> Agent {
        let v = &self.params[usize::from(self.species[i])].vehicle;
        Agent {
            index: i as u32,
            pos: self.pos(i),
            vel: self.vel(i),
            heading: self.heading(i),
            max_speed: v.max_speed,
            radius: v.radius,
        }
    }

    /// Gathers agent `me`'s neighbourhood from the grids: the flocking sums over every
    /// neighbour, the nearest prey and predator, and in `hood` the neighbours near enough to
    /// touch, or with `all` every neighbour. `own` is the agent's slot in its species' grid;
    /// `reach` is scratch space.
    ///
    /// When more than the species' `max_neighbours` are within reach, only the nearest count
    /// (ties broken by index).
    fn gather<'h>(
        &self,
        me: &Agent,
        own: usize,
        all: bool,
        hood: &'h mut Vec<Neighbour>,
        reach: &mut Reach,
    ) -> Hood<'h> {
        let i = me.index as usize;
        let s = usize::from(self.species[i]);
        let p = &self.params[s];
        let d = &self.derived[s];
        let (mut flock, found, mut listed) = self.flock_grids(me, own, f32::INFINITY, hood);
        let cap = p.max_neighbours.max(1) as usize;
        let mut capped = found > cap;
        if capped && !all {
            // Usually the nearest `cap` are all those within some distance: then the pass is
            // run again out to that distance only.
            if let Some(reach_sq) = self.cap_reach(me, own, cap, reach) {
                let (sums, kept, complete) = self.flock_grids(me, own, reach_sq, hood);
                if complete {
                    debug_assert_eq!(kept, cap);
                    (flock, listed, capped) = (sums, true, false);
                }
            }
        }
        if all || capped || !listed {
            self.list_neighbours(me, hood);
        }
        if capped {
            // The nearest `cap`, ties broken by index so that the choice does not depend on
            // the order found; the sums are taken again over them.
            hood.select_nth_unstable_by(cap - 1, |a, b| a.dist.total_cmp(&b.dist).then(a.index.cmp(&b.index)));
            hood.truncate(cap);
            flock = FlockSums::default();
            for n in hood.iter() {
                flock.add(me, n, &d.rules);
            }
        }
        let mut prey: Option<(f32, Body)> = None;
        let mut predator: Option<(f32, Body)> = None;
        for (t, grid) in self.grids.iter().enumerate() {
            let relation = self.relation(s, t);
            let (wanted, radius, slot) = match relation {
                Relation::Prey => (d.on[Behaviour::Pursue as usize], p.chase.hunt_radius, &mut prey),
                Relation::Predator => (d.on[Behaviour::Evade as usize], p.chase.panic_radius, &mut predator),
                Relation::Mate | Relation::Other => continue,
            };
            if !wanted {
                continue;
            }
            if let Some(e) = grid.nearest_within(me.pos, radius, |_| true) {
                if slot.is_none_or(|(d2, _)| e.dist_sq < d2) {
                    let j = e.id as usize;
                    *slot = Some((e.dist_sq, Body { pos: e.pos, vel: e.vel, heading: self.heading(j) }));
                }
            }
        }
        let closest = hood.iter().map(|n| n.dist).fold(f32::INFINITY, f32::min);
        Hood { near: hood, flock, prey: prey.map(|p| p.1), predator: predator.map(|p| p.1), closest }
    }

    /// The flocking pass of [`World::gather`] over the grids of agent `me`'s own and other
    /// flocks, counting only neighbours whose squared distance is at most `reach_sq` (and
    /// within the gathering radii): the sums, how many neighbours were found, and whether
    /// `hood` (emptied first) lists every one of them near enough to touch.
    fn flock_grids(
        &self,
        me: &Agent,
        own: usize,
        reach_sq: f32,
        hood: &mut Vec<Neighbour>,
    ) -> (FlockSums, usize, bool) {
        let s = usize::from(self.species[me.index as usize]);
        let d = &self.derived[s];
        hood.clear();
        let mut flock = FlockSums::default();
        let mut found = 0;
        let mut listed = true;
        for (t, grid) in self.grids.iter().enumerate() {
            let Some((radius, mate)) = self.flock_radius(s, t).filter(|&(r, _)| r > 0.0) else {
                continue;
            };
            let own = if t == s { own } else { usize::MAX };
            // A box just large enough for the reach (the lanes test the distance exactly).
            let reach = if reach_sq < radius * radius { (reach_sq.sqrt() * (1.0 + 1e-5)).min(radius) } else { radius };
            // Neighbours on the agent's very spot are among the touching ones, for
            // separation's tie-break.
            let lanes = flock_lanes(me, grid, own, reach, reach_sq, &d.rules, mate, d.touch.max(2e-6));
            flock += lanes.sums();
            found += lanes.found();
            let (touching, complete) = lanes.touching();
            listed &= complete;
            let body = self.params[t].vehicle.radius;
            for &slot in touching {
                let (id, pos, vel) = grid.slot(slot);
                let offset = pos - me.pos;
                let n = Neighbour { index: id, offset, vel, dist: offset.length(), radius: body, mate };
                flock.add_tie(me, &n, &d.rules);
                if n.dist < d.touch {
                    hood.push(n);
                }
            }
        }
        (flock, found, listed)
    }

    /// The squared distance within which exactly the `cap` nearest neighbours of agent `me`
    /// lie (over the gathering radii), found by selection over every neighbour's squared
    /// distance; `None` when the `cap`-th and the next are equally far (as distances), where
    /// only the tie-break by index can choose.
    fn cap_reach(&self, me: &Agent, own: usize, cap: usize, reach: &mut Reach) -> Option<f32> {
        let s = usize::from(self.species[me.index as usize]);
        reach.d2s.clear();
        for (t, grid) in self.grids.iter().enumerate() {
            let Some((radius, _)) = self.flock_radius(s, t).filter(|&(r, _)| r > 0.0) else {
                continue;
            };
            let n = grid.slots_within(me.pos, radius, &mut reach.slots);
            let own = if t == s { own as u32 } else { u32::MAX };
            // The agent itself left out.
            reach.d2s.extend(reach.slots[..n].iter().filter(|&&(slot, _)| slot != own).map(|&(_, d2)| d2));
        }
        if reach.d2s.len() <= cap {
            return None;
        }
        let (_, &mut kth, rest) = reach.d2s.select_nth_unstable_by(cap - 1, f32::total_cmp);
        let next = rest.iter().copied().fold(f32::INFINITY, f32::min);
        (next.sqrt() > kth.sqrt()).then_some(kth)
    }

    /// How far an agent of species `s` gathers neighbours of species `t`, and whether they
    /// are flockmates; `None` for prey and predators, which are not gathered as neighbours.
    fn flock_radius(&self, s: usize, t: usize) -> Option<(f32, bool)> {
        let d = &self.derived[s];
        match self.relation(s, t) {
            Relation::Mate => Some((d.mate_radius, true)),
            Relation::Other => Some((d.other_radius, false)),
            Relation::Prey | Relation::Predator => None,
        }
    }

    /// Lists in `hood` (emptied first) every neighbour of agent `me` within the gathering
    /// radii, from the grids, in cell order.
    fn list_neighbours(&self, me: &Agent, hood: &mut Vec<Neighbour>) {
        let i = me.index as usize;
        let s = usize::from(self.species[i]);
        hood.clear();
        for (t, grid) in self.grids.iter().enumerate() {
            let Some((radius, mate)) = self.flock_radius(s, t) else {
                continue;
            };
            let body = self.params[t].vehicle.radius;
            grid.for_each_within(me.pos, radius, |e| {
                if e.id != me.index {
                    let (offset, dist) = (e.pos - me.pos, e.dist_sq.sqrt());
                    hood.push(Neighbour { index: e.id, offset, vel: e.vel, dist, radius: body, mate });
                }
                true
            });
        }
    }

    /// Advances the world by one fixed time step.
    pub fn step(&mut self) {
        self.prepare();
        let n = self.len();
        let mut hood = std::mem::take(&mut self.hood);
        let mut reach = std::mem::take(&mut self.reach);
        let mut scratch = std::mem::take(&mut self.scratch);
        // Every agent is in exactly one species grid, so phase one writes every entry.
        scratch.resize(
            n,
            Update { vel: Vec2::ZERO, push: Vec2::ZERO, memory: Memory { wander: Vec2::ZERO, progress: 0, goal: 0 } },
        );
        {
            let env = self.env();
            // Phase one: read-only. Agents are visited species by species in the grid's cell
            // order, so that consecutive agents query neighbouring memory; the order does not
            // change the result.
            for (s, grid) in self.grids.iter().enumerate() {
                let v = &self.params[s].vehicle;
                let all = self.derived[s].on[Behaviour::UnalignedAvoidance as usize];
                for slot in 0..grid.len() {
                    // The agent's own position and velocity from the grid's copy, which this
                    // loop reads in order.
                    let (id, pos, vel) = grid.slot(slot as u32);
                    let i = id as usize;
                    let me = Agent {
                        index: id,
                        pos,
                        vel,
                        heading: self.heading(i),
                        max_speed: v.max_speed,
                        radius: v.radius,
                    };
                    let view = self.gather(&me, slot, all, &mut hood, &mut reach);
                    scratch[i] =
                        update_agent(&me, self.memory[i], &self.params[s], &self.derived[s], &view, &env, &mut NoProbe);
                }
            }
        }
        // Phase two: apply.
        self.apply(&scratch);
        self.hood = hood;
        self.reach = reach;
        self.scratch = scratch;
        self.steps += 1;
    }

    /// Phase two: moves every agent by its update, through the walls' slide, and pushes bodies
    /// off walls; the heading follows the velocity.
    fn apply(&mut self, scratch: &[Update]) {
        let dt = self.settings.dt;
        for (i, u) in scratch.iter().enumerate() {
            let radius = self.params[usize::from(self.species[i])].vehicle.radius;
            let mut pos = self.pos(i);
            let mut vel = u.vel;
            let disp = vel * dt + u.push;
            // Far from walls (the usual case in open space) the move cannot meet one.
            if disp.length() + radius < self.walls.clearance(pos) {
                let p = pos + disp;
                self.xs[i] = p.x;
                self.ys[i] = p.y;
                self.vxs[i] = vel.x;
                self.vys[i] = vel.y;
                if vel.length_sq() > 1e-8 {
                    let h = vel.normalized();
                    self.hxs[i] = h.x;
                    self.hys[i] = h.y;
                }
                self.memory[i] = u.memory;
                continue;
            }
            if !self.walls.is_free(pos) {
                pos = self.walls.nearest_open(pos).unwrap_or(pos);
            }
            let (mut p, stop_x, stop_y) = self.walls.slide(pos, disp);
            if stop_x {
                vel.x = 0.0;
            }
            if stop_y {
                vel.y = 0.0;
            }
            let out = self.walls.push_out(p, radius);
            if out != Vec2::ZERO {
                p = self.walls.slide(p, out).0;
                let normal = out.normalized();
                let into = vel.dot(normal);
                if into < 0.0 {
                    vel -= normal * into;
                }
            }
            self.xs[i] = p.x;
            self.ys[i] = p.y;
            self.vxs[i] = vel.x;
            self.vys[i] = vel.y;
            if vel.length_sq() > 1e-8 {
                let h = vel.normalized();
                self.hxs[i] = h.x;
                self.hys[i] = h.y;
            }
            self.memory[i] = u.memory;
        }
    }

    /// Runs `n` steps.
    pub fn advance(&mut self, n: usize) {
        for _ in 0..n {
            self.step();
        }
    }

    /// Everything about agent `i`'s next update: its neighbourhood, each behaviour's force,
    /// the combined force and the context map. Costs one extra grid rebuild; nothing is kept.
    pub fn inspect(&mut self, i: usize) -> Option<Inspection> {
        if i >= self.len() {
            return None;
        }
        self.prepare();
        let mut hood = Vec::new();
        let me = self.agent(i);
        let s = usize::from(self.species[i]);
        let own = self.grids[s].ids().iter().position(|&id| id as usize == i).unwrap_or(usize::MAX);
        let view = self.gather(&me, own, true, &mut hood, &mut Reach::default());
        let p = &self.params[s];
        let mut recorder = Recorder::default();
        let env = self.env();
        let update = update_agent(&me, self.memory[i], p, &self.derived[s], &view, &env, &mut recorder);
        Some(Inspection {
            index: i as u32,
            species: self.species[i],
            pos: me.pos,
            vel: me.vel,
            heading: me.heading,
            radius: me.radius,
            separation: p.separation,
            alignment: p.alignment,
            cohesion: p.cohesion,
            combine: p.combine,
            forces: recorder.forces,
            steering: recorder.steering,
            context: recorder.context,
            neighbours: view.near.iter().map(|n| n.index).collect(),
            target: recorder.target,
            next_vel: update.vel,
        })
    }

    /// The agent nearest to `p` within `reach`, if any.
    pub fn agent_near(&self, p: Vec2, reach: f32) -> Option<usize> {
        let mut best: Option<(f32, usize)> = None;
        for i in 0..self.len() {
            let d = self.pos(i).distance(p);
            if d <= reach && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// Every neighbour of agent `i` within `radius` found by a scan of all agents of the given
    /// species: the brute-force O(n) query the spatial grid replaces (for tests and the
    /// benchmark's comparison).
    pub fn brute_force_neighbours(&self, i: usize, species: u8, radius: f32) -> Vec<u32> {
        let me = self.pos(i);
        let r2 = radius * radius;
        (0..self.len())
            .filter(|&j| j != i && self.species[j] == species && (self.pos(j) - me).length_sq() <= r2)
            .map(|j| j as u32)
            .collect()
    }

    /// One step in which every agent's neighbours come from a scan of all agents instead of
    /// the spatial grid: O(n^2), for the benchmark's comparison only. Gives the same result as
    /// [`World::step`] (the order of neighbours may differ, so sums may differ in the last
    /// bits).
    pub fn step_brute_force(&mut self) {
        self.prepare();
        let n = self.len();
        let mut scratch = Vec::with_capacity(n);
        let mut hood = Vec::new();
        {
            let env = self.env();
            for i in 0..n {
                hood.clear();
                let s = usize::from(self.species[i]);
                let d = &self.derived[s];
                let me = self.agent(i);
                let cap = self.params[s].max_neighbours.max(1) as usize;
                for j in 0..n {
                    if j == i {
                        continue;
                    }
                    let t = usize::from(self.species[j]);
                    let Some((radius, mate)) = self.flock_radius(s, t) else {
                        continue;
                    };
                    let offset = self.pos(j) - me.pos;
                    if offset.length_sq() <= radius * radius {
                        hood.push(Neighbour {
                            index: j as u32,
                            vel: self.vel(j),
                            offset,
                            dist: offset.length(),
                            radius: self.params[t].vehicle.radius,
                            mate,
                        });
                    }
                }
                let closest = hood.iter().map(|n| n.dist).fold(f32::INFINITY, f32::min);
                if hood.len() > cap {
                    hood.sort_by(|a, b| a.dist.total_cmp(&b.dist).then(a.index.cmp(&b.index)));
                    hood.truncate(cap);
                }
                let mut flock = FlockSums::default();
                for n in &hood {
                    flock.add(&me, n, &d.rules);
                }
                let view = Hood { near: &hood, flock, prey: None, predator: None, closest };
                scratch.push(update_agent(&me, self.memory[i], &self.params[s], d, &view, &env, &mut NoProbe));
            }
        }
        self.apply(&scratch);
        self.steps += 1;
    }
}
