//! Bidirectional A*: one A* frontier grows from the start, another from the goal, and the
//! search stops once no meeting of the two can beat the best one already seen.
//!
//! # The two searches
//!
//! The **forward** search is ordinary A* from the start, aiming at the goal. The **backward**
//! search is A* from the goal, aiming at the start, over the same moves walked the other way.
//! Moves are symmetric on these grids (a diagonal is allowed or not whichever way it is
//! walked, since it has the same two side cells), but their costs are not: a move costs the
//! terrain of the cell it *enters*. So when the backward search steps from `v` back to a
//! neighbour `u`, the forward move it stands for is `u -> v`, and it charges the terrain of
//! `v`, the cell it comes from. Its `g` is then the cost of a real forward path from the
//! cell to the goal.
//!
//! # One step
//!
//! One step is one expansion in one direction: the side with fewer cells on its open list
//! (Pohl's cardinality rule); on a tie, the side that did not expand last (the forward one at
//! the first step), so that the sides take turns in a corridor or a symmetric room. That
//! keeps both frontiers about the same size, which on maps where one end sits in a small room
//! lets the room be searched from inside instead of from the far side of the map. The final
//! step, which applies the stopping rule, expands nothing.
//!
//! # Where they meet, and when to stop
//!
//! Whenever a cell gets a cost from one side while it already has one from the other, the
//! two costs add up to the cost of a real path through it. `mu` is the cheapest such sum
//! seen so far and the *meeting cell* the cell that gave it (the first to reach it, on ties).
//! The first meeting is not necessarily on a cheapest path: the two frontiers may touch
//! across expensive terrain long before the cheap way round is explored. So the search goes
//! on until
//!
//! ```text
//! mu <= max(min f forward, min f backward)
//! ```
//!
//! where `min f` is the lowest key `g + h` on that side's open list (`+inf` when it is empty).
//!
//! **Nipping.** When one side takes off its open list a cell that the other side has already
//! closed, it closes the cell without expanding it (Kwa's BS* calls this *nipping*): the
//! other side has already followed every way on from there. This spares the sides most of
//! the work of crossing each other's closed areas (about a fifth of the expansions on the
//! MovingAI DAO maps). A nipped cell is not counted as expanded.
//!
//! **Why this is optimal** (weight 1, admissible heuristic). Every admissible heuristic this
//! crate offers is also consistent (`h(u) <= cost(u, v) + h(v)` for a move `u -> v`, as terrain
//! only makes moves dearer than the grid distance the estimates measure), and so is each one
//! read toward the start for the backward search. Closed cells are never reopened. Fix a
//! cheapest path `P = (s = p0, ..., pk = t)` of cost `C*`.
//!
//! *Lemma.* As long as no cell of `P` has been nipped, a cell of `P` that a side takes off its
//! open list has its exact cost from that side's root. (As for A*: if `pj` came off forward
//! with `g(pj) > g*(pj)`, take the first cell `pi` before it on `P` that the forward side has
//! not expanded; its predecessors were expanded, not nipped, at their exact costs, so `pi` is
//! open with `g = g*(pi)`, and by consistency `f(pi) = g*(pi) + h(pi) <= g*(pj) + h(pj) <
//! f(pj)`: `pi` would have come off first.)
//!
//! - Once a cell `m` of `P` is nipped for the first time, say forward: the backward side
//!   closed it earlier by expanding it, so by the lemma both its costs are exact, and
//!   `mu <= g(m) + g_back(m) = C*`.
//! - Before that, as for A*: if every cell of `P` before `t` is closed forward, they were
//!   expanded at their exact costs, so `t` has forward cost `C*`, and backward cost 0:
//!   `mu <= C*`. Otherwise the first cell `pi` of `P` that the forward side has not closed is
//!   open forward with `g = g*(pi)` (its predecessor was expanded at its exact cost, or
//!   `i = 0`), and its key `g*(pi) + h(pi) <= g*(pi) + cost(pi -> t) = C*`: `min f forward
//!   <= C*`.
//!
//! So while `mu > C*`, `min f forward <= C* < mu`, and by the same argument backward,
//! `min f backward < mu`: the rule does not fire, and neither open list is empty. As `mu` is
//! always the cost of a real path, `mu >= C*`; when the rule fires, `mu = C*`. When there is no
//! path, `mu` stays infinite, and the search ends with no path when one side's open list runs
//! dry (it has closed every cell connected to its root).
//!
//! With a weight `w > 1` the keys are `g + w h` and the result is not optimal. The property
//! tests check on thousands of random grids that its cost stays within `w` times the optimum,
//! the bound weighted A* gives; it is not proved here for the bidirectional search.
//!
//! # What the page sees
//!
//! - [`states`](BiAStar::states): `Open`/`Closed` for the forward search, `OpenBack`/
//!   `ClosedBack` for the backward one, `Current` for the cell the last step expanded and
//!   `Path` for the path once found. A cell both sides know shows the forward state when it
//!   is closed forward; otherwise closed beats open, and forward beats backward:
//!   `Closed > ClosedBack > Open > OpenBack`.
//! - [`g_values`](BiAStar::g_values) and [`parents`](BiAStar::parents): the forward search's
//!   (the cheapest cost from the start it has found, and the parent toward the start);
//!   infinite / none where only the backward search has been. (Past a nipped cell these may
//!   be dearer than the cheapest: the forward search did not go on through it.) The backward side's are [`g_back`](BiAStar::g_back) and
//!   [`parents_back`](BiAStar::parents_back) (cost to the goal, next cell toward the goal).
//!   Once the path is found its cells hold the path's costs from the start and parents along
//!   it, the backward half included: the path can be followed by parents from the goal, and
//!   `g` of the goal is the cost, summed from the start as A* sums it.
//! - The overlay marks the meeting cell ([`MarkKind::Meeting`]) and notes `mu` and the two
//!   `min f` values of the stopping rule.
//! - [`open_count`](BiAStar::open_count) adds the two open lists (a cell open on both counts
//!   twice); [`expanded`](BiAStar::expanded) adds the expansions of both sides (not the
//!   nipped cells, counted by [`nipped`](BiAStar::nipped)).
//!
//! Ties on each open list follow A*: lowest f, then highest g, then first opened; neighbours
//! are examined N, E, S, W, then NE, SE, SW, NW.

