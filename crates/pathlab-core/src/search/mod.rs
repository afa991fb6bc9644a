//! Searches you can step through, one expansion at a time.
//!
//! ## Design
//!
//! - **Spaces.** A search runs on a [`Space`](crate::space::Space): numbered nodes, directed
//!   edges with costs, an estimate. The generic searches are generic over it, so each space
//!   gets its own compiled copy and the square grid's inner loop has no boxing, hashing or
//!   virtual call. The grid-only searches (JPS, JPS+, Theta*, Lazy Theta*, A* with smoothing,
//!   HPA*, crash and turn) say why in [`Algorithm::square_grid_only`].
//! - **One node table.** Every stepper keeps its per-node state in a [`NodeTable`]: the state
//!   byte the page paints, g, parent, the touched list that makes going back to step 0 cost
//!   only what the search touched, the counters and the path. The [`Stepper`] and
//!   [`SpaceStepper`] accessors read it by default; a stepper says more only where its
//!   numbers mean something else (a walking agent's path is its trail).
//! - **Two views, one impl.** [`SpaceStepper`] is a search on any space, in node numbers;
//!   [`Stepper`] is what the grid page, the CLI and the timeline step, in cells. A search
//!   written over a space implements [`SpaceStepper`] once, and [`GridStepper`] for what only
//!   a grid has (a brush, the overlay, the walking agent's cell); the impl of [`Stepper`] for
//!   every [`GridStepper`] turns cells into nodes and back. So BFS, DFS, Dijkstra, greedy, A*,
//!   bidirectional A*, IDA*, LPA*, D* Lite, LRTA* and RTA* each have one stepper impl, and JPS
//!   and JPS+ (a square grid's searches, sharing their bookkeeping in `JumpSearch`) get theirs
//!   the same way. The any-angle searches, HPA* and crash and turn, whose moves are not the
//!   grid's edges, implement [`Stepper`] directly. A type with both views in scope needs the
//!   trait named where both have a method (`Stepper::run(&mut s)`); import the one you use.
//! - **Steps.** `step()` is one unit of work (one expansion; a jump scan round for JPS; a node
//!   visit for IDA*; an agent move for the real-time searches) and returns a [`StepEvent`]. A
//!   [`Recorder`] hears what it opened and improved; [`NoRecord`] costs nothing. Going back is
//!   replay, since every choice is deterministic (ties are broken by a documented rule).
//!
//! | file | what it holds |
//! | --- | --- |
//! | `registry.rs` | [`Algorithm`] and its registry [`ALGORITHMS`]: every fact about each algorithm, one row each, and which stepper runs each ([`build`], [`build_on`]) |
//! | `mod.rs` | [`SearchConfig`], [`StepEvent`], [`Recorder`], the errors |
//! | `stepper.rs` | the grid [`Stepper`] trait, [`GridStepper`] and the impl that joins the two views, [`build_linked`], overlays |
//! | `on_space.rs` | the node-level [`SpaceStepper`] trait |
//! | `task.rs` | [`Task`]: the ends and settings every [`SpaceStepper`] holds |
//! | `nodes.rs` | [`NodeTable`]: the per-node state every stepper shares |
//! | `engine.rs` | [`Search`]: the stepper of BFS, DFS, Dijkstra, greedy and A* on any space |
//! | `bfs.rs`, `dfs.rs` | their steps: queue and stack |
//! | `astar.rs` | the best-first step that A*, Dijkstra (`dijkstra.rs`: order by g) and greedy (`greedy.rs`: order by h) share |
//! | `open_list.rs`, `order.rs` | the binary heap with the tie rule; listing the open list in leaving order |
//! | `bi_astar.rs` | bidirectional A* |
//! | `ida.rs` | IDA*, with the usual threshold rule or the book's "+1" ([`Threshold`]) |
//! | `template.rs` | build your own search: the lecture's skeleton with its plug-ins ([`Skeleton`]), run by [`Search`] |
//! | `incremental.rs`, `lpa.rs`, `dstar_lite.rs` | LPA* and D* Lite and the core they share |
//! | `lrta.rs`, `walk.rs` | LRTA*, RTA*, and what walking agents share |
//! | `jps.rs`, `jps_plus.rs` | jump point search and JPS+ |
//! | `theta.rs`, `lazy_theta.rs`, `sight.rs`, `smoothed.rs` | any-angle searches and line of sight |
//! | `visibility.rs` | the exact any-angle shortest path: the free-space rule, the visibility graph of the walls' corners and A* over it (a plain function; step it as A* on the [`CornerGraph`](crate::space::CornerGraph)) |
//! | `hpa.rs` | hierarchical A* |
//! | `crash_turn.rs` | crash and turn, with its rules for the side to turn on a crash |
//! | `explorer.rs` | the human-like explorer: heads for the goal, remembers, backs up from dead ends |
//! | `navmesh.rs`, `funnel.rs` | A* over a navmesh's polygons (its own stepper: its nodes are polygons, not cells), and the funnel that pulls the string through the corridor found |
//! | `slicing.rs`, `timeline.rs` | a search spread over frames; checkpoints for stepping back |
//! | `request_scene.rs` | walkers that ask the time-sliced planner for paths and walk them |
//! | `refusal.rs` | [`refusal`]: why an algorithm cannot run on a grid, asked without building it (the page's menu marks) |
//! | `session.rs` | the grid page's search and what happens to it when the map, the settings or the ends change |
//!
//! Adding an algorithm: the checklist is in [`registry`](self::registry#adding-an-algorithm)
//! (a variant, a row and its arms in [`build`] and [`build_on`] there, its own file, its
//! pseudocode in `www/pseudocode.js`, its tests).
//!
//! ```
//! use pathlab_core::grid::{Grid, Point};
//! use pathlab_core::search::{Algorithm, Search, SearchConfig, Status, Stepper};
//! let grid = Grid::new(4, 1).unwrap();
//! let mut search = Search::new(
//!     grid, Point::new(0, 0), Point::new(3, 0), SearchConfig::new(Algorithm::AStar),
//! ).unwrap();
//! search.step();
//! assert_eq!(search.expanded(), 1);
//! assert_eq!(search.run(), Status::Found);
//! assert_eq!(search.cost(), Some(3.0));
//! ```

