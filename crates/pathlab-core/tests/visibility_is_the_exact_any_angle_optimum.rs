//! The visibility graph's path is the exact any-angle optimum, checked against truth kept
//! apart from the code under test:
//! - on random small grids under every diagonal rule, its length equals a brute-force
//!   optimum (Dijkstra over every point at whole and half-whole coordinates, joined when a
//!   segment between them passes a test written here from the definition: every piece of it
//!   lies in a closed open cell, and, unless the rule is `always`, it passes no pinch), is no
//!   longer than Theta*'s, Lazy Theta*'s or smoothed A*'s path under the same rule, and no
//!   shorter than the straight line; A* on the corner graph finds the same length;
//! - worked by hand: the tutorial's 3x3 example, one wall block, a diagonal pinch;
//! - MovingAI maps: never longer than the `.scen` optimum nor Theta*'s path;
//! - bad input: ends on walls or outside, walls everywhere, terrain, one-cell corridors.

mod any_angle_support;
mod cases;
mod common;
mod oracle;

use std::sync::Arc;

use any_angle_support::{case, draw};
use pathlab_core::formats::movingai;
use pathlab_core::grid::{Diagonal, Grid, Point};
use pathlab_core::search::visibility::{shortest_path, HalfPoint, VisibilityGraph};
use pathlab_core::search::{build, build_on, Algorithm, SearchConfig, SearchError};
use pathlab_core::space::CornerGraph;
use proptest::prelude::*;

/// A non-negative rational `n / d` (d > 0), for exact positions on a segment.
#[derive(Clone, Copy, Debug)]
struct Ratio {
    n: i128,
    d: i128,
}

impl Ratio {
    fn less(self, o: Self) -> bool {
        self.n * o.d < o.n * self.d
    }
    fn same(self, o: Self) -> bool {
        self.n * o.d == o.n * self.d
    }
}

/// Whether cell `(x, y)` is open; outside the grid is wall.
fn open(grid: &Grid, x: i128, y: i128) -> bool {
    x >= 0
        && y >= 0
        && (x as usize) < grid.width()
        && (y as usize) < grid.height()
        && grid.is_passable(Point::new(x as usize, y as usize))
}

/// A pinch: walls in two opposite quarters around grid point (x, y), open cells in the others.
fn pinch(grid: &Grid, x: i128, y: i128) -> bool {
    let (nw, ne, sw, se) = (open(grid, x - 1, y - 1), open(grid, x, y - 1), open(grid, x - 1, y), open(grid, x, y));
    (nw && se && !ne && !sw) || (ne && sw && !nw && !se)
}

/// The open cells whose closed square holds the point `(px / q, py / q)` (q > 0).
fn holds(grid: &Grid, px: i128, py: i128, q: i128) -> bool {
    let range = |p: i128| if p % q == 0 { vec![p / q - 1, p / q] } else { vec![p.div_euclid(q)] };
    range(px).iter().any(|&x| range(py).iter().any(|&y| open(grid, x, y)))
}

