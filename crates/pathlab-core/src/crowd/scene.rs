//! One interface for every crowd demonstration the page shows: a [`Scene`] steps its own
//! simulation and, once per frame, fills a [`Frame`] with what to draw (agents, a per-cell heat
//! layer, per-cell directions and marks, and overlay lines, circles and polygons, all in world
//! units) plus a list of [`Metric`]s. The page draws any scene the same way, so a new crowd
//! technique only has to implement this trait and add one arm to [`build`].
//!
//! World units: the scene's grid has `cell_size()` world units per cell, so the world is
//! `grid.width() * cell_size()` wide; `(0, 0)` is the top-left corner of cell (0, 0), y grows
//! downward.
//!
//! ```
//! use pathlab_core::crowd::scene::{build, Frame, SceneConfig};
//! let mut scene = build("circle", &SceneConfig { agents: Some(8), seed: 1 }).unwrap();
//! for _ in 0..10 { scene.step(); }
//! let mut frame = Frame::default();
//! scene.frame(None, &mut frame);
//! assert_eq!(frame.x.len(), 8);
//! assert!(scene.metrics().iter().any(|m| m.name == "collisions"));
//! ```

use std::fmt;

use crate::boids::Vec2;
use crate::grid::Grid;

/// What an overlay item shows; the page picks colour and style by this value (see
/// `www/crowd-draw.js`). New kinds go at the end so the numbers stay stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Ink {
    /// Nothing (a cell without a mark).
    None = 0,
    /// An agent's current velocity.
    Velocity = 1,
    /// The preferred velocity (where the agent would go alone).
    Preferred = 2,
    /// The velocity the rule chose.
    Chosen = 3,
    /// A velocity-obstacle cone (VO, RVO or HRVO), filled.
    Cone = 4,
    /// An ORCA half-plane's boundary (the allowed side is marked by a short normal).
    HalfPlane = 5,
    /// The top-speed circle of velocity space, or a neighbourhood radius.
    Reach = 6,
    /// A goal (bunker, food, exit, formation target).
    Goal = 7,
    /// A route or path (A* path, flow route).
    Route = 8,
    /// A formation slot.
    Slot = 9,
    /// A link from an agent to something it follows (its slot, its leader).
    Link = 10,
    /// The wavefront of a field being built (cells).
    Wavefront = 11,
    /// A cell the cheap update left worse than a full recompute.
    Suboptimal = 12,
    /// A cell the last update changed.
    Changed = 13,
    /// A nest or spawn area.
    Nest = 14,
    /// A traffic light showing red / stop.
    Stop = 15,
    /// A traffic light showing green / go.
    Go = 16,
    /// An area to keep clear (a crossing, a road).
    Zone = 17,
    /// A traffic light showing amber / stop if you can.
    Caution = 18,
    /// A body drawn in its true shape (a car's rectangle), under the agent's marker.
    Body = 19,
}

