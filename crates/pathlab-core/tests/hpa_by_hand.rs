//! Hierarchical A* on grids small enough to work out by hand: which clusters, entrances and
//! transition cells it makes, which edges join them, which abstract path it takes and what the
//! refined path costs (including where that is above the optimum, and why).
//!
//! The grids are drawn with `.` ground and `#` walls; coordinates are (column, row).

use std::f64::consts::SQRT_2;

use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::hpa::{Hpa, LONG_ENTRANCE};
use pathlab_core::search::{build, Algorithm, SearchConfig, SearchError, Status, StepEvent, Stepper};

fn p(x: usize, y: usize) -> Point {
    Point::new(x, y)
}

fn draw(text: &str) -> Grid {
    let rows: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let cells = rows.iter().flat_map(|r| r.chars()).map(|c| if c == '#' { WALL } else { 1 }).collect();
    Grid::from_cells(rows[0].len(), rows.len(), cells).unwrap()
}

fn four_connected(cluster: u32) -> SearchConfig {
    SearchConfig::new(Algorithm::Hpa).cluster(cluster).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan)
}

fn sorted(points: impl Iterator<Item = Point>) -> Vec<Point> {
    let mut v: Vec<Point> = points.collect();
    v.sort();
    v
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// An open 12x4 grid in clusters of 4, 4-connected: three clusters in a row. Each of the two
/// borders is one run of 4 open pairs (fewer than `LONG_ENTRANCE` = 6), so each gets one
/// transition pair at index (4 - 1) / 2 = 1 of the run: (3,1)-(4,1) and (7,1)-(8,1). Edges:
/// the 2 pairs across borders (4 directed) and the middle cluster's two transitions joined
/// both ways (2): 6.
///
/// From (0,0) to (11,0) (clusters not neighbours, so no direct edge): (0,0) -> (3,1) is
/// 3 + 1 = 4 moves, the crossing 1, (4,1) -> (7,1) 3, the crossing 1, (8,1) -> (11,0) 4:
/// cost 13, where the straight line costs 11. A* over the abstract graph (Manhattan h to
/// (11,0)): S f 11; (3,1) g 4 f 13; (4,1) g 5 f 13; (7,1) g 8 f 13; (8,1) g 9 f 13; G g 13
/// f 13. Five expansions, the goal's pop, then five refined edges: found at step 11.
#[test]
fn open_12x4_in_three_clusters_goes_through_the_middle_entrances() {
    let mut s = Hpa::new(Grid::new(12, 4).unwrap(), p(0, 0), p(11, 0), four_connected(4)).unwrap();
    assert_eq!(s.clusters(), 3);
    assert_eq!(
        s.cluster_boxes().collect::<Vec<_>>(),
        vec![(p(0, 0), p(3, 3)), (p(4, 0), p(7, 3)), (p(8, 0), p(11, 3))]
    );
    assert_eq!(s.entrances(), 2);
    assert_eq!(sorted(s.transitions()), vec![p(3, 1), p(4, 1), p(7, 1), p(8, 1)]);
    assert_eq!(s.abstract_nodes(), 4);
    assert_eq!(s.abstract_edges(), 6);
    let edges = s.edges();
    let cost_of = |a: Point, b: Point| edges.iter().find(|e| e.0 == a && e.1 == b).map(|e| e.2);
    assert_eq!(cost_of(p(4, 1), p(7, 1)), Some(3.0));
    assert_eq!(cost_of(p(7, 1), p(8, 1)), Some(1.0));
    assert_eq!(cost_of(p(0, 0), p(3, 1)), Some(4.0), "the start joins its cluster's transitions");
    assert_eq!(cost_of(p(8, 1), p(11, 0)), Some(4.0), "the goal is joined from its cluster's transitions");
    assert_eq!(cost_of(p(0, 0), p(11, 0)), None, "no direct edge between clusters that are not neighbours");
    assert_eq!(edges.len(), 8);

    let kinds: Vec<StepEvent> = (0..11).map(|_| s.step()).collect();
    // The sixth is the goal's pop, not an expansion.
    let expected = [p(0, 0), p(3, 1), p(4, 1), p(7, 1), p(8, 1), p(11, 0)].map(StepEvent::Expanded);
    assert_eq!(&kinds[..6], &expected);
    assert_eq!(kinds[10], StepEvent::Found { cost: 13.0 });
    assert_eq!(s.status(), Status::Found);
    assert_eq!((s.steps(), s.expanded(), s.refined()), (11, 5, 5));
    assert_eq!(s.abstract_path(), vec![p(0, 0), p(3, 1), p(4, 1), p(7, 1), p(8, 1), p(11, 0)]);
    assert_eq!(s.cost(), Some(13.0));
    let path = s.path().unwrap();
    assert_eq!(path.points.len(), 14, "13 moves");
    let notes = s.overlay().notes;
    let note = |k: &str| notes.iter().find(|n| n.0 == k).map(|n| n.1.clone()).unwrap_or_default();
    assert_eq!(note("path cost vs flat A*"), "13 vs 11 (+18.18%)");
    assert_eq!(note("abstract expansions"), "5");
    assert_eq!(note("refined edges"), "5 of 5");
}

/// Ends in neighbouring clusters are joined directly by the cheapest path inside the two
/// clusters: on an open 8x8 grid in clusters of 4, (0,0) to (7,0) costs the straight 7, and the
/// abstract path is the one direct edge (the route through (3,1)-(4,1) would cost 9).
#[test]
fn ends_in_neighbouring_clusters_get_a_direct_edge() {
    let mut s = Hpa::new(Grid::new(8, 8).unwrap(), p(0, 0), p(7, 0), four_connected(4)).unwrap();
    assert_eq!(s.abstract_nodes(), 8);
    assert!(s.edges().contains(&(p(0, 0), p(7, 0), 7.0)));
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(7.0));
    assert_eq!(s.abstract_path(), vec![p(0, 0), p(7, 0)]);
}

