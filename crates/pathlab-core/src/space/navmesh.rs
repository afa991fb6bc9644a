//! A navigation mesh: convex polygons that cover exactly the free cells of a grid map,
//! joined by portals (the edges two polygons share).
//!
//! # The geometry
//!
//! Cell `(x, y)` is the closed square `[x, x+1] x [y, y+1]`, as in [`sight`](crate::search::sight).
//! The free region is the union of the open cells' squares; cells outside the grid count as
//! walls. The mesh's polygons are convex, do not overlap, and their union is exactly the free
//! region, so their areas sum to the number of open cells. Every vertex is a grid corner
//! (whole coordinates), so each polygon is given by corner numbers into
//! [`NavMesh::vertices`] and every test on them is exact.
//!
//! Polygons are listed with positive orientation: walking round one, `cross(b - a, c - b)`
//! is never negative (with y pointing down the rows, as on screen, that is clockwise). A
//! [`Portal`] seen from its polygon has a `left` and a `right` end for someone stepping
//! through it, on screen: for the polygon's edge `a -> b` the portal runs from `left = a`
//! to `right = b`.
//!
//! # Diagonal-only contacts
//!
//! Where two open cells touch only at a corner (the other two cells at that corner are
//! walls), the polygons on either side share that corner and nothing else. Whether a path may
//! pass through that single point is the diagonal rule's choice, as it is for a line of sight
//! in [`sight`](crate::search::sight):
//!
//! - `never`, `no-corner-cutting` and `at-most-one-blocked`: no. A line may not slip between
//!   two walls that touch diagonally, so no portal joins the two sides there.
//! - `always`: yes. A *point portal* (its `left` and `right` are the same corner) joins one
//!   polygon on each side, so a path can pass exactly through the corner.
//!
//! Elsewhere the mesh is the same under every rule. A path through it may touch the corner
//! of a wall (the shortest way round an obstacle bends at its corners), which the grid's own
//! moves under `no-corner-cutting` would not do: the navmesh is the continuous plane's view.
//!
//! # The build
//!
//! 1. The boundary of the free region is traced along cell edges, and collinear cell edges
//!    are merged into long edges (broken only where the boundary turns or meets another
//!    edge), so the triangulation stays small.
//! 2. Those edges are the constraints of a constrained Delaunay triangulation of their end
//!    points, computed by the [`spade`] crate.
//! 3. A triangle is kept when it lies in the free region: no constraint crosses it, so its
//!    centroid decides.
//! 4. Triangles are merged greedily into convex polygons (Hertel and Mehlhorn's rule: an edge
//!    between two polygons is removed when both corners where it ends stay convex), longest
//!    shared edges first.
//!
//! [`NavMesh::build_rectangles`] covers the same region without triangulating: each row's
//! runs of open cells, stacked into rectangles while the run below spans the same columns,
//! with the ends of every portal made corners of both rectangles. It takes time in
//! proportion to the cells, several times less than the triangulation on maps with many
//! small walls (mazes, random maps), for rebuilding as walls are painted; its portals are
//! all horizontal, so its corridors are a little worse (see [`NavMesh::build_micros`] and
//! the `navmesh` benchmark).
//!
//! [`NavMesh::build_auto`], which the page and the command line use, picks between the two
//! by the boundary's corner count (the triangulation's cost grows with it): up to
//! [`TRIANGULATE_UP_TO_CORNERS`] it triangulates, above it stacks rectangles, and
//! [`NavMesh::build_kind`] says which it did.
//!
//! ```
//! use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
//! use pathlab_core::space::navmesh::NavMesh;
//! // A 3x3 room with a pillar in the middle: a square ring of 8 cells.
//! let mut grid = Grid::new(3, 3).unwrap();
//! grid.set(Point::new(1, 1), WALL).unwrap();
//! let mesh = NavMesh::build(&grid, Diagonal::NoCornerCutting).unwrap();
//! let area: f64 = (0..mesh.polygon_count() as u32).map(|p| mesh.area(p)).sum();
//! assert_eq!(area, 8.0);
//! // The pillar is in no polygon; the cell centre beside it is.
//! assert_eq!(mesh.locate([1.5, 1.5]), None);
//! assert!(mesh.locate([0.5, 1.5]).is_some());
//! ```

use std::collections::HashMap;
use std::fmt;

use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use crate::grid::{Diagonal, Grid, GROUND, WALL};
use crate::search::hpa::Clock;

/// A point in the plane of the map: `[x, y]` in cell units (cell `(x, y)` spans
/// `[x, x+1] x [y, y+1]`; its centre is `[x + 0.5, y + 0.5]`).
pub type Xy = [f64; 2];

/// The most boundary corners [`NavMesh::build_auto`] triangulates; above it, it stacks
/// rectangles. The triangulation's time grows with the corners (about 3 µs a corner in
/// WebAssembly in Chromium on the 512 x 512 `rooms` maps, about 100 ms at their 35,000
/// corners), the rectangles' with the cells (under 25 ms for 512 x 512), so this keeps every
/// build of a 512 x 512 map well under 100 ms.
pub const TRIANGULATE_UP_TO_CORNERS: usize = 24_000;

/// How a mesh was built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NavBuild {
    /// The boundary's constrained Delaunay triangulation, merged into convex polygons
    /// ([`NavMesh::build`]).
    Triangulated,
    /// Rows' runs of open cells stacked into rectangles ([`NavMesh::build_rectangles`]).
    Rectangles,
}

