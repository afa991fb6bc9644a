//! Depth-first search: expand the node pushed last.
//!
//! A neighbour that is not yet closed is pushed again each time it is reached, taking the
//! newest parent, so the search always goes deeper from the node it just expanded. It finds
//! a path if there is one, usually a long and winding one.

use super::{find, Algorithm, Path, SearchConfig, SearchError};
use crate::grid::{Diagonal, Grid, Point};

/// Whether DFS takes a neighbour it reached: always, as long as it is not closed.
#[inline]
pub(crate) fn accepts(already_open: bool) -> bool {
    let _ = already_open;
    true
}

/// Finds some path with depth-first search, or `None` when there is none.
///
/// - `grid`: the cells; `start`, `goal`: the ends; `diagonal`: which diagonal moves count.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::search::dfs::dfs;
/// let grid = Grid::new(4, 4).unwrap();
/// let path = dfs(&grid, Point::new(0, 0), Point::new(3, 3), Diagonal::Never).unwrap().unwrap();
/// assert!(path.cost >= 6.0);
/// ```
pub fn dfs(grid: &Grid, start: Point, goal: Point, diagonal: Diagonal) -> Result<Option<Path>, SearchError> {
    find(grid, start, goal, SearchConfig::new(Algorithm::Dfs).diagonal(diagonal))
}
