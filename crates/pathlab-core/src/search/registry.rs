//! The algorithm registry: every fact about an [`Algorithm`] that the page, the CLI and the
//! checks ask of it, written once, one row per algorithm in [`ALGORITHMS`].
//!
//! A row says what the algorithm is called (its URL name, its label in menus, its short name
//! in sentences), where it runs (every space, or only the square grid and why), which settings
//! it takes, whether it multiplies h by the weight, whether it finds a cheapest path, whether
//! its path may leave the grid moves (any-angle), whether an agent walks or the search repairs
//! itself after edits, and how its open list is ordered and whether the list shown is exactly
//! the order it takes nodes off. The wasm layer hands the table to the page
//! (`algorithms()` in `pathlab-wasm`), which builds its algorithm menus, warnings, open-list
//! captions and compare notes from it; the page's presentation text (pseudocode, longer
//! notes) lives in `www/pseudocode.js`.
//!
//! ```
//! use pathlab_core::search::{Algorithm, OpenOrder, Optimality, ALGORITHMS};
//! let astar = Algorithm::AStar.info();
//! assert_eq!((astar.label, astar.short), ("A*", "A*"));
//! assert_eq!(astar.optimal, Optimality::IfAdmissible);
//! assert_eq!(astar.order, OpenOrder::F);
//! assert_eq!(ALGORITHMS.len(), Algorithm::ALL.len());
//! assert!(Algorithm::Jps.info().square_grid_only.is_some());
//! ```
//!
//! ## Adding an algorithm
//!
//! 1. Here: a variant of [`Algorithm`] (its URL name and a one-line description), its row
//!    in [`ALGORITHMS`], where the menus should list it, and its arm in [`build`] (and, when
//!    it runs on every space, in [`build_on`]; when it runs in the plain [`Search`] stepper,
//!    in [`Algorithm::is_basic`]). The compiler refuses a variant without a row, or with two,
//!    or without its arm in `build`. A reference that is not a stepper (the page cannot show it yet) is
//!    marked `.off_page()` ([`AlgorithmInfo::on_page`]): `build` refuses it and the page's
//!    menus leave it out.
//! 2. Its own file in `search/` with its stepper, documented, and its entry point; its `mod`
//!    line and a line in the table of files in `search/mod.rs`.
//! 3. Its pseudocode (and any longer notes about it) in `www/pseudocode.js`, the page's one
//!    module of presentation text.
//! 4. Its tests in `crates/pathlab-core/tests/`; the registry's own tests
//!    (`algorithm_registry_tells_the_truth.rs`) check its row's claims by running it.
//!
//! Nothing else: the page, the CLI (its help text included) and the wasm layers read the rest
//! from the row.

use super::{GridLinks, Search, SearchConfig, SearchError, SpaceStepper, Stepper};
use crate::grid::{named_enum, Grid, Point};
use crate::space::{LinkedGrid, Space, SquareGrid};

named_enum! {
    /// The search algorithms the stepper runs. Each has one row in [`ALGORITHMS`], read with
    /// [`Algorithm::info`].
    Algorithm, "algorithm" {
        /// Breadth-first search: first in, first out; ignores costs when choosing.
        Bfs = 0, "bfs";
        /// Depth-first search: last in, first out.
        Dfs = 1, "dfs";
        /// Dijkstra: lowest cost so far (g) first.
        Dijkstra = 2, "dijkstra";
        /// Greedy best-first: lowest estimate to the goal (h) first.
        Greedy = 3, "greedy";
        /// A*: lowest f = g + weight x h first.
        AStar = 4, "astar";
        /// Bidirectional A*: one frontier from each end, stopping once no shorter meeting
        /// is possible.
        BiAStar = 5, "bi-astar";
        /// Iterative-deepening A*: depth-first visits below an f threshold that rises.
        Ida = 6, "ida";
        /// Jump point search: A* over jump points found by straight and diagonal scans.
        Jps = 7, "jps";
        /// JPS+: jump point search over jump distances computed ahead for every cell.
        JpsPlus = 8, "jps-plus";
        /// Theta*: A* whose nodes may take their grandparent as parent when it is in sight,
        /// giving any-angle paths.
        Theta = 9, "theta";
        /// Lazy Theta*: Theta* that checks line of sight only when a node is expanded.
        LazyTheta = 10, "lazy-theta";
        /// A* followed by smoothing: waypoints whose neighbours see each other are dropped.
        AStarSmoothed = 11, "astar-smoothed";
        /// Lifelong planning A*: keeps g and a one-step look-ahead (rhs) per cell, so after
        /// walls change it repairs only the cells whose cost changed.
        Lpa = 12, "lpa";
        /// D* Lite: an agent walks from the start, sees walls within its sensor radius and
        /// repairs its plan (searched from the goal) instead of starting over.
        DStarLite = 13, "dstar-lite";
        /// Learning real-time A*: an agent looks a few cells ahead, moves one cell, and
        /// raises the estimate of the cell it left.
        Lrta = 14, "lrta";
        /// Real-time A*: like LRTA* but stores the second-best estimate, so it learns faster
        /// and may overestimate.
        Rta = 15, "rta";
        /// Crash and turn: head for the goal; at an obstacle follow it with one hand until
        /// the way to the goal is clear. Local and incomplete: it can loop forever.
        CrashTurn = 16, "crash-turn";
        /// Hierarchical (region-based) A*: search a graph of cluster entrances, then refine
        /// each abstract edge with A* inside its cluster.
        Hpa = 17, "hpa";
        /// A* over the navigation mesh's polygons, then the funnel algorithm through the
        /// corridor found (see [`navmesh`](super::navmesh)): an any-angle path in the
        /// continuous free region.
        Navmesh = 18, "navmesh";
        /// The exact any-angle shortest path: A* over the visibility graph of the walls'
        /// corners ([`visibility`](super::visibility)). Optimal for length at any angle: no
        /// chain of straight segments from the start cell's centre to the goal cell's that
        /// keeps to the free-space rule under the diagonal rule is shorter, so it is at most
        /// the 8-connected optimum and at most every Theta*, Lazy Theta* or smoothed path.
        /// It measures length only (terrain is refused) and ignores heuristic and weight. A
        /// reference the CLI measures the any-angle searches against, not a stepper: see
        /// [`AlgorithmInfo::on_page`].
        Visibility = 19, "visibility";
        /// Build your own search: the lecture's search skeleton with its plug-ins chosen
        /// (open-list kind, priority `a·g + b·h`, what g counts, re-opening; see
        /// [`template`](super::template)). Its defaults make it A*.
        Template = 20, "template";
        /// The human-like explorer: heads for the goal, takes the untried way that points most
        /// nearly at it, remembers where it has been and walks back to the last junction from
        /// a dead end ([`explorer`](super::explorer)). It sees only within its sensor radius.
        Explorer = 21, "explorer";
        /// Pruned JPS+: JPS+ that expands the stops of a diagonal scan in place, putting the
        /// jump points of their straight scans on the open list instead of the stops
        /// themselves (see [`jps_plus`](super::jps_plus)).
        JpsPlusPruned = 22, "jps-plus-pruned";
    }
}

