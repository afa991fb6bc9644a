//! The map generators against their promises, checked with the independent reference
//! Dijkstra (`reference_dijkstra`, 4-way moves: reachable means a finite cost) and by counting
//! cells and passages directly on the bytes:
//! - every maze on an odd-sized grid is perfect: all open cells connected and no loop (a
//!   connected graph is a tree exactly when it has one edge fewer than nodes), and every maze
//!   cell (odd column, odd row) is open; on even sizes the ends are still connected;
//! - random fill comes within a tolerance of the requested density, and its suggested ends are
//!   open, different and connected;
//! - rooms are connected: every open cell reachable from the start, which is open, as is the
//!   goal; a large grid gets several walls and doors;
//! - the same seed gives the same grid, another seed another grid;
//! - sizes and densities out of range are refused with a message, never a panic.

mod oracle;

use oracle::costs_from;
use pathlab_core::generate::{generate, maze, random_fill, rooms, GenerateError, Generated, Generator};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, MAX_SIDE};
use proptest::prelude::*;

/// Open cells, and 4-adjacent pairs of open cells (the passages between them).
fn nodes_and_edges(grid: &Grid) -> (usize, usize) {
    let (w, h) = (grid.width(), grid.height());
    let c = grid.cells();
    let mut nodes = 0;
    let mut edges = 0;
    for y in 0..h {
        for x in 0..w {
            if c[y * w + x] == 0 {
                continue;
            }
            nodes += 1;
            if x + 1 < w && c[y * w + x + 1] != 0 {
                edges += 1;
            }
            if y + 1 < h && c[(y + 1) * w + x] != 0 {
                edges += 1;
            }
        }
    }
    (nodes, edges)
}

/// Open cells that the reference Dijkstra (4-way) reaches from `from`.
fn reachable(grid: &Grid, from: Point) -> usize {
    costs_from(grid, from, Diagonal::Never, Costs::Real).iter().filter(|d| d.is_finite()).count()
}

fn connected(grid: &Grid, a: Point, b: Point) -> bool {
    costs_from(grid, a, Diagonal::Never, Costs::Real)[b.y * grid.width() + b.x].is_finite()
}

fn ends_are_usable(map: &Generated) {
    assert!(map.grid.is_passable(map.start), "start {} is open", map.start);
    assert!(map.grid.is_passable(map.goal), "goal {} is open", map.goal);
    assert_ne!(map.start, map.goal);
}

fn walls(grid: &Grid) -> usize {
    grid.cells().iter().map(|&c| usize::from(c == 0)).sum()
}

fn density(grid: &Grid) -> f64 {
    walls(grid) as f64 / grid.len() as f64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_maze_on_an_odd_grid_is_perfect(half_w in 1usize..30, half_h in 1usize..30, seed in any::<u64>()) {
        prop_assume!(half_w * half_h >= 2);
        let (w, h) = (2 * half_w + 1, 2 * half_h + 1);
        let map = maze(w, h, seed).unwrap();
        ends_are_usable(&map);
        let (nodes, edges) = nodes_and_edges(&map.grid);
        // half_w * half_h maze cells and one passage for each but the first.
        prop_assert_eq!(nodes, 2 * half_w * half_h - 1);
        prop_assert_eq!(edges, nodes - 1, "a loop: {} passages between {} open cells", edges, nodes);
        prop_assert_eq!(reachable(&map.grid, map.start), nodes, "some open cell is cut off");
        for y in (1..h).step_by(2) {
            for x in (1..w).step_by(2) {
                prop_assert!(map.grid.is_passable(Point::new(x, y)), "maze cell ({},{}) is open", x, y);
            }
        }
        // The border is wall all round.
        for x in 0..w {
            prop_assert!(!map.grid.is_passable(Point::new(x, 0)) && !map.grid.is_passable(Point::new(x, h - 1)));
        }
        prop_assert_eq!((map.start, map.goal), (Point::new(1, 1), Point::new(w - 2, h - 2)));
    }

    #[test]
    fn a_maze_on_any_size_connects_its_ends(w in 3usize..50, h in 3usize..50, seed in any::<u64>()) {
        prop_assume!(w >= 5 || h >= 5);
        let map = maze(w, h, seed).unwrap();
        ends_are_usable(&map);
        prop_assert!(connected(&map.grid, map.start, map.goal));
        let (nodes, edges) = nodes_and_edges(&map.grid);
        prop_assert_eq!(edges, nodes - 1);
    }

    #[test]
    fn rooms_are_connected(w in 1usize..70, h in 1usize..70, seed in any::<u64>()) {
        prop_assume!(w * h >= 2);
        let map = rooms(w, h, seed).unwrap();
        ends_are_usable(&map);
        let (nodes, _) = nodes_and_edges(&map.grid);
        prop_assert_eq!(reachable(&map.grid, map.start), nodes, "some room is cut off");
        prop_assert_eq!((map.start, map.goal), (Point::new(0, 0), Point::new(w - 1, h - 1)));
    }

    #[test]
    fn random_fill_ends_are_connected(w in 2usize..60, h in 2usize..60, seed in any::<u64>(), d in 0.0f64..0.45) {
        let map = random_fill(w, h, seed, d).unwrap();
        ends_are_usable(&map);
        // The generator may open the two ends and nothing else, so a passage between open cells
        // other than the ends was there before: the largest region had two cells or more, and
        // the ends were taken from it.
        let mut bare = map.grid.clone();
        bare.set(map.start, 0).unwrap();
        bare.set(map.goal, 0).unwrap();
        if nodes_and_edges(&bare).1 > 0 {
            prop_assert!(connected(&map.grid, map.start, map.goal));
        }
    }

    #[test]
    fn no_size_or_density_panics(w in 0usize..80, h in 0usize..80, seed in any::<u64>(), d in proptest::num::f64::ANY, k in 0usize..3) {
        let kind = Generator::ALL[k];
        if let Ok(map) = generate(kind, w, h, seed, d) {
            ends_are_usable(&map);
        }
    }
}

