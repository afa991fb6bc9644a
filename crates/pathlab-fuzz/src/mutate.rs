//! Structured mutations of valid files: the edits that break parsers in practice, which
//! random bytes rarely make. A [`Mutation`] picks its place with plain numbers taken modulo
//! the input's length (or its count of lines or numbers), so any value is a valid mutation of
//! any input and a strategy can draw them freely.
//!
//! ```
//! use pathlab_fuzz::mutate::{apply, Mutation};
//! let map = b"type octile\nheight 2\nwidth 1\nmap\n.\n.\n";
//! // The second number (the width) becomes NaN.
//! let nan = apply(map, &Mutation::Number { which: 1, value: 3 });
//! assert_eq!(nan, b"type octile\nheight 2\nwidth NaN\nmap\n.\n.\n");
//! // The second line again: a repeated header.
//! let twice = apply(map, &Mutation::DuplicateLine(1));
//! assert_eq!(twice, b"type octile\nheight 2\nheight 2\nwidth 1\nmap\n.\n.\n");
//! ```

/// Numbers that break number readers: signs, overflow of every integer width, floats out of
/// range, NaN and infinities, forms some readers take and others refuse.
pub const HOSTILE_NUMBERS: [&str; 24] = [
    "0",
    "-1",
    "2049",
    "NaN",
    "inf",
    "-inf",
    "1e308",
    "1e309",
    "-0",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999999999",
    "0.1",
    "1.",
    ".5",
    "+3",
    "0x10",
    "1_000",
    "3e0",
    "٣",
    "4.9e-324",
    "2048",
];

/// Short texts that break tokenisers: line ends of every kind, a byte order mark, NUL,
/// quotes, brackets, separators, header words of the formats, markup and non-ASCII.
pub const HOSTILE_TEXT: [&str; 24] = [
    "\n",
    "\r\n",
    "\r",
    "\u{feff}",
    "\0",
    "\t",
    " ",
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    ",",
    "#",
    "//",
    "map\n",
    "height 3\n",
    "version 1\n",
    "type octile\n",
    "<script>alert(1)</script>",
    "é",
    "∞",
    "\u{202e}",
];

/// One edit of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// Keep the first `at` bytes (modulo the length plus one).
    Truncate(usize),
    /// Flip one bit of one byte.
    FlipBit {
        /// The byte (modulo the length).
        at: usize,
        /// The bit (modulo 8).
        bit: u8,
    },
    /// Overwrite one byte.
    SetByte {
        /// The byte (modulo the length).
        at: usize,
        /// Its new value.
        value: u8,
    },
    /// Delete up to `len` bytes from `at`.
    Delete {
        /// Where (modulo the length).
        at: usize,
        /// How many bytes at most.
        len: usize,
    },
    /// Insert one of [`HOSTILE_TEXT`] (modulo its length) at `at`.
    Insert {
        /// Where (modulo the length plus one).
        at: usize,
        /// Which text.
        text: usize,
    },
    /// Replace the `which`-th run of ASCII digits (modulo their count) with one of
    /// [`HOSTILE_NUMBERS`] (modulo its length).
    Number {
        /// Which number of the input.
        which: usize,
        /// Which hostile number.
        value: usize,
    },
    /// Replace the `which`-th word (a run of letters, digits and `.` `_` `-` `+`, modulo
    /// their count) with one of [`hostile_word`] (modulo [`HOSTILE_WORDS`]): a value of the
    /// wrong type, a long string, a long number.
    Word {
        /// Which word of the input.
        which: usize,
        /// Which hostile word.
        value: usize,
    },
    /// Write one line twice in a row (a repeated header, a repeated row).
    DuplicateLine(usize),
    /// Remove one line.
    DeleteLine(usize),
    /// Swap two lines.
    SwapLines(usize, usize),
    /// Make one line `times` times as long (at least 64 KiB in all): a very long line.
    LongLine {
        /// Which line.
        line: usize,
        /// How many copies of it, at least enough for 64 KiB.
        times: usize,
    },
    /// Turn every `\n` into `\r\n` (`crlf`) or into `\r`.
    LineEnds {
        /// `\r\n` when true, a lone `\r` when false.
        crlf: bool,
    },
    /// The whole input twice.
    Repeat,
}

