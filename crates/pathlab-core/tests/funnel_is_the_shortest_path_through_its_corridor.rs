//! A* over the navmesh and the funnel, against truth computed here:
//! - a corridor is found exactly when the goal's cell is reachable from the start's by the
//!   navmesh's rules (4-connected moves; also diagonal-only contacts under `always`), by the
//!   reference BFS of `common`;
//! - the corridor is a chain of polygons joined by portals, from the start's polygon to the
//!   goal's;
//! - the funnel's path stays inside the corridor (each segment crosses the corridor's portals
//!   in order), and its length equals the shortest path through the corridor computed here
//!   by a plain visibility search over the corridor's corners;
//! - the point where A* crosses a portal is where the way through it is shortest (against
//!   points sampled along the portal);
//! - the tutorial's 3x3 example (a pillar in the middle of a 3x3 room) worked by hand;
//! - bad input: ends in a wall, outside the map or not finite, walled-off goals, one-cell
//!   corridors and diagonal-only contacts under each rule give clear errors or right answers.

mod any_angle_support;
mod cases;
mod common;
mod oracle;

use std::sync::Arc;

use any_angle_support::{case, draw};
use common::load_movingai;
use oracle::hops_from;
use pathlab_core::grid::{Diagonal, Grid, Point};
use pathlab_core::search::funnel::{Funnel, FunnelEvent};
use pathlab_core::search::navmesh::{find_path, NavmeshSearch};
use pathlab_core::search::{Status, StepEvent};
use pathlab_core::space::navmesh::{NavMesh, NavmeshError, Xy};
use proptest::prelude::*;

const EPS: f64 = 1e-9;

fn centre(p: Point) -> Xy {
    [p.x as f64 + 0.5, p.y as f64 + 0.5]
}

fn dist(a: Xy, b: Xy) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

fn cross(a: Xy, b: Xy) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn sub(a: Xy, b: Xy) -> Xy {
    [a[0] - b[0], a[1] - b[1]]
}

/// The parameters `t` in [0, 1] at which the segment `p -> q` meets the closed segment
/// `l - r`, as an interval, or `None`.
fn meet(p: Xy, q: Xy, l: Xy, r: Xy) -> Option<(f64, f64)> {
    let (d, e, lp) = (sub(q, p), sub(r, l), sub(l, p));
    let denom = cross(d, e);
    if denom.abs() > 1e-12 {
        let t = cross(lp, e) / denom;
        let u = cross(lp, d) / denom;
        return ((-EPS..=1.0 + EPS).contains(&t) && (-EPS..=1.0 + EPS).contains(&u)).then_some((t, t));
    }
    let dd = d[0] * d[0] + d[1] * d[1];
    if dd == 0.0 {
        // A point: on the portal or not.
        let on_line = cross(e, sub(p, l)).abs() <= 1e-12;
        let within = (p[0] - l[0]) * (p[0] - r[0]) <= EPS && (p[1] - l[1]) * (p[1] - r[1]) <= EPS;
        return (on_line && within).then_some((0.0, 1.0));
    }
    if cross(lp, d).abs() > 1e-12 {
        return None; // parallel, apart
    }
    let along = |x: Xy| (sub(x, p)[0] * d[0] + sub(x, p)[1] * d[1]) / dd;
    let (a, b) = (along(l).min(along(r)), along(l).max(along(r)));
    let (lo, hi) = (a.max(0.0), b.min(1.0));
    (lo <= hi + EPS).then_some((lo, hi))
}

/// True when the segment `p -> q`, from a point of corridor polygon `i` to a point of
/// corridor polygon `j >= i`, crosses the portals `i .. j` in order (so it stays in the
/// corridor: between two crossings it is inside one convex polygon).
fn through(portals: &[(Xy, Xy)], p: Xy, i: usize, q: Xy, j: usize) -> bool {
    let mut t = 0.0f64;
    for &(l, r) in &portals[i..j] {
        let Some((lo, hi)) = meet(p, q, l, r) else { return false };
        t = t.max(lo);
        if t > hi + EPS {
            return false;
        }
    }
    true
}

fn corridor_portals(mesh: &NavMesh, corridor: &[u32]) -> Vec<(Xy, Xy)> {
    corridor
        .windows(2)
        .map(|w| {
            let t = mesh.polygon(w[0]).portals.iter().find(|t| t.to == w[1]).expect("a portal joins the corridor");
            (mesh.vertex(t.left), mesh.vertex(t.right))
        })
        .collect()
}

