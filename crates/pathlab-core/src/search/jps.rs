//! Jump point search (Harabor and Grastien, 2011): A* whose successors are jump points found
//! by straight and diagonal scans instead of the eight neighbours.
//!
//! # Rules
//!
//! JPS runs on grids without terrain costs (every cell a wall or ground), under two movement
//! rules: 8-connected with `no-corner-cutting` (the MovingAI rule) and 4-connected (`never`).
//! Other diagonal rules and weighted terrain are refused with [`SearchError::Unsupported`]:
//! its pruning rules assume uniform costs and that a diagonal move needs both side cells open.
//! Painting terrain onto a JPS grid is refused the same way, and the grid is kept.
//!
//! # Pruning (8-connected, no corner cutting)
//!
//! A node reached by a *straight* move in direction `d` keeps only `d` (its natural
//! neighbour) and its *forced* neighbours: for each side `s` at 90 degrees, when the cell at
//! `s` is open but the cell at `s` beside the parent (one step back along `d`) is a wall, the
//! side `s` and the diagonal between `d` and `s` are forced. Every other neighbour can be
//! reached from the parent by a path at most as long that does not pass through the node.
//!
//! A node reached by a *diagonal* move keeps the diagonal and its two straight components.
//! Under no corner cutting a diagonal move needs both its side cells open, so nothing is ever
//! forced: every other neighbour has a strictly shorter path from the parent.
//!
//! A straight scan stops on the goal or on the first cell with a forced neighbour (a jump
//! point), and fails at a wall. A diagonal scan stops on the goal or on the first cell from
//! which a straight scan along either component finds a jump point, and fails when the next
//! diagonal move is not allowed.
//!
//! # Pruning (4-connected)
//!
//! Vertical moves play the part of the diagonals. A node reached horizontally keeps its
//! direction, plus up or down when forced (the cell above or below is open but the one beside
//! the parent is a wall); a node reached vertically keeps its direction and both horizontal
//! ones. A horizontal scan stops as the straight scan above; a vertical scan stops on the goal
//! or on a cell whose horizontal scans find a jump point. Among all cheapest paths this keeps
//! those that never turn from horizontal to vertical except where a wall forces it; any
//! cheapest path can be rearranged into one of those by swapping a horizontal move followed
//! by an unforced vertical one.
//!
//! # Steps, costs and optimality
//!
//! One step pops one jump point (lowest f = g + w·h, then highest g, then first opened, as
//! A*) and performs its jump scans in the pruned directions, straight ones first (N, E, S, W)
//! then diagonals (NE, SE, SW, NW). Each jump point found is opened or improved with
//! g = g(parent) + k × the move cost (straight 1 or 10, diagonal sqrt(2) or 14, per
//! [`Costs`](crate::grid::Costs)). Closed nodes are never reopened.
//!
//! With weight 1 and an admissible heuristic (octile by default; see
//! [`Heuristic::is_admissible`](crate::heuristic::Heuristic::is_admissible)) JPS finds a
//! cheapest path, exactly as A* does. An inadmissible heuristic or a weight above 1 is
//! accepted as for A*, and gives up the guarantee in the same way
//! ([`SearchConfig::is_optimal`] says which).
//!
//! Cells the scans pass over stay [`Unseen`](CellState::Unseen); only jump points are opened
//! and closed. [`parents`](Stepper::parents) point to the previous jump point, while the path
//! ([`path_indices`](Stepper::path_indices)) lists every cell, the straight and diagonal runs
//! between jump points filled in.
//!
//! The [`overlay`](Stepper::overlay) of the last step shows each scan as a line from where it
//! began to where it stopped ([`LineKind::ScanHit`] when it found a jump point,
//! [`LineKind::Scan`] when it ran into a wall), including the straight scans made from each
//! cell of a diagonal scan; the forced neighbours seen ([`MarkKind::Forced`]) and the jump
//! points opened or improved ([`MarkKind::JumpPoint`]). It is worked out again from the last
//! node expanded when asked for, so running without looking costs nothing.
//!
//! ```
//! use pathlab_core::grid::{Grid, Point, WALL};
//! use pathlab_core::search::{build, Algorithm, SearchConfig, Status};
//! let mut grid = Grid::new(6, 4).unwrap();
//! grid.set(Point::new(2, 1), WALL).unwrap();
//! let mut s = build(grid, Point::new(0, 0), Point::new(5, 3), SearchConfig::new(Algorithm::Jps)).unwrap();
//! assert_eq!(s.run(), Status::Found);
//! // The wall at (2,1) blocks the diagonal (1,1)-(2,2): 2 diagonal and 4 straight moves.
//! assert!((s.cost().unwrap() - (4.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-9);
//! assert_eq!(s.path_indices().len(), 7); // every cell of the path, not only jump points
//! ```

