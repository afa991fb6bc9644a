//! Breadth-first search: expand nodes in the order they were first reached.
//!
//! A node is opened once, by the first node to reach it, and never improved. On a 4-connected
//! grid without terrain that gives a path of fewest moves, which is then a cheapest one; with
//! diagonals or terrain it need not be.

use super::{find, Algorithm, Path, SearchConfig, SearchError};
use crate::grid::{Diagonal, Grid, Point};

/// Whether BFS takes a neighbour it reached: only when it is not already open.
#[inline]
pub(crate) fn accepts(already_open: bool) -> bool {
    !already_open
}

/// Finds a path of fewest moves with breadth-first search, or `None` when there is none.
///
/// - `grid`: the cells; `start`, `goal`: the ends; `diagonal`: which diagonal moves count.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::search::bfs::bfs;
/// let grid = Grid::new(3, 3).unwrap();
/// let path = bfs(&grid, Point::new(0, 0), Point::new(2, 2), Diagonal::Never).unwrap().unwrap();
/// assert_eq!(path.points.len(), 5);
/// ```
pub fn bfs(grid: &Grid, start: Point, goal: Point, diagonal: Diagonal) -> Result<Option<Path>, SearchError> {
    find(grid, start, goal, SearchConfig::new(Algorithm::Bfs).diagonal(diagonal))
}
