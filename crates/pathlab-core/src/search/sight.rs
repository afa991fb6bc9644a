//! Line of sight between cell centres, the test behind Theta*, Lazy Theta* and path smoothing.
//!
//! # The rule
//!
//! Cell `(x, y)` is the closed square `[x, x+1] x [y, y+1]`; its centre is `(x + ½, y + ½)`.
//! The centre of `b` is in sight of the centre of `a` when the straight segment between the
//! two centres
//!
//! 1. never enters the inside of a wall cell (nor leaves the grid: every cell it crosses is
//!    open), and
//! 2. wherever it passes exactly through a grid corner (a point where four cells meet), the
//!    diagonal rule allows that crossing. There the segment goes from one cell straight into
//!    the diagonally opposite one and only touches the other two, the *side* cells, at the
//!    corner point, exactly like a diagonal move, and the rule decides as it does for a move:
//!    - `no-corner-cutting`: both side cells must be open, so the line may not squeeze
//!      between two walls that touch diagonally, nor even touch one wall's corner;
//!    - `never` (4-connected): the same as `no-corner-cutting`. A 4-connected search moves
//!      only straight, but an any-angle segment may still run diagonally through open
//!      corners; it may not touch a wall anywhere;
//!    - `at-most-one-blocked`: at least one side cell must be open: the line may graze the
//!      corner of one wall but not slip between two walls touching diagonally;
//!    - `always`: any corner may be passed, even between two diagonal walls; only the
//!      insides of walls block.
//!
//! Under `no-corner-cutting` and `never` the rule amounts to: the closed segment does not
//! meet any closed wall square at all. (A segment between two centres can meet a wall square
//! without entering it only at a corner point: it never runs along a cell edge, because a
//! horizontal or vertical segment between centres lies on a half-integer line.) Under
//! `always` it is: the segment does not meet the inside of any wall square.
//!
//! The rule agrees with the moves: for two diagonally adjacent open cells, line of sight
//! holds exactly when the 8-connected rules allow the diagonal move between them; for two
//! cells side by side it always holds.
//!
//! # The method
//!
//! [`line_of_sight`] walks the cells the segment crosses (a supercover traversal), deciding
//! with integers alone which cell edge or corner comes next: from the centre, the segment
//! crosses its `k`-th vertical cell edge at `t = (2k+1) / 2|dx|` and its `m`-th horizontal
//! edge at `t = (2m+1) / 2|dy|` (`t` running from 0 to 1), so comparing `(2k+1)|dy|` with
//! `(2m+1)|dx|` says which comes first, and equality means a corner. An error term keeps
//! that difference up to date with additions only. The work is proportional to
//! `|dx| + |dy|`.

use std::cmp::Ordering;

use crate::grid::{Diagonal, Grid, Point, WALL};

/// True when the centre of `to` is in sight of the centre of `from` under `rule` (see the
/// [module documentation](self) for the exact rule). Both ends must be open cells inside the
/// grid; otherwise the answer is false. A cell sees itself when it is open.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::search::sight::line_of_sight;
/// // . # .
/// // . . .
/// let mut grid = Grid::new(3, 2).unwrap();
/// grid.set(Point::new(1, 0), WALL).unwrap();
/// let rule = Diagonal::NoCornerCutting;
/// assert!(!line_of_sight(&grid, Point::new(0, 0), Point::new(2, 0), rule)); // through the wall
/// assert!(line_of_sight(&grid, Point::new(0, 1), Point::new(2, 1), rule));
/// // (0,0) -> (1,1) touches the corner of the wall at (1,0):
/// assert!(!line_of_sight(&grid, Point::new(0, 0), Point::new(1, 1), rule));
/// assert!(line_of_sight(&grid, Point::new(0, 0), Point::new(1, 1), Diagonal::AtMostOneBlocked));
/// ```
pub fn line_of_sight(grid: &Grid, from: Point, to: Point, rule: Diagonal) -> bool {
    if !grid.is_passable(from) || !grid.is_passable(to) {
        return false;
    }
    sees(grid, grid.index(from), grid.index(to), rule)
}

/// [`line_of_sight`] between two row-major indices of open cells, for the searches.
#[inline]
pub(crate) fn sees(grid: &Grid, from: usize, to: usize, rule: Diagonal) -> bool {
    let w = grid.width();
    let cells = grid.cells();
    let (x0, y0) = (from % w, from / w);
    let (x1, y1) = (to % w, to / w);
    let ax = x0.abs_diff(x1) as i64;
    let ay = y0.abs_diff(y1) as i64;
    let step_x: isize = if x1 > x0 { 1 } else { -1 };
    let step_y: isize = if y1 > y0 { w as isize } else { -(w as isize) };
    // error = (2m+1)|dx| - (2k+1)|dy| for the next vertical edge k and horizontal edge m:
    // positive when the vertical edge comes first, negative for the horizontal, zero at a
    // corner. After the last vertical edge the error stays negative (the next vertical edge
    // would lie past the end), and likewise after the last horizontal one, so the walk never
    // leaves the segment's bounding box and stops exactly on `to`.
    let mut error = ax - ay;
    let mut at = from;
    while at != to {
        match error.cmp(&0) {
            Ordering::Greater => {
                at = at.wrapping_add_signed(step_x);
                error -= 2 * ay;
            }
            Ordering::Less => {
                at = at.wrapping_add_signed(step_y);
                error += 2 * ax;
            }
            Ordering::Equal => {
                let side_x = cells[at.wrapping_add_signed(step_x)] != WALL;
                let side_y = cells[at.wrapping_add_signed(step_y)] != WALL;
                if !corner_allowed(rule, side_x, side_y) {
                    return false;
                }
                at = at.wrapping_add_signed(step_x + step_y);
                error += 2 * (ax - ay);
            }
        }
        if cells[at] == WALL {
            return false;
        }
    }
    true
}

