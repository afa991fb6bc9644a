//! The generic searches on every space, checked against an independent truth written here: a
//! Dijkstra (and a breadth-first hop count) over arcs that this file reads off each space's
//! rules itself. Nothing of pathlab's neighbour iteration or cost code is called to build the
//! truth: graph arcs come from the test's own edge list, hex neighbours from its own odd-r /
//! odd-q offset tables, grid moves from its own diagonal rule and move costs, slopes from its
//! own climb rule, teleports from its own list.
//!
//! - Random graphs (directed, undirected and mixed; integer, real and length-priced costs,
//!   0-cost edges; disconnected parts, self-loops, parallel edges; scattered or stacked node
//!   places): Dijkstra and A* with every admissible graph heuristic give the optimum and find a
//!   path exactly when one exists, and the estimate never exceeds the cost left; every
//!   algorithm, heuristic and weight returns a path along existing arcs whose costs add up to
//!   the reported cost, never below the optimum, within weight x optimum for A* with an
//!   admissible estimate, and with the fewest edges for BFS.
//! - Hex grids (both layouts, walls, terrain): costs match the independent BFS (ground only)
//!   or Dijkstra (terrain), paths step between neighbours of the offset tables, and the hex
//!   distance never exceeds the cost left.
//! - Teleports: the teleport-aware estimate is admissible and consistent on every arc, and A*
//!   with it is optimal; a hand-made map where the plain estimate makes A* miss the optimum.
//! - Slopes: costs both ways match the independent Dijkstra; a hand-made climb that costs
//!   more up than down.
//! - The square grid as a space gives exactly what `Search::new` gives.
//!
//! Every search here is run step by step and fails as soon as an expanded node becomes its own
//! parent, so that a self-loop bug is reported instead of hanging in the walk up the parents.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet, VecDeque};

use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Status, StepEvent};
use pathlab_core::space::{
    Graph, HexGrid, HexLayout, Slopes, Space, SquareGrid, Teleport, TeleportHeuristic, Teleports,
};
use proptest::prelude::*;
use proptest::sample::{select, Index};

// ---------------------------------------------------------------------------------------------
// The independent truth
// ---------------------------------------------------------------------------------------------

/// Per node, the arcs leaving it: (target, cost), as this file reads the space's rules.
type Arcs = Vec<Vec<(usize, f64)>>;

/// A cost ordered for the heap (costs here are finite and at least 0).
#[derive(Clone, Copy, PartialEq)]
struct Key(f64);

impl Eq for Key {}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The cheapest cost from `source` to every node (infinite where unreachable).
fn dijkstra(arcs: &Arcs, source: usize) -> Vec<f64> {
    let mut dist = vec![f64::INFINITY; arcs.len()];
    let mut heap = BinaryHeap::new();
    dist[source] = 0.0;
    heap.push(Reverse((Key(0.0), source)));
    while let Some(Reverse((Key(d), u))) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        for &(v, c) in &arcs[u] {
            let nd = d + c;
            if nd < dist[v] {
                dist[v] = nd;
                heap.push(Reverse((Key(nd), v)));
            }
        }
    }
    dist
}

/// The fewest arcs from `source` to every node (`None` where unreachable).
fn hops(arcs: &Arcs, source: usize) -> Vec<Option<usize>> {
    let mut hops = vec![None; arcs.len()];
    let mut queue = VecDeque::from([source]);
    hops[source] = Some(0);
    while let Some(u) = queue.pop_front() {
        let next = hops[u].map(|h| h + 1);
        for &(v, _) in &arcs[u] {
            if hops[v].is_none() {
                hops[v] = next;
                queue.push_back(v);
            }
        }
    }
    hops
}

/// The arcs turned round: Dijkstra over them from a goal gives every node's cost to the goal.
fn reversed(arcs: &Arcs) -> Arcs {
    let mut back = vec![Vec::new(); arcs.len()];
    for (u, out) in arcs.iter().enumerate() {
        for &(v, c) in out {
            back[v].push((u, c));
        }
    }
    back
}

/// The tolerance every comparison of costs allows: 1e-9 relative (absolute below 1).
fn slack(a: f64, b: f64) -> f64 {
    1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= slack(a, b)
}

fn at_most(a: f64, b: f64) -> bool {
    a <= b + slack(a, b)
}

// ---------------------------------------------------------------------------------------------
// Running and checking searches
// ---------------------------------------------------------------------------------------------

/// Runs a search to its end one step at a time. Fails the moment an expanded node has become
/// its own parent: the walk up the parents that builds the path would never end.
fn finish<S: Space>(s: &mut Search<S>) -> Result<Status, TestCaseError> {
    let limit = s.space().node_count() + 1;
    loop {
        if let StepEvent::Found { .. } | StepEvent::NoPath | StepEvent::Finished = s.step() {
            return Ok(s.status());
        }
        let u = s.current_node().expect("a step that expands has a current node");
        prop_assert!(
            s.parents()[u as usize] != u,
            "{:?}: expanding {} made it its own parent (g now {}): a self-loop reopened it",
            s.config().algorithm,
            s.space().label(u),
            s.g_values()[u as usize]
        );
        prop_assert!(s.steps() <= limit, "{} steps on {} nodes", s.steps(), limit - 1);
    }
}

