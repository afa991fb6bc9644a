//! Long runs of crowded worlds: no NaN, no agent inside a wall or outside the world, and the
//! same seed gives the same positions, bit for bit.
//!
//! The soak runs 100,000 steps (about 28 minutes of simulated time) in a release build, as
//! `scripts/test.sh` runs the tests; a debug build runs 1,500 so that `cargo test` stays quick.

use pathlab_core::boids::behaviours::Circle;
use pathlab_core::boids::{Behaviour, Boids, BoidsParams, Combine, Pcg32, Scenario, SpeciesParams, Vec2, Walls};
use pathlab_core::grid::{Grid, Point, GROUND, WALL};

const SOAK_STEPS: usize = if cfg!(debug_assertions) { 1_500 } else { 100_000 };

/// A small, crowded world (60 x 36 units, about 40 square units per agent once the walls are
/// taken out) with walls, circles, a looping path, several goals, two flocks and
/// a predator species, and every behaviour switched on for someone.
fn crowded(seed: u64) -> Boids {
    let (cols, rows) = (40, 24);
    let mut rng = Pcg32::new(seed ^ 0x5eed);
    let mut grid = Grid::new(cols, rows).unwrap();
    // A frame of walls with gaps, a few blocks, and scattered single cells.
    for x in 8..32 {
        if x % 9 != 0 {
            grid.set(Point::new(x, 6), WALL).unwrap();
            grid.set(Point::new(x, 17), WALL).unwrap();
        }
    }
    for y in 9..15 {
        grid.set(Point::new(20, y), WALL).unwrap();
    }
    for _ in 0..40 {
        let p = Point::new(rng.below(cols as u32) as usize, rng.below(rows as u32) as usize);
        grid.set(p, WALL).unwrap();
    }
    let waypoints = [Point::new(3, 3), Point::new(36, 3), Point::new(36, 20), Point::new(3, 20)];
    for &w in &waypoints {
        grid.set(w, GROUND).unwrap();
    }
    let walls = Walls::new(grid, 1.5);

    let mut flock = SpeciesParams::named("flock");
    for (b, w) in [
        (Behaviour::Seek, 0.3),
        (Behaviour::Arrive, 0.2),
        (Behaviour::Flee, 0.2),
        (Behaviour::Evade, 2.0),
        (Behaviour::Wander, 0.4),
        (Behaviour::PathFollowing, 0.5),
        (Behaviour::WallFollowing, 0.3),
        (Behaviour::Containment, 2.0),
        (Behaviour::ObstacleAvoidance, 1.5),
        (Behaviour::UnalignedAvoidance, 0.8),
    ] {
        flock = flock.with_weight(b, w);
    }
    let mut other = SpeciesParams { name: "other".into(), combine: Combine::Priority, ..flock.clone() };
    other.vehicle.radius = 0.7;
    let mut context = SpeciesParams { name: "context".into(), combine: Combine::Context, ..flock.clone() };
    context.vehicle.max_speed = 20.0;
    let mut hawks = SpeciesParams::named("hawks")
        .with_weight(Behaviour::Pursue, 1.5)
        .with_weight(Behaviour::Containment, 2.0)
        .with_weight(Behaviour::LeaderFollowing, 0.3);
    hawks.prey = Some(0);
    hawks.vehicle.max_speed = 30.0;
    hawks.vehicle.radius = 1.5;

    let mut world = Boids::new(walls, vec![flock, other, context, hawks], BoidsParams::default(), seed).unwrap();
    world.set_waypoints(waypoints.to_vec()).unwrap();
    world.set_goals(vec![Vec2::new(8.0, 8.0), Vec2::new(52.0, 30.0), Vec2::new(30.0, 18.0)]);
    world.set_circles(vec![
        Circle { centre: Vec2::new(20.0, 24.0), radius: 2.5 },
        Circle { centre: Vec2::new(45.0, 15.0), radius: 1.5 },
    ]);
    world.spawn(0, 30, None).unwrap();
    world.spawn(1, 14, None).unwrap();
    world.spawn(2, 8, None).unwrap();
    world.spawn(3, 3, None).unwrap();
    world.set_leader(Some(0));
    world
}

/// Panics unless every agent is finite, inside the world and in an open cell.
fn check(world: &Boids, step: usize) {
    let walls = world.walls();
    for i in 0..world.len() {
        let (p, v) = (world.pos(i), world.vel(i));
        assert!(
            p.is_finite() && v.is_finite() && world.heading(i).is_finite(),
            "step {step}: agent {i} at {p:?} moving {v:?}"
        );
        assert!(
            p.x >= 0.0 && p.y >= 0.0 && p.x <= walls.width() && p.y <= walls.height(),
            "step {step}: agent {i} left the world: {p:?}"
        );
        assert!(walls.is_free(p), "step {step}: agent {i} is inside a wall at {p:?}");
    }
}

