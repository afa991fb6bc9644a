//! The stepper shared by the basic searches (BFS, DFS, Dijkstra, greedy best-first, A*) on
//! any [`Space`].
//!
//! The loop is the course's skeleton: take a node off the open list by the algorithm's
//! strategy, stop if it is the goal, else open or improve its neighbours and close it. Each
//! algorithm's file says how it orders the open list (`priority`) and which neighbours it
//! takes (`accepts`).

use std::collections::VecDeque;

use super::on_space::{holds_space_and_task, steps_through_step_with};
use super::open_list::{Calendar, OpenList};
use super::template::{GCount, ListKind};
use super::{
    astar, bfs, dfs, dijkstra, greedy, template, Algorithm, CellState, GridStepper, NoRecord, NodeTable, OpenEntry,
    Recorder, SearchConfig, SearchError, SpaceStepper, Status, StepEvent, Task,
};
use crate::grid::{Grid, Point};
use crate::space::{OnGrid, Space, SquareGrid};

/// Marks "no parent" in [`Search::parents`].
pub const NO_PARENT: u32 = u32::MAX;
/// A search that advances one expansion per [`step`](Search::step), on a square grid by
/// default or on any [`Space`] (see [`Search::on`]).
///
/// It owns its space and per-node buffers (state, g, parent) that a renderer can read without
/// copying. Going back is replay: [`seek`](Search::seek) resets and steps forward again, which
/// gives exactly the same state because every choice is deterministic.
///
/// Ties on the open list are broken in a fixed order, so a run matches a hand-worked one:
/// - A*: lowest f, then highest g (the node nearer the goal), then first opened.
/// - Dijkstra: lowest g, then first opened. Greedy best-first: lowest h, then first opened.
/// - BFS: first opened first; DFS: last pushed first.
/// - Neighbours are examined in the space's order: on the square grid N, E, S, W, then NE,
///   SE, SW, NW.
///
/// A node leaves the open list once: closed nodes are never reopened, unless
/// [`SearchConfig::reopen`] asks for it (A* and the skeleton of [`template`]).
#[derive(Clone, Debug)]
pub struct Search<S: Space = SquareGrid> {
    space: S,
    task: Task,
    goal_at: S::At,
    nodes: NodeTable,
    frontier: Frontier,
    current: u32,
}

#[derive(Clone, Debug)]
enum Frontier {
    Fifo(VecDeque<u32>),
    Lifo(Vec<u32>),
    /// A* and Dijkstra at weight 1 move one edge at a time: their keys suit the calendar.
    Queue(OpenList<Calendar>),
}

impl Frontier {
    fn new(config: &SearchConfig) -> Self {
        match config.algorithm {
            Algorithm::Bfs => Self::Fifo(VecDeque::new()),
            Algorithm::Dfs => Self::Lifo(Vec::new()),
            Algorithm::Dijkstra => Self::Queue(OpenList::new(true)),
            Algorithm::Greedy => Self::Queue(OpenList::new(false)),
            Algorithm::Template => match config.skeleton.list {
                ListKind::Queue => Self::Fifo(VecDeque::new()),
                ListKind::Stack => Self::Lifo(Vec::new()),
                // Any choice of a and b, so keys may fall: the heap, not a bucket queue.
                ListKind::Priority => Self::Queue(OpenList::new(false)),
            },
            // The other algorithms have their own steppers; `Search::new` refuses them.
            _ => Self::Queue(OpenList::new(config.weight == 1.0)),
        }
    }

    fn clear(&mut self) {
        match self {
            Self::Fifo(q) => q.clear(),
            Self::Lifo(s) => s.clear(),
            Self::Queue(q) => q.clear(),
        }
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn push(&mut self, config: &SearchConfig, node: u32, g: f64, h: f64) {
        match self {
            Self::Fifo(q) => q.push_back(node),
            Self::Lifo(s) => s.push(node),
            Self::Queue(queue) => {
                let (key, tie) = match config.algorithm {
                    Algorithm::Dijkstra => dijkstra::priority(g),
                    Algorithm::Greedy => greedy::priority(h),
                    Algorithm::Template => config.skeleton.priority(g, h),
                    Algorithm::Bfs | Algorithm::Dfs => (0.0, 0.0),
                    _ => astar::priority(g, h, config.weight),
                };
                queue.push(key, tie, node);
            }
        }
    }

    /// Takes the next node. Entries of nodes that `state` shows closed may be dropped on the
    /// way instead of returned; the caller skips those that are returned.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn pop(&mut self, state: &[u8]) -> Option<u32> {
        match self {
            Self::Fifo(q) => q.pop_front(),
            Self::Lifo(s) => s.pop(),
            Self::Queue(q) => q.pop(|node| state[node as usize] == CLOSED),
        }
    }
}

