//! LRTA* (learning real-time A*) and RTA* (real-time A*): an agent that sees only the cells
//! a few moves around it, commits to one move at a time, and learns better estimates of the
//! cells it leaves.
//!
//! Both run in one stepper, [`Lrta`]; `config.algorithm` picks the rule that updates the
//! estimate ([`Algorithm::Lrta`] or [`Algorithm::Rta`]).
//!
//! # One step = one move
//!
//! The agent stands on `s` and every cell has a learned estimate `h` of its cost to the
//! goal, which starts as `weight x heuristic` (the settings' heuristic, in the cost model's
//! units). One step:
//!
//! 1. **Look ahead** `d = config.lookahead` moves (a depth-limited search of the cells the
//!    agent can reach in `d` moves). The value of a first move to a neighbour `n` is
//!    `c(s, n) + V(d - 1, n)`, where `V(0, x) = h(x)`, `V(k, goal) = 0`, and otherwise
//!    `V(k, x) = max(h(x), min over moves x -> y of c(x, y) + V(k - 1, y))`. With `d = 1`
//!    that is the textbook `c(s, n) + h(n)`. Deeper, it is Korf's minimin look-ahead: the
//!    cheapest `d`-move walk from `s` (walks may turn back; they stop at the goal) plus the
//!    estimate where it ends, with one safeguard: a cell's value never drops below its own
//!    estimate (`max(h(x), ...)`, "pathmax"). That changes nothing when the estimates are
//!    consistent, and keeps the proof below true when learning has made them inconsistent.
//! 2. **Learn**: update the estimate of `s` from the first-move values.
//!    - LRTA*: `h(s) = max(h(s), best value)`. It never lowers an estimate.
//!    - RTA*: `h(s) = the second-best value` (the best of the other first moves), which may
//!      raise or lower it, and may overestimate: it is the cost of coming back to `s` and
//!      leaving by another move. When `s` has only one move, the second-best value is
//!      infinite (`∞`): there is no other way out of `s`, so a dead end is never worth
//!      coming back to. The cell read-out then shows `∞` for it.
//! 3. **Move** one cell, along the best first move. Ties (values within a relative 1e-9 of
//!    each other, to absorb rounding) go to the first move in the grid's order: N, E, S, W,
//!    then NE, SE, SW, NW.
//!
//! The step that moves onto the goal ends the walk: status [`Found`](Status::Found), and
//! [`cost`](Lrta::cost) is the cost walked (terrain included).
//!
//! # No path, and the move limit
//!
//! The agent cannot tell an unreachable goal from a far one, so the stepper checks first:
//! whenever the grid or the ends change, one flood fill from the start says whether the goal
//! can be reached at all. If not, the first step ends the search with
//! [`NoPath`](Status::NoPath) without moving, and the overlay's `"no path"` note says why.
//!
//! When it can, LRTA* always gets there on these grids (every move can be undone, and costs
//! are positive). With an admissible start (`h <= h*`, the true cost, at every cell) the
//! learned estimates stay admissible (the look-ahead value of a first move is at most its
//! true cost), and the cost walked is at most
//! `sum over cells x reachable from the start of (h*(x) - h0(x))`, plus `h0(start)`, where `h0`
//! is the starting estimate: each move lowers `sum (h* - h) + h(agent)` by at least its own
//! cost, and that sum never goes below zero. The tests check this bound.
//! RTA* also always arrives (Korf, 1990), with no such bound. In case a walk is still very
//! long (a weighted or overestimating start, a huge map) the agent stops after
//! [`DEFAULT_MOVE_LIMIT`] moves (or the limit set by [`Lrta::with_move_limit`]): status
//! [`NoPath`](Status::NoPath), and [`gave_up`](Lrta::gave_up) says why.
//!
//! # What the page sees
//!
//! - [`states`](Lrta::states): `Closed` for every cell the agent has stood on, `Open` for the
//!   cells the last look-ahead examined (even if stood on before), `Current` for the agent.
//! - [`g_values`](Lrta::g_values) and [`parents`](Lrta::parents): the last look-ahead's own
//!   search: the cheapest cost from the agent's previous cell to each examined cell in at
//!   most `d` moves, and the cell before it on that walk. Infinite (no parent) elsewhere.
//! - [`h`](Stepper::h) and [`cell_values`](Stepper::cell_values) (label `"learned h"`,
//!   painted as a heat map): the learned estimates.
//! - [`path_indices`](Lrta::path_indices): the trail so far, start first, repeats included
//!   (at every step, not only once found).
//! - [`agent`](Stepper::agent): where the agent is, moves, cost walked, revisits.
//! - [`expanded`](Lrta::expanded): cells whose moves a look-ahead examined, over all steps
//!   (one per step with `d = 1`); [`open_count`](Lrta::open_count): the cells the last
//!   look-ahead examined.
//! - The overlay: the agent ([`MarkKind::Agent`](super::MarkKind::Agent)), the trail
//!   ([`LineKind::Trail`](super::LineKind::Trail), the last 4,096 moves, with a note when
//!   some are left out), the cells stood on more than
//!   once ([`MarkKind::Revisited`](super::MarkKind::Revisited)), the look-ahead's bounding
//!   box ([`BoxKind::Lookahead`]), and notes: the rule, the look-ahead, the last update
//!   (`"raised h at (3,0): 3 -> 5"`), moves, cost walked and revisits.
//!
//! Every choice is deterministic, so stepping back (replay from step 0) lands in the same
//! state.

