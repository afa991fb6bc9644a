//! LPA* against an independent Dijkstra (`reference_dijkstra`) after live edits.
//!
//! - On random grids (proptest: up to 14x14, 0-35% walls, terrain on half, every diagonal
//!   rule, both cost models) and on the MovingAI map dao/arena: after each of many random
//!   strokes (walls added and removed, blocks, terrain), including one that walls the goal in
//!   and a later one that frees it, made after the search finished or in the middle of it,
//!   the repaired cost equals the reference's on the edited grid, the path is legal on it and
//!   costs what its moves cost, and "no path" comes exactly when the reference finds none.
//! - Stepping back and forward through an edit lands in the same states (everything the page
//!   reads) as stepping forward did; reset keeps the painted map and forgets the log.
//! - A hand-worked corridor: the costs before and after a painted wall, and the exact
//!   expansions of the first search, of the repair and of a fresh A*.
//! - Settings LPA* cannot honour are refused with a message; the overlay caps its marks.

mod cases;
mod common;
mod incremental_support;
mod oracle;

use cases::Rng;
use common::load_movingai as load;
use incremental_support::{case_up_to, difference, random_stroke, replay_matches, ring, run_with_edits, snap, Case};
use oracle::{optimum, same, walk};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::lpa::Lpa;
use pathlab_core::search::{
    build, Algorithm, CellState, EventLog, MarkKind, Opened, Search, SearchConfig, SearchError, Status, StepEvent,
    Stepper,
};
use proptest::prelude::*;

fn config(rule: Diagonal, costs: Costs) -> SearchConfig {
    SearchConfig::new(Algorithm::Lpa).diagonal(rule).costs(costs).heuristic(Heuristic::default_for(rule))
}

/// Checks a finished LPA* against the reference on its current grid.
fn check(s: &Lpa, what: &str) -> Result<Option<f64>, TestCaseError> {
    let c = s.config();
    let best = optimum(s.grid(), Stepper::start(s), Stepper::goal(s), c.diagonal, c.costs);
    if let Some(best) = best {
        prop_assert_eq!(s.status(), Status::Found, "{}: the reference finds {}", what, best);
        let cost = s.cost().unwrap();
        prop_assert!(same(cost, best), "{}: LPA* {} but the reference {}", what, cost, best);
        let points = Stepper::path(s).unwrap().points;
        let walked = walk(s.grid(), c.diagonal, c.costs, Stepper::start(s), Stepper::goal(s), &points)
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
        prop_assert!(same(walked, cost), "{}: the path's moves cost {} not {}", what, walked, cost);
        let path_state = CellState::Path as u8;
        prop_assert!(s.path_indices().iter().all(|&i| s.states()[i as usize] == path_state), "{}", what);
    } else {
        prop_assert_eq!(s.status(), Status::NoPath, "{}: the reference finds no path", what);
        prop_assert!(s.cost().is_none() && s.path_indices().is_empty(), "{}", what);
    }
    prop_assert!(s.gave_up().is_none());
    Ok(best)
}

