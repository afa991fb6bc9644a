//! The grid's movement rules and the heuristics' admissibility claims, checked against
//! independent code and hand values (these are what every search's correctness rests on).

mod oracle;

use oracle::{check_move, costs_from, moves};
use pathlab_core::grid::{Costs, Diagonal, Grid, NeighbourOrder, Point, GROUND, WALL};
use pathlab_core::heuristic::Heuristic;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// `for_each_neighbour` visits exactly the legal moves, in the documented order
    /// N, E, S, W, NE, SE, SW, NW, with the right diagonal flag; `is_legal_move` agrees with
    /// the independent rule for every pair of cells within two steps.
    #[test]
    fn neighbours_and_legal_moves_match_the_independent_rules(
        (w, h) in (1usize..=9, 1usize..=9),
        rolls in proptest::collection::vec(0u8..4, 81),
    ) {
        let cells: Vec<u8> = rolls[..w * h].iter().map(|&r| if r == 0 { WALL } else { r }).collect();
        let grid = Grid::from_cells(w, h, cells).unwrap();
        for &rule in Diagonal::ALL {
            for i in 0..grid.len() {
                let p = grid.point_at(i);
                if !grid.is_passable(p) { continue; }
                let mut got = Vec::new();
                grid.for_each_neighbour(i, rule, |j, diagonal| got.push((grid.point_at(j), diagonal)));
                prop_assert_eq!(&got, &moves(&grid, p, rule), "{} at {}", rule, p);
                for y in p.y.saturating_sub(2)..(p.y + 3).min(h) {
                    for x in p.x.saturating_sub(2)..(p.x + 3).min(w) {
                        let q = Point::new(x, y);
                        let ours = check_move(&grid, rule, Costs::Real, p, q).is_ok();
                        prop_assert_eq!(grid.is_legal_move(p, q, rule), ours, "{} -> {} under {}", p, q, rule);
                    }
                }
            }
        }
    }

    /// A grid painted cell by cell (walls opened and closed, terrain laid and lifted) lists
    /// the same moves as the independent rules after every stroke, under every diagonal rule
    /// and in every order of the straight moves (the diagonal ones always last, NE, SE, SW,
    /// NW), and knows whether it has terrain: the grid keeps what it needs for that between
    /// strokes instead of looking again, so a stroke it forgets shows here.
    #[test]
    fn painted_grids_list_the_moves_of_the_independent_rules_in_every_order(
        (w, h) in (1usize..=7, 1usize..=7),
        strokes in proptest::collection::vec((0usize..49, 0u8..4), 1..40),
        order in prop::sample::select(vec!["nesw", "wsen", "swne", "enws"]),
    ) {
        let order: NeighbourOrder = order.parse().unwrap();
        let mut grid = Grid::new(w, h).unwrap();
        for (at, value) in strokes {
            let p = grid.point_at(at % grid.len());
            grid.set(p, value).unwrap();
            prop_assert_eq!(grid.has_terrain(), grid.cells().iter().any(|&c| c > GROUND));
            for &rule in Diagonal::ALL {
                for i in 0..grid.len() {
                    let p = grid.point_at(i);
                    if !grid.is_passable(p) { continue; }
                    let mut got = Vec::new();
                    grid.for_each_neighbour_in(p, rule, order, |j, q, diagonal| {
                        assert_eq!(grid.point_at(j), q);
                        got.push((q, diagonal));
                    });
                    // The independent list, its straight moves put in `order`.
                    let all = moves(&grid, p, rule);
                    let (straight, diagonal): (Vec<_>, Vec<_>) = all.into_iter().partition(|&(_, d)| !d);
                    let place = |q: Point| match (q.x as i64 - p.x as i64, q.y as i64 - p.y as i64) {
                        (0, -1) => 0,
                        (1, 0) => 1,
                        (0, 1) => 2,
                        _ => 3,
                    };
                    let mut want: Vec<_> = order.moves()[..4]
                        .iter()
                        .filter_map(|&k| straight.iter().copied().find(|&(q, _)| place(q) == k))
                        .collect();
                    want.extend(diagonal);
                    prop_assert_eq!(&got, &want, "{} at {} in order {}", rule, p, order);
                }
            }
        }
    }
}