impl Ink {
    /// Every ink with its name, in value order (for the page's palette and legend).
    pub const ALL: [(Ink, &'static str); 20] = [
        (Ink::None, "none"),
        (Ink::Velocity, "velocity"),
        (Ink::Preferred, "preferred"),
        (Ink::Chosen, "chosen"),
        (Ink::Cone, "cone"),
        (Ink::HalfPlane, "half-plane"),
        (Ink::Reach, "reach"),
        (Ink::Goal, "goal"),
        (Ink::Route, "route"),
        (Ink::Slot, "slot"),
        (Ink::Link, "link"),
        (Ink::Wavefront, "wavefront"),
        (Ink::Suboptimal, "suboptimal"),
        (Ink::Changed, "changed"),
        (Ink::Nest, "nest"),
        (Ink::Stop, "stop"),
        (Ink::Go, "go"),
        (Ink::Zone, "zone"),
        (Ink::Caution, "caution"),
        (Ink::Body, "body"),
    ];
}

/// What a scene draws this frame. Every vector is cleared by [`Frame::clear`] before a scene
/// fills it; empty layers mean "not shown".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    /// Agent centres, x.
    pub x: Vec<f32>,
    /// Agent centres, y.
    pub y: Vec<f32>,
    /// Agent headings (unit vectors), x.
    pub hx: Vec<f32>,
    /// Agent headings (unit vectors), y.
    pub hy: Vec<f32>,
    /// Agent radii in world units.
    pub radius: Vec<f32>,
    /// Agent kinds, an index into [`Scene::kinds`].
    pub kind: Vec<u8>,
    /// One value per grid cell drawn as a heat map from 0 to `layer_max` (empty: none).
    pub layer: Vec<f32>,
    /// The value drawn at full strength.
    pub layer_max: f32,
    /// What the layer shows, for the legend (e.g. "distance to the nearest bunker").
    pub layer_label: String,
    /// One direction per grid cell as in [`crate::crowd::flow`] (0..8, or
    /// [`crate::crowd::NO_DIRECTION`]); empty: none.
    pub directions: Vec<u8>,
    /// One [`Ink`] per grid cell (0: none); empty: none.
    pub cell_marks: Vec<u8>,
    /// Segments `x0, y0, x1, y1`, four values each.
    pub lines: Vec<f32>,
    /// One [`Ink`] per segment.
    pub line_ink: Vec<u8>,
    /// Circles `x, y, r`, three values each.
    pub circles: Vec<f32>,
    /// One [`Ink`] per circle.
    pub circle_ink: Vec<u8>,
    /// Polygon corners `x, y`, all polygons one after another.
    pub polygon_points: Vec<f32>,
    /// The number of corners of each polygon.
    pub polygon_len: Vec<u32>,
    /// One [`Ink`] per polygon.
    pub polygon_ink: Vec<u8>,
}

impl Frame {
    /// Empties every vector, keeping the allocations.
    pub fn clear(&mut self) {
        self.x.clear();
        self.y.clear();
        self.hx.clear();
        self.hy.clear();
        self.radius.clear();
        self.kind.clear();
        self.layer.clear();
        self.layer_max = 0.0;
        self.layer_label.clear();
        self.directions.clear();
        self.cell_marks.clear();
        self.lines.clear();
        self.line_ink.clear();
        self.circles.clear();
        self.circle_ink.clear();
        self.polygon_points.clear();
        self.polygon_len.clear();
        self.polygon_ink.clear();
    }

    /// Adds an agent; a zero heading is replaced by "east".
    pub fn agent(&mut self, pos: Vec2, heading: Vec2, radius: f32, kind: u8) {
        let h = if heading.length() > 1e-6 { heading / heading.length() } else { Vec2::new(1.0, 0.0) };
        self.x.push(pos.x);
        self.y.push(pos.y);
        self.hx.push(h.x);
        self.hy.push(h.y);
        self.radius.push(radius);
        self.kind.push(kind);
    }

    /// Adds a segment.
    pub fn line(&mut self, a: Vec2, b: Vec2, ink: Ink) {
        self.lines.extend_from_slice(&[a.x, a.y, b.x, b.y]);
        self.line_ink.push(ink as u8);
    }

    /// Adds a circle.
    pub fn circle(&mut self, centre: Vec2, r: f32, ink: Ink) {
        self.circles.extend_from_slice(&[centre.x, centre.y, r]);
        self.circle_ink.push(ink as u8);
    }

    /// Adds a polygon (at least three corners; fewer are ignored).
    pub fn polygon(&mut self, corners: &[Vec2], ink: Ink) {
        if corners.len() < 3 {
            return;
        }
        for c in corners {
            self.polygon_points.extend_from_slice(&[c.x, c.y]);
        }
        self.polygon_len.push(u32::try_from(corners.len()).unwrap_or(u32::MAX));
        self.polygon_ink.push(ink as u8);
    }
}

/// One measured quantity of a run, shown in the page's metrics table.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// A stable identifier, also the data-testid suffix on the page (`metric-NAME`).
    pub name: &'static str,
    /// A short label.
    pub label: &'static str,
    /// The value (NaN: not measured yet, shown as a dash).
    pub value: f64,
    /// The unit, e.g. "s", "cells", "" for counts.
    pub unit: &'static str,
}

