//! Loading a map with its scenario file, and solving the problems with one reused search.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use pathlab_core::formats::movingai::{self, Problem};
use pathlab_core::formats::{MAX_FILE_BYTES, MAX_SCEN_BYTES};
use pathlab_core::grid::{Grid, Point, WALL};
use pathlab_core::search::navmesh::NavmeshSearch;
use pathlab_core::search::visibility::VisibilityGraph;
use pathlab_core::search::{build, Algorithm, SearchConfig, Stepper};
use pathlab_core::space::navmesh::{NavBuild, NavMesh};

use crate::args::Run;
use crate::Failure;

/// A map and the problems chosen from its scenario file.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The map.
    pub grid: Grid,
    /// The chosen problems, each with its 0-based index among the file's problems.
    pub problems: Vec<(usize, Problem)>,
    /// How many problems the file holds.
    pub total: usize,
}

/// Reads the map and scenario files named in `run` and picks the problems to run.
///
/// Every problem of the file must be for a map of this size and have its start and goal on
/// open cells; otherwise the error names the scenario file and line.
pub fn load(run: &Run) -> Result<Loaded, Failure> {
    let map_text = read_text(&run.map, MAX_FILE_BYTES as u64)?;
    let grid = movingai::parse_map(&map_text).map_err(|e| in_file(&run.map, e))?;
    let scen_text = read_text(&run.scen, MAX_SCEN_BYTES as u64)?;
    let all = movingai::parse_scen(&scen_text).map_err(|e| in_file(&run.scen, e))?;
    for p in &all {
        if (p.width, p.height) != (grid.width(), grid.height()) {
            return Err(Failure::input(format!(
                "{}: line {}: the problem is for a map of {}x{} (width x height), but {} is {}x{}",
                run.scen.display(),
                p.line,
                p.width,
                p.height,
                run.map.display(),
                grid.width(),
                grid.height()
            )));
        }
        for (which, at) in [("start", p.start), ("goal", p.goal)] {
            if !grid.is_passable(at) {
                return Err(Failure::input(format!(
                    "{}: line {}: the {which} {at} is a wall in {}",
                    run.scen.display(),
                    p.line,
                    run.map.display()
                )));
            }
        }
    }
    let total = all.len();
    let problems = run.selection(total).into_iter().map(|i| (i, all[i].clone())).collect();
    Ok(Loaded { grid, problems, total })
}

/// Reads a text file of at most `limit` bytes; the error names the file. Reads no more than
/// `limit + 1` bytes whatever the file says its length is, so a device or a pipe (whose
/// reported length is 0) is refused once it passes the limit, not read to the end.
pub fn read_text(path: &Path, limit: u64) -> Result<String, Failure> {
    use std::io::Read;
    let fail = |what: String| Failure::input(format!("{}: {what}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    let meta = file.metadata().map_err(|e| fail(format!("cannot read: {e}")))?;
    if meta.is_dir() {
        return Err(fail("is a folder, not a file".into()));
    }
    if meta.len() > limit {
        return Err(fail(format!("the file is {} bytes, over the limit of {limit}", meta.len())));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| fail(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(fail(format!("more than {limit} bytes, over the limit (reading stopped there)")));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].split(|&b| b == b'\n').count();
        fail(format!("line {line}: not UTF-8 text (byte {at})"))
    })
}

/// Prefixes a parser's complaint (which names the line) with the file.
pub fn in_file(path: &Path, error: impl std::fmt::Display) -> Failure {
    Failure::input(format!("{}: {error}", path.display()))
}

/// The result of one problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The path's cost, or `None` when there is no path.
    pub cost: Option<f64>,
    /// Nodes expanded.
    pub expanded: usize,
    /// Time to reset the search and run it, in microseconds.
    pub micros: f64,
    /// Why the search stopped without an answer (IDA* at its visit limit), if it did.
    pub gave_up: Option<String>,
}

/// Solves problems on one map with a single search whose buffers are reused between them,
/// or with what is built once per map: the navmesh, or the visibility graph.
pub struct Solver {
    engine: Engine,
    scen: PathBuf,
}

