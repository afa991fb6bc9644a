//! Search benchmarks on MovingAI problems.
//!
//! 1. Our A* against the `pathfinding` crate's `astar` on the same problems under the same
//!    rules: 8-connected, no corner cutting, straight 1 and diagonal sqrt(2) as f64, octile
//!    heuristic. Before any timing, both must agree on every cost (within 1e-6) and with the
//!    `.scen` optimum (within its tolerance).
//! 2. The stepping overhead: running to the end with `run()` against stepping one expansion
//!    at a time through `step_with(&mut EventLog)`, clearing the log before each step, as the
//!    page does.
//!
//! 3. Jump point search on the DAO maps (all problems of arena and den312d, evenly spaced
//!    samples of the six larger maps): our A*, JPS and JPS+ through `build` and the
//!    `Stepper` trait, as the CLI runs them, beside the `pathfinding` crate's `astar`. Before
//!    any timing, all three must give the `.scen` optimum on every problem.
//!
//! Criterion measures each variant; then a side-by-side pass times the variants in turn over
//! the same problems, several rounds, and prints the ratios with their targets
//! (pathfinding / ours >= 2; stepped / run <= 1.15; our A* / JPS >= 10 over the DAO maps;
//! JPS / JPS+ > 1), with the mean expansions of each algorithm.
//!
//! The maps come from the MovingAI folder: `$PATHLAB_MOVINGAI`, by default
//! `shared/maps/movingai` beside the repository.
//! Run: `cargo bench -p pathlab-core --bench search`; with `SEARCH_BENCH=families`, only the
//! side-by-side pass of our A* and `pathfinding`'s, on one map of each MovingAI family.

use std::cmp::Ordering;
use std::hint::black_box;
use std::ops::Add;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pathfinding::num_traits::Zero;
use pathlab_core::formats::movingai::Problem;
use pathlab_core::grid::{Costs, Diagonal, Grid};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{build, Algorithm, EventLog, Search, SearchConfig, StepEvent, Stepper};

mod support;
use support::{assert_optimal, run_all, Set};

/// The maps benchmarked, with how many evenly spaced problems to take from each scenario
/// file (`usize::MAX`: all of them).
const SETS: &[(&str, usize)] = &[("dao/arena", usize::MAX), ("dao/den312d", usize::MAX), ("bg512/AR0011SR", 200)];

/// One map per MovingAI family (the first by name, as `bench/warthog.mjs` picks them), for
/// `SEARCH_BENCH=families`: A* against `pathfinding` alone, on each family's problems.
const FAMILY_SETS: &[(&str, usize)] = &[
    ("bg512/AR0011SR", 150),
    ("cities/Berlin_0_256", 150),
    ("da2/ht_chantry", 150),
    ("dao/arena", 150),
    ("dao-current/arena", 150),
    ("mazes/maze512-1-0", 60),
    ("random/random512-10-0", 150),
    ("rooms/32room_000", 150),
    ("sc1/AcrosstheCape", 100),
];

/// Rounds of the side-by-side pass; the median round is reported.
const ROUNDS: usize = 9;

/// A path cost for `pathfinding`, which needs a totally ordered cost type: an f64 ordered by
/// `total_cmp` (costs here are finite and non-negative, where that is the usual order).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cost(f64);

impl Eq for Cost {}

impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Cost {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Add for Cost {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        Self(self.0 + other.0)
    }
}

