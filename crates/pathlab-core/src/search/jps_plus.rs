//! JPS+ (Rabin and Silva, 2015): jump point search with the scans "baked into the grid".
//!
//! # The table
//!
//! For every cell and each of the 8 directions, in the order N, NE, E, SE, S, SW, W, NW,
//! the table holds a distance in moves:
//! - positive `k`: the scan in that direction stops on a jump point `k` moves away;
//! - zero or negative `-k`: the scan finds no jump point and can make `k` moves before a wall
//!   (or, for a diagonal, before a move that is not allowed). The cell it stops on is what the
//!   course calls a sterile jump point.
//!
//! The distances are those of [`Jps`](super::jps::Jps) without a goal: a straight entry
//! counts to the first cell with a forced neighbour; a diagonal entry to the first cell whose
//! straight entry along either component is positive. On a 4-connected grid (`never`) the
//! vertical entries play the part of the diagonals (they count to the first cell whose east or
//! west entry is positive) and the diagonal entries are 0. Walls hold 0 everywhere. Each entry
//! follows from the entry of the next cell in the same direction, so the whole table is
//! built in one pass per direction. Entries are `i32`, as [`CellTable`] shows them: 32 bytes
//! per cell (8 MB for a 512x512 map). The search itself reads a packed copy kept beside it:
//! 16 bits an entry, each straight entry's spare bits holding the forced sides of a node
//! reached in its direction, 16 bytes per cell, so that an expansion loads one small block
//! instead of the entries and the walls around its cell.
//!
//! # Finding the goal
//!
//! The table knows nothing of the goal, so each expansion checks it (the goal-row/column
//! check): a straight direction stops on the goal when the goal lies ahead on the same row or
//! column no further than the entry's distance (positive or not); a diagonal direction, when
//! the goal lies in its quadrant and its row or column is reached within the distance, stops
//! on the cell where the diagonal meets that row or column: a new jump point, from which a
//! straight move reaches the goal's line. (On a 4-connected grid a vertical direction does the
//! same with the goal's row.) Otherwise a positive entry gives its jump point, and a
//! non-positive one nothing.
//!
//! # Pruned JPS+
//!
//! [`Algorithm::JpsPlusPruned`](super::Algorithm::JpsPlusPruned) reads the same table but does
//! not open the stops of a diagonal scan (Harabor and Grastien's intermediate-node pruning,
//! 2014). Where JPS+ would open a diagonal's stop `c` (a jump point, or the cell level with the
//! goal) and later expand it, pruned JPS+ expands `c` on the spot: it looks up `c`'s two
//! straight directions (as a node reached along the diagonal, in scan order) and offers what
//! they stop on to the open list, with the expanded node as parent and the cost of the route
//! diagonally to `c`, then straight; then the diagonal goes on from `c` to its next stop,
//! until it finds none or stops on the goal. On a 4-connected grid the vertical scans play the
//! diagonals' part, with east and west as their straight directions. The goal's direction
//! (the diagonal towards it, or the straight line when it is level; vertical first on a
//! 4-connected grid) is looked up before the others, and when its scans reach the goal the
//! goal is the only successor: that route has no detour, so no other route through the node
//! is cheaper (on small maps most searches end on the start's first look). The stops are never
//! opened, so on the MovingAI maps about half as many nodes are expanded, and the costs are
//! JPS+'s: optimal (the tests check them against an independent Dijkstra on random grids and
//! against the `.scen` optima). The path between a node and such a successor runs diagonally
//! (or vertically) first and straight after, as the step's scan lines show.
//!
//! # Editing
//!
//! [`paint`](Stepper::paint) with walls or ground updates the table instead of rebuilding it:
//! - straight entries east and west of a changed cell `(x, y)` read only rows `y - 1`, `y`
//!   and `y + 1` (the row they run along and the side cells that decide forced neighbours),
//!   so those rows are recomputed; likewise columns `x - 1` to `x + 1` for north and south
//!   (8-connected);
//! - a diagonal entry (vertical on a 4-connected grid) depends on its cell, the cells its
//!   first move needs open, the signs of the next cell's straight entries along the
//!   components, and the next cell's own entry. So the entries recomputed are those of the
//!   cells whose inputs changed (the painted cells and their neighbours against the
//!   direction, and the cells before a straight entry whose sign changed), then the cells
//!   behind each of those along the direction for as long as the entry changes. Cells are
//!   taken farthest along the direction first, so each is recomputed after the one it reads.
//!
//! A stroke that changes more than an eighth of the cells rebuilds the whole table.
//! [`JpsPlus::last_rebuild`] tells how much the last edit recomputed.
//!
//! The rules, the step, the costs and the optimality are those of JPS: grids without
//! terrain, `no-corner-cutting` or `never`; one step pops one jump point and looks up its
//! pruned directions. The [`overlay`](Stepper::overlay) draws a line per direction looked up
//! (to the jump point found, or to the last cell before the wall), the forced neighbours of
//! the straight jump points found, the jump points opened or improved, and a note with the
//! expanded cell's eight distances; [`cell_table`](Stepper::cell_table) gives the whole table.
//!
//! ```
//! use pathlab_core::grid::{Grid, Point, WALL};
//! use pathlab_core::search::{build, Algorithm, SearchConfig, Status};
//! let mut grid = Grid::new(5, 3).unwrap();
//! grid.set(Point::new(2, 0), WALL).unwrap();
//! let mut s = build(grid, Point::new(0, 0), Point::new(4, 0), SearchConfig::new(Algorithm::JpsPlus)).unwrap();
//! // East of (0,0): one move to (1,0), then the wall at (2,0), and no jump point on the way.
//! let table = s.cell_table().unwrap();
//! assert_eq!(table.per_cell, 8);
//! assert_eq!(table.values[2], -1); // east of (0,0): one move, then the wall
//! assert_eq!(s.run(), Status::Found);
//! assert!((s.cost().unwrap() - (2.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-9);
//! ```

