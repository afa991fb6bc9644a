//! The `Timeline` (checkpoints for quick scrubbing) against plain replay:
//! - on random grids large enough for many checkpoints, with every algorithm, seeking to
//!   steps in any order lands in exactly the state of a fresh search stepped that far (every
//!   buffer, counter, overlay and the open list), and so do step, back and run;
//! - `explore` finds the length of the run a fresh search takes to its end, and leaves a
//!   checkpoint at every multiple of the spacing before it;
//! - the checkpoints never outgrow their count or byte budget; when a run outgrows the count,
//!   the spacing doubles and seeks stay exact;
//! - painting and moving an end drop the checkpoints, and later seeks match a fresh search
//!   on the edited grid.

mod cases;

use cases::ends_on_open;
use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::timeline::{Timeline, CHECKPOINT_BUDGET, MAX_CHECKPOINTS, MIN_SPACING};
use pathlab_core::search::{build, Algorithm, SearchConfig, Status, Stepper};
use proptest::prelude::*;
use proptest::sample::{select, Index};

/// Everything the page reads from a search, to compare two of them.
fn same_state(a: &dyn Stepper, b: &dyn Stepper, context: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.steps(), b.steps(), "{}: steps", context);
    prop_assert_eq!(a.status(), b.status(), "{}: status", context);
    prop_assert_eq!(a.expanded(), b.expanded(), "{}: expanded", context);
    prop_assert_eq!(a.open_count(), b.open_count(), "{}: open", context);
    prop_assert_eq!(a.cost(), b.cost(), "{}: cost", context);
    prop_assert_eq!(a.states(), b.states(), "{}: states", context);
    prop_assert_eq!(a.g_values(), b.g_values(), "{}: g", context);
    prop_assert_eq!(a.parents(), b.parents(), "{}: parents", context);
    prop_assert_eq!(a.path_indices(), b.path_indices(), "{}: path", context);
    prop_assert_eq!(a.overlay(), b.overlay(), "{}: overlay", context);
    prop_assert_eq!(a.open_entries(20), b.open_entries(20), "{}: open list", context);
    Ok(())
}

/// A fresh search of the same problem, stepped `k` times.
fn fresh(grid: &Grid, start: Point, goal: Point, config: SearchConfig, k: usize) -> Box<dyn Stepper> {
    let mut s = build(grid.clone(), start, goal, config).unwrap();
    s.advance(k);
    s
}

/// A random open-ish grid of 40 to 90 cells a side (walls only, so every algorithm runs).
fn problem() -> impl Strategy<Value = (Grid, Point, Point)> {
    (40usize..=90, 40usize..=90, 0u32..=30)
        .prop_flat_map(|(w, h, density)| {
            (Just((w, h, density)), proptest::collection::vec(0u32..100, w * h), any::<Index>(), any::<Index>())
        })
        .prop_map(|((w, h, density), rolls, s, g)| {
            let mut cells: Vec<u8> = rolls.iter().map(|&r| if r < density { WALL } else { 1 }).collect();
            cells[0] = 1;
            ends_on_open(w, h, cells, s, g)
        })
}

const ALGORITHMS: [Algorithm; 13] = [
    Algorithm::Bfs,
    Algorithm::Dfs,
    Algorithm::Dijkstra,
    Algorithm::Greedy,
    Algorithm::AStar,
    Algorithm::BiAStar,
    Algorithm::Ida,
    Algorithm::Jps,
    Algorithm::JpsPlus,
    Algorithm::JpsPlusPruned,
    Algorithm::Theta,
    Algorithm::LazyTheta,
    Algorithm::AStarSmoothed,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn seeks_in_any_order_match_a_fresh_replay(
        (grid, start, goal) in problem(),
        algorithm in select(ALGORITHMS.to_vec()),
        rule in select(vec![Diagonal::NoCornerCutting, Diagonal::Never]),
        targets in proptest::collection::vec(0.0f64..1.1, 6),
        explore_first in any::<bool>(),
    ) {
        let config = SearchConfig::new(algorithm).diagonal(rule).heuristic(Heuristic::default_for(rule)).weight(1.0);
        let mut timeline = Timeline::new(build(grid.clone(), start, goal, config).unwrap());
        let mut plain = build(grid.clone(), start, goal, config).unwrap();
        // IDA* may run to its visit limit; 20,000 steps are plenty to cross checkpoints.
        let total = if algorithm == Algorithm::Ida { plain.advance(20_000) } else { plain.advance(usize::MAX) };
        if explore_first && algorithm != Algorithm::Ida {
            let found = loop {
                if let Some(t) = timeline.explore(997) {
                    break t;
                }
            };
            prop_assert_eq!(found, total, "explore finds the run's length");
            prop_assert_eq!(timeline.checkpoints(), (total - 1) / timeline.spacing(), "a checkpoint at every multiple");
        }
        for t in targets {
            let k = (t * total as f64) as usize;
            timeline.seek(k);
            let want = fresh(&grid, start, goal, config, k);
            same_state(&timeline, want.as_ref(), &format!("{algorithm} seek {k} of {total}"))?;
            prop_assert!(timeline.checkpoints() <= MAX_CHECKPOINTS);
            prop_assert!(timeline.checkpoints() * timeline.inner().approx_bytes() <= CHECKPOINT_BUDGET);
        }
        // Step and back from where it stands (at the end, step does nothing).
        let k = timeline.steps();
        let moved = usize::from(!timeline.status().is_finished());
        timeline.step();
        timeline.back();
        let want = fresh(&grid, start, goal, config, k + moved - 1);
        same_state(&timeline, want.as_ref(), &format!("{algorithm} step, back at {k}"))?;
        if algorithm != Algorithm::Ida {
            timeline.run();
            same_state(&timeline, plain.as_ref(), &format!("{algorithm} run"))?;
            prop_assert_eq!(timeline.total(), Some(total));
        }
    }
}

