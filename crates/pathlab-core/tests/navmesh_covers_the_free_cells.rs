//! The navmesh against truth computed here, on random grids and on MovingAI maps:
//! - the polygons cover exactly the free area: clipping every polygon to every cell (a
//!   Sutherland-Hodgman clip written here) gives area 1 in each open cell and 0 in each wall,
//!   so nothing is missed and nothing overlaps;
//! - every polygon is convex with positive area;
//! - every edge two polygons share is a portal on both sides with the same ends, and every
//!   portal of positive width is such an edge;
//! - point portals exist only under `always`, exactly at diagonal-only contacts.
//!
//! Each check runs on both builds: the triangulated [`NavMesh::build`] and the stacked
//! rectangles of [`NavMesh::build_rectangles`].

mod any_angle_support;
mod cases;
mod common;
mod oracle;

use std::collections::HashMap;

use any_angle_support::{case, draw};
use common::load_movingai;
use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
use pathlab_core::space::navmesh::{NavBuild, NavMesh, NavmeshError, Xy, TRIANGULATE_UP_TO_CORNERS};
use proptest::prelude::*;

/// A way to build a mesh.
type Build = fn(&Grid, Diagonal) -> Result<NavMesh, NavmeshError>;

/// The two ways to build a mesh, by name, each checked against the same truth.
const BUILDS: [(&str, Build); 2] = [("triangulated", NavMesh::build), ("rectangles", NavMesh::build_rectangles)];

/// Twice the signed area of a polygon given by its points.
fn twice_area(points: &[Xy]) -> f64 {
    (0..points.len())
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % points.len()]);
            a[0] * b[1] - a[1] * b[0]
        })
        .sum()
}

/// Keeps the part of `poly` where `inside` holds, for a half-plane whose boundary the
/// function `cut` finds on a segment.
fn clip_half(poly: &[Xy], inside: impl Fn(Xy) -> bool, cut: impl Fn(Xy, Xy) -> Xy) -> Vec<Xy> {
    let mut out = Vec::new();
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        match (inside(a), inside(b)) {
            (true, true) => out.push(b),
            (true, false) => out.push(cut(a, b)),
            (false, true) => {
                out.push(cut(a, b));
                out.push(b);
            }
            (false, false) => {}
        }
    }
    out
}

/// The area of convex `poly` inside the unit square of cell `(x, y)`.
fn area_in_cell(poly: &[Xy], x: f64, y: f64) -> f64 {
    let at_x = |a: Xy, b: Xy, v: f64| {
        let t = (v - a[0]) / (b[0] - a[0]);
        [v, a[1] + t * (b[1] - a[1])]
    };
    let at_y = |a: Xy, b: Xy, v: f64| {
        let t = (v - a[1]) / (b[1] - a[1]);
        [a[0] + t * (b[0] - a[0]), v]
    };
    let mut p = poly.to_vec();
    p = clip_half(&p, |q| q[0] >= x, |a, b| at_x(a, b, x));
    p = clip_half(&p, |q| q[0] <= x + 1.0, |a, b| at_x(a, b, x + 1.0));
    p = clip_half(&p, |q| q[1] >= y, |a, b| at_y(a, b, y));
    p = clip_half(&p, |q| q[1] <= y + 1.0, |a, b| at_y(a, b, y + 1.0));
    if p.len() < 3 {
        0.0
    } else {
        twice_area(&p).abs() / 2.0
    }
}

fn open(grid: &Grid, x: i64, y: i64) -> bool {
    x >= 0 && y >= 0 && (x as usize) < grid.width() && (y as usize) < grid.height() && {
        grid.cells()[y as usize * grid.width() + x as usize] != WALL
    }
}

fn points(mesh: &NavMesh, p: usize) -> Vec<Xy> {
    mesh.polygons()[p].corners.iter().map(|&v| mesh.vertex(v)).collect()
}

