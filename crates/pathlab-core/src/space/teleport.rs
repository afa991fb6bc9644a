//! Teleports: a square grid plus edges that jump from one cell to another at a chosen cost.
//!
//! A teleport breaks the grid heuristics: the straight-line distance to the goal can be far
//! more than stepping into a teleport that lands beside it, so plain A* may miss the
//! cheapest path. The fix is an estimate that knows the teleports. With one teleport
//! a -> b of cost c it is
//!
//! h'(x, t) = min( h(x, t), h(x, a) + c + h(b, t) ).
//!
//! With several, each teleport's exit b may lead on through another teleport, so `h(b, t)`
//! is itself replaced by the same kind of lower bound, computed once per goal by a small
//! shortest-path run over the teleports alone (`exit_bound`):
//!
//! D(i) = min( h(b_i, t), min over j of h(b_i, a_j) + c_j + D(j) ),
//! h'(x, t) = min( h(x, t), min over i of h(x, a_i) + c_i + D(i) ).
//!
//! A teleport whose exit is walled over (painted after it was made) is not taken.
//!
//! With a single teleport that is exactly the formula above. It never overestimates and it
//! is consistent, whatever the teleports (h'(b_i) equals D(i), so stepping through a
//! teleport never lowers f).
//!
//! ```
//! use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
//! use pathlab_core::heuristic::Heuristic;
//! use pathlab_core::space::{Space, SquareGrid, Teleport, TeleportHeuristic, Teleports};
//! let grid = SquareGrid::new(Grid::new(10, 1).unwrap(), Diagonal::Never, Costs::Real, Heuristic::Manhattan);
//! let jump = Teleport { from: Point::new(1, 0), to: Point::new(8, 0), cost: 1.0, both_ways: false };
//! let mut space = Teleports::new(grid, vec![jump], TeleportHeuristic::Teleports).unwrap();
//! space.aim(9);
//! // From (0,0): one step to the teleport, 1 to jump, one step on.
//! assert_eq!(space.estimate(Point::new(0, 0), Point::new(9, 0)), 3.0);
//! ```

use super::{Space, SquareGrid};
use crate::grid::{named_enum, Point};

/// The most teleports a map may have.
pub const MAX_TELEPORTS: usize = 64;

/// A jump from one cell to another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Teleport {
    /// Where it is entered.
    pub from: Point,
    /// Where it leads.
    pub to: Point,
    /// What the jump costs (finite, at least 0).
    pub cost: f64,
    /// True when it also leads back from `to` to `from` at the same cost.
    pub both_ways: bool,
}

named_enum! {
    /// Which estimate a teleport map uses.
    TeleportHeuristic, "teleport heuristic" {
        /// The grid's own heuristic, blind to teleports: it can overestimate.
        Plain = 0, "plain";
        /// The grid's heuristic through the teleports (see the module): never overestimates.
        Teleports = 1, "teleports";
    }
}

/// A square grid with teleports. See the [module](self).
#[derive(Clone, Debug, PartialEq)]
pub struct Teleports {
    /// The grid and its rules.
    pub base: SquareGrid,
    /// The estimate in use.
    pub heuristic: TeleportHeuristic,
    given: Vec<Teleport>,
    /// One-way jumps (both-way teleports give two), by entry cell: (entry, exit, cost).
    jumps: Vec<(u32, u32, f64)>,
    /// For each jump, D(i) for the goal last aimed at.
    exit_bound: Vec<f64>,
    /// The goal last aimed at.
    aimed: Option<Point>,
}

