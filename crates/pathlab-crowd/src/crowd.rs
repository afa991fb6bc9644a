//! Crowd scenes in the browser: a thin `wasm-bindgen` handle over any
//! [`pathlab_core::crowd::scene::Scene`], so that the page (`www/crowd.js`) runs, draws and
//! measures every scene in [`SCENES`] the same way.
//!
//! Once per drawn frame the page calls [`CrowdScene::frame`], which refills an owned
//! [`Frame`], then reads every vector of it through typed-array views on the module's memory
//! at the pointers and lengths given by [`CrowdScene::layout`] (in the order of
//! [`crowd_frame_fields`]), rebuilt every frame. Small, rarely changing data (metrics,
//! parameters, actions, kinds) is returned as JS objects. Every fallible call returns a
//! `JsError` naming the problem; none panics.

use pathlab_bind::{err, metrics_js, quote, whole};
use pathlab_core::boids::Vec2;
use pathlab_core::crowd::scene::{build, Frame, Ink, Scene, SceneConfig, SCENES};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The most steps one call to [`CrowdScene::step`] takes.
pub const MAX_CROWD_STEPS_PER_CALL: u32 = 240;

/// The most agent-steps (steps times agents) one call to [`CrowdScene::step`] takes, so that a
/// large crowd cannot freeze the tab however many steps are asked for (at least one step runs).
pub const MAX_AGENT_STEPS_PER_CALL: u64 = 400_000;

/// The largest agent count the page may ask for (scenes clamp to their own, smaller limits).
pub const MAX_CROWD_AGENTS: u32 = 100_000;

/// The names of the frame's vectors, in the order of [`CrowdScene::layout`]'s pairs.
const FIELDS: [&str; 18] = [
    "x",
    "y",
    "hx",
    "hy",
    "radius",
    "kind",
    "layer",
    "directions",
    "cellMarks",
    "lines",
    "lineInk",
    "circles",
    "circleInk",
    "polygonPoints",
    "polygonLen",
    "polygonInk",
    // Reserved pairs, always empty, so that new vectors can be added without renumbering.
    "reserved1",
    "reserved2",
];

#[derive(Serialize)]
struct SceneOut {
    name: &'static str,
    title: &'static str,
}

#[derive(Serialize)]
struct ParamOut {
    name: &'static str,
    label: &'static str,
    min: f64,
    max: f64,
    step: f64,
    value: f64,
    choices: Vec<&'static str>,
}

#[derive(Serialize)]
struct ActionOut {
    name: &'static str,
    label: &'static str,
}

/// Every crowd scene: `[{ name, title }]`, in the order the page lists them.
#[wasm_bindgen(js_name = crowdScenes)]
pub fn crowd_scenes() -> Result<JsValue, JsError> {
    let out: Vec<SceneOut> = SCENES.iter().map(|&(name, title)| SceneOut { name, title }).collect();
    serde_wasm_bindgen::to_value(&out).map_err(err)
}

/// The names of the overlay inks, in value order (index = the ink's value).
#[wasm_bindgen(js_name = crowdInks)]
pub fn crowd_inks() -> Vec<String> {
    Ink::ALL.iter().map(|(_, name)| (*name).to_string()).collect()
}

/// The names of the frame's vectors, in the order of [`CrowdScene::layout`]'s pairs.
#[wasm_bindgen(js_name = crowdFrameFields)]
pub fn crowd_frame_fields() -> Vec<String> {
    FIELDS.iter().map(|s| (*s).to_string()).collect()
}

/// The largest agent count the page may ask for.
#[wasm_bindgen(js_name = crowdMaxAgents)]
pub fn crowd_max_agents() -> u32 {
    MAX_CROWD_AGENTS
}

/// Checks the set-up numbers given as JS numbers; errors are plain strings so that the native
/// tests can read them.
fn config(agents: Option<f64>, seed: f64) -> Result<SceneConfig, String> {
    let agents = match agents {
        None => None,
        Some(a) => Some(whole("agents", a, f64::from(MAX_CROWD_AGENTS))? as usize),
    };
    Ok(SceneConfig { agents, seed: pathlab_bind::seed(seed)? })
}

