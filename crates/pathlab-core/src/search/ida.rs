//! IDA* (iterative-deepening A*): depth-first search below a cost threshold that rises.
//!
//! Each iteration is a depth-first search from the start that follows an edge only while the
//! node reached has `f = g + w h` within the threshold. A node whose `f` is over it is
//! *cut off*: the lowest such `f` becomes the next iteration's threshold. The first iteration's
//! threshold is `f(start) = w h(start)`. The search ends when it reaches the goal (found), when
//! an iteration cuts nothing off (every node connected to the start has been walked to without
//! reaching the goal: no path), or at the visit limit (see below).
//!
//! (The course text raises the threshold "by one"; raising it to the lowest `f` that was cut
//! off is the usual rule, skips iterations that would find nothing new, and works for the real
//! costs, where `f` values are not whole numbers. The book's rule is a switch,
//! [`Threshold::PlusOne`]: the threshold rises by 1 in the grid's costs, which can step past
//! the cheapest path's cost, so the first path found under it may be longer than the
//! cheapest.)
//!
//! IDA* runs on a square grid by default or on any [`Space`] (see [`Ida::on`]).
//!
//! IDA* keeps only the current path: memory is the depth of the path, not the area searched.
//! The price is time. With no closed list, a node is walked to again along every path that
//! stays within the threshold, and every iteration starts over; on open or large maps that is
//! exponentially many visits. Hence the **visit limit** ([`DEFAULT_VISIT_LIMIT`] unless set
//! with [`Ida::with_visit_limit`]): when it is reached the search stops with status
//! [`NoPath`](Status::NoPath), and [`gave_up`](Ida::gave_up) (also
//! [`Stepper::gave_up`](super::Stepper::gave_up)) and the overlay's `"stopped"` note say why, which is not the same
//! as "no path".
//!
//! # One step
//!
//! One step is one node visit: the search backs up (pops the stack) until the node on top
//! has an edge left to try, then takes that edge and visits the node it reaches. A visit is
//! either a *cut-off* (f over the threshold), the goal (found), or a push onto the stack.
//! Starting an iteration (raising the threshold) is part of the step that visits the start
//! again. The stack is explicit, so the search can stop after any visit.
//!
//! - Edges are tried in the space's order (on the square grid N, E, S, W, then NE, SE, SW,
//!   NW). A node's edges are listed once, when it is pushed, into one buffer shared by the
//!   whole stack, so a step allocates nothing once the buffer has grown.
//! - An edge to a node already on the stack (the current path) is skipped: no cycles. (So
//!   is a self-loop; parallel edges are each tried.)
//! - A node is cut off when `f > threshold + eps`, where `eps = 1e-9 * max(threshold, 1)`
//!   absorbs rounding, so that the same cost summed in a different order does not need an
//!   iteration of its own. The cost found is optimal up to that `eps` with weight 1 and an
//!   admissible heuristic, and at most `w` times the optimum with weight `w`.
//!
//! # What the page sees
//!
//! - [`states`](Ida::states): `Open` for nodes on the stack (the current path), `Closed` for
//!   nodes visited in this iteration that are not on the stack (cut off, or backed out of),
//!   `Current` for the node the last step visited, `Path` for the path once found. Each new
//!   iteration starts with a clean slate.
//! - [`g_values`](Ida::g_values) and [`parents`](Ida::parents): the cost and parent of each
//!   node's latest visit in this iteration.
//! - The overlay marks the stack nodes ([`MarkKind::Stack`]) and notes the threshold, the
//!   next threshold (the lowest f cut off so far), the iteration, the visits and the stack
//!   depth; once the limit stops the search, a `"stopped"` note with the reason.
//! - [`expanded`](Ida::expanded) counts visits that pushed a node onto the stack, over all
//!   iterations; [`visits`](Ida::visits) counts every visit; [`open_count`](Ida::open_count)
//!   is the stack depth.

use super::engine::{check_ends, stroke_then_restart};
use super::on_space::{holds_space_and_task, steps_through_step_with};
use super::stepper::{MarkKind, Overlay, OverlayMark};
use super::task::Task;
use super::{
    CellState, GridStepper, NodeTable, OpenEntry, Recorder, SearchConfig, SearchError, SpaceStepper, Status, StepEvent,
    NO_PARENT,
};
use crate::grid::{named_enum, Grid, Point};
use crate::space::{OnGrid, Space, SquareGrid};

