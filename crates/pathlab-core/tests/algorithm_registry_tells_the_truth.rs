//! The registry (`search::ALGORITHMS`) checked against what each algorithm does when run, not
//! against a second copy of the table:
//! - optimal (always, or with an admissible heuristic at weight 1) exactly when it costs what an
//!   independent reference Dijkstra costs on every fixture, and some fixture catches each of the
//!   others out;
//! - any-angle exactly when some path costs less than any path of grid moves;
//! - an agent exactly when the stepper has a walking agent; incremental exactly when it keeps
//!   its steps after a wall is painted and reports a repair;
//! - the open list's key is what the order says (g + w·h, g, h, a place in the queue or stack),
//!   and where the order is marked exact its first entry is the node the next step expands;
//! - weighted exactly when the weight changes the keys; a heuristic exactly when the open list
//!   holds estimates; look-ahead, cluster, hand, re-opening (under an inconsistent heuristic),
//!   IDA*'s threshold rule, the neighbour order and the skeleton's plug-ins change the run
//!   exactly for the algorithms that take them;
//! - on the page exactly when `build` makes a stepper of it (the rest of these checks run
//!   those).

mod common;
mod oracle;

use common::mazes;
use oracle::{optimum, same};
use pathlab_core::formats::course;
use pathlab_core::generate::{generate, Generator};
use pathlab_core::grid::{Costs, Diagonal, Grid, NeighbourOrder, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{
    build, AlgorithmInfo, Hand, ListKind, OpenOrder, Optimality, SearchConfig, Setting, Skeleton, StepEvent, Stepper,
    Threshold, ALGORITHMS,
};

/// A problem to run every algorithm on.
struct Case {
    name: String,
    grid: Grid,
    start: Point,
    goal: Point,
}

/// The shared hand-drawn mazes and a few generated maps large enough for several clusters.
fn cases() -> Vec<Case> {
    let mut out: Vec<Case> =
        mazes().into_iter().map(|m| Case { name: m.name.into(), grid: m.grid, start: m.start, goal: m.goal }).collect();
    for (kind, seed) in [(Generator::Rooms, 1), (Generator::Rooms, 2), (Generator::Maze, 3), (Generator::Random, 4)] {
        let g = generate(kind, 24, 24, seed, 0.25).unwrap();
        out.push(Case { name: format!("{kind} {seed}"), grid: g.grid, start: g.start, goal: g.goal });
    }
    out
}

/// The rows of the steppers: every row on the page. The references off it (the visibility
/// graph) are not steppers; `build_refuses_exactly_the_rows_off_the_page` checks that.
fn stepped() -> impl Iterator<Item = &'static AlgorithmInfo> {
    ALGORITHMS.iter().filter(|r| r.on_page)
}

#[test]
fn build_refuses_exactly_the_rows_off_the_page() {
    let case = open_field();
    for row in ALGORITHMS {
        let built = start(&case, SearchConfig::new(row.algorithm));
        assert_eq!(built.is_some(), row.on_page, "{}", row.algorithm);
    }
    assert!(ALGORITHMS.iter().any(|r| !r.on_page), "the visibility graph is a reference off the page");
}

/// Steps enough for every run here; crash and turn may walk in circles for ever.
const STEP_CAP: usize = 20_000;

/// Builds `config` on `case`, or `None` where the algorithm refuses the map (terrain for JPS).
fn start(case: &Case, config: SearchConfig) -> Option<Box<dyn Stepper>> {
    build(case.grid.clone(), case.start, case.goal, config).ok()
}

/// How a finished run ended: a path of some cost, or none.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Answer {
    Cost(f64),
    NoPath,
}

impl Answer {
    fn of(cost: Option<f64>) -> Self {
        cost.map_or(Self::NoPath, Self::Cost)
    }

    fn same(self, other: Self) -> bool {
        match (self, other) {
            (Self::Cost(a), Self::Cost(b)) => same(a, b),
            (a, b) => a == b,
        }
    }
}

