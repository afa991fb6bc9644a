//! Formations as the course's book draws them, for the crowd page:
//!
//! - "formation-tree": a rigid [`Block`] (6 ranks of 10 by default, barycentre and yaw, no
//!   member steering) in the north lane beside a [`Squad`] of the same ranks and files held by
//!   summed potential fields in the south lane, a tree in the way of each. The block swerves
//!   round its tree as one; the squad's column breaks round its tree and re-forms beyond it.
//!   Both march east, rest, and march back west.
//! - "squads": several squads at once, each in its own lane with a tree somewhere along it, all
//!   rigid blocks or all held by fields (the `method` choice, so the page can compare the two);
//!   together they make a crowd of squads.
//!
//! A squad held by fields counts as formed while every member is within [`REFORMED`] of the
//! slot its formation gives it (ignoring walls); it breaks when one strays farther and
//! re-forms when all are back. The time from a break to the re-forming is the "time to
//! re-form".
//!
//! ```
//! use pathlab_core::crowd::scene::{build, SceneConfig};
//! let mut scene = build("formation-tree", &SceneConfig { agents: None, seed: 1 }).unwrap();
//! assert_eq!(scene.len(), 120); // two formations of 6 x 10
//! for _ in 0..50 { scene.step(); }
//! let m = scene.metrics();
//! assert!(m.iter().any(|m| m.name == "rigid_shape_error" && m.value < 1e-3));
//! ```

use super::block::{block_offsets, block_reach, check_shape, Block, MAX_FILES, MAX_RANKS};
use super::{check_speed, Squad, SquadParams, DT, RADIUS};
use crate::boids::{Pcg32, Vec2, Walls};
use crate::crowd::scene::{on_walls_every, Action, Frame, Ink, Metric, Param, Scene, SceneConfig, SceneError};
use crate::grid::{Grid, Point, WALL};

/// A squad held by fields counts as formed while every member is within this distance of its
/// nominal slot (world units, one cell each).
pub const REFORMED: f32 = 1.0;
/// A tree's radius: cells whose centre lies this close to the tree's centre are wall.
pub const TREE_RADIUS: f32 = 1.6;
/// The smallest and largest spacing of the formation scenes.
pub const FORMATION_SPACING: (f64, f64) = (0.8, 2.0);
/// The most squads of the "squads" scene.
pub const MAX_SQUADS: usize = 8;
/// Seconds a formation rests at the end of its lane before it marches back.
const REST: f32 = 2.0;

/// Which demonstration a [`FormationScene`] shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormationLayout {
    /// "formation-tree": a rigid block beside a squad held by fields, a tree in each lane.
    Tree,
    /// "squads": several squads at once, one lane each, all of one kind.
    Squads,
}

/// How a formation holds its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A rigid block: slots fixed in the block's frame, the block plans and moves as one.
    Rigid,
    /// A squad whose members are held near their slots by summed potential fields.
    Field,
}

impl UnitKind {
    /// Both kinds, in the order of the "method" choice.
    pub const ALL: [UnitKind; 2] = [UnitKind::Rigid, UnitKind::Field];

    /// The kind's name in URLs and menus.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Rigid => "rigid",
            UnitKind::Field => "field",
        }
    }
}

#[derive(Clone, Debug)]
enum Body {
    Rigid(Box<Block>),
    Field(Box<Squad>),
}

/// Breaks and re-formings of a squad held by fields.
#[derive(Clone, Copy, Debug)]
struct Reform {
    broken_since: Option<f32>,
    formed_once: bool,
    last: f32,
    longest: f32,
    count: u32,
}

impl Default for Reform {
    fn default() -> Self {
        Self { broken_since: None, formed_once: false, last: f32::NAN, longest: f32::NAN, count: 0 }
    }
}

#[derive(Clone, Debug)]
struct Unit {
    body: Body,
    /// West and east ends of its lane.
    ends: [Point; 2],
    /// Which end it heads for.
    leg: usize,
    /// When the rigid block arrived (None while it marches).
    arrived_at: Option<f32>,
    legs_done: u32,
    reform: Reform,
}

/// The formation scenes. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct FormationScene {
    layout: FormationLayout,
    seed: u64,
    ranks: usize,
    files: usize,
    spacing: f32,
    speed: f32,
    squads: usize,
    method: UnitKind,
    walls: Walls,
    trees: Vec<Vec2>,
    units: Vec<Unit>,
    steps: u64,
    rigid_error: f32,
}

