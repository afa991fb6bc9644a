//! JPS and JPS+ worked by hand (steps, scans, forced neighbours, jump points, the JPS+
//! table), the settings they refuse and why, and JPS+'s table against the definition of a
//! jump point, computed here by walking from every cell (not by the core's one-pass method).

mod oracle;

use oracle::open;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::jps_plus::JpsPlus;
use pathlab_core::search::{
    build, Algorithm, EventLog, LineKind, MarkKind, OverlayLine, OverlayMark, SearchConfig, SearchError, Status,
    StepEvent, Stepper,
};
use proptest::prelude::*;

const SQRT2: f64 = std::f64::consts::SQRT_2;

/// Draws a grid: `.` ground, `#` wall, digits terrain.
fn draw(text: &str) -> Grid {
    let rows: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let cells = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| match c {
            '.' => 1,
            '#' => 0,
            d => d.to_digit(10).expect("a digit") as u8,
        })
        .collect();
    Grid::from_cells(rows[0].len(), rows.len(), cells).unwrap()
}

fn jps(algorithm: Algorithm) -> SearchConfig {
    SearchConfig::new(algorithm)
}

fn idx(grid: &Grid, x: usize, y: usize) -> u32 {
    (y * grid.width() + x) as u32
}

fn line(grid: &Grid, from: (usize, usize), to: (usize, usize), kind: LineKind) -> OverlayLine {
    OverlayLine { from: idx(grid, from.0, from.1), to: idx(grid, to.0, to.1), kind }
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

// The map of the hand-worked run: start S (0,1), goal G (6,1), a wall at (2,0).
//
//   x: 0 1 2 3 4 5 6
//   y0 . . # . . . .
//   y1 S . . . . . G
//   y2 . . . . . . .
const MAP: &str = "
    ..#....
    .......
    .......
";

/// Step 1 expands the start and scans all eight directions (N, E, S, W, NE, SE, SW, NW):
/// - N: (0,0), then the edge: nothing.
/// - E: (1,1) and (2,1) have no forced neighbour; at (3,1) the cell above, (3,0), is open
///   while (2,0) above the previous cell is a wall: (3,0) is forced, (3,1) is a jump point,
///   3 moves away, g = 3.
/// - S: (0,2), then the edge: nothing. W, SW, NW: the edge at once.
/// - NE: to (1,0); from there east is the wall at (2,0) and north the edge, and the next
///   diagonal leaves the grid: nothing.
/// - SE: to (1,2); its east scan runs along row 2 to (6,2) without a forced neighbour, south
///   is the edge, and the next diagonal leaves the grid: nothing.
///
/// Step 2 expands (3,1), reached going east: east is natural, and north plus north-east are
/// forced by the wall at (2,0) (south is not: (2,2) is open). North reaches (3,0) and the
/// edge; east reaches the goal at (6,1), g = 6; north-east reaches (4,0), whose east scan runs
/// to (6,0). Step 3 pops the goal: cost 6, path along row 1.
#[test]
fn jps_worked_by_hand() {
    let grid = draw(MAP);
    let g = |x, y| idx(&grid, x, y);
    let mut s = build(grid.clone(), Point::new(0, 1), Point::new(6, 1), jps(Algorithm::Jps)).unwrap();
    let mut log = EventLog::default();

    assert_eq!(s.step_logged(&mut log), StepEvent::Expanded(Point::new(0, 1)));
    assert_eq!(log.opened.len(), 1);
    assert_eq!((log.opened[0].node, log.opened[0].parent, log.opened[0].new_g), (g(3, 1), g(0, 1), 3.0));
    let overlay = s.overlay();
    let want = [
        line(&grid, (0, 1), (0, 0), LineKind::Scan),
        line(&grid, (0, 1), (3, 1), LineKind::ScanHit),
        line(&grid, (0, 1), (0, 2), LineKind::Scan),
        line(&grid, (0, 1), (1, 0), LineKind::Scan),
        line(&grid, (1, 2), (6, 2), LineKind::Scan),
        line(&grid, (0, 1), (1, 2), LineKind::Scan),
    ];
    assert_eq!(overlay.lines, want);
    assert_eq!(
        sorted(&overlay.marks.iter().map(|m| (m.cell, m.kind.name())).collect::<Vec<_>>()),
        sorted(&[(g(3, 0), "forced"), (g(3, 1), "jump-point")])
    );
    assert_eq!(s.open_count(), 1);
    assert_eq!(s.states()[g(3, 1) as usize], 1, "the jump point is open");
    assert_eq!(s.states()[g(1, 1) as usize], 0, "cells passed by a scan stay unseen");

    assert_eq!(s.step_logged(&mut log), StepEvent::Expanded(Point::new(3, 1)));
    assert_eq!(log.opened.len(), 1);
    assert_eq!((log.opened[0].node, log.opened[0].parent, log.opened[0].new_g), (g(6, 1), g(3, 1), 6.0));
    let overlay = s.overlay();
    assert_eq!(
        overlay.lines,
        [
            line(&grid, (3, 1), (3, 0), LineKind::Scan),
            line(&grid, (3, 1), (6, 1), LineKind::ScanHit),
            line(&grid, (4, 0), (6, 0), LineKind::Scan),
            line(&grid, (3, 1), (4, 0), LineKind::Scan),
        ]
    );
    assert_eq!(overlay.marks, [OverlayMark { cell: g(6, 1), kind: MarkKind::JumpPoint }]);

    assert_eq!(s.step(), StepEvent::Found { cost: 6.0 });
    assert_eq!(s.expanded(), 2);
    assert_eq!(s.steps(), 3);
    assert_eq!(s.path_indices(), (0..7).map(|x| g(x, 1)).collect::<Vec<_>>());
    assert_eq!(s.parents()[g(6, 1) as usize], g(3, 1), "parents point to the previous jump point");
    assert_eq!(s.parents()[g(3, 1) as usize], g(0, 1));
    assert!(s.overlay().lines.is_empty(), "nothing is scanned by the step that pops the goal");
    assert_eq!(s.step(), StepEvent::Finished);
}

/// JPS+ on the same map: the table entries worked out by hand, the same two expansions, and
/// its overlay (one line per direction looked up).
#[test]
fn jps_plus_worked_by_hand() {
    let grid = draw(MAP);
    let g = |x, y| idx(&grid, x, y);
    let mut s = build(grid.clone(), Point::new(0, 1), Point::new(6, 1), jps(Algorithm::JpsPlus)).unwrap();
    let table = s.cell_table().expect("JPS+ has a table");
    assert_eq!(table.per_cell, 8);
    assert_eq!(table.values.len(), grid.len() * 8);
    let at = |x, y| table.values[g(x, y) as usize * 8..g(x, y) as usize * 8 + 8].to_vec();
    // (0,1): N one move to the edge; NE to (1,0), where east is the wall and north the edge
    // (no jump point), then stuck: -1; E the jump point (3,1); SE to (1,2), whose east runs
    // to (6,2) without a jump point: -1; S one move; SW, W, NW none.
    assert_eq!(at(0, 1), [-1, -1, 3, -1, -1, 0, 0, 0]);
    // (3,1): N one move; NE to (4,0), whose east runs out at (6,0): -1; E three moves to the
    // edge, no jump point: -3; SE to (4,2) then the edge: -1; S -1; SW to (2,2): -1;
    // W: (2,1) has no forced neighbour going west ((2,0) is a wall, so not open), but at
    // (1,1) the cell above, (1,0), is open while (2,0) above the previous cell is a wall: 2;
    // NW: (2,0) is a wall: 0.
    assert_eq!(at(3, 1), [-1, -1, -3, -1, -1, -1, 2, 0]);
    // The wall holds zeros.
    assert_eq!(at(2, 0), [0; 8]);
    // (1,1) going east is 2 moves from the jump point (3,1); (4,0) going west: (3,0) is
    // open, then the wall at (2,0): -1.
    assert_eq!(at(1, 1)[2], 2);
    assert_eq!(at(4, 0)[6], -1);

    let mut log = EventLog::default();
    assert_eq!(s.step_logged(&mut log), StepEvent::Expanded(Point::new(0, 1)));
    assert_eq!(log.opened.iter().map(|o| (o.node, o.new_g)).collect::<Vec<_>>(), [(g(3, 1), 3.0)]);
    let overlay = s.overlay();
    assert_eq!(
        overlay.lines,
        [
            line(&grid, (0, 1), (0, 0), LineKind::Scan),
            line(&grid, (0, 1), (3, 1), LineKind::ScanHit),
            line(&grid, (0, 1), (0, 2), LineKind::Scan),
            line(&grid, (0, 1), (1, 0), LineKind::Scan),
            line(&grid, (0, 1), (1, 2), LineKind::Scan),
        ]
    );
    assert_eq!(
        sorted(&overlay.marks.iter().map(|m| (m.cell, m.kind.name())).collect::<Vec<_>>()),
        sorted(&[(g(3, 0), "forced"), (g(3, 1), "jump-point")])
    );
    assert_eq!(overlay.notes.len(), 1);
    assert!(overlay.notes[0].1.contains("E 3"), "{:?}", overlay.notes);
    // (3,1) going east: -3 reaches the goal 3 moves away (the goal check), g = 6.
    assert_eq!(s.step_logged(&mut log), StepEvent::Expanded(Point::new(3, 1)));
    assert_eq!(log.opened.iter().map(|o| (o.node, o.new_g)).collect::<Vec<_>>(), [(g(6, 1), 6.0)]);
    assert_eq!(s.run(), Status::Found);
    assert_eq!(s.cost(), Some(6.0));
    assert_eq!(s.expanded(), 2);
    assert_eq!(s.path_indices(), (0..7).map(|x| g(x, 1)).collect::<Vec<_>>());
}

/// On an open grid, JPS and JPS+ reach a goal 63 columns right and 40 rows down in two
/// expansions: the start's south-east diagonal stops at (40,40), in the goal's row (JPS: its
/// east scan finds the goal; JPS+: the goal check), and (40,40) finds the goal going east.
/// On a 4-connected grid the vertical scan stops in the goal's row the same way.
#[test]
fn open_grids_take_two_expansions() {
    let grid = Grid::new(64, 64).unwrap();
    for algorithm in [Algorithm::Jps, Algorithm::JpsPlus] {
        let mut s = build(grid.clone(), Point::new(0, 0), Point::new(63, 40), jps(algorithm)).unwrap();
        assert_eq!(s.run(), Status::Found);
        assert_eq!(s.expanded(), 2, "{algorithm}");
        assert!((s.cost().unwrap() - (40.0 * SQRT2 + 23.0)).abs() < 1e-9);
        assert_eq!(s.path_indices().len(), 64);
        assert_eq!(s.parents()[40 * 64 + 40], 0, "{algorithm}: (40,40) comes straight from the start");

        let config = jps(algorithm).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan).costs(Costs::Integer);
        let mut s = build(grid.clone(), Point::new(0, 0), Point::new(5, 3), config).unwrap();
        assert_eq!(s.run(), Status::Found);
        assert_eq!(s.expanded(), 2, "{algorithm} 4-connected");
        assert_eq!(s.cost(), Some(80.0));
        assert_eq!(s.parents()[3 * 64 + 5], (3 * 64) as u32, "{algorithm}: the goal's parent is (0,3)");
    }
}

