//! The street crossing: a two-lane road with a zebra crossing and a traffic light, cars on the
//! road and pedestrians on both pavements, each driven by a small finite-state brain that
//! obeys the light.
//!
//! Layout (world units, one per cell, y down): the world is 60 x 30; the road is the band
//! `12 <= y < 18` (eastbound lane below the middle, westbound above); the crossing is
//! `28 <= x < 32` across the road; each lane's stop line is 2 units before the crossing.
//! Pavements are `2 <= y < 12` and `18 <= y < 28`.
//!
//! The light runs one cycle of phases (car light / pedestrian light): car green (pedestrians
//! red), car amber, all red (cars that could not stop on amber clear the crossing), walk (car
//! red, pedestrians green), and clearance (both red, the last pedestrians finish crossing).
//!
//! Brains:
//! - pedestrian: **walk to kerb** (a spot on its kerb at the crossing) -> **wait** -> **cross**
//!   (only when the pedestrian light is green and no car is between its stop line and the far
//!   side of the crossing) -> **walk on** to a goal on the far pavement; there it picks a new
//!   goal back across the road. Pedestrians avoid one another with ORCA
//!   ([`new_velocity_among`]), the road's edge a static obstacle except while crossing.
//! - car: **drive** at its cruising speed keeping a safe distance to the car ahead (never
//!   faster than lets it stop 2 units behind that car's rear); **slow** when it must stop at the
//!   line (red; amber when it can still stop; anyone on the crossing or the road); **stopped**
//!   at the line; **go** once allowed again, back to drive at cruising speed. A car that
//!   leaves the world on the far side comes back at the near end behind its lane's last car.
//!
//! With a path-finder ([`StreetScene::with_planner`], the scene `street-paths`), every
//! pedestrian and car plans its own route on the street's grid
//! ([`street_plan`](super::street_plan)): pedestrians on the pavements and the crossing, cars
//! along their lane. A pedestrian follows its route's points; where the route steps onto the
//! road it waits at the kerb for the green and goes on when the same rule as above lets it,
//! and once at its goal it plans the next trip back across. One that makes no headway for
//! [`STUCK_TIME`] seconds plans again from where it stands, the cells of the pedestrians around
//! it walls for that plan. A car plans its lane from where it enters to where it leaves, and
//! drives it under the same rules (light, distance). The scene counts plans, nodes expanded
//! (per agent and per plan), the time spent planning and how long trips take.
//!
//! ```
//! use pathlab_core::crowd::scene::{Scene, SceneConfig};
//! use pathlab_core::crowd::street::StreetScene;
//! let mut street = StreetScene::new(&SceneConfig { agents: Some(10), seed: 2 }).unwrap();
//! for _ in 0..600 { street.step(); }
//! let hits = street.metrics().into_iter().find(|m| m.name == "car_ped_collisions").unwrap();
//! assert_eq!(hits.value, 0.0);
//! ```

use crate::boids::{Pcg32, Vec2};
use crate::grid::{Grid, Point};

use super::avoid::{new_velocity_among, AgentState, AvoidParams, Neighbour};
use super::scene::{Action, Frame, Ink, Metric, Param, Scene, SceneConfig, SceneError};
use super::street_plan::{lane_grid, lane_row, pedestrian_grid, plan, Heading, Plan, Planner, Traveller};

/// World width.
pub const WIDTH: f32 = 60.0;
/// World height.
pub const HEIGHT: f32 = 30.0;
/// Top edge of the road.
pub const ROAD_TOP: f32 = 12.0;
/// Bottom edge of the road.
pub const ROAD_BOTTOM: f32 = 18.0;
/// Left edge of the crossing.
pub const CROSSING_LEFT: f32 = 28.0;
/// Right edge of the crossing.
pub const CROSSING_RIGHT: f32 = 32.0;
/// The stop line, in the along-the-lane coordinate (the distance a car's front has travelled
/// from where its lane enters the world): 2 units before the crossing in both lanes.
pub const STOP_LINE: f32 = 26.0;
/// Car length.
pub const CAR_LENGTH: f32 = 4.0;
/// Car width.
pub const CAR_WIDTH: f32 = 2.0;
/// Cars per lane.
pub const CARS_PER_LANE: usize = 3;
/// The gap a car keeps to the rear of the car ahead when stopped.
pub const CAR_GAP: f32 = 2.0;
/// Car braking (units / s^2) used to plan stops.
pub const CAR_BRAKE: f32 = 4.0;
/// Car acceleration (units / s^2).
pub const CAR_ACCEL: f32 = 2.0;
/// Pedestrian radius.
pub const PED_RADIUS: f32 = 0.3;
/// The most pedestrians of the street (without a path-finder).
pub const MAX_PEDESTRIANS: usize = 60;
/// The most pedestrians of the street with a path-finder.
pub const MAX_PLANNING_PEDESTRIANS: usize = 200;
/// Seconds without headway after which a planning pedestrian plans again.
pub const STUCK_TIME: f32 = 2.0;
/// How close (world units) a planning pedestrian comes to a route point before heading for
/// the next.
pub const REACH: f32 = 0.4;

const DT: f32 = 0.1;
const AMBER: f32 = 3.0;
const ALL_RED: f32 = 2.0;
/// The clearance phase: the slowest pedestrian (1.3 units / s) crosses the 7 units from kerb
/// spot to kerb spot at 85% of its speed in 6.3 s; a second more to spare.
const CLEARANCE: f32 = 7.5;

/// The phase of the light.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Cars green, pedestrians red.
    CarGreen,
    /// Cars amber, pedestrians red.
    CarAmber,
    /// Both red (cars that passed on amber clear the crossing).
    AllRed,
    /// Cars red, pedestrians green.
    Walk,
    /// Both red (the last pedestrians finish crossing).
    Clearance,
}

/// A pedestrian's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PedState {
    /// Walking along the pavement to its spot on the kerb.
    WalkToKerb,
    /// Waiting at the kerb for the green.
    Wait,
    /// On the crossing.
    Cross,
    /// Walking on to its goal on the far pavement.
    WalkOn,
}