impl NavBuild {
    /// `"triangulated"` or `"rectangles"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Triangulated => "triangulated",
            Self::Rectangles => "rectangles",
        }
    }
}

impl fmt::Display for NavBuild {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The side, in cells, of the buckets that [`NavMesh::locate`] looks in.
const BUCKET: usize = 8;

/// A way from one polygon into another, seen from the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Portal {
    /// The polygon on the other side.
    pub to: u32,
    /// The corner on the left of someone stepping through (a number into
    /// [`NavMesh::vertices`]).
    pub left: u32,
    /// The corner on the right. Equal to `left` for a point portal (a diagonal-only contact
    /// under the `always` rule).
    pub right: u32,
}

/// One convex polygon of the mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    /// Its corners (numbers into [`NavMesh::vertices`]), with positive orientation.
    pub corners: Vec<u32>,
    /// Its portals, in the order of its edges (point portals last).
    pub portals: Vec<Portal>,
}

/// Why a navmesh could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum NavmeshError {
    /// Every cell is a wall: there is nothing to cover.
    NoFreeSpace,
    /// The map has terrain (cells costing more than 1), which a navmesh does not weigh.
    Terrain,
    /// The triangulation refused the traced boundary (a bug, reported rather than hidden).
    Triangulation(String),
    /// A search's start or goal lies in no polygon: in a wall, outside the map, or not a
    /// finite point.
    OffMesh {
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// The point given.
        at: Xy,
    },
}

impl fmt::Display for NavmeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoFreeSpace => f.write_str("the map has no free cell, so the navmesh is empty"),
            Self::Terrain => f.write_str(
                "a navmesh cannot weigh terrain (cells costing more than 1): its polygons span \
                 cells of different costs; clear the terrain or search the grid",
            ),
            Self::Triangulation(why) => write!(f, "the navmesh triangulation failed: {why}"),
            Self::OffMesh { which, at } => write!(
                f,
                "the {which} [{}, {}] is in no polygon of the navmesh: it is in a wall or outside the map",
                at[0], at[1]
            ),
        }
    }
}

impl std::error::Error for NavmeshError {}

/// Convex polygons covering the free cells of a grid, joined by portals. See the [module
/// documentation](self).
#[derive(Clone, Debug)]
pub struct NavMesh {
    width: usize,
    height: usize,
    diagonal: Diagonal,
    vertices: Vec<Xy>,
    polygons: Vec<Polygon>,
    /// Buckets of `BUCKET` x `BUCKET` cells, row-major, each listing the polygons whose
    /// bounding box meets it.
    buckets: Vec<Vec<u32>>,
    buckets_across: usize,
    build_micros: Option<f64>,
    build: NavBuild,
}

impl NavMesh {
    /// Builds the mesh of `grid`'s open cells under the diagonal rule `diagonal` (which only
    /// decides the point portals, see the [module documentation](self)): the boundary
    /// traced into long edges, their constrained Delaunay triangulation (by the [`spade`]
    /// crate), and the triangles merged into convex polygons. Its polygons follow the walls
    /// at any angle, so A* over them picks good corridors; on maps with many small walls
    /// [`build_rectangles`](Self::build_rectangles) is several times faster.
    ///
    /// Fails when no cell is open or the grid has terrain.
    pub fn build(grid: &Grid, diagonal: Diagonal) -> Result<Self, NavmeshError> {
        let clock = Clock::start();
        check_cells(grid)?;
        let free = Free(grid);
        let (corners, edges) = trace_boundary(&free);
        Self::triangulated(&free, diagonal, &corners, &edges, &clock)
    }

    /// Builds the mesh the page and the command line use: [`build`](Self::build)'s
    /// triangulation when the free region's boundary has at most
    /// [`TRIANGULATE_UP_TO_CORNERS`] corners, [`build_rectangles`](Self::build_rectangles)'
    /// rectangles above that (the maze-like and scattered-wall maps, where triangulating
    /// costs hundreds of milliseconds). [`build_kind`](Self::build_kind) says which it was.
    ///
    /// Fails when no cell is open or the grid has terrain.
    ///
    /// ```
    /// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
    /// use pathlab_core::space::navmesh::{NavBuild, NavMesh, TRIANGULATE_UP_TO_CORNERS};
    /// // A room with one pillar: 8 boundary corners, triangulated.
    /// let mut room = Grid::new(5, 5).unwrap();
    /// room.set(Point::new(2, 2), WALL).unwrap();
    /// assert_eq!(NavMesh::build_auto(&room, Diagonal::Never).unwrap().build_kind(), NavBuild::Triangulated);
    /// // A pillar on every other cell of every other row: 4 corners each, too many.
    /// let mut pillars = Grid::new(200, 200).unwrap();
    /// for y in (1..200).step_by(2) {
    ///     for x in (1..200).step_by(2) {
    ///         pillars.set(Point::new(x, y), WALL).unwrap();
    ///     }
    /// }
    /// assert!(4 * 100 * 100 > TRIANGULATE_UP_TO_CORNERS);
    /// assert_eq!(NavMesh::build_auto(&pillars, Diagonal::Never).unwrap().build_kind(), NavBuild::Rectangles);
    /// ```
    pub fn build_auto(grid: &Grid, diagonal: Diagonal) -> Result<Self, NavmeshError> {
        let clock = Clock::start();
        check_cells(grid)?;
        let free = Free(grid);
        let (corners, edges) = trace_boundary(&free);
        if corners.len() <= TRIANGULATE_UP_TO_CORNERS {
            return Self::triangulated(&free, diagonal, &corners, &edges, &clock);
        }
        let (vertices, polygons) = stack_runs(&free);
        Ok(Self::finish(&free, diagonal, vertices, polygons, NavBuild::Rectangles, &clock))
    }

