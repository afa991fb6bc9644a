//! The funnel algorithm: the shortest path through a corridor of polygons, one portal per
//! step.
//!
//! A corridor is a list of portals, the segments a path must cross in order (each seen with
//! a `left` and a `right` end by someone walking along it). The funnel is the wedge, from
//! the last corner of the path so far (the *apex*), between the *left leg* (towards the
//! tightest left end seen) and the *right leg*. Each step takes the next portal:
//!
//! - its right end, if it lies inside the wedge, tightens the right leg; if it lies beyond
//!   the left leg, the left leg's end is a corner of the path: it becomes the apex, the
//!   funnel closes to that point, and the scan goes on from the portal after the one that
//!   set it;
//! - its left end does the same on the other side.
//!
//! After the last portal (the goal itself, a portal of zero width) the goal ends the path.
//! The result is the shortest path through the portals in order (the "simple stupid funnel"
//! form of string pulling: restarting from the new apex instead of keeping a queue makes a
//! step sometimes look again at a portal already seen, which keeps it short to read).
//!
//! Equal directions count as inside the wedge (a new end on the other leg's ray, beyond the
//! apex, narrows the funnel to that ray instead of making a corner: on a grid, cell centres
//! and corners are often collinear with a diagonal portal), and a leg whose end is the apex
//! itself (the funnel just closed) takes any new end: so a portal whose end is the apex (a
//! wall corner the path turns round) and a portal of zero width (a diagonal-only contact
//! under the `always` rule) both work.
//!
//! ```
//! use pathlab_core::search::funnel::{Funnel, FunnelEvent};
//! // A corridor that makes the path turn round the corner (1, 1): from (0.5, 2.5) up
//! // through the portal (0,1)-(1,1), then right through (1,1)-(1,0), to (2.5, 0.5).
//! let portals = [([0.0, 1.0], [1.0, 1.0]), ([1.0, 0.0], [1.0, 1.0])];
//! let mut funnel = Funnel::new([0.5, 2.5], [2.5, 0.5], &portals);
//! while !matches!(funnel.step(), FunnelEvent::Done { .. }) {}
//! assert_eq!(funnel.path(), [[0.5, 2.5], [1.0, 1.0], [2.5, 0.5]]);
//! assert!((funnel.length() - 10f64.sqrt()).abs() < 1e-12);
//! ```

use crate::space::navmesh::{NavMesh, Xy};

/// What one funnel step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FunnelEvent {
    /// Portal `index` was taken; the funnel is now the apex and the ends of its two legs.
    Portal {
        /// The portal taken (0-based; the goal is the portal after the last one given).
        index: usize,
        /// The apex: the last corner of the path so far.
        apex: Xy,
        /// The end of the left leg.
        left: Xy,
        /// The end of the right leg.
        right: Xy,
        /// The corner this step added to the path (the new apex), if it added one.
        corner: Option<Xy>,
    },
    /// The goal ended the path; `length` is its length.
    Done {
        /// The path's length.
        length: f64,
    },
    /// The funnel had already finished; nothing happened.
    Finished,
}

/// String pulling through a corridor's portals, one portal per [`step`](Funnel::step).
#[derive(Clone, Debug)]
pub struct Funnel {
    /// `(left, right)` for each portal, the goal last as a portal of zero width.
    portals: Vec<(Xy, Xy)>,
    start: Xy,
    apex: Xy,
    left: Xy,
    right: Xy,
    /// The portal after the one that set the apex, the left end and the right end.
    apex_next: usize,
    left_next: usize,
    right_next: usize,
    next: usize,
    steps: usize,
    path: Vec<Xy>,
    done: bool,
}