/// Runs a case with `edits` random strokes (one walls the goal in, a later one frees it);
/// each is made after the search finished, or after a few steps of the repair of the last.
fn edits_match_reference(case: &Case, seed: u64, edits: usize) -> Result<(usize, usize), TestCaseError> {
    let mut s = Lpa::new(case.grid.clone(), case.start, case.goal, config(case.rule, case.costs)).unwrap();
    let mut rng = Rng(seed);
    let (mut no_path, mut found) = (0, 0);
    s.run();
    check(&s, "first search")?;
    let (wall_in, free) = (edits / 3, 2 * edits / 3);
    for k in 0..edits {
        let (cells, value) = if k == wall_in {
            (ring(s.grid(), case.goal), WALL)
        } else if k == free {
            (ring(s.grid(), case.goal), 1)
        } else {
            random_stroke(&mut rng, s.grid())
        };
        s.paint(&cells, value).unwrap();
        let what = format!("edit {k} ({} cells to {value})", cells.len());
        if rng.below(3) == 0 {
            // Edit again in the middle of the repair.
            s.advance(rng.below(6));
            let (cells, value) = random_stroke(&mut rng, s.grid());
            s.paint(&cells, value).unwrap();
        }
        s.run();
        match check(&s, &what)? {
            Some(_) => found += 1,
            None => no_path += 1,
        }
    }
    Ok((found, no_path))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// After every edit the repaired answer is the reference's on the edited grid.
    #[test]
    fn repairs_after_random_edits_match_the_reference(case in case_up_to(14, 35), seed in any::<u64>()) {
        edits_match_reference(&case, seed, 12)?;
    }

    /// Seeking to any step, going back one step at a time and stepping forward again through
    /// the edits gives exactly the states seen the first time.
    #[test]
    fn back_and_forward_through_edits_are_exact(case in case_up_to(10, 30), seed in any::<u64>()) {
        let mut s = Lpa::new(case.grid.clone(), case.start, case.goal, config(case.rule, case.costs)).unwrap();
        let mut rng = Rng(seed);
        let seen = run_with_edits(&mut s, &mut rng, 8);
        check(&s, "end")?;
        replay_matches(&mut s, &seen, &mut rng)?;
    }
}

#[test]
fn the_goal_walled_in_and_freed_again_gives_no_path_then_the_optimum() {
    // A deterministic sweep that must see both outcomes many times.
    let mut rng = Rng(7);
    let (mut found, mut no_path) = (0, 0);
    for k in 0..60 {
        let rule = Diagonal::ALL[k % 4];
        let costs = Costs::ALL[k % 2];
        let (w, h) = (4 + rng.below(8), 4 + rng.below(8));
        let cells: Vec<u8> =
            (0..w * h).map(|_| if rng.below(100) < 20 { WALL } else { 1 + rng.below(2) as u8 }).collect();
        let mut grid = Grid::from_cells(w, h, cells).unwrap();
        let start = Point::new(0, 0);
        let goal = Point::new(w - 1, h - 1);
        grid.set(start, 1).unwrap();
        grid.set(goal, 1).unwrap();
        let case = Case { grid, start, goal, rule, costs };
        let (f, n) = edits_match_reference(&case, rng.next(), 9).unwrap();
        found += f;
        no_path += n;
    }
    assert!(found > 200 && no_path > 60, "found {found}, no path {no_path}");
}

/// Wall edits on the MovingAI map dao/arena (49x49) under every diagonal rule: one on the
/// middle of the current path, random blocks, removals of walls of the map, and the goal
/// walled in and freed; the reference checks every answer.
#[test]
fn repairs_on_the_movingai_arena_match_the_reference() {
    let (grid, problems) = load("dao/arena.map");
    let mut rng = Rng(2024);
    let mut checked = 0;
    for (k, p) in problems.iter().enumerate().step_by(25) {
        let rule = Diagonal::ALL[k % 4];
        let mut s = Lpa::new(grid.clone(), p.start, p.goal, config(rule, Costs::Real)).unwrap();
        s.run();
        check(&s, "arena first search").unwrap();
        for e in 0..10 {
            let (cells, value) = match e {
                3 => (ring(s.grid(), p.goal), WALL),
                6 => (ring(s.grid(), p.goal), 1),
                0 | 4 | 8 if s.path_indices().len() > 2 => {
                    let path = s.path_indices();
                    (vec![s.grid().point_at(path[path.len() / 2] as usize)], WALL)
                }
                5 => {
                    // Remove a few walls of the map.
                    let walls: Vec<usize> = (0..grid.len()).filter(|&i| s.grid().cells()[i] == WALL).collect();
                    ((0..4).map(|_| s.grid().point_at(walls[rng.below(walls.len())])).collect(), 1)
                }
                _ => random_stroke(&mut rng, s.grid()),
            };
            s.paint(&cells, value).unwrap();
            s.run();
            check(&s, &format!("arena problem {k} edit {e} under {rule}")).unwrap();
            checked += 1;
        }
    }
    assert!(checked >= 60, "{checked}");
}

