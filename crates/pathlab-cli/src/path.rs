//! `pathlab path`: one search on a grid, hex, navmesh or graph file, printed as one JSON
//! object.
//!
//! `pathlab path FILE --start S --goal G [--algo A] [--space grid|hex|graph|navmesh|corners]
//! [--heuristic H] [--diagonal RULE] [--weight W] [--costs real|integer] [--layout pointy|flat]
//! [--costs-on links|nodes]` (`--costs-on nodes`: on a graph, a move costs the weight of the
//! node it enters, its `"cost"` in the file, instead of its edge's cost)
//! prints `{"cost": c, "path": [...], "expanded": n, "micros": t}`: `cost` is null when there
//! is no path; path entries are node ids on graphs and `[x, y]` cells on grids and hex grids.
//! On a navmesh (`--space navmesh`, or `--algo navmesh` on a grid file) the search runs from
//! the start cell's centre to the goal cell's centre, and the path entries are the funnel
//! path's corners `[x, y]` in cell units (`[0.5, 2.5]`, `[1, 1]`); on the corner graph
//! (`--space corners`) they are `[x, y]` points in cell units too (corners whole, cell centres
//! at `.5`).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use pathlab_core::formats::{course, graph as graph_file, movingai};
use pathlab_core::grid::{Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::navmesh::NavmeshSearch;
use pathlab_core::search::visibility::VisibilityGraph;
use pathlab_core::search::{build, build_on, Algorithm, SearchConfig, SpaceStepper};
use pathlab_core::space::navmesh::NavMesh;
use pathlab_core::space::{CornerGraph, CostsOn, Graph, HexGrid, HexLayout, Space};

use crate::problems::{centre, in_file, read_text};
use crate::Failure;

/// The largest file `path` reads, in bytes.
const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// What the file is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceKind {
    /// A course data file or MovingAI `.map`, searched as a square grid.
    Grid,
    /// The same files, each cell a hex.
    Hex,
    /// A graph file (JSON) or weight matrix.
    Graph,
    /// A course data file or MovingAI `.map`, covered by a navmesh.
    Navmesh,
    /// A grid file's corner graph: cell corners joined by sight, the ends at cell centres.
    Corners,
}

/// The options of `pathlab path`.
#[derive(Clone, Debug, PartialEq)]
pub struct PathRun {
    /// The file.
    pub file: PathBuf,
    /// `--start`, as given.
    pub start: String,
    /// `--goal`, as given.
    pub goal: String,
    /// `--space`, when given (otherwise from the file).
    pub space: Option<SpaceKind>,
    /// The settings.
    pub config: SearchConfig,
    /// Whether `--heuristic` was given (otherwise the space's default).
    pub heuristic_given: bool,
    /// `--layout` for hex grids.
    pub layout: HexLayout,
    /// `--costs-on` for graphs: the edges' costs or the nodes' weights.
    pub costs_on: CostsOn,
}

/// Reads the options of `path`.
pub fn parse(mut args: impl Iterator<Item = OsString>) -> Result<PathRun, Failure> {
    let mut file = None;
    let (mut start, mut goal) = (None, None);
    let mut space = None;
    let mut config = SearchConfig::new(Algorithm::AStar);
    let mut heuristic = None;
    let mut layout = HexLayout::PointyTop;
    let mut costs_on = CostsOn::Links;
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        if !text.starts_with("--") {
            if file.is_some() {
                return Err(Failure::usage(format!("path takes one FILE; found another: {text:?}")));
            }
            file = Some(PathBuf::from(arg));
            continue;
        }
        let (name, value) = if let Some((n, v)) = text.split_once('=') {
            (n.to_string(), v.to_string())
        } else {
            let value = args.next().ok_or_else(|| Failure::usage(format!("{text} needs a value")))?;
            (text, value.to_string_lossy().into_owned())
        };
        let named = |e: pathlab_core::grid::UnknownName| Failure::usage(format!("{name}: {e}"));
        match name.as_str() {
            "--start" => start = Some(value),
            "--goal" => goal = Some(value),
            "--algo" => config.algorithm = value.parse().map_err(named)?,
            "--heuristic" => heuristic = Some(value.parse::<Heuristic>().map_err(named)?),
            "--diagonal" => config.diagonal = value.parse().map_err(named)?,
            "--costs" => config.costs = value.parse().map_err(named)?,
            "--layout" => layout = value.parse().map_err(named)?,
            "--costs-on" => costs_on = value.parse().map_err(named)?,
            "--weight" => {
                config.weight = value
                    .trim()
                    .parse()
                    .map_err(|_| Failure::usage(format!("--weight must be a number, found {value:?}")))?;
            }
            "--space" => {
                space = Some(match value.as_str() {
                    "grid" => SpaceKind::Grid,
                    "hex" => SpaceKind::Hex,
                    "graph" => SpaceKind::Graph,
                    "navmesh" => SpaceKind::Navmesh,
                    "corners" => SpaceKind::Corners,
                    other => {
                        return Err(Failure::usage(format!(
                            "--space: unknown space {other:?}; expected one of: grid, hex, graph, navmesh, corners"
                        )))
                    }
                });
            }
            other => return Err(Failure::usage(format!("path: unknown option {other:?}"))),
        }
    }
    let file = file.ok_or_else(|| Failure::usage("path needs a FILE: a map, a hex map or a graph"))?;
    let start = start.ok_or_else(|| Failure::usage("path needs --start"))?;
    let goal = goal.ok_or_else(|| Failure::usage("path needs --goal"))?;
    config.heuristic = heuristic.unwrap_or_else(|| Heuristic::default_for(config.diagonal));
    config.validate().map_err(|e| Failure::usage(e.to_string()))?;
    Ok(PathRun { file, start, goal, space, config, heuristic_given: heuristic.is_some(), layout, costs_on })
}

