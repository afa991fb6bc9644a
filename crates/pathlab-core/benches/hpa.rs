//! Hierarchical A* against flat A* on MovingAI problems (8-connected, no corner cutting, real
//! costs, octile heuristic), for cluster sides 8, 16 and 32.
//!
//! For each map and side it reports: the abstract graph (nodes, directed edges) and how long
//! building it takes (median of several builds); the suboptimality of the refined paths
//! (cost / `.scen` optimum, mean and worst); abstract expansions against flat A*'s expansions
//! (means per problem); and the query time of both (mean per problem, the fastest of several
//! rounds). A hierarchical query is everything after the build: linking start and goal to the
//! graph, the abstract search and refining every abstract edge into grid moves.
//!
//! The maps come from the MovingAI folder: `$PATHLAB_MOVINGAI`, by default
//! `shared/maps/movingai` beside the repository.
//! Run: `cargo bench -p pathlab-core --bench hpa`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pathlab_core::grid::{Costs, Diagonal};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::hpa::Hpa;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Status, Stepper};

mod support;

/// The maps, with how many evenly spaced problems to take (`usize::MAX`: all).
const SETS: &[(&str, usize)] =
    &[("dao/arena", usize::MAX), ("dao/den312d", usize::MAX), ("bg512/AR0011SR", 300), ("bg512/AR0044SR", 300)];

/// The cluster sides compared.
const SIDES: [u32; 3] = [8, 16, 32];

/// Rounds of queries (the fastest is reported) and of builds (the median is reported).
const ROUNDS: usize = 3;
const BUILDS: usize = 5;

fn config(algorithm: Algorithm, side: u32) -> SearchConfig {
    SearchConfig::new(algorithm)
        .heuristic(Heuristic::Octile)
        .diagonal(Diagonal::NoCornerCutting)
        .costs(Costs::Real)
        .cluster(side)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let sets = support::load_sets("hpa", SETS);
    println!(
        "{:<16} {:>4} {:>6} {:>7} {:>9} {:>9} {:>9} {:>10} {:>10} {:>6} {:>10} {:>10} {:>6}",
        "map",
        "side",
        "nodes",
        "edges",
        "build ms",
        "mean c/o",
        "max c/o",
        "abs exp",
        "A* exp",
        "ratio",
        "hpa us",
        "A* us",
        "ratio"
    );
    for set in &sets {
        let first = &set.problems[0];
        let n = set.problems.len() as f64;
        // Flat A*: expansions and the fastest round.
        let mut flat = Search::new(set.grid.clone(), first.start, first.goal, config(Algorithm::AStar, 8)).unwrap();
        let mut flat_expanded = 0usize;
        let mut flat_time = Duration::MAX;
        for round in 0..ROUNDS {
            let clock = Instant::now();
            for p in &set.problems {
                flat.set_ends(p.start, p.goal).unwrap();
                black_box(flat.run());
                if round == 0 {
                    flat_expanded += flat.expanded();
                }
            }
            flat_time = flat_time.min(clock.elapsed());
        }
        for side in SIDES {
            let c = config(Algorithm::Hpa, side);
            let mut builds: Vec<Duration> = (0..BUILDS)
                .map(|_| {
                    let clock = Instant::now();
                    black_box(Hpa::new(set.grid.clone(), first.start, first.goal, c).unwrap());
                    clock.elapsed()
                })
                .collect();
            builds.sort();
            let mut hpa = Hpa::new(set.grid.clone(), first.start, first.goal, c).unwrap();
            let (mut sum, mut worst, mut abstract_expanded) = (0.0, 0.0f64, 0usize);
            let mut hpa_time = Duration::MAX;
            for round in 0..ROUNDS {
                let clock = Instant::now();
                for p in &set.problems {
                    hpa.set_ends(p.start, p.goal).unwrap();
                    let status = black_box(hpa.run());
                    if round == 0 {
                        assert_eq!(status, Status::Found, "{} {} -> {}", set.name, p.start, p.goal);
                        let cost = hpa.cost().unwrap_or(f64::INFINITY);
                        let ratio = if p.optimal > 0.0 { cost / p.optimal } else { 1.0 };
                        sum += ratio;
                        worst = worst.max(ratio);
                        abstract_expanded += Stepper::expanded(&hpa);
                    }
                }
                hpa_time = hpa_time.min(clock.elapsed());
            }
            let per = |d: Duration| d.as_secs_f64() * 1e6 / n;
            println!(
                "{:<16} {:>4} {:>6} {:>7} {:>9.2} {:>9.4} {:>9.4} {:>10.1} {:>10.1} {:>6.3} {:>10.1} {:>10.1} {:>6.2}",
                set.name,
                side,
                hpa.abstract_nodes(),
                hpa.abstract_edges(),
                ms(builds[BUILDS / 2]),
                sum / n,
                worst,
                abstract_expanded as f64 / n,
                flat_expanded as f64 / n,
                abstract_expanded as f64 / flat_expanded as f64,
                per(hpa_time),
                per(flat_time),
                hpa_time.as_secs_f64() / flat_time.as_secs_f64(),
            );
        }
        println!("  ({} problems)", set.problems.len());
    }
}
