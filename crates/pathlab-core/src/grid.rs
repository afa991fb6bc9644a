//! The grid: a flat row-major array of one byte per cell, and the rules for moving on it.

use std::fmt;
use std::str::FromStr;

/// A cell value that blocks movement.
pub const WALL: u8 = 0;
/// A cell value for ordinary ground: entering it costs one move.
pub const GROUND: u8 = 1;
/// The largest width or height a grid may have.
///
/// The largest MovingAI maps are 1024x1024; the limit leaves room above that while keeping
/// the per-cell search buffers of a browser tab well under 100 MB.
pub const MAX_SIDE: usize = 2048;

/// A cell position: `x` is the column and `y` the row, both 0-based from the top-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0-based from the left.
    pub x: usize,
    /// Row, 0-based from the top.
    pub y: usize,
}

impl Point {
    /// Makes a point from a column and a row.
    #[inline]
    pub const fn new(x: usize, y: usize) -> Self {
        Self { x, y }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// Why a grid could not be made or changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// Width or height is zero.
    Empty {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// Width or height is over [`MAX_SIDE`].
    TooLarge {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// The cell slice does not hold `width * height` values.
    WrongCellCount {
        /// `width * height`.
        expected: usize,
        /// Cells given.
        found: usize,
    },
    /// A position outside the grid.
    OutOfBounds {
        /// Column asked for.
        x: i64,
        /// Row asked for.
        y: i64,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty { width, height } => {
                write!(f, "a grid of {width}x{height} has no cells")
            }
            Self::TooLarge { width, height } => {
                write!(f, "a grid of {width}x{height} is over the limit of {MAX_SIDE}x{MAX_SIDE}")
            }
            Self::WrongCellCount { expected, found } => {
                write!(f, "expected {expected} cells, found {found}")
            }
            Self::OutOfBounds { x, y, width, height } => {
                let (last_x, last_y) = (width.saturating_sub(1), height.saturating_sub(1));
                write!(f, "({x},{y}) is outside the {width}x{height} grid (x must be from 0 to {last_x}, y from 0 to {last_y})")
            }
        }
    }
}

impl std::error::Error for GridError {}

/// A rectangular grid of cells. `0` is a wall, `1` ordinary ground, and larger values are
/// terrain costs: entering a cell of value `t` costs `t` times the length of the move.
///
/// ```
/// use pathlab_core::grid::{Grid, Point, WALL};
/// let mut grid = Grid::new(3, 2).unwrap();
/// grid.set(Point::new(1, 0), WALL).unwrap();
/// assert!(!grid.is_passable(Point::new(1, 0)));
/// assert_eq!(grid.cells(), &[1, 0, 1, 1, 1, 1]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    height: usize,
    cells: Vec<u8>,
    /// For each cell, which of its eight neighbours lie inside the grid and are not walls: bit
    /// `k` for move `k` of N, E, S, W, NE, SE, SW, NW. Kept by [`set`](Self::set), so that a
    /// search finds a cell's moves with one load instead of eight tests at the edges.
    around: Vec<u8>,
    /// How many cells carry a terrain cost (a value above [`GROUND`]).
    weighted: usize,
}

/// Column and row steps of the eight moves, in the order N, E, S, W, NE, SE, SW, NW.
const MOVES: [(isize, isize); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

impl Grid {
    /// Checks that a grid of this size may be made.
    pub fn check_size(width: usize, height: usize) -> Result<(), GridError> {
        if width == 0 || height == 0 {
            return Err(GridError::Empty { width, height });
        }
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(GridError::TooLarge { width, height });
        }
        Ok(())
    }

    /// A grid of open ground.
    pub fn new(width: usize, height: usize) -> Result<Self, GridError> {
        Self::check_size(width, height)?;
        Ok(Self::with_cells(width, height, vec![GROUND; width * height]))
    }

    /// A grid of checked size and cell count, its neighbour bits worked out.
    fn with_cells(width: usize, height: usize, cells: Vec<u8>) -> Self {
        let weighted = cells.iter().filter(|&&c| c > GROUND).count();
        let mut grid = Self { width, height, around: vec![0; cells.len()], cells, weighted };
        for y in 0..height {
            for x in 0..width {
                let i = y * width + x;
                grid.around[i] = grid.open_around(x, y);
            }
        }
        grid
    }

    /// The neighbour bits of the cell at `(x, y)` (see `around`), from the cells.
    fn open_around(&self, x: usize, y: usize) -> u8 {
        MOVES.iter().enumerate().fold(0, |bits, (k, &(dx, dy))| {
            let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
            let open = nx < self.width && ny < self.height && self.cells[ny * self.width + nx] != WALL;
            bits | u8::from(open) << k
        })
    }

    /// A grid from row-major cell values.
    pub fn from_cells(width: usize, height: usize, cells: Vec<u8>) -> Result<Self, GridError> {
        Self::check_size(width, height)?;
        if cells.len() != width * height {
            return Err(GridError::WrongCellCount { expected: width * height, found: cells.len() });
        }
        Ok(Self::with_cells(width, height, cells))
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false: a grid has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The row-major cell values.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// True when some cell carries a terrain cost (a value above [`GROUND`]); without any, a
    /// move costs the same wherever it lands.
    ///
    /// ```
    /// use pathlab_core::grid::{Grid, Point, GROUND};
    /// let mut grid = Grid::new(3, 3).unwrap();
    /// assert!(!grid.has_terrain());
    /// grid.set(Point::new(1, 1), 5).unwrap();
    /// assert!(grid.has_terrain());
    /// grid.set(Point::new(1, 1), GROUND).unwrap();
    /// assert!(!grid.has_terrain());
    /// ```
    #[inline]
    pub fn has_terrain(&self) -> bool {
        self.weighted > 0
    }

    /// True when `(x, y)` lies inside the grid.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    /// Checks that `(x, y)` lies inside the grid and returns it as a point; outside, the error
    /// names the grid and the ranges of the cells it has.
    ///
    /// ```
    /// use pathlab_core::grid::{Grid, Point};
    /// let grid = Grid::new(20, 12).unwrap();
    /// assert_eq!(grid.point(19, 11).unwrap(), Point::new(19, 11));
    /// let wrong = grid.point(20, 3).unwrap_err().to_string();
    /// assert_eq!(wrong, "(20,3) is outside the 20x12 grid (x must be from 0 to 19, y from 0 to 11)");
    /// ```
    pub fn point(&self, x: i64, y: i64) -> Result<Point, GridError> {
        if self.contains(x, y) {
            Ok(Point::new(x as usize, y as usize))
        } else {
            Err(GridError::OutOfBounds { x, y, width: self.width, height: self.height })
        }
    }

    /// Row-major index of a point (which must be inside the grid).
    #[inline]
    pub fn index(&self, p: Point) -> usize {
        debug_assert!(p.x < self.width && p.y < self.height);
        p.y * self.width + p.x
    }

    /// The point at a row-major index.
    #[inline]
    pub fn point_at(&self, index: usize) -> Point {
        Point::new(index % self.width, index / self.width)
    }

    /// The value of a cell, or `None` outside the grid.
    pub fn get(&self, p: Point) -> Option<u8> {
        (p.x < self.width && p.y < self.height).then(|| self.cells[self.index(p)])
    }

    /// True when the cell is inside the grid and not a wall.
    pub fn is_passable(&self, p: Point) -> bool {
        self.get(p).is_some_and(|c| c != WALL)
    }

    /// Sets a cell's value.
    pub fn set(&mut self, p: Point, value: u8) -> Result<(), GridError> {
        let i = self.point(p.x as i64, p.y as i64)?;
        let i = self.index(i);
        let (was_open, was_weighted) = (self.cells[i] != WALL, self.cells[i] > GROUND);
        self.cells[i] = value;
        self.weighted = self.weighted + usize::from(value > GROUND) - usize::from(was_weighted);
        if was_open != (value != WALL) {
            // Move k from p lands on q; seen from q, p is move k's opposite: (k + 2) % 4 for
            // the straight moves, 4 + (k + 2) % 4 for the diagonal ones.
            for (k, &(dx, dy)) in MOVES.iter().enumerate() {
                let (nx, ny) = (p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
                if nx < self.width && ny < self.height {
                    let back = (k & 4) | ((k + 2) & 3);
                    let q = ny * self.width + nx;
                    self.around[q] = (self.around[q] & !(1 << back)) | u8::from(value != WALL) << back;
                }
            }
        }
        Ok(())
    }

    /// Calls `visit(neighbour_index, diagonal)` for every cell reachable in one move from
    /// `index` under `rule`, in the documented order: N, E, S, W, then NE, SE, SW, NW.
    #[inline]
    pub fn for_each_neighbour(&self, index: usize, rule: Diagonal, mut visit: impl FnMut(usize, bool)) {
        let p = self.point_at(index);
        self.for_each_neighbour_of(p, rule, |nb, _, diagonal| visit(nb, diagonal));
    }

    /// Calls `visit(neighbour_index, neighbour, diagonal)` for every cell reachable in one
    /// move from `p` (which must be inside the grid) under `rule`, in the same order as
    /// [`for_each_neighbour`](Self::for_each_neighbour). Knowing the cell's column and row
    /// spares a division per call; the searches use it to give each neighbour's estimate.
    // Inlined so that `visit`, the search's inner loop, is inlined into it: measured 10%
    // faster A* on the MovingAI maps than a call per neighbour.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn for_each_neighbour_of(&self, p: Point, rule: Diagonal, visit: impl FnMut(usize, Point, bool)) {
        self.for_each_neighbour_in(p, rule, NeighbourOrder::NESW, visit);
    }

    /// As [`for_each_neighbour_of`](Self::for_each_neighbour_of), with the four straight
    /// neighbours tried in `order`; the diagonal ones follow them, always in the order NE, SE,
    /// SW, NW.
    ///
    /// ```
    /// use pathlab_core::grid::{Diagonal, Grid, NeighbourOrder, Point};
    /// let grid = Grid::new(3, 3).unwrap();
    /// let mut seen = Vec::new();
    /// let order: NeighbourOrder = "wsen".parse().unwrap();
    /// grid.for_each_neighbour_in(Point::new(1, 1), Diagonal::Never, order, |_, p, _| seen.push((p.x, p.y)));
    /// assert_eq!(seen, [(0, 1), (1, 2), (2, 1), (1, 0)]);
    /// ```
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn for_each_neighbour_in(
        &self,
        p: Point,
        rule: Diagonal,
        order: NeighbourOrder,
        mut visit: impl FnMut(usize, Point, bool),
    ) {
        let w = self.width as isize;
        let Point { x, y } = p;
        let index = y * self.width + x;
        // The legal moves as bits in the order they are tried, then one visit per set bit: no
        // test per move, and one call site keeps `visit` inlined.
        let mut legal = rule.legal_moves(self.around[index]);
        if order != NeighbourOrder::NESW {
            let straight = order.0.iter().enumerate().fold(0, |bits, (slot, &k)| bits | ((legal >> k) & 1) << slot);
            legal = (legal & 0xF0) | straight;
        }
        let moves = order.moves();
        while legal != 0 {
            let slot = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            let (dx, dy) = MOVES[moves[slot]];
            let nb = index.wrapping_add_signed(dx + dy * w);
            visit(nb, Point::new(x.wrapping_add_signed(dx), y.wrapping_add_signed(dy)), slot >= 4);
        }
    }

    /// True when one move from `a` to `b` is legal under `rule` (both passable, adjacent, and
    /// for a diagonal move the rule allows it).
    pub fn is_legal_move(&self, a: Point, b: Point, rule: Diagonal) -> bool {
        if !self.is_passable(a) || !self.is_passable(b) {
            return false;
        }
        let dx = b.x as i64 - a.x as i64;
        let dy = b.y as i64 - a.y as i64;
        match (dx.abs(), dy.abs()) {
            (1, 0) | (0, 1) => true,
            (1, 1) => {
                let side_x = self.is_passable(Point::new(b.x, a.y));
                let side_y = self.is_passable(Point::new(a.x, b.y));
                rule != Diagonal::Never && rule.allows(side_x, side_y)
            }
            _ => false,
        }
    }
}

/// Declares a `#[repr(u8)]` enum with kebab-case names for the URL, the CLI and the page.
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident, $what:literal { $($(#[$vmeta:meta])* $variant:ident = $value:literal, $text:literal;)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum $name {
            $($(#[$vmeta])* $variant = $value,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];

            /// The name used in URLs, the CLI and the page.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)+
                }
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::grid::UnknownName;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($text => Ok(Self::$variant),)+
                    _ => Err($crate::grid::UnknownName {
                        what: $what,
                        given: s.to_string(),
                        known: &[$($text),+],
                    }),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use named_enum;

/// The order in which a cell's four straight neighbours are tried, which decides ties
/// between equally good nodes: a permutation of the letters `n`, `e`, `s`, `w` (north is up,
/// towards row 0). The diagonal neighbours, when the rule allows them, always come after the
/// four straight ones, in the order NE, SE, SW, NW. The default is `nesw`.
///
/// ```
/// use pathlab_core::grid::NeighbourOrder;
/// let order: NeighbourOrder = "wsen".parse().unwrap();
/// assert_eq!(order.to_string(), "wsen");
/// assert_eq!(NeighbourOrder::default().to_string(), "nesw");
/// assert!("nnes".parse::<NeighbourOrder>().unwrap_err().contains("each of n, e, s and w once"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NeighbourOrder([u8; 4]);

impl NeighbourOrder {
    /// North, east, south, west: the order every search uses unless told otherwise.
    pub const NESW: Self = Self([0, 1, 2, 3]);

    /// The eight moves' places (0 to 3: N, E, S, W; 4 to 7: NE, SE, SW, NW) in the order
    /// they are tried.
    #[inline]
    pub const fn moves(self) -> [usize; 8] {
        let [a, b, c, d] = self.0;
        [a as usize, b as usize, c as usize, d as usize, 4, 5, 6, 7]
    }
}

impl Default for NeighbourOrder {
    fn default() -> Self {
        Self::NESW
    }
}

impl std::str::FromStr for NeighbourOrder {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            let given: String = s.chars().take(20).collect();
            format!("neighbour order {given:?} must name each of n, e, s and w once, e.g. nesw or wsen")
        };
        let mut out = [0u8; 4];
        let mut seen = [false; 4];
        if s.chars().count() != 4 {
            return Err(bad());
        }
        for (slot, c) in out.iter_mut().zip(s.chars()) {
            let k = match c.to_ascii_lowercase() {
                'n' => 0,
                'e' => 1,
                's' => 2,
                'w' => 3,
                _ => return Err(bad()),
            };
            if seen[k] {
                return Err(bad());
            }
            seen[k] = true;
            *slot = k as u8;
        }
        Ok(Self(out))
    }
}

impl fmt::Display for NeighbourOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &k in &self.0 {
            f.write_str(["n", "e", "s", "w"][k as usize])?;
        }
        Ok(())
    }
}

/// A name that matches none of an enum's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What kind of name was expected ("algorithm", "heuristic", ...).
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names that are accepted.
    pub known: &'static [&'static str],
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let given: String = self.given.chars().take(40).collect();
        write!(f, "unknown {} {:?}; expected one of: {}", self.what, given, self.known.join(", "))
    }
}

