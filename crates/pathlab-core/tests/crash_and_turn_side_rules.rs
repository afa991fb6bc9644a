//! Crash and turn's two side rules from the book, worked by hand on a small map:
//!
//! - least deviation: at a crash, the side whose first free direction lies closer in angle to
//!   the goal; a tie goes to the left hand (turn right);
//! - random: a coin toss per crash from the seed: the walk is the left hand's or the right
//!   hand's, the same seed gives the same walk, both sides come up over a range of seeds, and a
//!   trap that crashes it again and again holds it until the move limit (only a state repeated
//!   without a crash between is a sure loop).
//!
//! The map (four directions), a wall across the way north of the start:
//!
//! ```text
//!   x: 0 1 2 3 4 5
//! y0:  . . . . . .
//! y1:  . . . . . .
//! y2:  . # # # # .
//! y3:  . . S . . .
//! ```

mod oracle;

use oracle::walk;
use pathlab_core::boids::Pcg32;
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::search::crash_turn::CrashTurn;
use pathlab_core::search::{Algorithm, Hand, SearchConfig, Status, Stepper};

fn across() -> Grid {
    let mut grid = Grid::new(6, 4).unwrap();
    for x in 1..=4 {
        grid.set(Point::new(x, 2), WALL).unwrap();
    }
    grid
}

const START: Point = Point::new(2, 3);

fn config(hand: Hand) -> SearchConfig {
    SearchConfig::new(Algorithm::CrashTurn).diagonal(Diagonal::Never).hand(hand)
}

const TALL_START: Point = Point::new(3, 6);

/// Runs to the end from [`START`]; see [`trail_from`].
fn trail(grid: &Grid, goal: Point, c: SearchConfig) -> (CrashTurn, Vec<(usize, usize)>) {
    trail_from(grid, START, goal, c)
}

/// Runs to the end; checks the trail move by move with the oracle; returns the cells walked.
fn trail_from(grid: &Grid, start: Point, goal: Point, c: SearchConfig) -> (CrashTurn, Vec<(usize, usize)>) {
    let mut s = CrashTurn::new(grid.clone(), start, goal, c).unwrap();
    s.run();
    let points: Vec<Point> = s.path_indices().iter().map(|&i| grid.point_at(i as usize)).collect();
    if s.status() == Status::Found {
        let cost = walk(grid, c.diagonal, Costs::Real, start, goal, &points).unwrap();
        assert_eq!(s.cost(), Some(cost));
    }
    (s, points.iter().map(|p| (p.x, p.y)).collect())
}

/// Goal (3,0), north-north-east: at the crash east scores (1,-3)·(1,0) = 1 and west -1, so the
/// left hand (clockwise, east). Then along the wall's underside, up its east end, and greedy
/// moves to the goal (ties between N and W go north).
#[test]
fn least_deviation_turns_towards_the_goal_side_worked_by_hand() {
    let (s, cells) = trail(&across(), Point::new(3, 0), config(Hand::LeastDeviation));
    assert_eq!(cells, [(2, 3), (3, 3), (4, 3), (5, 3), (5, 2), (5, 1), (4, 1), (4, 0), (3, 0)]);
    assert_eq!((s.status(), s.crashes(), s.side()), (Status::Found, 1, Hand::Left));
}

/// Goal (1,0), north-north-west: west scores 1, east -1: the right hand (anticlockwise, west).
/// W to (1,3) (north is the wall, so it keeps following), W to (0,3), where north is free: N to
/// (0,2) and (0,1) (the goal more north than east), N to (0,0) (a tie goes north), E to (1,0).
/// The fixed left hand turns east instead and is caught by the wide wall close in front of the
/// goal (crash and turn's documented weakness): from (5,3) the goal is more west than north,
/// so it steps back west to (4,3), crashes again and repeats itself.
#[test]
fn least_deviation_turns_the_other_way_when_the_goal_is_on_the_other_side() {
    let (s, cells) = trail(&across(), Point::new(1, 0), config(Hand::LeastDeviation));
    assert_eq!(cells, [(2, 3), (1, 3), (0, 3), (0, 2), (0, 1), (0, 0), (1, 0)]);
    assert_eq!((s.status(), s.crashes(), s.side()), (Status::Found, 1, Hand::Right));
    let (left, steps) = trail(&across(), Point::new(1, 0), config(Hand::Left));
    assert_eq!(steps, [(2, 3), (3, 3), (4, 3), (5, 3), (4, 3), (5, 3)]);
    assert!(left.gave_up().unwrap().contains("loop at (5,3)"), "{:?}", left.gave_up());
}

