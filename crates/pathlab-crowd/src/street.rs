//! The street's path-finders compared in the browser: [`StreetComparison`] runs
//! [`pathlab_core::crowd::street_compare`]'s runs one call at a time, so that the page can draw
//! between them, and hands back the planning times per agent count and the histograms of nodes
//! expanded per plan.

use pathlab_bind::err;
use pathlab_core::crowd::street::MAX_PLANNING_PEDESTRIANS;
use pathlab_core::crowd::street_compare::Comparison;
use pathlab_core::crowd::street_plan::Planner;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The most agent counts one comparison takes.
pub const MAX_COUNTS: usize = 12;
/// The most steps each run of a comparison takes.
pub const MAX_COMPARE_STEPS: u32 = 1_000;
/// The most histogram bins.
pub const MAX_BINS: u32 = 50;
/// How many times the page runs each street: each plan's time is the least of them.
pub const REPEATS: usize = 3;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlannerOut {
    name: &'static str,
    short: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RunOut {
    planner: &'static str,
    pedestrians: usize,
    agents: usize,
    plans: usize,
    expanded: u64,
    /// None (null) without a clock.
    planning_ms: Option<f64>,
    collisions: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HistogramOut {
    planner: &'static str,
    counts: Vec<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ComparisonOut {
    steps: u64,
    seed: u64,
    planners: Vec<PlannerOut>,
    counts: Vec<usize>,
    runs: Vec<RunOut>,
    bin_width: u32,
    histograms: Vec<HistogramOut>,
}

/// Checks the numbers of a comparison; errors are plain strings so that native tests can read
/// them.
fn checked(counts: &[u32], steps: u32, bins: u32) -> Result<(), String> {
    if counts.is_empty() || counts.len() > MAX_COUNTS {
        return Err(format!("a comparison takes 1 to {MAX_COUNTS} agent counts, got {}", counts.len()));
    }
    if let Some(bad) = counts.iter().find(|&&n| n < 2 || n as usize > MAX_PLANNING_PEDESTRIANS) {
        return Err(format!("agent counts must be from 2 to {MAX_PLANNING_PEDESTRIANS} pedestrians, got {bad}"));
    }
    if !(1..=MAX_COMPARE_STEPS).contains(&steps) {
        return Err(format!("steps must be from 1 to {MAX_COMPARE_STEPS}, got {steps}"));
    }
    if !(1..=MAX_BINS).contains(&bins) {
        return Err(format!("bins must be from 1 to {MAX_BINS}, got {bins}"));
    }
    Ok(())
}

/// A comparison of the street's path-finders, run one street at a time.
///
/// ```
/// use pathlab_crowd::StreetComparison;
/// let mut c = StreetComparison::create(&[5, 10], 20, 1.0, 8).unwrap();
/// assert_eq!(c.total(), 10); // two counts, five path-finders
/// while c.step_run().unwrap() {}
/// assert_eq!(c.done(), 10);
/// assert!(StreetComparison::create(&[500], 20, 1.0, 8).is_err());
/// ```
#[wasm_bindgen]
pub struct StreetComparison {
    comparison: Comparison,
    queue: Vec<(Planner, usize)>,
    bins: usize,
}

impl StreetComparison {
    /// Sets a comparison up (the native twin of the constructor, whose errors are plain
    /// strings).
    pub fn create(counts: &[u32], steps: u32, seed: f64, bins: u32) -> Result<StreetComparison, String> {
        checked(counts, steps, bins)?;
        let seed = pathlab_bind::seed(seed)?;
        let queue = counts.iter().flat_map(|&n| Planner::ALL.map(|p| (p, n as usize))).collect();
        let comparison = Comparison::new(u64::from(steps), seed).repeated(REPEATS);
        Ok(StreetComparison { comparison, queue, bins: bins as usize })
    }

    /// Runs the next street; true while more are left (the native twin of `step`).
    pub fn step_run(&mut self) -> Result<bool, String> {
        let done = self.comparison.runs.len();
        if let Some(&(planner, n)) = self.queue.get(done) {
            self.comparison.add_run(planner, n).map_err(|e| e.to_string())?;
        }
        Ok(self.comparison.runs.len() < self.queue.len())
    }
}

#[wasm_bindgen]
impl StreetComparison {
    /// A comparison of every path-finder at each of `counts` pedestrians (2 to 200 each, at
    /// most 12 counts), `steps` steps per run (1 to 1,000) from `seed`, with histograms of
    /// `bins` bins (1 to 50); each street runs three times, each plan timed by its
    /// fastest.
    #[wasm_bindgen(constructor)]
    pub fn new(counts: &[u32], steps: u32, seed: f64, bins: u32) -> Result<StreetComparison, JsError> {
        StreetComparison::create(counts, steps, seed, bins).map_err(|e| JsError::new(&e))
    }

    /// Runs the next street (one path-finder, one count); returns true while more are left.
    pub fn step(&mut self) -> Result<bool, JsError> {
        self.step_run().map_err(|e| JsError::new(&e))
    }

    /// Runs to make in all.
    #[wasm_bindgen(getter)]
    pub fn total(&self) -> u32 {
        self.queue.len() as u32
    }

    /// Runs made so far.
    #[wasm_bindgen(getter)]
    pub fn done(&self) -> u32 {
        self.comparison.runs.len() as u32
    }

    /// What the runs so far found: `{ steps, seed, planners: [{ name, short }], counts,
    /// runs: [{ planner, pedestrians, agents, plans, expanded, planningMs, collisions }],
    /// binWidth, histograms: [{ planner, counts }] }`.
    pub fn result(&self) -> Result<JsValue, JsError> {
        let c = &self.comparison;
        let planners = c.planners();
        let out = ComparisonOut {
            steps: c.steps,
            seed: c.seed,
            planners: planners.iter().map(|p| PlannerOut { name: p.name(), short: p.short() }).collect(),
            counts: c.counts(),
            runs: c
                .runs
                .iter()
                .map(|r| RunOut {
                    planner: r.planner.name(),
                    pedestrians: r.pedestrians,
                    agents: r.agents,
                    plans: r.plans.len(),
                    expanded: r.expanded(),
                    planning_ms: Some(r.planning_ms()).filter(|v| v.is_finite()),
                    collisions: r.collisions,
                })
                .collect(),
            bin_width: c.bin_width(self.bins),
            histograms: planners
                .iter()
                .map(|&p| HistogramOut { planner: p.name(), counts: c.histogram(p, self.bins).counts })
                .collect(),
        };
        serde_wasm_bindgen::to_value(&out).map_err(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_comparisons_are_refused_with_the_value_named() {
        let bad = |counts: &[u32], steps, seed, bins| match StreetComparison::create(counts, steps, seed, bins) {
            Ok(_) => panic!("{counts:?} {steps} {seed} {bins} should be refused"),
            Err(e) => e,
        };
        assert!(bad(&[], 10, 1.0, 5).contains("got 0"));
        assert!(bad(&[5, 1], 10, 1.0, 5).contains("got 1"));
        assert!(bad(&[201], 10, 1.0, 5).contains("201"));
        assert!(bad(&[5], 0, 1.0, 5).contains("steps"));
        assert!(bad(&[5], 10, f64::NAN, 5).contains("seed"));
        assert!(bad(&[5], 10, 1.0, 99).contains("99"));
    }
}
