//! `pathlab path` end to end: one search on a graph file, a weight matrix, a grid or a hex
//! grid, printed as `{"cost": c, "path": [...], "expanded": n, "micros": t}`; bad input exits
//! 2 with a message that names the problem. Expected costs are worked by hand in each test.

mod support;

use std::path::{Path, PathBuf};
use support::pathlab;

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pathlab-path-tests");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file");
    path
}

/// Runs `path` and insists on exit 0; returns stdout's one line.
fn ok(args: &[&str]) -> String {
    let out = pathlab(args);
    let (o, e) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{args:?}: exit {:?}\n{e}", out.status.code());
    assert_eq!(o.lines().count(), 1, "one JSON object on one line: {o}");
    o.trim().to_string()
}

/// Runs `path` and insists on exit 2; returns stderr.
fn fails(args: &[&str]) -> String {
    let out = pathlab(args);
    let e = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {e}");
    assert!(out.stdout.is_empty(), "nothing on stdout when failing");
    e
}

/// The value of `"key": ` in a flat JSON object, up to the next `, "` or `}`.
fn field<'a>(json: &'a str, key: &str) -> &'a str {
    let at = json.find(&format!("\"{key}\": ")).unwrap_or_else(|| panic!("no {key} in {json}")) + key.len() + 4;
    let rest = &json[at..];
    let end = if rest.starts_with("[[") {
        rest.find("]]").expect("closing ]]") + 2
    } else if rest.starts_with('[') {
        rest.find(']').expect("closing ]") + 1
    } else {
        rest.find([',', '}']).expect("end")
    };
    &rest[..end]
}

/// A triangle: A-B costs 2, B-C 3, A-C 9 (both ways), and a one-way D -> A of cost 1.
const TRIANGLE: &str = r#"{"directed": false,
 "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}, {"id": "C", "x": 2, "y": 0}, {"id": "D", "x": 0, "y": 1}],
 "edges": [{"from": "A", "to": "C", "cost": 9}, {"from": "A", "to": "B", "cost": 2},
           {"from": "B", "to": "C", "cost": 3}, {"from": "D", "to": "A", "cost": 1, "directed": true}]}"#;