use std::fmt;

use crate::grid::{named_enum, Costs, Diagonal, GridError, NeighbourOrder, Point};
use crate::heuristic::Heuristic;

pub mod astar;
pub mod bfs;
pub mod bi_astar;
pub mod crash_turn;
pub mod dfs;
pub mod dijkstra;
pub mod dstar_lite;
mod engine;
pub mod explorer;
pub mod funnel;
pub mod greedy;
pub mod hpa;
pub mod ida;
pub(crate) mod incremental;
pub mod jps;
pub mod jps_plus;
pub mod lazy_theta;
pub mod lpa;
pub mod lrta;
pub mod navmesh;
mod nodes;
mod on_space;
pub(crate) mod open_list;
mod order;
mod refusal;
pub mod registry;
pub mod request_scene;
pub mod session;
pub mod sight;
pub mod slicing;
pub mod smoothed;
mod stepper;
mod task;
pub mod template;
pub mod theta;
pub mod timeline;
pub mod visibility;
pub(crate) mod walk;

pub use engine::{Search, NO_PARENT};
pub use ida::Threshold;
pub use nodes::NodeTable;
pub use on_space::SpaceStepper;
pub use refusal::refusal;
pub use registry::{build, build_on, Algorithm, AlgorithmInfo, OpenOrder, Optimality, Setting, ALGORITHMS};
pub use stepper::{
    build_linked, Agent, BoxKind, CellTable, CellValues, GridLinks, GridStepper, LineKind, MarkKind, Overlay,
    OverlayBox, OverlayLine, OverlayMark, Repair, Stepper,
};
pub use stepper::{OpenEntry, StepperClone};
pub use task::Task;
pub use template::{GCount, ListKind, Skeleton};

named_enum! {
    /// What the page paints for each cell; one byte per cell in [`Search::states`].
    CellState, "cell state" {
        /// Not reached yet.
        Unseen = 0, "unseen";
        /// On the open list (the frontier).
        Open = 1, "open";
        /// Expanded: on the closed list.
        Closed = 2, "closed";
        /// The node the last step expanded.
        Current = 3, "current";
        /// On the path found.
        Path = 4, "path";
        /// On the open list of the second (backward) frontier of a bidirectional search.
        OpenBack = 5, "open-back";
        /// Expanded by the second (backward) frontier of a bidirectional search.
        ClosedBack = 6, "closed-back";
    }
}

