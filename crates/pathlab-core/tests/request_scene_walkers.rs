//! The path-request page's model (`search::request_scene`): walkers stand and aim only in the
//! largest open region (checked against a union-find labelling written here), walk their
//! paths at the documented speed (checked against the point at that arc length along the
//! polyline of cell centres, computed here), snap to the nearer cell on a burst, replay bit
//! for bit from the same seed, and every request they make is answered and counted.

mod cases;

use std::collections::BTreeMap;

use cases::Rng;
use pathlab_core::grid::{Grid, WALL};
use pathlab_core::search::request_scene::{RequestScene, Walker, WalkerState, WALK_SPEED};
use pathlab_core::search::slicing::FramePlanner;
use pathlab_core::search::{Algorithm, SearchConfig};

fn scene(grid: Grid) -> RequestScene {
    RequestScene::new(FramePlanner::new(grid, SearchConfig::new(Algorithm::AStar)).expect("A* slices"))
}

fn random_grid(rng: &mut Rng, w: usize, h: usize, walls_in_100: usize) -> Grid {
    let cells = (0..w * h).map(|_| if rng.below(100) < walls_in_100 { WALL } else { 1 + rng.below(3) as u8 }).collect();
    Grid::from_cells(w, h, cells).expect("a valid grid")
}

fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The reference: union-find over straight neighbours; the largest set, on a tie the one
/// holding the smallest index; sorted.
fn largest_by_union_find(grid: &Grid) -> Vec<usize> {
    let (w, h) = (grid.width(), grid.height());
    let cells = grid.cells();
    let mut parent: Vec<usize> = (0..cells.len()).collect();
    for i in 0..cells.len() {
        if cells[i] == WALL {
            continue;
        }
        for j in [(i % w + 1 < w).then(|| i + 1), (i / w + 1 < h).then(|| i + w)].into_iter().flatten() {
            if cells[j] != WALL {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut sets: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in (0..cells.len()).filter(|&i| cells[i] != WALL) {
        let r = root(&mut parent, i);
        sets.entry(r).or_default().push(i);
    }
    // Roots are each set's smallest index (the union keeps the smaller root), so iterating in
    // root order and keeping only strictly larger sets keeps the first on a tie.
    let mut best = Vec::new();
    for set in sets.into_values() {
        if set.len() > best.len() {
            best = set;
        }
    }
    best
}

#[test]
fn walkers_stand_and_aim_only_in_the_largest_region_found_by_union_find() {
    let mut rng = Rng(11);
    for round in 0..200 {
        let (w, h) = (1 + rng.below(14), 1 + rng.below(10));
        let density = 25 + rng.below(40);
        let grid = random_grid(&mut rng, w, h, density);
        let expected = largest_by_union_find(&grid);
        let mut s = scene(grid);
        let placed = s.place(6, round);
        assert_eq!(s.area(), expected.as_slice(), "round {round}");
        assert_eq!(placed, if expected.is_empty() { 0 } else { 6 });
        s.burst();
        for walker in s.walkers() {
            assert!(expected.binary_search(&walker.cell()).is_ok());
            assert!(expected.binary_search(&walker.goal()).is_ok());
        }
        for _ in 0..30 {
            s.frame(50);
            assert_eq!(s.stats().no_path, 0, "every goal in the region is reachable");
            for walker in s.walkers() {
                assert!(expected.binary_search(&walker.cell()).is_ok());
            }
        }
    }
}

/// The point at arc length `d` along the polyline through the centres of `path`'s cells.
fn point_along(path: &[usize], width: usize, d: f64) -> (f64, f64) {
    let c = |i: usize| ((path[i] % width) as f64 + 0.5, (path[i] / width) as f64 + 0.5);
    let mut left = d;
    for i in 0..path.len() - 1 {
        let ((x0, y0), (x1, y1)) = (c(i), c(i + 1));
        let length = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
        if left < length {
            return (x0 + (x1 - x0) * left / length, y0 + (y1 - y0) * left / length);
        }
        left -= length;
    }
    c(path.len() - 1)
}

#[test]
fn a_walker_moves_walk_speed_cells_a_frame_along_its_path_and_stops_at_the_end() {
    let width = 10;
    // Right, diagonal down-right, down, diagonal down-left, left: lengths 1, 1.41, 1, 1.41, 1.
    let path = vec![0, 1, 12, 22, 31, 30];
    let total = 3.0 + 2.0 * 2f64.sqrt();
    let mut walker = Walker::following(path.clone(), width);
    assert_eq!(walker.state(), WalkerState::Walking);
    let mut frames = 0;
    while walker.state() == WalkerState::Walking {
        walker.walk(WALK_SPEED, width);
        frames += 1;
        let d = WALK_SPEED * f64::from(frames);
        let (x, y) = point_along(&path, width, d);
        assert!(
            (walker.x() - x).abs() < 1e-9 && (walker.y() - y).abs() < 1e-9,
            "frame {frames}: ({}, {}) vs ({x}, {y})",
            walker.x(),
            walker.y()
        );
        // It stands on the cell whose centre is nearest.
        let nearest = path
            .iter()
            .copied()
            .min_by(|&a, &b| {
                let d = |i: usize| ((i % width) as f64 + 0.5 - x).hypot((i / width) as f64 + 0.5 - y);
                d(a).total_cmp(&d(b))
            })
            .unwrap_or(0);
        assert_eq!(walker.cell(), nearest, "frame {frames}");
        assert!(frames < 100);
    }
    assert_eq!(frames, (total / WALK_SPEED).ceil() as i32, "it stops in the frame that reaches the end");
    assert_eq!((walker.x(), walker.y(), walker.cell()), (0.5, 3.5, 30));
    assert_eq!(walker.state(), WalkerState::Idle);
    assert!(walker.route().is_empty());
    assert_eq!(Walker::following(vec![4], width).state(), WalkerState::Idle, "a one-cell path is no walk");
}

#[test]
fn the_same_seed_replays_the_same_scene_and_another_seed_does_not() {
    let grid = random_grid(&mut Rng(5), 40, 30, 30);
    let run = |seed: u64| {
        let mut s = scene(grid.clone());
        s.place(25, seed);
        let mut trace = Vec::new();
        for f in 0..120 {
            if f == 60 {
                s.burst();
            }
            s.frame(400);
            trace.extend(s.walkers().iter().map(|w| (w.x().to_bits(), w.y().to_bits(), w.state(), w.goal())));
        }
        (trace, s.stats())
    };
    let (a, stats) = run(3);
    assert_eq!(run(3), (a.clone(), stats));
    assert_ne!(run(4).0, a);
    assert!(stats.served > 25, "{stats:?}");
}

#[test]
fn every_request_is_answered_once_and_counted_within_the_budget() {
    let mut rng = Rng(21);
    for round in 0..20 {
        let grid = random_grid(&mut rng, 30, 20, 30);
        let mut s = scene(grid);
        assert_eq!(s.place(15, round), 15);
        let mut finished = 0;
        for _ in 0..80 {
            let tick = s.frame(30);
            assert!(tick.spent <= 30);
            finished += tick.finished.len() as u64;
            for id in &tick.finished {
                assert!(s.planner().request(*id).is_none(), "answered requests are forgotten");
            }
            let waiting: Vec<_> = s.walkers().iter().filter(|w| w.state() == WalkerState::Waiting).collect();
            assert_eq!(waiting.len(), s.planner().open_count(), "one open request per waiting walker");
            assert!(waiting.iter().all(|w| w.request().and_then(|id| s.planner().request(id)).is_some()));
        }
        let stats = s.stats();
        assert_eq!(stats.served + stats.no_path, finished);
        assert_eq!(stats.frames, 80);
        assert!(
            stats.wait_max >= 1 && stats.wait_sum >= stats.served && stats.wait_max * stats.served >= stats.wait_sum
        );
    }
}

#[test]
fn a_burst_stops_every_walker_on_its_nearer_cell_and_asks_for_all() {
    let grid = Grid::new(24, 16).expect("an open grid");
    let mut s = scene(grid);
    s.place(20, 9);
    for _ in 0..7 {
        s.frame(2000);
    }
    let before: Vec<Walker> = s.walkers().to_vec();
    assert!(before.iter().any(|w| w.state() == WalkerState::Walking));
    s.burst();
    assert_eq!(s.planner().open_count(), 20);
    for (w, old) in s.walkers().iter().zip(&before) {
        assert_eq!(w.state(), WalkerState::Waiting);
        // The centre it stands on is the nearest cell centre to where it was.
        let (cx, cy) = ((old.x() - 0.5).round() + 0.5, (old.y() - 0.5).round() + 0.5);
        assert!((w.x(), w.y()) == (cx, cy) || old.state() != WalkerState::Walking, "{old:?} -> {w:?}");
        assert_eq!(w.cell(), old.cell());
    }
}

#[test]
fn a_map_of_walls_places_no_walker() {
    let mut s = scene(Grid::from_cells(3, 2, vec![WALL; 6]).expect("walls"));
    assert_eq!(s.place(10, 1), 0);
    s.burst();
    s.frame(10);
    assert!(s.walkers().is_empty());
    assert_eq!(s.stats().frames, 1);
}
