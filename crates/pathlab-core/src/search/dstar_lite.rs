//! D* Lite: an agent walks from the start to the goal through a map it only partly knows,
//! and when it sees walls it did not expect it repairs its plan instead of planning again.
//!
//! The plan is LPA* run *backward*, from the goal towards the agent: `g(s)` is the cost
//! from `s` to the goal, `rhs(s)` the cheapest move from `s` plus the `g` of the cell it
//! reaches (0 at the goal), and the key of `s` is
//! `[min(g, rhs) + h(agent, s) + km; min(g, rhs)]`, where `h` estimates the cost between the
//! agent and `s`. Because the agent moves, the estimates in queued keys go stale; instead of
//! re-keying the whole queue, D* Lite adds `km += h(last, agent)` each time it takes in new
//! walls (`last` being where the agent stood the previous time), which keeps every queued key
//! a lower bound of its true key. A stale key taken off the queue is replaced by the current
//! one and the cell goes back; that is bookkeeping, not an expansion.
//!
//! # One step
//!
//! - While the plan is not consistent at the agent (the agent's `g` and `rhs` differ, or a
//!   queued key comes before the agent's), one step is one ComputeShortestPath iteration
//!   (see [`lpa`](super::lpa) for what an expansion does).
//! - Otherwise one step is one move: the agent goes to the neighbour minimising the move
//!   plus that neighbour's `g` (the first such in the order N, E, S, W, NE, SE, SW, NW),
//!   then senses. The step that reaches the goal returns [`Found`](StepEvent::Found); the
//!   move steps before it return [`Expanded`](StepEvent::Expanded) with the cell moved to.
//! - When the plan is consistent and the agent's `g` is infinite, the goal is unreachable as
//!   far as the agent knows: the step returns [`NoPath`](StepEvent::NoPath) and the agent
//!   stops (a real "no path", not [`gave_up`](super::Stepper::gave_up)); the overlay says from where.
//!
//! Ties on the queue go as in LPA*: first part, then second part (smaller first), then the
//! cell that got its key first.
//!
//! # What the agent knows
//!
//! Its belief starts as the grid at step 0. Cells painted later ([`paint`](DStarLite::paint):
//! walls added or removed, terrain) change the true grid only; the agent learns of a change
//! when the cell is within [`SearchConfig::sensor`] cells of it (Chebyshev distance), at once
//! if it is within range when painted, else on arriving within range. A sensor of 0 sees every
//! change at once. What it learns updates its belief and the `rhs` of the changed cells and
//! their eight neighbours. A sensor of at least 1 covers every cell a move depends on (the
//! cell entered and, for a diagonal, the two beside it), so every move is legal on the true
//! grid. Walls are never painted over the start, the goal or the agent.
//!
//! Edits are logged and replayed like LPA*'s (see [`lpa`](super::lpa)): going back before an
//! edit replays from step 0's grid with the edits made at the same steps;
//! [`reset`](DStarLite::reset) and [`set_ends`](super::Stepper::set_ends) go to step 0 on the
//! latest painted map (which becomes the agent's belief) and forget the log.
//!
//! # What the page sees
//!
//! - [`states`](DStarLite::states): `open`, `closed` and `current` for the backward search as
//!   in LPA*; `path` for the trail walked and the plan ahead.
//! - [`path_indices`](DStarLite::path_indices): the cells walked so far (start to agent),
//!   followed by the plan from the agent to the goal while the plan is consistent.
//! - [`g_values`](DStarLite::g_values): the cost to the goal as planned;
//!   [`cell_values`](super::Stepper::cell_values): `rhs`; [`parents`](super::SpaceStepper::parents): the
//!   neighbour each `rhs` came from (the next cell towards the goal).
//! - [`agent`](DStarLite::agent): where it stands, its moves, the cost walked and its
//!   revisits; [`cost`](DStarLite::cost) once found: the cost walked.
//! - [`repair`](DStarLite::repair): the cells the agent last discovered, the expansions since
//!   then, and what a fresh A* on its belief at that time would expand from where it stood.
//! - The overlay: the agent, its trail (a line per move), the cells it discovered in the last
//!   step, its sensor range (when the sensor is at least 1, clipped to the grid) and the
//!   inconsistent cells (at most 5,000).
//!
//! # On any space
//!
//! [`DStarLite::on`] runs on any [`Space`]: `rhs(u)` is the least `c(u, v) + g(v)` over the
//! edges `u -> v` out of `u` ([`for_each_neighbour`](Space::for_each_neighbour)), an
//! overconsistent node offers its `g` along the edges into it
//! ([`for_each_predecessor`](Space::for_each_predecessor)), the agent moves along the edge
//! minimising `c + g` (the first such in the space's order) and pays what that edge costs in
//! the true space, and `h` is the space's estimate from the agent to each node. The estimate
//! must never overestimate and be consistent, and every edge must cost more than 0 (a space
//! with a free edge is refused; see `search/incremental.rs`).
//!
//! [`edit_space`](DStarLite::edit_space) changes the true space; what the agent learns of it
//! is what the sensor means on a space that is not a grid:
//! - The agent takes in an edit, whole, once one of its changed nodes lies within
//!   [`SearchConfig::sensor`] edges of where it stands (edges either way, counted in the true
//!   space): at once if one does when the edit is made, else on arriving within range. A
//!   sensor of 0 takes in every edit at once.
//! - Edits are taken in in the order they were made: taking one in takes in the ones before it
//!   too (its space is the true space as it was after it, which holds them).
//! - Taking edits in updates `km`, replaces the believed space, re-derives `rhs` of the
//!   changed nodes and of the nodes with edges into them (before and after), and works out
//!   every queued key again, since the estimate may have changed with the edges.
//! - The changed nodes must include both ends of every edge that changed; then the agent
//!   always takes in a change to an edge out of its own node before moving along it, so every
//!   move exists in the true space and costs what the plan says. An edit may not wall the
//!   start, the goal or the node the agent stands on.

