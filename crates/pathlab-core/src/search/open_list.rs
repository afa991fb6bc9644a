//! The open list of the best-first searches: a priority queue with a fixed tie order.

use std::cmp::Ordering;
use std::collections::{HashMap, VecDeque};

use super::{CellState, NodeTable, OpenEntry};

/// An open-list entry; the heap pops the smallest `(key, tie, seq)`.
///
/// `key` and `tie` are the f64 priorities mapped to integers in the same order (see
/// [`ordered`]), so comparing entries is integer comparison. `seq` counts the pushes since
/// the search began (at most 8 per cell, so far below `u32::MAX` on a grid of at most
/// [`MAX_SIDE`](crate::grid::MAX_SIDE) squared cells): no two entries compare equal, and any
/// correct priority queue pops them in the same order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    key: u64,
    tie: u64,
    seq: u32,
    node: u32,
}

impl Entry {
    /// `(key, tie)` as one number: entries leave in order of rank, then of `seq`.
    #[inline]
    fn rank(&self) -> u128 {
        (u128::from(self.key) << 64) | u128::from(self.tie)
    }

    /// The order in which entries leave: by rank, then by `seq`.
    #[inline]
    fn order(&self, other: &Self) -> Ordering {
        (self.rank(), self.seq).cmp(&(other.rank(), other.seq))
    }

    /// True when `self` comes off the open list before `other`.
    ///
    /// Written without short-circuits so that it compiles to flag arithmetic rather than
    /// branches, which the heap's sift-down would mispredict half the time.
    #[allow(clippy::needless_bitwise_bool)]
    #[inline]
    fn before(&self, other: &Self) -> bool {
        let (a, b) = (self.rank(), other.rank());
        (a < b) | ((a == b) & (self.seq < other.seq))
    }

    /// [`before`](Self::before) for two entries of the same key: by tie, then by `seq`,
    /// without the 128-bit rank (two 64-bit words apiece in WebAssembly).
    #[allow(clippy::needless_bitwise_bool)]
    #[inline]
    fn before_same_key(&self, other: &Self) -> bool {
        debug_assert_eq!(self.key, other.key);
        (self.tie < other.tie) | ((self.tie == other.tie) & (self.seq < other.seq))
    }
}

/// Maps a priority to an integer with the same order: for any two non-NaN values,
/// `a < b` exactly when `ordered(a) < ordered(b)`, and `a == b` (which includes 0.0 and
/// -0.0) exactly when `ordered(a) == ordered(b)`.
#[inline]
fn ordered(x: f64) -> u64 {
    // Adding 0.0 turns -0.0 into 0.0. Then for positive values the bits grow with the value,
    // and for negative values they shrink: flipping the sign bit, or every bit, fixes both.
    let bits = (x + 0.0).to_bits();
    if bits >> 63 == 0 {
        bits | (1 << 63)
    } else {
        !bits
    }
}

/// The priority that [`ordered`] mapped to `key` (0.0 for -0.0).
#[inline]
fn unordered(key: u64) -> f64 {
    f64::from_bits(if key >> 63 == 1 { key & !(1 << 63) } else { !key })
}

/// How many children a node has in the four-ary heaps of the searches ([`MinHeap`] here, the
/// incremental searches' key queue): half the depth of a binary heap, and a sift-down
/// compares children that sit side by side in memory.
pub(crate) const ARITY: usize = 4;

/// The parent of the entry at `hole` (not the root) in a four-ary heap laid out in an array.
#[inline]
pub(crate) fn heap_parent(hole: usize) -> usize {
    (hole - 1) / ARITY
}

/// The children of the entry at `hole` in a four-ary heap of `len` entries laid out in an
/// array; `None` at a leaf.
#[inline]
pub(crate) fn heap_children(hole: usize, len: usize) -> Option<std::ops::Range<usize>> {
    let first = hole * ARITY + 1;
    (first < len).then(|| first..(first + ARITY).min(len))
}

/// A four-ary min-heap of [`Entry`] (see [`ARITY`]).
#[derive(Clone, Debug, Default)]
struct MinHeap {
    items: Vec<Entry>,
}