/// Checks every promise of the mesh against the grid; returns the first broken one.
fn check_mesh(grid: &Grid, mesh: &NavMesh) -> Result<(), String> {
    let (w, h) = (grid.width(), grid.height());
    // Convex, positive area.
    for p in 0..mesh.polygon_count() {
        let pts = points(mesh, p);
        if pts.len() < 3 || twice_area(&pts) <= 0.0 {
            return Err(format!("polygon {p} {pts:?} has no positive area"));
        }
        for i in 0..pts.len() {
            let (a, b, c) = (pts[i], pts[(i + 1) % pts.len()], pts[(i + 2) % pts.len()]);
            let turn = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
            let ahead = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]);
            if turn < 0.0 || (turn == 0.0 && ahead <= 0.0) {
                return Err(format!("polygon {p} {pts:?} is not convex at {b:?}"));
            }
        }
    }
    // Cell by cell area.
    let mut area = vec![0.0; w * h];
    for p in 0..mesh.polygon_count() {
        let pts = points(mesh, p);
        let lo = |k: usize| pts.iter().map(|q| q[k]).fold(f64::INFINITY, f64::min).floor().max(0.0) as usize;
        let hi = |k: usize, side: usize| {
            (pts.iter().map(|q| q[k]).fold(f64::NEG_INFINITY, f64::max).ceil() as usize).min(side)
        };
        if pts.iter().any(|q| q[0] < 0.0 || q[1] < 0.0 || q[0] > w as f64 || q[1] > h as f64) {
            return Err(format!("polygon {p} {pts:?} leaves the map"));
        }
        for y in lo(1)..hi(1, h) {
            for x in lo(0)..hi(0, w) {
                area[y * w + x] += area_in_cell(&pts, x as f64, y as f64);
            }
        }
    }
    for y in 0..h {
        for x in 0..w {
            let want = if open(grid, x as i64, y as i64) { 1.0 } else { 0.0 };
            let got = area[y * w + x];
            if (got - want).abs() > 1e-9 {
                return Err(format!("cell ({x},{y}) is covered {got}, not {want}"));
            }
        }
    }
    let total: f64 = (0..mesh.polygon_count() as u32).map(|p| mesh.area(p)).sum();
    let free = grid.cells().iter().filter(|&&c| c != WALL).count() as f64;
    if (total - free).abs() > 1e-9 {
        return Err(format!("the polygons' areas sum to {total}, the free area is {free}"));
    }
    check_shared_edges(mesh)?;
    check_point_portals(grid, mesh)
}

/// A polygon's edge on a line: where it starts and ends along the line, the polygon, and
/// its corners in the polygon's order.
type LineEdge = (f64, f64, usize, [u32; 2]);