/// How the run ended; `None` where the algorithm refuses the map, gives up (IDA* at its
/// visit limit) or has not finished within the step cap.
fn run(case: &Case, config: SearchConfig) -> Option<Answer> {
    let mut s = start(case, config)?;
    s.advance(STEP_CAP);
    (s.status().is_finished() && s.gave_up().is_none()).then(|| Answer::of(s.cost()))
}

#[test]
fn optimal_exactly_when_every_fixture_costs_what_the_reference_dijkstra_costs() {
    for row in stepped() {
        let mut caught = Vec::new();
        let mut ran = 0;
        for case in cases() {
            for rule in [Diagonal::Never, Diagonal::NoCornerCutting] {
                let config = SearchConfig::new(row.algorithm).diagonal(rule);
                assert_eq!(config.is_optimal(), row.optimal != Optimality::Never, "{}", row.algorithm);
                let Some(got) = run(&case, config) else { continue };
                ran += 1;
                let want = Answer::of(optimum(&case.grid, case.start, case.goal, rule, config.costs));
                if !got.same(want) {
                    caught.push(format!("{} ({rule}): {got:?}, the reference {want:?}", case.name));
                }
            }
        }
        assert!(ran >= 10, "{}: ran on only {ran} cases", row.algorithm);
        match row.optimal {
            Optimality::Always | Optimality::IfAdmissible => {
                assert!(caught.is_empty(), "{} is marked optimal but {caught:?}", row.algorithm);
            }
            Optimality::Never => {
                assert!(!caught.is_empty(), "{} is marked not optimal but always cost the optimum", row.algorithm);
            }
        }
    }
}

#[test]
fn always_optimal_means_whatever_the_heuristic_and_weight() {
    for row in stepped().filter(|r| r.optimal == Optimality::Always) {
        for case in cases() {
            let config = SearchConfig::new(row.algorithm).heuristic(Heuristic::Manhattan).weight(3.0);
            let want = Answer::of(optimum(&case.grid, case.start, case.goal, config.diagonal, config.costs));
            let got = run(&case, config).unwrap();
            assert!(got.same(want), "{}: {}: {got:?}, the reference {want:?}", row.algorithm, case.name);
        }
    }
}

#[test]
fn any_angle_exactly_when_a_path_costs_less_than_grid_moves_can() {
    // An open room: the straight line from (1,1) to (9,4) is shorter than any 8-connected path.
    let case =
        Case { name: "open".into(), grid: Grid::new(12, 7).unwrap(), start: Point::new(1, 1), goal: Point::new(9, 4) };
    let grid_best = optimum(&case.grid, case.start, case.goal, Diagonal::NoCornerCutting, Costs::Real);
    let grid_best = grid_best.unwrap();
    for row in stepped() {
        let Some(Answer::Cost(got)) = run(&case, SearchConfig::new(row.algorithm)) else { panic!("{}", row.algorithm) };
        assert_eq!(got < grid_best - 1e-9, row.any_angle, "{}: {got} against {grid_best} by grid moves", row.algorithm);
    }
}

#[test]
fn agents_walk_and_incremental_searches_repair() {
    let case =
        Case { name: "open".into(), grid: Grid::new(10, 6).unwrap(), start: Point::new(1, 2), goal: Point::new(8, 2) };
    for row in stepped() {
        let mut s = start(&case, SearchConfig::new(row.algorithm)).unwrap();
        s.step();
        assert_eq!(s.agent().is_some(), row.agent, "{}", row.algorithm);
        s.advance(STEP_CAP);
        let steps = s.steps();
        // A wall away from both ends: a fresh search starts again at step 0.
        s.paint(&[Point::new(5, 0)], WALL).unwrap();
        assert_eq!(s.steps() == steps, row.incremental, "{}: kept its steps", row.algorithm);
        s.advance(STEP_CAP);
        assert_eq!(s.repair().is_some(), row.incremental, "{}: reports a repair", row.algorithm);
    }
}

