//! JPS and JPS+ through the `pathlab` binary on the MovingAI benchmark:
//! - `scen --check` passes for `jps`, `jps-plus` and `jps-plus-pruned` on `dao/arena`,
//!   `dao/den312d`, `dao/brc202d` and `bg512/AR0011SR` (1,000 problems of each spread over its
//!   buckets, or every problem with `PATHLAB_MOVINGAI_FULL=1`), and on 2,016 problems sampled
//!   evenly from every scenario file of every family, and for `jps` and `jps-plus` on
//!   `mazes/maze512-1-0` (whose one-cell corridors leave no diagonal move, where pruned JPS+
//!   does what JPS+ does): each cost is the `.scen` optimum within its tolerance (the CLI's
//!   rule for an optimal algorithm);
//! - on those runs (the maze aside, where each is checked on its own), the three report the
//!   same cost problem by problem, read from the JSON lines;
//! - a rule they cannot run under is refused with exit status 2 and a plain message.
//!
//! The maps live in the folder `$PATHLAB_MOVINGAI` names, by default `shared/maps/movingai`
//! beside the repository. Run on an optimised build (`cargo test -p pathlab-cli --profile ci
//! --test shelf_jps`); with every problem, the maze, where every corridor bend is a jump point,
//! takes most of the time (about 30 s of CPU per algorithm).

#[path = "../../pathlab-core/tests/common/movingai_folder.rs"]
mod movingai_folder;

mod support;

use movingai_folder::{map_of, movingai_folder as movingai, named_map_problems, problem_count, scenario_files};
use std::path::{Path, PathBuf};
use support::{scen as run_scen, stderr, stdout};

/// The `"cost"` of each JSON line, by problem index.
fn costs(stdout: &str) -> Vec<(usize, Option<f64>)> {
    stdout
        .lines()
        .map(|line| {
            let field = |key: &str| {
                let at =
                    line.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("no {key} in {line}")) + key.len() + 3;
                let rest = &line[at..];
                rest[..rest.find([',', '}']).expect("value ends")].to_string()
            };
            let index = field("index").parse().expect("an index");
            let cost = field("cost");
            (index, (cost != "null").then(|| cost.parse().expect("a cost")))
        })
        .collect()
}

/// Runs `scen --check` with `algo`; insists on exit 0, one line per expected problem and no
/// mismatch; returns the costs by problem index.
fn check_passes(map: &Path, algo: &str, extra: &[&str], expected: usize) -> Vec<(usize, Option<f64>)> {
    let scen = PathBuf::from(format!("{}.scen", map.display()));
    let out = run_scen(map, &scen, &[&["--algo", algo, "--check"], extra].concat());
    let stderr = stderr(&out);
    assert!(out.status.success(), "{algo} on {}: exit {:?}\n{stderr}", map.display(), out.status.code());
    assert!(stderr.contains(" 0 mismatches"), "{algo} on {}: {stderr}", map.display());
    assert!(stderr.contains(&format!("[{algo}, ")), "{stderr}");
    let costs = costs(&stdout(&out));
    assert_eq!(costs.len(), expected, "{algo} on {}", map.display());
    assert!(costs.iter().all(|(_, c)| c.is_some()), "{algo} on {}: a problem without a path", map.display());
    costs
}

/// Insists that two runs found the same costs (up to rounding: the two sum their moves
/// differently) on the same problems.
fn same_costs(what: &str, a: &[(usize, Option<f64>)], b: &[(usize, Option<f64>)]) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (x, y) in a.iter().zip(b) {
        let close = match (x.1, y.1) {
            (Some(p), Some(q)) => (p - q).abs() <= 1e-9 * p.max(1.0),
            (p, q) => p == q,
        };
        assert!(x.0 == y.0 && close, "{what}: JPS gives {x:?}, the other {y:?}");
    }
}

