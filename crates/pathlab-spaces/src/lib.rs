//! Pathlab in the browser for spaces other than the square grid: weighted graphs, hex
//! tiles, and the navmesh and corner-graph views of a grid map ([`NavLab`]). A module of its
//! own (`pathlab_spaces`), so that the grid page never downloads the graph file reader or the
//! navmesh.
//!
//! A [`SpaceLab`] holds one space and the search shown on it: any algorithm the core's
//! [`build_on`] builds for a space (today BFS, DFS, Dijkstra, greedy best-first and A*; more as
//! the core adds them), held as a `Box<dyn SpaceStepper<_>>`. Like the grid page's `Lab` it
//! hands the page pointers to its per-node buffers (state, g, parent, node places, the extra
//! value such as rhs or a learned h) for zero-copy views. An edit goes to the search with the
//! nodes whose edges changed ([`SpaceStepper::edit_space`]): the incremental searches keep their
//! steps and repair, the others re-run to the step they were on.

use pathlab_bind::{err, parse};
use pathlab_core::formats::graph as graph_file;
use pathlab_core::grid::{Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{self, build_on, Algorithm, EventLog, SearchConfig, SpaceStepper, StepEvent, NO_PARENT};
use pathlab_core::space::navmesh::NavMesh;
use pathlab_core::space::{CostsOn, Graph, HexGrid, HexLayout, Space};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Installs the panic hook once, when the module starts.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

pathlab_bind::search_enums!();

mod navlab;
pub use navlab::{any_angle_optimum, NavKind, NavLab, NavPhase, Solved, MAX_VISIBILITY_CELLS};

/// Builds the navmesh of a `width` x `height` grid (`cells` row-major in the core's codes: 0
/// a wall, 1 open ground) under the diagonal rule named `diagonal`, triangulated or, with
/// `rectangles`, as stacked rectangles, and returns its polygon count. The navmesh benchmark
/// (`bench/navmesh.bench.mjs`) times this call in the browser. A bad size, rule or cell, or a
/// map with no open cell, comes back as an error naming the problem.
#[wasm_bindgen(js_name = navmeshPolygonCount)]
pub fn navmesh_polygon_count(
    width: u32,
    height: u32,
    cells: Vec<u8>,
    diagonal: &str,
    rectangles: bool,
) -> Result<u32, JsError> {
    let grid = Grid::from_cells(width as usize, height as usize, cells).map_err(err)?;
    let rule = parse(diagonal)?;
    let build = if rectangles { NavMesh::build_rectangles } else { NavMesh::build };
    Ok(build(&grid, rule).map_err(err)?.polygon_count() as u32)
}

/// Builds the navmesh of a `width` x `height` grid as the navmesh page does
/// ([`NavMesh::build_auto`]: triangulated up to
/// [`TRIANGULATE_UP_TO_CORNERS`](pathlab_core::space::navmesh::TRIANGULATE_UP_TO_CORNERS)
/// boundary corners, stacked rectangles above) and returns which build it made,
/// `"triangulated"` or `"rectangles"`. The navmesh benchmark times this call beside
/// [`navmesh_polygon_count`]'s two builds. Errors as there.
#[wasm_bindgen(js_name = navmeshAutoBuild)]
pub fn navmesh_auto_build(width: u32, height: u32, cells: Vec<u8>, diagonal: &str) -> Result<String, JsError> {
    let grid = Grid::from_cells(width as usize, height as usize, cells).map_err(err)?;
    let rule = parse(diagonal)?;
    Ok(NavMesh::build_auto(&grid, rule).map_err(err)?.build_kind().name().into())
}

/// The space behind a [`SpaceLab`], with its search.
#[derive(Clone)]
enum Searched {
    Graph(Box<dyn SpaceStepper<Graph>>),
    Hex(Box<dyn SpaceStepper<HexGrid>>),
}

/// Runs `$body` with `$s` bound to the search, whichever space it is on.
macro_rules! with_search {
    ($lab:expr, $s:ident => $body:expr) => {
        match $lab {
            Searched::Graph($s) => $body,
            Searched::Hex($s) => $body,
        }
    };
}

/// One edge for the page.
#[derive(Serialize)]
struct EdgeView {
    from: u32,
    to: u32,
    cost: f64,
    directed: bool,
}

/// One open-list entry for the page, by node number.
#[derive(Serialize)]
struct OpenNode {
    node: u32,
    g: f64,
    h: f64,
    key: f64,
    parent: Option<u32>,
}

/// What a node shows on hover or click.
#[derive(Serialize)]
struct NodeInfo {
    node: u32,
    label: String,
    state: &'static str,
    g: Option<f64>,
    h: f64,
    f: Option<f64>,
    parent: Option<u32>,
    /// The search's second number for the node (`rhs`, `learned h`), when it keeps one.
    extra_label: Option<&'static str>,
    /// Its value (none where infinite).
    extra: Option<f64>,
    /// True when the walking agent stands here.
    agent: bool,
}

/// One neighbour the last step opened or improved.
#[derive(Serialize)]
struct OpenedNode {
    node: u32,
    old_g: Option<f64>,
    g: f64,
    via: u32,
}

/// What the last step did.
#[derive(Serialize)]
struct LastNodeStep {
    kind: &'static str,
    expanded: Option<u32>,
    opened: Vec<OpenedNode>,
}

/// One algorithm and whether it runs on this space.
#[derive(Serialize)]
struct AlgorithmChoice {
    name: &'static str,
    ok: bool,
    why: Option<&'static str>,
}

/// A weighted graph or a hex grid and the search shown on it.
#[wasm_bindgen]
pub struct SpaceLab {
    searched: Searched,
    log: EventLog,
    last: StepEvent<()>,
    /// The nodes expanded since step 0, in order (a node expanded again comes again).
    order: Vec<u32>,
    /// Hex centres (x, y pairs), for the view behind `placesPtr` on a hex grid.
    hex_places: Vec<f64>,
}

/// The first and last nodes: where a new graph's start and goal go.
fn default_nodes(n: usize) -> (u32, u32) {
    (0, n.saturating_sub(1) as u32)
}

#[allow(clippy::needless_pass_by_value)]
fn forget<N>(e: StepEvent<N>) -> StepEvent<()> {
    match e {
        StepEvent::Expanded(_) => StepEvent::Expanded(()),
        StepEvent::Found { cost } => StepEvent::Found { cost },
        StepEvent::NoPath => StepEvent::NoPath,
        StepEvent::Finished => StepEvent::Finished,
    }
}

fn hex_places(hex: &HexGrid) -> Vec<f64> {
    (0..hex.node_count() as u32).flat_map(|n| hex.position(n)).collect()
}

#[wasm_bindgen]
impl SpaceLab {
    /// A graph from the graph file (JSON) or, when the text does not start with `{`, a
    /// weight matrix. Start and goal are the first and last nodes. The message of a bad file
    /// names its line and problem.
    #[wasm_bindgen(js_name = fromGraph)]
    pub fn from_graph(text: &str) -> Result<SpaceLab, JsError> {
        let graph = read_graph(text)?;
        if graph.node_count() == 0 {
            return Err(err("the graph has no nodes"));
        }
        let (s, g) = default_nodes(graph.node_count());
        Self::with(Searched::Graph(build_on(graph, s, g, SearchConfig::new(Algorithm::AStar)).map_err(err)?))
    }

    /// An open hex grid of `width` x `height` cells, `pointy` or `flat` topped.
    #[wasm_bindgen(js_name = hex)]
    pub fn hex(width: u32, height: u32, layout: &str) -> Result<SpaceLab, JsError> {
        let layout: HexLayout = parse(layout)?;
        let grid = Grid::new(width as usize, height as usize).map_err(err)?;
        let y = grid.height() / 2;
        let inset = (grid.width() / 5).min(grid.width() - 1);
        let (s, g) =
            (grid.index(Point::new(inset, y)) as u32, grid.index(Point::new(grid.width() - 1 - inset, y)) as u32);
        let hex = HexGrid::new(grid, layout);
        Self::with(Searched::Hex(build_on(hex, s, g, SearchConfig::new(Algorithm::AStar)).map_err(err)?))
    }

    #[allow(clippy::unnecessary_wraps)]
    fn with(searched: Searched) -> Result<SpaceLab, JsError> {
        let hex_places = match &searched {
            Searched::Hex(s) => hex_places(s.space()),
            Searched::Graph(_) => Vec::new(),
        };
        Ok(SpaceLab { searched, log: EventLog::default(), last: StepEvent::Finished, order: Vec::new(), hex_places })
    }

    /// A copy of this space, start and goal with the same settings but `algorithm`, at step
    /// 0: a pane of compare mode. Refused, with the reason, for an algorithm that cannot run
    /// on this space.
    #[wasm_bindgen(js_name = cloneWith)]
    pub fn clone_with(&self, algorithm: &str) -> Result<SpaceLab, JsError> {
        let algorithm: Algorithm = parse(algorithm)?;
        let searched = match &self.searched {
            Searched::Graph(s) => Searched::Graph(rebuilt(s.as_ref(), s.space().clone(), |c| c.algorithm = algorithm)?),
            Searched::Hex(s) => Searched::Hex(rebuilt(s.as_ref(), s.space().clone(), |c| c.algorithm = algorithm)?),
        };
        Self::with(searched)
    }

    /// `graph` or `hex`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        match self.searched {
            Searched::Graph(_) => "graph".into(),
            Searched::Hex(_) => "hex".into(),
        }
    }

    /// The algorithms the page offers (the registry's rows marked `on_page`), in the order of
    /// the core's registry (the order menus list them), each with whether it runs on this
    /// space and, if not, why.
    pub fn algorithms(&self) -> Result<JsValue, JsError> {
        let list: Vec<AlgorithmChoice> = search::ALGORITHMS
            .iter()
            .filter(|r| r.on_page)
            .map(|r| AlgorithmChoice {
                name: r.algorithm.name(),
                ok: r.square_grid_only.is_none(),
                why: r.square_grid_only,
            })
            .collect();
        serde_wasm_bindgen::to_value(&list).map_err(err)
    }

    /// Chooses the algorithm by name; one that needs a square grid is refused with the reason.
    #[wasm_bindgen(js_name = setAlgorithm)]
    pub fn set_algorithm(&mut self, name: &str) -> Result<(), JsError> {
        let algorithm: Algorithm = parse(name)?;
        self.configure(|c| c.algorithm = algorithm)
    }

    /// Sets the A* weight: a number from 1 to 100.
    #[wasm_bindgen(js_name = setWeight)]
    pub fn set_weight(&mut self, weight: f64) -> Result<(), JsError> {
        self.configure(|c| c.weight = weight)
    }

    /// Chooses the estimate: on a graph `euclidean` (the default), `chebyshev`, `manhattan`,
    /// `octile` or `zero`, each times the graph's smallest cost per unit of length; on a hex
    /// grid any name but `zero` means the hex distance.
    #[wasm_bindgen(js_name = setHeuristic)]
    pub fn set_heuristic(&mut self, name: &str) -> Result<(), JsError> {
        let h: Heuristic = parse(name)?;
        let steps = self.steps();
        // A new estimate changes every node's h: the search starts again (even an incremental
        // one, whose keys depend on h) and re-runs to the step it was on.
        match &mut self.searched {
            Searched::Graph(s) => {
                let mut graph = s.space().clone();
                graph.set_heuristic(h);
                *s = rebuilt(s.as_ref(), graph, |_| {})?;
            }
            Searched::Hex(s) => {
                let mut hex = s.space().clone();
                hex.heuristic = h;
                *s = rebuilt(s.as_ref(), hex, |_| {})?;
            }
        }
        self.rerun(steps);
        Ok(())
    }

    /// The estimate's name as the page shows it.
    #[wasm_bindgen(getter, js_name = heuristicName)]
    pub fn heuristic_name(&self) -> String {
        match &self.searched {
            Searched::Graph(s) => s.space().heuristic().name().into(),
            Searched::Hex(s) if s.space().heuristic == Heuristic::Zero => "zero".into(),
            Searched::Hex(_) => "hex".into(),
        }
    }

    /// True when the estimate in use can never overestimate, so A* with weight 1 finds a
    /// cheapest path.
    #[wasm_bindgen(getter)]
    pub fn admissible(&self) -> bool {
        match &self.searched {
            Searched::Graph(s) => Graph::is_admissible(s.space().heuristic()),
            Searched::Hex(_) => true,
        }
    }

    /// The graph's smallest cost per unit of length, which scales the estimate (1 on hex).
    #[wasm_bindgen(getter)]
    pub fn ratio(&self) -> f64 {
        match &self.searched {
            Searched::Graph(s) => s.space().ratio(),
            Searched::Hex(_) => 1.0,
        }
    }

    /// The algorithm's name.
    #[wasm_bindgen(getter)]
    pub fn algorithm(&self) -> String {
        with_search!(&self.searched, s => s.config().algorithm.name().into())
    }

    /// The A* weight.
    #[wasm_bindgen(getter)]
    pub fn weight(&self) -> f64 {
        with_search!(&self.searched, s => s.config().weight)
    }

    fn configure(&mut self, change: impl FnOnce(&mut SearchConfig)) -> Result<(), JsError> {
        let steps = self.steps();
        match &mut self.searched {
            Searched::Graph(s) => *s = rebuilt(s.as_ref(), s.space().clone(), change)?,
            Searched::Hex(s) => *s = rebuilt(s.as_ref(), s.space().clone(), change)?,
        }
        self.rerun(steps);
        Ok(())
    }

    /// Back to step 0, then forward to step `steps` (or the end), recording the last step.
    fn rerun(&mut self, steps: usize) {
        self.restart();
        self.seek(steps as u32);
    }

    /// Back to step 0, forgetting the last step and the expansion order.
    fn restart(&mut self) {
        with_search!(&mut self.searched, s => s.reset());
        self.log.clear();
        self.last = StepEvent::Finished;
        self.order.clear();
    }

    /// Steps on (each step logged, so the last one is recorded and every expansion joins the
    /// order) until step `k` or the end.
    fn advance_to(&mut self, k: usize) {
        while self.steps() < k && !self.finished() {
            self.step();
        }
    }

    /// After the search was handed an edited space: an incremental search keeps its steps
    /// (and its order) and repairs from here; the others went back to step 0 and go forward
    /// again to the step they were on.
    fn after_edit(&mut self, steps: usize) {
        self.log.clear();
        self.last = StepEvent::Finished;
        if self.steps() < steps || self.steps() == 0 {
            self.order.clear();
            self.advance_to(steps);
        }
    }

    /// How many nodes.
    #[wasm_bindgen(getter, js_name = nodeCount)]
    pub fn node_count(&self) -> u32 {
        with_search!(&self.searched, s => s.space().node_count() as u32)
    }

    /// The start node.
    #[wasm_bindgen(getter)]
    pub fn start(&self) -> u32 {
        with_search!(&self.searched, s => s.start_node())
    }

    /// The goal node.
    #[wasm_bindgen(getter)]
    pub fn goal(&self) -> u32 {
        with_search!(&self.searched, s => s.goal_node())
    }

    /// Moves the start; the search re-runs to the step it was on.
    #[wasm_bindgen(js_name = setStart)]
    pub fn set_start(&mut self, node: u32) -> Result<(), JsError> {
        let goal = self.goal();
        self.set_ends(node, goal)
    }

    /// Moves the goal; the search re-runs to the step it was on.
    #[wasm_bindgen(js_name = setGoal)]
    pub fn set_goal(&mut self, node: u32) -> Result<(), JsError> {
        let start = self.start();
        self.set_ends(start, node)
    }

    fn set_ends(&mut self, start: u32, goal: u32) -> Result<(), JsError> {
        let steps = self.steps();
        with_search!(&mut self.searched, s => s.set_end_nodes(start, goal)).map_err(err)?;
        self.rerun(steps);
        Ok(())
    }

    /// The node's name: its id on a graph, `(x,y)` on a hex grid.
    pub fn label(&self, node: u32) -> Result<String, JsError> {
        self.check(node)?;
        Ok(with_search!(&self.searched, s => s.space().label(node)))
    }

    /// Every node's id (graph) or `(x,y)` (hex), by number.
    pub fn labels(&self) -> Vec<String> {
        with_search!(&self.searched, s => (0..s.space().node_count() as u32).map(|n| s.space().label(n)).collect())
    }

    /// The node with this id, on a graph.
    #[wasm_bindgen(js_name = nodeById)]
    pub fn node_by_id(&self, id: &str) -> Result<u32, JsError> {
        match &self.searched {
            Searched::Graph(s) => s.space().node(id).map_err(err),
            Searched::Hex(_) => Err(err("a hex grid's cells have no ids")),
        }
    }

    /// Pointer to the node places: x, y pairs of f64 (graph units; hex centres for hexes of
    /// circumradius 1). Build the view after any call that may allocate.
    #[wasm_bindgen(js_name = placesPtr)]
    pub fn places_ptr(&self) -> *const f64 {
        match &self.searched {
            Searched::Graph(s) => s.space().places().as_ptr().cast(),
            Searched::Hex(_) => self.hex_places.as_ptr(),
        }
    }

    /// The edges (graph): `{from, to, cost, directed}` by edge number. On a hex grid, none.
    pub fn edges(&self) -> Result<JsValue, JsError> {
        let list: Vec<EdgeView> = match &self.searched {
            Searched::Graph(s) => s
                .space()
                .edges()
                .iter()
                .map(|e| EdgeView { from: e.from, to: e.to, cost: e.cost, directed: e.directed })
                .collect(),
            Searched::Hex(_) => Vec::new(),
        };
        serde_wasm_bindgen::to_value(&list).map_err(err)
    }

    /// Pointer to the per-node states ([`crate::CellState`] bytes).
    #[wasm_bindgen(js_name = statesPtr)]
    pub fn states_ptr(&self) -> *const u8 {
        with_search!(&self.searched, s => s.states().as_ptr())
    }

    /// Pointer to the g values (one f64 per node; infinite where unseen).
    #[wasm_bindgen(js_name = gPtr)]
    pub fn g_ptr(&self) -> *const f64 {
        with_search!(&self.searched, s => s.g_values().as_ptr())
    }

    /// Pointer to the parents (one u32 per node; 4294967295 for none).
    #[wasm_bindgen(js_name = parentsPtr)]
    pub fn parents_ptr(&self) -> *const u32 {
        with_search!(&self.searched, s => s.parents().as_ptr())
    }

    /// Pointer to the hex cells (bytes: 0 wall, 1 ground, more terrain); null on a graph.
    #[wasm_bindgen(js_name = cellsPtr)]
    pub fn cells_ptr(&self) -> *const u8 {
        match &self.searched {
            Searched::Hex(s) => s.space().grid.cells().as_ptr(),
            Searched::Graph(_) => std::ptr::null(),
        }
    }

    /// Hex grid columns (0 on a graph).
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        match &self.searched {
            Searched::Hex(s) => s.space().grid.width() as u32,
            Searched::Graph(_) => 0,
        }
    }

    /// Hex grid rows (0 on a graph).
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u32 {
        match &self.searched {
            Searched::Hex(s) => s.space().grid.height() as u32,
            Searched::Graph(_) => 0,
        }
    }

    /// `pointy` or `flat` on a hex grid; empty on a graph.
    #[wasm_bindgen(getter)]
    pub fn layout(&self) -> String {
        match &self.searched {
            Searched::Hex(s) => s.space().layout.name().into(),
            Searched::Graph(_) => String::new(),
        }
    }

    /// The path once found, as node numbers from start to goal.
    pub fn path(&self) -> Vec<u32> {
        with_search!(&self.searched, s => s.path_indices().to_vec())
    }

    /// One step; returns the status after it.
    pub fn step(&mut self) -> Status {
        let log = &mut self.log;
        self.last = with_search!(&mut self.searched, s => forget(s.step_logged(log)));
        if let Some(n) = self.log.expanded {
            self.order.push(n);
        }
        self.status()
    }

    /// Back one step (by replay).
    pub fn back(&mut self) {
        let steps = self.steps();
        if steps > 0 {
            self.rerun(steps - 1);
        }
    }

    /// To step `k` (or the end), recording the last step taken.
    pub fn seek(&mut self, k: u32) {
        let k = k as usize;
        if k < self.steps() {
            self.restart();
        }
        self.advance_to(k);
    }

    /// To the end.
    pub fn run(&mut self) -> Status {
        self.advance_to(usize::MAX);
        self.status()
    }

    /// Back to step 0.
    pub fn reset(&mut self) {
        self.rerun(0);
    }

    fn finished(&self) -> bool {
        with_search!(&self.searched, s => s.status().is_finished())
    }

    /// Where the search stands.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> Status {
        with_search!(&self.searched, s => s.status()).into()
    }

    /// Steps taken.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> usize {
        with_search!(&self.searched, s => s.steps())
    }

    /// Nodes expanded.
    #[wasm_bindgen(getter)]
    pub fn expanded(&self) -> u32 {
        with_search!(&self.searched, s => s.expanded() as u32)
    }

    /// Nodes on the open list.
    #[wasm_bindgen(getter, js_name = openCount)]
    pub fn open_count(&self) -> u32 {
        with_search!(&self.searched, s => s.open_count() as u32)
    }

    /// The path's cost once found.
    #[wasm_bindgen(getter)]
    pub fn cost(&self) -> Option<f64> {
        with_search!(&self.searched, s => s.cost())
    }

    /// The open list in the order the search takes it, at most `limit` entries.
    #[wasm_bindgen(js_name = openList)]
    pub fn open_list(&self, limit: u32) -> Result<JsValue, JsError> {
        let entries: Vec<OpenNode> = with_search!(&self.searched, s => s.open_entries(limit as usize))
            .into_iter()
            .map(|e| OpenNode {
                node: e.cell,
                g: e.g,
                h: e.h,
                key: e.key,
                parent: (e.parent != NO_PARENT).then_some(e.parent),
            })
            .collect();
        serde_wasm_bindgen::to_value(&entries).map_err(err)
    }

    /// The nodes expanded since step 0, in the order they were expanded (a node the search
    /// expanded again, as the incremental ones do after an edit, comes again).
    #[wasm_bindgen(js_name = expansionOrder)]
    pub fn expansion_order(&self) -> Vec<u32> {
        self.order.clone()
    }

    /// Where the walking agent stands, for the algorithms that have one; none otherwise.
    #[wasm_bindgen(getter, js_name = agentNode)]
    pub fn agent_node(&self) -> Option<u32> {
        with_search!(&self.searched, s => s.agent_node())
    }

    /// Why the search gave up without an answer although the goal may be reachable; none
    /// otherwise.
    #[wasm_bindgen(js_name = gaveUp)]
    pub fn gave_up(&self) -> Option<String> {
        with_search!(&self.searched, s => s.gave_up())
    }

    /// The name of the second number the search keeps per node (`rhs`, `learned h`), or none
    /// when it keeps none.
    #[wasm_bindgen(getter, js_name = cellValuesLabel)]
    pub fn cell_values_label(&self) -> Option<String> {
        with_search!(&self.searched, s => s.cell_values().map(|v| v.label.to_string()))
    }

    /// True when the second number is best painted as a heat map (a learned h).
    #[wasm_bindgen(getter, js_name = cellValuesHeat)]
    pub fn cell_values_heat(&self) -> bool {
        with_search!(&self.searched, s => s.cell_values().is_some_and(|v| v.heat))
    }

    /// Pointer to the second number per node (one f64 per node, infinite where unknown), as
    /// `gPtr`; null when the search keeps none. Build the view after any call that may
    /// allocate.
    #[wasm_bindgen(js_name = cellValuesPtr)]
    pub fn cell_values_ptr(&self) -> *const f64 {
        let n = self.node_count() as usize;
        with_search!(&self.searched, s => match s.cell_values() {
            Some(v) if v.values.len() >= n => v.values.as_ptr(),
            _ => std::ptr::null(),
        })
    }

    /// A node's state, g, h, f and parent.
    #[wasm_bindgen(js_name = nodeInfo)]
    pub fn node_info(&self, node: u32) -> Result<JsValue, JsError> {
        self.check(node)?;
        let info = with_search!(&self.searched, s => {
            let i = node as usize;
            let g = s.g_values()[i];
            let g = g.is_finite().then_some(g);
            let h = s.h_of(node);
            let parent = s.parents()[i];
            let values = s.cell_values();
            NodeInfo {
                node,
                label: s.space().label(node),
                state: pathlab_core::search::CellState::ALL.get(s.states()[i] as usize).map_or("unseen", |c| c.name()),
                g,
                h,
                f: g.map(|g| g + s.config().weight * h),
                parent: (parent != NO_PARENT).then_some(parent),
                extra_label: values.as_ref().map(|v| v.label),
                extra: values.and_then(|v| v.values.get(i).copied()).filter(|v| v.is_finite()),
                agent: s.agent_node() == Some(node),
            }
        });
        serde_wasm_bindgen::to_value(&info).map_err(err)
    }

    /// What the last step did, for the narration.
    #[wasm_bindgen(js_name = lastStep)]
    pub fn last_step(&self) -> Result<JsValue, JsError> {
        let kind = match (self.log.expanded, self.last) {
            (Some(_), _) => "expanded",
            (None, StepEvent::Found { .. }) => "found",
            (None, StepEvent::NoPath) => "no-path",
            _ => "none",
        };
        let step = LastNodeStep {
            kind,
            expanded: self.log.expanded,
            opened: self
                .log
                .opened
                .iter()
                .map(|o| OpenedNode { node: o.node, old_g: o.old_g, g: o.new_g, via: o.parent })
                .collect(),
        };
        serde_wasm_bindgen::to_value(&step).map_err(err)
    }

    fn check(&self, node: u32) -> Result<(), JsError> {
        let n = self.node_count();
        if node < n {
            Ok(())
        } else {
            Err(err(format!("there is no node {node}: the space has {n}")))
        }
    }

    /// Changes the graph with `edit`, which also returns the nodes whose edges changed, or
    /// none when the change reaches further (nodes added or moved: every estimate may change).
    /// The search gets the edited graph with those nodes and repairs, or starts again, and
    /// goes back to the step it was on. On error nothing changes.
    fn edit_graph<T>(
        &mut self,
        edit: impl FnOnce(&mut Graph) -> Result<(T, Option<Vec<u32>>), JsError>,
    ) -> Result<T, JsError> {
        let steps = self.steps();
        let Searched::Graph(s) = &mut self.searched else {
            return Err(err("only a graph can be edited this way"));
        };
        let mut graph = s.space().clone();
        let ratio = graph.ratio();
        let (out, changed) = edit(&mut graph)?;
        // The estimate is scaled by the smallest cost per unit of length: when that moved,
        // every h moved with it and the search starts again.
        #[allow(clippy::float_cmp)]
        let same_h = graph.ratio() == ratio && graph.node_count() == s.space().node_count();
        match changed {
            Some(changed) if same_h => {
                s.edit_space(graph, &changed).map_err(err)?;
                self.after_edit(steps);
            }
            _ => {
                *s = rebuilt(s.as_ref(), graph, |_| {})?;
                self.rerun(steps);
            }
        }
        Ok(out)
    }

    /// Adds a node at (x, y) with the first free id of A..Z, then N27, N28, ...; returns its
    /// number.
    #[wasm_bindgen(js_name = addNode)]
    pub fn add_node(&mut self, x: f64, y: f64) -> Result<u32, JsError> {
        self.edit_graph(|g| {
            let id = free_id(g);
            Ok((g.add_node(&id, x, y).map_err(err)?, None))
        })
    }

    /// Moves a node.
    #[wasm_bindgen(js_name = moveNode)]
    pub fn move_node(&mut self, node: u32, x: f64, y: f64) -> Result<(), JsError> {
        self.edit_graph(|g| Ok((g.move_node(node, x, y).map_err(err)?, None)))
    }

    /// Renames a node.
    #[wasm_bindgen(js_name = renameNode)]
    pub fn rename_node(&mut self, node: u32, id: &str) -> Result<(), JsError> {
        self.edit_graph(|g| Ok((g.rename_node(node, id).map_err(err)?, Some(Vec::new()))))
    }

    /// Removes a node and its edges; the start or goal cannot be removed.
    #[wasm_bindgen(js_name = removeNode)]
    pub fn remove_node(&mut self, node: u32) -> Result<(), JsError> {
        let (start, goal) = (self.start(), self.goal());
        if node == start || node == goal {
            return Err(err("the start and goal cannot be removed: move them to another node first"));
        }
        let steps = self.steps();
        let Searched::Graph(s) = &mut self.searched else {
            return Err(err("only a graph's nodes can be removed"));
        };
        let mut graph = s.space().clone();
        graph.remove_node(node).map_err(err)?;
        let shift = |n: u32| n - u32::from(n > node);
        *s = build_on(graph, shift(start), shift(goal), s.config()).map_err(err)?;
        self.rerun(steps);
        Ok(())
    }

    /// Adds an edge; returns its number.
    #[wasm_bindgen(js_name = addEdge)]
    pub fn add_edge(&mut self, from: u32, to: u32, cost: f64, directed: bool) -> Result<u32, JsError> {
        self.edit_graph(|g| Ok((g.add_edge(from, to, cost, directed).map_err(err)? as u32, Some(vec![from, to]))))
    }

    /// Changes an edge's cost and direction.
    #[wasm_bindgen(js_name = setEdge)]
    pub fn set_edge(&mut self, edge: u32, cost: f64, directed: bool) -> Result<(), JsError> {
        self.edit_graph(|g| {
            let ends = edge_ends(g, edge);
            g.set_edge(edge as usize, cost, directed).map_err(err)?;
            Ok(((), ends))
        })
    }

    /// Removes an edge.
    #[wasm_bindgen(js_name = removeEdge)]
    pub fn remove_edge(&mut self, edge: u32) -> Result<(), JsError> {
        self.edit_graph(|g| {
            let ends = edge_ends(g, edge);
            g.remove_edge(edge as usize).map_err(err)?;
            Ok(((), ends))
        })
    }

    /// Replaces the graph with a graph file or weight matrix, keeping the settings; start
    /// and goal go to the first and last nodes. On error the current graph is kept.
    #[wasm_bindgen(js_name = loadGraph)]
    pub fn load_graph(&mut self, text: &str) -> Result<(), JsError> {
        let mut graph = read_graph(text)?;
        if graph.node_count() == 0 {
            return Err(err("the graph has no nodes"));
        }
        let config = with_search!(&self.searched, s => s.config());
        if let Searched::Graph(s) = &self.searched {
            graph.set_heuristic(s.space().heuristic());
            graph.set_costs_on(s.space().costs_on());
        }
        let (s, g) = default_nodes(graph.node_count());
        self.searched = Searched::Graph(build_on(graph, s, g, config).map_err(err)?);
        self.hex_places.clear();
        self.rerun(0);
        Ok(())
    }

    /// Puts a graph's move costs on the `links` (each edge's cost) or on the `nodes` (the
    /// weight of the node entered, `"cost"` in the graph file, 1 unless set). The search
    /// starts again and goes back to the step it was on.
    #[wasm_bindgen(js_name = setCostsOn)]
    pub fn set_costs_on(&mut self, name: &str) -> Result<(), JsError> {
        let costs_on: CostsOn = parse(name)?;
        self.edit_graph(|g| {
            g.set_costs_on(costs_on);
            Ok(((), None))
        })
    }

    /// Where a graph's move costs live: `links` or `nodes` (`links` on hexes, whose costs
    /// are the terrain of the hex entered).
    #[wasm_bindgen(getter, js_name = costsOn)]
    pub fn costs_on(&self) -> String {
        match &self.searched {
            Searched::Graph(s) => s.space().costs_on().name().into(),
            Searched::Hex(_) => CostsOn::Links.name().into(),
        }
    }

    /// Each node's weight, by number: what entering it costs when the costs are on the
    /// nodes (empty on hexes).
    #[wasm_bindgen(js_name = nodeCosts)]
    pub fn node_costs(&self) -> Vec<f64> {
        match &self.searched {
            Searched::Graph(s) => s.space().node_costs().to_vec(),
            Searched::Hex(_) => Vec::new(),
        }
    }

    /// Sets what entering `node` costs when the costs are on the nodes: a finite number at
    /// least 0 (anything else is refused, naming the node and the number).
    #[wasm_bindgen(js_name = setNodeCost)]
    pub fn set_node_cost(&mut self, node: u32, cost: f64) -> Result<(), JsError> {
        self.edit_graph(|g| Ok((g.set_node_cost(node, cost).map_err(err)?, None)))
    }

    /// The graph as a graph file (JSON).
    #[wasm_bindgen(js_name = toJson)]
    pub fn to_json(&self) -> Result<String, JsError> {
        match &self.searched {
            Searched::Graph(s) => Ok(graph_file::to_json(s.space())),
            Searched::Hex(_) => Err(err("a hex grid is saved as a map, not a graph file")),
        }
    }

    /// The graph as a weight matrix.
    #[wasm_bindgen(js_name = toMatrix)]
    pub fn to_matrix(&self) -> Result<String, JsError> {
        match &self.searched {
            Searched::Graph(s) => Ok(graph_file::to_matrix(s.space())),
            Searched::Hex(_) => Err(err("a hex grid has no weight matrix")),
        }
    }

    /// Paints hex cells (row-major indices) with `value` (0 wall, 1 ground, 3 mud, 5 water),
    /// skipping the start and goal under a wall; returns how many changed. The search
    /// re-runs to the step it was on.
    #[wasm_bindgen(js_name = paintHex)]
    pub fn paint_hex(&mut self, cells: &[u32], value: u8) -> Result<u32, JsError> {
        let steps = self.steps();
        let (start, goal) = (self.start(), self.goal());
        let Searched::Hex(s) = &mut self.searched else {
            return Err(err("only a hex grid has cells to paint"));
        };
        let mut hex = s.space().clone();
        let mut changed = 0;
        let mut touched = Vec::new();
        for &c in cells {
            if (c == start || c == goal) && value == WALL {
                continue;
            }
            let Some(&old) = hex.grid.cells().get(c as usize) else {
                continue;
            };
            if old != value {
                let p = hex.grid.point_at(c as usize);
                hex.grid.set(p, value).map_err(err)?;
                changed += 1;
                touched.push(c);
            }
        }
        if changed > 0 {
            // The painted hexes and their neighbours (open before or after: a wall has none).
            let mut nodes = touched.clone();
            for &c in &touched {
                for space in [s.space(), &hex] {
                    let at = space.at(c);
                    space.for_each_neighbour(c, at, |n, _, _| nodes.push(n));
                    space.for_each_predecessor(c, at, |n, _, _| nodes.push(n));
                }
            }
            nodes.sort_unstable();
            nodes.dedup();
            s.edit_space(hex, &nodes).map_err(err)?;
            self.after_edit(steps);
        }
        Ok(changed)
    }

    /// The hex cell under the point (x, y) in hex units (centres as `placesPtr` gives them),
    /// or none outside the grid.
    #[wasm_bindgen(js_name = hexAt)]
    pub fn hex_at(&self, x: f64, y: f64) -> Option<u32> {
        let Searched::Hex(s) = &self.searched else {
            return None;
        };
        let hex = s.space();
        let s3 = 3f64.sqrt();
        // Fractional axial coordinates, then cube rounding.
        let (q, r) = match hex.layout {
            HexLayout::PointyTop => ((s3 / 3.0 * x - y / 3.0), 2.0 / 3.0 * y),
            HexLayout::FlatTop => (2.0 / 3.0 * x, (-x / 3.0 + s3 / 3.0 * y)),
        };
        let (sx, sy, sz) = (q, r, -q - r);
        let (mut rx, mut ry, rz) = (sx.round(), sy.round(), sz.round());
        let (dx, dy, dz) = ((rx - sx).abs(), (ry - sy).abs(), (rz - sz).abs());
        if dx > dy && dx > dz {
            rx = -ry - rz;
        } else if dy > dz {
            ry = -rx - rz;
        }
        // Axial (q, r) from the stored cell (0, 0) outwards: offset rows or columns.
        let p = hex.cell(rx as i64, ry as i64)?;
        Some(hex.grid.index(p) as u32)
    }
}