named_enum! {
    /// A setting that only some algorithms take. The moves (diagonal rule) and the cost model
    /// apply to every algorithm on the square grid and are not listed.
    Setting, "setting" {
        /// The estimate of the distance left ([`SearchConfig::heuristic`](super::SearchConfig::heuristic)).
        Heuristic = 0, "heuristic";
        /// The A* weight, offered as a setting of its own (the page's weight field). Other
        /// searches ordered by f honour a weight given in a link or on the command line:
        /// see [`AlgorithmInfo::weighted`].
        Weight = 1, "weight";
        /// LRTA*'s and RTA*'s look-ahead depth.
        Lookahead = 2, "lookahead";
        /// The sensor radius of the agents that see only near them (D* Lite, the explorer).
        Sensor = 3, "sensor";
        /// Hierarchical A*'s cluster side.
        Cluster = 4, "cluster";
        /// Crash and turn's hand on the wall, or its rule for the side to turn on a crash.
        Hand = 5, "hand";
        /// Opening a closed node again when a cheaper way to it is found
        /// ([`SearchConfig::reopen`](super::SearchConfig::reopen)), as the book's A* does.
        Reopen = 6, "reopen";
        /// IDA*'s rule for the next threshold
        /// ([`SearchConfig::threshold`](super::SearchConfig::threshold)): the lowest f cut
        /// off, or the book's "+1".
        Threshold = 7, "threshold";
        /// The order a cell's straight neighbours are tried in, which decides ties
        /// ([`SearchConfig::order`](super::SearchConfig::order)). The searches that jump or
        /// look along lines of sight do not take it.
        Order = 8, "order";
        /// The search skeleton's plug-ins ([`SearchConfig::skeleton`](super::SearchConfig::skeleton)):
        /// the open-list kind, `a` and `b` in `f = a·g + b·h`, and what g counts.
        PlugIns = 9, "plug-ins";
        /// Fog of war: the agent starts knowing no walls and learns them within its sensor
        /// radius ([`SearchConfig::fog`](super::SearchConfig::fog)). The searches that do not
        /// take it plan on the whole map: they see through the fog.
        Fog = 10, "fog";
    }
}

named_enum! {
    /// What an open list is ordered by: the key its entries are listed under.
    OpenOrder, "open-list order" {
        /// Lowest f = g + w·h first.
        F = 0, "f";
        /// Lowest cost so far first.
        G = 1, "g";
        /// Lowest estimate first.
        H = 2, "h";
        /// First in, first out; the key is the place in the queue.
        Queue = 3, "queue";
        /// Last in, first out; the key is the place on the stack.
        Stack = 4, "stack";
    }
}

impl OpenOrder {
    /// The order in words, with the tie rule, as the page's open-list caption gives it.
    ///
    /// ```
    /// use pathlab_core::search::OpenOrder;
    /// assert_eq!(OpenOrder::Queue.rule(), "first in, first out");
    /// ```
    pub const fn rule(self) -> &'static str {
        match self {
            Self::F => "lowest f = g + w·h first; ties: higher g, then first opened",
            Self::G => "lowest g first; ties: first opened",
            Self::H => "lowest h first; ties: first opened",
            Self::Queue => "first in, first out",
            Self::Stack => "last in, first out",
        }
    }
}