/// The problems of a named map the test command checks (see `named_map_problems`): its path,
/// the extra arguments and how many problems they choose.
fn named_map(name: &str, at_least: usize) -> (PathBuf, Vec<String>, usize) {
    let map = movingai().join(format!("{name}.map"));
    let count = problem_count(&movingai().join(format!("{name}.map.scen")));
    assert!(count >= at_least, "{name}: only {count} problems");
    let (extra, checked) = named_map_problems(count);
    (map, extra, checked)
}

/// The problems of each map, with JPS and both JPS+, which must agree with each other too.
fn named_maps(names: &[&str]) {
    for name in names {
        let (map, extra, checked) = named_map(name, 100);
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let jps = check_passes(&map, "jps", &extra, checked);
        let plus = check_passes(&map, "jps-plus", &extra, checked);
        same_costs(name, &jps, &plus);
        let pruned = check_passes(&map, "jps-plus-pruned", &extra, checked);
        same_costs(name, &jps, &pruned);
    }
}

#[test]
fn jps_and_both_jps_plus_match_the_optima_of_arena_den312d_brc202d_and_ar0011sr() {
    named_maps(&["dao/arena", "dao/den312d", "dao/brc202d", "bg512/AR0011SR"]);
}

/// The maze has 11,960 problems and every corridor bend is a jump point: one test per
/// algorithm, so that the two run side by side.
fn the_maze(algo: &str) {
    let (map, extra, checked) = named_map("mazes/maze512-1-0", 10_000);
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    check_passes(&map, algo, &extra, checked);
}

#[test]
fn jps_matches_the_optima_of_maze512_1_0() {
    the_maze("jps");
}

#[test]
fn jps_plus_matches_the_optima_of_maze512_1_0() {
    the_maze("jps-plus");
}

#[test]
fn jps_and_both_jps_plus_match_2016_problems_sampled_across_every_family() {
    const SAMPLE: usize = 2016;
    let root = movingai();
    let maps: Vec<PathBuf> = scenario_files(&root).iter().map(|scen| map_of(scen)).collect();
    let families: std::collections::BTreeSet<_> = maps.iter().map(|m| m.parent().map(Path::to_path_buf)).collect();
    assert!(maps.len() >= 20 && families.len() >= 8, "expected every MovingAI family, found {maps:?}");
    // 2,016 problems spread evenly over the files: each gives 2016 / n, the first 2016 % n
    // one more.
    let (each, extra) = (SAMPLE / maps.len(), SAMPLE % maps.len());
    let mut total = 0;
    for (i, map) in maps.iter().enumerate() {
        let take = each + usize::from(i < extra);
        let expected = take.min(problem_count(&PathBuf::from(format!("{}.scen", map.display()))));
        let sample = take.to_string();
        let jps = check_passes(map, "jps", &["--sample", &sample], expected);
        let plus = check_passes(map, "jps-plus", &["--sample", &sample], expected);
        same_costs(&map.display().to_string(), &jps, &plus);
        let pruned = check_passes(map, "jps-plus-pruned", &["--sample", &sample], expected);
        same_costs(&map.display().to_string(), &jps, &pruned);
        total += expected;
    }
    assert!(total >= 2000, "sampled only {total} problems");
}

#[test]
fn a_rule_jps_cannot_run_under_exits_2_with_a_message() {
    let root = movingai();
    let (map, scen) = (root.join("dao/arena.map"), root.join("dao/arena.map.scen"));
    for algo in ["jps", "jps-plus", "jps-plus-pruned"] {
        for rule in ["always", "at-most-one-blocked"] {
            let out = run_scen(&map, &scen, &["--algo", algo, "--diagonal", rule]);
            let stderr = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{algo} {rule}: {stderr}");
            assert!(stderr.contains(rule) && stderr.contains("no-corner-cutting") && stderr.contains("A*"), "{stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
        // 4-connected runs (the .scen optima do not apply, so no --check).
        let out = run_scen(&map, &scen, &["--algo", algo, "--diagonal", "never", "--limit", "20"]);
        assert!(out.status.success(), "{algo} never: {}", stderr(&out));
        assert_eq!(stdout(&out).lines().count(), 20);
    }
}
