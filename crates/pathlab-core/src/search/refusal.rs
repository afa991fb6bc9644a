//! Why an algorithm cannot run on a square grid, asked without building it: the grid page marks
//! the algorithms its map and settings refuse in its algorithm menu, and building every one of
//! them (JPS+'s tables, HPA*'s clusters, a node table each) on a 2048 x 2048 map after each
//! edit would cost far too much.
//!
//! [`refusal`] runs the same checks the builders run ([`build`](super::build) and
//! [`build_linked`](super::build_linked)), through the same functions, so it gives the same
//! message: the settings' ranges, JPS's and JPS+'s diagonal rules and terrain, the any-angle
//! searches' terrain, LPA*'s and D* Lite's weight and estimate, and the algorithms that need a
//! plain square grid when teleports or slopes are on the map. What refuses every algorithm
//! alike (an end on a wall or outside the grid) is not its business, nor are the costs of
//! teleports and slopes, which only building them checks.

use super::{incremental, jps, jps_plus, theta, Algorithm, GridLinks, SearchConfig, SearchError};
use crate::grid::Grid;

/// Why `config.algorithm` cannot run on `grid` with `links`, or `None` when it can; the error
/// is the one [`build_linked`](super::build_linked) gives. Nothing is built: it checks the
/// settings' ranges, JPS's and JPS+'s diagonal rules and terrain, the any-angle searches'
/// terrain, LPA*'s and D* Lite's weight and estimate, and the algorithms that need a plain
/// square grid when teleports or slopes are on the map. An end on a wall (which refuses every
/// algorithm alike) and the costs of teleports and slopes are left to the builder.
///
/// ```
/// use pathlab_core::grid::Grid;
/// use pathlab_core::search::{refusal, Algorithm, GridLinks, SearchConfig};
/// let mut grid = Grid::new(5, 3).unwrap();
/// assert!(refusal(&grid, &SearchConfig::new(Algorithm::Jps), &GridLinks::None).is_none());
/// grid.set(pathlab_core::grid::Point::new(2, 1), 3).unwrap(); // mud
/// let why = refusal(&grid, &SearchConfig::new(Algorithm::Jps), &GridLinks::None).unwrap();
/// assert!(why.to_string().contains("terrain"));
/// assert!(refusal(&grid, &SearchConfig::new(Algorithm::AStar), &GridLinks::None).is_none());
/// ```
pub fn refusal(grid: &Grid, config: &SearchConfig, links: &GridLinks) -> Option<SearchError> {
    if let Err(e) = config.validate() {
        return Some(e);
    }
    let algorithm = config.algorithm;
    if *links != GridLinks::None {
        if let Some(why) = algorithm.square_grid_only() {
            return Some(links_refused(algorithm, why));
        }
    }
    let checked = match algorithm {
        Algorithm::Jps => jps::check_rules(jps::NAME, grid, config),
        Algorithm::JpsPlus | Algorithm::JpsPlusPruned => jps::check_rules(jps_plus::NAME, grid, config),
        Algorithm::Theta | Algorithm::LazyTheta | Algorithm::AStarSmoothed => theta::check_no_terrain(grid, algorithm),
        Algorithm::Lpa | Algorithm::DStarLite => incremental::check_config(config, algorithm),
        Algorithm::Navmesh | Algorithm::Visibility => Err(not_a_cell_stepper(algorithm)),
        // The rest run on every grid their registry row allows (its square-grid-only reason is
        // checked above), so a new algorithm needs no line here unless it has rules of its own.
        _ => Ok(()),
    };
    checked.err()
}

/// The refusal of an algorithm that needs a plain square grid, on a grid with teleports or
/// slopes; `why` is its registry row's reason.
pub(crate) fn links_refused(algorithm: Algorithm, why: &str) -> SearchError {
    SearchError::Unsupported(format!("{algorithm} cannot run with teleports or slopes: {why}"))
}

/// The refusal of the two searches whose nodes are not cells (off the page).
pub(crate) fn not_a_cell_stepper(algorithm: Algorithm) -> SearchError {
    SearchError::Unsupported(
        if algorithm == Algorithm::Navmesh {
            "navmesh searches polygons, not cells: build a space::navmesh::NavMesh and run search::navmesh::NavmeshSearch"
        } else {
            "visibility is not a stepper: run it to the end with `visibility::shortest_path` \
             (`pathlab scen --algo visibility`), or step A* on the corner graph (`--space corners`)"
        }
        .into(),
    )
}
