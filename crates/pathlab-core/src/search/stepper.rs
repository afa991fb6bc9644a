//! What every search offers the page, the CLI and the tests, whatever its algorithm.

use super::SpaceStepper;
use super::{build, EventLog, NodeTable, Path, SearchConfig, SearchError, Status, StepEvent};
use crate::grid::{named_enum, Grid, Point};
use crate::space::{OnGrid, Space};

/// A search that advances one unit of work per step and exposes per-cell buffers.
///
/// One step is one expansion for the A* family, one jump scan round for JPS, one node visit
/// for IDA*. Going back is replay: the provided [`seek`](Stepper::seek) resets and steps
/// forward, which lands in the same state because every choice is deterministic.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::search::{build, Algorithm, SearchConfig, Status};
/// let grid = Grid::new(5, 5).unwrap();
/// let mut s = build(grid, Point::new(0, 0), Point::new(4, 4), SearchConfig::new(Algorithm::Dijkstra)).unwrap();
/// s.advance(3);
/// s.back();
/// assert_eq!(s.steps(), 2);
/// assert_eq!(s.run(), Status::Found);
/// assert!((s.cost().unwrap() - 4.0 * std::f64::consts::SQRT_2).abs() < 1e-9);
/// ```
pub trait Stepper: StepperClone {
    /// Performs one step, recording what it opened and improved in `log` (which it clears
    /// first).
    fn step_logged(&mut self, log: &mut EventLog) -> StepEvent;

    /// Performs one step without recording.
    fn step(&mut self) -> StepEvent;

    /// Goes back to step 0.
    fn reset(&mut self);

    /// The per-node state the accessors below read: states, g, parents, counters, path.
    fn nodes(&self) -> &NodeTable;

    /// Where the search stands.
    fn status(&self) -> Status {
        self.nodes().status()
    }

    /// Steps taken since step 0.
    fn steps(&self) -> usize {
        self.nodes().steps()
    }

    /// Nodes expanded.
    fn expanded(&self) -> usize {
        self.nodes().expanded()
    }

    /// Cells on the open list(s).
    fn open_count(&self) -> usize {
        self.nodes().open_count()
    }

    /// The path's cost once found.
    fn cost(&self) -> Option<f64>;

    /// The path once found, as row-major indices from start to goal: every cell for grid
    /// paths, the corners (vertices) for any-angle paths.
    fn path_indices(&self) -> &[u32] {
        self.nodes().path()
    }

    /// One [`CellState`](super::CellState) byte per cell, row-major.
    fn states(&self) -> &[u8] {
        self.nodes().state()
    }

    /// The best cost known to each cell (infinite where unknown), row-major.
    fn g_values(&self) -> &[f64] {
        self.nodes().g()
    }

    /// Each cell's parent as a row-major index, or [`NO_PARENT`](super::NO_PARENT).
    fn parents(&self) -> &[u32] {
        self.nodes().parent()
    }

    /// The estimate this search uses from `p` to the goal (0 for those that use none).
    fn h(&self, p: Point) -> f64;

    /// The grid searched.
    fn grid(&self) -> &Grid;

    /// The start cell.
    fn start(&self) -> Point;

    /// The goal cell.
    fn goal(&self) -> Point;

    /// The settings.
    fn config(&self) -> SearchConfig;

    /// Moves the start and goal; back to step 0.
    fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError>;

    /// Sets the listed cells to `value` like a brush stroke (skipping cells outside the grid,
    /// and the start and goal under a wall); returns how many changed. Back to step 0 when
    /// any did, except for the incremental searches
    /// ([`Algorithm::is_incremental`](super::Algorithm::is_incremental)), which keep their
    /// steps and repair in the steps that follow. A value the algorithm cannot handle is
    /// refused with a message.
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError>;

    /// What the last edits cost an incremental search, once it has repaired (LPA*, D* Lite).
    fn repair(&self) -> Option<Repair> {
        None
    }

    /// The walking agent, for the algorithms that have one (D* Lite, LRTA*, RTA*, crash and
    /// turn).
    fn agent(&self) -> Option<Agent> {
        None
    }

