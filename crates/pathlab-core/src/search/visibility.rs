//! The exact any-angle shortest path: A* over the visibility graph of the walls' corners.
//!
//! Theta*, Lazy Theta* and smoothing give short paths at any angle, but not the shortest.
//! This module gives the shortest, so that each of them can be measured against it.
//!
//! # The free space and its rule
//!
//! Cell `(x, y)` is the closed square `[x, x+1] x [y, y+1]`, and paths run from the centre of
//! the start cell to the centre of the goal cell. Outside the grid is wall. A path may touch
//! walls: run along a wall's edge, or graze a wall's corner (it is the limit of paths that
//! keep just off the wall). It may not enter a wall's inside, nor run along an edge with
//! walls on both sides. Where two walls touch diagonally (a *pinch*: a grid point with walls
//! in two opposite quarters and open cells in the other two), the diagonal rule decides, as
//! it does for a line of sight in [`sight`](super::sight):
//!
//! - `always`: a path may go through the pinch from one open cell to the other;
//! - `no-corner-cutting`, `never` and `at-most-one-blocked`: it may not (all three refuse a
//!   line that slips between two walls touching diagonally; the first two also refuse a line
//!   that touches one wall's corner, but a path may come as close to it as it likes, so the
//!   shortest length is the same).
//!
//! So the optimum depends only on whether the rule is `always`. Every path that Theta*, Lazy
//! Theta* or A* with smoothing returns under a rule keeps to this rule, so the optimum is
//! never longer than theirs, and never shorter than the straight line.
//!
//! # The graph
//!
//! A shortest path is a chain of straight segments that bends only where the free space
//! turns around a wall: at a *convex corner*, a grid point with exactly one wall among its
//! four cells (counting outside as wall), or, under `always`, at a pinch. Those points are the
//! vertices; two vertices are joined when the segment between them keeps to the rule above
//! and is *tangent* at both ends (at a convex corner whose wall lies in the quarter `(sx, sy)`,
//! a segment leaving in a direction strictly inside the opposite quarter would have to turn
//! into the wall to be taut, so it is dropped; pinches keep every segment). The start and goal
//! centres join the vertices they see (tangent at the vertex's end) and each other. A* over
//! that graph with the straight-line estimate gives the exact Euclidean shortest path.
//!
//! [`VisibilityGraph::new`] finds the vertices once per map, in time proportional to the
//! cells; [`VisibilityGraph::shortest_path`] adds the start and goal for one query. All pairs
//! of vertices would be too many on a big map (some 80,000 vertices on a 512x512 map with a
//! tenth of its cells walls: over a minute of sight tests), so a query finds a vertex's edges
//! only when A* expands it, and only towards the vertices that can still lie on a shortest
//! path: first Theta* gives the length `L` of some path that keeps to the rule, then a vertex
//! `v` is looked at from an expanded `u` only when `g(u) + |uv| + |vt| <= L` (the ellipse
//! with foci `u` and the goal). A vertex outside it cannot be on a path of length `L` or less,
//! so the answer stays exact. The vertices are kept in squares of cells so that those within
//! reach are found without looking at the others.
//!
//! # Exact arithmetic
//!
//! All vertices lie at whole or half-whole coordinates, so everything is done in
//! [`HalfPoint`]s (coordinates times two, as integers). [`FreeSpace::clear`] walks the cells a
//! segment crosses as [`sight`](super::sight) does, comparing crossing times with integer
//! products: no floating-point predicate decides what is visible. Only lengths are `f64`.
//!
//! # Stepping
//!
//! The search here is a plain function: its nodes are grid points, not cells, which the
//! cell-based [`Stepper`] cannot show. To step it, run any generic search on
//! the [`CornerGraph`](crate::space::CornerGraph) space through
//! [`build_on`](super::build_on): one step is one vertex expanded, and A* there finds the same
//! length.
//!
//! ```
//! use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
//! use pathlab_core::search::visibility::{HalfPoint, VisibilityGraph};
//! // . . . .
//! // . # . .
//! // . . . .
//! let mut grid = Grid::new(4, 3).unwrap();
//! grid.set(Point::new(1, 1), WALL).unwrap();
//! let graph = VisibilityGraph::new(&grid, Diagonal::NoCornerCutting).unwrap();
//! assert_eq!(graph.vertex_count(), 4); // the wall block's four corners
//! let found = graph.shortest_path(Point::new(0, 2), Point::new(2, 0)).unwrap();
//! // The straight line from (0.5, 2.5) to (2.5, 0.5) crosses the wall; the shortest path
//! // bends round one of its corners (1, 1) or (2, 2), sqrt(2.5) from each end.
//! let cost = found.cost.unwrap();
//! assert!((cost - 2.0 * 2.5f64.sqrt()).abs() < 1e-12);
//! assert_eq!(found.points.len(), 3);
//! assert_eq!(found.points[0], HalfPoint::centre(Point::new(0, 2)));
//! ```

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::OnceLock;

