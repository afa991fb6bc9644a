//! The machinery LPA* and D* Lite share: per-cell `g` and `rhs`, the priority queue of
//! inconsistent cells ordered by two-part keys, the edit log that makes stepping back
//! through a live edit exact, and the record of what the last edit cost.
//!
//! # Terms
//!
//! - `g(s)`: the cost of `s` the search has settled on (infinite until it settles one).
//! - `rhs(s)`: a one-move look-ahead, the cheapest `g` of a neighbour plus the move between
//!   them (0 at the root, the cell the search grows from). A cell is *consistent* when
//!   `g = rhs`; the queue holds exactly the inconsistent cells.
//! - *Overconsistent* (`g > rhs`): a cheaper way in was found; expanding sets `g = rhs` and
//!   offers the neighbours the new cost. *Underconsistent* (`g < rhs`): the way in got
//!   dearer (a wall appeared); expanding forgets `g` (sets it to infinity) and re-derives the
//!   `rhs` of the cells that counted on it.
//! - The key of `s` is `[min(g, rhs) + h(s) + km; min(g, rhs)]`, compared first on the first
//!   part, then on the second (smaller first), then by the order in which the cells got their
//!   keys (first in, first out). `h(s)` estimates the cost between `s` and the *focus* (the
//!   goal for LPA*, the agent for D* Lite); `km` is D* Lite's key offset (0 for LPA*).
//!
//! The search can go one way or the other: *forward* (LPA*: from the start, `g` is the cost
//! from the root to the cell, a move pays for the cell it enters) or *backward* (D* Lite:
//! from the goal, `g` is the cost from the cell to the root, and a move still pays for the
//! cell it enters, which is now the one nearer the root).

use std::cell::OnceCell;

use super::stepper::{MarkKind, Overlay, OverlayMark};
use super::{Algorithm, CellState, NoRecord, Recorder, Search, SearchConfig, SearchError, NO_PARENT};
use crate::grid::{Costs, Diagonal, Grid, Point, WALL};
use crate::heuristic::Heuristic;

/// How many inconsistent cells the overlay marks at most; a note says when there are more.
pub(crate) const MARK_CAP: usize = 5_000;

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;
const PATH: u8 = CellState::Path as u8;

/// Per-cell flags.
const TOUCHED: u8 = 1;
const EXPANDED: u8 = 2;
const ON_PATH: u8 = 4;

/// A two-part priority: `k1` first, then `k2`, both smaller first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Key {
    /// `min(g, rhs) + h + km`.
    pub(crate) k1: f64,
    /// `min(g, rhs)`.
    pub(crate) k2: f64,
}

impl Key {
    /// The key of a cell that is not there: after every other.
    pub(crate) const INFINITE: Self = Self { k1: f64::INFINITY, k2: f64::INFINITY };

    /// True when `self` comes strictly before `other`.
    #[inline]
    pub(crate) fn before(self, other: Self) -> bool {
        self.k1 < other.k1 || (self.k1 == other.k1 && self.k2 < other.k2)
    }

    /// Like [`before`](Self::before), but first parts within a rounding error of each other
    /// (1e-9 relative) count as equal, so that the second parts decide.
    ///
    /// The stopping tests use it: a cell whose `g + h` equals the goal's in exact arithmetic
    /// may come out a few units in the last place higher after summing square roots of 2 in
    /// another order, and must still be repaired before the search may stop. Repairing more
    /// than needed is always safe.
    #[inline]
    pub(crate) fn before_within(self, other: Self) -> bool {
        let tolerance = 1e-9 * other.k1.abs().max(1.0);
        if self.k1 < other.k1 - tolerance {
            true
        } else if self.k1 > other.k1 + tolerance {
            false
        } else {
            self.k2 < other.k2
        }
    }

    /// The key as `[k1; k2]` for the notes, rounded to six decimals.
    pub(crate) fn describe(self) -> String {
        let show = |v: f64| if v.is_finite() { format!("{}", (v * 1e6).round() / 1e6) } else { "inf".to_string() };
        format!("[{}; {}]", show(self.k1), show(self.k2))
    }
}

/// Marks a cell that is not on the queue in [`KeyQueue`]'s position table.
const NOT_QUEUED: u32 = u32::MAX;

/// One queue entry.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: Key,
    /// When the cell got this key: among equal keys the earliest leaves first.
    seq: u64,
    node: u32,
}

impl Slot {
    #[inline]
    fn before(&self, other: &Self) -> bool {
        self.key.before(other.key) || (self.key == other.key && self.seq < other.seq)
    }
}

