//! Route planning for the street ([`super::street`]): the grids its pedestrians and cars plan
//! on, the path-finders they may use, one plan as a record the page and the tests can read,
//! and the comparison of the path-finders by planning time against the number of agents and
//! by the nodes each plan expands.
//!
//! The grids are the street's 60 x 30 cells (one world unit each):
//! - [`pedestrian_grid`]: the two pavements (every row above and below the road) and the
//!   half of the crossing on the walker's right (pedestrians keep right, so the two ways
//!   across do not meet head-on); the rest of the road is a wall.
//! - [`lane_grid`]: one lane's three rows of the road (lane 0 eastbound, the lower half; lane
//!   1 westbound, the upper half); everything else is a wall.
//!
//! Every plan is one run of a search of the core (the stepper [`search::build`](crate::search::build) gives for it)
//! with 8-connected moves, no corner cutting, costs 1 and sqrt 2, from the agent's cell to its
//! goal cell. LRTA* is run to the end before the agent sets off: the route is the trail its
//! walk left, back-and-forth moves included, so the agent shows them.
//!
//! ```
//! use pathlab_core::crowd::street_plan::{lane_grid, plan, Planner};
//! use pathlab_core::grid::Point;
//! let grid = lane_grid(0);
//! let a = plan(&grid, Point::new(0, 16), Point::new(59, 16), Planner::AStar).unwrap();
//! let d = plan(&grid, Point::new(0, 16), Point::new(59, 16), Planner::Dijkstra).unwrap();
//! assert_eq!(a.cost, Some(59.0));
//! assert_eq!(a.cost, d.cost);
//! assert!(a.expanded < d.expanded);
//! ```

use std::sync::OnceLock;

use crate::grid::{Costs, Diagonal, Grid, Point, WALL};
use crate::heuristic::Heuristic;
use crate::search::lrta::Lrta;
use crate::search::smoothed::SmoothedAStar;
use crate::search::theta::ThetaStar;
use crate::search::{Algorithm, Search, SearchConfig, SearchError, Status, Stepper};

/// Columns of the street grid.
pub const COLUMNS: usize = 60;
/// Rows of the street grid.
pub const ROWS: usize = 30;
/// The first road row.
pub const ROAD_FIRST_ROW: usize = 12;
/// One past the last road row.
pub const ROAD_END_ROW: usize = 18;
/// The first crossing column.
pub const CROSSING_FIRST_COLUMN: usize = 28;
/// One past the last crossing column.
pub const CROSSING_END_COLUMN: usize = 32;

/// The path-finders an agent of the street may plan with, in the order the page lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Planner {
    /// A* with the octile estimate.
    AStar,
    /// Dijkstra: no estimate.
    Dijkstra,
    /// Theta*: any-angle A* (Euclidean estimate).
    Theta,
    /// A*, then the path pulled straight wherever a later corner is in sight.
    AStarSmoothed,
    /// Learning real-time A* (look-ahead 1), walked to the end before the agent sets off.
    Lrta,
}

impl Planner {
    /// Every planner, in menu order.
    pub const ALL: [Planner; 5] = [Self::AStar, Self::Dijkstra, Self::Theta, Self::AStarSmoothed, Self::Lrta];

    /// The search algorithm of the core's registry that plans.
    pub const fn algorithm(self) -> Algorithm {
        match self {
            Self::AStar => Algorithm::AStar,
            Self::Dijkstra => Algorithm::Dijkstra,
            Self::Theta => Algorithm::Theta,
            Self::AStarSmoothed => Algorithm::AStarSmoothed,
            Self::Lrta => Algorithm::Lrta,
        }
    }

    /// Its URL name (the registry's: `astar`, `dijkstra`, `theta`, `astar-smoothed`, `lrta`).
    pub const fn name(self) -> &'static str {
        self.algorithm().name()
    }

    /// Its short name in sentences and charts (the registry's).
    pub fn short(self) -> &'static str {
        self.algorithm().info().short
    }

    /// The planner with this URL name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Its place in [`Planner::ALL`].
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|&p| p == self).unwrap_or(0)
    }

    /// The search settings every plan uses: 8-connected, no corner cutting, real costs; the
    /// octile estimate, or the Euclidean one for the any-angle Theta*.
    pub const fn config(self) -> SearchConfig {
        let heuristic = if matches!(self, Self::Theta) { Heuristic::Euclidean } else { Heuristic::Octile };
        SearchConfig::new(self.algorithm()).heuristic(heuristic).diagonal(Diagonal::NoCornerCutting).costs(Costs::Real)
    }

    /// True when its route may join cells in sight by a straight segment instead of moves.
    pub fn any_angle(self) -> bool {
        self.algorithm().info().any_angle
    }
}

/// Which way a pedestrian crosses the road.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heading {
    /// From the upper pavement to the lower one (y grows): keeps to the crossing's western
    /// half (its right, facing south).
    South,
    /// From the lower pavement to the upper one: keeps to the eastern half.
    North,
}

impl Heading {
    /// The crossing's columns this heading walks, `first..end`.
    pub const fn columns(self) -> (usize, usize) {
        let mid = usize::midpoint(CROSSING_FIRST_COLUMN, CROSSING_END_COLUMN);
        match self {
            Self::South => (CROSSING_FIRST_COLUMN, mid),
            Self::North => (mid, CROSSING_END_COLUMN),
        }
    }
}

