//! Time-sliced path requests: many agents ask for paths, and each frame spends a fixed budget
//! of search work on them, the most urgent first.
//!
//! Finding a path is rarely needed within the frame it is asked for, so a game spreads the work
//! over several frames; when many agents ask at once, the budget goes to the most urgent ones
//! (the agent the player is likely to see up close) first. A [`FramePlanner`] does this with
//! the engine's [`Search`]: every request gets its own search, which is kept between ticks so
//! that a request resumes exactly where the budget stopped it.
//!
//! # One unit of budget
//!
//! One unit is one [`step`](super::SpaceStepper::step): one expansion, or the last step of a search, which pops
//! the goal or finds the open list empty. A search that finishes after `k` expansions has
//! therefore cost `k + 1` units, and a request still searching has cost exactly its expansions.
//!
//! # The order of service
//!
//! At the start of each tick the open requests (queued or searching) are ranked by their
//! *effective urgency*, highest first; equal effective urgencies go to the request submitted
//! first (the lower id). The tick then works on the first request **until it finishes**, then
//! on the second, and so on, until the budget is spent. It does not split the budget between
//! requests: finishing the most urgent request as early as possible is the point. A request the
//! budget stops in the middle keeps its search and takes its place in the ranking again at the
//! next tick, so a more urgent request submitted in between goes ahead of it.
//!
//! # Aging
//!
//! Without aging, a low-urgency request never gets any work while more urgent requests keep
//! arriving: it starves. With aging, a request's effective urgency is
//! `urgency + aging x age`, where `age` is the number of ticks run since it was submitted
//! ([`DEFAULT_AGING`] urgency points per tick unless set with
//! [`set_aging`](FramePlanner::set_aging); 0 turns aging off). A request of urgency `u` is
//! then ranked ahead of every request of urgency at most `U` submitted more than
//! `(U - u) / aging` ticks after it, so only finitely many requests can ever be served before
//! it, and it finishes.
//!
//! # Editing the grid
//!
//! [`set_grid`](FramePlanner::set_grid) and [`paint`](FramePlanner::paint) restart every
//! request that is not cancelled, because a new wall can cut a path already found and a
//! removed one can open a way that was missing. A request still open goes back to queued (its
//! search is dropped; it keeps its place in time, so its age keeps growing); a request that had
//! finished (found or no path) is queued again as if submitted at that moment, and its old
//! answer is gone. A request whose start or goal is no longer an open cell of the new grid
//! finishes as no path when the next tick reaches it, at no cost.
//!
//! ```
//! use pathlab_core::grid::{Grid, Point};
//! use pathlab_core::search::slicing::{FramePlanner, RequestStatus};
//! use pathlab_core::search::{Algorithm, SearchConfig};
//! let grid = Grid::new(10, 10).unwrap();
//! let mut planner = FramePlanner::new(grid, SearchConfig::new(Algorithm::AStar)).unwrap();
//! let calm = planner.submit(Point::new(0, 0), Point::new(9, 9), 1.0).unwrap();
//! let urgent = planner.submit(Point::new(9, 0), Point::new(0, 9), 5.0).unwrap();
//! let tick = planner.tick(5);
//! assert_eq!(tick.spent, 5);
//! assert_eq!(tick.progressed, vec![urgent]);
//! while planner.open_count() > 0 {
//!     planner.tick(5);
//! }
//! let request = planner.request(calm).unwrap();
//! assert_eq!(request.status(), RequestStatus::Found);
//! assert!((request.cost().unwrap() - 9.0 * std::f64::consts::SQRT_2).abs() < 1e-9);
//! assert!(planner.request(urgent).unwrap().ticks_to_finish() < request.ticks_to_finish());
//! ```

use std::collections::BTreeMap;
use std::fmt;

use super::engine::check_ends;
use super::{Path, Search, SearchConfig, SearchError, Status, Stepper};
use crate::grid::{named_enum, Grid, Point, WALL};

/// How much a waiting request's effective urgency grows per tick unless set otherwise.
pub const DEFAULT_AGING: f64 = 0.1;

/// The largest urgency, and the largest aging rate, accepted.
pub const MAX_URGENCY: f64 = 1_000_000.0;

/// The most requests a planner holds at once (open and finished ones not yet forgotten).
pub const MAX_REQUESTS: usize = 65_536;

/// Names one request of a [`FramePlanner`]. Ids are handed out in submission order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestId(u32);

