//! The crowd simulator: [`Crowd`], many discs walking to their goals with velocity-obstacle
//! avoidance. Each step files the agents in a uniform spatial grid, computes every agent's
//! new velocity from the frozen positions and velocities with
//! [`new_velocity_near_walls`] (the edges of the wall polygons near it as static
//! obstacles, as RVO2 models them), then moves all agents and measures overlaps
//! ([`Metrics`]). [`Scenario`] builds the classic tests: a circle, a corridor and a crossing,
//! seeded. [`CrowdRules`] switches off what the crowd adds to plain ORCA, for runs that must
//! match RVO2.

use std::f32::consts::TAU;

use super::obstacles::{ObstacleError, Obstacles};
use super::{check, new_velocity_near_walls, AgentState, AvoidDebug, AvoidError, AvoidParams, Neighbour};
use crate::boids::rng::hash3;
use crate::boids::{Pcg32, SpatialGrid, Vec2};

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
/// use pathlab_core::boids::Vec2;
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
    /// Per agent: the preferred velocity set from outside (NaN: none, the goal rule decides).
    preferred: Vec<Vec2>,
    /// The wall polygons (from the wall cells, and any added).
    obstacles: Obstacles,
    /// Scratch: the obstacle edges near the agent deciding.
    near: Vec<(f32, u32)>,
    /// Scratch: their nearest points, for the guard.
    points: Vec<Neighbour>,
    rules: CrowdRules,
}

/// What a [`Crowd`] adds to plain ORCA, each on by default; RVO2 has none of them
/// ([`CrowdRules::PLAIN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CrowdRules {
    /// Turn every preferred velocity by a tiny seeded angle (up to [`PERTURBATION`]).
    pub perturb: bool,
    /// Let a stuck agent decide again with its preferred velocity turned by [`SIDESTEP`].
    pub sidestep: bool,
    /// Remove from a chosen velocity what would carry the disc into a wall within the step.
    pub wall_guard: bool,
}

impl CrowdRules {
    /// None of the additions: the agents move as RVO2's do.
    pub const PLAIN: Self = Self { perturb: false, sidestep: false, wall_guard: false };
}

