//! `Stepper::open_entries`, the open list the page shows as a table, checked on random grids
//! step after step:
//! - for every basic algorithm (BFS, DFS, Dijkstra, greedy, A* with any weight), the first
//!   entry is exactly the cell the next step expands, or the goal when the next step finds it;
//!   the whole list is exactly the order an independent model of the documented rules gives
//!   (kept here from the opened/improved events alone: BFS first opened first, DFS last pushed
//!   first, the others by key, then tie, then first pushed, each cell at its best push), and
//!   its g, h and parents are the search's;
//! - Theta*, JPS, JPS+, A* with smoothing (while A* searches) and bidirectional A* (for the
//!   side that expands next) also list the next expanded cell first; IDA* lists its stack;
//! - the trait's default (for steppers that give no order of their own) lists exactly the
//!   open cells, by f.

use std::cmp::Ordering;
mod cases;

use std::collections::HashMap;

use cases::{ends_on_open, Case};
use pathlab_core::grid::{Costs, Diagonal, Grid, Point, WALL};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{
    build, Algorithm, CellState, EventLog, NodeTable, OpenEntry, Search, SearchConfig, SearchError, Status, StepEvent,
    Stepper, NO_PARENT,
};
use proptest::prelude::*;
use proptest::sample::{select, Index};

/// A random problem: a grid of up to 20 x 20 with walls and, when `terrain`, costly cells; the
/// first cell always open.
fn case(terrain: bool, rules: Vec<Diagonal>) -> impl Strategy<Value = Case> {
    (2usize..=20, 2usize..=20, 0u32..=40)
        .prop_flat_map(move |(w, h, density)| {
            (
                Just((w, h, density)),
                proptest::collection::vec((0u32..100, 0u8..4), w * h),
                any::<Index>(),
                any::<Index>(),
                select(rules.clone()),
                select(Costs::ALL.to_vec()),
            )
        })
        .prop_map(move |((w, h, density), rolls, s, g, rule, costs)| {
            let mut cells: Vec<u8> = rolls
                .iter()
                .map(|&(roll, t)| {
                    if roll < density {
                        WALL
                    } else if terrain {
                        [1, 1, 3, 5][t as usize]
                    } else {
                        1
                    }
                })
                .collect();
            cells[0] = cells[0].max(1);
            let (grid, start, goal) = ends_on_open(w, h, cells, s, g);
            Case { grid, start, goal, rule, costs }
        })
}

/// The cell a step took off the open list: the one it expanded, or the goal it found.
fn taken(event: StepEvent, goal: Point) -> Option<Point> {
    match event {
        StepEvent::Expanded(p) => Some(p),
        StepEvent::Found { .. } => Some(goal),
        StepEvent::NoPath | StepEvent::Finished => None,
    }
}

/// What one open cell is ordered by in the model: a key, a tie and the push that counts.
#[derive(Clone, Copy, Debug)]
struct Rank {
    key: f64,
    tie: f64,
    push: usize,
}

/// An independent model of the open list order, fed only by the steps' events.
struct Model {
    config: SearchConfig,
    goal: Point,
    width: usize,
    open: HashMap<u32, Rank>,
    pushes: usize,
}

impl Model {
    fn new(config: SearchConfig, grid: &Grid, start: Point, goal: Point) -> Self {
        let mut model = Self { config, goal, width: grid.width(), open: HashMap::new(), pushes: 0 };
        model.push(grid.index(start) as u32, 0.0);
        model
    }

    fn h(&self, cell: u32) -> f64 {
        if !self.config.algorithm.uses_heuristic() {
            return 0.0;
        }
        let (x, y) = (cell as usize % self.width, cell as usize / self.width);
        self.config.heuristic.estimate(x.abs_diff(self.goal.x), y.abs_diff(self.goal.y), self.config.costs)
    }

