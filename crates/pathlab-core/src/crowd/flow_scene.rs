//! The course's "flowing river" of embedded map data as a crowd [`Scene`]: a city of rooms
//! with a few bunkers, a flow field giving every cell its distance to the nearest standing
//! bunker and the first move towards it, and a crowd of agents that reads one direction byte
//! from the cell it stands in, instead of searching, to find its way.
//!
//! What the scene shows, in the order a lesson would take it:
//!
//! 1. **The build.** The field is made by one Dijkstra run outward from every bunker at once
//!    (no heuristic: every cell needs an answer). While it runs, each [`Scene::step`] settles
//!    one layer of the wavefront; the frame shows the settled distances as the heat layer, the
//!    wavefront cells as [`Ink::Wavefront`] marks and the directions of the settled cells. The
//!    agents wait until the field is complete. Parameter "animate build" off makes the build
//!    instant; action "rebuild" starts it again.
//! 2. **The river.** Agents steer towards the centre of the cell their cell's direction points
//!    at, slide along walls (their centres never enter a wall cell) and push lightly apart.
//!    An agent that reaches a standing bunker counts as arrived and is sent back out to a
//!    random open cell, so the river keeps flowing and the arrival metrics keep measuring.
//! 3. **A bunker falls** (action "destroy-bunker", nearest standing bunker to the click): the
//!    cells that led to it are settled again and their agents turn to the next nearest bunker,
//!    without any agent searching. When the last bunker falls, every agent stops and the page
//!    is told so; "add-bunker" gives them somewhere to go again.
//! 4. **Destructible terrain.** "break-wall" opens a wall cell, updated by parameter "update":
//!    "exact" spreads the improvement as a Dijkstra wave (the field equals a full recompute);
//!    "cheap" is the course's update of the broken cell and its neighbours only, which can
//!    leave cells further away on routes that are no longer the cheapest. Those cells are
//!    found by comparing with a full recompute and marked [`Ink::Suboptimal`] (metric
//!    "suboptimal"); "recompute" rebuilds the field and clears them. "add-wall" closes a cell
//!    (always exact). The cells whose distance or direction the last edit changed are marked
//!    [`Ink::Changed`].
//!
//! # Metrics
//!
//! "arrived" (agents that reached a standing bunker), "mean_arrival_time" (seconds from
//! setting out, or from the end of the build they waited for, to arrival; NaN before the
//! first), "last_edit_cells" (cells the last edit's update settled or set: the work it did),
//! "changed_cells" (cells whose distance or direction it changed), "suboptimal" (cells dearer
//! than a full recompute after cheap updates), "rerouted" (agents whose bunker the last edit
//! changed), "build_steps" (steps the last build took; 0 when it was not animated),
//! "field_cells" (cells with a route to a bunker; during the build, cells settled so far) and
//! "standing_bunkers".
//!
//! # Frame
//!
//! - `layer`: the distance (in cells of ground) to the nearest standing bunker. **Negative
//!   values (-1) mean "no distance"**: a wall, a cell from which no bunker can be reached, or
//!   (during the build) a cell not settled yet; the page should leave those cells undrawn.
//! - `directions`: the field's first moves (during the build, of settled cells only).
//! - `cell_marks`: wavefront during the build; afterwards changed and sub-optimal cells (a
//!   sub-optimal mark wins over a changed one).
//! - circles: standing bunkers as [`Ink::Goal`], destroyed ones as [`Ink::Stop`].
//! - for the selected agent: its route to its bunker as [`Ink::Route`] segments (from
//!   [`FlowField::route`]), its velocity as [`Ink::Velocity`] and a [`Ink::Link`] to its bunker.
//!
//! ```
//! use pathlab_core::crowd::flow_scene::BunkersScene;
//! use pathlab_core::crowd::scene::{Frame, Scene, SceneConfig};
//! use pathlab_core::boids::Vec2;
//! let mut scene = BunkersScene::new(&SceneConfig { agents: Some(50), seed: 3 }).unwrap();
//! while scene.is_building() {
//!     scene.step(); // one layer of the wavefront per step
//! }
//! for _ in 0..100 {
//!     scene.step();
//! }
//! let bunker = scene.bunkers()[0];
//! let at = Vec2::new(bunker.x as f32 + 0.5, bunker.y as f32 + 0.5);
//! let said = scene.act("destroy-bunker", at).unwrap();
//! assert!(said.contains("destroyed"));
//! assert_eq!(scene.field().standing_goals(), 2);
//! let mut frame = Frame::default();
//! scene.frame(Some(0), &mut frame);
//! assert_eq!(frame.x.len(), 50);
//! assert_eq!(frame.layer.len(), scene.grid().len());
//! ```