/// The cross product of `a - o` and `b - o`. With y pointing down (as on screen), it is
/// negative when `b` lies on the left of the ray from `o` through `a`, positive on the right.
#[inline]
fn turn(o: Xy, a: Xy, b: Xy) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// True when `b` lies on the `side` (1: right, -1: left, on screen) of the ray from `o`
/// through `a`, or on that ray itself (not behind `o`): a leg's new end there keeps the
/// funnel open, if only to a single ray.
#[inline]
fn beside(o: Xy, a: Xy, b: Xy, side: f64) -> bool {
    let t = turn(o, a, b) * side;
    t > 0.0 || (t == 0.0 && (a[0] - o[0]) * (b[0] - o[0]) + (a[1] - o[1]) * (b[1] - o[1]) > 0.0)
}

/// True when `p` lies on the closed segment `a - b`.
fn on_segment(p: Xy, a: Xy, b: Xy) -> bool {
    turn(a, b, p) == 0.0 && (p[0] - a[0]) * (p[0] - b[0]) <= 0.0 && (p[1] - a[1]) * (p[1] - b[1]) <= 0.0
}

/// The straight-line distance between two points.
#[inline]
pub(crate) fn distance(a: Xy, b: Xy) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    (dx * dx + dy * dy).sqrt()
}

impl Funnel {
    /// A funnel from `start` to `goal` through `portals`, each `(left, right)` as seen
    /// walking from the start to the goal.
    ///
    /// A portal the start lies on is already crossed, and so is every one before it; a
    /// portal the goal lies on is the last that needs crossing. Those are left out (the
    /// start standing on a portal would otherwise make the funnel a half-plane, which the
    /// wedge tests cannot tell apart from a crossing).
    pub fn new(start: Xy, goal: Xy, portals: &[(Xy, Xy)]) -> Self {
        let first = portals.iter().rposition(|&(l, r)| on_segment(start, l, r)).map_or(0, |k| k + 1);
        let rest = &portals[first..];
        let end = rest.iter().position(|&(l, r)| on_segment(goal, l, r)).unwrap_or(rest.len());
        let mut all = Vec::with_capacity(end + 1);
        all.extend_from_slice(&rest[..end]);
        all.push((goal, goal));
        let mut funnel = Self {
            portals: all,
            start,
            apex: start,
            left: start,
            right: start,
            apex_next: 0,
            left_next: 0,
            right_next: 0,
            next: 0,
            steps: 0,
            path: Vec::new(),
            done: false,
        };
        funnel.reset();
        funnel
    }

    /// The funnel through the portals between consecutive polygons of `corridor` (a path of
    /// polygons in `mesh`, each joined to the next by a portal), from `start` in the first
    /// polygon to `goal` in the last.
    ///
    /// Panics when two consecutive polygons of the corridor have no portal between them.
    pub fn through(mesh: &NavMesh, corridor: &[u32], start: Xy, goal: Xy) -> Self {
        let portals: Vec<(Xy, Xy)> = corridor
            .windows(2)
            .map(|pair| {
                let portal = mesh
                    .polygon(pair[0])
                    .portals
                    .iter()
                    .find(|p| p.to == pair[1])
                    .expect("consecutive polygons of a corridor share a portal");
                (mesh.vertex(portal.left), mesh.vertex(portal.right))
            })
            .collect();
        Self::new(start, goal, &portals)
    }

    /// Back to step 0: the apex at the start, the funnel closed.
    pub fn reset(&mut self) {
        (self.apex, self.left, self.right) = (self.start, self.start, self.start);
        (self.apex_next, self.left_next, self.right_next, self.next) = (0, 0, 0, 0);
        self.steps = 0;
        self.path.clear();
        self.path.push(self.start);
        self.done = false;
    }

