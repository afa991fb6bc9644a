//! Bidirectional A* on grids worked by hand: a first meeting that is not on the cheapest path,
//! terrain charged the right way round by the backward search, the shared maze fixture, and
//! what the page sees (both frontiers, the meeting mark, the notes of the stopping rule).

mod common;
mod oracle;

use oracle::{costs_from, costs_to, same, walk};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::bi_astar::{BiAStar, Direction};
use pathlab_core::search::{
    build, Algorithm, CellState, MarkKind, OverlayMark, SearchConfig, SearchError, Status, StepEvent, Stepper,
};

fn grid_from(rows: &[&str]) -> Grid {
    let width = rows[0].len();
    let cells = rows
        .iter()
        .flat_map(|r| r.bytes())
        .map(|b| match b {
            b'#' => WALL,
            b'.' => 1,
            d => d - b'0',
        })
        .collect();
    Grid::from_cells(width, rows.len(), cells).unwrap()
}

fn config(rule: Diagonal, costs: Costs) -> SearchConfig {
    SearchConfig::new(Algorithm::BiAStar).diagonal(rule).costs(costs).heuristic(Heuristic::default_for(rule))
}

// The first meeting is not on the cheapest path.
//
//        x = 0 1 2 3 4 5 6 7 8
//   y=0      . . . . . . . . .
//   y=1      S . . . 9 . . . G        S = (0,1), G = (8,1), (4,1) is terrain 9
//   y=2      . . . . . . . . .
//
// 4-connected, real costs, Manhattan; a move costs the value of the cell it enters.
//
// The cheapest path costs 10. Every path needs at least |dx| = 8 horizontal moves. A path
// that stays in row 1 enters (4,1) and pays 9 for it plus 7 for the other moves: 16. A path
// that leaves row 1 needs at least one move up or down and one back (it ends in row 1): at
// least 8 + 2 = 10 moves of cost at least 1, and S -> (0,0) -> ... -> (8,0) -> G achieves 10.
//
// (4,1) lies on no path of cost 10: S is 4 moves from it, the last of which enters it and
// pays 9, so reaching it costs at least 3 + 9 = 12; G is 4 moves further, at least 4 more.
// Any path through (4,1) costs at least 16 > 10 (the straight row costs exactly 16).
//
// Why the frontiers first meet at (4,1). Along row 1 every cell left of the 9 has forward
// f = g + h = x + (8 - x) = 8, and every cell of rows 0 and 2 has f >= 10, so the forward
// search expands (0,1), (1,1), (2,1), (3,1) before anything else; the backward search, by
// symmetry (its h aims at S), expands (8,1), (7,1), (6,1), (5,1). The two sides take turns
// (the smaller open list goes next; on a tie, the side that did not go last; each expansion
// in row 1 opens 3 cells): F (0,1), B (8,1), F (1,1), B (7,1),
// F (2,1), B (6,1), F (3,1), B (5,1). Up to then the forward search has opened cells with
// x <= 4 only in row 1 and x <= 3 in rows 0 and 2, the backward search x >= 4 in row 1 and
// x >= 5 in rows 0 and 2: the only cell both have is (4,1), opened forward at step 7 with
// g = 3 + 9 = 12 and backward at step 8 with cost-to-goal 4 (the backward move from (5,1)
// stands for (4,1) -> (5,1), which enters (5,1): 1). So the first meeting is (4,1) with
// mu = 16. Stopping there would return 16; the rule waits until mu <= max(min f), which
// holds only once mu = 10.
const FIRST_MEETING: [&str; 3] = [".........", "....9....", "........."];

