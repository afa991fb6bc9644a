//! Graph files (JSON and the weight matrix): hand-made bad files give errors naming the right
//! line and problem; random graphs and matrices survive writing and reading back; random and
//! mutated text never panics; and the preset graphs in `maps/graphs/` have the cheapest
//! routes worked out by hand, checked by the oracle's Dijkstra and a path enumeration written
//! in this file over the parsed edge lists (not by pathlab's searches).

mod oracle;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use oracle::shortest;
use pathlab_core::formats::graph::{
    parse_json, parse_matrix, to_json, to_matrix, GraphFileError, MAX_GRAPH_FILE_BYTES, RING_RADIUS,
};
use pathlab_core::space::graph::{MAX_EDGES, MAX_ID, MAX_NODES};
use pathlab_core::space::Graph;
use proptest::prelude::*;

fn json_err(text: &str) -> GraphFileError {
    parse_json(text).expect_err(&format!("accepted {text:?}"))
}

fn matrix_err(text: &str) -> GraphFileError {
    parse_matrix(text).expect_err(&format!("accepted {text:?}"))
}

/// Asserts the error is on `line` (and `column`, when not `None`) and its text mentions every
/// one of `words`.
fn assert_names(e: &GraphFileError, line: usize, column: Option<usize>, words: &[&str]) {
    assert_eq!(e.line, line, "wrong line in {e}");
    let text = e.to_string();
    match column {
        Some(c) => {
            assert_eq!(e.column, c, "wrong column in {e}");
            assert!(text.starts_with(&format!("line {line}, column {c}: ")), "{text}");
        }
        None if line > 0 => {
            assert_eq!(e.column, 0, "{text}");
            assert!(text.starts_with(&format!("line {line}: ")), "{text}");
        }
        None => assert_eq!(text, e.message),
    }
    for w in words {
        assert!(text.contains(w), "{text:?} does not mention {w:?}");
    }
}

/// The edges as (from id, to id, cost, directed), for comparing graphs by what they say.
fn edge_list(g: &Graph) -> Vec<(String, String, f64, bool)> {
    g.edges().iter().map(|e| (g.id(e.from).to_string(), g.id(e.to).to_string(), e.cost, e.directed)).collect()
}

// ---------------------------------------------------------------------------------------------
// An independent check of cheapest routes: the oracle's Dijkstra and a brute-force
// enumeration of simple paths, both over `Graph::edges()` as the file gave them.
// ---------------------------------------------------------------------------------------------

/// For each node, the (neighbour, cost) pairs one may move to, built from the edge list.
fn moves(g: &Graph) -> Vec<Vec<(usize, f64)>> {
    let mut out = vec![Vec::new(); g.ids().len()];
    for e in g.edges() {
        out[e.from as usize].push((e.to as usize, e.cost));
        if !e.directed {
            out[e.to as usize].push((e.from as usize, e.cost));
        }
    }
    out
}

fn index_of(g: &Graph, id: &str) -> usize {
    g.ids().iter().position(|x| x == id).unwrap_or_else(|| panic!("no node {id}"))
}

/// The cheapest cost from `from` to `to` and one path of that cost, by ids.
fn dijkstra(g: &Graph, from: &str, to: &str) -> Option<(f64, Vec<String>)> {
    let adjacent = moves(g);
    let (s, t) = (index_of(g, from), index_of(g, to));
    let tree = shortest(adjacent.len(), s, |u, emit| adjacent[u].iter().for_each(|&(v, c)| emit(v, c)));
    let path = tree.path_to(t)?;
    Some((tree.cost[t], path.into_iter().map(|v| g.ids()[v].clone()).collect()))
}

/// Every simple path from `from` to `to` with its cost, cheapest first.
fn all_paths(g: &Graph, from: &str, to: &str) -> Vec<(f64, Vec<String>)> {
    fn walk(
        adjacent: &[Vec<(usize, f64)>],
        at: usize,
        goal: usize,
        cost: f64,
        path: &mut Vec<usize>,
        found: &mut Vec<(f64, Vec<usize>)>,
    ) {
        if at == goal {
            found.push((cost, path.clone()));
            return;
        }
        for &(v, c) in &adjacent[at] {
            if !path.contains(&v) {
                path.push(v);
                walk(adjacent, v, goal, cost + c, path, found);
                path.pop();
            }
        }
    }
    let adjacent = moves(g);
    let (s, t) = (index_of(g, from), index_of(g, to));
    let mut found = Vec::new();
    walk(&adjacent, s, t, 0.0, &mut vec![s], &mut found);
    found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.len().cmp(&b.1.len())));
    found.into_iter().map(|(c, p)| (c, p.into_iter().map(|v| g.ids()[v].clone()).collect())).collect()
}

/// Checks the hand-worked cheapest route: Dijkstra's cost and path are those numbers, and the
/// enumeration agrees and finds no other path as cheap. Returns every path, cheapest first.
fn assert_cheapest(g: &Graph, from: &str, to: &str, cost: f64, path: &[&str]) -> Vec<(f64, Vec<String>)> {
    let (c, p) = dijkstra(g, from, to).unwrap_or_else(|| panic!("no path {from} -> {to}"));
    assert_eq!(c, cost, "{from} -> {to}: Dijkstra's cost");
    assert_eq!(p, path, "{from} -> {to}: Dijkstra's path");
    let every = all_paths(g, from, to);
    assert_eq!(every[0].0, cost, "{from} -> {to}: the cheapest enumerated path");
    assert_eq!(every[0].1, path);
    assert!(every.len() == 1 || every[1].0 > cost, "{from} -> {to}: a second path as cheap: {:?}", every[1]);
    every
}

