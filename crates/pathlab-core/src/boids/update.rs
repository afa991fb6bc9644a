//! Phase one of the boids' step for one agent ([`update_agent`]): every behaviour's
//! force, their combination and the vehicle model up to the new velocity, plus the collision
//! response. A pure function of the agent, its memory, its species' parameters, its
//! neighbourhood (gathered by [`Boids`](super::Boids)'s neighbour queries) and the world
//! around it; nothing is written but the returned [`Update`], which phase two applies.
//!
//! A [`Probe`] sees the details as they are worked out: [`NoProbe`] in the normal step (it
//! costs nothing), a [`RecordingProbe`] when the page inspects one agent.

use super::behaviours::{
    arrive, collide_agents, collide_circles, containment, evade, flee, leader_following, obstacle_avoidance,
    path_following, pursue, seek, unaligned_avoidance, wall_following, wander, wander_turn, Body, Boid, BoidNeighbour,
    FlockRules, FlockSums, Obstacles,
};
use super::combine::{context_force, context_map, priority, weighted_sum, ContextMap, Forces};
use super::params::{Behaviour, BoidsParams, Combine, Rule, SpeciesParams, BEHAVIOURS};
use super::path::SteerPath;
use super::rng::hash3;
use super::{Vec2, Walls};

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
    /// Settings shared by every boid.
    pub params: BoidsParams,
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
    /// on (and [`Boids::inspect`](super::Boids::inspect) always); otherwise only those near enough to touch, all the
    /// collision response looks at.
    pub near: &'a [BoidNeighbour],
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
    pub(super) fn of(p: &SpeciesParams, collide_reach: f32, largest_radius: f32) -> Self {
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
/// [`NoProbe`] is inlined away, so the normal step pays nothing for them; [`Boids::inspect`](super::Boids::inspect)
/// uses a [`RecordingProbe`].
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

/// A probe that keeps everything, for showing one agent. (Named apart from the searches'
/// [`crate::search::Recorder`], which records step events.)
#[derive(Clone, Copy, Debug, Default)]
pub struct RecordingProbe {
    /// The weighted forces.
    pub forces: Forces,
    /// The context map.
    pub context: Option<ContextMap>,
    /// The combined force.
    pub steering: Vec2,
    /// The point steered at.
    pub target: Option<Vec2>,
}

impl Probe for RecordingProbe {
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
    me: &Boid,
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