named_enum! {
    /// How IDA*'s threshold rises after an iteration that did not reach the goal.
    Threshold, "threshold rule" {
        /// To the lowest f that the iteration cut off: the next iteration reaches at least
        /// one new node, and the first path found is a cheapest one (with an admissible
        /// heuristic).
        Next = 0, "next";
        /// By 1, as the book's IDA* does. With costs that are not whole numbers (diagonals
        /// of √2) the new threshold can pass the cheapest path's cost, and the depth-first
        /// walk may then meet a longer path within it first.
        PlusOne = 1, "plus-one";
    }
}

/// The visit limit unless set otherwise: enough for IDA* on the course's small maps and for
/// short problems on large ones, and a fraction of a second of work, so that a page running
/// to the end does not hang.
pub const DEFAULT_VISIT_LIMIT: usize = 1_000_000;

const UNSEEN: u8 = CellState::Unseen as u8;
const CURRENT: u8 = CellState::Current as u8;

/// A node on the stack, with where its edges lie in the shared edge buffer.
#[derive(Clone, Copy, Debug)]
struct Frame {
    node: u32,
    g: f64,
    /// Its edges are `edges[first..end]`, in the space's order.
    first: u32,
    end: u32,
    /// The next edge to try, from `first` to `end`.
    next: u32,
}

/// An edge out of a node on the stack: where it leads, that node's `At`, and its cost.
#[derive(Clone, Copy, Debug)]
struct Edge<A> {
    to: u32,
    at: A,
    cost: f64,
}

/// IDA*, one node visit per [`step`](Ida::step). See the [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::ida::Ida;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status, Stepper};
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
pub struct Ida<S: Space = SquareGrid> {
    space: S,
    task: Task,
    goal_at: S::At,
    /// State, g and parent of each node's latest visit in this iteration.
    nodes: NodeTable,
    on_stack: Vec<bool>,
    stack: Vec<Frame>,
    /// The edges of the nodes on the stack, frame after frame.
    edges: Vec<Edge<S::At>>,
    threshold: f64,
    next_threshold: f64,
    iteration: usize,
    visits: usize,
    visit_limit: usize,
    current: u32,
    cost: f64,
    gave_up: Option<String>,
}