    /// A push of `cell` with cost `g`: the documented rule of each algorithm.
    fn push(&mut self, cell: u32, g: f64) {
        let h = self.h(cell);
        let push = self.pushes;
        self.pushes += 1;
        let rank = match self.config.algorithm {
            // First in, first out: the first push counts (BFS never pushes a cell twice).
            Algorithm::Bfs => Rank { key: 0.0, tie: 0.0, push },
            // Last in, first out: the latest push counts, and leaves first.
            Algorithm::Dfs => Rank { key: 0.0, tie: -(push as f64), push },
            Algorithm::Dijkstra => Rank { key: g, tie: 0.0, push },
            Algorithm::Greedy => Rank { key: h, tie: 0.0, push },
            // Lowest f, then highest g.
            _ => Rank { key: g + self.config.weight * h, tie: -g, push },
        };
        let better = |a: &Rank, b: &Rank| Self::order(a, b) == Ordering::Less;
        match self.open.get(&cell) {
            Some(held) if self.config.algorithm != Algorithm::Dfs && !better(&rank, held) => {}
            _ => {
                self.open.insert(cell, rank);
            }
        }
    }

    fn order(a: &Rank, b: &Rank) -> Ordering {
        let by = |x: f64, y: f64| x.partial_cmp(&y).unwrap_or(Ordering::Equal);
        by(a.key, b.key).then(by(a.tie, b.tie)).then(a.push.cmp(&b.push))
    }

    fn apply(&mut self, event: StepEvent, log: &EventLog, grid: &Grid) {
        if let Some(p) = taken(event, self.goal) {
            self.open.remove(&(grid.index(p) as u32));
        }
        for o in &log.opened {
            self.push(o.node, o.new_g);
        }
    }

    fn list(&self) -> Vec<u32> {
        let mut cells: Vec<(u32, Rank)> = self.open.iter().map(|(&c, &r)| (c, r)).collect();
        cells.sort_by(|a, b| Self::order(&a.1, &b.1));
        cells.into_iter().map(|(c, _)| c).collect()
    }
}

