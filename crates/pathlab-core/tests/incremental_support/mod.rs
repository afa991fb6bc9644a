//! Shared support for the LPA* and D* Lite tests: random problems, random live edits
//! (walls added and removed, terrain, and the goal walled in and freed again), and a snapshot
//! of everything a stepper shows, to compare replayed states. A test takes it in with
//! `mod cases; mod incremental_support;`.

#![allow(dead_code)]

use pathlab_core::grid::{Grid, Point, WALL};
use pathlab_core::search::{Agent, Overlay, Repair, Status, Stepper};
use proptest::prelude::*;

pub use super::cases::Case;
use super::cases::{case_with, terrain_from, Rng};

/// Terrain values drawn for the grids with terrain (1 is ground).
const TERRAIN: [u8; 6] = [1, 1, 1, 2, 3, 5];

/// Grids from 2x2 up to `side` x `side` with up to `walls` percent of walls, terrain on about
/// half of them, ends on open cells, any diagonal rule and cost model.
pub fn case_up_to(side: usize, walls: u32) -> impl Strategy<Value = Case> {
    case_with(2..=side, 0..=walls, terrain_from(&TERRAIN))
}

/// The eight cells around `p` that lie inside the grid.
pub fn ring(grid: &Grid, p: Point) -> Vec<Point> {
    let mut out = Vec::new();
    for dy in -1i64..=1 {
        for dx in -1i64..=1 {
            let (x, y) = (p.x as i64 + dx, p.y as i64 + dy);
            if (dx, dy) != (0, 0) && grid.contains(x, y) {
                out.push(Point::new(x as usize, y as usize));
            }
        }
    }
    out
}

/// A random stroke: a wall added or removed at one cell, a small block of walls, a stroke of
/// terrain, or a removal of a block.
pub fn random_stroke(rng: &mut Rng, grid: &Grid) -> (Vec<Point>, u8) {
    let (w, h) = (grid.width(), grid.height());
    let at = Point::new(rng.below(w), rng.below(h));
    let block = |rng: &mut Rng| {
        let (bw, bh) = (1 + rng.below(3), 1 + rng.below(3));
        let mut cells = Vec::new();
        for y in at.y..(at.y + bh).min(h) {
            for x in at.x..(at.x + bw).min(w) {
                cells.push(Point::new(x, y));
            }
        }
        cells
    };
    match rng.below(6) {
        0 | 1 => (vec![at], WALL),
        2 => (vec![at], 1),
        3 => (block(rng), WALL),
        4 => (block(rng), 1),
        _ => (block(rng), [2, 3, 5][rng.below(3)]),
    }
}

/// Everything a stepper shows, for comparing two states.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub steps: usize,
    pub status: Status,
    pub expanded: usize,
    pub open: usize,
    pub cost: Option<f64>,
    pub path: Vec<u32>,
    pub states: Vec<u8>,
    /// g and the cell values as bits, so that infinities and exact values compare.
    pub g: Vec<u64>,
    pub values: Vec<u64>,
    pub parents: Vec<u32>,
    pub cells: Vec<u8>,
    pub repair: Option<Repair>,
    pub agent: Option<(Point, usize, u64, usize)>,
    pub overlay: Overlay,
}

pub fn snap(s: &dyn Stepper) -> Snapshot {
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
    Snapshot {
        steps: s.steps(),
        status: s.status(),
        expanded: s.expanded(),
        open: s.open_count(),
        cost: s.cost(),
        path: s.path_indices().to_vec(),
        states: s.states().to_vec(),
        g: bits(s.g_values()),
        values: s.cell_values().map(|v| bits(v.values)).unwrap_or_default(),
        parents: s.parents().to_vec(),
        cells: s.grid().cells().to_vec(),
        repair: s.repair(),
        agent: s.agent().map(|Agent { at, moves, travelled, revisits }| (at, moves, travelled.to_bits(), revisits)),
        overlay: s.overlay(),
    }
}

/// Describes the first difference between two snapshots.
pub fn difference(a: &Snapshot, b: &Snapshot) -> Option<String> {
    if a == b {
        return None;
    }
    let fields: [(&str, bool); 15] = [
        ("steps", a.steps == b.steps),
        ("status", a.status == b.status),
        ("expanded", a.expanded == b.expanded),
        ("open", a.open == b.open),
        ("cost", a.cost == b.cost),
        ("path", a.path == b.path),
        ("states", a.states == b.states),
        ("g", a.g == b.g),
        ("values", a.values == b.values),
        ("parents", a.parents == b.parents),
        ("cells", a.cells == b.cells),
        ("repair", a.repair == b.repair),
        ("agent", a.agent == b.agent),
        ("overlay", a.overlay == b.overlay),
        ("-", true),
    ];
    let differ: Vec<&str> = fields.iter().filter(|(_, same)| !same).map(|(name, _)| *name).collect();
    Some(format!("at step {} vs {}: {} differ", a.steps, b.steps, differ.join(", ")))
}

/// Runs `s` to its end with live edits: four times, 1 to `burst` steps and then a random
/// stroke; then the steps left (10,000 at the most). Returns the snapshot after each step
/// (at an edit's step, the state the edit left: what the step number now shows), for
/// [`replay_matches`].
pub fn run_with_edits(s: &mut dyn Stepper, rng: &mut Rng, burst: usize) -> Vec<Snapshot> {
    let mut seen = vec![snap(s)];
    for _ in 0..4 {
        for _ in 0..=rng.below(burst) {
            if s.status().is_finished() {
                break;
            }
            s.step();
            seen.push(snap(s));
        }
        let (cells, value) = random_stroke(rng, s.grid());
        if s.paint(&cells, value).unwrap() > 0 {
            let last = seen.len() - 1;
            seen[last] = snap(s);
        }
    }
    let mut guard = 0;
    while !s.status().is_finished() && guard < 10_000 {
        s.step();
        seen.push(snap(s));
        guard += 1;
    }
    seen
}

/// Checks going back and forth through a finished run whose snapshot after step k is
/// `seen[k]`: six seeks to random steps, then back from the end one step at a time, then
/// forward again to the end; each must land on the snapshot seen the first time.
pub fn replay_matches(s: &mut dyn Stepper, seen: &[Snapshot], rng: &mut Rng) -> Result<(), TestCaseError> {
    let end = s.steps();
    for _ in 0..6 {
        let k = rng.below(end + 1);
        s.seek(k);
        prop_assert_eq!(difference(&snap(s), &seen[k]), None, "seek({})", k);
    }
    s.seek(end);
    for k in (0..end).rev() {
        s.back();
        prop_assert_eq!(difference(&snap(s), &seen[k]), None, "back to {}", k);
    }
    for (k, want) in seen.iter().enumerate().skip(1) {
        s.step();
        prop_assert_eq!(difference(&snap(s), want), None, "forward to {}", k);
    }
    Ok(())
}