/// The shortest path from `start` to `goal` through the corridor: Dijkstra over the
/// corridor's corners (each with the corridor position it is at), joined when the segment
/// between them stays in the corridor.
fn shortest_through(mesh: &NavMesh, corridor: &[u32], start: Xy, goal: Xy) -> f64 {
    let portals = corridor_portals(mesh, corridor);
    let last = corridor.len() - 1;
    let mut nodes: Vec<(Xy, usize)> = vec![(start, 0)];
    for (k, &p) in corridor.iter().enumerate() {
        for &v in &mesh.polygon(p).corners {
            nodes.push((mesh.vertex(v), k));
        }
    }
    nodes.push((goal, last));
    let n = nodes.len();
    let mut best = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    best[0] = 0.0;
    for _ in 0..n {
        let Some(u) = (0..n).filter(|&u| !done[u] && best[u].is_finite()).min_by(|&a, &b| best[a].total_cmp(&best[b]))
        else {
            break;
        };
        done[u] = true;
        let (p, i) = nodes[u];
        for v in 0..n {
            let (q, j) = nodes[v];
            if !done[v] && j >= i && through(&portals, p, i, q, j) {
                best[v] = best[v].min(best[u] + dist(p, q));
            }
        }
    }
    best[n - 1]
}

/// True when the path's segments each stay in the corridor, in order: tracks every corridor
/// position each corner of the path can be at.
fn stays_in_corridor(mesh: &NavMesh, corridor: &[u32], path: &[Xy]) -> bool {
    let portals = corridor_portals(mesh, corridor);
    let mut can_be_at = vec![0usize];
    for s in path.windows(2) {
        can_be_at = (0..corridor.len())
            .filter(|&j| {
                mesh.contains(corridor[j], s[1])
                    && can_be_at.iter().any(|&i| i <= j && through(&portals, s[0], i, s[1], j))
            })
            .collect();
    }
    can_be_at.contains(&(corridor.len() - 1))
}