/// The corridor, 4-connected, heuristic zero (so the first search floods the room):
///
/// ```text
///   x 0 1 2 3 4 5 6 7
/// y0  . . . # # . . .
/// y1  . . S . . . . G
/// y2  . . . # # # # #
/// ```
///
/// Before: S (2,1) -> G (7,1) straight along row 1, 5 moves. Expanded: every cell with g < 5
/// (the nine room cells, (3,1) to (6,1) and (5,0)) then (6,0) (g 5, queued before G) and G:
/// 16. A wall painted at (6,1) forces the detour (5,1) (5,0) (6,0) (7,0) G: 7 moves. The
/// repair expands (6,1) (walled: g forgotten), G (its way in is gone: g forgotten), (7,0)
/// (settled at 6, its key [6; 6] queued since the first search) and G again (settled at
/// 7): 4. A fresh A* on the edited grid expands every
/// cell with g < 7 (nine room cells, (3,1), (4,1), (5,1), (5,0), (6,0), (7,0)): 15.
#[test]
fn a_wall_in_the_corridor_forces_a_detour_repaired_in_four_expansions() {
    let rows = ["...##...", "........", "...#####"];
    let cells: Vec<u8> = rows.iter().flat_map(|r| r.bytes().map(|b| u8::from(b == b'.'))).collect();
    let grid = Grid::from_cells(8, 3, cells).unwrap();
    let (start, goal) = (Point::new(2, 1), Point::new(7, 1));
    let config = SearchConfig::new(Algorithm::Lpa).diagonal(Diagonal::Never).heuristic(Heuristic::Zero);
    let mut s = Lpa::new(grid, start, goal, config).unwrap();
    assert_eq!(s.repair(), None);
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(5.0));
    assert_eq!(s.expanded(), 16);
    assert_eq!(s.steps(), 17, "16 expansions and the step that finds the search settled");
    let before = snap(&s);

    assert_eq!(s.paint(&[Point::new(6, 1)], WALL).unwrap(), 1);
    assert_eq!(s.status(), Status::Searching);
    assert_eq!(s.steps(), 17, "painting keeps the steps");
    let marked: Vec<u32> =
        s.overlay().marks.iter().filter(|m| m.kind == MarkKind::Inconsistent).map(|m| m.cell).collect();
    // (6,1) and G are underconsistent; (7,0) still waits from the first search (rhs 6).
    assert_eq!(marked.len(), 3, "{marked:?}");
    let mut log = EventLog::default();
    let order: Vec<StepEvent> = (0..5)
        .map(|k| {
            let event = s.step_logged(&mut log);
            if k == 2 {
                // Settling (7,0) at 6 offers G rhs 7 (it had none).
                assert_eq!(log.expanded, Some(7));
                assert_eq!(log.opened, vec![Opened { node: 15, parent: 7, old_g: None, new_g: 7.0 }]);
            }
            event
        })
        .collect();
    assert_eq!(
        order,
        vec![
            StepEvent::Expanded(Point::new(6, 1)),
            StepEvent::Expanded(goal),
            StepEvent::Expanded(Point::new(7, 0)),
            StepEvent::Expanded(goal),
            StepEvent::Found { cost: 7.0 },
        ]
    );
    let repair = s.repair().unwrap();
    assert_eq!((repair.changed, repair.re_expanded, repair.fresh_expanded), (1, 4, 15));
    assert!(repair.re_expanded < before.expanded);
    let path: Vec<Point> = Stepper::path(&s).unwrap().points;
    assert_eq!(
        path,
        [(2, 1), (3, 1), (4, 1), (5, 1), (5, 0), (6, 0), (7, 0), (7, 1)].map(|(x, y)| Point::new(x, y)).to_vec()
    );
    let notes = s.overlay().notes;
    assert!(notes.contains(&("re-expanded after edit", "4".to_string())), "{notes:?}");
    assert!(notes.contains(&("fresh A* would expand", "15".to_string())), "{notes:?}");

    // Back through the edit and forward again.
    Stepper::seek(&mut s, 17);
    assert_eq!(s.status(), Status::Searching, "step 17 shows the state right after the edit");
    Stepper::back(&mut s);
    assert_eq!(s.steps(), 16);
    assert_eq!(s.grid().get(Point::new(6, 1)), Some(1), "before the edit the wall is not there");
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(7.0));
    assert_eq!(s.repair().unwrap().re_expanded, 4);

    // Reset keeps the painted map.
    s.reset();
    assert_eq!((s.steps(), s.status(), s.repair(), s.edits()), (0, Status::Ready, None, 0));
    assert_eq!(s.grid().get(Point::new(6, 1)), Some(WALL));
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(7.0));
    Stepper::seek(&mut s, 3);
    assert_eq!(s.grid().get(Point::new(6, 1)), Some(WALL), "the painted wall is now part of step 0's map");
}