/// The segment between two points given in half cells, by the definition: split it where it
/// meets grid lines; the middle of every piece must lie in a closed open cell (then the whole
/// piece does), and no grid point inside it may be a pinch unless the rule is `always`.
fn legal(grid: &Grid, a: (i128, i128), b: (i128, i128), always: bool) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let mut cuts = vec![Ratio { n: 0, d: 1 }, Ratio { n: 1, d: 1 }];
    // Grid lines are at even half-cell coordinates: t = (2k - a) / d.
    for (from, delta) in [(a.0, dx), (a.1, dy)] {
        if delta == 0 {
            continue;
        }
        let (lo, hi) = (from.min(from + delta), from.max(from + delta));
        for line in (lo..=hi).filter(|v| v % 2 == 0) {
            let (n, d) = (line - from, delta);
            let t = if d < 0 { Ratio { n: -n, d: -d } } else { Ratio { n, d } };
            if t.n > 0 && t.n < t.d {
                cuts.push(t);
            }
        }
    }
    cuts.sort_by(|x, y| {
        if x.less(*y) {
            std::cmp::Ordering::Less
        } else if x.same(*y) {
            std::cmp::Ordering::Equal
        } else {
            std::cmp::Ordering::Greater
        }
    });
    cuts.dedup_by(|x, y| x.same(*y));
    for pair in cuts.windows(2) {
        // Middle: (t0 + t1) / 2 = (n0 d1 + n1 d0) / (2 d0 d1); the point is a + t (b - a), in
        // half cells; in cells, divide by 2 more.
        let (n, d) = (pair[0].n * pair[1].d + pair[1].n * pair[0].d, 2 * pair[0].d * pair[1].d);
        let (px, py) = (a.0 * d + n * dx, a.1 * d + n * dy);
        if !holds(grid, px, py, 2 * d) {
            return false;
        }
    }
    if !always {
        for t in &cuts[1..cuts.len() - 1] {
            let (px, py) = (a.0 * t.d + t.n * dx, a.1 * t.d + t.n * dy);
            let q = 2 * t.d;
            if px % q == 0 && py % q == 0 && pinch(grid, px / q, py / q) {
                return false;
            }
        }
    }
    true
}