impl MinHeap {
    fn clear(&mut self) {
        self.items.clear();
    }

    #[inline]
    fn push(&mut self, entry: Entry) {
        let items = &mut self.items;
        let mut hole = items.len();
        items.push(entry);
        while hole > 0 {
            let parent = heap_parent(hole);
            let above = items[parent];
            if !entry.before(&above) {
                break;
            }
            items[hole] = above;
            hole = parent;
        }
        items[hole] = entry;
    }

    #[inline]
    fn pop(&mut self) -> Option<Entry> {
        let items = &mut self.items;
        let last = items.pop()?;
        let Some(&top) = items.first() else {
            return Some(last);
        };
        let len = items.len();
        let mut hole = 0;
        while let Some(children) = heap_children(hole, len) {
            let mut best = children.start;
            let mut best_entry = items[best];
            for (child, entry) in items[children.start + 1..children.end].iter().enumerate() {
                if entry.before(&best_entry) {
                    best = children.start + 1 + child;
                    best_entry = *entry;
                }
            }
            if !best_entry.before(&last) {
                break;
            }
            items[hole] = best_entry;
            hole = best;
        }
        items[hole] = last;
        Some(top)
    }
}

/// A radix heap of [`Entry`], for keys that seldom go below the last one popped.
///
/// Entries are bucketed by `key` alone. Those whose key equals `last` wait in `current`,
/// sorted by `(tie, seq)` so that its back leaves first; an entry of higher key sits in the
/// bucket numbered by the highest bit in which its key differs from `last`. When `current`
/// runs dry, the lowest non-empty bucket holds the lowest keys: the lowest becomes `last`,
/// and the bucket's entries move to `current` or to lower buckets. Each entry moves a few
/// times at most, to the end of a vector, instead of travelling the height of a heap on
/// every pop.
///
/// An entry pushed with key `last` goes into `current` at its place in the tie order. With
/// A* that place is almost always the back: a child with its parent's f has a larger g than
/// anything left at that f (its parent had the largest), so it leaves next. With Dijkstra
/// (one tie for all) it is the front, as entries of equal g leave first in, first out. Both
/// are O(1) on a double-ended queue; other places are found by binary search.
///
/// Keys can dip below `last` (when an inconsistent heuristic makes a child's f smaller than
/// its parent's): such entries wait in `below`, a plain heap, and leave before all others,
/// since every other key is at least `last`.
#[derive(Clone, Debug)]
pub(crate) struct RadixHeap {
    last: u64,
    /// Entries of key `last`, sorted so that the back leaves first.
    current: VecDeque<Entry>,
    below: MinHeap,
    buckets: Vec<Vec<Entry>>,
    /// Bit `i` set when `buckets[i]` is not empty.
    filled: u64,
}

impl Default for RadixHeap {
    fn default() -> Self {
        Self { last: 0, current: VecDeque::new(), below: MinHeap::default(), buckets: vec![Vec::new(); 64], filled: 0 }
    }
}

impl RadixHeap {
    fn clear(&mut self) {
        self.last = 0;
        self.current.clear();
        self.below.clear();
        let mut filled = self.filled;
        while filled != 0 {
            self.buckets[filled.trailing_zeros() as usize].clear();
            filled &= filled - 1;
        }
        self.filled = 0;
    }

    /// The bucket for a key above `last`.
    #[inline]
    fn bucket(key: u64, last: u64) -> usize {
        63 - (key ^ last).leading_zeros() as usize
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn push(&mut self, entry: Entry) {
        match entry.key.cmp(&self.last) {
            Ordering::Equal => {
                let current = &mut self.current;
                if current.back().is_none_or(|b| entry.before_same_key(b)) {
                    current.push_back(entry);
                } else if current.front().is_some_and(|f| f.before_same_key(&entry)) {
                    current.push_front(entry);
                } else {
                    // Front to back: the entries that leave after this one, then the others.
                    let at = current.partition_point(|e| entry.before_same_key(e));
                    current.insert(at, entry);
                }
            }
            Ordering::Greater => {
                let b = Self::bucket(entry.key, self.last);
                self.buckets[b].push(entry);
                self.filled |= 1 << b;
            }
            Ordering::Less => self.below.push(entry),
        }
    }

    /// Takes the first entry; entries for which `closed(node)` holds may be dropped on the
    /// way, since the search would skip them anyway.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn pop(&mut self, closed: impl Fn(u32) -> bool) -> Option<Entry> {
        if !self.below.items.is_empty() {
            return self.below.pop();
        }
        if self.current.is_empty() {
            self.refill(closed)?;
        }
        self.current.pop_back()
    }