impl FormationScene {
    /// Builds a scene. `config.agents`, when given, sets the size: for "formation-tree" the
    /// files of each of the two formations (agents / 2 / ranks, rounded, within 1..=20), for
    /// "squads" the number of squads (agents / members per squad, within 1..=8).
    ///
    /// # Errors
    /// [`SceneError::Invalid`] if the set-up cannot be made.
    pub fn new(layout: FormationLayout, config: &SceneConfig) -> Result<Self, SceneError> {
        let (ranks, mut files, mut squads) = match layout {
            FormationLayout::Tree => (6, 10, 2),
            FormationLayout::Squads => (3, 4, 4),
        };
        if let Some(n) = config.agents {
            match layout {
                FormationLayout::Tree => {
                    files = (n as f64 / 2.0 / ranks as f64).round().clamp(1.0, MAX_FILES as f64) as usize;
                }
                FormationLayout::Squads => {
                    squads = (n as f64 / (ranks * files) as f64).round().clamp(1.0, MAX_SQUADS as f64) as usize;
                }
            }
        }
        let grid = Grid::new(1, 1).map_err(|e| SceneError::Invalid(e.to_string()))?;
        let mut scene = Self {
            layout,
            seed: config.seed,
            ranks,
            files,
            spacing: 1.2,
            speed: 1.2,
            squads,
            method: UnitKind::Field,
            walls: Walls::new(grid, 1.0),
            trees: Vec::new(),
            units: Vec::new(),
            steps: 0,
            rigid_error: 0.0,
        };
        scene.rebuild()?;
        Ok(scene)
    }

    /// Which demonstration this is.
    pub fn layout(&self) -> FormationLayout {
        self.layout
    }

    /// The walls (the trees are wall cells).
    pub fn walls(&self) -> &Walls {
        &self.walls
    }

    /// The trees' centres, one per lane.
    pub fn trees(&self) -> &[Vec2] {
        &self.trees
    }

    /// The number of formations.
    pub fn units(&self) -> usize {
        self.units.len()
    }

    /// Formation `u` if it is a rigid block.
    pub fn block(&self, u: usize) -> Option<&Block> {
        match &self.units.get(u)?.body {
            Body::Rigid(b) => Some(b),
            Body::Field(_) => None,
        }
    }

    /// Formation `u` if it is held by fields.
    pub fn squad(&self, u: usize) -> Option<&Squad> {
        match &self.units.get(u)?.body {
            Body::Field(s) => Some(s),
            Body::Rigid(_) => None,
        }
    }

    /// Ranks and files of every formation.
    pub fn shape(&self) -> (usize, usize) {
        (self.ranks, self.files)
    }

    /// Simulated seconds.
    pub fn time(&self) -> f32 {
        self.steps as f32 * DT
    }

    fn kinds_of_units(&self) -> Vec<UnitKind> {
        match self.layout {
            FormationLayout::Tree => vec![UnitKind::Rigid, UnitKind::Field],
            FormationLayout::Squads => vec![self.method; self.squads],
        }
    }

