//! An ant colony: ants that know nothing of the map find food by wandering, and the trails the
//! loaded ones lay on their way home lead the others to it; when a source runs dry nobody
//! renews its trail and the trail evaporates. Beside it, the same colony guided by a flow field
//! (ants that know the map) gives the yardstick the pheromone colony is measured against.
//!
//! # The model
//!
//! Ants live on cells and make one move per step, to one of the eight neighbours, never into a
//! wall and never diagonally past a wall corner (the MovingAI rule, as in the searches). Each
//! ant is either **searching** or **carrying** one unit of food.
//!
//! - A searching ant next to a source with food left steps onto it and picks one unit up.
//!   Otherwise, with the `pheromone` guide, it senses the cells ahead of it: straight on and up
//!   to `sense` eighths of a turn to either side (45, 90 or 135 degrees), and picks one of
//!   them at random with weight `(base + pheromone)^alpha`. With no pheromone around every
//!   sensed cell is equally likely, which makes a random walk that keeps roughly to its
//!   heading; `alpha` is the greed with which trails are followed, `base` the noise that
//!   keeps some ants exploring. When every cell ahead is walled it turns to a random open
//!   neighbour.
//! - A carrying ant walks home by the nest's distance field (a [`FlowField`] with the nest as
//!   its only goal) and puts `deposit` units of pheromone on every cell it enters, the source
//!   and the nest included. On reaching the nest it delivers its food, turns round and goes
//!   searching again, back along the trail it came by.
//!
//! **Choice documented:** there is one pheromone only, the food trail laid by carrying ants.
//! The way home is not found by a second, "home" pheromone that searching ants would lay;
//! loaded ants know their way home (real ants count steps and read the sun to do this), which
//! the nest's distance field stands for. So every trail runs on a cheapest route from a source
//! to the nest, and a trail exists only where food has actually been carried.
//!
//! Each step, after the ants have moved, the pheromone of each open cell first spreads:
//! `diffusion` of it is replaced by the mean of its four neighbours (a wall or the map's edge
//! counting as the cell itself, so that nothing leaks), then evaporates: it is multiplied by
//! `1 - evaporation`.
//!
//! With the `flow-field` guide, searching ants follow a second flow field whose goals are the
//! sources with food left, so they walk a cheapest route to the nearest such source; when a
//! source runs dry it is taken out of the field with [`FlowField::destroy_goal`]. Carrying ants
//! behave and lay pheromone as before, so the two guides are measured in the same way.
//!
//! # Metrics
//!
//! Food delivered, deliveries per minute of simulated time, the mean trip time (from leaving
//! the nest to returning to it with food), food left at the sources, food being carried, and
//! the trail strength: the mean pheromone on the cells of the nest's routes to every source
//! (following the nest field from each source) against the mean over every other open cell.
//!
//! ```
//! use pathlab_core::crowd::ants::{AntColony, AntParams};
//! use pathlab_core::crowd::scene::Scene;
//! use pathlab_core::grid::{Grid, Point};
//! let grid = Grid::new(12, 5).unwrap();
//! let mut colony =
//!     AntColony::new(grid, Point::new(1, 2), &[Point::new(10, 2)], 20, AntParams::default(), 7).unwrap();
//! for _ in 0..400 { colony.step(); }
//! assert!(colony.delivered() > 0);
//! assert_eq!(colony.delivered() + colony.food_left() + colony.carried(), colony.food_placed());
//! ```

use crate::boids::{Pcg32, Vec2};
use crate::grid::{Costs, Diagonal, Grid, Point, GROUND, WALL};

use super::flow::FlowField;
use super::scene::{Action, Frame, Ink, Metric, Param, Scene, SceneConfig, SceneError};

/// The eight moves (dx, dy) in turning order, clockwise from north: N, NE, E, SE, S, SW, W, NW.
const RING: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

/// No source on a cell.
const NO_SOURCE: u16 = u16::MAX;

/// The most sources a map may hold.
pub const MAX_SOURCES: usize = 32;

/// The most ants a colony may have.
pub const MAX_ANTS: usize = 5000;

/// The most cells a sensing ant looks at (straight on and three eighths to each side).
const MAX_SENSED: usize = 7;

/// What searching ants steer by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guide {
    /// The pheromone trails laid by loaded ants (the ants know nothing of the map).
    Pheromone,
    /// A flow field to the nearest source with food left (the ants know the map).
    FlowField,
}

