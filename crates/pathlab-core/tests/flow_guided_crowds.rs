//! The bunkers' flow field under other techniques (crowd::flow_flock): the course's
//! two-bunker figure under both neighbour orders, worked by hand; flocks and squads that
//! reach the nearest standing bunker by an independent Dijkstra, never enter walls and
//! switch bunker when one falls; the baked field for the destructible wall against a
//! recompute.

use std::collections::BinaryHeap;

use pathlab_core::boids::Vec2;
use pathlab_core::crowd::flow::NeighbourOrder;
use pathlab_core::crowd::flow_flock::FlowFlockScene;
use pathlab_core::crowd::scene::{Scene, SceneConfig};
use pathlab_core::crowd::FlowField;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use proptest::prelude::*;

const E: u8 = 1;
const S: u8 = 2;
const W: u8 = 3;

/// The figure's grid, row 0 at the top (north): bunker 1 in row 4, column 3 (the course's
/// (3,0), south-most), bunker 2 in row 1, column 0 (the course's (0,3), west-most), and the
/// agent's cell in row 1, column 1 (the course's (1,3)).
fn fig9(order: &str) -> FlowField {
    let grid = Grid::new(5, 5).unwrap();
    let mut field =
        FlowField::new(grid, &[Point::new(3, 4), Point::new(0, 1)], Diagonal::Never, Costs::Integer).unwrap();
    field.set_order(NeighbourOrder::parse(order).unwrap());
    field
}

#[test]
fn the_figures_agent_goes_west_then_east_under_nesw_and_south_under_wsen() {
    // By hand: from (1, 1) bunker 2 is one move west (10) and bunker 1 is 2 east and 3 south
    // (50), so the agent heads west whatever the order. Without bunker 2, moving east or
    // south both leave 40 to go, moving north or west 60: the order decides between E and S.
    for (order, after) in [("nesw", E), ("wsen", S), ("enws", E), ("snew", S), ("wesn", E), ("swen", S)] {
        let mut field = fig9(order);
        let agent = 5 + 1; // row 1, column 1
        assert_eq!(field.directions()[agent], W, "order {order}: before the fall");
        assert_eq!(field.distances()[agent], 10.0);
        field.destroy_goal(1).unwrap();
        assert_eq!(field.distances()[agent], 50.0);
        assert_eq!(field.directions()[agent], after, "order {order}: after bunker 2 fell");
        assert_eq!(field.nearest_goal()[agent], 0);
    }
}

#[test]
fn bunker_ones_own_map_follows_the_order_on_every_tie() {
    // Bunker 1's own map (as the figure's left-hand diagram): every cell north-west of the
    // bunker may go east or south, so the first of E and S in the order wins; cells in the
    // bunker's column go straight south, cells in its row straight east or west.
    for (order, tie) in [("nesw", E), ("wsen", S)] {
        let own = fig9(order).goal_field(0).unwrap();
        for y in 0..5usize {
            for x in 0..5usize {
                let want = match (x.cmp(&3), y.cmp(&4)) {
                    (std::cmp::Ordering::Equal, std::cmp::Ordering::Equal) => 255,
                    (std::cmp::Ordering::Equal, _) => S,
                    (std::cmp::Ordering::Less, std::cmp::Ordering::Equal) => E,
                    (std::cmp::Ordering::Greater, std::cmp::Ordering::Equal) => W,
                    (std::cmp::Ordering::Less, _) => tie,
                    // North-east of the bunker: west or south; W comes before S in wsen
                    // and after it in nesw.
                    (std::cmp::Ordering::Greater, _) => {
                        if order == "wsen" {
                            W
                        } else {
                            S
                        }
                    }
                };
                assert_eq!(own.directions()[y * 5 + x], want, "order {order}, cell ({x}, {y})");
            }
        }
    }
}

#[test]
fn the_figure_scene_turns_as_the_order_says() {
    for (index, want) in [(6.0, f64::from(E)), (22.0, f64::from(S))] {
        let mut scene = FlowFlockScene::fig9(&SceneConfig::default()).unwrap();
        scene.set_param("order", index).unwrap();
        let first = |s: &FlowFlockScene| s.metrics().iter().find(|m| m.name == "first_move").unwrap().value;
        assert_eq!(first(&scene), f64::from(W));
        for _ in 0..8 {
            scene.step();
        }
        assert!(!scene.is_standing(1), "bunker 2 falls at 0.3 s");
        assert_eq!(first(&scene), want);
        for _ in 0..200 {
            scene.step();
        }
        assert_eq!(scene.shelter(0), Some(0), "the agent shelters in bunker 1");
    }
}