/// The input with the mutation made.
pub fn apply(data: &[u8], m: &Mutation) -> Vec<u8> {
    let n = data.len();
    let mut out = data.to_vec();
    match *m {
        Mutation::Truncate(at) => out.truncate(at % (n + 1)),
        Mutation::FlipBit { at, bit } if n > 0 => out[at % n] ^= 1 << (bit % 8),
        Mutation::SetByte { at, value } if n > 0 => out[at % n] = value,
        Mutation::Delete { at, len } if n > 0 => {
            let from = at % n;
            let to = from.saturating_add(len).min(n);
            out.drain(from..to);
        }
        Mutation::Insert { at, text } => {
            let piece = HOSTILE_TEXT[text % HOSTILE_TEXT.len()].as_bytes();
            let at = at % (n + 1);
            out.splice(at..at, piece.iter().copied());
        }
        Mutation::Number { which, value } => {
            let numbers = runs(data, |b| b.is_ascii_digit());
            if !numbers.is_empty() {
                let (from, to) = numbers[which % numbers.len()];
                let piece = HOSTILE_NUMBERS[value % HOSTILE_NUMBERS.len()].as_bytes();
                out.splice(from..to, piece.iter().copied());
            }
        }
        Mutation::Word { which, value } => {
            let words = runs(data, |b| b.is_ascii_alphanumeric() || b".-_+".contains(&b));
            if !words.is_empty() {
                let (from, to) = words[which % words.len()];
                out.splice(from..to, hostile_word(value).into_bytes());
            }
        }
        Mutation::DuplicateLine(k) | Mutation::DeleteLine(k) => {
            let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
            let k = k % lines.len();
            if matches!(m, Mutation::DuplicateLine(_)) {
                lines.insert(k, lines[k]);
            } else {
                lines.remove(k);
            }
            out = lines.join(&b'\n');
        }
        Mutation::SwapLines(a, b) => {
            let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
            let count = lines.len();
            lines.swap(a % count, b % count);
            out = lines.join(&b'\n');
        }
        Mutation::LongLine { line, times } => {
            let mut lines: Vec<Vec<u8>> = data.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let k = line % lines.len();
            let piece = if lines[k].is_empty() { b"0".to_vec() } else { lines[k].clone() };
            // Past 64 KiB by up to 64 KiB more, but never more than twice a line that is
            // already long (a piece grown by earlier mutations could otherwise ask for
            // gigabytes).
            let target = 64 * 1024 + (times % 1024) * 64;
            let count = (target / piece.len() + 1).min(((1 << 20) / piece.len()).max(2));
            lines[k] = piece.repeat(count);
            out = lines.join(&b'\n');
        }
        Mutation::LineEnds { crlf } => {
            let end: &[u8] = if crlf { b"\r\n" } else { b"\r" };
            out = data.split(|&b| b == b'\n').collect::<Vec<_>>().join(end);
        }
        Mutation::Repeat => out.extend_from_slice(data),
        Mutation::FlipBit { .. } | Mutation::SetByte { .. } | Mutation::Delete { .. } => {}
    }
    out
}

/// How many words [`hostile_word`] has.
pub const HOSTILE_WORDS: usize = 12;

/// Words that stand where a value of another type or size was: JSON values of every type,
/// and long ones (a 300-character string, number and row of cells).
pub fn hostile_word(i: usize) -> String {
    match i % HOSTILE_WORDS {
        0 => "true".into(),
        1 => "null".into(),
        2 => "[]".into(),
        3 => "{}".into(),
        4 => "\"\"".into(),
        5 => "\"x\"".into(),
        6 => "\"<b>x</b>\"".into(),
        7 => "-0.0".into(),
        8 => format!("\"{}\"", "x".repeat(300)),
        9 => "9".repeat(300),
        10 => ".".repeat(300),
        _ => "1".repeat(300),
    }
}

/// Where the runs of bytes that `keep` are: `(start, end)` byte ranges.
fn runs(data: &[u8], keep: impl Fn(u8) -> bool) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < data.len() {
        if keep(data[i]) {
            let from = i;
            while i < data.len() && keep(data[i]) {
                i += 1;
            }
            runs.push((from, i));
        } else {
            i += 1;
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::{apply, Mutation};

    #[test]
    fn a_long_line_is_past_64_kib_and_never_more_than_twice_an_already_long_line() {
        let short = apply(b"ab\ncd", &Mutation::LongLine { line: 0, times: 1023 });
        let first = short.split(|&b| b == b'\n').next().unwrap();
        assert!(first.len() > 64 * 1024 && first.len() <= 130 * 1024, "{}", first.len());
        let huge = vec![b'7'; 3 << 20];
        let grown = apply(&huge, &Mutation::LongLine { line: 0, times: usize::MAX });
        assert!(grown.len() >= huge.len() && grown.len() <= 2 * huge.len(), "{}", grown.len());
    }
}
