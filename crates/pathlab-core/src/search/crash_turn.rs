//! Crash and turn: the simplest local path-finder. Head straight for the goal; on meeting an
//! obstacle, turn and follow it with one hand on it until the way toward the goal is clear,
//! then head for the goal again. It needs no map and no memory, and it fails on concave
//! obstacles: inside a C that opens toward it, it goes round for ever.
//!
//! # The rules, precisely
//!
//! The agent moves one cell per step, on the moves the diagonal setting allows (the four
//! straight moves under `never`, all eight otherwise, a diagonal only where the rule lets it
//! pass the corner). Every cell that is not a wall is free; terrain only counts in the cost
//! walked.
//!
//! - **The greedy move**: of the allowed directions, the one closest in angle to the
//!   straight line from the agent to the goal. A tie (only possible with four directions,
//!   when the goal lies exactly on a diagonal) goes to the first of N, E, S, W.
//! - **Heading for the goal**: if the greedy move is free, take it. If not, the agent
//!   *crashes*: it starts following the obstacle. With [`Hand::Left`] it turns right (the
//!   obstacle on its left): it tries the directions clockwise from the greedy one and takes
//!   the first free move. [`Hand::Right`] mirrors that: anticlockwise.
//! - **Which side**: the hand is [`Hand::Left`] or [`Hand::Right`] for the whole walk, or
//!   picked afresh at every crash by one of the book's two side rules (see
//!   [below](#the-side-rules)).
//! - **Following the wall**: first, if the greedy move is free, the way toward the goal is
//!   clear: the agent takes it and is heading for the goal again (the course's rule, which
//!   returns to the straight line as soon as the agent can advance along it, judged here one
//!   move at a time). Otherwise it keeps its hand on the wall: with the left hand it tries the
//!   directions clockwise, starting 90 degrees to the left of the way it faces (left, ahead,
//!   right, back, in steps of 45 degrees, or 90 under `never`) and takes the first free
//!   move; the right hand mirrors that.
//!
//! This is the course's version, and its weaknesses are the point of showing it:
//!
//! - **Concave obstacles trap it.** In a C that opens toward the agent with the goal behind
//!   it, the agent crashes into the back of the C, follows the inside wall a few cells, finds
//!   the greedy move free again (back toward the back wall), and crashes again at the same
//!   place.
//! - Because the test "the way toward the goal is clear" looks one move ahead only, a wide
//!   wall close in front of the goal can trap it too, with the hand that leads it away from
//!   the goal: once the goal is more to its side than ahead of it, the greedy move points
//!   back along the wall, and it returns to where it crashed. (The course's promise that
//!   convex obstacles are always passed assumes the agent leaves the wall only when it can
//!   see the goal.) It does pass a rectangle with either hand when, from every free cell
//!   touching it, the greedy move is the straight move past it toward the goal: the goal at
//!   most as far to the side as it is ahead with four directions (ties go straight), under
//!   0.41 times as far (tan 22.5 degrees) with eight.
//!
//! # The side rules
//!
//! The book leaves open how to choose the side to go round an obstacle, and names two ways:
//!
//! - [`Hand::LeastDeviation`]: the side that deviates less from the way to the goal. At a
//!   crash the agent finds the first free direction turning each way from the greedy one
//!   (clockwise: what the left hand takes; anticlockwise: the right hand's), and follows with
//!   the hand whose direction is closer in angle to the straight line to the goal (the larger
//!   `(goal - agent) · u / |u|`). A tie (as when the goal is straight ahead and the wall is
//!   square across the way) goes to the left hand: the agent turns right.
//! - [`Hand::Random`]: a coin toss at every crash, from a generator seeded with
//!   [`SearchConfig::seed`], so the same seed gives the same walk; going back to step 0
//!   seeds it again.
//!
//! The hand chosen at a crash is kept until the next crash.
//!
//! # Loops and the move limit
//!
//! With a fixed hand or the least-deviation rule, the agent's next move depends only on its
//! cell, its mode (heading for the goal or following the wall) and, when following, the way
//! it faces (the direction of its last move) and the hand on the wall. So when it is back in a
//! state it was in before, it will repeat the same moves for ever: the stepper stops with
//! [`NoPath`](Status::NoPath) and [`gave_up`](CrashTurn::gave_up) says where it looped. There
//! are at most seventeen states per cell, so every walk arrives or loops within `17 x cells`
//! moves; [`DEFAULT_MOVE_LIMIT`] (or [`CrashTurn::with_move_limit`]) only bounds the work on
//! very large maps.
//!
//! With the random rule a crash can go either way, so only a state repeated without a crash
//! in between is a sure loop (between crashes the walk is fixed): the agent forgets the states
//! it has been in at every crash. A trap it enters by crashing again and again (the C) holds it
//! until the move limit.
//!
//! Whether the goal can be reached at all is checked first, with one flood fill whenever the
//! grid or the ends change, so that a goal walled off is reported as such (the first step
//! ends with `NoPath` and an overlay note) rather than as a loop.
//!
//! # What the page sees
//!
//! - [`states`](Stepper::states): `Closed` for the cells stood on, `Current` for the agent.
//! - [`g_values`](Stepper::g_values) and [`parents`](Stepper::parents): the cost walked
//!   when the agent first stood on each cell, and the cell it came from then.
//! - [`path_indices`](Stepper::path_indices): the trail so far, repeats included;
//!   [`cost`](CrashTurn::cost): the cost walked, once on the goal.
//! - The overlay: the agent, the trail, the cells stood on more than once, a
//!   [`LineKind::Heading`] line from the agent to the goal, and notes: the mode, the way it
//!   faces, the crashes, moves, cost walked and revisits.
//! - [`expanded`](Stepper::expanded) counts moves (each looks at the agent's neighbours);
//!   [`open_count`](Stepper::open_count) is always 0; [`h`](Stepper::h) is 0 (no estimate).