impl Guide {
    /// The names of the guides, in the order of the `guide` parameter's values.
    pub const NAMES: [&'static str; 2] = ["pheromone", "flow-field"];
}

/// The colony's settings; every one can be changed while it runs through
/// [`Scene::set_param`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AntParams {
    /// What searching ants steer by.
    pub guide: Guide,
    /// The fraction of pheromone lost per step, in 0..=0.5.
    pub evaporation: f32,
    /// The fraction of each cell's pheromone replaced by its neighbours' mean per step, in
    /// 0..=0.5.
    pub diffusion: f32,
    /// Pheromone a carrying ant puts on each cell it enters, in 0..=100.
    pub deposit: f32,
    /// Greed: the power of the weights, in 0..=8 (0: trails are ignored).
    pub alpha: f32,
    /// Noise: the weight's constant term, in 0.001..=100 (the larger, the more exploring).
    pub base: f32,
    /// How far to each side a searching ant senses, in eighths of a turn, 1..=3.
    pub sense: u8,
    /// Food in a newly placed source, 1..=100 000.
    pub food_per_source: u32,
}

impl Default for AntParams {
    fn default() -> Self {
        Self {
            guide: Guide::Pheromone,
            evaporation: 0.01,
            diffusion: 0.02,
            deposit: 1.0,
            alpha: 2.0,
            base: 0.05,
            sense: 1,
            food_per_source: 1000,
        }
    }
}

/// The parameter names and their ranges (min, max, slider step), in [`Scene::params`] order.
const RANGES: [(&str, &str, f64, f64, f64); 8] = [
    ("guide", "Guide", 0.0, 1.0, 1.0),
    ("evaporation", "Evaporation per step", 0.0, 0.5, 0.001),
    ("diffusion", "Diffusion per step", 0.0, 0.5, 0.01),
    ("deposit", "Pheromone deposit", 0.0, 100.0, 0.1),
    ("alpha", "Greed (alpha)", 0.0, 8.0, 0.1),
    ("base", "Noise (base weight)", 0.001, 100.0, 0.001),
    ("sense", "Sensing half-angle (eighths)", 1.0, 3.0, 1.0),
    ("food", "Food per new source", 1.0, 100_000.0, 1.0),
];

impl AntParams {
    fn value(&self, name: &str) -> f64 {
        match name {
            "guide" => match self.guide {
                Guide::Pheromone => 0.0,
                Guide::FlowField => 1.0,
            },
            "evaporation" => f64::from(self.evaporation),
            "diffusion" => f64::from(self.diffusion),
            "deposit" => f64::from(self.deposit),
            "alpha" => f64::from(self.alpha),
            "base" => f64::from(self.base),
            "sense" => f64::from(self.sense),
            _ => f64::from(self.food_per_source),
        }
    }

    /// Sets one value, which must lie in range (whole numbers rounded).
    fn put(&mut self, name: &str, v: f64) {
        match name {
            "guide" => self.guide = if v.round() >= 1.0 { Guide::FlowField } else { Guide::Pheromone },
            "evaporation" => self.evaporation = v as f32,
            "diffusion" => self.diffusion = v as f32,
            "deposit" => self.deposit = v as f32,
            "alpha" => self.alpha = v as f32,
            "base" => self.base = v as f32,
            "sense" => self.sense = v.round() as u8,
            _ => self.food_per_source = v.round() as u32,
        }
    }

    /// Checks every value against its range.
    ///
    /// # Errors
    /// [`SceneError::Invalid`] naming the first value that is not finite or out of range.
    pub fn check(&self) -> Result<(), SceneError> {
        for &(name, _, min, max, _) in &RANGES {
            let v = self.value(name);
            if !v.is_finite() || v < min || v > max {
                return Err(SceneError::Invalid(format!("ant parameter {name} must lie in {min}..={max}, not {v}")));
            }
        }
        Ok(())
    }
}

/// One food source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Source {
    cell: usize,
    left: u32,
    initial: u32,
}

/// What an ant did on its last move, for drawing the selected ant's reasoning.
#[derive(Clone, Copy, Debug, Default)]
struct Decision {
    /// The cell it moved from.
    from: u32,
    /// The cells it sensed, `n` of them, and the chance it gave each.
    sensed: [u32; MAX_SENSED],
    chance: [f32; MAX_SENSED],
    n: u8,
}

