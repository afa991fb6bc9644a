//! Crowd navigation: fields that guide many agents at once.
//!
//! [`flow`] holds the embedded map data of the course's "flowing river": for a few goal cells
//! (bunkers), the cost from every cell to its nearest goal, which goal that is, and the first
//! move to make. Agents anywhere on the map read one byte to know where to step; destroying a
//! bunker or a wall updates the field locally instead of searching again.

pub mod flow;

pub use flow::{FlowBuild, FlowError, FlowField, NO_DIRECTION, NO_GOAL};
