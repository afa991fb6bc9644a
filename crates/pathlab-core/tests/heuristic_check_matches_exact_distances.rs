//! The heuristic check (`hcheck=1`) flags exactly the cells where h is above the true cost to
//! the goal (inadmissible) or drops across a move by more than the move costs (inconsistent),
//! against the true costs found here by a plain Dijkstra from the goal over the moves reversed
//! (the test oracle's rules), on random grids under every rule, cost model and heuristic; and
//! on the course's 5x5 example with the tutorial's settings (Manhattan, diagonal moves, 10/14
//! costs), where A* returns 58 while the cheapest path costs 52.

mod cases;
mod oracle;

use cases::{case_with, Case, TERRAIN};
use oracle::{move_cost, moves, shortest};
use pathlab_core::formats::course;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::heuristic_check::{check, INADMISSIBLE, INCONSISTENT};
use pathlab_core::search::{build, Algorithm, SearchConfig};
use pathlab_core::space::SquareGrid;
use proptest::prelude::*;
use proptest::sample::select;

/// The true cost from every cell to `goal`: Dijkstra from the goal, each arc `u -> v` of the
/// search standing for the move `v -> u`, which costs what entering `u` costs.
fn exact_to_goal(grid: &Grid, goal: Point, rule: Diagonal, costs: Costs) -> Vec<f64> {
    let g = grid.index(goal);
    shortest(grid.len(), g, |u, emit| {
        let at = grid.point_at(u);
        let terrain = grid.cells()[u];
        // Moves are the same both ways round (the rules look at the same side cells).
        for (v, diagonal) in moves(grid, at, rule) {
            emit(grid.index(v), move_cost(costs, diagonal, terrain));
        }
    })
    .cost
}

