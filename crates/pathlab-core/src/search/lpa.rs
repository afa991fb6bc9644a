//! Lifelong planning A* (LPA*): A* that keeps its work, so that when walls change it repairs
//! only the cells whose cost changed instead of searching again from scratch.
//!
//! Every cell has `g`, the cost from the start the search has settled on, and `rhs`, a
//! one-move look-ahead: the cheapest `g` of a neighbour plus the move from it (0 at the
//! start). A cell is *consistent* when the two agree. The priority queue holds exactly the
//! inconsistent cells, by the key `[min(g, rhs) + h(s); min(g, rhs)]`, where `h` estimates the
//! cost to the goal. On a new grid only the start is inconsistent, and the search runs like
//! A*. After walls are painted, only the cells around them get a new `rhs`; those that became
//! inconsistent are queued and the repair spreads from there.
//!
//! # One step
//!
//! One step is one iteration of ComputeShortestPath: the first cell on the queue is taken
//! and *expanded*.
//! - *Overconsistent* (`g > rhs`, a cheaper way in is known): `g = rhs`, and each neighbour
//!   is offered `g + the move` as its `rhs`.
//! - *Underconsistent* (`g < rhs`, its way in got dearer or was walled off): `g` is forgotten
//!   (set to infinity) and the cell, and each neighbour whose `rhs` came from it, re-derive
//!   their `rhs` from their other neighbours.
//!
//! The step that finds the search settled ends it instead: [`Found`](Status::Found) when the
//! goal is consistent with a finite `g` and no queued key comes before the goal's,
//! [`NoPath`](Status::NoPath) when the queue is empty and the goal's `g` is infinite. (Keys
//! whose first parts differ by rounding only, 1e-9 relative, count as equal there, so that
//! a cell tied with the goal is repaired before the search stops.)
//!
//! **Ties**: keys are compared on their first part, then their second (smaller first), then
//! the cell that got its key first leaves first. Neighbours are examined N, E, S, W, then NE,
//! SE, SW, NW; a cell's `rhs` comes from the first neighbour giving the lowest value. (Note
//! that the second part favours cells *nearer the start* among equal first parts, unlike
//! this crate's A*, which favours the higher g; LPA* needs that order for its stopping test,
//! and so it may expand more cells than A* on the first search.)
//!
//! # Settings
//!
//! The heuristic, diagonal rule, cost model and terrain (a move pays for the cell it enters,
//! as in [`grid`](crate::grid)) are honoured. The weight must be 1 and the heuristic must
//! never overestimate under the diagonal rule and costs: both are refused otherwise, since
//! LPA*'s test for a finished repair is only right for such estimates (it repairs the
//! optimal path; a weighted variant would need a different stopping rule).
//!
//! # Live edits
//!
//! [`paint`](Lpa::paint) does not start over: it changes the grid, re-derives the `rhs` of the
//! painted cells and their eight neighbours (walls added and walls removed alike, and
//! terrain), queues the inconsistent ones, and the status goes back to
//! [`Searching`](Status::Searching) unless the answer still stands; the steps that follow
//! repair. Each stroke is logged with the step number at which it was made, so going back
//! ([`seek`](Lpa::seek), [`back`](Stepper::back)) to a step before it replays from the grid
//! as it was at step 0 and makes the same strokes at the same steps: stepping back and
//! forward through an edit lands in exactly the states seen the first time.
//! - A stroke at step 0 is a change of map: it becomes part of step 0's grid.
//! - A stroke made after going back, when later strokes are logged, moves those later
//!   strokes to this step (they are made again now, before it), so the painted map stays
//!   whole.
//! - [`reset`](Lpa::reset) goes to step 0 on the latest painted map and forgets the log; so
//!   does [`set_ends`](Lpa::set_ends). The user's map is never lost.
//!
//! [`repair`](Lpa::repair) tells what the last edit cost: the cells it changed, the
//! expansions since, and what a fresh A* (the plain stepper, same heuristic, diagonal rule
//! and costs) expands on the edited grid from the start, computed once per edit.
//!
//! # What the page sees
//!
//! - [`states`](Lpa::states): `open` for cells on the queue (the inconsistent ones),
//!   `closed` for cells expanded at least once, `current` for the cell the last step
//!   expanded, `path` for the path once found.
//! - [`g_values`](Lpa::g_values): `g`; [`cell_values`](Stepper::cell_values): `rhs`;
//!   [`parents`](Lpa::parents): the neighbour each `rhs` came from.
//! - The overlay marks the inconsistent cells (at most 5,000; a note says when there are
//!   more) and notes the first key on the queue, the goal's key, and after an edit what it
//!   changed, what has been re-expanded since and what a fresh A* would expand.
//! - [`path_indices`](Lpa::path_indices), once found: from the goal back to the start, each
//!   cell's predecessor is the neighbour minimising `g(pred) + the move`.

