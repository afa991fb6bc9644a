//! The stepper shared by every grid search.

use std::collections::VecDeque;

use super::{
    astar, bfs, dfs, dijkstra, greedy, Algorithm, CellState, EventLog, NoRecord, OpenEntry, Path, Recorder,
    SearchConfig, SearchError, Status, StepEvent, Stepper,
};
use super::open_list::OpenList;
use crate::grid::{Grid, Point};

/// Marks "no parent" in [`Search::parents`].
pub const NO_PARENT: u32 = u32::MAX;

/// A grid search that advances one expansion per [`step`](Search::step).
///
/// It owns its grid and per-cell buffers (state, g, parent) that a renderer can read without
/// copying. Going back is replay: [`seek`](Search::seek) resets and steps forward again, which
/// gives exactly the same state because every choice is deterministic.
///
/// Ties on the open list are broken in a fixed order, so a run matches a hand-worked one:
/// - A*: lowest f, then highest g (the node nearer the goal), then first opened.
/// - Dijkstra: lowest g, then first opened. Greedy best-first: lowest h, then first opened.
/// - BFS: first opened first; DFS: last pushed first.
/// - Neighbours are examined N, E, S, W, then NE, SE, SW, NW.
///
/// A node leaves the open list once: closed nodes are never reopened.
#[derive(Clone, Debug)]
pub struct Search {
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    state: Vec<u8>,
    g: Vec<f64>,
    parent: Vec<u32>,
    touched: Vec<u32>,
    frontier: Frontier,
    current: u32,
    status: Status,
    steps: usize,
    expanded: usize,
    open: usize,
    path: Vec<u32>,
}

#[derive(Clone, Debug)]
enum Frontier {
    Fifo(VecDeque<u32>),
    Lifo(Vec<u32>),
    Queue(OpenList),
}

impl Frontier {
    fn new(config: &SearchConfig) -> Self {
        match config.algorithm {
            Algorithm::Bfs => Self::Fifo(VecDeque::new()),
            Algorithm::Dfs => Self::Lifo(Vec::new()),
            Algorithm::Dijkstra => Self::Queue(OpenList::new(true)),
            Algorithm::Greedy => Self::Queue(OpenList::new(false)),
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

    #[inline]
    fn push(&mut self, config: &SearchConfig, node: u32, g: f64, h: f64) {
        match self {
            Self::Fifo(q) => q.push_back(node),
            Self::Lifo(s) => s.push(node),
            Self::Queue(queue) => {
                let (key, tie) = match config.algorithm {
                    Algorithm::Dijkstra => dijkstra::priority(g),
                    Algorithm::Greedy => greedy::priority(h),
                    Algorithm::Bfs | Algorithm::Dfs => (0.0, 0.0),
                    _ => astar::priority(g, h, config.weight),
                };
                queue.push(key, tie, node);
            }
        }
    }

    /// Takes the next node. Entries of nodes that `state` shows closed may be dropped on the
    /// way instead of returned; the caller skips those that are returned.
    #[inline]
    fn pop(&mut self, state: &[u8]) -> Option<u32> {
        match self {
            Self::Fifo(q) => q.pop_front(),
            Self::Lifo(s) => s.pop(),
            Self::Queue(q) => q.pop(|node| state[node as usize] == CLOSED),
        }
    }
}

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;

impl Search {
    /// Sets up a search from `start` to `goal` on `grid`. Fails when either end is outside
    /// the grid or on a wall, or the weight is not allowed.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_basic(&config)?;
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
            touched: Vec::new(),
            frontier: Frontier::new(&config),
            current: NO_PARENT,
            status: Status::Ready,
            steps: 0,
            expanded: 0,
            open: 0,
            path: Vec::new(),
        };
        search.reset();
        Ok(search)
    }

    /// Goes back to step 0: only the start is open.
    pub fn reset(&mut self) {
        if self.touched.len() * 4 > self.state.len() {
            self.state.fill(UNSEEN);
            self.g.fill(f64::INFINITY);
            self.parent.fill(NO_PARENT);
        } else {
            for &i in &self.touched {
                let i = i as usize;
                self.state[i] = UNSEEN;
                self.g[i] = f64::INFINITY;
                self.parent[i] = NO_PARENT;
            }
        }
        self.touched.clear();
        self.frontier.clear();
        self.path.clear();
        self.current = NO_PARENT;
        self.status = Status::Ready;
        self.steps = 0;
        self.expanded = 0;
        self.open = 1;
        let s = self.grid.index(self.start) as u32;
        self.state[s as usize] = OPEN;
        self.g[s as usize] = 0.0;
        self.touched.push(s);
        let h = estimate(&self.config, self.goal, self.start);
        self.frontier.push(&self.config, s, 0.0, h);
    }