/// Whether a segment may pass through a grid corner whose two side cells (those it only
/// touches) are open or not: the diagonal rule, with `never` read as `no-corner-cutting`.
#[inline]
pub const fn corner_allowed(rule: Diagonal, side_a_open: bool, side_b_open: bool) -> bool {
    match rule {
        Diagonal::Never | Diagonal::NoCornerCutting => side_a_open && side_b_open,
        Diagonal::AtMostOneBlocked => side_a_open || side_b_open,
        Diagonal::Always => true,
    }
}

/// Length of the straight segment between the centres of two cells (row-major indices).
///
/// Computed as the correctly rounded square root of an exact integer, so it is the same
/// both ways round and exactly 1 and `SQRT_2` for straight and diagonal neighbours.
#[inline]
pub(crate) fn distance(width: usize, a: usize, b: usize) -> f64 {
    let dx = (a % width).abs_diff(b % width) as u64;
    let dy = (a / width).abs_diff(b / width) as u64;
    ((dx * dx + dy * dy) as f64).sqrt()
}

/// Length of the straight segment between the centres of two cells.
#[inline]
pub(crate) fn point_distance(a: Point, b: Point) -> f64 {
    let dx = a.x.abs_diff(b.x) as u64;
    let dy = a.y.abs_diff(b.y) as u64;
    ((dx * dx + dy * dy) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let cells = rows.iter().flat_map(|r| r.bytes().map(|b| u8::from(b != b'#'))).collect();
        Grid::from_cells(rows[0].len(), rows.len(), cells).unwrap()
    }

    #[test]
    fn a_diagonal_between_two_touching_walls_depends_on_the_rule() {
        // . #
        // # .
        let g = grid(&[".#", "#."]);
        let (a, b) = (Point::new(0, 0), Point::new(1, 1));
        assert!(!line_of_sight(&g, a, b, Diagonal::Never));
        assert!(!line_of_sight(&g, a, b, Diagonal::NoCornerCutting));
        assert!(!line_of_sight(&g, a, b, Diagonal::AtMostOneBlocked));
        assert!(line_of_sight(&g, a, b, Diagonal::Always));
    }

    #[test]
    fn longer_lines_with_and_without_corners() {
        // . . . # .
        // . . . . .
        // # . . . .
        let g = grid(&["...#.", ".....", "#...."]);
        let ncc = Diagonal::NoCornerCutting;
        // Slope 1/2 from (0.5,0.5) to (4.5,2.5): no corner, crosses only open cells.
        assert!(line_of_sight(&g, Point::new(0, 0), Point::new(4, 2), ncc));
        // Through the corners (1,1) and (2,2), whose side cells are all open.
        assert!(line_of_sight(&g, Point::new(0, 0), Point::new(2, 2), ncc));
        // (2,0) -> (4,2) passes the corner (3,1), whose side cells are the wall (3,0) and
        // the open (2,1): it touches the wall's corner.
        let (a, b) = (Point::new(2, 0), Point::new(4, 2));
        assert!(!line_of_sight(&g, a, b, ncc));
        assert!(!line_of_sight(&g, a, b, Diagonal::Never));
        assert!(line_of_sight(&g, a, b, Diagonal::AtMostOneBlocked));
        assert!(line_of_sight(&g, a, b, Diagonal::Always));
        // Along the top row through the wall (3,0): blocked under every rule, both ways.
        for &rule in Diagonal::ALL {
            assert!(!line_of_sight(&g, Point::new(0, 0), Point::new(4, 0), rule));
            assert!(!line_of_sight(&g, Point::new(4, 0), Point::new(0, 0), rule));
        }
        // A wall end: never in sight.
        assert!(!line_of_sight(&g, Point::new(1, 2), Point::new(3, 0), Diagonal::Always));
    }

    #[test]
    fn distances_are_exact_for_moves() {
        assert_eq!(distance(10, 0, 1), 1.0);
        assert_eq!(distance(10, 0, 11), std::f64::consts::SQRT_2);
        assert_eq!(distance(10, 0, 23), 13f64.sqrt());
        assert_eq!(point_distance(Point::new(3, 4), Point::new(0, 0)), 5.0);
    }
}
