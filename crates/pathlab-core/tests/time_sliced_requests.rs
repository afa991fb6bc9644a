//! Time-sliced path requests (`search::slicing::FramePlanner`): the budget is a hard cap and is
//! used in full while work remains; slicing a search over ticks changes nothing in its answer
//! (checked against a one-shot A* run and the independent reference Dijkstra, on the
//! Dragon Age arena map and on random grids); without aging a more urgent request is never
//! served after a less urgent one that was still waiting, and a calm request starves under a
//! stream of urgent ones; with aging it finishes within the bound worked out in the module
//! notes; unreachable goals finish as no path; cancel, forget and grid edits behave as
//! documented; hand-worked corridors fix the exact order and tick counts.

mod cases;
mod oracle;

use cases::Rng;
use oracle::{optimum, same, walk};
use pathlab_core::formats::movingai;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, GROUND, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::slicing::{FramePlanner, RequestId, RequestStatus, Tick, MAX_URGENCY};
use pathlab_core::search::{Algorithm, Path, Search, SearchConfig, SearchError, Status, Stepper};
use proptest::prelude::*;

const ARENA: &str = include_str!("../../../maps/movingai/arena.map");

fn arena() -> Grid {
    movingai::parse_map(ARENA).expect("the arena map parses")
}

/// A* with the octile heuristic under the MovingAI rules (no corner cutting, real costs).
fn astar() -> SearchConfig {
    SearchConfig::new(Algorithm::AStar)
        .heuristic(Heuristic::Octile)
        .diagonal(Diagonal::NoCornerCutting)
        .costs(Costs::Real)
}

fn open_cells(grid: &Grid) -> Vec<Point> {
    (0..grid.len()).map(|i| grid.point_at(i)).filter(|&p| grid.is_passable(p)).collect()
}

fn random_problem(rng: &mut Rng, open: &[Point]) -> (Point, Point) {
    (open[rng.below(open.len())], open[rng.below(open.len())])
}

/// The same problem run to the end at once: its path (if any) and the steps it took.
fn one_shot(grid: &Grid, start: Point, goal: Point, config: SearchConfig) -> (Option<Path>, usize, usize) {
    let mut search = Search::new(grid.clone(), start, goal, config).unwrap();
    search.run();
    (search.path(), search.steps(), search.expanded())
}

/// The steps of every open request, by id.
fn steps_of_open(planner: &FramePlanner) -> Vec<(RequestId, usize)> {
    planner.requests().filter(|r| r.status().is_open()).map(|r| (r.id(), r.steps())).collect()
}

/// Runs one tick and checks the budget: never more than given, all of it while an open
/// request remains, and exactly the steps the requests' counters moved by.
fn checked_tick(planner: &mut FramePlanner, budget: usize) -> Tick {
    let before = steps_of_open(planner);
    let tick = planner.tick(budget);
    assert!(tick.spent <= budget, "tick {} spent {} of a budget of {budget}", tick.index, tick.spent);
    if planner.open_count() > 0 {
        assert_eq!(tick.spent, budget, "tick {} left budget unused while requests waited", tick.index);
    }
    let moved: usize = before.iter().map(|&(id, old)| planner.request(id).map_or(0, |r| r.steps() - old)).sum();
    assert_eq!(moved, tick.spent, "tick {}: the requests' step counters moved by {moved}", tick.index);
    for id in &tick.progressed {
        assert!(before.iter().any(|(b, _)| b == id), "tick {} worked on {id}, which was not open", tick.index);
    }
    tick
}

