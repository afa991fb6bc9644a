//! LPA* and D* Lite on every space, checked against the independent truth of `space_support`
//! (a Dijkstra over arcs the test reads off each space's rules itself).
//!
//! - Random graphs (directed, undirected, mixed; disconnected parts, self-loops, parallel
//!   edges), hex grids, teleports and slopes: LPA* costs the optimum along existing arcs, and
//!   D* Lite's agent walks a path that costs the optimum.
//! - Edits mid-search: graphs get costs changed, edges added, removed and turned one-way;
//!   hex, teleport and slope maps get walls and terrain painted. `edit_space` is called at a
//!   random step (before or after the search finished), the search keeps its steps, and
//!   running on gives exactly the cost of a fresh Dijkstra on the edited space. For D* Lite
//!   with a sensor of 0 the agent's walk from where it stood at the last edit costs the fresh
//!   optimum from there; with a longer sensor it costs at least that, along arcs that exist.
//! - LPA*'s bound: after an edit, a repair expands each node at most twice (once
//!   overconsistent, once underconsistent), as Koenig and Likhachev prove for edge costs over 0.
//! - A hand-worked repair on a five-node graph, and the refusals (free edges, walls at the ends).
//!
//! Zero-cost edges are refused by both searches, so the random cases have theirs priced at 1.

mod cases;
mod oracle;
mod space_support;

use cases::TERRAIN;
use oracle::*;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::dstar_lite::DStarLite;
use pathlab_core::search::lpa::Lpa;
use pathlab_core::search::{build_on, Algorithm, EventLog, SearchConfig, SpaceStepper, Status, StepEvent};
use pathlab_core::space::{Graph, HexGrid, HexLayout, Space, TeleportHeuristic};
use proptest::prelude::*;
use proptest::sample::Index;
use space_support::*;

fn lpa() -> SearchConfig {
    SearchConfig::new(Algorithm::Lpa)
}

fn dstar(sensor: u32) -> SearchConfig {
    SearchConfig::new(Algorithm::DStarLite).sensor(sensor)
}

/// The case with every free edge priced at 1.
fn priced(mut case: GraphCase) -> GraphCase {
    for e in &mut case.edges {
        if e.2 <= 0.0 {
            e.2 = 1.0;
        }
    }
    case
}

/// Steps a search on until it finishes, failing after `limit` steps.
fn finish_within<S: Space>(s: &mut dyn SpaceStepper<S>, limit: usize) -> Result<Status, TestCaseError> {
    while !s.status().is_finished() {
        prop_assert!(s.steps() <= limit, "{:?}: more than {} steps", s.config().algorithm, limit);
        s.step();
    }
    Ok(s.status())
}

/// Checks a D* Lite walk from trail position `from` on (where the agent stood at the last
/// edit, having walked `before`): found exactly when `left` (the truth's optimum from there)
/// is some, every move along an arc of `arcs` (the cheapest such), the moves adding up to
/// the cost walked since; with `exact`, that sum is the optimum.
fn check_walk<S: Space>(
    s: &dyn SpaceStepper<S>,
    arcs: &Arcs,
    from: usize,
    before: f64,
    left: Option<f64>,
    exact: bool,
) -> Result<(), TestCaseError> {
    let status = s.status();
    if exact {
        prop_assert_eq!(status == Status::Found, left.is_some(), "D* Lite {:?}, optimum left {:?}", status, left);
    }
    if status != Status::Found {
        return Ok(());
    }
    let cost = s.cost().unwrap();
    let path = s.path_indices();
    prop_assert_eq!(path.last().copied(), Some(s.goal_node()));
    let mut sum = 0.0;
    for pair in path[from..].windows(2) {
        let (u, v) = (pair[0] as usize, pair[1] as usize);
        let arc = arcs[u].iter().filter(|&&(t, _)| t == v).map(|&(_, c)| c).fold(f64::INFINITY, f64::min);
        prop_assert!(arc.is_finite(), "D* Lite moved {} -> {}, which has no arc", u, v);
        sum += arc;
    }
    prop_assert!(same(before + sum, cost), "D* Lite walked {} + {} but reports {}", before, sum, cost);
    let left = left.expect("a walk that reached the goal");
    prop_assert!(at_most(left, sum), "D* Lite walked {} from its last edit, below the optimum {}", sum, left);
    if exact {
        prop_assert!(same(left, sum), "D* Lite walked {} from its last edit, the optimum is {}", sum, left);
    }
    Ok(())
}

