//! The course's 5x5 example, worked by hand with the integer 10/14 costs, for every diagonal
//! rule; and A*'s first expansions on it (Manhattan, 4-connected) traced by hand.

mod oracle;

use oracle::{optimum, walk};
use pathlab_core::formats::course;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, CellState, Search, SearchConfig, Status, StepEvent, Stepper};

/// The course's data file: 5 rows, 5 columns, 0 open, 1 wall, A start, B goal.
const COURSE_5X5: &str = "5\n5\n00000\n001A0\n00110\nB0000\n00000\n";

//       x=0 1 2 3 4
//  y=0    . . . . .
//  y=1    . . # A .        A = start (3,1)
//  y=2    . . # # .        walls (2,1), (2,2), (3,2)
//  y=3    B . . . .        B = goal  (0,3)
//  y=4    . . . . .
//
// dx = 3, dy = 2 from A to B. Straight 10, diagonal 14.
//
// Any path must cross column x = 2, whose open cells are (2,0), (2,3) and (2,4).
//
// `always` (a diagonal needs only its target open):
//   over the top: (3,1) -NW-> (2,0) -SW-> (1,1) -SW-> (0,2) -S-> (0,3) = 14+14+14+10 = 52.
//     (3,1)->(2,0) is the cheapest way to (2,0) (one move), and from (2,0) to (0,3) is
//     dx 2, dy 3 = octile 14+14+10 = 38 with nothing in the way: 14 + 38 = 52.
//   under the bottom: (3,1) -SE-> (4,2) -SW-> (3,3) -W-> (2,3) -W-> (1,3) -W-> (0,3)
//     = 14+14+10+10+10 = 58 (from (3,1), (2,3) is three moves away since (3,2), (2,2) are walls).
//   best: 52.
// `at-most-one-blocked`: (3,1)->(2,0) has sides (3,0) open and (2,1) wall: allowed;
//   (2,0)->(1,1) has sides (1,0) open and (2,1) wall: allowed; so the same 52.
// `no-corner-cutting`: both diagonals above touch the wall (2,1): illegal.
//   over the top: (3,1) -N-> (3,0) -W-> (2,0) -W-> (1,0) -SW-> (0,1) -S-> (0,2) -S-> (0,3)
//     = 10+10+10+14+10+10 = 64. ((2,0)'s only way on is W to (1,0); from (1,0) to (0,3)
//     is dx 1, dy 3 = 14+10+10 = 34 with every side open: 20 + 10 + 34 = 64.)
//   under the bottom: (3,1)->(4,1)->(4,2) = 20 ((3,1)->(4,2) cuts (3,2)); (4,2)->(3,3) cuts
//     (3,2) too, so (4,2)->(4,3)->(3,3) = 20, then W x3 = 30: 70.
//   best: 64.
// `never` (4-connected): from A, W (2,1) and S (3,2) are walls, so a 5-move path (only W and
//   S moves) is impossible; path lengths have the parity of dx + dy = 5, so at least 7 moves:
//   (3,1)->(3,0)->(2,0)->(1,0)->(0,0)->(0,1)->(0,2)->(0,3) = 7 x 10 = 70.
const HAND: [(Diagonal, f64); 4] = [
    (Diagonal::Always, 52.0),
    (Diagonal::AtMostOneBlocked, 52.0),
    (Diagonal::NoCornerCutting, 64.0),
    (Diagonal::Never, 70.0),
];

fn example() -> (Grid, Point, Point) {
    let map = course::parse(COURSE_5X5).unwrap();
    (map.grid, map.start.unwrap(), map.goal.unwrap())
}

#[test]
fn the_data_file_reads_as_drawn() {
    let (grid, start, goal) = example();
    assert_eq!((grid.width(), grid.height()), (5, 5));
    assert_eq!(start, Point::new(3, 1));
    assert_eq!(goal, Point::new(0, 3));
    let walls: Vec<Point> = (0..25).map(|i| grid.point_at(i)).filter(|&p| !grid.is_passable(p)).collect();
    assert_eq!(walls, vec![Point::new(2, 1), Point::new(2, 2), Point::new(3, 2)]);
}

