//! Shared test support: the hand-drawn mazes with their hand-worked optima, the search
//! configurations the fixture runs, and the MovingAI maps. The truth they are checked against
//! is in `oracle`; the random problems are in `cases`.

#![allow(dead_code)]

mod movingai_folder;

use pathlab_core::formats::movingai::{self, Problem};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, SearchConfig};

pub use movingai_folder::movingai_folder;

// ---------------------------------------------------------------------------------------------
// Mazes
// ---------------------------------------------------------------------------------------------

/// A hand-drawn test map.
#[derive(Clone, Debug)]
pub struct Maze {
    pub name: &'static str,
    pub grid: Grid,
    pub start: Point,
    pub goal: Point,
    /// Optimal costs worked out by hand, per diagonal rule, as (straight units, diagonal
    /// units): the real cost is `a + b * sqrt(2)`, the integer cost `10a + 14b`. `None` means
    /// "no path". Rules not listed are only checked against the reference.
    pub hand: &'static [(Diagonal, Option<(u32, u32)>)],
}

/// Draws a maze: `.` ground, `#` wall, `S` start, `G` goal, `*` start and goal on one cell,
/// digits `2`..`9` terrain of that value. Leading/trailing blank lines and indentation are
/// ignored.
pub fn draw(name: &'static str, text: &str, hand: &'static [(Diagonal, Option<(u32, u32)>)]) -> Maze {
    let rows: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let height = rows.len();
    let width = rows[0].len();
    let mut cells = Vec::with_capacity(width * height);
    let (mut start, mut goal) = (None, None);
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), width, "{name}: row {y} has the wrong length");
        for (x, c) in row.chars().enumerate() {
            let p = Point::new(x, y);
            cells.push(match c {
                '.' => 1,
                '#' => 0,
                'S' => {
                    start = Some(p);
                    1
                }
                'G' => {
                    goal = Some(p);
                    1
                }
                '*' => {
                    start = Some(p);
                    goal = Some(p);
                    1
                }
                d @ '2'..='9' => d as u8 - b'0',
                other => panic!("{name}: bad maze character {other:?}"),
            });
        }
    }
    Maze {
        name,
        grid: Grid::from_cells(width, height, cells).unwrap(),
        start: start.expect("maze has a start"),
        goal: goal.expect("maze has a goal"),
        hand,
    }
}

use Diagonal::{Always, AtMostOneBlocked as Amob, Never, NoCornerCutting as Ncc};

/// The shared maze fixture every algorithm is checked against.
pub fn mazes() -> Vec<Maze> {
    vec![
        // Open room, start (1,1), goal (5,3): dx = 4, dy = 2.
        // 4-connected: 4 + 2 = 6 straight moves. 8-connected (any rule, nothing in the way):
        // 2 diagonals + 2 straight.
        draw(
            "open room",
            "
            .......
            .S.....
            .......
            .....G.
            .......
            ",
            &[(Never, Some((6, 0))), (Ncc, Some((2, 2))), (Amob, Some((2, 2))), (Always, Some((2, 2)))],
        ),
        // A one-cell-wide corridor: the only 4-connected route is
        // S(0,0) (1,0) (1,1) (1,2) (2,2) (3,2) (3,1) (4,1) (5,1) (6,1) (7,1) (7,2) (7,3)
        // (7,4) (6,4) (5,4) (4,4) (3,4) (2,4) G(1,4): 19 moves.
        // no-corner-cutting: no diagonal has both sides open, so also 19 straight.
        // at-most-one-blocked / always: (2,2)->(3,1) cuts the corner (side (3,2) open, (2,1)
        // wall), saving 2 straight for 1 diagonal; (1,0)->... (0,0)->(1,1)? side (1,0) open,
        // (0,1) wall: allowed, saves (1,0): 1 diagonal for 2 straight. (1,2)->(2,2)->(3,1)?
        // (1,1)->(2,2) sides (2,1) wall, (1,2) open: allowed. So S->(1,1) d, (1,1)->(2,2) d,
        // (2,2)->(3,1) d, (3,1)..(6,1) 3 s, (6,1)->(7,2) d (sides (7,1) open, (6,2) wall),
        // (7,2)->(7,3) s, (7,3)->(6,4) d (sides (6,3) wall, (7,4) open), (6,4)..(1,4) 5 s:
        // 9 straight + 5 diagonal.
        draw(
            "corridor maze",
            "
            S.#######
            #.#.....#
            #...###.#
            #######.#
            #G......#
            ",
            &[(Never, Some((19, 0))), (Ncc, Some((19, 0))), (Amob, Some((9, 5))), (Always, Some((9, 5)))],
        ),
        // The goal is boxed in by walls on all eight sides: no path under any rule.
        draw(
            "goal walled off",
            "
            S....
            .###.
            .#G#.
            .###.
            .....
            ",
            &[(Never, None), (Ncc, None), (Amob, None), (Always, None)],
        ),
        // The start is boxed in: the search runs dry after one expansion.
        draw(
            "start walled off",
            "
            ###..
            #S#..
            ###.G
            ",
            &[(Never, None), (Ncc, None), (Amob, None), (Always, None)],
        ),
        // Start and goal on the same cell: found at once, cost 0.
        draw(
            "start is goal",
            "
            ...
            .*.
            ...
            ",
            &[(Never, Some((0, 0))), (Ncc, Some((0, 0))), (Amob, Some((0, 0))), (Always, Some((0, 0)))],
        ),
        // A 1x1 grid: start == goal on the only cell.
        draw("single cell", "*", &[(Never, Some((0, 0))), (Always, Some((0, 0)))]),
        // Terrain in one row: entering 3 costs 3, entering 5 costs 5, entering G costs 1.
        draw("terrain row", "S35G", &[(Never, Some((9, 0))), (Always, Some((9, 0)))]),
        // Terrain costs 3 and 5 around an obstacle. Checked against the reference only.
        draw(
            "terrain field",
            "
            S.3.....
            .35555..
            .3...5..
            .3.G.5..
            .5555...
            ........
            ",
            &[],
        ),
        // Mud in a doorway: the cheap way round is long.
        //   4-connected: through the 3 at (2,1): S(0,1)->(1,1) 1 ->(2,1) 3 ->(3,1) 1 ->(4,1) 1
        //   = 6; around the top row: (0,1)->(0,0)->...->(4,0)->(4,1) = 6 moves = 6 as well.
        //   Both 6: ties, cost 6.
        draw(
            "mud doorway",
            "
            .....
            S.3.G
            ##.##
            ",
            &[(Never, Some((6, 0)))],
        ),
        // The two halves meet only through the diagonal (2,3)-(3,2) whose side cells (2,2) and
        // (3,3) are both walls: only `always` gets through. Under `always`:
        // S(0,0)->(1,1)->(1,2)?.. the cheapest: (0,0) d(1,1) d(2,2)? wall. Route:
        // (0,0) -d-> (1,1) -s-> (1,2) -d-> (2,3) -d-> (3,2) -d-> (4,3) -d-> (5,4):
        // 1 straight + 5 diagonals. (dx = 5, dy = 4 so at least 4 d + 1 s; the gap forces
        // (2,3)->(3,2), going up a row, which costs the extra diagonal.)
        draw(
            "diagonal gap",
            "
            S.#...
            ..#...
            ..#...
            ...#..
            ...#.G
            ",
            &[(Never, None), (Ncc, None), (Amob, None), (Always, Some((1, 5)))],
        ),
        // One wall corner between start and goal: S(0,0) -> G(1,1) diagonally cuts the corner
        // of the wall at (1,0). never: 2 straight; no-corner-cutting: 2 straight (around by
        // (0,1)); at-most-one-blocked and always: 1 diagonal.
        draw(
            "corner",
            "
            S#
            .G
            ",
            &[(Never, Some((2, 0))), (Ncc, Some((2, 0))), (Amob, Some((0, 1))), (Always, Some((0, 1)))],
        ),
    ]
}

