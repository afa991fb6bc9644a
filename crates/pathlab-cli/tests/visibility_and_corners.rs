//! The exact any-angle reference through the `pathlab` binary, checked against truth kept
//! apart from the code under test:
//! - `path --space corners` on the tutorial's 3x3 example gives the length worked by hand,
//!   bending at a corner of the obstruction;
//! - `scen --algo visibility --check` passes on the MovingAI arena, each line in the
//!   contract's form, every cost between the straight line and the `.scen` optimum;
//! - `--check` fails when a `.scen` optimum is made shorter than the visibility graph's path
//!   (the exact optimum is never longer than a grid path, so the check catches it);
//! - `compare` accepts `visibility`, keeps its first table, and adds a second that lists each
//!   any-angle method with a % longer >= 0 (and 0 for the optimum itself), also when
//!   `visibility` is not asked for;
//! - bad input exits 2 naming the problem: an end on a wall or outside the map, a graph file
//!   with `--space corners`, `--heuristic` there.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::pathlab;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// The arena map and its problems, shipped in the repository.
fn arena() -> (PathBuf, PathBuf) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/movingai");
    (dir.join("arena.map"), dir.join("arena.map.scen"))
}

/// A file for one test in Cargo's folder for test files, written with `contents`.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("visibility-{name}"));
    std::fs::write(&path, contents).expect("scratch file");
    path
}

/// The tutorial's 3x3 example: one wall in the middle.
const TUTORIAL: &str = "3 3\n000\n010\n000\n";

/// The value after `"key": ` in a one-line JSON object, up to the next `,` or `}` at depth 0.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let at = line.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("no {key} in {line}")) + key.len() + 3;
    let rest = line[at..].trim_start();
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' | '}' if depth == 0 => return &rest[..i],
            _ => {}
        }
    }
    rest
}

#[test]
fn path_on_the_corner_graph_of_the_tutorials_example_pulls_the_string_round_the_obstacle() {
    let map = scratch("tutorial.txt", TUTORIAL);
    // From the bottom-left cell's centre (0.5, 2.5) to the top-right's (2.5, 0.5): the straight
    // line crosses the wall, so the path bends at its corner (1, 1) or (2, 2), each
    // sqrt(0.5² + 1.5²) from both ends.
    let by_hand = 2.0 * (0.25f64 + 2.25).sqrt();
    for algo in ["astar", "dijkstra"] {
        let out = pathlab(&[
            "path".as_ref(),
            map.as_os_str(),
            "--space".as_ref(),
            "corners".as_ref(),
            "--start".as_ref(),
            "0,2".as_ref(),
            "--goal".as_ref(),
            "2,0".as_ref(),
            "--algo".as_ref(),
            algo.as_ref(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let line = text(&out.stdout);
        assert_eq!(line.lines().count(), 1, "{line}");
        let cost: f64 = field(&line, "cost").parse().expect("a number");
        assert!((cost - by_hand).abs() < 1e-12, "{algo}: {cost} against {by_hand}");
        let path = field(&line, "path");
        assert!(
            path == "[[0.5, 2.5], [1, 1], [2.5, 0.5]]" || path == "[[0.5, 2.5], [2, 2], [2.5, 0.5]]",
            "{algo}: {path}"
        );
        assert!(field(&line, "expanded").parse::<usize>().expect("a count") >= 2);
        assert!(field(&line, "micros").parse::<f64>().expect("a time") >= 0.0);
    }
}

/// Runs `scen MAP SCEN --algo ALGO --check` with `extra` options.
fn scen_check(map: &Path, scen: &Path, algo: &str, extra: &[&str]) -> Output {
    support::scen(map, scen, &[&["--algo", algo, "--check"], extra].concat())
}

#[test]
fn scen_visibility_check_passes_on_arena_with_every_cost_between_the_straight_line_and_the_optimum() {
    let (map, scen) = arena();
    let out = scen_check(&map, &scen, "visibility", &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains(" 0 mismatches") && stderr.contains("visibility graph ("), "{stderr}");
    assert!(stderr.contains(" built in ") && stderr.contains("[visibility,"), "{stderr}");
    let problems = pathlab_core::formats::movingai::parse_scen(&std::fs::read_to_string(&scen).unwrap()).unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), problems.len());
    let mut shorter = 0;
    for (i, line) in stdout.lines().enumerate() {
        let p = &problems[i];
        let want = format!(
            "{{\"index\":{i},\"start\":[{},{}],\"goal\":[{},{}],\"optimal\":",
            p.start.x, p.start.y, p.goal.x, p.goal.y
        );
        assert!(line.starts_with(&want), "{line}");
        let keys: Vec<&str> = ["index", "start", "goal", "optimal", "cost", "expanded", "micros"].to_vec();
        for key in keys {
            field(line, key);
        }
        let cost: f64 = field(line, "cost").parse().expect("every arena problem has a path");
        let straight = (p.start.x.abs_diff(p.goal.x) as f64).hypot(p.start.y.abs_diff(p.goal.y) as f64);
        assert!(cost >= straight - 1e-9, "{line}: below the straight line {straight}");
        assert!(cost <= p.optimal + p.tolerance, "{line}: above the .scen optimum");
        shorter += usize::from(cost < p.optimal - p.tolerance);
        assert!(field(line, "expanded").parse::<usize>().unwrap() >= 1, "{line}");
    }
    assert!(shorter * 2 > problems.len(), "only {shorter} paths beat the grid optimum");
}

#[test]
fn scen_visibility_check_fails_when_an_optimum_is_shorter_than_the_exact_any_angle_path() {
    let (map, scen) = arena();
    // Problem 4 of arena goes from (1,3) to (4,3) along a row: optimum 3, which the visibility
    // graph also finds. Claim 2.5 instead, above the straight line: only the rule that the
    // exact optimum is never longer than the .scen optimum catches it.
    let original = std::fs::read_to_string(&scen).unwrap();
    let mut lines: Vec<String> = original.lines().map(String::from).collect();
    let line = &mut lines[5];
    assert!(line.ends_with("\t3"), "{line}");
    line.truncate(line.len() - 1);
    line.push_str("2.5");
    let altered = scratch("arena-altered.map.scen", &(lines.join("\n") + "\n"));
    let out = scen_check(&map, &altered, "visibility", &["--limit", "10"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("line 6 (problem 4)") && stderr.contains("above the 8-connected optimum"), "{stderr}");
    // Theta* may beat a grid optimum, so the same file passes its check.
    let theta = scen_check(&map, &altered, "theta", &["--limit", "10"]);
    assert_eq!(theta.status.code(), Some(0), "{}", text(&theta.stderr));
}

/// The rows of the table that follows the line starting with `heading` (after its header
/// and rule), up to the next blank line.
fn table_after(stdout: &str, heading: &str) -> Vec<Vec<String>> {
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with(heading));
    assert!(lines.next().is_some(), "no {heading:?} in\n{stdout}");
    lines
        .skip_while(|l| l.trim().is_empty())
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split("  ").map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect())
        .collect()
}