/// A car's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarState {
    /// Driving at (up to) its cruising speed.
    Drive,
    /// Braking to stop at the line.
    Slow,
    /// Standing at the line (or behind a car standing there).
    Stopped,
    /// Pulling away after a stop.
    Go,
}

#[derive(Clone, Copy, Debug)]
struct Ped {
    pos: Vec2,
    vel: Vec2,
    speed: f32,
    state: PedState,
    /// The kerb spot (walk to kerb, wait), the far kerb spot (cross) or the goal (walk on).
    target: Vec2,
    goal: Vec2,
    waited: f32,
}

#[derive(Clone, Copy, Debug)]
struct Car {
    /// 0: eastbound (lower lane), 1: westbound (upper lane).
    lane: usize,
    /// The front's distance along the lane from where the lane enters the world.
    s: f32,
    v: f32,
    cruise: f32,
    state: CarState,
}

impl Car {
    fn dir(&self) -> f32 {
        if self.lane == 0 {
            1.0
        } else {
            -1.0
        }
    }
    fn front(&self) -> Vec2 {
        let y = if self.lane == 0 { 16.5 } else { 13.5 };
        if self.lane == 0 {
            Vec2::new(self.s, y)
        } else {
            Vec2::new(WIDTH - self.s, y)
        }
    }
    fn centre(&self) -> Vec2 {
        self.front() - Vec2::new(self.dir() * CAR_LENGTH * 0.5, 0.0)
    }
    /// Whether the car's body overlaps a disc.
    fn hits(&self, p: Vec2, r: f32) -> bool {
        let c = self.centre();
        let q = Vec2::new(
            p.x.clamp(c.x - CAR_LENGTH * 0.5, c.x + CAR_LENGTH * 0.5),
            p.y.clamp(c.y - CAR_WIDTH * 0.5, c.y + CAR_WIDTH * 0.5),
        );
        q.distance(p) < r
    }
    /// True while any part of the car is between its stop line and the far side of the
    /// crossing (with a unit to spare).
    fn near_crossing(&self) -> bool {
        self.s > STOP_LINE && self.s - CAR_LENGTH < WIDTH - CROSSING_LEFT + 1.0
    }
}

/// A planning pedestrian's route and its progress along it.
#[derive(Clone, Debug, Default)]
struct Route {
    /// Cell centres (grid moves) or corners (any-angle), with the kerb point put in.
    points: Vec<Vec2>,
    /// The point it heads for.
    next: usize,
    /// The point on the kerb where the route steps onto the road (None: it does not).
    kerb: Option<usize>,
    /// Distance to the point it heads for, at the last step.
    last_dist: f32,
    /// Seconds without headway.
    stuck: f32,
    /// When the trip began (simulated seconds).
    began: f32,
    /// The way it crosses: it keeps to its half of the crossing.
    heading: Option<Heading>,
}

impl Route {
    /// The columns (world x) a pedestrian on this route keeps to on the crossing.
    fn lane(&self) -> (f32, f32) {
        match self.heading {
            Some(h) => {
                let (first, end) = h.columns();
                (first as f32, end as f32)
            }
            None => (CROSSING_LEFT, CROSSING_RIGHT),
        }
    }
}

/// What the path-finders have done so far.
#[derive(Clone, Debug, Default)]
struct PlanStats {
    plans: u64,
    replans: u64,
    failed: u64,
    expanded: u64,
    millis: f64,
    arrivals: u32,
    trip_total: f64,
    car_trips: u32,
    car_trip_total: f64,
    /// Every plan, when asked for ([`StreetScene::record_plans`]).
    log: Option<Vec<Plan>>,
}

/// The path-finding part of a street that plans.
struct Planning {
    planner: Planner,
    /// The pedestrians' grids, southbound and northbound.
    walk_grids: [Grid; 2],
    lanes: [Grid; 2],
    routes: Vec<Route>,
    car_routes: Vec<Vec<Vec2>>,
    car_began: Vec<f32>,
    stats: PlanStats,
}

/// The velocity that keeps a crossing pedestrian at `pos` within the columns `lane` (world x,
/// from and to) while it is on the road: no step out of them (or further out), and no step
/// onto the road outside them.
fn keep_on_crossing(pos: Vec2, v: Vec2, lane: (f32, f32)) -> Vec2 {
    let on_road = |p: Vec2| p.y + PED_RADIUS > ROAD_TOP && p.y - PED_RADIUS < ROAD_BOTTOM;
    let (lo, hi) = (lane.0 + PED_RADIUS, lane.1 - PED_RADIUS);
    let next = pos + v * DT;
    let mut out = v;
    if !on_road(pos) {
        if on_road(next) && !(lo..=hi).contains(&next.x) {
            out.y = 0.0;
        }
        return out;
    }
    if next.x < lo && v.x < 0.0 {
        out.x = ((lo - pos.x) / DT).min(0.0).max(v.x);
    } else if next.x > hi && v.x > 0.0 {
        out.x = ((hi - pos.x) / DT).max(0.0).min(v.x);
    }
    out
}

/// The cell under a world point, clamped into the street.
fn cell_of(p: Vec2) -> Point {
    let x = if p.x.is_finite() { p.x.floor().clamp(0.0, WIDTH - 1.0) } else { 0.0 };
    let y = if p.y.is_finite() { p.y.floor().clamp(0.0, HEIGHT - 1.0) } else { 0.0 };
    Point::new(x as usize, y as usize)
}

fn centre(c: Point) -> Vec2 {
    Vec2::new(c.x as f32 + 0.5, c.y as f32 + 0.5)
}

/// A pedestrian's route through the cells of `plan`, with the point where it first steps
/// from its pavement (the top one when `top`) onto the road put in on the kerb line.
fn route_of(plan: &Plan, top: bool, heading: Heading, began: f32) -> Route {
    let mut points: Vec<Vec2> = plan.cells.iter().map(|&c| centre(c)).collect();
    let ky = kerb_y(top);
    let beyond = |y: f32| if top { y > ky + 1e-4 } else { y < ky - 1e-4 };
    let mut kerb = None;
    if let Some(j) = (0..points.len().saturating_sub(1)).find(|&j| beyond(points[j + 1].y) && !beyond(points[j].y)) {
        let (a, b) = (points[j], points[j + 1]);
        let t = ((ky - a.y) / (b.y - a.y)).clamp(0.0, 1.0);
        // Where it waits: on the kerb line, within its half of the crossing's columns.
        let mut k = a + (b - a) * t;
        let (first, end) = heading.columns();
        k.x = k.x.clamp(first as f32 + 0.5, end as f32 - 0.5);
        if k.distance(a) <= 1e-4 {
            kerb = Some(j);
        } else {
            points.insert(j + 1, k);
            kerb = Some(j + 1);
        }
    }
    Route { points, next: 0, kerb, last_dist: f32::INFINITY, stuck: 0.0, began, heading: Some(heading) }
}

