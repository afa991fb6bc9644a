//! Velocity-obstacle avoidance (VO, RVO, ORCA): scenarios stay collision-free and finish,
//! hand-checkable unit cases, determinism and refusal of bad input.
//!
//! "Collision" is an overlap deeper than 2% of the radius after any step. The step bound for
//! arriving is six times the farthest agent's straight-line time plus 30 s:
//! `6 * (distance / top speed) / dt + 300` steps (ORCA jams in the circle's centre take a while
//! to dissolve).

use pathlab_core::boids::Vec2;
use pathlab_core::crowd::avoid::{
    new_velocity, time_to_collision, AgentState, AvoidDebug, AvoidError, AvoidParams, Crowd, Method, Neighbour,
    Scenario,
};

/// ORCA: the defaults (2 s horizon, margin 0.1). VO/RVO: a 5 s horizon, with which they start
/// to turn early enough in the 64-agent circle, and penalty weight 5, which keeps agents in a
/// packed corridor from picking velocities that collide within a fraction of a second.
fn params(method: Method) -> AvoidParams {
    if method == Method::Orca {
        AvoidParams { method, ..AvoidParams::default() }
    } else {
        AvoidParams { method, time_horizon: 5.0, penalty: 5.0, ..AvoidParams::default() }
    }
}

/// Runs a scenario to the stated bound and checks: no collision, everyone arrived.
fn run_to_bound(scenario: Scenario, n: usize, method: Method, seed: u64) {
    let p = params(method);
    let mut crowd = Crowd::scenario(scenario, n, p, seed).expect("scenario builds");
    let farthest = (0..crowd.len()).map(|i| crowd.position(i).distance(crowd.goal(i))).fold(0.0_f32, f32::max);
    let bound = (6.0 * farthest / p.max_speed / p.dt) as u32 + 300;
    crowd.run(bound);
    let m = crowd.metrics();
    assert_eq!(
        m.collisions, 0,
        "{scenario:?} n={n} {method:?}: worst overlap {:.4} radii, min gap {:.4}",
        m.worst_overlap, m.min_gap
    );
    assert_eq!(m.arrived, n, "{scenario:?} n={n} {method:?}: only {} arrived within {bound} steps", m.arrived);
    assert!(m.max_time > 0.0 && m.mean_time <= m.max_time);
    assert!(m.mean_path_ratio >= 0.99, "nobody walks shorter than the straight line");
}

#[test]
fn orca_circle_swaps_without_collisions_and_everyone_arrives() {
    for n in [8, 24, 64] {
        run_to_bound(Scenario::Circle, n, Method::Orca, 7);
    }
}

#[test]
fn rvo_circle_swaps_without_collisions_and_everyone_arrives() {
    for n in [8, 24, 64] {
        run_to_bound(Scenario::Circle, n, Method::Rvo, 7);
    }
}

#[test]
fn orca_and_rvo_corridor_swaps_without_collisions_and_everyone_arrives() {
    for method in [Method::Orca, Method::Rvo] {
        run_to_bound(Scenario::Corridor, 24, method, 3);
    }
}

#[test]
fn orca_crossing_flows_without_collisions_and_everyone_arrives() {
    run_to_bound(Scenario::Crossing, 50, Method::Orca, 5);
}

fn lone(pref: Vec2) -> AgentState {
    AgentState { id: 0, pos: Vec2::new(0.0, 0.0), vel: Vec2::ZERO, pref, radius: 0.5, max_speed: 1.5 }
}

#[test]
fn a_lone_agent_keeps_its_preferred_velocity() {
    let pref = Vec2::new(0.6, -0.8);
    for method in [Method::Vo, Method::Rvo, Method::Orca] {
        let v = new_velocity(&params(method), &lone(pref), &[], None);
        assert_eq!(v, pref, "{method:?}");
    }
}

