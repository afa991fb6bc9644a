//! Pathlab in the browser: a thin `wasm-bindgen` layer over `pathlab-core`.
//!
//! A [`Lab`] owns a grid and the search shown on it. JavaScript reads the per-cell buffers
//! (cells, states, g, parents) through typed-array views on the module's memory at the
//! pointers given here, rebuilding the views each frame because the memory may grow.
//! Every fallible call returns a `JsError` whose message names the problem; none panics.
//!
//! `scripts/build-wasm.sh` builds this crate twice: with its default feature `every-search`
//! as `pathlab_searches`, and without it as `pathlab_wasm`, the grid page's first module, whose
//! [`Lab`] runs only the searches of [`first_algorithms`] (the others' code is not linked in).

use pathlab_bind::{err, parse};
use pathlab_core::formats::{course, movingai};
use pathlab_core::generate::{generate, Generator};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::session::{self, Builder, Session};
use pathlab_core::search::{self, Algorithm, Hand, SearchConfig, Stepper};
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod links;
mod requests;
pathlab_bind::search_enums!();
pub use requests::{Requests, MAX_BUDGET};

/// What builds this module's searches. With the feature `every-search` (the default; the
/// module `pathlab_searches`, which the grid page loads when it needs an algorithm the first
/// module does not run), every algorithm; without it (`pathlab_wasm`, the page's first
/// module), only those of [`search::registry::FIRST`] ([`first_algorithms`]), so that the
/// others' code stays out of the first paint.
#[cfg(feature = "every-search")]
pub(crate) const BUILD: Builder = search::build_linked;
/// What builds this module's searches (see the feature `every-search`): only those of
/// [`search::registry::FIRST`].
#[cfg(not(feature = "every-search"))]
pub(crate) const BUILD: Builder = search::registry::build_first;

/// The algorithms (by URL name) that the grid page's first module (`pathlab_wasm`) runs, with
/// or without teleports and slopes: the same list in both modules. The page moves its search
/// into the module with every search (`pathlab_searches`) before it chooses any other.
#[wasm_bindgen(js_name = firstAlgorithms)]
pub fn first_algorithms() -> Vec<String> {
    search::registry::FIRST.iter().map(ToString::to_string).collect()
}

/// Installs the panic hook once, when the module starts.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The largest map file the page opens, in bytes: the page checks a file's size against it
/// before reading the file, so a huge file is neither read nor copied into wasm memory.
#[wasm_bindgen(js_name = maxMapFileBytes)]
pub fn max_map_file_bytes() -> u32 {
    pathlab_core::formats::MAX_FILE_BYTES as u32
}

/// The accepted names of a setting: `algo` (the algorithms the page offers), `heuristic`,
/// `diagonal`, `costs`, `hand`, the search skeleton's `list` and `gcount`, IDA*'s
/// `threshold`, and `costs-on` (where a graph's move costs live: `links` or `nodes`).
#[wasm_bindgen]
pub fn names(setting: &str) -> Result<Vec<String>, JsError> {
    fn all<T: Copy + std::fmt::Display>(values: &[T]) -> Vec<String> {
        values.iter().map(ToString::to_string).collect()
    }
    Ok(match setting {
        "algo" => Algorithm::ALL.iter().filter(|a| a.steps_on_cells()).map(ToString::to_string).collect(),
        "heuristic" => all(Heuristic::ALL),
        "diagonal" => all(Diagonal::ALL),
        "costs" => all(Costs::ALL),
        "hand" => all(Hand::ALL),
        "list" => all(search::ListKind::ALL),
        "gcount" => all(search::GCount::ALL),
        "threshold" => all(search::Threshold::ALL),
        "costs-on" => all(pathlab_core::space::CostsOn::ALL),
        other => return Err(JsError::new(&format!("unknown setting {other:?}"))),
    })
}

/// One row of the core's algorithm registry (`search::ALGORITHMS`) for the page.
#[derive(Serialize)]
#[allow(clippy::struct_excessive_bools)]
struct AlgorithmRow {
    name: &'static str,
    label: &'static str,
    short: &'static str,
    square_grid_only: Option<&'static str>,
    settings: Vec<&'static str>,
    weighted: bool,
    optimal: &'static str,
    inadmissible_misleads: bool,
    any_angle: bool,
    agent: bool,
    incremental: bool,
    goal_expanded: bool,
    order: &'static str,
    order_rule: &'static str,
    exact_order: bool,
}

/// The algorithm registry, one object per algorithm the page offers (the rows marked
/// `on_page`), in the order menus list them: `name`
/// (the URL value), `label` (menus), `short` (sentences), `square_grid_only` (why it needs the
/// square grid, or null), `settings` (of `heuristic`, `weight`, `lookahead`, `sensor`,
/// `cluster`, `hand`, `reopen`, `threshold`, `order`, `plug-ins`: those it takes), `weighted` (a weight above 1 changes it), `optimal`
/// (`always`, `if-admissible` or `never`), `inadmissible_misleads` (a heuristic that can
/// overestimate may cost it the cheapest path, so the page warns of one), `any_angle`, `agent`, `incremental`, `goal_expanded` (a search runs from the goal and expands it, so the
/// closed list need not count the goal apart), `order` (what
/// its open list is ordered by: `f`, `g`, `h`, `queue` or `stack`), `order_rule` (that order
/// in words, with the tie rule) and `exact_order` (the list shown is exactly the order it takes).
#[wasm_bindgen]
pub fn algorithms() -> Result<JsValue, JsError> {
    serde_wasm_bindgen::to_value(&algorithm_rows()).map_err(err)
}

