//! Hierarchical (region-based) A*: plan over a small graph of cluster entrances, then turn each
//! leg of that plan into grid moves inside one cluster.
//!
//! # The abstract graph (built once per grid)
//!
//! The grid is cut into square **clusters** of side [`SearchConfig::cluster`], from the
//! top-left; the last column and row of clusters are narrower when the side does not divide the
//! grid. Inside a cluster, cells that can reach each other without leaving it form a
//! **component** (a cluster split by a wall has two).
//!
//! - **Entrances.** Along the border between two clusters side by side (or one above the
//!   other), an entrance is a maximal run of cell pairs facing each other across the border
//!   with both cells open. A run of fewer than [`LONG_ENTRANCE`] pairs gets one pair of
//!   **transition** cells, in its middle (the upper or left of the two middle pairs when the
//!   run is even); a longer run gets two pairs, one at each end. The cells of a run on one
//!   side of the border are neighbours in a line inside one cluster, so a run touches exactly
//!   one component on each side.
//! - **Edges.** The two cells of a transition pair are joined both ways by the one move that
//!   crosses the border. Inside each cluster, every transition is joined to every other
//!   transition of its component by the cheapest path that stays in the cluster, found with
//!   Dijkstra's algorithm on the cluster's cells. Moving onto terrain costs more than moving
//!   off it, so an edge and its reverse can differ in cost: edges are directed.
//! - **Diagonal crossings.** A diagonal move from one cluster to another (also between two
//!   clusters that touch only at a corner) whose two side cells are not both walls can be
//!   replaced by two straight moves through an open side cell, each of them either inside a
//!   cluster or across a border in some run. So under `never`, `no-corner-cutting` and
//!   `at-most-one-blocked` (which never allow a diagonal between two walls) the runs are all
//!   the entrances needed. Only `always` allows a diagonal squeezed between two walls; for each
//!   such crossing whose two components are not already joined by a transition pair, the
//!   crossing's own two cells become one ([`Hpa::diagonal_entrances`] counts them).
//!
//! **Complete.** Take any grid path from start to goal and cut it where it leaves a cluster.
//! Every crossing is (after the replacement above) a straight move in some run, or an
//! `always` diagonal between walls whose components were given a transition pair. Each piece
//! in between stays in one component, which holds the transitions the path enters and leaves
//! by, all joined to each other. So the abstract graph has a route whenever the grid has a
//! path, and the search answers no path only when there is none.
//!
//! # A query
//!
//! The start and goal join the graph for the query: the start with an edge to every transition
//! of its component (costs by Dijkstra inside its cluster, forward), the goal with an edge from
//! every transition of its component (by Dijkstra backward from the goal, as moves pay for the
//! cell they enter). An end that is itself a transition is that node.
//!
//! **Close ends.** Start and goal in one cluster are also joined directly, by the cheapest path
//! inside the cluster (when there is one), so the abstract search weighs that path against
//! every route out and back in. Pathlab does the same when their clusters are neighbours
//! (side by side or corner to corner), searching the rectangle that covers both: otherwise two
//! cells a step apart across a border would be sent round through the nearest transitions,
//! which on the MovingAI maps can cost well over 1.5 times the optimum.
//!
//! # Stepping
//!
//! - One step is one **abstract expansion**: A* over the abstract graph, with `f = g + w h`,
//!   `h` the [`SearchConfig::heuristic`] from the node's cell to the goal and `w` the weight;
//!   ties go to the higher g, then to the node opened first. Closed nodes are never reopened.
//! - The step that takes the goal off the open list fixes the **abstract path** (returning
//!   [`StepEvent::Expanded`] at the goal, without counting an expansion).
//! - Then one step per abstract edge **refines** it into grid moves: the direct edge by A*
//!   restricted to the rectangle it was found in, another edge inside a cluster
//!   by A* restricted to that cluster (with the tightest admissible estimate for the diagonal
//!   rule, so each leg is as cheap as its edge says), an edge between clusters by its single
//!   move. The step that refines the last edge returns [`StepEvent::Found`]. With start and
//!   goal on one cell the goal's pop finds the path at once.
//!
//! The path's [`cost`](Hpa::cost) is the sum of the refined path's moves. It is often above
//! the cheapest: the route must pass through transition cells, and the abstract A* only knows
//! the costs between them.
//!
//! # What the page sees
//!
//! - [`states`](Stepper::states): `Open`, `Closed` and `Current` on the cells of abstract nodes,
//!   `Path` on the refined path so far; [`g_values`](Stepper::g_values) and
//!   [`parents`](Stepper::parents) on the cells of abstract nodes (a parent is the previous
//!   abstract node's cell, usually not a neighbour). As the path is refined, each of its cells
//!   takes its cost along the refined path and the previous path cell as parent.
//! - Linking the ends searches only until every transition of the end's component is settled;
//!   the build's searches stop the same way.
//! - The overlay: a [`BoxKind::Cluster`] box per cluster, a [`MarkKind::Entrance`] mark per
//!   transition cell, a [`LineKind::Abstract`] line per pair of joined nodes (left out, with a
//!   note, above [`MAX_EDGE_LINES`]), [`LineKind::AbstractPath`] lines along the abstract path
//!   once known, and notes: the clusters, abstract nodes and edges, the build's work (and time
//!   when a clock is available), abstract expansions, refined edges and, once found, the path
//!   cost against flat A* with the same settings.
//! - Painting rebuilds the abstract graph and goes back to step 0. Any terrain value is
//!   accepted.

use std::cell::OnceCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::time::Duration;

use super::engine::{check_ends, estimate, paint_cells};
use super::open_list::OpenList;
use super::stepper::{keeps_grid_and_ends, BoxKind, LineKind, MarkKind, Overlay, OverlayBox, OverlayLine, OverlayMark};
use super::{
    astar, Algorithm, CellState, EventLog, NoRecord, NodeTable, Recorder, Search, SearchConfig, SearchError, Status,
    StepEvent, Stepper, NO_PARENT,
};
use crate::grid::{Costs, Diagonal, Grid, Point, WALL};
use crate::heuristic::Heuristic;

