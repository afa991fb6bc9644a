//! Bidirectional A* against an independent Dijkstra (`reference_dijkstra`, which shares no
//! movement or cost code with the core) on thousands of random grids: up to 24x24, 0-45%
//! walls, terrain costs 2-9 on half of them, random ends, every diagonal rule, both cost
//! models, every heuristic admissible under the rule.
//!
//! - it finds a path exactly when one exists, every move of it legal, its moves summing to
//!   the reported cost, and that cost is Dijkstra's;
//! - each side's closed cells hold their exact cost from that side's root (the forward
//!   search's from the start, the backward search's to the goal, each move paying for the
//!   cell it enters): the terrain is charged the right way round in both directions;
//! - mu never falls below the optimum and never rises; with a weight, the cost stays within
//!   weight x optimum;
//! - the stepper replays exactly (seek, back);
//! - a seeded sweep of 3,000 grids in which the frontiers often first meet away from every
//!   cheapest path (and the first meeting's mu is above the optimum): the answer is still the
//!   optimum, and the sweep counts and requires such cases, so the stopping rule is tested
//!   where stopping at the first meeting would be wrong.

mod cases;
mod oracle;

use cases::{case_with, terrain_from, Case, Rng, TERRAIN};
use oracle::{costs_from, costs_to, optimum, same, walk};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::bi_astar::BiAStar;
use pathlab_core::search::{build, Algorithm, CellState, SearchConfig, Status, Stepper, NO_PARENT};
use proptest::prelude::*;
use proptest::sample::select;

fn case() -> impl Strategy<Value = Case> {
    case_with(1..=24, 0..=45, terrain_from(&TERRAIN))
}

/// True when a search's cost is not below the true one (both may be infinite).
fn not_below(got: f64, truth: f64) -> bool {
    if truth.is_infinite() {
        got.is_infinite()
    } else {
        got >= truth - 1e-9 * truth.max(1.0)
    }
}

fn config(case: &Case, heuristic: Heuristic) -> SearchConfig {
    SearchConfig::new(Algorithm::BiAStar).heuristic(heuristic).diagonal(case.rule).costs(case.costs)
}

