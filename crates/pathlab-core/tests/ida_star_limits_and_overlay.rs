//! IDA* worked by hand step by step, its visit limit on large maps (a clear "gave up", not
//! "no path"), and what the page reads: threshold, next threshold, iteration, stack.

mod common;
mod oracle;

use oracle::{optimum, same};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::ida::{Ida, DEFAULT_VISIT_LIMIT};
use pathlab_core::search::{build, Algorithm, CellState, MarkKind, SearchConfig, Status, StepEvent, Stepper};

fn note(s: &dyn Stepper, key: &str) -> Option<String> {
    s.overlay().notes.into_iter().find(|(k, _)| *k == key).map(|(_, v)| v)
}

fn stack_marks(s: &dyn Stepper) -> Vec<u32> {
    s.overlay().marks.iter().filter(|m| m.kind == MarkKind::Stack).map(|m| m.cell).collect()
}

// The 3x3 room with a pillar, 4-connected, Manhattan, real costs:
//
//        x = 0 1 2
//   y=0      . . .
//   y=1      S # G       S = (0,1), G = (2,1)
//   y=2      . . .
//
// Iteration 1, threshold f(S) = h(S) = 2:
//   1. visit S (g 0, f 2): pushed.     Moves tried in order N, E, S, W.
//   2. visit (0,0) (g 1, h 3, f 4 > 2): cut off; next threshold 4.
//      (E of S is the pillar, not a move.)
//   3. visit (0,2) (g 1, h 3, f 4): cut off.   (W of S is outside.)
// Iteration 2, threshold 4 (S has no moves left: popped, the stack is empty):
//   4. visit S: pushed.
//   5. visit (0,0) (f 4): pushed.
//   6. from (0,0): N outside, E (1,0) (g 2, h 2, f 4): pushed.
//   7. from (1,0): N outside, E (2,0) (g 3, h 1, f 4): pushed.
//   8. from (2,0): N, E outside, S (2,1) = G (g 4): found, cost 4.
#[test]
fn the_pillar_room_step_by_step() {
    let mut grid = Grid::new(3, 3).unwrap();
    grid.set(Point::new(1, 1), WALL).unwrap();
    let config = SearchConfig::new(Algorithm::Ida).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
    let mut s = build(grid.clone(), Point::new(0, 1), Point::new(2, 1), config).unwrap();
    let i = |x, y| grid.index(Point::new(x, y)) as u32;
    assert_eq!(s.status(), Status::Ready);

    let expect =
        |s: &mut Box<dyn Stepper>, event: StepEvent, iteration: &str, threshold: &str, next: &str, stack: Vec<u32>| {
            assert_eq!(s.step(), event, "step {}", s.steps());
            assert_eq!(note(s.as_ref(), "iteration").as_deref(), Some(iteration), "step {}", s.steps());
            assert_eq!(note(s.as_ref(), "threshold").as_deref(), Some(threshold), "step {}", s.steps());
            assert_eq!(note(s.as_ref(), "next threshold").as_deref(), Some(next), "step {}", s.steps());
            assert_eq!(stack_marks(s.as_ref()), stack, "step {}", s.steps());
        };
    let p = Point::new;
    expect(&mut s, StepEvent::Expanded(p(0, 1)), "1", "2", "none yet", vec![i(0, 1)]);
    assert_eq!(s.states()[i(0, 1) as usize], CellState::Current as u8);
    expect(&mut s, StepEvent::Expanded(p(0, 0)), "1", "2", "4", vec![i(0, 1)]);
    assert_eq!(s.states()[i(0, 1) as usize], CellState::Open as u8, "on the stack");
    assert_eq!(s.states()[i(0, 0) as usize], CellState::Current as u8, "just visited (and cut off)");
    expect(&mut s, StepEvent::Expanded(p(0, 2)), "1", "2", "4", vec![i(0, 1)]);
    assert_eq!(s.states()[i(0, 0) as usize], CellState::Closed as u8, "visited in this iteration");
    expect(&mut s, StepEvent::Expanded(p(0, 1)), "2", "4", "none yet", vec![i(0, 1)]);
    assert_eq!(s.states()[i(0, 0) as usize], CellState::Unseen as u8, "a new iteration starts clean");
    expect(&mut s, StepEvent::Expanded(p(0, 0)), "2", "4", "none yet", vec![i(0, 1), i(0, 0)]);
    expect(&mut s, StepEvent::Expanded(p(1, 0)), "2", "4", "none yet", vec![i(0, 1), i(0, 0), i(1, 0)]);
    expect(&mut s, StepEvent::Expanded(p(2, 0)), "2", "4", "none yet", vec![i(0, 1), i(0, 0), i(1, 0), i(2, 0)]);
    assert_eq!(s.g_values()[i(2, 0) as usize], 3.0);
    assert_eq!(s.parents()[i(2, 0) as usize], i(1, 0));
    assert_eq!(s.open_count(), 4, "the stack depth");
    assert_eq!(s.step(), StepEvent::Found { cost: 4.0 });
    assert_eq!(s.path_indices(), &[i(0, 1), i(0, 0), i(1, 0), i(2, 0), i(2, 1)]);
    assert_eq!(s.steps(), 8);
    assert_eq!(s.expanded(), 5, "visits that pushed a cell: S, then S, (0,0), (1,0), (2,0)");
    assert!(s.gave_up().is_none() && note(s.as_ref(), "stopped").is_none());
    assert_eq!(s.step(), StepEvent::Finished);

    // Replay lands on the same state at every step.
    for k in 0..=8 {
        let mut fresh = build(grid.clone(), Point::new(0, 1), Point::new(2, 1), config).unwrap();
        fresh.advance(k);
        s.seek(k);
        assert_eq!((s.steps(), s.states(), s.overlay()), (fresh.steps(), fresh.states(), fresh.overlay()), "seek({k})");
    }
}