/// An indexed four-ary min-heap of cells by [`Key`], then first in: every cell is on it at
/// most once, and its key can be changed or the cell removed in logarithmic time (a table
/// gives each cell's place in the heap).
#[derive(Clone, Debug)]
pub(crate) struct KeyQueue {
    heap: Vec<Slot>,
    pos: Vec<u32>,
    seq: u64,
}

impl KeyQueue {
    const ARITY: usize = 4;

    /// An empty queue for cells `0..n`.
    pub(crate) fn new(n: usize) -> Self {
        Self { heap: Vec::new(), pos: vec![NOT_QUEUED; n], seq: 0 }
    }

    /// Empties the queue.
    pub(crate) fn clear(&mut self) {
        for slot in &self.heap {
            self.pos[slot.node as usize] = NOT_QUEUED;
        }
        self.heap.clear();
        self.seq = 0;
    }

    /// Cells on the queue.
    pub(crate) fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when `node` is on the queue.
    #[inline]
    pub(crate) fn contains(&self, node: u32) -> bool {
        self.pos[node as usize] != NOT_QUEUED
    }

    /// The first cell and its key.
    #[inline]
    pub(crate) fn top(&self) -> Option<(u32, Key)> {
        self.heap.first().map(|s| (s.node, s.key))
    }

    /// The first key, or [`Key::INFINITE`] when the queue is empty.
    #[inline]
    pub(crate) fn top_key(&self) -> Key {
        self.heap.first().map_or(Key::INFINITE, |s| s.key)
    }

    /// True when some queued key comes before `key` within rounding
    /// ([`Key::before_within`]). The heap orders keys exactly, so the first key alone does not
    /// tell: a key whose first part is a rounding error above the first key's, with a smaller
    /// second part, may sit below it. Only the top of the heap is visited, down to the keys
    /// whose first part is beyond `key`'s and the tolerance.
    pub(crate) fn any_before_within(&self, key: Key) -> bool {
        let limit = key.k1 + 1e-9 * key.k1.abs().max(1.0);
        self.before_within_below(0, key, limit)
    }

    fn before_within_below(&self, at: usize, key: Key, limit: f64) -> bool {
        let Some(slot) = self.heap.get(at) else { return false };
        // Below a slot every first part is at least its own.
        if slot.key.k1 > limit {
            return false;
        }
        if slot.key.before_within(key) {
            return true;
        }
        let first = at * Self::ARITY + 1;
        (first..first + Self::ARITY).any(|child| self.before_within_below(child, key, limit))
    }

    /// The cells on the queue, in heap order.
    pub(crate) fn nodes(&self) -> impl Iterator<Item = u32> + '_ {
        self.heap.iter().map(|s| s.node)
    }

    /// Puts `node` on the queue with `key`, or changes its key if it is there. A cell whose
    /// key does not change keeps its place among equal keys.
    #[inline]
    pub(crate) fn set(&mut self, node: u32, key: Key) {
        let at = self.pos[node as usize];
        if at == NOT_QUEUED {
            let slot = Slot { key, seq: self.seq, node };
            self.seq += 1;
            self.heap.push(slot);
            self.sift_up(self.heap.len() - 1);
            return;
        }
        let at = at as usize;
        let old = self.heap[at].key;
        if old == key {
            return;
        }
        self.heap[at].key = key;
        self.heap[at].seq = self.seq;
        self.seq += 1;
        if key.before(old) {
            self.sift_up(at);
        } else {
            self.sift_down(at);
        }
    }

    /// Takes `node` off the queue if it is there.
    #[inline]
    pub(crate) fn remove(&mut self, node: u32) {
        let at = self.pos[node as usize];
        if at == NOT_QUEUED {
            return;
        }
        let at = at as usize;
        self.pos[node as usize] = NOT_QUEUED;
        let last = self.heap.pop().expect("a queued cell is on the heap");
        if at < self.heap.len() {
            self.heap[at] = last;
            self.pos[last.node as usize] = at as u32;
            if at > 0 && last.before(&self.heap[(at - 1) / Self::ARITY]) {
                self.sift_up(at);
            } else {
                self.sift_down(at);
            }
        }
    }

    fn sift_up(&mut self, mut hole: usize) {
        let slot = self.heap[hole];
        while hole > 0 {
            let parent = (hole - 1) / Self::ARITY;
            let above = self.heap[parent];
            if !slot.before(&above) {
                break;
            }
            self.heap[hole] = above;
            self.pos[above.node as usize] = hole as u32;
            hole = parent;
        }
        self.heap[hole] = slot;
        self.pos[slot.node as usize] = hole as u32;
    }

    fn sift_down(&mut self, mut hole: usize) {
        let slot = self.heap[hole];
        let len = self.heap.len();
        loop {
            let first = hole * Self::ARITY + 1;
            if first >= len {
                break;
            }
            let end = (first + Self::ARITY).min(len);
            let mut best = first;
            for child in first + 1..end {
                if self.heap[child].before(&self.heap[best]) {
                    best = child;
                }
            }
            let below = self.heap[best];
            if !below.before(&slot) {
                break;
            }
            self.heap[hole] = below;
            self.pos[below.node as usize] = hole as u32;
            hole = best;
        }
        self.heap[hole] = slot;
        self.pos[slot.node as usize] = hole as u32;
    }
}

