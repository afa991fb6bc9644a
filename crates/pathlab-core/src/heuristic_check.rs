//! Heuristic checks on a map: where an estimate is too high (inadmissible) or drops by more
//! than a move costs (inconsistent).
//!
//! For a goal, the estimate `h` is *admissible* at a cell when it is at most the true cost of
//! the cheapest way from that cell to the goal, and *consistent* across a move `a -> b` of cost
//! `c` when `h(a) <= c + h(b)`. A* finds a cheapest path with an admissible heuristic, and
//! never needs to reopen a closed node with a consistent one. [`check`] finds the true costs by
//! Dijkstra's algorithm backwards from the goal and tests every open cell and every move.
//!
//! ```
//! use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
//! use pathlab_core::heuristic::Heuristic;
//! use pathlab_core::heuristic_check::{check, INADMISSIBLE};
//! use pathlab_core::space::SquareGrid;
//! // Manhattan counts a diagonal as two straight moves: too high wherever one is used.
//! let space = SquareGrid::new(Grid::new(3, 3).unwrap(), Diagonal::Always, Costs::Integer, Heuristic::Manhattan);
//! let found = check(&space, Point::new(2, 2));
//! assert_eq!(found.flags[0] & INADMISSIBLE, INADMISSIBLE); // h = 40, true cost 28
//! let worst = found.worst.unwrap();
//! assert_eq!((worst.cell, worst.h, worst.exact), (Point::new(0, 0), 40.0, 28.0));
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::grid::{Point, WALL};
use crate::space::{Space, SquareGrid};

/// A cell's flag: its estimate is above the true cost to the goal.
pub const INADMISSIBLE: u8 = 1;
/// A cell's flag: its estimate drops by more than a move's cost to some neighbour.
pub const INCONSISTENT: u8 = 2;

/// A cell whose estimate is too high: where, its estimate and the true cost to the goal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Overestimate {
    /// The cell.
    pub cell: Point,
    /// Its estimate.
    pub h: f64,
    /// The true cost of its cheapest way to the goal.
    pub exact: f64,
}

/// A move across which the estimate drops by more than the move costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drop {
    /// The cell the move leaves.
    pub cell: Point,
    /// The cell it enters.
    pub to: Point,
    /// By how much `h(cell)` exceeds the move's cost plus `h(to)`.
    pub excess: f64,
}

/// What [`check`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct HeuristicCheck {
    /// One byte per cell, row-major: [`INADMISSIBLE`] and [`INCONSISTENT`] or-ed together.
    pub flags: Vec<u8>,
    /// How many cells are inadmissible.
    pub inadmissible: usize,
    /// How many cells are inconsistent (with at least one neighbour).
    pub inconsistent: usize,
    /// The cell whose estimate is furthest above the true cost (the first in row-major order
    /// among equals), if any is.
    pub worst: Option<Overestimate>,
    /// The move across which the estimate drops most beyond its cost (the first found among
    /// equals), if any does.
    pub worst_drop: Option<Drop>,
}

/// Tolerance for rounding in the comparisons: a hair of the costs compared.
fn above(a: f64, b: f64) -> bool {
    a > b + 1e-9 * b.abs().max(1.0)
}

/// The true cost from every cell to `goal` under `space`'s moves and costs (infinite where
/// the goal cannot be reached), by Dijkstra's algorithm over the moves reversed.
pub fn distances_to(space: &SquareGrid, goal: Point) -> Vec<f64> {
    let n = space.node_count();
    let mut dist = vec![f64::INFINITY; n];
    let Some(v) = space.grid.get(goal) else { return dist };
    if v == WALL {
        return dist;
    }
    let g = space.grid.index(goal) as u32;
    dist[g as usize] = 0.0;
    // Costs are non-negative, so their bit patterns sort as the numbers do.
    let mut heap = BinaryHeap::from([Reverse((0.0f64.to_bits(), g))]);
    while let Some(Reverse((bits, node))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[node as usize] {
            continue;
        }
        space.for_each_predecessor(node, space.at(node), |from, _, cost| {
            let nd = d + cost;
            if nd < dist[from as usize] {
                dist[from as usize] = nd;
                heap.push(Reverse((nd.to_bits(), from)));
            }
        });
    }
    dist
}

/// Checks `space`'s heuristic towards `goal` on every open cell: admissible against the true
/// costs ([`distances_to`]), consistent across every move the rules allow.
pub fn check(space: &SquareGrid, goal: Point) -> HeuristicCheck {
    let dist = distances_to(space, goal);
    let n = space.node_count();
    let h: Vec<f64> = (0..n as u32).map(|i| space.estimate(space.at(i), goal)).collect();
    let mut out = HeuristicCheck { flags: vec![0; n], inadmissible: 0, inconsistent: 0, worst: None, worst_drop: None };
    for i in 0..n as u32 {
        if !space.is_open(i) {
            continue;
        }
        let at = space.at(i);
        let k = i as usize;
        if dist[k].is_finite() && above(h[k], dist[k]) {
            out.flags[k] |= INADMISSIBLE;
            out.inadmissible += 1;
            if out.worst.is_none_or(|w| h[k] - dist[k] > w.h - w.exact) {
                out.worst = Some(Overestimate { cell: at, h: h[k], exact: dist[k] });
            }
        }
        let mut drops = false;
        space.for_each_neighbour(i, at, |to, to_at, cost| {
            let j = to as usize;
            if above(h[k], cost + h[j]) {
                drops = true;
                let excess = h[k] - cost - h[j];
                if out.worst_drop.is_none_or(|d| excess > d.excess) {
                    out.worst_drop = Some(Drop { cell: at, to: to_at, excess });
                }
            }
        });
        if drops {
            out.flags[k] |= INCONSISTENT;
            out.inconsistent += 1;
        }
    }
    out
}
