//! Flow fields: the cost from every cell to its nearest goal and the first move towards it.
//!
//! A [`FlowField`] is built by one multi-source Dijkstra run backwards from every goal at
//! once: a cell's distance is the cheapest cost of walking from it to any goal, where each
//! move pays its length (straight or diagonal, from [`Costs`]) times the terrain value of the
//! cell it enters, and diagonal moves follow the [`Diagonal`] rule, exactly as the searches
//! do. Beside the distance, each cell keeps:
//!
//! - its **direction**: one byte, the neighbour to step to, numbered 0-7 in the order
//!   N, E, S, W, NE, SE, SW, NW of [`Grid::for_each_neighbour`]; [`NO_DIRECTION`] (255) on
//!   goals, walls and cells from which no goal can be reached. Of the neighbours that lie on a
//!   cheapest route, the first in the field's [`NeighbourOrder`] is taken (straight
//!   neighbours in N, E, S, W order unless [`FlowField::set_order`] says otherwise, then the
//!   diagonals), so the field does not depend on the order in which cells were settled;
//! - its **nearest goal**: the index (in the list given) of the goal its directions lead to;
//!   [`NO_GOAL`] where there is none. When two goals are equally near, the one the direction
//!   leads to wins.
//!
//! Following the directions from any cell walks a cheapest route, and the cost of the walk is
//! the cell's distance.
//!
//! # Changes
//!
//! The course keeps one first-direction map per bunker and, when a bunker falls, looks each
//! agent up in the map of the next nearest one. The field here keeps only the combined map
//! and repairs it instead, which gives the same answer for a fraction of the memory and work
//! ([`FlowField::goal_field`] still computes one bunker's own map, for showing it):
//!
//! - [`FlowField::destroy_goal`]: the cells that led to that goal (exactly those whose nearest
//!   goal it was) are reset, seeded from the untouched cells around them, and settled again by
//!   Dijkstra. Nothing else can change, so the result is exact.
//! - [`FlowField::break_wall`]: a wall becomes ground. Costs can only fall, so the broken cell
//!   (and the cells around it, which may gain a diagonal move past it) take the best of their
//!   neighbours' distances plus the move, and each improvement spreads outward as a Dijkstra
//!   wave from there only. Exact.
//! - [`FlowField::break_wall_cheap`]: the course's cheap version: only the broken cell and the
//!   cells right next to it are updated, and nothing spreads. Cells further away keep routes
//!   that may no longer be the cheapest; [`FlowField::differences`] against an exact field
//!   names them.
//! - [`FlowField::add_wall`]: a cost increase. The cells whose route used a move the wall
//!   breaks (into the cell, or a diagonal past it) are found, with every cell whose chain of
//!   directions passes through them; those are reset and settled again from their
//!   surroundings as for a destroyed goal. Exact.
//!
//! After an exact update the distances equal those of a fresh build bit for bit (the same
//! sums are taken along the same cheapest routes); where two routes cost exactly the same, the
//! direction and nearest goal chosen may differ from a fresh build's, but both are cheapest.

use std::fmt;

use crate::grid::{Costs, Diagonal, Grid, Point, GROUND, WALL};

/// The direction byte of goals, walls and cells with no route to a goal.
pub const NO_DIRECTION: u8 = 255;
/// The nearest-goal value of cells with no route to a goal.
pub const NO_GOAL: u16 = u16::MAX;

/// The steps (dx, dy) of directions 0-7: N, E, S, W, NE, SE, SW, NW.
const STEPS: [(isize, isize); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// The direction from a neighbour back to a cell, by the neighbour's offset (dx + 1) +
/// 3 (dy + 1) from the cell.
const TOWARD: [u8; 9] = [5, 2, 6, 1, NO_DIRECTION, 3, 4, 0, 7];

/// The direction number of a step of (dx, dy), each in -1..=1 and not both 0.
fn direction_of(dx: isize, dy: isize) -> u8 {
    match (dx, dy) {
        (0, -1) => 0,
        (1, 0) => 1,
        (0, 1) => 2,
        (-1, 0) => 3,
        (1, -1) => 4,
        (1, 1) => 5,
        (-1, 1) => 6,
        _ => 7,
    }
}

/// The order in which a field tries the straight neighbours when several first moves are
/// equally cheap: a permutation of the letters n, e, s, w (the diagonals come after, in the
/// order NE, SE, SW, NW). The course's two-bunker figure turns on it: an agent with equally
/// short routes east and south goes east under `nesw` and south under `wsen`.
///
/// ```
/// use pathlab_core::crowd::flow::NeighbourOrder;
/// assert_eq!(NeighbourOrder::parse("wsen").unwrap().name(), "wsen");
/// assert_eq!(NeighbourOrder::default().name(), "nesw");
/// assert!(NeighbourOrder::parse("nnsw").is_err());
/// assert_eq!(NeighbourOrder::ALL.len(), 24);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NeighbourOrder {
    /// The straight direction numbers (0-3 as N, E, S, W) in the order they are tried.
    tried: [u8; 4],
}

