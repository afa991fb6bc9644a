//! The per-node state every stepper keeps: what the page paints and what the search needs.

use super::{CellState, NO_PARENT};

const UNSEEN: u8 = CellState::Unseen as u8;

/// One [`CellState`] byte, a best-known cost g and a parent per node, with the list of nodes
/// touched since the last reset so that going back to step 0 clears only those.
///
/// ```
/// use pathlab_core::search::NodeTable;
/// let mut t = NodeTable::new(100);
/// t.open(7, 2.5, 3);
/// assert_eq!((t.g()[7], t.parent()[7]), (2.5, 3));
/// t.reset();
/// assert!(t.g()[7].is_infinite());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct NodeTable {
    state: Vec<u8>,
    g: Vec<f64>,
    parent: Vec<u32>,
    touched: Vec<u32>,
}

impl NodeTable {
    /// A table for `n` nodes, all unseen.
    pub fn new(n: usize) -> Self {
        Self { state: vec![UNSEEN; n], g: vec![f64::INFINITY; n], parent: vec![NO_PARENT; n], touched: Vec::new() }
    }

    /// Every node back to unseen: only the touched ones when they are few, else all.
    pub fn reset(&mut self) {
        if self.touched.len() * 4 > self.state.len() {
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
        }
        self.touched.clear();
    }

    /// Sets a node open with cost `g` and parent `parent`, noting it as touched when it was
    /// unseen.
    #[inline]
    pub fn open(&mut self, node: u32, g: f64, parent: u32) {
        let i = node as usize;
        if self.state[i] == UNSEEN {
            self.touched.push(node);
        }
        self.state[i] = CellState::Open as u8;
        self.g[i] = g;
        self.parent[i] = parent;
    }

    /// Sets a node's state byte.
    #[inline]
    pub fn set_state(&mut self, node: u32, state: CellState) {
        self.state[node as usize] = state as u8;
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

    /// The path from the first node without a parent to `goal`, following parents.
    pub fn path_to(&self, goal: u32, path: &mut Vec<u32>) {
        path.clear();
        let mut at = goal;
        while at != NO_PARENT {
            path.push(at);
            at = self.parent[at as usize];
        }
        path.reverse();
    }

    /// The three arrays and the touched list at once, for an inner loop that updates them
    /// together.
    #[inline]
    pub(crate) fn parts(&mut self) -> (&mut [u8], &mut [f64], &mut [u32], &mut Vec<u32>) {
        (&mut self.state, &mut self.g, &mut self.parent, &mut self.touched)
    }
}