/// The 12x4 grid with walls at (3,1) and (7,1): each border now has two runs, row 0 alone
/// (one pair at row 0) and rows 2-3 (one pair at 2 + (2 - 1) / 2 = row 2). Eight transitions,
/// four entrances; edges: 4 pairs across (8 directed), 2 transitions in each outer cluster
/// joined both ways (2 + 2), 4 in the middle one (12): 24.
/// Now the pairs on row 0 lie on the straight line: 3 + 1 + 3 + 1 + 3 = 11, the optimum.
#[test]
fn walls_split_entrances_and_put_transitions_on_the_straight_line() {
    let mut grid = Grid::new(12, 4).unwrap();
    grid.set(p(3, 1), WALL).unwrap();
    grid.set(p(7, 1), WALL).unwrap();
    let mut s = Hpa::new(grid, p(0, 0), p(11, 0), four_connected(4)).unwrap();
    assert_eq!(s.entrances(), 4);
    assert_eq!(sorted(s.transitions()), vec![p(3, 0), p(3, 2), p(4, 0), p(4, 2), p(7, 0), p(7, 2), p(8, 0), p(8, 2)]);
    assert_eq!(s.abstract_edges(), 24);
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(11.0));
    assert_eq!(s.abstract_path(), vec![p(0, 0), p(3, 0), p(4, 0), p(7, 0), p(8, 0), p(11, 0)]);
    assert_eq!(s.path().unwrap().points, (0..12).map(|x| p(x, 0)).collect::<Vec<_>>());
}

