//! The navmesh and corner-graph views (`space=navmesh`, `space=corners`): [`NavLab`].
//!
//! A [`NavLab`] holds a grid map (walls and ground; terrain counts as ground, since lengths
//! ignore costs), the mesh or corner graph built from it, a start and a goal (each a cell
//! centre or a cell corner, in half cells), and the search shown:
//!
//! - on the **navmesh**, A* over the polygons (one polygon per step, as
//!   [`NavmeshSearch`]), then the funnel through the corridor found (one portal per step, as
//!   [`Funnel`]): the page steps through both with one Step button;
//! - on the **corner graph**, A* over the cell corners joined by line of sight, one corner per
//!   step.
//!
//! It also gives the exact any-angle optimum (the [`VisibilityGraph`]'s shortest path), which
//! the page draws under every any-angle result, and [`NavLab::solve`] runs one method to the
//! end for the compare table. Nothing panics across the boundary: a map with no free cell, or
//! an end in a wall, leaves the map in place and says why in [`NavLab::problem`].

use std::sync::Arc;

use pathlab_bind::{err, parse};
use pathlab_core::grid::{Diagonal, Grid, Point, GROUND, WALL};
use pathlab_core::search::funnel::{Funnel, FunnelEvent};
use pathlab_core::search::navmesh::NavmeshSearch;
use pathlab_core::search::visibility::{HalfPoint, VisibilityGraph};
use pathlab_core::search::{Algorithm, Search, SearchConfig, SpaceStepper, Stepper, NO_PARENT};
use pathlab_core::space::navmesh::{NavMesh, Xy};
use pathlab_core::space::{CornerGraph, Space};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::Status;

/// The largest map (in cells) whose visibility graph the page builds: it joins every pair of
/// corners that see each other, which grows with the square of the corners, so the corner
/// view and the optimum line stop at 160 x 160 (the navmesh has no such limit).
pub const MAX_VISIBILITY_CELLS: usize = 160 * 160;

/// Which graph a [`NavLab`] searches.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NavKind {
    /// Convex polygons joined by portals, then the funnel.
    Navmesh = 0,
    /// Cell corners joined by line of sight.
    Corners = 1,
}

/// Where a [`NavLab`]'s stepping stands.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NavPhase {
    /// No search can run (see [`NavLab::problem`]).
    Unavailable = 0,
    /// A* is expanding polygons or corners.
    Search = 1,
    /// The corridor is found and the funnel is pulling the string through its portals.
    Funnel = 2,
    /// The path is complete, or there is none.
    Done = 3,
}

/// The search behind a [`NavLab`].
enum Run {
    Mesh { search: NavmeshSearch, funnel: Option<Funnel>, last: Option<FunnelEvent> },
    Corners(Search<CornerGraph>),
}

/// One open-list entry for the page.
#[derive(Serialize)]
struct OpenView {
    node: u32,
    g: f64,
    h: f64,
    f: f64,
    parent: Option<u32>,
}

/// The funnel's state for the page.
#[derive(Serialize)]
struct FunnelView {
    /// The portal the last step tested (0-based), none before the first step.
    index: Option<usize>,
    /// How many portals there are, the goal counted as the last.
    portals: usize,
    apex: Xy,
    left: Xy,
    right: Xy,
    /// The tested portal's ends, left then right.
    portal: Option<[Xy; 2]>,
    /// The corner the last step added to the path.
    corner: Option<Xy>,
    done: bool,
}

/// One method run to the end, for the compare table ([`NavLab::solved`]).
#[derive(Clone, Debug, Serialize)]
pub struct Solved {
    /// The method's name, as given.
    pub method: &'static str,
    /// Nodes of the graph searched (open cells, polygons, open corners or visibility
    /// vertices with the two ends).
    pub nodes: usize,
    /// Nodes expanded.
    pub expanded: usize,
    /// The path's length in cells; none when there is no path.
    pub length: Option<f64>,
    /// The path's points, flat `[x0, y0, x1, y1, ...]`.
    pub points: Vec<f64>,
}