/// When an algorithm finds a cheapest path ([`SearchConfig::is_optimal`](super::SearchConfig::is_optimal)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Optimality {
    /// Always, whatever the settings.
    Always,
    /// With weight 1 and a heuristic that never overestimates under the moves and costs.
    IfAdmissible,
    /// Not in general. (Breadth-first search is cheapest on a 4-connected grid without
    /// terrain, which the settings alone cannot see.)
    Never,
}

impl Optimality {
    /// The word the wasm layer gives the page: `always`, `if-admissible` or `never`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Always => "always",
            Self::IfAdmissible => "if-admissible",
            Self::Never => "never",
        }
    }
}

/// One row of the registry: what is true of one algorithm. Read one with [`Algorithm::info`],
/// all with [`ALGORITHMS`].
#[derive(Clone, Copy, Debug, PartialEq)]
// A row of yes-or-no facts, read one at a time: bools, not a state machine.
#[allow(clippy::struct_excessive_bools)]
pub struct AlgorithmInfo {
    /// The algorithm; its URL name is [`Algorithm::name`].
    pub algorithm: Algorithm,
    /// Its name in menus (`Breadth-first (BFS)`).
    pub label: &'static str,
    /// Its name in sentences and chart labels (`BFS`).
    pub short: &'static str,
    /// Why it cannot run on a space other than the square grid, or `None` when it runs on
    /// every [`Space`].
    pub square_grid_only: Option<&'static str>,
    /// The settings it takes, of those only some algorithms take.
    pub settings: &'static [Setting],
    /// True when it orders by g + w·h, so that a weight above 1 changes what it finds.
    pub weighted: bool,
    /// When it finds a cheapest path: of the paths made of grid moves, or, for an any-angle
    /// algorithm, of the paths made of straight segments at any angle (the visibility graph
    /// is optimal in that sense: no path that keeps to the free-space rule of
    /// [`visibility`](super::visibility) is shorter, so it is never longer than any grid path).
    pub optimal: Optimality,
    /// True when a heuristic that can overestimate may cost it the cheapest path (what the
    /// page's "inadmissible heuristic" warning says, when it uses a heuristic at all). False
    /// where the heuristic menu cannot: greedy best-first never weighs g against h, and
    /// Theta* and Lazy Theta* always estimate by the straight line to the goal.
    pub inadmissible_misleads: bool,
    /// True when its path joins points in sight by straight lines instead of grid moves,
    /// so it can cost less than the cheapest grid path.
    pub any_angle: bool,
    /// True when an agent walks through the grid one cell per step (its cost is the
    /// distance it walked).
    pub agent: bool,
    /// True when it repairs its answer after walls change instead of starting again.
    pub incremental: bool,
    /// True when it expands the goal: a search runs from the goal (bidirectional A*'s backward
    /// half, D* Lite's plan), so the goal is the first node that half expands. Elsewhere a
    /// search from the start stops when it takes the goal off the open list, and that step
    /// expands nothing, so the page's closed list counts the goal apart from the expanded
    /// cells.
    pub goal_expanded: bool,
    /// What its open list is ordered by.
    pub order: OpenOrder,
    /// True when the open list it shows is exactly the order it takes nodes off; false where
    /// the list is only close (Lazy Theta* may put its first entry back; IDA*'s list is its
    /// stack; the incremental and walking searches are listed by f).
    pub exact_order: bool,
    /// True when it is a [`Stepper`] that [`build`] makes and
    /// the page offers in its menus. False for a search whose nodes are not cells, which runs
    /// from the command line until the page has a view for it (the navmesh search steps
    /// polygons; the visibility graph's nodes are corners): `build` refuses it, and the wasm
    /// layers leave it out of `algorithms()` and of the accepted `algo` names.
    pub on_page: bool,
}

impl AlgorithmInfo {
    /// True when it takes `setting`.
    pub const fn takes(&self, setting: Setting) -> bool {
        let mut i = 0;
        while i < self.settings.len() {
            if self.settings[i] as u8 == setting as u8 {
                return true;
            }
            i += 1;
        }
        false
    }
}

const JUMPS: Option<&str> =
    Some("jump point search needs a square grid: its jumps and pruning rules follow rows, columns and diagonals");
const SIGHT: Option<&str> = Some("any-angle search needs a square grid: it tests line of sight across cells");
const CLUSTERS: Option<&str> = Some("hierarchical A* needs a square grid: it cuts the grid into square clusters");
const WALLS: Option<&str> = Some("crash and turn needs a square grid: it follows walls cell by cell");
const COMPASS: Option<&str> =
    Some("the human-like explorer needs a square grid: it picks its way by compass directions between cells");
const MESH: Option<&str> = Some("the navmesh search needs a grid map: it covers the map's open cells with polygons");
const CORNERS: Option<&str> =
    Some("the visibility graph needs a square grid: its vertices are the corners of the wall cells");

