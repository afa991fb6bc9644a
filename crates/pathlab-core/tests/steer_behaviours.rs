//! Each steering behaviour's force in simple set-ups, the vehicle model, and the ways of
//! combining forces. Directions are checked with dot products against the expected direction,
//! so the tests say what a behaviour does rather than repeat its formula.

use pathlab_core::boids::behaviours::{
    alignment, arrive, cohesion, collide_agents, collide_circles, containment, evade, flee, flocking, leader_following,
    obstacle_avoidance, path_following, pursue, seek, separation, unaligned_avoidance, wall_following, wander,
    wander_turn, Body, Boid, BoidNeighbour, Circle, Obstacles,
};
use pathlab_core::boids::combine::{context_map, priority, weighted_sum, Forces};
use pathlab_core::boids::params::{Chase, Leader, PathFollow, Probes, Unaligned, WallFollow, Wander};
use pathlab_core::boids::path::SteerPath;
use pathlab_core::boids::{Behaviour, Boids, BoidsParams, SpeciesParams, Vec2, Walls};
use pathlab_core::grid::{Grid, Point, WALL};

const SPEED: f32 = 10.0;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The cosine of the angle between two vectors.
fn cos(a: Vec2, b: Vec2) -> f32 {
    a.normalized().dot(b.normalized())
}

fn open_walls() -> Walls {
    Walls::open(50, 50, 2.0).unwrap()
}

fn no_circles() -> Obstacles {
    Obstacles::new(Vec::new(), 100.0, 100.0)
}

// ---- seek, flee, arrive, pursue, evade, wander --------------------------------------------------

#[test]
fn seek_points_at_the_target_at_full_speed() {
    let a = Boid::at(v(10.0, 10.0), SPEED);
    let f = seek(&a, v(13.0, 14.0));
    assert!(cos(f, v(3.0, 4.0)) > 0.9999);
    assert!((f.length() - SPEED).abs() < 1e-4);
    // Moving sideways, the force also cancels the sideways velocity.
    let moving = a.moving(v(0.0, -5.0));
    let f = seek(&moving, v(20.0, 10.0));
    assert!(f.x > 0.0 && f.y > 0.0, "{f:?}");
}

#[test]
fn flee_points_away_and_ignores_far_threats() {
    let a = Boid::at(v(10.0, 10.0), SPEED);
    let f = flee(&a, v(12.0, 10.0), 5.0);
    assert!(cos(f, v(-1.0, 0.0)) > 0.9999);
    assert_eq!(flee(&a, v(40.0, 10.0), 5.0), Vec2::ZERO);
}

#[test]
fn arrive_is_seek_outside_the_radius_and_slows_inside() {
    let a = Boid::at(v(0.0, 0.0), SPEED);
    assert_eq!(arrive(&a, v(50.0, 0.0), 10.0), seek(&a, v(50.0, 0.0)));
    // Inside the slowing radius the desired speed is proportional to the distance.
    let near = arrive(&a, v(5.0, 0.0), 10.0);
    assert!((near.x - SPEED * 0.5).abs() < 1e-4, "{near:?}");
    let nearer = arrive(&a, v(2.0, 0.0), 10.0);
    assert!(nearer.length() < near.length());
    // On the target, moving: the force is a brake.
    let on = a.moving(v(3.0, 1.0));
    assert_eq!(arrive(&on, v(0.0, 0.0), 10.0), v(-3.0, -1.0));
}

fn one_species_world(params: SpeciesParams) -> Boids {
    Boids::new(open_walls(), vec![params], BoidsParams::default(), 1).unwrap()
}