use super::jps::{
    check_rules, is_diagonal, pruned_directions, JumpCore, JumpSearch, Tracer, Walls, DX, DY, E, N, S, SCAN_ORDER, W,
};
use super::stepper::{CellTable, MarkKind, Overlay};
use super::{Path, Recorder, SearchConfig, SearchError, StepEvent, Stepper, NO_PARENT};
use crate::grid::{Diagonal, Grid, Point, MAX_SIDE, WALL};
use crate::heuristic::Heuristic;

/// The algorithm's name in messages.
pub(crate) const NAME: &str = "JPS+";

/// The eight directions' short names, in table order.
const NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// The bits of a [`Packed`] entry that hold the distance (two's complement): 13 bits, enough
/// for any distance on a grid of [`MAX_SIDE`] cells a side.
const DISTANCE_BITS: u32 = 13;
const _: () = assert!(MAX_SIDE < 1 << (DISTANCE_BITS - 1));
/// The bit of a straight [`Packed`] entry set when a node reached by a move in that direction
/// has a forced neighbour on the side 90 degrees clockwise (`d + 2`).
const FORCED_CLOCKWISE: u16 = 1 << DISTANCE_BITS;
/// The same for the side 90 degrees anticlockwise (`d + 6`).
const FORCED_ANTICLOCKWISE: u16 = 1 << (DISTANCE_BITS + 1);
/// The distance bits of a [`Packed`] entry.
const DISTANCE_MASK: u16 = (1 << DISTANCE_BITS) - 1;

/// One cell of the table as the search reads it: the eight distances in 16 bits apiece,
/// each straight one with the forced sides of a node reached by moving in its direction in
/// the spare bits. Everything an expansion needs to know about its cell is then 16 bytes (one
/// load, a quarter of a cache line) instead of the `i32` entries' 32 bytes and the walls of
/// the eight cells around it.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(16))]
struct Packed([u16; 8]);

impl Packed {
    /// The distance of direction `d`, as in the table.
    #[inline]
    fn distance(self, d: usize) -> i32 {
        i32::from(((self.0[d] << (16 - DISTANCE_BITS)) as i16) >> (16 - DISTANCE_BITS))
    }

    /// The directions to look up from a node reached by a move in direction `arrived` (or
    /// [`FROM_START`]), as a bit set: what [`Walls::directions`] gives, read from the forced
    /// bits instead of the walls.
    #[inline]
    fn directions(self, arrived: u8, eight: bool) -> u8 {
        let d = arrived as usize;
        pruned_directions(arrived, eight, |s| {
            let bit = if s == ((d + 2) & 7) { FORCED_CLOCKWISE } else { FORCED_ANTICLOCKWISE };
            self.0[d] & bit != 0
        })
    }
}

/// A successor of a pruned JPS+ expansion: the jump point, the cost of the route to it from
/// the expanded node, and the direction of that route's last move.
#[derive(Clone, Copy, Debug)]
struct Found {
    to: Point,
    cost: f64,
    arrived: usize,
}