/// Reachability by the navmesh's rules: 4-connected, plus diagonal contacts under `always`.
fn reachable(grid: &Grid, start: Point, goal: Point, rule: Diagonal) -> bool {
    let moves = if rule == Diagonal::Always { Diagonal::Always } else { Diagonal::Never };
    hops_from(grid, start, moves)[goal.y * grid.width() + goal.x].is_some()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn the_funnel_path_is_the_shortest_path_through_its_corridor(c in case(16)) {
        for build in [NavMesh::build, NavMesh::build_rectangles] {
            let mesh = Arc::new(build(&c.grid, c.rule).unwrap());
            let (s, g) = (centre(c.start), centre(c.goal));
            let found = find_path(&mesh, s, g).unwrap();
            prop_assert_eq!(found.is_some(), reachable(&c.grid, c.start, c.goal, c.rule));
            let Some(path) = found else { continue };
            let corridor = &path.corridor;
            prop_assert_eq!(corridor[0], mesh.locate(s).unwrap());
            prop_assert_eq!(*corridor.last().unwrap(), mesh.locate(g).unwrap());
            for w in corridor.windows(2) {
                prop_assert!(mesh.polygon(w[0]).portals.iter().any(|t| t.to == w[1]));
            }
            prop_assert_eq!(path.points[0], s);
            prop_assert_eq!(*path.points.last().unwrap(), g);
            let measured: f64 = path.points.windows(2).map(|w| dist(w[0], w[1])).sum();
            prop_assert!((measured - path.length).abs() < EPS);
            prop_assert!(stays_in_corridor(&mesh, corridor, &path.points), "{:?} leaves {:?}", path.points, corridor);
            let best = shortest_through(&mesh, corridor, s, g);
            prop_assert!((path.length - best).abs() < 1e-7, "funnel {} but the corridor's shortest is {}", path.length, best);
            prop_assert!(path.length >= dist(s, g) - EPS);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The point where A* over the polygons crosses a portal (`NavMesh::portal_point`) lies on
    /// the portal and makes `|from - x| + |x - to|` least: no point of 2,001 evenly spaced
    /// along the portal does better.
    #[test]
    fn the_portal_point_is_where_the_way_through_the_portal_is_shortest(
        c in case(12),
        ends in proptest::collection::vec((0.0..12.0f64, 0.0..12.0f64), 2),
    ) {
        let (from, to) = ([ends[0].0, ends[0].1], [ends[1].0, ends[1].1]);
        for build in [NavMesh::build, NavMesh::build_rectangles] {
            let mesh = build(&c.grid, c.rule).unwrap();
            for p in 0..mesh.polygon_count() as u32 {
                for portal in &mesh.polygon(p).portals {
                    let (l, r) = (mesh.vertex(portal.left), mesh.vertex(portal.right));
                    let x = mesh.portal_point(portal, from, to);
                    prop_assert!((dist(l, x) + dist(x, r) - dist(l, r)).abs() < 1e-9, "{x:?} is off the portal {l:?}-{r:?}");
                    let way = dist(from, x) + dist(x, to);
                    let best = (0..=2000)
                        .map(|k| {
                            let t = f64::from(k) / 2000.0;
                            let y = [l[0] + t * (r[0] - l[0]), l[1] + t * (r[1] - l[1])];
                            dist(from, y) + dist(y, to)
                        })
                        .fold(f64::INFINITY, f64::min);
                    prop_assert!(way <= best + 1e-9, "{way} through {x:?}, but {best} along {l:?}-{r:?}");
                }
            }
        }
    }
}

#[test]
fn the_funnel_is_shortest_on_movingai_problems() {
    let (grid, problems) = load_movingai("dao/arena.map");
    let mesh = Arc::new(NavMesh::build(&grid, Diagonal::NoCornerCutting).unwrap());
    for p in problems.iter().step_by(7) {
        let (s, g) = (centre(p.start), centre(p.goal));
        let path = find_path(&mesh, s, g).unwrap().expect("every arena problem has a path");
        assert!(stays_in_corridor(&mesh, &path.corridor, &path.points), "line {}", p.line);
        let best = shortest_through(&mesh, &path.corridor, s, g);
        assert!((path.length - best).abs() < 1e-7, "line {}: {} vs {best}", p.line, path.length);
        // Any angle: never below the straight line, and here never above the grid optimum
        // by more than a few percent.
        assert!(path.length >= dist(s, g) - EPS && path.length <= p.optimal * 1.05 + EPS, "line {}", p.line);
    }
}

#[test]
fn the_checks_catch_a_path_that_cuts_the_corner() {
    // The independent truth must be able to fail: a straight line through the pillar.
    let grid = draw(&["...", ".#.", "..."]);
    let mesh = NavMesh::build(&grid, Diagonal::NoCornerCutting).unwrap();
    let path = find_path(&Arc::new(mesh.clone()), [0.5, 2.5], [2.5, 0.5]).unwrap().unwrap();
    assert!(!stays_in_corridor(&mesh, &path.corridor, &[[0.5, 2.5], [2.5, 0.5]]));
}

/// The tutorial's string-pulling example: a 3x3 room with a pillar in the middle, from one
/// corner of the room to the opposite one. Grid A* (no corner cutting) goes round the
/// pillar along the walls, 4 moves; the string-pulled path runs straight to a corner of the
/// pillar and straight on to the goal.
#[test]
fn the_tutorial_3x3_example_worked_by_hand() {
    let grid = draw(&["...", ".#.", "..."]);
    for &rule in Diagonal::ALL {
        let mesh = Arc::new(NavMesh::build(&grid, rule).unwrap());
        let total: f64 = (0..mesh.polygon_count() as u32).map(|p| mesh.area(p)).sum();
        assert_eq!(total, 8.0, "the ring of 8 cells");
        // Cell centre to cell centre: (0.5, 2.5) -> corner (1, 1) -> (2.5, 0.5), each leg
        // sqrt(0.5² + 1.5²) = sqrt(2.5), so sqrt(10) in all (or the same round (2, 2)).
        let path = find_path(&mesh, [0.5, 2.5], [2.5, 0.5]).unwrap().unwrap();
        assert_eq!(path.points.len(), 3, "{rule}: {:?}", path.points);
        assert!(path.points[1] == [1.0, 1.0] || path.points[1] == [2.0, 2.0], "{rule}: {:?}", path.points);
        assert!((path.length - 10f64.sqrt()).abs() < 1e-12);
        // Corner of the room to corner of the room, as the tutorial draws it: (0, 3) ->
        // (1, 1) -> (3, 0)... or round (2, 2); each leg sqrt(1 + 4).
        let path = find_path(&mesh, [0.0, 3.0], [3.0, 0.0]).unwrap().unwrap();
        assert_eq!(path.points.len(), 3);
        assert!(path.points[1] == [1.0, 1.0] || path.points[1] == [2.0, 2.0]);
        assert!((path.length - 2.0 * 5f64.sqrt()).abs() < 1e-12);
    }
}

#[test]
fn stepping_the_search_and_the_funnel() {
    let grid = draw(&["....", ".##.", "...."]);
    let mesh = Arc::new(NavMesh::build(&grid, Diagonal::NoCornerCutting).unwrap());
    let mut search = NavmeshSearch::new(Arc::clone(&mesh), [0.5, 2.5], [3.5, 0.5]).unwrap();
    assert_eq!(search.status(), Status::Ready);
    let mut expanded = Vec::new();
    let cost = loop {
        match search.step() {
            StepEvent::Expanded(p) => expanded.push(p),
            StepEvent::Found { cost } => break cost,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(search.expanded(), expanded.len());
    assert_eq!(search.step(), StepEvent::Finished);
    assert_eq!(search.corridor_cost(), Some(cost));
    // Going back and running again gives the same steps.
    search.reset();
    assert_eq!(search.status(), Status::Ready);
    assert_eq!(search.run(), Status::Found);
    assert_eq!(search.expanded(), expanded.len());
    // The funnel: one portal per step, each step's event shows the apex and both legs.
    let mut funnel = search.funnel().unwrap();
    let mut corners = Vec::new();
    let length = loop {
        match funnel.step() {
            FunnelEvent::Portal { apex, left, right, corner, .. } => {
                assert_eq!((apex, left, right), funnel.legs());
                corners.extend(corner);
            }
            FunnelEvent::Done { length } => break length,
            FunnelEvent::Finished => panic!("finished early"),
        }
    };
    assert_eq!(funnel.path().len(), corners.len() + 2);
    assert_eq!(funnel.step(), FunnelEvent::Finished);
    assert!((length - search.path().unwrap().length).abs() < 1e-12);
    funnel.reset();
    assert!((funnel.run() - length).abs() < 1e-12);
}

#[test]
fn ends_off_the_mesh_are_refused_with_a_message() {
    let grid = draw(&["..#", "..."]);
    let mesh = Arc::new(NavMesh::build(&grid, Diagonal::NoCornerCutting).unwrap());
    for (start, goal, which) in [
        ([2.5, 0.5], [0.5, 0.5], "start"),
        ([0.5, 0.5], [2.5, 0.5], "goal"),
        ([-0.5, 0.5], [0.5, 0.5], "start"),
        ([0.5, 0.5], [0.5, 7.0], "goal"),
        ([f64::NAN, 0.5], [0.5, 0.5], "start"),
        ([0.5, 0.5], [f64::INFINITY, 0.5], "goal"),
    ] {
        let err = NavmeshSearch::new(Arc::clone(&mesh), start, goal).unwrap_err();
        assert!(matches!(err, NavmeshError::OffMesh { which: w, .. } if w == which), "{err:?}");
        assert!(err.to_string().contains("in no polygon"), "{err}");
    }
    // A failed move leaves the search as it was.
    let mut search = NavmeshSearch::new(Arc::clone(&mesh), [0.5, 0.5], [2.5, 1.5]).unwrap();
    assert!(search.set_ends([2.5, 0.5], [0.5, 0.5]).is_err());
    assert_eq!(search.start(), [0.5, 0.5]);
    assert_eq!(search.run(), Status::Found);
}

#[test]
fn a_walled_off_goal_has_no_path() {
    let grid = draw(&["..#..", "..#.."]);
    let mesh = Arc::new(NavMesh::build(&grid, Diagonal::Always).unwrap());
    let mut search = NavmeshSearch::new(Arc::clone(&mesh), [0.5, 0.5], [4.5, 1.5]).unwrap();
    assert_eq!(search.run(), Status::NoPath);
    assert!(search.path().is_none() && search.funnel().is_none() && search.corridor().is_empty());
    assert_eq!(search.step(), StepEvent::Finished);
}

#[test]
fn diagonal_only_contacts_are_passed_only_under_always() {
    // . #
    // # .
    let grid = draw(&[".#", "#."]);
    for &rule in Diagonal::ALL {
        let mesh = Arc::new(NavMesh::build(&grid, rule).unwrap());
        let found = find_path(&mesh, [0.5, 0.5], [1.5, 1.5]).unwrap();
        if rule == Diagonal::Always {
            // Straight through the corner (1, 1), which needs no bend.
            let path = found.unwrap();
            assert_eq!(path.points, vec![[0.5, 0.5], [1.5, 1.5]]);
            assert_eq!(path.corridor.len(), 2);
            assert!((path.length - 2f64.sqrt()).abs() < 1e-12);
        } else {
            assert!(found.is_none(), "{rule}");
        }
    }
}

#[test]
fn one_cell_corridors_and_shared_polygons() {
    let grid = draw(&["...#", "##.#", "#..#", "#.##", "#..."]);
    let mesh = Arc::new(NavMesh::build(&grid, Diagonal::NoCornerCutting).unwrap());
    let path = find_path(&mesh, [0.5, 0.5], [3.5, 4.5]).unwrap().unwrap();
    assert!(stays_in_corridor(&mesh, &path.corridor, &path.points));
    assert!((path.length - shortest_through(&mesh, &path.corridor, [0.5, 0.5], [3.5, 4.5])).abs() < 1e-9);
    // Start and goal in one polygon: the straight line.
    let open = Arc::new(NavMesh::build(&draw(&["....", "...."]), Diagonal::NoCornerCutting).unwrap());
    let path = find_path(&open, [0.5, 0.5], [3.5, 1.5]).unwrap().unwrap();
    assert_eq!(path.points, vec![[0.5, 0.5], [3.5, 1.5]]);
    assert_eq!(path.corridor.len(), 1);
    // Start on the goal: a path of one point and length 0.
    let path = find_path(&open, [1.5, 0.5], [1.5, 0.5]).unwrap().unwrap();
    assert_eq!((path.points.len(), path.length), (1, 0.0));
}

#[test]
fn a_hand_made_funnel_through_a_zigzag() {
    // Portals that zigzag: the path bends at (2, 1) and then at (4, 2).
    let portals = [([2.0, 0.0], [2.0, 1.0]), ([4.0, 2.0], [4.0, 3.0])];
    let mut f = Funnel::new([0.5, 2.5], [5.5, 0.5], &portals);
    f.run();
    assert_eq!(f.path(), [[0.5, 2.5], [2.0, 1.0], [4.0, 2.0], [5.5, 0.5]]);
}

#[test]
fn rectangle_meshes_refuse_bad_ends_and_pass_pinches_only_under_always() {
    // Ends in a wall, outside the map or not finite are refused on a mesh of rectangles too.
    let grid = draw(&["..#", "..."]);
    let mesh = Arc::new(NavMesh::build_rectangles(&grid, Diagonal::NoCornerCutting).unwrap());
    for (start, goal, which) in
        [([2.5, 0.5], [0.5, 0.5], "start"), ([0.5, 0.5], [3.5, 1.5], "goal"), ([0.5, 0.5], [f64::NAN, 0.5], "goal")]
    {
        let err = NavmeshSearch::new(Arc::clone(&mesh), start, goal).unwrap_err();
        assert!(matches!(err, NavmeshError::OffMesh { which: w, .. } if w == which), "{err:?}");
    }
    // Two pinches in a row, one per diagonal direction:
    // . # .
    // # . #
    // . # .
    // The corner cells reach the centre (and one another) only through a pinch.
    let grid = draw(&[".#.", "#.#", ".#."]);
    for &rule in Diagonal::ALL {
        let mesh = Arc::new(NavMesh::build_rectangles(&grid, rule).unwrap());
        let found = find_path(&mesh, [0.5, 0.5], [2.5, 2.5]).unwrap();
        if rule == Diagonal::Always {
            let path = found.expect("through both pinches");
            assert_eq!(path.points, vec![[0.5, 0.5], [2.5, 2.5]], "{rule}");
            assert!((path.length - 8f64.sqrt()).abs() < 1e-12);
        } else {
            assert!(found.is_none(), "{rule}");
        }
        let across = find_path(&mesh, [2.5, 0.5], [0.5, 2.5]).unwrap();
        assert_eq!(across.is_some(), rule == Diagonal::Always, "{rule}");
    }
}