/// Which way a search grows from its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// LPA*: from the start; `g` is the cost from the root.
    Forward,
    /// D* Lite: from the goal; `g` is the cost to the root.
    Backward,
}

/// The state both incremental searches keep: the graph (a grid) they plan on, `g`, `rhs`,
/// the best neighbour behind each `rhs`, the queue of inconsistent cells, and the per-cell
/// state bytes the page paints.
#[derive(Clone, Debug)]
pub(crate) struct Core {
    /// The grid planned on (for D* Lite, what the agent believes).
    pub(crate) grid: Grid,
    pub(crate) rule: Diagonal,
    pub(crate) costs: Costs,
    pub(crate) heuristic: Heuristic,
    pub(crate) direction: Direction,
    /// The cell the search grows from (`rhs = 0`).
    pub(crate) root: u32,
    /// The cell `h` is measured to.
    pub(crate) focus: Point,
    /// D* Lite's key offset.
    pub(crate) km: f64,
    pub(crate) g: Vec<f64>,
    pub(crate) rhs: Vec<f64>,
    /// The neighbour `rhs` came from (the predecessor forward, the next cell backward).
    pub(crate) parent: Vec<u32>,
    flags: Vec<u8>,
    pub(crate) state: Vec<u8>,
    pub(crate) queue: KeyQueue,
    /// Cells whose buffers may differ from their initial values.
    touched: Vec<u32>,
    /// The cell the last expansion took, or [`NO_PARENT`].
    pub(crate) current: u32,
    /// Expansions since step 0.
    pub(crate) expanded: usize,
    /// Cells on the path shown, for clearing their marks.
    marked: Vec<u32>,
}

/// Up to eight neighbours: (cell, diagonal move).
type Neighbours = ([(u32, bool); 8], usize);

impl Core {
    /// A core on `grid`, not yet reset.
    pub(crate) fn new(grid: Grid, config: &SearchConfig, direction: Direction) -> Self {
        let n = grid.len();
        Self {
            grid,
            rule: config.diagonal,
            costs: config.costs,
            heuristic: config.heuristic,
            direction,
            root: 0,
            focus: Point::new(0, 0),
            km: 0.0,
            g: vec![f64::INFINITY; n],
            rhs: vec![f64::INFINITY; n],
            parent: vec![NO_PARENT; n],
            flags: vec![0; n],
            state: vec![UNSEEN; n],
            queue: KeyQueue::new(n),
            touched: Vec::new(),
            current: NO_PARENT,
            expanded: 0,
            marked: Vec::new(),
        }
    }

    /// Forgets everything: only `root` is inconsistent (`rhs = 0`, `g` infinite).
    pub(crate) fn reset(&mut self, root: Point, focus: Point) {
        if self.touched.len() * 4 > self.g.len() {
            self.g.fill(f64::INFINITY);
            self.rhs.fill(f64::INFINITY);
            self.parent.fill(NO_PARENT);
            self.flags.fill(0);
            self.state.fill(UNSEEN);
        } else {
            for &i in &self.touched {
                let i = i as usize;
                self.g[i] = f64::INFINITY;
                self.rhs[i] = f64::INFINITY;
                self.parent[i] = NO_PARENT;
                self.flags[i] = 0;
                self.state[i] = UNSEEN;
            }
        }
        self.touched.clear();
        self.marked.clear();
        self.queue.clear();
        self.current = NO_PARENT;
        self.expanded = 0;
        self.km = 0.0;
        self.focus = focus;
        self.root = self.grid.index(root) as u32;
        self.rhs[self.root as usize] = 0.0;
        self.fix_queue(self.root);
    }