/// A 256x256 map, open but for a wall across the middle with one gap at the far end: A*
/// finds the way round at once, IDA* runs into its visit limit, says so, and does not claim
/// that there is no path.
#[test]
fn ida_star_gives_up_on_a_large_map_with_a_clear_message() {
    let n = 256;
    let mut grid = Grid::new(n, n).unwrap();
    for x in 0..n - 1 {
        grid.set(Point::new(x, n / 2), WALL).unwrap();
    }
    let (start, goal) = (Point::new(10, 10), Point::new(10, n - 10));
    let config = SearchConfig::new(Algorithm::Ida);
    let mut astar = build(grid.clone(), start, goal, SearchConfig::new(Algorithm::AStar)).unwrap();
    assert_eq!(astar.run(), Status::Found);
    assert!(astar.gave_up().is_none(), "other searches never give up");

    let mut s = build(grid, start, goal, config).unwrap();
    let started = std::time::Instant::now();
    assert_eq!(s.run(), Status::NoPath);
    let took = started.elapsed();
    let why = s.gave_up().expect("IDA* says it gave up");
    assert!(why.contains(&format!("limit of {DEFAULT_VISIT_LIMIT} node visits")), "{why}");
    assert!(why.contains("may still be reachable"), "{why}");
    assert!(why.contains("use A*"), "{why}");
    assert_eq!(note(s.as_ref(), "stopped").as_deref(), Some(why.as_str()));
    let visits = note(s.as_ref(), "visits").unwrap();
    assert_eq!(visits, format!("{DEFAULT_VISIT_LIMIT} of at most {DEFAULT_VISIT_LIMIT}"));
    assert_eq!(s.steps(), DEFAULT_VISIT_LIMIT + 1, "one step per visit, then the step that stops");
    assert!(s.cost().is_none() && s.path_indices().is_empty());
    eprintln!("IDA* reached its limit of {DEFAULT_VISIT_LIMIT} visits in {took:?} (this build)");

    // Going back one step from the end resumes the search as it was before the limit.
    s.back();
    assert_eq!(s.status(), Status::Searching);
    assert!(s.gave_up().is_none() && note(s.as_ref(), "stopped").is_none());
}