/// Runs LPA* and D* Lite (sensor 0) on a static space and checks both against the optimum.
fn static_check<S: Space + Clone + 'static>(
    space: S,
    start: usize,
    goal: usize,
    arcs: &Arcs,
) -> Result<(), TestCaseError> {
    let opt = reached(&dijkstra(arcs, start), goal);
    if let Some((cost, _)) = run_and_check(space.clone(), start, goal, lpa(), arcs, opt)? {
        prop_assert!(same(cost, opt.unwrap()), "LPA* {} but the optimum is {:?}", cost, opt);
    }
    let mut d = DStarLite::on(space, start as u32, goal as u32, dstar(0)).unwrap();
    finish_within(&mut d, 4 * arcs.len() + 8)?;
    check_walk(&d, arcs, 0, 0.0, opt, true)
}

// ---------------------------------------------------------------------------------------------
// Static spaces
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn graph_lpa_and_dstar_lite_find_the_optimum(case in graph_case(), h in 0usize..3) {
        let case = priced(case);
        let heuristic = admissible_graph_heuristics()[h % admissible_graph_heuristics().len()];
        static_check(case.graph(heuristic), case.start, case.goal, &case.arcs())?;
    }

    #[test]
    fn hex_lpa_and_dstar_lite_find_the_optimum(case in hex_case()) {
        let arcs = hex_arcs(&case.grid, case.layout);
        let hex = HexGrid::new(case.grid.clone(), case.layout);
        static_check(hex.clone(), hex.node(case.start) as usize, hex.node(case.goal) as usize, &arcs)?;
    }

    #[test]
    fn teleport_lpa_and_dstar_lite_find_the_optimum(mut case in teleport_case()) {
        for t in &mut case.teleports {
            t.cost = t.cost.max(0.5);
        }
        let (s, g) = (case.grid.index(case.start), case.grid.index(case.goal));
        static_check(case.space(TeleportHeuristic::Teleports), s, g, &case.arcs())?;
    }

    #[test]
    fn slope_lpa_and_dstar_lite_find_the_optimum(case in slope_case(), h in 0usize..4) {
        let admissible: Vec<Heuristic> =
            Heuristic::ALL.iter().copied().filter(|h| h.is_admissible(case.rule, Costs::Real)).collect();
        let heuristic = admissible[h % admissible.len()];
        let (a, b) = (case.grid.index(case.a), case.grid.index(case.b));
        static_check(case.space(heuristic), a, b, &case.arcs())?;
        static_check(case.space(heuristic), b, a, &case.arcs())?;
    }
}

// ---------------------------------------------------------------------------------------------
// Edits mid-search
// ---------------------------------------------------------------------------------------------

/// One rolled graph edit: what (0 reprice, 1 remove, 2 add, 3 turn), which edge, ends for an
/// added edge, a cost roll, a direction, and when (a roll for the step).
type GraphEdit = (u8, Index, Index, Index, f64, bool, u16);

fn graph_edits() -> impl Strategy<Value = Vec<GraphEdit>> {
    proptest::collection::vec(
        (0u8..4, any::<Index>(), any::<Index>(), any::<Index>(), 0.0f64..1.0, any::<bool>(), any::<u16>()),
        1..=4,
    )
}

/// Makes `edit` on `case`; returns the nodes whose edges changed (both ends of each edge).
fn edit_graph(case: &mut GraphCase, edit: &GraphEdit) -> Vec<u32> {
    let &(what, which, a, b, roll, directed, _) = edit;
    let n = case.places.len();
    let cost = 0.25 + 10.0 * roll;
    if what == 2 || case.edges.is_empty() {
        let (a, b) = (a.index(n), b.index(n));
        case.edges.push((a, b, cost, directed));
        return vec![a as u32, b as u32];
    }
    let k = which.index(case.edges.len());
    let (from, to, old, was) = case.edges[k];
    match what {
        0 => case.edges[k].2 = cost,
        1 => {
            case.edges.remove(k);
        }
        _ => case.edges[k] = (from, to, old, !was),
    }
    vec![from as u32, to as u32]
}

