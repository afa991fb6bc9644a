//! Theta*: A* whose nodes may take their parent's parent as their own parent when it is in
//! sight, so that paths run at any angle instead of along grid moves.
//!
//! Expanding a node `s` looks at each neighbour `n` as A* does, with one change (the
//! course's "path 2"): when `parent(s)` has [line of sight](super::sight) to `n`, the
//! candidate for `n` is `g(parent(s)) + |parent(s) n|` with `parent(s)` as its parent;
//! otherwise it is A*'s `g(s) + |s n|` with `s` as parent ("path 1"). Since
//! `g(s) = g(parent(s)) + |parent(s) s|`, path 2 is never longer than path 1 when it exists.
//!
//! # Never longer than A*'s grid path
//!
//! With weight 1, Theta*'s path is never longer than the optimal grid path under the same
//! diagonal rule. Sketch: say every node expanded so far had `g` at most its grid distance
//! `d`, and `s` is expanded next. On a shortest grid path to `s`, take the first node `v` not
//! yet closed; its predecessor `u` was closed with `g(u) <= d(u)` and, when expanded, offered
//! `v` a cost at most `g(u) + |u v| <= d(v)` (path 2 is never longer than path 1). Since the
//! straight-line estimate never exceeds a grid distance, `g(s) + h(s) <= g(v) + h(v) <=
//! d(v) + h(v) <= d(s) + h(s)`, so `g(s) <= d(s)`; the goal included. It is not the shortest
//! any-angle path in general.
//!
//! # Settings
//!
//! - **Lengths**: every cost is the straight-line (Euclidean) distance between cell centres;
//!   a straight neighbour is 1 away and a diagonal one sqrt(2), as with A*'s real costs.
//! - **Heuristic**: always the straight-line distance to the goal, whatever the heuristic
//!   setting says. It is the only estimate on the menu that is both informative and never
//!   too high for paths at any angle: octile and Manhattan overestimate a segment such as
//!   (0,0)-(2,1), which is sqrt(5) = 2.24 long, not 2.41 or 3. The weight is honoured:
//!   `f = g + weight x h`.
//! - **Integer costs** (10 and 14): the search runs in true lengths, so the path is exactly
//!   the one real costs give, and every length it reports (g, h and the cost) is multiplied
//!   by 10. A diagonal neighbour therefore shows as 14.14, not 14: an any-angle segment has no
//!   integer length in general.
//! - **Terrain** (cells above 1) is refused with a message: a straight segment crosses cells
//!   of different costs, which these searches do not weigh. Painting terrain is refused too.
//! - **Diagonal rule**: decides the neighbours expanded, as for A*, and the corners a line of
//!   sight may pass (see [`sight`](super::sight)). Under `never` the search expands only the
//!   four straight neighbours, but its segments may still run at any angle.
//!
//! # Stepping and buffers
//!
//! One step is one expansion; the step that takes the goal off the open list ends the
//! search. Ties go as in A*: lowest f, then highest g, then first opened; neighbours are
//! examined N, E, S, W, then NE, SE, SW, NW. Closed nodes are never reopened. The parent
//! buffer holds each node's any-angle parent, which need not be a neighbour, and
//! [`path_indices`](Stepper::path_indices) gives the path's vertices (its corners), start
//! and goal included; those vertices are also the cells whose state is `path`.
//!
//! The overlay of a step shows each line-of-sight test it made (`sight` when it passed,
//! `blocked` when not, from the tested parent to the neighbour) and each parent change of
//! a node already open (`rewire`, from the node to its new parent). A neighbour already open
//! at a cost no higher than path 2 would give is not tested: path 1 could not beat it either,
//! so the test could change nothing.

use super::engine::{check_ends, paint_cells};
use super::open_list::{Calendar, OpenList};
use super::sight::{distance, point_distance, sees};
use super::stepper::keeps_grid_and_ends;
use super::{
    astar, Algorithm, CellState, EventLog, LineKind, NoRecord, NodeTable, OpenEntry, Overlay, OverlayLine, Path,
    Recorder, SearchConfig, SearchError, Status, StepEvent, Stepper, NO_PARENT,
};
use crate::grid::{Costs, Diagonal, Grid, Point, GROUND};

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;