impl Zero for Cost {
    fn zero() -> Self {
        Self(0.0)
    }

    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

/// The rules of the comparison: A*, octile, no corner cutting, real costs.
fn config() -> SearchConfig {
    SearchConfig::new(Algorithm::AStar)
        .heuristic(Heuristic::Octile)
        .diagonal(Diagonal::NoCornerCutting)
        .costs(Costs::Real)
}

/// A search on the set's map, reused for every problem (as the CLI does).
fn our_search(set: &Set) -> Search {
    let first = &set.problems[0];
    Search::new(set.grid.clone(), first.start, first.goal, config()).expect("valid problem")
}

/// Our A*, run to the end with `run()`; returns the summed cost.
fn ours_run(search: &mut Search, problems: &[Problem]) -> f64 {
    let mut total = 0.0;
    for p in problems {
        search.set_ends(p.start, p.goal).expect("valid problem");
        search.run();
        total += search.cost().expect("a path");
    }
    total
}

/// Our A*, one `step_with` at a time with the page's recorder; returns the summed cost.
fn ours_stepped(search: &mut Search, log: &mut EventLog, problems: &[Problem]) -> f64 {
    let mut total = 0.0;
    for p in problems {
        search.set_ends(p.start, p.goal).expect("valid problem");
        loop {
            log.clear();
            match search.step_with(log) {
                StepEvent::Found { cost } => {
                    total += cost;
                    break;
                }
                StepEvent::NoPath | StepEvent::Finished => panic!("no path"),
                StepEvent::Expanded(_) => {}
            }
        }
    }
    total
}

/// The `pathfinding` crate's A* on one problem under the same rules, the successors coming
/// from the same neighbour code; returns the cost.
fn theirs_one(grid: &Grid, p: &Problem) -> Option<f64> {
    let width = grid.width();
    let start = grid.index(p.start) as u32;
    let goal = grid.index(p.goal) as u32;
    let (gx, gy) = (p.goal.x, p.goal.y);
    let successors = |&n: &u32| {
        let mut out = [(0u32, Cost(0.0)); 8];
        let mut count = 0;
        grid.for_each_neighbour(n as usize, Diagonal::NoCornerCutting, |nb, diagonal| {
            out[count] = (nb as u32, Cost(Costs::Real.step(diagonal, grid.cells()[nb])));
            count += 1;
        });
        out.into_iter().take(count)
    };
    let heuristic = |&n: &u32| {
        let (x, y) = (n as usize % width, n as usize / width);
        Cost(Heuristic::Octile.estimate(x.abs_diff(gx), y.abs_diff(gy), Costs::Real))
    };
    pathfinding::directed::astar::astar(&start, successors, heuristic, |&n| n == goal).map(|(_, c)| c.0)
}

/// The `pathfinding` crate's A* over the problems; returns the summed cost.
fn theirs_run(grid: &Grid, problems: &[Problem]) -> f64 {
    problems.iter().map(|p| theirs_one(grid, p).expect("a path")).sum()
}

/// Checks, before timing, that both give the same cost on every problem and that it is the
/// `.scen` optimum; and that stepping ends where running does.
fn verify(sets: &[Set]) {
    for set in sets {
        let mut search = our_search(set);
        let mut stepped = our_search(set);
        let mut log = EventLog::default();
        for p in &set.problems {
            search.set_ends(p.start, p.goal).expect("valid problem");
            search.run();
            let ours = search.cost().expect("our A* finds a path");
            let theirs = theirs_one(&set.grid, p).expect("pathfinding finds a path");
            assert!(
                (ours - theirs).abs() <= 1e-6,
                "{} line {}: our cost {ours} but pathfinding's {theirs}",
                set.name,
                p.line
            );
            assert_optimal(set, p, "our A*", ours);
            let step_cost = ours_stepped(&mut stepped, &mut log, std::slice::from_ref(p));
            assert_eq!(step_cost, ours, "{} line {}: stepping ends elsewhere", set.name, p.line);
            assert_eq!(stepped.expanded(), search.expanded(), "{} line {}", set.name, p.line);
        }
        println!(
            "verified {}: {} problems, same costs as pathfinding and the .scen optima",
            set.name,
            set.problems.len()
        );
    }
}

fn criterion_groups(c: &mut Criterion, sets: &[Set]) {
    for set in sets {
        let mut group = c.benchmark_group(format!("astar/{}/{}-problems", set.name, set.problems.len()));
        group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
        let mut search = our_search(set);
        group.bench_function("pathlab run", |b| b.iter(|| black_box(ours_run(&mut search, &set.problems))));
        let mut log = EventLog::default();
        group.bench_function("pathlab stepped", |b| {
            b.iter(|| black_box(ours_stepped(&mut search, &mut log, &set.problems)));
        });
        group.bench_function("pathfinding astar", |b| b.iter(|| black_box(theirs_run(&set.grid, &set.problems))));
        group.finish();
    }
}

/// Times the three variants in turn over the same problems and prints the ratios.
fn side_by_side(sets: &[Set], rounds: usize) {
    println!();
    println!("side by side: median of {rounds} rounds; in each, every variant runs the same problems in turn");
    println!(
        "{:<16} {:>8} {:>11} {:>11} {:>15} {:>11} {:>14}",
        "map", "problems", "ours ms", "stepped ms", "pathfinding ms", "pf / ours", "stepped / ours"
    );
    let (mut ours_total, mut stepped_total, mut theirs_total) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for set in sets {
        let mut search = our_search(set);
        let mut log = EventLog::default();
        // times[0]: ours with run(), [1]: ours stepped, [2]: pathfinding. Each round starts
        // with a different variant, so none always runs on caches the previous one warmed.
        let mut times: [Vec<Duration>; 3] = Default::default();
        for round in 0..rounds {
            for k in 0..3 {
                let variant = (round + k) % 3;
                let t = Instant::now();
                match variant {
                    0 => black_box(ours_run(&mut search, &set.problems)),
                    1 => black_box(ours_stepped(&mut search, &mut log, &set.problems)),
                    _ => black_box(theirs_run(&set.grid, &set.problems)),
                };
                times[variant].push(t.elapsed());
            }
        }
        let [ours, stepped, theirs] = times;
        let (ours, stepped, theirs) = (support::median(ours), support::median(stepped), support::median(theirs));
        ours_total += ours;
        stepped_total += stepped;
        theirs_total += theirs;
        print_row(set.name, set.problems.len(), ours, stepped, theirs);
    }
    let count = sets.iter().map(|s| s.problems.len()).sum();
    print_row("all", count, ours_total, stepped_total, theirs_total);
    let speedup = theirs_total.as_secs_f64() / ours_total.as_secs_f64();
    let overhead = stepped_total.as_secs_f64() / ours_total.as_secs_f64();
    println!();
    println!(
        "A* vs pathfinding::astar: ours is {speedup:.2}x faster (target >= 2): {}",
        if speedup >= 2.0 { "met" } else { "NOT MET" }
    );
    println!(
        "stepping overhead: step_with(EventLog) takes {overhead:.3}x the time of run() (target <= 1.15): {}",
        if overhead <= 1.15 { "met" } else { "NOT MET" }
    );
}

fn print_row(name: &str, problems: usize, ours: Duration, stepped: Duration, theirs: Duration) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{:<16} {:>8} {:>11.3} {:>11.3} {:>15.3} {:>11.2} {:>14.3}",
        name,
        problems,
        ms(ours),
        ms(stepped),
        ms(theirs),
        theirs.as_secs_f64() / ours.as_secs_f64(),
        stepped.as_secs_f64() / ours.as_secs_f64()
    );
}