/// How much of the table an edit recomputed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rebuild {
    /// True when the whole table was built (at the start, or after a large stroke).
    pub full: bool,
    /// Rows whose east and west entries were recomputed.
    pub rows: usize,
    /// Columns whose north and south entries were recomputed (8-connected).
    pub columns: usize,
    /// Diagonal entries (vertical, 4-connected) recomputed.
    pub diagonal_entries: usize,
}

/// Finds a cheapest path with JPS+ (building the table first) and returns it, or `None` when
/// the goal is unreachable.
///
/// - `grid`: the cells, walls and ground only (terrain is refused);
/// - `start`, `goal`: the ends, both open cells inside the grid;
/// - `diagonal`: `no-corner-cutting` or `never` (the others are refused).
///
/// The heuristic is octile (Manhattan when 4-connected), costs are real (straight 1,
/// diagonal sqrt(2)). To keep the table for many searches on one map, build a [`JpsPlus`]
/// and move its ends with [`set_ends`](Stepper::set_ends).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::search::jps_plus::jps_plus;
/// let mut grid = Grid::new(5, 3).unwrap();
/// grid.set(Point::new(2, 0), WALL).unwrap();
/// grid.set(Point::new(2, 1), WALL).unwrap();
/// let path = jps_plus(&grid, Point::new(0, 0), Point::new(4, 0), Diagonal::NoCornerCutting).unwrap().unwrap();
/// assert!((path.cost - (4.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-9);
/// assert!(jps_plus(&grid, Point::new(0, 0), Point::new(2, 0), Diagonal::Never).is_err()); // a wall
/// ```
pub fn jps_plus(grid: &Grid, start: Point, goal: Point, diagonal: Diagonal) -> Result<Option<Path>, SearchError> {
    let config =
        SearchConfig::new(super::Algorithm::JpsPlus).diagonal(diagonal).heuristic(Heuristic::default_for(diagonal));
    let mut search = JpsPlus::new(grid.clone(), start, goal, config)?;
    Stepper::run(&mut search);
    Ok(search.path())
}

/// JPS+ as a [`Stepper`]: jump point search over precomputed jump distances.
///
/// See the [module documentation](self) for the table, the goal check and the edits.
#[derive(Clone, Debug)]
pub struct JpsPlus {
    core: JumpCore,
    /// Room for a pruned expansion's successors, kept between steps.
    found: Vec<Found>,
    walls: Walls,
    /// `table[cell * 8 + direction]`, row-major cells, directions N, NE, E, SE, S, SW, W, NW.
    table: Vec<i32>,
    /// The same distances with the forced sides, packed for the search (see [`Packed`]).
    packed: Vec<Packed>,
    rebuilt: Rebuild,
}

