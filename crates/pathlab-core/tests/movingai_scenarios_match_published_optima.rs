//! Dijkstra, A* (octile) and the independent reference Dijkstra reproduce the published
//! optimal lengths of MovingAI scenarios (8-connected, no corner cutting, real costs), within
//! the printed precision. The CLI's `pathlab scen --check` covers the full sets; this keeps a
//! fast sample inside the core's own tests.
//!
//! The maps are looked for in `$PATHLAB_MOVINGAI`, then `maps/movingai` in the repository, then
//! `../shared/maps/movingai` beside it.

mod common;
mod oracle;

use common::load_movingai;
use oracle::{costs_from, walk};
use pathlab_core::grid::{Costs, Diagonal};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Stepper};

/// Checks every `every`-th problem; the reference runs on every `reference_every`-th.
fn check(family_map: &str, every: usize, reference_every: usize) -> usize {
    let (grid, problems) = load_movingai(family_map);
    assert!(!problems.is_empty());
    let rule = Diagonal::NoCornerCutting;
    let mut checked = 0;
    for (k, p) in problems.iter().enumerate().step_by(every) {
        assert_eq!((p.width, p.height), (grid.width(), grid.height()), "{family_map} line {}", p.line);
        let what = format!("{family_map} line {}: {} -> {} optimal {}", p.line, p.start, p.goal, p.optimal);
        let near = |c: f64| (c - p.optimal).abs() <= p.tolerance;
        for config in
            [SearchConfig::new(Algorithm::AStar).heuristic(Heuristic::Octile), SearchConfig::new(Algorithm::Dijkstra)]
        {
            let config = config.diagonal(rule).costs(Costs::Real);
            let mut s = Search::new(grid.clone(), p.start, p.goal, config).unwrap();
            s.run();
            let path = s.path().unwrap_or_else(|| panic!("{what}: {} found no path", config.algorithm));
            assert!(near(path.cost), "{what}: {} cost {}", config.algorithm, path.cost);
            let moves = walk(&grid, rule, Costs::Real, p.start, p.goal, &path.points).unwrap();
            assert!((moves - path.cost).abs() < 1e-6, "{what}");
        }
        if k % reference_every == 0 {
            let d = costs_from(&grid, p.start, rule, Costs::Real)[p.goal.y * grid.width() + p.goal.x];
            assert!(near(d), "{what}: the reference says {d}");
        }
        checked += 1;
    }
    checked
}

#[test]
fn dao_arena_every_problem() {
    assert!(check("dao/arena.map", 1, 1) >= 150);
}

#[test]
fn dao_den312d_sample() {
    assert!(check("dao/den312d.map", 8, 32) >= 40);
}

#[test]
fn bg512_ar0011sr_sample() {
    assert!(check("bg512/AR0011SR.map", 64, 256) >= 20);
}