pub(crate) use super::engine::check_ends;
use super::theta::ThetaStar;
use super::{Algorithm, SearchConfig, SearchError, Stepper};
use crate::grid::{Diagonal, Grid, Point, GROUND, WALL};

/// A point of the plane at whole or half-whole coordinates, stored doubled: `(x, y)` here is
/// the point `(x / 2, y / 2)` in cell units. Grid points (cell corners) have even coordinates,
/// cell centres odd ones.
///
/// ```
/// use pathlab_core::grid::Point;
/// use pathlab_core::search::visibility::HalfPoint;
/// assert_eq!(HalfPoint::centre(Point::new(2, 0)).cells(), [2.5, 0.5]);
/// assert_eq!(HalfPoint::corner(3, 4).cells(), [3.0, 4.0]);
/// assert_eq!(HalfPoint::corner(0, 0).distance(HalfPoint::corner(3, 4)), 5.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HalfPoint {
    /// Twice the x coordinate.
    pub x: i64,
    /// Twice the y coordinate.
    pub y: i64,
}

impl HalfPoint {
    /// The grid point (cell corner) `(x, y)`.
    pub const fn corner(x: i64, y: i64) -> Self {
        Self { x: 2 * x, y: 2 * y }
    }

    /// The centre of cell `p`.
    pub const fn centre(p: Point) -> Self {
        Self { x: 2 * p.x as i64 + 1, y: 2 * p.y as i64 + 1 }
    }

    /// True for a grid point (a cell corner).
    pub const fn is_corner(self) -> bool {
        self.x % 2 == 0 && self.y % 2 == 0
    }

    /// The coordinates in cell units.
    pub fn cells(self) -> [f64; 2] {
        [self.x as f64 / 2.0, self.y as f64 / 2.0]
    }

    /// The straight-line distance, in cells: the correctly rounded root of an exact integer,
    /// so it is the same both ways round.
    pub fn distance(self, other: Self) -> f64 {
        let (dx, dy) = (self.x.abs_diff(other.x), self.y.abs_diff(other.y));
        ((dx * dx + dy * dy) as f64).sqrt() / 2.0
    }
}

/// The cells of a grid seen as free space under a diagonal rule: which segments keep to it
/// (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct FreeSpace {
    width: i64,
    height: i64,
    open: Vec<bool>,
    always: bool,
}

impl FreeSpace {
    /// The free space of `grid` under `rule`: every cell that is not a wall is open.
    pub fn new(grid: &Grid, rule: Diagonal) -> Self {
        Self {
            width: grid.width() as i64,
            height: grid.height() as i64,
            open: grid.cells().iter().map(|&c| c != WALL).collect(),
            always: rule == Diagonal::Always,
        }
    }

    /// The grid's width in cells.
    pub const fn width(&self) -> i64 {
        self.width
    }

    /// The grid's height in cells.
    pub const fn height(&self) -> i64 {
        self.height
    }

    /// True when paths may go through pinches (the rule is `always`).
    pub const fn through_pinches(&self) -> bool {
        self.always
    }

    /// True when cell `(x, y)` is inside the grid and not a wall.
    #[inline]
    pub fn is_open(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height && self.open[(y * self.width + x) as usize]
    }

