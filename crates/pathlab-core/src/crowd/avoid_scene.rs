//! The avoidance scenes: a [`Crowd`] of discs with velocity-obstacle avoidance (VO, RVO,
//! HRVO or ORCA, chosen live) in five layouts, as [`Scene`]s for the page.
//!
//! - `circle`, `corridor`, `crossing`: the open scenarios of [`Scenario`].
//! - `blocks`: agents on a ring swap to the opposite point around four square blocks in the
//!   middle.
//! - `bottleneck`: a crowd in the left room goes through a door three cells wide into the
//!   right room.
//!
//! Walls are grid cells (terrain 0) whose outlines the crowd avoids as polygon obstacles, as
//! RVO2 does (see [`Crowd::set_walls`]), looking `obstacle_horizon` seconds ahead. Where the goal cannot be seen, an agent's preferred velocity heads
//! for a waypoint: the farthest cell centre, at most [`LOOKAHEAD`] cells along the flow field
//! toward its goal, that it can reach in a straight line without touching a wall.
//!
//! The overlay of the selected agent is drawn in world units around the agent, a velocity `v`
//! as the point `position + v * 1 s`: its cones (VO, RVO, HRVO) or half-planes (ORCA), the
//! top-speed circle, the preferred and the chosen velocity.
//!
//! ```
//! use pathlab_core::crowd::avoid_scene::AvoidScene;
//! use pathlab_core::crowd::scene::{Scene, SceneConfig};
//! let mut scene = AvoidScene::new("bottleneck", &SceneConfig { agents: Some(6), seed: 3 }).unwrap();
//! for _ in 0..50 { scene.step(); }
//! assert_eq!(scene.len(), 6);
//! assert!(scene.metrics().iter().any(|m| m.name == "wall_hits" && m.value == 0.0));
//! ```

use crate::boids::Vec2;
use crate::grid::{Costs, Diagonal, Grid, Point};

use super::avoid::{AvoidParams, Crowd, Method, Scenario};
use super::flow::FlowField;
use super::scene::{Action, Frame, Ink, Metric, Param, Scene, SceneConfig, SceneError};

/// The most cells along the flow field an agent looks ahead for its waypoint.
pub const LOOKAHEAD: usize = 6;

/// The method choices of the `method` parameter, in value order.
pub const METHODS: [&str; 4] = ["vo", "rvo", "hrvo", "orca"];

/// How long, in velocity units per unit of top speed, the drawn cones are (they are cut at
/// twice the top speed).
const CONE_LENGTH: f32 = 2.0;

/// The layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Open(Scenario),
    Blocks,
    Bottleneck,
}

/// A crowd avoiding one another (and walls) with a chosen velocity-obstacle method.
pub struct AvoidScene {
    name: &'static str,
    crowd: Crowd,
    grid: Grid,
    cell: f32,
    steps: u64,
    /// One flow field per distinct goal cell (wall layouts only).
    fields: Vec<FlowField>,
    /// Per agent: its field, or `usize::MAX` (open layouts).
    field_of: Vec<usize>,
}

fn invalid(e: impl std::fmt::Display) -> SceneError {
    SceneError::Invalid(e.to_string())
}

fn method_index(m: Method) -> usize {
    match m {
        Method::Vo => 0,
        Method::Rvo => 1,
        Method::Hrvo => 2,
        Method::Orca => 3,
    }
}

fn method_of(index: usize) -> Method {
    match index {
        0 => Method::Vo,
        1 => Method::Rvo,
        2 => Method::Hrvo,
        _ => Method::Orca,
    }
}

