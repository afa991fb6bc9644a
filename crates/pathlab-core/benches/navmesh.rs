//! Navmesh benchmark, in two tables.
//!
//! 1. **Build**: the navmesh of every 512x512 MovingAI map (no corner cutting), both ways:
//!    triangulated ([`NavMesh::build`]) and stacked rectangles ([`NavMesh::build_rectangles`]),
//!    built in turn round after round: polygons, corners, and each build's median time with
//!    its fastest and slowest round (native; `bench/navmesh.bench.mjs` times it in
//!    WebAssembly).
//! 2. **Search**: on the same problems, grid A* (octile, no corner cutting) against A* over
//!    the navmesh's polygons followed by the funnel (from cell centre to cell centre) and
//!    against Theta*, the navmesh built both ways: time, expansions (cells for the grid searches, polygons for the
//!    navmesh) and total path length, each as a ratio to grid A*, side by side in one run (each
//!    round runs every variant in turn, starting with a different one; the median round is
//!    reported with its range). The navmesh is built once per map, outside the timing, as a
//!    game would. Lengths are also given as a ratio to the `.scen` optimum (8-connected) and
//!    to the exact any-angle optimum (the visibility graph's, computed untimed).
//!
//! Before timing, every result is checked: every variant finds a path on every problem, and
//! no any-angle length is below the straight line from start to goal.
//!
//! The maps come from `shared/maps/movingai`, the folder beside the repository.
//! Run: `cargo bench -p pathlab-core --bench navmesh`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use pathlab_core::formats::movingai::Problem;
use pathlab_core::grid::{Diagonal, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::navmesh::NavmeshSearch;
use pathlab_core::search::theta::ThetaStar;
use pathlab_core::search::visibility::VisibilityGraph;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Stepper};
use pathlab_core::space::navmesh::NavMesh;

mod support;
use support::Set;

/// The maps whose builds are timed: the 512x512 ones, and two smaller dao maps.
const BUILD_MAPS: &[&str] = &[
    "dao/arena",
    "dao/den520d",
    "bg512/AR0011SR",
    "bg512/AR0044SR",
    "bg512/AR0070SR",
    "cities/Boston_0_512",
    "sc1/Archipelago",
    "sc1/CrescentMoon",
    "rooms/8room_000",
    "rooms/32room_000",
    "mazes/maze512-8-0",
    "mazes/maze512-1-0",
    "random/random512-10-0",
    "random/random512-25-0",
];

/// The maps searched, with how many evenly spaced problems to take (`ALL`: every one).
const SEARCH_SETS: [(&str, usize); 8] = [
    ("dao/arena", ALL),
    ("dao/den312d", ALL),
    ("bg512/AR0011SR", 200),
    ("sc1/Archipelago", 100),
    ("cities/Boston_0_512", 100),
    ("rooms/8room_000", 200),
    ("mazes/maze512-8-0", 99),
    ("random/random512-10-0", 100),
];

/// Every problem of a set.
const ALL: usize = usize::MAX;

/// Rounds of each timing; the median is reported.
const ROUNDS: usize = 5;

const RULE: Diagonal = Diagonal::NoCornerCutting;

fn centre(p: Point) -> [f64; 2] {
    [p.x as f64 + 0.5, p.y as f64 + 0.5]
}

/// One variant's search on a set's map, reused for every problem.
enum Runner {
    AStar(Search),
    Theta(ThetaStar),
    Navmesh(NavmeshSearch),
}

/// What a variant did over a set: summed length and expansions.
#[derive(Default)]
struct Counts {
    length: f64,
    expanded: usize,
}

