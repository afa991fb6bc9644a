//! A square grid, plain or with teleports or with slopes, as one type: the page's grid with
//! whatever links it has.
//!
//! Every search is compiled once per space it runs on, and each copy adds to what the page
//! downloads. So the searches that have their own steppers (bidirectional A*, IDA*, LPA*,
//! D* Lite, LRTA*, RTA*) are built on [`LinkedGrid`] for the grid page, which picks the rule
//! once per node expanded: one copy of each for every kind of grid. A*, Dijkstra and the other
//! basic searches, where the grid's speed is measured, keep a copy on [`SquareGrid`] of their
//! own.
//!
//! ```
//! use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
//! use pathlab_core::heuristic::Heuristic;
//! use pathlab_core::space::{LinkedGrid, Space, SquareGrid, Teleport, TeleportHeuristic, Teleports};
//! let grid = SquareGrid::new(Grid::new(10, 1).unwrap(), Diagonal::Never, Costs::Real, Heuristic::Manhattan);
//! let jump = Teleport { from: Point::new(0, 0), to: Point::new(9, 0), cost: 2.0, both_ways: false };
//! let space = LinkedGrid::Teleports(Teleports::new(grid, vec![jump], TeleportHeuristic::Plain).unwrap());
//! let mut out = Vec::new();
//! space.for_each_neighbour(0, Point::new(0, 0), |nb, _, cost| out.push((nb, cost)));
//! assert_eq!(out, [(1, 1.0), (9, 2.0)]);
//! ```

use super::{OnGrid, Slopes, Space, SquareGrid, Teleports};
use crate::grid::{Grid, Point};
use crate::search::SearchConfig;

/// A square grid, plain or with teleports or with slopes.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkedGrid {
    /// The grid alone.
    Plain(SquareGrid),
    /// Jumps between cells.
    Teleports(Teleports),
    /// Heights, and moves dearer uphill than downhill.
    Slopes(Slopes),
}

impl Space for LinkedGrid {
    type At = Point;

    fn node_count(&self) -> usize {
        match self {
            Self::Plain(p) => p.node_count(),
            Self::Teleports(t) => t.node_count(),
            Self::Slopes(s) => s.node_count(),
        }
    }

    fn at(&self, node: u32) -> Point {
        match self {
            Self::Plain(p) => p.at(node),
            Self::Teleports(t) => t.at(node),
            Self::Slopes(s) => s.at(node),
        }
    }

    fn is_open(&self, node: u32) -> bool {
        match self {
            Self::Plain(p) => p.is_open(node),
            Self::Teleports(t) => t.is_open(node),
            Self::Slopes(s) => s.is_open(node),
        }
    }

    fn for_each_neighbour(&self, node: u32, at: Point, visit: impl FnMut(u32, Point, f64)) {
        match self {
            Self::Plain(p) => p.for_each_neighbour(node, at, visit),
            Self::Teleports(t) => t.for_each_neighbour(node, at, visit),
            Self::Slopes(s) => s.for_each_neighbour(node, at, visit),
        }
    }

    fn for_each_predecessor(&self, node: u32, at: Point, visit: impl FnMut(u32, Point, f64)) {
        match self {
            Self::Plain(p) => p.for_each_predecessor(node, at, visit),
            Self::Teleports(t) => t.for_each_predecessor(node, at, visit),
            Self::Slopes(s) => s.for_each_predecessor(node, at, visit),
        }
    }

    fn aim(&mut self, goal: u32) {
        match self {
            Self::Plain(p) => p.aim(goal),
            Self::Teleports(t) => t.aim(goal),
            Self::Slopes(s) => s.aim(goal),
        }
    }

    fn estimate(&self, from: Point, goal: Point) -> f64 {
        match self {
            Self::Plain(p) => p.estimate(from, goal),
            Self::Teleports(t) => t.estimate(from, goal),
            Self::Slopes(s) => s.estimate(from, goal),
        }
    }

    fn position(&self, node: u32) -> [f64; 2] {
        match self {
            Self::Plain(p) => p.position(node),
            Self::Teleports(t) => t.position(node),
            Self::Slopes(s) => s.position(node),
        }
    }

    fn label(&self, node: u32) -> String {
        match self {
            Self::Plain(p) => p.label(node),
            Self::Teleports(t) => t.label(node),
            Self::Slopes(s) => s.label(node),
        }
    }
}

impl OnGrid for LinkedGrid {
    fn grid(&self) -> &Grid {
        match self {
            Self::Plain(p) => p.grid(),
            Self::Teleports(t) => t.grid(),
            Self::Slopes(s) => s.grid(),
        }
    }

    fn grid_mut(&mut self) -> &mut Grid {
        match self {
            Self::Plain(p) => p.grid_mut(),
            Self::Teleports(t) => t.grid_mut(),
            Self::Slopes(s) => s.grid_mut(),
        }
    }

    fn configure(&mut self, config: &SearchConfig) {
        match self {
            Self::Plain(p) => p.configure(config),
            Self::Teleports(t) => t.configure(config),
            Self::Slopes(s) => s.configure(config),
        }
    }
}
