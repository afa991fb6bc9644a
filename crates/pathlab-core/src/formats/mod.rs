//! Reading and writing map files: the course's data file, MovingAI `.map` / `.scen`, and graph
//! files (JSON and the weight matrix).

use std::fmt;

pub mod course;
pub mod graph;
pub mod movingai;

/// The largest map file accepted, in bytes (a 2048x2048 map with line ends fits easily).
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;

/// The largest MovingAI scenario (`.scen`) file accepted, in bytes (the largest published
/// ones are under 1 MB).
pub const MAX_SCEN_BYTES: usize = 64 * 1024 * 1024;

/// A problem in a map or scenario file, with the 1-based line it was found on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number; 0 when the problem is with the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        Self { line, message: message.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

/// Refuses files over `limit` bytes ([`MAX_FILE_BYTES`] for maps, [`MAX_SCEN_BYTES`] for
/// scenarios).
pub(crate) fn check_file_size(text: &str, limit: usize) -> Result<(), ParseError> {
    if text.len() > limit {
        return Err(ParseError::new(0, format!("the file is {} bytes, over the limit of {limit}", text.len())));
    }
    Ok(())
}

/// Shortens user text quoted in an error message.
pub(crate) fn quote(text: &str) -> String {
    let short: String = text.chars().take(24).collect();
    if short.len() < text.len() {
        format!("{short:?}...")
    } else {
        format!("{short:?}")
    }
}

/// Lines with their 1-based numbers, without line ends (LF or CRLF).
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}