use super::flow::{FlowBuild, FlowField, NO_DIRECTION, NO_GOAL};
use super::scene::{on_walls_every, Action, Frame, Ink, Metric, Param, Scene, SceneConfig, SceneError};
use crate::boids::{Pcg32, Vec2, Walls};
use crate::generate;
use crate::grid::{Costs, Diagonal, Grid, Point, GROUND, WALL};

/// The default map size in cells.
const MAP: (usize, usize) = (48, 32);
/// World units per cell.
const CELL: f32 = 1.0;
/// Seconds per step.
const DT: f32 = 0.05;
/// Agent radius, in cells.
const RADIUS: f32 = 0.25;
/// The default and the largest number of agents.
const AGENTS: (usize, usize) = (300, 2000);
/// The most bunkers the scene keeps (standing and destroyed).
const MAX_BUNKERS: usize = 32;
/// The number of bunkers placed at set-up.
const BUNKERS: usize = 3;
/// The most neighbours an agent looks at for separation per step.
const MAX_NEIGHBOURS: usize = 32;
/// An agent's target when it has none.
const NO_TARGET: usize = usize::MAX;

/// How a broken wall updates the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Update {
    Exact,
    Cheap,
}

/// One bunker: where it is and whether it still stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bunker {
    at: Point,
    standing: bool,
}

/// The flow-field bunkers scene (see the module documentation).
#[derive(Clone, Debug)]
pub struct BunkersScene {
    walls: Walls,
    rule: Diagonal,
    costs: Costs,
    bunkers: Vec<Bunker>,
    /// The complete field, and for each of its goals the bunker it is.
    field: FlowField,
    field_bunker: Vec<usize>,
    /// A build in progress, with its goals' bunkers.
    building: Option<(FlowBuild, Vec<usize>)>,
    animate: bool,
    update: Update,
    speed: f32,
    separation: f32,
    rng: Pcg32,
    pos: Vec<Vec2>,
    vel: Vec<Vec2>,
    /// The bunker each agent is heading for, or [`NO_TARGET`].
    target: Vec<usize>,
    /// The step at which each agent set out.
    born: Vec<u64>,
    steps: u64,
    arrived: u64,
    arrive_time_sum: f64,
    build_steps: u64,
    /// What the last edit did: cells the update settled or set, and cells whose distance or
    /// direction changed.
    last_edit: Option<usize>,
    changed: Vec<usize>,
    /// Cells left dearer than a full recompute by cheap updates (sorted), and whether any
    /// cheap update happened since the last full recompute.
    suboptimal: Vec<usize>,
    cheap_dirty: bool,
    /// Agents whose bunker changed with the last edit.
    rerouted: usize,
}

impl BunkersScene {
    /// The default scene: a 48 x 32 map of rooms from [`generate::rooms`] seeded by
    /// `config.seed`, three bunkers spread apart, and `config.agents` agents (300 by default,
    /// at most 2000) on random open cells. The field starts being built.
    pub fn new(config: &SceneConfig) -> Result<Self, SceneError> {
        let map = generate::rooms(MAP.0, MAP.1, config.seed).map_err(|e| SceneError::Invalid(e.to_string()))?;
        let bunkers = spread_bunkers(&map.grid, BUNKERS, config.seed)?;
        Self::with_map(map.grid, &bunkers, config)
    }

    /// A scene on a hand-made map with the given bunkers (the diagonal rule is
    /// no-corner-cutting, costs are real: 1 per straight move, the square root of 2 per
    /// diagonal, times the terrain value entered).
    ///
    /// Errors: [`SceneError::Invalid`] for no bunkers, too many, a bunker on a wall or outside
    /// the grid, two bunkers on one cell, or a map with no open cell for the agents.
    pub fn with_map(grid: Grid, bunkers: &[Point], config: &SceneConfig) -> Result<Self, SceneError> {
        if bunkers.len() > MAX_BUNKERS {
            return Err(SceneError::Invalid(format!(
                "{} bunkers given; the scene takes at most {MAX_BUNKERS}",
                bunkers.len()
            )));
        }
        let (rule, costs) = (Diagonal::NoCornerCutting, Costs::Real);
        let field =
            FlowField::new(grid.clone(), bunkers, rule, costs).map_err(|e| SceneError::Invalid(e.to_string()))?;
        let open: Vec<usize> =
            (0..grid.len()).filter(|&i| grid.cells()[i] != WALL && !bunkers.contains(&grid.point_at(i))).collect();
        if open.is_empty() {
            return Err(SceneError::Invalid(
                "the map has no open cell besides the bunkers for agents to stand on".into(),
            ));
        }
        let n = config.agents.unwrap_or(AGENTS.0).clamp(1, AGENTS.1);
        let mut rng = Pcg32::new(config.seed ^ 0xb0b5_f10e);
        let walls = Walls::new(grid, CELL);
        let mut pos = Vec::with_capacity(n);
        for _ in 0..n {
            let c = open[rng.below(open.len() as u32) as usize];
            pos.push(jitter(&walls, walls.grid().point_at(c), &mut rng));
        }
        let mut scene = Self {
            walls,
            rule,
            costs,
            bunkers: bunkers.iter().map(|&at| Bunker { at, standing: true }).collect(),
            field_bunker: (0..bunkers.len()).collect(),
            field,
            building: None,
            animate: true,
            update: Update::Exact,
            speed: 3.0,
            separation: 1.0,
            rng,
            vel: vec![Vec2::ZERO; n],
            target: vec![NO_TARGET; n],
            born: vec![0; n],
            pos,
            steps: 0,
            arrived: 0,
            arrive_time_sum: 0.0,
            build_steps: 0,
            last_edit: None,
            changed: Vec::new(),
            suboptimal: Vec::new(),
            cheap_dirty: false,
            rerouted: 0,
        };
        scene.start_build()?;
        Ok(scene)
    }

