//! Property tests on thousands of random grids (up to 24x24, 0-45% walls, terrain on about half
//! of them, random ends on open cells, random diagonal rule and cost model):
//! - every returned path is legal under its rule and costs what its moves cost;
//! - Dijkstra and A* with every heuristic admissible for the rule agree with an independent
//!   reference Dijkstra, and find a path exactly when the reference does;
//! - weighted A* stays within weight x optimal, BFS uses the fewest moves;
//! - the stepper is consistent: step-by-step, run, advance in chunks and seek give the same
//!   state; back then step returns to the same state; seek(k) equals k fresh steps; painting
//!   then seeking equals a fresh search on the edited grid.

mod cases;
mod common;
mod oracle;

use cases::{case_with, terrain_from, Case, TERRAIN};
use oracle::{costs_from, hops_from, same, walk};
use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, Search, SearchConfig, Status, StepEvent, Stepper};
use proptest::prelude::*;
use proptest::sample::{select, Index};

fn case() -> impl Strategy<Value = Case> {
    case_with(1..=24, 0..=45, terrain_from(&TERRAIN))
}

/// Any algorithm the grid stepper runs, with any heuristic and one of the fixture weights.
fn config_for(case: &Case) -> impl Strategy<Value = SearchConfig> {
    let (rule, costs) = (case.rule, case.costs);
    (select(common::ALGORITHMS.to_vec()), select(Heuristic::ALL.to_vec()), select(vec![1.0, 1.5, 3.0]))
        .prop_map(move |(a, h, w)| SearchConfig::new(a).heuristic(h).weight(w).diagonal(rule).costs(costs))
}

fn run(case: &Case, config: SearchConfig) -> Search {
    let mut s = Search::new(case.grid.clone(), case.start, case.goal, config).unwrap();
    s.run();
    s
}

/// Checks the answer of a finished search: found exactly when reachable, a legal path whose
/// moves sum to the reported cost, never below the optimum. Returns the cost.
fn check_answer(case: &Case, s: &Search, optimum: Option<f64>) -> Result<Option<f64>, TestCaseError> {
    let what = format!("{:?}", s.config());
    match optimum {
        None => {
            prop_assert_eq!(s.status(), Status::NoPath, "{}", what);
            prop_assert!(s.path().is_none());
            Ok(None)
        }
        Some(opt) => {
            prop_assert_eq!(s.status(), Status::Found, "{}: optimum {}", what, opt);
            let path = s.path().unwrap();
            let moves = walk(&case.grid, case.rule, case.costs, case.start, case.goal, &path.points)
                .map_err(|e| TestCaseError::fail(format!("{what}: {e}: {:?}", path.points)))?;
            prop_assert!(same(moves, path.cost), "{}: reported {} but moves sum to {}", what, path.cost, moves);
            prop_assert!(path.cost >= opt - 1e-9 * opt.max(1.0), "{}: {} below the optimum {}", what, path.cost, opt);
            Ok(Some(path.cost))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5000))]

    /// Dijkstra, every admissible A*, a weighted A*, BFS, DFS and greedy on one random grid.
    #[test]
    fn searches_give_legal_paths_and_optimal_ones_match_the_reference(
        case in case(),
        weight in 1.0f64..4.0,
        greedy_h in select(Heuristic::ALL.to_vec()),
    ) {
        let w = case.grid.width();
        let goal_i = case.goal.y * w + case.goal.x;
        let dist = costs_from(&case.grid, case.start, case.rule, case.costs);
        let optimum = dist[goal_i].is_finite().then_some(dist[goal_i]);
        let base = SearchConfig::new(Algorithm::Dijkstra).diagonal(case.rule).costs(case.costs);

        // Dijkstra and every admissible A*: the optimum.
        let mut optimal = vec![base];
        for &h in Heuristic::ALL {
            if h.is_admissible(case.rule, case.costs) {
                optimal.push(SearchConfig { algorithm: Algorithm::AStar, heuristic: h, ..base });
            }
        }
        for config in optimal {
            prop_assert!(config.is_optimal());
            let s = run(&case, config);
            if let (Some(got), Some(opt)) = (check_answer(&case, &s, optimum)?, optimum) {
                prop_assert!(same(got, opt), "{:?}: cost {} but the reference says {}", config, got, opt);
            }
        }

        // Weighted A* with an admissible heuristic: within weight x optimum.
        let h = Heuristic::default_for(case.rule);
        let config = SearchConfig { algorithm: Algorithm::AStar, heuristic: h, weight, ..base };
        let s = run(&case, config);
        if let (Some(got), Some(opt)) = (check_answer(&case, &s, optimum)?, optimum) {
            prop_assert!(got <= weight * opt + 1e-9 * opt.max(1.0), "weight {}: {} > {} x {}", weight, got, weight, opt);
        }

        // BFS: fewest moves, and on a terrain-free 4-connected grid, the optimum.
        let s = run(&case, SearchConfig { algorithm: Algorithm::Bfs, ..base });
        if check_answer(&case, &s, optimum)?.is_some() {
            let hops = hops_from(&case.grid, case.start, case.rule)[goal_i];
            prop_assert_eq!(Some(s.path().unwrap().points.len() - 1), hops);
            if case.rule == Diagonal::Never && case.grid.cells().iter().all(|&c| c <= 1) {
                prop_assert!(same(s.cost().unwrap(), optimum.unwrap()));
            }
        }

        // DFS and greedy: legal, found exactly when reachable.
        check_answer(&case, &run(&case, SearchConfig { algorithm: Algorithm::Dfs, ..base }), optimum)?;
        let greedy = SearchConfig { algorithm: Algorithm::Greedy, heuristic: greedy_h, ..base };
        check_answer(&case, &run(&case, greedy), optimum)?;
    }
}