fn main() {
    if std::env::var("SEARCH_BENCH").is_ok_and(|v| v == "families") {
        let sets = support::load_sets("search", FAMILY_SETS);
        verify(&sets);
        side_by_side(&sets, support::rounds(ROUNDS));
        return;
    }
    let sets = support::load_sets("search", SETS);
    verify(&sets);
    support::with_criterion(|c| criterion_groups(c, &sets));
    side_by_side(&sets, support::rounds(ROUNDS));
    let jump_sets = support::load_sets("search", support::DAO_SETS);
    verify_jumps(&jump_sets);
    support::with_criterion(|c| jump_criterion_groups(c, &jump_sets));
    jump_side_by_side(&jump_sets, support::rounds(JUMP_ROUNDS));
    shelf_side_by_side(&sets[..2], support::rounds(JUMP_ROUNDS));
}

// ---- Every optimal and any-angle algorithm against `pathfinding` -------------------------

/// The algorithms timed against the `pathfinding` crate's A* (IDA* is left out: it gives up on
/// most of these problems by design).
const SHELF: [Algorithm; 9] = [
    Algorithm::AStar,
    Algorithm::Dijkstra,
    Algorithm::BiAStar,
    Algorithm::Jps,
    Algorithm::JpsPlus,
    Algorithm::Theta,
    Algorithm::LazyTheta,
    Algorithm::AStarSmoothed,
    Algorithm::Greedy,
];

