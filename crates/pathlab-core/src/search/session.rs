//! What the grid page's search does while someone edits around it: a [`Session`] holds the
//! search shown (a [`Timeline`]), the map's teleports or slopes, and what the last step did,
//! and keeps one rule for every edit.
//!
//! # The editing rule
//!
//! An edit should not lose the viewer's place. So after
//! - **painting cells** ([`paint`](Session::paint), [`paint_line`](Session::paint_line),
//!   [`clear`](Session::clear)) the search re-runs on the new map to the step it stood on, or
//!   to its end if it had finished (or sooner, if the new run is shorter). An incremental
//!   search (LPA*, D* Lite) instead keeps its steps, and the steps that follow are its repair;
//!   a stroke that changes no cell changes nothing at all;
//! - **changing a setting** ([`configure`](Session::configure)) or the **teleports or slopes**
//!   ([`set_links`](Session::set_links)) the search is built again and re-runs to the same
//!   step; a change the algorithm refuses leaves everything as it was;
//! - **moving an end** ([`set_ends`](Session::set_ends)) every search, incremental or not,
//!   starts again and re-runs to the same step;
//! - **a new map** ([`replace`](Session::replace)) the settings stay, the teleports or slopes
//!   (made for the old map) go, and the search is back at step 0.
//!
//! Re-running is plain stepping, not a jump to a checkpoint: the edit made the checkpoints
//! stale, and a brush stroke should cost no more than the replay.
//!
//! # Landing on a step
//!
//! The page narrates the last step (the cell expanded, the neighbours opened). A jump to step
//! `k` ([`seek`](Session::seek), [`back`](Session::back)) goes to step `k - 1` and takes step
//! `k` itself with the log on, so its narration reads as if it had just been taken; at the end
//! of a run the narration says how the run ended.
//!
//! Reading goes straight to the timeline (a `Session` dereferences to its [`Timeline`]);
//! everything that changes the search goes through the session, so the rule above holds.
//!
//! ```
//! use pathlab_core::grid::{Grid, Point, WALL};
//! use pathlab_core::search::session::Session;
//! use pathlab_core::search::{Algorithm, SearchConfig, Stepper};
//! let grid = Grid::new(9, 5).unwrap();
//! let config = SearchConfig::new(Algorithm::Dijkstra);
//! let mut session = Session::new(grid, Point::new(1, 2), Point::new(7, 2), config).unwrap();
//! session.seek(10);
//! assert_eq!(session.last_kind(), "expanded");
//! // A wall painted at step 10: the search re-runs on the new map to step 10.
//! assert_eq!(session.paint_line((4, 0), (4, 3), WALL).unwrap(), 4);
//! assert_eq!(session.steps(), 10);
//! assert_eq!(session.grid().get(Point::new(4, 1)), Some(WALL));
//! ```

use std::ops::Deref;

use super::timeline::Timeline;
use super::{
    build_linked, Algorithm, CellState, EventLog, GridLinks, SearchConfig, SearchError, Status, StepEvent, Stepper,
};
use crate::grid::{Grid, Point, GROUND};
use crate::line::grid_cells_on_line;
use crate::space::TeleportHeuristic;

/// The grid page's search and the rule for editing around it (see the [module
/// documentation](self)).
#[derive(Clone, Debug)]
pub struct Session {
    /// The search, with checkpoints so that seeking to any step is quick.
    search: Timeline,
    /// Teleports or slopes on the grid, if any.
    links: GridLinks,
    /// What the last step opened and improved.
    log: EventLog,
    /// What the last step returned ([`StepEvent::Finished`] when none was taken since the
    /// last edit or reset).
    last: StepEvent,
    /// What builds the search after a change: [`build_linked`], or a narrower [`Builder`].
    build: Builder,
}

/// What builds a session's search from a map, its ends, the settings and the links:
/// [`build_linked`] holds every algorithm; a wasm module that holds only some of them (the
/// grid page's first module, [`build_first`](super::registry::build_first)) passes its own,
/// so that the others are not linked into it.
pub type Builder = fn(Grid, Point, Point, SearchConfig, &GridLinks) -> Result<Box<dyn Stepper>, SearchError>;

