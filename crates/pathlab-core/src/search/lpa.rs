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
//! ([`seek`](super::SpaceStepper::seek), [`back`](super::Stepper::back)) to a step before it replays from the grid
//! as it was at step 0 and makes the same strokes at the same steps: stepping back and
//! forward through an edit lands in exactly the states seen the first time.
//! - A stroke at step 0 is a change of map: it becomes part of step 0's grid.
//! - A stroke made after going back, when later strokes are logged, moves those later
//!   strokes to this step (they are made again now, before it), so the painted map stays
//!   whole.
//! - [`reset`](Lpa::reset) goes to step 0 on the latest painted map and forgets the log; so
//!   does [`set_ends`](super::Stepper::set_ends). The user's map is never lost.
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
//! - [`g_values`](super::SpaceStepper::g_values): `g`; [`cell_values`](super::Stepper::cell_values): `rhs`;
//!   [`parents`](Lpa::parents): the neighbour each `rhs` came from.
//! - The overlay marks the inconsistent cells (at most 5,000; a note says when there are
//!   more) and notes the first key on the queue, the goal's key, and after an edit what it
//!   changed, what has been re-expanded since and what a fresh A* would expand.
//! - [`path_indices`](Lpa::path_indices), once found: from the goal back to the start, each
//!   cell's predecessor is the neighbour minimising `g(pred) + the move`.
//!
//! # On any space
//!
//! [`Lpa::on`] runs on any [`Space`] (weighted graphs, hex grids, teleports, slopes): `rhs(v)`
//! is the least `g(u) + c(u, v)` over the edges `u -> v` into `v`
//! ([`for_each_predecessor`](Space::for_each_predecessor)), and an overconsistent node offers
//! its `g` along its edges out ([`for_each_neighbour`](Space::for_each_neighbour)); ties go to
//! the first edge in the space's order. The estimate is the space's own, which must never
//! overestimate and be consistent (the graph's with Euclidean, Chebyshev or zero, the hex
//! distance, the teleport-aware estimate, a slope's admissible grid heuristic). Every edge
//! must cost more than 0: a space with a free edge is refused (see
//! `search/incremental.rs`).
//!
//! [`edit_space`](Lpa::edit_space) is `paint` for any space: it takes the edited space and
//! the nodes whose edges changed (both ends of every edge added, removed or repriced), keeps
//! the steps, and re-derives `rhs` of those nodes and of the nodes their edges lead to before
//! and after the edit; every queued key is worked out again, since the estimate may change
//! with the edges. The edit is logged like a stroke: going back replays it at its step.

use super::engine::check_ends;
use super::incremental::{
    check_config, check_costs, check_space_config, mark_inconsistent, paint_space, stroke, Change, Core, Direction,
    EditLog, RepairRecord,
};
use super::on_space::steps_through_step_with;
use super::stepper::{CellValues, Overlay, Repair};
use super::task::Task;
use super::{
    Algorithm, GridStepper, NodeTable, OpenEntry, Recorder, SearchConfig, SearchError, SpaceStepper, Status, StepEvent,
};
use crate::grid::{Grid, Point};
use crate::space::{OnGrid, Space, SquareGrid};

/// Makes a logged stroke on the core's cells and re-derives `rhs` around them; returns how
/// many cells changed. Set by the constructors on a grid's cells.
type PaintCells<S> = fn(&mut Core<S>, &[Point], u8) -> Vec<u32>;

/// LPA*, one ComputeShortestPath iteration per [`step`](Lpa::step), repairing after
/// [`paint`](Lpa::paint) or [`edit_space`](Lpa::edit_space). See the
/// [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::lpa::Lpa;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status, Stepper};
/// let config = SearchConfig::new(Algorithm::Lpa).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
/// let mut s = Lpa::new(Grid::new(5, 3).unwrap(), Point::new(0, 1), Point::new(4, 1), config).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(4.0));
/// // A wall across the straight way: the search repairs instead of starting over.
/// s.paint(&[Point::new(2, 1)], WALL).unwrap();
/// assert_eq!(s.status(), Status::Searching);
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(6.0));
/// let repair = s.repair().unwrap();
/// assert_eq!(repair.changed, 1);
/// assert!(repair.re_expanded > 0);
/// ```
#[derive(Clone, Debug)]
pub struct Lpa<S: Space = SquareGrid> {
    core: Core<S>,
    task: Task,
    log: EditLog<S>,
    /// How a logged stroke is made, for spaces made of a grid's cells.
    paint_cells: Option<PaintCells<S>>,
    status: Status,
    steps: usize,
    path: Vec<u32>,
    repair: Option<RepairRecord>,
}