/// Runs of at least this many cell pairs get a transition pair at each end; shorter ones one
/// pair in the middle.
pub const LONG_ENTRANCE: usize = 6;

/// Above this many joined node pairs the overlay leaves the abstract edges out (and says so in
/// a note): on a large map they would hide the grid.
pub const MAX_EDGE_LINES: usize = 3000;

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;

/// Marks "none" in the per-cell and per-node tables.
const NONE: u32 = u32::MAX;

/// A rectangle of cells, both corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Rect {
    fn contains(&self, p: Point) -> bool {
        p.x >= self.x0 && p.x <= self.x1 && p.y >= self.y0 && p.y <= self.y1
    }

    fn width(&self) -> usize {
        self.x1 - self.x0 + 1
    }

    fn area(&self) -> usize {
        self.width() * (self.y1 - self.y0 + 1)
    }

    /// A cell's index inside the rectangle, row-major.
    fn local(&self, p: Point) -> usize {
        (p.y - self.y0) * self.width() + (p.x - self.x0)
    }

    fn point(&self, local: usize) -> Point {
        Point::new(self.x0 + local % self.width(), self.y0 + local / self.width())
    }
}

/// How the grid is cut into clusters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    side: usize,
    across: usize,
    down: usize,
    width: usize,
    height: usize,
}

impl Layout {
    fn new(grid: &Grid, side: usize) -> Self {
        let (width, height) = (grid.width(), grid.height());
        Self { side, across: width.div_ceil(side), down: height.div_ceil(side), width, height }
    }

    fn count(&self) -> usize {
        self.across * self.down
    }

    fn cluster_of(&self, p: Point) -> usize {
        (p.y / self.side) * self.across + p.x / self.side
    }

    fn rect(&self, cluster: usize) -> Rect {
        let (cx, cy) = (cluster % self.across, cluster / self.across);
        Rect {
            x0: cx * self.side,
            y0: cy * self.side,
            x1: ((cx + 1) * self.side).min(self.width) - 1,
            y1: ((cy + 1) * self.side).min(self.height) - 1,
        }
    }
}

/// Dijkstra or A* restricted to one cluster, with buffers reused from search to search.
#[derive(Clone, Debug, Default)]
struct Local {
    dist: Vec<f64>,
    parent: Vec<u32>,
    /// `generation` where `dist` and `parent` hold this search's values.
    seen: Vec<u32>,
    /// `generation` where the cell is settled.
    done: Vec<u32>,
    generation: u32,
    /// `(f bits, push order, local cell)`: non-negative f64s order like their bits.
    heap: BinaryHeap<Reverse<(u64, u32, u32)>>,
    /// Cells settled by every search so far (the build's and the queries' work).
    settled: usize,
}

impl Local {
    fn prepare(&mut self, area: usize) {
        if self.dist.len() < area {
            self.dist.resize(area, f64::INFINITY);
            self.parent.resize(area, NONE);
            self.seen.resize(area, 0);
            self.done.resize(area, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.done.fill(0);
            self.generation = 1;
        }
        self.heap.clear();
    }

    /// Settles the cells of `rect` in order of their cost from `source` (`forward`) or to it
    /// (not `forward`), calling `visit(cell, cost)` for each until it returns false. With a
    /// `target` (forward only) the order is A*'s, with the tightest admissible estimate.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        grid: &Grid,
        rule: Diagonal,
        costs: Costs,
        rect: Rect,
        source: Point,
        forward: bool,
        target: Option<Point>,
        mut visit: impl FnMut(Point, f64) -> bool,
    ) {
        self.prepare(rect.area());
        let Self { dist, parent, seen, done, generation, heap, settled } = self;
        let generation = *generation;
        let cells = grid.cells();
        let estimate = Heuristic::default_for(rule);
        let h = |q: Point| target.map_or(0.0, |t| estimate.estimate(q.x.abs_diff(t.x), q.y.abs_diff(t.y), costs));
        let mut pushes = 0u32;
        let s = rect.local(source);
        dist[s] = 0.0;
        parent[s] = NONE;
        seen[s] = generation;
        heap.push(Reverse((h(source).to_bits(), pushes, s as u32)));
        while let Some(Reverse((_, _, i))) = heap.pop() {
            let i = i as usize;
            if done[i] == generation {
                continue;
            }
            done[i] = generation;
            *settled += 1;
            let p = rect.point(i);
            let d = dist[i];
            if !visit(p, d) {
                return;
            }
            let here = grid.index(p);
            grid.for_each_neighbour_of(p, rule, |nb, q, diagonal| {
                if !rect.contains(q) {
                    return;
                }
                let j = rect.local(q);
                if done[j] == generation {
                    return;
                }
                let entered = if forward { cells[nb] } else { cells[here] };
                let nd = d + costs.step(diagonal, entered);
                if seen[j] != generation || nd < dist[j] {
                    seen[j] = generation;
                    dist[j] = nd;
                    parent[j] = i as u32;
                    pushes += 1;
                    heap.push(Reverse(((nd + h(q)).to_bits(), pushes, j as u32)));
                }
            });
        }
    }

    /// The cells from the last search's source to `to` (settled), both included, as row-major
    /// grid indices.
    fn path(&self, grid: &Grid, rect: Rect, to: Point) -> Vec<u32> {
        let mut out = Vec::new();
        let mut at = rect.local(to) as u32;
        while at != NONE {
            out.push(grid.index(rect.point(at as usize)) as u32);
            at = self.parent[at as usize];
        }
        out.reverse();
        out
    }
}

