//! Graph files: Pathlab's JSON graph format and the course's weight matrix.
//!
//! # JSON
//!
//! The one format the page, the share link and the CLI read and write:
//!
//! ```text
//! {"directed": false,
//!  "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 40, "y": 30}],
//!  "edges": [{"from": "A", "to": "B", "cost": 4},
//!            {"from": "B", "to": "A", "cost": 1, "directed": true}]}
//! ```
//!
//! - `nodes` is required; `edges` may be left out (no edges); `directed` may be left out
//!   (`false`), and says what an edge is when the edge does not say itself.
//! - Ids are strings of 1 to [`MAX_ID`] characters with no control characters, each used
//!   once. `x` and `y` place the node, in any units. A node may carry a `"cost"`: what
//!   entering it costs when the costs are on the nodes ([`CostsOn`](crate::space::CostsOn)); 1 when left out.
//! - Costs are finite numbers at least 0. An edge may join a node to itself, and two nodes may
//!   be joined by several edges.
//! - An optional `"title"` string is accepted and dropped, and so is any other field: a file
//!   may carry notes of its own.
//!
//! A file that is not JSON, or holds the wrong type somewhere, gives serde_json's line and
//! column (``line 3, column 3: expected `,` or `]` ``). A file that is JSON but not a graph (a
//! negative cost, an edge to an id no node has, an id used twice, more than [`MAX_NODES`]
//! nodes) gives the line on which the offending node or edge object starts. Files over [`MAX_GRAPH_FILE_BYTES`] are refused unread.
//!
//! # Weight matrix
//!
//! The course's form: `w[i][j]` is the weight of the edge from vertex `i` to vertex `j`, and
//! infinity where there is none.
//!
//! ```text
//! // lines starting with // are notes; blank lines are skipped
//! # A B C
//!   0   4 1
//!   7   0 inf
//!   inf 2 0
//! ```
//!
//! - One row a line; entries are separated by spaces, tabs or commas. `inf`, `infinity`, `∞`,
//!   `-` and `x` (any case) mean no edge; any other entry is a number at least 0 (an entry of
//!   0 off the diagonal is an edge that costs nothing).
//! - The matrix is square, and the diagonal (a vertex to itself) holds 0 or no edge: any other
//!   weight there is refused, as the course's matrices never mean a self-loop.
//! - At most [`MAX_EDGES`] finite entries off the diagonal, counted as they are read (so a
//!   symmetric matrix, which gives half as many edges, has the same limit).
//! - An optional line starting with `#`, before the first row, names the vertices in order. A
//!   name holding a space or a comma is written in double quotes, with JSON's escapes
//!   (`"main hall"`). Without that line the vertices are named `A` to `Z` when there are at
//!   most 26 of them, and `0`, `1`, `2`... (the row numbers counted from 0) when there are
//!   more.
//! - Each finite entry off the diagonal is one edge, from the row's vertex to the column's:
//!   the graph is directed. But when the matrix is symmetric (`w[i][j] == w[j][i]` for every
//!   pair, no edge counting as equal to no edge) each pair becomes a single undirected edge
//!   and the graph is undirected, so that a page draws one line, not two arrows, per pair.
//! - Vertices are placed on a circle of radius [`RING_RADIUS`] about
//!   `(RING_RADIUS, RING_RADIUS)`, the first at the top and the rest clockwise (y grows down
//!   the screen), so that a page can draw them.
//!
//! Errors name the line and the entry (counted from 1 along the row).
//!
//! ```
//! use pathlab_core::formats::graph;
//! let text = r#"{"title": "two rooms",
//!   "nodes": [{"id": "hall", "x": 0, "y": 0}, {"id": "cellar", "x": 0, "y": 30}],
//!   "edges": [{"from": "hall", "to": "cellar", "cost": 3}]}"#;
//! let g = graph::parse_json(text).unwrap();
//! assert_eq!(g.ids(), ["hall", "cellar"]);
//! assert_eq!(graph::parse_json(&graph::to_json(&g)).unwrap(), g);
//!
//! // An edge to an id that no node has: the error names the edge's line.
//! let bad = text.replace(r#""to": "cellar""#, r#""to": "attic""#);
//! let e = graph::parse_json(&bad).unwrap_err();
//! assert_eq!(e.to_string(), r#"line 3: edge 1 goes to "attic", which is not a node"#);
//!
//! // P -> R -> Q costs 3, and the matrix is not symmetric, so the graph is directed.
//! let m = graph::parse_matrix("# P Q R\n0 4 1\n7 0 inf\ninf 2 0\n").unwrap();
//! assert!(m.directed());
//! assert_eq!(m.edges().len(), 4);
//! assert_eq!(graph::to_matrix(&m), "#   P Q   R\n    0 4   1\n    7 0 inf\n  inf 2   0\n");
//! ```