    /// True while the field is being built (the agents wait).
    pub fn is_building(&self) -> bool {
        self.building.is_some()
    }

    /// The field: the partial one while building, else the complete one. Its goals are the
    /// bunkers that stood when it was built (see [`bunkers`](Self::bunkers) for all of them).
    pub fn field(&self) -> &FlowField {
        match &self.building {
            Some((build, _)) => build.field(),
            None => &self.field,
        }
    }

    /// Every bunker's cell, destroyed ones included, in the order they were placed.
    pub fn bunkers(&self) -> Vec<Point> {
        self.bunkers.iter().map(|b| b.at).collect()
    }

    /// Whether bunker `index` still stands (false for an index out of range).
    pub fn is_standing(&self, index: usize) -> bool {
        self.bunkers.get(index).is_some_and(|b| b.standing)
    }

    /// Agent `i`'s centre (`None` out of range).
    pub fn position(&self, i: usize) -> Option<Vec2> {
        self.pos.get(i).copied()
    }

    /// The bunker (index into [`bunkers`](Self::bunkers)) agent `i` is heading for: the
    /// nearest standing bunker of its cell by the field; `None` while building, when no
    /// bunker can be reached, or out of range.
    pub fn target(&self, i: usize) -> Option<usize> {
        self.target.get(i).copied().filter(|&t| t != NO_TARGET)
    }

    /// The cells the cheap updates left dearer than a full recompute (sorted).
    pub fn suboptimal_cells(&self) -> &[usize] {
        &self.suboptimal
    }

    /// The cells whose distance or direction the last edit changed (sorted).
    pub fn changed_cells(&self) -> &[usize] {
        &self.changed
    }

    /// The cell index of a world point, if it is on the grid.
    fn cell_index(&self, p: Vec2) -> Option<usize> {
        let (cx, cy) = self.walls.cell_at(p);
        let grid = self.walls.grid();
        grid.contains(cx, cy).then(|| cy as usize * grid.width() + cx as usize)
    }

    /// Starts building the field from the standing bunkers (finished at once when the build
    /// is not animated).
    fn start_build(&mut self) -> Result<(), SceneError> {
        let standing: Vec<usize> = (0..self.bunkers.len()).filter(|&b| self.bunkers[b].standing).collect();
        if standing.is_empty() {
            return Err(SceneError::Refused(
                "every bunker is destroyed, so there is nothing to build a field towards; add a bunker first".into(),
            ));
        }
        let goals: Vec<Point> = standing.iter().map(|&b| self.bunkers[b].at).collect();
        let build = FlowBuild::new(self.walls.grid().clone(), &goals, self.rule, self.costs)
            .map_err(|e| SceneError::Refused(e.to_string()))?;
        self.building = Some((build, standing));
        self.build_steps = 0;
        self.changed.clear();
        self.suboptimal.clear();
        self.cheap_dirty = false;
        self.target.fill(NO_TARGET);
        if !self.animate {
            self.finish_build();
        }
        Ok(())
    }

    /// Ends a build in progress (settling what is left), making its field the scene's.
    fn finish_build(&mut self) {
        if let Some((build, standing)) = self.building.take() {
            self.field = build.finish();
            self.field_bunker = standing;
            self.retarget();
            if self.build_steps > 0 {
                // The agents waited for an animated build: their clocks start now.
                self.born.fill(self.steps);
            }
        }
    }

    /// Sets every agent's target from its cell; returns how many changed.
    fn retarget(&mut self) -> usize {
        let mut changed = 0;
        for i in 0..self.pos.len() {
            let t = self.target_at(self.pos[i]);
            if t != self.target[i] {
                changed += 1;
                self.target[i] = t;
            }
        }
        changed
    }

