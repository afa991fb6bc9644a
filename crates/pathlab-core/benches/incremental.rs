//! What a repair saves: LPA* and D* Lite after one wall on the DAO maps, against a fresh A*.
//!
//! Rules: 8-connected, no corner cutting, real costs, octile heuristic, weight 1. Problems:
//! evenly spaced ones from each map's `.scen` file (so every length bucket is represented).
//!
//! - **LPA\***: run to the end (the cost must be the `.scen` optimum), paint one wall on the
//!   middle cell of the path found, run to the end again. The repair's expansions (every
//!   expansion after the edit) are set against those of a fresh A* (the plain stepper) from the
//!   start on the edited grid, which must agree on the cost (or on "no path", when that one
//!   wall cuts the map). The times of the repair and of the fresh A* are measured too.
//! - **D\* Lite** (sensor 3): let the agent plan and make its first move, paint one wall on
//!   the middle cell of the plan still ahead of it, and let it walk to the end. The agent sees
//!   the wall when it comes within 3 cells; its expansions from then on are set against a
//!   fresh A* on what it then knows, from where it then stood.
//!
//! The ratio printed is fresh / repair, summed over the problems of a map (and of all maps),
//! with the median of the per-problem ratios beside it; the target is at least 10 overall.
//! For LPA* the same ratio is also shown with the wall nine tenths of the way along the path:
//! LPA* searches forward, so a wall redoes the part of its search that lies behind the wall,
//! which is the whole second half of the search when the wall is halfway.
//! Criterion also times one repair against one fresh A* on den312d.
//!
//! The maps come from the MovingAI folder: `$PATHLAB_MOVINGAI`, by default
//! `shared/maps/movingai` beside the repository.
//! Run: `cargo bench -p pathlab-core --bench incremental`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion};
use pathlab_core::formats::movingai::Problem;
use pathlab_core::grid::{Costs, Diagonal, GROUND, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::dstar_lite::DStarLite;
use pathlab_core::search::lpa::Lpa;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Status, Stepper};

mod support;
use support::Set;

/// The DAO maps, with how many evenly spaced problems to take from each.
const SETS: &[(&str, usize)] = &[
    ("dao/arena", 40),
    ("dao/den312d", 40),
    ("dao/brc202d", 40),
    ("dao/combat2", 40),
    ("dao/den520d", 40),
    ("dao/hrt201n", 40),
    ("dao/lak303d", 40),
    ("dao/ost003d", 40),
];

/// D* Lite's sensor radius here.
const SENSOR: u32 = 3;

fn config(algorithm: Algorithm) -> SearchConfig {
    SearchConfig::new(algorithm)
        .heuristic(Heuristic::Octile)
        .diagonal(Diagonal::NoCornerCutting)
        .costs(Costs::Real)
        .sensor(SENSOR)
}

/// One LPA* measurement.
struct LpaRow {
    first: usize,
    repair: usize,
    fresh: usize,
    repair_time: Duration,
    fresh_time: Duration,
    cut: bool,
}

/// One D* Lite measurement.
struct DStarRow {
    repair: usize,
    fresh: usize,
}

/// LPA* found, one wall on its path (the cell `tenths` tenths of the way along, 5 for the
/// middle), repaired; beside a fresh A* (`astar` is reused between problems and left as it was
/// found). `None` when the path has no cell between its ends.
fn lpa_once(set: &Set, p: &Problem, astar: &mut Search, tenths: usize) -> Option<LpaRow> {
    let what = format!("{} line {}", set.name, p.line);
    let mut s = Lpa::new(set.grid.clone(), p.start, p.goal, config(Algorithm::Lpa)).expect("valid problem");
    assert_eq!(s.run(), Status::Found, "{what}");
    let cost = s.cost().expect("found");
    assert!((cost - p.optimal).abs() <= p.tolerance, "{what}: LPA* {cost}, optimum {}", p.optimal);
    let path = s.path_indices();
    if path.len() < 3 {
        return None;
    }
    let at = (path.len() * tenths / 10).clamp(1, path.len() - 2);
    let wall = set.grid.point_at(path[at] as usize);
    let first = s.expanded();
    let t = Instant::now();
    s.paint(&[wall], WALL).unwrap();
    s.run();
    let repair_time = t.elapsed();
    let repair = s.repair().expect("an edit was made");
    assert_eq!(repair.changed, 1, "{what}");

    astar.set_ends(p.start, p.goal).expect("valid problem");
    astar.paint(&[wall], WALL).unwrap();
    let t = Instant::now();
    astar.run();
    let fresh_time = t.elapsed();
    assert_eq!(astar.expanded(), repair.fresh_expanded, "{what}");
    match (astar.cost(), s.cost()) {
        (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-9 * a.max(1.0), "{what}: A* {a}, LPA* {b}"),
        (None, None) => {}
        (a, b) => panic!("{what}: A* {a:?}, LPA* {b:?}"),
    }
    let cut = astar.cost().is_none();
    astar.paint(&[wall], GROUND).unwrap();
    Some(LpaRow { first, repair: repair.re_expanded, fresh: repair.fresh_expanded, repair_time, fresh_time, cut })
}