/// A long run gets a transition pair at each end. 24x8 in clusters of 8: two borders, rows
/// 0-7 all open, 8 >= `LONG_ENTRANCE` pairs: transitions (7,0)-(8,0), (7,7)-(8,7),
/// (15,0)-(16,0), (15,7)-(16,7). From (0,4) to (23,4), no corner cutting, real costs (octile
/// distances, nothing in the way): along the bottom, 3 sqrt2 + 4, 1, 7, 1, 3 sqrt2 + 4 =
/// 17 + 6 sqrt2 = 25.49; along the top 15 + 8 sqrt2 = 26.31; the optimum is 23.
#[test]
fn a_long_entrance_gets_transitions_at_both_ends() {
    assert_eq!(LONG_ENTRANCE, 6);
    let config = SearchConfig::new(Algorithm::Hpa).cluster(8);
    let mut s = Hpa::new(Grid::new(24, 8).unwrap(), p(0, 4), p(23, 4), config).unwrap();
    assert_eq!(s.entrances(), 2);
    assert_eq!(
        sorted(s.transitions()),
        vec![p(7, 0), p(7, 7), p(8, 0), p(8, 7), p(15, 0), p(15, 7), p(16, 0), p(16, 7)]
    );
    assert_eq!(s.run(), Status::Found);
    assert!(near(s.cost().unwrap(), 17.0 + 6.0 * SQRT_2), "{:?}", s.cost());
    assert_eq!(s.abstract_path(), vec![p(0, 4), p(7, 7), p(8, 7), p(15, 7), p(16, 7), p(23, 4)]);
    assert_eq!(s.flat_astar().0, Some(23.0));
}

/// Clusters at the right and bottom edges are narrower when the side does not divide the grid:
/// 10x6 in clusters of 4 gives columns 0-3, 4-7, 8-9 and rows 0-3, 4-5.
#[test]
fn the_last_row_and_column_of_clusters_are_smaller() {
    let s = Hpa::new(Grid::new(10, 6).unwrap(), p(0, 0), p(9, 5), four_connected(4)).unwrap();
    assert_eq!(
        s.cluster_boxes().collect::<Vec<_>>(),
        vec![
            (p(0, 0), p(3, 3)),
            (p(4, 0), p(7, 3)),
            (p(8, 0), p(9, 3)),
            (p(0, 4), p(3, 5)),
            (p(4, 4), p(7, 5)),
            (p(8, 4), p(9, 5)),
        ]
    );
    // Borders between side-by-side clusters: x = 3|4 and 7|8 in both cluster rows; runs of 4
    // (rows 0-3, one pair at row 1) and of 2 (rows 4-5, one pair at row 4 + (2 - 1) / 2 = 4).
    // Borders between clusters one above the other: y = 3|4, runs of 4, 4 and 2 (pairs at
    // columns 1, 5 and 8). Seven runs, seven pairs, but (8,4) belongs to two of them
    // ((7,4)-(8,4) and (8,3)-(8,4)): 13 transitions.
    assert_eq!(s.entrances(), 7);
    assert_eq!(
        sorted(s.transitions()),
        sorted(
            [(3, 1), (4, 1), (7, 1), (8, 1), (3, 4), (4, 4), (7, 4), (8, 4), (1, 3), (1, 4), (5, 3), (5, 4), (8, 3)]
                .into_iter()
                .map(|(x, y)| p(x, y))
        )
    );
    assert_eq!(s.abstract_nodes(), 13);
}

/// A cluster cut in two by a wall holds two components; each touches the border in its own
/// run and gets its own transition pair. 8x4 in clusters of 4, wall across row 1 of the left
/// cluster. From (0,0) (top part) to (0,3) (bottom part), 4-connected, the way leads out
/// through (3,0)-(4,0), down the right cluster and back in through (3,2)-(4,2):
/// 3 + 1 + 2 + 1 + (3 + 1) = 11, the optimum. Start and goal in one cluster but different
/// components get no direct edge.
#[test]
fn each_component_of_a_split_cluster_gets_its_own_transitions() {
    let grid = draw(
        "
        ........
        ####....
        ........
        ........
        ",
    );
    let mut s = Hpa::new(grid.clone(), p(0, 0), p(0, 3), four_connected(4)).unwrap();
    assert_eq!(sorted(s.transitions()), vec![p(3, 0), p(3, 2), p(4, 0), p(4, 2)]);
    assert!(s.edges().iter().all(|e| !(e.0 == p(0, 0) && e.1 == p(0, 3))));
    assert!(s.edges().iter().all(|e| !(e.0 == p(3, 0) && e.1 == p(3, 2))), "no edge across the wall");
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(11.0));
    assert_eq!(s.abstract_path(), vec![p(0, 0), p(3, 0), p(4, 0), p(4, 2), p(3, 2), p(0, 3)]);

    // Start and goal in the same component of one cluster: the direct edge (cost 2 + 1 = 3)
    // beats any way out and back.
    let mut s = Hpa::new(grid, p(0, 2), p(2, 3), four_connected(4)).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(3.0));
    assert_eq!(s.abstract_path(), vec![p(0, 2), p(2, 3)]);
    assert_eq!(s.expanded(), 1);
}