/// The abstract graph of one grid under one diagonal rule, cost model and cluster side.
#[derive(Clone, Debug)]
struct Graph {
    layout: Layout,
    /// Each cell's component (unique over the grid), or [`NONE`] on walls.
    comp: Vec<u32>,
    /// Each cell's transition node, or [`NONE`].
    node_of: Vec<u32>,
    /// Each node's cell (row-major index).
    cells: Vec<u32>,
    /// Cluster `c`'s transitions are `by_cluster[cluster_first[c]..cluster_first[c + 1]]`.
    cluster_first: Vec<u32>,
    by_cluster: Vec<u32>,
    /// Node `n`'s edges are `edges[first[n]..first[n + 1]]`: (to, cost).
    first: Vec<u32>,
    edges: Vec<(u32, f64)>,
    /// The pairs of cells joined by an edge either way, smaller index first, sorted.
    lines: Vec<(u32, u32)>,
    /// Maximal runs of open pairs along the cluster borders.
    runs: usize,
    /// Transition pairs made for `always` diagonals between two walls.
    diagonal_entrances: usize,
    /// Directed edges inside clusters and across borders.
    intra: usize,
    inter: usize,
    /// Cells settled by the build's searches.
    settled: usize,
    /// How long the build took, where a clock is available.
    time: Option<Duration>,
}

impl Graph {
    fn build(grid: &Grid, config: &SearchConfig, local: &mut Local) -> Self {
        let clock = Clock::start();
        let layout = Layout::new(grid, config.cluster as usize);
        let mut graph = Self {
            layout,
            comp: components(grid, &layout, config.diagonal),
            node_of: vec![NONE; grid.len()],
            cells: Vec::new(),
            cluster_first: Vec::new(),
            by_cluster: Vec::new(),
            first: Vec::new(),
            edges: Vec::new(),
            lines: Vec::new(),
            runs: 0,
            diagonal_entrances: 0,
            intra: 0,
            inter: 0,
            settled: 0,
            time: None,
        };
        let mut raw = graph.entrances(grid, config.diagonal, config.costs);
        graph.inter = raw.len();
        graph.group_by_cluster(grid);
        let settled_before = local.settled;
        graph.join_inside_clusters(grid, config, local, &mut raw);
        graph.settled = local.settled - settled_before;
        graph.intra = raw.len() - graph.inter;
        graph.pack(raw);
        graph.time = clock.elapsed();
        graph
    }

    /// Makes the transition pairs (runs, then `always` diagonals between walls) and returns
    /// their edges both ways: (from, to, cost).
    fn entrances(&mut self, grid: &Grid, rule: Diagonal, costs: Costs) -> Vec<(u32, u32, f64)> {
        let layout = self.layout;
        let mut raw: Vec<(u32, u32, f64)> = Vec::new();
        let mut joined: HashSet<(u32, u32)> = HashSet::new();
        let track = rule.allows(false, false);
        let mut pair = |graph: &mut Self, joined: &mut HashSet<(u32, u32)>, u: Point, v: Point| {
            let (a, b) = (graph.node(grid, u), graph.node(grid, v));
            let diagonal = u.x != v.x && u.y != v.y;
            raw.push((a, b, costs.step(diagonal, grid.cells()[grid.index(v)])));
            raw.push((b, a, costs.step(diagonal, grid.cells()[grid.index(u)])));
            if track {
                let (ca, cb) = (graph.comp[grid.index(u)], graph.comp[grid.index(v)]);
                joined.insert((ca.min(cb), ca.max(cb)));
            }
        };
        // Runs across the borders between clusters side by side, then one above the other.
        let side = layout.side;
        for cy in 0..layout.down {
            for cx in 0..layout.across.saturating_sub(1) {
                let x = (cx + 1) * side - 1;
                let rows = cy * side..((cy + 1) * side).min(layout.height);
                for at in runs(rows, |y| grid.is_passable(Point::new(x, y)) && grid.is_passable(Point::new(x + 1, y))) {
                    self.runs += usize::from(at.1);
                    pair(self, &mut joined, Point::new(x, at.0), Point::new(x + 1, at.0));
                }
            }
        }
        for cy in 0..layout.down.saturating_sub(1) {
            let y = (cy + 1) * side - 1;
            for cx in 0..layout.across {
                let columns = cx * side..((cx + 1) * side).min(layout.width);
                for at in
                    runs(columns, |x| grid.is_passable(Point::new(x, y)) && grid.is_passable(Point::new(x, y + 1)))
                {
                    self.runs += usize::from(at.1);
                    pair(self, &mut joined, Point::new(at.0, y), Point::new(at.0, y + 1));
                }
            }
        }
        if !track {
            return raw;
        }
        // Diagonals squeezed between two walls (only `always` allows them): each unordered move
        // once, as a move down from its upper cell.
        for y in 0..layout.height.saturating_sub(1) {
            for x in 0..layout.width {
                let u = Point::new(x, y);
                if !grid.is_passable(u) {
                    continue;
                }
                for v in [x.checked_sub(1), Some(x + 1)].into_iter().flatten().map(|vx| Point::new(vx, y + 1)) {
                    let walled = !grid.is_passable(Point::new(v.x, y)) && !grid.is_passable(Point::new(x, y + 1));
                    if !walled || layout.cluster_of(u) == layout.cluster_of(v) || !grid.is_legal_move(u, v, rule) {
                        continue;
                    }
                    let (ca, cb) = (self.comp[grid.index(u)], self.comp[grid.index(v)]);
                    if !joined.contains(&(ca.min(cb), ca.max(cb))) {
                        self.diagonal_entrances += 1;
                        pair(self, &mut joined, u, v);
                    }
                }
            }
        }
        raw
    }

