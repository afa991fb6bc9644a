//! The variants the course prints, as switches: IDA*'s threshold rule (`next`, or the book's
//! "+1"), A* re-opening closed nodes (the book's pseudocode), and the order in which straight
//! neighbours are tried. Each against hand-worked maps and, where it can be, random grids
//! checked against the test oracle's Dijkstra.

mod cases;
mod oracle;

use cases::{case_with, TERRAIN};
use oracle::{optimum, walk};
use pathlab_core::formats::course;
use pathlab_core::grid::{Costs, Diagonal, Grid, NeighbourOrder, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{build, Algorithm, SearchConfig, Status, Stepper, Threshold};
use proptest::prelude::*;
use proptest::sample::select;

fn run(grid: &Grid, start: Point, goal: Point, config: SearchConfig) -> Box<dyn Stepper> {
    let mut s = build(grid.clone(), start, goal, config).unwrap();
    s.advance(usize::MAX);
    s
}

fn map(rows: &[&str]) -> (Grid, Point, Point) {
    let text = format!("{}\n{}\n{}\n", rows.len(), rows[0].len(), rows.join("\n"));
    let m = course::parse(&text).unwrap();
    (m.grid, m.start.unwrap(), m.goal.unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// "+1" never finds a path cheaper than the optimum (no search can), and its path is legal.
    /// Real costs (1 and √2), the book's units: with 10/14 costs "+1" takes ten times the
    /// iterations and the same answers.
    #[test]
    fn plus_one_ida_costs_at_least_the_optimum(
        case in case_with(2..=6, 0..=35, cases::terrain_from(&TERRAIN)),
        h in select(vec![Heuristic::Octile, Heuristic::Euclidean, Heuristic::Chebyshev, Heuristic::Zero]),
    ) {
        let costs = Costs::Real;
        let config = SearchConfig::new(Algorithm::Ida).heuristic(h).diagonal(case.rule).costs(costs).threshold(Threshold::PlusOne);
        let s = run(&case.grid, case.start, case.goal, config);
        let best = optimum(&case.grid, case.start, case.goal, case.rule, costs);
        if s.gave_up().is_some() {
            return Ok(());
        }
        match (s.cost(), best) {
            (Some(c), Some(b)) => {
                prop_assert!(c >= b - 1e-9, "+1 found {} below the optimum {}", c, b);
                let path = s.path().unwrap();
                let walked = walk(&case.grid, case.rule, costs, case.start, case.goal, &path.points).unwrap();
                prop_assert!((walked - c).abs() < 1e-9);
            }
            (None, None) => {}
            (got, want) => prop_assert!(false, "+1: {:?}, the optimum {:?}", got, want),
        }
    }
}

//  A .        A = start (0,0), B = goal (1,1); 4-connected, Manhattan, costs 1.
//  . B
// Both first moves reach a cell with g 1, h 1, f 2: a tie that A*'s rule (higher g, then first
// opened) leaves to the order the neighbours were opened in.
// - `nesw`: from A, north is off the map, east (1,0) is opened first, then south (0,1). (1,0)
//   is expanded and opens B with g 2, f 2; among f 2, B's higher g wins: A, (1,0), B.
// - `wsen`: west is off the map, south (0,1) is opened first: A, (0,1), B.
// Breadth-first search takes the first opened too: the same two paths (B's parent is the cell
// expanded first).
#[test]
fn the_neighbour_order_decides_the_tie_as_worked_by_hand() {
    let (grid, start, goal) = map(&["A0", "0B"]);
    for algorithm in [Algorithm::AStar, Algorithm::Bfs, Algorithm::Template] {
        for (order, via) in [("nesw", Point::new(1, 0)), ("wsen", Point::new(0, 1))] {
            let order: NeighbourOrder = order.parse().unwrap();
            let config =
                SearchConfig::new(algorithm).heuristic(Heuristic::Manhattan).diagonal(Diagonal::Never).order(order);
            let s = run(&grid, start, goal, config);
            assert_eq!(s.path().unwrap().points, [start, via, goal], "{algorithm} with {order}");
            // A* stops when B comes off the list; BFS expands the other first cell before B.
            let expanded = if algorithm == Algorithm::Bfs { 3 } else { 2 };
            assert_eq!(s.expanded(), expanded, "{algorithm} with {order}");
        }
    }
}

#[test]
fn a_bad_order_names_the_letters() {
    for bad in ["nes", "nesww", "nnes", "abcd", ""] {
        let err = bad.parse::<NeighbourOrder>().unwrap_err();
        assert!(err.contains("n, e, s and w"), "{bad}: {err}");
    }
    assert_eq!("WSEN".parse::<NeighbourOrder>().unwrap().to_string(), "wsen");
}

//  . S . . .      S = (1,0), G = (3,5); rows 0 to 5; diagonal moves always allowed, 10/14.
//  . . # . .      On an open grid the cheapest way would be the octile distance, dx 2, dy 5:
//  . # . . .      2 x 14 + 3 x 10 = 58; the walls push it to 66 (the oracle's Dijkstra).
//  . . # . .
//  . . . # .
//  . . . G .
// Manhattan with diagonal moves counts a diagonal as 20 where it costs 14, so h drops by 20
// across a move of 14 (inconsistent): a cell can be closed by a dear way and reached by a
// cheaper one later. Without re-opening that cheaper way is thrown away; with it (the book's
// pseudocode: "if n' is in Closed, remove it from Closed") the cell goes back on the open
// list and the cheapest path is found.
const REOPEN_MAP: [&str; 6] = ["0A000", "00100", "01000", "00100", "00010", "000B0"];

#[test]
fn reopening_finds_the_optimum_where_a_star_without_it_does_not() {
    let (grid, start, goal) = map(&REOPEN_MAP);
    let best = optimum(&grid, start, goal, Diagonal::Always, Costs::Integer).unwrap();
    assert_eq!(best, 66.0);
    let config = SearchConfig::new(Algorithm::AStar)
        .heuristic(Heuristic::Manhattan)
        .diagonal(Diagonal::Always)
        .costs(Costs::Integer);
    let plain = run(&grid, start, goal, config);
    let reopened = run(&grid, start, goal, config.reopen(true));
    assert!(plain.cost().unwrap() > best, "without re-opening: {:?}", plain.cost());
    assert_eq!(reopened.cost(), Some(best));
    let path = reopened.path().unwrap().points;
    assert_eq!(walk(&grid, Diagonal::Always, Costs::Integer, start, goal, &path), Ok(best));
    // The skeleton with re-opening on does the same.
    let skeleton = SearchConfig { algorithm: Algorithm::Template, ..config.reopen(true) };
    assert_eq!(run(&grid, start, goal, skeleton).cost(), Some(best));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The lecture's theorem: with a consistent heuristic A* never re-opens a closed node, so
    /// the switch changes nothing, step for step; and with re-opening, an admissible heuristic
    /// (weight 1) gives the optimum.
    #[test]
    fn reopening_changes_nothing_under_a_consistent_heuristic(
        case in case_with(2..=10, 0..=40, cases::terrain_from(&TERRAIN)),
        h in select(vec![Heuristic::Octile, Heuristic::Chebyshev, Heuristic::Zero]),
    ) {
        let config = SearchConfig::new(Algorithm::AStar).heuristic(h).diagonal(case.rule).costs(case.costs);
        let mut plain = build(case.grid.clone(), case.start, case.goal, config).unwrap();
        let mut reopened = build(case.grid.clone(), case.start, case.goal, config.reopen(true)).unwrap();
        loop {
            let (a, b) = (plain.step(), reopened.step());
            prop_assert_eq!(a, b);
            if !matches!(a, pathlab_core::search::StepEvent::Expanded(_)) {
                break;
            }
        }
        // The reference adds the same step costs in another order, so real (√2) costs may
        // differ in the last bit; integer costs are exact.
        let best = optimum(&case.grid, case.start, case.goal, case.rule, case.costs);
        match (reopened.cost(), best) {
            (Some(got), Some(want)) => prop_assert!((got - want).abs() <= 1e-9 * want.max(1.0), "{} against {}", got, want),
            (got, want) => prop_assert_eq!(got, want),
        }
        prop_assert_eq!(reopened.status(), plain.status());
        let _ = Status::Found;
    }
}

//  . S        S = (1,0), G = (1,3); no corner cutting; octile; costs 1 and √2.
//  . #
//  . .
//  . G
// The cheapest path: W to (0,0), S, S to (0,2), then SE to G (its sides (1,2) and (0,3) are
// open): 3 + √2 ≈ 4.414. h(S) = 3, so the first threshold is 3.
// - `next`: no path fits under 3; the lowest f cut off is 4.414 (every cell on the left column
//   has f = g + h = 3 + √2), the next iteration's threshold, which finds 4.414.
// - `plus-one` (the book): thresholds 3, 4, 5. Under 4 nothing reaches G (every path costs at
//   least 4.414). Under 5, the depth-first walk from S tries W (0,0) (f 4.414), then S (0,1)
//   (f 4.414), then S (0,2) (f 4.414); from (0,2) it tries E (1,2) before the diagonal SE
//   (straight neighbours first): g 4, h 1, f 5, within 5; from (1,2), S reaches G with g 5.
//   The path costs 5, not 4.414.
#[test]
fn plus_one_returns_a_longer_path_on_the_stated_map() {
    let (grid, start, goal) = map(&["0A", "01", "00", "0B"]);
    let config = SearchConfig::new(Algorithm::Ida).heuristic(Heuristic::Octile).diagonal(Diagonal::NoCornerCutting);
    let next = run(&grid, start, goal, config);
    let plus_one = run(&grid, start, goal, config.threshold(Threshold::PlusOne));
    let best = 3.0 + std::f64::consts::SQRT_2;
    assert!((next.cost().unwrap() - best).abs() < 1e-9, "{:?}", next.cost());
    assert_eq!(plus_one.cost(), Some(5.0));
    let p = |x, y| Point::new(x, y);
    assert_eq!(plus_one.path().unwrap().points, [p(1, 0), p(0, 0), p(0, 1), p(0, 2), p(1, 2), p(1, 3)]);
    assert!((optimum(&grid, start, goal, Diagonal::NoCornerCutting, Costs::Real).unwrap() - best).abs() < 1e-9);
}
