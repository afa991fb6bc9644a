//! IDA* (iterative-deepening A*): depth-first search below a cost threshold that rises.
//!
//! Each iteration is a depth-first search from the start that follows a move only while the
//! cell reached has `f = g + w h` within the threshold. A cell whose `f` is over it is
//! *cut off*: the lowest such `f` becomes the next iteration's threshold. The first iteration's
//! threshold is `f(start) = w h(start)`. The search ends when it reaches the goal (found), when
//! an iteration cuts nothing off (every cell connected to the start has been walked to without
//! reaching the goal: no path), or at the visit limit (see below).
//!
//! (The course text raises the threshold "by one"; raising it to the lowest `f` that was cut
//! off is the usual rule, skips iterations that would find nothing new, and works for the real
//! costs, where `f` values are not whole numbers.)
//!
//! IDA* keeps only the current path: memory is the depth of the path, not the area searched.
//! The price is time. With no closed list, a cell is walked to again along every path that
//! stays within the threshold, and every iteration starts over; on open or large maps that is
//! exponentially many visits. Hence the **visit limit** ([`DEFAULT_VISIT_LIMIT`] unless set
//! with [`Ida::with_visit_limit`]): when it is reached the search stops with status
//! [`NoPath`](Status::NoPath), and [`gave_up`](Ida::gave_up) (also
//! [`Stepper::gave_up`]) and the overlay's `"stopped"` note say why, which is not the same
//! as "no path".
//!
//! # One step
//!
//! One step is one node visit: the search backs up (pops the stack) until the cell on top
//! has a move left to try, then takes that move and visits the cell it reaches. A visit is
//! either a *cut-off* (f over the threshold), the goal (found), or a push onto the stack.
//! Starting an iteration (raising the threshold) is part of the step that visits the start
//! again. The stack is explicit, so the search can stop after any visit.
//!
//! - Moves are tried in the grid's order: N, E, S, W, then NE, SE, SW, NW.
//! - A move to a cell already on the stack (the current path) is skipped: no cycles.
//! - A cell is cut off when `f > threshold + eps`, where `eps = 1e-9 * max(threshold, 1)`
//!   absorbs rounding, so that the same cost summed in a different order does not need an
//!   iteration of its own. The cost found is optimal up to that `eps` with weight 1 and an
//!   admissible heuristic, and at most `w` times the optimum with weight `w`.
//!
//! # What the page sees
//!
//! - [`states`](Ida::states): `Open` for cells on the stack (the current path), `Closed` for
//!   cells visited in this iteration that are not on the stack (cut off, or backed out of),
//!   `Current` for the cell the last step visited, `Path` for the path once found. Each new
//!   iteration starts with a clean grid.
//! - [`g_values`](Ida::g_values) and [`parents`](Ida::parents): the cost and parent of each
//!   cell's latest visit in this iteration.
//! - The overlay marks the stack cells ([`MarkKind::Stack`]) and notes the threshold, the
//!   next threshold (the lowest f cut off so far), the iteration, the visits and the stack
//!   depth; once the limit stops the search, a `"stopped"` note with the reason.
//! - [`expanded`](Ida::expanded) counts visits that pushed a cell onto the stack, over all
//!   iterations; [`visits`](Ida::visits) counts every visit; [`open_count`](Ida::open_count)
//!   is the stack depth.

use super::engine::{check_ends, estimate, paint_cells};
use super::stepper::{MarkKind, Overlay, OverlayMark};
use super::{
    CellState, EventLog, NoRecord, OpenEntry, Recorder, SearchConfig, SearchError, Status, StepEvent, Stepper,
    NO_PARENT,
};
use crate::grid::{Grid, Point};

/// The visit limit unless set otherwise: enough for IDA* on the course's small maps and for
/// short problems on large ones, and a fraction of a second of work, so that a page running
/// to the end does not hang.
pub const DEFAULT_VISIT_LIMIT: usize = 1_000_000;

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;

/// A cell on the stack, with the moves out of it and how many have been tried.
#[derive(Clone, Copy, Debug)]
struct Frame {
    node: u32,
    g: f64,
    /// The cells one move away, in the grid's order; the first `count` are valid.
    next: [u32; 8],
    /// Bit k set when move k is diagonal.
    diagonal: u8,
    count: u8,
    /// Moves tried so far.
    tried: u8,
}

