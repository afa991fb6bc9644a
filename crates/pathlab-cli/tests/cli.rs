//! End-to-end tests of the `pathlab` binary: MovingAI optima with `scen --check`, the JSON
//! line format, the `compare` table, and exit status 2 with a named file and line on bad
//! input.
//!
//! The MovingAI maps live in the folder `$PATHLAB_MOVINGAI` names, by default
//! `shared/maps/movingai` beside the repository. The heavy tests run thousands of searches: run them on a release build
//! (`cargo test -p pathlab-cli --release`), where they take seconds.

#[path = "../../pathlab-core/tests/common/movingai_folder.rs"]
mod movingai_folder;

mod support;

use movingai_folder::{map_of, movingai_folder as movingai, problem_count, scenario_files};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::{pathlab, scen as run_scen, stderr, stdout};

/// A scratch file for one test, written with `text`.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pathlab-cli-tests");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file");
    path
}

/// Runs `scen --check` and insists on exit 0 with one JSON line per expected problem.
fn check_passes(map: &Path, scen: &Path, algo: &str, extra: &[&str], expected: usize) {
    let out = run_scen(map, scen, &[&["--algo", algo, "--check"], extra].concat());
    assert!(out.status.success(), "{algo} on {}: exit {:?}\n{}", scen.display(), out.status.code(), stderr(&out));
    assert_eq!(stdout(&out).lines().count(), expected, "{algo} on {}", scen.display());
    let summary = stderr(&out);
    assert!(summary.contains(" 0 mismatches"), "{summary}");
}

#[test]
fn astar_and_dijkstra_match_every_optimum_of_arena_den312d_and_ar0011sr() {
    let root = movingai();
    for name in ["dao/arena", "dao/den312d", "bg512/AR0011SR"] {
        let map = root.join(format!("{name}.map"));
        let scen = root.join(format!("{name}.map.scen"));
        let count = problem_count(&scen);
        assert!(count >= 100, "{name}: only {count} problems");
        for algo in ["astar", "dijkstra"] {
            check_passes(&map, &scen, algo, &[], count);
        }
    }
}

#[test]
fn astar_and_dijkstra_match_a_sample_of_500_problems_across_every_family() {
    let root = movingai();
    let scens = scenario_files(&root);
    let families: std::collections::BTreeSet<_> = scens.iter().map(|s| s.parent().map(Path::to_path_buf)).collect();
    assert!(scens.len() >= 8 && families.len() >= 8, "expected the 8 MovingAI families, found {scens:?}");
    // 500 problems spread evenly: every file gives 500 / n, the first 500 % n one more.
    let (each, extra) = (500 / scens.len(), 500 % scens.len());
    let mut total = 0;
    for (i, scen) in scens.iter().enumerate() {
        let map = map_of(scen);
        let take = each + usize::from(i < extra);
        let expected = take.min(problem_count(scen));
        for algo in ["astar", "dijkstra"] {
            check_passes(&map, scen, algo, &["--sample", &take.to_string()], expected);
        }
        total += expected;
    }
    assert!(total >= 500, "sampled only {total} problems");
}

/// The fields of one flat JSON object of numbers, `null` and pairs `[a,b]`, in order.
fn parse_json_line(line: &str) -> Vec<(String, Vec<Option<f64>>)> {
    let body = line.strip_prefix('{').and_then(|l| l.strip_suffix('}')).expect("an object");
    let mut fields = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let after_quote = rest.strip_prefix('"').expect("a quoted key");
        let (key, after_key) = after_quote.split_once("\":").expect("key:value");
        let (value, next) = if let Some(array) = after_key.strip_prefix('[') {
            let (inside, after) = array.split_once(']').expect("closed array");
            (inside, after)
        } else {
            match after_key.find(',') {
                Some(i) => (&after_key[..i], &after_key[i..]),
                None => (after_key, ""),
            }
        };
        let numbers = value
            .split(',')
            .map(|v| {
                if v == "null" {
                    None
                } else {
                    Some(v.parse::<f64>().unwrap_or_else(|_| panic!("number: {v:?} in {line}")))
                }
            })
            .collect();
        fields.push((key.to_string(), numbers));
        rest = next.strip_prefix(',').unwrap_or(next);
    }
    fields
}