use super::engine::{check_ends, estimate, paint_cells};
use super::stepper::{Agent, BoxKind, CellValues, Overlay, OverlayBox};
use super::walk::{self, number, Walk};
use super::{
    Algorithm, CellState, EventLog, NoRecord, Recorder, SearchConfig, SearchError, Status, StepEvent, Stepper,
    NO_PARENT,
};
use crate::grid::{Grid, Point};

/// The move limit unless set otherwise: far more than LRTA* needs on the course's maps and
/// on small ones, and a second or so of work, so that a page running to the end does not
/// hang on a huge map.
pub const DEFAULT_MOVE_LIMIT: usize = 1_000_000;

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;

/// Marks a cell outside the current look-ahead.
const NONE: u32 = u32::MAX;

/// How the agent's estimate is updated after a look-ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// LRTA*: `h(s) = max(h(s), best first-move value)`.
    Learning,
    /// RTA*: `h(s) = second-best first-move value` (infinite when there is one move).
    SecondBest,
}

/// What the last step did to the estimate of the cell the agent left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Update {
    /// The cell whose estimate was updated (where the agent stood before the move).
    pub at: Point,
    /// Its estimate before.
    pub old: f64,
    /// Its estimate after.
    pub new: f64,
    /// The best first-move value (the move taken).
    pub best: f64,
    /// The best value among the other first moves (infinite when there was one move).
    pub second: f64,
}

/// The scratch of one look-ahead: the cells examined and the moves between them.
#[derive(Clone, Debug, Default)]
struct LookAhead {
    /// The cells examined; the first is the agent's.
    cells: Vec<u32>,
    /// Moves from the agent to each.
    hop: Vec<u32>,
    /// `adj[adj_start[i]..adj_start[i + 1]]`: the moves out of `cells[i]` as (slot, cost),
    /// in the grid's order; empty for the cells at the depth limit and the goal.
    adj_start: Vec<u32>,
    adj: Vec<(u32, f64)>,
    value: Vec<f64>,
    next: Vec<f64>,
    g: Vec<f64>,
    g_next: Vec<f64>,
    parent: Vec<u32>,
}

