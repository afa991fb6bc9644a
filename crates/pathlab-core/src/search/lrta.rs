//! LRTA* (learning real-time A*) and RTA* (real-time A*): an agent that sees only the nodes
//! a few moves around it, commits to one move at a time, and learns better estimates of the
//! nodes it leaves.
//!
//! Both run in one stepper, [`Lrta`]; `config.algorithm` picks the rule that updates the
//! estimate ([`Algorithm::Lrta`] or [`Algorithm::Rta`]). It runs on the square grid
//! ([`Lrta::new`]) and on any other [`Space`] ([`Lrta::on`]): hex tiles, weighted graphs,
//! teleports, slopes. A move is one edge of the space; on the grid, one cell.
//!
//! # One step = one move
//!
//! The agent stands on `s` and every node has a learned estimate `h` of its cost to the
//! goal, which starts as `weight x heuristic` (the space's estimate; on the grid the
//! settings' heuristic, in the cost model's units). One step:
//!
//! 1. **Look ahead** `d = config.lookahead` moves (a depth-limited search of the nodes the
//!    agent can reach in `d` moves). The value of a first move to a neighbour `n` is
//!    `c(s, n) + V(d - 1, n)`, where `V(0, x) = h(x)`, `V(k, goal) = 0`, and otherwise
//!    `V(k, x) = max(h(x), min over moves x -> y of c(x, y) + V(k - 1, y))`. With `d = 1`
//!    that is the textbook `c(s, n) + h(n)`. Deeper, it is Korf's minimin look-ahead: the
//!    cheapest `d`-move walk from `s` (walks may turn back; they stop at the goal) plus the
//!    estimate where it ends, with one safeguard: a node's value never drops below its own
//!    estimate (`max(h(x), ...)`, "pathmax"). That changes nothing when the estimates are
//!    consistent, and keeps the proof below true when learning has made them inconsistent.
//! 2. **Learn**: update the estimate of `s` from the first-move values.
//!    - LRTA*: `h(s) = max(h(s), best value)`. It never lowers an estimate.
//!    - RTA*: `h(s) = the second-best value` (the best of the other first moves), which may
//!      raise or lower it, and may overestimate: it is the cost of coming back to `s` and
//!      leaving by another move. When `s` has only one move, the second-best value is
//!      infinite (`∞`): there is no other way out of `s`, so a dead end is never worth
//!      coming back to. The read-out then shows `∞` for it. That reasoning (Korf's) needs
//!      moves that can be undone: the agent comes back to `s` only from a node it can move
//!      to. So RTA* stores the second-best value where the nodes with edges into `s` are
//!      exactly those `s` has moves to (every node of the grid, hex tiles, slopes and
//!      undirected graphs), and the best value elsewhere: at a node with a one-way edge in or
//!      out, the agent may come back from elsewhere and need the best move again. (With the
//!      second-best value there, a node whose other moves lead into dead ends would be
//!      valued `∞` and never entered again, though the only way to the goal runs through
//!      it.)
//! 3. **Move** one edge, along the best first move. Ties (values within a relative 1e-9 of
//!    each other, to absorb rounding) go to the first move in the space's order: on the
//!    grid N, E, S, W, then NE, SE, SW, NW.
//!
//! A move is an edge: two parallel edges to the same neighbour are two moves (with their
//! own costs), and a self-loop is not a move at all (it would leave the agent where it is).
//!
//! The step that moves onto the goal ends the walk: status [`Found`](Status::Found), and
//! [`cost`](Lrta::cost) is the cost walked (terrain included).
//!
//! # No path, the trap and the move limit
//!
//! The agent cannot tell an unreachable goal from a far one, so the stepper checks first:
//! whenever the space or the ends change, one flood fill backwards from the goal marks the
//! nodes from which the goal can be reached. If the start is not one of them, the first step
//! ends the search with [`NoPath`](Status::NoPath) without moving, and the overlay's
//! `"no path"` note says why.
//!
//! Where every move can be undone (the grid, hex tiles, slopes, undirected graphs) the agent
//! never leaves those nodes. A one-way edge (a directed graph, a teleport) can lead it to a
//! node from which the goal cannot be reached; it cannot see that far, so it takes it. The
//! step that moves onto such a node ends the walk: status [`NoPath`](Status::NoPath), and
//! [`gave_up`](Lrta::gave_up) says where it is stuck.
//!
//! Otherwise LRTA* always gets there when costs are positive. With an admissible start
//! (`h <= h*`, the true cost, at every node) the learned estimates stay admissible (the
//! look-ahead value of a first move is at most its true cost), and the cost walked is at
//! most `sum over nodes x reachable from the start of (h*(x) - h0(x))`, plus `h0(start)`, where
//! `h0` is the starting estimate: each move lowers `sum (h* - h) + h(agent)` by at least its
//! own cost, and that sum never goes below zero. The tests check this bound.
//! RTA* also always arrives (Korf, 1990), with no such bound. Edges that cost 0 break both
//! proofs: two nodes joined by a free edge, each the other's best move, send the agent back
//! and forth without raising either estimate. For that, and in case a walk is still very
//! long (a weighted or overestimating start, a huge map), the agent stops after
//! [`DEFAULT_MOVE_LIMIT`] moves (or the limit set by [`Lrta::with_move_limit`]): status
//! [`NoPath`](Status::NoPath), and [`gave_up`](Lrta::gave_up) says why.
//!
//! # Trials
//!
//! [`next_trial`](Lrta::next_trial) sends the agent back to the start and keeps what it
//! learned. With an admissible start, LRTA*'s walks then converge, trial after trial, to a
//! cheapest path (Korf, 1990). RTA*'s learned values may overestimate, so its trials need not.
//!
//! # What the page sees
//!
//! - [`states`](Lrta::states): `Closed` for every node the agent has stood on, `Open` for the
//!   nodes the last look-ahead examined (even if stood on before), `Current` for the agent.
//! - [`g_values`](Lrta::g_values) and [`parents`](Lrta::parents): the last look-ahead's own
//!   search: the cheapest cost from the agent's previous node to each examined node in at
//!   most `d` moves, and the node before it on that walk. Infinite (no parent) elsewhere.
//! - [`learned`](Lrta::learned), shown as the cell values (label `"learned h"`, painted as a
//!   heat map): the learned estimates.
//! - [`path_indices`](Lrta::path_indices): the trail so far, start first, repeats included
//!   (at every step, not only once found).
//! - [`agent_node`](Lrta::agent_node) (on the grid [`agent`](Lrta::agent): where the agent
//!   is, moves, cost walked, revisits).
//! - [`expanded`](Lrta::expanded): nodes whose moves a look-ahead examined, over all steps
//!   (one per step with `d = 1`); [`open_count`](Lrta::open_count): the nodes the last
//!   look-ahead examined.
//! - On the grid, the overlay: the agent ([`MarkKind::Agent`](super::MarkKind::Agent)), the
//!   trail ([`LineKind::Trail`](super::LineKind::Trail), the last 4,096 moves, with a note when
//!   some are left out), the cells stood on more than
//!   once ([`MarkKind::Revisited`](super::MarkKind::Revisited)), the look-ahead's bounding
//!   box ([`BoxKind::Lookahead`]), and notes: the rule, the look-ahead, the last update
//!   (`"raised h at (3,0): 3 -> 5"`), moves, cost walked and revisits.
//!
//! Every choice is deterministic, so stepping back (replay from step 0) lands in the same
//! state.