/// Reading the search: every [`Stepper`] accessor and the timeline's own read-outs
/// ([`total`](Timeline::total), [`exploring`](Timeline::exploring), ...).
impl Deref for Session {
    type Target = Timeline;

    fn deref(&self) -> &Timeline {
        &self.search
    }
}

/// The closed list as the page lists it (see [`Session::closed_list`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClosedList {
    /// How many cells are closed.
    pub count: usize,
    /// The first of them in map order (row by row), each with its g when known.
    pub cells: Vec<(Point, Option<f64>)>,
}

impl Session {
    /// A session on `grid` without teleports or slopes, at step 0, holding every algorithm.
    pub fn new(grid: Grid, start: Point, goal: Point, config: SearchConfig) -> Result<Self, SearchError> {
        Self::with_builder(grid, start, goal, config, build_linked)
    }

    /// [`new`](Self::new), but every search of this session (and of its copies) is built by
    /// `build`: a builder that refuses some algorithms keeps them out of a wasm module.
    pub fn with_builder(
        grid: Grid,
        start: Point,
        goal: Point,
        config: SearchConfig,
        build: Builder,
    ) -> Result<Self, SearchError> {
        Ok(Self::around(Timeline::new(build(grid, start, goal, config, &GridLinks::None)?), GridLinks::None, build))
    }

    fn around(search: Timeline, links: GridLinks, build: Builder) -> Self {
        Self { search, links, log: EventLog::default(), last: StepEvent::Finished, build }
    }

    /// The teleports or slopes on the map.
    pub fn links(&self) -> &GridLinks {
        &self.links
    }

    /// True when teleports are on the map and the estimate ignores them, so it may
    /// overestimate and A* may miss the cheapest path.
    pub fn blind_to_teleports(&self) -> bool {
        matches!(&self.links, GridLinks::Teleports { heuristic: TeleportHeuristic::Plain, .. })
    }

    /// A session on a copy of this map (cells, start and goal) with the same settings but
    /// `algorithm`, at step 0, without the teleports or slopes: one pane of a comparison.
    /// This session is left as it was.
    pub fn with_algorithm(&self, algorithm: Algorithm) -> Result<Self, SearchError> {
        let mut config = self.search.config();
        config.algorithm = algorithm;
        Self::with_builder(self.search.grid().clone(), self.search.start(), self.search.goal(), config, self.build)
    }

    // ---- edits ----

    /// A new map: the settings stay, the teleports or slopes go, back to step 0. On error
    /// (an end on a wall, a map the algorithm cannot run on) nothing changes.
    pub fn replace(&mut self, grid: Grid, start: Point, goal: Point) -> Result<(), SearchError> {
        let search = Timeline::new((self.build)(grid, start, goal, self.search.config(), &GridLinks::None)?);
        *self = Self::around(search, GridLinks::None, self.build);
        Ok(())
    }

    /// Applies a settings change and re-runs to the same step (or the end); a refused change
    /// keeps the old settings and the search as it was.
    pub fn configure(&mut self, change: impl FnOnce(&mut SearchConfig)) -> Result<(), SearchError> {
        let mut config = self.search.config();
        change(&mut config);
        self.rebuild(config, self.links.clone())
    }

    /// Replaces the teleports or slopes and re-runs to the same step (or the end); on error
    /// the old ones stay.
    pub fn set_links(&mut self, links: GridLinks) -> Result<(), SearchError> {
        self.rebuild(self.search.config(), links)
    }

    /// Builds the search again with `config` and `links`, then takes it back to where the old
    /// one stood.
    fn rebuild(&mut self, config: SearchConfig, links: GridLinks) -> Result<(), SearchError> {
        let (steps, finished) = self.place();
        let (grid, start, goal) = (self.search.grid().clone(), self.search.start(), self.search.goal());
        let search = Timeline::new((self.build)(grid, start, goal, config, &links)?);
        *self = Self::around(search, links, self.build);
        self.restore(steps, finished);
        Ok(())
    }