impl Default for NeighbourOrder {
    fn default() -> Self {
        Self { tried: [0, 1, 2, 3] }
    }
}

impl NeighbourOrder {
    /// Every order by name, sorted (the page offers them in this order).
    pub const ALL: [&'static str; 24] = [
        "ensw", "enws", "esnw", "eswn", "ewns", "ewsn", "nesw", "news", "nsew", "nswe", "nwes", "nwse", "senw", "sewn",
        "snew", "snwe", "swen", "swne", "wens", "wesn", "wnes", "wnse", "wsen", "wsne",
    ];

    /// Reads an order such as `nesw` or `wsen` (lower or upper case).
    ///
    /// Errors: [`FlowError::BadOrder`] for anything but the four letters n, e, s, w, each once.
    pub fn parse(text: &str) -> Result<Self, FlowError> {
        let bad = || FlowError::BadOrder { given: text.chars().take(16).collect() };
        let mut tried = [0u8; 4];
        let mut seen = [false; 4];
        let bytes = text.as_bytes();
        if bytes.len() != 4 {
            return Err(bad());
        }
        for (slot, &b) in tried.iter_mut().zip(bytes) {
            let d = match b.to_ascii_lowercase() {
                b'n' => 0,
                b'e' => 1,
                b's' => 2,
                b'w' => 3,
                _ => return Err(bad()),
            };
            if seen[d] {
                return Err(bad());
            }
            seen[d] = true;
            *slot = d as u8;
        }
        Ok(Self { tried })
    }

    /// The order's name, four lower-case letters.
    pub fn name(self) -> &'static str {
        let letter = |d: u8| b"nesw"[usize::from(d)];
        let name = self.tried.map(letter);
        Self::ALL.iter().copied().find(|n| n.as_bytes() == name).unwrap_or("nesw")
    }

    /// Each direction's rank (0 is tried first), by direction number 0-7.
    fn ranks(self) -> [u8; 8] {
        let mut rank = [0, 1, 2, 3, 4, 5, 6, 7];
        for (r, &d) in self.tried.iter().enumerate() {
            rank[usize::from(d)] = r as u8;
        }
        rank
    }
}

/// Why a flow field could not be made, changed or followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlowError {
    /// No goals were given.
    NoGoals,
    /// More goals than a [`u16`] can number (the last value is [`NO_GOAL`]).
    TooManyGoals {
        /// Goals given.
        count: usize,
    },
    /// A goal lies outside the grid.
    GoalOutOfRange {
        /// The goal's index in the list given.
        index: usize,
        /// Where it was asked for.
        at: Point,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// A goal lies on a wall.
    GoalOnWall {
        /// The goal's index in the list given.
        index: usize,
        /// Its cell.
        at: Point,
    },
    /// Two goals share a cell.
    DuplicateGoal {
        /// The first goal's index.
        first: usize,
        /// The second goal's index.
        second: usize,
        /// The cell they share.
        at: Point,
    },
    /// A goal index that does not exist.
    NoSuchGoal {
        /// The index asked for.
        index: usize,
        /// How many goals there are.
        count: usize,
    },
    /// The goal was destroyed already.
    GoalAlreadyDestroyed {
        /// The goal's index.
        index: usize,
    },
    /// Every goal has been destroyed: no cell has anywhere to go.
    AllGoalsDestroyed,
    /// A cell outside the grid.
    CellOutOfRange {
        /// Where it was asked for.
        at: Point,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// Breaking a wall where there is none.
    NotAWall {
        /// The cell.
        at: Point,
    },
    /// Putting a wall on a goal that still stands.
    WallOnGoal {
        /// The goal's index.
        index: usize,
        /// Its cell.
        at: Point,
    },
    /// No goal can be reached from the cell.
    Unreachable {
        /// The cell.
        from: Point,
    },
    /// A neighbour order that is not a permutation of n, e, s, w.
    BadOrder {
        /// What was given (at most its first 16 characters).
        given: String,
    },
}

impl fmt::Display for FlowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoGoals => f.write_str("a flow field needs at least one goal"),
            Self::TooManyGoals { count } => {
                let most = NO_GOAL - 1;
                write!(f, "{count} goals given; a flow field takes at most {most}")
            }
            Self::GoalOutOfRange { index, at, width, height } => {
                write!(f, "goal {index} at {at} is outside the {width}x{height} grid")
            }
            Self::GoalOnWall { index, at } => write!(f, "goal {index} at {at} is on a wall"),
            Self::DuplicateGoal { first, second, at } => {
                write!(f, "goals {first} and {second} are both at {at}")
            }
            Self::NoSuchGoal { index, count } => match count {
                0 => write!(f, "there is no goal {index}: the field has no goals"),
                1 => write!(f, "there is no goal {index}: the field has one goal, goal 0"),
                _ => write!(f, "there is no goal {index}: the field has {count} goals, 0 to {}", count - 1),
            },
            Self::GoalAlreadyDestroyed { index } => write!(f, "goal {index} is already destroyed"),
            Self::AllGoalsDestroyed => f.write_str("every goal has been destroyed: there is nowhere to go"),
            Self::CellOutOfRange { at, width, height } => {
                write!(f, "{at} is outside the {width}x{height} grid")
            }
            Self::NotAWall { at } => write!(f, "{at} is not a wall, so there is no wall to break"),
            Self::WallOnGoal { index, at } => {
                write!(f, "{at} holds goal {index}; destroy the goal before walling its cell")
            }
            Self::Unreachable { from } => write!(f, "no goal can be reached from {from}"),
            Self::BadOrder { given } => write!(
                f,
                "neighbour order \"{given}\" is not the letters n, e, s and w each once (such as nesw or wsen)"
            ),
        }
    }
}