    /// The four cells around grid point `(x, y)`, open or not: north-west, north-east,
    /// south-west, south-east (y grows downwards).
    pub fn around(&self, x: i64, y: i64) -> [bool; 4] {
        [self.is_open(x - 1, y - 1), self.is_open(x, y - 1), self.is_open(x - 1, y), self.is_open(x, y)]
    }

    /// True when grid point `(x, y)` touches an open cell.
    pub fn touches_open(&self, x: i64, y: i64) -> bool {
        self.around(x, y).contains(&true)
    }

    /// True when a path may stand on grid point `(x, y)`: it touches an open cell and, unless
    /// the rule is `always`, it is not a pinch (where a path could only pass by slipping
    /// between two walls).
    pub fn usable(&self, x: i64, y: i64) -> bool {
        let [nw, ne, sw, se] = self.around(x, y);
        let pinch = (nw && se && !ne && !sw) || (ne && sw && !nw && !se);
        (nw || ne || sw || se) && (self.always || !pinch)
    }

    /// What a shortest path may do at grid point `(x, y)`: bend round the one wall among its
    /// cells (a convex corner, with the wall's quarter `(sx, sy)`, each -1 or 1), bend at a
    /// pinch (under `always` only), or nothing.
    pub fn bend_at(&self, x: i64, y: i64) -> Bend {
        let [nw, ne, sw, se] = self.around(x, y);
        match (nw, ne, sw, se) {
            (false, true, true, true) => Bend::Corner { sx: -1, sy: -1 },
            (true, false, true, true) => Bend::Corner { sx: 1, sy: -1 },
            (true, true, false, true) => Bend::Corner { sx: -1, sy: 1 },
            (true, true, true, false) => Bend::Corner { sx: 1, sy: 1 },
            (false, true, true, false) | (true, false, false, true) if self.always => Bend::Pinch,
            _ => Bend::None,
        }
    }

    /// True when the straight segment from `a` to `b` keeps to the rule: it enters no wall
    /// (nor leaves the grid), runs along no edge with walls on both sides, and goes through a
    /// pinch only under `always`. A segment that only touches walls is clear.
    ///
    /// ```
    /// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
    /// use pathlab_core::search::visibility::{FreeSpace, HalfPoint};
    /// // . #
    /// // # .
    /// let mut grid = Grid::new(2, 2).unwrap();
    /// grid.set(Point::new(1, 0), WALL).unwrap();
    /// grid.set(Point::new(0, 1), WALL).unwrap();
    /// let (a, b) = (HalfPoint::centre(Point::new(0, 0)), HalfPoint::centre(Point::new(1, 1)));
    /// assert!(!FreeSpace::new(&grid, Diagonal::NoCornerCutting).clear(a, b));
    /// assert!(FreeSpace::new(&grid, Diagonal::Always).clear(a, b));
    /// // Along the wall (1, 0)'s left edge, with the open (0, 0) beside it: clear.
    /// let space = FreeSpace::new(&grid, Diagonal::NoCornerCutting);
    /// assert!(space.clear(HalfPoint::corner(1, 0), HalfPoint::corner(1, 1)));
    /// ```
    pub fn clear(&self, a: HalfPoint, b: HalfPoint) -> bool {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx == 0 && dy == 0 {
            return true;
        }
        if dy == 0 && a.y % 2 == 0 {
            return self.clear_along(a.x.min(b.x) / 2, a.x.max(b.x) / 2, a.y / 2, |k, line, side| {
                self.is_open(k, line - 1 + side)
            });
        }
        if dx == 0 && a.x % 2 == 0 {
            return self.clear_along(a.y.min(b.y) / 2, a.y.max(b.y) / 2, a.x / 2, |k, line, side| {
                self.is_open(line - 1 + side, k)
            });
        }
        self.clear_across(a, dx, dy)
    }

