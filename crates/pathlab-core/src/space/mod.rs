//! Spaces: the environment as a graph, whatever a game made it of.
//!
//! A search does not need to know what it searches: nodes numbered `0..node_count()`, each
//! with a place in the plane (for drawing and for estimates), directed edges with costs, and
//! an estimate of the cost left to the goal. [`Space`] is that abstraction, and the generic
//! searches (BFS, DFS, Dijkstra, greedy best-first and A* in [`Search`](crate::search::Search);
//! bidirectional A*, IDA*, LPA*, D* Lite, LRTA* and RTA*; see
//! [`build_on`](crate::search::build_on)) run on any type that implements it. The methods take closures and the searches are
//! generic over the space, so each space gets its own compiled copy of the search loop: the
//! square grid's neighbour loop is the hand-written one it always was, with no boxing, no
//! hashing and no virtual call per neighbour.
//!
//! | file | space | nodes | edges | estimate |
//! | --- | --- | --- | --- | --- |
//! | `square.rs` | [`SquareGrid`] | cells, row-major | 4 or 8 moves under a [`Diagonal`](crate::grid::Diagonal) rule, terrain on the cell entered | the grid [`Heuristic`](crate::heuristic::Heuristic)s |
//! | `hex.rs` | [`HexGrid`] | hexagonal cells (axial coordinates, pointy or flat top) | 6 moves, terrain on the cell entered | hex distance |
//! | `graph.rs` | [`Graph`] | waypoints, rooms, junctions with ids | directed or undirected, any cost >= 0 | straight line x the smallest cost per unit of length |
//! | `teleport.rs` | [`Teleports`] | a square grid's cells | the grid's moves plus teleports (one cell to another at a chosen cost) | the grid's, or one that knows the teleports |
//! | `linked.rs` | [`LinkedGrid`] | teleports or slopes as one type, so the grid page compiles each search once for both | | |
//! | `corners.rs` | [`CornerGraph`] | a map's cell corners, plus the start and goal centres | to the 8 neighbouring corners and along sight lines between the corners a shortest path can bend at, each costing its length | straight line |
//! | `slopes.rs` | [`Slopes`] | a square grid's cells | the grid's moves, dearer uphill than downhill | the grid's |
//! | `navmesh.rs` | [`NavMesh`](navmesh::NavMesh) | convex polygons covering a grid's open cells | portals (shared edges), searched by [`search::navmesh`](crate::search::navmesh), not through this trait | straight line |
//!
//! ```
//! use pathlab_core::space::{Graph, Space};
//! let mut g = Graph::new(false);
//! let a = g.add_node("A", 0.0, 0.0).unwrap();
//! let b = g.add_node("B", 3.0, 4.0).unwrap();
//! g.add_edge(a, b, 10.0, false).unwrap();
//! let mut seen = Vec::new();
//! g.for_each_neighbour(b, g.at(b), |to, _, cost| seen.push((to, cost)));
//! assert_eq!(seen, [(a, 10.0)]);
//! ```

/// The parts of [`Space`] that a grid space built on a `SquareGrid` (`base`) takes from it
/// unchanged: its nodes are the grid's cells, where they are drawn and what they are called.
/// Written inside the space's `impl Space`, which adds the edges and the estimate.
macro_rules! cells_through_base {
    () => {
        type At = Point;

        fn node_count(&self) -> usize {
            self.base.node_count()
        }

        fn at(&self, node: u32) -> Point {
            self.base.at(node)
        }

        fn is_open(&self, node: u32) -> bool {
            self.base.is_open(node)
        }

        fn position(&self, node: u32) -> [f64; 2] {
            self.base.position(node)
        }

        fn label(&self, node: u32) -> String {
            self.base.label(node)
        }
    };
}

pub mod corners;
pub mod graph;
pub mod hex;
pub mod linked;
pub mod navmesh;
pub mod slopes;
pub mod square;
pub mod teleport;

