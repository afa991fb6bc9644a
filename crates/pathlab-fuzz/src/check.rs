//! The rules every input must keep, per [`Target`].
//!
//! For every target:
//! - **no panic** (a panic is not caught here: the fuzzer or the test sees it);
//! - **an error names the problem**: its message is not empty, it is at most
//!   [`MAX_MESSAGE`] characters (so it quotes a short piece of the input, never a whole
//!   line of it), it holds no control characters (quoted input is escaped), and it is shown
//!   as `line N: ...` (`line N, column C: ...` for JSON syntax) with N a line the text has
//!   (or the one after its last, for "the file ends before ..."). Only a problem with the file
//!   as a whole, such as its size, has no line;
//! - **what is accepted is consistent**: sizes as declared, ends inside and open, numbers
//!   finite, and writing the value out and reading it back gives the same value.
//!
//! Some rules are particular to one format and were once broken (issue 17): a `.map` header
//! names each of `type`, `height` and `width` once at most, and a `.scen` bucket is the
//! number written, not one wrapped into 32 bits.

use pathlab_core::formats::graph::{self, GraphFileError};
use pathlab_core::formats::{course, movingai, ParseError};
use pathlab_core::grid::{Grid, MAX_SIDE};
use pathlab_core::space::graph::{Graph, MAX_NODES};

use crate::Target;

/// The longest error message allowed, in characters. The longest message a parser writes on
/// purpose is about 150 characters; quoted input is cut to a few dozen.
pub const MAX_MESSAGE: usize = 300;

/// Parses `text` as `target` reads it and checks every rule; `Err` says which rule broke.
pub fn check(target: Target, text: &str) -> Result<(), String> {
    match target {
        Target::Course => match course::parse(text) {
            Ok(map) => course_is_consistent(&map),
            Err(e) => parse_error(text, &e),
        },
        Target::MovingAiMap => match movingai::parse_map(text) {
            Ok(grid) => map_is_consistent(text, &grid),
            Err(e) => parse_error(text, &e),
        },
        Target::MovingAiScen => match movingai::parse_scen(text) {
            Ok(problems) => scen_is_consistent(text, &problems),
            Err(e) => parse_error(text, &e),
        },
        Target::GraphJson => match graph::parse_json(text) {
            Ok(g) => graph_round_trips(&g, &graph::to_json(&g), graph::parse_json),
            Err(e) => graph_error(text, &e),
        },
        Target::GraphMatrix => match graph::parse_matrix(text) {
            Ok(g) => graph_round_trips(&g, &graph::to_matrix(&g), graph::parse_matrix),
            Err(e) => graph_error(text, &e),
        },
    }
}

/// Where an error points and what it says.
struct Report<'a> {
    line: usize,
    column: usize,
    message: &'a str,
    shown: String,
}

/// Phrases that a message without a line must hold: the problem is the file as a whole.
const WHOLE_FILE: [&str; 2] = ["over the limit", "the file is empty"];

fn parse_error(text: &str, e: &ParseError) -> Result<(), String> {
    error_names_the_problem(text, &Report { line: e.line, column: 0, message: &e.message, shown: e.to_string() })
}

fn graph_error(text: &str, e: &GraphFileError) -> Result<(), String> {
    error_names_the_problem(text, &Report { line: e.line, column: e.column, message: &e.message, shown: e.to_string() })
}

fn error_names_the_problem(text: &str, e: &Report) -> Result<(), String> {
    let message = e.message;
    if message.trim().is_empty() {
        return Err(format!("an error with no message: {:?}", e.shown));
    }
    let length = message.chars().count();
    if length > MAX_MESSAGE {
        let head: String = message.chars().take(120).collect();
        return Err(format!("an error message of {length} characters (at most {MAX_MESSAGE}): {head:?}..."));
    }
    if message.chars().any(char::is_control) {
        return Err(format!("an error message with a control character in it: {message:?}"));
    }
    let expected = match (e.line, e.column) {
        (0, _) => message.to_string(),
        (line, 0) => format!("line {line}: {message}"),
        (line, column) => format!("line {line}, column {column}: {message}"),
    };
    if e.shown != expected {
        return Err(format!("the error shows as {:?}, expected {expected:?}", e.shown));
    }
    // "The file ends before ..." names the line after the last.
    let lines = text.lines().count();
    if e.line > lines + 1 {
        return Err(format!("the error names line {}, but the text has {lines} lines: {:?}", e.line, e.shown));
    }
    if e.line == 0 && !WHOLE_FILE.iter().any(|w| message.contains(w)) {
        return Err(format!("the error names no line, and is not about the file as a whole: {message:?}"));
    }
    if e.column > 0 {
        let width = text.split('\n').nth(e.line - 1).map_or(0, str::len);
        if e.column > width + 1 {
            return Err(format!("the error names column {}, but line {} is {width} bytes long", e.column, e.line));
        }
    }
    Ok(())
}

