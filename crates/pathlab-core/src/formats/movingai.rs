//! MovingAI benchmark files: `.map` grids and `.scen` problem lists.
//!
//! A `.map` file has the header `type octile`, `height H`, `width W`, `map`, then `H` rows of
//! `W` characters. `.`, `G` and `S` are passable; `@`, `O`, `T` and `W` are not.
//! A `.scen` file starts with `version 1` and then lists one problem a line: bucket, map name,
//! map width, map height, start x, start y, goal x, goal y and the optimal length, which
//! assumes 8-connected moves, diagonal sqrt(2) and no corner cutting.

use super::{check_file_size, numbered_lines, quote, ParseError, MAX_FILE_BYTES, MAX_SCEN_BYTES};
use crate::grid::{Grid, Point, GROUND, MAX_SIDE, WALL};

/// Reads a MovingAI `.map` file.
///
/// ```
/// use pathlab_core::formats::movingai;
/// let grid = movingai::parse_map("type octile\nheight 2\nwidth 3\nmap\n.@.\nT..\n").unwrap();
/// assert_eq!(grid.cells(), &[1, 0, 1, 0, 1, 1]);
/// ```
pub fn parse_map(text: &str) -> Result<Grid, ParseError> {
    check_file_size(text, MAX_FILE_BYTES)?;
    let mut lines = numbered_lines(text);
    let mut height = None;
    let mut width = None;
    let mut kind: Option<usize> = None;
    let mut last = 0;
    loop {
        let Some((n, line)) = lines.next() else {
            return Err(ParseError::new(last + 1, "the file ends before the line \"map\""));
        };
        last = n;
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (None, ..) => {}
            (Some("map"), None, _) => break,
            (Some("type"), Some(_), None) => {
                if let Some(first) = kind {
                    return Err(ParseError::new(n, format!("a second type line (the first is line {first})")));
                }
                kind = Some(n);
            }
            (Some(key @ ("height" | "width")), Some(value), None) => {
                let v: usize = value
                    .parse()
                    .map_err(|_| ParseError::new(n, format!("{key} must be a whole number, found {}", quote(value))))?;
                if v == 0 || v > MAX_SIDE {
                    return Err(ParseError::new(n, format!("{key} must be from 1 to {MAX_SIDE}, found {v}")));
                }
                let slot = if key == "height" { &mut height } else { &mut width };
                if let Some((first, _)) = *slot {
                    return Err(ParseError::new(n, format!("a second {key} line (the first is line {first})")));
                }
                *slot = Some((n, v));
            }
            _ => {
                return Err(ParseError::new(
                    n,
                    format!("expected a header line (type, height, width or map), found {}", quote(line)),
                ))
            }
        }
    }
    let (_, height) = height.ok_or_else(|| ParseError::new(last, "the header has no height"))?;
    let (_, width) = width.ok_or_else(|| ParseError::new(last, "the header has no width"))?;
    let mut cells = Vec::with_capacity(width * height);
    for y in 0..height {
        let Some((n, line)) = lines.next() else {
            return Err(ParseError::new(last + 1, format!("the file ends after {y} of {height} rows")));
        };
        last = n;
        let count = line.chars().count();
        if count != width {
            return Err(ParseError::new(n, format!("row {} has {count} cells, expected {width}", y + 1)));
        }
        for (x, c) in line.chars().enumerate() {
            cells.push(match c {
                '.' | 'G' | 'S' => GROUND,
                '@' | 'O' | 'T' | 'W' => WALL,
                other => {
                    return Err(ParseError::new(
                        n,
                        format!("unexpected {other:?} at column {}; expected one of . G S @ O T W", x + 1),
                    ))
                }
            });
        }
    }
    if let Some((n, line)) = lines.find(|(_, l)| !l.trim().is_empty()) {
        return Err(ParseError::new(n, format!("unexpected {} after the {height} rows", quote(line))));
    }
    Grid::from_cells(width, height, cells).map_err(|e| ParseError::new(0, e.to_string()))
}

/// Writes a MovingAI `.map` file: `.` for passable cells (terrain costs included), `@` for walls.
///
/// ```
/// use pathlab_core::formats::movingai;
/// let text = "type octile\nheight 1\nwidth 2\nmap\n.@\n";
/// assert_eq!(movingai::write_map(&movingai::parse_map(text).unwrap()), text);
/// ```
pub fn write_map(grid: &Grid) -> String {
    let mut out = format!("type octile\nheight {}\nwidth {}\nmap\n", grid.height(), grid.width());
    for row in grid.cells().chunks(grid.width()) {
        out.extend(row.iter().map(|&c| if c == WALL { '@' } else { '.' }));
        out.push('\n');
    }
    out
}