use super::engine::{check_ends, stroke_then_restart};
use super::explorer::Known;
use super::on_space::{holds_space_and_task, steps_through_step_with};
use super::stepper::{Agent, BoxKind, CellValues, Overlay, OverlayBox};
use super::task::Task;
use super::walk::{self, number, Walk};
use super::{
    Algorithm, CellState, GridStepper, NodeTable, OpenEntry, Recorder, SearchConfig, SearchError, SpaceStepper, Status,
    StepEvent, NO_PARENT,
};
use crate::grid::{Grid, Point, GROUND, WALL};
use crate::space::{OnGrid, Space, SquareGrid};

/// The move limit unless set otherwise: far more than LRTA* needs on the course's maps and
/// on small ones, and a second or so of work, so that a page running to the end does not
/// hang on a huge map.
pub const DEFAULT_MOVE_LIMIT: usize = 1_000_000;

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;

/// Marks a node outside the current look-ahead.
const NONE: u32 = u32::MAX;

/// How the agent's estimate is updated after a look-ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// LRTA*: `h(s) = max(h(s), best first-move value)`.
    Learning,
    /// RTA*: `h(s) = second-best first-move value` (infinite when there is one move); the
    /// best value at a node with a one-way edge in or out.
    SecondBest,
}

/// What the last step did to the estimate of the node the agent left. `N` is how the node
/// is given: a [`Point`] on grids, the space's [`At`](Space::At) elsewhere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Update<N = Point> {
    /// The node whose estimate was updated (where the agent stood before the move).
    pub at: N,
    /// Its estimate before.
    pub old: f64,
    /// Its estimate after.
    pub new: f64,
    /// The best first-move value (the move taken).
    pub best: f64,
    /// The best value among the other first moves (infinite when there was one move).
    pub second: f64,
}

/// The scratch of one look-ahead: the nodes examined and the moves between them.
#[derive(Clone, Debug)]
struct LookAhead {
    /// The nodes examined; the first is the agent's.
    cells: Vec<u32>,
    /// Moves from the agent to each.
    hop: Vec<u32>,
    /// `adj[adj_start[i]..adj_start[i + 1]]`: the moves out of `cells[i]` as (slot, cost),
    /// in the space's order; empty for the nodes at the depth limit and the goal.
    adj_start: Vec<u32>,
    adj: Vec<(u32, f64)>,
    /// The nodes with edges into the agent's (RTA* only).
    preds: Vec<u32>,
    value: Vec<f64>,
    next: Vec<f64>,
    g: Vec<f64>,
    g_next: Vec<f64>,
    parent: Vec<u32>,
}