    /// True when no entry is held.
    #[inline]
    fn is_empty(&self) -> bool {
        self.filled == 0 && self.current.is_empty() && self.below.items.is_empty()
    }

    /// Hands every entry held to `offer`, in no particular order.
    fn offer_all(&self, offer: &mut impl FnMut(&Entry)) {
        self.below.items.iter().for_each(&mut *offer);
        self.current.iter().for_each(&mut *offer);
        self.buckets.iter().flatten().for_each(offer);
    }

    /// The first entry, left in place (entries of closed nodes may be dropped on the way).
    #[inline]
    fn peek(&mut self, closed: impl Fn(u32) -> bool) -> Option<Entry> {
        if let Some(&first) = self.below.items.first() {
            return Some(first);
        }
        if self.current.is_empty() {
            self.refill(closed)?;
        }
        self.current.back().copied()
    }

    /// Moves the lowest keys to `current`, dropping entries of closed nodes (those left
    /// behind when a node's cost improved); `None` when the heap is empty.
    fn refill(&mut self, closed: impl Fn(u32) -> bool) -> Option<()> {
        loop {
            if self.filled == 0 {
                return None;
            }
            let b = self.filled.trailing_zeros() as usize;
            self.filled &= !(1 << b);
            if self.buckets[b].len() == 1 {
                // A lone entry (the rule where the open list is thin, as in a maze): it is the
                // lowest key, with nothing to sort or move.
                let entry = self.buckets[b][0];
                self.buckets[b].clear();
                if closed(entry.node) {
                    continue;
                }
                self.last = entry.key;
                self.current.push_back(entry);
                return Some(());
            }
            let mut bucket = std::mem::take(&mut self.buckets[b]);
            bucket.retain(|e| !closed(e.node));
            let Some(last) = bucket.iter().map(|e| e.key).min() else {
                self.buckets[b] = bucket;
                continue;
            };
            self.last = last;
            for entry in bucket.drain(..) {
                if entry.key == last {
                    self.current.push_back(entry);
                } else {
                    let to = Self::bucket(entry.key, last);
                    self.buckets[to].push(entry);
                    self.filled |= 1 << to;
                }
            }
            // Keep the emptied vector's room for the next time this bucket fills.
            self.buckets[b] = bucket;
            if self.current.len() > 1 {
                self.current.make_contiguous().sort_unstable_by_key(|e| std::cmp::Reverse((e.tie, e.seq)));
            }
            return Some(());
        }
    }
}

/// How many slots a unit of key spans in a [`Calendar`] (a power of two, so that a key's slot
/// is exact).
const SLOTS_PER_UNIT: f64 = 16.0;
/// How many slots a [`Calendar`] keeps: keys up to four units above the current slot's. A grid
/// search with moves of cost 1 and sqrt(2) raises f by at most 2 sqrt(2) an expansion, and g by
/// at most sqrt(2), so its pushes land here. (One bit a slot in a word says which are filled.)
const SLOTS: usize = 64;

/// The slot of a key: the key times [`SLOTS_PER_UNIT`], rounded down (negative keys share
/// slot 0, and infinite ones the last), so a larger key never has a lower slot.
#[inline]
fn slot(key: f64) -> u64 {
    (key * SLOTS_PER_UNIT) as u64
}

/// [`slot`] of a key given as [`ordered`] bits.
#[inline]
fn slot_of(key: u64) -> u64 {
    slot(unordered(key))
}