    fn target_at(&self, p: Vec2) -> usize {
        if self.building.is_some() {
            return NO_TARGET;
        }
        match self.cell_index(p).map(|c| self.field.nearest_goal()[c]) {
            Some(g) if g != NO_GOAL => self.field_bunker.get(usize::from(g)).copied().unwrap_or(NO_TARGET),
            _ => NO_TARGET,
        }
    }

    /// The bunker standing on cell `c`, if any.
    fn standing_bunker_at(&self, c: usize) -> Option<usize> {
        let p = self.walls.grid().point_at(c);
        self.bunkers.iter().position(|b| b.standing && b.at == p)
    }

    /// A random open cell reachable from a standing bunker and holding none, or `None`.
    fn respawn_cell(&mut self) -> Option<usize> {
        let n = self.walls.grid().len() as u32;
        let ok = |s: &Self, c: usize| s.field.distances()[c].is_finite() && s.field.distances()[c] > 0.0;
        for _ in 0..64 {
            let c = self.rng.below(n) as usize;
            if ok(self, c) {
                return Some(c);
            }
        }
        let start = self.rng.below(n) as usize;
        (0..n as usize).map(|k| (start + k) % n as usize).find(|&c| ok(self, c))
    }

    /// Moves the agents one step along the field.
    fn move_agents(&mut self) {
        let n = self.pos.len();
        // Agents bucketed by cell, for the separation look-up.
        let cells: Vec<usize> = self.pos.iter().map(|&p| self.cell_index(p).unwrap_or(0)).collect();
        let buckets = CellBuckets::new(&cells, self.walls.grid().width(), self.walls.grid().height(), |_| true);
        let reach = 2.0 * RADIUS + 0.1 * CELL;
        let gain = (8.0 * DT).min(1.0);
        let mut new_vel = Vec::with_capacity(n);
        for (i, &c) in cells.iter().enumerate() {
            let p = self.pos[i];
            let desired = along_field(&self.field, &self.walls, c, p, self.speed);
            let mut push = Vec2::ZERO;
            let mut looked = 0;
            if self.separation > 0.0 && desired.length() > 0.0 {
                for j in buckets.around(c) {
                    if j == i {
                        continue;
                    }
                    // A bounded look-up however tightly the crowd packs.
                    looked += 1;
                    if looked > MAX_NEIGHBOURS {
                        break;
                    }
                    let off = p - self.pos[j];
                    let d = off.length();
                    if d >= reach {
                        continue;
                    }
                    // Coincident agents part along a direction fixed by their numbers.
                    let away = if d > 1e-5 { off / d } else { Vec2::from_angle((i * 7 + j * 13) as f32) };
                    push += away * ((reach - d) / reach);
                }
            }
            let wanted = desired + push.truncate(1.5) * (self.speed * self.separation);
            let v = self.vel[i] + (wanted - self.vel[i]) * gain;
            new_vel.push(if desired.length() > 0.0 { v.truncate(self.speed * 1.2) } else { Vec2::ZERO });
        }
        for (i, v) in new_vel.into_iter().enumerate() {
            let (p, _, _) = self.walls.slide(self.pos[i], v * DT);
            let out = self.walls.push_out(p, RADIUS);
            let (p, _, _) = self.walls.slide(p, out);
            self.pos[i] = p;
            self.vel[i] = v;
            let arrived = self.cell_index(p).is_some_and(|c| self.standing_bunker_at(c).is_some());
            if arrived {
                self.arrived += 1;
                self.arrive_time_sum += (self.steps - self.born[i]) as f64 * f64::from(DT);
                if let Some(c) = self.respawn_cell() {
                    let cell = self.walls.grid().point_at(c);
                    self.pos[i] = jitter(&self.walls, cell, &mut self.rng);
                }
                self.vel[i] = Vec2::ZERO;
                self.born[i] = self.steps;
            }
            self.target[i] = self.target_at(self.pos[i]);
        }
    }

    /// Records what an edit changed, by the distances and directions before it.
    fn record_edit(&mut self, updated: usize, before: &(Vec<f64>, Vec<u8>)) {
        let (dist, dir) = (self.field.distances(), self.field.directions());
        self.changed =
            (0..dist.len()).filter(|&i| dist[i].to_bits() != before.0[i].to_bits() || dir[i] != before.1[i]).collect();
        self.last_edit = Some(updated);
        if self.cheap_dirty {
            let mut exact = self.field.clone();
            exact.rebuild();
            self.suboptimal = self.field.differences(&exact);
        } else {
            self.suboptimal.clear();
        }
        self.rerouted = self.retarget();
    }

    fn snapshot(&self) -> (Vec<f64>, Vec<u8>) {
        (self.field.distances().to_vec(), self.field.directions().to_vec())
    }

