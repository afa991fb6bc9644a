//! Flow fields on a 512x512 MovingAI map (bg512/AR0011SR), with 1 and 4 goals: the time of a
//! full build, and of the local repairs against a full rebuild.
//!
//! Rules: 8-connected, no corner cutting, real costs. Goals: the open cell nearest the map's
//! centre (1 goal), and the open cells nearest the centres of its four quarters (4 goals).
//!
//! - **build**: `FlowField::new`, median of 15 runs.
//! - **break wall**: 60 walls that touch reachable ground, evenly spread, then 60 walls
//!   whose reachable neighbours' distances differ by more than 3 (breaking one opens a
//!   shortcut); each is broken on a copy
//!   of the field, by the exact wave (`break_wall`), by the course's cheap update
//!   (`break_wall_cheap`, with how many cells it leaves too dear), and by a full rebuild.
//! - **add wall**: 60 open cells, evenly spread over the reachable ones; `add_wall` against a
//!   full rebuild.
//! - **destroy goal** (4 goals): goal 0, `destroy_goal` against a full rebuild.
//!
//! Times are medians (and, in brackets, the fastest run) in milliseconds. The map comes from the
//! MovingAI folder: `$PATHLAB_MOVINGAI`, by default `shared/maps/movingai` beside the repository.
//! Run: `cargo bench -p pathlab-core --bench flow`.

mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};

use pathlab_core::crowd::FlowField;
use pathlab_core::formats::movingai;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};

const MAP: &str = "bg512/AR0011SR.map";
const RULE: Diagonal = Diagonal::NoCornerCutting;
const COSTS: Costs = Costs::Real;
const SAMPLES: usize = 60;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// "median (fastest)": the machine is shared, so the fastest run is the best guess of the
/// cost on an idle one.
fn median(mut v: Vec<Duration>) -> String {
    v.sort();
    format!("{:.4} ({:.4})", ms(v[v.len() / 2]), ms(v[0]))
}

/// The open cell nearest (x, y).
fn open_near(grid: &Grid, x: usize, y: usize) -> Point {
    (0..grid.len())
        .filter(|&i| grid.cells()[i] != WALL)
        .map(|i| grid.point_at(i))
        .min_by_key(|p| p.x.abs_diff(x).pow(2) + p.y.abs_diff(y).pow(2))
        .expect("the map has open cells")
}

fn spread(cells: &[usize]) -> Vec<usize> {
    (0..SAMPLES).map(|k| cells[k * cells.len() / SAMPLES]).collect()
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let clock = Instant::now();
    let out = f();
    (clock.elapsed(), out)
}

/// Walls touching reachable ground, and walls whose reachable neighbours' distances differ
/// by more than three straight moves (breaking one opens a shortcut).
fn candidate_walls(grid: &Grid, field: &FlowField) -> (Vec<usize>, Vec<usize>) {
    let (w, h) = (grid.width(), grid.height());
    let reach = |x: usize, y: usize, dx: isize, dy: isize| {
        let (x, y) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
        x < w && y < h && field.distances()[y * w + x].is_finite()
    };
    // Walls touching reachable ground, and walls whose reachable neighbours' distances
    // differ by more than three straight moves (breaking one opens a shortcut).
    let touching: Vec<usize> = (0..grid.len())
        .filter(|&i| {
            let p = grid.point_at(i);
            grid.cells()[i] == WALL
                && [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().any(|&(dx, dy)| reach(p.x, p.y, dx, dy))
        })
        .collect();
    let shortcut: Vec<usize> = touching
        .iter()
        .copied()
        .filter(|&i| {
            let p = grid.point_at(i);
            let around: Vec<f64> = (-1isize..=1)
                .flat_map(|dy| (-1isize..=1).map(move |dx| (dx, dy)))
                .filter(|&(dx, dy)| reach(p.x, p.y, dx, dy))
                .map(|(dx, dy)| field.distances()[p.y.wrapping_add_signed(dy) * w + p.x.wrapping_add_signed(dx)])
                .collect();
            let (lo, hi) = around.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &d| (lo.min(d), hi.max(d)));
            hi - lo > 3.0
        })
        .collect();
    (touching, shortcut)
}

