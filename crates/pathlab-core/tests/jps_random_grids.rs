//! JPS, JPS+ and pruned JPS+ on thousands of random grids without terrain (up to 32x32: scattered walls
//! plus wall segments, which make corridors, corners and forced neighbours), under both rules
//! they run on (`no-corner-cutting` and `never`) and both cost models:
//! - the cost equals that of the independent Dijkstra (`oracle`: own neighbours, own diagonal
//!   rule, own costs, nothing taken from the core but the cell bytes), and there is no path
//!   exactly when it finds the goal unreachable;
//! - the path lists every cell, each move legal under the rule, and its moves sum to the cost;
//!   the parents chain back from the goal to the start through jump points in straight or
//!   diagonal lines (pruned JPS+: along routes of as many moves as the path takes between
//!   them);
//! - stepping with the event log, running, and seeking give the same answer;
//! - after random wall and ground strokes, both JPS+'s tables and results equal a fresh
//!   search's, and JPS after the strokes equals a fresh JPS.

mod cases;
mod oracle;

use cases::Case;
use oracle::{optimum, same, walk};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{build, Algorithm, EventLog, SearchConfig, Status, StepEvent, Stepper, NO_PARENT};
use proptest::prelude::*;
use proptest::sample::{select, Index};

// ---- random problems ------------------------------------------------------------------------

/// A wall segment: (x, y, length, horizontal).
type Segment = (usize, usize, usize, bool);

fn make_grid(w: usize, h: usize, density: u32, rolls: &[u32], segments: &[Segment]) -> Grid {
    let mut cells: Vec<u8> = rolls.iter().map(|&r| u8::from(r >= density)).collect();
    for &(x, y, len, horizontal) in segments {
        for k in 0..len {
            let (cx, cy) = if horizontal { (x % w + k, y % h) } else { (x % w, y % h + k) };
            if cx < w && cy < h {
                cells[cy * w + cx] = 0;
            }
        }
    }
    if cells.iter().all(|&c| c == 0) {
        cells[0] = 1;
    }
    Grid::from_cells(w, h, cells).unwrap()
}

fn open_cell(grid: &Grid, pick: Index) -> Point {
    let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.cells()[i] != 0).collect();
    grid.point_at(open[pick.index(open.len())])
}

fn grid_strategy() -> impl Strategy<Value = Grid> {
    (1usize..=32, 1usize..=32, 0u32..=40).prop_flat_map(|(w, h, density)| {
        (
            proptest::collection::vec(0u32..100, w * h),
            proptest::collection::vec((0usize..32, 0usize..32, 1usize..20, any::<bool>()), 0..6),
        )
            .prop_map(move |(rolls, segments)| make_grid(w, h, density, &rolls, &segments))
    })
}

fn case() -> impl Strategy<Value = Case> {
    (
        grid_strategy(),
        any::<Index>(),
        any::<Index>(),
        select(vec![Diagonal::NoCornerCutting, Diagonal::Never]),
        select(Costs::ALL.to_vec()),
    )
        .prop_map(|(grid, s, g, rule, costs)| {
            let (start, goal) = (open_cell(&grid, s), open_cell(&grid, g));
            Case { grid, start, goal, rule, costs }
        })
}

/// The admissible heuristics for the case's rule and costs, octile first.
fn admissible(case: &Case) -> Vec<Heuristic> {
    Heuristic::ALL.iter().copied().filter(|h| h.is_admissible(case.rule, case.costs)).collect()
}

fn config(case: &Case, algorithm: Algorithm, heuristic: Heuristic) -> SearchConfig {
    SearchConfig::new(algorithm).heuristic(heuristic).diagonal(case.rule).costs(case.costs)
}

