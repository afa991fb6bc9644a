//! Crowd navigation: many agents, each with its own goal, moving through one another
//! without collisions, guided by fields computed once for all of them.
//!
//! - [`flow`] holds the embedded map data of the course's "flowing river": for a few goal
//!   cells (bunkers), the cost from every cell to its nearest goal, which goal that is, and
//!   the first move to make. Agents anywhere on the map read one byte to know where to step;
//!   destroying a bunker or a wall updates the field locally instead of searching again.
//! - [`avoid`]: local collision avoidance by velocity obstacles (VO, reciprocal VO and ORCA),
//!   as a pure per-agent function and as a seeded [`avoid::Crowd`] simulation with scenarios
//!   and metrics.
//! - [`flow_flock`]: the same field under other techniques: a flock whose alignment comes
//!   from it, squads led by it, the course's two-bunker figure with its neighbour order, and
//!   a field baked in advance for a known destructible wall.
//! - [`ants`]: an ant colony finding food by pheromone trails, against a flow-field guide.
//! - [`avoid_scene`]: the avoidance scenes (circle, corridor, crossing, blocks, bottleneck)
//!   for the page, with walls and routes around them.
//! - [`street`]: a street crossing with a traffic light, cars and pedestrians run by small
//!   finite-state brains.
//! - [`street_plan`]: the street's path-finders: the grids pedestrians and cars plan on, one
//!   plan as a record, and [`street_compare`]: planning time against agent count and the
//!   nodes each plan expands, per path-finder.
//! - [`scene`]: the one interface through which the page runs, draws and measures every
//!   crowd demonstration.
//! - [`squad`]: fixed group motion, a squad following one A* path in a line, wedge or column
//!   formation, with members that find their own way back when cut off; the book's rigid
//!   block (ranks by files, barycentre and yaw) beside it, and several squads at once.

pub mod ants;
pub mod avoid;
pub mod avoid_scene;
pub mod flow;
pub mod flow_flock;
pub mod flow_scene;
pub mod scene;
pub mod squad;
pub mod street;
pub mod street_compare;
pub mod street_plan;

pub use flow::{FlowBuild, FlowError, FlowField, NeighbourOrder, NO_DIRECTION, NO_GOAL};
