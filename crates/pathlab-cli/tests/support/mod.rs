//! How the tests of the `pathlab` binary run it and read what it printed; every test file
//! takes this in with `mod support;`.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};

/// Runs `pathlab` with these arguments.
pub fn pathlab<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pathlab")).args(args).output().expect("pathlab runs")
}

/// Runs `pathlab scen MAP SCEN OPTIONS...`.
pub fn scen(map: &Path, scen: &Path, options: &[&str]) -> Output {
    let mut args = vec![OsStr::new("scen"), map.as_os_str(), scen.as_os_str()];
    args.extend(options.iter().map(OsStr::new));
    pathlab(&args)
}

/// What the run printed on stdout.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// What the run printed on stderr.
pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}
