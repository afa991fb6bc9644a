//! Crash and turn: where it gets through and where it goes round for ever.
//!
//! - Open ground: it walks a shortest path (the independent reference Dijkstra's cost), for
//!   every diagonal rule and both hands. (Each greedy move shortens the longer of |dx| and
//!   |dy| by one, and moves diagonally only while both are non-zero, so it makes
//!   max(|dx|, |dy|) moves of which min(|dx|, |dy|) diagonal: the octile distance; with four
//!   directions, |dx| + |dy| straight moves.)
//! - A rectangle between start (below) and goal (above) is passed with either hand when, at
//!   every free cell touching it, the greedy move points straight up: |dx| <= dy to the goal
//!   with four directions (ties go north), |dx| < (sqrt 2 - 1) dy with eight. Why: then the
//!   agent can only crash on the cells just below the rectangle; it follows the bottom side
//!   with the greedy move still blocked, rounds the corner, finds the greedy move (up) free
//!   there and at every cell up the side, and once above the rectangle nothing is in its way.
//! - A plus is passed with either hand when start and goal lie in the columns of the arm that
//!   faces the start (it meets the tip first and goes round each notch the right way).
//! - Its two documented failures: a C open toward the agent with the goal behind it (the
//!   course's example; here a literal 20x14 map that traps both hands under every rule, and
//!   the page's u-trap preset), and a wide wall close in front of the goal, which traps the
//!   hand that leads away from the goal. Both end in NoPath with a "loop" explanation.
//! - A goal walled off is reported at the first step, not as a loop; the move limit stops a
//!   walk and says so.

mod oracle;

use oracle::{optimum, same, walk};
use pathlab_core::formats::course;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::search::crash_turn::{CrashTurn, Mode, DEFAULT_MOVE_LIMIT};
use pathlab_core::search::{
    build, Algorithm, CellState, Hand, LineKind, MarkKind, SearchConfig, SearchError, Status, StepEvent, Stepper,
};
use proptest::prelude::*;
use proptest::sample::select;

fn config(rule: Diagonal, hand: Hand) -> SearchConfig {
    SearchConfig::new(Algorithm::CrashTurn).diagonal(rule).hand(hand)
}

/// Draws a map: `#` wall, `.` ground, `S` start, `G` goal, digits terrain.
fn draw(rows: &[&str]) -> (Grid, Point, Point) {
    let (mut start, mut goal) = (None, None);
    let mut cells = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), rows[0].len());
        for (x, c) in row.chars().enumerate() {
            cells.push(match c {
                '#' => WALL,
                'S' => {
                    start = Some(Point::new(x, y));
                    1
                }
                'G' => {
                    goal = Some(Point::new(x, y));
                    1
                }
                d @ '2'..='9' => d as u8 - b'0',
                _ => 1,
            });
        }
    }
    (Grid::from_cells(rows[0].len(), rows.len(), cells).unwrap(), start.unwrap(), goal.unwrap())
}

/// Runs crash and turn to the end and checks the trail: legal moves from the start, summing
/// to the cost walked. Returns the finished search.
fn run(grid: &Grid, start: Point, goal: Point, rule: Diagonal, hand: Hand) -> Result<CrashTurn, TestCaseError> {
    let mut s = CrashTurn::new(grid.clone(), start, goal, config(rule, hand)).unwrap();
    s.run();
    let trail: Vec<Point> = s.path_indices().iter().map(|&i| grid.point_at(i as usize)).collect();
    let end = *trail.last().unwrap();
    let walked = walk(grid, rule, Costs::Real, start, end, &trail)
        .map_err(|e| TestCaseError::fail(format!("{rule} {hand}: {e}")))?;
    prop_assert!(same(walked, s.agent().unwrap().travelled), "{} {}: trail sums to {}", rule, hand, walked);
    prop_assert_eq!(s.agent().unwrap().moves, trail.len() - 1);
    Ok(s)
}