    /// A second number per cell worth showing beside g: LPA* and D* Lite's rhs, LRTA*'s
    /// learned estimate. The page shows it in the cell read-out and, when `heat` is set, as
    /// a heat map.
    fn cell_values(&self) -> Option<CellValues<'_>> {
        None
    }

    /// What to draw over the grid for the last step (scan lines, sight lines, marks, notes).
    fn overlay(&self) -> Overlay {
        Overlay::default()
    }

    /// What a walking agent that sees only part of the map has seen so far, one byte per cell,
    /// row-major: [`Known`](super::explorer::Known) values (0 not seen yet, 1 seen free, 2
    /// seen wall). `None` for the searches that know the whole map.
    fn sensed(&self) -> Option<&[u8]> {
        None
    }

    /// Numbers precomputed for each cell, such as JPS+'s jump distances, if any.
    fn cell_table(&self) -> Option<CellTable<'_>> {
        None
    }

    /// Why the search stopped without an answer although the goal may be reachable (IDA*
    /// at its visit limit), if it did. The status is then [`NoPath`](Status::NoPath), but
    /// "gave up" is not "no path": show this text instead.
    fn gave_up(&self) -> Option<String> {
        None
    }

    /// The open list in the order the search will take its cells off, if nothing more were
    /// put on it: at most `limit` entries, each open cell once, the cell the next step takes
    /// first.
    ///
    /// The default is an approximation for the steppers that do not say better: every cell
    /// whose state is open (either direction), ordered as A* orders them (lowest `g + weight
    /// x h`, then highest `g`, then lowest index, standing in for "first opened"). The basic
    /// searches, Theta*, JPS, JPS+, bidirectional A* and A* with smoothing give their exact
    /// order (see theirs).
    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        open_cells_as_astar_orders(self, limit)
    }

    /// Roughly how many bytes the stepper holds, which is what a clone of it costs; the
    /// [`Timeline`](super::timeline::Timeline) bounds its checkpoints by it. The default
    /// allows 24 bytes per cell (grid, state, g, parent, touched list) and 24 per open entry.
    fn approx_bytes(&self) -> usize {
        self.grid().len() * 24 + self.open_count() * 24
    }

    /// Runs `n` steps, or fewer if the search finishes; returns how many were taken.
    fn advance(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n && !self.status().is_finished() {
            self.step();
            done += 1;
        }
        done
    }

    /// Runs to the end and returns the final status.
    fn run(&mut self) -> Status {
        while !self.status().is_finished() {
            self.step();
        }
        self.status()
    }

    /// Puts the search at step `k` (or at its end, if it finishes sooner) by replay.
    fn seek(&mut self, k: usize) {
        if k < self.steps() {
            self.reset();
        }
        let remaining = k - self.steps();
        self.advance(remaining);
    }

    /// Undoes the last step (by replay); does nothing at step 0.
    fn back(&mut self) {
        if self.steps() > 0 {
            self.seek(self.steps() - 1);
        }
    }

    /// The path once found.
    fn path(&self) -> Option<Path> {
        let cost = self.cost()?;
        let grid = self.grid();
        let points = self.path_indices().iter().map(|&i| grid.point_at(i as usize)).collect();
        Some(Path { points, cost })
    }
}

/// The open cells of `s` (either direction) in the order A* would take them off, if nothing
/// more were put on: lowest `g + weight x h`, then highest `g`, then lowest index (standing in
/// for "first opened"); at most `limit`. What [`Stepper::open_entries`] shows for the steppers
/// that do not list their own open list exactly.
pub(crate) fn open_cells_as_astar_orders<T: Stepper + ?Sized>(s: &T, limit: usize) -> Vec<OpenEntry> {
    let weight = s.config().weight;
    let grid = s.grid();
    let (g, parent) = (s.g_values(), s.parents());
    let open = [super::CellState::Open as u8, super::CellState::OpenBack as u8];
    let entries: Vec<OpenEntry> = s
        .states()
        .iter()
        .enumerate()
        .filter(|&(_, state)| open.contains(state))
        .map(|(i, _)| {
            let h = s.h(grid.point_at(i));
            OpenEntry { cell: i as u32, g: g[i], h, key: g[i] + weight * h, parent: parent[i] }
        })
        .collect();
    let order =
        |a: &OpenEntry, b: &OpenEntry| a.key.total_cmp(&b.key).then(b.g.total_cmp(&a.g)).then(a.cell.cmp(&b.cell));
    super::order::least(entries, limit, &order)
}

