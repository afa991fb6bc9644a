//! A uniform spatial grid for neighbour queries, rebuilt from scratch every step by a
//! counting sort.
//!
//! Rebuilding is O(n + cells): count the points per cell, turn the counts into start
//! offsets, then drop each point into its cell's slot. The points' positions and velocities
//! are copied in cell order, one array per coordinate ([`Columns`]), so a query walks
//! contiguous memory, four slots at a time if it likes; and because cells are numbered row by
//! row, the cells of one row of a query rectangle form one contiguous run.
//! A query of radius r over cells of side c visits (2r/c + 2)^2 cells at most.
//!
//! ```
//! use pathlab_core::boids::{SpatialGrid, Vec2};
//! let xs = [1.0, 2.0, 9.0];
//! let ys = [1.0, 1.5, 9.0];
//! let mut grid = SpatialGrid::new(10.0, 10.0, 2.0);
//! grid.rebuild(&xs, &ys, &[0.0; 3], &[0.0; 3], 0..3);
//! let mut found = Vec::new();
//! grid.for_each_within(Vec2::new(1.0, 1.0), 1.5, |e| {
//!     found.push(e.id);
//!     true
//! });
//! found.sort();
//! assert_eq!(found, vec![0, 1]);
//! ```

use std::ops::Range;

use super::lanes::LANES;
use super::Vec2;

/// One point found by a query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The point's index in the arrays given to [`SpatialGrid::rebuild`].
    pub id: u32,
    /// Its position.
    pub pos: Vec2,
    /// Its velocity.
    pub vel: Vec2,
    /// Squared distance from the query centre.
    pub dist_sq: f32,
}

/// A uniform grid of square cells over a `width` x `height` rectangle from the origin.
/// Points outside the rectangle are filed in the nearest edge cell, so nothing is lost.
#[derive(Clone, Debug, Default)]
pub struct SpatialGrid {
    cell: f32,
    inv_cell: f32,
    cols: usize,
    rows: usize,
    /// `starts[c]..starts[c + 1]` are the slots of cell `c`.
    starts: Vec<u32>,
    ids: Vec<u32>,
    /// Position and velocity of each slot, followed by `LANES - 1` zeros of padding.
    xs: Vec<f32>,
    ys: Vec<f32>,
    vxs: Vec<f32>,
    vys: Vec<f32>,
    /// Scratch: each point's cell, from the counting pass.
    cell_of: Vec<u32>,
}

/// The positions and velocities of a grid's slots in cell order, one array each. Each array
/// has [`LANES`]` - 1` entries of padding after the last slot, so that four lanes starting at
/// any slot can be read.
#[derive(Clone, Copy, Debug)]
pub struct Columns<'a> {
    /// x of each slot.
    pub xs: &'a [f32],
    /// y of each slot.
    pub ys: &'a [f32],
    /// x velocity of each slot.
    pub vxs: &'a [f32],
    /// y velocity of each slot.
    pub vys: &'a [f32],
}

/// The most cells along one side: a cell size too small for the area is raised to keep the
/// grid at most this many cells wide and high (so memory stays bounded whatever the radii).
pub const MAX_CELLS_PER_SIDE: usize = 1024;

impl SpatialGrid {
    /// An empty grid over `width` x `height` with cells of side `cell` (raised if needed so
    /// that neither side has more than [`MAX_CELLS_PER_SIDE`] cells; non-finite or
    /// non-positive sizes are treated as 1).
    pub fn new(width: f32, height: f32, cell: f32) -> Self {
        let mut grid = Self::default();
        grid.resize(width, height, cell);
        grid
    }

    /// Changes the area and cell size; the grid is empty until the next rebuild.
    pub fn resize(&mut self, width: f32, height: f32, cell: f32) {
        let fix = |v: f32| if v.is_finite() && v > 0.0 { v } else { 1.0 };
        let (width, height) = (fix(width), fix(height));
        let cell = fix(cell).max(width / MAX_CELLS_PER_SIDE as f32).max(height / MAX_CELLS_PER_SIDE as f32);
        self.cell = cell;
        self.inv_cell = 1.0 / cell;
        self.cols = ((width / cell).ceil() as usize).clamp(1, MAX_CELLS_PER_SIDE);
        self.rows = ((height / cell).ceil() as usize).clamp(1, MAX_CELLS_PER_SIDE);
        self.starts.clear();
        self.starts.resize(self.cols * self.rows + 1, 0);
        self.ids.clear();
    }