    /// A segment along the grid line `line` from grid point `from` to `to` (whole numbers,
    /// `from < to`); `open(k, line, side)` says whether the cell at step `k` on side 0 (before
    /// the line) or 1 (after it) is open.
    fn clear_along(&self, from: i64, to: i64, line: i64, open: impl Fn(i64, i64, i64) -> bool) -> bool {
        let mut before = [false; 2];
        for k in from..to {
            let sides = [open(k, line, 0), open(k, line, 1)];
            if !sides[0] && !sides[1] {
                return false;
            }
            // At the grid point between the last unit and this one, a pinch crossing: the
            // open side changes from one to the other and the cells across are walls.
            let pushed_off = (before[0] && sides[0]) || (before[1] && sides[1]);
            if k > from && !self.always && !pushed_off {
                return false;
            }
            before = sides;
        }
        true
    }

    /// A segment that does not run along a grid line: walk the cells whose inside it
    /// crosses, in order, deciding which edge or grid point comes next with integers.
    fn clear_across(&self, a: HalfPoint, dx: i64, dy: i64) -> bool {
        let (sx, sy) = (dx.signum(), dy.signum());
        // The first cell: the one the segment is in just after leaving `a`.
        let first = |v: i64, s: i64| {
            if v % 2 != 0 {
                (v - 1).div_euclid(2)
            } else if s > 0 {
                v / 2
            } else {
                v / 2 - 1
            }
        };
        let (mut cx, mut cy) = (first(a.x, sx), first(a.y, sy));
        // Distances (in half cells, along each axis) from `a` to the next vertical and
        // horizontal grid lines; the segment reaches them at times rx/|dx| and ry/|dy|.
        let mut rx = if a.x % 2 != 0 { 1 } else { 2 };
        let mut ry = if a.y % 2 != 0 { 1 } else { 2 };
        let (ax, ay) = (dx.abs(), dy.abs());
        loop {
            if !self.is_open(cx, cy) {
                return false;
            }
            let x_next = sx != 0 && rx < ax;
            let y_next = sy != 0 && ry < ay;
            let order = match (x_next, y_next) {
                (false, false) => return true,
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                (true, true) => (rx * ay).cmp(&(ry * ax)),
            };
            match order {
                Ordering::Less => {
                    cx += sx;
                    rx += 2;
                }
                Ordering::Greater => {
                    cy += sy;
                    ry += 2;
                }
                Ordering::Equal => {
                    // Through a grid point, from this cell to the diagonal one; the two side
                    // cells are only touched. Both walls: a pinch.
                    if !self.always && !self.is_open(cx + sx, cy) && !self.is_open(cx, cy + sy) {
                        return false;
                    }
                    cx += sx;
                    cy += sy;
                    rx += 2;
                    ry += 2;
                }
            }
        }
    }
}

/// What a shortest path may do at a grid point (see [`FreeSpace::bend_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bend {
    /// Nothing: no shortest path bends here.
    None,
    /// A convex corner: one wall among the four cells, in the quarter `(sx, sy)` from the
    /// point (each -1 or 1; y grows downwards).
    Corner {
        /// -1 when the wall is to the left (west), 1 to the right.
        sx: i8,
        /// -1 when the wall is above (north), 1 below.
        sy: i8,
    },
    /// A pinch that paths may go through (under `always`).
    Pinch,
}

impl Bend {
    /// True when a segment leaving the point in direction `(dx, dy)` can be part of a taut
    /// path bending here: not strictly inside the quarter opposite the wall.
    pub const fn tangent(self, dx: i64, dy: i64) -> bool {
        match self {
            Self::Corner { sx, sy } => !(dx * (sx as i64) < 0 && dy * (sy as i64) < 0),
            Self::Pinch => true,
            Self::None => false,
        }
    }
}

/// No vertex at this grid point.
const NONE: u32 = u32::MAX;