impl AvoidScene {
    /// Sets up scene `name` (one of `circle`, `corridor`, `crossing`, `blocks`,
    /// `bottleneck`) with ORCA, a 2 s horizon and penalty weight 5 (for the sampled methods).
    /// The number of agents is clamped to 2..=300 (open layouts), 2..=60 (`blocks`) or
    /// 2..=120 (`bottleneck`).
    ///
    /// # Errors
    /// [`SceneError::UnknownScene`] for another name; [`SceneError::Invalid`] when a start is
    /// in a wall or a goal cannot be reached.
    pub fn new(name: &str, config: &SceneConfig) -> Result<Self, SceneError> {
        let (name, layout) = match name {
            "circle" => ("circle", Layout::Open(Scenario::Circle)),
            "corridor" => ("corridor", Layout::Open(Scenario::Corridor)),
            "crossing" => ("crossing", Layout::Open(Scenario::Crossing)),
            "blocks" => ("blocks", Layout::Blocks),
            "bottleneck" => ("bottleneck", Layout::Bottleneck),
            _ => return Err(SceneError::UnknownScene(name.to_string())),
        };
        let params = AvoidParams { penalty: 5.0, ..AvoidParams::default() };
        let seed = config.seed;
        match layout {
            Layout::Open(scenario) => {
                let n = config.agents.unwrap_or(16).clamp(2, 300);
                let crowd = Crowd::scenario(scenario, n, params, seed).map_err(invalid)?;
                let mut extent = 1.0_f32;
                for i in 0..crowd.len() {
                    let (p, g) = (crowd.position(i), crowd.goal(i));
                    extent = extent.max(p.x).max(p.y).max(g.x).max(g.y);
                }
                let side = (extent + 2.0 * params.radius).ceil().max(4.0) as usize;
                let grid = Grid::new(side, side).map_err(invalid)?;
                Ok(Self { name, crowd, grid, cell: 1.0, steps: 0, fields: Vec::new(), field_of: vec![usize::MAX; n] })
            }
            Layout::Blocks => {
                let n = config.agents.unwrap_or(24).clamp(2, 60);
                let (w, h) = (40usize, 40usize);
                let mut cells = bordered(w, h);
                for (bx, by) in [(12, 12), (24, 12), (12, 24), (24, 24)] {
                    for y in by..by + 4 {
                        for x in bx..bx + 4 {
                            cells[y * w + x] = 0;
                        }
                    }
                }
                let grid = Grid::from_cells(w, h, cells).map_err(invalid)?;
                let centre = Vec2::new(20.0, 20.0);
                let mut rng = crate::boids::Pcg32::new(seed);
                let mut pairs = Vec::with_capacity(n);
                for i in 0..n {
                    let a = std::f32::consts::TAU * i as f32 / n as f32;
                    let at = Vec2::from_angle(a) * 16.0;
                    let wobble = Vec2::new(rng.range(-0.05, 0.05), rng.range(-0.05, 0.05));
                    pairs.push((centre + at + wobble, centre - at));
                }
                Self::walled(name, grid, params, seed, &pairs)
            }
            Layout::Bottleneck => {
                let n = config.agents.unwrap_or(32).clamp(2, 120);
                let (w, h) = (44usize, 26usize);
                let mut cells = bordered(w, h);
                for y in 0..h {
                    if !(11..14).contains(&y) {
                        cells[y * w + 22] = 0;
                    }
                }
                let grid = Grid::from_cells(w, h, cells).map_err(invalid)?;
                // Columns of 16 agents 1.5 apart in the left room, from the wall back; the
                // front column heads for the far end of the right room, the next one 1.5
                // nearer, and so on, each agent keeping its row.
                let mut rng = crate::boids::Pcg32::new(seed);
                let mut pairs = Vec::with_capacity(n);
                for i in 0..n {
                    let (col, row) = ((i / 16) as f32, (i % 16) as f32);
                    let start = Vec2::new(19.5 - col * 1.5, 1.75 + row * 1.5);
                    let wobble = Vec2::new(rng.range(-0.05, 0.05), rng.range(-0.05, 0.05));
                    let goal = Vec2::new(41.5 - col * 1.5, start.y);
                    pairs.push((start + wobble, goal));
                }
                Self::walled(name, grid, params, seed, &pairs)
            }
        }
    }

