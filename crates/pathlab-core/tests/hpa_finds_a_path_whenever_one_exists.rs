//! Hierarchical A* is complete and its paths are real: on random grids with many walls
//! (small clusters of side 4 to 8, every diagonal rule, both cost models, terrain on half of
//! them, any heuristic and weight), checked against the independent Dijkstra in
//! `reference_dijkstra`:
//!
//! - it finds a path exactly when the reference says one exists, and says no path otherwise;
//! - the path runs from start to goal by legal moves (no wall, no forbidden diagonal), its cost
//!   is the sum of its moves, and that is at least the optimum;
//! - only `always` ever needs an entrance for a diagonal crossing (the other rules manage with
//!   the straight runs, as the module documentation argues).
//!
//! Besides proptest's cases, a seeded sweep runs dense grids near the point where random walls
//! start to cut the grid into pieces (35-45% walls), with many start/goal pairs per grid, which
//! is where a missing transition would show.

mod cases;
mod oracle;

use cases::{configured, Configured, Rng};
use oracle::{costs_from, same, walk};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::hpa::Hpa;
use pathlab_core::search::{Algorithm, SearchConfig, Status, Stepper};
use proptest::prelude::*;
use proptest::sample::select;

fn case() -> impl Strategy<Value = Configured> {
    let settings = (
        (4u32..=8, select(Diagonal::ALL.to_vec()), select(Costs::ALL.to_vec())),
        (select(Heuristic::ALL.to_vec()), select(vec![1.0, 1.5])),
    );
    configured(4..=26, 10..=50, 1u8..=4, settings, |((cluster, rule, costs), (heuristic, weight))| {
        SearchConfig::new(Algorithm::Hpa)
            .cluster(cluster)
            .diagonal(rule)
            .costs(costs)
            .heuristic(heuristic)
            .weight(weight)
    })
}

/// Runs `s` to the end and checks it against the reference optimum `best` (infinite: no path).
fn check(s: &mut Hpa, best: f64) -> Result<(), String> {
    let c = s.config();
    let what = format!(
        "{} -> {} cluster {} {} {} {} w{}",
        s.start(),
        s.goal(),
        c.cluster,
        c.diagonal,
        c.costs,
        c.heuristic,
        c.weight
    );
    let status = s.run();
    if best.is_infinite() {
        return if status == Status::NoPath && s.cost().is_none() {
            Ok(())
        } else {
            Err(format!("{what}: found {:?} where there is no path", s.cost()))
        };
    }
    if status != Status::Found {
        return Err(format!("{what}: said {status} where the optimum is {best}"));
    }
    let path = s.path().ok_or_else(|| format!("{what}: no path read-out"))?;
    let moves =
        walk(s.grid(), c.diagonal, c.costs, s.start(), s.goal(), &path.points).map_err(|e| format!("{what}: {e}"))?;
    if !same(moves, path.cost) {
        return Err(format!("{what}: the moves sum to {moves}, the search says {}", path.cost));
    }
    if path.cost < best - 1e-9 * best.max(1.0) {
        return Err(format!("{what}: cost {} below the optimum {best}", path.cost));
    }
    if c.diagonal != Diagonal::Always && s.diagonal_entrances() != 0 {
        return Err(format!("{what}: {} diagonal entrances under {}", s.diagonal_entrances(), c.diagonal));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn finds_a_legal_path_exactly_when_one_exists(case in case()) {
        let best = costs_from(&case.grid, case.start, case.config.diagonal, case.config.costs)
            [case.goal.y * case.grid.width() + case.goal.x];
        let mut s = Hpa::new(case.grid.clone(), case.start, case.goal, case.config).unwrap();
        if let Err(e) = check(&mut s, best) {
            return Err(TestCaseError::fail(e));
        }
        // The same answer after moving the ends away and back (the graph is kept, the ends are
        // linked again).
        let cost = s.cost();
        s.set_ends(case.goal, case.start).unwrap();
        s.set_ends(case.start, case.goal).unwrap();
        s.run();
        prop_assert_eq!(s.cost(), cost);
    }
}

#[test]
fn dense_grids_near_the_percolation_point_every_pair() {
    let mut rng = Rng(0x5eed_4a11);
    let mut found = 0;
    let mut none = 0;
    for round in 0..240 {
        let (w, h) = (12 + rng.below(29), 12 + rng.below(29));
        let density = 35 + rng.below(11);
        let terrain = round % 2 == 0;
        let cells: Vec<u8> = (0..w * h)
            .map(|_| {
                if rng.below(100) < density {
                    WALL
                } else if terrain {
                    1 + rng.below(3) as u8
                } else {
                    1
                }
            })
            .collect();
        let grid = Grid::from_cells(w, h, cells).unwrap();
        let open: Vec<Point> = (0..grid.len()).map(|i| grid.point_at(i)).filter(|&p| grid.is_passable(p)).collect();
        if open.len() < 2 {
            continue;
        }
        let rule = Diagonal::ALL[round % 4];
        let costs = Costs::ALL[(round / 4) % 2];
        let cluster = 4 + (round / 8) % 5;
        let config = SearchConfig::new(Algorithm::Hpa).cluster(cluster as u32).diagonal(rule).costs(costs);
        let start = open[rng.below(open.len())];
        let mut s = Hpa::new(grid.clone(), start, start, config).unwrap();
        let best = costs_from(&grid, start, rule, costs);
        for _ in 0..25 {
            let goal = open[rng.below(open.len())];
            s.set_ends(start, goal).unwrap();
            let b = best[goal.y * w + goal.x];
            check(&mut s, b).unwrap_or_else(|e| panic!("round {round} ({w}x{h}, {density}% walls): {e}"));
            if b.is_finite() {
                found += 1;
            } else {
                none += 1;
            }
        }
    }
    // Both answers must be well represented for the sweep to mean anything.
    assert!(found > 1000 && none > 1000, "found {found}, no path {none}");
}
