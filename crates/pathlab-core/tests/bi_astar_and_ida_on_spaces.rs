//! Bidirectional A* and IDA* on every space, checked against the independent truth of
//! `space_support` (a Dijkstra over arcs the test reads off each space's rules itself).
//!
//! - Random graphs (directed, undirected and mixed; integer, real and length-priced costs,
//!   0-cost edges; disconnected parts, self-loops, parallel edges): with every admissible
//!   graph estimate and weight 1 both cost the independent optimum, and find no path exactly
//!   when there is none; every path steps along existing arcs whose costs add up to the
//!   reported cost. Weighted bidirectional A* stays within weight x optimum.
//! - Hex grids (both layouts, walls, terrain), teleports (with the teleport-aware estimate,
//!   which must stay a lower bound when the backward side reads it from the start; the plain
//!   one only has to give legal paths) and slopes (both ways between two cells).
//! - A hand-worked directed graph, step by step, for both searches.
//!
//! Bidirectional A* runs through `build_on` and `run_and_check`: its `g` along the path is the
//! path's cost from the start (the backward half is rewritten when the path is found), so the
//! shared check applies as it is. IDA* has a visit limit: its cases are small (at most 25
//! nodes), it runs with a limit the test sets, and a give-up is accepted only when the search
//! says so and has made exactly that many visits; each property fails if more than a tenth of
//! its cases give up.

mod cases;
mod oracle;
mod space_support;

use std::cell::Cell;

use oracle::*;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::bi_astar::BiAStar;
use pathlab_core::search::ida::Ida;
use pathlab_core::search::{
    build_linked, build_on, Algorithm, CellState, GridLinks, Search, SearchConfig, SpaceStepper, Status, StepEvent,
};
use pathlab_core::space::{Graph, HexGrid, Space, SquareGrid, Teleport, TeleportHeuristic, Teleports};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use space_support::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The visit limit the IDA* properties run with: a few milliseconds of work at most.
const IDA_LIMIT: usize = 200_000;

/// Bidirectional A* with weight 1 through `build_on`, checked by `run_and_check`, and its cost
/// equal to the optimum.
fn bi_optimal<S: Space + Clone + 'static>(
    space: S,
    start: usize,
    goal: usize,
    arcs: &Arcs,
    opt: Option<f64>,
) -> Result<(), TestCaseError> {
    let config = SearchConfig::new(Algorithm::BiAStar);
    if let (Some((cost, _)), Some(opt)) = (run_and_check(space, start, goal, config, arcs, opt)?, opt) {
        prop_assert!(same(cost, opt), "bidirectional A*: {} but the optimum is {}", cost, opt);
    }
    Ok(())
}

/// What an IDA* run came to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// An answer, checked against the truth.
    Answered,
    /// It stopped at the visit limit, and said so.
    GaveUp,
}

/// IDA* on `space` with the test's visit limit, run step by step to its end: either a give-up
/// the test can tell was the limit (the search says it gave up, and made exactly `IDA_LIMIT`
/// visits), or an answer that passes the shared check and, when `optimal`, costs the optimum
/// (up to IDA*'s own rounding allowance of 1e-9 of the threshold).
fn ida_checked<S: Space + Clone + 'static>(
    space: S,
    start: usize,
    goal: usize,
    config: SearchConfig,
    arcs: &Arcs,
    opt: Option<f64>,
    optimal: bool,
) -> Result<Outcome, TestCaseError> {
    let mut s = Ida::on(space, start as u32, goal as u32, config).unwrap().with_visit_limit(IDA_LIMIT);
    let status = finish(&mut s, usize::MAX)?;
    if let Some(why) = s.gave_up() {
        prop_assert_eq!(status, Status::NoPath);
        prop_assert_eq!(s.visits(), IDA_LIMIT, "gave up before the limit: {}", why);
        prop_assert!(why.contains(&format!("limit of {IDA_LIMIT} node visits")), "{}", why);
        prop_assert!(s.cost().is_none() && s.path_indices().is_empty());
        return Ok(Outcome::GaveUp);
    }
    prop_assert!(s.visits() <= IDA_LIMIT);
    let found = check_answer(&s, status, start, goal, arcs, opt)?;
    if let (Some((cost, _)), Some(opt), true) = (found, opt, optimal) {
        prop_assert!((cost - opt).abs() <= 1e-7 * opt.max(1.0), "IDA*: {} but the optimum is {}", cost, opt);
    }
    Ok(Outcome::Answered)
}