/// Everything a renderer or a replay could see of a search.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    status: Status,
    steps: usize,
    expanded: usize,
    open: usize,
    current: Option<Point>,
    cost: Option<f64>,
    states: Vec<u8>,
    g: Vec<u64>,
    parents: Vec<u32>,
    path: Vec<u32>,
    grid: Grid,
}

fn snap(s: &Search) -> Snapshot {
    Snapshot {
        status: s.status(),
        steps: s.steps(),
        expanded: s.expanded(),
        open: s.open_count(),
        current: s.current(),
        cost: s.cost(),
        states: s.states().to_vec(),
        // Bit patterns: exact equality, infinities included.
        g: s.g_values().iter().map(|g| g.to_bits()).collect(),
        parents: s.parents().to_vec(),
        path: s.path_indices().to_vec(),
        grid: s.grid().clone(),
    }
}

fn fresh(case: &Case, config: SearchConfig, k: usize) -> Search {
    let mut s = Search::new(case.grid.clone(), case.start, case.goal, config).unwrap();
    for _ in 0..k {
        s.step();
    }
    s
}

fn stepper_case() -> impl Strategy<Value = (Case, SearchConfig)> {
    case().prop_flat_map(|c| {
        let configs = config_for(&c);
        (Just(c), configs)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// step() until finished, run(), advance() in random chunks and seek(end) all agree, and
    /// the count of Expanded events is `expanded`.
    #[test]
    fn stepping_running_advancing_and_seeking_to_the_end_agree(
        (case, config) in stepper_case(),
        chunk in 1usize..40,
    ) {
        let mut stepped = Search::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        let mut events = Vec::new();
        while !stepped.status().is_finished() {
            events.push(stepped.step());
        }
        prop_assert_eq!(stepped.step(), StepEvent::Finished);
        let expanded_events = events.iter().filter(|e| matches!(e, StepEvent::Expanded(_))).count();
        prop_assert_eq!(expanded_events, stepped.expanded());
        prop_assert_eq!(events.len(), stepped.steps());
        prop_assert_eq!(stepped.expanded() + 1, stepped.steps(), "every step but the last expands");
        match events.last().unwrap() {
            StepEvent::Found { cost } => prop_assert_eq!(Some(*cost), stepped.cost()),
            StepEvent::NoPath => prop_assert_eq!(stepped.status(), Status::NoPath),
            other => prop_assert!(false, "last event {:?}", other),
        }
        let want = snap(&stepped);

        let ran = run(&case, config);
        prop_assert_eq!(&snap(&ran), &want);

        let mut advanced = Search::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        let mut taken = 0;
        loop {
            let n = advanced.advance(chunk);
            taken += n;
            if n < chunk { break; }
        }
        prop_assert_eq!(taken, want.steps);
        prop_assert_eq!(&snap(&advanced), &want);

        let mut sought = Search::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        sought.seek(usize::MAX / 2);
        prop_assert_eq!(&snap(&sought), &want);
    }

    /// back() then step() returns to the same state, at a random step and at the last one;
    /// back() alone equals a fresh search one step shorter.
    #[test]
    fn back_then_step_returns_to_the_same_state(
        (case, config) in stepper_case(),
        pick in any::<Index>(),
    ) {
        let total = run(&case, config).steps();
        let k = 1 + pick.index(total);
        for k in [k, total] {
            let mut s = fresh(&case, config, k - 1);
            let kth = s.step();
            let at_k = snap(&s);
            s.back();
            prop_assert_eq!(&snap(&s), &snap(&fresh(&case, config, k - 1)), "back from step {}", k);
            prop_assert_eq!(s.step(), kth, "the step after back at {}", k);
            prop_assert_eq!(&snap(&s), &at_k, "back then step at {}", k);
        }
        // back at step 0 does nothing.
        let mut s = fresh(&case, config, 0);
        s.back();
        prop_assert_eq!(&snap(&s), &snap(&fresh(&case, config, 0)));
    }

    /// seek(k) from anywhere equals k fresh steps.
    #[test]
    fn seek_equals_fresh_steps(
        (case, config) in stepper_case(),
        picks in proptest::collection::vec(any::<Index>(), 1..6),
    ) {
        let total = run(&case, config).steps();
        let mut s = Search::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        for pick in picks {
            let k = pick.index(total + 2); // sometimes past the end
            s.seek(k);
            prop_assert_eq!(&snap(&s), &snap(&fresh(&case, config, k)), "seek({})", k);
        }
    }

    /// Painting cells and seeking to a step equals a fresh search on the edited grid; paint
    /// reports exactly the cells it changed and never walls over the start or goal.
    #[test]
    fn paint_then_seek_equals_a_fresh_search_on_the_edited_grid(
        (case, config) in stepper_case(),
        strokes in proptest::collection::vec((0usize..26, 0usize..26), 0..12),
        value in select(vec![0u8, 1, 3, 5]),
        hit_ends in any::<bool>(),
        before in any::<Index>(),
        after in any::<Index>(),
    ) {
        // Half the strokes also cross the start and the goal, which a wall must not cover.
        let mut strokes = strokes;
        if hit_ends {
            strokes.insert(0, (case.start.x, case.start.y));
            strokes.push((case.goal.x, case.goal.y));
        }
        let total = run(&case, config).steps();
        let mut s = fresh(&case, config, before.index(total + 1));
        let steps_before = s.steps();

        // The edit, worked out independently.
        let mut edited = case.grid.cells().to_vec();
        let w = case.grid.width();
        let mut changed = 0;
        for &(x, y) in &strokes {
            let p = Point::new(x, y);
            if x >= w || y >= case.grid.height() { continue; }
            if value == WALL && (p == case.start || p == case.goal) { continue; }
            if edited[y * w + x] != value {
                edited[y * w + x] = value;
                changed += 1;
            }
        }
        let edited = Grid::from_cells(w, case.grid.height(), edited).unwrap();

        let points: Vec<Point> = strokes.iter().map(|&(x, y)| Point::new(x, y)).collect();
        prop_assert_eq!(s.paint(&points, value).unwrap(), changed);
        prop_assert_eq!(s.grid(), &edited);
        if changed == 0 {
            prop_assert_eq!(s.steps(), steps_before, "a paint that changes nothing keeps the step");
        } else {
            prop_assert_eq!(&snap(&s), &snap(&Search::new(edited.clone(), case.start, case.goal, config).unwrap()));
        }
        let edited_case = Case { grid: edited, ..case.clone() };
        let edited_total = run(&edited_case, config).steps();
        let k = after.index(edited_total + 1);
        s.seek(k);
        prop_assert_eq!(&snap(&s), &snap(&fresh(&edited_case, config, k)));
    }

    /// Moving the ends or changing the settings then seeking equals a fresh search.
    #[test]
    fn set_ends_and_set_config_then_seek_equal_a_fresh_search(
        (case, config) in stepper_case(),
        (other, other_config) in stepper_case(),
        before in 0usize..50,
        k in 0usize..80,
    ) {
        let mut s = fresh(&case, config, before);
        // Ends taken from the other case when they are open here.
        let (start, goal) = (other.start, other.goal);
        let ok = case.grid.is_passable(start) && case.grid.is_passable(goal);
        prop_assert_eq!(s.set_ends(start, goal).is_ok(), ok);
        let moved = if ok { Case { start, goal, ..case.clone() } } else { case.clone() };
        s.seek(k);
        prop_assert_eq!(&snap(&s), &snap(&fresh(&moved, config, k)));

        let new_config = SearchConfig { diagonal: case.rule, costs: case.costs, ..other_config };
        s.set_config(new_config).unwrap();
        s.seek(k);
        prop_assert_eq!(&snap(&s), &snap(&fresh(&moved, new_config, k)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// `search::build` (the boxed `Stepper` the page and CLI use) behaves exactly like
    /// `Search` for the grid algorithms: same buffers after any number of steps, same back,
    /// same paint.
    #[test]
    fn build_gives_the_same_stepper_as_search_new(
        (case, config) in stepper_case(),
        pick in any::<Index>(),
        strokes in proptest::collection::vec((0usize..26, 0usize..26), 0..8),
        value in select(vec![0u8, 1, 3]),
    ) {
        use pathlab_core::search::{build, Stepper};
        let total = run(&case, config).steps();
        let k = pick.index(total + 1);
        let mut boxed = build(case.grid.clone(), case.start, case.goal, config).unwrap();
        let mut plain = fresh(&case, config, k);
        boxed.advance(k);
        let same = |b: &dyn Stepper, s: &Search| {
            b.status() == s.status() && b.steps() == s.steps() && b.expanded() == s.expanded()
                && b.open_count() == s.open_count() && b.cost() == s.cost() && b.states() == s.states()
                && b.parents() == s.parents() && b.path_indices() == s.path_indices()
                && b.g_values().iter().map(|g| g.to_bits()).eq(s.g_values().iter().map(|g| g.to_bits()))
        };
        prop_assert!(same(boxed.as_ref(), &plain), "after {} steps", k);
        boxed.back();
        Search::back(&mut plain);
        prop_assert!(same(boxed.as_ref(), &plain), "after back from {}", k);
        let points: Vec<Point> = strokes.iter().map(|&(x, y)| Point::new(x, y)).collect();
        let changed = boxed.paint(&points, value).unwrap();
        prop_assert_eq!(changed, Stepper::paint(&mut plain, &points, value).unwrap());
        boxed.seek(k);
        Search::seek(&mut plain, k);
        prop_assert!(same(boxed.as_ref(), &plain), "after paint and seek({})", k);
        prop_assert_eq!(boxed.grid(), plain.grid());
    }
}
