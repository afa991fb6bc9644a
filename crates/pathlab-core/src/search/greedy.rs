//! Greedy best-first search: expand the open node that looks closest to the goal (lowest h).
//!
//! It ignores the cost already paid, so it often expands few nodes but may return a path
//! that is far from the cheapest. Ties on h go to the node opened first.

use super::{find, Algorithm, Path, SearchConfig, SearchError};
use crate::grid::{Diagonal, Grid, Point};
use crate::heuristic::Heuristic;

/// The open-list order of greedy best-first: `h`, smallest first.
#[inline]
pub(crate) fn priority(h: f64) -> (f64, f64) {
    (h, 0.0)
}

/// Finds some path with greedy best-first search, or `None` when there is none.
///
/// - `grid`: the cells; `start`, `goal`: the ends; `heuristic`: the estimate it follows;
///   `diagonal`: which diagonal moves count.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::greedy::greedy;
/// let grid = Grid::new(5, 1).unwrap();
/// let path = greedy(&grid, Point::new(0, 0), Point::new(4, 0), Heuristic::Manhattan, Diagonal::Never)
///     .unwrap()
///     .unwrap();
/// assert_eq!(path.cost, 4.0);
/// ```
pub fn greedy(
    grid: &Grid,
    start: Point,
    goal: Point,
    heuristic: Heuristic,
    diagonal: Diagonal,
) -> Result<Option<Path>, SearchError> {
    find(grid, start, goal, SearchConfig::new(Algorithm::Greedy).heuristic(heuristic).diagonal(diagonal))
}