#[test]
fn an_arriving_agent_slows_inside_the_radius_and_stops_on_the_target() {
    let params = SpeciesParams::named("walker").with_weight(Behaviour::Separation, 0.0);
    let mut params = params
        .with_weight(Behaviour::Alignment, 0.0)
        .with_weight(Behaviour::Cohesion, 0.0)
        .with_weight(Behaviour::Wander, 0.0)
        .with_weight(Behaviour::Containment, 0.0)
        .with_weight(Behaviour::Arrive, 1.0);
    params.goal.slowing_radius = 15.0;
    let mut world = one_species_world(params);
    world.add_agent(0, v(10.0, 50.0), Vec2::ZERO).unwrap();
    let target = v(70.0, 50.0);
    world.set_goals(vec![target]);
    let mut top_speed: f32 = 0.0;
    let mut inside: Vec<(f32, f32)> = Vec::new();
    let mut furthest_x: f32 = 0.0;
    for _ in 0..60 * 20 {
        world.step();
        let d = world.pos(0).distance(target);
        let speed = world.vel(0).length();
        top_speed = top_speed.max(speed);
        furthest_x = furthest_x.max(world.pos(0).x);
        if d < 15.0 {
            inside.push((d, speed));
        }
    }
    assert!(top_speed > 13.5, "reached near full speed on the way: {top_speed}");
    // Inside the slowing radius it only slows down...
    for pair in inside.windows(2) {
        assert!(pair[1].1 <= pair[0].1 + 1e-3, "sped up from {:?} to {:?}", pair[0], pair[1]);
    }
    // ...is well below top speed near the target...
    let near: Vec<f32> = inside.iter().filter(|(d, _)| (1.0..3.0).contains(d)).map(|&(_, s)| s).collect();
    assert!(!near.is_empty() && near.iter().all(|&s| s < 0.4 * 14.0), "{near:?}");
    // ...and does not overshoot it.
    assert!(furthest_x < target.x + 0.2, "overshot to {furthest_x}");
    assert!(world.pos(0).distance(target) < 0.05, "ends on the target: {:?}", world.pos(0));
    assert!(world.vel(0).length() < 0.05, "and stopped: {:?}", world.vel(0));
}

#[test]
fn pursuit_aims_ahead_of_a_moving_target_and_evasion_away_from_it() {
    let a = Boid::at(v(0.0, 0.0), SPEED);
    let target = Body { pos: v(20.0, 0.0), vel: v(0.0, 8.0), heading: v(0.0, 1.0) };
    let chase = Chase { hunt_radius: 100.0, panic_radius: 100.0, max_prediction: 2.0 };
    let f = pursue(&a, &target, &chase);
    // The target will be at (20, 16) after the predicted 2 s: the force leans towards +y.
    assert!(cos(f, v(20.0, 16.0)) > 0.999, "{f:?}");
    let e = evade(&a, &target, &chase);
    assert!(cos(e, v(-20.0, -16.0)) > 0.999, "{e:?}");
    // A standing target is just sought.
    let still = Body { pos: v(20.0, 0.0), vel: Vec2::ZERO, heading: v(1.0, 0.0) };
    assert_eq!(pursue(&a, &still, &chase), seek(&a, v(20.0, 0.0)));
}

#[test]
fn wander_seeks_a_point_on_a_circle_ahead_that_turns_a_little_each_step() {
    let w = Wander { distance: 6.0, radius: 3.0, jitter: 4.0 };
    let a = Boid::at(v(0.0, 0.0), SPEED).moving(v(SPEED, 0.0));
    // Straight ahead: the spot is on the heading, no sideways force.
    let f = wander(&a, v(1.0, 0.0), &w);
    assert!(f.y.abs() < 1e-5);
    // A spot to the right of the heading pulls right (+y on screen).
    let f = wander(&a, v(0.0, 1.0), &w);
    assert!(f.y > 0.0);
    let mut spot = v(1.0, 0.0);
    for k in 0..1000 {
        let r = ((k * 7919) % 2000) as f32 / 1000.0 - 1.0;
        let next = wander_turn(spot, r, &w, 1.0 / 60.0);
        assert!((next.length() - 1.0).abs() < 1e-5);
        let turned = spot.cross(next).asin().abs();
        assert!(turned <= 4.0 / 60.0 + 1e-4, "turned {turned}");
        spot = next;
    }
}

// ---- flocking ------------------------------------------------------------------------------------

fn hood(a: &Boid, others: &[(Vec2, Vec2)]) -> Vec<BoidNeighbour> {
    others.iter().enumerate().map(|(k, &(p, vel))| BoidNeighbour::of(a, k as u32 + 1, p, vel, true)).collect()
}