/// A run longer than the count allows at the first spacing (IDA* on a small open map, which
/// walks to the same cells along very many paths): the spacing doubles (every other
/// checkpoint dropped), the count stays bounded, and seeks stay exact.
#[test]
fn a_long_run_thins_its_checkpoints_and_stays_exact() {
    let grid = Grid::new(12, 12).unwrap();
    let (start, goal) = (Point::new(0, 0), Point::new(11, 11));
    let config = SearchConfig::new(Algorithm::Ida).heuristic(Heuristic::Zero);
    let mut timeline = Timeline::new(build(grid.clone(), start, goal, config).unwrap());
    assert_eq!(timeline.spacing(), MIN_SPACING);
    timeline.seek(60_000);
    assert_eq!(timeline.steps(), 60_000, "IDA* with no estimate is still searching");
    assert!(timeline.checkpoints() <= MAX_CHECKPOINTS);
    assert!(timeline.spacing() > MIN_SPACING, "60,000 steps need more than 64 checkpoints 256 apart");
    assert_eq!(timeline.checkpoints(), 60_000 / timeline.spacing());
    for k in [59_999, 3, 12_345, 60_000, 0, 25_000, 511, 512, 513, 1024] {
        timeline.seek(k);
        same_state(&timeline, fresh(&grid, start, goal, config, k).as_ref(), &format!("seek {k}")).unwrap();
    }
}

/// On a map where one copy of the search takes half the budget, at most one checkpoint is
/// kept however far the search goes.
#[test]
fn checkpoints_stay_within_the_byte_budget() {
    let side = 1200;
    let grid = Grid::new(side, side).unwrap();
    let config = SearchConfig::new(Algorithm::Dijkstra);
    let mut timeline = Timeline::new(build(grid, Point::new(0, 0), Point::new(side - 1, side - 1), config).unwrap());
    let bytes = timeline.inner().approx_bytes();
    assert!(bytes * 2 > CHECKPOINT_BUDGET && bytes <= CHECKPOINT_BUDGET, "{bytes} bytes a copy");
    for k in [100_000, 250_000, 180_000] {
        timeline.seek(k);
        assert_eq!(timeline.steps(), k);
        assert!(timeline.checkpoints() <= 1, "{} checkpoints", timeline.checkpoints());
    }
    assert_eq!(timeline.checkpoints(), 1);
}

/// Painting and moving an end make the checkpoints stale: they go, and seeks match a fresh
/// search on the edited map.
#[test]
fn edits_drop_the_checkpoints() {
    let grid = Grid::new(70, 70).unwrap();
    let (start, goal) = (Point::new(2, 2), Point::new(67, 60));
    let config = SearchConfig::new(Algorithm::AStar).heuristic(Heuristic::Zero);
    let mut timeline = Timeline::new(build(grid.clone(), start, goal, config).unwrap());
    while timeline.explore(1000).is_none() {}
    assert!(timeline.checkpoints() > 3);
    timeline.seek(2000);

    let wall: Vec<Point> = (0..60).map(|y| Point::new(30, y)).collect();
    assert_eq!(timeline.paint(&wall, WALL).unwrap(), 60);
    assert_eq!((timeline.checkpoints(), timeline.total(), timeline.steps()), (0, None, 0));
    let mut edited = grid.clone();
    for &p in &wall {
        edited.set(p, WALL).unwrap();
    }
    while timeline.explore(1000).is_none() {}
    for k in [3000, 10, 2600] {
        timeline.seek(k);
        same_state(&timeline, fresh(&edited, start, goal, config, k).as_ref(), &format!("painted, seek {k}")).unwrap();
    }

    let moved = Point::new(5, 65);
    timeline.set_ends(start, moved).unwrap();
    assert_eq!((timeline.checkpoints(), timeline.total(), timeline.steps()), (0, None, 0));
    timeline.seek(1500);
    timeline.seek(700);
    same_state(&timeline, fresh(&edited, start, moved, config, 700).as_ref(), "moved, seek 700").unwrap();
    assert_eq!(timeline.run(), Status::Found);
    same_state(&timeline, fresh(&edited, start, moved, config, usize::MAX).as_ref(), "moved, run").unwrap();
}