/// Times each algorithm of [`SHELF`] and `pathfinding`'s A* on the same problems, in turn
/// within each round, and prints pathfinding's time over each algorithm's (above 1: ours is
/// faster) with the mean path length over the optimum.
fn shelf_side_by_side(sets: &[Set], rounds: usize) {
    let problems: usize = sets.iter().map(|s| s.problems.len()).sum();
    let optimum: f64 = sets.iter().flat_map(|s| s.problems.iter().map(|p| p.optimal)).sum();
    let mut searches: Vec<Vec<Box<dyn Stepper>>> =
        SHELF.iter().map(|&a| sets.iter().map(|s| jump_search(s, a)).collect()).collect();
    let mut theirs = Vec::new();
    let mut ours = vec![Vec::new(); SHELF.len()];
    let mut lengths = vec![0.0; SHELF.len()];
    for _ in 0..rounds {
        let started = Instant::now();
        for set in sets {
            black_box(theirs_run(&set.grid, &set.problems));
        }
        theirs.push(started.elapsed());
        for (k, per_set) in searches.iter_mut().enumerate() {
            let started = Instant::now();
            let mut length = 0.0;
            for (set, search) in sets.iter().zip(per_set.iter_mut()) {
                length += run_all(search.as_mut(), &set.problems).0;
            }
            ours[k].push(started.elapsed());
            lengths[k] = length;
        }
    }
    let theirs = support::median(theirs);
    println!(
        "\nEvery algorithm against pathfinding's astar, {problems} problems of {} (median of {rounds}):",
        sets.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
    );
    println!("{:<16} {:>10} {:>18} {:>16}", "algorithm", "ms", "pathfinding / it", "length / optimum");
    println!("{:<16} {:>10.2} {:>18} {:>16}", "pathfinding", theirs.as_secs_f64() * 1e3, "1.00", "1.0000");
    for (k, times) in ours.into_iter().enumerate() {
        let t = support::median(times);
        println!(
            "{:<16} {:>10.2} {:>18.2} {:>16.4}",
            SHELF[k].name(),
            t.as_secs_f64() * 1e3,
            theirs.as_secs_f64() / t.as_secs_f64(),
            lengths[k] / optimum
        );
    }
}

// ---- Jump point search on the DAO maps ------------------------------------------------------

/// Rounds of the jump point side-by-side pass; the median round is reported.
const JUMP_ROUNDS: usize = 5;

/// The algorithms compared on the DAO maps, in table order.
const JUMP_ALGORITHMS: [Algorithm; 3] = [Algorithm::AStar, Algorithm::Jps, Algorithm::JpsPlus];

/// A stepper of `algorithm` on the set's map under the comparison's rules, reused for every
/// problem (as the CLI does).
fn jump_search(set: &Set, algorithm: Algorithm) -> Box<dyn Stepper> {
    let first = &set.problems[0];
    build(set.grid.clone(), first.start, first.goal, SearchConfig { algorithm, ..config() }).expect("valid problem")
}

/// Checks, before timing, that A*, JPS and JPS+ all give the `.scen` optimum on every problem.
fn verify_jumps(sets: &[Set]) {
    for set in sets {
        for algorithm in JUMP_ALGORITHMS {
            let mut search = jump_search(set, algorithm);
            for p in &set.problems {
                search.set_ends(p.start, p.goal).expect("valid problem");
                search.run();
                let cost =
                    search.cost().unwrap_or_else(|| panic!("{} line {}: {algorithm} finds no path", set.name, p.line));
                assert_optimal(set, p, &algorithm.to_string(), cost);
            }
        }
        println!("verified {}: {} problems, A*, JPS and JPS+ give the .scen optima", set.name, set.problems.len());
    }
}

