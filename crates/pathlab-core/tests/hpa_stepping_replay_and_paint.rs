//! Hierarchical A* behaves as a stepper: going back one step lands exactly where stepping
//! forward to that step does (states, g, parents, path, overlay), reset is step 0, moving the
//! ends keeps the abstract graph, painting rebuilds it and restarts, and at every step the
//! buffers and the overlay show what the module documentation promises.

mod cases;
mod oracle;

use oracle::optimum;

use cases::{shown, Rng, Shown};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::hpa::Hpa;
use pathlab_core::search::{
    build, Algorithm, BoxKind, CellState, EventLog, LineKind, MarkKind, Overlay, SearchConfig, Status, StepEvent,
    Stepper,
};

fn p(x: usize, y: usize) -> Point {
    Point::new(x, y)
}

/// Everything a page or test can read from a stepper.
#[derive(Debug, PartialEq)]
struct Snapshot {
    shown: Shown,
    overlay: Overlay,
}

fn snapshot(s: &dyn Stepper) -> Snapshot {
    Snapshot { shown: shown(s), overlay: without_build_time(s.overlay()) }
}

/// The overlay without the build note, which holds a wall-clock time: two builds of the same
/// graph take different times.
fn without_build_time(mut overlay: Overlay) -> Overlay {
    overlay.notes.retain(|n| n.0 != "build");
    overlay
}

/// A 40x30 grid with 25% walls and some mud, start and goal in opposite corners (opened).
fn random_grid(seed: u64) -> Grid {
    let mut rng = Rng(seed);
    let (w, h) = (40, 30);
    let mut cells: Vec<u8> = (0..w * h)
        .map(|_| match rng.below(100) {
            0..25 => WALL,
            25..35 => 3,
            _ => 1,
        })
        .collect();
    cells[0] = 1;
    cells[w * h - 1] = 1;
    Grid::from_cells(w, h, cells).unwrap()
}

fn config(rule: Diagonal) -> SearchConfig {
    SearchConfig::new(Algorithm::Hpa).cluster(5).diagonal(rule)
}

#[test]
fn stepping_back_replays_to_the_same_state_at_every_step() {
    let (mut checked, mut found) = (0, 0);
    for (seed, &rule) in Diagonal::ALL.iter().enumerate() {
        let grid = random_grid(seed as u64 + 7);
        let (start, goal) = (p(0, 0), p(39, 29));
        let mut forward = build(grid.clone(), start, goal, config(rule)).unwrap();
        let mut states = vec![snapshot(forward.as_ref())];
        while !forward.status().is_finished() {
            forward.step();
            states.push(snapshot(forward.as_ref()));
        }
        found += usize::from(forward.status() == Status::Found);
        let mut s = build(grid, start, goal, config(rule)).unwrap();
        for k in 1..states.len() {
            s.seek(k);
            assert_eq!(snapshot(s.as_ref()), states[k], "{rule}: seek to {k}");
            s.back();
            assert_eq!(snapshot(s.as_ref()), states[k - 1], "{rule}: back from {k}");
            checked += 1;
        }
        s.reset();
        assert_eq!(snapshot(s.as_ref()), states[0], "{rule}: reset");
    }
    assert!(checked > 40 && found >= 2, "{checked} steps, {found} runs found");
}