impl<S: Space + Clone> Lpa<S> {
    /// Sets up a search from node `start` to node `goal` of `space`. Fails when either is not
    /// an open node, the weight is not 1, or an edge costs 0.
    ///
    /// ```
    /// use pathlab_core::search::lpa::Lpa;
    /// use pathlab_core::search::{Algorithm, SearchConfig, Status, SpaceStepper};
    /// use pathlab_core::space::Graph;
    /// let mut g = Graph::new(false);
    /// let (a, b, c) = (g.add_node("A", 0.0, 0.0).unwrap(), g.add_node("B", 1.0, 0.0).unwrap(), g.add_node("C", 2.0, 0.0).unwrap());
    /// g.add_edge(a, b, 2.0, false).unwrap(); // edge 0
    /// g.add_edge(b, c, 3.0, false).unwrap(); // edge 1
    /// g.add_edge(a, c, 9.0, false).unwrap(); // edge 2
    /// let mut s = Lpa::on(g.clone(), a, c, SearchConfig::new(Algorithm::Lpa)).unwrap();
    /// assert_eq!(s.run(), Status::Found);
    /// assert_eq!(s.cost(), Some(5.0));
    /// // B -> C gets dear: the search keeps its work and repairs.
    /// g.set_edge(1, 8.0, false).unwrap();
    /// s.edit_space(g, &[b, c]).unwrap();
    /// assert_eq!(s.run(), Status::Found);
    /// assert_eq!((s.cost(), s.path_indices()), (Some(9.0), &[a, c][..]));
    /// ```
    pub fn on(mut space: S, start: u32, goal: u32, config: SearchConfig) -> Result<Self, SearchError> {
        check_space_config(&config, Algorithm::Lpa)?;
        let task = Task::checked(&space, start, goal, config)?;
        check_costs(&space)?;
        space.aim(goal);
        Ok(Self::build(space, task, None))
    }

    /// The search at step 0 on `space` (checked and aimed).
    fn build(space: S, task: Task, paint_cells: Option<PaintCells<S>>) -> Self {
        let log = EditLog::new(space.clone());
        let mut search = Self {
            core: Core::new(space, Direction::Forward),
            task,
            log,
            paint_cells,
            status: Status::Ready,
            steps: 0,
            path: Vec::new(),
            repair: None,
        };
        search.restart();
        search
    }

    /// Step 0 on the space the core holds.
    fn restart(&mut self) {
        self.core.reset(self.task.start, self.task.goal);
        self.status = Status::Ready;
        self.steps = 0;
        self.path.clear();
        self.repair = None;
    }

    /// Goes back to step 0 on the latest edited space, forgetting the edit log.
    pub fn reset(&mut self) {
        self.log.forget();
        self.core.space.clone_from(&self.log.latest);
        self.restart();
    }

    /// Goes back to step 0 on step 0's space, keeping the edit log for replay.
    fn rewind(&mut self) {
        self.log.rewind();
        self.core.space.clone_from(&self.log.base);
        self.restart();
        for k in self.log.due(self.steps) {
            self.apply_one(k);
        }
    }

    /// Moves the start and goal (node numbers); back to step 0 on the latest edited space.
    pub fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError> {
        self.task.move_ends(&mut self.log.latest, start, goal)?;
        self.reset();
        Ok(())
    }