    /// Takes the next portal (or, after the last, ends the path at the goal).
    pub fn step(&mut self) -> FunnelEvent {
        if self.done {
            return FunnelEvent::Finished;
        }
        self.steps += 1;
        if self.next == self.portals.len() {
            let goal = self.portals[self.portals.len() - 1].0;
            if self.path.last() != Some(&goal) {
                self.path.push(goal);
            }
            self.done = true;
            return FunnelEvent::Done { length: self.length() };
        }
        let index = self.next;
        let (left, right) = self.portals[index];
        self.next += 1;
        let mut corner = None;
        if turn(self.apex, self.right, right) <= 0.0 {
            if self.apex == self.right || beside(self.apex, self.left, right, 1.0) {
                self.right = right;
                self.right_next = index + 1;
            } else {
                corner = Some(self.corner(self.left, self.left_next));
            }
        }
        if corner.is_none() && turn(self.apex, self.left, left) >= 0.0 {
            if self.apex == self.left || beside(self.apex, self.right, left, -1.0) {
                self.left = left;
                self.left_next = index + 1;
            } else {
                corner = Some(self.corner(self.right, self.right_next));
            }
        }
        FunnelEvent::Portal { index, apex: self.apex, left: self.left, right: self.right, corner }
    }

    /// Makes `at` (set by the portal before `next`) the apex and a corner of the path.
    fn corner(&mut self, at: Xy, next: usize) -> Xy {
        self.path.push(at);
        (self.apex, self.left, self.right) = (at, at, at);
        (self.apex_next, self.left_next, self.right_next) = (next, next, next);
        self.next = next;
        at
    }

    /// Runs to the end and returns the path's length.
    pub fn run(&mut self) -> f64 {
        while !self.done {
            self.step();
        }
        self.length()
    }

    /// True once the goal ended the path.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Steps taken since step 0.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The portals, `(left, right)`, the goal last.
    pub fn portals(&self) -> &[(Xy, Xy)] {
        &self.portals
    }

    /// The apex and the ends of the left and right legs now.
    pub fn legs(&self) -> (Xy, Xy, Xy) {
        (self.apex, self.left, self.right)
    }

    /// The path so far: the start, the corners found, and once done the goal.
    pub fn path(&self) -> &[Xy] {
        &self.path
    }

    /// The point the funnel adds to the path next: the next corner the string bends at, or
    /// the goal once no corner is left before it; `None` once done. Found by stepping a copy,
    /// so it is what the steps to come will do (the question the page's funnel quiz asks).
    ///
    /// ```
    /// use pathlab_core::search::funnel::Funnel;
    /// let portals = [([0.0, 1.0], [1.0, 1.0]), ([1.0, 0.0], [1.0, 1.0])];
    /// let mut funnel = Funnel::new([0.5, 2.5], [2.5, 0.5], &portals);
    /// assert_eq!(funnel.next_corner(), Some([1.0, 1.0]));
    /// while funnel.path().len() < 2 {
    ///     funnel.step();
    /// }
    /// assert_eq!(funnel.next_corner(), Some([2.5, 0.5]));
    /// funnel.run();
    /// assert_eq!(funnel.next_corner(), None);
    /// ```
    pub fn next_corner(&self) -> Option<Xy> {
        let known = self.path.len();
        let mut ahead = self.clone();
        while !ahead.done {
            ahead.step();
            if ahead.path.len() > known {
                return Some(ahead.path[known]);
            }
        }
        None
    }

    /// The length of the path so far.
    pub fn length(&self) -> f64 {
        self.path.windows(2).map(|s| distance(s[0], s[1])).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_corridor_gives_a_straight_line() {
        let portals = [([1.0, 0.0], [1.0, 2.0]), ([2.0, 0.0], [2.0, 2.0])];
        let mut f = Funnel::new([0.5, 1.0], [2.5, 1.5], &portals);
        assert!((f.run() - (4.0f64 + 0.25).sqrt()).abs() < 1e-12);
        assert_eq!(f.path().len(), 2);
        assert_eq!(f.steps(), 4, "two portals, the goal, then the end");
        assert_eq!(f.step(), FunnelEvent::Finished);
    }

    #[test]
    fn a_point_portal_is_a_corner_of_the_path() {
        let mut f = Funnel::new([0.5, 0.5], [1.5, 1.8], &[([1.0, 1.0], [1.0, 1.0])]);
        f.run();
        assert_eq!(f.path(), [[0.5, 0.5], [1.0, 1.0], [1.5, 1.8]]);
    }
}
