//! The boids in the browser: a thin `wasm-bindgen` handle over
//! [`pathlab_core::boids::Boids`].
//!
//! The agents live in Rust as structure-of-arrays (x, y, vx, vy, heading x and y as f32, species
//! as u8). JavaScript reads them through typed-array views on the module's memory at the
//! pointers given here, rebuilding the views every frame (adding agents may move the arrays and
//! grow the memory). Small, rarely changing data (circles, the path, goals, one agent's forces)
//! is returned as copies. Every fallible call returns a `JsError` naming the problem; none
//! panics.

use pathlab_bind::{err, metrics_js, quote, whole};
use pathlab_core::boids::behaviours::Circle;
use pathlab_core::boids::{self, Behaviour, Combine, Scenario, Vec2, MAX_AGENTS, PARAMS};
use pathlab_core::grid::{Point, GROUND, WALL};
use pathlab_core::line::grid_cells_on_line;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The most steps one call to [`Boids::step`] takes, so that no call can freeze the tab.
pub const MAX_STEPS_PER_CALL: u32 = 240;

fn scenario(name: &str) -> Result<Scenario, JsError> {
    name.parse::<Scenario>().map_err(err)
}

/// The names of the preset scenarios.
#[wasm_bindgen(js_name = boidScenarios)]
pub fn boid_scenarios() -> Vec<String> {
    Scenario::ALL.iter().map(ToString::to_string).collect()
}

/// A preset's one-line description.
#[wasm_bindgen(js_name = boidScenarioTitle)]
pub fn boid_scenario_title(name: &str) -> Result<String, JsError> {
    Ok(scenario(name)?.title().to_string())
}

/// A preset's default agent count.
#[wasm_bindgen(js_name = boidDefaultAgents)]
pub fn boid_default_agents(name: &str) -> Result<u32, JsError> {
    Ok(scenario(name)?.default_agents() as u32)
}

/// The most agents a world may hold.
#[wasm_bindgen(js_name = boidMaxAgents)]
pub fn boid_max_agents() -> u32 {
    MAX_AGENTS as u32
}

/// The names of the ways to combine forces (`weighted-sum`, `priority`, `context`).
#[wasm_bindgen(js_name = boidCombineNames)]
pub fn boid_combine_names() -> Vec<String> {
    Combine::ALL.iter().map(ToString::to_string).collect()
}

/// The names of the behaviours, in the order of their values.
#[wasm_bindgen(js_name = boidBehaviourNames)]
pub fn boid_behaviour_names() -> Vec<String> {
    Behaviour::ALL.iter().map(ToString::to_string).collect()
}

#[derive(Serialize)]
struct SpecOut {
    name: &'static str,
    group: &'static str,
    label: &'static str,
    min: f32,
    max: f32,
    step: f32,
    integer: bool,
    help: &'static str,
}

/// Every adjustable species parameter: name, group, label, min, max, step, integer, help.
#[wasm_bindgen(js_name = boidParamSpecs)]
pub fn boid_param_specs() -> Result<JsValue, JsError> {
    let specs: Vec<SpecOut> = PARAMS
        .iter()
        .map(|p| SpecOut {
            name: p.name,
            group: p.group,
            label: p.label,
            min: p.min,
            max: p.max,
            step: p.step,
            integer: p.integer,
            help: p.help,
        })
        .collect();
    serde_wasm_bindgen::to_value(&specs).map_err(err)
}

#[derive(Serialize)]
struct SpeciesOut {
    name: String,
    count: usize,
    combine: &'static str,
    prey: Option<u8>,
    radius: f32,
}

#[derive(Serialize)]
struct ForceOut {
    name: &'static str,
    x: f32,
    y: f32,
}

#[derive(Serialize)]
struct RuleOut {
    radius: f32,
    view_angle: f32,
}

#[derive(Serialize)]
struct ContextOut {
    slots: usize,
    interest: Vec<f32>,
    danger: Vec<f32>,
    chosen: Option<usize>,
}

#[derive(Serialize)]
struct InspectionOut {
    index: u32,
    species: u8,
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    hx: f32,
    hy: f32,
    radius: f32,
    speed: f32,
    separation: RuleOut,
    alignment: RuleOut,
    cohesion: RuleOut,
    combine: &'static str,
    forces: Vec<ForceOut>,
    steering: [f32; 2],
    context: Option<ContextOut>,
    neighbours: Vec<u32>,
    target: Option<[f32; 2]>,
}

