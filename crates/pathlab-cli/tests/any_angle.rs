//! The any-angle algorithms (`theta`, `lazy-theta`, `astar-smoothed`) through the `pathlab`
//! binary on MovingAI problems:
//! - `scen --check` passes on every problem of `dao/arena` and on a sample spread over every
//!   family: a path is found and its cost is not below the straight line from start to goal
//!   (the CLI's rule for any-angle results);
//! - read from the JSON lines, every cost is also at most the `.scen` optimum plus the
//!   problem's tolerance: an any-angle path is never longer than the optimal grid path.
//!
//! The maps live in the folder `$PATHLAB_MOVINGAI` names, by default `shared/maps/movingai`
//! beside the repository. Run on a release build
//! (`cargo test -p pathlab-cli --release --test any_angle`), where it takes seconds.

#[path = "../../pathlab-core/tests/common/movingai_folder.rs"]
mod movingai_folder;

use movingai_folder::{map_of, movingai_folder as movingai, scenario_files};
use std::path::{Path, PathBuf};
use std::process::Command;

use pathlab_core::formats::movingai::{parse_scen, Problem};

const ALGORITHMS: [&str; 3] = ["theta", "lazy-theta", "astar-smoothed"];

/// One JSON line's problem index, optimum and cost (`None` for `null`).
fn fields(line: &str) -> (usize, f64, Option<f64>) {
    let value = |key: &str| -> &str {
        let at = line.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("no {key} in {line}")) + key.len() + 3;
        let rest = &line[at..];
        &rest[..rest.find([',', '}']).expect("value ends")]
    };
    let index = value("index").parse().expect("index");
    let optimal = value("optimal").parse().expect("optimal");
    let cost = match value("cost") {
        "null" => None,
        c => Some(c.parse().expect("cost")),
    };
    (index, optimal, cost)
}

/// What one run showed.
#[derive(Default)]
struct Tally {
    problems: usize,
    shorter: usize,
    ratio_sum: f64,
}

/// Runs `scen --check` with `algo`, insists on exit 0, one line per expected problem and no
/// mismatch, then checks every cost against the optimum plus tolerance.
fn check(map: &Path, algo: &str, extra: &[&str], expected: usize, tally: &mut Tally) {
    let scen = PathBuf::from(format!("{}.scen", map.display()));
    let out = Command::new(env!("CARGO_BIN_EXE_pathlab"))
        .arg("scen")
        .arg(map)
        .arg(&scen)
        .args(["--algo", algo, "--check"])
        .args(extra)
        .output()
        .expect("pathlab runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{algo} on {}: exit {:?}\n{stderr}", map.display(), out.status.code());
    assert!(stderr.contains(" 0 mismatches"), "{algo} on {}: {stderr}", map.display());
    let problems: Vec<Problem> = parse_scen(&std::fs::read_to_string(&scen).expect("scen")).expect("scen parses");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(stdout.lines().count(), expected, "{algo} on {}", map.display());
    for line in stdout.lines() {
        let (index, optimal, cost) = fields(line);
        let p = &problems[index];
        assert_eq!(optimal, p.optimal, "{line}");
        let cost = cost.unwrap_or_else(|| panic!("{algo}: no path in {line}"));
        assert!(
            cost <= p.optimal + p.tolerance,
            "{algo} on {} line {}: cost {cost} is above the grid optimum {} (tolerance {})",
            map.display(),
            p.line,
            p.optimal,
            p.tolerance
        );
        tally.problems += 1;
        tally.shorter += usize::from(cost < p.optimal - p.tolerance);
        if p.optimal > 0.0 {
            tally.ratio_sum += cost / p.optimal;
        } else {
            tally.ratio_sum += 1.0;
        }
    }
}

fn report(what: &str, algo: &str, t: &Tally) {
    eprintln!(
        "{what} {algo}: {} problems, {} strictly shorter than the grid optimum, mean cost / optimum {:.4}",
        t.problems,
        t.shorter,
        t.ratio_sum / t.problems as f64
    );
}

#[test]
fn any_angle_costs_stay_between_the_straight_line_and_the_optimum_on_every_arena_problem() {
    let map = movingai().join("dao/arena.map");
    let count = parse_scen(&std::fs::read_to_string(movingai().join("dao/arena.map.scen")).unwrap()).unwrap().len();
    assert!(count >= 100, "arena has only {count} problems");
    for algo in ALGORITHMS {
        let mut tally = Tally::default();
        check(&map, algo, &[], count, &mut tally);
        report("dao/arena", algo, &tally);
        // Arena is open enough that most paths can be pulled straighter than the grid allows.
        assert!(tally.shorter * 2 > tally.problems, "{algo}: only {} of {} shorter", tally.shorter, tally.problems);
    }
}

#[test]
fn any_angle_costs_stay_between_the_straight_line_and_the_optimum_on_a_sample_of_every_family() {
    let root = movingai();
    let maps: Vec<PathBuf> = scenario_files(&root).iter().map(|scen| map_of(scen)).collect();
    assert!(maps.len() >= 8, "expected every MovingAI family, found {maps:?}");
    // 300 problems spread evenly over the files.
    let (each, extra) = (300 / maps.len(), 300 % maps.len());
    for algo in ALGORITHMS {
        let mut tally = Tally::default();
        for (i, map) in maps.iter().enumerate() {
            let take = each + usize::from(i < extra);
            let scen = PathBuf::from(format!("{}.scen", map.display()));
            let available = parse_scen(&std::fs::read_to_string(&scen).unwrap()).unwrap().len();
            check(map, algo, &["--sample", &take.to_string()], take.min(available), &mut tally);
        }
        report("sample", algo, &tally);
        assert!(tally.problems >= 300, "{algo}: only {} problems", tally.problems);
    }
}