/// Runs `cases` cases of `strategy` through `test`, which returns how many of its IDA* runs
/// gave up and how many it made; fails when more than a tenth of all runs gave up, so that the
/// limit cannot quietly stand in for the answers.
fn run_counting_give_ups<T: std::fmt::Debug>(
    cases: u32,
    strategy: impl Strategy<Value = T>,
    test: impl Fn(T) -> Result<(usize, usize), TestCaseError>,
) {
    let (gave_up, runs) = (Cell::new(0), Cell::new(0));
    let mut runner = TestRunner::new(Config { cases, max_global_rejects: 100 * cases, ..Config::default() });
    runner
        .run(&strategy, |case| {
            let (g, r) = test(case)?;
            gave_up.set(gave_up.get() + g);
            runs.set(runs.get() + r);
            Ok(())
        })
        .unwrap();
    assert!(gave_up.get() * 10 <= runs.get(), "{} of {} IDA* runs gave up", gave_up.get(), runs.get());
}

/// Random graphs as `graph_case` makes them, but small enough for IDA*: up to 9 nodes and
/// twice as many rolled edges.
fn small_graph_case() -> impl Strategy<Value = GraphCase> {
    graph_case_of(9, 2)
}

/// At most 25 cells.
fn small(grid: &Grid) -> bool {
    grid.len() <= 25
}

// ---------------------------------------------------------------------------------------------
// Random graphs
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2500))]

    /// Bidirectional A* with Euclidean, Chebyshev and zero estimates (weight 1) finds the
    /// independent optimum, and no path exactly when there is none, along existing arcs; at
    /// weights 1.5 and 3 its path is legal and within weight x optimum.
    #[test]
    fn graph_bidirectional_a_star_finds_the_independent_optimum(case in graph_case()) {
        let arcs = case.arcs();
        let opt = reached(&dijkstra(&arcs, case.start), case.goal);
        for h in admissible_graph_heuristics() {
            bi_optimal(case.graph(h), case.start, case.goal, &arcs, opt)?;
            for w in [1.5, 3.0] {
                let config = SearchConfig::new(Algorithm::BiAStar).weight(w);
                let found = run_and_check(case.graph(h), case.start, case.goal, config, &arcs, opt)?;
                if let (Some((cost, _)), Some(opt)) = (found, opt) {
                    prop_assert!(at_most(cost, w * opt), "weight {} {}: {} > {} x {}", w, h, cost, w, opt);
                }
            }
        }
    }
}

/// IDA* with Euclidean, Chebyshev and zero estimates (weight 1) on small random graphs finds
/// the independent optimum, and no path exactly when there is none, along existing arcs.
#[test]
fn graph_ida_star_finds_the_independent_optimum() {
    run_counting_give_ups(1500, small_graph_case(), |case| {
        let arcs = case.arcs();
        let opt = reached(&dijkstra(&arcs, case.start), case.goal);
        let mut gave_up = 0;
        let heuristics = admissible_graph_heuristics();
        for &h in &heuristics {
            let config = SearchConfig::new(Algorithm::Ida);
            let outcome = ida_checked(case.graph(h), case.start, case.goal, config, &arcs, opt, true)?;
            gave_up += usize::from(outcome == Outcome::GaveUp);
        }
        Ok((gave_up, heuristics.len()))
    });
}

// ---------------------------------------------------------------------------------------------
// Hex grids
// ---------------------------------------------------------------------------------------------

/// The hex grid with an estimate: hex distance (`Manhattan`) or none (`Zero`).
fn hex(case: &HexCase, heuristic: Heuristic) -> HexGrid {
    HexGrid { heuristic, ..HexGrid::new(case.grid.clone(), case.layout) }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    /// Bidirectional A* with the hex distance and with no estimate costs the independent
    /// optimum over the offset neighbours.
    #[test]
    fn hex_bidirectional_a_star_finds_the_independent_optimum(case in hex_case()) {
        let arcs = hex_arcs(&case.grid, case.layout);
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let opt = reached(&dijkstra(&arcs, s), g);
        for h in [Heuristic::Manhattan, Heuristic::Zero] {
            bi_optimal(hex(&case, h), s, g, &arcs, opt)?;
        }
    }
}