/// An error's words, for the messages the page shows.
fn text(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn flat(points: &[Xy]) -> Vec<f64> {
    points.iter().flat_map(|p| [p[0], p[1]]).collect()
}

fn distance(a: Xy, b: Xy) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// A grid map (walls and ground; terrain counts as ground), its navmesh or corner graph, a
/// start and goal (each a cell centre or a cell corner, in half cells), and the search shown:
/// A* over the polygons then the funnel through the corridor (one polygon, then one portal,
/// per [`step`](Self::step)), or A* over the corners. It gives the exact any-angle optimum
/// beside it, and [`solve`](Self::solve) runs one method to the end for the compare table.
/// A map with no free cell, or an end in a wall, is kept and named in
/// [`problem`](Self::problem); nothing panics across the boundary.
#[wasm_bindgen]
pub struct NavLab {
    kind: NavKind,
    grid: Grid,
    diagonal: Diagonal,
    start: HalfPoint,
    goal: HalfPoint,
    mesh: Option<Arc<NavMesh>>,
    visibility: Option<Arc<VisibilityGraph>>,
    problem: Option<String>,
    run: Option<Run>,
    /// The exact optimum once asked for (`optimum_known`): its length and points, or none.
    optimum: Option<(f64, Vec<Xy>)>,
    optimum_known: bool,
}

#[wasm_bindgen]
impl NavLab {
    /// A lab on a `width` x `height` map of `cells` (row-major, 0 a wall; any other value is
    /// walkable), with `kind` `"navmesh"` or `"corners"`, the `diagonal` rule's name, and the
    /// start and goal in half cells (`2x + 1` for a cell's centre, `2x` for a corner). Fails
    /// only on a bad size, kind or rule; a map it cannot search is kept with a
    /// [`problem`](Self::problem).
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        kind: &str,
        width: u32,
        height: u32,
        cells: &[u8],
        diagonal: &str,
        start: &[i32],
        goal: &[i32],
    ) -> Result<NavLab, JsError> {
        let kind = match kind {
            "navmesh" => NavKind::Navmesh,
            "corners" => NavKind::Corners,
            other => return Err(err(format!("unknown space {other:?}; expected navmesh or corners"))),
        };
        let walkable = cells.iter().map(|&c| if c == WALL { WALL } else { GROUND }).collect();
        let grid = Grid::from_cells(width as usize, height as usize, walkable).map_err(err)?;
        let mut lab = NavLab {
            kind,
            grid,
            diagonal: parse(diagonal)?,
            start: half(start, "start")?,
            goal: half(goal, "goal")?,
            mesh: None,
            visibility: None,
            problem: None,
            run: None,
            optimum: None,
            optimum_known: false,
        };
        lab.rebuild();
        Ok(lab)
    }

    /// `"navmesh"` or `"corners"`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        match self.kind {
            NavKind::Navmesh => "navmesh",
            NavKind::Corners => "corners",
        }
        .into()
    }

    /// The map's width in cells.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u32 {
        self.grid.width() as u32
    }

    /// The map's height in cells.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u32 {
        self.grid.height() as u32
    }

    /// The cells, row-major (0 wall, 1 ground).
    pub fn cells(&self) -> Vec<u8> {
        self.grid.cells().to_vec()
    }

    /// The diagonal rule's name.
    #[wasm_bindgen(getter)]
    pub fn diagonal(&self) -> String {
        self.diagonal.to_string()
    }

    /// The start, in half cells `[x, y]`.
    #[wasm_bindgen(getter)]
    pub fn start(&self) -> Vec<i32> {
        vec![self.start.x as i32, self.start.y as i32]
    }

    /// The goal, in half cells `[x, y]`.
    #[wasm_bindgen(getter)]
    pub fn goal(&self) -> Vec<i32> {
        vec![self.goal.x as i32, self.goal.y as i32]
    }

    /// Why no search runs (no free cell, an end in a wall...), or none.
    #[wasm_bindgen(getter)]
    pub fn problem(&self) -> Option<String> {
        self.problem.clone()
    }

    /// Paints `value` (0 wall, anything else ground) on the cells with row-major indices
    /// `cells`, rebuilds the mesh or graph at once and starts the search again. Returns how
    /// many cells changed. Fails (changing nothing) on an index off the map.
    pub fn paint(&mut self, cells: &[u32], value: u8) -> Result<u32, JsError> {
        let n = self.grid.len();
        if let Some(bad) = cells.iter().find(|&&i| i as usize >= n) {
            return Err(err(format!("cell {bad} is off the map ({n} cells)")));
        }
        let value = if value == WALL { WALL } else { GROUND };
        let mut changed = 0;
        for &i in cells {
            let p = self.grid.point_at(i as usize);
            if self.grid.get(p) != Some(value) {
                self.grid.set(p, value).map_err(err)?;
                changed += 1;
            }
        }
        if changed > 0 {
            self.rebuild();
        }
        Ok(changed)
    }

    /// Moves the start and goal (half cells, as in the constructor) and starts again. An end
    /// in a wall or off the map is kept and named in [`problem`](Self::problem).
    #[wasm_bindgen(js_name = setEnds)]
    pub fn set_ends(&mut self, start: &[i32], goal: &[i32]) -> Result<(), JsError> {
        self.start = half(start, "start")?;
        self.goal = half(goal, "goal")?;
        self.optimum_known = false;
        self.restart();
        Ok(())
    }

    /// How the mesh was built (`NavMesh::build_auto` picks by the boundary's corner count):
    /// `"triangulated"` or `"rectangles"`, and `""` on the corner graph or without a mesh.
    #[wasm_bindgen(getter, js_name = meshBuild)]
    pub fn mesh_build(&self) -> String {
        self.mesh.as_ref().map_or("", |m| m.build_kind().name()).into()
    }

    /// Polygons in the mesh (0 on the corner graph or without a mesh).
    #[wasm_bindgen(getter, js_name = polygonCount)]
    pub fn polygon_count(&self) -> u32 {
        self.mesh.as_ref().map_or(0, |m| m.polygon_count() as u32)
    }

    /// The mesh's vertices, flat `[x0, y0, ...]` in cells.
    pub fn vertices(&self) -> Vec<f64> {
        self.mesh.as_ref().map_or_else(Vec::new, |m| flat(m.vertices()))
    }

    /// The polygons, each as its corner count then its vertex numbers.
    pub fn polygons(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for p in self.mesh.iter().flat_map(|m| m.polygons()) {
            out.push(p.corners.len() as u32);
            out.extend(&p.corners);
        }
        out
    }

    /// The portals, each once, as segments `[x1, y1, x2, y2, ...]`.
    pub fn portals(&self) -> Vec<f64> {
        let Some(mesh) = &self.mesh else { return Vec::new() };
        let mut out = Vec::new();
        for (i, p) in mesh.polygons().iter().enumerate() {
            for portal in p.portals.iter().filter(|q| q.to as usize > i) {
                let (a, b) = (mesh.vertex(portal.left), mesh.vertex(portal.right));
                out.extend([a[0], a[1], b[0], b[1]]);
            }
        }
        out
    }

    /// The corners where a shortest path may bend (the visibility graph's vertices), flat.
    pub fn bends(&self) -> Vec<f64> {
        let Some(v) = &self.visibility else { return Vec::new() };
        (0..v.vertex_count() as u32).flat_map(|i| v.vertex(i).cells()).collect()
    }

    /// The visibility graph's edges (sight lines between bend corners), each once, as segments.
    #[wasm_bindgen(js_name = sightLines)]
    pub fn sight_lines(&self) -> Vec<f64> {
        let Some(v) = &self.visibility else { return Vec::new() };
        let mut out = Vec::new();
        for i in 0..v.vertex_count() as u32 {
            let a = v.vertex(i).cells();
            v.for_each_edge(i, |j, _| {
                if j > i {
                    let b = v.vertex(j).cells();
                    out.extend([a[0], a[1], b[0], b[1]]);
                }
            });
        }
        out
    }

    /// How many nodes the search has: polygons, or corner-graph nodes.
    #[wasm_bindgen(getter, js_name = nodeCount)]
    pub fn node_count(&self) -> u32 {
        match &self.run {
            Some(Run::Mesh { search, .. }) => search.mesh().polygon_count() as u32,
            Some(Run::Corners(s)) => s.space().node_count() as u32,
            None => 0,
        }
    }

    /// Where each node is drawn, flat: polygon centroids, or corner-graph points.
    #[wasm_bindgen(js_name = nodePlaces)]
    pub fn node_places(&self) -> Vec<f64> {
        match &self.run {
            Some(Run::Mesh { search, .. }) => {
                let m = search.mesh();
                (0..m.polygon_count() as u32).flat_map(|p| m.centroid(p)).collect()
            }
            Some(Run::Corners(s)) => (0..s.space().node_count() as u32).flat_map(|n| s.space().position(n)).collect(),
            None => Vec::new(),
        }
    }

    /// Each node's state (the core's `CellState` byte).
    pub fn states(&self) -> Vec<u8> {
        match &self.run {
            Some(Run::Mesh { search, .. }) => search.nodes().state().to_vec(),
            Some(Run::Corners(s)) => s.states().to_vec(),
            None => Vec::new(),
        }
    }

    /// One step: a polygon or corner expanded, or (navmesh) one portal of the funnel.
    pub fn step(&mut self) -> Status {
        match &mut self.run {
            Some(Run::Mesh { search, funnel, last }) => match funnel {
                Some(f) => *last = Some(f.step()),
                None if !search.status().is_finished() => {
                    search.step();
                    *funnel = search.funnel();
                }
                None => {}
            },
            Some(Run::Corners(s)) => {
                s.step();
            }
            None => {}
        }
        self.status()
    }

    /// To the end of the search and the funnel.
    pub fn run(&mut self) -> Status {
        while self.run.is_some() && self.phase() != NavPhase::Done {
            self.step();
        }
        self.status()
    }

    /// Back to step 0.
    pub fn reset(&mut self) {
        self.restart();
    }

    /// Back one step (by replay).
    pub fn back(&mut self) {
        let k = self.steps().saturating_sub(1);
        self.restart();
        while self.steps() < k && self.phase() != NavPhase::Done {
            self.step();
        }
    }

    /// Where the stepping stands.
    #[wasm_bindgen(getter)]
    pub fn phase(&self) -> NavPhase {
        match &self.run {
            None => NavPhase::Unavailable,
            Some(Run::Mesh { search, funnel, .. }) => match funnel {
                Some(f) if f.is_done() => NavPhase::Done,
                Some(_) => NavPhase::Funnel,
                None if search.status().is_finished() => NavPhase::Done,
                None => NavPhase::Search,
            },
            Some(Run::Corners(s)) if s.status().is_finished() => NavPhase::Done,
            Some(Run::Corners(_)) => NavPhase::Search,
        }
    }

    /// The status the page shows: found only once the path is complete (on the navmesh, once
    /// the funnel is done).
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> Status {
        match (&self.run, self.phase()) {
            (None, _) => Status::NoPath,
            (_, NavPhase::Funnel) => Status::Searching,
            (Some(Run::Mesh { funnel: Some(_), .. }), NavPhase::Done) => Status::Found,
            (Some(Run::Mesh { search, .. }), _) => search.status().into(),
            (Some(Run::Corners(s)), _) => s.status().into(),
        }
    }

    /// Steps taken since step 0 (polygons or corners, then portals).
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> usize {
        match &self.run {
            Some(Run::Mesh { search, funnel, .. }) => search.steps() + funnel.as_ref().map_or(0, Funnel::steps),
            Some(Run::Corners(s)) => s.steps(),
            None => 0,
        }
    }

    /// Nodes expanded.
    #[wasm_bindgen(getter)]
    pub fn expanded(&self) -> u32 {
        match &self.run {
            Some(Run::Mesh { search, .. }) => search.expanded() as u32,
            Some(Run::Corners(s)) => s.expanded() as u32,
            None => 0,
        }
    }

    /// Nodes on the open list.
    #[wasm_bindgen(getter, js_name = openCount)]
    pub fn open_count(&self) -> u32 {
        match &self.run {
            Some(Run::Mesh { search, .. }) => search.nodes().open_count() as u32,
            Some(Run::Corners(s)) => s.open_count() as u32,
            None => 0,
        }
    }

    /// The path's length once complete.
    #[wasm_bindgen(getter)]
    pub fn cost(&self) -> Option<f64> {
        match &self.run {
            Some(Run::Mesh { funnel: Some(f), .. }) if f.is_done() => Some(f.length()),
            Some(Run::Corners(s)) => s.cost(),
            _ => None,
        }
    }

    /// The corridor's length through the points A* over the polygons chose on its portals
    /// (what it measured), once found.
    #[wasm_bindgen(getter, js_name = corridorCost)]
    pub fn corridor_cost(&self) -> Option<f64> {
        match &self.run {
            Some(Run::Mesh { search, .. }) => search.corridor_cost(),
            _ => None,
        }
    }

    /// The corridor's polygons, the start's first (empty before it is found).
    pub fn corridor(&self) -> Vec<u32> {
        match &self.run {
            Some(Run::Mesh { search, .. }) => search.corridor().to_vec(),
            _ => Vec::new(),
        }
    }

    /// The path so far, flat: on the navmesh the funnel's corners (the goal once done); on
    /// the corner graph the path once found.
    pub fn path(&self) -> Vec<f64> {
        match &self.run {
            Some(Run::Mesh { funnel: Some(f), .. }) => flat(f.path()),
            Some(Run::Corners(s)) => s.path_indices().iter().flat_map(|&n| s.space().position(n)).collect(),
            _ => Vec::new(),
        }
    }

    /// The funnel's apex, legs and the portal tested (navmesh, once the corridor is found).
    #[wasm_bindgen(js_name = funnelState)]
    pub fn funnel_state(&self) -> Result<JsValue, JsError> {
        let Some(Run::Mesh { funnel: Some(f), last, .. }) = &self.run else {
            return Ok(JsValue::NULL);
        };
        let (apex, left, right) = f.legs();
        let (index, corner) = match last {
            Some(FunnelEvent::Portal { index, corner, .. }) => (Some(*index), *corner),
            _ => (None, None),
        };
        let view = FunnelView {
            index,
            portals: f.portals().len(),
            apex,
            left,
            right,
            portal: index.and_then(|i| f.portals().get(i)).map(|&(l, r)| [l, r]),
            corner,
            done: f.is_done(),
        };
        serde_wasm_bindgen::to_value(&view).map_err(err)
    }

    /// The point the funnel adds to the path next, `[x, y]` in cells: the next corner the
    /// string bends at, or the goal when none is left (empty before the corridor is found
    /// and once the path is done). What the page's "next corner" quiz asks for.
    #[wasm_bindgen(js_name = nextCorner)]
    pub fn next_corner(&self) -> Vec<f64> {
        match &self.run {
            Some(Run::Mesh { funnel: Some(f), .. }) => f.next_corner().map_or_else(Vec::new, |p| p.to_vec()),
            _ => Vec::new(),
        }
    }

    /// The open list, best first, at most `limit` entries: node, g, h, f and parent.
    #[wasm_bindgen(js_name = openList)]
    pub fn open_list(&self, limit: u32) -> Result<JsValue, JsError> {
        let mut out: Vec<OpenView> = match &self.run {
            Some(Run::Mesh { search, .. }) => {
                let nodes = search.nodes();
                let goal = search.goal();
                let (_, goal_polygon) = search.end_polygons();
                (0..nodes.len() as u32)
                    .filter(|&p| nodes.state()[p as usize] == crate::CellState::Open as u8)
                    .map(|p| {
                        let g = nodes.g()[p as usize];
                        let h = if p == goal_polygon { 0.0 } else { distance(search.entries()[p as usize], goal) };
                        let parent = nodes.parent()[p as usize];
                        OpenView { node: p, g, h, f: g + h, parent: (parent != NO_PARENT).then_some(parent) }
                    })
                    .collect()
            }
            Some(Run::Corners(s)) => s
                .open_entries(usize::MAX)
                .into_iter()
                .map(|e| OpenView {
                    node: e.cell,
                    g: e.g,
                    h: e.h,
                    f: e.g + e.h,
                    parent: (e.parent != NO_PARENT).then_some(e.parent),
                })
                .collect(),
            None => Vec::new(),
        };
        out.sort_by(|a, b| a.f.total_cmp(&b.f).then(b.g.total_cmp(&a.g)));
        out.truncate(limit as usize);
        serde_wasm_bindgen::to_value(&out).map_err(err)
    }

    /// The exact any-angle optimum's length (the visibility graph's shortest path), none
    /// when there is no path or no search can run.
    #[wasm_bindgen(js_name = optimumLength)]
    pub fn optimum_length(&mut self) -> Option<f64> {
        self.optimum_now().map(|o| o.0)
    }

    /// The exact any-angle optimum's points, flat (empty when there is none).
    #[wasm_bindgen(js_name = optimumPath)]
    pub fn optimum_path(&mut self) -> Vec<f64> {
        self.optimum_now().map_or_else(Vec::new, |o| flat(&o.1))
    }

    /// Runs one method to the end for the compare table: `"grid-astar"` (A* over cell
    /// centres, the waypoints; octile estimate), `"corners"` (A* on the corner graph),
    /// `"navmesh"` (A* over the polygons, then the funnel) or `"visibility"` (the exact
    /// optimum). Returns `{ method, nodes, expanded, length, points }`; the page times the
    /// call. Fails naming the problem when the method cannot run here.
    pub fn solve(&self, method: &str) -> Result<JsValue, JsError> {
        let solved = self.solved(method).map_err(err)?;
        serde_wasm_bindgen::to_value(&solved).map_err(err)
    }
}

