//! Fuzzing Pathlab's file parsers: what each parser must do with any input, written once.
//!
//! Every parser of text that comes from outside (a file a user opens, a file the CLI is
//! given) is a [`Target`]. [`Target::check`] feeds it bytes and checks the rules every input
//! must keep (see [`check`]): no panic; an error names the problem, the line where the format
//! has lines, and quotes no more than a short piece of the input; what is accepted is a
//! consistent value that writes back and reads back as itself.
//!
//! The same checks run in two ways:
//! - **bounded, in the test command** (stable Rust, nothing to install): this crate's tests
//!   (`cargo test -p pathlab-fuzz --profile ci`) replay every kept case and throw random
//!   bytes and mutated valid files ([`mutate`]) at every target for a fixed time (about 14
//!   seconds on two cores);
//! - **for as long as you like**, with libFuzzer: the cargo-fuzz crate in `fuzz/` at the
//!   repository root has one target per [`Target`], named by [`Target::name`] (see
//!   `fuzz/README.md`).
//!
//! Inputs that once failed are kept in `fuzz/regressions/<target name>/` ([`corpus`]) and
//! replayed by the tests for ever.
//!
//! Lesson files are read by the pages (`www/lesson-file.js`), so their campaign is a
//! JavaScript one (`fuzz/js/lesson-file.fuzz.test.mjs`, kept cases in
//! `fuzz/regressions/lesson/`). A parser of a new format in the core gets a variant here, a
//! branch in [`check`], a cargo-fuzz target and a folder of kept cases: the campaign and the
//! replay pick it up from [`Target::ALL`].
//!
//! ```
//! use pathlab_fuzz::Target;
//! // A repeated header line is an error naming its line, not a panic or a silent choice.
//! Target::MovingAiMap.check(b"type octile\nheight 9\nheight 1\nwidth 1\nmap\n.\n").unwrap();
//! assert!(Target::MovingAiMap.check(b"type octile\nheight 1\nwidth 1\nmap\n.\n").is_ok());
//! ```

pub mod check;
pub mod corpus;
pub mod mutate;

use std::fmt;

/// A parser under fuzzing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The course's data file (`pathlab_core::formats::course::parse`).
    Course,
    /// A MovingAI `.map` file (`pathlab_core::formats::movingai::parse_map`).
    MovingAiMap,
    /// A MovingAI `.scen` file (`pathlab_core::formats::movingai::parse_scen`).
    MovingAiScen,
    /// A graph file in Pathlab's JSON format (`pathlab_core::formats::graph::parse_json`).
    GraphJson,
    /// A graph file as a weight matrix (`pathlab_core::formats::graph::parse_matrix`).
    GraphMatrix,
}

impl Target {
    /// Every target, in the order the campaign runs them.
    pub const ALL: [Target; 5] =
        [Target::Course, Target::MovingAiMap, Target::MovingAiScen, Target::GraphJson, Target::GraphMatrix];

    /// The target's name: its cargo-fuzz target in `fuzz/fuzz_targets/` and its folders under
    /// `fuzz/regressions/` and `fuzz/corpus/`.
    pub const fn name(self) -> &'static str {
        match self {
            Target::Course => "course",
            Target::MovingAiMap => "movingai_map",
            Target::MovingAiScen => "movingai_scen",
            Target::GraphJson => "graph_json",
            Target::GraphMatrix => "graph_matrix",
        }
    }

    /// Feeds `data` (read as UTF-8, invalid sequences replaced, as a file reader that
    /// replaced them would hand it over) to the parser and checks every rule; the error says
    /// which rule broke. A panic in the parser is not caught: it is the failure itself.
    pub fn check(self, data: &[u8]) -> Result<(), Broken> {
        let text = String::from_utf8_lossy(data);
        check::check(self, &text).map_err(|rule| Broken { target: self, rule, input: data.to_vec() })
    }

    /// [`Target::check`] for a fuzzer: panics, with the broken rule and the input, when a
    /// rule is broken.
    pub fn assert_holds(self, data: &[u8]) {
        if let Err(broken) = self.check(data) {
            panic!("{broken}");
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule a parser broke on an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The parser.
    pub target: Target,
    /// Which rule, in words.
    pub rule: String,
    /// The input.
    pub input: Vec<u8>,
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = String::from_utf8_lossy(&self.input);
        let shown: String = shown.chars().take(2000).collect();
        write!(
            f,
            "{}: {}\ninput ({} bytes, first 2000 characters): {shown:?}\nKeep it: save the input as a file in fuzz/regressions/{}/ (see CONTRIBUTING.md).",
            self.target,
            self.rule,
            self.input.len(),
            self.target
        )
    }
}

impl std::error::Error for Broken {}