/// IDA* with the hex distance costs the independent optimum on small hex grids.
#[test]
fn hex_ida_star_finds_the_independent_optimum() {
    run_counting_give_ups(500, hex_case().prop_filter("at most 25 cells", |c| small(&c.grid)), |case| {
        let arcs = hex_arcs(&case.grid, case.layout);
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let opt = reached(&dijkstra(&arcs, s), g);
        let config = SearchConfig::new(Algorithm::Ida);
        let outcome = ida_checked(hex(&case, Heuristic::Manhattan), s, g, config, &arcs, opt, true)?;
        Ok((usize::from(outcome == Outcome::GaveUp), 1))
    });
}

// ---------------------------------------------------------------------------------------------
// Teleports
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    /// With the teleport-aware estimate bidirectional A* costs the independent optimum (its
    /// backward side reads the estimate from the start, a lower bound even through one-way
    /// teleports); with the plain estimate, which can overestimate, its path is still legal
    /// and no cheaper than the optimum.
    #[test]
    fn teleport_bidirectional_a_star_with_the_teleport_estimate_is_optimal(case in teleport_case()) {
        let arcs = case.arcs();
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let opt = reached(&dijkstra(&arcs, s), g);
        bi_optimal(case.space(TeleportHeuristic::Teleports), s, g, &arcs, opt)?;
        let plain = SearchConfig::new(Algorithm::BiAStar);
        run_and_check(case.space(TeleportHeuristic::Plain), s, g, plain, &arcs, opt)?;
    }
}

/// IDA* with the teleport-aware estimate costs the independent optimum on small maps; with
/// the plain one its path is legal.
#[test]
fn teleport_ida_star_with_the_teleport_estimate_is_optimal() {
    run_counting_give_ups(500, teleport_case().prop_filter("at most 25 cells", |c| small(&c.grid)), |case| {
        let arcs = case.arcs();
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        let opt = reached(&dijkstra(&arcs, s), g);
        let config = SearchConfig::new(Algorithm::Ida);
        let aware = ida_checked(case.space(TeleportHeuristic::Teleports), s, g, config, &arcs, opt, true)?;
        let plain = ida_checked(case.space(TeleportHeuristic::Plain), s, g, config, &arcs, opt, false)?;
        Ok((usize::from(aware == Outcome::GaveUp) + usize::from(plain == Outcome::GaveUp), 2))
    });
}

/// A 10 x 1 corridor from (0,0) to (9,0) with a one-way teleport from (1,0) to (8,0) for 0:
/// the cheapest way is 1 + 0 + 1 = 2. The backward side must bound the cost from the start
/// *to* each cell: read the other way round, the estimate at the goal would be
/// min(9, h(goal, (1,0)) + 0) = 8 > 2. With the bound from the start both searches find 2.
#[test]
fn a_one_way_teleport_is_estimated_from_the_start_by_the_backward_side() {
    let base = SquareGrid::new(Grid::new(10, 1).unwrap(), Diagonal::Never, Costs::Real, Heuristic::Manhattan);
    let jump = Teleport { from: Point::new(1, 0), to: Point::new(8, 0), cost: 0.0, both_ways: false };
    let space = Teleports::new(base, vec![jump], TeleportHeuristic::Teleports).unwrap();
    let mut bi = BiAStar::on(space.clone(), 0, 9, SearchConfig::new(Algorithm::BiAStar)).unwrap();
    // The goal's backward estimate: from the start to it, through the teleport.
    assert_eq!(bi.h_back_of(9), 2.0);
    assert_eq!(bi.h_of(0), 2.0);
    assert_eq!(bi.run(), Status::Found);
    assert_eq!(bi.cost(), Some(2.0));
    assert_eq!(bi.path_indices(), &[0, 1, 8, 9]);
    let mut ida = Ida::on(space, 0, 9, SearchConfig::new(Algorithm::Ida)).unwrap();
    assert_eq!(ida.run(), Status::Found);
    assert_eq!(ida.cost(), Some(2.0));
    assert_eq!(ida.path_indices(), &[0, 1, 8, 9]);
}

