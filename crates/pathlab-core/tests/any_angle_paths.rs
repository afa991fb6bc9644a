//! Theta*, Lazy Theta* and A* with post-smoothing on random grids, checked against
//! independent truth (the brute-force line-of-sight checks of `any_angle_support` and the
//! reference Dijkstra of `common`):
//! - Theta* and Lazy Theta* find a path exactly when the goal is reachable; it runs from start
//!   to goal through vertices each in sight of the next; its reported cost is its length, no
//!   more than the optimal grid path under the same rule (octile, or Manhattan when
//!   4-connected) and no less than the straight line;
//! - smoothing keeps A*'s path's ends and a subset of its cells in order, every segment in
//!   sight, and never makes it longer;
//! - on open ground all three give the straight line;
//! - integer costs give the same paths with every length times 10; the heuristic setting is
//!   ignored by Theta*;
//! - the steppers are consistent: stepping, running, seeking and back agree;
//! - terrain, and the wrong algorithm for a constructor, are refused with Unsupported.

mod any_angle_support;
mod cases;
mod oracle;

use any_angle_support::{case, check_any_angle_path, dist, draw, length, Case};
use cases::shown;
use oracle::optimum;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::smoothed::SmoothedAStar;
use pathlab_core::search::theta::ThetaStar;
use pathlab_core::search::{build, Algorithm, EventLog, Search, SearchConfig, SearchError, Status, StepEvent, Stepper};
use proptest::prelude::*;
use proptest::sample::{select, Index};

const ANY_ANGLE: [Algorithm; 3] = [Algorithm::Theta, Algorithm::LazyTheta, Algorithm::AStarSmoothed];

fn config(algorithm: Algorithm, rule: Diagonal) -> SearchConfig {
    SearchConfig::new(algorithm).diagonal(rule).heuristic(Heuristic::Octile)
}

fn run(case: &Case, algorithm: Algorithm) -> Box<dyn Stepper> {
    let mut s = build(case.grid.clone(), case.start, case.goal, config(algorithm, case.rule)).unwrap();
    s.run();
    s
}

