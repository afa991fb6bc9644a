//! The human-like explorer (`search::explorer`), checked against the independent oracle:
//!
//! - on random grids (every diagonal rule, both cost models, terrain, sensor radii 0 to 4) and
//!   on random perfect mazes, it reaches the goal exactly when the oracle's Dijkstra finds one
//!   reachable, and otherwise stops with "no path" having stood on every cell the oracle can
//!   reach from the start;
//! - every move of its trail is a legal move between free cells under the diagonal rule (the
//!   oracle's own reading of the rules), its cost is the sum of the oracle's move costs, and it
//!   never stands on a wall;
//! - a move uses only cells the explorer had seen before making it (a record kept here, step by
//!   step, of the cells within the sensor's box of every cell it has stood on);
//! - walked on foot, depth-first search enters each reachable cell once going forward and
//!   leaves it once going back: at most `2 x (reachable - 1)` moves, exactly that many when the
//!   goal cannot be reached;
//! - a small map worked by hand from the rules, move by move.

mod cases;
mod oracle;

use cases::{case_with, see, terrain_from, TERRAIN};
use oracle::{check_move, hops_from, open, optimum, same};
use pathlab_core::generate::maze;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::search::explorer::Explorer;
use pathlab_core::search::{build, Algorithm, MarkKind, SearchConfig, Status, Stepper};
use proptest::prelude::*;

fn config(rule: Diagonal, costs: Costs, sensor: u32) -> SearchConfig {
    SearchConfig::new(Algorithm::Explorer).diagonal(rule).costs(costs).sensor(sensor)
}

/// Draws a map: `#` wall, anything else ground.
fn draw(rows: &[&str]) -> Grid {
    let cells = rows.iter().flat_map(|r| r.bytes().map(|b| u8::from(b != b'#'))).collect();
    Grid::from_cells(rows[0].len(), rows.len(), cells).unwrap()
}

