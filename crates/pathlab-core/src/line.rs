//! The cells a brush stroke covers: a straight line between two cells, one cell at a time.
//!
//! Every page that paints a grid by dragging (the path-finding grid, the boid world, the path
//! requests page) turns each drag segment into cells here, so a stroke covers the same cells
//! wherever it is drawn.

use crate::grid::{Grid, Point};

/// The most cells one line gives: enough for any grid the pages allow, few enough that a
/// wild pair of coordinates from JavaScript cannot stall a call.
pub const MAX_LINE_CELLS: usize = 8192;

/// The cells of the straight line from (x0, y0) to (x1, y1), both ends included, each a
/// king's move from the last (Bresenham's line); at most [`MAX_LINE_CELLS`] of them.
///
/// Coordinates may lie outside any grid (the caller keeps the cells it has): the arithmetic
/// is done in `i64`, so even the ends of the `i32` range do not overflow.
///
/// ```
/// use pathlab_core::line::cells_on_line;
/// let cells: Vec<_> = cells_on_line(0, 0, 4, 2).collect();
/// assert_eq!(cells, [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2)]);
/// assert_eq!(cells_on_line(3, 3, 3, 3).count(), 1);
/// ```
pub fn cells_on_line(x0: i32, y0: i32, x1: i32, y1: i32) -> impl Iterator<Item = (i32, i32)> {
    let (x0, y0, x1, y1) = (i64::from(x0), i64::from(y0), i64::from(x1), i64::from(y1));
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    let (mut x, mut y) = (x0, y0);
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        // x and y stay between the ends, so they fit back in an i32.
        let here = (x as i32, y as i32);
        if x == x1 && y == y1 {
            done = true;
        } else {
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
        Some(here)
    })
    .take(MAX_LINE_CELLS)
}

/// The cells of [`cells_on_line`] that lie on `grid`, in order: one drag segment of a brush.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::line::grid_cells_on_line;
/// let grid = Grid::new(4, 4).unwrap();
/// assert_eq!(grid_cells_on_line(&grid, (-2, 1), (1, 1)), [Point::new(0, 1), Point::new(1, 1)]);
/// ```
pub fn grid_cells_on_line(grid: &Grid, from: (i32, i32), to: (i32, i32)) -> Vec<Point> {
    cells_on_line(from.0, from.1, to.0, to.1).filter_map(|(x, y)| grid.point(i64::from(x), i64::from(y)).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_run_from_end_to_end_in_king_moves() {
        for (x0, y0, x1, y1) in [(0, 0, 5, 2), (2, 7, -3, 4), (0, 0, 0, -6), (-4, 1, 3, 1), (1, 1, -2, -9)] {
            let cells: Vec<_> = cells_on_line(x0, y0, x1, y1).collect();
            assert_eq!(cells.first(), Some(&(x0, y0)));
            assert_eq!(cells.last(), Some(&(x1, y1)));
            let longer = (x1 - x0).abs().max((y1 - y0).abs());
            assert_eq!(cells.len() as i32, longer + 1, "one cell per step along the longer axis");
            for w in cells.windows(2) {
                assert!((w[0].0 - w[1].0).abs() <= 1 && (w[0].1 - w[1].1).abs() <= 1);
            }
        }
    }

    #[test]
    fn a_line_is_the_same_cells_drawn_either_way_when_no_step_ties() {
        // (0,0)-(6,2): the error never sits exactly on a tie, so both directions agree.
        let mut back: Vec<_> = cells_on_line(6, 2, 0, 0).collect();
        back.reverse();
        assert_eq!(cells_on_line(0, 0, 6, 2).collect::<Vec<_>>(), back);
    }

    #[test]
    fn huge_lines_stop_at_the_cap() {
        assert_eq!(cells_on_line(i32::MIN, 0, i32::MAX, 0).count(), MAX_LINE_CELLS);
        assert_eq!(cells_on_line(i32::MAX, i32::MIN, i32::MIN, i32::MAX).count(), MAX_LINE_CELLS);
    }
}
