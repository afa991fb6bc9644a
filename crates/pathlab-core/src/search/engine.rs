//! The stepper shared by every grid search.

use std::cmp::Ordering;
use std::collections::VecDeque;

use super::{
    astar, bfs, dfs, dijkstra, greedy, Algorithm, CellState, NoRecord, Path, Recorder,
    SearchConfig, SearchError, Status, StepEvent,
};
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
    seq: u32,
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
    Queue(PriorityQueue),
}

/// An open-list entry; the heap pops the smallest `(key, tie, seq)`.
///
/// `key` and `tie` are the f64 priorities mapped to integers in the same order (see
/// [`ordered`]), so comparing entries is integer comparison. `seq` counts the pushes since
/// the search began (at most 8 per cell, so far below `u32::MAX` on a grid of at most
/// [`MAX_SIDE`](crate::grid::MAX_SIDE) squared cells): no two entries compare equal, and any
/// correct priority queue pops them in the same order.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    tie: u64,
    seq: u32,
    node: u32,
}

impl Entry {
    /// `(key, tie)` as one number: entries leave in order of rank, then of `seq`.
    #[inline]
    fn rank(&self) -> u128 {
        (u128::from(self.key) << 64) | u128::from(self.tie)
    }

    /// True when `self` comes off the open list before `other`.
    ///
    /// Written without short-circuits so that it compiles to flag arithmetic rather than
    /// branches, which the heap's sift-down would mispredict half the time.
    #[allow(clippy::needless_bitwise_bool)]
    #[inline]
    fn before(&self, other: &Self) -> bool {
        let (a, b) = (self.rank(), other.rank());
        (a < b) | ((a == b) & (self.seq < other.seq))
    }
}

/// Maps a priority to an integer with the same order: for any two non-NaN values,
/// `a < b` exactly when `ordered(a) < ordered(b)`, and `a == b` (which includes 0.0 and
/// -0.0) exactly when `ordered(a) == ordered(b)`.
#[inline]
fn ordered(x: f64) -> u64 {
    // Adding 0.0 turns -0.0 into 0.0. Then for positive values the bits grow with the value,
    // and for negative values they shrink: flipping the sign bit, or every bit, fixes both.
    let bits = (x + 0.0).to_bits();
    if bits >> 63 == 0 {
        bits | (1 << 63)
    } else {
        !bits
    }
}

/// A four-ary min-heap of [`Entry`]: half the depth of a binary heap, and its sift-down
/// compares children that sit side by side in memory.
#[derive(Clone, Debug, Default)]
struct MinHeap {
    items: Vec<Entry>,
}

impl MinHeap {
    const ARITY: usize = 4;

    fn clear(&mut self) {
        self.items.clear();
    }

    #[inline]
    fn push(&mut self, entry: Entry) {
        let items = &mut self.items;
        let mut hole = items.len();
        items.push(entry);
        while hole > 0 {
            let parent = (hole - 1) / Self::ARITY;
            let above = items[parent];
            if !entry.before(&above) {
                break;
            }
            items[hole] = above;
            hole = parent;
        }
        items[hole] = entry;
    }

    #[inline]
    fn pop(&mut self) -> Option<Entry> {
        let items = &mut self.items;
        let last = items.pop()?;
        let Some(&top) = items.first() else {
            return Some(last);
        };
        let len = items.len();
        let mut hole = 0;
        loop {
            let first = hole * Self::ARITY + 1;
            if first >= len {
                break;
            }
            let end = (first + Self::ARITY).min(len);
            let mut best = first;
            let mut best_entry = items[first];
            for (child, entry) in items[first + 1..end].iter().enumerate() {
                if entry.before(&best_entry) {
                    best = first + 1 + child;
                    best_entry = *entry;
                }
            }
            if !best_entry.before(&last) {
                break;
            }
            items[hole] = best_entry;
            hole = best;
        }
        items[hole] = last;
        Some(top)
    }
}