/// Steps `search` to the end, checking before each step that the first entry is the cell
/// the step takes; returns how many steps were checked.
fn first_is_next(search: &mut dyn Stepper) -> Result<usize, TestCaseError> {
    let goal = search.goal();
    let mut checked = 0;
    while !search.status().is_finished() {
        let first = search.open_entries(1).first().copied();
        let event = search.step();
        if let Some(p) = taken(event, goal) {
            let first = first.ok_or_else(|| TestCaseError::fail(format!("step {}: nothing listed", search.steps())))?;
            prop_assert_eq!(search.grid().point_at(first.cell as usize), p, "step {}", search.steps());
            checked += 1;
        }
    }
    Ok(checked)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The basic searches, with terrain, any rule, any heuristic and weight.
    #[test]
    fn basic_searches_list_exactly_the_documented_order(
        case in case(true, Diagonal::ALL.to_vec()),
        algorithm in select(vec![Algorithm::Bfs, Algorithm::Dfs, Algorithm::Dijkstra, Algorithm::Greedy, Algorithm::AStar]),
        heuristic in select(Heuristic::ALL.to_vec()),
        weight in select(vec![1.0, 1.5, 4.0]),
    ) {
        let config = SearchConfig::new(algorithm).heuristic(heuristic).weight(weight).diagonal(case.rule).costs(case.costs);
        let mut search = Search::new(case.grid.clone(), case.start, case.goal, config).unwrap();
        let mut model = Model::new(config, &case.grid, case.start, case.goal);
        let mut log = EventLog::default();
        loop {
            let entries = Stepper::open_entries(&search, usize::MAX);
            let cells: Vec<u32> = entries.iter().map(|e| e.cell).collect();
            prop_assert_eq!(&cells, &model.list(), "step {}: the whole list", search.steps());
            prop_assert_eq!(entries.len(), search.open_count());
            prop_assert_eq!(Stepper::open_entries(&search, 3), entries[..entries.len().min(3)].to_vec());
            for (place, e) in entries.iter().enumerate() {
                let i = e.cell as usize;
                prop_assert_eq!(search.states()[i], CellState::Open as u8);
                prop_assert_eq!(e.g, search.g_values()[i]);
                prop_assert_eq!(e.parent, search.parents()[i]);
                prop_assert_eq!(e.h, search.h(case.grid.point_at(i)));
                let key = match algorithm {
                    Algorithm::Bfs | Algorithm::Dfs => place as f64,
                    Algorithm::Dijkstra => e.g,
                    Algorithm::Greedy => e.h,
                    _ => e.g + weight * e.h,
                };
                prop_assert_eq!(e.key, key);
            }
            if search.status().is_finished() {
                break;
            }
            let first = entries.first().map(|e| case.grid.point_at(e.cell as usize));
            let event = Stepper::step_logged(&mut search, &mut log);
            prop_assert_eq!(taken(event, case.goal), first, "step {}: the first entry is what the step took", search.steps());
            model.apply(event, &log, &case.grid);
        }
        if search.status() == Status::NoPath {
            prop_assert!(Stepper::open_entries(&search, 10).is_empty());
        }
    }

    /// Theta*, JPS, JPS+, A* with smoothing and bidirectional A* take their first entry next.
    #[test]
    fn other_searches_take_their_first_entry_next(
        case in case(false, vec![Diagonal::NoCornerCutting, Diagonal::Never]),
        algorithm in select(vec![Algorithm::Theta, Algorithm::Jps, Algorithm::JpsPlus, Algorithm::JpsPlusPruned, Algorithm::AStarSmoothed, Algorithm::BiAStar]),
        weight in select(vec![1.0, 2.0]),
    ) {
        let config = SearchConfig::new(algorithm)
            .heuristic(Heuristic::default_for(case.rule))
            .weight(weight)
            .diagonal(case.rule)
            .costs(case.costs);
        let mut search = build(case.grid.clone(), case.start, case.goal, config).unwrap();
        if algorithm == Algorithm::AStarSmoothed {
            // Only while A* searches: the pulling steps take nothing off a list.
            let mut list = search.open_entries(1);
            while !search.status().is_finished() && !list.is_empty() {
                let event = search.step();
                if let StepEvent::Expanded(p) = event {
                    if search.path_indices().is_empty() && search.status() == Status::Searching && p != case.goal {
                        prop_assert_eq!(case.grid.point_at(list[0].cell as usize), p);
                    }
                }
                list = search.open_entries(1);
            }
        } else if algorithm == Algorithm::BiAStar {
            // The last step applies the stopping rule and takes nothing.
            while !search.status().is_finished() {
                let first = search.open_entries(1).first().copied();
                if let StepEvent::Expanded(p) = search.step() {
                    let first = first.map(|e| case.grid.point_at(e.cell as usize));
                    prop_assert_eq!(first, Some(p), "step {}", search.steps());
                }
            }
        } else {
            first_is_next(search.as_mut())?;
        }
    }

    /// IDA* lists its stack, deepest first.
    #[test]
    fn ida_lists_its_stack_deepest_first(case in case(false, vec![Diagonal::Never, Diagonal::NoCornerCutting])) {
        let config = SearchConfig::new(Algorithm::Ida).heuristic(Heuristic::default_for(case.rule)).diagonal(case.rule);
        let mut ida = pathlab_core::search::ida::Ida::new(case.grid.clone(), case.start, case.goal, config).unwrap().with_visit_limit(2000);
        while !ida.status().is_finished() {
            let stack: Vec<Point> = ida.stack().collect();
            let listed: Vec<Point> = Stepper::open_entries(&ida, usize::MAX).iter().map(|e| case.grid.point_at(e.cell as usize)).collect();
            prop_assert_eq!(listed, stack.into_iter().rev().collect::<Vec<_>>());
            ida.step();
        }
    }
}

/// A stepper that gives no open list order of its own, so the trait's default is used.
#[derive(Clone, Debug)]
struct Plain(Search);

