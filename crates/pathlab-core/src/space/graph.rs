//! A weighted graph: waypoints, rooms or road junctions joined by edges with costs.
//!
//! Nodes have string ids (as people name them: `"A"`, `"hall"`) and a place in the plane;
//! edges go one way or both, each with a cost of at least 0. Neighbours are visited in the
//! order their edges were added, which is the order ties are broken in.
//!
//! Where a move's cost lives is a choice ([`CostsOn`]), the two the course names: on the
//! links (each edge's own cost, which may differ each way, as up and down a hill), or on the
//! nodes (entering a node costs its weight, whichever edge leads there; a node's weight is 1
//! unless set). The edges always say which moves exist.
//!
//! The estimate is a plane distance between the nodes' places times the smallest cost per
//! unit of length over every edge. A path's cost is the sum of its edges' costs, each at
//! least that ratio times the edge's length, and the lengths add up to at least the straight
//! line: so with the straight-line distance the estimate never overestimates, whatever the
//! costs and wherever the nodes are drawn, and it is consistent too.
//!
//! ```
//! use pathlab_core::space::{CostsOn, Graph, Space};
//! let mut g = Graph::new(true);
//! let a = g.add_node("A", 0.0, 0.0).unwrap();
//! let b = g.add_node("B", 10.0, 0.0).unwrap();
//! g.add_edge(a, b, 5.0, true).unwrap();
//! // 5 per 10 units of length: the estimate from A to B is half the distance.
//! assert_eq!(g.estimate(g.at(a), g.at(b)), 5.0);
//! assert!(g.add_edge(a, b, -1.0, true).is_err());
//! // With the costs on the nodes, entering B costs B's weight instead of the edge's cost.
//! g.set_node_cost(b, 2.0).unwrap();
//! g.set_costs_on(CostsOn::Nodes);
//! assert_eq!(g.arcs(a), [(b, 2.0)]);
//! ```

use std::collections::HashMap;
use std::fmt;

use super::Space;
use crate::grid::named_enum;
use crate::heuristic::Heuristic;

named_enum! {
    /// Where a graph's move costs live: the course's two ways of modelling terrain.
    CostsOn, "place for the costs" {
        /// On the links: a move costs its edge's cost (which may differ each way).
        Links = 0, "links";
        /// On the nodes: a move costs the weight of the node it enters.
        Nodes = 1, "nodes";
    }
}

/// The most nodes a graph may have.
pub const MAX_NODES: usize = 1_000_000;
/// The most edges a graph may have (an undirected edge counts once).
pub const MAX_EDGES: usize = 4_000_000;
/// The longest node id, in characters.
pub const MAX_ID: usize = 64;

/// One edge as it was given: the shape a graph file stores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    /// The node it leaves.
    pub from: u32,
    /// The node it enters.
    pub to: u32,
    /// What crossing it costs (finite, at least 0).
    pub cost: f64,
    /// True when it may be crossed only from `from` to `to`.
    pub directed: bool,
}