    /// The estimate between `p` and the focus.
    #[inline]
    pub(crate) fn h(&self, p: Point) -> f64 {
        self.heuristic.estimate(p.x.abs_diff(self.focus.x), p.y.abs_diff(self.focus.y), self.costs)
    }

    /// The key of `node` now.
    #[inline]
    pub(crate) fn key(&self, node: u32) -> Key {
        let i = node as usize;
        let m = self.g[i].min(self.rhs[i]);
        if m.is_infinite() {
            return Key::INFINITE;
        }
        Key { k1: m + self.h(self.grid.point_at(i)) + self.km, k2: m }
    }

    /// True when `g = rhs` at `node`.
    #[inline]
    pub(crate) fn consistent(&self, node: u32) -> bool {
        self.g[node as usize] == self.rhs[node as usize]
    }

    /// True when the search may stop for `target`: it is consistent and no queued cell comes
    /// before it (within rounding, see [`Key::before_within`]).
    pub(crate) fn settled(&self, target: u32) -> bool {
        self.consistent(target) && !self.queue.any_before_within(self.key(target))
    }

    /// The open neighbours of `node` and whether each move is diagonal (none for a wall).
    #[inline]
    fn neighbours(&self, node: u32) -> Neighbours {
        let mut out = ([(0, false); 8], 0);
        let i = node as usize;
        if self.grid.cells()[i] == WALL {
            return out;
        }
        self.grid.for_each_neighbour_of(self.grid.point_at(i), self.rule, |nb, _, diagonal| {
            out.0[out.1] = (nb as u32, diagonal);
            out.1 += 1;
        });
        out
    }

    /// The cost of the move between `near` (the root side) and `far`: forward the move
    /// `near -> far`, backward `far -> near`; either pays for the cell it enters.
    #[inline]
    fn cost(&self, near: u32, far: u32, diagonal: bool) -> f64 {
        let entered = match self.direction {
            Direction::Forward => far,
            Direction::Backward => near,
        };
        self.costs.step(diagonal, self.grid.cells()[entered as usize])
    }

    /// Recomputes `rhs` (and its parent) of `node` from its neighbours, then queues it or
    /// takes it off the queue as it is inconsistent or not.
    pub(crate) fn update_vertex(&mut self, node: u32) {
        self.update_vertex_with(node, &mut NoRecord);
    }

    /// [`update_vertex`](Self::update_vertex), telling `recorder` when `rhs` changes
    /// (`opened(node, new parent, old rhs if finite, new rhs)`).
    fn update_vertex_with<R: Recorder>(&mut self, node: u32, recorder: &mut R) {
        if node != self.root {
            let (list, count) = self.neighbours(node);
            let mut best = f64::INFINITY;
            let mut from = NO_PARENT;
            for &(nb, diagonal) in &list[..count] {
                let candidate = self.g[nb as usize] + self.cost(nb, node, diagonal);
                if candidate < best {
                    best = candidate;
                    from = nb;
                }
            }
            let old = self.rhs[node as usize];
            if old != best {
                recorder.opened(node, from, old.is_finite().then_some(old), best);
            }
            self.rhs[node as usize] = best;
            self.parent[node as usize] = from;
        }
        self.fix_queue(node);
    }

    /// Queues `node` with its current key when inconsistent, takes it off otherwise.
    #[inline]
    fn fix_queue(&mut self, node: u32) {
        let i = node as usize;
        if self.g[i] == self.rhs[i] {
            self.queue.remove(node);
        } else {
            if self.flags[i] & TOUCHED == 0 {
                self.flags[i] |= TOUCHED;
                self.touched.push(node);
            }
            let key = self.key(node);
            self.queue.set(node, key);
        }
        self.refresh(node);
    }

    /// Re-derives the state byte of `node`.
    #[inline]
    pub(crate) fn refresh(&mut self, node: u32) {
        let i = node as usize;
        let f = self.flags[i];
        self.state[i] = if node == self.current {
            CURRENT
        } else if f & ON_PATH != 0 {
            PATH
        } else if self.queue.contains(node) {
            OPEN
        } else if f & EXPANDED != 0 {
            CLOSED
        } else {
            UNSEEN
        };
    }

    /// Forgets which cell the last expansion took.
    pub(crate) fn clear_current(&mut self) {
        let was = self.current;
        if was != NO_PARENT {
            self.current = NO_PARENT;
            self.refresh(was);
        }
    }

