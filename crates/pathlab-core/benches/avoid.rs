//! ORCA crowd benchmark: the step time of a crowd in the crossing scenario at 500, 2,000 and
//! 8,000 agents (the area grows with the count, so each agent's neighbour count stays about
//! the same and the cost should grow linearly). Each crowd first runs 50 steps so that the
//! agents are moving and meeting; every timed iteration is one more step of the same crowd, so
//! the blocks are mid-crossing while measured. A step includes the metrics pass (overlaps).
//!
//! Run: `cargo bench -p pathlab-core --bench avoid`.

use std::time::Duration;

use criterion::Criterion;
use pathlab_core::crowd::avoid::{AvoidParams, Crowd, Method, Scenario};

/// Agent counts.
const SIZES: [usize; 3] = [500, 2_000, 8_000];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("avoid/orca-step");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for n in SIZES {
        let params = AvoidParams { method: Method::Orca, ..AvoidParams::default() };
        let mut crowd = Crowd::scenario(Scenario::Crossing, n, params, 1).expect("the crossing scenario builds");
        crowd.run(50);
        group.bench_function(format!("{n} agents"), |b| b.iter(|| crowd.step()));
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
