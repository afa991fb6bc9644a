//! The bunkers' flow field under other techniques, as the course suggests: embedded map data
//! "bolted onto" a flock and onto squads in fixed formation, instead of a search per agent.
//!
//! Three [`Scene`]s share this file:
//!
//! - **"flow-flock"**: a flock of boids on a map of rooms with three bunkers. Each boid keeps
//!   apart from its neighbours (separation) and drifts towards their centre (cohesion), and
//!   its alignment is not the neighbours' mean heading but the direction the field gives its
//!   cell (parameter "guide": "flow"). With "guide" set to "plain" the same code aligns with
//!   the neighbours and ignores the field: the plain flock the benchmark compares against.
//!   A boid that reaches a standing bunker's cell takes shelter there and stops.
//! - **"flow-squads"**: squads of nine (three ranks of three). Each squad's leader walks
//!   the field; the others hold a slot behind it, turned with the leader's heading, and feel
//!   the field's direction as an extra push that keeps them off the walls. A member more
//!   than two cells from its slot follows the field alone until it catches up (hysteresis).
//! - **"flow-fig9"**: the course's two-bunker example on a 5 x 5 open grid with four
//!   neighbours and costs of 10 per move. Bunker 1 is the south-most (row 4, column 3),
//!   bunker 2 the west-most (row 1, column 0), and one agent starts in row 1, column 1: it
//!   heads west to bunker 2; when bunker 2 falls (scripted at 0.3 s) its cell has two
//!   equally short routes to bunker 1, east and south, and the neighbour order (parameter
//!   "order", a permutation of n, e, s, w) picks one: east under `nesw`, south under `wsen`.
//!
//! **A bunker falls** by the action "destroy-bunker" (the nearest standing bunker to the
//! click) or by the script: parameter "destroy_at" (seconds; 0: never) destroys the standing
//! bunker that most moving agents are heading for. Boids sheltered in it come out and
//! re-route with the rest.
//!
//! **Each bunker's own map**: parameter "map" shows the combined field ("all") or one
//! bunker's own first-direction map, as the course's Fig. 9 draws them (arrows per cell).
//!
//! **A known destructible wall** (marked on the map, the wall cell whose removal shortens
//! the most routes among a sample of candidates) has its field baked in advance: the field
//! of the map without that wall, towards the standing bunkers. Action "break-wall" knocks it
//! down and the baked field is switched in with no search at all. The price is memory (a
//! second field, metric "baked_bytes") and a re-bake whenever a bunker falls before the wall
//! does. The baked field equals a recompute cell by cell (distances, directions, bunkers).
//!
//! # Metrics
//!
//! "sheltered" (agents in a standing bunker), "moving", "mean_shelter_time" (seconds from
//! the start, or from their last re-route out of a fallen bunker, to shelter; NaN before the
//! first), "rerouted" (agents whose bunker the last fall or wall changed), "standing_bunkers",
//! "baked_bytes" (memory of the baked field; 0 once used), "wall_changed_cells" (cells whose
//! distance the wall's fall changed; NaN before it falls), "first_move" (the field's
//! direction at agent 0's cell, 0-3 for N, E, S, W, 4-7 for the diagonals, -1 for none).
//!
//! # Frame
//!
//! `layer` holds the shown map's distances in straight moves (-1: none), `directions` its
//! first moves, circles the bunkers ([`Ink::Goal`] standing, [`Ink::Stop`] fallen), and the
//! destructible wall is marked [`Ink::Changed`] until it falls. Agent kinds: "moving",
//! "sheltered", "leader" (squads), "no bunker to reach".
//!
//! ```
//! use pathlab_core::crowd::flow_flock::FlowFlockScene;
//! use pathlab_core::crowd::scene::{Scene, SceneConfig};
//! let mut scene = FlowFlockScene::fig9(&SceneConfig::default()).unwrap();
//! assert_eq!(scene.metrics().iter().find(|m| m.name == "first_move").unwrap().value, 3.0); // west
//! scene.set_param("order", 22.0).unwrap(); // "wsen" in NeighbourOrder::ALL
//! for _ in 0..10 {
//!     scene.step(); // bunker 2 falls at 0.3 s
//! }
//! assert_eq!(scene.metrics().iter().find(|m| m.name == "first_move").unwrap().value, 2.0); // south
//! ```