    /// One iteration of ComputeShortestPath on `node` (the first on the queue, with an up to
    /// date key): settles it (`g = rhs`) when overconsistent, forgets its `g` when
    /// underconsistent, and updates the neighbours whose `rhs` depends on it.
    ///
    /// `recorder` hears `expanded(node)`, then `opened(cell, parent, old rhs, new rhs)` for
    /// every `rhs` that changed.
    pub(crate) fn expand<R: Recorder>(&mut self, node: u32, recorder: &mut R) {
        recorder.expanded(node);
        self.queue.remove(node);
        let i = node as usize;
        self.clear_current();
        self.current = node;
        self.flags[i] |= EXPANDED;
        self.expanded += 1;
        let (list, count) = self.neighbours(node);
        if self.g[i] > self.rhs[i] {
            let g = self.rhs[i];
            self.g[i] = g;
            for &(nb, diagonal) in &list[..count] {
                if nb == self.root {
                    continue;
                }
                let candidate = g + self.cost(node, nb, diagonal);
                let old = self.rhs[nb as usize];
                if candidate < old {
                    recorder.opened(nb, node, old.is_finite().then_some(old), candidate);
                    self.rhs[nb as usize] = candidate;
                    self.parent[nb as usize] = node;
                    self.fix_queue(nb);
                }
            }
        } else {
            self.g[i] = f64::INFINITY;
            for &(nb, _) in &list[..count] {
                if nb != self.root && self.parent[nb as usize] == node {
                    self.update_vertex_with(nb, recorder);
                }
            }
            self.update_vertex_with(node, recorder);
        }
        self.refresh(node);
    }

    /// Takes the first cell off the queue and expands it, after bringing its key up to date
    /// (D* Lite's keys go stale as the agent moves: a stale key is replaced and the next
    /// cell tried, which is bookkeeping rather than an expansion). Stops without expanding
    /// when `stop` holds; returns the cell expanded.
    pub(crate) fn expand_next<R: Recorder>(&mut self, stop: impl Fn(&Self) -> bool, recorder: &mut R) -> Option<u32> {
        loop {
            if stop(self) {
                return None;
            }
            let (node, old) = self.queue.top()?;
            let new = self.key(node);
            if old.before(new) {
                self.queue.set(node, new);
                continue;
            }
            self.expand(node, recorder);
            return Some(node);
        }
    }

    /// Updates the cells whose `rhs` may depend on the listed cells (which changed value):
    /// each one and its eight neighbours, since a move's legality depends on its ends and,
    /// for a diagonal, on the two cells beside it.
    pub(crate) fn cells_changed(&mut self, changed: &[u32]) {
        let (w, h) = (self.grid.width(), self.grid.height());
        let mut cells = Vec::with_capacity(changed.len() * 9);
        for &c in changed {
            let p = self.grid.point_at(c as usize);
            for y in p.y.saturating_sub(1)..=(p.y + 1).min(h - 1) {
                for x in p.x.saturating_sub(1)..=(p.x + 1).min(w - 1) {
                    cells.push((y * w + x) as u32);
                }
            }
        }
        super::order::sort_by(&mut cells, &Ord::cmp);
        cells.dedup();
        for c in cells {
            self.update_vertex(c);
        }
    }

    /// The best next cell from `node` towards the root: the open neighbour minimising
    /// `g(neighbour) + cost of the move` (the first such in the grid's order), with that sum.
    pub(crate) fn best_neighbour(&self, node: u32) -> Option<(u32, f64)> {
        let (list, count) = self.neighbours(node);
        let mut best: Option<(u32, f64)> = None;
        for &(nb, diagonal) in &list[..count] {
            let total = self.g[nb as usize] + self.cost(nb, node, diagonal);
            if total.is_finite() && best.is_none_or(|(_, b)| total < b) {
                best = Some((nb, total));
            }
        }
        best
    }

    /// Follows [`best_neighbour`](Self::best_neighbour) from `from` to the root, pushing
    /// the cells after `from` onto `out`. Returns false (leaving what it pushed) if the walk
    /// dead-ends or loops, which a settled search never does.
    pub(crate) fn walk_to_root(&self, from: u32, out: &mut Vec<u32>) -> bool {
        let mut at = from;
        while at != self.root {
            // Along a settled plan g falls by a whole move at every cell, so a walk on which
            // it does not fall has gone wrong (and could loop).
            match self.best_neighbour(at) {
                Some((next, _)) if self.g[next as usize] < self.g[at as usize] => {
                    out.push(next);
                    at = next;
                }
                _ => return false,
            }
        }
        true
    }