    /// Adds to `raw` the cheapest path inside each cluster from every transition to every
    /// other one of its component.
    fn join_inside_clusters(
        &self,
        grid: &Grid,
        config: &SearchConfig,
        local: &mut Local,
        raw: &mut Vec<(u32, u32, f64)>,
    ) {
        let layout = self.layout;
        let comp_of = |n: u32| self.comp[self.cells[n as usize] as usize];
        for cluster in 0..layout.count() {
            let rect = layout.rect(cluster);
            let nodes = self.in_cluster(cluster);
            for &t in nodes {
                let mut left = nodes.iter().filter(|&&m| m != t && comp_of(m) == comp_of(t)).count();
                if left == 0 {
                    continue;
                }
                let from = grid.point_at(self.cells[t as usize] as usize);
                local.search(grid, config.diagonal, config.costs, rect, from, true, None, |p, d| {
                    let m = self.node_of[grid.index(p)];
                    if m != NONE && m != t {
                        raw.push((t, m, d));
                        left -= 1;
                    }
                    left > 0
                });
            }
        }
    }

    /// Lists the transitions of each cluster (counting sort by cluster).
    fn group_by_cluster(&mut self, grid: &Grid) {
        let layout = self.layout;
        let cluster = |cell: u32| layout.cluster_of(grid.point_at(cell as usize));
        self.cluster_first = vec![0; layout.count() + 1];
        for &cell in &self.cells {
            self.cluster_first[cluster(cell) + 1] += 1;
        }
        for c in 0..layout.count() {
            self.cluster_first[c + 1] += self.cluster_first[c];
        }
        let mut next = self.cluster_first.clone();
        self.by_cluster = vec![0; self.cells.len()];
        for (n, &cell) in self.cells.iter().enumerate() {
            let c = cluster(cell);
            self.by_cluster[next[c] as usize] = n as u32;
            next[c] += 1;
        }
    }

    /// The transitions of a cluster, in the order they were made.
    fn in_cluster(&self, cluster: usize) -> &[u32] {
        &self.by_cluster[self.cluster_first[cluster] as usize..self.cluster_first[cluster + 1] as usize]
    }

    /// How many transitions of the cluster holding `p` share its component.
    fn sharing_component(&self, grid: &Grid, p: Point) -> usize {
        let comp = self.comp[grid.index(p)];
        self.in_cluster(self.layout.cluster_of(p))
            .iter()
            .filter(|&&n| self.comp[self.cells[n as usize] as usize] == comp)
            .count()
    }

    /// Stores the edges by node (and the pairs joined, for the overlay).
    fn pack(&mut self, mut raw: Vec<(u32, u32, f64)>) {
        super::order::sort_by(&mut raw, &|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2)));
        raw.dedup_by(|later, kept| (later.0, later.1) == (kept.0, kept.1));
        let n = self.cells.len();
        self.first = vec![0; n + 1];
        for &(from, _, _) in &raw {
            self.first[from as usize + 1] += 1;
        }
        for k in 0..n {
            self.first[k + 1] += self.first[k];
        }
        self.edges = raw.iter().map(|&(_, to, cost)| (to, cost)).collect();
        let cell = |n: u32| self.cells[n as usize];
        let mut lines: Vec<(u32, u32)> =
            raw.iter().map(|&(a, b, _)| (cell(a).min(cell(b)), cell(a).max(cell(b)))).collect();
        super::order::sort_by(&mut lines, &Ord::cmp);
        lines.dedup();
        self.lines = lines;
    }

    /// The transition node at `p`, made if needed.
    fn node(&mut self, grid: &Grid, p: Point) -> u32 {
        let i = grid.index(p);
        if self.node_of[i] == NONE {
            self.node_of[i] = self.cells.len() as u32;
            self.cells.push(i as u32);
        }
        self.node_of[i]
    }

    fn nodes(&self) -> usize {
        self.cells.len()
    }

    fn out(&self, n: u32) -> &[(u32, f64)] {
        let n = n as usize;
        if n < self.nodes() {
            &self.edges[self.first[n] as usize..self.first[n + 1] as usize]
        } else {
            &[]
        }
    }
}

/// The maximal runs of `open` positions in `range`; for each, the positions of its transition
/// pairs, with `true` on the first of them (so that runs can be counted).
fn runs(range: std::ops::Range<usize>, open: impl Fn(usize) -> bool) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    let mut begin = None;
    for k in range.start..=range.end {
        let here = k < range.end && open(k);
        match (begin, here) {
            (None, true) => begin = Some(k),
            (Some(a), false) => {
                let len = k - a;
                if len < LONG_ENTRANCE {
                    out.push((a + (len - 1) / 2, true));
                } else {
                    out.push((a, true));
                    out.push((k - 1, false));
                }
                begin = None;
            }
            _ => {}
        }
    }
    out
}

/// Labels each cell with its component inside its cluster (unique over the grid).
fn components(grid: &Grid, layout: &Layout, rule: Diagonal) -> Vec<u32> {
    let mut comp = vec![NONE; grid.len()];
    let mut next = 0u32;
    let mut queue = Vec::new();
    for cluster in 0..layout.count() {
        let rect = layout.rect(cluster);
        for y in rect.y0..=rect.y1 {
            for x in rect.x0..=rect.x1 {
                let i = grid.index(Point::new(x, y));
                if comp[i] != NONE || grid.cells()[i] == WALL {
                    continue;
                }
                comp[i] = next;
                queue.push(Point::new(x, y));
                while let Some(p) = queue.pop() {
                    grid.for_each_neighbour_of(p, rule, |nb, q, _| {
                        if rect.contains(q) && comp[nb] == NONE {
                            comp[nb] = next;
                            queue.push(q);
                        }
                    });
                }
                next += 1;
            }
        }
    }
    comp
}

/// A stopwatch (native builds).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) struct Clock(std::time::Instant);

#[cfg(not(target_arch = "wasm32"))]
impl Clock {
    pub(crate) fn start() -> Self {
        Self(std::time::Instant::now())
    }

    #[allow(clippy::unnecessary_wraps)]
    pub(crate) fn elapsed(&self) -> Option<Duration> {
        Some(self.0.elapsed())
    }
}

/// A stopwatch that reads nothing: WebAssembly has no clock of its own.
#[cfg(target_arch = "wasm32")]
pub(crate) struct Clock;

#[cfg(target_arch = "wasm32")]
impl Clock {
    pub(crate) fn start() -> Self {
        Self
    }