use super::engine::{check_ends, check_node};
use super::on_space::steps_through_step_with;
use super::open_list::OpenList;
use super::stepper::{CellTable, LineKind, MarkKind, Overlay, OverlayLine, OverlayMark};
use super::NO_PARENT;
use super::{
    astar, CellState, GridStepper, NodeTable, OpenEntry, Path, Recorder, SearchConfig, SearchError, SpaceStepper,
    Status, StepEvent, Stepper, Task,
};
use crate::grid::{Diagonal, Grid, Point, GROUND, WALL};
use crate::heuristic::Heuristic;
use crate::space::{Space, SquareGrid};

/// Column step of each direction, in the order N, NE, E, SE, S, SW, W, NW.
pub(crate) const DX: [i64; 8] = [0, 1, 1, 1, 0, -1, -1, -1];
/// Row step of each direction, in the same order.
pub(crate) const DY: [i64; 8] = [-1, -1, 0, 1, 1, 1, 0, -1];
/// No arrival direction: the start.
pub(crate) const FROM_START: u8 = 8;
/// The order in which a node's directions are scanned: straight (N, E, S, W), then diagonal
/// (NE, SE, SW, NW), as A* examines neighbours.
pub(crate) const SCAN_ORDER: [usize; 8] = [0, 2, 4, 6, 1, 3, 5, 7];
/// North, east, south and west as direction indices.
pub(crate) const N: usize = 0;
/// East.
pub(crate) const E: usize = 2;
/// South.
pub(crate) const S: usize = 4;
/// West.
pub(crate) const W: usize = 6;

const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;

/// True for the diagonal directions (NE, SE, SW, NW).
#[inline]
pub(crate) const fn is_diagonal(d: usize) -> bool {
    d & 1 == 1
}

/// The pruning rule (module docs): the directions to scan from a node reached by a move in
/// direction `arrived` (or every direction from the start, [`FROM_START`]), as a bit set.
/// `forced(s)` tells whether side `s`, at 90 degrees to a straight `arrived`, holds a forced
/// neighbour; JPS reads it from the walls, JPS+ from its table.
#[inline]
pub(crate) fn pruned_directions(arrived: u8, eight: bool, forced: impl Fn(usize) -> bool) -> u8 {
    if arrived == FROM_START {
        return if eight { 0xFF } else { 0b0101_0101 };
    }
    let d = arrived as usize;
    let mut set = 1u8 << d;
    if is_diagonal(d) {
        // Diagonal: its two straight components.
        set |= 1 << ((d + 1) & 7) | 1 << ((d + 7) & 7);
    } else if !eight && (d == N || d == S) {
        // 4-connected, vertical: both horizontal directions.
        set |= 1 << E | 1 << W;
    } else {
        for (s, between) in [((d + 2) & 7, (d + 1) & 7), ((d + 6) & 7, (d + 7) & 7)] {
            if forced(s) {
                set |= 1 << s;
                if eight {
                    set |= 1 << between;
                }
            }
        }
    }
    set
}

/// Checks that the settings and the grid are ones JPS (and JPS+) can run on; `name` is the
/// algorithm's name for the message.
pub(crate) fn check_rules(name: &str, grid: &Grid, config: &SearchConfig) -> Result<(), SearchError> {
    config.validate()?;
    if !matches!(config.diagonal, Diagonal::NoCornerCutting | Diagonal::Never) {
        return Err(SearchError::Unsupported(format!(
            "{name} runs on 4-connected grids (diagonal never) and under no-corner-cutting, not under {}: \
             its pruning rules assume a diagonal move needs both side cells open; choose A* for this rule",
            config.diagonal
        )));
    }
    if let Some(&value) = grid.cells().iter().find(|&&c| c > GROUND) {
        return Err(terrain_refused(name, value));
    }
    Ok(())
}

/// The refusal of a terrain cost.
pub(crate) fn terrain_refused(name: &str, value: u8) -> SearchError {
    SearchError::Unsupported(format!(
        "{name} needs a grid without terrain costs (mud or water; found a cell of cost {value}): \
         choose A* for weighted terrain"
    ))
}

/// The grid's walls with a border of walls around it, so that scans never test for the
/// edge: one `bool` per cell for single tests, and the same bits packed 64 to a word, by rows
/// and by columns, for the straight scans.
///
/// A straight scan tests three lines at once (the one it runs along and the two beside it):
/// a cell stops it when it is a wall, or when a side cell is open while the side cell before
/// it is not (a forced neighbour). With the lines packed in words, one word of each gives
/// those tests for 64 cells together and the first stop is the lowest (or highest) set bit.
/// Measured with `pathlab scen` on every problem of six DAO maps, this made JPS 1.9 times as
/// fast as testing cell by cell (1.6 to 6 times per map), which it needed to be ten times
/// faster than A* there.
#[derive(Clone, Debug)]
pub(crate) struct Walls {
    width: usize,
    /// Width of the padded grid: `width + 2`.
    pw: usize,
    open: Vec<bool>,
    /// Index offset of one move in each direction.
    pub(crate) delta: [isize; 8],
    /// Words per padded row (with one spare word at the end, always zero).
    row_words: usize,
    /// Bit `x` of padded row `y`: `rows[y * row_words + x / 64] >> (x % 64) & 1`.
    rows: Vec<u64>,
    /// Words per padded column (with one spare word).
    col_words: usize,
    /// Bit `y` of padded column `x`: `cols[x * col_words + y / 64] >> (y % 64) & 1`.
    cols: Vec<u64>,
}