use std::cmp::Ordering;

use super::engine::{check_ends, estimate, paint_cells};
use super::open_list::OpenList;
use super::stepper::{MarkKind, Overlay, OverlayMark};
use super::{
    astar, CellState, EventLog, NoRecord, OpenEntry, Recorder, SearchConfig, SearchError, Status, StepEvent, Stepper,
    NO_PARENT,
};
use crate::grid::{Grid, Point};

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;
const OPEN_BACK: u8 = CellState::OpenBack as u8;
const CLOSED_BACK: u8 = CellState::ClosedBack as u8;

/// Per-cell flags: which side has the cell open or closed.
const OPEN_F: u8 = 1;
const CLOSED_F: u8 = 2;
const OPEN_B: u8 = 4;
const CLOSED_B: u8 = 8;

/// Which way a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the start toward the goal.
    Forward,
    /// From the goal toward the start.
    Backward,
}

impl Direction {
    const fn name(self) -> &'static str {
        match self {
            Self::Forward => "forward",
            Self::Backward => "backward",
        }
    }
}

/// One of the two searches: its costs, parents and open list.
#[derive(Clone, Debug)]
struct Side {
    /// Cost from this side's root (forward: from the start; backward: to the goal).
    g: Vec<f64>,
    /// Parent toward this side's root.
    parent: Vec<u32>,
    open: OpenList,
    /// Cells on the open list.
    open_cells: usize,
    expanded: usize,
    /// Cells closed without expansion because the other side had closed them.
    nipped: usize,
    /// The open cell of lowest key, already taken off `open` so that its key can be read
    /// between steps; `NO_PARENT` when the open list is empty.
    top: u32,
    open_bit: u8,
    closed_bit: u8,
}