/// A row with the common defaults: runs on every space, takes no settings, unweighted, not
/// any-angle, no agent, not incremental, the goal not expanded, on the page.
const fn row(
    algorithm: Algorithm,
    label: &'static str,
    short: &'static str,
    optimal: Optimality,
    order: OpenOrder,
    exact_order: bool,
) -> AlgorithmInfo {
    AlgorithmInfo {
        algorithm,
        label,
        short,
        square_grid_only: None,
        settings: &[],
        weighted: false,
        optimal,
        inadmissible_misleads: true,
        any_angle: false,
        agent: false,
        incremental: false,
        goal_expanded: false,
        order,
        exact_order,
        on_page: true,
    }
}

// The builders the table uses for the facts that differ from row()'s defaults.
impl AlgorithmInfo {
    const fn with(mut self, settings: &'static [Setting]) -> Self {
        self.settings = settings;
        self
    }
    const fn grid_only(mut self, why: Option<&'static str>) -> Self {
        self.square_grid_only = why;
        self
    }
    const fn weight_counts(mut self) -> Self {
        self.weighted = true;
        self
    }
    const fn inadmissible_harmless(mut self) -> Self {
        self.inadmissible_misleads = false;
        self
    }
    const fn any_angle_path(mut self) -> Self {
        self.any_angle = true;
        self
    }
    const fn walks(mut self) -> Self {
        self.agent = true;
        self
    }
    const fn repairs(mut self) -> Self {
        self.incremental = true;
        self
    }
    const fn expands_goal(mut self) -> Self {
        self.goal_expanded = true;
        self
    }
    const fn off_page(mut self) -> Self {
        self.on_page = false;
        self
    }
}

use Algorithm as A;
use OpenOrder::{Queue, Stack, F, G, H};
use Optimality::{Always, IfAdmissible, Never};
use Setting::{Cluster, Fog, Hand, Heuristic, Lookahead, Order, PlugIns, Reopen, Sensor, Threshold, Weight};

/// Every algorithm, in the order menus list them: A* and its two halves (Dijkstra, greedy),
/// the blind searches, A*'s variants, the grid-only speed-ups and any-angle searches, the
/// searches for changing worlds and walking agents, and hierarchical A*.
#[rustfmt::skip]
pub const ALGORITHMS: &[AlgorithmInfo] = &[
    //  algorithm         label (menus)                           short (sentences)  optimal       order  exact
    row(A::AStar,         "A*",                                   "A*",              IfAdmissible, F,     true).with(&[Heuristic, Weight, Reopen, Order]).weight_counts(),
    row(A::Dijkstra,      "Dijkstra",                             "Dijkstra",        Always,       G,     true).with(&[Order]),
    row(A::Greedy,        "Greedy best-first",                    "Greedy best-first", Never,      H,     true).with(&[Heuristic, Order]).inadmissible_harmless(),
    row(A::Bfs,           "Breadth-first (BFS)",                  "BFS",             Never,        Queue, true).with(&[Order]),
    row(A::Dfs,           "Depth-first (DFS)",                    "DFS",             Never,        Stack, true).with(&[Order]),
    // Its defaults are A*'s; SearchConfig::is_optimal also asks the skeleton.
    row(A::Template,      "Build your own search (skeleton)",     "Skeleton search", IfAdmissible, F,     true).with(&[Heuristic, PlugIns, Reopen, Order]),
    row(A::BiAStar,       "Bidirectional A*",                     "Bidirectional A*", IfAdmissible, F,    true).with(&[Heuristic, Order]).weight_counts().expands_goal(),
    row(A::Ida,           "IDA* (iterative deepening)",           "IDA*",            IfAdmissible, F,     false).with(&[Heuristic, Threshold, Order]).weight_counts(),
    row(A::Jps,           "Jump point search (JPS)",              "JPS",             IfAdmissible, F,     true).with(&[Heuristic]).weight_counts().grid_only(JUMPS),
    row(A::JpsPlus,       "JPS+ (precomputed jumps)",             "JPS+",            IfAdmissible, F,     true).with(&[Heuristic]).weight_counts().grid_only(JUMPS),
    row(A::JpsPlusPruned, "JPS+, diagonals pruned",               "Pruned JPS+",     IfAdmissible, F,     true).with(&[Heuristic]).weight_counts().grid_only(JUMPS),
    row(A::Theta,         "Theta* (any-angle)",                   "Theta*",          Never,        F,     true).with(&[Heuristic]).weight_counts().grid_only(SIGHT).any_angle_path().inadmissible_harmless(),
    row(A::LazyTheta,     "Lazy Theta* (any-angle)",              "Lazy Theta*",     Never,        F,     false).with(&[Heuristic]).weight_counts().grid_only(SIGHT).any_angle_path().inadmissible_harmless(),
    row(A::AStarSmoothed, "A* + smoothing",                       "A* + smoothing",  Never,        F,     true).with(&[Heuristic, Reopen, Order]).weight_counts().grid_only(SIGHT).any_angle_path(),
    row(A::Lpa,           "LPA* (repairs after edits)",           "LPA*",            IfAdmissible, F,     false).with(&[Heuristic, Order]).repairs(),
    row(A::DStarLite,     "D* Lite (agent, repairs as it sees)",  "D* Lite",         IfAdmissible, F,     false).with(&[Heuristic, Sensor, Fog, Order]).repairs().walks().expands_goal(),
    row(A::Lrta,          "LRTA* (agent, learns h)",              "LRTA*",           Never,        F,     false).with(&[Heuristic, Lookahead, Sensor, Fog, Order]).weight_counts().walks(),
    row(A::Rta,           "RTA* (agent, real-time)",              "RTA*",            Never,        F,     false).with(&[Heuristic, Lookahead, Sensor, Fog, Order]).weight_counts().walks(),
    row(A::CrashTurn,     "Crash and turn (agent, local)",        "Crash and turn",  Never,        F,     false).with(&[Hand]).grid_only(WALLS).walks(),
    row(A::Explorer,      "Human-like explorer (agent, remembers)", "Human-like explorer", Never,   F,     false).with(&[Sensor]).grid_only(COMPASS).walks(),
    row(A::Hpa,           "Hierarchical A* (clusters)",           "Hierarchical A*", Never,        F,     false).with(&[Heuristic, Cluster]).weight_counts().grid_only(CLUSTERS),
    row(A::Navmesh,       "Navigation mesh + funnel",             "Navmesh",         Never,        F,     true).grid_only(MESH).any_angle_path().off_page(),
    // Optimal among any-angle paths (see its docs), so `Always` with `any_angle`.
    row(A::Visibility,    "Visibility graph (exact any-angle)",   "Visibility graph", Always,      F,     true).grid_only(CORNERS).any_angle_path().off_page(),
];