/// The boids and their settings: a handle over the core simulation of the same name.
#[wasm_bindgen]
pub struct Boids {
    sim: boids::Boids,
    scenario: Scenario,
}

#[wasm_bindgen]
impl Boids {
    /// Builds a preset scenario with `agents` agents (0 to 100,000) from `seed` (a whole
    /// number from 0 to 2^32 - 1).
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_name: &str, agents: f64, seed: f64) -> Result<Boids, JsError> {
        let scenario = scenario(scenario_name)?;
        let sim = build(scenario, agents, seed).map_err(err)?;
        Ok(Boids { sim, scenario })
    }

    /// Rebuilds the world: a scenario by name, an agent count and a seed (all checked first;
    /// on error the current world stays).
    pub fn reset(&mut self, scenario_name: &str, agents: f64, seed: f64) -> Result<(), JsError> {
        let scenario = scenario(scenario_name)?;
        self.sim = build(scenario, agents, seed).map_err(err)?;
        self.scenario = scenario;
        Ok(())
    }

    /// The scenario's name.
    #[wasm_bindgen(getter)]
    pub fn scenario(&self) -> String {
        self.scenario.to_string()
    }

    /// The seed.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> f64 {
        self.sim.seed() as f64
    }

    /// Runs `n` steps of 1/60 s (at most [`MAX_STEPS_PER_CALL`]); returns how many ran.
    pub fn step(&mut self, n: u32) -> u32 {
        let n = n.min(MAX_STEPS_PER_CALL);
        self.sim.advance(n as usize);
        n
    }

    /// Everything a step changes (the step count and every agent's position, velocity,
    /// heading and memory) as bytes, for [`Boids::set_motion`] on a copy of this world: the
    /// page steps a copy in a worker thread and takes its motion back.
    pub fn motion(&self) -> Vec<u8> {
        self.sim.motion()
    }

    /// Puts motion from [`Boids::motion`] into this world (which must have as many agents);
    /// an error names what is wrong and changes nothing.
    #[wasm_bindgen(js_name = setMotion)]
    pub fn set_motion(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        self.sim.set_motion(bytes).map_err(err)
    }

    /// The metrics now (`boids::metrics`): `[{ name, label, value (null: not measured), unit }]`,
    /// for the page's metrics table and plots.
    pub fn metrics(&self) -> Result<JsValue, JsError> {
        metrics_js(boids::metrics::metrics(&self.sim))
    }

    /// Steps taken since the world was built.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> f64 {
        self.sim.steps() as f64
    }

    /// Number of agents.
    #[wasm_bindgen(getter)]
    pub fn count(&self) -> u32 {
        self.sim.len() as u32
    }

    /// World width in units.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> f32 {
        self.sim.walls().width()
    }

    /// World height in units.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> f32 {
        self.sim.walls().height()
    }

    /// Columns of the wall grid.
    #[wasm_bindgen(getter, js_name = gridWidth)]
    pub fn grid_width(&self) -> u32 {
        self.sim.walls().grid().width() as u32
    }

    /// Rows of the wall grid.
    #[wasm_bindgen(getter, js_name = gridHeight)]
    pub fn grid_height(&self) -> u32 {
        self.sim.walls().grid().height() as u32
    }

    /// The side of a wall cell in world units.
    #[wasm_bindgen(getter, js_name = cellSize)]
    pub fn cell_size(&self) -> f32 {
        self.sim.walls().cell()
    }

    /// Pointer to the agents' x (f32 each).
    #[wasm_bindgen(js_name = xPtr)]
    pub fn x_ptr(&self) -> *const f32 {
        self.sim.xs().as_ptr()
    }

    /// Pointer to the agents' y (f32 each).
    #[wasm_bindgen(js_name = yPtr)]
    pub fn y_ptr(&self) -> *const f32 {
        self.sim.ys().as_ptr()
    }

    /// Pointer to the agents' x velocity (f32 each).
    #[wasm_bindgen(js_name = vxPtr)]
    pub fn vx_ptr(&self) -> *const f32 {
        self.sim.vxs().as_ptr()
    }

    /// Pointer to the agents' y velocity (f32 each).
    #[wasm_bindgen(js_name = vyPtr)]
    pub fn vy_ptr(&self) -> *const f32 {
        self.sim.vys().as_ptr()
    }

    /// Pointer to the x of the agents' unit headings (f32 each).
    #[wasm_bindgen(js_name = hxPtr)]
    pub fn hx_ptr(&self) -> *const f32 {
        self.sim.hxs().as_ptr()
    }

    /// Pointer to the y of the agents' unit headings (f32 each).
    #[wasm_bindgen(js_name = hyPtr)]
    pub fn hy_ptr(&self) -> *const f32 {
        self.sim.hys().as_ptr()
    }

    /// Pointer to the agents' species (u8 each).
    #[wasm_bindgen(js_name = speciesPtr)]
    pub fn species_ptr(&self) -> *const u8 {
        self.sim.species_of().as_ptr()
    }

    /// Pointer to the wall grid's cells (u8 each, row-major; 0 is a wall).
    #[wasm_bindgen(js_name = cellsPtr)]
    pub fn cells_ptr(&self) -> *const u8 {
        self.sim.walls().grid().cells().as_ptr()
    }

    /// The species: name, count, combine, prey, radius.
    pub fn species(&self) -> Result<JsValue, JsError> {
        let counts = self.sim.census();
        let out: Vec<SpeciesOut> = self
            .sim
            .species()
            .iter()
            .zip(counts)
            .map(|(p, count)| SpeciesOut {
                name: p.name.clone(),
                count,
                combine: p.combine.name(),
                prey: p.prey,
                radius: p.vehicle.radius,
            })
            .collect();
        serde_wasm_bindgen::to_value(&out).map_err(err)
    }

    /// A species parameter's value by name.
    pub fn param(&self, species: u32, name: &str) -> Result<f32, JsError> {
        self.sim.species_params(species as usize).map_err(err)?.get(name).map_err(err)
    }

    /// Sets a species parameter. NaN and infinities are refused; values outside the range are
    /// clamped and the returned note says so (undefined when taken as given).
    #[wasm_bindgen(js_name = setParam)]
    pub fn set_param(&mut self, species: u32, name: &str, value: f64) -> Result<Option<String>, JsError> {
        if !value.is_finite() {
            return Err(JsError::new(&format!("{} must be a finite number", quote(name))));
        }
        // A finite number beyond the f32 range is clamped (with a note) like any other.
        let value = value.clamp(f64::from(f32::MIN), f64::from(f32::MAX)) as f32;
        self.sim.set_param(species as usize, name, value).map_err(err)
    }

    /// How a species combines its forces (`weighted-sum`, `priority` or `context`).
    pub fn combine(&self, species: u32) -> Result<String, JsError> {
        Ok(self.sim.species_params(species as usize).map_err(err)?.combine.to_string())
    }

    /// Sets how a species combines its forces.
    #[wasm_bindgen(js_name = setCombine)]
    pub fn set_combine(&mut self, species: u32, name: &str) -> Result<(), JsError> {
        let combine = name.parse::<Combine>().map_err(err)?;
        self.sim.set_combine(species as usize, combine).map_err(err)
    }

    /// Whether agents collide (sphere-sphere response).
    #[wasm_bindgen(getter)]
    pub fn collisions(&self) -> bool {
        self.sim.boids_params().collisions
    }

    /// Turns collisions on or off.
    #[wasm_bindgen(js_name = setCollisions)]
    pub fn set_collisions(&mut self, on: bool) {
        self.sim.set_collisions(on);
    }

    /// Whether path following runs along a spline.
    #[wasm_bindgen(getter)]
    pub fn spline(&self) -> bool {
        self.sim.boids_params().spline
    }

    /// Switches path following between straight segments and a spline.
    #[wasm_bindgen(js_name = setSpline)]
    pub fn set_spline(&mut self, on: bool) {
        self.sim.set_spline(on);
    }

    /// Adds `n` agents of a species at random open places; refused past the agent limit.
    #[wasm_bindgen(js_name = addAgents)]
    pub fn add_agents(&mut self, species: u32, n: f64) -> Result<u32, JsError> {
        let n = whole("the number of agents to add", n, MAX_AGENTS as f64).map_err(err)? as usize;
        let species = u8::try_from(species).map_err(|_| JsError::new(&format!("there is no species {species}")))?;
        self.sim.spawn(species, n, None).map_err(err)?;
        Ok(n as u32)
    }

    /// Removes up to `n` agents of a species (most recent first, never the leader); returns how
    /// many went.
    #[wasm_bindgen(js_name = removeAgents)]
    pub fn remove_agents(&mut self, species: u32, n: f64) -> Result<u32, JsError> {
        let n = whole("the number of agents to remove", n, MAX_AGENTS as f64).map_err(err)? as usize;
        let species = u8::try_from(species).map_err(|_| JsError::new(&format!("there is no species {species}")))?;
        Ok(self.sim.remove_agents(n, Some(species)) as u32)
    }

    /// The value of a wall cell (0 wall, 1 ground); refused outside the grid.
    pub fn cell(&self, x: i32, y: i32) -> Result<u8, JsError> {
        let grid = self.sim.walls().grid();
        let p = grid.point(i64::from(x), i64::from(y)).map_err(err)?;
        Ok(grid.get(p).unwrap_or(WALL))
    }

    /// Paints the cells of the straight line from (x0, y0) to (x1, y1) (wall-grid cells) as
    /// walls (`wall` true) or ground. Agents caught in new walls move out; the path is planned
    /// again. Returns how many cells changed.
    #[wasm_bindgen(js_name = paintLine)]
    pub fn paint_line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, wall: bool) -> Result<u32, JsError> {
        let cells = grid_cells_on_line(self.sim.walls().grid(), (x0, y0), (x1, y1));
        let value = if wall { WALL } else { GROUND };
        Ok(self.sim.paint(cells, value).map_err(err)? as u32)
    }

    /// Clears every wall.
    #[wasm_bindgen(js_name = clearWalls)]
    pub fn clear_walls(&mut self) -> Result<u32, JsError> {
        let grid = self.sim.walls().grid();
        let all: Vec<Point> = (0..grid.len()).map(|i| grid.point_at(i)).collect();
        Ok(self.sim.paint(all, GROUND).map_err(err)? as u32)
    }

    /// The circles as (x, y, radius) triples.
    pub fn circles(&self) -> Vec<f32> {
        self.sim.circles().iter().flat_map(|c| [c.centre.x, c.centre.y, c.radius]).collect()
    }

    /// Adds a circular obstacle (radius 0.5 to 100 units, centre inside the world).
    #[wasm_bindgen(js_name = addCircle)]
    pub fn add_circle(&mut self, x: f32, y: f32, radius: f32) -> Result<(), JsError> {
        if !(x.is_finite() && y.is_finite() && (0.5..=100.0).contains(&radius)) {
            return Err(JsError::new("a circle needs a finite centre and a radius from 0.5 to 100"));
        }
        if !(0.0..=self.width()).contains(&x) || !(0.0..=self.height()).contains(&y) {
            return Err(JsError::new("a circle's centre must be inside the world"));
        }
        let mut circles = self.sim.circles().to_vec();
        circles.push(Circle { centre: Vec2::new(x, y), radius });
        self.sim.set_circles(circles);
        Ok(())
    }

    /// Removes every circle.
    #[wasm_bindgen(js_name = clearCircles)]
    pub fn clear_circles(&mut self) {
        self.sim.set_circles(Vec::new());
    }

    /// The path's points as (x, y) pairs (empty when there is no path).
    pub fn path(&self) -> Vec<f32> {
        self.sim.path().map_or_else(Vec::new, |p| p.points().iter().flat_map(|q| [q.x, q.y]).collect())
    }

    /// The path's waypoints as (x, y) pairs of world units (cell centres).
    pub fn waypoints(&self) -> Vec<f32> {
        let walls = self.sim.walls();
        self.sim
            .waypoints()
            .iter()
            .flat_map(|&p| {
                let c = walls.centre(p);
                [c.x, c.y]
            })
            .collect()
    }

    /// Why the path could not be planned, when it could not.
    #[wasm_bindgen(getter, js_name = pathError)]
    pub fn path_error(&self) -> Option<String> {
        self.sim.path_error().map(ToString::to_string)
    }

    /// The goals as (x, y) pairs.
    pub fn goals(&self) -> Vec<f32> {
        self.sim.goals().iter().flat_map(|g| [g.x, g.y]).collect()
    }

    /// Makes (x, y) the only goal (seek, flee and arrive head for it).
    #[wasm_bindgen(js_name = setGoal)]
    pub fn set_goal(&mut self, x: f32, y: f32) -> Result<(), JsError> {
        if !x.is_finite() || !y.is_finite() {
            return Err(JsError::new("a goal needs finite coordinates"));
        }
        self.sim.set_goals(vec![Vec2::new(x, y)]);
        Ok(())
    }

    /// The leader's index, or -1.
    #[wasm_bindgen(getter)]
    pub fn leader(&self) -> i32 {
        self.sim.leader().map_or(-1, |l| l as i32)
    }

    /// The agent nearest to (x, y) within `reach` units, or -1.
    #[wasm_bindgen(js_name = agentNear)]
    pub fn agent_near(&self, x: f32, y: f32, reach: f32) -> i32 {
        if !(x.is_finite() && y.is_finite() && reach.is_finite()) {
            return -1;
        }
        self.sim.agent_near(Vec2::new(x, y), reach).map_or(-1, |i| i as i32)
    }

    /// Everything about agent `i`'s next update, for the overlay: position, velocity, heading,
    /// radius, the three flocking neighbourhoods (radius and view angle), each behaviour's
    /// weighted force, the combined force, the context map (interest and danger per slot and
    /// the slot chosen), the neighbours' indices and the point steered at. Undefined for an
    /// index that does not exist.
    pub fn inspect(&mut self, i: u32) -> Result<JsValue, JsError> {
        let Some(view) = self.sim.inspect(i as usize) else {
            return Ok(JsValue::UNDEFINED);
        };
        let rule = |r: boids::params::Rule| RuleOut { radius: r.radius, view_angle: r.view_angle };
        let forces = Behaviour::ALL
            .iter()
            .filter(|b| view.forces.active[**b as usize])
            .map(|b| {
                let f = view.forces.get(*b);
                ForceOut { name: b.name(), x: f.x, y: f.y }
            })
            .collect();
        let out = InspectionOut {
            index: view.index,
            species: view.species,
            x: view.pos.x,
            y: view.pos.y,
            vx: view.vel.x,
            vy: view.vel.y,
            hx: view.heading.x,
            hy: view.heading.y,
            radius: view.radius,
            speed: view.vel.length(),
            separation: rule(view.separation),
            alignment: rule(view.alignment),
            cohesion: rule(view.cohesion),
            combine: view.combine.name(),
            forces,
            steering: [view.steering.x, view.steering.y],
            context: view.context.map(|c| ContextOut {
                slots: c.slots,
                interest: c.interest[..c.slots].to_vec(),
                danger: c.danger[..c.slots].to_vec(),
                chosen: c.chosen,
            }),
            neighbours: view.neighbours,
            target: view.target.map(|t| [t.x, t.y]),
        };
        serde_wasm_bindgen::to_value(&out).map_err(err)
    }
}