/// The street with its light, cars and pedestrians.
pub struct StreetScene {
    name: &'static str,
    grid: Grid,
    peds: Vec<Ped>,
    cars: Vec<Car>,
    rng: Pcg32,
    steps: u64,
    phase: Phase,
    phase_time: f32,
    green_time: f32,
    walk_time: f32,
    avoid: AvoidParams,
    car_ped_collisions: u32,
    ped_collisions: u32,
    waits: u32,
    wait_total: f64,
    crossings: u32,
    cars_passed: u32,
    /// Per pedestrian: set at the step where it left "wait" for "cross" (for tests).
    started_crossing: Vec<bool>,
    /// Per car: set at the step where its front passed the stop line (for tests).
    passed_line: Vec<bool>,
    /// The path-finders' part (None: the brains head straight for their targets).
    planning: Option<Planning>,
}

fn pavement_point(rng: &mut Pcg32, top: bool) -> Vec2 {
    let x = rng.range(3.0, 57.0);
    let y = if top { rng.range(3.0, 11.0) } else { rng.range(19.0, 27.0) };
    Vec2::new(x, y)
}

fn kerb_y(top: bool) -> f32 {
    if top {
        ROAD_TOP - 0.5
    } else {
        ROAD_BOTTOM + 0.5
    }
}

impl StreetScene {
    /// A street with `config.agents` pedestrians (default 16, clamped to 2..=60) and
    /// [`CARS_PER_LANE`] cars per lane, placed by the seed.
    ///
    /// # Errors
    /// None in practice; the signature matches the other scenes.
    pub fn new(config: &SceneConfig) -> Result<Self, SceneError> {
        Self::make(config, config.agents.unwrap_or(16).clamp(2, MAX_PEDESTRIANS))
    }

    /// The street where every pedestrian and car plans its route with `planner`:
    /// `config.agents` pedestrians (default 40, clamped to 2..=[`MAX_PLANNING_PEDESTRIANS`])
    /// and [`CARS_PER_LANE`] cars per lane, placed by the seed as in [`StreetScene::new`].
    ///
    /// # Errors
    /// None in practice; the signature matches the other scenes.
    ///
    /// ```
    /// use pathlab_core::crowd::scene::{Scene, SceneConfig};
    /// use pathlab_core::crowd::street::StreetScene;
    /// use pathlab_core::crowd::street_plan::Planner;
    /// let config = SceneConfig { agents: Some(12), seed: 3 };
    /// let mut street = StreetScene::with_planner(&config, Planner::Theta).unwrap();
    /// for _ in 0..300 { street.step(); }
    /// let plans = street.metrics().into_iter().find(|m| m.name == "plans").unwrap();
    /// assert!(plans.value >= 18.0); // 12 pedestrians and 6 cars, at least
    /// ```
    pub fn with_planner(config: &SceneConfig, planner: Planner) -> Result<Self, SceneError> {
        Self::planning_scene(config, planner, false)
    }

    fn planning_scene(config: &SceneConfig, planner: Planner, record: bool) -> Result<Self, SceneError> {
        let n = config.agents.unwrap_or(40).clamp(2, MAX_PLANNING_PEDESTRIANS);
        let mut scene = Self::make(config, n)?;
        scene.name = "street-paths";
        scene.planning = Some(Planning {
            planner,
            walk_grids: [pedestrian_grid(Heading::South), pedestrian_grid(Heading::North)],
            lanes: [lane_grid(0), lane_grid(1)],
            routes: vec![Route::default(); n],
            car_routes: vec![Vec::new(); scene.cars.len()],
            car_began: vec![0.0; scene.cars.len()],
            stats: PlanStats { log: record.then(Vec::new), ..PlanStats::default() },
        });
        for i in 0..n {
            scene.plan_ped(i, false);
        }
        for k in 0..scene.cars.len() {
            scene.plan_car(k);
        }
        Ok(scene)
    }

    /// [`StreetScene::with_planner`] with every plan recorded from the set-up on
    /// ([`StreetScene::plans`]).
    ///
    /// # Errors
    /// As [`StreetScene::with_planner`].
    pub fn with_planner_recorded(config: &SceneConfig, planner: Planner) -> Result<Self, SceneError> {
        Self::planning_scene(config, planner, true)
    }

    fn make(config: &SceneConfig, n: usize) -> Result<Self, SceneError> {
        let grid = Grid::new(WIDTH as usize, HEIGHT as usize).map_err(|e| SceneError::Invalid(e.to_string()))?;
        let mut rng = Pcg32::new(config.seed);
        let mut peds: Vec<Ped> = Vec::with_capacity(n);
        for i in 0..n {
            let top = i % 2 == 0;
            // A start on its pavement at least 1 unit from every other pedestrian.
            let mut pos = pavement_point(&mut rng, top);
            for _ in 0..50 {
                if peds.iter().all(|p| p.pos.distance(pos) > 1.0) {
                    break;
                }
                pos = pavement_point(&mut rng, top);
            }
            let speed = rng.range(1.3, 1.6);
            let target = Vec2::new(rng.range(28.6, 31.4), kerb_y(top));
            let goal = pavement_point(&mut rng, !top);
            peds.push(Ped { pos, vel: Vec2::ZERO, speed, state: PedState::WalkToKerb, target, goal, waited: 0.0 });
        }
        let mut cars = Vec::with_capacity(2 * CARS_PER_LANE);
        for lane in 0..2 {
            for k in 0..CARS_PER_LANE {
                let s = 20.0 - k as f32 * 12.0 - rng.range(0.0, 4.0);
                let cruise = rng.range(5.0, 7.0);
                cars.push(Car { lane, s, v: cruise, cruise, state: CarState::Drive });
            }
        }
        let avoid = AvoidParams {
            radius: PED_RADIUS,
            max_speed: 1.6,
            neighbour_dist: 2.5,
            max_neighbours: 8,
            time_horizon: 2.0,
            dt: DT,
            margin: 0.05,
            ..AvoidParams::default()
        };
        let (np, nc) = (peds.len(), cars.len());
        Ok(Self {
            name: "street",
            grid,
            peds,
            cars,
            rng,
            steps: 0,
            phase: Phase::CarGreen,
            phase_time: 0.0,
            green_time: 10.0,
            walk_time: 8.0,
            avoid,
            car_ped_collisions: 0,
            ped_collisions: 0,
            waits: 0,
            wait_total: 0.0,
            crossings: 0,
            cars_passed: 0,
            started_crossing: vec![false; np],
            passed_line: vec![false; nc],
            planning: None,
        })
    }