/// The first stop of a scan along a packed line, towards higher positions, after position
/// `from`: the first position that is a wall in `line`, or where `a` or `b` (the lines beside
/// it) is open while the position before it is not.
#[inline]
fn first_stop_up(line: &[u64], a: &[u64], b: &[u64], from: usize) -> usize {
    let first = from + 1;
    let mut i = first / 64;
    let mut mask = !0u64 << (first % 64);
    let mut carry_a = if i > 0 { a[i - 1] >> 63 } else { 0 };
    let mut carry_b = if i > 0 { b[i - 1] >> 63 } else { 0 };
    loop {
        let (wa, wb) = (a[i], b[i]);
        let before_a = (wa << 1) | carry_a;
        let before_b = (wb << 1) | carry_b;
        let stop = (!line[i] | (wa & !before_a) | (wb & !before_b)) & mask;
        if stop != 0 {
            return i * 64 + stop.trailing_zeros() as usize;
        }
        carry_a = wa >> 63;
        carry_b = wb >> 63;
        mask = !0;
        i += 1;
    }
}

/// As [`first_stop_up`], towards lower positions: the last position before `from` that is a
/// wall, or where a side line is open while the position after it is not.
#[inline]
fn first_stop_down(line: &[u64], a: &[u64], b: &[u64], from: usize) -> usize {
    let first = from - 1;
    let mut i = first / 64;
    let mut mask = !0u64 >> (63 - first % 64);
    loop {
        let (wa, wb) = (a[i], b[i]);
        let after_a = (wa >> 1) | (a[i + 1] << 63);
        let after_b = (wb >> 1) | (b[i + 1] << 63);
        let stop = (!line[i] | (wa & !after_a) | (wb & !after_b)) & mask;
        if stop != 0 {
            return i * 64 + 63 - stop.leading_zeros() as usize;
        }
        mask = !0;
        i -= 1;
    }
}

impl Walls {
    pub(crate) fn new(grid: &Grid) -> Self {
        let (width, height) = (grid.width(), grid.height());
        let (pw, ph) = (width + 2, height + 2);
        let row_words = pw / 64 + 2;
        let col_words = ph / 64 + 2;
        let delta = std::array::from_fn(|d| DX[d] as isize + DY[d] as isize * pw as isize);
        let mut walls = Self {
            width,
            pw,
            open: vec![false; pw * ph],
            delta,
            row_words,
            rows: vec![0; row_words * ph],
            col_words,
            cols: vec![0; col_words * pw],
        };
        for (i, &c) in grid.cells().iter().enumerate() {
            if c != WALL {
                walls.set(grid.point_at(i), true);
            }
        }
        walls
    }

    /// Opens or closes one cell of the grid.
    pub(crate) fn set(&mut self, p: Point, open: bool) {
        let i = self.pad(p);
        self.open[i] = open;
        let (x, y) = (p.x + 1, p.y + 1);
        let (row, col) = (&mut self.rows[y * self.row_words + x / 64], &mut self.cols[x * self.col_words + y / 64]);
        if open {
            *row |= 1 << (x % 64);
            *col |= 1 << (y % 64);
        } else {
            *row &= !(1 << (x % 64));
            *col &= !(1 << (y % 64));
        }
    }

    /// The padded index of a grid cell.
    #[inline]
    pub(crate) fn pad(&self, p: Point) -> usize {
        (p.y + 1) * self.pw + p.x + 1
    }

    /// The row-major grid index of a padded index inside the grid.
    #[inline]
    pub(crate) fn unpad(&self, i: usize) -> usize {
        (i / self.pw - 1) * self.width + i % self.pw - 1
    }

    #[inline]
    pub(crate) fn is_open(&self, i: usize) -> bool {
        self.open[i]
    }

    #[inline]
    fn step(i: usize, delta: isize) -> usize {
        i.wrapping_add_signed(delta)
    }

    /// True when a straight move in direction `d` that arrived at `n` leaves a forced
    /// neighbour on side `s` (at 90 degrees): the side cell is open, the one beside the
    /// previous cell is a wall.
    #[inline]
    pub(crate) fn forced_side(&self, n: usize, d: usize, s: usize) -> bool {
        let side = Self::step(n, self.delta[s]);
        self.open[side] && !self.open[Self::step(side, -self.delta[d])]
    }