impl std::error::Error for FlowError {}

/// The open list: a radix heap of cells by distance (the bits of a non-negative f64 sort as
/// the value does). Dijkstra never pushes below the last distance popped, so each entry sits
/// in the bucket of the highest bit in which its key differs from that last key, and moves
/// down a few times at most instead of sifting through a binary heap on every pop. Cells of
/// equal distance may leave in any order: the field does not depend on it (see
/// [`FlowField::settle_next`]).
#[derive(Clone, Debug)]
struct Heap {
    last: u64,
    len: usize,
    /// `buckets[0]` holds keys equal to `last`; `buckets[b]` keys whose highest bit differing
    /// from `last` is bit `b - 1`.
    buckets: Vec<Vec<(u64, u32)>>,
}

impl Heap {
    fn new() -> Self {
        Self { last: 0, len: 0, buckets: vec![Vec::new(); 65] }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        if key <= self.last {
            0
        } else {
            64 - (key ^ self.last).leading_zeros() as usize
        }
    }

    #[inline]
    fn push(&mut self, key: u64, cell: u32) {
        let b = self.bucket(key);
        self.buckets[b].push((key, cell));
        self.len += 1;
    }

    /// Makes `buckets[0]` hold the lowest keys; false when the heap is empty.
    fn refill(&mut self) -> bool {
        if self.len == 0 {
            return false;
        }
        if !self.buckets[0].is_empty() {
            return true;
        }
        let Some(b) = (1..self.buckets.len()).find(|&b| !self.buckets[b].is_empty()) else {
            return false;
        };
        let moving = std::mem::take(&mut self.buckets[b]);
        self.last = moving.iter().map(|e| e.0).min().unwrap_or(self.last);
        for &(key, cell) in &moving {
            let to = self.bucket(key);
            self.buckets[to].push((key, cell));
        }
        let mut moving = moving;
        moving.clear();
        self.buckets[b] = moving;
        true
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32)> {
        if !self.refill() {
            return None;
        }
        self.len -= 1;
        self.buckets[0].pop()
    }

    fn peek(&mut self) -> Option<(u64, u32)> {
        if !self.refill() {
            return None;
        }
        self.buckets[0].last().copied()
    }

    fn iter(&self) -> impl Iterator<Item = &(u64, u32)> {
        self.buckets.iter().flatten()
    }
}

/// The distance, direction and nearest goal of every cell, for one or more goals.
///
/// ```
/// use pathlab_core::crowd::FlowField;
/// use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
/// // A 3x1 corridor with goals at both ends.
/// let grid = Grid::new(3, 1).unwrap();
/// let goals = [Point::new(0, 0), Point::new(2, 0)];
/// let mut field = FlowField::new(grid, &goals, Diagonal::Never, Costs::Integer).unwrap();
/// assert_eq!(field.distances(), &[0.0, 10.0, 0.0]);
/// // The middle cell is as near to both; of the equal moves, east comes first in N, E, S, W.
/// assert_eq!(field.directions(), &[255, 1, 255]);
/// assert_eq!(field.nearest_goal(), &[0, 1, 1]);
/// field.destroy_goal(0).unwrap();
/// assert_eq!(field.distances(), &[20.0, 10.0, 0.0]);
/// assert_eq!(field.nearest_goal(), &[1, 1, 1]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct FlowField {
    grid: Grid,
    rule: Diagonal,
    costs: Costs,
    goals: Vec<Point>,
    alive: Vec<bool>,
    /// The index of the standing goal on each cell, or [`NO_GOAL`].
    goal_at: Vec<u16>,
    dist: Vec<f64>,
    dir: Vec<u8>,
    nearest: Vec<u16>,
    /// The order in which equally cheap first moves are preferred, and each direction's rank.
    order: NeighbourOrder,
    rank: [u8; 8],
}

