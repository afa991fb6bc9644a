//! The boids: agents in structure-of-arrays form, species, walls, circles, goals and a
//! path, advanced by a fixed-step, two-phase update.
//!
//! One [`Boids::step`]:
//! 1. rebuild one spatial grid per species (a counting sort);
//! 2. phase one, read-only: for every agent gather its neighbours from the grids
//!    ([`neighbours`]), then run the pure per-agent update ([`update_agent`]): each
//!    behaviour's force, combined ([`Combine`]), and the vehicle model up to the new velocity
//!    (force -> truncate to max force -> acceleration = force / mass -> velocity +=
//!    acceleration * dt -> truncate to max speed), and the sphere-sphere collision response;
//!    write the result to a scratch buffer;
//! 3. phase two: for every agent take the new velocity, move by velocity * dt plus the
//!    collision push through [`Walls::slide`] (so no wall is crossed), push the body off any
//!    wall it overlaps, and take the heading from the velocity.
//!
//! No agent reads another's new state, so the order of agents does not matter, and the same
//! seed gives the same run.
//!
//! This file holds the boids themselves (their agents, species, settings and environment) and
//! the step. Its parts live beside it:
//! - [`neighbours`]: the neighbour queries over the spatial grids, and the brute-force scan
//!   they replace;
//! - [`motion`]: the step's output as bytes ([`Boids::motion`]), for the page's worker;
//! - [`super::update`]: phase one for one agent, a pure function of what it is given.
//!
//! ```
//! use pathlab_core::boids::{Boids, Scenario};
//! let mut boids: Boids = Scenario::Flock.build(200, 7).unwrap();
//! boids.step();
//! assert_eq!(boids.len(), 200);
//! assert!(boids.xs().iter().all(|x| x.is_finite()));
//! ```

pub mod motion;
pub mod neighbours;

use self::neighbours::Reach;
use super::behaviours::{Body, Boid, BoidNeighbour, Circle, Obstacles};
use super::combine::{ContextMap, Forces};
use super::params::{Behaviour, BoidsParams, Combine, ParamError, Rule, SpeciesParams, MAX_AGENTS, MAX_SPECIES};
use super::path::{PathError, SteerPath};
use super::rng::Pcg32;
use super::spatial::SpatialGrid;
use super::update::{update_agent, Derived, Env, Memory, NoProbe, RecordingProbe, Update};
use super::{Vec2, Walls};
use crate::grid::{GridError, Point};

pub use self::motion::MotionError;

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

/// Everything [`Boids::inspect`] tells about one agent.
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

/// The boids: every agent, its species and memory, and the walls, circles, goals and path
/// they move among.
#[derive(Clone, Debug)]
pub struct Boids {
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
    settings: BoidsParams,
    seed: u64,
    rng: Pcg32,
    steps: u64,
    hood: Vec<BoidNeighbour>,
    reach: Reach,
}

impl Boids {
    /// An empty world over `walls` with these species (1 to [`MAX_SPECIES`], each valid).
    pub fn new(walls: Walls, species: Vec<SpeciesParams>, world: BoidsParams, seed: u64) -> Result<Self, ParamError> {
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

    /// Settings shared by every boid.
    pub fn boids_params(&self) -> BoidsParams {
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

    fn agent(&self, i: usize) -> Boid {
        let v = &self.params[usize::from(self.species[i])].vehicle;
        Boid {
            index: i as u32,
            pos: self.pos(i),
            vel: self.vel(i),
            heading: self.heading(i),
            max_speed: v.max_speed,
            radius: v.radius,
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
                    let me = Boid {
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
                self.store(i, pos + disp, vel, u.memory);
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
            self.store(i, p, vel, u.memory);
        }
    }

    /// Writes agent `i`'s new position, velocity and memory; its heading follows the velocity
    /// unless it (nearly) stopped, when the last heading stays.
    #[inline]
    fn store(&mut self, i: usize, p: Vec2, vel: Vec2, memory: Memory) {
        self.xs[i] = p.x;
        self.ys[i] = p.y;
        self.vxs[i] = vel.x;
        self.vys[i] = vel.y;
        if vel.length_sq() > 1e-8 {
            let h = vel.normalized();
            self.hxs[i] = h.x;
            self.hys[i] = h.y;
        }
        self.memory[i] = memory;
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
        let mut recorder = RecordingProbe::default();
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
}