impl Default for CrowdRules {
    /// All three on.
    fn default() -> Self {
        Self { perturb: true, sidestep: true, wall_guard: true }
    }
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
            preferred: Vec::new(),
            obstacles: Obstacles::new(),
            near: Vec::new(),
            points: Vec::new(),
            rules: CrowdRules::default(),
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
        self.preferred.push(Vec2::new(f32::NAN, f32::NAN));
        self.xs.len() - 1
    }

    /// Makes the wall cells (terrain 0) of `grid` static obstacles, the grid's cell (cx, cy)
    /// covering `[cx * cell, (cx + 1) * cell) x [cy * cell, (cy + 1) * cell)`: the outlines of
    /// the wall regions become obstacle polygons ([`Obstacles::from_walls`]), replacing any
    /// obstacles set before. Each step an agent gets RVO2's obstacle half-planes from the
    /// edges near it (see [`new_velocity_near_walls`]); with [`CrowdRules::wall_guard`] a last
    /// guard then removes any part of the chosen velocity that would carry the agent's disc
    /// into an edge within the step. Cells outside the grid are open.
    pub fn set_walls(&mut self, grid: &crate::grid::Grid, cell: f32) -> Result<(), AvoidError> {
        check("cell", cell, true)?;
        self.walls = grid.cells().iter().map(|&c| c == 0).collect();
        self.wall_width = grid.width();
        self.wall_height = grid.height();
        self.wall_cell = cell;
        self.obstacles = Obstacles::from_walls(grid, cell);
        self.obstacles.index(self.obstacle_reach());
        Ok(())
    }

    /// Adds an obstacle polygon, as RVO2's `addObstacle`: `points` in order with the
    /// obstacle on the left of each edge (counterclockwise with y up); two points make a
    /// segment. Returns the index of its first vertex in [`Crowd::obstacles`].
    ///
    /// # Errors
    /// As [`Obstacles::add_polygon`].
    pub fn add_obstacle(&mut self, points: &[Vec2]) -> Result<usize, ObstacleError> {
        let first = self.obstacles.add_polygon(points)?;
        self.obstacles.index(self.obstacle_reach());
        Ok(first)
    }

    /// The obstacle polygons.
    pub fn obstacles(&self) -> &Obstacles {
        &self.obstacles
    }

    /// Chooses what the crowd adds to plain ORCA (all on by default).
    pub fn set_rules(&mut self, rules: CrowdRules) {
        self.rules = rules;
    }

    /// What the crowd adds to plain ORCA.
    pub fn rules(&self) -> CrowdRules {
        self.rules
    }

    /// Sets (or with `None` clears) the preferred velocity of agent `i`, used instead of the
    /// goal rule of [`Crowd::preferred`] until cleared, like RVO2's `setAgentPrefVelocity`.
    /// Non-finite velocities clear it.
    pub fn set_preferred(&mut self, i: usize, v: Option<Vec2>) {
        if let Some(p) = self.preferred.get_mut(i) {
            *p = v.filter(|v| v.is_finite()).unwrap_or(Vec2::new(f32::NAN, f32::NAN));
        }
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

    /// How deep a disc of radius `r` at `pos` reaches into the obstacles (0: clear; see
    /// [`Obstacles::depth`]).
    pub fn wall_depth(&self, pos: Vec2, r: f32) -> f32 {
        self.obstacles.depth(pos, r)
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
    /// at `pos` toward a wall point (the nearest point of an edge) it would come nearer than
    /// `r` to within the step; stands still when that is not enough.
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
        self.obstacles.index(self.obstacle_reach());
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

    /// The preferred velocity of agent `i`: the one set by [`Crowd::set_preferred`] if any;
    /// otherwise toward its waypoint or goal at top speed, slowing within two radii of the
    /// goal (proportionally to the distance), and never overshooting in one step.
    pub fn preferred(&self, i: usize) -> Vec2 {
        if let Some(&v) = self.preferred.get(i).filter(|v| v.is_finite()) {
            return v;
        }
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
        let mut near = Vec::new();
        self.obstacles.near(agent.pos, self.obstacle_reach(), &mut near);
        let mut debug = AvoidDebug::default();
        let _ =
            new_velocity_near_walls(&self.params, &agent, &self.neighbours, &self.obstacles, &near, Some(&mut debug));
        (agent, self.neighbours.clone(), debug)
    }

    /// As [`Crowd::inspect`] without changing anything (for drawing from a shared borrow).
    pub fn inspect_view(&self, i: usize) -> (AgentState, Vec<Neighbour>, AvoidDebug) {
        let mut copy = self.clone();
        copy.inspect(i)
    }

    /// How far an agent looks for obstacle edges (RVO2's range: the obstacle horizon times
    /// the top speed, plus the radius with its margin).
    fn obstacle_reach(&self) -> f32 {
        let p = &self.params;
        p.obstacle_horizon * p.max_speed + (p.radius + p.margin)
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
        let pref = if self.rules.perturb {
            self.preferred(i).rotated(PERTURBATION * hash3(self.seed, u64::from(self.metrics.steps), i as u32))
        } else {
            self.preferred(i)
        };
        AgentState {
            id: i as u32,
            pos: self.position(i),
            vel: self.velocity(i),
            pref,
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
        let mut near = std::mem::take(&mut self.near);
        let mut points = std::mem::take(&mut self.points);
        for i in 0..n {
            self.gather(i);
            let mut agent = self.agent(i);
            self.obstacles.near(agent.pos, reach, &mut near);
            let (p, walls) = (&self.params, &self.obstacles);
            let mut v = new_velocity_near_walls(p, &agent, &self.neighbours, walls, &near, None);
            let want = agent.pref.length();
            if self.rules.sidestep && want > STUCK_SPEED * p.max_speed && v.length() < STUCK_SPEED * want {
                // Stuck: try keeping to the right, as pedestrians do.
                agent.pref = agent.pref.rotated(-SIDESTEP);
                v = new_velocity_near_walls(p, &agent, &self.neighbours, walls, &near, None);
            }
            if self.rules.wall_guard && !near.is_empty() {
                points.clear();
                walls.nearest_points(agent.pos, &near, &mut points);
                v = self.wall_guard(agent.pos, v, p.radius, &points);
            }
            self.next_vx[i] = v.x;
            self.next_vy[i] = v.y;
        }
        self.near = near;
        self.points = points;
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
        if !self.obstacles.is_empty() {
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