#[test]
fn reset_and_set_ends_keep_the_painted_map_even_after_going_back() {
    let grid = Grid::new(12, 9).unwrap();
    let mut s =
        Lpa::new(grid, Point::new(0, 4), Point::new(11, 4), config(Diagonal::NoCornerCutting, Costs::Real)).unwrap();
    s.advance(10);
    let wall: Vec<Point> = (0..8).map(|y| Point::new(6, y)).collect();
    assert_eq!(s.paint(&wall, WALL).unwrap(), 8);
    s.run();
    s.paint(&[Point::new(3, 8)], 5).unwrap();
    s.run();
    let painted = s.grid().clone();
    Stepper::seek(&mut s, 4);
    assert_ne!(s.grid(), &painted, "going back shows the grid as it was");
    s.reset();
    assert_eq!(s.grid(), &painted);
    assert_eq!(s.edits(), 0);
    let fresh = {
        let mut f = Lpa::new(painted.clone(), Point::new(0, 4), Point::new(11, 4), s.config()).unwrap();
        f.run();
        snap(&f)
    };
    s.run();
    assert_eq!(difference(&snap(&s), &fresh), None);

    // Going back and painting moves the later strokes to now: nothing painted is lost.
    Stepper::seek(&mut s, 12);
    s.paint(&[Point::new(9, 2)], WALL).unwrap();
    Stepper::seek(&mut s, 5);
    s.paint(&[Point::new(2, 2)], WALL).unwrap();
    assert_eq!(s.grid().get(Point::new(9, 2)), Some(WALL), "the later stroke is made again at step 5");
    s.set_ends(Point::new(0, 0), Point::new(11, 8)).unwrap();
    assert_eq!(s.grid().get(Point::new(9, 2)), Some(WALL));
    assert_eq!(s.grid().get(Point::new(2, 2)), Some(WALL));
    assert_eq!(s.run(), Status::Found);
    let best = optimum(s.grid(), Point::new(0, 0), Point::new(11, 8), Diagonal::NoCornerCutting, Costs::Real).unwrap();
    assert!(same(s.cost().unwrap(), best));

    // A stroke at step 0 changes the map itself.
    s.reset();
    s.paint(&[Point::new(5, 5)], WALL).unwrap();
    assert_eq!(s.repair(), None);
    assert_eq!(s.edits(), 0);
    s.run();
    Stepper::seek(&mut s, 0);
    assert_eq!(s.grid().get(Point::new(5, 5)), Some(WALL));
}