    /// The triangulated mesh of a traced boundary.
    fn triangulated(
        free: &Free<'_>,
        diagonal: Diagonal,
        corners: &[[i32; 2]],
        edges: &[[usize; 2]],
        clock: &Clock,
    ) -> Result<Self, NavmeshError> {
        let triangles = triangulate(free, corners, edges)?;
        let polygons = merge_convex(corners, &triangles);
        let vertices = corners.iter().map(|&[x, y]| [f64::from(x), f64::from(y)]).collect();
        Ok(Self::finish(free, diagonal, vertices, polygons, NavBuild::Triangulated, clock))
    }

    /// Builds a mesh of the same free region as [`build`](Self::build), made of rectangles:
    /// each row's runs of open cells, a run stacked onto the one above while it spans the
    /// same columns, joined by portals where one rectangle ends on a grid line and another
    /// begins. No triangulation: its time is proportional to the number of cells (a few
    /// milliseconds for 512x512), for rebuilding as walls are painted. Its polygon count is
    /// close to [`build`](Self::build)'s, but its polygons are long and thin and its portals
    /// all horizontal, so A* over it may pick a corridor whose funnel path is a little longer
    /// (on the MovingAI benchmark maps, up to about 2 % over the exact optimum, against about
    /// 1 % for the triangulated mesh).
    ///
    /// Fails when no cell is open or the grid has terrain.
    ///
    /// ```
    /// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
    /// use pathlab_core::space::navmesh::NavMesh;
    /// // . . .
    /// // . # .
    /// let mut grid = Grid::new(3, 2).unwrap();
    /// grid.set(Point::new(1, 1), WALL).unwrap();
    /// let mesh = NavMesh::build_rectangles(&grid, Diagonal::Never).unwrap();
    /// assert_eq!(mesh.polygon_count(), 3); // the top row, and a cell on each side below it
    /// assert_eq!(mesh.polygon(0).portals.len(), 2);
    /// ```
    pub fn build_rectangles(grid: &Grid, diagonal: Diagonal) -> Result<Self, NavmeshError> {
        let clock = Clock::start();
        check_cells(grid)?;
        let free = Free(grid);
        let (vertices, polygons) = stack_runs(&free);
        Ok(Self::finish(&free, diagonal, vertices, polygons, NavBuild::Rectangles, &clock))
    }

    /// The mesh from its polygons: point portals under `always`, the buckets, the build time.
    fn finish(
        free: &Free<'_>,
        diagonal: Diagonal,
        vertices: Vec<Xy>,
        polygons: Vec<Polygon>,
        build: NavBuild,
        clock: &Clock,
    ) -> Self {
        let grid = free.0;
        let mut mesh = Self {
            width: grid.width(),
            height: grid.height(),
            diagonal,
            vertices,
            polygons,
            buckets: Vec::new(),
            buckets_across: grid.width().div_ceil(BUCKET),
            build_micros: None,
            build,
        };
        if diagonal == Diagonal::Always {
            mesh.link_diagonal_contacts(free);
        }
        mesh.fill_buckets();
        mesh.build_micros = clock.elapsed().map(|d| d.as_secs_f64() * 1e6);
        mesh
    }

    /// The map's width in cells.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The map's height in cells.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The diagonal rule the mesh was built under.
    pub fn diagonal(&self) -> Diagonal {
        self.diagonal
    }

    /// Every corner used by a polygon, as `[x, y]` (whole numbers).
    pub fn vertices(&self) -> &[Xy] {
        &self.vertices
    }

    /// The polygons.
    pub fn polygons(&self) -> &[Polygon] {
        &self.polygons
    }

    /// How many polygons there are.
    pub fn polygon_count(&self) -> usize {
        self.polygons.len()
    }

    /// Polygon `p`.
    pub fn polygon(&self, p: u32) -> &Polygon {
        &self.polygons[p as usize]
    }

    /// The place of corner `v`.
    #[inline]
    pub fn vertex(&self, v: u32) -> Xy {
        self.vertices[v as usize]
    }

    /// How long the build took, in microseconds; `None` in WebAssembly, which has no clock
    /// of its own (the page times the build there).
    pub fn build_micros(&self) -> Option<f64> {
        self.build_micros
    }

    /// How the mesh was built.
    pub fn build_kind(&self) -> NavBuild {
        self.build
    }

    /// The area of polygon `p`.
    pub fn area(&self, p: u32) -> f64 {
        let c = &self.polygons[p as usize].corners;
        let mut twice = 0.0;
        for (i, &a) in c.iter().enumerate() {
            let (a, b) = (self.vertex(a), self.vertex(c[(i + 1) % c.len()]));
            twice += a[0] * b[1] - a[1] * b[0];
        }
        twice / 2.0
    }

    /// The middle of a portal.
    #[inline]
    pub fn portal_middle(&self, portal: &Portal) -> Xy {
        let (l, r) = (self.vertex(portal.left), self.vertex(portal.right));
        [f64::midpoint(l[0], r[0]), f64::midpoint(l[1], r[1])]
    }

