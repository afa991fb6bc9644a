//! `pathlab`: runs Pathlab's searches on MovingAI benchmark problems from the command line.
//!
//! - `pathlab scen MAP SCEN [--algo A] [--diagonal RULE] [--heuristic H] [--weight W]
//!   [--lookahead N] [--sensor N] [--cluster N] [--hand H] [--limit N] [--sample N] [--check]`
//!   prints one JSON object per problem and a summary.
//! - `pathlab compare MAP SCEN --algos a,b,c [...]` prints a table comparing algorithms.
//! - `pathlab path FILE --start S --goal G [...]` runs one search on a grid, hex grid or graph
//!   file and prints its cost, path and expansions as one JSON object.
//!
//! Exit status: 0 done, 1 `--check` found a mismatch, 2 bad arguments or input. Every
//! message about input names the file, the line and the problem. See `pathlab help`.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

mod args;
mod compare;
mod path;
mod problems;
mod scen;
mod usage;

/// Why the command stopped early: an exit status and a message for stderr.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The exit status: 1 for a failed check, 2 for bad arguments or input, 0 for a quiet
    /// stop (the reader of stdout went away).
    pub code: u8,
    /// What went wrong, without the `pathlab: ` prefix.
    pub message: String,
    /// Whether to point at `pathlab help` after the message.
    pub show_usage: bool,
}

impl Failure {
    /// A bad command line: exit 2 and point at the usage text.
    pub fn usage(message: impl Into<String>) -> Self {
        Self { code: 2, message: message.into(), show_usage: true }
    }

    /// Bad input (a file, a problem in it): exit 2.
    pub fn input(message: impl Into<String>) -> Self {
        Self { code: 2, message: message.into(), show_usage: false }
    }

    /// A `--check` mismatch: exit 1.
    pub fn check(message: impl Into<String>) -> Self {
        Self { code: 1, message: message.into(), show_usage: false }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<io::Error> for Failure {
    /// A failed write to stdout. A reader that stopped early (`pathlab scen ... | head`)
    /// closes the pipe: that ends the run quietly with status 0.
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Self { code: 0, message: String::new(), show_usage: false }
        } else {
            Self::input(format!("cannot write the output: {e}"))
        }
    }
}

fn main() -> ExitCode {
    let result = args::parse(std::env::args_os().skip(1)).and_then(|command| match command {
        args::Command::Help => print(&usage::usage()),
        args::Command::Version => print(&format!("pathlab {}\n", env!("CARGO_PKG_VERSION"))),
        args::Command::Scen(run) => scen::run(&run),
        args::Command::Compare(run) => compare::run(&run),
        args::Command::Path(run) => path::run(&run),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) if f.code == 0 => ExitCode::SUCCESS,
        Err(f) => {
            let mut err = io::stderr().lock();
            let _ = writeln!(err, "pathlab: {f}");
            if f.show_usage {
                let _ = writeln!(err, "run `pathlab help` for usage");
            }
            ExitCode::from(f.code)
        }
    }
}

/// Writes text to stdout.
fn print(text: &str) -> Result<(), Failure> {
    io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}
