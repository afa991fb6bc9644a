//! LRTA* and RTA* on thousands of small random grids (up to 8x8, up to 30% walls, terrain 2-3
//! on half of them, every diagonal rule, both cost models, look-ahead 1 to 4), against an
//! independent Dijkstra run backward from the goal (`oracle::costs_to`), which
//! gives the true cost h* from every cell.
//!
//! - Solvable grids, admissible start (a heuristic that never overestimates under the rule):
//!   LRTA* reaches the goal; every move of its trail is legal and the moves sum to the cost
//!   it reports; at every step every learned estimate stays between its starting value and
//!   h*; and the cost walked is at most `B = sum over cells x reachable from the start of
//!   (h*(x) - h0(x)) + h0(start)`. Why that bound: each move from s to n sets
//!   `h(s) >= c(s, n) + h(n)`, so `P = sum (h* - h) + h(agent)` falls by at least c(s, n);
//!   and P >= 0 while h <= h*. So the cost walked is at most P at the start, which is B.
//!   In moves: at most B divided by the cheapest move (1, or 10 with integer costs).
//! - Solvable grids, any heuristic and weight (overestimates included): LRTA* and RTA* both
//!   reach the goal with legal trails (Korf 1990: both are complete when every move can be
//!   undone and costs are positive), well within the move limit.
//! - Unsolvable grids: both say NoPath at the first step, without moving, and say why.

mod cases;
mod oracle;

use cases::grid_problem;
use oracle::{costs_to, same, walk};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::lrta::Lrta;
use pathlab_core::search::{build, Algorithm, SearchConfig, Status, Stepper};
use proptest::prelude::*;
use proptest::sample::{select, Index};

#[derive(Clone, Debug)]
struct Case {
    grid: Grid,
    start: Point,
    goal: Point,
    rule: Diagonal,
    costs: Costs,
    lookahead: u32,
}

/// Grids up to `side` x `side` with up to `walls` percent of walls, terrain 1 to 3, any rule,
/// cost model and look-ahead of 1 to 4.
fn case_up_to(side: usize, walls: u32) -> impl Strategy<Value = Case> {
    let settings = (select(Diagonal::ALL.to_vec()), select(Costs::ALL.to_vec()), 1u32..=4);
    grid_problem(1..=side, 0..=walls, 1u8..=3, settings)
        .prop_map(|((grid, start, goal), (rule, costs, lookahead))| Case { grid, start, goal, rule, costs, lookahead })
}

/// Heuristics that never overestimate under the rule and cost model, by their definitions:
/// on a 4-connected grid every one of them is at most the Manhattan distance; with diagonals,
/// octile is exact on open ground, Chebyshev and zero are below it, and the straight-line
/// distance is below it only with real costs (10 x sqrt(2) > 14).
fn admissible(rule: Diagonal, costs: Costs) -> Vec<Heuristic> {
    if rule == Diagonal::Never {
        Heuristic::ALL.to_vec()
    } else if costs == Costs::Real {
        vec![Heuristic::Octile, Heuristic::Chebyshev, Heuristic::Zero, Heuristic::Euclidean]
    } else {
        vec![Heuristic::Octile, Heuristic::Chebyshev, Heuristic::Zero]
    }
}

fn config(case: &Case, algorithm: Algorithm, h: Heuristic) -> SearchConfig {
    SearchConfig::new(algorithm).heuristic(h).diagonal(case.rule).costs(case.costs).lookahead(case.lookahead)
}