    /// The side of a cell.
    pub fn cell(&self) -> f32 {
        self.cell
    }

    /// Columns and rows.
    pub fn dims(&self) -> (usize, usize) {
        (self.cols, self.rows)
    }

    /// The indices of the filed points in cell order (cells row by row): visiting points in
    /// this order keeps each query's memory close to the previous one's.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// Points filed at the last rebuild.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when no point is filed.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    #[inline]
    fn col(&self, x: f32) -> usize {
        // `as` saturates: NaN and negatives become 0, huge values the last column.
        ((x * self.inv_cell) as usize).min(self.cols - 1)
    }

    #[inline]
    fn row(&self, y: f32) -> usize {
        ((y * self.inv_cell) as usize).min(self.rows - 1)
    }

    /// Files the points `members` (indices into the arrays) by a counting sort.
    pub fn rebuild(
        &mut self,
        xs: &[f32],
        ys: &[f32],
        vxs: &[f32],
        vys: &[f32],
        members: impl Iterator<Item = usize> + Clone,
    ) {
        let cells = self.cols * self.rows;
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        self.cell_of.clear();
        // 1. Count the points in each cell (shifted by one, ready for the prefix sum).
        for i in members.clone() {
            let c = self.row(ys[i]) * self.cols + self.col(xs[i]);
            self.cell_of.push(c as u32);
            self.starts[c + 1] += 1;
        }
        // 2. Prefix sum: starts[c] is where cell c's slots begin.
        for c in 0..cells {
            self.starts[c + 1] += self.starts[c];
        }
        let n = self.cell_of.len();
        self.ids.resize(n, 0);
        for column in [&mut self.xs, &mut self.ys, &mut self.vxs, &mut self.vys] {
            column.clear();
            column.resize(n + LANES - 1, 0.0);
        }
        // 3. Scatter, using starts[c] as the cursor of cell c; afterwards starts[c] has moved
        //    to where cell c + 1 begins, so shift everything back by one.
        for (k, i) in members.enumerate() {
            let c = self.cell_of[k] as usize;
            let slot = self.starts[c] as usize;
            self.starts[c] += 1;
            self.ids[slot] = i as u32;
            self.xs[slot] = xs[i];
            self.ys[slot] = ys[i];
            self.vxs[slot] = vxs[i];
            self.vys[slot] = vys[i];
        }
        for c in (1..=cells).rev() {
            self.starts[c] = self.starts[c - 1];
        }
        self.starts[0] = 0;
    }

    /// Calls `visit` with every filed point within `radius` of `centre` (distance <= radius),
    /// in cell order, until `visit` returns false.
    #[inline]
    pub fn for_each_within(&self, centre: Vec2, radius: f32, mut visit: impl FnMut(Entry) -> bool) {
        let r2 = radius * radius;
        for run in self.runs_within(centre, radius) {
            for slot in run {
                let (x, y) = (self.xs[slot], self.ys[slot]);
                let dx = x - centre.x;
                let dy = y - centre.y;
                let d2 = dx * dx + dy * dy;
                if d2 <= r2 {
                    let vel = Vec2::new(self.vxs[slot], self.vys[slot]);
                    let entry = Entry { id: self.ids[slot], pos: Vec2::new(x, y), vel, dist_sq: d2 };
                    if !visit(entry) {
                        return;
                    }
                }
            }
        }
    }