/// An ant colony on a grid map: see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct AntColony {
    grid: Grid,
    nest: usize,
    params: AntParams,
    rng: Pcg32,
    steps: u64,
    // Ants, one entry each.
    cell: Vec<u32>,
    heading: Vec<u8>,
    carrying: Vec<bool>,
    left_nest: Vec<u64>,
    decision: Vec<Decision>,
    // Pheromone per cell, and a buffer for the spreading pass.
    pheromone: Vec<f32>,
    scratch: Vec<f32>,
    // Food.
    sources: Vec<Source>,
    source_at: Vec<u16>,
    nest_field: FlowField,
    /// Flow field to the sources with food left, and each source's goal index in it.
    food_field: Option<FlowField>,
    food_goal: Vec<Option<usize>>,
    // The cells of the nest's routes to every source, for the trail metric.
    on_route: Vec<bool>,
    route_count: usize,
    // Counts.
    placed: u64,
    removed: u64,
    delivered: u64,
    trip_steps: u64,
}

fn world_error(what: &str, p: Point, grid: &Grid) -> SceneError {
    SceneError::Invalid(format!(
        "the {what} at ({}, {}) lies outside the {} x {} map",
        p.x,
        p.y,
        grid.width(),
        grid.height()
    ))
}

impl AntColony {
    /// A colony of `ants` ants (clamped to 1..=[`MAX_ANTS`]) at `nest`, with a source of
    /// `params.food_per_source` food on each cell of `food`.
    ///
    /// # Errors
    /// [`SceneError::Invalid`] for bad parameters, a nest or source outside the map or on a
    /// wall, a source on the nest, two sources on one cell, more than [`MAX_SOURCES`] sources;
    /// [`SceneError::Refused`] for a source from which the nest cannot be reached.
    pub fn new(
        grid: Grid,
        nest: Point,
        food: &[Point],
        ants: usize,
        params: AntParams,
        seed: u64,
    ) -> Result<Self, SceneError> {
        params.check()?;
        if grid.get(nest).is_none() {
            return Err(world_error("nest", nest, &grid));
        }
        if !grid.is_passable(nest) {
            return Err(SceneError::Invalid(format!("the nest at ({}, {}) lies on a wall", nest.x, nest.y)));
        }
        if food.len() > MAX_SOURCES {
            return Err(SceneError::Invalid(format!("at most {MAX_SOURCES} food sources, not {}", food.len())));
        }
        let nest_field = FlowField::new(grid.clone(), &[nest], Diagonal::NoCornerCutting, Costs::Real)
            .map_err(|e| SceneError::Invalid(e.to_string()))?;
        let n = ants.clamp(1, MAX_ANTS);
        let cells = grid.len();
        let nest_i = grid.index(nest);
        let mut rng = Pcg32::new(seed);
        let heading = (0..n).map(|_| rng.below(8) as u8).collect();
        let mut colony = Self {
            nest: nest_i,
            params,
            rng,
            steps: 0,
            cell: vec![nest_i as u32; n],
            heading,
            carrying: vec![false; n],
            left_nest: vec![0; n],
            decision: vec![Decision { from: nest_i as u32, ..Decision::default() }; n],
            pheromone: vec![0.0; cells],
            scratch: vec![0.0; cells],
            sources: Vec::new(),
            source_at: vec![NO_SOURCE; cells],
            nest_field,
            food_field: None,
            food_goal: Vec::new(),
            on_route: vec![false; cells],
            route_count: 0,
            placed: 0,
            removed: 0,
            delivered: 0,
            trip_steps: 0,
            grid,
        };
        for &p in food {
            colony.check_source_cell(p).map_err(|e| match e {
                SceneError::Refused(t) => SceneError::Refused(t),
                other => SceneError::Invalid(other.to_string()),
            })?;
            colony.add_source(p, params.food_per_source);
        }
        colony.rebuild_food_field();
        colony.rebuild_routes();
        Ok(colony)
    }