    /// The cell under a world point.
    fn cell_at(&self, at: Vec2) -> Result<Point, SceneError> {
        if !at.is_finite() {
            return Err(SceneError::Invalid(format!("the point ({}, {}) is not a position", at.x, at.y)));
        }
        let (cx, cy) = self.walls.cell_at(at);
        self.walls.grid().point(cx, cy).map_err(|_| {
            let (w, h) = (self.walls.grid().width(), self.walls.grid().height());
            SceneError::Refused(format!("({}, {}) is off the {w}x{h} map", at.x, at.y))
        })
    }

    fn destroy_bunker(&mut self, at: Vec2) -> Result<String, SceneError> {
        let Some(b) = (0..self.bunkers.len()).filter(|&b| self.bunkers[b].standing).min_by(|&a, &b| {
            let da = self.walls.centre(self.bunkers[a].at).distance(at);
            let db = self.walls.centre(self.bunkers[b].at).distance(at);
            da.total_cmp(&db)
        }) else {
            return Err(SceneError::Refused("every bunker is already destroyed; add one with \"add-bunker\"".into()));
        };
        let Some(g) = self.field_bunker.iter().position(|&k| k == b) else {
            return Err(SceneError::Refused(format!("bunker {b} is not in the field; recompute first")));
        };
        let before = self.snapshot();
        let reset = self.field.destroy_goal(g).map_err(|e| SceneError::Refused(e.to_string()))?;
        self.bunkers[b].standing = false;
        self.record_edit(reset, &before);
        let at = self.bunkers[b].at;
        if self.field.standing_goals() == 0 {
            return Ok(format!(
                "bunker {b} at {at} destroyed; it was the last one: there is nowhere left to go, so every agent stops \
                 (add a bunker to give them somewhere to go)"
            ));
        }
        Ok(format!(
            "bunker {b} at {at} destroyed: {reset} cells settled again, {} agents turned to the next nearest bunker",
            self.rerouted
        ))
    }

    fn break_wall(&mut self, p: Point) -> Result<String, SceneError> {
        if self.walls.grid().get(p) != Some(WALL) {
            return Err(SceneError::Refused(format!("{p} is not a wall, so there is no wall to break")));
        }
        let before = self.snapshot();
        let updated = match self.update {
            Update::Exact => self.field.break_wall(p).map_err(|e| SceneError::Refused(e.to_string()))?,
            Update::Cheap => {
                let changed = self.field.break_wall_cheap(p).map_err(|e| SceneError::Refused(e.to_string()))?;
                self.cheap_dirty = true;
                changed.len()
            }
        };
        self.walls.paint([p], GROUND).map_err(|e| SceneError::Invalid(e.to_string()))?;
        self.record_edit(updated, &before);
        Ok(match self.update {
            Update::Exact => format!("wall at {p} broken: the exact update settled {updated} cells again"),
            Update::Cheap => format!(
                "wall at {p} broken: the cheap update set {updated} cells; {} cells are now dearer than a full \
                 recompute would make them",
                self.suboptimal.len()
            ),
        })
    }

    fn add_wall(&mut self, p: Point) -> Result<String, SceneError> {
        if self.walls.grid().get(p) == Some(WALL) {
            return Err(SceneError::Refused(format!("{p} is a wall already")));
        }
        if let Some(b) = self.standing_bunker_at(self.walls.grid().index(p)) {
            return Err(SceneError::Refused(format!("{p} holds bunker {b}; destroy it before walling its cell")));
        }
        if self.walls.grid().cells().iter().filter(|&&c| c != WALL).count() <= 1 {
            return Err(SceneError::Refused("the last open cell cannot be walled".into()));
        }
        let before = self.snapshot();
        let reset = self.field.add_wall(p).map_err(|e| SceneError::Refused(e.to_string()))?;
        self.walls.paint([p], WALL).map_err(|e| SceneError::Invalid(e.to_string()))?;
        // Agents standing in the new wall step out to the nearest open cell.
        let mut moved = 0;
        for i in 0..self.pos.len() {
            if !self.walls.is_free(self.pos[i]) {
                if let Some(q) = self.walls.nearest_open(self.pos[i]) {
                    self.pos[i] = q;
                    self.vel[i] = Vec2::ZERO;
                    moved += 1;
                }
            }
        }
        self.record_edit(reset, &before);
        Ok(format!("wall added at {p}: {reset} cells settled again; {moved} agents stepped out of it"))
    }