use super::flow::{FlowField, NeighbourOrder, NO_DIRECTION, NO_GOAL};
use super::flow_scene::{along_field, spread_bunkers, CellBuckets};
use super::scene::{on_walls_every, Action, Frame, Ink, Metric, Param, Scene, SceneConfig, SceneError};
use crate::boids::{Pcg32, Vec2, Walls};
use crate::generate;
use crate::grid::{Costs, Diagonal, Grid, Point, GROUND, WALL};

/// The map size of the flock and squad scenes, in cells.
const MAP: (usize, usize) = (48, 32);
/// Seconds per step.
const DT: f32 = 0.05;
/// Agent radius, in cells.
const RADIUS: f32 = 0.2;
/// The default and largest number of boids.
const BOIDS: (usize, usize) = (600, 20_000);
/// Members per squad (three ranks of three) and the default and largest number of squads.
const SQUAD: usize = 9;
const SQUADS: (usize, usize) = (6, 60);
/// The most neighbours a boid looks at per step, and how far it looks (cells).
const MAX_NEIGHBOURS: usize = 12;
const SIGHT: f32 = 1.0;
/// Distance below which boids push apart (cells).
const PERSONAL: f32 = 0.5;
/// Candidate walls sampled when choosing the destructible one.
const WALL_CANDIDATES: usize = 24;
/// An agent's bunker when it has none.
const NONE: usize = usize::MAX;
/// The map choices' names: the combined field, then each bunker's own.
const MAP_CHOICES: [&str; 4] = ["all", "bunker-1", "bunker-2", "bunker-3"];

/// Where the alignment comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guide {
    /// The field's direction at the boid's cell.
    Flow,
    /// The neighbours' mean heading (a plain flock; no field is read).
    Plain,
}

/// Which agents the scene moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    Flock,
    Squads,
    Single,
}

/// One bunker: where it is and whether it still stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bunker {
    at: Point,
    standing: bool,
}

/// The scenes of this module (see the module documentation).
#[derive(Clone, Debug)]
pub struct FlowFlockScene {
    name: &'static str,
    group: Group,
    walls: Walls,
    bunkers: Vec<Bunker>,
    /// The combined field; its goals are the bunkers, index for index.
    field: FlowField,
    /// The field of the map without the destructible wall, kept for the standing bunkers.
    baked: Option<FlowField>,
    wall: Option<Point>,
    wall_changed: Option<usize>,
    guide: Guide,
    shown_map: usize,
    /// The shown bunker's own map (when `shown_map` > 0).
    own_map: Option<FlowField>,
    destroy_at: f64,
    scripted_done: bool,
    speed: f32,
    pos: Vec<Vec2>,
    vel: Vec<Vec2>,
    /// The bunker each agent shelters in, or [`NONE`] while it moves.
    shelter: Vec<usize>,
    /// The step each agent set out (again).
    born: Vec<u64>,
    /// For squads: each agent's squad leader and its slot offset (forward, left) in cells.
    leader: Vec<usize>,
    slot: Vec<Vec2>,
    steps: u64,
    sheltered_total: u64,
    shelter_time_sum: f64,
    rerouted: usize,
}

impl FlowFlockScene {
    /// The flock: a 48 x 32 map of rooms seeded by `config.seed`, three bunkers spread apart,
    /// `config.agents` boids (600 by default, at most 20,000) on random open cells.
    pub fn flock(config: &SceneConfig) -> Result<Self, SceneError> {
        let map = generate::rooms(MAP.0, MAP.1, config.seed).map_err(|e| SceneError::Invalid(e.to_string()))?;
        let n = config.agents.unwrap_or(BOIDS.0).clamp(1, BOIDS.1);
        Self::with_map("flow-flock", Group::Flock, map.grid, None, n, config.seed)
    }