/// What runs the problems: a grid stepper, or what is built once for them all (the navmesh,
/// the visibility graph: neither is a grid stepper, see `AlgorithmInfo::on_page`).
enum Engine {
    Grid(Box<dyn Stepper>),
    Navmesh(Box<NavmeshSolver>),
    Visibility {
        /// The map.
        grid: Grid,
        /// The graph (boxed: it is large beside a stepper's pointer).
        graph: Box<VisibilityGraph>,
        /// How long building it took, in microseconds.
        built_micros: f64,
    },
}

/// The visibility graph a [`Solver`] built: its size and how long it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphBuild {
    /// Its vertices (convex corners, and pinches under `always`).
    pub vertices: usize,
    /// The edge ends its searches found (edges are found a vertex at a time, when a search
    /// first needs them, so this grows with the problems solved).
    pub edges: usize,
    /// The build time in microseconds.
    pub micros: f64,
}

/// The navmesh of the map, and its search once the first problem has set it up.
struct NavmeshSolver {
    grid: Grid,
    mesh: Arc<NavMesh>,
    search: Option<NavmeshSearch>,
}

/// The centre of a cell, where the navmesh search starts and ends.
pub fn centre(p: Point) -> [f64; 2] {
    [p.x as f64 + 0.5, p.y as f64 + 0.5]
}

impl Engine {
    fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, String> {
        if config.algorithm == Algorithm::Navmesh {
            let mesh = NavMesh::build_auto(&grid, config.diagonal).map_err(|e| e.to_string())?;
            Ok(Self::Navmesh(Box::new(NavmeshSolver { grid, mesh: Arc::new(mesh), search: None })))
        } else if config.algorithm == Algorithm::Visibility {
            let started = Instant::now();
            let graph = Box::new(VisibilityGraph::new(&grid, config.diagonal).map_err(|e| e.to_string())?);
            let built_micros = started.elapsed().as_secs_f64() * 1e6;
            Ok(Self::Visibility { grid, graph, built_micros })
        } else {
            build(grid, start, goal, config).map(Self::Grid).map_err(|e| e.to_string())
        }
    }

    fn grid(&self) -> &Grid {
        match self {
            Self::Grid(search) => search.grid(),
            Self::Navmesh(n) => &n.grid,
            Self::Visibility { grid, .. } => grid,
        }
    }
}

impl Solver {
    /// A solver for `grid`, set up on `first` (any of the problems to come), which comes
    /// from the scenario file `scen` (named in messages).
    pub fn new(grid: Grid, first: &Problem, config: SearchConfig, scen: &Path) -> Result<Self, Failure> {
        let engine = Engine::new(grid, first.start, first.goal, config)
            .map_err(|e| in_file(scen, format!("line {}: {e}", first.line)))?;
        Ok(Self { engine, scen: scen.to_path_buf() })
    }

