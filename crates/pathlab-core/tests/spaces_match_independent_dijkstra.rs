//! The generic searches on every space, checked against the independent truth of
//! `space_support`: a Dijkstra (and a breadth-first hop count) over arcs read off each space's
//! rules by the test itself, never by pathlab's neighbour or cost code.
//!
//! - Random graphs (directed, undirected and mixed; integer, real and length-priced costs,
//!   0-cost edges; disconnected parts, self-loops, parallel edges; scattered or stacked node
//!   places): Dijkstra and A* with every admissible graph heuristic give the optimum and find a
//!   path exactly when one exists, and the estimate never exceeds the cost left; every
//!   algorithm, heuristic and weight returns a path along existing arcs whose costs add up to
//!   the reported cost, never below the optimum, within weight x optimum for A* with an
//!   admissible estimate, and with the fewest edges for BFS.
//! - Hex grids (both layouts, walls, terrain): costs match the independent BFS (ground only)
//!   or Dijkstra (terrain), paths step between neighbours of the offset tables, and the hex
//!   distance never exceeds the cost left.
//! - Teleports: the teleport-aware estimate is admissible and consistent on every arc, and A*
//!   with it is optimal; a hand-made map where the plain estimate makes A* miss the optimum.
//! - Slopes: costs both ways match the independent Dijkstra; a hand-made climb that costs
//!   more up than down.
//! - The square grid as a space gives exactly what `Search::new` gives.
//!
//! Every search here is run step by step and fails as soon as an expanded node becomes its own
//! parent, so that a self-loop bug is reported instead of hanging in the walk up the parents.

mod cases;
mod oracle;
mod space_support;

use oracle::*;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, Search, SearchConfig, SpaceStepper};
use pathlab_core::space::{Graph, HexGrid, Slopes, Space, SquareGrid, Teleport, TeleportHeuristic, Teleports};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use space_support::*;

