//! Fog of war (`SearchConfig::fog`): D* Lite, LRTA* and RTA* start knowing no walls and learn
//! each wall when it comes within their sensor radius. Checked on random grids (every diagonal rule, both cost
//! models, terrain, sensor radii 1 to 4) against a record kept here, step by step, of the
//! cells within the sensor's box of every cell the agent has stood on:
//!
//! - after every step the walls in its plan's map are exactly the true walls it has had in
//!   range (so its plan and moves use no wall it has not sensed, and miss none it has), and its
//!   record of what it has seen (`Stepper::sensed`) is that box union, saying truly free or wall;
//! - every move is legal on the true map (the oracle's reading of the rules), and the cost
//!   reported is the oracle's sum along the walk;
//! - it reaches the goal exactly when the oracle's Dijkstra finds it reachable.
//!
//! And the registry's claim: only the algorithms that take the fog setting change under it.

mod cases;
mod oracle;

use cases::{case_with, see, terrain_from, Case, TERRAIN};
use oracle::{check_move, open, optimum, same};
use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
use pathlab_core::search::dstar_lite::DStarLite;
use pathlab_core::search::lrta::Lrta;
use pathlab_core::search::{build, Algorithm, SearchConfig, Setting, Stepper, ALGORITHMS};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    #[test]
    fn fogged_dstar_lite_plans_only_with_walls_it_has_seen_and_arrives_when_it_can(
        case in case_with(1..=11, 0..=55, terrain_from(&TERRAIN)),
        sensor in 1u32..=4,
    ) {
        let c = SearchConfig::new(Algorithm::DStarLite).diagonal(case.rule).costs(case.costs).sensor(sensor).fog(true);
        let grid = &case.grid;
        let Ok(mut s) = DStarLite::new(grid.clone(), case.start, case.goal, c) else {
            // Refused (the default estimate overestimates under these moves): not fog's business.
            return Ok(());
        };
        let (walked, at) = walk_beside_record(&mut s, &case, sensor, 100_000, |s, seen| {
            // What the plan knows is exactly what was in range.
            for (i, &in_range) in seen.iter().enumerate() {
                let p = grid.point_at(i);
                let wall = grid.cells()[i] == WALL;
                prop_assert_eq!(s.belief().cells()[i] == WALL, wall && in_range, "cell {} in its plan's map", p);
                let known = s.sight().unwrap()[i];
                prop_assert_eq!(known != 0, in_range, "cell {} recorded as seen", p);
                if known != 0 {
                    prop_assert_eq!(known == 2, !open(grid, p.x as i64, p.y as i64), "cell {} recorded as {}", p, known);
                }
            }
            Ok(())
        })?;
        prop_assert!(Stepper::status(&s).is_finished());
        let reachable = optimum(grid, case.start, case.goal, case.rule, case.costs).is_some();
        prop_assert_eq!(Stepper::cost(&s).is_some(), reachable);
        if let Some(cost) = Stepper::cost(&s) {
            prop_assert!(same(cost, walked), "cost {cost}, the oracle sums {walked}");
            prop_assert_eq!(at, case.goal);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    /// LRTA* and RTA* under fog, with look-aheads deeper and shallower than the sensor: the
    /// same three checks.
    #[test]
    fn fogged_real_time_agents_look_ahead_only_with_walls_they_have_seen(
        case in case_with(1..=10, 0..=55, terrain_from(&TERRAIN)),
        sensor in 1u32..=3,
        lookahead in 1u32..=4,
        rta in any::<bool>(),
    ) {
        let algorithm = if rta { Algorithm::Rta } else { Algorithm::Lrta };
        let c = SearchConfig::new(algorithm).diagonal(case.rule).costs(case.costs).sensor(sensor).lookahead(lookahead).fog(true);
        let grid = &case.grid;
        let mut s = Lrta::new(grid.clone(), case.start, case.goal, c).unwrap();
        let (walked, _) = walk_beside_record(&mut s, &case, sensor, 200_000, |s, seen| {
            let belief = s.belief().unwrap();
            for (i, &in_range) in seen.iter().enumerate() {
                let wall = grid.cells()[i] == WALL;
                prop_assert_eq!(belief.cells()[i] == WALL, wall && in_range, "cell {} in its map", grid.point_at(i));
                prop_assert_eq!(Stepper::sensed(s).unwrap()[i] != 0, in_range);
            }
            Ok(())
        })?;
        prop_assert!(Stepper::status(&s).is_finished());
        prop_assert!(Stepper::gave_up(&s).is_none(), "{:?}", Stepper::gave_up(&s));
        let reachable = optimum(grid, case.start, case.goal, case.rule, case.costs).is_some();
        prop_assert_eq!(Stepper::cost(&s).is_some(), reachable);
        if let Some(cost) = Stepper::cost(&s) {
            prop_assert!(same(cost, walked), "cost {cost}, the oracle sums {walked}");
        }
    }
}

/// Steps `s` to its end (at most `limit` steps) beside a record, kept here, of the cells
/// within the sensor's box of every cell the agent has stood on. Before every step and after
/// the last, `check(s, record)` compares what the agent knows with the record. Every move
/// must be legal on the true map. Returns the oracle's cost along the walk and where the
/// agent stopped.
fn walk_beside_record<S: Stepper>(
    s: &mut S,
    case: &Case,
    sensor: u32,
    limit: usize,
    mut check: impl FnMut(&S, &[bool]) -> Result<(), TestCaseError>,
) -> Result<(f64, Point), TestCaseError> {
    let (grid, r) = (&case.grid, sensor as usize);
    let mut seen = vec![false; grid.len()];
    see(grid, &mut seen, case.start, r);
    let (mut at, mut walked) = (case.start, 0.0);
    for _ in 0..limit {
        check(s, &seen)?;
        if Stepper::status(s).is_finished() {
            break;
        }
        Stepper::step(s);
        let now = Stepper::agent(s).unwrap().at;
        if now != at {
            walked += check_move(grid, case.rule, case.costs, at, now).map_err(TestCaseError::fail)?;
            at = now;
            see(grid, &mut seen, at, r);
        }
    }
    Ok((walked, at))
}

/// A cup between start and goal that the fogged agent cannot see from the start: it walks
/// straight down into it, learns its bottom and walks out again, where the agent without fog
/// plans round it from the start (10 moves, by either side). Both arrive.
#[test]
fn fog_sends_the_agent_into_a_cup_it_could_not_see() {
    // . . . S . . .
    // . # . . . # .
    // . # . . . # .
    // . # # # # # .
    // . . . G . . .
    let mut grid = Grid::new(7, 5).unwrap();
    for (x, y) in [(1, 1), (1, 2), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (5, 2), (5, 1)] {
        grid.set(Point::new(x, y), WALL).unwrap();
    }
    let (start, goal) = (Point::new(3, 0), Point::new(3, 4));
    let plain = SearchConfig::new(Algorithm::DStarLite).diagonal(Diagonal::Never).sensor(1);
    let mut clear = DStarLite::new(grid.clone(), start, goal, plain).unwrap();
    let mut fogged = DStarLite::new(grid, start, goal, plain.fog(true)).unwrap();
    Stepper::run(&mut clear);
    Stepper::run(&mut fogged);
    assert_eq!(Stepper::cost(&clear), Some(10.0));
    // Down to (3,2) at least and back up: 4 moves more at the least.
    assert!(Stepper::cost(&fogged).unwrap() >= 14.0, "{:?}", Stepper::cost(&fogged));
    // Without fog it never discovers anything; with fog it learns the cup as it walks.
    assert!(clear.repair().is_none());
    assert!(fogged.repair().is_some());
    assert!(clear.sight().is_none());
}

/// Fog changes the run of exactly the algorithms whose registry row takes it: the others (A*
/// and every search that is not a fogged agent) plan on the whole map.
#[test]
fn fog_changes_exactly_the_algorithms_that_take_it() {
    let mut grid = Grid::new(9, 9).unwrap();
    for y in 0..8 {
        grid.set(Point::new(4, y), WALL).unwrap();
    }
    let (start, goal) = (Point::new(1, 1), Point::new(7, 1));
    for row in ALGORITHMS.iter().filter(|r| r.on_page) {
        let run = |fog: bool| {
            // A look-ahead deeper than the sensor: the real-time agents then plan past what they see.
            let config = SearchConfig::new(row.algorithm).sensor(2).lookahead(4).fog(fog);
            let mut s = build(grid.clone(), start, goal, config).unwrap();
            s.advance(50_000);
            (s.steps(), s.expanded(), s.cost().map(f64::to_bits), s.path_indices().to_vec(), s.sensed().is_some())
        };
        let (plain, fogged) = (run(false), run(true));
        assert_eq!(plain != fogged, row.takes(Setting::Fog), "{}", row.algorithm);
    }
}