#[test]
fn head_on_orca_velocities_satisfy_both_half_planes_and_are_mirror_images() {
    let p = params(Method::Orca);
    let a = AgentState {
        id: 0,
        pos: Vec2::new(-2.0, 0.0),
        vel: Vec2::new(1.0, 0.0),
        pref: Vec2::new(1.0, 0.0),
        radius: 0.5,
        max_speed: 1.5,
    };
    let b = AgentState { id: 0, pos: Vec2::new(2.0, 0.0), vel: Vec2::new(-1.0, 0.0), pref: Vec2::new(-1.0, 0.0), ..a };
    let nb = |s: &AgentState| Neighbour { id: s.id, pos: s.pos, vel: s.vel, radius: s.radius };
    let mut da = AvoidDebug::default();
    let mut db = AvoidDebug::default();
    let va = new_velocity(&p, &a, &[nb(&b)], Some(&mut da));
    let vb = new_velocity(&p, &b, &[nb(&a)], Some(&mut db));
    assert_eq!(da.planes.len(), 1);
    assert!(da.feasible && db.feasible);
    assert!(da.planes[0].signed_distance(va) >= -1e-5);
    assert!(db.planes[0].signed_distance(vb) >= -1e-5);
    // Mirror symmetry through the midpoint: vb = -va.
    assert!((va + vb).length() < 1e-5, "{va:?} {vb:?}");
    // Each took half: the new relative velocity is exactly on the boundary of the VO
    // truncated at the horizon, i.e. they would just touch at the horizon (or later).
    let rel = va - vb;
    let tc = time_to_collision(b.pos - a.pos, rel, 1.0);
    assert!(tc >= p.time_horizon * 0.999, "time to collision {tc}");
    // Half the responsibility: each changed by the same amount, and the change was needed.
    let ca = (va - a.vel).length();
    let cb = (vb - b.vel).length();
    assert!(ca > 1e-3 && (ca - cb).abs() < 1e-5);
    // The change is half of what one agent alone would need: together the relative velocity
    // moved by 2 * ca, and one agent alone (VO-style) would need the full change.
    let u = (rel - (a.vel - b.vel)).length();
    assert!((u - 2.0 * ca).abs() < 1e-4);
}

#[test]
fn the_linear_program_never_exceeds_the_top_speed() {
    // Many neighbours closing from all sides, some overlapping: infeasible programs too.
    let mut seed = 12_345_u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed as f32 / u32::MAX as f32) * 2.0 - 1.0
    };
    let p = params(Method::Orca);
    let mut infeasible = 0;
    for _ in 0..2_000 {
        let agent = AgentState {
            id: 0,
            pos: Vec2::ZERO,
            vel: Vec2::new(next(), next()) * 1.5,
            pref: Vec2::new(next(), next()) * 4.0,
            radius: 0.5,
            max_speed: 1.5,
        };
        let neighbours: Vec<Neighbour> = (0..8)
            .map(|_| Neighbour {
                id: 1,
                pos: Vec2::new(next(), next()) * 2.5,
                vel: Vec2::new(next(), next()) * 1.5,
                radius: 0.5,
            })
            .collect();
        let mut d = AvoidDebug::default();
        let v = new_velocity(&p, &agent, &neighbours, Some(&mut d));
        assert!(v.is_finite());
        assert!(v.length() <= agent.max_speed * (1.0 + 1e-5), "{v:?}");
        if d.feasible {
            for h in &d.planes {
                assert!(h.signed_distance(v) >= -1e-3, "feasible answer violates a plane");
            }
        } else {
            infeasible += 1;
        }
    }
    assert!(infeasible > 0, "the test should reach the 3-D fallback");
}

