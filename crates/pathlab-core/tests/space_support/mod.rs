//! The arcs of every space, read off its rules here, for the shared truth (`oracle`'s Dijkstra
//! and breadth-first hop count), and random problems on every space. Nothing of pathlab's
//! neighbour iteration or cost code is called to build them: graph arcs come from the case's
//! own edge list, hex neighbours from its own odd-r / odd-q offset tables, grid moves from the
//! oracle's diagonal rule and move costs, slopes from its own climb rule, teleports from its
//! own list.
//!
//! [`run_and_check`] runs any search built by `build_on` and checks its answer against it.
//! A test takes it in with `mod cases; mod oracle; mod space_support;`.

#![allow(dead_code)]

use std::collections::HashSet;

use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{build_on, EventLog, SearchConfig, SpaceStepper, Status, StepEvent};
use pathlab_core::space::{Graph, HexLayout, Slopes, Space, SquareGrid, Teleport, TeleportHeuristic, Teleports};
use proptest::prelude::*;
use proptest::sample::{select, Index};

use super::cases::{cells, TERRAIN};
use super::oracle::{at_most, cell, open, reversed, same, square_arcs, Arcs};

// ---------------------------------------------------------------------------------------------
// Running and checking searches
// ---------------------------------------------------------------------------------------------

/// Runs a search to its end one step at a time, failing after `limit` steps. Fails the moment
/// an expanded node has become its own parent: the walk up the parents that builds the path
/// would never end.
pub fn finish<S: Space>(s: &mut dyn SpaceStepper<S>, limit: usize) -> Result<Status, TestCaseError> {
    let mut log = EventLog::default();
    loop {
        if let StepEvent::Found { .. } | StepEvent::NoPath | StepEvent::Finished = s.step_logged(&mut log) {
            return Ok(s.status());
        }
        if let Some(u) = log.expanded {
            prop_assert!(
                s.parents()[u as usize] != u,
                "{:?}: expanding {} made it its own parent (g now {}): a self-loop reopened it",
                s.config().algorithm,
                s.space().label(u),
                s.g_values()[u as usize]
            );
        }
        prop_assert!(s.steps() <= limit, "{:?}: {} steps, more than {}", s.config().algorithm, s.steps(), limit);
    }
}

/// Builds the search for `config` on `space` with `build_on`, runs it (at most `limit` steps)
/// and checks its answer against the truth: found exactly when `optimum` is some; a path from
/// the start to the goal, no node twice, each step along an arc that exists in `arcs` and
/// whose cost is what g grew by, those costs adding up to the reported cost, which is never
/// below the optimum. Returns the cost and the path.
pub fn run_and_check<S: Space + Clone + 'static>(
    space: S,
    start: usize,
    goal: usize,
    config: SearchConfig,
    arcs: &Arcs,
    optimum: Option<f64>,
) -> Result<Option<(f64, Vec<u32>)>, TestCaseError> {
    let limit = space.node_count() + 1;
    let mut s = build_on(space, start as u32, goal as u32, config).unwrap();
    let status = finish(s.as_mut(), limit)?;
    check_answer(s.as_ref(), status, start, goal, arcs, optimum)
}