/// A radix heap of [`Entry`], for priorities that seldom go below the last one popped.
///
/// The priority is `(key, tie)` read as one 128-bit number ([`Entry::rank`]). Entries whose
/// rank equals `last` wait in `current`, in push order (which is `seq` order); an entry of
/// higher rank sits in the bucket numbered by the highest bit in which its rank differs from
/// `last`. When `current` runs dry, the lowest non-empty bucket holds the lowest ranks: the
/// lowest becomes `last`, and the bucket's entries move to `current` or to lower buckets.
/// Each entry moves a few times at most, to the end of a vector, instead of travelling the
/// height of a heap on every pop.
///
/// A* priorities can dip below `last` (when a rounding error or an inconsistent heuristic
/// makes a child's f smaller than its parent's): such entries wait in `below`, a plain heap,
/// and leave before all others, since every other rank is at least `last`.
#[derive(Clone, Debug)]
struct RadixHeap {
    last: u128,
    /// Entries of rank `last` in `seq` order; those before `head` have left.
    current: Vec<Entry>,
    head: usize,
    below: MinHeap,
    buckets: Vec<Vec<Entry>>,
    /// Bit `i` set when `buckets[i]` is not empty.
    filled: u128,
}

impl Default for RadixHeap {
    fn default() -> Self {
        Self {
            last: 0,
            current: Vec::new(),
            head: 0,
            below: MinHeap::default(),
            buckets: vec![Vec::new(); 128],
            filled: 0,
        }
    }
}

impl RadixHeap {
    fn clear(&mut self) {
        self.last = 0;
        self.current.clear();
        self.head = 0;
        self.below.clear();
        let mut filled = self.filled;
        while filled != 0 {
            self.buckets[filled.trailing_zeros() as usize].clear();
            filled &= filled - 1;
        }
        self.filled = 0;
    }

    /// The bucket for a rank above `last`.
    #[inline]
    fn bucket(rank: u128, last: u128) -> usize {
        127 - (rank ^ last).leading_zeros() as usize
    }

    #[inline]
    fn push(&mut self, entry: Entry) {
        let rank = entry.rank();
        match rank.cmp(&self.last) {
            // Pushed after everything already waiting, so `seq` order is kept.
            Ordering::Equal => self.current.push(entry),
            Ordering::Greater => {
                let b = Self::bucket(rank, self.last);
                self.buckets[b].push(entry);
                self.filled |= 1 << b;
            }
            Ordering::Less => self.below.push(entry),
        }
    }

    /// Takes the first entry; entries for which `closed(node)` holds may be dropped on the
    /// way, since the search would skip them anyway.
    #[inline]
    fn pop(&mut self, closed: impl Fn(u32) -> bool) -> Option<Entry> {
        if !self.below.items.is_empty() {
            return self.below.pop();
        }
        if self.head == self.current.len() {
            self.refill(closed)?;
        }
        let entry = self.current[self.head];
        self.head += 1;
        Some(entry)
    }

    /// Moves the lowest ranks to `current`, dropping entries of closed nodes (those left
    /// behind when a node's cost improved); `None` when the heap is empty.
    fn refill(&mut self, closed: impl Fn(u32) -> bool) -> Option<()> {
        self.current.clear();
        self.head = 0;
        loop {
            if self.filled == 0 {
                return None;
            }
            let b = self.filled.trailing_zeros() as usize;
            let mut bucket = std::mem::take(&mut self.buckets[b]);
            self.filled &= !(1 << b);
            bucket.retain(|e| !closed(e.node));
            let Some(last) = bucket.iter().map(Entry::rank).min() else {
                self.buckets[b] = bucket;
                continue;
            };
            self.last = last;
            for entry in bucket.drain(..) {
                let rank = entry.rank();
                if rank == last {
                    self.current.push(entry);
                } else {
                    let to = Self::bucket(rank, last);
                    self.buckets[to].push(entry);
                    self.filled |= 1 << to;
                }
            }
            // Keep the emptied vector's room for the next time this bucket fills.
            self.buckets[b] = bucket;
            if self.current.len() > 1 {
                self.current.sort_unstable_by_key(|e| e.seq);
            }
            return Some(());
        }
    }
}

/// The open list of Dijkstra, greedy best-first and A*: a priority queue of [`Entry`].
///
/// Dijkstra's and plain A*'s keys (almost) never fall below the last key popped, which suits
/// a [`RadixHeap`]; greedy best-first's and weighted A*'s often do, and they use a
/// [`MinHeap`]. Entries never compare equal, so both pop them in the same order.
#[derive(Clone, Debug)]
enum PriorityQueue {
    Radix(RadixHeap),
    Heap(MinHeap),
}

impl PriorityQueue {
    fn new(config: &SearchConfig) -> Self {
        let monotone = match config.algorithm {
            Algorithm::Dijkstra => true,
            Algorithm::AStar => config.weight == 1.0,
            Algorithm::Bfs | Algorithm::Dfs | Algorithm::Greedy => false,
        };
        if monotone {
            Self::Radix(RadixHeap::default())
        } else {
            Self::Heap(MinHeap::default())
        }
    }

