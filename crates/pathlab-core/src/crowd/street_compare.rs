//! The street's path-finders compared as the course's thesis compares them: the time spent
//! planning against the number of agents, and how many nodes each plan expands (a histogram
//! per path-finder).
//!
//! [`compare`] runs the street with path-finders ([`StreetScene::with_planner`]) once per
//! agent count and path-finder, from one seed, for a fixed number of steps, keeping every
//! plan. The runs go count by count, the path-finders one after another within a count, so
//! that their times are taken side by side.
//!
//! ```
//! use pathlab_core::crowd::street_compare::compare;
//! use pathlab_core::crowd::street_plan::Planner;
//! let c = compare(&[5, 10], &[Planner::AStar, Planner::Dijkstra], 50, 1).unwrap();
//! assert_eq!(c.runs.len(), 4);
//! let (a, d) = (c.run(Planner::AStar, 5).unwrap(), c.run(Planner::Dijkstra, 5).unwrap());
//! assert!(a.expanded() < d.expanded());
//! assert_eq!(c.histogram(Planner::AStar, 8).counts.iter().sum::<u32>() as usize, c.plans_of(Planner::AStar));
//! ```

use std::fmt::Write as _;

use super::scene::{Scene, SceneConfig, SceneError};
use super::street::StreetScene;
use super::street_plan::{Plan, Planner};

/// One run of the comparison: one path-finder, one agent count.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRun {
    /// The path-finder every agent planned with.
    pub planner: Planner,
    /// The pedestrians asked for.
    pub pedestrians: usize,
    /// Every agent of the run (pedestrians and cars).
    pub agents: usize,
    /// Every plan of the run, in the order made (set-up included).
    pub plans: Vec<Plan>,
    /// Car-pedestrian contacts (pedestrian-steps) in the run.
    pub collisions: f64,
}

impl CompareRun {
    /// Nodes expanded by all the run's plans.
    pub fn expanded(&self) -> u64 {
        self.plans.iter().map(|p| p.expanded as u64).sum()
    }

    /// Milliseconds spent planning in the run (NaN without a clock).
    pub fn planning_ms(&self) -> f64 {
        self.plans.iter().map(|p| p.millis).sum()
    }
}

/// Counts of values in equal bins `[k * width, (k + 1) * width)`; the last bin also holds
/// everything above it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// The width of a bin.
    pub width: u32,
    /// How many values fell in each bin.
    pub counts: Vec<u32>,
}

/// Puts `values` into `bins` bins of `width` each (at least 1 of each).
///
/// ```
/// use pathlab_core::crowd::street_compare::histogram;
/// let h = histogram(&[0, 9, 10, 25, 99], 10, 3);
/// assert_eq!(h.counts, vec![2, 1, 2]);
/// ```
pub fn histogram(values: &[u32], width: u32, bins: usize) -> Histogram {
    let width = width.max(1);
    let mut counts = vec![0; bins.max(1)];
    let last = counts.len() - 1;
    for &v in values {
        counts[((v / width) as usize).min(last)] += 1;
    }
    Histogram { width, counts }
}

/// The values of `items` in first-seen order, each once.
fn distinct<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// Every run of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Steps each run took (0.1 s each).
    pub steps: u64,
    /// The seed of every run.
    pub seed: u64,
    /// How many times each street is run: every plan's time is the least of its repeats (the
    /// plans themselves are the same each time), which leaves out the pauses a busy machine
    /// puts into some of them.
    pub repeats: usize,
    /// The runs, count by count, path-finders in the order given.
    pub runs: Vec<CompareRun>,
}

/// Runs the street with each path-finder of `planners` for each pedestrian count of `counts`
/// (clamped as [`StreetScene::with_planner`] clamps), `steps` steps each, from `seed`.
///
/// # Errors
/// A scene's set-up error (none in practice).
pub fn compare(counts: &[usize], planners: &[Planner], steps: u64, seed: u64) -> Result<Comparison, SceneError> {
    let mut c = Comparison::new(steps, seed);
    for &n in counts {
        for &planner in planners {
            c.add_run(planner, n)?;
        }
    }
    Ok(c)
}

impl Comparison {
    /// A comparison with no runs yet, whose runs take `steps` steps from `seed` (add them one
    /// at a time with [`Comparison::add_run`], e.g. to keep a page responsive).
    pub fn new(steps: u64, seed: u64) -> Self {
        Self { steps, seed, repeats: 1, runs: Vec::new() }
    }

    /// The same comparison with each street run `repeats` times (at least once), each plan's
    /// time the least of them.
    #[must_use]
    pub fn repeated(mut self, repeats: usize) -> Self {
        self.repeats = repeats.max(1);
        self
    }