fn arrives(grid: &Grid, start: Point, goal: Point, rule: Diagonal, hand: Hand) -> Result<CrashTurn, TestCaseError> {
    let s = run(grid, start, goal, rule, hand)?;
    prop_assert_eq!(s.status(), Status::Found, "{} {} {} -> {}: {:?}", rule, hand, start, goal, s.gave_up());
    prop_assert_eq!(s.agent().unwrap().at, goal);
    prop_assert!(same(s.cost().unwrap(), s.agent().unwrap().travelled));
    prop_assert!(s.gave_up().is_none());
    Ok(s)
}

/// A grid of ground with the listed cells walled.
fn with_walls(w: usize, h: usize, walls: &[(usize, usize)]) -> Grid {
    let mut grid = Grid::new(w, h).unwrap();
    for &(x, y) in walls {
        grid.set(Point::new(x, y), WALL).unwrap();
    }
    grid
}

/// True when, at every free cell touching the walls (8-neighbourhood), the greedy move to
/// the goal points straight up under `rule` (see the module documentation).
fn goal_far_enough_behind(grid: &Grid, walls: &[(usize, usize)], goal: Point, rule: Diagonal) -> bool {
    let ratio = if rule == Diagonal::Never { 1.0 } else { 2f64.sqrt() - 1.0 };
    walls.iter().all(|&(x, y)| {
        (-1i64..=1).all(|dy| {
            (-1i64..=1).all(|dx| {
                let (cx, cy) = (x as i64 + dx, y as i64 + dy);
                if !grid.contains(cx, cy) || !grid.is_passable(Point::new(cx as usize, cy as usize)) {
                    return true;
                }
                let ahead = (cy - goal.y as i64) as f64;
                let aside = (cx - goal.x as i64).abs() as f64;
                if rule == Diagonal::Never {
                    aside <= ratio * ahead
                } else {
                    aside < ratio * ahead
                }
            })
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_global_rejects: 200_000, ..ProptestConfig::default() })]

    #[test]
    fn on_open_ground_it_walks_a_shortest_path(
        w in 1usize..=12,
        h in 1usize..=12,
        ends in (0usize..144, 0usize..144),
        rule in select(Diagonal::ALL.to_vec()),
        hand in select(vec![Hand::Left, Hand::Right]),
    ) {
        let grid = Grid::new(w, h).unwrap();
        let (start, goal) = (grid.point_at(ends.0 % grid.len()), grid.point_at(ends.1 % grid.len()));
        let s = arrives(&grid, start, goal, rule, hand)?;
        let best = optimum(&grid, start, goal, rule, Costs::Real).unwrap();
        prop_assert!(same(s.cost().unwrap(), best), "{} {}: walked {} but the optimum is {}", rule, hand, s.cost().unwrap(), best);
        prop_assert_eq!(s.crashes(), 0);
    }

    #[test]
    fn it_passes_a_rectangle_with_either_hand_when_the_goal_lies_far_enough_behind_it(
        (rw, rh) in (1usize..=9, 1usize..=5),
        (cx, cy) in (6usize..=10, 14usize..=20),
        (gx, gy) in (0usize..=12, 0usize..=6),
        (sx, sy) in (0usize..25, 0usize..6),
        rule in select(Diagonal::ALL.to_vec()),
    ) {
        // The goal within 6 columns of the rectangle's middle, at least 7 rows above it.
        let walls: Vec<(usize, usize)> = (cy..cy + rh).flat_map(|y| (cx..cx + rw).map(move |x| (x, y))).collect();
        let grid = with_walls(25, 32, &walls);
        let (start, goal) = (Point::new(sx, 26 + sy), Point::new(cx + rw / 2 + gx - 6, gy));
        prop_assume!(goal_far_enough_behind(&grid, &walls, goal, rule));
        for hand in [Hand::Left, Hand::Right] {
            arrives(&grid, start, goal, rule, hand)?;
        }
    }

    #[test]
    fn it_passes_a_plus_with_either_hand_when_met_on_the_arm_that_faces_it(
        arm in 1usize..=5,
        half in 0usize..=1,
        (cx, cy) in (6usize..=18, 9usize..=15),
        (gx, gy, sx, sy) in (0usize..=2, 0usize..=3, 0usize..=2, 0usize..=3),
        rule in select(Diagonal::ALL.to_vec()),
    ) {
        let mut walls = Vec::new();
        for d in 0..=2 * arm {
            for t in 0..=2 * half {
                walls.push((cx - half + t, cy - arm + d));
                walls.push((cx - arm + d, cy - half + t));
            }
        }
        let grid = with_walls(25, 25, &walls);
        let column = |k: usize| cx - half + k % (2 * half + 1);
        let (start, goal) = (Point::new(column(sx), 21 + sy), Point::new(column(gx), gy));
        for hand in [Hand::Left, Hand::Right] {
            let s = arrives(&grid, start, goal, rule, hand)?;
            prop_assert!(s.crashes() >= 1);
        }
    }
}

/// The course's trap, drawn for the page (20 x 14): a C open toward the start, the goal
/// behind it.
const C_TRAP: [&str; 14] = [
    "....................",
    ".........G..........",
    "....................",
    "....................",
    ".....##########.....",
    ".....#........#.....",
    ".....#........#.....",
    ".....#........#.....",
    ".....#........#.....",
    "....................",
    "....................",
    "....................",
    ".........S..........",
    "....................",
];

#[test]
fn a_c_open_toward_the_start_traps_both_hands_under_every_rule() {
    let (grid, start, goal) = draw(&C_TRAP);
    for &rule in Diagonal::ALL {
        for hand in [Hand::Left, Hand::Right] {
            let s = run(&grid, start, goal, rule, hand).unwrap();
            assert_eq!(s.status(), Status::NoPath, "{rule} {hand}");
            assert!(s.cost().is_none());
            let why = s.gave_up().unwrap();
            assert!(why.starts_with("crash and turn went round in a loop at ("), "{why}");
            assert!(why.contains("concave") && why.contains("A*"), "{why}");
            // It looped inside the C, after crashing into its back at least twice.
            let at = s.agent().unwrap().at;
            assert!((6..14).contains(&at.x) && (5..9).contains(&at.y), "{rule} {hand}: looped at {at}");
            assert!(s.crashes() >= 2, "{rule} {hand}");
            let notes = Stepper::overlay(&s).notes;
            assert!(notes.iter().any(|(k, v)| *k == "stopped" && *v == why));
        }
    }
}

/// Worked by hand, four directions, left hand: north from (9,12) to (9,5) under the C's
/// back; crash; east along the back to (13,5) (the greedy move, north, stays blocked); the
/// corner: east is a wall, so south to (13,6); there north is free: heading for the goal
/// again, up to (13,5); blocked: crash, south to (13,6) facing south, following, as before.
#[test]
fn the_c_trap_loop_worked_by_hand() {
    let (grid, start, goal) = draw(&C_TRAP);
    let mut s = CrashTurn::new(grid, start, goal, config(Diagonal::Never, Hand::Left)).unwrap();
    assert_eq!(s.run(), Status::NoPath);
    let trail: Vec<(usize, usize)> = s.path_indices().iter().map(|&i| (i as usize % 20, i as usize / 20)).collect();
    let mut expected: Vec<(usize, usize)> = (5..=12).rev().map(|y| (9, y)).collect();
    expected.extend([(10, 5), (11, 5), (12, 5), (13, 5), (13, 6), (13, 5), (13, 6)]);
    assert_eq!(trail, expected);
    assert_eq!((s.crashes(), s.agent().unwrap().moves, s.agent().unwrap().revisits), (2, 14, 2));
    assert_eq!(s.mode(), Mode::Following);
    assert!(s.gave_up().unwrap().contains("loop at (13,6)"));
}

#[test]
fn the_pages_u_trap_preset_traps_both_hands() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let map = course::parse(&std::fs::read_to_string(dir.join("u-trap.txt")).unwrap()).unwrap();
    let (start, goal) = (map.start.unwrap(), map.goal.unwrap());
    for &rule in Diagonal::ALL {
        for hand in [Hand::Left, Hand::Right] {
            let s = run(&map.grid, start, goal, rule, hand).unwrap();
            assert_eq!(s.status(), Status::NoPath, "{rule} {hand}");
            assert!(s.gave_up().unwrap().contains("loop"));
        }
    }
}

