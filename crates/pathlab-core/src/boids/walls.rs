//! Walls for the boids: the path-finder's [`Grid`] laid over the world, each cell
//! [`Walls::cell`] units wide. A cell of value 0 is solid; everything outside the grid is
//! solid too, so the world's edge is a wall like any other.
//!
//! Movement goes through [`Walls::slide`], which moves a point one axis at a time in steps
//! shorter than half a cell and stops it at the face of any solid cell: a centre that starts in
//! an open cell therefore never ends in a solid one, whatever the speed.

use super::Vec2;
use crate::grid::{Grid, GridError, Point, WALL};

/// Where a ray met a solid cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Distance along the ray.
    pub dist: f32,
    /// The outward normal of the face hit (a unit vector along an axis), or the reverse of the
    /// ray when it starts inside a solid cell.
    pub normal: Vec2,
}

/// The smallest and largest cell side allowed, in world units.
pub const CELL_RANGE: (f32, f32) = (0.5, 100.0);

/// A wall grid placed over the world.
#[derive(Clone, Debug, PartialEq)]
pub struct Walls {
    grid: Grid,
    cell: f32,
    inv_cell: f32,
    /// Per cell: the Chebyshev distance in cells to the nearest solid cell (the cells just off
    /// the grid count as solid), capped at 255. A point in a cell of clearance k is at least
    /// (k - 1) cells from any wall, so agents far from walls skip the finer checks.
    clearance: Vec<u8>,
}

impl Walls {
    /// Walls from a grid whose cells are `cell` units wide (clamped to [`CELL_RANGE`];
    /// a non-finite size becomes 1).
    pub fn new(grid: Grid, cell: f32) -> Self {
        let cell = if cell.is_finite() { cell.clamp(CELL_RANGE.0, CELL_RANGE.1) } else { 1.0 };
        let mut walls = Self { grid, cell, inv_cell: 1.0 / cell, clearance: Vec::new() };
        walls.refresh_clearance();
        walls
    }

    /// An open world of `cols` x `rows` cells.
    pub fn open(cols: usize, rows: usize, cell: f32) -> Result<Self, GridError> {
        Ok(Self::new(Grid::new(cols, rows)?, cell))
    }