    /// The directions to scan from padded cell `at`, reached by a move in direction `arrived`
    /// (or [`FROM_START`]), as a bit set (see [`pruned_directions`]).
    #[inline]
    pub(crate) fn directions(&self, at: usize, arrived: u8, eight: bool) -> u8 {
        pruned_directions(arrived, eight, |s| self.forced_side(at, arrived as usize, s))
    }

    /// A straight scan from padded `(x, y)` in direction `d` (N, E, S or W) towards padded
    /// `goal`: the number of moves made and whether it stopped on a jump point (the goal, or
    /// a cell with a forced neighbour) rather than at a wall.
    #[inline]
    pub(crate) fn straight<T: Trace>(
        &self,
        x: usize,
        y: usize,
        d: usize,
        goal: (usize, usize),
        trace: &mut T,
    ) -> (usize, bool) {
        // Along a row (E, W) or a column (N, S): `at` is the position along the line, `goal_at`
        // the goal's when it lies on the same line.
        let (at, goal_at, stop) = if d == E || d == W {
            let r = self.row_words;
            let line = &self.rows[y * r..(y + 1) * r];
            let above = &self.rows[(y - 1) * r..y * r];
            let below = &self.rows[(y + 1) * r..(y + 2) * r];
            let stop =
                if d == E { first_stop_up(line, above, below, x) } else { first_stop_down(line, above, below, x) };
            (x, (goal.1 == y).then_some(goal.0), stop)
        } else {
            let c = self.col_words;
            let line = &self.cols[x * c..(x + 1) * c];
            let left = &self.cols[(x - 1) * c..x * c];
            let right = &self.cols[(x + 1) * c..(x + 2) * c];
            let stop = if d == S { first_stop_up(line, left, right, y) } else { first_stop_down(line, left, right, y) };
            (y, (goal.0 == x).then_some(goal.1), stop)
        };
        let wall = !self.open[self.at_along(x, y, d, stop)];
        let (k, hit) = match goal_at {
            Some(g) if (at < g && g <= stop) || (stop <= g && g < at) => (g.abs_diff(at), true),
            _ if wall => (stop.abs_diff(at) - 1, false),
            _ => (stop.abs_diff(at), true),
        };
        if T::ON {
            let from = y * self.pw + x;
            let to = Self::step(from, self.delta[d] * k as isize);
            if hit && to != goal.1 * self.pw + goal.0 {
                for s in [(d + 2) & 7, (d + 6) & 7] {
                    if self.forced_side(to, d, s) {
                        trace.forced(Self::step(to, self.delta[s]));
                    }
                }
            }
            trace.scan(from, to, hit);
        }
        (k, hit)
    }

    /// The padded index of the cell at position `along` on the line through `(x, y)` in
    /// direction `d`.
    #[inline]
    fn at_along(&self, x: usize, y: usize, d: usize, along: usize) -> usize {
        if d == E || d == W {
            y * self.pw + along
        } else {
            along * self.pw + x
        }
    }

    /// A diagonal scan (8-connected, no corner cutting) from padded `(x, y)` in direction
    /// `d`: moves while the diagonal move is allowed, and stops on the goal or on a cell from
    /// which a straight scan along either component finds a jump point.
    #[inline]
    pub(crate) fn diagonal<T: Trace>(
        &self,
        x: usize,
        y: usize,
        d: usize,
        goal: (usize, usize),
        trace: &mut T,
    ) -> (usize, bool) {
        let (h, v) = ((d + 1) & 7, (d + 7) & 7);
        let (step, dh, dv) = (self.delta[d], self.delta[h], self.delta[v]);
        let from = y * self.pw + x;
        let (mut n, mut cx, mut cy) = (from, x, y);
        let mut k = 0;
        loop {
            let next = Self::step(n, step);
            if !(self.open[Self::step(n, dh)] && self.open[Self::step(n, dv)] && self.open[next]) {
                trace.scan(from, n, false);
                return (k, false);
            }
            n = next;
            cx = cx.wrapping_add_signed(DX[d] as isize);
            cy = cy.wrapping_add_signed(DY[d] as isize);
            k += 1;
            if (cx, cy) == goal || self.straight(cx, cy, h, goal, trace).1 || self.straight(cx, cy, v, goal, trace).1 {
                trace.scan(from, n, true);
                return (k, true);
            }
        }
    }

    /// A vertical scan on a 4-connected grid from padded `(x, y)` in direction `d` (N or S):
    /// moves while the next cell is open, and stops on the goal or on a cell from which a
    /// horizontal scan finds a jump point.
    #[inline]
    pub(crate) fn vertical<T: Trace>(
        &self,
        x: usize,
        y: usize,
        d: usize,
        goal: (usize, usize),
        trace: &mut T,
    ) -> (usize, bool) {
        let step = self.delta[d];
        let from = y * self.pw + x;
        let (mut n, mut cy) = (from, y);
        let mut k = 0;
        loop {
            let next = Self::step(n, step);
            if !self.open[next] {
                trace.scan(from, n, false);
                return (k, false);
            }
            n = next;
            cy = cy.wrapping_add_signed(DY[d] as isize);
            k += 1;
            if (x, cy) == goal || self.straight(x, cy, E, goal, trace).1 || self.straight(x, cy, W, goal, trace).1 {
                trace.scan(from, n, true);
                return (k, true);
            }
        }
    }
}