#[test]
fn open_list_keys_follow_the_order_and_exact_orders_name_the_next_expansion() {
    for row in stepped() {
        let weight = if row.weighted { 1.5 } else { 1.0 };
        let mut exact_checked = 0;
        for case in cases() {
            let Some(mut s) = start(&case, SearchConfig::new(row.algorithm).weight(weight)) else { continue };
            for _ in 0..STEP_CAP {
                let entries = s.open_entries(usize::MAX);
                for (place, e) in entries.iter().enumerate() {
                    let want = match row.order {
                        OpenOrder::F => e.g + weight * e.h,
                        OpenOrder::G => e.g,
                        OpenOrder::H => e.h,
                        OpenOrder::Queue | OpenOrder::Stack => place as f64,
                    };
                    // (LPA* lists a cell whose g is not yet known at an infinite key.)
                    assert!(
                        e.key == want || same(e.key, want),
                        "{} on {}: key {} for {:?}",
                        row.algorithm,
                        case.name,
                        e.key,
                        row.order
                    );
                }
                let next = entries.first().map(|e| s.grid().point_at(e.cell as usize));
                match (s.step(), next) {
                    // (A* with smoothing smooths after its open list is done.)
                    (StepEvent::Expanded(p), Some(next)) if row.exact_order => {
                        assert_eq!(p, next, "{} on {}", row.algorithm, case.name);
                        exact_checked += 1;
                    }
                    (StepEvent::Finished, _) => break,
                    _ => {}
                }
            }
        }
        assert!(!row.exact_order || exact_checked > 50, "{}: {exact_checked} expansions checked", row.algorithm);
    }
}

/// An open field of several of hierarchical A*'s clusters, the goal far from the start.
fn open_field() -> Case {
    Case {
        name: "open field".into(),
        grid: Grid::new(30, 12).unwrap(),
        start: Point::new(1, 2),
        goal: Point::new(27, 9),
    }
}

/// The open field with a wall across most of it between the ends: on the open field pruned
/// JPS+ sees the goal from the start's diagonal and its open list holds nothing else, so the
/// tests that read estimates and keys off the open list take this field too.
fn walled_field() -> Case {
    let mut grid = Grid::new(30, 12).unwrap();
    for y in 0..11 {
        grid.set(Point::new(15, y), pathlab_core::grid::WALL).unwrap();
    }
    Case { name: "walled field".into(), grid, ..open_field() }
}

/// The open lists after each of the first three steps.
fn first_open(case: &Case, config: SearchConfig) -> Option<Vec<(u32, f64, f64)>> {
    let mut s = start(case, config)?;
    let mut seen = Vec::new();
    for _ in 0..3 {
        s.step();
        seen.extend(s.open_entries(usize::MAX).into_iter().map(|e| (e.cell, e.h, e.key)));
    }
    Some(seen)
}

#[test]
fn weighted_exactly_when_the_weight_changes_the_keys() {
    for row in stepped() {
        let changed = [open_field(), walled_field()].iter().any(|case| {
            let plain = first_open(case, SearchConfig::new(row.algorithm)).unwrap();
            // Refusing a weight (LPA*, D* Lite) is not using it.
            first_open(case, SearchConfig::new(row.algorithm).weight(2.0)).is_some_and(|w| w != plain)
        });
        assert_eq!(changed, row.weighted, "{}", row.algorithm);
    }
}

#[test]
fn takes_a_heuristic_exactly_when_its_open_list_holds_estimates() {
    for row in stepped() {
        let open: Vec<_> = [open_field(), walled_field()]
            .iter()
            .flat_map(|case| first_open(case, SearchConfig::new(row.algorithm)).unwrap())
            .collect();
        let estimates = open.iter().any(|&(_, h, _)| h > 0.0);
        assert_eq!(estimates, row.takes(Setting::Heuristic), "{}: {open:?}", row.algorithm);
    }
}

/// What a run does: every step's event, in order, then the cost. Two runs that differ in
/// the order they expand nodes, the nodes they visit or what they find differ here.
fn trace(case: &Case, config: SearchConfig) -> Option<(Vec<StepEvent>, Option<f64>)> {
    let mut s = start(case, config)?;
    let mut events = Vec::new();
    while events.len() < STEP_CAP && !s.status().is_finished() {
        events.push(s.step());
    }
    Some((events, s.cost()))
}