const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;

impl<S: Space> Search<S> {
    /// Sets up a search from node `start` to node `goal` of `space`. Fails when either is
    /// not a node of the space or is a wall, or the settings are not allowed.
    ///
    /// ```
    /// use pathlab_core::search::{Algorithm, Search, SearchConfig, SpaceStepper};
    /// use pathlab_core::space::Graph;
    /// let mut g = Graph::new(false);
    /// let (a, b, c) = (g.add_node("A", 0.0, 0.0).unwrap(), g.add_node("B", 1.0, 0.0).unwrap(), g.add_node("C", 2.0, 0.0).unwrap());
    /// g.add_edge(a, c, 9.0, false).unwrap();
    /// g.add_edge(a, b, 2.0, false).unwrap();
    /// g.add_edge(b, c, 3.0, false).unwrap();
    /// let mut s = Search::on(g, a, c, SearchConfig::new(Algorithm::AStar)).unwrap();
    /// s.run();
    /// assert_eq!(s.cost(), Some(5.0));
    /// assert_eq!(s.path_indices(), &[a, b, c]);
    /// ```
    pub fn on(mut space: S, start: u32, goal: u32, config: SearchConfig) -> Result<Self, SearchError> {
        check_any_space(&config)?;
        let task = Task::on(&mut space, start, goal, config)?;
        let n = space.node_count();
        let goal_at = space.at(goal);
        let mut search = Self {
            space,
            task,
            goal_at,
            nodes: NodeTable::new(n),
            frontier: Frontier::new(&config),
            current: NO_PARENT,
        };
        search.reset();
        Ok(search)
    }

    /// Goes back to step 0: only the start is open.
    pub fn reset(&mut self) {
        self.nodes.reset();
        self.frontier.clear();
        self.current = NO_PARENT;
        let s = self.task.start;
        self.nodes.open(s, 0.0, NO_PARENT);
        let h = self.estimate(self.space.at(s));
        self.frontier.push(&self.task.config, s, 0.0, h);
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
        self.space = space;
        if n != self.nodes.len() {
            self.nodes = NodeTable::new(n);
        }
        self.space.aim(self.task.goal);
        self.goal_at = self.space.at(self.task.goal);
        self.reset();
        Ok(())
    }

    /// Changes the algorithm and its settings; the search goes back to step 0. (The
    /// heuristic, diagonal rule and costs belong to the space: on a square grid use
    /// [`set_config`](Search::set_config).)
    pub fn set_algorithm(&mut self, config: SearchConfig) -> Result<(), SearchError> {
        check_any_space(&config)?;
        self.task.config = config;
        self.frontier = Frontier::new(&config);
        self.reset();
        Ok(())
    }