impl LookAhead {
    fn new() -> Self {
        Self {
            cells: Vec::new(),
            hop: Vec::new(),
            adj_start: Vec::new(),
            adj: Vec::new(),
            preds: Vec::new(),
            value: Vec::new(),
            next: Vec::new(),
            g: Vec::new(),
            g_next: Vec::new(),
            parent: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.cells.clear();
        self.hop.clear();
        self.adj_start.clear();
        self.adj.clear();
    }

    fn moves(&self, i: usize) -> &[(u32, f64)] {
        &self.adj[self.adj_start[i] as usize..self.adj_start[i + 1] as usize]
    }
}

/// LRTA* or RTA*, one agent move per [`step`](Lrta::step), on a square grid by default or
/// on any [`Space`] (see [`Lrta::on`]). See the [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::lrta::Lrta;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status, Stepper};
/// // G # . . S     Manhattan points S west, into the dead end at (2,0);
/// // . # # # .     the way is down, along the bottom row and up (8 moves).
/// // . . . . .
/// let rows = ["G#..S", ".###.", "....."];
/// let cells = rows.iter().flat_map(|r| r.bytes().map(|b| u8::from(b != b'#'))).collect();
/// let grid = Grid::from_cells(5, 3, cells).unwrap();
/// let config = SearchConfig::new(Algorithm::Lrta).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
/// let mut s = Lrta::new(grid, Point::new(4, 0), Point::new(0, 0), config).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(18.0)); // twice into the dead end and back before it learns
/// assert_eq!(s.learned()[2], 6.0); // (2,0) started at 2
/// ```
///
/// A goal that cannot be reached ends the run at the first step:
///
/// ```
/// # use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// # use pathlab_core::search::lrta::Lrta;
/// # use pathlab_core::search::{Algorithm, SearchConfig, Status, Stepper};
/// let mut grid = Grid::new(3, 2).unwrap();
/// grid.set(Point::new(1, 1), WALL).unwrap();
/// grid.set(Point::new(2, 0), WALL).unwrap();
/// let config = SearchConfig::new(Algorithm::Lrta).diagonal(Diagonal::NoCornerCutting);
/// let mut s = Lrta::new(grid, Point::new(0, 1), Point::new(2, 1), config).unwrap();
/// assert_eq!(s.run(), Status::NoPath);
/// assert_eq!(s.steps(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Lrta<S: Space = SquareGrid> {
    space: S,
    task: Task,
    goal_at: S::At,
    rule: Rule,
    learned: Vec<f64>,
    /// Nodes whose estimate a step has set (restored on reset).
    raised: Vec<u32>,
    /// State, look-ahead cost and parent per node.
    nodes: NodeTable,
    /// Each node's place in the look-ahead, or [`NONE`].
    slot: Vec<u32>,
    /// True for the nodes from which the goal can be reached.
    to_goal: Vec<bool>,
    look: LookAhead,
    walk: Walk,
    agent: u32,
    reachable: bool,
    status: Status,
    steps: usize,
    expanded: usize,
    open: usize,
    update: Option<Update<S::At>>,
    move_limit: usize,
    gave_up: Option<String>,
    /// Under fog: the space the agent plans on, the walls out of its sight made ground
    /// (`None` without fog: it plans on `space`).
    belief: Option<S>,
    /// Under fog, what the agent has seen: one [`Known`](super::explorer::Known) byte per
    /// cell (empty without fog).
    sight: Vec<u8>,
    /// Under fog, on a grid's cells: makes the belief from the true space at step 0.
    fog_hide: Option<fn(&mut Self)>,
    /// Under fog, on a grid's cells: takes in the cells in sight of the agent; true when it
    /// learned a wall.
    fog_sense: Option<fn(&mut Self) -> bool>,
    /// Under fog: where the walls it has seen cut the goal off, if they do.
    cut_off: Option<u32>,
}

/// The update rule of an algorithm, or why it is not one this stepper runs.
fn rule_of(algorithm: Algorithm) -> Result<Rule, SearchError> {
    match algorithm {
        Algorithm::Lrta => Ok(Rule::Learning),
        Algorithm::Rta => Ok(Rule::SecondBest),
        other => Err(SearchError::Unsupported(format!(
            "{other} is not LRTA* or RTA*: build it with search::build or search::build_on"
        ))),
    }
}

impl<S: Space> Lrta<S> {
    /// Sets up LRTA* (`config.algorithm` = [`Algorithm::Lrta`]) or RTA* ([`Algorithm::Rta`])
    /// from node `start` to node `goal` of `space`, with the [`DEFAULT_MOVE_LIMIT`]. Fails
    /// when an end is not a node of the space or is a wall, a setting is out of range, or the
    /// algorithm is another one.
    ///
    /// ```
    /// use pathlab_core::search::lrta::Lrta;
    /// use pathlab_core::search::{Algorithm, SearchConfig, Status, SpaceStepper};
    /// use pathlab_core::space::Graph;
    /// // A -1- B -1- C, and a dear shortcut A -5- C. With no estimate (zero heuristic)
    /// // the agent tries the cheap edge first and learns its way along.
    /// let mut g = Graph::new(false);
    /// let a = g.add_node("A", 0.0, 0.0).unwrap();
    /// let b = g.add_node("B", 1.0, 0.0).unwrap();
    /// let c = g.add_node("C", 2.0, 0.0).unwrap();
    /// g.add_edge(a, b, 1.0, false).unwrap();
    /// g.add_edge(b, c, 1.0, false).unwrap();
    /// g.add_edge(a, c, 5.0, false).unwrap();
    /// g.set_heuristic(pathlab_core::heuristic::Heuristic::Zero);
    /// let mut s = Lrta::on(g, a, c, SearchConfig::new(Algorithm::Lrta)).unwrap();
    /// assert_eq!(s.run(), Status::Found);
    /// assert_eq!(s.path_indices(), &[a, b, c]);
    /// assert_eq!(s.cost(), Some(2.0));
    /// assert_eq!(s.learned()[a as usize], 1.0); // raised from 0 on leaving A
    /// ```
    pub fn on(space: S, start: u32, goal: u32, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        let rule = rule_of(config.algorithm)?;
        let task = Task::checked(&space, start, goal, config)?;
        let n = space.node_count();
        let goal_at = space.at(goal);
        let mut search = Self {
            space,
            task,
            goal_at,
            rule,
            learned: Vec::new(),
            raised: Vec::new(),
            nodes: NodeTable::new(n),
            slot: vec![NONE; n],
            to_goal: Vec::new(),
            look: LookAhead::new(),
            walk: Walk::new(n),
            agent: start,
            reachable: false,
            status: Status::Ready,
            steps: 0,
            expanded: 0,
            open: 0,
            update: None,
            move_limit: DEFAULT_MOVE_LIMIT,
            gave_up: None,
            belief: None,
            sight: Vec::new(),
            fog_hide: None,
            fog_sense: None,
            cut_off: None,
        };
        search.rebuild();
        search.reset();
        Ok(search)
    }