/// Every edge shared (with positive length) by two polygons is a portal on both sides, with
/// the same ends; every portal of positive width is a shared edge.
fn check_shared_edges(mesh: &NavMesh) -> Result<(), String> {
    // Edges grouped by the line they lie on: (direction reduced, offset).
    let mut lines: HashMap<(i64, i64, i64), Vec<LineEdge>> = HashMap::new();
    for (p, poly) in mesh.polygons().iter().enumerate() {
        let c = &poly.corners;
        for i in 0..c.len() {
            let (a, b) = (c[i], c[(i + 1) % c.len()]);
            let (pa, pb) = (mesh.vertex(a), mesh.vertex(b));
            let (mut dx, mut dy) = ((pb[0] - pa[0]) as i64, (pb[1] - pa[1]) as i64);
            let g = gcd(dx.abs(), dy.abs());
            (dx, dy) = (dx / g, dy / g);
            if dx < 0 || (dx == 0 && dy < 0) {
                (dx, dy) = (-dx, -dy);
            }
            let offset = dy * pa[0] as i64 - dx * pa[1] as i64;
            let along = |q: Xy| q[0] * dx as f64 + q[1] * dy as f64;
            let (s, e) = (along(pa).min(along(pb)), along(pa).max(along(pb)));
            lines.entry((dx, dy, offset)).or_default().push((s, e, p, [a, b]));
        }
    }
    let mut shared = 0usize;
    for edges in lines.values_mut() {
        edges.sort_by(|x, y| x.0.total_cmp(&y.0));
        for i in 0..edges.len() {
            for j in i + 1..edges.len() {
                let (_, ei, pi, ci) = edges[i];
                let (sj, ej, pj, cj) = edges[j];
                if sj >= ei {
                    break;
                }
                if pi == pj || ej.min(ei) - sj <= 0.0 {
                    continue;
                }
                if cj != [ci[1], ci[0]] {
                    return Err(format!("polygons {pi} and {pj} overlap along edges {ci:?} and {cj:?} that differ"));
                }
                for (p, q, [a, b]) in [(pi, pj, ci), (pj, pi, cj)] {
                    let ok = mesh.polygons()[p].portals.iter().any(|t| t.to == q as u32 && t.left == a && t.right == b);
                    if !ok {
                        return Err(format!("polygons {p} and {q} share edge {a}-{b} but {p} has no portal there"));
                    }
                }
                shared += 1;
            }
        }
    }
    let wide: usize = mesh.polygons().iter().flat_map(|p| &p.portals).filter(|t| t.left != t.right).count();
    if wide != 2 * shared {
        return Err(format!("{wide} portals of positive width, but {shared} shared edges"));
    }
    Ok(())
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// Point portals: under `always` one pair at each diagonal-only contact, between polygons
/// on the two sides; under any other rule none.
fn check_point_portals(grid: &Grid, mesh: &NavMesh) -> Result<(), String> {
    let mut contacts = Vec::new();
    for y in 1..grid.height() as i64 {
        for x in 1..grid.width() as i64 {
            let (nw, ne, sw, se) =
                (open(grid, x - 1, y - 1), open(grid, x, y - 1), open(grid, x - 1, y), open(grid, x, y));
            if (nw && se && !ne && !sw) || (ne && sw && !nw && !se) {
                contacts.push([x as f64, y as f64]);
            }
        }
    }
    let mut found = Vec::new();
    for (p, poly) in mesh.polygons().iter().enumerate() {
        for t in poly.portals.iter().filter(|t| t.left == t.right) {
            let at = mesh.vertex(t.left);
            let (mine, theirs) = (mesh.centroid(p as u32), mesh.centroid(t.to));
            // The two polygons lie in opposite quadrants round the corner.
            let opposite =
                (mine[0] - at[0]) * (theirs[0] - at[0]) < 0.0 && (mine[1] - at[1]) * (theirs[1] - at[1]) < 0.0;
            if !opposite || !mesh.polygons()[t.to as usize].corners.contains(&t.left) {
                return Err(format!("point portal {p} -> {} at {at:?} does not join two sides", t.to));
            }
            found.push(at);
        }
    }
    let want = if mesh.diagonal() == Diagonal::Always { 2 * contacts.len() } else { 0 };
    if found.len() != want || found.iter().any(|f| !contacts.contains(f)) {
        return Err(format!("point portals at {found:?}, diagonal contacts at {contacts:?} under {}", mesh.diagonal()));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn the_mesh_covers_exactly_the_free_cells_of_random_grids(c in case(20)) {
        for (name, build) in BUILDS {
            let mesh = build(&c.grid, c.rule).unwrap();
            if let Err(why) = check_mesh(&c.grid, &mesh) {
                prop_assert!(false, "{}: {}\n{:?}", name, why, c.grid);
            }
            // Every open cell's centre is in a polygon; no wall's centre is.
            for y in 0..c.grid.height() {
                for x in 0..c.grid.width() {
                    let centre = [x as f64 + 0.5, y as f64 + 0.5];
                    prop_assert_eq!(mesh.locate(centre).is_some(), open(&c.grid, x as i64, y as i64), "{}", name);
                }
            }
        }
    }
}

#[test]
fn the_mesh_covers_exactly_the_free_cells_of_movingai_maps() {
    for name in ["dao/arena.map", "bg512/AR0011SR.map", "dao/den520d.map", "mazes/maze512-8-0.map"] {
        let (grid, _) = load_movingai(name);
        for rule in [Diagonal::NoCornerCutting, Diagonal::Always] {
            for (build_name, build) in BUILDS {
                let mesh = build(&grid, rule).unwrap();
                check_mesh(&grid, &mesh).unwrap_or_else(|why| panic!("{name} under {rule}, {build_name}: {why}"));
            }
        }
    }
}

#[test]
fn the_checks_catch_a_mesh_that_misses_a_cell() {
    // The truth above must be able to fail: the mesh of one map is wrong for another.
    let mesh = NavMesh::build(&draw(&["...", "...", "..."]), Diagonal::NoCornerCutting).unwrap();
    let err = check_mesh(&draw(&["...", ".#.", "..."]), &mesh).unwrap_err();
    assert!(err.contains("cell (1,1)"), "{err}");
}

#[test]
fn diagonal_contacts_under_each_rule() {
    // . # .
    // # . #
    // . # .
    let grid = draw(&[".#.", "#.#", ".#."]);
    for &rule in Diagonal::ALL {
        for (name, build) in BUILDS {
            let mesh = build(&grid, rule).unwrap();
            check_mesh(&grid, &mesh).unwrap();
            let point_portals: usize =
                mesh.polygons().iter().flat_map(|p| &p.portals).filter(|t| t.left == t.right).count();
            assert_eq!(point_portals, if rule == Diagonal::Always { 8 } else { 0 }, "{rule} {name}");
        }
    }
}

#[test]
fn empty_free_space_and_terrain_are_refused_with_a_message() {
    for (_, build) in BUILDS {
        let walls = draw(&["##", "##"]);
        let err = build(&walls, Diagonal::NoCornerCutting).unwrap_err();
        assert_eq!(err, NavmeshError::NoFreeSpace);
        assert!(err.to_string().contains("no free cell"));
        let terrain = Grid::from_cells(2, 1, vec![1, 5]).unwrap();
        let err = build(&terrain, Diagonal::NoCornerCutting).unwrap_err();
        assert_eq!(err, NavmeshError::Terrain);
        assert!(err.to_string().contains("terrain"));
    }
}

#[test]
fn one_cell_corridors_are_chains_of_polygons() {
    // A winding corridor one cell wide.
    let grid = draw(&["...#", "##.#", "#..#", "#.##", "#..."]);
    for (name, build) in BUILDS {
        for &rule in Diagonal::ALL {
            let mesh = build(&grid, rule).unwrap();
            check_mesh(&grid, &mesh).unwrap_or_else(|why| panic!("{name} {rule}: {why}"));
        }
        // A single open cell is a single square.
        let one = build(&draw(&["#.#"]), Diagonal::NoCornerCutting).unwrap();
        assert_eq!(one.polygon_count(), 1);
        assert_eq!(points(&one, 0).len(), 4);
    }
}

#[test]
fn rectangles_split_their_sides_where_portals_end() {
    // . . . . .
    // # . # . #
    // Row 0 is one rectangle; below it, two single cells. Its bottom side is cut at x = 1, 2,
    // 3 and 4 so that each portal is an edge of both polygons, and it goes straight on there.
    let grid = draw(&[".....", "#.#.#"]);
    let mesh = NavMesh::build_rectangles(&grid, Diagonal::Never).unwrap();
    check_mesh(&grid, &mesh).unwrap();
    assert_eq!(mesh.polygon_count(), 3);
    let top = points(&mesh, 0);
    assert_eq!(
        top,
        vec![[0.0, 0.0], [5.0, 0.0], [5.0, 1.0], [4.0, 1.0], [3.0, 1.0], [2.0, 1.0], [1.0, 1.0], [0.0, 1.0]]
    );
    let ends: Vec<(Xy, Xy)> =
        mesh.polygon(0).portals.iter().map(|t| (mesh.vertex(t.left), mesh.vertex(t.right))).collect();
    assert_eq!(ends, vec![([4.0, 1.0], [3.0, 1.0]), ([2.0, 1.0], [1.0, 1.0])]);
}

/// The corners of the free region's boundary, counted from the four cells round each grid
/// point (outside the grid is wall): the boundary turns there, or two walls touch there
/// diagonally, unless all four cells agree or two side by side are open and two are walls
/// (a straight wall).
fn boundary_corners(grid: &Grid) -> usize {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let mut count = 0;
    for y in 0..=h {
        for x in 0..=w {
            let [nw, ne, sw, se] = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)].map(|(a, b)| open(grid, a, b));
            let straight = (nw == ne && sw == se) || (nw == sw && ne == se);
            if !straight {
                count += 1;
            }
        }
    }
    count
}