/// Runs one configuration and checks its answer against the reference.
fn check(case: &Case, config: SearchConfig, optimum: Option<f64>) -> Result<Box<dyn Stepper>, TestCaseError> {
    let what = format!("{} {} {} {}", config.algorithm, config.heuristic, config.diagonal, config.costs);
    let mut s = build(case.grid.clone(), case.start, case.goal, config)
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    let status = s.run();
    let Some(optimum) = optimum else {
        prop_assert_eq!(status, Status::NoPath, "{}: the reference finds no path", what);
        prop_assert!(s.cost().is_none() && s.path_indices().is_empty(), "{}", what);
        return Ok(s);
    };
    prop_assert_eq!(status, Status::Found, "{}: the reference finds {}", what, optimum);
    let cost = s.cost().unwrap();
    prop_assert!(same(cost, optimum), "{}: cost {} but Dijkstra's {}", what, cost, optimum);
    let points = s.path().unwrap().points;
    prop_assert_eq!(points.first(), Some(&case.start), "{}", what);
    prop_assert_eq!(points.last(), Some(&case.goal), "{}", what);
    let walked = walk(&case.grid, case.rule, case.costs, case.start, case.goal, &points)
        .map_err(|e| TestCaseError::fail(format!("{what}: {e} in {points:?}")))?;
    prop_assert!(same(walked, cost), "{}: the moves sum to {} but the cost is {}", what, walked, cost);
    // The parents chain from the goal to the start through jump points, every one on the
    // path: in straight or diagonal lines, except that pruned JPS+ joins a node to the jump
    // points found from the cells of its diagonal scans, a route that takes as many moves as
    // the larger of the two distances (the smaller diagonally first), or both when 4-connected.
    let w = case.grid.width();
    let parents = s.parents();
    let path = s.path_indices();
    let place = |cell: usize| path.iter().position(|&c| c as usize == cell);
    let mut at = case.goal.y * w + case.goal.x;
    let mut hops = 0;
    while parents[at] != NO_PARENT {
        let p = parents[at] as usize;
        let (dx, dy) = ((at % w).abs_diff(p % w), (at / w).abs_diff(p / w));
        if config.algorithm == Algorithm::JpsPlusPruned {
            let moves = if case.rule == Diagonal::Never { dx + dy } else { dx.max(dy) };
            let (from, to) = (place(p), place(at));
            prop_assert!(
                from.is_some() && to == from.map(|f| f + moves),
                "{}: parent of {} is {} moves back",
                what,
                at,
                moves
            );
        } else {
            prop_assert!(dx == 0 || dy == 0 || dx == dy, "{}: parent of {} is not in line", what, at);
        }
        prop_assert!(path.contains(&(p as u32)), "{}", what);
        at = p;
        hops += 1;
        prop_assert!(hops <= case.grid.len(), "{}: the parents loop", what);
    }
    prop_assert_eq!(at, case.start.y * w + case.start.x, "{}", what);
    Ok(s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Cost, path and no-path against the reference, with every admissible heuristic.
    #[test]
    fn jps_and_jps_plus_match_dijkstra(case in case()) {
        let optimum = optimum(&case.grid, case.start, case.goal, case.rule, case.costs);
        for algorithm in [Algorithm::Jps, Algorithm::JpsPlus, Algorithm::JpsPlusPruned] {
            for h in admissible(&case) {
                let s = check(&case, config(&case, algorithm, h), optimum)?;
                prop_assert!(s.expanded() <= case.grid.len());
            }
        }
    }
}

/// Runs a configuration with `step_logged` one step at a time and returns what each step
/// reported, and checks the log against the step.
fn stepped(case: &Case, config: SearchConfig) -> Result<(Box<dyn Stepper>, Vec<StepEvent>), TestCaseError> {
    let mut s = build(case.grid.clone(), case.start, case.goal, config).unwrap();
    let mut log = EventLog::default();
    let mut events = Vec::new();
    loop {
        let event = s.step_logged(&mut log);
        if let StepEvent::Expanded(p) = event {
            prop_assert_eq!(log.expanded, Some((p.y * case.grid.width() + p.x) as u32));
            // Every jump point the log says was opened now has the expanded node as parent.
            for o in &log.opened {
                prop_assert_eq!(s.parents()[o.node as usize], log.expanded.unwrap());
                prop_assert!(same(s.g_values()[o.node as usize], o.new_g));
                prop_assert!(o.old_g.is_none_or(|old| o.new_g < old));
            }
            // The overlay marks exactly the jump points opened or improved.
            let mut marked: Vec<u32> = s
                .overlay()
                .marks
                .iter()
                .filter(|m| m.kind == pathlab_core::search::MarkKind::JumpPoint)
                .map(|m| m.cell)
                .collect();
            let mut opened: Vec<u32> = log.opened.iter().map(|o| o.node).collect();
            marked.sort_unstable();
            opened.sort_unstable();
            prop_assert_eq!(marked, opened);
        }
        events.push(event);
        if s.status().is_finished() {
            break;
        }
    }
    Ok((s, events))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Stepping, running and seeking agree; back then forward lands in the same state.
    #[test]
    fn stepping_running_and_seeking_agree(case in case(), back in 0usize..50) {
        for algorithm in [Algorithm::Jps, Algorithm::JpsPlus, Algorithm::JpsPlusPruned] {
            let config = config(&case, algorithm, Heuristic::Octile);
            let (stepped, events) = stepped(&case, config)?;
            let mut ran = build(case.grid.clone(), case.start, case.goal, config).unwrap();
            ran.run();
            prop_assert_eq!(stepped.steps(), events.len());
            prop_assert_eq!(ran.steps(), stepped.steps());
            prop_assert_eq!(ran.expanded(), stepped.expanded());
            prop_assert_eq!(ran.cost(), stepped.cost());
            prop_assert_eq!(ran.path_indices(), stepped.path_indices());
            prop_assert_eq!(ran.states(), stepped.states());
            prop_assert_eq!(ran.parents(), stepped.parents());
            // Seek back some steps and forward again.
            let k = ran.steps().saturating_sub(back % (ran.steps() + 1));
            ran.seek(k);
            prop_assert_eq!(ran.steps(), k);
            let mut fresh = build(case.grid.clone(), case.start, case.goal, config).unwrap();
            fresh.advance(k);
            prop_assert_eq!(ran.states(), fresh.states());
            prop_assert_eq!(ran.open_count(), fresh.open_count());
            prop_assert_eq!(ran.expanded(), fresh.expanded());
            prop_assert_eq!(ran.overlay(), fresh.overlay());
            ran.run();
            prop_assert_eq!(ran.cost(), stepped.cost());
            // After reset, the first step expands the start.
            ran.reset();
            prop_assert_eq!(ran.status(), Status::Ready);
            prop_assert_eq!(ran.open_count(), 1);
        }
    }
}

/// A stroke: the cells and the value painted (0 wall, 1 ground).
type Stroke = (Vec<(usize, usize)>, u8);

fn strokes() -> impl Strategy<Value = Vec<Stroke>> {
    proptest::collection::vec((proptest::collection::vec((0usize..32, 0usize..32), 1..12), 0u8..=1), 1..8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// JPS+ after random wall and ground strokes: the table equals a fresh JPS+'s and so do
    /// the results; JPS after the same strokes equals a fresh JPS.
    #[test]
    fn edits_agree_with_a_fresh_search(case in case(), strokes in strokes()) {
        for algorithm in [Algorithm::JpsPlus, Algorithm::JpsPlusPruned, Algorithm::Jps] {
            let config = config(&case, algorithm, Heuristic::Octile);
            let mut edited = build(case.grid.clone(), case.start, case.goal, config).unwrap();
            for (cells, value) in &strokes {
                edited.advance(3);
                let (w, h) = (case.grid.width(), case.grid.height());
                let cells: Vec<Point> = cells.iter().map(|&(x, y)| Point::new(x % (w + 1), y % (h + 1))).collect();
                let before = edited.grid().clone();
                let changed = edited.paint(&cells, *value).unwrap();
                let differing = before.cells().iter().zip(edited.grid().cells()).filter(|(a, b)| a != b).count();
                prop_assert_eq!(changed, differing);
                if changed > 0 {
                    prop_assert_eq!(edited.steps(), 0, "a change resets the search");
                }
                let mut fresh = build(edited.grid().clone(), case.start, case.goal, config).unwrap();
                if algorithm != Algorithm::Jps {
                    let (a, b) = (edited.cell_table().unwrap(), fresh.cell_table().unwrap());
                    prop_assert_eq!(a.per_cell, 8);
                    if a.values != b.values {
                        let i = a.values.iter().zip(b.values).position(|(x, y)| x != y).unwrap();
                        return Err(TestCaseError::fail(format!(
                            "table differs at cell {} direction {}: edited {} fresh {} on\n{:?}",
                            edited.grid().point_at(i / 8), i % 8, a.values[i], b.values[i], edited.grid()
                        )));
                    }
                }
                edited.run();
                fresh.run();
                prop_assert_eq!(edited.cost(), fresh.cost());
                prop_assert_eq!(edited.path_indices(), fresh.path_indices());
                prop_assert_eq!(edited.expanded(), fresh.expanded());
                prop_assert_eq!(edited.states(), fresh.states());
                let optimum = optimum(edited.grid(), case.start, case.goal, case.rule, case.costs);
                match (edited.cost(), optimum) {
                    (Some(a), Some(b)) => prop_assert!(same(a, b), "{} after edits: {} vs {}", algorithm, a, b),
                    (None, None) => {}
                    (a, b) => prop_assert!(false, "{} after edits: {:?} vs Dijkstra {:?}", algorithm, a, b),
                }
            }
        }
    }
}
