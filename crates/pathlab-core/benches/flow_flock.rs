//! The bunkers' flow field under a flock, and a field baked for a known destructible wall.
//!
//! - **flock step**: 20,000 boids on a 192 x 128 map of rooms (seed 7, three bunkers), the
//!   same flock code with its alignment taken from the field ("flow") and from the
//!   neighbours' mean heading ("plain", no field read, nobody shelters). Each round times 10
//!   steps of each, from the same starting copy, in alternating order; 15 rounds. Target: the
//!   flow-guided step within 1.2 times the plain one.
//! - **baked wall**: on the same map, the marked destructible wall's fall handled by
//!   switching in the baked field (a move of the stored field), against a recompute (a fresh
//!   build on the map without the wall) and the exact local repair (`break_wall`); with the
//!   memory the baked field holds and the one build that bakes it (paid up front, and again
//!   whenever a bunker falls before the wall does).
//!
//! Figures are medians with [lowest, highest]. Run:
//! `cargo bench -p pathlab-core --bench flow_flock`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pathlab_core::crowd::flow_flock::{FlowFlockScene, Guide};
use pathlab_core::crowd::scene::Scene;
use pathlab_core::crowd::FlowField;
use pathlab_core::generate;

const AGENTS: usize = 20_000;
const STEPS: usize = 10;
const ROUNDS: usize = 15;

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let clock = Instant::now();
    let out = f();
    (clock.elapsed(), out)
}

/// "median [lowest, highest]" of values.
fn spread(mut v: Vec<f64>, digits: usize) -> String {
    v.sort_by(f64::total_cmp);
    format!("{:.digits$} [{:.digits$}, {:.digits$}]", v[v.len() / 2], v[0], v[v.len() - 1])
}

fn main() {
    let grid = generate::rooms(192, 128, 7).unwrap().grid;
    let start = FlowFlockScene::flock_with_map(grid, AGENTS, 7).unwrap();
    let (mut flow_ms, mut plain_ms, mut ratio) = (vec![], vec![], vec![]);
    for round in 0..ROUNDS {
        let once = |guide: Guide| {
            let mut scene = start.clone();
            scene.set_guide(guide);
            timed(|| {
                for _ in 0..STEPS {
                    scene.step();
                }
                black_box(scene.steps())
            })
            .0
            .as_secs_f64()
                * 1e3
                / STEPS as f64
        };
        let (f, p) = if round % 2 == 0 {
            let f = once(Guide::Flow);
            (f, once(Guide::Plain))
        } else {
            let p = once(Guide::Plain);
            (once(Guide::Flow), p)
        };
        flow_ms.push(f);
        plain_ms.push(p);
        ratio.push(f / p);
    }
    println!(
        "flock of {AGENTS} boids on 192x128 rooms, ms per step (median [range] of {ROUNDS} rounds of {STEPS} steps)"
    );
    println!("  plain (alignment from neighbours): {}", spread(plain_ms, 3));
    println!("  flow  (alignment from the field):  {}", spread(flow_ms, 3));
    println!("  flow / plain: {} (target: at most 1.2)", spread(ratio, 3));

    let wall = start.destructible_wall().expect("a destructible wall");
    let field = start.field().clone();
    let baked = start.baked().expect("a baked field").clone();
    let (mut switch, mut recompute, mut repair, mut bake) = (vec![], vec![], vec![], vec![]);
    for _ in 0..ROUNDS {
        let mut live = field.clone();
        let stored = baked.clone();
        switch.push(timed(|| black_box(std::mem::replace(&mut live, stored))).0.as_secs_f64() * 1e3);
        let mut g = field.grid().clone();
        g.set(wall, 1).unwrap();
        let goals = field.goals().to_vec();
        recompute.push(
            timed(|| black_box(FlowField::new(g, &goals, field.rule(), field.costs()).unwrap())).0.as_secs_f64() * 1e3,
        );
        let mut copy = field.clone();
        repair.push(timed(|| black_box(copy.break_wall(wall).unwrap())).0.as_secs_f64() * 1e3);
        let mut again = baked.clone();
        bake.push(timed(|| again.rebuild()).0.as_secs_f64() * 1e3);
    }
    let bytes = baked.grid().len() * (8 + 1 + 2 + 2 + 1);
    let ratio: Vec<f64> = recompute.iter().zip(&switch).map(|(r, s)| r / s.max(1e-6)).collect();
    println!("\nthe wall at {wall} falls (192x128, 3 bunkers), ms (median [range] of {ROUNDS})");
    println!("  switch in the baked field: {}", spread(switch, 5));
    println!("  recompute (fresh build):   {}", spread(recompute, 3));
    println!("  exact local repair:        {}", spread(repair, 3));
    println!("  baking (one build, up front and after each bunker falls): {}", spread(bake, 3));
    println!("  recompute / switch: {}", spread(ratio, 0));
    println!(
        "  memory of the baked field: {bytes} bytes ({} cells x 14 bytes), none for a recompute",
        baked.grid().len()
    );
}