use super::engine::{check_ends, check_node};
use super::explorer::Known;
use super::incremental::{
    check_config, check_costs, check_space_config, mark_inconsistent, stroke, Change, Core, Direction, EditLog,
    RepairRecord,
};
use super::on_space::steps_through_step_with;
use super::stepper::{
    Agent, BoxKind, CellValues, LineKind, MarkKind, Overlay, OverlayBox, OverlayLine, OverlayMark, Repair,
};
use super::task::Task;
use super::{
    Algorithm, GridStepper, NodeTable, OpenEntry, Recorder, SearchConfig, SearchError, SpaceStepper, Status, StepEvent,
};
use crate::grid::{Grid, Point, GROUND, WALL};
use crate::space::{OnGrid, Space, SquareGrid};

/// Makes a logged stroke on the true space's cells, sparing a wall over the agent's node;
/// returns the cells that changed. Set by the constructors on a grid's cells.
type PaintTruth<S> = fn(&mut S, &[Point], u8, u32) -> Vec<u32>;

/// D* Lite, one ComputeShortestPath iteration or one agent move per
/// [`step`](DStarLite::step). See the [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::dstar_lite::DStarLite;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status, Stepper};
/// let config = SearchConfig::new(Algorithm::DStarLite)
///     .diagonal(Diagonal::Never)
///     .heuristic(Heuristic::Manhattan)
///     .sensor(1);
/// let mut s = DStarLite::new(Grid::new(5, 3).unwrap(), Point::new(0, 1), Point::new(4, 1), config).unwrap();
/// s.advance(6); // plan, then start walking
/// // A wall appears ahead; the agent sees it only when next to it, and walks round.
/// s.paint(&[Point::new(3, 1)], WALL).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(6.0));
/// assert_eq!(s.repair().unwrap().changed, 1);
/// ```
#[derive(Clone, Debug)]
pub struct DStarLite<S: Space = SquareGrid> {
    /// The plan, on the agent's belief.
    core: Core<S>,
    /// The space as it is.
    truth: S,
    task: Task,
    log: EditLog<S>,
    /// How a logged stroke is made, for spaces made of a grid's cells.
    paint_truth: Option<PaintTruth<S>>,
    /// How the agent takes in painted cells, for spaces made of a grid's cells.
    sense_cells: Option<fn(&mut Self) -> bool>,
    /// Under fog, on a grid's cells: hides the walls out of sight of the start from the belief
    /// and returns them (set by [`DStarLite::on_grid`]).
    hide_walls: Option<fn(&mut Self) -> Vec<u32>>,
    /// Under fog, what the agent has seen: one [`Known`] byte per cell (empty without fog).
    sight: Vec<u8>,
    status: Status,
    steps: usize,
    agent: u32,
    /// Where the agent stood when it last took in changes.
    last: u32,
    travelled: f64,
    moves: usize,
    revisits: usize,
    visited: Vec<bool>,
    /// The trail (`path[..trail]`, ending at the agent), then the plan ahead when known.
    path: Vec<u32>,
    trail: usize,
    planned: bool,
    /// Cells whose true value may differ from the belief.
    pending: Vec<u32>,
    is_pending: Vec<bool>,
    /// Strokes made since step 0.
    strokes: usize,
    /// Space edits not yet taken in: the true space after each, and the nodes it changed.
    waiting: Vec<(S, Vec<u32>)>,
    /// `near[node] == stamp` for the nodes within sensor range (found by a breadth-first walk).
    near: Vec<u32>,
    stamp: u32,
    /// Nodes discovered in the last step (or edit).
    discovered: Vec<u32>,
    repair: Option<RepairRecord>,
}