/// Slack for summing square roots in a different order.
fn eps(x: f64) -> f64 {
    1e-9 * x.max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Theta* and Lazy Theta*: legal any-angle paths between the straight line and A*.
    #[test]
    fn theta_paths_are_in_sight_and_between_the_straight_line_and_the_grid_optimum(case in case(24)) {
        let optimum = optimum(&case.grid, case.start, case.goal, case.rule, Costs::Real);
        let line = dist(case.start, case.goal);
        for algorithm in [Algorithm::Theta, Algorithm::LazyTheta] {
            let s = run(&case, algorithm);
            let what = format!("{algorithm} under {}", case.rule);
            let Some(opt) = optimum else {
                prop_assert_eq!(s.status(), Status::NoPath, "{}: unreachable goal", what);
                prop_assert!(s.cost().is_none() && s.path_indices().is_empty());
                continue;
            };
            prop_assert_eq!(s.status(), Status::Found, "{}: reachable goal", what);
            let path = s.path().unwrap();
            let len = check_any_angle_path(&case.grid, case.rule, case.start, case.goal, &path.points)
                .map_err(|e| TestCaseError::fail(format!("{what}: {e}: {:?}", path.points)))?;
            prop_assert!((len - path.cost).abs() <= eps(len), "{}: reported {} but the vertices span {}", what, path.cost, len);
            prop_assert!(path.cost <= opt + eps(opt), "{}: {} longer than the grid optimum {}", what, path.cost, opt);
            prop_assert!(path.cost >= line - eps(line), "{}: {} shorter than the straight line {}", what, path.cost, line);
        }
    }

    /// A* with post-smoothing: a shortcut of A*'s own path, never longer, never through a wall.
    #[test]
    fn smoothing_never_lengthens_a_path_and_never_crosses_a_wall(case in case(24), weight in select(vec![1.0, 1.5, 3.0])) {
        let cfg = config(Algorithm::AStarSmoothed, case.rule).weight(weight);
        let mut s = SmoothedAStar::new(case.grid.clone(), case.start, case.goal, cfg).unwrap();
        Stepper::run(&mut s);
        // The raw path is exactly what plain A* with the same settings finds.
        let mut plain = Search::new(case.grid.clone(), case.start, case.goal, SearchConfig { algorithm: Algorithm::AStar, ..cfg }).unwrap();
        plain.run();
        prop_assert_eq!(s.status(), plain.status());
        let Some(raw) = plain.path() else { return Ok(()); };
        let raw_indices: Vec<u32> = raw.points.iter().map(|&p| case.grid.index(p) as u32).collect();
        prop_assert_eq!(s.raw_path(), &raw_indices[..]);
        let smooth = Stepper::path(&s).unwrap();
        let len = check_any_angle_path(&case.grid, case.rule, case.start, case.goal, &smooth.points)
            .map_err(|e| TestCaseError::fail(format!("smoothed under {}: {e}: {:?}", case.rule, smooth.points)))?;
        prop_assert!((len - smooth.cost).abs() <= eps(len));
        // Every vertex is a cell of the raw path, in the same order.
        let mut at = 0;
        for v in &smooth.points {
            let found = raw.points[at..].iter().position(|p| p == v);
            prop_assert!(found.is_some(), "vertex {} not on the raw path after position {}", v, at);
            at += found.unwrap();
        }
        prop_assert!(smooth.cost <= raw.cost + eps(raw.cost), "smoothed {} longer than raw {}", smooth.cost, raw.cost);
        prop_assert!((length(&raw.points) - raw.cost).abs() <= eps(raw.cost));
    }

    /// Integer costs: the same path, every length times 10. Theta* ignores the heuristic
    /// setting.
    #[test]
    fn integer_costs_scale_lengths_and_keep_paths(case in case(16), h in select(Heuristic::ALL.to_vec())) {
        for algorithm in ANY_ANGLE {
            let real = run(&case, algorithm);
            let integer_cfg = config(algorithm, case.rule).costs(Costs::Integer);
            let mut integer = build(case.grid.clone(), case.start, case.goal, integer_cfg).unwrap();
            integer.run();
            prop_assert_eq!(integer.path_indices(), real.path_indices(), "{}", algorithm);
            prop_assert_eq!(integer.expanded(), real.expanded(), "{}", algorithm);
            prop_assert_eq!(integer.cost().map(|c| c / 10.0), real.cost().map(|c| (c * 10.0) / 10.0), "{}", algorithm);
            for (gi, gr) in integer.g_values().iter().zip(real.g_values()) {
                let both_unseen = gi.is_infinite() && gr.is_infinite();
                prop_assert!(both_unseen || (gi - 10.0 * gr).abs() <= eps(*gi), "{}: g {} vs {}", algorithm, gi, gr);
            }
            prop_assert!((integer.h(case.start) - 10.0 * real.h(case.start)).abs() <= eps(integer.h(case.start)));
            if algorithm != Algorithm::AStarSmoothed {
                let mut other_h = build(case.grid.clone(), case.start, case.goal, config(algorithm, case.rule).heuristic(h)).unwrap();
                other_h.run();
                prop_assert_eq!(other_h.path_indices(), real.path_indices(), "{} with {}", algorithm, h);
                prop_assert_eq!(other_h.expanded(), real.expanded(), "{} with {}", algorithm, h);
            }
        }
    }

    /// Stepping one at a time with a log, running, seeking and going back agree, for all
    /// three; the Expanded events that count are the expansions.
    #[test]
    fn stepping_running_seeking_and_back_agree(case in case(16), pick in any::<Index>()) {
        for algorithm in ANY_ANGLE {
            let mut stepped = build(case.grid.clone(), case.start, case.goal, config(algorithm, case.rule)).unwrap();
            let mut log = EventLog::default();
            let mut events = Vec::new();
            let mut logged_expansions = 0;
            while !stepped.status().is_finished() {
                events.push(stepped.step_logged(&mut log));
                logged_expansions += usize::from(log.expanded.is_some());
            }
            prop_assert_eq!(stepped.step(), StepEvent::Finished);
            prop_assert_eq!(events.len(), stepped.steps());
            prop_assert_eq!(logged_expansions, stepped.expanded(), "{}", algorithm);
            match events.last().unwrap() {
                StepEvent::Found { cost } => prop_assert_eq!(Some(*cost), stepped.cost()),
                StepEvent::NoPath => prop_assert_eq!(stepped.status(), Status::NoPath),
                other => prop_assert!(false, "{}: last event {:?}", algorithm, other),
            }
            if algorithm != Algorithm::AStarSmoothed {
                prop_assert_eq!(stepped.expanded() + 1, stepped.steps(), "{}: every step but the last expands", algorithm);
            }
            let want = shown(stepped.as_ref());
            let ran = run(&case, algorithm);
            prop_assert_eq!(&shown(ran.as_ref()), &want, "{}: run", algorithm);

            let total = stepped.steps();
            let k = 1 + pick.index(total);
            let mut s = build(case.grid.clone(), case.start, case.goal, config(algorithm, case.rule)).unwrap();
            s.seek(k);
            let at_k = (shown(s.as_ref()), s.overlay());
            s.back();
            let mut fresh = build(case.grid.clone(), case.start, case.goal, config(algorithm, case.rule)).unwrap();
            fresh.advance(k - 1);
            prop_assert_eq!(&shown(s.as_ref()), &shown(fresh.as_ref()), "{}: back from {}", algorithm, k);
            s.step();
            prop_assert_eq!(&(shown(s.as_ref()), s.overlay()), &at_k, "{}: back then step at {}", algorithm, k);
            s.seek(usize::MAX / 2);
            prop_assert_eq!(&shown(s.as_ref()), &want, "{}: seek to the end", algorithm);
        }
    }
}

