//! The one independent truth the core's integration tests check against: its own reading of
//! the grid's movement rules and costs, a plain Dijkstra (forward, backward, with the parents
//! it chose) and a breadth-first hop count over any list of arcs, a move-by-move path checker,
//! and the tolerance every comparison of costs allows.
//!
//! Nothing here calls the code under test: of `pathlab_core::grid` it takes only the sizes and
//! the cell bytes (no `Grid::for_each_neighbour`, `Grid::is_legal_move`, `Diagonal::allows` or
//! `Costs::step`), so a mistake shared with the core cannot hide. The searches on other spaces
//! build their arcs from their own rules (`space_support`) and run the same Dijkstra.
//!
//! A test takes it in with `mod oracle;`; the support modules reach it as `super::oracle`.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};

// ---------------------------------------------------------------------------------------------
// The grid's rules, read from the cell bytes
// ---------------------------------------------------------------------------------------------

/// The eight moves (dx, dy), straight first. The order does not matter to the truth.
pub const MOVES: [(i64, i64); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// The cell byte at (x, y), or `None` outside the grid.
pub fn cell(grid: &Grid, x: i64, y: i64) -> Option<u8> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    (x >= 0 && y >= 0 && x < w && y < h).then(|| grid.cells()[(y * w + x) as usize])
}

/// True when (x, y) is inside the grid and not a wall.
pub fn open(grid: &Grid, x: i64, y: i64) -> bool {
    cell(grid, x, y).is_some_and(|c| c != WALL)
}

/// Whether a diagonal move whose two side cells are open (`a`, `b`) is allowed under `rule`.
pub fn diagonal_ok(rule: Diagonal, a: bool, b: bool) -> bool {
    match rule {
        Diagonal::Never => false,
        Diagonal::NoCornerCutting => a && b,
        Diagonal::AtMostOneBlocked => a || b,
        Diagonal::Always => true,
    }
}

/// Whether (x, y) -> (x + dx, y + dy) is a legal move under `rule`: to one of the eight cells
/// around, both ends open, and a diagonal allowed by the two cells beside it.
pub fn legal(grid: &Grid, rule: Diagonal, x: i64, y: i64, dx: i64, dy: i64) -> bool {
    if dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) {
        return false;
    }
    if !open(grid, x, y) || !open(grid, x + dx, y + dy) {
        return false;
    }
    dx == 0 || dy == 0 || diagonal_ok(rule, open(grid, x + dx, y), open(grid, x, y + dy))
}

/// The cost of one move entering a cell of value `terrain`: its length (1 and sqrt 2, or 10
/// and 14) times the value.
pub fn move_cost(costs: Costs, diagonal: bool, terrain: u8) -> f64 {
    let length = match (costs, diagonal) {
        (Costs::Real, false) => 1.0,
        (Costs::Real, true) => std::f64::consts::SQRT_2,
        (Costs::Integer, false) => 10.0,
        (Costs::Integer, true) => 14.0,
    };
    length * f64::from(terrain)
}

/// The legal moves from `p`: (target, is diagonal).
pub fn moves(grid: &Grid, p: Point, rule: Diagonal) -> Vec<(Point, bool)> {
    let (x, y) = (p.x as i64, p.y as i64);
    MOVES
        .iter()
        .filter(|&&(dx, dy)| legal(grid, rule, x, y, dx, dy))
        .map(|&(dx, dy)| (Point::new((x + dx) as usize, (y + dy) as usize), dx != 0 && dy != 0))
        .collect()
}

/// Checks one move from `a` to `b` and returns its cost, or says why it is illegal.
pub fn check_move(grid: &Grid, rule: Diagonal, costs: Costs, a: Point, b: Point) -> Result<f64, String> {
    let (ax, ay, bx, by) = (a.x as i64, a.y as i64, b.x as i64, b.y as i64);
    if !open(grid, ax, ay) {
        return Err(format!("{a} is not an open cell"));
    }
    if !open(grid, bx, by) {
        return Err(format!("{b} is not an open cell"));
    }
    let (dx, dy) = (bx - ax, by - ay);
    if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
        return Err(format!("{a} -> {b} is not a move to an adjacent cell"));
    }
    if !legal(grid, rule, ax, ay, dx, dy) {
        let (side_a, side_b) = (open(grid, bx, ay), open(grid, ax, by));
        return Err(format!("{a} -> {b} is a diagonal the rule {rule} forbids (sides open: {side_a}, {side_b})"));
    }
    Ok(move_cost(costs, dx != 0 && dy != 0, grid.cells()[grid.index(b)]))
}