named_enum! {
    /// Where a search stands.
    Status, "status" {
        /// No step taken yet.
        Ready = 0, "ready";
        /// Some steps taken, no answer yet.
        Searching = 1, "searching";
        /// The goal was reached; the path and cost are known.
        Found = 2, "found";
        /// The open list ran dry: the goal cannot be reached.
        NoPath = 3, "no-path";
    }
}

impl Status {
    /// True once the search has an answer.
    #[inline]
    pub const fn is_finished(self) -> bool {
        matches!(self, Self::Found | Self::NoPath)
    }
}

/// The settings of a search.
///
/// ```
/// use pathlab_core::grid::{Costs, Diagonal};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::{Algorithm, SearchConfig};
/// let config = SearchConfig::new(Algorithm::AStar)
///     .heuristic(Heuristic::Manhattan)
///     .diagonal(Diagonal::Never)
///     .costs(Costs::Integer)
///     .weight(1.5);
/// assert!(config.validate().is_ok());
/// assert!(SearchConfig::new(Algorithm::AStar).weight(0.5).validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Which algorithm orders the open list.
    pub algorithm: Algorithm,
    /// The estimate used by A* and greedy best-first.
    pub heuristic: Heuristic,
    /// A* multiplies h by this (1 or more); 1 is plain A*.
    pub weight: f64,
    /// Which diagonal moves are allowed.
    pub diagonal: Diagonal,
    /// What moves cost.
    pub costs: Costs,
    /// LRTA* and RTA*: how many moves deep the agent looks before each move (1 or more).
    pub lookahead: u32,
    /// D* Lite and the human-like explorer: how far (in cells, Chebyshev distance) the agent
    /// sees walls; walls further away stay unknown to it until it comes close. 0 means it sees
    /// everything at once, wherever it is (D* Lite every change, the explorer the whole map).
    pub sensor: u32,
    /// Hierarchical A*: the side of a square cluster, in cells.
    pub cluster: u32,
    /// Crash and turn: which hand keeps touching the obstacle, or the rule that picks it at
    /// each crash.
    pub hand: Hand,
    /// Crash and turn with [`Hand::Random`]: the seed of its coin tosses (the same seed gives
    /// the same walk).
    pub seed: u32,
    /// Fog of war, for the agents that take it ([`Setting::Fog`]): the agent starts knowing
    /// no walls and learns each one when it comes within [`sensor`](Self::sensor) cells of it
    /// (a sensor of 0 sees the whole map, so there is no fog). The other searches plan on the
    /// whole map whatever this says.
    pub fog: bool,
    /// A* and the search skeleton: open a closed node again when a cheaper way to it is
    /// found, as the book's A* pseudocode does. Only an inconsistent heuristic makes that
    /// happen (and then it keeps A* optimal with an admissible one).
    pub reopen: bool,
    /// IDA*: how the threshold rises after an iteration that did not reach the goal.
    pub threshold: Threshold,
    /// The order in which a grid cell's straight neighbours are tried, which decides ties.
    pub order: NeighbourOrder,
    /// The search skeleton's plug-ins ([`Algorithm::Template`]).
    pub skeleton: Skeleton,
}

impl SearchConfig {
    /// Defaults: octile heuristic, weight 1, no corner cutting, real costs.
    pub const fn new(algorithm: Algorithm) -> Self {
        Self {
            algorithm,
            heuristic: Heuristic::Octile,
            weight: 1.0,
            diagonal: Diagonal::NoCornerCutting,
            costs: Costs::Real,
            lookahead: 1,
            sensor: 3,
            cluster: 10,
            hand: Hand::Left,
            seed: 1,
            fog: false,
            reopen: false,
            threshold: Threshold::Next,
            order: NeighbourOrder::NESW,
            skeleton: Skeleton { list: ListKind::Priority, ga: 1.0, hb: 1.0, gcount: GCount::Costs },
        }
    }

    /// Sets the heuristic.
    #[must_use]
    pub const fn heuristic(mut self, heuristic: Heuristic) -> Self {
        self.heuristic = heuristic;
        self
    }

    /// Sets the A* weight.
    #[must_use]
    pub const fn weight(mut self, weight: f64) -> Self {
        self.weight = weight;
        self
    }

    /// Sets the diagonal rule.
    #[must_use]
    pub const fn diagonal(mut self, diagonal: Diagonal) -> Self {
        self.diagonal = diagonal;
        self
    }

    /// Sets the cost model.
    #[must_use]
    pub const fn costs(mut self, costs: Costs) -> Self {
        self.costs = costs;
        self
    }