/// Paints a wall across the middle (over agents) at some steps and removes it later, so that
/// agents caught by new walls have to be moved out.
fn edit(world: &mut Boids, step: usize) {
    let row: Vec<Point> = (0..40).filter(|x| x % 7 != 3).map(|x| Point::new(x, 12)).collect();
    if step % 20_000 == 5_000 {
        world.paint(row, WALL).unwrap();
    } else if step % 20_000 == 15_000 {
        world.paint(row, GROUND).unwrap();
    }
}

fn same(a: &Boids, b: &Boids) -> bool {
    let bits = |w: &Boids| -> Vec<u32> {
        w.xs().iter().chain(w.ys()).chain(w.vxs()).chain(w.vys()).map(|v| v.to_bits()).collect()
    };
    bits(a) == bits(b)
}

#[test]
fn a_crowded_world_stays_sound_and_replays_exactly() {
    // The two runs go in parallel: the second only checks the replay.
    let replay = std::thread::spawn(|| {
        let mut world = crowded(7);
        let mut marks = Vec::new();
        for step in 0..SOAK_STEPS {
            edit(&mut world, step);
            world.step();
            if step % 10_000 == 9_999 || step + 1 == SOAK_STEPS {
                marks.push(world.clone());
            }
        }
        marks
    });
    let mut world = crowded(7);
    assert_eq!(world.len(), 55);
    let mut marks = Vec::new();
    check(&world, 0);
    for step in 0..SOAK_STEPS {
        edit(&mut world, step);
        world.step();
        check(&world, step + 1);
        if step % 10_000 == 9_999 || step + 1 == SOAK_STEPS {
            marks.push(world.clone());
        }
    }
    let replayed = replay.join().unwrap();
    assert_eq!(marks.len(), replayed.len());
    for (k, (a, b)) in marks.iter().zip(&replayed).enumerate() {
        assert!(same(a, b), "the replay differs at mark {k}");
    }
    // And another seed is another run.
    let mut other = crowded(8);
    other.advance(10);
    let mut first = crowded(7);
    first.advance(10);
    assert!(!same(&first, &other));
}

#[test]
fn every_scenario_keeps_its_agents_sound() {
    let steps = if cfg!(debug_assertions) { 120 } else { 1_000 };
    for scenario in Scenario::ALL {
        for seed in [1, 99] {
            let mut world = scenario.build(scenario.default_agents(), seed).unwrap();
            for step in 0..steps {
                world.step();
                if step % 50 == 0 {
                    check(&world, step);
                }
            }
            check(&world, steps);
            if seed == 1 {
                let mut again = scenario.build(scenario.default_agents(), seed).unwrap();
                again.advance(steps);
                assert!(same(&world, &again), "{scenario} seed {seed} does not replay");
            }
        }
    }
}

#[test]
fn bad_input_is_refused_or_clamped_never_a_panic() {
    let mut world = Scenario::HawksAndPigeons.build(50, 3).unwrap();
    assert!(world.set_param(0, "vehicle.max_speed", f32::NAN).is_err());
    assert!(world.set_param(0, "vehicle.mass", f32::INFINITY).is_err());
    assert!(world.set_param(9, "vehicle.mass", 1.0).is_err());
    assert!(world.set_param(0, "no.such", 1.0).is_err());
    for (name, value) in
        [("vehicle.mass", -5.0), ("vehicle.max_speed", 1e9), ("separation.radius", -1.0), ("context.slots", 1e6)]
    {
        let note = world.set_param(0, name, value).unwrap();
        assert!(note.is_some_and(|n| n.contains(name) && n.contains("clamped")), "{name}");
    }
    // Zero speed, zero force, the largest radii: still sound.
    world.set_param(1, "vehicle.max_speed", 0.0).unwrap();
    world.set_param(0, "cohesion.radius", 500.0).unwrap();
    world.set_param(0, "max_neighbours", 1000.0).unwrap();
    world.advance(30);
    check(&world, 30);
    // Counts: zero is fine, over the limit is refused and changes nothing.
    assert_eq!(Scenario::Flock.build(0, 1).unwrap().len(), 0);
    assert!(Scenario::Flock.build(100_001, 1).is_err());
    let before = world.len();
    assert!(world.spawn(0, 100_000, None).is_err());
    assert_eq!(world.len(), before);
    assert!(world.spawn(7, 1, None).is_err());
    // Goals and circles with NaN are dropped; removing more agents than exist is fine.
    world.set_goals(vec![Vec2::new(f32::NAN, 1.0), Vec2::new(1e9, -1e9)]);
    assert_eq!(world.goals().len(), 1);
    world.set_circles(vec![Circle { centre: Vec2::new(f32::NAN, 0.0), radius: 1.0 }]);
    assert!(world.circles().is_empty());
    assert_eq!(world.remove_agents(1_000_000, None), before);
    world.advance(5);
    assert!(world.is_empty());
}