/// Pruned JPS+ on the same open grid takes one expansion. The goal lies south-east, so that
/// direction is looked up first: the scan stops at (40,40) in the goal's row, and instead of
/// opening that cell it looks along the cell's two straight directions at once (east first,
/// in scan order): east meets the goal 23 moves on; south runs to the edge; then the diagonal
/// goes on from (40,40) to (63,63) and finds nothing more. The goal was found in its own
/// direction, so it is the only successor (no other direction is scanned), opened with the
/// start as parent and g = 40 sqrt(2) + 23. The path is still every cell: 40 diagonal moves,
/// then 23 east. On a 4-connected grid the vertical scan stops at (0,3) in the goal's row,
/// whose east scan meets the goal: one expansion, the goal's parent the start, the path going
/// down first and then east.
#[test]
fn pruned_jps_plus_opens_what_a_diagonal_stop_finds_instead_of_the_stop() {
    let grid = Grid::new(64, 64).unwrap();
    let g = |x, y| idx(&grid, x, y);
    let mut s = build(grid.clone(), Point::new(0, 0), Point::new(63, 40), jps(Algorithm::JpsPlusPruned)).unwrap();
    let mut log = EventLog::default();
    assert_eq!(s.step_logged(&mut log), StepEvent::Expanded(Point::new(0, 0)));
    let want_g = 40.0 * SQRT2 + 23.0;
    assert_eq!(log.opened.iter().map(|o| (o.node, o.parent)).collect::<Vec<_>>(), [(g(63, 40), g(0, 0))]);
    assert!((log.opened[0].new_g - want_g).abs() < 1e-9);
    let overlay = s.overlay();
    assert_eq!(
        overlay.lines,
        [
            line(&grid, (0, 0), (40, 40), LineKind::ScanHit),
            line(&grid, (40, 40), (63, 40), LineKind::ScanHit),
            line(&grid, (40, 40), (40, 63), LineKind::Scan),
            line(&grid, (40, 40), (63, 63), LineKind::Scan),
        ]
    );
    assert_eq!(overlay.marks, [OverlayMark { cell: g(63, 40), kind: MarkKind::JumpPoint }]);
    assert_eq!(s.states()[g(40, 40) as usize], 0, "the diagonal's stop is never opened");
    assert!(matches!(s.step(), StepEvent::Found { cost } if (cost - want_g).abs() < 1e-9));
    assert_eq!(s.expanded(), 1);
    let diagonal = (0..=40).map(|k| g(k, k));
    assert_eq!(s.path_indices(), diagonal.chain((41..64).map(|x| g(x, 40))).collect::<Vec<_>>());

    let config =
        jps(Algorithm::JpsPlusPruned).diagonal(Diagonal::Never).heuristic(Heuristic::Manhattan).costs(Costs::Integer);
    let mut s = build(grid.clone(), Point::new(0, 0), Point::new(5, 3), config).unwrap();
    assert_eq!(s.run(), Status::Found);
    assert_eq!((s.expanded(), s.cost()), (1, Some(80.0)));
    assert_eq!(s.parents()[g(5, 3) as usize], g(0, 0));
    let down = (0..=3).map(|y| g(0, y));
    assert_eq!(s.path_indices(), down.chain((1..=5).map(|x| g(x, 3))).collect::<Vec<_>>());
}