    fn walled(
        name: &'static str,
        grid: Grid,
        params: AvoidParams,
        seed: u64,
        pairs: &[(Vec2, Vec2)],
    ) -> Result<Self, SceneError> {
        let mut crowd = Crowd::new(params, grid.width() as f32, grid.height() as f32).map_err(invalid)?;
        crowd.set_seed(seed);
        crowd.set_walls(&grid, 1.0).map_err(invalid)?;
        let mut fields: Vec<FlowField> = Vec::new();
        let mut goal_cells: Vec<Point> = Vec::new();
        let mut field_of = Vec::with_capacity(pairs.len());
        for (k, &(start, goal)) in pairs.iter().enumerate() {
            if crowd.wall_depth(start, params.radius) > 0.0 {
                return Err(SceneError::Invalid(format!("agent {k} would start in a wall at {start:?}")));
            }
            let cell = cell_at(&grid, goal)
                .filter(|&p| grid.is_passable(p))
                .ok_or_else(|| SceneError::Invalid(format!("agent {k}'s goal {goal:?} is in a wall")))?;
            let index = if let Some(i) = goal_cells.iter().position(|&g| g == cell) {
                i
            } else {
                let field =
                    FlowField::new(grid.clone(), &[cell], Diagonal::NoCornerCutting, Costs::Real).map_err(invalid)?;
                goal_cells.push(cell);
                fields.push(field);
                fields.len() - 1
            };
            let from = cell_at(&grid, start).map(|p| grid.index(p));
            if from.is_none_or(|c| !fields[index].distances()[c].is_finite()) {
                return Err(SceneError::Invalid(format!("agent {k} cannot reach its goal {goal:?}")));
            }
            crowd.add(start, goal);
            field_of.push(index);
        }
        let mut scene = Self { name, crowd, grid, cell: 1.0, steps: 0, fields, field_of };
        scene.route();
        Ok(scene)
    }

    /// The crowd.
    pub fn crowd(&self) -> &Crowd {
        &self.crowd
    }

    /// True when a disc of radius `r` centred anywhere on the segment `a`-`b` stays clear of
    /// every wall cell (sampled every quarter cell).
    fn clear(&self, a: Vec2, b: Vec2, r: f32) -> bool {
        let samples = ((a.distance(b) / (0.25 * self.cell)).ceil() as usize).max(1);
        (0..=samples).all(|k| {
            let p = a + (b - a) * (k as f32 / samples as f32);
            !self.touches_wall(p, r)
        })
    }

    fn touches_wall(&self, p: Vec2, r: f32) -> bool {
        let c = self.cell;
        let (w, h) = (self.grid.width() as i64, self.grid.height() as i64);
        let lo = |v: f32| ((v - r) / c).floor() as i64;
        let hi = |v: f32| ((v + r) / c).floor() as i64;
        for cy in lo(p.y).max(0)..=hi(p.y).min(h - 1) {
            for cx in lo(p.x).max(0)..=hi(p.x).min(w - 1) {
                let cell = self.grid.cells()[(cy * w + cx) as usize];
                if cell != 0 {
                    continue;
                }
                let (lx, ly) = (cx as f32 * c, cy as f32 * c);
                let q = Vec2::new(p.x.clamp(lx, lx + c), p.y.clamp(ly, ly + c));
                if q.distance(p) < r {
                    return true;
                }
            }
        }
        false
    }

    /// Sets every agent's waypoint from its flow field (wall layouts).
    fn route(&mut self) {
        if self.fields.is_empty() {
            return;
        }
        let r = self.crowd.params().radius * 1.1;
        for i in 0..self.crowd.len() {
            let pos = self.crowd.position(i);
            let goal = self.crowd.goal(i);
            let waypoint =
                if self.crowd.has_arrived(i) || self.clear(pos, goal, r) { None } else { self.waypoint(i, pos, r) };
            self.crowd.set_waypoint(i, waypoint);
        }
    }