/// A bucket queue of [`Entry`] for keys that rise by little at a time: Dijkstra's and A*'s on
/// a grid.
///
/// Keys fall into slots of 1/[`SLOTS_PER_UNIT`] of a unit. The entries of the current slot
/// (`base`) wait in `current`, sorted so that the last leaves first; an entry of one of the
/// next [`SLOTS`] slots goes to the end of that slot's vector, in O(1), and is sorted once,
/// with its slot-mates, when its slot becomes current (the vector itself becomes `current`,
/// nothing is copied). Keys further on wait in `far`, a
/// [`RadixHeap`], and keys below the current slot (an inconsistent heuristic) in `below`, a
/// plain heap that leaves before everything else.
///
/// An entry pushed into the current slot goes into `current` at its place. With A* and the
/// octile estimate that is almost always the end: a child with its parent's f has a larger g
/// than anything left at that f, and a child with a larger f is at least 2 - sqrt(2) higher,
/// in a later slot. (Estimates such as the straight-line distance can raise f by a sliver; such
/// a child goes in by binary search.)
#[derive(Clone, Debug)]
pub(crate) struct Calendar {
    base: u64,
    /// Entries of slot `base`, sorted so that the last leaves first.
    current: Vec<Entry>,
    below: MinHeap,
    /// Slot `s` of `base + 1 .. base + SLOTS` lives at `slots[s % SLOTS]`.
    slots: Vec<Vec<Entry>>,
    /// Bit `i` set when `slots[i]` is not empty.
    filled: u64,
    far: RadixHeap,
}

impl Default for Calendar {
    fn default() -> Self {
        Self {
            base: 0,
            current: Vec::new(),
            below: MinHeap::default(),
            slots: vec![Vec::new(); SLOTS],
            filled: 0,
            far: RadixHeap::default(),
        }
    }
}

impl Calendar {
    /// Adds an entry whose key is in slot `slot`. The usual cases (the end of `current`, or a
    /// slot ahead) are inlined; the others are not, to keep each search's loop small.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn push(&mut self, entry: Entry, slot: u64) {
        let ahead = slot.wrapping_sub(self.base);
        if ahead == 0 && self.current.last().is_none_or(|last| entry.before(last)) {
            self.current.push(entry);
        } else if (1..SLOTS as u64).contains(&ahead) {
            let i = (slot % SLOTS as u64) as usize;
            self.slots[i].push(entry);
            self.filled |= 1 << i;
        } else {
            self.push_aside(entry, slot);
        }
    }

    /// [`push`](Self::push)'s rare cases: inside `current` (by binary search), below the
    /// current slot, or beyond the last slot.
    #[inline(never)]
    fn push_aside(&mut self, entry: Entry, slot: u64) {
        match slot.cmp(&self.base) {
            Ordering::Equal => {
                // First to last: the entries that leave after this one, then the others.
                let at = self.current.partition_point(|e| entry.before(e));
                self.current.insert(at, entry);
            }
            Ordering::Less => self.below.push(entry),
            Ordering::Greater => self.far.push(entry),
        }
    }

    /// The first filled slot after `base`, if any.
    fn next_filled(&self) -> Option<u64> {
        // Turned so that bit k stands for slot `base + k` (bit 0, slot `base`, is empty).
        let ahead = self.filled.rotate_right((self.base % SLOTS as u64) as u32);
        (ahead != 0).then(|| self.base + u64::from(ahead.trailing_zeros()))
    }

    /// Makes the lowest filled slot current, with the entries of `far` that share it, dropping
    /// entries of closed nodes; `None` when the queue is empty.
    ///
    /// It runs once a slot, not once a pop: one copy of its code serves every search.
    fn refill(&mut self, closed: &dyn Fn(u32) -> bool) -> Option<()> {
        loop {
            let near = self.next_filled();
            let far = if self.far.is_empty() { None } else { self.far.peek(closed).map(|e| slot_of(e.key)) };
            let slot = match (near, far) {
                (Some(a), Some(b)) => a.min(b),
                (a, b) => a.or(b)?,
            };
            self.base = slot;
            if near == Some(slot) {
                let i = (slot % SLOTS as u64) as usize;
                self.filled &= !(1 << i);
                // The slot's vector becomes `current`, and the empty `current` takes its place.
                std::mem::swap(&mut self.current, &mut self.slots[i]);
                self.current.retain(|e| !closed(e.node));
            }
            while far == Some(slot) && self.far.peek(closed).is_some_and(|e| slot_of(e.key) == slot) {
                if let Some(e) = self.far.pop(closed) {
                    self.current.push(e);
                }
            }
            if self.current.len() > 1 {
                self.current.sort_unstable_by(|a, b| b.order(a));
            }
            if !self.current.is_empty() {
                return Some(());
            }
            // Every entry of the slot was closed: on to the next.
        }
    }
}

