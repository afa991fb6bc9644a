//! Bidirectional A*: one A* frontier grows from the start, another from the goal, and the
//! search stops once no meeting of the two can beat the best one already seen.
//!
//! # The two searches
//!
//! The **forward** search is ordinary A* from the start, aiming at the goal. The **backward**
//! search is A* from the goal, aiming at the start, over the same edges walked the other way:
//! when it expands `v` it takes each edge `u -> v` *into* `v`
//! ([`Space::for_each_predecessor`]) and charges what that edge costs forward. Its `g` is then
//! the cost of a real forward path from the node to the goal. On a square grid the moves are
//! the same both ways, but a move costs the terrain of the cell it *enters*, so the backward
//! step from `v` to `u` charges the terrain of `v`; on a directed graph, a slope or a one-way
//! teleport the edges into a node are not the edges out of it.
//!
//! The backward estimate of a node `u` bounds the cost of getting from the start *to* `u`:
//! it is the space's estimate from the start to `u`, `estimate(start, u)`, not from `u` to
//! the start. On every space with symmetric moves the two are equal; on a map with one-way
//! teleports only the first is a lower bound.
//!
//! # One step
//!
//! One step is one expansion in one direction: the side with fewer nodes on its open list
//! (Pohl's cardinality rule); on a tie, the side that did not expand last (the forward one at
//! the first step), so that the sides take turns in a corridor or a symmetric room. That
//! keeps both frontiers about the same size, which on maps where one end sits in a small room
//! lets the room be searched from inside instead of from the far side of the map. The final
//! step, which applies the stopping rule, expands nothing.
//!
//! # Where they meet, and when to stop
//!
//! Whenever a node gets a cost from one side while it already has one from the other, the
//! two costs add up to the cost of a real path through it. `mu` is the cheapest such sum
//! seen so far and the *meeting node* the node that gave it (the first to reach it, on ties).
//! The first meeting is not necessarily on a cheapest path: the two frontiers may touch
//! across expensive terrain long before the cheap way round is explored. So the search goes
//! on until
//!
//! ```text
//! mu <= max(min f forward, min f backward)
//! ```
//!
//! where `min f` is the lowest key `g + h` on that side's open list (`+inf` when it is empty).
//!
//! **Nipping.** When one side takes off its open list a node that the other side has already
//! closed, it closes the node without expanding it (Kwa's BS* calls this *nipping*): the
//! other side has already followed every way on from there. This spares the sides most of
//! the work of crossing each other's closed areas (about a fifth of the expansions on the
//! MovingAI DAO maps). A nipped node is not counted as expanded.
//!
//! **Why this is optimal** (weight 1, admissible heuristic). Every admissible estimate the
//! spaces offer is also consistent (`h(u) <= cost(u, v) + h(v)` for an edge `u -> v`: terrain,
//! slopes and graph costs only make edges dearer than the distance the estimates measure, and
//! the teleport estimate is built to be), and so is each one read from the start for the
//! backward search (`h_back(v) <= cost(u, v) + h_back(u)`). Closed nodes are never
//! reopened. Fix a cheapest path `P = (s = p0, ..., pk = t)` of cost `C*`.
//!
//! *Lemma.* As long as no node of `P` has been nipped, a node of `P` that a side takes off its
//! open list has its exact cost from that side's root. (As for A*: if `pj` came off forward
//! with `g(pj) > g*(pj)`, take the first node `pi` before it on `P` that the forward side has
//! not expanded; its predecessors were expanded, not nipped, at their exact costs, so `pi` is
//! open with `g = g*(pi)`, and by consistency `f(pi) = g*(pi) + h(pi) <= g*(pj) + h(pj) <
//! f(pj)`: `pi` would have come off first.)
//!
//! - Once a node `m` of `P` is nipped for the first time, say forward: the backward side
//!   closed it earlier by expanding it, so by the lemma both its costs are exact, and
//!   `mu <= g(m) + g_back(m) = C*`.
//! - Before that, as for A*: if every node of `P` before `t` is closed forward, they were
//!   expanded at their exact costs, so `t` has forward cost `C*`, and backward cost 0:
//!   `mu <= C*`. Otherwise the first node `pi` of `P` that the forward side has not closed is
//!   open forward with `g = g*(pi)` (its predecessor was expanded at its exact cost, or
//!   `i = 0`), and its key `g*(pi) + h(pi) <= g*(pi) + cost(pi -> t) = C*`: `min f forward
//!   <= C*`.
//!
//! So while `mu > C*`, `min f forward <= C* < mu`, and by the same argument backward,
//! `min f backward < mu`: the rule does not fire, and neither open list is empty. As `mu` is
//! always the cost of a real path, `mu >= C*`; when the rule fires, `mu = C*`. When there is no
//! path, `mu` stays infinite, and the search ends with no path when one side's open list runs
//! dry (it has closed every node connected to its root).
//!
//! With a weight `w > 1` the keys are `g + w h` and the result is not optimal. The property
//! tests check on thousands of random grids and graphs that its cost stays within `w` times
//! the optimum, the bound weighted A* gives; it is not proved here for the bidirectional
//! search.
//!
//! # What the page sees
//!
//! - [`states`](BiAStar::states): `Open`/`Closed` for the forward search, `OpenBack`/
//!   `ClosedBack` for the backward one, `Current` for the node the last step expanded and
//!   `Path` for the path once found. A node both sides know shows the forward state when it
//!   is closed forward; otherwise closed beats open, and forward beats backward:
//!   `Closed > ClosedBack > Open > OpenBack`.
//! - [`g_values`](BiAStar::g_values) and [`parents`](BiAStar::parents): the forward search's
//!   (the cheapest cost from the start it has found, and the parent toward the start);
//!   infinite / none where only the backward search has been. (Past a nipped node these may
//!   be dearer than the cheapest: the forward search did not go on through it.) The backward
//!   side's are [`g_back`](BiAStar::g_back) and [`parents_back`](BiAStar::parents_back) (cost
//!   to the goal, next node toward the goal).
//!   Once the path is found its nodes hold the path's costs from the start and parents along
//!   it, the backward half included: the path can be followed by parents from the goal, and
//!   `g` of the goal is the cost, summed from the start as A* sums it.
//! - The overlay marks the meeting node ([`MarkKind::Meeting`]) and notes `mu` and the two
//!   `min f` values of the stopping rule.
//! - [`open_count`](BiAStar::open_count) adds the two open lists (a node open on both counts
//!   twice); [`expanded`](BiAStar::expanded) adds the expansions of both sides (not the
//!   nipped nodes, counted by [`nipped`](BiAStar::nipped)).
//!
//! Ties on each open list follow A*: lowest f, then highest g, then first opened. Edges are
//! examined in the space's order (on the square grid N, E, S, W, then NE, SE, SW, NW, the
//! same order forward and backward).