    /// A flock of `agents` boids (at most 20,000) on a map of your own, three bunkers spread
    /// apart (the benchmark's larger map).
    pub fn flock_with_map(grid: Grid, agents: usize, seed: u64) -> Result<Self, SceneError> {
        Self::with_map("flow-flock", Group::Flock, grid, None, agents.clamp(1, BOIDS.1), seed)
    }

    /// The squads: the flock's map with `config.agents` agents made into squads of nine (six
    /// squads by default, at most 60).
    pub fn squads(config: &SceneConfig) -> Result<Self, SceneError> {
        let map = generate::rooms(MAP.0, MAP.1, config.seed).map_err(|e| SceneError::Invalid(e.to_string()))?;
        let squads = config.agents.map_or(SQUADS.0, |a| a.div_ceil(SQUAD)).clamp(1, SQUADS.1);
        Self::with_map("flow-squads", Group::Squads, map.grid, None, squads * SQUAD, config.seed)
    }

    /// The course's two-bunker figure (see the module documentation); one agent.
    pub fn fig9(config: &SceneConfig) -> Result<Self, SceneError> {
        let grid = Grid::new(5, 5).map_err(|e| SceneError::Invalid(e.to_string()))?;
        let bunkers = [Point::new(3, 4), Point::new(0, 1)];
        let mut scene = Self::with_map("flow-fig9", Group::Single, grid, Some(&bunkers), 1, config.seed)?;
        scene.pos[0] = scene.walls.centre(Point::new(1, 1));
        scene.vel[0] = Vec2::ZERO;
        scene.speed = 1.0;
        scene.destroy_at = 0.3;
        Ok(scene)
    }