/// The shortest path through cell centres whose segments are lines of sight (by the
/// sampling check): Dijkstra over the visibility graph of all open cells. `None` when the goal
/// is unreachable.
fn shortest_through_centres(case: &Case) -> Option<f64> {
    let grid = &case.grid;
    let cells: Vec<Point> = (0..grid.len()).map(|i| grid.point_at(i)).filter(|&p| grid.is_passable(p)).collect();
    let n = cells.len();
    let from = cells.iter().position(|&p| p == case.start)?;
    let to = cells.iter().position(|&p| p == case.goal)?;
    let mut best = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    best[from] = 0.0;
    loop {
        let next = (0..n).filter(|&i| !done[i] && best[i].is_finite()).min_by(|&a, &b| best[a].total_cmp(&best[b]))?;
        if next == to {
            return Some(best[to]);
        }
        done[next] = true;
        for j in 0..n {
            if !done[j] && any_angle_support::sampled_sight(grid, cells[next], cells[j], case.rule) {
                best[j] = best[j].min(best[next] + dist(cells[next], cells[j]));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// No any-angle path is shorter than the shortest path through cell centres with lines
    /// of sight, found by brute force; Theta*'s is usually equal to it.
    #[test]
    fn no_path_beats_the_shortest_path_through_centres(case in case(9)) {
        let shortest = shortest_through_centres(&case);
        for algorithm in ANY_ANGLE {
            let s = run(&case, algorithm);
            prop_assert_eq!(s.cost().is_some(), shortest.is_some(), "{}", algorithm);
            if let (Some(got), Some(best)) = (s.cost(), shortest) {
                prop_assert!(got >= best - eps(best), "{} under {}: {} below the shortest {}", algorithm, case.rule, got, best);
            }
        }
    }
}

/// The grid on which the published Lazy Theta* (expanding a corrected node at once) returns
/// 8.670, longer than A*'s grid path 8.243: here the corrected goal goes back on the open list
/// and the path found is Theta*'s, 7.991.
#[test]
fn lazy_theta_puts_a_corrected_node_back_before_expanding_it() {
    let grid = draw(&["#..", "#..", "##.", "#..", "...", ".#.", "#..", ".##", "##.", "#.#", "##."]);
    let case =
        Case { grid, start: Point::new(1, 0), goal: Point::new(0, 7), rule: Diagonal::Always, costs: Costs::Real };
    let grid_optimum = optimum(&case.grid, case.start, case.goal, case.rule, Costs::Real).unwrap();
    assert!((grid_optimum - (4.0 + 3.0 * std::f64::consts::SQRT_2)).abs() < 1e-12);
    let p = |x, y| Point::new(x, y);
    let want = vec![p(1, 0), p(2, 3), p(2, 5), p(0, 7)];
    let want_cost = 10f64.sqrt() + 2.0 + 8f64.sqrt();
    for algorithm in [Algorithm::Theta, Algorithm::LazyTheta] {
        let s = run(&case, algorithm);
        let path = s.path().unwrap();
        assert_eq!(path.points, want, "{algorithm}");
        assert!((path.cost - want_cost).abs() < 1e-12 && path.cost < grid_optimum, "{algorithm}: {}", path.cost);
    }
}

/// On open ground every cell sees every other, so each algorithm's path is the single
/// segment from start to goal, under every rule, on grids of many shapes.
#[test]
fn on_open_ground_the_cost_is_the_straight_line() {
    for (w, h) in [(1, 1), (2, 1), (1, 7), (5, 5), (13, 4), (9, 17), (31, 23)] {
        let grid = Grid::new(w, h).unwrap();
        for &rule in Diagonal::ALL {
            for (start, goal) in [
                ((0, 0), (w - 1, h - 1)),
                ((w - 1, 0), (0, h - 1)),
                ((w / 2, 0), (w / 3, h - 1)),
                ((0, h / 2), (w - 1, h / 3)),
            ] {
                let (start, goal) = (Point::new(start.0, start.1), Point::new(goal.0, goal.1));
                for algorithm in ANY_ANGLE {
                    let mut s = build(grid.clone(), start, goal, config(algorithm, rule)).unwrap();
                    assert_eq!(s.run(), Status::Found);
                    let path = s.path().unwrap();
                    let want: Vec<Point> = if start == goal { vec![start] } else { vec![start, goal] };
                    assert_eq!(path.points, want, "{algorithm} {w}x{h} {rule} {start}->{goal}");
                    assert!(
                        (path.cost - dist(start, goal)).abs() <= 1e-12,
                        "{algorithm} {w}x{h} {rule}: {}",
                        path.cost
                    );
                }
            }
        }
    }
}

/// Worked by hand: a wall whose end the path must round.
///
/// ```text
///   0 1 2 3
/// 0 S . . .
/// 1 # # . .
/// 2 G . . .
/// ```
/// Under no-corner-cutting (and never) no segment may touch the wall's corner point (2,1):
/// (1,0)->(2,1) is a diagonal past the wall (1,1), and (2,0)->G, (2,1)->G, S->(2,1) all touch
/// or enter it. Theta* gives (1,0) and (2,0) the start as parent, (2,1) the parent (2,0)
/// (S -> (2,1) is blocked), (2,2) the parent (2,0) (straight down, in sight), (1,2) the parent
/// (2,2) ((2,0) -> (1,2) enters (1,1)) and G the parent (2,2): S, (2,0), (2,2), G, length 6,
/// no shorter than the grid path here.
///
/// Under at-most-one-blocked and always the corner may be grazed: (1,0) -> (2,1) and
/// (2,1) -> (1,2) are allowed diagonals, while S -> (2,1) and (1,0) -> (1,2) still enter
/// walls: S, (1,0), (2,1), (1,2), G, length 2 + 2 sqrt(2).
#[test]
fn rounding_a_wall_end_worked_by_hand() {
    let grid = draw(&["....", "##..", "...."]);
    let (s, g) = (Point::new(0, 0), Point::new(0, 2));
    let p = |x, y| Point::new(x, y);
    let tight = (vec![s, p(2, 0), p(2, 2), g], 6.0);
    let loose = (vec![s, p(1, 0), p(2, 1), p(1, 2), g], 2.0 + 2.0 * std::f64::consts::SQRT_2);
    for (rule, (points, cost)) in [
        (Diagonal::Never, &tight),
        (Diagonal::NoCornerCutting, &tight),
        (Diagonal::AtMostOneBlocked, &loose),
        (Diagonal::Always, &loose),
    ] {
        for algorithm in [Algorithm::Theta, Algorithm::LazyTheta] {
            let mut t = build(grid.clone(), s, g, config(algorithm, rule)).unwrap();
            t.run();
            let path = t.path().unwrap();
            assert_eq!(&path.points, points, "{algorithm} under {rule}");
            assert!((path.cost - cost).abs() < 1e-12, "{algorithm} under {rule}: {}", path.cost);
        }
    }
}

/// Terrain is refused by every any-angle algorithm, when built and when painted, with a
/// message that names the algorithm; each constructor refuses the others' algorithms.
#[test]
fn refusals_give_unsupported() {
    let mut cells = vec![1u8; 12];
    cells[5] = 3;
    let mud = Grid::from_cells(4, 3, cells).unwrap();
    let open = Grid::new(4, 3).unwrap();
    let (s, g) = (Point::new(0, 0), Point::new(3, 2));
    for algorithm in ANY_ANGLE {
        let cfg = SearchConfig::new(algorithm);
        match build(mud.clone(), s, g, cfg) {
            Err(SearchError::Unsupported(why)) => {
                assert!(why.contains(algorithm.name()) && why.contains("terrain"), "{why}");
            }
            other => panic!("{algorithm} on terrain: {:?}", other.map(|_| ())),
        }
        let mut search = build(open.clone(), s, g, cfg).unwrap();
        search.advance(3);
        assert!(matches!(search.paint(&[Point::new(1, 1)], 5), Err(SearchError::Unsupported(_))));
        assert_eq!(search.grid(), &open, "{algorithm}: a refused paint changes nothing");
        assert_eq!(search.steps(), 3, "{algorithm}: a refused paint keeps the step");
        assert_eq!(search.paint(&[Point::new(1, 1), Point::new(9, 9), s], WALL), Ok(1));
        assert_eq!(search.steps(), 0);
        // Ends on walls and bad weights are refused as for A*.
        assert!(matches!(build(open.clone(), s, g, cfg.weight(0.5)), Err(SearchError::BadWeight(_))));
        let mut walled = open.clone();
        walled.set(g, WALL).unwrap();
        assert!(matches!(build(walled, s, g, cfg), Err(SearchError::OnWall { which: "goal", .. })));
    }
    assert!(matches!(
        ThetaStar::new(open.clone(), s, g, SearchConfig::new(Algorithm::AStar)),
        Err(SearchError::Unsupported(_))
    ));
    assert!(matches!(
        SmoothedAStar::new(open, s, g, SearchConfig::new(Algorithm::Theta)),
        Err(SearchError::Unsupported(_))
    ));
}