use super::engine::{check_ends, paint_cells};
use super::stepper::{LineKind, Overlay, OverlayLine};
use super::walk::{self, walking_agent_stepper, Walk};
use super::{
    Algorithm, CellState, Hand, NoRecord, NodeTable, Recorder, SearchConfig, SearchError, Status, StepEvent, Stepper,
    NO_PARENT,
};
use crate::boids::Pcg32;
use crate::grid::{Grid, Point};

/// The move limit unless set otherwise. Loops are caught exactly, so it only matters on maps
/// of more than about 110,000 cells.
pub const DEFAULT_MOVE_LIMIT: usize = 1_000_000;

/// The eight directions clockwise from north, as (dx, dy) with y growing downward.
const DIRECTIONS: [(isize, isize); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

/// Their names, for the notes.
const NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// The loop-detection bit for "heading for the goal" (bits 0-7: following with the left hand,
/// facing that way; bits 8-15: with the right hand).
const HEADING_BIT: u32 = 1 << 16;

/// What the agent is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Taking the greedy move toward the goal.
    Heading,
    /// Following an obstacle with one hand on it.
    Following,
}

/// Crash and turn, one move per [`step`](CrashTurn::step). See the
/// [module documentation](self).
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
/// use pathlab_core::search::crash_turn::CrashTurn;
/// use pathlab_core::search::{Algorithm, Hand, SearchConfig, Status};
/// // A short wall straight between start and goal.
/// let mut grid = Grid::new(7, 7).unwrap();
/// for x in 2..5 {
///     grid.set(Point::new(x, 3), WALL).unwrap();
/// }
/// let config = SearchConfig::new(Algorithm::CrashTurn).diagonal(Diagonal::Never).hand(Hand::Left);
/// let mut s = CrashTurn::new(grid, Point::new(3, 6), Point::new(3, 0), config).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.crashes(), 1);
/// assert!(s.cost().unwrap() > 6.0); // it went round the wall
/// ```
#[derive(Clone, Debug)]
pub struct CrashTurn {
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    /// States, the cost walked and the cell come from when each cell was first stood on,
    /// steps and status.
    nodes: NodeTable,
    /// Per cell, the states (mode, facing and hand) the agent has been in there.
    seen: Vec<u32>,
    /// The cells whose states are recorded in `seen`.
    marked: Vec<u32>,
    /// The hand on the wall now: left or right.
    side: Hand,
    /// The coin of the random side rule.
    coin: Pcg32,
    walk: Walk,
    agent: u32,
    mode: Mode,
    /// The direction of the last move (an index into the compass, clockwise from N).
    facing: usize,
    crashes: usize,
    reachable: bool,
    move_limit: usize,
    gave_up: Option<String>,
}