/// The step at which an edit is made: anywhere from 1 to a little past a whole search.
fn when(roll: u16, nodes: usize) -> usize {
    1 + roll as usize % (2 * nodes + 4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Graph edits at random steps: LPA* ends on the fresh optimum of the edited graph, and
    /// the repair after the last edit expands no node more than twice.
    #[test]
    fn graph_lpa_repairs_match_a_fresh_dijkstra(case in graph_case(), edits in graph_edits(), h in 0usize..3) {
        let mut case = priced(case);
        let heuristic = admissible_graph_heuristics()[h % admissible_graph_heuristics().len()];
        let n = case.places.len();
        let mut s = build_on(case.graph(heuristic), case.start as u32, case.goal as u32, lpa()).unwrap();
        let mut log = EventLog::default();
        let mut counts = vec![0usize; n];
        for edit in &edits {
            let at = when(edit.6, n);
            while s.steps() < at && !s.status().is_finished() {
                s.step();
            }
            let changed = edit_graph(&mut case, edit);
            s.edit_space(case.graph(heuristic), &changed).unwrap();
            counts.fill(0);
        }
        let steps = s.steps();
        while !s.status().is_finished() {
            prop_assert!(s.steps() <= steps + 2 * n + 2, "LPA*: the repair runs on past {} steps", 2 * n + 2);
            s.step_logged(&mut log);
            if let Some(u) = log.expanded {
                counts[u as usize] += 1;
                prop_assert!(counts[u as usize] <= 2, "LPA*: node {} expanded a third time in one repair", u);
            }
        }
        let arcs = case.arcs();
        let opt = reached(&dijkstra(&arcs, case.start), case.goal);
        let status = s.status();
        if let Some((cost, _)) = check_answer(s.as_ref(), status, case.start, case.goal, &arcs, opt)? {
            prop_assert!(same(cost, opt.unwrap()), "LPA* {} after the edits, a fresh Dijkstra {:?}", cost, opt);
        }
    }

    /// Graph edits at random steps while D* Lite's agent walks: with a sensor of 0 its walk
    /// from where it stood at the last edit costs the fresh optimum from there; with a sensor
    /// of 1 or 2 it costs at least that, along arcs of the edited graph.
    #[test]
    fn graph_dstar_lite_repairs_walk_the_fresh_optimum(
        case in graph_case(), edits in graph_edits(), sensor in 0u32..3,
    ) {
        let mut case = priced(case);
        let n = case.places.len();
        let mut s = DStarLite::on(case.graph(Heuristic::Euclidean), case.start as u32, case.goal as u32, dstar(sensor)).unwrap();
        let (mut from, mut before, mut agent) = (0, 0.0, case.start);
        for edit in &edits {
            let at = when(edit.6, n);
            while s.steps() < at && !s.status().is_finished() {
                s.step();
            }
            let changed = edit_graph(&mut case, edit);
            s.edit_space(case.graph(Heuristic::Euclidean), &changed).unwrap();
            (from, before, agent) = (s.moves(), s.travelled(), s.agent_node().unwrap() as usize);
        }
        finish_within(&mut s, 20 * n + 40)?;
        let arcs = case.arcs();
        let left = reached(&dijkstra(&arcs, agent), case.goal);
        check_walk(&s, &arcs, from, before, left, sensor == 0)?;
    }
}

/// Paints `cells` (rolled) with walls or terrain, sparing `keep`; returns the nodes whose
/// edges changed: each painted cell and every cell within one step of it either way (on a
/// square grid the eight round it, since a diagonal depends on the cells beside it; on hexes
/// the six).
fn paint_rolls(grid: &mut Grid, rolls: &[(Index, u8)], keep: &[usize], hex: Option<HexLayout>) -> Vec<u32> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let mut changed = Vec::new();
    for &(cell, roll) in rolls {
        let i = cell.index(grid.len());
        let value = if roll < 3 { WALL } else { TERRAIN[roll as usize % TERRAIN.len()] };
        if value == WALL && keep.contains(&i) {
            continue;
        }
        let mut cells = grid.cells().to_vec();
        cells[i] = value;
        *grid = Grid::from_cells(grid.width(), grid.height(), cells).unwrap();
        let (x, y) = (i as i64 % w, i as i64 / w);
        let round: Vec<(i64, i64)> = match hex {
            Some(layout) => hex_offsets(layout, x, y).to_vec(),
            None => MOVES.to_vec(),
        };
        changed.push(i as u32);
        for (dx, dy) in round {
            let (nx, ny) = (x + dx, y + dy);
            if nx >= 0 && ny >= 0 && nx < w && ny < h {
                changed.push((ny * w + nx) as u32);
            }
        }
    }
    changed
}