/// A parameter the page shows as a slider (or a select when `choices` is not empty).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The name used by [`Scene::set_param`].
    pub name: &'static str,
    /// A short label.
    pub label: &'static str,
    /// The smallest value accepted.
    pub min: f64,
    /// The largest value accepted.
    pub max: f64,
    /// A sensible slider step.
    pub step: f64,
    /// The current value (for a select, the index into `choices`).
    pub value: f64,
    /// For a choice: the names of the options, in value order.
    pub choices: Vec<&'static str>,
}

/// Something the user can do at a point of the world with the mouse (destroy a bunker, break
/// a wall, drop food, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The name used by [`Scene::act`].
    pub name: &'static str,
    /// A short label for the tool button.
    pub label: &'static str,
}

/// A problem with a scene's set-up or with a user's request, in words for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SceneError {
    /// No scene has this name.
    UnknownScene(String),
    /// A parameter name the scene does not know.
    UnknownParam(String),
    /// An action name the scene does not know.
    UnknownAction(String),
    /// A value that cannot be used (names the parameter and the problem).
    Invalid(String),
    /// The request makes no sense where it was made (e.g. "no bunker at (3, 4)").
    Refused(String),
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::UnknownScene(name) => write!(f, "unknown crowd scene \"{name}\""),
            SceneError::UnknownParam(name) => write!(f, "unknown parameter \"{name}\""),
            SceneError::UnknownAction(name) => write!(f, "unknown action \"{name}\""),
            SceneError::Invalid(text) | SceneError::Refused(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for SceneError {}

/// How to set a scene up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SceneConfig {
    /// The number of agents (None: the scene's default). Scenes clamp to their own limits.
    pub agents: Option<usize>,
    /// The seed of every random choice.
    pub seed: u64,
}

/// Writes the three [`Scene`] methods of a scene that moves on `walls` (a
/// [`Walls`](crate::boids::Walls)) at a fixed time step `$dt`: `grid` and `cell_size` from the
/// walls, and `dt`. Used inside `impl Scene for ...`.
macro_rules! on_walls_every {
    ($dt:expr) => {
        fn grid(&self) -> &$crate::grid::Grid {
            self.walls.grid()
        }

        fn cell_size(&self) -> f32 {
            self.walls.cell()
        }

        fn dt(&self) -> f32 {
            $dt
        }
    };
}
pub(crate) use on_walls_every;

/// A crowd demonstration the page can run, draw and measure.
pub trait Scene {
    /// The scene's name (as given to [`build`]).
    fn name(&self) -> &'static str;
    /// The grid of walls and terrain (an open grid when the scene has no walls).
    fn grid(&self) -> &Grid;
    /// World units per grid cell.
    fn cell_size(&self) -> f32;
    /// Seconds of simulated time per [`Scene::step`].
    fn dt(&self) -> f32;
    /// Advances the simulation by one step.
    fn step(&mut self);
    /// Steps taken since the set-up.
    fn steps(&self) -> u64;
    /// The number of agents.
    fn len(&self) -> usize;
    /// True when there are no agents.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The names of the agent kinds used in [`Frame::kind`], for the legend.
    fn kinds(&self) -> Vec<&'static str>;
    /// Fills `out` (after clearing it) with what to draw; `selected` is the agent whose
    /// inner workings (cones, half-planes, slot, sensors) should be drawn as well.
    fn frame(&self, selected: Option<usize>, out: &mut Frame);
    /// The metrics of the run so far.
    fn metrics(&self) -> Vec<Metric>;
    /// Metrics read from a clock (planning time, say), which differ from run to run: kept
    /// apart from [`Scene::metrics`], which a replay from the same seed reproduces exactly.
    /// None by default.
    fn clock_metrics(&self) -> Vec<Metric> {
        Vec::new()
    }
    /// The parameters the page may change while the scene runs.
    fn params(&self) -> Vec<Param>;
    /// Changes a parameter. Out-of-range values are clamped and a message says so; NaN is an
    /// error.
    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError>;
    /// The point actions the scene offers.
    fn actions(&self) -> Vec<Action>;
    /// Performs an action at a world point; returns a sentence for the page saying what
    /// happened.
    fn act(&mut self, action: &str, at: Vec2) -> Result<String, SceneError>;
    /// The agent under a world point (the nearest within twice its radius), if any.
    fn pick(&self, at: Vec2) -> Option<usize> {
        let mut frame = Frame::default();
        self.frame(None, &mut frame);
        let mut best = None;
        let mut best_d = f32::INFINITY;
        for i in 0..frame.x.len() {
            let d = Vec2::new(frame.x[i], frame.y[i]).distance(at);
            if d <= 2.0 * frame.radius[i].max(0.25) && d < best_d {
                best_d = d;
                best = Some(i);
            }
        }
        best
    }
}