/// Two open clusters that touch only at a corner, the clusters beside that corner all walls;
/// 12x8 in clusters of 4, so the goal's cluster (right of the lower middle one) is no
/// neighbour of the start's. Only `always` allows the diagonal (3,3) -> (4,4) between the walls
/// (4,3) and (3,4); the build gives that crossing its own transition pair. Then the border
/// 7|8 (rows 4-7, one pair at row 5). Path: (0,0) -> (3,3) 3 sqrt2, -> (4,4) sqrt2, -> (7,5)
/// sqrt2 + 2, -> (8,5) 1, -> (11,7) 2 sqrt2 + 1: 7 sqrt2 + 4, the optimum. The other rules find
/// no path, and no diagonal entrance is made.
///
/// With the wall (4,3) opened, `at-most-one-blocked` allows (3,3) -> (4,4) (one side open), but
/// the build makes no entrance for it: the straight crossings (3,3) -> (4,3) -> (4,4) stand in
/// for it, and (4,3) is a transition of both its one-pair runs. The refined path costs
/// 3 sqrt2 + 1 + 1 + (sqrt2 + 2) + 1 + (2 sqrt2 + 1) = 6 + 6 sqrt2, above the optimum
/// 7 sqrt2 + 4.
#[test]
fn a_diagonal_between_two_walls_at_a_cluster_corner() {
    let text = "
        ....########
        ....########
        ....########
        ....########
        ####........
        ####........
        ####........
        ####........
        ";
    for &rule in Diagonal::ALL {
        let config = SearchConfig::new(Algorithm::Hpa).cluster(4).diagonal(rule);
        let mut s = Hpa::new(draw(text), p(0, 0), p(11, 7), config).unwrap();
        if rule == Diagonal::Always {
            assert_eq!(s.diagonal_entrances(), 1);
            assert_eq!(sorted(s.transitions()), vec![p(3, 3), p(4, 4), p(7, 5), p(8, 5)]);
            assert_eq!(s.run(), Status::Found);
            assert!(near(s.cost().unwrap(), 7.0 * SQRT_2 + 4.0));
            assert_eq!(s.abstract_path(), vec![p(0, 0), p(3, 3), p(4, 4), p(7, 5), p(8, 5), p(11, 7)]);
        } else {
            assert_eq!(s.diagonal_entrances(), 0, "{rule}");
            assert_eq!(sorted(s.transitions()), vec![p(7, 5), p(8, 5)], "{rule}");
            assert_eq!(s.run(), Status::NoPath, "{rule}");
            assert_eq!(s.cost(), None);
        }
    }
    let mut grid = draw(text);
    grid.set(p(4, 3), 1).unwrap();
    let config = SearchConfig::new(Algorithm::Hpa).cluster(4).diagonal(Diagonal::AtMostOneBlocked);
    let mut s = Hpa::new(grid, p(0, 0), p(11, 7), config).unwrap();
    assert_eq!(s.diagonal_entrances(), 0);
    assert_eq!(sorted(s.transitions()), vec![p(3, 3), p(4, 3), p(4, 4), p(7, 5), p(8, 5)]);
    assert_eq!(s.run(), Status::Found);
    assert!(near(s.cost().unwrap(), 6.0 + 6.0 * SQRT_2), "{:?}", s.cost());
    assert!(near(s.flat_astar().0.unwrap(), 7.0 * SQRT_2 + 4.0));
}

