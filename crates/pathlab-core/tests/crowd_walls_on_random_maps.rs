//! Walls as polygons on random wall maps: the outlines traced from the cells, worked by hand
//! on small shapes, and crowds pushing straight at their goals through random walls with
//! nothing but RVO2's obstacle half-planes between them and the walls
//! ([`CrowdRules::PLAIN`]: no guard, no sidestep). Over 10,000 steps in all, no agent's disc
//! may reach deeper than 1% of its radius into a wall cell, measured from the cells alone.
//! The agents' radius is 0.4 on cells of side 1, so that a corridor one cell wide leaves
//! room: at radius 0.5 an agent squeezed by others into such a corridor has a single allowed
//! velocity, and the rounding of the linear program let one reach 10% of its radius in.

use pathlab_core::boids::{Pcg32, Vec2};
use pathlab_core::crowd::avoid::{AvoidParams, Crowd, CrowdRules, Obstacles};
use pathlab_core::grid::Grid;

/// How deep a disc of radius `r` at `p` reaches into the wall cells of `grid` (cells of side
/// 1), from the cells around it.
fn depth_in_cells(grid: &Grid, p: Vec2, r: f32) -> f32 {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let mut worst = 0.0_f32;
    let (cx0, cy0) = ((p.x - r).floor() as i64, (p.y - r).floor() as i64);
    let (cx1, cy1) = ((p.x + r).floor() as i64, (p.y + r).floor() as i64);
    for cy in cy0.max(0)..=cy1.min(h - 1) {
        for cx in cx0.max(0)..=cx1.min(w - 1) {
            if grid.cells()[(cy * w + cx) as usize] != 0 {
                continue;
            }
            let (lx, ly) = (cx as f32, cy as f32);
            let inside = p.x > lx && p.x < lx + 1.0 && p.y > ly && p.y < ly + 1.0;
            let q = Vec2::new(p.x.clamp(lx, lx + 1.0), p.y.clamp(ly, ly + 1.0));
            worst = worst.max(if inside { r } else { r - q.distance(p) });
        }
    }
    worst
}

fn grid(rows: &[&str]) -> Grid {
    let cells = rows.iter().flat_map(|r| r.bytes().map(|b| u8::from(b != b'#'))).collect();
    Grid::from_cells(rows[0].len(), rows.len(), cells).expect("a valid grid")
}

#[test]
fn an_l_shaped_wall_becomes_one_ring_of_six_corners_with_one_concave() {
    // ##.
    // #..
    let walls = Obstacles::from_walls(&grid(&["##.", "#.."]), 1.0);
    assert_eq!(walls.rings().len(), 1);
    let v = walls.vertices();
    assert_eq!(v.len(), 6, "{v:?}");
    // The only concave corner is the inner one at (1, 1).
    let concave: Vec<Vec2> = v.iter().filter(|c| !c.convex).map(|c| c.point).collect();
    assert_eq!(concave, vec![Vec2::new(1.0, 1.0)]);
    // The wall lies on the left of every edge: the cell centres are inside, the open ones not.
    assert!(walls.contains(Vec2::new(0.5, 0.5)) && walls.contains(Vec2::new(1.5, 0.5)));
    assert!(!walls.contains(Vec2::new(1.5, 1.5)) && !walls.contains(Vec2::new(2.5, 0.5)));
    for c in v {
        let next = v[c.next as usize];
        assert_eq!(v[next.prev as usize], *c);
        let d = next.point - c.point;
        assert!((c.direction - d * (1.0 / d.length())).length() < 1e-6);
    }
}

#[test]
fn cells_touching_at_a_corner_keep_their_own_rings_and_a_room_has_two() {
    let diagonal = Obstacles::from_walls(&grid(&["#.", ".#"]), 1.0);
    assert_eq!(diagonal.rings().len(), 2);
    assert_eq!(diagonal.vertices().len(), 8);
    assert!(diagonal.vertices().iter().all(|c| c.convex));
    // A room: the outer outline (wall on the left, corners convex) and the inner one (the
    // room's corners are concave for the wall).
    let room = Obstacles::from_walls(&grid(&["####", "#..#", "#..#", "####"]), 2.0);
    assert_eq!(room.rings().len(), 2);
    assert_eq!(room.vertices().len(), 8);
    assert_eq!(room.vertices().iter().filter(|c| c.convex).count(), 4);
    assert!(!room.contains(Vec2::new(4.0, 4.0)), "the room's floor is open");
    assert!(room.contains(Vec2::new(1.0, 1.0)), "the corner cell is wall");
    assert!((room.depth(Vec2::new(3.0, 4.0), 1.5) - 0.5).abs() < 1e-6);
}

/// A random `n` x `n` map with a wall all round, random single walls and random blocks.
fn random_map(rng: &mut Pcg32, n: usize) -> Grid {
    let mut cells = vec![1u8; n * n];
    for y in 0..n {
        for x in 0..n {
            let border = x == 0 || y == 0 || x == n - 1 || y == n - 1;
            if border || rng.unit() < 0.08 {
                cells[y * n + x] = 0;
            }
        }
    }
    for _ in 0..4 {
        let (bx, by) = (1 + (rng.unit() * (n - 5) as f32) as usize, 1 + (rng.unit() * (n - 5) as f32) as usize);
        let (bw, bh) = (1 + (rng.unit() * 3.0) as usize, 1 + (rng.unit() * 3.0) as usize);
        for y in by..by + bh {
            for x in bx..bx + bw {
                cells[y * n + x] = 0;
            }
        }
    }
    Grid::from_cells(n, n, cells).expect("a valid grid")
}

#[test]
fn no_agent_sinks_into_random_walls_over_ten_thousand_steps() {
    const MAPS: u32 = 20;
    const STEPS: u32 = 500;
    let mut rng = Pcg32::new(17);
    let mut worst = 0.0_f32;
    let mut total = 0;
    for map in 0..MAPS {
        let n = 24;
        let g = random_map(&mut rng, n);
        let params = AvoidParams {
            radius: 0.4,
            margin: 0.0,
            obstacle_horizon: 0.5 + (map % 4) as f32,
            ..AvoidParams::default()
        };
        let r = params.radius;
        let mut crowd = Crowd::new(params, n as f32, n as f32).expect("valid parameters");
        crowd.set_rules(CrowdRules::PLAIN);
        crowd.set_walls(&g, 1.0).expect("valid walls");
        // Agents on open cell centres clear of walls, goals anywhere open: the straight line
        // to the goal runs into walls, and the walls alone must stop them.
        let mut open = Vec::new();
        for y in 0..n {
            for x in 0..n {
                let c = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                if g.cells()[y * n + x] != 0 && depth_in_cells(&g, c, r) <= 0.0 {
                    open.push(c);
                }
            }
        }
        for k in 0..16 {
            let at = open[(rng.unit() * open.len() as f32) as usize % open.len()];
            if (0..crowd.len()).any(|i| crowd.position(i).distance(at) < 2.0 * r) {
                continue;
            }
            let goal = open[(k * 37 + map as usize * 11) % open.len()];
            crowd.add(at, goal);
        }
        for _ in 0..STEPS {
            crowd.step();
            total += 1;
            for i in 0..crowd.len() {
                let d = depth_in_cells(&g, crowd.position(i), r) / r;
                assert!(d <= 0.01, "map {map}: agent {i} is {d} radii deep at {:?}", crowd.position(i));
                worst = worst.max(d);
            }
        }
    }
    assert_eq!(total, 10_000);
    eprintln!("random wall maps: deepest {worst} radii over {total} steps");
}
