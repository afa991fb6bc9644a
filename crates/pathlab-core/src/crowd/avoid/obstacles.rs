//! Static obstacles as polygons, the way RVO2 models them: every polygon is a ring of
//! vertices, each with the unit direction of the edge that leaves it, its neighbours in the
//! ring and whether it is convex; the obstacle lies on the left of every edge
//! (`det(next - this, p - this) > 0` for points inside, counterclockwise with y up, so
//! clockwise on the screen, where y points down). A ring listed the other way round is a
//! boundary that keeps agents inside.
//!
//! [`Obstacles::from_walls`] traces the outlines of the wall regions of a grid into such
//! rings; [`Obstacles::add_polygon`] adds any polygon. [`Obstacles::near`] finds the edges an
//! agent must look at (those it is on the outer side of, within a range), nearest first,
//! through a grid of buckets; [`obstacle_planes`] turns them into ORCA's hard half-planes.
//!
//! ```
//! use pathlab_core::boids::Vec2;
//! use pathlab_core::crowd::avoid::Obstacles;
//! let mut walls = Obstacles::new();
//! // A 2 x 2 square, obstacle on the left of each edge.
//! let square = [Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(2.0, 2.0), Vec2::new(0.0, 2.0)];
//! walls.add_polygon(&square).unwrap();
//! assert!(walls.contains(Vec2::new(1.0, 1.0)));
//! assert!((walls.depth(Vec2::new(2.5, 1.0), 1.0) - 0.5).abs() < 1e-6);
//! ```

use std::fmt;

use super::linear_program::HalfPlane;
use super::AgentState;
use crate::boids::Vec2;
use crate::grid::Grid;

/// RVO2's tolerance in the test of whether an edge is already covered by earlier lines.
const COVERED_EPS: f32 = 1e-5;

/// One vertex of an obstacle polygon, and the edge that leaves it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleVertex {
    /// Where the vertex is.
    pub point: Vec2,
    /// Unit direction from this vertex to the next one.
    pub direction: Vec2,
    /// Index of the next vertex of the ring.
    pub next: u32,
    /// Index of the previous vertex of the ring.
    pub prev: u32,
    /// True when the obstacle's corner here points outward (the ring turns left or goes
    /// straight on; always true for a two-vertex obstacle).
    pub convex: bool,
}

/// Why a polygon was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ObstacleError {
    /// Fewer than two vertices.
    TooFewVertices(usize),
    /// A vertex is NaN or infinite.
    NotFinite(usize),
    /// Two consecutive vertices are the same point (the edge has no direction).
    ZeroLengthEdge(usize),
}

impl fmt::Display for ObstacleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewVertices(n) => write!(f, "an obstacle needs at least 2 vertices, got {n}"),
            Self::NotFinite(i) => write!(f, "obstacle vertex {i} is not a finite point"),
            Self::ZeroLengthEdge(i) => write!(f, "obstacle vertices {i} and the next are the same point"),
        }
    }
}

impl std::error::Error for ObstacleError {}

/// A set of obstacle polygons with a bucket grid for finding the edges near a point.
#[derive(Clone, Debug, Default)]
pub struct Obstacles {
    vertices: Vec<ObstacleVertex>,
    /// Where each ring starts in `vertices`.
    rings: Vec<u32>,
    /// Bucket side (0: no buckets yet; every query looks at every edge).
    bucket: f32,
    origin: Vec2,
    cols: usize,
    rows: usize,
    /// Edges by bucket, as a counting sort: bucket b's edges are `edges[starts[b]..starts[b+1]]`.
    starts: Vec<u32>,
    edges: Vec<u32>,
}

/// RVO2's `leftOf(a, b, c)`: positive when `c` lies left of the line from `a` to `b`.
#[inline]
fn left_of(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (a - c).cross(b - a)
}

/// `v` over its length, as RVO2's `normalize` (a multiplication by the reciprocal).
#[inline]
fn unit(v: Vec2) -> Vec2 {
    v * (1.0 / v.length())
}

