//! The corner graph: cell corners joined by line of sight, for any generic search.
//!
//! Its nodes are the grid points (cell corners) of a map, `(width + 1) x (height + 1)` of
//! them, numbered row-major, plus two more for the start and goal centres: about as many
//! nodes again as the map has cells (the "graph twice as large" of a grid seen from its
//! corners). A grid point that touches no open cell is not [open](Space::is_open), nor, unless
//! the rule is `always`, a pinch (two walls touching diagonally there). Every edge
//! is a straight segment that keeps to the free-space rule of
//! [`visibility`](crate::search::visibility) (no wall's inside, no edge between two walls, a
//! pinch only under `always`) and costs its length:
//!
//! - **lattice edges**: each grid point to its eight neighbouring grid points (along a cell
//!   edge, or across a cell's diagonal) when that segment is clear;
//! - **sight lines**: each corner where a shortest path may bend (the vertices of the
//!   [`VisibilityGraph`]) to every other such corner it sees, tangent at both ends (those not
//!   already lattice neighbours);
//! - **the ends**: the start and goal are each their own node, joined to the four corners of
//!   their cell when they are cell centres (half a diagonal away), or to their own corner at
//!   no cost when they are corners ([`CornerGraph::between`]: the tutorial's string pulling
//!   runs from corner to corner), and to every bend corner they see, and to each other when
//!   they see each other.
//!
//! Because the visibility graph is a part of it and every edge is a real segment, A* (or
//! Dijkstra) on the corner graph finds exactly the visibility graph's optimum, the exact
//! any-angle shortest path; the lattice edges let the page show the corners and let searches
//! that ignore sight lines (BFS) still walk from corner to corner. The graph is undirected:
//! [`for_each_predecessor`](Space::for_each_predecessor) is the neighbour list.
//!
//! Positions are in cell units: grid point `(x, y)` is at `[x, y]`, the centre of cell
//! `(x, y)` at `[x + 0.5, y + 0.5]`. The estimate is the straight-line distance, which never
//! overestimates.
//!
//! ```
//! use std::sync::Arc;
//! use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
//! use pathlab_core::search::visibility::VisibilityGraph;
//! use pathlab_core::search::{build_on, Algorithm, SearchConfig};
//! use pathlab_core::space::CornerGraph;
//! let mut grid = Grid::new(4, 3).unwrap();
//! grid.set(Point::new(1, 1), WALL).unwrap();
//! let graph = Arc::new(VisibilityGraph::new(&grid, Diagonal::NoCornerCutting).unwrap());
//! let corners = CornerGraph::new(graph, Point::new(0, 2), Point::new(2, 0)).unwrap();
//! let (start, goal) = (corners.start_node(), corners.goal_node());
//! let mut search = build_on(corners, start, goal, SearchConfig::new(Algorithm::AStar)).unwrap();
//! search.run();
//! assert!((search.cost().unwrap() - 2.0 * 2.5f64.sqrt()).abs() < 1e-12);
//! ```

use std::sync::Arc;

use super::Space;
use crate::grid::Point;
use crate::search::visibility::{check_ends, HalfPoint, VisibilityGraph};
use crate::search::SearchError;

/// The corner graph of a map, with a start and goal (see the [module](self)).
#[derive(Clone, Debug)]
pub struct CornerGraph {
    graph: Arc<VisibilityGraph>,
    start: HalfPoint,
    goal: HalfPoint,
    /// The bend vertices the start sees, with their distances (by vertex number).
    from_start: Vec<f64>,
    /// The bend vertices the goal sees, with their distances.
    from_goal: Vec<f64>,
    /// The distance between the ends when they see each other.
    direct: Option<f64>,
}

