//! The per-node state every stepper keeps: what the page paints and what the search needs.

use super::{CellState, Status, NO_PARENT};

const UNSEEN: u8 = CellState::Unseen as u8;

/// The state every stepper shares: one [`CellState`] byte, a best-known cost g and a parent
/// per node, the list of nodes touched since the last reset (so that going back to step 0
/// clears only those), the counters and the path.
///
/// The [`Stepper`](super::Stepper) accessors (status, steps, expanded, open count, path,
/// states, g, parents) read it, so a stepper hands over its table instead of forwarding each.
///
/// ```
/// use pathlab_core::search::{NodeTable, Status};
/// let mut t = NodeTable::new(100);
/// t.open(7, 2.5, 3);
/// assert_eq!((t.g()[7], t.parent()[7], t.open_count()), (2.5, 3, 1));
/// t.reset();
/// assert!(t.g()[7].is_infinite());
/// assert_eq!((t.status(), t.open_count()), (Status::Ready, 0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct NodeTable {
    state: Vec<u8>,
    g: Vec<f64>,
    parent: Vec<u32>,
    touched: Vec<u32>,
    /// Nodes painted as the path from unseen by [`set_final_path`](Self::set_final_path):
    /// only their state byte was written, so only it is put back.
    painted: Vec<u32>,
    /// Where the search stands.
    pub(crate) status: Status,
    /// Steps taken since step 0.
    pub(crate) steps: usize,
    /// Nodes expanded.
    pub(crate) expanded: usize,
    /// Nodes on the open list(s).
    pub(crate) open: usize,
    /// The path once found, start first.
    pub(crate) path: Vec<u32>,
}

impl NodeTable {
    /// A table for `n` nodes, all unseen.
    pub fn new(n: usize) -> Self {
        Self {
            state: vec![UNSEEN; n],
            g: vec![f64::INFINITY; n],
            parent: vec![NO_PARENT; n],
            touched: Vec::new(),
            painted: Vec::new(),
            status: Status::Ready,
            steps: 0,
            expanded: 0,
            open: 0,
            path: Vec::new(),
        }
    }

    /// How many nodes the table has.
    #[inline]
    pub fn len(&self) -> usize {
        self.state.len()
    }