#[test]
fn diagonal_rules_by_hand() {
    // .#
    // ..   the diagonal (0,0)->(1,1) has one blocked side; (1,0) is the wall.
    let one = Grid::from_cells(2, 2, vec![1, 0, 1, 1]).unwrap();
    // .#
    // #.   both sides blocked.
    let two = Grid::from_cells(2, 2, vec![1, 0, 0, 1]).unwrap();
    let open = Grid::new(2, 2).unwrap();
    let (a, b) = (Point::new(0, 0), Point::new(1, 1));
    for (rule, open_ok, one_ok, two_ok) in [
        (Diagonal::Never, false, false, false),
        (Diagonal::NoCornerCutting, true, false, false),
        (Diagonal::AtMostOneBlocked, true, true, false),
        (Diagonal::Always, true, true, true),
    ] {
        assert_eq!(open.is_legal_move(a, b, rule), open_ok, "{rule} open");
        assert_eq!(one.is_legal_move(a, b, rule), one_ok, "{rule} one side");
        assert_eq!(two.is_legal_move(a, b, rule), two_ok, "{rule} two sides");
        // The same from the other end and along the other diagonal of the mirrored grid.
        assert_eq!(two.is_legal_move(b, a, rule), two_ok, "{rule} reversed");
    }
    // Never across more than one cell, never onto a wall or outside.
    let row = Grid::new(3, 1).unwrap();
    assert!(!row.is_legal_move(Point::new(0, 0), Point::new(2, 0), Diagonal::Always));
    assert!(!row.is_legal_move(Point::new(2, 0), Point::new(3, 0), Diagonal::Always));
    assert!(!one.is_legal_move(a, Point::new(1, 0), Diagonal::Always));
}

#[test]
fn move_costs_by_hand() {
    // The real cost model's sqrt(2): 759250125 / 2^29, the multiple of 2^-29 nearest it.
    let r2 = 759_250_125.0 / 536_870_912.0;
    assert!((r2 - std::f64::consts::SQRT_2).abs() < 1.2e-11);
    assert_eq!(Costs::Real.step(false, 1), 1.0);
    assert_eq!(Costs::Real.step(true, 1), r2);
    assert_eq!(Costs::Integer.step(false, 1), 10.0);
    assert_eq!(Costs::Integer.step(true, 1), 14.0);
    assert_eq!(Costs::Integer.step(false, 3), 30.0);
    assert_eq!(Costs::Integer.step(true, 5), 70.0);
    assert_eq!(Costs::Real.step(true, 5), 5.0 * r2);
}

#[test]
fn heuristic_estimates_by_hand() {
    // The real cost model's sqrt(2): 759250125 / 2^29, the multiple of 2^-29 nearest it.
    let r2 = 759_250_125.0 / 536_870_912.0;
    assert!((r2 - std::f64::consts::SQRT_2).abs() < 1.2e-11);
    // dx 3, dy 2.
    assert_eq!(Heuristic::Manhattan.estimate(3, 2, Costs::Real), 5.0);
    assert_eq!(Heuristic::Manhattan.estimate(3, 2, Costs::Integer), 50.0);
    assert_eq!(Heuristic::Octile.estimate(3, 2, Costs::Real), 2.0 * r2 + 1.0);
    assert_eq!(Heuristic::Octile.estimate(2, 3, Costs::Integer), 38.0);
    assert_eq!(Heuristic::Chebyshev.estimate(3, 2, Costs::Integer), 30.0);
    assert_eq!(Heuristic::Zero.estimate(3, 2, Costs::Integer), 0.0);
    // dx 3, dy 4: a 3-4-5 triangle.
    assert_eq!(Heuristic::Euclidean.estimate(3, 4, Costs::Real), 5.0);
    assert_eq!(Heuristic::Euclidean.estimate(4, 3, Costs::Integer), 50.0);
    for &h in Heuristic::ALL {
        for &c in Costs::ALL {
            assert_eq!(h.estimate(0, 0, c), 0.0, "{h} at the goal");
        }
    }
}

/// `is_admissible` is exactly right: where it says yes, the estimate never exceeds the true
/// cost to any cell of an open 15x15 grid (and is consistent: it drops by no more than a move
/// costs); where it says no, some cell of that grid proves it overestimates.
#[test]
fn admissibility_claims_are_exactly_right() {
    let grid = Grid::new(15, 15).unwrap();
    let goal = Point::new(7, 7);
    for &rule in Diagonal::ALL {
        for &costs in Costs::ALL {
            // On an open grid, costs are symmetric, so distances from the goal are distances to it.
            let dist = costs_from(&grid, goal, rule, costs);
            for &h in Heuristic::ALL {
                let est = |p: Point| h.estimate(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y), costs);
                let mut over = None;
                let mut inconsistent = None;
                for (i, &d) in dist.iter().enumerate() {
                    let p = grid.point_at(i);
                    if est(p) > d + 1e-9 {
                        over = Some(p);
                    }
                    for (q, diagonal) in moves(&grid, p, rule) {
                        let c = oracle::move_cost(costs, diagonal, 1);
                        if est(p) > c + est(q) + 1e-9 {
                            inconsistent = Some((p, q));
                        }
                    }
                }
                if h.is_admissible(rule, costs) {
                    assert_eq!(over, None, "{h} {rule} {costs} claims admissible but overestimates");
                    assert_eq!(inconsistent, None, "{h} {rule} {costs} is admissible but not consistent");
                } else {
                    assert!(over.is_some(), "{h} {rule} {costs} claims not admissible but never overestimates");
                }
            }
        }
    }
}
