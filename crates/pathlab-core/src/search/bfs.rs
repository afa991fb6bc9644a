//! Breadth-first search: expand nodes in the order they were first reached.
//!
//! A node is opened once, by the first node to reach it, and never improved. On a 4-connected
//! grid without terrain that gives a path of fewest moves, which is then a cheapest one; with
//! diagonals or terrain it need not be.

use super::{find, Algorithm, Path, Recorder, Search, SearchConfig, SearchError, StepEvent};
use crate::grid::{Diagonal, Grid, Point};
use crate::space::Space;

/// One step of breadth-first search: take the node at the front of the queue; stop if it is
/// the goal; else put every neighbour not yet seen at the back, with this node as parent. A
/// node already on the queue keeps its first parent.
#[inline]
pub(super) fn step<S: Space, R: Recorder>(search: &mut Search<S>, recorder: &mut R) -> StepEvent<S::At> {
    let (node, at) = match search.take_next(recorder) {
        Ok(next) => next,
        Err(event) => return event,
    };
    search.expand_by(node, at, recorder, false, |cost| cost, |open, _, _| !open);
    StepEvent::Expanded(at)
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