impl RequestId {
    /// The number behind the id.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The id with this number (it names a request only if the planner handed it out).
    pub const fn new(number: u32) -> Self {
        Self(number)
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

named_enum! {
    /// Where a path request stands.
    RequestStatus, "request status" {
        /// Waiting: no work done on it yet (or restarted after the grid changed).
        Queued = 0, "queued";
        /// Some of its search is done; it resumes at the next tick that reaches it.
        Searching = 1, "searching";
        /// Its path is known.
        Found = 2, "found";
        /// Its goal cannot be reached (or its start or goal is no longer open).
        NoPath = 3, "no-path";
        /// Withdrawn before it finished; it gets no more work.
        Cancelled = 4, "cancelled";
    }
}

impl RequestStatus {
    /// True while the request still wants work: queued or searching.
    pub const fn is_open(self) -> bool {
        matches!(self, Self::Queued | Self::Searching)
    }
}

/// One path request and what has happened to it so far.
#[derive(Clone, Debug)]
pub struct Request {
    id: RequestId,
    start: Point,
    goal: Point,
    urgency: f64,
    effective: f64,
    status: RequestStatus,
    submitted: u64,
    age: u64,
    first_work: Option<u64>,
    finished: Option<u64>,
    steps: usize,
    expanded: usize,
    path: Option<Path>,
    search: Option<Search>,
}

impl Request {
    /// Its id.
    pub fn id(&self) -> RequestId {
        self.id
    }

    /// Where the path starts.
    pub fn start(&self) -> Point {
        self.start
    }

    /// Where the path ends.
    pub fn goal(&self) -> Point {
        self.goal
    }

    /// The urgency it was submitted with.
    pub fn urgency(&self) -> f64 {
        self.urgency
    }

    /// The urgency the next tick ranks it by: its urgency plus the aging earned while it
    /// waited (frozen once it finishes).
    pub fn effective_urgency(&self) -> f64 {
        self.effective
    }

    /// Where it stands.
    pub fn status(&self) -> RequestStatus {
        self.status
    }

    /// The tick count when it was submitted (or queued again after a grid change): the index
    /// of the first tick that could work on it.
    pub fn submitted_at(&self) -> u64 {
        self.submitted
    }

    /// Ticks run since it was submitted; once it has finished, the ticks run before the one
    /// that finished it.
    pub fn age(&self) -> u64 {
        self.age
    }

    /// Units of budget spent on its current search (see the module notes).
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Nodes its current search has expanded.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// How many ticks ran after its submission without working on it before one did: 0 when
    /// the first tick after submission worked on it. `None` while it has had no work.
    pub fn waited_before_work(&self) -> Option<u64> {
        self.first_work.map(|t| t - self.submitted)
    }

    /// How many ticks it took from submission to its answer, counting the tick that finished
    /// it: 1 when the first tick after submission did all its work. `None` until it finishes
    /// (and for cancelled requests).
    pub fn ticks_to_finish(&self) -> Option<u64> {
        self.finished.map(|t| t - self.submitted + 1)
    }

    /// The index of the tick that finished it, once it has finished (not for cancelled
    /// requests).
    pub fn finished_at(&self) -> Option<u64> {
        self.finished
    }

    /// The path once found.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_ref()
    }

    /// The path's cost once found.
    pub fn cost(&self) -> Option<f64> {
        self.path.as_ref().map(|p| p.cost)
    }
}

/// What one tick did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tick {
    /// Which tick this was, from 0.
    pub index: u64,
    /// The budget it was given.
    pub budget: usize,
    /// Units of budget it spent: at most `budget`, and less only when no open request was
    /// left.
    pub spent: usize,
    /// The requests it worked on, in the order it worked on them.
    pub progressed: Vec<RequestId>,
    /// The requests that finished (found or no path) during it.
    pub finished: Vec<RequestId>,
}

/// Path requests from many agents, served a budget of search work per tick, most urgent first.
///
/// It owns the grid all requests share and the search settings (any algorithm of the
/// engine's [`Search`]: BFS, DFS, Dijkstra, greedy best-first, A*). See the module notes for
/// the order of service, aging and grid edits.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::search::slicing::{FramePlanner, RequestStatus};
/// use pathlab_core::search::{Algorithm, SearchConfig};
/// let mut planner = FramePlanner::new(Grid::new(8, 1).unwrap(), SearchConfig::new(Algorithm::AStar)).unwrap();
/// let id = planner.submit(Point::new(0, 0), Point::new(7, 0), 1.0).unwrap();
/// // 7 expansions and the step that pops the goal: 8 units, 3 ticks of 3.
/// for spent in [3, 3, 2] {
///     assert_eq!(planner.tick(3).spent, spent);
/// }
/// assert_eq!(planner.request(id).unwrap().status(), RequestStatus::Found);
/// assert_eq!(planner.request(id).unwrap().ticks_to_finish(), Some(3));
/// ```
#[derive(Clone, Debug)]
pub struct FramePlanner {
    grid: Grid,
    config: SearchConfig,
    aging: f64,
    ticks: u64,
    next_id: u32,
    requests: BTreeMap<RequestId, Request>,
    /// Searches of finished requests, kept to reuse their per-cell buffers (same grid).
    pool: Vec<Search>,
}