use std::cmp::Ordering;

use super::engine::{check_ends, stroke_then_restart};
use super::on_space::{holds_space_and_task, steps_through_step_with};
use super::open_list::{Calendar, OpenList};
use super::stepper::{MarkKind, Overlay, OverlayMark};
use super::task::Task;
use super::{
    astar, CellState, GridStepper, NodeTable, OpenEntry, Recorder, SearchConfig, SearchError, SpaceStepper, Status,
    StepEvent, NO_PARENT,
};
use crate::grid::{Grid, Point};
use crate::space::{OnGrid, Space, SquareGrid};

const UNSEEN: u8 = CellState::Unseen as u8;
const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;
const OPEN_BACK: u8 = CellState::OpenBack as u8;
const CLOSED_BACK: u8 = CellState::ClosedBack as u8;

/// Per-node flags: which side has the node open or closed.
const OPEN_F: u8 = 1;
const CLOSED_F: u8 = 2;
const OPEN_B: u8 = 4;
const CLOSED_B: u8 = 8;

/// Which way a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the start toward the goal.
    Forward,
    /// From the goal toward the start.
    Backward,
}

impl Direction {
    const fn name(self) -> &'static str {
        match self {
            Self::Forward => "forward",
            Self::Backward => "backward",
        }
    }
}