impl<S: Space + Clone> DStarLite<S> {
    /// Sets up an agent at node `start` heading for node `goal` of `space`. Fails when either
    /// is not an open node, the weight is not 1, or an edge costs 0.
    ///
    /// ```
    /// use pathlab_core::search::dstar_lite::DStarLite;
    /// use pathlab_core::search::{Algorithm, SearchConfig, Status, SpaceStepper};
    /// use pathlab_core::space::Graph;
    /// let mut g = Graph::new(false);
    /// let (a, b, c) = (g.add_node("A", 0.0, 0.0).unwrap(), g.add_node("B", 1.0, 0.0).unwrap(), g.add_node("C", 2.0, 0.0).unwrap());
    /// g.add_edge(a, b, 2.0, false).unwrap(); // edge 0
    /// g.add_edge(b, c, 3.0, false).unwrap(); // edge 1
    /// g.add_edge(a, c, 9.0, false).unwrap(); // edge 2
    /// let config = SearchConfig::new(Algorithm::DStarLite).sensor(0);
    /// let mut s = DStarLite::on(g.clone(), a, c, config).unwrap();
    /// while s.agent_node() == Some(a) {
    ///     s.step();
    /// }
    /// // At B, the way on gets dear: the agent repairs its plan and goes back by A.
    /// g.set_edge(1, 20.0, false).unwrap();
    /// s.edit_space(g, &[b, c]).unwrap();
    /// assert_eq!(s.run(), Status::Found);
    /// assert_eq!(s.cost(), Some(2.0 + 2.0 + 9.0));
    /// ```
    pub fn on(mut space: S, start: u32, goal: u32, config: SearchConfig) -> Result<Self, SearchError> {
        check_space_config(&config, Algorithm::DStarLite)?;
        let task = Task::checked(&space, start, goal, config)?;
        check_costs(&space)?;
        space.aim(goal);
        Ok(Self::build(space, task, None, None))
    }

    /// The agent at step 0 on `space` (checked and aimed).
    fn build(
        space: S,
        task: Task,
        paint_truth: Option<PaintTruth<S>>,
        sense_cells: Option<fn(&mut Self) -> bool>,
    ) -> Self {
        let n = space.node_count();
        let mut search = Self {
            core: Core::new(space.clone(), Direction::Backward),
            truth: space.clone(),
            task,
            log: EditLog::new(space),
            paint_truth,
            sense_cells,
            hide_walls: None,
            sight: Vec::new(),
            status: Status::Ready,
            steps: 0,
            agent: task.start,
            last: task.start,
            travelled: 0.0,
            moves: 0,
            revisits: 0,
            visited: vec![false; n],
            path: Vec::new(),
            trail: 0,
            planned: false,
            pending: Vec::new(),
            is_pending: vec![false; n],
            strokes: 0,
            waiting: Vec::new(),
            near: vec![0; n],
            stamp: 0,
            discovered: Vec::new(),
            repair: None,
        };
        search.restart();
        search
    }