/// The rows behind [`algorithms`].
fn algorithm_rows() -> Vec<AlgorithmRow> {
    search::ALGORITHMS
        .iter()
        .filter(|r| r.on_page)
        .map(|r| AlgorithmRow {
            name: r.algorithm.name(),
            label: r.label,
            short: r.short,
            square_grid_only: r.square_grid_only,
            settings: r.settings.iter().map(|s| s.name()).collect(),
            weighted: r.weighted,
            optimal: r.optimal.name(),
            inadmissible_misleads: r.inadmissible_misleads,
            any_angle: r.any_angle,
            agent: r.agent,
            incremental: r.incremental,
            goal_expanded: r.goal_expanded,
            order: r.order.name(),
            order_rule: r.order.rule(),
            exact_order: r.exact_order,
        })
        .collect()
}

/// The current settings, as a plain object for the page (its flags are read-outs, not state).
#[derive(Serialize)]
#[allow(clippy::struct_excessive_bools)]
struct Settings {
    algo: &'static str,
    heuristic: &'static str,
    diagonal: &'static str,
    costs: &'static str,
    weight: f64,
    start: [usize; 2],
    goal: [usize; 2],
    width: usize,
    height: usize,
    optimal: bool,
    admissible: bool,
    uses_heuristic: bool,
    any_angle: bool,
    incremental: bool,
    has_agent: bool,
    lookahead: u32,
    sensor: u32,
    cluster: u32,
    hand: &'static str,
    seed: u32,
    fog: bool,
    /// The search's switches, as fields of the settings object itself.
    #[serde(flatten)]
    switches: Switches,
}

/// The search's switches by their URL keys: re-opening, IDA*'s threshold rule, the neighbour
/// order and the skeleton's plug-ins.
#[derive(Serialize)]
struct Switches {
    reopen: bool,
    threshold: &'static str,
    order: String,
    list: &'static str,
    ga: f64,
    hb: f64,
    gcount: &'static str,
}

impl Switches {
    fn of(c: &SearchConfig) -> Self {
        Self {
            reopen: c.reopen,
            threshold: c.threshold.name(),
            order: c.order.to_string(),
            list: c.skeleton.list.name(),
            ga: c.skeleton.ga,
            hb: c.skeleton.hb,
            gcount: c.skeleton.gcount.name(),
        }
    }
}

/// A value for the page as a plain object: maps (a flattened struct is one) become objects,
/// not `Map`s.
fn plain<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true)).map_err(err)
}

/// A cell whose estimate is too high, for the page.
#[derive(Serialize)]
struct WorstCell {
    x: usize,
    y: usize,
    h: f64,
    exact: f64,
}

/// The move across which the estimate drops most beyond its cost, for the page.
#[derive(Serialize)]
struct WorstDrop {
    x: usize,
    y: usize,
    to: [usize; 2],
    excess: f64,
}

/// What [`Lab::heuristic_check`] returns.
#[derive(Serialize)]
struct HeuristicCheckOut {
    inadmissible: usize,
    inconsistent: usize,
    worst: Option<WorstCell>,
    worst_drop: Option<WorstDrop>,
}

/// One classic search as the skeleton's settings, for the page's "classic settings" menu.
#[derive(Serialize)]
struct ClassicRow {
    name: &'static str,
    label: &'static str,
    list: &'static str,
    ga: f64,
    hb: f64,
    gcount: &'static str,
}

/// The classic searches as settings of the search skeleton (`algo=template`), in menu order:
/// `name` (the algorithm it runs as, or `weighted-astar`), `label`, and the plug-ins `list`,
/// `ga`, `hb`, `gcount` (the core's `Skeleton::classic`; weighted A* with the weight 1.5 the
/// course suggests).
#[wasm_bindgen]
pub fn classics() -> Result<JsValue, JsError> {
    let rows: Vec<ClassicRow> = [
        (Algorithm::Bfs, 1.0, "bfs", "BFS"),
        (Algorithm::Dfs, 1.0, "dfs", "DFS"),
        (Algorithm::Dijkstra, 1.0, "dijkstra", "Dijkstra"),
        (Algorithm::Greedy, 1.0, "greedy", "Best-first (greedy)"),
        (Algorithm::AStar, 1.0, "astar", "A*"),
        (Algorithm::AStar, 1.5, "weighted-astar", "Weighted A* (w = 1.5)"),
    ]
    .into_iter()
    .filter_map(|(a, w, name, label)| {
        search::Skeleton::classic(a, w).map(|s| ClassicRow {
            name,
            label,
            list: s.list.name(),
            ga: s.ga,
            hb: s.hb,
            gcount: s.gcount.name(),
        })
    })
    .collect();
    serde_wasm_bindgen::to_value(&rows).map_err(err)
}

/// The core's defaults of the search's switches (`SearchConfig::new`), by the URL's keys:
/// `reopen`, `threshold`, `order`, `list`, `ga`, `hb`, `gcount`. The page leaves a switch
/// out of its address, saved settings and share links while it has its default.
#[wasm_bindgen(js_name = switchDefaults)]
pub fn switch_defaults() -> Result<JsValue, JsError> {
    plain(&Switches::of(&SearchConfig::new(Algorithm::AStar)))
}

