//! The map parsers: hand-made malformed files give errors naming the right line and problem;
//! random bytes, random text and mutated valid files never panic; writing then reading gives
//! the same map back.

use pathlab_core::formats::{course, movingai, ParseError};
use pathlab_core::grid::{Grid, Point, MAX_SIDE, WALL};
use proptest::prelude::*;
use proptest::sample::Index;

fn course_err(text: &str) -> ParseError {
    course::parse(text).expect_err(&format!("accepted {text:?}"))
}

fn map_err(text: &str) -> ParseError {
    movingai::parse_map(text).expect_err(&format!("accepted {text:?}"))
}

fn scen_err(text: &str) -> ParseError {
    movingai::parse_scen(text).expect_err(&format!("accepted {text:?}"))
}

/// Asserts the error is on `line` and its message mentions every one of `words`.
fn assert_names(e: &ParseError, line: usize, words: &[&str]) {
    assert_eq!(e.line, line, "wrong line in {e}");
    let text = e.to_string();
    if line > 0 {
        assert!(text.starts_with(&format!("line {line}: ")), "{text}");
    }
    for w in words {
        assert!(text.contains(w), "{text:?} does not mention {w:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Course data files
// ---------------------------------------------------------------------------------------------

#[test]
fn course_accepts_the_documented_layouts() {
    let a = course::parse("2\n3\nA01\n00B\n").unwrap();
    let b = course::parse("2 3\r\nA 0 1\r\n0 0 B\r\n").unwrap(); // sizes on one line, CRLF, spaces
    let c = course::parse("\n2\n\n3\nA01\n\n00B").unwrap(); // blank lines, no final newline
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(a.grid.cells(), &[1, 1, 0, 1, 1, 1]);
    assert_eq!((a.start, a.goal), (Some(Point::new(0, 0)), Some(Point::new(2, 1))));
    // Without A and B the ends are simply absent.
    let none = course::parse("1\n2\n01\n").unwrap();
    assert_eq!((none.start, none.goal), (None, None));
}

#[test]
fn course_wrong_row_length_names_its_line() {
    assert_names(&course_err("3\n3\n000\n00\n000\n"), 4, &["row 2", "2 cells", "expected 3"]);
    assert_names(&course_err("2\n2\n00\n0000\n"), 4, &["row 2", "4 cells"]);
}

#[test]
fn course_unknown_character_names_line_and_column() {
    assert_names(&course_err("2\n2\n00\n0X\n"), 4, &["'X'", "column 2"]);
    assert_names(&course_err("1\n3\n0.1\n"), 3, &["'.'", "column 2"]);
}

#[test]
fn course_missing_rows_and_sizes_name_where_the_file_ends() {
    assert_names(&course_err("3\n3\n000\n000\n"), 5, &["2 of 3 rows"]);
    assert_names(&course_err("3\n"), 2, &["number of columns"]);
    assert_names(&course_err(""), 1, &["number of rows"]);
    assert_names(&course_err("5\nfive\n"), 2, &["number of columns", "\"five\""]);
    assert_names(&course_err("x\n5\n"), 1, &["number of rows", "\"x\""]);
}

#[test]
fn course_size_over_the_limit_is_refused_with_the_limit_named() {
    let e = course_err("100000\n100000\n");
    assert_names(&e, 1, &["rows", &MAX_SIDE.to_string(), "100000"]);
    let e = course_err("5\n100000\n");
    assert_names(&e, 2, &["columns", &MAX_SIDE.to_string(), "100000"]);
    assert_names(&course_err("0\n5\n"), 1, &["rows"]);
    // Exactly at the limit is fine (a 1 x 2048 strip).
    let row = "0".repeat(MAX_SIDE);
    assert_eq!(course::parse(&format!("1\n{MAX_SIDE}\n{row}\n")).unwrap().grid.width(), MAX_SIDE);
}

#[test]
fn course_duplicate_ends_and_trailing_lines_are_refused() {
    assert_names(&course_err("2\n2\nAA\n00\n"), 3, &["second A", "(0,0)"]);
    assert_names(&course_err("2\n2\nB0\n0b\n"), 4, &["second B"]);
    assert_names(&course_err("1\n1\n0\n0\n"), 4, &["after the 1 rows"]);
    assert_names(&course_err("2 2 2\n00\n00\n"), 1, &["\"2\""]);
}

#[test]
fn course_file_over_the_byte_limit_is_refused() {
    let big = "0".repeat(pathlab_core::formats::MAX_FILE_BYTES + 1);
    assert_names(&course_err(&big), 0, &["over the limit"]);
    assert!(movingai::parse_map(&big).unwrap_err().to_string().contains("over the limit"));
}

// ---------------------------------------------------------------------------------------------
// MovingAI .map
// ---------------------------------------------------------------------------------------------

#[test]
fn map_accepts_every_documented_character_and_crlf() {
    let g = movingai::parse_map("type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.GS@\r\nOTW.\r\n").unwrap();
    assert_eq!(g.cells(), &[1, 1, 1, 0, 0, 0, 0, 1]);
    assert_eq!((g.width(), g.height()), (4, 2));
}

#[test]
fn map_header_problems_name_their_line() {
    assert_names(&map_err("type octile\nheight 2\nmap\n..\n..\n"), 3, &["no width"]);
    assert_names(&map_err("type octile\nwidth 2\nmap\n..\n..\n"), 3, &["no height"]);
    assert_names(&map_err("type octile\nheight 100000\nwidth 100000\nmap\n"), 2, &["height", "2048", "100000"]);
    assert_names(&map_err("type octile\nheight 2\nwidth 3000\nmap\n"), 3, &["width", "2048", "3000"]);
    assert_names(&map_err("type octile\nheight two\n"), 2, &["height", "\"two\""]);
    assert_names(&map_err("type octile\nheight 2\nwidth 2\n"), 4, &["before the line \"map\""]);
    assert_names(&map_err("type octile\nlength 2\n"), 2, &["header line", "\"length 2\""]);
}

#[test]
fn map_header_lines_may_not_repeat() {
    // The last one used to win silently: a file saying 99 rows, then 3.
    let e = map_err("type octile\nheight 99\nwidth 3\nheight 3\nmap\n...\n...\n...\n");
    assert_names(&e, 4, &["second height", "line 2"]);
    let e = map_err("type octile\nheight 3\nwidth 3\nwidth 3\nmap\n...\n...\n...\n");
    assert_names(&e, 4, &["second width", "line 3"]);
    let e = map_err("type octile\ntype octile\nheight 1\nwidth 1\nmap\n.\n");
    assert_names(&e, 2, &["second type", "line 1"]);
}

#[test]
fn scen_files_over_the_map_limit_are_read_up_to_their_own_limit_of_64_mib() {
    use pathlab_core::formats::{MAX_FILE_BYTES, MAX_SCEN_BYTES};
    assert_eq!(MAX_SCEN_BYTES, 64 * 1024 * 1024);
    // A valid scenario file larger than the 8 MiB map limit.
    let line = "0\tm.map\t9\t9\t0\t0\t4\t0\t4\n";
    let n = MAX_FILE_BYTES / line.len() + 1000;
    let text = format!("version 1\n{}", line.repeat(n));
    assert!(text.len() > MAX_FILE_BYTES);
    assert_eq!(movingai::parse_scen(&text).expect("read under the scenario limit").len(), n);
    // Over the scenario limit: refused, naming that limit.
    let e = scen_err(&" ".repeat(MAX_SCEN_BYTES + 1));
    assert_names(&e, 0, &[&MAX_SCEN_BYTES.to_string()]);
}

#[test]
fn map_row_problems_name_their_line() {
    let head = "type octile\nheight 3\nwidth 3\nmap\n";
    assert_names(&map_err(&format!("{head}...\n..\n...\n")), 6, &["row 2", "2 cells", "expected 3"]);
    assert_names(&map_err(&format!("{head}...\n...\n....\n")), 7, &["row 3", "4 cells", "expected 3"]);
    assert_names(&map_err(&format!("{head}...\n.?.\n...\n")), 6, &["'?'", "column 2"]);
    assert_names(&map_err(&format!("{head}...\n...\n")), 7, &["2 of 3 rows"]);
    assert_names(&map_err(&format!("{head}...\n...\n...\n@@@\n")), 8, &["after the 3 rows"]);
    // Blank lines after the rows are fine.
    assert!(movingai::parse_map(&format!("{head}...\n...\n...\n\n\n")).is_ok());
}

// ---------------------------------------------------------------------------------------------
// MovingAI .scen
// ---------------------------------------------------------------------------------------------

#[test]
fn scen_reads_problems() {
    let text = "version 1.0\n\
                0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1.00000000\n\
                3 arena.map 49 49 10 20 30 40 1177.2\n";
    let ps = movingai::parse_scen(text).unwrap();
    assert_eq!(ps.len(), 2);
    assert_eq!((ps[0].start, ps[0].goal, ps[0].line), (Point::new(1, 11), Point::new(1, 12), 2));
    assert_eq!(ps[1].bucket, 3);
    assert_eq!(ps[1].map, "arena.map");
    assert_eq!(ps[1].optimal, 1177.2);
    assert_eq!((ps[1].width, ps[1].height), (49, 49));
}

/// Tolerances as the .scen convention documents them (shared/maps/README.md and
/// `parse_scen`): files printing a fixed number of decimals (trailing zeros kept) allow half a
/// unit of the last decimal; files printing six significant digits allow half a unit of the
/// sixth; never less than 0.001.
#[test]
fn scen_tolerances_follow_the_printed_precision() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    // Fixed two decimals (bg512 style): 0.005 each.
    let fixed = movingai::parse_scen("version 1.0\n61 m.map 512 512 1 1 2 2 244.95\n33 m.map 512 512 1 1 3 3 132.40\n")
        .unwrap();
    assert!(fixed.iter().all(|p| close(p.tolerance, 0.005)), "{fixed:?}");
    // Fixed eight decimals: half of 1e-8, raised to the floor of 0.001.
    let eight = movingai::parse_scen("version 1\n0 m.map 9 9 1 1 2 2 1.00000000\n").unwrap();
    assert!(close(eight[0].tolerance, 1e-3));
    // Six significant digits (dao style): 1177.2 is 1177.20 -> 0.005; 4 is 4.00000 -> 0.001;
    // 123456 -> 0.5.
    let six = movingai::parse_scen(
        "version 1\n0 m.map 9 9 1 1 2 2 1177.2\n0 m.map 9 9 1 1 2 2 4\n0 m.map 9 9 1 1 2 2 123456\n",
    )
    .unwrap();
    assert!(close(six[0].tolerance, 0.005), "{}", six[0].tolerance);
    assert!(close(six[1].tolerance, 1e-3), "{}", six[1].tolerance);
    assert!(close(six[2].tolerance, 0.5), "{}", six[2].tolerance);
}

#[test]
fn scen_problems_name_their_line() {
    let v = "version 1\n";
    assert_names(&scen_err(&format!("{v}0 a.map 4 4 0 0 1 1\n")), 2, &["9 fields", "found 8"]);
    assert_names(
        &scen_err(&format!("{v}0 a.map 4 4 0 0 1 1 1.0\n0 a.map 4 x 0 0 1 1 1.0\n")),
        3,
        &["map height", "\"x\""],
    );
    assert_names(&scen_err(&format!("{v}0 a.map 4 4 4 0 1 1 1.0\n")), 2, &["start", "outside"]);
    assert_names(&scen_err(&format!("{v}0 a.map 4 4 0 0 1 9 1.0\n")), 2, &["goal", "outside"]);
    assert_names(&scen_err(&format!("{v}0 a.map 4 4 0 0 1 1 NaN\n")), 2, &["optimal length"]);
    assert_names(&scen_err(&format!("{v}0 a.map 4 4 0 0 1 1 -2\n")), 2, &["optimal length"]);
    assert_names(&scen_err(&format!("{v}0 a.map 4 4 -1 0 1 1 1.0\n")), 2, &["start x"]);
    // "version" is a header only on line 1.
    assert_names(&scen_err("\nversion 1\n"), 2, &["9 fields"]);
}

// ---------------------------------------------------------------------------------------------
// Random input never panics
// ---------------------------------------------------------------------------------------------

fn parse_all(text: &str) {
    let _ = course::parse(text);
    let _ = movingai::parse_map(text);
    let _ = movingai::parse_scen(text);
}

/// A random grid of walls and ground with two distinct open ends.
fn grid_with_ends() -> impl Strategy<Value = (Grid, Point, Point)> {
    (1usize..=20, 1usize..=20)
        .prop_filter("two cells", |(w, h)| w * h >= 2)
        .prop_flat_map(|(w, h)| {
            (Just((w, h)), proptest::collection::vec(0u8..3, w * h), any::<Index>(), any::<Index>())
        })
        .prop_map(|((w, h), rolls, a, b)| {
            let mut cells: Vec<u8> = rolls.iter().map(|&r| u8::from(r != 0)).collect();
            let n = w * h;
            let s = a.index(n);
            let g = (s + 1 + b.index(n - 1)) % n;
            cells[s] = 1;
            cells[g] = 1;
            let grid = Grid::from_cells(w, h, cells).unwrap();
            (grid.clone(), grid.point_at(s), grid.point_at(g))
        })
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index),
    Insert(Index, char),
    Replace(Index, char),
    Truncate(Index),
    DuplicateLine(Index),
    DeleteLine(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let c = prop_oneof![
        proptest::sample::select(vec![
            '0', '1', 'A', 'B', '.', '@', 'T', '\n', '\r', ' ', '\t', '9', '-', 'x', 'é', '\u{0}'
        ]),
        any::<char>(),
    ];
    prop_oneof![
        any::<Index>().prop_map(Mutation::Delete),
        (any::<Index>(), c.clone()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        (any::<Index>(), c).prop_map(|(i, c)| Mutation::Replace(i, c)),
        any::<Index>().prop_map(Mutation::Truncate),
        any::<Index>().prop_map(Mutation::DuplicateLine),
        any::<Index>().prop_map(Mutation::DeleteLine),
    ]
}

fn mutate(text: &str, m: &Mutation) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let n = chars.len().max(1);
    match m {
        Mutation::Delete(i) => {
            if !chars.is_empty() {
                chars.remove(i.index(n));
            }
        }
        Mutation::Insert(i, c) => chars.insert(i.index(n + 1).min(chars.len()), *c),
        Mutation::Replace(i, c) => {
            if !chars.is_empty() {
                chars[i.index(n)] = *c;
            }
        }
        Mutation::Truncate(i) => chars.truncate(i.index(n)),
        Mutation::DuplicateLine(i) | Mutation::DeleteLine(i) => {
            let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
            let k = i.index(lines.len());
            if matches!(m, Mutation::DuplicateLine(_)) {
                lines.insert(k, lines[k].clone());
            } else {
                lines.remove(k);
            }
            return lines.join("\n");
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        parse_all(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_text_from_the_formats_alphabets_never_panics(
        text in "[0-9AaBb.@GSOTW \\t\\r\\n-]{0,300}",
        header in proptest::sample::select(vec!["", "3\n3\n", "2 4\n", "type octile\nheight 3\nwidth 3\nmap\n", "version 1\n"]),
    ) {
        parse_all(&format!("{header}{text}"));
    }

    /// A valid file with up to three random edits: no panic, and whatever is accepted is a
    /// consistent map (sizes as declared, ends inside and open) that writes back and re-reads
    /// to itself.
    #[test]
    fn mutated_valid_files_never_panic_and_what_parses_is_consistent(
        (grid, start, goal) in grid_with_ends(),
        edits in proptest::collection::vec(mutation(), 1..4),
    ) {
        let mut c = course::write(&grid, Some(start), Some(goal)).unwrap();
        let mut m = movingai::write_map(&grid);
        for e in &edits {
            c = mutate(&c, e);
            m = mutate(&m, e);
        }
        let scen = format!("version 1\n0\tx.map\t{}\t{}\t{}\t{}\t{}\t{}\t1.5\n", grid.width(), grid.height(), start.x, start.y, goal.x, goal.y);
        let s = edits.iter().fold(scen, |t, e| mutate(&t, e));
        parse_all(&c);
        parse_all(&m);
        parse_all(&s);
        if let Ok(map) = course::parse(&c) {
            for end in [map.start, map.goal].into_iter().flatten() {
                prop_assert!(map.grid.is_passable(end));
            }
            prop_assert_eq!(map.grid.len(), map.grid.width() * map.grid.height());
            let again = course::parse(&course::write(&map.grid, map.start, map.goal).unwrap()).unwrap();
            prop_assert_eq!(again, map);
        }
        if let Ok(g) = movingai::parse_map(&m) {
            prop_assert_eq!(g.cells().len(), g.width() * g.height());
            prop_assert_eq!(movingai::parse_map(&movingai::write_map(&g)).unwrap(), g);
        }
        if let Ok(problems) = movingai::parse_scen(&s) {
            for p in problems {
                prop_assert!(p.start.x < p.width && p.start.y < p.height && p.goal.x < p.width && p.goal.y < p.height);
                prop_assert!(p.optimal.is_finite() && p.optimal >= 0.0);
            }
        }
    }

    /// Cutting a valid course file anywhere inside its rows gives an error on a real line
    /// (or one past the last), never a panic or a silently smaller map.
    #[test]
    fn truncated_course_files_are_errors_naming_a_line(
        (grid, start, goal) in grid_with_ends(),
        cut in any::<Index>(),
    ) {
        let text = course::write(&grid, Some(start), Some(goal)).unwrap();
        let cut = cut.index(text.len() - 1); // drop at least the final row's newline..
        let short = &text[..cut];
        let lines = short.lines().count();
        match course::parse(short) {
            Ok(map) => {
                // Only possible when the cut removed nothing but the final newline.
                prop_assert_eq!(cut, text.len() - 1);
                prop_assert_eq!(&map.grid, &grid);
            }
            Err(e) => {
                prop_assert!(e.line >= 1 && e.line <= lines + 1, "line {} of {}: {}", e.line, lines, e);
            }
        }
        let map_text = movingai::write_map(&grid);
        let short = &map_text[..cut.min(map_text.len() - 1)];
        if let Err(e) = movingai::parse_map(short) {
            prop_assert!(e.line >= 1 && e.line <= short.lines().count() + 1, "{}", e);
        } else {
            prop_assert_eq!(short.len(), map_text.len() - 1);
        }
    }

    /// course::write then course::parse gives the same grid, start and goal.
    #[test]
    fn course_round_trips((grid, start, goal) in grid_with_ends()) {
        let text = course::write(&grid, Some(start), Some(goal)).unwrap();
        let map = course::parse(&text).unwrap();
        prop_assert_eq!(&map.grid, &grid);
        prop_assert_eq!((map.start, map.goal), (Some(start), Some(goal)));
        prop_assert_eq!(text.lines().count(), 2 + grid.height());
    }

    /// movingai::write_map then parse_map gives the same grid; terrain is written as ground.
    #[test]
    fn movingai_map_round_trips(
        (grid, _, _) in grid_with_ends(),
        terrain in proptest::collection::vec(2u8..=255, 400),
    ) {
        prop_assert_eq!(&movingai::parse_map(&movingai::write_map(&grid)).unwrap(), &grid);
        // With terrain: read back as ground where it was passable.
        let cells: Vec<u8> = grid.cells().iter().zip(&terrain).map(|(&c, &t)| if c == WALL { WALL } else { t }).collect();
        let weighted = Grid::from_cells(grid.width(), grid.height(), cells).unwrap();
        let back = movingai::parse_map(&movingai::write_map(&weighted)).unwrap();
        prop_assert_eq!(&back, &grid);
        let back = course::parse(&course::write(&weighted, None, None).unwrap()).unwrap();
        prop_assert_eq!(&back.grid, &grid);
    }
}

/// A start and goal on one cell cannot be written in the course format (one symbol per
/// cell): writing says so and names the cell instead of silently dropping the goal.
#[test]
fn course_write_refuses_a_start_on_the_goal_and_names_the_cell() {
    let grid = Grid::new(4, 3).unwrap();
    let both = Some(Point::new(3, 2));
    let e = course::write(&grid, both, both).unwrap_err();
    assert!(e.to_string().contains("(3,2)"), "{e}");
    // Either end alone is fine.
    let text = course::write(&grid, both, None).unwrap();
    assert_eq!(course::parse(&text).unwrap().start, both);
}
