//! Where the inputs of the campaign live.
//!
//! - **Seeds**: valid files each mutation starts from: the repository's own maps
//!   ([`Target::seed_files`]: the page's presets in `maps/`), which are also the starting
//!   corpus of the cargo-fuzz targets.
//! - **Regressions**: every input that once broke a rule, in
//!   `fuzz/regressions/<target name>/`, one file each, replayed by the tests for ever. A
//!   file may have a sidecar `<file>.expect` saying what the parser must answer: `ok`, or
//!   `error: ` followed by text the error must hold (`error: line 4: a second height line`).
//!   Without one, the rules of [`crate::check`] are all that is asked.

use std::path::{Path, PathBuf};

use crate::Target;

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What a kept input must give, from its `.expect` sidecar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The parser accepts it.
    Ok,
    /// The parser refuses it with an error whose text holds this.
    Error(String),
}

/// A kept input.
#[derive(Clone, Debug)]
pub struct Case {
    /// The file it came from.
    pub path: PathBuf,
    /// Its bytes.
    pub data: Vec<u8>,
    /// What the parser must answer besides the common rules, if the sidecar says.
    pub expect: Option<Expect>,
}

impl Target {
    /// The folder of this target's kept inputs: `fuzz/regressions/<name>/`.
    pub fn regression_dir(self) -> PathBuf {
        repo_root().join("fuzz/regressions").join(self.name())
    }

    /// The valid files the mutations start from: the repository's maps in this format.
    pub fn seed_files(self) -> Vec<PathBuf> {
        let (folder, ending) = match self {
            Target::Course => ("maps", ".txt"),
            Target::MovingAiMap => ("maps/movingai", ".map"),
            Target::MovingAiScen => ("maps/movingai", ".scen"),
            Target::GraphJson => ("maps/graphs", ".json"),
            Target::GraphMatrix => ("maps/graphs", ".txt"),
        };
        files_in(&repo_root().join(folder)).into_iter().filter(|p| p.to_string_lossy().ends_with(ending)).collect()
    }

    /// Every kept input of this target, in name order; an unreadable file or sidecar panics
    /// with its path.
    pub fn regressions(self) -> Vec<Case> {
        files_in(&self.regression_dir())
            .into_iter()
            .filter(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                !name.ends_with(".expect") && name != "README.md"
            })
            .map(|path| {
                let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let mut sidecar = path.clone().into_os_string();
                sidecar.push(".expect");
                let expect = std::fs::read_to_string(&sidecar).ok().map(|t| parse_expect(&t, Path::new(&sidecar)));
                Case { path, data, expect }
            })
            .collect()
    }
}

/// The files (not folders) in `dir`, in name order; none when it does not exist.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

fn parse_expect(text: &str, path: &Path) -> Expect {
    let t = text.trim_end_matches(['\n', '\r']);
    if t == "ok" {
        Expect::Ok
    } else if let Some(rest) = t.strip_prefix("error: ") {
        Expect::Error(rest.to_string())
    } else {
        panic!("{}: expected `ok` or `error: TEXT`, found {t:?}", path.display())
    }
}