use std::fmt;
use std::fmt::Write as _;

use serde::Deserialize;

use super::{numbered_lines, quote};
use crate::space::graph::{Graph, GraphError, MAX_EDGES, MAX_ID, MAX_NODES};

/// The largest graph file accepted, in bytes (64 MiB).
pub const MAX_GRAPH_FILE_BYTES: usize = 64 * 1024 * 1024;

/// The radius of the circle a weight matrix's vertices are placed on.
pub const RING_RADIUS: f64 = 100.0;

/// A problem in a graph file, with the 1-based line it was found on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphFileError {
    /// 1-based line number; 0 when the problem is with the file as a whole (too large, or a
    /// JSON file with nothing in it).
    pub line: usize,
    /// 1-based column of a JSON syntax or type error, as serde_json counts it; 0 when the
    /// error is about a whole node, edge, row or entry, which the message names.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl GraphFileError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        Self { line, column: 0, message: message.into() }
    }
}

impl fmt::Display for GraphFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str(&self.message),
            (line, 0) => write!(f, "line {line}: {}", self.message),
            (line, column) => write!(f, "line {line}, column {column}: {}", self.message),
        }
    }
}

impl std::error::Error for GraphFileError {}

/// Refuses files over [`MAX_GRAPH_FILE_BYTES`]; drops a byte order mark.
fn start(text: &str) -> Result<&str, GraphFileError> {
    if text.len() > MAX_GRAPH_FILE_BYTES {
        return Err(GraphFileError::new(
            0,
            format!(
                "the file is {} bytes, over the limit of {MAX_GRAPH_FILE_BYTES} (64 MiB) for a graph file",
                text.len()
            ),
        ));
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
struct FileJson {
    #[serde(default)]
    directed: bool,
    /// Accepted (when a string) and dropped.
    #[serde(default, rename = "title")]
    _title: Option<String>,
    nodes: Vec<NodeJson>,
    #[serde(default)]
    edges: Vec<EdgeJson>,
}

#[derive(Deserialize)]
struct NodeJson {
    id: String,
    #[serde(deserialize_with = "number")]
    x: f64,
    #[serde(deserialize_with = "number")]
    y: f64,
    #[serde(default, deserialize_with = "some_number")]
    cost: Option<f64>,
}

#[derive(Deserialize)]
struct EdgeJson {
    from: String,
    to: String,
    #[serde(deserialize_with = "number")]
    cost: f64,
    #[serde(default)]
    directed: Option<bool>,
}

/// A JSON number read exactly: serde_json only finds where the number ends, and Rust's own
/// parser (correctly rounded; the matrix reader uses it too) reads it. So every number
/// [`to_json`] writes reads back as the same `f64` without serde_json's `float_roundtrip`
/// feature, which added about 12 KB (gzipped) to the page's WebAssembly module.
fn number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    use serde::de::Error as _;
    let raw: &serde_json::value::RawValue = Deserialize::deserialize(d)?;
    let text = raw.get();
    if text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        return match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(D::Error::custom("number out of range")),
        };
    }
    let found = match text.as_bytes().first() {
        Some(b'"') => format!("string {}", quote(&serde_json::from_str::<String>(text).unwrap_or_default())),
        Some(b't' | b'f') => format!("boolean `{text}`"),
        Some(b'{') => "map".to_string(),
        Some(b'[') => "sequence".to_string(),
        _ => text.to_string(),
    };
    Err(D::Error::custom(format!("invalid type: {found}, expected a number")))
}