impl std::error::Error for UnknownName {}

named_enum! {
    /// Which diagonal moves are allowed. `Never` makes the grid 4-connected.
    ///
    /// For a diagonal move, the two cells beside it (sharing an edge with both ends) decide:
    ///
    /// ```
    /// use pathlab_core::grid::Diagonal;
    /// assert_eq!("no-corner-cutting".parse::<Diagonal>().unwrap(), Diagonal::NoCornerCutting);
    /// assert!(!Diagonal::NoCornerCutting.allows(true, false));
    /// assert!(Diagonal::AtMostOneBlocked.allows(true, false));
    /// ```
    Diagonal, "diagonal rule" {
        /// No diagonal moves: 4-connected.
        Never = 0, "never";
        /// Diagonal only when both side cells are open (the MovingAI convention).
        NoCornerCutting = 1, "no-corner-cutting";
        /// Diagonal when at least one side cell is open.
        AtMostOneBlocked = 2, "at-most-one-blocked";
        /// Diagonal whenever the target cell is open, even between two walls.
        Always = 3, "always";
    }
}

impl Diagonal {
    /// Whether a diagonal move is allowed given whether each of its two side cells is open.
    #[inline]
    pub const fn allows(self, side_a_open: bool, side_b_open: bool) -> bool {
        match self {
            Self::Never => false,
            Self::NoCornerCutting => side_a_open && side_b_open,
            Self::AtMostOneBlocked => side_a_open || side_b_open,
            Self::Always => true,
        }
    }