    /// Step 0 on the spaces held (the truth and the belief, which are then the same).
    fn restart(&mut self) {
        let hidden = self.hide_walls.map_or_else(Vec::new, |hide| hide(self));
        self.core.reset(self.task.goal, self.task.start);
        for &c in &self.path[..self.trail] {
            self.visited[c as usize] = false;
        }
        for &c in &self.pending {
            self.is_pending[c as usize] = false;
        }
        self.pending.clear();
        for c in hidden {
            self.is_pending[c as usize] = true;
            self.pending.push(c);
        }
        self.strokes = 0;
        self.waiting.clear();
        self.agent = self.task.start;
        self.last = self.task.start;
        self.travelled = 0.0;
        self.moves = 0;
        self.revisits = 0;
        let s = self.task.start;
        self.visited[s as usize] = true;
        self.path.clear();
        self.path.push(s);
        self.trail = 1;
        self.planned = false;
        self.discovered.clear();
        self.repair = None;
        self.status = Status::Ready;
        self.steps = 0;
    }

    /// Goes back to step 0 on the latest edited space (the agent's new belief), forgetting
    /// the edit log.
    pub fn reset(&mut self) {
        self.log.forget();
        self.truth.clone_from(&self.log.latest);
        self.core.space.clone_from(&self.log.latest);
        self.restart();
    }

    /// Goes back to step 0 on step 0's space, keeping the edit log for replay.
    fn rewind(&mut self) {
        self.log.rewind();
        self.truth.clone_from(&self.log.base);
        self.core.space.clone_from(&self.log.base);
        self.restart();
        for k in self.log.due(self.steps) {
            self.apply_one(k);
        }
    }

    /// Moves the start and goal (node numbers); back to step 0 on the latest edited space.
    pub fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError> {
        self.task.move_ends(&mut self.log.latest, start, goal)?;
        self.reset();
        Ok(())
    }

    /// Replaces the true space after an edit; `changed` lists the nodes whose edges (in or
    /// out) changed. At step 0 the edited space is the one the agent starts with; later, the
    /// agent takes the edit in through its sensor and repairs (see the
    /// [module documentation](self)). A space with another number of nodes starts over at
    /// step 0. Fails, changing nothing, when the start, the goal or the agent's node is no
    /// longer an open node, or an edge costs 0.
    pub fn edit_space(&mut self, mut space: S, changed: &[u32]) -> Result<(), SearchError> {
        self.task.check(&space)?;
        check_node(&space, "agent", self.agent)?;
        check_costs(&space)?;
        space.aim(self.task.goal);
        if space.node_count() != self.truth.node_count() {
            let hide = self.hide_walls;
            *self = Self::build(space, self.task, self.paint_truth, self.sense_cells);
            if hide.is_some() {
                self.hide_walls = hide;
                self.restart();
            }
            return Ok(());
        }
        self.log.latest.clone_from(&space);
        if self.steps == 0 {
            self.log.forget();
            self.truth.clone_from(&space);
            self.core.space = space;
            self.restart();
        } else {
            let due = self.log.record(self.steps, Change::Space { space, changed: changed.to_vec() });
            for k in due {
                self.apply_one(k);
            }
        }
        Ok(())
    }

    /// Makes logged edit `k` on the true space, lets the agent sense, and settles the status.
    fn apply_one(&mut self, k: usize) {
        match &self.log.edits[k].change {
            Change::Cells { cells, value } => {
                let paint = self.paint_truth.expect("strokes are logged only on a grid's cells");
                let changed = paint(&mut self.truth, cells, *value, self.agent);
                if changed.is_empty() {
                    return;
                }
                for i in changed {
                    if !self.is_pending[i as usize] {
                        self.is_pending[i as usize] = true;
                        self.pending.push(i);
                    }
                }
                self.strokes += 1;
            }
            Change::Space { space, changed } => {
                self.truth.clone_from(space);
                if changed.is_empty() {
                    return;
                }
                self.waiting.push((space.clone(), changed.clone()));
            }
        }
        self.sense();
        let a = self.agent;
        let stuck = self.core.settled(a) && self.core.g()[a as usize].is_infinite();
        self.status = if self.agent == self.task.goal {
            Status::Found
        } else if stuck && self.status == Status::NoPath {
            Status::NoPath
        } else {
            Status::Searching
        };
    }

    /// Takes in the changes within sensor range: painted cells (on a grid's cells), then
    /// space edits. Returns true when there were any.
    fn sense(&mut self) -> bool {
        let cells = match self.sense_cells {
            Some(sense_cells) => sense_cells(self),
            None => false,
        };
        let edits = self.sense_edits();
        cells || edits
    }

