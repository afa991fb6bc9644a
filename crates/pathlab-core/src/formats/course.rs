//! The course's data file: the number of rows, the number of columns, then one line per
//! row with `0` for open ground, `1` for a wall, `A` for the start and `B` for the goal.
//!
//! ```text
//! 5
//! 5
//! 00000
//! 001A0
//! 00110
//! B0000
//! 00000
//! ```
//!
//! The two numbers may share a line, and the cells of a row may be separated by spaces.
//! Writing produces the layout above; terrain costs have no symbol in this format and are
//! written as open ground.

use super::{check_file_size, numbered_lines, quote, ParseError};
use crate::grid::{Grid, Point, GROUND, MAX_SIDE, WALL};

/// A map read from a course data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CourseMap {
    /// The cells.
    pub grid: Grid,
    /// Where `A` stood, if anywhere.
    pub start: Option<Point>,
    /// Where `B` stood, if anywhere.
    pub goal: Option<Point>,
}

/// Reads a course data file.
///
/// ```
/// use pathlab_core::formats::course;
/// use pathlab_core::grid::Point;
/// let map = course::parse("2 3\nA01\n00B\n").unwrap();
/// assert_eq!((map.grid.width(), map.grid.height()), (3, 2));
/// assert_eq!(map.start, Some(Point::new(0, 0)));
/// assert_eq!(map.goal, Some(Point::new(2, 1)));
/// assert!(course::parse("2 3\nA01\n").unwrap_err().to_string().contains("line 3"));
/// ```
pub fn parse(text: &str) -> Result<CourseMap, ParseError> {
    check_file_size(text, super::MAX_FILE_BYTES)?;
    let mut lines = numbered_lines(text).filter(|(_, l)| !l.trim().is_empty());
    let mut numbers = Vec::with_capacity(2);
    let mut last_line = 0;
    while numbers.len() < 2 {
        let Some((n, line)) = lines.next() else {
            let missing = if numbers.is_empty() { "the number of rows" } else { "the number of columns" };
            return Err(ParseError::new(last_line + 1, format!("the file ends before {missing}")));
        };
        last_line = n;
        for word in line.split_whitespace() {
            if numbers.len() == 2 {
                return Err(ParseError::new(n, format!("unexpected {} after the two sizes", quote(word))));
            }
            let what = if numbers.is_empty() { "rows" } else { "columns" };
            let value: usize = word
                .parse()
                .map_err(|_| ParseError::new(n, format!("expected the number of {what}, found {}", quote(word))))?;
            if value == 0 || value > MAX_SIDE {
                return Err(ParseError::new(
                    n,
                    format!("the number of {what} must be from 1 to {MAX_SIDE}, found {value}"),
                ));
            }
            numbers.push(value);
        }
    }
    let (rows, columns) = (numbers[0], numbers[1]);
    let mut cells = Vec::with_capacity(rows * columns);
    let (mut start, mut goal) = (None, None);
    for y in 0..rows {
        let Some((n, line)) = lines.next() else {
            return Err(ParseError::new(last_line + 1, format!("the file ends after {y} of {rows} rows")));
        };
        last_line = n;
        let row: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        if row.len() != columns {
            return Err(ParseError::new(n, format!("row {} has {} cells, expected {columns}", y + 1, row.len())));
        }
        for (x, c) in row.into_iter().enumerate() {
            let at = Point::new(x, y);
            let value = match c {
                '0' => GROUND,
                '1' => WALL,
                'A' | 'a' => place(&mut start, at, n, 'A')?,
                'B' | 'b' => place(&mut goal, at, n, 'B')?,
                other => {
                    return Err(ParseError::new(
                        n,
                        format!("unexpected {other:?} at column {}; cells are 0, 1, A or B", x + 1),
                    ))
                }
            };
            cells.push(value);
        }
    }
    if let Some((n, line)) = lines.next() {
        return Err(ParseError::new(n, format!("unexpected {} after the {rows} rows", quote(line.trim()))));
    }
    let grid = Grid::from_cells(columns, rows, cells).map_err(|e| ParseError::new(0, e.to_string()))?;
    Ok(CourseMap { grid, start, goal })
}

fn place(slot: &mut Option<Point>, at: Point, line: usize, symbol: char) -> Result<u8, ParseError> {
    if let Some(first) = slot {
        return Err(ParseError::new(line, format!("a second {symbol} at {at}; the first is at {first}")));
    }
    *slot = Some(at);
    Ok(GROUND)
}

/// Why a map cannot be written as a course data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WriteError {}

/// Writes a course data file.
///
/// The format has one symbol per cell, so a start and goal on the same cell cannot be
/// written: that is an error naming the cell rather than a file that loses the goal.
///
/// ```
/// use pathlab_core::formats::course;
/// use pathlab_core::grid::{Grid, Point, WALL};
/// let mut grid = Grid::new(3, 2).unwrap();
/// grid.set(Point::new(1, 0), WALL).unwrap();
/// let text = course::write(&grid, Some(Point::new(0, 0)), Some(Point::new(2, 1))).unwrap();
/// assert_eq!(text, "2\n3\nA10\n00B\n");
/// assert_eq!(course::parse(&text).unwrap().grid, grid);
/// let same = Some(Point::new(2, 1));
/// assert!(course::write(&grid, same, same).unwrap_err().to_string().contains("(2,1)"));
/// ```
pub fn write(grid: &Grid, start: Option<Point>, goal: Option<Point>) -> Result<String, WriteError> {
    if let (Some(s), Some(g)) = (start, goal) {
        if s == g {
            return Err(WriteError {
                message: format!(
                    "the start and the goal are both at {s}; a course file has one symbol per cell, so move one of them first"
                ),
            });
        }
    }
    let mut out = format!("{}\n{}\n", grid.height(), grid.width());
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let p = Point::new(x, y);
            out.push(if Some(p) == start {
                'A'
            } else if Some(p) == goal {
                'B'
            } else if grid.is_passable(p) {
                '0'
            } else {
                '1'
            });
        }
        out.push('\n');
    }
    Ok(out)
}