/// What the page shows about one cell on hover or click.
#[derive(Serialize)]
struct CellInfo {
    x: usize,
    y: usize,
    terrain: u8,
    state: &'static str,
    g: Option<f64>,
    h: f64,
    f: Option<f64>,
    parent: Option<[usize; 2]>,
    /// The algorithm's second number for the cell (rhs, learned h) with its label.
    extra: Option<(&'static str, Option<f64>)>,
}

/// What the last edit cost an incremental search.
#[derive(Serialize)]
struct RepairView {
    changed: usize,
    re_expanded: usize,
    fresh_expanded: usize,
}

/// The walking agent.
#[derive(Serialize)]
struct AgentView {
    at: [usize; 2],
    moves: usize,
    travelled: f64,
    revisits: usize,
}

/// An overlay in plain arrays for the page.
#[derive(Serialize)]
struct OverlayView {
    lines: Vec<(usize, usize, usize, usize, &'static str)>,
    marks: Vec<(usize, usize, &'static str)>,
    boxes: Vec<(usize, usize, usize, usize, &'static str)>,
    notes: Vec<(&'static str, String)>,
}

/// What the last step did, for narration.
#[derive(Serialize)]
struct LastStep {
    kind: &'static str,
    expanded: Option<[usize; 2]>,
    opened: Vec<OpenedInfo>,
}

#[derive(Serialize)]
struct OpenedInfo {
    at: [usize; 2],
    old_g: Option<f64>,
    g: f64,
    /// The parent it was given.
    via: Option<[usize; 2]>,
}

/// One open-list entry for the page.
#[derive(Serialize)]
struct OpenView {
    x: usize,
    y: usize,
    g: f64,
    h: f64,
    key: f64,
    parent: Option<[usize; 2]>,
}

/// The open list for the page: what it is ordered by, whether exactly, and its entries.
#[derive(Serialize)]
struct OpenListView {
    key: &'static str,
    rule: String,
    exact: bool,
    entries: Vec<OpenView>,
}

/// One closed cell for the page.
#[derive(Serialize)]
struct ClosedView {
    x: usize,
    y: usize,
    g: Option<f64>,
}

/// The closed list for the page: how many, and the first few.
#[derive(Serialize)]
struct ClosedListView {
    count: usize,
    cells: Vec<ClosedView>,
}

/// A grid and the search shown on it. What an edit does to the search (re-run to the same
/// step, repair, start again) is the core's [`Session`]; this handle converts its types for
/// the page.
#[wasm_bindgen]
pub struct Lab {
    /// The search and its editing rule (teleports and slopes included; see `links.rs`).
    search: Session,
    /// The heuristic estimates behind [`Lab::h_ptr`], refilled by each call to it.
    h: Vec<f64>,
    /// The heuristic check's flags behind [`Lab::hcheck_ptr`].
    hcheck: Vec<u8>,
}

/// The default ends of a map that came without them, moved off walls.
fn open_ends(grid: &Grid) -> Result<(Point, Point), JsError> {
    session::open_ends(grid).ok_or_else(|| err("the map has no open cell"))
}

fn point(grid: &Grid, x: i32, y: i32) -> Result<Point, JsError> {
    grid.point(i64::from(x), i64::from(y)).map_err(err)
}

#[wasm_bindgen]
impl Lab {
    /// An open grid of `width` x `height` with A* ready to run.
    #[wasm_bindgen(constructor)]
    pub fn new(width: u32, height: u32) -> Result<Lab, JsError> {
        let grid = Grid::new(width as usize, height as usize).map_err(err)?;
        let (start, goal) = session::default_ends(&grid);
        let search =
            Session::with_builder(grid, start, goal, SearchConfig::new(Algorithm::AStar), BUILD).map_err(err)?;
        Ok(Lab { search, h: Vec::new(), hcheck: Vec::new() })
    }

    /// Replaces the map with a course data file (rows, columns, then 0/1/A/B). The settings
    /// stay; on error the current map is kept and the message names the line.
    #[wasm_bindgen(js_name = loadCourse)]
    pub fn load_course(&mut self, text: &str) -> Result<(), JsError> {
        let map = course::parse(text).map_err(err)?;
        let (start, goal) = session::default_ends(&map.grid);
        let start = map.start.unwrap_or(start);
        let goal = map.goal.unwrap_or(goal);
        self.replace(map.grid, start, goal)
    }

    /// Replaces the map with a MovingAI `.map` file; start and goal move to the nearest open
    /// cells of their places when those are walls. On error the current map is kept.
    #[wasm_bindgen(js_name = loadMovingAi)]
    pub fn load_moving_ai(&mut self, text: &str) -> Result<(), JsError> {
        let grid = movingai::parse_map(text).map_err(err)?;
        let (start, goal) = open_ends(&grid)?;
        self.replace(grid, start, goal)
    }

    /// A new map: the settings stay; its teleports or slopes, made for the old one, go.
    fn replace(&mut self, grid: Grid, start: Point, goal: Point) -> Result<(), JsError> {
        self.search.replace(grid, start, goal).map_err(err)
    }

    /// Replaces the map with an open grid of a new size (within 2048 x 2048).
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), JsError> {
        let grid = Grid::new(width as usize, height as usize).map_err(err)?;
        let (start, goal) = session::default_ends(&grid);
        self.replace(grid, start, goal)
    }

    /// The map as a course data file; an error when the start and goal share a cell (the
    /// format has one symbol per cell).
    #[wasm_bindgen(js_name = toCourse)]
    pub fn to_course(&self) -> Result<String, JsError> {
        course::write(self.search.grid(), Some(self.search.start()), Some(self.search.goal())).map_err(err)
    }

    /// The map as a MovingAI `.map` file.
    #[wasm_bindgen(js_name = toMovingAi)]
    pub fn to_moving_ai(&self) -> String {
        movingai::write_map(self.search.grid())
    }

    /// Columns.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.search.grid().width() as u32
    }

    /// Rows.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u32 {
        self.search.grid().height() as u32
    }

    /// Chooses the algorithm by name (`astar`, `dijkstra`, `jps`, `dstar-lite`, ...: see [`names`]).
    #[wasm_bindgen(js_name = setAlgorithm)]
    pub fn set_algorithm(&mut self, name: &str) -> Result<(), JsError> {
        let algorithm = parse(name)?;
        self.configure(|c| c.algorithm = algorithm)
    }

    /// Chooses the heuristic by name.
    #[wasm_bindgen(js_name = setHeuristic)]
    pub fn set_heuristic(&mut self, name: &str) -> Result<(), JsError> {
        let heuristic = parse(name)?;
        self.configure(|c| c.heuristic = heuristic)
    }

    /// Chooses the diagonal rule by name (`never` makes the grid 4-connected).
    #[wasm_bindgen(js_name = setDiagonal)]
    pub fn set_diagonal(&mut self, name: &str) -> Result<(), JsError> {
        let diagonal = parse(name)?;
        self.configure(|c| c.diagonal = diagonal)
    }

    /// Chooses the cost model by name: `real` (1 and sqrt 2) or `integer` (10 and 14).
    #[wasm_bindgen(js_name = setCosts)]
    pub fn set_costs(&mut self, name: &str) -> Result<(), JsError> {
        let costs = parse(name)?;
        self.configure(|c| c.costs = costs)
    }

    /// Sets the A* weight: a number from 1 to 100.
    #[wasm_bindgen(js_name = setWeight)]
    pub fn set_weight(&mut self, weight: f64) -> Result<(), JsError> {
        self.configure(|c| c.weight = weight)
    }

    /// Sets how many moves deep LRTA* and RTA* look before each move (1 to 16).
    #[wasm_bindgen(js_name = setLookahead)]
    pub fn set_lookahead(&mut self, lookahead: u32) -> Result<(), JsError> {
        self.configure(|c| c.lookahead = lookahead)
    }

    /// Sets how far the D* Lite agent sees walls, in cells (0: it sees every change at once).
    #[wasm_bindgen(js_name = setSensor)]
    pub fn set_sensor(&mut self, sensor: u32) -> Result<(), JsError> {
        self.configure(|c| c.sensor = sensor)
    }

    /// Sets the side of a hierarchical A* cluster, in cells.
    #[wasm_bindgen(js_name = setCluster)]
    pub fn set_cluster(&mut self, cluster: u32) -> Result<(), JsError> {
        self.configure(|c| c.cluster = cluster)
    }

    /// Chooses the hand crash and turn keeps on the obstacle (`left` or `right`), or its rule
    /// for the side at each crash (`least-deviation` or `random`).
    #[wasm_bindgen(js_name = setHand)]
    pub fn set_hand(&mut self, name: &str) -> Result<(), JsError> {
        let hand = parse(name)?;
        self.configure(|c| c.hand = hand)
    }

    /// Sets the seed of crash and turn's random side rule (the page's seed).
    #[wasm_bindgen(js_name = setSeed)]
    pub fn set_seed(&mut self, seed: u32) -> Result<(), JsError> {
        self.configure(|c| c.seed = seed)
    }

    /// Turns fog of war on or off: the agents that take it start knowing no walls and learn
    /// them within their sensor radius; the other searches plan on the whole map.
    #[wasm_bindgen(js_name = setFog)]
    pub fn set_fog(&mut self, fog: bool) -> Result<(), JsError> {
        self.configure(|c| c.fog = fog)
    }

    /// Turns re-opening closed nodes on or off (A* and the search skeleton).
    #[wasm_bindgen(js_name = setReopen)]
    pub fn set_reopen(&mut self, reopen: bool) -> Result<(), JsError> {
        self.configure(|c| c.reopen = reopen)
    }

    /// Chooses IDA*'s threshold rule: `next` (the lowest f cut off) or `plus-one` (the book's).
    #[wasm_bindgen(js_name = setThreshold)]
    pub fn set_threshold(&mut self, name: &str) -> Result<(), JsError> {
        let threshold = parse(name)?;
        self.configure(|c| c.threshold = threshold)
    }

    /// Sets the order of the straight neighbours: `nesw`, `wsen` or any other permutation of
    /// the four letters (the diagonal neighbours come after them).
    #[wasm_bindgen(js_name = setOrder)]
    pub fn set_order(&mut self, order: &str) -> Result<(), JsError> {
        let order = parse(order)?;
        self.configure(|c| c.order = order)
    }

    /// Sets the search skeleton's plug-ins (`algo=template`): the open-list kind (`queue`,
    /// `stack` or `priority`), `a` and `b` in `f = a·g + b·h` (0 to 100), and what g counts
    /// (`edges` or `costs`).
    #[wasm_bindgen(js_name = setSkeleton)]
    pub fn set_skeleton(&mut self, list: &str, ga: f64, hb: f64, gcount: &str) -> Result<(), JsError> {
        let skeleton = search::Skeleton { list: parse(list)?, ga, hb, gcount: parse(gcount)? };
        skeleton.validate().map_err(err)?;
        self.configure(|c| c.skeleton = skeleton)
    }

    /// Checks the heuristic towards the goal under the current moves and costs (see the core's
    /// `heuristic_check`): fills the flags behind [`Lab::hcheck_ptr`] and returns
    /// `{inadmissible, inconsistent, worst, worst_drop}`: the counts, the cell of largest
    /// overestimate (`{x, y, h, exact}`, or null) and the move across which h drops most beyond
    /// its cost (`{x, y, to: [x, y], excess}`, or null).
    #[wasm_bindgen(js_name = heuristicCheck)]
    pub fn heuristic_check(&mut self) -> Result<JsValue, JsError> {
        let c = self.search.config();
        let space = pathlab_core::space::SquareGrid::with_config(self.search.grid().clone(), &c);
        let found = pathlab_core::heuristic_check::check(&space, self.search.goal());
        let out = HeuristicCheckOut {
            inadmissible: found.inadmissible,
            inconsistent: found.inconsistent,
            worst: found.worst.map(|w| WorstCell { x: w.cell.x, y: w.cell.y, h: w.h, exact: w.exact }),
            worst_drop: found.worst_drop.map(|d| WorstDrop {
                x: d.cell.x,
                y: d.cell.y,
                to: [d.to.x, d.to.y],
                excess: d.excess,
            }),
        };
        self.hcheck = found.flags;
        serde_wasm_bindgen::to_value(&out).map_err(err)
    }

    /// Pointer to the flags of the last [`Lab::heuristic_check`], one byte per cell,
    /// row-major: 1 inadmissible, 2 inconsistent, 3 both. Build the view after that call.
    #[wasm_bindgen(js_name = hcheckPtr)]
    pub fn hcheck_ptr(&self) -> *const u8 {
        self.hcheck.as_ptr()
    }

    /// Applies a settings change and re-runs to the same step; a refused change keeps the
    /// old settings.
    fn configure(&mut self, change: impl FnOnce(&mut SearchConfig)) -> Result<(), JsError> {
        self.search.configure(change).map_err(err)
    }

    /// The settings as an object: algo, heuristic, diagonal, costs, weight, start, goal,
    /// width, height, and whether the result is guaranteed optimal / the heuristic admissible.
    pub fn settings(&self) -> Result<JsValue, JsError> {
        let c = self.search.config();
        let (s, g) = (self.search.start(), self.search.goal());
        let settings = Settings {
            algo: c.algorithm.name(),
            heuristic: c.heuristic.name(),
            diagonal: c.diagonal.name(),
            costs: c.costs.name(),
            weight: c.weight,
            start: [s.x, s.y],
            goal: [g.x, g.y],
            width: self.search.grid().width(),
            height: self.search.grid().height(),
            optimal: c.is_optimal() && !(self.blind_to_teleports() && c.algorithm.uses_heuristic()),
            admissible: c.heuristic.is_admissible(c.diagonal, c.costs) && !self.blind_to_teleports(),
            uses_heuristic: c.algorithm.uses_heuristic(),
            any_angle: c.algorithm.is_any_angle(),
            incremental: c.algorithm.is_incremental(),
            has_agent: c.algorithm.has_agent(),
            lookahead: c.lookahead,
            sensor: c.sensor,
            cluster: c.cluster,
            hand: c.hand.name(),
            seed: c.seed,
            fog: c.fog,
            switches: Switches::of(&c),
        };
        plain(&settings)
    }

    /// Moves the start; refused on a wall or outside the grid.
    #[wasm_bindgen(js_name = setStart)]
    pub fn set_start(&mut self, x: i32, y: i32) -> Result<(), JsError> {
        let p = point(self.search.grid(), x, y)?;
        let goal = self.search.goal();
        self.search.set_ends(p, goal).map_err(err)
    }

    /// Moves the goal; refused on a wall or outside the grid.
    #[wasm_bindgen(js_name = setGoal)]
    pub fn set_goal(&mut self, x: i32, y: i32) -> Result<(), JsError> {
        let p = point(self.search.grid(), x, y)?;
        let start = self.search.start();
        self.search.set_ends(start, p).map_err(err)
    }

    /// Start column.
    #[wasm_bindgen(getter, js_name = startX)]
    pub fn start_x(&self) -> u32 {
        self.search.start().x as u32
    }

    /// Start row.
    #[wasm_bindgen(getter, js_name = startY)]
    pub fn start_y(&self) -> u32 {
        self.search.start().y as u32
    }

    /// Goal column.
    #[wasm_bindgen(getter, js_name = goalX)]
    pub fn goal_x(&self) -> u32 {
        self.search.goal().x as u32
    }

    /// Goal row.
    #[wasm_bindgen(getter, js_name = goalY)]
    pub fn goal_y(&self) -> u32 {
        self.search.goal().y as u32
    }

    /// The value of a cell (see [`Terrain`]); refused outside the grid.
    pub fn cell(&self, x: i32, y: i32) -> Result<u8, JsError> {
        let p = point(self.search.grid(), x, y)?;
        Ok(self.search.grid().get(p).unwrap_or(0))
    }

    /// Paints `value` on every cell of the straight line from (x0, y0) to (x1, y1), as one
    /// drag segment, then re-runs the search to where it stood. Cells outside the grid, and
    /// the start and goal under a wall, are left alone. Returns how many cells changed.
    #[wasm_bindgen(js_name = paintLine)]
    pub fn paint_line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, value: u8) -> Result<u32, JsError> {
        let changed = self.search.paint_line((x0, y0), (x1, y1), value).map_err(err)?;
        Ok(changed as u32)
    }