// ---------------------------------------------------------------------------------------------
// Random graphs
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10000))]

    /// Dijkstra and A* with Euclidean, Chebyshev and zero estimates find the independent
    /// optimum (and no path exactly when there is none), and each estimate stays at or below
    /// the cost left from every node.
    #[test]
    fn graph_dijkstra_and_admissible_a_star_find_the_independent_optimum(case in graph_case()) {
        let arcs = case.arcs();
        let opt = reached(&dijkstra(&arcs, case.start), case.goal);
        let to_goal = dijkstra(&reversed(&arcs), case.goal);
        let dijkstra_config = SearchConfig::new(Algorithm::Dijkstra);
        let found = run_and_check(case.graph(Heuristic::Euclidean), case.start, case.goal, dijkstra_config, &arcs, opt)?;
        if let (Some((cost, _)), Some(opt)) = (found, opt) {
            prop_assert!(same(cost, opt), "Dijkstra: {} but the optimum is {}", cost, opt);
        }
        for h in admissible_graph_heuristics() {
            let graph = case.graph(h);
            for (u, &left) in to_goal.iter().enumerate() {
                let estimate = graph.estimate(graph.at(u as u32), graph.at(case.goal as u32));
                prop_assert!(at_most(estimate, left), "{}: h({}) = {} > the cost left {}", h, u, estimate, left);
            }
            let config = SearchConfig::new(Algorithm::AStar).weight(1.0);
            if let (Some((cost, _)), Some(opt)) = (run_and_check(graph, case.start, case.goal, config, &arcs, opt)?, opt) {
                prop_assert!(same(cost, opt), "A* {}: {} but the optimum is {}", h, cost, opt);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// BFS, DFS, Dijkstra, greedy with every estimate and A* with every estimate at weights 1,
    /// 1.5 and 3: legal paths whose arcs add up to the reported cost, never below the optimum;
    /// weighted A* with an admissible estimate within weight x optimum; BFS with the fewest
    /// edges.
    #[test]
    fn graph_every_search_returns_a_path_along_existing_arcs_costing_what_it_reports(case in graph_case()) {
        let arcs = case.arcs();
        let opt = reached(&dijkstra(&arcs, case.start), case.goal);
        let fewest = hops(&arcs, case.start)[case.goal];
        let mut configs = vec![
            (Heuristic::Euclidean, SearchConfig::new(Algorithm::Bfs)),
            (Heuristic::Euclidean, SearchConfig::new(Algorithm::Dfs)),
            (Heuristic::Euclidean, SearchConfig::new(Algorithm::Dijkstra)),
        ];
        for &h in Heuristic::ALL {
            configs.push((h, SearchConfig::new(Algorithm::Greedy)));
            for w in [1.0, 1.5, 3.0] {
                configs.push((h, SearchConfig::new(Algorithm::AStar).weight(w)));
            }
        }
        for (h, config) in configs {
            let found = run_and_check(case.graph(h), case.start, case.goal, config, &arcs, opt)?;
            let (Some((cost, path)), Some(opt)) = (found, opt) else { continue };
            if config.algorithm == Algorithm::AStar && Graph::is_admissible(h) {
                let w = config.weight;
                prop_assert!(at_most(cost, w * opt), "A* {} weight {}: {} > {} x {}", h, w, cost, w, opt);
            }
            if config.algorithm == Algorithm::Bfs {
                prop_assert_eq!(Some(path.len() - 1), fewest, "BFS took {:?}", path);
            }
        }
    }
}

/// A self-loop is an edge like any other: no search takes it, and no search is upset by it.
#[test]
fn a_self_loop_on_the_start_is_never_taken() {
    for algorithm in [Algorithm::Bfs, Algorithm::Dfs, Algorithm::Dijkstra, Algorithm::Greedy, Algorithm::AStar] {
        let mut g = Graph::new(true);
        let a = g.add_node("A", 0.0, 0.0).unwrap();
        let b = g.add_node("B", 1.0, 0.0).unwrap();
        g.add_edge(a, a, 1.0, true).unwrap();
        g.add_edge(a, b, 1.0, true).unwrap();
        let mut s = Search::on(g, a, b, SearchConfig::new(algorithm)).unwrap();
        finish(&mut s, usize::MAX).unwrap();
        assert_eq!(s.cost(), Some(1.0), "{algorithm:?}");
        assert_eq!(s.path_indices(), [a, b], "{algorithm:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Grids: this file's own reading of cells and moves
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Hex grids
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// On ground only, Dijkstra, A* and BFS cost the independent hop count; with terrain,
    /// Dijkstra and A* cost the independent optimum; every algorithm steps between offset
    /// neighbours; the hex distance never exceeds the cost left from any open cell.
    #[test]
    fn hex_searches_match_the_independent_offset_neighbours(case in hex_case()) {
        let arcs = hex_arcs(&case.grid, case.layout);
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let opt = reached(&dijkstra(&arcs, s), g);
        let fewest = hops(&arcs, s)[g];
        let ground = case.grid.cells().iter().all(|&c| c <= 1);
        let space = |heuristic| HexGrid { heuristic, ..HexGrid::new(case.grid.clone(), case.layout) };
        let configs = [
            (Heuristic::Zero, Algorithm::Dijkstra),
            (Heuristic::Manhattan, Algorithm::AStar),
            (Heuristic::Zero, Algorithm::AStar),
            (Heuristic::Zero, Algorithm::Bfs),
            (Heuristic::Zero, Algorithm::Dfs),
            (Heuristic::Manhattan, Algorithm::Greedy),
        ];
        for (h, algorithm) in configs {
            let found = run_and_check(space(h), s, g, SearchConfig::new(algorithm), &arcs, opt)?;
            prop_assert_eq!(found.is_some(), fewest.is_some());
            let Some((cost, path)) = found else { continue };
            if algorithm == Algorithm::Bfs {
                prop_assert_eq!(Some(path.len() - 1), fewest, "BFS took {:?}", path);
            }
            let optimal = matches!(algorithm, Algorithm::Dijkstra | Algorithm::AStar);
            if ground && (optimal || algorithm == Algorithm::Bfs) {
                prop_assert_eq!(Some(cost), fewest.map(|n| n as f64), "{:?} on ground", algorithm);
            } else if optimal {
                prop_assert!(same(cost, opt.unwrap()), "{:?}: {} but the optimum is {:?}", algorithm, cost, opt);
            }
        }
        let to_goal = dijkstra(&reversed(&arcs), g);
        let hex = space(Heuristic::Manhattan);
        for (u, &left) in to_goal.iter().enumerate() {
            if hex.is_open(u as u32) {
                let estimate = hex.estimate(hex.at(u as u32), hex.at(g as u32));
                prop_assert!(at_most(estimate, left), "h({}) = {} > the cost left {}", u, estimate, left);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Teleports
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// The teleport-aware estimate (aimed at the goal) is at most the independent exact cost
    /// left from every open cell and drops by at most the cost of every arc (grid move or
    /// teleport); A* with it and Dijkstra find the optimum; A* with the plain estimate still
    /// returns a legal path no cheaper than the optimum.
    #[test]
    fn teleport_estimate_is_admissible_and_consistent_and_a_star_with_it_is_optimal(case in teleport_case()) {
        let arcs = case.arcs();
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let to_goal = dijkstra(&reversed(&arcs), g);
        let opt = reached(&to_goal, s);
        let mut space = case.space(TeleportHeuristic::Teleports);
        space.aim(g as u32);
        let goal_at = space.at(g as u32);
        let h = |u: usize| space.estimate(space.at(u as u32), goal_at);
        for (u, (&exact, out)) in to_goal.iter().zip(&arcs).enumerate() {
            if !space.is_open(u as u32) {
                continue;
            }
            prop_assert!(at_most(h(u), exact), "h({}) = {} > the exact {}", case.grid.point_at(u), h(u), exact);
            for &(v, c) in out {
                prop_assert!(
                    at_most(h(u), c + h(v)),
                    "h({}) = {} > {} + h({}) = {}",
                    case.grid.point_at(u), h(u), c, case.grid.point_at(v), h(v)
                );
            }
        }
        for (which, algorithm) in [
            (TeleportHeuristic::Teleports, Algorithm::AStar),
            (TeleportHeuristic::Teleports, Algorithm::Dijkstra),
            (TeleportHeuristic::Plain, Algorithm::AStar),
        ] {
            let found = run_and_check(case.space(which), s, g, SearchConfig::new(algorithm), &arcs, opt)?;
            if let (Some((cost, _)), Some(opt), TeleportHeuristic::Teleports) = (found, opt, which) {
                prop_assert!(same(cost, opt), "{:?}: {} but the optimum is {}", algorithm, cost, opt);
            }
        }
    }
}

/// Start at (1,2) in an open 20 x 5 field, goal at (19,2); a teleport from (0,2), just behind
/// the start, lands at (18,2), beside the goal, for 1. The way through it costs 1 + 1 + 1 = 3;
/// the plain Manhattan estimate rates the teleport's cell 19 from the goal, so plain A* walks
/// the 18 steps straight there and stops; the teleport-aware estimate sees the 3.
#[test]
fn a_teleport_beside_the_start_misleads_plain_a_star_but_not_the_teleport_estimate() {
    let base = SquareGrid::new(Grid::new(20, 5).unwrap(), Diagonal::Never, Costs::Real, Heuristic::Manhattan);
    let jump = Teleport { from: Point::new(0, 2), to: Point::new(18, 2), cost: 1.0, both_ways: false };
    let (start, goal) = (base.grid.index(Point::new(1, 2)) as u32, base.grid.index(Point::new(19, 2)) as u32);
    let cost = |which, algorithm| {
        let space = Teleports::new(base.clone(), vec![jump], which).unwrap();
        let mut s = Search::on(space, start, goal, SearchConfig::new(algorithm)).unwrap();
        finish(&mut s, usize::MAX).unwrap();
        s.cost().unwrap()
    };
    let dijkstra = cost(TeleportHeuristic::Plain, Algorithm::Dijkstra);
    let plain = cost(TeleportHeuristic::Plain, Algorithm::AStar);
    let aware = cost(TeleportHeuristic::Teleports, Algorithm::AStar);
    assert_eq!(dijkstra, 3.0);
    assert_eq!(plain, 18.0, "plain A* walks straight to the goal");
    assert!(plain > dijkstra);
    assert_eq!(aware, dijkstra);
}

// ---------------------------------------------------------------------------------------------
// Slopes
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// From A to B and from B to A, Dijkstra and A* (the rule's own estimate and Euclidean)
    /// cost the independent optimum over the test's own moves and climbs.
    #[test]
    fn slope_costs_both_ways_match_the_independent_dijkstra(case in slope_case()) {
        let arcs = case.arcs();
        let (a, b) = (case.grid.index(case.a), case.grid.index(case.b));
        for (from, to) in [(a, b), (b, a)] {
            let opt = reached(&dijkstra(&arcs, from), to);
            for (h, algorithm) in [
                (Heuristic::Zero, Algorithm::Dijkstra),
                (Heuristic::default_for(case.rule), Algorithm::AStar),
                (Heuristic::Euclidean, Algorithm::AStar),
            ] {
                let found = run_and_check(case.space(h), from, to, SearchConfig::new(algorithm), &arcs, opt)?;
                if let (Some((cost, _)), Some(opt)) = (found, opt) {
                    prop_assert!(same(cost, opt), "{:?} {}: {} but the optimum is {}", algorithm, h, cost, opt);
                }
            }
        }
    }
}

/// Heights 0, 4, 8 along a row, 2 per unit climbed, 0.5 per unit descended: up the row costs
/// 2 steps + 8 x 2 = 18, down it 2 + 8 x 0.5 = 6.
#[test]
fn a_slope_costs_more_up_than_down() {
    let base = SquareGrid::new(Grid::new(3, 1).unwrap(), Diagonal::Never, Costs::Real, Heuristic::Manhattan);
    let hill = Slopes::new(base, vec![0, 4, 8], 2.0, 0.5).unwrap();
    let cost = |from, to, algorithm| {
        let mut s = Search::on(hill.clone(), from, to, SearchConfig::new(algorithm)).unwrap();
        finish(&mut s, usize::MAX).unwrap();
        s.cost().unwrap()
    };
    for algorithm in [Algorithm::Dijkstra, Algorithm::AStar] {
        assert_eq!(cost(0, 2, algorithm), 18.0, "{algorithm:?} up");
        assert_eq!(cost(2, 0, algorithm), 6.0, "{algorithm:?} down");
    }
}

// ---------------------------------------------------------------------------------------------
// The square grid as a space
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// `Search::on(SquareGrid)` with the rules on the space and `Search::new` with the rules
    /// in the settings give the same status, cost, path, steps and expansions.
    #[test]
    fn square_grid_space_matches_the_grid_search(
        (grid, start, goal) in (1usize..=16, 1usize..=16, 0u32..=40, any::<bool>())
            .prop_flat_map(|(w, h, density, terrain)| (Just((w, h, density, terrain)), cell_rolls(w, h), any::<Index>(), any::<Index>()))
            .prop_map(|((w, h, density, terrain), rolls, s, g)| grid_from(w, h, density, terrain, &rolls, s, g)),
        rule in select(Diagonal::ALL.to_vec()),
        costs in select(Costs::ALL.to_vec()),
        algorithm in select(vec![Algorithm::Bfs, Algorithm::Dfs, Algorithm::Dijkstra, Algorithm::Greedy, Algorithm::AStar]),
        heuristic in select(Heuristic::ALL.to_vec()),
        weight in select(vec![1.0, 1.5, 3.0]),
    ) {
        let plain = SearchConfig::new(algorithm).weight(weight);
        let space = SquareGrid::new(grid.clone(), rule, costs, heuristic);
        let (s, g) = (grid.index(start) as u32, grid.index(goal) as u32);
        let mut on = Search::on(space, s, g, plain).unwrap();
        let mut new = Search::new(grid, start, goal, plain.heuristic(heuristic).diagonal(rule).costs(costs)).unwrap();
        prop_assert_eq!(finish(&mut on, usize::MAX)?, new.run());
        prop_assert_eq!(on.cost(), new.cost());
        prop_assert_eq!(on.path_indices(), new.path_indices());
        prop_assert_eq!(on.steps(), new.steps());
        prop_assert_eq!(on.expanded(), new.expanded());
    }
}

// ---------------------------------------------------------------------------------------------
// Predecessors: the edges seen from their other end
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Graphs (directed, undirected and mixed): predecessors are the reversed arcs.
    #[test]
    fn graph_predecessors_are_the_reversed_arcs(case in graph_case()) {
        check_predecessors(&case.graph(Heuristic::Euclidean), &case.arcs())?;
    }

    /// Hex grids: predecessors are the offset neighbours, each at the cost of entering the node.
    #[test]
    fn hex_predecessors_are_the_reversed_arcs(case in hex_case()) {
        check_predecessors(&HexGrid::new(case.grid.clone(), case.layout), &hex_arcs(&case.grid, case.layout))?;
    }

    /// Square grids with teleports: grid moves and teleports, both reversed.
    #[test]
    fn teleport_predecessors_are_the_reversed_arcs(case in teleport_case()) {
        check_predecessors(&case.space(TeleportHeuristic::Teleports), &case.arcs())?;
    }

    /// Slopes: the climb of an edge into a node is priced from the predecessor's height.
    #[test]
    fn slope_predecessors_are_the_reversed_arcs(case in slope_case()) {
        check_predecessors(&case.space(Heuristic::Zero), &case.arcs())?;
    }

    /// The teleport-aware estimate towards a cell it was not aimed at (as a backward search
    /// uses it, towards the start) is still at most the exact cost left and consistent.
    #[test]
    fn teleport_estimate_towards_another_cell_is_admissible_and_consistent(case in teleport_case()) {
        let arcs = case.arcs();
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let mut space = case.space(TeleportHeuristic::Teleports);
        space.aim(g as u32);
        let to_start = dijkstra(&reversed(&arcs), s);
        let start_at = space.at(s as u32);
        let h = |u: usize| space.estimate(space.at(u as u32), start_at);
        for (u, (&exact, out)) in to_start.iter().zip(&arcs).enumerate() {
            if !space.is_open(u as u32) {
                continue;
            }
            prop_assert!(at_most(h(u), exact), "h({}) = {} > the exact {}", case.grid.point_at(u), h(u), exact);
            for &(v, c) in out {
                prop_assert!(at_most(h(u), c + h(v)), "h({}) = {} > {} + h({})", u, h(u), c, v);
            }
        }
    }
}