fn paint_strokes() -> impl Strategy<Value = Vec<(u16, Vec<(Index, u8)>)>> {
    proptest::collection::vec((any::<u16>(), proptest::collection::vec((any::<Index>(), 0u8..8), 1..=4)), 1..=3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Walls and terrain painted on hexes at random steps: LPA* ends on the fresh optimum, and
    /// D* Lite (sensor 0) walks the fresh optimum from where it stood at the last stroke.
    #[test]
    fn hex_repairs_match_a_fresh_dijkstra(case in hex_case(), strokes in paint_strokes()) {
        let (start, goal) = (case.grid.index(case.start), case.grid.index(case.goal));
        let n = case.grid.len();
        let space = |grid: &Grid| HexGrid::new(grid.clone(), case.layout);
        let mut grid = case.grid.clone();
        let mut s = build_on(space(&grid), start as u32, goal as u32, lpa()).unwrap();
        let mut d = DStarLite::on(space(&grid), start as u32, goal as u32, dstar(0)).unwrap();
        let (mut from, mut before, mut agent) = (0, 0.0, start);
        for (roll, rolls) in &strokes {
            let at = when(*roll, n);
            s.advance(at.saturating_sub(s.steps()));
            d.advance(at.saturating_sub(d.steps()));
            let keep = [start, goal, d.agent_node().unwrap() as usize];
            let changed = paint_rolls(&mut grid, rolls, &keep, Some(case.layout));
            s.edit_space(space(&grid), &changed).unwrap();
            d.edit_space(space(&grid), &changed).unwrap();
            (from, before, agent) = (d.moves(), d.travelled(), d.agent_node().unwrap() as usize);
        }
        let arcs = hex_arcs(&grid, case.layout);
        let opt = reached(&dijkstra(&arcs, start), goal);
        let limit = s.steps() + 2 * n + 2;
        let status = finish_within(s.as_mut(), limit)?;
        if let Some((cost, _)) = check_answer(s.as_ref(), status, start, goal, &arcs, opt)? {
            prop_assert!(same(cost, opt.unwrap()), "LPA* {} after painting, a fresh Dijkstra {:?}", cost, opt);
        }
        finish_within(&mut d, 20 * n + 40)?;
        check_walk(&d, &arcs, from, before, reached(&dijkstra(&arcs, agent), goal), true)?;
    }

    /// The same on teleport and slope maps (square grids underneath): walls and terrain
    /// painted at random steps, handed over with `edit_space`.
    #[test]
    fn teleport_and_slope_repairs_match_a_fresh_dijkstra(
        mut tele in teleport_case(), slope in slope_case(), strokes in paint_strokes(), sensor in 0u32..2,
    ) {
        for t in &mut tele.teleports {
            t.cost = t.cost.max(0.5);
        }
        // Teleport ends are never walled (the truth here does not drop walled teleports).
        let ends: Vec<usize> =
            tele.teleports.iter().flat_map(|t| [tele.grid.index(t.from), tele.grid.index(t.to)]).collect();
        let (start, goal) = (tele.grid.index(tele.start), tele.grid.index(tele.goal));
        let n = tele.grid.len();
        let mut s = build_on(tele.space(TeleportHeuristic::Teleports), start as u32, goal as u32, lpa()).unwrap();
        let mut d = DStarLite::on(tele.space(TeleportHeuristic::Teleports), start as u32, goal as u32, dstar(sensor)).unwrap();
        let (mut from, mut before, mut agent) = (0, 0.0, start);
        for (roll, rolls) in &strokes {
            let at = when(*roll, n);
            s.advance(at.saturating_sub(s.steps()));
            d.advance(at.saturating_sub(d.steps()));
            let mut keep = vec![start, goal, d.agent_node().unwrap() as usize];
            keep.extend_from_slice(&ends);
            let changed = paint_rolls(&mut tele.grid, rolls, &keep, None);
            s.edit_space(tele.space(TeleportHeuristic::Teleports), &changed).unwrap();
            d.edit_space(tele.space(TeleportHeuristic::Teleports), &changed).unwrap();
            (from, before, agent) = (d.moves(), d.travelled(), d.agent_node().unwrap() as usize);
        }
        let arcs = tele.arcs();
        let opt = reached(&dijkstra(&arcs, start), goal);
        let limit = s.steps() + 2 * n + 2;
        let status = finish_within(s.as_mut(), limit)?;
        if let Some((cost, _)) = check_answer(s.as_ref(), status, start, goal, &arcs, opt)? {
            prop_assert!(same(cost, opt.unwrap()), "LPA* teleports {} after painting, fresh {:?}", cost, opt);
        }
        finish_within(&mut d, 20 * n + 40)?;
        check_walk(&d, &arcs, from, before, reached(&dijkstra(&arcs, agent), goal), sensor == 0)?;

        let mut slope = slope;
        let (a, b) = (slope.grid.index(slope.a), slope.grid.index(slope.b));
        let heuristic = Heuristic::default_for(slope.rule);
        let n = slope.grid.len();
        let mut s = build_on(slope.space(heuristic), a as u32, b as u32, lpa()).unwrap();
        for (roll, rolls) in &strokes {
            s.advance(when(*roll, n).saturating_sub(s.steps()));
            let changed = paint_rolls(&mut slope.grid, rolls, &[a, b], None);
            s.edit_space(slope.space(heuristic), &changed).unwrap();
        }
        let arcs = slope.arcs();
        let opt = reached(&dijkstra(&arcs, a), b);
        let limit = s.steps() + 2 * n + 2;
        let status = finish_within(s.as_mut(), limit)?;
        if let Some((cost, _)) = check_answer(s.as_ref(), status, a, b, &arcs, opt)? {
            prop_assert!(same(cost, opt.unwrap()), "LPA* slopes {} after painting, fresh {:?}", cost, opt);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// By hand
// ---------------------------------------------------------------------------------------------

/// Five nodes, undirected, estimate 0 (so a key is `[min(g, rhs); min(g, rhs)]`):
///
/// ```text
///   S --1-- A --1-- B --1-- G        edge 0: S-A 1, edge 1: A-B 1, edge 2: B-G 1,
///    \                     /         edge 3: S-C 2, edge 4: C-G 4
///     `--2-- C ----4------'
/// ```
///
/// First search: S (g 0) offers A 1 and C 2; A offers B 2; C (keyed before B) offers G 6; B
/// offers G 3; G settles at 3. Five expansions (S, A, C, B, G), then the step that finds the
/// goal settled: cost 3 along S A B G.
///
/// Edit: A-B costs 5. The nodes of the changed edge are A and B; LPA* re-derives rhs of A, B
/// and the nodes their edges lead to (S, G):
/// - rhs(A) = min(g(S) + 1, g(B) + 5) = 1 = g(A): consistent.
/// - rhs(B) = min(g(A) + 5, g(G) + 1) = 4 (G's old g still vouches for it) > g(B) = 2:
///   underconsistent, key [2; 2].
/// - rhs(G) = min(g(B) + 1, g(C) + 4) = 3 = g(G): consistent, for now.
///
/// Repair:
/// 1. B [2; 2], underconsistent: g(B) = inf; G took its rhs from B, so rhs(G) = g(C) + 4 = 6
///    (key [3; 3]); B again: rhs(B) = g(G) + 1 = 4 (key [4; 4]).
/// 2. G [3; 3], underconsistent: g(G) = inf; B took its rhs from G, so rhs(B) = g(A) + 5 = 6
///    (key [6; 6]); G again: rhs(G) = 6 from C (key [6; 6], after B's).
/// 3. B [6; 6], overconsistent: g(B) = 6; it offers G 7 and A 11, neither better.
/// 4. G [6; 6], overconsistent: g(G) = 6. The goal is settled: cost 6 along S C G.
///
/// Four expansions, of B and G only, each twice; S, A and C keep their g untouched.
#[test]
fn a_dearer_edge_is_repaired_by_hand() {
    let mut g = Graph::new(false);
    let [s, a, b, goal, c] = ["S", "A", "B", "G", "C"].map(|id| g.add_node(id, 0.0, 0.0).unwrap());
    for (from, to, cost) in [(s, a, 1.0), (a, b, 1.0), (b, goal, 1.0), (s, c, 2.0), (c, goal, 4.0)] {
        g.add_edge(from, to, cost, false).unwrap();
    }
    g.set_heuristic(Heuristic::Zero);
    let mut search = Lpa::on(g.clone(), s, goal, lpa()).unwrap();
    let mut log = EventLog::default();
    let mut order = Vec::new();
    while !search.status().is_finished() {
        SpaceStepper::step_logged(&mut search, &mut log);
        order.extend(log.expanded);
    }
    assert_eq!(order, [s, a, c, b, goal]);
    assert_eq!((search.steps(), search.cost(), search.path_indices()), (6, Some(3.0), &[s, a, b, goal][..]));

    g.set_edge(1, 5.0, false).unwrap();
    search.edit_space(g, &[a, b]).unwrap();
    assert_eq!(search.status(), Status::Searching);
    assert_eq!((search.steps(), search.expanded()), (6, 5), "the steps are kept");
    assert_eq!(search.rhs_values()[b as usize], 4.0);
    assert_eq!(search.open_count(), 1, "only B is inconsistent");

    let mut repair = Vec::new();
    let mut values = Vec::new();
    while !search.status().is_finished() {
        let event = SpaceStepper::step_logged(&mut search, &mut log);
        if let (StepEvent::Expanded(_), Some(u)) = (event, log.expanded) {
            repair.push(u);
            values.push(search.g_values()[u as usize]);
        }
    }
    assert_eq!(repair, [b, goal, b, goal]);
    assert_eq!(values, [f64::INFINITY, f64::INFINITY, 6.0, 6.0]);
    assert_eq!((search.cost(), search.path_indices()), (Some(6.0), &[s, c, goal][..]));
    assert_eq!([s, a, c].map(|v| search.g_values()[v as usize]), [0.0, 1.0, 2.0]);
    let report = search.repair().unwrap();
    assert_eq!((report.changed, report.re_expanded), (2, 4));

    // Going back before the edit and forward again replays it at the same step.
    let end = search.steps();
    search.seek(3);
    assert_eq!((search.steps(), search.expanded()), (3, 3));
    search.seek(end);
    assert_eq!((search.cost(), search.expanded()), (Some(6.0), 9));
}

/// Free edges, and ends or an agent on a wall, are refused with a reason.
#[test]
fn free_edges_and_walled_ends_are_refused() {
    let mut g = Graph::new(true);
    let (a, b) = (g.add_node("A", 0.0, 0.0).unwrap(), g.add_node("B", 1.0, 0.0).unwrap());
    g.add_edge(a, b, 0.0, true).unwrap();
    for config in [lpa(), dstar(1)] {
        let why = build_on(g.clone(), a, b, config).err().expect("a free edge is refused").to_string();
        assert!(why.contains("costs 0"), "{why}");
    }
    let mut ok = g.clone();
    ok.set_edge(0, 1.0, true).unwrap();
    let mut s = build_on(ok.clone(), a, b, lpa()).unwrap();
    s.step();
    assert!(s.edit_space(g.clone(), &[a, b]).is_err(), "an edit may not bring a free edge");
    assert_eq!(s.steps(), 1, "a refused edit changes nothing");
    assert!(build_on(ok, a, b, lpa().weight(2.0)).is_err());

    let grid = Grid::new(3, 1).unwrap();
    let hex = HexGrid::new(grid.clone(), HexLayout::PointyTop);
    let mut d = build_on(hex.clone(), 0, 2, dstar(0)).unwrap();
    d.step();
    let walled = Grid::from_cells(3, 1, vec![WALL, 1, 1]).unwrap();
    assert!(d.edit_space(HexGrid::new(walled, HexLayout::PointyTop), &[0, 1]).is_err());
    assert_eq!(d.run(), Status::Found);
    assert_eq!(d.cost(), Some(2.0));
}

/// On a teleport map built through `build_linked`, the grid stepper's `paint` repairs too.
#[test]
fn painting_a_teleport_map_repairs() {
    use pathlab_core::search::{build_linked, GridLinks};
    use pathlab_core::space::Teleport;
    let grid = Grid::new(10, 3).unwrap();
    let jump = Teleport { from: Point::new(0, 1), to: Point::new(8, 1), cost: 1.0, both_ways: false };
    let links = GridLinks::Teleports { list: vec![jump], heuristic: TeleportHeuristic::Teleports };
    let config = lpa().diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan);
    let mut s = build_linked(grid, Point::new(0, 1), Point::new(9, 1), config, &links).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(2.0));
    s.paint(&[Point::new(9, 1)], 5).unwrap();
    assert_eq!(s.status(), Status::Searching, "the steps are kept");
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(6.0), "the jump (1), then into the goal, whose terrain now costs 5");
}
