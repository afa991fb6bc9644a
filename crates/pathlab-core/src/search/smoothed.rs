//! A* with post-smoothing: an A* grid path, then string-pulled by the course's grandparent
//! line-of-sight method.
//!
//! # The method
//!
//! First A* runs as usual (with the heuristic and weight of the settings) and finds a path
//! of cells `c0 (start), c1, ..., cn (goal)`, each the parent of the next. Then the cells are
//! pulled one at a time from `c2` to the goal. To pull `ci`: look at its parent's parent (its
//! grandparent); while the node looked at is in [sight](super::sight) of `ci`, move on to that
//! node's parent; stop at the first that is not in sight (or at the start), and make the last
//! one that was in sight the parent of `ci`. Earlier cells have already been pulled, so the
//! parents looked at are the pulled ones. The smoothed path is the goal's chain of parents.
//!
//! Each new parent replaces a chain of segments by one straight segment between the same
//! two points, so smoothing never makes the path longer, and every segment kept is a line
//! of sight, so it never crosses a wall. It is not guaranteed to find the shortest any-angle
//! path: it only straightens the path A* chose.
//!
//! # Stepping and buffers
//!
//! Steps `1..=k` are the A* expansions (the `k`-th takes the goal off the open list; if the
//! path has three cells or more it reports [`StepEvent::Expanded`] of the goal without
//! counting an expansion, and the search goes on). Then each step pulls one cell and reports
//! it as `Expanded(cell)` (again not counted as an expansion); the step that pulls the goal
//! reports [`StepEvent::Found`] with the smoothed length. A path of one or two cells has
//! nothing to pull and is found at the goal's pop.
//!
//! The state, g and parent buffers are A*'s: the cells of the raw path have the state
//! `path`, and the parent buffer keeps A*'s parents. [`cost`](Stepper::cost) is the smoothed
//! path's length and [`path_indices`](Stepper::path_indices) its vertices.
//!
//! The overlay shows, once the raw path is known, its moves as `raw-path` lines; in a pulling
//! step, the tests made (`sight` or `blocked`, from the node looked at to the cell pulled) and
//! the cell's new parent (`rewire`); in the last step, also the smoothed path's segments as
//! `sight` lines.
//!
//! # Settings
//!
//! Lengths are true lengths (a smoothed segment is as long as the straight line). With
//! integer costs, A* runs in real costs too, so that smoothing compares like with like, and
//! every length reported (g, h and the cost) is multiplied by 10. Terrain is refused, as for
//! [Theta*](super::theta), since a shortcut would cross cells of different costs.

use super::sight::{distance, sees};
use super::stepper::grid_and_ends_of_search;
use super::theta::{check_no_terrain, report_scale, terrain_refused};
use super::{
    Algorithm, EventLog, GridStepper, LineKind, NoRecord, NodeTable, OpenEntry, Overlay, OverlayLine, Path, Recorder,
    Search, SearchConfig, SearchError, Status, StepEvent, Stepper,
};
use crate::grid::{Costs, Diagonal, Grid, Point, GROUND};
use crate::heuristic::Heuristic;

/// No pulled parent (the start).
const NONE: u32 = u32::MAX;

/// Finds a path with A* (weight 1, real costs) and smooths it; returns the smoothed path's
/// vertices and length, or `None` when the goal is unreachable.
///
/// - `grid`: the cells (walls and ground only; terrain is refused);
/// - `start`, `goal`: the ends, both open cells inside the grid;
/// - `heuristic`: A*'s estimate; `diagonal`: A*'s moves and the corners a line of sight may
///   pass.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::smoothed::astar_smoothed;
/// // On open ground A* goes diagonally then straight; smoothing pulls that into one line.
/// let grid = Grid::new(6, 3).unwrap();
/// let path = astar_smoothed(&grid, Point::new(0, 0), Point::new(5, 2), Heuristic::Octile, Diagonal::NoCornerCutting)
///     .unwrap()
///     .unwrap();
/// assert_eq!(path.points, vec![Point::new(0, 0), Point::new(5, 2)]);
/// assert!((path.cost - 29f64.sqrt()).abs() < 1e-12);
/// ```
pub fn astar_smoothed(
    grid: &Grid,
    start: Point,
    goal: Point,
    heuristic: Heuristic,
    diagonal: Diagonal,
) -> Result<Option<Path>, SearchError> {
    let config = SearchConfig::new(Algorithm::AStarSmoothed).heuristic(heuristic).diagonal(diagonal);
    let mut search = SmoothedAStar::new(grid.clone(), start, goal, config)?;
    search.run();
    Ok(Stepper::path(&search))
}