#[test]
fn the_automatic_build_triangulates_up_to_the_corner_limit_and_stacks_rectangles_above() {
    // An open room with pillars (single wall cells, apart): 4 corners for the room, 4 for each
    // pillar. One pillar fewer than the limit allows, then exactly the limit, then one more.
    let pillars_at_limit = (TRIANGULATE_UP_TO_CORNERS - 4) / 4;
    let side = 2 * (pillars_at_limit as f64).sqrt().ceil() as usize + 3;
    for (pillars, want) in [
        (pillars_at_limit - 1, NavBuild::Triangulated),
        (pillars_at_limit, NavBuild::Triangulated),
        (pillars_at_limit + 1, NavBuild::Rectangles),
    ] {
        let mut grid = Grid::new(side, side).unwrap();
        let spots = (0..side / 2).flat_map(|j| (0..side / 2).map(move |i| Point::new(2 * i + 1, 2 * j + 1)));
        for at in spots.filter(|p| p.x < side - 1 && p.y < side - 1).take(pillars) {
            grid.set(at, WALL).unwrap();
        }
        let corners = boundary_corners(&grid);
        assert_eq!(corners, 4 + 4 * pillars);
        let mesh = NavMesh::build_auto(&grid, Diagonal::NoCornerCutting).unwrap();
        assert_eq!(mesh.build_kind(), want, "{corners} corners, limit {TRIANGULATE_UP_TO_CORNERS}");
        check_mesh(&grid, &mesh).unwrap();
    }
    // A maze of one-cell corridors is over the limit at 512 x 512; an open room is not.
    let (maze, _) = load_movingai("mazes/maze512-1-0.map");
    assert!(boundary_corners(&maze) > TRIANGULATE_UP_TO_CORNERS);
    assert_eq!(NavMesh::build_auto(&maze, Diagonal::Never).unwrap().build_kind(), NavBuild::Rectangles);
    let (arena, _) = load_movingai("dao/arena.map");
    assert!(boundary_corners(&arena) <= TRIANGULATE_UP_TO_CORNERS);
    assert_eq!(NavMesh::build_auto(&arena, Diagonal::Never).unwrap().build_kind(), NavBuild::Triangulated);
}