/// Four directions. The goal is 2 rows behind a wall that reaches 1 column past it to the
/// left and 7 to the right. The left hand turns right, away from the goal: at (8,3) the goal
/// is more to the side (3) than ahead (2), so the greedy move is west, free, back toward
/// (7,3), where it crashes again. The right hand turns left, rounds the near end and
/// arrives.
#[test]
fn a_wide_wall_close_in_front_of_the_goal_traps_the_hand_that_leads_away_from_it() {
    let (grid, start, goal) = draw(&[
        "................",
        ".....G..........",
        "....#########...",
        "................",
        "................",
        "......S.........",
    ]);
    let left = run(&grid, start, goal, Diagonal::Never, Hand::Left).unwrap();
    assert_eq!(left.status(), Status::NoPath);
    assert!(left.gave_up().unwrap().contains("loop at (8,3)"), "{:?}", left.gave_up());
    let right = arrives(&grid, start, goal, Diagonal::Never, Hand::Right).unwrap();
    // (6,4) (6,3) crash (5,3) (4,3) (3,3) (3,2) crash (3,1) (4,1) (5,1).
    assert_eq!((right.agent().unwrap().moves, right.crashes()), (9, 2));
}

/// The module's example worked by hand (four directions): north to (3,4) under the wall;
/// crash; left hand: east to (4,4), (5,4); north is free at (5,4): up to (5,1) (at (5,2) the
/// goal is as far to the side as ahead: the tie goes north), west to (4,1), north to (4,0),
/// west to the goal. The right hand mirrors it round the west end. 10 moves each.
#[test]
fn a_short_wall_worked_by_hand_with_each_hand() {
    let (grid, start, goal) = draw(&["...G...", ".......", ".......", "..###..", ".......", ".......", "...S..."]);
    for (hand, expected) in [
        (Hand::Left, [(3, 5), (3, 4), (4, 4), (5, 4), (5, 3), (5, 2), (5, 1), (4, 1), (4, 0), (3, 0)]),
        (Hand::Right, [(3, 5), (3, 4), (2, 4), (1, 4), (1, 3), (1, 2), (1, 1), (2, 1), (2, 0), (3, 0)]),
    ] {
        let mut s = CrashTurn::new(grid.clone(), start, goal, config(Diagonal::Never, hand)).unwrap();
        let mut trail = Vec::new();
        while !s.status().is_finished() {
            s.step();
            trail.push((s.agent().unwrap().at.x, s.agent().unwrap().at.y));
        }
        assert_eq!(trail, expected, "{hand}");
        assert_eq!((s.status(), s.cost(), s.crashes()), (Status::Found, Some(10.0), 1));
    }
}

