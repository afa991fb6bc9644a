//! Every algorithm, heuristic, weight, diagonal rule and cost model on the shared hand-drawn
//! mazes (`common::mazes`), checked against an independent reference Dijkstra and BFS and
//! against costs worked out by hand.

mod common;
mod oracle;

use common::{all_configs, describe, hand_cost, mazes, Maze};
use oracle::{costs_from, hops_from, optimum, same, walk};
use pathlab_core::grid::{Costs, Diagonal};
use pathlab_core::search::{
    astar, bfs, dfs, dijkstra, greedy, Algorithm, CellState, Search, Status, StepEvent, Stepper,
};

/// The reference itself agrees with every hand-worked optimum in the fixture, so the
/// reference is not trusted blindly.
#[test]
fn reference_dijkstra_matches_the_hand_worked_optima() {
    let mut checked = 0;
    for maze in mazes() {
        for &(rule, hand) in maze.hand {
            for &costs in Costs::ALL {
                let got =
                    costs_from(&maze.grid, maze.start, rule, costs)[maze.goal.y * maze.grid.width() + maze.goal.x];
                let got = got.is_finite().then_some(got);
                let want = hand.map(|h| hand_cost(costs, h));
                match (got, want) {
                    (None, None) => {}
                    (Some(g), Some(w)) if same(g, w) => {}
                    _ => panic!("{}: {rule} {costs}: reference {got:?}, by hand {want:?}", maze.name),
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 50, "only {checked} hand values checked");
}

/// Runs one configuration on one maze and checks everything that must hold of its answer.
fn check(maze: &Maze, config: pathlab_core::search::SearchConfig) {
    let what = format!("{} / {}", maze.name, describe(&config));
    let grid = &maze.grid;
    let w = grid.width();
    let goal_i = maze.goal.y * w + maze.goal.x;
    let dist = costs_from(grid, maze.start, config.diagonal, config.costs);
    let hops = hops_from(grid, maze.start, config.diagonal);
    let optimum = dist[goal_i].is_finite().then_some(dist[goal_i]);
    let reachable = dist.iter().filter(|d| d.is_finite()).count();

    let mut search = Search::new(grid.clone(), maze.start, maze.goal, config).unwrap();
    let status = search.run();
    let expanded = search.expanded();
    assert!(expanded <= reachable, "{what}: expanded {expanded} of only {reachable} reachable cells");

    let Some(optimum) = optimum else {
        assert_eq!(status, Status::NoPath, "{what}: the reference finds no path");
        assert_eq!(search.cost(), None, "{what}");
        assert!(search.path().is_none(), "{what}");
        assert!(search.path_indices().is_empty(), "{what}");
        // With no path every reachable cell is expanded exactly once (closed nodes are never
        // reopened, and the goal is never popped).
        assert_eq!(expanded, reachable, "{what}: a failed search expands the whole component");
        assert_eq!(search.step(), StepEvent::Finished, "{what}");
        return;
    };

    assert_eq!(status, Status::Found, "{what}: the reference finds cost {optimum}");
    let path = search.path().unwrap_or_else(|| panic!("{what}: found but no path"));
    let recomputed = walk(grid, config.diagonal, config.costs, maze.start, maze.goal, &path.points)
        .unwrap_or_else(|e| panic!("{what}: illegal path {:?}: {e}", path.points));
    assert!(same(recomputed, path.cost), "{what}: path cost {} but its moves sum to {recomputed}", path.cost);
    assert_eq!(search.cost(), Some(path.cost), "{what}");
    assert!(path.cost >= optimum - 1e-9 * optimum.max(1.0), "{what}: cost {} below the optimum {optimum}", path.cost);

    // The path buffer, the points and the state buffer agree.
    let indices: Vec<usize> = path.points.iter().map(|p| p.y * w + p.x).collect();
    assert_eq!(search.path_indices().iter().map(|&i| i as usize).collect::<Vec<_>>(), indices, "{what}");
    let mut sorted = indices.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), indices.len(), "{what}: the path visits a cell twice");
    #[allow(clippy::naive_bytecount)]
    let painted = search.states().iter().filter(|&&s| s == CellState::Path as u8).count();
    assert_eq!(painted, indices.len(), "{what}: path cells in the state buffer");
    for &i in &indices {
        assert_eq!(search.states()[i], CellState::Path as u8, "{what}");
    }

    if maze.start == maze.goal {
        assert_eq!(path.points, vec![maze.start], "{what}");
        assert_eq!(path.cost, 0.0, "{what}");
        assert_eq!((search.steps(), expanded), (1, 0), "{what}: start == goal takes one step, no expansion");
    }

    if config.is_optimal() {
        assert!(same(path.cost, optimum), "{what}: optimal config cost {} != reference {optimum}", path.cost);
    }
    if config.algorithm == Algorithm::AStar && config.heuristic.is_admissible(config.diagonal, config.costs) {
        let bound = config.weight * optimum;
        assert!(path.cost <= bound + 1e-9 * bound.max(1.0), "{what}: cost {} over weight x optimum {bound}", path.cost);
    }
    if config.algorithm == Algorithm::Bfs {
        assert_eq!(Some(path.points.len() - 1), hops[goal_i], "{what}: BFS must use the fewest moves");
        let terrain_free = grid.cells().iter().all(|&c| c <= 1);
        if config.diagonal == Diagonal::Never && terrain_free {
            assert!(same(path.cost, optimum), "{what}: 4-connected BFS without terrain is optimal");
        }
    }
}

#[test]
fn every_configuration_gives_a_legal_path_of_the_right_cost_on_every_maze() {
    let configs = all_configs();
    assert_eq!(configs.len(), 4 * 2 * (3 + 5 + 5 * 3));
    let mut runs = 0;
    for maze in mazes() {
        for &config in &configs {
            check(&maze, config);
            runs += 1;
        }
    }
    assert!(runs > 1500);
}

/// The one-call entry points (`astar::astar` ...) give the same answer as the stepper and,
/// where optimal, the reference's cost (real costs).
#[test]
fn one_call_entry_points_agree_with_the_reference() {
    use pathlab_core::heuristic::Heuristic;
    for maze in mazes() {
        for &rule in Diagonal::ALL {
            let optimum = optimum(&maze.grid, maze.start, maze.goal, rule, Costs::Real);
            let (g, s, t) = (&maze.grid, maze.start, maze.goal);
            let what = format!("{} {rule}", maze.name);
            let d = dijkstra::dijkstra(g, s, t, rule).unwrap();
            assert_eq!(d.is_some(), optimum.is_some(), "{what}: dijkstra");
            if let (Some(d), Some(o)) = (&d, optimum) {
                assert!(same(d.cost, o), "{what}: dijkstra {} vs {o}", d.cost);
            }
            let a = astar::astar(g, s, t, Heuristic::default_for(rule), rule).unwrap();
            assert_eq!(a.as_ref().map(|p| p.cost).is_some(), optimum.is_some(), "{what}: astar");
            if let (Some(a), Some(o)) = (&a, optimum) {
                assert!(same(a.cost, o), "{what}: astar {} vs {o}", a.cost);
            }
            for path in [
                bfs::bfs(g, s, t, rule).unwrap(),
                dfs::dfs(g, s, t, rule).unwrap(),
                greedy::greedy(g, s, t, Heuristic::Octile, rule).unwrap(),
            ] {
                assert_eq!(path.is_some(), optimum.is_some(), "{what}");
                if let Some(p) = path {
                    let c = walk(g, rule, Costs::Real, s, t, &p.points).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert!(same(c, p.cost), "{what}");
                }
            }
        }
    }
}

/// Setting up a search with an end on a wall or outside the grid, or a bad weight, is refused.
#[test]
fn bad_ends_and_weights_are_refused() {
    use pathlab_core::grid::Point;
    use pathlab_core::search::SearchConfig;
    let maze = &mazes()[1]; // corridor maze: (0,1) is a wall
    let ok = SearchConfig::new(Algorithm::AStar);
    let wall = Point::new(0, 1);
    let outside = Point::new(9, 0);
    for (s, g) in [(wall, maze.goal), (maze.start, wall), (outside, maze.goal), (maze.start, outside)] {
        assert!(Search::new(maze.grid.clone(), s, g, ok).is_err(), "{s} -> {g} accepted");
    }
    let err = Search::new(maze.grid.clone(), wall, maze.goal, ok).unwrap_err().to_string();
    assert!(err.contains("start") && err.contains("wall"), "{err}");
    for weight in [0.5, 0.0, -1.0, f64::NAN, f64::INFINITY, 100.5] {
        let r = Search::new(maze.grid.clone(), maze.start, maze.goal, ok.weight(weight));
        assert!(r.is_err(), "weight {weight} accepted");
    }
}