    /// Takes in the last waiting space edit with a changed node within sensor range, and the
    /// ones before it. Returns true when there was one.
    fn sense_edits(&mut self) -> bool {
        if self.waiting.is_empty() {
            return false;
        }
        let range = self.task.config.sensor;
        let last = if range == 0 {
            Some(self.waiting.len() - 1)
        } else {
            self.mark_near(range);
            let (near, stamp) = (&self.near, self.stamp);
            self.waiting.iter().rposition(|(_, changed)| changed.iter().any(|&c| near[c as usize] == stamp))
        };
        let Some(k) = last else { return false };
        let mut changed: Vec<u32> = Vec::new();
        let mut space = None;
        for (edited, nodes) in self.waiting.drain(..=k) {
            changed.extend_from_slice(&nodes);
            space = Some(edited);
        }
        let Some(space) = space else { return false };
        super::order::sort_by(&mut changed, &Ord::cmp);
        changed.dedup();
        let (last_at, agent_at) = (self.core.space.at(self.last), self.core.space.at(self.agent));
        self.core.km += self.core.space.estimate(last_at, agent_at);
        self.last = self.agent;
        self.core.replace_space(space, &changed);
        if self.strokes > 0 {
            // Painted cells the agent had learned, or not, may differ between the old belief
            // and the edit's space: every rhs is worked out again.
            for node in 0..self.core.space.node_count() as u32 {
                self.core.update_vertex(node);
            }
        }
        self.repair =
            Some(RepairRecord::add(self.repair.take(), self.steps, changed.len(), self.core.expanded, self.agent));
        self.discovered.extend_from_slice(&changed);
        self.forget_plan();
        true
    }

    /// Marks the nodes within `range` edges of the agent (either way, in the true space).
    fn mark_near(&mut self, range: u32) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.near.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.near[self.agent as usize] = stamp;
        let mut frontier = vec![self.agent];
        let mut next = Vec::new();
        for _ in 0..range {
            let (truth, near) = (&self.truth, &mut self.near);
            for &u in &frontier {
                let mut reach = |v: u32| {
                    if near[v as usize] != stamp {
                        near[v as usize] = stamp;
                        next.push(v);
                    }
                };
                truth.for_each_neighbour(u, truth.at(u), |v, _, _| reach(v));
                truth.for_each_predecessor(u, truth.at(u), |v, _, _| reach(v));
            }
            if next.is_empty() {
                break;
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
    }

    /// Drops the plan ahead (it is rebuilt once the repair is done).
    fn forget_plan(&mut self) {
        self.planned = false;
        self.path.truncate(self.trail);
        self.core.mark_path(&self.path);
    }

    /// Builds the plan ahead when the search is settled at the agent and the goal reachable.
    fn plan(&mut self) {
        let a = self.agent;
        if self.planned || !self.core.settled(a) || self.core.g()[a as usize].is_infinite() {
            return;
        }
        self.path.truncate(self.trail);
        if !self.core.walk_to_root(a, &mut self.path) {
            debug_assert!(false, "D* Lite: no way to the goal along settled nodes");
            self.path.truncate(self.trail);
            return;
        }
        self.planned = true;
        self.core.mark_path(&self.path);
    }

    /// Performs one step, telling `recorder` the node expanded and each `rhs` that changed
    /// (`opened(node, parent, old rhs, new rhs)`); a move records nothing.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent<S::At> {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        self.steps += 1;
        self.core.clear_current();
        self.discovered.clear();
        let event = self.act(recorder);
        for k in self.log.due(self.steps) {
            self.apply_one(k);
        }
        event
    }