    /// Moves the start and goal: every search, incremental or not, starts again and re-runs
    /// to the same step (or the end). Refused on a wall or outside the grid.
    pub fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        let (steps, finished) = self.place();
        self.search.set_ends(start, goal)?;
        self.forget_last();
        self.restore(steps, finished);
        Ok(())
    }

    /// Sets `cells` to `value` as one brush stroke (cells outside the grid, and the start and
    /// goal under a wall, are left alone), then re-runs to where the search stood; an
    /// incremental search keeps its steps and repairs in the steps that follow. Returns how
    /// many cells changed; when none did, nothing else changes either.
    pub fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        let (steps, finished) = self.place();
        let changed = self.search.paint(cells, value)?;
        if changed > 0 {
            self.forget_last();
            if !self.search.config().algorithm.is_incremental() {
                self.restore(steps, finished);
            }
        }
        Ok(changed)
    }

    /// [`paint`](Self::paint) on the cells of the straight line from `from` to `to`, both
    /// ends included (one drag segment; see [`grid_cells_on_line`]).
    pub fn paint_line(&mut self, from: (i32, i32), to: (i32, i32), value: u8) -> Result<usize, SearchError> {
        let cells = grid_cells_on_line(self.search.grid(), from, to);
        self.paint(&cells, value)
    }

    /// Clears every wall and terrain cost ([`paint`](Self::paint) with ground everywhere).
    pub fn clear(&mut self) -> Result<usize, SearchError> {
        let grid = self.search.grid();
        let all: Vec<Point> = (0..grid.len()).map(|i| grid.point_at(i)).collect();
        self.paint(&all, GROUND)
    }

    /// Where the search stands: its step, and whether it has finished.
    fn place(&self) -> (usize, bool) {
        (self.search.steps(), self.search.status().is_finished())
    }

    /// Takes a freshly reset search back to step `steps`, or to the end when `finished`.
    fn restore(&mut self, steps: usize, finished: bool) {
        if finished {
            self.search.run();
        } else {
            self.search.advance(steps.saturating_sub(self.search.steps()));
        }
    }

    /// Forgets the last step's narration.
    fn forget_last(&mut self) {
        self.log.clear();
        self.last = StepEvent::Finished;
    }

    // ---- stepping ----

    /// Takes one step with the log on; returns the new status.
    pub fn step(&mut self) -> Status {
        self.last = self.search.step_logged(&mut self.log);
        self.search.status()
    }

    /// Takes up to `n` steps (the play loop), the last with the log on; returns how many were
    /// taken.
    pub fn advance(&mut self, n: usize) -> usize {
        let before = self.search.steps();
        if n > 0 {
            self.search.advance(n - 1);
            self.step_or_end();
        }
        self.search.steps() - before
    }

    /// Runs to the end (from a checkpoint when one is ahead); returns the final status.
    pub fn run(&mut self) -> Status {
        self.search.run();
        self.step_or_end();
        self.search.status()
    }

    /// Undoes one step (by replay from the nearest checkpoint).
    pub fn back(&mut self) {
        let k = self.search.steps().saturating_sub(1);
        self.seek(k);
    }

    /// Goes to step `k` (or to the end, if the search finishes sooner), taking step `k`
    /// itself last with the log on, so that the narration reads as that of a step.
    pub fn seek(&mut self, k: usize) {
        if k == 0 {
            self.reset();
            return;
        }
        self.search.seek(k - 1);
        self.step_or_end();
    }

    /// Back to step 0.
    pub fn reset(&mut self) {
        self.search.reset();
        self.forget_last();
    }

    /// Takes one step with the log on; when the search has already ended, records how it
    /// ended instead.
    fn step_or_end(&mut self) {
        if self.search.status().is_finished() {
            self.log.clear();
            self.last = match self.search.status() {
                Status::Found => StepEvent::Found { cost: self.search.cost().unwrap_or(f64::NAN) },
                Status::NoPath => StepEvent::NoPath,
                _ => StepEvent::Finished,
            };
        } else {
            self.last = self.search.step_logged(&mut self.log);
        }
    }

    /// Runs a copy of the search further toward its end, leaving checkpoints behind it (see
    /// [`Timeline::explore`]).
    pub fn explore(&mut self, max_steps: usize) -> Option<usize> {
        self.search.explore(max_steps)
    }

    /// Runs from step 0 to the end by stepping, never restoring a checkpoint (what timing an
    /// algorithm measures; see [`Timeline::run_from_scratch`]).
    pub fn run_from_scratch(&mut self) -> Status {
        self.log.clear();
        self.search.run_from_scratch()
    }

    // ---- read-outs ----

    /// What the last step opened and improved.
    pub fn log(&self) -> &EventLog {
        &self.log
    }

    /// What the last step did: `expanded` (a node; see [`log`](Self::log)), `found`,
    /// `no-path`, or `none` (no step since the last edit or reset).
    pub fn last_kind(&self) -> &'static str {
        match (self.log.expanded, self.last) {
            (Some(_), _) => "expanded",
            (None, StepEvent::Found { .. }) => "found",
            (None, StepEvent::NoPath) => "no-path",
            _ => "none",
        }
    }

    /// The closed list: how many cells were expanded, by either direction, the current one
    /// included, and once found the path's cells that have a cost (those the search reached,
    /// not the cells JPS fills in between jump points); with the first `limit` of them in map
    /// order.
    pub fn closed_list(&self, limit: usize) -> ClosedList {
        use CellState as C;
        let closed = [C::Closed as u8, C::ClosedBack as u8, C::Current as u8];
        let (grid, g) = (self.search.grid(), self.search.g_values());
        let mut list = ClosedList::default();
        for (i, s) in self.search.states().iter().enumerate() {
            if closed.contains(s) || (*s == C::Path as u8 && g[i].is_finite()) {
                list.count += 1;
                if list.cells.len() < limit {
                    list.cells.push((grid.point_at(i), g[i].is_finite().then_some(g[i])));
                }
            }
        }
        list
    }
}