impl NavLab {
    /// [`solve`](Self::solve) without the trip to JavaScript: one method run to the end.
    pub fn solved(&self, method: &str) -> Result<Solved, String> {
        if let Some(why) = &self.problem {
            return Err(why.clone());
        }
        Ok(match method {
            "grid-astar" => {
                let (s, g) = (self.cell_of(self.start, self.goal), self.cell_of(self.goal, self.start));
                let mut config = SearchConfig::new(Algorithm::AStar);
                config.diagonal = self.diagonal;
                let mut search = Search::new(self.grid.clone(), s, g, config).map_err(text)?;
                Stepper::run(&mut search);
                let w = self.grid.width() as u32;
                let points: Vec<Xy> = Stepper::path_indices(&search)
                    .iter()
                    .map(|&i| [f64::from(i % w) + 0.5, f64::from(i / w) + 0.5])
                    .collect();
                Solved {
                    method: "grid-astar",
                    nodes: self.grid.cells().iter().filter(|&&c| c != WALL).count(),
                    expanded: Stepper::expanded(&search),
                    length: (!points.is_empty()).then(|| points.windows(2).map(|p| distance(p[0], p[1])).sum()),
                    points: flat(&points),
                }
            }
            "corners" => {
                let graph = self.visibility_graph()?;
                let corners = CornerGraph::between(graph, self.start, self.goal).map_err(text)?;
                let (s, g) = (corners.start_node(), corners.goal_node());
                let nodes = (0..corners.node_count() as u32).filter(|&n| corners.is_open(n)).count();
                let mut search = Search::on(corners, s, g, SearchConfig::new(Algorithm::AStar)).map_err(text)?;
                search.run();
                let points: Vec<f64> = search.path_indices().iter().flat_map(|&n| search.space().position(n)).collect();
                Solved { method: "corners", nodes, expanded: search.expanded(), length: search.cost(), points }
            }
            "navmesh" => {
                let mesh = match &self.mesh {
                    Some(m) => Arc::clone(m),
                    None => Arc::new(NavMesh::build_auto(&self.grid, self.diagonal).map_err(text)?),
                };
                let nodes = mesh.polygon_count();
                let mut search = NavmeshSearch::new(mesh, self.start.cells(), self.goal.cells()).map_err(text)?;
                search.run();
                let path = search.path();
                Solved {
                    method: "navmesh",
                    nodes,
                    expanded: search.expanded(),
                    length: path.as_ref().map(|p| p.length),
                    points: path.map_or_else(Vec::new, |p| flat(&p.points)),
                }
            }
            "visibility" => {
                let graph = self.visibility_graph()?;
                let found = graph.shortest_between(self.start, self.goal).map_err(text)?;
                Solved {
                    method: "visibility",
                    nodes: graph.vertex_count() + 2,
                    expanded: found.expanded,
                    length: found.cost,
                    points: found.points.iter().flat_map(|p| p.cells()).collect(),
                }
            }
            other => {
                return Err(format!("unknown method {other:?}; expected grid-astar, corners, navmesh or visibility"))
            }
        })
    }
}

