//! The grid page's editing rule ([`Session`]), held against fresh searches: after an edit at
//! step k the session must stand where a search built from scratch on the edited map, seeked
//! to the same place, stands.

use pathlab_core::grid::{Grid, Point, GROUND, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::session::{default_ends, nearest_open, open_ends, Session};
use pathlab_core::search::{
    build, build_linked, Algorithm, CellState, EventLog, GridLinks, SearchConfig, Status, Stepper,
};
use pathlab_core::space::{Teleport, TeleportHeuristic};

/// A 20 x 12 map with a wall down the middle that has a gap at the bottom.
fn map() -> Grid {
    let mut grid = Grid::new(20, 12).unwrap();
    for y in 0..10 {
        grid.set(Point::new(10, y), WALL).unwrap();
    }
    grid
}

const START: Point = Point::new(2, 3);
const GOAL: Point = Point::new(17, 4);

fn session(algorithm: Algorithm) -> Session {
    Session::new(map(), START, GOAL, SearchConfig::new(algorithm)).unwrap()
}

/// A search built from scratch, run to step `k` (or its end).
fn fresh(grid: Grid, start: Point, goal: Point, config: SearchConfig, links: &GridLinks, k: usize) -> Box<dyn Stepper> {
    let mut s = build_linked(grid, start, goal, config, links).unwrap();
    s.seek(k);
    s
}

/// How many steps the whole run takes.
fn total(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> usize {
    let mut s = build(grid, start, goal, config).unwrap();
    s.run();
    s.steps()
}

/// Where an edit leaves a search that stood at step `k` (finished or not), when the edited
/// map's run takes `total` steps: the same step, or the end.
fn landing(k: usize, finished: bool, total: usize) -> usize {
    if finished {
        total
    } else {
        k.min(total)
    }
}

/// Asserts that the session's search is in the state of `expected`, buffer for buffer.
fn same_state(session: &Session, expected: &dyn Stepper, what: &str) {
    assert_eq!(session.steps(), expected.steps(), "{what}: steps");
    assert_eq!(session.status(), expected.status(), "{what}: status");
    assert_eq!(session.grid().cells(), expected.grid().cells(), "{what}: cells");
    assert_eq!(session.states(), expected.states(), "{what}: states");
    assert_eq!(session.parents(), expected.parents(), "{what}: parents");
    let g = |s: &[f64]| s.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(g(session.g_values()), g(expected.g_values()), "{what}: g");
    assert_eq!(session.path_indices(), expected.path_indices(), "{what}: path");
}

/// The searches that start again when painted (every one but LPA* and D* Lite).
const RERUN: [Algorithm; 8] = [
    Algorithm::Bfs,
    Algorithm::Dijkstra,
    Algorithm::AStar,
    Algorithm::BiAStar,
    Algorithm::Jps,
    Algorithm::Theta,
    Algorithm::Ida,
    Algorithm::Lrta,
];

#[test]
fn after_painting_at_step_k_the_session_is_a_fresh_search_at_min_k_and_the_new_length() {
    // One stroke narrows the gap (a longer way round), one opens the wall (a run that may
    // be shorter than k).
    let strokes = [((10, 9), (10, 10), WALL), ((10, 2), (10, 5), GROUND)];
    for algorithm in RERUN {
        for k in [1, 7, 30] {
            for (from, to, value) in strokes {
                let mut s = session(algorithm);
                s.seek(k);
                let finished = s.status().is_finished();
                assert!(s.paint_line(from, to, value).unwrap() > 0);
                let mut grid = map();
                for p in pathlab_core::line::grid_cells_on_line(&map(), from, to) {
                    grid.set(p, value).unwrap();
                }
                let config = SearchConfig::new(algorithm);
                let at = landing(k, finished, total(grid.clone(), START, GOAL, config));
                let expected = fresh(grid, START, GOAL, config, &GridLinks::None, at);
                same_state(&s, expected.as_ref(), &format!("{algorithm} painted at step {k}"));
                assert_eq!(s.last_kind(), "none", "an edit forgets the last step's narration");
            }
        }
    }
}

#[test]
fn a_finished_search_runs_to_the_end_of_its_new_run_after_a_paint() {
    for algorithm in RERUN {
        let mut s = session(algorithm);
        s.run();
        s.paint_line((10, 9), (10, 10), WALL).unwrap();
        let mut grid = map();
        grid.set(Point::new(10, 9), WALL).unwrap();
        grid.set(Point::new(10, 10), WALL).unwrap();
        let config = SearchConfig::new(algorithm);
        let end = total(grid.clone(), START, GOAL, config);
        same_state(&s, fresh(grid, START, GOAL, config, &GridLinks::None, end).as_ref(), &format!("{algorithm}"));
        assert!(s.status().is_finished());
    }
}

#[test]
fn incremental_searches_keep_their_steps_when_painted_and_repair_to_the_fresh_cost() {
    for algorithm in [Algorithm::Lpa, Algorithm::DStarLite] {
        let mut s = session(algorithm);
        s.seek(12);
        s.paint_line((10, 9), (10, 10), WALL).unwrap();
        assert_eq!(s.steps(), 12, "{algorithm} keeps its steps");
        assert_eq!(s.last_kind(), "none");
        assert_eq!(s.run(), Status::Found);
        let mut grid = map();
        grid.set(Point::new(10, 9), WALL).unwrap();
        grid.set(Point::new(10, 10), WALL).unwrap();
        let mut dijkstra = build(grid, START, GOAL, SearchConfig::new(Algorithm::Dijkstra)).unwrap();
        dijkstra.run();
        let (got, want) = (s.cost().unwrap(), dijkstra.cost().unwrap());
        if algorithm == Algorithm::Lpa {
            assert!((got - want).abs() < 1e-9, "LPA* repairs to the cheapest path: {got} against {want}");
        } else {
            // D* Lite's cost is what its agent walked, which is at least the cheapest path.
            assert!(got >= want - 1e-9, "D* Lite walks no less than the cheapest path: {got} against {want}");
        }
    }
}

#[test]
fn a_stroke_that_changes_no_cell_changes_nothing() {
    let mut s = session(Algorithm::AStar);
    s.seek(9);
    let before = s.log().clone();
    assert_eq!(s.paint_line((10, 0), (10, 3), WALL).unwrap(), 0, "those cells are walls already");
    assert_eq!((s.steps(), s.last_kind()), (9, "expanded"));
    assert_eq!(s.log().expanded, before.expanded);
    assert_eq!(s.log().opened, before.opened);
}

#[test]
fn clearing_the_map_is_a_paint_with_ground_everywhere() {
    let mut s = session(Algorithm::Dijkstra);
    s.seek(20);
    assert_eq!(s.clear().unwrap(), 10, "the ten wall cells");
    assert!(s.grid().cells().iter().all(|&c| c == GROUND));
    let config = SearchConfig::new(Algorithm::Dijkstra);
    let grid = Grid::new(20, 12).unwrap();
    same_state(&s, fresh(grid, START, GOAL, config, &GridLinks::None, 20).as_ref(), "cleared at step 20");
}

#[test]
fn a_settings_change_reruns_to_the_same_step_and_a_refused_one_changes_nothing() {
    let mut s = session(Algorithm::AStar);
    s.seek(15);
    s.configure(|c| c.heuristic = Heuristic::Manhattan).unwrap();
    let config = SearchConfig::new(Algorithm::AStar).heuristic(Heuristic::Manhattan);
    same_state(&s, fresh(map(), START, GOAL, config, &GridLinks::None, 15).as_ref(), "manhattan at step 15");
    assert_eq!(s.last_kind(), "none");

    s.seek(16);
    let states = s.states().to_vec();
    assert!(s.configure(|c| c.weight = 0.5).is_err(), "a weight below 1 is refused");
    assert_eq!(s.config(), config, "the old settings stay");
    assert_eq!((s.steps(), s.states()), (16, states.as_slice()), "and so does the search");
    assert_eq!(s.last_kind(), "expanded", "with its narration");

    s.run();
    s.configure(|c| c.algorithm = Algorithm::Dijkstra).unwrap();
    assert_eq!(s.status(), Status::Found, "a finished search runs to the end of its new run");
    assert_eq!(
        s.steps(),
        total(map(), START, GOAL, SearchConfig::new(Algorithm::Dijkstra).heuristic(Heuristic::Manhattan))
    );
}

#[test]
fn moving_an_end_restarts_every_search_and_reruns_to_the_same_step() {
    let goal = Point::new(15, 11);
    for algorithm in [Algorithm::AStar, Algorithm::Lpa, Algorithm::DStarLite, Algorithm::Jps] {
        let mut s = session(algorithm);
        s.seek(10);
        let finished = s.status().is_finished();
        s.set_ends(START, goal).unwrap();
        let config = SearchConfig::new(algorithm);
        let at = landing(10, finished, total(map(), START, goal, config));
        same_state(&s, fresh(map(), START, goal, config, &GridLinks::None, at).as_ref(), &format!("{algorithm}"));
        assert!(s.set_ends(START, Point::new(10, 0)).is_err(), "a goal on a wall is refused");
        assert_eq!((s.goal(), s.steps()), (goal, at), "and nothing moves");
    }
}

#[test]
fn links_rebuild_the_search_a_refused_link_keeps_the_old_and_a_new_map_drops_them() {
    let mut s = session(Algorithm::AStar);
    s.seek(8);
    let jump = Teleport { from: Point::new(3, 3), to: Point::new(16, 4), cost: 1.0, both_ways: false };
    let links = GridLinks::Teleports { list: vec![jump], heuristic: TeleportHeuristic::Plain };
    s.set_links(links.clone()).unwrap();
    let config = SearchConfig::new(Algorithm::AStar);
    same_state(&s, fresh(map(), START, GOAL, config, &links, 8).as_ref(), "teleports at step 8");
    assert!(s.blind_to_teleports());

    assert!(s.configure(|c| c.algorithm = Algorithm::Jps).is_err(), "JPS does not run with teleports");
    assert_eq!((s.config().algorithm, s.links()), (Algorithm::AStar, &links));

    s.configure(|c| c.heuristic = Heuristic::Euclidean).unwrap();
    s.replace(Grid::new(6, 6).unwrap(), Point::new(0, 0), Point::new(5, 5)).unwrap();
    assert_eq!(s.links(), &GridLinks::None, "the teleports were made for the old map");
    assert_eq!(s.config().heuristic, Heuristic::Euclidean, "the settings stay");
    assert_eq!((s.steps(), s.last_kind()), (0, "none"));
    assert!(s.replace(Grid::new(3, 3).unwrap(), Point::new(0, 0), Point::new(9, 9)).is_err());
    assert_eq!(s.grid().width(), 6, "a refused map keeps the old one");
}

#[test]
fn a_seek_narrates_step_k_as_if_it_had_just_been_taken() {
    for k in [1, 2, 17, 40] {
        let mut s = session(Algorithm::AStar);
        s.seek(k);
        let mut expected = build(map(), START, GOAL, SearchConfig::new(Algorithm::AStar)).unwrap();
        expected.seek(k - 1);
        let mut log = EventLog::default();
        expected.step_logged(&mut log);
        assert_eq!(s.steps(), k);
        assert_eq!((s.log().expanded, &s.log().opened), (log.expanded, &log.opened), "step {k}");
        assert_eq!(s.last_kind(), "expanded");
    }
    let mut s = session(Algorithm::AStar);
    s.seek(100_000);
    assert_eq!((s.status(), s.last_kind()), (Status::Found, "found"), "past the end: how the run ended");
    assert!(s.log().opened.is_empty());
    s.back();
    assert_eq!(s.steps(), total(map(), START, GOAL, SearchConfig::new(Algorithm::AStar)) - 1);
    s.seek(1);
    s.back();
    assert_eq!((s.steps(), s.last_kind()), (0, "none"), "back from step 1 is step 0, with nothing to narrate");
}

#[test]
fn advance_takes_n_steps_and_narrates_the_last() {
    let mut s = session(Algorithm::Dijkstra);
    assert_eq!(s.advance(0), 0);
    assert_eq!(s.advance(5), 5);
    let mut expected = build(map(), START, GOAL, SearchConfig::new(Algorithm::Dijkstra)).unwrap();
    expected.seek(4);
    let mut log = EventLog::default();
    expected.step_logged(&mut log);
    assert_eq!(s.log().expanded, log.expanded);
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.last_kind(), "found");
}

#[test]
fn the_closed_list_counts_the_expanded_cells_and_lists_them_in_map_order() {
    for algorithm in [Algorithm::Dijkstra, Algorithm::AStar] {
        let mut s = session(algorithm);
        s.seek(25);
        let list = s.closed_list(10);
        assert_eq!(list.count, s.expanded(), "{algorithm}: one closed cell per expansion");
        assert_eq!(list.cells.len(), 10);
        let index = |p: Point| p.y * 20 + p.x;
        assert!(list.cells.windows(2).all(|w| index(w[0].0) < index(w[1].0)), "map order");
        for (p, g) in &list.cells {
            let state = s.states()[index(*p)];
            assert!(state == CellState::Closed as u8 || state == CellState::Current as u8);
            assert_eq!(*g, Some(s.g_values()[index(*p)]));
        }
        assert_eq!(s.closed_list(1000).cells.len(), s.expanded());
    }
}

#[test]
fn nearest_open_is_an_open_cell_in_the_nearest_ring_when_one_is_near() {
    // Open cells in columns 0, 3 and 6: every cell has one within two rings (the rule ranks
    // whole rings first up to the fourth).
    let mut grid = Grid::new(9, 7).unwrap();
    let cells: Vec<Point> = (0..grid.len()).map(|i| grid.point_at(i)).collect();
    for (i, &c) in cells.iter().enumerate() {
        if i % 3 != 0 {
            grid.set(c, WALL).unwrap();
        }
    }
    let ring = |a: Point, b: Point| a.x.abs_diff(b.x).max(a.y.abs_diff(b.y));
    for p in (0..grid.len()).map(|i| grid.point_at(i)) {
        let q = nearest_open(&grid, p).unwrap();
        assert!(grid.is_passable(q));
        if grid.is_passable(p) {
            assert_eq!(q, p);
        }
        let best = (0..grid.len()).map(|i| grid.point_at(i)).filter(|&c| grid.is_passable(c)).map(|c| ring(c, p)).min();
        assert_eq!(Some(ring(q, p)), best, "from {p}");
    }
    let mut plus = Grid::new(5, 5).unwrap();
    for p in [(2, 2), (2, 1), (1, 2), (3, 2), (2, 3)] {
        plus.set(Point::new(p.0, p.1), WALL).unwrap();
    }
    assert_eq!(nearest_open(&plus, Point::new(2, 2)), Some(Point::new(1, 1)), "a corner of ring 1 before ring 2");
    for p in [(1, 1), (3, 1), (1, 3), (3, 3)] {
        plus.set(Point::new(p.0, p.1), WALL).unwrap();
    }
    assert_eq!(nearest_open(&plus, Point::new(2, 2)), Some(Point::new(2, 0)), "along an axis before a diagonal");
    let walls = Grid::from_cells(3, 2, vec![WALL; 6]).unwrap();
    assert_eq!(nearest_open(&walls, Point::new(1, 1)), None);
    assert_eq!(open_ends(&walls), None);
}

#[test]
fn default_ends_sit_on_the_middle_row_a_fifth_in_from_each_side() {
    let ends = |w, h| default_ends(&Grid::new(w, h).unwrap());
    assert_eq!(ends(25, 11), (Point::new(5, 5), Point::new(19, 5)));
    assert_eq!(ends(4, 1), (Point::new(0, 0), Point::new(3, 0)), "under five columns: the edges");
    assert_eq!(ends(1, 1), (Point::new(0, 0), Point::new(0, 0)));
    let mut grid = Grid::new(10, 3).unwrap();
    grid.set(Point::new(2, 1), WALL).unwrap();
    assert_eq!(open_ends(&grid), Some((Point::new(2, 0), Point::new(7, 1))), "moved off the wall");
}

#[test]
fn a_copy_with_another_algorithm_has_the_map_and_settings_at_step_zero() {
    let mut s = session(Algorithm::AStar);
    s.configure(|c| c.heuristic = Heuristic::Manhattan).unwrap();
    s.run();
    let copy = s.with_algorithm(Algorithm::Bfs).unwrap();
    assert_eq!(copy.grid().cells(), s.grid().cells());
    assert_eq!(copy.config(), SearchConfig::new(Algorithm::Bfs).heuristic(Heuristic::Manhattan));
    assert_eq!((copy.steps(), copy.start(), copy.goal()), (0, START, GOAL));
    assert!(s.status().is_finished(), "the original keeps its place");
}
