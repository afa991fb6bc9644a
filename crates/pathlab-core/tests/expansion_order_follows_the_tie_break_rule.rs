//! The exact order of expansions on tiny maps, derived by hand from the documented rules:
//! neighbours are examined N, E, S, W, NE, SE, SW, NW; BFS takes the first opened, DFS the
//! last pushed; A* the lowest f, then the highest g, then the first opened; Dijkstra the lowest
//! g, then the first opened; greedy the lowest h, then the first opened.

mod common;

use pathlab_core::grid::{Costs, Diagonal, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, EventLog, Opened, Search, SearchConfig, Status, StepEvent, Stepper};

fn p(x: usize, y: usize) -> Point {
    Point::new(x, y)
}

/// Steps to the end; returns the expanded points in order and the final event.
fn trace(search: &mut Search) -> (Vec<Point>, StepEvent) {
    let mut order = Vec::new();
    loop {
        match search.step() {
            StepEvent::Expanded(at) => order.push(at),
            other => return (order, other),
        }
    }
}

fn search(text: &str, config: SearchConfig) -> Search {
    let maze = common::draw("tiny", text, &[]);
    Search::new(maze.grid, maze.start, maze.goal, config).unwrap()
}

const OPEN_3X3: &str = "
    S..
    ...
    ..G
";

// BFS, 4-connected, start (0,0), goal (2,2). Queue after each expansion:
//   (0,0): opens E (1,0), S (0,1)                    queue (1,0) (0,1)
//   (1,0): E (2,0), S (1,1); W closed                (0,1) (2,0) (1,1)
//   (0,1): E (1,1) already open; S (0,2)             (2,0) (1,1) (0,2)
//   (2,0): S (2,1)                                   (1,1) (0,2) (2,1)
//   (1,1): E (2,1) open; S (1,2)                     (0,2) (2,1) (1,2)
//   (0,2): E (1,2) open                              (2,1) (1,2)
//   (2,1): S (2,2) = goal, parent (2,1)              (1,2) (2,2)
//   (1,2): E (2,2) open                              (2,2)
//   pop (2,2): found. Path (0,0) (1,0) (2,0) (2,1) (2,2), cost 4.
#[test]
fn bfs_four_connected_open_3x3() {
    let mut s = search(OPEN_3X3, SearchConfig::new(Algorithm::Bfs).diagonal(Diagonal::Never));
    let (order, end) = trace(&mut s);
    assert_eq!(order, vec![p(0, 0), p(1, 0), p(0, 1), p(2, 0), p(1, 1), p(0, 2), p(2, 1), p(1, 2)]);
    assert_eq!(end, StepEvent::Found { cost: 4.0 });
    assert_eq!(s.path().unwrap().points, vec![p(0, 0), p(1, 0), p(2, 0), p(2, 1), p(2, 2)]);
    assert_eq!((s.expanded(), s.steps()), (8, 9));
}

// BFS, 8-connected (no corner cutting), same map:
//   (0,0): E (1,0), S (0,1), SE (1,1)                queue (1,0) (0,1) (1,1)
//   (1,0): E (2,0), SE (2,1) (S, SW already open)    (0,1) (1,1) (2,0) (2,1)
//   (0,1): S (0,2), SE (1,2)                         (1,1) (2,0) (2,1) (0,2) (1,2)
//   (1,1): SE (2,2) = goal, parent (1,1)             ... (2,2)
//   (2,0), (2,1), (0,2), (1,2): nothing new; then pop (2,2).
// Path (0,0) (1,1) (2,2), cost 2 sqrt2.
#[test]
fn bfs_eight_connected_open_3x3() {
    let mut s = search(OPEN_3X3, SearchConfig::new(Algorithm::Bfs).diagonal(Diagonal::NoCornerCutting));
    let (order, end) = trace(&mut s);
    assert_eq!(order, vec![p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(2, 0), p(2, 1), p(0, 2), p(1, 2)]);
    // Two diagonal moves (a diagonal is sqrt(2) to 29 binary places).
    let StepEvent::Found { cost } = end else { panic!("{end:?}") };
    assert!((cost - 2.0 * std::f64::consts::SQRT_2).abs() < 1e-10, "{cost}");
    assert_eq!(s.path().unwrap().points, vec![p(0, 0), p(1, 1), p(2, 2)]);
}