#[test]
fn the_first_meeting_is_off_the_cheapest_path_yet_the_answer_is_the_cheapest() {
    use Direction::{Backward as B, Forward as F};
    let grid = grid_from(&FIRST_MEETING);
    let (start, goal) = (Point::new(0, 1), Point::new(8, 1));
    let config = config(Diagonal::Never, Costs::Real);
    let mut s = BiAStar::new(grid.clone(), start, goal, config).unwrap();
    let mut first = None;
    let mut order = Vec::new();
    while !s.status().is_finished() {
        if let StepEvent::Expanded(p) = s.step() {
            order.push((s.last_direction().unwrap(), p));
        }
        if first.is_none() && s.mu().is_finite() {
            first = Some((s.steps(), s.meeting().unwrap(), s.mu()));
        }
    }
    let expected = [(F, 0, 1), (B, 8, 1), (F, 1, 1), (B, 7, 1), (F, 2, 1), (B, 6, 1), (F, 3, 1), (B, 5, 1)];
    let expected: Vec<_> = expected.iter().map(|&(d, x, y)| (d, Point::new(x, y))).collect();
    assert_eq!(&order[..8], &expected[..], "the expansions traced in the comment");
    assert_eq!(first, Some((8, Point::new(4, 1), 16.0)), "first meeting at (4,1), mu 16");

    // Independent check that (4,1) is on no cheapest path: cheapest S -> (4,1) -> G.
    let from = costs_from(&grid, start, Diagonal::Never, Costs::Real);
    let to = costs_to(&grid, goal, Diagonal::Never, Costs::Real);
    let m = grid.index(Point::new(4, 1));
    assert_eq!((from[m], to[m]), (12.0, 4.0));
    assert_eq!(from[grid.index(goal)], 10.0);

    assert_eq!(s.status(), Status::Found);
    assert_eq!(s.cost(), Some(10.0), "the cheapest path, not the first meeting's 16");
    let path = s.path().unwrap();
    assert_eq!(walk(&grid, Diagonal::Never, Costs::Real, start, goal, &path.points), Ok(10.0));
    assert!(!path.points.contains(&Point::new(4, 1)));
    assert!(s.steps() > 9, "the search went on after the first meeting");
    let meeting = s.meeting().unwrap();
    assert!(path.points.contains(&meeting), "the final meeting cell {meeting} is on the path");
    assert!(same(from[grid.index(meeting)] + to[grid.index(meeting)], 10.0));
}

// Terrain at the ends: the start's own terrain is never paid, the goal's always is. In the
// row  5 . 3 . 9  (x = 0..4), entering x costs the value at x:
//   0 -> 4: 1 + 3 + 1 + 9 = 14;   4 -> 0: 1 + 3 + 1 + 5 = 10.
// Cost to reach the goal 4 from each x: x=3: 9, x=2: 10, x=1: 13, x=0: 14.
// A backward search charging the cell it enters (in its own direction) instead would give
// 1 + 3 + 1 + 5 = 10 for 0 -> 4: the two directions would swap.
#[test]
fn the_backward_search_charges_the_terrain_of_the_cell_it_comes_from() {
    let grid = grid_from(&["5.3.9"]);
    for &rule in Diagonal::ALL {
        for (from_x, to_x, cost) in [(0, 4, 14.0), (4, 0, 10.0)] {
            let (start, goal) = (Point::new(from_x, 0), Point::new(to_x, 0));
            let mut s = BiAStar::new(grid.clone(), start, goal, config(rule, Costs::Real)).unwrap();
            assert_eq!(s.run(), Status::Found);
            assert_eq!(s.cost(), Some(cost), "{rule}: {start} -> {goal}");
            if from_x == 0 {
                let to_goal = [14.0, 13.0, 10.0, 9.0, 0.0];
                for (x, &want) in to_goal.iter().enumerate() {
                    let got = s.g_back()[x];
                    assert!(
                        got.is_infinite() || got == want,
                        "{rule}: cost from x={x} to the goal is {got}, not {want}"
                    );
                }
                assert!(s.expanded_backward() >= 1, "the backward search took part");
            }
        }
    }

    // In two dimensions with the integer costs: a mud field round the goal makes the way in
    // dear and the way out cheap. Checked against the reference both ways; and at every step
    // until a side first nips a cell (see the module documentation), the cells closed only by
    // the backward search hold their exact cost to the goal.
    let grid = grid_from(&["......", ".5555.", ".5..5.", ".5.9..", ".5555.", "......"]);
    let (a, b) = (Point::new(0, 0), Point::new(3, 3));
    for &rule in Diagonal::ALL {
        for (start, goal) in [(a, b), (b, a)] {
            let config = config(rule, Costs::Integer);
            let mut s = BiAStar::new(grid.clone(), start, goal, config).unwrap();
            let from = costs_from(&grid, start, rule, Costs::Integer);
            let to = costs_to(&grid, goal, rule, Costs::Integer);
            let mut checked = 0;
            loop {
                let event = s.step();
                if s.status().is_finished() {
                    assert_eq!(event, StepEvent::Found { cost: from[grid.index(goal)] }, "{rule}: {start} -> {goal}");
                    break;
                }
                if s.nipped() > 0 {
                    continue;
                }
                for (i, &state) in s.states().iter().enumerate() {
                    if state == CellState::ClosedBack as u8 {
                        assert_eq!(s.g_back()[i], to[i], "{rule}: {start} -> {goal}: cell {i}");
                        checked += 1;
                    }
                }
            }
            assert!(checked > 0, "{rule}: {start} -> {goal}: no backward-closed cell checked");
        }
    }
}