#[test]
fn buffers_show_the_abstract_search_then_the_refined_path() {
    let (start, goal) = (p(0, 0), p(39, 29));
    let grid = (3..100)
        .map(random_grid)
        .find(|g| optimum(g, start, goal, Diagonal::NoCornerCutting, Costs::Real).is_some())
        .unwrap();
    let mut s = Hpa::new(grid.clone(), start, goal, config(Diagonal::NoCornerCutting)).unwrap();
    #[allow(clippy::naive_bytecount)]
    let count = |s: &Hpa, state: CellState| s.states().iter().filter(|&&b| b == state as u8).count();
    // Step 0: only the start is open, at g 0.
    assert_eq!(s.status(), Status::Ready);
    assert_eq!((count(&s, CellState::Open), s.open_count()), (1, 1));
    assert_eq!(s.g_values()[grid.index(start)], 0.0);
    let nodes: Vec<Point> = s.transitions().chain([start, goal]).collect();
    let mut log = EventLog::default();
    loop {
        let event = s.step_logged(&mut log);
        match event {
            StepEvent::Expanded(at) if s.abstract_path().is_empty() => {
                // An abstract expansion: the node just expanded is Current, the log names it,
                // and every open or closed cell is an abstract node's, with a finite g.
                assert_eq!(log.expanded, Some(grid.index(at) as u32));
                assert_eq!(s.states()[grid.index(at)], CellState::Current as u8);
                assert_eq!(count(&s, CellState::Current), 1);
                assert_eq!(count(&s, CellState::Open), s.open_count());
                for (i, &b) in s.states().iter().enumerate() {
                    if b != CellState::Unseen as u8 {
                        assert!(nodes.contains(&grid.point_at(i)), "{} is no abstract node", grid.point_at(i));
                        assert!(s.g_values()[i].is_finite());
                    }
                }
                for o in &log.opened {
                    assert_eq!(s.parents()[o.node as usize], grid.index(at) as u32);
                    assert_eq!(s.g_values()[o.node as usize], o.new_g);
                }
            }
            StepEvent::Expanded(_) | StepEvent::Found { .. } => {
                // The goal's pop or a refinement: nothing expanded, the path grows from the
                // start along the abstract path's nodes.
                assert_eq!(log.expanded, None);
                assert_eq!(count(&s, CellState::Current), 0);
                let refined = s.refined();
                let path_cells = count(&s, CellState::Path);
                assert!(path_cells > refined, "{path_cells} path cells after {refined} edges");
                let reached = s.abstract_path()[refined];
                assert_eq!(s.states()[grid.index(reached)], CellState::Path as u8);
                if let StepEvent::Found { cost } = event {
                    assert_eq!(refined + 1, s.abstract_path().len());
                    assert_eq!(s.cost(), Some(cost));
                    assert_eq!(path_cells, s.path_indices().len());
                    break;
                }
                assert!(s.path_indices().is_empty(), "the path is only given once found");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(s.status(), Status::Found);
    assert_eq!(s.step(), StepEvent::Finished);
    let path = s.path().unwrap();
    assert_eq!(path.points.first(), Some(&start));
    assert_eq!(path.points.last(), Some(&goal));
    // Every abstract node on the abstract path lies on the refined path, in order.
    let mut at = 0;
    for node in s.abstract_path() {
        at += path.points[at..].iter().position(|&q| q == node).expect("abstract node on the path");
    }
}

#[test]
fn moving_the_ends_keeps_the_graph_and_restarts() {
    let grid = random_grid(5);
    let mut s = Hpa::new(grid, p(0, 0), p(39, 29), config(Diagonal::Never)).unwrap();
    let transitions: Vec<Point> = s.transitions().collect();
    let settled = s.build_settled();
    s.run();
    s.set_ends(p(39, 29), p(0, 0)).unwrap();
    assert_eq!((s.status(), s.steps(), s.expanded()), (Status::Ready, 0, 0));
    assert_eq!(s.transitions().collect::<Vec<_>>(), transitions);
    assert_eq!(s.build_settled(), settled);
    assert!(s.set_ends(p(0, 0), p(40, 0)).is_err());
}

#[test]
fn painting_rebuilds_the_graph_and_restarts() {
    let four = SearchConfig::new(Algorithm::Hpa).cluster(4).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
    let mut s = build(Grid::new(12, 4).unwrap(), p(0, 0), p(11, 0), four).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(13.0));
    // The same value again, or a wall on the start: nothing changes and the search stays.
    assert_eq!(s.paint(&[p(1, 1)], 1).unwrap(), 0);
    assert_eq!(s.paint(&[p(0, 0), p(11, 0), p(50, 50)], WALL).unwrap(), 0);
    assert_eq!(s.status(), Status::Found);
    // Walls splitting both entrances: back to step 0, the graph rebuilt (see hpa_by_hand.rs).
    assert_eq!(s.paint(&[p(3, 1), p(7, 1)], WALL).unwrap(), 2);
    assert_eq!((s.status(), s.steps()), (Status::Ready, 0));
    let marks = |s: &dyn Stepper| {
        let mut v: Vec<Point> = s.overlay().marks.iter().map(|m| s.grid().point_at(m.cell as usize)).collect();
        v.sort();
        v
    };
    assert_eq!(marks(s.as_ref()), vec![p(3, 0), p(3, 2), p(4, 0), p(4, 2), p(7, 0), p(7, 2), p(8, 0), p(8, 2)]);
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(11.0));
    // Terrain is accepted: mud on the straight line makes the route through row 2 cheaper.
    assert_eq!(s.paint(&[p(5, 0)], 9).unwrap(), 1);
    assert_eq!(s.run(), Status::Found);
    let fresh_grid = s.grid().clone();
    let mut fresh = Hpa::new(fresh_grid, p(0, 0), p(11, 0), four).unwrap();
    fresh.run();
    assert_eq!(s.cost(), fresh.cost());
    assert_eq!(s.path_indices(), Stepper::path_indices(&fresh));
    assert_eq!(marks(s.as_ref()), marks(&fresh));
}

#[test]
fn overlay_shows_clusters_entrances_edges_and_notes() {
    let four = SearchConfig::new(Algorithm::Hpa).cluster(4).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
    let mut s = Hpa::new(Grid::new(12, 4).unwrap(), p(0, 0), p(11, 0), four).unwrap();
    let grid = Grid::new(12, 4).unwrap();
    let cell = |x, y| grid.index(p(x, y)) as u32;
    let o = s.overlay();
    assert_eq!(o.boxes.len(), 3);
    assert!(o.boxes.iter().all(|b| b.kind == BoxKind::Cluster));
    assert_eq!(o.marks.len(), 4);
    assert!(o.marks.iter().all(|m| m.kind == MarkKind::Entrance));
    // One line per joined pair: the three static ones and the start's and goal's.
    let mut lines: Vec<(u32, u32)> =
        o.lines.iter().filter(|l| l.kind == LineKind::Abstract).map(|l| (l.from, l.to)).collect();
    lines.sort_unstable();
    let mut expected = vec![
        (cell(3, 1), cell(4, 1)),
        (cell(4, 1), cell(7, 1)),
        (cell(7, 1), cell(8, 1)),
        (cell(0, 0), cell(3, 1)),
        (cell(8, 1).min(cell(11, 0)), cell(8, 1).max(cell(11, 0))),
    ];
    expected.sort_unstable();
    assert_eq!(lines, expected);
    let notes = |o: &Overlay| o.notes.iter().map(|n| n.0).collect::<Vec<_>>();
    for key in ["clusters", "abstract nodes", "abstract edges", "build", "abstract expansions", "refined edges"] {
        assert!(notes(&o).contains(&key), "{key} missing from {:?}", notes(&o));
    }
    assert!(!notes(&o).contains(&"path cost vs flat A*"));
    assert!(o.notes.iter().any(|n| n.0 == "clusters" && n.1 == "3 (3 x 1 of side 4)"));
    assert!(o.notes.iter().any(|n| n.0 == "abstract nodes" && n.1 == "4 transitions + 2 for start and goal"));
    s.advance(6); // five expansions and the goal's pop
    let o = s.overlay();
    let path_lines: Vec<(u32, u32)> =
        o.lines.iter().filter(|l| l.kind == LineKind::AbstractPath).map(|l| (l.from, l.to)).collect();
    assert_eq!(
        path_lines,
        vec![
            (cell(0, 0), cell(3, 1)),
            (cell(3, 1), cell(4, 1)),
            (cell(4, 1), cell(7, 1)),
            (cell(7, 1), cell(8, 1)),
            (cell(8, 1), cell(11, 0)),
        ]
    );
    assert!(o.notes.iter().any(|n| n.0 == "refined edges" && n.1 == "0 of 5"));
    s.run();
    let o = s.overlay();
    assert!(o.notes.iter().any(|n| n.0 == "path cost vs flat A*" && n.1 == "13 vs 11 (+18.18%)"));
    assert!(o.notes.iter().any(|n| n.0 == "flat A* expansions"));
}

#[test]
fn large_maps_leave_the_edge_lines_out_and_say_so() {
    let config = SearchConfig::new(Algorithm::Hpa).cluster(4).costs(Costs::Real);
    let s = Hpa::new(Grid::new(300, 300).unwrap(), p(0, 0), p(299, 299), config).unwrap();
    let o = s.overlay();
    assert!(o.lines.iter().all(|l| l.kind != LineKind::Abstract));
    assert!(o.notes.iter().any(|n| n.0 == "edge lines" && n.1.starts_with("not drawn")), "{:?}", o.notes);
    assert_eq!(o.boxes.len(), 75 * 75);
    assert_eq!(o.marks.len(), s.abstract_nodes());
}