impl CrashTurn {
    /// Sets up crash and turn (`config.algorithm` = [`Algorithm::CrashTurn`]) with the
    /// [`DEFAULT_MOVE_LIMIT`]. Fails when an end is outside the grid or on a wall, a setting
    /// is out of range, or the algorithm is another one.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        walk::check_agent_setup(&grid, (start, goal), &config, Algorithm::CrashTurn, "crash and turn")?;
        let n = grid.len();
        let reachable = walk::reachable(&grid, start, goal, config.diagonal);
        let mut search = Self {
            grid,
            start,
            goal,
            config,
            nodes: NodeTable::new(n),
            seen: vec![0; n],
            marked: Vec::new(),
            side: Hand::Left,
            coin: Pcg32::new(u64::from(config.seed)),
            walk: Walk::new(n),
            agent: 0,
            mode: Mode::Heading,
            facing: 0,
            crashes: 0,
            reachable,
            move_limit: DEFAULT_MOVE_LIMIT,
            gave_up: None,
        };
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

    /// Goes back to step 0: the agent on the start, heading for the goal.
    pub fn reset(&mut self) {
        self.forget_states();
        self.nodes.reset();
        let s = self.grid.index(self.start) as u32;
        self.walk.begin(s);
        self.agent = s;
        self.nodes.set_g(s, 0.0, NO_PARENT);
        self.nodes.set_state(s, CellState::Current);
        self.mark(s as usize, HEADING_BIT);
        self.mode = Mode::Heading;
        self.side = Hand::Left;
        self.coin = Pcg32::new(u64::from(self.config.seed));
        self.facing = self.greedy(self.start);
        self.crashes = 0;
        self.gave_up = None;
    }

    /// Forgets the states the agent has been in.
    fn forget_states(&mut self) {
        for &c in &self.marked {
            self.seen[c as usize] = 0;
        }
        self.marked.clear();
    }

    /// Records state `bit` on cell `c`.
    fn mark(&mut self, c: usize, bit: u32) {
        if self.seen[c] == 0 {
            self.marked.push(c as u32);
        }
        self.seen[c] |= bit;
    }

    /// The hand to follow with after a crash at `at`, where the greedy direction is blocked.
    fn choose_side(&mut self, at: Point, greedy: usize) -> Hand {
        match self.config.hand {
            Hand::Left => Hand::Left,
            Hand::Right => Hand::Right,
            Hand::LeastDeviation => {
                let closeness =
                    |found: Option<(usize, Point)>| found.map_or(f64::NEG_INFINITY, |(d, _)| self.toward_goal(at, d));
                let left = closeness(self.sweep(at, greedy, Hand::Left));
                let right = closeness(self.sweep(at, greedy, Hand::Right));
                if right > left {
                    Hand::Right
                } else {
                    Hand::Left
                }
            }
            Hand::Random => {
                if self.coin.below(2) == 0 {
                    Hand::Left
                } else {
                    Hand::Right
                }
            }
        }
    }

    /// How nearly direction `d` points from `at` at the goal: `(goal - at) · u / |u|`.
    fn toward_goal(&self, at: Point, d: usize) -> f64 {
        let dx = self.goal.x as f64 - at.x as f64;
        let dy = self.goal.y as f64 - at.y as f64;
        let (ux, uy) = DIRECTIONS[d];
        let length = if d % 2 == 1 { std::f64::consts::SQRT_2 } else { 1.0 };
        (dx * ux as f64 + dy * uy as f64) / length
    }