/// Copies a stepper behind a `Box<dyn Stepper>`: every [`Stepper`] that is [`Clone`] has it,
/// which lets a [`Timeline`](super::timeline::Timeline) keep checkpoints of any search.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::search::{build, Algorithm, SearchConfig};
/// let grid = Grid::new(6, 6).unwrap();
/// let mut s = build(grid, Point::new(0, 0), Point::new(5, 5), SearchConfig::new(Algorithm::AStar)).unwrap();
/// s.advance(3);
/// let mut copy = s.clone();
/// copy.advance(2);
/// assert_eq!((s.steps(), copy.steps()), (3, 5));
/// ```
pub trait StepperClone {
    /// A copy of the stepper, at the same step.
    fn boxed_clone(&self) -> Box<dyn Stepper>;
}

impl<T: Stepper + Clone + 'static> StepperClone for T {
    fn boxed_clone(&self) -> Box<dyn Stepper> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Stepper> {
    fn clone(&self) -> Self {
        self.as_ref().boxed_clone()
    }
}

/// The grid half of a search written once over any [`Space`](crate::space::Space): what the
/// grid page needs beyond [`SpaceStepper`] when the space is made of a square grid's cells
/// ([`OnGrid`]). A type with both is a [`Stepper`] through the impl below, which turns cells
/// into node numbers and back, so BFS, DFS, Dijkstra, greedy, A*, bidirectional A*, IDA*,
/// LPA*, D* Lite, LRTA* and RTA* each have one stepper impl, not one per trait.
///
/// ```
/// use pathlab_core::grid::{Grid, Point};
/// use pathlab_core::search::lpa::Lpa;
/// use pathlab_core::search::{Algorithm, SearchConfig, SpaceStepper, Stepper};
/// let grid = Grid::new(5, 1).unwrap();
/// let mut s = Lpa::new(grid, Point::new(0, 0), Point::new(4, 0), SearchConfig::new(Algorithm::Lpa)).unwrap();
/// Stepper::run(&mut s);
/// // The same search seen as cells and as nodes.
/// assert_eq!(Stepper::goal(&s), Point::new(4, 0));
/// assert_eq!(SpaceStepper::goal_node(&s), 4);
/// assert_eq!(Stepper::cost(&s), Some(4.0));
/// ```
pub trait GridStepper: SpaceStepper<<Self as GridStepper>::Cells> {
    /// The space: a square grid, perhaps with teleports or slopes.
    type Cells: OnGrid;

    /// The estimate this search uses from `p` to the goal (see [`Stepper::h`]).
    fn h(&self, p: Point) -> f64;

    /// A brush stroke (see [`Stepper::paint`]).
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError>;

    /// What to draw over the grid for the last step.
    fn overlay(&self) -> Overlay {
        Overlay::default()
    }

    /// What the last edits cost an incremental search, once it has repaired.
    fn repair(&self) -> Option<Repair> {
        None
    }

    /// What the agent has seen, under fog (see [`Stepper::sensed`]).
    fn sensed(&self) -> Option<&[u8]> {
        None
    }

    /// The walking agent, for the searches that have one.
    fn agent(&self) -> Option<Agent> {
        None
    }

    /// Numbers precomputed for each cell, such as JPS+'s jump distances, if any.
    fn cell_table(&self) -> Option<CellTable<'_>> {
        None
    }

    /// The open list the grid page shows (see [`Stepper::open_entries`]): by default the
    /// search's own listing; the searches whose keys are not `g + weight x h` on a grid (LPA*,
    /// D* Lite, the real-time agents) show their open cells as A* would order them.
    fn grid_open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        SpaceStepper::open_entries(self, limit)
    }

    /// Roughly how many bytes the search keeps per cell (see [`Stepper::approx_bytes`]).
    fn bytes_per_cell(&self) -> usize {
        24
    }
}