/// Checks a finished walk: found, a legal trail from start to goal whose moves sum to the
/// reported cost and to the agent's count.
fn check_arrived(case: &Case, s: &dyn Stepper) -> Result<f64, TestCaseError> {
    let what = format!("{:?}", s.config());
    prop_assert_eq!(s.status(), Status::Found, "{}: gave up: {:?}", what, s.gave_up());
    let trail: Vec<Point> = s.path_indices().iter().map(|&i| case.grid.point_at(i as usize)).collect();
    let walked = walk(&case.grid, case.rule, case.costs, case.start, case.goal, &trail)
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    let cost = s.cost().unwrap();
    prop_assert!(same(walked, cost), "{}: reported {} but the trail's moves sum to {}", what, cost, walked);
    let agent = s.agent().unwrap();
    prop_assert_eq!(agent.at, case.goal);
    prop_assert_eq!(agent.moves, trail.len() - 1);
    prop_assert!(same(agent.travelled, cost));
    Ok(cost)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6000))]

    /// LRTA* from an admissible start: arrives, stays admissible and monotone at every step,
    /// and walks no more than the bound B (module docs).
    #[test]
    fn lrta_star_arrives_within_the_bound_and_never_learns_above_the_true_cost(
        case in case_up_to(8, 30),
        pick in any::<Index>(),
    ) {
        let truth = costs_to(&case.grid, case.goal, case.rule, case.costs);
        let si = case.grid.index(case.start);
        prop_assume!(truth[si].is_finite());
        let choices = admissible(case.rule, case.costs);
        let h = choices[pick.index(choices.len())];
        let mut s = Lrta::new(case.grid.clone(), case.start, case.goal, config(&case, Algorithm::Lrta, h)).unwrap();
        let h0 = s.learned().to_vec();
        // The cells the agent can ever stand on are those that can reach the goal (moves can
        // be undone, so they are the start's region).
        let bound: f64 = (0..case.grid.len())
            .filter(|&i| truth[i].is_finite())
            .map(|i| truth[i] - h0[i])
            .sum::<f64>()
            + h0[si];
        // The oracle's sqrt(2) is the real one, the grid's is kept to 29 binary places (1.1e-11
        // above it), so each term of the bound may fall below 0 by about 1e-11 of its cell's
        // true cost: the slack scales with the costs summed, not with the bound (which is 0
        // when the start is the goal).
        let summed: f64 = truth.iter().filter(|t| t.is_finite()).sum::<f64>() + h0[si];
        let eps = 1e-9 * summed.max(1.0);
        while !s.status().is_finished() {
            s.step();
            for (i, (&learned, &start)) in s.learned().iter().zip(&h0).enumerate() {
                prop_assert!(learned >= start, "{} fell below its start {} -> {}", case.grid.point_at(i), start, learned);
                if truth[i].is_finite() {
                    prop_assert!(
                        learned <= truth[i] + eps,
                        "{}: learned {} above the true cost {} (h = {})", case.grid.point_at(i), learned, truth[i], h
                    );
                }
            }
            if let Some(u) = s.last_update() {
                prop_assert_eq!(u.new, u.old.max(u.best), "LRTA* keeps the larger of h and the best value");
            }
        }
        let cost = check_arrived(&case, &s)?;
        prop_assert!(cost <= bound + eps, "walked {} but the bound is {}", cost, bound);
        prop_assert!(s.agent().unwrap().moves as f64 * case.costs.straight() <= bound + eps);
        prop_assert!(s.gave_up().is_none());
    }

    /// Any heuristic and weight, overestimating ones included: LRTA* and RTA* both arrive.
    #[test]
    fn lrta_star_and_rta_star_arrive_on_every_solvable_grid(
        case in case_up_to(8, 30),
        h in select(Heuristic::ALL.to_vec()),
        weight in select(vec![1.0, 1.0, 2.0, 5.0]),
    ) {
        let truth = costs_to(&case.grid, case.goal, case.rule, case.costs);
        prop_assume!(truth[case.grid.index(case.start)].is_finite());
        for algorithm in [Algorithm::Lrta, Algorithm::Rta] {
            let mut s = build(case.grid.clone(), case.start, case.goal, config(&case, algorithm, h).weight(weight)).unwrap();
            s.run();
            check_arrived(&case, s.as_ref())?;
            prop_assert!(s.gave_up().is_none());
        }
    }

    /// Up to 50% walls, so that many goals are cut off: no path at the first step, no move.
    #[test]
    fn an_unreachable_goal_is_reported_at_the_first_step(case in case_up_to(8, 50)) {
        let truth = costs_to(&case.grid, case.goal, case.rule, case.costs);
        let reachable = truth[case.grid.index(case.start)].is_finite();
        for algorithm in [Algorithm::Lrta, Algorithm::Rta] {
            let mut s = build(case.grid.clone(), case.start, case.goal, config(&case, algorithm, Heuristic::Octile)).unwrap();
            prop_assert_eq!(s.status(), Status::Ready);
            s.step();
            if reachable {
                prop_assert!(s.status() != Status::NoPath, "{}: no path claimed but the goal is reachable", algorithm);
                continue;
            }
            prop_assert_eq!(s.status(), Status::NoPath);
            prop_assert_eq!(s.steps(), 1);
            prop_assert_eq!(s.agent().unwrap().moves, 0);
            prop_assert_eq!(s.path_indices().len(), 1);
            prop_assert!(s.cost().is_none() && s.gave_up().is_none());
            let notes = s.overlay().notes;
            let note = notes.iter().find(|(k, _)| *k == "no path").map(|(_, v)| v.clone()).unwrap_or_default();
            prop_assert!(note.contains("cannot be reached from the start"), "{:?}", notes);
        }
    }
}