    /// Changes the settings for the problems to come.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), Failure> {
        let grid = self.engine.grid().clone();
        let (start, goal) = match &self.engine {
            Engine::Grid(search) => (search.start(), search.goal()),
            // A navmesh or a visibility graph has no ends of its own; any open cell will do
            // (the map has one, or there would be no mesh or graph).
            Engine::Navmesh(_) | Engine::Visibility { .. } => {
                let open = grid.cells().iter().position(|&c| c != WALL).map_or(Point::new(0, 0), |i| grid.point_at(i));
                (open, open)
            }
        };
        self.engine = Engine::new(grid, start, goal, config).map_err(Failure::usage)?;
        Ok(())
    }

    /// The navmesh's polygon count, build time in microseconds and how it was built, when the
    /// solver runs the navmesh.
    pub fn navmesh_build(&self) -> Option<(usize, f64, NavBuild)> {
        match &self.engine {
            Engine::Navmesh(n) => {
                Some((n.mesh.polygon_count(), n.mesh.build_micros().unwrap_or(0.0), n.mesh.build_kind()))
            }
            Engine::Grid(_) | Engine::Visibility { .. } => None,
        }
    }

    /// The visibility graph built for `--algo visibility`, if that is what solves.
    pub fn graph_build(&self) -> Option<GraphBuild> {
        match &self.engine {
            Engine::Visibility { graph, built_micros, .. } => {
                Some(GraphBuild { vertices: graph.vertex_count(), edges: graph.edges_found(), micros: *built_micros })
            }
            Engine::Grid(_) | Engine::Navmesh(_) => None,
        }
    }

    /// Runs one problem to the end.
    pub fn solve(&mut self, problem: &Problem) -> Result<Outcome, Failure> {
        let started = Instant::now();
        let at_line = |e: &dyn std::fmt::Display| in_file(&self.scen, format!("line {}: {e}", problem.line));
        match &mut self.engine {
            Engine::Grid(search) => {
                search.set_ends(problem.start, problem.goal).map_err(|e| at_line(&e))?;
                search.run();
                let micros = started.elapsed().as_secs_f64() * 1e6;
                Ok(Outcome { cost: search.cost(), expanded: search.expanded(), micros, gave_up: search.gave_up() })
            }
            Engine::Navmesh(n) => {
                let (s, g) = (centre(problem.start), centre(problem.goal));
                let search = match &mut n.search {
                    Some(search) => {
                        search.set_ends(s, g).map_err(|e| at_line(&e))?;
                        search
                    }
                    None => n.search.insert(NavmeshSearch::new(Arc::clone(&n.mesh), s, g).map_err(|e| at_line(&e))?),
                };
                search.run();
                let path = search.path();
                let micros = started.elapsed().as_secs_f64() * 1e6;
                Ok(Outcome { cost: path.map(|p| p.length), expanded: search.expanded(), micros, gave_up: None })
            }
            Engine::Visibility { graph, .. } => {
                let found = graph.shortest_path(problem.start, problem.goal).map_err(|e| at_line(&e))?;
                let micros = started.elapsed().as_secs_f64() * 1e6;
                Ok(Outcome { cost: found.cost, expanded: found.expanded, micros, gave_up: None })
            }
        }
    }
}

/// How a result stands against the `.scen` optimum, under the rules `--check` applies: the
/// one place they are written.
///
/// Every algorithm must find a path (the `.scen` problems all have one). Then:
///
/// | algorithm | its cost must be |
/// | --- | --- |
/// | optimal on the grid (Dijkstra; A* with weight 1 and an admissible heuristic) | the optimum, within the problem's tolerance |
/// | other grid searches | no cheaper than the optimum (less the tolerance) |
/// | any-angle (Theta*, Lazy Theta*, A* + smoothing) | no shorter than the straight line from start to goal (less the tolerance): a path at any angle may beat the 8-connected optimum |
/// | optimal any-angle (visibility) | as any-angle, and no longer than the optimum (plus the tolerance): every 8-connected path is one of the paths it chooses from |
///
/// Returns a description of the mismatch, if any.
pub fn mismatch(config: &SearchConfig, problem: &Problem, cost: Option<f64>) -> Option<String> {
    let Some(cost) = cost else {
        return Some(format!("no path found, but the optimum is {}", problem.optimal));
    };
    let off = cost - problem.optimal;
    let tolerance = problem.tolerance;
    if config.algorithm.is_any_angle() {
        let dx = problem.start.x.abs_diff(problem.goal.x) as f64;
        let dy = problem.start.y.abs_diff(problem.goal.y) as f64;
        let line = dx.hypot(dy);
        if cost < line - tolerance {
            return Some(format!("cost {cost} is below the straight-line distance {line:.6} from start to goal"));
        }
        return (config.is_optimal() && off > tolerance).then(|| {
            format!(
                "cost {cost} is above the 8-connected optimum {} by {off:.6}, more than the tolerance {tolerance}, \
                 but the exact any-angle optimum is never longer",
                problem.optimal
            )
        });
    }
    if config.is_optimal() {
        (off.abs() > tolerance).then(|| {
            format!(
                "cost {cost} is {} the optimum {} by {:.6}, more than the tolerance {tolerance}",
                if off > 0.0 { "above" } else { "below" },
                problem.optimal,
                off.abs(),
            )
        })
    } else {
        (off < -tolerance).then(|| {
            format!(
                "cost {cost} is below the optimum {} by {:.6}, more than the tolerance {tolerance}",
                problem.optimal, -off
            )
        })
    }
}
