//! Shared test support: hand-drawn mazes, and a reference path-finder written independently of
//! `pathlab_core::grid` (its own neighbour generation, diagonal rule and move costs) so that
//! the core's searches are checked against something that does not share their code.
//!
//! Nothing here calls `Grid::for_each_neighbour`, `Grid::is_legal_move`, `Diagonal::allows`
//! or `Costs::step`: the only things taken from the core are the cell bytes and the sizes.

#![allow(dead_code)]

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::path::{Path, PathBuf};

use pathlab_core::formats::movingai::{self, Problem};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, SearchConfig};
use proptest::sample::Index;

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

// ---------------------------------------------------------------------------------------------
// Independent movement rules and costs
// ---------------------------------------------------------------------------------------------

/// The eight directions (dx, dy), straight first. Order does not matter to the reference.
pub const DIRECTIONS: [(i64, i64); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// True when (x, y) is inside the grid and not a wall, read straight from the cell bytes.
pub fn open_at(grid: &Grid, x: i64, y: i64) -> bool {
    x >= 0
        && y >= 0
        && (x as usize) < grid.width()
        && (y as usize) < grid.height()
        && grid.cells()[y as usize * grid.width() + x as usize] != 0
}

/// Whether a diagonal move whose two side cells are `a` and `b` (open = true) is allowed.
pub fn diagonal_ok(rule: Diagonal, a: bool, b: bool) -> bool {
    match rule {
        Never => false,
        Ncc => a && b,
        Amob => a || b,
        Always => true,
    }
}

/// Cost of one move entering a cell of value `terrain`.
pub fn move_cost(costs: Costs, diagonal: bool, terrain: u8) -> f64 {
    let base = match (costs, diagonal) {
        (Costs::Real, false) => 1.0,
        (Costs::Real, true) => std::f64::consts::SQRT_2,
        (Costs::Integer, false) => 10.0,
        (Costs::Integer, true) => 14.0,
    };
    base * f64::from(terrain)
}

/// A hand value (straight units, diagonal units) in a cost model.
pub fn hand_cost(costs: Costs, (a, b): (u32, u32)) -> f64 {
    match costs {
        Costs::Real => f64::from(a) + f64::from(b) * std::f64::consts::SQRT_2,
        Costs::Integer => f64::from(10 * a + 14 * b),
    }
}

/// The legal moves from `p`: (target, is diagonal).
pub fn moves(grid: &Grid, p: Point, rule: Diagonal) -> Vec<(Point, bool)> {
    let (x, y) = (p.x as i64, p.y as i64);
    let mut out = Vec::with_capacity(8);
    for (dx, dy) in DIRECTIONS {
        let (nx, ny) = (x + dx, y + dy);
        if !open_at(grid, nx, ny) {
            continue;
        }
        let diagonal = dx != 0 && dy != 0;
        if diagonal && !diagonal_ok(rule, open_at(grid, x + dx, y), open_at(grid, x, y + dy)) {
            continue;
        }
        out.push((Point::new(nx as usize, ny as usize), diagonal));
    }
    out
}

/// Checks one move from `a` to `b` and returns its cost, or an explanation of why it is illegal.
pub fn check_move(grid: &Grid, rule: Diagonal, costs: Costs, a: Point, b: Point) -> Result<f64, String> {
    let (ax, ay, bx, by) = (a.x as i64, a.y as i64, b.x as i64, b.y as i64);
    if !open_at(grid, ax, ay) {
        return Err(format!("{a} is not an open cell"));
    }
    if !open_at(grid, bx, by) {
        return Err(format!("{b} is not an open cell"));
    }
    let (dx, dy) = (bx - ax, by - ay);
    if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
        return Err(format!("{a} -> {b} is not a move to an adjacent cell"));
    }
    let diagonal = dx != 0 && dy != 0;
    if diagonal {
        let side_a = open_at(grid, bx, ay);
        let side_b = open_at(grid, ax, by);
        if !diagonal_ok(rule, side_a, side_b) {
            return Err(format!("{a} -> {b} is a diagonal the rule {rule} forbids (sides open: {side_a}, {side_b})"));
        }
    }
    Ok(move_cost(costs, diagonal, grid.cells()[b.y * grid.width() + b.x]))
}

/// Checks a whole path and returns its recomputed cost.
pub fn check_path(
    grid: &Grid,
    rule: Diagonal,
    costs: Costs,
    start: Point,
    goal: Point,
    points: &[Point],
) -> Result<f64, String> {
    if points.first() != Some(&start) {
        return Err(format!("path starts at {:?}, not the start {start}", points.first()));
    }
    if points.last() != Some(&goal) {
        return Err(format!("path ends at {:?}, not the goal {goal}", points.last()));
    }
    if points.len() == 1 && !open_at(grid, start.x as i64, start.y as i64) {
        return Err("single-cell path on a wall".into());
    }
    let mut total = 0.0;
    for pair in points.windows(2) {
        total += check_move(grid, rule, costs, pair[0], pair[1])?;
    }
    Ok(total)
}

