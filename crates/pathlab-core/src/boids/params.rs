//! The parameters of a species of agents, in documented structs, with their allowed ranges.
//!
//! Units: lengths in world units (the wall grid's cells are [`Walls::cell`](super::Walls::cell)
//! units wide), times in seconds, angles in degrees, speeds in units per second. Every
//! parameter is listed in [`PARAMS`] with its range; [`SpeciesParams::set`] refuses NaN and
//! infinities and clamps a value outside the range, returning a note that says so.

use std::fmt;

use crate::grid::named_enum;

/// The most agents a world holds. Scenarios, [`Boids::add_agent`](super::Boids::add_agent)
/// and [`Boids::spawn`](super::Boids::spawn) refuse more. At the default radii a step of
/// 100,000 flocking agents takes tens of milliseconds natively, so the page stays responsive
/// but no longer smooth.
pub const MAX_AGENTS: usize = 100_000;

/// The most species a world holds.
pub const MAX_SPECIES: usize = 4;

/// The most direction slots of a context map.
pub const MAX_SLOTS: usize = 32;

named_enum! {
    /// The steering behaviours, from Reynolds' list. Each produces one force per agent per step;
    /// a species gives each a weight, and a weight of 0 switches it off (it is then not even
    /// computed).
    Behaviour, "behaviour" {
        /// Head for the current goal at full speed.
        Seek = 0, "seek";
        /// Run from the current goal when within the panic radius.
        Flee = 1, "flee";
        /// Head for the current goal, slowing down inside the slowing radius and stopping on it.
        Arrive = 2, "arrive";
        /// Chase the nearest prey, aiming where it will be.
        Pursue = 3, "pursue";
        /// Run from the nearest predator, away from where it will be.
        Evade = 4, "evade";
        /// Drift about: seek a point that wanders on a circle ahead.
        Wander = 5, "wander";
        /// Follow the world's path (an A* path on the wall grid), looking ahead along it.
        PathFollowing = 6, "path-following";
        /// Run alongside the nearest wall at a fixed offset.
        WallFollowing = 7, "wall-following";
        /// Stay inside the world and out of walls: probes ahead push back along the surface normal.
        Containment = 8, "containment";
        /// Keep a cylinder ahead clear of circles and walls by steering sideways.
        ObstacleAvoidance = 9, "obstacle-avoidance";
        /// Move away from neighbours that are too close.
        Separation = 10, "separation";
        /// Match the heading of neighbours.
        Alignment = 11, "alignment";
        /// Move towards the centre of neighbours.
        Cohesion = 12, "cohesion";
        /// Arrive at a point behind the leader; leave the area in front of it.
        LeaderFollowing = 13, "leader-following";
        /// Predict the next close approach with any neighbour and turn or change speed to avoid it.
        UnalignedAvoidance = 14, "unaligned-avoidance";
    }
}

/// Number of behaviours.
pub const BEHAVIOURS: usize = 15;

impl Behaviour {
    /// True for behaviours that move an agent away from something: in a context map they
    /// fill the danger map (in the direction of the threat); the others fill the interest map.
    pub const fn is_danger(self) -> bool {
        matches!(
            self,
            Self::Flee
                | Self::Evade
                | Self::Containment
                | Self::ObstacleAvoidance
                | Self::Separation
                | Self::UnalignedAvoidance
        )
    }
}

/// The order in which [`Combine::Priority`] spends the force budget: staying out of walls
/// first, then not hitting things, then escaping, then goals, then the flock.
pub const PRIORITY: [Behaviour; BEHAVIOURS] = [
    Behaviour::Containment,
    Behaviour::ObstacleAvoidance,
    Behaviour::Evade,
    Behaviour::Flee,
    Behaviour::Separation,
    Behaviour::UnalignedAvoidance,
    Behaviour::WallFollowing,
    Behaviour::LeaderFollowing,
    Behaviour::PathFollowing,
    Behaviour::Pursue,
    Behaviour::Arrive,
    Behaviour::Seek,
    Behaviour::Alignment,
    Behaviour::Cohesion,
    Behaviour::Wander,
];