use super::engine::check_ends;
use super::incremental::{
    check_config, incremental_run_methods, incremental_stepper_methods, mark_inconsistent, stroke, Core, Direction,
    EditLog, RepairRecord,
};
use super::stepper::{CellValues, Overlay, Repair};
use super::{Algorithm, EventLog, NoRecord, Recorder, SearchConfig, SearchError, Status, StepEvent, Stepper};
use crate::grid::{Grid, Point};

/// LPA*, one ComputeShortestPath iteration per [`step`](Lpa::step), repairing after
/// [`paint`](Lpa::paint). See the [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::lpa::Lpa;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status};
/// let config = SearchConfig::new(Algorithm::Lpa).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
/// let mut s = Lpa::new(Grid::new(5, 3).unwrap(), Point::new(0, 1), Point::new(4, 1), config).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(4.0));
/// // A wall across the straight way: the search repairs instead of starting over.
/// s.paint([Point::new(2, 1)], WALL);
/// assert_eq!(s.status(), Status::Searching);
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(6.0));
/// let repair = s.repair().unwrap();
/// assert_eq!(repair.changed, 1);
/// assert!(repair.re_expanded > 0);
/// ```
#[derive(Clone, Debug)]
pub struct Lpa {
    core: Core,
    start: Point,
    goal: Point,
    config: SearchConfig,
    log: EditLog,
    status: Status,
    steps: usize,
    path: Vec<u32>,
    repair: Option<RepairRecord>,
}