#[test]
fn the_fresh_count_is_a_fresh_astar_on_the_edited_grid_and_walls_skip_the_ends() {
    let (grid, problems) = load("dao/arena.map");
    let p = &problems[problems.len() - 1];
    let c = config(Diagonal::NoCornerCutting, Costs::Real);
    let mut s = Lpa::new(grid, p.start, p.goal, c).unwrap();
    s.run();
    assert!((s.cost().unwrap() - p.optimal).abs() <= p.tolerance);
    let first = s.expanded();
    assert_eq!(s.paint(&[p.start, p.goal], WALL).unwrap(), 0, "walls never cover the ends");
    let middle = s.grid().point_at(s.path_indices()[s.path_indices().len() / 2] as usize);
    assert_eq!(s.paint(&[middle], WALL).unwrap(), 1);
    s.run();
    let mut astar = Search::new(
        s.grid().clone(),
        p.start,
        p.goal,
        SearchConfig::new(Algorithm::AStar).heuristic(c.heuristic).diagonal(c.diagonal),
    )
    .unwrap();
    astar.run();
    let repair = s.repair().unwrap();
    assert_eq!(repair.fresh_expanded, astar.expanded());
    assert_eq!(repair.re_expanded, s.expanded() - first);
    assert!(same(astar.cost().unwrap(), s.cost().unwrap()));
}

#[test]
fn settings_lpa_star_cannot_honour_are_refused_with_a_message() {
    let grid = Grid::new(4, 4).unwrap();
    let (a, b) = (Point::new(0, 0), Point::new(3, 3));
    let weighted = SearchConfig::new(Algorithm::Lpa).weight(1.5);
    match build(grid.clone(), a, b, weighted) {
        Err(SearchError::Unsupported(why)) => assert!(why.contains("weight"), "{why}"),
        other => panic!("{:?}", other.err()),
    }
    let manhattan = SearchConfig::new(Algorithm::Lpa).heuristic(Heuristic::Manhattan);
    match build(grid.clone(), a, b, manhattan) {
        Err(SearchError::Unsupported(why)) => assert!(why.contains("manhattan") && why.contains("octile"), "{why}"),
        other => panic!("{:?}", other.err()),
    }
    let mut walled = grid.clone();
    walled.set(b, WALL).unwrap();
    assert!(matches!(build(walled, a, b, SearchConfig::new(Algorithm::Lpa)), Err(SearchError::OnWall { .. })));
    assert!(build(grid.clone(), a, Point::new(4, 0), SearchConfig::new(Algorithm::Lpa)).is_err());
    // Every admissible heuristic runs, and builds through `build`.
    for &h in Heuristic::ALL {
        let c = SearchConfig::new(Algorithm::Lpa).heuristic(h).diagonal(Diagonal::Never);
        let mut s = build(grid.clone(), a, b, c).unwrap();
        assert_eq!(s.run(), Status::Found);
        assert_eq!(s.cost(), Some(6.0));
    }
}

#[test]
fn the_overlay_caps_its_inconsistent_marks_and_says_so() {
    let grid = Grid::new(120, 120).unwrap();
    let c = SearchConfig::new(Algorithm::Lpa).heuristic(Heuristic::Zero);
    let mut s = Lpa::new(grid, Point::new(0, 0), Point::new(119, 119), c).unwrap();
    s.run();
    // Terrain over a large block changes the cost of every cell in it.
    let block: Vec<Point> = (10..110).flat_map(|y| (10..110).map(move |x| Point::new(x, y))).collect();
    assert_eq!(s.paint(&block, 2).unwrap(), 10_000);
    let overlay = s.overlay();
    let marks = overlay.marks.iter().filter(|m| m.kind == MarkKind::Inconsistent).count();
    assert_eq!(marks, 5_000);
    let note = &overlay.notes.iter().find(|(k, _)| *k == "inconsistent").unwrap().1;
    assert!(note.contains("first 5000") && s.open_count() > 5_000, "{note}");
    assert_eq!(s.cell_values().unwrap().label, "rhs");
    s.run();
    let best =
        optimum(s.grid(), Point::new(0, 0), Point::new(119, 119), Diagonal::NoCornerCutting, Costs::Real).unwrap();
    assert!(same(s.cost().unwrap(), best));
}