/// The brute-force optimum: Dijkstra (dense, O(n²)) over every point at whole and half-whole
/// coordinates that lies in a closed open cell (and is no pinch unless `always`), each pair
/// joined by a legal segment at its length.
fn brute_force(grid: &Grid, start: Point, goal: Point, rule: Diagonal) -> Option<f64> {
    let always = rule == Diagonal::Always;
    let (w, h) = (2 * grid.width() as i128, 2 * grid.height() as i128);
    let mut points = Vec::new();
    for y in 0..=h {
        for x in 0..=w {
            let pinched = x % 2 == 0 && y % 2 == 0 && pinch(grid, x / 2, y / 2);
            if holds(grid, x, y, 2) && (always || !pinched) {
                points.push((x, y));
            }
        }
    }
    let centre = |p: Point| (2 * p.x as i128 + 1, 2 * p.y as i128 + 1);
    let s = points.iter().position(|&p| p == centre(start))?;
    let g = points.iter().position(|&p| p == centre(goal))?;
    let mut dist = vec![f64::INFINITY; points.len()];
    let mut done = vec![false; points.len()];
    dist[s] = 0.0;
    loop {
        let u = (0..points.len())
            .filter(|&i| !done[i] && dist[i].is_finite())
            .min_by(|&i, &j| dist[i].total_cmp(&dist[j]))?;
        if u == g {
            return Some(dist[g]);
        }
        done[u] = true;
        for v in 0..points.len() {
            if !done[v] && legal(grid, points[u], points[v], always) {
                let (dx, dy) = ((points[u].0 - points[v].0) as f64, (points[u].1 - points[v].1) as f64);
                let d = dist[u] + dx.hypot(dy) / 2.0;
                if d < dist[v] {
                    dist[v] = d;
                }
            }
        }
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// A* on the corner graph between two ends, through the generic search.
fn corner_graph_cost(graph: &Arc<VisibilityGraph>, s: HalfPoint, t: HalfPoint) -> Option<f64> {
    let corners = CornerGraph::between(Arc::clone(graph), s, t).unwrap();
    let (a, b) = (corners.start_node(), corners.goal_node());
    let mut search = build_on(corners, a, b, SearchConfig::new(Algorithm::AStar)).unwrap();
    search.run();
    search.cost()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The visibility graph's length is the brute-force optimum, the corner graph's A* agrees,
    /// and every any-angle search's path is no shorter, the straight line no longer.
    #[test]
    fn visibility_equals_brute_force_and_bounds_every_any_angle_search(case in case(6)) {
        let graph = Arc::new(VisibilityGraph::new(&case.grid, case.rule).unwrap());
        let found = graph.shortest_path(case.start, case.goal).unwrap();
        let truth = brute_force(&case.grid, case.start, case.goal, case.rule);
        prop_assert_eq!(found.cost.is_some(), truth.is_some(), "reachability: {:?} vs {:?}", found.cost, truth);
        let (s, t) = (HalfPoint::centre(case.start), HalfPoint::centre(case.goal));
        prop_assert_eq!(corner_graph_cost(&graph, s, t).is_some(), truth.is_some());
        let (Some(cost), Some(truth)) = (found.cost, truth) else { return Ok(()) };
        prop_assert!(close(cost, truth), "visibility {} but brute force {} under {}", cost, truth, case.rule);
        prop_assert!(close(corner_graph_cost(&graph, s, t).unwrap(), cost), "corner graph disagrees");
        // The path's own segments are legal by the test here, and sum to the cost.
        let always = case.rule == Diagonal::Always;
        let mut length = 0.0;
        for pair in found.points.windows(2) {
            let (a, b) = ((i128::from(pair[0].x), i128::from(pair[0].y)), (i128::from(pair[1].x), i128::from(pair[1].y)));
            prop_assert!(legal(&case.grid, a, b, always), "illegal segment {:?}", pair);
            length += pair[0].distance(pair[1]);
        }
        prop_assert!(close(length, cost));
        let line = s.distance(t);
        prop_assert!(cost >= line - 1e-9);
        for algorithm in [Algorithm::Theta, Algorithm::LazyTheta, Algorithm::AStarSmoothed] {
            let config = SearchConfig::new(algorithm).diagonal(case.rule);
            let mut search = build(case.grid.clone(), case.start, case.goal, config).unwrap();
            search.run();
            let other = search.cost().expect("reachable, so the any-angle search finds a path");
            prop_assert!(cost <= other + 1e-9, "{} found {} under {}, shorter than the optimum {}", algorithm, other, case.rule, cost);
        }
    }
}

const EPS: f64 = 1e-12;

#[test]
fn the_tutorials_three_by_three_example_pulls_the_string_round_the_obstacles_corner() {
    // . . .
    // . # .
    // . . .   from the bottom-left to the top-right, round the centre obstruction.
    let grid = draw(&["...", ".#.", "..."]);
    let graph = Arc::new(VisibilityGraph::new(&grid, Diagonal::NoCornerCutting).unwrap());
    // Corner to corner, as the tutorial does: the grid's corner (0,3) to its corner (3,0),
    // bending at the obstruction's top-left corner (1,1): sqrt(1 + 4) twice.
    let (s, t) = (HalfPoint::corner(0, 3), HalfPoint::corner(3, 0));
    let pulled = graph.shortest_between(s, t).unwrap();
    assert!((pulled.cost.unwrap() - 2.0 * 5f64.sqrt()).abs() < EPS);
    assert_eq!(pulled.points.len(), 3);
    assert!([HalfPoint::corner(1, 1), HalfPoint::corner(2, 2)].contains(&pulled.points[1]), "{:?}", pulled.points);
    assert!((corner_graph_cost(&graph, s, t).unwrap() - 2.0 * 5f64.sqrt()).abs() < EPS);
    // A* on the cells: without corner cutting no diagonal passes the obstruction, so four
    // straight moves; allowing one blocked side, three moves, one diagonal (34 in 10/14).
    let (a, b) = (Point::new(0, 2), Point::new(2, 0));
    let mut astar = build(grid.clone(), a, b, SearchConfig::new(Algorithm::AStar)).unwrap();
    astar.run();
    assert!((astar.cost().unwrap() - 4.0).abs() < EPS);
    let cut = SearchConfig::new(Algorithm::AStar).diagonal(Diagonal::AtMostOneBlocked);
    let mut astar = build(grid.clone(), a, b, cut).unwrap();
    astar.run();
    // Grid moves cost √2 to 29 binary places (`grid::SQRT_2_FIXED`), exactly.
    assert_eq!(astar.cost(), Some(2.0 + pathlab_core::grid::SQRT_2_FIXED));
    assert!((astar.cost().unwrap() - (2.0 + std::f64::consts::SQRT_2)).abs() < 1.2e-11);
    // Centre to centre: sqrt(0.5² + 1.5²) twice, shorter than A*'s 3.41.
    let centres = graph.shortest_path(Point::new(0, 2), Point::new(2, 0)).unwrap();
    assert!((centres.cost.unwrap() - 2.0 * 2.5f64.sqrt()).abs() < EPS);
    // The obstruction's four corners are the graph's vertices.
    assert_eq!(graph.vertex_count(), 4);
}

#[test]
fn one_wall_block_makes_the_path_two_segments_touching_its_corner() {
    // . . . . .
    // . . # . .
    // . . . . .   from (0,2) to (4,0): the line from (0.5,2.5) to (4.5,0.5) passes the
    // wall's middle (2.5,1.5), so the path bends at the corner (3,2) below it,
    // sqrt(2.5² + 0.5²) + sqrt(1.5² + 1.5²), or at (2,1) above, the same by symmetry.
    let grid = draw(&[".....", "..#..", "....."]);
    for rule in [Diagonal::NoCornerCutting, Diagonal::Always] {
        let found = shortest_path(&grid, Point::new(0, 2), Point::new(4, 0), rule).unwrap();
        let via_bottom_right = 6.5f64.sqrt() + 4.5f64.sqrt();
        assert!((found.cost.unwrap() - via_bottom_right).abs() < EPS, "{rule}: {found:?}");
        assert_eq!(found.points.len(), 3, "{rule}");
        assert!([HalfPoint::corner(3, 2), HalfPoint::corner(2, 1)].contains(&found.points[1]), "{rule}: {found:?}");
    }
}

#[test]
fn a_diagonal_pinch_is_refused_except_under_always() {
    // . . . .
    // . . # .
    // . # . .
    // . . . .   (1,1) to (2,2): through the pinch at (2,2) under always (sqrt 2); otherwise
    // round a wall: (1.5,1.5) (2,1) (3,1) (3,2) (2.5,2.5) = 2 + sqrt 2.
    let grid = draw(&["....", "..#.", ".#..", "...."]);
    let (a, b) = (Point::new(1, 1), Point::new(2, 2));
    let through = shortest_path(&grid, a, b, Diagonal::Always).unwrap();
    assert!((through.cost.unwrap() - std::f64::consts::SQRT_2).abs() < EPS);
    assert_eq!(through.points.len(), 2);
    for rule in [Diagonal::Never, Diagonal::NoCornerCutting, Diagonal::AtMostOneBlocked] {
        let round = shortest_path(&grid, a, b, rule).unwrap();
        assert!((round.cost.unwrap() - (2.0 + std::f64::consts::SQRT_2)).abs() < EPS, "{rule}: {round:?}");
    }
    // Two cells that touch only at a pinch: a path under always, none otherwise.
    let pinched = draw(&[".#", "#."]);
    let (a, b) = (Point::new(0, 0), Point::new(1, 1));
    assert_eq!(shortest_path(&pinched, a, b, Diagonal::Always).unwrap().cost, Some(std::f64::consts::SQRT_2));
    assert_eq!(shortest_path(&pinched, a, b, Diagonal::NoCornerCutting).unwrap().cost, None);
}

#[test]
fn one_cell_corridors_are_walked_along_their_walls() {
    // # # # # #
    // . . . . #
    // # # # . #
    // # # # . .   along the corridor and round the inner corner (3,2) of its bend.
    let grid = draw(&["#####", "....#", "###.#", "###.."]);
    let found = shortest_path(&grid, Point::new(0, 1), Point::new(4, 3), Diagonal::NoCornerCutting).unwrap();
    // (0.5,1.5) -> (3,2) -> (4,3) -> (4.5,3.5): sqrt(2.5² + 0.5²) + sqrt 2 + sqrt 0.5.
    let expected = 6.5f64.sqrt() + 2f64.sqrt() + 0.5f64.sqrt();
    assert!((found.cost.unwrap() - expected).abs() < EPS, "{found:?}");
    assert_eq!(found.points[1], HalfPoint::corner(3, 2));
}

#[test]
fn bad_ends_and_empty_maps_are_refused_with_a_message() {
    let grid = draw(&["..#", "..."]);
    let graph = VisibilityGraph::new(&grid, Diagonal::NoCornerCutting).unwrap();
    assert!(matches!(
        graph.shortest_path(Point::new(2, 0), Point::new(0, 0)),
        Err(SearchError::OnWall { which: "start", .. })
    ));
    assert!(matches!(
        graph.shortest_path(Point::new(0, 0), Point::new(9, 0)),
        Err(SearchError::OutOfBounds { which: "goal", .. })
    ));
    for (p, why) in [
        (HalfPoint { x: 7, y: 1 }, "outside"),
        (HalfPoint { x: 1, y: 2 }, "neither"),
        (HalfPoint::centre(Point::new(2, 0)), "wall"),
    ] {
        let err = graph.shortest_between(p, HalfPoint::centre(Point::new(0, 0))).unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
    }
    // Walls everywhere: the graph is empty, and every end is on a wall.
    let walls = Grid::from_cells(3, 3, vec![0; 9]).unwrap();
    let empty = VisibilityGraph::new(&walls, Diagonal::Always).unwrap();
    assert_eq!((empty.vertex_count(), empty.edge_count()), (0, 0));
    assert!(matches!(empty.shortest_path(Point::new(1, 1), Point::new(0, 0)), Err(SearchError::OnWall { .. })));
    assert!(empty
        .shortest_between(HalfPoint::corner(1, 1), HalfPoint::corner(2, 2))
        .unwrap_err()
        .to_string()
        .contains("walls only"));
    // Terrain is refused, not misread.
    let mut mud = Grid::new(2, 2).unwrap();
    mud.set(Point::new(1, 1), 5).unwrap();
    assert!(matches!(VisibilityGraph::new(&mud, Diagonal::Always), Err(SearchError::Unsupported(_))));
    // The same ends on the corner graph.
    let shared = Arc::new(graph);
    assert!(CornerGraph::new(Arc::clone(&shared), Point::new(2, 0), Point::new(0, 0)).is_err());
    // Start and goal in one cell: a path of no length.
    let same = shared.shortest_path(Point::new(1, 1), Point::new(1, 1)).unwrap();
    assert_eq!((same.cost, same.points.len()), (Some(0.0), 1));
}

#[test]
fn on_movingai_maps_the_optimum_is_below_the_scen_optimum_and_theta() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/maps/movingai");
    let mut checked = 0;
    for (name, take) in [("dao/arena", 150), ("dao/den312d", 150), ("bg512/AR0011SR", 60)] {
        let read = |ext: &str| std::fs::read_to_string(root.join(format!("{name}{ext}"))).unwrap();
        let grid = movingai::parse_map(&read(".map")).unwrap();
        let all = movingai::parse_scen(&read(".map.scen")).unwrap();
        let graph = VisibilityGraph::new(&grid, Diagonal::NoCornerCutting).unwrap();
        let first = &all[0];
        let mut theta = build(grid.clone(), first.start, first.goal, SearchConfig::new(Algorithm::Theta)).unwrap();
        for i in 0..take.min(all.len()) {
            let p = &all[i * all.len() / take.min(all.len())];
            let cost = graph.shortest_path(p.start, p.goal).unwrap().cost.expect("every problem has a path");
            theta.set_ends(p.start, p.goal).unwrap();
            theta.run();
            let theta_cost = theta.cost().unwrap();
            assert!(cost <= p.optimal + p.tolerance, "{name} line {}: {cost} > {}", p.line, p.optimal);
            assert!(cost <= theta_cost + 1e-9, "{name} line {}: {cost} > Theta* {theta_cost}", p.line);
            let line = (p.start.x.abs_diff(p.goal.x) as f64).hypot(p.start.y.abs_diff(p.goal.y) as f64);
            assert!(cost >= line - 1e-9, "{name} line {}", p.line);
            checked += 1;
        }
    }
    assert_eq!(checked, 360);
}
