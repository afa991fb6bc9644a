//! Time-sliced path requests in the browser: a thin `wasm-bindgen` handle over
//! [`pathlab_core::search::request_scene::RequestScene`] and its
//! [`FramePlanner`].
//!
//! The page places the walkers ([`Requests::place_agents`]), runs one
//! [`frame`](Requests::frame) per animation frame (walk, ask, spend the budget, hand out the
//! answers: all in the core) and paints what it reads: the walkers through zero-copy views
//! ([`Requests::agent_x_ptr`] and its neighbours, refreshed by every call that moves them),
//! the queue as plain objects. The lower-level calls (`submit`, `tick`, `path`, ...) drive the
//! planner directly. The grid cells are read without copying through a `Uint8Array` view at
//! [`Requests::cells_ptr`], rebuilt each frame because the memory may grow. Every fallible call
//! returns a `JsError` naming the problem; none panics.

use pathlab_bind::{err, is_whole, seed};
use pathlab_core::formats::{course, movingai};
use pathlab_core::grid::Grid;
use pathlab_core::search::request_scene::{RequestScene, Walker};
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

/// What a walker is doing: the values of the bytes behind [`Requests::agent_states_ptr`]
/// (the core's `WalkerState`), so that the page names them instead of copying numbers.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum WalkerState {
    /// Standing; it asks for a path at the next frame.
    Idle = 0,
    /// Its request is queued or being searched.
    Waiting = 1,
    /// Walking the path it was given.
    Walking = 2,
}

/// The walkers as the page paints them: one entry per walker in each array, behind the
/// `agent*Ptr` pointers, and the cells of every walker's route ahead, one after another.
#[derive(Default)]
struct WalkerViews {
    x: Vec<f32>,
    y: Vec<f32>,
    state: Vec<u8>,
    request: Vec<u32>,
    goal: Vec<u32>,
    /// Where each walker's route ends in `route` (it starts where the previous one ends).
    route_end: Vec<u32>,
    route: Vec<u32>,
}

impl WalkerViews {
    fn refresh(&mut self, walkers: &[Walker]) {
        fn fill<T>(v: &mut Vec<T>, walkers: &[Walker], f: impl Fn(&Walker) -> T) {
            v.clear();
            v.extend(walkers.iter().map(f));
        }
        fill(&mut self.x, walkers, |w| w.x() as f32);
        fill(&mut self.y, walkers, |w| w.y() as f32);
        fill(&mut self.state, walkers, |w| w.state() as u8);
        fill(&mut self.request, walkers, |w| w.request().map_or(u32::MAX, RequestId::get));
        fill(&mut self.goal, walkers, |w| w.goal() as u32);
        self.route.clear();
        self.route_end.clear();
        for w in walkers {
            self.route.extend(w.route().iter().map(|&c| c as u32));
            self.route_end.push(self.route.len() as u32);
        }
    }
}

/// Path requests from many agents on one grid, served a budget of A* steps per tick, most
/// urgent first (see `pathlab_core::search::slicing` for the order, aging and grid edits),
/// and the walkers that make them (`pathlab_core::search::request_scene`).
#[wasm_bindgen]
pub struct Requests {
    scene: RequestScene,
    budget: u32,
    last: Tick,
    /// The ids of the requests the last tick finished, behind [`Requests::finished_ptr`].
    finished: Vec<u32>,
    views: WalkerViews,
}

#[wasm_bindgen]
impl Requests {
    /// An open grid of `width` x `height` with no requests; A* with the octile heuristic,
    /// no corner cutting, real costs; a budget of 200 steps per tick; aging on.
    #[wasm_bindgen(constructor)]
    pub fn new(width: u32, height: u32) -> Result<Requests, JsError> {
        let grid = Grid::new(width as usize, height as usize).map_err(err)?;
        let planner = FramePlanner::new(grid, SearchConfig::new(Algorithm::AStar)).map_err(err)?;
        Ok(Requests {
            scene: RequestScene::new(planner),
            budget: DEFAULT_BUDGET,
            last: Tick::default(),
            finished: Vec::new(),
            views: WalkerViews::default(),
        })
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
        self.scene.set_grid(grid);
        self.last = Tick::default();
        self.finished.clear();
        self.views.refresh(self.scene.walkers());
    }

