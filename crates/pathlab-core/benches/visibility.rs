//! Exact any-angle benchmark: the visibility graph's build and query times on 512x512
//! MovingAI maps, side by side with Theta* on the same problems, and Theta*'s length as a
//! ratio to the exact optimum.
//!
//! For each map: the graph is built once (vertices, build time; its edges are found by the
//! queries, a vertex at a time, and the table counts the edge ends they found), then every problem is
//! solved by the graph and by Theta* (8-connected, no corner cutting). Each result is checked
//! first: the optimum is no longer than the `.scen` optimum nor Theta*'s length, and no
//! shorter than the straight line. The timed pass runs both over the problems, several rounds
//! in turn, and the median round is reported.
//!
//! The maps come from `shared/maps/movingai`, the folder beside the repository.
//! Run: `cargo bench -p pathlab-core --bench visibility`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pathlab_core::grid::Diagonal;
use pathlab_core::search::theta::ThetaStar;
use pathlab_core::search::visibility::VisibilityGraph;
use pathlab_core::search::{Algorithm, SearchConfig, Stepper};

mod support;
use support::Set;

/// The maps, with how many evenly spaced problems to take.
const SETS: &[(&str, usize)] = &[
    ("bg512/AR0011SR", 200),
    ("dao/arena", 200),
    ("random/random512-10-0", 100),
    ("rooms/32room_000", 100),
    ("mazes/maze512-8-0", 50),
];

/// Rounds of the side-by-side pass; the median round is reported.
const ROUNDS: usize = 5;

const RULE: Diagonal = Diagonal::NoCornerCutting;

fn theta(set: &Set) -> ThetaStar {
    let p = &set.problems[0];
    ThetaStar::new(set.grid.clone(), p.start, p.goal, SearchConfig::new(Algorithm::Theta).diagonal(RULE)).unwrap()
}

fn main() {
    let rounds = support::rounds(ROUNDS);
    let sets = support::load_sets("visibility", SETS);
    println!("exact any-angle (visibility graph) vs Theta*, diagonal {RULE}: median of {rounds} rounds");
    println!(
        "{:<24} {:>7} {:>9} {:>10} {:>8} {:>10} {:>10} {:>9} {:>13} {:>13}",
        "map",
        "corners",
        "edge ends",
        "build ms",
        "problems",
        "vis µs/q",
        "theta µs/q",
        "time v/θ",
        "θ/opt mean",
        "θ/opt max"
    );
    for set in &sets {
        let started = Instant::now();
        let graph = VisibilityGraph::new(&set.grid, RULE).unwrap();
        let build = started.elapsed();
        let mut search = theta(set);
        let (mut ratio_sum, mut ratio_max) = (0.0, 1.0f64);
        for p in &set.problems {
            let best = graph.shortest_path(p.start, p.goal).unwrap().cost.expect("a path");
            search.set_ends(p.start, p.goal).unwrap();
            search.run();
            let theta_cost = search.cost().expect("a path");
            let line = (p.start.x.abs_diff(p.goal.x) as f64).hypot(p.start.y.abs_diff(p.goal.y) as f64);
            let line_no = p.line;
            assert!(best <= p.optimal + p.tolerance, "{} line {line_no}: {best} > {}", set.name, p.optimal);
            assert!(best <= theta_cost + 1e-9, "{} line {line_no}: {best} > Theta* {theta_cost}", set.name);
            assert!(best >= line - 1e-9, "{} line {line_no}: {best} < straight line {line}", set.name);
            let ratio = if best > 0.0 { theta_cost / best } else { 1.0 };
            ratio_sum += ratio;
            ratio_max = ratio_max.max(ratio);
        }
        let (mut vis_times, mut theta_times) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            for k in 0..2 {
                let t = Instant::now();
                if (round + k) % 2 == 0 {
                    for p in &set.problems {
                        black_box(graph.shortest_path(p.start, p.goal).unwrap().cost);
                    }
                    vis_times.push(t.elapsed());
                } else {
                    for p in &set.problems {
                        search.set_ends(p.start, p.goal).unwrap();
                        search.run();
                        black_box(search.cost());
                    }
                    theta_times.push(t.elapsed());
                }
            }
        }
        let n = set.problems.len();
        let per = |d: Duration| d.as_secs_f64() * 1e6 / n as f64;
        let (vis, th) = (support::median(vis_times), support::median(theta_times));
        println!(
            "{:<24} {:>7} {:>9} {:>10.1} {:>8} {:>10.1} {:>10.1} {:>9.2} {:>13.5} {:>13.5}",
            set.name,
            graph.vertex_count(),
            graph.edges_found(),
            build.as_secs_f64() * 1e3,
            n,
            per(vis),
            per(th),
            vis.as_secs_f64() / th.as_secs_f64(),
            ratio_sum / n as f64,
            ratio_max
        );
    }
}
