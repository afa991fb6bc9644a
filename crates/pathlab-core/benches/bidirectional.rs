//! Bidirectional A* against our A* on the MovingAI DAO maps: expansions and time, as ratios
//! measured side by side in one run.
//!
//! Rules: 8-connected, no corner cutting, real costs, octile heuristic, weight 1. Before any
//! timing, both searches must give the `.scen` optimum (within its tolerance) on every
//! problem. Then each round runs both over the same problems in turn (alternating which goes
//! first) and the median round is reported, per map and overall. Criterion also measures both
//! on two maps.
//!
//! The maps come from the MovingAI folder: `$PATHLAB_MOVINGAI`, by default
//! `shared/maps/movingai` beside the repository.
//! Run: `cargo bench -p pathlab-core --bench bidirectional`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pathlab_core::formats::movingai::Problem;
use pathlab_core::grid::{Costs, Diagonal};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::bi_astar::BiAStar;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Stepper};

mod support;
use support::{assert_optimal, run_all, Set, DAO_SETS};

/// Rounds of the side-by-side pass; the median round is reported.
const ROUNDS: usize = 5;

fn config(algorithm: Algorithm) -> SearchConfig {
    SearchConfig::new(algorithm).heuristic(Heuristic::Octile).diagonal(Diagonal::NoCornerCutting).costs(Costs::Real)
}

/// The two searches on one map, each reused for every problem (as the CLI does).
struct Pair {
    astar: Search,
    bi: BiAStar,
}

impl Pair {
    fn new(set: &Set) -> Self {
        let p = &set.problems[0];
        Self {
            astar: Search::new(set.grid.clone(), p.start, p.goal, config(Algorithm::AStar)).expect("valid problem"),
            bi: BiAStar::new(set.grid.clone(), p.start, p.goal, config(Algorithm::BiAStar)).expect("valid problem"),
        }
    }
}

/// Bidirectional A* over the problems; returns the summed cost, expansions and nipped cells.
fn run_bi(search: &mut BiAStar, problems: &[Problem]) -> (f64, usize, usize) {
    let (mut cost, mut expanded, mut nipped) = (0.0, 0, 0);
    for p in problems {
        search.set_ends(p.start, p.goal).expect("valid problem");
        search.run();
        cost += search.cost().expect("a path");
        expanded += search.expanded();
        nipped += search.nipped();
    }
    (cost, expanded, nipped)
}

/// Checks, before timing, that both give the `.scen` optimum on every problem.
fn verify(sets: &[Set]) {
    for set in sets {
        let mut pair = Pair::new(set);
        for p in &set.problems {
            let one = std::slice::from_ref(p);
            let (a, _) = run_all(&mut pair.astar, one);
            let (b, _, _) = run_bi(&mut pair.bi, one);
            for (what, cost) in [("A*", a), ("bi-A*", b)] {
                assert_optimal(set, p, what, cost);
            }
        }
        println!("verified {}: {} problems, A* and bi-A* give the .scen optima", set.name, set.problems.len());
    }
}

fn criterion_groups(c: &mut Criterion, sets: &[Set]) {
    for set in sets.iter().filter(|s| matches!(s.name, "dao/den312d" | "dao/brc202d")) {
        let mut group = c.benchmark_group(format!("bidirectional/{}/{}-problems", set.name, set.problems.len()));
        group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
        let mut pair = Pair::new(set);
        group.bench_function("astar", |b| b.iter(|| black_box(run_all(&mut pair.astar, &set.problems))));
        group.bench_function("bi-astar", |b| b.iter(|| black_box(run_bi(&mut pair.bi, &set.problems))));
        group.finish();
    }
}

/// Times both in turn over the same problems and prints expansions, times and ratios.
fn side_by_side(sets: &[Set], rounds: usize) {
    println!();
    println!("bidirectional A* vs A* on the DAO maps: median of {rounds} rounds; in each, both run the same problems in turn");
    println!(
        "{:<12} {:>6} {:>11} {:>11} {:>9} {:>10} {:>10} {:>10} {:>10}",
        "map", "probs", "A* exp", "bi exp", "bi nipped", "A* ms", "bi ms", "exp bi/A*", "time bi/A*"
    );
    let (mut a_total, mut b_total) = (Duration::ZERO, Duration::ZERO);
    let (mut a_exp_total, mut b_exp_total, mut nipped_total, mut count) = (0, 0, 0, 0);
    for set in sets {
        let mut pair = Pair::new(set);
        let mut times: [Vec<Duration>; 2] = Default::default();
        let (mut a_exp, mut b_exp, mut nipped) = (0, 0, 0);
        for round in 0..rounds {
            for k in 0..2 {
                let variant = (round + k) % 2;
                let t = Instant::now();
                if variant == 0 {
                    a_exp = black_box(run_all(&mut pair.astar, &set.problems)).1;
                } else {
                    let (_, e, n) = black_box(run_bi(&mut pair.bi, &set.problems));
                    (b_exp, nipped) = (e, n);
                }
                times[variant].push(t.elapsed());
            }
        }
        let [a, b] = times;
        let (a, b) = (support::median(a), support::median(b));
        a_total += a;
        b_total += b;
        a_exp_total += a_exp;
        b_exp_total += b_exp;
        nipped_total += nipped;
        count += set.problems.len();
        print_row(set.name, set.problems.len(), (a_exp, b_exp, nipped), a, b);
    }
    print_row("all", count, (a_exp_total, b_exp_total, nipped_total), a_total, b_total);
    println!();
    println!(
        "bi-A* expands {:.3}x the cells of A* and takes {:.3}x its time on the DAO maps ({count} problems)",
        b_exp_total as f64 / a_exp_total as f64,
        b_total.as_secs_f64() / a_total.as_secs_f64()
    );
}

fn print_row(name: &str, problems: usize, (a_exp, b_exp, nipped): (usize, usize, usize), a: Duration, b: Duration) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{:<12} {:>6} {:>11} {:>11} {:>9} {:>10.3} {:>10.3} {:>10.3} {:>10.3}",
        name,
        problems,
        a_exp,
        b_exp,
        nipped,
        ms(a),
        ms(b),
        b_exp as f64 / a_exp as f64,
        b.as_secs_f64() / a.as_secs_f64()
    );
}

fn main() {
    let sets = support::load_sets("bidirectional", DAO_SETS);
    verify(&sets);
    support::with_criterion(|c| criterion_groups(c, &sets));
    side_by_side(&sets, support::rounds(ROUNDS));
}