/// A settings change, made on top of a base that lets it show (re-opening only ever happens
/// under an inconsistent heuristic: Manhattan with diagonal moves).
type Change = fn(SearchConfig) -> SearchConfig;

/// The preset `reopen-manhattan`: with Manhattan, diagonal moves and 10/14 costs, A* closes a
/// cell by a dear way before a cheaper one reaches it (the preset's explanation works it).
fn reopen_case() -> Case {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/reopen-manhattan.txt");
    let m = course::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    Case { name: "reopen-manhattan".into(), grid: m.grid, start: m.start.unwrap(), goal: m.goal.unwrap() }
}

#[test]
fn each_setting_changes_the_run_exactly_where_taken() {
    let same: Change = |c| c;
    let settings: [(Setting, Change, Change); 7] = [
        (Setting::Lookahead, same, |c| c.lookahead(4)),
        (Setting::Cluster, same, |c| c.cluster(4)),
        (Setting::Hand, same, |c| c.hand(Hand::Right)),
        (
            Setting::Reopen,
            |c| c.heuristic(Heuristic::Manhattan).diagonal(Diagonal::Always).costs(Costs::Integer),
            |c| c.reopen(true),
        ),
        (Setting::Threshold, same, |c| c.threshold(Threshold::PlusOne)),
        (Setting::Order, same, |c| c.order("wsen".parse::<NeighbourOrder>().unwrap())),
        (Setting::PlugIns, same, |c| c.skeleton(Skeleton { list: ListKind::Queue, ..Skeleton::default() })),
    ];
    let mut all = cases();
    all.push(reopen_case());
    for row in stepped() {
        for (setting, base, change) in settings {
            let differs = all.iter().any(|case| {
                let plain = base(SearchConfig::new(row.algorithm));
                trace(case, plain).is_some_and(|a| trace(case, change(plain)) != Some(a))
            });
            assert_eq!(differs, row.takes(setting), "{} and {setting}", row.algorithm);
        }
    }
}

/// A row that says an overestimating heuristic cannot mislead it must not promise optimality
/// under an admissible one; and where it takes the heuristic menu yet says so because it
/// always estimates by the straight line (the any-angle searches), every heuristic on the
/// menu finds the same answer.
#[test]
fn the_heuristic_misleads_only_where_the_row_says() {
    for row in stepped().filter(|r| !r.inadmissible_misleads) {
        assert_ne!(row.optimal, Optimality::IfAdmissible, "{}", row.algorithm);
        if !(row.any_angle && row.takes(Setting::Heuristic)) {
            continue;
        }
        for case in cases() {
            let base = SearchConfig::new(row.algorithm);
            let want = run(&case, base);
            for &h in Heuristic::ALL {
                let got = run(&case, base.heuristic(h));
                let agree = match (got, want) {
                    (Some(a), Some(b)) => a.same(b),
                    (a, b) => a == b,
                };
                assert!(agree, "{} with {h} on {}: {got:?}, with the default {want:?}", row.algorithm, case.name);
            }
        }
    }
}

#[test]
fn goal_expanded_exactly_when_a_search_runs_from_the_goal() {
    // A search that runs from the goal expands it at once, in its first two steps (bidirectional
    // A* alternates its halves; D* Lite plans from the goal). One from the start cannot reach
    // the goal in two steps here: it lies 27 cells and three of hierarchical A*'s clusters away, and
    // such a search stops when it takes the goal off the open list without expanding it.
    let case =
        Case { name: "open".into(), grid: Grid::new(30, 7).unwrap(), start: Point::new(1, 3), goal: Point::new(28, 3) };
    for row in stepped() {
        let mut s = start(&case, SearchConfig::new(row.algorithm)).unwrap();
        let first_two = [s.step(), s.step()];
        let expanded_goal = first_two.iter().any(|e| matches!(e, StepEvent::Expanded(p) if *p == case.goal));
        assert_eq!(
            expanded_goal, row.goal_expanded,
            "{} on {}: the goal expanded in the first two steps",
            row.algorithm, case.name
        );
    }
}