/// The rows again, at the place of each algorithm's number, so that [`Algorithm::info`] is
/// one index. Building it checks, when the crate compiles, that every algorithm has exactly
/// one row.
const BY_ALGORITHM: [AlgorithmInfo; Algorithm::ALL.len()] = {
    let mut out = [ALGORITHMS[0]; Algorithm::ALL.len()];
    let mut seen = [false; Algorithm::ALL.len()];
    assert!(ALGORITHMS.len() == Algorithm::ALL.len(), "every algorithm needs exactly one row in ALGORITHMS");
    let mut i = 0;
    while i < ALGORITHMS.len() {
        let at = ALGORITHMS[i].algorithm as usize;
        assert!(!seen[at], "an algorithm has two rows in ALGORITHMS");
        seen[at] = true;
        out[at] = ALGORITHMS[i];
        i += 1;
    }
    out
};

impl Algorithm {
    /// Its row in the registry.
    ///
    /// ```
    /// use pathlab_core::search::{Algorithm, Setting};
    /// assert_eq!(Algorithm::Bfs.info().short, "BFS");
    /// assert!(Algorithm::Lrta.info().takes(Setting::Lookahead));
    /// ```
    #[inline]
    pub const fn info(self) -> &'static AlgorithmInfo {
        &BY_ALGORITHM[self as usize]
    }

    /// True for the searches that repair their answer after walls change instead of
    /// starting again (the page keeps their steps when you paint).
    #[inline]
    pub const fn is_incremental(self) -> bool {
        self.info().incremental
    }

    /// True for the algorithms in which an agent walks through the grid one cell per step
    /// (their cost is the distance it walked).
    #[inline]
    pub const fn has_agent(self) -> bool {
        self.info().agent
    }

    /// True when the algorithm uses a heuristic (and so the heuristic menu matters).
    #[inline]
    pub const fn uses_heuristic(self) -> bool {
        self.info().takes(Setting::Heuristic)
    }

    /// True for the algorithms that run on every [`Space`] (hex tiles,
    /// weighted graphs, teleports, slopes) and not only on the square grid.
    #[inline]
    pub const fn runs_on_any_space(self) -> bool {
        self.square_grid_only().is_none()
    }

    /// Why the algorithm cannot run on a space other than the square grid, or `None` when it
    /// can: the words the page, the URL check and the CLI give.
    ///
    /// ```
    /// use pathlab_core::search::Algorithm;
    /// assert_eq!(Algorithm::AStar.square_grid_only(), None);
    /// assert!(Algorithm::BiAStar.runs_on_any_space() && Algorithm::Ida.runs_on_any_space());
    /// assert!(Algorithm::Jps.square_grid_only().unwrap().contains("square grid"));
    /// ```
    #[inline]
    pub const fn square_grid_only(self) -> Option<&'static str> {
        self.info().square_grid_only
    }

    /// True for the any-angle algorithms, whose paths are not bound to grid moves and can be
    /// shorter than the 8-connected optimum.
    #[inline]
    pub const fn is_any_angle(self) -> bool {
        self.info().any_angle
    }

    /// True for the algorithms the pages list (see [`AlgorithmInfo::on_page`]).
    #[inline]
    pub const fn steps_on_cells(self) -> bool {
        self.info().on_page
    }
}

