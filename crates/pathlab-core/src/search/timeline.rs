//! A search you can scrub: any step of a long run at once, by replay from a nearby
//! checkpoint instead of from step 0.
//!
//! Going back in a [`Stepper`] is replay: reset, then step forward again. That is exact, and
//! fast for most runs (a 100,000-step A* replays in a few milliseconds natively), but its
//! cost grows with the step asked for, and some steps are dear (Theta*'s line-of-sight tests,
//! JPS's scans). A [`Timeline`] wraps any stepper and keeps copies of it (checkpoints) every
//! `spacing` steps, so a jump to step `k` restores the last checkpoint at or before `k` and
//! replays at most `spacing` steps.
//!
//! # Where checkpoints come from
//!
//! Plain stepping, playing and running to the end take none: they cost exactly what the
//! stepper costs. Checkpoints are taken by
//! - [`Timeline::explore`], which runs a copy of the search (the *scout*) ahead in slices,
//!   for instance one slice per animation frame, to find how many steps the whole run takes;
//!   it leaves checkpoints along the run behind it, and
//! - [`seek`](Stepper::seek), when it replays past a multiple of `spacing` that has none yet.
//!
//! # Memory bound
//!
//! A checkpoint is a full copy of the stepper, about [`Stepper::approx_bytes`] (some 24 bytes
//! per cell: 6 MB for a 512 x 512 map). The timeline keeps at most
//! `min(`[`MAX_CHECKPOINTS`]`, `[`CHECKPOINT_BUDGET`]` / approx_bytes)` of them, so never more
//! than [`CHECKPOINT_BUDGET`] bytes. It starts with a spacing of `max(`[`MIN_SPACING`]`,
//! approx_bytes / 1024)` steps (copying a checkpoint then costs about as much as replaying
//! the steps between two of them), and when the checkpoints outgrow that count it doubles
//! the spacing and drops every other one. So a run of `n` steps ends with checkpoints at
//! most `max(spacing, 2n / count)` steps apart, and a seek replays no more than that. On
//! maps so large that not even one copy fits the budget (above about 1,600 x 1,600 cells)
//! it keeps none, and seeks replay from step 0 as a plain stepper does; nor does it explore
//! (the scout is a copy too), so the run's length is known only once the search gets there.
//!
//! # Edits
//!
//! Moving an end or painting cells makes every checkpoint stale: they are dropped, and the
//! run's length is unknown again. An incremental search (LPA*, D* Lite) keeps its steps when
//! painted, so its history from then on is not a replay from step 0 of the new grid; the
//! timeline takes no checkpoints until it is reset, and its seeks are the stepper's own.
//!
//! ```
//! use pathlab_core::grid::{Grid, Point};
//! use pathlab_core::search::timeline::Timeline;
//! use pathlab_core::search::{build, Algorithm, SearchConfig, Stepper};
//! let grid = Grid::new(64, 64).unwrap();
//! let search = build(grid, Point::new(0, 0), Point::new(63, 63), SearchConfig::new(Algorithm::Dijkstra)).unwrap();
//! let mut timeline = Timeline::new(search);
//! // Explore the whole run, in slices of at most 1,000 steps.
//! let total = loop {
//!     if let Some(total) = timeline.explore(1000) {
//!         break total;
//!     }
//! };
//! assert_eq!(total, 64 * 64); // every cell is expanded but the goal, which the last step finds
//! assert!(timeline.checkpoints() > 0);
//! timeline.seek(3000);
//! assert_eq!(timeline.steps(), 3000);
//! timeline.seek(10);
//! assert_eq!(timeline.expanded(), 10);
//! ```

use super::stepper::grid_and_ends_of_search;
use super::{
    Agent, CellTable, CellValues, EventLog, NodeTable, OpenEntry, Overlay, Repair, SearchConfig, SearchError, Status,
    StepEvent, Stepper,
};
use crate::grid::Point;