#[test]
fn the_limit_is_configurable_and_stopping_at_it_is_not_no_path() {
    // Reachable only the long way round: a small limit stops IDA*, a large one lets it find
    // the optimum.
    let mut grid = Grid::new(7, 4).unwrap();
    for y in 0..3 {
        grid.set(Point::new(3, y), WALL).unwrap();
    }
    let (start, goal) = (Point::new(1, 0), Point::new(5, 0));
    let config = SearchConfig::new(Algorithm::Ida).diagonal(Diagonal::NoCornerCutting).costs(Costs::Integer);
    let best = optimum(&grid, start, goal, Diagonal::NoCornerCutting, Costs::Integer).unwrap();

    let mut small = Ida::new(grid.clone(), start, goal, config).unwrap().with_visit_limit(50);
    assert_eq!(small.visit_limit(), 50);
    assert_eq!(small.run(), Status::NoPath);
    assert_eq!(small.visits(), 50);
    assert!(small.gave_up().unwrap().contains("limit of 50 node visits"));
    assert_eq!(Stepper::gave_up(&small), pathlab_core::search::SpaceStepper::gave_up(&small));

    let mut large = Ida::new(grid, start, goal, config).unwrap();
    assert_eq!(large.visit_limit(), DEFAULT_VISIT_LIMIT);
    assert_eq!(large.run(), Status::Found);
    assert!(same(large.cost().unwrap(), best));
    assert!(large.iteration() > 1, "the detour needs several thresholds");
    assert!(large.visits() > 50);
    eprintln!("the detour took {} visits in {} iterations", large.visits(), large.iteration());

    // Truly no path, found out well within the limit: no path, and no "gave up".
    let mut boxed = Grid::new(5, 3).unwrap();
    for y in 0..3 {
        boxed.set(Point::new(2, y), WALL).unwrap();
    }
    for &rule in Diagonal::ALL {
        let config = SearchConfig::new(Algorithm::Ida).diagonal(rule).heuristic(Heuristic::default_for(rule));
        let mut s = build(boxed.clone(), Point::new(0, 1), Point::new(4, 1), config).unwrap();
        assert_eq!(s.run(), Status::NoPath, "{rule}");
        assert!(s.gave_up().is_none(), "{rule}");
        assert!(note(s.as_ref(), "stopped").is_none());
    }
}

/// Small is not always enough: on this 8x8 grid with a little terrain (drawn by the random
/// tests in `ida_star_on_small_grids.rs`) the octile estimate ignores the terrain's cost, so
/// thresholds rise in many small steps, and IDA* needs over a million visits. With the default
/// limit it stops and says so; with a higher one it finds the cheapest path.
#[test]
fn an_8x8_grid_with_terrain_needs_more_than_the_default_limit() {
    let maze = common::draw(
        "8x8 with terrain",
        "
        S....##.
        .##...#.
        ........
        #....#.#
        ......#.
        ....##G.
        ##..232.
        ....22..
        ",
        &[],
    );
    let (rule, costs) = (Diagonal::NoCornerCutting, Costs::Real);
    let best = optimum(&maze.grid, maze.start, maze.goal, rule, costs).unwrap();
    let config = SearchConfig::new(Algorithm::Ida).diagonal(rule).costs(costs).heuristic(Heuristic::Octile);

    let mut s = build(maze.grid.clone(), maze.start, maze.goal, config).unwrap();
    assert_eq!(s.run(), Status::NoPath);
    let why = s.gave_up().expect("stopped at the default limit");
    assert!(why.contains(&format!("limit of {DEFAULT_VISIT_LIMIT} node visits")), "{why}");

    let mut more =
        Ida::new(maze.grid, maze.start, maze.goal, config).unwrap().with_visit_limit(10 * DEFAULT_VISIT_LIMIT);
    assert_eq!(more.run(), Status::Found);
    assert!(same(more.cost().unwrap(), best), "cost {:?} but Dijkstra says {best}", more.cost());
    assert!(more.visits() > DEFAULT_VISIT_LIMIT);
    eprintln!("{} visits in {} iterations for a cost of {best}", more.visits(), more.iteration());
}

#[test]
fn ida_star_moves_and_paints_like_the_others() {
    let grid = Grid::new(6, 4).unwrap();
    let config = SearchConfig::new(Algorithm::Ida).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
    let mut s = build(grid, Point::new(0, 0), Point::new(5, 0), config).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(5.0));
    assert_eq!(s.paint(&[Point::new(2, 0), Point::new(2, 1), Point::new(0, 0)], WALL).unwrap(), 2);
    assert_eq!(s.status(), Status::Ready);
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(9.0), "round the wall: down 2, across 5, up 2");
    s.set_ends(Point::new(5, 3), Point::new(5, 3)).unwrap();
    assert_eq!(s.step(), StepEvent::Found { cost: 0.0 });
    assert_eq!(s.path_indices().len(), 1);
    assert!(s.set_ends(Point::new(2, 0), Point::new(5, 3)).is_err(), "a start on a wall is refused");
}