/// Checks every finished request against a one-shot run of the same search and against the
/// reference Dijkstra: the same path, cost, steps and expansions, the optimal cost, legal moves.
fn check_answers(planner: &FramePlanner) {
    let grid = planner.grid();
    let config = planner.config();
    for r in planner.requests() {
        let what = format!("request {} {} -> {}", r.id(), r.start(), r.goal());
        let (path, steps, expanded) = one_shot(grid, r.start(), r.goal(), config);
        let best = optimum(grid, r.start(), r.goal(), config.diagonal, config.costs);
        match r.status() {
            RequestStatus::Found => {
                let got = r.path().unwrap();
                assert_eq!(Some(got), path.as_ref(), "{what}: the sliced path differs from a one-shot run");
                let best = best.unwrap_or_else(|| panic!("{what}: found, but the reference finds no path"));
                assert!(same(got.cost, best), "{what}: cost {} but the optimum is {best}", got.cost);
                let moves = walk(grid, config.diagonal, config.costs, r.start(), r.goal(), &got.points).unwrap();
                assert!(same(moves, got.cost), "{what}: its moves sum to {moves}");
            }
            RequestStatus::NoPath => {
                assert!(path.is_none() && best.is_none(), "{what}: no path, but one exists");
                assert!(r.path().is_none());
            }
            other => panic!("{what} is {other}, not finished"),
        }
        assert_eq!((r.steps(), r.expanded()), (steps, expanded), "{what}: slicing changed the work done");
    }
}

#[test]
fn arena_requests_spend_at_most_the_budget_and_answer_like_a_one_shot_astar() {
    let grid = arena();
    let open = open_cells(&grid);
    let mut rng = Rng(7);
    for round in 0..6 {
        let mut planner = FramePlanner::new(grid.clone(), astar()).unwrap();
        let mut submitted = 0;
        let mut ticks = 0;
        while submitted < 60 || planner.open_count() > 0 {
            // A few requests arrive before most ticks, with urgencies 0 to 9.
            for _ in 0..rng.below(4) {
                if submitted < 60 {
                    let (s, g) = random_problem(&mut rng, &open);
                    planner.submit(s, g, rng.below(10) as f64).unwrap();
                    submitted += 1;
                }
            }
            let budget = [0, 1, 2, 7, 50, 333][rng.below(6)];
            checked_tick(&mut planner, budget);
            ticks += 1;
            assert!(ticks < 100_000, "round {round} never ends");
        }
        assert_eq!(planner.requests().count(), 60);
        check_answers(&planner);
    }
}

#[derive(Clone, Debug)]
struct Case {
    grid: Grid,
    rule: Diagonal,
    costs: Costs,
    /// (start, goal, urgency, ticks to run before submitting it)
    requests: Vec<(Point, Point, u8, u8)>,
    budgets: Vec<usize>,
}

