//! Boids benchmarks.
//!
//! 1. The step time of the flock scenario at 1,000, 5,000, 20,000 and 50,000 agents, to show
//!    that the cost grows linearly with the agent count (the world grows with the count, so
//!    the density, and with it each agent's neighbour count, stays the same).
//! 2. The same step at 5,000 agents with every agent's neighbours found by scanning all
//!    agents (O(n^2)) instead of the spatial grid, as a ratio.
//!
//! Each world first runs 120 steps (two seconds of simulated time) so that flocks have formed:
//! a fresh world of evenly spread agents is cheaper than a flocked one.
//!
//! Criterion measures each size; then a side-by-side pass times them in turn, several rounds,
//! and prints the table (ms per step, ns per agent per step) and the brute-force ratio.
//! Run: `cargo bench -p pathlab-core --bench boids` (with `BOIDS_BENCH=table`, only the table).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pathlab_core::boids::{Boids, Scenario};

mod support;

/// Agent counts of the scaling table.
const SIZES: [usize; 4] = [1_000, 5_000, 20_000, 50_000];

/// Agent count of the brute-force comparison.
const BRUTE: usize = 5_000;

/// Steps run before timing.
const WARM_UP: usize = 120;

/// Steps timed per round of the side-by-side pass, per size.
const STEPS: usize = 30;

/// Rounds of the side-by-side pass; the median is reported.
const ROUNDS: usize = 5;

fn flocked(n: usize) -> Boids {
    let mut world = Scenario::Flock.build(n, 1).expect("the flock scenario builds");
    world.advance(WARM_UP);
    world
}

fn criterion_groups(c: &mut Criterion) {
    let mut group = c.benchmark_group("boids/flock-step");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for n in SIZES {
        let mut world = flocked(n);
        group.bench_function(format!("{n} agents"), |b| {
            b.iter(|| {
                world.step();
                black_box(world.xs()[0]);
            });
        });
    }
    let mut world = flocked(BRUTE);
    group.bench_function(format!("{BRUTE} agents, brute-force neighbours"), |b| {
        b.iter(|| {
            world.step_brute_force();
            black_box(world.xs()[0]);
        });
    });
    group.finish();
}

/// CPU time this thread has run, where Linux tells it (`/proc/thread-self/schedstat`): on a
/// shared machine the wall clock also counts the time other programs had the processor.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Median wall-clock and CPU time of one step over `ROUNDS` rounds of `steps` steps.
fn time_steps(world: &mut Boids, steps: usize, brute: bool) -> (Duration, Option<Duration>) {
    let mut rounds = Vec::with_capacity(ROUNDS);
    let mut cpu_rounds = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let cpu = cpu_time();
        let t = Instant::now();
        for _ in 0..steps {
            if brute {
                world.step_brute_force();
            } else {
                world.step();
            }
        }
        black_box(world.xs()[0]);
        rounds.push(t.elapsed() / steps as u32);
        if let (Some(a), Some(b)) = (cpu, cpu_time()) {
            cpu_rounds.push(b.saturating_sub(a) / steps as u32);
        }
    }
    let cpu = (cpu_rounds.len() == ROUNDS).then(|| support::median(cpu_rounds));
    (support::median(rounds), cpu)
}

fn ms(d: Option<Duration>) -> String {
    d.map_or_else(|| "-".to_string(), |d| format!("{:.3}", d.as_secs_f64() * 1e3))
}

fn side_by_side(steps: usize) {
    println!();
    println!("side by side: flock scenario after {WARM_UP} steps, median of {ROUNDS} rounds of {steps} steps");
    println!(
        "{:>8} {:>11} {:>15} {:>17} {:>10}",
        "agents", "ms / step", "cpu ms / step", "ns / agent-step", "vs 1,000"
    );
    let mut first: Option<f64> = None;
    let mut grid_at_brute = (Duration::ZERO, None);
    for n in SIZES {
        let mut world = flocked(n);
        let (t, cpu) = time_steps(&mut world, steps, false);
        if n == BRUTE {
            grid_at_brute = (t, cpu);
        }
        // Per agent from the CPU time when known (steadier on a busy machine).
        let per_agent = cpu.unwrap_or(t).as_secs_f64() * 1e9 / n as f64;
        let base = *first.get_or_insert(per_agent);
        println!(
            "{:>8} {:>11.3} {:>15} {:>17.1} {:>9.2}x",
            n,
            t.as_secs_f64() * 1e3,
            ms(cpu),
            per_agent,
            per_agent / base
        );
    }
    let mut world = flocked(BRUTE);
    // The brute-force step is slow; fewer steps per round keep the pass short.
    let (brute, brute_cpu) = time_steps(&mut world, (steps / 10).max(1), true);
    println!();
    println!(
        "{BRUTE} agents: grid {:.3} ms / step (cpu {}), brute-force O(n^2) {:.3} ms / step (cpu {}), ratio {:.1}x",
        grid_at_brute.0.as_secs_f64() * 1e3,
        ms(grid_at_brute.1),
        brute.as_secs_f64() * 1e3,
        ms(brute_cpu),
        brute.as_secs_f64() / grid_at_brute.0.as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then one quick pass.
    let test_mode = !std::env::args().any(|a| a == "--bench");
    if test_mode {
        let mut world = Scenario::Flock.build(1_000, 1).expect("the flock scenario builds");
        world.advance(3);
        world.step_brute_force();
        println!("boids bench: ok");
        return;
    }
    // BOIDS_BENCH=table skips criterion and prints only the side-by-side table.
    if std::env::var("BOIDS_BENCH").as_deref() == Ok("table") {
        side_by_side(STEPS);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    criterion_groups(&mut c);
    side_by_side(STEPS);
    c.final_summary();
}