    fn act<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent<S::At> {
        if self.agent == self.task.goal {
            self.status = Status::Found;
            return StepEvent::Found { cost: self.travelled };
        }
        let a = self.agent;
        if let Some(node) = self.core.expand_next(|core| core.settled(a), recorder) {
            self.status = Status::Searching;
            if self.planned {
                self.forget_plan();
            }
            self.plan();
            return StepEvent::Expanded(self.core.space.at(node));
        }
        if self.core.g()[a as usize].is_infinite() {
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        self.plan();
        let Some(&next) = self.path.get(self.trail) else {
            // A settled plan with a finite cost always has a next node.
            debug_assert!(false, "D* Lite: settled without a plan");
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        };
        self.travelled += self.move_cost(next);
        self.moves += 1;
        self.trail += 1;
        if self.visited[next as usize] {
            self.revisits += 1;
        }
        self.visited[next as usize] = true;
        self.agent = next;
        self.core.set_focus(next);
        self.sense();
        if next == self.task.goal {
            self.status = Status::Found;
            return StepEvent::Found { cost: self.travelled };
        }
        self.status = Status::Searching;
        self.plan();
        StepEvent::Expanded(self.truth.at(next))
    }

    /// What the move from the agent to `next` costs in the true space (the cheapest edge).
    fn move_cost(&self, next: u32) -> f64 {
        let a = self.agent;
        let mut cost: Option<f64> = None;
        self.truth.for_each_neighbour(a, self.truth.at(a), |nb, _, c| {
            if nb == next && cost.is_none_or(|best| c < best) {
                cost = Some(c);
            }
        });
        debug_assert!(cost.is_some(), "D* Lite: a move the true space does not have");
        // Only a change the agent was not told of can leave the move out: it pays the plan.
        cost.unwrap_or_else(|| self.core.g()[a as usize] - self.core.g()[next as usize])
    }

    /// What the last discovery cost: the nodes discovered, the expansions since, and a fresh
    /// A*'s expansions on the belief from where the agent stood (`None` before any).
    pub fn repair(&self) -> Option<Repair> {
        self.repair.as_ref().map(|r| r.report(self.core.expanded, &self.core.space, self.task.goal))
    }

    /// The cost of the moves made so far.
    pub fn travelled(&self) -> f64 {
        self.travelled
    }

    /// Moves made so far.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// The space as the agent believes it to be.
    pub fn belief_space(&self) -> &S {
        &self.core.space
    }

    /// The key offset `km`.
    pub fn km(&self) -> f64 {
        self.core.km
    }

    /// The nodes discovered in the last step (or edit), in increasing order.
    pub fn discovered(&self) -> &[u32] {
        &self.discovered
    }

    /// The overlay, with `sensor` as the sensor's box when it has one.
    fn overlay_with(&self, sensor: Option<OverlayBox>) -> Overlay {
        let mut overlay = Overlay::default();
        let a = self.agent;
        overlay.marks.push(OverlayMark { cell: a, kind: MarkKind::Agent });
        overlay.lines.extend(self.path[..self.trail].windows(2).map(|w| OverlayLine {
            from: w[0],
            to: w[1],
            kind: LineKind::Trail,
        }));
        overlay.marks.extend(self.discovered.iter().map(|&cell| OverlayMark { cell, kind: MarkKind::Discovered }));
        overlay.boxes.extend(sensor);
        mark_inconsistent(&self.core, &mut overlay);
        let here = self.truth.label(a);
        overlay.notes.push(("agent", format!("{here} after {} moves", self.moves)));
        overlay.notes.push(("travelled", format!("{}", (self.travelled * 1e6).round() / 1e6)));
        overlay.notes.push(("km", format!("{}", (self.core.km * 1e6).round() / 1e6)));
        overlay.notes.push(("top key", self.core.queue.top_key().describe()));
        overlay.notes.push(("agent key", self.core.key(a).describe()));
        if let Some(repair) = self.repair() {
            overlay.notes.push(("discovered last", repair.changed.to_string()));
            overlay.notes.push(("re-expanded after discovery", repair.re_expanded.to_string()));
            overlay.notes.push(("fresh A* would expand", repair.fresh_expanded.to_string()));
        }
        if self.status == Status::NoPath {
            overlay.notes.push(("unreachable", format!("the goal became unreachable from {here}")));
        }
        overlay
    }
}

impl DStarLite<SquareGrid> {
    /// Sets up an agent at `start` heading for `goal` on `grid`. Fails when either end is
    /// outside the grid or on a wall, the weight is not 1, or the heuristic may overestimate.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        Self::on_grid(SquareGrid::with_config(grid, &config), start, goal, config)
    }
}

impl<S: OnGrid> DStarLite<S> {
    /// Sets up an agent at `start` heading for `goal` on a space made of a grid's cells, which
    /// takes the diagonal rule, costs and heuristic from `config`. Fails as
    /// [`DStarLite::new`] does.
    pub fn on_grid(mut space: S, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_config(&config, Algorithm::DStarLite)?;
        check_ends(space.grid(), start, goal)?;
        space.configure(&config);
        let (s, g) = (space.grid().index(start) as u32, space.grid().index(goal) as u32);
        space.aim(g);
        let mut search =
            Self::build(space, Task { start: s, goal: g, config }, Some(paint_truth::<S>), Some(Self::take_in_cells));
        if config.fog && config.sensor > 0 {
            search.hide_walls = Some(Self::hide_walls);
            search.restart();
        }
        Ok(search)
    }

