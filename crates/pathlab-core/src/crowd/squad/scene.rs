//! The squad demonstrations of the crowd page, through the one [`Scene`] interface: "squad",
//! a tour of goals round a few blocks, and "squad-cutoff", where one member starts behind a
//! long wall and must find its way back. The page draws the members, their slots and links,
//! the squad's path, and for the selected member its hysteresis band.

use super::{Formation, Squad, SquadParams, DT, MAX_MEMBERS, RADIUS, R_IN, R_OUT, SPACING_RANGE, SPEED_RANGE};
use crate::boids::{Pcg32, Vec2, Walls};
use crate::crowd::scene::{Action, Frame, Ink, Metric, Param, Scene, SceneConfig, SceneError};
use crate::grid::{Grid, Point, WALL};

/// Which map a squad scene uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquadMap {
    /// Open ground with a few blocks; the squad tours a list of goals.
    Tour,
    /// A long wall with one member starting on the wrong side of it.
    CutOff,
}

/// A squad demonstration for the page: "squad" (a tour round a few blocks) or "squad-cutoff"
/// (one member starts behind a wall and must find its way back).
#[derive(Clone, Debug)]
pub struct SquadScene {
    squad: Squad,
    map: SquadMap,
    tour: Vec<Point>,
    tour_next: usize,
    /// True once the user has set a goal: the tour stops.
    user_goal: bool,
}

/// Seconds the squad rests at a goal before the tour moves on.
const REST: f32 = 3.0;

fn fill(grid: &mut Grid, x0: usize, y0: usize, x1: usize, y1: usize) {
    for y in y0..=y1 {
        for x in x0..=x1 {
            let _ = grid.set(Point::new(x, y), WALL);
        }
    }
}

impl SquadScene {
    /// Builds a scene; `config.agents` is clamped to 1..=[`MAX_MEMBERS`] (default 9).
    ///
    /// # Errors
    /// [`SceneError::Invalid`] if the set-up cannot be made.
    pub fn new(map: SquadMap, config: &SceneConfig) -> Result<Self, SceneError> {
        let n = config.agents.unwrap_or(9).clamp(1, MAX_MEMBERS);
        let mut rng = Pcg32::new(config.seed);
        let invalid = |e: crate::grid::GridError| SceneError::Invalid(e.to_string());
        let (grid, centre, tour, stray) = match map {
            SquadMap::Tour => {
                let mut g = Grid::new(48, 32).map_err(invalid)?;
                fill(&mut g, 15, 6, 18, 13);
                fill(&mut g, 24, 0, 26, 7);
                fill(&mut g, 28, 18, 34, 23);
                fill(&mut g, 10, 21, 13, 31);
                fill(&mut g, 38, 10, 40, 14);
                let tour = vec![Point::new(42, 5), Point::new(42, 26), Point::new(20, 26), Point::new(6, 5)];
                (g, Vec2::new(6.5, 5.5), tour, None)
            }
            SquadMap::CutOff => {
                let mut g = Grid::new(40, 24).map_err(invalid)?;
                fill(&mut g, 0, 11, 30, 12);
                let tour = vec![Point::new(35, 5), Point::new(5, 5)];
                (g, Vec2::new(6.5, 5.5), tour, Some(Vec2::new(6.5, 17.5)))
            }
        };
        let walls = Walls::new(grid, 1.0);
        let mut members = Vec::with_capacity(n);
        let mut tries = 0;
        while members.len() < n {
            tries += 1;
            if tries > 100_000 {
                return Err(SceneError::Invalid("no room to place the squad's members".to_string()));
            }
            let p = centre + Vec2::new(rng.range(-2.5, 2.5), rng.range(-2.5, 2.5));
            if walls.is_free(p) && walls.push_out(p, RADIUS) == Vec2::ZERO {
                members.push(p);
            }
        }
        if let Some(s) = stray {
            members[0] = s;
        }
        let mut squad = Squad::new(walls, centre, &members, SquadParams::default())?;
        squad.set_goal(tour[0])?;
        Ok(Self { squad, map, tour, tour_next: 1, user_goal: false })
    }