    /// A scene on `grid` with `agents` agents; bunkers given, or three spread apart.
    fn with_map(
        name: &'static str,
        group: Group,
        grid: Grid,
        bunkers: Option<&[Point]>,
        agents: usize,
        seed: u64,
    ) -> Result<Self, SceneError> {
        let invalid = |e: String| SceneError::Invalid(e);
        let (rule, costs) = if group == Group::Single {
            (Diagonal::Never, Costs::Integer)
        } else {
            (Diagonal::NoCornerCutting, Costs::Real)
        };
        let bunkers = match bunkers {
            Some(b) => b.to_vec(),
            None => spread_bunkers(&grid, 3, seed)?,
        };
        let field = FlowField::new(grid.clone(), &bunkers, rule, costs).map_err(|e| invalid(e.to_string()))?;
        let open: Vec<usize> =
            (0..grid.len()).filter(|&i| field.distances()[i].is_finite() && field.distances()[i] > 0.0).collect();
        if open.is_empty() {
            return Err(invalid("the map has no open cell that reaches a bunker".into()));
        }
        let mut rng = Pcg32::new(seed ^ 0xf10c_b0d5);
        let walls = Walls::new(grid, 1.0);
        let mut pos = Vec::with_capacity(agents);
        let mut vel = Vec::with_capacity(agents);
        let mut leader = Vec::with_capacity(agents);
        let mut slot = Vec::with_capacity(agents);
        for i in 0..agents {
            let head = if group == Group::Squads { i - i % SQUAD } else { i };
            if head == i {
                let c = open[rng.below(open.len() as u32) as usize];
                let span = 0.5 - RADIUS;
                pos.push(
                    walls.centre(walls.grid().point_at(c)) + Vec2::new(rng.range(-span, span), rng.range(-span, span)),
                );
            } else {
                pos.push(pos[head]);
            }
            // Each sets out at half speed in a direction of its own.
            vel.push(Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)));
            leader.push(head);
            let k = (i - head) as f32;
            // Three ranks of three behind the leader, 0.6 cells apart.
            slot.push(Vec2::new(-0.6 * (k / 3.0).floor(), 0.6 * (k % 3.0 - 1.0)));
        }
        let mut scene = Self {
            name,
            group,
            walls,
            bunkers: bunkers.iter().map(|&at| Bunker { at, standing: true }).collect(),
            field,
            baked: None,
            wall: None,
            wall_changed: None,
            guide: Guide::Flow,
            shown_map: 0,
            own_map: None,
            destroy_at: 0.0,
            scripted_done: false,
            speed: 2.0,
            vel,
            shelter: vec![NONE; agents],
            born: vec![0; agents],
            pos,
            leader,
            slot,
            steps: 0,
            sheltered_total: 0,
            shelter_time_sum: 0.0,
            rerouted: 0,
        };
        if group != Group::Single {
            scene.wall = scene.choose_wall(&mut rng);
            scene.bake();
        }
        Ok(scene)
    }

    /// The combined field in use.
    pub fn field(&self) -> &FlowField {
        &self.field
    }

    /// The baked field for the destructible wall, while it stands.
    pub fn baked(&self) -> Option<&FlowField> {
        self.baked.as_ref()
    }

    /// The destructible wall's cell, while it stands.
    pub fn destructible_wall(&self) -> Option<Point> {
        self.wall
    }

    /// Every bunker's cell, fallen ones included.
    pub fn bunkers(&self) -> Vec<Point> {
        self.bunkers.iter().map(|b| b.at).collect()
    }

    /// Whether bunker `b` stands.
    pub fn is_standing(&self, b: usize) -> bool {
        self.bunkers.get(b).is_some_and(|b| b.standing)
    }

    /// Agent `i`'s centre.
    pub fn position(&self, i: usize) -> Option<Vec2> {
        self.pos.get(i).copied()
    }

    /// The bunker agent `i` shelters in, if it has arrived.
    pub fn shelter(&self, i: usize) -> Option<usize> {
        self.shelter.get(i).copied().filter(|&b| b != NONE)
    }

    /// The bunker agent `i` is heading for: its cell's nearest standing bunker by the field.
    pub fn target(&self, i: usize) -> Option<usize> {
        let c = self.cell_of(*self.pos.get(i)?)?;
        let g = self.field.nearest_goal()[c];
        (g != NO_GOAL).then_some(usize::from(g))
    }

    /// Sets where the alignment comes from (the benchmark's switch).
    pub fn set_guide(&mut self, guide: Guide) {
        self.guide = guide;
    }

    fn cell_of(&self, p: Vec2) -> Option<usize> {
        let (cx, cy) = self.walls.cell_at(p);
        let grid = self.walls.grid();
        grid.contains(cx, cy).then(|| cy as usize * grid.width() + cx as usize)
    }

    /// The wall whose removal shortens the most routes, among a sample of walls with open
    /// cells on two opposite sides.
    fn choose_wall(&self, rng: &mut Pcg32) -> Option<Point> {
        let grid = self.walls.grid();
        let open = |x: usize, y: usize| grid.cells()[y * grid.width() + x] != WALL;
        let mut candidates: Vec<Point> = Vec::new();
        for y in 1..grid.height() - 1 {
            for x in 1..grid.width() - 1 {
                if !open(x, y) && ((open(x - 1, y) && open(x + 1, y)) || (open(x, y - 1) && open(x, y + 1))) {
                    candidates.push(Point::new(x, y));
                }
            }
        }
        let mut best: Option<(f64, Point)> = None;
        for _ in 0..WALL_CANDIDATES.min(candidates.len()) {
            let p = candidates.swap_remove(rng.below(candidates.len() as u32) as usize);
            let mut broken = self.field.clone();
            if broken.break_wall(p).is_err() {
                continue;
            }
            let gain: f64 = self
                .field
                .distances()
                .iter()
                .zip(broken.distances())
                .filter(|(a, _)| a.is_finite())
                .map(|(a, b)| a - b)
                .sum();
            if best.is_none_or(|(g, _)| gain > g) {
                best = Some((gain, p));
            }
        }
        best.map(|(_, p)| p)
    }

    /// Bakes the field of the map without the destructible wall, for the standing bunkers.
    fn bake(&mut self) {
        self.baked = self.wall.and_then(|w| {
            let mut baked = self.field.clone();
            baked.break_wall(w).ok()?;
            // A fresh build on the map without the wall, as a recompute would make it.
            baked.rebuild();
            Some(baked)
        });
    }

    /// Refreshes the shown bunker's own map.
    fn refresh_own_map(&mut self) {
        self.own_map = match self.shown_map {
            0 => None,
            m => self.field.goal_field(m - 1).ok(),
        };
    }

    /// Destroys bunker `b`: the field is repaired, the baked one re-baked, and the agents
    /// sheltered in it set out again.
    fn destroy(&mut self, b: usize) -> Result<String, SceneError> {
        let before: Vec<Option<usize>> = (0..self.pos.len()).map(|i| self.target(i)).collect();
        self.field.destroy_goal(b).map_err(|e| SceneError::Refused(e.to_string()))?;
        self.bunkers[b].standing = false;
        if let Some(baked) = &mut self.baked {
            let _ = baked.destroy_goal(b);
            baked.rebuild();
        }
        for i in 0..self.pos.len() {
            if self.shelter[i] == b {
                self.shelter[i] = NONE;
                self.born[i] = self.steps;
            }
        }
        self.rerouted = (0..self.pos.len()).filter(|&i| self.shelter[i] == NONE && before[i] != self.target(i)).count();
        self.refresh_own_map();
        let left = self.field.standing_goals();
        Ok(format!(
            "bunker {} destroyed: {} agents turned to the next nearest of the {left} still standing",
            b + 1,
            self.rerouted
        ))
    }

    /// Knocks the destructible wall down and switches in the baked field.
    fn break_wall(&mut self) -> Result<String, SceneError> {
        let (Some(w), Some(baked)) = (self.wall.take(), self.baked.take()) else {
            return Err(SceneError::Refused("the destructible wall has fallen already".into()));
        };
        let before: Vec<Option<usize>> = (0..self.pos.len()).map(|i| self.target(i)).collect();
        let changed =
            self.field.distances().iter().zip(baked.distances()).filter(|(a, b)| a.to_bits() != b.to_bits()).count();
        self.field = baked;
        let _ = self.walls.paint([w], GROUND);
        self.wall_changed = Some(changed);
        self.rerouted = (0..self.pos.len()).filter(|&i| self.shelter[i] == NONE && before[i] != self.target(i)).count();
        self.refresh_own_map();
        Ok(format!(
            "the wall at {w} fell: the baked field was switched in ({changed} cells got shorter routes, {} agents changed bunker)",
            self.rerouted
        ))
    }

    /// What agent `i` in cell `c` sees of the moving agents within sight (at most
    /// [`MAX_NEIGHBOURS`], from the `moving` agents bucketed by cell): the separation push,
    /// the sum of their positions and of their velocities, and how many it saw.
    fn look_around(&self, i: usize, c: usize, moving: &CellBuckets) -> (Vec2, Vec2, Vec2, usize) {
        let p = self.pos[i];
        let mut push = Vec2::ZERO;
        let mut centre = Vec2::ZERO;
        let mut heading = Vec2::ZERO;
        let mut seen = 0usize;
        for j in moving.around(c) {
            if j == i {
                continue;
            }
            let off = p - self.pos[j];
            let d = off.length();
            if d > SIGHT {
                continue;
            }
            if d < PERSONAL {
                let away = if d > 1e-5 { off / d } else { Vec2::from_angle((i * 7 + j * 13) as f32) };
                push += away * ((PERSONAL - d) / PERSONAL);
            }
            centre += self.pos[j];
            heading += self.vel[j];
            seen += 1;
            if seen >= MAX_NEIGHBOURS {
                break;
            }
        }
        (push, centre, heading, seen)
    }

    /// One step of every moving agent.
    fn move_agents(&mut self) {
        let n = self.pos.len();
        let cells: Vec<usize> = self.pos.iter().map(|&p| self.cell_of(p).unwrap_or(0)).collect();
        // Moving agents bucketed by cell for the neighbour look-up.
        let (width, height) = (self.walls.grid().width(), self.walls.grid().height());
        let moving = CellBuckets::new(&cells, width, height, |i| self.shelter[i] == NONE);
        let gain = (6.0 * DT).min(1.0);
        let mut new_vel = self.vel.clone();
        for i in 0..n {
            if self.shelter[i] != NONE {
                continue;
            }
            let (p, c) = (self.pos[i], cells[i]);
            let (push, centre, heading, seen) = self.look_around(i, c, &moving);
            let cohesion = if seen > 0 { (centre / seen as f32 - p).truncate(1.0) } else { Vec2::ZERO };
            let flow = match self.guide {
                Guide::Flow => along_field(&self.field, &self.walls, c, p, self.speed),
                Guide::Plain => (heading + self.vel[i]).normalized() * self.speed,
            };
            let wanted = match self.group {
                Group::Squads if self.leader[i] != i && self.shelter[self.leader[i]] == NONE => {
                    let l = self.leader[i];
                    let forward =
                        if self.vel[l].length() > 1e-3 { self.vel[l].normalized() } else { Vec2::new(1.0, 0.0) };
                    let s = self.slot[i];
                    let target = self.pos[l] + forward * s.x + forward.perp() * s.y;
                    let to = target - p;
                    if to.length() > 2.0 {
                        // Too far from its slot: follow the field alone until it catches up.
                        flow + push * self.speed
                    } else {
                        (to * 2.0).truncate(self.speed * 1.3) + flow * 0.4 + push * self.speed
                    }
                }
                Group::Squads | Group::Single => flow + push * (0.5 * self.speed),
                Group::Flock => flow + push * self.speed + cohesion * (0.3 * self.speed),
            };
            let v = self.vel[i] + (wanted - self.vel[i]) * gain;
            new_vel[i] = if flow.length() > 0.0 || self.guide == Guide::Plain {
                v.truncate(self.speed * 1.3)
            } else {
                Vec2::ZERO
            };
        }
        for (i, v) in new_vel.into_iter().enumerate() {
            if self.shelter[i] != NONE {
                continue;
            }
            let (p, _, _) = self.walls.slide(self.pos[i], v * DT);
            let out = self.walls.push_out(p, RADIUS);
            let (p, _, _) = self.walls.slide(p, out);
            self.pos[i] = p;
            self.vel[i] = v;
            if self.guide == Guide::Plain {
                continue;
            }
            let cell = self.cell_of(p);
            if let Some(b) =
                cell.and_then(|c| self.bunkers.iter().position(|b| b.standing && self.walls.grid().index(b.at) == c))
            {
                self.shelter[i] = b;
                self.vel[i] = Vec2::ZERO;
                self.sheltered_total += 1;
                self.shelter_time_sum += (self.steps - self.born[i]) as f64 * f64::from(DT);
            }
        }
    }

    /// The standing bunker most moving agents head for.
    fn busiest_bunker(&self) -> Option<usize> {
        let mut count = vec![0usize; self.bunkers.len()];
        for i in 0..self.pos.len() {
            if let (NONE, Some(t)) = (self.shelter[i], self.target(i)) {
                count[t] += 1;
            }
        }
        (0..self.bunkers.len()).filter(|&b| self.bunkers[b].standing).max_by_key(|&b| (count[b], usize::MAX - b))
    }
}

