//! Map generators for the page's editor: a maze by recursive backtracking, random fill, and
//! rectangular rooms joined by doors. Each is seeded ([`Pcg32`]), so the same seed and size
//! give the same grid, and each suggests a start and a goal on open cells.
//!
//! - [`maze`]: a *perfect* maze: passages one cell wide, every open cell reachable from every
//!   other by exactly one route (no loops). Cells sit at odd coordinates with walls between
//!   them; on an even width or height the last column or row stays wall.
//! - [`random_fill`]: every cell independently a wall with probability `density`. Nothing
//!   guarantees a path; the suggested ends lie in the largest 4-connected open region, so they
//!   are connected whenever that region has two cells or more.
//! - [`rooms`]: recursive division: a region is split by a wall with one door in it, and the
//!   two halves are split again until the rooms are small. Walls lie on odd columns or rows and
//!   doors on even ones, so no later wall blocks an earlier door, and every open cell is
//!   reachable from every other.

use std::fmt;

use crate::boids::rng::Pcg32;
use crate::grid::{named_enum, Grid, GridError, Point, GROUND, WALL};

named_enum! {
    /// Which generator to run.
    ///
    /// ```
    /// use pathlab_core::generate::Generator;
    /// assert_eq!("rooms".parse::<Generator>().unwrap(), Generator::Rooms);
    /// assert!("caves".parse::<Generator>().is_err());
    /// ```
    Generator, "generator" {
        /// A perfect maze by recursive backtracking.
        Maze = 0, "maze";
        /// Walls scattered at random with a given density.
        Random = 1, "random";
        /// Rectangular rooms joined by doors (recursive division).
        Rooms = 2, "rooms";
    }
}

/// A generated map with the start and goal the generator suggests (both open, different).
///
/// ```
/// use pathlab_core::generate::{generate, Generator};
/// let map = generate(Generator::Maze, 21, 15, 7, 0.0).unwrap();
/// assert_eq!((map.grid.width(), map.grid.height()), (21, 15));
/// assert!(map.grid.is_passable(map.start) && map.grid.is_passable(map.goal));
/// assert_eq!(map, generate(Generator::Maze, 21, 15, 7, 0.0).unwrap());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The cells: walls and ground only.
    pub grid: Grid,
    /// A suggested start.
    pub start: Point,
    /// A suggested goal.
    pub goal: Point,
}