/// A point in half cells from the page's `[x, y]`.
fn half(xy: &[i32], which: &str) -> Result<HalfPoint, JsError> {
    match xy {
        [x, y] => Ok(HalfPoint { x: i64::from(*x), y: i64::from(*y) }),
        _ => Err(err(format!("the {which} must be two numbers [x, y] in half cells, got {} numbers", xy.len()))),
    }
}

impl NavLab {
    /// Builds the mesh (navmesh) and the visibility graph for the current map, then starts
    /// the search again.
    fn rebuild(&mut self) {
        self.mesh = None;
        self.visibility = None;
        self.optimum_known = false;
        self.problem = None;
        if self.grid.cells().iter().all(|&c| c == WALL) {
            self.problem = Some("the map has no free cell: paint some ground (the Ground brush) to build on".into());
            self.run = None;
            return;
        }
        match self.kind {
            NavKind::Navmesh => match NavMesh::build_auto(&self.grid, self.diagonal) {
                Ok(m) => self.mesh = Some(Arc::new(m)),
                Err(e) => self.problem = Some(e.to_string()),
            },
            NavKind::Corners => match self.visibility_graph() {
                Ok(v) => self.visibility = Some(v),
                Err(e) => self.problem = Some(e),
            },
        }
        self.restart();
    }