impl JpsPlus {
    /// Sets up a search and builds the table. Refuses terrain costs, diagonal rules other
    /// than `no-corner-cutting` and `never`, ends outside the grid or on walls, and weights
    /// outside 1 to 100.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_rules(NAME, &grid, &config)?;
        let walls = Walls::new(&grid);
        let table = vec![0; grid.len() * 8];
        let packed = vec![Packed::default(); grid.len()];
        let core = JumpCore::new(grid, start, goal, config)?;
        let mut search = Self { core, found: Vec::new(), walls, table, packed, rebuilt: Rebuild::default() };
        search.build_all();
        Ok(search)
    }

    /// How much the last edit (or the set-up) recomputed.
    pub fn last_rebuild(&self) -> Rebuild {
        self.rebuilt
    }

    /// The jump distances: `[cell * 8 + direction]` (see the module documentation).
    pub fn table(&self) -> &[i32] {
        &self.table
    }

    /// Performs one step, telling `recorder` which jump point was expanded and which were
    /// opened or improved.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        let node = match self.core.begin(recorder) {
            Ok(node) => node,
            Err(event) => return event,
        };
        let at = self.core.space.grid.point_at(node);
        if self.pruned() {
            let mut found = std::mem::take(&mut self.found);
            found.clear();
            self.pruned_jumps(node, at, &mut found, |_, _, _| {});
            let base = self.core.nodes.g()[node];
            // No early read of the successors' packed cells here, as below: most of the many
            // jump points a diagonal's stops find are never expanded, and waiting for their
            // cells made pruned JPS+ about a third slower.
            for f in &found {
                let succ = self.core.space.grid.index(f.to);
                self.core.relax(succ, f.to, node, base + f.cost, f.arrived, recorder);
            }
            self.found = found;
            return StepEvent::Expanded(at);
        }
        let (jumps, count) = self.jumps(node, at);
        let base = self.core.nodes.g()[node];
        for &(d, k) in &jumps[..count] {
            let p = JumpCore::moved(at, d, k);
            let succ = self.core.space.grid.index(p);
            let g = base + self.core.run_cost(d, k);
            // Reads the successor's packed cell now, so that it is on its way into the cache
            // while the step finishes: a successor is often the next node expanded, and that
            // load is otherwise the expansion's longest wait (about 0.9 times the time on the
            // larger maps). The value is not used; `black_box` keeps the read.
            std::hint::black_box(self.packed[succ].0[0]);
            self.core.relax(succ, p, node, g, d, recorder);
        }
        StepEvent::Expanded(at)
    }

    fn eight(&self) -> bool {
        self.core.config.diagonal == Diagonal::NoCornerCutting
    }

    /// True for pruned JPS+ ([`Algorithm::JpsPlusPruned`](super::Algorithm::JpsPlusPruned)):
    /// the stops of a diagonal scan are expanded in place (see the module documentation).
    fn pruned(&self) -> bool {
        self.core.config.algorithm == super::Algorithm::JpsPlusPruned
    }

    /// True for the directions whose entries count to a cell with a positive straight entry:
    /// the diagonals, and north and south on a 4-connected grid.
    #[inline]
    fn diagonal_like(eight: bool, d: usize) -> bool {
        is_diagonal(d) || (!eight && (d == N || d == S))
    }

    /// The jump points of `node` (at `at`) in its pruned directions, as (direction, moves),
    /// in scan order, and how many there are.
    #[inline]
    fn jumps(&self, node: usize, at: Point) -> ([(usize, usize); 8], usize) {
        let eight = self.eight();
        let cell = self.packed[node];
        let dirs = cell.directions(self.core.arrived[node], eight);
        let gx = self.core.goal.x as i64 - at.x as i64;
        let gy = self.core.goal.y as i64 - at.y as i64;
        let mut jumps = [(0, 0); 8];
        let mut count = 0;
        for d in SCAN_ORDER {
            if dirs & (1 << d) == 0 {
                continue;
            }
            if let Some(k) = Self::stop(cell, d, eight, gx, gy) {
                jumps[count] = (d, k);
                count += 1;
            }
        }
        (jumps, count)
    }

    /// Where the scan in direction `d` from a cell whose packed entries are `cell` stops, in
    /// moves, with the goal `(gx, gy)` away: where it meets the goal (the goal check) when
    /// that is within the entry's reach, else at the jump point of a positive entry; `None`
    /// when neither.
    #[inline]
    fn stop(cell: Packed, d: usize, eight: bool, gx: i64, gy: i64) -> Option<usize> {
        let dist = cell.distance(d);
        let reach = i64::from(dist.unsigned_abs());
        let meet = if is_diagonal(d) {
            (gx.signum() == DX[d] && gy.signum() == DY[d]).then(|| gx.abs().min(gy.abs()))
        } else if Self::diagonal_like(eight, d) {
            (gy.signum() == DY[d]).then(|| gy.abs())
        } else if DX[d] == 0 {
            (gx == 0 && gy.signum() == DY[d]).then(|| gy.abs())
        } else {
            (gy == 0 && gx.signum() == DX[d]).then(|| gx.abs())
        };
        match meet {
            Some(m) if m <= reach => Some(m as usize),
            _ if dist > 0 => Some(dist as usize),
            _ => None,
        }
    }

    /// The successors of `node` (at `at`) in pruned JPS+, in the order they are offered. The
    /// goal's direction (see [`toward`](Self::toward)) is looked up first, when the pruning
    /// keeps it: if its scans reach the goal, the goal is the only successor (no route through
    /// `node` can be cheaper than that one, which has no detour). Then the other directions in
    /// scan order: a straight one's stop (as JPS+), and along a diagonal-like one each stop in
    /// turn expanded in place (its straight directions, then on along the diagonal), until the
    /// scan finds no stop or stops on the goal. `scan(from, to, hit)` is told every scan read,
    /// to its stop (`hit`) or to the last cell before the wall.
    fn pruned_jumps(&self, node: usize, at: Point, found: &mut Vec<Found>, mut scan: impl FnMut(Point, Point, bool)) {
        let eight = self.eight();
        let cell = self.packed[node];
        let dirs = cell.directions(self.core.arrived[node], eight);
        let toward = self.toward(at).filter(|&t| dirs & (1 << t) != 0);
        if let Some(t) = toward {
            self.pruned_direction(at, cell, t, found, &mut scan);
            if let Some(&goal) = found.iter().find(|f| f.to == self.core.goal) {
                found.clear();
                found.push(goal);
                return;
            }
        }
        for d in SCAN_ORDER {
            if dirs & (1 << d) != 0 && Some(d) != toward {
                self.pruned_direction(at, cell, d, found, &mut scan);
            }
        }
    }

    /// The direction of the first leg of the way from `at` to the goal that a pruned
    /// successor's route takes: the diagonal towards the goal (vertical, 4-connected) unless
    /// the goal is level with `at`, then straight; `None` at the goal.
    fn toward(&self, at: Point) -> Option<usize> {
        let goal = self.core.goal;
        let (sx, sy) = ((goal.x as i64 - at.x as i64).signum(), (goal.y as i64 - at.y as i64).signum());
        let (sx, sy) = if self.eight() || sy == 0 { (sx, sy) } else { (0, sy) };
        // No direction is (0, 0): at the goal this finds none.
        (0..8).find(|&d| (DX[d], DY[d]) == (sx, sy))
    }

    /// The successors pruned JPS+ finds in direction `d` from `from` (whose packed entries are
    /// `cell`), added to `found`, the scans read told to `scan` (see
    /// [`pruned_jumps`](Self::pruned_jumps)).
    fn pruned_direction(
        &self,
        from: Point,
        cell: Packed,
        d: usize,
        found: &mut Vec<Found>,
        scan: &mut impl FnMut(Point, Point, bool),
    ) {
        let eight = self.eight();
        if !Self::diagonal_like(eight, d) {
            self.straight_stop(from, cell, d, 0.0, found, scan);
            return;
        }
        let goal = self.core.goal;
        let (mut from, mut from_cell, mut moves) = (from, cell, 0);
        loop {
            let (gx, gy) = (goal.x as i64 - from.x as i64, goal.y as i64 - from.y as i64);
            let Some(k) = Self::stop(from_cell, d, eight, gx, gy) else {
                scan(from, JumpCore::moved(from, d, from_cell.distance(d).unsigned_abs() as usize), false);
                return;
            };
            let stop = JumpCore::moved(from, d, k);
            scan(from, stop, true);
            moves += k;
            let to_stop = self.core.run_cost(d, moves);
            if stop == goal {
                found.push(Found { to: stop, cost: to_stop, arrived: d });
                return;
            }
            let stop_cell = self.packed[self.core.space.grid.index(stop)];
            let sides = stop_cell.directions(d as u8, eight) & !(1 << d);
            for c in SCAN_ORDER.into_iter().filter(|&c| sides & (1 << c) != 0) {
                self.straight_stop(stop, stop_cell, c, to_stop, found, scan);
            }
            (from, from_cell) = (stop, stop_cell);
        }
    }

    /// A straight scan of pruned JPS+ from `from` (packed entries `cell`) in direction `c`,
    /// `base` the cost of the route to `from`: its stop, if any, goes to `found`.
    fn straight_stop(
        &self,
        from: Point,
        cell: Packed,
        c: usize,
        base: f64,
        found: &mut Vec<Found>,
        scan: &mut impl FnMut(Point, Point, bool),
    ) {
        let goal = self.core.goal;
        let (gx, gy) = (goal.x as i64 - from.x as i64, goal.y as i64 - from.y as i64);
        if let Some(k) = Self::stop(cell, c, self.eight(), gx, gy) {
            let to = JumpCore::moved(from, c, k);
            scan(from, to, true);
            found.push(Found { to, cost: base + self.core.run_cost(c, k), arrived: c });
        } else {
            scan(from, JumpCore::moved(from, c, cell.distance(c).unsigned_abs() as usize), false);
        }
    }

    // ---- the table ------------------------------------------------------------------------

    /// True when `(x, y)` is an open cell; cells just outside the grid are walls.
    #[inline]
    fn open(&self, x: i64, y: i64) -> bool {
        self.walls.is_open(((y + 1) as usize) * (self.core.space.grid.width() + 2) + (x + 1) as usize)
    }

    /// The entry of direction `d` at `(x, y)`, from the entries of the next cell.
    fn entry(&self, x: i64, y: i64, d: usize) -> i32 {
        let eight = self.eight();
        if !self.open(x, y) || (!eight && is_diagonal(d)) {
            return 0;
        }
        let (nx, ny) = (x + DX[d], y + DY[d]);
        let allowed = self.open(nx, ny) && (!is_diagonal(d) || (self.open(nx, y) && self.open(x, ny)));
        if !allowed {
            return 0;
        }
        let next = (ny as usize * self.core.space.grid.width() + nx as usize) * 8;
        let jump_point = if Self::diagonal_like(eight, d) {
            let (c1, c2) = if is_diagonal(d) { ((d + 1) & 7, (d + 7) & 7) } else { (E, W) };
            self.table[next + c1] > 0 || self.table[next + c2] > 0
        } else {
            let n = self.walls.pad(Point::new(nx as usize, ny as usize));
            self.walls.forced_side(n, d, (d + 2) & 7) || self.walls.forced_side(n, d, (d + 6) & 7)
        };
        if jump_point {
            1
        } else {
            let after = self.table[next + d];
            if after > 0 {
                after + 1
            } else {
                after - 1
            }
        }
    }

    /// The straight directions (whose entries depend on the map alone) and the diagonal-like
    /// ones (which depend on the straight entries).
    fn direction_kinds(&self) -> (&'static [usize], &'static [usize]) {
        if self.eight() {
            (&[N, E, S, W], &[1, 3, 5, 7])
        } else {
            (&[E, W], &[N, S])
        }
    }

    /// Recomputes direction `d` on the cells `(x, y)` for `x` in `xs` and `y` in `ys`, taking
    /// the cells farthest along `d` first; returns the cells whose entry changed sign (from
    /// positive to not, or back).
    fn recompute(
        &mut self,
        d: usize,
        xs: std::ops::Range<i64>,
        ys: std::ops::Range<i64>,
        sign_changed: &mut Vec<usize>,
    ) {
        let w = self.core.space.grid.width();
        let ys: Vec<i64> = if DY[d] > 0 { ys.rev().collect() } else { ys.collect() };
        let xs: Vec<i64> = if DX[d] > 0 { xs.rev().collect() } else { xs.collect() };
        for &y in &ys {
            for &x in &xs {
                let i = (y as usize * w + x as usize) * 8 + d;
                let new = self.entry(x, y, d);
                if (new > 0) != (self.table[i] > 0) {
                    sign_changed.push(i / 8);
                }
                self.set_entry(i, new);
            }
        }
    }

    /// Writes entry `i` (`cell * 8 + direction`) of the table and of its packed copy.
    #[inline]
    fn set_entry(&mut self, i: usize, value: i32) {
        self.table[i] = value;
        let e = &mut self.packed[i / 8].0[i % 8];
        *e = (*e & !DISTANCE_MASK) | (value as u16 & DISTANCE_MASK);
    }

    /// Sets the forced bits of the packed cell `(x, y)` from the walls around it.
    fn refresh_forced(&mut self, x: usize, y: usize) {
        let n = self.walls.pad(Point::new(x, y));
        let cell = &mut self.packed[y * self.core.space.grid.width() + x];
        for d in [N, E, S, W] {
            let mut bits = 0;
            if self.walls.forced_side(n, d, (d + 2) & 7) {
                bits |= FORCED_CLOCKWISE;
            }
            if self.walls.forced_side(n, d, (d + 6) & 7) {
                bits |= FORCED_ANTICLOCKWISE;
            }
            cell.0[d] = (cell.0[d] & DISTANCE_MASK) | bits;
        }
    }

    /// Builds the whole table.
    fn build_all(&mut self) {
        let (w, h) = (self.core.space.grid.width() as i64, self.core.space.grid.height() as i64);
        let (straight, diagonal) = self.direction_kinds();
        self.table.fill(0);
        self.packed.fill(Packed::default());
        let mut ignored = Vec::new();
        for &d in straight.iter().chain(diagonal) {
            self.recompute(d, 0..w, 0..h, &mut ignored);
            ignored.clear();
        }
        for y in 0..h as usize {
            for x in 0..w as usize {
                self.refresh_forced(x, y);
            }
        }
        self.rebuilt = Rebuild {
            full: true,
            rows: h as usize,
            columns: w as usize,
            diagonal_entries: (w * h) as usize * diagonal.len(),
        };
    }

    /// Updates the table after the cells `changed` were painted (see the module
    /// documentation for what is recomputed and why).
    fn update(&mut self, changed: &[Point]) {
        if changed.len() * 8 > self.core.space.grid.len() {
            self.build_all();
            return;
        }
        let (w, h) = (self.core.space.grid.width() as i64, self.core.space.grid.height() as i64);
        // A cell's forced sides read the cells around it.
        for p in changed {
            for y in p.y.saturating_sub(1)..(p.y + 2).min(h as usize) {
                for x in p.x.saturating_sub(1)..(p.x + 2).min(w as usize) {
                    self.refresh_forced(x, y);
                }
            }
        }
        let eight = self.eight();
        let (_, diagonal) = self.direction_kinds();
        let around = |v: usize, limit: i64| (v as i64 - 1).max(0)..(v as i64 + 2).min(limit);
        let mut rows: Vec<i64> = changed.iter().flat_map(|p| around(p.y, h)).collect();
        super::order::sort_by(&mut rows, &Ord::cmp);
        rows.dedup();
        let mut sign_changed = Vec::new();
        for &y in &rows {
            for d in [E, W] {
                self.recompute(d, 0..w, y..y + 1, &mut sign_changed);
            }
        }
        let mut columns: Vec<i64> = Vec::new();
        if eight {
            columns = changed.iter().flat_map(|p| around(p.x, w)).collect();
            super::order::sort_by(&mut columns, &Ord::cmp);
            columns.dedup();
            for &x in &columns {
                for d in [N, S] {
                    self.recompute(d, x..x + 1, 0..h, &mut sign_changed);
                }
            }
        }
        let mut entries = 0;
        for &d in diagonal {
            // The cells whose own inputs changed: a painted cell q is read by the cells
            // q - d (its next cell), q - (dx, 0) and q - (0, dy) (the sides of their first
            // move) and q itself; a sign change at q is read by q - d.
            let mut seeds: Vec<(i64, i64)> = Vec::new();
            for p in changed {
                let (x, y) = (p.x as i64, p.y as i64);
                seeds.extend([(x, y), (x - DX[d], y - DY[d]), (x - DX[d], y), (x, y - DY[d])]);
            }
            for &i in &sign_changed {
                let (x, y) = ((i % w as usize) as i64, (i / w as usize) as i64);
                seeds.push((x - DX[d], y - DY[d]));
            }
            seeds.retain(|&(x, y)| x >= 0 && y >= 0 && x < w && y < h);
            // Farthest along d first, so that every cell is recomputed after the one it reads.
            let key = |&(x, y): &(i64, i64)| (std::cmp::Reverse(x * DX[d] + y * DY[d]), x, y);
            super::order::sort_by(&mut seeds, &|a, b| key(a).cmp(&key(b)));
            seeds.dedup();
            for (mut x, mut y) in seeds {
                while x >= 0 && y >= 0 && x < w && y < h {
                    let i = (y * w + x) as usize * 8 + d;
                    let new = self.entry(x, y, d);
                    entries += 1;
                    if new == self.table[i] {
                        break;
                    }
                    self.set_entry(i, new);
                    x -= DX[d];
                    y -= DY[d];
                }
            }
        }
        self.rebuilt = Rebuild { full: false, rows: rows.len(), columns: columns.len(), diagonal_entries: entries };
    }
}