/// The result: cost, path entries (already JSON), expansions and time.
struct Found {
    cost: Option<f64>,
    path: Vec<String>,
    expanded: usize,
    micros: f64,
}

/// Runs `path` and prints its JSON object.
pub fn run(run: &PathRun) -> Result<(), Failure> {
    let text = read_text(&run.file, MAX_BYTES)?;
    let mut kind = run.space.unwrap_or_else(|| guess(&run.file, &text));
    if kind == SpaceKind::Grid && run.config.algorithm == Algorithm::Navmesh {
        kind = SpaceKind::Navmesh;
    }
    let found = match kind {
        SpaceKind::Graph => on_graph(run, &text)?,
        SpaceKind::Grid => on_grid(run, read_grid(run, &text)?)?,
        SpaceKind::Hex => on_hex(run, read_grid(run, &text)?)?,
        SpaceKind::Navmesh => on_navmesh(run, read_grid(run, &text)?)?,
        SpaceKind::Corners => {
            if guess(&run.file, &text) == SpaceKind::Graph {
                return Err(Failure::input(format!(
                    "--space corners needs a grid (a course data file or MovingAI .map), but {} is a graph file",
                    run.file.display()
                )));
            }
            on_corners(run, read_grid(run, &text)?)?
        }
    };
    let mut out = String::from("{\"cost\": ");
    match found.cost {
        Some(c) => write!(out, "{}", number(c)),
        None => write!(out, "null"),
    }
    .expect("writing to a String");
    write!(
        out,
        ", \"path\": [{}], \"expanded\": {}, \"micros\": {:.1}}}",
        found.path.join(", "),
        found.expanded,
        found.micros
    )
    .expect("writing to a String");
    writeln!(std::io::stdout().lock(), "{out}")?;
    Ok(())
}

/// A graph when the file is JSON or a matrix with a `#` label line, else a grid.
fn guess(file: &std::path::Path, text: &str) -> SpaceKind {
    let head = text.trim_start();
    let json = file.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if json || head.starts_with('{') || head.starts_with('#') {
        SpaceKind::Graph
    } else {
        SpaceKind::Grid
    }
}

/// A MovingAI `.map` (it starts with `type`) or a course data file.
fn read_grid(run: &PathRun, text: &str) -> Result<(Grid, Option<Point>, Option<Point>), Failure> {
    if text.trim_start().starts_with("type") {
        let grid = movingai::parse_map(text).map_err(|e| in_file(&run.file, e))?;
        Ok((grid, None, None))
    } else {
        let map = course::parse(text).map_err(|e| in_file(&run.file, e))?;
        Ok((map.grid, map.start, map.goal))
    }
}

/// Reads `x,y`, or `A`/`B` for the course file's marked start and goal.
fn cell(grid: &Grid, which: &str, given: &str, marked: Option<Point>) -> Result<Point, Failure> {
    if let Some(p) = marked.filter(|_| given.eq_ignore_ascii_case(if which == "start" { "A" } else { "B" })) {
        return Ok(p);
    }
    let p: Point = given.parse().map_err(|e| Failure::usage(format!("--{which} must be x,y on a grid: {e}")))?;
    grid.point(p.x as i64, p.y as i64).map_err(|e| Failure::input(format!("the {which} {e}")))
}

fn on_grid(run: &PathRun, (grid, a, b): (Grid, Option<Point>, Option<Point>)) -> Result<Found, Failure> {
    let start = cell(&grid, "start", &run.start, a)?;
    let goal = cell(&grid, "goal", &run.goal, b)?;
    let mut search = build(grid, start, goal, run.config).map_err(|e| Failure::input(e.to_string()))?;
    let clock = Instant::now();
    search.run();
    let micros = clock.elapsed().as_secs_f64() * 1e6;
    if let Some(why) = search.gave_up() {
        return Err(Failure::input(why));
    }
    let grid = search.grid();
    let path = search.path_indices().iter().map(|&i| xy(grid.point_at(i as usize))).collect();
    Ok(Found { cost: search.cost(), path, expanded: search.expanded(), micros })
}

