//! LRTA* and RTA* on every space, checked against the independent truth of `space_support`
//! (a Dijkstra over arcs this test reads off each space's rules itself).
//!
//! Real-time search is complete only where the goal can be reached from every node the agent
//! can reach, and (for the proofs) where every edge costs more than 0. So the random problems
//! raise every cost below 0.5 to 0.5 (free edges get their own test below), and:
//!
//! - Undirected random graphs (self-loops, parallel edges, disconnected parts), hex grids and
//!   slopes, where every move can be undone, and teleports: the agent reaches the goal
//!   whenever the independent Dijkstra says it can be reached, else says no path at the first
//!   step without moving; every move is along an existing arc and adds that arc's cost to the
//!   cost walked, which adds up to the reported cost and is never below the optimum. With an
//!   admissible start (weight 1) LRTA*'s learned estimates never fall and never exceed the
//!   independent cost-to-go, and the cost walked stays within the bound of the module docs,
//!   `B = sum over nodes x reachable from the start of (h*(x) - h0(x)) + h0(start)`; over
//!   repeated trials (`next_trial`, which keeps what was learned) the cost walked comes down
//!   to the optimum and stays there.
//! - Directed and mixed random graphs, and one-way teleports: a one-way edge can lead the
//!   agent where the goal cannot be reached from. It then stops at once (no path, with a
//!   reason) and the truth agrees it is stuck; where no such node can be reached, it arrives.
//! - By hand: a small graph with a dead end, both rules step by step; a free edge that keeps
//!   LRTA* going back and forth until its move limit (RTA* gets out); one-way streets, where
//!   RTA* stores the best value, not the second-best; a one-way edge into a dead end; an unreachable goal;
//!   and the builders (`build_on`, `build_linked`).
//!
//! The hand-worked graph (undirected; places in brackets; the estimate is the straight-line
//! distance, as every edge costs at least its length and S-D costs exactly its length):
//!
//! ```text
//!   F (0,4) --3-- E (3,4)          h0: S 3, D 2, E 5, F 4, G 0
//!   |             |                h*: S 11, D 12, E 7, F 4, G 0
//!   4             4
//!   |             |
//!   G (0,0)   D (2,0) --1-- S (3,0)     D is a dead end.
//! ```
//!
//! Edges in the order added: S-D, S-E, E-F, F-G, so S tries D first. A first move's value is
//! `cost + h(neighbour)`; ties go to the first.
//!
//! LRTA* (h(s) = max(h(s), best)):
//!
//! | step | at | values                   | h(at)   | to |
//! |------|----|--------------------------|---------|----|
//! | 1    | S  | D 1+2=3, E 4+5=9         | 3       | D  |
//! | 2    | D  | S 1+3=4                  | 2 -> 4  | S  |
//! | 3    | S  | D 1+4=5, E 9             | 3 -> 5  | D  |
//! | 4    | D  | S 1+5=6                  | 4 -> 6  | S  |
//! | 5    | S  | D 1+6=7, E 9             | 5 -> 7  | D  |
//! | 6    | D  | S 1+7=8                  | 6 -> 8  | S  |
//! | 7    | S  | D 1+8=9, E 9 (tie: D)    | 7 -> 9  | D  |
//! | 8    | D  | S 1+9=10                 | 8 -> 10 | S  |
//! | 9    | S  | D 1+10=11, E 9           | 9       | E  |
//! | 10   | E  | S 4+9=13, F 3+4=7        | 5 -> 7  | F  |
//! | 11   | F  | E 3+7=10, G 4+0=4        | 4       | G  |
//!
//! 11 moves, cost 8 x 1 + 4 + 3 + 4 = 19 (the optimum is 11). Learned: S 9, D 10, E 7, F 4,
//! all at most h*. A second trial from S with these: S (D 1+10=11, E 4+7=11, tie: D, h 11),
//! D (S 12, h 12), S (D 13, E 11: E), E, F, G: cost 1 + 1 + 4 + 3 + 4 = 13. The third trial
//! goes straight S E F G: 11, and so does every one after.
//!
//! RTA* (h(s) = second-best value, ∞ with one move):
//!
//! | step | at | values              | h(at)  | to |
//! |------|----|---------------------|--------|----|
//! | 1    | S  | D 1+2=3, E 4+5=9    | 3 -> 9 | D  |
//! | 2    | D  | S 1+9=10 (only)     | 2 -> ∞ | S  |
//! | 3    | S  | D 1+∞=∞, E 4+5=9    | 9 -> ∞ | E  |
//! | 4    | E  | S 4+∞=∞, F 3+4=7    | 5 -> ∞ | F  |
//! | 5    | F  | E 3+∞=∞, G 4+0=4    | 4 -> ∞ | G  |
//!
//! 5 moves, cost 1 + 1 + 4 + 3 + 4 = 13: it learns in one visit that D is a dead end.

