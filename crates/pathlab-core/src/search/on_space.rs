//! What every search that runs on any [`Space`] offers the spaces page, the CLI and the
//! tests: the node-level half of [`Stepper`](super::Stepper), with node numbers where the grid
//! stepper has cells.
//!
//! [`build_on`](super::build_on) (in the registry) makes the stepper for an algorithm on a space; the graph and hex views hold
//! it as a `Box<dyn SpaceStepper<S>>`.
//!
//! ```
//! use pathlab_core::search::{build_on, Algorithm, SearchConfig, Status};
//! use pathlab_core::space::Graph;
//! let mut g = Graph::new(false);
//! let (a, b) = (g.add_node("A", 0.0, 0.0).unwrap(), g.add_node("B", 1.0, 0.0).unwrap());
//! g.add_edge(a, b, 4.0, false).unwrap();
//! let mut s = build_on(g, a, b, SearchConfig::new(Algorithm::Dijkstra)).unwrap();
//! assert_eq!(s.run(), Status::Found);
//! assert_eq!(s.cost(), Some(4.0));
//! ```

use super::{CellValues, EventLog, NodeTable, OpenEntry, SearchConfig, SearchError, Status, StepEvent, Task};
use crate::space::Space;

/// A search on a space of type `S`, stepped one unit of work at a time (see
/// [`Stepper`](super::Stepper) for what a unit is per algorithm).
pub trait SpaceStepper<S: Space> {
    /// Performs one step, recording what it opened and improved in `log` (which it clears
    /// first).
    fn step_logged(&mut self, log: &mut EventLog) -> StepEvent<S::At>;

    /// Goes back to step 0.
    fn reset(&mut self);

    /// The per-node state the accessors below read: states, g, parents, counters, path.
    fn nodes(&self) -> &NodeTable;

    /// Where the search stands.
    fn status(&self) -> Status {
        self.nodes().status()
    }

    /// Steps taken since step 0.
    fn steps(&self) -> usize {
        self.nodes().steps()
    }

    /// Nodes expanded.
    fn expanded(&self) -> usize {
        self.nodes().expanded()
    }

    /// Nodes on the open list(s).
    fn open_count(&self) -> usize {
        self.nodes().open_count()
    }

    /// The path's cost once found (for a walking agent: what its walk cost).
    fn cost(&self) -> Option<f64>;

    /// The path once found, as node numbers from start to goal.
    fn path_indices(&self) -> &[u32] {
        self.nodes().path()
    }

    /// One [`CellState`](super::CellState) byte per node.
    fn states(&self) -> &[u8] {
        self.nodes().state()
    }

    /// The best cost known to each node (infinite where unknown).
    fn g_values(&self) -> &[f64] {
        self.nodes().g()
    }

    /// Each node's parent, or [`NO_PARENT`](super::NO_PARENT).
    fn parents(&self) -> &[u32] {
        self.nodes().parent()
    }

    /// The estimate this search uses from `node` to the goal (0 for those that use none).
    fn h_of(&self, node: u32) -> f64;

    /// The space searched.
    fn space(&self) -> &S;

    /// What the search is asked: its ends and settings.
    fn task(&self) -> Task;

    /// The start node.
    fn start_node(&self) -> u32 {
        self.task().start
    }

    /// The goal node.
    fn goal_node(&self) -> u32 {
        self.task().goal
    }

    /// The settings.
    fn config(&self) -> SearchConfig {
        self.task().config
    }

    /// Moves the start and goal; back to step 0.
    fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError>;

    /// Replaces the space after an edit; `changed` lists the nodes whose edges (in or out)
    /// changed. Back to step 0, except for the incremental searches, which keep their steps
    /// and repair in the steps that follow.
    fn edit_space(&mut self, space: S, changed: &[u32]) -> Result<(), SearchError>;

    /// The open list in the order the search will take its nodes off, at most `limit`
    /// entries (see [`Stepper::open_entries`](super::Stepper::open_entries)).
    fn open_entries(&self, limit: usize) -> Vec<OpenEntry>;

    /// A second number per node worth showing beside g (LPA*'s rhs, LRTA*'s learned h).
    fn cell_values(&self) -> Option<CellValues<'_>> {
        None
    }

    /// Where the walking agent stands, for the algorithms that have one.
    fn agent_node(&self) -> Option<u32> {
        None
    }

    /// Why the search gave up without an answer although the goal may be reachable.
    fn gave_up(&self) -> Option<String> {
        None
    }

    /// A copy at the same step.
    fn boxed_clone(&self) -> Box<dyn SpaceStepper<S>>;

    /// Performs one step without recording: what `advance`, `run` and `seek` use.
    fn step(&mut self) -> StepEvent<S::At>;

    /// Runs `n` steps, or fewer if the search finishes; returns how many were taken.
    fn advance(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n && !self.status().is_finished() {
            self.step();
            done += 1;
        }
        done
    }

    /// Runs to the end and returns the final status.
    fn run(&mut self) -> Status {
        while !self.status().is_finished() {
            self.step();
        }
        self.status()
    }

    /// Puts the search at step `k` (or at its end, if it finishes sooner) by replay.
    fn seek(&mut self, k: usize) {
        if k < self.steps() {
            self.reset();
        }
        let remaining = k - self.steps();
        self.advance(remaining);
    }
}

/// Writes the three [`SpaceStepper`] methods that are the same for every search with an
/// inherent `step_with(&mut recorder)` and [`Clone`]: `step_logged` (clear the log, then step
/// recording into it), `step` (step with [`NoRecord`](super::NoRecord), which costs nothing)
/// and `boxed_clone`. Used inside `impl SpaceStepper<$space> for ...`, naming the space type.
macro_rules! steps_through_step_with {
    ($space:ty) => {
        fn step_logged(
            &mut self,
            log: &mut $crate::search::EventLog,
        ) -> $crate::search::StepEvent<<$space as $crate::space::Space>::At> {
            log.clear();
            self.step_with(log)
        }

        fn step(&mut self) -> $crate::search::StepEvent<<$space as $crate::space::Space>::At> {
            self.step_with(&mut $crate::search::NoRecord)
        }

        fn boxed_clone(&self) -> Box<dyn $crate::search::SpaceStepper<$space>> {
            Box::new(self.clone())
        }
    };
}
pub(crate) use steps_through_step_with;

impl<S: Space> Clone for Box<dyn SpaceStepper<S>> {
    fn clone(&self) -> Self {
        self.as_ref().boxed_clone()
    }
}