/// Multi-source Dijkstra with 8 neighbours, no corner cutting, costs 1 and the square root
/// of 2: the distance from every cell to the nearest of `goals`, written here from scratch.
fn reference(grid: &Grid, goals: &[Point]) -> Vec<f64> {
    #[derive(PartialEq)]
    struct Item(f64, usize);
    impl Eq for Item {}
    impl PartialOrd for Item {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Item {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            o.0.total_cmp(&self.0)
        }
    }
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let wall = |x: i64, y: i64| x < 0 || y < 0 || x >= w || y >= h || grid.cells()[(y * w + x) as usize] == WALL;
    let mut dist = vec![f64::INFINITY; grid.len()];
    let mut heap = BinaryHeap::new();
    for g in goals {
        let i = g.y * grid.width() + g.x;
        dist[i] = 0.0;
        heap.push(Item(0.0, i));
    }
    while let Some(Item(d, i)) = heap.pop() {
        if d > dist[i] {
            continue;
        }
        let (x, y) = ((i as i64) % w, (i as i64) / w);
        for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            if wall(nx, ny) || (dx != 0 && dy != 0 && (wall(x + dx, y) || wall(x, y + dy))) {
                continue;
            }
            let nd = d + if dx != 0 && dy != 0 { std::f64::consts::SQRT_2 } else { 1.0 };
            let j = (ny * w + nx) as usize;
            if nd < dist[j] - 1e-9 {
                dist[j] = nd;
                heap.push(Item(nd, j));
            }
        }
    }
    dist
}