mod cases;
mod oracle;
mod space_support;

use oracle::*;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::lrta::{Lrta, Update};
use pathlab_core::search::{
    build_linked, build_on, Algorithm, GridLinks, Search, SearchConfig, SearchError, SpaceStepper, Status, StepEvent,
};
use pathlab_core::space::{Graph, HexGrid, Space, Teleport, TeleportHeuristic};
use proptest::prelude::*;
use proptest::sample::select;
use space_support::*;

/// The move limit the random problems run under: far above what they need.
const LIMIT: usize = 200_000;

/// The smallest cost the random problems keep (smaller ones are raised to it).
const FLOOR: f64 = 0.5;

/// How a checked walk ended.
#[derive(Debug, PartialEq)]
enum Outcome {
    /// On the goal, at this cost.
    Arrived(f64),
    /// No path at the first step: the goal cannot be reached from the start.
    Unreachable,
    /// Stopped on this node, from which the goal cannot be reached.
    Trapped(u32),
}

/// Runs `s` to its end one step at a time and checks it against the truth `arcs`: every move
/// is along an arc of the truth and adds exactly that arc's cost to the cost walked; the
/// trail, the agent and the `SpaceStepper` view agree; no path at the first step exactly when
/// the goal cannot be reached from the start; a stop anywhere else only on a node from which
/// the truth says the goal cannot be reached; otherwise found, at a cost that is the sum of
/// the arcs walked and never below the optimum.
fn walk_and_check<S: Space + Clone + 'static>(s: &mut Lrta<S>, arcs: &Arcs) -> Result<Outcome, TestCaseError> {
    let (start, goal) = (s.start_node() as usize, s.goal_node() as usize);
    let what = format!("{:?} look-ahead {} weight {}", s.config().algorithm, s.config().lookahead, s.config().weight);
    let to_goal = dijkstra(&reversed(arcs), goal);
    prop_assert_eq!(s.status(), Status::Ready);
    prop_assert_eq!(s.path_indices(), &[start as u32]);
    if to_goal[start].is_infinite() {
        prop_assert!(matches!(s.step(), StepEvent::NoPath), "{}", what);
        prop_assert_eq!(s.status(), Status::NoPath);
        prop_assert_eq!((s.steps(), s.moves()), (1, 0));
        prop_assert_eq!(s.path_indices(), &[start as u32]);
        prop_assert!(s.cost().is_none() && s.gave_up().is_none() && !s.is_reachable(), "{}", what);
        prop_assert!(matches!(s.step(), StepEvent::Finished));
        return Ok(Outcome::Unreachable);
    }
    prop_assert!(s.is_reachable());
    let mut walked = 0.0;
    loop {
        let from = s.agent_node().unwrap() as usize;
        let before = s.travelled();
        let event = s.step();
        let to = s.agent_node().unwrap() as usize;
        prop_assert_eq!(s.moves() + 1, s.path_indices().len());
        prop_assert_eq!(s.path_indices().last().copied(), Some(to as u32));
        if to == from {
            // Only the step that finds the agent already on the goal stays put.
            prop_assert!(from == goal && matches!(event, StepEvent::Found { .. }), "{}: stayed on {}", what, from);
            prop_assert_eq!(s.travelled(), before);
        } else {
            let paid = s.travelled() - before;
            let arc = arcs[from].iter().find(|&&(t, c)| t == to && same(c, paid));
            let Some(&(_, c)) = arc else {
                let offered: Vec<&(usize, f64)> = arcs[from].iter().filter(|&&(t, _)| t == to).collect();
                return Err(TestCaseError::fail(format!(
                    "{what}: the move {from} -> {to} cost {paid} but the truth's arcs {from} -> {to} are {offered:?}"
                )));
            };
            walked += c;
        }
        match event {
            StepEvent::Found { cost } => {
                prop_assert_eq!(to, goal);
                prop_assert!(
                    same(cost, walked),
                    "{}: found at {} but the arcs walked add up to {}",
                    what,
                    cost,
                    walked
                );
                break;
            }
            StepEvent::NoPath => break,
            StepEvent::Finished => return Err(TestCaseError::fail(format!("{what}: stepped after the end"))),
            StepEvent::Expanded(_) => {}
        }
    }
    // The node-level view every space page reads.
    let view: &dyn SpaceStepper<S> = s;
    prop_assert_eq!(view.agent_node(), Some(s.agent_node().unwrap()));
    prop_assert_eq!(view.path_indices(), s.path_indices());
    prop_assert_eq!(view.cell_values().unwrap().values, s.learned());
    prop_assert_eq!(view.cost(), s.cost());
    if s.status() == Status::NoPath {
        let at = s.agent_node().unwrap();
        let why = s.gave_up().unwrap_or_default();
        prop_assert!(s.moves() < LIMIT, "{}: stopped at the move limit: {}", what, why);
        prop_assert!(why.contains("cannot be reached"), "{}: {}", what, why);
        prop_assert!(
            to_goal[at as usize].is_infinite(),
            "{}: stopped on {} but the goal is {} away",
            what,
            at,
            to_goal[at as usize]
        );
        prop_assert!(s.cost().is_none());
        return Ok(Outcome::Trapped(at));
    }
    prop_assert_eq!(s.status(), Status::Found);
    let cost = s.cost().unwrap();
    prop_assert!(same(cost, s.travelled()));
    prop_assert!(at_most(to_goal[start], cost), "{}: walked {} below the optimum {}", what, cost, to_goal[start]);
    prop_assert!(s.gave_up().is_none());
    Ok(Outcome::Arrived(cost))
}