    /// Makes the map (lanes sized to the formation, a tree in each) and the formations.
    fn rebuild(&mut self) -> Result<(), SceneError> {
        check_shape(self.ranks, self.files)?;
        let invalid = |e: crate::grid::GridError| SceneError::Invalid(e.to_string());
        let offsets = block_offsets(self.ranks, self.files, self.spacing);
        let reach = block_reach(&offsets);
        let kinds = self.kinds_of_units();
        let lane_h = (4.0 * reach + 12.0).ceil() as usize;
        let width = ((10.0 * reach).ceil() as usize).max(80);
        let mut grid = Grid::new(width, lane_h * kinds.len()).map_err(invalid)?;
        let mut rng = Pcg32::new(self.seed);
        let end = (reach + 2.0).ceil() as usize;
        self.trees.clear();
        let mut lanes = Vec::new();
        for k in 0..kinds.len() {
            let mid = k * lane_h + lane_h / 2;
            let tx = match self.layout {
                FormationLayout::Tree => width as f32 * 0.5 + rng.range(-3.0, 3.0),
                FormationLayout::Squads => width as f32 * rng.range(0.35, 0.65),
            };
            let tree = Vec2::new(tx, mid as f32 + 0.5 + rng.range(-1.0, 1.0));
            let r = TREE_RADIUS.ceil() as i64 + 1;
            let (cx, cy) = (tree.x.floor() as i64, tree.y.floor() as i64);
            for y in cy - r..=cy + r {
                for x in cx - r..=cx + r {
                    if Vec2::new(x as f32 + 0.5, y as f32 + 0.5).distance(tree) <= TREE_RADIUS && grid.contains(x, y) {
                        grid.set(Point::new(x as usize, y as usize), WALL).map_err(invalid)?;
                    }
                }
            }
            self.trees.push(tree);
            lanes.push([Point::new(end, mid), Point::new(width - 1 - end, mid)]);
        }
        self.walls = Walls::new(grid, 1.0);
        self.units.clear();
        for (k, kind) in kinds.into_iter().enumerate() {
            let ends = lanes[k];
            let start = self.walls.centre(ends[0]);
            let body = match kind {
                UnitKind::Rigid => {
                    // The block keeps to its own lane: the other lanes are walls for its plans.
                    let mut own = self.walls.grid().clone();
                    for y in 0..own.height() {
                        if y / lane_h != k {
                            for x in 0..own.width() {
                                own.set(Point::new(x, y), WALL).map_err(invalid)?;
                            }
                        }
                    }
                    let mut b =
                        Block::new(&Walls::new(own, 1.0), start, self.ranks, self.files, self.spacing, self.speed)?;
                    b.set_goal(ends[1])?;
                    Body::Rigid(Box::new(b))
                }
                UnitKind::Field => {
                    // Members start near their slots, a little scattered.
                    let mut members = Vec::with_capacity(offsets.len());
                    for o in &offsets {
                        let mut p = start + *o + Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
                        if !self.walls.is_free(p) {
                            p = start + *o;
                        }
                        members.push(p);
                    }
                    let params = SquadParams { spacing: self.spacing, speed: self.speed, ..SquadParams::default() };
                    let mut s = Squad::new(self.walls.clone(), start, &members, params)?;
                    s.set_offsets(offsets.clone())?;
                    s.set_goal(ends[1])?;
                    Body::Field(Box::new(s))
                }
            };
            self.units.push(Unit { body, ends, leg: 1, arrived_at: None, legs_done: 0, reform: Reform::default() });
        }
        self.steps = 0;
        self.rigid_error = 0.0;
        Ok(())
    }

    /// The largest distance of a field squad's member from its nominal slot (ignoring walls).
    fn field_error(s: &Squad) -> f32 {
        (0..s.len()).map(|i| s.position(i).distance(s.nominal_slot(i))).fold(0.0_f32, f32::max)
    }

    /// The largest shape error now over the formations of one kind (NaN when there is none).
    pub fn shape_error(&self, kind: UnitKind) -> f32 {
        let mut out = f32::NAN;
        for u in &self.units {
            let e = match (&u.body, kind) {
                (Body::Rigid(b), UnitKind::Rigid) => b.shape_error(),
                (Body::Field(s), UnitKind::Field) => Self::field_error(s),
                _ => continue,
            };
            out = if out.is_nan() { e } else { out.max(e) };
        }
        out
    }

    /// The largest shape error of any rigid block at any step so far.
    pub fn rigid_error_so_far(&self) -> f32 {
        self.rigid_error
    }

    /// The last and the longest time to re-form over the field squads, in seconds (NaN until a
    /// squad has broken and re-formed), and the number of re-formings.
    pub fn reform_times(&self) -> (f32, f32, u32) {
        let (mut last, mut longest, mut count) = (f32::NAN, f32::NAN, 0);
        let mut last_at = f32::NEG_INFINITY;
        for u in &self.units {
            let r = u.reform;
            count += r.count;
            if !r.longest.is_nan() {
                longest = if longest.is_nan() { r.longest } else { longest.max(r.longest) };
            }
            if !r.last.is_nan() && r.last >= last_at {
                last_at = r.last;
                last = r.last;
            }
        }
        (last, longest, count)
    }

    fn set_whole(&mut self, name: &str, value: f64, max: usize) -> Result<Option<String>, SceneError> {
        if !value.is_finite() {
            return Err(SceneError::Invalid(format!("{name} must be a finite number, not {value}")));
        }
        let v = value.round().clamp(1.0, max as f64);
        let n = v as usize;
        match name {
            "ranks" => self.ranks = n,
            "files" => self.files = n,
            _ => self.squads = n,
        }
        self.rebuild()?;
        Ok((v != value).then(|| format!("{name} {value} is not a whole number from 1 to {max}; using {v}")))
    }
}

