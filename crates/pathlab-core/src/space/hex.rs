//! Hex tiles: six neighbours per cell.
//!
//! The cells are stored as a rectangle of bytes like a square [`Grid`] (0 a wall, 1 ground,
//! more a terrain cost), one hex per byte in "offset" rows or columns: with pointy tops every
//! odd row is pushed half a hex to the right; with flat tops every odd column is pushed half
//! a hex down. Moves and distances are worked out in axial coordinates (q, r), where the six
//! neighbours are always (+1,0), (+1,-1), (0,-1), (-1,0), (-1,+1), (0,+1), visited in that
//! order. Entering a cell costs its value (1 on ground), so no move costs less than 1 and the
//! hex distance, (|dq| + |dr| + |dq + dr|) / 2, never overestimates.
//!
//! ```
//! use pathlab_core::grid::{Grid, Point};
//! use pathlab_core::space::{HexGrid, HexLayout, Space};
//! let hex = HexGrid::new(Grid::new(5, 5).unwrap(), HexLayout::PointyTop);
//! let mut n = 0;
//! hex.for_each_neighbour(hex.node(Point::new(2, 2)), hex.at(hex.node(Point::new(2, 2))), |_, _, _| n += 1);
//! assert_eq!(n, 6);
//! assert_eq!(hex.distance(Point::new(0, 0), Point::new(4, 4)), 6);
//! ```

use super::Space;
use crate::grid::{named_enum, Grid, Point, GROUND, WALL};
use crate::heuristic::Heuristic;

named_enum! {
    /// Which way the hexes point, and so which lines of cells are pushed half a hex.
    HexLayout, "hex layout" {
        /// Pointy tops; rows are straight, odd rows pushed half a hex right.
        PointyTop = 0, "pointy";
        /// Flat tops; columns are straight, odd columns pushed half a hex down.
        FlatTop = 1, "flat";
    }
}

/// The six axial directions (dq, dr), in the order neighbours are visited.
pub const DIRECTIONS: [(i64, i64); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// A grid of hexagonal cells. See the [module](self).
#[derive(Clone, Debug, PartialEq)]
pub struct HexGrid {
    /// The cells, one byte per hex, in offset rows (pointy) or columns (flat).
    pub grid: Grid,
    /// How the hexes are laid out.
    pub layout: HexLayout,
    /// `Zero` makes the estimate 0 (Dijkstra); any other estimate is the hex distance.
    pub heuristic: Heuristic,
}

impl HexGrid {
    /// Hex cells with the hex distance as estimate.
    pub const fn new(grid: Grid, layout: HexLayout) -> Self {
        Self { grid, layout, heuristic: Heuristic::Manhattan }
    }

    /// The node of a stored cell (column, row), which must be inside the grid.
    pub fn node(&self, p: Point) -> u32 {
        self.grid.index(p) as u32
    }

    /// The axial coordinates (q, r) of a stored cell.
    pub fn axial(&self, p: Point) -> (i64, i64) {
        let (x, y) = (p.x as i64, p.y as i64);
        match self.layout {
            HexLayout::PointyTop => (x - (y - (y & 1)) / 2, y),
            HexLayout::FlatTop => (x, y - (x - (x & 1)) / 2),
        }
    }

    /// The stored cell (column, row) at axial (q, r), if inside the grid.
    pub fn cell(&self, q: i64, r: i64) -> Option<Point> {
        let (x, y) = match self.layout {
            HexLayout::PointyTop => (q + (r - (r & 1)) / 2, r),
            HexLayout::FlatTop => (q, r + (q - (q & 1)) / 2),
        };
        self.grid.contains(x, y).then(|| Point::new(x as usize, y as usize))
    }

    /// The number of moves between two cells on open ground.
    pub fn distance(&self, a: Point, b: Point) -> u64 {
        let (aq, ar) = self.axial(a);
        let (bq, br) = self.axial(b);
        hex_distance(aq - bq, ar - br)
    }
}

/// The hex distance of an axial difference.
#[inline]
fn hex_distance(dq: i64, dr: i64) -> u64 {
    (dq.unsigned_abs() + dr.unsigned_abs() + (dq + dr).unsigned_abs()) / 2
}

impl Space for HexGrid {
    /// Axial (q, r).
    type At = (i64, i64);

    fn node_count(&self) -> usize {
        self.grid.len()
    }

    fn at(&self, node: u32) -> (i64, i64) {
        self.axial(self.grid.point_at(node as usize))
    }

    fn is_open(&self, node: u32) -> bool {
        self.grid.cells()[node as usize] != WALL
    }

    #[inline]
    fn for_each_neighbour(&self, _node: u32, (q, r): (i64, i64), mut visit: impl FnMut(u32, (i64, i64), f64)) {
        let cells = self.grid.cells();
        for (dq, dr) in DIRECTIONS {
            let (nq, nr) = (q + dq, r + dr);
            if let Some(p) = self.cell(nq, nr) {
                let i = self.grid.index(p);
                let terrain = cells[i];
                if terrain != WALL {
                    let cost = if terrain == GROUND { 1.0 } else { f64::from(terrain) };
                    visit(i as u32, (nq, nr), cost);
                }
            }
        }
    }

    /// Every edge into `node` costs `node`'s terrain.
    fn for_each_predecessor(&self, node: u32, (q, r): (i64, i64), mut visit: impl FnMut(u32, (i64, i64), f64)) {
        let cells = self.grid.cells();
        let terrain = cells[node as usize];
        if terrain == WALL {
            return;
        }
        let cost = if terrain == GROUND { 1.0 } else { f64::from(terrain) };
        for (dq, dr) in DIRECTIONS {
            let (pq, pr) = (q + dq, r + dr);
            if let Some(p) = self.cell(pq, pr) {
                let i = self.grid.index(p);
                if cells[i] != WALL {
                    visit(i as u32, (pq, pr), cost);
                }
            }
        }
    }

    #[inline]
    fn estimate(&self, (aq, ar): (i64, i64), (bq, br): (i64, i64)) -> f64 {
        if self.heuristic == Heuristic::Zero {
            0.0
        } else {
            hex_distance(aq - bq, ar - br) as f64
        }
    }

    /// Hex centres for hexes of circumradius 1.
    fn position(&self, node: u32) -> [f64; 2] {
        let p = self.grid.point_at(node as usize);
        let (x, y) = (p.x as f64, p.y as f64);
        let s3 = 3f64.sqrt();
        match self.layout {
            HexLayout::PointyTop => [s3 * (x + 0.5 * (p.y & 1) as f64), 1.5 * y],
            HexLayout::FlatTop => [1.5 * x, s3 * (y + 0.5 * (p.x & 1) as f64)],
        }
    }

    fn label(&self, node: u32) -> String {
        self.grid.point_at(node as usize).to_string()
    }
}