impl<S: Space> Ida<S> {
    /// Sets up a search from node `start` to node `goal` of `space` with the
    /// [`DEFAULT_VISIT_LIMIT`]. Fails when either is not a node of the space or is a wall, or
    /// the weight is not allowed.
    ///
    /// ```
    /// use pathlab_core::search::ida::Ida;
    /// use pathlab_core::search::{Algorithm, SearchConfig, Status, SpaceStepper};
    /// use pathlab_core::space::Graph;
    /// let mut g = Graph::new(false);
    /// let a = g.add_node("A", 0.0, 0.0).unwrap();
    /// let b = g.add_node("B", 1.0, 0.0).unwrap();
    /// let c = g.add_node("C", 2.0, 0.0).unwrap();
    /// g.add_edge(a, c, 9.0, false).unwrap();
    /// g.add_edge(a, b, 2.0, false).unwrap();
    /// g.add_edge(b, c, 3.0, false).unwrap();
    /// let mut s = Ida::on(g, a, c, SearchConfig::new(Algorithm::Ida)).unwrap();
    /// assert_eq!(s.run(), Status::Found);
    /// assert_eq!(s.cost(), Some(5.0));
    /// assert_eq!(s.path_indices(), &[a, b, c]);
    /// ```
    pub fn on(mut space: S, start: u32, goal: u32, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        let task = Task::on(&mut space, start, goal, config)?;
        let n = space.node_count();
        let goal_at = space.at(goal);
        let mut search = Self {
            space,
            task,
            goal_at,
            nodes: NodeTable::new(n),
            on_stack: vec![false; n],
            stack: Vec::new(),
            edges: Vec::new(),
            threshold: 0.0,
            next_threshold: f64::INFINITY,
            iteration: 0,
            visits: 0,
            visit_limit: DEFAULT_VISIT_LIMIT,
            current: NO_PARENT,
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

    /// Empties the stack and clears the nodes touched in this iteration.
    fn clear_iteration(&mut self) {
        for frame in &self.stack {
            self.on_stack[frame.node as usize] = false;
        }
        self.stack.clear();
        self.edges.clear();
        self.nodes.clear_nodes();
    }

    /// Goes back to step 0: no iteration begun, nothing visited.
    pub fn reset(&mut self) {
        self.clear_iteration();
        self.nodes.reset();
        self.threshold = self.f(0.0, self.space.at(self.task.start));
        self.next_threshold = f64::INFINITY;
        self.iteration = 0;
        self.visits = 0;
        self.current = NO_PARENT;
        self.cost = f64::INFINITY;
        self.gave_up = None;
    }

    /// Moves the start and goal (node numbers); the search goes back to step 0.
    pub fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError> {
        self.task.move_ends(&mut self.space, start, goal)?;
        self.goal_at = self.space.at(goal);
        self.reset();
        Ok(())
    }

    /// Changes the space, which must keep the start and goal; the search goes back to step
    /// 0. (A space of another size gets new buffers.)
    pub fn set_space(&mut self, space: S) -> Result<(), SearchError> {
        self.task.check(&space)?;
        let n = space.node_count();
        self.clear_iteration();
        self.space = space;
        if n != self.on_stack.len() {
            self.nodes = NodeTable::new(n);
            self.on_stack = vec![false; n];
        }
        self.space.aim(self.task.goal);
        self.goal_at = self.space.at(self.task.goal);
        self.reset();
        Ok(())
    }

    /// The estimate from `at` to the goal (0 for an algorithm that uses none).
    #[inline]
    fn h(&self, at: S::At) -> f64 {
        if self.task.config.algorithm.uses_heuristic() {
            self.space.estimate(at, self.goal_at)
        } else {
            0.0
        }
    }

    /// `g + w h` at `at`.
    #[inline]
    fn f(&self, g: f64, at: S::At) -> f64 {
        g + self.task.config.weight * self.h(at)
    }

    /// Performs one step, telling `recorder` about the visit: `opened(node, parent, old_g,
    /// g)` for every visit (`old_g`: its cost at its previous visit in this iteration), and
    /// `expanded(node)` when the visit pushes it onto the stack.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent<S::At> {
        if self.nodes.status.is_finished() {
            return StepEvent::Finished;
        }
        if self.current != NO_PARENT {
            let c = self.current;
            let shown = if self.on_stack[c as usize] { CellState::Open } else { CellState::Closed };
            self.nodes.set_state(c, shown);
            self.current = NO_PARENT;
        }
        self.nodes.steps += 1;
        self.nodes.status = Status::Searching;
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
            self.nodes.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        // Back up until the top of the stack has an edge left to try, or start an iteration.
        loop {
            let Some(top) = self.stack.last_mut() else {
                if self.iteration > 0 {
                    if self.next_threshold.is_infinite() {
                        // Nothing was cut off: every node connected to the start was walked
                        // to, and none was the goal.
                        self.nodes.status = Status::NoPath;
                        return StepEvent::NoPath;
                    }
                    self.threshold = match self.task.config.threshold {
                        Threshold::Next => self.next_threshold,
                        Threshold::PlusOne => self.threshold + 1.0,
                    };
                }
                self.next_threshold = f64::INFINITY;
                self.iteration += 1;
                self.clear_iteration();
                let at = self.space.at(self.task.start);
                return self.visit(self.task.start, at, NO_PARENT, 0.0, recorder);
            };
            let mut chosen = None;
            while top.next < top.end {
                let edge = self.edges[top.next as usize];
                top.next += 1;
                if !self.on_stack[edge.to as usize] {
                    chosen = Some(edge);
                    break;
                }
            }
            if let Some(edge) = chosen {
                let (node, g) = (top.node, top.g + edge.cost);
                return self.visit(edge.to, edge.at, node, g, recorder);
            }
            let done = self.stack.pop().expect("the stack has a top");
            self.edges.truncate(done.first as usize);
            self.on_stack[done.node as usize] = false;
            self.nodes.set_state(done.node, CellState::Closed);
        }
    }

    /// Visits `node` (whose `At` is `at`), reached from `parent` at cost `g`.
    fn visit<R: Recorder>(&mut self, node: u32, at: S::At, parent: u32, g: f64, recorder: &mut R) -> StepEvent<S::At> {
        let ni = node as usize;
        self.visits += 1;
        let (state, gs, parents, touched) = self.nodes.parts();
        // Every visit leaves the node shown as something other than unseen.
        let old_g = if state[ni] == UNSEEN {
            touched.push(node);
            None
        } else {
            Some(gs[ni])
        };
        gs[ni] = g;
        parents[ni] = parent;
        state[ni] = CURRENT;
        self.current = node;
        recorder.opened(node, parent, old_g, g);
        let f = self.f(g, at);
        if f > self.threshold + 1e-9 * self.threshold.max(1.0) {
            self.next_threshold = self.next_threshold.min(f);
            return StepEvent::Expanded(at);
        }
        if node == self.task.goal {
            let mut path: Vec<u32> = self.stack.iter().map(|frame| frame.node).collect();
            path.push(node);
            self.nodes.set_path(&path);
            self.current = NO_PARENT;
            self.cost = g;
            self.nodes.status = Status::Found;
            return StepEvent::Found { cost: g };
        }
        let first = self.edges.len() as u32;
        let edges = &mut self.edges;
        self.space.for_each_neighbour(node, at, |to, at, cost| edges.push(Edge { to, at, cost }));
        let end = self.edges.len() as u32;
        self.stack.push(Frame { node, g, first, end, next: first });
        self.on_stack[ni] = true;
        self.nodes.expanded += 1;
        recorder.expanded(node);
        StepEvent::Expanded(at)
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

    /// The nodes on the stack, from the start up.
    pub fn stack_nodes(&self) -> impl Iterator<Item = u32> + '_ {
        self.stack.iter().map(|frame| frame.node)
    }

    /// The overlay: the stack nodes, and the threshold, next threshold and iteration.
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

impl Ida<SquareGrid> {
    /// Sets up a search from `start` to `goal` with the [`DEFAULT_VISIT_LIMIT`]. Fails when
    /// either end is outside the grid or on a wall, or the weight is not allowed.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        check_ends(&grid, start, goal)?;
        let (s, g) = (grid.index(start) as u32, grid.index(goal) as u32);
        Self::on(SquareGrid::with_config(grid, &config), s, g, config)
    }
}

impl<S: OnGrid> Ida<S> {
    /// The cells on the stack, from the start up.
    pub fn stack(&self) -> impl Iterator<Item = Point> + '_ {
        self.stack.iter().map(|frame| self.space.at(frame.node))
    }
}