/// A* followed by string-pulling, one expansion or one pulled cell per step.
///
/// See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct SmoothedAStar {
    /// A* with the same settings but real costs.
    search: Search,
    config: SearchConfig,
    /// Reported lengths are true lengths times this.
    scale: f64,
    /// A*'s g times `scale`, kept only when `scale` is not 1.
    shown: Vec<f64>,
    shown_touched: Vec<u32>,
    status: Status,
    steps: usize,
    /// A*'s path, start to goal; empty until A* finds it.
    raw: Vec<u32>,
    /// For each position on `raw`, the position of its (pulled) parent; `NONE` for the start.
    pulled: Vec<u32>,
    /// The next position on `raw` to pull.
    next: usize,
    /// The smoothed path's vertices once found.
    path: Vec<u32>,
    /// The smoothed path's true length once found.
    length: f64,
    sight_checks: usize,
    lines: Vec<OverlayLine>,
}

/// Passes A*'s events on with lengths multiplied, and keeps the multiplied g buffer.
struct Scaled<'a, R> {
    recorder: &'a mut R,
    shown: &'a mut [f64],
    touched: &'a mut Vec<u32>,
    scale: f64,
}

impl<R: Recorder> Recorder for Scaled<'_, R> {
    fn expanded(&mut self, node: u32) {
        self.recorder.expanded(node);
    }

    fn opened(&mut self, node: u32, parent: u32, old_g: Option<f64>, new_g: f64) {
        let slot = &mut self.shown[node as usize];
        if slot.is_infinite() {
            self.touched.push(node);
        }
        *slot = new_g * self.scale;
        self.recorder.opened(node, parent, old_g.map(|g| g * self.scale), new_g * self.scale);
    }
}