/// Finds an any-angle path with Theta* (weight 1, real lengths) and returns its vertices and
/// length, or `None` when the goal is unreachable.
///
/// - `grid`: the cells (walls and ground only; terrain is refused);
/// - `start`, `goal`: the ends, both open cells inside the grid;
/// - `diagonal`: which neighbours are expanded and which corners a line of sight may pass.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::search::theta::theta;
/// let grid = Grid::new(8, 5).unwrap();
/// let path = theta(&grid, Point::new(0, 0), Point::new(7, 3), Diagonal::NoCornerCutting).unwrap().unwrap();
/// // Open ground: one straight segment, sqrt(7² + 3²) long.
/// assert_eq!(path.points, vec![Point::new(0, 0), Point::new(7, 3)]);
/// assert!((path.cost - 58f64.sqrt()).abs() < 1e-12);
/// ```
pub fn theta(grid: &Grid, start: Point, goal: Point, diagonal: Diagonal) -> Result<Option<Path>, SearchError> {
    let config = SearchConfig::new(Algorithm::Theta).diagonal(diagonal);
    let mut search = ThetaStar::new(grid.clone(), start, goal, config)?;
    search.run();
    Ok(Stepper::path(&search))
}

/// Refuses a grid with terrain for an any-angle algorithm.
pub(crate) fn check_no_terrain(grid: &Grid, algorithm: Algorithm) -> Result<(), SearchError> {
    if grid.cells().iter().any(|&c| c > GROUND) {
        Err(terrain_refused(algorithm))
    } else {
        Ok(())
    }
}

/// The message for terrain under an any-angle algorithm.
pub(crate) fn terrain_refused(algorithm: Algorithm) -> SearchError {
    SearchError::Unsupported(format!(
        "{algorithm} cannot search terrain (cells costing more than 1): its straight segments cross \
         cells of different costs, which it does not weigh; use A* or Dijkstra on weighted maps, \
         or clear the terrain"
    ))
}

/// What every length is multiplied by when reported: 1 for real costs, 10 for the integer
/// model (straight 10), so that a straight neighbour shows as 10.
pub(crate) const fn report_scale(costs: Costs) -> f64 {
    costs.straight()
}

/// Theta* and Lazy Theta*: any-angle A* over cell centres, one expansion per step.
///
/// See the [module documentation](self) for the settings and what the buffers hold, and
/// [`lazy_theta`](super::lazy_theta) for the lazy variant.
#[derive(Clone, Debug)]
pub struct ThetaStar {
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    /// Lazy Theta*: assume sight when opening, check when expanding.
    lazy: bool,
    /// Reported lengths are true lengths times this.
    scale: f64,
    /// State, parents, counters, path, and g in true lengths.
    nodes: NodeTable,
    /// `g` times `scale`, kept only when `scale` is not 1.
    shown: Vec<f64>,
    open_list: OpenList<Calendar>,
    current: u32,
    sight_checks: usize,
    lines: Vec<OverlayLine>,
}

