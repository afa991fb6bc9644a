//! The step's inner loop, which works out the flocking rules four neighbours at a time from
//! the spatial grid ([`flock_lanes`]), agrees with the one-neighbour-at-a-time sums over the
//! neighbours found by a scan of every point (all within the radius, or those within a
//! shorter reach); and an inspection, which lists every neighbour,
//! predicts exactly the velocity the next step gives.

use pathlab_core::boids::behaviours::{flock_lanes, Boid, BoidNeighbour, FlockRules, FlockSums};
use pathlab_core::boids::{Scenario, SpatialGrid, Vec2};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Case {
    width: f32,
    height: f32,
    cell: f32,
    points: Vec<(f32, f32, f32, f32)>,
    /// The querying agent: one of the points (its slot is skipped) or a free position.
    me: Result<usize, (f32, f32)>,
    angle: f32,
    radius: f32,
    /// Rule radii as fractions of the query radius, and view angles in degrees (alignment's
    /// and cohesion's the same in about half the cases, as by default).
    rules: [(f32, f32); 3],
    mate: bool,
    touch: f32,
    /// Only neighbours within this fraction of the radius count (all of them from 1 up).
    reach: f32,
}

fn case() -> impl Strategy<Value = Case> {
    (10.0f32..200.0, 10.0f32..200.0, 0.5f32..20.0, 0usize..250).prop_flat_map(|(width, height, cell, n)| {
        // Points in the area, with some exactly on top of one another.
        let point = (0.0f32..width, 0.0f32..height, -5.0f32..5.0, -5.0f32..5.0);
        (
            proptest::collection::vec(point, n),
            prop_oneof![(0..n.max(1)).prop_map(Ok), (0.0f32..width, 0.0f32..height).prop_map(Err)],
            -3.2f32..3.2,
            0.0f32..30.0,
            [(0.0f32..=1.0, 0.0f32..=360.0), (0.0f32..=1.0, 0.0f32..=360.0), (0.0f32..=1.0, 0.0f32..=360.0)],
            any::<bool>(),
            0.0f32..=1.0,
            0usize..4,
            any::<bool>(),
            prop_oneof![Just(1.0f32), 0.0f32..1.2],
        )
            .prop_map(move |(mut points, me, angle, radius, mut rules, mate, touch, copies, shared, reach)| {
                if shared {
                    rules[2] = rules[1];
                }
                let me = match me {
                    Ok(k) if k < points.len() => Ok(k),
                    Ok(_) => Err((width * 0.5, height * 0.5)),
                    Err(p) => Err(p),
                };
                // A few points stacked on the agent or on each other.
                for c in 0..copies.min(points.len()) {
                    let target = match me {
                        Ok(k) => points[k],
                        Err((x, y)) => (x, y, 0.0, 0.0),
                    };
                    let last = points.len() - 1 - c;
                    if Ok(last) != me {
                        points[last] = (target.0, target.1, points[last].2, points[last].3);
                    }
                }
                Case { width, height, cell, points, me, angle, radius, rules, mate, touch: touch * radius, reach }
            })
    })
}