/// The most bytes a timeline's checkpoints may take together: 64 MiB.
pub const CHECKPOINT_BUDGET: usize = 64 << 20;

/// The most checkpoints a timeline keeps, however small the map.
pub const MAX_CHECKPOINTS: usize = 64;

/// The least spacing between checkpoints, in steps.
pub const MIN_SPACING: usize = 256;

/// How many steps the scout of [`Timeline::explore`] takes before it stops looking for the
/// end of a run that may never end (an agent that walks in circles).
pub const EXPLORE_LIMIT: usize = 4_000_000;

/// A [`Stepper`] with checkpoints, so that [`seek`](Stepper::seek) to any step is quick.
///
/// It is a stepper itself, delegating everything to the search it wraps; see the [module
/// documentation](self) for when it takes checkpoints and how much memory they may use.
#[derive(Clone, Debug)]
pub struct Timeline {
    search: Box<dyn Stepper>,
    /// Copies of the search at multiples of `spacing` (never step 0), by step.
    checkpoints: Vec<(usize, Box<dyn Stepper>)>,
    spacing: usize,
    /// The most checkpoints kept.
    capacity: usize,
    /// The copy [`explore`](Self::explore) runs ahead.
    scout: Option<Box<dyn Stepper>>,
    /// The step at which the run ends, once known.
    total: Option<usize>,
    /// True once the scout has been to the end of the run (with a checkpoint at every
    /// multiple of the spacing before it, when the history is pure).
    covered: bool,
    /// The furthest step reached by the search or the scout since the last edit.
    explored: usize,
    /// True when the scout gave up at [`EXPLORE_LIMIT`].
    unbounded: bool,
    /// True while the search's history is a replay from step 0 of the current grid and ends
    /// (false after an incremental search kept its steps across an edit).
    pure: bool,
}

impl Timeline {
    /// Wraps a search that has not been edited since its last reset.
    pub fn new(search: Box<dyn Stepper>) -> Self {
        let mut timeline = Self {
            explored: search.steps(),
            search,
            checkpoints: Vec::new(),
            spacing: MIN_SPACING,
            capacity: 0,
            scout: None,
            total: None,
            covered: false,
            unbounded: false,
            pure: true,
        };
        timeline.forget();
        if timeline.search.status().is_finished() {
            timeline.total = Some(timeline.search.steps());
        }
        timeline
    }

    /// The search inside.
    pub fn inner(&self) -> &dyn Stepper {
        self.search.as_ref()
    }

    /// Runs the search from step 0 to its end by stepping, never jumping to a checkpoint:
    /// what timing an algorithm must measure ([`run`](Stepper::run) may restore a copy
    /// instead). The checkpoints stay valid.
    pub fn run_from_scratch(&mut self) -> Status {
        self.search.reset();
        if !self.pure {
            self.pure = true;
            self.forget();
        }
        self.search.run();
        self.moved();
        self.search.status()
    }

    /// Drops every checkpoint and what is known about the run, and sizes the spacing and
    /// count to the search.
    fn forget(&mut self) {
        let bytes = self.search.approx_bytes().max(1);
        self.checkpoints.clear();
        self.capacity = (CHECKPOINT_BUDGET / bytes).min(MAX_CHECKPOINTS);
        self.spacing = (bytes / 1024).max(MIN_SPACING);
        self.scout = None;
        self.total = None;
        self.covered = false;
        self.explored = self.search.steps();
        self.unbounded = false;
    }