/// Pruned JPS+ on the hand-worked map: the goal lies east, so east is scanned first. From the
/// start it stops on the jump point (3,1), not the goal, so the other directions follow in
/// scan order (N, S, then NE and SE, whose first moves find no stop; W, SW and NW leave the
/// grid at once). From (3,1) east meets the goal: it is the only successor, and north and
/// north-east (kept for the forced neighbour at (3,0)) are not scanned. Two expansions and
/// cost 6, as JPS+.
#[test]
fn pruned_jps_plus_scans_the_goals_direction_first() {
    let grid = draw(MAP);
    let g = |x, y| idx(&grid, x, y);
    let mut s = build(grid.clone(), Point::new(0, 1), Point::new(6, 1), jps(Algorithm::JpsPlusPruned)).unwrap();
    let mut log = EventLog::default();
    assert_eq!(s.step_logged(&mut log), StepEvent::Expanded(Point::new(0, 1)));
    assert_eq!(log.opened.iter().map(|o| (o.node, o.new_g)).collect::<Vec<_>>(), [(g(3, 1), 3.0)]);
    assert_eq!(
        s.overlay().lines,
        [
            line(&grid, (0, 1), (3, 1), LineKind::ScanHit),
            line(&grid, (0, 1), (0, 0), LineKind::Scan),
            line(&grid, (0, 1), (0, 2), LineKind::Scan),
            line(&grid, (0, 1), (1, 0), LineKind::Scan),
            line(&grid, (0, 1), (1, 2), LineKind::Scan),
        ]
    );
    assert_eq!(s.step_logged(&mut log), StepEvent::Expanded(Point::new(3, 1)));
    assert_eq!(log.opened.iter().map(|o| (o.node, o.new_g)).collect::<Vec<_>>(), [(g(6, 1), 6.0)]);
    assert_eq!(s.overlay().lines, [line(&grid, (3, 1), (6, 1), LineKind::ScanHit)]);
    assert_eq!(s.run(), Status::Found);
    assert_eq!((s.cost(), s.expanded()), (Some(6.0), 2));
    assert_eq!(s.path_indices(), (0..7).map(|x| g(x, 1)).collect::<Vec<_>>());
}

