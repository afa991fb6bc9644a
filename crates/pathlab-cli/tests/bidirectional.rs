//! Bidirectional A* (`bi-astar`) and IDA* (`ida`) through the `pathlab` binary on MovingAI
//! problems, against the published optima of the `.scen` files:
//! - `scen --check --algo bi-astar` passes on `dao/arena`, `dao/den312d`, `dao/brc202d`,
//!   `bg512/AR0011SR` and `mazes/maze512-1-0` (1,000 problems of each spread over its buckets,
//!   or every problem with `PATHLAB_MOVINGAI_FULL=1`), and on 2,000 problems spread evenly over
//!   every scenario file of every family;
//! - `scen --check --algo ida` passes on the shortest problems of `dao/arena` and
//!   `dao/den312d` (the lowest buckets, taken with `--limit`);
//! - where IDA* reaches its visit limit, stderr says it gave up (not "no path"), and `--check`
//!   fails naming it.
//!
//! The maps live in the folder `$PATHLAB_MOVINGAI` names, by default `shared/maps/movingai`
//! beside the repository. Run them on an optimised build (`cargo test -p pathlab-cli --profile ci
//! --test bidirectional`); with every problem (the 11,960 of maze512-1-0 alone take minutes)
//! they take several minutes.

#[path = "../../pathlab-core/tests/common/movingai_folder.rs"]
mod movingai_folder;

use movingai_folder::{map_of, movingai_folder as movingai, named_map_problems, problem_count, scenario_files};
mod support;

use std::path::{Path, PathBuf};
use support::{scen as run_scen, stderr, stdout};

/// The cost field of a JSON line (`None` for `null`).
fn cost_of(line: &str) -> Option<f64> {
    let at = line.find("\"cost\":").expect("a cost field") + 7;
    let rest = &line[at..];
    let value = &rest[..rest.find([',', '}']).expect("the value ends")];
    (value != "null").then(|| value.parse().expect("a number"))
}

/// Runs `scen MAP SCEN --algo ALGO --check EXTRA...`, insists on exit 0, one JSON line with a
/// cost per expected problem and no mismatch; returns the summary line.
fn check_passes(map: &Path, scen: &Path, algo: &str, extra: &[&str], expected: usize) -> String {
    let out = run_scen(map, scen, &[&["--algo", algo, "--check"], extra].concat());
    let err = stderr(&out);
    assert!(out.status.success(), "{algo} on {}: exit {:?}\n{err}", scen.display(), out.status.code());
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), expected, "{algo} on {}", scen.display());
    assert!(lines.iter().all(|l| cost_of(l).is_some()), "{algo} on {}: a problem without a path", scen.display());
    assert!(err.contains(&format!("{expected} found, 0 mismatches")), "{err}");
    assert!(!err.contains("gave up"), "{err}");
    err
}

fn map_and_scen(root: &Path, name: &str) -> (PathBuf, PathBuf) {
    (root.join(format!("{name}.map")), root.join(format!("{name}.map.scen")))
}

#[test]
fn bi_astar_matches_the_optima_of_the_five_named_maps() {
    let root = movingai();
    let mut total = 0;
    for name in ["dao/arena", "dao/den312d", "dao/brc202d", "bg512/AR0011SR", "mazes/maze512-1-0"] {
        let (map, scen) = map_and_scen(&root, name);
        let count = problem_count(&scen);
        assert!(count >= 100, "{name}: only {count} problems");
        let (extra, checked) = named_map_problems(count);
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let summary = check_passes(&map, &scen, "bi-astar", &extra, checked);
        eprintln!("{}", summary.trim());
        total += checked;
    }
    assert!(total >= 3_000, "only {total} problems");
}

#[test]
fn bi_astar_matches_2000_problems_sampled_across_every_family() {
    let root = movingai();
    let scens = scenario_files(&root);
    let families: std::collections::BTreeSet<_> = scens.iter().map(|s| s.parent().map(Path::to_path_buf)).collect();
    assert!(families.len() >= 8, "expected every MovingAI family, found {families:?}");
    // 2,000 problems spread evenly: every file gives 2000 / n, the first 2000 % n one more.
    let (each, extra) = (2000 / scens.len(), 2000 % scens.len());
    let mut total = 0;
    for (i, scen) in scens.iter().enumerate() {
        let map = map_of(scen);
        let take = each + usize::from(i < extra);
        let expected = take.min(problem_count(scen));
        check_passes(&map, scen, "bi-astar", &["--sample", &take.to_string()], expected);
        total += expected;
    }
    eprintln!(
        "bi-astar matched {total} sampled problems in {} scenario files of {} families",
        scens.len(),
        families.len()
    );
    assert!(total >= 2000, "sampled only {total} problems");
}

#[test]
fn ida_matches_the_optima_of_the_shortest_problems() {
    let root = movingai();
    // The first problems of a .scen file are its lowest buckets (10 per bucket, optimal cost
    // below 4 for bucket 0, below 8 for bucket 1, ...): arena's buckets 0-4, den312d's 0-3.
    for (name, limit) in [("dao/arena", 50), ("dao/den312d", 40)] {
        let (map, scen) = map_and_scen(&root, name);
        let summary = check_passes(&map, &scen, "ida", &["--limit", &limit.to_string()], limit);
        eprintln!("{}", summary.trim());
    }
}

/// A 64x64 map, open but for a wall across the middle with a gap at the right end, and one
/// problem from one side to the other: A* finds the way round, IDA* reaches its visit limit.
#[test]
fn ida_says_plainly_when_it_gives_up() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pathlab-cli-bidirectional");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let mut map = String::from("type octile\nheight 64\nwidth 64\nmap\n");
    for y in 0..64 {
        let row: String = (0..64).map(|x| if y == 32 && x < 63 { '@' } else { '.' }).collect();
        map.push_str(&row);
        map.push('\n');
    }
    // From (5,5) to (5,58) through the gap (63,32). Under no corner cutting the gap is entered
    // and left straight, from (63,31) and to (63,33): octile (5,5)-(63,31) is 26 diagonals and
    // 32 straight, then 2 straight, then octile (63,33)-(5,58) is 25 diagonals and 33 straight:
    // 67 + 51 sqrt(2) = 139.12489168.
    let map_path = dir.join("wall.map");
    let scen_path = dir.join("wall.map.scen");
    std::fs::write(&map_path, map).expect("map written");
    std::fs::write(&scen_path, "version 1\n0\twall.map\t64\t64\t5\t5\t5\t58\t139.12489168\n").expect("scen written");

    // The optimum is right: A* and bi-A* agree with it.
    for algo in ["astar", "bi-astar"] {
        check_passes(&map_path, &scen_path, algo, &[], 1);
    }

    // Without --check: exit 0, a null cost, and stderr says why.
    let out = run_scen(&map_path, &scen_path, &["--algo", "ida"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(cost_of(stdout(&out).trim()), None);
    assert!(
        err.contains("wall.map.scen: line 2 (problem 0): IDA* stopped at its limit of 1000000 node visits"),
        "{err}"
    );
    assert!(err.contains("the goal may still be reachable"), "{err}");
    assert!(err.contains("1 problems (of 1), 0 found, 1 gave up"), "{err}");

    // With --check: exit 1, and the mismatch names the give-up, not a missing path.
    let out = run_scen(&map_path, &scen_path, &["--algo", "ida", "--check"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("ida gave up (see above); the optimum is 139.12489168"), "{err}");
    assert!(!err.contains("no path found"), "{err}");
}