    /// Marks `cells` as the path shown (state `path`), clearing the previous marks.
    pub(crate) fn mark_path(&mut self, cells: &[u32]) {
        self.clear_path();
        for &c in cells {
            if self.flags[c as usize] & TOUCHED == 0 {
                self.flags[c as usize] |= TOUCHED;
                self.touched.push(c);
            }
            self.flags[c as usize] |= ON_PATH;
            self.marked.push(c);
            self.refresh(c);
        }
    }

    /// Clears the path marks.
    pub(crate) fn clear_path(&mut self) {
        for k in 0..self.marked.len() {
            self.flags[self.marked[k] as usize] &= !ON_PATH;
        }
        for k in 0..self.marked.len() {
            self.refresh(self.marked[k]);
        }
        self.marked.clear();
    }

    /// Cells whose `g` and `rhs` differ: the queue.
    pub(crate) fn inconsistent(&self) -> impl Iterator<Item = u32> + '_ {
        self.queue.nodes()
    }
}

/// One brush stroke kept for replay: `cells` were set to `value` once `step` steps had been
/// taken.
#[derive(Clone, Debug)]
pub(crate) struct Edit {
    pub(crate) step: usize,
    pub(crate) cells: Vec<Point>,
    pub(crate) value: u8,
}

/// The edits made while a search ran, with the grid as it was at step 0, so that going back
/// replays them at the same step numbers and the latest painted map is never lost.
#[derive(Clone, Debug)]
pub(crate) struct EditLog {
    /// The grid at step 0.
    pub(crate) base: Grid,
    /// The grid with every logged edit made: what [`reset`](super::Stepper::reset) keeps.
    pub(crate) latest: Grid,
    /// The edits in the order made (their step numbers never decrease).
    pub(crate) edits: Vec<Edit>,
    /// How many edits the state shown has made.
    pub(crate) applied: usize,
}

impl EditLog {
    /// A log with no edits over `grid`.
    pub(crate) fn new(grid: Grid) -> Self {
        Self { base: grid.clone(), latest: grid, edits: Vec::new(), applied: 0 }
    }

    /// Forgets the edits: the latest map becomes step 0's.
    pub(crate) fn forget(&mut self) {
        self.base.clone_from(&self.latest);
        self.edits.clear();
        self.applied = 0;
    }

    /// Starts a replay: nothing applied.
    pub(crate) fn rewind(&mut self) {
        self.applied = 0;
    }

    /// The edits due once `steps` steps have been taken and not yet applied; marks them
    /// applied.
    pub(crate) fn due(&mut self, steps: usize) -> std::ops::Range<usize> {
        let from = self.applied;
        while self.applied < self.edits.len() && self.edits[self.applied].step <= steps {
            self.applied += 1;
        }
        from..self.applied
    }

    /// Logs a stroke made at step `steps` (over 0) and returns the edits now to apply: the
    /// ones logged for later steps (after going back) are moved to this step, so that the
    /// painted map stays whole, followed by this one.
    pub(crate) fn record(&mut self, steps: usize, cells: Vec<Point>, value: u8) -> std::ops::Range<usize> {
        for &p in &cells {
            // The caller only passes cells inside the grid.
            let _ = self.latest.set(p, value);
        }
        for edit in &mut self.edits[self.applied..] {
            edit.step = steps;
        }
        self.edits.push(Edit { step: steps, cells, value });
        let from = self.applied;
        self.applied = self.edits.len();
        from..self.applied
    }

    /// A stroke at step 0 becomes part of the map: step 0's grid and the latest both take it,
    /// and any logged edits are folded into them first.
    pub(crate) fn fold(&mut self, cells: &[Point], value: u8) {
        for &p in cells {
            let _ = self.latest.set(p, value);
        }
        self.forget();
    }
}

/// What the last edit cost, as [`Repair`](super::Repair) reports it; the fresh search is run
/// the first time it is asked for.
#[derive(Clone, Debug)]
pub(crate) struct RepairRecord {
    /// The step at which the edit was made (or the walls discovered).
    pub(crate) step: usize,
    /// Cells changed.
    pub(crate) changed: usize,
    /// Expansions before the edit.
    pub(crate) expanded_before: usize,
    /// Where a fresh search would start.
    pub(crate) from: Point,
    /// A fresh A*'s expansions, once computed.
    pub(crate) fresh: OnceCell<usize>,
}