impl FlowField {
    /// Builds the field for `goals` on `grid` in one go.
    ///
    /// Errors: [`FlowError::NoGoals`], [`FlowError::TooManyGoals`],
    /// [`FlowError::GoalOutOfRange`], [`FlowError::GoalOnWall`], [`FlowError::DuplicateGoal`].
    pub fn new(grid: Grid, goals: &[Point], rule: Diagonal, costs: Costs) -> Result<Self, FlowError> {
        let mut build = FlowBuild::new(grid, goals, rule, costs)?;
        build.run();
        Ok(build.finish())
    }

    /// An unsettled field: every distance infinite, every direction and goal unset, standing
    /// goals marked. Checks the goals.
    fn blank(grid: Grid, goals: &[Point], rule: Diagonal, costs: Costs) -> Result<Self, FlowError> {
        if goals.is_empty() {
            return Err(FlowError::NoGoals);
        }
        if goals.len() >= usize::from(NO_GOAL) {
            return Err(FlowError::TooManyGoals { count: goals.len() });
        }
        let (width, height) = (grid.width(), grid.height());
        let mut goal_at = vec![NO_GOAL; grid.len()];
        for (index, &at) in goals.iter().enumerate() {
            if at.x >= width || at.y >= height {
                return Err(FlowError::GoalOutOfRange { index, at, width, height });
            }
            let i = grid.index(at);
            if grid.cells()[i] == WALL {
                return Err(FlowError::GoalOnWall { index, at });
            }
            if goal_at[i] != NO_GOAL {
                return Err(FlowError::DuplicateGoal { first: usize::from(goal_at[i]), second: index, at });
            }
            goal_at[i] = index as u16;
        }
        let n = grid.len();
        Ok(Self {
            grid,
            rule,
            costs,
            goals: goals.to_vec(),
            alive: vec![true; goals.len()],
            goal_at,
            dist: vec![f64::INFINITY; n],
            dir: vec![NO_DIRECTION; n],
            nearest: vec![NO_GOAL; n],
            order: NeighbourOrder::default(),
            rank: NeighbourOrder::default().ranks(),
        })
    }

    /// The grid, with the walls broken and added so far.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The order in which equally cheap first moves are preferred.
    pub fn order(&self) -> NeighbourOrder {
        self.order
    }

    /// Prefers equally cheap first moves in `order` from now on, rebuilding the field when the
    /// order changes (the distances stay; directions and nearest goals may change on ties).
    pub fn set_order(&mut self, order: NeighbourOrder) {
        if order != self.order {
            self.order = order;
            self.rank = order.ranks();
            self.rebuild();
        }
    }

    /// The diagonal rule.
    pub fn rule(&self) -> Diagonal {
        self.rule
    }

    /// The cost model.
    pub fn costs(&self) -> Costs {
        self.costs
    }

    /// The goals as given, destroyed ones included.
    pub fn goals(&self) -> &[Point] {
        &self.goals
    }

    /// Whether goal `index` still stands (false for indices out of range).
    pub fn is_standing(&self, index: usize) -> bool {
        self.alive.get(index).copied().unwrap_or(false)
    }

    /// How many goals still stand.
    pub fn standing_goals(&self) -> usize {
        self.alive.iter().filter(|&&a| a).count()
    }

    /// Row-major: the cheapest cost from each cell to its nearest standing goal; infinite on
    /// walls, where no goal can be reached, and everywhere once every goal is destroyed.
    pub fn distances(&self) -> &[f64] {
        &self.dist
    }

    /// Row-major: the direction (0-7 as N, E, S, W, NE, SE, SW, NW) of each cell's first move,
    /// or [`NO_DIRECTION`].
    pub fn directions(&self) -> &[u8] {
        &self.dir
    }

    /// Row-major: the index of each cell's nearest standing goal, or [`NO_GOAL`].
    pub fn nearest_goal(&self) -> &[u16] {
        &self.nearest
    }