/// Receives what the scans do, for the overlay; [`NoTrace`] records nothing and costs
/// nothing.
pub(crate) trait Trace {
    /// Whether anything is recorded.
    const ON: bool;
    /// A scan from `from` stopped at `to` (padded indices), on a jump point when `hit`.
    fn scan(&mut self, from: usize, to: usize, hit: bool);
    /// A forced neighbour at `cell` (a padded index).
    fn forced(&mut self, cell: usize);
}

/// Records nothing.
pub(crate) struct NoTrace;

impl Trace for NoTrace {
    const ON: bool = false;

    #[inline]
    fn scan(&mut self, _: usize, _: usize, _: bool) {}

    #[inline]
    fn forced(&mut self, _: usize) {}
}

/// Records scans and forced neighbours as overlay lines and marks.
pub(crate) struct Tracer<'a> {
    walls: &'a Walls,
    pub(crate) overlay: Overlay,
}

impl<'a> Tracer<'a> {
    pub(crate) fn new(walls: &'a Walls) -> Self {
        Self { walls, overlay: Overlay::default() }
    }

    /// Adds a line between two grid cells (row-major indices).
    pub(crate) fn line(&mut self, from: u32, to: u32, hit: bool) {
        if from != to {
            let kind = if hit { LineKind::ScanHit } else { LineKind::Scan };
            self.overlay.lines.push(OverlayLine { from, to, kind });
        }
    }

    /// Adds a mark on a grid cell, once.
    pub(crate) fn mark(&mut self, cell: u32, kind: MarkKind) {
        let mark = OverlayMark { cell, kind };
        if !self.overlay.marks.contains(&mark) {
            self.overlay.marks.push(mark);
        }
    }
}

impl Trace for Tracer<'_> {
    const ON: bool = true;

    fn scan(&mut self, from: usize, to: usize, hit: bool) {
        let (from, to) = (self.walls.unpad(from) as u32, self.walls.unpad(to) as u32);
        self.line(from, to, hit);
    }

    fn forced(&mut self, cell: usize) {
        let cell = self.walls.unpad(cell) as u32;
        self.mark(cell, MarkKind::Forced);
    }
}

/// The A* bookkeeping shared by JPS and JPS+: per-cell buffers, the open list over jump
/// points, counters, and the path with its runs filled in.
#[derive(Clone, Debug)]
pub(crate) struct JumpCore {
    /// The cells, with the search's diagonal rule, costs and estimate.
    pub(crate) space: SquareGrid,
    pub(crate) start: Point,
    pub(crate) goal: Point,
    pub(crate) config: SearchConfig,
    pub(crate) nodes: NodeTable,
    /// The direction of the jump that gave each cell its parent ([`FROM_START`] for none).
    pub(crate) arrived: Vec<u8>,
    open_list: OpenList,
    pub(crate) current: u32,
    /// Room for [`finish_path`](Self::finish_path)'s jump points, kept between searches.
    corners: Vec<u32>,
    /// Room for [`finish_path`](Self::finish_path)'s cells, kept between searches.
    cells: Vec<u32>,
}