/// Why a graph could not be built or changed.
#[derive(Clone, Debug, PartialEq)]
pub enum GraphError {
    /// A node id is empty, too long, or holds a control character.
    BadId(String),
    /// Two nodes share an id.
    DuplicateId(String),
    /// A node's place is not a finite number.
    BadPosition {
        /// The node's id.
        id: String,
    },
    /// An edge's cost is negative, infinite or not a number.
    BadCost {
        /// The edge's ends, by id.
        from: String,
        /// The edge's ends, by id.
        to: String,
        /// The cost given.
        cost: f64,
    },
    /// A node number or id that the graph does not have.
    NoSuchNode(String),
    /// A node's weight is negative, infinite or not a number.
    BadNodeCost {
        /// The node's id.
        id: String,
        /// The weight given.
        cost: f64,
    },
    /// An edge number that the graph does not have.
    NoSuchEdge(usize),
    /// Over [`MAX_NODES`] or [`MAX_EDGES`].
    TooLarge(String),
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadId(id) => {
                let shown: String = id.chars().take(40).collect();
                write!(f, "node id {shown:?} must be 1 to {MAX_ID} characters with no control characters")
            }
            Self::DuplicateId(id) => write!(f, "two nodes have the id {id:?}"),
            Self::BadPosition { id } => write!(f, "node {id:?} needs finite x and y"),
            Self::BadCost { from, to, cost } => {
                write!(f, "the edge {from:?} -> {to:?} costs {cost}: costs must be finite numbers >= 0")
            }
            Self::BadNodeCost { id, cost } => {
                write!(f, "node {id:?} costs {cost}: costs must be finite numbers >= 0")
            }
            Self::NoSuchNode(which) => write!(f, "there is no node {which}"),
            Self::NoSuchEdge(i) => write!(f, "there is no edge {i}"),
            Self::TooLarge(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for GraphError {}

/// A weighted graph with named, placed nodes. See the [module](self) for the estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    directed: bool,
    ids: Vec<String>,
    index: HashMap<String, u32>,
    places: Vec<[f64; 2]>,
    /// Per node, what entering it costs when the costs are on the nodes (1 unless set).
    node_costs: Vec<f64>,
    /// Where the moves' costs come from.
    costs_on: CostsOn,
    edges: Vec<Edge>,
    /// Per node, the arcs leaving it: (target, cost), in the order the edges were added;
    /// the cost is the edge's or the target's, as `costs_on` says.
    out: Vec<Vec<(u32, f64)>>,
    /// Per node, the arcs entering it: (source, cost), in the same order.
    into: Vec<Vec<(u32, f64)>>,
    heuristic: Heuristic,
    /// The smallest cost per unit of length over the edges (infinite when no edge has a
    /// length).
    ratio: f64,
    /// What the estimate multiplies the distance by: `ratio`, or 0 when that is infinite.
    scale: f64,
}

impl Graph {
    /// An empty graph. `directed` is what the file says edges are unless an edge says
    /// otherwise; [`add_edge`](Self::add_edge) always takes the edge's own direction.
    pub fn new(directed: bool) -> Self {
        Self {
            directed,
            ids: Vec::new(),
            index: HashMap::new(),
            places: Vec::new(),
            node_costs: Vec::new(),
            costs_on: CostsOn::Links,
            edges: Vec::new(),
            out: Vec::new(),
            into: Vec::new(),
            heuristic: Heuristic::Euclidean,
            ratio: f64::INFINITY,
            scale: 0.0,
        }
    }

    /// Whether edges are one-way unless they say otherwise.
    pub fn directed(&self) -> bool {
        self.directed
    }

    /// Adds a node and returns its number.
    pub fn add_node(&mut self, id: &str, x: f64, y: f64) -> Result<u32, GraphError> {
        if id.is_empty() || id.chars().count() > MAX_ID || id.chars().any(char::is_control) {
            return Err(GraphError::BadId(id.to_string()));
        }
        if self.index.contains_key(id) {
            return Err(GraphError::DuplicateId(id.to_string()));
        }
        if !(x.is_finite() && y.is_finite()) {
            return Err(GraphError::BadPosition { id: id.to_string() });
        }
        if self.ids.len() >= MAX_NODES {
            return Err(GraphError::TooLarge(format!("a graph may have at most {MAX_NODES} nodes")));
        }
        let n = self.ids.len() as u32;
        self.ids.push(id.to_string());
        self.index.insert(id.to_string(), n);
        self.places.push([x, y]);
        self.node_costs.push(1.0);
        self.out.push(Vec::new());
        self.into.push(Vec::new());
        Ok(n)
    }

    /// Adds an edge from `from` to `to` (node numbers); both ways unless `directed`.
    /// Returns the edge's number.
    pub fn add_edge(&mut self, from: u32, to: u32, cost: f64, directed: bool) -> Result<usize, GraphError> {
        self.check_node(from)?;
        self.check_node(to)?;
        self.check_cost(from, to, cost)?;
        if self.edges.len() >= MAX_EDGES {
            return Err(GraphError::TooLarge(format!("a graph may have at most {MAX_EDGES} edges")));
        }
        let edge = Edge { from, to, cost, directed };
        self.push_arcs(edge);
        self.edges.push(edge);
        self.ratio = self.ratio.min(self.edge_ratio(edge));
        self.scale = self.ratio();
        Ok(self.edges.len() - 1)
    }

    /// Changes an edge's cost and direction.
    pub fn set_edge(&mut self, edge: usize, cost: f64, directed: bool) -> Result<(), GraphError> {
        let e = *self.edges.get(edge).ok_or(GraphError::NoSuchEdge(edge))?;
        self.check_cost(e.from, e.to, cost)?;
        self.edges[edge] = Edge { cost, directed, ..e };
        self.rebuild();
        Ok(())
    }