/// Checks a finished search's answer against the truth (see [`run_and_check`]).
pub fn check_answer<S: Space>(
    s: &dyn SpaceStepper<S>,
    status: Status,
    start: usize,
    goal: usize,
    arcs: &Arcs,
    optimum: Option<f64>,
) -> Result<Option<(f64, Vec<u32>)>, TestCaseError> {
    let config = s.config();
    let what = format!("{:?} weight {}", config.algorithm, config.weight);
    let Some(opt) = optimum else {
        prop_assert_eq!(status, Status::NoPath, "{}: the goal is unreachable", what);
        prop_assert!(s.cost().is_none() && s.path_indices().is_empty(), "{}", what);
        return Ok(None);
    };
    prop_assert_eq!(status, Status::Found, "{}: the optimum is {}", what, opt);
    let cost = s.cost().unwrap();
    let path = s.path_indices().to_vec();
    let g = s.g_values();
    prop_assert_eq!(path.first().copied(), Some(start as u32), "{}: {:?}", what, path);
    prop_assert_eq!(path.last().copied(), Some(goal as u32), "{}: {:?}", what, path);
    prop_assert_eq!(g[start], 0.0);
    let distinct: HashSet<u32> = path.iter().copied().collect();
    prop_assert_eq!(distinct.len(), path.len(), "{}: a node twice on {:?}", what, path);
    let mut sum = 0.0;
    for pair in path.windows(2) {
        let (u, v) = (pair[0] as usize, pair[1] as usize);
        let taken = arcs[u].iter().filter(|&&(t, _)| t == v).map(|&(_, c)| c).find(|&c| same(g[u] + c, g[v]));
        let Some(c) = taken else {
            let offered: Vec<f64> = arcs[u].iter().filter(|&&(t, _)| t == v).map(|&(_, c)| c).collect();
            return Err(TestCaseError::fail(format!(
                "{what}: the step {u} -> {v} of {path:?} raises g by {} but the arcs {u} -> {v} cost {offered:?}",
                g[v] - g[u]
            )));
        };
        sum += c;
    }
    prop_assert!(same(sum, cost), "{}: reported {} but the arcs along {:?} add up to {}", what, cost, path, sum);
    prop_assert!(at_most(opt, cost), "{}: {} is below the optimum {}", what, cost, opt);
    Ok(Some((cost, path)))
}

// ---------------------------------------------------------------------------------------------
// Random problems on every space, and their arcs
// ---------------------------------------------------------------------------------------------

/// Which way the edges of a random graph go.
#[derive(Clone, Copy, Debug)]
pub enum Direction {
    Undirected,
    Directed,
    /// Each edge its own way.
    Mixed,
}

/// How the edges of a random graph are priced.
#[derive(Clone, Copy, Debug)]
pub enum Pricing {
    /// 1 to 9.
    Integer,
    /// 0 to 10.
    Real,
    /// The edge's length times 1 to 3 (so the estimate has something to work with).
    Length,
}

/// A random graph problem, kept as the plain lists the graph and the truth are both built from.
#[derive(Clone, Debug)]
pub struct GraphCase {
    pub places: Vec<[f64; 2]>,
    /// (from, to, cost, directed).
    pub edges: Vec<(usize, usize, f64, bool)>,
    pub start: usize,
    pub goal: usize,
}

impl GraphCase {
    /// The core's graph, with `heuristic` as its estimate.
    pub fn graph(&self, heuristic: Heuristic) -> Graph {
        let mut g = Graph::new(false);
        for (i, &[x, y]) in self.places.iter().enumerate() {
            g.add_node(&format!("n{i}"), x, y).unwrap();
        }
        for &(a, b, cost, directed) in &self.edges {
            g.add_edge(a as u32, b as u32, cost, directed).unwrap();
        }
        g.set_heuristic(heuristic);
        g
    }

    /// The truth's arcs: one per directed edge, one each way per undirected edge (one in all
    /// for an undirected self-loop, which has only one way).
    pub fn arcs(&self) -> Arcs {
        let mut arcs = vec![Vec::new(); self.places.len()];
        for &(a, b, cost, directed) in &self.edges {
            arcs[a].push((b, cost));
            if !directed && a != b {
                arcs[b].push((a, cost));
            }
        }
        arcs
    }
}

/// One rolled edge: ends, a roll for integer costs, zeros and shape, a real roll, a coin.
pub type EdgeRoll = (usize, usize, u32, f64, bool);