    /// The path-finder the agents plan with (None: the street without one).
    pub fn planner(&self) -> Option<Planner> {
        self.planning.as_ref().map(|p| p.planner)
    }

    /// Keeps a record of every plan from now on (read with [`StreetScene::plans`]).
    pub fn record_plans(&mut self) {
        if let Some(p) = &mut self.planning {
            p.stats.log.get_or_insert_with(Vec::new);
        }
    }

    /// Every plan made since [`StreetScene::record_plans`] (empty without it).
    pub fn plans(&self) -> &[Plan] {
        self.planning.as_ref().and_then(|p| p.stats.log.as_deref()).unwrap_or(&[])
    }

    /// The points of pedestrian `i`'s route still ahead of it (empty without a path-finder).
    pub fn route_ahead(&self, i: usize) -> &[Vec2] {
        self.planning.as_ref().and_then(|p| p.routes.get(i)).map_or(&[], |r| &r.points[r.next.min(r.points.len())..])
    }

    fn now(&self) -> f32 {
        self.steps as f32 * DT
    }

    /// Plans pedestrian `i`'s route from its cell to its goal's cell (a replan when `again`:
    /// the cells of the pedestrians within 1.5 units are walls for it). Keeps the old route
    /// when no route is found.
    fn plan_ped(&mut self, i: usize, again: bool) {
        let now = self.now();
        let p = self.peds[i];
        let Some(planning) = &mut self.planning else { return };
        let start = cell_of(p.pos);
        let goal = cell_of(p.goal);
        let mut blocked = Vec::new();
        // The way it crosses (or crossed, on its way on): from the side it started the trip.
        let trip_from_top = if p.state == PedState::WalkOn { p.goal.y < 15.0 } else { p.pos.y < 15.0 };
        let heading = if trip_from_top { Heading::South } else { Heading::North };
        let mut grid = planning.walk_grids[usize::from(heading == Heading::North)].clone();
        if again {
            for (j, o) in self.peds.iter().enumerate() {
                let c = cell_of(o.pos);
                if j != i && o.pos.distance(p.pos) <= 1.5 && c != start && c != goal && grid.is_passable(c) {
                    blocked.push(c);
                    // The cell is inside the grid, so setting it cannot fail.
                    let _ = grid.set(c, crate::grid::WALL);
                }
            }
        }
        let Ok(mut made) = plan(&grid, start, goal, planning.planner) else {
            planning.stats.failed += 1;
            return;
        };
        made.blocked = blocked;
        made.traveller = Traveller::Pedestrian(heading);
        let found = !made.cells.is_empty();
        let stats = &mut planning.stats;
        stats.plans += 1;
        stats.replans += u64::from(again);
        stats.expanded += made.expanded as u64;
        stats.millis += made.millis;
        if found {
            let began = if again { planning.routes[i].began } else { now };
            planning.routes[i] = route_of(&made, p.pos.y < 15.0, heading, began);
            self.peds[i].goal = centre(goal);
        } else {
            stats.failed += 1;
            planning.routes[i].stuck = 0.0;
        }
        if let Some(log) = &mut stats.log {
            log.push(made);
        }
    }

    /// Plans car `k`'s lane from its cell (or the lane's first cell) to the lane's last.
    fn plan_car(&mut self, k: usize) {
        let now = self.now();
        let car = self.cars[k];
        let Some(planning) = &mut self.planning else { return };
        let row = lane_row(car.lane);
        let x = car.front().x.floor().clamp(0.0, WIDTH - 1.0) as usize;
        let (start, goal) = if car.lane == 0 {
            (Point::new(x, row), Point::new(59, row))
        } else {
            (Point::new(x, row), Point::new(0, row))
        };
        let Ok(mut made) = plan(&planning.lanes[car.lane], start, goal, planning.planner) else {
            planning.stats.failed += 1;
            return;
        };
        made.traveller = Traveller::Car(car.lane as u8);
        let stats = &mut planning.stats;
        stats.plans += 1;
        stats.expanded += made.expanded as u64;
        stats.millis += made.millis;
        planning.car_routes[k] = made.cells.iter().map(|&c| centre(c)).collect();
        planning.car_began[k] = now;
        if let Some(log) = &mut stats.log {
            log.push(made);
        }
    }

    /// The light's phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The pedestrian light is green.
    pub fn walk_green(&self) -> bool {
        self.phase == Phase::Walk
    }

    /// The car light is red (all phases but green and amber).
    pub fn car_red(&self) -> bool {
        !matches!(self.phase, Phase::CarGreen | Phase::CarAmber)
    }

    /// The number of pedestrians (agents `0..pedestrians()`; cars follow).
    pub fn pedestrians(&self) -> usize {
        self.peds.len()
    }

    /// Pedestrian `i`'s state.
    pub fn ped_state(&self, i: usize) -> Option<PedState> {
        self.peds.get(i).map(|p| p.state)
    }

    /// Car `k`'s state (`k` counts cars only).
    pub fn car_state(&self, k: usize) -> Option<CarState> {
        self.cars.get(k).map(|c| c.state)
    }

