//! The flock scenario looks like a flock for as long as it runs: boids keep clear of one
//! another (the course's separation: repelled strongly enough never to collide) and flock-
//! mates head the same way. Measured by a scan of every pair, independent of the step's
//! spatial grid.

use pathlab_core::boids::{Boids, Scenario};

/// (agents, steps): a minute of simulated time in an optimised build, less in a debug one.
const RUN: (usize, usize) = if cfg!(debug_assertions) { (600, 900) } else { (2_000, 3_600) };

struct Spacing {
    /// Share of boids whose body overlaps another's.
    overlapping: f32,
    /// Mean number of flockmates within `radius`.
    neighbours: f32,
    /// Mean cosine between a boid's heading and its flockmates' summed heading.
    alignment: f32,
}

fn spacing(world: &Boids, radius: f32) -> Spacing {
    let n = world.len();
    let body = world.species_params(0).unwrap().vehicle.radius;
    let (mut overlapping, mut neighbours, mut alignment, mut aligned) = (0, 0, 0.0, 0);
    for i in 0..n {
        let (mut nearest, mut sum) = (f32::INFINITY, world.heading(i) * 0.0);
        for j in (0..n).filter(|&j| j != i) {
            let d = world.pos(i).distance(world.pos(j));
            nearest = nearest.min(d);
            if d <= radius {
                neighbours += 1;
                sum += world.heading(j);
            }
        }
        overlapping += usize::from(nearest < 2.0 * body);
        if sum.length() > 1e-3 {
            alignment += sum.normalized().dot(world.heading(i));
            aligned += 1;
        }
    }
    Spacing {
        overlapping: overlapping as f32 / n as f32,
        neighbours: neighbours as f32 / n as f32,
        alignment: alignment / aligned.max(1) as f32,
    }
}

#[test]
fn an_ageing_flock_keeps_its_spacing_and_its_heading() {
    let (agents, steps) = RUN;
    let mut world = Scenario::Flock.build(agents, 1).unwrap();
    let radius = world.species_params(0).unwrap().cohesion.radius;
    for checkpoint in 1..=3 {
        world.advance(steps / 3);
        let s = spacing(&world, radius);
        let at = world.steps();
        assert!(s.overlapping < 0.35, "step {at}: {:.0} % of the boids overlap a neighbour", s.overlapping * 100.0);
        assert!(s.neighbours < 20.0, "step {at}: {:.1} flockmates within {radius} on average", s.neighbours);
        assert!(s.alignment > 0.9, "step {at}, checkpoint {checkpoint}: mean heading cosine {:.3}", s.alignment);
    }
}
