//! A flow field's distances, nearest goals and directions agree with the independent reference
//! Dijkstra (run from each goal, taking the minimum) on random grids with terrain, every
//! diagonal rule, both cost models and several goals; the animation stepper ends in the same
//! field; bad inputs give the documented errors and nothing panics.

mod flow_support;
mod oracle;

use flow_support::{case, check_field};
use pathlab_core::crowd::{FlowBuild, FlowError, FlowField, NO_DIRECTION, NO_GOAL};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn directions_walk_to_the_nearest_goal_at_the_reference_cost(c in case(12, 25)) {
        let field = FlowField::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        let all: Vec<usize> = (0..c.goals.len()).collect();
        if let Err(e) = check_field(&field, &all) {
            prop_assert!(false, "{e}\n{:?}", c);
        }
    }

    #[test]
    fn each_goals_own_field_is_the_reference_dijkstra_from_it(c in case(12, 25), pick in any::<proptest::sample::Index>()) {
        let field = FlowField::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        let g = pick.index(c.goals.len());
        let own = field.goal_field(g).unwrap();
        prop_assert_eq!(own.goals(), &[c.goals[g]]);
        if let Err(e) = check_field(&own, &[0]) {
            prop_assert!(false, "goal {g}: {e}\n{:?}", c);
        }
        // The combined field is the cheapest of the goals' own fields.
        let fields: Vec<FlowField> = (0..c.goals.len()).map(|k| field.goal_field(k).unwrap()).collect();
        for i in 0..c.grid.len() {
            let best = fields.iter().map(|f| f.distances()[i]).fold(f64::INFINITY, f64::min);
            prop_assert_eq!(field.distances()[i].to_bits(), best.to_bits());
        }
    }

    #[test]
    fn stepping_the_build_ends_in_the_one_shot_field(c in case(12, 25), chunk in 1..20usize, layers in any::<bool>()) {
        let field = FlowField::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        let mut build = FlowBuild::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        let mut last = 0.0f64;
        loop {
            // Settled cells come in order of distance, and frontier cells are never settled.
            let frontier = build.frontier();
            prop_assert!(frontier.iter().all(|&i| !build.settled()[i]));
            let n = if layers { build.step_layer() } else { build.step(chunk) };
            if n == 0 {
                break;
            }
            let settled_max = (0..c.grid.len())
                .filter(|&i| build.settled()[i])
                .map(|i| build.field().distances()[i])
                .fold(0.0, f64::max);
            prop_assert!(settled_max >= last);
            last = settled_max;
        }
        prop_assert!(build.is_done());
        prop_assert_eq!(build.settled_count(), field.distances().iter().filter(|d| d.is_finite()).count());
        prop_assert_eq!(build.finish(), field);
    }

    #[test]
    fn walls_everywhere_and_tiny_grids_never_panic(c in case(4, 90), corner in 0..4usize) {
        let (w, h) = (c.grid.width(), c.grid.height());
        let corner = [Point::new(0, 0), Point::new(w - 1, 0), Point::new(0, h - 1), Point::new(w - 1, h - 1)][corner];
        let mut goals = c.goals.clone();
        goals.retain(|&g| g != corner);
        goals.insert(0, corner);
        match FlowField::new(c.grid.clone(), &goals, c.rule, c.costs) {
            Ok(field) => {
                let all: Vec<usize> = (0..goals.len()).collect();
                if let Err(e) = check_field(&field, &all) {
                    prop_assert!(false, "{e}");
                }
            }
            Err(e) => prop_assert_eq!(e, FlowError::GoalOnWall { index: 0, at: corner }),
        }
    }
}

#[test]
fn a_walled_off_cell_keeps_no_direction_and_infinite_distance() {
    // The goal on the left; the right column is cut off by a wall column.
    let grid = Grid::from_cells(3, 2, vec![1, 0, 1, 1, 0, 1]).unwrap();
    let field = FlowField::new(grid, &[Point::new(0, 0)], Diagonal::Always, Costs::Integer).unwrap();
    assert_eq!(field.distances()[2], f64::INFINITY);
    assert_eq!(field.directions(), &[NO_DIRECTION, NO_DIRECTION, NO_DIRECTION, 0, NO_DIRECTION, NO_DIRECTION]);
    assert_eq!(field.nearest_goal(), &[0, NO_GOAL, NO_GOAL, 0, NO_GOAL, NO_GOAL]);
    assert_eq!(field.distances()[3], 10.0);
    assert_eq!(field.route(Point::new(2, 1)), Err(FlowError::Unreachable { from: Point::new(2, 1) }));
    assert_eq!(field.route(Point::new(0, 1)), Ok(vec![Point::new(0, 1), Point::new(0, 0)]));
}

#[test]
fn the_course_figure_two_bunkers_send_an_agent_to_the_next_bunker_when_one_falls() {
    // Five by five open squares; bunker 1 at (3,0) and bunker 2 at (0,3) in the course's
    // (x, y) with y growing northward. Here y grows downward, so (3,0) is row 4 and (0,3) row 1.
    let grid = Grid::new(5, 5).unwrap();
    let b1 = Point::new(3, 4);
    let b2 = Point::new(0, 1);
    let mut field = FlowField::new(grid, &[b1, b2], Diagonal::Never, Costs::Integer).unwrap();
    let agent = field.grid().index(Point::new(1, 1)); // the course's (1,3)
    assert_eq!(field.nearest_goal()[agent], 1);
    assert_eq!(field.directions()[agent], 3, "west");
    field.destroy_goal(1).unwrap();
    assert_eq!(field.nearest_goal()[agent], 0);
    // Towards bunker 1, two squares east and three down: east and south tie, and the
    // first in the order N, E, S, W wins.
    assert_eq!(field.directions()[agent], 1, "east, on a cheapest route to bunker 1");
    assert_eq!(field.distances()[agent], 50.0);
}

#[test]
fn bad_goals_are_named() {
    let grid = Grid::from_cells(2, 2, vec![1, WALL, 1, 1]).unwrap();
    let rule = Diagonal::NoCornerCutting;
    let make = |goals: &[Point]| FlowField::new(grid.clone(), goals, rule, Costs::Real).map(|_| ());
    assert_eq!(make(&[]), Err(FlowError::NoGoals));
    assert_eq!(
        make(&[Point::new(0, 0), Point::new(1, 0)]),
        Err(FlowError::GoalOnWall { index: 1, at: Point::new(1, 0) })
    );
    assert_eq!(
        make(&[Point::new(2, 0)]),
        Err(FlowError::GoalOutOfRange { index: 0, at: Point::new(2, 0), width: 2, height: 2 })
    );
    assert_eq!(
        make(&[Point::new(0, 1), Point::new(0, 1)]),
        Err(FlowError::DuplicateGoal { first: 0, second: 1, at: Point::new(0, 1) })
    );
    let message = FlowError::GoalOnWall { index: 1, at: Point::new(1, 0) }.to_string();
    assert!(message.contains("goal 1") && message.contains("(1,0)"), "{message}");
}

#[test]
fn a_one_cell_grid_is_its_own_goal() {
    let grid = Grid::new(1, 1).unwrap();
    let field = FlowField::new(grid, &[Point::new(0, 0)], Diagonal::Always, Costs::Real).unwrap();
    assert_eq!(field.distances(), &[0.0]);
    assert_eq!(field.directions(), &[NO_DIRECTION]);
    assert_eq!(field.nearest_goal(), &[0]);
}