impl SearchConfig {
    /// What the open list of this search is ordered by: its row's [`OpenOrder`], or for the
    /// skeleton the order of the list kind chosen.
    pub const fn open_order(&self) -> OpenOrder {
        match self.algorithm {
            Algorithm::Template => self.skeleton.order(),
            a => a.info().order,
        }
    }

    /// That order in words with the tie rule, as the open-list caption gives it: the row's
    /// [`OpenOrder::rule`], or for the skeleton [`Skeleton::order_rule`](super::Skeleton::order_rule)
    /// with its chosen `a` and `b`.
    ///
    /// ```
    /// use pathlab_core::search::{Algorithm, SearchConfig, Skeleton};
    /// let skeleton = Skeleton { ga: 2.0, hb: 1.0, ..Skeleton::default() };
    /// let c = SearchConfig::new(Algorithm::Template).skeleton(skeleton);
    /// assert_eq!(c.open_rule(), "lowest f = 2·g + 1·h first; ties: higher 2·g, then first opened");
    /// assert_eq!(SearchConfig::new(Algorithm::Bfs).open_rule(), "first in, first out");
    /// ```
    pub fn open_rule(&self) -> String {
        match self.algorithm {
            Algorithm::Template => self.skeleton.order_rule(),
            a => a.info().order.rule().to_string(),
        }
    }
}

// Which stepper runs each algorithm: the dispatch, beside the rows, so that a new algorithm
// adds its arms here and not in the traits' files.