/// The flags worked out here: h against the exact costs, and h across every legal move.
fn expected_flags(case: &Case, h: Heuristic) -> Vec<u8> {
    let grid = &case.grid;
    let exact = exact_to_goal(grid, case.goal, case.rule, case.costs);
    let est = |p: Point| h.estimate(p.x.abs_diff(case.goal.x), p.y.abs_diff(case.goal.y), case.costs);
    let tol = |x: f64| 1e-9 * x.abs().max(1.0);
    (0..grid.len())
        .map(|i| {
            let p = grid.point_at(i);
            if grid.cells()[i] == 0 {
                return 0;
            }
            let mut flags = 0;
            if exact[i].is_finite() && est(p) > exact[i] + tol(exact[i]) {
                flags |= INADMISSIBLE;
            }
            let drops = moves(grid, p, case.rule).into_iter().any(|(q, diagonal)| {
                let c = move_cost(case.costs, diagonal, grid.cells()[grid.index(q)]);
                est(p) > c + est(q) + tol(c + est(q))
            });
            if drops {
                flags |= INCONSISTENT;
            }
            flags
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn flags_and_counts_equal_an_independent_computation(
        case in case_with(1..=12, 0..=40, cases::terrain_from(&TERRAIN)),
        h in select(Heuristic::ALL.to_vec()),
    ) {
        let space = SquareGrid::new(case.grid.clone(), case.rule, case.costs, h);
        let found = check(&space, case.goal);
        let want = expected_flags(&case, h);
        prop_assert_eq!(&found.flags, &want);
        prop_assert_eq!(found.inadmissible, want.iter().filter(|&&f| f & INADMISSIBLE != 0).count());
        prop_assert_eq!(found.inconsistent, want.iter().filter(|&&f| f & INCONSISTENT != 0).count());
        // The worst cell is the largest overestimate.
        let exact = exact_to_goal(&case.grid, case.goal, case.rule, case.costs);
        let over = |i: usize| {
            let p = case.grid.point_at(i);
            h.estimate(p.x.abs_diff(case.goal.x), p.y.abs_diff(case.goal.y), case.costs) - exact[i]
        };
        let most = (0..case.grid.len()).filter(|&i| want[i] & INADMISSIBLE != 0).map(over).fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
        // The core's real costs are √2 to 29 binary places (`grid::SQRT_2_FIXED`) and the
        // oracle's the full-precision √2: the overestimates agree to 1e-9.
        match (found.worst.map(|w| w.h - w.exact), most) {
            (Some(got), Some(want)) => prop_assert!((got - want).abs() <= 1e-9 * want.abs().max(1.0), "{} against {}", got, want),
            (got, want) => prop_assert_eq!(got, want),
        }
    }
}

/// The course's data file: 5 rows, 5 columns, 0 open, 1 wall, A start, B goal.
const COURSE_5X5: &str = "5\n5\n00000\n001A0\n00110\nB0000\n00000\n";

//       x=0 1 2 3 4
//  y=0    . . . . .
//  y=1    . . # A .        A = start (3,1), B = goal (0,3)
//  y=2    . . # # .
//  y=3    B . . . .
//  y=4    . . . . .
//
// Manhattan counts a diagonal move as 10 + 10 = 20 where it costs 14. Cheapest path (diagonal
// moves always allowed): (3,1) NW (2,0) SW (1,1) SW (0,2) S (0,3) = 14 + 14 + 14 + 10 = 52.
// A* with Manhattan: the top route's cells look far (h(2,0) = 50, f = 64), the bottom route
// (3,1) SE (4,2) SW (3,3) W (2,3) W (1,3) W (0,3) = 14 + 14 + 10 + 10 + 10 = 58 has f <= 58
// all the way along, so the goal comes off the open list at 58 before (2,0) is expanded.
#[test]
fn the_5x5_with_manhattan_and_diagonals_returns_58_where_the_optimum_is_52() {
    let map = course::parse(COURSE_5X5).unwrap();
    let (start, goal) = (map.start.unwrap(), map.goal.unwrap());
    let config = SearchConfig::new(Algorithm::AStar)
        .heuristic(Heuristic::Manhattan)
        .diagonal(Diagonal::Always)
        .costs(Costs::Integer);
    let mut astar = build(map.grid.clone(), start, goal, config).unwrap();
    astar.run();
    assert_eq!(astar.cost(), Some(58.0));
    let exact = exact_to_goal(&map.grid, goal, Diagonal::Always, Costs::Integer);
    assert_eq!(exact[map.grid.index(start)], 52.0);

    let space = SquareGrid::new(map.grid.clone(), Diagonal::Always, Costs::Integer, Heuristic::Manhattan);
    let found = check(&space, goal);
    // By hand: (1,1) is one diagonal and one straight move from B, 14 + 10 = 24, but h = 30;
    // (1,4) is one diagonal away, 14, but h = 20. The start itself is admissible: h = 50 < 52.
    // (0,0) is three straight moves away, h = 30 = exact: admissible.
    let flag = |x, y| found.flags[map.grid.index(Point::new(x, y))];
    assert_eq!(flag(1, 1) & INADMISSIBLE, INADMISSIBLE);
    assert_eq!(flag(1, 4) & INADMISSIBLE, INADMISSIBLE);
    assert_eq!(flag(3, 1) & INADMISSIBLE, 0);
    assert_eq!(flag(0, 0) & INADMISSIBLE, 0);
    // (1,4) -> (0,3) is a diagonal of 14 across which h drops by 20: inconsistent.
    assert_eq!(flag(1, 4) & INCONSISTENT, INCONSISTENT);
    // The goal's h is 0 and walls are never flagged.
    assert_eq!(flag(0, 3), 0);
    assert_eq!(flag(2, 1), 0);
    let case = Case { grid: map.grid, start, goal, rule: Diagonal::Always, costs: Costs::Integer };
    assert_eq!(found.flags, expected_flags(&case, Heuristic::Manhattan));
}

/// Octile with the 10/14 costs is exact on an open grid and never too high anywhere: nothing
/// is flagged on the 5x5.
#[test]
fn octile_flags_nothing_on_the_5x5() {
    let map = course::parse(COURSE_5X5).unwrap();
    let space = SquareGrid::new(map.grid, Diagonal::Always, Costs::Integer, Heuristic::Octile);
    let found = check(&space, map.goal.unwrap());
    assert_eq!((found.inadmissible, found.inconsistent, found.worst, found.worst_drop), (0, 0, None, None));
}