    /// Clears every wall and terrain cost.
    pub fn clear(&mut self) -> Result<(), JsError> {
        self.search.clear().map_err(err)?;
        Ok(())
    }

    /// Takes one step; returns the new status.
    pub fn step(&mut self) -> Status {
        self.search.step().into()
    }

    /// Takes up to `n` steps (for the play loop); returns how many were taken.
    /// [`last_step`](Lab::last_step) then tells what the last of them did.
    pub fn advance(&mut self, n: u32) -> u32 {
        self.search.advance(n as usize) as u32
    }

    /// Runs to the end; returns the final status.
    pub fn run(&mut self) -> Status {
        self.search.run().into()
    }

    /// Undoes one step (by replay from the nearest checkpoint).
    pub fn back(&mut self) {
        self.search.back();
    }

    /// Goes to step `k` (or to the end, if the search finishes sooner): from the nearest
    /// checkpoint of the timeline, then by replay. [`last_step`](Lab::last_step) then tells
    /// what step `k` did, as if it had just been taken.
    pub fn seek(&mut self, k: u32) {
        self.search.seek(k as usize);
    }

    /// Back to step 0.
    pub fn reset(&mut self) {
        self.search.reset();
    }

    /// Runs a copy of the search up to `max_steps` further toward its end, leaving
    /// checkpoints for quick seeks behind it (call it once per frame while
    /// [`exploring`](Lab::exploring)); returns the number of steps the whole run takes once
    /// known, else `undefined`.
    pub fn explore(&mut self, max_steps: u32) -> Option<u32> {
        self.search.explore(max_steps as usize).map(|t| t as u32)
    }