/// Clamps a number to a range, with a message when it had to.
fn clamped(name: &str, value: f64, lo: f64, hi: f64) -> (f64, Option<String>) {
    let v = value.clamp(lo, hi);
    (v, (v != value).then(|| format!("{name}: {value} is outside {lo} to {hi}; using {v}")))
}

impl Scene for FlowFlockScene {
    fn name(&self) -> &'static str {
        self.name
    }

    on_walls_every!(DT);

    fn step(&mut self) {
        self.steps += 1;
        let now = self.steps as f64 * f64::from(DT);
        if self.destroy_at > 0.0 && !self.scripted_done && now >= self.destroy_at - 1e-9 {
            self.scripted_done = true;
            let b = if self.group == Group::Single {
                Some(1).filter(|&b| self.is_standing(b))
            } else {
                self.busiest_bunker()
            };
            if let Some(b) = b.filter(|_| self.field.standing_goals() > 1) {
                let _ = self.destroy(b);
            }
        }
        self.move_agents();
    }

    fn steps(&self) -> u64 {
        self.steps
    }

    fn len(&self) -> usize {
        self.pos.len()
    }

    fn kinds(&self) -> Vec<&'static str> {
        vec!["moving", "sheltered", "squad leader", "no bunker to reach"]
    }

    fn frame(&self, _selected: Option<usize>, out: &mut Frame) {
        out.clear();
        let shown = self.own_map.as_ref().unwrap_or(&self.field);
        let step = self.field.costs().straight();
        out.layer.extend(shown.distances().iter().map(|&d| if d.is_finite() { (d / step) as f32 } else { -1.0 }));
        out.layer_max = out.layer.iter().copied().fold(0.0, f32::max).max(1.0);
        out.layer_label = match self.shown_map {
            0 => "moves to the nearest standing bunker (negative: none)".into(),
            m => format!("moves to bunker {m} alone (its own map)"),
        };
        out.directions.extend_from_slice(shown.directions());
        out.cell_marks.resize(shown.grid().len(), Ink::None as u8);
        if let Some(w) = self.wall {
            out.cell_marks[self.walls.grid().index(w)] = Ink::Changed as u8;
        }
        for b in &self.bunkers {
            out.circle(self.walls.centre(b.at), 0.45, if b.standing { Ink::Goal } else { Ink::Stop });
        }
        for i in 0..self.pos.len() {
            let kind = if self.shelter[i] != NONE {
                1
            } else if self.group == Group::Squads && self.leader[i] == i {
                2
            } else if self.guide == Guide::Flow && self.target(i).is_none() {
                3
            } else {
                0
            };
            out.agent(self.pos[i], self.vel[i], RADIUS, kind);
        }
    }

    fn metrics(&self) -> Vec<Metric> {
        let sheltered = self.shelter.iter().filter(|&&b| b != NONE).count();
        let first_move = self.cell_of(self.pos[0]).map_or(-1.0, |c| match self.field.directions()[c] {
            NO_DIRECTION => -1.0,
            d => f64::from(d),
        });
        vec![
            Metric { name: "sheltered", label: "Agents in a bunker", value: sheltered as f64, unit: "" },
            Metric { name: "moving", label: "Agents on the way", value: (self.pos.len() - sheltered) as f64, unit: "" },
            Metric {
                name: "mean_shelter_time",
                label: "Mean time to shelter",
                value: if self.sheltered_total == 0 {
                    f64::NAN
                } else {
                    self.shelter_time_sum / self.sheltered_total as f64
                },
                unit: "s",
            },
            Metric {
                name: "rerouted",
                label: "Agents rerouted by the last change",
                value: self.rerouted as f64,
                unit: "",
            },
            Metric {
                name: "standing_bunkers",
                label: "Standing bunkers",
                value: self.field.standing_goals() as f64,
                unit: "",
            },
            Metric {
                name: "baked_bytes",
                label: "Memory of the baked field",
                value: self.baked.as_ref().map_or(0.0, |b| (b.grid().len() * (8 + 1 + 2 + 2 + 1)) as f64),
                unit: "bytes",
            },
            Metric {
                name: "wall_changed_cells",
                label: "Cells the wall's fall changed",
                value: self.wall_changed.map_or(f64::NAN, |c| c as f64),
                unit: "cells",
            },
            Metric { name: "first_move", label: "Agent 1's first move (0-3: N, E, S, W)", value: first_move, unit: "" },
        ]
    }

    fn params(&self) -> Vec<Param> {
        let order = self.field.order().name();
        let order_index = NeighbourOrder::ALL.iter().position(|&n| n == order).unwrap_or(6);
        let (map_v, map_list) = (self.shown_map as f64, MAP_CHOICES[..=self.bunkers.len().min(3)].to_vec());
        let mut params = vec![
            Param {
                name: "order",
                label: "Neighbour order",
                min: 0.0,
                max: 23.0,
                step: 1.0,
                value: order_index as f64,
                choices: NeighbourOrder::ALL.to_vec(),
            },
            Param {
                name: "map",
                label: "Map shown",
                min: 0.0,
                max: (map_list.len() - 1) as f64,
                step: 1.0,
                value: map_v,
                choices: map_list,
            },
            Param {
                name: "destroy_at",
                label: "Scripted fall (s; 0: never)",
                min: 0.0,
                max: 120.0,
                step: 0.5,
                value: self.destroy_at,
                choices: Vec::new(),
            },
            Param {
                name: "speed",
                label: "Speed (cells/s)",
                min: 0.5,
                max: 6.0,
                step: 0.5,
                value: f64::from(self.speed),
                choices: Vec::new(),
            },
        ];
        if self.group == Group::Flock {
            params.push(Param {
                name: "guide",
                label: "Alignment from",
                min: 0.0,
                max: 1.0,
                step: 1.0,
                value: f64::from(u8::from(self.guide == Guide::Plain)),
                choices: vec!["flow", "plain"],
            });
        }
        params
    }

    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError> {
        if value.is_nan() {
            return Err(SceneError::Invalid(format!("{name}: NaN is not a value")));
        }
        let count = |n: usize| -> (usize, Option<String>) {
            let (v, note) = clamped(name, value.round(), 0.0, (n - 1) as f64);
            let note = note
                .or_else(|| (value.round() != value).then(|| format!("{name}: {value} is not a choice; using {v}")));
            (v as usize, note)
        };
        match name {
            "order" => {
                let (c, note) = count(NeighbourOrder::ALL.len());
                let order =
                    NeighbourOrder::parse(NeighbourOrder::ALL[c]).map_err(|e| SceneError::Invalid(e.to_string()))?;
                self.field.set_order(order);
                if let Some(baked) = &mut self.baked {
                    baked.set_order(order);
                }
                self.refresh_own_map();
                Ok(note)
            }
            "map" => {
                let (c, note) = count(self.bunkers.len().min(3) + 1);
                self.shown_map = c;
                self.refresh_own_map();
                Ok(note)
            }
            "destroy_at" => {
                let (v, note) = clamped(name, value, 0.0, 120.0);
                self.destroy_at = v;
                self.scripted_done = false;
                Ok(note)
            }
            "speed" => {
                let (v, note) = clamped(name, value, 0.5, 6.0);
                self.speed = v as f32;
                Ok(note)
            }
            "guide" if self.group == Group::Flock => {
                let (c, note) = count(2);
                self.guide = if c == 1 { Guide::Plain } else { Guide::Flow };
                Ok(note)
            }
            _ => Err(SceneError::UnknownParam(name.to_string())),
        }
    }

    fn actions(&self) -> Vec<Action> {
        let mut actions = vec![Action { name: "destroy-bunker", label: "Destroy the nearest bunker" }];
        if self.group != Group::Single {
            actions.push(Action { name: "break-wall", label: "Knock down the marked wall" });
        }
        actions
    }

    fn act(&mut self, action: &str, at: Vec2) -> Result<String, SceneError> {
        match action {
            "destroy-bunker" => {
                if !at.is_finite() {
                    return Err(SceneError::Invalid(format!("the point ({}, {}) is not a position", at.x, at.y)));
                }
                let b = (0..self.bunkers.len())
                    .filter(|&b| self.bunkers[b].standing)
                    .min_by(|&a, &b| {
                        let d = |k: usize| self.walls.centre(self.bunkers[k].at).distance(at);
                        d(a).total_cmp(&d(b))
                    })
                    .ok_or_else(|| SceneError::Refused("every bunker is destroyed already".into()))?;
                if self.field.standing_goals() == 1 {
                    return Err(SceneError::Refused(
                        "the last standing bunker is kept, so the agents have somewhere to go".into(),
                    ));
                }
                self.destroy(b)
            }
            "break-wall" if self.group != Group::Single => self.break_wall(),
            _ => Err(SceneError::UnknownAction(action.to_string())),
        }
    }
}
