//! A*: expand the open node with the lowest f = g + w·h.
//!
//! With weight 1 and a heuristic that never overestimates (see
//! [`Heuristic::is_admissible`](crate::heuristic::Heuristic::is_admissible)) the first path to
//! reach the goal is a cheapest one. A weight above 1 trades that guarantee for fewer
//! expansions: the cost found is at most `weight` times the cheapest.
//!
//! Ties on f go to the higher g (the node that has come further and so is nearer the goal),
//! then to the node opened first.
//!
//! `step` is the loop. Dijkstra ([`dijkstra`](super::dijkstra)) and greedy best-first
//! ([`greedy`](super::greedy)) run the same loop: only the order of the open list differs.

use super::{find, Algorithm, Path, Recorder, Search, SearchConfig, SearchError, StepEvent};
use crate::grid::{Diagonal, Grid, Point};
use crate::heuristic::Heuristic;
use crate::space::Space;

/// One step of A* (and of Dijkstra and greedy best-first): take the open node first in the
/// open list's order; stop if it is the goal; else open every neighbour not yet seen, and
/// improve every open one that the new way reaches more cheaply. A closed node is never
/// opened again, unless [`SearchConfig::reopen`] is set: then a closed node that the new way
/// reaches more cheaply goes back on the open list, as in the book's pseudocode. Only an
/// inconsistent heuristic lets that happen; with an admissible one it keeps A* optimal.
#[inline]
pub(super) fn step<S: Space, R: Recorder>(search: &mut Search<S>, recorder: &mut R) -> StepEvent<S::At> {
    let (node, at) = match search.take_next(recorder) {
        Ok(next) => next,
        Err(event) => return event,
    };
    // Re-opening (the book's pseudocode) is A*'s alone; Dijkstra never finds a cheaper way to
    // a closed node, and greedy best-first does not weigh g.
    let reopen = search.config().reopen && search.config().algorithm == Algorithm::AStar;
    search.expand_by(node, at, recorder, reopen, |cost| cost, |open, g, new_g| !open || new_g < g);
    StepEvent::Expanded(at)
}

/// The open-list order of A*: `(f, -g)`, smallest first.
#[inline]
pub(crate) fn priority(g: f64, h: f64, weight: f64) -> (f64, f64) {
    (g + weight * h, -g)
}

/// Finds a path with A* (weight 1) and returns it, or `None` when the goal is unreachable.
///
/// - `grid`: the cells; `start`, `goal`: the ends, both open cells inside the grid;
/// - `heuristic`: the estimate of the remaining cost; `diagonal`: which diagonal moves count.
///
/// Costs are real (straight 1, diagonal sqrt(2)). For other settings build a
/// [`Search`] with a [`SearchConfig`].
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::astar::astar;
/// let mut grid = Grid::new(3, 3).unwrap();
/// grid.set(Point::new(1, 1), WALL).unwrap();
/// let path = astar(&grid, Point::new(0, 1), Point::new(2, 1), Heuristic::Manhattan, Diagonal::Never)
///     .unwrap()
///     .unwrap();
/// assert_eq!(path.cost, 4.0);
/// assert_eq!(path.points.len(), 5);
/// ```
pub fn astar(
    grid: &Grid,
    start: Point,
    goal: Point,
    heuristic: Heuristic,
    diagonal: Diagonal,
) -> Result<Option<Path>, SearchError> {
    let config = SearchConfig::new(Algorithm::AStar).heuristic(heuristic).diagonal(diagonal);
    find(grid, start, goal, config)
}