    /// The distance transform behind [`Walls::clearance`]: two passes of the 8-neighbour
    /// chamfer, exact for the Chebyshev distance.
    fn refresh_clearance(&mut self) {
        let (w, h) = (self.grid.width(), self.grid.height());
        let cells = self.grid.cells();
        let mut d: Vec<u8> = Vec::with_capacity(w * h);
        for y in 0..h {
            for x in 0..w {
                let edge = (x + 1).min(y + 1).min(w - x).min(h - y).min(255);
                d.push(if cells[y * w + x] == WALL { 0 } else { edge as u8 });
            }
        }
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                let mut v = d[i];
                if x > 0 {
                    v = v.min(d[i - 1].saturating_add(1));
                }
                if y > 0 {
                    v = v.min(d[i - w].saturating_add(1));
                    if x > 0 {
                        v = v.min(d[i - w - 1].saturating_add(1));
                    }
                    if x + 1 < w {
                        v = v.min(d[i - w + 1].saturating_add(1));
                    }
                }
                d[i] = v;
            }
        }
        for y in (0..h).rev() {
            for x in (0..w).rev() {
                let i = y * w + x;
                let mut v = d[i];
                if x + 1 < w {
                    v = v.min(d[i + 1].saturating_add(1));
                }
                if y + 1 < h {
                    v = v.min(d[i + w].saturating_add(1));
                    if x + 1 < w {
                        v = v.min(d[i + w + 1].saturating_add(1));
                    }
                    if x > 0 {
                        v = v.min(d[i + w - 1].saturating_add(1));
                    }
                }
                d[i] = v;
            }
        }
        self.clearance = d;
    }

    /// A distance within which there is certainly no solid cell around `p` (0 near walls,
    /// outside the world, or for a non-finite point).
    #[inline]
    pub fn clearance(&self, p: Vec2) -> f32 {
        let (cx, cy) = self.cell_at(p);
        if !p.is_finite() || cx < 0 || cy < 0 || cx >= self.grid.width() as i64 || cy >= self.grid.height() as i64 {
            return 0.0;
        }
        let k = self.clearance[cy as usize * self.grid.width() + cx as usize];
        f32::from(k.saturating_sub(1)) * self.cell
    }

    /// The grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The side of a cell in world units.
    pub fn cell(&self) -> f32 {
        self.cell
    }

    /// The world's width in units.
    pub fn width(&self) -> f32 {
        self.grid.width() as f32 * self.cell
    }

    /// The world's height in units.
    pub fn height(&self) -> f32 {
        self.grid.height() as f32 * self.cell
    }

    /// Sets cells to `value` (0 makes a wall); returns how many changed.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> Result<usize, GridError> {
        let mut changed = 0;
        for p in cells {
            if self.grid.get(p) != Some(value) {
                self.grid.set(p, value)?;
                changed += 1;
            }
        }
        if changed > 0 {
            self.refresh_clearance();
        }
        Ok(changed)
    }

    /// True when cell (cx, cy) is solid or off the grid.
    #[inline]
    pub fn blocked(&self, cx: i64, cy: i64) -> bool {
        if cx < 0 || cy < 0 || cx >= self.grid.width() as i64 || cy >= self.grid.height() as i64 {
            return true;
        }
        self.grid.cells()[cy as usize * self.grid.width() + cx as usize] == WALL
    }

    /// The cell containing a point (possibly off the grid).
    #[inline]
    pub fn cell_at(&self, p: Vec2) -> (i64, i64) {
        (floor(p.x * self.inv_cell), floor(p.y * self.inv_cell))
    }

    /// True when the point lies in an open cell inside the world.
    #[inline]
    pub fn is_free(&self, p: Vec2) -> bool {
        if !p.is_finite() {
            return false;
        }
        let (cx, cy) = self.cell_at(p);
        !self.blocked(cx, cy)
    }

    /// The centre of a cell in world units.
    pub fn centre(&self, p: Point) -> Vec2 {
        Vec2::new((p.x as f32 + 0.5) * self.cell, (p.y as f32 + 0.5) * self.cell)
    }

    /// Casts a ray from `origin` along the unit vector `dir` and returns the first solid cell
    /// within `max_len` (a grid walk: Amanatides and Woo's voxel traversal).
    pub fn raycast(&self, origin: Vec2, dir: Vec2, max_len: f32) -> Option<Hit> {
        if !origin.is_finite() || !dir.is_finite() || max_len.is_nan() || max_len <= 0.0 {
            return None;
        }
        if max_len < self.clearance(origin) {
            return None;
        }
        let (mut cx, mut cy) = self.cell_at(origin);
        if self.blocked(cx, cy) {
            return Some(Hit { dist: 0.0, normal: -dir });
        }
        let step_x: i64 = if dir.x > 0.0 { 1 } else { -1 };
        let step_y: i64 = if dir.y > 0.0 { 1 } else { -1 };
        let next_x = if dir.x > 0.0 { (cx + 1) as f32 * self.cell } else { cx as f32 * self.cell };
        let next_y = if dir.y > 0.0 { (cy + 1) as f32 * self.cell } else { cy as f32 * self.cell };
        let (mut t_x, delta_x) = if dir.x.abs() > 1e-9 {
            ((next_x - origin.x) / dir.x, self.cell / dir.x.abs())
        } else {
            (f32::INFINITY, f32::INFINITY)
        };
        let (mut t_y, delta_y) = if dir.y.abs() > 1e-9 {
            ((next_y - origin.y) / dir.y, self.cell / dir.y.abs())
        } else {
            (f32::INFINITY, f32::INFINITY)
        };
        // A ray crosses at most this many cells within max_len.
        let limit = (2.0 * max_len * self.inv_cell) as usize + 3;
        for _ in 0..limit {
            let (t, normal) = if t_x < t_y {
                cx += step_x;
                let t = t_x;
                t_x += delta_x;
                (t, Vec2::new(-step_x as f32, 0.0))
            } else {
                cy += step_y;
                let t = t_y;
                t_y += delta_y;
                (t, Vec2::new(0.0, -step_y as f32))
            };
            if t > max_len {
                return None;
            }
            if self.blocked(cx, cy) {
                return Some(Hit { dist: t.max(0.0), normal });
            }
        }
        None
    }

    /// The nearest point on a solid cell or on the world's edge within `reach` of `p`, and its
    /// distance. Only cells within five cells of `p` are examined, whatever `reach` is.
    pub fn nearest_wall(&self, p: Vec2, reach: f32) -> Option<(Vec2, f32)> {
        if !p.is_finite() || reach.is_nan() || reach <= 0.0 || reach < self.clearance(p) {
            return None;
        }
        let reach = reach.min(5.0 * self.cell);
        let mut best: Option<(Vec2, f32)> = None;
        let consider = |best: &mut Option<(Vec2, f32)>, q: Vec2| {
            let d = p.distance(q);
            if d <= reach && best.is_none_or(|(_, b)| d < b) {
                *best = Some((q, d));
            }
        };
        let (w, h) = (self.width(), self.height());
        consider(&mut best, Vec2::new(0.0, p.y.clamp(0.0, h)));
        consider(&mut best, Vec2::new(w, p.y.clamp(0.0, h)));
        consider(&mut best, Vec2::new(p.x.clamp(0.0, w), 0.0));
        consider(&mut best, Vec2::new(p.x.clamp(0.0, w), h));
        // Cells in square rings round the point's cell, nearest ring first: every cell of ring
        // k is at least (k - 1) cells away, so the search stops once that passes the best.
        let (cx, cy) = self.cell_at(p);
        let rings = (reach * self.inv_cell).ceil() as i64 + 1;
        let (gw, gh) = (self.grid.width() as i64, self.grid.height() as i64);
        for k in 0..=rings {
            if let Some((_, d)) = best {
                if (k - 1) as f32 * self.cell > d {
                    break;
                }
            }
            for y in (cy - k).max(0)..=(cy + k).min(gh - 1) {
                let edge_row = y == cy - k || y == cy + k;
                let mut x = (cx - k).max(0);
                while x <= (cx + k).min(gw - 1) {
                    if self.blocked(x, y) {
                        consider(&mut best, self.closest_on_cell(p, x, y));
                    }
                    // Inside the ring's middle rows only the two end cells belong to it.
                    x = if edge_row || x != cx - k { x + 1 } else { cx + k };
                }
            }
        }
        best
    }

    #[inline]
    fn closest_on_cell(&self, p: Vec2, cx: i64, cy: i64) -> Vec2 {
        let (x0, y0) = (cx as f32 * self.cell, cy as f32 * self.cell);
        Vec2::new(p.x.clamp(x0, x0 + self.cell), p.y.clamp(y0, y0 + self.cell))
    }

    /// Moves a point by `disp`, one axis at a time in steps of under half a cell, stopping at
    /// the face of any solid cell. Returns the new point and whether the x and y motion were
    /// stopped. A point that starts in an open cell ends in an open cell. Displacements longer
    /// than 64 cells are shortened to that.
    pub fn slide(&self, from: Vec2, disp: Vec2) -> (Vec2, bool, bool) {
        if !disp.is_finite() || !from.is_finite() {
            return (from, true, true);
        }
        let disp = disp.truncate(64.0 * self.cell);
        if disp.length() < self.clearance(from) {
            return (from + disp, false, false);
        }
        let longest = disp.x.abs().max(disp.y.abs());
        let steps = ((longest / (0.45 * self.cell)).ceil() as usize).max(1);
        let d = disp / steps as f32;
        let eps = self.cell * 1e-3;
        let mut p = from;
        let (mut stop_x, mut stop_y) = (false, false);
        for _ in 0..steps {
            if d.x != 0.0 && !stop_x {
                let (cx, cy) = self.cell_at(p);
                let nx = p.x + d.x;
                let ncx = floor(nx * self.inv_cell);
                if ncx != cx && self.blocked(ncx, cy) {
                    p.x = if d.x > 0.0 { (cx + 1) as f32 * self.cell - eps } else { cx as f32 * self.cell + eps };
                    stop_x = true;
                } else {
                    p.x = nx;
                }
            }
            if d.y != 0.0 && !stop_y {
                let (cx, cy) = self.cell_at(p);
                let ny = p.y + d.y;
                let ncy = floor(ny * self.inv_cell);
                if ncy != cy && self.blocked(cx, ncy) {
                    p.y = if d.y > 0.0 { (cy + 1) as f32 * self.cell - eps } else { cy as f32 * self.cell + eps };
                    stop_y = true;
                } else {
                    p.y = ny;
                }
            }
        }
        (p, stop_x, stop_y)
    }

    /// How far to move a circle of `radius` at `p` so that it no longer overlaps solid cells
    /// or the world's edge (resolved cell by cell, each against the position after the earlier
    /// pushes, so a flat wall of several cells pushes once). Zero when it overlaps nothing.
    pub fn push_out(&self, p: Vec2, radius: f32) -> Vec2 {
        if !p.is_finite() || radius.is_nan() || radius <= 0.0 {
            return Vec2::ZERO;
        }
        if radius < self.clearance(p) {
            return Vec2::ZERO;
        }
        let mut q = p;
        let (w, h) = (self.width(), self.height());
        if q.x < radius {
            q.x = radius.min(w * 0.5);
        } else if q.x > w - radius {
            q.x = (w - radius).max(w * 0.5);
        }
        if q.y < radius {
            q.y = radius.min(h * 0.5);
        } else if q.y > h - radius {
            q.y = (h - radius).max(h * 0.5);
        }
        let (x0, y0) = self.cell_at(q - Vec2::new(radius, radius));
        let (x1, y1) = self.cell_at(q + Vec2::new(radius, radius));
        let gw = self.grid.width() as i64 - 1;
        let gh = self.grid.height() as i64 - 1;
        // Nearer cells first: the ring of the centre's own row and column resolve flat walls.
        let (cx, cy) = self.cell_at(q);
        let mut cells: [(i64, i64); 64] = [(0, 0); 64];
        let mut count = 0;
        'outer: for yy in y0.max(0)..=y1.min(gh) {
            for xx in x0.max(0)..=x1.min(gw) {
                if self.blocked(xx, yy) {
                    if count == cells.len() {
                        break 'outer;
                    }
                    cells[count] = (xx, yy);
                    count += 1;
                }
            }
        }
        let cells = &mut cells[..count];
        cells.sort_unstable_by_key(|&(xx, yy)| (xx - cx).abs() + (yy - cy).abs());
        for &(xx, yy) in cells.iter() {
            let c = self.closest_on_cell(q, xx, yy);
            let off = q - c;
            let d = off.length();
            if d < radius && d > 1e-6 {
                q += off * ((radius - d) / d);
            }
        }
        q - p
    }

    /// The centre of the open cell nearest to `p` (searched in growing square rings), or
    /// `None` when every cell is solid.
    pub fn nearest_open(&self, p: Vec2) -> Option<Vec2> {
        let (w, h) = (self.grid.width() as i64, self.grid.height() as i64);
        let (cx, cy) = self.cell_at(p);
        let (cx, cy) = (cx.clamp(0, w - 1), cy.clamp(0, h - 1));
        let mut best: Option<(f32, Point)> = None;
        for ring in 0..w.max(h) {
            for y in (cy - ring)..=(cy + ring) {
                for x in (cx - ring)..=(cx + ring) {
                    let on_ring = (y - cy).abs() == ring || (x - cx).abs() == ring;
                    if !on_ring || self.blocked(x, y) {
                        continue;
                    }
                    let q = Point::new(x as usize, y as usize);
                    let d = self.centre(q).distance(p);
                    if best.is_none_or(|(b, _)| d < b) {
                        best = Some((d, q));
                    }
                }
            }
            // Once something is found, one more ring can only hold cells at most as near.
            if let Some((d, q)) = best {
                if (ring as f32) * self.cell > d + self.cell {
                    return Some(self.centre(q));
                }
            }
        }
        best.map(|(_, q)| self.centre(q))
    }
}