    /// Removes an edge; the edges after it move down one number.
    pub fn remove_edge(&mut self, edge: usize) -> Result<Edge, GraphError> {
        if edge >= self.edges.len() {
            return Err(GraphError::NoSuchEdge(edge));
        }
        let e = self.edges.remove(edge);
        self.rebuild();
        Ok(e)
    }

    /// Removes a node and its edges; the nodes after it move down one number.
    pub fn remove_node(&mut self, node: u32) -> Result<(), GraphError> {
        self.check_node(node)?;
        let id = self.ids.remove(node as usize);
        self.index.remove(&id);
        self.places.remove(node as usize);
        self.node_costs.remove(node as usize);
        self.out.pop();
        self.into.pop();
        for n in self.index.values_mut() {
            if *n > node {
                *n -= 1;
            }
        }
        self.edges.retain(|e| e.from != node && e.to != node);
        for e in &mut self.edges {
            e.from -= u32::from(e.from > node);
            e.to -= u32::from(e.to > node);
        }
        self.rebuild();
        Ok(())
    }

    /// Moves a node to another place (which changes the estimate's ratio).
    pub fn move_node(&mut self, node: u32, x: f64, y: f64) -> Result<(), GraphError> {
        self.check_node(node)?;
        if !(x.is_finite() && y.is_finite()) {
            return Err(GraphError::BadPosition { id: self.ids[node as usize].clone() });
        }
        self.places[node as usize] = [x, y];
        self.rebuild();
        Ok(())
    }

    /// Sets what entering `node` costs when the costs are on the nodes: a finite number
    /// at least 0.
    pub fn set_node_cost(&mut self, node: u32, cost: f64) -> Result<(), GraphError> {
        self.check_node(node)?;
        if !(cost.is_finite() && cost >= 0.0) {
            return Err(GraphError::BadNodeCost { id: self.ids[node as usize].clone(), cost });
        }
        self.node_costs[node as usize] = cost;
        // The arcs carry the edges' costs while the costs are on the links.
        if self.costs_on == CostsOn::Nodes {
            self.rebuild();
        }
        Ok(())
    }

    /// What entering each node costs when the costs are on the nodes, by number.
    pub fn node_costs(&self) -> &[f64] {
        &self.node_costs
    }

    /// Where the moves' costs come from.
    pub fn costs_on(&self) -> CostsOn {
        self.costs_on
    }

    /// Puts the moves' costs on the links (each edge's cost) or on the nodes (the weight of
    /// the node entered). The estimate's ratio follows, so it stays a lower bound.
    pub fn set_costs_on(&mut self, costs_on: CostsOn) {
        if costs_on != self.costs_on {
            self.costs_on = costs_on;
            self.rebuild();
        }
    }

