//! A* over a navigation mesh: polygons as nodes, portals as edges, then the funnel.
//!
//! [`NavmeshSearch`] finds a *corridor*, a chain of polygons from the one holding the start
//! to the one holding the goal, one polygon expanded per step; [`Funnel`] then pulls the
//! string through the corridor's portals, one portal per step, giving the path's corners.
//!
//! # Lengths
//!
//! As in Detour, a polygon is reached at a point, and g is measured from point to point:
//! the start polygon is reached at the start; a polygon entered through a portal is reached
//! at the portal's point that makes the way from the parent's point to the goal through the
//! portal shortest ([`NavMesh::portal_point`]: where the straight line to the goal crosses
//! the portal, or the portal's nearer end), with `g = g(parent) + |parent's point - point|`;
//! the goal's polygon adds the last stretch, `|point - goal|`. The estimate is the straight
//! line from a polygon's point to the goal, which never exceeds what such a chain of segments
//! adds up to. Detour takes the portal's middle instead; on meshes of long thin polygons
//! (the stacked rectangles of [`NavMesh::build_rectangles`]) the middles zigzag, and A*
//! then prefers corridors whose funnel path is far from the shortest. Either way this is a
//! good but not exact guide to the shortest corridor: the funnel's path through the
//! corridor found is the shortest path *within that corridor*, and it can be a little
//! longer than the shortest path in the whole free region (the visibility graph's optimum).
//!
//! When the start and goal share a polygon, the corridor is that polygon and its g is the
//! straight line between them.
//!
//! # Stepping
//!
//! One step takes the polygon of lowest `f = g + h` off the open list (ties: highest g, then
//! first opened, as in A*) and opens or improves each polygon behind its portals, in the
//! polygon's portal order; a polygon already expanded is not reopened. The step that takes
//! the goal's polygon off the list ends the search ([`StepEvent::Found`] with the corridor's
//! g). The per-polygon state, g and parent live in a [`NodeTable`] (one entry per polygon),
//! and [`NavmeshSearch::entries`] gives each polygon's point.
//!
//! # Bad input
//!
//! A start or goal in a wall, outside the map or not finite is refused with
//! [`NavmeshError::OffMesh`]; an empty map has no mesh ([`NavmeshError::NoFreeSpace`]).
//! Start and goal in parts of the map no portal joins give [`StepEvent::NoPath`] once the
//! start's part is exhausted.
//!
//! ```
//! use std::sync::Arc;
//! use pathlab_core::grid::{Diagonal, Grid, Point, WALL};
//! use pathlab_core::search::navmesh::find_path;
//! use pathlab_core::space::navmesh::NavMesh;
//! // . . .
//! // . # .
//! // . . .
//! let mut grid = Grid::new(3, 3).unwrap();
//! grid.set(Point::new(1, 1), WALL).unwrap();
//! let mesh = Arc::new(NavMesh::build(&grid, Diagonal::NoCornerCutting).unwrap());
//! let path = find_path(&mesh, [0.5, 2.5], [2.5, 0.5]).unwrap().unwrap();
//! // Round one corner of the pillar: two segments of length sqrt(2.5).
//! assert_eq!(path.points.len(), 3);
//! assert!((path.length - 10f64.sqrt()).abs() < 1e-12);
//! ```

use std::sync::Arc;

use super::funnel::{distance, Funnel};
use super::open_list::OpenList;
use super::{astar, CellState, NodeTable, Status, StepEvent, NO_PARENT};
use crate::space::navmesh::{NavMesh, NavmeshError, Xy};

const OPEN: u8 = CellState::Open as u8;
const CLOSED: u8 = CellState::Closed as u8;
const CURRENT: u8 = CellState::Current as u8;

/// A path found on a navmesh: the corridor, and the funnel's path through it.
#[derive(Clone, Debug, PartialEq)]
pub struct NavPath {
    /// The path's corners, start and goal included.
    pub points: Vec<Xy>,
    /// Its length.
    pub length: f64,
    /// The polygons from the start's to the goal's.
    pub corridor: Vec<u32>,
    /// Polygons expanded by A*.
    pub expanded: usize,
}

/// Runs A* over `mesh` from `start` to `goal` and pulls the string through the corridor.
/// `Ok(None)` when no corridor joins them.
pub fn find_path(mesh: &Arc<NavMesh>, start: Xy, goal: Xy) -> Result<Option<NavPath>, NavmeshError> {
    let mut search = NavmeshSearch::new(Arc::clone(mesh), start, goal)?;
    search.run();
    Ok(search.path())
}

/// A* over the polygons of a [`NavMesh`], one polygon expanded per step. See the [module
/// documentation](self).
#[derive(Clone, Debug)]
pub struct NavmeshSearch {
    mesh: Arc<NavMesh>,
    start: Xy,
    goal: Xy,
    start_polygon: u32,
    goal_polygon: u32,
    nodes: NodeTable,
    /// Where each polygon was reached.
    entries: Vec<Xy>,
    open_list: OpenList,
    current: u32,
}

impl NavmeshSearch {
    /// Sets up a search from `start` to `goal` (points in cell units; a cell's centre is
    /// `[x + 0.5, y + 0.5]`). Fails when either lies in no polygon.
    pub fn new(mesh: Arc<NavMesh>, start: Xy, goal: Xy) -> Result<Self, NavmeshError> {
        let n = mesh.polygon_count();
        let mut search = Self {
            mesh,
            start,
            goal,
            start_polygon: 0,
            goal_polygon: 0,
            nodes: NodeTable::new(n),
            entries: vec![[0.0, 0.0]; n],
            open_list: OpenList::new(false),
            current: NO_PARENT,
        };
        search.set_ends(start, goal)?;
        Ok(search)
    }

