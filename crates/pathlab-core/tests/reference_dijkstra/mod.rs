//! An independent truth for the bidirectional A* and IDA* tests: Dijkstra over the cell bytes,
//! with its own reading of the movement rules and costs. It calls nothing of
//! `pathlab_core::grid` but the sizes and the cell bytes (no neighbour iteration, no
//! `Diagonal::allows`, no `Costs::step`), so a mistake shared with the core cannot hide.
//!
//! It also runs Dijkstra *backward* (the cheapest cost from every cell to a goal, each move
//! paying for the cell it enters), computed by relaxing moves into the settled cell, and
//! checks paths move by move.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use pathlab_core::grid::{Costs, Diagonal, Grid, Point};

/// The eight moves (dx, dy); the order does not matter here.
const MOVES: [(i64, i64); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// The cell byte at (x, y), or `None` outside the grid.
fn cell(grid: &Grid, x: i64, y: i64) -> Option<u8> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    (x >= 0 && y >= 0 && x < w && y < h).then(|| grid.cells()[(y * w + x) as usize])
}

fn open(grid: &Grid, x: i64, y: i64) -> bool {
    cell(grid, x, y).is_some_and(|c| c != 0)
}

/// Whether the move (x, y) -> (x + dx, y + dy) is legal under `rule`.
pub fn legal(grid: &Grid, rule: Diagonal, x: i64, y: i64, dx: i64, dy: i64) -> bool {
    if !open(grid, x, y) || !open(grid, x + dx, y + dy) {
        return false;
    }
    if dx == 0 || dy == 0 {
        return (dx.abs() + dy.abs()) == 1;
    }
    let beside = [open(grid, x + dx, y), open(grid, x, y + dy)];
    let open_sides = beside.iter().filter(|&&b| b).count();
    match rule {
        Diagonal::Never => false,
        Diagonal::NoCornerCutting => open_sides == 2,
        Diagonal::AtMostOneBlocked => open_sides >= 1,
        Diagonal::Always => true,
    }
}

/// The cost of a move of (dx, dy) entering a cell of value `terrain`.
pub fn cost(costs: Costs, dx: i64, dy: i64, terrain: u8) -> f64 {
    let length = match (costs, dx != 0 && dy != 0) {
        (Costs::Real, false) => 1.0,
        (Costs::Real, true) => 2f64.sqrt(),
        (Costs::Integer, false) => 10.0,
        (Costs::Integer, true) => 14.0,
    };
    length * f64::from(terrain)
}

/// Integer-ordered f64 for the heap (costs here are finite and non-negative).
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

/// Dijkstra from `root`: the cheapest cost from `root` to every cell when `forward`, from
/// every cell to `root` otherwise; infinite where there is none.
fn dijkstra(grid: &Grid, root: Point, rule: Diagonal, costs: Costs, forward: bool) -> Vec<f64> {
    let w = grid.width() as i64;
    let mut dist = vec![f64::INFINITY; grid.len()];
    let mut heap = BinaryHeap::new();
    let r = root.y as i64 * w + root.x as i64;
    dist[r as usize] = 0.0;
    heap.push(Reverse((Key(0.0), r)));
    while let Some(Reverse((Key(d), i))) = heap.pop() {
        if d > dist[i as usize] {
            continue;
        }
        let (x, y) = (i % w, i / w);
        for (dx, dy) in MOVES {
            let (nx, ny) = (x + dx, y + dy);
            // Forward: the move (x, y) -> (nx, ny), entering (nx, ny). Backward: the move
            // (nx, ny) -> (x, y), entering (x, y).
            let (ok, terrain) = if forward {
                (legal(grid, rule, x, y, dx, dy), cell(grid, nx, ny))
            } else {
                (legal(grid, rule, nx, ny, -dx, -dy), cell(grid, x, y))
            };
            if !ok {
                continue;
            }
            let j = (ny * w + nx) as usize;
            let nd = d + cost(costs, dx, dy, terrain.expect("legal moves stay inside"));
            if nd < dist[j] {
                dist[j] = nd;
                heap.push(Reverse((Key(nd), j as i64)));
            }
        }
    }
    dist
}

/// The cheapest cost from `start` to every cell (row-major; infinite where unreachable).
pub fn costs_from(grid: &Grid, start: Point, rule: Diagonal, costs: Costs) -> Vec<f64> {
    dijkstra(grid, start, rule, costs, true)
}

/// The cheapest cost from every cell to `goal` (row-major; infinite where it cannot).
pub fn costs_to(grid: &Grid, goal: Point, rule: Diagonal, costs: Costs) -> Vec<f64> {
    dijkstra(grid, goal, rule, costs, false)
}

/// The cheapest cost from `start` to `goal`, if any.
pub fn optimum(grid: &Grid, start: Point, goal: Point, rule: Diagonal, costs: Costs) -> Option<f64> {
    let d = costs_from(grid, start, rule, costs)[goal.y * grid.width() + goal.x];
    d.is_finite().then_some(d)
}

/// Checks a path move by move (from `start`, to `goal`, every move legal) and returns the
/// sum of its move costs.
pub fn walk(
    grid: &Grid,
    rule: Diagonal,
    costs: Costs,
    start: Point,
    goal: Point,
    path: &[Point],
) -> Result<f64, String> {
    match (path.first(), path.last()) {
        (Some(&a), Some(&b)) if a == start && b == goal => {}
        _ => return Err(format!("the path {path:?} does not run from {start} to {goal}")),
    }
    let mut total = 0.0;
    for pair in path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (x, y) = (a.x as i64, a.y as i64);
        let (dx, dy) = (b.x as i64 - x, b.y as i64 - y);
        if dx.abs() > 1 || dy.abs() > 1 || !legal(grid, rule, x, y, dx, dy) {
            return Err(format!("{a} -> {b} is not a legal move under {rule}"));
        }
        total += cost(costs, dx, dy, cell(grid, b.x as i64, b.y as i64).expect("inside"));
    }
    Ok(total)
}

/// True when two costs agree up to summation error.
pub fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// A small deterministic generator (SplitMix64) for the seeded sweeps.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