/// The open list of the best-first searches: a priority queue of nodes by `(key, tie)`, then
/// by the order they were pushed.
///
/// Dijkstra's and plain A*'s keys (almost) never fall below the last key popped, which suits
/// a [`RadixHeap`]; greedy best-first's and weighted A*'s often do, and they use a
/// [`MinHeap`]. Entries never compare equal, so both pop them in the same order.
#[derive(Clone, Debug)]
pub(crate) struct OpenList<M: Rising = RadixHeap> {
    queue: Queue<M>,
    seq: u32,
}

#[derive(Clone, Debug)]
enum Queue<M> {
    Rising(M),
    Heap(MinHeap),
}

/// A queue for keys that (almost) never fall below the last one popped: [`RadixHeap`] for any
/// such keys, [`Calendar`] for keys that also rise by a few units at most a push. Each search
/// names the one it uses, so that only that one's push is inlined into its loop.
pub(crate) trait Rising: Clone + std::fmt::Debug + Default {
    /// Adds `entry`, whose key is `key`.
    fn put(&mut self, entry: Entry, key: f64);
    /// Takes the first entry; entries for which `closed(node)` holds may be dropped on the way.
    fn take(&mut self, closed: impl Fn(u32) -> bool) -> Option<Entry>;
    /// Empties the queue.
    fn empty(&mut self);
    /// Hands every entry held to `offer`, in no particular order.
    fn offer_all(&self, offer: &mut impl FnMut(&Entry));
}

impl Rising for RadixHeap {
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn put(&mut self, entry: Entry, _key: f64) {
        self.push(entry);
    }
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn take(&mut self, closed: impl Fn(u32) -> bool) -> Option<Entry> {
        self.pop(closed)
    }
    fn empty(&mut self) {
        self.clear();
    }
    fn offer_all(&self, offer: &mut impl FnMut(&Entry)) {
        RadixHeap::offer_all(self, offer);
    }
}

impl Rising for Calendar {
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn put(&mut self, entry: Entry, key: f64) {
        self.push(entry, slot(key));
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn take(&mut self, closed: impl Fn(u32) -> bool) -> Option<Entry> {
        // Keys below the current slot leave first; then the current slot, refilled if empty.
        self.below.pop().or_else(|| {
            if self.current.is_empty() {
                self.refill(&closed)?;
            }
            self.current.pop()
        })
    }

    fn empty(&mut self) {
        self.base = 0;
        self.current.clear();
        self.below.clear();
        while self.filled != 0 {
            self.slots[self.filled.trailing_zeros() as usize].clear();
            self.filled &= self.filled - 1;
        }
        self.far.clear();
    }

    fn offer_all(&self, offer: &mut impl FnMut(&Entry)) {
        self.below.items.iter().for_each(&mut *offer);
        self.current.iter().for_each(&mut *offer);
        self.slots.iter().flatten().for_each(&mut *offer);
        self.far.offer_all(offer);
    }
}

impl<M: Rising> OpenList<M> {
    /// An empty open list. `monotone`: keys (almost) never fall below the last one popped,
    /// as with Dijkstra and A* with a consistent heuristic; such lists use the queue `M`
    /// (the radix heap unless the search names the calendar), the others a plain heap.
    pub(crate) fn new(monotone: bool) -> Self {
        let queue = if monotone { Queue::Rising(M::default()) } else { Queue::Heap(MinHeap::default()) };
        Self { queue, seq: 0 }
    }