/// Runs a search and checks its answer against the truth: found exactly when `optimum` is
/// some; a path from the start to the goal, no node twice, each step along an arc that exists
/// in `arcs` and whose cost is what g grew by, those costs adding up to the reported cost,
/// which is never below the optimum. Returns the cost and the path.
fn run_and_check<S: Space>(
    space: S,
    start: usize,
    goal: usize,
    config: SearchConfig,
    arcs: &Arcs,
    optimum: Option<f64>,
) -> Result<Option<(f64, Vec<u32>)>, TestCaseError> {
    let mut s = Search::on(space, start as u32, goal as u32, config).unwrap();
    let status = finish(&mut s)?;
    let what = format!("{:?} weight {}", config.algorithm, config.weight);
    let Some(opt) = optimum else {
        prop_assert_eq!(status, Status::NoPath, "{}: the goal is unreachable", what);
        prop_assert!(s.cost().is_none() && s.path_indices().is_empty(), "{}", what);
        return Ok(None);
    };
    prop_assert_eq!(status, Status::Found, "{}: the optimum is {}", what, opt);
    let cost = s.cost().unwrap();
    let path = s.path_indices().to_vec();
    let g = s.g_values();
    prop_assert_eq!(path.first().copied(), Some(start as u32), "{}: {:?}", what, path);
    prop_assert_eq!(path.last().copied(), Some(goal as u32), "{}: {:?}", what, path);
    prop_assert_eq!(g[start], 0.0);
    let distinct: HashSet<u32> = path.iter().copied().collect();
    prop_assert_eq!(distinct.len(), path.len(), "{}: a node twice on {:?}", what, path);
    let mut sum = 0.0;
    for pair in path.windows(2) {
        let (u, v) = (pair[0] as usize, pair[1] as usize);
        let taken = arcs[u].iter().filter(|&&(t, _)| t == v).map(|&(_, c)| c).find(|&c| same(g[u] + c, g[v]));
        let Some(c) = taken else {
            let offered: Vec<f64> = arcs[u].iter().filter(|&&(t, _)| t == v).map(|&(_, c)| c).collect();
            return Err(TestCaseError::fail(format!(
                "{what}: the step {u} -> {v} of {path:?} raises g by {} but the arcs {u} -> {v} cost {offered:?}",
                g[v] - g[u]
            )));
        };
        sum += c;
    }
    prop_assert!(same(sum, cost), "{}: reported {} but the arcs along {:?} add up to {}", what, cost, path, sum);
    prop_assert!(at_most(opt, cost), "{}: {} is below the optimum {}", what, cost, opt);
    Ok(Some((cost, path)))
}

/// The optimum from `dist`, or `None` when unreachable.
fn optimum(dist: &[f64], goal: usize) -> Option<f64> {
    dist[goal].is_finite().then_some(dist[goal])
}

// ---------------------------------------------------------------------------------------------
// Random graphs
// ---------------------------------------------------------------------------------------------

/// Which way the edges of a random graph go.
#[derive(Clone, Copy, Debug)]
enum Direction {
    Undirected,
    Directed,
    /// Each edge its own way.
    Mixed,
}

/// How the edges of a random graph are priced.
#[derive(Clone, Copy, Debug)]
enum Pricing {
    /// 1 to 9.
    Integer,
    /// 0 to 10.
    Real,
    /// The edge's length times 1 to 3 (so the estimate has something to work with).
    Length,
}

/// A random graph problem, kept as the plain lists the graph and the truth are both built from.
#[derive(Clone, Debug)]
struct GraphCase {
    places: Vec<[f64; 2]>,
    /// (from, to, cost, directed).
    edges: Vec<(usize, usize, f64, bool)>,
    start: usize,
    goal: usize,
}

impl GraphCase {
    /// The core's graph, with `heuristic` as its estimate.
    fn graph(&self, heuristic: Heuristic) -> Graph {
        let mut g = Graph::new(false);
        for (i, &[x, y]) in self.places.iter().enumerate() {
            g.add_node(&format!("n{i}"), x, y).unwrap();
        }
        for &(a, b, cost, directed) in &self.edges {
            g.add_edge(a as u32, b as u32, cost, directed).unwrap();
        }
        g.set_heuristic(heuristic);
        g
    }

    /// The truth's arcs: one per directed edge, one each way per undirected edge (one in all
    /// for an undirected self-loop, which has only one way).
    fn arcs(&self) -> Arcs {
        let mut arcs = vec![Vec::new(); self.places.len()];
        for &(a, b, cost, directed) in &self.edges {
            arcs[a].push((b, cost));
            if !directed && a != b {
                arcs[b].push((a, cost));
            }
        }
        arcs
    }
}

/// One rolled edge: ends, a roll for integer costs, zeros and shape, a real roll, a coin.
type EdgeRoll = (usize, usize, u32, f64, bool);