/// One of the two searches: its open list and counters. (The forward costs and parents live
/// in the search's [`NodeTable`], the backward ones beside it.)
#[derive(Clone, Debug)]
struct Side {
    open: OpenList<Calendar>,
    /// Nodes on the open list.
    open_cells: usize,
    expanded: usize,
    /// Nodes closed without expansion because the other side had closed them.
    nipped: usize,
    /// The open node of lowest key, already taken off `open` so that its key can be read
    /// between steps; `NO_PARENT` when the open list is empty.
    top: u32,
    open_bit: u8,
    closed_bit: u8,
}

impl Side {
    fn new(monotone: bool, open_bit: u8, closed_bit: u8) -> Self {
        Self {
            open: OpenList::new(monotone),
            open_cells: 0,
            expanded: 0,
            nipped: 0,
            top: NO_PARENT,
            open_bit,
            closed_bit,
        }
    }

    /// Takes the next open node off the list into `top`, skipping nodes this side has
    /// closed, and closing without expansion ("nipping") the nodes the other side has closed.
    fn refill_top(&mut self, flags: &mut [u8], state: &mut [u8], other_closed: u8) {
        let closed = self.closed_bit;
        self.top = loop {
            match self.open.pop(|n| flags[n as usize] & closed != 0) {
                None => break NO_PARENT,
                Some(n) if flags[n as usize] & closed != 0 => {}
                Some(n) if flags[n as usize] & other_closed != 0 => self.nip(n, flags, state),
                Some(n) => break n,
            }
        };
    }

    /// Closes an open node without expanding it.
    fn nip(&mut self, node: u32, flags: &mut [u8], state: &mut [u8]) {
        let i = node as usize;
        flags[i] = (flags[i] & !self.open_bit) | self.closed_bit;
        if state[i] != CURRENT {
            state[i] = shown(flags[i]);
        }
        self.open_cells -= 1;
        self.nipped += 1;
    }
}

/// Bidirectional A*, one expansion per [`step`](BiAStar::step), on a square grid by default
/// or on any [`Space`] (see [`BiAStar::on`]). See the [module documentation](self) for the
/// stopping rule and its proof.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::search::bi_astar::BiAStar;
/// use pathlab_core::search::{Algorithm, SearchConfig, Status, Stepper};
/// let grid = Grid::new(6, 1).unwrap();
/// let config = SearchConfig::new(Algorithm::BiAStar);
/// let mut s = BiAStar::new(grid, Point::new(0, 0), Point::new(5, 0), config).unwrap();
/// assert_eq!(s.run(), Status::Found);
/// assert_eq!(s.cost(), Some(5.0));
/// assert_eq!(s.path_indices(), &[0, 1, 2, 3, 4, 5]);
/// ```
#[derive(Clone, Debug)]
pub struct BiAStar<S: Space = SquareGrid> {
    space: S,
    task: Task,
    start_at: S::At,
    goal_at: S::At,
    fwd: Side,
    back: Side,
    /// The shown state, and the forward costs and parents.
    nodes: NodeTable,
    /// The backward costs (to the goal) and parents (toward the goal).
    g_back: Vec<f64>,
    parent_back: Vec<u32>,
    flags: Vec<u8>,
    mu: f64,
    meeting: u32,
    current: u32,
    last: Option<Direction>,
    /// The side that expanded last (`Backward` at step 0, so that the forward side starts).
    turn: Direction,
    cost: f64,
}