fn make(name: &str, agents: Option<f64>, seed: f64) -> Result<(Box<dyn Scene>, SceneConfig), String> {
    let config = config(agents, seed)?;
    let scene = build(name, &config).map_err(|e| e.to_string())?;
    Ok((scene, config))
}

/// How many steps one call runs: `asked`, at most [`MAX_CROWD_STEPS_PER_CALL`] and at most
/// [`MAX_AGENT_STEPS_PER_CALL`] agent-steps, but one at least when any was asked for.
fn steps_allowed(asked: u32, agents: usize) -> u32 {
    let by_work = (MAX_AGENT_STEPS_PER_CALL / (agents as u64).max(1)).max(1);
    u64::from(asked.min(MAX_CROWD_STEPS_PER_CALL)).min(by_work) as u32
}

/// A crowd scene, its settings and the frame it last drew.
///
/// ```
/// use pathlab_crowd::CrowdScene;
/// let mut scene = CrowdScene::create("circle", Some(8.0), 1.0).unwrap();
/// assert_eq!(scene.step(3), 3);
/// assert_eq!(scene.count(), 8);
/// ```
#[wasm_bindgen]
pub struct CrowdScene {
    scene: Box<dyn Scene>,
    config: SceneConfig,
    frame: Frame,
}

impl CrowdScene {
    /// Builds a scene (the native twin of the constructor, whose errors are plain strings).
    pub fn create(name: &str, agents: Option<f64>, seed: f64) -> Result<CrowdScene, String> {
        let (scene, config) = make(name, agents, seed)?;
        Ok(CrowdScene { scene, config, frame: Frame::default() })
    }

    /// The frame last filled by [`CrowdScene::frame`].
    pub fn last_frame(&self) -> &Frame {
        &self.frame
    }
}