/// The visibility graph of a map's corners under one diagonal rule (see the
/// [module documentation](self)): built once, then queried for any start and goal.
#[derive(Clone, Debug)]
pub struct VisibilityGraph {
    grid: Grid,
    space: FreeSpace,
    /// The vertices, in row-major order of their grid points.
    vertices: Vec<HalfPoint>,
    bends: Vec<Bend>,
    /// The vertex at each grid point (`(width + 1) x (height + 1)`, row-major), or `NONE`.
    at: Vec<u32>,
    /// The vertices in each square of `CLUSTER` x `CLUSTER` cells, row-major, for the
    /// searches' range queries.
    clusters: Vec<Vec<u32>>,
    clusters_across: i64,
    /// The rule, for the upper bound a query takes from Theta*.
    rule: Diagonal,
    /// Each vertex's edges (neighbour, length) in increasing neighbour order, found the first
    /// time they are asked for.
    edges: Vec<OnceLock<EdgeList>>,
}

/// A vertex's edges: (neighbour, length), in increasing neighbour order.
type EdgeList = Box<[(u32, f64)]>;

/// The side, in cells, of the squares the vertices are grouped in.
const CLUSTER: i64 = 16;

/// A shortest path found by [`VisibilityGraph::shortest_path`].
#[derive(Clone, Debug, PartialEq)]
pub struct VisibilityPath {
    /// Its length in cells, or `None` when the goal cannot be reached.
    pub cost: Option<f64>,
    /// Its vertices from the start's centre to the goal's: the corners it bends at in between.
    pub points: Vec<HalfPoint>,
    /// How many vertices A* expanded (the start and goal count).
    pub expanded: usize,
}

impl VisibilityGraph {
    /// Finds the vertices of `grid` under `rule`, in time proportional to the cells. Their
    /// edges (every pair that see each other and are tangent at both ends) are found when
    /// first asked for, a vertex at a time ([`for_each_edge`](Self::for_each_edge)); the
    /// queries ([`shortest_between`](Self::shortest_between)) look only at the vertices that
    /// can still lie on a shortest path. Terrain (cells costing more than 1) is refused: a
    /// shortest path in length ignores costs.
    pub fn new(grid: &Grid, rule: Diagonal) -> Result<Self, SearchError> {
        if grid.cells().iter().any(|&c| c > GROUND) {
            return Err(SearchError::Unsupported(
                "the visibility graph measures length only and cannot search terrain (cells costing more than 1); \
                 clear the terrain"
                    .into(),
            ));
        }
        let space = FreeSpace::new(grid, rule);
        let (w, h) = (space.width, space.height);
        let mut vertices = Vec::new();
        let mut bends = Vec::new();
        let mut at = vec![NONE; ((w + 1) * (h + 1)) as usize];
        for y in 1..h {
            for x in 1..w {
                let bend = space.bend_at(x, y);
                if bend != Bend::None {
                    at[(y * (w + 1) + x) as usize] = vertices.len() as u32;
                    vertices.push(HalfPoint::corner(x, y));
                    bends.push(bend);
                }
            }
        }
        let clusters_across = w / CLUSTER + 1;
        let mut clusters = vec![Vec::new(); (clusters_across * (h / CLUSTER + 1)) as usize];
        for (v, p) in vertices.iter().enumerate() {
            clusters[((p.y / 2 / CLUSTER) * clusters_across + p.x / 2 / CLUSTER) as usize].push(v as u32);
        }
        let edges = (0..vertices.len()).map(|_| OnceLock::new()).collect();
        Ok(Self { grid: grid.clone(), space, vertices, bends, at, clusters, clusters_across, rule, edges })
    }

    /// The grid the graph was built for.
    pub const fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The free space the graph was built for.
    pub const fn space(&self) -> &FreeSpace {
        &self.space
    }

    /// How many vertices (convex corners, and pinches under `always`).
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// How many edges (each counted once). This finds every vertex's edges, all pairs: on a
    /// 512x512 map with many walls, a minute or more. [`edges_found`](Self::edges_found)
    /// counts only those found so far.
    pub fn edge_count(&self) -> usize {
        (0..self.vertices.len() as u32).map(|v| self.edges_of(v).len()).sum::<usize>() / 2
    }

    /// How many edge ends have been found so far (each edge counts once for each of its
    /// vertices whose edges were asked for): the work done by
    /// [`for_each_edge`](Self::for_each_edge) and [`edge_count`](Self::edge_count) until now.
    pub fn edges_found(&self) -> usize {
        self.edges.iter().filter_map(OnceLock::get).map(|list| list.len()).sum()
    }