impl<S: Space> BiAStar<S> {
    /// Sets up a search from node `start` to node `goal` of `space`. Fails when either is not
    /// a node of the space or is a wall, or the weight is not allowed.
    ///
    /// ```
    /// use pathlab_core::search::bi_astar::BiAStar;
    /// use pathlab_core::search::{Algorithm, SearchConfig, Status, SpaceStepper};
    /// use pathlab_core::space::Graph;
    /// let mut g = Graph::new(true);
    /// let a = g.add_node("A", 0.0, 0.0).unwrap();
    /// let b = g.add_node("B", 1.0, 0.0).unwrap();
    /// let c = g.add_node("C", 2.0, 0.0).unwrap();
    /// g.add_edge(a, b, 2.0, true).unwrap();
    /// g.add_edge(b, c, 3.0, true).unwrap();
    /// g.add_edge(c, a, 1.0, true).unwrap();
    /// let mut s = BiAStar::on(g, a, c, SearchConfig::new(Algorithm::BiAStar)).unwrap();
    /// assert_eq!(s.run(), Status::Found);
    /// assert_eq!(s.cost(), Some(5.0));
    /// assert_eq!(s.path_indices(), &[a, b, c]);
    /// ```
    pub fn on(mut space: S, start: u32, goal: u32, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        let task = Task::on(&mut space, start, goal, config)?;
        let n = space.node_count();
        let monotone = config.weight == 1.0;
        let (start_at, goal_at) = (space.at(start), space.at(goal));
        let mut search = Self {
            space,
            task,
            start_at,
            goal_at,
            fwd: Side::new(monotone, OPEN_F, CLOSED_F),
            back: Side::new(monotone, OPEN_B, CLOSED_B),
            nodes: NodeTable::new(n),
            g_back: vec![f64::INFINITY; n],
            parent_back: vec![NO_PARENT; n],
            flags: vec![0; n],
            mu: f64::INFINITY,
            meeting: NO_PARENT,
            current: NO_PARENT,
            last: None,
            turn: Direction::Backward,
            cost: f64::INFINITY,
        };
        search.reset();
        Ok(search)
    }

    /// Goes back to step 0: the start is open forward, the goal open backward.
    pub fn reset(&mut self) {
        // The backward costs and the flags are cleared where the table clears its own.
        let (_, _, _, touched) = self.nodes.parts();
        if touched.len() * 4 > self.flags.len() {
            self.flags.fill(0);
            self.g_back.fill(f64::INFINITY);
            self.parent_back.fill(NO_PARENT);
        } else {
            for &i in touched.iter() {
                let i = i as usize;
                self.flags[i] = 0;
                self.g_back[i] = f64::INFINITY;
                self.parent_back[i] = NO_PARENT;
            }
        }
        self.nodes.reset();
        for side in [&mut self.fwd, &mut self.back] {
            side.open.clear();
            side.open_cells = 1;
            side.expanded = 0;
            side.nipped = 0;
        }
        self.mu = f64::INFINITY;
        self.meeting = NO_PARENT;
        self.current = NO_PARENT;
        self.last = None;
        self.turn = Direction::Backward;
        self.nodes.status = Status::Ready;
        self.nodes.steps = 0;
        self.nodes.path.clear();
        self.cost = f64::INFINITY;

        let (s, t) = (self.task.start, self.task.goal);
        let (h_start, h_goal) = (self.h_forward(self.start_at), self.h_backward(self.goal_at));
        let (state, g, _, touched) = self.nodes.parts();
        touched.push(s);
        if t != s {
            touched.push(t);
        }
        g[s as usize] = 0.0;
        self.flags[s as usize] |= OPEN_F;
        let (key, tie) = astar::priority(0.0, h_start, self.task.config.weight);
        self.fwd.open.push(key, tie, s);
        self.g_back[t as usize] = 0.0;
        self.flags[t as usize] |= OPEN_B;
        let (key, tie) = astar::priority(0.0, h_goal, self.task.config.weight);
        self.back.open.push(key, tie, t);
        state[s as usize] = shown(self.flags[s as usize]);
        state[t as usize] = shown(self.flags[t as usize]);
        if s == t {
            self.mu = 0.0;
            self.meeting = s;
        }
        let state = self.nodes.parts().0;
        self.fwd.refill_top(&mut self.flags, state, CLOSED_B);
        self.back.refill_top(&mut self.flags, state, CLOSED_F);
    }

    /// Moves the start and goal (node numbers); the search goes back to step 0.
    pub fn set_end_nodes(&mut self, start: u32, goal: u32) -> Result<(), SearchError> {
        self.task = Task::checked(&self.space, start, goal, self.task.config)?;
        self.aim();
        self.reset();
        Ok(())
    }