    fn add_bunker(&mut self, p: Point) -> Result<String, SceneError> {
        if self.walls.grid().get(p) == Some(WALL) {
            return Err(SceneError::Refused(format!("{p} is a wall; a bunker needs open ground")));
        }
        let existing = self.bunkers.iter().position(|b| b.at == p);
        match existing {
            Some(b) if self.bunkers[b].standing => {
                return Err(SceneError::Refused(format!("bunker {b} already stands at {p}")));
            }
            Some(b) => self.bunkers[b].standing = true,
            None if self.bunkers.len() >= MAX_BUNKERS => {
                return Err(SceneError::Refused(format!("the scene holds at most {MAX_BUNKERS} bunkers")));
            }
            None => self.bunkers.push(Bunker { at: p, standing: true }),
        }
        let b = existing.unwrap_or(self.bunkers.len() - 1);
        // The field has no incremental "add a goal": a new bunker is a full recompute.
        let before = self.snapshot();
        let standing: Vec<usize> = (0..self.bunkers.len()).filter(|&k| self.bunkers[k].standing).collect();
        let goals: Vec<Point> = standing.iter().map(|&k| self.bunkers[k].at).collect();
        self.field = FlowField::new(self.walls.grid().clone(), &goals, self.rule, self.costs)
            .map_err(|e| SceneError::Refused(e.to_string()))?;
        self.field_bunker = standing;
        self.cheap_dirty = false;
        let settled = self.field.distances().iter().filter(|d| d.is_finite()).count();
        self.record_edit(settled, &before);
        Ok(format!(
            "bunker {b} built at {p}: the field was recomputed ({settled} cells); {} agents changed bunker",
            self.rerouted
        ))
    }

    fn recompute(&mut self) -> String {
        let before = self.snapshot();
        self.field.rebuild();
        self.cheap_dirty = false;
        let settled = self.field.distances().iter().filter(|d| d.is_finite()).count();
        self.record_edit(settled, &before);
        if self.field.standing_goals() == 0 {
            return "recomputed: every bunker is destroyed, so no cell has anywhere to go".into();
        }
        format!("field recomputed from scratch: {settled} cells settled; no cell is left sub-optimal")
    }
}

/// The velocity an agent at `p` in cell `c` wants from `field`: towards the centre of the
/// next cell, at full `speed`; zero where the field has no direction.
pub(super) fn along_field(field: &FlowField, walls: &Walls, c: usize, p: Vec2, speed: f32) -> Vec2 {
    match field.next(c) {
        Some(next) => {
            let to = walls.centre(walls.grid().point_at(next)) - p;
            if to.length() > 1e-6 {
                to.normalized() * speed
            } else {
                Vec2::ZERO
            }
        }
        None => Vec2::ZERO,
    }
}

/// Agents bucketed by cell (a counting sort), to look up the agents near one in the 3 x 3
/// cells around its own.
pub(super) struct CellBuckets {
    /// The agents of cell `c` are `order[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    order: Vec<u32>,
    width: usize,
    height: usize,
}

impl CellBuckets {
    /// Each agent `i` that `keep(i)` holds, in cell `cells[i]` of a `width` x `height` grid.
    pub(super) fn new(cells: &[usize], width: usize, height: usize, keep: impl Fn(usize) -> bool) -> Self {
        let len = width * height;
        let mut start = vec![0u32; len + 1];
        for (i, &c) in cells.iter().enumerate() {
            if keep(i) {
                start[c + 1] += 1;
            }
        }
        for c in 0..len {
            start[c + 1] += start[c];
        }
        let mut fill = start.clone();
        let mut order = vec![0u32; start[len] as usize];
        for (i, &c) in cells.iter().enumerate() {
            if keep(i) {
                order[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
        Self { start, order, width, height }
    }

    /// The agents in the cells around cell `c` (3 x 3, clipped to the grid), row by row.
    pub(super) fn around(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        let (cx, cy) = (c % self.width, c / self.width);
        (cy.saturating_sub(1)..=(cy + 1).min(self.height - 1)).flat_map(move |y| {
            (cx.saturating_sub(1)..=(cx + 1).min(self.width - 1)).flat_map(move |x| {
                let b = y * self.width + x;
                self.order[self.start[b] as usize..self.start[b + 1] as usize].iter().map(|&j| j as usize)
            })
        })
    }
}

/// A random point in cell `p`, kept a radius away from its sides.
fn jitter(walls: &Walls, p: Point, rng: &mut Pcg32) -> Vec2 {
    let span = 0.5 * CELL - RADIUS;
    walls.centre(p) + Vec2::new(rng.range(-span, span), rng.range(-span, span))
}

/// `count` bunkers on open cells, spread apart: the first at random, each next one at random
/// among the cells at least 60 % as far (by walking) from the bunkers so far as the farthest.
pub(super) fn spread_bunkers(grid: &Grid, count: usize, seed: u64) -> Result<Vec<Point>, SceneError> {
    let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.cells()[i] != WALL).collect();
    if open.len() < count + 1 {
        return Err(SceneError::Invalid(format!("the map has {} open cells; {count} bunkers need more", open.len())));
    }
    let mut rng = Pcg32::new(seed ^ 0xb0_4e_e5);
    let mut bunkers = vec![grid.point_at(open[rng.below(open.len() as u32) as usize])];
    while bunkers.len() < count {
        let field = FlowField::new(grid.clone(), &bunkers, Diagonal::NoCornerCutting, Costs::Real)
            .map_err(|e| SceneError::Invalid(e.to_string()))?;
        let far = field.distances().iter().copied().filter(|d| d.is_finite()).fold(0.0, f64::max);
        let picks: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&i| {
                field.distances()[i].is_finite() && field.distances()[i] >= 0.6 * far && field.distances()[i] > 0.0
            })
            .collect();
        if picks.is_empty() {
            break;
        }
        bunkers.push(grid.point_at(picks[rng.below(picks.len() as u32) as usize]));
    }
    Ok(bunkers)
}

/// Reads a select's value as a choice index, clamping with a message.
fn choice(name: &str, value: f64, count: usize) -> (usize, Option<String>) {
    let max = (count - 1) as f64;
    let v = value.round();
    if v < 0.0 || v > max || v != value {
        let c = v.clamp(0.0, max);
        return (c as usize, Some(format!("{name}: {value} is not a choice; using {c}")));
    }
    (v as usize, None)
}

impl Scene for BunkersScene {
    fn name(&self) -> &'static str {
        "bunkers"
    }