    /// The slots a query of `radius` round `centre` has to look at, as one run of slots per
    /// row of cells the query's bounding square covers (the cells of a row are numbered in
    /// turn, so their slots are contiguous). Every filed point within `radius` is in a run;
    /// so are some further away, which the caller tests. Read the slots with
    /// [`SpatialGrid::columns`] and [`SpatialGrid::ids`].
    #[inline]
    pub fn runs_within(&self, centre: Vec2, radius: f32) -> impl Iterator<Item = Range<usize>> + '_ {
        let valid = !self.ids.is_empty() && radius >= 0.0;
        let (c0, c1) = (self.col(centre.x - radius), self.col(centre.x + radius));
        let (r0, r1) = (self.row(centre.y - radius), self.row(centre.y + radius));
        let rows = if valid { r0..r1 + 1 } else { 0..0 };
        rows.map(move |row| {
            let base = row * self.cols;
            self.starts[base + c0] as usize..self.starts[base + c1 + 1] as usize
        })
    }

    /// Positions and velocities of the slots, padded for reading four at a time.
    pub fn columns(&self) -> Columns<'_> {
        Columns { xs: &self.xs, ys: &self.ys, vxs: &self.vxs, vys: &self.vys }
    }

    /// Writes to the front of `out` the slot (position in cell order, see
    /// [`SpatialGrid::slot`]) and squared distance of every filed point within `radius` of
    /// `centre`, in cell order, and returns how many there are. `out` is a scratch buffer: it
    /// only ever grows, and entries past the count are left over from earlier queries.
    ///
    /// Written without a branch on each point's distance: every candidate is stored and the
    /// count only advances for the ones inside, which a crowd (where about half the candidates
    /// fall inside) runs much faster than a data-dependent branch.
    #[inline]
    pub fn slots_within(&self, centre: Vec2, radius: f32, out: &mut Vec<(u32, f32)>) -> usize {
        let r2 = radius * radius;
        let mut kept = 0;
        for run in self.runs_within(centre, radius) {
            if out.len() < kept + run.len() {
                out.resize(kept + run.len(), (0, 0.0));
            }
            let room = &mut out[kept..kept + run.len()];
            let mut k_in = 0;
            for (k, (&x, &y)) in self.xs[run.clone()].iter().zip(&self.ys[run.clone()]).enumerate() {
                let dx = x - centre.x;
                let dy = y - centre.y;
                let d2 = dx * dx + dy * dy;
                room[k_in] = ((run.start + k) as u32, d2);
                k_in += usize::from(d2 <= r2);
            }
            kept += k_in;
        }
        kept
    }

    /// The point filed at `slot` (from [`SpatialGrid::slots_within`]): its index, position and
    /// velocity.
    #[inline]
    pub fn slot(&self, slot: u32) -> (u32, Vec2, Vec2) {
        let s = slot as usize;
        (self.ids[s], Vec2::new(self.xs[s], self.ys[s]), Vec2::new(self.vxs[s], self.vys[s]))
    }

    /// The filed point nearest to `centre` within `radius` for which `accept` holds.
    pub fn nearest_within(&self, centre: Vec2, radius: f32, mut accept: impl FnMut(u32) -> bool) -> Option<Entry> {
        let mut best: Option<Entry> = None;
        self.for_each_within(centre, radius, |e| {
            let better = match best {
                None => true,
                Some(b) => e.dist_sq < b.dist_sq || (e.dist_sq == b.dist_sq && e.id < b.id),
            };
            if better && accept(e.id) {
                best = Some(e);
            }
            true
        });
        best
    }
}

/// The reference the grid is tested and benchmarked against: the indices among `members`
/// within `radius` of `centre`, by looking at every one (O(n) per query, O(n^2) per step).
pub fn brute_force_within(
    xs: &[f32],
    ys: &[f32],
    members: impl Iterator<Item = usize>,
    centre: Vec2,
    radius: f32,
) -> Vec<u32> {
    let r2 = radius * radius;
    members
        .filter(|&i| {
            let dx = xs[i] - centre.x;
            let dy = ys[i] - centre.y;
            dx * dx + dy * dy <= r2
        })
        .map(|i| i as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_degenerate_grids_answer_nothing_without_panicking() {
        let mut g = SpatialGrid::new(f32::NAN, -1.0, 0.0);
        let mut hits = 0;
        g.for_each_within(Vec2::new(0.5, 0.5), 3.0, |_| {
            hits += 1;
            true
        });
        assert_eq!(hits, 0);
        g.rebuild(&[0.5, f32::NAN], &[0.5, 1e9], &[0.0; 2], &[0.0; 2], 0..2);
        g.for_each_within(Vec2::new(0.5, 0.5), 3.0, |e| {
            assert_eq!(e.id, 0);
            hits += 1;
            true
        });
        assert_eq!(hits, 1);
        g.for_each_within(Vec2::new(0.5, 0.5), f32::NAN, |_| panic!("NaN radius"));
    }

    #[test]
    fn cells_are_capped() {
        let g = SpatialGrid::new(1e6, 10.0, 0.001);
        assert!(g.dims().0 <= MAX_CELLS_PER_SIDE);
    }
}