/// The squared distance from `p` to the segment `a`-`b`, as RVO2 computes it.
#[inline]
fn dist_sq_to_segment(a: Vec2, b: Vec2, p: Vec2) -> f32 {
    let ab = b - a;
    let r = (p - a).dot(ab) / ab.length_sq();
    if r < 0.0 {
        (p - a).length_sq()
    } else if r > 1.0 {
        (p - b).length_sq()
    } else {
        (p - (a + ab * r)).length_sq()
    }
}

/// The point of the segment `a`-`b` nearest to `p`.
fn nearest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0);
    a + ab * t
}

impl Obstacles {
    /// No obstacles.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a polygon (RVO2's `addObstacle`): `points` in order with the obstacle on the left
    /// of each edge; two points make a two-sided segment. Returns the index of its first
    /// vertex. The bucket grid is dropped; call [`Obstacles::index`] again.
    ///
    /// # Errors
    /// Fewer than two points, a non-finite point, or two consecutive equal points.
    pub fn add_polygon(&mut self, points: &[Vec2]) -> Result<usize, ObstacleError> {
        let n = points.len();
        if n < 2 {
            return Err(ObstacleError::TooFewVertices(n));
        }
        if let Some(i) = points.iter().position(|p| !p.is_finite()) {
            return Err(ObstacleError::NotFinite(i));
        }
        if let Some(i) = (0..n).find(|&i| points[i] == points[(i + 1) % n]) {
            return Err(ObstacleError::ZeroLengthEdge(i));
        }
        let first = self.vertices.len();
        for i in 0..n {
            let (prev, next) = ((i + n - 1) % n, (i + 1) % n);
            self.vertices.push(ObstacleVertex {
                point: points[i],
                direction: unit(points[next] - points[i]),
                next: (first + next) as u32,
                prev: (first + prev) as u32,
                convex: n == 2 || left_of(points[prev], points[i], points[next]) >= 0.0,
            });
        }
        self.rings.push(first as u32);
        self.bucket = 0.0;
        Ok(first)
    }