    /// The moves this rule allows from a cell whose open neighbours are the bits `open` (bit
    /// `k` for move `k` of N, E, S, W, NE, SE, SW, NW): every open straight neighbour, and an
    /// open diagonal one when [`allows`](Self::allows) says so of its two side cells.
    ///
    /// ```
    /// use pathlab_core::grid::Diagonal;
    /// // N, E and NE open, S and W walls: NE is legal without corner cutting, SE is not.
    /// assert_eq!(Diagonal::NoCornerCutting.legal_moves(0b0001_0011), 0b0001_0011);
    /// assert_eq!(Diagonal::AtMostOneBlocked.legal_moves(0b0011_0011), 0b0011_0011);
    /// assert_eq!(Diagonal::NoCornerCutting.legal_moves(0b0011_0011), 0b0001_0011);
    /// assert_eq!(Diagonal::Never.legal_moves(0xFF), 0x0F);
    /// ```
    #[inline]
    pub const fn legal_moves(self, open: u8) -> u8 {
        let straight = open & 0x0F;
        // Diagonal k (NE, SE, SW, NW) lies between straight k and k + 1 (mod 4): N and E, E
        // and S, S and W, W and N.
        let next = (straight >> 1) | ((straight & 1) << 3);
        let sides = match self {
            Self::Never => 0,
            Self::NoCornerCutting => straight & next,
            Self::AtMostOneBlocked => straight | next,
            Self::Always => 0x0F,
        };
        straight | (open & (sides << 4))
    }