    /// The point of a portal where the way from `from` to `to` through it is shortest: where
    /// the navmesh A* measures its way through the portal. It is the point `x` of the portal
    /// that makes `|from - x| + |x - to|` least: where the straight line from `from` to `to`
    /// (or to `to`'s mirror image, when both lie on one side of the portal's line) crosses the
    /// portal's line, moved along the line to the nearer end if it falls outside the portal
    /// (the sum is convex along the line, so that is the least on the portal).
    ///
    /// ```
    /// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
    /// use pathlab_core::space::navmesh::NavMesh;
    /// // . . .   the top row is one rectangle; below it a cell on each side,
    /// // . # .   the left one behind the portal from (0, 1) to (1, 1)
    /// let mut grid = Grid::new(3, 2).unwrap();
    /// grid.set(Point::new(1, 1), WALL).unwrap();
    /// let mesh = NavMesh::build_rectangles(&grid, Diagonal::Never).unwrap();
    /// let top = mesh.locate([1.5, 0.5]).unwrap();
    /// let left = mesh.locate([0.5, 1.5]).unwrap();
    /// let portal = mesh.polygon(top).portals.iter().find(|p| p.to == left).unwrap();
    /// // The line from (0.2, 0.5) to (0.5, 1.5) crosses y = 1 at x = 0.35, inside the portal.
    /// let x = mesh.portal_point(portal, [0.2, 0.5], [0.5, 1.5]);
    /// assert!((x[0] - 0.35).abs() < 1e-12 && x[1] == 1.0);
    /// // From (2.5, 0.5) it crosses at x = 1.5, past the portal's end: the end (1, 1).
    /// assert_eq!(mesh.portal_point(portal, [2.5, 0.5], [0.5, 1.5]), [1.0, 1.0]);
    /// ```
    pub fn portal_point(&self, portal: &Portal, from: Xy, to: Xy) -> Xy {
        let (l, r) = (self.vertex(portal.left), self.vertex(portal.right));
        let d = [r[0] - l[0], r[1] - l[1]];
        let cross = |a: Xy, b: Xy| a[0] * b[1] - a[1] * b[0];
        let rel = |p: Xy| [p[0] - l[0], p[1] - l[1]];
        let length_sq = d[0] * d[0] + d[1] * d[1];
        if length_sq == 0.0 {
            return l;
        }
        // `to`, mirrored across the portal's line when it lies on `from`'s side.
        let mut target = to;
        if cross(d, rel(from)) * cross(d, rel(to)) > 0.0 {
            let t = (rel(to)[0] * d[0] + rel(to)[1] * d[1]) / length_sq;
            let foot = [l[0] + t * d[0], l[1] + t * d[1]];
            target = [2.0 * foot[0] - to[0], 2.0 * foot[1] - to[1]];
        }
        let e = [target[0] - from[0], target[1] - from[1]];
        let across = cross(d, e);
        let t = if across == 0.0 {
            // Both on the portal's line: any point between them will do; take from's foot.
            (rel(from)[0] * d[0] + rel(from)[1] * d[1]) / length_sq
        } else {
            cross(rel(from), e) / across
        };
        let t = t.clamp(0.0, 1.0);
        [l[0] + t * d[0], l[1] + t * d[1]]
    }

    /// True when `at` lies in polygon `p` (its edges and corners included).
    pub fn contains(&self, p: u32, at: Xy) -> bool {
        let c = &self.polygons[p as usize].corners;
        (0..c.len()).all(|i| {
            let (a, b) = (self.vertex(c[i]), self.vertex(c[(i + 1) % c.len()]));
            (b[0] - a[0]) * (at[1] - a[1]) - (b[1] - a[1]) * (at[0] - a[0]) >= 0.0
        })
    }

    /// The lowest-numbered polygon that contains `at`, or `None` when the point is in a wall,
    /// outside the map or not a finite point.
    ///
    /// ```
    /// use pathlab_core::grid::{Diagonal, Grid};
    /// use pathlab_core::space::navmesh::NavMesh;
    /// let mesh = NavMesh::build(&Grid::new(4, 2).unwrap(), Diagonal::NoCornerCutting).unwrap();
    /// assert_eq!(mesh.polygon_count(), 1); // an open rectangle is one polygon
    /// assert_eq!(mesh.locate([3.5, 1.5]), Some(0));
    /// assert_eq!(mesh.locate([4.5, 1.5]), None);
    /// ```
    pub fn locate(&self, at: Xy) -> Option<u32> {
        let inside = |v: f64, side: usize| v.is_finite() && v >= 0.0 && v <= side as f64;
        if !inside(at[0], self.width) || !inside(at[1], self.height) {
            return None;
        }
        let bucket = self.bucket_of(at[0], at[1]);
        self.buckets[bucket].iter().copied().find(|&p| self.contains(p, at))
    }

    fn bucket_of(&self, x: f64, y: f64) -> usize {
        let across = self.buckets_across;
        let down = self.height.div_ceil(BUCKET);
        let bx = ((x as usize) / BUCKET).min(across - 1);
        let by = ((y as usize) / BUCKET).min(down - 1);
        by * across + bx
    }