    /// Sets the LRTA*/RTA* look-ahead depth.
    #[must_use]
    pub const fn lookahead(mut self, lookahead: u32) -> Self {
        self.lookahead = lookahead;
        self
    }

    /// Sets the D* Lite sensor radius.
    #[must_use]
    pub const fn sensor(mut self, sensor: u32) -> Self {
        self.sensor = sensor;
        self
    }

    /// Sets the hierarchical A* cluster side.
    #[must_use]
    pub const fn cluster(mut self, cluster: u32) -> Self {
        self.cluster = cluster;
        self
    }

    /// Sets the crash-and-turn hand.
    #[must_use]
    pub const fn hand(mut self, hand: Hand) -> Self {
        self.hand = hand;
        self
    }

    /// Sets the seed of crash and turn's random side rule.
    #[must_use]
    pub const fn seed(mut self, seed: u32) -> Self {
        self.seed = seed;
        self
    }

    /// Sets fog of war on or off.
    #[must_use]
    pub const fn fog(mut self, fog: bool) -> Self {
        self.fog = fog;
        self
    }

    /// Sets whether A* and the skeleton open closed nodes again.
    #[must_use]
    pub const fn reopen(mut self, reopen: bool) -> Self {
        self.reopen = reopen;
        self
    }

    /// Sets IDA*'s threshold rule.
    #[must_use]
    pub const fn threshold(mut self, threshold: Threshold) -> Self {
        self.threshold = threshold;
        self
    }

    /// Sets the order of the straight neighbours.
    #[must_use]
    pub const fn order(mut self, order: NeighbourOrder) -> Self {
        self.order = order;
        self
    }

    /// Sets the search skeleton's plug-ins.
    #[must_use]
    pub const fn skeleton(mut self, skeleton: Skeleton) -> Self {
        self.skeleton = skeleton;
        self
    }

    /// Checks the numbers: a weight from 1 to [`MAX_WEIGHT`], a look-ahead from 1 to
    /// [`MAX_LOOKAHEAD`], a sensor radius up to [`MAX_SENSOR`] and a cluster side from
    /// [`MIN_CLUSTER`] to [`MAX_CLUSTER`].
    pub fn validate(&self) -> Result<(), SearchError> {
        if !(self.weight.is_finite() && self.weight >= 1.0 && self.weight <= MAX_WEIGHT) {
            return Err(SearchError::BadWeight(self.weight));
        }
        let range = |name: &'static str, value: u32, min: u32, max: u32| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(SearchError::Unsupported(format!("{name} must be a whole number from {min} to {max}, got {value}")))
            }
        };
        range("lookahead", self.lookahead, 1, MAX_LOOKAHEAD)?;
        range("sensor", self.sensor, 0, MAX_SENSOR)?;
        range("cluster", self.cluster, MIN_CLUSTER, MAX_CLUSTER)?;
        self.skeleton.validate()
    }

    /// True when this configuration always finds a cheapest path: by the algorithm's
    /// [`Optimality`] in the registry, Dijkstra always, and A* and the other exact searches
    /// with weight 1 and an admissible heuristic; never an agent walking in fog
    /// ([`fog`](Self::fog)), which plans with the walls it has seen. Breadth-first search is cheapest only on a
    /// 4-connected grid without terrain, which this cannot see, so it reports false.
    pub fn is_optimal(&self) -> bool {
        if self.fog && self.sensor > 0 && self.algorithm.info().takes(Setting::Fog) {
            // In fog the agent walks with what it has seen: its walk can cost more.
            return false;
        }
        match self.algorithm.info().optimal {
            Optimality::Always => true,
            Optimality::IfAdmissible => {
                let skeleton = self.algorithm != Algorithm::Template || self.skeleton.is_optimal();
                skeleton && self.weight == 1.0 && self.heuristic.is_admissible(self.diagonal, self.costs)
            }
            Optimality::Never => false,
        }
    }
}

/// The largest A* weight accepted; beyond it A* is greedy best-first in all but name.
pub const MAX_WEIGHT: f64 = 100.0;

/// The deepest LRTA*/RTA* look-ahead accepted.
pub const MAX_LOOKAHEAD: u32 = 16;

/// The largest D* Lite sensor radius accepted.
pub const MAX_SENSOR: u32 = 64;

/// The smallest hierarchical A* cluster side accepted.
pub const MIN_CLUSTER: u32 = 4;