#[test]
fn optimal_searches_match_the_hand_costs_under_every_rule() {
    let (grid, start, goal) = example();
    for (rule, want) in HAND {
        // Dijkstra, and A* with every heuristic admissible for the rule.
        let mut configs = vec![SearchConfig::new(Algorithm::Dijkstra)];
        for &h in Heuristic::ALL {
            if h.is_admissible(rule, Costs::Integer) {
                configs.push(SearchConfig::new(Algorithm::AStar).heuristic(h));
            }
        }
        for config in configs {
            let config = config.diagonal(rule).costs(Costs::Integer);
            let mut search = Search::new(grid.clone(), start, goal, config).unwrap();
            assert_eq!(search.run(), Status::Found);
            let path = search.path().unwrap();
            assert_eq!(path.cost, want, "{rule} {} {}: path {:?}", config.algorithm, config.heuristic, path.points);
            let moves = walk(&grid, rule, Costs::Integer, start, goal, &path.points).unwrap();
            assert_eq!(moves, want, "{rule}: the moves of {:?}", path.points);
        }
        // The hand value agrees with the independent reference too.
        assert_eq!(optimum(&grid, start, goal, rule, Costs::Integer), Some(want), "{rule}");
    }
}

#[test]
fn the_hand_routes_are_legal_and_cost_what_the_hand_says() {
    let (grid, start, goal) = example();
    let p = |x, y| Point::new(x, y);
    let over_the_top = [p(3, 1), p(2, 0), p(1, 1), p(0, 2), p(0, 3)];
    for rule in [Diagonal::Always, Diagonal::AtMostOneBlocked] {
        assert_eq!(walk(&grid, rule, Costs::Integer, start, goal, &over_the_top), Ok(52.0));
    }
    assert!(walk(&grid, Diagonal::NoCornerCutting, Costs::Integer, start, goal, &over_the_top).is_err());
    let around = [p(3, 1), p(3, 0), p(2, 0), p(1, 0), p(0, 1), p(0, 2), p(0, 3)];
    assert_eq!(walk(&grid, Diagonal::NoCornerCutting, Costs::Integer, start, goal, &around), Ok(64.0));
    let square = [p(3, 1), p(3, 0), p(2, 0), p(1, 0), p(0, 0), p(0, 1), p(0, 2), p(0, 3)];
    assert_eq!(walk(&grid, Diagonal::Never, Costs::Integer, start, goal, &square), Ok(70.0));
    // The core's own move check agrees on the two corner-cutting diagonals.
    assert!(grid.is_legal_move(p(3, 1), p(2, 0), Diagonal::AtMostOneBlocked));
    assert!(!grid.is_legal_move(p(3, 1), p(2, 0), Diagonal::NoCornerCutting));
    assert!(!grid.is_legal_move(p(3, 1), p(2, 0), Diagonal::Never));
}

#[test]
fn real_costs_give_the_same_routes_scaled() {
    // The same hand routes with straight 1 and diagonal sqrt(2):
    // always / at-most-one-blocked 3 sqrt2 + 1; no-corner-cutting 5 + sqrt2; never 7.
    let (grid, start, goal) = example();
    let r2 = std::f64::consts::SQRT_2;
    for (rule, want) in [
        (Diagonal::Always, 3.0 * r2 + 1.0),
        (Diagonal::AtMostOneBlocked, 3.0 * r2 + 1.0),
        (Diagonal::NoCornerCutting, 5.0 + r2),
        (Diagonal::Never, 7.0),
    ] {
        let config = SearchConfig::new(Algorithm::AStar).heuristic(Heuristic::Octile).diagonal(rule);
        let mut search = Search::new(grid.clone(), start, goal, config).unwrap();
        search.run();
        let cost = search.cost().unwrap();
        assert!((cost - want).abs() < 1e-9, "{rule}: {cost} vs {want}");
    }
}