    fn fill_buckets(&mut self) {
        let (across, down) = (self.buckets_across, self.height.div_ceil(BUCKET));
        let mut buckets = vec![Vec::new(); across * down];
        for (p, poly) in self.polygons.iter().enumerate() {
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for &v in &poly.corners {
                let at = self.vertices[v as usize];
                for k in 0..2 {
                    lo[k] = lo[k].min(at[k]);
                    hi[k] = hi[k].max(at[k]);
                }
            }
            let first = self.bucket_of(lo[0], lo[1]);
            let last = self.bucket_of(hi[0], hi[1]);
            for by in first / across..=last / across {
                for bx in first % across..=last % across {
                    buckets[by * across + bx].push(p as u32);
                }
            }
        }
        self.buckets = buckets;
    }

    /// Under `always`: a point portal at each corner where two open cells touch only
    /// diagonally, between the lowest-numbered polygon on each side.
    fn link_diagonal_contacts(&mut self, free: &Free<'_>) {
        let number: HashMap<[i32; 2], u32> =
            self.vertices.iter().enumerate().map(|(i, &[x, y])| ([x as i32, y as i32], i as u32)).collect();
        let mut at_corner: HashMap<u32, Vec<u32>> = HashMap::new();
        for (p, poly) in self.polygons.iter().enumerate() {
            for &v in &poly.corners {
                at_corner.entry(v).or_default().push(p as u32);
            }
        }
        for y in 1..self.height as i32 {
            for x in 1..self.width as i32 {
                let (nw, ne, sw, se) = (free.at(x - 1, y - 1), free.at(x, y - 1), free.at(x - 1, y), free.at(x, y));
                // The two directions (from the corner) of the open cells that touch there.
                let sides = if nw && se && !ne && !sw {
                    [[-1.0, -1.0], [1.0, 1.0]]
                } else if ne && sw && !nw && !se {
                    [[1.0, -1.0], [-1.0, 1.0]]
                } else {
                    continue;
                };
                let v = number[&[x, y]];
                let corner = self.vertex(v);
                let pick = |dir: [f64; 2]| {
                    at_corner[&v].iter().copied().find(|&p| {
                        let c = self.centroid(p);
                        (c[0] - corner[0]) * dir[0] > 0.0 && (c[1] - corner[1]) * dir[1] > 0.0
                    })
                };
                if let (Some(a), Some(b)) = (pick(sides[0]), pick(sides[1])) {
                    self.polygons[a as usize].portals.push(Portal { to: b, left: v, right: v });
                    self.polygons[b as usize].portals.push(Portal { to: a, left: v, right: v });
                }
            }
        }
    }

    /// The mean of polygon `p`'s corners (a point inside it).
    pub fn centroid(&self, p: u32) -> Xy {
        let c = &self.polygons[p as usize].corners;
        let mut sum = [0.0, 0.0];
        for &v in c {
            let at = self.vertex(v);
            sum[0] += at[0];
            sum[1] += at[1];
        }
        [sum[0] / c.len() as f64, sum[1] / c.len() as f64]
    }
}

/// Which cells are open, with everything outside the grid a wall.
struct Free<'g>(&'g Grid);

impl Free<'_> {
    #[inline]
    fn at(&self, x: i32, y: i32) -> bool {
        let g = self.0;
        x >= 0 && y >= 0 && (x as usize) < g.width() && (y as usize) < g.height() && {
            g.cells()[y as usize * g.width() + x as usize] != WALL
        }
    }

    /// The horizontal cell edge from `(x, y)` to `(x+1, y)` separates open from closed.
    #[inline]
    fn across(&self, x: i32, y: i32) -> bool {
        self.at(x, y - 1) != self.at(x, y)
    }

    /// The vertical cell edge from `(x, y)` to `(x, y+1)` separates open from closed.
    #[inline]
    fn down(&self, x: i32, y: i32) -> bool {
        self.at(x - 1, y) != self.at(x, y)
    }

    /// How many boundary edges meet at corner `[x, y]`.
    fn degree(&self, [x, y]: [i32; 2]) -> usize {
        [self.across(x - 1, y), self.across(x, y), self.down(x, y - 1), self.down(x, y)]
            .into_iter()
            .filter(|&b| b)
            .count()
    }
}

/// Refuses grids a navmesh cannot cover: terrain, or no open cell.
fn check_cells(grid: &Grid) -> Result<(), NavmeshError> {
    if grid.cells().iter().any(|&c| c > GROUND) {
        return Err(NavmeshError::Terrain);
    }
    if grid.cells().iter().all(|&c| c == WALL) {
        return Err(NavmeshError::NoFreeSpace);
    }
    Ok(())
}

/// A rectangle of open cells: columns `x0..x1`, rows `top..bottom`.
#[derive(Clone, Copy)]
struct Rect {
    x0: i32,
    x1: i32,
    top: i32,
    bottom: i32,
}

/// Where a rectangle that ends on a grid line meets one that begins on it: columns
/// `lo..hi` of that line.
#[derive(Clone, Copy)]
struct Contact {
    upper: u32,
    lower: u32,
    lo: i32,
    hi: i32,
}

/// The rectangles of a grid's free cells, from [`stack_rectangles`].
struct Stack {
    rects: Vec<Rect>,
    /// The rectangles in the order they end (by line, then column).
    ended: Vec<u32>,
    /// Where each line's rectangles begin in `ended` (those ending there) and in `rects`
    /// (those beginning there); one more entry than lines.
    ended_from: Vec<usize>,
    begun_from: Vec<usize>,
}

