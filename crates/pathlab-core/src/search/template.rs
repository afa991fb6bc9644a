//! Build your own search: the lecture's search skeleton with its plug-ins.
//!
//! Every best-first search is one loop: take a node off the open list, stop if it is the goal,
//! else put its neighbours on the list. What tells the searches apart is the plug-ins, here
//! chosen freely ([`Skeleton`]):
//!
//! - the kind of open list ([`ListKind`]): a queue (first in, first out), a stack (last in,
//!   first out) or a priority list;
//! - for a priority list, the priority `f = a·g + b·h` with `a` ([`Skeleton::ga`]) and `b`
//!   ([`Skeleton::hb`]) chosen, lowest first; ties go to the higher `a·g` (the node that has
//!   come further), then to the node opened first;
//! - what g counts ([`GCount`]): the cost of the moves, or the number of moves (edges);
//! - the heuristic ([`SearchConfig::heuristic`](super::SearchConfig::heuristic));
//! - whether a closed node reached more cheaply is opened again
//!   ([`SearchConfig::reopen`](super::SearchConfig::reopen)).
//!
//! Which neighbours go on the list follows the list: a queue takes a node only the first time
//! it is reached (as breadth-first search does); a stack takes every neighbour that is not
//! closed, again each time, with the newest parent (as depth-first search does); a priority
//! list takes a new node, or an open one reached more cheaply (as Dijkstra and A* do).
//!
//! The classic searches are settings of the skeleton ([`Skeleton::classic`]), and run exactly
//! as the named algorithms do, expansion for expansion:
//!
//! | classic | list | a | b | g counts |
//! | --- | --- | --- | --- | --- |
//! | breadth-first | queue | - | - | - |
//! | depth-first | stack | - | - | - |
//! | Dijkstra | priority | 1 | 0 | costs |
//! | greedy best-first | priority | 0 | 1 | costs |
//! | A* | priority | 1 | 1 | costs |
//! | weighted A* (w) | priority | 1 | w | costs |
//!
//! The cost reported is always the path's cost in the grid's costs, whatever g counts.
//!
//! ```
//! use pathlab_core::grid::{Grid, Point, SQRT_2_FIXED};
//! use pathlab_core::search::template::{ListKind, Skeleton};
//! use pathlab_core::search::{build, Algorithm, SearchConfig};
//! let skeleton = Skeleton { list: ListKind::Queue, ..Skeleton::default() };
//! let config = SearchConfig::new(Algorithm::Template).skeleton(skeleton);
//! let mut s = build(Grid::new(5, 3).unwrap(), Point::new(0, 0), Point::new(4, 2), config).unwrap();
//! s.run();
//! // Two diagonal moves (√2 to 29 binary places) and two straight ones.
//! assert_eq!(s.cost(), Some(2.0 * SQRT_2_FIXED + 2.0));
//! assert_eq!(Skeleton::classic(Algorithm::Dijkstra, 1.0).unwrap().hb, 0.0);
//! ```

use super::{Algorithm, OpenOrder, Recorder, Search, SearchError, StepEvent};
use crate::grid::named_enum;
use crate::space::Space;

named_enum! {
    /// The kind of open list the skeleton takes nodes from.
    ListKind, "open-list kind" {
        /// First in, first out.
        Queue = 0, "queue";
        /// Last in, first out.
        Stack = 1, "stack";
        /// Lowest `a·g + b·h` first.
        Priority = 2, "priority";
    }
}

named_enum! {
    /// What the skeleton's g counts.
    GCount, "g count" {
        /// The cost of the moves, in the grid's costs.
        Costs = 0, "costs";
        /// The number of moves, each counting 1.
        Edges = 1, "edges";
    }
}

/// The plug-ins of the search skeleton (see the [module docs](self)). The default is A*:
/// a priority list, `f = 1·g + 1·h`, g counting costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skeleton {
    /// The kind of open list.
    pub list: ListKind,
    /// `a` in `f = a·g + b·h` (a priority list only): from 0 to [`MAX_FACTOR`].
    pub ga: f64,
    /// `b` in `f = a·g + b·h` (a priority list only): from 0 to [`MAX_FACTOR`].
    pub hb: f64,
    /// What g counts.
    pub gcount: GCount,
}

/// The largest `a` or `b` accepted.
pub const MAX_FACTOR: f64 = 100.0;

impl Default for Skeleton {
    fn default() -> Self {
        Self { list: ListKind::Priority, ga: 1.0, hb: 1.0, gcount: GCount::Costs }
    }
}

