//! Hierarchical A* on real game maps stays close to the optimum: on samples of MovingAI
//! problems (8-connected, no corner cutting, real costs: the convention of the published
//! optimal lengths), every problem is solved, the path is legal, its cost is the sum of its
//! moves, and `cost / optimum` lies between 1 (less the printed precision) and 1.5. The mean
//! and worst ratios are printed (run with `--nocapture`).
//!
//! The abstract search must also be worth it: summed over a map's sample, it expands fewer
//! nodes than flat A*.
//!
//! The maps are looked for in `$PATHLAB_MOVINGAI`, then `maps/movingai` in the repository, then
//! `../shared/maps/movingai` beside it.

mod common;
mod oracle;

use common::load_movingai;
use oracle::{same, walk};
use pathlab_core::grid::{Costs, Diagonal};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::hpa::Hpa;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Status, Stepper};

/// The largest `cost / optimum` accepted.
const BOUND: f64 = 1.5;

/// Solves every `every`-th problem of the map with clusters of `side`; returns the mean and
/// worst ratio.
fn check(family_map: &str, side: u32, every: usize) -> (f64, f64) {
    let (grid, problems) = load_movingai(family_map);
    let rule = Diagonal::NoCornerCutting;
    let config =
        SearchConfig::new(Algorithm::Hpa).cluster(side).heuristic(Heuristic::Octile).diagonal(rule).costs(Costs::Real);
    let first = &problems[0];
    let mut hpa = Hpa::new(grid.clone(), first.start, first.goal, config).unwrap();
    let flat_config = SearchConfig { algorithm: Algorithm::AStar, ..config };
    let mut flat = Search::new(grid.clone(), first.start, first.goal, flat_config).unwrap();
    let (mut sum, mut worst, mut count) = (0.0, 0.0f64, 0usize);
    let (mut abstract_expanded, mut flat_expanded) = (0usize, 0usize);
    for p in problems.iter().step_by(every) {
        let what = format!(
            "{family_map} line {}: {} -> {} optimal {} (clusters of {side})",
            p.line, p.start, p.goal, p.optimal
        );
        hpa.set_ends(p.start, p.goal).unwrap();
        assert_eq!(hpa.run(), Status::Found, "{what}");
        let path = hpa.path().unwrap();
        let moves =
            walk(&grid, rule, Costs::Real, p.start, p.goal, &path.points).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(same(moves, path.cost), "{what}: moves {moves}, cost {}", path.cost);
        let ratio = if p.optimal > 0.0 { path.cost / p.optimal } else { 1.0 };
        let tol = p.tolerance / p.optimal.max(1.0);
        assert!(ratio >= 1.0 - tol, "{what}: cost {} is below the optimum", path.cost);
        assert!(ratio <= BOUND, "{what}: cost {} is {ratio} times the optimum", path.cost);
        sum += ratio;
        worst = worst.max(ratio);
        count += 1;
        abstract_expanded += hpa.expanded();
        flat.set_ends(p.start, p.goal).unwrap();
        flat.run();
        flat_expanded += flat.expanded();
    }
    let mean = sum / count as f64;
    println!(
        "{family_map} clusters of {side}: {count} problems, cost/optimum mean {mean:.4} worst {worst:.4}; \
         abstract expansions {abstract_expanded} vs flat A* {flat_expanded}; graph {} nodes, {} edges",
        hpa.abstract_nodes(),
        hpa.abstract_edges()
    );
    assert!(count >= 20);
    assert!(abstract_expanded < flat_expanded, "{family_map}: {abstract_expanded} abstract vs {flat_expanded} flat");
    (mean, worst)
}

#[test]
fn dao_arena_every_problem_within_bounds() {
    for side in [8, 16] {
        check("dao/arena.map", side, 1);
    }
}

#[test]
fn dao_den312d_sample_within_bounds() {
    for side in [10, 16] {
        check("dao/den312d.map", side, 3);
    }
}

#[test]
fn bg512_ar0011sr_sample_within_bounds() {
    for side in [10, 16] {
        check("bg512/AR0011SR.map", side, 16);
    }
}