#[allow(clippy::too_many_arguments)]
fn build_graph(
    direction: Direction,
    pricing: Pricing,
    zeros: bool,
    stacked: bool,
    places: &[(f64, f64)],
    rolls: &[EdgeRoll],
    start: usize,
    goal: usize,
) -> GraphCase {
    // Stacked: 5 x 5 lattice points, so that nodes often share a place.
    let places: Vec<[f64; 2]> =
        places.iter().map(|&(x, y)| if stacked { [(x / 4.0).floor(), (y / 4.0).floor()] } else { [x, y] }).collect();
    let price = |a: usize, b: usize, r: u32, real: f64| -> f64 {
        if zeros && r % 100 < 15 {
            return 0.0;
        }
        match pricing {
            Pricing::Integer => f64::from(1 + r % 9),
            Pricing::Real => real * 10.0,
            Pricing::Length => {
                let ([ax, ay], [bx, by]) = (places[a], places[b]);
                (ax - bx).hypot(ay - by) * (1.0 + 2.0 * real)
            }
        }
    };
    let way = |coin: bool| match direction {
        Direction::Undirected => false,
        Direction::Directed => true,
        Direction::Mixed => coin,
    };
    let mut edges = Vec::new();
    for &(a, b, r, real, coin) in rolls {
        let shape = r / 100;
        // About 6% self-loops; about 10% get a parallel twin with another cost.
        let b = if shape < 6 { a } else { b };
        edges.push((a, b, price(a, b, r, real), way(coin)));
        if (6..16).contains(&shape) {
            let (ta, tb) = if coin { (b, a) } else { (a, b) };
            edges.push((ta, tb, price(ta, tb, r / 7, 1.0 - real), way(!coin)));
        }
    }
    GraphCase { places, edges, start, goal }
}