impl JumpSearch for JpsPlus {
    const BYTES_PER_CELL: usize = 72;

    fn core(&self) -> &JumpCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut JumpCore {
        &mut self.core
    }

    fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        JpsPlus::step_with(self, recorder)
    }

    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        let changed = self.core.paint(NAME, cells, value)?;
        if !changed.is_empty() {
            for &p in &changed {
                self.walls.set(p, value != WALL);
            }
            self.update(&changed);
        }
        Ok(changed.len())
    }

    fn overlay(&self) -> Overlay {
        let node = self.core.current;
        if node == NO_PARENT {
            return Overlay::default();
        }
        let node = node as usize;
        let at = self.core.space.grid.point_at(node);
        let mut tracer = Tracer::new(&self.walls);
        let eight = self.eight();
        let index = |p: Point| self.core.space.grid.index(p);
        // The forced neighbours of a straight jump point `p` reached in direction `d`.
        let forced = |tracer: &mut Tracer<'_>, p: Point, d: usize| {
            if Self::diagonal_like(eight, d) || p == self.core.goal {
                return;
            }
            let n = self.walls.pad(p);
            for s in [(d + 2) & 7, (d + 6) & 7] {
                if self.walls.forced_side(n, d, s) {
                    tracer.mark(index(JumpCore::moved(p, s, 1)) as u32, MarkKind::Forced);
                }
            }
        };
        let mut children = Vec::new();
        if self.pruned() {
            let mut found = Vec::new();
            self.pruned_jumps(node, at, &mut found, |from, to, hit| {
                tracer.line(index(from) as u32, index(to) as u32, hit);
            });
            for f in found {
                children.push(index(f.to));
                forced(&mut tracer, f.to, f.arrived);
            }
        } else {
            let dirs = self.walls.directions(self.walls.pad(at), self.core.arrived[node], eight);
            let (jumps, count) = self.jumps(node, at);
            let jumps = &jumps[..count];
            for d in SCAN_ORDER {
                if dirs & (1 << d) == 0 {
                    continue;
                }
                if let Some(&(_, k)) = jumps.iter().find(|j| j.0 == d) {
                    let p = JumpCore::moved(at, d, k);
                    tracer.line(node as u32, index(p) as u32, true);
                    children.push(index(p));
                    forced(&mut tracer, p, d);
                } else {
                    let k = self.table[node * 8 + d].unsigned_abs() as usize;
                    tracer.line(node as u32, index(JumpCore::moved(at, d, k)) as u32, false);
                }
            }
        }
        self.core.mark_children(&mut tracer, &children);
        let entries: Vec<String> = (0..8)
            .filter(|&d| eight || !is_diagonal(d))
            .map(|d| format!("{} {}", NAMES[d], self.table[node * 8 + d]))
            .collect();
        tracer.overlay.notes.push(("jump distances", format!("at {}: {}", at, entries.join(", "))));
        tracer.overlay
    }

    fn cell_table(&self) -> Option<CellTable<'_>> {
        Some(CellTable { per_cell: 8, values: &self.table })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::GROUND;
    use crate::search::jps::FROM_START;
    use proptest::prelude::*;

    /// Checks that every packed cell holds the table's distances and gives, for every
    /// arrival, the directions the walls give.
    fn packed_agrees(s: &JpsPlus) -> Result<(), TestCaseError> {
        let grid = &s.core.space.grid;
        for cell in 0..grid.len() {
            let packed = s.packed[cell];
            for d in 0..8 {
                prop_assert_eq!(packed.distance(d), s.table[cell * 8 + d], "cell {} direction {}", cell, d);
            }
            if grid.cells()[cell] == WALL {
                continue;
            }
            let n = s.walls.pad(grid.point_at(cell));
            for arrived in 0..=FROM_START {
                for eight in [false, true] {
                    prop_assert_eq!(
                        packed.directions(arrived, eight),
                        s.walls.directions(n, arrived, eight),
                        "cell {} arrived {} eight {}",
                        cell,
                        arrived,
                        eight
                    );
                }
            }
        }
        Ok(())
    }

    fn grid(w: usize, h: usize, cells: &[bool]) -> Grid {
        let mut cells: Vec<u8> = cells.iter().map(|&open| if open { GROUND } else { WALL }).collect();
        cells[0] = GROUND;
        Grid::from_cells(w, h, cells).unwrap()
    }

    proptest! {
        /// The packed copy the search reads holds the table's distances and the walls'
        /// forced sides, after building and after every stroke of walls or ground (strokes
        /// small enough to be updated in place, and large ones that rebuild).
        #[test]
        fn the_packed_table_matches_the_table_and_the_walls(
            (w, h, cells) in (1usize..20, 1usize..20).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), proptest::collection::vec(proptest::bool::weighted(0.7), w * h))
            }),
            strokes in proptest::collection::vec(
                (proptest::collection::vec((0usize..20, 0usize..20), 1..40), any::<bool>()),
                0..6,
            ),
            four in any::<bool>(),
        ) {
            let rule = if four { Diagonal::Never } else { Diagonal::NoCornerCutting };
            let config = SearchConfig::new(super::super::Algorithm::JpsPlus).diagonal(rule);
            let mut s = JpsPlus::new(grid(w, h, &cells), Point::new(0, 0), Point::new(0, 0), config).unwrap();
            packed_agrees(&s)?;
            for (points, ground) in strokes {
                let points: Vec<Point> = points.iter().map(|&(x, y)| Point::new(x % w, y % h)).collect();
                JumpSearch::paint(&mut s, &points, if ground { GROUND } else { WALL }).unwrap();
                packed_agrees(&s)?;
            }
        }
    }
}