/// Checks a finished search against the optimum: found exactly when reachable, a legal path
/// whose moves sum to the cost, the forward buffers following the path. Returns the cost.
fn check(case: &Case, s: &dyn Stepper, best: Option<f64>) -> Result<Option<f64>, TestCaseError> {
    let what = format!("{:?}", s.config());
    prop_assert!(s.gave_up().is_none(), "{}", what);
    let Some(best) = best else {
        prop_assert_eq!(s.status(), Status::NoPath, "{}: the goal is unreachable", what);
        prop_assert!(s.path().is_none() && s.cost().is_none());
        return Ok(None);
    };
    prop_assert_eq!(s.status(), Status::Found, "{}: the optimum is {}", what, best);
    let path = s.path().unwrap();
    let moves = walk(&case.grid, case.rule, case.costs, case.start, case.goal, &path.points)
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    prop_assert!(same(moves, path.cost), "{}: reported {} but the moves sum to {}", what, path.cost, moves);
    // The forward buffers hold the whole path: parents lead from the goal back to the start,
    // and the goal's g is the cost.
    let w = case.grid.width();
    let goal_i = case.goal.y * w + case.goal.x;
    prop_assert_eq!(s.g_values()[goal_i], path.cost);
    let mut back = vec![goal_i as u32];
    while let Some(&at) = back.last() {
        let up = s.parents()[at as usize];
        if up == NO_PARENT || back.len() > case.grid.len() {
            break;
        }
        back.push(up);
    }
    back.reverse();
    prop_assert_eq!(&back[..], s.path_indices(), "{}: parents do not follow the path", what);
    Ok(Some(path.cost))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Every admissible heuristic: the same cost as Dijkstra, a legal path, no path exactly
    /// when the goal is unreachable.
    #[test]
    fn bidirectional_astar_cost_equals_an_independent_dijkstra(case in case()) {
        let best = optimum(&case.grid, case.start, case.goal, case.rule, case.costs);
        for &h in Heuristic::ALL {
            if !h.is_admissible(case.rule, case.costs) {
                continue;
            }
            let config = config(&case, h);
            prop_assert!(config.is_optimal());
            let mut s = build(case.grid.clone(), case.start, case.goal, config).unwrap();
            s.run();
            if let (Some(got), Some(best)) = (check(&case, s.as_ref(), best)?, best) {
                prop_assert!(same(got, best), "{:?}: cost {} but Dijkstra says {}", config, got, best);
            }
        }
    }

    /// With a weight, the cost is at most weight x the optimum (and never below it).
    #[test]
    fn weighted_bidirectional_astar_stays_within_its_weight(case in case(), weight in 1.0f64..4.0) {
        let best = optimum(&case.grid, case.start, case.goal, case.rule, case.costs);
        let config = config(&case, Heuristic::default_for(case.rule)).weight(weight);
        let mut s = build(case.grid.clone(), case.start, case.goal, config).unwrap();
        s.run();
        if let (Some(got), Some(best)) = (check(&case, s.as_ref(), best)?, best) {
            prop_assert!(got >= best - 1e-9 * best.max(1.0), "{} below the optimum {}", got, best);
            prop_assert!(got <= weight * best + 1e-9 * best.max(1.0), "weight {}: {} > {} x {}", weight, got, weight, best);
        }
    }

    /// Step by step: mu never rises and never goes below the optimum, and the meeting cell is
    /// known to both sides at mu. At a random step and at the end no cell's cost is below the
    /// truth, and as long as neither side has nipped a cell (closed it unexpanded because the
    /// other side had closed it), each side's closed cells hold exact costs: forward from the
    /// start, backward to the goal, with terrain charged for the cell each move enters. At the
    /// end the meeting cell has its exact cost on both sides.
    #[test]
    fn each_side_closes_cells_at_their_exact_cost(
        case in case(),
        pick in select(Heuristic::ALL.to_vec()),
        look_at in 0usize..100,
    ) {
        let h = if pick.is_admissible(case.rule, case.costs) { pick } else { Heuristic::default_for(case.rule) };
        let config = config(&case, h);
        let w = case.grid.width();
        let from = costs_from(&case.grid, case.start, case.rule, case.costs);
        let to = costs_to(&case.grid, case.goal, case.rule, case.costs);
        let best = from[case.goal.y * w + case.goal.x];
        let mut s = BiAStar::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        let mut last_mu = f64::INFINITY;
        while !s.status().is_finished() {
            s.step();
            let mu = s.mu();
            prop_assert!(mu <= last_mu, "mu rose from {} to {}", last_mu, mu);
            last_mu = mu;
            if mu.is_finite() {
                prop_assert!(mu >= best - 1e-9 * best.max(1.0), "mu {} below the optimum {}", mu, best);
                let m = s.meeting().unwrap();
                let i = m.y * w + m.x;
                prop_assert!(same(s.g_values()[i] + s.g_back()[i], mu) || s.status() == Status::Found);
            }
            if s.steps() == look_at || s.status().is_finished() {
                for (i, &st) in s.states().iter().enumerate() {
                    prop_assert!(st <= CellState::ClosedBack as u8);
                    if st == CellState::Closed as u8 && s.nipped() == 0 {
                        prop_assert!(same(s.g_values()[i], from[i]), "forward-closed {} has g {} not {}", i, s.g_values()[i], from[i]);
                    }
                    if st == CellState::ClosedBack as u8 && s.nipped() == 0 {
                        prop_assert!(same(s.g_back()[i], to[i]), "backward-closed {} has g {} not {}", i, s.g_back()[i], to[i]);
                    }
                    prop_assert!(not_below(s.g_values()[i], from[i]), "forward g {} below {}", s.g_values()[i], from[i]);
                    prop_assert!(not_below(s.g_back()[i], to[i]), "backward g {} below {}", s.g_back()[i], to[i]);
                }
            }
        }
        if best.is_finite() {
            prop_assert!(same(s.cost().unwrap(), best));
            let m = s.meeting().unwrap();
            let i = m.y * w + m.x;
            prop_assert!(same(s.g_values()[i], from[i]) && same(s.g_back()[i], to[i]), "meeting cell {} not exact", m);
        } else {
            prop_assert_eq!(s.status(), Status::NoPath);
        }
    }

    /// Replay: seek(k) after a full run equals k fresh steps, and back then step returns to
    /// the same state.
    #[test]
    fn bidirectional_astar_replays_exactly(case in case(), k in 0usize..200) {
        let config = config(&case, Heuristic::default_for(case.rule));
        let snapshot = |s: &BiAStar| {
            (
                (s.status(), s.steps(), s.expanded(), s.open_count(), s.mu().to_bits(), s.meeting()),
                (s.states().to_vec(), s.parents().to_vec(), s.parents_back().to_vec(), s.path_indices().to_vec()),
                (
                    s.g_values().iter().map(|g| g.to_bits()).collect::<Vec<_>>(),
                    s.g_back().iter().map(|g| g.to_bits()).collect::<Vec<_>>(),
                ),
                s.overlay(),
            )
        };
        let mut fresh = BiAStar::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        for _ in 0..k {
            fresh.step();
        }
        let mut replayed = BiAStar::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        replayed.run();
        Stepper::seek(&mut replayed, k);
        prop_assert_eq!(snapshot(&fresh), snapshot(&replayed));
        if fresh.steps() > 0 {
            let before = snapshot(&fresh);
            Stepper::back(&mut fresh);
            fresh.step();
            prop_assert_eq!(before, snapshot(&fresh));
        }
    }
}