fn jump_criterion_groups(c: &mut Criterion, sets: &[Set]) {
    for set in sets.iter().filter(|s| matches!(s.name, "dao/den312d" | "dao/brc202d")) {
        let mut group = c.benchmark_group(format!("jump/{}/{}-problems", set.name, set.problems.len()));
        group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
        for algorithm in JUMP_ALGORITHMS {
            let mut search = jump_search(set, algorithm);
            group.bench_function(algorithm.name(), |b| b.iter(|| black_box(run_all(search.as_mut(), &set.problems))));
        }
        group.bench_function("pathfinding astar", |b| b.iter(|| black_box(theirs_run(&set.grid, &set.problems))));
        group.finish();
    }
}

/// Times pathfinding's A*, our A*, JPS and JPS+ in turn over the same problems and prints the
/// expansions, the times and the ratios.
fn jump_side_by_side(sets: &[Set], rounds: usize) {
    println!();
    println!("jump point search on the DAO maps, side by side: median of {rounds} rounds; in each, every variant runs the same problems in turn");
    println!(
        "{:<12} {:>5} {:>9} {:>7} {:>7} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9}",
        "map",
        "probs",
        "A* exp",
        "JPS exp",
        "JPS+ exp",
        "pf ms",
        "A* ms",
        "JPS ms",
        "JPS+ ms",
        "A*/JPS",
        "JPS/JPS+",
        "pf/A*",
        "pf/JPS+"
    );
    let mut totals = [Duration::ZERO; 4];
    let mut expansions_total = [0usize; 3];
    for set in sets {
        let mut searches: Vec<Box<dyn Stepper>> = JUMP_ALGORITHMS.iter().map(|&a| jump_search(set, a)).collect();
        // times[0]: pathfinding; [1..4]: A*, JPS, JPS+. Each round starts with another variant.
        let mut times: [Vec<Duration>; 4] = Default::default();
        let mut expansions = [0usize; 3];
        for round in 0..rounds {
            for k in 0..4 {
                let variant = (round + k) % 4;
                let t = Instant::now();
                if variant == 0 {
                    black_box(theirs_run(&set.grid, &set.problems));
                } else {
                    let (_, expanded) = black_box(run_all(searches[variant - 1].as_mut(), &set.problems));
                    expansions[variant - 1] = expanded;
                }
                times[variant].push(t.elapsed());
            }
        }
        let medians: Vec<Duration> = times.into_iter().map(support::median).collect();
        for (total, m) in totals.iter_mut().zip(&medians) {
            *total += *m;
        }
        for (total, e) in expansions_total.iter_mut().zip(expansions) {
            *total += e;
        }
        jump_row(set.name, set.problems.len(), expansions, &medians);
    }
    let count = sets.iter().map(|s| s.problems.len()).sum();
    jump_row("all", count, expansions_total, &totals);
    let [pf, astar, jps, plus] = totals.map(|d| d.as_secs_f64());
    println!();
    println!(
        "JPS vs our A* on the DAO maps: {:.1}x faster (target >= 10): {}",
        astar / jps,
        if astar / jps >= 10.0 { "met" } else { "NOT MET" }
    );
    println!(
        "JPS+ vs JPS: {:.2}x faster (target > 1): {}",
        jps / plus,
        if jps / plus > 1.0 { "met" } else { "NOT MET" }
    );
    println!(
        "against pathfinding::astar: our A* {:.1}x, JPS {:.1}x, JPS+ {:.1}x faster",
        pf / astar,
        pf / jps,
        pf / plus
    );
}

fn jump_row(name: &str, problems: usize, expansions: [usize; 3], times: &[Duration]) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mean = |e: usize| e as f64 / problems as f64;
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!(
        "{:<12} {:>5} {:>9.1} {:>7.1} {:>8.1} {:>9.2} {:>9.2} {:>8.2} {:>8.2} {:>8.1} {:>8.2} {:>8.2} {:>9.1}",
        name.trim_start_matches("dao/"),
        problems,
        mean(expansions[0]),
        mean(expansions[1]),
        mean(expansions[2]),
        ms(times[0]),
        ms(times[1]),
        ms(times[2]),
        ms(times[3]),
        ratio(times[1], times[2]),
        ratio(times[2], times[3]),
        ratio(times[0], times[1]),
        ratio(times[0], times[3]),
    );
}