    /// True for the rules that allow some diagonal moves.
    pub const fn is_eight_connected(self) -> bool {
        !matches!(self, Self::Never)
    }
}

/// How many binary places the real cost model keeps: every cost on a grid with
/// [`Costs::Real`] is a whole number of 2^-29 units.
pub const COST_FRACTION_BITS: u32 = 29;

/// sqrt(2) as the real cost model uses it: 759250125 / 2^29, the multiple of 2^-29 nearest
/// sqrt(2), above it by 1.1e-11.
///
/// Costs, g and the octile estimate are then fixed-point numbers, whole numbers of 2^-29
/// units, carried in an `f64`. Sums of them are exact while under 2^24 (the longest MovingAI
/// optimum is under 5,000), so two routes with the same straight and diagonal moves cost
/// exactly the same, whatever order they take them in, and the tie rule of the searches
/// (lowest f, then highest g) acts as it says. With the true sqrt(2) rounding noise in f
/// decided such ties instead. A path's cost differs from its true length by at most 1.2e-11
/// per diagonal move (relative error under 1e-11).
///
/// ```
/// use pathlab_core::grid::{COST_FRACTION_BITS, SQRT_2_FIXED};
/// let units = SQRT_2_FIXED * f64::from(1u32 << COST_FRACTION_BITS);
/// assert_eq!(units, 759_250_125.0);
/// assert!((SQRT_2_FIXED - std::f64::consts::SQRT_2).abs() < 1.2e-11);
/// // Two diagonals and a straight move tie exactly, in any order.
/// assert_eq!((SQRT_2_FIXED + 1.0) + SQRT_2_FIXED, (1.0 + SQRT_2_FIXED) + SQRT_2_FIXED);
/// ```
pub const SQRT_2_FIXED: f64 = 759_250_125.0 / (1u64 << COST_FRACTION_BITS) as f64;