    /// True for a table of no nodes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.state.is_empty()
    }

    /// Back to step 0: every node unseen, the counters at 0, no path.
    pub fn reset(&mut self) {
        self.clear_nodes();
        self.status = Status::Ready;
        self.steps = 0;
        self.expanded = 0;
        self.open = 0;
        self.path.clear();
    }

    /// Every node back to unseen (only the touched ones when they are few, else all), the
    /// counters and the path kept: for a search that starts over within a run, as IDA* does
    /// at each new threshold.
    pub fn clear_nodes(&mut self) {
        if (self.touched.len() + self.painted.len()) * 4 > self.state.len() {
            self.state.fill(UNSEEN);
            self.g.fill(f64::INFINITY);
            self.parent.fill(NO_PARENT);
        } else {
            for &i in &self.touched {
                let i = i as usize;
                self.state[i] = UNSEEN;
                self.g[i] = f64::INFINITY;
                self.parent[i] = NO_PARENT;
            }
            for &i in &self.painted {
                let i = i as usize;
                debug_assert!(self.g[i].is_infinite() && self.parent[i] == NO_PARENT, "a painted node was written");
                self.state[i] = UNSEEN;
            }
        }
        self.touched.clear();
        self.painted.clear();
    }

    /// Notes a node as touched (to be cleared by the next reset) when it is still unseen.
    #[inline]
    pub fn touch(&mut self, node: u32) {
        if self.state[node as usize] == UNSEEN {
            self.touched.push(node);
        }
    }

    /// Puts a node on the open list with cost `g` and parent `parent`: counted as one more
    /// open node when it was not open already, and noted as touched when it was unseen.
    #[inline]
    pub fn open(&mut self, node: u32, g: f64, parent: u32) {
        let i = node as usize;
        match self.state[i] {
            UNSEEN => {
                self.touched.push(node);
                self.open += 1;
            }
            s if s != CellState::Open as u8 => self.open += 1,
            _ => {}
        }
        self.state[i] = CellState::Open as u8;
        self.g[i] = g;
        self.parent[i] = parent;
    }

    /// Sets a node's state byte, noting it as touched when it was unseen.
    #[inline]
    pub fn set_state(&mut self, node: u32, state: CellState) {
        self.touch(node);
        self.state[node as usize] = state as u8;
    }

    /// Sets the state byte of a node already touched (open, current or closed): the search
    /// loop's hot path, without the touched check.
    #[inline]
    pub(crate) fn mark(&mut self, node: u32, state: CellState) {
        debug_assert!(self.state[node as usize] != UNSEEN);
        self.state[node as usize] = state as u8;
    }

    /// Sets a node's cost and parent without changing its state, noting it as touched.
    #[inline]
    pub fn set_g(&mut self, node: u32, g: f64, parent: u32) {
        self.touch(node);
        self.g[node as usize] = g;
        self.parent[node as usize] = parent;
    }

    /// The state bytes, one per node.
    #[inline]
    pub fn state(&self) -> &[u8] {
        &self.state
    }

    /// The best cost known to each node (infinite where unseen).
    #[inline]
    pub fn g(&self) -> &[f64] {
        &self.g
    }

    /// Each node's parent, or [`NO_PARENT`].
    #[inline]
    pub fn parent(&self) -> &[u32] {
        &self.parent
    }

    /// Where the search stands.
    #[inline]
    pub fn status(&self) -> Status {
        self.status
    }

    /// Steps taken since step 0.
    #[inline]
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Nodes expanded.
    #[inline]
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// Nodes on the open list(s).
    #[inline]
    pub fn open_count(&self) -> usize {
        self.open
    }

    /// The path once found, start first (empty before).
    #[inline]
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// Sets the path to the one from the first node without a parent to `goal`, following
    /// parents, and paints it.
    pub fn trace_path(&mut self, goal: u32) {
        self.path.clear();
        let mut at = goal;
        while at != NO_PARENT {
            self.path.push(at);
            at = self.parent[at as usize];
        }
        self.path.reverse();
        for &p in &self.path {
            self.state[p as usize] = CellState::Path as u8;
        }
    }

    /// Sets the path to `nodes` and paints it, for a search that has finished: nothing
    /// writes a node's g or parent between this and the next reset. The nodes it paints from
    /// unseen are noted apart from the touched ones, and the reset puts back only their state
    /// byte, as their g and parent were never written: on a long path through open country
    /// (most of whose cells the search never opened) that is two fewer arrays to write per
    /// cell.
    pub(crate) fn set_final_path(&mut self, nodes: &[u32]) {
        self.path.clear();
        self.path.extend_from_slice(nodes);
        for &p in nodes {
            let state = &mut self.state[p as usize];
            if *state == UNSEEN {
                self.painted.push(p);
            }
            *state = CellState::Path as u8;
        }
    }

    /// Sets the path to `nodes` and paints it.
    pub fn set_path(&mut self, nodes: &[u32]) {
        self.path.clear();
        self.path.extend_from_slice(nodes);
        for &p in nodes {
            self.touch(p);
            self.state[p as usize] = CellState::Path as u8;
        }
    }

    /// The nodes touched since the last reset (to clear a stepper's own per-node arrays
    /// alongside).
    #[inline]
    pub fn touched(&self) -> &[u32] {
        &self.touched
    }

    /// The three arrays and the touched list at once, for an inner loop that updates them
    /// together. A caller that makes an unseen node seen must push it on the touched list.
    #[inline]
    pub(crate) fn parts(&mut self) -> (&mut [u8], &mut [f64], &mut [u32], &mut Vec<u32>) {
        (&mut self.state, &mut self.g, &mut self.parent, &mut self.touched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After a search paints its final path (over cells it opened and cells it never saw),
    /// a reset leaves the table as a new one, whether it puts back node by node or fills
    /// the whole table.
    #[test]
    fn a_reset_after_the_final_path_leaves_every_node_as_new() {
        for n in [100, 12] {
            let mut t = NodeTable::new(n);
            t.open(3, 1.0, 2);
            t.set_state(3, CellState::Closed);
            t.open(7, 2.5, 3);
            t.set_final_path(&[2, 3, 4, 5, 6, 7]);
            assert_eq!(t.path(), &[2, 3, 4, 5, 6, 7]);
            assert!(t.state()[2..8].iter().all(|&s| s == CellState::Path as u8));
            assert_eq!((t.g()[7], t.parent()[7]), (2.5, 3));
            t.reset();
            assert_eq!(t, NodeTable::new(n), "table of {n} nodes");
        }
    }
}