    fn waypoint(&self, i: usize, pos: Vec2, r: f32) -> Option<Vec2> {
        let field = self.fields.get(*self.field_of.get(i)?)?;
        let mut cell = self.grid.index(cell_at(&self.grid, pos)?);
        let mut best = None;
        for k in 0..LOOKAHEAD {
            let Some(next) = field.next(cell) else { break };
            cell = next;
            let p = self.grid.point_at(cell);
            let centre = Vec2::new((p.x as f32 + 0.5) * self.cell, (p.y as f32 + 0.5) * self.cell);
            if k == 0 || self.clear(pos, centre, r) {
                best = Some(centre);
            } else {
                break;
            }
        }
        best
    }

    fn set(&mut self, params: AvoidParams) -> Result<(), SceneError> {
        self.crowd.set_params(params).map_err(invalid)
    }
}

/// The value to use for parameter `name` among `params`: `value` clamped to its range, with
/// a sentence when it had to be clamped.
///
/// # Errors
/// [`SceneError::UnknownParam`] for a name not in `params`; [`SceneError::Invalid`] for NaN
/// or an infinity.
pub(crate) fn checked_value(params: &[Param], name: &str, value: f64) -> Result<(f64, Option<String>), SceneError> {
    let spec = params.iter().find(|p| p.name == name).ok_or_else(|| SceneError::UnknownParam(name.to_string()))?;
    if !value.is_finite() {
        return Err(SceneError::Invalid(format!("parameter \"{name}\" must be a finite number, not {value}")));
    }
    let clamped = value.clamp(spec.min, spec.max);
    let message = (clamped != value)
        .then(|| format!("{} clamped from {value} to {clamped} (range {} to {})", spec.label, spec.min, spec.max));
    Ok((clamped, message))
}

/// A `w` x `h` grid of ground with a wall all round.
fn bordered(w: usize, h: usize) -> Vec<u8> {
    let mut cells = vec![1u8; w * h];
    for y in 0..h {
        for x in 0..w {
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                cells[y * w + x] = 0;
            }
        }
    }
    cells
}

/// The cell under a world point (cells of side 1), if inside the grid.
fn cell_at(grid: &Grid, p: Vec2) -> Option<Point> {
    if !p.is_finite() || p.x < 0.0 || p.y < 0.0 {
        return None;
    }
    grid.point(p.x.floor() as i64, p.y.floor() as i64).ok()
}

/// Adds the drawing of one agent's velocity obstacles, in world units around `pos`.
pub(crate) fn draw_avoidance(out: &mut Frame, pos: Vec2, max_speed: f32, pref: Vec2, debug: &super::avoid::AvoidDebug) {
    let length = CONE_LENGTH * max_speed.max(0.1);
    for cone in &debug.cones {
        let apex = pos + cone.apex;
        out.polygon(&[apex, apex + cone.left * length, apex + cone.right * length], Ink::Cone);
    }
    for plane in &debug.planes {
        let q = pos + plane.point;
        out.line(q - plane.direction * length, q + plane.direction * length, Ink::HalfPlane);
        // The allowed side is left of the direction: the normal (-d.y, d.x).
        let normal = Vec2::new(-plane.direction.y, plane.direction.x);
        out.line(q, q + normal * (0.15 * length), Ink::HalfPlane);
    }
    out.circle(pos, max_speed, Ink::Reach);
    out.line(pos, pos + pref, Ink::Preferred);
    out.line(pos, pos + debug.chosen, Ink::Chosen);
}