#[wasm_bindgen]
impl CrowdScene {
    /// Builds a scene by name with `agents` agents (undefined: the scene's default; the scene
    /// clamps to its limits) from `seed` (a whole number from 0 to 2^32 - 1).
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, agents: Option<f64>, seed: f64) -> Result<CrowdScene, JsError> {
        CrowdScene::create(name, agents, seed).map_err(|e| JsError::new(&e))
    }

    /// Rebuilds from a name, an agent count and a seed (all checked first; on error the
    /// current scene stays).
    pub fn reset(&mut self, name: &str, agents: Option<f64>, seed: f64) -> Result<(), JsError> {
        let (scene, config) = make(name, agents, seed).map_err(|e| JsError::new(&e))?;
        self.scene = scene;
        self.config = config;
        self.frame.clear();
        Ok(())
    }

    /// The scene's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.scene.name().to_string()
    }

    /// The scene's title (from the registry).
    #[wasm_bindgen(getter)]
    pub fn title(&self) -> String {
        let name = self.scene.name();
        SCENES.iter().find(|(n, _)| *n == name).map_or_else(|| name.to_string(), |(_, t)| (*t).to_string())
    }

    /// The seed.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> f64 {
        self.config.seed as f64
    }

    /// The agent count asked for (undefined: the scene's default).
    #[wasm_bindgen(getter, js_name = agentsAsked)]
    pub fn agents_asked(&self) -> Option<f64> {
        self.config.agents.map(|a| a as f64)
    }

    /// Runs up to `n` steps (at most [`MAX_CROWD_STEPS_PER_CALL`], and fewer for a large crowd
    /// so that a call stays short); returns how many ran.
    pub fn step(&mut self, n: u32) -> u32 {
        let n = steps_allowed(n, self.scene.len());
        for _ in 0..n {
            self.scene.step();
        }
        n
    }

    /// Steps taken since the set-up.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> f64 {
        self.scene.steps() as f64
    }

    /// Seconds of simulated time per step.
    #[wasm_bindgen(getter)]
    pub fn dt(&self) -> f32 {
        self.scene.dt()
    }

    /// The number of agents.
    #[wasm_bindgen(getter)]
    pub fn count(&self) -> u32 {
        self.scene.len() as u32
    }

    /// World units per grid cell.
    #[wasm_bindgen(getter, js_name = cellSize)]
    pub fn cell_size(&self) -> f32 {
        self.scene.cell_size()
    }

    /// Columns of the grid.
    #[wasm_bindgen(getter, js_name = gridWidth)]
    pub fn grid_width(&self) -> u32 {
        self.scene.grid().width() as u32
    }

    /// Rows of the grid.
    #[wasm_bindgen(getter, js_name = gridHeight)]
    pub fn grid_height(&self) -> u32 {
        self.scene.grid().height() as u32
    }

    /// World width in units.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> f32 {
        self.scene.grid().width() as f32 * self.scene.cell_size()
    }

    /// World height in units.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> f32 {
        self.scene.grid().height() as f32 * self.scene.cell_size()
    }

    /// Pointer to the grid's cells (u8 each, row-major; 0 wall, 1 ground, more: terrain cost).
    #[wasm_bindgen(js_name = cellsPtr)]
    pub fn cells_ptr(&self) -> *const u8 {
        self.scene.grid().cells().as_ptr()
    }

    /// Fills the frame with what to draw; `selected` is the agent whose inner workings are
    /// drawn too (-1 or out of range: none). Read it through [`CrowdScene::layout`].
    pub fn frame(&mut self, selected: i32) {
        let selected = usize::try_from(selected).ok().filter(|&i| i < self.scene.len());
        self.scene.frame(selected, &mut self.frame);
    }

    /// Pointer and length (in elements) of each frame vector, in the order of
    /// `crowdFrameFields()`: x, y, hx, hy, radius (f32); kind (u8); layer (f32); directions,
    /// cellMarks (u8); lines (f32); lineInk (u8); circles (f32); circleInk (u8);
    /// polygonPoints (f32); polygonLen (u32); polygonInk (u8); two reserved empty pairs. Valid
    /// until the next call into the module.
    pub fn layout(&self) -> Vec<u32> {
        let f = &self.frame;
        // Pointers are 32-bit in wasm32; the casts are exact there.
        let p32 = |v: &[f32]| [v.as_ptr() as usize as u32, v.len() as u32];
        let p8 = |v: &[u8]| [v.as_ptr() as usize as u32, v.len() as u32];
        let pairs: [[u32; 2]; 18] = [
            p32(&f.x),
            p32(&f.y),
            p32(&f.hx),
            p32(&f.hy),
            p32(&f.radius),
            p8(&f.kind),
            p32(&f.layer),
            p8(&f.directions),
            p8(&f.cell_marks),
            p32(&f.lines),
            p8(&f.line_ink),
            p32(&f.circles),
            p8(&f.circle_ink),
            p32(&f.polygon_points),
            [f.polygon_len.as_ptr() as usize as u32, f.polygon_len.len() as u32],
            p8(&f.polygon_ink),
            [0, 0],
            [0, 0],
        ];
        pairs.iter().flatten().copied().collect()
    }

    /// The frame layer's full-strength value.
    #[wasm_bindgen(getter, js_name = layerMax)]
    pub fn layer_max(&self) -> f32 {
        self.frame.layer_max
    }

    /// What the frame layer shows.
    #[wasm_bindgen(getter, js_name = layerLabel)]
    pub fn layer_label(&self) -> String {
        self.frame.layer_label.clone()
    }

    /// The names of the agent kinds (index = the kind's value).
    pub fn kinds(&self) -> Vec<String> {
        self.scene.kinds().iter().map(|s| (*s).to_string()).collect()
    }

    /// The metrics: `[{ name, label, value (null: not measured yet), unit }]`.
    pub fn metrics(&self) -> Result<JsValue, JsError> {
        metrics_js(self.scene.metrics())
    }

    /// The metrics read from a clock (planning time), which a replay does not reproduce:
    /// `[{ name, label, value (null: not measured), unit }]`.
    #[wasm_bindgen(js_name = clockMetrics)]
    pub fn clock_metrics(&self) -> Result<JsValue, JsError> {
        metrics_js(self.scene.clock_metrics())
    }

    /// The parameters: `[{ name, label, min, max, step, value, choices }]` (a select when
    /// `choices` is not empty, its value the index of the choice).
    pub fn params(&self) -> Result<JsValue, JsError> {
        let out: Vec<ParamOut> = self
            .scene
            .params()
            .into_iter()
            .map(|p| ParamOut {
                name: p.name,
                label: p.label,
                min: p.min,
                max: p.max,
                step: p.step,
                value: p.value,
                choices: p.choices,
            })
            .collect();
        serde_wasm_bindgen::to_value(&out).map_err(err)
    }

    /// The point actions: `[{ name, label }]`.
    pub fn actions(&self) -> Result<JsValue, JsError> {
        let out: Vec<ActionOut> =
            self.scene.actions().into_iter().map(|a| ActionOut { name: a.name, label: a.label }).collect();
        serde_wasm_bindgen::to_value(&out).map_err(err)
    }

    /// Sets a parameter. NaN and infinities are refused; out-of-range values are clamped and
    /// the returned note says so (undefined when taken as given).
    #[wasm_bindgen(js_name = setParam)]
    pub fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, JsError> {
        if !value.is_finite() {
            return Err(JsError::new(&format!("{} must be a finite number, got {value}", quote(name))));
        }
        self.scene.set_param(name, value).map_err(err)
    }

    /// Performs a point action at world point (x, y); returns what happened, in words.
    pub fn act(&mut self, name: &str, x: f64, y: f64) -> Result<String, JsError> {
        if !(x.is_finite() && y.is_finite()) {
            return Err(JsError::new(&format!("{} needs a point with finite coordinates", quote(name))));
        }
        self.scene.act(name, Vec2::new(x as f32, y as f32)).map_err(err)
    }

    /// The agent under world point (x, y), or -1.
    pub fn pick(&self, x: f64, y: f64) -> i32 {
        if !(x.is_finite() && y.is_finite()) {
            return -1;
        }
        self.scene.pick(Vec2::new(x as f32, y as f32)).map_or(-1, |i| i as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scene_builds_steps_and_fills_a_frame_of_its_size() {
        for &(name, _) in SCENES {
            let Ok(mut s) = CrowdScene::create(name, None, 3.0) else { panic!("{name} builds") };
            assert_eq!(s.step(4), 4);
            assert_eq!(s.steps(), 4.0);
            s.frame(0);
            assert_eq!(s.last_frame().x.len(), s.count() as usize, "{name}");
            assert_eq!(s.layout().len(), 2 * FIELDS.len());
        }
    }

    #[test]
    fn bad_set_ups_are_refused_with_the_value_named() {
        let bad = |name: &str, agents: Option<f64>, seed: f64| match CrowdScene::create(name, agents, seed) {
            Ok(_) => panic!("{name} {agents:?} {seed} should be refused"),
            Err(e) => e,
        };
        assert!(bad("<script>", None, 1.0).contains("<script>"));
        assert!(bad("circle", Some(-5.0), 1.0).contains("-5"));
        assert!(bad("circle", Some(f64::NAN), 1.0).contains("NaN"));
        assert!(bad("circle", Some(1e9), 1.0).contains("100000"));
        assert!(bad("circle", Some(2.5), 1.0).contains("2.5"));
        assert!(bad("circle", None, -1.0).contains("seed"));
        assert!(bad("circle", None, 1e12).contains("seed"));
    }

    #[test]
    fn one_call_never_runs_more_than_its_budget() {
        assert_eq!(steps_allowed(10, 100), 10);
        assert_eq!(steps_allowed(10_000, 1), MAX_CROWD_STEPS_PER_CALL);
        assert_eq!(steps_allowed(240, 100_000), 4);
        assert_eq!(steps_allowed(240, 10_000_000), 1);
        assert_eq!(steps_allowed(0, 10), 0);
    }
}