fn case() -> impl Strategy<Value = Case> {
    (2usize..=18, 2usize..=18, 0u32..=45, any::<bool>(), any::<u64>())
        .prop_flat_map(|(w, h, density, terrain, seed)| {
            (
                Just((w, h, density, terrain, seed)),
                proptest::sample::select(Diagonal::ALL.to_vec()),
                proptest::sample::select(Costs::ALL.to_vec()),
                proptest::collection::vec(0usize..40, 1..6),
            )
        })
        .prop_map(|((w, h, density, terrain, seed), rule, costs, budgets)| {
            let mut rng = Rng(seed);
            let mut cells: Vec<u8> = (0..w * h)
                .map(|_| {
                    if (rng.below(100) as u32) < density {
                        WALL
                    } else if terrain {
                        [1, 1, 1, 2, 3, 5][rng.below(6)]
                    } else {
                        GROUND
                    }
                })
                .collect();
            cells[0] = GROUND;
            let grid = Grid::from_cells(w, h, cells).unwrap();
            let open = open_cells(&grid);
            let requests = (0..=rng.below(12))
                .map(|_| {
                    let (s, g) = random_problem(&mut rng, &open);
                    (s, g, rng.below(4) as u8, rng.below(3) as u8)
                })
                .collect();
            Case { grid, rule, costs, requests, budgets }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// On random grids (walls, terrain, every diagonal rule and cost model, budgets from 0),
    /// every tick keeps to its budget and every answer is the one-shot A* answer, with the
    /// reference Dijkstra's cost (or no path where it finds none).
    #[test]
    fn random_grid_requests_keep_the_budget_and_answer_like_a_one_shot_astar(case in case()) {
        let config = astar().diagonal(case.rule).costs(case.costs);
        let mut planner = FramePlanner::new(case.grid.clone(), config).unwrap();
        let mut k = 0;
        for &(s, g, urgency, wait) in &case.requests {
            for _ in 0..wait {
                checked_tick(&mut planner, case.budgets[k % case.budgets.len()]);
                k += 1;
            }
            planner.submit(s, g, f64::from(urgency)).unwrap();
        }
        // A budget of 0 forever would never finish: the drain uses the non-zero ones.
        let drain: Vec<usize> = case.budgets.iter().map(|&b| b.max(1)).collect();
        while planner.open_count() > 0 {
            checked_tick(&mut planner, drain[k % drain.len()]);
            k += 1;
        }
        check_answers(&planner);
    }
}

/// Runs ticks until no request is open; returns how many ran.
fn drain(planner: &mut FramePlanner, budget: usize) -> usize {
    let mut n = 0;
    while planner.open_count() > 0 {
        checked_tick(planner, budget);
        n += 1;
        assert!(n < 1_000_000, "the requests never finish");
    }
    n
}

/// Checks, for every pair of finished requests, the order aging-off service promises: a more
/// urgent request present while a less urgent one was still unanswered finishes no later
/// than it, and of two equally urgent requests the earlier finishes no later.
fn check_urgent_first(planner: &FramePlanner) -> usize {
    let done: Vec<_> = planner.requests().filter(|r| r.finished_at().is_some()).collect();
    let mut pairs = 0;
    for a in &done {
        for b in &done {
            let (fa, fb) = (a.finished_at().unwrap(), b.finished_at().unwrap());
            if b.urgency() > a.urgency() && b.submitted_at() <= fa {
                assert!(
                    fb <= fa,
                    "{} (urgency {}) finished at tick {fb}, after {} (urgency {}) at {fa}",
                    b.id(),
                    b.urgency(),
                    a.id(),
                    a.urgency()
                );
                pairs += 1;
            }
            if b.urgency() == a.urgency() && a.id() < b.id() {
                assert!(fa <= fb, "{} finished at tick {fa}, after the later {} at {fb}", a.id(), b.id());
            }
        }
    }
    pairs
}

#[test]
fn without_aging_a_more_urgent_request_never_finishes_after_a_less_urgent_earlier_one() {
    let grid = arena();
    let open = open_cells(&grid);
    let mut rng = Rng(2024);
    let mut pairs = 0;
    for budget in [1, 25, 120, 600] {
        let mut planner = FramePlanner::new(grid.clone(), astar()).unwrap();
        planner.set_aging(0.0).unwrap();
        for _ in 0..40 {
            for _ in 0..rng.below(5) {
                let (s, g) = random_problem(&mut rng, &open);
                planner.submit(s, g, rng.below(4) as f64).unwrap();
            }
            checked_tick(&mut planner, budget);
        }
        drain(&mut planner, budget);
        pairs += check_urgent_first(&planner);
        check_answers(&planner);
    }
    assert!(pairs > 500, "only {pairs} pairs were compared");
}

/// The budget per tick under the stream of urgent requests: less than the stream brings.
const STREAM_BUDGET: usize = 20;

/// A calm request (urgency 0) and, from the same tick on, two urgent ones (urgency 5) before
/// every tick, more work than the budget clears. Returns the planner after `ticks` ticks and
/// the calm request's id.
fn calm_under_a_stream(
    aging: f64,
    budget: usize,
    ticks: usize,
) -> (FramePlanner, RequestId, Vec<Option<(Point, Point)>>) {
    let grid = arena();
    let open = open_cells(&grid);
    let mut rng = Rng(99);
    let mut planner = FramePlanner::new(grid, astar()).unwrap();
    planner.set_aging(aging).unwrap();
    let (s, g) = random_problem(&mut rng, &open);
    let calm = planner.submit(s, g, 0.0).unwrap();
    let mut problems = vec![None];
    for _ in 0..ticks {
        for _ in 0..2 {
            let (s, g) = random_problem(&mut rng, &open);
            planner.submit(s, g, 5.0).unwrap();
            problems.push(Some((s, g)));
        }
        checked_tick(&mut planner, budget);
    }
    (planner, calm, problems)
}

#[test]
fn without_aging_a_calm_request_starves_under_a_stream_of_urgent_ones() {
    let (planner, calm, problems) = calm_under_a_stream(0.0, STREAM_BUDGET, 400);
    // The stream brings more work than the budget clears.
    let grid = planner.grid();
    let work: usize = problems.iter().flatten().map(|&(s, g)| one_shot(grid, s, g, astar()).1).sum();
    assert!(work > 400 * STREAM_BUDGET * 3 / 2, "the stream brings {work} steps in 400 ticks");
    let r = planner.request(calm).unwrap();
    assert_eq!(r.status(), RequestStatus::Queued, "the calm request got work");
    assert_eq!((r.steps(), r.waited_before_work()), (0, None));
    assert_eq!(r.age(), 400);
    assert_eq!(r.effective_urgency(), 0.0);
    // The stream is more than the budget: the queue only grows.
    assert!(planner.open_count() > 400, "{} open", planner.open_count());
}

#[test]
fn with_aging_a_calm_request_under_a_stream_finishes_within_the_stated_bound() {
    // Aging 0.25 per tick and urgencies 0 and 5: an urgent request submitted 20 or more ticks
    // after the calm one ranks behind it (at 20 the effective urgencies tie and the earlier
    // wins). So the work served before the calm request finishes is at most the one-shot work
    // of the urgent requests of its first 20 ticks plus its own, and as every tick spends the
    // whole budget, it finishes within ceil(that / budget) ticks.
    let (aging, budget) = (0.25, STREAM_BUDGET);
    let (planner, calm, problems) = calm_under_a_stream(aging, budget, 400);
    let grid = planner.grid().clone();
    let r = planner.request(calm).unwrap();
    assert_eq!(r.status(), RequestStatus::Found);
    let window = (5.0 / aging) as usize;
    let (_, calm_steps, _) = one_shot(&grid, r.start(), r.goal(), astar());
    let ahead: usize = problems.iter().flatten().take(2 * window).map(|&(s, g)| one_shot(&grid, s, g, astar()).1).sum();
    let bound = (ahead + calm_steps).div_ceil(budget) as u64;
    let took = r.ticks_to_finish().unwrap();
    assert!(took <= bound, "the calm request took {took} ticks; the bound is {bound}");
    // The bound is not vacuous: the stream outruns the budget, so the queue is long.
    assert!(planner.open_count() > 100 && bound < 400, "bound {bound}, {} open", planner.open_count());
    // Every urgent request served before it was submitted within the window.
    for other in planner.requests().filter(|o| o.finished_at().is_some_and(|f| f < r.finished_at().unwrap())) {
        assert!(
            other.submitted_at() < window as u64,
            "{} (submitted at {}) went first",
            other.id(),
            other.submitted_at()
        );
    }
    check_urgent_first_equal_only(&planner);
}

/// With aging on, equal urgencies still go first come, first served.
fn check_urgent_first_equal_only(planner: &FramePlanner) {
    let done: Vec<_> = planner.requests().filter(|r| r.finished_at().is_some()).collect();
    for pair in done.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.urgency() == b.urgency() {
            assert!(a.finished_at() <= b.finished_at(), "{} finished after the later {}", a.id(), b.id());
        }
    }
}

#[test]
fn unreachable_goals_finish_as_no_path() {
    // A room closed by walls on the right: nothing inside it reaches outside it.
    let rows = ["....#...", "....#...", "....#...", "#####..."];
    let cells = rows.iter().flat_map(|r| r.bytes().map(|c| if c == b'#' { WALL } else { GROUND })).collect();
    let grid = Grid::from_cells(8, 4, cells).unwrap();
    let mut planner = FramePlanner::new(grid.clone(), astar()).unwrap();
    let inside = planner.submit(Point::new(0, 0), Point::new(7, 0), 3.0).unwrap();
    let outside = planner.submit(Point::new(7, 3), Point::new(1, 1), 1.0).unwrap();
    let reachable = planner.submit(Point::new(5, 0), Point::new(7, 3), 2.0).unwrap();
    // The room holds 12 cells, and so does the land outside it: 12 expansions and the step
    // that finds the open list empty, for each of the first two.
    let (_, reachable_steps, _) = one_shot(&grid, Point::new(5, 0), Point::new(7, 3), astar());
    assert_eq!(drain(&mut planner, 5), (26 + reachable_steps).div_ceil(5));
    for (id, status) in
        [(inside, RequestStatus::NoPath), (outside, RequestStatus::NoPath), (reachable, RequestStatus::Found)]
    {
        assert_eq!(planner.request(id).unwrap().status(), status, "{id}");
    }
    assert_eq!(planner.request(inside).unwrap().steps(), 13);
    assert!(planner.request(inside).unwrap().path().is_none());
    check_answers(&planner);

    // Random requests on the arena with walls closing off a corner.
    let mut grid = arena();
    for i in 0..12 {
        grid.set(Point::new(i, 12), WALL).unwrap();
        grid.set(Point::new(12, i), WALL).unwrap();
    }
    let open = open_cells(&grid);
    let mut rng = Rng(5);
    let mut planner = FramePlanner::new(grid, astar()).unwrap();
    for _ in 0..80 {
        let (s, g) = random_problem(&mut rng, &open);
        planner.submit(s, g, 1.0).unwrap();
    }
    drain(&mut planner, 97);
    let no_path = planner.requests().filter(|r| r.status() == RequestStatus::NoPath).count();
    assert!(no_path > 0, "no request crossed into the closed corner");
    check_answers(&planner);
}

#[test]
fn cancel_stops_the_work_and_forget_drops_the_record() {
    let grid = Grid::new(30, 1).unwrap();
    let mut planner = FramePlanner::new(grid, astar()).unwrap();
    let long = planner.submit(Point::new(0, 0), Point::new(29, 0), 9.0).unwrap();
    let waiting = planner.submit(Point::new(29, 0), Point::new(0, 0), 1.0).unwrap();
    let other = planner.submit(Point::new(3, 0), Point::new(5, 0), 0.0).unwrap();
    let tick = checked_tick(&mut planner, 10);
    assert_eq!(tick.progressed, vec![long]);
    assert_eq!(planner.request(long).unwrap().status(), RequestStatus::Searching);
    assert!(planner.cancel(long), "cancel mid-search");
    assert!(planner.cancel(waiting), "cancel before any work");
    assert!(!planner.cancel(long), "a second cancel changes nothing");
    assert!(!planner.cancel(RequestId::new(77)), "an unknown id");
    for id in [long, waiting] {
        let r = planner.request(id).unwrap();
        assert_eq!((r.status(), r.ticks_to_finish()), (RequestStatus::Cancelled, None));
    }
    assert_eq!(planner.request(long).unwrap().steps(), 10, "its work so far stays readable");
    assert_eq!(planner.queue().iter().map(|r| r.id()).collect::<Vec<_>>(), vec![other]);
    // The next tick goes to the one request left: 2 expansions and the goal.
    let tick = checked_tick(&mut planner, 10);
    assert_eq!((tick.spent, tick.progressed.clone(), tick.finished.clone()), (3, vec![other], vec![other]));
    assert!(!planner.cancel(other), "a finished request cannot be cancelled");
    assert_eq!(planner.request(other).unwrap().status(), RequestStatus::Found);
    let tick = checked_tick(&mut planner, 10);
    assert_eq!(tick.spent, 0);
    assert!(planner.forget(other) && planner.forget(long));
    assert!(!planner.forget(other));
    assert!(planner.request(other).is_none());
    // Forgetting an open request cancels it.
    let again = planner.submit(Point::new(0, 0), Point::new(29, 0), 1.0).unwrap();
    assert!(again > other, "ids are not reused");
    assert!(planner.forget(again));
    assert_eq!(planner.open_count(), 0);
    assert_eq!(checked_tick(&mut planner, 10).spent, 0);
}

#[test]
fn submit_refuses_bad_ends_and_urgencies_with_a_message() {
    let mut grid = Grid::new(4, 3).unwrap();
    grid.set(Point::new(1, 1), WALL).unwrap();
    let mut planner = FramePlanner::new(grid, astar()).unwrap();
    let off = planner.submit(Point::new(4, 0), Point::new(0, 0), 1.0).unwrap_err();
    assert!(matches!(off, SearchError::OutOfBounds { which: "start", .. }), "{off:?}");
    assert!(off.to_string().contains("outside the 4x3 grid"), "{off}");
    let wall = planner.submit(Point::new(0, 0), Point::new(1, 1), 1.0).unwrap_err();
    assert_eq!(wall, SearchError::OnWall { which: "goal", at: Point::new(1, 1) });
    for bad in [f64::NAN, -1.0, f64::INFINITY, MAX_URGENCY * 2.0] {
        let e = planner.submit(Point::new(0, 0), Point::new(3, 2), bad).unwrap_err();
        assert!(e.to_string().starts_with("urgency must be a number from 0 to"), "{e}");
    }
    assert!(planner.set_aging(-0.5).is_err() && planner.set_aging(f64::NAN).is_err());
    assert_eq!(planner.requests().count(), 0, "nothing refused was queued");
    let ida = FramePlanner::new(Grid::new(2, 2).unwrap(), SearchConfig::new(Algorithm::Ida)).unwrap_err();
    assert!(ida.to_string().contains("not ida"), "{ida}");
    assert!(FramePlanner::new(Grid::new(2, 2).unwrap(), astar().weight(0.5)).is_err());
}

#[test]
fn one_tick_finishes_the_most_urgent_request_before_the_next_worked_by_hand() {
    // On an open corridor A* walks straight to the goal: a request k cells long takes k
    // expansions and one more step to pop the goal.
    let grid = Grid::new(20, 1).unwrap();
    let mut planner = FramePlanner::new(grid, astar()).unwrap();
    planner.set_aging(0.0).unwrap();
    let p = |x| Point::new(x, 0);
    let a = planner.submit(p(0), p(4), 1.0).unwrap(); // 5 steps
    let b = planner.submit(p(10), p(16), 2.0).unwrap(); // 7 steps
    let c = planner.submit(p(19), p(17), 2.0).unwrap(); // 3 steps
                                                        // Tick 0, budget 9: b (urgent, first in) takes 7 and finishes, c gets 2 of its 3.
    let t = checked_tick(&mut planner, 9);
    assert_eq!((t.index, t.spent, t.progressed.clone(), t.finished.clone()), (0, 9, vec![b, c], vec![b]));
    assert_eq!(planner.request(c).unwrap().status(), RequestStatus::Searching);
    assert_eq!(planner.request(a).unwrap().status(), RequestStatus::Queued);
    // A more urgent newcomer goes ahead of c, which had started.
    let d = planner.submit(p(5), p(7), 3.0).unwrap(); // 3 steps
    let t = checked_tick(&mut planner, 4);
    assert_eq!((t.spent, t.progressed.clone(), t.finished.clone()), (4, vec![d, c], vec![d, c]));
    let t = checked_tick(&mut planner, 4);
    assert_eq!((t.spent, t.progressed.clone(), t.finished.clone()), (4, vec![a], vec![]));
    let t = checked_tick(&mut planner, 4);
    assert_eq!((t.spent, t.progressed.clone(), t.finished.clone()), (1, vec![a], vec![a]));
    let read = |id| {
        let r = planner.request(id).unwrap();
        (r.waited_before_work(), r.ticks_to_finish(), r.steps(), r.expanded(), r.cost())
    };
    assert_eq!(read(a), (Some(2), Some(4), 5, 4, Some(4.0)));
    assert_eq!(read(b), (Some(0), Some(1), 7, 6, Some(6.0)));
    assert_eq!(read(c), (Some(0), Some(2), 3, 2, Some(2.0)));
    assert_eq!(read(d), (Some(0), Some(1), 3, 2, Some(2.0)));
    assert_eq!(planner.ticks(), 4);
}

#[test]
fn aging_raises_effective_urgency_by_the_stated_amount_per_tick() {
    let grid = Grid::new(40, 1).unwrap();
    let mut planner = FramePlanner::new(grid, astar()).unwrap();
    assert_eq!(planner.aging(), pathlab_core::search::slicing::DEFAULT_AGING);
    planner.set_aging(0.5).unwrap();
    let calm = planner.submit(Point::new(0, 0), Point::new(3, 0), 1.0).unwrap();
    let busy = planner.submit(Point::new(10, 0), Point::new(39, 0), 2.0).unwrap();
    assert_eq!(planner.request(calm).unwrap().effective_urgency(), 1.0);
    // Budget 1 a tick: busy goes first until calm's 1 + 0.5 t passes busy's 2 + 0.5 t ... which
    // never happens, as both age alike; a newcomer of urgency 3 after 4 ticks ties with calm
    // (1 + 0.5 x 4 = 3) and loses to it, being later.
    for _ in 0..4 {
        assert_eq!(checked_tick(&mut planner, 1).progressed, vec![busy]);
    }
    assert_eq!(planner.request(calm).unwrap().effective_urgency(), 3.0);
    assert_eq!(planner.request(busy).unwrap().effective_urgency(), 4.0);
    let late = planner.submit(Point::new(20, 0), Point::new(22, 0), 3.0).unwrap();
    let order: Vec<_> = planner.queue().iter().map(|r| r.id()).collect();
    assert_eq!(order, vec![busy, calm, late]);
    // Turning aging off drops the earned points at once.
    planner.set_aging(0.0).unwrap();
    let order: Vec<_> = planner.queue().iter().map(|r| r.id()).collect();
    assert_eq!(order, vec![late, busy, calm]);
    assert_eq!(planner.request(calm).unwrap().effective_urgency(), 1.0);
}

#[test]
fn painting_restarts_every_request_and_answers_follow_the_new_grid() {
    let grid = arena();
    let open = open_cells(&grid);
    let mut rng = Rng(31);
    let mut planner = FramePlanner::new(grid, astar()).unwrap();
    let ids: Vec<_> = (0..30)
        .map(|_| {
            let (s, g) = random_problem(&mut rng, &open);
            planner.submit(s, g, rng.below(3) as f64).unwrap()
        })
        .collect();
    // Tick until some request has its answer, while others still wait.
    while !planner.requests().any(|r| r.status() == RequestStatus::Found) {
        checked_tick(&mut planner, 150);
    }
    let found_before = planner.requests().filter(|r| r.status() == RequestStatus::Found).count();
    assert!(found_before > 0 && planner.open_count() > 0);
    // A wall across the middle of the map, a row of cells at y = 24.
    let row: Vec<Point> = (0..49).map(|x| Point::new(x, 24)).collect();
    let ends: Vec<Point> = planner.requests().flat_map(|r| [r.start(), r.goal()]).collect();
    let changed = planner.paint(row.iter().copied(), WALL);
    assert!(changed > 0);
    for p in &ends {
        assert!(planner.grid().is_passable(*p), "the end {p} was walled over");
    }
    for r in planner.requests() {
        assert_eq!((r.status(), r.steps(), r.path()), (RequestStatus::Queued, 0, None), "{}", r.id());
    }
    assert_eq!(planner.open_count(), ids.len());
    drain(&mut planner, 150);
    check_answers(&planner);

    // A new grid whose walls cover some ends: those requests finish as no path at no cost.
    let mut walled = planner.grid().clone();
    let first = planner.request(ids[0]).unwrap().goal();
    walled.set(first, WALL).unwrap();
    planner.set_grid(walled);
    assert_eq!(planner.open_count(), ids.len(), "finished requests are queued again");
    drain(&mut planner, 150);
    let r = planner.request(ids[0]).unwrap();
    assert_eq!((r.status(), r.steps()), (RequestStatus::NoPath, 0));
    for r in planner.requests().filter(|r| r.goal() != first && r.start() != first) {
        let best = optimum(planner.grid(), r.start(), r.goal(), Diagonal::NoCornerCutting, Costs::Real);
        assert_eq!(r.cost().is_some(), best.is_some(), "{}", r.id());
        if let (Some(c), Some(b)) = (r.cost(), best) {
            assert!(same(c, b), "{}: {c} vs {b}", r.id());
        }
    }
}

#[test]
fn a_request_from_a_cell_to_itself_is_found_in_one_step() {
    let mut planner = FramePlanner::new(Grid::new(3, 3).unwrap(), astar()).unwrap();
    let id = planner.submit(Point::new(1, 1), Point::new(1, 1), 0.0).unwrap();
    let tick = planner.tick(100);
    assert_eq!((tick.spent, tick.finished), (1, vec![id]));
    let r = planner.request(id).unwrap();
    assert_eq!(r.path().map(|p| (p.points.clone(), p.cost)), Some((vec![Point::new(1, 1)], 0.0)));
    assert_eq!(
        Search::new(Grid::new(3, 3).unwrap(), Point::new(1, 1), Point::new(1, 1), astar()).unwrap().run(),
        Status::Found
    );
}