    /// Vertex `v`'s edges, found the first time.
    fn edges_of(&self, v: u32) -> &[(u32, f64)] {
        self.edges[v as usize].get_or_init(|| {
            let (i, a) = (v as usize, self.vertices[v as usize]);
            let mut list = Vec::new();
            for (j, &b) in self.vertices.iter().enumerate() {
                if j != i && self.joined(i, j) {
                    list.push((j as u32, a.distance(b)));
                }
            }
            list.into_boxed_slice()
        })
    }

    /// True when vertices `i` and `j` see each other and are tangent at both ends (the
    /// segment walked from the lower-numbered one).
    fn joined(&self, i: usize, j: usize) -> bool {
        let (i, j) = (i.min(j), i.max(j));
        let (a, b) = (self.vertices[i], self.vertices[j]);
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        self.bends[i].tangent(dx, dy) && self.bends[j].tangent(-dx, -dy) && self.space.clear(a, b)
    }

    /// Vertex `v`'s point.
    pub fn vertex(&self, v: u32) -> HalfPoint {
        self.vertices[v as usize]
    }

    /// What a path may do at vertex `v`.
    pub fn bend(&self, v: u32) -> Bend {
        self.bends[v as usize]
    }

    /// The vertex at grid point `(x, y)`, if there is one.
    pub fn vertex_at(&self, x: i64, y: i64) -> Option<u32> {
        let (w, h) = (self.space.width, self.space.height);
        if x < 0 || y < 0 || x > w || y > h {
            return None;
        }
        Some(self.at[(y * (w + 1) + x) as usize]).filter(|&v| v != NONE)
    }

    /// Calls `visit(neighbour, length)` for every edge of vertex `v`, neighbours in
    /// increasing order. The first call for a vertex finds its edges (a line-of-sight test to every other
    /// vertex tangent to it); later calls reuse them.
    pub fn for_each_edge(&self, v: u32, mut visit: impl FnMut(u32, f64)) {
        for &(w, length) in self.edges_of(v) {
            visit(w, length);
        }
    }

    /// The vertices other than `p` in sight of point `p` (a path's end) and tangent at their own
    /// end, with their distances, in increasing vertex order.
    pub fn seen_from(&self, p: HalfPoint) -> Vec<(u32, f64)> {
        let mut seen = Vec::new();
        for (v, (&q, &bend)) in self.vertices.iter().zip(&self.bends).enumerate() {
            if q != p && bend.tangent(p.x - q.x, p.y - q.y) && self.space.clear(q, p) {
                seen.push((v as u32, q.distance(p)));
            }
        }
        seen
    }