#[allow(clippy::too_many_arguments)]
pub fn build_graph(
    direction: Direction,
    pricing: Pricing,
    zeros: bool,
    stacked: bool,
    places: &[(f64, f64)],
    rolls: &[EdgeRoll],
    start: usize,
    goal: usize,
) -> GraphCase {
    // Stacked: 5 x 5 lattice points, so that nodes often share a place.
    let places: Vec<[f64; 2]> =
        places.iter().map(|&(x, y)| if stacked { [(x / 4.0).floor(), (y / 4.0).floor()] } else { [x, y] }).collect();
    let price = |a: usize, b: usize, r: u32, real: f64| -> f64 {
        if zeros && r % 100 < 15 {
            return 0.0;
        }
        match pricing {
            Pricing::Integer => f64::from(1 + r % 9),
            Pricing::Real => real * 10.0,
            Pricing::Length => {
                let ([ax, ay], [bx, by]) = (places[a], places[b]);
                (ax - bx).hypot(ay - by) * (1.0 + 2.0 * real)
            }
        }
    };
    let way = |coin: bool| match direction {
        Direction::Undirected => false,
        Direction::Directed => true,
        Direction::Mixed => coin,
    };
    let mut edges = Vec::new();
    for &(a, b, r, real, coin) in rolls {
        let shape = r / 100;
        // About 6% self-loops; about 10% get a parallel twin with another cost.
        let b = if shape < 6 { a } else { b };
        edges.push((a, b, price(a, b, r, real), way(coin)));
        if (6..16).contains(&shape) {
            let (ta, tb) = if coin { (b, a) } else { (a, b) };
            edges.push((ta, tb, price(ta, tb, r / 7, 1.0 - real), way(!coin)));
        }
    }
    GraphCase { places, edges, start, goal }
}

pub fn graph_case() -> impl Strategy<Value = GraphCase> {
    graph_case_of(30, 3)
}

