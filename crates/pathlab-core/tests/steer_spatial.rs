//! The spatial grid answers neighbour queries exactly as a scan of every point does, on
//! random point sets, cell sizes and queries; and a world's gathered neighbourhoods (capped
//! at the nearest `max_neighbours` too) are the brute-force ones.

use pathlab_core::boids::spatial::brute_force_within;
use pathlab_core::boids::{Behaviour, Scenario, SpatialGrid, Vec2};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Case {
    width: f32,
    height: f32,
    cell: f32,
    xs: Vec<f32>,
    ys: Vec<f32>,
    queries: Vec<(f32, f32, f32)>,
}

fn case() -> impl Strategy<Value = Case> {
    (10.0f32..400.0, 10.0f32..400.0, 0.3f32..60.0, 0usize..300).prop_flat_map(|(width, height, cell, n)| {
        // Points mostly inside the area, some on its edges and a few outside (filed in the
        // nearest edge cell); duplicates happen by chance on the edges.
        let coord = |side: f32| {
            prop_oneof![
                8 => 0.0f32..side,
                1 => Just(0.0f32),
                1 => Just(side),
                1 => -20.0f32..side + 20.0,
            ]
        };
        (
            proptest::collection::vec(coord(width), n),
            proptest::collection::vec(coord(height), n),
            proptest::collection::vec((-10.0f32..width + 10.0, -10.0f32..height + 10.0, 0.0f32..80.0), 1..24),
        )
            .prop_map(move |(xs, ys, queries)| {
                let n = xs.len().min(ys.len());
                Case { width, height, cell, xs: xs[..n].to_vec(), ys: ys[..n].to_vec(), queries }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn grid_queries_equal_brute_force(c in case()) {
        let n = c.xs.len();
        let zeros = vec![0.0; n];
        let mut grid = SpatialGrid::new(c.width, c.height, c.cell);
        // A subset of the points (every other one), as with one species of several.
        let members = (0..n).filter(|i| i % 3 != 1);
        grid.rebuild(&c.xs, &c.ys, &zeros, &zeros, members.clone());
        prop_assert_eq!(grid.len(), members.clone().count());
        for &(qx, qy, r) in &c.queries {
            let centre = Vec2::new(qx, qy);
            let mut expected = brute_force_within(&c.xs, &c.ys, members.clone(), centre, r);
            expected.sort_unstable();

            let mut visited = Vec::new();
            grid.for_each_within(centre, r, |e| {
                visited.push(e.id);
                true
            });
            visited.sort_unstable();
            prop_assert_eq!(&visited, &expected);

            // A scratch buffer with leftovers from an earlier query, as in the step.
            let mut slots = vec![(7u32, 1.0f32); 5];
            let found = grid.slots_within(centre, r, &mut slots);
            slots.truncate(found);
            let mut by_slot: Vec<u32> = slots.iter().map(|&(s, _)| grid.slot(s).0).collect();
            by_slot.sort_unstable();
            prop_assert_eq!(&by_slot, &expected);
            for &(s, d2) in &slots {
                let (id, pos, _) = grid.slot(s);
                prop_assert_eq!(pos, Vec2::new(c.xs[id as usize], c.ys[id as usize]));
                prop_assert!((d2 - (pos - centre).length_sq()).abs() <= 1e-3 * (1.0 + d2));
            }

            let nearest = grid.nearest_within(centre, r, |_| true).map(|e| e.dist_sq);
            let best = expected
                .iter()
                .map(|&i| (Vec2::new(c.xs[i as usize], c.ys[i as usize]) - centre).length_sq())
                .fold(None, |m: Option<f32>, d| Some(m.map_or(d, |m| m.min(d))));
            prop_assert_eq!(nearest, best);
        }
    }

    #[test]
    fn a_worlds_gathered_neighbours_are_the_brute_force_ones(seed in 0u64..10_000, n in 1usize..400, steps in 0usize..30) {
        let mut world = Scenario::Flock.build(n, seed).unwrap();
        world.set_param(0, "max_neighbours", 1000.0).unwrap();
        world.advance(steps);
        let p = world.species_params(0).unwrap();
        // The gather radius: the largest radius of a rule that is on, or the collision reach.
        let radius = [p.separation.radius, p.alignment.radius, p.cohesion.radius, 2.0 * p.vehicle.radius]
            .into_iter()
            .fold(0.0f32, f32::max);
        prop_assert!(p.weight(Behaviour::Cohesion) > 0.0);
        for i in (0..world.len()).step_by(7) {
            let mut gathered = world.inspect(i).unwrap().neighbours;
            gathered.sort_unstable();
            prop_assert_eq!(gathered, world.brute_force_neighbours(i, 0, radius));
        }
    }
}

#[test]
fn a_crowded_worlds_neighbours_are_the_nearest_max_neighbours() {
    // Flocks and a small cap: many agents have more neighbours.
    for (seed, cap) in [(3u64, 5.0f32), (9, 3.0), (17, 1.0)] {
        let mut world = Scenario::Flock.build(400, seed).unwrap();
        world.set_param(0, "max_neighbours", cap).unwrap();
        world.advance(40);
        let p = world.species_params(0).unwrap();
        let radius = [p.separation.radius, p.alignment.radius, p.cohesion.radius, 2.0 * p.vehicle.radius]
            .into_iter()
            .fold(0.0f32, f32::max);
        let mut capped = 0;
        for i in 0..world.len() {
            let me = world.pos(i);
            let mut truth: Vec<(f32, u32)> = world
                .brute_force_neighbours(i, 0, radius)
                .into_iter()
                .map(|j| ((world.pos(j as usize) - me).length(), j))
                .collect();
            capped += usize::from(truth.len() > cap as usize);
            truth.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            truth.truncate(cap as usize);
            let mut expected: Vec<u32> = truth.into_iter().map(|t| t.1).collect();
            expected.sort_unstable();
            let mut gathered = world.inspect(i).unwrap().neighbours;
            gathered.sort_unstable();
            assert_eq!(gathered, expected, "seed {seed}, cap {cap}, agent {i}");
        }
        assert!(capped * 10 > world.len(), "only {capped} agents over the cap");
    }
}

#[test]
fn a_capped_crowd_steps_as_with_the_brute_force_nearest_neighbours() {
    // The step finds how far each agent's nearest `max_neighbours` reach and sums only those;
    // the brute-force step sorts every neighbour by distance and keeps the first. Both must
    // move every agent alike.
    for cap in [1000.0f32, 6.0, 2.0, 1.0] {
        let mut world = Scenario::Flock.build(500, 5).unwrap();
        world.set_param(0, "max_neighbours", cap).unwrap();
        world.advance(60);
        // The collision response works through the touching neighbours one after another,
        // so its result depends on their order, which differs between the two steps.
        world.set_collisions(false);
        // Most agents have more neighbours than the cap (within the flocking radius).
        let p = world.species_params(0).unwrap();
        let radius = p.alignment.radius.max(p.cohesion.radius);
        let over =
            (0..world.len()).filter(|&i| world.brute_force_neighbours(i, 0, radius).len() > cap as usize).count();
        assert!(cap > 999.0 || over * 3 > world.len(), "cap {cap}: only {over} agents over the cap");
        let mut brute = world.clone();
        for _ in 0..3 {
            world.step();
            brute.step_brute_force();
        }
        let (mut worst, mut worst_at) = (0.0f32, 0);
        for i in 0..world.len() {
            let off = (world.pos(i) - brute.pos(i)).length() + (world.vel(i) - brute.vel(i)).length();
            if off > worst {
                (worst, worst_at) = (off, i);
            }
        }
        assert!(worst < 1e-3, "cap {cap}: agent {worst_at} is {worst} off");
    }
}