named_enum! {
    /// How a species turns its behaviours' forces into one steering force.
    Combine, "combination" {
        /// Add every force times its weight, then truncate to the maximum force.
        WeightedSum = 0, "weighted-sum";
        /// Add weighted forces in the order of [`PRIORITY`], each only as far as the force
        /// budget left allows (a truncated running sum: each force added spends its length
        /// from the maximum force): urgent behaviours crowd out the rest.
        Priority = 1, "priority";
        /// Context steering: project the forces into an interest map and a danger map over
        /// direction slots, keep the least dangerous slots and head along the most interesting.
        Context = 2, "context";
    }
}

/// The vehicle model's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vehicle {
    /// Acceleration is the truncated steering force divided by the mass.
    pub mass: f32,
    /// The steering force is truncated to this length.
    pub max_force: f32,
    /// The velocity is truncated to this length (units per second).
    pub max_speed: f32,
    /// The radius of the agent's body, for collisions with agents, walls and circles.
    pub radius: f32,
}

/// Separation, alignment or cohesion: a neighbourhood of `radius`, seen through a cone of
/// `view_angle` degrees centred on the heading (360 sees all round).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    /// How far the rule looks.
    pub radius: f32,
    /// The width of the view cone in degrees.
    pub view_angle: f32,
}

/// Arrival, seeking and fleeing the current goal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goal {
    /// Inside this distance arrival slows down in proportion to the distance.
    pub slowing_radius: f32,
    /// Within this distance a goal counts as reached; agents then move on to the next goal,
    /// when the world has several.
    pub reached_radius: f32,
    /// Flee only reacts to a goal closer than this.
    pub panic_radius: f32,
}

/// Pursuit and evasion of other species.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chase {
    /// A predator sees prey this far away.
    pub hunt_radius: f32,
    /// Prey sees a predator this far away (the course's long-range separation rule).
    pub panic_radius: f32,
    /// The furthest ahead (seconds) a chaser or evader predicts the other's position.
    pub max_prediction: f32,
}

/// Wandering: a point on a circle ahead of the agent that moves by a random jitter each step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wander {
    /// How far ahead the circle's centre is.
    pub distance: f32,
    /// The circle's radius.
    pub radius: f32,
    /// How fast the point may move round the circle (radians per second, at most).
    pub jitter: f32,
}

/// Path following.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathFollow {
    /// How far along the path, beyond the nearest point, the agent aims: the course's
    /// "influenced by the following waypoint" that rounds the corners.
    pub look_ahead: f32,
    /// Seconds ahead the agent predicts its own position before finding the nearest point.
    pub predict: f32,
    /// Within this distance of the path the agent counts as on it and only looks ahead.
    pub radius: f32,
}

/// Wall following.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallFollow {
    /// The distance kept from the wall.
    pub offset: f32,
    /// Walls further than this are not followed.
    pub reach: f32,
}

/// Obstacle avoidance and containment probes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Probes {
    /// The avoidance cylinder is this long at rest...
    pub min_length: f32,
    /// ...plus this many seconds of travel at the current speed.
    pub look_ahead: f32,
    /// Containment's side probes point this many degrees off the heading.
    pub side_angle: f32,
}

/// Leader following.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leader {
    /// Followers arrive at a point this far behind the leader.
    pub behind: f32,
    /// The region in front of the leader that followers leave: this long...
    pub sight_length: f32,
    /// ...and this wide on each side of the leader's line.
    pub sight_width: f32,
}

/// Unaligned collision avoidance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unaligned {
    /// Neighbours further than this are not considered.
    pub radius: f32,
    /// Approaches further ahead than this many seconds are ignored.
    pub horizon: f32,
}