impl LookAhead {
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

/// LRTA* or RTA*, one agent move per [`step`](Lrta::step). See the
/// [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::heuristic::Heuristic;
/// use pathlab_core::search::lrta::Lrta;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status};
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
/// # use pathlab_core::search::{Algorithm, SearchConfig, Status};
/// let mut grid = Grid::new(3, 2).unwrap();
/// grid.set(Point::new(1, 1), WALL).unwrap();
/// grid.set(Point::new(2, 0), WALL).unwrap();
/// let config = SearchConfig::new(Algorithm::Lrta).diagonal(Diagonal::NoCornerCutting);
/// let mut s = Lrta::new(grid, Point::new(0, 1), Point::new(2, 1), config).unwrap();
/// assert_eq!(s.run(), Status::NoPath);
/// assert_eq!(s.steps(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Lrta {
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    rule: Rule,
    learned: Vec<f64>,
    /// Cells whose estimate a step has set (restored on reset).
    raised: Vec<u32>,
    state: Vec<u8>,
    g: Vec<f64>,
    parent: Vec<u32>,
    /// Each cell's place in the look-ahead, or [`NONE`].
    slot: Vec<u32>,
    look: LookAhead,
    walk: Walk,
    agent: u32,
    reachable: bool,
    status: Status,
    steps: usize,
    expanded: usize,
    open: usize,
    update: Option<Update>,
    move_limit: usize,
    gave_up: Option<String>,
}