    /// The shortest path from the centre of `start` to the centre of `goal`: A* over the
    /// graph with the two ends added, the straight-line estimate, and ties broken by lowest
    /// f, then highest g, then lowest node (vertices in row-major order, then the start, then
    /// the goal). Fails when an end is outside the grid or on a wall.
    pub fn shortest_path(&self, start: Point, goal: Point) -> Result<VisibilityPath, SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.shortest_between(HalfPoint::centre(start), HalfPoint::centre(goal))
    }

    /// Checks that `p` can end a path: a cell centre of an open cell, or a grid point on the
    /// grid that touches an open cell. `which` names it in the message.
    pub fn check_end(&self, which: &'static str, p: HalfPoint) -> Result<(), SearchError> {
        let (w, h) = (2 * self.space.width, 2 * self.space.height);
        let (x, y) = (p.x.div_euclid(2), p.y.div_euclid(2));
        let fail = |why: &str| {
            let shown = p.cells();
            Err(SearchError::Unsupported(format!("the {which} ({}, {}) {why}", shown[0], shown[1])))
        };
        if !(0..=w).contains(&p.x) || !(0..=h).contains(&p.y) {
            fail("is outside the grid")
        } else if p.is_corner() {
            if !self.space.touches_open(x, y) {
                fail("is a corner of walls only")
            } else if !self.space.usable(x, y) {
                fail("is where two walls touch diagonally, which this diagonal rule does not let a path pass")
            } else {
                Ok(())
            }
        } else if p.x % 2 == 0 || p.y % 2 == 0 {
            fail("is neither a cell centre nor a cell corner")
        } else if self.space.is_open(x, y) {
            Ok(())
        } else {
            fail("is the centre of a wall")
        }
    }

    /// The shortest path between two points that are each a cell centre (of an open cell) or
    /// a cell corner (touching an open cell), as [`shortest_path`](Self::shortest_path)
    /// finds it. The tutorial's string pulling runs from corner to corner.
    pub fn shortest_between(&self, s: HalfPoint, t: HalfPoint) -> Result<VisibilityPath, SearchError> {
        self.check_end("start", s)?;
        self.check_end("goal", t)?;
        if s == t {
            return Ok(VisibilityPath { cost: Some(0.0), points: vec![s], expanded: 1 });
        }
        // No vertex farther than this (start to vertex to goal) lies on a shortest path.
        let limit = self.upper_bound(s, t) * (1.0 + 1e-12) + 1e-9;
        let n = self.vertices.len();
        let (start_node, goal_node) = (n as u32, n as u32 + 1);
        let point = |v: u32| match v {
            _ if v == start_node => s,
            _ if v == goal_node => t,
            _ => self.vertices[v as usize],
        };
        let mut g = vec![f64::INFINITY; n + 2];
        let mut parent = vec![NONE; n + 2];
        let mut closed = vec![false; n + 2];
        let mut open = BinaryHeap::new();
        g[start_node as usize] = 0.0;
        open.push(Entry { f: s.distance(t), g: 0.0, node: start_node });
        let mut expanded = 0;
        while let Some(Entry { g: gu, node: u, .. }) = open.pop() {
            if closed[u as usize] || gu > g[u as usize] {
                continue;
            }
            closed[u as usize] = true;
            expanded += 1;
            if u == goal_node {
                let mut points = vec![t];
                let mut at = u;
                while parent[at as usize] != NONE {
                    at = parent[at as usize];
                    points.push(point(at));
                }
                points.reverse();
                return Ok(VisibilityPath { cost: Some(gu), points, expanded });
            }
            let p = point(u);
            let mut relax = |v: u32, length: f64| {
                let candidate = gu + length;
                if !closed[v as usize] && candidate < g[v as usize] {
                    g[v as usize] = candidate;
                    parent[v as usize] = u;
                    open.push(Entry { f: candidate + point(v).distance(t), g: candidate, node: v });
                }
            };
            // The goal, when this end sees it (a vertex at the goal's own point does not lead
            // to it: the goal is joined to the vertices it sees, as the start is).
            let to_goal = if u == start_node {
                self.space.clear(s, t)
            } else {
                p != t && self.bends[u as usize].tangent(t.x - p.x, t.y - p.y) && self.space.clear(p, t)
            };
            if to_goal {
                relax(goal_node, p.distance(t));
            }
            // The vertices within reach: those a path through them could still be short enough.
            self.for_each_near(p, t, limit - gu, |v| {
                if closed[v as usize] || v == u {
                    return;
                }
                let q = self.vertices[v as usize];
                let length = p.distance(q);
                if gu + length + q.distance(t) > limit {
                    return;
                }
                let joined = if u == start_node {
                    q != s && self.bends[v as usize].tangent(s.x - q.x, s.y - q.y) && self.space.clear(q, s)
                } else {
                    self.joined(u as usize, v as usize)
                };
                if joined {
                    relax(v, length);
                }
            });
        }
        Ok(VisibilityPath { cost: None, points: Vec::new(), expanded })
    }
}