    /// Changes the space, which must keep the start and goal; the search goes back to step
    /// 0. (A space of another size gets new buffers.)
    pub fn set_space(&mut self, space: S) -> Result<(), SearchError> {
        self.task.check(&space)?;
        let n = space.node_count();
        self.space = space;
        if n != self.flags.len() {
            self.nodes = NodeTable::new(n);
            self.g_back = vec![f64::INFINITY; n];
            self.parent_back = vec![NO_PARENT; n];
            self.flags = vec![0; n];
        }
        self.aim();
        self.reset();
        Ok(())
    }

    /// Tells the space the goal and notes where the ends are.
    fn aim(&mut self) {
        self.space.aim(self.task.goal);
        self.start_at = self.space.at(self.task.start);
        self.goal_at = self.space.at(self.task.goal);
    }

    /// The forward estimate: from `at` to the goal.
    #[inline]
    fn h_forward(&self, at: S::At) -> f64 {
        h_forward(&self.space, &self.task.config, at, self.goal_at)
    }

    /// The backward estimate: from the start to `at`.
    #[inline]
    fn h_backward(&self, at: S::At) -> f64 {
        h_backward(&self.space, &self.task.config, self.start_at, at)
    }

    /// The estimate one side uses for `node`.
    fn h_side(&self, dir: Direction, node: u32) -> f64 {
        let at = self.space.at(node);
        match dir {
            Direction::Forward => self.h_forward(at),
            Direction::Backward => self.h_backward(at),
        }
    }

    /// The cost from one side's root to `node` (to the goal, backward).
    fn g_side(&self, dir: Direction, node: u32) -> f64 {
        match dir {
            Direction::Forward => self.nodes.g()[node as usize],
            Direction::Backward => self.g_back[node as usize],
        }
    }

    /// The key `g + w h` of `node` on one side's open list.
    #[inline]
    fn key(&self, dir: Direction, node: u32) -> f64 {
        if node == NO_PARENT {
            return f64::INFINITY;
        }
        self.g_side(dir, node) + self.task.config.weight * self.h_side(dir, node)
    }

    /// The lowest key on the forward open list (`+inf` when it is empty).
    pub fn min_f_forward(&self) -> f64 {
        self.key(Direction::Forward, self.fwd.top)
    }

    /// The lowest key on the backward open list (`+inf` when it is empty).
    pub fn min_f_backward(&self) -> f64 {
        self.key(Direction::Backward, self.back.top)
    }

    /// The cheapest path cost through a node both sides have reached (`+inf` before they
    /// meet).
    pub fn mu(&self) -> f64 {
        self.mu
    }

    /// The node that gives [`mu`](Self::mu), once the frontiers have met.
    pub fn meeting_node(&self) -> Option<u32> {
        (self.meeting != NO_PARENT).then_some(self.meeting)
    }

    /// The side the last step expanded, if it expanded one.
    pub fn last_direction(&self) -> Option<Direction> {
        self.last
    }

    /// Performs one step, telling `recorder` what it expanded and opened (on either side;
    /// [`last_direction`](Self::last_direction) says which).
    pub fn step_with<R: Recorder>(&mut self, recorder: &mut R) -> StepEvent<S::At> {
        if self.nodes.status.is_finished() {
            return StepEvent::Finished;
        }
        if self.current != NO_PARENT {
            let c = self.current as usize;
            self.current = NO_PARENT;
            self.nodes.parts().0[c] = shown(self.flags[c]);
        }
        self.nodes.steps += 1;
        self.nodes.status = Status::Searching;
        self.last = None;
        let bound = self.min_f_forward().max(self.min_f_backward());
        if self.mu <= bound {
            return if self.mu.is_finite() {
                self.finish_path();
                self.nodes.status = Status::Found;
                StepEvent::Found { cost: self.cost }
            } else {
                self.nodes.status = Status::NoPath;
                StepEvent::NoPath
            };
        }
        // Both open lists hold a node here: an empty one has an infinite key, and the rule
        // above fires.
        let dir = self.next_direction();
        self.turn = dir;
        self.last = Some(dir);
        let node = self.expand(dir, recorder);
        StepEvent::Expanded(self.space.at(node))
    }