    /// The outlines of the wall regions (terrain 0) of `grid`, cell (cx, cy) covering
    /// `[cx * cell, (cx + 1) * cell) x [cy * cell, (cy + 1) * cell)`; cells outside the grid
    /// count as open. Every boundary between a wall cell and open ground becomes an edge with
    /// the wall on its left; edges are joined into rings (where two wall cells touch only at a
    /// corner, each keeps its own ring) and straight runs merged into one edge. Indexed with
    /// buckets of `4 * cell`.
    pub fn from_walls(grid: &Grid, cell: f32) -> Self {
        let (w, h) = (grid.width(), grid.height());
        let cells = grid.cells();
        let wall = |x: i64, y: i64| {
            x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h && cells[y as usize * w + x as usize] == 0
        };
        // Lattice points are numbered y * (w + 1) + x; each unit edge is (from, to).
        let id = |x: i64, y: i64| (y as usize) * (w + 1) + x as usize;
        let mut out_edges: Vec<[u32; 2]> = vec![[u32::MAX; 2]; (w + 1) * (h + 1)];
        let mut starts: Vec<usize> = Vec::new();
        let mut add = |from: usize, to: usize, starts: &mut Vec<usize>| {
            let slot = &mut out_edges[from];
            if slot[0] == u32::MAX {
                slot[0] = to as u32;
            } else {
                slot[1] = to as u32;
            }
            starts.push(from);
        };
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                if !wall(x, y) {
                    continue;
                }
                if !wall(x, y - 1) {
                    add(id(x, y), id(x + 1, y), &mut starts);
                }
                if !wall(x + 1, y) {
                    add(id(x + 1, y), id(x + 1, y + 1), &mut starts);
                }
                if !wall(x, y + 1) {
                    add(id(x + 1, y + 1), id(x, y + 1), &mut starts);
                }
                if !wall(x - 1, y) {
                    add(id(x, y + 1), id(x, y), &mut starts);
                }
            }
        }
        let point = |k: usize| ((k % (w + 1)) as i64, (k / (w + 1)) as i64);
        let mut used = vec![[false; 2]; (w + 1) * (h + 1)];
        let mut obstacles = Self::new();
        for &s in &starts {
            let slot = usize::from(used[s][0]);
            if used[s][slot] || out_edges[s][slot] == u32::MAX {
                continue;
            }
            // Walk the ring from this edge, keeping the corners (where the direction turns).
            let mut ring: Vec<(i64, i64)> = Vec::new();
            let (mut from, mut pick) = (s, slot);
            loop {
                used[from][pick] = true;
                let to = out_edges[from][pick] as usize;
                let (fx, fy) = point(from);
                let (tx, ty) = point(to);
                let d = (tx - fx, ty - fy);
                // The next edge: where two leave `to`, the one turning left (around the same
                // wall cell).
                let choices = out_edges[to];
                let mut next_pick = 0;
                if choices[1] != u32::MAX {
                    let (ax, ay) = point(choices[0] as usize);
                    let d0 = (ax - tx, ay - ty);
                    if d.0 * d0.1 - d.1 * d0.0 <= 0 {
                        next_pick = 1;
                    }
                }
                let (nx, ny) = point(out_edges[to][next_pick] as usize);
                let dn = (nx - tx, ny - ty);
                if dn != d {
                    ring.push((tx, ty));
                }
                from = to;
                pick = next_pick;
                if used[from][pick] {
                    break;
                }
            }
            let pts: Vec<Vec2> = ring.iter().map(|&(x, y)| Vec2::new(x as f32 * cell, y as f32 * cell)).collect();
            // A ring of a closed outline always has at least four corners.
            let _ = obstacles.add_polygon(&pts);
        }
        obstacles.index(4.0 * cell);
        obstacles
    }

    /// Files every edge in buckets of side `side` (the query range is a good choice) so that
    /// [`Obstacles::near`] looks only at the edges around a point. A side that is not finite
    /// and positive drops the buckets.
    pub fn index(&mut self, side: f32) {
        self.bucket = 0.0;
        self.starts.clear();
        self.edges.clear();
        if !(side.is_finite() && side > 0.0) || self.vertices.is_empty() {
            return;
        }
        let (mut lo, mut hi) = (self.vertices[0].point, self.vertices[0].point);
        for v in &self.vertices {
            lo = Vec2::new(lo.x.min(v.point.x), lo.y.min(v.point.y));
            hi = Vec2::new(hi.x.max(v.point.x), hi.y.max(v.point.y));
        }
        // At most 512 buckets a side, whatever the side asked for.
        let side = side.max((hi.x - lo.x) / 512.0).max((hi.y - lo.y) / 512.0);
        self.bucket = side;
        self.origin = lo;
        self.cols = ((hi.x - lo.x) / side) as usize + 1;
        self.rows = ((hi.y - lo.y) / side) as usize + 1;
        let buckets = self.cols * self.rows;
        self.starts = vec![0; buckets + 1];
        for pass in 0..2 {
            for (i, v) in self.vertices.iter().enumerate() {
                let b = self.vertices[v.next as usize].point;
                let (x0, x1) = (self.col(v.point.x.min(b.x)), self.col(v.point.x.max(b.x)));
                let (y0, y1) = (self.row(v.point.y.min(b.y)), self.row(v.point.y.max(b.y)));
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        let k = y * self.cols + x;
                        if pass == 0 {
                            self.starts[k + 1] += 1;
                        } else {
                            let at = self.starts[k] as usize;
                            self.edges[at] = i as u32;
                            self.starts[k] += 1;
                        }
                    }
                }
            }
            if pass == 0 {
                for k in 0..buckets {
                    self.starts[k + 1] += self.starts[k];
                }
                self.edges = vec![0; self.starts[buckets] as usize];
            } else {
                for k in (1..=buckets).rev() {
                    self.starts[k] = self.starts[k - 1];
                }
                self.starts[0] = 0;
            }
        }
    }

    fn col(&self, x: f32) -> usize {
        (((x - self.origin.x) / self.bucket).max(0.0) as usize).min(self.cols - 1)
    }

    fn row(&self, y: f32) -> usize {
        (((y - self.origin.y) / self.bucket).max(0.0) as usize).min(self.rows - 1)
    }

    /// The vertices (each the start of one edge).
    pub fn vertices(&self) -> &[ObstacleVertex] {
        &self.vertices
    }

    /// The polygons, each as the index of its first vertex.
    pub fn rings(&self) -> &[u32] {
        &self.rings
    }

    /// True when there is no obstacle.
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// Calls `visit` with every edge whose bucket lies within `range` of `pos` (some edges
    /// more than once).
    fn candidates(&self, pos: Vec2, range: f32, mut visit: impl FnMut(u32)) {
        if self.bucket <= 0.0 {
            (0..self.vertices.len() as u32).for_each(visit);
            return;
        }
        let (x0, x1) = (self.col(pos.x - range), self.col(pos.x + range));
        let (y0, y1) = (self.row(pos.y - range), self.row(pos.y + range));
        if pos.x + range < self.origin.x || pos.y + range < self.origin.y {
            return;
        }
        for y in y0..=y1 {
            let base = y * self.cols;
            for &e in &self.edges[self.starts[base + x0] as usize..self.starts[base + x1 + 1] as usize] {
                visit(e);
            }
        }
    }

    /// The edges an agent at `pos` must avoid (RVO2's obstacle neighbours), written to `out`
    /// (cleared first) as (squared distance, vertex index), nearest first (ties in vertex
    /// order): every edge closer than `range` that `pos` lies on the outer (right) side of.
    pub fn near(&self, pos: Vec2, range: f32, out: &mut Vec<(f32, u32)>) {
        out.clear();
        if !(pos.is_finite() && range.is_finite() && range >= 0.0) {
            return;
        }
        let range_sq = range * range;
        self.candidates(pos, range, |e| {
            let v = &self.vertices[e as usize];
            let b = self.vertices[v.next as usize].point;
            if left_of(v.point, b, pos) < 0.0 {
                let d2 = dist_sq_to_segment(v.point, b, pos);
                if d2 < range_sq {
                    out.push((d2, e));
                }
            }
        });
        out.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        out.dedup_by_key(|e| e.1);
    }

    /// The distance from `pos` to the nearest edge within `range` (infinity when none).
    fn nearest_edge(&self, pos: Vec2, range: f32) -> (f32, Vec2) {
        let mut best = (f32::INFINITY, pos);
        self.candidates(pos, range, |e| {
            let v = &self.vertices[e as usize];
            let q = nearest_on_segment(v.point, self.vertices[v.next as usize].point, pos);
            let d = q.distance(pos);
            if d < best.0 {
                best = (d, q);
            }
        });
        best
    }

    /// True when `pos` lies inside an obstacle: the rings wind round it a positive number of
    /// times in total (a wall region's outline winds once, the outline of a hole in it once
    /// the other way).
    pub fn contains(&self, pos: Vec2) -> bool {
        if !pos.is_finite() {
            return false;
        }
        let mut winding = 0_i32;
        for v in &self.vertices {
            let (a, b) = (v.point, self.vertices[v.next as usize].point);
            if a.y <= pos.y {
                if b.y > pos.y && left_of(a, b, pos) > 0.0 {
                    winding += 1;
                }
            } else if b.y <= pos.y && left_of(a, b, pos) < 0.0 {
                winding -= 1;
            }
        }
        winding > 0
    }

    /// How deep a disc of radius `r` at `pos` reaches into the obstacles: `r` minus the
    /// distance to the nearest edge when outside (0 when clear), `r` plus it when the centre
    /// is inside.
    pub fn depth(&self, pos: Vec2, r: f32) -> f32 {
        if self.is_empty() || !pos.is_finite() {
            return 0.0;
        }
        if self.contains(pos) {
            return r + self.nearest_edge(pos, f32::INFINITY).0.min(f32::MAX);
        }
        let (d, _) = self.nearest_edge(pos, r);
        (r - d).max(0.0)
    }

    /// The nearest point of each edge in `near` (from [`Obstacles::near`]) as a static disc
    /// of radius 0, appended to `out`: what the sampled methods (VO, RVO, HRVO) avoid.
    pub fn nearest_points(&self, pos: Vec2, near: &[(f32, u32)], out: &mut Vec<super::Neighbour>) {
        for &(_, e) in near {
            let v = &self.vertices[e as usize];
            let q = nearest_on_segment(v.point, self.vertices[v.next as usize].point, pos);
            out.push(super::Neighbour { id: u32::MAX, pos: q, vel: Vec2::ZERO, radius: 0.0 });
        }
    }
}