/// A corridor that is walled off: no path, and the search says so after expanding the jump
/// points it can reach.
#[test]
fn no_path_is_reported() {
    let grid = draw(
        "
        ...#...
        ...#...
        ...#...
        ",
    );
    for algorithm in [Algorithm::Jps, Algorithm::JpsPlus, Algorithm::JpsPlusPruned] {
        for rule in [Diagonal::NoCornerCutting, Diagonal::Never] {
            let mut s = build(grid.clone(), Point::new(0, 0), Point::new(6, 2), jps(algorithm).diagonal(rule)).unwrap();
            assert_eq!(s.run(), Status::NoPath, "{algorithm} {rule}");
            assert_eq!(s.cost(), None);
            assert!(s.path_indices().is_empty());
            assert_eq!(s.open_count(), 0);
        }
    }
}

/// The settings JPS and JPS+ cannot run under are refused, each with a plain message.
#[test]
fn refuses_terrain_and_other_diagonal_rules() {
    let weighted = draw(
        "
        ..3.
        ....
        ",
    );
    for algorithm in [Algorithm::Jps, Algorithm::JpsPlus] {
        let Err(SearchError::Unsupported(why)) =
            build(weighted.clone(), Point::new(0, 0), Point::new(3, 1), jps(algorithm))
        else {
            panic!("{algorithm} accepted terrain");
        };
        assert!(why.contains("terrain") && why.contains("A*") && why.contains("cost 3"), "{why}");
        assert!(why.starts_with(if algorithm == Algorithm::Jps { "JPS " } else { "JPS+ " }), "{why}");

        let plain = Grid::new(4, 2).unwrap();
        for rule in [Diagonal::Always, Diagonal::AtMostOneBlocked] {
            let Err(SearchError::Unsupported(why)) =
                build(plain.clone(), Point::new(0, 0), Point::new(3, 1), jps(algorithm).diagonal(rule))
            else {
                panic!("{algorithm} accepted {rule}");
            };
            assert!(why.contains(rule.name()) && why.contains("no-corner-cutting"), "{why}");
        }
        for rule in [Diagonal::NoCornerCutting, Diagonal::Never] {
            assert!(build(plain.clone(), Point::new(0, 0), Point::new(3, 1), jps(algorithm).diagonal(rule)).is_ok());
        }
        assert!(matches!(
            build(plain.clone(), Point::new(0, 0), Point::new(3, 1), jps(algorithm).weight(0.5)),
            Err(SearchError::BadWeight(_))
        ));
        let walled = draw("#...");
        assert!(matches!(
            build(walled, Point::new(0, 0), Point::new(3, 0), jps(algorithm)),
            Err(SearchError::OnWall { which: "start", .. })
        ));
        assert!(matches!(
            build(plain, Point::new(0, 0), Point::new(4, 0), jps(algorithm)),
            Err(SearchError::OutOfBounds { which: "goal", .. })
        ));
    }
}