    /// Runs the scout up to `max_steps` further toward the end of the run, leaving
    /// checkpoints behind it; returns the number of steps the whole run takes once that is
    /// known. Call it (say once per frame) while [`exploring`](Self::exploring) says there is
    /// work left: the length may be known before the checkpoints cover the run (when the
    /// search itself ran to the end). It answers `None` for good when the run has not ended
    /// after [`EXPLORE_LIMIT`] steps.
    pub fn explore(&mut self, max_steps: usize) -> Option<usize> {
        if !self.exploring() {
            return self.total;
        }
        let mut scout = match self.scout.take() {
            Some(scout) => scout,
            None if !self.pure => self.search.clone(),
            // Start where the checkpoints stop being one every `spacing` steps from step 0.
            None => {
                let gap = self.checkpoints.iter().zip(1..).take_while(|((s, _), i)| *s == i * self.spacing).count();
                if let Some(i) = gap.checked_sub(1) {
                    self.checkpoints[i].1.clone()
                } else {
                    let mut fresh = self.search.clone();
                    fresh.reset();
                    fresh
                }
            }
        };
        let end = scout.steps().saturating_add(max_steps);
        while scout.steps() < end && !scout.status().is_finished() {
            let now = scout.steps();
            let next = (now / self.spacing + 1) * self.spacing;
            scout.advance(next.min(end) - now);
            if scout.steps() == next && !scout.status().is_finished() && self.pure {
                self.keep(next, scout.as_ref());
            }
        }
        self.explored = self.explored.max(scout.steps());
        if scout.status().is_finished() {
            self.total = Some(scout.steps());
            self.covered = true;
        } else if scout.steps() >= EXPLORE_LIMIT {
            self.unbounded = true;
        } else {
            self.scout = Some(scout);
        }
        self.total
    }

    /// True while [`explore`](Self::explore) has work left: the scout has not been to the end
    /// of the run, nor given up. Always false on maps where not even one copy of the search
    /// fits the [`CHECKPOINT_BUDGET`] (the scout is such a copy).
    pub fn exploring(&self) -> bool {
        !self.covered && !self.unbounded && self.capacity > 0
    }

    /// The number of steps the whole run takes, once known (from [`explore`](Self::explore),
    /// or from the search reaching its end).
    pub fn total(&self) -> Option<usize> {
        self.total
    }

    /// The furthest step the search or the scout has reached since the last edit.
    pub fn explored(&self) -> usize {
        self.explored
    }

    /// Checkpoints held.
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// Steps between checkpoints.
    pub fn spacing(&self) -> usize {
        self.spacing
    }

    /// Keeps a copy of `search` as the checkpoint for `step` (a multiple of the spacing), if
    /// there is room and none yet; thins the checkpoints out when there are too many.
    fn keep(&mut self, step: usize, search: &dyn Stepper) {
        if self.capacity == 0 {
            return;
        }
        let Err(at) = self.checkpoints.binary_search_by_key(&step, |(s, _)| *s) else {
            return;
        };
        self.checkpoints.insert(at, (step, search.boxed_clone()));
        if self.checkpoints.len() > self.capacity {
            self.spacing *= 2;
            let spacing = self.spacing;
            self.checkpoints.retain(|(s, _)| s % spacing == 0);
        }
    }

    /// Steps the search forward to step `k` (or its end), taking checkpoints on the way.
    fn replay_to(&mut self, k: usize) {
        while self.search.steps() < k && !self.search.status().is_finished() {
            let now = self.search.steps();
            let next = (now / self.spacing + 1) * self.spacing;
            self.search.advance(next.min(k) - now);
            let at = self.search.steps();
            if at == next && !self.search.status().is_finished() {
                let has = self.checkpoints.binary_search_by_key(&at, |(s, _)| *s).is_ok();
                if !has && self.capacity > 0 {
                    let copy = self.search.boxed_clone();
                    self.keep(at, copy.as_ref());
                }
            }
        }
        self.moved();
    }

    /// Notes how far the search has got, and the run's length when it has ended.
    fn moved(&mut self) {
        let steps = self.search.steps();
        self.explored = self.explored.max(steps);
        if self.pure && self.search.status().is_finished() {
            self.total = Some(steps);
        }
    }

    /// After an edit: the checkpoints are stale; the history is a replay from step 0 again
    /// only if the search went back there.
    fn edited(&mut self) {
        self.pure = self.search.steps() == 0;
        self.forget();
    }
}