impl Lrta {
    /// Sets up LRTA* (`config.algorithm` = [`Algorithm::Lrta`]) or RTA*
    /// ([`Algorithm::Rta`]) with the [`DEFAULT_MOVE_LIMIT`]. Fails when an end is outside the
    /// grid or on a wall, a setting is out of range, or the algorithm is another one.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        let rule = match config.algorithm {
            Algorithm::Lrta => Rule::Learning,
            Algorithm::Rta => Rule::SecondBest,
            other => {
                return Err(SearchError::Unsupported(format!(
                    "{other} is not LRTA* or RTA*: build it with search::build"
                )))
            }
        };
        check_ends(&grid, start, goal)?;
        let n = grid.len();
        let mut search = Self {
            grid,
            start,
            goal,
            config,
            rule,
            learned: Vec::new(),
            raised: Vec::new(),
            state: vec![UNSEEN; n],
            g: vec![f64::INFINITY; n],
            parent: vec![NO_PARENT; n],
            slot: vec![NONE; n],
            look: LookAhead::default(),
            walk: Walk::new(n),
            agent: 0,
            reachable: false,
            status: Status::Ready,
            steps: 0,
            expanded: 0,
            open: 0,
            update: None,
            move_limit: DEFAULT_MOVE_LIMIT,
            gave_up: None,
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

    /// The starting estimate of the cell at row-major index `i`: `weight x heuristic`.
    fn initial(&self, i: usize) -> f64 {
        self.config.weight * estimate(&self.config, self.goal, self.grid.point_at(i))
    }

    /// Sets every estimate to its starting value and checks whether the goal can be
    /// reached; for a new grid, start or goal.
    fn rebuild(&mut self) {
        self.learned = (0..self.grid.len()).map(|i| self.initial(i)).collect();
        self.raised.clear();
        self.reachable = walk::reachable(&self.grid, self.start, self.goal, self.config.diagonal);
    }

    /// Puts the cells of the last look-ahead back to how the walk leaves them.
    fn clear_look_ahead(&mut self) {
        for &c in &self.look.cells {
            let c = c as usize;
            self.state[c] = if self.walk.visits[c] > 0 { CLOSED } else { UNSEEN };
            self.g[c] = f64::INFINITY;
            self.parent[c] = NO_PARENT;
            self.slot[c] = NONE;
        }
        self.look.clear();
        self.open = 0;
    }

    /// Goes back to step 0: the agent on the start, every estimate at its starting value.
    pub fn reset(&mut self) {
        self.clear_look_ahead();
        for &c in &self.walk.stood {
            self.state[c as usize] = UNSEEN;
        }
        for i in std::mem::take(&mut self.raised) {
            self.learned[i as usize] = self.initial(i as usize);
        }
        let s = self.grid.index(self.start) as u32;
        self.walk.begin(s);
        self.agent = s;
        self.state[s as usize] = CURRENT;
        self.status = Status::Ready;
        self.steps = 0;
        self.expanded = 0;
        self.update = None;
        self.gave_up = None;
    }

    /// Moves the start and goal; the search goes back to step 0 with fresh estimates.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.reset();
        self.start = start;
        self.goal = goal;
        self.rebuild();
        self.reset();
        Ok(())
    }

    /// Sets every listed cell to `value` as a brush stroke does (cells outside the grid are
    /// skipped, and so are the start and goal when `value` is a wall); returns how many
    /// changed. When any did, the search goes back to step 0, forgets what it learned and
    /// checks again whether the goal can be reached. Every value is accepted: terrain only
    /// makes moves dearer.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let changed = paint_cells(&mut self.grid, self.start, self.goal, cells, value);
        if changed > 0 {
            self.reset();
            self.rebuild();
        }
        changed
    }

    /// Performs one step: one look-ahead, update and move (or the step that ends the walk).
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` about the look-ahead: `expanded(agent's cell)`,
    /// then `opened(cell, parent, None, g)` for every other cell examined, with its
    /// look-ahead cost and parent.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.status.is_finished() {
            return StepEvent::Finished;
        }
        self.clear_look_ahead();
        self.update = None;
        self.steps += 1;
        self.status = Status::Searching;
        let s = self.agent;
        let goal = self.grid.index(self.goal) as u32;
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
        self.look_ahead(s, goal);
        let moves = self.look.moves(0);
        if moves.is_empty() {
            // Cannot happen: the goal is reachable, so the agent has a move.
            self.gave_up = Some(format!("the agent at {} has no move", self.grid.point_at(s as usize)));
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
        let old = self.learned[s as usize];
        let new = match self.rule {
            Rule::Learning => old.max(best_value),
            Rule::SecondBest => second,
        };
        self.learned[s as usize] = new;
        self.raised.push(s);
        let at = self.grid.point_at(s as usize);
        self.update = Some(Update { at, old, new, best: best_value, second });
        // The page's buffers: the look-ahead's cells and costs, the walk, the agent.
        recorder.expanded(s);
        for i in 1..self.look.cells.len() {
            let c = self.look.cells[i] as usize;
            let p = self.look.cells[self.look.parent[i] as usize];
            self.state[c] = OPEN;
            self.g[c] = self.look.g[i];
            self.parent[c] = p;
            recorder.opened(c as u32, p, None, self.look.g[i]);
        }
        self.open = self.look.cells.len() - 1;
        self.state[s as usize] = CLOSED;
        self.g[s as usize] = 0.0;
        let next = self.look.cells[next as usize];
        self.walk.move_to(next, cost);
        self.agent = next;
        self.state[next as usize] = CURRENT;
        if next == goal {
            self.status = Status::Found;
            return StepEvent::Found { cost: self.walk.travelled };
        }
        StepEvent::Expanded(at)
    }

    /// Looks `config.lookahead` moves ahead from `s`: fills `look` with the cells examined,
    /// their first-move values (`look.value`) and their look-ahead costs and parents.
    fn look_ahead(&mut self, s: u32, goal: u32) {
        let depth = self.config.lookahead;
        let Self { grid, config, learned, slot, look, expanded, .. } = self;
        let LookAhead { cells, hop, adj_start, adj, .. } = look;
        let terrain = grid.cells();
        slot[s as usize] = 0;
        cells.push(s);
        hop.push(0);
        let mut i = 0;
        while i < cells.len() {
            adj_start.push(adj.len() as u32);
            let (c, h) = (cells[i], hop[i]);
            if h < depth && c != goal {
                *expanded += 1;
                grid.for_each_neighbour_of(grid.point_at(c as usize), config.diagonal, |nb, _, diagonal| {
                    let mut j = slot[nb];
                    if j == NONE {
                        j = cells.len() as u32;
                        slot[nb] = j;
                        cells.push(nb as u32);
                        hop.push(h + 1);
                    }
                    adj.push((j, config.costs.step(diagonal, terrain[nb])));
                });
            }
            i += 1;
        }
        adj_start.push(adj.len() as u32);
        let LookAhead { cells, hop, adj_start, adj, value, next, g, g_next, parent } = look;
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

    /// Runs to the end (found, no path, or the move limit) and returns the final status.
    pub fn run(&mut self) -> Status {
        while !self.status.is_finished() {
            self.step();
        }
        self.status
    }

    /// Why the walk stopped without reaching a goal that can be reached (the move limit).
    pub fn gave_up(&self) -> Option<&str> {
        self.gave_up.as_deref()
    }

    /// The learned estimate of every cell, row-major.
    pub fn learned(&self) -> &[f64] {
        &self.learned
    }

    /// What the last step did to the estimate of the cell the agent left.
    pub fn last_update(&self) -> Option<Update> {
        self.update
    }

    walk::walking_inherent_methods!();

    /// Cells whose moves a look-ahead examined, over all steps.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// Cells examined by the last look-ahead, besides the agent's.
    pub fn open_count(&self) -> usize {
        self.open
    }

    /// The last look-ahead's cost from the agent's previous cell to each cell it examined
    /// (infinite elsewhere).
    pub fn g_values(&self) -> &[f64] {
        &self.g
    }

    /// The cell before each examined cell on the last look-ahead's cheapest walk to it, or
    /// [`NO_PARENT`].
    pub fn parents(&self) -> &[u32] {
        &self.parent
    }

    /// The overlay: agent, trail, revisited cells, the look-ahead's box and the notes.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        let rule = match self.rule {
            Rule::Learning => "LRTA*: h = max(h, best look-ahead value)",
            Rule::SecondBest => "RTA*: h = second-best look-ahead value",
        };
        overlay.notes.push(("rule", rule.to_string()));
        if self.look.cells.len() > 1 {
            let mut min = self.grid.point_at(self.look.cells[0] as usize);
            let mut max = min;
            for &c in &self.look.cells {
                let p = self.grid.point_at(c as usize);
                min = Point::new(min.x.min(p.x), min.y.min(p.y));
                max = Point::new(max.x.max(p.x), max.y.max(p.y));
            }
            overlay.boxes.push(OverlayBox { min, max, kind: BoxKind::Lookahead });
        }
        overlay
            .notes
            .push(("look-ahead", format!("{} move(s) deep, {} cells examined", self.config.lookahead, self.open)));
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
        let unreachable = self.status == Status::NoPath && !self.reachable;
        walk::note_outcome(
            &mut overlay,
            unreachable,
            (self.start, self.goal),
            self.config.diagonal,
            self.gave_up.as_deref(),
        );
        overlay
    }
}

/// True when `v` beats `best` by more than rounding (a relative 1e-9).
fn better(v: f64, best: f64) -> bool {
    if best.is_finite() {
        v < best - 1e-9 * best.abs().max(1.0)
    } else {
        v < best
    }
}

impl Stepper for Lrta {
    walk::walking_stepper_methods!(Lrta);

    fn expanded(&self) -> usize {
        self.expanded
    }

    fn open_count(&self) -> usize {
        self.open
    }

    /// The learned estimate at `p` (the starting one outside the grid).
    fn h(&self, p: Point) -> f64 {
        match self.grid.get(p) {
            Some(_) => self.learned[self.grid.index(p)],
            None => self.config.weight * estimate(&self.config, self.goal, p),
        }
    }

    fn cell_values(&self) -> Option<CellValues<'_>> {
        Some(CellValues { label: "learned h", values: &self.learned, heat: true })
    }
}
