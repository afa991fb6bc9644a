//! Where the MovingAI benchmark maps are: the one rule every test and bench that reads them
//! follows. The folder is `$PATHLAB_MOVINGAI` when that is set, else `shared/maps/movingai`
//! beside the repository; it holds `<family>/<name>.map` and `<family>/<name>.map.scen`
//! (e.g. `dao/arena.map`). The few maps the page ships in the repository's own
//! `maps/movingai` are fixtures, read directly.
//!
//! It uses only `std`, so the CLI's tests and the core's benches take it in too, with
//! `#[path = ".../pathlab-core/tests/common/movingai_folder.rs"] mod movingai_folder;`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The environment variable that names the MovingAI maps folder.
pub const VARIABLE: &str = "PATHLAB_MOVINGAI";

/// The MovingAI maps folder, or a message naming the variable and the folder looked for when
/// it is missing.
pub fn find_movingai_folder() -> Result<PathBuf, String> {
    let (folder, from) = if let Some(dir) = std::env::var_os(VARIABLE) {
        (PathBuf::from(dir), format!("${VARIABLE}"))
    } else {
        // Every crate sits at crates/<name>, two levels below the repository.
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        (repo.join("../shared/maps/movingai"), format!("the default, as {VARIABLE} is not set"))
    };
    if folder.join("dao/arena.map").is_file() {
        Ok(folder)
    } else {
        Err(format!(
            "the MovingAI maps are missing: {} ({from}) does not hold dao/arena.map. Set {VARIABLE} \
             to the folder holding the maps as <family>/<name>.map and .map.scen (by default \
             shared/maps/movingai, the folder beside the repository)",
            folder.display()
        ))
    }
}

/// The MovingAI maps folder; panics with [`find_movingai_folder`]'s message when it is missing.
pub fn movingai_folder() -> PathBuf {
    find_movingai_folder().unwrap_or_else(|message| panic!("{message}"))
}

/// Every scenario file of every family in `folder` (`<family>/<name>.map.scen`), sorted.
pub fn scenario_files(folder: &Path) -> Vec<PathBuf> {
    let mut scens = Vec::new();
    for family in std::fs::read_dir(folder).expect("the MovingAI folder is readable") {
        let family = family.expect("entry").path();
        if !family.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&family).expect("family readable") {
            let file = file.expect("entry").path();
            if file.to_string_lossy().ends_with(".map.scen") {
                scens.push(file);
            }
        }
    }
    scens.sort();
    scens
}

/// The map a scenario file is for: its path without `.scen`.
pub fn map_of(scen: &Path) -> PathBuf {
    PathBuf::from(scen.to_string_lossy().trim_end_matches(".scen").to_string())
}

/// The number of problems in a `.scen` file (its non-empty lines after the version line).
pub fn problem_count(scen: &Path) -> usize {
    let text = std::fs::read_to_string(scen).unwrap_or_else(|e| panic!("{}: {e}", scen.display()));
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("version")).count()
}

/// The variable that makes the checks of named maps run every one of their problems
/// (`PATHLAB_MOVINGAI_FULL=1`, about 15 minutes on two cores). Without it they run
/// [`NAMED_MAP_SAMPLE`] problems of each, spread evenly from the shortest to the longest.
pub const FULL_VARIABLE: &str = "PATHLAB_MOVINGAI_FULL";

/// How many problems of a named map the test command checks when [`FULL_VARIABLE`] is not set.
pub const NAMED_MAP_SAMPLE: usize = 1000;

/// The extra `scen` arguments that choose the problems of a named map with `count` problems to
/// check, and how many that is: every problem under `$PATHLAB_MOVINGAI_FULL=1` or when the map
/// has no more than the sample, else `--sample` [`NAMED_MAP_SAMPLE`].
pub fn named_map_problems(count: usize) -> (Vec<String>, usize) {
    let full = std::env::var(FULL_VARIABLE).is_ok_and(|v| v == "1");
    if full || count <= NAMED_MAP_SAMPLE {
        (Vec::new(), count)
    } else {
        (vec!["--sample".to_string(), NAMED_MAP_SAMPLE.to_string()], NAMED_MAP_SAMPLE)
    }
}