impl FramePlanner {
    /// A planner for `grid` whose requests run searches with `config`. Fails when the
    /// settings are not allowed or the algorithm is not one of the engine's.
    pub fn new(grid: Grid, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        if !config.algorithm.is_basic() {
            return Err(SearchError::Unsupported(format!(
                "time-sliced requests run the basic searches (bfs, dfs, dijkstra, greedy, astar), not {}",
                config.algorithm
            )));
        }
        Ok(Self {
            grid,
            config,
            aging: DEFAULT_AGING,
            ticks: 0,
            next_id: 0,
            requests: BTreeMap::new(),
            pool: Vec::new(),
        })
    }

    /// The grid the requests share.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The search settings.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// Ticks run so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Urgency points a waiting request gains per tick (0: aging off).
    pub fn aging(&self) -> f64 {
        self.aging
    }

    /// Sets the urgency points a waiting request gains per tick: a number from 0 (aging off)
    /// to [`MAX_URGENCY`]. The open requests' effective urgencies follow at once.
    pub fn set_aging(&mut self, per_tick: f64) -> Result<(), SearchError> {
        if !(per_tick.is_finite() && (0.0..=MAX_URGENCY).contains(&per_tick)) {
            return Err(SearchError::Unsupported(format!(
                "aging must be a number from 0 to {MAX_URGENCY} urgency points per tick, got {per_tick}"
            )));
        }
        self.aging = per_tick;
        self.refresh();
        Ok(())
    }

    /// Asks for a path from `start` to `goal`. A higher `urgency` (a number from 0 to
    /// [`MAX_URGENCY`]) is served earlier. Fails when an end is outside the grid or on a
    /// wall, the urgency is not allowed, or [`MAX_REQUESTS`] requests are held.
    pub fn submit(&mut self, start: Point, goal: Point, urgency: f64) -> Result<RequestId, SearchError> {
        check_ends(&self.grid, start, goal)?;
        if !(urgency.is_finite() && (0.0..=MAX_URGENCY).contains(&urgency)) {
            return Err(SearchError::Unsupported(format!(
                "urgency must be a number from 0 to {MAX_URGENCY}, got {urgency}"
            )));
        }
        if self.requests.len() >= MAX_REQUESTS {
            return Err(SearchError::Unsupported(format!(
                "{MAX_REQUESTS} requests are held already: forget finished ones before submitting more"
            )));
        }
        let id = RequestId(self.next_id);
        self.next_id = self
            .next_id
            .checked_add(1)
            .ok_or_else(|| SearchError::Unsupported("every request id has been used".to_string()))?;
        let request = Request {
            id,
            start,
            goal,
            urgency,
            effective: urgency,
            status: RequestStatus::Queued,
            submitted: self.ticks,
            age: 0,
            first_work: None,
            finished: None,
            steps: 0,
            expanded: 0,
            path: None,
            search: None,
        };
        self.requests.insert(id, request);
        Ok(id)
    }

    /// Withdraws an open request: it gets no more work and its search is freed. Returns
    /// false (and changes nothing) when the id is unknown or the request already finished or
    /// was cancelled.
    pub fn cancel(&mut self, id: RequestId) -> bool {
        let Some(request) = self.requests.get_mut(&id) else {
            return false;
        };
        if !request.status.is_open() {
            return false;
        }
        request.status = RequestStatus::Cancelled;
        if let Some(search) = request.search.take() {
            self.pool.push(search);
        }
        true
    }

    /// Drops a request's record (cancelling it first if it is open), for callers that have
    /// read its answer. Returns false when the id is unknown.
    pub fn forget(&mut self, id: RequestId) -> bool {
        self.cancel(id);
        self.requests.remove(&id).is_some()
    }

    /// Drops every request.
    pub fn clear(&mut self) {
        let searches = std::mem::take(&mut self.requests).into_values().filter_map(|r| r.search);
        self.pool.extend(searches);
    }

    /// One request, if the planner holds it.
    pub fn request(&self, id: RequestId) -> Option<&Request> {
        self.requests.get(&id)
    }

    /// Every request held, in submission order.
    pub fn requests(&self) -> impl Iterator<Item = &Request> {
        self.requests.values()
    }

    /// Requests queued or searching.
    pub fn open_count(&self) -> usize {
        self.requests.values().filter(|r| r.status.is_open()).count()
    }