// ---------------------------------------------------------------------------------------------
// Slopes
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    /// From A to B and from B to A, bidirectional A* with every estimate admissible under the
    /// case's diagonal rule costs the independent optimum over the test's own moves and
    /// climbs (the backward side pays a climb where the forward move climbs).
    #[test]
    fn slope_bidirectional_a_star_costs_both_ways_match_the_independent_dijkstra(case in slope_case()) {
        let arcs = case.arcs();
        let (a, b) = (case.grid.index(case.a), case.grid.index(case.b));
        for (from, to) in [(a, b), (b, a)] {
            let opt = reached(&dijkstra(&arcs, from), to);
            for h in Heuristic::ALL.iter().copied().filter(|h| h.is_admissible(case.rule, Costs::Real)) {
                bi_optimal(case.space(h), from, to, &arcs, opt)?;
            }
        }
    }
}

/// From A to B and from B to A, IDA* with the rule's own estimate costs the independent
/// optimum on small sloped maps.
#[test]
fn slope_ida_star_costs_both_ways_match_the_independent_dijkstra() {
    run_counting_give_ups(500, slope_case().prop_filter("at most 25 cells", |c| small(&c.grid)), |case| {
        let arcs = case.arcs();
        let (a, b) = (case.grid.index(case.a), case.grid.index(case.b));
        let mut gave_up = 0;
        for (from, to) in [(a, b), (b, a)] {
            let opt = reached(&dijkstra(&arcs, from), to);
            let config = SearchConfig::new(Algorithm::Ida);
            let space = case.space(Heuristic::default_for(case.rule));
            gave_up += usize::from(ida_checked(space, from, to, config, &arcs, opt, true)? == Outcome::GaveUp);
        }
        Ok((gave_up, 2))
    });
}

// ---------------------------------------------------------------------------------------------
// By hand
// ---------------------------------------------------------------------------------------------

/// The hand-worked graph: S (0,0), A (2,0), B (4,0), T (6,0), C (3,3), with the directed edges
/// S->A 2, A->B 2, B->T 3, S->C 5, C->T 5 and T->B 2. Every edge costs at least its length
/// (S->A, A->B and T->B exactly), so the estimate is the straight-line distance.
fn hand_graph() -> (Graph, [u32; 5]) {
    let mut g = Graph::new(true);
    let s = g.add_node("S", 0.0, 0.0).unwrap();
    let a = g.add_node("A", 2.0, 0.0).unwrap();
    let b = g.add_node("B", 4.0, 0.0).unwrap();
    let t = g.add_node("T", 6.0, 0.0).unwrap();
    let c = g.add_node("C", 3.0, 3.0).unwrap();
    for (from, to, cost) in [(s, a, 2.0), (a, b, 2.0), (b, t, 3.0), (s, c, 5.0), (c, t, 5.0), (t, b, 2.0)] {
        g.add_edge(from, to, cost, true).unwrap();
    }
    assert_eq!(g.ratio(), 1.0);
    (g, [s, a, b, t, c])
}