    on_walls_every!(DT);

    fn step(&mut self) {
        self.steps += 1;
        let done = match &mut self.building {
            Some((build, _)) => {
                build.step_layer();
                Some(build.is_done())
            }
            None => None,
        };
        match done {
            Some(done) => {
                self.build_steps += 1;
                if done {
                    self.finish_build();
                }
            }
            None => self.move_agents(),
        }
    }

    fn steps(&self) -> u64 {
        self.steps
    }

    fn len(&self) -> usize {
        self.pos.len()
    }

    fn kinds(&self) -> Vec<&'static str> {
        vec!["heading for a bunker", "waiting for the field", "no bunker to reach"]
    }

    fn frame(&self, selected: Option<usize>, out: &mut Frame) {
        out.clear();
        let field = self.field();
        let n = field.grid().len();
        let settled = self.building.as_ref().map(|(b, _)| b.settled());
        let shown = |i: usize| settled.is_none_or(|s| s[i]) && field.distances()[i].is_finite();
        out.layer.extend((0..n).map(|i| if shown(i) { field.distances()[i] as f32 } else { -1.0 }));
        out.layer_max = out.layer.iter().copied().fold(0.0, f32::max).max(1.0);
        out.layer_label = if self.building.is_some() {
            "distance to the nearest bunker, settled so far (negative: not yet)".into()
        } else {
            "distance to the nearest standing bunker (negative: none)".into()
        };
        out.directions.extend((0..n).map(|i| if shown(i) { field.directions()[i] } else { NO_DIRECTION }));
        out.cell_marks.resize(n, Ink::None as u8);
        if let Some((build, _)) = &self.building {
            for c in build.frontier() {
                out.cell_marks[c] = Ink::Wavefront as u8;
            }
        } else {
            for &c in &self.changed {
                out.cell_marks[c] = Ink::Changed as u8;
            }
            for &c in &self.suboptimal {
                out.cell_marks[c] = Ink::Suboptimal as u8;
            }
        }
        for b in &self.bunkers {
            out.circle(self.walls.centre(b.at), 0.45 * CELL, if b.standing { Ink::Goal } else { Ink::Stop });
        }
        for i in 0..self.pos.len() {
            let kind = if self.building.is_some() {
                1
            } else if self.target[i] == NO_TARGET {
                2
            } else {
                0
            };
            out.agent(self.pos[i], self.vel[i], RADIUS * CELL, kind);
        }
        let Some(i) = selected.filter(|&i| i < self.pos.len()) else {
            return;
        };
        let p = self.pos[i];
        out.line(p, p + self.vel[i] * 0.5, Ink::Velocity);
        if self.building.is_some() {
            return;
        }
        if let Some(cell) = self.cell_index(p) {
            if let Ok(route) = self.field.route(self.walls.grid().point_at(cell)) {
                let mut from = p;
                for q in route.iter().skip(1) {
                    let to = self.walls.centre(*q);
                    out.line(from, to, Ink::Route);
                    from = to;
                }
            }
        }
        if let Some(b) = self.target(i) {
            out.line(p, self.walls.centre(self.bunkers[b].at), Ink::Link);
        }
    }

    fn metrics(&self) -> Vec<Metric> {
        let field = self.field();
        let nan_if = |none: bool, v: f64| if none { f64::NAN } else { v };
        vec![
            Metric { name: "arrived", label: "Agents arrived", value: self.arrived as f64, unit: "" },
            Metric {
                name: "mean_arrival_time",
                label: "Mean time to arrive",
                value: nan_if(self.arrived == 0, self.arrive_time_sum / self.arrived as f64),
                unit: "s",
            },
            Metric {
                name: "last_edit_cells",
                label: "Cells updated by the last edit",
                value: self.last_edit.map_or(f64::NAN, |c| c as f64),
                unit: "cells",
            },
            Metric {
                name: "changed_cells",
                label: "Cells changed by the last edit",
                value: nan_if(self.last_edit.is_none(), self.changed.len() as f64),
                unit: "cells",
            },
            Metric {
                name: "suboptimal",
                label: "Cells sub-optimal after cheap updates",
                value: self.suboptimal.len() as f64,
                unit: "cells",
            },
            Metric {
                name: "rerouted",
                label: "Agents rerouted by the last edit",
                value: self.rerouted as f64,
                unit: "",
            },
            Metric { name: "build_steps", label: "Build time", value: self.build_steps as f64, unit: "steps" },
            Metric {
                name: "field_cells",
                label: "Field cells",
                value: match &self.building {
                    Some((build, _)) => build.settled_count() as f64,
                    None => field.distances().iter().filter(|d| d.is_finite()).count() as f64,
                },
                unit: "cells",
            },
            Metric {
                name: "standing_bunkers",
                label: "Standing bunkers",
                value: self.bunkers.iter().filter(|b| b.standing).count() as f64,
                unit: "",
            },
        ]
    }

    fn params(&self) -> Vec<Param> {
        let select = |name, label, value: usize, choices| Param {
            name,
            label,
            min: 0.0,
            max: 1.0,
            step: 1.0,
            value: value as f64,
            choices,
        };
        vec![
            select("animate build", "Animate the build", usize::from(self.animate), vec!["off", "on"]),
            select("update", "Wall update", usize::from(self.update == Update::Cheap), vec!["exact", "cheap"]),
            Param {
                name: "speed",
                label: "Agent speed (cells/s)",
                min: 0.5,
                max: 8.0,
                step: 0.5,
                value: f64::from(self.speed),
                choices: Vec::new(),
            },
            Param {
                name: "separation",
                label: "Separation",
                min: 0.0,
                max: 3.0,
                step: 0.1,
                value: f64::from(self.separation),
                choices: Vec::new(),
            },
        ]
    }

    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError> {
        if value.is_nan() {
            return Err(SceneError::Invalid(format!("{name}: NaN is not a value")));
        }
        match name {
            "animate build" => {
                let (c, note) = choice(name, value, 2);
                self.animate = c == 1;
                if !self.animate {
                    self.finish_build();
                }
                Ok(note)
            }
            "update" => {
                let (c, note) = choice(name, value, 2);
                self.update = if c == 1 { Update::Cheap } else { Update::Exact };
                Ok(note)
            }
            "speed" | "separation" => {
                let (lo, hi) = if name == "speed" { (0.5, 8.0) } else { (0.0, 3.0) };
                let v = value.clamp(lo, hi);
                let note = (v != value).then(|| format!("{name}: {value} is outside {lo} to {hi}; using {v}"));
                if name == "speed" {
                    self.speed = v as f32;
                } else {
                    self.separation = v as f32;
                }
                Ok(note)
            }
            _ => Err(SceneError::UnknownParam(name.to_string())),
        }
    }

    fn actions(&self) -> Vec<Action> {
        vec![
            Action { name: "destroy-bunker", label: "Destroy the nearest bunker" },
            Action { name: "break-wall", label: "Break a wall" },
            Action { name: "add-wall", label: "Add a wall" },
            Action { name: "add-bunker", label: "Build a bunker" },
            Action { name: "recompute", label: "Recompute the field" },
            Action { name: "rebuild", label: "Watch the build again" },
        ]
    }

    fn act(&mut self, action: &str, at: Vec2) -> Result<String, SceneError> {
        let known = ["destroy-bunker", "break-wall", "add-wall", "add-bunker", "recompute", "rebuild"];
        if !known.contains(&action) {
            return Err(SceneError::UnknownAction(action.to_string()));
        }
        if action == "rebuild" {
            self.start_build()?;
            self.last_edit = None;
            self.rerouted = 0;
            return Ok(if self.building.is_some() {
                "building the field again, one wavefront layer per step".into()
            } else {
                "field rebuilt at once (the build animation is off)".into()
            });
        }
        // Edits apply to a complete field: a build in progress is finished first.
        self.finish_build();
        match action {
            "recompute" => Ok(self.recompute()),
            "destroy-bunker" => {
                if !at.is_finite() {
                    return Err(SceneError::Invalid(format!("the point ({}, {}) is not a position", at.x, at.y)));
                }
                self.destroy_bunker(at)
            }
            "break-wall" => {
                let p = self.cell_at(at)?;
                self.break_wall(p)
            }
            "add-wall" => {
                let p = self.cell_at(at)?;
                self.add_wall(p)
            }
            _ => {
                let p = self.cell_at(at)?;
                self.add_bunker(p)
            }
        }
    }
}