    /// Whether pedestrian `i` stepped onto the crossing in the last step.
    pub fn started_crossing(&self, i: usize) -> bool {
        self.started_crossing.get(i).copied().unwrap_or(false)
    }

    /// Whether car `k`'s front passed its stop line in the last step.
    pub fn passed_line(&self, k: usize) -> bool {
        self.passed_line.get(k).copied().unwrap_or(false)
    }

    /// The centre and heading of car `k`'s body (length [`CAR_LENGTH`], width [`CAR_WIDTH`]).
    pub fn car_body(&self, k: usize) -> Option<(Vec2, Vec2)> {
        self.cars.get(k).map(|c| (c.centre(), Vec2::new(c.dir(), 0.0)))
    }

    /// The position of pedestrian `i`.
    pub fn ped_position(&self, i: usize) -> Option<Vec2> {
        self.peds.get(i).map(|p| p.pos)
    }

    fn advance_light(&mut self) {
        self.phase_time += DT;
        let (length, next) = match self.phase {
            Phase::CarGreen => (self.green_time, Phase::CarAmber),
            Phase::CarAmber => (AMBER, Phase::AllRed),
            Phase::AllRed => (ALL_RED, Phase::Walk),
            Phase::Walk => (self.walk_time, Phase::Clearance),
            Phase::Clearance => (CLEARANCE, Phase::CarGreen),
        };
        if self.phase_time >= length - 1e-4 {
            self.phase = next;
            self.phase_time = 0.0;
        }
    }

    fn road_busy(&self) -> bool {
        self.peds.iter().any(|p| {
            p.state == PedState::Cross || (p.pos.y + PED_RADIUS > ROAD_TOP && p.pos.y - PED_RADIUS < ROAD_BOTTOM)
        })
    }

    fn ped_brains(&mut self) {
        let walk = self.walk_green();
        let cars_clear = !self.cars.iter().any(Car::near_crossing);
        for i in 0..self.peds.len() {
            self.started_crossing[i] = false;
            let p = self.peds[i];
            let top = p.pos.y < 15.0;
            let mut q = p;
            match p.state {
                PedState::WalkToKerb => {
                    if p.pos.distance(p.target) < 1.0 {
                        q.state = PedState::Wait;
                        q.waited = 0.0;
                    }
                }
                PedState::Wait => {
                    q.waited += DT;
                    if walk && cars_clear {
                        q.state = PedState::Cross;
                        q.target = Vec2::new(p.target.x, kerb_y(!top));
                        self.waits += 1;
                        self.wait_total += f64::from(q.waited);
                        self.started_crossing[i] = true;
                    }
                }
                PedState::Cross => {
                    let off_road = if q.target.y < 15.0 {
                        p.pos.y <= ROAD_TOP - PED_RADIUS
                    } else {
                        p.pos.y >= ROAD_BOTTOM + PED_RADIUS
                    };
                    if off_road {
                        q.state = PedState::WalkOn;
                        q.target = q.goal;
                        self.crossings += 1;
                    }
                }
                PedState::WalkOn => {
                    if p.pos.distance(p.goal) < 0.5 {
                        q.goal = pavement_point(&mut self.rng, !top);
                        q.target = Vec2::new(self.rng.range(28.6, 31.4), kerb_y(top));
                        q.state = PedState::WalkToKerb;
                    }
                }
            }
            self.peds[i] = q;
        }
    }

    /// The brains of pedestrians that follow planned routes: the same states as
    /// [`StreetScene::ped_brains`], with the route's points as targets.
    fn ped_brains_planned(&mut self) {
        let walk = self.walk_green();
        let cars_clear = !self.cars.iter().any(Car::near_crossing);
        let now = self.now();
        for i in 0..self.peds.len() {
            self.started_crossing[i] = false;
            let p = self.peds[i];
            let top = p.pos.y < 15.0;
            let Some(planning) = &mut self.planning else { return };
            let route = &mut planning.routes[i];
            let last = route.points.len().saturating_sub(1);
            // Head for the next point once close to this one (not past the kerb unless crossing).
            let limit = match p.state {
                PedState::Cross | PedState::WalkOn => last,
                PedState::WalkToKerb | PedState::Wait => route.kerb.unwrap_or(last),
            };
            let before = route.next;
            // Close to it, or past it (pushed by the crowd): head for the next.
            while route.next < limit && {
                let (a, b) = (route.points[route.next], route.points[route.next + 1]);
                p.pos.distance(a) < REACH || (p.state != PedState::Cross && (p.pos - a).dot(b - a) > 0.0)
            } {
                route.next += 1;
            }
            let mut q = p;
            let mut replan = false;
            let mut arrived = false;
            let here = route.points.get(route.next).copied().unwrap_or(p.goal);
            match p.state {
                PedState::WalkToKerb => {
                    if route.kerb == Some(route.next) && p.pos.distance(here) < 1.0 {
                        q.state = PedState::Wait;
                        q.waited = 0.0;
                    }
                }
                PedState::Wait => {
                    q.waited += DT;
                    let (lo, hi) = route.lane();
                    if walk && cars_clear && (lo + PED_RADIUS..=hi - PED_RADIUS).contains(&p.pos.x) {
                        q.state = PedState::Cross;
                        route.next = (route.next + 1).min(last);
                        self.waits += 1;
                        self.wait_total += f64::from(q.waited);
                        self.started_crossing[i] = true;
                    }
                }
                PedState::Cross => {
                    // Off the road on the side it did not start from.
                    let off_road = if route.points[last].y < 15.0 {
                        p.pos.y <= ROAD_TOP - PED_RADIUS
                    } else {
                        p.pos.y >= ROAD_BOTTOM + PED_RADIUS
                    };
                    // Pushed back off the road on its own side by the crowd: once the green is
                    // over, it waits for the next one.
                    let from_top = route.heading == Some(Heading::South);
                    let not_yet =
                        if from_top { p.pos.y <= ROAD_TOP - PED_RADIUS } else { p.pos.y >= ROAD_BOTTOM + PED_RADIUS };
                    if off_road {
                        q.state = PedState::WalkOn;
                        route.kerb = None;
                        self.crossings += 1;
                    } else if not_yet && !walk {
                        if let Some(k) = route.kerb {
                            q.state = PedState::Wait;
                            q.waited = 0.0;
                            route.next = k;
                        }
                    }
                }
                PedState::WalkOn => {
                    if route.next == last && p.pos.distance(here) < 0.5 {
                        arrived = true;
                    }
                }
            }
            // No headway for a while (waiting and crossing do not count): plan again.
            if matches!(q.state, PedState::WalkToKerb | PedState::WalkOn) && !arrived {
                let d = p.pos.distance(here);
                if route.next != before || d < route.last_dist - 0.01 {
                    route.stuck = 0.0;
                } else {
                    route.stuck += DT;
                }
                route.last_dist = d;
                replan = route.stuck >= STUCK_TIME;
            }
            q.target = route.points.get(route.next).copied().unwrap_or(p.goal);
            if arrived {
                let stats = &mut planning.stats;
                stats.arrivals += 1;
                stats.trip_total += f64::from(now - route.began);
                q.goal = pavement_point(&mut self.rng, !top);
                q.state = PedState::WalkToKerb;
            }
            self.peds[i] = q;
            if arrived || replan {
                self.plan_ped(i, replan);
                let r = self.planning.as_ref().map(|pl| &pl.routes[i]);
                if let Some(next) = r.and_then(|r| r.points.get(r.next)) {
                    self.peds[i].target = *next;
                }
            }
        }
    }