/// Bidirectional A* from S to T on the hand-worked graph. Forward keys are g + |n T|,
/// backward keys g_back + |S n| (|S C| = |C T| = sqrt 18 = 4.243).
///
/// | step | side | expands | opens (g, key) | mu | stopping rule |
/// | --- | --- | --- | --- | --- | --- |
/// | 1 | forward (1 open each side, forward first) | S | A (2, 2+4 = 6), C (5, 5+4.243 = 9.243) | inf | inf > max(6, 6) |
/// | 2 | backward (1 open < 2) | T | B (3, 3+4 = 7) via B->T, C (5, 5+4.243) via C->T: C is open forward, mu = 5 + 5 = 10 | 10 | 10 > max(6, 6) |
/// | 3 | forward (2 = 2, backward went last) | A | B (4, 4+2 = 6): open backward at 3, mu = 4 + 3 = 7 | 7 | 10 > max(6, 7) |
/// | 4 | - | - | - | 7 | 7 <= max(6, 7): found |
///
/// The path is S A B T at 7 (S C T costs 10). The backward side never takes T->B, an edge out
/// of T: through it B would cost 2 to the goal and mu would be a wrong 6.
#[test]
fn bidirectional_a_star_on_the_hand_worked_graph() {
    let (g, [s, a, b, t, c]) = hand_graph();
    let mut bi = BiAStar::on(g, s, t, SearchConfig::new(Algorithm::BiAStar)).unwrap();
    assert_eq!((bi.min_f_forward(), bi.min_f_backward()), (6.0, 6.0));

    assert_eq!(bi.step(), StepEvent::Expanded(s));
    assert_eq!((bi.g_values()[a as usize], bi.g_values()[c as usize]), (2.0, 5.0));
    assert_eq!(bi.mu(), f64::INFINITY);

    assert_eq!(bi.step(), StepEvent::Expanded(t));
    assert_eq!((bi.g_back()[b as usize], bi.g_back()[c as usize]), (3.0, 5.0));
    assert_eq!((bi.mu(), bi.meeting_node()), (10.0, Some(c)));
    assert_eq!(bi.min_f_backward(), 7.0);

    assert_eq!(bi.step(), StepEvent::Expanded(a));
    assert_eq!(bi.g_values()[b as usize], 4.0);
    assert_eq!((bi.mu(), bi.meeting_node()), (7.0, Some(b)));
    assert_eq!((bi.min_f_forward(), bi.min_f_backward()), (6.0, 7.0));

    assert_eq!(bi.step(), StepEvent::Found { cost: 7.0 });
    assert_eq!(bi.path_indices(), &[s, a, b, t]);
    assert_eq!((bi.steps(), bi.expanded_forward(), bi.expanded_backward(), bi.nipped()), (4, 2, 1, 0));
    // The path's g is summed from the start, the backward half included.
    let g: Vec<f64> = [s, a, b, t].iter().map(|&n| bi.g_values()[n as usize]).collect();
    assert_eq!(g, [0.0, 2.0, 4.0, 7.0]);
    assert_eq!(bi.parents()[t as usize], b);
    assert_eq!(bi.states()[c as usize], CellState::Open as u8);
    assert!([s, a, b, t].iter().all(|&n| bi.states()[n as usize] == CellState::Path as u8));
}

/// IDA* from S to T on the hand-worked graph; f = g + |n T|.
///
/// - Iteration 1, threshold f(S) = 6: S (f 6) pushed; A (g 2, f 6) pushed; B (g 4, f 6)
///   pushed; T (g 7, f 7) cut off; B and A have no edge left, so the next step backs out of
///   them and visits C (g 5, f 9.243), cut off. Next threshold: 7, the lowest f cut off.
/// - Iteration 2, threshold 7: S, A, B pushed again; T (g 7, f 7) is the goal.
///
/// Nine visits (nine steps), six pushes, cost 7.
#[test]
fn ida_star_on_the_hand_worked_graph() {
    let (g, [s, a, b, t, c]) = hand_graph();
    let mut ida = Ida::on(g.clone(), s, t, SearchConfig::new(Algorithm::Ida)).unwrap();
    assert_eq!(ida.threshold(), 6.0);
    for node in [s, a, b, t] {
        assert_eq!(ida.step(), StepEvent::Expanded(node));
    }
    assert_eq!(ida.next_threshold(), 7.0);
    assert_eq!(ida.stack_nodes().collect::<Vec<_>>(), [s, a, b]);
    assert_eq!(ida.step(), StepEvent::Expanded(c));
    assert_eq!(ida.stack_nodes().collect::<Vec<_>>(), [s]);
    assert_eq!((ida.iteration(), ida.next_threshold()), (1, 7.0));
    assert_eq!(ida.step(), StepEvent::Expanded(s));
    assert_eq!((ida.iteration(), ida.threshold()), (2, 7.0));
    assert_eq!(ida.step(), StepEvent::Expanded(a));
    assert_eq!(ida.step(), StepEvent::Expanded(b));
    assert_eq!(ida.step(), StepEvent::Found { cost: 7.0 });
    assert_eq!((ida.steps(), ida.visits(), ida.expanded()), (9, 9, 6));
    assert_eq!(ida.path_indices(), &[s, a, b, t]);
    assert!(ida.gave_up().is_none());

    // Through `build_on`, the same run.
    let mut boxed = build_on(g, s, t, SearchConfig::new(Algorithm::Ida)).unwrap();
    assert_eq!(boxed.run(), Status::Found);
    assert_eq!((boxed.steps(), boxed.cost()), (9, Some(7.0)));
}

