//! A fixed amount of boid-world work for instruction counting under
//! `valgrind --tool=callgrind`, whose counts, unlike wall-clock times, do not change with the
//! load of a shared machine.
//!
//! `boids_profile [AGENTS] [STEPS] [WARM_UP]` builds the flock scenario with AGENTS agents
//! (default 20,000, seed 1), runs WARM_UP steps (default 120) so that flocks form, then STEPS
//! more (default 10) inside [`measured`]. Count only those with
//! `valgrind --tool=callgrind --toggle-collect='*measured*' target/release/examples/boids_profile`.

use std::hint::black_box;

use pathlab_core::boids::{Boids, Scenario};

/// The steps that are counted.
#[inline(never)]
fn measured(world: &mut Boids, steps: usize) {
    world.advance(steps);
    black_box(world.xs()[0]);
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let agents = args.next().and_then(Result::ok).unwrap_or(20_000);
    let steps = args.next().and_then(Result::ok).unwrap_or(10);
    let warm_up = args.next().and_then(Result::ok).unwrap_or(120);
    let mut world = Scenario::Flock.build(agents, 1).expect("the flock scenario builds");
    world.advance(warm_up);
    measured(&mut world, steps);
    let sum: f32 = world.xs().iter().chain(world.ys()).sum();
    println!("{agents} agents after {} steps: sum of positions {sum}", warm_up + steps);
}