    #[allow(clippy::unused_self)]
    pub(crate) fn elapsed(&self) -> Option<Duration> {
        None
    }
}

/// The start and goal's place in the abstract graph for one query.
#[derive(Clone, Debug, Default)]
struct Query {
    /// The start's and goal's nodes: a transition's, or the temporary ids `nodes` (start) and
    /// `nodes + 1` (goal).
    s: u32,
    g: u32,
    /// The temporary start's edges (to transitions, and straight to a temporary goal).
    start_out: Vec<(u32, f64)>,
    /// The edges into a temporary goal: (from, cost).
    into_goal: Vec<(u32, f64)>,
    /// The direct edge's cost (infinite when none) and the cells its path may use: the
    /// start's cluster when the goal is in it too, the rectangle covering both clusters when
    /// they are neighbours.
    direct: f64,
    region: Option<Rect>,
    /// `to_goal[n]`: the cost of node `n`'s edge to a temporary goal (infinite when none).
    to_goal: Vec<f64>,
}

impl Query {
    fn new(graph: &Graph, local: &mut Local, grid: &Grid, config: &SearchConfig, start: Point, goal: Point) -> Self {
        let n = graph.nodes() as u32;
        let s = match graph.node_of[grid.index(start)] {
            NONE => n,
            id => id,
        };
        let g = if goal == start {
            s
        } else {
            match graph.node_of[grid.index(goal)] {
                NONE => n + 1,
                id => id,
            }
        };
        let mut query = Self {
            s,
            g,
            start_out: Vec::new(),
            into_goal: Vec::new(),
            direct: f64::INFINITY,
            region: None,
            to_goal: vec![f64::INFINITY; n as usize + 2],
        };
        if goal == start {
            return query;
        }
        let (rule, costs, layout) = (config.diagonal, config.costs, &graph.layout);
        let (a, b) = (layout.rect(layout.cluster_of(start)), layout.rect(layout.cluster_of(goal)));
        let (dx, dy) =
            ((a.x0 / layout.side).abs_diff(b.x0 / layout.side), (a.y0 / layout.side).abs_diff(b.y0 / layout.side));
        // In one cluster but different components, no path stays inside it.
        let apart = a == b && graph.comp[grid.index(start)] != graph.comp[grid.index(goal)];
        if dx <= 1 && dy <= 1 && !apart {
            let region = Rect { x0: a.x0.min(b.x0), y0: a.y0.min(b.y0), x1: a.x1.max(b.x1), y1: a.y1.max(b.y1) };
            let direct = &mut query.direct;
            local.search(grid, rule, costs, region, start, true, Some(goal), |p, d| {
                if p == goal {
                    *direct = d;
                }
                p != goal
            });
            query.region = Some(region);
        }
        // Each search stops once it has settled every transition of the end's component.
        let mut left = graph.sharing_component(grid, start);
        if s == n && left > 0 {
            let rect = layout.rect(layout.cluster_of(start));
            let out = &mut query.start_out;
            local.search(grid, rule, costs, rect, start, true, None, |p, d| {
                let m = graph.node_of[grid.index(p)];
                if m != NONE {
                    out.push((m, d));
                    left -= 1;
                }
                left > 0
            });
        }
        let mut left = graph.sharing_component(grid, goal);
        if g == n + 1 && left > 0 {
            let rect = layout.rect(layout.cluster_of(goal));
            let into = &mut query.into_goal;
            local.search(grid, rule, costs, rect, goal, false, None, |p, d| {
                let m = graph.node_of[grid.index(p)];
                if m != NONE {
                    into.push((m, d));
                    left -= 1;
                }
                left > 0
            });
            for &(m, d) in &query.into_goal {
                query.to_goal[m as usize] = d;
            }
        }
        query
    }

    /// Abstract edges made for this query.
    fn edges(&self) -> usize {
        self.start_out.len() + self.into_goal.len() + usize::from(self.direct.is_finite())
    }
}

/// Hierarchical A*, one abstract expansion or one refined edge per [`step`](Hpa::step). See
/// the [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::hpa::Hpa;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status};
/// // Three clusters of 4x4 in a row; each border has one entrance, in its middle (row 1).
/// let config = SearchConfig::new(Algorithm::Hpa).cluster(4).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
/// let mut s = Hpa::new(Grid::new(12, 4).unwrap(), Point::new(0, 0), Point::new(11, 0), config).unwrap();
/// assert_eq!((s.clusters(), s.abstract_nodes()), (3, 4));
/// assert_eq!(s.run(), Status::Found);
/// // Down to row 1 and back up: 13 moves, not the straight 11.
/// assert_eq!(s.cost(), Some(13.0));
/// ```
#[derive(Clone, Debug)]
pub struct Hpa {
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    graph: Graph,
    query: Query,
    local: Local,
    open_list: OpenList,
    node_g: Vec<f64>,
    node_parent: Vec<u32>,
    node_state: Vec<u8>,
    /// What the cells show: the abstract nodes' states, g and parents at their cells; the
    /// counters (abstract expansions and open nodes); the refined path as it grows.
    nodes: NodeTable,
    /// Scratch for the edges of the node being expanded.
    scratch: Vec<(u32, f64)>,
    current: u32,
    /// The abstract path (nodes from start to goal) once the goal is popped.
    abstract_path: Vec<u32>,
    refined: usize,
    cost: f64,
    failure: Option<String>,
    /// Flat A*'s cost and expansions with the same settings, worked out when first asked for.
    flat: OnceCell<(Option<f64>, usize)>,
}