/// [`number`] for a field that may be left out.
fn some_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    number(d).map(Some)
}

/// Reads a graph file in the JSON format (see the [module](self)).
///
/// ```
/// use pathlab_core::formats::graph;
/// let g = graph::parse_json(r#"{"directed": true,
///   "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}],
///   "edges": [{"from": "A", "to": "B", "cost": 2}, {"from": "A", "to": "B", "cost": 5, "directed": false}]}"#).unwrap();
/// assert!(g.directed());
/// assert!(g.edges()[0].directed && !g.edges()[1].directed);
/// let e = graph::parse_json("{\"nodes\": [\n  {\"id\": \"A\", \"x\": 0, \"y\": 0}\n  {\"id\": \"B\"}]}").unwrap_err();
/// assert_eq!((e.line, e.column), (3, 3));
/// ```
pub fn parse_json(text: &str) -> Result<Graph, GraphFileError> {
    let text = start(text)?;
    let lead = text.len() - text.trim_start_matches([' ', '\t', '\r', '\n']).len();
    match text[lead..].chars().next() {
        None => {
            return Err(GraphFileError::new(
                0,
                "the file is empty; a graph file is a JSON object: {\"nodes\": [...], \"edges\": [...]}",
            ))
        }
        Some('{') => {}
        Some(other) => {
            return Err(GraphFileError::new(
                line_at(text, lead),
                format!("a graph file is a JSON object starting with {{, not {}", quote(&other.to_string())),
            ))
        }
    }
    let file: FileJson = serde_json::from_str(text).map_err(|e| json_error(&e))?;
    build(text, &file)
}

/// serde_json's error as ours: its line and column, its message without the position.
fn json_error(e: &serde_json::Error) -> GraphFileError {
    let full = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&position).unwrap_or(&full);
    GraphFileError { line: e.line(), column: e.column(), message: shorten_quoted_string(message) }
}

/// serde_json quotes a string of the wrong type whole (`invalid type: string "...", expected
/// a sequence`), and a file may hold megabytes there: the quote is cut as [`quote`] cuts.
fn shorten_quoted_string(message: &str) -> String {
    for lead in ["invalid type: string \"", "invalid value: string \""] {
        let Some(rest) = message.strip_prefix(lead) else { continue };
        let Some(end) = rest.rfind("\", expected ") else { continue };
        let inner = &rest[..end];
        let short: String = inner.chars().take(24).collect();
        let cut = if short.len() < inner.len() { "..." } else { "" };
        return format!("{lead}{short}\"{cut}{}", &rest[end + 1..]);
    }
    message.to_string()
}