    /// The hand on the wall now (left or right; with a side rule, the one its last crash chose).
    pub fn side(&self) -> Hand {
        self.side
    }

    /// Moves the start and goal; the search goes back to step 0.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        check_ends(&self.grid, start, goal)?;
        self.reset();
        self.start = start;
        self.goal = goal;
        self.reachable = walk::reachable(&self.grid, start, goal, self.config.diagonal);
        self.reset();
        Ok(())
    }

    /// Sets every listed cell to `value` as a brush stroke does (cells outside the grid are
    /// skipped, and so are the start and goal when `value` is a wall); returns how many
    /// changed. When any did, the search goes back to step 0. Every value is accepted:
    /// terrain is free ground to this agent and only counts in the cost walked.
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let changed = paint_cells(&mut self.grid, self.start, self.goal, cells, value);
        if changed > 0 {
            self.reachable = walk::reachable(&self.grid, self.start, self.goal, self.config.diagonal);
            self.reset();
        }
        changed
    }

    /// 1 when diagonal moves are allowed (eight directions), 2 otherwise (four).
    fn turn_step(&self) -> usize {
        if self.config.diagonal.is_eight_connected() {
            1
        } else {
            2
        }
    }

    /// The allowed direction closest in angle to the line from `at` to the goal.
    fn greedy(&self, at: Point) -> usize {
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        for d in (0..8).step_by(self.turn_step()) {
            let score = self.toward_goal(at, d);
            if score > best_score {
                best = d;
                best_score = score;
            }
        }
        best
    }

    /// The cell one move from `at` in direction `d`, when that move is legal.
    fn target(&self, at: Point, d: usize) -> Option<Point> {
        let (dx, dy) = DIRECTIONS[d];
        let x = at.x.checked_add_signed(dx)?;
        let y = at.y.checked_add_signed(dy)?;
        let p = Point::new(x, y);
        self.grid.is_legal_move(at, p, self.config.diagonal).then_some(p)
    }

    /// The first free direction turning from `from` away from `hand` (clockwise for the
    /// left hand, anticlockwise for the right), `from` included.
    fn sweep(&self, at: Point, from: usize, hand: Hand) -> Option<(usize, Point)> {
        let step = self.turn_step();
        (0..8 / step)
            .map(|k| if hand == Hand::Right { (from + 8 - k * step) % 8 } else { (from + k * step) % 8 })
            .find_map(|d| self.target(at, d).map(|p| (d, p)))
    }

    /// Performs one step: one move (or the step that ends the walk).
    pub fn step(&mut self) -> StepEvent {
        self.step_with(&mut NoRecord)
    }

    /// Performs one step, telling `recorder` about the move: `expanded(cell left)` and
    /// `opened(cell entered, cell left, its first cost if stood on before, cost walked)`.
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent {
        if self.nodes.status.is_finished() {
            return StepEvent::Finished;
        }
        self.nodes.steps += 1;
        self.nodes.status = Status::Searching;
        let from = self.agent as usize;
        let at = self.grid.point_at(from);
        if !self.reachable {
            self.nodes.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        if at == self.goal {
            self.nodes.status = Status::Found;
            return StepEvent::Found { cost: self.walk.travelled };
        }
        if self.walk.moves() >= self.move_limit {
            self.gave_up = Some(format!(
                "crash and turn stopped at its limit of {} moves without reaching the goal",
                self.move_limit
            ));
            self.nodes.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        let greedy = self.greedy(at);
        let direction = if let Some(p) = self.target(at, greedy) {
            self.mode = Mode::Heading;
            Some((greedy, p))
        } else if self.mode == Mode::Heading {
            self.crashes += 1;
            self.mode = Mode::Following;
            self.side = self.choose_side(at, greedy);
            if self.config.hand == Hand::Random {
                // Between crashes the walk is fixed; across one it is not.
                self.forget_states();
            }
            self.sweep(at, greedy, self.side)
        } else {
            let first = if self.side == Hand::Right { (self.facing + 2) % 8 } else { (self.facing + 6) % 8 };
            self.sweep(at, first, self.side)
        };
        let Some((d, next_at)) = direction else {
            // Cannot happen: the goal is reachable, so the agent has a move.
            self.gave_up = Some(format!("the agent at {at} has no move"));
            self.nodes.status = Status::NoPath;
            return StepEvent::NoPath;
        };
        self.facing = d;
        let next = self.grid.index(next_at);
        let cost = self.config.costs.step(d % 2 == 1, self.grid.cells()[next]);
        let before = self.walk.move_to(next as u32, cost);
        recorder.expanded(from as u32);
        recorder.opened(next as u32, from as u32, before.then_some(self.nodes.g()[next]), self.walk.travelled);
        if !before {
            self.nodes.set_g(next as u32, self.walk.travelled, from as u32);
        }
        self.nodes.set_state(from as u32, CellState::Closed);
        self.nodes.set_state(next as u32, CellState::Current);
        self.agent = next as u32;
        if next_at == self.goal {
            self.nodes.status = Status::Found;
            return StepEvent::Found { cost: self.walk.travelled };
        }
        let bit = match (self.mode, self.side) {
            (Mode::Heading, _) => HEADING_BIT,
            (Mode::Following, Hand::Right) => 1 << (d + 8),
            (Mode::Following, _) => 1 << d,
        };
        if self.seen[next] & bit != 0 {
            self.gave_up = Some(format!(
                "crash and turn went round in a loop at {next_at}: it is back on this cell in the \
                 same mode, facing the same way, so it would repeat the same moves for ever. An \
                 obstacle that holds it in (a concave one, such as a C open toward it) traps this \
                 local rule; a planner like A* is needed"
            ));
            self.nodes.status = Status::NoPath;
            return StepEvent::NoPath;
        }
        self.mark(next, bit);
        StepEvent::Expanded(at)
    }

    /// Runs to the end (found, loop, no path, or the move limit) and returns the final status.
    pub fn run(&mut self) -> Status {
        while !self.nodes.status.is_finished() {
            self.step();
        }
        self.nodes.status
    }

    /// Heading for the goal or following the wall.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// How many times the agent has met an obstacle while heading for the goal.
    pub fn crashes(&self) -> usize {
        self.crashes
    }

    /// True when the goal can be reached from the start at all.
    pub fn is_reachable(&self) -> bool {
        self.reachable
    }

    /// The cost walked, once the agent stands on the goal.
    pub fn cost(&self) -> Option<f64> {
        (self.nodes.status == Status::Found).then_some(self.walk.travelled)
    }

    /// The overlay: agent, trail, revisited cells, the line to the goal and the notes.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        let mode = match self.mode {
            Mode::Heading => "heading for the goal".to_string(),
            Mode::Following => format!("following the wall, {} hand", self.side),
        };
        if matches!(self.config.hand, Hand::LeastDeviation | Hand::Random) {
            let rule = if self.config.hand == Hand::Random {
                format!("random (seed {}): a coin toss at each crash", self.config.seed)
            } else {
                "least deviation: the side closer to the goal's direction (ties: left hand)".to_string()
            };
            overlay.notes.push(("side rule", rule));
        }
        overlay.notes.push(("mode", mode));
        overlay.notes.push(("facing", NAMES[self.facing].to_string()));
        overlay.notes.push(("crashes", self.crashes.to_string()));
        let goal = self.grid.index(self.goal) as u32;
        if self.agent != goal {
            overlay.lines.push(OverlayLine { from: self.agent, to: goal, kind: LineKind::Heading });
        }
        self.walk.draw(&mut overlay);
        let unreachable = self.nodes.status == Status::NoPath && !self.reachable;
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

impl Stepper for CrashTurn {
    walking_agent_stepper!(CrashTurn);

    fn gave_up(&self) -> Option<String> {
        self.gave_up.clone()
    }
}