    fn ped_moves(&mut self) {
        let lanes: Vec<(f32, f32)> =
            self.planning.as_ref().map(|pl| pl.routes.iter().map(Route::lane).collect()).unwrap_or_default();
        let n = self.peds.len();
        let mut next = Vec::with_capacity(n);
        let mut near: Vec<(f32, usize)> = Vec::new();
        let mut neighbours = Vec::new();
        for i in 0..n {
            let p = self.peds[i];
            near.clear();
            for (j, o) in self.peds.iter().enumerate() {
                let d = o.pos.distance(p.pos);
                if j != i && d <= self.avoid.neighbour_dist {
                    near.push((d, j));
                }
            }
            near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            near.truncate(self.avoid.max_neighbours);
            neighbours.clear();
            for &(_, j) in &near {
                let o = self.peds[j];
                let radius = PED_RADIUS + self.avoid.margin;
                neighbours.push(Neighbour { id: j as u32, pos: o.pos, vel: o.vel, radius });
            }
            let to = p.target - p.pos;
            let dist = to.length();
            let want = if p.state == PedState::Wait {
                // Hold the spot on the kerb, drifting back to it gently when pushed away.
                if dist > 0.2 {
                    to * (0.5 * p.speed / dist)
                } else {
                    Vec2::ZERO
                }
            } else if dist > 1e-6 {
                to * (p.speed.min(dist / DT) / dist)
            } else {
                Vec2::ZERO
            };
            // Off the crossing, the road's edge is a wall.
            let top = p.pos.y < 15.0;
            let edge = Vec2::new(p.pos.x, if top { ROAD_TOP } else { ROAD_BOTTOM });
            let walls = [Neighbour { id: u32::MAX, pos: edge, vel: Vec2::ZERO, radius: 0.0 }];
            let obstacles: &[Neighbour] = if p.state == PedState::Cross { &[] } else { &walls };
            let agent = AgentState {
                id: i as u32,
                pos: p.pos,
                vel: p.vel,
                pref: want,
                radius: PED_RADIUS + self.avoid.margin,
                max_speed: p.speed,
            };
            let mut v = new_velocity_among(&self.avoid, &agent, &neighbours, obstacles, None);
            if let (Some(lane), PedState::Cross) = (lanes.get(i), p.state) {
                // Planning pedestrians keep to their half of the crossing while on the road (a
                // crowd crossing both ways would push some off it).
                v = keep_on_crossing(p.pos, v, *lane);
            }
            if p.state != PedState::Cross {
                // Never step onto the road unless crossing.
                let y = p.pos.y + v.y * DT;
                if top && y > ROAD_TOP - PED_RADIUS && v.y > 0.0 {
                    v.y = ((ROAD_TOP - PED_RADIUS - p.pos.y) / DT).max(0.0);
                } else if !top && y < ROAD_BOTTOM + PED_RADIUS && v.y < 0.0 {
                    v.y = ((ROAD_BOTTOM + PED_RADIUS - p.pos.y) / DT).min(0.0);
                }
            }
            next.push(v);
        }
        for (p, v) in self.peds.iter_mut().zip(next) {
            p.vel = v;
            p.pos += v * DT;
        }
    }

