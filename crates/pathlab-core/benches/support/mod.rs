//! What the map benches share: the MovingAI maps (in the folder `$PATHLAB_MOVINGAI` names, by
//! default `shared/maps/movingai` beside the repository, as for the tests), evenly spaced problems from each map's `.scen` file, and the median of timed
//! rounds. Each bench takes it in with `mod support;` and uses the part it needs.

#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

#[path = "../../tests/common/movingai_folder.rs"]
mod movingai_folder;

use pathlab_core::formats::movingai::{self, Problem};
use pathlab_core::grid::Grid;
use pathlab_core::search::Stepper;

/// One map and the problems taken from its `.scen` file.
pub struct Set {
    /// The map's path below the maps folder, without `.map` (e.g. `dao/arena`).
    pub name: &'static str,
    /// The map.
    pub grid: Grid,
    /// The problems taken.
    pub problems: Vec<Problem>,
}

/// The DAO maps the search comparisons run on, with how many evenly spaced problems to take
/// from each (`usize::MAX`: all of them).
pub const DAO_SETS: &[(&str, usize)] = &[
    ("dao/arena", usize::MAX),
    ("dao/den312d", usize::MAX),
    ("dao/brc202d", 400),
    ("dao/combat2", 200),
    ("dao/den520d", 200),
    ("dao/hrt201n", 200),
    ("dao/lak303d", 200),
    ("dao/ost003d", 200),
];

/// Runs `search` on every problem in turn, to the end, its ends set to each (one search
/// reused for every problem, as the CLI does); returns the summed cost and expansions.
pub fn run_all(search: &mut dyn Stepper, problems: &[Problem]) -> (f64, usize) {
    let (mut cost, mut expanded) = (0.0, 0);
    for p in problems {
        search.set_ends(p.start, p.goal).expect("valid problem");
        search.run();
        cost += search.cost().expect("a path");
        expanded += search.expanded();
    }
    (cost, expanded)
}

/// True when `cargo test --benches` runs the benchmark (it passes `--test`): then a benchmark
/// checks its answers and times one round, and criterion does not run.
pub fn testing() -> bool {
    std::env::args().any(|a| a == "--test")
}

/// `rounds`, or one round when [`testing`].
pub fn rounds(rounds: usize) -> usize {
    if testing() {
        1
    } else {
        rounds
    }
}

/// Runs the criterion groups `groups` adds, unless [`testing`].
pub fn with_criterion(groups: impl FnOnce(&mut criterion::Criterion)) {
    if testing() {
        return;
    }
    let mut c = criterion::Criterion::default().configure_from_args();
    groups(&mut c);
    c.final_summary();
}

/// Checks that `what` found `p`'s `.scen` optimum on `set` (within its tolerance): the
/// benchmarks time only searches that give the right answer.
pub fn assert_optimal(set: &Set, p: &Problem, what: &str, cost: f64) {
    assert!(
        (cost - p.optimal).abs() <= p.tolerance,
        "{} line {}: {what} cost {cost} but the optimum is {}",
        set.name,
        p.line,
        p.optimal
    );
}

/// The MovingAI maps folder (see `tests/common/movingai_folder.rs`); exits, naming `bench`
/// and the variable, when it is missing.
pub fn maps_folder(bench: &str) -> PathBuf {
    movingai_folder::find_movingai_folder().unwrap_or_else(|message| {
        eprintln!("{bench} bench: {message}");
        std::process::exit(1);
    })
}

/// Loads each `(name, take)` of `sets`: the map and `take` problems evenly spaced through its
/// `.scen` file (all of them when it has no more), so that every length bucket is
/// represented. Exits, naming `bench`, when the maps folder is missing; panics on a file that
/// cannot be read or parsed.
pub fn load_sets(bench: &str, sets: &[(&'static str, usize)]) -> Vec<Set> {
    let folder = maps_folder(bench);
    sets.iter()
        .map(|&(name, take)| {
            let read = |ext: &str| {
                let path = folder.join(format!("{name}{ext}"));
                std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            };
            let grid = movingai::parse_map(&read(".map")).unwrap_or_else(|e| panic!("{name}.map: {e}"));
            let all = movingai::parse_scen(&read(".map.scen")).unwrap_or_else(|e| panic!("{name}.map.scen: {e}"));
            let problems =
                if take >= all.len() { all } else { (0..take).map(|i| all[i * all.len() / take].clone()).collect() };
            Set { name, grid, problems }
        })
        .collect()
}

/// The median of timed rounds (the upper one of an even count).
pub fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Times `variants` side by side: `rounds` rounds, each running every variant once (`run(v)`)
/// in turn, starting with a different one each round so that none always runs on caches
/// another warmed. Returns each variant's median round.
pub fn side_by_side(rounds: usize, variants: usize, run: impl FnMut(usize)) -> Vec<Duration> {
    side_by_side_rounds(rounds, variants, run).into_iter().map(|t| t.median).collect()
}

/// A variant's rounds: the median, the fastest and the slowest.
#[derive(Clone, Copy, Debug)]
pub struct Spread {
    /// The median round (the upper one of an even count).
    pub median: Duration,
    /// The fastest round.
    pub min: Duration,
    /// The slowest round.
    pub max: Duration,
}

impl Spread {
    /// `median [min-max]` in milliseconds.
    pub fn ms(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        format!("{:.2} [{:.2}-{:.2}]", ms(self.median), ms(self.min), ms(self.max))
    }
}

/// [`side_by_side`], keeping each variant's fastest and slowest round beside its median.
pub fn side_by_side_rounds(rounds: usize, variants: usize, mut run: impl FnMut(usize)) -> Vec<Spread> {
    let mut times = vec![Vec::new(); variants];
    for round in 0..rounds {
        for k in 0..variants {
            let v = (round + k) % variants;
            let t = Instant::now();
            run(v);
            times[v].push(t.elapsed());
        }
    }
    times
        .into_iter()
        .map(|t: Vec<Duration>| Spread {
            min: t.iter().copied().min().unwrap_or_default(),
            max: t.iter().copied().max().unwrap_or_default(),
            median: median(t),
        })
        .collect()
}