/// Everything that steers one species of agents. Defaults give a calm flock.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeciesParams {
    /// The species' name, shown on the page.
    pub name: String,
    /// Mass, speed and force limits, body radius.
    pub vehicle: Vehicle,
    /// One weight per [`Behaviour`], indexed by its value; 0 switches a behaviour off.
    pub weights: [f32; BEHAVIOURS],
    /// How the weighted forces combine.
    pub combine: Combine,
    /// Separation's neighbourhood.
    pub separation: Rule,
    /// Alignment's neighbourhood.
    pub alignment: Rule,
    /// Cohesion's neighbourhood.
    pub cohesion: Rule,
    /// Seek, flee and arrive.
    pub goal: Goal,
    /// Pursue and evade.
    pub chase: Chase,
    /// Wander.
    pub wander: Wander,
    /// Path following.
    pub path: PathFollow,
    /// Wall following.
    pub wall: WallFollow,
    /// Obstacle avoidance and containment.
    pub probes: Probes,
    /// Leader following.
    pub leader: Leader,
    /// Unaligned collision avoidance.
    pub unaligned: Unaligned,
    /// Direction slots in a context map (4 to [`MAX_SLOTS`]).
    pub slots: u32,
    /// At most this many neighbours are gathered per agent per step (the nearest), which
    /// bounds the cost of a crowd packed tighter than the radii expect.
    pub max_neighbours: u32,
    /// The species this one hunts (pursues), if any. Predator and prey neither separate nor
    /// collide: a hawk may reach a pigeon.
    pub prey: Option<u8>,
}

impl Default for SpeciesParams {
    fn default() -> Self {
        let mut weights = [0.0; BEHAVIOURS];
        // Separation strong enough, and cohesion weak enough, that a flock keeps its spacing
        // as it ages. With separation 1.6 and cohesion 0.8 flocks kept closing up for a
        // minute and more: after 3,600 steps of the flock scenario (2,000 agents) 93 % of the
        // boids overlapped a neighbour and each had 48 within 6 units; with these weights 19 %
        // and 12, while neighbours still head the same way (mean cosine 0.98).
        weights[Behaviour::Separation as usize] = 3.0;
        weights[Behaviour::Alignment as usize] = 1.0;
        weights[Behaviour::Cohesion as usize] = 0.6;
        weights[Behaviour::Wander as usize] = 0.3;
        weights[Behaviour::Containment as usize] = 3.0;
        Self {
            name: "boids".to_string(),
            // Mass 0.25 makes the "desired minus current velocity" forces close a gap in about a
            // quarter of a second, and at most 10 / 0.25 = 40 units/s^2.
            vehicle: Vehicle { mass: 0.25, max_force: 10.0, max_speed: 14.0, radius: 1.0 },
            weights,
            combine: Combine::WeightedSum,
            separation: Rule { radius: 4.0, view_angle: 300.0 },
            alignment: Rule { radius: 6.0, view_angle: 270.0 },
            cohesion: Rule { radius: 6.0, view_angle: 270.0 },
            goal: Goal { slowing_radius: 20.0, reached_radius: 4.0, panic_radius: 30.0 },
            chase: Chase { hunt_radius: 60.0, panic_radius: 25.0, max_prediction: 1.0 },
            wander: Wander { distance: 6.0, radius: 3.0, jitter: 4.0 },
            path: PathFollow { look_ahead: 8.0, predict: 0.3, radius: 2.0 },
            wall: WallFollow { offset: 3.0, reach: 10.0 },
            probes: Probes { min_length: 4.0, look_ahead: 0.8, side_angle: 35.0 },
            leader: Leader { behind: 6.0, sight_length: 14.0, sight_width: 3.0 },
            unaligned: Unaligned { radius: 12.0, horizon: 1.5 },
            slots: 12,
            max_neighbours: 64,
            prey: None,
        }
    }
}

/// One adjustable parameter: its name, range and where it lives.
#[derive(Clone, Copy)]
pub struct ParamSpec {
    /// The name used by the page and [`SpeciesParams::set`], e.g. `separation.radius`.
    pub name: &'static str,
    /// A heading to group the sliders under.
    pub group: &'static str,
    /// A short label for the slider.
    pub label: &'static str,
    /// The smallest value accepted.
    pub min: f32,
    /// The largest value accepted.
    pub max: f32,
    /// A sensible slider step.
    pub step: f32,
    /// True for whole numbers.
    pub integer: bool,
    /// What it does, in a sentence.
    pub help: &'static str,
    get: fn(&SpeciesParams) -> f32,
    set: fn(&mut SpeciesParams, f32),
}

impl fmt::Debug for ParamSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParamSpec")
            .field("name", &self.name)
            .field("min", &self.min)
            .field("max", &self.max)
            .finish_non_exhaustive()
    }
}

impl ParamSpec {
    /// The parameter's value in `params`.
    pub fn get(&self, params: &SpeciesParams) -> f32 {
        (self.get)(params)
    }
}

