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
//!   stops (a real "no path", not [`gave_up`](Stepper::gave_up)); the overlay says from where.
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
//! [`reset`](DStarLite::reset) and [`set_ends`](DStarLite::set_ends) go to step 0 on the
//! latest painted map (which becomes the agent's belief) and forget the log.
//!
//! # What the page sees
//!
//! - [`states`](DStarLite::states): `open`, `closed` and `current` for the backward search as
//!   in LPA*; `path` for the trail walked and the plan ahead.
//! - [`path_indices`](DStarLite::path_indices): the cells walked so far (start to agent),
//!   followed by the plan from the agent to the goal while the plan is consistent.
//! - [`g_values`](DStarLite::g_values): the cost to the goal as planned;
//!   [`cell_values`](Stepper::cell_values): `rhs`; [`parents`](DStarLite::parents): the
//!   neighbour each `rhs` came from (the next cell towards the goal).
//! - [`agent`](DStarLite::agent): where it stands, its moves, the cost walked and its
//!   revisits; [`cost`](DStarLite::cost) once found: the cost walked.
//! - [`repair`](DStarLite::repair): the cells the agent last discovered, the expansions since
//!   then, and what a fresh A* on its belief at that time would expand from where it stood.
//! - The overlay: the agent, its trail (a line per move), the cells it discovered in the last
//!   step, its sensor range (when the sensor is at least 1, clipped to the grid) and the
//!   inconsistent cells (at most 5,000).

use super::engine::check_ends;
use super::incremental::{
    check_config, incremental_run_methods, incremental_stepper_methods, mark_inconsistent, stroke, Core, Direction,
    EditLog, RepairRecord,
};
use super::stepper::{
    Agent, BoxKind, CellValues, LineKind, MarkKind, Overlay, OverlayBox, OverlayLine, OverlayMark, Repair,
};
use super::{Algorithm, EventLog, NoRecord, Recorder, SearchConfig, SearchError, Status, StepEvent, Stepper};
use crate::grid::{Grid, Point, WALL};

/// D* Lite, one ComputeShortestPath iteration or one agent move per
/// [`step`](DStarLite::step). See the [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::dstar_lite::DStarLite;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status};
/// let config = SearchConfig::new(Algorithm::DStarLite)
///     .diagonal(Diagonal::Never)
///     .heuristic(Heuristic::Manhattan)
///     .sensor(1);
/// let mut s = DStarLite::new(Grid::new(5, 3).unwrap(), Point::new(0, 1), Point::new(4, 1), config).unwrap();
/// s.advance(6); // plan, then start walking
/// // A wall appears ahead; the agent sees it only when next to it, and walks round.
/// s.paint([Point::new(3, 1)], WALL);
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(6.0));
/// assert_eq!(s.repair().unwrap().changed, 1);
/// ```
#[derive(Clone, Debug)]
pub struct DStarLite {
    /// The plan, on the agent's belief.
    core: Core,
    /// The grid as it is.
    truth: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    log: EditLog,
    status: Status,
    steps: usize,
    agent: Point,
    /// Where the agent stood when it last took in new walls.
    last: Point,
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
    /// Cells discovered in the last step (or paint).
    discovered: Vec<u32>,
    repair: Option<RepairRecord>,
}