impl Teleports {
    /// A grid with teleports; fails when a teleport leaves the grid, starts or ends on a
    /// wall, or costs a negative or non-finite amount, or when there are too many.
    pub fn new(base: SquareGrid, teleports: Vec<Teleport>, heuristic: TeleportHeuristic) -> Result<Self, String> {
        if teleports.len() > MAX_TELEPORTS {
            return Err(format!("a map may have at most {MAX_TELEPORTS} teleports, got {}", teleports.len()));
        }
        let mut jumps = Vec::new();
        for (k, t) in teleports.iter().enumerate() {
            for p in [t.from, t.to] {
                if !base.grid.is_passable(p) {
                    return Err(format!("teleport {} ends at {p}, which is a wall or outside the grid", k + 1));
                }
            }
            if !(t.cost.is_finite() && t.cost >= 0.0) {
                return Err(format!("teleport {} costs {}: costs must be finite numbers >= 0", k + 1, t.cost));
            }
            let (a, b) = (base.grid.index(t.from) as u32, base.grid.index(t.to) as u32);
            jumps.push((a, b, t.cost));
            if t.both_ways {
                jumps.push((b, a, t.cost));
            }
        }
        let exit_bound = vec![0.0; jumps.len()];
        Ok(Self { base, heuristic, given: teleports, jumps, exit_bound, aimed: None })
    }

    /// The teleports as given.
    pub fn teleports(&self) -> &[Teleport] {
        &self.given
    }

    /// The grid heuristic between two cells.
    #[inline]
    fn h(&self, a: Point, b: Point) -> f64 {
        self.base.estimate(a, b)
    }
}

impl Space for Teleports {
    cells_through_base!();

    /// The grid's moves, then the teleports entered here in the order given.
    fn for_each_neighbour(&self, node: u32, at: Point, mut visit: impl FnMut(u32, Point, f64)) {
        self.base.for_each_neighbour(node, at, &mut visit);
        for &(a, b, cost) in &self.jumps {
            // A teleport whose exit has been walled over leads nowhere.
            if a == node && self.base.is_open(b) {
                visit(b, self.base.at(b), cost);
            }
        }
    }

    /// The grid's moves into `node`, then the teleports leading here in the order given.
    fn for_each_predecessor(&self, node: u32, at: Point, mut visit: impl FnMut(u32, Point, f64)) {
        self.base.for_each_predecessor(node, at, &mut visit);
        if !self.base.is_open(node) {
            return;
        }
        for &(a, b, cost) in &self.jumps {
            if b == node {
                visit(a, self.base.at(a), cost);
            }
        }
    }

    /// Works out D(i) for every jump: Bellman-Ford over the jumps, which are few.
    fn aim(&mut self, goal: u32) {
        let t = self.base.at(goal);
        let n = self.jumps.len();
        let exits: Vec<Point> = self.jumps.iter().map(|&(_, b, _)| self.base.at(b)).collect();
        let entries: Vec<Point> = self.jumps.iter().map(|&(a, _, _)| self.base.at(a)).collect();
        let mut bound: Vec<f64> = exits.iter().map(|&b| self.h(b, t)).collect();
        for _ in 0..n {
            let mut changed = false;
            for i in 0..n {
                for j in 0..n {
                    let via = self.h(exits[i], entries[j]) + self.jumps[j].2 + bound[j];
                    if via < bound[i] {
                        bound[i] = via;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        self.exit_bound = bound;
        self.aimed = Some(t);
    }

    /// Towards the goal last aimed at, the bound of the module text. Towards any other cell
    /// (a backward search estimates towards the start) the weaker bound `min(h(x, t), min
    /// over i of h(x, a_i) + c_i)`: a path uses no teleport, or pays at least the way to its
    /// first one and its jump. It too never overestimates and is consistent.
    fn estimate(&self, from: Point, goal: Point) -> f64 {
        let direct = self.h(from, goal);
        if self.heuristic == TeleportHeuristic::Plain {
            return direct;
        }
        if self.aimed != Some(goal) {
            return self
                .jumps
                .iter()
                .fold(direct, |best, &(a, _, cost)| best.min(self.h(from, self.base.at(a)) + cost));
        }
        self.jumps
            .iter()
            .zip(&self.exit_bound)
            .fold(direct, |best, (&(a, _, cost), &bound)| best.min(self.h(from, self.base.at(a)) + cost + bound))
    }
}