impl VisibilityGraph {
    /// Calls `visit` for every vertex `v` in the squares of cells (clusters) that may hold a
    /// point `q` with `|pq| + |qt| <= reach` (in cells): more vertices than that, never fewer.
    /// A cluster is passed over when its distance from `p` plus its distance from `t` is more
    /// than `reach`. An infinite `reach` visits every vertex.
    fn for_each_near(&self, p: HalfPoint, t: HalfPoint, reach: f64, mut visit: impl FnMut(u32)) {
        let (across, down) = (self.clusters_across, self.clusters.len() as i64 / self.clusters_across);
        let ([px, py], [tx, ty]) = (p.cells(), t.cells());
        // The clusters within `reach` of both ends, along one axis.
        let range = |a: f64, b: f64, last: i64| {
            if !reach.is_finite() {
                return (0, last);
            }
            let lo = (a.max(b) - reach).floor().max(0.0) as i64 / CLUSTER;
            let hi = (a.min(b) + reach).ceil().max(0.0) as i64 / CLUSTER;
            (lo.min(last + 1), hi.min(last))
        };
        let (x0, x1) = range(px, tx, across - 1);
        let (y0, y1) = range(py, ty, down - 1);
        let side = CLUSTER as f64;
        // How far a point is from the cluster's square (0 inside it).
        let apart = |x: f64, y: f64, cx: i64, cy: i64| {
            let (lx, ly) = (cx as f64 * side, cy as f64 * side);
            let dx = (lx - x).max(x - lx - side).max(0.0);
            let dy = (ly - y).max(y - ly - side).max(0.0);
            dx.hypot(dy)
        };
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                if reach.is_finite() && apart(px, py, cx, cy) + apart(tx, ty, cx, cy) > reach {
                    continue;
                }
                for &v in &self.clusters[(cy * across + cx) as usize] {
                    visit(v);
                }
            }
        }
    }

    /// The length of some path from `s` to `t` that keeps to the rule, so no shorter than the
    /// shortest: Theta*'s, from the centre of a cell at each end (a corner end adds the half
    /// diagonal to the centre of an open cell it touches). Infinite when Theta* finds none.
    fn upper_bound(&self, s: HalfPoint, t: HalfPoint) -> f64 {
        let cell = |p: HalfPoint| -> Option<(Point, f64)> {
            if !p.is_corner() {
                return Some((Point::new((p.x / 2) as usize, (p.y / 2) as usize), 0.0));
            }
            let (x, y) = (p.x / 2, p.y / 2);
            let [nw, ne, sw, se] = self.space.around(x, y);
            let (cx, cy) = [(nw, x - 1, y - 1), (ne, x, y - 1), (sw, x - 1, y), (se, x, y)]
                .into_iter()
                .find_map(|(open, cx, cy)| open.then_some((cx, cy)))?;
            Some((Point::new(cx as usize, cy as usize), 0.5f64.sqrt()))
        };
        let (Some((a, from_s)), Some((b, to_t))) = (cell(s), cell(t)) else {
            return f64::INFINITY;
        };
        let config = SearchConfig::new(Algorithm::Theta).diagonal(self.rule);
        let Ok(mut theta) = ThetaStar::new(self.grid.clone(), a, b, config) else {
            return f64::INFINITY;
        };
        theta.run();
        theta.cost().map_or(f64::INFINITY, |c| c + from_s + to_t)
    }
}

/// An open-list entry: lowest f first, then highest g, then lowest node.
#[derive(Clone, Copy, Debug)]
struct Entry {
    f: f64,
    g: f64,
    node: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: reverse f and node, keep g.
        other.f.total_cmp(&self.f).then(self.g.total_cmp(&other.g)).then(other.node.cmp(&self.node))
    }
}

/// The exact any-angle shortest path from the centre of `start` to the centre of `goal` on
/// `grid` under `rule`: builds the [`VisibilityGraph`] and runs one query. To run many
/// queries on one map, build the graph once and call
/// [`shortest_path`](VisibilityGraph::shortest_path) on it.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::search::visibility::shortest_path;
/// let grid = Grid::new(8, 5).unwrap();
/// let found = shortest_path(&grid, Point::new(0, 0), Point::new(7, 3), Diagonal::Never).unwrap();
/// assert_eq!(found.cost, Some(58f64.sqrt())); // open ground: the straight line
/// ```
pub fn shortest_path(grid: &Grid, start: Point, goal: Point, rule: Diagonal) -> Result<VisibilityPath, SearchError> {
    VisibilityGraph::new(grid, rule)?.shortest_path(start, goal)
}