impl<T: GridStepper + Clone + 'static> Stepper for T {
    fn step_logged(&mut self, log: &mut EventLog) -> StepEvent {
        SpaceStepper::step_logged(self, log)
    }

    fn step(&mut self) -> StepEvent {
        SpaceStepper::step(self)
    }

    fn reset(&mut self) {
        SpaceStepper::reset(self);
    }

    fn nodes(&self) -> &NodeTable {
        SpaceStepper::nodes(self)
    }

    fn status(&self) -> Status {
        SpaceStepper::status(self)
    }

    fn steps(&self) -> usize {
        SpaceStepper::steps(self)
    }

    fn expanded(&self) -> usize {
        SpaceStepper::expanded(self)
    }

    fn open_count(&self) -> usize {
        SpaceStepper::open_count(self)
    }

    fn cost(&self) -> Option<f64> {
        SpaceStepper::cost(self)
    }

    fn path_indices(&self) -> &[u32] {
        SpaceStepper::path_indices(self)
    }

    fn states(&self) -> &[u8] {
        SpaceStepper::states(self)
    }

    fn g_values(&self) -> &[f64] {
        SpaceStepper::g_values(self)
    }

    fn parents(&self) -> &[u32] {
        SpaceStepper::parents(self)
    }

    fn h(&self, p: Point) -> f64 {
        GridStepper::h(self, p)
    }

    fn grid(&self) -> &Grid {
        self.space().grid()
    }

    fn start(&self) -> Point {
        self.space().at(self.start_node())
    }

    fn goal(&self) -> Point {
        self.space().at(self.goal_node())
    }

    fn config(&self) -> SearchConfig {
        SpaceStepper::config(self)
    }

    fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        let grid = self.space().grid();
        super::engine::check_ends(grid, start, goal)?;
        let (start, goal) = (grid.index(start) as u32, grid.index(goal) as u32);
        self.set_end_nodes(start, goal)
    }

    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        GridStepper::paint(self, cells, value)
    }

    fn repair(&self) -> Option<Repair> {
        GridStepper::repair(self)
    }

    fn agent(&self) -> Option<Agent> {
        GridStepper::agent(self)
    }

    fn cell_values(&self) -> Option<CellValues<'_>> {
        SpaceStepper::cell_values(self)
    }

    fn overlay(&self) -> Overlay {
        GridStepper::overlay(self)
    }

    fn sensed(&self) -> Option<&[u8]> {
        GridStepper::sensed(self)
    }

    fn cell_table(&self) -> Option<CellTable<'_>> {
        GridStepper::cell_table(self)
    }

    fn gave_up(&self) -> Option<String> {
        SpaceStepper::gave_up(self)
    }

    fn open_entries(&self, limit: usize) -> Vec<OpenEntry> {
        GridStepper::grid_open_entries(self, limit)
    }

    fn approx_bytes(&self) -> usize {
        self.space().grid().len() * self.bytes_per_cell() + SpaceStepper::open_count(self) * 24
    }

    fn advance(&mut self, n: usize) -> usize {
        SpaceStepper::advance(self, n)
    }

    fn run(&mut self) -> Status {
        SpaceStepper::run(self)
    }

    fn seek(&mut self, k: usize) {
        SpaceStepper::seek(self, k);
    }
}

impl std::fmt::Debug for dyn Stepper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stepper")
            .field("algorithm", &self.config().algorithm)
            .field("steps", &self.steps())
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

/// One cell on the open list, as [`Stepper::open_entries`] lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpenEntry {
    /// The cell, as a row-major index.
    pub cell: u32,
    /// Its cost so far.
    pub g: f64,
    /// Its estimate to the goal (unweighted; 0 for searches without one).
    pub h: f64,
    /// What the open list orders it by: `g + weight x h` for the A* family, `g` for Dijkstra,
    /// `h` for greedy best-first; for breadth- and depth-first search, which order by arrival,
    /// its place in the queue or stack (0 leaves first).
    pub key: f64,
    /// Its parent, as a row-major index, or [`NO_PARENT`](super::NO_PARENT).
    pub parent: u32,
}