    /// Performs one step, telling `recorder` what it opened and improved. The step itself is
    /// in each algorithm's file: breadth-first in `bfs.rs`, depth-first in `dfs.rs`, and the
    /// best-first loop of Dijkstra, greedy best-first and A* in `astar.rs`.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent<S::At> {
        match self.task.config.algorithm {
            Algorithm::Bfs => bfs::step(self, recorder),
            Algorithm::Dfs => dfs::step(self, recorder),
            Algorithm::Template => template::step(self, recorder),
            _ => astar::step(self, recorder),
        }
    }

    /// The start of every step: closes the node the last step expanded, takes the next node
    /// off the open list (skipping closed ones) and makes it current. Returns it, or the event
    /// that ends the step: the goal taken off (found), the open list empty (no path), or the
    /// search already over.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(super) fn take_next<R: Recorder>(&mut self, recorder: &mut R) -> Result<(u32, S::At), StepEvent<S::At>> {
        if self.nodes.status.is_finished() {
            return Err(StepEvent::Finished);
        }
        if self.current != NO_PARENT {
            self.nodes.mark(self.current, CellState::Closed);
            self.current = NO_PARENT;
        }
        self.nodes.steps += 1;
        self.nodes.status = Status::Searching;
        let node = loop {
            match self.frontier.pop(self.nodes.state()) {
                None => {
                    self.nodes.status = Status::NoPath;
                    self.nodes.open = 0;
                    return Err(StepEvent::NoPath);
                }
                Some(n) if self.nodes.state()[n as usize] == CLOSED => {}
                Some(n) => break n,
            }
        };
        self.nodes.open -= 1;
        if node == self.task.goal {
            self.nodes.trace_path(node);
            self.nodes.status = Status::Found;
            return Err(StepEvent::Found { cost: self.found_cost() });
        }
        self.nodes.mark(node, CellState::Current);
        self.current = node;
        self.nodes.expanded += 1;
        recorder.expanded(node);
        Ok((node, self.space.at(node)))
    }

    /// Looks at every neighbour of `node` (whose `At` is `at`) that is not closed and puts it
    /// on the open list, with `node` as parent, when `accept(already_open, its g, new g)` says
    /// so: the algorithm's rule. A move adds `edge(its cost)` to g (the cost itself, except
    /// for the skeleton counting edges). With `reopen`, a closed neighbour that the new way
    /// reaches more cheaply is opened again.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(super) fn expand_by<R: Recorder>(
        &mut self,
        node: u32,
        at: S::At,
        recorder: &mut R,
        reopen: bool,
        edge: impl Fn(f64) -> f64,
        accept: impl Fn(bool, f64, f64) -> bool,
    ) {
        let Self { space, goal_at, task, nodes, frontier, .. } = self;
        let config = &task.config;
        let mut opened = 0;
        let (state, g, parent, touched) = nodes.parts();
        let base_g = g[node as usize];
        let uses_h = config.algorithm.uses_heuristic();
        let goal_at = *goal_at;
        space.for_each_neighbour(node, at, |nb, nb_at, cost| {
            let i = nb as usize;
            let st = state[i];
            // A self-loop (a graph may have one) never improves the node being expanded.
            if nb == node {
                return;
            }
            let new_g = base_g + edge(cost);
            let open = st == OPEN;
            if st == CLOSED {
                if !(reopen && new_g < g[i]) {
                    return;
                }
                opened += 1;
            } else if !accept(open, g[i], new_g) {
                return;
            } else if !open {
                touched.push(nb);
                opened += 1;
            }
            let old_g = (st == OPEN || st == CLOSED).then_some(g[i]);
            g[i] = new_g;
            parent[i] = node;
            state[i] = OPEN;
            let h = if uses_h { space.estimate(nb_at, goal_at) } else { 0.0 };
            frontier.push(config, nb, new_g, h);
            recorder.opened(nb, node, old_g, new_g);
        });
        nodes.open += opened;
    }

    /// The settings of this search.
    pub(super) const fn config(&self) -> SearchConfig {
        self.task.config
    }

    /// The cost of the path found, in the space's costs: g at the goal, except for the
    /// skeleton counting edges, whose path's moves are summed.
    fn found_cost(&self) -> f64 {
        let goal = self.task.goal;
        let config = &self.task.config;
        if config.algorithm != Algorithm::Template || config.skeleton.gcount == GCount::Costs {
            return self.nodes.g()[goal as usize];
        }
        let parents = self.nodes.parent();
        let (mut steps, mut child) = (Vec::new(), goal);
        while parents[child as usize] != NO_PARENT {
            let from = parents[child as usize];
            let mut step = f64::INFINITY;
            self.space.for_each_neighbour(from, self.space.at(from), |nb, _, cost| {
                if nb == child {
                    step = step.min(cost);
                }
            });
            steps.push(step);
            child = from;
        }
        // Summed from the start, as a search adds its g, so that the sums agree to the bit.
        steps.iter().rev().fold(0.0, |total, step| total + step)
    }

    /// The estimate of this search from a node's `At` to the goal (before the weight; 0 for
    /// the algorithms that use none).
    #[inline]
    fn estimate(&self, at: S::At) -> f64 {
        if self.task.config.algorithm.uses_heuristic() {
            self.space.estimate(at, self.goal_at)
        } else {
            0.0
        }
    }

    /// The node the last step expanded, if the search is not finished.
    pub fn current_node(&self) -> Option<u32> {
        (self.current != NO_PARENT).then_some(self.current)
    }
}

impl Search<SquareGrid> {
    /// Sets up a search from `start` to `goal` on `grid`. Fails when either end is outside
    /// the grid or on a wall, or the weight is not allowed.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_basic(&config)?;
        check_ends(&grid, start, goal)?;
        let (s, g) = (grid.index(start) as u32, grid.index(goal) as u32);
        Self::on(SquareGrid::with_config(grid, &config), s, g, config)
    }

    /// Replaces the grid, start and goal at once; the search goes back to step 0.
    pub fn set_grid(&mut self, grid: Grid, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&grid, start, goal)?;
        let (s, g) = (grid.index(start) as u32, grid.index(goal) as u32);
        self.space.grid = grid;
        self.nodes = NodeTable::new(self.space.grid.len());
        self.task.start = s;
        self.task.goal = g;
        self.goal_at = self.space.at(g);
        self.reset();
        Ok(())
    }
}