/// Each row's maximal runs of open cells, a run going on down the rows while the row below
/// has the very same run.
fn stack_rectangles(grid: &Grid) -> Stack {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let mut rects: Vec<Rect> = Vec::new();
    let mut ended: Vec<u32> = Vec::new();
    let mut ended_from = vec![0usize; h as usize + 2];
    let mut begun_from = vec![0usize; h as usize + 2];
    let (mut active, mut next): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
    for y in 0..=h {
        ended_from[y as usize] = ended.len();
        begun_from[y as usize] = rects.len();
        let row = if y < h { &grid.cells()[(y * w) as usize..((y + 1) * w) as usize] } else { &[][..] };
        let mut i = 0;
        let mut x = 0;
        while x < row.len() {
            if row[x] == WALL {
                x += 1;
                continue;
            }
            let x0 = x as i32;
            while x < row.len() && row[x] != WALL {
                x += 1;
            }
            let x1 = x as i32;
            while i < active.len() && rects[active[i] as usize].x0 < x0 {
                rects[active[i] as usize].bottom = y;
                ended.push(active[i]);
                i += 1;
            }
            if i < active.len() && rects[active[i] as usize].x0 == x0 && rects[active[i] as usize].x1 == x1 {
                next.push(active[i]);
                i += 1;
            } else {
                next.push(rects.len() as u32);
                rects.push(Rect { x0, x1, top: y, bottom: y + 1 });
            }
        }
        for &r in &active[i..] {
            rects[r as usize].bottom = y;
            ended.push(r);
        }
        std::mem::swap(&mut active, &mut next);
        next.clear();
    }
    ended_from[h as usize + 1] = ended.len();
    begun_from[h as usize + 1] = rects.len();
    Stack { rects, ended, ended_from, begun_from }
}

/// Each rectangle's contacts along one side: a range of the contact list (they are
/// consecutive there).
type Sides = Vec<(u32, u32)>;

/// Where rectangles meet, line by line in column order, with each rectangle's top and bottom
/// contacts.
fn find_contacts(stack: &Stack) -> (Vec<Contact>, Sides, Sides) {
    let Stack { rects, ended, ended_from, begun_from } = stack;
    let mut contacts: Vec<Contact> = Vec::new();
    let mut tops = vec![(0u32, 0u32); rects.len()];
    let mut bottoms = vec![(0u32, 0u32); rects.len()];
    for y in 1..ended_from.len() - 2 {
        let above = &ended[ended_from[y]..ended_from[y + 1]];
        let below = begun_from[y] as u32..begun_from[y + 1] as u32;
        let (mut i, mut lower) = (0, below.start);
        while i < above.len() && lower < below.end {
            let upper = above[i];
            let (a, b) = (rects[upper as usize], rects[lower as usize]);
            let (lo, hi) = (a.x0.max(b.x0), a.x1.min(b.x1));
            if lo < hi {
                let k = contacts.len() as u32;
                for range in [&mut bottoms[upper as usize], &mut tops[lower as usize]] {
                    if range.0 == range.1 {
                        range.0 = k;
                    }
                    range.1 = k + 1;
                }
                contacts.push(Contact { upper, lower, lo, hi });
            }
            if a.x1 <= b.x1 {
                i += 1;
            } else {
                lower += 1;
            }
        }
    }
    (contacts, tops, bottoms)
}

/// The free region as rectangles (each row's maximal runs of open cells, a run going on
/// down the rows while the row below has the very same run) and their polygons.
///
/// Rectangles touch only along horizontal lines (side by side, two runs of one row would be
/// one run). Where one ends and another begins on a line and their columns overlap, the
/// overlap is a portal; its ends become corners of both (in the middle of a side they go
/// straight on), so that every shared edge is an edge of both polygons.
fn stack_runs(free: &Free<'_>) -> (Vec<Xy>, Vec<Polygon>) {
    let grid = free.0;
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let stack = stack_rectangles(grid);
    let (contacts, tops, bottoms) = find_contacts(&stack);
    let rects = stack.rects;
    // The polygons, each corner numbered when first met.
    let mut number = vec![NONE; (w as usize + 1) * (h as usize + 1)];
    let mut vertices: Vec<Xy> = Vec::new();
    let mut corner = |x: i32, y: i32| {
        let slot = &mut number[y as usize * (w as usize + 1) + x as usize];
        if *slot == NONE {
            *slot = vertices.len() as u32;
            vertices.push([f64::from(x), f64::from(y)]);
        }
        *slot
    };
    let polygons = rects
        .iter()
        .enumerate()
        .map(|(r, rect)| {
            let Rect { x0, x1, top, bottom } = *rect;
            let (top_contacts, bottom_contacts) = (tops[r], bottoms[r]);
            let mut corners = vec![corner(x0, top)];
            let mut portals = Vec::new();
            // Along the top, left to right: portals run from left = lo to right = hi.
            for c in &contacts[top_contacts.0 as usize..top_contacts.1 as usize] {
                let (lo, hi) = (corner(c.lo, top), corner(c.hi, top));
                if c.lo > x0 && *corners.last().unwrap_or(&NONE) != lo {
                    corners.push(lo);
                }
                portals.push(Portal { to: c.upper, left: lo, right: hi });
                if c.hi < x1 {
                    corners.push(hi);
                }
            }
            corners.push(corner(x1, top));
            corners.push(corner(x1, bottom));
            // Along the bottom, right to left: from hi to lo.
            for c in contacts[bottom_contacts.0 as usize..bottom_contacts.1 as usize].iter().rev() {
                let (lo, hi) = (corner(c.lo, bottom), corner(c.hi, bottom));
                if c.hi < x1 && *corners.last().unwrap_or(&NONE) != hi {
                    corners.push(hi);
                }
                portals.push(Portal { to: c.lower, left: hi, right: lo });
                if c.lo > x0 {
                    corners.push(lo);
                }
            }
            corners.push(corner(x0, bottom));
            Polygon { corners, portals }
        })
        .collect();
    (vertices, polygons)
}