impl DStarLite {
    /// Sets up an agent at `start` heading for `goal` on `grid`. Fails when either end is
    /// outside the grid or on a wall, the weight is not 1, or the heuristic may overestimate.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        check_config(&config, Algorithm::DStarLite)?;
        check_ends(&grid, start, goal)?;
        let n = grid.len();
        let mut search = Self {
            core: Core::new(grid.clone(), &config, Direction::Backward),
            truth: grid.clone(),
            start,
            goal,
            config,
            log: EditLog::new(grid),
            status: Status::Ready,
            steps: 0,
            agent: start,
            last: start,
            travelled: 0.0,
            moves: 0,
            revisits: 0,
            visited: vec![false; n],
            path: Vec::new(),
            trail: 0,
            planned: false,
            pending: Vec::new(),
            is_pending: vec![false; n],
            discovered: Vec::new(),
            repair: None,
        };
        search.restart();
        Ok(search)
    }

    /// Step 0 on the grids held (the truth and the belief, which are then the same).
    fn restart(&mut self) {
        self.core.reset(self.goal, self.start);
        for &c in &self.path[..self.trail] {
            self.visited[c as usize] = false;
        }
        for &c in &self.pending {
            self.is_pending[c as usize] = false;
        }
        self.pending.clear();
        self.agent = self.start;
        self.last = self.start;
        self.travelled = 0.0;
        self.moves = 0;
        self.revisits = 0;
        let s = self.index(self.start);
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

    fn index(&self, p: Point) -> u32 {
        self.truth.index(p) as u32
    }

    /// Goes back to step 0 on the latest painted map (the agent's new belief), forgetting the
    /// edit log.
    pub fn reset(&mut self) {
        self.log.forget();
        self.truth.clone_from(&self.log.latest);
        self.core.grid.clone_from(&self.log.latest);
        self.restart();
    }

    /// Goes back to step 0 on step 0's grid, keeping the edit log for replay.
    fn rewind(&mut self) {
        self.log.rewind();
        self.truth.clone_from(&self.log.base);
        self.core.grid.clone_from(&self.log.base);
        self.restart();
        self.apply_due();
    }

    /// Sets every listed cell of the true grid to `value` as a brush stroke does (cells
    /// outside the grid are skipped, and so are the start, the goal and the agent's cell
    /// under a wall); returns how many changed. At step 0 the stroke changes the map the
    /// agent starts with; later, the agent learns of it through its sensor and repairs (see
    /// the [module documentation](self)).
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let cells: Vec<Point> = cells.into_iter().collect();
        let changed = stroke(&self.truth, &cells, value, &[self.start, self.goal, self.agent]);
        let count = changed.len();
        if count == 0 {
            return 0;
        }
        if self.steps == 0 {
            self.log.fold(&changed, value);
            self.truth.clone_from(&self.log.latest);
            self.core.grid.clone_from(&self.log.latest);
            self.restart();
        } else {
            let due = self.log.record(self.steps, changed, value);
            self.apply(due);
        }
        count
    }

    /// Makes logged edit `k` on the true grid, lets the agent sense, and settles the status.
    fn apply_one(&mut self, k: usize) {
        let mut any = false;
        let edit = &self.log.edits[k];
        for &p in &edit.cells {
            let skip = edit.value == WALL && p == self.agent;
            if skip || self.truth.get(p).is_none_or(|v| v == edit.value) {
                continue;
            }
            let _ = self.truth.set(p, edit.value);
            let i = self.truth.index(p);
            if !self.is_pending[i] {
                self.is_pending[i] = true;
                self.pending.push(i as u32);
            }
            any = true;
        }
        if !any {
            return;
        }
        self.sense();
        let a = self.index(self.agent);
        let stuck = self.core.settled(a) && self.core.g[a as usize].is_infinite();
        self.status = if self.agent == self.goal {
            Status::Found
        } else if stuck && self.status == Status::NoPath {
            Status::NoPath
        } else {
            Status::Searching
        };
    }

    /// Takes in the changes within sensor range: the belief, `km` and the `rhs` around them.
    /// Returns true when there were any.
    fn sense(&mut self) -> bool {
        let range = self.config.sensor as usize;
        let (agent, width) = (self.agent, self.truth.width());
        let mut found = Vec::new();
        let (truth, belief, is_pending) = (&self.truth, &self.core.grid, &mut self.is_pending);
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
        self.core.km +=
            self.core.heuristic.estimate(self.last.x.abs_diff(agent.x), self.last.y.abs_diff(agent.y), self.core.costs);
        self.last = agent;
        for &c in &found {
            let p = self.truth.point_at(c as usize);
            let _ = self.core.grid.set(p, self.truth.cells()[c as usize]);
        }
        self.core.cells_changed(&found);
        self.repair = Some(RepairRecord::add(self.repair.take(), self.steps, found.len(), self.core.expanded, agent));
        self.discovered.extend_from_slice(&found);
        self.forget_plan();
        true
    }

    /// Drops the plan ahead (it is rebuilt once the repair is done).
    fn forget_plan(&mut self) {
        self.planned = false;
        self.path.truncate(self.trail);
        self.core.mark_path(&self.path);
    }

    /// Builds the plan ahead when the search is settled at the agent and the goal reachable.
    fn plan(&mut self) {
        let a = self.index(self.agent);
        if self.planned || !self.core.settled(a) || self.core.g[a as usize].is_infinite() {
            return;
        }
        self.path.truncate(self.trail);
        if !self.core.walk_to_root(a, &mut self.path) {
            debug_assert!(false, "D* Lite: no way to the goal along settled cells");
            self.path.truncate(self.trail);
            return;
        }
        self.planned = true;
        self.core.mark_path(&self.path);
    }

    /// Performs one step: one ComputeShortestPath iteration while the plan is not
    /// consistent at the agent, otherwise one move (or the step that finds the goal
    /// unreachable).
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` the cell expanded and each `rhs` that changed
    /// (`opened(cell, parent, old rhs, new rhs)`); a move records nothing.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        self.steps += 1;
        self.core.clear_current();
        self.discovered.clear();
        let event = self.act(recorder);
        self.apply_due();
        event
    }

    fn act<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.agent == self.goal {
            self.status = Status::Found;
            return StepEvent::Found { cost: self.travelled };
        }
        let a = self.index(self.agent);
        if let Some(node) = self.core.expand_next(|core| core.settled(a), recorder) {
            self.status = Status::Searching;
            if self.planned {
                self.forget_plan();
            }
            self.plan();
            return StepEvent::Expanded(self.core.grid.point_at(node as usize));
        }
        if self.core.g[a as usize].is_infinite() {
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        self.plan();
        let Some(&next) = self.path.get(self.trail) else {
            // A settled plan with a finite cost always has a next cell.
            debug_assert!(false, "D* Lite: settled without a plan");
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        };
        let to = self.truth.point_at(next as usize);
        debug_assert!(self.truth.is_legal_move(self.agent, to, self.config.diagonal), "D* Lite: illegal move");
        let diagonal = to.x != self.agent.x && to.y != self.agent.y;
        self.travelled += self.config.costs.step(diagonal, self.truth.cells()[next as usize]);
        self.moves += 1;
        self.trail += 1;
        if self.visited[next as usize] {
            self.revisits += 1;
        }
        self.visited[next as usize] = true;
        self.agent = to;
        self.core.focus = to;
        self.sense();
        if to == self.goal {
            self.status = Status::Found;
            return StepEvent::Found { cost: self.travelled };
        }
        self.status = Status::Searching;
        self.plan();
        StepEvent::Expanded(to)
    }

    incremental_run_methods!();

    /// What the last discovery cost: the cells discovered, the expansions since, and a fresh
    /// A*'s expansions on the belief from where the agent stood (`None` before any).
    pub fn repair(&self) -> Option<Repair> {
        self.repair.as_ref().map(|r| r.report(self.core.expanded, &self.core.grid, self.goal, &self.config))
    }

    /// The agent: where it stands, its moves, the cost walked and its revisits.
    pub fn agent(&self) -> Agent {
        Agent { at: self.agent, moves: self.moves, travelled: self.travelled, revisits: self.revisits }
    }

    /// The grid as the agent believes it to be.
    pub fn belief(&self) -> &Grid {
        &self.core.grid
    }

    /// The key offset `km`.
    pub fn km(&self) -> f64 {
        self.core.km
    }

    /// The cells discovered in the last step (or paint), row-major.
    pub fn discovered(&self) -> &[u32] {
        &self.discovered
    }

    /// Where the search stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Steps taken since step 0.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Expansions since step 0, repairs included.
    pub fn expanded(&self) -> usize {
        self.core.expanded
    }

    /// The cost walked, once the agent stands on the goal.
    pub fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.travelled)
    }

    /// The cells walked (start to agent), then the plan to the goal when consistent.
    pub fn path_indices(&self) -> &[u32] {
        &self.path
    }

    /// One [`CellState`](super::CellState) byte per cell, row-major.
    pub fn states(&self) -> &[u8] {
        &self.core.state
    }

    /// `g` per cell: the planned cost to the goal (infinite where not settled).
    pub fn g_values(&self) -> &[f64] {
        &self.core.g
    }

    /// The neighbour each cell's `rhs` came from (its next cell towards the goal), or
    /// [`NO_PARENT`](super::NO_PARENT).
    pub fn parents(&self) -> &[u32] {
        &self.core.parent
    }

    /// The overlay: agent, trail, discoveries, sensor range, inconsistent cells and notes.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        let a = self.index(self.agent);
        overlay.marks.push(OverlayMark { cell: a, kind: MarkKind::Agent });
        overlay.lines.extend(self.path[..self.trail].windows(2).map(|w| OverlayLine {
            from: w[0],
            to: w[1],
            kind: LineKind::Trail,
        }));
        overlay.marks.extend(self.discovered.iter().map(|&cell| OverlayMark { cell, kind: MarkKind::Discovered }));
        let r = self.config.sensor as usize;
        if r > 0 {
            let min = Point::new(self.agent.x.saturating_sub(r), self.agent.y.saturating_sub(r));
            let max = Point::new(
                (self.agent.x + r).min(self.truth.width() - 1),
                (self.agent.y + r).min(self.truth.height() - 1),
            );
            overlay.boxes.push(OverlayBox { min, max, kind: BoxKind::Sensor });
        }
        mark_inconsistent(&self.core, &mut overlay);
        overlay.notes.push(("agent", format!("{} after {} moves", self.agent, self.moves)));
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
            overlay.notes.push(("unreachable", format!("the goal became unreachable from {}", self.agent)));
        }
        overlay
    }
}

impl Stepper for DStarLite {
    incremental_stepper_methods!(DStarLite);

    /// The estimate D* Lite's keys use: between `p` and the agent (its search runs from the
    /// goal towards the agent).
    fn h(&self, p: Point) -> f64 {
        self.core.h(p)
    }

    fn grid(&self) -> &Grid {
        &self.truth
    }

    fn agent(&self) -> Option<Agent> {
        Some(DStarLite::agent(self))
    }
}