    /// The open requests in the order the next tick serves them: highest effective urgency
    /// first, then first submitted.
    pub fn queue(&self) -> Vec<&Request> {
        let mut open: Vec<&Request> = self.requests.values().filter(|r| r.status.is_open()).collect();
        super::order::sort_by(&mut open, &|a, b| b.effective.total_cmp(&a.effective).then(a.id.cmp(&b.id)));
        open
    }

    /// Spends at most `budget` units of search work (see the module notes) on the open
    /// requests, most urgent first, each until it finishes before the next; then ages the
    /// requests still open.
    pub fn tick(&mut self, budget: usize) -> Tick {
        let now = self.ticks;
        let order: Vec<RequestId> = self.queue().iter().map(|r| r.id).collect();
        let mut tick = Tick { index: now, budget, ..Tick::default() };
        for id in order {
            if tick.spent >= budget {
                break;
            }
            let Some(request) = self.requests.get_mut(&id) else {
                continue;
            };
            // A new search checks the ends again: the grid may have changed since submission.
            let (start, goal) = (request.start, request.goal);
            let fresh = || fresh_search(&mut self.pool, &self.grid, start, goal, self.config);
            let Ok(mut search) = request.search.take().map_or_else(fresh, Ok) else {
                request.status = RequestStatus::NoPath;
                request.finished = Some(now);
                tick.finished.push(id);
                continue;
            };
            if request.first_work.is_none() {
                request.first_work = Some(now);
            }
            let taken = search.advance(budget - tick.spent);
            tick.spent += taken;
            tick.progressed.push(id);
            request.steps = search.steps();
            request.expanded = search.expanded();
            match search.status() {
                Status::Found | Status::NoPath => {
                    request.status =
                        if search.status() == Status::Found { RequestStatus::Found } else { RequestStatus::NoPath };
                    request.path = search.path();
                    request.finished = Some(now);
                    tick.finished.push(id);
                    self.pool.push(search);
                }
                Status::Ready | Status::Searching => {
                    request.status = RequestStatus::Searching;
                    request.search = Some(search);
                }
            }
        }
        self.ticks += 1;
        self.refresh();
        tick
    }

    /// Replaces the grid; every request that is not cancelled restarts (see the module
    /// notes).
    pub fn set_grid(&mut self, grid: Grid) {
        self.grid = grid;
        self.restart_all();
    }

    /// Sets every listed cell to `value`, as a brush stroke does: cells outside the grid are
    /// skipped, and so are the start and goal of every request not cancelled when `value` is
    /// a wall. Returns how many cells changed; when any did, every request that is not
    /// cancelled restarts (see the module notes).
    pub fn paint(&mut self, cells: impl IntoIterator<Item = Point>, value: u8) -> usize {
        let mut changed = 0;
        for p in cells {
            let end = value == WALL
                && self
                    .requests
                    .values()
                    .any(|r| r.status != RequestStatus::Cancelled && (r.start == p || r.goal == p));
            if end || self.grid.get(p).is_none_or(|v| v == value) {
                continue;
            }
            if self.grid.set(p, value).is_ok() {
                changed += 1;
            }
        }
        if changed > 0 {
            self.restart_all();
        }
        changed
    }

    fn restart_all(&mut self) {
        // The pooled searches hold copies of the old grid.
        self.pool.clear();
        let now = self.ticks;
        for request in self.requests.values_mut() {
            match request.status {
                RequestStatus::Cancelled => continue,
                RequestStatus::Found | RequestStatus::NoPath => {
                    request.submitted = now;
                    request.age = 0;
                }
                RequestStatus::Queued | RequestStatus::Searching => {}
            }
            request.status = RequestStatus::Queued;
            request.search = None;
            request.first_work = None;
            request.finished = None;
            request.steps = 0;
            request.expanded = 0;
            request.path = None;
        }
        self.refresh();
    }

    /// Brings the open requests' age and effective urgency up to the current tick count.
    fn refresh(&mut self) {
        let (now, aging) = (self.ticks, self.aging);
        for request in self.requests.values_mut().filter(|r| r.status.is_open()) {
            request.age = now - request.submitted;
            request.effective = request.urgency + aging * request.age as f64;
        }
    }
}

/// A search from `start` to `goal` at step 0: a pooled one moved to the request's ends, or a new one.
/// Fails when an end is not an open cell of the grid.
fn fresh_search(
    pool: &mut Vec<Search>,
    grid: &Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
) -> Result<Search, SearchError> {
    match pool.pop() {
        Some(mut search) => match search.set_ends(start, goal) {
            Ok(()) => Ok(search),
            Err(e) => {
                pool.push(search);
                Err(e)
            }
        },
        None => Search::new(grid.clone(), start, goal, config),
    }
}