    fn car_moves(&mut self) {
        let busy = self.road_busy();
        let phase = self.phase;
        let exit = WIDTH + CAR_LENGTH + 1.0;
        for k in 0..self.cars.len() {
            let car = self.cars[k];
            // The nearest car ahead in the lane.
            let lead_rear = self
                .cars
                .iter()
                .filter(|o| o.lane == car.lane && o.s > car.s)
                .map(|o| o.s - CAR_LENGTH)
                .fold(f32::INFINITY, f32::min);
            let mut limit = car.cruise;
            let mut hard_stop = f32::INFINITY;
            if lead_rear.is_finite() {
                let free = (lead_rear - CAR_GAP - car.s).max(0.0);
                limit = limit.min((2.0 * CAR_BRAKE * free).sqrt());
                hard_stop = lead_rear - 0.5;
            }
            let before_line = car.s <= STOP_LINE + 1e-4;
            let mut must_stop = false;
            if before_line {
                let to_line = (STOP_LINE - car.s).max(0.0);
                let can_stop = car.v * car.v / (2.0 * CAR_BRAKE) <= to_line + 1e-3;
                must_stop = busy
                    || match phase {
                        Phase::CarGreen => false,
                        Phase::CarAmber => can_stop,
                        _ => true,
                    };
                if must_stop {
                    limit = limit.min((2.0 * CAR_BRAKE * to_line).sqrt());
                    hard_stop = hard_stop.min(STOP_LINE);
                }
            }
            let mut c = car;
            c.v = limit.min(car.v + CAR_ACCEL * DT).max(0.0);
            let mut s = car.s + c.v * DT;
            if s > hard_stop {
                s = hard_stop.max(car.s);
                c.v = (s - car.s) / DT;
            }
            self.passed_line[k] = car.s <= STOP_LINE && s > STOP_LINE;
            let passed_before = car.s - CAR_LENGTH <= WIDTH - CROSSING_LEFT;
            c.s = s;
            if passed_before && c.s - CAR_LENGTH > WIDTH - CROSSING_LEFT {
                self.cars_passed += 1;
            }
            c.state = if c.v < 0.05 && must_stop {
                CarState::Stopped
            } else if must_stop && c.v < car.v {
                CarState::Slow
            } else if car.state == CarState::Stopped || (car.state == CarState::Go && c.v < c.cruise - 0.05) {
                CarState::Go
            } else if c.v < 0.05 {
                CarState::Stopped
            } else {
                CarState::Drive
            };
            self.cars[k] = c;
        }
        // Cars that left the world come back at the near end behind their lane's last car.
        for k in 0..self.cars.len() {
            if self.cars[k].s > exit {
                let lane = self.cars[k].lane;
                let last = self
                    .cars
                    .iter()
                    .enumerate()
                    .filter(|&(j, o)| j != k && o.lane == lane)
                    .map(|(_, o)| o.s)
                    .fold(f32::INFINITY, f32::min);
                let back = if last.is_finite() { last - CAR_LENGTH - CAR_GAP - 4.0 } else { 0.0 };
                let car = &mut self.cars[k];
                car.s = back.min(-1.0);
                car.v = car.cruise;
                car.state = CarState::Drive;
                let now = self.now();
                if let Some(planning) = &mut self.planning {
                    planning.stats.car_trips += 1;
                    planning.stats.car_trip_total += f64::from(now - planning.car_began[k]);
                }
                self.plan_car(k);
            }
        }
    }

    fn measure(&mut self) {
        for p in &self.peds {
            if self.cars.iter().any(|c| c.hits(p.pos, PED_RADIUS)) {
                self.car_ped_collisions += 1;
            }
        }
        let limit = 2.0 * PED_RADIUS * 0.99;
        for i in 0..self.peds.len() {
            for j in i + 1..self.peds.len() {
                if self.peds[i].pos.distance(self.peds[j].pos) < limit {
                    self.ped_collisions += 1;
                }
            }
        }
    }
}