// ---------------------------------------------------------------------------------------------
// Reference searches
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq)]
struct Item(f64, usize);

impl Eq for Item {}

impl Ord for Item {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed so the max-heap pops the cheapest.
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Plain Dijkstra from `start` over every cell: the cheapest cost to each (infinite where
/// unreachable), row-major.
pub fn reference_costs(grid: &Grid, start: Point, rule: Diagonal, costs: Costs) -> Vec<f64> {
    let w = grid.width();
    let mut dist = vec![f64::INFINITY; grid.len()];
    let mut done = vec![false; grid.len()];
    let mut heap = BinaryHeap::new();
    dist[start.y * w + start.x] = 0.0;
    heap.push(Item(0.0, start.y * w + start.x));
    while let Some(Item(d, i)) = heap.pop() {
        if done[i] {
            continue;
        }
        done[i] = true;
        let p = Point::new(i % w, i / w);
        for (q, diagonal) in moves(grid, p, rule) {
            let j = q.y * w + q.x;
            let nd = d + move_cost(costs, diagonal, grid.cells()[j]);
            if nd < dist[j] {
                dist[j] = nd;
                heap.push(Item(nd, j));
            }
        }
    }
    dist
}

/// The cheapest cost from `start` to `goal`, or `None` when unreachable.
pub fn reference_cost(grid: &Grid, start: Point, goal: Point, rule: Diagonal, costs: Costs) -> Option<f64> {
    let d = reference_costs(grid, start, rule, costs)[goal.y * grid.width() + goal.x];
    d.is_finite().then_some(d)
}

/// Fewest moves from `start` to every cell (`usize::MAX` where unreachable), by plain BFS.
pub fn reference_hops(grid: &Grid, start: Point, rule: Diagonal) -> Vec<usize> {
    let w = grid.width();
    let mut hops = vec![usize::MAX; grid.len()];
    let mut queue = VecDeque::new();
    hops[start.y * w + start.x] = 0;
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        let here = hops[p.y * w + p.x];
        for (q, _) in moves(grid, p, rule) {
            let j = q.y * w + q.x;
            if hops[j] == usize::MAX {
                hops[j] = here + 1;
                queue.push_back(q);
            }
        }
    }
    hops
}

/// True when two costs agree up to floating-point summation error.
pub fn same_cost(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
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

/// Looks for the MovingAI maps in `$PATHLAB_MOVINGAI`, `maps/movingai` in the repository,
/// then `../shared/maps/movingai` beside it.
pub fn movingai_root() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidates = [
        std::env::var_os("PATHLAB_MOVINGAI").map(PathBuf::from),
        Some(repo.join("maps/movingai")),
        Some(repo.join("../shared/maps/movingai")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| p.join("dao/arena.map").is_file())
        .expect("MovingAI maps not found: set PATHLAB_MOVINGAI to the folder holding dao/arena.map")
}

/// A MovingAI map and its problems, e.g. `load_movingai("dao/arena.map")`.
pub fn load_movingai(family_map: &str) -> (Grid, Vec<Problem>) {
    let dir = movingai_root();
    let map = std::fs::read_to_string(dir.join(family_map)).unwrap();
    let scen = std::fs::read_to_string(dir.join(format!("{family_map}.scen"))).unwrap();
    let grid = movingai::parse_map(&map).unwrap_or_else(|e| panic!("{family_map}: {e}"));
    let problems = movingai::parse_scen(&scen).unwrap_or_else(|e| panic!("{family_map}.scen: {e}"));
    (grid, problems)
}

// ---------------------------------------------------------------------------------------------
// Random grids
// ---------------------------------------------------------------------------------------------

/// The `w` x `h` grid of the random cell values `cells` (the first cell opened when all are
/// walls), with a start and a goal picked among its open cells by `s` and `g`.
pub fn grid_with_ends(w: usize, h: usize, mut cells: Vec<u8>, s: Index, g: Index) -> (Grid, Point, Point) {
    if cells.iter().all(|&c| c == WALL) {
        cells[0] = 1;
    }
    let open: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != WALL).collect();
    let grid = Grid::from_cells(w, h, cells).unwrap();
    let start = grid.point_at(open[s.index(open.len())]);
    let goal = grid.point_at(open[g.index(open.len())]);
    (grid, start, goal)
}