/// The legs of the velocity obstacle of a vertex at `rel` (relative to the agent) for a disc
/// of radius `r`: the unit directions tangent to the disc, (left, right), as RVO2 computes
/// them.
#[inline]
fn legs(rel: Vec2, r: f32) -> (Vec2, Vec2) {
    let d2 = rel.length_sq();
    let leg = (d2 - r * r).sqrt();
    let left = Vec2::new(rel.x * leg - rel.y * r, rel.x * r + rel.y * leg) * (1.0 / d2);
    let right = Vec2::new(rel.x * leg + rel.y * r, -rel.x * r + rel.y * leg) * (1.0 / d2);
    (left, right)
}

/// What an edge the disc may already touch asks for.
enum Touch {
    /// The disc is clear of the edge.
    Clear,
    /// It touches (at the first vertex, the second or along the edge): this line, or none
    /// when another edge's line takes care of it.
    Line(Option<HalfPlane>),
}

/// Whether the disc touches the edge from `o1` to `o2`, and the line it then gets.
fn touching(
    o1: &ObstacleVertex,
    o2: &ObstacleVertex,
    rel1: Vec2,
    rel2: Vec2,
    s: f32,
    dist_line: f32,
    r2: f32,
) -> Touch {
    let through_origin = |direction: Vec2| HalfPlane { point: Vec2::ZERO, direction };
    if s < 0.0 && rel1.length_sq() <= r2 {
        // Touching the first vertex (a concave one is covered by its edges).
        return Touch::Line(o1.convex.then(|| through_origin(unit(Vec2::new(-rel1.y, rel1.x)))));
    }
    if s > 1.0 && rel2.length_sq() <= r2 {
        // Touching the second vertex; the next edge handles it unless this edge faces it.
        let faces = o2.convex && rel2.cross(o2.direction) >= 0.0;
        return Touch::Line(faces.then(|| through_origin(unit(Vec2::new(-rel2.y, rel2.x)))));
    }
    if (0.0..=1.0).contains(&s) && dist_line <= r2 {
        // Touching the edge itself.
        return Touch::Line(Some(through_origin(-o1.direction)));
    }
    Touch::Clear
}

