//! Dijkstra's algorithm: expand the open node with the lowest cost so far, g.
//!
//! It spreads out evenly by cost in every direction and always finds a cheapest path. It is
//! A* with a zero heuristic. Ties on g go to the node opened first.

use super::{find, Algorithm, Path, SearchConfig, SearchError};
use crate::grid::{Diagonal, Grid, Point};

/// The open-list order of Dijkstra: `g`, smallest first.
#[inline]
pub(crate) fn priority(g: f64) -> (f64, f64) {
    (g, 0.0)
}

/// Finds a cheapest path with Dijkstra's algorithm, or `None` when there is none.
///
/// - `grid`: the cells; `start`, `goal`: the ends; `diagonal`: which diagonal moves count.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::search::dijkstra::dijkstra;
/// let grid = Grid::new(3, 3).unwrap();
/// let path = dijkstra(&grid, Point::new(0, 0), Point::new(2, 2), Diagonal::Always).unwrap().unwrap();
/// // Two diagonal moves; a diagonal costs sqrt(2) to 29 binary places (`grid::SQRT_2_FIXED`).
/// assert!((path.cost - 2.0 * std::f64::consts::SQRT_2).abs() < 1e-10);
/// ```
pub fn dijkstra(grid: &Grid, start: Point, goal: Point, diagonal: Diagonal) -> Result<Option<Path>, SearchError> {
    find(grid, start, goal, SearchConfig::new(Algorithm::Dijkstra).diagonal(diagonal))
}