#[test]
fn separation_pushes_apart_more_the_closer_they_are() {
    let a = Boid::at(v(10.0, 10.0), SPEED);
    let near = hood(&a, &[(v(11.0, 10.0), Vec2::ZERO)]);
    let far = hood(&a, &[(v(12.5, 10.0), Vec2::ZERO)]);
    let f_near = separation(&a, &near, 3.0, -2.0);
    let f_far = separation(&a, &far, 3.0, -2.0);
    assert!(cos(f_near, v(-1.0, 0.0)) > 0.9999);
    assert!(f_near.length() > f_far.length());
    // Beyond the radius: nothing.
    let out = hood(&a, &[(v(14.0, 10.0), Vec2::ZERO)]);
    assert_eq!(separation(&a, &out, 3.0, -2.0), Vec2::ZERO);
    // Behind, with a 180 degree view cone: not seen.
    let behind = hood(&a, &[(v(9.0, 10.0), Vec2::ZERO)]);
    assert_eq!(separation(&a, &behind, 3.0, SpeciesParams::half_cos(180.0)), Vec2::ZERO);
    // Two agents on the same spot are pushed opposite ways.
    let b = Boid { index: 1, ..a };
    let fa = separation(&a, &[BoidNeighbour::of(&a, 1, a.pos, Vec2::ZERO, true)], 3.0, -2.0);
    let fb = separation(&b, &[BoidNeighbour::of(&b, 0, b.pos, Vec2::ZERO, true)], 3.0, -2.0);
    assert!(fa.length() > 0.0 && cos(fa, fb) < -0.9999);
}

#[test]
fn two_agents_that_start_touching_end_apart() {
    let mut params = SpeciesParams::named("pair").with_weight(Behaviour::Cohesion, 0.0);
    params = params.with_weight(Behaviour::Alignment, 0.0).with_weight(Behaviour::Wander, 0.0);
    let mut world = one_species_world(params);
    world.add_agent(0, v(50.0, 50.0), Vec2::ZERO).unwrap();
    world.add_agent(0, v(50.5, 50.0), Vec2::ZERO).unwrap();
    world.advance(120);
    let d = world.pos(0).distance(world.pos(1));
    assert!(d >= 2.0, "at least the two radii apart: {d}");
}

#[test]
fn alignment_turns_towards_the_neighbours_heading() {
    let a = Boid::at(v(10.0, 10.0), SPEED).moving(v(SPEED, 0.0));
    let n = hood(&a, &[(v(12.0, 11.0), v(0.0, 8.0)), (v(12.0, 9.0), v(0.0, 6.0))]);
    let f = alignment(&a, &n, 5.0, -2.0);
    // Desired: straight down at full speed; the force is that minus the current velocity.
    assert!((f - v(-SPEED, SPEED)).length() < 1e-4, "{f:?}");
    // Other flocks are not followed.
    let strangers: Vec<BoidNeighbour> = n.iter().map(|x| BoidNeighbour { mate: false, ..*x }).collect();
    assert_eq!(alignment(&a, &strangers, 5.0, -2.0), Vec2::ZERO);
}

#[test]
fn cohesion_pulls_towards_the_centre_of_the_neighbours() {
    let a = Boid::at(v(0.0, 0.0), SPEED);
    let n = hood(&a, &[(v(4.0, 0.0), Vec2::ZERO), (v(4.0, 4.0), Vec2::ZERO), (v(0.0, 4.0), Vec2::ZERO)]);
    let f = cohesion(&a, &n, 10.0, -2.0);
    let centre = v(8.0 / 3.0, 8.0 / 3.0);
    assert!(cos(f, centre) > 0.9999, "{f:?}");
    assert_eq!(cohesion(&a, &[], 10.0, -2.0), Vec2::ZERO);
}

#[test]
fn the_one_pass_flocking_gives_the_three_separate_forces() {
    let a = Boid::at(v(5.0, 5.0), SPEED).moving(v(3.0, 4.0));
    let n = hood(
        &a,
        &[
            (v(6.0, 5.0), v(1.0, 0.0)),
            (v(8.0, 9.0), v(0.0, 2.0)),
            (v(2.0, 5.5), v(-1.0, 1.0)),
            (v(5.0, 5.0), v(0.0, 0.0)),
        ],
    );
    let (sc, ac, cc) = (SpeciesParams::half_cos(300.0), SpeciesParams::half_cos(270.0), SpeciesParams::half_cos(200.0));
    let (s, al, co) = flocking(&a, &n, (3.0, sc), (6.0, ac), (7.0, cc));
    assert!((s - separation(&a, &n, 3.0, sc)).length() < 1e-4);
    assert!((al - alignment(&a, &n, 6.0, ac)).length() < 1e-4);
    assert!((co - cohesion(&a, &n, 7.0, cc)).length() < 1e-4);
}