/// ORCA's half-planes for `agent` against the obstacle edges `near` (from
/// [`Obstacles::near`], nearest first) looking `horizon` seconds ahead, appended to `out`,
/// which may already hold earlier obstacle lines. These are RVO2's obstacle lines: an edge
/// whose velocity obstacle the earlier lines already exclude adds nothing; an edge the disc
/// already touches gives a line through the origin; otherwise the velocity is projected on
/// the velocity obstacle truncated at the horizon (the cut-off circles around each end, the
/// cut-off line between them and the two legs), where a leg that would point into the
/// neighbouring edge is replaced by that edge ("foreign" leg, no line when the velocity
/// projects onto it). The agent does all of the avoiding.
pub fn obstacle_planes(
    agent: &AgentState,
    obstacles: &Obstacles,
    near: &[(f32, u32)],
    horizon: f32,
    out: &mut Vec<HalfPlane>,
) {
    let verts = obstacles.vertices();
    let inv = 1.0 / horizon;
    let r = agent.radius;
    let r2 = r * r;
    let vel = agent.vel;
    for &(_, e) in near {
        let mut o1 = &verts[e as usize];
        let mut o2 = &verts[o1.next as usize];
        let rel1 = o1.point - agent.pos;
        let rel2 = o2.point - agent.pos;
        // Already excluded by an earlier obstacle line?
        let covered = out.iter().any(|l| {
            (rel1 * inv - l.point).cross(l.direction) - inv * r >= -COVERED_EPS
                && (rel2 * inv - l.point).cross(l.direction) - inv * r >= -COVERED_EPS
        });
        if covered {
            continue;
        }
        let edge = o2.point - o1.point;
        let s = (-rel1).dot(edge) / edge.length_sq();
        let dist_line = (-rel1 - edge * s).length_sq();
        if let Touch::Line(line) = touching(o1, o2, rel1, rel2, s, dist_line, r2) {
            out.extend(line);
            continue;
        }
        // Apart: the legs. Seen obliquely, both come from one vertex; a concave vertex's leg
        // runs along the edge.
        let (mut left_leg, mut right_leg);
        if s < 0.0 && dist_line <= r2 {
            if !o1.convex {
                continue;
            }
            o2 = o1;
            (left_leg, right_leg) = legs(rel1, r);
        } else if s > 1.0 && dist_line <= r2 {
            if !o2.convex {
                continue;
            }
            o1 = o2;
            (left_leg, right_leg) = legs(rel2, r);
        } else {
            left_leg = if o1.convex { legs(rel1, r).0 } else { -o1.direction };
            right_leg = if o2.convex { legs(rel2, r).1 } else { o1.direction };
        }
        // A leg may not point into the neighbouring edge: then that edge's line replaces it.
        let left_neighbour = &verts[o1.prev as usize];
        let mut left_foreign = false;
        let mut right_foreign = false;
        if o1.convex && left_leg.cross(-left_neighbour.direction) >= 0.0 {
            left_leg = -left_neighbour.direction;
            left_foreign = true;
        }
        if o2.convex && right_leg.cross(o2.direction) <= 0.0 {
            right_leg = o2.direction;
            right_foreign = true;
        }
        // The cut-off centres and where the velocity projects.
        let left_cut = (o1.point - agent.pos) * inv;
        let right_cut = (o2.point - agent.pos) * inv;
        let cut = right_cut - left_cut;
        let one_vertex = std::ptr::eq(o1, o2);
        let t = if one_vertex { 0.5 } else { (vel - left_cut).dot(cut) / cut.length_sq() };
        let t_left = (vel - left_cut).dot(left_leg);
        let t_right = (vel - right_cut).dot(right_leg);
        let on_circle = |centre: Vec2| {
            let w = unit(vel - centre);
            HalfPlane { point: centre + w * (r * inv), direction: Vec2::new(w.y, -w.x) }
        };
        if (t < 0.0 && t_left < 0.0) || (one_vertex && t_left < 0.0 && t_right < 0.0) {
            out.push(on_circle(left_cut));
            continue;
        }
        if t > 1.0 && t_right < 0.0 {
            out.push(on_circle(right_cut));
            continue;
        }
        let dist_cut = if !(0.0..=1.0).contains(&t) || one_vertex {
            f32::INFINITY
        } else {
            (vel - (left_cut + cut * t)).length_sq()
        };
        let dist_left = if t_left < 0.0 { f32::INFINITY } else { (vel - (left_cut + left_leg * t_left)).length_sq() };
        let dist_right =
            if t_right < 0.0 { f32::INFINITY } else { (vel - (right_cut + right_leg * t_right)).length_sq() };
        let along = |centre: Vec2, direction: Vec2| HalfPlane {
            point: centre + Vec2::new(-direction.y, direction.x) * (r * inv),
            direction,
        };
        if dist_cut <= dist_left && dist_cut <= dist_right {
            out.push(along(left_cut, -o1.direction));
        } else if dist_left <= dist_right {
            if !left_foreign {
                out.push(along(left_cut, left_leg));
            }
        } else if !right_foreign {
            out.push(along(right_cut, -right_leg));
        }
    }
}