/// The eight lattice steps, in the order their edges are visited: N, E, S, W, NE, SE, SW, NW.
const STEPS: [(i64, i64); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

impl CornerGraph {
    /// The corner graph of the map `graph` was built for, with the ends at the centres of
    /// `start` and `goal`. Fails when an end is outside the grid or on a wall.
    pub fn new(graph: Arc<VisibilityGraph>, start: Point, goal: Point) -> Result<Self, SearchError> {
        check_ends(graph.grid(), start, goal)?;
        Self::between(graph, HalfPoint::centre(start), HalfPoint::centre(goal))
    }

    /// The corner graph with ends at any two points that are each a cell centre or a cell
    /// corner (see [`VisibilityGraph::check_end`]). An end at a corner is joined to that
    /// corner's node at no cost; an end at a centre to the four corners of its cell.
    pub fn between(graph: Arc<VisibilityGraph>, start: HalfPoint, goal: HalfPoint) -> Result<Self, SearchError> {
        graph.check_end("start", start)?;
        graph.check_end("goal", goal)?;
        let n = graph.vertex_count();
        let seen = |p: HalfPoint| {
            let mut d = vec![f64::INFINITY; n];
            for (v, length) in graph.seen_from(p) {
                d[v as usize] = length;
            }
            d
        };
        let (from_start, from_goal) = (seen(start), seen(goal));
        let direct = graph.space().clear(start, goal).then(|| start.distance(goal));
        Ok(Self { graph, start, goal, from_start, from_goal, direct })
    }

    /// The start's node.
    pub fn start_node(&self) -> u32 {
        self.corner_count() as u32
    }

    /// The goal's node.
    pub fn goal_node(&self) -> u32 {
        self.corner_count() as u32 + 1
    }

    /// The node of grid point `(x, y)`, which must lie on the grid (0 to width, 0 to height).
    pub fn corner_node(&self, x: usize, y: usize) -> u32 {
        (y * (self.width() + 1) + x) as u32
    }

    /// Where a node is, in half cells.
    pub fn point(&self, node: u32) -> HalfPoint {
        let corners = self.corner_count() as u32;
        if node == corners {
            self.start
        } else if node == corners + 1 {
            self.goal
        } else {
            let w = self.width() as u32 + 1;
            HalfPoint::corner(i64::from(node % w), i64::from(node / w))
        }
    }

    /// The visibility graph underneath.
    pub fn visibility(&self) -> &VisibilityGraph {
        &self.graph
    }

    fn width(&self) -> usize {
        self.graph.grid().width()
    }

    fn corner_count(&self) -> usize {
        (self.width() + 1) * (self.graph.grid().height() + 1)
    }

    /// The node of a grid point given in half cells.
    fn node_of(&self, p: HalfPoint) -> u32 {
        self.corner_node((p.x / 2) as usize, (p.y / 2) as usize)
    }

    /// The edges of an end (`end` where it is, `seen` what it sees, `other` the other end's
    /// node).
    fn end_edges(&self, end: HalfPoint, seen: &[f64], other: u32, visit: &mut impl FnMut(u32, HalfPoint, f64)) {
        for p in own_corners(end) {
            if self.graph.space().usable(p.x / 2, p.y / 2) {
                visit(self.node_of(p), p, end.distance(p));
            }
        }
        for (v, &d) in seen.iter().enumerate() {
            let p = self.graph.vertex(v as u32);
            if d.is_finite() && !own_corners(end).contains(&p) {
                visit(self.node_of(p), p, d);
            }
        }
        if let Some(d) = self.direct {
            visit(other, self.point(other), d);
        }
    }
}

/// The corner nodes an end is joined to directly: its own point when it is a corner, the
/// four corners of its cell when it is a centre.
fn own_corners(end: HalfPoint) -> Vec<HalfPoint> {
    if end.is_corner() {
        vec![end]
    } else {
        [(-1, -1), (1, -1), (1, 1), (-1, 1)]
            .iter()
            .map(|&(dx, dy)| HalfPoint { x: end.x + dx, y: end.y + dy })
            .collect()
    }
}

impl Space for CornerGraph {
    type At = HalfPoint;

    fn node_count(&self) -> usize {
        self.corner_count() + 2
    }

    fn at(&self, node: u32) -> HalfPoint {
        self.point(node)
    }

    fn is_open(&self, node: u32) -> bool {
        let p = self.point(node);
        !p.is_corner() || self.graph.space().usable(p.x / 2, p.y / 2)
    }

    fn for_each_neighbour(&self, node: u32, at: HalfPoint, mut visit: impl FnMut(u32, HalfPoint, f64)) {
        let (start, goal) = (self.start_node(), self.goal_node());
        if node == start {
            return self.end_edges(at, &self.from_start, goal, &mut visit);
        }
        if node == goal {
            return self.end_edges(at, &self.from_goal, start, &mut visit);
        }
        let space = self.graph.space();
        let (x, y) = (at.x / 2, at.y / 2);
        for (dx, dy) in STEPS {
            let to = HalfPoint::corner(x + dx, y + dy);
            let inside = (0..=space.width()).contains(&(x + dx)) && (0..=space.height()).contains(&(y + dy));
            if inside && space.usable(x + dx, y + dy) && space.clear(at, to) {
                visit(self.node_of(to), to, at.distance(to));
            }
        }
        let vertex = self.graph.vertex_at(x, y);
        if let Some(v) = vertex {
            self.graph.for_each_edge(v, |w, length| {
                let to = self.graph.vertex(w);
                if to.x.abs_diff(at.x) > 2 || to.y.abs_diff(at.y) > 2 {
                    visit(self.node_of(to), to, length);
                }
            });
        }
        // The ends: from a corner of their cell, or from a bend corner they see.
        for (end, p, seen) in [(start, self.start, &self.from_start), (goal, self.goal, &self.from_goal)] {
            if own_corners(p).contains(&at) {
                visit(end, p, at.distance(p));
            } else if let Some(d) = vertex.map(|v| seen[v as usize]).filter(|d| d.is_finite()) {
                visit(end, p, d);
            }
        }
    }

    fn for_each_predecessor(&self, node: u32, at: HalfPoint, visit: impl FnMut(u32, HalfPoint, f64)) {
        self.for_each_neighbour(node, at, visit);
    }

    fn estimate(&self, from: HalfPoint, goal: HalfPoint) -> f64 {
        from.distance(goal)
    }

    fn position(&self, node: u32) -> [f64; 2] {
        self.point(node).cells()
    }

    fn label(&self, node: u32) -> String {
        let p = self.point(node);
        if p.is_corner() {
            format!("({},{})", p.x / 2, p.y / 2)
        } else {
            let which = if node == self.start_node() { "start" } else { "goal" };
            format!("{which} ({},{})", p.x / 2, p.y / 2)
        }
    }
}