impl RepairRecord {
    /// A record of `changed` cells changed at `step`, before which `expanded_before`
    /// expansions had been made; a fresh search would start at `from`.
    pub(crate) fn new(step: usize, changed: usize, expanded_before: usize, from: Point) -> Self {
        Self { step, changed, expanded_before, from, fresh: OnceCell::new() }
    }

    /// The record after `more` cells changed at `step`: added to this one when it is of the
    /// same step, a new record otherwise.
    pub(crate) fn add(previous: Option<Self>, step: usize, more: usize, expanded_before: usize, from: Point) -> Self {
        match previous {
            Some(r) if r.step == step && r.expanded_before == expanded_before => {
                Self::new(step, r.changed + more, expanded_before, from)
            }
            _ => Self::new(step, more, expanded_before, from),
        }
    }

    /// The report, running the fresh A* on `grid` to `goal` the first time.
    pub(crate) fn report(&self, expanded: usize, grid: &Grid, goal: Point, config: &SearchConfig) -> super::Repair {
        let fresh = *self.fresh.get_or_init(|| fresh_astar(grid, self.from, goal, config));
        super::Repair { changed: self.changed, re_expanded: expanded - self.expanded_before, fresh_expanded: fresh }
    }
}

/// Expansions of a fresh A* (the plain stepper, weight 1) with the same heuristic, diagonal
/// rule and costs from `from` to `goal`.
pub(crate) fn fresh_astar(grid: &Grid, from: Point, goal: Point, config: &SearchConfig) -> usize {
    let astar =
        SearchConfig::new(Algorithm::AStar).heuristic(config.heuristic).diagonal(config.diagonal).costs(config.costs);
    match Search::new(grid.clone(), from, goal, astar) {
        Ok(mut search) => {
            search.run();
            search.expanded()
        }
        Err(_) => 0,
    }
}

/// Checks the settings an incremental search accepts: weight 1 and an estimate that never
/// overestimates (both searches stop on a test that is only right for such estimates).
pub(crate) fn check_config(config: &SearchConfig, expected: Algorithm) -> Result<(), SearchError> {
    config.validate()?;
    if config.algorithm != expected {
        return Err(SearchError::Unsupported(format!(
            "this stepper runs {expected}, not {}: build it with search::build",
            config.algorithm
        )));
    }
    if config.weight != 1.0 {
        return Err(SearchError::Unsupported(format!(
            "{expected} runs with weight 1 only (got {}): it repairs an optimal plan, and its test \
             for when a repair is finished is only right with an estimate that never overestimates",
            config.weight
        )));
    }
    if !config.heuristic.is_admissible(config.diagonal, config.costs) {
        return Err(SearchError::Unsupported(format!(
            "{expected} needs an estimate that never overestimates, and {} does under the diagonal \
             rule {} with {} costs; use {}",
            config.heuristic,
            config.diagonal,
            config.costs,
            Heuristic::default_for(config.diagonal)
        )));
    }
    Ok(())
}

/// The cells of a stroke that would change: inside the grid, not already `value`, and not a
/// wall over one of `keep` (the ends, the agent). Each cell once.
pub(crate) fn stroke(grid: &Grid, cells: &[Point], value: u8, keep: &[Point]) -> Vec<Point> {
    let mut out: Vec<Point> = cells
        .iter()
        .copied()
        .filter(|p| !(value == WALL && keep.contains(p)) && grid.get(*p).is_some_and(|v| v != value))
        .collect();
    super::order::sort_by(&mut out, &|a, b| (a.y, a.x).cmp(&(b.y, b.x)));
    out.dedup();
    out
}

/// Adds to the overlay the marks of the inconsistent cells (at most [`MARK_CAP`]) and the
/// note that counts them.
pub(crate) fn mark_inconsistent(core: &Core, overlay: &mut Overlay) {
    let inconsistent = core.queue.len();
    overlay
        .marks
        .extend(core.inconsistent().take(MARK_CAP).map(|cell| OverlayMark { cell, kind: MarkKind::Inconsistent }));
    let shown = if inconsistent > MARK_CAP {
        format!("{inconsistent} (the first {MARK_CAP} marked)")
    } else {
        inconsistent.to_string()
    };
    overlay.notes.push(("inconsistent", shown));
}