impl JumpCore {
    /// Sets up the bookkeeping after the caller has checked the rules.
    pub(crate) fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_ends(&grid, start, goal)?;
        let n = grid.len();
        let mut core = Self {
            space: SquareGrid::with_config(grid, &config),
            start,
            goal,
            config,
            nodes: NodeTable::new(n),
            arrived: vec![FROM_START; n],
            open_list: OpenList::new(config.weight == 1.0),
            current: NO_PARENT,
            corners: Vec::new(),
            cells: Vec::new(),
        };
        core.reset();
        Ok(core)
    }

    /// Back to step 0: only the start is open.
    pub(crate) fn reset(&mut self) {
        for &i in self.nodes.touched() {
            self.arrived[i as usize] = FROM_START;
        }
        self.nodes.reset();
        self.open_list.clear();
        self.current = NO_PARENT;
        let s = self.space.grid.index(self.start);
        self.nodes.open(s as u32, 0.0, NO_PARENT);
        let (key, tie) = astar::priority(0.0, self.h(self.start), self.config.weight);
        self.open_list.push(key, tie, s as u32);
    }

    /// Moves the ends; back to step 0.
    pub(crate) fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.space.grid, start, goal)?;
        self.start = start;
        self.goal = goal;
        self.reset();
        Ok(())
    }

    /// The estimate from `p` to the goal.
    #[inline]
    pub(crate) fn h(&self, p: Point) -> f64 {
        self.config.heuristic.estimate(p.x.abs_diff(self.goal.x), p.y.abs_diff(self.goal.y), self.config.costs)
    }

    /// Starts a step: closes the last node, pops the next, and either returns it (as a grid
    /// index, now the current node) or the event that ends the step (found, no path, or
    /// already finished).
    #[inline]
    pub(crate) fn begin<R: Recorder>(&mut self, recorder: &mut R) -> Result<usize, StepEvent> {
        if self.nodes.status.is_finished() {
            return Err(StepEvent::Finished);
        }
        if self.current != NO_PARENT {
            self.nodes.set_state(self.current, CellState::Closed);
            self.current = NO_PARENT;
        }
        self.nodes.steps += 1;
        self.nodes.status = Status::Searching;
        let Some(node) = self.open_list.pop_open(self.nodes.state()) else {
            self.nodes.status = Status::NoPath;
            self.nodes.open = 0;
            return Err(StepEvent::NoPath);
        };
        let node = node as usize;
        self.nodes.open -= 1;
        if node == self.space.grid.index(self.goal) {
            self.nodes.set_state(node as u32, CellState::Closed);
            self.finish_path();
            self.nodes.status = Status::Found;
            return Err(StepEvent::Found { cost: self.nodes.g()[node] });
        }
        self.nodes.set_state(node as u32, CellState::Current);
        self.current = node as u32;
        self.nodes.expanded += 1;
        recorder.expanded(node as u32);
        Ok(node)
    }

    /// Offers jump point `succ` (at `p`) a path through `from` of cost `new_g`, arriving in
    /// direction `dir`: opens it, improves it, or (closed or no cheaper) leaves it.
    #[inline]
    pub(crate) fn relax<R: Recorder>(
        &mut self,
        succ: usize,
        p: Point,
        from: usize,
        new_g: f64,
        dir: usize,
        recorder: &mut R,
    ) {
        let st = self.nodes.state()[succ];
        if st == CLOSED || st == CURRENT || (st == OPEN && new_g >= self.nodes.g()[succ]) {
            return;
        }
        let old_g = (st == OPEN).then(|| self.nodes.g()[succ]);
        self.nodes.open(succ as u32, new_g, from as u32);
        self.arrived[succ] = dir as u8;
        let (key, tie) = astar::priority(new_g, self.h(p), self.config.weight);
        self.open_list.push(key, tie, succ as u32);
        recorder.opened(succ as u32, from as u32, old_g, new_g);
    }

    /// The path from the start to the goal through the jump points, every cell listed. The
    /// two lists it builds keep their room in the core for the next search (a short search
    /// on a small map otherwise spends a good part of its time allocating them).
    ///
    /// Between a jump point and its parent the route is a straight or diagonal line for JPS
    /// and JPS+; pruned JPS+ also joins a node to the jump points found from the cells of its
    /// diagonal scans, a route that runs diagonally first and straight after (vertically first
    /// and horizontally after on a 4-connected grid), and this fills in either.
    fn finish_path(&mut self) {
        let w = self.space.grid.width();
        let eight = self.config.diagonal != Diagonal::Never;
        let mut corners = std::mem::take(&mut self.corners);
        corners.clear();
        let mut at = self.space.grid.index(self.goal) as u32;
        while at != NO_PARENT {
            corners.push(at);
            at = self.nodes.parent()[at as usize];
        }
        let mut path = std::mem::take(&mut self.cells);
        path.clear();
        let mut from = corners[corners.len() - 1];
        path.push(from);
        for &to in corners.iter().rev().skip(1) {
            let (a, b) = (self.space.grid.point_at(from as usize), self.space.grid.point_at(to as usize));
            let dx = (b.x as i64 - a.x as i64).signum();
            let dy = (b.y as i64 - a.y as i64).signum();
            let (across, down) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
            // The first leg: diagonal (or vertical, 4-connected); the second: the rest, straight.
            let row = dy * w as i64;
            let (first, first_step, second, second_step) = if eight {
                let diagonal = across.min(down);
                (diagonal, row + dx, across.max(down) - diagonal, if across > down { dx } else { row })
            } else {
                (down, row, across, dx)
            };
            let mut cell = i64::from(from);
            for k in 0..first + second {
                cell += if k < first { first_step } else { second_step };
                path.push(cell as u32);
            }
            from = to;
        }
        self.nodes.set_final_path(&path);
        self.corners = corners;
        self.cells = path;
    }

    pub(crate) fn cost(&self) -> Option<f64> {
        (self.nodes.status == Status::Found).then(|| self.nodes.g()[self.space.grid.index(self.goal)])
    }

    /// Checks a brush stroke against the rules and applies it to the grid: returns the cells
    /// that changed. Terrain is refused before anything changes.
    pub(crate) fn paint(&mut self, name: &str, cells: &[Point], value: u8) -> Result<Vec<Point>, SearchError> {
        if value > GROUND {
            return Err(terrain_refused(name, value));
        }
        let mut changed = Vec::new();
        for &p in cells {
            let blocked_end = value == WALL && (p == self.start || p == self.goal);
            if blocked_end || self.space.grid.get(p).is_none_or(|v| v == value) {
                continue;
            }
            self.space.grid.set(p, value).expect("checked inside");
            changed.push(p);
        }
        if !changed.is_empty() {
            self.reset();
        }
        Ok(changed)
    }

    /// The cell `k` moves from `p` in direction `d`.
    #[inline]
    pub(crate) fn moved(p: Point, d: usize, k: usize) -> Point {
        let k = k as i64;
        Point::new((p.x as i64 + DX[d] * k) as usize, (p.y as i64 + DY[d] * k) as usize)
    }

    /// The cost of `k` moves in direction `d`.
    #[inline]
    pub(crate) fn run_cost(&self, d: usize, k: usize) -> f64 {
        let unit = if is_diagonal(d) { self.config.costs.diagonal() } else { self.config.costs.straight() };
        unit * k as f64
    }

    /// The open jump points in exactly the order the next steps take them off (if nothing
    /// more were put on), at most `limit`.
    pub(crate) fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        let g_h = |i: usize| (self.nodes.g()[i], self.h(self.space.grid.point_at(i)));
        self.open_list.open_entries(limit, &self.nodes, self.config.weight, g_h)
    }

    /// Marks the jump points the current node opened or improved (its children now), for
    /// the overlay.
    pub(crate) fn mark_children(&self, tracer: &mut Tracer<'_>, children: &[usize]) {
        for &c in children {
            if self.nodes.parent()[c] == self.current && self.nodes.state()[c] == OPEN {
                tracer.mark(c as u32, MarkKind::JumpPoint);
            }
        }
    }
}