/// A value rounded to six decimals, for the notes.
fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

impl<S: Space + Clone + 'static> SpaceStepper<S> for Ida<S> {
    // One node visit (or the step that ends the search).
    steps_through_step_with!(S);

    fn reset(&mut self) {
        Ida::reset(self);
    }

    /// States, the cost and parent of each node's latest visit in this iteration, the
    /// counters (expanded: visits that pushed a node onto the stack) and the path.
    fn nodes(&self) -> &NodeTable {
        &self.nodes
    }

    /// The stack depth: IDA* keeps no open list.
    fn open_count(&self) -> usize {
        self.stack.len()
    }

    fn cost(&self) -> Option<f64> {
        (self.nodes.status == Status::Found).then_some(self.cost)
    }

    /// The estimate from `node` to the goal (before the weight).
    fn h_of(&self, node: u32) -> f64 {
        self.h(self.space.at(node))
    }

    holds_space_and_task!(S);

    /// IDA* keeps no open list: this is its stack (the current path), deepest node first,
    /// which is where the next visit starts from (after backing out of nodes with no edge
    /// left). Each key is the node's f.
    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        self.stack
            .iter()
            .rev()
            .take(limit)
            .map(|frame| {
                let h = self.h_of(frame.node);
                let parent = self.nodes.parent()[frame.node as usize];
                OpenEntry { cell: frame.node, g: frame.g, h, key: frame.g + self.task.config.weight * h, parent }
            })
            .collect()
    }

    /// Why the search stopped without an answer, when the visit limit stopped it.
    fn gave_up(&self) -> Option<String> {
        self.gave_up.clone()
    }
}

impl<S: OnGrid> GridStepper for Ida<S> {
    type Cells = S;

    fn h(&self, p: Point) -> f64 {
        Ida::h(self, p)
    }

    /// Sets every listed cell to `value` as a brush stroke does; when any changed, the search
    /// goes back to step 0.
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        Ok(stroke_then_restart(self, cells, value, |s| s.space.grid_mut()))
    }

    fn overlay(&self) -> Overlay {
        Ida::overlay(self)
    }
}