// DFS, 4-connected: neighbours are pushed N, E, S, W, so the last pushed (W, then S) pops first.
//   (0,0): push (1,0), (0,1)                         stack (1,0) (0,1)
//   (0,1): push (1,1), (0,2)                         (1,0) (1,1) (0,2)
//   (0,2): push (1,2)                                (1,0) (1,1) (1,2)
//   (1,2): push (1,1) again (parent (1,2)), (2,2)    (1,0) (1,1) (1,1) (2,2)
//   pop (2,2): found. Path (0,0) (0,1) (0,2) (1,2) (2,2), cost 4.
#[test]
fn dfs_four_connected_open_3x3() {
    let mut s = search(OPEN_3X3, SearchConfig::new(Algorithm::Dfs).diagonal(Diagonal::Never));
    let (order, end) = trace(&mut s);
    assert_eq!(order, vec![p(0, 0), p(0, 1), p(0, 2), p(1, 2)]);
    assert_eq!(end, StepEvent::Found { cost: 4.0 });
    assert_eq!(s.path().unwrap().points, vec![p(0, 0), p(0, 1), p(0, 2), p(1, 2), p(2, 2)]);
    // (1,1) was re-pushed by (1,2) and took it as parent.
    assert_eq!(s.parents()[4], 7); // (1,1) is index 4, (1,2) index 7
}

// Dijkstra, 4-connected: ties on g go to the first opened.
//   (0,0) g0: (1,0) g1 #1, (0,1) g1 #2
//   (1,0) g1 #1: (2,0) g2 #3, (1,1) g2 #4
//   (0,1) g1 #2: (1,1) no better; (0,2) g2 #5
//   (2,0) g2 #3: (2,1) g3 #6
//   (1,1) g2 #4: (2,1) no better; (1,2) g3 #7
//   (0,2) g2 #5: nothing better
//   (2,1) g3 #6: (2,2) g4 #8
//   (1,2) g3 #7: nothing better; then pop (2,2).
#[test]
fn dijkstra_four_connected_open_3x3() {
    let mut s = search(OPEN_3X3, SearchConfig::new(Algorithm::Dijkstra).diagonal(Diagonal::Never));
    let (order, end) = trace(&mut s);
    assert_eq!(order, vec![p(0, 0), p(1, 0), p(0, 1), p(2, 0), p(1, 1), p(0, 2), p(2, 1), p(1, 2)]);
    assert_eq!(end, StepEvent::Found { cost: 4.0 });
}

const WALL_4X3: &str = "
    ....
    S#.G
    ....
";

// A*, Manhattan, 4-connected, real costs; start (0,1), goal (3,1), wall (1,1).
// h(x,y) = |3-x| + |1-y|.
//   step 1 (0,1) g0: N (0,0) g1 h4 f5 #1; S (0,2) g1 h4 f5 #2 (E is the wall).
//   step 2: f and g tie, (0,0) opened first.  E (1,0) g2 h3 f5 #3.
//   step 3: (0,2) f5 g1 vs (1,0) f5 g2 -> higher g: (1,0).  E (2,0) g3 h2 f5 #4.
//   step 4: (2,0) (g3).  E (3,0) g4 h1 f5 #5; S (2,1) g4 h1 f5 #6.
//   step 5: (3,0) and (2,1) tie on f and g; (3,0) opened first.  S (3,1) = goal g5 h0 f5 #7.
//   step 6: (0,2) g1, (2,1) g4, goal g5, all f5 -> highest g: the goal. Found, cost 5.
// First-opened-only would take (0,2) at step 3; last-opened would take (0,2) at step 2.
#[test]
fn astar_manhattan_four_connected_breaks_ties_by_higher_g_then_first_opened() {
    let config = SearchConfig::new(Algorithm::AStar).heuristic(Heuristic::Manhattan).diagonal(Diagonal::Never);
    let mut s = search(WALL_4X3, config);
    let mut log = EventLog::default();
    assert_eq!(s.step_with(&mut log), StepEvent::Expanded(p(0, 1)));
    // (0,1) is index 4; (0,0) index 0; (0,2) index 8. Opened in the order N then S.
    assert_eq!(log.expanded, Some(4));
    assert_eq!(
        log.opened,
        vec![
            Opened { node: 0, parent: 4, old_g: None, new_g: 1.0 },
            Opened { node: 8, parent: 4, old_g: None, new_g: 1.0 },
        ]
    );
    let (order, end) = trace(&mut s);
    assert_eq!(order, vec![p(0, 0), p(1, 0), p(2, 0), p(3, 0)]);
    assert_eq!(end, StepEvent::Found { cost: 5.0 });
    assert_eq!((s.steps(), s.expanded()), (6, 5));
    assert_eq!(s.path().unwrap().points, vec![p(0, 1), p(0, 0), p(1, 0), p(2, 0), p(3, 0), p(3, 1)]);
    // Left open: (0,2) and (2,1).
    assert_eq!(s.open_count(), 2);
}