impl Skeleton {
    /// The settings that make the skeleton run as `algorithm` (with `weight` for A*), or
    /// `None` for an algorithm that is not a setting of the skeleton.
    pub fn classic(algorithm: Algorithm, weight: f64) -> Option<Self> {
        let priority = |ga, hb| Self { list: ListKind::Priority, ga, hb, gcount: GCount::Costs };
        match algorithm {
            Algorithm::Bfs => Some(Self { list: ListKind::Queue, ..Self::default() }),
            Algorithm::Dfs => Some(Self { list: ListKind::Stack, ..Self::default() }),
            Algorithm::Dijkstra => Some(priority(1.0, 0.0)),
            Algorithm::Greedy => Some(priority(0.0, 1.0)),
            Algorithm::AStar => Some(priority(1.0, weight)),
            _ => None,
        }
    }

    /// Checks `a` and `b`: numbers from 0 to [`MAX_FACTOR`].
    pub fn validate(&self) -> Result<(), SearchError> {
        for (name, v) in [("ga", self.ga), ("hb", self.hb)] {
            if !(v.is_finite() && (0.0..=MAX_FACTOR).contains(&v)) {
                return Err(SearchError::Unsupported(format!(
                    "{name} (a factor of the priority f = a·g + b·h) must be a number from 0 to {MAX_FACTOR}, got {v}"
                )));
            }
        }
        Ok(())
    }

    /// True when these settings find a cheapest path given an admissible heuristic: a
    /// priority list on costs with `0 < b <= a` (weighted A* with a weight of at most 1), or
    /// `b = 0` (Dijkstra).
    pub fn is_optimal(&self) -> bool {
        self.list == ListKind::Priority && self.gcount == GCount::Costs && self.ga > 0.0 && self.hb <= self.ga
    }

    /// What the open list is ordered by: the place in a queue or on a stack, or the priority
    /// `f`.
    pub const fn order(&self) -> OpenOrder {
        match self.list {
            ListKind::Queue => OpenOrder::Queue,
            ListKind::Stack => OpenOrder::Stack,
            ListKind::Priority => OpenOrder::F,
        }
    }

    /// The order in words, with the chosen `a` and `b` and the tie rule: what the page's
    /// open-list caption says for the skeleton.
    ///
    /// ```
    /// use pathlab_core::search::{GCount, ListKind, Skeleton};
    /// let weighted = Skeleton { ga: 1.0, hb: 1.5, ..Skeleton::default() };
    /// assert_eq!(weighted.order_rule(), "lowest f = 1·g + 1.5·h first; ties: higher 1·g, then first opened");
    /// let stack = Skeleton { list: ListKind::Stack, ..Skeleton::default() };
    /// assert_eq!(stack.order_rule(), "a stack: last in, first out");
    /// let moves = Skeleton { gcount: GCount::Edges, ..Skeleton::default() };
    /// assert!(moves.order_rule().ends_with("(g counts moves, each 1)"));
    /// ```
    pub fn order_rule(&self) -> String {
        match self.list {
            ListKind::Queue => format!("a queue: {}", OpenOrder::Queue.rule()),
            ListKind::Stack => format!("a stack: {}", OpenOrder::Stack.rule()),
            ListKind::Priority => {
                let (a, b) = (self.ga, self.hb);
                let moves = if self.gcount == GCount::Edges { " (g counts moves, each 1)" } else { "" };
                format!("lowest f = {a}·g + {b}·h first; ties: higher {a}·g, then first opened{moves}")
            }
        }
    }

    /// The priority list's order `(key, tie)`: `a·g + b·h`, then the higher `a·g`.
    #[inline]
    pub(crate) fn priority(&self, g: f64, h: f64) -> (f64, f64) {
        let ag = self.ga * g;
        (ag + self.hb * h, -ag)
    }
}

/// One step of the skeleton: take the next node off the open list; stop if it is the goal;
/// else put its neighbours on the list by the list's rule (see the module docs), opening a
/// closed node again when re-opening is on and the new way is cheaper.
pub(super) fn step<S: Space, R: Recorder>(search: &mut Search<S>, recorder: &mut R) -> StepEvent<S::At> {
    let (node, at) = match search.take_next(recorder) {
        Ok(next) => next,
        Err(event) => return event,
    };
    let config = search.config();
    let reopen = config.reopen;
    let edges = config.skeleton.gcount == GCount::Edges;
    let edge = move |cost: f64| if edges { 1.0 } else { cost };
    match config.skeleton.list {
        ListKind::Queue => search.expand_by(node, at, recorder, reopen, edge, |open, _, _| !open),
        ListKind::Stack => search.expand_by(node, at, recorder, reopen, edge, |_, _, _| true),
        ListKind::Priority => {
            search.expand_by(node, at, recorder, reopen, edge, |open, g, new_g| !open || new_g < g);
        }
    }
    StepEvent::Expanded(at)
}
