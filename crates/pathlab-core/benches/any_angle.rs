//! Any-angle benchmark: Theta*, Lazy Theta* and A* with post-smoothing against plain A* on
//! MovingAI problems (8-connected, no corner cutting, real costs; A* and the smoothed A* with
//! the octile heuristic, the Theta*s with their straight-line one).
//!
//! Before timing, every any-angle result is checked: a path on every problem, its length
//! between the straight line from start to goal and the `.scen` optimum (plus tolerance).
//! Then the variants run the same problems in turn, several rounds, and the median round is
//! reported with the ratios to A*: time, total path length, expansions, and the
//! line-of-sight tests per problem.
//!
//! The maps come from the MovingAI folder: `$PATHLAB_MOVINGAI`, by default
//! `shared/maps/movingai` beside the repository.
//! Run: `cargo bench -p pathlab-core --bench any_angle`.

use std::hint::black_box;
use std::time::Duration;

use pathlab_core::formats::movingai::Problem;
use pathlab_core::grid::{Costs, Diagonal};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::smoothed::SmoothedAStar;
use pathlab_core::search::theta::ThetaStar;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Stepper};

mod support;
use support::Set;

/// The maps, with how many evenly spaced problems to take (`usize::MAX`: all).
const SETS: &[(&str, usize)] = &[("dao/arena", usize::MAX), ("dao/den312d", usize::MAX), ("bg512/AR0011SR", 200)];

/// Rounds of the side-by-side pass; the median round is reported.
const ROUNDS: usize = 7;

/// The variants, A* first (the baseline of every ratio).
const VARIANTS: [Algorithm; 4] = [Algorithm::AStar, Algorithm::Theta, Algorithm::LazyTheta, Algorithm::AStarSmoothed];

fn config(algorithm: Algorithm) -> SearchConfig {
    SearchConfig::new(algorithm).heuristic(Heuristic::Octile).diagonal(Diagonal::NoCornerCutting).costs(Costs::Real)
}

/// One variant's search on a set's map, reused for every problem (as the CLI does).
enum Runner {
    AStar(Search),
    Theta(ThetaStar),
    Smoothed(SmoothedAStar),
}

impl Runner {
    fn new(set: &Set, algorithm: Algorithm) -> Self {
        let (grid, p) = (set.grid.clone(), &set.problems[0]);
        let c = config(algorithm);
        match algorithm {
            Algorithm::AStar => Self::AStar(Search::new(grid, p.start, p.goal, c).unwrap()),
            Algorithm::AStarSmoothed => Self::Smoothed(SmoothedAStar::new(grid, p.start, p.goal, c).unwrap()),
            _ => Self::Theta(ThetaStar::new(grid, p.start, p.goal, c).unwrap()),
        }
    }

    fn stepper(&mut self) -> &mut dyn Stepper {
        match self {
            Self::AStar(s) => s,
            Self::Theta(s) => s,
            Self::Smoothed(s) => s,
        }
    }

    fn sight_checks(&self) -> usize {
        match self {
            Self::AStar(_) => 0,
            Self::Theta(s) => s.sight_checks(),
            Self::Smoothed(s) => s.sight_checks(),
        }
    }

    /// Runs every problem; returns the summed cost.
    fn run_all(&mut self, problems: &[Problem]) -> f64 {
        let mut total = 0.0;
        for p in problems {
            let s = self.stepper();
            s.set_ends(p.start, p.goal).unwrap();
            s.run();
            total += s.cost().expect("a path");
        }
        total
    }
}

/// Per variant: summed cost, expansions and line-of-sight tests over a set.
struct Counts {
    cost: f64,
    expanded: usize,
    sight: usize,
}

/// Checks every result and counts what each variant does.
fn verify(set: &Set) -> Vec<Counts> {
    VARIANTS
        .iter()
        .map(|&algorithm| {
            let mut runner = Runner::new(set, algorithm);
            let mut counts = Counts { cost: 0.0, expanded: 0, sight: 0 };
            for p in &set.problems {
                let s = runner.stepper();
                s.set_ends(p.start, p.goal).unwrap();
                s.run();
                let cost = s.cost().unwrap_or_else(|| panic!("{algorithm} {} line {}: no path", set.name, p.line));
                let line = (p.start.x.abs_diff(p.goal.x) as f64).hypot(p.start.y.abs_diff(p.goal.y) as f64);
                assert!(
                    cost <= p.optimal + p.tolerance,
                    "{algorithm} {} line {}: {cost} > {}",
                    set.name,
                    p.line,
                    p.optimal
                );
                assert!(cost >= line - 1e-9, "{algorithm} {} line {}: {cost} < straight line {line}", set.name, p.line);
                counts.cost += cost;
                counts.expanded += s.expanded();
                counts.sight += runner.sight_checks();
            }
            counts
        })
        .collect()
}

fn main() {
    let rounds = support::rounds(ROUNDS);
    let sets = support::load_sets("any_angle", SETS);
    println!("any-angle vs A*: median of {rounds} rounds; in each, every variant runs the same problems in turn");
    println!(
        "{:<16} {:<15} {:>8} {:>10} {:>9} {:>10} {:>12} {:>12} {:>12}",
        "map", "algorithm", "problems", "ms", "time/A*", "length/A*", "expanded/A*", "exp/problem", "LOS/problem"
    );
    let mut totals = [Duration::ZERO; VARIANTS.len()];
    let mut lengths = [0.0; VARIANTS.len()];
    for set in &sets {
        let counts = verify(set);
        let mut runners: Vec<Runner> = VARIANTS.iter().map(|&a| Runner::new(set, a)).collect();
        let medians = support::side_by_side(rounds, VARIANTS.len(), |v| {
            black_box(runners[v].run_all(&set.problems));
        });
        let n = set.problems.len();
        for (k, &algorithm) in VARIANTS.iter().enumerate() {
            totals[k] += medians[k];
            lengths[k] += counts[k].cost;
            println!(
                "{:<16} {:<15} {:>8} {:>10.3} {:>9.2} {:>10.4} {:>12.2} {:>12.1} {:>12.1}",
                set.name,
                algorithm.name(),
                n,
                medians[k].as_secs_f64() * 1e3,
                medians[k].as_secs_f64() / medians[0].as_secs_f64(),
                counts[k].cost / counts[0].cost,
                counts[k].expanded as f64 / counts[0].expanded as f64,
                counts[k].expanded as f64 / n as f64,
                counts[k].sight as f64 / n as f64,
            );
        }
    }
    println!();
    let count: usize = sets.iter().map(|s| s.problems.len()).sum();
    for (k, &algorithm) in VARIANTS.iter().enumerate() {
        println!(
            "all {count} problems, {:<15} {:>10.3} ms  time/A* {:>5.2}  length/A* {:.4}",
            algorithm.name(),
            totals[k].as_secs_f64() * 1e3,
            totals[k].as_secs_f64() / totals[0].as_secs_f64(),
            lengths[k] / lengths[0]
        );
    }
}
