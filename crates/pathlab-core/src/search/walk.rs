//! What the walking agents of LRTA*, RTA* and crash and turn share: the trail, the cells
//! stood on and how often, the cost walked, a flood fill that says whether the goal can be
//! reached at all, and the brush-stroke painting of the other steppers.

use std::collections::VecDeque;

use super::stepper::{Agent, LineKind, MarkKind, Overlay, OverlayLine, OverlayMark};
use crate::grid::{Diagonal, Grid, Point, WALL};

/// The most trail lines an overlay carries: the last moves, so that a long walk does not
/// make every frame copy a huge list. A note says when lines were left out.
pub const MAX_TRAIL_LINES: usize = 4096;

/// The trail of a walking agent and the counts the page shows.
#[derive(Clone, Debug)]
pub(crate) struct Walk {
    /// The cells stood on, in order, repeats included; the first is the start.
    pub trail: Vec<u32>,
    /// How many times the agent has stood on each cell (row-major).
    pub visits: Vec<u32>,
    /// The cells stood on at least once, in the order first stood on.
    pub stood: Vec<u32>,
    /// The cost of the moves made.
    pub travelled: f64,
    /// Moves onto a cell stood on before.
    pub revisits: usize,
}

impl Walk {
    /// A walk on a grid of `cells` cells, not begun.
    pub fn new(cells: usize) -> Self {
        Self { trail: Vec::new(), visits: vec![0; cells], stood: Vec::new(), travelled: 0.0, revisits: 0 }
    }

    /// Forgets the walk and stands the agent on `start`.
    pub fn begin(&mut self, start: u32) {
        for &c in &self.stood {
            self.visits[c as usize] = 0;
        }
        self.stood.clear();
        self.trail.clear();
        self.travelled = 0.0;
        self.revisits = 0;
        self.trail.push(start);
        self.visits[start as usize] = 1;
        self.stood.push(start);
    }

    /// Moves the agent onto `cell` at `cost`; true when it had stood there before.
    pub fn move_to(&mut self, cell: u32, cost: f64) -> bool {
        self.trail.push(cell);
        self.travelled += cost;
        let v = &mut self.visits[cell as usize];
        *v += 1;
        if *v == 1 {
            self.stood.push(cell);
            false
        } else {
            self.revisits += 1;
            true
        }
    }

    /// Moves made.
    pub fn moves(&self) -> usize {
        self.trail.len().saturating_sub(1)
    }

    /// The agent's read-out.
    pub fn agent(&self, grid: &Grid) -> Agent {
        let at = self.trail.last().map_or(Point::new(0, 0), |&c| grid.point_at(c as usize));
        Agent { at, moves: self.moves(), travelled: self.travelled, revisits: self.revisits }
    }

    /// Adds the agent mark, the trail lines (the last [`MAX_TRAIL_LINES`]), the marks of the
    /// cells stood on more than once, and the moves, travelled and revisits notes.
    pub fn draw(&self, overlay: &mut Overlay) {
        if let Some(&at) = self.trail.last() {
            overlay.marks.push(OverlayMark { cell: at, kind: MarkKind::Agent });
        }
        let skip = self.moves().saturating_sub(MAX_TRAIL_LINES);
        overlay.lines.extend(
            self.trail.windows(2).skip(skip).map(|pair| OverlayLine { from: pair[0], to: pair[1], kind: LineKind::Trail }),
        );
        overlay.marks.extend(
            self.stood
                .iter()
                .filter(|&&c| self.visits[c as usize] > 1)
                .map(|&cell| OverlayMark { cell, kind: MarkKind::Revisited }),
        );
        overlay.notes.push(("moves", self.moves().to_string()));
        overlay.notes.push(("travelled", number(self.travelled)));
        overlay.notes.push(("revisits", self.revisits.to_string()));
        if skip > 0 {
            overlay.notes.push((
                "trail",
                format!("showing the last {MAX_TRAIL_LINES} of {} moves", self.moves()),
            ));
        }
    }
}

/// True when `goal` can be reached from `start` by legal moves under `rule` (a flood fill
/// from the start; both must be inside the grid).
pub(crate) fn reachable(grid: &Grid, start: Point, goal: Point, rule: Diagonal) -> bool {
    if start == goal {
        return true;
    }
    let target = grid.index(goal);
    let mut seen = vec![false; grid.len()];
    let mut queue = VecDeque::new();
    seen[grid.index(start)] = true;
    queue.push_back(start);
    while let Some(p) = queue.pop_front() {
        let mut found = false;
        grid.for_each_neighbour_of(p, rule, |nb, nb_at, _| {
            if !seen[nb] {
                seen[nb] = true;
                found |= nb == target;
                queue.push_back(nb_at);
            }
        });
        if found {
            return true;
        }
    }
    false
}

/// Sets every listed cell of `grid` to `value` as a brush stroke does: cells outside the grid
/// are skipped, and so are `start` and `goal` when `value` is a wall. Returns how many changed.
pub(crate) fn paint(grid: &mut Grid, start: Point, goal: Point, cells: &[Point], value: u8) -> usize {
    let mut changed = 0;
    for &p in cells {
        let blocked_end = value == WALL && (p == start || p == goal);
        if blocked_end || grid.get(p).is_none_or(|v| v == value) {
            continue;
        }
        if grid.set(p, value).is_ok() {
            changed += 1;
        }
    }
    changed
}

/// A number for the notes: rounded to six decimals, "∞" when infinite.
pub(crate) fn number(v: f64) -> String {
    if v.is_finite() {
        format!("{}", (v * 1e6).round() / 1e6)
    } else {
        "∞".to_string()
    }
}