/// D* Lite planned and one move made, one wall on the middle of the plan ahead, walked to the
/// end. `None` when the plan ahead is too short to hold a wall, or the wall cuts the goal off.
fn dstar_once(set: &Set, p: &Problem) -> Option<DStarRow> {
    let what = format!("{} line {}", set.name, p.line);
    let mut d = DStarLite::new(set.grid.clone(), p.start, p.goal, config(Algorithm::DStarLite)).expect("valid problem");
    while d.agent().unwrap().moves == 0 && !d.status().is_finished() {
        d.step();
    }
    if d.status().is_finished() {
        return None;
    }
    let ahead = &d.path_indices()[d.agent().unwrap().moves + 1..];
    if ahead.len() < 2 {
        return None;
    }
    let wall = set.grid.point_at(ahead[(ahead.len() - 1) / 2] as usize);
    d.paint(&[wall], WALL).unwrap();
    let status = d.run();
    let repair = d.repair().expect("the agent walks onto the wall's neighbourhood");
    assert_eq!(repair.changed, 1, "{what}");
    if status == Status::NoPath {
        return None;
    }
    let cost = d.cost().expect("found");
    assert!(cost >= p.optimal - p.tolerance, "{what}: walked {cost} below the optimum {}", p.optimal);
    Some(DStarRow { repair: repair.re_expanded, fresh: repair.fresh_expanded })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

#[derive(Default)]
struct Totals {
    problems: usize,
    first: usize,
    repair: usize,
    fresh: usize,
    repair_time: Duration,
    fresh_time: Duration,
    cut: usize,
    ratios: Vec<f64>,
    late_repair: usize,
    late_fresh: usize,
    d_problems: usize,
    d_repair: usize,
    d_fresh: usize,
    d_ratios: Vec<f64>,
}

impl Totals {
    fn add(&mut self, other: &Self) {
        self.problems += other.problems;
        self.first += other.first;
        self.repair += other.repair;
        self.fresh += other.fresh;
        self.repair_time += other.repair_time;
        self.fresh_time += other.fresh_time;
        self.cut += other.cut;
        self.ratios.extend_from_slice(&other.ratios);
        self.late_repair += other.late_repair;
        self.late_fresh += other.late_fresh;
        self.d_problems += other.d_problems;
        self.d_repair += other.d_repair;
        self.d_fresh += other.d_fresh;
        self.d_ratios.extend_from_slice(&other.d_ratios);
    }

    fn print(&self, name: &str) {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{:<12} {:>5} {:>9.0} {:>9.1} {:>9.1} {:>8.1} {:>8.1} {:>8.2} {:>8.2} {:>4} {:>8.1} | {:>5} {:>9.1} {:>9.1} {:>8.1} {:>8.1}",
            name,
            self.problems,
            self.first as f64 / self.problems as f64,
            self.repair as f64 / self.problems as f64,
            self.fresh as f64 / self.problems as f64,
            self.fresh as f64 / self.repair as f64,
            median(self.ratios.clone()),
            ms(self.repair_time),
            ms(self.fresh_time),
            self.cut,
            self.late_fresh as f64 / self.late_repair as f64,
            self.d_problems,
            self.d_repair as f64 / self.d_problems as f64,
            self.d_fresh as f64 / self.d_problems as f64,
            self.d_fresh as f64 / self.d_repair as f64,
            median(self.d_ratios.clone()),
        );
    }
}

