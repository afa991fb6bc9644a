//! Costs on links: a height per cell, and moves that cost more uphill than downhill.
//!
//! A move from cell a to cell b costs what it costs on the flat grid (length times the
//! terrain of b) plus `uphill` per unit of height climbed, or plus `downhill` per unit
//! descended. So the cost sits on the link, not on the cell: the way from A to B can cost
//! more, or run elsewhere, than the way back. Both extras are at least 0, so the grid's
//! admissible heuristics stay admissible.
//!
//! ```
//! use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
//! use pathlab_core::heuristic::Heuristic;
//! use pathlab_core::space::{Slopes, Space, SquareGrid};
//! let grid = SquareGrid::new(Grid::new(2, 1).unwrap(), Diagonal::Never, Costs::Real, Heuristic::Manhattan);
//! let hill = Slopes::new(grid, vec![0, 3], 2.0, 0.5).unwrap();
//! let mut up = 0.0;
//! hill.for_each_neighbour(0, Point::new(0, 0), |_, _, c| up = c);
//! let mut down = 0.0;
//! hill.for_each_neighbour(1, Point::new(1, 0), |_, _, c| down = c);
//! assert_eq!((up, down), (1.0 + 3.0 * 2.0, 1.0 + 3.0 * 0.5));
//! ```

use super::{Space, SquareGrid};
use crate::grid::Point;

/// A square grid with a height per cell. See the [module](self).
#[derive(Clone, Debug, PartialEq)]
pub struct Slopes {
    /// The grid and its rules.
    pub base: SquareGrid,
    heights: Vec<u8>,
    uphill: f64,
    downhill: f64,
}

impl Slopes {
    /// Heights (one per cell, row-major) with the extra cost per unit climbed and descended.
    pub fn new(base: SquareGrid, heights: Vec<u8>, uphill: f64, downhill: f64) -> Result<Self, String> {
        if heights.len() != base.grid.len() {
            return Err(format!("expected {} heights, one per cell, found {}", base.grid.len(), heights.len()));
        }
        for (name, v) in [("uphill", uphill), ("downhill", downhill)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("the {name} cost per unit of height must be a finite number >= 0, got {v}"));
            }
        }
        Ok(Self { base, heights, uphill, downhill })
    }

    /// The heights, row-major.
    pub fn heights(&self) -> &[u8] {
        &self.heights
    }

    /// Sets one cell's height.
    pub fn set_height(&mut self, node: u32, height: u8) {
        self.heights[node as usize] = height;
    }

    /// The extra cost of stepping from height `a` to height `b`.
    #[inline]
    pub fn climb(&self, a: u8, b: u8) -> f64 {
        if b >= a {
            self.uphill * f64::from(b - a)
        } else {
            self.downhill * f64::from(a - b)
        }
    }
}

impl Space for Slopes {
    cells_through_base!();

    fn for_each_neighbour(&self, node: u32, at: Point, mut visit: impl FnMut(u32, Point, f64)) {
        let here = self.heights[node as usize];
        self.base.for_each_neighbour(node, at, |nb, nb_at, cost| {
            let extra = self.climb(here, self.heights[nb as usize]);
            visit(nb, nb_at, if extra == 0.0 { cost } else { cost + extra });
        });
    }

    fn for_each_predecessor(&self, node: u32, at: Point, mut visit: impl FnMut(u32, Point, f64)) {
        let here = self.heights[node as usize];
        self.base.for_each_predecessor(node, at, |pred, pred_at, cost| {
            let extra = self.climb(self.heights[pred as usize], here);
            visit(pred, pred_at, if extra == 0.0 { cost } else { cost + extra });
        });
    }

    fn estimate(&self, from: Point, goal: Point) -> f64 {
        self.base.estimate(from, goal)
    }
}
