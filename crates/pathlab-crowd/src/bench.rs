//! Benchmark entry points for the crowd techniques, timed by JavaScript in the browser (see
//! `bench/crowd-bench.bench.mjs`): each call does a fixed amount of work in Rust and returns a
//! small summary, so the caller can time it with `performance.now()` and check the answer.

use pathlab_bind::err;
use pathlab_core::crowd::avoid::{AvoidParams, Crowd, Method, Scenario};
use pathlab_core::crowd::FlowField;
use pathlab_core::formats::movingai;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What one flow-field build found, to check against an independent count.
#[derive(Serialize)]
struct FlowSummary {
    /// Cells with a finite distance to a goal.
    reached: usize,
    /// The largest finite distance.
    farthest: f64,
}

/// A MovingAI map and goals whose flow field is built on demand, for timing
/// [`FlowField::new`] alone (the map is read once, by the constructor).
#[wasm_bindgen]
pub struct FlowBench {
    grid: Grid,
    goals: Vec<Point>,
}

#[wasm_bindgen]
impl FlowBench {
    /// Reads a MovingAI map and the goals, flat `[x0, y0, x1, y1, ...]`.
    #[wasm_bindgen(constructor)]
    pub fn new(map: &str, goals: &[u32]) -> Result<FlowBench, JsError> {
        let grid = movingai::parse_map(map).map_err(err)?;
        if goals.is_empty() || goals.len() % 2 != 0 {
            return Err(JsError::new("goals must be x, y pairs, at least one"));
        }
        let goals = goals.chunks(2).map(|p| Point::new(p[0] as usize, p[1] as usize)).collect();
        Ok(FlowBench { grid, goals })
    }

    /// Builds the field under the MovingAI rule (diagonals only past two open sides, costs 1
    /// and sqrt 2); returns `{ reached, farthest }`.
    pub fn build(&self) -> Result<JsValue, JsError> {
        let field =
            FlowField::new(self.grid.clone(), &self.goals, Diagonal::NoCornerCutting, Costs::Real).map_err(err)?;
        let finite = field.distances().iter().filter(|d| d.is_finite());
        let summary =
            FlowSummary { reached: finite.clone().count(), farthest: finite.fold(0.0, |a: f64, &d| a.max(d)) };
        serde_wasm_bindgen::to_value(&summary).map_err(err)
    }
}

/// A crowd of `agents` (2 to 20,000) in the crossing scenario with ORCA, seeded, for
/// benchmarking its step.
#[wasm_bindgen]
pub struct OrcaBench {
    crowd: Crowd,
}

#[wasm_bindgen]
impl OrcaBench {
    /// Sets the crowd up and runs `warm_up` steps (at most 1,000) so the agents are meeting.
    #[wasm_bindgen(constructor)]
    pub fn new(agents: u32, warm_up: u32) -> Result<OrcaBench, JsError> {
        if !(2..=20_000).contains(&agents) {
            return Err(JsError::new(&format!("agents must be from 2 to 20000, got {agents}")));
        }
        let params = AvoidParams { method: Method::Orca, ..AvoidParams::default() };
        let mut crowd = Crowd::scenario(Scenario::Crossing, agents as usize, params, 1).map_err(err)?;
        crowd.run(warm_up.min(1_000));
        Ok(OrcaBench { crowd })
    }

    /// Runs `steps` steps (at most 1,000 per call).
    pub fn step(&mut self, steps: u32) {
        self.crowd.run(steps.min(1_000));
    }

    /// Overlaps deeper than the tolerance so far (pair-steps).
    #[wasm_bindgen(getter)]
    pub fn collisions(&self) -> u32 {
        self.crowd.metrics().collisions
    }

    /// The number of agents.
    #[wasm_bindgen(getter)]
    pub fn count(&self) -> u32 {
        self.crowd.len() as u32
    }
}