impl SmoothedAStar {
    /// Sets up A* with post-smoothing (`config.algorithm` =
    /// [`Algorithm::AStarSmoothed`]). Fails when an end is outside the grid or on a wall, the
    /// weight is not allowed, the grid has terrain, or the algorithm is another one.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        if config.algorithm != Algorithm::AStarSmoothed {
            return Err(SearchError::Unsupported(format!(
                "{} is not A* with smoothing: build it with search::build",
                config.algorithm
            )));
        }
        check_no_terrain(&grid, config.algorithm)?;
        let inner = SearchConfig { algorithm: Algorithm::AStar, costs: Costs::Real, ..config };
        let n = grid.len();
        let search = Search::new(grid, start, goal, inner)?;
        let scale = report_scale(config.costs);
        let mut smoothed = Self {
            search,
            config,
            scale,
            shown: if scale == 1.0 { Vec::new() } else { vec![f64::INFINITY; n] },
            shown_touched: Vec::new(),
            status: Status::Ready,
            steps: 0,
            raw: Vec::new(),
            pulled: Vec::new(),
            next: 0,
            path: Vec::new(),
            length: 0.0,
            sight_checks: 0,
            lines: Vec::new(),
        };
        smoothed.reset();
        Ok(smoothed)
    }

    /// Goes back to step 0.
    pub fn reset(&mut self) {
        self.search.reset();
        if !self.shown.is_empty() {
            for &i in &self.shown_touched {
                self.shown[i as usize] = f64::INFINITY;
            }
            self.shown_touched.clear();
            let s = self.search.grid().index(self.search.start());
            self.shown[s] = 0.0;
            self.shown_touched.push(s as u32);
        }
        self.status = Status::Ready;
        self.steps = 0;
        self.raw.clear();
        self.pulled.clear();
        self.next = 0;
        self.path.clear();
        self.length = 0.0;
        self.sight_checks = 0;
        self.lines.clear();
    }

    /// Line-of-sight tests made since step 0.
    pub fn sight_checks(&self) -> usize {
        self.sight_checks
    }

    /// A*'s path (every cell, start to goal) once A* has found it; empty before.
    pub fn raw_path(&self) -> &[u32] {
        &self.raw
    }

    /// Performs one step: an A* expansion, or the pull of one path cell.
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` what A* expanded, opened and improved (lengths
    /// as reported: times 10 under integer costs). Pulling steps record nothing.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        self.steps += 1;
        self.status = Status::Searching;
        self.lines.clear();
        if !self.raw.is_empty() {
            return self.pull_next();
        }
        let event = if self.shown.is_empty() {
            self.search.step_with(recorder)
        } else {
            let mut scaled =
                Scaled { recorder, shown: &mut self.shown, touched: &mut self.shown_touched, scale: self.scale };
            self.search.step_with(&mut scaled)
        };
        match event {
            StepEvent::Found { .. } => {
                self.raw.extend_from_slice(self.search.path_indices());
                self.pulled.extend((0..self.raw.len() as u32).map(|i| i.checked_sub(1).unwrap_or(NONE)));
                self.next = 2;
                self.raw_path_lines();
                if self.raw.len() <= 2 {
                    self.finish()
                } else {
                    StepEvent::Expanded(self.search.goal())
                }
            }
            StepEvent::NoPath => {
                self.status = Status::NoPath;
                StepEvent::NoPath
            }
            other => other,
        }
    }

    /// Pulls the cell at position `next` of the raw path.
    fn pull_next(&mut self) -> StepEvent {
        let i = self.next;
        self.next += 1;
        self.raw_path_lines();
        let grid = self.search.grid();
        let rule = self.config.diagonal;
        let target = self.raw[i] as usize;
        let parent = self.pulled[i];
        let mut best = parent;
        let mut looked = self.pulled[parent as usize];
        while looked != NONE {
            let from = self.raw[looked as usize];
            self.sight_checks += 1;
            if sees(grid, from as usize, target, rule) {
                self.lines.push(OverlayLine { from, to: target as u32, kind: LineKind::Sight });
                best = looked;
                looked = self.pulled[looked as usize];
            } else {
                self.lines.push(OverlayLine { from, to: target as u32, kind: LineKind::Blocked });
                break;
            }
        }
        if best != parent {
            self.pulled[i] = best;
            self.lines.push(OverlayLine { from: target as u32, to: self.raw[best as usize], kind: LineKind::Rewire });
        }
        if self.next == self.raw.len() {
            self.finish()
        } else {
            StepEvent::Expanded(self.search.grid().point_at(target))
        }
    }

    /// Adds the raw path's moves to the overlay.
    fn raw_path_lines(&mut self) {
        self.lines.extend(self.raw.windows(2).map(|m| OverlayLine { from: m[0], to: m[1], kind: LineKind::RawPath }));
    }

    /// Follows the pulled parents from the goal: the smoothed path and its length.
    fn finish(&mut self) -> StepEvent {
        self.path.clear();
        let mut at = self.raw.len() as u32 - 1;
        while at != NONE {
            self.path.push(self.raw[at as usize]);
            at = self.pulled[at as usize];
        }
        self.path.reverse();
        let w = self.search.grid().width();
        self.length = self.path.windows(2).map(|s| distance(w, s[0] as usize, s[1] as usize)).sum();
        self.lines.extend(self.path.windows(2).map(|s| OverlayLine { from: s[0], to: s[1], kind: LineKind::Sight }));
        self.status = Status::Found;
        StepEvent::Found { cost: self.length * self.scale }
    }

    /// Sets the listed cells to `value` like a brush stroke (see [`Stepper::paint`]);
    /// terrain is refused.
    pub fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        if value > GROUND {
            return Err(terrain_refused(self.config.algorithm));
        }
        let changed = GridStepper::paint(&mut self.search, cells, value)?;
        if changed > 0 {
            self.reset();
        }
        Ok(changed)
    }

    /// Moves the start and goal; back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        self.search.set_ends(start, goal)?;
        self.reset();
        Ok(())
    }

    /// The smoothed path's length once found (times 10 under integer costs).
    pub fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.length * self.scale)
    }
}

impl Stepper for SmoothedAStar {
    fn step_logged(&mut self, log: &mut EventLog) -> StepEvent {
        log.clear();
        self.step_with(log)
    }

    /// A*'s open list in its exact order (lengths as reported) while A* searches; empty once
    /// it has found the path and the steps pull the path instead.
    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        if !self.raw.is_empty() || self.status.is_finished() {
            return Vec::new();
        }
        let scale = self.scale;
        let mut entries = self.search.open_entries(limit);
        for e in &mut entries {
            e.g *= scale;
            e.h *= scale;
            e.key *= scale;
        }
        entries
    }

    fn step(&mut self) -> StepEvent {
        SmoothedAStar::step(self)
    }

    fn reset(&mut self) {
        SmoothedAStar::reset(self);
    }

    /// A*'s table: states, parents and expansions are A*'s. The steps, status and path are
    /// this stepper's own, since pulling the path takes steps after A* has finished.
    fn nodes(&self) -> &NodeTable {
        self.search.nodes()
    }

    fn status(&self) -> Status {
        self.status
    }

    fn steps(&self) -> usize {
        self.steps
    }

    fn cost(&self) -> Option<f64> {
        SmoothedAStar::cost(self)
    }

    fn path_indices(&self) -> &[u32] {
        &self.path
    }

    /// Lengths as reported (times 10 under integer costs).
    fn g_values(&self) -> &[f64] {
        if self.shown.is_empty() {
            self.search.g_values()
        } else {
            &self.shown
        }
    }

    fn h(&self, p: Point) -> f64 {
        GridStepper::h(&self.search, p) * self.scale
    }

    grid_and_ends_of_search!();

    fn config(&self) -> SearchConfig {
        self.config
    }

    fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        SmoothedAStar::set_ends(self, start, goal)
    }

    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        SmoothedAStar::paint(self, cells, value)
    }

    fn overlay(&self) -> Overlay {
        let mut notes = vec![("line-of-sight checks", self.sight_checks.to_string())];
        if self.status == Status::Found {
            let w = self.grid().width();
            let raw: f64 = self.raw.windows(2).map(|m| distance(w, m[0] as usize, m[1] as usize)).sum();
            notes.push(("raw length", format!("{:.3}", raw * self.scale)));
            notes.push(("smoothed length", format!("{:.3}", self.length * self.scale)));
        }
        Overlay { lines: self.lines.clone(), notes, ..Overlay::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pulls a hand-made path (which A* would not choose) and returns the vertices.
    fn pull(rows: &[&str], raw: &[(usize, usize)]) -> Vec<Point> {
        let cells = rows.iter().flat_map(|r| r.bytes().map(|b| u8::from(b != b'#'))).collect();
        let grid = Grid::from_cells(rows[0].len(), rows.len(), cells).unwrap();
        let (start, goal) = (Point::new(raw[0].0, raw[0].1), Point::new(raw[raw.len() - 1].0, raw[raw.len() - 1].1));
        let config = SearchConfig::new(Algorithm::AStarSmoothed).diagonal(Diagonal::NoCornerCutting);
        let mut s = SmoothedAStar::new(grid.clone(), start, goal, config).unwrap();
        s.raw = raw.iter().map(|&(x, y)| grid.index(Point::new(x, y)) as u32).collect();
        s.pulled = (0..s.raw.len() as u32).map(|i| i.checked_sub(1).unwrap_or(NONE)).collect();
        s.next = 2;
        while s.status != Status::Found {
            s.pull_next();
        }
        s.path.iter().map(|&i| grid.point_at(i as usize)).collect()
    }

    /// ```text
    ///   0 1 2 3 4
    /// 0 S . . . .
    /// 1 . . . . T
    /// 2 . # # # .
    /// 3 . . . . .
    /// ```
    /// The path goes down the left side, along the bottom and up to T. Pulling gives (0,3)
    /// the start as parent, and (1,3) .. (4,3) the parent (0,3). For (4,2), (0,3) is out of
    /// sight (the line enters (2,2)), so its parent stays (4,3). For T, the grandparent (4,3)
    /// is in sight, its parent (0,3) is not (the line enters (1,2)): the walk stops there and
    /// T's parent is (4,3), although the start, one step further back, would see T. That is
    /// the course's rule: stop at the first ancestor out of sight.
    #[test]
    fn pulling_stops_at_the_first_ancestor_out_of_sight() {
        let rows = [".....", ".....", ".###.", "....."];
        let raw = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (4, 2), (4, 1)];
        let p = Point::new;
        assert_eq!(pull(&rows, &raw), vec![p(0, 0), p(0, 3), p(4, 3), p(4, 1)]);
    }

    /// The course's three-by-three example: an obstruction in the centre, the path around it
    /// pulled to the corner cell and on to the goal.
    #[test]
    fn pulling_a_path_around_a_centre_block() {
        let rows = ["...", ".#.", "..."];
        // Down the left side and along the bottom.
        let raw = [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)];
        assert_eq!(pull(&rows, &raw), vec![Point::new(0, 0), Point::new(0, 2), Point::new(2, 2)]);
    }
}