/// A hand value (straight units, diagonal units) in a cost model.
pub fn hand_cost(costs: Costs, (a, b): (u32, u32)) -> f64 {
    match costs {
        Costs::Real => f64::from(a) + f64::from(b) * std::f64::consts::SQRT_2,
        Costs::Integer => f64::from(10 * a + 14 * b),
    }
}

// ---------------------------------------------------------------------------------------------
// Configurations
// ---------------------------------------------------------------------------------------------

/// The algorithms the grid stepper (`Search`) runs, and that these tests cover.
pub const ALGORITHMS: [Algorithm; 5] =
    [Algorithm::Bfs, Algorithm::Dfs, Algorithm::Dijkstra, Algorithm::Greedy, Algorithm::AStar];

/// The A* weights the fixture is checked with.
pub const WEIGHTS: [f64; 3] = [1.0, 1.5, 3.0];

/// Every algorithm (greedy and A* with every heuristic, A* with every weight) under every
/// diagonal rule and both cost models.
pub fn all_configs() -> Vec<SearchConfig> {
    let mut out = Vec::new();
    for &diagonal in Diagonal::ALL {
        for &costs in Costs::ALL {
            let base = |a| SearchConfig::new(a).diagonal(diagonal).costs(costs);
            out.push(base(Algorithm::Bfs));
            out.push(base(Algorithm::Dfs));
            out.push(base(Algorithm::Dijkstra));
            for &h in Heuristic::ALL {
                out.push(base(Algorithm::Greedy).heuristic(h));
                for w in WEIGHTS {
                    out.push(base(Algorithm::AStar).heuristic(h).weight(w));
                }
            }
        }
    }
    out
}

/// A short description of a configuration for failure messages.
pub fn describe(c: &SearchConfig) -> String {
    format!("{} heuristic={} weight={} diagonal={} costs={}", c.algorithm, c.heuristic, c.weight, c.diagonal, c.costs)
}

// ---------------------------------------------------------------------------------------------
// MovingAI maps
// ---------------------------------------------------------------------------------------------

/// A MovingAI map and its problems from the maps folder (see [`movingai_folder`]), e.g.
/// `load_movingai("dao/arena.map")`.
pub fn load_movingai(family_map: &str) -> (Grid, Vec<Problem>) {
    let dir = movingai_folder();
    let read = |name: String| {
        let path = dir.join(&name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let grid = movingai::parse_map(&read(family_map.to_string())).unwrap_or_else(|e| panic!("{family_map}: {e}"));
    let problems =
        movingai::parse_scen(&read(format!("{family_map}.scen"))).unwrap_or_else(|e| panic!("{family_map}.scen: {e}"));
    (grid, problems)
}