    /// Moves the start and goal; the search goes back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.start = start;
        self.goal = goal;
        self.reset();
        Ok(())
    }

    /// Changes the settings; the search goes back to step 0.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), SearchError> {
        check_basic(&config)?;
        self.config = config;
        self.frontier = Frontier::new(&config);
        self.reset();
        Ok(())
    }

    /// Changes one cell; the search goes back to step 0. Walling over the start or goal is
    /// refused.
    pub fn set_cell(&mut self, at: Point, value: u8) -> Result<(), SearchError> {
        if value == crate::grid::WALL {
            for (which, end) in [("start", self.start), ("goal", self.goal)] {
                if end == at {
                    return Err(SearchError::OnWall { which, at });
                }
            }
        }
        self.grid.set(at, value).map_err(|error| SearchError::OutOfBounds { which: "cell", error })?;
        self.reset();
        Ok(())
    }

    /// Sets every listed cell to `value`, as a brush stroke does: cells outside the grid are
    /// skipped, and so are the start and goal when `value` is a wall. Returns how many cells
    /// changed; when any did, the search goes back to step 0.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let changed = paint_cells(&mut self.grid, self.start, self.goal, cells, value);
        if changed > 0 {
            self.reset();
        }
        changed
    }

    /// Replaces the grid, start and goal at once; the search goes back to step 0.
    pub fn set_grid(&mut self, grid: Grid, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&grid, start, goal)?;
        let n = grid.len();
        self.grid = grid;
        self.start = start;
        self.goal = goal;
        self.state = vec![UNSEEN; n];
        self.g = vec![f64::INFINITY; n];
        self.parent = vec![NO_PARENT; n];
        self.touched.clear();
        self.reset();
        Ok(())
    }

    /// Performs one step (one expansion, or the final pop of the goal).
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` what it opened and improved.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        if self.current != NO_PARENT {
            self.state[self.current as usize] = CLOSED;
            self.current = NO_PARENT;
        }
        self.steps += 1;
        self.status = Status::Searching;
        let node = loop {
            match self.frontier.pop(&self.state) {
                None => {
                    self.status = Status::NoPath;
                    self.open = 0;
                    return StepEvent::NoPath;
                }
                Some(n) if self.state[n as usize] == CLOSED => {}
                Some(n) => break n,
            }
        };
        self.open -= 1;
        let ni = node as usize;
        if ni == self.grid.index(self.goal) {
            self.state[ni] = CLOSED;
            self.finish_path();
            self.status = Status::Found;
            return StepEvent::Found { cost: self.g[ni] };
        }
        self.state[ni] = CURRENT;
        self.current = node;
        self.expanded += 1;
        recorder.expanded(node);
        let at = self.grid.point_at(ni);
        self.expand(ni, at, recorder);
        StepEvent::Expanded(at)
    }

    /// Opens or improves the neighbours of `ni`, the cell at `at`.
    #[inline]
    fn expand<R: Recorder>(&mut self, ni: usize, at: Point, recorder: &mut R) {
        let Self { grid, goal, config, state, g, parent, touched, frontier, open, .. } = self;
        let base_g = g[ni];
        let cells = grid.cells();
        grid.for_each_neighbour_of(at, config.diagonal, |nb, nb_at, diagonal| {
            let st = state[nb];
            if st == CLOSED {
                return;
            }
            let new_g = base_g + config.costs.step(diagonal, cells[nb]);
            let accept = match config.algorithm {
                Algorithm::Bfs => bfs::accepts(st == OPEN),
                Algorithm::Dfs => dfs::accepts(st == OPEN),
                _ => st == UNSEEN || new_g < g[nb],
            };
            if !accept {
                return;
            }
            let old_g = if st == OPEN {
                Some(g[nb])
            } else {
                touched.push(nb as u32);
                *open += 1;
                None
            };
            g[nb] = new_g;
            parent[nb] = ni as u32;
            state[nb] = OPEN;
            let h = estimate(config, *goal, nb_at);
            frontier.push(config, nb as u32, new_g, h);
            recorder.opened(nb as u32, ni as u32, old_g, new_g);
        });
    }

    fn finish_path(&mut self) {
        let mut at = self.grid.index(self.goal) as u32;
        self.path.clear();
        while at != NO_PARENT {
            self.path.push(at);
            at = self.parent[at as usize];
        }
        self.path.reverse();
        for &p in &self.path {
            self.state[p as usize] = CellState::Path as u8;
        }
    }

    /// Runs `n` steps, or fewer if the search finishes; returns how many were taken.
    pub fn advance(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n && !self.status.is_finished() {
            self.step();
            done += 1;
        }
        done
    }

    /// Runs to the end and returns the final status.
    pub fn run(&mut self) -> Status {
        while !self.status.is_finished() {
            self.step();
        }
        self.status
    }

    /// Puts the search at step `k` (or at its end, if it finishes sooner) by replay.
    pub fn seek(&mut self, k: usize) {
        if k < self.steps {
            self.reset();
        }
        let remaining = k - self.steps;
        self.advance(remaining);
    }

    /// Undoes the last step (by replay); does nothing at step 0.
    pub fn back(&mut self) {
        if self.steps > 0 {
            self.seek(self.steps - 1);
        }
    }

    /// The estimate from `p` to the goal that this search uses (before the weight; 0 for
    /// the algorithms that use none).
    pub fn h(&self, p: Point) -> f64 {
        estimate(&self.config, self.goal, p)
    }

    /// The grid searched.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The start cell.
    pub fn start(&self) -> Point {
        self.start
    }

    /// The goal cell.
    pub fn goal(&self) -> Point {
        self.goal
    }

    /// The settings.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// Where the search stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Steps taken since the start (a step that finds the goal or the dead end counts).
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Nodes expanded (the goal, once popped, is not expanded).
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// Cells on the open list.
    pub fn open_count(&self) -> usize {
        self.open
    }

    /// The path's cost once found.
    pub fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then(|| self.g[self.grid.index(self.goal)])
    }

    /// The path once found.
    pub fn path(&self) -> Option<Path> {
        let cost = self.cost()?;
        let points = self.path.iter().map(|&i| self.grid.point_at(i as usize)).collect();
        Some(Path { points, cost })
    }

    /// The path once found, as row-major indices from start to goal (empty before).
    pub fn path_indices(&self) -> &[u32] {
        &self.path
    }

    /// One [`CellState`] byte per cell, row-major.
    pub fn states(&self) -> &[u8] {
        &self.state
    }

    /// The best cost known to each cell (infinite where unseen), row-major.
    pub fn g_values(&self) -> &[f64] {
        &self.g
    }

    /// Each cell's parent as a row-major index, or [`NO_PARENT`].
    pub fn parents(&self) -> &[u32] {
        &self.parent
    }

    /// The node the last step expanded, if the search is not finished.
    pub fn current(&self) -> Option<Point> {
        (self.current != NO_PARENT).then(|| self.grid.point_at(self.current as usize))
    }

    /// The open list in exactly the order the next steps take its cells off (if nothing more
    /// were put on it), at most `limit` entries: the first is the cell the next step expands
    /// (or, when it is the goal, finds). Breadth-first search lists its queue from the front,
    /// depth-first search its stack from the top; the others list their open list by their
    /// key and the tie-break rule. Cells the search would skip (already closed, or pushed
    /// again by depth-first search) are left out. Each entry's [`key`](OpenEntry::key) is
    /// what the algorithm orders by.
    ///
    /// ```
    /// use pathlab_core::grid::{Grid, Point};
    /// use pathlab_core::search::{Algorithm, Search, SearchConfig, StepEvent};
    /// let grid = Grid::new(5, 5).unwrap();
    /// let mut s = Search::new(grid.clone(), Point::new(0, 0), Point::new(4, 4), SearchConfig::new(Algorithm::AStar)).unwrap();
    /// s.step();
    /// let next = s.open_entries(1)[0];
    /// assert_eq!(s.step(), StepEvent::Expanded(grid.point_at(next.cell as usize)));
    /// ```
    pub fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        let state = &self.state;
        let skip = |n: u32| state[n as usize] != OPEN;
        let cells = match &self.frontier {
            Frontier::Fifo(q) => first_unique(q.iter().copied(), limit, skip),
            Frontier::Lifo(s) => first_unique(s.iter().rev().copied(), limit, skip),
            Frontier::Queue(q) => q.leaving_order(limit, skip),
        };
        let weight = self.config.weight;
        cells
            .into_iter()
            .enumerate()
            .map(|(place, cell)| {
                let i = cell as usize;
                let g = self.g[i];
                let h = estimate(&self.config, self.goal, self.grid.point_at(i));
                let key = match self.config.algorithm {
                    Algorithm::Bfs | Algorithm::Dfs => place as f64,
                    Algorithm::Dijkstra => g,
                    Algorithm::Greedy => h,
                    _ => g + weight * h,
                };
                OpenEntry { cell, g, h, key, parent: self.parent[i] }
            })
            .collect()
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

/// Checks the weight, and that the algorithm is one this stepper runs.
fn check_basic(config: &SearchConfig) -> Result<(), SearchError> {
    config.validate()?;
    if config.algorithm.is_basic() {
        Ok(())
    } else {
        Err(SearchError::Unsupported(format!(
            "{} has its own stepper: build it with search::build",
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
pub(crate) fn paint_cells(grid: &mut Grid, start: Point, goal: Point, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
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

impl Stepper for Search {
    super::stepper::stepper_steps!(Search);
    super::stepper::stepper_fields!();
    super::stepper::stepper_buffers!();
    super::stepper::stepper_edits!(Search);

    fn expanded(&self) -> usize {
        self.expanded
    }

    fn open_count(&self) -> usize {
        self.open
    }

    fn h(&self, p: Point) -> f64 {
        Search::h(self, p)
    }

    fn grid(&self) -> &Grid {
        &self.grid
    }

    fn seek(&mut self, k: usize) {
        Search::seek(self, k);
    }

    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        Search::open_entries(self, limit)
    }
}