    /// The scene's own map: 96 x 64 cells with a few walls, the nest on the left, a near
    /// source behind a wall and a far one on the right; `config.agents` ants (default 300).
    ///
    /// # Errors
    /// Never in practice (the map is fixed); the errors of [`AntColony::new`].
    pub fn preset(config: &SceneConfig) -> Result<Self, SceneError> {
        let (w, h) = (96, 64);
        let mut cells = vec![GROUND; w * h];
        let mut wall = |x0: usize, y0: usize, x1: usize, y1: usize| {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    cells[y * w + x] = WALL;
                }
            }
        };
        // A border, a long wall with two gaps, and two blocks.
        wall(0, 0, w - 1, 0);
        wall(0, h - 1, w - 1, h - 1);
        wall(0, 0, 0, h - 1);
        wall(w - 1, 0, w - 1, h - 1);
        wall(40, 1, 41, 20);
        wall(40, 28, 41, 50);
        wall(20, 40, 30, 43);
        wall(60, 10, 63, 40);
        wall(70, 48, 90, 50);
        let grid = Grid::from_cells(w, h, cells).map_err(|e| SceneError::Invalid(e.to_string()))?;
        Self::new(
            grid,
            Point::new(12, 32),
            &[Point::new(30, 12), Point::new(84, 30), Point::new(80, 56)],
            config.agents.unwrap_or(300),
            AntParams::default(),
            config.seed,
        )
    }

    /// The current settings.
    pub fn settings(&self) -> AntParams {
        self.params
    }

    /// The nest's cell.
    pub fn nest(&self) -> Point {
        self.grid.point_at(self.nest)
    }

    /// Pheromone per cell, row-major (0 on walls).
    pub fn pheromone(&self) -> &[f32] {
        &self.pheromone
    }

    /// The cell of ant `i` (panics for `i >= len()`).
    pub fn ant_cell(&self, i: usize) -> Point {
        self.grid.point_at(self.cell[i] as usize)
    }

    /// Whether ant `i` carries food (false for indices out of range).
    pub fn is_carrying(&self, i: usize) -> bool {
        self.carrying.get(i).copied().unwrap_or(false)
    }

    /// Every source ever placed and not removed: its cell, food left and food it started with.
    pub fn sources(&self) -> Vec<(Point, u32, u32)> {
        self.sources.iter().map(|s| (self.grid.point_at(s.cell), s.left, s.initial)).collect()
    }

    /// Food delivered to the nest so far.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// Food left at the sources.
    pub fn food_left(&self) -> u64 {
        self.sources.iter().map(|s| u64::from(s.left)).sum()
    }

    /// Food being carried by ants.
    pub fn carried(&self) -> u64 {
        self.carrying.iter().filter(|&&c| c).count() as u64
    }

    /// Food placed in sources so far, less the food of removed sources: always equal to
    /// delivered + left + carried.
    pub fn food_placed(&self) -> u64 {
        self.placed - self.removed
    }

    /// Mean pheromone on the cells of the nest's routes to every source, and over every other
    /// open cell (NaN where there are no such cells).
    pub fn trail_strength(&self) -> (f64, f64) {
        let (mut on, mut off, mut n_off) = (0.0_f64, 0.0_f64, 0_usize);
        for (i, &p) in self.pheromone.iter().enumerate() {
            if self.on_route[i] {
                on += f64::from(p);
            } else if self.grid.cells()[i] != WALL {
                off += f64::from(p);
                n_off += 1;
            }
        }
        let mean = |s: f64, n: usize| if n == 0 { f64::NAN } else { s / n as f64 };
        (mean(on, self.route_count), mean(off, n_off))
    }

    /// The cell one move from `c` in ring direction `k`, if the move is legal.
    #[inline]
    fn step_to(&self, c: usize, k: usize) -> Option<usize> {
        let w = self.grid.width() as i32;
        let h = self.grid.height() as i32;
        let (x, y) = ((c % self.grid.width()) as i32, (c / self.grid.width()) as i32);
        let (dx, dy) = RING[k];
        let (nx, ny) = (x + dx, y + dy);
        if nx < 0 || ny < 0 || nx >= w || ny >= h {
            return None;
        }
        let cells = self.grid.cells();
        let t = (ny * w + nx) as usize;
        if cells[t] == WALL {
            return None;
        }
        if dx != 0 && dy != 0 && (cells[(y * w + nx) as usize] == WALL || cells[(ny * w + x) as usize] == WALL) {
            return None;
        }
        Some(t)
    }

    /// The ring direction of a move from `a` to the neighbouring cell `b`.
    fn ring_of(&self, a: usize, b: usize) -> u8 {
        let w = self.grid.width() as i64;
        let dx = (b as i64 % w - a as i64 % w).signum() as i32;
        let dy = (b as i64 / w - a as i64 / w).signum() as i32;
        RING.iter().position(|&m| m == (dx, dy)).unwrap_or(0) as u8
    }

    /// Picks ant `i`'s next cell when no field decides: food next door first, then a weighted
    /// draw among the open cells ahead (weights from the pheromone when `smell`), then any
    /// open neighbour.
    fn wander(&mut self, i: usize, smell: bool) -> Option<usize> {
        let c = self.cell[i] as usize;
        let h = usize::from(self.heading[i]);
        let mut d = Decision { from: c as u32, ..Decision::default() };
        if !self.carrying[i] {
            for j in 0..8 {
                if let Some(t) = self.step_to(c, (h + j) % 8) {
                    let s = self.source_at[t];
                    if s != NO_SOURCE && self.sources[usize::from(s)].left > 0 {
                        d.sensed[0] = t as u32;
                        d.chance[0] = 1.0;
                        d.n = 1;
                        self.decision[i] = d;
                        return Some(t);
                    }
                }
            }
        }
        let s = i32::from(self.params.sense);
        let mut weight = [0.0_f32; MAX_SENSED];
        let mut total = 0.0_f32;
        for j in -s..=s {
            let k = (h as i32 + j).rem_euclid(8) as usize;
            if let Some(t) = self.step_to(c, k) {
                let w = if smell { (self.params.base + self.pheromone[t]).powf(self.params.alpha) } else { 1.0 };
                let n = usize::from(d.n);
                d.sensed[n] = t as u32;
                weight[n] = if w.is_finite() { w } else { f32::MAX };
                total += weight[n];
                d.n += 1;
            }
        }
        if d.n == 0 || total <= 0.0 || !total.is_finite() {
            // Walled ahead (or weights degenerate): any open neighbour, equally likely.
            d.n = 0;
            total = 0.0;
            for k in 0..8 {
                if let Some(t) = self.step_to(c, k) {
                    if usize::from(d.n) < MAX_SENSED {
                        let n = usize::from(d.n);
                        d.sensed[n] = t as u32;
                        weight[n] = 1.0;
                        total += 1.0;
                        d.n += 1;
                    }
                }
            }
            if d.n == 0 {
                self.decision[i] = d;
                return None;
            }
        }
        let n = usize::from(d.n);
        for (chance, &w) in d.chance.iter_mut().zip(&weight).take(n) {
            *chance = w / total;
        }
        let r = self.rng.unit() * total;
        let mut acc = 0.0;
        let mut pick = n - 1;
        for (j, &w) in weight.iter().enumerate().take(n) {
            acc += w;
            if r < acc {
                pick = j;
                break;
            }
        }
        self.decision[i] = d;
        Some(d.sensed[pick] as usize)
    }

    /// One step of ant `i`.
    fn move_ant(&mut self, i: usize) {
        let c = self.cell[i] as usize;
        let next = if self.carrying[i] {
            match self.nest_field.next(c) {
                Some(t) => {
                    self.decision[i] =
                        Decision { from: c as u32, sensed: [t as u32; MAX_SENSED], chance: [1.0; MAX_SENSED], n: 1 };
                    Some(t)
                }
                None => self.wander(i, false),
            }
        } else if self.params.guide == Guide::FlowField {
            match self.food_field.as_ref().and_then(|f| f.next(c)) {
                Some(t) => {
                    self.decision[i] =
                        Decision { from: c as u32, sensed: [t as u32; MAX_SENSED], chance: [1.0; MAX_SENSED], n: 1 };
                    Some(t)
                }
                None => self.wander(i, false),
            }
        } else {
            self.wander(i, true)
        };
        let Some(t) = next else { return };
        self.heading[i] = self.ring_of(c, t);
        self.cell[i] = t as u32;
        if self.carrying[i] {
            self.pheromone[t] += self.params.deposit;
            if t == self.nest {
                self.carrying[i] = false;
                self.delivered += 1;
                self.trip_steps += self.steps + 1 - self.left_nest[i];
                self.left_nest[i] = self.steps + 1;
                self.heading[i] = (self.heading[i] + 4) % 8;
            }
            return;
        }
        if t == self.nest {
            // Passing through the nest without food restarts the trip's clock.
            self.left_nest[i] = self.steps + 1;
        }
        let s = self.source_at[t];
        if s != NO_SOURCE && self.sources[usize::from(s)].left > 0 {
            let s = usize::from(s);
            self.sources[s].left -= 1;
            self.carrying[i] = true;
            self.pheromone[t] += self.params.deposit;
            self.heading[i] = (self.heading[i] + 4) % 8;
            if self.sources[s].left == 0 {
                self.source_ran_out(s);
            }
        }
    }

    /// Takes a dry source out of the food field.
    fn source_ran_out(&mut self, s: usize) {
        if let (Some(field), Some(goal)) = (self.food_field.as_mut(), self.food_goal[s]) {
            // The goal stands (it is destroyed once only), so this cannot fail.
            let _ = field.destroy_goal(goal);
            self.food_goal[s] = None;
            if field.standing_goals() == 0 {
                self.food_field = None;
            }
        }
    }

    /// Spreads and evaporates the pheromone.
    fn evaporate(&mut self) {
        let keep = 1.0 - self.params.evaporation;
        let d = self.params.diffusion;
        let cells = self.grid.cells();
        if d > 0.0 {
            let (w, h) = (self.grid.width(), self.grid.height());
            let p = &self.pheromone;
            for y in 0..h {
                for x in 0..w {
                    let i = y * w + x;
                    if cells[i] == WALL {
                        self.scratch[i] = 0.0;
                        continue;
                    }
                    let own = p[i];
                    let n = if y > 0 && cells[i - w] != WALL { p[i - w] } else { own };
                    let s = if y + 1 < h && cells[i + w] != WALL { p[i + w] } else { own };
                    let wv = if x > 0 && cells[i - 1] != WALL { p[i - 1] } else { own };
                    let e = if x + 1 < w && cells[i + 1] != WALL { p[i + 1] } else { own };
                    self.scratch[i] = ((1.0 - d) * own + d * 0.25 * (n + s + wv + e)) * keep;
                }
            }
            std::mem::swap(&mut self.pheromone, &mut self.scratch);
        } else {
            for p in &mut self.pheromone {
                *p *= keep;
            }
        }
        // Keep very old trails from lingering as subnormal numbers.
        for p in &mut self.pheromone {
            if *p < 1e-6 {
                *p = 0.0;
            }
        }
    }

    /// Why a source may not go on `p`, if it may not.
    fn check_source_cell(&self, p: Point) -> Result<(), SceneError> {
        if self.grid.get(p).is_none() {
            return Err(world_error("food source", p, &self.grid));
        }
        if !self.grid.is_passable(p) {
            return Err(SceneError::Refused(format!("({}, {}) is a wall; food goes on open ground", p.x, p.y)));
        }
        let i = self.grid.index(p);
        if i == self.nest {
            return Err(SceneError::Refused("food cannot go on the nest".to_string()));
        }
        if self.source_at[i] != NO_SOURCE {
            return Err(SceneError::Refused(format!(
                "a food source stands at ({}, {}) already (remove it first to put a new one there)",
                p.x, p.y
            )));
        }
        if self.sources.len() >= MAX_SOURCES {
            return Err(SceneError::Refused(format!("at most {MAX_SOURCES} food sources")));
        }
        if !self.nest_field.distances()[i].is_finite() {
            return Err(SceneError::Refused(format!(
                "no way leads from ({}, {}) to the nest: ants could never bring that food home",
                p.x, p.y
            )));
        }
        Ok(())
    }

    fn add_source(&mut self, p: Point, food: u32) {
        let i = self.grid.index(p);
        self.source_at[i] = self.sources.len() as u16;
        self.sources.push(Source { cell: i, left: food, initial: food });
        self.placed += u64::from(food);
    }

    /// Builds the food field afresh from the sources with food left.
    fn rebuild_food_field(&mut self) {
        let mut goals = Vec::new();
        self.food_goal = vec![None; self.sources.len()];
        for (s, src) in self.sources.iter().enumerate() {
            if src.left > 0 {
                self.food_goal[s] = Some(goals.len());
                goals.push(self.grid.point_at(src.cell));
            }
        }
        self.food_field = if goals.is_empty() {
            None
        } else {
            FlowField::new(self.grid.clone(), &goals, Diagonal::NoCornerCutting, Costs::Real).ok()
        };
        if self.food_field.is_none() {
            self.food_goal.fill(None);
        }
    }

    /// Marks the cells of the nest's routes to every source.
    fn rebuild_routes(&mut self) {
        self.on_route.fill(false);
        self.route_count = 0;
        for s in 0..self.sources.len() {
            let from = self.grid.point_at(self.sources[s].cell);
            if let Ok(route) = self.nest_field.route(from) {
                for p in route {
                    let i = self.grid.index(p);
                    if !self.on_route[i] {
                        self.on_route[i] = true;
                        self.route_count += 1;
                    }
                }
            }
        }
    }

    fn cell_at(&self, at: Vec2) -> Result<Point, SceneError> {
        if !at.is_finite() {
            return Err(SceneError::Invalid("the point clicked is not a number".to_string()));
        }
        let (x, y) = (at.x.floor() as i64, at.y.floor() as i64);
        self.grid.point(x, y).map_err(|_| SceneError::Refused(format!("({x}, {y}) lies outside the map")))
    }

    fn centre(&self, c: usize) -> Vec2 {
        let p = self.grid.point_at(c);
        Vec2::new(p.x as f32 + 0.5, p.y as f32 + 0.5)
    }

    fn place_wall(&mut self, p: Point) -> Result<String, SceneError> {
        let i = self.grid.index(p);
        if self.grid.cells()[i] == WALL {
            return Err(SceneError::Refused(format!("({}, {}) is a wall already", p.x, p.y)));
        }
        if i == self.nest || self.source_at[i] != NO_SOURCE {
            return Err(SceneError::Refused("walls cannot go on the nest or on food".to_string()));
        }
        if self.cell.iter().any(|&c| c as usize == i) {
            return Err(SceneError::Refused(format!("an ant stands at ({}, {})", p.x, p.y)));
        }
        let _ = self.grid.set(p, WALL);
        let _ = self.nest_field.add_wall(p);
        if let Some(f) = self.food_field.as_mut() {
            let _ = f.add_wall(p);
        }
        self.pheromone[i] = 0.0;
        self.rebuild_routes();
        Ok(format!("wall placed at ({}, {})", p.x, p.y))
    }

    fn clear_wall(&mut self, p: Point) -> Result<String, SceneError> {
        let i = self.grid.index(p);
        if self.grid.cells()[i] != WALL {
            return Err(SceneError::Refused(format!("({}, {}) is not a wall", p.x, p.y)));
        }
        let _ = self.grid.set(p, GROUND);
        let _ = self.nest_field.break_wall(p);
        if let Some(f) = self.food_field.as_mut() {
            let _ = f.break_wall(p);
        }
        self.rebuild_routes();
        Ok(format!("wall cleared at ({}, {})", p.x, p.y))
    }

    fn remove_food(&mut self, at: Vec2) -> Result<String, SceneError> {
        let near = self
            .sources
            .iter()
            .enumerate()
            .map(|(s, src)| (s, self.centre(src.cell).distance(at)))
            .filter(|&(_, d)| d <= 2.5)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let Some((s, _)) = near else {
            return Err(SceneError::Refused("no food source within two cells of that point".to_string()));
        };
        let src = self.sources.remove(s);
        self.removed += u64::from(src.left);
        self.source_at.fill(NO_SOURCE);
        for (k, src) in self.sources.iter().enumerate() {
            self.source_at[src.cell] = k as u16;
        }
        self.rebuild_food_field();
        self.rebuild_routes();
        let p = self.grid.point_at(src.cell);
        Ok(format!("food source at ({}, {}) removed with {} food left", p.x, p.y, src.left))
    }
}