impl Scene for StreetScene {
    fn name(&self) -> &'static str {
        self.name
    }
    fn grid(&self) -> &Grid {
        &self.grid
    }
    fn cell_size(&self) -> f32 {
        1.0
    }
    fn dt(&self) -> f32 {
        DT
    }
    /// Light, then the pedestrians' brains, then their moves, then the cars (which see who
    /// is on the road after the pedestrians moved), then the measurements.
    fn step(&mut self) {
        self.advance_light();
        if self.planning.is_some() {
            self.ped_brains_planned();
        } else {
            self.ped_brains();
        }
        self.ped_moves();
        self.car_moves();
        self.measure();
        self.steps += 1;
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn len(&self) -> usize {
        self.peds.len() + self.cars.len()
    }
    fn kinds(&self) -> Vec<&'static str> {
        vec!["pedestrian", "car"]
    }
    fn frame(&self, selected: Option<usize>, out: &mut Frame) {
        out.clear();
        let corners = |x0: f32, y0: f32, x1: f32, y1: f32| {
            [Vec2::new(x0, y0), Vec2::new(x1, y0), Vec2::new(x1, y1), Vec2::new(x0, y1)]
        };
        out.polygon(&corners(0.0, ROAD_TOP, WIDTH, ROAD_BOTTOM), Ink::Zone);
        out.polygon(&corners(CROSSING_LEFT, ROAD_TOP, CROSSING_RIGHT, ROAD_BOTTOM), Ink::Zone);
        let car_ink = match self.phase {
            Phase::CarGreen => Ink::Go,
            Phase::CarAmber => Ink::Caution,
            _ => Ink::Stop,
        };
        let ped_ink = if self.walk_green() { Ink::Go } else { Ink::Stop };
        // Stop lines and car lights (eastbound below, westbound above).
        out.line(Vec2::new(STOP_LINE, 15.0), Vec2::new(STOP_LINE, ROAD_BOTTOM), car_ink);
        out.line(Vec2::new(WIDTH - STOP_LINE, ROAD_TOP), Vec2::new(WIDTH - STOP_LINE, 15.0), car_ink);
        out.circle(Vec2::new(STOP_LINE - 1.0, ROAD_BOTTOM + 1.0), 0.6, car_ink);
        out.circle(Vec2::new(WIDTH - STOP_LINE + 1.0, ROAD_TOP - 1.0), 0.6, car_ink);
        // Pedestrian lights at both ends of the crossing.
        out.circle(Vec2::new(CROSSING_LEFT - 0.6, ROAD_TOP - 0.6), 0.4, ped_ink);
        out.circle(Vec2::new(CROSSING_RIGHT + 0.6, ROAD_BOTTOM + 0.6), 0.4, ped_ink);
        for p in &self.peds {
            out.agent(p.pos, p.vel, PED_RADIUS, 0);
        }
        for c in &self.cars {
            let m = c.centre();
            let (hl, hw) = (CAR_LENGTH * 0.5, CAR_WIDTH * 0.5);
            out.polygon(&corners(m.x - hl, m.y - hw, m.x + hl, m.y + hw), Ink::Body);
            out.agent(m, Vec2::new(c.dir(), 0.0), CAR_WIDTH * 0.5, 1);
        }
        let Some(i) = selected else { return };
        if let Some(p) = self.peds.get(i) {
            let ink = match p.state {
                PedState::Wait => Ink::Stop,
                PedState::Cross => Ink::Go,
                PedState::WalkToKerb | PedState::WalkOn => Ink::Route,
            };
            out.circle(p.pos, 2.0 * PED_RADIUS, ink);
            out.line(p.pos, p.target, Ink::Route);
            for pair in self.route_ahead(i).windows(2) {
                out.line(pair[0], pair[1], Ink::Route);
            }
            out.circle(p.goal, 0.5 * PED_RADIUS, Ink::Goal);
        } else if let Some(c) = self.cars.get(i - self.peds.len()) {
            let ink = match c.state {
                CarState::Slow | CarState::Stopped => Ink::Stop,
                CarState::Drive | CarState::Go => Ink::Go,
            };
            out.circle(c.centre(), CAR_LENGTH * 0.6, ink);
            // The length the car needs to stop from its speed, drawn ahead of it.
            let brake = c.v * c.v / (2.0 * CAR_BRAKE);
            out.line(c.front(), c.front() + Vec2::new(c.dir() * brake, 0.0), Ink::Chosen);
            let k = i - self.peds.len();
            if let Some(route) = self.planning.as_ref().and_then(|p| p.car_routes.get(k)) {
                for pair in route.windows(2) {
                    out.line(pair[0], pair[1], Ink::Route);
                }
            }
        }
    }
    fn metrics(&self) -> Vec<Metric> {
        let mean_wait = if self.waits > 0 { self.wait_total / f64::from(self.waits) } else { f64::NAN };
        let waiting = self.peds.iter().filter(|p| p.state == PedState::Wait).count();
        let car_ped = f64::from(self.car_ped_collisions);
        let ped_ped = f64::from(self.ped_collisions);
        let mut metrics = vec![
            Metric { name: "car_ped_collisions", label: "Car-pedestrian collisions", value: car_ped, unit: "" },
            Metric { name: "ped_collisions", label: "Pedestrian collisions (pair-steps)", value: ped_ped, unit: "" },
            Metric { name: "mean_wait", label: "Mean wait at the kerb", value: mean_wait, unit: "s" },
            Metric { name: "crossings", label: "Crossings completed", value: f64::from(self.crossings), unit: "" },
            Metric { name: "cars_passed", label: "Cars passed", value: f64::from(self.cars_passed), unit: "" },
            Metric { name: "waiting", label: "Waiting now", value: waiting as f64, unit: "" },
        ];
        if let Some(planning) = &self.planning {
            let st = &planning.stats;
            let agents = self.len() as f64;
            let mean = |total: f64, n: f64| if n > 0.0 { total / n } else { f64::NAN };
            metrics.extend([
                Metric { name: "plans", label: "Routes planned", value: st.plans as f64, unit: "" },
                Metric { name: "replans", label: "Plans again when blocked", value: st.replans as f64, unit: "" },
                Metric {
                    name: "expanded_per_agent",
                    label: "Nodes expanded per agent",
                    value: mean(st.expanded as f64, agents),
                    unit: "",
                },
                Metric {
                    name: "expanded_per_plan",
                    label: "Nodes expanded per plan",
                    value: mean(st.expanded as f64, st.plans as f64),
                    unit: "",
                },
                Metric { name: "arrivals", label: "Trips finished", value: f64::from(st.arrivals), unit: "" },
                Metric {
                    name: "arrival_time",
                    label: "Mean trip time (pedestrians)",
                    value: mean(st.trip_total, f64::from(st.arrivals)),
                    unit: "s",
                },
                Metric {
                    name: "car_trip_time",
                    label: "Mean trip time (cars)",
                    value: mean(st.car_trip_total, f64::from(st.car_trips)),
                    unit: "s",
                },
            ]);
        }
        metrics
    }
    fn params(&self) -> Vec<Param> {
        let slider = |name, label, max, value: f32| Param {
            name,
            label,
            min: 3.0,
            max,
            step: 1.0,
            value: f64::from(value),
            choices: Vec::new(),
        };
        let mut params = vec![
            slider("green", "Car green (s)", 40.0, self.green_time),
            slider("walk", "Pedestrian green (s)", 30.0, self.walk_time),
        ];
        if let Some(planner) = self.planner() {
            params.insert(
                0,
                Param {
                    name: "method",
                    label: "Path-finder",
                    min: 0.0,
                    max: (Planner::ALL.len() - 1) as f64,
                    step: 1.0,
                    value: planner.index() as f64,
                    choices: Planner::ALL.iter().map(|p| p.name()).collect(),
                },
            );
        }
        params
    }
    /// `method` (street-paths only: the path-finder) takes the index of a choice. Before the
    /// first step every agent plans again with it and the counts start afresh, as if the
    /// street had been built with it; later, every pedestrian walking to the kerb or on to its
    /// goal plans again at once, the others (waiting, crossing) and the cars at their next trip.
    /// The same path-finder again changes nothing.
    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError> {
        let (clamped, message) = super::avoid_scene::checked_value(&self.params(), name, value)?;
        if name == "method" {
            let planner = Planner::ALL[(clamped.round() as usize).min(Planner::ALL.len() - 1)];
            let fresh = self.steps == 0;
            let Some(planning) = &mut self.planning else { return Ok(message) };
            if planning.planner == planner {
                return Ok(message);
            }
            planning.planner = planner;
            if fresh {
                let log = planning.stats.log.as_ref().map(|_| Vec::new());
                planning.stats = PlanStats { log, ..PlanStats::default() };
            }
            for i in 0..self.peds.len() {
                if matches!(self.peds[i].state, PedState::WalkToKerb | PedState::WalkOn) {
                    self.plan_ped(i, false);
                }
            }
            if fresh {
                for k in 0..self.cars.len() {
                    self.plan_car(k);
                }
            }
        } else if name == "green" {
            self.green_time = clamped as f32;
        } else {
            self.walk_time = clamped as f32;
        }
        Ok(message)
    }
    fn clock_metrics(&self) -> Vec<Metric> {
        let Some(planning) = &self.planning else { return Vec::new() };
        let st = &planning.stats;
        let per_plan = if st.plans > 0 { st.millis / st.plans as f64 } else { f64::NAN };
        vec![
            Metric { name: "planning_ms", label: "Time spent planning", value: st.millis, unit: "ms" },
            Metric { name: "planning_ms_per_plan", label: "Planning time per plan", value: per_plan, unit: "ms" },
        ]
    }
    fn actions(&self) -> Vec<Action> {
        Vec::new()
    }
    fn act(&mut self, action: &str, _at: Vec2) -> Result<String, SceneError> {
        Err(SceneError::UnknownAction(action.to_string()))
    }
}