#[test]
fn scen_prints_one_json_object_per_problem_in_the_contract_format() {
    let root = movingai();
    let map = root.join("dao/arena.map");
    let scen = root.join("dao/arena.map.scen");
    let out = run_scen(&map, &scen, &["--limit", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&scen).unwrap();
    let problems: Vec<Vec<&str>> = text.lines().skip(1).take(5).map(|l| l.split_whitespace().collect()).collect();
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5);
    for (i, (line, p)) in lines.iter().zip(&problems).enumerate() {
        let fields = parse_json_line(line);
        let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["index", "start", "goal", "optimal", "cost", "expanded", "micros"], "{line}");
        let num = |k: usize| p[k].parse::<f64>().unwrap();
        assert_eq!(fields[0].1, [Some(i as f64)]);
        assert_eq!(fields[1].1, [Some(num(4)), Some(num(5))], "start in {line}");
        assert_eq!(fields[2].1, [Some(num(6)), Some(num(7))], "goal in {line}");
        assert_eq!(fields[3].1, [Some(num(8))], "optimal in {line}");
        let cost = fields[4].1[0].expect("a cost");
        assert!((cost - num(8)).abs() <= 1e-3, "{line}");
        let expanded = fields[5].1[0].unwrap();
        assert!(expanded >= 1.0 && expanded.fract() == 0.0, "{line}");
        assert!(fields[6].1[0].unwrap() >= 0.0, "{line}");
    }
    let summary = stderr(&out);
    assert_eq!(summary.lines().count(), 1, "one summary line: {summary}");
    assert!(
        summary.contains("5 problems") && summary.contains("5 found") && summary.contains("0 mismatches"),
        "{summary}"
    );
}