fn graph_case() -> impl Strategy<Value = GraphCase> {
    (
        1usize..=30,
        0usize..=3,
        select(vec![Direction::Undirected, Direction::Directed, Direction::Mixed]),
        select(vec![Pricing::Integer, Pricing::Real, Pricing::Length]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(n, density, direction, pricing, zeros, stacked)| {
            let edge = (0..n, 0..n, 0u32..10_000, 0.0f64..1.0, any::<bool>());
            (
                Just((direction, pricing, zeros, stacked)),
                proptest::collection::vec((0.0f64..20.0, 0.0f64..20.0), n),
                proptest::collection::vec(edge, 0..=density * n),
                0..n,
                0..n,
            )
        })
        .prop_map(|((direction, pricing, zeros, stacked), places, rolls, start, goal)| {
            build_graph(direction, pricing, zeros, stacked, &places, &rolls, start, goal)
        })
}

/// The heuristics the graph says never overestimate.
fn admissible_graph_heuristics() -> Vec<Heuristic> {
    Heuristic::ALL.iter().copied().filter(|&h| Graph::is_admissible(h)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10000))]

    /// Dijkstra and A* with Euclidean, Chebyshev and zero estimates find the independent
    /// optimum (and no path exactly when there is none), and each estimate stays at or below
    /// the cost left from every node.
    #[test]
    fn graph_dijkstra_and_admissible_a_star_find_the_independent_optimum(case in graph_case()) {
        let arcs = case.arcs();
        let opt = optimum(&dijkstra(&arcs, case.start), case.goal);
        let to_goal = dijkstra(&reversed(&arcs), case.goal);
        let dijkstra_config = SearchConfig::new(Algorithm::Dijkstra);
        let found = run_and_check(case.graph(Heuristic::Euclidean), case.start, case.goal, dijkstra_config, &arcs, opt)?;
        if let (Some((cost, _)), Some(opt)) = (found, opt) {
            prop_assert!(same(cost, opt), "Dijkstra: {} but the optimum is {}", cost, opt);
        }
        for h in admissible_graph_heuristics() {
            let graph = case.graph(h);
            for (u, &left) in to_goal.iter().enumerate() {
                let estimate = graph.estimate(graph.at(u as u32), graph.at(case.goal as u32));
                prop_assert!(at_most(estimate, left), "{}: h({}) = {} > the cost left {}", h, u, estimate, left);
            }
            let config = SearchConfig::new(Algorithm::AStar).weight(1.0);
            if let (Some((cost, _)), Some(opt)) = (run_and_check(graph, case.start, case.goal, config, &arcs, opt)?, opt) {
                prop_assert!(same(cost, opt), "A* {}: {} but the optimum is {}", h, cost, opt);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// BFS, DFS, Dijkstra, greedy with every estimate and A* with every estimate at weights 1,
    /// 1.5 and 3: legal paths whose arcs add up to the reported cost, never below the optimum;
    /// weighted A* with an admissible estimate within weight x optimum; BFS with the fewest
    /// edges.
    #[test]
    fn graph_every_search_returns_a_path_along_existing_arcs_costing_what_it_reports(case in graph_case()) {
        let arcs = case.arcs();
        let opt = optimum(&dijkstra(&arcs, case.start), case.goal);
        let fewest = hops(&arcs, case.start)[case.goal];
        let mut configs = vec![
            (Heuristic::Euclidean, SearchConfig::new(Algorithm::Bfs)),
            (Heuristic::Euclidean, SearchConfig::new(Algorithm::Dfs)),
            (Heuristic::Euclidean, SearchConfig::new(Algorithm::Dijkstra)),
        ];
        for &h in Heuristic::ALL {
            configs.push((h, SearchConfig::new(Algorithm::Greedy)));
            for w in [1.0, 1.5, 3.0] {
                configs.push((h, SearchConfig::new(Algorithm::AStar).weight(w)));
            }
        }
        for (h, config) in configs {
            let found = run_and_check(case.graph(h), case.start, case.goal, config, &arcs, opt)?;
            let (Some((cost, path)), Some(opt)) = (found, opt) else { continue };
            if config.algorithm == Algorithm::AStar && Graph::is_admissible(h) {
                let w = config.weight;
                prop_assert!(at_most(cost, w * opt), "A* {} weight {}: {} > {} x {}", h, w, cost, w, opt);
            }
            if config.algorithm == Algorithm::Bfs {
                prop_assert_eq!(Some(path.len() - 1), fewest, "BFS took {:?}", path);
            }
        }
    }
}

/// A self-loop is an edge like any other: no search takes it, and no search is upset by it.
#[test]
fn a_self_loop_on_the_start_is_never_taken() {
    for algorithm in [Algorithm::Bfs, Algorithm::Dfs, Algorithm::Dijkstra, Algorithm::Greedy, Algorithm::AStar] {
        let mut g = Graph::new(true);
        let a = g.add_node("A", 0.0, 0.0).unwrap();
        let b = g.add_node("B", 1.0, 0.0).unwrap();
        g.add_edge(a, a, 1.0, true).unwrap();
        g.add_edge(a, b, 1.0, true).unwrap();
        let mut s = Search::on(g, a, b, SearchConfig::new(algorithm)).unwrap();
        finish(&mut s).unwrap();
        assert_eq!(s.cost(), Some(1.0), "{algorithm:?}");
        assert_eq!(s.path_indices(), [a, b], "{algorithm:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Grids: this file's own reading of cells and moves
// ---------------------------------------------------------------------------------------------

/// The terrain values drawn for a cell when a map has terrain (1 is ground).
const TERRAIN: [u8; 8] = [1, 1, 1, 1, 2, 3, 5, 9];

/// Cells from rolls (wall when the first roll is below `density`), with `start` and `goal`
/// (any cells) made open.
fn grid_from(
    w: usize,
    h: usize,
    density: u32,
    terrain: bool,
    rolls: &[(u32, u8)],
    start: Index,
    goal: Index,
) -> (Grid, Point, Point) {
    let mut cells: Vec<u8> = rolls
        .iter()
        .map(|&(wall, t)| {
            if wall < density {
                WALL
            } else if terrain {
                TERRAIN[t as usize]
            } else {
                1
            }
        })
        .collect();
    let (s, g) = (start.index(cells.len()), goal.index(cells.len()));
    for i in [s, g] {
        if cells[i] == WALL {
            cells[i] = 1;
        }
    }
    (Grid::from_cells(w, h, cells).unwrap(), Point::new(s % w, s / w), Point::new(g % w, g / w))
}

/// Rolls for a `w` x `h` grid.
fn cell_rolls(w: usize, h: usize) -> impl Strategy<Value = Vec<(u32, u8)>> {
    proptest::collection::vec((0u32..100, 0u8..8), w * h)
}

/// The cell value at (x, y), or `None` outside.
fn cell(grid: &Grid, x: i64, y: i64) -> Option<u8> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    (x >= 0 && y >= 0 && x < w && y < h).then(|| grid.cells()[(y * w + x) as usize])
}

fn open(grid: &Grid, x: i64, y: i64) -> bool {
    cell(grid, x, y).is_some_and(|c| c != WALL)
}

/// The eight square moves (any order).
const SQUARE_MOVES: [(i64, i64); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// Whether (x, y) -> (x + dx, y + dy) is a legal square move under `rule`: both ends open,
/// and a diagonal allowed by the two cells beside it.
fn square_move_ok(grid: &Grid, rule: Diagonal, x: i64, y: i64, dx: i64, dy: i64) -> bool {
    if !open(grid, x, y) || !open(grid, x + dx, y + dy) {
        return false;
    }
    if dx == 0 || dy == 0 {
        return true;
    }
    let sides = usize::from(open(grid, x + dx, y)) + usize::from(open(grid, x, y + dy));
    match rule {
        Diagonal::Never => false,
        Diagonal::NoCornerCutting => sides == 2,
        Diagonal::AtMostOneBlocked => sides >= 1,
        Diagonal::Always => true,
    }
}

/// The arcs of a square grid: legal moves costing their length (1 and sqrt 2, or 10 and 14)
/// times the entered cell's value, plus `extra(from, to)` (node numbers).
fn square_arcs(grid: &Grid, rule: Diagonal, costs: Costs, extra: impl Fn(usize, usize) -> f64) -> Arcs {
    let w = grid.width() as i64;
    let mut arcs = vec![Vec::new(); grid.len()];
    for (i, out) in arcs.iter_mut().enumerate() {
        let (x, y) = (i as i64 % w, i as i64 / w);
        for (dx, dy) in SQUARE_MOVES {
            if !square_move_ok(grid, rule, x, y, dx, dy) {
                continue;
            }
            let length = match (costs, dx != 0 && dy != 0) {
                (Costs::Real, false) => 1.0,
                (Costs::Real, true) => 2f64.sqrt(),
                (Costs::Integer, false) => 10.0,
                (Costs::Integer, true) => 14.0,
            };
            let j = ((y + dy) * w + x + dx) as usize;
            out.push((j, length * f64::from(grid.cells()[j]) + extra(i, j)));
        }
    }
    arcs
}

// ---------------------------------------------------------------------------------------------
// Hex grids
// ---------------------------------------------------------------------------------------------

/// The six neighbours of stored cell (x, y) as offsets, from the offset-coordinate rules:
/// pointy tops push odd rows half a hex right ("odd-r"), flat tops push odd columns half a
/// hex down ("odd-q").
fn hex_offsets(layout: HexLayout, x: i64, y: i64) -> [(i64, i64); 6] {
    match layout {
        HexLayout::PointyTop if y % 2 == 0 => [(1, 0), (-1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1)],
        HexLayout::PointyTop => [(1, 0), (-1, 0), (0, -1), (1, -1), (0, 1), (1, 1)],
        HexLayout::FlatTop if x % 2 == 0 => [(0, -1), (0, 1), (1, -1), (1, 0), (-1, -1), (-1, 0)],
        HexLayout::FlatTop => [(0, -1), (0, 1), (1, 0), (1, 1), (-1, 0), (-1, 1)],
    }
}

/// The arcs of a hex grid: to each open neighbour, costing the entered cell's value.
fn hex_arcs(grid: &Grid, layout: HexLayout) -> Arcs {
    let w = grid.width() as i64;
    let mut arcs = vec![Vec::new(); grid.len()];
    for (i, out) in arcs.iter_mut().enumerate() {
        let (x, y) = (i as i64 % w, i as i64 / w);
        if !open(grid, x, y) {
            continue;
        }
        for (dx, dy) in hex_offsets(layout, x, y) {
            if let Some(t) = cell(grid, x + dx, y + dy).filter(|&t| t != WALL) {
                out.push((((y + dy) * w + x + dx) as usize, f64::from(t)));
            }
        }
    }
    arcs
}

#[derive(Clone, Debug)]
struct HexCase {
    grid: Grid,
    layout: HexLayout,
    start: Point,
    goal: Point,
}

fn hex_case() -> impl Strategy<Value = HexCase> {
    (1usize..=12, 1usize..=12, 0u32..=40, any::<bool>(), select(HexLayout::ALL.to_vec()))
        .prop_flat_map(|(w, h, density, terrain, layout)| {
            (Just((w, h, density, terrain, layout)), cell_rolls(w, h), any::<Index>(), any::<Index>())
        })
        .prop_map(|((w, h, density, terrain, layout), rolls, s, g)| {
            let (grid, start, goal) = grid_from(w, h, density, terrain, &rolls, s, g);
            HexCase { grid, layout, start, goal }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// On ground only, Dijkstra, A* and BFS cost the independent hop count; with terrain,
    /// Dijkstra and A* cost the independent optimum; every algorithm steps between offset
    /// neighbours; the hex distance never exceeds the cost left from any open cell.
    #[test]
    fn hex_searches_match_the_independent_offset_neighbours(case in hex_case()) {
        let arcs = hex_arcs(&case.grid, case.layout);
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let opt = optimum(&dijkstra(&arcs, s), g);
        let fewest = hops(&arcs, s)[g];
        let ground = case.grid.cells().iter().all(|&c| c <= 1);
        let space = |heuristic| HexGrid { heuristic, ..HexGrid::new(case.grid.clone(), case.layout) };
        let configs = [
            (Heuristic::Zero, Algorithm::Dijkstra),
            (Heuristic::Manhattan, Algorithm::AStar),
            (Heuristic::Zero, Algorithm::AStar),
            (Heuristic::Zero, Algorithm::Bfs),
            (Heuristic::Zero, Algorithm::Dfs),
            (Heuristic::Manhattan, Algorithm::Greedy),
        ];
        for (h, algorithm) in configs {
            let found = run_and_check(space(h), s, g, SearchConfig::new(algorithm), &arcs, opt)?;
            prop_assert_eq!(found.is_some(), fewest.is_some());
            let Some((cost, path)) = found else { continue };
            if algorithm == Algorithm::Bfs {
                prop_assert_eq!(Some(path.len() - 1), fewest, "BFS took {:?}", path);
            }
            let optimal = matches!(algorithm, Algorithm::Dijkstra | Algorithm::AStar);
            if ground && (optimal || algorithm == Algorithm::Bfs) {
                prop_assert_eq!(Some(cost), fewest.map(|n| n as f64), "{:?} on ground", algorithm);
            } else if optimal {
                prop_assert!(same(cost, opt.unwrap()), "{:?}: {} but the optimum is {:?}", algorithm, cost, opt);
            }
        }
        let to_goal = dijkstra(&reversed(&arcs), g);
        let hex = space(Heuristic::Manhattan);
        for (u, &left) in to_goal.iter().enumerate() {
            if hex.is_open(u as u32) {
                let estimate = hex.estimate(hex.at(u as u32), hex.at(g as u32));
                prop_assert!(at_most(estimate, left), "h({}) = {} > the cost left {}", u, estimate, left);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Teleports
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct TeleportCase {
    grid: Grid,
    rule: Diagonal,
    costs: Costs,
    heuristic: Heuristic,
    teleports: Vec<Teleport>,
    start: Point,
    goal: Point,
}

impl TeleportCase {
    fn space(&self, which: TeleportHeuristic) -> Teleports {
        let base = SquareGrid::new(self.grid.clone(), self.rule, self.costs, self.heuristic);
        Teleports::new(base, self.teleports.clone(), which).unwrap()
    }

    fn arcs(&self) -> Arcs {
        let mut arcs = square_arcs(&self.grid, self.rule, self.costs, |_, _| 0.0);
        for t in &self.teleports {
            let (a, b) = (self.grid.index(t.from), self.grid.index(t.to));
            arcs[a].push((b, t.cost));
            if t.both_ways {
                arcs[b].push((a, t.cost));
            }
        }
        arcs
    }
}

fn teleport_case() -> impl Strategy<Value = TeleportCase> {
    (1usize..=12, 1usize..=12, 0u32..=35, any::<bool>(), select(Diagonal::ALL.to_vec()), select(Costs::ALL.to_vec()))
        .prop_flat_map(|(w, h, density, terrain, rule, costs)| {
            (
                Just((w, h, density, terrain, rule, costs)),
                cell_rolls(w, h),
                any::<Index>(),
                any::<Index>(),
                proptest::collection::vec(
                    (any::<Index>(), any::<Index>(), 0.0f64..1.0, 0u32..100, any::<bool>()),
                    0..=4,
                ),
                any::<Index>(),
            )
        })
        .prop_map(|((w, h, density, terrain, rule, costs), rolls, s, g, jumps, pick)| {
            let (grid, start, goal) = grid_from(w, h, density, terrain, &rolls, s, g);
            let open: Vec<Point> = (0..grid.len()).map(|i| grid.point_at(i)).filter(|&p| grid.is_passable(p)).collect();
            let scale = costs.straight() * (w + h) as f64;
            let teleports = jumps
                .iter()
                .map(|&(from, to, real, r, both_ways)| Teleport {
                    from: open[from.index(open.len())],
                    to: open[to.index(open.len())],
                    cost: if r < 15 { 0.0 } else { real * scale },
                    both_ways,
                })
                .collect();
            let admissible: Vec<Heuristic> =
                Heuristic::ALL.iter().copied().filter(|h| h.is_admissible(rule, costs)).collect();
            let heuristic = admissible[pick.index(admissible.len())];
            TeleportCase { grid, rule, costs, heuristic, teleports, start, goal }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The teleport-aware estimate (aimed at the goal) is at most the independent exact cost
    /// left from every open cell and drops by at most the cost of every arc (grid move or
    /// teleport); A* with it and Dijkstra find the optimum; A* with the plain estimate still
    /// returns a legal path no cheaper than the optimum.
    #[test]
    fn teleport_estimate_is_admissible_and_consistent_and_a_star_with_it_is_optimal(case in teleport_case()) {
        let arcs = case.arcs();
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let to_goal = dijkstra(&reversed(&arcs), g);
        let opt = optimum(&to_goal, s);
        let mut space = case.space(TeleportHeuristic::Teleports);
        space.aim(g as u32);
        let goal_at = space.at(g as u32);
        let h = |u: usize| space.estimate(space.at(u as u32), goal_at);
        for (u, (&exact, out)) in to_goal.iter().zip(&arcs).enumerate() {
            if !space.is_open(u as u32) {
                continue;
            }
            prop_assert!(at_most(h(u), exact), "h({}) = {} > the exact {}", case.grid.point_at(u), h(u), exact);
            for &(v, c) in out {
                prop_assert!(
                    at_most(h(u), c + h(v)),
                    "h({}) = {} > {} + h({}) = {}",
                    case.grid.point_at(u), h(u), c, case.grid.point_at(v), h(v)
                );
            }
        }
        for (which, algorithm) in [
            (TeleportHeuristic::Teleports, Algorithm::AStar),
            (TeleportHeuristic::Teleports, Algorithm::Dijkstra),
            (TeleportHeuristic::Plain, Algorithm::AStar),
        ] {
            let found = run_and_check(case.space(which), s, g, SearchConfig::new(algorithm), &arcs, opt)?;
            if let (Some((cost, _)), Some(opt), TeleportHeuristic::Teleports) = (found, opt, which) {
                prop_assert!(same(cost, opt), "{:?}: {} but the optimum is {}", algorithm, cost, opt);
            }
        }
    }
}

/// Start at (1,2) in an open 20 x 5 field, goal at (19,2); a teleport from (0,2), just behind
/// the start, lands at (18,2), beside the goal, for 1. The way through it costs 1 + 1 + 1 = 3;
/// the plain Manhattan estimate rates the teleport's cell 19 from the goal, so plain A* walks
/// the 18 steps straight there and stops; the teleport-aware estimate sees the 3.
#[test]
fn a_teleport_beside_the_start_misleads_plain_a_star_but_not_the_teleport_estimate() {
    let base = SquareGrid::new(Grid::new(20, 5).unwrap(), Diagonal::Never, Costs::Real, Heuristic::Manhattan);
    let jump = Teleport { from: Point::new(0, 2), to: Point::new(18, 2), cost: 1.0, both_ways: false };
    let (start, goal) = (base.grid.index(Point::new(1, 2)) as u32, base.grid.index(Point::new(19, 2)) as u32);
    let cost = |which, algorithm| {
        let space = Teleports::new(base.clone(), vec![jump], which).unwrap();
        let mut s = Search::on(space, start, goal, SearchConfig::new(algorithm)).unwrap();
        finish(&mut s).unwrap();
        s.cost().unwrap()
    };
    let dijkstra = cost(TeleportHeuristic::Plain, Algorithm::Dijkstra);
    let plain = cost(TeleportHeuristic::Plain, Algorithm::AStar);
    let aware = cost(TeleportHeuristic::Teleports, Algorithm::AStar);
    assert_eq!(dijkstra, 3.0);
    assert_eq!(plain, 18.0, "plain A* walks straight to the goal");
    assert!(plain > dijkstra);
    assert_eq!(aware, dijkstra);
}

// ---------------------------------------------------------------------------------------------
// Slopes
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct SlopeCase {
    grid: Grid,
    rule: Diagonal,
    heights: Vec<u8>,
    uphill: f64,
    downhill: f64,
    a: Point,
    b: Point,
}

impl SlopeCase {
    fn space(&self, heuristic: Heuristic) -> Slopes {
        let base = SquareGrid::new(self.grid.clone(), self.rule, Costs::Real, heuristic);
        Slopes::new(base, self.heights.clone(), self.uphill, self.downhill).unwrap()
    }

    /// Moves costing their length times the entered cell's value, plus `uphill` per unit
    /// climbed or `downhill` per unit descended.
    fn arcs(&self) -> Arcs {
        square_arcs(&self.grid, self.rule, Costs::Real, |i, j| {
            let (from, to) = (f64::from(self.heights[i]), f64::from(self.heights[j]));
            if to >= from {
                self.uphill * (to - from)
            } else {
                self.downhill * (from - to)
            }
        })
    }
}

fn slope_case() -> impl Strategy<Value = SlopeCase> {
    (1usize..=12, 1usize..=12, 0u32..=35, any::<bool>(), select(vec![Diagonal::Never, Diagonal::NoCornerCutting]))
        .prop_flat_map(|(w, h, density, terrain, rule)| {
            (
                Just((w, h, density, terrain, rule)),
                cell_rolls(w, h),
                proptest::collection::vec(0u8..=9, w * h),
                0.0f64..3.0,
                0.0f64..=1.0,
                any::<Index>(),
                any::<Index>(),
            )
        })
        .prop_map(|((w, h, density, terrain, rule), rolls, heights, uphill, share, a, b)| {
            let (grid, a, b) = grid_from(w, h, density, terrain, &rolls, a, b);
            SlopeCase { grid, rule, heights, uphill, downhill: uphill * share, a, b }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// From A to B and from B to A, Dijkstra and A* (the rule's own estimate and Euclidean)
    /// cost the independent optimum over the test's own moves and climbs.
    #[test]
    fn slope_costs_both_ways_match_the_independent_dijkstra(case in slope_case()) {
        let arcs = case.arcs();
        let (a, b) = (case.grid.index(case.a), case.grid.index(case.b));
        for (from, to) in [(a, b), (b, a)] {
            let opt = optimum(&dijkstra(&arcs, from), to);
            for (h, algorithm) in [
                (Heuristic::Zero, Algorithm::Dijkstra),
                (Heuristic::default_for(case.rule), Algorithm::AStar),
                (Heuristic::Euclidean, Algorithm::AStar),
            ] {
                let found = run_and_check(case.space(h), from, to, SearchConfig::new(algorithm), &arcs, opt)?;
                if let (Some((cost, _)), Some(opt)) = (found, opt) {
                    prop_assert!(same(cost, opt), "{:?} {}: {} but the optimum is {}", algorithm, h, cost, opt);
                }
            }
        }
    }
}

/// Heights 0, 4, 8 along a row, 2 per unit climbed, 0.5 per unit descended: up the row costs
/// 2 steps + 8 x 2 = 18, down it 2 + 8 x 0.5 = 6.
#[test]
fn a_slope_costs_more_up_than_down() {
    let base = SquareGrid::new(Grid::new(3, 1).unwrap(), Diagonal::Never, Costs::Real, Heuristic::Manhattan);
    let hill = Slopes::new(base, vec![0, 4, 8], 2.0, 0.5).unwrap();
    let cost = |from, to, algorithm| {
        let mut s = Search::on(hill.clone(), from, to, SearchConfig::new(algorithm)).unwrap();
        finish(&mut s).unwrap();
        s.cost().unwrap()
    };
    for algorithm in [Algorithm::Dijkstra, Algorithm::AStar] {
        assert_eq!(cost(0, 2, algorithm), 18.0, "{algorithm:?} up");
        assert_eq!(cost(2, 0, algorithm), 6.0, "{algorithm:?} down");
    }
}

// ---------------------------------------------------------------------------------------------
// The square grid as a space
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// `Search::on(SquareGrid)` with the rules on the space and `Search::new` with the rules
    /// in the settings give the same status, cost, path, steps and expansions.
    #[test]
    fn square_grid_space_matches_the_grid_search(
        (grid, start, goal) in (1usize..=16, 1usize..=16, 0u32..=40, any::<bool>())
            .prop_flat_map(|(w, h, density, terrain)| (Just((w, h, density, terrain)), cell_rolls(w, h), any::<Index>(), any::<Index>()))
            .prop_map(|((w, h, density, terrain), rolls, s, g)| grid_from(w, h, density, terrain, &rolls, s, g)),
        rule in select(Diagonal::ALL.to_vec()),
        costs in select(Costs::ALL.to_vec()),
        algorithm in select(vec![Algorithm::Bfs, Algorithm::Dfs, Algorithm::Dijkstra, Algorithm::Greedy, Algorithm::AStar]),
        heuristic in select(Heuristic::ALL.to_vec()),
        weight in select(vec![1.0, 1.5, 3.0]),
    ) {
        let plain = SearchConfig::new(algorithm).weight(weight);
        let space = SquareGrid::new(grid.clone(), rule, costs, heuristic);
        let (s, g) = (grid.index(start) as u32, grid.index(goal) as u32);
        let mut on = Search::on(space, s, g, plain).unwrap();
        let mut new = Search::new(grid, start, goal, plain.heuristic(heuristic).diagonal(rule).costs(costs)).unwrap();
        prop_assert_eq!(finish(&mut on)?, new.run());
        prop_assert_eq!(on.cost(), new.cost());
        prop_assert_eq!(on.path_indices(), new.path_indices());
        prop_assert_eq!(on.steps(), new.steps());
        prop_assert_eq!(on.expanded(), new.expanded());
    }
}

// ---------------------------------------------------------------------------------------------
// Predecessors: the edges seen from their other end
// ---------------------------------------------------------------------------------------------

/// Every open node's predecessors, as `for_each_predecessor` lists them, are exactly the arcs
/// of the independent truth that enter it, with their costs (as multisets: parallel edges
/// count twice).
fn check_predecessors<S: Space>(space: &S, arcs: &Arcs) -> Result<(), TestCaseError> {
    let truth = reversed(arcs);
    for (v, expected) in truth.iter().enumerate() {
        if !space.is_open(v as u32) {
            continue;
        }
        let mut listed = Vec::new();
        space.for_each_predecessor(v as u32, space.at(v as u32), |u, _, c| listed.push((u as usize, c)));
        let mut expected = expected.clone();
        let order = |a: &(usize, f64), b: &(usize, f64)| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1));
        listed.sort_by(order);
        expected.sort_by(order);
        prop_assert_eq!(listed.len(), expected.len(), "into {}: {:?} but the truth is {:?}", v, listed, expected);
        for (&(lu, lc), &(eu, ec)) in listed.iter().zip(&expected) {
            prop_assert!(lu == eu && same(lc, ec), "into {}: {:?} but the truth is {:?}", v, listed, expected);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Graphs (directed, undirected and mixed): predecessors are the reversed arcs.
    #[test]
    fn graph_predecessors_are_the_reversed_arcs(case in graph_case()) {
        check_predecessors(&case.graph(Heuristic::Euclidean), &case.arcs())?;
    }

    /// Hex grids: predecessors are the offset neighbours, each at the cost of entering the node.
    #[test]
    fn hex_predecessors_are_the_reversed_arcs(case in hex_case()) {
        check_predecessors(&HexGrid::new(case.grid.clone(), case.layout), &hex_arcs(&case.grid, case.layout))?;
    }

    /// Square grids with teleports: grid moves and teleports, both reversed.
    #[test]
    fn teleport_predecessors_are_the_reversed_arcs(case in teleport_case()) {
        check_predecessors(&case.space(TeleportHeuristic::Teleports), &case.arcs())?;
    }

    /// Slopes: the climb of an edge into a node is priced from the predecessor's height.
    #[test]
    fn slope_predecessors_are_the_reversed_arcs(case in slope_case()) {
        check_predecessors(&case.space(Heuristic::Zero), &case.arcs())?;
    }

    /// The teleport-aware estimate towards a cell it was not aimed at (as a backward search
    /// uses it, towards the start) is still at most the exact cost left and consistent.
    #[test]
    fn teleport_estimate_towards_another_cell_is_admissible_and_consistent(case in teleport_case()) {
        let arcs = case.arcs();
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let mut space = case.space(TeleportHeuristic::Teleports);
        space.aim(g as u32);
        let to_start = dijkstra(&reversed(&arcs), s);
        let start_at = space.at(s as u32);
        let h = |u: usize| space.estimate(space.at(u as u32), start_at);
        for (u, (&exact, out)) in to_start.iter().zip(&arcs).enumerate() {
            if !space.is_open(u as u32) {
                continue;
            }
            prop_assert!(at_most(h(u), exact), "h({}) = {} > the exact {}", case.grid.point_at(u), h(u), exact);
            for &(v, c) in out {
                prop_assert!(at_most(h(u), c + h(v)), "h({}) = {} > {} + h({})", u, h(u), c, v);
            }
        }
    }
}