impl<S: OnGrid> Search<S> {
    /// Changes the settings; the search goes back to step 0.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), SearchError> {
        check_basic(&config)?;
        self.space.configure(&config);
        self.set_algorithm(config)
    }

    /// Changes one cell; the search goes back to step 0. Walling over the start or goal is
    /// refused.
    pub fn set_cell(&mut self, at: Point, value: u8) -> Result<(), SearchError> {
        if value == crate::grid::WALL {
            for (which, end) in [("start", self.space.at(self.task.start)), ("goal", self.goal_at)] {
                if end == at {
                    return Err(SearchError::OnWall { which, at });
                }
            }
        }
        self.space.grid_mut().set(at, value).map_err(|error| SearchError::OutOfBounds { which: "cell", error })?;
        self.reset();
        Ok(())
    }

    /// The cell the last step expanded, if the search is not finished.
    pub fn current(&self) -> Option<Point> {
        self.current_node().map(|n| self.space.at(n))
    }
}

/// The first `limit` distinct cells of `cells` for which `skip` does not hold, in order.
fn first_unique(cells: impl Iterator<Item = u32>, limit: usize, skip: impl Fn(u32) -> bool) -> Vec<u32> {
    let mut seen = std::collections::HashSet::new();
    cells.filter(|&c| !skip(c) && seen.insert(c)).take(limit).collect()
}

/// The heuristic from `p` to `goal` for the algorithms that use one, else 0.
#[inline]
pub(crate) fn estimate(config: &SearchConfig, goal: Point, p: Point) -> f64 {
    if config.algorithm.uses_heuristic() {
        config.heuristic.estimate(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y), config.costs)
    } else {
        0.0
    }
}

/// Checks that a search end is a node of the space and not a wall.
pub(crate) fn check_node<S: Space>(space: &S, which: &'static str, node: u32) -> Result<(), SearchError> {
    let n = space.node_count();
    if node as usize >= n {
        return Err(SearchError::Unsupported(format!("the {which} is node {node}, but the space has {n} nodes")));
    }
    if space.is_open(node) {
        Ok(())
    } else {
        Err(SearchError::Unsupported(format!("the {which} {} is a wall", space.label(node))))
    }
}

/// Checks the weight, and that the algorithm is one this stepper runs.
fn check_basic(config: &SearchConfig) -> Result<(), SearchError> {
    config.validate()?;
    if config.algorithm.is_basic() {
        Ok(())
    } else {
        Err(SearchError::Unsupported(format!("{} has its own stepper: build it with search::build", config.algorithm)))
    }
}

/// Checks the weight, and that the algorithm runs on any space and in this stepper, saying
/// why not.
fn check_any_space(config: &SearchConfig) -> Result<(), SearchError> {
    config.validate()?;
    if let Some(why) = config.algorithm.square_grid_only() {
        return Err(SearchError::Unsupported(format!("{}: {why}", config.algorithm)));
    }
    if config.algorithm.is_basic() {
        Ok(())
    } else {
        Err(SearchError::Unsupported(format!(
            "{} has its own stepper: build it with search::build_on",
            config.algorithm
        )))
    }
}

/// Checks that a search end is inside the grid and open.
pub(crate) fn check_end(grid: &Grid, which: &'static str, p: Point) -> Result<(), SearchError> {
    grid.point(p.x as i64, p.y as i64).map_err(|error| SearchError::OutOfBounds { which, error })?;
    if grid.is_passable(p) {
        Ok(())
    } else {
        Err(SearchError::OnWall { which, at: p })
    }
}

/// Checks both ends of a search: the start first, then the goal.
pub(crate) fn check_ends(grid: &Grid, start: Point, goal: Point) -> Result<(), SearchError> {
    check_end(grid, "start", start)?;
    check_end(grid, "goal", goal)
}

/// Sets every listed cell of `grid` to `value` as a brush stroke does: cells outside the grid
/// are skipped, and so are `start` and `goal` when `value` is a wall. Returns how many changed.
pub(crate) fn paint_cells(
    grid: &mut Grid,
    start: Point,
    goal: Point,
    cells: impl IntoIterator<Item = Point>,
    value: u8,
) -> usize {
    let mut changed = 0;
    for p in cells {
        let blocked_end = value == crate::grid::WALL && (p == start || p == goal);
        if blocked_end || grid.get(p).is_none_or(|v| v == value) {
            continue;
        }
        if grid.set(p, value).is_ok() {
            changed += 1;
        }
    }
    changed
}