#[test]
fn the_page_sees_the_agent_its_trail_the_line_to_the_goal_and_the_mode() {
    let (grid, start, goal) = draw(&["...G...", ".......", ".......", "..###..", ".......", ".......", "...S..."]);
    let mut s = build(grid, start, goal, config(Diagonal::Never, Hand::Left)).unwrap();
    assert_eq!(s.status(), Status::Ready);
    assert_eq!(s.states()[6 * 7 + 3], CellState::Current as u8);
    assert!(s.overlay().notes.contains(&("mode", "heading for the goal".to_string())));
    s.advance(3); // (3,5), (3,4), crash, (4,4)
    let overlay = s.overlay();
    let note = |key: &str| overlay.notes.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()).unwrap();
    assert_eq!(note("mode"), "following the wall, left hand");
    assert_eq!(note("crashes"), "1");
    assert_eq!(note("facing"), "E");
    assert_eq!(note("moves"), "3");
    let heading: Vec<(u32, u32)> =
        overlay.lines.iter().filter(|l| l.kind == LineKind::Heading).map(|l| (l.from, l.to)).collect();
    assert_eq!(heading, vec![(4 * 7 + 4, 3)]);
    assert_eq!(overlay.lines.iter().filter(|l| l.kind == LineKind::Trail).count(), 3);
    assert!(overlay.marks.contains(&pathlab_core::search::OverlayMark { cell: 4 * 7 + 4, kind: MarkKind::Agent }));
    for (i, &st) in s.states().iter().enumerate() {
        let expected = match i {
            32 => CellState::Current,
            45 | 38 | 31 => CellState::Closed,
            _ => CellState::Unseen,
        };
        assert_eq!(st, expected as u8, "cell {i}");
    }
    // g: the cost walked on first arrival; parent: where it came from.
    assert_eq!((s.g_values()[45], s.g_values()[31], s.g_values()[32]), (0.0, 2.0, 3.0));
    assert_eq!(s.parents()[32], 31);
    assert_eq!(s.h(start), 0.0);
    assert!(s.cell_values().is_none());
    assert_eq!(s.run(), Status::Found);
    assert!(s.overlay().lines.iter().all(|l| l.kind != LineKind::Heading));
}

