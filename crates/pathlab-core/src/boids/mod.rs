//! The boids: Reynolds' steering behaviours, flocks and species, walls from the path-finder's
//! grid. One name for one thing: the boid page (`boids.html`), its wasm class [`Boids`] and
//! this module's simulation, also [`Boids`]. (Two names stay as they were because pages and
//! tests use them: the wasm package `pathlab-world`, and the page's `window.boidlab` hook.)
//!
//! - [`vec2`]: the 2D vector type.
//! - [`params`]: the vehicle model's constants and every behaviour's parameters, in documented
//!   structs with ranges ([`PARAMS`]); choices as enums ([`Behaviour`], [`Combine`]).
//! - [`behaviours`]: Reynolds' behaviours as pure functions of one agent and what it sees.
//! - [`combine`]: weighted sum, priority (truncated running sum) and context steering.
//! - [`lanes`]: four numbers worked on together, for the inner loop over neighbours.
//! - [`spatial`]: the uniform grid, rebuilt every step by a counting sort, that answers the
//!   neighbour queries.
//! - [`walls`]: the wall grid in world units: ray casts, nearest wall, sliding moves.
//! - [`path`]: A* paths turned into polylines or splines for path following.
//! - [`update`]: phase one of the step for one agent, a pure function: the behaviours'
//!   forces, their combination and the vehicle model.
//! - [`sim`]: [`Boids`], the agents in structure-of-arrays form and the two-phase step, with
//!   the neighbour queries ([`sim::neighbours`]) and the step's output as bytes
//!   ([`sim::motion`]).
//! - [`metrics`]: what the page measures of a world at a step (mean speed, polarisation,
//!   spread), for its metrics table and plots.
//! - [`scenario`]: the page's presets.
//! - [`rng`]: the seeded generator that makes every run reproducible.
//!
//! ```
//! use pathlab_core::boids::{Behaviour, Combine, Scenario};
//! let mut boids = Scenario::HawksAndPigeons.build(300, 42).unwrap();
//! boids.set_combine(0, Combine::Priority).unwrap();
//! boids.set_param(0, "weight.evade", 5.0).unwrap();
//! boids.advance(10);
//! let view = boids.inspect(0).unwrap();
//! assert!(view.forces.active[Behaviour::Separation as usize]);
//! ```

pub mod behaviours;
pub mod combine;
pub mod lanes;
pub mod metrics;
pub mod params;
pub mod path;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod spatial;
pub mod update;
pub mod vec2;
pub mod walls;

pub use params::{
    Behaviour, BoidsParams, Combine, ParamError, ParamSpec, SpeciesParams, MAX_AGENTS, MAX_SPECIES, PARAMS,
};
pub use rng::Pcg32;
pub use scenario::Scenario;
pub use sim::{Boids, Inspection, MotionError};
pub use spatial::SpatialGrid;
pub use vec2::Vec2;
pub use walls::Walls;