macro_rules! param {
    ($name:literal, $group:literal, $label:literal, $min:expr, $max:expr, $step:expr, $help:literal, |$p:ident| $field:expr) => {
        ParamSpec {
            name: $name,
            group: $group,
            label: $label,
            min: $min,
            max: $max,
            step: $step,
            integer: false,
            help: $help,
            get: |$p| $field,
            set: |$p, v| $field = v,
        }
    };
}

macro_rules! weight {
    ($name:literal, $label:literal, $behaviour:ident) => {
        ParamSpec {
            name: $name,
            group: "Weights",
            label: $label,
            min: 0.0,
            max: 20.0,
            step: 0.05,
            integer: false,
            help: "The weight of this behaviour's force; 0 switches it off.",
            get: |p| p.weights[Behaviour::$behaviour as usize],
            set: |p, v| p.weights[Behaviour::$behaviour as usize] = v,
        }
    };
}

/// The largest length parameter: well beyond any sensible radius, small enough that no query
/// covers an absurd number of grid cells.
pub const MAX_LENGTH: f32 = 500.0;

/// Every adjustable parameter of a species, with its range.
pub const PARAMS: &[ParamSpec] = &[
    param!("vehicle.mass", "Vehicle", "mass", 0.05, 100.0, 0.05, "Acceleration = steering force / mass.", |p| p
        .vehicle
        .mass),
    param!(
        "vehicle.max_force",
        "Vehicle",
        "max force",
        0.0,
        2000.0,
        1.0,
        "The steering force is truncated to this.",
        |p| p.vehicle.max_force
    ),
    param!(
        "vehicle.max_speed",
        "Vehicle",
        "max speed",
        0.0,
        200.0,
        0.5,
        "The velocity is truncated to this (units per second).",
        |p| p.vehicle.max_speed
    ),
    param!(
        "vehicle.radius",
        "Vehicle",
        "radius",
        0.1,
        20.0,
        0.1,
        "Body radius for sphere-sphere collisions and walls.",
        |p| p.vehicle.radius
    ),
    weight!("weight.seek", "seek", Seek),
    weight!("weight.flee", "flee", Flee),
    weight!("weight.arrive", "arrive", Arrive),
    weight!("weight.pursue", "pursue", Pursue),
    weight!("weight.evade", "evade", Evade),
    weight!("weight.wander", "wander", Wander),
    weight!("weight.path-following", "path following", PathFollowing),
    weight!("weight.wall-following", "wall following", WallFollowing),
    weight!("weight.containment", "containment", Containment),
    weight!("weight.obstacle-avoidance", "obstacle avoidance", ObstacleAvoidance),
    weight!("weight.separation", "separation", Separation),
    weight!("weight.alignment", "alignment", Alignment),
    weight!("weight.cohesion", "cohesion", Cohesion),
    weight!("weight.leader-following", "leader following", LeaderFollowing),
    weight!("weight.unaligned-avoidance", "unaligned avoidance", UnalignedAvoidance),
    param!(
        "separation.radius",
        "Separation",
        "radius",
        0.0,
        MAX_LENGTH,
        0.1,
        "Neighbours closer than this push the agent away.",
        |p| p.separation.radius
    ),
    param!(
        "separation.view_angle",
        "Separation",
        "view angle °",
        0.0,
        360.0,
        5.0,
        "Width of the view cone; 360 sees all round.",
        |p| p.separation.view_angle
    ),
    param!(
        "alignment.radius",
        "Alignment",
        "radius",
        0.0,
        MAX_LENGTH,
        0.1,
        "Neighbours closer than this are matched in heading.",
        |p| p.alignment.radius
    ),
    param!("alignment.view_angle", "Alignment", "view angle °", 0.0, 360.0, 5.0, "Width of the view cone.", |p| p
        .alignment
        .view_angle),
    param!(
        "cohesion.radius",
        "Cohesion",
        "radius",
        0.0,
        MAX_LENGTH,
        0.1,
        "Neighbours closer than this pull the agent to their centre.",
        |p| p.cohesion.radius
    ),
    param!("cohesion.view_angle", "Cohesion", "view angle °", 0.0, 360.0, 5.0, "Width of the view cone.", |p| p
        .cohesion
        .view_angle),
    param!(
        "goal.slowing_radius",
        "Goal",
        "slowing radius",
        0.0,
        MAX_LENGTH,
        0.5,
        "Arrive slows down inside this distance of the goal.",
        |p| p.goal.slowing_radius
    ),
    param!(
        "goal.reached_radius",
        "Goal",
        "reached radius",
        0.0,
        MAX_LENGTH,
        0.5,
        "A goal this close counts as reached.",
        |p| p.goal.reached_radius
    ),
    param!(
        "goal.panic_radius",
        "Goal",
        "flee radius",
        0.0,
        MAX_LENGTH,
        0.5,
        "Flee reacts to a goal closer than this.",
        |p| p.goal.panic_radius
    ),
    param!(
        "chase.hunt_radius",
        "Chase",
        "hunt radius",
        0.0,
        MAX_LENGTH,
        0.5,
        "A predator sees prey this far away.",
        |p| p.chase.hunt_radius
    ),
    param!(
        "chase.panic_radius",
        "Chase",
        "panic radius",
        0.0,
        MAX_LENGTH,
        0.5,
        "Prey sees a predator this far away.",
        |p| p.chase.panic_radius
    ),
    param!(
        "chase.max_prediction",
        "Chase",
        "prediction s",
        0.0,
        10.0,
        0.05,
        "The furthest ahead pursuit and evasion predict.",
        |p| p.chase.max_prediction
    ),
    param!("wander.distance", "Wander", "distance", 0.0, MAX_LENGTH, 0.1, "How far ahead the wander circle is.", |p| p
        .wander
        .distance),
    param!("wander.radius", "Wander", "radius", 0.0, MAX_LENGTH, 0.1, "The wander circle's radius.", |p| p
        .wander
        .radius),
    param!(
        "wander.jitter",
        "Wander",
        "jitter rad/s",
        0.0,
        50.0,
        0.1,
        "How fast the wander point moves round the circle.",
        |p| p.wander.jitter
    ),
    param!(
        "path.look_ahead",
        "Path",
        "look-ahead",
        0.0,
        MAX_LENGTH,
        0.5,
        "How far along the path beyond the nearest point to aim.",
        |p| p.path.look_ahead
    ),
    param!(
        "path.predict",
        "Path",
        "predict s",
        0.0,
        5.0,
        0.05,
        "Seconds ahead the agent predicts its position.",
        |p| p.path.predict
    ),
    param!(
        "path.radius",
        "Path",
        "radius",
        0.0,
        MAX_LENGTH,
        0.1,
        "Within this distance the agent counts as on the path.",
        |p| p.path.radius
    ),
    param!(
        "wall.offset",
        "Walls",
        "follow offset",
        0.0,
        MAX_LENGTH,
        0.1,
        "The distance wall following keeps from the wall.",
        |p| p.wall.offset
    ),
    param!("wall.reach", "Walls", "follow reach", 0.0, 100.0, 0.5, "Walls further than this are not followed.", |p| p
        .wall
        .reach),
    param!(
        "probes.min_length",
        "Walls",
        "probe length",
        0.0,
        MAX_LENGTH,
        0.5,
        "Avoidance and containment probes are this long at rest.",
        |p| p.probes.min_length
    ),
    param!(
        "probes.look_ahead",
        "Walls",
        "probe look-ahead s",
        0.0,
        10.0,
        0.05,
        "Probes grow by this many seconds of travel.",
        |p| p.probes.look_ahead
    ),
    param!(
        "probes.side_angle",
        "Walls",
        "side probe °",
        0.0,
        90.0,
        1.0,
        "Containment's side probes point this far off the heading.",
        |p| p.probes.side_angle
    ),
    param!(
        "leader.behind",
        "Leader",
        "behind",
        0.0,
        MAX_LENGTH,
        0.5,
        "Followers arrive this far behind the leader.",
        |p| p.leader.behind
    ),
    param!(
        "leader.sight_length",
        "Leader",
        "sight length",
        0.0,
        MAX_LENGTH,
        0.5,
        "Followers leave the region this far in front of the leader...",
        |p| p.leader.sight_length
    ),
    param!(
        "leader.sight_width",
        "Leader",
        "sight width",
        0.0,
        MAX_LENGTH,
        0.5,
        "...and this wide on each side of its line.",
        |p| p.leader.sight_width
    ),
    param!(
        "unaligned.radius",
        "Unaligned avoidance",
        "radius",
        0.0,
        MAX_LENGTH,
        0.5,
        "Neighbours further than this are ignored.",
        |p| p.unaligned.radius
    ),
    param!(
        "unaligned.horizon",
        "Unaligned avoidance",
        "horizon s",
        0.0,
        10.0,
        0.05,
        "Approaches further ahead than this are ignored.",
        |p| p.unaligned.horizon
    ),
    ParamSpec {
        name: "context.slots",
        group: "Context steering",
        label: "slots",
        min: 4.0,
        max: MAX_SLOTS as f32,
        step: 1.0,
        integer: true,
        help: "Direction slots in the interest and danger maps.",
        get: |p| p.slots as f32,
        set: |p, v| p.slots = v as u32,
    },
    ParamSpec {
        name: "max_neighbours",
        group: "Vehicle",
        label: "max neighbours",
        min: 1.0,
        max: 1000.0,
        step: 1.0,
        integer: true,
        help: "At most this many neighbours (the nearest) are gathered per agent per step.",
        get: |p| p.max_neighbours as f32,
        set: |p, v| p.max_neighbours = v as u32,
    },
];