/// Terrain makes edges one-way in cost: a move pays for the cell it enters. 8x1 in clusters of
/// 4 (one entrance, (3,0)-(4,0)) with mud (5) at (1,0). From (0,0) to (7,0): 5 for the mud,
/// then 6 moves of 1: 11. Between (1,0) and the transition (3,0): forward 1 + 1 = 2, back
/// 1 + 5 = 6 (entering the mud).
#[test]
fn terrain_costs_make_directed_edges() {
    let mut grid = Grid::new(8, 1).unwrap();
    grid.set(p(1, 0), 5).unwrap();
    let mut s = Hpa::new(grid.clone(), p(0, 0), p(7, 0), four_connected(4)).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(11.0));
    let mut s = Hpa::new(grid, p(1, 0), p(3, 0), four_connected(4)).unwrap();
    // (3,0) is the left cluster's transition, so it is the goal's node: no temporary goal.
    let edges = s.edges();
    let cost_of = |a: Point, b: Point| edges.iter().find(|e| e.0 == a && e.1 == b).map(|e| e.2);
    assert_eq!(cost_of(p(1, 0), p(3, 0)), Some(2.0));
    s.set_ends(p(3, 0), p(1, 0)).unwrap();
    let edges = s.edges();
    let cost_of = |a: Point, b: Point| edges.iter().find(|e| e.0 == a && e.1 == b).map(|e| e.2);
    assert_eq!(cost_of(p(3, 0), p(1, 0)), Some(6.0));
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(6.0));
}

/// The integer costs (10 and 14) scale every cost: the 12x4 example costs 130.
#[test]
fn integer_costs_scale_the_hand_example() {
    let config = four_connected(4).costs(Costs::Integer);
    let mut s = Hpa::new(Grid::new(12, 4).unwrap(), p(0, 0), p(11, 0), config).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(130.0));
}

#[test]
fn start_on_the_goal_is_found_at_the_first_step() {
    for start in [p(0, 0), p(3, 1)] {
        let mut s = Hpa::new(Grid::new(8, 8).unwrap(), start, start, four_connected(4)).unwrap();
        assert_eq!(s.step(), StepEvent::Found { cost: 0.0 });
        assert_eq!(s.path().unwrap().points, vec![start]);
        assert_eq!(s.steps(), 1);
    }
}

#[test]
fn settings_and_ends_are_checked() {
    let grid = draw(
        "
        .#..
        ....
        ",
    );
    for side in [0, 3, 129] {
        let err = Hpa::new(grid.clone(), p(0, 0), p(3, 1), four_connected(side)).unwrap_err();
        assert!(err.to_string().contains("cluster"), "{err}");
    }
    assert!(matches!(
        Hpa::new(grid.clone(), p(1, 0), p(3, 1), four_connected(4)),
        Err(SearchError::OnWall { which: "start", .. })
    ));
    assert!(matches!(
        Hpa::new(grid.clone(), p(0, 0), p(4, 1), four_connected(4)),
        Err(SearchError::OutOfBounds { which: "goal", .. })
    ));
    assert!(matches!(
        Hpa::new(grid.clone(), p(0, 0), p(3, 1), four_connected(4).weight(0.5)),
        Err(SearchError::BadWeight(_))
    ));
    // The name, the menu and `build`.
    assert_eq!("hpa".parse::<Algorithm>().unwrap(), Algorithm::Hpa);
    assert!(!SearchConfig::new(Algorithm::Hpa).is_optimal());
    let mut s = build(grid, p(0, 0), p(3, 1), four_connected(4)).unwrap();
    assert_eq!(s.run(), Status::Found);
    // One cluster holds the whole grid: the direct edge, down and along the bottom row.
    assert_eq!(s.cost(), Some(4.0));
}
