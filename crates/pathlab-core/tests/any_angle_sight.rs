//! The line-of-sight test against two independent brute-force checks:
//! - on random grids, `line_of_sight` agrees with exact sampling along the segment (every
//!   rule) and with clipping the segment against every wall square (the rules that check
//!   alone), and is symmetric;
//! - between neighbours it is exactly the diagonal move rule (every 2x2 pattern);
//! - hand-drawn corners: squeezing between two diagonal walls and grazing one wall's corner,
//!   under each rule.

mod any_angle_support;
mod cases;
mod oracle;

use any_angle_support::{draw, sampled_sight, square_sight};
use oracle::open;
use pathlab_core::grid::{Diagonal, Grid, Point};
use pathlab_core::search::sight::line_of_sight;
use proptest::prelude::*;
use proptest::sample::Index;

fn grid_and_pairs() -> impl Strategy<Value = (Grid, Vec<(Index, Index)>)> {
    (1usize..=14, 1usize..=14, 0u32..=50).prop_flat_map(|(w, h, density)| {
        (
            proptest::collection::vec(0u32..100, w * h).prop_map(move |rolls| {
                let mut cells: Vec<u8> = rolls.iter().map(|&r| u8::from(r >= density)).collect();
                cells[0] = 1;
                Grid::from_cells(w, h, cells).unwrap()
            }),
            proptest::collection::vec((any::<Index>(), any::<Index>()), 1..40),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Random pairs of open cells on random grids, under every rule.
    #[test]
    fn sight_agrees_with_sampling_and_with_clipping_against_each_wall((grid, pairs) in grid_and_pairs()) {
        let open_cells: Vec<Point> = (0..grid.len()).map(|i| grid.point_at(i))
            .filter(|p| open(&grid, p.x as i64, p.y as i64)).collect();
        for (i, j) in pairs {
            let a = open_cells[i.index(open_cells.len())];
            let b = open_cells[j.index(open_cells.len())];
            for &rule in Diagonal::ALL {
                let got = line_of_sight(&grid, a, b, rule);
                prop_assert_eq!(got, sampled_sight(&grid, a, b, rule), "{} -> {} under {} (sampling)", a, b, rule);
                if let Some(want) = square_sight(&grid, a, b, rule) {
                    prop_assert_eq!(got, want, "{} -> {} under {} (clipping)", a, b, rule);
                }
                prop_assert_eq!(got, line_of_sight(&grid, b, a, rule), "{} <-> {} under {} not symmetric", a, b, rule);
            }
        }
    }
}

/// Every pattern of a 2x2 block (16) under every rule: the diagonal between two open
/// corners of the block is in sight exactly when the move rule allows the diagonal move
/// (reading `never` as no-corner-cutting), and a straight neighbour is always in sight.
#[test]
fn sight_between_neighbours_is_the_move_rule() {
    for bits in 0u8..16 {
        let cells: Vec<u8> = (0..4).map(|k| (bits >> k) & 1).collect();
        let grid = Grid::from_cells(2, 2, cells).unwrap();
        for &rule in Diagonal::ALL {
            for (a, b) in [((0, 0), (1, 1)), ((1, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 0), (0, 1)), ((1, 1), (0, 1))] {
                let (a, b) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
                let got = line_of_sight(&grid, a, b, rule);
                if !grid.is_passable(a) || !grid.is_passable(b) {
                    assert!(!got, "{bits:04b} {a}->{b} {rule}: a wall end");
                    continue;
                }
                let diagonal = a.x != b.x && a.y != b.y;
                let move_rule = if rule == Diagonal::Never { Diagonal::NoCornerCutting } else { rule };
                let want = !diagonal || grid.is_legal_move(a, b, move_rule);
                assert_eq!(got, want, "{bits:04b} {a}->{b} under {rule}");
            }
        }
    }
}

/// A hand-drawn grid, two ends, the answer per rule, and what the case shows.
type HandCase = (&'static [&'static str], (usize, usize), (usize, usize), [bool; 4], &'static str);

/// Worked by hand: the expected answer per rule, in the order never, no-corner-cutting,
/// at-most-one-blocked, always.
#[test]
fn corners_by_hand() {
    let rules = [Diagonal::Never, Diagonal::NoCornerCutting, Diagonal::AtMostOneBlocked, Diagonal::Always];
    let cases: &[HandCase] = &[
        // Two walls, (2,1) and (1,2), touching diagonally at the corner point (2,2), which the
        // line (0,0)->(3,3) passes: only `always` squeezes between them.
        (&["....", "..#.", ".#..", "...."], (0, 0), (3, 3), [false, false, false, true], "squeezing between two walls"),
        // The same walls do not touch the other diagonal (3,0)->(0,3), which runs through
        // (2,1) and (1,2) themselves: blocked by their insides under every rule.
        (&["....", "..#.", ".#..", "...."], (3, 0), (0, 3), [false, false, false, false], "through two walls"),
        (&["....", "....", "....", "...."], (3, 0), (0, 3), [true, true, true, true], "an open anti-diagonal"),
        // One wall whose corner (2,2) the line (0,0)->(3,3) touches: (2,1) is a wall, its
        // partner side (1,2) open.
        (&["....", "..#.", "....", "...."], (0, 0), (3, 3), [false, false, true, true], "grazing one wall's corner"),
        // A knight's-move line (0,0)->(2,1) crosses the edge y = 1 at x = 1.5, entering (1,1):
        // a wall there blocks under every rule.
        (&["...", ".#."], (0, 0), (2, 1), [false, false, false, false], "a knight's move through a wall"),
        // The same line passes close to the wall (2,0)'s corner but only through (0,0),
        // (1,0), (1,1), (2,1): open under every rule.
        (&["..#", "..."], (0, 0), (2, 1), [true, true, true, true], "a knight's move beside a wall"),
        // A shallow line (0,0)->(6,2): from (0.5,0.5) with slope 1/3 it meets y = 1 exactly
        // at x = 2, the corner point (2,1), whose side cells are (2,0) and (1,1).
        (
            &["..#....", ".......", "......."],
            (0, 0),
            (6, 2),
            [false, false, true, true],
            "a shallow line grazing a corner",
        ),
        (&[".......", ".#.....", "......."], (0, 0), (6, 2), [false, false, true, true], "the same corner from below"),
        (
            &["..#....", ".#.....", "......."],
            (0, 0),
            (6, 2),
            [false, false, false, true],
            "squeezing at a shallow angle",
        ),
    ];
    for &(rows, a, b, want, what) in cases {
        let grid = draw(rows);
        let (a, b) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
        for (rule, want) in rules.into_iter().zip(want) {
            assert_eq!(line_of_sight(&grid, a, b, rule), want, "{what}: {a}->{b} under {rule}");
            assert_eq!(sampled_sight(&grid, a, b, rule), want, "{what}: the sampling check disagrees under {rule}");
        }
    }
}

/// A wall at either end, or an end outside the grid, is never in sight.
#[test]
fn ends_must_be_open_cells_inside_the_grid() {
    let grid = draw(&["#..", "..."]);
    for &rule in Diagonal::ALL {
        assert!(!line_of_sight(&grid, Point::new(0, 0), Point::new(2, 1), rule));
        assert!(!line_of_sight(&grid, Point::new(2, 1), Point::new(0, 0), rule));
        assert!(!line_of_sight(&grid, Point::new(1, 0), Point::new(3, 0), rule));
        assert!(line_of_sight(&grid, Point::new(1, 1), Point::new(1, 1), rule));
    }
}