#[test]
fn random_fill_density_is_within_two_points_of_the_request() {
    for tenth in 0..=9 {
        let want = f64::from(tenth) / 10.0;
        for seed in [1, 2, 3] {
            let map = random_fill(150, 120, seed, want).unwrap();
            let got = density(&map.grid);
            // 18,000 cells: one standard deviation is at most 0.004.
            assert!((got - want).abs() < 0.02, "seed {seed}: asked {want}, got {got}");
        }
    }
    assert_eq!(density(&random_fill(40, 30, 9, 0.0).unwrap().grid), 0.0);
    // All walls but the two corners it opens for the ends.
    let full = random_fill(40, 30, 9, 1.0).unwrap();
    assert_eq!(full.grid.cells().iter().filter(|&&c| c != 0).count(), 2);
    assert_eq!((full.start, full.goal), (Point::new(0, 0), Point::new(39, 29)));
}

#[test]
fn the_same_seed_gives_the_same_grid_and_another_seed_another() {
    for kind in Generator::ALL.iter().copied() {
        let a = generate(kind, 41, 31, 12_345, 0.3).unwrap();
        let b = generate(kind, 41, 31, 12_345, 0.3).unwrap();
        let c = generate(kind, 41, 31, 12_346, 0.3).unwrap();
        assert_eq!(a, b, "{kind}");
        assert_ne!(a.grid, c.grid, "{kind}");
    }
}

#[test]
fn rooms_on_a_large_grid_have_several_walls_with_doors() {
    let map = rooms(80, 60, 5).unwrap();
    let walls = walls(&map.grid);
    // Every wall has one door, and room sides are at least 3: many rooms, walls well under half.
    assert!(walls > 200 && walls < 80 * 60 / 2, "{walls} walls");
    // Doors: open cells with walls on two opposite sides and open cells on the other two.
    let g = &map.grid;
    let open = |x: usize, y: usize| g.is_passable(Point::new(x, y));
    let mut doors = 0;
    for y in 1..59 {
        for x in 1..79 {
            let across = !open(x - 1, y) && !open(x + 1, y) && open(x, y - 1) && open(x, y + 1);
            let along = !open(x, y - 1) && !open(x, y + 1) && open(x - 1, y) && open(x + 1, y);
            if open(x, y) && (across || along) {
                doors += 1;
            }
        }
    }
    assert!(doors >= 10, "{doors} doors");
}

#[test]
fn bad_sizes_and_densities_are_refused_with_a_message() {
    let too_big = maze(MAX_SIDE + 1, 10, 0).unwrap_err();
    assert!(too_big.to_string().contains("over the limit"), "{too_big}");
    let empty = rooms(0, 10, 0).unwrap_err();
    assert!(empty.to_string().contains("no cells"), "{empty}");
    let small = maze(3, 3, 0).unwrap_err();
    assert!(matches!(small, GenerateError::TooSmall { .. }));
    assert!(small.to_string().contains("maze") && small.to_string().contains("3x3"), "{small}");
    assert!(random_fill(1, 1, 0, 0.2).is_err());
    for d in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
        let e = random_fill(10, 10, 0, d).unwrap_err();
        assert!(e.to_string().contains("density"), "{e}");
    }
    // The density is checked by random fill only.
    assert!(generate(Generator::Maze, 11, 11, 0, f64::NAN).is_ok());
}

#[test]
fn a_full_size_maze_is_made_without_deep_recursion() {
    let map = maze(MAX_SIDE - 1, 301, 3).unwrap();
    let (nodes, edges) = nodes_and_edges(&map.grid);
    assert_eq!(edges, nodes - 1);
}
