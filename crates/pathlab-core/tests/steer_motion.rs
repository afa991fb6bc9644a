//! A world's motion (what a step changes) carries everything a step depends on that stepping
//! changes: a copy of a world given another's motion steps on exactly as the original, bit
//! for bit, in every scenario. The page relies on it to step a copy in a worker thread. Bad
//! motion is refused, naming the problem, and leaves the world as it was.

use pathlab_core::boids::{Boids, MotionError, Pcg32, Scenario};
use proptest::prelude::*;

fn same(a: &Boids, b: &Boids) -> bool {
    a.steps() == b.steps()
        && [a.xs(), a.ys(), a.vxs(), a.vys(), a.hxs(), a.hys()]
            .iter()
            .zip([b.xs(), b.ys(), b.vxs(), b.vys(), b.hxs(), b.hys()])
            .all(|(u, v)| u.iter().map(|x| x.to_bits()).eq(v.iter().map(|x| x.to_bits())))
}

#[test]
fn a_copy_given_the_motion_steps_on_exactly_as_the_original() {
    for &scenario in Scenario::ALL {
        let mut original = scenario.build(300, 11).unwrap();
        let mut copy = original.clone();
        original.advance(45);
        assert!(!same(&original, &copy), "{scenario:?}: the original moved");
        copy.set_motion(&original.motion()).unwrap();
        assert!(same(&original, &copy), "{scenario:?}: the motion arrived");
        // Long enough for path progress, goals and wander to matter.
        for _ in 0..120 {
            original.step();
            copy.step();
        }
        assert!(same(&original, &copy), "{scenario:?}: the copy stepped on differently");
    }
}

#[test]
fn bad_motion_is_refused_and_changes_nothing() {
    let mut world = Scenario::Flock.build(40, 3).unwrap();
    world.advance(5);
    let before = world.clone();
    let good = world.motion();
    let other = Scenario::Flock.build(39, 3).unwrap().motion();
    let with = |at: usize, value: f32| {
        let mut m = good.clone();
        m[at..at + 4].copy_from_slice(&value.to_le_bytes());
        m
    };
    // Header of 16 bytes; then x of every agent, then y, ...
    let x_of_5 = 16 + 5 * 4;
    let vy_of_2 = 16 + (3 * 40 + 2) * 4;
    let cases: Vec<(Vec<u8>, MotionError)> = vec![
        (Vec::new(), MotionError::NotMotion),
        (b"nonsense, not motion".to_vec(), MotionError::NotMotion),
        (other, MotionError::WrongCount { world: 40, motion: 39 }),
        (good[..good.len() - 1].to_vec(), MotionError::WrongLength { expected: good.len(), got: good.len() - 1 }),
        (with(vy_of_2, f32::NAN), MotionError::NotFinite { agent: 2 }),
        (with(x_of_5, -3.0), MotionError::Outside { agent: 5, x: -3.0, y: world.ys()[5] }),
        (with(x_of_5, 1e9), MotionError::Outside { agent: 5, x: 1e9, y: world.ys()[5] }),
    ];
    for (bytes, error) in cases {
        assert_eq!(world.set_motion(&bytes), Err(error.clone()));
        assert!(!error.to_string().is_empty());
        assert!(same(&world, &before), "{error}: the world changed");
    }
    world.set_motion(&good).unwrap();
    assert!(same(&world, &before));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Any motion that passes the checks (random, but finite and inside the world; any path
    /// progress and goal) is safe to step from.
    #[test]
    fn any_accepted_motion_steps_without_panic_or_nan(seed in 0u64..1_000, scenario in 0usize..6) {
        let scenario = Scenario::ALL[scenario % Scenario::ALL.len()];
        let mut world = scenario.build(60, seed).unwrap();
        let n = world.len();
        let mut rng = Pcg32::new(seed);
        let mut m = world.motion();
        let (w, h) = (world.walls().width(), world.walls().height());
        for i in 0..n {
            let put = |m: &mut Vec<u8>, column: usize, v: f32| {
                let at = 16 + (column * n + i) * 4;
                m[at..at + 4].copy_from_slice(&v.to_le_bytes());
            };
            put(&mut m, 0, rng.range(0.0, w));
            put(&mut m, 1, rng.range(0.0, h));
            for c in 2..8 {
                put(&mut m, c, rng.range(-50.0, 50.0));
            }
            let progress = 16 + 8 * n * 4 + i * 4;
            m[progress..progress + 4].copy_from_slice(&rng.next_u32().to_le_bytes());
            let goal = 16 + 8 * n * 4 + n * 4 + i * 2;
            m[goal..goal + 2].copy_from_slice(&(rng.next_u32() as u16).to_le_bytes());
        }
        world.set_motion(&m).unwrap();
        world.advance(20);
        for i in 0..n {
            let (p, v) = (world.pos(i), world.vel(i));
            prop_assert!(p.x.is_finite() && p.y.is_finite() && v.x.is_finite() && v.y.is_finite(), "agent {i}");
            prop_assert!(p.x >= 0.0 && p.x <= w && p.y >= 0.0 && p.y <= h, "agent {i} at {p:?}");
        }
    }
}