/// Builds the graph from a file serde_json has read; the text gives the lines of errors.
fn build(text: &str, file: &FileJson) -> Result<Graph, GraphFileError> {
    let node_line = |i: usize| element_line(text, "nodes", i);
    let edge_line = |i: usize| element_line(text, "edges", i);
    if file.nodes.len() > MAX_NODES {
        return Err(GraphFileError::new(
            node_line(MAX_NODES),
            format!("node {} is one too many: a graph may have at most {MAX_NODES} nodes", MAX_NODES + 1),
        ));
    }
    if file.edges.len() > MAX_EDGES {
        return Err(GraphFileError::new(
            edge_line(MAX_EDGES),
            format!("edge {} is one too many: a graph may have at most {MAX_EDGES} edges", MAX_EDGES + 1),
        ));
    }
    let mut g = Graph::new(file.directed);
    for (i, n) in file.nodes.iter().enumerate() {
        let node = g.add_node(&n.id, n.x, n.y).map_err(|e| {
            let message = match e {
                GraphError::DuplicateId(_) => {
                    let first = g.node(&n.id).map_or(0, |k| k as usize);
                    format!(
                        "node {} has the id {}, which node {} (line {}) already has",
                        i + 1,
                        quote(&n.id),
                        first + 1,
                        node_line(first)
                    )
                }
                GraphError::BadId(_) => format!("node {} {}", i + 1, id_problem(&n.id)),
                GraphError::BadPosition { .. } => {
                    format!("node {} needs finite numbers for x and y", i + 1)
                }
                other => format!("node {}: {other}", i + 1),
            };
            GraphFileError::new(node_line(i), message)
        })?;
        if let Some(cost) = n.cost {
            g.set_node_cost(node, cost).map_err(|_| {
                GraphFileError::new(
                    node_line(i),
                    format!("node {} ({}) costs {cost}; costs must be finite numbers >= 0", i + 1, quote(&n.id)),
                )
            })?;
        }
    }
    for (i, e) in file.edges.iter().enumerate() {
        let end = |id: &str, which: &str| {
            g.node(id).map_err(|_| {
                GraphFileError::new(
                    edge_line(i),
                    format!("edge {} goes {which} {}, which is not a node", i + 1, quote(id)),
                )
            })
        };
        let (from, to) = (end(&e.from, "from")?, end(&e.to, "to")?);
        let directed = e.directed.unwrap_or(file.directed);
        g.add_edge(from, to, e.cost, directed).map_err(|err| {
            let message = match err {
                GraphError::BadCost { cost, .. } => format!(
                    "edge {} ({} -> {}) costs {cost}; costs must be finite numbers >= 0",
                    i + 1,
                    quote(&e.from),
                    quote(&e.to)
                ),
                other => format!("edge {}: {other}", i + 1),
            };
            GraphFileError::new(edge_line(i), message)
        })?;
    }
    Ok(g)
}

/// What is wrong with an id that [`Graph::add_node`] refused, after "node N ".
fn id_problem(id: &str) -> String {
    if id.is_empty() {
        "has an empty id".to_string()
    } else if id.chars().count() > MAX_ID {
        format!("has the id {}, longer than {MAX_ID} characters", quote(id))
    } else {
        format!("has the id {}, which holds a control character", quote(id))
    }
}

/// The 1-based line of `index`.
fn line_at(text: &str, index: usize) -> usize {
    1 + text[..index.min(text.len())].matches('\n').count()
}

/// The 1-based line on which element `index` of the array under `key` in the root object
/// starts; 0 if there is none. `text` must be JSON that serde_json has read whole with an
/// object at its root, so a small scanner does: it follows strings (with their escapes) and
/// nesting, reads the root object's keys as JSON strings (so an escaped key is found too)
/// and counts the elements of the array that comes after `key`.
fn element_line(text: &str, key: &str, index: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut line, mut i) = (0usize, 1usize, 0usize);
    // The root's last string was `key`; in that key's array, at its depth; expecting an
    // element next; elements seen so far.
    let (mut after_key, mut inside, mut expecting, mut seen) = (false, false, false, 0usize);
    while i < bytes.len() {
        let c = bytes[i];
        if expecting && !matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b']') {
            if seen == index {
                return line;
            }
            seen += 1;
            expecting = false;
        }
        match c {
            b'\n' => line += 1,
            b'"' => {
                let open = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if depth == 1 {
                    let end = (i + 1).min(bytes.len());
                    after_key = serde_json::from_str::<String>(&text[open..end]).is_ok_and(|s| s == key);
                }
            }
            b'{' | b'[' => {
                if depth == 1 && c == b'[' && after_key {
                    inside = true;
                    expecting = true;
                }
                depth += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    inside = false;
                    expecting = false;
                }
            }
            b',' if inside && depth == 2 => expecting = true,
            _ => {}
        }
        i += 1;
    }
    0
}