#[test]
fn leader_following_arrives_behind_and_clears_the_leaders_path() {
    let leader = Body { pos: v(50.0, 50.0), vel: v(5.0, 0.0), heading: v(1.0, 0.0) };
    let p = Leader { behind: 6.0, sight_length: 12.0, sight_width: 3.0 };
    // Behind and to the side: pulled towards the spot behind the leader.
    let a = Boid::at(v(40.0, 56.0), SPEED);
    let f = leader_following(&a, &leader, &p, 10.0);
    assert!(cos(f, v(44.0, 50.0) - a.pos) > 0.999, "{f:?}");
    // In front of the leader, just off its line to the right (+y): pushed further right.
    let blocking = Boid::at(v(55.0, 51.0), SPEED);
    let f = leader_following(&blocking, &leader, &p, 10.0);
    let without = arrive(&blocking, v(44.0, 50.0), 10.0);
    assert!((f - without).y > 0.0, "{f:?}");
}

#[test]
fn unaligned_avoidance_turns_both_agents_away_from_a_head_on_collision() {
    let u = Unaligned { radius: 30.0, horizon: 3.0 };
    let a = Boid::at(v(0.0, 0.0), SPEED).moving(v(5.0, 0.0));
    let b = Boid { index: 1, ..Boid::at(v(20.0, 0.5), SPEED).moving(v(-5.0, 0.0)) };
    let fa = unaligned_avoidance(&a, &[BoidNeighbour::of(&a, 1, b.pos, b.vel, false)], &u);
    let fb = unaligned_avoidance(&b, &[BoidNeighbour::of(&b, 0, a.pos, a.vel, false)], &u);
    // a passes above (-y), b below (+y): opposite sides, so they miss.
    assert!(fa.y < 0.0 && fb.y > 0.0, "{fa:?} {fb:?}");
    // A neighbour on a parallel course far to the side is no threat.
    let c = BoidNeighbour::of(&a, 2, v(20.0, 10.0), v(5.0, 0.0), false);
    assert_eq!(unaligned_avoidance(&a, &[c], &u), Vec2::ZERO);
    // Nor is one whose closest approach is beyond the horizon.
    let far = BoidNeighbour::of(&a, 3, v(29.0, 0.0), v(-1.0, 0.0), false);
    assert_eq!(unaligned_avoidance(&a, &[far], &Unaligned { radius: 30.0, horizon: 1.0 }), Vec2::ZERO);
}

// ---- paths, walls and obstacles ------------------------------------------------------------------

#[test]
fn path_following_heads_along_the_path_and_back_onto_it() {
    let path = SteerPath::new(vec![v(0.0, 10.0), v(100.0, 10.0)], false);
    let p = PathFollow { look_ahead: 8.0, predict: 0.0, radius: 2.0 };
    let on = Boid::at(v(20.0, 10.0), SPEED);
    let (f, segment) = path_following(&on, &path, u32::MAX, &p, 10.0);
    assert_eq!(segment, 0);
    assert!(cos(f, v(1.0, 0.0)) > 0.9999);
    // Off the path: pulled back towards it as well as along it.
    let off = Boid::at(v(20.0, 20.0), SPEED);
    let (f, _) = path_following(&off, &path, 0, &p, 10.0);
    assert!(f.y < 0.0 && f.x > 0.0);
    // At the end of an open path: arrival, so a brake when on the end point and moving.
    let end = Boid::at(v(100.0, 10.0), SPEED).moving(v(2.0, 0.0));
    let (f, _) = path_following(&end, &path, 0, &p, 10.0);
    assert!(f.x < 0.0);
}