    /// Runs the street with `pedestrians` pedestrians and `planner` and adds the run.
    ///
    /// # Errors
    /// A scene's set-up error (none in practice).
    pub fn add_run(&mut self, planner: Planner, pedestrians: usize) -> Result<&CompareRun, SceneError> {
        let config = SceneConfig { agents: Some(pedestrians), seed: self.seed };
        let mut run: Option<CompareRun> = None;
        for _ in 0..self.repeats {
            // The set-up's plans are recorded too: the scene starts with an empty log.
            let mut scene = StreetScene::with_planner_recorded(&config, planner)?;
            for _ in 0..self.steps {
                scene.step();
            }
            if let Some(r) = &mut run {
                // Every repeat makes the same plans: keep each one's least time.
                for (kept, again) in r.plans.iter_mut().zip(scene.plans()) {
                    kept.millis = kept.millis.min(again.millis);
                }
            } else {
                let hits = scene.metrics().iter().find(|m| m.name == "car_ped_collisions").map_or(0.0, |m| m.value);
                let plans = scene.plans().to_vec();
                run = Some(CompareRun { planner, pedestrians, agents: scene.len(), plans, collisions: hits });
            }
        }
        self.runs.extend(run);
        Ok(&self.runs[self.runs.len() - 1])
    }

    /// The run of `planner` with `pedestrians` pedestrians asked for.
    pub fn run(&self, planner: Planner, pedestrians: usize) -> Option<&CompareRun> {
        self.runs.iter().find(|r| r.planner == planner && r.pedestrians == pedestrians)
    }

    /// The path-finders compared, in order.
    pub fn planners(&self) -> Vec<Planner> {
        distinct(self.runs.iter().map(|r| r.planner))
    }

    /// The pedestrian counts compared, in order.
    pub fn counts(&self) -> Vec<usize> {
        distinct(self.runs.iter().map(|r| r.pedestrians))
    }

    /// The nodes expanded by every plan of `planner`, all runs together.
    pub fn expansions_of(&self, planner: Planner) -> Vec<u32> {
        let plans = self.runs.iter().filter(|r| r.planner == planner).flat_map(|r| &r.plans);
        plans.map(|p| u32::try_from(p.expanded).unwrap_or(u32::MAX)).collect()
    }

    /// How many plans `planner` made, all runs together.
    pub fn plans_of(&self, planner: Planner) -> usize {
        self.runs.iter().filter(|r| r.planner == planner).map(|r| r.plans.len()).sum()
    }

    /// The bin width shared by every path-finder's histogram of `bins` bins, so that they
    /// can be read side by side: the plans' 95th percentile of nodes expanded (all
    /// path-finders together), divided into `bins`; the last bin holds the rest (LRTA*'s long
    /// walks).
    pub fn bin_width(&self, bins: usize) -> u32 {
        let mut all: Vec<usize> = self.runs.iter().flat_map(|r| &r.plans).map(|p| p.expanded).collect();
        all.sort_unstable();
        let high = all.get(all.len() * 95 / 100).copied().unwrap_or(0);
        u32::try_from(high / bins.max(1) + 1).unwrap_or(u32::MAX)
    }

    /// The histogram of nodes expanded per plan by `planner`, in `bins` bins of
    /// [`Comparison::bin_width`].
    pub fn histogram(&self, planner: Planner, bins: usize) -> Histogram {
        histogram(&self.expansions_of(planner), self.bin_width(bins), bins)
    }

    /// A Markdown table: per agent count, each path-finder's planning time (ms) and mean
    /// nodes expanded per plan.
    pub fn table(&self) -> String {
        let planners = self.planners();
        let mut out = String::from("| agents |");
        for p in &planners {
            let _ = write!(out, " {} ms | {} nodes/plan |", p.short(), p.short());
        }
        out.push_str("\n| ---: |");
        for _ in &planners {
            out.push_str(" ---: | ---: |");
        }
        out.push('\n');
        for n in self.counts() {
            let agents = self.runs.iter().find(|r| r.pedestrians == n).map_or(n, |r| r.agents);
            let _ = write!(out, "| {agents} |");
            for &p in &planners {
                match self.run(p, n) {
                    Some(r) => {
                        let per = r.expanded() as f64 / r.plans.len().max(1) as f64;
                        let _ = write!(out, " {:.2} | {per:.0} |", r.planning_ms());
                    }
                    None => out.push_str(" – | – |"),
                }
            }
            out.push('\n');
        }
        out
    }
}