impl Hpa {
    /// Builds the abstract graph of `grid` and sets up a search from `start` to `goal`. Fails
    /// when either end is outside the grid or on a wall, or a setting is out of range (the
    /// cluster side must be from [`MIN_CLUSTER`](super::MIN_CLUSTER) to
    /// [`MAX_CLUSTER`](super::MAX_CLUSTER)).
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        check_ends(&grid, start, goal)?;
        let mut local = Local::default();
        let graph = Graph::build(&grid, &config, &mut local);
        let query = Query::new(&graph, &mut local, &grid, &config, start, goal);
        let n = grid.len();
        let mut search = Self {
            grid,
            start,
            goal,
            config,
            graph,
            query,
            local,
            open_list: OpenList::new(config.weight == 1.0),
            node_g: Vec::new(),
            node_parent: Vec::new(),
            node_state: Vec::new(),
            nodes: NodeTable::new(n),
            scratch: Vec::new(),
            current: NONE,
            abstract_path: Vec::new(),
            refined: 0,
            cost: 0.0,
            failure: None,
            flat: OnceCell::new(),
        };
        search.reset();
        Ok(search)
    }

    /// Goes back to step 0: only the start's node is open.
    pub fn reset(&mut self) {
        self.nodes.reset();
        let nodes = self.graph.nodes() + 2;
        self.node_g.clear();
        self.node_g.resize(nodes, f64::INFINITY);
        self.node_parent.clear();
        self.node_parent.resize(nodes, NONE);
        self.node_state.clear();
        self.node_state.resize(nodes, UNSEEN);
        self.open_list.clear();
        self.current = NONE;
        self.abstract_path.clear();
        self.refined = 0;
        self.cost = 0.0;
        self.failure = None;
        let s = self.query.s;
        self.node_g[s as usize] = 0.0;
        self.node_state[s as usize] = OPEN;
        let cell = self.grid.index(self.start);
        self.nodes.open(cell as u32, 0.0, NO_PARENT);
        let (key, tie) = astar::priority(0.0, self.h(self.start), self.config.weight);
        self.open_list.push(key, tie, s);
    }

    /// Moves the start and goal (linking them to the graph again); back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.start = start;
        self.goal = goal;
        self.query = Query::new(&self.graph, &mut self.local, &self.grid, &self.config, start, goal);
        self.flat = OnceCell::new();
        self.reset();
        Ok(())
    }

    /// Sets every listed cell to `value` as a brush stroke does (cells outside the grid are
    /// skipped, and so are the start and goal when `value` is a wall); returns how many
    /// changed. When any did, the abstract graph is built again and the search goes back to
    /// step 0.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let changed = paint_cells(&mut self.grid, self.start, self.goal, cells, value);
        if changed > 0 {
            self.graph = Graph::build(&self.grid, &self.config, &mut self.local);
            self.query = Query::new(&self.graph, &mut self.local, &self.grid, &self.config, self.start, self.goal);
            self.flat = OnceCell::new();
            self.reset();
        }
        changed
    }

    /// The cell of abstract node `n`.
    fn node_cell(&self, n: u32) -> u32 {
        if (n as usize) < self.graph.nodes() {
            self.graph.cells[n as usize]
        } else if n == self.query.s {
            self.grid.index(self.start) as u32
        } else {
            self.grid.index(self.goal) as u32
        }
    }

    /// Sets a cell's display state, cost and parent.
    fn show(&mut self, cell: u32, state: CellState, g: f64, parent: u32) {
        self.nodes.set_g(cell, g, parent);
        self.nodes.set_state(cell, state);
    }

    /// Performs one step: one abstract expansion, the goal's pop, or one refined edge.
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` about an abstract expansion: the node's cell
    /// expanded, and the cells of the nodes opened or improved (with the expanded node's cell
    /// as parent).
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.nodes.status.is_finished() {
            return StepEvent::Finished;
        }
        if self.current != NONE {
            let cell = self.node_cell(self.current);
            self.nodes.set_state(cell, CellState::Closed);
            self.current = NONE;
        }
        self.nodes.steps += 1;
        self.nodes.status = Status::Searching;
        if !self.abstract_path.is_empty() {
            return self.refine();
        }
        let Some(node) = self.open_list.pop_open(&self.node_state) else {
            self.nodes.status = Status::NoPath;
            self.nodes.open = 0;
            return StepEvent::NoPath;
        };
        self.nodes.open -= 1;
        self.node_state[node as usize] = CLOSED;
        let cell = self.node_cell(node);
        if node == self.query.g {
            self.nodes.set_state(cell, CellState::Closed);
            let mut at = node;
            while at != NONE {
                self.abstract_path.push(at);
                at = self.node_parent[at as usize];
            }
            self.abstract_path.reverse();
            let start = self.grid.index(self.start) as u32;
            self.nodes.path.push(start);
            self.show(start, CellState::Path, 0.0, NO_PARENT);
            if self.abstract_path.len() == 1 {
                self.nodes.status = Status::Found;
                return StepEvent::Found { cost: 0.0 };
            }
            return StepEvent::Expanded(self.goal);
        }
        self.nodes.expanded += 1;
        self.current = node;
        self.nodes.set_state(cell, CellState::Current);
        recorder.expanded(cell);
        let mut edges = std::mem::take(&mut self.scratch);
        edges.clear();
        edges.extend_from_slice(self.graph.out(node));
        if node == self.query.s {
            edges.extend_from_slice(&self.query.start_out);
            if self.query.direct.is_finite() {
                edges.push((self.query.g, self.query.direct));
            }
        }
        let to_goal = self.query.to_goal[node as usize];
        if to_goal.is_finite() {
            edges.push((self.query.g, to_goal));
        }
        let base = self.node_g[node as usize];
        for &(m, c) in &edges {
            let mi = m as usize;
            let st = self.node_state[mi];
            if st == CLOSED {
                continue;
            }
            let new_g = base + c;
            if st == OPEN && new_g >= self.node_g[mi] {
                continue;
            }
            let old_g = if st == OPEN {
                Some(self.node_g[mi])
            } else {
                self.nodes.open += 1;
                None
            };
            self.node_g[mi] = new_g;
            self.node_parent[mi] = node;
            self.node_state[mi] = OPEN;
            let m_cell = self.node_cell(m);
            self.show(m_cell, CellState::Open, new_g, cell);
            let h = self.h(self.grid.point_at(m_cell as usize));
            let (key, tie) = astar::priority(new_g, h, self.config.weight);
            self.open_list.push(key, tie, m);
            recorder.opened(m_cell, cell, old_g, new_g);
        }
        self.scratch = edges;
        StepEvent::Expanded(self.grid.point_at(cell as usize))
    }

    /// Turns the next abstract edge into grid moves.
    fn refine(&mut self) -> StepEvent {
        let (a, b) = (self.abstract_path[self.refined], self.abstract_path[self.refined + 1]);
        let (from, to) = (self.node_cell(a), self.node_cell(b));
        let (pa, pb) = (self.grid.point_at(from as usize), self.grid.point_at(to as usize));
        let layout = self.graph.layout;
        let direct = (a, b) == (self.query.s, self.query.g) && self.query.direct.is_finite();
        let region = if direct {
            self.query.region
        } else if layout.cluster_of(pa) == layout.cluster_of(pb) {
            Some(layout.rect(layout.cluster_of(pa)))
        } else {
            None
        };
        let leg = if let Some(rect) = region {
            let mut reached = false;
            let (grid, config) = (&self.grid, self.config);
            self.local.search(grid, config.diagonal, config.costs, rect, pa, true, Some(pb), |p, _| {
                reached = p == pb;
                !reached
            });
            if reached {
                self.local.path(&self.grid, rect, pb)
            } else {
                Vec::new()
            }
        } else {
            vec![from, to]
        };
        if leg.len() < 2 && from != to {
            // Every abstract edge stands for a path the build found, so this cannot happen.
            self.failure =
                Some(format!("internal error: the abstract edge {pa} -> {pb} has no path inside its cluster"));
            self.nodes.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        let cells = self.grid.cells();
        let mut added = Vec::with_capacity(leg.len());
        for pair in leg.windows(2) {
            let (p, q) = (self.grid.point_at(pair[0] as usize), self.grid.point_at(pair[1] as usize));
            let diagonal = p.x != q.x && p.y != q.y;
            self.cost += self.config.costs.step(diagonal, cells[pair[1] as usize]);
            added.push((pair[1], self.cost));
        }
        for (cell, g) in added {
            self.nodes.path.push(cell);
            let parent = self.nodes.path[self.nodes.path.len() - 2];
            self.show(cell, CellState::Path, g, parent);
        }
        self.refined += 1;
        if self.refined + 1 == self.abstract_path.len() {
            self.nodes.status = Status::Found;
            return StepEvent::Found { cost: self.cost };
        }
        StepEvent::Expanded(pb)
    }

    /// Runs to the end and returns the final status.
    pub fn run(&mut self) -> Status {
        while !self.nodes.status.is_finished() {
            self.step();
        }
        self.nodes.status
    }

    /// The estimate from `p` to the goal (before the weight).
    pub fn h(&self, p: Point) -> f64 {
        estimate(&self.config, self.goal, p)
    }

    /// Where the search stands.
    pub fn status(&self) -> Status {
        self.nodes.status
    }

    /// Abstract expansions so far (the goal's pop and the refinement steps not counted).
    pub fn expanded(&self) -> usize {
        self.nodes.expanded
    }

    /// The refined path's cost once found.
    pub fn cost(&self) -> Option<f64> {
        (self.nodes.status == Status::Found).then_some(self.cost)
    }

    /// How many clusters the grid is cut into.
    pub fn clusters(&self) -> usize {
        self.graph.layout.count()
    }

    /// Each cluster's top-left and bottom-right cells, row by row.
    pub fn cluster_boxes(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        let layout = self.graph.layout;
        (0..layout.count()).map(move |c| {
            let r = layout.rect(c);
            (Point::new(r.x0, r.y0), Point::new(r.x1, r.y1))
        })
    }

    /// The transition cells (the abstract graph's nodes, without start and goal), in the order
    /// they were made.
    pub fn transitions(&self) -> impl Iterator<Item = Point> + '_ {
        self.graph.cells.iter().map(|&c| self.grid.point_at(c as usize))
    }

    /// The abstract graph's nodes, without start and goal.
    pub fn abstract_nodes(&self) -> usize {
        self.graph.nodes()
    }

    /// The abstract graph's directed edges, without those of start and goal.
    pub fn abstract_edges(&self) -> usize {
        self.graph.edges.len()
    }

    /// Every directed edge of the abstract graph, start and goal's included, as (from cell,
    /// to cell, cost).
    pub fn edges(&self) -> Vec<(Point, Point, f64)> {
        let at = |n: u32| self.grid.point_at(self.node_cell(n) as usize);
        let mut out = Vec::with_capacity(self.graph.edges.len() + self.query.edges());
        for n in 0..self.graph.nodes() as u32 {
            out.extend(self.graph.out(n).iter().map(|&(m, c)| (at(n), at(m), c)));
        }
        out.extend(self.query.start_out.iter().map(|&(m, c)| (self.start, at(m), c)));
        if self.query.direct.is_finite() {
            out.push((self.start, self.goal, self.query.direct));
        }
        out.extend(self.query.into_goal.iter().map(|&(m, c)| (at(m), self.goal, c)));
        out
    }

    /// The maximal runs of open cell pairs along the cluster borders (the entrances).
    pub fn entrances(&self) -> usize {
        self.graph.runs
    }

    /// Transition pairs made for diagonal moves between two walls (only `always` has any).
    pub fn diagonal_entrances(&self) -> usize {
        self.graph.diagonal_entrances
    }

    /// How long the last build of the abstract graph took, where a clock is available.
    pub fn build_time(&self) -> Option<Duration> {
        self.graph.time
    }

    /// Cells settled by the last build's searches inside clusters.
    pub fn build_settled(&self) -> usize {
        self.graph.settled
    }

    /// The abstract path's cells, from start to goal, once the goal has been popped.
    pub fn abstract_path(&self) -> Vec<Point> {
        self.abstract_path.iter().map(|&n| self.grid.point_at(self.node_cell(n) as usize)).collect()
    }

    /// Abstract edges refined into grid moves so far.
    pub fn refined(&self) -> usize {
        self.refined
    }

    /// Flat A*'s cost (`None`: no path) and expansions with the same settings on the same
    /// problem, worked out the first time it is asked for.
    pub fn flat_astar(&self) -> (Option<f64>, usize) {
        *self.flat.get_or_init(|| {
            let config = SearchConfig { algorithm: Algorithm::AStar, ..self.config };
            match Search::new(self.grid.clone(), self.start, self.goal, config) {
                Ok(mut search) => {
                    search.run();
                    (search.cost(), search.expanded())
                }
                Err(_) => (None, 0),
            }
        })
    }

    /// The overlay: clusters, entrances, abstract edges and path, and the notes.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        overlay.boxes.extend(self.cluster_boxes().map(|(min, max)| OverlayBox { min, max, kind: BoxKind::Cluster }));
        overlay.marks.extend(self.graph.cells.iter().map(|&cell| OverlayMark { cell, kind: MarkKind::Entrance }));
        let s = self.node_cell(self.query.s);
        let g = self.node_cell(self.query.g);
        let mut extra: Vec<(u32, u32)> =
            self.query.start_out.iter().map(|&(m, _)| self.node_cell(m)).map(|b| (s.min(b), s.max(b))).collect();
        extra.extend(self.query.into_goal.iter().map(|&(m, _)| self.node_cell(m)).map(|a| (a.min(g), a.max(g))));
        if self.query.direct.is_finite() {
            extra.push((s.min(g), s.max(g)));
        }
        super::order::sort_by(&mut extra, &Ord::cmp);
        extra.dedup();
        let joined = self.graph.lines.len() + extra.len();
        let too_many = joined > MAX_EDGE_LINES;
        if !too_many {
            let line = |&(from, to): &(u32, u32)| OverlayLine { from, to, kind: LineKind::Abstract };
            overlay.lines.extend(self.graph.lines.iter().map(line));
            overlay.lines.extend(extra.iter().map(line));
        }
        for pair in self.abstract_path.windows(2) {
            let (from, to) = (self.node_cell(pair[0]), self.node_cell(pair[1]));
            overlay.lines.push(OverlayLine { from, to, kind: LineKind::AbstractPath });
        }
        let layout = self.graph.layout;
        overlay.notes.push((
            "clusters",
            format!("{} ({} x {} of side {})", layout.count(), layout.across, layout.down, layout.side),
        ));
        let temporary = usize::from(self.query.s as usize >= self.graph.nodes())
            + usize::from(self.query.g as usize >= self.graph.nodes() && self.query.g != self.query.s);
        overlay
            .notes
            .push(("abstract nodes", format!("{} transitions + {temporary} for start and goal", self.graph.nodes())));
        overlay.notes.push((
            "abstract edges",
            format!(
                "{} directed ({} inside clusters, {} across borders) + {} for start and goal",
                self.graph.edges.len(),
                self.graph.intra,
                self.graph.inter,
                self.query.edges()
            ),
        ));
        overlay
            .notes
            .push(("entrances", format!("{} runs, {} diagonal", self.graph.runs, self.graph.diagonal_entrances)));
        let work = format!("{} cells settled inside clusters", self.graph.settled);
        overlay.notes.push((
            "build",
            match self.graph.time {
                Some(t) => format!("{:.2} ms, {work}", t.as_secs_f64() * 1000.0),
                None => work,
            },
        ));
        if too_many {
            overlay.notes.push((
                "edge lines",
                format!("not drawn: {joined} joined pairs is over the limit of {MAX_EDGE_LINES}"),
            ));
        }
        overlay.notes.push(("abstract expansions", self.nodes.expanded.to_string()));
        let edges = self.abstract_path.len().saturating_sub(1);
        overlay.notes.push((
            "refined edges",
            if self.abstract_path.is_empty() {
                "none yet: searching the abstract graph".to_string()
            } else {
                format!("{} of {edges}", self.refined)
            },
        ));
        if self.nodes.status == Status::Found {
            let (flat, flat_expanded) = self.flat_astar();
            let text = match flat {
                Some(f) if f > 0.0 => {
                    format!("{} vs {} (+{:.2}%)", round6(self.cost), round6(f), (self.cost / f - 1.0) * 100.0)
                }
                Some(f) => format!("{} vs {}", round6(self.cost), round6(f)),
                None => format!("{} vs no path", round6(self.cost)),
            };
            overlay.notes.push(("path cost vs flat A*", text));
            overlay.notes.push(("flat A* expansions", flat_expanded.to_string()));
        }
        if let Some(why) = &self.failure {
            overlay.notes.push(("stopped", why.clone()));
        }
        overlay
    }
}

/// A value rounded to six decimals, for the notes.
fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

impl Stepper for Hpa {
    fn step_logged(&mut self, log: &mut EventLog) -> StepEvent {
        log.clear();
        self.step_with(log)
    }

    fn step(&mut self) -> StepEvent {
        Hpa::step(self)
    }

    fn reset(&mut self) {
        Hpa::reset(self);
    }

    fn nodes(&self) -> &NodeTable {
        &self.nodes
    }

    fn cost(&self) -> Option<f64> {
        Hpa::cost(self)
    }

    /// The refined path once complete (empty while it is being refined).
    fn path_indices(&self) -> &[u32] {
        if self.nodes.status == Status::Found {
            self.nodes.path()
        } else {
            &[]
        }
    }

    fn h(&self, p: Point) -> f64 {
        Hpa::h(self, p)
    }

    keeps_grid_and_ends!();

    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        Ok(Hpa::paint(self, cells.iter().copied(), value))
    }

    fn overlay(&self) -> Overlay {
        Hpa::overlay(self)
    }

    fn gave_up(&self) -> Option<String> {
        self.failure.clone()
    }
}