impl Lpa {
    /// Sets up a search from `start` to `goal` on `grid`. Fails when either end is outside
    /// the grid or on a wall, the weight is not 1, or the heuristic may overestimate.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_config(&config, Algorithm::Lpa)?;
        check_ends(&grid, start, goal)?;
        let log = EditLog::new(grid.clone());
        let mut search = Self {
            core: Core::new(grid, &config, Direction::Forward),
            start,
            goal,
            config,
            log,
            status: Status::Ready,
            steps: 0,
            path: Vec::new(),
            repair: None,
        };
        search.restart();
        Ok(search)
    }

    /// Step 0 on the grid the core holds.
    fn restart(&mut self) {
        self.core.reset(self.start, self.goal);
        self.status = Status::Ready;
        self.steps = 0;
        self.path.clear();
        self.repair = None;
    }

    /// Goes back to step 0 on the latest painted map, forgetting the edit log.
    pub fn reset(&mut self) {
        self.log.forget();
        self.core.grid.clone_from(&self.log.latest);
        self.restart();
    }

    /// Goes back to step 0 on step 0's grid, keeping the edit log for replay.
    fn rewind(&mut self) {
        self.log.rewind();
        self.core.grid.clone_from(&self.log.base);
        self.restart();
        self.apply_due();
    }

    /// Sets every listed cell to `value` as a brush stroke does (cells outside the grid are
    /// skipped, and so are the start and goal under a wall); returns how many changed. At
    /// step 0 the stroke changes the map; later, the search keeps its steps and repairs in
    /// the steps that follow (see the [module documentation](self)).
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let cells: Vec<Point> = cells.into_iter().collect();
        let changed = stroke(&self.core.grid, &cells, value, &[self.start, self.goal]);
        let count = changed.len();
        if count == 0 {
            return 0;
        }
        if self.steps == 0 {
            self.log.fold(&changed, value);
            self.core.grid.clone_from(&self.log.latest);
            self.restart();
        } else {
            let due = self.log.record(self.steps, changed, value);
            self.apply(due);
        }
        count
    }

    /// Makes logged edit `k`: changes the grid, re-derives `rhs` around the cells changed and
    /// settles the status.
    fn apply_one(&mut self, k: usize) {
        let mut changed = Vec::new();
        let edit = &self.log.edits[k];
        for &p in &edit.cells {
            if self.core.grid.get(p).is_some_and(|v| v != edit.value) {
                // Inside: `get` found it.
                let _ = self.core.grid.set(p, edit.value);
                changed.push(self.core.grid.index(p) as u32);
            }
        }
        if changed.is_empty() {
            return;
        }
        self.core.cells_changed(&changed);
        self.repair =
            Some(RepairRecord::add(self.repair.take(), self.steps, changed.len(), self.core.expanded, self.start));
        self.core.clear_path();
        self.path.clear();
        self.status = Status::Searching;
        if self.core.settled(self.goal_index()) {
            self.finish();
        }
    }

    fn goal_index(&self) -> u32 {
        self.core.grid.index(self.goal) as u32
    }

    /// Ends the search once it is settled: found (with the path) or no path.
    fn finish(&mut self) -> StepEvent {
        let goal = self.goal_index();
        let cost = self.core.g[goal as usize];
        if cost.is_infinite() {
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        self.core.clear_current();
        self.path.clear();
        self.path.push(goal);
        if !self.core.walk_to_root(goal, &mut self.path) {
            debug_assert!(false, "LPA*: no way back from the goal along settled cells");
            self.path.clear();
        }
        self.path.reverse();
        self.core.mark_path(&self.path);
        self.status = Status::Found;
        StepEvent::Found { cost }
    }

    /// Performs one step: one ComputeShortestPath iteration, or the step that finds the
    /// search settled.
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` the cell expanded and each `rhs` that changed
    /// (`opened(cell, parent, old rhs, new rhs)`).
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        self.steps += 1;
        self.core.clear_current();
        let goal = self.goal_index();
        let event = match self.core.expand_next(|core| core.settled(goal), recorder) {
            Some(node) => {
                self.status = Status::Searching;
                StepEvent::Expanded(self.core.grid.point_at(node as usize))
            }
            None => self.finish(),
        };
        self.apply_due();
        event
    }

    incremental_run_methods!();

    /// What the last edit cost, once there has been one (`None` before).
    pub fn repair(&self) -> Option<Repair> {
        self.repair.as_ref().map(|r| r.report(self.core.expanded, &self.core.grid, self.goal, &self.config))
    }

    /// The edits logged since step 0 (strokes made after step 0).
    pub fn edits(&self) -> usize {
        self.log.edits.len()
    }

    /// Where the search stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Steps taken since step 0.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Expansions since step 0, repairs included.
    pub fn expanded(&self) -> usize {
        self.core.expanded
    }

    /// Cells on the queue: the inconsistent ones.
    pub fn open_count(&self) -> usize {
        self.core.queue.len()
    }

    /// The path's cost once found.
    pub fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then(|| self.core.g[self.goal_index() as usize])
    }

    /// The path once found, as row-major indices from start to goal (empty before).
    pub fn path_indices(&self) -> &[u32] {
        &self.path
    }

    /// One [`CellState`](super::CellState) byte per cell, row-major.
    pub fn states(&self) -> &[u8] {
        &self.core.state
    }

    /// `g` per cell (infinite where not settled), row-major.
    pub fn g_values(&self) -> &[f64] {
        &self.core.g
    }

    /// `rhs` per cell (infinite where no neighbour offers a cost), row-major.
    pub fn rhs_values(&self) -> &[f64] {
        &self.core.rhs
    }

    /// The neighbour each cell's `rhs` came from, or [`NO_PARENT`](super::NO_PARENT).
    pub fn parents(&self) -> &[u32] {
        &self.core.parent
    }

    /// The grid searched (with the edits made so far).
    pub fn grid(&self) -> &Grid {
        &self.core.grid
    }

    /// The overlay: the inconsistent cells and the keys, and what the last edit cost.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        mark_inconsistent(&self.core, &mut overlay);
        overlay.notes.push(("top key", self.core.queue.top_key().describe()));
        overlay.notes.push(("goal key", self.core.key(self.goal_index()).describe()));
        if let Some(repair) = self.repair() {
            overlay.notes.push(("changed by the last edit", repair.changed.to_string()));
            overlay.notes.push(("re-expanded after edit", repair.re_expanded.to_string()));
            overlay.notes.push(("fresh A* would expand", repair.fresh_expanded.to_string()));
        }
        overlay
    }
}

impl Stepper for Lpa {
    incremental_stepper_methods!(Lpa);

    fn h(&self, p: Point) -> f64 {
        self.core.h(p)
    }

    fn grid(&self) -> &Grid {
        &self.core.grid
    }
}