#[test]
fn every_maze_of_the_shared_fixture_gives_its_hand_worked_cost() {
    let mut checked = 0;
    for maze in common::mazes() {
        for &(rule, hand) in maze.hand {
            for &costs in Costs::ALL {
                for &h in Heuristic::ALL {
                    if !h.is_admissible(rule, costs) {
                        continue;
                    }
                    let config = SearchConfig::new(Algorithm::BiAStar).diagonal(rule).costs(costs).heuristic(h);
                    let mut s = build(maze.grid.clone(), maze.start, maze.goal, config).unwrap();
                    s.run();
                    let what = format!("{}: {}", maze.name, common::describe(&config));
                    match hand {
                        None => {
                            assert_eq!(s.status(), Status::NoPath, "{what}");
                            assert!(s.path().is_none(), "{what}");
                        }
                        Some(units) => {
                            let want = common::hand_cost(costs, units);
                            let path = s.path().unwrap_or_else(|| panic!("{what}: no path"));
                            let moves = walk(&maze.grid, rule, costs, maze.start, maze.goal, &path.points)
                                .unwrap_or_else(|e| panic!("{what}: {e}"));
                            assert!(same(path.cost, want), "{what}: {} not {want}", path.cost);
                            assert!(same(moves, want), "{what}: moves sum to {moves}");
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} configurations");
}

#[test]
fn the_page_sees_both_frontiers_the_meeting_and_the_stopping_rule() {
    // An open 12x7 room with a wall between the ends.
    let grid = grid_from(&[
        "............",
        "............",
        ".....#......",
        ".....#......",
        ".....#......",
        "............",
        "............",
    ]);
    let (start, goal) = (Point::new(1, 3), Point::new(10, 3));
    let mut s = build(grid.clone(), start, goal, config(Diagonal::NoCornerCutting, Costs::Real)).unwrap();
    let notes = |s: &dyn Stepper| s.overlay().notes.iter().map(|(k, v)| (*k, v.clone())).collect::<Vec<_>>();
    let note = |s: &dyn Stepper, key: &str| notes(s).into_iter().find(|(k, _)| *k == key).map(|(_, v)| v);

    // Step 0: the start open forward, the goal open backward, nothing met.
    assert_eq!(s.states()[grid.index(start)], CellState::Open as u8);
    assert_eq!(s.states()[grid.index(goal)], CellState::OpenBack as u8);
    assert_eq!(s.open_count(), 2);
    assert_eq!(note(s.as_ref(), "mu").as_deref(), Some("inf"));
    assert!(s.overlay().marks.is_empty());

    // Steps 1 and 2: one expansion forward, then one backward (the smaller open list).
    assert_eq!(s.step(), StepEvent::Expanded(start));
    assert_eq!(note(s.as_ref(), "direction").as_deref(), Some("forward"));
    assert_eq!(s.step(), StepEvent::Expanded(goal));
    assert_eq!(note(s.as_ref(), "direction").as_deref(), Some("backward"));
    assert_eq!(s.states()[grid.index(goal)], CellState::Current as u8);
    assert_eq!(s.states()[grid.index(start)], CellState::Closed as u8);
    assert_eq!(s.expanded(), 2);
    assert!(s.states().contains(&(CellState::OpenBack as u8)));
    assert!(s.states().contains(&(CellState::Open as u8)));
    s.step();
    assert_eq!(s.states()[grid.index(goal)], CellState::ClosedBack as u8);
    // Before meeting: the forward g is unknown on the backward side's cells.
    assert!(s.g_values()[grid.index(goal)].is_infinite());

    // Until they meet, no mark; once met, the mark sits on the meeting cell, and the notes
    // give mu and both minima of the stopping rule.
    let mut bi = BiAStar::new(grid.clone(), start, goal, config(Diagonal::NoCornerCutting, Costs::Real)).unwrap();
    while bi.meeting().is_none() {
        assert!(bi.overlay().marks.is_empty());
        bi.step();
    }
    let m = bi.meeting().unwrap();
    assert_eq!(bi.overlay().marks, vec![OverlayMark { cell: grid.index(m) as u32, kind: MarkKind::Meeting }]);
    let keys: Vec<_> = bi.overlay().notes.iter().map(|(k, _)| *k).collect();
    for key in ["mu", "forward min f", "backward min f", "stopping rule", "direction"] {
        assert!(keys.contains(&key), "note {key} missing from {keys:?}");
    }
    let mu: f64 = note(&bi, "mu").unwrap().parse().unwrap();
    assert!((mu - bi.mu()).abs() < 1e-6);
    let ff: f64 = note(&bi, "forward min f").unwrap().parse().unwrap();
    assert!((ff - bi.min_f_forward()).abs() < 1e-6);
    let fb: f64 = note(&bi, "backward min f").unwrap().parse().unwrap();
    assert!((fb - bi.min_f_backward()).abs() < 1e-6);
    // The next step stops exactly when the rule holds.
    let fires = bi.mu() <= bi.min_f_forward().max(bi.min_f_backward());
    assert_eq!(matches!(bi.step(), StepEvent::Found { .. }), fires);
    while !bi.status().is_finished() {
        let fires = bi.mu() <= bi.min_f_forward().max(bi.min_f_backward());
        assert_eq!(matches!(bi.step(), StepEvent::Found { .. }), fires);
    }

    // The end: path cells painted, the mark on a path cell, no cell left as Current.
    bi.run();
    let path = bi.path_indices().to_vec();
    let painted: Vec<u32> =
        (0..grid.len() as u32).filter(|&i| bi.states()[i as usize] == CellState::Path as u8).collect();
    let mut sorted = path.clone();
    sorted.sort_unstable();
    assert_eq!(painted, sorted, "exactly the path cells are painted as the path");
    assert!(!bi.states().contains(&(CellState::Current as u8)));
    let mark = bi.overlay().marks[0];
    assert!(path.contains(&mark.cell));
    assert!(bi.mu() <= bi.min_f_forward().max(bi.min_f_backward()));
    let best = costs_from(&grid, start, Diagonal::NoCornerCutting, Costs::Real)[grid.index(goal)];
    assert!(same(bi.cost().unwrap(), best));
    assert!(bi.expanded_forward() > 0 && bi.expanded_backward() > 0);
    assert_eq!(bi.expanded(), bi.expanded_forward() + bi.expanded_backward());
}

#[test]
fn ends_on_one_cell_unreachable_goals_and_bad_ends() {
    let grid = grid_from(&["...", ".#.", "..."]);

    // Start on the goal: found at the first step, cost 0, a one-cell path.
    let mut s = build(grid.clone(), Point::new(0, 0), Point::new(0, 0), config(Diagonal::Always, Costs::Real)).unwrap();
    assert_eq!(s.step(), StepEvent::Found { cost: 0.0 });
    assert_eq!(s.path_indices(), &[0]);
    assert_eq!(s.step(), StepEvent::Finished);

    // The goal beyond a full column of wall: no path under any rule, and not a "gave up".
    let walled = grid_from(&["..#..", "..#..", "..#.."]);
    for &rule in Diagonal::ALL {
        let mut s = build(walled.clone(), Point::new(0, 0), Point::new(4, 2), config(rule, Costs::Real)).unwrap();
        assert_eq!(s.run(), Status::NoPath, "{rule}");
        assert!(s.gave_up().is_none());
        assert!(s.cost().is_none() && s.path_indices().is_empty());
    }

    // Ends on a wall or outside: refused with the usual errors.
    let e = build(grid.clone(), Point::new(1, 1), Point::new(0, 0), config(Diagonal::Never, Costs::Real));
    assert!(matches!(e.err(), Some(SearchError::OnWall { which: "start", .. })));
    let e = build(grid.clone(), Point::new(0, 0), Point::new(5, 0), config(Diagonal::Never, Costs::Real));
    assert!(matches!(e.err(), Some(SearchError::OutOfBounds { which: "goal", .. })));
    let e = build(grid, Point::new(0, 0), Point::new(2, 2), config(Diagonal::Never, Costs::Real).weight(0.5));
    assert!(matches!(e.err(), Some(SearchError::BadWeight(_))));
}

#[test]
fn painting_and_moving_the_ends_restart_the_search() {
    let grid = grid_from(&[".....", ".....", "....."]);
    let mut s = build(grid, Point::new(0, 1), Point::new(4, 1), config(Diagonal::Never, Costs::Real)).unwrap();
    s.run();
    assert_eq!(s.cost(), Some(4.0));
    // A wall across the middle column, except the top: the path goes round.
    let wall = [Point::new(2, 1), Point::new(2, 2), Point::new(0, 1)];
    assert_eq!(s.paint(&wall, WALL).unwrap(), 2, "the start is not walled over");
    assert_eq!(s.steps(), 0);
    s.run();
    assert_eq!(s.cost(), Some(6.0));
    s.set_ends(Point::new(4, 2), Point::new(0, 2)).unwrap();
    assert_eq!(s.status(), Status::Ready);
    s.run();
    assert_eq!(s.cost(), Some(8.0));
}