#[test]
fn a_graph_file_gives_the_cheapest_path_by_node_ids() {
    let file = scratch("triangle.json", TRIANGLE);
    let f = file.to_str().unwrap();
    for algo in ["astar", "dijkstra"] {
        let json = ok(&["path", f, "--start", "A", "--goal", "C", "--algo", algo]);
        // A-B-C costs 2 + 3 = 5, below the direct 9.
        assert_eq!(field(&json, "cost"), "5", "{algo}: {json}");
        assert_eq!(field(&json, "path"), r#"["A", "B", "C"]"#, "{algo}: {json}");
        assert!(field(&json, "expanded").parse::<usize>().is_ok());
        assert!(field(&json, "micros").parse::<f64>().is_ok());
    }
    // Breadth-first takes the fewest edges, the dear direct one.
    let json = ok(&["path", f, "--start", "A", "--goal", "C", "--algo", "bfs"]);
    assert_eq!(field(&json, "cost"), "9", "{json}");
}

#[test]
fn a_one_way_edge_cannot_be_walked_back() {
    let file = scratch("one-way.json", TRIANGLE);
    let f = file.to_str().unwrap();
    let there = ok(&["path", f, "--start", "D", "--goal", "C"]);
    assert_eq!(field(&there, "cost"), "6", "D->A 1, A-B 2, B-C 3: {there}");
    let back = ok(&["path", f, "--start", "C", "--goal", "D"]);
    assert_eq!(field(&back, "cost"), "null", "{back}");
    assert_eq!(field(&back, "path"), "[]", "{back}");
}

#[test]
fn a_weight_matrix_is_a_directed_graph() {
    // w[i][j] is the edge i -> j. P to Q costs 4 directly, or 1 + 2 through R. Back from Q,
    // row Q has only Q -> P at 7 (no edge to R).
    let file = scratch("matrix.txt", "# P Q R\n0 4 1\n7 0 inf\ninf 2 0\n");
    let f = file.to_str().unwrap();
    let there = ok(&["path", f, "--space", "graph", "--start", "P", "--goal", "Q", "--algo", "dijkstra"]);
    assert_eq!(field(&there, "cost"), "3", "{there}");
    assert_eq!(field(&there, "path"), r#"["P", "R", "Q"]"#, "{there}");
    let back = ok(&["path", f, "--space", "graph", "--start", "Q", "--goal", "P", "--algo", "dijkstra"]);
    assert_eq!(field(&back, "cost"), "7", "{back}");
}

#[test]
fn a_course_file_is_searched_as_a_square_grid_with_cells_as_pairs() {
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/course-5x5.txt");
    let m = map.to_str().unwrap();
    // The course's 5x5 example, 4-connected with the 10/14 costs: 7 moves of 10.
    let json = ok(&["path", m, "--start", "A", "--goal", "B", "--diagonal", "never", "--costs", "integer"]);
    assert_eq!(field(&json, "cost"), "70", "{json}");
    let path = field(&json, "path");
    assert!(path.starts_with("[[3, 1], ") && path.ends_with("[0, 3]]"), "{path}");
    // The same ends given as x,y.
    let json = ok(&["path", m, "--start", "3,1", "--goal", "0,3", "--diagonal", "never", "--costs", "integer"]);
    assert_eq!(field(&json, "cost"), "70", "{json}");
}

#[test]
fn a_hex_grid_counts_six_way_moves() {
    // Pointy tops, odd rows pushed right: from the top-left to the bottom-right of a 3x3 field
    // is 3 moves (a square grid needs 4 straight moves, or 2 diagonal ones).
    let file = scratch("hex.txt", "3\n3\nA00\n000\n00B\n");
    let f = file.to_str().unwrap();
    let json = ok(&["path", f, "--space", "hex", "--start", "A", "--goal", "B"]);
    assert_eq!(field(&json, "cost"), "3", "{json}");
    // Flat tops, odd columns pushed down: (2,2) is axial (2,1), max(|dq|, |dr|, |dq + dr|) = 3
    // hexes from (0,0).
    let json = ok(&["path", f, "--space", "hex", "--layout", "flat", "--start", "0,0", "--goal", "2,2"]);
    assert_eq!(field(&json, "cost"), "3", "{json}");
}

#[test]
fn bad_graphs_and_ends_exit_2_naming_the_problem() {
    let cases: [(&str, &str, &[&str], &str); 7] = [
        (
            "broken.json",
            "{\"nodes\": [\n  {\"id\": \"A\", \"x\": 0, \"y\": 0},\n  oops\n]}",
            &["--start", "A", "--goal", "A"],
            "line 3",
        ),
        (
            "negative.json",
            r#"{"nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}], "edges": [{"from": "A", "to": "B", "cost": -1}]}"#,
            &["--start", "A", "--goal", "B"],
            "-1",
        ),
        (
            "missing.json",
            r#"{"nodes": [{"id": "A", "x": 0, "y": 0}], "edges": [{"from": "A", "to": "Z", "cost": 1}]}"#,
            &["--start", "A", "--goal", "A"],
            "\"Z\"",
        ),
        ("start.json", TRIANGLE, &["--start", "Q", "--goal", "A"], "the start \"Q\" is not a node"),
        ("goal.json", TRIANGLE, &["--start", "A", "--goal", "Q"], "the goal \"Q\" is not a node"),
        ("jps.json", TRIANGLE, &["--start", "A", "--goal", "C", "--algo", "jps"], "square grid"),
        ("matrix-bad.txt", "# A B\n0 1\n1 -3\n", &["--start", "A", "--goal", "B"], "line 3"),
    ];
    for (name, text, args, says) in cases {
        let file = scratch(name, text);
        let mut all = vec!["path", file.to_str().unwrap()];
        all.extend_from_slice(args);
        let err = fails(&all);
        assert!(err.contains(says), "{name}: expected {says:?} in {err}");
    }
    let err = fails(&["path", "/no/such/file.json", "--start", "A", "--goal", "B"]);
    assert!(err.contains("/no/such/file.json"), "{err}");
    let err = fails(&["path", "x.json", "--start", "A"]);
    assert!(err.contains("--goal"), "{err}");
    let err = fails(&["path", "x.json", "--start", "A", "--goal", "B", "--space", "torus"]);
    assert!(err.contains("torus"), "{err}");
}

/// Every search that runs on any space answers the slides' question on the five-vertex graph:
/// from B to E the direct edge costs 14, but B-C-A-E costs 4 + 2 + 5 = 11. The optimal ones
/// return that path; the walking agents (LRTA*, RTA*, D* Lite) walk it too on this small graph,
/// since from B the estimate points along it.
#[test]
fn every_search_that_runs_on_any_space_costs_the_slides_b_to_e_at_11() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/graphs/slides-5.json");
    for algo in ["dijkstra", "astar", "bi-astar", "ida", "lpa", "dstar-lite", "lrta", "rta"] {
        let out = ok(&["path", file, "--start", "B", "--goal", "E", "--algo", algo]);
        assert_eq!(field(&out, "cost"), "11", "{algo}: {out}");
        assert_eq!(field(&out, "path"), r#"["B", "C", "A", "E"]"#, "{algo}: {out}");
    }
}

/// A 3x3 room with a pillar in the middle, as a course data file (0 open, 1 wall).
const RING: &str = "3\n3\n000\n010\n000\n";

#[test]
fn a_navmesh_path_runs_from_centre_to_centre_round_a_corner() {
    let file = scratch("ring.txt", RING);
    let f = file.to_str().unwrap();
    for args in
        [&["--space", "navmesh"][..], &["--algo", "navmesh"][..], &["--space", "navmesh", "--algo", "navmesh"][..]]
    {
        let mut all = vec!["path", f, "--start", "0,2", "--goal", "2,0"];
        all.extend_from_slice(args);
        let json = ok(&all);
        // (0.5, 2.5) -> a corner of the pillar -> (2.5, 0.5): two legs of sqrt(2.5).
        let cost: f64 = field(&json, "cost").parse().unwrap();
        assert!((cost - 10f64.sqrt()).abs() < 1e-12, "{json}");
        let path = field(&json, "path");
        assert!(path == "[[0.5, 2.5], [1, 1], [2.5, 0.5]]" || path == "[[0.5, 2.5], [2, 2], [2.5, 0.5]]", "{json}");
        assert!(field(&json, "expanded").parse::<usize>().is_ok());
    }
}

#[test]
fn navmesh_bad_input_is_named() {
    let file = scratch("ring-bad.txt", RING);
    let f = file.to_str().unwrap();
    let e = fails(&["path", f, "--space", "navmesh", "--start", "0,0", "--goal", "1,1"]);
    assert!(e.contains("goal") && e.contains("in no polygon"), "{e}");
    let e = fails(&["path", f, "--space", "navmesh", "--start", "0,0", "--goal", "2,2", "--algo", "jps"]);
    assert!(e.contains("only navmesh runs"), "{e}");
    let walls = scratch("walls.txt", "2\n2\n11\n11\n");
    let e = fails(&["path", walls.to_str().unwrap(), "--space", "navmesh", "--start", "0,0", "--goal", "1,1"]);
    assert!(e.contains("no free cell"), "{e}");
    let e = fails(&["path", f, "--space", "mesh", "--start", "0,0", "--goal", "1,1"]);
    assert!(e.contains("navmesh"), "the accepted spaces are listed: {e}");
}

#[test]
fn navmesh_diagonal_contacts_follow_the_rule() {
    // Two open cells touching only at a corner: joined under always alone.
    let file = scratch("contact.txt", "2\n2\n01\n10\n");
    let f = file.to_str().unwrap();
    let json = ok(&["path", f, "--space", "navmesh", "--start", "0,0", "--goal", "1,1", "--diagonal", "always"]);
    assert_eq!(field(&json, "cost"), format!("{}", 2f64.sqrt()), "{json}");
    for rule in ["never", "no-corner-cutting", "at-most-one-blocked"] {
        let json = ok(&["path", f, "--space", "navmesh", "--start", "0,0", "--goal", "1,1", "--diagonal", rule]);
        assert_eq!((field(&json, "cost"), field(&json, "path")), ("null", "[]"), "{rule}: {json}");
    }
}

#[test]
fn navmesh_one_cell_corridor_bends_at_the_wall_corner_under_every_rule() {
    // . . .
    // # # .
    // # # .
    // From cell (0,0) to cell (2,2) along a corridor one cell wide: the string pulls tight
    // round the corner (2, 1), so the length is 2 x sqrt(1.5^2 + 0.5^2) = 2 x sqrt(2.5).
    let file = scratch("corridor.txt", "3\n3\n000\n110\n110\n");
    let f = file.to_str().unwrap();
    for rule in ["never", "no-corner-cutting", "at-most-one-blocked", "always"] {
        let json = ok(&["path", f, "--space", "navmesh", "--start", "0,0", "--goal", "2,2", "--diagonal", rule]);
        let cost: f64 = field(&json, "cost").parse().unwrap();
        assert!((cost - 2.0 * 2.5f64.sqrt()).abs() < 1e-12, "{rule}: {json}");
        assert!(
            field(&json, "path").contains("[2, 1]") || field(&json, "path").contains("[2.0, 1.0]"),
            "{rule}: {json}"
        );
    }
}

#[test]
fn costs_on_the_nodes_take_the_hill_where_costs_on_the_links_take_the_marsh() {
    // Worked by hand in the hill-costs preset: the links give A-marsh-B, 3 + 3 = 6 (the hill
    // costs 6 up and 1 down); the nodes give A-hill-B, the hill's 2 and B's 1.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/graphs/hill-costs.json");
    let links = ok(&["path", file, "--start", "A", "--goal", "B", "--algo", "dijkstra"]);
    assert_eq!((field(&links, "cost"), field(&links, "path")), ("6", r#"["A", "marsh", "B"]"#), "{links}");
    let nodes = ok(&["path", file, "--start", "A", "--goal", "B", "--algo", "dijkstra", "--costs-on", "nodes"]);
    assert_eq!((field(&nodes, "cost"), field(&nodes, "path")), ("3", r#"["A", "hill", "B"]"#), "{nodes}");
    let bad = fails(&["path", file, "--start", "A", "--goal", "B", "--costs-on", "edges"]);
    assert!(bad.contains("--costs-on") && bad.contains("links, nodes"), "{bad}");
}
