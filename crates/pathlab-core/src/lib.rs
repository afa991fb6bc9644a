//! Pathlab's core: grids, map formats and searches you can step through.
//!
//! Pure Rust with no WebAssembly dependencies: the browser layer and the CLI both build on it.
//!
//! ```
//! use pathlab_core::formats::course;
//! use pathlab_core::search::{Algorithm, Search, SearchConfig, Stepper};
//! use pathlab_core::grid::{Costs, Diagonal};
//! use pathlab_core::heuristic::Heuristic;
//! let map = course::parse("3\n3\nA00\n010\n00B\n").unwrap();
//! let config = SearchConfig::new(Algorithm::AStar)
//!     .diagonal(Diagonal::Never)
//!     .heuristic(Heuristic::Manhattan)
//!     .costs(Costs::Integer);
//! let mut search = Search::new(map.grid, map.start.unwrap(), map.goal.unwrap(), config).unwrap();
//! search.run();
//! assert_eq!(search.cost(), Some(40.0));
//! ```

pub mod boids;
pub mod crowd;
pub mod formats;
pub mod generate;
pub mod grid;
pub mod heuristic;
pub mod heuristic_check;
pub mod line;
pub mod search;
pub mod space;