/// One problem of a `.scen` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The bucket (problems are grouped by length).
    pub bucket: u32,
    /// The map file named, as written (it may carry a folder prefix).
    pub map: String,
    /// The map width the problem expects.
    pub width: usize,
    /// The map height the problem expects.
    pub height: usize,
    /// Start cell.
    pub start: Point,
    /// Goal cell.
    pub goal: Point,
    /// The optimal length as printed.
    pub optimal: f64,
    /// How far a correct cost may differ from `optimal`, given how it was printed (see
    /// [`parse_scen`]); at least 0.001.
    pub tolerance: f64,
    /// 1-based line in the file.
    pub line: usize,
}

/// Reads a `.scen` file.
///
/// Files print their optima in one of two ways, and the tolerance of each problem follows:
/// - with a fixed number of decimals, trailing zeros kept (`132.40`): half a unit of the last
///   digit. A file is taken to be of this kind when any optimum ends in a zero after the point;
/// - with six significant digits, trailing zeros dropped (`1177.2`, `4`): half a unit of the
///   sixth significant digit, so a whole number such as `4` means 4.00000.
///
/// Either way the tolerance is at least 0.001.
///
/// ```
/// use pathlab_core::formats::movingai;
/// let scen = "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1.00000000\n";
/// let problems = movingai::parse_scen(scen).unwrap();
/// assert_eq!(problems[0].goal.y, 12);
/// assert_eq!(problems[0].optimal, 1.0);
///
/// let six_digits = "version 1\n0 m.map 9 9 0 0 4 0 4\n0 m.map 9 9 0 0 4 1 4.41421\n";
/// assert!(movingai::parse_scen(six_digits).unwrap().iter().all(|p| p.tolerance == 1e-3));
/// let two_decimals = "version 1\n0 m.map 9 9 0 0 4 0 4.00\n";
/// assert_eq!(movingai::parse_scen(two_decimals).unwrap()[0].tolerance, 0.005);
/// ```
pub fn parse_scen(text: &str) -> Result<Vec<Problem>, ParseError> {
    check_file_size(text, MAX_SCEN_BYTES)?;
    let mut problems = Vec::new();
    let mut fixed_decimals = false;
    for (n, line) in numbered_lines(text) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() || (n == 1 && fields.first() == Some(&"version")) {
            continue;
        }
        if fields.len() != 9 {
            return Err(ParseError::new(
                n,
                format!("expected 9 fields (bucket, map, width, height, start x, start y, goal x, goal y, length), found {}", fields.len()),
            ));
        }
        let num = |i: usize, what: &str| -> Result<usize, ParseError> {
            fields[i]
                .parse()
                .map_err(|_| ParseError::new(n, format!("{what} must be a whole number, found {}", quote(fields[i]))))
        };
        let optimal: f64 = fields[8].parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0).ok_or_else(|| {
            ParseError::new(n, format!("the optimal length must be a number, found {}", quote(fields[8])))
        })?;
        let decimals = fields[8].split_once('.').map_or(0, |(_, frac)| frac.len());
        fixed_decimals |= decimals > 0 && fields[8].ends_with('0');
        let tolerance = half_last_digit(decimals);
        let problem = Problem {
            bucket: fields[0].parse().map_err(|_| {
                ParseError::new(
                    n,
                    format!("the bucket must be a whole number from 0 to {}, found {}", u32::MAX, quote(fields[0])),
                )
            })?,
            map: fields[1].to_string(),
            width: num(2, "the map width")?,
            height: num(3, "the map height")?,
            start: Point::new(num(4, "start x")?, num(5, "start y")?),
            goal: Point::new(num(6, "goal x")?, num(7, "goal y")?),
            optimal,
            tolerance,
            line: n,
        };
        for (what, p) in [("start", problem.start), ("goal", problem.goal)] {
            if p.x >= problem.width || p.y >= problem.height {
                return Err(ParseError::new(
                    n,
                    format!("{what} {p} is outside the {}x{} map", problem.width, problem.height),
                ));
            }
        }
        problems.push(problem);
    }
    if !fixed_decimals {
        for p in &mut problems {
            p.tolerance = p.tolerance.min(half_sixth_significant_digit(p.optimal));
        }
    }
    for p in &mut problems {
        p.tolerance = p.tolerance.max(1e-3);
    }
    Ok(problems)
}

/// Half a unit of the last of `decimals` printed decimals.
fn half_last_digit(decimals: usize) -> f64 {
    0.5 * 10f64.powi(-(decimals.min(15) as i32))
}

/// Half a unit of the sixth significant digit of `value`.
fn half_sixth_significant_digit(value: f64) -> f64 {
    if value <= 0.0 {
        return 0.0;
    }
    0.5 * 10f64.powi(value.log10().floor() as i32 - 5)
}