const SECOND: &str = "any-angle length against the exact optimum (visibility graph";

fn compare(algos: &str) -> String {
    let (map, scen) = arena();
    let out = pathlab(&[
        "compare".as_ref(),
        map.as_os_str(),
        scen.as_os_str(),
        "--algos".as_ref(),
        algos.as_ref(),
        "--sample".as_ref(),
        "40".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn compare_adds_a_table_of_every_any_angle_method_against_the_exact_optimum() {
    let stdout = compare("astar,theta,lazy-theta,astar-smoothed,visibility");
    let first = table_after(&stdout, "40 problems of ");
    let names: Vec<&str> = first.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        ["astar (octile)", "theta (octile)", "lazy-theta (octile)", "astar-smoothed (octile)", "visibility"]
    );
    let second = table_after(&stdout, SECOND);
    let names: Vec<&str> = second.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, ["theta (octile)", "lazy-theta (octile)", "astar-smoothed (octile)", "visibility"]);
    for row in &second {
        assert_eq!(row.len(), 4, "{row:?}");
        assert_eq!(row[1], "40", "{row:?}");
        let (mean, max): (f64, f64) = (row[2].parse().unwrap(), row[3].parse().unwrap());
        assert!(mean >= 0.0 && max >= mean, "{row:?}");
    }
    assert_eq!(second[3][2..], ["0.000", "0.000"], "the optimum against itself");
    // Smoothing pulls A*'s path taut only where its waypoints see each other: on arena some
    // of its paths stay longer than the optimum.
    assert!(second[2][3].parse::<f64>().unwrap() > 0.0, "{second:?}");
}

#[test]
fn compare_measures_any_angle_methods_against_the_optimum_even_without_visibility() {
    let with = compare("theta,visibility");
    let without = compare("theta");
    let rows = |s: &str| table_after(s, SECOND);
    assert_eq!(rows(&without).len(), 1);
    assert_eq!(rows(&without)[0][..3], rows(&with)[0][..3]);
    assert_eq!(rows(&without)[0][3], rows(&with)[0][3]);
    // No any-angle algorithm, no second table: the output is what it was.
    assert!(!compare("astar,dijkstra").contains(SECOND));
}

fn fails_with_2(args: &[&str], needles: &[&str]) {
    let out = pathlab(args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{args:?}: {needle:?} not in {stderr}");
    }
}

#[test]
fn bad_input_to_the_corner_graph_exits_2_naming_the_problem() {
    let map = scratch("tutorial-bad.txt", TUTORIAL);
    let m = map.to_str().expect("a UTF-8 path");
    let corners = |start: &'static str, goal: &'static str, more: &[&'static str]| {
        let mut args = vec!["path", m, "--space", "corners", "--start", start, "--goal", goal];
        args.extend(more);
        args
    };
    fails_with_2(&corners("1,1", "2,0", &[]), &["start", "(1,1)", "wall"]);
    fails_with_2(&corners("0,0", "3,0", &[]), &["goal", "outside"]);
    fails_with_2(&corners("0,0", "2,2", &["--heuristic", "octile"]), &["--heuristic", "straight-line"]);
    fails_with_2(&corners("0,0", "2,2", &["--algo", "jps"]), &["jps", "square grid"]);
    let graph = scratch(
        "two.json",
        r#"{"directed": false, "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}], "edges": [{"from": "A", "to": "B", "cost": 1}]}"#,
    );
    let g = graph.to_str().expect("a UTF-8 path");
    fails_with_2(
        &["path", g, "--space", "corners", "--start", "A", "--goal", "B"],
        &["--space corners", "graph file", "two.json"],
    );
    // Visibility is not a stepper: on the plain grid `path` says where to run it.
    fails_with_2(
        &["path", m, "--start", "0,0", "--goal", "2,2", "--algo", "visibility"],
        &["visibility", "--space corners"],
    );
}