fn half_cos(degrees: f32) -> f32 {
    pathlab_core::boids::SpeciesParams::half_cos(degrees)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, ..ProptestConfig::default() })]

    #[test]
    fn the_four_lane_pass_equals_the_sums_over_the_brute_force_neighbours(c in case()) {
        let n = c.points.len();
        let xs: Vec<f32> = c.points.iter().map(|p| p.0).collect();
        let ys: Vec<f32> = c.points.iter().map(|p| p.1).collect();
        let vxs: Vec<f32> = c.points.iter().map(|p| p.2).collect();
        let vys: Vec<f32> = c.points.iter().map(|p| p.3).collect();
        let mut grid = SpatialGrid::new(c.width, c.height, c.cell);
        grid.rebuild(&xs, &ys, &vxs, &vys, 0..n);
        let (index, pos) = match c.me {
            Ok(k) => (k as u32, Vec2::new(xs[k], ys[k])),
            Err((x, y)) => (u32::MAX, Vec2::new(x, y)),
        };
        let own = grid.ids().iter().position(|&id| id == index).unwrap_or(usize::MAX);
        let heading = Vec2::from_angle(c.angle);
        let a = Boid { index, pos, vel: Vec2::new(1.0, -2.0), heading, max_speed: 10.0, radius: 1.0 };
        let rule = |(f, angle): (f32, f32)| (f * c.radius, half_cos(angle));
        let rules = FlockRules::new(rule(c.rules[0]), rule(c.rules[1]), rule(c.rules[2]));
        let touch = c.touch.max(2e-6);

        let reach_sq = (c.reach * c.radius) * (c.reach * c.radius);
        let lanes = flock_lanes(&a, &grid, own, c.radius, reach_sq, &rules, c.mate, touch);

        // The same from a scan of every point, one neighbour at a time.
        let r2 = (c.radius * c.radius).min(reach_sq);
        let mut expected = FlockSums::default();
        let mut found = 0;
        let mut touching = Vec::new();
        for j in (0..n).filter(|&j| j as u32 != index) {
            let offset = Vec2::new(xs[j] - pos.x, ys[j] - pos.y);
            let d2 = offset.x * offset.x + offset.y * offset.y;
            if d2 > r2 {
                continue;
            }
            let vel = Vec2::new(vxs[j], vys[j]);
            let nb = BoidNeighbour { index: j as u32, offset, vel, dist: d2.sqrt(), radius: 1.0, mate: c.mate };
            expected.add(&a, &nb, &rules);
            found += 1;
            if nb.dist < touch {
                touching.push(nb);
            }
        }
        prop_assert_eq!(lanes.found(), found);
        let (listed, complete) = lanes.touching();
        prop_assert_eq!(complete, touching.len() <= listed.len());
        if complete {
            let mut ids: Vec<u32> = listed.iter().map(|&s| grid.slot(s).0).collect();
            ids.sort_unstable();
            let mut want: Vec<u32> = touching.iter().map(|t| t.index).collect();
            want.sort_unstable();
            prop_assert_eq!(ids, want);
        }
        // Separation's push from a neighbour on the very spot is the caller's.
        let mut got = lanes.sums();
        let mut ties = FlockSums::default();
        for t in &touching {
            ties.add_tie(&a, t, &rules);
        }
        got.push += ties.push;
        prop_assert_eq!(got.coh_count, expected.coh_count);
        // Added in another order: equal up to rounding.
        let close = |u: Vec2, v: Vec2| (u - v).length() <= 1e-4 * (1.0 + found as f32) * (1.0 + v.length());
        prop_assert!(close(got.push, expected.push), "{:?} vs {:?}", got.push, expected.push);
        prop_assert!(close(got.heading, expected.heading), "{:?} vs {:?}", got.heading, expected.heading);
        prop_assert!(close(got.offset, expected.offset), "{:?} vs {:?}", got.offset, expected.offset);
    }
}

#[test]
fn an_inspection_predicts_the_next_steps_velocity_exactly() {
    let worlds = [(Scenario::Flock, 3_000), (Scenario::HawksAndPigeons, 2_000), (Scenario::ObstacleField, 600)];
    for (scenario, agents) in worlds {
        let mut world = scenario.build(agents, 5).unwrap();
        world.advance(150);
        let picks: Vec<usize> = (0..world.len()).step_by(37).collect();
        let predicted: Vec<Vec2> = picks.iter().map(|&i| world.inspect(i).unwrap().next_vel).collect();
        // Only agents in the open: next to a wall the move may also stop the velocity.
        let open: Vec<bool> = picks.iter().map(|&i| world.walls().clearance(world.pos(i)) > 6.0).collect();
        world.step();
        let mut compared = 0;
        for ((&i, want), open) in picks.iter().zip(&predicted).zip(open) {
            if open {
                assert_eq!(world.vel(i), *want, "{scenario}: agent {i}");
                compared += 1;
            }
        }
        assert!(compared * 2 > picks.len(), "{scenario}: only {compared} agents in the open");
    }
}