    /// True while [`explore`](Lab::explore) has work left (the run's end or the checkpoints
    /// along it are not all known yet).
    #[wasm_bindgen(getter)]
    pub fn exploring(&self) -> bool {
        self.search.exploring()
    }

    /// The number of steps the whole run takes, once known (see [`explore`](Lab::explore)).
    #[wasm_bindgen(getter, js_name = totalSteps)]
    pub fn total_steps(&self) -> Option<u32> {
        self.search.total().map(|t| t as u32)
    }

    /// The furthest step reached so far by the search or by [`explore`](Lab::explore).
    #[wasm_bindgen(getter, js_name = exploredSteps)]
    pub fn explored_steps(&self) -> u32 {
        self.search.explored() as u32
    }

    /// Checkpoints held for quick seeks.
    #[wasm_bindgen(getter)]
    pub fn checkpoints(&self) -> u32 {
        self.search.checkpoints() as u32
    }

    /// The open list in the order the search takes cells off it, at most `limit` entries:
    /// `{key, rule, exact, entries}`, where `key` names what the list is ordered by (`f`, `g`,
    /// `h`, or `queue` / `stack` for breadth- and depth-first search and the skeleton with
    /// those lists, whose `key` is the place in the queue or stack), `rule` says that order
    /// in words with the tie rule (for the skeleton with its chosen `a` and `b`), `exact` is false where the order is approximate (Lazy
    /// Theta* may put its first entry back; IDA*'s entries are its stack; searches without
    /// an order of their own are listed by f), and each entry is `{x, y, g, h, key,
    /// parent}` with `parent` as `[x, y]` or null. The first entry is the cell the next step
    /// takes; for bidirectional A*, the list is that of the side that expands next.
    #[wasm_bindgen(js_name = openList)]
    pub fn open_list(&self, limit: u32) -> Result<JsValue, JsError> {
        let grid = self.search.grid();
        let algorithm = self.search.config().algorithm;
        let entries = self
            .search
            .open_entries(limit as usize)
            .into_iter()
            .map(|e| {
                let p = grid.point_at(e.cell as usize);
                OpenView {
                    x: p.x,
                    y: p.y,
                    g: e.g,
                    h: e.h,
                    key: e.key,
                    parent: (e.parent != search::NO_PARENT).then(|| {
                        let q = grid.point_at(e.parent as usize);
                        [q.x, q.y]
                    }),
                }
            })
            .collect();
        let config = self.search.config();
        let view = OpenListView {
            key: config.open_order().name(),
            rule: config.open_rule(),
            exact: algorithm.info().exact_order,
            entries,
        };
        serde_wasm_bindgen::to_value(&view).map_err(err)
    }