fn main() {
    let path = support::maps_folder("flow").join(MAP);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let grid = movingai::parse_map(&text).unwrap();
    let (w, h) = (grid.width(), grid.height());
    let goal_sets = [
        vec![open_near(&grid, w / 2, h / 2)],
        vec![
            open_near(&grid, w / 4, h / 4),
            open_near(&grid, 3 * w / 4, h / 4),
            open_near(&grid, w / 4, 3 * h / 4),
            open_near(&grid, 3 * w / 4, 3 * h / 4),
        ],
    ];
    println!("{MAP} ({w}x{h}), {RULE}, {COSTS} costs; median (fastest) ms");
    for goals in &goal_sets {
        let builds: Vec<Duration> =
            (0..15).map(|_| timed(|| black_box(FlowField::new(grid.clone(), goals, RULE, COSTS).unwrap())).0).collect();
        let field = FlowField::new(grid.clone(), goals, RULE, COSTS).unwrap();
        let reachable = field.distances().iter().filter(|d| d.is_finite()).count();
        println!("\n{} goal(s): {reachable} reachable cells; full build {} ms", goals.len(), median(builds));

        let (touching, shortcut) = candidate_walls(&grid, &field);
        for (kind, walls) in [("touching ground", &touching), ("a shortcut", &shortcut)] {
            if walls.is_empty() {
                println!("break wall ({kind}): none on this map");
                continue;
            }
            let (mut exact, mut cheap, mut full, mut settled, mut wrong) = (vec![], vec![], vec![], 0usize, 0usize);
            for &i in &spread(walls) {
                let p = grid.point_at(i);
                let mut a = field.clone();
                let (t, n) = timed(|| a.break_wall(p).unwrap());
                exact.push(t);
                settled += n;
                let mut b = field.clone();
                cheap.push(timed(|| b.break_wall_cheap(p).unwrap()).0);
                wrong += b.differences(&a).len();
                let mut g = grid.clone();
                g.set(p, 1).unwrap();
                full.push(timed(|| black_box(FlowField::new(g, goals, RULE, COSTS).unwrap())).0);
            }
            println!(
                "break wall ({kind}, {SAMPLES} of {}): exact wave {} ms (mean {:.0} cells settled), cheap {} ms (mean {:.0} cells left too dear), full rebuild {} ms",
                walls.len(),
                median(exact),
                settled as f64 / SAMPLES as f64,
                median(cheap),
                wrong as f64 / SAMPLES as f64,
                median(full)
            );
        }

        let open: Vec<usize> =
            (0..grid.len()).filter(|&i| field.distances()[i] > 0.0 && field.distances()[i].is_finite()).collect();
        let (mut inc, mut full, mut reset) = (vec![], vec![], 0usize);
        for &i in &spread(&open) {
            let p = grid.point_at(i);
            let mut a = field.clone();
            let (t, n) = timed(|| a.add_wall(p).unwrap());
            inc.push(t);
            reset += n;
            let mut g = grid.clone();
            g.set(p, WALL).unwrap();
            full.push(timed(|| black_box(FlowField::new(g, goals, RULE, COSTS).unwrap())).0);
        }
        println!(
            "add wall ({SAMPLES} cells): incremental {} ms (mean {:.0} cells reset), full rebuild {} ms",
            median(inc),
            reset as f64 / SAMPLES as f64,
            median(full)
        );

        if goals.len() > 1 {
            let mut times = vec![];
            let mut reset = 0;
            for _ in 0..15 {
                let mut a = field.clone();
                let (t, n) = timed(|| a.destroy_goal(0).unwrap());
                times.push(t);
                reset = n;
            }
            let rest = &goals[1..];
            let full: Vec<Duration> = (0..15)
                .map(|_| timed(|| black_box(FlowField::new(grid.clone(), rest, RULE, COSTS).unwrap())).0)
                .collect();
            println!(
                "destroy goal 0: incremental {} ms ({reset} cells reset), full rebuild {} ms",
                median(times),
                median(full)
            );
        }
    }
}