/// `x.floor() as i64` without a call into libm on targets that lack a floor instruction;
/// NaN gives 0 and values beyond the i64 range saturate, as with `as`.
#[inline]
fn floor(x: f32) -> i64 {
    let t = x as i64;
    if (t as f32) > x {
        t - 1
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walls_with(cells: &[(usize, usize)]) -> Walls {
        let mut grid = Grid::new(10, 10).unwrap();
        for &(x, y) in cells {
            grid.set(Point::new(x, y), WALL).unwrap();
        }
        Walls::new(grid, 2.0)
    }

    #[test]
    fn rays_stop_at_walls_and_the_edge() {
        let w = walls_with(&[(5, 2)]);
        let hit = w.raycast(Vec2::new(1.0, 5.0), Vec2::new(1.0, 0.0), 100.0).unwrap();
        assert!((hit.dist - 9.0).abs() < 1e-4, "{hit:?}");
        assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
        assert!(w.raycast(Vec2::new(1.0, 5.0), Vec2::new(1.0, 0.0), 8.0).is_none());
        let edge = w.raycast(Vec2::new(1.0, 1.0), Vec2::new(0.0, -1.0), 5.0).unwrap();
        assert!((edge.dist - 1.0).abs() < 1e-4);
        assert_eq!(edge.normal, Vec2::new(0.0, 1.0));
    }

    #[test]
    fn sliding_never_enters_a_wall() {
        let w = walls_with(&[(5, 5), (5, 4), (5, 6)]);
        let (p, stop_x, _) = w.slide(Vec2::new(9.0, 11.0), Vec2::new(50.0, 0.3));
        assert!(stop_x);
        assert!(w.is_free(p));
        assert!(p.x < 10.0 && p.x > 9.9, "{p:?}");
        let (p, _, _) = w.slide(Vec2::new(1.0, 1.0), Vec2::new(-5.0, -5.0));
        assert!(w.is_free(p), "{p:?}");
    }

    #[test]
    fn push_out_clears_a_flat_wall_once() {
        let w = walls_with(&[(4, 5), (5, 5), (6, 5)]);
        // Wall top face at y = 10; a circle of radius 1 centred at y = 9.5 overlaps by 0.5.
        let push = w.push_out(Vec2::new(10.0, 9.5), 1.0);
        assert!((push.y + 0.5).abs() < 1e-4, "{push:?}");
        assert!(push.x.abs() < 1e-4);
        assert_eq!(w.push_out(Vec2::new(3.0, 3.0), 1.0), Vec2::ZERO);
    }

    #[test]
    fn clearance_is_the_distance_to_the_nearest_wall_or_edge() {
        let w = walls_with(&[(5, 5)]);
        // Cell (5, 3) is 2 cells from the wall: points in it are at least 1 cell (2 units) away.
        assert_eq!(w.clearance(Vec2::new(11.0, 7.0)), 2.0);
        // Cell (0, 0) touches the edge.
        assert_eq!(w.clearance(Vec2::new(1.0, 1.0)), 0.0);
        assert_eq!(w.clearance(Vec2::new(11.0, 11.0)), 0.0);
        assert_eq!(w.clearance(Vec2::new(-1.0, 1.0)), 0.0);
        assert_eq!(floor(-0.5), -1);
        assert_eq!(floor(2.0), 2);
        assert_eq!(floor(f32::NAN), 0);
    }

    #[test]
    fn nearest_wall_by_rings_equals_a_full_scan() {
        let mut rng = crate::boids::Pcg32::new(4);
        let mut grid = Grid::new(23, 17).unwrap();
        for _ in 0..60 {
            grid.set(Point::new(rng.below(23) as usize, rng.below(17) as usize), WALL).unwrap();
        }
        let w = Walls::new(grid, 1.5);
        for _ in 0..2000 {
            let p = Vec2::new(rng.range(-1.0, 36.0), rng.range(-1.0, 27.0));
            let reach = rng.range(0.1, 9.0);
            // The reference: every solid cell and the four edges.
            let mut best = f32::INFINITY;
            for cy in 0..17 {
                for cx in 0..23 {
                    if w.blocked(cx, cy) {
                        best = best.min(p.distance(w.closest_on_cell(p, cx, cy)));
                    }
                }
            }
            let (ww, hh) = (w.width(), w.height());
            for q in [
                Vec2::new(0.0, p.y.clamp(0.0, hh)),
                Vec2::new(ww, p.y.clamp(0.0, hh)),
                Vec2::new(p.x.clamp(0.0, ww), 0.0),
                Vec2::new(p.x.clamp(0.0, ww), hh),
            ] {
                best = best.min(p.distance(q));
            }
            let found = w.nearest_wall(p, reach).map(|(_, d)| d);
            let expected = (best <= reach.min(5.0 * 1.5)).then_some(best);
            assert_eq!(found, expected, "at {p:?} reach {reach}");
        }
    }

    #[test]
    fn nearest_wall_and_open_cell() {
        let w = walls_with(&[(5, 5)]);
        let (q, d) = w.nearest_wall(Vec2::new(9.0, 11.0), 3.0).unwrap();
        assert_eq!(q, Vec2::new(10.0, 11.0));
        assert!((d - 1.0).abs() < 1e-6);
        let c = w.nearest_open(Vec2::new(11.0, 11.0)).unwrap();
        assert!(w.is_free(c));
        assert!(c.distance(Vec2::new(11.0, 11.0)) <= 2.0 + 1e-4);
    }
}