    /// The closed list: `{count, cells}` with `count` the cells expanded, by either
    /// direction, the current one included, and once found the path's cells that have a
    /// cost (those the search reached, not the cells JPS fills in between jump points), and
    /// `cells` the first `limit` of them in map order (row by row), each `{x, y, g}`.
    #[wasm_bindgen(js_name = closedList)]
    pub fn closed_list(&self, limit: u32) -> Result<JsValue, JsError> {
        let list = self.search.closed_list(limit as usize);
        let cells = list.cells.into_iter().map(|(p, g)| ClosedView { x: p.x, y: p.y, g }).collect();
        serde_wasm_bindgen::to_value(&ClosedListView { count: list.count, cells }).map_err(err)
    }

    /// The status.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> Status {
        self.search.status().into()
    }

    /// Steps taken.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> u32 {
        self.search.steps() as u32
    }

    /// Nodes expanded.
    #[wasm_bindgen(getter)]
    pub fn expanded(&self) -> u32 {
        self.search.expanded() as u32
    }

    /// Cells on the open list.
    #[wasm_bindgen(getter, js_name = openCount)]
    pub fn open_count(&self) -> u32 {
        self.search.open_count() as u32
    }

    /// The path cost once found.
    #[wasm_bindgen(getter)]
    pub fn cost(&self) -> Option<f64> {
        self.search.cost()
    }

    /// Pointer to the cell values (one byte each, row-major; see [`Terrain`]).
    #[wasm_bindgen(js_name = cellsPtr)]
    pub fn cells_ptr(&self) -> *const u8 {
        self.search.grid().cells().as_ptr()
    }

    /// Pointer to the cell states (one byte each, row-major; see [`CellState`]).
    #[wasm_bindgen(js_name = statesPtr)]
    pub fn states_ptr(&self) -> *const u8 {
        self.search.states().as_ptr()
    }

    /// Pointer to the g values (one f64 each, row-major; infinite where unseen).
    #[wasm_bindgen(js_name = gPtr)]
    pub fn g_ptr(&self) -> *const f64 {
        self.search.g_values().as_ptr()
    }

    /// Pointer to the parents (one u32 row-major index each; 4294967295 for none).
    #[wasm_bindgen(js_name = parentsPtr)]
    pub fn parents_ptr(&self) -> *const u32 {
        self.search.parents().as_ptr()
    }

    /// Pointer to the path (u32 row-major indices from start to goal).
    #[wasm_bindgen(js_name = pathPtr)]
    pub fn path_ptr(&self) -> *const u32 {
        self.search.path_indices().as_ptr()
    }

    /// Pointer to the heuristic estimates h (one f64 each, row-major, unweighted, in the units
    /// of the cost model), refilled by this call from the current goal and settings. The page
    /// asks for it only when cells are large enough to print their numbers. Build the view
    /// after this call: it may allocate.
    #[wasm_bindgen(js_name = hPtr)]
    pub fn h_ptr(&mut self) -> *const f64 {
        let search = &self.search;
        let grid = search.grid();
        self.h.clear();
        self.h.extend((0..grid.len()).map(|i| search.h(grid.point_at(i))));
        self.h.as_ptr()
    }

    /// Number of cells on the path (0 until found).
    #[wasm_bindgen(getter, js_name = pathLength)]
    pub fn path_length(&self) -> u32 {
        self.search.path_indices().len() as u32
    }

    /// g, h, f and parent of a cell, for the hover read-out; refused outside the grid.
    #[wasm_bindgen(js_name = cellInfo)]
    pub fn cell_info(&self, x: i32, y: i32) -> Result<JsValue, JsError> {
        let grid = self.search.grid();
        let p = point(grid, x, y)?;
        let i = grid.index(p);
        let g = self.search.g_values()[i];
        let g = g.is_finite().then_some(g);
        let h = self.search.h(p);
        let weight = self.search.config().weight;
        let parent = self.search.parents()[i];
        let state = self.search.states()[i];
        let info = CellInfo {
            x: p.x,
            y: p.y,
            terrain: grid.cells()[i],
            state: pathlab_core::search::CellState::ALL.get(state as usize).map_or("unseen", |s| s.name()),
            g,
            h,
            f: g.map(|g| g + weight * h),
            parent: (parent != search::NO_PARENT).then(|| {
                let q = grid.point_at(parent as usize);
                [q.x, q.y]
            }),
            extra: self.search.cell_values().map(|v| {
                let value = v.values.get(i).copied().filter(|x| x.is_finite());
                (v.label, value)
            }),
        };
        serde_wasm_bindgen::to_value(&info).map_err(err)
    }

    /// What the algorithm draws over the grid for its last step: `lines` as
    /// `[x0, y0, x1, y1, kind]`, `marks` as `[x, y, kind]`, `boxes` (rectangles of cells,
    /// corners included) as `[x0, y0, x1, y1, kind]`, with kinds by name (the core's
    /// `LineKind`, `MarkKind` and `BoxKind` names), and `notes` as `[name, value]` pairs.
    pub fn overlay(&self) -> Result<JsValue, JsError> {
        let overlay = self.search.overlay();
        let grid = self.search.grid();
        let at = |i: u32| grid.point_at(i as usize);
        let view = OverlayView {
            lines: overlay
                .lines
                .iter()
                .map(|l| {
                    let (a, b) = (at(l.from), at(l.to));
                    (a.x, a.y, b.x, b.y, l.kind.name())
                })
                .collect(),
            marks: overlay.marks.iter().map(|m| (at(m.cell).x, at(m.cell).y, m.kind.name())).collect(),
            boxes: overlay.boxes.iter().map(|b| (b.min.x, b.min.y, b.max.x, b.max.y, b.kind.name())).collect(),
            notes: overlay.notes,
        };
        serde_wasm_bindgen::to_value(&view).map_err(err)
    }

    /// What the last edit cost an incremental search (LPA*, D* Lite): `{changed,
    /// re_expanded, fresh_expanded}`, or `undefined` before any edit and for other searches.
    pub fn repair(&self) -> Result<JsValue, JsError> {
        let view = self.search.repair().map(|r| RepairView {
            changed: r.changed,
            re_expanded: r.re_expanded,
            fresh_expanded: r.fresh_expanded,
        });
        serde_wasm_bindgen::to_value(&view).map_err(err)
    }

    /// The walking agent (D* Lite, LRTA*, RTA*, crash and turn): `{at, moves, travelled,
    /// revisits}`, or `undefined` for searches without one.
    pub fn agent(&self) -> Result<JsValue, JsError> {
        let view = self.search.agent().map(|a| AgentView {
            at: [a.at.x, a.at.y],
            moves: a.moves,
            travelled: a.travelled,
            revisits: a.revisits,
        });
        serde_wasm_bindgen::to_value(&view).map_err(err)
    }

    /// The name of the algorithm's second number per cell (`rhs`, `learned h`), or
    /// `undefined` when it keeps none.
    #[wasm_bindgen(js_name = cellValuesLabel)]
    pub fn cell_values_label(&self) -> Option<String> {
        self.search.cell_values().map(|v| v.label.to_string())
    }

    /// True when the second number per cell is best shown as a heat map.
    #[wasm_bindgen(js_name = cellValuesHeat)]
    pub fn cell_values_heat(&self) -> bool {
        self.search.cell_values().is_some_and(|v| v.heat)
    }

    /// Pointer to the second number per cell (f64, one per cell, row-major; infinite where
    /// unknown); null when the algorithm keeps none.
    #[wasm_bindgen(js_name = cellValuesPtr)]
    pub fn cell_values_ptr(&self) -> *const f64 {
        self.search.cell_values().map_or(std::ptr::null(), |v| v.values.as_ptr())
    }

    /// Pointer to what a walking agent has seen (u8, one per cell, row-major: 0 not yet seen,
    /// 1 seen free, 2 seen wall), for the agents that see only part of the map (the explorer,
    /// D* Lite under fog); null for the searches that know the whole map.
    #[wasm_bindgen(js_name = sensedPtr)]
    pub fn sensed_ptr(&self) -> *const u8 {
        self.search.sensed().map_or(std::ptr::null(), <[u8]>::as_ptr)
    }

    /// Why the search stopped without an answer, when it did (IDA* at its visit limit):
    /// the status then reads `no-path`, but the goal may still be reachable.
    #[wasm_bindgen(js_name = gaveUp)]
    pub fn gave_up(&self) -> Option<String> {
        self.search.gave_up()
    }

    /// How many numbers the algorithm keeps per cell (8 for JPS+'s jump distances: N, NE, E,
    /// SE, S, SW, W, NW), or 0 when it keeps none.
    #[wasm_bindgen(js_name = cellTablePerCell)]
    pub fn cell_table_per_cell(&self) -> u32 {
        self.search.cell_table().map_or(0, |t| t.per_cell as u32)
    }

    /// Pointer to the per-cell numbers (i32, `perCell` per cell, row-major); null when none.
    #[wasm_bindgen(js_name = cellTablePtr)]
    pub fn cell_table_ptr(&self) -> *const i32 {
        self.search.cell_table().map_or(std::ptr::null(), |t| t.values.as_ptr())
    }

    /// What the last step did (the last single step, or the last of an advance, a seek or
    /// a run): its kind (`expanded`, `found`, `no-path`, `none`), the cell expanded and the
    /// neighbours opened or improved (`at`, `old_g`, `g`, and `via`, the parent given).
    #[wasm_bindgen(js_name = lastStep)]
    pub fn last_step(&self) -> Result<JsValue, JsError> {
        let grid = self.search.grid();
        let at = |i: u32| {
            let p = grid.point_at(i as usize);
            [p.x, p.y]
        };
        let log = self.search.log();
        let step = LastStep {
            kind: self.search.last_kind(),
            expanded: log.expanded.map(at),
            opened: log
                .opened
                .iter()
                .map(|o| OpenedInfo {
                    at: at(o.node),
                    old_g: o.old_g,
                    g: o.new_g,
                    via: (o.parent != search::NO_PARENT).then(|| at(o.parent)),
                })
                .collect(),
        };
        serde_wasm_bindgen::to_value(&step).map_err(err)
    }
}