/// Finds a cheapest path with jump point search and returns it, or `None` when the goal is
/// unreachable.
///
/// - `grid`: the cells, walls and ground only (terrain is refused);
/// - `start`, `goal`: the ends, both open cells inside the grid;
/// - `diagonal`: `no-corner-cutting` or `never` (the others are refused).
///
/// The heuristic is octile (Manhattan when 4-connected), costs are real (straight 1,
/// diagonal sqrt(2)). For other settings, or to step, build a [`Jps`] with a
/// [`SearchConfig`].
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::search::jps::jps;
/// let mut grid = Grid::new(5, 3).unwrap();
/// grid.set(Point::new(2, 0), WALL).unwrap();
/// grid.set(Point::new(2, 1), WALL).unwrap();
/// let path = jps(&grid, Point::new(0, 0), Point::new(4, 0), Diagonal::Never).unwrap().unwrap();
/// assert_eq!(path.cost, 8.0);
/// assert_eq!(path.points.len(), 9);
/// ```
pub fn jps(grid: &Grid, start: Point, goal: Point, diagonal: Diagonal) -> Result<Option<Path>, SearchError> {
    let config =
        SearchConfig::new(super::Algorithm::Jps).diagonal(diagonal).heuristic(Heuristic::default_for(diagonal));
    let mut search = Jps::new(grid.clone(), start, goal, config)?;
    Stepper::run(&mut search);
    Ok(search.path())
}

/// Jump point search as a [`Stepper`]: one step pops a jump point and scans from it.
///
/// See the [module documentation](self) for the rules, the order and the overlay.
#[derive(Clone, Debug)]
pub struct Jps {
    core: JumpCore,
    walls: Walls,
}

/// The algorithm's name in messages.
pub(crate) const NAME: &str = "JPS";

impl Jps {
    /// Sets up a search from `start` to `goal`. Refuses terrain costs, diagonal rules other
    /// than `no-corner-cutting` and `never`, ends outside the grid or on walls, and weights
    /// outside 1 to 100.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_rules(NAME, &grid, &config)?;
        let walls = Walls::new(&grid);
        Ok(Self { core: JumpCore::new(grid, start, goal, config)?, walls })
    }

    /// Performs one step, telling `recorder` which jump point was expanded and which were
    /// opened or improved.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        let node = match self.core.begin(recorder) {
            Ok(node) => node,
            Err(event) => return event,
        };
        let at = self.core.space.grid.point_at(node);
        let (jumps, count) = scans(&self.walls, &self.core, node, at, &mut NoTrace);
        let base = self.core.nodes.g()[node];
        for &(d, k) in &jumps[..count] {
            let p = JumpCore::moved(at, d, k);
            let succ = self.core.space.grid.index(p);
            let g = base + self.core.run_cost(d, k);
            self.core.relax(succ, p, node, g, d, recorder);
        }
        StepEvent::Expanded(at)
    }
}