/// The largest hierarchical A* cluster side accepted.
pub const MAX_CLUSTER: u32 = 128;

named_enum! {
    /// Which hand a wall follower keeps on the obstacle, or the rule that picks the hand
    /// afresh at every crash (the book's two side rules; see
    /// [`crash_turn`](self::crash_turn#the-side-rules)).
    Hand, "hand" {
        /// Keep the obstacle on the left: turn right on meeting it.
        Left = 0, "left";
        /// Keep the obstacle on the right: turn left on meeting it.
        Right = 1, "right";
        /// At each crash, turn to the side whose first free direction deviates less from the
        /// straight line to the goal; a tie turns right (the left hand on the wall).
        LeastDeviation = 2, "least-deviation";
        /// At each crash, toss a coin for the side, from [`SearchConfig::seed`].
        Random = 3, "random";
    }
}

/// Why a search could not be set up.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchError {
    /// The start or goal lies outside the grid.
    OutOfBounds {
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// The grid's complaint.
        error: GridError,
    },
    /// The start or goal is a wall.
    OnWall {
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// Where.
        at: Point,
    },
    /// The weight is not a number from 1 to [`MAX_WEIGHT`].
    BadWeight(f64),
    /// The algorithm cannot run under these settings or on this grid; the text says why.
    Unsupported(String),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OutOfBounds { which, error } => write!(f, "{which} {error}"),
            Self::OnWall { which, at } => write!(f, "the {which} {at} is on a wall"),
            Self::BadWeight(w) => {
                write!(f, "weight must be a number from 1 to {MAX_WEIGHT}, got {w}")
            }
            Self::Unsupported(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SearchError {}

/// What one step did. `N` is how the expanded node is given: a [`Point`] on grids, the
/// space's [`At`](crate::space::Space::At) on other spaces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepEvent<N = Point> {
    /// A node was taken off the open list and its neighbours examined.
    Expanded(N),
    /// The goal was taken off the open list: the path is known.
    Found {
        /// The path's cost.
        cost: f64,
    },
    /// The open list was empty: there is no path.
    NoPath,
    /// The search had already finished; nothing happened.
    Finished,
}

/// Receives the details of each step. The default methods do nothing, so a search run with
/// [`NoRecord`] pays nothing for them.
pub trait Recorder {
    /// `node` (a row-major index) was expanded.
    #[inline]
    fn expanded(&mut self, node: u32) {
        let _ = node;
    }

    /// `node` was put on the open list with parent `parent` and cost `new_g`; `old_g` is its
    /// previous cost when it was already open (an improvement, or for DFS a re-push).
    #[inline]
    fn opened(&mut self, node: u32, parent: u32, old_g: Option<f64>, new_g: f64) {
        let _ = (node, parent, old_g, new_g);
    }
}

/// A recorder that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoRecord;

impl Recorder for NoRecord {}

/// One neighbour change recorded by [`EventLog`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opened {
    /// The neighbour (row-major index).
    pub node: u32,
    /// Its new parent.
    pub parent: u32,
    /// Its cost before, when it was already open.
    pub old_g: Option<f64>,
    /// Its new cost.
    pub new_g: f64,
}

/// A recorder that keeps what the last step opened or improved, for narration.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    /// The node expanded, if any.
    pub expanded: Option<u32>,
    /// The neighbours opened or improved, in the order examined.
    pub opened: Vec<Opened>,
}

impl EventLog {
    /// Forgets the previous step.
    pub fn clear(&mut self) {
        self.expanded = None;
        self.opened.clear();
    }
}

impl Recorder for EventLog {
    fn expanded(&mut self, node: u32) {
        self.expanded = Some(node);
    }

    fn opened(&mut self, node: u32, parent: u32, old_g: Option<f64>, new_g: f64) {
        self.opened.push(Opened { node, parent, old_g, new_g });
    }
}

/// A path found by a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// The cells from start to goal, both included.
    pub points: Vec<Point>,
    /// The sum of the move costs.
    pub cost: f64,
}

/// Runs a search to the end and returns its path, if any. The shared body of the
/// per-algorithm entry points.
pub(crate) fn find(
    grid: &crate::grid::Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
) -> Result<Option<Path>, SearchError> {
    let mut search = Search::new(grid.clone(), start, goal, config)?;
    Stepper::run(&mut search);
    Ok(search.path())
}
