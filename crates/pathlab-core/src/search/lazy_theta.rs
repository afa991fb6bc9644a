//! Lazy Theta*: Theta* that puts off the line-of-sight test until a node is taken off the
//! open list.
//!
//! Opening a neighbour `n` of the expanded node `s` assumes that `parent(s)` sees `n`: the
//! candidate is always `g(parent(s)) + |parent(s) n|` with `parent(s)` as parent (the start,
//! having no parent, offers itself). When a node is taken off the open list, one test checks
//! the assumption. If its parent does not see it, the node takes instead the best of its
//! closed neighbours `q` (lowest `g(q) + |q s|`, the first in neighbour order on a tie), each
//! of which sees it because one legal move joins them. That is one test per node taken off
//! the list instead of one per neighbour, at the price of a few more expansions.
//!
//! # One change from the published algorithm
//!
//! The published Lazy Theta* expands the corrected node at once. Its cost has grown, though,
//! and may now be above that of other open nodes; expanding it anyway can end with a path
//! longer than A*'s grid path. (On the 3x11 grid below, from (1,0) to (0,7) under `always`,
//! it returns 8.670 where A*'s grid path is 8.243: the goal is taken off the list with the
//! assumed cost 7.842, found out of sight of its assumed parent, and accepted with its
//! fallback cost.)
//!
//! ```text
//! row  0    1    2    3    4    5    6    7    8    9    10
//!      #..  #..  ##.  #..  ...  .#.  #..  .##  ##.  #.#  ##.
//! ```
//!
//! Here a corrected node goes back on the open list with its new cost, and the same step
//! takes the next node off the list (so a step is still one expansion). A node is therefore
//! expanded only with a checked cost and when nothing cheaper is open, which is what gives
//! Theta* its guarantee (see [`theta`](super::theta)): with weight 1, the path is never longer
//! than the optimal grid path under the same diagonal rule.
//!
//! The goal is checked the same way before the search ends. Everything else (lengths,
//! heuristic, integer costs, terrain, tie order, buffers) is as for [Theta*](super::theta),
//! and it runs in the same stepper, [`ThetaStar`].
//!
//! The overlay of a step shows the test made for each node taken off the list (`sight` or
//! `blocked`, from the parent to the node), the fallback parent after a failed test
//! (`rewire`, from the node to its new parent), and any open neighbour whose parent changed
//! (`rewire`). The recorder hears of a corrected node as re-opened with its higher cost.

use super::sight::{distance, sees};
use super::theta::ThetaStar;
use super::{Algorithm, Path, Recorder, SearchConfig, SearchError, Stepper, NO_PARENT};
use crate::grid::{Diagonal, Grid, Point};

const CLOSED: u8 = super::CellState::Closed as u8;

/// Finds an any-angle path with Lazy Theta* (weight 1, real lengths) and returns its vertices
/// and length, or `None` when the goal is unreachable.
///
/// - `grid`: the cells (walls and ground only; terrain is refused);
/// - `start`, `goal`: the ends, both open cells inside the grid;
/// - `diagonal`: which neighbours are expanded and which corners a line of sight may pass.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::search::lazy_theta::lazy_theta;
/// // . . . .
/// // . # # .
/// // S . . G   the goal is in sight of the start along the bottom row
/// let mut grid = Grid::new(4, 3).unwrap();
/// grid.set(Point::new(1, 1), WALL).unwrap();
/// grid.set(Point::new(2, 1), WALL).unwrap();
/// let path = lazy_theta(&grid, Point::new(0, 2), Point::new(3, 2), Diagonal::NoCornerCutting)
///     .unwrap()
///     .unwrap();
/// assert_eq!(path.points, vec![Point::new(0, 2), Point::new(3, 2)]);
/// assert_eq!(path.cost, 3.0);
/// ```
pub fn lazy_theta(grid: &Grid, start: Point, goal: Point, diagonal: Diagonal) -> Result<Option<Path>, SearchError> {
    let config = SearchConfig::new(Algorithm::LazyTheta).diagonal(diagonal);
    let mut search = ThetaStar::new(grid.clone(), start, goal, config)?;
    search.run();
    Ok(Stepper::path(&search))
}

impl ThetaStar {
    /// Checks that the parent of `s`, just taken off the open list, sees it; if not, gives
    /// `s` its best closed neighbour as parent and returns true (the caller puts it back on
    /// the open list), telling `recorder` of the new parent and cost.
    pub(super) fn set_vertex<R: Recorder>(&mut self, s: usize, recorder: &mut R) -> bool {
        let (grid, state, g, parent, rule) = self.parts();
        let p = parent[s];
        if p == NO_PARENT {
            return false;
        }
        let seen = sees(grid, p as usize, s, rule);
        let best = if seen { None } else { best_closed_neighbour(grid, state, g, s, rule) };
        let old_g = g[s];
        self.note_test(p as usize, s, seen);
        let Some((q, cost)) = best else {
            return false;
        };
        self.set_parent(s, q, cost);
        self.note_rewire(s, q);
        let scale = self.scale();
        recorder.opened(s as u32, q as u32, Some(old_g * scale), cost * scale);
        true
    }

    /// Lazy Theta*'s expansion of `s`: every open or unseen neighbour is offered
    /// `parent(s)` (or `s` itself, for the start), sight unchecked.
    pub(super) fn expand_lazy<R: Recorder>(&mut self, s: usize, recorder: &mut R) {
        let (grid, state, g, parent, rule) = self.parts();
        let w = grid.width();
        let via = if parent[s] == NO_PARENT { s } else { parent[s] as usize };
        let mut candidates = [(0usize, 0.0f64); 8];
        let mut count = 0;
        grid.for_each_neighbour_of(grid.point_at(s), rule, |nb, _, _| {
            if state[nb] != CLOSED {
                candidates[count] = (nb, g[via] + distance(w, via, nb));
                count += 1;
            }
        });
        for &(nb, new_g) in &candidates[..count] {
            self.relax(nb, via, new_g, recorder);
        }
    }
}

/// The closed neighbour `q` of `s` with the lowest `g(q) + |q s|`, the first in neighbour
/// order on a tie.
fn best_closed_neighbour(grid: &Grid, state: &[u8], g: &[f64], s: usize, rule: Diagonal) -> Option<(usize, f64)> {
    let w = grid.width();
    let mut best: Option<(usize, f64)> = None;
    grid.for_each_neighbour_of(grid.point_at(s), rule, |q, _, _| {
        if state[q] == CLOSED {
            let cost = g[q] + distance(w, q, s);
            if best.is_none_or(|(_, b)| cost < b) {
                best = Some((q, cost));
            }
        }
    });
    debug_assert!(best.is_some(), "a node on the open list has a closed neighbour");
    best
}