/// Writes a graph in the JSON format: one node or edge a line, an edge's `"directed"` only
/// where it differs from the file's. Reading the text back gives the same ids, places and
/// edges (numbers are written so that they read back as the same `f64`).
///
/// ```
/// use pathlab_core::formats::graph;
/// use pathlab_core::space::Graph;
/// let mut g = Graph::new(false);
/// let a = g.add_node("A", 0.0, 0.0).unwrap();
/// let b = g.add_node("B", 2.5, 0.0).unwrap();
/// g.add_edge(a, b, 4.0, false).unwrap();
/// g.add_edge(b, a, 1.0, true).unwrap();
/// assert_eq!(graph::to_json(&g), r#"{
///   "directed": false,
///   "nodes": [
///     {"id": "A", "x": 0, "y": 0},
///     {"id": "B", "x": 2.5, "y": 0}
///   ],
///   "edges": [
///     {"from": "A", "to": "B", "cost": 4},
///     {"from": "B", "to": "A", "cost": 1, "directed": true}
///   ]
/// }
/// "#);
/// ```
pub fn to_json(graph: &Graph) -> String {
    let ids = graph.ids();
    let mut out = format!("{{\n  \"directed\": {},\n  \"nodes\": [", graph.directed());
    for (i, (id, [x, y])) in ids.iter().zip(graph.places()).enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        let _ = write!(out, "    {{\"id\": {}, \"x\": {x}, \"y\": {y}", json_string(id));
        // A node's weight is written when it is not the 1 a file without it means.
        let cost = graph.node_costs()[i];
        if cost != 1.0 {
            let _ = write!(out, ", \"cost\": {cost}");
        }
        out.push('}');
    }
    out.push_str(if ids.is_empty() { "],\n" } else { "\n  ],\n" });
    out.push_str("  \"edges\": [");
    for (i, e) in graph.edges().iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        let _ = write!(
            out,
            "    {{\"from\": {}, \"to\": {}, \"cost\": {}",
            json_string(&ids[e.from as usize]),
            json_string(&ids[e.to as usize]),
            e.cost
        );
        if e.directed != graph.directed() {
            let _ = write!(out, ", \"directed\": {}", e.directed);
        }
        out.push('}');
    }
    out.push_str(if graph.edges().is_empty() { "]\n}\n" } else { "\n  ]\n}\n" });
    out
}

/// A string as JSON writes it, in quotes with escapes.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serialises")
}

// ---------------------------------------------------------------------------------------------
// Weight matrix
// ---------------------------------------------------------------------------------------------

/// Reads a weight matrix (see the [module](self)).
///
/// ```
/// use pathlab_core::formats::graph;
/// // Symmetric, so two undirected edges; no label line, so the vertices are A, B and C.
/// let g = graph::parse_matrix("0, 2, x\n2, 0, 5\nx, 5, 0\n").unwrap();
/// assert!(!g.directed());
/// assert_eq!(g.ids(), ["A", "B", "C"]);
/// assert_eq!(g.edges().len(), 2);
/// let e = graph::parse_matrix("# A B\n0 1\n1 -3\n").unwrap_err();
/// assert_eq!(e.line, 3);
/// assert!(e.to_string().contains("entry 2"));
/// ```
pub fn parse_matrix(text: &str) -> Result<Graph, GraphFileError> {
    let text = start(text)?;
    let mut matrix = Matrix::default();
    let mut last_line = 0;
    for (n, line) in numbered_lines(text) {
        let t = line.trim();
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        last_line = n;
        match t.strip_prefix('#') {
            Some(rest) => matrix.label_line(n, rest)?,
            None => matrix.row(n, t)?,
        }
    }
    matrix.finish(last_line)
}