/// Painting terrain is refused and leaves the grid and the search as they were; walls and
/// ground are painted, and the start and goal are never walled over.
#[test]
fn painting_terrain_is_refused_and_keeps_the_grid() {
    for algorithm in [Algorithm::Jps, Algorithm::JpsPlus] {
        let mut s = build(Grid::new(6, 4).unwrap(), Point::new(0, 0), Point::new(5, 3), jps(algorithm)).unwrap();
        s.advance(1);
        let before = s.grid().clone();
        let table_before = s.cell_table().map(|t| t.values.to_vec());
        let Err(SearchError::Unsupported(why)) = s.paint(&[Point::new(2, 2)], 4) else {
            panic!("{algorithm} painted terrain");
        };
        assert!(why.contains("terrain") && why.contains("A*"), "{why}");
        assert_eq!(s.grid(), &before);
        assert_eq!(s.steps(), 1, "a refused stroke leaves the search where it was");
        assert_eq!(s.cell_table().map(|t| t.values.to_vec()), table_before);

        let stroke = [Point::new(0, 0), Point::new(2, 2), Point::new(3, 2), Point::new(9, 9), Point::new(5, 3)];
        assert_eq!(s.paint(&stroke, 0).unwrap(), 2, "only (2,2) and (3,2): not the ends, not outside");
        assert_eq!(s.steps(), 0);
        assert_eq!(s.grid().get(Point::new(2, 2)), Some(0));
        assert_eq!(s.paint(&stroke, 0).unwrap(), 0, "nothing left to change");
        assert_eq!(s.paint(&stroke, 1).unwrap(), 2);
        assert_eq!(s.grid(), &before);
        if let Some(table) = table_before {
            assert_eq!(s.cell_table().unwrap().values, table.as_slice());
        }
    }
}