    /// The cell one move from `index` along its direction, if it has one.
    pub fn next(&self, index: usize) -> Option<usize> {
        let d = *self.dir.get(index)?;
        let (dx, dy) = *STEPS.get(usize::from(d))?;
        let p = self.grid.point_at(index);
        let (x, y) = (p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
        Some(y * self.grid.width() + x)
    }

    /// The cells walked from `from` to its nearest goal by following the directions, both
    /// ends included.
    ///
    /// Errors: [`FlowError::CellOutOfRange`], [`FlowError::AllGoalsDestroyed`], and
    /// [`FlowError::Unreachable`] when no standing goal can be reached from `from` (walls
    /// included).
    pub fn route(&self, from: Point) -> Result<Vec<Point>, FlowError> {
        let i = self.cell_index(from)?;
        if self.standing_goals() == 0 {
            return Err(FlowError::AllGoalsDestroyed);
        }
        if !self.dist[i].is_finite() {
            return Err(FlowError::Unreachable { from });
        }
        let mut route = vec![from];
        let mut at = i;
        while let Some(next) = self.next(at) {
            at = next;
            route.push(self.grid.point_at(at));
            if route.len() > self.grid.len() {
                break; // cannot happen: distances fall strictly along the directions
            }
        }
        Ok(route)
    }

    /// The field of goal `index` alone (the course's per-bunker map), whether or not it still
    /// stands, on the current grid.
    ///
    /// Errors: [`FlowError::NoSuchGoal`]; [`FlowError::GoalOnWall`] when a destroyed goal's
    /// cell has since been walled.
    pub fn goal_field(&self, index: usize) -> Result<Self, FlowError> {
        let at = *self.goals.get(index).ok_or(FlowError::NoSuchGoal { index, count: self.goals.len() })?;
        if self.grid.cells()[self.grid.index(at)] == WALL {
            return Err(FlowError::GoalOnWall { index, at });
        }
        let mut own = Self::new(self.grid.clone(), &[at], self.rule, self.costs)?;
        own.set_order(self.order);
        Ok(own)
    }

    /// Rebuilds the whole field from scratch on the current grid and standing goals.
    pub fn rebuild(&mut self) {
        self.dist.fill(f64::INFINITY);
        self.dir.fill(NO_DIRECTION);
        self.nearest.fill(NO_GOAL);
        let mut heap = Heap::new();
        self.seed_goals(&mut heap);
        while self.settle_next(&mut heap).is_some() {}
    }

    /// Destroys goal `index`: every cell that led to it turns to the next nearest standing
    /// goal. Only those cells are settled again; returns how many were.
    ///
    /// Destroying the last standing goal succeeds and leaves every distance infinite; after
    /// that, [`route`](Self::route) answers [`FlowError::AllGoalsDestroyed`].
    ///
    /// Errors: [`FlowError::NoSuchGoal`], [`FlowError::GoalAlreadyDestroyed`].
    pub fn destroy_goal(&mut self, index: usize) -> Result<usize, FlowError> {
        let at = *self.goals.get(index).ok_or(FlowError::NoSuchGoal { index, count: self.goals.len() })?;
        if !self.alive[index] {
            return Err(FlowError::GoalAlreadyDestroyed { index });
        }
        self.alive[index] = false;
        let i = self.grid.index(at);
        self.goal_at[i] = NO_GOAL;
        Ok(self.reflow(vec![i]))
    }

    /// Turns the wall at `at` into ground and updates the field exactly, by a Dijkstra wave
    /// from the broken cell only; returns how many cells were settled again.
    ///
    /// Errors: [`FlowError::CellOutOfRange`], [`FlowError::NotAWall`].
    pub fn break_wall(&mut self, at: Point) -> Result<usize, FlowError> {
        let w = self.cell_index(at)?;
        if self.grid.cells()[w] != WALL {
            return Err(FlowError::NotAWall { at });
        }
        self.set_cell(w, GROUND);
        let mut heap = Heap::new();
        for c in self.block_around(w) {
            self.improve(c, &mut heap);
        }
        let mut settled = 0;
        while self.settle_next(&mut heap).is_some() {
            settled += 1;
        }
        Ok(settled)
    }

    /// The course's cheap update for a broken wall: the broken cell and the cells right next
    /// to it take the best of their neighbours' distances plus the move, and nothing spreads
    /// further. Returns the cells it changed. Cells further away may be left with a route that
    /// is no longer the cheapest (compare with [`differences`](Self::differences)).
    ///
    /// Errors: [`FlowError::CellOutOfRange`], [`FlowError::NotAWall`].
    pub fn break_wall_cheap(&mut self, at: Point) -> Result<Vec<usize>, FlowError> {
        let w = self.cell_index(at)?;
        if self.grid.cells()[w] != WALL {
            return Err(FlowError::NotAWall { at });
        }
        self.set_cell(w, GROUND);
        let mut changed = Vec::new();
        // The broken cell first, so that its neighbours can route through it.
        let mut order = vec![w];
        order.extend(self.block_around(w).into_iter().filter(|&c| c != w));
        for c in order {
            if self.goal_at[c] != NO_GOAL || self.grid.cells()[c] == WALL {
                continue;
            }
            if let Some((d, k, n)) = self.best_move(c, |_| true) {
                if d < self.dist[c] {
                    self.dist[c] = d;
                    self.dir[c] = k;
                    self.nearest[c] = self.nearest[n];
                    changed.push(c);
                }
            }
        }
        Ok(changed)
    }

    /// Puts a wall at `at` (a cost increase) and updates the field exactly: the cells whose
    /// route used a move the wall breaks, with every cell whose directions pass through them,
    /// are reset and settled again from their surroundings. Returns how many cells were reset
    /// (0 when `at` was a wall already).
    ///
    /// Errors: [`FlowError::CellOutOfRange`], [`FlowError::WallOnGoal`] for a standing goal.
    pub fn add_wall(&mut self, at: Point) -> Result<usize, FlowError> {
        let w = self.cell_index(at)?;
        if self.grid.cells()[w] == WALL {
            return Ok(0);
        }
        if self.goal_at[w] != NO_GOAL {
            return Err(FlowError::WallOnGoal { index: usize::from(self.goal_at[w]), at });
        }
        self.set_cell(w, WALL);
        let mut roots = vec![w];
        for c in self.block_around(w) {
            if c == w {
                continue;
            }
            if let Some(n) = self.next(c) {
                let (a, b) = (self.grid.point_at(c), self.grid.point_at(n));
                if !self.grid.is_legal_move(a, b, self.rule) {
                    roots.push(c);
                }
            }
        }
        Ok(self.reflow(roots))
    }

    /// The cells whose distance differs from `exact`'s (by more than rounding), for showing
    /// which cells a cheap update left off their cheapest route. Fields of different sizes
    /// differ everywhere.
    pub fn differences(&self, exact: &Self) -> Vec<usize> {
        if self.dist.len() != exact.dist.len() {
            return (0..self.dist.len()).collect();
        }
        let close = |a: f64, b: f64| a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
        (0..self.dist.len()).filter(|&i| !close(self.dist[i], exact.dist[i])).collect()
    }

    fn cell_index(&self, at: Point) -> Result<usize, FlowError> {
        let (width, height) = (self.grid.width(), self.grid.height());
        if at.x >= width || at.y >= height {
            return Err(FlowError::CellOutOfRange { at, width, height });
        }
        Ok(self.grid.index(at))
    }

    fn set_cell(&mut self, i: usize, value: u8) {
        let p = self.grid.point_at(i);
        // Inside the grid: checked by the callers.
        let _ = self.grid.set(p, value);
        if value == WALL {
            self.dist[i] = f64::INFINITY;
            self.dir[i] = NO_DIRECTION;
            self.nearest[i] = NO_GOAL;
        }
    }

    /// The cell and its (up to eight) neighbours inside the grid.
    fn block_around(&self, i: usize) -> Vec<usize> {
        let p = self.grid.point_at(i);
        let mut block = Vec::with_capacity(9);
        for y in p.y.saturating_sub(1)..=(p.y + 1).min(self.grid.height() - 1) {
            for x in p.x.saturating_sub(1)..=(p.x + 1).min(self.grid.width() - 1) {
                block.push(y * self.grid.width() + x);
            }
        }
        block
    }

    fn seed_goals(&mut self, heap: &mut Heap) {
        for (g, &at) in self.goals.iter().enumerate() {
            if self.alive[g] {
                let i = self.grid.index(at);
                self.dist[i] = 0.0;
                self.dir[i] = NO_DIRECTION;
                self.nearest[i] = g as u16;
                heap.push(0f64.to_bits(), i as u32);
            }
        }
    }

    /// The cheapest move out of `c` onto a neighbour `allowed` says may be used, as
    /// (cost to a goal through it, direction, neighbour); the first in direction order on ties.
    fn best_move(&self, c: usize, allowed: impl Fn(usize) -> bool) -> Option<(f64, u8, usize)> {
        let p = self.grid.point_at(c);
        let cells = self.grid.cells();
        let mut best: Option<(f64, u8, usize)> = None;
        let rank = &self.rank;
        self.grid.for_each_neighbour_of(p, self.rule, |n, q, diagonal| {
            let dn = self.dist[n];
            if !dn.is_finite() || !allowed(n) {
                return;
            }
            let d = dn + self.costs.step(diagonal, cells[n]);
            let k = direction_of(q.x as isize - p.x as isize, q.y as isize - p.y as isize);
            let better =
                |&(b, bk, _): &(f64, u8, usize)| d < b || (d == b && rank[usize::from(k)] < rank[usize::from(bk)]);
            if best.as_ref().is_none_or(better) {
                best = Some((d, k, n));
            }
        });
        best
    }

    /// Lowers `c`'s distance to its best move's if that is cheaper, and queues it.
    fn improve(&mut self, c: usize, heap: &mut Heap) {
        if self.grid.cells()[c] == WALL || self.goal_at[c] != NO_GOAL {
            return;
        }
        if let Some((d, k, n)) = self.best_move(c, |_| true) {
            if d < self.dist[c] {
                self.dist[c] = d;
                self.dir[c] = k;
                self.nearest[c] = self.nearest[n];
                heap.push(d.to_bits(), c as u32);
            }
        }
    }

    /// Settles the next cell on the open list (skipping outdated entries) and offers its
    /// neighbours a route through it: a cheaper one sets their distance, direction and goal;
    /// an equally cheap one with a direction earlier in the order sets direction and goal.
    /// Every neighbour on a cell's cheapest routes is strictly cheaper, so it has made its
    /// offer before the cell leaves the open list, whatever the order among equal distances. Returns the cell, or `None` when the list is empty.
    fn settle_next(&mut self, heap: &mut Heap) -> Option<usize> {
        loop {
            let (key, c) = heap.pop()?;
            let c = c as usize;
            if key != self.dist[c].to_bits() {
                continue;
            }
            // `c`'s direction and nearest goal were set by the offers of its settled
            // neighbours (or by its seed); every offer to come is dearer.
            let d = self.dist[c];
            let near = self.nearest[c];
            let p = self.grid.point_at(c);
            let enter = self.grid.cells()[c];
            let (straight, diagonal) = if enter == GROUND {
                (self.costs.straight(), self.costs.diagonal())
            } else {
                (self.costs.straight() * f64::from(enter), self.costs.diagonal() * f64::from(enter))
            };
            let rank = self.rank;
            let (dist, dir, nearest) = (&mut self.dist, &mut self.dir, &mut self.nearest);
            self.grid.for_each_neighbour_of(p, self.rule, |u, q, is_diagonal| {
                let nd = d + if is_diagonal { diagonal } else { straight };
                // The direction from `u` back to `c`.
                let k = TOWARD[(q.x + 1 - p.x) + 3 * (q.y + 1 - p.y)];
                if nd < dist[u] {
                    dist[u] = nd;
                    dir[u] = k;
                    nearest[u] = near;
                    heap.push(nd.to_bits(), u as u32);
                } else if nd == dist[u]
                    && nearest[u] == near
                    && (dir[u] == NO_DIRECTION || rank[usize::from(k)] < rank[usize::from(dir[u])])
                {
                    // An equally cheap route to the same goal: the first direction in order
                    // wins. A tie toward another goal keeps the goal `u` has: during a repair
                    // `u` may be a cell kept from before whose goal its followers copied, and
                    // relabelling it alone would leave them pointing at a goal that is not
                    // theirs (found when a destroyed bunker left such followers behind).
                    dir[u] = k;
                }
            });
            return Some(c);
        }
    }

    /// Resets `roots` and every cell whose directions pass through one of them, seeds them
    /// from the cells around them that keep their routes, and settles them again. Returns how
    /// many cells were reset.
    fn reflow(&mut self, roots: Vec<usize>) -> usize {
        let n = self.grid.len();
        let mut reset = vec![false; n];
        let mut stack = roots;
        let mut region = Vec::new();
        while let Some(c) = stack.pop() {
            if reset[c] {
                continue;
            }
            reset[c] = true;
            region.push(c);
            // The cells whose direction points at `c` (looked up by position: the grid may
            // have just changed, so its neighbour rules are not the ones the field was built on).
            let p = self.grid.point_at(c);
            for &(dx, dy) in &STEPS {
                let (x, y) = (p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
                if x >= self.grid.width() || y >= self.grid.height() {
                    continue;
                }
                let m = y * self.grid.width() + x;
                if !reset[m] && self.next(m) == Some(c) {
                    stack.push(m);
                }
            }
        }
        for &c in &region {
            self.dist[c] = f64::INFINITY;
            self.dir[c] = NO_DIRECTION;
            self.nearest[c] = NO_GOAL;
        }
        let mut heap = Heap::new();
        for &c in &region {
            if self.goal_at[c] != NO_GOAL {
                // A standing goal is never reset (it has no direction to pass through), but
                // keep it right if it ever is.
                self.dist[c] = 0.0;
                self.nearest[c] = self.goal_at[c];
                heap.push(0f64.to_bits(), c as u32);
            } else if self.grid.cells()[c] != WALL {
                if let Some((d, k, m)) = self.best_move(c, |m| !reset[m]) {
                    self.dist[c] = d;
                    self.dir[c] = k;
                    self.nearest[c] = self.nearest[m];
                    heap.push(d.to_bits(), c as u32);
                }
            }
        }
        while self.settle_next(&mut heap).is_some() {}
        region.len()
    }
}

/// A flow field built a step at a time, for animating the wavefront.
///
/// Each [`step`](Self::step) settles up to a number of cells in order of distance; the
/// [`frontier`](Self::frontier) is the cells reached but not yet settled. Running to the end
/// gives the same field as [`FlowField::new`].
///
/// ```
/// use pathlab_core::crowd::{FlowBuild, FlowField};
/// use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
/// let grid = Grid::new(4, 4).unwrap();
/// let goals = [Point::new(0, 0)];
/// let mut build = FlowBuild::new(grid.clone(), &goals, Diagonal::Never, Costs::Real).unwrap();
/// assert_eq!(build.step(1), 1); // the goal
/// assert_eq!(build.frontier(), vec![1, 4]); // its east and south neighbours
/// while build.step_layer() > 0 {}
/// assert!(build.is_done());
/// let field = FlowField::new(grid, &goals, Diagonal::Never, Costs::Real).unwrap();
/// assert_eq!(build.finish(), field);
/// ```
#[derive(Clone, Debug)]
pub struct FlowBuild {
    field: FlowField,
    heap: Heap,
    settled: Vec<bool>,
    count: usize,
}

impl FlowBuild {
    /// Starts building: the standing goals are on the open list, nothing is settled.
    ///
    /// Errors: as [`FlowField::new`].
    pub fn new(grid: Grid, goals: &[Point], rule: Diagonal, costs: Costs) -> Result<Self, FlowError> {
        let mut field = FlowField::blank(grid, goals, rule, costs)?;
        let mut heap = Heap::new();
        field.seed_goals(&mut heap);
        let settled = vec![false; field.grid.len()];
        Ok(Self { field, heap, settled, count: 0 })
    }

    /// Settles up to `cells` more cells; returns how many it settled (0 once done).
    pub fn step(&mut self, cells: usize) -> usize {
        let mut done = 0;
        while done < cells {
            match self.field.settle_next(&mut self.heap) {
                Some(c) => {
                    self.settled[c] = true;
                    done += 1;
                }
                None => break,
            }
        }
        self.count += done;
        done
    }

    /// Settles one layer of the wavefront: every queued cell whose distance is less than one
    /// straight move beyond the nearest queued one. Returns how many it settled.
    pub fn step_layer(&mut self) -> usize {
        let Some(lowest) = self.next_distance() else {
            return 0;
        };
        let limit = lowest + self.field.costs.straight();
        let mut done = 0;
        while self.next_distance().is_some_and(|d| d < limit) {
            done += self.step(1);
        }
        done
    }

    /// Runs to the end; returns how many cells it settled.
    pub fn run(&mut self) -> usize {
        self.step(usize::MAX)
    }

    /// The distance of the next cell to be settled, if any.
    fn next_distance(&mut self) -> Option<f64> {
        while let Some((key, c)) = self.heap.peek() {
            if key == self.field.dist[c as usize].to_bits() && !self.settled[c as usize] {
                return Some(f64::from_bits(key));
            }
            self.heap.pop();
        }
        None
    }

    /// True when every reachable cell is settled.
    pub fn is_done(&mut self) -> bool {
        self.next_distance().is_none()
    }

    /// How many cells have been settled.
    pub fn settled_count(&self) -> usize {
        self.count
    }

    /// Row-major: whether each cell is settled.
    pub fn settled(&self) -> &[bool] {
        &self.settled
    }

    /// The cells reached but not settled (the wavefront), sorted by index.
    pub fn frontier(&self) -> Vec<usize> {
        let mut cells: Vec<usize> = self
            .heap
            .iter()
            .filter(|(key, c)| *key == self.field.dist[*c as usize].to_bits() && !self.settled[*c as usize])
            .map(|(_, c)| *c as usize)
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The field so far: settled cells are final; frontier cells hold their best distance,
    /// direction and goal so far; the rest are infinite.
    pub fn field(&self) -> &FlowField {
        &self.field
    }

    /// Finishes the build (settling whatever is left) and returns the field.
    pub fn finish(mut self) -> FlowField {
        self.run();
        self.field
    }
}
