//! The random problems the property tests share: grids of walls and terrain drawn from rolls,
//! ends picked among the open cells, the settings each test adds drawn alongside, and a small
//! seeded generator for the sweeps that are not proptest's.
//!
//! [`grid_problem`] draws in a fixed order (sizes, wall density and the terrain coin, then the
//! cells, the two ends and the test's own settings), so a test that switched to it from its own
//! copy of that strategy replays the cases its `.proptest-regressions` seeds stored.
//!
//! A test takes it in with `mod cases;`.

#![allow(dead_code)]

use std::ops::RangeInclusive;

use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::search::{SearchConfig, Status, Stepper};
use proptest::prelude::*;
use proptest::sample::{select, Index};

/// A random problem on a square grid: the map, its ends, the diagonal rule and cost model.
#[derive(Clone, Debug)]
pub struct Case {
    pub grid: Grid,
    pub start: Point,
    pub goal: Point,
    pub rule: Diagonal,
    pub costs: Costs,
}

/// The terrain values most grid tests draw (1 is ground, half the cells).
pub const TERRAIN: [u8; 8] = [1, 1, 1, 1, 2, 3, 5, 9];

/// A terrain value drawn from `table` by a uniform index (drawn as a `usize`).
pub fn terrain_from(table: &'static [u8]) -> impl Strategy<Value = u8> + Clone {
    (0..table.len()).prop_map(move |t| table[t])
}

/// The cell values from rolls: a wall where the wall roll is below `density`, else the rolled
/// terrain when `terrain` is on, else ground.
pub fn cells(rolls: &[(u32, u8)], density: u32, terrain: bool) -> Vec<u8> {
    rolls
        .iter()
        .map(|&(wall, t)| {
            if wall < density {
                WALL
            } else if terrain {
                t
            } else {
                1
            }
        })
        .collect()
}

/// The `w` x `h` grid of the random cell values `cells` (the first cell opened when all are
/// walls), with a start and a goal picked among its open cells by `s` and `g`.
pub fn grid_with_ends(w: usize, h: usize, mut cells: Vec<u8>, s: Index, g: Index) -> (Grid, Point, Point) {
    if cells.iter().all(|&c| c == WALL) {
        cells[0] = 1;
    }
    ends_on_open(w, h, cells, s, g)
}

/// The `w` x `h` grid of `cells` (at least one open), with a start and a goal picked among its
/// open cells by `s` and `g`.
pub fn ends_on_open(w: usize, h: usize, cells: Vec<u8>, s: Index, g: Index) -> (Grid, Point, Point) {
    let open: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != WALL).collect();
    let grid = Grid::from_cells(w, h, cells).unwrap();
    let start = grid.point_at(open[s.index(open.len())]);
    let goal = grid.point_at(open[g.index(open.len())]);
    (grid, start, goal)
}

/// Random grid problems: a width and a height in `sides`, a wall density (percent) in
/// `walls`, a coin for terrain (values drawn by `terrain`) or plain ground, the ends on open
/// cells (see [`grid_with_ends`]), and `extra`, the test's own settings, drawn last.
pub fn grid_problem<T, E>(
    sides: RangeInclusive<usize>,
    walls: RangeInclusive<u32>,
    terrain: T,
    extra: E,
) -> impl Strategy<Value = ((Grid, Point, Point), E::Value)>
where
    T: Strategy<Value = u8> + Clone + 'static,
    E: Strategy + Clone + 'static,
{
    (sides.clone(), sides, walls, any::<bool>())
        .prop_flat_map(move |(w, h, density, coin)| {
            (
                Just((w, h, density, coin)),
                proptest::collection::vec((0u32..100, terrain.clone()), w * h),
                any::<Index>(),
                any::<Index>(),
                extra.clone(),
            )
        })
        .prop_map(|((w, h, density, coin), rolls, s, g, extra)| {
            (grid_with_ends(w, h, cells(&rolls, density, coin), s, g), extra)
        })
}

/// [`grid_problem`] with any diagonal rule and cost model: a [`Case`].
pub fn case_with(
    sides: RangeInclusive<usize>,
    walls: RangeInclusive<u32>,
    terrain: impl Strategy<Value = u8> + Clone + 'static,
) -> impl Strategy<Value = Case> {
    grid_problem(sides, walls, terrain, (select(Diagonal::ALL.to_vec()), select(Costs::ALL.to_vec())))
        .prop_map(|((grid, start, goal), (rule, costs))| Case { grid, start, goal, rule, costs })
}

/// A random problem with the search's whole configuration: what [`configured`] draws.
#[derive(Clone, Debug)]
pub struct Configured {
    pub grid: Grid,
    pub start: Point,
    pub goal: Point,
    pub config: SearchConfig,
}

/// [`grid_problem`] with the test's own settings turned into a [`SearchConfig`] by `make`.
pub fn configured<T: Strategy + Clone + 'static>(
    sides: RangeInclusive<usize>,
    walls: RangeInclusive<u32>,
    terrain: impl Strategy<Value = u8> + Clone + 'static,
    settings: T,
    make: impl Fn(T::Value) -> SearchConfig + 'static,
) -> impl Strategy<Value = Configured> {
    grid_problem(sides, walls, terrain, settings).prop_map(move |((grid, start, goal), extra)| Configured {
        grid,
        start,
        goal,
        config: make(extra),
    })
}

/// What a page can read from a stepper, floats as their bits: two runs that should agree
/// (replayed, stepped back, sought to) compare equal to the last bit.
#[derive(Debug, PartialEq)]
pub struct Shown {
    pub status: Status,
    pub steps: usize,
    pub expanded: usize,
    pub open: usize,
    pub cost: Option<u64>,
    pub states: Vec<u8>,
    pub g: Vec<u64>,
    pub parents: Vec<u32>,
    /// The path, or a walking agent's trail.
    pub path: Vec<u32>,
}

/// [`Shown`] of `s` now.
pub fn shown(s: &dyn Stepper) -> Shown {
    Shown {
        status: s.status(),
        steps: s.steps(),
        expanded: s.expanded(),
        open: s.open_count(),
        cost: s.cost().map(f64::to_bits),
        states: s.states().to_vec(),
        g: s.g_values().iter().map(|g| g.to_bits()).collect(),
        parents: s.parents().to_vec(),
        path: s.path_indices().to_vec(),
    }
}

/// A small deterministic generator (SplitMix64) for the seeded sweeps.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Marks in `seen` every cell within `r` (Chebyshev distance; 0: the whole grid) of `p`: an
/// agent's sensor box, for the tests that keep their own record of what it has had in sight.
pub fn see(grid: &Grid, seen: &mut [bool], p: Point, r: usize) {
    let (w, h) = (grid.width(), grid.height());
    let r = if r == 0 { w.max(h) } else { r };
    for y in p.y.saturating_sub(r)..=(p.y + r).min(h - 1) {
        for x in p.x.saturating_sub(r)..=(p.x + r).min(w - 1) {
            seen[y * w + x] = true;
        }
    }
}