/// Builds a scenario after checking the count and seed. Errors are plain strings so that the
/// native tests can look at them (a `JsError` can only be made inside a browser).
fn build(scenario: Scenario, agents: f64, seed: f64) -> Result<boids::Boids, String> {
    let agents = whole("agents", agents, MAX_AGENTS as f64)? as usize;
    let seed = pathlab_bind::seed(seed)?;
    scenario.build(agents, seed).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_every_scenario_and_steps() {
        for s in Scenario::ALL {
            let Ok(sim) = build(*s, 50.0, 1.0) else { panic!("{s} builds") };
            let mut b = Boids { sim, scenario: *s };
            assert_eq!(b.step(5), 5);
            assert_eq!(b.count(), 50);
            assert!(b.sim.xs().iter().all(|x| x.is_finite()));
        }
    }

    #[test]
    fn bad_counts_and_seeds_are_refused() {
        assert!(build(Scenario::Flock, f64::NAN, 1.0).is_err());
        assert!(build(Scenario::Flock, -1.0, 1.0).is_err());
        assert!(build(Scenario::Flock, 1.5, 1.0).is_err());
        assert!(build(Scenario::Flock, 100_001.0, 1.0).is_err());
        assert!(build(Scenario::Flock, 10.0, 1e12).is_err());
        let Err(message) = build(Scenario::Flock, 100_001.0, 1.0) else { panic!("over the limit") };
        assert!(message.contains("100000"), "{message}");
        assert!(build(Scenario::Flock, 0.0, 0.0).is_ok());
    }
}