    /// Gives a node another id.
    pub fn rename_node(&mut self, node: u32, id: &str) -> Result<(), GraphError> {
        self.check_node(node)?;
        if self.ids[node as usize] == id {
            return Ok(());
        }
        if id.is_empty() || id.chars().count() > MAX_ID || id.chars().any(char::is_control) {
            return Err(GraphError::BadId(id.to_string()));
        }
        if self.index.contains_key(id) {
            return Err(GraphError::DuplicateId(id.to_string()));
        }
        let old = std::mem::replace(&mut self.ids[node as usize], id.to_string());
        self.index.remove(&old);
        self.index.insert(id.to_string(), node);
        Ok(())
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Result<u32, GraphError> {
        self.index.get(id).copied().ok_or_else(|| {
            let shown: String = id.chars().take(40).collect();
            GraphError::NoSuchNode(format!("{shown:?}"))
        })
    }

    /// The id of node `node`.
    pub fn id(&self, node: u32) -> &str {
        &self.ids[node as usize]
    }

    /// Every node's id, by number.
    pub fn ids(&self) -> &[String] {
        &self.ids
    }

    /// Every node's place, by number.
    pub fn places(&self) -> &[[f64; 2]] {
        &self.places
    }

    /// The edges as they were given, by number.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// The arcs leaving `node` (an undirected edge gives one each way): `(target, cost)`.
    pub fn arcs(&self, node: u32) -> &[(u32, f64)] {
        &self.out[node as usize]
    }

    /// The plane distance the estimate scales: Euclidean unless set otherwise.
    pub fn heuristic(&self) -> Heuristic {
        self.heuristic
    }

    /// Chooses the plane distance the estimate scales. Euclidean, Chebyshev and zero never
    /// overestimate; Manhattan and octile can (see [`is_admissible`](Self::is_admissible)).
    pub fn set_heuristic(&mut self, heuristic: Heuristic) {
        self.heuristic = heuristic;
    }

    /// True when the chosen estimate never overestimates on every graph: the distances no
    /// longer than the straight line.
    pub fn is_admissible(heuristic: Heuristic) -> bool {
        matches!(heuristic, Heuristic::Euclidean | Heuristic::Chebyshev | Heuristic::Zero)
    }

    /// The smallest cost per unit of length over the edges, which the estimate multiplies
    /// the distance by (0 when no edge has a length).
    pub fn ratio(&self) -> f64 {
        if self.ratio.is_finite() {
            self.ratio
        } else {
            0.0
        }
    }

    fn check_node(&self, node: u32) -> Result<(), GraphError> {
        if (node as usize) < self.ids.len() {
            Ok(())
        } else {
            Err(GraphError::NoSuchNode(format!("number {node}")))
        }
    }

    fn check_cost(&self, from: u32, to: u32, cost: f64) -> Result<(), GraphError> {
        if cost.is_finite() && cost >= 0.0 {
            Ok(())
        } else {
            Err(GraphError::BadCost { from: self.ids[from as usize].clone(), to: self.ids[to as usize].clone(), cost })
        }
    }

    /// What crossing edge `e` towards `to` costs: the edge's cost, or `to`'s weight.
    fn arc_cost(&self, e: Edge, to: u32) -> f64 {
        match self.costs_on {
            CostsOn::Links => e.cost,
            CostsOn::Nodes => self.node_costs[to as usize],
        }
    }

    fn push_arcs(&mut self, e: Edge) {
        let forward = self.arc_cost(e, e.to);
        self.out[e.from as usize].push((e.to, forward));
        self.into[e.to as usize].push((e.from, forward));
        if !e.directed && e.from != e.to {
            let back = self.arc_cost(e, e.from);
            self.out[e.to as usize].push((e.from, back));
            self.into[e.from as usize].push((e.to, back));
        }
    }

    /// The smallest cost per unit of length of the arcs edge `e` gives.
    fn edge_ratio(&self, e: Edge) -> f64 {
        let [ax, ay] = self.places[e.from as usize];
        let [bx, by] = self.places[e.to as usize];
        let (dx, dy) = (ax - bx, ay - by);
        let length = (dx * dx + dy * dy).sqrt();
        if length > 0.0 {
            let cost = self.arc_cost(e, e.to);
            let cost = if e.directed { cost } else { cost.min(self.arc_cost(e, e.from)) };
            cost / length
        } else {
            f64::INFINITY
        }
    }

    /// Builds the arcs and the ratio again from the edges.
    fn rebuild(&mut self) {
        for arcs in self.out.iter_mut().chain(self.into.iter_mut()) {
            arcs.clear();
        }
        self.ratio = f64::INFINITY;
        for i in 0..self.edges.len() {
            let e = self.edges[i];
            self.push_arcs(e);
            self.ratio = self.ratio.min(self.edge_ratio(e));
        }
        self.scale = self.ratio();
    }
}

impl Space for Graph {
    type At = u32;

    fn node_count(&self) -> usize {
        self.ids.len()
    }

    #[inline]
    fn at(&self, node: u32) -> u32 {
        node
    }

    fn is_open(&self, _node: u32) -> bool {
        true
    }

    #[inline]
    fn for_each_neighbour(&self, node: u32, _at: u32, mut visit: impl FnMut(u32, u32, f64)) {
        for &(to, cost) in &self.out[node as usize] {
            visit(to, to, cost);
        }
    }

    #[inline]
    fn for_each_predecessor(&self, node: u32, _at: u32, mut visit: impl FnMut(u32, u32, f64)) {
        for &(from, cost) in &self.into[node as usize] {
            visit(from, from, cost);
        }
    }

    #[inline]
    fn estimate(&self, from: u32, goal: u32) -> f64 {
        let [ax, ay] = self.places[from as usize];
        let [bx, by] = self.places[goal as usize];
        self.scale * self.heuristic.on_plane((ax - bx).abs(), (ay - by).abs())
    }

    fn position(&self, node: u32) -> [f64; 2] {
        self.places[node as usize]
    }

    fn label(&self, node: u32) -> String {
        self.ids[node as usize].clone()
    }
}