    /// Under fog: makes the belief a map without the walls out of sight of the start (they
    /// become ground), returns those walls, and starts the record of what the agent has seen.
    fn hide_walls(&mut self) -> Vec<u32> {
        let range = self.task.config.sensor as usize;
        let start = self.truth.at(self.task.start);
        let n = self.truth.grid().len();
        self.sight.clear();
        self.sight.resize(n, Known::Unseen as u8);
        let mut hidden = Vec::new();
        for i in 0..n {
            if self.truth.grid().cells()[i] != WALL {
                continue;
            }
            let p = self.truth.grid().point_at(i);
            if p.x.abs_diff(start.x) > range || p.y.abs_diff(start.y) > range {
                let _ = self.core.space.grid_mut().set(p, GROUND);
                hidden.push(i as u32);
            }
        }
        self.look_around(start);
        hidden
    }

    /// Under fog: records every cell within sensor range of `at` as seen, free or wall.
    fn look_around(&mut self, at: Point) {
        if self.sight.is_empty() {
            return;
        }
        let r = self.task.config.sensor as usize;
        let grid = self.truth.grid();
        let (w, h) = (grid.width(), grid.height());
        for y in at.y.saturating_sub(r)..=(at.y + r).min(h - 1) {
            for x in at.x.saturating_sub(r)..=(at.x + r).min(w - 1) {
                let i = y * w + x;
                self.sight[i] = if grid.cells()[i] == WALL { Known::Wall as u8 } else { Known::Free as u8 };
            }
        }
    }

    /// Under fog, what the agent has seen (see [`Stepper::sensed`](super::Stepper::sensed)).
    pub fn sight(&self) -> Option<&[u8]> {
        (!self.sight.is_empty()).then_some(self.sight.as_slice())
    }

    /// Takes in the painted cells within sensor range (Chebyshev distance; 0 sees all): the
    /// belief, `km` and the `rhs` around them. Returns true when there were any.
    fn take_in_cells(&mut self) -> bool {
        let range = self.task.config.sensor as usize;
        let agent = self.agent_at();
        self.look_around(agent);
        let width = self.truth.grid().width();
        let mut found = Vec::new();
        let (truth, belief, is_pending) = (self.truth.grid(), self.core.space.grid(), &mut self.is_pending);
        self.pending.retain(|&c| {
            let i = c as usize;
            if truth.cells()[i] == belief.cells()[i] {
                is_pending[i] = false;
                return false;
            }
            let (x, y) = (i % width, i / width);
            if range == 0 || (x.abs_diff(agent.x) <= range && y.abs_diff(agent.y) <= range) {
                found.push(c);
                is_pending[i] = false;
                return false;
            }
            true
        });
        if found.is_empty() {
            return false;
        }
        super::order::sort_by(&mut found, &Ord::cmp);
        let last = self.core.space.at(self.last);
        self.core.km += self.core.space.estimate(last, agent);
        self.last = self.agent;
        for &c in &found {
            let value = self.truth.grid().cells()[c as usize];
            let p = self.truth.grid().point_at(c as usize);
            let _ = self.core.space.grid_mut().set(p, value);
        }
        self.core.cells_changed(&found);
        self.repair =
            Some(RepairRecord::add(self.repair.take(), self.steps, found.len(), self.core.expanded, self.agent));
        self.discovered.extend_from_slice(&found);
        self.forget_plan();
        true
    }

    fn agent_at(&self) -> Point {
        self.truth.at(self.agent)
    }

    /// The grid as the agent believes it to be.
    pub fn belief(&self) -> &Grid {
        self.core.space.grid()
    }
}

/// [`PaintTruth`] for a space made of a grid's cells.
fn paint_truth<S: OnGrid>(truth: &mut S, cells: &[Point], value: u8, agent: u32) -> Vec<u32> {
    let grid = truth.grid_mut();
    let mut changed = Vec::new();
    for &p in cells {
        let Some(v) = grid.get(p) else { continue };
        let i = grid.index(p) as u32;
        if v == value || (value == WALL && i == agent) {
            continue;
        }
        let _ = grid.set(p, value);
        changed.push(i);
    }
    changed
}