/// A new search with the settings, start and goal of `old` (its settings changed by
/// `change`) on `space`, at step 0.
fn rebuilt<S>(
    old: &dyn SpaceStepper<S>,
    space: S,
    change: impl FnOnce(&mut SearchConfig),
) -> Result<Box<dyn SpaceStepper<S>>, JsError>
where
    S: Space + Clone + 'static,
{
    let mut config = old.config();
    change(&mut config);
    build_on(space, old.start_node(), old.goal_node(), config).map_err(err)
}

/// Both ends of edge `edge`, or none when there is no such edge (the edit then fails).
fn edge_ends(g: &Graph, edge: u32) -> Option<Vec<u32>> {
    g.edges().get(edge as usize).map(|e| vec![e.from, e.to])
}

/// Reads a graph file (JSON, when the text starts with `{`) or a weight matrix.
fn read_graph(text: &str) -> Result<Graph, JsError> {
    if text.trim_start().starts_with('{') {
        graph_file::parse_json(text).map_err(err)
    } else {
        graph_file::parse_matrix(text).map_err(err)
    }
}

/// The first id of A..Z not taken, then N27, N28, ...
fn free_id(g: &Graph) -> String {
    let taken = |id: &str| g.node(id).is_ok();
    for c in 'A'..='Z' {
        let id = c.to_string();
        if !taken(&id) {
            return id;
        }
    }
    // A graph has at most MAX_NODES nodes, so one of that many more names is free.
    (27..=27 + pathlab_core::space::graph::MAX_NODES).map(|n| format!("N{n}")).find(|id| !taken(id)).unwrap_or_default()
}