// ---- the map editor: generators and whole-grid loads (www/editor.js, persist.js, share.js) ----

#[wasm_bindgen]
impl Lab {
    /// Replaces the map with a generated one of the current size: `kind` is `maze`, `random`
    /// or `rooms`; `density` (0 to 1) is the wall density of `random`. The same seed gives the
    /// same map. Start and goal move to the generator's suggestion; the settings stay. On
    /// error the current map is kept.
    pub fn generate(&mut self, kind: &str, seed: u32, density: f64) -> Result<(), JsError> {
        let kind: Generator = parse(kind)?;
        let grid = self.search.grid();
        let map = generate(kind, grid.width(), grid.height(), u64::from(seed), density).map_err(err)?;
        self.replace(map.grid, map.start, map.goal)
    }

    /// Replaces the map with `width` x `height` row-major cell values (0 wall, 1 ground, more
    /// is terrain). Start and goal go to their default places, or the nearest open cells;
    /// move them afterwards with `setStart` / `setGoal`. On error the current map is kept.
    #[wasm_bindgen(js_name = loadCells)]
    pub fn load_cells(&mut self, width: u32, height: u32, cells: &[u8]) -> Result<(), JsError> {
        let grid = Grid::from_cells(width as usize, height as usize, cells.to_vec()).map_err(err)?;
        let (start, goal) = open_ends(&grid)?;
        self.replace(grid, start, goal)
    }
}