    /// The same search with another move limit (at least 1); back to step 0.
    #[must_use]
    pub fn with_move_limit(mut self, limit: usize) -> Self {
        self.move_limit = limit.max(1);
        self.reset();
        self
    }

    /// The move limit.
    pub fn move_limit(&self) -> usize {
        self.move_limit
    }

    /// The update rule: [`Rule::Learning`] for LRTA*, [`Rule::SecondBest`] for RTA*.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The starting estimate of node `i`: `weight x` the space's estimate.
    fn initial(&self, i: u32) -> f64 {
        self.task.config.weight * self.space.estimate(self.space.at(i), self.goal_at)
    }

    /// Sets every estimate to its starting value and marks the nodes from which the goal
    /// can be reached; for a new space, start or goal.
    fn rebuild(&mut self) {
        self.space.aim(self.task.goal);
        self.goal_at = self.space.at(self.task.goal);
        self.learned = (0..self.space.node_count() as u32).map(|i| self.initial(i)).collect();
        self.raised.clear();
        self.mark_to_goal();
        self.reachable = self.to_goal[self.task.start as usize];
    }

    /// One flood fill backwards from the goal (along the edges into each node).
    fn mark_to_goal(&mut self) {
        let Self { space, belief, task, goal_at, to_goal, .. } = self;
        let space = belief.as_ref().unwrap_or(space);
        to_goal.clear();
        to_goal.resize(space.node_count(), false);
        to_goal[task.goal as usize] = true;
        let mut stack = vec![(task.goal, *goal_at)];
        while let Some((node, at)) = stack.pop() {
            space.for_each_predecessor(node, at, |from, from_at, _| {
                if !to_goal[from as usize] {
                    to_goal[from as usize] = true;
                    stack.push((from, from_at));
                }
            });
        }
    }

    /// Fresh buffers for a space of `n` nodes.
    fn resize(&mut self, n: usize) {
        self.nodes = NodeTable::new(n);
        self.slot = vec![NONE; n];
        self.walk = Walk::new(n);
        self.look.clear();
        self.open = 0;
    }

    /// Puts the nodes of the last look-ahead back to how the walk leaves them.
    fn clear_look_ahead(&mut self) {
        let (state, g, parent, _) = self.nodes.parts();
        for &c in &self.look.cells {
            let c = c as usize;
            state[c] = if self.walk.visits[c] > 0 { CLOSED } else { UNSEEN };
            g[c] = f64::INFINITY;
            parent[c] = NO_PARENT;
            self.slot[c] = NONE;
        }
        self.look.clear();
        self.open = 0;
    }

    /// Goes back to step 0: the agent on the start, every estimate at its starting value.
    pub fn reset(&mut self) {
        for i in std::mem::take(&mut self.raised) {
            self.learned[i as usize] = self.initial(i);
        }
        if let Some(hide) = self.fog_hide {
            hide(self);
            self.mark_to_goal();
            self.reachable = self.to_goal[self.task.start as usize];
        }
        self.next_trial();
    }

    /// Goes back to step 0 keeping what was learned: the agent on the start for another
    /// trial, every estimate where the walks so far left it. [`reset`](Lrta::reset) (and
    /// any edit) forgets it.
    ///
    /// ```
    /// use pathlab_core::grid::{Diagonal, Grid, Point};
    /// use pathlab_core::heuristic::Heuristic;
    /// use pathlab_core::search::lrta::Lrta;
    /// use pathlab_core::search::{Algorithm, SearchConfig, Stepper};
    /// let rows = ["G#..S", ".###.", "....."];
    /// let cells = rows.iter().flat_map(|r| r.bytes().map(|b| u8::from(b != b'#'))).collect();
    /// let grid = Grid::from_cells(5, 3, cells).unwrap();
    /// let config = SearchConfig::new(Algorithm::Lrta).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
    /// let mut s = Lrta::new(grid, Point::new(4, 0), Point::new(0, 0), config).unwrap();
    /// let costs: Vec<f64> = (0..3).map(|_| { s.next_trial(); s.run(); s.cost().unwrap() }).collect();
    /// assert_eq!(costs, [18.0, 8.0, 8.0]); // the second trial walks the cheapest path
    /// ```
    pub fn next_trial(&mut self) {
        self.clear_look_ahead();
        let state = self.nodes.parts().0;
        for &c in &self.walk.stood {
            state[c as usize] = UNSEEN;
        }
        let s = self.task.start;
        self.walk.begin(s);
        self.agent = s;
        state[s as usize] = CURRENT;
        self.status = Status::Ready;
        self.steps = 0;
        self.expanded = 0;
        self.update = None;
        self.gave_up = None;
        self.cut_off = None;
    }