/// Finds a parameter by name.
pub fn param(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.name == name)
}

/// Why a parameter, a count or a configuration was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    /// No parameter has this name.
    UnknownParam(String),
    /// The value is NaN or infinite.
    NotANumber {
        /// The parameter.
        name: &'static str,
    },
    /// The value is outside the parameter's range (from [`SpeciesParams::validate`], which
    /// does not clamp).
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: f32,
        /// The smallest accepted.
        min: f32,
        /// The largest accepted.
        max: f32,
    },
    /// More agents than [`MAX_AGENTS`].
    TooManyAgents(usize),
    /// A species index that does not exist.
    UnknownSpecies(usize),
    /// A time step that is not a positive number of at most 0.1 s.
    BadTimeStep(f32),
    /// A species hunts a species that does not exist, or itself.
    BadPrey(u8),
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownParam(name) => {
                let name: String = name.chars().take(40).collect();
                write!(f, "unknown parameter {name:?}")
            }
            Self::NotANumber { name } => write!(f, "{name} must be a finite number"),
            Self::OutOfRange { name, value, min, max } => {
                write!(f, "{name} must be from {min} to {max}, got {value}")
            }
            Self::TooManyAgents(n) => {
                write!(f, "{n} agents is over the limit of {MAX_AGENTS}")
            }
            Self::UnknownSpecies(s) => write!(f, "there is no species {s}"),
            Self::BadTimeStep(dt) => {
                write!(f, "the time step must be more than 0 and at most 0.1 s, got {dt}")
            }
            Self::BadPrey(s) => write!(f, "species {s} cannot be hunted here"),
        }
    }
}