    /// The side the next expansion will be on: the one with fewer open nodes, on a tie the
    /// one that did not expand last.
    fn next_direction(&self) -> Direction {
        match self.back.open_cells.cmp(&self.fwd.open_cells) {
            Ordering::Less => Direction::Backward,
            Ordering::Greater => Direction::Forward,
            Ordering::Equal if self.turn == Direction::Forward => Direction::Backward,
            Ordering::Equal => Direction::Forward,
        }
    }

    /// The open list of the side the next step expands, in the order it gives nodes up: its
    /// lowest node first (the one the next step expands, unless the stopping rule ends the
    /// search), then the rest of that side's list by key and tie-break, leaving out the nodes
    /// either side has closed (the other side's it would close without expanding). Costs,
    /// estimates and parents are that side's: from the start toward the goal forward, from
    /// the goal toward the start backward. The other side's list is not included.
    pub fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        let dir = self.next_direction();
        let (side, other, parent) = match dir {
            Direction::Forward => (&self.fwd, &self.back, self.nodes.parent()),
            Direction::Backward => (&self.back, &self.fwd, &self.parent_back[..]),
        };
        let mut cells = Vec::new();
        if side.top != NO_PARENT && limit > 0 {
            cells.push(side.top);
        }
        let closed = side.closed_bit | other.closed_bit;
        let (flags, top) = (&self.flags, side.top);
        cells.extend(side.open.leaving_order(limit - cells.len(), |n| n == top || flags[n as usize] & closed != 0));
        cells
            .into_iter()
            .map(|cell| {
                let g = self.g_side(dir, cell);
                let h = self.h_side(dir, cell);
                OpenEntry { cell, g, h, key: g + self.task.config.weight * h, parent: parent[cell as usize] }
            })
            .collect()
    }

    /// Expands the top of one side's open list; returns the node expanded.
    fn expand<R: Recorder>(&mut self, dir: Direction, recorder: &mut R) -> u32 {
        // One compiled copy per direction, so that the inner loop does not test it.
        let node = match dir {
            Direction::Forward => self.expand_side::<true, R>(recorder),
            Direction::Backward => self.expand_side::<false, R>(recorder),
        };
        // The other side's next node may be the one just closed here: close it there too.
        let other = match dir {
            Direction::Forward => &mut self.back,
            Direction::Backward => &mut self.fwd,
        };
        if other.top == node {
            let state = self.nodes.parts().0;
            other.nip(node, &mut self.flags, state);
            other.refill_top(&mut self.flags, state, me_closed(dir));
        }
        self.current = node;
        node
    }

    /// Expands the top of the forward open list (`FORWARD`) or the backward one.
    #[inline]
    fn expand_side<const FORWARD: bool, R: Recorder>(&mut self, recorder: &mut R) -> u32 {
        let Self { space, start_at, goal_at, task, fwd, back, nodes, g_back, parent_back, flags, mu, meeting, .. } =
            self;
        let config = &task.config;
        let (state, g_fwd, parent_fwd, touched) = nodes.parts();
        let (me, other, my_g, my_parent, other_g) = if FORWARD {
            (fwd, &*back, g_fwd, parent_fwd, &g_back[..])
        } else {
            (back, &*fwd, &mut g_back[..], &mut parent_back[..], &*g_fwd)
        };
        let node = me.top;
        let ni = node as usize;
        flags[ni] = (flags[ni] & !me.open_bit) | me.closed_bit;
        state[ni] = CURRENT;
        me.open_cells -= 1;
        me.expanded += 1;
        recorder.expanded(node);
        let base_g = my_g[ni];
        let at = space.at(node);
        let other_known = other.open_bit | other.closed_bit;
        let (start_at, goal_at) = (*start_at, *goal_at);
        let space = &*space;
        let relax = |nb: u32, nb_at: S::At, cost: f64| {
            let i = nb as usize;
            let f = flags[i];
            // A closed node (the one being expanded, for a self-loop) is never improved.
            if f & me.closed_bit != 0 {
                return;
            }
            let new_g = base_g + cost;
            let was_open = f & me.open_bit != 0;
            if was_open && new_g >= my_g[i] {
                return;
            }
            let old_g = if was_open {
                Some(my_g[i])
            } else {
                if f == 0 {
                    touched.push(nb);
                }
                me.open_cells += 1;
                None
            };
            my_g[i] = new_g;
            my_parent[i] = node;
            let nf = f | me.open_bit;
            flags[i] = nf;
            state[i] = shown(nf);
            if f & other_known != 0 {
                let through = new_g + other_g[i];
                if through < *mu {
                    *mu = through;
                    *meeting = nb;
                }
            }
            let h = if FORWARD {
                h_forward(space, config, nb_at, goal_at)
            } else {
                h_backward(space, config, start_at, nb_at)
            };
            let (key, tie) = astar::priority(new_g, h, config.weight);
            me.open.push(key, tie, nb);
            recorder.opened(nb, node, old_g, new_g);
        };
        // Forward: the edges node -> nb. Backward: the edges nb -> node, at what they cost
        // forward.
        if FORWARD {
            space.for_each_neighbour(node, at, relax);
        } else {
            space.for_each_predecessor(node, at, relax);
        }
        let other_closed = other.closed_bit;
        me.refill_top(flags, state, other_closed);
        node
    }

    /// Joins the forward path to the meeting node with the backward path from it, and writes
    /// the backward half into the forward buffers.
    fn finish_path(&mut self) {
        let mut path = Vec::new();
        let mut at = self.meeting;
        while at != NO_PARENT {
            path.push(at);
            at = self.nodes.parent()[at as usize];
        }
        path.reverse();
        let mut at = self.parent_back[self.meeting as usize];
        while at != NO_PARENT {
            path.push(at);
            at = self.parent_back[at as usize];
        }
        let (state, g, parent, _) = self.nodes.parts();
        for k in 1..path.len() {
            let (a, b) = (path[k - 1], path[k]);
            // The cheapest edge a -> b: the one each side kept when it relaxed them all. On
            // the forward half this rewrites what is already there (each node's forward
            // parent is closed, so its cost has not moved since).
            let mut step = f64::INFINITY;
            self.space.for_each_neighbour(a, self.space.at(a), |nb, _, cost| {
                if nb == b && cost < step {
                    step = cost;
                }
            });
            g[b as usize] = g[a as usize] + step;
            parent[b as usize] = a;
        }
        for &p in &path {
            state[p as usize] = CellState::Path as u8;
        }
        self.cost = g[self.task.goal as usize];
        self.nodes.path = path;
    }

    /// Expansions of the forward search.
    pub fn expanded_forward(&self) -> usize {
        self.fwd.expanded
    }

    /// Expansions of the backward search.
    pub fn expanded_backward(&self) -> usize {
        self.back.expanded
    }

    /// Nodes closed without expansion by either side because the other side had closed them.
    pub fn nipped(&self) -> usize {
        self.fwd.nipped + self.back.nipped
    }

    /// The backward search's cost from each node to the goal (infinite where unknown).
    pub fn g_back(&self) -> &[f64] {
        &self.g_back
    }

    /// The backward search's parents: the next node toward the goal, or [`NO_PARENT`].
    pub fn parents_back(&self) -> &[u32] {
        &self.parent_back
    }

    /// The backward estimate of `node`: from the start to it (before the weight).
    pub fn h_back_of(&self, node: u32) -> f64 {
        self.h_side(Direction::Backward, node)
    }

    /// The overlay: the meeting node, and `mu` with the two minima of the stopping rule.
    pub fn overlay(&self) -> Overlay {
        let mut overlay = Overlay::default();
        if self.meeting != NO_PARENT {
            overlay.marks.push(OverlayMark { cell: self.meeting, kind: MarkKind::Meeting });
        }
        let number = |v: f64| if v.is_finite() { format!("{}", round6(v)) } else { "inf".to_string() };
        let (ff, fb) = (self.min_f_forward(), self.min_f_backward());
        overlay.notes.push(("mu", number(self.mu)));
        overlay.notes.push(("forward min f", number(ff)));
        overlay.notes.push(("backward min f", number(fb)));
        let stop = if self.nodes.status.is_finished() {
            "stopped".to_string()
        } else if self.mu.is_finite() {
            format!("stop once mu {} <= max(min f) {}", number(self.mu), number(ff.max(fb)))
        } else {
            "stop once mu <= max(min f); the frontiers have not met".to_string()
        };
        overlay.notes.push(("stopping rule", stop));
        if let Some(dir) = self.last {
            overlay.notes.push(("direction", dir.name().to_string()));
        }
        overlay.notes.push(("expanded forward / backward", format!("{} / {}", self.fwd.expanded, self.back.expanded)));
        overlay.notes.push(("nipped", self.nipped().to_string()));
        overlay
    }
}