impl Side {
    fn new(n: usize, monotone: bool, open_bit: u8, closed_bit: u8) -> Self {
        Self {
            g: vec![f64::INFINITY; n],
            parent: vec![NO_PARENT; n],
            open: OpenList::new(monotone),
            open_cells: 0,
            expanded: 0,
            nipped: 0,
            top: NO_PARENT,
            open_bit,
            closed_bit,
        }
    }

    /// Takes the next open cell off the list into `top`, skipping cells this side has
    /// closed, and closing without expansion ("nipping") the cells the other side has closed.
    fn refill_top(&mut self, flags: &mut [u8], state: &mut [u8], other_closed: u8) {
        let closed = self.closed_bit;
        self.top = loop {
            match self.open.pop(|n| flags[n as usize] & closed != 0) {
                None => break NO_PARENT,
                Some(n) if flags[n as usize] & closed != 0 => {}
                Some(n) if flags[n as usize] & other_closed != 0 => self.nip(n, flags, state),
                Some(n) => break n,
            }
        };
    }

    /// Closes an open cell without expanding it.
    fn nip(&mut self, node: u32, flags: &mut [u8], state: &mut [u8]) {
        let i = node as usize;
        flags[i] = (flags[i] & !self.open_bit) | self.closed_bit;
        if state[i] != CURRENT {
            state[i] = shown(flags[i]);
        }
        self.open_cells -= 1;
        self.nipped += 1;
    }
}

/// Bidirectional A*, one expansion per [`step`](BiAStar::step). See the [module
/// documentation](self) for the stopping rule and its proof.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::search::bi_astar::BiAStar;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status};
/// let grid = Grid::new(6, 1).unwrap();
/// let config = SearchConfig::new(Algorithm::BiAStar);
/// let mut s = BiAStar::new(grid, Point::new(0, 0), Point::new(5, 0), config).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(5.0));
/// assert_eq!(s.path_indices(), &[0, 1, 2, 3, 4, 5]);
/// ```
#[derive(Clone, Debug)]
pub struct BiAStar {
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    fwd: Side,
    back: Side,
    flags: Vec<u8>,
    state: Vec<u8>,
    touched: Vec<u32>,
    mu: f64,
    meeting: u32,
    current: u32,
    last: Option<Direction>,
    /// The side that expanded last (`Backward` at step 0, so that the forward side starts).
    turn: Direction,
    status: Status,
    steps: usize,
    path: Vec<u32>,
    cost: f64,
}