fn grid_is_sound(grid: &Grid) -> Result<(), String> {
    let (w, h) = (grid.width(), grid.height());
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!("accepted a {w}x{h} grid (sides go from 1 to {MAX_SIDE})"));
    }
    if grid.cells().len() != w * h {
        return Err(format!("accepted a {w}x{h} grid with {} cells", grid.cells().len()));
    }
    Ok(())
}

fn course_is_consistent(map: &course::CourseMap) -> Result<(), String> {
    grid_is_sound(&map.grid)?;
    for (what, end) in [("start", map.start), ("goal", map.goal)] {
        if let Some(p) = end {
            if !map.grid.contains(p.x as i64, p.y as i64) || !map.grid.is_passable(p) {
                return Err(format!("accepted a {what} at {p}, not an open cell of the map"));
            }
        }
    }
    let text = course::write(&map.grid, map.start, map.goal).map_err(|e| format!("cannot write what was read: {e}"))?;
    match course::parse(&text) {
        Ok(again) if again == *map => Ok(()),
        Ok(_) => Err("the map written back reads as a different map".into()),
        Err(e) => Err(format!("the map written back does not read: {e}")),
    }
}

/// Header lines (before the line `map`) that start with `key`.
fn header_lines<'a>(text: &'a str, key: &'a str) -> impl Iterator<Item = &'a str> {
    text.lines().take_while(|l| l.trim() != "map").filter(move |l| l.split_whitespace().next() == Some(key))
}

fn map_is_consistent(text: &str, grid: &Grid) -> Result<(), String> {
    grid_is_sound(grid)?;
    for key in ["type", "height", "width"] {
        let count = header_lines(text, key).count();
        if count > 1 {
            return Err(format!("accepted a header with {count} {key} lines"));
        }
    }
    match movingai::parse_map(&movingai::write_map(grid)) {
        Ok(again) if again == *grid => Ok(()),
        Ok(_) => Err("the map written back reads as a different map".into()),
        Err(e) => Err(format!("the map written back does not read: {e}")),
    }
}

fn scen_is_consistent(text: &str, problems: &[movingai::Problem]) -> Result<(), String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut previous = 0;
    for p in problems {
        let at = format!("problem on line {}", p.line);
        if p.line <= previous || p.line > lines.len() {
            return Err(format!(
                "{at}: not a line after the last problem's ({previous}) in a text of {} lines",
                lines.len()
            ));
        }
        previous = p.line;
        if p.start.x >= p.width || p.start.y >= p.height || p.goal.x >= p.width || p.goal.y >= p.height {
            return Err(format!("{at}: start {} or goal {} outside its {}x{} map", p.start, p.goal, p.width, p.height));
        }
        if !p.optimal.is_finite() || p.optimal < 0.0 {
            return Err(format!("{at}: accepted the optimal length {}", p.optimal));
        }
        if !(1e-3..=0.5).contains(&p.tolerance) {
            return Err(format!("{at}: a tolerance of {} (from 0.001 to 0.5)", p.tolerance));
        }
        // The bucket as written, read as any whole number: no silent wrapping.
        let written = lines[p.line - 1].split_whitespace().next().unwrap_or("");
        if written.parse::<u128>().ok() != Some(u128::from(p.bucket)) {
            return Err(format!("{at}: the bucket {written:?} was read as {}", p.bucket));
        }
    }
    Ok(())
}

fn graph_round_trips(g: &Graph, written: &str, read: fn(&str) -> Result<Graph, GraphFileError>) -> Result<(), String> {
    if g.ids().len() > MAX_NODES {
        return Err(format!("accepted {} nodes (at most {MAX_NODES})", g.ids().len()));
    }
    if let Some(e) = g.edges().iter().find(|e| !e.cost.is_finite() || e.cost < 0.0) {
        return Err(format!("accepted an edge costing {}", e.cost));
    }
    if g.places().iter().flatten().any(|v| !v.is_finite()) {
        return Err("accepted a node at a place that is not finite".into());
    }
    match read(written) {
        Ok(again) if again == *g => Ok(()),
        Ok(_) => Err("the graph written back reads as a different graph".into()),
        Err(e) => Err(format!("the graph written back does not read: {e}")),
    }
}

/// What the parser answers, in short: `Ok(())` when it accepts `text`, else its error as
/// shown to a user. For kept cases whose sidecar says what the answer must be.
pub fn answer(target: Target, text: &str) -> Result<(), String> {
    match target {
        Target::Course => course::parse(text).map(drop).map_err(|e| e.to_string()),
        Target::MovingAiMap => movingai::parse_map(text).map(drop).map_err(|e| e.to_string()),
        Target::MovingAiScen => movingai::parse_scen(text).map(drop).map_err(|e| e.to_string()),
        Target::GraphJson => graph::parse_json(text).map(drop).map_err(|e| e.to_string()),
        Target::GraphMatrix => graph::parse_matrix(text).map(drop).map_err(|e| e.to_string()),
    }
}
