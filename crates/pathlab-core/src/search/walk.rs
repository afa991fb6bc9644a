//! What the walking agents of LRTA*, RTA* and crash and turn share: the trail, the cells
//! stood on and how often, the cost walked, a flood fill that says whether the goal can be
//! reached at all, and the brush-stroke painting of the other steppers.

use std::collections::VecDeque;

use super::stepper::{Agent, LineKind, MarkKind, Overlay, OverlayLine, OverlayMark};
use crate::grid::{Diagonal, Grid, Point};

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
        overlay.lines.extend(self.trail.windows(2).skip(skip).map(|pair| OverlayLine {
            from: pair[0],
            to: pair[1],
            kind: LineKind::Trail,
        }));
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
            overlay.notes.push(("trail", format!("showing the last {MAX_TRAIL_LINES} of {} moves", self.moves())));
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

/// A number for the notes: rounded to six decimals, "∞" when infinite.
pub(crate) fn number(v: f64) -> String {
    if v.is_finite() {
        format!("{}", (v * 1e6).round() / 1e6)
    } else {
        "∞".to_string()
    }
}

/// Ends the overlay's notes as every walking agent does: why there is no path when walls cut
/// the goal off from the start, and why the walk stopped when it gave up.
pub(crate) fn note_outcome(
    overlay: &mut Overlay,
    unreachable: bool,
    ends: (Point, Point),
    rule: Diagonal,
    gave_up: Option<&str>,
) {
    if unreachable {
        let (start, goal) = ends;
        overlay.notes.push((
            "no path",
            format!(
                "the goal {goal} cannot be reached from the start {start} under the {rule} rule: walls cut \
                 it off, so the agent does not set out"
            ),
        ));
    }
    if let Some(why) = gave_up {
        overlay.notes.push(("stopped", why.to_string()));
    }
}

/// The [`Stepper`](super::Stepper) methods of an agent that walks one cell a step with a
/// [`Walk`] in its field `walk`, keeps its grid and ends as [`keeps_grid_and_ends`] says and
/// has its own `step`, `step_with`, `reset`, `cost`, `paint` and `overlay`: crash and turn and
/// the explorer. Expanded counts its moves, the path is its trail (start first, every cell
/// stood on again included), and it uses no estimate (h is 0).
///
/// [`keeps_grid_and_ends`]: super::stepper::keeps_grid_and_ends
macro_rules! walking_agent_stepper {
    ($agent:ty) => {
        fn step_logged(&mut self, log: &mut $crate::search::EventLog) -> $crate::search::StepEvent {
            log.clear();
            self.step_with(log)
        }

        fn step(&mut self) -> $crate::search::StepEvent {
            <$agent>::step(self)
        }

        fn reset(&mut self) {
            <$agent>::reset(self);
        }

        fn nodes(&self) -> &$crate::search::NodeTable {
            &self.nodes
        }

        fn expanded(&self) -> usize {
            self.walk.moves()
        }

        fn cost(&self) -> Option<f64> {
            <$agent>::cost(self)
        }

        fn path_indices(&self) -> &[u32] {
            &self.walk.trail
        }

        fn h(&self, _p: $crate::grid::Point) -> f64 {
            0.0
        }

        $crate::search::stepper::keeps_grid_and_ends!();

        fn paint(&mut self, cells: &[$crate::grid::Point], value: u8) -> Result<usize, $crate::search::SearchError> {
            Ok(<$agent>::paint(self, cells.iter().copied(), value))
        }

        fn agent(&self) -> Option<$crate::search::stepper::Agent> {
            Some(self.walk.agent(&self.grid))
        }

        fn overlay(&self) -> $crate::search::stepper::Overlay {
            <$agent>::overlay(self)
        }
    };
}
pub(crate) use walking_agent_stepper;

/// Checks what a walking agent's `new` is given: the settings, that they name `expected`
/// (described as `what` in the refusal), and the ends.
pub(crate) fn check_agent_setup(
    grid: &Grid,
    (start, goal): (Point, Point),
    config: &super::SearchConfig,
    expected: super::Algorithm,
    what: &str,
) -> Result<(), super::SearchError> {
    config.validate()?;
    if config.algorithm != expected {
        return Err(super::SearchError::Unsupported(format!(
            "{} is not {what}: build it with search::build",
            config.algorithm
        )));
    }
    super::engine::check_ends(grid, start, goal)
}