/// What a square grid may carry beyond its cells: teleports, or a height per cell that makes
/// a move's cost depend on its direction (see [`space`](crate::space)).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum GridLinks {
    /// Nothing: the plain grid.
    #[default]
    None,
    /// Jumps between cells, with the estimate to use.
    Teleports {
        /// The teleports.
        list: Vec<crate::space::Teleport>,
        /// Plain (blind to them) or teleport-aware.
        heuristic: crate::space::TeleportHeuristic,
    },
    /// Heights, one per cell (row-major), and the extra cost per unit climbed and descended.
    Slopes {
        /// The heights.
        heights: Vec<u8>,
        /// Extra cost per unit of height climbed.
        uphill: f64,
        /// Extra cost per unit of height descended.
        downhill: f64,
    },
}

/// Builds the stepper for `config.algorithm` on a grid with `links`: [`build`] when there
/// are none; otherwise the searches that [run on any space](super::Algorithm::runs_on_any_space),
/// and a clear refusal for the others.
///
/// ```
/// use pathlab_core::grid::{Diagonal, Grid, Point};
/// use pathlab_core::search::{build_linked, Algorithm, GridLinks, SearchConfig};
/// use pathlab_core::space::{Teleport, TeleportHeuristic};
/// let grid = Grid::new(10, 1).unwrap();
/// let jump = Teleport { from: Point::new(0, 0), to: Point::new(8, 0), cost: 2.0, both_ways: false };
/// let links = GridLinks::Teleports { list: vec![jump], heuristic: TeleportHeuristic::Teleports };
/// let config = SearchConfig::new(Algorithm::AStar).diagonal(Diagonal::Never);
/// let mut s = build_linked(grid.clone(), Point::new(0, 0), Point::new(9, 0), config, &links).unwrap();
/// s.run();
/// assert_eq!(s.cost(), Some(3.0));
/// let jps = SearchConfig::new(Algorithm::Jps);
/// assert!(build_linked(grid, Point::new(0, 0), Point::new(9, 0), jps, &links).is_err());
/// ```
pub fn build_linked(
    grid: Grid,
    start: Point,
    goal: Point,
    config: SearchConfig,
    links: &GridLinks,
) -> Result<Box<dyn Stepper>, SearchError> {
    if *links == GridLinks::None {
        return build(grid, start, goal, config);
    }
    let space = super::registry::linked_space(grid, start, goal, &config, links)?;
    super::registry::build_on_grid(space, start, goal, config)
}

named_enum! {
    /// What an overlay line shows.
    LineKind, "line kind" {
        /// A jump scan that found nothing.
        Scan = 0, "scan";
        /// A jump scan that ended on a jump point.
        ScanHit = 1, "scan-hit";
        /// A line-of-sight test that passed.
        Sight = 2, "sight";
        /// A line-of-sight test that failed.
        Blocked = 3, "blocked";
        /// A node's new parent after rewiring.
        Rewire = 4, "rewire";
        /// The path before smoothing.
        RawPath = 5, "raw-path";
        /// A move the agent made (its trail).
        Trail = 6, "trail";
        /// An edge of the abstract graph (hierarchical A*).
        Abstract = 7, "abstract";
        /// The abstract path before refinement (hierarchical A*).
        AbstractPath = 8, "abstract-path";
        /// The straight line the agent wants to take to the goal (crash and turn).
        Heading = 9, "heading";
    }
}

named_enum! {
    /// What an overlay mark on a cell shows.
    MarkKind, "mark kind" {
        /// A forced neighbour (JPS).
        Forced = 0, "forced";
        /// A jump point added to the open list (JPS).
        JumpPoint = 1, "jump-point";
        /// Where the two frontiers met (bidirectional search).
        Meeting = 2, "meeting";
        /// A node on the recursion stack (IDA*).
        Stack = 3, "stack";
        /// Where the agent stands.
        Agent = 4, "agent";
        /// An entrance between two clusters (hierarchical A*).
        Entrance = 5, "entrance";
        /// A cell whose g and rhs differ (LPA*, D* Lite): it must be repaired.
        Inconsistent = 6, "inconsistent";
        /// A wall the agent has just seen that its plan did not know (D* Lite).
        Discovered = 7, "discovered";
        /// A cell the agent has stood on more than once (real-time search).
        Revisited = 8, "revisited";
        /// A wall the agent has seen: part of the map in its head (the human-like explorer).
        KnownWall = 9, "known-wall";
        /// A cell on the explorer's way back that still has an untried way: where it returns
        /// to from a dead end.
        Junction = 10, "junction";
    }
}