    /// Moves the start and goal (node numbers); the search goes back to step 0 with fresh
    /// estimates.
    pub fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError> {
        let task = Task::checked(&self.space, start, goal, self.task.config)?;
        self.reset();
        self.task = task;
        self.rebuild();
        self.reset();
        Ok(())
    }

    /// Changes the space, which must keep the start and goal; the search goes back to step 0
    /// with fresh estimates. (A space of another size gets new buffers.)
    pub fn set_space(&mut self, space: S) -> Result<(), SearchError> {
        self.task.check(&space)?;
        let n = space.node_count();
        if n == self.space.node_count() {
            self.reset();
        } else {
            self.resize(n);
        }
        self.space = space;
        self.rebuild();
        self.reset();
        Ok(())
    }

    /// Performs one step, telling `recorder` about the look-ahead: `expanded(agent's node)`,
    /// then `opened(node, parent, None, g)` for every other node examined, with its
    /// look-ahead cost and parent.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent<S::At> {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        self.clear_look_ahead();
        self.update = None;
        self.steps += 1;
        self.status = Status::Searching;
        let s = self.agent;
        let goal = self.task.goal;
        if !self.reachable {
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        if s == goal {
            self.status = Status::Found;
            return StepEvent::Found { cost: self.walk.travelled };
        }
        if self.walk.moves() >= self.move_limit {
            self.gave_up = Some(format!(
                "{} stopped at its limit of {} moves without reaching the goal, which can be \
                 reached: the agent has been walking back and forth while it learns. A deeper \
                 look-ahead, a better heuristic or a planner like A* gets there sooner",
                self.name(),
                self.move_limit
            ));
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        self.look_ahead(s);
        let moves = self.look.moves(0);
        if moves.is_empty() {
            // Cannot happen: the goal can be reached from here, so the agent has a move.
            self.gave_up = Some(format!("the agent at {} has no move", self.space.label(s)));
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        let value = |&(j, c): &(u32, f64)| c + self.look.value[j as usize];
        let mut best = 0;
        let mut best_value = value(&moves[0]);
        for (k, m) in moves.iter().enumerate().skip(1) {
            let v = value(m);
            if better(v, best_value) {
                best = k;
                best_value = v;
            }
        }
        let second =
            moves.iter().enumerate().filter(|&(k, _)| k != best).map(|(_, m)| value(m)).fold(f64::INFINITY, f64::min);
        let (next, cost) = moves[best];
        let next = self.look.cells[next as usize];
        let old = self.learned[s as usize];
        let two_way = self.rule == Rule::SecondBest && self.is_two_way(s);
        let new = match self.rule {
            Rule::Learning => old.max(best_value),
            Rule::SecondBest if two_way => second,
            Rule::SecondBest => best_value,
        };
        self.learned[s as usize] = new;
        self.raised.push(s);
        let at = self.space.at(s);
        self.update = Some(Update { at, old, new, best: best_value, second });
        // The page's buffers: the look-ahead's nodes and costs, the walk, the agent.
        recorder.expanded(s);
        let (state, g, parent, _) = self.nodes.parts();
        for i in 1..self.look.cells.len() {
            let c = self.look.cells[i] as usize;
            let p = self.look.cells[self.look.parent[i] as usize];
            state[c] = OPEN;
            g[c] = self.look.g[i];
            parent[c] = p;
            recorder.opened(c as u32, p, None, self.look.g[i]);
        }
        self.open = self.look.cells.len() - 1;
        state[s as usize] = CLOSED;
        g[s as usize] = 0.0;
        self.walk.move_to(next, cost);
        self.agent = next;
        state[next as usize] = CURRENT;
        let learned_walls = self.fog_sense.is_some_and(|sense| sense(self));
        if next == goal {
            self.status = Status::Found;
            return StepEvent::Found { cost: self.walk.travelled };
        }
        if learned_walls && self.closed_in(next) {
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        if !self.to_goal[next as usize] {
            self.gave_up = Some(format!(
                "{} moved onto {}, from which the goal cannot be reached: a one-way edge led there, \
                 and an agent that looks {} move(s) ahead cannot tell it is a trap",
                self.name(),
                self.space.label(next),
                self.task.config.lookahead
            ));
            self.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        StepEvent::Expanded(at)
    }

    /// Under fog, after learning walls: true when the walls it has seen close the agent in at
    /// `at` (the goal cannot be reached from there), which it then remembers for the overlay.
    fn closed_in(&mut self, at: u32) -> bool {
        self.mark_to_goal();
        if self.to_goal[at as usize] {
            return false;
        }
        self.cut_off = Some(at);
        true
    }

    /// True when the nodes with edges into `s` are exactly those its moves (the last
    /// look-ahead's first moves) lead to: every move out of `s` can be undone, and `s` can be
    /// entered only from them. Always so on the grid, hex tiles, slopes and undirected graphs.
    fn is_two_way(&mut self, s: u32) -> bool {
        let Self { space, look, .. } = self;
        look.preds.clear();
        let preds = &mut look.preds;
        space.for_each_predecessor(s, space.at(s), |from, _, _| {
            if from != s {
                preds.push(from);
            }
        });
        let out = &look.adj[look.adj_start[0] as usize..look.adj_start[1] as usize];
        let cells = &look.cells;
        look.preds.iter().all(|&p| out.iter().any(|&(j, _)| cells[j as usize] == p))
            && out.iter().all(|&(j, _)| look.preds.contains(&cells[j as usize]))
    }

    /// Looks `config.lookahead` moves ahead from `s`: fills `look` with the nodes examined,
    /// their first-move values (`look.value`) and their look-ahead costs and parents.
    fn look_ahead(&mut self, s: u32) {
        let depth = self.task.config.lookahead;
        let goal = self.task.goal;
        let Self { space, belief, learned, slot, look, expanded, .. } = self;
        let space = belief.as_ref().unwrap_or(space);
        let LookAhead { cells, hop, adj_start, adj, .. } = look;
        slot[s as usize] = 0;
        cells.push(s);
        hop.push(0);
        let mut i = 0;
        while i < cells.len() {
            adj_start.push(adj.len() as u32);
            let (c, h) = (cells[i], hop[i]);
            if h < depth && c != goal {
                *expanded += 1;
                space.for_each_neighbour(c, space.at(c), |nb, _, cost| {
                    if nb == c {
                        return;
                    }
                    let mut j = slot[nb as usize];
                    if j == NONE {
                        j = cells.len() as u32;
                        slot[nb as usize] = j;
                        cells.push(nb);
                        hop.push(h + 1);
                    }
                    adj.push((j, cost));
                });
            }
            i += 1;
        }
        adj_start.push(adj.len() as u32);
        let LookAhead { cells, hop, adj_start, adj, value, next, g, g_next, parent, .. } = look;
        let m = cells.len();
        let out = |i: usize| &adj[adj_start[i] as usize..adj_start[i + 1] as usize];
        // Values: V(0) is the estimate; each round extends the walks by one move.
        value.clear();
        value.extend(cells.iter().map(|&c| if c == goal { 0.0 } else { learned[c as usize] }));
        next.resize(m, 0.0);
        for k in 1..depth {
            let limit = depth - k;
            for i in 0..m {
                let c = cells[i];
                next[i] = if hop[i] <= limit && c != goal {
                    let through =
                        out(i).iter().fold(f64::INFINITY, |acc, &(j, cost)| acc.min(cost + value[j as usize]));
                    learned[c as usize].max(through)
                } else {
                    value[i]
                };
            }
            std::mem::swap(value, next);
        }
        // Costs from the agent in at most `depth` moves (Bellman-Ford rounds).
        g.clear();
        g.resize(m, f64::INFINITY);
        g[0] = 0.0;
        parent.clear();
        parent.resize(m, 0);
        for _ in 0..depth {
            g_next.clone_from(g);
            for (i, &base) in g.iter().enumerate() {
                if base.is_finite() {
                    for &(j, cost) in out(i) {
                        let j = j as usize;
                        if base + cost < g_next[j] {
                            g_next[j] = base + cost;
                            parent[j] = i as u32;
                        }
                    }
                }
            }
            std::mem::swap(g, g_next);
        }
    }

    /// "LRTA*" or "RTA*".
    fn name(&self) -> &'static str {
        match self.rule {
            Rule::Learning => "LRTA*",
            Rule::SecondBest => "RTA*",
        }
    }

    /// The learned estimate of every node (row-major on grids).
    pub fn learned(&self) -> &[f64] {
        &self.learned
    }

    /// What the last step did to the estimate of the node the agent left.
    pub fn last_update(&self) -> Option<Update<S::At>> {
        self.update
    }

    /// True when the goal can be reached from the start at all.
    pub fn is_reachable(&self) -> bool {
        self.reachable
    }

    /// The cost of the moves made so far (at every step, not only once found).
    pub fn travelled(&self) -> f64 {
        self.walk.travelled
    }

    /// Moves made so far.
    pub fn moves(&self) -> usize {
        self.walk.moves()
    }
}

impl<S: OnGrid + Clone> Lrta<S> {
    /// Sets up LRTA* or RTA* on a space made of a grid's cells, as [`Lrta::on`] does; with
    /// [`SearchConfig::fog`] and a sensor of at least 1, under fog of war: the agent starts
    /// knowing no walls out of its sensor's reach and learns each one when it comes within
    /// [`SearchConfig::sensor`] cells of it (Chebyshev distance). Its look-ahead and its
    /// check that the goal can still be reached read only what it knows; when the walls it has
    /// seen close it in, the walk ends with [`NoPath`](Status::NoPath).
    ///
    /// ```
    /// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
    /// use pathlab_core::search::lrta::Lrta;
    /// use pathlab_core::search::{Algorithm, SearchConfig, Status, Stepper};
    /// // The goal (4,0) is walled in; the fogged agent finds out only on its way.
    /// let mut grid = Grid::new(5, 5).unwrap();
    /// for p in [(3, 0), (3, 1), (4, 1)] {
    ///     grid.set(Point::new(p.0, p.1), WALL).unwrap();
    /// }
    /// let config = SearchConfig::new(Algorithm::Lrta).diagonal(Diagonal::Never).sensor(1).fog(true);
    /// let mut s = Lrta::new(grid, Point::new(0, 4), Point::new(4, 0), config).unwrap();
    /// assert_eq!(s.run(), Status::NoPath);
    /// assert!(s.moves() > 0); // it set out, and learned on the way
    /// ```
    pub fn on_cells(space: S, start: u32, goal: u32, config: SearchConfig) -> Result<Self, SearchError> {
        let mut search = Self::on(space, start, goal, config)?;
        if config.fog && config.sensor > 0 {
            search.fog_hide = Some(Self::hide_walls);
            search.fog_sense = Some(Self::sense_cells);
            search.reset();
        }
        Ok(search)
    }

    /// Under fog: the belief at step 0 (the true space with the walls out of sight of the
    /// start made ground), and what the agent has seen from the start.
    fn hide_walls(&mut self) {
        let range = self.task.config.sensor as usize;
        let start = self.space.at(self.task.start);
        let mut belief = self.space.clone();
        let n = self.space.grid().len();
        for i in 0..n {
            let p = self.space.grid().point_at(i);
            let far = p.x.abs_diff(start.x) > range || p.y.abs_diff(start.y) > range;
            if far && self.space.grid().cells()[i] == WALL {
                let _ = belief.grid_mut().set(p, GROUND);
            }
        }
        self.belief = Some(belief);
        self.sight.clear();
        self.sight.resize(n, Known::Unseen as u8);
        self.look_around(start);
    }

    /// Under fog: records the cells within sensor range of `at` as seen and puts the walls
    /// among them into the belief; true when one was new to it.
    fn look_around(&mut self, at: Point) -> bool {
        let r = self.task.config.sensor as usize;
        let Some(belief) = self.belief.as_mut() else { return false };
        let grid = self.space.grid();
        let (w, h) = (grid.width(), grid.height());
        let mut learned = false;
        for y in at.y.saturating_sub(r)..=(at.y + r).min(h - 1) {
            for x in at.x.saturating_sub(r)..=(at.x + r).min(w - 1) {
                let i = y * w + x;
                let wall = grid.cells()[i] == WALL;
                self.sight[i] = if wall { Known::Wall as u8 } else { Known::Free as u8 };
                if wall && belief.grid().cells()[i] != WALL {
                    let _ = belief.grid_mut().set(Point::new(x, y), WALL);
                    learned = true;
                }
            }
        }
        learned
    }

    /// Under fog, the grid the agent plans on: the walls it has seen, and ground where it has
    /// not looked; `None` without fog.
    pub fn belief(&self) -> Option<&Grid> {
        self.belief.as_ref().map(OnGrid::grid)
    }

    /// Under fog: takes in what the agent sees where it now stands.
    fn sense_cells(&mut self) -> bool {
        let at = self.space.at(self.agent);
        self.look_around(at)
    }
}

impl Lrta<SquareGrid> {
    /// Sets up LRTA* (`config.algorithm` = [`Algorithm::Lrta`]) or RTA*
    /// ([`Algorithm::Rta`]) on a square grid with the [`DEFAULT_MOVE_LIMIT`]. Fails when an
    /// end is outside the grid or on a wall, a setting is out of range, or the algorithm is
    /// another one.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        rule_of(config.algorithm)?;
        check_ends(&grid, start, goal)?;
        let (s, g) = (grid.index(start) as u32, grid.index(goal) as u32);
        Self::on_cells(SquareGrid::with_config(grid, &config), s, g, config)
    }
}

/// True when `v` beats `best` by more than rounding (a relative 1e-9).
#[inline]
fn better(v: f64, best: f64) -> bool {
    if best.is_finite() {
        v < best - 1e-9 * best.abs().max(1.0)
    } else {
        v < best
    }
}

impl<S: Space + Clone + 'static> SpaceStepper<S> for Lrta<S> {
    // One look-ahead, update and move (or the step that ends the walk).
    steps_through_step_with!(S);

    fn reset(&mut self) {
        Lrta::reset(self);
    }

    /// State, look-ahead cost and parent per node: the last look-ahead's cost from the
    /// agent's previous node to each node it examined, and the node before it on the
    /// cheapest walk there. The counters are the walk's.
    fn nodes(&self) -> &NodeTable {
        &self.nodes
    }

    fn status(&self) -> Status {
        self.status
    }

    fn steps(&self) -> usize {
        self.steps
    }

    /// Nodes whose moves a look-ahead examined, over all steps.
    fn expanded(&self) -> usize {
        self.expanded
    }

    /// Nodes examined by the last look-ahead, besides the agent's.
    fn open_count(&self) -> usize {
        self.open
    }

    /// The cost walked, once the agent stands on the goal.
    fn cost(&self) -> Option<f64> {
        (self.status == Status::Found).then_some(self.walk.travelled)
    }

    /// The trail so far, start first, repeats included.
    fn path_indices(&self) -> &[u32] {
        &self.walk.trail
    }

    /// The learned estimate of `node`.
    fn h_of(&self, node: u32) -> f64 {
        self.learned[node as usize]
    }

    holds_space_and_task!(S);

    /// The nodes the last look-ahead examined (those shown open), as the grid's open-list
    /// read-out lists open cells: lowest `g + weight x learned h` first, then highest g, then lowest number; at
    /// most `limit`. (A real-time agent has no open list: the next step looks ahead afresh.)
    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        let weight = self.task.config.weight;
        let (state, g, parent) = (self.nodes.state(), self.nodes.g(), self.nodes.parent());
        let entries: Vec<OpenEntry> = self
            .look
            .cells
            .iter()
            .filter(|&&c| state[c as usize] == OPEN)
            .map(|&c| {
                let i = c as usize;
                let h = self.learned[i];
                OpenEntry { cell: c, g: g[i], h, key: g[i] + weight * h, parent: parent[i] }
            })
            .collect();
        let order =
            |a: &OpenEntry, b: &OpenEntry| a.key.total_cmp(&b.key).then(b.g.total_cmp(&a.g)).then(a.cell.cmp(&b.cell));
        super::order::least(entries, limit, &order)
    }