fn preset(name: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/graphs").join(name);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

// ---------------------------------------------------------------------------------------------
// The presets
// ---------------------------------------------------------------------------------------------

#[test]
fn slides_5_cheapest_b_to_e_is_11_by_b_c_a_e_beating_the_direct_14_and_every_two_link_route() {
    let g = parse_json(&preset("slides-5.json")).unwrap();
    assert_eq!(g.ids(), ["A", "B", "C", "D", "E"]);
    assert_eq!(g.edges().len(), 8);
    assert!(!g.directed() && g.edges().iter().all(|e| !e.directed && e.cost.fract() == 0.0));
    assert!(g.places().iter().flatten().all(|v| (0.0..=400.0).contains(v)));
    // Worked by hand: B-E 14; B-A-E 8+5 = 13, B-C-E 4+8 = 12, B-D-E 6+7 = 13;
    // B-C-A-E 4+2+5 = 11; B-A-C-E 8+2+8 = 18.
    let every = assert_cheapest(&g, "B", "E", 11.0, &["B", "C", "A", "E"]);
    let direct = every.iter().find(|(_, p)| p.len() == 2).unwrap();
    assert_eq!(direct.0, 14.0, "the direct link");
    let fewest = every.iter().map(|(_, p)| p.len()).min().unwrap();
    assert_eq!(fewest, 2, "the direct link is the fewest-edges route");
    let two_links = every.iter().filter(|(_, p)| p.len() == 3).map(|(c, _)| *c);
    assert_eq!(two_links.fold(f64::INFINITY, f64::min), 12.0, "the best two-link route");
    assert!(preset("slides-5.json").contains("costs only 11"), "the title tells the number");
}

#[test]
fn fps_rooms_spawn_to_roof_is_45_through_the_vents_not_50_over_the_bridge() {
    let g = parse_json(&preset("fps-rooms.json")).unwrap();
    assert!((8..=10).contains(&g.ids().len()), "{} rooms", g.ids().len());
    assert!(g.edges().iter().all(|e| !e.directed));
    // Worked by hand: spawn-hall 10, hall-armoury 12, armoury-vents 14, vents-roof 9 = 45;
    // over the bridge: 10 + 12 + 12 (armoury-bridge) + 16 (bridge-roof) = 50.
    let every = assert_cheapest(&g, "spawn", "roof", 45.0, &["spawn", "hall", "armoury", "vents", "roof"]);
    assert_eq!(every[1].0, 50.0);
    assert_eq!(every[1].1, ["spawn", "hall", "armoury", "bridge", "roof"]);
    // No corridor is shorter than the straight line between its rooms' places (10 units a
    // metre), so the page's estimate is honest about distances as well as admissible.
    for e in g.edges() {
        let ([ax, ay], [bx, by]) = (g.places()[e.from as usize], g.places()[e.to as usize]);
        assert!(e.cost * 10.0 >= (ax - bx).hypot(ay - by), "{} - {}", g.id(e.from), g.id(e.to));
    }
}

#[test]
fn road_junctions_one_way_streets_make_harbour_to_station_10_but_station_to_harbour_18() {
    let g = parse_json(&preset("road-junctions.json")).unwrap();
    assert!((10..=12).contains(&g.ids().len()));
    assert!(g.edges().iter().filter(|e| e.directed).count() >= 3, "some one-way streets");
    // Worked by hand: there, harbour-depot 6 then the one-way depot -> station 4.
    assert_cheapest(&g, "harbour", "station", 10.0, &["harbour", "depot", "station"]);
    // Back, depot -> station and river-bridge -> depot are one-way and the market square runs
    // church -> market -> town-hall -> school: station-town-hall 3, -> school 2, school-church
    // 3, church -> market 2, market-river-bridge 4, river-bridge-harbour 4 = 18 (via the park
    // instead: 19).
    let back = assert_cheapest(
        &g,
        "station",
        "harbour",
        18.0,
        &["station", "town-hall", "school", "church", "market", "river-bridge", "harbour"],
    );
    assert_eq!(back[1].0, 19.0);
}

#[test]
fn course_matrix_is_directed_and_a_to_f_costs_14_while_f_to_a_costs_10() {
    let g = parse_matrix(&preset("course-matrix.txt")).unwrap();
    assert!(g.directed());
    assert_eq!(g.ids(), ["A", "B", "C", "D", "E", "F"]);
    assert!(g.edges().iter().all(|e| e.directed));
    assert_cheapest(&g, "A", "F", 14.0, &["A", "D", "E", "F"]);
    assert_cheapest(&g, "F", "A", 10.0, &["F", "B", "C", "A"]);
    // The matrix has no edge B -> A, so the trip back is not the trip there reversed.
    assert!(dijkstra(&g, "B", "A").is_some_and(|(c, _)| c == 5.0));
}

#[test]
fn every_preset_survives_a_round_trip_through_its_own_format() {
    for name in ["slides-5.json", "fps-rooms.json", "road-junctions.json"] {
        let g = parse_json(&preset(name)).unwrap();
        assert_eq!(parse_json(&to_json(&g)).unwrap(), g, "{name}");
        // Through the matrix the weights survive (places do not).
        let m = parse_matrix(&to_matrix(&g)).unwrap();
        assert_eq!(m.ids(), g.ids(), "{name}");
        for s in g.ids() {
            for t in g.ids() {
                assert_eq!(dijkstra(&g, s, t).map(|r| r.0), dijkstra(&m, s, t).map(|r| r.0), "{name}: {s} -> {t}");
            }
        }
    }
    let g = parse_matrix(&preset("course-matrix.txt")).unwrap();
    assert_eq!(parse_matrix(&to_matrix(&g)).unwrap(), g);
    assert_eq!(parse_json(&to_json(&g)).unwrap(), g);
}

// ---------------------------------------------------------------------------------------------
// JSON: what it accepts
// ---------------------------------------------------------------------------------------------

#[test]
fn json_reads_defaults_per_edge_directions_a_title_and_extra_fields() {
    let text = "\u{feff}{\"title\": \"t\", \"author\": {\"nodes\": [1, 2]}, \"nodes\": [\r\n\
        {\"id\": \"A\", \"x\": 0, \"y\": -1.5, \"colour\": \"red\"},\r\n\
        {\"id\": \"B\\u00e9\", \"x\": 1e2, \"y\": 0}],\r\n\
        \"edges\": [{\"from\": \"A\", \"to\": \"B\u{e9}\", \"cost\": 0},\r\n\
        {\"from\": \"B\u{e9}\", \"to\": \"A\", \"cost\": 2.25, \"directed\": true},\r\n\
        {\"from\": \"A\", \"to\": \"A\", \"cost\": 1}]}";
    let g = parse_json(text).unwrap();
    assert!(!g.directed(), "directed defaults to false");
    assert_eq!(g.ids(), ["A", "B\u{e9}"]);
    assert_eq!(g.places(), [[0.0, -1.5], [100.0, 0.0]]);
    assert_eq!(
        edge_list(&g),
        [
            ("A".into(), "B\u{e9}".into(), 0.0, false),
            ("B\u{e9}".into(), "A".into(), 2.25, true),
            ("A".into(), "A".into(), 1.0, false)
        ]
    );
    // A directed file makes edges one-way unless they say otherwise; no edges is fine.
    let g = parse_json(
        r#"{"directed": true, "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 0, "y": 0}],
        "edges": [{"from": "A", "to": "B", "cost": 1}, {"from": "A", "to": "B", "cost": 1, "directed": false}]}"#,
    )
    .unwrap();
    assert!(g.directed() && g.edges()[0].directed && !g.edges()[1].directed);
    let empty = parse_json(r#"{"nodes": []}"#).unwrap();
    assert!(empty.ids().is_empty() && empty.edges().is_empty());
}

#[test]
fn to_json_writes_one_node_or_edge_a_line_and_direction_only_where_it_differs() {
    let mut g = Graph::new(true);
    let a = g.add_node("say \"hi\"\\", 0.5, -3.0).unwrap();
    let b = g.add_node("B", 1e-7, 12_345_678.0).unwrap();
    g.add_edge(a, b, 1.0, true).unwrap();
    g.add_edge(b, a, 0.1, false).unwrap();
    let text = to_json(&g);
    assert_eq!(
        text,
        "{\n  \"directed\": true,\n  \"nodes\": [\n\
         \x20   {\"id\": \"say \\\"hi\\\"\\\\\", \"x\": 0.5, \"y\": -3},\n\
         \x20   {\"id\": \"B\", \"x\": 0.0000001, \"y\": 12345678}\n  ],\n  \"edges\": [\n\
         \x20   {\"from\": \"say \\\"hi\\\"\\\\\", \"to\": \"B\", \"cost\": 1},\n\
         \x20   {\"from\": \"B\", \"to\": \"say \\\"hi\\\"\\\\\", \"cost\": 0.1, \"directed\": false}\n  ]\n}\n"
    );
    assert_eq!(parse_json(&text).unwrap(), g);
    assert_eq!(to_json(&Graph::new(false)), "{\n  \"directed\": false,\n  \"nodes\": [],\n  \"edges\": []\n}\n");
    assert_eq!(parse_json(&to_json(&Graph::new(false))).unwrap(), Graph::new(false));
}

// ---------------------------------------------------------------------------------------------
// JSON: syntax and type errors carry serde_json's line and column
// ---------------------------------------------------------------------------------------------

#[test]
fn json_syntax_errors_name_line_and_column() {
    let missing_comma =
        "{\"nodes\": [\n  {\"id\": \"A\", \"x\": 0, \"y\": 0}\n  {\"id\": \"B\", \"x\": 1, \"y\": 0}\n]}";
    assert_names(&json_err(missing_comma), 3, Some(3), &["expected `,` or `]`"]);
    let unclosed = "{\"nodes\": [\n  {\"id\": \"A\", \"x\": 0, \"y\": 0}\n";
    let e = json_err(unclosed);
    assert_eq!(e.line, 3, "{e}");
    assert!(e.to_string().contains("EOF while parsing"), "{e}");
    let nan = "{\"nodes\": [{\"id\": \"A\", \"x\": 0, \"y\": 0}],\n \"edges\": [{\"from\": \"A\", \"to\": \"A\", \"cost\": NaN}]}";
    assert_names(&json_err(nan), 2, Some(45), &["expected value"]);
    let trailing = "{\"nodes\": []}\n\n{}";
    assert_names(&json_err(trailing), 3, Some(1), &["trailing characters"]);
}

#[test]
fn json_wrong_types_and_missing_fields_name_line_and_column() {
    let cost_string = "{\"nodes\": [{\"id\": \"A\", \"x\": 0, \"y\": 0}],\n\"edges\": [\n{\"from\": \"A\", \"to\": \"A\", \"cost\": \"4\"}]}";
    // A number's column is just after the value.
    assert_names(&json_err(cost_string), 3, Some(37), &["invalid type: string \"4\", expected a number"]);
    let node = |x: &str| format!("{{\"nodes\": [\n{{\"id\": \"A\", \"x\": {x}, \"y\": 0}}]}}");
    assert_names(&json_err(&node("true")), 2, Some(21), &["invalid type: boolean `true`, expected a number"]);
    assert_names(&json_err(&node("null")), 2, Some(21), &["invalid type: null, expected a number"]);
    assert_names(&json_err(&node("[1]")), 2, Some(20), &["invalid type: sequence, expected a number"]);
    assert_names(&json_err(&node("-1e400")), 2, Some(23), &["number out of range"]);
    let numeric_id = "{\"nodes\": [\n{\"id\": 7, \"x\": 0, \"y\": 0}]}";
    assert_names(&json_err(numeric_id), 2, Some(8), &["invalid type: integer `7`", "string"]);
    let no_y = "{\"nodes\": [\n  {\"id\": \"A\", \"x\": 0},\n  {\"id\": \"B\", \"x\": 0, \"y\": 0}]}";
    assert_names(&json_err(no_y), 2, Some(21), &["missing field `y`"]);
    let no_nodes = "{\"edges\": []}";
    assert_names(&json_err(no_nodes), 1, Some(13), &["missing field `nodes`"]);
    let bad_title = "{\"title\": 5, \"nodes\": []}";
    assert_names(&json_err(bad_title), 1, Some(11), &["invalid type: integer `5`, expected a string"]);
    let bad_directed = "{\"directed\": \"yes\", \"nodes\": []}";
    assert_names(&json_err(bad_directed), 1, Some(18), &["expected a boolean"]);
    let edge_directed = "{\"nodes\": [{\"id\": \"A\", \"x\": 0, \"y\": 0}],\n\"edges\": [{\"from\": \"A\", \"to\": \"A\", \"cost\": 1, \"directed\": 1}]}";
    assert_names(&json_err(edge_directed), 2, Some(59), &["expected a boolean"]);
    let twice = "{\"nodes\": [],\n\"nodes\": []}";
    assert_names(&json_err(twice), 2, Some(7), &["duplicate field `nodes`"]);
    // A number too large for an f64 is refused by serde_json, at its last digit.
    let huge = "{\"nodes\": [\n{\"id\": \"A\", \"x\": 1e999, \"y\": 0}]}";
    assert_names(&json_err(huge), 2, Some(22), &["number out of range"]);
}

#[test]
fn json_that_is_not_an_object_or_is_empty_is_refused_plainly() {
    assert_names(&json_err(""), 0, None, &["empty", "JSON object"]);
    assert_names(&json_err(" \n\t\r\n"), 0, None, &["empty"]);
    assert_names(&json_err("\n\n  [1, 2]"), 3, None, &["JSON object", "\"[\""]);
    assert_names(&json_err("nodes: A B"), 1, None, &["JSON object", "\"n\""]);
    // A struct written as an array is not a graph file either.
    assert_names(&json_err("[false, null, [], []]"), 1, None, &["JSON object"]);
}

// ---------------------------------------------------------------------------------------------
// JSON: a graph's problems name the line where the node or edge object starts
// ---------------------------------------------------------------------------------------------

/// Three nodes on lines 3 to 5, edges starting on lines 8, 9 and 11.
fn with_edges(edges: [&str; 3]) -> String {
    format!(
        "{{\"title\": \"nodes: [{{ ]\\\" }}\",\n\
         \"nodes\": [\n\
         {{\"id\": \"A\", \"x\": 0, \"y\": 0}},\n\
         {{\"id\": \"B\", \"x\": 3, \"y\": 4}},\n\
         {{\"id\": \"C\", \"x\": 6, \"y\": 8}}],\n\
         \"notes\": {{\"edges\": [{{\"from\": \"Q\"}}, {{}}], \"list\": [[], {{}}]}},\n\
         \"edges\": [\n\
         {},\n\
         {},\n\
         \n\
         {}\n\
         ]}}",
        edges[0], edges[1], edges[2]
    )
}

#[test]
fn json_negative_cost_names_the_edges_line_ends_and_cost() {
    let ok = r#"{"from": "A", "to": "B", "cost": 1}"#;
    let text = with_edges([ok, ok, r#"{"from": "B", "to": "C", "cost": -1}"#]);
    assert_names(&json_err(&text), 11, None, &["edge 3", r#"("B" -> "C")"#, "costs -1", ">= 0"]);
    let text = with_edges([ok, "{\"from\": \"C\",\n \"to\": \"A\", \"cost\": -0.5}", ok]);
    assert_names(&json_err(&text), 9, None, &["edge 2", "costs -0.5"]);
    assert!(parse_json(&with_edges([ok, ok, ok])).is_ok());
}

#[test]
fn json_edge_to_or_from_a_missing_id_names_the_edges_line_and_the_id() {
    let ok = r#"{"from": "A", "to": "B", "cost": 1}"#;
    let text = with_edges([r#"{"from": "A", "to": "Z", "cost": 1}"#, ok, ok]);
    assert_names(&json_err(&text), 8, None, &["edge 1 goes to \"Z\", which is not a node"]);
    let text = with_edges([ok, r#"{"to": "A", "from": "a", "cost": 1}"#, ok]);
    assert_names(&json_err(&text), 9, None, &["edge 2 goes from \"a\", which is not a node"]);
}

#[test]
fn json_bad_ids_name_the_nodes_line() {
    let file = |nodes: &str| format!("{{\"edges\": [],\n\"nodes\": [\n{nodes}]}}");
    let text = file("{\"id\": \"A\", \"x\": 0, \"y\": 0},\n{\"id\": \"B\", \"x\": 0, \"y\": 0}, {\"id\": \"A\", \"x\": 1, \"y\": 1}");
    assert_names(&json_err(&text), 4, None, &["node 3 has the id \"A\", which node 1 (line 3) already has"]);
    let text = file("{\"id\": \"A\", \"x\": 0, \"y\": 0},\n\n{\"id\": \"\", \"x\": 0, \"y\": 0}");
    assert_names(&json_err(&text), 5, None, &["node 2 has an empty id"]);
    let long = "L".repeat(MAX_ID + 1);
    let text = file(&format!("{{\"id\": \"{long}\", \"x\": 0, \"y\": 0}}"));
    assert_names(&json_err(&text), 3, None, &["node 1 has the id", &format!("longer than {MAX_ID} characters")]);
    assert!(parse_json(&file(&format!("{{\"id\": \"{}\", \"x\": 0, \"y\": 0}}", "L".repeat(MAX_ID)))).is_ok());
    let text = file("{\"id\": \"A\", \"x\": 0, \"y\": 0},\n{\"id\": \"bell\\u0007\", \"x\": 0, \"y\": 0}");
    assert_names(&json_err(&text), 4, None, &["node 2", "control character"]);
    // A key written with an escape is still the key: the scanner reads keys as JSON does.
    let text = "{\"n\\u006fdes\": [{\"id\": \"A\", \"x\": 0, \"y\": 0},\n{\"id\": \"A\", \"x\": 0, \"y\": 0}]}";
    assert_names(&json_err(text), 2, None, &["node 2", "node 1 (line 1)"]);
}

#[test]
fn json_more_nodes_than_the_limit_names_the_first_one_over() {
    let mut text = String::with_capacity(40 * (MAX_NODES + 1));
    text.push_str("{\"nodes\": [\n");
    for i in 0..=MAX_NODES {
        let _ = writeln!(text, "{{\"id\": \"n{i}\", \"x\": 0, \"y\": 0}},");
    }
    text.pop();
    text.pop();
    text.push_str("]}");
    assert!(text.len() < MAX_GRAPH_FILE_BYTES);
    let e = json_err(&text);
    assert_names(&e, MAX_NODES + 2, None, &[&format!("node {}", MAX_NODES + 1), &format!("at most {MAX_NODES} nodes")]);
    // The edge limit cannot be reached in a JSON file under the size limit (the shortest edge
    // object is 30 bytes), so it is checked through the matrix format below.
    const { assert!(MAX_EDGES * 30 > MAX_GRAPH_FILE_BYTES) };
}

#[test]
fn files_over_64_mib_are_refused_by_both_readers() {
    let big = " ".repeat(MAX_GRAPH_FILE_BYTES + 1);
    assert_names(&json_err(&big), 0, None, &["over the limit", "64 MiB"]);
    assert_names(&matrix_err(&big), 0, None, &["over the limit", "64 MiB"]);
}

// ---------------------------------------------------------------------------------------------
// Weight matrix: what it accepts
// ---------------------------------------------------------------------------------------------

#[test]
fn matrix_reads_labels_separators_no_edge_words_and_notes() {
    let text = "\u{feff}// a note\r\n\r\n#\tP, \"main hall\",R ,S\r\n0, 4,\t1 ,INF\r\n// another\r\n7 0 Infinity x\r\n\
                - 2 0 \u{221e}\r\n  X  ∞ 0.5 0e0 \r\n";
    let g = parse_matrix(text).unwrap();
    assert_eq!(g.ids(), ["P", "main hall", "R", "S"]);
    assert!(g.directed());
    assert_eq!(
        edge_list(&g),
        [
            ("P".into(), "main hall".into(), 4.0, true),
            ("P".into(), "R".into(), 1.0, true),
            ("main hall".into(), "P".into(), 7.0, true),
            ("R".into(), "main hall".into(), 2.0, true),
            ("S".into(), "R".into(), 0.5, true),
        ]
    );
}

#[test]
fn matrix_symmetric_gives_one_undirected_edge_per_pair_asymmetric_gives_arcs() {
    let g = parse_matrix("0 3 inf\n3 0 1\ninf 1 0\n").unwrap();
    assert!(!g.directed());
    assert_eq!(edge_list(&g), [("A".into(), "B".into(), 3.0, false), ("B".into(), "C".into(), 1.0, false)]);
    // One entry different: every finite entry is a one-way edge.
    let g = parse_matrix("0 3 inf\n3 0 1\ninf 2 0\n").unwrap();
    assert!(g.directed());
    assert_eq!(g.edges().len(), 4);
    assert!(g.edges().iter().all(|e| e.directed));
    // No edges at all is symmetric; a zero off the diagonal is a free edge.
    assert!(!parse_matrix("0 x\nx 0\n").unwrap().directed());
    assert_eq!(edge_list(&parse_matrix("0 0\n0 0\n").unwrap()), [("A".into(), "B".into(), 0.0, false)]);
}

#[test]
fn matrix_without_labels_names_up_to_26_vertices_a_to_z_then_numbers_from_0() {
    let square = |n: usize| {
        let row = |i: usize| (0..n).map(|j| if i == j { "0" } else { "x" }).collect::<Vec<_>>().join(" ");
        (0..n).map(|i| row(i) + "\n").collect::<String>()
    };
    let g = parse_matrix(&square(26)).unwrap();
    assert_eq!(g.ids().first().map(String::as_str), Some("A"));
    assert_eq!(g.ids().last().map(String::as_str), Some("Z"));
    let g = parse_matrix(&square(27)).unwrap();
    let expected: Vec<String> = (0..27).map(|i| i.to_string()).collect();
    assert_eq!(g.ids(), expected);
}

#[test]
fn matrix_vertices_sit_on_a_circle_first_at_the_top_then_clockwise() {
    let g = parse_matrix("0 x x x\nx 0 x x\nx x 0 x\nx x x 0\n").unwrap();
    let r = RING_RADIUS;
    let expected = [[r, 0.0], [2.0 * r, r], [r, 2.0 * r], [0.0, r]];
    for (got, want) in g.places().iter().zip(expected) {
        assert!((got[0] - want[0]).abs() < 1e-9 && (got[1] - want[1]).abs() < 1e-9, "{got:?} != {want:?}");
    }
    let one = parse_matrix("0\n").unwrap();
    assert_eq!(one.places(), [[r, 0.0]]);
}

#[test]
fn to_matrix_keeps_the_cheapest_of_parallel_edges_and_fills_both_entries_of_undirected_ones() {
    let mut g = Graph::new(false);
    let a = g.add_node("A", 0.0, 0.0).unwrap();
    let b = g.add_node("B, the second", 0.0, 0.0).unwrap();
    let c = g.add_node("C", 0.0, 0.0).unwrap();
    g.add_edge(a, b, 5.0, false).unwrap();
    g.add_edge(a, b, 7.0, false).unwrap(); // dearer: lost
    g.add_edge(b, a, 2.0, true).unwrap(); // cheaper one way only
    g.add_edge(c, c, 3.0, false).unwrap(); // a self-loop: dropped
    g.add_edge(c, a, 0.25, true).unwrap();
    let text = to_matrix(&g);
    assert_eq!(
        text,
        "#    A \"B, the second\"   C\n     0               5 inf\n     2               0 inf\n  0.25             inf   0\n"
    );
    let m = parse_matrix(&text).unwrap();
    assert!(m.directed());
    assert_eq!(
        edge_list(&m),
        [
            ("A".into(), "B, the second".into(), 5.0, true),
            ("B, the second".into(), "A".into(), 2.0, true),
            ("C".into(), "A".into(), 0.25, true)
        ]
    );
    assert_eq!(to_matrix(&m), text);
}

// ---------------------------------------------------------------------------------------------
// Weight matrix: errors name the line and the entry
// ---------------------------------------------------------------------------------------------

#[test]
fn matrix_bad_entries_name_line_entry_and_problem() {
    assert_names(&matrix_err("# A B\n0 1\n1 -3\n"), 3, None, &["entry 2", "\"-3\"", "negative"]);
    assert_names(&matrix_err("0 1\n// note\n\nabc 0\n"), 4, None, &["entry 1", "\"abc\"", "not a number"]);
    assert_names(&matrix_err("0 NaN\n1 0\n"), 1, None, &["entry 2", "\"NaN\"", "not a weight"]);
    assert_names(&matrix_err("0 1e999\n1 0\n"), 1, None, &["entry 2", "too large"]);
    assert_names(&matrix_err("0 -inf\n1 0\n"), 1, None, &["entry 2", "negative"]);
    assert_names(&matrix_err("0 1 1\n1 0 1\n1 1 5\n"), 3, None, &["entry 3", "diagonal", "0 or inf", "\"5\""]);
    assert_names(&matrix_err("0 1\n1 0\n1 , ,\n"), 3, None, &["row 3 is one too many", "2 columns"]);
    assert_names(&matrix_err("0 1\n, ,\t,\n"), 2, None, &["row 2 has no entries"]);
}

#[test]
fn matrix_shape_errors_name_the_line_and_why_the_size_is_what_it_is() {
    assert_names(
        &matrix_err("0 1 2\n1 0\n2 1 0\n"),
        2,
        None,
        &["row 2 has 2 entries, expected 3", "as many as row 1 on line 1"],
    );
    assert_names(
        &matrix_err("// n\n# A B C\n0 1\n"),
        3,
        None,
        &["row 1 has 2 entries, expected 3", "one per label on line 2"],
    );
    assert_names(&matrix_err("# A B\n0 1\n1 0\n0 0\n"), 4, None, &["row 3 is one too many", "one per label on line 1"]);
    assert_names(&matrix_err("0 1 1\n1 0 1\n\n"), 3, None, &["ends after 2 rows", "needs 3 rows"]);
    assert_names(&matrix_err(""), 1, None, &["no matrix rows"]);
    assert_names(&matrix_err("// just a note\n# A B\n"), 3, None, &["no matrix rows"]);
}

#[test]
fn matrix_label_errors_name_the_label_line() {
    assert_names(&matrix_err("# A B A\n0 1 1\n1 0 1\n1 1 0\n"), 1, None, &["label 3 repeats \"A\""]);
    assert_names(&matrix_err("0 1\n# A B\n1 0\n"), 2, None, &["before the first row"]);
    assert_names(&matrix_err("# A B\n# C D\n0 1\n1 0\n"), 2, None, &["second label line", "line 1"]);
    assert_names(&matrix_err("# A \"B C\n0 1\n1 0\n"), 1, None, &["label 2", "never closed"]);
    assert_names(&matrix_err("# \"A\"B C\n0 1\n1 0\n"), 1, None, &["label 1", "\"B\"", "no space or comma"]);
    assert_names(&matrix_err("# A \"\\q\"\n0 1\n1 0\n"), 1, None, &["label 2", "JSON cannot read"]);
    assert_names(&matrix_err("# A \"\"\n0 1\n1 0\n"), 1, None, &["label 2 has an empty id"]);
    let long = "L".repeat(MAX_ID + 1);
    assert_names(&matrix_err(&format!("\n# A {long}\n0 1\n1 0\n")), 2, None, &["label 2", "longer than"]);
}

#[test]
fn matrix_with_more_vertices_than_the_limit_is_refused_at_the_entry_over() {
    let row = vec!["x"; MAX_NODES + 1].join(" ");
    assert_names(
        &matrix_err(&format!("// wide\n{row}\n")),
        2,
        None,
        &[&format!("entry {}", MAX_NODES + 1), &format!("at most {MAX_NODES} nodes")],
    );
}

#[test]
fn matrix_with_more_edges_than_the_limit_is_refused_at_the_entry_over() {
    // 2001 vertices, every entry off the diagonal 1: the first 2000 rows hold 2000 edges each,
    // exactly the limit, so the first entry of row 2001 (line 2002, after the note) is one over.
    let n = 2001;
    assert_eq!(2000 * 2000, MAX_EDGES);
    let mut text = String::from("// dense\n");
    for i in 0..n {
        let row: Vec<&str> = (0..n).map(|j| if i == j { "0" } else { "1" }).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    assert_names(
        &matrix_err(&text),
        n + 1,
        None,
        &["entry 1", &format!("edge {}", MAX_EDGES + 1), &format!("at most {MAX_EDGES} edges")],
    );
}

// ---------------------------------------------------------------------------------------------
// Random graphs and matrices
// ---------------------------------------------------------------------------------------------

/// Any finite f64: both signs, normal, subnormal and zero, often a small whole number.
fn finite() -> impl Strategy<Value = f64> {
    use proptest::num::f64 as f;
    prop_oneof![(0u32..100).prop_map(f64::from), f::POSITIVE | f::NEGATIVE | f::NORMAL | f::SUBNORMAL | f::ZERO,]
}

fn cost() -> impl Strategy<Value = f64> {
    finite().prop_map(f64::abs)
}

/// Ids with the characters that need care: quotes, backslashes, commas, spaces, non-ASCII.
fn ids(range: std::ops::Range<usize>) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::btree_set(r#"[A-Za-z0-9 ,"\\#/é∞\-]{1,10}"#, range).prop_map(|s| s.into_iter().collect())
}

type Edges = Vec<(usize, usize, f64, bool)>;

fn graphs() -> impl Strategy<Value = (bool, Vec<String>, Vec<[f64; 2]>, Edges)> {
    ids(0..10).prop_flat_map(|ids| {
        let n = ids.len();
        let places = proptest::collection::vec((finite(), finite()).prop_map(|(x, y)| [x, y]), n);
        let edges = if n == 0 {
            Just(Vec::new()).boxed()
        } else {
            proptest::collection::vec((0..n, 0..n, cost(), any::<bool>()), 0..20).boxed()
        };
        (any::<bool>(), Just(ids), places, edges)
    })
}

fn build(directed: bool, ids: &[String], places: &[[f64; 2]], edges: &Edges) -> Graph {
    let mut g = Graph::new(directed);
    for (id, [x, y]) in ids.iter().zip(places) {
        g.add_node(id, *x, *y).unwrap();
    }
    for &(a, b, c, d) in edges {
        g.add_edge(a as u32, b as u32, c, d).unwrap();
    }
    g
}

/// A matrix: for each row, each entry None (no edge) or a weight; the diagonal None or 0.
type Weights = Vec<Vec<Option<f64>>>;

fn matrices() -> impl Strategy<Value = (Weights, Option<Vec<String>>, bool)> {
    (1usize..8).prop_flat_map(|n| {
        let entry = prop_oneof![Just(None), cost().prop_map(Some)];
        let rows = proptest::collection::vec(proptest::collection::vec(entry, n), n);
        let labels = proptest::option::of(ids(n..n + 1));
        (rows, labels, any::<bool>(), any::<bool>()).prop_map(|(mut w, labels, mirror, zero_diagonal)| {
            let n = w.len();
            for i in 0..n {
                w[i][i] = if zero_diagonal { Some(0.0) } else { None };
                if mirror {
                    // Below the diagonal, the entries above it mirrored.
                    let (above, below) = w.split_at_mut(i);
                    for (j, row) in above.iter().enumerate() {
                        below[0][j] = row[i];
                    }
                }
            }
            (w, labels.filter(|l| l.len() == n), mirror)
        })
    })
}

/// Writes a matrix the way a person might: notes, blank lines, any separator, any spelling
/// of "no edge", numbers plain or with an exponent. Quoting is done here, not by pathlab.
fn write_matrix(w: &Weights, labels: Option<&[String]>, style: usize) -> String {
    let seps = [" ", ",", "\t", ", ", "  "];
    let nones = ["inf", "INF", "Infinity", "\u{221e}", "-", "x", "X"];
    let sep = seps[style % seps.len()];
    let mut out = String::from("// random\n\n");
    if let Some(labels) = labels {
        out.push('#');
        for l in labels {
            let quoted = format!("\"{}\"", l.replace('\\', "\\\\").replace('"', "\\\""));
            out.push_str(sep);
            // Odd styles leave a label bare where it can be.
            let bare = style % 2 == 1 && !l.contains([' ', ',', '"']);
            out.push_str(if bare { l } else { &quoted });
        }
        out.push('\n');
    }
    for (i, row) in w.iter().enumerate() {
        let entries: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, e)| match e {
                None => nones[(i + j + style) % nones.len()].to_string(),
                Some(v) if (i + j + style) % 3 == 0 => format!("{v:e}"),
                Some(v) => v.to_string(),
            })
            .collect();
        out.push_str(&entries.join(sep));
        out.push_str(if style % 3 == 0 { "\r\n" } else { "\n" });
    }
    out
}

/// The matrix a graph's edges give, worked out from the edge list: w[i][j] the cheapest edge
/// from i to j (an undirected edge counting both ways), None where there is none.
fn weights_of(g: &Graph) -> Weights {
    let n = g.ids().len();
    let mut w = vec![vec![None; n]; n];
    for (from, to, c) in moves(g).into_iter().enumerate().flat_map(|(i, m)| m.into_iter().map(move |(j, c)| (i, j, c)))
    {
        if from != to {
            let e: &mut Option<f64> = &mut w[from][to];
            *e = Some(e.map_or(c, |old| old.min(c)));
        }
    }
    w
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn json_round_trip_gives_back_the_same_graph((directed, ids, places, edges) in graphs()) {
        let g = build(directed, &ids, &places, &edges);
        let text = to_json(&g);
        let back = parse_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(back.directed(), g.directed());
        prop_assert_eq!(back.ids(), g.ids());
        let bits = |g: &Graph| g.places().iter().flatten().map(|v| if *v == 0.0 { 0 } else { v.to_bits() }).collect::<Vec<_>>();
        prop_assert_eq!(bits(&back), bits(&g), "places differ in {}", text);
        prop_assert_eq!(edge_list(&back), edge_list(&g));
        prop_assert_eq!(&back, &g);
        // One node or edge a line, plus the frame: braces, "directed", and an opening and a
        // closing line per list (one line when the list is empty).
        let list = |k: usize| if k == 0 { 1 } else { k + 2 };
        prop_assert_eq!(text.lines().count(), 3 + list(ids.len()) + list(edges.len()));
    }

    #[test]
    fn matrix_text_reads_as_its_weights_and_to_matrix_reads_back_the_same_graph(
        (w, labels, mirrored) in matrices(),
        style in 0usize..30,
    ) {
        let n = w.len();
        let text = write_matrix(&w, labels.as_deref(), style);
        let g = parse_matrix(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let expected_ids: Vec<String> = match &labels {
            Some(l) => l.clone(),
            None if n <= 26 => (b'A'..).take(n).map(|b| char::from(b).to_string()).collect(),
            None => (0..n).map(|i| i.to_string()).collect(),
        };
        prop_assert_eq!(g.ids(), &expected_ids[..]);
        // The diagonal's 0 or no-edge is no edge; off it, exactly the entries written.
        let mut want = w.clone();
        for (i, row) in want.iter_mut().enumerate() {
            row[i] = None;
        }
        prop_assert_eq!(weights_of(&g), want);
        let symmetric = (0..n).all(|i| (0..n).all(|j| i == j || w[i][j] == w[j][i]));
        prop_assert!(!mirrored || symmetric);
        prop_assert_eq!(g.directed(), !symmetric);
        prop_assert!(g.edges().iter().all(|e| e.directed != symmetric));
        // Written back and read again: the very same graph, and the same text again.
        let again = to_matrix(&g);
        let back = parse_matrix(&again).unwrap_or_else(|e| panic!("{e}\n{again}"));
        prop_assert_eq!(&back, &g);
        prop_assert_eq!(to_matrix(&back), again);
    }

    #[test]
    fn to_matrix_of_any_graph_keeps_the_cheapest_weight_between_each_ordered_pair(
        (directed, ids, places, edges) in graphs().prop_filter("some nodes", |g| !g.1.is_empty()),
    ) {
        let g = build(directed, &ids, &places, &edges);
        let text = to_matrix(&g);
        let m = parse_matrix(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(m.ids(), g.ids());
        prop_assert_eq!(weights_of(&m), weights_of(&g));
    }

    #[test]
    fn random_text_never_panics_and_errors_name_a_line(text in "\\PC{0,200}") {
        for result in [parse_json(&text), parse_matrix(&text)] {
            if let Err(e) = result {
                prop_assert!(e.line > 0 || e.message.contains("empty"), "{}", e);
            }
        }
    }

    #[test]
    fn mutated_presets_never_panic_and_errors_name_a_line(
        which in 0usize..4,
        edits in proptest::collection::vec((any::<proptest::sample::Index>(), 0u8..3, "[\\[\\]{}\",:\\\\a-z0-9 \n-]"), 1..6),
    ) {
        let names = ["slides-5.json", "fps-rooms.json", "road-junctions.json", "course-matrix.txt"];
        let mut chars: Vec<char> = preset(names[which]).chars().collect();
        for (at, kind, s) in edits {
            let i = at.index(chars.len() + 1);
            let c = s.chars().next().unwrap();
            match kind {
                0 if i < chars.len() => { chars.remove(i); }
                1 if i < chars.len() => chars[i] = c,
                _ => chars.insert(i, c),
            }
        }
        let text: String = chars.into_iter().collect();
        for result in [parse_json(&text), parse_matrix(&text)] {
            if let Err(e) = result {
                prop_assert!(e.line > 0 || e.message.contains("empty"), "{}", e);
            }
        }
    }
}

#[test]
fn ids_in_the_matrix_label_line_round_trip_even_with_quotes_and_commas() {
    let mut g = Graph::new(true);
    for id in ["a b", "c,d", "say \"x\"", "back\\slash", "#hash", "//slashes", "∞", "inf", "é"] {
        g.add_node(id, 0.0, 0.0).unwrap();
    }
    g.add_edge(0, 8, 1.0, true).unwrap();
    let m = parse_matrix(&to_matrix(&g)).unwrap();
    assert_eq!(m.ids(), g.ids());
    let set: BTreeSet<_> = m.ids().iter().collect();
    assert_eq!(set.len(), 9);
}
