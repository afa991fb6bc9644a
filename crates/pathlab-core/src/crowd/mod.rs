//! Crowd navigation: many agents, each with its own goal, moving through one another
//! without collisions.
//!
//! - [`avoid`]: local collision avoidance by velocity obstacles (VO, reciprocal VO and ORCA),
//!   as a pure per-agent function and as a seeded [`avoid::Crowd`] simulation with scenarios
//!   and metrics.

pub mod avoid;