/// Checks a path move by move (from `start`, to `goal`, every move legal, a one-cell path on
/// an open cell) and returns the sum of its move costs.
pub fn walk(
    grid: &Grid,
    rule: Diagonal,
    costs: Costs,
    start: Point,
    goal: Point,
    path: &[Point],
) -> Result<f64, String> {
    if path.first() != Some(&start) || path.last() != Some(&goal) {
        return Err(format!("the path {path:?} does not run from {start} to {goal}"));
    }
    if path.len() == 1 && !open(grid, start.x as i64, start.y as i64) {
        return Err(format!("the one-cell path {start} is on a wall"));
    }
    path.windows(2).map(|pair| check_move(grid, rule, costs, pair[0], pair[1])).sum()
}

// ---------------------------------------------------------------------------------------------
// Dijkstra and breadth-first search over arcs
// ---------------------------------------------------------------------------------------------

/// Per node, the arcs leaving it: (target, cost).
pub type Arcs = Vec<Vec<(usize, f64)>>;

/// What Dijkstra leaves: the cheapest cost from the source to every node (infinite where
/// unreachable), and the node each was first reached from at that cost (`None` for the
/// source and the unreachable).
pub struct Tree {
    pub cost: Vec<f64>,
    pub parent: Vec<Option<usize>>,
}

impl Tree {
    /// The nodes from the source to `node` along the parents, or `None` when unreachable.
    pub fn path_to(&self, node: usize) -> Option<Vec<usize>> {
        self.cost[node].is_finite().then(|| {
            let mut path = vec![node];
            while let Some(p) = self.parent[*path.last().unwrap()] {
                path.push(p);
            }
            path.reverse();
            path
        })
    }
}

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

/// Plain Dijkstra over `n` nodes from `source`; `arcs_of(u, emit)` calls `emit(v, cost)` for
/// each arc leaving `u`. Among equal costs the lowest node is settled first; a parent changes
/// only for a strictly cheaper way.
pub fn shortest(n: usize, source: usize, arcs_of: impl Fn(usize, &mut dyn FnMut(usize, f64))) -> Tree {
    let mut cost = vec![f64::INFINITY; n];
    let mut parent = vec![None; n];
    let mut heap = BinaryHeap::new();
    cost[source] = 0.0;
    heap.push(Reverse((Key(0.0), source)));
    while let Some(Reverse((Key(d), u))) = heap.pop() {
        if d > cost[u] {
            continue;
        }
        arcs_of(u, &mut |v, c| {
            if d + c < cost[v] {
                cost[v] = d + c;
                parent[v] = Some(u);
                heap.push(Reverse((Key(d + c), v)));
            }
        });
    }
    Tree { cost, parent }
}

/// The cheapest cost from `source` to every node of `arcs` (infinite where unreachable).
pub fn dijkstra(arcs: &Arcs, source: usize) -> Vec<f64> {
    shortest(arcs.len(), source, |u, emit| arcs[u].iter().for_each(|&(v, c)| emit(v, c))).cost
}

/// The fewest arcs from `source` to every node (`None` where unreachable), by plain BFS.
pub fn fewest(n: usize, source: usize, arcs_of: impl Fn(usize, &mut dyn FnMut(usize, f64))) -> Vec<Option<usize>> {
    let mut hops = vec![None; n];
    let mut queue = VecDeque::from([source]);
    hops[source] = Some(0);
    while let Some(u) = queue.pop_front() {
        let next = hops[u].map(|h| h + 1);
        arcs_of(u, &mut |v, _| {
            if hops[v].is_none() {
                hops[v] = next;
                queue.push_back(v);
            }
        });
    }
    hops
}