#[test]
fn wall_following_runs_parallel_to_the_wall_at_the_offset() {
    // A wall along the row y = 10 (cells of 2 units: y from 20 to 22).
    let mut grid = Grid::new(50, 50).unwrap();
    for x in 0..50 {
        grid.set(Point::new(x, 10), WALL).unwrap();
    }
    let walls = Walls::new(grid, 2.0);
    let w = WallFollow { offset: 3.0, reach: 10.0 };
    // 5 units above the wall's top face, heading right: pulled along +x and towards the
    // offset line (y = 17), i.e. down.
    let a = Boid::at(v(40.0, 15.0), SPEED).moving(v(SPEED, 0.0));
    let f = wall_following(&a, &walls, &w) + a.vel;
    assert!(f.x > 0.0 && f.y > 0.0, "{f:?}");
    // Heading left, it follows the wall leftwards.
    let back = Boid::at(v(40.0, 15.0), SPEED).moving(v(-SPEED, 0.0));
    assert!((wall_following(&back, &walls, &w) + back.vel).x < 0.0);
    // Too far from any wall: nothing.
    let far = Boid::at(v(40.0, 60.0), SPEED);
    assert_eq!(wall_following(&far, &walls, &w), Vec2::ZERO);
}

#[test]
fn containment_pushes_back_from_a_wall_ahead_along_its_normal() {
    let walls = open_walls();
    let probes = Probes { min_length: 6.0, look_ahead: 0.5, side_angle: 30.0 };
    // Heading for the right edge (x = 100), 3 units away.
    let a = Boid::at(v(97.0, 50.0), SPEED).moving(v(SPEED, 0.0));
    let f = containment(&a, &walls, &probes);
    assert!(f.x < 0.0 && f.y.abs() < 1e-4, "{f:?}");
    // In the middle of the world: nothing.
    let mid = Boid::at(v(50.0, 50.0), SPEED).moving(v(SPEED, 0.0));
    assert_eq!(containment(&mid, &walls, &probes), Vec2::ZERO);
}

#[test]
fn obstacle_avoidance_steers_round_a_circle_or_wall_ahead() {
    let walls = open_walls();
    let probes = Probes { min_length: 10.0, look_ahead: 1.0, side_angle: 30.0 };
    let circles = Obstacles::new(vec![Circle { centre: v(60.0, 49.0), radius: 3.0 }], 100.0, 100.0);
    // Heading +x at y = 50; the circle is ahead and slightly above (-y): push down (+y).
    let a = Boid::at(v(50.0, 50.0), SPEED).moving(v(SPEED, 0.0));
    let f = obstacle_avoidance(&a, &walls, &circles, &probes);
    assert!(f.y > 0.0, "{f:?}");
    assert!(f.x < 0.0, "and brakes: {f:?}");
    // A circle behind is ignored.
    let behind = Boid::at(v(70.0, 50.0), SPEED).moving(v(SPEED, 0.0));
    assert_eq!(obstacle_avoidance(&behind, &walls, &circles, &probes), Vec2::ZERO);
    // A wall cell ahead, on the agent's right edge: push left (-y).
    let mut grid = Grid::new(50, 50).unwrap();
    grid.set(Point::new(30, 25), WALL).unwrap();
    let walled = Walls::new(grid, 2.0);
    let b = Boid::at(v(52.0, 49.5), SPEED).moving(v(SPEED, 0.0));
    let f = obstacle_avoidance(&b, &walled, &no_circles(), &probes);
    assert!(f.y < 0.0, "{f:?}");
}

#[test]
fn sphere_sphere_collisions_split_the_overlap_and_the_approach() {
    let a = Boid::at(v(0.0, 0.0), SPEED);
    let n = BoidNeighbour { radius: 1.0, ..BoidNeighbour::of(&a, 1, v(1.5, 0.0), v(-2.0, 0.0), true) };
    let (push, vel) = collide_agents(&a, &[n], v(2.0, 0.0));
    // Overlap 0.5: half of it each way.
    assert!((push - v(-0.25, 0.0)).length() < 1e-6, "{push:?}");
    // Approaching at 4: half of that removed from this agent.
    assert!((vel - v(0.0, 0.0)).length() < 1e-6, "{vel:?}");
    let circles = Obstacles::new(vec![Circle { centre: v(2.5, 0.0), radius: 2.0 }], 100.0, 100.0);
    let (push, vel) = collide_circles(&Boid::at(v(0.0, 0.0), SPEED), &circles, v(3.0, 1.0));
    assert!((push - v(-0.5, 0.0)).length() < 1e-6);
    assert_eq!(vel, v(0.0, 1.0));
}