    /// The visibility graph, built now if this lab has none yet.
    fn visibility_graph(&self) -> Result<Arc<VisibilityGraph>, String> {
        let cells = self.grid.len();
        if cells > MAX_VISIBILITY_CELLS {
            return Err(format!(
                "the map has {cells} cells; the visibility graph (corner view, exact optimum) is built for maps of at most \
                 {MAX_VISIBILITY_CELLS} cells (160 x 160)"
            ));
        }
        match &self.visibility {
            Some(v) => Ok(Arc::clone(v)),
            None => VisibilityGraph::new(&self.grid, self.diagonal).map(Arc::new).map_err(|e| e.to_string()),
        }
    }

    /// Sets up the search from step 0, or names why it cannot run.
    fn restart(&mut self) {
        self.run = None;
        let run = match (self.kind, &self.mesh, &self.visibility) {
            (NavKind::Navmesh, Some(mesh), _) => {
                let mesh = Arc::clone(mesh);
                self.check_ends_on_cells().and_then(|()| {
                    NavmeshSearch::new(mesh, self.start.cells(), self.goal.cells())
                        .map(|search| Run::Mesh { search, funnel: None, last: None })
                        .map_err(|e| e.to_string())
                })
            }
            (NavKind::Corners, _, Some(graph)) => CornerGraph::between(Arc::clone(graph), self.start, self.goal)
                .and_then(|c| {
                    let (s, g) = (c.start_node(), c.goal_node());
                    Search::on(c, s, g, SearchConfig::new(Algorithm::AStar))
                })
                .map(Run::Corners)
                .map_err(|e| e.to_string()),
            // Nothing was built: `rebuild` has said why.
            _ => return,
        };
        match run {
            Ok(r) => {
                self.run = Some(r);
                self.problem = None;
            }
            Err(why) => self.problem = Some(why),
        }
    }

