//! The machinery LPA* and D* Lite share: per-node `g` and `rhs`, the priority queue of
//! inconsistent nodes ordered by two-part keys, the edit log that makes stepping back
//! through a live edit exact, and the record of what the last edit cost.
//!
//! The core runs on any [`Space`]: it reads edges with `for_each_neighbour` and
//! `for_each_predecessor`, so each space gets its own compiled copy of the loops, and the
//! square grid's is as fast as the hand-written one it replaced.
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
//! from the root to the node, and `rhs(v)` is the least `g(u) + c(u, v)` over the edges
//! `u -> v` into `v`) or *backward* (D* Lite: from the goal, `g` is the cost from the node to
//! the root, and `rhs(u)` is the least `c(u, v) + g(v)` over the edges `u -> v` out of `u`).
//!
//! Every edge must cost more than 0, as in Koenig and Likhachev's papers: with a free edge a
//! node can keep a cost that an edit took away (two nodes joined by free edges vouch for each
//! other's old `g`), or the search can stop on a tie with the goal's key before repairing a
//! node the goal depends on. The constructors on a space and `edit_space` refuse such spaces;
//! the grids never have one.

use std::cell::OnceCell;

use super::open_list::{heap_children, heap_parent, ARITY};
use super::stepper::{MarkKind, Overlay, OverlayMark};
use super::{Algorithm, CellState, NoRecord, NodeTable, OpenEntry, Recorder, SearchConfig, SearchError, NO_PARENT};
use crate::grid::{Grid, Point, WALL};
use crate::heuristic::Heuristic;
use crate::space::{OnGrid, Space, SquareGrid};

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
        let first = at * ARITY + 1;
        (first..first + ARITY).any(|child| self.before_within_below(child, key, limit))
    }

    /// The cells on the queue, in heap order.
    pub(crate) fn nodes(&self) -> impl Iterator<Item = u32> + '_ {
        self.heap.iter().map(|s| s.node)
    }

    /// The first `limit` cells in the order they leave (key, then first in), with their keys.
    pub(crate) fn leaving_order(&self, limit: usize) -> Vec<(u32, Key)> {
        let order = |a: &Slot, b: &Slot| {
            if a.before(b) {
                std::cmp::Ordering::Less
            } else if b.before(a) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        };
        super::order::least(self.heap.clone(), limit, &order).into_iter().map(|s| (s.node, s.key)).collect()
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
            if at > 0 && last.before(&self.heap[heap_parent(at)]) {
                self.sift_up(at);
            } else {
                self.sift_down(at);
            }
        }
    }

    fn sift_up(&mut self, mut hole: usize) {
        let slot = self.heap[hole];
        while hole > 0 {
            let parent = heap_parent(hole);
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
        while let Some(children) = heap_children(hole, len) {
            let mut best = children.start;
            for child in children.start + 1..children.end {
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

/// The state both incremental searches keep: the space they plan on, `g` and the parent
/// behind each `rhs` (in a [`NodeTable`], with the state bytes the page paints), `rhs`, and
/// the queue of inconsistent nodes.
#[derive(Clone)]
pub(crate) struct Core<S: Space = SquareGrid> {
    /// The space planned on (for D* Lite, what the agent believes).
    pub(crate) space: S,
    pub(crate) direction: Direction,
    /// The node the search grows from (`rhs = 0`).
    pub(crate) root: u32,
    /// The node `h` is measured to (forward) or from (backward).
    pub(crate) focus: u32,
    focus_at: S::At,
    /// D* Lite's key offset.
    pub(crate) km: f64,
    /// State, `g` and the neighbour `rhs` came from (the predecessor forward, the next node
    /// backward); its touched list is the nodes whose buffers may differ from their initial
    /// values.
    pub(crate) nodes: NodeTable,
    pub(crate) rhs: Vec<f64>,
    flags: Vec<u8>,
    pub(crate) queue: KeyQueue,
    /// The node the last expansion took, or [`NO_PARENT`].
    pub(crate) current: u32,
    /// Expansions since step 0.
    pub(crate) expanded: usize,
    /// Nodes on the path shown, for clearing their marks.
    marked: Vec<u32>,
    /// The edges of the node being expanded, kept between expansions to save allocating.
    scratch: Vec<(u32, f64)>,
}

/// Calls `visit(other end, cost)` for the edges along which `rhs` of `node` is worked out:
/// into `node` forward, out of `node` backward (none for a wall).
#[inline]
fn for_each_toward<S: Space>(space: &S, direction: Direction, node: u32, visit: impl FnMut(u32, f64)) {
    for_each_edge(space, direction == Direction::Backward, node, visit);
}

/// Calls `visit(other end, cost)` for the edges along which `node` offers its `g`: out of
/// `node` forward, into `node` backward (none for a wall).
#[inline]
fn for_each_away<S: Space>(space: &S, direction: Direction, node: u32, visit: impl FnMut(u32, f64)) {
    for_each_edge(space, direction == Direction::Forward, node, visit);
}

#[allow(clippy::inline_always)]
#[inline(always)]
fn for_each_edge<S: Space>(space: &S, out: bool, node: u32, mut visit: impl FnMut(u32, f64)) {
    if !space.is_open(node) {
        return;
    }
    let at = space.at(node);
    if out {
        space.for_each_neighbour(node, at, |nb, _, cost| visit(nb, cost));
    } else {
        space.for_each_predecessor(node, at, |nb, _, cost| visit(nb, cost));
    }
}

impl<S: Space + std::fmt::Debug> std::fmt::Debug for Core<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core")
            .field("space", &self.space)
            .field("direction", &self.direction)
            .field("root", &self.root)
            .field("focus", &self.focus)
            .field("km", &self.km)
            .field("expanded", &self.expanded)
            .field("queued", &self.queue.len())
            .finish_non_exhaustive()
    }
}

impl<S: Space> Core<S> {
    /// A core on `space`, not yet reset.
    pub(crate) fn new(space: S, direction: Direction) -> Self {
        let n = space.node_count();
        let focus_at = space.at(0);
        Self {
            space,
            direction,
            root: 0,
            focus: 0,
            focus_at,
            km: 0.0,
            nodes: NodeTable::new(n),
            rhs: vec![f64::INFINITY; n],
            flags: vec![0; n],
            queue: KeyQueue::new(n),
            current: NO_PARENT,
            expanded: 0,
            marked: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Forgets everything: only `root` is inconsistent (`rhs = 0`, `g` infinite). `h` is
    /// measured between each node and `focus`.
    pub(crate) fn reset(&mut self, root: u32, focus: u32) {
        let (_, _, _, touched) = self.nodes.parts();
        if touched.len() * 4 > self.rhs.len() {
            self.rhs.fill(f64::INFINITY);
            self.flags.fill(0);
        } else {
            for &i in touched.iter() {
                self.rhs[i as usize] = f64::INFINITY;
                self.flags[i as usize] = 0;
            }
        }
        self.nodes.reset();
        self.marked.clear();
        self.queue.clear();
        self.current = NO_PARENT;
        self.expanded = 0;
        self.km = 0.0;
        self.set_focus(focus);
        self.root = root;
        self.rhs[root as usize] = 0.0;
        self.fix_queue(root);
    }

    /// Measures `h` to (or from) `focus` from now on; queued keys are not redone.
    #[inline]
    pub(crate) fn set_focus(&mut self, focus: u32) {
        self.focus = focus;
        self.focus_at = self.space.at(focus);
    }

    /// The estimate between `at` and the focus: from `at` to the goal forward, from the
    /// agent to `at` backward (a lower bound of the cost of the way start -> at -> goal that
    /// lies before `at`).
    #[inline]
    pub(crate) fn h_at(&self, at: S::At) -> f64 {
        match self.direction {
            Direction::Forward => self.space.estimate(at, self.focus_at),
            Direction::Backward => self.space.estimate(self.focus_at, at),
        }
    }

    /// The estimate between `node` and the focus.
    #[inline]
    pub(crate) fn h(&self, node: u32) -> f64 {
        self.h_at(self.space.at(node))
    }

    /// `g` per node.
    #[inline]
    pub(crate) fn g(&self) -> &[f64] {
        self.nodes.g()
    }

    /// The look-ahead rhs of every node, for the cell read-out.
    pub(crate) fn rhs_values(&self) -> super::CellValues<'_> {
        super::CellValues { label: "rhs", values: &self.rhs, heat: false }
    }

    /// The key of `node` now.
    #[inline]
    pub(crate) fn key(&self, node: u32) -> Key {
        let i = node as usize;
        let m = self.nodes.g()[i].min(self.rhs[i]);
        if m.is_infinite() {
            return Key::INFINITE;
        }
        Key { k1: m + self.h(node) + self.km, k2: m }
    }

    /// True when `g = rhs` at `node`.
    #[inline]
    pub(crate) fn consistent(&self, node: u32) -> bool {
        self.nodes.g()[node as usize] == self.rhs[node as usize]
    }

    /// True when the search may stop for `target`: it is consistent and no queued node comes
    /// before it (within rounding, see [`Key::before_within`]).
    pub(crate) fn settled(&self, target: u32) -> bool {
        self.consistent(target) && !self.queue.any_before_within(self.key(target))
    }

    /// Notes `node` as touched (its buffers to be cleared on reset).
    #[inline]
    fn touch(&mut self, node: u32) {
        let i = node as usize;
        if self.flags[i] & TOUCHED == 0 {
            self.flags[i] |= TOUCHED;
            self.nodes.parts().3.push(node);
        }
    }

    /// Recomputes `rhs` (and its parent) of `node` from its edges towards the root, then
    /// queues it or takes it off the queue as it is inconsistent or not.
    pub(crate) fn update_vertex(&mut self, node: u32) {
        self.update_vertex_with(node, &mut NoRecord);
    }

    /// [`update_vertex`](Self::update_vertex), telling `recorder` when `rhs` changes
    /// (`opened(node, new parent, old rhs if finite, new rhs)`).
    fn update_vertex_with<R: Recorder>(&mut self, node: u32, recorder: &mut R) {
        if node != self.root {
            let g = self.nodes.g();
            let mut best = f64::INFINITY;
            let mut from = NO_PARENT;
            for_each_toward(&self.space, self.direction, node, |nb, cost| {
                let candidate = g[nb as usize] + cost;
                if candidate < best {
                    best = candidate;
                    from = nb;
                }
            });
            let old = self.rhs[node as usize];
            if old != best {
                recorder.opened(node, from, old.is_finite().then_some(old), best);
            }
            self.rhs[node as usize] = best;
            self.nodes.parts().2[node as usize] = from;
        }
        self.fix_queue(node);
    }

    /// Queues `node` with its current key when inconsistent, takes it off otherwise.
    #[inline]
    fn fix_queue(&mut self, node: u32) {
        if self.consistent(node) {
            self.queue.remove(node);
        } else {
            self.touch(node);
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
        let state = if node == self.current {
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
        self.nodes.parts().0[i] = state;
    }

    /// Forgets which node the last expansion took.
    pub(crate) fn clear_current(&mut self) {
        let was = self.current;
        if was != NO_PARENT {
            self.current = NO_PARENT;
            self.refresh(was);
        }
    }

    /// One iteration of ComputeShortestPath on `node` (the first on the queue, with an up to
    /// date key): settles it (`g = rhs`) when overconsistent, forgets its `g` when
    /// underconsistent, and updates the nodes whose `rhs` depends on it.
    ///
    /// `recorder` hears `expanded(node)`, then `opened(node, parent, old rhs, new rhs)` for
    /// every `rhs` that changed.
    pub(crate) fn expand<R: Recorder>(&mut self, node: u32, recorder: &mut R) {
        recorder.expanded(node);
        self.queue.remove(node);
        let i = node as usize;
        self.clear_current();
        self.current = node;
        self.flags[i] |= EXPANDED;
        self.expanded += 1;
        let mut edges = std::mem::take(&mut self.scratch);
        edges.clear();
        for_each_away(&self.space, self.direction, node, |nb, cost| edges.push((nb, cost)));
        if self.nodes.g()[i] > self.rhs[i] {
            let g = self.rhs[i];
            self.nodes.parts().1[i] = g;
            for &(nb, cost) in &edges {
                if nb == self.root {
                    continue;
                }
                let candidate = g + cost;
                let old = self.rhs[nb as usize];
                if candidate < old {
                    recorder.opened(nb, node, old.is_finite().then_some(old), candidate);
                    self.rhs[nb as usize] = candidate;
                    self.nodes.parts().2[nb as usize] = node;
                    self.fix_queue(nb);
                }
            }
        } else {
            self.nodes.parts().1[i] = f64::INFINITY;
            for &(nb, _) in &edges {
                if nb != self.root && self.nodes.parent()[nb as usize] == node {
                    self.update_vertex_with(nb, recorder);
                }
            }
            self.update_vertex_with(node, recorder);
        }
        self.scratch = edges;
        self.refresh(node);
    }

    /// Takes the first node off the queue and expands it, after bringing its key up to date
    /// (D* Lite's keys go stale as the agent moves: a stale key is replaced and the next
    /// node tried, which is bookkeeping rather than an expansion). Stops without expanding
    /// when `stop` holds; returns the node expanded.
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

    /// Takes a new space (the same nodes, some edges changed) and updates the nodes whose
    /// `rhs` may depend on the edges of `changed`: each listed node and the nodes its edges
    /// lead to (forward) or come from (backward), in the old space and in the new. Then every
    /// queued key is worked out again, since the estimate may have changed with the edges (a
    /// graph's scales with its cheapest edge per unit of length).
    pub(crate) fn replace_space(&mut self, space: S, changed: &[u32]) {
        let old = std::mem::replace(&mut self.space, space);
        let mut nodes: Vec<u32> = Vec::with_capacity(changed.len() * 4);
        for &c in changed {
            nodes.push(c);
            for_each_away(&old, self.direction, c, |nb, _| nodes.push(nb));
            for_each_away(&self.space, self.direction, c, |nb, _| nodes.push(nb));
        }
        super::order::sort_by(&mut nodes, &Ord::cmp);
        nodes.dedup();
        self.focus_at = self.space.at(self.focus);
        for node in nodes {
            self.update_vertex(node);
        }
        self.rekey();
    }

    /// Works out every queued key again (after the estimate or the focus changed).
    pub(crate) fn rekey(&mut self) {
        let queued: Vec<u32> = self.queue.nodes().collect();
        for node in queued {
            let key = self.key(node);
            self.queue.set(node, key);
        }
    }

    /// The best next node from `node` towards the root: the one minimising `g(it) + the
    /// edge's cost` over the edges towards the root (the first such in the space's order),
    /// with that sum.
    pub(crate) fn best_neighbour(&self, node: u32) -> Option<(u32, f64)> {
        let g = self.nodes.g();
        let mut best: Option<(u32, f64)> = None;
        for_each_toward(&self.space, self.direction, node, |nb, cost| {
            let total = g[nb as usize] + cost;
            if total.is_finite() && best.is_none_or(|(_, b)| total < b) {
                best = Some((nb, total));
            }
        });
        best
    }

    /// Follows [`best_neighbour`](Self::best_neighbour) from `from` to the root, pushing
    /// the nodes after `from` onto `out`. Returns false (leaving what it pushed) if the walk
    /// dead-ends or loops, which a settled search never does.
    pub(crate) fn walk_to_root(&self, from: u32, out: &mut Vec<u32>) -> bool {
        let g = self.nodes.g();
        let mut at = from;
        while at != self.root {
            // Along a settled plan g falls by a whole edge at every node, so a walk on which
            // it does not fall has gone wrong (and could loop).
            match self.best_neighbour(at) {
                Some((next, _)) if g[next as usize] < g[at as usize] => {
                    out.push(next);
                    at = next;
                }
                _ => return false,
            }
        }
        true
    }

    /// Marks `nodes` as the path shown (state `path`), clearing the previous marks.
    pub(crate) fn mark_path(&mut self, nodes: &[u32]) {
        self.clear_path();
        for &c in nodes {
            self.touch(c);
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

    /// Nodes whose `g` and `rhs` differ: the queue.
    pub(crate) fn inconsistent(&self) -> impl Iterator<Item = u32> + '_ {
        self.queue.nodes()
    }

    /// The queue in the order it is taken, at most `limit` entries: `key` is the first part
    /// of the key, `g` is `min(g, rhs)`, and the parent is the node `rhs` came from.
    pub(crate) fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        self.queue
            .leaving_order(limit)
            .into_iter()
            .map(|(cell, key)| OpenEntry {
                cell,
                g: key.k2,
                h: self.h(cell),
                key: key.k1,
                parent: self.nodes.parent()[cell as usize],
            })
            .collect()
    }
}

impl<S: OnGrid> Core<S> {
    /// Updates the cells whose `rhs` may depend on the listed cells (which changed value):
    /// each one and its eight neighbours, since a move's legality depends on its ends and,
    /// for a diagonal, on the two cells beside it.
    pub(crate) fn cells_changed(&mut self, changed: &[u32]) {
        let grid = self.space.grid();
        let (w, h) = (grid.width(), grid.height());
        let mut cells = Vec::with_capacity(changed.len() * 9);
        for &c in changed {
            let p = grid.point_at(c as usize);
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
}

/// Why a space cannot be planned on incrementally, if it cannot: an edge costs 0 (see the
/// [module documentation](self)). Looks at every edge.
pub(crate) fn check_costs<S: Space>(space: &S) -> Result<(), SearchError> {
    for node in 0..space.node_count() as u32 {
        let mut free = None;
        space.for_each_neighbour(node, space.at(node), |nb, _, cost| {
            if cost <= 0.0 && free.is_none() {
                free = Some(nb);
            }
        });
        if let Some(to) = free {
            return Err(SearchError::Unsupported(format!(
                "the edge {} -> {} costs 0: LPA* and D* Lite need every edge to cost more than 0 \
                 (with free edges a repair can keep a cost that is gone)",
                space.label(node),
                space.label(to)
            )));
        }
    }
    Ok(())
}

/// What one logged edit did.
#[derive(Clone, Debug)]
pub(crate) enum Change<S> {
    /// A brush stroke: `cells` were set to `value` (searches on a grid's cells only).
    Cells { cells: Vec<Point>, value: u8 },
    /// The space was replaced by `space`; the edges of `changed` differ.
    Space { space: S, changed: Vec<u32> },
}

/// One edit kept for replay, made once `step` steps had been taken.
#[derive(Clone, Debug)]
pub(crate) struct Edit<S> {
    pub(crate) step: usize,
    pub(crate) change: Change<S>,
}

/// The edits made while a search ran, with the space as it was at step 0, so that going back
/// replays them at the same step numbers and the latest edited space is never lost.
#[derive(Clone, Debug)]
pub(crate) struct EditLog<S> {
    /// The space at step 0.
    pub(crate) base: S,
    /// The space with every logged edit made: what `reset` keeps.
    pub(crate) latest: S,
    /// The edits in the order made (their step numbers never decrease).
    pub(crate) edits: Vec<Edit<S>>,
    /// How many edits the state shown has made.
    pub(crate) applied: usize,
}

impl<S: Clone> EditLog<S> {
    /// A log with no edits over `space`.
    pub(crate) fn new(space: S) -> Self {
        Self { base: space.clone(), latest: space, edits: Vec::new(), applied: 0 }
    }

    /// Forgets the edits: the latest space becomes step 0's.
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

    /// Logs an edit made at step `steps` (over 0), which `latest` must already have, and
    /// returns the edits now to apply: the ones logged for later steps (after going back) are
    /// moved to this step, so that the edited space stays whole, followed by this one.
    pub(crate) fn record(&mut self, steps: usize, change: Change<S>) -> std::ops::Range<usize> {
        for edit in &mut self.edits[self.applied..] {
            edit.step = steps;
        }
        self.edits.push(Edit { step: steps, change });
        let from = self.applied;
        self.applied = self.edits.len();
        from..self.applied
    }
}

impl<S: OnGrid> EditLog<S> {
    /// Sets `cells` to `value` in the latest space (they are inside the grid).
    pub(crate) fn paint_latest(&mut self, cells: &[Point], value: u8) {
        let grid = self.latest.grid_mut();
        for &p in cells {
            let _ = grid.set(p, value);
        }
    }
}

/// What the last edit cost, as [`Repair`](super::Repair) reports it; the fresh search is run
/// the first time it is asked for.
#[derive(Clone, Debug)]
pub(crate) struct RepairRecord {
    /// The step at which the edit was made (or the changes discovered).
    pub(crate) step: usize,
    /// Cells (nodes) changed.
    pub(crate) changed: usize,
    /// Expansions before the edit.
    pub(crate) expanded_before: usize,
    /// Where a fresh search would start.
    pub(crate) from: u32,
    /// A fresh A*'s expansions, once computed.
    pub(crate) fresh: OnceCell<usize>,
}

impl RepairRecord {
    /// A record of `changed` nodes changed at `step`, before which `expanded_before`
    /// expansions had been made; a fresh search would start at `from`.
    pub(crate) fn new(step: usize, changed: usize, expanded_before: usize, from: u32) -> Self {
        Self { step, changed, expanded_before, from, fresh: OnceCell::new() }
    }

    /// The record after `more` nodes changed at `step`: added to this one when it is of the
    /// same step, a new record otherwise.
    pub(crate) fn add(previous: Option<Self>, step: usize, more: usize, expanded_before: usize, from: u32) -> Self {
        match previous {
            Some(r) if r.step == step && r.expanded_before == expanded_before => {
                Self::new(step, r.changed + more, expanded_before, from)
            }
            _ => Self::new(step, more, expanded_before, from),
        }
    }

    /// The report, running the fresh A* on `space` to `goal` the first time.
    pub(crate) fn report<S: Space + Clone>(&self, expanded: usize, space: &S, goal: u32) -> super::Repair {
        let fresh = *self.fresh.get_or_init(|| super::engine::fresh_astar(space, self.from, goal));
        super::Repair { changed: self.changed, re_expanded: expanded - self.expanded_before, fresh_expanded: fresh }
    }
}

/// Checks the settings an incremental search accepts on any space: the algorithm, and weight 1
/// (it repairs an optimal plan). The estimate is the space's own.
pub(crate) fn check_space_config(config: &SearchConfig, expected: Algorithm) -> Result<(), SearchError> {
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
    Ok(())
}

/// Checks the settings an incremental search accepts on a grid: weight 1 and an estimate that
/// never overestimates (both searches stop on a test that is only right for such estimates).
pub(crate) fn check_config(config: &SearchConfig, expected: Algorithm) -> Result<(), SearchError> {
    check_space_config(config, expected)?;
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

/// Sets the cells of a logged stroke in `space`, returning the indices of those that changed.
pub(crate) fn paint_space<S: OnGrid>(space: &mut S, cells: &[Point], value: u8) -> Vec<u32> {
    let grid = space.grid_mut();
    let mut changed = Vec::new();
    for &p in cells {
        if grid.get(p).is_some_and(|v| v != value) {
            // Inside: `get` found it.
            let _ = grid.set(p, value);
            changed.push(grid.index(p) as u32);
        }
    }
    changed
}

/// Adds to the overlay the marks of the inconsistent nodes (at most [`MARK_CAP`]) and the
/// note that counts them.
pub(crate) fn mark_inconsistent<S: Space>(core: &Core<S>, overlay: &mut Overlay) {
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