/// The boundary of the free region as corners and edges between them (numbers into the
/// corners), each edge a maximal run of collinear cell edges that no other boundary edge
/// meets inside.
fn trace_boundary(free: &Free<'_>) -> (Vec<[i32; 2]>, Vec<[usize; 2]>) {
    let (w, h) = (free.0.width() as i32, free.0.height() as i32);
    // Each grid corner's number, once it has one (a dense table: faster than hashing).
    let mut number = vec![usize::MAX; (w as usize + 1) * (h as usize + 1)];
    let mut corners = Vec::new();
    let mut edges = Vec::new();
    let mut corner = |c: [i32; 2]| {
        let slot = &mut number[c[1] as usize * (w as usize + 1) + c[0] as usize];
        if *slot == usize::MAX {
            *slot = corners.len();
            corners.push(c);
        }
        *slot
    };
    // A run goes on through a corner only where it is the sole pair of edges meeting there.
    // Rows of horizontal edges first (along the line y = `line`), then columns of vertical
    // ones (x = `line`); `k` counts cells along the line.
    for horizontal in [true, false] {
        let (lines, length) = if horizontal { (h, w) } else { (w, h) };
        for line in 0..=lines {
            let place = |k: i32| if horizontal { [k, line] } else { [line, k] };
            let edge = |k: i32| if horizontal { free.across(k, line) } else { free.down(line, k) };
            let mut k = 0;
            while k < length {
                if !edge(k) {
                    k += 1;
                    continue;
                }
                let begin = k;
                k += 1;
                while k < length && edge(k) && free.degree(place(k)) == 2 {
                    k += 1;
                }
                edges.push([corner(place(begin)), corner(place(k))]);
            }
        }
    }
    (corners, edges)
}

/// The triangles of the free region, as half-edges: half-edge `3t + k` of triangle `t` runs
/// from its `k`-th corner to the next, with positive orientation.
struct Triangles {
    /// Each half-edge's first corner.
    from: Vec<u32>,
    /// The half-edge of the neighbouring free triangle that runs the other way, or [`NONE`]
    /// on the boundary.
    twin: Vec<u32>,
}

/// No half-edge.
const NONE: u32 = u32::MAX;

/// The triangles of the constrained Delaunay triangulation of the boundary's corners that
/// lie in the free region.
fn triangulate(free: &Free<'_>, corners: &[[i32; 2]], edges: &[[usize; 2]]) -> Result<Triangles, NavmeshError> {
    let points: Vec<Point2<f64>> = corners.iter().map(|&[x, y]| Point2::new(f64::from(x), f64::from(y))).collect();
    let mut conflicts = 0usize;
    let cdt: ConstrainedDelaunayTriangulation<Point2<f64>> =
        ConstrainedDelaunayTriangulation::try_bulk_load_cdt(points, edges.to_vec(), |_| conflicts += 1)
            .map_err(|e| NavmeshError::Triangulation(e.to_string()))?;
    if conflicts > 0 || cdt.num_vertices() != corners.len() {
        return Err(NavmeshError::Triangulation(format!(
            "{conflicts} boundary edges crossed, {} of {} corners kept",
            cdt.num_vertices(),
            corners.len()
        )));
    }
    // Our half-edge for each of spade's directed edges that borders a kept triangle.
    let mut ours = vec![NONE; cdt.num_directed_edges()];
    let mut from = Vec::new();
    for face in cdt.inner_faces() {
        let sides = face.adjacent_edges();
        let [a, b, c] = sides.map(|e| corners[e.from().fix().index()]);
        // Three times the centroid, in whole numbers: the cell it falls in decides.
        if !free.at((a[0] + b[0] + c[0]).div_euclid(3), (a[1] + b[1] + c[1]).div_euclid(3)) {
            continue;
        }
        debug_assert!(cross(a, b, c) > 0, "spade lists a face's edges counterclockwise");
        for e in sides {
            ours[e.fix().index()] = from.len() as u32;
            from.push(e.from().fix().index() as u32);
        }
    }
    let mut twin = vec![NONE; from.len()];
    for e in cdt.directed_edges() {
        let (h, t) = (ours[e.fix().index()], ours[e.rev().fix().index()]);
        if h != NONE {
            twin[h as usize] = t;
        }
    }
    Ok(Triangles { from, twin })
}

/// `cross(b - a, c - b)`: positive when `a, b, c` turn the positive way.
#[inline]
fn cross(a: [i32; 2], b: [i32; 2], c: [i32; 2]) -> i64 {
    let (ux, uy) = (i64::from(b[0] - a[0]), i64::from(b[1] - a[1]));
    let (vx, vy) = (i64::from(c[0] - b[0]), i64::from(c[1] - b[1]));
    ux * vy - uy * vx
}

/// True when a polygon going `a -> b -> c` is convex at `b`: it turns the positive way or
/// goes straight on (not straight back).
#[inline]
fn convex_at(a: [i32; 2], b: [i32; 2], c: [i32; 2]) -> bool {
    let turn = cross(a, b, c);
    let ahead = i64::from(b[0] - a[0]) * i64::from(c[0] - b[0]) + i64::from(b[1] - a[1]) * i64::from(c[1] - b[1]);
    turn > 0 || (turn == 0 && ahead > 0)
}