/// The fewest arcs from `source` to every node of `arcs` (`None` where unreachable).
pub fn hops(arcs: &Arcs, source: usize) -> Vec<Option<usize>> {
    fewest(arcs.len(), source, |u, emit| arcs[u].iter().for_each(|&(v, c)| emit(v, c)))
}

/// The arcs turned round: Dijkstra over them from a goal gives every node's cost to the goal.
pub fn reversed(arcs: &Arcs) -> Arcs {
    let mut back = vec![Vec::new(); arcs.len()];
    for (u, out) in arcs.iter().enumerate() {
        for &(v, c) in out {
            back[v].push((u, c));
        }
    }
    back
}

/// The cost in `dist` at `node`, or `None` when it is unreachable.
pub fn reached(dist: &[f64], node: usize) -> Option<f64> {
    dist[node].is_finite().then_some(dist[node])
}

// ---------------------------------------------------------------------------------------------
// Dijkstra and breadth-first search on grids
// ---------------------------------------------------------------------------------------------

/// Calls `emit(j, cost)` for each legal move out of cell `i` (row-major), or into it when
/// `backward` (each move paying for the cell it enters: `i` itself when backward).
fn grid_arcs(grid: &Grid, rule: Diagonal, costs: Costs, backward: bool, i: usize, emit: &mut dyn FnMut(usize, f64)) {
    let w = grid.width() as i64;
    let (x, y) = (i as i64 % w, i as i64 / w);
    for (dx, dy) in MOVES {
        let (nx, ny) = (x + dx, y + dy);
        let ok = if backward { legal(grid, rule, nx, ny, -dx, -dy) } else { legal(grid, rule, x, y, dx, dy) };
        if ok {
            let j = (ny * w + nx) as usize;
            let entered = grid.cells()[if backward { i } else { j }];
            emit(j, move_cost(costs, dx != 0 && dy != 0, entered));
        }
    }
}

/// The arcs of a square grid: legal moves costing [`move_cost`] of the entered cell, plus
/// `extra(from, to)` (row-major cell numbers).
pub fn square_arcs(grid: &Grid, rule: Diagonal, costs: Costs, extra: impl Fn(usize, usize) -> f64) -> Arcs {
    (0..grid.len())
        .map(|i| {
            let mut out = Vec::new();
            grid_arcs(grid, rule, costs, false, i, &mut |j, c| out.push((j, c + extra(i, j))));
            out
        })
        .collect()
}

/// The cheapest cost from `start` to every cell (row-major; infinite where unreachable).
pub fn costs_from(grid: &Grid, start: Point, rule: Diagonal, costs: Costs) -> Vec<f64> {
    shortest(grid.len(), grid.index(start), |i, emit| grid_arcs(grid, rule, costs, false, i, emit)).cost
}

/// The cheapest cost from every cell to `goal` (row-major; infinite where it cannot).
pub fn costs_to(grid: &Grid, goal: Point, rule: Diagonal, costs: Costs) -> Vec<f64> {
    shortest(grid.len(), grid.index(goal), |i, emit| grid_arcs(grid, rule, costs, true, i, emit)).cost
}

/// The cheapest cost from `start` to `goal`, if any.
pub fn optimum(grid: &Grid, start: Point, goal: Point, rule: Diagonal, costs: Costs) -> Option<f64> {
    reached(&costs_from(grid, start, rule, costs), grid.index(goal))
}

/// The fewest moves from `start` to every cell (row-major; `None` where unreachable).
pub fn hops_from(grid: &Grid, start: Point, rule: Diagonal) -> Vec<Option<usize>> {
    fewest(grid.len(), grid.index(start), |i, emit| grid_arcs(grid, rule, Costs::Real, false, i, emit))
}

// ---------------------------------------------------------------------------------------------
// Comparing costs
// ---------------------------------------------------------------------------------------------

/// The tolerance every comparison of costs allows: 1e-9 relative (absolute below 1).
pub fn slack(a: f64, b: f64) -> f64 {
    1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// True when two costs agree up to summation error.
pub fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= slack(a, b)
}

/// True when `a` is not above `b`, up to summation error.
pub fn at_most(a: f64, b: f64) -> bool {
    a <= b + slack(a, b)
}
