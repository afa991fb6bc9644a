//! The street's path-finders compared, and the street with 200 planning pedestrians timed.
//!
//! `cargo run --release -p pathlab-core --example street_planners [STEPS] [SEED] [ROUNDS]`
//!
//! 1. The comparison ([`compare`]): for 5 to 200 pedestrians (and the 6 cars), each path-finder
//!    runs the street for STEPS steps (default 300, 30 simulated seconds) from SEED (default 1),
//!    three times, each plan timed by its fastest run;
//!    a Markdown table gives the time spent planning and the mean nodes expanded per plan, then
//!    each path-finder's histogram of nodes expanded per plan (shared bins), drawn in text.
//! 2. The step-time benchmark: the street with 200 planning pedestrians, each path-finder in
//!    turn for ROUNDS rounds (default 5) of 100 steps after a 100-step warm-up, interleaved;
//!    milliseconds per step, median and range.

use std::time::Instant;

use pathlab_core::crowd::scene::{Scene, SceneConfig};
use pathlab_core::crowd::street::StreetScene;
use pathlab_core::crowd::street_compare::Comparison;
use pathlab_core::crowd::street_plan::Planner;

const COUNTS: [usize; 6] = [5, 10, 25, 50, 100, 200];
const BINS: usize = 10;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let steps = args.next().and_then(Result::ok).unwrap_or(300);
    let seed = args.next().and_then(Result::ok).unwrap_or(1);
    let rounds = args.next().and_then(Result::ok).unwrap_or(5);

    // Each street three times, every plan timed by its fastest (a busy machine pauses some).
    let mut c = Comparison::new(steps, seed).repeated(3);
    for n in COUNTS {
        for p in Planner::ALL {
            c.add_run(p, n).expect("the street builds");
        }
    }
    println!("Planning time (ms, all plans of a {steps}-step run, seed {seed}) and nodes expanded per plan:\n");
    println!("{}", c.table());
    let width = c.bin_width(BINS);
    println!("Nodes expanded per plan, all runs (bins of {width}):\n");
    for p in Planner::ALL {
        let h = c.histogram(p, BINS);
        let most = h.counts.iter().copied().max().unwrap_or(1).max(1);
        println!("{} ({} plans)", p.short(), c.plans_of(p));
        for (k, &n) in h.counts.iter().enumerate() {
            let bar = "#".repeat((n as usize * 50).div_ceil(most as usize));
            println!("  {:>5}-{:<5} {n:>6} {bar}", k as u32 * width, (k as u32 + 1) * width - 1);
        }
    }
    let hits: f64 = c.runs.iter().map(|r| r.collisions).sum();
    println!("\nCar-pedestrian contacts over every run: {hits}\n");

    println!("Step time, 200 planning pedestrians + 6 cars, {rounds} interleaved rounds of 100 steps:\n");
    let config = SceneConfig { agents: Some(200), seed };
    let mut scenes: Vec<StreetScene> =
        Planner::ALL.iter().map(|&p| StreetScene::with_planner(&config, p).expect("the street builds")).collect();
    for s in &mut scenes {
        for _ in 0..100 {
            s.step();
        }
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); scenes.len()];
    for _ in 0..rounds {
        for (s, t) in scenes.iter_mut().zip(&mut times) {
            let began = Instant::now();
            for _ in 0..100 {
                s.step();
            }
            t.push(began.elapsed().as_secs_f64() * 1000.0 / 100.0);
        }
    }
    println!("| path-finder | ms per step (median) | range |");
    println!("| --- | ---: | ---: |");
    for (p, t) in Planner::ALL.iter().zip(&mut times) {
        t.sort_by(f64::total_cmp);
        let median = t[t.len() / 2];
        println!("| {} | {median:.3} | {:.3}-{:.3} |", p.short(), t[0], t[t.len() - 1]);
    }
}