    /// Moves the start and goal and goes back to step 0. On failure nothing changes.
    pub fn set_ends(&mut self, start: Xy, goal: Xy) -> Result<(), NavmeshError> {
        let s = self.mesh.locate(start).ok_or(NavmeshError::OffMesh { which: "start", at: start })?;
        let g = self.mesh.locate(goal).ok_or(NavmeshError::OffMesh { which: "goal", at: goal })?;
        (self.start, self.goal, self.start_polygon, self.goal_polygon) = (start, goal, s, g);
        self.reset();
        Ok(())
    }

    /// Back to step 0: only the start's polygon is open.
    pub fn reset(&mut self) {
        self.nodes.reset();
        self.open_list.clear();
        self.current = NO_PARENT;
        let s = self.start_polygon;
        let g0 = if s == self.goal_polygon { distance(self.start, self.goal) } else { 0.0 };
        self.nodes.open(s, g0, NO_PARENT);
        self.entries[s as usize] = self.start;
        let h = if s == self.goal_polygon { 0.0 } else { distance(self.start, self.goal) };
        let (key, tie) = astar::priority(g0, h, 1.0);
        self.open_list.push(key, tie, s);
    }

    /// One step: expands the best open polygon, or ends the search.
    pub fn step(&mut self) -> StepEvent<u32> {
        if self.nodes.status.is_finished() {
            return StepEvent::Finished;
        }
        self.nodes.steps += 1;
        if self.current != NO_PARENT && self.nodes.state()[self.current as usize] == CURRENT {
            self.nodes.mark(self.current, CellState::Closed);
        }
        let popped = loop {
            let state = self.nodes.state();
            match self.open_list.pop(|n| state[n as usize] == CLOSED) {
                Some(p) if self.nodes.state()[p as usize] == OPEN => break Some(p),
                Some(_) => {}
                None => break None,
            }
        };
        let Some(p) = popped else {
            self.nodes.status = Status::NoPath;
            self.current = NO_PARENT;
            return StepEvent::NoPath;
        };
        self.nodes.open -= 1;
        if p == self.goal_polygon {
            self.nodes.status = Status::Found;
            self.nodes.trace_path(p);
            self.current = NO_PARENT;
            return StepEvent::Found { cost: self.nodes.g()[p as usize] };
        }
        self.nodes.mark(p, CellState::Current);
        self.nodes.expanded += 1;
        self.current = p;
        let mesh = Arc::clone(&self.mesh);
        let (from, g) = (self.entries[p as usize], self.nodes.g()[p as usize]);
        for portal in &mesh.polygon(p).portals {
            let q = portal.to;
            let state = self.nodes.state()[q as usize];
            if state == CLOSED || state == CURRENT {
                continue;
            }
            let point = mesh.portal_point(portal, from, self.goal);
            let to_goal = distance(point, self.goal);
            let (new_g, h) = if q == self.goal_polygon {
                (g + distance(from, point) + to_goal, 0.0)
            } else {
                (g + distance(from, point), to_goal)
            };
            if new_g < self.nodes.g()[q as usize] {
                self.nodes.open(q, new_g, p);
                self.entries[q as usize] = point;
                let (key, tie) = astar::priority(new_g, h, 1.0);
                self.open_list.push(key, tie, q);
            }
        }
        self.nodes.status = Status::Searching;
        StepEvent::Expanded(p)
    }

    /// Runs to the end.
    pub fn run(&mut self) -> Status {
        while !self.nodes.status.is_finished() {
            self.step();
        }
        self.nodes.status
    }

    /// Where the search stands.
    pub fn status(&self) -> Status {
        self.nodes.status()
    }

    /// Polygons expanded so far.
    pub fn expanded(&self) -> usize {
        self.nodes.expanded()
    }

    /// Steps taken since step 0.
    pub fn steps(&self) -> usize {
        self.nodes.steps()
    }

    /// The per-polygon state (a [`CellState`] byte each), g and parents.
    pub fn nodes(&self) -> &NodeTable {
        &self.nodes
    }

    /// Where each polygon reached so far was reached (its g is measured to there).
    pub fn entries(&self) -> &[Xy] {
        &self.entries
    }

    /// The polygon the last step expanded, if any.
    pub fn current(&self) -> Option<u32> {
        (self.current != NO_PARENT).then_some(self.current)
    }

    /// The mesh searched.
    pub fn mesh(&self) -> &Arc<NavMesh> {
        &self.mesh
    }

    /// The start point.
    pub fn start(&self) -> Xy {
        self.start
    }

    /// The goal point.
    pub fn goal(&self) -> Xy {
        self.goal
    }

    /// The polygons holding the start and the goal.
    pub fn end_polygons(&self) -> (u32, u32) {
        (self.start_polygon, self.goal_polygon)
    }

    /// The corridor once found, the start's polygon first (empty before).
    pub fn corridor(&self) -> &[u32] {
        self.nodes.path()
    }

    /// The corridor's length through the points chosen on its portals, once found.
    pub fn corridor_cost(&self) -> Option<f64> {
        (self.status() == Status::Found).then(|| self.nodes.g()[self.goal_polygon as usize])
    }

    /// The funnel through the corridor found (at step 0), or `None` before it is found.
    pub fn funnel(&self) -> Option<Funnel> {
        (self.status() == Status::Found).then(|| Funnel::through(&self.mesh, self.corridor(), self.start, self.goal))
    }

    /// The string-pulled path through the corridor found, or `None` before it is found.
    pub fn path(&self) -> Option<NavPath> {
        let mut funnel = self.funnel()?;
        let length = funnel.run();
        Some(NavPath {
            points: funnel.path().to_vec(),
            length,
            corridor: self.corridor().to_vec(),
            expanded: self.expanded(),
        })
    }
}