named_enum! {
    /// What a straight and a diagonal move cost on ground.
    ///
    /// ```
    /// use pathlab_core::grid::{Costs, SQRT_2_FIXED};
    /// assert_eq!(Costs::Integer.straight(), 10.0);
    /// assert_eq!(Costs::Integer.diagonal(), 14.0);
    /// assert_eq!(Costs::Real.diagonal(), SQRT_2_FIXED);
    /// assert!((Costs::Real.diagonal() - std::f64::consts::SQRT_2).abs() < 1.2e-11);
    /// ```
    Costs, "cost model" {
        /// Straight 1, diagonal sqrt(2): true distances, as in the MovingAI optima. The
        /// diagonal is [`SQRT_2_FIXED`], sqrt(2) to 29 binary places, so that costs add
        /// exactly and equal routes tie.
        Real = 0, "real";
        /// Straight 10, diagonal 14: the course's integer costs for working by hand.
        Integer = 1, "integer";
    }
}

impl Costs {
    /// Cost of a straight move onto ground.
    #[inline]
    pub const fn straight(self) -> f64 {
        match self {
            Self::Real => 1.0,
            Self::Integer => 10.0,
        }
    }

    /// Cost of a diagonal move onto ground.
    #[inline]
    pub const fn diagonal(self) -> f64 {
        match self {
            Self::Real => SQRT_2_FIXED,
            Self::Integer => 14.0,
        }
    }

    /// Cost of a move onto a cell of value `terrain` (1 for ground).
    #[inline]
    pub fn step(self, diagonal: bool, terrain: u8) -> f64 {
        let base = if diagonal { self.diagonal() } else { self.straight() };
        if terrain == GROUND {
            base
        } else {
            base * f64::from(terrain)
        }
    }
}

impl FromStr for Point {
    type Err = String;

    /// Parses `"x,y"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (x, y) = s.split_once(',').ok_or_else(|| format!("expected x,y, found {s:?}"))?;
        let x = x.trim().parse().map_err(|_| format!("bad x in {s:?}"))?;
        let y = y.trim().parse().map_err(|_| format!("bad y in {s:?}"))?;
        Ok(Self::new(x, y))
    }
}
