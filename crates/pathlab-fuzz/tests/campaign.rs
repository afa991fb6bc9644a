//! The bounded fuzz campaign of the test command: random bytes, token soups of each format
//! and mutated valid files thrown at every parser, every rule of `pathlab_fuzz::check`
//! checked on each. About half a minute on a 2-core machine with the `ci` profile;
//! `PATHLAB_FUZZ_SCALE=20 cargo test -p pathlab-fuzz --profile ci --test campaign` runs twenty
//! times as many cases (for longer still, the cargo-fuzz targets: fuzz/README.md).
//!
//! A failure prints the smallest input proptest found and where to keep it
//! (`fuzz/regressions/<target>/`); proptest also records its seed in
//! `campaign.proptest-regressions` beside this file, which is kept in git.

use std::sync::OnceLock;

use pathlab_fuzz::mutate::{apply, Mutation, HOSTILE_NUMBERS, HOSTILE_TEXT};
use pathlab_fuzz::Target;
use proptest::prelude::*;
use proptest::sample::select;

/// `cases` for a normal run, times `PATHLAB_FUZZ_SCALE` when it is set.
fn config(cases: u32) -> ProptestConfig {
    let scale = std::env::var("PATHLAB_FUZZ_SCALE").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(1);
    ProptestConfig { cases: cases.saturating_mul(scale.max(1)), max_shrink_iters: 4096, ..ProptestConfig::default() }
}

fn target() -> impl Strategy<Value = Target> {
    select(Target::ALL.to_vec())
}

/// The seeds of every target, read once: (target, bytes).
fn seeds() -> &'static [(Target, Vec<u8>)] {
    static SEEDS: OnceLock<Vec<(Target, Vec<u8>)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        Target::ALL
            .iter()
            .flat_map(|&t| t.seed_files().into_iter().map(move |p| (t, std::fs::read(p).unwrap())))
            .collect()
    })
}

/// The words, symbols and separators of a format, with hostile numbers and texts, and a few
/// long ones (a long string, number and row), which only a message that quotes too much
/// makes a problem of.
fn tokens(target: Target) -> Vec<String> {
    let own: &[&str] = match target {
        Target::Course => &["0", "1", "A", "B", "a", "b", "5", "2048", "\n", " ", "00000", "11111", "0A0B"],
        Target::MovingAiMap => {
            &["type", "octile", "height", "width", "map", ".", "@", "T", "G", "S", "O", "W", "\n", " ", "....", "@@@@"]
        }
        Target::MovingAiScen => &["version", "1", "\t", "m.map", "arena.map", "49", "0", "3", "1.41421", "4.00", "\n"],
        Target::GraphJson => &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"nodes\"",
            "\"edges\"",
            "\"id\"",
            "\"x\"",
            "\"y\"",
            "\"from\"",
            "\"to\"",
            "\"cost\"",
            "\"directed\"",
            "\"title\"",
            "\"A\"",
            "\"B\"",
            "true",
            "null",
            "1",
            "-2.5",
            "1e400",
            "\n",
            "\"\\u0000\"",
            "\"\\ud800\"",
        ],
        Target::GraphMatrix => {
            &["#", "A", "B", "\"main hall\"", "0", "1", "4", "inf", "∞", "-", "x", ",", " ", "\n", "//"]
        }
    };
    let long = [format!("\"{}\"", "x".repeat(400)), "9".repeat(400), "0".repeat(400), ".".repeat(400)];
    own.iter().chain(HOSTILE_NUMBERS.iter()).chain(HOSTILE_TEXT.iter()).map(|t| (*t).to_string()).chain(long).collect()
}

fn token_soup() -> impl Strategy<Value = (Target, Vec<u8>)> {
    target().prop_flat_map(|t| {
        proptest::collection::vec(select(tokens(t)), 0..80).prop_map(move |words| (t, words.concat().into_bytes()))
    })
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => any::<usize>().prop_map(Mutation::Truncate),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(at, value)| Mutation::SetByte { at, value }),
        2 => (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Delete { at, len }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(at, text)| Mutation::Insert { at, text }),
        3 => (any::<usize>(), any::<usize>()).prop_map(|(which, value)| Mutation::Number { which, value }),
        3 => (any::<usize>(), any::<usize>()).prop_map(|(which, value)| Mutation::Word { which, value }),
        2 => any::<usize>().prop_map(Mutation::DuplicateLine),
        2 => any::<usize>().prop_map(Mutation::DeleteLine),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(line, times)| Mutation::LongLine { line, times }),
        1 => any::<bool>().prop_map(|crlf| Mutation::LineEnds { crlf }),
        1 => Just(Mutation::Repeat),
    ]
}

proptest! {
    #![proptest_config(config(6000))]

    /// Any bytes at all, given to every parser.
    #[test]
    fn random_bytes_keep_every_rule(data in proptest::collection::vec(any::<u8>(), 0..600)) {
        for target in Target::ALL {
            target.check(&data).map_err(|b| TestCaseError::fail(b.to_string()))?;
        }
    }
}

proptest! {
    #![proptest_config(config(6000))]

    /// Sequences of a format's own words and symbols with hostile numbers and texts: inputs
    /// that get past the first line, which random bytes seldom do.
    #[test]
    fn token_soups_of_each_format_keep_every_rule((target, data) in token_soup()) {
        target.check(&data).map_err(|b| TestCaseError::fail(b.to_string()))?;
    }
}

proptest! {
    #![proptest_config(config(3000))]

    /// A valid file of the format with one to four edits: truncated, bits flipped, numbers
    /// made huge, negative or NaN, header lines repeated, lines made very long, line ends
    /// changed, the whole file twice.
    #[test]
    fn mutated_valid_files_keep_every_rule(
        seed in any::<prop::sample::Index>(),
        edits in proptest::collection::vec(mutation(), 1..5),
    ) {
        let (target, data) = seed.get(seeds());
        let data = edits.iter().fold(data.clone(), |d, m| apply(&d, m));
        target.check(&data).map_err(|b| TestCaseError::fail(b.to_string()))?;
    }
}