/// A random graph of 1 to `max_nodes` nodes with up to `max_density` edges per node on
/// average, as [`graph_case`] makes them.
pub fn graph_case_of(max_nodes: usize, max_density: usize) -> impl Strategy<Value = GraphCase> {
    (
        1usize..=max_nodes,
        0usize..=max_density,
        select(vec![Direction::Undirected, Direction::Directed, Direction::Mixed]),
        select(vec![Pricing::Integer, Pricing::Real, Pricing::Length]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(n, density, direction, pricing, zeros, stacked)| {
            let edge = (0..n, 0..n, 0u32..10_000, 0.0f64..1.0, any::<bool>());
            (
                Just((direction, pricing, zeros, stacked)),
                proptest::collection::vec((0.0f64..20.0, 0.0f64..20.0), n),
                proptest::collection::vec(edge, 0..=density * n),
                0..n,
                0..n,
            )
        })
        .prop_map(|((direction, pricing, zeros, stacked), places, rolls, start, goal)| {
            build_graph(direction, pricing, zeros, stacked, &places, &rolls, start, goal)
        })
}

/// The heuristics the graph says never overestimate.
pub fn admissible_graph_heuristics() -> Vec<Heuristic> {
    Heuristic::ALL.iter().copied().filter(|&h| Graph::is_admissible(h)).collect()
}

/// Cells from rolls (see `cases::cells`), with `start` and `goal` (any cells) made open.
pub fn grid_from(
    w: usize,
    h: usize,
    density: u32,
    terrain: bool,
    rolls: &[(u32, u8)],
    start: Index,
    goal: Index,
) -> (Grid, Point, Point) {
    let mut cells = cells(rolls, density, terrain);
    let (s, g) = (start.index(cells.len()), goal.index(cells.len()));
    for i in [s, g] {
        if cells[i] == WALL {
            cells[i] = 1;
        }
    }
    (Grid::from_cells(w, h, cells).unwrap(), Point::new(s % w, s / w), Point::new(g % w, g / w))
}

/// Rolls for a `w` x `h` grid: a wall roll and a terrain value from [`TERRAIN`] (drawn as a
/// `u8` index).
pub fn cell_rolls(w: usize, h: usize) -> impl Strategy<Value = Vec<(u32, u8)>> {
    proptest::collection::vec((0u32..100, (0u8..8).prop_map(|t| TERRAIN[t as usize])), w * h)
}

/// The six neighbours of stored cell (x, y) as offsets, from the offset-coordinate rules:
/// pointy tops push odd rows half a hex right ("odd-r"), flat tops push odd columns half a
/// hex down ("odd-q").
pub fn hex_offsets(layout: HexLayout, x: i64, y: i64) -> [(i64, i64); 6] {
    match layout {
        HexLayout::PointyTop if y % 2 == 0 => [(1, 0), (-1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1)],
        HexLayout::PointyTop => [(1, 0), (-1, 0), (0, -1), (1, -1), (0, 1), (1, 1)],
        HexLayout::FlatTop if x % 2 == 0 => [(0, -1), (0, 1), (1, -1), (1, 0), (-1, -1), (-1, 0)],
        HexLayout::FlatTop => [(0, -1), (0, 1), (1, 0), (1, 1), (-1, 0), (-1, 1)],
    }
}

/// The arcs of a hex grid: to each open neighbour, costing the entered cell's value.
pub fn hex_arcs(grid: &Grid, layout: HexLayout) -> Arcs {
    let w = grid.width() as i64;
    let mut arcs = vec![Vec::new(); grid.len()];
    for (i, out) in arcs.iter_mut().enumerate() {
        let (x, y) = (i as i64 % w, i as i64 / w);
        if !open(grid, x, y) {
            continue;
        }
        for (dx, dy) in hex_offsets(layout, x, y) {
            if let Some(t) = cell(grid, x + dx, y + dy).filter(|&t| t != WALL) {
                out.push((((y + dy) * w + x + dx) as usize, f64::from(t)));
            }
        }
    }
    arcs
}

#[derive(Clone, Debug)]
pub struct HexCase {
    pub grid: Grid,
    pub layout: HexLayout,
    pub start: Point,
    pub goal: Point,
}

pub fn hex_case() -> impl Strategy<Value = HexCase> {
    (1usize..=12, 1usize..=12, 0u32..=40, any::<bool>(), select(HexLayout::ALL.to_vec()))
        .prop_flat_map(|(w, h, density, terrain, layout)| {
            (Just((w, h, density, terrain, layout)), cell_rolls(w, h), any::<Index>(), any::<Index>())
        })
        .prop_map(|((w, h, density, terrain, layout), rolls, s, g)| {
            let (grid, start, goal) = grid_from(w, h, density, terrain, &rolls, s, g);
            HexCase { grid, layout, start, goal }
        })
}

#[derive(Clone, Debug)]
pub struct TeleportCase {
    pub grid: Grid,
    pub rule: Diagonal,
    pub costs: Costs,
    pub heuristic: Heuristic,
    pub teleports: Vec<Teleport>,
    pub start: Point,
    pub goal: Point,
}

impl TeleportCase {
    pub fn space(&self, which: TeleportHeuristic) -> Teleports {
        let base = SquareGrid::new(self.grid.clone(), self.rule, self.costs, self.heuristic);
        Teleports::new(base, self.teleports.clone(), which).unwrap()
    }

    pub fn arcs(&self) -> Arcs {
        let mut arcs = square_arcs(&self.grid, self.rule, self.costs, |_, _| 0.0);
        for t in &self.teleports {
            let (a, b) = (self.grid.index(t.from), self.grid.index(t.to));
            arcs[a].push((b, t.cost));
            if t.both_ways {
                arcs[b].push((a, t.cost));
            }
        }
        arcs
    }
}

pub fn teleport_case() -> impl Strategy<Value = TeleportCase> {
    (1usize..=12, 1usize..=12, 0u32..=35, any::<bool>(), select(Diagonal::ALL.to_vec()), select(Costs::ALL.to_vec()))
        .prop_flat_map(|(w, h, density, terrain, rule, costs)| {
            (
                Just((w, h, density, terrain, rule, costs)),
                cell_rolls(w, h),
                any::<Index>(),
                any::<Index>(),
                proptest::collection::vec(
                    (any::<Index>(), any::<Index>(), 0.0f64..1.0, 0u32..100, any::<bool>()),
                    0..=4,
                ),
                any::<Index>(),
            )
        })
        .prop_map(|((w, h, density, terrain, rule, costs), rolls, s, g, jumps, pick)| {
            let (grid, start, goal) = grid_from(w, h, density, terrain, &rolls, s, g);
            let open: Vec<Point> = (0..grid.len()).map(|i| grid.point_at(i)).filter(|&p| grid.is_passable(p)).collect();
            let scale = costs.straight() * (w + h) as f64;
            let teleports = jumps
                .iter()
                .map(|&(from, to, real, r, both_ways)| Teleport {
                    from: open[from.index(open.len())],
                    to: open[to.index(open.len())],
                    cost: if r < 15 { 0.0 } else { real * scale },
                    both_ways,
                })
                .collect();
            let admissible: Vec<Heuristic> =
                Heuristic::ALL.iter().copied().filter(|h| h.is_admissible(rule, costs)).collect();
            let heuristic = admissible[pick.index(admissible.len())];
            TeleportCase { grid, rule, costs, heuristic, teleports, start, goal }
        })
}

#[derive(Clone, Debug)]
pub struct SlopeCase {
    pub grid: Grid,
    pub rule: Diagonal,
    pub heights: Vec<u8>,
    pub uphill: f64,
    pub downhill: f64,
    pub a: Point,
    pub b: Point,
}

impl SlopeCase {
    pub fn space(&self, heuristic: Heuristic) -> Slopes {
        let base = SquareGrid::new(self.grid.clone(), self.rule, Costs::Real, heuristic);
        Slopes::new(base, self.heights.clone(), self.uphill, self.downhill).unwrap()
    }

    /// Moves costing their length times the entered cell's value, plus `uphill` per unit
    /// climbed or `downhill` per unit descended.
    pub fn arcs(&self) -> Arcs {
        square_arcs(&self.grid, self.rule, Costs::Real, |i, j| {
            let (from, to) = (f64::from(self.heights[i]), f64::from(self.heights[j]));
            if to >= from {
                self.uphill * (to - from)
            } else {
                self.downhill * (from - to)
            }
        })
    }
}

pub fn slope_case() -> impl Strategy<Value = SlopeCase> {
    (1usize..=12, 1usize..=12, 0u32..=35, any::<bool>(), select(vec![Diagonal::Never, Diagonal::NoCornerCutting]))
        .prop_flat_map(|(w, h, density, terrain, rule)| {
            (
                Just((w, h, density, terrain, rule)),
                cell_rolls(w, h),
                proptest::collection::vec(0u8..=9, w * h),
                0.0f64..3.0,
                0.0f64..=1.0,
                any::<Index>(),
                any::<Index>(),
            )
        })
        .prop_map(|((w, h, density, terrain, rule), rolls, heights, uphill, share, a, b)| {
            let (grid, a, b) = grid_from(w, h, density, terrain, &rolls, a, b);
            SlopeCase { grid, rule, heights, uphill, downhill: uphill * share, a, b }
        })
}

/// Every open node's predecessors, as `for_each_predecessor` lists them, are exactly the arcs
/// of the independent truth that enter it, with their costs (as multisets: parallel edges
/// count twice).
pub fn check_predecessors<S: Space>(space: &S, arcs: &Arcs) -> Result<(), TestCaseError> {
    let truth = reversed(arcs);
    for (v, expected) in truth.iter().enumerate() {
        if !space.is_open(v as u32) {
            continue;
        }
        let mut listed = Vec::new();
        space.for_each_predecessor(v as u32, space.at(v as u32), |u, _, c| listed.push((u as usize, c)));
        let mut expected = expected.clone();
        let order = |a: &(usize, f64), b: &(usize, f64)| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1));
        listed.sort_by(order);
        expected.sort_by(order);
        prop_assert_eq!(listed.len(), expected.len(), "into {}: {:?} but the truth is {:?}", v, listed, expected);
        for (&(lu, lc), &(eu, ec)) in listed.iter().zip(&expected) {
            prop_assert!(lu == eu && same(lc, ec), "into {}: {:?} but the truth is {:?}", v, listed, expected);
        }
    }
    Ok(())
}