    fn clear(&mut self) {
        match self {
            Self::Radix(r) => r.clear(),
            Self::Heap(h) => h.clear(),
        }
    }

    #[inline]
    fn push(&mut self, entry: Entry) {
        match self {
            Self::Radix(r) => r.push(entry),
            Self::Heap(h) => h.push(entry),
        }
    }

    #[inline]
    fn pop(&mut self, closed: impl Fn(u32) -> bool) -> Option<Entry> {
        match self {
            Self::Radix(r) => r.pop(closed),
            Self::Heap(h) => h.pop(),
        }
    }
}

impl Frontier {
    fn new(config: &SearchConfig) -> Self {
        match config.algorithm {
            Algorithm::Bfs => Self::Fifo(VecDeque::new()),
            Algorithm::Dfs => Self::Lifo(Vec::new()),
            Algorithm::Dijkstra | Algorithm::Greedy | Algorithm::AStar => Self::Queue(PriorityQueue::new(config)),
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
    fn push(&mut self, config: &SearchConfig, seq: &mut u32, node: u32, g: f64, h: f64) {
        match self {
            Self::Fifo(q) => q.push_back(node),
            Self::Lifo(s) => s.push(node),
            Self::Queue(queue) => {
                let (key, tie) = match config.algorithm {
                    Algorithm::AStar => astar::priority(g, h, config.weight),
                    Algorithm::Dijkstra => dijkstra::priority(g),
                    Algorithm::Greedy => greedy::priority(h),
                    Algorithm::Bfs | Algorithm::Dfs => (0.0, 0.0),
                };
                queue.push(Entry { key: ordered(key), tie: ordered(tie), seq: *seq, node });
                *seq = seq.wrapping_add(1);
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
            Self::Queue(q) => q.pop(|node| state[node as usize] == CLOSED).map(|e| e.node),
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
        config.validate()?;
        check_end(&grid, "start", start)?;
        check_end(&grid, "goal", goal)?;
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
            seq: 0,
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
        self.seq = 0;
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
        self.frontier.push(&self.config, &mut self.seq, s, 0.0, h);
    }

    /// Moves the start and goal; the search goes back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_end(&self.grid, "start", start)?;
        check_end(&self.grid, "goal", goal)?;
        self.start = start;
        self.goal = goal;
        self.reset();
        Ok(())
    }

    /// Changes the settings; the search goes back to step 0.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), SearchError> {
        config.validate()?;
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
        let mut changed = 0;
        for p in cells {
            let blocked_end = value == crate::grid::WALL && (p == self.start || p == self.goal);
            if blocked_end || self.grid.get(p).is_none_or(|v| v == value) {
                continue;
            }
            self.grid.set(p, value).expect("checked inside");
            changed += 1;
        }
        if changed > 0 {
            self.reset();
        }
        changed
    }

    /// Replaces the grid, start and goal at once; the search goes back to step 0.
    pub fn set_grid(&mut self, grid: Grid, start: Point, goal: Point) -> Result<(), SearchError> {
        check_end(&grid, "start", start)?;
        check_end(&grid, "goal", goal)?;
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
        let Self { grid, goal, config, state, g, parent, touched, frontier, seq, open, .. } = self;
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
                Algorithm::Dijkstra | Algorithm::Greedy | Algorithm::AStar => {
                    st == UNSEEN || new_g < g[nb]
                }
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
            frontier.push(config, seq, nb as u32, new_g, h);
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
}

/// The heuristic from `p` to `goal` for the algorithms that use one, else 0.
#[inline]
fn estimate(config: &SearchConfig, goal: Point, p: Point) -> f64 {
    match config.algorithm {
        Algorithm::AStar | Algorithm::Greedy => {
            config.heuristic.estimate(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y), config.costs)
        }
        Algorithm::Bfs | Algorithm::Dfs | Algorithm::Dijkstra => 0.0,
    }
}

fn check_end(grid: &Grid, which: &'static str, p: Point) -> Result<(), SearchError> {
    grid.point(p.x as i64, p.y as i64).map_err(|error| SearchError::OutOfBounds { which, error })?;
    if grid.is_passable(p) {
        Ok(())
    } else {
        Err(SearchError::OnWall { which, at: p })
    }
}