fn on_navmesh(run: &PathRun, (grid, a, b): (Grid, Option<Point>, Option<Point>)) -> Result<Found, Failure> {
    if !matches!(run.config.algorithm, Algorithm::AStar | Algorithm::Navmesh) {
        return Err(Failure::usage(format!(
            "--algo {}: on a navmesh only navmesh runs (A* over its polygons, then the funnel); \
             leave --algo out or give --algo navmesh",
            run.config.algorithm
        )));
    }
    let start = cell(&grid, "start", &run.start, a)?;
    let goal = cell(&grid, "goal", &run.goal, b)?;
    let mesh = Arc::new(NavMesh::build_auto(&grid, run.config.diagonal).map_err(|e| in_file(&run.file, e))?);
    let mut search =
        NavmeshSearch::new(mesh, centre(start), centre(goal)).map_err(|e| Failure::input(e.to_string()))?;
    let clock = Instant::now();
    search.run();
    let found = search.path();
    let micros = clock.elapsed().as_secs_f64() * 1e6;
    let path = found
        .as_ref()
        .map_or_else(Vec::new, |p| p.points.iter().map(|q| format!("[{}, {}]", number(q[0]), number(q[1]))).collect());
    Ok(Found { cost: found.map(|p| p.length), path, expanded: search.expanded(), micros })
}

fn on_hex(run: &PathRun, (grid, a, b): (Grid, Option<Point>, Option<Point>)) -> Result<Found, Failure> {
    let start = cell(&grid, "start", &run.start, a)?;
    let goal = cell(&grid, "goal", &run.goal, b)?;
    let (s, g) = (grid.index(start) as u32, grid.index(goal) as u32);
    let mut hex = HexGrid::new(grid, run.layout);
    if run.heuristic_given {
        hex.heuristic = run.config.heuristic;
    }
    let found = solve(hex, s, g, run.config)?;
    Ok(found_with(found, |hex, n| xy(hex.grid.point_at(n as usize))))
}

/// The corner graph of the grid, searched from the start cell's centre to the goal cell's;
/// path entries are points in cell units (`[x, y]` at corners, `[x + 0.5, y + 0.5]` at
/// centres). Its estimate is always the straight line, so `--heuristic` is refused.
fn on_corners(run: &PathRun, (grid, a, b): (Grid, Option<Point>, Option<Point>)) -> Result<Found, Failure> {
    if run.heuristic_given {
        return Err(Failure::usage(
            "--space corners: the estimate is always the straight-line distance; leave out --heuristic",
        ));
    }
    let start = cell(&grid, "start", &run.start, a)?;
    let goal = cell(&grid, "goal", &run.goal, b)?;
    let graph = VisibilityGraph::new(&grid, run.config.diagonal).map_err(|e| Failure::input(e.to_string()))?;
    let corners = CornerGraph::new(Arc::new(graph), start, goal).map_err(|e| Failure::input(e.to_string()))?;
    let (s, g) = (corners.start_node(), corners.goal_node());
    let found = solve(corners, s, g, run.config)?;
    Ok(found_with(found, |corners: &CornerGraph, n| {
        let [x, y] = corners.position(n);
        format!("[{}, {}]", number(x), number(y))
    }))
}

fn on_graph(run: &PathRun, text: &str) -> Result<Found, Failure> {
    let head = text.trim_start();
    let parsed = if head.starts_with('{') { graph_file::parse_json(text) } else { graph_file::parse_matrix(text) };
    let mut graph = parsed.map_err(|e| in_file(&run.file, e))?;
    if run.heuristic_given {
        graph.set_heuristic(run.config.heuristic);
    }
    graph.set_costs_on(run.costs_on);
    let node = |which: &str, id: &str| {
        graph.node(id).map_err(|_| {
            let shown: String = id.chars().take(40).collect();
            Failure::input(format!("the {which} {shown:?} is not a node of {}", run.file.display()))
        })
    };
    let (s, g) = (node("start", &run.start)?, node("goal", &run.goal)?);
    let found = solve(graph, s, g, run.config)?;
    Ok(found_with(found, |graph: &Graph, n| quote(graph.id(n))))
}

/// A search run on a space: the search itself (for the path's names), and its time.
fn solve<S: Space + Clone + 'static>(
    space: S,
    start: u32,
    goal: u32,
    config: SearchConfig,
) -> Result<(Box<dyn SpaceStepper<S>>, f64), Failure> {
    let mut search = build_on(space, start, goal, config).map_err(|e| Failure::input(e.to_string()))?;
    let clock = Instant::now();
    search.run();
    Ok((search, clock.elapsed().as_secs_f64() * 1e6))
}

fn found_with<S: Space>((search, micros): (Box<dyn SpaceStepper<S>>, f64), name: impl Fn(&S, u32) -> String) -> Found {
    let path = search.path_indices().iter().map(|&n| name(search.space(), n)).collect();
    Found { cost: search.cost(), path, expanded: search.expanded(), micros }
}

fn xy(p: Point) -> String {
    format!("[{}, {}]", p.x, p.y)
}

/// A cost as JSON: whole numbers without a fraction, others in full.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A JSON string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                write!(out, "\\u{:04x}", c as u32).expect("writing to a String");
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_ids_as_json_strings() {
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }

    #[test]
    fn prints_whole_costs_without_a_fraction() {
        assert_eq!(number(9.0), "9");
        assert_eq!(number(1.5), "1.5");
    }
}