/// Builds the stepper for `config.algorithm`.
///
/// Fails when an end is outside the grid or on a wall, the weight is not allowed, or the
/// algorithm cannot run here (not available in this build, or not under these settings), and
/// for the algorithms that are not steppers ([`AlgorithmInfo::on_page`](super::AlgorithmInfo::on_page) false).
pub fn build(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Box<dyn Stepper>, SearchError> {
    match config.algorithm {
        Algorithm::Bfs
        | Algorithm::Dfs
        | Algorithm::Dijkstra
        | Algorithm::Greedy
        | Algorithm::AStar
        | Algorithm::Template
        | Algorithm::Theta
        | Algorithm::LazyTheta
        | Algorithm::AStarSmoothed
        | Algorithm::Jps
        | Algorithm::JpsPlus
        | Algorithm::JpsPlusPruned => build_first_plain(grid, start, goal, config),
        // One compiled copy of each of these serves the plain grid and the grid with links.
        Algorithm::BiAStar
        | Algorithm::Ida
        | Algorithm::Lpa
        | Algorithm::DStarLite
        | Algorithm::Lrta
        | Algorithm::Rta => {
            build_on_grid(LinkedGrid::Plain(SquareGrid::with_config(grid, &config)), start, goal, config)
        }
        Algorithm::Hpa => Ok(Box::new(super::hpa::Hpa::new(grid, start, goal, config)?)),
        Algorithm::CrashTurn => Ok(Box::new(super::crash_turn::CrashTurn::new(grid, start, goal, config)?)),
        Algorithm::Explorer => Ok(Box::new(super::explorer::Explorer::new(grid, start, goal, config)?)),
        // Not on the page (their rows say so): their nodes are polygons and corners, not cells.
        Algorithm::Navmesh | Algorithm::Visibility => Err(super::refusal::not_a_cell_stepper(config.algorithm)),
    }
}

/// The algorithms the grid page's first wasm module holds ([`build_first`]): the plain
/// search's (breadth-first, depth-first, Dijkstra, greedy, A*, the search skeleton), which
/// also run with teleports and slopes, and JPS, JPS+ (plain and pruned), Theta*, Lazy Theta*
/// and A* with smoothing. The others (bidirectional A*, IDA*, LPA*, D* Lite, LRTA*, RTA*,
/// HPA*, crash and turn, the explorer) are in a second module that the page loads when one is
/// chosen.
pub const FIRST: &[Algorithm] = &[
    Algorithm::Bfs,
    Algorithm::Dfs,
    Algorithm::Dijkstra,
    Algorithm::Greedy,
    Algorithm::AStar,
    Algorithm::Template,
    Algorithm::Jps,
    Algorithm::JpsPlus,
    Algorithm::JpsPlusPruned,
    Algorithm::Theta,
    Algorithm::LazyTheta,
    Algorithm::AStarSmoothed,
];

/// [`build_linked`](super::build_linked) for the algorithms of [`FIRST`], each built directly,
/// so that a module whose sessions use it
/// ([`Session::with_builder`](super::session::Session::with_builder)) links no other search.
/// The same steppers as `build_linked`'s, and the same refusals; any other algorithm is
/// refused with a message that says it is not in this module.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::search::registry::build_first;
/// use pathlab_core::search::{Algorithm, GridLinks, SearchConfig};
/// let grid = Grid::new(8, 4).unwrap();
/// let (s, g) = (Point::new(0, 0), Point::new(7, 3));
/// assert!(build_first(grid.clone(), s, g, SearchConfig::new(Algorithm::Jps), &GridLinks::None).is_ok());
/// let refused = build_first(grid, s, g, SearchConfig::new(Algorithm::Lpa), &GridLinks::None);
/// assert!(refused.is_err_and(|e| e.to_string().contains("not in this module")));
/// ```
pub fn build_first(
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    links: &GridLinks,
) -> Result<Box<dyn Stepper>, SearchError> {
    if !FIRST.contains(&config.algorithm) {
        return Err(SearchError::Unsupported(format!(
            "{} is not in this module: the page loads the module with every search first",
            config.algorithm.info().label
        )));
    }
    if *links == GridLinks::None {
        return build_first_plain(grid, start, goal, config);
    }
    // The others of FIRST need the square grid; `linked_space` refuses them with its reason.
    plain_search_on(linked_space(grid, start, goal, &config, links)?, start, goal, config)
}

/// The steppers of [`FIRST`] on a grid without links: JPS, JPS+ (both), Theta*, Lazy Theta*
/// and A* with smoothing, and the plain search for the rest.
fn build_first_plain(
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
) -> Result<Box<dyn Stepper>, SearchError> {
    match config.algorithm {
        Algorithm::Theta | Algorithm::LazyTheta => {
            Ok(Box::new(super::theta::ThetaStar::new(grid, start, goal, config)?))
        }
        Algorithm::AStarSmoothed => Ok(Box::new(super::smoothed::SmoothedAStar::new(grid, start, goal, config)?)),
        Algorithm::Jps => Ok(Box::new(super::jps::Jps::new(grid, start, goal, config)?)),
        Algorithm::JpsPlus | Algorithm::JpsPlusPruned => {
            Ok(Box::new(super::jps_plus::JpsPlus::new(grid, start, goal, config)?))
        }
        _ => Ok(Box::new(Search::new(grid, start, goal, config)?)),
    }
}

/// The grid with `links` as a space (the plain grid when there are none). Refuses, with the
/// reason, an algorithm that needs the square grid, and ends outside the grid or on a wall.
pub(super) fn linked_space(
    grid: Grid,
    start: Point,
    goal: Point,
    config: &SearchConfig,
    links: &GridLinks,
) -> Result<LinkedGrid, SearchError> {
    use crate::space::{Slopes, Teleports};
    if let Some(why) = config.algorithm.square_grid_only() {
        return Err(super::refusal::links_refused(config.algorithm, why));
    }
    super::engine::check_ends(&grid, start, goal)?;
    let base = SquareGrid::with_config(grid, config);
    Ok(match links {
        GridLinks::None => LinkedGrid::Plain(base),
        GridLinks::Teleports { list, heuristic } => {
            LinkedGrid::Teleports(Teleports::new(base, list.clone(), *heuristic).map_err(SearchError::Unsupported)?)
        }
        GridLinks::Slopes { heights, uphill, downhill } => LinkedGrid::Slopes(
            Slopes::new(base, heights.clone(), *uphill, *downhill).map_err(SearchError::Unsupported)?,
        ),
    })
}

/// The plain search (breadth-first, depth-first, Dijkstra, greedy, A*, the skeleton) on a
/// grid, plain or with links.
fn plain_search_on(
    space: LinkedGrid,
    start: Point,
    goal: Point,
    config: SearchConfig,
) -> Result<Box<dyn Stepper>, SearchError> {
    let (s, g) = checked_nodes(&space, start, goal, &config)?;
    Ok(Box::new(Search::on(space, s, g, config)?))
}

/// The grid stepper for `config.algorithm` on a grid, plain or with links, for the algorithms
/// that run on any space (see [`LinkedGrid`] for why one type serves every kind of grid).
pub(super) fn build_on_grid(
    space: LinkedGrid,
    start: Point,
    goal: Point,
    config: SearchConfig,
) -> Result<Box<dyn Stepper>, SearchError> {
    match config.algorithm {
        Algorithm::Lpa => Ok(Box::new(super::lpa::Lpa::on_grid(space, start, goal, config)?)),
        Algorithm::DStarLite => Ok(Box::new(super::dstar_lite::DStarLite::on_grid(space, start, goal, config)?)),
        Algorithm::BiAStar | Algorithm::Ida | Algorithm::Lrta | Algorithm::Rta => {
            let (s, g) = checked_nodes(&space, start, goal, &config)?;
            match config.algorithm {
                Algorithm::BiAStar => Ok(Box::new(super::bi_astar::BiAStar::on(space, s, g, config)?)),
                Algorithm::Ida => Ok(Box::new(super::ida::Ida::on(space, s, g, config)?)),
                _ => Ok(Box::new(super::lrta::Lrta::on_cells(space, s, g, config)?)),
            }
        }
        _ => plain_search_on(space, start, goal, config),
    }
}

/// The settings checked, and the ends (checked: inside the grid, not on a wall) as nodes.
fn checked_nodes(
    space: &LinkedGrid,
    start: Point,
    goal: Point,
    config: &SearchConfig,
) -> Result<(u32, u32), SearchError> {
    use crate::space::OnGrid;
    config.validate()?;
    super::engine::check_ends(space.grid(), start, goal)?;
    Ok((space.grid().index(start) as u32, space.grid().index(goal) as u32))
}

/// Builds the stepper for `config.algorithm` on `space`, from node `start` to node `goal`.
/// Fails when an end is not an open node, the settings are not allowed, or the algorithm
/// needs a square grid (the message says why).
pub fn build_on<S>(
    space: S,
    start: u32,
    goal: u32,
    config: SearchConfig,
) -> Result<Box<dyn SpaceStepper<S>>, SearchError>
where
    S: Space + Clone + 'static,
{
    if let Some(why) = config.algorithm.square_grid_only() {
        return Err(SearchError::Unsupported(format!("{}: {why}", config.algorithm)));
    }
    match config.algorithm {
        Algorithm::Lpa => Ok(Box::new(super::lpa::Lpa::on(space, start, goal, config)?)),
        Algorithm::DStarLite => Ok(Box::new(super::dstar_lite::DStarLite::on(space, start, goal, config)?)),
        Algorithm::BiAStar => Ok(Box::new(super::bi_astar::BiAStar::on(space, start, goal, config)?)),
        Algorithm::Ida => Ok(Box::new(super::ida::Ida::on(space, start, goal, config)?)),
        Algorithm::Lrta | Algorithm::Rta => Ok(Box::new(super::lrta::Lrta::on(space, start, goal, config)?)),
        _ => Ok(Box::new(Search::on(space, start, goal, config)?)),
    }
}

impl Algorithm {
    /// True for the algorithms that run in the plain [`Search`] stepper.
    pub const fn is_basic(self) -> bool {
        matches!(self, Self::Bfs | Self::Dfs | Self::Dijkstra | Self::Greedy | Self::AStar | Self::Template)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `build_first` builds the same runs as `build_linked` for the algorithms it holds, with
    /// and without links, refuses the same settings, and refuses every other algorithm.
    #[test]
    fn build_first_runs_as_build_linked_does_and_refuses_the_rest() {
        use crate::search::{build_linked, GridLinks};
        use crate::space::{Teleport, TeleportHeuristic};
        let mut grid = Grid::new(12, 9).unwrap();
        for y in 0..7 {
            grid.set(Point::new(5, y), crate::grid::WALL).unwrap();
        }
        grid.set(Point::new(8, 4), 3).unwrap();
        let (start, goal) = (Point::new(1, 1), Point::new(10, 2));
        let jump = Teleport { from: Point::new(2, 0), to: Point::new(9, 0), cost: 1.0, both_ways: false };
        let all_links = [
            GridLinks::None,
            GridLinks::Teleports { list: vec![jump], heuristic: TeleportHeuristic::Teleports },
            GridLinks::Slopes { heights: (0..grid.len()).map(|i| (i % 5) as u8).collect(), uphill: 2.0, downhill: 0.5 },
        ];
        let outcome = |built: Result<Box<dyn Stepper>, SearchError>| {
            built.map(|mut s| {
                s.run();
                (s.status(), s.cost(), s.expanded(), s.steps(), s.path_indices().to_vec())
            })
        };
        for &algorithm in Algorithm::ALL.iter().filter(|a| a.info().on_page) {
            for links in &all_links {
                for config in [SearchConfig::new(algorithm), SearchConfig::new(algorithm).weight(0.5)] {
                    let first = outcome(build_first(grid.clone(), start, goal, config, links));
                    if FIRST.contains(&algorithm) {
                        let every = outcome(build_linked(grid.clone(), start, goal, config, links));
                        assert_eq!(first, every, "{algorithm} with {links:?}");
                    } else {
                        let Err(e) = first else { panic!("{algorithm} is not in FIRST") };
                        assert!(e.to_string().contains("not in this module"), "{algorithm}: {e}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_algorithm_reads_back_its_own_row() {
        for &a in Algorithm::ALL {
            assert_eq!(a.info().algorithm, a);
        }
    }

    #[test]
    fn labels_and_short_names_are_unique_and_set() {
        let mut labels: Vec<_> = ALGORITHMS.iter().map(|r| r.label).collect();
        let mut shorts: Vec<_> = ALGORITHMS.iter().map(|r| r.short).collect();
        labels.sort_unstable();
        labels.dedup();
        shorts.sort_unstable();
        shorts.dedup();
        assert_eq!(labels.len(), ALGORITHMS.len());
        assert_eq!(shorts.len(), ALGORITHMS.len());
        assert!(ALGORITHMS.iter().all(|r| !r.label.is_empty() && !r.short.is_empty()));
    }

    #[test]
    fn a_setting_is_listed_once_and_the_weight_field_only_where_the_weight_counts() {
        for r in ALGORITHMS {
            for (i, s) in r.settings.iter().enumerate() {
                assert!(!r.settings[i + 1..].contains(s), "{}: {s} twice", r.algorithm);
            }
            assert!(!r.takes(Setting::Weight) || r.weighted, "{}", r.algorithm);
            // A weight multiplies h: an algorithm without a heuristic cannot use one.
            assert!(!r.weighted || r.takes(Setting::Heuristic), "{}", r.algorithm);
        }
    }
}
