//! The bounded fuzz campaign of the test command: random bytes, token soups of each format
//! and mutated valid files thrown at every parser, every rule of `pathlab_fuzz::check`
//! checked on each. Bounded by time, not by a count of cases, so the test command takes
//! about as long on any machine: 6 + 6 + 8 seconds (two at a time), and never fewer than a
//! floor of cases. `PATHLAB_FUZZ_SCALE=20` runs twenty times as long (for longer still, the
//! cargo-fuzz targets: fuzz/README.md).
//!
//! Each run draws new inputs; a failure prints the smallest input proptest found, where to
//! keep it (`fuzz/regressions/<target>/`) and the seed that replays the run
//! (`PATHLAB_FUZZ_SEED=N`).

use std::fmt::Debug;
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use pathlab_fuzz::mutate::{apply, Mutation, HOSTILE_NUMBERS, HOSTILE_TEXT};
use pathlab_fuzz::Target;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{RngSeed, TestError, TestRunner};

/// Runs `test` on inputs drawn from `strategy` for `seconds` (times `PATHLAB_FUZZ_SCALE`)
/// and at least `floor` times; on a failure, shrinks it and panics with the smallest input.
fn campaign<S: Strategy>(seconds: f64, floor: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: Debug,
{
    let scale = std::env::var("PATHLAB_FUZZ_SCALE").ok().and_then(|s| s.parse::<f64>().ok()).filter(|s| *s > 0.0);
    let budget = Duration::from_secs_f64(seconds * scale.unwrap_or(1.0));
    let seed = std::env::var("PATHLAB_FUZZ_SEED").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or_else(|| {
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64 ^ u64::from(std::process::id()))
    });
    let config = ProptestConfig { rng_seed: RngSeed::Fixed(seed), max_shrink_iters: 4096, ..ProptestConfig::default() };
    let mut runner = TestRunner::new(config);
    let start = Instant::now();
    let mut cases = 0u32;
    while cases < floor || start.elapsed() < budget {
        let tree = strategy.new_tree(&mut runner).expect("the strategies reject nothing");
        if let Err(TestError::Fail(reason, input)) = runner.run_one(tree, &test) {
            panic!("case {cases} of the run with PATHLAB_FUZZ_SEED={seed}: {reason}\nsmallest input: {input:?}");
        }
        cases += 1;
    }
    eprintln!("{cases} cases in {:.1} s (PATHLAB_FUZZ_SEED={seed})", start.elapsed().as_secs_f64());
}

/// Checks one input with the rules of its target.
fn holds(target: Target, data: &[u8]) -> Result<(), TestCaseError> {
    target.check(data).map_err(|b| TestCaseError::fail(b.to_string()))
}

fn target() -> impl Strategy<Value = Target> {
    select(Target::ALL.to_vec())
}

/// The seeds of every target up to 64 KiB, read once: (target, bytes). The larger ones (the
/// 512 x 512 map) cost a hundred small cases each; `kept_cases` reads them whole.
fn seeds() -> &'static [(Target, Vec<u8>)] {
    static SEEDS: OnceLock<Vec<(Target, Vec<u8>)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        Target::ALL
            .iter()
            .flat_map(|&t| t.seed_files().into_iter().map(move |p| (t, std::fs::read(p).unwrap())))
            .filter(|(_, data)| data.len() <= 64 * 1024)
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

/// Any bytes at all, given to every parser.
#[test]
fn random_bytes_keep_every_rule() {
    campaign(6.0, 2000, proptest::collection::vec(any::<u8>(), 0..600), |data| {
        Target::ALL.iter().try_for_each(|&t| holds(t, &data))
    });
}

/// Sequences of a format's own words and symbols with hostile numbers and texts: inputs that
/// get past the first line, which random bytes seldom do.
#[test]
fn token_soups_of_each_format_keep_every_rule() {
    campaign(6.0, 2000, token_soup(), |(target, data)| holds(target, &data));
}

/// A valid file of the format with one to four edits: truncated, bits flipped, numbers made
/// huge, negative or NaN, values of the wrong type, header lines repeated, lines made very
/// long, line ends changed, the whole file twice.
#[test]
fn mutated_valid_files_keep_every_rule() {
    let edits = (any::<prop::sample::Index>(), proptest::collection::vec(mutation(), 1..5));
    campaign(8.0, 1000, edits, |(seed, edits)| {
        let (target, data) = seed.get(seeds());
        holds(*target, &edits.iter().fold(data.clone(), |d, m| apply(&d, m)))
    });
}