// ---- compare mode and correctness warnings (www/compare.js, www/warnings.js) ----

#[wasm_bindgen]
impl Lab {
    /// A new Lab on a copy of this map (cells, start and goal) with the same settings but the
    /// algorithm `algo`, at step 0: one pane of the comparison, or the reference Dijkstra of
    /// the warnings. Refused, with the reason, when `algo` is unknown or cannot run on this
    /// map (JPS on terrain, for one); this Lab is left as it was.
    #[wasm_bindgen(js_name = cloneMap)]
    pub fn clone_map(&self, algo: &str) -> Result<Lab, JsError> {
        let search = self.search.with_algorithm(parse(algo)?).map_err(err)?;
        Ok(Lab { search, h: Vec::new(), hcheck: Vec::new() })
    }

    /// Why the algorithm `algo` cannot run on this map with the current settings and links
    /// (the message choosing it would give), or `undefined` when it can: the algorithm menu
    /// marks the refused ones. Cheap: nothing is built ([`search::refusal`]).
    pub fn refusal(&self, algo: &str) -> Result<Option<String>, JsError> {
        let mut config = self.search.config();
        config.algorithm = parse(algo)?;
        Ok(search::refusal(self.search.grid(), &config, self.search.links()).map(|e| e.to_string()))
    }

    /// Runs the search from step 0 to the end by stepping, never restoring a saved copy of
    /// it, so that timing this call times the algorithm (compare mode's run time).
    #[wasm_bindgen(js_name = runFromScratch)]
    pub fn run_from_scratch(&mut self) -> Status {
        self.search.run_from_scratch().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_rows_name_every_algorithm_on_the_page_once_with_names_the_setters_accept() {
        let rows = algorithm_rows();
        let mut names: Vec<_> = rows.iter().map(|r| r.name).collect();
        names.sort_unstable();
        let mut all: Vec<_> = Algorithm::ALL.iter().filter(|a| a.info().on_page).map(|a| a.name()).collect();
        all.sort_unstable();
        assert_eq!(names, all);
        // The references off the page (the visibility graph) are neither rows nor URL values.
        assert!(!names.contains(&"visibility"));
        let Ok(mut accepted) = super::names("algo") else { panic!("algo names") };
        accepted.sort_unstable();
        assert_eq!(accepted, all);
        for r in &rows {
            assert!(r.name.parse::<Algorithm>().is_ok());
            assert!(r.settings.iter().all(|s| s.parse::<search::Setting>().is_ok()), "{}", r.name);
            assert!(["f", "g", "h", "queue", "stack"].contains(&r.order), "{}", r.name);
            assert!(["always", "if-admissible", "never"].contains(&r.optimal), "{}", r.name);
        }
    }

    #[test]
    fn h_ptr_holds_the_estimate_of_every_cell() {
        let Ok(mut lab) = Lab::new(7, 4) else { panic!("a 7x4 lab") };
        let ptr = lab.h_ptr();
        assert_eq!(ptr, lab.h.as_ptr());
        assert_eq!(lab.h.len(), 28);
        let grid = lab.search.grid();
        for (i, h) in lab.h.iter().enumerate() {
            assert_eq!(*h, lab.search.h(grid.point_at(i)));
        }
        assert_eq!(lab.h[grid.index(lab.search.goal())], 0.0);
    }

    #[test]
    fn clone_map_copies_cells_ends_and_settings_with_another_algorithm() {
        let Ok(mut lab) = Lab::new(9, 5) else { panic!("a 9x5 lab") };
        let painted = lab.paint_line(4, 0, 4, 3, 0).map_err(|_| "paint").and_then(|_| {
            lab.set_heuristic("manhattan").map_err(|_| "heuristic")?;
            lab.set_weight(2.0).map_err(|_| "weight")
        });
        assert!(painted.is_ok());
        lab.run();
        let Ok(copy) = lab.clone_map("dijkstra") else { panic!("a copy running Dijkstra") };
        assert_eq!(copy.search.grid().cells(), lab.search.grid().cells());
        assert_eq!((copy.search.start(), copy.search.goal()), (lab.search.start(), lab.search.goal()));
        let mut expected = lab.search.config();
        expected.algorithm = Algorithm::Dijkstra;
        assert_eq!(copy.search.config(), expected, "every setting but the algorithm is copied");
        assert_eq!(copy.search.steps(), 0, "the copy starts at step 0");
        assert!(lab.search.status().is_finished(), "the original keeps its state");
    }
}
