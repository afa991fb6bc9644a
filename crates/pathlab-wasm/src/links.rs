//! Teleports and slopes on the grid page's map: the [`Lab`] methods that set them, and the
//! numbers the page shows beside them (the cheapest cost, the cost of the way back).

use pathlab_bind::{err, parse};
use pathlab_core::grid::Point;
use pathlab_core::search::{Algorithm, GridLinks, SearchConfig, Stepper};
use pathlab_core::space::{Teleport, TeleportHeuristic};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::Lab;

/// The links as the page draws them.
#[derive(Serialize)]
struct LinksView {
    kind: &'static str,
    /// Teleports: `[from x, from y, to x, to y, cost, both ways]`.
    teleports: Vec<(usize, usize, usize, usize, f64, bool)>,
    heuristic: &'static str,
    uphill: f64,
    downhill: f64,
}

#[wasm_bindgen]
impl Lab {
    /// Puts teleports on the map, replacing any teleports or slopes: `list` holds six numbers
    /// per teleport, `from x, from y, to x, to y, cost, both ways (0 or 1)`; `heuristic` is
    /// `plain` (the grid's estimate, blind to teleports) or `teleports` (one that knows them).
    /// Only BFS, DFS, Dijkstra, greedy and A* run with teleports. On error nothing changes.
    #[wasm_bindgen(js_name = setTeleports)]
    pub fn set_teleports(&mut self, list: &[f64], heuristic: &str) -> Result<(), JsError> {
        let heuristic: TeleportHeuristic = parse(heuristic)?;
        if list.len() % 6 != 0 {
            return Err(err(format!("teleports take six numbers each, got {} numbers", list.len())));
        }
        let grid = self.search.grid();
        let mut teleports = Vec::new();
        for (k, t) in list.chunks_exact(6).enumerate() {
            let cell = |x: f64, y: f64| {
                let whole = x.fract() == 0.0 && y.fract() == 0.0 && x.is_finite() && y.is_finite();
                if whole && grid.contains(x as i64, y as i64) {
                    Ok(Point::new(x as usize, y as usize))
                } else {
                    Err(err(format!("teleport {}: ({x},{y}) is not a cell of the grid", k + 1)))
                }
            };
            teleports.push(Teleport {
                from: cell(t[0], t[1])?,
                to: cell(t[2], t[3])?,
                cost: t[4],
                both_ways: t[5] != 0.0,
            });
        }
        let links =
            if teleports.is_empty() { GridLinks::None } else { GridLinks::Teleports { list: teleports, heuristic } };
        self.set_links(links)
    }

    /// Gives every cell a height (row-major, one byte each) and the extra cost per unit of
    /// height climbed and descended, replacing any teleports. On error nothing changes.
    #[wasm_bindgen(js_name = setSlopes)]
    pub fn set_slopes(&mut self, heights: Vec<u8>, uphill: f64, downhill: f64) -> Result<(), JsError> {
        self.set_links(GridLinks::Slopes { heights, uphill, downhill })
    }

    /// Removes teleports and slopes.
    #[wasm_bindgen(js_name = clearLinks)]
    pub fn clear_links(&mut self) -> Result<(), JsError> {
        self.set_links(GridLinks::None)
    }

    /// The teleports and slope costs, for drawing: `{kind: none|teleports|slopes, teleports,
    /// heuristic, uphill, downhill}`.
    pub fn links(&self) -> Result<JsValue, JsError> {
        let mut view = LinksView { kind: "none", teleports: Vec::new(), heuristic: "", uphill: 0.0, downhill: 0.0 };
        match self.search.links() {
            GridLinks::None => {}
            GridLinks::Teleports { list, heuristic } => {
                view.kind = "teleports";
                view.heuristic = heuristic.name();
                view.teleports =
                    list.iter().map(|t| (t.from.x, t.from.y, t.to.x, t.to.y, t.cost, t.both_ways)).collect();
            }
            GridLinks::Slopes { uphill, downhill, .. } => {
                view.kind = "slopes";
                (view.uphill, view.downhill) = (*uphill, *downhill);
            }
        }
        serde_wasm_bindgen::to_value(&view).map_err(err)
    }

    /// The heights, row-major (empty without slopes).
    pub fn heights(&self) -> Vec<u8> {
        match self.search.links() {
            GridLinks::Slopes { heights, .. } => heights.clone(),
            _ => Vec::new(),
        }
    }

    /// The cheapest cost from start to goal on this map with its links (Dijkstra), or none
    /// when the goal cannot be reached: what the page holds a search's cost against.
    #[wasm_bindgen(js_name = cheapestCost)]
    pub fn cheapest_cost(&self) -> Result<Option<f64>, JsError> {
        self.dijkstra(self.search.start(), self.search.goal())
    }

    /// The cheapest cost of the way back, from goal to start (Dijkstra): with slopes it can
    /// differ from the way there.
    #[wasm_bindgen(js_name = cheapestBack)]
    pub fn cheapest_back(&self) -> Result<Option<f64>, JsError> {
        self.dijkstra(self.search.goal(), self.search.start())
    }

    fn dijkstra(&self, from: Point, to: Point) -> Result<Option<f64>, JsError> {
        let c = self.search.config();
        let config = SearchConfig::new(Algorithm::Dijkstra).diagonal(c.diagonal).costs(c.costs);
        let mut s = crate::BUILD(self.search.grid().clone(), from, to, config, self.search.links()).map_err(err)?;
        s.run();
        Ok(s.cost())
    }
}

impl Lab {
    /// True when teleports are on the map and the estimate ignores them, so it may
    /// overestimate and A* may miss the cheapest path.
    pub(crate) fn blind_to_teleports(&self) -> bool {
        self.search.blind_to_teleports()
    }

    /// Rebuilds the search with `links`, back to where it stood; on error keeps the old ones.
    fn set_links(&mut self, links: GridLinks) -> Result<(), JsError> {
        self.search.set_links(links).map_err(err)
    }
}