/// Only JPS+ has a table.
#[test]
fn only_jps_plus_has_a_cell_table() {
    let grid = Grid::new(5, 5).unwrap();
    let s = build(grid.clone(), Point::new(0, 0), Point::new(4, 4), jps(Algorithm::Jps)).unwrap();
    assert!(s.cell_table().is_none());
    let s = build(grid, Point::new(0, 0), Point::new(4, 4), jps(Algorithm::JpsPlus)).unwrap();
    assert_eq!(s.cell_table().map(|t| (t.per_cell, t.values.len())), Some((8, 200)));
}

/// One wall in a 200x200 room: JPS+ recomputes three rows and three columns of straight
/// entries, and of the diagonal entries little more than those that change, and ends equal
/// to a fresh table.
#[test]
fn one_wall_rebuilds_little_of_the_table() {
    let grid = Grid::new(200, 200).unwrap();
    let (start, goal) = (Point::new(0, 0), Point::new(199, 199));
    let mut s = JpsPlus::new(grid, start, goal, jps(Algorithm::JpsPlus)).unwrap();
    assert!(s.last_rebuild().full);
    let before = s.table().to_vec();
    assert_eq!(s.paint(&[Point::new(100, 50)], 0).unwrap(), 1);
    let r = s.last_rebuild();
    assert!(!r.full);
    assert_eq!((r.rows, r.columns), (3, 3));
    let changed = (0..before.len()).filter(|&i| i % 2 == 1 && before[i] != s.table()[i]).count();
    assert!(r.diagonal_entries >= changed && r.diagonal_entries < changed + 4000, "{r:?}, {changed} changed");
    assert!(r.diagonal_entries < 200 * 200 * 4 / 2, "{r:?}");
    let fresh = JpsPlus::new(s.grid().clone(), start, goal, jps(Algorithm::JpsPlus)).unwrap();
    assert_eq!(s.table(), fresh.table());
    // A stroke over most of the grid rebuilds it all.
    let all: Vec<Point> = (0..200 * 200).map(|i| Point::new(i % 200, i / 200)).filter(|p| p.x % 3 == 0).collect();
    s.paint(&all, 0).unwrap();
    assert!(s.last_rebuild().full);
    let fresh = JpsPlus::new(s.grid().clone(), start, goal, jps(Algorithm::JpsPlus)).unwrap();
    assert_eq!(s.table(), fresh.table());
}

// ---- JPS+'s table against the definition ----------------------------------------------------