/// Runs a scene, checking at every step that no agent stands in a wall and that every moving
/// agent heads for a standing bunker that is nearest to its cell by the reference; destroys
/// the busiest bunker at `fall` steps and checks that no agent heads for it afterwards.
/// Returns how many agents ended sheltered.
fn run_and_check(scene: &mut FlowFlockScene, steps: u64, fall: u64) -> Result<usize, TestCaseError> {
    let grid = scene.grid().clone();
    let bunkers = scene.bunkers();
    let mut dists: Vec<Vec<f64>> = bunkers.iter().map(|&b| reference(&grid, &[b])).collect();
    let mut fell = None;
    for step in 0..steps {
        if step == fall {
            let heading: Vec<Option<usize>> = (0..scene.len()).map(|i| scene.target(i)).collect();
            let b = (0..bunkers.len()).max_by_key(|&b| heading.iter().filter(|&&t| t == Some(b)).count()).unwrap();
            let p = bunkers[b];
            scene.act("destroy-bunker", Vec2::new(p.x as f32 + 0.5, p.y as f32 + 0.5)).unwrap();
            prop_assert!(!scene.is_standing(b));
            dists[b] = vec![f64::INFINITY; grid.len()];
            fell = Some(b);
        }
        scene.step();
        for i in 0..scene.len() {
            let p = scene.position(i).unwrap();
            let (cx, cy) = (p.x.floor() as usize, p.y.floor() as usize);
            prop_assert!(cx < grid.width() && cy < grid.height(), "agent {i} left the map at {p:?}");
            let c = cy * grid.width() + cx;
            prop_assert!(grid.cells()[c] != WALL, "agent {i} stands in a wall at {p:?}, step {step}");
            if let Some(b) = scene.shelter(i) {
                prop_assert!(scene.is_standing(b), "agent {i} shelters in fallen bunker {b}");
                prop_assert_eq!(bunkers[b], Point::new(cx, cy));
                continue;
            }
            let t = scene.target(i);
            prop_assert!(t.is_some(), "agent {i} has no bunker at step {step}");
            let t = t.unwrap();
            prop_assert!(Some(t) != fell && scene.is_standing(t), "agent {i} heads for fallen bunker {t}");
            let best = dists.iter().map(|d| d[c]).fold(f64::INFINITY, f64::min);
            prop_assert!(
                (dists[t][c] - best).abs() < 1e-9,
                "agent {i} heads for {t} at {}, nearest is {best}",
                dists[t][c]
            );
        }
    }
    Ok((0..scene.len()).filter(|&i| scene.shelter(i).is_some()).count())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn flow_guided_flocks_reach_the_nearest_standing_bunker(seed in 0u64..1_000_000) {
        let mut scene = FlowFlockScene::flock(&SceneConfig { agents: Some(150), seed }).unwrap();
        // 3,200 steps: with 150 boids jostling at the bunkers' doors, one of seed 655191's took
        // more than 1,600 to get in (kept as a regression seed); every other claim held throughout.
        let sheltered = run_and_check(&mut scene, 3200, 40)?;
        prop_assert_eq!(sheltered, 150, "every boid reaches a bunker");
    }

    #[test]
    fn flow_guided_squads_reach_the_nearest_standing_bunker(seed in 0u64..1_000_000) {
        let mut scene = FlowFlockScene::squads(&SceneConfig { agents: Some(36), seed }).unwrap();
        let sheltered = run_and_check(&mut scene, 1600, 40)?;
        prop_assert_eq!(sheltered, 36, "every member reaches a bunker");
    }

    #[test]
    fn the_baked_field_equals_a_recompute_after_the_wall_falls(seed in 0u64..1_000_000, fall_first in any::<bool>()) {
        let mut scene = FlowFlockScene::flock(&SceneConfig { agents: Some(10), seed }).unwrap();
        let wall = scene.destructible_wall().expect("the scene marks a destructible wall");
        prop_assert_eq!(scene.grid().cells()[scene.grid().index(wall)], WALL);
        if fall_first {
            let b = scene.bunkers()[0];
            scene.act("destroy-bunker", Vec2::new(b.x as f32 + 0.5, b.y as f32 + 0.5)).unwrap();
        }
        scene.act("break-wall", Vec2::new(0.0, 0.0)).unwrap();
        let grid = scene.grid().clone();
        prop_assert!(grid.cells()[grid.index(wall)] != WALL);
        let standing: Vec<Point> = scene.bunkers().into_iter().enumerate().filter(|&(b, _)| scene.is_standing(b)).map(|(_, p)| p).collect();
        let fresh = FlowField::new(grid.clone(), &standing, Diagonal::NoCornerCutting, Costs::Real).unwrap();
        let reference = reference(&grid, &standing);
        let field = scene.field();
        for (c, &want) in reference.iter().enumerate() {
            prop_assert_eq!(field.distances()[c].to_bits(), fresh.distances()[c].to_bits(), "distance of cell {}", c);
            prop_assert!(field.distances()[c] == want || (field.distances()[c] - want).abs() < 1e-9);
            prop_assert_eq!(field.directions()[c], fresh.directions()[c], "direction of cell {}", c);
            let bunker = |f: &FlowField, g: u16| f.goals().get(usize::from(g)).copied();
            prop_assert_eq!(bunker(field, field.nearest_goal()[c]), bunker(&fresh, fresh.nearest_goal()[c]), "bunker of cell {}", c);
        }
    }
}

#[test]
fn bad_parameters_are_refused_or_clamped_with_a_message() {
    let mut scene = FlowFlockScene::flock(&SceneConfig { agents: Some(10), seed: 1 }).unwrap();
    assert!(scene.set_param("order", f64::NAN).unwrap_err().to_string().contains("NaN"));
    assert!(scene.set_param("order", 99.0).unwrap().unwrap().contains("outside 0 to 23"));
    assert!(scene.set_param("speed", -4.0).unwrap().unwrap().contains("outside 0.5 to 6"));
    assert!(scene.set_param("map", 2.5).unwrap().is_some());
    assert!(scene.set_param("nonsense", 1.0).unwrap_err().to_string().contains("unknown parameter"));
    assert!(scene.act("destroy-bunker", Vec2::new(f32::NAN, 0.0)).is_err());
    scene.act("break-wall", Vec2::new(0.0, 0.0)).unwrap();
    assert!(scene.act("break-wall", Vec2::new(0.0, 0.0)).unwrap_err().to_string().contains("fallen already"));
    assert!(NeighbourOrder::parse("nesx").unwrap_err().to_string().contains("\"nesx\""));
    assert!(NeighbourOrder::parse("nesww").is_err());
}
