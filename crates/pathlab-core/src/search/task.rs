//! [`Task`]: what a search on a space is asked, which every [`SpaceStepper`](super::SpaceStepper) hands over.

use super::engine::check_node;
use super::{SearchConfig, SearchError};
use crate::space::Space;

/// What a search is asked to do: go from node `start` to node `goal` under `config`. Every
/// [`SpaceStepper`](super::SpaceStepper) hands one over with [`task`](super::SpaceStepper::task), from which the
/// trait reads [`start_node`](super::SpaceStepper::start_node), [`goal_node`](super::SpaceStepper::goal_node)
/// and [`config`](super::SpaceStepper::config). The space is not part of it: the incremental searches
/// keep theirs in their own way (LPA*'s in its core, D* Lite's as the truth beside the
/// agent's belief).
///
/// ```
/// use pathlab_core::search::{build_on, Algorithm, SearchConfig, Task};
/// use pathlab_core::space::Graph;
/// let mut g = Graph::new(false);
/// let (a, b) = (g.add_node("A", 0.0, 0.0).unwrap(), g.add_node("B", 1.0, 0.0).unwrap());
/// g.add_edge(a, b, 4.0, false).unwrap();
/// let s = build_on(g, a, b, SearchConfig::new(Algorithm::Ida)).unwrap();
/// assert_eq!(s.task(), Task { start: a, goal: b, config: SearchConfig::new(Algorithm::Ida) });
/// assert_eq!((s.start_node(), s.goal_node()), (a, b));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Task {
    /// The node the search starts from.
    pub start: u32,
    /// The node it looks for.
    pub goal: u32,
    /// The settings.
    pub config: SearchConfig,
}

impl Task {
    /// The task from `start` to `goal` on `space`, once both are checked to be open nodes of
    /// it; the space is aimed at the goal (see [`Space::aim`]).
    pub(crate) fn on<S: Space>(
        space: &mut S,
        start: u32,
        goal: u32,
        config: SearchConfig,
    ) -> Result<Self, SearchError> {
        let task = Self::checked(space, start, goal, config)?;
        space.aim(goal);
        Ok(task)
    }

    /// The task from `start` to `goal` on `space`, once both are checked to be open nodes of
    /// it, for a search that aims its space itself.
    pub(crate) fn checked<S: Space>(
        space: &S,
        start: u32,
        goal: u32,
        config: SearchConfig,
    ) -> Result<Self, SearchError> {
        let task = Self { start, goal, config };
        task.check(space)?;
        Ok(task)
    }

    /// Moves the ends to `start` and `goal` once both are checked to be open nodes of `space`,
    /// which is aimed at the new goal. Changes nothing on failure.
    pub(crate) fn move_ends<S: Space>(&mut self, space: &mut S, start: u32, goal: u32) -> Result<(), SearchError> {
        *self = Self::on(space, start, goal, self.config)?;
        Ok(())
    }

    /// Checks that both ends are open nodes of `space`: the start first, then the goal.
    pub(crate) fn check<S: Space>(&self, space: &S) -> Result<(), SearchError> {
        check_node(space, "start", self.start)?;
        check_node(space, "goal", self.goal)
    }
}