    /// Replaces the space after an edit; `changed` lists the nodes whose edges (in or out)
    /// changed. At step 0 the edited space becomes step 0's; later, the search keeps its
    /// steps and repairs in the steps that follow (see the [module documentation](self)). A
    /// space with another number of nodes starts over at step 0. Fails, changing nothing, when
    /// the start or goal is no longer an open node or an edge costs 0.
    pub fn edit_space(&mut self, mut space: S, changed: &[u32]) -> Result<(), SearchError> {
        self.task.check(&space)?;
        check_costs(&space)?;
        space.aim(self.task.goal);
        if space.node_count() != self.core.space.node_count() {
            *self = Self::build(space, self.task, self.paint_cells);
            return Ok(());
        }
        self.log.latest.clone_from(&space);
        if self.steps == 0 {
            self.log.forget();
            self.core.space = space;
            self.restart();
        } else {
            let due = self.log.record(self.steps, Change::Space { space, changed: changed.to_vec() });
            for k in due {
                self.apply_one(k);
            }
        }
        Ok(())
    }

    /// Makes logged edit `k`: changes the space, re-derives `rhs` around the nodes changed and
    /// settles the status.
    fn apply_one(&mut self, k: usize) {
        let changed = match &self.log.edits[k].change {
            Change::Cells { cells, value } => {
                let paint = self.paint_cells.expect("strokes are logged only on a grid's cells");
                paint(&mut self.core, cells, *value).len()
            }
            Change::Space { space, changed } => {
                self.core.replace_space(space.clone(), changed);
                changed.len()
            }
        };
        if changed == 0 {
            return;
        }
        self.repair =
            Some(RepairRecord::add(self.repair.take(), self.steps, changed, self.core.expanded, self.task.start));
        self.core.clear_path();
        self.path.clear();
        self.status = Status::Searching;
        if self.core.settled(self.task.goal) {
            self.finish();
        }
    }

    /// Ends the search once it is settled: found (with the path) or no path.
    fn finish(&mut self) -> StepEvent<S::At> {
        let goal = self.task.goal;
        let cost = self.core.g()[goal as usize];
        if cost.is_infinite() {
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        self.core.clear_current();
        self.path.clear();
        self.path.push(goal);
        if !self.core.walk_to_root(goal, &mut self.path) {
            debug_assert!(false, "LPA*: no way back from the goal along settled nodes");
            self.path.clear();
        }
        self.path.reverse();
        self.core.mark_path(&self.path);
        self.status = Status::Found;
        StepEvent::Found { cost }
    }

    /// Performs one step, telling `recorder` the node expanded and each `rhs` that changed
    /// (`opened(node, parent, old rhs, new rhs)`).
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent<S::At> {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        self.steps += 1;
        self.core.clear_current();
        let goal = self.task.goal;
        let event = match self.core.expand_next(|core| core.settled(goal), recorder) {
            Some(node) => {
                self.status = Status::Searching;
                StepEvent::Expanded(self.core.space.at(node))
            }
            None => self.finish(),
        };
        for k in self.log.due(self.steps) {
            self.apply_one(k);
        }
        event
    }

    /// What the last edit cost, once there has been one (`None` before).
    pub fn repair(&self) -> Option<Repair> {
        self.repair.as_ref().map(|r| r.report(self.core.expanded, &self.core.space, self.task.goal))
    }

    /// The edits logged since step 0 (strokes and space edits made after step 0).
    pub fn edits(&self) -> usize {
        self.log.edits.len()
    }

    /// `rhs` per node (infinite where no edge offers a cost).
    pub fn rhs_values(&self) -> &[f64] {
        &self.core.rhs
    }

    /// The overlay: the inconsistent nodes and the keys, and what the last edit cost.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        mark_inconsistent(&self.core, &mut overlay);
        overlay.notes.push(("top key", self.core.queue.top_key().describe()));
        overlay.notes.push(("goal key", self.core.key(self.task.goal).describe()));
        if let Some(repair) = self.repair() {
            overlay.notes.push(("changed by the last edit", repair.changed.to_string()));
            overlay.notes.push(("re-expanded after edit", repair.re_expanded.to_string()));
            overlay.notes.push(("fresh A* would expand", repair.fresh_expanded.to_string()));
        }
        overlay
    }
}