    fn cell_values(&self) -> Option<CellValues<'_>> {
        Some(CellValues { label: "learned h", values: &self.learned, heat: true })
    }

    /// The node the agent stands on.
    fn agent_node(&self) -> Option<u32> {
        Some(self.agent)
    }

    /// Why the walk stopped without reaching a goal that could be reached from the start (the
    /// move limit, or a one-way edge into a node the goal cannot be reached from).
    fn gave_up(&self) -> Option<String> {
        self.gave_up.clone()
    }
}

impl<S: OnGrid> GridStepper for Lrta<S> {
    type Cells = S;

    /// Its open cells as A* would order them (the grid page's list, approximate).
    fn grid_open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        super::stepper::open_cells_as_astar_orders(self, limit)
    }

    /// The learned estimate at `p` (the starting one outside the grid).
    fn h(&self, p: Point) -> f64 {
        let grid = self.space.grid();
        match grid.get(p) {
            Some(_) => self.learned[grid.index(p)],
            None => self.task.config.weight * self.space.estimate(p, self.goal_at),
        }
    }

    /// Sets every listed cell to `value` as a brush stroke does; when any changed, the search
    /// goes back to step 0, forgets what it learned and checks again whether the goal can be
    /// reached. Every value is accepted: terrain only makes moves dearer.
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        let changed = stroke_then_restart(self, cells, value, |s| s.space.grid_mut());
        if changed > 0 {
            self.rebuild();
        }
        Ok(changed)
    }

    /// The walking agent.
    fn agent(&self) -> Option<Agent> {
        Some(self.walk.agent(self.space.grid()))
    }

    /// Under fog, what the agent has seen.
    fn sensed(&self) -> Option<&[u8]> {
        (!self.sight.is_empty()).then_some(self.sight.as_slice())
    }

    /// The overlay: agent, trail, revisited cells, the look-ahead's box and the notes.
    fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        let rule = match self.rule {
            Rule::Learning => "LRTA*: h = max(h, best look-ahead value)",
            Rule::SecondBest => "RTA*: h = second-best look-ahead value",
        };
        overlay.notes.push(("rule", rule.to_string()));
        if self.look.cells.len() > 1 {
            let mut min = self.space.at(self.look.cells[0]);
            let mut max = min;
            for &c in &self.look.cells {
                let p = self.space.at(c);
                min = Point::new(min.x.min(p.x), min.y.min(p.y));
                max = Point::new(max.x.max(p.x), max.y.max(p.y));
            }
            overlay.boxes.push(OverlayBox { min, max, kind: BoxKind::Lookahead });
        }
        overlay
            .notes
            .push(("look-ahead", format!("{} move(s) deep, {} cells examined", self.task.config.lookahead, self.open)));
        if let Some(u) = self.update {
            let text = if u.new > u.old {
                format!("raised h at {}: {} -> {}", u.at, number(u.old), number(u.new))
            } else if u.new < u.old {
                format!("lowered h at {}: {} -> {}", u.at, number(u.old), number(u.new))
            } else {
                format!("kept h at {}: {}", u.at, number(u.old))
            };
            overlay.notes.push(("update", text));
        }
        self.walk.draw(&mut overlay);
        if !self.sight.is_empty() {
            let (_, walls) = super::explorer::tally(&self.sight);
            overlay.notes.push(("fog", format!("it has seen {walls} walls; it plans the rest as open ground")));
        }
        if let Some(at) = self.cut_off {
            overlay.notes.push((
                "no path",
                format!("the walls it has seen close it in at {}: the goal cannot be reached", self.space.at(at)),
            ));
        }
        let unreachable = self.status == Status::NoPath && !self.reachable;
        walk::note_outcome(
            &mut overlay,
            unreachable,
            (self.space.at(self.task.start), self.goal_at),
            self.task.config.diagonal,
            self.gave_up.as_deref(),
        );
        overlay
    }
}
