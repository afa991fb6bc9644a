//! Paths for path following: a polyline in world units, made from an A* path on the wall grid.
//!
//! The A* path is a list of cells. Straight runs are reduced to their ends (the corners);
//! the polyline runs through the corners' centres, or, with the spline option, along a
//! Catmull-Rom spline through them (which passes through every corner and rounds the turns).
//! Agents aim at a point a look-ahead distance along the polyline beyond the point nearest to
//! them, which is the course's "when close to a waypoint, start heading for the next one".

use std::fmt;

use super::{Vec2, Walls};
use crate::grid::{Diagonal, Point};
use crate::heuristic::Heuristic;
use crate::search::astar::astar;

/// How many points a spline puts on each segment between corners.
pub const SPLINE_SAMPLES: usize = 6;

/// A polyline with its cumulative lengths.
#[derive(Clone, Debug, PartialEq)]
pub struct SteerPath {
    points: Vec<Vec2>,
    /// `cum[i]` is the length along the path from the first point to point `i`.
    cum: Vec<f32>,
    closed: bool,
}

/// The closest point of a path to some position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest {
    /// The segment it lies on (from point `segment` to the next).
    pub segment: u32,
    /// The point.
    pub point: Vec2,
    /// Its distance from the position.
    pub dist: f32,
    /// Its distance along the path from the start.
    pub along: f32,
}

/// Why a path could not be planned.
#[derive(Clone, Debug, PartialEq)]
pub enum PathError {
    /// A waypoint is on a wall or off the grid.
    Blocked(Point),
    /// Two consecutive waypoints are not connected.
    NoPath(Point, Point),
    /// Fewer than two waypoints.
    TooShort,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Blocked(p) => write!(f, "waypoint {p} is on a wall"),
            Self::NoPath(a, b) => write!(f, "no path from {a} to {b}: walls cut them apart"),
            Self::TooShort => write!(f, "a path needs at least two waypoints"),
        }
    }
}

impl std::error::Error for PathError {}

impl SteerPath {
    /// A path through `points` (at least two, else the single point repeated); a closed path
    /// returns from the last point to the first.
    pub fn new(mut points: Vec<Vec2>, closed: bool) -> Self {
        points.dedup();
        if closed && points.len() > 1 && points.first() == points.last() {
            points.pop();
        }
        if points.is_empty() {
            points.push(Vec2::ZERO);
        }
        if points.len() == 1 {
            points.push(points[0]);
        }
        if closed {
            points.push(points[0]);
        }
        let mut cum = Vec::with_capacity(points.len());
        let mut total = 0.0;
        cum.push(0.0);
        for pair in points.windows(2) {
            total += pair[0].distance(pair[1]);
            cum.push(total);
        }
        Self { points, cum, closed }
    }

    /// Plans a path with A* (8-connected, no corner cutting, octile estimate) through the
    /// waypoint cells in turn, back to the first when `closed`, and turns it into a polyline.
    pub fn plan(walls: &Walls, waypoints: &[Point], closed: bool, spline: bool) -> Result<Self, PathError> {
        if waypoints.len() < 2 {
            return Err(PathError::TooShort);
        }
        let grid = walls.grid();
        for &w in waypoints {
            if !grid.is_passable(w) {
                return Err(PathError::Blocked(w));
            }
        }
        let legs = waypoints.len() - usize::from(!closed);
        let mut cells: Vec<Point> = vec![waypoints[0]];
        for k in 0..legs {
            let (a, b) = (waypoints[k], waypoints[(k + 1) % waypoints.len()]);
            let path = astar(grid, a, b, Heuristic::Octile, Diagonal::NoCornerCutting)
                .map_err(|_| PathError::Blocked(a))?
                .ok_or(PathError::NoPath(a, b))?;
            cells.extend(path.points.into_iter().skip(1));
        }
        let corners = corners(&cells);
        let centres: Vec<Vec2> = corners.iter().map(|&p| walls.centre(p)).collect();
        let points = if spline { catmull_rom(&centres, closed) } else { centres };
        Ok(Self::new(points, closed))
    }

    /// The polyline's points (for a closed path the first point is repeated at the end).
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// True when the path loops.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Number of segments.
    pub fn segments(&self) -> usize {
        self.points.len() - 1
    }

    /// Total length.
    pub fn length(&self) -> f32 {
        self.cum.last().copied().unwrap_or(0.0)
    }

    /// The point `along` units from the start: wrapped round a closed path, clamped to the
    /// ends of an open one.
    pub fn point_at(&self, along: f32) -> Vec2 {
        let len = self.length();
        if len.is_nan() || len <= 0.0 || !along.is_finite() {
            return self.points[0];
        }
        let s = if self.closed { along.rem_euclid(len) } else { along.clamp(0.0, len) };
        // The segment whose start is the last cumulative length <= s.
        let i = self.cum.partition_point(|&c| c <= s).clamp(1, self.points.len() - 1) - 1;
        let seg = self.cum[i + 1] - self.cum[i];
        let t = if seg > 0.0 { (s - self.cum[i]) / seg } else { 0.0 };
        self.points[i] + (self.points[i + 1] - self.points[i]) * t
    }

    fn nearest_on(&self, p: Vec2, i: usize) -> Nearest {
        let (a, b) = (self.points[i], self.points[i + 1]);
        let ab = b - a;
        let l2 = ab.length_sq();
        let t = if l2 > 0.0 { ((p - a).dot(ab) / l2).clamp(0.0, 1.0) } else { 0.0 };
        let point = a + ab * t;
        Nearest { segment: i as u32, point, dist: point.distance(p), along: self.cum[i] + t * l2.sqrt() }
    }

