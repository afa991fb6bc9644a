//! Time-sliced path requests in the browser: a thin `wasm-bindgen` handle over
//! [`pathlab_core::search::slicing::FramePlanner`].
//!
//! The page keeps its agents in JavaScript; it submits their path requests here, calls
//! [`Requests::tick`] once per frame with its budget of search steps, and reads back which
//! requests finished, their paths (small copied arrays) and the queue (plain objects). The
//! grid cells are read without copying through a `Uint8Array` view at [`Requests::cells_ptr`],
//! rebuilt each frame because the memory may grow. Every fallible call returns a `JsError`
//! naming the problem; none panics.

use pathlab_bind::{err, is_whole};
use pathlab_core::formats::{course, movingai};
use pathlab_core::grid::Grid;
use pathlab_core::search::slicing::{FramePlanner, Request, RequestId, Tick, DEFAULT_AGING};
use pathlab_core::search::{Algorithm, SearchConfig};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use pathlab_core::line::grid_cells_on_line;

use super::point;

/// The largest budget per tick accepted: a million steps is already seconds of work.
pub const MAX_BUDGET: u32 = 1_000_000;

/// The budget per tick of a new handle.
const DEFAULT_BUDGET: u32 = 200;

/// One request as the page reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestView {
    id: u32,
    start: [usize; 2],
    goal: [usize; 2],
    urgency: f64,
    effective: f64,
    status: &'static str,
    steps: usize,
    expanded: usize,
    age: u64,
    submitted_at: u64,
    waited: Option<u64>,
    ticks_to_finish: Option<u64>,
    cost: Option<f64>,
}

impl RequestView {
    fn of(r: &Request) -> Self {
        Self {
            id: r.id().get(),
            start: [r.start().x, r.start().y],
            goal: [r.goal().x, r.goal().y],
            urgency: r.urgency(),
            effective: r.effective_urgency(),
            status: r.status().name(),
            steps: r.steps(),
            expanded: r.expanded(),
            age: r.age(),
            submitted_at: r.submitted_at(),
            waited: r.waited_before_work(),
            ticks_to_finish: r.ticks_to_finish(),
            cost: r.cost(),
        }
    }
}

/// What the last tick did, as the page reads it.
#[derive(Serialize)]
struct TickView<'a> {
    index: u64,
    budget: usize,
    spent: usize,
    progressed: Vec<u32>,
    finished: &'a [u32],
}

/// Checks a whole number of steps given as a JS number.
fn budget(value: f64) -> Result<u32, JsError> {
    if is_whole(value, f64::from(MAX_BUDGET)) {
        Ok(value as u32)
    } else {
        Err(err(format!("the budget must be a whole number of steps from 0 to {MAX_BUDGET}, got {value}")))
    }
}

/// Path requests from many agents on one grid, served a budget of A* steps per tick, most
/// urgent first (see `pathlab_core::search::slicing` for the order, aging and grid edits).
#[wasm_bindgen]
pub struct Requests {
    planner: FramePlanner,
    budget: u32,
    last: Tick,
    /// The ids of the requests the last tick finished, behind [`Requests::finished_ptr`].
    finished: Vec<u32>,
}

#[wasm_bindgen]
impl Requests {
    /// An open grid of `width` x `height` with no requests; A* with the octile heuristic,
    /// no corner cutting, real costs; a budget of 200 steps per tick; aging on.
    #[wasm_bindgen(constructor)]
    pub fn new(width: u32, height: u32) -> Result<Requests, JsError> {
        let grid = Grid::new(width as usize, height as usize).map_err(err)?;
        let planner = FramePlanner::new(grid, SearchConfig::new(Algorithm::AStar)).map_err(err)?;
        Ok(Requests { planner, budget: DEFAULT_BUDGET, last: Tick::default(), finished: Vec::new() })
    }

    /// Replaces the map with a course data file (rows, columns, then 0/1/A/B; A and B are
    /// ignored). Every request is dropped. On error the current map is kept.
    #[wasm_bindgen(js_name = loadCourse)]
    pub fn load_course(&mut self, text: &str) -> Result<(), JsError> {
        let map = course::parse(text).map_err(err)?;
        self.replace(map.grid);
        Ok(())
    }

    /// Replaces the map with a MovingAI `.map` file. Every request is dropped. On error the
    /// current map is kept.
    #[wasm_bindgen(js_name = loadMovingAi)]
    pub fn load_moving_ai(&mut self, text: &str) -> Result<(), JsError> {
        let grid = movingai::parse_map(text).map_err(err)?;
        self.replace(grid);
        Ok(())
    }

