//! The search skeleton (`algo=template`) set as each classic search expands exactly the same
//! nodes in exactly the same order as the named algorithm, with the same tie rules (the
//! documented ones: first in for BFS, last in for DFS, first opened among equal g for
//! Dijkstra and equal h for greedy best-first, higher g then first opened among equal f for
//! A*), on random grids under every diagonal rule, cost model, heuristic and neighbour order.
//! The classic settings are written here from the lecture's table, not read from the core.

mod cases;

use cases::{case_with, Case, TERRAIN};
use pathlab_core::grid::{NeighbourOrder, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{build, Algorithm, GCount, ListKind, SearchConfig, Skeleton, StepEvent};
use proptest::prelude::*;
use proptest::sample::select;

/// Every step's event, to the end: the expansions in order, then found (with its cost) or no
/// path.
fn events(case: &Case, config: SearchConfig) -> Vec<StepEvent> {
    let config = config.diagonal(case.rule).costs(case.costs);
    let mut s = build(case.grid.clone(), case.start, case.goal, config).unwrap();
    let mut out = Vec::new();
    loop {
        let e = s.step();
        out.push(e);
        if !matches!(e, StepEvent::Expanded(_)) {
            break;
        }
    }
    out
}

fn skeleton(list: ListKind, ga: f64, hb: f64, gcount: GCount) -> Skeleton {
    Skeleton { list, ga, hb, gcount }
}

/// The lecture's table: each classic search as the skeleton's plug-ins.
fn classics(weight: f64) -> Vec<(Algorithm, f64, Skeleton)> {
    vec![
        (Algorithm::Bfs, 1.0, skeleton(ListKind::Queue, 1.0, 1.0, GCount::Costs)),
        (Algorithm::Dfs, 1.0, skeleton(ListKind::Stack, 1.0, 1.0, GCount::Costs)),
        (Algorithm::Dijkstra, 1.0, skeleton(ListKind::Priority, 1.0, 0.0, GCount::Costs)),
        (Algorithm::Greedy, 1.0, skeleton(ListKind::Priority, 0.0, 1.0, GCount::Costs)),
        (Algorithm::AStar, 1.0, skeleton(ListKind::Priority, 1.0, 1.0, GCount::Costs)),
        (Algorithm::AStar, weight, skeleton(ListKind::Priority, 1.0, weight, GCount::Costs)),
        // The lecture's other way to BFS: a priority list on g counting edges, with h = 0.
        (Algorithm::Bfs, 1.0, skeleton(ListKind::Priority, 1.0, 0.0, GCount::Edges)),
    ]
}

fn orders() -> Vec<NeighbourOrder> {
    ["nesw", "wsen", "senw", "ewns"].iter().map(|o| o.parse().unwrap()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn each_classic_setting_expands_in_the_named_algorithms_order(
        case in case_with(2..=14, 0..=40, cases::terrain_from(&TERRAIN)),
        heuristic in select(Heuristic::ALL.to_vec()),
        weight in select(vec![1.5, 2.0, 3.0]),
        order in select(orders()),
    ) {
        for (algorithm, w, plug_ins) in classics(weight) {
            let named = SearchConfig::new(algorithm).heuristic(heuristic).weight(w).order(order);
            let ours = SearchConfig::new(Algorithm::Template).heuristic(heuristic).order(order).skeleton(plug_ins);
            let (want, got) = (events(&case, named), events(&case, ours));
            prop_assert_eq!(&got, &want, "{} (weight {}) as {:?}", algorithm, w, plug_ins);
        }
    }
}

/// The same classic settings, the ones the core hands the page (`Skeleton::classic`), name
/// the lecture's plug-ins.
#[test]
fn the_cores_classic_settings_are_the_lectures_table() {
    for (algorithm, weight, plug_ins) in classics(1.5).into_iter().take(6) {
        let mut want = plug_ins;
        if want.list != ListKind::Priority {
            want = Skeleton { list: want.list, ..Skeleton::default() };
        }
        assert_eq!(Skeleton::classic(algorithm, weight), Some(want), "{algorithm}");
    }
    assert_eq!(Skeleton::classic(Algorithm::Jps, 1.0), None);
}

/// g counting edges: the open list's g is the number of moves, and the cost reported is still
/// the path's cost in the grid's costs. On a 4 x 1 corridor of mud (3 each) with integer
/// costs, the goal is 3 moves away: g = 3, cost = 3 x 30 = 90.
#[test]
fn counting_edges_orders_by_moves_and_reports_the_paths_cost() {
    use pathlab_core::grid::{Costs, Grid};
    let grid = Grid::from_cells(4, 1, vec![3; 4]).unwrap();
    let plug_ins = skeleton(ListKind::Priority, 1.0, 0.0, GCount::Edges);
    let config = SearchConfig::new(Algorithm::Template).costs(Costs::Integer).skeleton(plug_ins);
    let mut s = build(grid, Point::new(0, 0), Point::new(3, 0), config).unwrap();
    s.step();
    s.step();
    assert_eq!(s.open_entries(5).iter().map(|e| e.g).collect::<Vec<_>>(), [2.0]);
    s.run();
    assert_eq!(s.cost(), Some(90.0));
}

#[test]
fn bad_factors_are_refused_with_their_name() {
    use pathlab_core::grid::Grid;
    for (ga, hb, name) in [(-1.0, 1.0, "ga"), (1.0, f64::NAN, "hb"), (1.0, 1e9, "hb")] {
        let config =
            SearchConfig::new(Algorithm::Template).skeleton(skeleton(ListKind::Priority, ga, hb, GCount::Costs));
        let err = build(Grid::new(3, 3).unwrap(), Point::new(0, 0), Point::new(2, 2), config).err().unwrap();
        assert!(err.to_string().contains(name), "{err}");
    }
}