/// Both searches go back by replay: seeking to any step gives the same states, costs and
/// parents as stepping there afresh, and a clone goes on exactly as the original.
#[test]
fn both_searches_replay_on_a_graph() {
    let (g, [s, _, _, t, _]) = hand_graph();
    for algorithm in [Algorithm::BiAStar, Algorithm::Ida] {
        let mut full = build_on(g.clone(), s, t, SearchConfig::new(algorithm)).unwrap();
        full.run();
        let (total, cost) = (full.steps(), full.cost());
        for k in 0..=total {
            let mut fresh = build_on(g.clone(), s, t, SearchConfig::new(algorithm)).unwrap();
            fresh.advance(k);
            full.seek(k);
            assert_eq!(full.states(), fresh.states(), "{algorithm:?} step {k}");
            assert_eq!(full.g_values(), fresh.g_values(), "{algorithm:?} step {k}");
            assert_eq!(full.parents(), fresh.parents(), "{algorithm:?} step {k}");
            let mut copy = full.clone();
            assert_eq!((copy.run(), copy.steps(), copy.cost()), (Status::Found, total, cost));
        }
    }
}

/// A start and goal in two parts of a graph that no edge joins: bidirectional A* ends with no
/// path once a side runs dry; IDA* once an iteration cuts nothing off, without giving up. With
/// a limit of 10 visits on a graph where every node links to every other, IDA* gives up at
/// exactly 10, and says so.
#[test]
fn no_path_and_the_visit_limit_on_graphs() {
    let (mut g, [s, _, _, t, _]) = hand_graph();
    let lone = g.add_node("L", 9.0, 9.0).unwrap();
    let mut bi = BiAStar::on(g.clone(), s, lone, SearchConfig::new(Algorithm::BiAStar)).unwrap();
    assert_eq!(bi.run(), Status::NoPath);
    assert!(bi.cost().is_none() && bi.path_indices().is_empty());
    let mut ida = Ida::on(g.clone(), s, lone, SearchConfig::new(Algorithm::Ida)).unwrap();
    assert_eq!(ida.run(), Status::NoPath);
    assert!(ida.gave_up().is_none());
    // T cannot be left towards S: its only edge leads to B, and B only back to T.
    let mut back = BiAStar::on(g.clone(), t, s, SearchConfig::new(Algorithm::BiAStar)).unwrap();
    assert_eq!(back.run(), Status::NoPath);

    let mut clique = Graph::new(false);
    let nodes: Vec<u32> = (0..8).map(|i| clique.add_node(&format!("n{i}"), f64::from(i), 0.0).unwrap()).collect();
    let far = clique.add_node("far", 100.0, 0.0).unwrap();
    for (i, &u) in nodes.iter().enumerate() {
        for &v in &nodes[i + 1..] {
            clique.add_edge(u, v, 1.0, false).unwrap();
        }
    }
    let mut limited = Ida::on(clique, nodes[0], far, SearchConfig::new(Algorithm::Ida)).unwrap().with_visit_limit(10);
    assert_eq!(limited.run(), Status::NoPath);
    assert_eq!(limited.visits(), 10);
    assert!(limited.gave_up().unwrap().contains("limit of 10 node visits"));
}

/// A grid page with teleports builds both searches through `build_linked` (no longer refused),
/// and they find what they find through `build_on`; the plain stepper refuses to run them as
/// if they were A*.
#[test]
fn build_linked_builds_both_on_teleports() {
    let grid = Grid::new(10, 1).unwrap();
    let jump = Teleport { from: Point::new(1, 0), to: Point::new(8, 0), cost: 0.0, both_ways: false };
    let links = GridLinks::Teleports { list: vec![jump], heuristic: TeleportHeuristic::Teleports };
    for algorithm in [Algorithm::BiAStar, Algorithm::Ida] {
        let config = SearchConfig::new(algorithm).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
        let mut s = build_linked(grid.clone(), Point::new(0, 0), Point::new(9, 0), config, &links).unwrap();
        assert_eq!(s.run(), Status::Found, "{algorithm:?}");
        assert_eq!(s.cost(), Some(2.0), "{algorithm:?}");
        assert_eq!(s.path_indices(), &[0, 1, 8, 9], "{algorithm:?}");
        let space = SquareGrid::with_config(grid.clone(), &config);
        assert!(Search::on(space, 0, 9, config).is_err(), "{algorithm:?} is not run as A*");
    }
}