/// A weight matrix as it is read.
#[derive(Default)]
struct Matrix {
    /// The label line's number and its names.
    labels: Option<(usize, Vec<String>)>,
    /// The number of columns, and the line that fixed it (the label line or the first row).
    size: Option<(usize, usize)>,
    /// Rows read so far.
    rows: usize,
    /// Finite entries off the diagonal, row by row: (row, column, weight).
    entries: Vec<(u32, u32, f64)>,
}

impl Matrix {
    fn label_line(&mut self, n: usize, rest: &str) -> Result<(), GraphFileError> {
        if let Some((first, _)) = &self.labels {
            return Err(GraphFileError::new(
                n,
                format!("a second label line (starting with #); the first is line {first}"),
            ));
        }
        if self.rows > 0 {
            return Err(GraphFileError::new(n, "the label line (starting with #) must come before the first row"));
        }
        let names = split_labels(rest, n)?;
        if names.len() > MAX_NODES {
            return Err(GraphFileError::new(
                n,
                format!("{} labels: a graph may have at most {MAX_NODES} nodes", names.len()),
            ));
        }
        self.size = Some((names.len(), n));
        self.labels = Some((n, names));
        Ok(())
    }

    /// Why the matrix has as many columns as it has.
    fn why(&self, fixed: usize) -> String {
        if self.labels.is_some() {
            format!("one per label on line {fixed}")
        } else {
            format!("as many as row 1 on line {fixed}")
        }
    }

    fn row(&mut self, n: usize, t: &str) -> Result<(), GraphFileError> {
        let row = self.rows;
        if let Some((columns, fixed)) = self.size {
            if row == columns {
                return Err(GraphFileError::new(
                    n,
                    format!(
                        "row {} is one too many: the matrix has {columns} columns ({}), so {columns} rows",
                        row + 1,
                        self.why(fixed)
                    ),
                ));
            }
        }
        let mut count = 0usize;
        for (j, word) in t.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()).enumerate() {
            count = j + 1;
            if j >= MAX_NODES {
                return Err(GraphFileError::new(
                    n,
                    format!(
                        "entry {count}: a graph may have at most {MAX_NODES} nodes, so a row at most {MAX_NODES} entries"
                    ),
                ));
            }
            let weight = weight(word)
                .map_err(|problem| GraphFileError::new(n, format!("entry {count} is {}: {problem}", quote(word))))?;
            let Some(w) = weight else { continue };
            if j == row {
                if w != 0.0 {
                    return Err(GraphFileError::new(
                        n,
                        format!(
                            "entry {count} is on the diagonal (row {count} to itself) and must be 0 or inf, not {}",
                            quote(word)
                        ),
                    ));
                }
                continue;
            }
            if self.entries.len() == MAX_EDGES {
                return Err(GraphFileError::new(
                    n,
                    format!(
                        "entry {count} would be edge {} (a finite weight off the diagonal): a graph may have at most {MAX_EDGES} edges",
                        MAX_EDGES + 1
                    ),
                ));
            }
            self.entries.push((row as u32, j as u32, w));
        }
        if count == 0 {
            return Err(GraphFileError::new(n, format!("row {} has no entries, only separators", row + 1)));
        }
        match self.size {
            None => self.size = Some((count, n)),
            Some((expected, fixed)) if count != expected => {
                return Err(GraphFileError::new(
                    n,
                    format!("row {} has {count} entries, expected {expected} ({})", row + 1, self.why(fixed)),
                ));
            }
            Some(_) => {}
        }
        self.rows += 1;
        Ok(())
    }

    fn finish(self, last_line: usize) -> Result<Graph, GraphFileError> {
        let Some((count, fixed)) = self.size.filter(|_| self.rows > 0) else {
            return Err(GraphFileError::new(
                last_line + 1,
                "the file has no matrix rows; write one row of weights a line",
            ));
        };
        if self.rows < count {
            return Err(GraphFileError::new(
                last_line + 1,
                format!("the file ends after {} rows; a matrix with {count} columns needs {count} rows", self.rows),
            ));
        }
        let ids = match self.labels {
            Some((_, names)) => names,
            None => default_ids(count),
        };
        let symmetric = is_symmetric(&self.entries);
        let mut g = Graph::new(!symmetric);
        for (i, id) in ids.iter().enumerate() {
            let angle = std::f64::consts::TAU * i as f64 / count as f64;
            let x = RING_RADIUS + RING_RADIUS * angle.sin();
            let y = RING_RADIUS - RING_RADIUS * angle.cos();
            g.add_node(id, x, y).map_err(|e| {
                let message = match e {
                    GraphError::DuplicateId(_) => format!("label {} repeats {}", i + 1, quote(id)),
                    GraphError::BadId(_) => format!("label {} {}", i + 1, id_problem(id)),
                    other => format!("label {}: {other}", i + 1),
                };
                // Only labels can be bad ids: `fixed` is the label line.
                GraphFileError::new(fixed, message)
            })?;
        }
        for &(i, j, w) in &self.entries {
            if !symmetric || i < j {
                g.add_edge(i, j, w, !symmetric).map_err(|e| GraphFileError::new(0, e.to_string()))?;
            }
        }
        Ok(g)
    }
}