impl Scene for AvoidScene {
    fn name(&self) -> &'static str {
        self.name
    }
    fn grid(&self) -> &Grid {
        &self.grid
    }
    fn cell_size(&self) -> f32 {
        self.cell
    }
    fn dt(&self) -> f32 {
        self.crowd.params().dt
    }
    fn step(&mut self) {
        self.route();
        self.crowd.step();
        self.steps += 1;
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn len(&self) -> usize {
        self.crowd.len()
    }
    fn kinds(&self) -> Vec<&'static str> {
        vec!["walker", "arrived"]
    }
    fn frame(&self, selected: Option<usize>, out: &mut Frame) {
        out.clear();
        let r = self.crowd.params().radius;
        for i in 0..self.crowd.len() {
            let (p, v) = (self.crowd.position(i), self.crowd.velocity(i));
            out.agent(p, v, r, u8::from(self.crowd.has_arrived(i)));
            if v.length() > 1e-4 {
                out.line(p, p + v, Ink::Velocity);
            }
        }
        if let Some(i) = selected.filter(|&i| i < self.crowd.len()) {
            let (agent, _, debug) = self.crowd.inspect_view(i);
            draw_avoidance(out, agent.pos, agent.max_speed, agent.pref, &debug);
            out.circle(self.crowd.goal(i), 0.5 * r, Ink::Goal);
            if let Some(w) = self.crowd.waypoint(i) {
                out.line(agent.pos, w, Ink::Route);
            }
        }
    }
    fn metrics(&self) -> Vec<Metric> {
        let m = self.crowd.metrics();
        let finite = |v: f32| if v.is_finite() { f64::from(v) } else { f64::NAN };
        let some = |v: f32| if m.arrived > 0 { f64::from(v) } else { f64::NAN };
        vec![
            Metric { name: "collisions", label: "Collisions (pair-steps)", value: f64::from(m.collisions), unit: "" },
            Metric { name: "worst_overlap", label: "Worst overlap", value: f64::from(m.worst_overlap), unit: "radii" },
            Metric { name: "min_gap", label: "Smallest gap", value: finite(m.min_gap), unit: "" },
            Metric { name: "wall_hits", label: "Into walls (agent-steps)", value: f64::from(m.wall_hits), unit: "" },
            Metric { name: "arrived", label: "Arrived", value: m.arrived as f64, unit: "" },
            Metric { name: "mean_time", label: "Mean time to goal", value: some(m.mean_time), unit: "s" },
            Metric { name: "max_time", label: "Longest time to goal", value: some(m.max_time), unit: "s" },
            Metric { name: "mean_path", label: "Mean path length", value: f64::from(m.mean_path), unit: "" },
            Metric {
                name: "path_ratio",
                label: "Path / straight line (arrived)",
                value: some(m.mean_path_ratio),
                unit: "",
            },
        ]
    }
    fn params(&self) -> Vec<Param> {
        let p = self.crowd.params();
        let slider =
            |name, label, min, max, step, value: f64| Param { name, label, min, max, step, value, choices: Vec::new() };
        vec![
            Param {
                name: "method",
                label: "Method",
                min: 0.0,
                max: 3.0,
                step: 1.0,
                value: method_index(p.method) as f64,
                choices: METHODS.to_vec(),
            },
            slider("neighbour_dist", "Neighbour distance", 0.5, 20.0, 0.5, f64::from(p.neighbour_dist)),
            slider("max_neighbours", "Max neighbours", 1.0, 50.0, 1.0, p.max_neighbours as f64),
            slider("time_horizon", "Time horizon (s)", 0.1, 20.0, 0.1, f64::from(p.time_horizon)),
            slider("obstacle_horizon", "Wall time horizon (s)", 0.1, 20.0, 0.1, f64::from(p.obstacle_horizon)),
            slider("radius", "Radius", 0.1, 1.0, 0.05, f64::from(p.radius)),
            slider("max_speed", "Top speed", 0.1, 5.0, 0.1, f64::from(p.max_speed)),
        ]
    }
    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError> {
        let (clamped, message) = checked_value(&self.params(), name, value)?;
        let mut p = *self.crowd.params();
        match name {
            "method" => p.method = method_of(clamped.round() as usize),
            "neighbour_dist" => p.neighbour_dist = clamped as f32,
            "max_neighbours" => p.max_neighbours = clamped.round() as usize,
            "time_horizon" => p.time_horizon = clamped as f32,
            "obstacle_horizon" => p.obstacle_horizon = clamped as f32,
            "radius" => p.radius = clamped as f32,
            _ => p.max_speed = clamped as f32,
        }
        self.set(p)?;
        Ok(message)
    }
    fn actions(&self) -> Vec<Action> {
        Vec::new()
    }
    fn act(&mut self, action: &str, _at: Vec2) -> Result<String, SceneError> {
        Err(SceneError::UnknownAction(action.to_string()))
    }
}