impl<S: Space + Clone + 'static> SpaceStepper<S> for DStarLite<S> {
    // One ComputeShortestPath iteration while the plan is not consistent at the agent,
    // otherwise one move (or the step that finds the goal unreachable).
    steps_through_step_with!(S);

    fn reset(&mut self) {
        DStarLite::reset(self);
    }

    fn nodes(&self) -> &NodeTable {
        &self.core.nodes
    }

    fn status(&self) -> Status {
        self.status
    }

    fn steps(&self) -> usize {
        self.steps
    }

    fn expanded(&self) -> usize {
        self.core.expanded
    }

    fn open_count(&self) -> usize {
        self.core.queue.len()
    }

    /// The cost walked, once the agent stands on the goal.
    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.travelled)
    }

    fn path_indices(&self) -> &[u32] {
        &self.path
    }

    /// Going back replays from step 0's space with the logged edits made at their steps.
    fn seek(&mut self, k: usize) {
        if k < self.steps {
            self.rewind();
        }
        self.advance(k - self.steps);
    }

    fn h_of(&self, node: u32) -> f64 {
        self.core.h(node)
    }

    fn space(&self) -> &S {
        &self.truth
    }

    fn task(&self) -> Task {
        self.task
    }

    fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError> {
        DStarLite::set_end_nodes(self, start, goal)
    }

    fn edit_space(&mut self, space: S, changed: &[u32]) -> Result<(), SearchError> {
        DStarLite::edit_space(self, space, changed)
    }

    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        self.core.open_entries(limit)
    }

    fn cell_values(&self) -> Option<CellValues<'_>> {
        Some(self.core.rhs_values())
    }

    fn agent_node(&self) -> Option<u32> {
        Some(self.agent)
    }
}

impl<S: OnGrid> GridStepper for DStarLite<S> {
    type Cells = S;

    /// Its open cells as A* would order them (the grid page's list, approximate).
    fn grid_open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        super::stepper::open_cells_as_astar_orders(self, limit)
    }

    fn h(&self, p: Point) -> f64 {
        self.core.h_at(p)
    }

    /// Sets every listed cell of the true grid to `value` as a brush stroke does (cells
    /// outside the grid are skipped, and so are the start, the goal and the agent's cell
    /// under a wall); returns how many changed. At step 0 the stroke changes the map the
    /// agent starts with; later, the agent learns of it through its sensor and repairs (see
    /// the [module documentation](self)).
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        let keep = [self.truth.at(self.task.start), self.truth.at(self.task.goal), self.agent_at()];
        let changed = stroke(self.truth.grid(), cells, value, &keep);
        let count = changed.len();
        if count == 0 {
            return Ok(0);
        }
        self.log.paint_latest(&changed, value);
        if self.steps == 0 {
            self.log.forget();
            self.truth.clone_from(&self.log.latest);
            self.core.space.clone_from(&self.log.latest);
            self.restart();
        } else {
            let due = self.log.record(self.steps, Change::Cells { cells: changed, value });
            for k in due {
                self.apply_one(k);
            }
        }
        Ok(count)
    }

    fn repair(&self) -> Option<Repair> {
        DStarLite::repair(self)
    }

    fn sensed(&self) -> Option<&[u8]> {
        self.sight()
    }

    /// The agent: where it stands, its moves, the cost walked and its revisits.
    fn agent(&self) -> Option<Agent> {
        Some(Agent { at: self.agent_at(), moves: self.moves, travelled: self.travelled, revisits: self.revisits })
    }

    /// The overlay: agent, trail, discoveries, sensor range, inconsistent cells and notes.
    fn overlay(&self) -> Overlay {
        let r = self.task.config.sensor as usize;
        let sensor = (r > 0).then(|| {
            let (agent, grid) = (self.agent_at(), self.truth.grid());
            let min = Point::new(agent.x.saturating_sub(r), agent.y.saturating_sub(r));
            let max = Point::new((agent.x + r).min(grid.width() - 1), (agent.y + r).min(grid.height() - 1));
            OverlayBox { min, max, kind: BoxKind::Sensor }
        });
        let mut overlay = self.overlay_with(sensor);
        if let Some(sight) = self.sight() {
            let (seen, walls) = super::explorer::tally(sight);
            overlay.notes.push((
                "fog",
                format!("it has seen {seen} cells, {walls} of them walls; the rest it plans as open ground"),
            ));
        }
        overlay
    }
}