    /// Empties the list and restarts the push count.
    pub(crate) fn clear(&mut self) {
        self.seq = 0;
        match &mut self.queue {
            Queue::Rising(r) => r.empty(),
            Queue::Heap(h) => h.clear(),
        }
    }

    /// Adds `node` with priority `(key, tie)`; equal priorities leave first in, first out.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn push(&mut self, key: f64, tie: f64, node: u32) {
        let entry = Entry { key: ordered(key), tie: ordered(tie), seq: self.seq, node };
        self.seq = self.seq.wrapping_add(1);
        match &mut self.queue {
            Queue::Rising(r) => r.put(entry, key),
            Queue::Heap(h) => h.push(entry),
        }
    }

    /// Takes the node of lowest priority. Entries for which `closed(node)` holds may be
    /// dropped on the way instead of returned; callers skip those that are returned.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn pop(&mut self, closed: impl Fn(u32) -> bool) -> Option<u32> {
        match &mut self.queue {
            Queue::Rising(r) => r.take(closed),
            Queue::Heap(h) => h.pop(),
        }
        .map(|e| e.node)
    }

    /// Takes the node of lowest priority whose `state` is not closed, passing over the entries
    /// left behind by nodes closed since they were pushed; `None` when none is left.
    #[inline]
    pub(crate) fn pop_open(&mut self, state: &[u8]) -> Option<u32> {
        let closed = |n: u32| state[n as usize] == CellState::Closed as u8;
        loop {
            let n = self.pop(closed)?;
            if !closed(n) {
                return Some(n);
            }
        }
    }

    /// The open list as the page lists it: the nodes still open in `nodes`, in exactly the
    /// order they would leave (see [`leaving_order`](Self::leaving_order)), at most `limit`,
    /// each with its g and h (`g_h(node)`), the key `g + weight h` and its parent.
    pub(crate) fn open_entries(
        &self,
        limit: usize,
        nodes: &NodeTable,
        weight: f64,
        g_h: impl Fn(usize) -> (f64, f64),
    ) -> Vec<OpenEntry> {
        let state = nodes.state();
        self.leaving_order(limit, |n| state[n as usize] != CellState::Open as u8)
            .into_iter()
            .map(|cell| {
                let (g, h) = g_h(cell as usize);
                OpenEntry { cell, g, h, key: g + weight * h, parent: nodes.parent()[cell as usize] }
            })
            .collect()
    }

    /// The nodes in the order they would leave if nothing more were pushed, without taking
    /// them off: each node once (where a node has several entries, the first to leave
    /// counts; the search skips the others once it has closed the node), leaving out the
    /// nodes for which `skip(node)` holds, at most `limit` of them.
    ///
    /// Both queues pop by `(key, tie, seq)`, so sorting their entries by it gives the order
    /// exactly. The cost is linear in the entries held, plus sorting the `limit` kept.
    pub(crate) fn leaving_order(&self, limit: usize, skip: impl Fn(u32) -> bool) -> Vec<u32> {
        let mut first: HashMap<u32, Entry> = HashMap::new();
        let mut offer = |e: &Entry| {
            if skip(e.node) {
                return;
            }
            first
                .entry(e.node)
                .and_modify(|held| {
                    if e.before(held) {
                        *held = *e;
                    }
                })
                .or_insert(*e);
        };
        match &self.queue {
            Queue::Heap(h) => h.items.iter().for_each(&mut offer),
            Queue::Rising(r) => r.offer_all(&mut offer),
        }
        let entries: Vec<Entry> = first.into_values().collect();
        super::order::least(entries, limit, &Entry::order).into_iter().map(|e| e.node).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A push of `(key, tie)` (a few values each, so that ties are common; keys rising by
    /// `rise` steps over the last popped, which may be negative) or a pop.
    #[derive(Clone, Debug)]
    enum Op {
        Push { rise: i8, tie: u8 },
        Pop,
    }

    fn ops() -> impl Strategy<Value = Vec<Op>> {
        let op = prop_oneof![
            3 => (-1i8..4, 0u8..4).prop_map(|(rise, tie)| Op::Push { rise, tie }),
            2 => Just(Op::Pop),
        ];
        proptest::collection::vec(op, 0..300)
    }

    /// How far a key rises per step: a fraction of a calendar slot (so a slot holds several
    /// keys), about one slot, several, exactly the calendar's span of slots (two steps), or so
    /// many that keys go past it.
    fn steps() -> impl Strategy<Value = f64> {
        prop_oneof![Just(1.0 / 64.0), Just(1.0 / 16.0), Just(0.3), Just(1.0), Just(2.0), Just(3.0)]
    }

    /// Plays `ops` (keys rising `step` at a time) on a `Q` and a plain heap side by side,
    /// with the nodes `closed` says closed (indexed by push number) as in a search: each take
    /// skips the closed entries both queues return (`Q` may drop them on its own), and both
    /// must hand out the same entry, then everything left, in the same order.
    fn pops_agree<Q: Rising>(ops: &[Op], step: f64, closed: &[bool]) -> Result<(), TestCaseError> {
        let (mut queue, mut heap) = (Q::default(), MinHeap::default());
        let is_closed = |node: u32| closed.get(node as usize).copied().unwrap_or(false);
        let take = |queue: &mut Q, heap: &mut MinHeap| {
            let a = std::iter::from_fn(|| queue.take(is_closed)).find(|e| !is_closed(e.node));
            let b = std::iter::from_fn(|| heap.pop()).find(|e| !is_closed(e.node));
            (a.map(|e| e.seq), b)
        };
        let mut last = 10.0f64;
        for (seq, op) in ops.iter().enumerate() {
            match *op {
                Op::Push { rise, tie } => {
                    let key = ordered((last + f64::from(rise) * step).max(0.0));
                    let entry = Entry { key, tie: ordered(-f64::from(tie)), seq: seq as u32, node: seq as u32 };
                    queue.put(entry, (last + f64::from(rise) * step).max(0.0));
                    heap.push(entry);
                }
                Op::Pop => {
                    let (a, b) = take(&mut queue, &mut heap);
                    prop_assert_eq!(a, b.map(|e| e.seq));
                    if let Some(e) = b {
                        last = unordered(e.key);
                    }
                }
            }
        }
        loop {
            let (a, b) = take(&mut queue, &mut heap);
            prop_assert_eq!(a, b.map(|e| e.seq));
            if b.is_none() {
                return Ok(());
            }
        }
    }

    #[test]
    fn a_keys_slot_never_falls_as_the_key_rises() {
        let keys = [-3.0, -0.0, 0.0, 1.0 / 32.0, 1.0 / 16.0, 0.5, 1.0, 2f64.sqrt(), 1e300, f64::INFINITY];
        for pair in keys.windows(2) {
            assert!(slot_of(ordered(pair[0])) <= slot_of(ordered(pair[1])), "{pair:?}");
        }
        assert_eq!(slot_of(ordered(1.0 / 16.0)), 1);
        assert_eq!(slot_of(ordered(1.0 / 16.0 - 1e-9)), 0);
        assert_eq!(slot_of(ordered(4.0)), 64);
    }

    proptest! {
        /// The radix heap and the calendar pop exactly what the plain heap pops, in the same
        /// order, for any pushes and pops: keys equal to, above and (now and then) below the
        /// last popped, ties in every order, keys sharing a calendar slot, in later slots and
        /// beyond its last slot (in its radix heap).
        #[test]
        fn rising_queues_pop_in_the_heaps_order(ops in ops(), step in steps()) {
            pops_agree::<RadixHeap>(&ops, step, &[])?;
            pops_agree::<Calendar>(&ops, step, &[])?;
        }

        /// With some nodes closed, as in a search, both may drop their entries on the way
        /// (alone in a bucket or slot, or among others) but hand out the other entries exactly
        /// when the plain heap does, once the caller skips the closed ones they return.
        #[test]
        fn rising_queues_drop_only_closed_entries(ops in ops(), step in steps(), closed in proptest::collection::vec(any::<bool>(), 300)) {
            pops_agree::<RadixHeap>(&ops, step, &closed)?;
            pops_agree::<Calendar>(&ops, step, &closed)?;
        }
    }
}