/// Where the start and goal go on a fresh grid: on the middle row, inset a fifth of the width
/// from the left and right edges.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::search::session::default_ends;
/// assert_eq!(default_ends(&Grid::new(20, 9).unwrap()), (Point::new(4, 4), Point::new(15, 4)));
/// ```
pub fn default_ends(grid: &Grid) -> (Point, Point) {
    let y = grid.height() / 2;
    let inset = (grid.width() / 5).min(grid.width() - 1);
    (Point::new(inset, y), Point::new(grid.width() - 1 - inset, y))
}

/// The open cell nearest to `p`: `p` itself when open, else the open cell with the least
/// `4 x Chebyshev distance + Manhattan distance` from `p` (the first in map order among
/// equals), so nearer square rings come first (whole rings, up to the fourth) and within a
/// ring the cells along the axes before the diagonals; `None` when every cell is a wall.
///
/// ```
/// use pathlab_core::grid::{Grid, Point, WALL};
/// use pathlab_core::search::session::nearest_open;
/// let mut grid = Grid::new(5, 5).unwrap();
/// for x in 0..5 {
///     grid.set(Point::new(x, 2), WALL).unwrap();
/// }
/// assert_eq!(nearest_open(&grid, Point::new(3, 2)), Some(Point::new(3, 1)));
/// ```
pub fn nearest_open(grid: &Grid, p: Point) -> Option<Point> {
    if grid.is_passable(p) {
        return Some(p);
    }
    (0..grid.len())
        .map(|i| grid.point_at(i))
        .filter(|&q| grid.is_passable(q))
        .min_by_key(|q| q.x.abs_diff(p.x).max(q.y.abs_diff(p.y)) * 4 + q.x.abs_diff(p.x) + q.y.abs_diff(p.y))
}

/// The [`default_ends`] moved to their [`nearest_open`] cells, for a map that came without
/// ends; `None` when every cell is a wall.
pub fn open_ends(grid: &Grid) -> Option<(Point, Point)> {
    let (start, goal) = default_ends(grid);
    Some((nearest_open(grid, start)?, nearest_open(grid, goal)?))
}
