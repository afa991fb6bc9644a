//! Loading a map with its scenario file, and solving the problems with one reused search.

use std::path::{Path, PathBuf};
use std::time::Instant;

use pathlab_core::formats::movingai::{self, Problem};
use pathlab_core::formats::{MAX_FILE_BYTES, MAX_SCEN_BYTES};
use pathlab_core::grid::{Grid, Point};
use pathlab_core::search::visibility::VisibilityGraph;
use pathlab_core::search::{build, Algorithm, SearchConfig, SearchError, Stepper};

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
/// or, for `visibility`, with one visibility graph built once and queried per problem.
pub struct Solver {
    engine: Engine,
    grid: Grid,
    scen: PathBuf,
}

/// What answers the problems.
enum Engine {
    /// A stepper, run to the end.
    Stepper(Box<dyn Stepper>),
    /// The visibility graph, built once (not a stepper; see `AlgorithmInfo::on_page`).
    Visibility {
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
    /// Its edges.
    pub edges: usize,
    /// The build time in microseconds.
    pub micros: f64,
}

impl Solver {
    /// A solver for `grid`, set up on `first` (any of the problems to come), which comes
    /// from the scenario file `scen` (named in messages).
    pub fn new(grid: Grid, first: &Problem, config: SearchConfig, scen: &Path) -> Result<Self, Failure> {
        let engine = engine(&grid, first.start, first.goal, config)
            .map_err(|e| in_file(scen, format!("line {}: {e}", first.line)))?;
        Ok(Self { engine, grid, scen: scen.to_path_buf() })
    }

    /// Changes the settings for the problems to come.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), Failure> {
        let (start, goal) = match &self.engine {
            Engine::Stepper(search) => (search.start(), search.goal()),
            // Any open cell will do: the ends are set again for every problem.
            Engine::Visibility { .. } => {
                let open =
                    (0..self.grid.cells().len()).map(|i| self.grid.point_at(i)).find(|&p| self.grid.is_passable(p));
                let p = open.ok_or_else(|| Failure::input("the map has no open cell"))?;
                (p, p)
            }
        };
        self.engine = engine(&self.grid, start, goal, config).map_err(|e| Failure::usage(e.to_string()))?;
        Ok(())
    }

    /// The visibility graph built for `--algo visibility`, if that is what solves.
    pub fn graph_build(&self) -> Option<GraphBuild> {
        match &self.engine {
            Engine::Stepper(_) => None,
            Engine::Visibility { graph, built_micros } => {
                Some(GraphBuild { vertices: graph.vertex_count(), edges: graph.edge_count(), micros: *built_micros })
            }
        }
    }

    /// Runs one problem to the end.
    pub fn solve(&mut self, problem: &Problem) -> Result<Outcome, Failure> {
        let bad = |e: pathlab_core::search::SearchError| in_file(&self.scen, format!("line {}: {e}", problem.line));
        match &mut self.engine {
            Engine::Stepper(search) => {
                let started = Instant::now();
                search.set_ends(problem.start, problem.goal).map_err(bad)?;
                search.run();
                let micros = started.elapsed().as_secs_f64() * 1e6;
                Ok(Outcome { cost: search.cost(), expanded: search.expanded(), micros, gave_up: search.gave_up() })
            }
            Engine::Visibility { graph, .. } => {
                let started = Instant::now();
                let found = graph.shortest_path(problem.start, problem.goal).map_err(bad)?;
                let micros = started.elapsed().as_secs_f64() * 1e6;
                Ok(Outcome { cost: found.cost, expanded: found.expanded, micros, gave_up: None })
            }
        }
    }
}

/// What solves problems under `config`: the visibility graph for `visibility`, otherwise the
/// stepper [`build`] makes, set up on `start` and `goal`.
fn engine(grid: &Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Engine, SearchError> {
    if config.algorithm == Algorithm::Visibility {
        let started = Instant::now();
        let graph = Box::new(VisibilityGraph::new(grid, config.diagonal)?);
        let built_micros = started.elapsed().as_secs_f64() * 1e6;
        Ok(Engine::Visibility { graph, built_micros })
    } else {
        build(grid.clone(), start, goal, config).map(Engine::Stepper)
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