/// True when the goal can be reached from every node reachable from the start: then neither
/// rule can be trapped.
fn no_trap(arcs: &Arcs, start: usize, goal: usize) -> bool {
    let to_goal = dijkstra(&reversed(arcs), goal);
    dijkstra(arcs, start).iter().zip(&to_goal).all(|(from, to)| from.is_infinite() || to.is_finite())
}

/// Runs LRTA* with an admissible start (`s` fresh) and checks, beyond [`walk_and_check`]:
/// it arrives when nothing can trap it; its estimates never fall below where they started nor
/// rise above the true cost-to-go (they never fall, so checking at the end is enough); it
/// walks at most the bound B; and over repeated trials its cost comes down to the optimum
/// and stays there.
fn check_lrta_star<S: Space + Clone + 'static>(mut s: Lrta<S>, arcs: &Arcs) -> Result<(), TestCaseError> {
    let (start, goal) = (s.start_node() as usize, s.goal_node() as usize);
    let what = format!("LRTA* look-ahead {}", s.config().lookahead);
    let to_goal = dijkstra(&reversed(arcs), goal);
    let from_start = dijkstra(arcs, start);
    let h0 = s.learned().to_vec();
    for (i, (&h, &truth)) in h0.iter().zip(&to_goal).enumerate() {
        prop_assert!(at_most(h, truth), "{}: the start h({}) = {} is above the true {}", what, i, h, truth);
    }
    let outcome = walk_and_check(&mut s, arcs)?;
    let admissible = |s: &Lrta<S>| -> Result<(), TestCaseError> {
        for (i, (&h, &start_h)) in s.learned().iter().zip(&h0).enumerate() {
            prop_assert!(h >= start_h, "{}: h({}) fell from {} to {}", what, i, start_h, h);
            prop_assert!(at_most(h, to_goal[i]), "{}: learned h({}) = {} above the true {}", what, i, h, to_goal[i]);
        }
        Ok(())
    };
    admissible(&s)?;
    if !no_trap(arcs, start, goal) || outcome == Outcome::Unreachable {
        return Ok(());
    }
    let Outcome::Arrived(cost) = outcome else {
        return Err(TestCaseError::fail(format!("{what}: {outcome:?} although nothing can trap it")));
    };
    let reached = || (0..h0.len()).filter(|&i| from_start[i].is_finite());
    let bound: f64 = reached().map(|i| to_goal[i] - h0[i]).sum::<f64>() + h0[start];
    // The estimates count √2 to 29 binary places (`grid::SQRT_2_FIXED`) and the true costs here
    // the full-precision √2: each term of the bound may be off by 1e-11 of its size, and the
    // bound sums one term a node.
    let rounding: f64 = 1e-11 * reached().map(|i| to_goal[i] + h0[i]).sum::<f64>();
    prop_assert!(at_most(cost, bound + rounding), "{}: walked {} but the bound is {}", what, cost, bound);
    // Trials: until two in a row walk the optimum.
    let optimum = to_goal[start];
    let mut in_a_row = usize::from(same(cost, optimum));
    let mut trials = 1;
    while in_a_row < 2 {
        prop_assert!(
            trials < 500,
            "{}: {} trials and the cost is still {} (optimum {})",
            what,
            trials,
            s.cost().unwrap(),
            optimum
        );
        s.next_trial();
        prop_assert_eq!(s.run(), Status::Found);
        let cost = s.cost().unwrap();
        prop_assert!(at_most(optimum, cost));
        in_a_row = if same(cost, optimum) { in_a_row + 1 } else { 0 };
        trials += 1;
    }
    admissible(&s)
}

