//! Depth-first search: expand the node pushed last.
//!
//! A neighbour that is not yet closed is pushed again each time it is reached, taking the
//! newest parent, so the search always goes deeper from the node it just expanded. It finds
//! a path if there is one, usually a long and winding one.

use super::{find, Algorithm, Path, Recorder, Search, SearchConfig, SearchError, StepEvent};
use crate::grid::{Diagonal, Grid, Point};
use crate::space::Space;

/// One step of depth-first search: take the node on top of the stack; stop if it is the
/// goal; else push every neighbour that is not closed, with this node as its newest parent,
/// even when it is on the stack already (the copy deeper down is skipped when reached).
#[inline]
pub(super) fn step<S: Space, R: Recorder>(search: &mut Search<S>, recorder: &mut R) -> StepEvent<S::At> {
    let (node, at) = match search.take_next(recorder) {
        Ok(next) => next,
        Err(event) => return event,
    };
    search.expand_by(node, at, recorder, false, |cost| cost, |_, _, _| true);
    StepEvent::Expanded(at)
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