impl BiAStar<SquareGrid> {
    /// Sets up a search from `start` to `goal`. Fails when either end is outside the grid or
    /// on a wall, or the weight is not allowed.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        check_ends(&grid, start, goal)?;
        let (s, g) = (grid.index(start) as u32, grid.index(goal) as u32);
        Self::on(SquareGrid::with_config(grid, &config), s, g, config)
    }
}

impl<S: OnGrid> BiAStar<S> {
    /// The cell that gives [`mu`](Self::mu), once the frontiers have met.
    pub fn meeting(&self) -> Option<Point> {
        self.meeting_node().map(|n| self.space.at(n))
    }
}

/// The forward estimate, from `at` to `goal`.
#[inline]
fn h_forward<S: Space>(space: &S, config: &SearchConfig, at: S::At, goal: S::At) -> f64 {
    if config.algorithm.uses_heuristic() {
        space.estimate(at, goal)
    } else {
        0.0
    }
}

/// The backward estimate, from `start` to `at`: a lower bound on the cost of getting there
/// from the start, even where the edges are one-way.
#[inline]
fn h_backward<S: Space>(space: &S, config: &SearchConfig, start: S::At, at: S::At) -> f64 {
    if config.algorithm.uses_heuristic() {
        space.estimate(start, at)
    } else {
        0.0
    }
}