    /// The nearest point to `p` on the segments from `from` onwards, looking at `window`
    /// segments (wrapping round a closed path). With `from` out of range, or when the nearest
    /// point in the window is further than `relocate` away, the whole path is searched.
    pub fn nearest(&self, p: Vec2, from: u32, window: usize, relocate: f32) -> Nearest {
        let n = self.segments();
        let from = from as usize;
        if from < n {
            let mut best = self.nearest_on(p, from);
            for k in 1..window.min(n) {
                let i = if self.closed { (from + k) % n } else { from + k };
                if i >= n {
                    break;
                }
                let c = self.nearest_on(p, i);
                if c.dist < best.dist {
                    best = c;
                }
            }
            if best.dist <= relocate {
                return best;
            }
        }
        let mut best = self.nearest_on(p, 0);
        for i in 1..n {
            let c = self.nearest_on(p, i);
            if c.dist < best.dist {
                best = c;
            }
        }
        best
    }
}

/// The cells where a cell path changes direction, plus its two ends.
pub fn corners(cells: &[Point]) -> Vec<Point> {
    if cells.len() <= 2 {
        return cells.to_vec();
    }
    let dir = |a: Point, b: Point| (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64);
    let mut out = vec![cells[0]];
    for w in cells.windows(3) {
        if dir(w[0], w[1]) != dir(w[1], w[2]) {
            out.push(w[1]);
        }
    }
    if let Some(&last) = cells.last() {
        out.push(last);
    }
    out
}

/// Points along a uniform Catmull-Rom spline through `points`: it passes through each point,
/// with the tangent at a point parallel to the line joining its two neighbours.
pub fn catmull_rom(points: &[Vec2], closed: bool) -> Vec<Vec2> {
    let n = points.len();
    if n < 3 {
        return points.to_vec();
    }
    let get = |i: i64| -> Vec2 {
        if closed {
            points[i.rem_euclid(n as i64) as usize]
        } else {
            points[i.clamp(0, n as i64 - 1) as usize]
        }
    };
    let segments = if closed { n } else { n - 1 };
    let mut out = Vec::with_capacity(segments * SPLINE_SAMPLES + 1);
    for s in 0..segments as i64 {
        let (p0, p1, p2, p3) = (get(s - 1), get(s), get(s + 1), get(s + 2));
        for k in 0..SPLINE_SAMPLES {
            let t = k as f32 / SPLINE_SAMPLES as f32;
            let (t2, t3) = (t * t, t * t * t);
            // The cubic with p1 at t=0, p2 at t=1, tangents (p2-p0)/2 and (p3-p1)/2.
            let a = p1 * 2.0;
            let b = (p2 - p0) * t;
            let c = (p0 * 2.0 - p1 * 5.0 + p2 * 4.0 - p3) * t2;
            let d = (p1 * 3.0 - p0 - p2 * 3.0 + p3) * t3;
            out.push((a + b + c + d) * 0.5);
        }
    }
    if !closed {
        out.push(points[n - 1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, WALL};

    #[test]
    fn point_at_walks_the_polyline() {
        let p = SteerPath::new(vec![Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)], false);
        assert_eq!(p.length(), 20.0);
        assert_eq!(p.point_at(5.0), Vec2::new(5.0, 0.0));
        assert_eq!(p.point_at(15.0), Vec2::new(10.0, 5.0));
        assert_eq!(p.point_at(99.0), Vec2::new(10.0, 10.0));
        let closed = SteerPath::new(vec![Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0)], true);
        assert_eq!(closed.length(), 20.0);
        assert_eq!(closed.point_at(25.0), Vec2::new(5.0, 0.0));
    }

    #[test]
    fn nearest_finds_the_projection() {
        let p = SteerPath::new(vec![Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)], false);
        let n = p.nearest(Vec2::new(4.0, 3.0), 0, 4, 100.0);
        assert_eq!(n.point, Vec2::new(4.0, 0.0));
        assert_eq!(n.dist, 3.0);
        let n = p.nearest(Vec2::new(13.0, 6.0), 0, 1, 1.0);
        assert_eq!(n.segment, 1);
        assert_eq!(n.along, 16.0);
    }

    #[test]
    fn planned_paths_go_round_walls_and_splines_pass_through_corners() {
        let mut grid = Grid::new(9, 5).unwrap();
        for y in 0..4 {
            grid.set(Point::new(4, y), WALL).unwrap();
        }
        let walls = Walls::new(grid, 2.0);
        let straight = SteerPath::plan(&walls, &[Point::new(1, 1), Point::new(7, 1)], false, false).unwrap();
        // Every point of the polyline lies in an open cell, and it dips under the wall.
        for &q in straight.points() {
            assert!(walls.is_free(q), "{q:?}");
        }
        assert!(straight.points().iter().any(|q| q.y > 8.0));
        let smooth = SteerPath::plan(&walls, &[Point::new(1, 1), Point::new(7, 1)], false, true).unwrap();
        for corner in straight.points() {
            assert!(smooth.points().iter().any(|q| q.distance(*corner) < 1e-3));
        }
        let mut blocked = walls.clone();
        blocked.paint([Point::new(4, 4)], WALL).unwrap();
        assert_eq!(
            SteerPath::plan(&blocked, &[Point::new(1, 1), Point::new(7, 1)], false, false),
            Err(PathError::NoPath(Point::new(1, 1), Point::new(7, 1)))
        );
    }
}