#[test]
fn vo_picks_a_velocity_outside_every_cone_when_one_exists() {
    for method in [Method::Vo, Method::Rvo] {
        let p = params(method);
        let agent = AgentState {
            id: 0,
            pos: Vec2::ZERO,
            vel: Vec2::new(1.0, 0.0),
            pref: Vec2::new(1.5, 0.0),
            radius: 0.5,
            max_speed: 1.5,
        };
        let neighbours = [
            Neighbour { id: 1, pos: Vec2::new(3.0, 0.2), vel: Vec2::new(-1.0, 0.0), radius: 0.5 },
            Neighbour { id: 1, pos: Vec2::new(2.0, -2.0), vel: Vec2::new(0.0, 1.0), radius: 0.5 },
        ];
        let mut d = AvoidDebug::default();
        let v = new_velocity(&p, &agent, &neighbours, Some(&mut d));
        assert!(d.feasible, "{method:?}");
        assert_eq!(d.cones.len(), 2);
        assert_eq!(d.chosen, v);
        for (n, cone) in neighbours.iter().zip(&d.cones) {
            // Independent check by the definition: the relative velocity's ray misses the
            // combined disc within the horizon (RVO: the velocity 2v - v_A).
            let test = if method == Method::Rvo { v * 2.0 - agent.vel } else { v };
            let rel = test - n.vel;
            let pb = n.pos - agent.pos;
            let steps = 2_000;
            for k in 0..=steps {
                let t = p.time_horizon * k as f32 / steps as f32;
                assert!((pb - rel * t).length() >= 1.0 - 1e-3, "{method:?}: {v:?} hits at t={t}");
            }
            // And by the drawn cone: outside means left of the left side or right of the right.
            let x = rel;
            let inside = cone.left.cross(x) <= 0.0 && cone.right.cross(x) >= 0.0;
            let far = time_to_collision(pb, rel, 1.0) > p.time_horizon;
            assert!(!inside || far);
        }
        // Something in the way: the preferred velocity was not free.
        assert_ne!(v, agent.pref);
    }
}

#[test]
fn same_seed_same_run_bit_for_bit() {
    for method in [Method::Orca, Method::Rvo] {
        let mut a = Crowd::scenario(Scenario::Circle, 24, params(method), 42).unwrap();
        let mut b = Crowd::scenario(Scenario::Circle, 24, params(method), 42).unwrap();
        let c = Crowd::scenario(Scenario::Circle, 24, params(method), 43).unwrap();
        assert_ne!(a.fingerprint(), c.fingerprint(), "seeds matter");
        for _ in 0..200 {
            a.step();
            b.step();
        }
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_eq!(a.metrics(), b.metrics());
    }
}

#[test]
fn agents_on_top_of_each_other_separate_without_nan() {
    for method in [Method::Orca, Method::Rvo, Method::Vo] {
        let mut crowd = Crowd::new(params(method), 20.0, 20.0).unwrap();
        crowd.add(Vec2::new(10.0, 10.0), Vec2::new(15.0, 10.0));
        crowd.add(Vec2::new(10.0, 10.0), Vec2::new(10.0, 15.0));
        crowd.add(Vec2::new(10.0, 10.0), Vec2::new(5.0, 10.0));
        for _ in 0..300 {
            crowd.step();
            for v in crowd.fingerprint() {
                assert!(f32::from_bits(v).is_finite(), "{method:?}");
            }
        }
        if method == Method::Orca {
            for (i, j) in [(0, 1), (0, 2), (1, 2)] {
                assert!(crowd.position(i).distance(crowd.position(j)) >= 0.99, "ORCA pulled them apart");
            }
        }
    }
    // A lone agent with a NaN preferred velocity stays finite.
    let v = new_velocity(&params(Method::Orca), &lone(Vec2::new(f32::NAN, 0.0)), &[], None);
    assert!(v.is_finite());
}

#[test]
fn bad_parameters_are_refused_by_name() {
    let bad = [
        (AvoidParams { radius: 0.0, ..AvoidParams::default() }, "radius"),
        (AvoidParams { radius: f32::NAN, ..AvoidParams::default() }, "radius"),
        (AvoidParams { max_speed: f32::NAN, ..AvoidParams::default() }, "max_speed"),
        (AvoidParams { time_horizon: f32::INFINITY, ..AvoidParams::default() }, "time_horizon"),
        (AvoidParams { dt: -1.0, ..AvoidParams::default() }, "dt"),
        (AvoidParams { neighbour_dist: f32::NAN, ..AvoidParams::default() }, "neighbour_dist"),
        (AvoidParams { penalty: f32::NAN, ..AvoidParams::default() }, "penalty"),
    ];
    for (p, name) in bad {
        let err = Crowd::new(p, 10.0, 10.0).expect_err(name);
        let named = match &err {
            AvoidError::NotANumber { name } | AvoidError::OutOfRange { name, .. } => *name,
        };
        assert_eq!(named, name);
        assert!(err.to_string().contains(name));
        assert!(Crowd::scenario(Scenario::Circle, 8, p, 1).is_err());
    }
    assert!(Crowd::new(AvoidParams::default(), f32::NAN, 10.0).is_err());
}