/// One matrix entry: `Ok(None)` for no edge, `Ok(Some(w))` for a weight, or what is wrong.
fn weight(word: &str) -> Result<Option<f64>, &'static str> {
    if ["inf", "infinity", "∞", "-", "x"].iter().any(|none| word.eq_ignore_ascii_case(none)) {
        return Ok(None);
    }
    match word.parse::<f64>() {
        Ok(w) if w.is_nan() => Err("not a weight; write a number >= 0, or inf for no edge"),
        Ok(w) if w < 0.0 => Err("negative; weights must be >= 0 (inf for no edge)"),
        // `+ 0.0` turns -0 into 0.
        Ok(w) if w.is_finite() => Ok(Some(w + 0.0)),
        Ok(_) => Err("too large for a weight; write inf for no edge"),
        Err(_) => Err("not a number; a weight is a number >= 0, or inf, infinity, ∞, - or x for no edge"),
    }
}

/// The names on a label line (after its `#`): separated by spaces, tabs or commas, each bare
/// or in double quotes with JSON's escapes.
fn split_labels(rest: &str, line: usize) -> Result<Vec<String>, GraphFileError> {
    let is_gap = |c: char| c == ',' || c.is_whitespace();
    let mut names = Vec::new();
    let mut s = rest;
    loop {
        s = s.trim_start_matches(is_gap);
        if s.is_empty() {
            return Ok(names);
        }
        if s.starts_with('"') {
            let bytes = s.as_bytes();
            let mut i = 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            if i >= bytes.len() {
                return Err(GraphFileError::new(
                    line,
                    format!("label {} opens a quote that is never closed", names.len() + 1),
                ));
            }
            let name: String = serde_json::from_str(&s[..=i]).map_err(|e| {
                let full = e.to_string();
                let problem = full.split(" at line ").next().unwrap_or(&full).to_string();
                GraphFileError::new(
                    line,
                    format!("label {} is a quoted name JSON cannot read: {problem}", names.len() + 1),
                )
            })?;
            s = &s[i + 1..];
            if s.chars().next().is_some_and(|c| !is_gap(c)) {
                return Err(GraphFileError::new(
                    line,
                    format!(
                        "label {} is followed by {} with no space or comma between",
                        names.len() + 1,
                        quote(s.split(is_gap).next().unwrap_or(s))
                    ),
                ));
            }
            names.push(name);
        } else {
            let end = s.find(is_gap).unwrap_or(s.len());
            names.push(s[..end].to_string());
            s = &s[end..];
        }
    }
}