impl std::error::Error for ParamError {}

impl SpeciesParams {
    /// A species with the default parameters and this name.
    pub fn named(name: &str) -> Self {
        Self { name: name.to_string(), ..Self::default() }
    }

    /// The weight of a behaviour.
    #[inline]
    pub fn weight(&self, b: Behaviour) -> f32 {
        self.weights[b as usize]
    }

    /// Sets the weight of a behaviour (clamped to 0..20; NaN becomes 0).
    #[must_use]
    pub fn with_weight(mut self, b: Behaviour, w: f32) -> Self {
        self.weights[b as usize] = if w.is_nan() { 0.0 } else { w.clamp(0.0, 20.0) };
        self
    }

    /// Sets a parameter by name. NaN and infinities are refused; a value outside the range is
    /// clamped into it and the returned note says so (`None` when the value was taken as is).
    ///
    /// ```
    /// use pathlab_core::boids::SpeciesParams;
    /// let mut p = SpeciesParams::default();
    /// assert_eq!(p.set("separation.radius", 5.0), Ok(None));
    /// assert!(p.set("separation.radius", f32::NAN).is_err());
    /// let note = p.set("separation.radius", -3.0).unwrap().unwrap();
    /// assert!(note.contains("clamped to 0"));
    /// assert_eq!(p.separation.radius, 0.0);
    /// ```
    pub fn set(&mut self, name: &str, value: f32) -> Result<Option<String>, ParamError> {
        let spec = param(name).ok_or_else(|| ParamError::UnknownParam(name.to_string()))?;
        if !value.is_finite() {
            return Err(ParamError::NotANumber { name: spec.name });
        }
        let mut v = value.clamp(spec.min, spec.max);
        if spec.integer {
            v = v.round();
        }
        (spec.set)(self, v);
        Ok((v != value).then(|| {
            format!("{} must be from {} to {}; {} was clamped to {}", spec.name, spec.min, spec.max, value, v)
        }))
    }