/// Runs the explorer step by step and checks each move against the oracle and against what it
/// had seen; returns the run's status, its trail and the cost the oracle sums along it.
fn explore(
    grid: &Grid,
    start: Point,
    goal: Point,
    c: SearchConfig,
) -> Result<(Status, Vec<Point>, f64), TestCaseError> {
    let mut s = Explorer::new(grid.clone(), start, goal, c).unwrap();
    let r = c.sensor as usize;
    let mut seen = vec![false; grid.len()];
    see(grid, &mut seen, start, r);
    let reachable = hops_from(grid, start, c.diagonal).iter().filter(|h| h.is_some()).count();
    let cap = 2 * reachable + 2;
    let mut walked = 0.0;
    for _ in 0..cap {
        if s.status().is_finished() {
            break;
        }
        let from = *s.path_indices().last().unwrap();
        s.step();
        let trail = s.path_indices();
        if trail.len() > 1 && *trail.last().unwrap() != from {
            let (a, b) = (grid.point_at(from as usize), grid.point_at(*trail.last().unwrap() as usize));
            walked += check_move(grid, c.diagonal, c.costs, a, b).map_err(TestCaseError::fail)?;
            // The cell entered and, for a diagonal, both cells beside it had been seen.
            for q in [b, Point::new(b.x, a.y), Point::new(a.x, b.y)] {
                prop_assert!(seen[grid.index(q)], "{a} -> {b} used {q}, which it had not seen");
            }
            see(grid, &mut seen, b, r);
        }
    }
    prop_assert!(s.status().is_finished(), "not finished within {cap} steps");
    // The map in its head is what was in range, and says truly what each cell is.
    for (i, &k) in s.known().iter().enumerate() {
        prop_assert_eq!(k != 0, seen[i], "cell {} seen", grid.point_at(i));
        if k != 0 {
            let p = grid.point_at(i);
            prop_assert_eq!(k == 2, !open(grid, p.x as i64, p.y as i64), "cell {} known as {}", p, k);
        }
    }
    let trail: Vec<Point> = s.path_indices().iter().map(|&i| grid.point_at(i as usize)).collect();
    for p in &trail {
        prop_assert!(open(grid, p.x as i64, p.y as i64), "stood on the wall {p}");
    }
    let moves = trail.len() - 1;
    prop_assert!(moves <= 2 * (reachable - 1), "{moves} moves, {reachable} cells reachable");
    if let Some(cost) = s.cost() {
        prop_assert!(same(cost, walked), "cost {cost}, the oracle sums {walked}");
    }
    if s.status() == Status::NoPath {
        prop_assert_eq!(moves, 2 * (reachable - 1));
        prop_assert_eq!(trail.last(), Some(&start));
    }
    Ok((s.status(), trail, walked))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Random grids: found exactly when the oracle reaches the goal, by legal moves on cells
    /// it had seen.
    #[test]
    fn explorer_finds_the_goal_exactly_when_it_is_reachable(
        case in case_with(1..=12, 0..=60, terrain_from(&TERRAIN)),
        sensor in 0u32..=4,
    ) {
        let c = config(case.rule, case.costs, sensor);
        let (status, trail, _) = explore(&case.grid, case.start, case.goal, c)?;
        let reachable = optimum(&case.grid, case.start, case.goal, case.rule, case.costs).is_some();
        prop_assert_eq!(status == Status::Found, reachable, "status {:?}", status);
        if reachable {
            prop_assert_eq!(trail.last(), Some(&case.goal));
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random perfect mazes: every maze's goal is reachable, and the explorer gets there.
    #[test]
    fn explorer_walks_out_of_every_random_maze(
        w in 5usize..=25,
        h in 5usize..=25,
        seed in any::<u64>(),
        sensor in 1u32..=3,
        rule in proptest::sample::select(Diagonal::ALL.to_vec()),
    ) {
        let m = maze(w, h, seed).unwrap();
        prop_assert!(optimum(&m.grid, m.start, m.goal, rule, Costs::Real).is_some());
        let (status, trail, _) = explore(&m.grid, m.start, m.goal, config(rule, Costs::Real, sensor))?;
        prop_assert_eq!(status, Status::Found);
        prop_assert_eq!(trail.last(), Some(&m.goal));
    }
}

/// Worked by hand from the rules (4-connected, sensor 1):
///
/// ```text
///   x: 0 1 2 3 4
/// y0:  . . . . .
/// y1:  S # # # .
/// y2:  . . . # G
/// ```
///
/// From S (0,1) the goal is 4 east and 1 south; east is a wall, so of the untried ways N
/// (score -1) and S (+1) it takes S to (0,2). Then E to (1,2) (score 4 against N's wall) and E
/// to (2,2); there east and north are walls and west is visited: a dead end. It walks back to
/// (1,2) (nothing untried: north is a wall), to (0,2) (nothing), to S (0,1), where north is
/// untried: a junction. Then N to (0,0), and east along the top row to (4,0) (each east move
/// scores highest; south is a wall under (1,0) to (3,0)), and S, S to the goal. 13 moves.
#[test]
fn explorer_backs_up_from_a_dead_end_as_worked_by_hand() {
    let grid = draw([".....", ".###.", "...#."].as_slice());
    let (start, goal) = (Point::new(0, 1), Point::new(4, 2));
    let mut s = Explorer::new(grid, start, goal, config(Diagonal::Never, Costs::Real, 1)).unwrap();
    let mut doing = Vec::new();
    while !s.status().is_finished() {
        s.step();
        doing.push(s.is_backing_up());
    }
    let want = [
        (0, 1),
        (0, 2),
        (1, 2),
        (2, 2),
        (1, 2),
        (0, 2),
        (0, 1),
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
        (4, 1),
        (4, 2),
    ];
    let trail: Vec<(usize, usize)> = s.path().unwrap().points.iter().map(|p| (p.x, p.y)).collect();
    assert_eq!(trail, want);
    assert_eq!(s.status(), Status::Found);
    assert_eq!(s.cost(), Some(13.0));
    assert_eq!(s.dead_ends(), 1);
    // Moves 4 to 6 walk back; the goal is reached going forward.
    assert_eq!(&doing[3..6], &[true, true, true]);
    assert!(!doing[6] && !doing[12]);
    // The way back holds the route without the dead end.
    let way: Vec<Point> = s.way_back().iter().map(|&i| s.grid().point_at(i as usize)).collect();
    assert_eq!(way.len(), 8);
    assert_eq!(way[1], Point::new(0, 0));
}

/// At the dead end (2,2) the start (0,1) is the only junction with an untried way (north), and
/// the overlay marks it; every wall in sight is in its head.
#[test]
fn explorer_marks_the_last_junction_and_the_walls_it_has_seen() {
    let grid = draw([".....", ".###.", "...#."].as_slice());
    let mut s =
        Explorer::new(grid, Point::new(0, 1), Point::new(4, 2), config(Diagonal::Never, Costs::Real, 1)).unwrap();
    s.advance(3);
    let overlay = s.overlay();
    let junctions: Vec<u32> = overlay.marks.iter().filter(|m| m.kind == MarkKind::Junction).map(|m| m.cell).collect();
    assert_eq!(junctions, [5]); // (0,1)
    let mut walls: Vec<u32> = overlay.marks.iter().filter(|m| m.kind == MarkKind::KnownWall).map(|m| m.cell).collect();
    walls.sort_unstable();
    // Seen from (0,1), (0,2), (1,2), (2,2) within 1: (1,1), (2,1), (3,1), (3,2).
    assert_eq!(walls, [6, 7, 8, 13]);
}

/// A goal walled off: it visits every cell it can reach, walks back to the start, and says
/// "no path"; the registry's builder makes the same stepper.
#[test]
fn explorer_reports_no_path_after_visiting_everything_it_can_reach() {
    let grid = draw(["..#..", "..#..", "..#.."].as_slice());
    let mut s =
        build(grid, Point::new(0, 0), Point::new(4, 2), config(Diagonal::NoCornerCutting, Costs::Real, 2)).unwrap();
    assert_eq!(s.run(), Status::NoPath);
    // 6 cells reachable: 10 moves, every one twice.
    assert_eq!(s.expanded(), 10);
    assert_eq!(s.cost(), None);
    assert!(s.overlay().notes.iter().any(|(k, _)| *k == "no path"));
}