impl Scene for AntColony {
    fn name(&self) -> &'static str {
        "ants"
    }

    fn grid(&self) -> &Grid {
        &self.grid
    }

    fn cell_size(&self) -> f32 {
        1.0
    }

    fn dt(&self) -> f32 {
        0.1
    }

    fn step(&mut self) {
        for i in 0..self.cell.len() {
            self.move_ant(i);
        }
        self.evaporate();
        self.steps += 1;
    }

    fn steps(&self) -> u64 {
        self.steps
    }

    fn len(&self) -> usize {
        self.cell.len()
    }

    fn kinds(&self) -> Vec<&'static str> {
        vec!["searching", "carrying"]
    }

    fn frame(&self, selected: Option<usize>, out: &mut Frame) {
        out.clear();
        out.layer.extend_from_slice(&self.pheromone);
        out.layer_max = self.pheromone.iter().copied().fold(self.params.deposit.max(1e-3), f32::max);
        out.layer_label.push_str("pheromone");
        if self.params.guide == Guide::FlowField {
            if let Some(f) = &self.food_field {
                out.directions.extend_from_slice(f.directions());
            }
        }
        out.circle(self.centre(self.nest), 1.5, Ink::Nest);
        for src in &self.sources {
            let r = if src.initial == 0 { 0.0 } else { (src.left as f32 / src.initial as f32).sqrt() };
            out.circle(self.centre(src.cell), 0.3 + 1.2 * r, Ink::Goal);
        }
        for src in &self.sources {
            let mut at = src.cell;
            let mut guard = 0;
            while let Some(n) = self.nest_field.next(at) {
                out.line(self.centre(at), self.centre(n), Ink::Route);
                at = n;
                guard += 1;
                if guard > self.grid.len() {
                    break;
                }
            }
        }
        for i in 0..self.cell.len() {
            let (dx, dy) = RING[usize::from(self.heading[i])];
            let kind = u8::from(self.carrying[i]);
            out.agent(self.centre(self.cell[i] as usize), Vec2::new(dx as f32, dy as f32), 0.35, kind);
        }
        if let Some(i) = selected.filter(|&i| i < self.cell.len()) {
            let d = &self.decision[i];
            let from = self.centre(d.from as usize);
            for j in 0..usize::from(d.n) {
                let t = self.centre(d.sensed[j] as usize);
                out.line(from, t, Ink::Preferred);
                out.circle(t, 0.1 + 0.4 * d.chance[j], Ink::Reach);
            }
            out.line(from, self.centre(self.cell[i] as usize), Ink::Chosen);
            // Where its field would take it next, when one guides it.
            let field = if self.carrying[i] {
                Some(&self.nest_field)
            } else if self.params.guide == Guide::FlowField {
                self.food_field.as_ref()
            } else {
                None
            };
            if let Some(f) = field {
                let mut at = self.cell[i] as usize;
                for _ in 0..40 {
                    let Some(n) = f.next(at) else { break };
                    out.line(self.centre(at), self.centre(n), Ink::Link);
                    at = n;
                }
            }
        }
    }

    fn metrics(&self) -> Vec<Metric> {
        let minutes = self.steps as f64 * f64::from(self.dt()) / 60.0;
        let per_minute = if self.steps == 0 { f64::NAN } else { self.delivered as f64 / minutes };
        let trip = if self.delivered == 0 {
            f64::NAN
        } else {
            self.trip_steps as f64 * f64::from(self.dt()) / self.delivered as f64
        };
        let (on, off) = self.trail_strength();
        vec![
            Metric { name: "delivered", label: "Food delivered", value: self.delivered as f64, unit: "" },
            Metric { name: "per-minute", label: "Deliveries per minute", value: per_minute, unit: "/min" },
            Metric { name: "trip-time", label: "Mean trip time", value: trip, unit: "s" },
            Metric { name: "food-left", label: "Food left", value: self.food_left() as f64, unit: "" },
            Metric { name: "carried", label: "Food being carried", value: self.carried() as f64, unit: "" },
            Metric { name: "trail", label: "Pheromone on routes (mean)", value: on, unit: "" },
            Metric { name: "background", label: "Pheromone elsewhere (mean)", value: off, unit: "" },
        ]
    }

    fn params(&self) -> Vec<Param> {
        RANGES
            .iter()
            .map(|&(name, label, min, max, step)| Param {
                name,
                label,
                min,
                max,
                step,
                value: self.params.value(name),
                choices: if name == "guide" { Guide::NAMES.to_vec() } else { Vec::new() },
            })
            .collect()
    }

    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError> {
        let Some(&(name, _, min, max, _)) = RANGES.iter().find(|r| r.0 == name) else {
            return Err(SceneError::UnknownParam(name.to_string()));
        };
        if value.is_nan() {
            return Err(SceneError::Invalid(format!("{name} must be a number")));
        }
        let v = value.clamp(min, max);
        self.params.put(name, v);
        if v == value {
            Ok(None)
        } else {
            Ok(Some(format!("{name} clamped to {v} (allowed {min}..={max})")))
        }
    }

    fn actions(&self) -> Vec<Action> {
        vec![
            Action { name: "place-food", label: "Place food" },
            Action { name: "remove-food", label: "Remove food" },
            Action { name: "place-wall", label: "Place wall" },
            Action { name: "clear-wall", label: "Clear wall" },
        ]
    }

    fn act(&mut self, action: &str, at: Vec2) -> Result<String, SceneError> {
        match action {
            "place-food" => {
                let p = self.cell_at(at)?;
                self.check_source_cell(p)?;
                let food = self.params.food_per_source;
                self.add_source(p, food);
                self.rebuild_food_field();
                self.rebuild_routes();
                Ok(format!("food source of {food} placed at ({}, {})", p.x, p.y))
            }
            "remove-food" => {
                if !at.is_finite() {
                    return Err(SceneError::Invalid("the point clicked is not a number".to_string()));
                }
                self.remove_food(at)
            }
            "place-wall" => {
                let p = self.cell_at(at)?;
                self.place_wall(p)
            }
            "clear-wall" => {
                let p = self.cell_at(at)?;
                self.clear_wall(p)
            }
            _ => Err(SceneError::UnknownAction(action.to_string())),
        }
    }
}