    /// A parameter's value by name.
    pub fn get(&self, name: &str) -> Result<f32, ParamError> {
        let spec = param(name).ok_or_else(|| ParamError::UnknownParam(name.to_string()))?;
        Ok(spec.get(self))
    }

    /// Checks every parameter is finite and in range (without clamping).
    pub fn validate(&self) -> Result<(), ParamError> {
        for spec in PARAMS {
            let v = spec.get(self);
            if !v.is_finite() {
                return Err(ParamError::NotANumber { name: spec.name });
            }
            if v < spec.min || v > spec.max {
                return Err(ParamError::OutOfRange { name: spec.name, value: v, min: spec.min, max: spec.max });
            }
        }
        Ok(())
    }

    /// The cosine of half of a view angle: a neighbour is seen when the cosine of its angle
    /// off the heading is at least this.
    #[inline]
    pub fn half_cos(view_angle_deg: f32) -> f32 {
        if view_angle_deg >= 360.0 {
            -2.0
        } else {
            (view_angle_deg.to_radians() * 0.5).cos()
        }
    }
}

/// Settings of the whole world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoidsParams {
    /// The fixed time step of one simulation step, in seconds (1/60 by default).
    pub dt: f32,
    /// Sphere-sphere collision response between agents (and with circles) on or off.
    pub collisions: bool,
    /// Path following runs along a Catmull-Rom spline through the A* path's cells instead
    /// of the straight segments between them.
    pub spline: bool,
}

impl Default for BoidsParams {
    fn default() -> Self {
        Self { dt: 1.0 / 60.0, collisions: true, spline: false }
    }
}

impl BoidsParams {
    /// Checks the time step.
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.dt.is_finite() && self.dt > 0.0 && self.dt <= 0.1 {
            Ok(())
        } else {
            Err(ParamError::BadTimeStep(self.dt))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_param_round_trips_and_defaults_are_valid() {
        let mut p = SpeciesParams::default();
        p.validate().unwrap();
        for spec in PARAMS {
            let mid = if spec.integer {
                f32::midpoint(spec.min, spec.max).round()
            } else {
                f32::midpoint(spec.min, spec.max)
            };
            assert_eq!(p.set(spec.name, mid), Ok(None), "{}", spec.name);
            assert_eq!(p.get(spec.name), Ok(mid));
        }
        p.validate().unwrap();
    }

    #[test]
    fn bad_values_are_refused_or_clamped_with_a_note() {
        let mut p = SpeciesParams::default();
        assert!(matches!(p.set("vehicle.max_speed", f32::INFINITY), Err(ParamError::NotANumber { .. })));
        assert!(matches!(p.set("nope", 1.0), Err(ParamError::UnknownParam(_))));
        let note = p.set("vehicle.max_speed", 1e30).unwrap().unwrap();
        assert!(note.contains("vehicle.max_speed"), "{note}");
        assert_eq!(p.vehicle.max_speed, 200.0);
        assert!(p.set("weight.seek", -1.0).unwrap().is_some());
        assert_eq!(p.weight(Behaviour::Seek), 0.0);
        p.vehicle.mass = -1.0;
        assert!(p.validate().is_err());
    }

    #[test]
    fn behaviour_table_is_complete() {
        assert_eq!(Behaviour::ALL.len(), BEHAVIOURS);
        for (i, b) in Behaviour::ALL.iter().enumerate() {
            assert_eq!(*b as usize, i);
            assert!(PRIORITY.contains(b));
            assert!(param(&format!("weight.{}", b.name())).is_some(), "{b}");
        }
    }
}