/// The scans of `node` (at `at`) in its pruned directions: the jump points found, as
/// (direction, moves), in scan order, and how many there are.
#[inline]
fn scans<T: Trace>(
    walls: &Walls,
    core: &JumpCore,
    node: usize,
    at: Point,
    trace: &mut T,
) -> ([(usize, usize); 8], usize) {
    let eight = core.config.diagonal == Diagonal::NoCornerCutting;
    let (x, y) = (at.x + 1, at.y + 1);
    let goal = (core.goal.x + 1, core.goal.y + 1);
    let dirs = walls.directions(walls.pad(at), core.arrived[node], eight);
    let mut jumps = [(0, 0); 8];
    let mut count = 0;
    for d in SCAN_ORDER {
        if dirs & (1 << d) == 0 {
            continue;
        }
        let (k, hit) = if is_diagonal(d) {
            walls.diagonal(x, y, d, goal, trace)
        } else if !eight && (d == N || d == S) {
            walls.vertical(x, y, d, goal, trace)
        } else {
            walls.straight(x, y, d, goal, trace)
        };
        if hit {
            jumps[count] = (d, k);
            count += 1;
        }
    }
    (jumps, count)
}

/// JPS and JPS+: searches on a [`JumpCore`] that differ only in how they find jump points
/// and what they keep beside the core. Every [`Stepper`] method they share is written once,
/// in the impl below, over this.
pub(crate) trait JumpSearch: Clone + std::fmt::Debug + 'static {
    /// The bookkeeping.
    fn core(&self) -> &JumpCore;

    /// The bookkeeping, to change.
    fn core_mut(&mut self) -> &mut JumpCore;

    /// One step, telling `recorder` which jump point was expanded and which were opened.
    fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent;

    /// Applies a brush stroke (the cells are refused or changed by [`JumpCore::paint`]) to
    /// what the search keeps beside the core.
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError>;

    /// The scans and marks of the last step.
    fn overlay(&self) -> Overlay;

    /// Numbers kept per cell, if any.
    fn cell_table(&self) -> Option<CellTable<'_>> {
        None
    }

    /// Bytes per cell beyond the grid.
    const BYTES_PER_CELL: usize;
}

impl<T: JumpSearch> SpaceStepper<SquareGrid> for T {
    steps_through_step_with!(SquareGrid);

    fn reset(&mut self) {
        self.core_mut().reset();
    }

    fn nodes(&self) -> &NodeTable {
        &self.core().nodes
    }

    fn cost(&self) -> Option<f64> {
        self.core().cost()
    }

    fn h_of(&self, node: u32) -> f64 {
        let core = self.core();
        core.h(core.space.grid.point_at(node as usize))
    }

    fn space(&self) -> &SquareGrid {
        &self.core().space
    }

    /// The ends as cell indices.
    fn task(&self) -> Task {
        let core = self.core();
        let index = |p: Point| core.space.grid.index(p) as u32;
        Task { start: index(core.start), goal: index(core.goal), config: core.config }
    }

    fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError> {
        let space = &self.core().space;
        check_node(space, "start", start)?;
        check_node(space, "goal", goal)?;
        let (start, goal) = (space.at(start), space.at(goal));
        self.core_mut().set_ends(start, goal)
    }

    /// Takes the cells of `space` that `changed` lists as brush strokes do (the rules and the
    /// grid's size stay the search's own).
    fn edit_space(&mut self, space: SquareGrid, changed: &[u32]) -> Result<(), SearchError> {
        for &node in changed {
            let p = space.grid.point_at(node as usize);
            if let Some(value) = space.grid.get(p) {
                JumpSearch::paint(self, &[p], value)?;
            }
        }
        Ok(())
    }

    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        self.core().open_entries(limit)
    }
}

impl<T: JumpSearch> GridStepper for T {
    type Cells = SquareGrid;

    fn h(&self, p: Point) -> f64 {
        self.core().h(p)
    }

    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        JumpSearch::paint(self, cells, value)
    }

    fn overlay(&self) -> Overlay {
        JumpSearch::overlay(self)
    }

    fn cell_table(&self) -> Option<CellTable<'_>> {
        JumpSearch::cell_table(self)
    }

    fn bytes_per_cell(&self) -> usize {
        Self::BYTES_PER_CELL
    }
}

impl JumpSearch for Jps {
    const BYTES_PER_CELL: usize = 24;

    fn core(&self) -> &JumpCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut JumpCore {
        &mut self.core
    }

    fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        Jps::step_with(self, recorder)
    }

    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        let changed = self.core.paint(NAME, cells, value)?;
        for &p in &changed {
            self.walls.set(p, value != WALL);
        }
        Ok(changed.len())
    }

    fn overlay(&self) -> Overlay {
        let node = self.core.current;
        if node == NO_PARENT {
            return Overlay::default();
        }
        // Replays the scans of the last expansion with a recording trace: they only read.
        let node = node as usize;
        let at = self.core.space.grid.point_at(node);
        let mut tracer = Tracer::new(&self.walls);
        let (jumps, count) = scans(&self.walls, &self.core, node, at, &mut tracer);
        let children: Vec<usize> =
            jumps[..count].iter().map(|&(d, k)| self.core.space.grid.index(JumpCore::moved(at, d, k))).collect();
        self.core.mark_children(&mut tracer, &children);
        tracer.overlay
    }
}