impl Stepper for Timeline {
    fn step_logged(&mut self, log: &mut EventLog) -> StepEvent {
        let event = self.search.step_logged(log);
        self.moved();
        event
    }

    fn step(&mut self) -> StepEvent {
        let event = self.search.step();
        self.moved();
        event
    }

    fn reset(&mut self) {
        self.search.reset();
        if !self.pure {
            self.pure = true;
            self.forget();
        }
    }

    fn nodes(&self) -> &NodeTable {
        self.search.nodes()
    }

    // A wrapper forwards every accessor, not only `nodes`: the search inside may say
    // better than the defaults (a walking agent's path is its trail).
    fn status(&self) -> Status {
        self.search.status()
    }

    fn steps(&self) -> usize {
        self.search.steps()
    }

    fn expanded(&self) -> usize {
        self.search.expanded()
    }

    fn open_count(&self) -> usize {
        self.search.open_count()
    }

    fn cost(&self) -> Option<f64> {
        self.search.cost()
    }

    fn path_indices(&self) -> &[u32] {
        self.search.path_indices()
    }

    fn states(&self) -> &[u8] {
        self.search.states()
    }

    fn g_values(&self) -> &[f64] {
        self.search.g_values()
    }

    fn parents(&self) -> &[u32] {
        self.search.parents()
    }

    fn h(&self, p: Point) -> f64 {
        self.search.h(p)
    }

    grid_and_ends_of_search!();

    fn config(&self) -> SearchConfig {
        self.search.config()
    }

    fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        self.search.set_ends(start, goal)?;
        self.pure = true;
        self.forget();
        Ok(())
    }

    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        let changed = self.search.paint(cells, value)?;
        if changed > 0 {
            self.edited();
        }
        Ok(changed)
    }

    fn repair(&self) -> Option<Repair> {
        self.search.repair()
    }

    fn agent(&self) -> Option<Agent> {
        self.search.agent()
    }

    fn cell_values(&self) -> Option<CellValues<'_>> {
        self.search.cell_values()
    }

    fn overlay(&self) -> Overlay {
        self.search.overlay()
    }

    fn sensed(&self) -> Option<&[u8]> {
        self.search.sensed()
    }

    fn cell_table(&self) -> Option<CellTable<'_>> {
        self.search.cell_table()
    }

    fn gave_up(&self) -> Option<String> {
        self.search.gave_up()
    }

    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        self.search.open_entries(limit)
    }

    fn approx_bytes(&self) -> usize {
        self.search.approx_bytes() * (1 + self.checkpoints.len() + usize::from(self.scout.is_some()))
    }

    fn advance(&mut self, n: usize) -> usize {
        let done = self.search.advance(n);
        self.moved();
        done
    }

    /// Runs to the end: from the last checkpoint when the run's length is known and the
    /// checkpoint lies ahead.
    fn run(&mut self) -> Status {
        match self.total {
            Some(total) if self.pure => self.seek(total),
            _ => {
                self.search.run();
                self.moved();
            }
        }
        self.search.status()
    }

    /// Puts the search at step `k` (or at its end, if it finishes sooner): from the last
    /// checkpoint at or before `k` when that is nearer than where the search stands (or
    /// behind it), else by stepping on; checkpoints are taken on the way.
    fn seek(&mut self, k: usize) {
        let now = self.search.steps();
        if !self.pure {
            self.search.seek(k);
            if k < now {
                // The stepper replayed from step 0.
                self.pure = true;
                self.forget();
            }
            self.moved();
            return;
        }
        if k == now || (k > now && self.search.status().is_finished()) {
            return;
        }
        let below = self.checkpoints.partition_point(|(s, _)| *s <= k);
        let base = below.checked_sub(1).map(|i| &self.checkpoints[i]);
        match base {
            Some((step, copy)) if k < now || *step > now => self.search = copy.clone(),
            None if k < now => self.search.reset(),
            _ => {}
        }
        self.replay_to(k);
    }
}
