//! Local repairs of a flow field give exactly the field a fresh build would: after destroying
//! goals (every cell turns to the next nearest standing goal, checked against the reference
//! Dijkstra), after breaking walls (the Dijkstra wave from the broken cell) and after adding
//! walls (resetting the cells whose routes crossed the new wall). The course's cheap wall
//! break never claims a route cheaper than the truth, and `differences` names exactly the
//! cells it left too dear. Destroying every goal, and bad cells, give the documented errors.

mod flow_support;
mod oracle;

use flow_support::{case, check_field, Case};
use pathlab_core::crowd::{FlowError, FlowField, NO_DIRECTION, NO_GOAL};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use proptest::prelude::*;

/// A fresh build on the field's current grid with only the standing goals.
fn fresh(field: &FlowField) -> FlowField {
    let standing: Vec<Point> =
        (0..field.goals().len()).filter(|&g| field.is_standing(g)).map(|g| field.goals()[g]).collect();
    // Callers keep a goal standing.
    FlowField::new(field.grid().clone(), &standing, field.rule(), field.costs()).unwrap()
}

fn standing(field: &FlowField) -> Vec<usize> {
    (0..field.goals().len()).filter(|&g| field.is_standing(g)).collect()
}

/// Distances equal a fresh build's bit for bit, and the field passes the reference checks.
fn same_as_fresh(field: &FlowField, what: &str, c: &Case) -> Result<(), TestCaseError> {
    let f = fresh(field);
    for i in 0..field.grid().len() {
        prop_assert!(
            field.distances()[i].to_bits() == f.distances()[i].to_bits(),
            "{what}: {} repaired {} fresh {}\n{c:?}",
            field.grid().point_at(i),
            field.distances()[i],
            f.distances()[i]
        );
    }
    if let Err(e) = check_field(field, &standing(field)) {
        prop_assert!(false, "{what}: {e}\n{c:?}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn destroying_goals_turns_cells_to_the_next_nearest(c in case(12, 25), order in proptest::collection::vec(0..4usize, 1..4)) {
        let mut field = FlowField::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        for k in order {
            let g = k % c.goals.len();
            if !field.is_standing(g) || field.standing_goals() == 1 {
                continue;
            }
            field.destroy_goal(g).unwrap();
            same_as_fresh(&field, &format!("after destroying goal {g}"), &c)?;
        }
    }

    #[test]
    fn breaking_walls_matches_a_fresh_build(c in case(12, 40), picks in proptest::collection::vec(any::<proptest::sample::Index>(), 1..5)) {
        let mut field = FlowField::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        for pick in picks {
            let walls: Vec<usize> = (0..field.grid().len()).filter(|&i| field.grid().cells()[i] == WALL).collect();
            if walls.is_empty() {
                break;
            }
            let p = field.grid().point_at(walls[pick.index(walls.len())]);
            field.break_wall(p).unwrap();
            same_as_fresh(&field, &format!("after breaking {p}"), &c)?;
        }
    }

    #[test]
    fn adding_walls_matches_a_fresh_build(c in case(12, 15), picks in proptest::collection::vec(any::<proptest::sample::Index>(), 1..5)) {
        let mut field = FlowField::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        for pick in picks {
            let open: Vec<usize> = (0..field.grid().len())
                .filter(|&i| field.grid().cells()[i] != WALL && !c.goals.contains(&field.grid().point_at(i)))
                .collect();
            if open.is_empty() {
                break;
            }
            let p = field.grid().point_at(open[pick.index(open.len())]);
            field.add_wall(p).unwrap();
            same_as_fresh(&field, &format!("after walling {p}"), &c)?;
        }
    }

    #[test]
    fn mixed_edits_and_destroyed_goals_match_a_fresh_build(c in case(10, 30), edits in proptest::collection::vec((0..3u8, any::<proptest::sample::Index>()), 1..8)) {
        let mut field = FlowField::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        for (kind, pick) in edits {
            let n = field.grid().len();
            let i = pick.index(n);
            let p = field.grid().point_at(i);
            let what = match kind {
                0 if field.grid().cells()[i] == WALL => { field.break_wall(p).unwrap(); format!("break {p}") }
                0 | 1 if !c.goals.contains(&p) => { field.add_wall(p).unwrap(); format!("wall {p}") }
                _ => {
                    let g = pick.index(c.goals.len());
                    if !field.is_standing(g) || field.standing_goals() == 1 { continue; }
                    field.destroy_goal(g).unwrap();
                    format!("destroy {g}")
                }
            };
            same_as_fresh(&field, &what, &c)?;
        }
    }

    #[test]
    fn the_cheap_wall_break_never_underestimates_and_its_differences_are_named(c in case(12, 40), pick in any::<proptest::sample::Index>()) {
        let mut field = FlowField::new(c.grid.clone(), &c.goals, c.rule, c.costs).unwrap();
        let walls: Vec<usize> = (0..c.grid.len()).filter(|&i| c.grid.cells()[i] == WALL).collect();
        prop_assume!(!walls.is_empty());
        let p = c.grid.point_at(walls[pick.index(walls.len())]);
        let mut exact = field.clone();
        exact.break_wall(p).unwrap();
        let changed = field.break_wall_cheap(p).unwrap();
        prop_assert!(changed.iter().all(|&i| field.distances()[i] < f64::INFINITY));
        let differ = field.differences(&exact);
        for i in 0..c.grid.len() {
            let (cheap, truth) = (field.distances()[i], exact.distances()[i]);
            let near = oracle::same(cheap, truth) || cheap == truth;
            prop_assert!(cheap >= truth || near, "{}: cheap {cheap} below the truth {truth}", c.grid.point_at(i));
            prop_assert_eq!(differ.contains(&i), !near);
            // Every cell still walks a legal route to a goal, costing at most its stated
            // distance (less when a cell on the way was improved under it).
            if cheap.is_finite() {
                let route = field.route(c.grid.point_at(i)).unwrap();
                let end = *route.last().unwrap();
                let walked = oracle::walk(&c.grid_after(p), c.rule, c.costs, c.grid.point_at(i), end, &route);
                prop_assert!(walked.is_ok_and(|w| w <= cheap || oracle::same(w, cheap)));
            }
        }
    }
}

trait AfterBreak {
    fn grid_after(&self, p: Point) -> Grid;
}

impl AfterBreak for Case {
    fn grid_after(&self, p: Point) -> Grid {
        let mut g = self.grid.clone();
        g.set(p, 1).unwrap();
        g
    }
}

#[test]
fn the_cheap_break_misses_cells_beyond_the_broken_wall() {
    // A wall row with one gap at the far right; the goal above the middle. Breaking the
    // middle of the wall: the cheap update fixes the broken cell and the row under it, but
    // the cells two rows down keep their long way round.
    #[rustfmt::skip]
    let cells = vec![
        1, 1, 1, 1, 1,
        0, 0, 0, 0, 1,
        1, 1, 1, 1, 1,
        1, 1, 1, 1, 1,
    ];
    let grid = Grid::from_cells(5, 4, cells).unwrap();
    let mut field = FlowField::new(grid, &[Point::new(2, 0)], Diagonal::Never, Costs::Integer).unwrap();
    let mut exact = field.clone();
    exact.break_wall(Point::new(2, 1)).unwrap();
    let changed = field.break_wall_cheap(Point::new(2, 1)).unwrap();
    // (2,1), then (2,2) through it and (3,2) through (2,2); (1,2) came before (2,2) in the
    // scan, so it keeps its old route.
    assert_eq!(changed, vec![7, 12, 13]);
    assert_eq!(field.distances()[12], exact.distances()[12]);
    let differ = field.differences(&exact);
    assert!(differ.contains(&11) && differ.contains(&16), "(1,2) and (1,3) keep their long routes: {differ:?}");
    assert!(!differ.contains(&12));
}

#[test]
fn destroying_every_goal_leaves_nowhere_to_go() {
    let grid = Grid::new(3, 3).unwrap();
    let goals = [Point::new(0, 0), Point::new(2, 2)];
    let mut field = FlowField::new(grid, &goals, Diagonal::AtMostOneBlocked, Costs::Real).unwrap();
    field.destroy_goal(1).unwrap();
    assert!(field.nearest_goal().iter().all(|&g| g == 0));
    field.destroy_goal(0).unwrap();
    assert_eq!(field.standing_goals(), 0);
    assert!(field.distances().iter().all(|d| d.is_infinite()));
    assert!(field.directions().iter().all(|&d| d == NO_DIRECTION));
    assert!(field.nearest_goal().iter().all(|&g| g == NO_GOAL));
    assert_eq!(field.route(Point::new(1, 1)), Err(FlowError::AllGoalsDestroyed));
    assert_eq!(field.destroy_goal(0), Err(FlowError::GoalAlreadyDestroyed { index: 0 }));
    assert_eq!(field.destroy_goal(2), Err(FlowError::NoSuchGoal { index: 2, count: 2 }));
    // A wall broken afterwards changes nothing: there is still nowhere to go.
    field.add_wall(Point::new(1, 1)).unwrap();
    field.break_wall(Point::new(1, 1)).unwrap();
    assert!(field.distances().iter().all(|d| d.is_infinite()));
}

#[test]
fn bad_cells_for_walls_are_named() {
    let grid = Grid::from_cells(2, 1, vec![1, 1]).unwrap();
    let mut field = FlowField::new(grid, &[Point::new(0, 0)], Diagonal::Never, Costs::Real).unwrap();
    assert_eq!(field.break_wall(Point::new(1, 0)), Err(FlowError::NotAWall { at: Point::new(1, 0) }));
    assert_eq!(
        field.break_wall(Point::new(5, 0)),
        Err(FlowError::CellOutOfRange { at: Point::new(5, 0), width: 2, height: 1 })
    );
    assert_eq!(field.add_wall(Point::new(0, 0)), Err(FlowError::WallOnGoal { index: 0, at: Point::new(0, 0) }));
    assert_eq!(field.add_wall(Point::new(1, 0)), Ok(1));
    assert_eq!(field.add_wall(Point::new(1, 0)), Ok(0));
    assert_eq!(field.distances()[1], f64::INFINITY);
    // A destroyed goal's cell may be walled; its own field is then refused, naming it.
    let grid = Grid::new(2, 1).unwrap();
    let mut field = FlowField::new(grid, &[Point::new(0, 0), Point::new(1, 0)], Diagonal::Never, Costs::Real).unwrap();
    field.destroy_goal(1).unwrap();
    field.add_wall(Point::new(1, 0)).unwrap();
    assert_eq!(field.goal_field(1), Err(FlowError::GoalOnWall { index: 1, at: Point::new(1, 0) }));
    assert_eq!(field.goal_field(0).map(|f| f.distances().to_vec()), Ok(vec![0.0, f64::INFINITY]));
}