/// The inherent methods LPA* and D* Lite share: `set_ends`, `advance`, `run` and `seek`, and
/// the replay of logged edits (`apply_due`, `apply`). The type needs the fields `start`,
/// `goal`, `status`, `steps` and `log` ([`EditLog`]), and the methods `reset()`, `step()`,
/// `rewind()` (step 0 on step 0's grid, keeping the edit log) and `apply_one(k)` (makes
/// logged edit `k`).
macro_rules! incremental_run_methods {
    () => {
        /// Moves the start and goal; back to step 0 on the latest painted map.
        pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
            $crate::search::engine::check_ends(&self.log.latest, start, goal)?;
            self.start = start;
            self.goal = goal;
            self.reset();
            Ok(())
        }

        /// Makes the edits due after the steps taken so far.
        fn apply_due(&mut self) {
            let due = self.log.due(self.steps);
            if !due.is_empty() {
                self.apply(due);
            }
        }

        /// Makes the logged edits in `range`, one by one as they were made.
        fn apply(&mut self, range: std::ops::Range<usize>) {
            for k in range {
                self.apply_one(k);
            }
        }

        /// Runs `n` steps, or fewer if the search finishes; returns how many were taken.
        pub fn advance(&mut self, n: usize) -> usize {
            let mut done = 0;
            while done < n && !self.status.is_finished() {
                self.step();
                done += 1;
            }
            done
        }

        /// Runs to the end and returns the final status.
        pub fn run(&mut self) -> Status {
            while !self.status.is_finished() {
                self.step();
            }
            self.status
        }

        /// Puts the search at step `k` (or at its end, if it finishes sooner): going back replays
        /// from step 0's grid with the logged edits made at their steps.
        pub fn seek(&mut self, k: usize) {
            if k < self.steps {
                self.rewind();
            }
            while self.steps < k && !self.status.is_finished() {
                self.step();
            }
        }
    };
}
pub(crate) use incremental_run_methods;

/// The [`Stepper`](super::Stepper) methods LPA* and D* Lite share, delegating to the type's
/// inherent methods and its [`Core`]; each type adds `h` and `grid` (and D* Lite `agent`).
macro_rules! incremental_stepper_methods {
    ($ty:ident) => {
        $crate::search::stepper::stepper_steps!($ty);
        $crate::search::stepper::stepper_fields!();
        $crate::search::stepper::stepper_edits!($ty);

        fn expanded(&self) -> usize {
            self.core.expanded
        }

        fn open_count(&self) -> usize {
            self.core.queue.len()
        }

        fn path_indices(&self) -> &[u32] {
            &self.path
        }

        fn states(&self) -> &[u8] {
            &self.core.state
        }

        fn g_values(&self) -> &[f64] {
            &self.core.g
        }

        fn parents(&self) -> &[u32] {
            &self.core.parent
        }

        fn repair(&self) -> Option<Repair> {
            $ty::repair(self)
        }

        fn cell_values(&self) -> Option<CellValues<'_>> {
            Some(CellValues { label: "rhs", values: &self.core.rhs, heat: false })
        }

        fn overlay(&self) -> Overlay {
            $ty::overlay(self)
        }

        fn seek(&mut self, k: usize) {
            $ty::seek(self, k);
        }
    };
}
pub(crate) use incremental_stepper_methods;

#[cfg(test)]
mod tests {
    use super::{Key, KeyQueue};

    /// The case D* Lite met on a random walk: two first parts equal but for summing square
    /// roots of 2 in another order. The exact order puts the larger second part on top; the
    /// smaller one, below it, still comes before the agent's key within rounding.
    #[test]
    fn a_key_below_the_top_that_ties_within_rounding_still_counts() {
        let k1 = 2.0 + 3.0 * std::f64::consts::SQRT_2;
        let above = f64::from_bits(k1.to_bits() + 2);
        let agent = Key { k1, k2: 4.83 };
        let mut queue = KeyQueue::new(8);
        queue.set(0, Key { k1, k2: 7.24 });
        queue.set(1, Key { k1: above, k2: 2.41 });
        for node in 2..8 {
            queue.set(node, Key { k1: k1 + 1.0 + f64::from(node), k2: 0.0 });
        }
        assert_eq!(queue.top().map(|(node, _)| node), Some(0));
        assert!(!queue.top_key().before_within(agent), "the top alone says nothing comes first");
        assert!(queue.any_before_within(agent));
        queue.remove(1);
        assert!(!queue.any_before_within(agent));
        assert!(queue.any_before_within(Key { k1: k1 + 10.0, k2: 0.0 }));
        assert!(!KeyQueue::new(1).any_before_within(agent));
    }
}
