//! Builds the navmesh of one MovingAI map many times, for a profiler (`perf record`,
//! `valgrind --tool=callgrind --toggle-collect='*measured*'`).
//!
//! `navmesh_profile MAP [BUILDS]` (default 20 builds, no corner cutting) prints the polygon
//! count and the median build time.

use std::hint::black_box;
use std::time::Instant;

use pathlab_core::grid::{Diagonal, Grid};
use pathlab_core::space::navmesh::NavMesh;

/// The builds that are counted.
#[inline(never)]
fn measured(grid: &Grid) -> NavMesh {
    black_box(NavMesh::build(grid, Diagonal::NoCornerCutting).expect("the map has open cells"))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: navmesh_profile MAP [BUILDS]");
    let builds = args.next().and_then(|a| a.parse::<usize>().ok()).unwrap_or(20);
    let text = std::fs::read_to_string(&path).expect("the map file reads");
    let grid = pathlab_core::formats::movingai::parse_map(&text).expect("the map parses");
    let mut times = Vec::new();
    let mut polygons = 0;
    for _ in 0..builds {
        let t = Instant::now();
        polygons = measured(&grid).polygon_count();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!("{path}: {polygons} polygons, median build {:.2} ms over {builds}", times[builds / 2]);
}