impl Lpa<SquareGrid> {
    /// Sets up a search from `start` to `goal` on `grid`. Fails when either end is outside
    /// the grid or on a wall, the weight is not 1, or the heuristic may overestimate.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        Self::on_grid(SquareGrid::with_config(grid, &config), start, goal, config)
    }
}

impl<S: OnGrid> Lpa<S> {
    /// Sets up a search from `start` to `goal` on a space made of a grid's cells, which takes
    /// the diagonal rule, costs and heuristic from `config`. Fails as [`Lpa::new`] does.
    pub fn on_grid(mut space: S, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_config(&config, Algorithm::Lpa)?;
        check_ends(space.grid(), start, goal)?;
        space.configure(&config);
        let (s, g) = (space.grid().index(start) as u32, space.grid().index(goal) as u32);
        space.aim(g);
        Ok(Self::build(space, Task { start: s, goal: g, config }, Some(paint_core::<S>)))
    }
}

/// [`PaintCells`] for a space made of a grid's cells.
fn paint_core<S: OnGrid>(core: &mut Core<S>, cells: &[Point], value: u8) -> Vec<u32> {
    let changed = paint_space(&mut core.space, cells, value);
    if !changed.is_empty() {
        core.cells_changed(&changed);
    }
    changed
}

impl<S: Space + Clone + 'static> SpaceStepper<S> for Lpa<S> {
    // One ComputeShortestPath iteration, or the step that finds the search settled.
    steps_through_step_with!(S);

    fn reset(&mut self) {
        Lpa::reset(self);
    }

    fn nodes(&self) -> &NodeTable {
        &self.core.nodes
    }

    fn status(&self) -> Status {
        self.status
    }

    fn steps(&self) -> usize {
        self.steps
    }

    fn expanded(&self) -> usize {
        self.core.expanded
    }

    fn open_count(&self) -> usize {
        self.core.queue.len()
    }

    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then(|| self.core.g()[self.task.goal as usize])
    }

    fn path_indices(&self) -> &[u32] {
        &self.path
    }

    /// Going back replays from step 0's space with the logged edits made at their steps.
    fn seek(&mut self, k: usize) {
        if k < self.steps {
            self.rewind();
        }
        self.advance(k - self.steps);
    }

    fn h_of(&self, node: u32) -> f64 {
        self.core.h(node)
    }

    fn space(&self) -> &S {
        &self.core.space
    }

    fn task(&self) -> Task {
        self.task
    }

    fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError> {
        Lpa::set_end_nodes(self, start, goal)
    }

    fn edit_space(&mut self, space: S, changed: &[u32]) -> Result<(), SearchError> {
        Lpa::edit_space(self, space, changed)
    }

    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        self.core.open_entries(limit)
    }

    fn cell_values(&self) -> Option<CellValues<'_>> {
        Some(self.core.rhs_values())
    }
}

impl<S: OnGrid> GridStepper for Lpa<S> {
    type Cells = S;

    /// Its open cells as A* would order them (the grid page's list, approximate).
    fn grid_open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        super::stepper::open_cells_as_astar_orders(self, limit)
    }

    fn h(&self, p: Point) -> f64 {
        self.core.h_at(p)
    }

    /// Sets every listed cell to `value` as a brush stroke does (cells outside the grid are
    /// skipped, and so are the start and goal under a wall); returns how many changed. At
    /// step 0 the stroke changes the map; later, the search keeps its steps and repairs in
    /// the steps that follow (see the [module documentation](self)).
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        let changed = stroke(
            self.core.space.grid(),
            cells,
            value,
            &[self.core.space.at(self.task.start), self.core.space.at(self.task.goal)],
        );
        let count = changed.len();
        if count == 0 {
            return Ok(0);
        }
        self.log.paint_latest(&changed, value);
        if self.steps == 0 {
            self.log.forget();
            self.core.space.clone_from(&self.log.latest);
            self.restart();
        } else {
            let due = self.log.record(self.steps, Change::Cells { cells: changed, value });
            for k in due {
                self.apply_one(k);
            }
        }
        Ok(count)
    }

    fn repair(&self) -> Option<Repair> {
        Lpa::repair(self)
    }

    fn overlay(&self) -> Overlay {
        Lpa::overlay(self)
    }
}
