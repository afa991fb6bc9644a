//! Independent truth for the any-angle tests: two line-of-sight checks that share no code
//! with `pathlab_core::search::sight` (nor its traversal idea), random wall grids, and path
//! measurements. A test takes it in with `mod any_angle_support; mod cases; mod oracle;`.
//!
//! Geometry: cell (x, y) is the square [x, x+1] x [y, y+1] and its centre (x+½, y+½). All
//! arithmetic below is exact, in doubled coordinates (centres odd, cell edges even).

#![allow(dead_code)]

use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use proptest::prelude::*;
use proptest::sample::Index;

use super::cases::grid_with_ends;
pub use super::cases::Case;
use super::oracle::open;

/// Whether a segment may pass a corner whose two side cells (touched only at the corner) are
/// open or not, written out from the rule's definition.
fn corner_ok(rule: Diagonal, a: bool, b: bool) -> bool {
    match rule {
        Diagonal::Never | Diagonal::NoCornerCutting => a && b,
        Diagonal::AtMostOneBlocked => a || b,
        Diagonal::Always => true,
    }
}

/// Line of sight by sampling: the points `A + (i/N)(B - A)` for `i = 0..=N` with
/// `N = 8 max(1,|dx|) max(1,|dy|)`, each located exactly. Every edge or corner crossing of
/// the segment falls on a sample (their parameters are multiples of `1/(4|dx||dy|)`), and
/// between two consecutive crossings lies at least one sample, so every cell whose inside the
/// segment enters holds a sample strictly inside it.
///
/// - a sample inside a cell: the cell must be open;
/// - a sample on an edge (not a corner): both cells sharing the edge must be open;
/// - a sample on a corner: the two cells the segment only touches there (for a direction with
///   dx, dy of the same sign, the cells up-right and down-left of the point; else up-left and
///   down-right) must satisfy the rule.
pub fn sampled_sight(grid: &Grid, a: Point, b: Point, rule: Diagonal) -> bool {
    if !open(grid, a.x as i64, a.y as i64) || !open(grid, b.x as i64, b.y as i64) {
        return false;
    }
    let (ax, ay) = (2 * a.x as i64 + 1, 2 * a.y as i64 + 1);
    let (dx, dy) = (2 * (b.x as i64 - a.x as i64), 2 * (b.y as i64 - a.y as i64));
    let n = 8 * (dx.abs() / 2).max(1) * (dy.abs() / 2).max(1);
    let cell = 2 * n; // one cell, in sample units of doubled coordinates
    for i in 0..=n {
        // The sample's doubled coordinates times n.
        let x = n * ax + i * dx;
        let y = n * ay + i * dy;
        let on_x = x.rem_euclid(cell) == 0;
        let on_y = y.rem_euclid(cell) == 0;
        let (cx, cy) = (x.div_euclid(cell), y.div_euclid(cell));
        let ok = match (on_x, on_y) {
            (false, false) => open(grid, cx, cy),
            (true, false) => open(grid, cx - 1, cy) && open(grid, cx, cy),
            (false, true) => open(grid, cx, cy - 1) && open(grid, cx, cy),
            (true, true) => {
                // The corner point (cx, cy); the four cells around it.
                let (s1, s2) =
                    if (dx > 0) == (dy > 0) { ((cx, cy - 1), (cx - 1, cy)) } else { ((cx - 1, cy - 1), (cx, cy)) };
                corner_ok(rule, open(grid, s1.0, s1.1), open(grid, s2.0, s2.1))
            }
        };
        if !ok {
            return false;
        }
    }
    true
}

/// A fraction `num / den` with `den > 0`.
#[derive(Clone, Copy)]
struct Frac(i128, i128);

impl Frac {
    fn new(num: i64, den: i64) -> Self {
        if den < 0 {
            Self(-i128::from(num), -i128::from(den))
        } else {
            Self(i128::from(num), i128::from(den))
        }
    }
    fn lt(self, o: Self) -> bool {
        self.0 * o.1 < o.0 * self.1
    }
    fn le(self, o: Self) -> bool {
        self.0 * o.1 <= o.0 * self.1
    }
    fn max(self, o: Self) -> Self {
        if self.lt(o) {
            o
        } else {
            self
        }
    }
    fn min(self, o: Self) -> Self {
        if self.lt(o) {
            self
        } else {
            o
        }
    }
}