// Greedy, Manhattan, 4-connected, same map: lowest h, then first opened.
//   (0,1): (0,0) h4 #1, (0,2) h4 #2.  (0,0) first: (1,0) h3.  (1,0): (2,0) h2.
//   (2,0): (3,0) h1 #5, (2,1) h1 #6.  (3,0) first: (3,1) h0.  Pop goal.
#[test]
fn greedy_manhattan_four_connected() {
    let config = SearchConfig::new(Algorithm::Greedy).heuristic(Heuristic::Manhattan).diagonal(Diagonal::Never);
    let mut s = search(WALL_4X3, config);
    let (order, end) = trace(&mut s);
    assert_eq!(order, vec![p(0, 1), p(0, 0), p(1, 0), p(2, 0), p(3, 0)]);
    assert_eq!(end, StepEvent::Found { cost: 5.0 });
}

// Dijkstra, 8-connected (no corner cutting), real costs, mud of 5 at (1,2), goal (2,2):
//   S..
//   ...
//   .5G
//   step 1 (0,0): E (1,0) g1 #1, S (0,1) g1 #2, SE (1,1) g sqrt2 #3.
//   step 2 (1,0) g1 (#1 before #2): E (2,0) g2, SE (2,1) g 1+sqrt2.
//   step 3 (0,1) g1: S (0,2) g2; SE (1,2) enters mud diagonally: g 1 + 5 sqrt2 = 8.07.
//   step 4 (1,1) g sqrt2: S (1,2) straight into mud: sqrt2 + 5 = 6.41 < 8.07: improved;
//          SE (2,2) = goal g 2 sqrt2.
//   step 5 (2,0) g2, step 6 (0,2) g2 (#4 before #6), step 7 (2,1) g 2.41, step 8 goal 2.83.
#[test]
fn dijkstra_eight_connected_improves_a_mud_cell() {
    // The real cost model's sqrt(2): 759250125 / 2^29, the multiple of 2^-29 nearest it.
    let r2 = 759_250_125.0 / 536_870_912.0;
    assert!((r2 - std::f64::consts::SQRT_2).abs() < 1.2e-11);
    let config = SearchConfig::new(Algorithm::Dijkstra).diagonal(Diagonal::NoCornerCutting).costs(Costs::Real);
    let mut s = search("S..\n...\n.5G", config);
    let mut log = EventLog::default();
    let mut order = Vec::new();
    for _ in 0..3 {
        log.clear();
        if let StepEvent::Expanded(at) = s.step_with(&mut log) {
            order.push(at);
        }
    }
    assert_eq!(
        log.opened,
        vec![
            Opened { node: 6, parent: 3, old_g: None, new_g: 2.0 },
            Opened { node: 7, parent: 3, old_g: None, new_g: 1.0 + 5.0 * r2 },
        ]
    );
    log.clear();
    assert_eq!(s.step_with(&mut log), StepEvent::Expanded(p(1, 1)));
    assert_eq!(
        log.opened,
        vec![
            Opened { node: 7, parent: 4, old_g: Some(1.0 + 5.0 * r2), new_g: r2 + 5.0 },
            Opened { node: 8, parent: 4, old_g: None, new_g: 2.0 * r2 },
        ]
    );
    order.push(p(1, 1));
    let (rest, end) = trace(&mut s);
    order.extend(rest);
    assert_eq!(order, vec![p(0, 0), p(1, 0), p(0, 1), p(1, 1), p(2, 0), p(0, 2), p(2, 1)]);
    assert_eq!(end, StepEvent::Found { cost: 2.0 * r2 });
    assert_eq!(s.status(), Status::Found);
    // The improved mud cell kept its better parent.
    assert_eq!((s.g_values()[7], s.parents()[7]), (r2 + 5.0, 4));
}