    fn replace(&mut self, grid: Grid) {
        self.planner.clear();
        self.planner.set_grid(grid);
        self.last = Tick::default();
        self.finished.clear();
    }

    /// Columns.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.planner.grid().width() as u32
    }

    /// Rows.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u32 {
        self.planner.grid().height() as u32
    }

    /// The value of a cell (0 wall, 1 ground, more is terrain); refused outside the grid.
    pub fn cell(&self, x: i32, y: i32) -> Result<u8, JsError> {
        let p = point(self.planner.grid(), x, y)?;
        Ok(self.planner.grid().get(p).unwrap_or(0))
    }

    /// Pointer to the cell values (one byte each, row-major, `width * height` of them).
    #[wasm_bindgen(js_name = cellsPtr)]
    pub fn cells_ptr(&self) -> *const u8 {
        self.planner.grid().cells().as_ptr()
    }

    /// Asks for a path from (x0, y0) to (x1, y1) with an urgency from 0 to 1000000 (higher
    /// is served first); returns the request's id. Refused when an end is outside the grid
    /// or on a wall, or the urgency is not allowed.
    pub fn submit(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, urgency: f64) -> Result<u32, JsError> {
        let grid = self.planner.grid();
        let end = |which: &str, x: i32, y: i32| {
            grid.point(i64::from(x), i64::from(y)).map_err(|e| err(format!("{which} {e}")))
        };
        let start = end("start", x0, y0)?;
        let goal = end("goal", x1, y1)?;
        let id = self.planner.submit(start, goal, urgency).map_err(err)?;
        Ok(id.get())
    }

    /// Withdraws an open request; false when it is unknown or already finished.
    pub fn cancel(&mut self, id: u32) -> bool {
        self.planner.cancel(RequestId::new(id))
    }

    /// Drops a request's record (cancelling it if open); false when it is unknown.
    pub fn forget(&mut self, id: u32) -> bool {
        self.planner.forget(RequestId::new(id))
    }

    /// Drops every request.
    pub fn clear(&mut self) {
        self.planner.clear();
        self.finished.clear();
    }

    /// Steps per tick used when [`tick`](Requests::tick) is called without a budget.
    #[wasm_bindgen(getter)]
    pub fn budget(&self) -> u32 {
        self.budget
    }

    /// Sets the steps per tick: a whole number from 0 to 1000000.
    #[wasm_bindgen(js_name = setBudget)]
    pub fn set_budget(&mut self, steps: f64) -> Result<(), JsError> {
        self.budget = budget(steps)?;
        Ok(())
    }

    /// True when waiting requests gain urgency as they wait.
    #[wasm_bindgen(getter)]
    pub fn aging(&self) -> bool {
        self.planner.aging() > 0.0
    }

    /// Urgency points a waiting request gains per tick (0 when aging is off).
    #[wasm_bindgen(getter, js_name = agingRate)]
    pub fn aging_rate(&self) -> f64 {
        self.planner.aging()
    }

    /// Turns aging on (0.1 urgency points per tick) or off.
    #[wasm_bindgen(js_name = setAging)]
    pub fn set_aging(&mut self, on: bool) -> Result<(), JsError> {
        self.planner.set_aging(if on { DEFAULT_AGING } else { 0.0 }).map_err(err)
    }

    /// Spends up to `budget` steps (or the handle's budget when not given) on the open
    /// requests, most urgent first; returns the steps spent.
    pub fn tick(&mut self, budget_steps: Option<f64>) -> Result<u32, JsError> {
        let steps = match budget_steps {
            Some(b) => budget(b)?,
            None => self.budget,
        };
        self.last = self.planner.tick(steps as usize);
        self.finished.clear();
        self.finished.extend(self.last.finished.iter().map(|id| id.get()));
        Ok(self.last.spent as u32)
    }

    /// Ticks run so far.
    #[wasm_bindgen(getter)]
    pub fn ticks(&self) -> f64 {
        self.planner.ticks() as f64
    }

    /// Steps the last tick spent.
    #[wasm_bindgen(getter)]
    pub fn spent(&self) -> u32 {
        self.last.spent as u32
    }

    /// Requests queued or searching.
    #[wasm_bindgen(getter, js_name = openCount)]
    pub fn open_count(&self) -> u32 {
        self.planner.open_count() as u32
    }

    /// Pointer to the ids (u32) of the requests the last tick finished; see `finishedCount`.
    #[wasm_bindgen(js_name = finishedPtr)]
    pub fn finished_ptr(&self) -> *const u32 {
        self.finished.as_ptr()
    }

    /// How many requests the last tick finished.
    #[wasm_bindgen(getter, js_name = finishedCount)]
    pub fn finished_count(&self) -> u32 {
        self.finished.len() as u32
    }

    /// What the last tick did: `{ index, budget, spent, progressed: [ids], finished: [ids] }`.
    #[wasm_bindgen(js_name = lastTick)]
    pub fn last_tick(&self) -> Result<JsValue, JsError> {
        let view = TickView {
            index: self.last.index,
            budget: self.last.budget,
            spent: self.last.spent,
            progressed: self.last.progressed.iter().map(|id| id.get()).collect(),
            finished: &self.finished,
        };
        serde_wasm_bindgen::to_value(&view).map_err(err)
    }

    /// The open requests in the order the next tick serves them, as plain objects: `id`,
    /// `start` and `goal` as `[x, y]`, `urgency`, `effective` (urgency with aging), `status`
    /// (`queued` or `searching`), `steps`, `expanded`, `age` (ticks since submitted),
    /// `submittedAt`, `waited` (ticks before its first work, or null), `ticksToFinish` and
    /// `cost` (null while open).
    pub fn queue(&self) -> Result<JsValue, JsError> {
        let views: Vec<RequestView> = self.planner.queue().into_iter().map(RequestView::of).collect();
        serde_wasm_bindgen::to_value(&views).map_err(err)
    }

    /// Every request held (open, finished and cancelled ones not forgotten), in submission
    /// order, as the same objects as [`queue`](Requests::queue); `status` may also be `found`,
    /// `no-path` or `cancelled`.
    pub fn requests(&self) -> Result<JsValue, JsError> {
        let views: Vec<RequestView> = self.planner.requests().map(RequestView::of).collect();
        serde_wasm_bindgen::to_value(&views).map_err(err)
    }

    /// One request as the same object as in [`queue`](Requests::queue), or null when unknown.
    pub fn request(&self, id: u32) -> Result<JsValue, JsError> {
        match self.planner.request(RequestId::new(id)) {
            Some(r) => serde_wasm_bindgen::to_value(&RequestView::of(r)).map_err(err),
            None => Ok(JsValue::NULL),
        }
    }

    /// A found request's path as row-major cell indices from start to goal (a small copied
    /// array; empty while it has none).
    pub fn path(&self, id: u32) -> Vec<u32> {
        let Some(path) = self.planner.request(RequestId::new(id)).and_then(Request::path) else {
            return Vec::new();
        };
        let grid = self.planner.grid();
        path.points.iter().map(|&p| grid.index(p) as u32).collect()
    }

    /// Paints `value` on every cell of the straight line from (x0, y0) to (x1, y1), as one
    /// drag segment. Cells outside the grid, and under a wall the start and goal of every
    /// request not cancelled, are left alone. When any cell changed, every request that is not
    /// cancelled starts again (finished ones are queued anew). Returns how many cells changed.
    #[wasm_bindgen(js_name = paintLine)]
    pub fn paint_line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, value: u8) -> Result<u32, JsError> {
        if value > 9 {
            return Err(err(format!(
                "a cell value must be 0 (wall), 1 (ground) or a terrain cost up to 9, got {value}"
            )));
        }
        let cells = grid_cells_on_line(self.planner.grid(), (x0, y0), (x1, y1));
        Ok(self.planner.paint(cells, value) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_served_within_the_budget_and_paths_are_cell_indices() {
        let Ok(mut r) = Requests::new(10, 3) else { panic!("a 10x3 grid") };
        let ids: Vec<u32> =
            (0..3).map(|k| r.submit(0, k, 9, k, f64::from(k)).unwrap_or_else(|_| panic!("submit"))).collect();
        let mut spent = 0;
        while r.open_count() > 0 {
            let Ok(s) = r.tick(Some(4.0)) else { panic!("tick") };
            assert!(s <= 4);
            spent += s;
        }
        assert!(spent >= 30, "each request is at least 10 steps");
        let path = r.path(ids[2]);
        assert_eq!(path.first(), Some(&20));
        assert_eq!(path.last(), Some(&29));
        assert!(r.path(999).is_empty());
    }
}
