//! Shared by the flow-field tests: random grids with terrain and goals, and the independent
//! truth (the oracle's Dijkstra from each goal, taking the minimum). A test takes it in with
//! `mod flow_support; mod oracle;`.

#![allow(dead_code)]

use pathlab_core::crowd::{FlowField, NO_DIRECTION, NO_GOAL};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, GROUND};
use proptest::prelude::*;

use super::oracle::{costs_to, same, walk};

/// A random problem: a grid with walls and terrain 1-4, a rule, a cost model, and 1-4
/// distinct goals (their cells forced open).
#[derive(Clone, Debug)]
pub struct Case {
    pub grid: Grid,
    pub rule: Diagonal,
    pub costs: Costs,
    pub goals: Vec<Point>,
}

pub fn case(max_side: usize, wall_percent: u32) -> impl Strategy<Value = Case> {
    (1..=max_side, 1..=max_side, 0..4usize, 0..2usize, 1..=4usize).prop_flat_map(move |(w, h, r, c, goals)| {
        let cells = proptest::collection::vec(
            (0..100u32, 1..=4u8).prop_map(move |(roll, t)| {
                if roll < wall_percent {
                    0
                } else if roll % 3 == 0 {
                    t
                } else {
                    1
                }
            }),
            w * h,
        );
        let goal_points = proptest::collection::vec((0..w, 0..h), goals);
        (cells, goal_points).prop_map(move |(cells, gp)| {
            let mut grid = Grid::from_cells(w, h, cells).unwrap();
            let mut goals: Vec<Point> = Vec::new();
            for (x, y) in gp {
                let p = Point::new(x, y);
                if !goals.contains(&p) {
                    grid.set(p, GROUND).unwrap();
                    goals.push(p);
                }
            }
            let rule = Diagonal::ALL[r];
            let costs = if c == 0 { Costs::Real } else { Costs::Integer };
            Case { grid, rule, costs, goals }
        })
    })
}

/// For every cell, the cheapest cost to each goal by the reference Dijkstra.
pub fn reference_per_goal(grid: &Grid, goals: &[Point], rule: Diagonal, costs: Costs) -> Vec<Vec<f64>> {
    goals.iter().map(|&g| costs_to(grid, g, rule, costs)).collect()
}

/// Checks the field against the reference for the standing goals `standing` (indices):
/// distances equal the minimum over those goals; the nearest goal is one of the cheapest;
/// walking the directions from every open cell is legal, reaches a standing goal, and costs
/// exactly the cell's distance; unreachable cells have no direction and no goal.
#[allow(clippy::needless_range_loop)] // `i` indexes the field and every goal's reference
pub fn check_field(field: &FlowField, standing: &[usize]) -> Result<(), String> {
    let grid = field.grid();
    let (rule, costs) = (field.rule(), field.costs());
    let per_goal = reference_per_goal(grid, field.goals(), rule, costs);
    for i in 0..grid.len() {
        let p = grid.point_at(i);
        let truth = standing.iter().map(|&g| per_goal[g][i]).fold(f64::INFINITY, f64::min);
        let d = field.distances()[i];
        if truth.is_infinite() {
            if d.is_finite() || field.directions()[i] != NO_DIRECTION || field.nearest_goal()[i] != NO_GOAL {
                return Err(format!(
                    "{p}: no goal reachable, but distance {d}, direction {}, goal {}",
                    field.directions()[i],
                    field.nearest_goal()[i]
                ));
            }
            continue;
        }
        if !same(d, truth) {
            return Err(format!("{p}: distance {d}, reference {truth}"));
        }
        let g = usize::from(field.nearest_goal()[i]);
        if !standing.contains(&g) || !same(per_goal[g][i], truth) {
            return Err(format!("{p}: nearest goal {g} is not a cheapest standing goal"));
        }
        let route = field.route(p).map_err(|e| e.to_string())?;
        let end = *route.last().unwrap();
        let reached = field.goals().iter().position(|&q| q == end);
        match reached {
            Some(r) if standing.contains(&r) => {}
            _ => return Err(format!("{p}: the directions end at {end}, not a standing goal")),
        }
        let walked = walk(grid, rule, costs, p, end, &route)?;
        if !same(walked, d) {
            return Err(format!("{p}: walking the directions costs {walked}, distance says {d}"));
        }
    }
    Ok(())
}