impl ThetaStar {
    /// Sets up Theta* (`config.algorithm` = [`Algorithm::Theta`]) or Lazy Theta*
    /// ([`Algorithm::LazyTheta`]). Fails when an end is outside the grid or on a wall, the
    /// weight is not allowed, the grid has terrain, or the algorithm is another one.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        let lazy = match config.algorithm {
            Algorithm::Theta => false,
            Algorithm::LazyTheta => true,
            other => {
                return Err(SearchError::Unsupported(format!(
                    "{other} is not Theta* or Lazy Theta*: build it with search::build"
                )))
            }
        };
        check_no_terrain(&grid, config.algorithm)?;
        check_ends(&grid, start, goal)?;
        let n = grid.len();
        let scale = report_scale(config.costs);
        let mut search = Self {
            grid,
            start,
            goal,
            config,
            lazy,
            scale,
            nodes: NodeTable::new(n),
            shown: if scale == 1.0 { Vec::new() } else { vec![f64::INFINITY; n] },
            open_list: OpenList::new(config.weight == 1.0),
            current: NO_PARENT,
            sight_checks: 0,
            lines: Vec::new(),
        };
        search.reset();
        Ok(search)
    }

    /// Goes back to step 0: only the start is open.
    pub fn reset(&mut self) {
        let scaled = !self.shown.is_empty();
        if scaled {
            for &i in self.nodes.touched() {
                self.shown[i as usize] = f64::INFINITY;
            }
        }
        self.nodes.reset();
        self.open_list.clear();
        self.lines.clear();
        self.current = NO_PARENT;
        self.sight_checks = 0;
        let s = self.grid.index(self.start);
        self.nodes.open(s as u32, 0.0, NO_PARENT);
        if scaled {
            self.shown[s] = 0.0;
        }
        let (key, tie) = astar::priority(0.0, self.h_true(s), self.config.weight);
        self.open_list.push(key, tie, s as u32);
    }

    /// The straight-line distance from cell `i` to the goal, in true lengths.
    #[inline]
    fn h_true(&self, i: usize) -> f64 {
        distance(self.grid.width(), i, self.grid.index(self.goal))
    }

    /// Line-of-sight tests made since step 0.
    pub fn sight_checks(&self) -> usize {
        self.sight_checks
    }

    /// Performs one step (one expansion, or the final pop of the goal).
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` what it expanded, opened and improved (lengths
    /// as reported: times 10 under integer costs).
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.nodes.status.is_finished() {
            return StepEvent::Finished;
        }
        if self.current != NO_PARENT {
            self.nodes.set_state(self.current, CellState::Closed);
            self.current = NO_PARENT;
        }
        self.nodes.steps += 1;
        self.nodes.status = Status::Searching;
        self.lines.clear();
        let node = loop {
            let Some(n) = self.open_list.pop_open(self.nodes.state()) else {
                self.nodes.status = Status::NoPath;
                self.nodes.open = 0;
                return StepEvent::NoPath;
            };
            let n = n as usize;
            // Lazy Theta*: a node whose parent proves out of sight goes back on the open list
            // with its corrected cost (see `lazy_theta`).
            if self.lazy && self.set_vertex(n, recorder) {
                let (key, tie) = astar::priority(self.nodes.g()[n], self.h_true(n), self.config.weight);
                self.open_list.push(key, tie, n as u32);
                continue;
            }
            break n;
        };
        self.nodes.open -= 1;
        if node == self.grid.index(self.goal) {
            self.nodes.trace_path(node as u32);
            self.nodes.status = Status::Found;
            return StepEvent::Found { cost: self.nodes.g()[node] * self.scale };
        }
        self.nodes.set_state(node as u32, CellState::Current);
        self.current = node as u32;
        self.nodes.expanded += 1;
        recorder.expanded(node as u32);
        if self.lazy {
            self.expand_lazy(node, recorder);
        } else {
            self.expand(node, recorder);
        }
        StepEvent::Expanded(self.grid.point_at(node))
    }

    /// Theta*'s expansion of `s`: path 2 through `parent(s)` when it sees the neighbour,
    /// else path 1 through `s`.
    fn expand<R: Recorder>(&mut self, s: usize, recorder: &mut R) {
        let Self { grid, config, nodes, sight_checks, lines, .. } = self;
        let grid: &Grid = grid;
        let (state, g, parent) = (nodes.state(), nodes.g(), nodes.parent());
        let w = grid.width();
        let p = parent[s];
        let rule = config.diagonal;
        let mut candidates = [(0usize, 0usize, 0.0f64); 8];
        let mut count = 0;
        grid.for_each_neighbour_of(grid.point_at(s), rule, |nb, _, _| {
            if state[nb] == CLOSED {
                return;
            }
            let (via, new_g) = if p == NO_PARENT {
                (s, g[s] + distance(w, s, nb))
            } else {
                let pi = p as usize;
                let through_parent = g[pi] + distance(w, pi, nb);
                // Path 1 is never shorter than path 2: when path 2 would not improve `nb`,
                // neither would path 1, and the test is skipped.
                if state[nb] != UNSEEN && through_parent >= g[nb] {
                    return;
                }
                *sight_checks += 1;
                if sees(grid, pi, nb, rule) {
                    lines.push(OverlayLine { from: p, to: nb as u32, kind: LineKind::Sight });
                    (pi, through_parent)
                } else {
                    lines.push(OverlayLine { from: p, to: nb as u32, kind: LineKind::Blocked });
                    (s, g[s] + distance(w, s, nb))
                }
            };
            candidates[count] = (nb, via, new_g);
            count += 1;
        });
        for &(nb, via, new_g) in &candidates[..count] {
            self.relax(nb, via, new_g, recorder);
        }
    }

    /// Opens `nb` with parent `via` and cost `new_g`, or improves it if that is cheaper.
    #[inline]
    pub(super) fn relax<R: Recorder>(&mut self, nb: usize, via: usize, new_g: f64, recorder: &mut R) {
        let st = self.nodes.state()[nb];
        if st != UNSEEN && new_g >= self.nodes.g()[nb] {
            return;
        }
        let old_g = if st == OPEN {
            if self.nodes.parent()[nb] != via as u32 {
                self.lines.push(OverlayLine { from: nb as u32, to: via as u32, kind: LineKind::Rewire });
            }
            Some(self.nodes.g()[nb] * self.scale)
        } else {
            None
        };
        self.nodes.open(nb as u32, new_g, via as u32);
        if !self.shown.is_empty() {
            self.shown[nb] = new_g * self.scale;
        }
        let (key, tie) = astar::priority(new_g, self.h_true(nb), self.config.weight);
        self.open_list.push(key, tie, nb as u32);
        recorder.opened(nb as u32, via as u32, old_g, new_g * self.scale);
    }

    /// Sets node `i`'s cost and parent (the lazy variant's correction).
    pub(super) fn set_parent(&mut self, i: usize, parent: usize, g: f64) {
        self.nodes.set_g(i as u32, g, parent as u32);
        if !self.shown.is_empty() {
            self.shown[i] = g * self.scale;
        }
    }

    /// Records a line-of-sight test for the overlay and counts it.
    pub(super) fn note_test(&mut self, from: usize, to: usize, passed: bool) {
        self.sight_checks += 1;
        let kind = if passed { LineKind::Sight } else { LineKind::Blocked };
        self.lines.push(OverlayLine { from: from as u32, to: to as u32, kind });
    }

    /// Records a parent change for the overlay.
    pub(super) fn note_rewire(&mut self, node: usize, parent: usize) {
        self.lines.push(OverlayLine { from: node as u32, to: parent as u32, kind: LineKind::Rewire });
    }

    /// What reported lengths are multiplied by.
    pub(super) fn scale(&self) -> f64 {
        self.scale
    }

    /// The grid, the state and the true costs, for the lazy variant.
    pub(super) fn parts(&self) -> (&Grid, &[u8], &[f64], &[u32], Diagonal) {
        (&self.grid, self.nodes.state(), self.nodes.g(), self.nodes.parent(), self.config.diagonal)
    }

    /// Sets the listed cells to `value` like a brush stroke (see [`Stepper::paint`]);
    /// terrain is refused.
    pub fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        if value > GROUND {
            return Err(terrain_refused(self.config.algorithm));
        }
        let changed = paint_cells(&mut self.grid, self.start, self.goal, cells.iter().copied(), value);
        if changed > 0 {
            self.reset();
        }
        Ok(changed)
    }

    /// Moves the start and goal; back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.start = start;
        self.goal = goal;
        self.reset();
        Ok(())
    }

    /// The path's length once found (times 10 under integer costs).
    pub fn cost(&self) -> Option<f64> {
        (self.nodes.status == Status::Found).then(|| self.nodes.g()[self.grid.index(self.goal)] * self.scale)
    }
}

impl Stepper for ThetaStar {
    fn step_logged(&mut self, log: &mut EventLog) -> StepEvent {
        log.clear();
        self.step_with(log)
    }

    fn step(&mut self) -> StepEvent {
        ThetaStar::step(self)
    }

    fn reset(&mut self) {
        ThetaStar::reset(self);
    }

    fn nodes(&self) -> &NodeTable {
        &self.nodes
    }

    fn cost(&self) -> Option<f64> {
        ThetaStar::cost(self)
    }

    /// Lengths as reported (times 10 under integer costs).
    fn g_values(&self) -> &[f64] {
        if self.shown.is_empty() {
            self.nodes.g()
        } else {
            &self.shown
        }
    }

    keeps_grid_and_ends!();

    fn h(&self, p: Point) -> f64 {
        point_distance(p, self.goal) * self.scale
    }

    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        ThetaStar::paint(self, cells, value)
    }

    /// The open list in the order it gives cells up, lengths as reported. For Theta* the
    /// first entry is the next cell expanded (or the goal, found); Lazy Theta* takes it off
    /// the list next too, but may find its assumed parent out of sight and put it back with
    /// a higher cost instead of expanding it.
    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        let g_h = |i: usize| (self.nodes.g()[i] * self.scale, self.h_true(i) * self.scale);
        self.open_list.open_entries(limit, &self.nodes, self.config.weight, g_h)
    }

    fn overlay(&self) -> Overlay {
        Overlay {
            lines: self.lines.clone(),
            notes: vec![
                ("heuristic", "euclidean (straight line)".to_string()),
                ("line-of-sight checks", self.sight_checks.to_string()),
            ],
            ..Overlay::default()
        }
    }
}