#[test]
fn scen_prints_null_cost_when_there_is_no_path() {
    let map = scratch("split.map", "type octile\nheight 3\nwidth 3\nmap\n.@.\n.@.\n.@.\n");
    let scen = scratch("split.map.scen", "version 1\n0\tsplit.map\t3\t3\t0\t0\t2\t2\t2.82842712\n");
    let out = run_scen(&map, &scen, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let fields = parse_json_line(stdout(&out).trim());
    assert_eq!(fields[4], ("cost".to_string(), vec![None]));
    // With --check, a missing path is a mismatch.
    let out = run_scen(&map, &scen, &["--check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// Arena's scenario with the optimum of the problems on the given lines raised by `by`.
fn altered_arena(name: &str, lines: &[usize], by: f64) -> PathBuf {
    let text = std::fs::read_to_string(movingai().join("dao/arena.map.scen")).unwrap();
    let mut out = String::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields: Vec<String> = line.split('\t').map(String::from).collect();
        if lines.contains(&(n + 1)) {
            let optimal: f64 = fields[8].trim().parse().unwrap();
            fields[8] = format!("{:.5}", optimal + by);
        }
        out.push_str(&fields.join("\t"));
        out.push('\n');
    }
    scratch(name, &out)
}

#[test]
fn check_fails_with_exit_1_on_a_wrong_optimum() {
    let map = movingai().join("dao/arena.map");
    // Line 40 is a problem of the file; 0.01 is well beyond its tolerance.
    let scen = altered_arena("arena-wrong.map.scen", &[40], 0.01);
    for algo in ["astar", "dijkstra"] {
        let out = run_scen(&map, &scen, &["--algo", algo, "--check"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{algo}: {err}");
        assert!(err.contains("arena-wrong.map.scen: line 40"), "{err}");
        assert!(err.contains("1 mismatches"), "{err}");
        // Without --check the same run succeeds and still counts the mismatch.
        let out = run_scen(&map, &scen, &["--algo", algo]);
        assert!(out.status.success());
        assert!(stderr(&out).contains("1 mismatches"));
    }
}

#[test]
fn check_of_a_non_optimal_algorithm_accepts_longer_paths_but_not_shorter_ones() {
    let root = movingai();
    let map = root.join("dao/arena.map");
    let scen = root.join("dao/arena.map.scen");
    for algo in ["greedy", "bfs", "dfs"] {
        check_passes(&map, &scen, algo, &[], problem_count(&scen));
    }
    check_passes(&map, &scen, "astar", &["--weight", "2"], problem_count(&scen));
    // An "optimum" far above any path's cost: a cheaper path must be a mismatch.
    let raised = altered_arena("arena-raised.map.scen", &[100], 1000.0);
    let out = run_scen(&map, &raised, &["--algo", "greedy", "--check"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("line 100"), "{}", stderr(&out));
}

#[test]
fn check_refuses_a_diagonal_rule_the_optima_do_not_assume() {
    let root = movingai();
    let (map, scen) = (root.join("dao/arena.map"), root.join("dao/arena.map.scen"));
    for rule in ["never", "always", "at-most-one-blocked"] {
        let out = run_scen(&map, &scen, &["--diagonal", rule, "--check"]);
        assert_eq!(out.status.code(), Some(2), "{rule}");
        assert!(stderr(&out).contains("no corner cutting"), "{}", stderr(&out));
        // Without --check the rule is fine.
        let out = run_scen(&map, &scen, &["--diagonal", rule, "--limit", "3"]);
        assert!(out.status.success(), "{rule}: {}", stderr(&out));
        assert_eq!(stdout(&out).lines().count(), 3);
    }
}

/// Runs pathlab, expects exit 2 and a message containing every `needle`.
fn fails_with_2(args: &[&std::ffi::OsStr], needles: &[&str]) {
    let out = pathlab(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("pathlab: "), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "{args:?}: expected {needle:?} in {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&out).is_empty(), "no output on bad input");
}

#[test]
fn a_malformed_map_exits_2_naming_the_file_and_line() {
    let scen = scratch("small.map.scen", "version 1\n0\tsmall.map\t4\t3\t0\t0\t1\t1\t1.41421356\n");
    let short_row = scratch("short-row.map", "type octile\nheight 3\nwidth 4\nmap\n....\n...\n....\n");
    fails_with_2(
        &["scen".as_ref(), short_row.as_os_str(), scen.as_os_str()],
        &["short-row.map: line 6: row 2 has 3 cells, expected 4"],
    );
    let truncated = scratch("truncated.map", "type octile\nheight 3\nwidth 4\nmap\n....\n");
    fails_with_2(
        &["scen".as_ref(), truncated.as_os_str(), scen.as_os_str()],
        &["truncated.map: line 6", "ends after 1 of 3 rows"],
    );
    let bad_char = scratch("bad-char.map", "type octile\nheight 3\nwidth 4\nmap\n....\n..x.\n....\n");
    fails_with_2(&["scen".as_ref(), bad_char.as_os_str(), scen.as_os_str()], &["bad-char.map: line 6", "'x'"]);
    let bad_header = scratch("bad-header.map", "type octile\nheight three\nwidth 4\nmap\n");
    fails_with_2(&["scen".as_ref(), bad_header.as_os_str(), scen.as_os_str()], &["bad-header.map: line 2", "height"]);
    let binary = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pathlab-cli-tests/binary.map");
    std::fs::write(&binary, b"type octile\n\xff\xfe\n").unwrap();
    fails_with_2(&["scen".as_ref(), binary.as_os_str(), scen.as_os_str()], &["binary.map: line 2", "UTF-8"]);
}

#[test]
fn a_malformed_scen_exits_2_naming_the_file_and_line() {
    let map = scratch("four.map", "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n");
    let few = scratch(
        "few-fields.map.scen",
        "version 1\n0\tfour.map\t4\t3\t0\t0\t1\t1\t1.41421356\n0\tfour.map\t4\t3\t0\t0\n",
    );
    fails_with_2(&["scen".as_ref(), map.as_os_str(), few.as_os_str()], &["few-fields.map.scen: line 3", "9 fields"]);
    let outside = scratch("outside.map.scen", "version 1\n0\tfour.map\t4\t3\t0\t0\t9\t1\t9\n");
    fails_with_2(&["scen".as_ref(), map.as_os_str(), outside.as_os_str()], &["outside.map.scen: line 2", "goal"]);
}

#[test]
fn a_scen_for_another_size_of_map_exits_2() {
    let root = movingai();
    let map = root.join("dao/den312d.map");
    let scen = root.join("dao/arena.map.scen");
    fails_with_2(
        &["scen".as_ref(), map.as_os_str(), scen.as_os_str()],
        &["arena.map.scen: line 2", "49x49", "den312d.map is 65x81"],
    );
    fails_with_2(
        &["compare".as_ref(), map.as_os_str(), scen.as_os_str(), "--algos".as_ref(), "astar".as_ref()],
        &["arena.map.scen: line 2"],
    );
}

#[test]
fn an_end_on_a_wall_exits_2() {
    let map = scratch("walled.map", "type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n");
    let scen = scratch(
        "walled.map.scen",
        "version 1\n0\twalled.map\t3\t2\t0\t0\t2\t0\t4\n0\twalled.map\t3\t2\t1\t0\t2\t0\t1\n",
    );
    fails_with_2(
        &["scen".as_ref(), map.as_os_str(), scen.as_os_str()],
        &["walled.map.scen: line 3", "start (1,0) is a wall"],
    );
}

#[test]
fn bad_options_exit_2_with_a_message() {
    let root = movingai();
    let (map, scen) = (root.join("dao/arena.map"), root.join("dao/arena.map.scen"));
    let (m, s) = (map.as_os_str(), scen.as_os_str());
    fails_with_2(
        &["scen".as_ref(), m, s, "--algo".as_ref(), "quantum".as_ref()],
        &["unknown algorithm \"quantum\"", "astar"],
    );
    fails_with_2(
        &["compare".as_ref(), m, s, "--algos".as_ref(), "astar,nope".as_ref()],
        &["unknown algorithm \"nope\""],
    );
    fails_with_2(&["scen".as_ref(), m, s, "--weight".as_ref(), "0.5".as_ref()], &["weight", "0.5"]);
    fails_with_2(&["scen".as_ref(), m, s, "--weight".as_ref(), "NaN".as_ref()], &["weight", "NaN"]);
    fails_with_2(&["scen".as_ref(), m, s, "--weight".as_ref(), "heavy".as_ref()], &["--weight must be a number"]);
    fails_with_2(&["scen".as_ref(), m, s, "--heuristic".as_ref(), "psychic".as_ref()], &["unknown heuristic"]);
    fails_with_2(&["scen".as_ref(), m, s, "--diagonal".as_ref(), "sideways".as_ref()], &["unknown diagonal rule"]);
    fails_with_2(&["scen".as_ref(), m, s, "--limit".as_ref(), "-3".as_ref()], &["--limit"]);
    fails_with_2(&["scen".as_ref(), m, s, "--frobnicate".as_ref()], &["unknown option \"--frobnicate\""]);
    fails_with_2(&["scen".as_ref(), m], &["needs two files"]);
    fails_with_2(&["compare".as_ref(), m, s], &["--algos"]);
    fails_with_2(&["teleport".as_ref()], &["unknown command"]);
    let missing = root.join("dao/no-such.map");
    fails_with_2(&["scen".as_ref(), missing.as_os_str(), s], &["no-such.map: cannot read"]);
    fails_with_2(&["scen".as_ref(), root.as_os_str(), s], &["is a folder"]);
}

#[test]
fn help_prints_the_usage() {
    for flag in ["help", "--help", "-h"] {
        let out = pathlab(&[flag]);
        assert!(out.status.success());
        let text = stdout(&out);
        assert!(text.contains("pathlab scen MAP SCEN") && text.contains("--sample N"), "{text}");
    }
    let out = pathlab::<&str>(&[]);
    assert_eq!(out.status.code(), Some(2));
}

/// The cells of a `compare` table's rows after the header and its rule, found by the
/// two or more spaces between columns.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("algorithm")).unwrap_or_else(|| panic!("a header in {text}"));
    lines[header + 2..]
        .iter()
        .map(|l| l.split("  ").map(str::trim).filter(|c| !c.is_empty()).map(String::from).collect())
        .collect()
}

/// `pathlab compare` on a MovingAI map (`family/name`) and its .scen with `--algos algos` and
/// the `extra` options; the table it printed, after checking that it succeeded.
fn compare_table(map: &str, algos: &str, extra: &[&str]) -> String {
    let root = movingai();
    let (map, scen) = (root.join(format!("{map}.map")), root.join(format!("{map}.map.scen")));
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["compare".as_ref(), map.as_os_str(), scen.as_os_str(), "--algos".as_ref(), algos.as_ref()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    let out = pathlab(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn compare_prints_an_aligned_table() {
    let text = compare_table("dao/den312d", "astar,dijkstra,greedy,bfs", &["--sample", "40"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("40 problems of "), "{text}");
    let header = lines.iter().position(|l| l.starts_with("algorithm")).expect("a header");
    for column in ["problems", "found", "mean expanded", "mean cost", "subopt mean %", "subopt max %", "mean µs"] {
        assert!(lines[header].contains(column), "{column} in {text}");
    }
    let rows = table_rows(&text);
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows.iter().all(|r| r.len() == 8), "{text}");
    // Every row is as wide as the rule under the header: the columns line up.
    let width = lines[header + 1].chars().count();
    for line in &lines[header..] {
        assert_eq!(line.chars().count(), width, "{text}");
    }
    let row =
        |name: &str| rows.iter().find(|r| r[0].starts_with(name)).unwrap_or_else(|| panic!("{name} in {text}")).clone();
    for optimal in ["astar", "dijkstra"] {
        let r = row(optimal);
        assert_eq!((r[1].as_str(), r[2].as_str()), ("40", "40"), "{text}");
        assert_eq!((r[5].as_str(), r[6].as_str()), ("0.000", "0.000"), "{optimal} is optimal: {text}");
    }
    let astar_expanded: f64 = row("astar")[3].parse().unwrap();
    let dijkstra_expanded: f64 = row("dijkstra")[3].parse().unwrap();
    assert!(astar_expanded < dijkstra_expanded, "{text}");
    let greedy_mean_cost: f64 = row("greedy")[4].parse().unwrap();
    let astar_mean_cost: f64 = row("astar")[4].parse().unwrap();
    assert!(greedy_mean_cost >= astar_mean_cost - 1e-9, "{text}");
}

#[test]
fn compare_under_another_rule_measures_against_dijkstra() {
    let text = compare_table("dao/arena", "astar,bfs", &["--diagonal", "never", "--limit", "30"]);
    assert!(text.contains("Dijkstra's cost under this rule"), "{text}");
    let rows = table_rows(&text);
    // With Manhattan on a 4-connected grid A* is optimal, and so is BFS without terrain.
    assert_eq!(rows[0][0], "astar (manhattan)", "{text}");
    assert_eq!(rows[1][0], "bfs", "{text}");
    for row in &rows {
        assert_eq!((row[1].as_str(), row[2].as_str()), ("30", "30"), "{text}");
        assert_eq!((row[5].as_str(), row[6].as_str()), ("0.000", "0.000"), "{text}");
    }
}

/// Runs `pathlab` with these arguments and `input` on its standard input; also says whether
/// it read all of the input (false when it closed its input first).
fn pathlab_with_stdin(args: &[&str], input: Vec<u8>) -> (Output, bool) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pathlab runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // A broken pipe here means pathlab stopped reading before the end.
    let writer = std::thread::spawn(move || stdin.write_all(&input).is_ok());
    let out = child.wait_with_output().expect("pathlab finishes");
    let read_all = writer.join().expect("writer");
    (out, read_all)
}

#[test]
fn a_map_from_a_pipe_is_read_only_up_to_the_limit() {
    // A pipe reports a length of 0, so the size check cannot trust it: 64 MiB of map rows,
    // far over the 8 MiB map limit, must be refused for its size after reading no more than
    // the limit, not read whole and then parsed.
    let scen = scratch("pipe.scen", "version 1\n0\tm.map\t4\t1\t0\t0\t3\t0\t3\n");
    let mut input = b"type octile\nheight 1\nwidth 4\nmap\n".to_vec();
    input.resize(64 * 1024 * 1024, b'.');
    let (out, read_all) = pathlab_with_stdin(&["scen", "/dev/stdin", scen.to_str().unwrap()], input);
    assert!(!read_all, "pathlab read all 64 MiB of its input");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("/dev/stdin") && text.contains("over the limit") && text.contains("8388608"), "{text}");
}

#[test]
fn an_endless_device_is_refused_at_the_limit() {
    // /dev/zero never ends: reading it whole never finishes.
    let scen = scratch("zero.scen", "version 1\n0\tm.map\t4\t1\t0\t0\t3\t0\t3\n");
    let out = pathlab(&["scen", "/dev/zero", scen.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("over the limit"), "{}", stderr(&out));
}

#[test]
fn navmesh_scen_check_passes_and_compare_accepts_it() {
    let root = movingai();
    for name in ["dao/arena", "bg512/AR0011SR"] {
        let map = root.join(format!("{name}.map"));
        let scen = root.join(format!("{name}.map.scen"));
        // Any angle: --check asks only for a path no shorter than the straight line.
        check_passes(&map, &scen, "navmesh", &["--sample", "200"], 200.min(problem_count(&scen)));
    }
    let (map, scen) = (root.join("dao/arena.map"), root.join("dao/arena.map.scen"));
    let (m, s) = (map.to_str().unwrap(), scen.to_str().unwrap());
    let out = pathlab(&["scen", m, s, "--algo", "navmesh", "--limit", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = stderr(&out);
    assert!(summary.contains("navmesh of ") && summary.contains(" polygons built in "), "{summary}");
    // The JSON lines keep the contract's keys and order.
    for line in stdout(&out).lines() {
        assert!(
            line.starts_with("{\"index\":") && line.contains(",\"optimal\":") && line.contains(",\"micros\":"),
            "{line}"
        );
    }
    let out = pathlab(&["compare", m, s, "--algos", "astar,navmesh", "--sample", "20"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    let row = table.lines().find(|l| l.starts_with("navmesh")).unwrap_or_else(|| panic!("no navmesh row:\n{table}"));
    // Every problem found.
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!((cells[1], cells[2]), ("20", "20"), "{row}");
}