/// A graph case with every edge undirected (when asked) and no cost below [`FLOOR`].
fn positive(mut case: GraphCase, undirected: bool) -> GraphCase {
    for e in &mut case.edges {
        e.2 = e.2.max(FLOOR);
        if undirected {
            e.3 = false;
        }
    }
    case
}

fn config(algorithm: Algorithm, lookahead: u32) -> SearchConfig {
    SearchConfig::new(algorithm).lookahead(lookahead)
}

// ---------------------------------------------------------------------------------------------
// Random problems
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Undirected graphs: both rules arrive exactly when the goal can be reached, along
    /// existing arcs; LRTA* from an admissible start stays admissible, within the bound, and
    /// converges over trials; any estimate and weight (overestimating ones too) still arrives.
    #[test]
    fn undirected_graphs(
        case in graph_case(),
        lookahead in 1u32..=4,
        admissible in select(admissible_graph_heuristics()),
        any_h in select(Heuristic::ALL.to_vec()),
        weight in select(vec![1.0, 2.0, 5.0]),
    ) {
        let case = positive(case, true);
        let arcs = case.arcs();
        let (start, goal) = (case.start as u32, case.goal as u32);
        let s = Lrta::on(case.graph(admissible), start, goal, config(Algorithm::Lrta, lookahead)).unwrap();
        check_lrta_star(s.with_move_limit(LIMIT), &arcs)?;
        let reachable = dijkstra(&arcs, case.start)[case.goal].is_finite();
        for algorithm in [Algorithm::Lrta, Algorithm::Rta] {
            for (h, w) in [(admissible, 1.0), (any_h, weight)] {
                let mut s = Lrta::on(case.graph(h), start, goal, config(algorithm, lookahead).weight(w)).unwrap();
                let outcome = walk_and_check(&mut s.clone().with_move_limit(LIMIT), &arcs)?;
                prop_assert_eq!(matches!(outcome, Outcome::Arrived(_)), reachable, "{:?} {} x{}: {:?}", algorithm, h, w, outcome);
                // The same walk through build_on, the way the spaces page builds it.
                let mut boxed = build_on(case.graph(h), start, goal, config(algorithm, lookahead).weight(w)).unwrap();
                prop_assert_eq!(boxed.run(), s.run());
                prop_assert_eq!(boxed.path_indices(), s.path_indices());
            }
        }
    }

    /// Directed and mixed graphs: a one-way edge may trap the agent (and then it stops at
    /// once, where the truth agrees the goal cannot be reached); where nothing can trap it, it
    /// arrives.
    #[test]
    fn directed_graphs_trap_the_agent_only_where_the_goal_cannot_be_reached(
        case in graph_case(),
        lookahead in 1u32..=4,
        h in select(admissible_graph_heuristics()),
    ) {
        let case = positive(case, false);
        let arcs = case.arcs();
        let trap_free = no_trap(&arcs, case.start, case.goal);
        let reachable = dijkstra(&arcs, case.start)[case.goal].is_finite();
        for algorithm in [Algorithm::Lrta, Algorithm::Rta] {
            let s = Lrta::on(case.graph(h), case.start as u32, case.goal as u32, config(algorithm, lookahead)).unwrap();
            let outcome = walk_and_check(&mut s.with_move_limit(LIMIT), &arcs)?;
            prop_assert_eq!(outcome == Outcome::Unreachable, !reachable);
            if trap_free && reachable {
                prop_assert!(matches!(outcome, Outcome::Arrived(_)), "{:?}: {:?}", algorithm, outcome);
            }
        }
        let s = Lrta::on(case.graph(h), case.start as u32, case.goal as u32, config(Algorithm::Lrta, lookahead)).unwrap();
        check_lrta_star(s.with_move_limit(LIMIT), &arcs)?;
    }

    /// Hex grids (walls, terrain, both layouts), with the hex distance as the estimate.
    #[test]
    fn hex_grids(case in hex_case(), lookahead in 1u32..=4) {
        let arcs = hex_arcs(&case.grid, case.layout);
        let hex = HexGrid::new(case.grid.clone(), case.layout);
        let (start, goal) = (hex.node(case.start), hex.node(case.goal));
        let reachable = dijkstra(&arcs, start as usize)[goal as usize].is_finite();
        check_lrta_star(Lrta::on(hex.clone(), start, goal, config(Algorithm::Lrta, lookahead)).unwrap(), &arcs)?;
        let mut s = Lrta::on(hex, start, goal, config(Algorithm::Rta, lookahead)).unwrap();
        let outcome = walk_and_check(&mut s, &arcs)?;
        prop_assert_eq!(matches!(outcome, Outcome::Arrived(_)), reachable);
    }

    /// Slopes: moves dearer uphill than down, with the grid estimate for the rule.
    #[test]
    fn slopes(case in slope_case(), lookahead in 1u32..=4) {
        let arcs = case.arcs();
        let h = if case.rule == Diagonal::Never { Heuristic::Manhattan } else { Heuristic::Octile };
        let space = case.space(h);
        let (start, goal) = (case.grid.index(case.a) as u32, case.grid.index(case.b) as u32);
        let reachable = dijkstra(&arcs, start as usize)[goal as usize].is_finite();
        check_lrta_star(Lrta::on(space.clone(), start, goal, config(Algorithm::Lrta, lookahead)).unwrap(), &arcs)?;
        let mut s = Lrta::on(space, start, goal, config(Algorithm::Rta, lookahead)).unwrap();
        let outcome = walk_and_check(&mut s, &arcs)?;
        prop_assert_eq!(matches!(outcome, Outcome::Arrived(_)), reachable);
    }

    /// Teleports (some one-way): the teleport-aware estimate is admissible, so LRTA* stays
    /// below the true costs; the plain one may not be, and both rules still arrive wherever
    /// nothing can trap them.
    #[test]
    fn teleports(case in teleport_case(), lookahead in 1u32..=4) {
        let mut case = case;
        for t in &mut case.teleports {
            t.cost = t.cost.max(FLOOR);
        }
        let arcs = case.arcs();
        let (start, goal) = (case.grid.index(case.start), case.grid.index(case.goal));
        let trap_free = no_trap(&arcs, start, goal);
        let reachable = dijkstra(&arcs, start)[goal].is_finite();
        let (s, g) = (start as u32, goal as u32);
        check_lrta_star(Lrta::on(case.space(TeleportHeuristic::Teleports), s, g, config(Algorithm::Lrta, lookahead)).unwrap(), &arcs)?;
        for algorithm in [Algorithm::Lrta, Algorithm::Rta] {
            for which in [TeleportHeuristic::Teleports, TeleportHeuristic::Plain] {
                let mut walk = Lrta::on(case.space(which), s, g, config(algorithm, lookahead)).unwrap().with_move_limit(LIMIT);
                let outcome = walk_and_check(&mut walk, &arcs)?;
                prop_assert_eq!(outcome == Outcome::Unreachable, !reachable);
                if trap_free && reachable {
                    prop_assert!(matches!(outcome, Outcome::Arrived(_)), "{:?} {:?}: {:?}", algorithm, which, outcome);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// By hand
// ---------------------------------------------------------------------------------------------

/// The graph of the module docs: nodes S, D, E, F, G (0 to 4).
fn dead_end_graph() -> Graph {
    let mut g = Graph::new(false);
    for (id, x, y) in [("S", 3.0, 0.0), ("D", 2.0, 0.0), ("E", 3.0, 4.0), ("F", 0.0, 4.0), ("G", 0.0, 0.0)] {
        g.add_node(id, x, y).unwrap();
    }
    for (a, b, cost) in [(0, 1, 1.0), (0, 2, 4.0), (2, 3, 3.0), (3, 4, 4.0)] {
        g.add_edge(a, b, cost, false).unwrap();
    }
    g
}

const S: u32 = 0;
const D: u32 = 1;
const E: u32 = 2;
const F: u32 = 3;
const G: u32 = 4;

#[test]
fn lrta_star_on_a_small_graph_matches_the_hand_worked_table() {
    let mut s = Lrta::on(dead_end_graph(), S, G, SearchConfig::new(Algorithm::Lrta)).unwrap();
    assert_eq!(s.learned(), &[3.0, 2.0, 5.0, 4.0, 0.0]);
    // (at, h before, h after, to) for the 11 steps of the table.
    let table = [
        (S, 3.0, 3.0, D),
        (D, 2.0, 4.0, S),
        (S, 3.0, 5.0, D),
        (D, 4.0, 6.0, S),
        (S, 5.0, 7.0, D),
        (D, 6.0, 8.0, S),
        (S, 7.0, 9.0, D),
        (D, 8.0, 10.0, S),
        (S, 9.0, 9.0, E),
        (E, 5.0, 7.0, F),
        (F, 4.0, 4.0, G),
    ];
    for (k, &(at, old, new, to)) in table.iter().enumerate() {
        let event = s.step();
        if to == G {
            assert_eq!(event, StepEvent::Found { cost: 19.0 });
        } else {
            assert_eq!(event, StepEvent::Expanded(at), "step {}", k + 1);
        }
        let u = s.last_update().unwrap();
        assert_eq!((u.at, u.old, u.new), (at, old, new), "step {}", k + 1);
        assert_eq!(s.agent_node().unwrap(), to, "step {}", k + 1);
    }
    assert_eq!(s.status(), Status::Found);
    assert_eq!((s.steps(), s.moves(), s.cost()), (11, 11, Some(19.0)));
    assert_eq!(s.path_indices(), &[S, D, S, D, S, D, S, D, S, E, F, G]);
    assert_eq!(s.learned(), &[9.0, 10.0, 7.0, 4.0, 0.0]);
    // The last look-ahead examined F's neighbours E and G, one edge from F.
    assert_eq!((s.g_values()[E as usize], s.g_values()[G as usize]), (3.0, 4.0));
    assert_eq!((s.parents()[E as usize], s.parents()[G as usize]), (F, F));
    assert_eq!(s.open_entries(10).iter().map(|e| e.cell).collect::<Vec<_>>(), [E]);
    // Trials keep what was learned: 13, then the optimum 11 for good.
    let mut costs = Vec::new();
    for _ in 0..3 {
        s.next_trial();
        assert_eq!(s.run(), Status::Found);
        costs.push(s.cost().unwrap());
    }
    assert_eq!(costs, [13.0, 11.0, 11.0]);
    assert_eq!(s.learned(), &[11.0, 12.0, 7.0, 4.0, 0.0]); // = h* everywhere
                                                           // Reset forgets it.
    s.reset();
    assert_eq!(s.learned(), &[3.0, 2.0, 5.0, 4.0, 0.0]);
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(19.0));
}

#[test]
fn rta_star_on_the_small_graph_leaves_the_dead_end_for_good() {
    let mut s = Lrta::on(dead_end_graph(), S, G, SearchConfig::new(Algorithm::Rta)).unwrap();
    let inf = f64::INFINITY;
    let table = [
        (S, 3.0, 9.0, 3.0, 9.0, D),
        (D, 2.0, inf, 10.0, inf, S),
        (S, 9.0, inf, 9.0, inf, E),
        (E, 5.0, inf, 7.0, inf, F),
        (F, 4.0, inf, 4.0, inf, G),
    ];
    for (k, &(at, old, new, best, second, to)) in table.iter().enumerate() {
        s.step();
        let u: Update<u32> = s.last_update().unwrap();
        assert_eq!((u.at, u.old, u.new, u.best, u.second), (at, old, new, best, second), "step {}", k + 1);
        assert_eq!(s.agent_node().unwrap(), to, "step {}", k + 1);
    }
    assert_eq!(s.status(), Status::Found);
    assert_eq!(s.cost(), Some(13.0));
    assert_eq!(s.path_indices(), &[S, D, S, E, F, G]);
}

/// A free edge S-T next to the way S-G (cost 5), with no estimate: LRTA* at S values T at
/// 0 + 0 and G at 5 + 0, goes to T without raising h(S) (max(0, 0)), and T sends it back the
/// same way, for ever: it stops at its move limit. RTA* at S stores the second-best value 5,
/// so T values S at 5, stores ∞ (its only move) and goes back; S now values T at ∞ and
/// takes G: 3 moves, cost 5.
#[test]
fn a_free_edge_keeps_lrta_star_going_back_and_forth_until_its_move_limit() {
    let mut g = Graph::new(false);
    let s = g.add_node("S", 0.0, 0.0).unwrap();
    let t = g.add_node("T", 1.0, 0.0).unwrap();
    let goal = g.add_node("G", 5.0, 0.0).unwrap();
    g.add_edge(s, t, 0.0, false).unwrap();
    g.add_edge(s, goal, 5.0, false).unwrap();
    g.set_heuristic(Heuristic::Zero);
    let mut lrta = Lrta::on(g.clone(), s, goal, SearchConfig::new(Algorithm::Lrta)).unwrap().with_move_limit(100);
    assert_eq!(lrta.run(), Status::NoPath);
    assert_eq!((lrta.steps(), lrta.moves(), lrta.travelled()), (101, 100, 0.0));
    assert_eq!(lrta.learned(), &[0.0, 0.0, 0.0]);
    assert!(lrta.gave_up().unwrap().contains("limit of 100 moves"), "{:?}", lrta.gave_up());
    let mut rta = Lrta::on(g, s, goal, SearchConfig::new(Algorithm::Rta)).unwrap();
    assert_eq!(rta.run(), Status::Found);
    assert_eq!(rta.path_indices(), &[s, t, s, goal]);
    assert_eq!(rta.cost(), Some(5.0));
}

/// One-way streets: every node here has a one-way edge in or out (S -> A, A -> G, B -> C
/// are each the only way; C -> S leads back). Korf's second-best rule assumes the agent
/// comes back to a node only from a node it can move to; here it would value S at `∞` (its
/// only move) and C at `∞` too, and loop for ever between B and C. So at such nodes RTA*
/// stores the best value, as LRTA* would. No estimate; edges A -> B (1) before A -> G (4),
/// C -> B (1), C -> S (8).
///
/// | step  | at | values                 | h(at)   | to |
/// |-------|----|------------------------|---------|----|
/// | 1     | S  | A 1+0 (only)           | 0 -> 1  | A  |
/// | 2     | A  | B 1+0, G 4+0           | 0 -> 1  | B  |
/// | 3     | B  | C 1+0 (only)           | 0 -> 1  | C  |
/// | 4     | C  | B 1+1, S 8+1           | 0 -> 2  | B  |
/// | 5-11  | B, C in turn, each raised to 1 + the other: 3, 4, ..., 9 |  |  |
/// | 12    | C  | B 1+9=10, S 8+1=9      | 8 -> 9  | S  |
/// | 13    | S  | A 1+1 (only)           | 1 -> 2  | A  |
/// | 14    | A  | B 1+9, G 4+0           | 1 -> 4  | G  |
///
/// 14 moves, cost 1 + 1 + 9 x 1 + 8 + 1 + 4 = 24.
#[test]
fn a_one_way_street_is_not_a_dead_end_for_rta_star() {
    let mut g = Graph::new(true);
    let [s, a, b, c, goal] = ["S", "A", "B", "C", "G"].map(|id| g.add_node(id, 0.0, 0.0).unwrap());
    for (from, to, cost) in [(s, a, 1.0), (a, b, 1.0), (a, goal, 4.0), (b, c, 1.0), (c, b, 1.0), (c, s, 8.0)] {
        g.add_edge(from, to, cost, true).unwrap();
    }
    g.set_heuristic(Heuristic::Zero);
    let mut rta = Lrta::on(g, s, goal, SearchConfig::new(Algorithm::Rta)).unwrap();
    let mut news = Vec::new();
    while !rta.status().is_finished() {
        rta.step();
        news.push(rta.last_update().unwrap().new);
    }
    assert_eq!(news, [1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 9.0, 2.0, 4.0]);
    assert_eq!(rta.status(), Status::Found);
    assert_eq!(rta.path_indices(), &[s, a, b, c, b, c, b, c, b, c, b, c, s, a, goal]);
    assert_eq!(rta.cost(), Some(24.0));
}

/// S -> T is one way (T has no way out); S-G costs 5. With no estimate, T looks cheaper
/// (1 + 0 against 5 + 0): the agent takes it and is stuck. The step that moves onto T ends
/// the walk with no path and says why. Where the goal cannot be reached from the start at
/// all, the first step says no path without moving, and gives no other reason.
#[test]
fn a_one_way_edge_into_a_dead_end_traps_the_agent_and_an_unreachable_goal_stops_it_at_once() {
    let mut g = Graph::new(true);
    let s = g.add_node("S", 0.0, 0.0).unwrap();
    let t = g.add_node("T", 1.0, 0.0).unwrap();
    let goal = g.add_node("G", 2.0, 0.0).unwrap();
    g.add_edge(s, t, 1.0, true).unwrap();
    g.add_edge(s, goal, 5.0, false).unwrap();
    g.set_heuristic(Heuristic::Zero);
    for algorithm in [Algorithm::Lrta, Algorithm::Rta] {
        let mut walk = build_on(g.clone(), s, goal, SearchConfig::new(algorithm)).unwrap();
        assert_eq!(walk.step(), StepEvent::NoPath);
        assert_eq!((walk.status(), walk.steps(), walk.agent_node()), (Status::NoPath, 1, Some(t)));
        assert_eq!(walk.path_indices(), &[s, t]);
        assert!(walk.cost().is_none());
        let why = walk.gave_up().unwrap();
        assert!(why.contains("moved onto T, from which the goal cannot be reached"), "{why}");
        assert_eq!(walk.step(), StepEvent::Finished);
        // From T the goal cannot be reached at all.
        walk.set_end_nodes(t, goal).unwrap();
        assert_eq!(walk.step(), StepEvent::NoPath);
        assert_eq!((walk.steps(), walk.path_indices()), (1, &[t][..]));
        assert!(walk.gave_up().is_none());
        // Back to step 0 on the goal itself: found at once, cost 0.
        walk.set_end_nodes(goal, goal).unwrap();
        assert_eq!(walk.step(), StepEvent::Found { cost: 0.0 });
    }
}

#[test]
fn the_builders_hand_out_lrta_star_on_every_space_and_the_basic_stepper_refuses_it() {
    for algorithm in [Algorithm::Lrta, Algorithm::Rta] {
        assert_eq!(algorithm.square_grid_only(), None);
        assert!(algorithm.runs_on_any_space());
        // Search::on runs the basic searches only.
        let err = Search::on(dead_end_graph(), S, G, SearchConfig::new(algorithm)).unwrap_err();
        assert!(err.to_string().contains("its own stepper"), "{err}");
        // build_on gives the real-time stepper: the agent's walk, the learned h.
        let mut s = build_on(dead_end_graph(), S, G, SearchConfig::new(algorithm)).unwrap();
        assert_eq!(s.agent_node(), Some(S));
        assert_eq!(s.cell_values().unwrap().label, "learned h");
        assert_eq!(s.run(), Status::Found);
        assert_eq!(s.cost(), Some(if algorithm == Algorithm::Lrta { 19.0 } else { 13.0 }));
        s.seek(2);
        assert_eq!(
            (s.steps(), s.agent_node(), s.h_of(S)),
            (2, Some(S), if algorithm == Algorithm::Lrta { 3.0 } else { 9.0 })
        );
        // Bad ends and settings are refused.
        assert!(matches!(
            build_on(dead_end_graph(), 9, G, SearchConfig::new(algorithm)),
            Err(SearchError::Unsupported(_))
        ));
        let deep = SearchConfig::new(algorithm).lookahead(0);
        assert!(build_on(dead_end_graph(), S, G, deep).is_err());
    }
    assert!(Lrta::on(dead_end_graph(), S, G, SearchConfig::new(Algorithm::AStar)).is_err());

    // On a grid with a teleport: (0,0) -> (8,0) for 2 jumps most of a 10 x 1 corridor.
    let grid = Grid::new(10, 1).unwrap();
    let jump = Teleport { from: Point::new(0, 0), to: Point::new(8, 0), cost: 2.0, both_ways: false };
    let links = GridLinks::Teleports { list: vec![jump], heuristic: TeleportHeuristic::Teleports };
    let config = SearchConfig::new(Algorithm::Lrta).diagonal(Diagonal::Never).costs(Costs::Real);
    let mut s = build_linked(grid, Point::new(0, 0), Point::new(9, 0), config, &links).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(3.0));
    assert_eq!(s.path_indices(), &[0, 8, 9]);
    assert_eq!(s.agent().unwrap().at, Point::new(9, 0));
    assert!(s.overlay().notes.iter().any(|(k, _)| *k == "rule"));
}

/// Editing the space goes back to step 0 and forgets what was learned; a space of another
/// size gets new buffers.
#[test]
fn editing_the_space_starts_again() {
    let mut s = build_on(dead_end_graph(), S, G, SearchConfig::new(Algorithm::Lrta)).unwrap();
    s.advance(5);
    // A direct edge S-G for 2.5 (below D's 1 + 2 x 5/6, as the estimate now scales the
    // distance by 2.5 / 3): the agent takes it at once.
    let mut g = dead_end_graph();
    g.add_edge(S, G, 2.5, false).unwrap();
    s.edit_space(g.clone(), &[S, G]).unwrap();
    assert_eq!((s.steps(), s.status(), s.path_indices()), (0, Status::Ready, &[S][..]));
    assert_eq!(s.run(), Status::Found);
    assert_eq!((s.cost(), s.path_indices()), (Some(2.5), &[S, G][..]));
    // A sixth node, unconnected.
    g.add_node("X", 9.0, 9.0).unwrap();
    s.edit_space(g, &[5]).unwrap();
    assert_eq!(s.states().len(), 6);
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(2.5));
}