/// `A` to `Z` for up to 26 vertices, `0`, `1`, `2`... for more.
fn default_ids(count: usize) -> Vec<String> {
    if count <= 26 {
        (b'A'..).take(count).map(|b| char::from(b).to_string()).collect()
    } else {
        (0..count).map(|i| i.to_string()).collect()
    }
}

/// True when every entry (row, column, weight) has its mirror (column, row, weight). The
/// entries come row by row, so they are sorted and each mirror is found by binary search.
fn is_symmetric(entries: &[(u32, u32, f64)]) -> bool {
    entries.iter().all(|&(i, j, w)| {
        entries.binary_search_by(|&(r, c, _)| (r, c).cmp(&(j, i))).is_ok_and(|k| entries[k].2.to_bits() == w.to_bits())
    })
}

/// Writes a graph as a weight matrix with a label line, columns lined up.
///
/// An undirected edge fills both of its entries. Where several edges lead from one node to
/// another (parallel edges, or a directed and an undirected edge between the same nodes) the
/// entry keeps the cheapest: the matrix has room for one weight and a search would never take
/// a dearer one. Self-loops are dropped and the diagonal is written as 0, as a self-loop never
/// shortens a path. Places are not kept ([`parse_matrix`] puts the vertices on a circle), and
/// the text has a row and a column for every node, so it grows as the square of the node
/// count: meant for graphs of tens of nodes, not thousands.
///
/// Reading the text back gives the same matrix, and a graph read from a matrix is written
/// back as the same matrix. An empty graph gives a bare `#` line, which [`parse_matrix`]
/// refuses as it has no rows.
///
/// ```
/// use pathlab_core::formats::graph;
/// use pathlab_core::space::Graph;
/// let mut g = Graph::new(true);
/// let a = g.add_node("A", 0.0, 0.0).unwrap();
/// let b = g.add_node("main hall", 0.0, 1.0).unwrap();
/// g.add_edge(a, b, 6.0, true).unwrap();
/// g.add_edge(a, b, 2.5, false).unwrap(); // cheaper, and both ways
/// assert_eq!(graph::to_matrix(&g), "#   A \"main hall\"\n    0         2.5\n  2.5           0\n");
/// ```
pub fn to_matrix(graph: &Graph) -> String {
    let n = graph.ids().len();
    let labels: Vec<String> = graph.ids().iter().map(|id| label_text(id)).collect();
    let fill_row = |i: usize, row: &mut Vec<f64>| {
        row.clear();
        row.resize(n, f64::INFINITY);
        for &(to, cost) in graph.arcs(i as u32) {
            let to = to as usize;
            if to != i && cost < row[to] {
                row[to] = cost;
            }
        }
        row[i] = 0.0;
    };
    let entry = |w: f64| {
        if w.is_finite() {
            w.to_string()
        } else {
            "inf".to_string()
        }
    };
    let mut widths: Vec<usize> = labels.iter().map(|l| l.chars().count()).collect();
    let mut row = Vec::with_capacity(n);
    for i in 0..n {
        fill_row(i, &mut row);
        for (width, &w) in widths.iter_mut().zip(&row) {
            *width = (*width).max(entry(w).len());
        }
    }
    let mut out = String::from("#");
    for (label, &width) in labels.iter().zip(&widths) {
        let _ = write!(out, " {label:>width$}");
    }
    out.push('\n');
    for i in 0..n {
        fill_row(i, &mut row);
        out.push(' ');
        for (&w, &width) in row.iter().zip(&widths) {
            let _ = write!(out, " {:>width$}", entry(w));
        }
        out.push('\n');
    }
    out
}

/// A node id as a label: bare, or quoted when it holds a gap, a quote or a backslash.
fn label_text(id: &str) -> String {
    let bare = !id.is_empty() && !id.chars().any(|c| c == ',' || c == '"' || c == '\\' || c.is_whitespace());
    if bare {
        id.to_string()
    } else {
        json_string(id)
    }
}