/// Goal (2,0), straight north: east and west both score 0: the stated tie rule, left hand.
#[test]
fn least_deviation_breaks_a_tie_with_the_left_hand() {
    let (s, cells) = trail(&across(), Point::new(2, 0), config(Hand::LeastDeviation));
    assert_eq!(cells[1], (3, 3));
    assert_eq!(s.side(), Hand::Left);
    assert_eq!(s.status(), Status::Found);
}

/// A taller map where either hand crashes once, under the wall's middle, and then walks up
/// past its end to the goal straight north:
///
/// ```text
///   x: 0 1 2 3 4 5 6
/// y0:  . . . G . . .
/// y1 to y4: open
/// y5:  . . # # # . .
/// y6:  . . . S . . .
/// y7:  . . . . . . .
/// ```
///
/// With one crash, the random rule walks the left hand's walk or the right hand's, as the
/// seed's first coin (the documented generator, `Pcg32` seeded with the seed: 0 is left) says;
/// both come up over 32 seeds; a seed always gives the same walk, after a reset too.
#[test]
fn random_side_is_a_seeded_coin_per_crash() {
    let mut grid = Grid::new(7, 8).unwrap();
    for x in 2..=4 {
        grid.set(Point::new(x, 5), WALL).unwrap();
    }
    let goal = Point::new(3, 0);
    let (_, left) = trail_from(&grid, TALL_START, goal, config(Hand::Left));
    let (_, right) = trail_from(&grid, TALL_START, goal, config(Hand::Right));
    assert_eq!(left[1..3], [(4, 6), (5, 6)]);
    assert_eq!(right[1..3], [(2, 6), (1, 6)]);
    assert_eq!((left.len(), right.len()), (11, 11));
    let mut sides = [0, 0];
    for seed in 0..32u32 {
        let c = config(Hand::Random).seed(seed);
        let (mut s, cells) = trail_from(&grid, TALL_START, goal, c);
        let heads = Pcg32::new(u64::from(seed)).below(2) == 0;
        assert_eq!(cells, if heads { left.clone() } else { right.clone() }, "seed {seed}");
        sides[usize::from(!heads)] += 1;
        let first = s.path_indices().to_vec();
        Stepper::reset(&mut s);
        s.run();
        assert_eq!(s.path_indices(), first.as_slice(), "seed {seed} replays");
    }
    assert!(sides[0] > 0 && sides[1] > 0, "{sides:?}");
}

/// The C open towards the start: it crashes into the C's back again and again. Least deviation
/// picks its side by the place, so the same state comes back and the loop is caught; the coin
/// may go either way at each crash, so the random rule walks on until the move limit.
#[test]
fn a_trap_catches_least_deviation_as_a_loop_and_random_at_the_move_limit() {
    let mut grid = Grid::new(20, 14).unwrap();
    for x in 5..=14 {
        grid.set(Point::new(x, 4), WALL).unwrap();
    }
    for y in 5..=8 {
        grid.set(Point::new(5, y), WALL).unwrap();
        grid.set(Point::new(14, y), WALL).unwrap();
    }
    let (start, goal) = (Point::new(9, 12), Point::new(9, 1));
    let mut s = CrashTurn::new(grid.clone(), start, goal, config(Hand::LeastDeviation)).unwrap();
    assert_eq!(s.run(), Status::NoPath);
    assert!(s.gave_up().unwrap().contains("loop"), "{:?}", s.gave_up());
    let mut s = CrashTurn::new(grid, start, goal, config(Hand::Random).seed(7)).unwrap().with_move_limit(3000);
    assert_eq!(s.run(), Status::NoPath);
    assert!(s.gave_up().unwrap().contains("limit of 3000 moves"), "{:?}", s.gave_up());
    assert!(s.crashes() > 10);
}
