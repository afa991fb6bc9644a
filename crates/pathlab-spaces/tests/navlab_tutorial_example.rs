//! The page's navmesh and corner views on the tutorial's string-pulling example (document
//! 000, Figs 4-7), worked by hand: a 3 x 3 map whose centre cell is a wall.
//!
//! - A* over the cell centres from the bottom-left cell to the top-right one, with diagonal
//!   moves that may not cut a wall's corner, walks round the wall in 4 straight moves
//!   (40 in the tutorial's 10/14 units, 4 cells).
//! - From the map's bottom-left corner (0, 3) to its top-right corner (3, 0) the straight line
//!   runs through the wall's centre (1.5, 1.5); the shortest path bends at a corner of the
//!   wall, (1, 1) or (2, 2), and each leg is sqrt(1² + 2²): 2·sqrt(5) in all. The corner graph
//!   and the navmesh's funnel both find it, and so does the visibility graph.
//! - Stepping: the navmesh's funnel takes its portals one per step and adds the bend corner.

use pathlab_spaces::{NavLab, NavPhase, Status};

/// Row-major cells: 0 wall, 1 ground.
const TUTORIAL: [u8; 9] = [1, 1, 1, 1, 0, 1, 1, 1, 1];

fn lab(kind: &str, start: [i32; 2], goal: [i32; 2]) -> NavLab {
    NavLab::new(kind, 3, 3, &TUTORIAL, "no-corner-cutting", &start, &goal)
        .unwrap_or_else(|_| panic!("the {kind} lab builds"))
}

fn points(flat: &[f64]) -> Vec<[f64; 2]> {
    flat.chunks(2).map(|c| [c[0], c[1]]).collect()
}

/// Corner to corner, in half cells: (0, 3) and (3, 0).
const CORNER_START: [i32; 2] = [0, 6];
const CORNER_GOAL: [i32; 2] = [6, 0];

fn bends_at_a_corner_of_the_wall(path: &[[f64; 2]]) {
    assert_eq!(path.len(), 3, "{path:?}");
    assert_eq!(path[0], [0.0, 3.0]);
    assert_eq!(path[2], [3.0, 0.0]);
    assert!(path[1] == [1.0, 1.0] || path[1] == [2.0, 2.0], "{path:?}");
}

#[test]
fn grid_astar_walks_round_the_wall_in_four_moves() {
    let lab = lab("navmesh", [1, 5], [5, 1]);
    let solved = lab.solved("grid-astar").expect("grid A* runs");
    assert_eq!(solved.length, Some(4.0));
    let path = points(&solved.points);
    assert_eq!(path.len(), 5, "{path:?}");
    assert_eq!(path[0], [0.5, 2.5]);
    assert_eq!(path[4], [2.5, 0.5]);
    // Never through the wall's cell.
    assert!(path.iter().all(|p| *p != [1.5, 1.5]));
    assert_eq!(solved.nodes, 8);
}

#[test]
fn the_corner_graph_pulls_the_string_from_corner_to_corner_round_the_wall() {
    let by_hand = 2.0 * 5f64.sqrt();
    let mut corners = lab("corners", CORNER_START, CORNER_GOAL);
    assert_eq!(corners.problem(), None);
    assert_eq!(corners.run(), Status::Found);
    assert!((corners.cost().expect("a length") - by_hand).abs() < 1e-12);
    bends_at_a_corner_of_the_wall(&points(&corners.path()));
    assert!((corners.optimum_length().expect("an optimum") - by_hand).abs() < 1e-12);
    let visibility = corners.solved("visibility").expect("the optimum runs");
    assert!((visibility.length.expect("a length") - by_hand).abs() < 1e-12);
}

#[test]
fn the_navmesh_funnel_finds_the_same_string_one_portal_per_step() {
    let by_hand = 2.0 * 5f64.sqrt();
    let mut mesh = lab("navmesh", CORNER_START, CORNER_GOAL);
    assert_eq!(mesh.problem(), None);
    assert!(mesh.polygon_count() >= 2, "the ring round the wall needs at least two convex polygons");
    let mut funnel_steps = 0;
    while mesh.phase() != NavPhase::Done {
        let before = mesh.phase();
        mesh.step();
        if before == NavPhase::Funnel {
            funnel_steps += 1;
        }
        assert!(mesh.steps() < 100, "the stepping ends");
    }
    assert!(funnel_steps >= 2, "at least one portal and the goal: {funnel_steps}");
    assert_eq!(mesh.status(), Status::Found);
    assert!((mesh.cost().expect("a length") - by_hand).abs() < 1e-12);
    bends_at_a_corner_of_the_wall(&points(&mesh.path()));
    // Back by one step and forward again lands on the same path.
    mesh.back();
    assert_ne!(mesh.phase(), NavPhase::Done);
    mesh.run();
    assert!((mesh.cost().expect("a length") - by_hand).abs() < 1e-12);
}

#[test]
fn a_wall_painted_on_an_end_or_over_the_whole_map_is_named_and_the_map_kept() {
    let mut mesh = lab("navmesh", [1, 5], [5, 1]);
    assert_eq!(mesh.paint(&[6], 0).ok(), Some(1));
    let why = mesh.problem().expect("the start is in a wall");
    assert!(why.contains("start") && why.contains("wall"), "{why}");
    assert_eq!(mesh.status(), Status::NoPath);
    assert_eq!(mesh.cells()[6], 0);
    mesh.paint(&(0..9).collect::<Vec<u32>>(), 0).ok();
    let why = mesh.problem().expect("nothing is free");
    assert!(why.contains("no free cell"), "{why}");
    assert_eq!(mesh.polygon_count(), 0);
    mesh.step();
    assert_eq!(mesh.cells().len(), 9);
    // Ground again: the mesh comes back and the search runs.
    mesh.paint(&(0..9).collect::<Vec<u32>>(), 1).ok();
    assert_eq!(mesh.problem(), None);
    assert_eq!(mesh.polygon_count(), 1);
    assert_eq!(mesh.run(), Status::Found);
    assert!((mesh.cost().expect("a length") - 8f64.sqrt()).abs() < 1e-12);
}