// A*, Manhattan, 4-connected, integer costs. h(x, y) = 10 * (|x - 0| + |y - 3|).
// Tie-break: lowest f, then highest g, then first opened. Neighbours N, E, S, W.
//
// step 1: expand A (3,1), g 0, h 10*(3+2) = 50.
//   N (3,0): g 10, h 10*(3+3) = 60, f 70  (opened 1st)
//   E (4,1): g 10, h 10*(4+2) = 60, f 70  (opened 2nd)
//   S (3,2) wall, W (2,1) wall.
// step 2: f 70 both, g 10 both -> first opened: (3,0).
//   E (4,0): g 20, h 70, f 90. S (3,1) closed. W (2,0): g 20, h 10*(2+3) = 50, f 70.
// step 3: f 70: (4,1) g 10, (2,0) g 20 -> higher g: (2,0).
//   E closed, S (2,1) wall, W (1,0): g 30, h 40, f 70.
// step 4: (1,0) (f 70, g 30).
//   E closed, S (1,1): g 40, h 30, f 70; W (0,0): g 40, h 30, f 70.
// step 5: (1,1) and (0,0) tie on f and g; (1,1) was opened first.
//   N closed, E (2,1) wall, S (1,2): g 50, h 20, f 70; W (0,1): g 50, h 20, f 70.
// step 6: (1,2) (g 50, opened before (0,1)).
//   E (2,2) wall, S (1,3): g 60, h 10, f 70; W (0,2): g 60, h 10, f 70.
// step 7: (1,3) (g 60, opened before (0,2)).
//   E (2,3): g 70, h 20, f 90; S (1,4): g 70, h 20, f 90; W (0,3) = B: g 70, h 0, f 70.
// step 8: f 70: (4,1) g10, (0,0) g40, (0,1) g50, (0,2) g60, B g70 -> B: found, cost 70.
// Expanded 7; path A (3,0) (2,0) (1,0) (1,1) (1,2) (1,3) B.

fn astar_manhattan_4() -> Search {
    let (grid, start, goal) = example();
    let config = SearchConfig::new(Algorithm::AStar)
        .heuristic(Heuristic::Manhattan)
        .diagonal(Diagonal::Never)
        .costs(Costs::Integer);
    Search::new(grid, start, goal, config).unwrap()
}

#[test]
fn astar_first_step_opens_the_hand_worked_neighbours() {
    let mut search = astar_manhattan_4();
    let (start, w) = (Point::new(3, 1), 5);
    assert_eq!(search.h(start), 50.0);
    assert_eq!(search.status(), Status::Ready);
    assert_eq!(search.open_count(), 1);

    assert_eq!(search.step(), StepEvent::Expanded(start));
    let g = search.g_values();
    let i = |x: usize, y: usize| y * w + x;
    assert_eq!(g[i(3, 1)], 0.0);
    assert_eq!((g[i(3, 0)], search.h(Point::new(3, 0))), (10.0, 60.0));
    assert_eq!((g[i(4, 1)], search.h(Point::new(4, 1))), (10.0, 60.0));
    assert_eq!(g[i(3, 0)] + search.h(Point::new(3, 0)), 70.0);
    // Nothing else has been reached.
    let reached: Vec<usize> = (0..25).filter(|&k| g[k].is_finite()).collect();
    assert_eq!(reached, vec![i(3, 0), i(3, 1), i(4, 1)]);
    assert_eq!(search.parents()[i(3, 0)], i(3, 1) as u32);
    assert_eq!(search.parents()[i(4, 1)], i(3, 1) as u32);
    assert_eq!(search.states()[i(3, 1)], CellState::Current as u8);
    assert_eq!(search.states()[i(3, 0)], CellState::Open as u8);
    assert_eq!(search.states()[i(4, 1)], CellState::Open as u8);
    assert_eq!((search.expanded(), search.open_count(), search.status()), (1, 2, Status::Searching));
}

#[test]
fn astar_runs_the_hand_worked_trace_to_cost_70() {
    let mut search = astar_manhattan_4();
    let p = |x, y| Point::new(x, y);
    let order = [p(3, 1), p(3, 0), p(2, 0), p(1, 0), p(1, 1), p(1, 2), p(1, 3)];
    for (k, &want) in order.iter().enumerate() {
        assert_eq!(search.step(), StepEvent::Expanded(want), "step {}", k + 1);
    }
    // After step 7 the open list holds (4,1) (4,0) (0,0) (0,1) (0,2) (2,3) (1,4) and B.
    assert_eq!(search.open_count(), 8);
    let g = search.g_values();
    for (x, y, want) in
        [(4, 1, 10.0), (4, 0, 20.0), (0, 0, 40.0), (0, 1, 50.0), (0, 2, 60.0), (2, 3, 70.0), (1, 4, 70.0), (0, 3, 70.0)]
    {
        assert_eq!(g[y * 5 + x], want, "g of ({x},{y})");
    }
    assert_eq!(search.step(), StepEvent::Found { cost: 70.0 });
    assert_eq!((search.steps(), search.expanded(), search.status()), (8, 7, Status::Found));
    let mut path = order.to_vec();
    path.push(p(0, 3));
    assert_eq!(search.path().unwrap().points, path);
}