impl Scene for FormationScene {
    fn name(&self) -> &'static str {
        match self.layout {
            FormationLayout::Tree => "formation-tree",
            FormationLayout::Squads => "squads",
        }
    }
    on_walls_every!(DT);
    fn step(&mut self) {
        self.steps += 1;
        let now = self.time();
        for u in &mut self.units {
            let goal = u.ends[u.leg ^ 1];
            match &mut u.body {
                Body::Rigid(b) => {
                    let was = b.arrived();
                    b.step();
                    self.rigid_error = self.rigid_error.max(b.shape_error());
                    if b.arrived() && !was {
                        u.arrived_at = Some(now);
                        u.legs_done += 1;
                    }
                    if u.arrived_at.is_some_and(|t| now - t >= REST) && b.set_goal(goal).is_ok() {
                        u.arrived_at = None;
                        u.leg ^= 1;
                    }
                }
                Body::Field(s) => {
                    let was = s.arrived();
                    s.step();
                    if s.arrived() && !was {
                        u.legs_done += 1;
                    }
                    if s.arrived_for().is_some_and(|t| t >= REST) && s.set_goal(goal).is_ok() {
                        u.leg ^= 1;
                    }
                    let r = &mut u.reform;
                    if Self::field_error(s) <= REFORMED {
                        if let Some(t0) = r.broken_since.take() {
                            let t = now - t0;
                            r.last = t;
                            r.longest = if r.longest.is_nan() { t } else { r.longest.max(t) };
                            r.count += 1;
                        }
                        r.formed_once = true;
                    } else if r.formed_once && r.broken_since.is_none() {
                        r.broken_since = Some(now);
                    }
                }
            }
        }
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn len(&self) -> usize {
        self.units
            .iter()
            .map(|u| match &u.body {
                Body::Rigid(b) => b.len(),
                Body::Field(s) => s.len(),
            })
            .sum()
    }
    fn kinds(&self) -> Vec<&'static str> {
        vec!["rigid block", "held by fields", "cut off"]
    }
    fn frame(&self, selected: Option<usize>, out: &mut Frame) {
        out.clear();
        let mut index = 0;
        for u in &self.units {
            let (centre, heading, path): (Vec2, Vec2, &[Vec2]) = match &u.body {
                Body::Rigid(b) => {
                    for &p in b.positions() {
                        out.agent(p, b.yaw(), RADIUS, 0);
                        index += 1;
                    }
                    out.polygon(&b.outline(), Ink::Zone);
                    (b.centre(), b.yaw(), b.path())
                }
                Body::Field(s) => {
                    for i in 0..s.len() {
                        let v = s.velocity(i);
                        let h = if v.length() > 0.05 { v } else { s.heading() };
                        out.agent(s.position(i), h, RADIUS, if s.is_cut_off(i) { 2 } else { 1 });
                        out.line(s.position(i), s.slot(i), Ink::Link);
                        if selected == Some(index) {
                            out.circle(s.slot(i), super::R_IN, Ink::Slot);
                            out.circle(s.slot(i), REFORMED, Ink::Reach);
                            out.line(s.position(i), s.position(i) + v, Ink::Velocity);
                        }
                        index += 1;
                    }
                    let path = s.path();
                    (s.centre(), s.heading(), path)
                }
            };
            let mut prev = centre;
            for &p in path {
                out.line(prev, p, Ink::Route);
                prev = p;
            }
            out.circle(centre, 0.25, Ink::Route);
            out.line(centre, centre + heading * 1.5, Ink::Preferred);
            out.circle(self.walls.centre(u.ends[u.leg]), 0.6, Ink::Goal);
        }
        // The selected member's slot (a rigid member always stands on it).
        if let Some(i) = selected.filter(|&i| i < out.x.len()) {
            out.circle(Vec2::new(out.x[i], out.y[i]), RADIUS * 1.8, Ink::Slot);
        }
    }
    fn metrics(&self) -> Vec<Metric> {
        let (last, longest, count) = self.reform_times();
        let legs: u32 = self.units.iter().map(|u| u.legs_done).sum();
        let count_of = |kind: UnitKind| {
            self.units
                .iter()
                .map(|u| match (&u.body, kind) {
                    (Body::Rigid(b), UnitKind::Rigid) => b.len(),
                    (Body::Field(s), UnitKind::Field) => s.len(),
                    _ => 0,
                })
                .sum::<usize>() as f64
        };
        let mut out = Vec::new();
        if self.layout == FormationLayout::Squads {
            out.push(Metric { name: "squads", label: "Squads", value: self.units.len() as f64, unit: "" });
        }
        out.extend([
            Metric {
                name: "rigid_members",
                label: "Members in rigid blocks",
                value: count_of(UnitKind::Rigid),
                unit: "",
            },
            Metric {
                name: "field_members",
                label: "Members held by fields",
                value: count_of(UnitKind::Field),
                unit: "",
            },
            Metric {
                name: "rigid_shape_error",
                label: "Block: largest shape error so far",
                value: if count_of(UnitKind::Rigid) > 0.0 { f64::from(self.rigid_error) } else { f64::NAN },
                unit: "cells",
            },
            Metric {
                name: "field_shape_error",
                label: "Fields: largest distance from a slot now",
                value: f64::from(self.shape_error(UnitKind::Field)),
                unit: "cells",
            },
            Metric { name: "reform_time", label: "Fields: last time to re-form", value: f64::from(last), unit: "s" },
            Metric {
                name: "reform_longest",
                label: "Fields: longest time to re-form",
                value: f64::from(longest),
                unit: "s",
            },
            Metric { name: "reforms", label: "Fields: breaks re-formed", value: f64::from(count), unit: "" },
            Metric { name: "legs", label: "Marches finished", value: f64::from(legs), unit: "" },
            Metric { name: "time", label: "Time", value: f64::from(self.time()), unit: "s" },
        ]);
        out
    }
    fn params(&self) -> Vec<Param> {
        let whole = |name, label, value: usize, max: usize| Param {
            name,
            label,
            min: 1.0,
            max: max as f64,
            step: 1.0,
            value: value as f64,
            choices: Vec::new(),
        };
        let mut out = Vec::new();
        if self.layout == FormationLayout::Squads {
            out.push(Param {
                name: "method",
                label: "Formation held by",
                min: 0.0,
                max: 1.0,
                step: 1.0,
                value: UnitKind::ALL.iter().position(|&k| k == self.method).unwrap_or(0) as f64,
                choices: UnitKind::ALL.iter().map(|k| k.name()).collect(),
            });
            out.push(whole("squads", "Squads", self.squads, MAX_SQUADS));
        }
        out.push(whole("ranks", "Ranks (deep)", self.ranks, MAX_RANKS));
        out.push(whole("files", "Files (wide)", self.files, MAX_FILES));
        out.push(Param {
            name: "spacing",
            label: "Spacing (cells)",
            min: FORMATION_SPACING.0,
            max: FORMATION_SPACING.1,
            step: 0.1,
            value: f64::from(self.spacing),
            choices: Vec::new(),
        });
        out.push(Param {
            name: "speed",
            label: "Speed (cells/s)",
            min: super::SPEED_RANGE.0,
            max: super::SPEED_RANGE.1,
            step: 0.1,
            value: f64::from(self.speed),
            choices: Vec::new(),
        });
        out
    }
    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError> {
        match name {
            "ranks" => self.set_whole(name, value, MAX_RANKS),
            "files" => self.set_whole(name, value, MAX_FILES),
            "squads" if self.layout == FormationLayout::Squads => self.set_whole(name, value, MAX_SQUADS),
            "method" if self.layout == FormationLayout::Squads => {
                if !value.is_finite() {
                    return Err(SceneError::Invalid(format!("method must be a finite number, not {value}")));
                }
                let k = value.round().clamp(0.0, 1.0);
                self.method = UnitKind::ALL[k as usize];
                self.rebuild()?;
                Ok((k != value).then(|| format!("method {value} is not 0 (rigid) or 1 (field); using {k}")))
            }
            "spacing" => {
                if !value.is_finite() {
                    return Err(SceneError::Invalid(format!("spacing must be a finite number, not {value}")));
                }
                let (lo, hi) = FORMATION_SPACING;
                let v = value.clamp(lo, hi);
                self.spacing = v as f32;
                self.rebuild()?;
                Ok((v != value).then(|| format!("spacing {value} is outside [{lo}, {hi}]; using {v}")))
            }
            "speed" => {
                let (v, msg) = check_speed(value)?;
                self.speed = v;
                for u in &mut self.units {
                    match &mut u.body {
                        Body::Rigid(b) => b.set_speed(v),
                        Body::Field(s) => {
                            s.set_speed(f64::from(v))?;
                        }
                    }
                }
                Ok(msg)
            }
            _ => Err(SceneError::UnknownParam(name.to_string())),
        }
    }
    fn actions(&self) -> Vec<Action> {
        Vec::new()
    }
    fn act(&mut self, action: &str, _at: Vec2) -> Result<String, SceneError> {
        Err(SceneError::UnknownAction(action.to_string()))
    }
}