#[test]
fn terrain_is_free_ground_that_costs_more_to_walk() {
    let (grid, start, goal) = draw(&["S359G"]);
    let mut s = CrashTurn::new(grid, start, goal, config(Diagonal::NoCornerCutting, Hand::Left)).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(3.0 + 5.0 + 9.0 + 1.0));
    assert_eq!(s.crashes(), 0);
}

#[test]
fn a_walled_off_goal_is_reported_at_once_and_painting_starts_over() {
    let (grid, start, goal) = draw(&["S.#..", "..#.G", "..#.."]);
    let mut s = build(grid, start, goal, config(Diagonal::Always, Hand::Right)).unwrap();
    assert_eq!(s.step(), StepEvent::NoPath);
    assert_eq!((s.status(), s.steps(), s.agent().unwrap().moves), (Status::NoPath, 1, 0));
    assert!(s.gave_up().is_none(), "no path is not giving up");
    let notes = s.overlay().notes;
    assert!(notes.iter().any(|(k, v)| *k == "no path" && v.contains("cannot be reached from the start")), "{notes:?}");
    // Open a door at the top: back to step 0, and through it.
    assert_eq!(s.paint(&[Point::new(2, 0)], 1).unwrap(), 1);
    assert_eq!((s.steps(), s.status()), (0, Status::Ready));
    assert_eq!(s.run(), Status::Found);
    // Walls over the ends are skipped; new ends are checked.
    assert_eq!(s.paint(&[start, goal], WALL).unwrap(), 0);
    assert!(matches!(s.set_ends(Point::new(2, 2), goal), Err(SearchError::OnWall { which: "start", .. })));
    s.set_ends(Point::new(0, 2), Point::new(1, 0)).unwrap();
    assert_eq!(s.run(), Status::Found);
    // One straight and one diagonal move (a diagonal is sqrt(2) to 29 binary places).
    assert!((s.cost().unwrap() - (1.0 + std::f64::consts::SQRT_2)).abs() < 1e-10, "{:?}", s.cost());
}

#[test]
fn the_move_limit_stops_a_walk_and_says_so() {
    let (grid, start, goal) = draw(&C_TRAP);
    let s = CrashTurn::new(grid.clone(), start, goal, config(Diagonal::Never, Hand::Left)).unwrap();
    assert_eq!(s.move_limit(), DEFAULT_MOVE_LIMIT);
    let mut limited = s.clone().with_move_limit(5);
    assert_eq!(limited.run(), Status::NoPath);
    assert_eq!(limited.agent().unwrap().moves, 5);
    assert!(limited.gave_up().unwrap().contains("limit of 5 moves"));
    // Another algorithm's settings are refused.
    let err = CrashTurn::new(grid, start, goal, SearchConfig::new(Algorithm::AStar)).unwrap_err();
    assert!(matches!(err, SearchError::Unsupported(_)));
}