/// The closed flag of a side.
const fn me_closed(dir: Direction) -> u8 {
    match dir {
        Direction::Forward => CLOSED_F,
        Direction::Backward => CLOSED_B,
    }
}

/// The state shown for a node with these flags: `Closed > ClosedBack > Open > OpenBack`.
#[inline]
const fn shown(flags: u8) -> u8 {
    if flags & CLOSED_F != 0 {
        CLOSED
    } else if flags & CLOSED_B != 0 {
        CLOSED_BACK
    } else if flags & OPEN_F != 0 {
        OPEN
    } else if flags & OPEN_B != 0 {
        OPEN_BACK
    } else {
        UNSEEN
    }
}

/// A value rounded to six decimals, for the notes.
fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

impl<S: Space + Clone + 'static> SpaceStepper<S> for BiAStar<S> {
    // One expansion on one side, or the final check.
    steps_through_step_with!(S);

    fn reset(&mut self) {
        BiAStar::reset(self);
    }

    /// The shown states, the forward costs and parents, the steps and the path.
    fn nodes(&self) -> &NodeTable {
        &self.nodes
    }

    /// Expansions on both sides.
    fn expanded(&self) -> usize {
        self.fwd.expanded + self.back.expanded
    }

    /// Nodes on the two open lists (a node open on both counts twice).
    fn open_count(&self) -> usize {
        self.fwd.open_cells + self.back.open_cells
    }

    fn cost(&self) -> Option<f64> {
        (self.nodes.status == Status::Found).then_some(self.cost)
    }

    /// The forward estimate from `node` to the goal (before the weight).
    fn h_of(&self, node: u32) -> f64 {
        self.h_side(Direction::Forward, node)
    }

    holds_space_and_task!(S);

    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        BiAStar::open_entries(self, limit)
    }
}

impl<S: OnGrid> GridStepper for BiAStar<S> {
    type Cells = S;

    fn h(&self, p: Point) -> f64 {
        self.h_forward(p)
    }

    /// Sets every listed cell to `value` as a brush stroke does; when any changed, the search
    /// goes back to step 0.
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        Ok(stroke_then_restart(self, cells, value, |s| s.space.grid_mut()))
    }

    fn overlay(&self) -> Overlay {
        BiAStar::overlay(self)
    }

    /// Two sides' costs and parents: 36 bytes per cell.
    fn bytes_per_cell(&self) -> usize {
        36
    }
}