/// The directions in table order.
const DIRS: [(i64, i64); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

/// True when (x, y), reached by a straight move (dx, dy), has a forced neighbour: a cell to
/// its side that is open while the cell to the same side of the previous cell is a wall.
fn has_forced(grid: &Grid, x: i64, y: i64, dx: i64, dy: i64) -> bool {
    [(dy, dx), (-dy, -dx)].iter().any(|&(sx, sy)| open(grid, x + sx, y + sy) && !open(grid, x + sx - dx, y + sy - dy))
}

/// Walks straight from (x, y): +k at the first cell with a forced neighbour, else -k with k
/// the moves before the wall.
fn walk_straight(grid: &Grid, x: i64, y: i64, dx: i64, dy: i64) -> i32 {
    let mut k = 0;
    loop {
        let (nx, ny) = (x + (k + 1) * dx, y + (k + 1) * dy);
        if !open(grid, nx, ny) {
            return -(k as i32);
        }
        k += 1;
        if has_forced(grid, nx, ny, dx, dy) {
            return k as i32;
        }
    }
}

/// Walks diagonally (or, 4-connected, vertically) from (x, y) while moves are allowed: +k at
/// the first cell from which a straight walk along a component (4-connected: east or west)
/// is positive, else -k.
fn walk_diagonal(grid: &Grid, x: i64, y: i64, dx: i64, dy: i64, components: [(i64, i64); 2]) -> i32 {
    let mut k = 0;
    loop {
        let (cx, cy) = (x + k * dx, y + k * dy);
        let (nx, ny) = (cx + dx, cy + dy);
        let allowed =
            open(grid, nx, ny) && (dx == 0 || dy == 0 || (open(grid, cx + dx, cy) && open(grid, cx, cy + dy)));
        if !allowed {
            return -(k as i32);
        }
        k += 1;
        if components.iter().any(|&(sx, sy)| walk_straight(grid, nx, ny, sx, sy) > 0) {
            return k as i32;
        }
    }
}

/// The whole table by walking from every cell.
fn walked_table(grid: &Grid, rule: Diagonal) -> Vec<i32> {
    let mut out = Vec::with_capacity(grid.len() * 8);
    for i in 0..grid.len() {
        let (x, y) = ((i % grid.width()) as i64, (i / grid.width()) as i64);
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            let value = if !open(grid, x, y) {
                0
            } else if rule == Diagonal::NoCornerCutting {
                if d % 2 == 0 {
                    walk_straight(grid, x, y, dx, dy)
                } else {
                    walk_diagonal(grid, x, y, dx, dy, [(dx, 0), (0, dy)])
                }
            } else if d % 2 == 1 {
                0
            } else if dy == 0 {
                walk_straight(grid, x, y, dx, dy)
            } else {
                walk_diagonal(grid, x, y, dx, dy, [(1, 0), (-1, 0)])
            };
            out.push(value);
        }
    }
    out
}

fn random_grid() -> impl Strategy<Value = Grid> {
    (1usize..=24, 1usize..=24, 0u32..=50).prop_flat_map(|(w, h, density)| {
        proptest::collection::vec(0u32..100, w * h).prop_map(move |rolls| {
            let mut cells: Vec<u8> = rolls.iter().map(|&r| u8::from(r >= density)).collect();
            cells[0] = 1;
            Grid::from_cells(w, h, cells).unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// The table equals the distances found by walking from each cell, under both rules.
    #[test]
    fn table_matches_the_definition(grid in random_grid(), eight in any::<bool>()) {
        let rule = if eight { Diagonal::NoCornerCutting } else { Diagonal::Never };
        let s = build(grid.clone(), Point::new(0, 0), Point::new(0, 0), jps(Algorithm::JpsPlus).diagonal(rule)).unwrap();
        let want = walked_table(&grid, rule);
        let got = s.cell_table().unwrap().values;
        if got != want.as_slice() {
            let i = got.iter().zip(&want).position(|(a, b)| a != b).unwrap();
            prop_assert!(false, "{} cell {} direction {}: table {} but walking gives {}\n{:?}",
                rule, grid.point_at(i / 8), i % 8, got[i], want[i], grid);
        }
    }
}