impl Runner {
    const NAMES: [&'static str; 4] = ["astar", "navmesh+funnel", "rect navmesh+fun", "theta"];

    fn new(set: &Set, meshes: &[Arc<NavMesh>; 2], k: usize) -> Self {
        let (grid, p) = (set.grid.clone(), &set.problems[0]);
        let config = |a: Algorithm| SearchConfig::new(a).heuristic(Heuristic::Octile).diagonal(RULE);
        match k {
            0 => Self::AStar(Search::new(grid, p.start, p.goal, config(Algorithm::AStar)).unwrap()),
            1 | 2 => {
                Self::Navmesh(NavmeshSearch::new(Arc::clone(&meshes[k - 1]), centre(p.start), centre(p.goal)).unwrap())
            }
            _ => Self::Theta(ThetaStar::new(grid, p.start, p.goal, config(Algorithm::Theta)).unwrap()),
        }
    }

    /// Runs one problem; returns its length and expansions.
    fn solve(&mut self, p: &Problem) -> (Option<f64>, usize) {
        match self {
            Self::AStar(s) => grid_solve(s, p),
            Self::Theta(s) => grid_solve(s, p),
            Self::Navmesh(s) => {
                s.set_ends(centre(p.start), centre(p.goal)).unwrap();
                s.run();
                (s.path().map(|path| path.length), s.expanded())
            }
        }
    }

    fn run_all(&mut self, problems: &[Problem]) -> f64 {
        problems.iter().map(|p| self.solve(p).0.unwrap_or(0.0)).sum()
    }
}

fn grid_solve(s: &mut dyn Stepper, p: &Problem) -> (Option<f64>, usize) {
    s.set_ends(p.start, p.goal).unwrap();
    s.run();
    (s.cost(), s.expanded())
}

fn build_table(rounds: usize) {
    println!("navmesh build, MovingAI maps (no corner cutting), the two builds in turn: median [range] of {rounds}");
    println!(
        "{:<24} {:>9} {:>9} {:>9} {:>24} {:>9} {:>9} {:>24}",
        "map", "open", "tri poly", "corners", "triangulated ms", "rect poly", "corners", "rectangles ms"
    );
    let folder = support::maps_folder("navmesh");
    let mut totals = [Duration::ZERO; 2];
    for name in BUILD_MAPS {
        let Ok(text) = std::fs::read_to_string(folder.join(format!("{name}.map"))) else {
            println!("{name:<24} (missing)");
            continue;
        };
        let grid = pathlab_core::formats::movingai::parse_map(&text).unwrap();
        let builds = [NavMesh::build, NavMesh::build_rectangles];
        let meshes = builds.map(|build| build(&grid, RULE).unwrap());
        let spread = support::side_by_side_rounds(rounds, 2, |k| {
            black_box(builds[k](&grid, RULE).unwrap());
        });
        for k in 0..2 {
            totals[k] += spread[k].median;
        }
        println!(
            "{:<24} {:>9} {:>9} {:>9} {:>24} {:>9} {:>9} {:>24}",
            name,
            grid.cells().iter().filter(|&&c| c != WALL).count(),
            meshes[0].polygon_count(),
            meshes[0].vertices().len(),
            spread[0].ms(),
            meshes[1].polygon_count(),
            meshes[1].vertices().len(),
            spread[1].ms(),
        );
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "all {} maps: triangulated {:.1} ms, rectangles {:.1} ms\n",
        BUILD_MAPS.len(),
        ms(totals[0]),
        ms(totals[1])
    );
}

fn main() {
    let rounds = support::rounds(ROUNDS);
    build_table(rounds);
    let sets = support::load_sets("navmesh", &SEARCH_SETS);
    println!("navmesh A* + funnel and Theta* against grid A*: median of {rounds} rounds");
    println!(
        "{:<18} {:<16} {:>8} {:>26} {:>9} {:>12} {:>12} {:>10} {:>10} {:>10}",
        "map",
        "variant",
        "problems",
        "ms median [range]",
        "time/A*",
        "exp/problem",
        "expanded/A*",
        "length/A*",
        "length/opt",
        "len/exact"
    );
    for set in &sets {
        let meshes = [NavMesh::build, NavMesh::build_rectangles].map(|build| Arc::new(build(&set.grid, RULE).unwrap()));
        let mut runners: Vec<Runner> = (0..Runner::NAMES.len()).map(|k| Runner::new(set, &meshes, k)).collect();
        let mut counts: Vec<Counts> = (0..runners.len()).map(|_| Counts::default()).collect();
        let optimum: f64 = set.problems.iter().map(|p| p.optimal).sum();
        // The exact any-angle optimum of each problem (the visibility graph), untimed.
        let graph = VisibilityGraph::new(&set.grid, RULE).unwrap();
        let exact: f64 = set.problems.iter().map(|p| graph.shortest_path(p.start, p.goal).unwrap().cost.unwrap()).sum();
        for (k, runner) in runners.iter_mut().enumerate() {
            for p in &set.problems {
                let (length, expanded) = runner.solve(p);
                let length =
                    length.unwrap_or_else(|| panic!("{} {} line {}: no path", Runner::NAMES[k], set.name, p.line));
                let line = dist(centre(p.start), centre(p.goal));
                assert!(length >= line - 1e-9, "{} {} line {}: {length} < {line}", Runner::NAMES[k], set.name, p.line);
                counts[k].length += length;
                counts[k].expanded += expanded;
            }
        }
        let spread = support::side_by_side_rounds(rounds, runners.len(), |v| {
            black_box(runners[v].run_all(&set.problems));
        });
        let n = set.problems.len();
        for (k, name) in Runner::NAMES.iter().enumerate() {
            println!(
                "{:<18} {:<16} {:>8} {:>26} {:>9.3} {:>12.1} {:>12.4} {:>10.4} {:>10.4} {:>10.4}",
                set.name,
                name,
                n,
                spread[k].ms(),
                spread[k].median.as_secs_f64() / spread[0].median.as_secs_f64(),
                counts[k].expanded as f64 / n as f64,
                counts[k].expanded as f64 / counts[0].expanded as f64,
                counts[k].length / counts[0].length,
                counts[k].length / optimum,
                counts[k].length / exact,
            );
        }
    }
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}