// ---- the vehicle model and the combinations -------------------------------------------------------

#[test]
fn the_vehicle_model_truncates_force_and_speed_and_divides_by_mass() {
    let mut params = SpeciesParams::named("v");
    params.weights = [0.0; 15];
    params = params.with_weight(Behaviour::Seek, 1.0);
    params.vehicle = pathlab_core::boids::params::Vehicle { mass: 2.0, max_force: 3.0, max_speed: 12.0, radius: 1.0 };
    let mut world = one_species_world(params.clone());
    world.add_agent(0, v(10.0, 50.0), Vec2::ZERO).unwrap();
    world.set_goals(vec![v(90.0, 50.0)]);
    world.step();
    // Seek asks for a change of 12 units/s: truncated to the maximum force 3, over mass 2,
    // for 1/60 s: 0.025 units/s.
    assert!((world.vel(0).x - 0.025).abs() < 1e-6, "{:?}", world.vel(0));
    assert!((world.pos(0).x - (10.0 + 0.025 / 60.0)).abs() < 1e-5);
    // With force to spare, the whole change over the mass: 12 / 0.1 / 60 = 2.
    params.vehicle.max_force = 100.0;
    params.vehicle.mass = 0.1;
    let mut strong = one_species_world(params);
    strong.add_agent(0, v(10.0, 50.0), Vec2::ZERO).unwrap();
    strong.set_goals(vec![v(90.0, 50.0)]);
    strong.step();
    assert!((strong.vel(0).x - 2.0).abs() < 1e-5, "{:?}", strong.vel(0));
    // A second later the strong one is at top speed, and no faster.
    strong.advance(60);
    assert!(strong.vel(0).length() <= 12.0 + 1e-4);
    assert!(strong.vel(0).length() > 11.9, "{:?}", strong.vel(0));
    assert_eq!(world.heading(0), v(1.0, 0.0));
}

#[test]
fn weighted_sum_and_priority_differ_when_the_budget_is_short() {
    let mut f = Forces::default();
    f.set(Behaviour::ObstacleAvoidance, v(0.0, 20.0), 1.0);
    f.set(Behaviour::Seek, v(20.0, 0.0), 1.0);
    let sum = weighted_sum(&f, 20.0);
    let first = priority(&f, 20.0);
    assert!(sum.x > 0.0 && sum.y > 0.0);
    assert!((sum.length() - 20.0).abs() < 1e-4);
    // Priority spends all 20 on avoidance: seeking is dropped this step.
    assert_eq!(first, v(0.0, 20.0));
    // With room for both, priority adds them in full too.
    assert_eq!(priority(&f, 100.0), v(20.0, 20.0));
    // Weights scale the forces.
    let mut g = Forces::default();
    g.set(Behaviour::Seek, v(1.0, 0.0), 3.0);
    assert_eq!(weighted_sum(&g, 100.0), v(3.0, 0.0));
}

#[test]
fn context_maps_hold_interest_towards_goals_and_danger_towards_threats() {
    let mut f = Forces::default();
    f.set(Behaviour::Seek, v(10.0, 0.0), 1.0);
    f.set(Behaviour::Separation, v(0.0, -10.0), 1.0);
    let map = context_map(&f, Vec2::ZERO, v(1.0, 0.0), 8);
    assert_eq!(map.slots, 8);
    // Slot 0 points at +x (the goal): most interest. Slot 2 points at +y: the neighbour that
    // separation pushes away from lies there: most danger.
    let best_interest = (0..8).max_by(|&a, &b| map.interest[a].total_cmp(&map.interest[b])).unwrap();
    let worst_danger = (0..8).max_by(|&a, &b| map.danger[a].total_cmp(&map.danger[b])).unwrap();
    assert_eq!(best_interest, 0);
    assert_eq!(worst_danger, 2);
    assert_eq!(map.chosen, Some(0));
}