/// A brush stroke on a search that starts over after any change: paints `cells` (see
/// [`paint_cells`]) on the grid `grid` picks out of `s`, sparing its start and goal under a
/// wall, and goes back to step 0 when any cell changed. Returns how many did.
pub(crate) fn stroke_then_restart<T: GridStepper>(
    s: &mut T,
    cells: &[Point],
    value: u8,
    grid: impl FnOnce(&mut T) -> &mut Grid,
) -> usize {
    let space = s.space();
    let (start, goal) = (space.at(s.start_node()), space.at(s.goal_node()));
    let changed = paint_cells(grid(s), start, goal, cells.iter().copied(), value);
    if changed > 0 {
        SpaceStepper::reset(s);
    }
    changed
}

impl<S: Space + Clone + 'static> SpaceStepper<S> for Search<S> {
    // One expansion, or the final pop of the goal.
    steps_through_step_with!(S);

    fn reset(&mut self) {
        Search::reset(self);
    }

    fn nodes(&self) -> &NodeTable {
        &self.nodes
    }

    fn cost(&self) -> Option<f64> {
        (self.nodes.status == Status::Found).then(|| self.found_cost())
    }

    /// The estimate from `node` to the goal that this search uses (before the weight; 0 for
    /// the algorithms that use none).
    fn h_of(&self, node: u32) -> f64 {
        self.estimate(self.space.at(node))
    }

    holds_space_and_task!(S);

    /// The open list in exactly the order the next steps take its nodes off (if nothing more
    /// were put on it), at most `limit` entries: the first is the node the next step expands
    /// (or, when it is the goal, finds). Breadth-first search lists its queue from the front,
    /// depth-first search its stack from the top; the others list their open list by their
    /// key and the tie-break rule. Nodes the search would skip (already closed, or pushed
    /// again by depth-first search) are left out. Each entry's [`key`](OpenEntry::key) is
    /// what the algorithm orders by.
    ///
    /// ```
    /// use pathlab_core::grid::{Grid, Point};
    /// use pathlab_core::search::{Algorithm, Search, SearchConfig, StepEvent, Stepper};
    /// let grid = Grid::new(5, 5).unwrap();
    /// let mut s = Search::new(grid.clone(), Point::new(0, 0), Point::new(4, 4), SearchConfig::new(Algorithm::AStar)).unwrap();
    /// s.step();
    /// let next = s.open_entries(1)[0];
    /// assert_eq!(s.step(), StepEvent::Expanded(grid.point_at(next.cell as usize)));
    /// ```
    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        let state = self.nodes.state();
        let skip = |n: u32| state[n as usize] != OPEN;
        let cells = match &self.frontier {
            Frontier::Fifo(q) => first_unique(q.iter().copied(), limit, skip),
            Frontier::Lifo(s) => first_unique(s.iter().rev().copied(), limit, skip),
            Frontier::Queue(q) => q.leaving_order(limit, skip),
        };
        let weight = self.task.config.weight;
        cells
            .into_iter()
            .enumerate()
            .map(|(place, cell)| {
                let i = cell as usize;
                let g = self.nodes.g()[i];
                let h = self.h_of(cell);
                let key = match self.task.config.algorithm {
                    Algorithm::Bfs | Algorithm::Dfs => place as f64,
                    Algorithm::Dijkstra => g,
                    Algorithm::Greedy => h,
                    Algorithm::Template => match self.task.config.skeleton.list {
                        ListKind::Priority => self.task.config.skeleton.priority(g, h).0,
                        ListKind::Queue | ListKind::Stack => place as f64,
                    },
                    _ => g + weight * h,
                };
                OpenEntry { cell, g, h, key, parent: self.nodes.parent()[i] }
            })
            .collect()
    }
}

impl<S: OnGrid> GridStepper for Search<S> {
    type Cells = S;

    fn h(&self, p: Point) -> f64 {
        self.estimate(p)
    }

    /// Sets every listed cell to `value`, as a brush stroke does: cells outside the grid are
    /// skipped, and so are the start and goal when `value` is a wall. Returns how many cells
    /// changed; when any did, the search goes back to step 0.
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        Ok(stroke_then_restart(self, cells, value, |s| s.space.grid_mut()))
    }
}

/// Expansions of a fresh A* (this stepper, weight 1) on `space`, with its estimate, from
/// `from` to `goal`: what an incremental search's repair is compared with.
pub(crate) fn fresh_astar<S: Space + Clone>(space: &S, from: u32, goal: u32) -> usize {
    match Search::on(space.clone(), from, goal, SearchConfig::new(Algorithm::AStar)) {
        Ok(mut search) => {
            while !search.nodes.status.is_finished() {
                search.step_with(&mut NoRecord);
            }
            search.nodes.expanded
        }
        Err(_) => 0,
    }
}