/// Grids built so that the frontiers tend to touch first across expensive terrain: open
/// ground crossed by bands of terrain 5-9 with gaps, the ends on either side of the bands.
fn banded(rng: &mut Rng) -> Case {
    let w = 6 + rng.below(19);
    let h = 3 + rng.below(14);
    let mut cells = vec![1u8; w * h];
    let bands = 1 + rng.below(3);
    for _ in 0..bands {
        let x = 1 + rng.below(w - 2);
        let value = [5, 7, 9][rng.below(3)];
        for y in 0..h {
            cells[y * w + x] = match rng.below(10) {
                0 => 1,
                1 => WALL,
                _ => value,
            };
        }
    }
    for c in &mut cells {
        if rng.below(100) < 8 {
            *c = WALL;
        }
    }
    let rule = Diagonal::ALL[rng.below(4)];
    let costs = Costs::ALL[rng.below(2)];
    let y0 = rng.below(h);
    let y1 = rng.below(h);
    let (start, goal) = (Point::new(0, y0), Point::new(w - 1, y1));
    cells[y0 * w] = 1;
    cells[y1 * w + w - 1] = 1;
    Case { grid: Grid::from_cells(w, h, cells).unwrap(), start, goal, rule, costs }
}

/// 3,000 seeded grids where the first meeting is often not optimal: the cost is always the
/// optimum, and the sweep must contain many cases where stopping at the first meeting would
/// have returned a dearer path, and many where the first meeting cell lies on no cheapest path.
#[test]
fn the_first_meeting_is_often_not_optimal_but_the_answer_always_is() {
    let mut rng = Rng(0x5EED_B1D1);
    let (mut dearer_first, mut off_every_cheapest, mut found) = (0, 0, 0);
    for _ in 0..3000 {
        let case = banded(&mut rng);
        let w = case.grid.width();
        let from = costs_from(&case.grid, case.start, case.rule, case.costs);
        let to = costs_to(&case.grid, case.goal, case.rule, case.costs);
        let best = from[case.goal.y * w + case.goal.x];
        let config = config(&case, Heuristic::default_for(case.rule));
        let mut s = BiAStar::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        let mut first = None;
        while !s.status().is_finished() {
            s.step();
            if first.is_none() && s.mu().is_finite() {
                first = Some((s.meeting().unwrap(), s.mu()));
            }
        }
        if !best.is_finite() {
            assert_eq!(s.status(), Status::NoPath, "{case:?}");
            continue;
        }
        found += 1;
        let cost = s.cost().unwrap_or_else(|| panic!("no path found in {case:?}"));
        assert!(same(cost, best), "cost {cost} but the optimum is {best} in {case:?}");
        let (meet, mu) = first.expect("a found path has a meeting");
        if mu > best + 1e-9 * best {
            dearer_first += 1;
        }
        let m = meet.y * w + meet.x;
        if from[m] + to[m] > best + 1e-9 * best {
            off_every_cheapest += 1;
        }
    }
    eprintln!(
        "{found} problems with a path: the first meeting was dearer than the optimum in {dearer_first}, \
         and on no cheapest path in {off_every_cheapest}"
    );
    assert!(found >= 2000, "only {found} problems had a path");
    assert!(dearer_first >= 1000, "only {dearer_first} first meetings were dearer than the optimum");
    assert!(off_every_cheapest >= 400, "only {off_every_cheapest} first meetings were off every cheapest path");
}