/// Every scene [`build`] knows: name and title, in the order the page lists them.
pub const SCENES: &[(&str, &str)] = &[
    ("bunkers", "Bunkers: the flowing river (flow field)"),
    ("flow-flock", "Flock on the bunkers' flow field"),
    ("flow-squads", "Squads guided by the flow field"),
    ("flow-fig9", "Two bunkers and the neighbour order (the course's Fig. 9)"),
    ("squad", "Squad in formation"),
    ("squad-cutoff", "Squad: a member cut off"),
    ("formation-tree", "Formations: a rigid block and a squad held by fields, a tree in the way"),
    ("squads", "Several squads at once: a crowd of squads"),
    ("ants", "Ant colony: pheromone trails vs a flow field"),
    ("circle", "Circle swap (velocity obstacles)"),
    ("corridor", "Corridor swap (velocity obstacles)"),
    ("crossing", "Crossing blocks (velocity obstacles)"),
    ("blocks", "Swap around blocks (velocity obstacles)"),
    ("bottleneck", "Bottleneck door (velocity obstacles)"),
    ("street", "Street crossing with a traffic light"),
    ("street-paths", "Street with path-finders"),
];

/// Builds a scene by name.
///
/// # Errors
/// [`SceneError::UnknownScene`] for a name not in [`SCENES`]; the scene's own error for a
/// set-up it cannot make.
pub fn build(name: &str, config: &SceneConfig) -> Result<Box<dyn Scene>, SceneError> {
    match name {
        "bunkers" => Ok(Box::new(super::flow_scene::BunkersScene::new(config)?)),
        "flow-flock" => Ok(Box::new(super::flow_flock::FlowFlockScene::flock(config)?)),
        "flow-squads" => Ok(Box::new(super::flow_flock::FlowFlockScene::squads(config)?)),
        "flow-fig9" => Ok(Box::new(super::flow_flock::FlowFlockScene::fig9(config)?)),
        "squad" => Ok(Box::new(super::squad::SquadScene::new(super::squad::SquadMap::Tour, config)?)),
        "squad-cutoff" => Ok(Box::new(super::squad::SquadScene::new(super::squad::SquadMap::CutOff, config)?)),
        "formation-tree" => {
            Ok(Box::new(super::squad::FormationScene::new(super::squad::FormationLayout::Tree, config)?))
        }
        "squads" => Ok(Box::new(super::squad::FormationScene::new(super::squad::FormationLayout::Squads, config)?)),
        "ants" => Ok(Box::new(super::ants::AntColony::preset(config)?)),
        "circle" | "corridor" | "crossing" | "blocks" | "bottleneck" => {
            Ok(Box::new(super::avoid_scene::AvoidScene::new(name, config)?))
        }
        "street" => Ok(Box::new(super::street::StreetScene::new(config)?)),
        "street-paths" => {
            Ok(Box::new(super::street::StreetScene::with_planner(config, super::street_plan::Planner::AStar)?))
        }
        _ => Err(SceneError::UnknownScene(name.to_string())),
    }
}