    /// Columns.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.scene.planner().grid().width() as u32
    }

    /// Rows.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u32 {
        self.scene.planner().grid().height() as u32
    }

    /// The value of a cell (0 wall, 1 ground, more is terrain); refused outside the grid.
    pub fn cell(&self, x: i32, y: i32) -> Result<u8, JsError> {
        let p = point(self.scene.planner().grid(), x, y)?;
        Ok(self.scene.planner().grid().get(p).unwrap_or(0))
    }

    /// Pointer to the cell values (one byte each, row-major, `width * height` of them).
    #[wasm_bindgen(js_name = cellsPtr)]
    pub fn cells_ptr(&self) -> *const u8 {
        self.scene.planner().grid().cells().as_ptr()
    }

    /// Asks for a path from (x0, y0) to (x1, y1) with an urgency from 0 to 1000000 (higher
    /// is served first); returns the request's id. Refused when an end is outside the grid
    /// or on a wall, or the urgency is not allowed.
    pub fn submit(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, urgency: f64) -> Result<u32, JsError> {
        let grid = self.scene.planner().grid();
        let end = |which: &str, x: i32, y: i32| {
            grid.point(i64::from(x), i64::from(y)).map_err(|e| err(format!("{which} {e}")))
        };
        let start = end("start", x0, y0)?;
        let goal = end("goal", x1, y1)?;
        let id = self.scene.planner_mut().submit(start, goal, urgency).map_err(err)?;
        Ok(id.get())
    }

    /// Withdraws an open request; false when it is unknown or already finished.
    pub fn cancel(&mut self, id: u32) -> bool {
        self.scene.planner_mut().cancel(RequestId::new(id))
    }

    /// Drops a request's record (cancelling it if open); false when it is unknown.
    pub fn forget(&mut self, id: u32) -> bool {
        self.scene.planner_mut().forget(RequestId::new(id))
    }

    /// Drops every request.
    pub fn clear(&mut self) {
        self.scene.planner_mut().clear();
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
        self.scene.planner().aging() > 0.0
    }

    /// Urgency points a waiting request gains per tick (0 when aging is off).
    #[wasm_bindgen(getter, js_name = agingRate)]
    pub fn aging_rate(&self) -> f64 {
        self.scene.planner().aging()
    }

    /// Turns aging on (0.1 urgency points per tick) or off.
    #[wasm_bindgen(js_name = setAging)]
    pub fn set_aging(&mut self, on: bool) -> Result<(), JsError> {
        self.scene.planner_mut().set_aging(if on { DEFAULT_AGING } else { 0.0 }).map_err(err)
    }

    /// Spends up to `budget` steps (or the handle's budget when not given) on the open
    /// requests, most urgent first; returns the steps spent.
    pub fn tick(&mut self, budget_steps: Option<f64>) -> Result<u32, JsError> {
        let steps = match budget_steps {
            Some(b) => budget(b)?,
            None => self.budget,
        };
        self.last = self.scene.planner_mut().tick(steps as usize);
        self.finished.clear();
        self.finished.extend(self.last.finished.iter().map(|id| id.get()));
        Ok(self.last.spent as u32)
    }

    /// Ticks run so far.
    #[wasm_bindgen(getter)]
    pub fn ticks(&self) -> f64 {
        self.scene.planner().ticks() as f64
    }

    /// Steps the last tick spent.
    #[wasm_bindgen(getter)]
    pub fn spent(&self) -> u32 {
        self.last.spent as u32
    }

    /// Requests queued or searching.
    #[wasm_bindgen(getter, js_name = openCount)]
    pub fn open_count(&self) -> u32 {
        self.scene.planner().open_count() as u32
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
        let views: Vec<RequestView> = self.scene.planner().queue().into_iter().map(RequestView::of).collect();
        serde_wasm_bindgen::to_value(&views).map_err(err)
    }

    /// Every request held (open, finished and cancelled ones not forgotten), in submission
    /// order, as the same objects as [`queue`](Requests::queue); `status` may also be `found`,
    /// `no-path` or `cancelled`.
    pub fn requests(&self) -> Result<JsValue, JsError> {
        let views: Vec<RequestView> = self.scene.planner().requests().map(RequestView::of).collect();
        serde_wasm_bindgen::to_value(&views).map_err(err)
    }

    /// One request as the same object as in [`queue`](Requests::queue), or null when unknown.
    pub fn request(&self, id: u32) -> Result<JsValue, JsError> {
        match self.scene.planner().request(RequestId::new(id)) {
            Some(r) => serde_wasm_bindgen::to_value(&RequestView::of(r)).map_err(err),
            None => Ok(JsValue::NULL),
        }
    }

    /// A found request's path as row-major cell indices from start to goal (a small copied
    /// array; empty while it has none).
    pub fn path(&self, id: u32) -> Vec<u32> {
        let Some(path) = self.scene.planner().request(RequestId::new(id)).and_then(Request::path) else {
            return Vec::new();
        };
        let grid = self.scene.planner().grid();
        path.points.iter().map(|&p| grid.index(p) as u32).collect()
    }

    /// Drops every request and places `count` idle walkers (0 to 1000000) on random cells of
    /// the largest open region, from a generator seeded with `seed` (a whole number from 0 to
    /// 4294967295); the counts start again. Returns how many stand (0 when every cell is a
    /// wall).
    #[wasm_bindgen(js_name = placeAgents)]
    pub fn place_agents(&mut self, count: f64, seed_value: f64) -> Result<u32, JsError> {
        let count = pathlab_bind::whole("the agent count", count, f64::from(MAX_BUDGET)).map_err(err)?;
        let seed = seed(seed_value).map_err(err)?;
        let placed = self.scene.place(count as usize, seed);
        self.last = Tick::default();
        self.finished.clear();
        self.views.refresh(self.scene.walkers());
        Ok(placed as u32)
    }

    /// One frame of the walkers: they walk, the idle ones ask for paths, the handle's budget
    /// of steps is spent, and the answers are handed out (see `finishedPtr` for which
    /// finished). Returns the steps spent. Refused (after the frame ran) when the planner
    /// refused a walker's request, naming why.
    pub fn frame(&mut self) -> Result<u32, JsError> {
        self.last = self.scene.frame(self.budget as usize);
        self.finished.clear();
        self.finished.extend(self.last.finished.iter().map(|id| id.get()));
        self.views.refresh(self.scene.walkers());
        match self.scene.take_refusal() {
            Some(e) => Err(err(e)),
            None => Ok(self.last.spent as u32),
        }
    }

    /// Every walker not already waiting stops on its nearer cell and asks for a new path.
    /// Refused (after asking for the others) when the planner refused a request, naming why.
    pub fn burst(&mut self) -> Result<(), JsError> {
        self.scene.burst();
        self.views.refresh(self.scene.walkers());
        self.scene.take_refusal().map_or(Ok(()), |e| Err(err(e)))
    }

    /// Walkers placed.
    #[wasm_bindgen(getter, js_name = agentCount)]
    pub fn agent_count(&self) -> u32 {
        self.scene.walkers().len() as u32
    }

    /// Frames run since the walkers were placed.
    #[wasm_bindgen(getter, js_name = frameCount)]
    pub fn frame_count(&self) -> f64 {
        self.scene.stats().frames as f64
    }

    /// The walkers' requests answered with a path since they were placed.
    #[wasm_bindgen(getter)]
    pub fn served(&self) -> f64 {
        self.scene.stats().served as f64
    }

    /// The walkers' requests answered with no path since they were placed.
    #[wasm_bindgen(getter, js_name = noPath)]
    pub fn no_path(&self) -> f64 {
        self.scene.stats().no_path as f64
    }

    /// The frames the served requests waited for their answers, summed.
    #[wasm_bindgen(getter, js_name = waitSum)]
    pub fn wait_sum(&self) -> f64 {
        self.scene.stats().wait_sum as f64
    }

    /// The longest of those waits, in frames.
    #[wasm_bindgen(getter, js_name = waitMax)]
    pub fn wait_max(&self) -> f64 {
        self.scene.stats().wait_max as f64
    }

    /// Pointer to the walkers' horizontal positions (f32, in cells; `agentCount` of them).
    #[wasm_bindgen(js_name = agentXPtr)]
    pub fn agent_x_ptr(&self) -> *const f32 {
        self.views.x.as_ptr()
    }

    /// Pointer to the walkers' vertical positions (f32, in cells).
    #[wasm_bindgen(js_name = agentYPtr)]
    pub fn agent_y_ptr(&self) -> *const f32 {
        self.views.y.as_ptr()
    }

    /// Pointer to the walkers' states (one byte each: a `WalkerState`).
    #[wasm_bindgen(js_name = agentStatesPtr)]
    pub fn agent_states_ptr(&self) -> *const u8 {
        self.views.state.as_ptr()
    }

    /// Pointer to the walkers' open request ids (u32; 4294967295 when none).
    #[wasm_bindgen(js_name = agentRequestsPtr)]
    pub fn agent_requests_ptr(&self) -> *const u32 {
        self.views.request.as_ptr()
    }

    /// Pointer to the cells (u32, row-major indices) the walkers last asked to go to.
    #[wasm_bindgen(js_name = agentGoalsPtr)]
    pub fn agent_goals_ptr(&self) -> *const u32 {
        self.views.goal.as_ptr()
    }

    /// Pointer to where each walker's route ends in the routes (u32, one per walker; a route
    /// starts where the one before it ends, the first at 0).
    #[wasm_bindgen(js_name = routeEndsPtr)]
    pub fn route_ends_ptr(&self) -> *const u32 {
        self.views.route_end.as_ptr()
    }

    /// Pointer to the routes: the cells (u32, row-major) each walking walker has still ahead,
    /// walker after walker; `routeLength` of them.
    #[wasm_bindgen(js_name = routesPtr)]
    pub fn routes_ptr(&self) -> *const u32 {
        self.views.route.as_ptr()
    }

    /// How many cells the routes hold in all.
    #[wasm_bindgen(getter, js_name = routeLength)]
    pub fn route_length(&self) -> u32 {
        self.views.route.len() as u32
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
        let cells = grid_cells_on_line(self.scene.planner().grid(), (x0, y0), (x1, y1));
        Ok(self.scene.planner_mut().paint(cells, value) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathlab_core::search::request_scene::WalkerState as Core;

    #[test]
    fn walker_states_have_the_cores_values() {
        for (ours, core) in [
            (WalkerState::Idle, Core::Idle),
            (WalkerState::Waiting, Core::Waiting),
            (WalkerState::Walking, Core::Walking),
        ] {
            assert_eq!(ours as u8, core as u8);
        }
        assert_eq!(Core::ALL.len(), 3);
    }

    #[test]
    fn placed_walkers_ask_walk_and_show_in_the_views() {
        let Ok(mut r) = Requests::new(12, 6) else { panic!("a 12x6 grid") };
        assert!(r.place_agents(4.0, 2.0).is_ok_and(|n| n == 4));
        assert!(r.burst().is_ok());
        assert_eq!(r.open_count(), 4);
        assert!(r.views.state.iter().all(|&s| s == WalkerState::Waiting as u8));
        assert!(r.frame().is_ok_and(|spent| spent > 0));
        assert_eq!(r.served(), 4.0, "a budget of 200 answers four requests on an open 12x6 grid");
        let walking = r.views.state.contains(&(WalkerState::Walking as u8));
        assert_eq!(r.views.route_end.len(), 4);
        assert_eq!(r.views.route_end.last().copied(), Some(r.route_length()));
        assert!(!walking || r.route_length() > 0);
    }

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