impl BiAStar {
    /// Sets up a search from `start` to `goal`. Fails when either end is outside the grid or
    /// on a wall, or the weight is not allowed.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        check_ends(&grid, start, goal)?;
        let n = grid.len();
        let monotone = config.weight == 1.0;
        let mut search = Self {
            grid,
            start,
            goal,
            config,
            fwd: Side::new(n, monotone, OPEN_F, CLOSED_F),
            back: Side::new(n, monotone, OPEN_B, CLOSED_B),
            flags: vec![0; n],
            state: vec![UNSEEN; n],
            touched: Vec::new(),
            mu: f64::INFINITY,
            meeting: NO_PARENT,
            current: NO_PARENT,
            last: None,
            turn: Direction::Backward,
            status: Status::Ready,
            steps: 0,
            path: Vec::new(),
            cost: f64::INFINITY,
        };
        search.reset();
        Ok(search)
    }

    /// Goes back to step 0: the start is open forward, the goal open backward.
    pub fn reset(&mut self) {
        if self.touched.len() * 4 > self.flags.len() {
            self.flags.fill(0);
            self.state.fill(UNSEEN);
            for side in [&mut self.fwd, &mut self.back] {
                side.g.fill(f64::INFINITY);
                side.parent.fill(NO_PARENT);
            }
        } else {
            for &i in &self.touched {
                let i = i as usize;
                self.flags[i] = 0;
                self.state[i] = UNSEEN;
                for side in [&mut self.fwd, &mut self.back] {
                    side.g[i] = f64::INFINITY;
                    side.parent[i] = NO_PARENT;
                }
            }
        }
        self.touched.clear();
        for side in [&mut self.fwd, &mut self.back] {
            side.open.clear();
            side.open_cells = 1;
            side.expanded = 0;
            side.nipped = 0;
        }
        self.mu = f64::INFINITY;
        self.meeting = NO_PARENT;
        self.current = NO_PARENT;
        self.last = None;
        self.turn = Direction::Backward;
        self.status = Status::Ready;
        self.steps = 0;
        self.path.clear();
        self.cost = f64::INFINITY;

        let s = self.grid.index(self.start);
        let t = self.grid.index(self.goal);
        self.touched.push(s as u32);
        if t != s {
            self.touched.push(t as u32);
        }
        self.fwd.g[s] = 0.0;
        self.flags[s] |= OPEN_F;
        let h = estimate(&self.config, self.goal, self.start);
        let (key, tie) = astar::priority(0.0, h, self.config.weight);
        self.fwd.open.push(key, tie, s as u32);
        self.back.g[t] = 0.0;
        self.flags[t] |= OPEN_B;
        let h = estimate(&self.config, self.start, self.goal);
        let (key, tie) = astar::priority(0.0, h, self.config.weight);
        self.back.open.push(key, tie, t as u32);
        self.repaint(s);
        self.repaint(t);
        if s == t {
            self.mu = 0.0;
            self.meeting = s as u32;
        }
        self.fwd.refill_top(&mut self.flags, &mut self.state, CLOSED_B);
        self.back.refill_top(&mut self.flags, &mut self.state, CLOSED_F);
    }

    /// Moves the start and goal; the search goes back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.start = start;
        self.goal = goal;
        self.reset();
        Ok(())
    }

    /// Sets every listed cell to `value` as a brush stroke does (cells outside the grid are
    /// skipped, and so are the start and goal when `value` is a wall); returns how many
    /// changed. When any did, the search goes back to step 0.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let changed = paint_cells(&mut self.grid, self.start, self.goal, cells, value);
        if changed > 0 {
            self.reset();
        }
        changed
    }

    /// The key `g + w h` of `node` on one side's open list.
    #[inline]
    fn key(&self, dir: Direction, node: u32) -> f64 {
        let (side, toward) = match dir {
            Direction::Forward => (&self.fwd, self.goal),
            Direction::Backward => (&self.back, self.start),
        };
        if node == NO_PARENT {
            return f64::INFINITY;
        }
        let p = self.grid.point_at(node as usize);
        side.g[node as usize] + self.config.weight * estimate(&self.config, toward, p)
    }

    /// The lowest key on the forward open list (`+inf` when it is empty).
    pub fn min_f_forward(&self) -> f64 {
        self.key(Direction::Forward, self.fwd.top)
    }

    /// The lowest key on the backward open list (`+inf` when it is empty).
    pub fn min_f_backward(&self) -> f64 {
        self.key(Direction::Backward, self.back.top)
    }

    /// The cheapest path cost through a cell both sides have reached (`+inf` before they
    /// meet).
    pub fn mu(&self) -> f64 {
        self.mu
    }

    /// The cell that gives [`mu`](Self::mu), once the frontiers have met.
    pub fn meeting(&self) -> Option<Point> {
        (self.meeting != NO_PARENT).then(|| self.grid.point_at(self.meeting as usize))
    }

    /// The side the last step expanded, if it expanded one.
    pub fn last_direction(&self) -> Option<Direction> {
        self.last
    }

    /// Performs one step: one expansion on one side, or the final check.
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` what it expanded and opened (on either side;
    /// [`last_direction`](Self::last_direction) says which).
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        if self.current != NO_PARENT {
            let c = self.current as usize;
            self.current = NO_PARENT;
            self.repaint(c);
        }
        self.steps += 1;
        self.status = Status::Searching;
        self.last = None;
        let bound = self.min_f_forward().max(self.min_f_backward());
        if self.mu <= bound {
            return if self.mu.is_finite() {
                self.finish_path();
                self.status = Status::Found;
                StepEvent::Found { cost: self.cost }
            } else {
                self.status = Status::NoPath;
                StepEvent::NoPath
            };
        }
        // Both open lists hold a cell here: an empty one has an infinite key, and the rule
        // above fires.
        let dir = self.next_direction();
        self.turn = dir;
        self.last = Some(dir);
        let node = self.expand(dir, recorder);
        StepEvent::Expanded(self.grid.point_at(node as usize))
    }

    /// The side the next expansion will be on: the one with fewer open cells, on a tie the
    /// one that did not expand last.
    fn next_direction(&self) -> Direction {
        match self.back.open_cells.cmp(&self.fwd.open_cells) {
            Ordering::Less => Direction::Backward,
            Ordering::Greater => Direction::Forward,
            Ordering::Equal if self.turn == Direction::Forward => Direction::Backward,
            Ordering::Equal => Direction::Forward,
        }
    }

    /// The open list of the side the next step expands, in the order it gives cells up: its
    /// lowest cell first (the one the next step expands, unless the stopping rule ends the
    /// search), then the rest of that side's list by key and tie-break, leaving out the cells
    /// either side has closed (the other side's it would close without expanding). Costs,
    /// estimates and parents are that side's: from the start toward the goal forward, from
    /// the goal toward the start backward. The other side's list is not included.
    pub fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        let dir = self.next_direction();
        let (side, other, toward) = match dir {
            Direction::Forward => (&self.fwd, &self.back, self.goal),
            Direction::Backward => (&self.back, &self.fwd, self.start),
        };
        let mut cells = Vec::new();
        if side.top != NO_PARENT && limit > 0 {
            cells.push(side.top);
        }
        let closed = side.closed_bit | other.closed_bit;
        let (flags, top) = (&self.flags, side.top);
        cells.extend(side.open.leaving_order(limit - cells.len(), |n| n == top || flags[n as usize] & closed != 0));
        cells
            .into_iter()
            .map(|cell| {
                let i = cell as usize;
                let g = side.g[i];
                let h = estimate(&self.config, toward, self.grid.point_at(i));
                OpenEntry { cell, g, h, key: g + self.config.weight * h, parent: side.parent[i] }
            })
            .collect()
    }

    /// Expands the top of one side's open list; returns the cell expanded.
    fn expand<R: Recorder>(&mut self, dir: Direction, recorder: &mut R) -> u32 {
        let Self { grid, start, goal, config, fwd, back, flags, state, touched, mu, meeting, .. } = self;
        let (me, other, toward) = match dir {
            Direction::Forward => (fwd, &*back, *goal),
            Direction::Backward => (back, &*fwd, *start),
        };
        let node = me.top;
        let ni = node as usize;
        flags[ni] = (flags[ni] & !me.open_bit) | me.closed_bit;
        state[ni] = CURRENT;
        me.open_cells -= 1;
        me.expanded += 1;
        recorder.expanded(node);
        let base_g = me.g[ni];
        let cells = grid.cells();
        let here_terrain = cells[ni];
        let at = grid.point_at(ni);
        let other_known = other.open_bit | other.closed_bit;
        grid.for_each_neighbour_of(at, config.diagonal, |nb, nb_at, diagonal| {
            let f = flags[nb];
            if f & me.closed_bit != 0 {
                return;
            }
            // Forward: the move node -> nb enters nb. Backward: it stands for nb -> node,
            // which enters node.
            let terrain = if dir == Direction::Forward { cells[nb] } else { here_terrain };
            let new_g = base_g + config.costs.step(diagonal, terrain);
            let was_open = f & me.open_bit != 0;
            if was_open && new_g >= me.g[nb] {
                return;
            }
            let old_g = if was_open {
                Some(me.g[nb])
            } else {
                if f == 0 {
                    touched.push(nb as u32);
                }
                me.open_cells += 1;
                None
            };
            me.g[nb] = new_g;
            me.parent[nb] = node;
            let nf = f | me.open_bit;
            flags[nb] = nf;
            state[nb] = shown(nf);
            if f & other_known != 0 {
                let through = new_g + other.g[nb];
                if through < *mu {
                    *mu = through;
                    *meeting = nb as u32;
                }
            }
            let h = estimate(config, toward, nb_at);
            let (key, tie) = astar::priority(new_g, h, config.weight);
            me.open.push(key, tie, nb as u32);
            recorder.opened(nb as u32, node, old_g, new_g);
        });
        let other_closed = other.closed_bit;
        me.refill_top(flags, state, other_closed);
        // The other side's next cell may be the one just closed here: close it there too.
        let other = match dir {
            Direction::Forward => &mut self.back,
            Direction::Backward => &mut self.fwd,
        };
        if other.top == node {
            other.nip(node, &mut self.flags, &mut self.state);
            other.refill_top(&mut self.flags, &mut self.state, me_closed(dir));
        }
        self.current = node;
        node
    }

    /// Shows a cell's state from its flags.
    fn repaint(&mut self, i: usize) {
        self.state[i] = shown(self.flags[i]);
    }

    /// Joins the forward path to the meeting cell with the backward path from it, and writes
    /// the backward half into the forward buffers.
    fn finish_path(&mut self) {
        self.path.clear();
        let mut at = self.meeting;
        while at != NO_PARENT {
            self.path.push(at);
            at = self.fwd.parent[at as usize];
        }
        self.path.reverse();
        let mut at = self.back.parent[self.meeting as usize];
        while at != NO_PARENT {
            self.path.push(at);
            at = self.back.parent[at as usize];
        }
        for k in 1..self.path.len() {
            let (a, b) = (self.path[k - 1] as usize, self.path[k] as usize);
            let (pa, pb) = (self.grid.point_at(a), self.grid.point_at(b));
            let diagonal = pa.x != pb.x && pa.y != pb.y;
            // On the forward half this rewrites what is already there (each cell's forward
            // parent is closed, so its cost has not moved since).
            self.fwd.g[b] = self.fwd.g[a] + self.config.costs.step(diagonal, self.grid.cells()[b]);
            self.fwd.parent[b] = a as u32;
        }
        for &p in &self.path {
            self.state[p as usize] = CellState::Path as u8;
        }
        self.cost = self.fwd.g[self.grid.index(self.goal)];
    }

    /// Runs to the end and returns the final status.
    pub fn run(&mut self) -> Status {
        while !self.status.is_finished() {
            self.step();
        }
        self.status
    }

    /// Where the search stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Steps taken since step 0.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Expansions on both sides.
    pub fn expanded(&self) -> usize {
        self.fwd.expanded + self.back.expanded
    }

    /// Expansions of the forward search.
    pub fn expanded_forward(&self) -> usize {
        self.fwd.expanded
    }

    /// Expansions of the backward search.
    pub fn expanded_backward(&self) -> usize {
        self.back.expanded
    }

    /// Cells closed without expansion by either side because the other side had closed them.
    pub fn nipped(&self) -> usize {
        self.fwd.nipped + self.back.nipped
    }

    /// Cells on the two open lists (a cell open on both counts twice).
    pub fn open_count(&self) -> usize {
        self.fwd.open_cells + self.back.open_cells
    }

    /// The path's cost once found.
    pub fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.cost)
    }

    /// The path once found, as row-major indices from start to goal (empty before).
    pub fn path_indices(&self) -> &[u32] {
        &self.path
    }

    /// One [`CellState`] byte per cell, row-major.
    pub fn states(&self) -> &[u8] {
        &self.state
    }

    /// The forward search's cost from the start to each cell (infinite where unknown).
    pub fn g_values(&self) -> &[f64] {
        &self.fwd.g
    }

    /// The forward search's parents (toward the start), or [`NO_PARENT`].
    pub fn parents(&self) -> &[u32] {
        &self.fwd.parent
    }

    /// The backward search's cost from each cell to the goal (infinite where unknown).
    pub fn g_back(&self) -> &[f64] {
        &self.back.g
    }

    /// The backward search's parents: the next cell toward the goal, or [`NO_PARENT`].
    pub fn parents_back(&self) -> &[u32] {
        &self.back.parent
    }

    /// The overlay: the meeting cell, and `mu` with the two minima of the stopping rule.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        if self.meeting != NO_PARENT {
            overlay.marks.push(OverlayMark { cell: self.meeting, kind: MarkKind::Meeting });
        }
        let number = |v: f64| if v.is_finite() { format!("{}", round6(v)) } else { "inf".to_string() };
        let (ff, fb) = (self.min_f_forward(), self.min_f_backward());
        overlay.notes.push(("mu", number(self.mu)));
        overlay.notes.push(("forward min f", number(ff)));
        overlay.notes.push(("backward min f", number(fb)));
        let stop = if self.status.is_finished() {
            "stopped".to_string()
        } else if self.mu.is_finite() {
            format!("stop once mu {} <= max(min f) {}", number(self.mu), number(ff.max(fb)))
        } else {
            "stop once mu <= max(min f); the frontiers have not met".to_string()
        };
        overlay.notes.push(("stopping rule", stop));
        if let Some(dir) = self.last {
            overlay.notes.push(("direction", dir.name().to_string()));
        }
        overlay.notes.push(("expanded forward / backward", format!("{} / {}", self.fwd.expanded, self.back.expanded)));
        overlay.notes.push(("nipped", self.nipped().to_string()));
        overlay
    }
}

/// The closed flag of a side.
const fn me_closed(dir: Direction) -> u8 {
    match dir {
        Direction::Forward => CLOSED_F,
        Direction::Backward => CLOSED_B,
    }
}

/// The state shown for a cell with these flags: `Closed > ClosedBack > Open > OpenBack`.
#[inline]
const fn shown(flags: u8) -> u8 {
    if flags & CLOSED_F != 0 {
        CLOSED
    } else if flags & CLOSED_B != 0 {
        CLOSED_BACK
    } else if flags & OPEN_F != 0 {
        OPEN
    } else if flags & OPEN_B != 0 {
        OPEN_BACK
    } else {
        UNSEEN
    }
}

/// A value rounded to six decimals, for the notes.
fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

impl Stepper for BiAStar {
    super::stepper::stepper_steps!(BiAStar);
    super::stepper::stepper_fields!();
    super::stepper::stepper_edits!(BiAStar);

    fn expanded(&self) -> usize {
        BiAStar::expanded(self)
    }

    fn open_count(&self) -> usize {
        BiAStar::open_count(self)
    }

    fn path_indices(&self) -> &[u32] {
        &self.path
    }

    fn states(&self) -> &[u8] {
        &self.state
    }

    fn g_values(&self) -> &[f64] {
        &self.fwd.g
    }

    fn parents(&self) -> &[u32] {
        &self.fwd.parent
    }

    fn h(&self, p: Point) -> f64 {
        estimate(&self.config, self.goal, p)
    }

    fn grid(&self) -> &Grid {
        &self.grid
    }

    fn overlay(&self) -> Overlay {
        BiAStar::overlay(self)
    }

    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        BiAStar::open_entries(self, limit)
    }

    /// Two sides' costs and parents: 36 bytes per cell.
    fn approx_bytes(&self) -> usize {
        self.grid.len() * 36 + self.open_count() * 24
    }
}
