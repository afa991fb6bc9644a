//! The square grid as a space: cells are nodes, moves are edges.
//!
//! A node is a cell's row-major index; the cell's column and row ride along as its
//! [`At`](super::Space::At), so the estimate costs no division. Moves and their costs follow
//! the [`Diagonal`] rule and the [`Costs`] model exactly as [`Grid`] defines them, in the
//! grid's neighbour order (N, E, S, W, NE, SE, SW, NW).
//!
//! ```
//! use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
//! use pathlab_core::heuristic::Heuristic;
//! use pathlab_core::space::{Space, SquareGrid};
//! let space = SquareGrid::new(Grid::new(3, 3).unwrap(), Diagonal::Never, Costs::Integer, Heuristic::Manhattan);
//! let mut costs = Vec::new();
//! space.for_each_neighbour(4, Point::new(1, 1), |_, _, c| costs.push(c));
//! assert_eq!(costs, [10.0; 4]);
//! assert_eq!(space.estimate(Point::new(0, 0), Point::new(2, 1)), 30.0);
//! ```

use super::Space;
use crate::grid::{Costs, Diagonal, Grid, NeighbourOrder, Point, GROUND, WALL};
use crate::heuristic::Heuristic;
use crate::search::SearchConfig;

/// A square grid with its movement rule, cost model and heuristic.
#[derive(Clone, Debug, PartialEq)]
pub struct SquareGrid {
    /// The cells.
    pub grid: Grid,
    /// Which diagonal moves are allowed.
    pub diagonal: Diagonal,
    /// What moves cost.
    pub costs: Costs,
    /// The estimate.
    pub heuristic: Heuristic,
    /// The order in which the straight neighbours are tried (see [`NeighbourOrder`]).
    pub order: NeighbourOrder,
}

impl SquareGrid {
    /// A grid with these rules.
    pub const fn new(grid: Grid, diagonal: Diagonal, costs: Costs, heuristic: Heuristic) -> Self {
        Self { grid, diagonal, costs, heuristic, order: NeighbourOrder::NESW }
    }

    /// A grid with the rules of a search's settings.
    pub const fn with_config(grid: Grid, config: &SearchConfig) -> Self {
        let mut space = Self::new(grid, config.diagonal, config.costs, config.heuristic);
        space.order = config.order;
        space
    }

    /// Takes the rules from a search's settings.
    pub fn configure(&mut self, config: &SearchConfig) {
        self.diagonal = config.diagonal;
        self.costs = config.costs;
        self.heuristic = config.heuristic;
        self.order = config.order;
    }
}

impl Space for SquareGrid {
    type At = Point;

    #[inline]
    fn node_count(&self) -> usize {
        self.grid.len()
    }

    #[inline]
    fn at(&self, node: u32) -> Point {
        self.grid.point_at(node as usize)
    }

    #[inline]
    fn is_open(&self, node: u32) -> bool {
        self.grid.cells()[node as usize] != WALL
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn for_each_neighbour(&self, _node: u32, at: Point, mut visit: impl FnMut(u32, Point, f64)) {
        let cells = self.grid.cells();
        let costs = self.costs;
        // Without terrain every open cell is ground: its value need not be read.
        let uniform = !self.grid.has_terrain();
        self.grid.for_each_neighbour_in(at, self.diagonal, self.order, |nb, nb_at, diagonal| {
            let terrain = if uniform { GROUND } else { cells[nb] };
            visit(nb as u32, nb_at, costs.step(diagonal, terrain));
        });
    }

    /// The moves are the same both ways; a move costs what entering its cell costs, so every
    /// edge into `node` costs `node`'s terrain.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn for_each_predecessor(&self, node: u32, at: Point, mut visit: impl FnMut(u32, Point, f64)) {
        let terrain = self.grid.cells()[node as usize];
        if terrain == WALL {
            return;
        }
        let costs = self.costs;
        self.grid.for_each_neighbour_in(at, self.diagonal, self.order, |nb, nb_at, diagonal| {
            visit(nb as u32, nb_at, costs.step(diagonal, terrain));
        });
    }

    #[inline]
    fn estimate(&self, from: Point, goal: Point) -> f64 {
        self.heuristic.estimate(from.x.abs_diff(goal.x), from.y.abs_diff(goal.y), self.costs)
    }

    fn position(&self, node: u32) -> [f64; 2] {
        let p = self.at(node);
        [p.x as f64, p.y as f64]
    }

    fn label(&self, node: u32) -> String {
        self.at(node).to_string()
    }
}