    /// The visibility graph's rule for an end (a centre of an open cell, or a corner touching
    /// one), applied on the navmesh too so both views refuse the same ends with the same words.
    fn check_ends_on_cells(&self) -> Result<(), String> {
        let space = pathlab_core::search::visibility::FreeSpace::new(&self.grid, self.diagonal);
        for (which, p) in [("start", self.start), ("goal", self.goal)] {
            let (w, h) = (2 * space.width(), 2 * space.height());
            let (x, y) = (p.x.div_euclid(2), p.y.div_euclid(2));
            let [cx, cy] = p.cells();
            let why = if !(0..=w).contains(&p.x) || !(0..=h).contains(&p.y) {
                Some("is outside the map")
            } else if p.is_corner() {
                (!space.touches_open(x, y)).then_some("is a corner of walls only")
            } else if p.x % 2 == 0 || p.y % 2 == 0 {
                Some("is neither a cell centre nor a cell corner")
            } else {
                (!space.is_open(x, y)).then_some("is in a wall")
            };
            if let Some(why) = why {
                return Err(format!("the {which} ({cx}, {cy}) {why}"));
            }
        }
        Ok(())
    }

    /// The optimum, computed once per map and ends.
    fn optimum_now(&mut self) -> Option<&(f64, Vec<Xy>)> {
        if !self.optimum_known {
            if self.visibility.is_none() && self.problem.is_none() {
                self.visibility = self.visibility_graph().ok();
            }
            let found = self
                .visibility
                .as_ref()
                .filter(|_| self.problem.is_none())
                .and_then(|v| v.shortest_between(self.start, self.goal).ok())
                .and_then(|p| Some((p.cost?, p.points.iter().map(|q| q.cells()).collect())));
            self.optimum = found;
            self.optimum_known = true;
        }
        self.optimum.as_ref()
    }