named_enum! {
    /// What an overlay box (a rectangle of cells) shows.
    BoxKind, "box kind" {
        /// A cluster of the hierarchical grid.
        Cluster = 0, "cluster";
        /// The cells the agent can see (D* Lite's sensor).
        Sensor = 1, "sensor";
        /// The cells a real-time agent looked at before its last move.
        Lookahead = 2, "lookahead";
    }
}

/// A line between two cell centres, as row-major indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlayLine {
    /// Where it starts.
    pub from: u32,
    /// Where it ends.
    pub to: u32,
    /// What it shows.
    pub kind: LineKind,
}

/// A mark on one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlayMark {
    /// The cell, as a row-major index.
    pub cell: u32,
    /// What it shows.
    pub kind: MarkKind,
}

/// A rectangle of cells, both corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlayBox {
    /// The top-left cell.
    pub min: Point,
    /// The bottom-right cell.
    pub max: Point,
    /// What it shows.
    pub kind: BoxKind,
}

/// What an algorithm shows over the grid for its last step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    /// Lines between cell centres.
    pub lines: Vec<OverlayLine>,
    /// Marked cells.
    pub marks: Vec<OverlayMark>,
    /// Rectangles of cells.
    pub boxes: Vec<OverlayBox>,
    /// Named read-outs, such as IDA*'s threshold.
    pub notes: Vec<(&'static str, String)>,
}

/// Numbers stored per cell: `values[cell * per_cell + k]`.
#[derive(Clone, Copy, Debug)]
pub struct CellTable<'a> {
    /// How many numbers each cell has (8 for JPS+: N, NE, E, SE, S, SW, W, NW).
    pub per_cell: usize,
    /// The numbers, row-major.
    pub values: &'a [i32],
}

/// What the last edits cost an incremental search: the point of LPA* and D* Lite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repair {
    /// Cells whose walls changed in the last edit (for D* Lite: the last walls the agent
    /// discovered).
    pub changed: usize,
    /// Expansions since that edit (the repair so far).
    pub re_expanded: usize,
    /// What a fresh A* with the same settings expands on the edited grid from the same
    /// start, for comparison.
    pub fresh_expanded: usize,
}

/// Where a walking agent is and what its walk has cost so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agent {
    /// The cell it stands on.
    pub at: Point,
    /// Moves made.
    pub moves: usize,
    /// The cost of the moves made.
    pub travelled: f64,
    /// Moves onto a cell it had stood on before.
    pub revisits: usize,
}

/// A number per cell, row-major, with what it means.
#[derive(Clone, Copy, Debug)]
pub struct CellValues<'a> {
    /// Its short name in the cell read-out ("rhs", "learned h").
    pub label: &'static str,
    /// One value per cell (infinite where unknown).
    pub values: &'a [f64],
    /// True when the page should paint it as a heat map.
    pub heat: bool,
}

/// The [`Stepper`] methods of a grid search that keeps its grid, ends and settings in fields
/// (`grid`, `start`, `goal`, `config`) and moves its ends with its own `set_ends`: Theta*,
/// HPA* and crash and turn.
macro_rules! keeps_grid_and_ends {
    () => {
        fn grid(&self) -> &$crate::grid::Grid {
            &self.grid
        }

        fn start(&self) -> $crate::grid::Point {
            self.start
        }

        fn goal(&self) -> $crate::grid::Point {
            self.goal
        }

        fn config(&self) -> $crate::search::SearchConfig {
            self.config
        }

        fn set_ends(
            &mut self,
            start: $crate::grid::Point,
            goal: $crate::grid::Point,
        ) -> Result<(), $crate::search::SearchError> {
            Self::set_ends(self, start, goal)
        }
    };
}
pub(crate) use keeps_grid_and_ends;

/// The [`Stepper`] methods of a stepper built around another one (`search`) whose grid and
/// ends are that search's: A* with smoothing and the timeline.
macro_rules! grid_and_ends_of_search {
    () => {
        fn grid(&self) -> &$crate::grid::Grid {
            self.search.grid()
        }

        fn start(&self) -> $crate::grid::Point {
            self.search.start()
        }

        fn goal(&self) -> $crate::grid::Point {
            self.search.goal()
        }
    };
}
pub(crate) use grid_and_ends_of_search;