    /// The squad.
    pub fn squad(&self) -> &Squad {
        &self.squad
    }
}

impl Scene for SquadScene {
    fn name(&self) -> &'static str {
        match self.map {
            SquadMap::Tour => "squad",
            SquadMap::CutOff => "squad-cutoff",
        }
    }
    fn grid(&self) -> &Grid {
        self.squad.walls.grid()
    }
    fn cell_size(&self) -> f32 {
        self.squad.walls.cell()
    }
    fn dt(&self) -> f32 {
        DT
    }
    fn step(&mut self) {
        self.squad.step();
        if !self.user_goal && self.squad.arrived_for().is_some_and(|t| t >= REST) {
            let goal = self.tour[self.tour_next % self.tour.len()];
            self.tour_next = (self.tour_next + 1) % self.tour.len();
            // The tour's goals are open and connected; a refusal would only skip one.
            let _ = self.squad.set_goal(goal);
        }
    }
    fn steps(&self) -> u64 {
        self.squad.steps
    }
    fn len(&self) -> usize {
        self.squad.len()
    }
    fn kinds(&self) -> Vec<&'static str> {
        vec!["in formation", "cut off"]
    }
    fn frame(&self, selected: Option<usize>, out: &mut Frame) {
        out.clear();
        let s = &self.squad;
        for m in &s.members {
            let heading = if m.vel.length() > 0.05 { m.vel } else { s.heading };
            out.agent(m.pos, heading, RADIUS, u8::from(m.cut_off));
        }
        // The squad's path, centre and goal.
        if !s.path.is_empty() {
            out.line(s.centre, s.path[s.path_next.min(s.path.len() - 1)], Ink::Route);
            for w in s.path[s.path_next.min(s.path.len() - 1)..].windows(2) {
                out.line(w[0], w[1], Ink::Route);
            }
        }
        out.circle(s.centre, 0.15, Ink::Route);
        out.line(s.centre, s.centre + s.heading * 0.8, Ink::Preferred);
        if let Some(g) = s.goal {
            out.circle(s.walls.centre(g), 0.45, Ink::Goal);
        }
        // Every member lightly: its slot and a link to it; cut-off members' own paths.
        for (i, m) in s.members.iter().enumerate() {
            let slot = s.slots[m.slot];
            out.circle(slot, 0.12, Ink::Slot);
            if m.cut_off {
                if let Some(path) = s.own_path(i) {
                    let mut prev = m.pos;
                    for &p in path {
                        out.line(prev, p, Ink::Route);
                        prev = p;
                    }
                }
            } else {
                out.line(m.pos, slot, Ink::Link);
            }
        }
        // The selected member in full: its hysteresis band, velocity, link, the slot's own
        // velocity, and where its slot was moved from when a wall was in the way.
        if let Some(i) = selected.filter(|&i| i < s.len()) {
            let m = &s.members[i];
            let slot = s.slots[m.slot];
            out.circle(slot, R_IN, Ink::Slot);
            out.circle(slot, R_OUT, Ink::Reach);
            out.line(m.pos, slot, Ink::Link);
            out.line(m.pos, m.pos + m.vel, Ink::Velocity);
            out.line(slot, slot + s.slot_vel[m.slot], Ink::Preferred);
            if s.slot_moved[m.slot] {
                // Where the slot would be without walls, and where it was moved to.
                let nominal = s.nominal_slot(i);
                out.circle(nominal, 0.12, Ink::Slot);
                out.line(nominal, slot, Ink::Slot);
            }
        }
    }
    fn metrics(&self) -> Vec<Metric> {
        let m = self.squad.metrics();
        vec![
            Metric {
                name: "mean_slot_distance",
                label: "Mean distance from slot",
                value: f64::from(m.mean_slot_distance),
                unit: "cells",
            },
            Metric {
                name: "max_slot_distance",
                label: "Max distance from slot",
                value: f64::from(m.max_slot_distance),
                unit: "cells",
            },
            Metric { name: "in_place", label: "Members in place", value: m.in_place as f64, unit: "" },
            Metric { name: "cut_off", label: "Members cut off", value: m.cut_off as f64, unit: "" },
            Metric { name: "rejoins", label: "Rejoins", value: f64::from(m.rejoins), unit: "" },
            Metric { name: "time", label: "Time", value: f64::from(m.time), unit: "s" },
            Metric {
                name: "centre_travel",
                label: "Centre's distance walked",
                value: f64::from(m.centre_travel),
                unit: "cells",
            },
            Metric {
                name: "centre_path_length",
                label: "Centre's current path length",
                value: f64::from(m.centre_path_length),
                unit: "cells",
            },
            Metric { name: "searches", label: "A* searches", value: f64::from(m.searches), unit: "" },
        ]
    }
    fn params(&self) -> Vec<Param> {
        let p = self.squad.params;
        let formation = Formation::ALL.iter().position(|&f| f == p.formation).unwrap_or(0);
        vec![
            Param {
                name: "formation",
                label: "Formation",
                min: 0.0,
                max: (Formation::ALL.len() - 1) as f64,
                step: 1.0,
                value: formation as f64,
                choices: Formation::ALL.iter().map(|f| f.name()).collect(),
            },
            Param {
                name: "spacing",
                label: "Spacing (cells)",
                min: SPACING_RANGE.0,
                max: SPACING_RANGE.1,
                step: 0.1,
                value: f64::from(p.spacing),
                choices: Vec::new(),
            },
            Param {
                name: "speed",
                label: "Squad speed (cells/s)",
                min: SPEED_RANGE.0,
                max: SPEED_RANGE.1,
                step: 0.1,
                value: f64::from(p.speed),
                choices: Vec::new(),
            },
        ]
    }
    fn set_param(&mut self, name: &str, value: f64) -> Result<Option<String>, SceneError> {
        match name {
            "formation" => {
                if !value.is_finite() {
                    return Err(SceneError::Invalid(format!("formation must be a finite number, not {value}")));
                }
                let last = (Formation::ALL.len() - 1) as f64;
                let k = value.round().clamp(0.0, last);
                self.squad.set_formation(Formation::ALL[k as usize]);
                Ok((k != value).then(|| format!("formation {value} is not one of 0..={last}; using {k}")))
            }
            "spacing" => self.squad.set_spacing(value),
            "speed" => self.squad.set_speed(value),
            _ => Err(SceneError::UnknownParam(name.to_string())),
        }
    }
    fn actions(&self) -> Vec<Action> {
        vec![
            Action { name: "set-goal", label: "Set the squad's goal" },
            Action { name: "cut-off", label: "Move the nearest member here (behind a wall)" },
        ]
    }
    fn act(&mut self, action: &str, at: Vec2) -> Result<String, SceneError> {
        match action {
            "set-goal" => {
                let (cx, cy) = self.squad.walls.cell_at(at);
                if !at.is_finite() || self.squad.walls.blocked(cx, cy) {
                    return Err(SceneError::Refused(format!("({:.1}, {:.1}) is in a wall or off the map", at.x, at.y)));
                }
                let goal = Point::new(cx as usize, cy as usize);
                self.squad.set_goal(goal)?;
                self.user_goal = true;
                Ok(format!("the squad heads for cell {goal} along a path of {:.1} cells", self.squad.path_length))
            }
            "cut-off" => {
                let i = self
                    .squad
                    .nearest_member(at)
                    .ok_or_else(|| SceneError::Refused("the squad has no members".to_string()))?;
                self.squad.place_member(i, at)?;
                Ok(format!("member {i} moved to ({:.1}, {:.1}); it must find its way back", at.x, at.y))
            }
            _ => Err(SceneError::UnknownAction(action.to_string())),
        }
    }
}