    /// The open cell an end stands in or touches, nearest the other end (for grid A*).
    fn cell_of(&self, p: HalfPoint, other: HalfPoint) -> Point {
        let [ox, oy] = other.cells();
        let (x, y) = (p.x.div_euclid(2), p.y.div_euclid(2));
        let candidates: Vec<(i64, i64)> =
            if p.is_corner() { vec![(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)] } else { vec![(x, y)] };
        candidates
            .into_iter()
            .filter(|&(cx, cy)| {
                self.grid.contains(cx, cy) && self.grid.is_passable(Point::new(cx as usize, cy as usize))
            })
            .min_by(|a, b| {
                let d = |c: &(i64, i64)| (c.0 as f64 + 0.5 - ox).hypot(c.1 as f64 + 0.5 - oy);
                d(a).total_cmp(&d(b))
            })
            .map_or(Point::new(x.max(0) as usize, y.max(0) as usize), |(cx, cy)| Point::new(cx as usize, cy as usize))
    }
}

/// The exact any-angle optimum on a grid map, for the grid page's any-angle searches (Theta*,
/// Lazy Theta*, A* with smoothing): `[length, x0, y0, x1, y1, ...]` (points in cells) from
/// `start` to `goal` (half cells, as [`NavLab::new`]) under the `diagonal` rule, or an empty
/// list when no path joins them. Fails naming the problem on terrain (cells costing more than
/// 1), a map over [`MAX_VISIBILITY_CELLS`], or an end in a wall or off the map.
#[wasm_bindgen(js_name = anyAngleOptimum)]
pub fn any_angle_optimum(
    width: u32,
    height: u32,
    cells: &[u8],
    diagonal: &str,
    start: &[i32],
    goal: &[i32],
) -> Result<Vec<f64>, JsError> {
    if cells.iter().any(|&c| c > GROUND) {
        return Err(err("the exact any-angle optimum measures length only, and this map has terrain"));
    }
    let lab = NavLab::new("corners", width, height, cells, diagonal, start, goal)?;
    let solved = lab.solved("visibility").map_err(err)?;
    Ok(solved.length.map_or_else(Vec::new, |length| std::iter::once(length).chain(solved.points).collect()))
}