/// A clone through `boxed_clone` is independent of the original.
#[test]
fn boxed_clones_step_on_their_own() {
    let grid = Grid::new(30, 30).unwrap();
    for algorithm in ALGORITHMS {
        let config = SearchConfig::new(algorithm);
        let mut a = build(grid.clone(), Point::new(0, 0), Point::new(29, 17), config).unwrap();
        a.advance(7);
        let mut b = a.boxed_clone();
        b.advance(5);
        same_state(a.as_ref(), fresh(&grid, Point::new(0, 0), Point::new(29, 17), config, 7).as_ref(), "original")
            .unwrap();
        same_state(b.as_ref(), fresh(&grid, Point::new(0, 0), Point::new(29, 17), config, 12).as_ref(), "clone")
            .unwrap();
    }
}

/// When the search itself ran to the end (so the length is known) and seeks left scattered
/// checkpoints, exploring still fills in one checkpoint at every multiple of the spacing.
#[test]
fn exploring_after_a_run_fills_every_checkpoint() {
    let grid = Grid::new(80, 80).unwrap();
    let (start, goal) = (Point::new(0, 0), Point::new(79, 79));
    let config = SearchConfig::new(Algorithm::Dijkstra);
    let mut timeline = Timeline::new(build(grid.clone(), start, goal, config).unwrap());
    assert_eq!(timeline.run(), Status::Found);
    let total = timeline.steps();
    assert_eq!((timeline.total(), timeline.checkpoints()), (Some(total), 0));
    assert!(timeline.exploring());
    timeline.seek(total / 2);
    timeline.seek(total / 3);
    let scattered = timeline.checkpoints();
    assert!(scattered > 0);
    let mut slices = 0;
    while timeline.exploring() {
        assert_eq!(timeline.explore(700), Some(total));
        slices += 1;
    }
    assert!(slices > 1, "the work was spread over slices");
    assert_eq!(timeline.checkpoints(), (total - 1) / timeline.spacing());
    assert!(timeline.checkpoints() > scattered);
    for k in [total - 1, 5, total / 2 + 3] {
        timeline.seek(k);
        same_state(&timeline, fresh(&grid, start, goal, config, k).as_ref(), &format!("seek {k}")).unwrap();
    }
}

/// A run from scratch (for timing: it steps instead of restoring a checkpoint) lands in the
/// same state as a fresh search even when checkpoints cover the run, and leaves them usable.
#[test]
fn a_run_from_scratch_lands_where_a_fresh_search_does() {
    let grid = Grid::new(60, 60).unwrap();
    let (start, goal) = (Point::new(0, 0), Point::new(59, 59));
    let config = SearchConfig::new(Algorithm::Dijkstra);
    let mut timeline = Timeline::new(build(grid.clone(), start, goal, config).unwrap());
    timeline.run();
    let total = timeline.steps();
    while timeline.exploring() {
        timeline.explore(10_000);
    }
    assert!(timeline.checkpoints() > 0);
    timeline.reset();
    assert_eq!(timeline.inner().steps(), 0);
    assert_eq!(timeline.run_from_scratch(), Status::Found);
    assert_eq!(timeline.steps(), total);
    same_state(&timeline, fresh(&grid, start, goal, config, total).as_ref(), "from scratch").unwrap();
    // The checkpoints still serve seeks.
    timeline.seek(total / 2);
    same_state(&timeline, fresh(&grid, start, goal, config, total / 2).as_ref(), "seek after").unwrap();
}

/// On a map where one copy of the search is over the budget, the timeline keeps no
/// checkpoint and sends no scout ahead (the scout is a copy too); seeks still land right.
#[test]
fn a_map_too_large_to_copy_is_not_explored() {
    let side = 1700;
    let grid = Grid::new(side, side).unwrap();
    let config = SearchConfig::new(Algorithm::Dijkstra);
    let (start, goal) = (Point::new(0, 0), Point::new(side - 1, 3));
    let mut timeline = Timeline::new(build(grid.clone(), start, goal, config).unwrap());
    assert!(timeline.inner().approx_bytes() > CHECKPOINT_BUDGET);
    assert!(!timeline.exploring());
    assert_eq!(timeline.explore(1000), None);
    assert_eq!(timeline.explored(), 0);
    timeline.seek(5000);
    timeline.seek(1200);
    assert_eq!(timeline.checkpoints(), 0);
    assert_eq!(timeline.explored(), 5000, "as far as the search has been");
    same_state(&timeline, fresh(&grid, start, goal, config, 1200).as_ref(), "seek 1200").unwrap();
}