/// IDA*, one node visit per [`step`](Ida::step). See the [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::ida::Ida;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status};
/// let mut grid = Grid::new(3, 3).unwrap();
/// grid.set(Point::new(1, 1), WALL).unwrap();
/// let config = SearchConfig::new(Algorithm::Ida).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
/// let mut s = Ida::new(grid, Point::new(0, 1), Point::new(2, 1), config).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(4.0));
/// assert_eq!(s.iteration(), 2); // threshold 2 (the estimate), then 4
/// assert!(s.gave_up().is_none());
/// ```
#[derive(Clone, Debug)]
pub struct Ida {
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    state: Vec<u8>,
    g: Vec<f64>,
    parent: Vec<u32>,
    on_stack: Vec<bool>,
    /// Cells whose state, g or parent changed since the iteration began.
    touched: Vec<u32>,
    stack: Vec<Frame>,
    threshold: f64,
    next_threshold: f64,
    iteration: usize,
    visits: usize,
    visit_limit: usize,
    expanded: usize,
    steps: usize,
    current: u32,
    status: Status,
    path: Vec<u32>,
    cost: f64,
    gave_up: Option<String>,
}

impl Ida {
    /// Sets up a search from `start` to `goal` with the [`DEFAULT_VISIT_LIMIT`]. Fails when
    /// either end is outside the grid or on a wall, or the weight is not allowed.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        check_ends(&grid, start, goal)?;
        let n = grid.len();
        let mut search = Self {
            grid,
            start,
            goal,
            config,
            state: vec![UNSEEN; n],
            g: vec![f64::INFINITY; n],
            parent: vec![NO_PARENT; n],
            on_stack: vec![false; n],
            touched: Vec::new(),
            stack: Vec::new(),
            threshold: 0.0,
            next_threshold: f64::INFINITY,
            iteration: 0,
            visits: 0,
            visit_limit: DEFAULT_VISIT_LIMIT,
            expanded: 0,
            steps: 0,
            current: NO_PARENT,
            status: Status::Ready,
            path: Vec::new(),
            cost: f64::INFINITY,
            gave_up: None,
        };
        search.reset();
        Ok(search)
    }

    /// The same search with another visit limit (at least 1); back to step 0.
    #[must_use]
    pub fn with_visit_limit(mut self, limit: usize) -> Self {
        self.visit_limit = limit.max(1);
        self.reset();
        self
    }

    /// The visit limit.
    pub fn visit_limit(&self) -> usize {
        self.visit_limit
    }

    /// Clears the cells touched in this iteration.
    fn clear_touched(&mut self) {
        if self.touched.len() * 4 > self.state.len() {
            self.state.fill(UNSEEN);
            self.g.fill(f64::INFINITY);
            self.parent.fill(NO_PARENT);
            self.on_stack.fill(false);
        } else {
            for &i in &self.touched {
                let i = i as usize;
                self.state[i] = UNSEEN;
                self.g[i] = f64::INFINITY;
                self.parent[i] = NO_PARENT;
                self.on_stack[i] = false;
            }
        }
        self.touched.clear();
    }

    /// Goes back to step 0: no iteration begun, nothing visited.
    pub fn reset(&mut self) {
        self.clear_touched();
        self.stack.clear();
        self.threshold = self.f(0.0, self.start);
        self.next_threshold = f64::INFINITY;
        self.iteration = 0;
        self.visits = 0;
        self.expanded = 0;
        self.steps = 0;
        self.current = NO_PARENT;
        self.status = Status::Ready;
        self.path.clear();
        self.cost = f64::INFINITY;
        self.gave_up = None;
    }

    /// Moves the start and goal; the search goes back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.start = start;
        self.goal = goal;
        self.reset();
        Ok(())
    }

    /// Sets every listed cell to `value` as a brush stroke does (cells outside the grid are
    /// skipped, and so are the start and goal when `value` is a wall); returns how many
    /// changed. When any did, the search goes back to step 0.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let changed = paint_cells(&mut self.grid, self.start, self.goal, cells, value);
        if changed > 0 {
            self.reset();
        }
        changed
    }

    /// `g + w h` at `p`.
    #[inline]
    fn f(&self, g: f64, p: Point) -> f64 {
        g + self.config.weight * estimate(&self.config, self.goal, p)
    }

    /// Performs one step: one node visit (or the step that ends the search).
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` about the visit: `opened(cell, parent, old_g,
    /// g)` for every visit (`old_g`: its cost at its previous visit in this iteration), and
    /// `expanded(cell)` when the visit pushes it onto the stack.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        if self.current != NO_PARENT {
            let c = self.current as usize;
            self.state[c] = if self.on_stack[c] { OPEN } else { CLOSED };
            self.current = NO_PARENT;
        }
        self.steps += 1;
        self.status = Status::Searching;
        if self.visits >= self.visit_limit {
            self.gave_up = Some(format!(
                "IDA* stopped at its limit of {} node visits without reaching the goal \
                 (iteration {}, threshold {}); the goal may still be reachable. IDA* keeps no \
                 closed list, so on large or open maps it walks to the same cells along very \
                 many paths: use A* here, or a smaller map",
                self.visit_limit,
                self.iteration,
                round6(self.threshold)
            ));
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        // Back up until the top of the stack has a move left to try, or start an iteration.
        loop {
            let Some(top) = self.stack.last_mut() else {
                if self.iteration > 0 {
                    if self.next_threshold.is_infinite() {
                        // Nothing was cut off: every cell connected to the start was walked
                        // to, and none was the goal.
                        self.status = Status::NoPath;
                        return StepEvent::NoPath;
                    }
                    self.threshold = self.next_threshold;
                }
                self.next_threshold = f64::INFINITY;
                self.iteration += 1;
                self.clear_touched();
                return self.visit(self.grid.index(self.start) as u32, NO_PARENT, 0.0, recorder);
            };
            let mut chosen = None;
            while top.tried < top.count {
                let k = top.tried as usize;
                top.tried += 1;
                let nb = top.next[k];
                if !self.on_stack[nb as usize] {
                    chosen = Some((nb, top.diagonal & (1 << k) != 0));
                    break;
                }
            }
            if let Some((nb, diagonal)) = chosen {
                let (node, g) = (top.node, top.g);
                let g = g + self.config.costs.step(diagonal, self.grid.cells()[nb as usize]);
                return self.visit(nb, node, g, recorder);
            }
            let done = self.stack.pop().expect("the stack has a top");
            self.on_stack[done.node as usize] = false;
            self.state[done.node as usize] = CLOSED;
        }
    }

    /// Visits `node`, reached from `parent` at cost `g`.
    fn visit<R: Recorder>(&mut self, node: u32, parent: u32, g: f64, recorder: &mut R) -> StepEvent {
        let ni = node as usize;
        let at = self.grid.point_at(ni);
        self.visits += 1;
        // Every visit leaves a finite g, so an infinite one marks a first visit.
        if self.g[ni].is_infinite() {
            self.touched.push(node);
        }
        let old_g = self.g[ni].is_finite().then_some(self.g[ni]);
        self.g[ni] = g;
        self.parent[ni] = parent;
        self.state[ni] = CURRENT;
        self.current = node;
        recorder.opened(node, parent, old_g, g);
        let f = self.f(g, at);
        if f > self.threshold + 1e-9 * self.threshold.max(1.0) {
            self.next_threshold = self.next_threshold.min(f);
            return StepEvent::Expanded(at);
        }
        if at == self.goal {
            self.path.clear();
            self.path.extend(self.stack.iter().map(|frame| frame.node));
            self.path.push(node);
            for &p in &self.path {
                self.state[p as usize] = CellState::Path as u8;
            }
            self.current = NO_PARENT;
            self.cost = g;
            self.status = Status::Found;
            return StepEvent::Found { cost: g };
        }
        let mut frame = Frame { node, g, next: [0; 8], diagonal: 0, count: 0, tried: 0 };
        self.grid.for_each_neighbour_of(at, self.config.diagonal, |nb, _, diagonal| {
            frame.next[frame.count as usize] = nb as u32;
            frame.diagonal |= u8::from(diagonal) << frame.count;
            frame.count += 1;
        });
        self.stack.push(frame);
        self.on_stack[ni] = true;
        self.expanded += 1;
        recorder.expanded(node);
        StepEvent::Expanded(at)
    }

    /// Runs to the end (found, no path, or the visit limit) and returns the final status.
    pub fn run(&mut self) -> Status {
        while !self.status.is_finished() {
            self.step();
        }
        self.status
    }

    /// Why the search stopped without an answer, when the visit limit stopped it.
    pub fn gave_up(&self) -> Option<&str> {
        self.gave_up.as_deref()
    }

    /// The threshold of the current iteration.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// The lowest f cut off in this iteration so far: the next threshold (`+inf` while none
    /// has been).
    pub fn next_threshold(&self) -> f64 {
        self.next_threshold
    }

    /// The iteration under way, from 1 (0 before the first step).
    pub fn iteration(&self) -> usize {
        self.iteration
    }

    /// Node visits so far, over all iterations.
    pub fn visits(&self) -> usize {
        self.visits
    }

    /// The cells on the stack, from the start up.
    pub fn stack(&self) -> impl Iterator<Item = Point> + '_ {
        self.stack.iter().map(|frame| self.grid.point_at(frame.node as usize))
    }

    /// Where the search stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Steps taken since step 0.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Visits that pushed a cell onto the stack, over all iterations.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// The stack depth.
    pub fn open_count(&self) -> usize {
        self.stack.len()
    }

    /// The path's cost once found.
    pub fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.cost)
    }

    /// The path once found, as row-major indices from start to goal (empty before).
    pub fn path_indices(&self) -> &[u32] {
        &self.path
    }

    /// One [`CellState`] byte per cell, row-major.
    pub fn states(&self) -> &[u8] {
        &self.state
    }

    /// The cost of each cell's latest visit in this iteration (infinite where not visited).
    pub fn g_values(&self) -> &[f64] {
        &self.g
    }

    /// The parent of each cell's latest visit in this iteration, or [`NO_PARENT`].
    pub fn parents(&self) -> &[u32] {
        &self.parent
    }

    /// The overlay: the stack cells, and the threshold, next threshold and iteration.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        overlay.marks.extend(self.stack.iter().map(|frame| OverlayMark { cell: frame.node, kind: MarkKind::Stack }));
        let number = |v: f64| if v.is_finite() { format!("{}", round6(v)) } else { "none yet".to_string() };
        overlay.notes.push(("threshold", number(self.threshold)));
        overlay.notes.push(("next threshold", number(self.next_threshold)));
        overlay.notes.push(("iteration", self.iteration.to_string()));
        overlay.notes.push(("visits", format!("{} of at most {}", self.visits, self.visit_limit)));
        overlay.notes.push(("stack depth", self.stack.len().to_string()));
        if let Some(why) = &self.gave_up {
            overlay.notes.push(("stopped", why.clone()));
        }
        overlay
    }
}