/// How the segment between the centres of `a` and `b` meets the wall square of cell
/// `(cx, cy)`, by clipping (Liang-Barsky) in exact fractions: `(meets the closed square,
/// enters its inside)`.
fn meets_square(a: Point, b: Point, cx: i64, cy: i64) -> (bool, bool) {
    let (ax, ay) = (2 * a.x as i64 + 1, 2 * a.y as i64 + 1);
    let (dx, dy) = (2 * (b.x as i64 - a.x as i64), 2 * (b.y as i64 - a.y as i64));
    // Parameter range (lo, hi) where the coordinate lies between the square's sides.
    let range = |p: i64, d: i64, lo_side: i64| -> Option<(Frac, Frac)> {
        if d == 0 {
            // p is odd, the sides even: strictly inside or strictly outside.
            (lo_side < p && p < lo_side + 2).then(|| (Frac::new(-1, 1), Frac::new(2, 1)))
        } else {
            let t0 = Frac::new(lo_side - p, d);
            let t1 = Frac::new(lo_side + 2 - p, d);
            Some(if t0.lt(t1) { (t0, t1) } else { (t1, t0) })
        }
    };
    let (Some((lx, ux)), Some((ly, uy))) = (range(ax, dx, 2 * cx), range(ay, dy, 2 * cy)) else {
        return (false, false);
    };
    let (zero, one) = (Frac::new(0, 1), Frac::new(1, 1));
    let lo = lx.max(ly);
    let hi = ux.min(uy);
    let closed = lo.max(zero).le(hi.min(one));
    let inside = lo.lt(hi) && lo.lt(one) && zero.lt(hi);
    (closed, inside)
}

/// Line of sight by testing the segment against every wall square of the grid (and the
/// squares just outside it, which count as walls), for the rules this can decide alone:
/// under `never` and `no-corner-cutting` no closed wall square may be met, under `always` no
/// wall's inside may be entered. `None` for `at-most-one-blocked`, whose corner rule needs
/// two squares at once.
pub fn square_sight(grid: &Grid, a: Point, b: Point, rule: Diagonal) -> Option<bool> {
    if rule == Diagonal::AtMostOneBlocked {
        return None;
    }
    if !open(grid, a.x as i64, a.y as i64) || !open(grid, b.x as i64, b.y as i64) {
        return Some(false);
    }
    let touch_blocks = rule != Diagonal::Always;
    for cy in -1..=grid.height() as i64 {
        for cx in -1..=grid.width() as i64 {
            if open(grid, cx, cy) {
                continue;
            }
            let (closed, inside) = meets_square(a, b, cx, cy);
            if inside || (touch_blocks && closed) {
                return Some(false);
            }
        }
    }
    Some(true)
}

/// Straight-line distance between two cell centres.
pub fn dist(a: Point, b: Point) -> f64 {
    let dx = a.x as f64 - b.x as f64;
    let dy = a.y as f64 - b.y as f64;
    (dx * dx + dy * dy).sqrt()
}

/// The length of a polyline through cell centres.
pub fn length(points: &[Point]) -> f64 {
    points.windows(2).map(|s| dist(s[0], s[1])).sum()
}

/// Checks an any-angle path: from start to goal, no repeated vertex, every segment in sight
/// by [`sampled_sight`] (and [`square_sight`] where it decides). Returns its length.
pub fn check_any_angle_path(
    grid: &Grid,
    rule: Diagonal,
    start: Point,
    goal: Point,
    points: &[Point],
) -> Result<f64, String> {
    if points.first() != Some(&start) {
        return Err(format!("path starts at {:?}, not {start}", points.first()));
    }
    if points.last() != Some(&goal) {
        return Err(format!("path ends at {:?}, not {goal}", points.last()));
    }
    for s in points.windows(2) {
        if s[0] == s[1] {
            return Err(format!("vertex {} repeated", s[0]));
        }
        if !sampled_sight(grid, s[0], s[1], rule) {
            return Err(format!("segment {} -> {} is not a line of sight under {rule}", s[0], s[1]));
        }
        if square_sight(grid, s[0], s[1], rule) == Some(false) {
            return Err(format!("segment {} -> {} meets a wall square under {rule}", s[0], s[1]));
        }
    }
    Ok(length(points))
}

/// Grids up to `max` x `max`, 0 to 45% walls, ends on random open cells, any rule, real costs
/// (the any-angle algorithms' only model).
pub fn case(max: usize) -> impl Strategy<Value = Case> {
    (1usize..=max, 1usize..=max, 0u32..=45)
        .prop_flat_map(|(w, h, density)| {
            (
                Just((w, h, density)),
                proptest::collection::vec(0u32..100, w * h),
                any::<Index>(),
                any::<Index>(),
                proptest::sample::select(Diagonal::ALL.to_vec()),
            )
        })
        .prop_map(|((w, h, density), rolls, s, g, rule)| {
            let cells: Vec<u8> = rolls.iter().map(|&r| u8::from(r >= density)).collect();
            let (grid, start, goal) = grid_with_ends(w, h, cells, s, g);
            Case { grid, start, goal, rule, costs: Costs::Real }
        })
}

/// Draws a grid: `.` ground, `#` wall.
pub fn draw(rows: &[&str]) -> Grid {
    let cells = rows.iter().flat_map(|r| r.bytes().map(|c| u8::from(c != b'#'))).collect();
    Grid::from_cells(rows[0].len(), rows.len(), cells).unwrap()
}