impl Stepper for Plain {
    fn step_logged(&mut self, log: &mut EventLog) -> StepEvent {
        Stepper::step_logged(&mut self.0, log)
    }
    fn step(&mut self) -> StepEvent {
        self.0.step()
    }
    fn reset(&mut self) {
        self.0.reset();
    }
    fn nodes(&self) -> &NodeTable {
        self.0.nodes()
    }
    fn cost(&self) -> Option<f64> {
        self.0.cost()
    }
    fn h(&self, p: Point) -> f64 {
        self.0.h(p)
    }
    fn grid(&self) -> &Grid {
        self.0.grid()
    }
    fn start(&self) -> Point {
        self.0.start()
    }
    fn goal(&self) -> Point {
        self.0.goal()
    }
    fn config(&self) -> SearchConfig {
        self.0.config()
    }
    fn set_ends(&mut self, start: Point, goal: Point) -> Result<(), SearchError> {
        self.0.set_ends(start, goal)
    }
    fn paint(&mut self, cells: &[Point], value: u8) -> Result<usize, SearchError> {
        self.0.paint(cells, value)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The default lists every open cell once, by f and then highest g, with the search's
    /// numbers; its first f is the lowest f on the list (what A* takes next).
    #[test]
    fn the_default_lists_every_open_cell_by_f(case in case(true, Diagonal::ALL.to_vec()), steps in 0usize..60) {
        let config = SearchConfig::new(Algorithm::AStar).heuristic(Heuristic::default_for(case.rule)).diagonal(case.rule).costs(case.costs);
        let mut plain = Plain(Search::new(case.grid.clone(), case.start, case.goal, config).unwrap());
        plain.advance(steps);
        let listed = plain.open_entries(usize::MAX);
        let mut open: Vec<u32> = (0..case.grid.len() as u32).filter(|&i| plain.states()[i as usize] == CellState::Open as u8).collect();
        let mut cells: Vec<u32> = listed.iter().map(|e| e.cell).collect();
        cells.sort_unstable();
        open.sort_unstable();
        prop_assert_eq!(cells, open);
        for pair in listed.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            prop_assert!(a.key < b.key || (a.key == b.key && a.g >= b.g), "{:?} before {:?}", a, b);
        }
        for e in &listed {
            let i = e.cell as usize;
            prop_assert_eq!(e.g, plain.g_values()[i]);
            prop_assert_eq!(e.key, e.g + e.h);
            prop_assert_eq!(e.parent, plain.parents()[i]);
        }
        let exact = plain.0.open_entries(1);
        prop_assert_eq!(listed.first().map(|e| e.key), exact.first().map(|e| e.key));
        prop_assert_eq!(plain.open_entries(5), listed[..listed.len().min(5)].to_vec());
    }
}

/// The course's 5x5 example under A* with Manhattan and 4-way moves, worked by hand: the
/// list starts as the start alone, then holds its two open neighbours by f, the tie going to
/// the first opened.
#[test]
fn the_course_example_lists_the_start_neighbours_by_f() {
    //       x=0 1 2 3 4
    //  y=0    . . . . .
    //  y=1    . . # A .        A = start (3,1)
    //  y=2    . . # # .
    //  y=3    B . . . .        B = goal (0,3)
    //  y=4    . . . . .
    let map = pathlab_core::formats::course::parse("5\n5\n00000\n001A0\n00110\nB0000\n00000\n").unwrap();
    let (start, goal) = (map.start.unwrap(), map.goal.unwrap());
    let config = SearchConfig::new(Algorithm::AStar)
        .heuristic(Heuristic::Manhattan)
        .diagonal(Diagonal::Never)
        .costs(Costs::Integer);
    let mut s = Search::new(map.grid.clone(), start, goal, config).unwrap();
    let first = Stepper::open_entries(&s, 10);
    // h(A) = 10 x (3 + 2) = 50.
    assert_eq!(
        first,
        vec![OpenEntry { cell: map.grid.index(start) as u32, g: 0.0, h: 50.0, key: 50.0, parent: NO_PARENT }]
    );
    s.step();
    // Neighbours in the order N, E, S, W: N (3,0) g 10, h 10 x (3 + 3) = 60, f 70; E (4,1)
    // g 10, h 10 x (4 + 2) = 60, f 70; S (3,2) and W (2,1) are walls. Equal f and g: N, the
    // first opened, leaves first.
    let list = Stepper::open_entries(&s, 10);
    let listed: Vec<(Point, f64, f64, f64)> =
        list.iter().map(|e| (map.grid.point_at(e.cell as usize), e.g, e.h, e.key)).collect();
    assert_eq!(listed, vec![(Point::new(3, 0), 10.0, 60.0, 70.0), (Point::new(4, 1), 10.0, 60.0, 70.0)]);
    assert!(list.iter().all(|e| e.parent == map.grid.index(start) as u32));
    assert_eq!(s.step(), StepEvent::Expanded(Point::new(3, 0)));
}