pub use corners::CornerGraph;
pub use graph::{CostsOn, Graph, GraphError};
pub use hex::{HexGrid, HexLayout};
pub use linked::LinkedGrid;
pub use slopes::Slopes;
pub use square::SquareGrid;
pub use teleport::{Teleport, TeleportHeuristic, Teleports};

use crate::grid::{Grid, Point};
use crate::search::SearchConfig;

/// A space a search can run on: numbered nodes, directed edges with costs, an estimate.
///
/// Node numbers run from 0 to `node_count() - 1`; a node that is not [`open`](Space::is_open)
/// (a wall) is never entered. Costs are finite and at least 0.
pub trait Space {
    /// What a search carries along with a node while it visits neighbours, so that the
    /// estimate need not work it out again (a grid cell's column and row; a graph node's
    /// number).
    type At: Copy;

    /// How many nodes there are.
    fn node_count(&self) -> usize;

    /// What the search carries for `node`.
    fn at(&self, node: u32) -> Self::At;

    /// True when the node may be stood on (not a wall).
    fn is_open(&self, node: u32) -> bool;

    /// Calls `visit(neighbour, its At, cost)` for every edge leaving `node` (whose `At` is
    /// `at`), in the space's fixed order, which ties are broken by.
    fn for_each_neighbour(&self, node: u32, at: Self::At, visit: impl FnMut(u32, Self::At, f64));

    /// Calls `visit(predecessor, its At, cost)` for every edge entering `node` (whose `At`
    /// is `at`): the same edges as [`for_each_neighbour`](Space::for_each_neighbour) seen from
    /// their other end, with the cost of going from the predecessor to `node`. Searches that
    /// work backwards from the goal (bidirectional A*, D* Lite) use it; on a directed graph or
    /// a slope it is not the neighbour list.
    fn for_each_predecessor(&self, node: u32, at: Self::At, visit: impl FnMut(u32, Self::At, f64));

    /// Called once the search knows its goal, before any estimate: a space whose estimate
    /// needs work per goal (the teleport heuristic) does it here. The default does nothing.
    fn aim(&mut self, goal: u32) {
        let _ = goal;
    }

    /// The estimate of the cost from `from` to `goal`.
    fn estimate(&self, from: Self::At, goal: Self::At) -> f64;

    /// Where the node is drawn: `[x, y]` in the space's own units.
    fn position(&self, node: u32) -> [f64; 2];

    /// The node as people name it: `(3,4)` for a cell, `B` for a graph node.
    fn label(&self, node: u32) -> String;
}

/// A space made of a square grid's cells, perhaps with more on top (teleports, slopes): the
/// grid page paints it, brushes edit its cells, and every grid setting applies to it.
pub trait OnGrid: Space<At = Point> + Clone + std::fmt::Debug + 'static {
    /// The cells.
    fn grid(&self) -> &Grid;

    /// The cells, to paint.
    fn grid_mut(&mut self) -> &mut Grid;

    /// Takes the diagonal rule, cost model and heuristic from a search's settings.
    fn configure(&mut self, config: &SearchConfig);
}

impl OnGrid for SquareGrid {
    fn grid(&self) -> &Grid {
        &self.grid
    }

    fn grid_mut(&mut self) -> &mut Grid {
        &mut self.grid
    }

    fn configure(&mut self, config: &SearchConfig) {
        SquareGrid::configure(self, config);
    }
}

/// The grid spaces built on a `SquareGrid` (`base`) are on a grid through it.
macro_rules! on_grid_through_base {
    ($($space:ty),*) => {$(
        impl OnGrid for $space {
            fn grid(&self) -> &Grid {
                &self.base.grid
            }

            fn grid_mut(&mut self) -> &mut Grid {
                &mut self.base.grid
            }

            fn configure(&mut self, config: &SearchConfig) {
                self.base.configure(config);
            }
        }
    )*};
}

on_grid_through_base!(Teleports, Slopes);