/// A value rounded to six decimals, for the notes.
fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

impl Stepper for Ida {
    super::stepper::stepper_steps!(Ida);
    super::stepper::stepper_fields!();
    super::stepper::stepper_buffers!();
    super::stepper::stepper_edits!(Ida);

    fn expanded(&self) -> usize {
        self.expanded
    }

    fn open_count(&self) -> usize {
        self.stack.len()
    }

    fn h(&self, p: Point) -> f64 {
        estimate(&self.config, self.goal, p)
    }

    fn grid(&self) -> &Grid {
        &self.grid
    }

    fn overlay(&self) -> Overlay {
        Ida::overlay(self)
    }

    /// IDA* keeps no open list: this is its stack (the current path), deepest cell first,
    /// which is where the next visit starts from (after backing out of cells with no move
    /// left). Each key is the cell's f.
    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        self.stack
            .iter()
            .rev()
            .take(limit)
            .map(|frame| {
                let h = estimate(&self.config, self.goal, self.grid.point_at(frame.node as usize));
                let parent = self.parent[frame.node as usize];
                OpenEntry { cell: frame.node, g: frame.g, h, key: frame.g + self.config.weight * h, parent }
            })
            .collect()
    }

    fn gave_up(&self) -> Option<String> {
        self.gave_up.clone()
    }
}