/// Who plans: which grid a route is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Traveller {
    /// A pedestrian crossing one way, on [`pedestrian_grid`].
    Pedestrian(Heading),
    /// A car in lane 0 or 1, on [`lane_grid`].
    Car(u8),
}

impl Traveller {
    /// The grid this traveller plans on (without any cells blocked for a replan).
    pub fn grid(self) -> Grid {
        match self {
            Self::Pedestrian(heading) => pedestrian_grid(heading),
            Self::Car(lane) => lane_grid(usize::from(lane)),
        }
    }
}

fn grid_where(free: impl Fn(usize, usize) -> bool) -> Grid {
    let mut cells = vec![WALL; COLUMNS * ROWS];
    for y in 0..ROWS {
        for x in 0..COLUMNS {
            if free(x, y) {
                cells[y * COLUMNS + x] = 1;
            }
        }
    }
    // The sizes are constants well inside the grid's limits.
    Grid::from_cells(COLUMNS, ROWS, cells).unwrap_or_else(|_| unreachable!("60 x 30 is a valid grid"))
}

/// The cells a pedestrian crossing towards `heading` may walk: both pavements and its half of
/// the crossing.
pub fn pedestrian_grid(heading: Heading) -> Grid {
    let (first, end) = heading.columns();
    grid_where(|x, y| !(ROAD_FIRST_ROW..ROAD_END_ROW).contains(&y) || (first..end).contains(&x))
}

/// The cells of one lane: lane 0 (eastbound) is the road's lower three rows, lane 1
/// (westbound) its upper three.
pub fn lane_grid(lane: usize) -> Grid {
    let first = if lane == 0 { ROAD_FIRST_ROW + 3 } else { ROAD_FIRST_ROW };
    grid_where(|_, y| (first..first + 3).contains(&y))
}

/// The row a lane's cars drive along (its middle row).
pub const fn lane_row(lane: usize) -> usize {
    if lane == 0 {
        ROAD_FIRST_ROW + 4
    } else {
        ROAD_FIRST_ROW + 1
    }
}

/// One route planned by one agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Who planned, and so on which grid.
    pub traveller: Traveller,
    /// The path-finder.
    pub planner: Planner,
    /// The cell it planned from.
    pub start: Point,
    /// The goal cell.
    pub goal: Point,
    /// Cells that were walls for this plan only (the agents standing in the way of a replan).
    pub blocked: Vec<Point>,
    /// The route, start to goal: every cell for grid moves, the corners for any-angle routes,
    /// the trail walked for LRTA*; empty when no route was found.
    pub cells: Vec<Point>,
    /// The route's cost (None: no route).
    pub cost: Option<f64>,
    /// Nodes the search expanded (the stepper's own count).
    pub expanded: usize,
    /// Milliseconds the plan took (NaN where no clock can be read).
    pub millis: f64,
}

/// Plans from `start` to `goal` on `grid` with `planner` (see the
/// [module documentation](self) for the settings). The returned record's traveller is a
/// southbound pedestrian and its blocked list empty; the caller fills them in.
///
/// # Errors
/// The search's own error when an end is outside the grid or on a wall.
pub fn plan(grid: &Grid, start: Point, goal: Point, planner: Planner) -> Result<Plan, SearchError> {
    let began = now_ms();
    let mut search = stepper(grid.clone(), start, goal, planner)?;
    let status = search.run();
    let millis = now_ms() - began;
    let cells = if status == Status::Found {
        search.path_indices().iter().map(|&i| grid.point_at(i as usize)).collect()
    } else {
        Vec::new()
    };
    Ok(Plan {
        traveller: Traveller::Pedestrian(Heading::South),
        planner,
        start,
        goal,
        blocked: Vec::new(),
        cells,
        cost: if status == Status::Found { search.cost() } else { None },
        expanded: search.expanded(),
        millis,
    })
}

/// The search that plans for `planner`: the core's own stepper for it, built directly rather
/// than through [`search::build`](crate::search::build), so that a program with the street
/// (the crowd page's wasm module) carries these five searches and not every algorithm.
fn stepper(grid: Grid, start: Point, goal: Point, planner: Planner) -> Result<Box<dyn Stepper>, SearchError> {
    let config = planner.config();
    Ok(match planner {
        Planner::AStar | Planner::Dijkstra => Box::new(Search::new(grid, start, goal, config)?),
        Planner::Theta => Box::new(ThetaStar::new(grid, start, goal, config)?),
        Planner::AStarSmoothed => Box::new(SmoothedAStar::new(grid, start, goal, config)?),
        Planner::Lrta => Box::new(Lrta::new(grid, start, goal, config)?),
    })
}

static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

/// Gives the planners a clock in milliseconds (the wasm layer passes `performance.now`, since
/// WebAssembly has none of its own). Only the first call counts; returns whether it did.
pub fn set_clock(clock: fn() -> f64) -> bool {
    CLOCK.set(clock).is_ok()
}

/// Milliseconds from an arbitrary start: the clock given to [`set_clock`], else the system's
/// monotonic clock (NaN in WebAssembly without one).
pub fn now_ms() -> f64 {
    match CLOCK.get() {
        Some(clock) => clock(),
        None => system_ms(),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn system_ms() -> f64 {
    static EPOCH: OnceLock<std::time::Instant> = OnceLock::new();
    EPOCH.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1000.0
}

#[cfg(target_arch = "wasm32")]
fn system_ms() -> f64 {
    f64::NAN
}