/// Why a map could not be generated.
#[derive(Clone, Debug, PartialEq)]
pub enum GenerateError {
    /// The size is not a valid grid size.
    Grid(GridError),
    /// The size is valid but too small for this generator.
    TooSmall {
        /// The generator asked for.
        generator: Generator,
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
        /// What the generator needs, in words.
        needs: &'static str,
    },
    /// A density outside 0 to 1 (or not a number).
    Density(f64),
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Grid(e) => e.fmt(f),
            Self::TooSmall { generator, width, height, needs } => {
                write!(f, "a {generator} cannot be made on a {width}x{height} grid: it needs {needs}")
            }
            Self::Density(d) => write!(f, "the wall density must be a number from 0 to 1, got {d}"),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<GridError> for GenerateError {
    fn from(e: GridError) -> Self {
        Self::Grid(e)
    }
}

/// Runs the generator `kind` on a `width` x `height` grid. `density` is used by
/// [`Generator::Random`] only (and checked only there).
pub fn generate(
    kind: Generator,
    width: usize,
    height: usize,
    seed: u64,
    density: f64,
) -> Result<Generated, GenerateError> {
    match kind {
        Generator::Maze => maze(width, height, seed),
        Generator::Random => random_fill(width, height, seed, density),
        Generator::Rooms => rooms(width, height, seed),
    }
}

/// A perfect maze by recursive backtracking (a depth-first walk that carves a passage to a
/// random unvisited neighbour, and backs up when there is none), run with an explicit stack so
/// that a 2048 x 2048 maze needs no deep recursion. Start at (1, 1), goal at the last cell of
/// the bottom-right corner. Needs at least 3 x 3 and room for two cells (5 x 3 or 3 x 5).
pub fn maze(width: usize, height: usize, seed: u64) -> Result<Generated, GenerateError> {
    Grid::check_size(width, height)?;
    // Maze cells at odd coordinates 1, 3, ...: `cw` x `ch` of them.
    let (cw, ch) = ((width.saturating_sub(1)) / 2, (height.saturating_sub(1)) / 2);
    if cw == 0 || ch == 0 || cw * ch < 2 {
        return Err(GenerateError::TooSmall {
            generator: Generator::Maze,
            width,
            height,
            needs: "at least 5 x 3 or 3 x 5 cells",
        });
    }
    let mut cells = vec![WALL; width * height];
    let at = |cx: usize, cy: usize| (2 * cy + 1) * width + 2 * cx + 1;
    let mut rng = Pcg32::new(seed);
    let mut visited = vec![false; cw * ch];
    let mut stack = vec![(0usize, 0usize)];
    visited[0] = true;
    cells[at(0, 0)] = GROUND;
    let mut choices = [(0usize, 0usize); 4];
    while let Some(&(cx, cy)) = stack.last() {
        let mut n = 0;
        // North, east, south, west.
        if cy > 0 && !visited[(cy - 1) * cw + cx] {
            choices[n] = (cx, cy - 1);
            n += 1;
        }
        if cx + 1 < cw && !visited[cy * cw + cx + 1] {
            choices[n] = (cx + 1, cy);
            n += 1;
        }
        if cy + 1 < ch && !visited[(cy + 1) * cw + cx] {
            choices[n] = (cx, cy + 1);
            n += 1;
        }
        if cx > 0 && !visited[cy * cw + cx - 1] {
            choices[n] = (cx - 1, cy);
            n += 1;
        }
        if n == 0 {
            stack.pop();
            continue;
        }
        let (nx, ny) = choices[rng.below(n as u32) as usize];
        visited[ny * cw + nx] = true;
        // The wall cell between the two maze cells becomes a passage.
        cells[(cy + ny + 1) * width + cx + nx + 1] = GROUND;
        cells[at(nx, ny)] = GROUND;
        stack.push((nx, ny));
    }
    let grid = Grid::from_cells(width, height, cells)?;
    Ok(Generated { grid, start: Point::new(1, 1), goal: Point::new(2 * cw - 1, 2 * ch - 1) })
}

/// Refuses a grid of fewer than two cells, where `generator` has no room for a start and a
/// goal apart.
fn two_cells_at_least(generator: Generator, width: usize, height: usize) -> Result<(), GenerateError> {
    if width * height < 2 {
        return Err(GenerateError::TooSmall { generator, width, height, needs: "at least two cells" });
    }
    Ok(())
}

/// Walls scattered at random: each cell is a wall with probability `density` (0 to 1). The
/// suggested start is the cell of the largest 4-connected open region nearest the top-left
/// corner, the goal the one nearest the bottom-right. When that region has fewer than two
/// cells, the two corners are opened and used instead. Needs at least two cells.
pub fn random_fill(width: usize, height: usize, seed: u64, density: f64) -> Result<Generated, GenerateError> {
    Grid::check_size(width, height)?;
    if !(0.0..=1.0).contains(&density) {
        return Err(GenerateError::Density(density));
    }
    two_cells_at_least(Generator::Random, width, height)?;
    let mut rng = Pcg32::new(seed);
    let mut cells: Vec<u8> =
        (0..width * height).map(|_| if f64::from(rng.unit()) < density { WALL } else { GROUND }).collect();
    let region = largest_region(width, height, &cells);
    let (start, goal) = if region.len() >= 2 {
        let key = |&&i: &&usize| (i % width + i / width, i / width, i % width);
        let first = region.iter().min_by_key(key).copied().unwrap_or(0);
        let last = region.iter().max_by_key(key).copied().unwrap_or(0);
        (first, last)
    } else {
        (0, width * height - 1)
    };
    cells[start] = GROUND;
    cells[goal] = GROUND;
    let grid = Grid::from_cells(width, height, cells)?;
    let (start, goal) = (grid.point_at(start), grid.point_at(goal));
    Ok(Generated { grid, start, goal })
}

/// The cell indices (row-major) of the largest 4-connected region of open cells of a
/// `width` x `height` grid of `cells`, in the order a breadth-first flood from its first cell
/// reaches them; on a tie, the region whose first cell comes first. Empty when every cell is
/// a wall.
///
/// ```
/// use pathlab_core::generate::largest_region;
/// // Two regions: {0, 1} and {3, 4, 5}, split by the wall at 2.
/// let mut region = largest_region(6, 1, &[1, 1, 0, 1, 1, 1]);
/// region.sort_unstable();
/// assert_eq!(region, vec![3, 4, 5]);
/// ```
pub fn largest_region(width: usize, height: usize, cells: &[u8]) -> Vec<usize> {
    let mut seen = vec![false; cells.len()];
    let mut best = Vec::new();
    let mut queue = Vec::new();
    for first in 0..cells.len() {
        if seen[first] || cells[first] == WALL {
            continue;
        }
        seen[first] = true;
        queue.clear();
        queue.push(first);
        let mut head = 0;
        while head < queue.len() {
            let i = queue[head];
            head += 1;
            let (x, y) = (i % width, i / width);
            let mut visit = |j: usize| {
                if !seen[j] && cells[j] != WALL {
                    seen[j] = true;
                    queue.push(j);
                }
            };
            if y > 0 {
                visit(i - width);
            }
            if x + 1 < width {
                visit(i + 1);
            }
            if y + 1 < height {
                visit(i + width);
            }
            if x > 0 {
                visit(i - 1);
            }
        }
        if queue.len() > best.len() {
            best.clone_from(&queue);
        }
    }
    best
}

/// The smallest side of a room, in cells.
const MIN_ROOM: usize = 3;
/// Regions whose longer side is at most this may stop dividing early, so room sizes vary.
const SMALL_ROOM: usize = 12;

/// Rectangular rooms joined by doors, by recursive division: each region is split by a wall
/// across it on an odd column or row, with a one-cell door at an even position, and each half
/// is divided again until its sides are below `2 * 3 + 1` cells (or, at random, once it is at
/// most 12 cells across). Start at the top-left corner, goal at the bottom-right one; both are
/// always open. Needs at least two cells.
pub fn rooms(width: usize, height: usize, seed: u64) -> Result<Generated, GenerateError> {
    Grid::check_size(width, height)?;
    two_cells_at_least(Generator::Rooms, width, height)?;
    let mut grid = Grid::new(width, height)?;
    let mut rng = Pcg32::new(seed);
    // Regions as inclusive cell ranges; their first column and row are always even.
    let mut regions = vec![(0usize, 0usize, width - 1, height - 1)];
    while let Some((x0, y0, x1, y1)) = regions.pop() {
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
        // Odd wall positions leaving at least MIN_ROOM cells on both sides.
        let walls = |lo: usize, hi: usize| -> Vec<usize> {
            ((lo + MIN_ROOM)..=hi.saturating_sub(MIN_ROOM)).filter(|v| v % 2 == 1).collect()
        };
        let columns = walls(x0, x1);
        let rows = walls(y0, y1);
        if columns.is_empty() && rows.is_empty() {
            continue;
        }
        if w.max(h) <= SMALL_ROOM && rng.below(3) == 0 {
            continue;
        }
        let vertical = match (columns.is_empty(), rows.is_empty()) {
            (false, true) => true,
            (true, false) => false,
            _ if w != h => w > h,
            _ => rng.below(2) == 0,
        };
        if vertical {
            let x = columns[rng.below(columns.len() as u32) as usize];
            let door = even_between(&mut rng, y0, y1);
            for y in (y0..=y1).filter(|&y| y != door) {
                grid.set(Point::new(x, y), WALL)?;
            }
            regions.push((x0, y0, x - 1, y1));
            regions.push((x + 1, y0, x1, y1));
        } else {
            let y = rows[rng.below(rows.len() as u32) as usize];
            let door = even_between(&mut rng, x0, x1);
            for x in (x0..=x1).filter(|&x| x != door) {
                grid.set(Point::new(x, y), WALL)?;
            }
            regions.push((x0, y0, x1, y - 1));
            regions.push((x0, y + 1, x1, y1));
        }
    }
    Ok(Generated { grid, start: Point::new(0, 0), goal: Point::new(width - 1, height - 1) })
}

/// A random even number from `lo` (even) to `hi`.
fn even_between(rng: &mut Pcg32, lo: usize, hi: usize) -> usize {
    let count = (hi - lo) / 2 + 1;
    lo + 2 * rng.below(count as u32) as usize
}