/// Merges the triangles into convex polygons and links their portals.
///
/// Each shared edge, longest first, is removed when the two corners where it ends stay
/// convex: the two polygons' boundary cycles (linked lists of half-edges) are spliced into
/// one there. The cycles left are the polygons.
fn merge_convex(corners: &[[i32; 2]], triangles: &Triangles) -> Vec<Polygon> {
    let Triangles { from, twin } = triangles;
    let n = from.len();
    let mut next: Vec<u32> = (0..n as u32).map(|h| h - h % 3 + (h + 1) % 3).collect();
    let mut prev: Vec<u32> = (0..n as u32).map(|h| h - h % 3 + (h + 2) % 3).collect();
    let mut removed = vec![false; n];
    // Which polygon each triangle is in now (union-find).
    let mut group: Vec<u32> = (0..(n / 3) as u32).collect();
    let at = |v: u32| corners[v as usize];
    let mut shared: Vec<(i64, u32)> = (0..n as u32)
        .filter(|&h| twin[h as usize] != NONE && h < twin[h as usize])
        .map(|h| {
            let (a, b) = (at(from[h as usize]), at(from[twin[h as usize] as usize]));
            let (dx, dy) = (i64::from(a[0] - b[0]), i64::from(a[1] - b[1]));
            (-(dx * dx + dy * dy), h)
        })
        .collect();
    shared.sort_unstable();
    for (_, h) in shared {
        let t = twin[h as usize];
        let (p, q) = (root(&mut group, h / 3), root(&mut group, t / 3));
        if p == q {
            continue;
        }
        let (hu, tu) = (h as usize, t as usize);
        let (a, b) = (from[hu], from[tu]);
        let dest = |e: u32| from[next[e as usize] as usize];
        let at_a = convex_at(at(from[prev[hu] as usize]), at(a), at(dest(next[tu])));
        let at_b = convex_at(at(from[prev[tu] as usize]), at(b), at(dest(next[hu])));
        if !(at_a && at_b) {
            continue;
        }
        let (ph, nh, pt, nt) = (prev[hu], next[hu], prev[tu], next[tu]);
        next[ph as usize] = nt;
        prev[nt as usize] = ph;
        next[pt as usize] = nh;
        prev[nh as usize] = pt;
        removed[hu] = true;
        removed[tu] = true;
        group[q as usize] = p;
    }
    // Walk the cycles left; number the polygons in order of their first half-edge.
    let mut polygon_of = vec![NONE; n];
    let mut walks: Vec<Vec<u32>> = Vec::new();
    for h0 in 0..n {
        if removed[h0] || polygon_of[h0] != NONE {
            continue;
        }
        let mut walk = Vec::new();
        let mut h = h0;
        loop {
            polygon_of[h] = walks.len() as u32;
            walk.push(h as u32);
            h = next[h] as usize;
            if h == h0 {
                break;
            }
        }
        walks.push(walk);
    }
    walks
        .iter()
        .map(|walk| Polygon {
            corners: walk.iter().map(|&h| from[h as usize]).collect(),
            portals: walk
                .iter()
                .filter_map(|&h| {
                    let t = twin[h as usize];
                    (t != NONE && !removed[t as usize]).then(|| Portal {
                        to: polygon_of[t as usize],
                        left: from[h as usize],
                        right: from[t as usize],
                    })
                })
                .collect(),
        })
        .collect()
}

/// The representative of triangle `t`'s polygon, halving paths on the way.
fn root(group: &mut [u32], mut t: u32) -> u32 {
    while group[t as usize] != t {
        let up = group[group[t as usize] as usize];
        group[t as usize] = up;
        t = up;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid from a course data file's rows (0 open, 1 wall).
    fn grid(rows: &[&str]) -> Grid {
        let text = format!("{}\n{}\n{}\n", rows.len(), rows[0].len(), rows.join("\n"));
        crate::formats::course::parse(&text).unwrap().grid
    }

    #[test]
    fn an_open_rectangle_is_one_polygon_with_four_corners() {
        let mesh = NavMesh::build(&grid(&["0000", "0000"]), Diagonal::NoCornerCutting).unwrap();
        assert_eq!(mesh.polygon_count(), 1);
        assert_eq!(mesh.polygon(0).corners.len(), 4);
        assert_eq!(mesh.area(0), 8.0);
    }

    #[test]
    fn runs_break_where_the_boundary_meets_them() {
        // . # .
        // . . .
        let free_grid = grid(&["010", "000"]);
        let (corners, edges) = trace_boundary(&Free(&free_grid));
        // The bottom edge is one run of 3; the top is broken by the wall.
        assert!(edges.iter().any(|&[a, b]| corners[a] == [0, 2] && corners[b] == [3, 2]));
        assert!(edges.iter().any(|&[a, b]| corners[a] == [0, 0] && corners[b] == [1, 0]));
    }

    #[test]
    fn diagonal_contacts_get_a_point_portal_only_under_always() {
        let g = grid(&["01", "10"]);
        for &rule in Diagonal::ALL {
            let mesh = NavMesh::build(&g, rule).unwrap();
            let portals: usize = mesh.polygons().iter().map(|p| p.portals.len()).sum();
            assert_eq!(portals, if rule == Diagonal::Always { 2 } else { 0 }, "{rule}");
        }
    }
}