fn measure(sets: &[Set]) {
    println!();
    println!("one wall after the search: repair expansions against a fresh A* on the edited grid (fresh / repair)");
    println!(
        "{:<12} {:>5} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>4} {:>8} | {:>5} {:>9} {:>9} {:>8} {:>8}",
        "map",
        "LPA*",
        "first",
        "repair",
        "fresh",
        "ratio",
        "median",
        "rep ms",
        "A* ms",
        "cut",
        "ratio@.9",
        "D*L",
        "repair",
        "fresh",
        "ratio",
        "median"
    );
    let mut all = Totals::default();
    for set in sets {
        let mut totals = Totals::default();
        let p0 = &set.problems[0];
        let mut astar =
            Search::new(set.grid.clone(), p0.start, p0.goal, config(Algorithm::AStar)).expect("valid problem");
        for p in &set.problems {
            if let Some(row) = lpa_once(set, p, &mut astar, 9) {
                totals.late_repair += row.repair;
                totals.late_fresh += row.fresh;
            }
            if let Some(row) = lpa_once(set, p, &mut astar, 5) {
                totals.problems += 1;
                totals.first += row.first;
                totals.repair += row.repair;
                totals.fresh += row.fresh;
                totals.repair_time += row.repair_time;
                totals.fresh_time += row.fresh_time;
                totals.cut += usize::from(row.cut);
                totals.ratios.push(row.fresh as f64 / row.repair as f64);
            }
            if let Some(row) = dstar_once(set, p) {
                totals.d_problems += 1;
                totals.d_repair += row.repair;
                totals.d_fresh += row.fresh;
                totals.d_ratios.push(row.fresh as f64 / row.repair as f64);
            }
        }
        totals.print(set.name);
        all.add(&totals);
    }
    all.print("all");
    println!();
    println!("first: mean expansions of LPA*'s first search; repair, fresh: mean expansions per problem;");
    println!("ratio: summed fresh / summed repair; median: of the per-problem ratios; rep ms, A* ms: summed times");
    println!("(one run each: indicative only; criterion above times one case properly); cut: problems where the wall");
    println!("cut the goal off (both agree there is no path); ratio@.9: LPA*'s ratio with the wall 9/10 of the way");
    println!("along the path instead of halfway (a forward repair redoes the part of the search behind the wall)");
    let lpa = all.fresh as f64 / all.repair as f64;
    let dstar = all.d_fresh as f64 / all.d_repair as f64;
    println!(
        "LPA*: a fresh A* expands {lpa:.1}x the cells of the repair over {} problems (target >= 10): {}",
        all.problems,
        if lpa >= 10.0 { "met" } else { "NOT MET" }
    );
    println!(
        "D* Lite: a fresh A* expands {dstar:.1}x the cells of the repair over {} problems (target >= 10): {}",
        all.d_problems,
        if dstar >= 10.0 { "met" } else { "NOT MET" }
    );
}

/// Times one LPA* repair (paint and run on a copy of the found search) against one fresh A*
/// on the edited grid, on a long den312d problem.
fn criterion_group(c: &mut Criterion, sets: &[Set]) {
    let Some(set) = sets.iter().find(|s| s.name == "dao/den312d") else { return };
    let p = &set.problems[set.problems.len() - 1];
    let mut found = Lpa::new(set.grid.clone(), p.start, p.goal, config(Algorithm::Lpa)).expect("valid problem");
    found.run();
    let path = found.path_indices();
    let wall = set.grid.point_at(path[path.len() / 2] as usize);
    let mut edited = set.grid.clone();
    edited.set(wall, WALL).expect("inside");
    let mut astar = Search::new(edited, p.start, p.goal, config(Algorithm::AStar)).expect("valid problem");
    let mut group = c.benchmark_group(format!("incremental/{}/line-{}", set.name, p.line));
    group.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    group.bench_function("lpa repair", |b| {
        b.iter_batched(
            || found.clone(),
            |mut s| {
                s.paint(&[wall], WALL).unwrap();
                black_box(s.run())
            },
            BatchSize::LargeInput,
        );
    });
    group.bench_function("fresh astar", |b| {
        b.iter(|| {
            astar.reset();
            black_box(astar.run())
        });
    });
    group.finish();
}

fn main() {
    let sets = support::load_sets("incremental", SETS);
    // `cargo test --benches` runs this with `--test`: measure once, skip criterion.
    support::with_criterion(|c| criterion_group(c, &sets));
    measure(&sets);
}
