//! Every kept input, replayed: the repository's maps (the campaign's seeds) and every input
//! that once broke a rule (`fuzz/regressions/<target>/`), each checked by every rule and by
//! its sidecar's expected answer; and the kept cases too big to keep as files, made here.

use pathlab_core::formats::graph::MAX_GRAPH_FILE_BYTES;
use pathlab_core::formats::{MAX_FILE_BYTES, MAX_SCEN_BYTES};
use pathlab_fuzz::check::answer;
use pathlab_fuzz::corpus::Expect;
use pathlab_fuzz::Target;

#[test]
fn every_target_has_seeds_and_every_seed_is_accepted() {
    for target in Target::ALL {
        let seeds = target.seed_files();
        assert!(!seeds.is_empty(), "{target}: no seed files");
        for path in seeds {
            let data = std::fs::read(&path).unwrap();
            target.check(&data).unwrap_or_else(|b| panic!("{}: {b}", path.display()));
            let text = String::from_utf8(data).unwrap();
            assert_eq!(answer(target, &text), Ok(()), "{}", path.display());
        }
    }
}

#[test]
fn every_kept_regression_keeps_every_rule_and_its_expected_answer() {
    let mut replayed = 0;
    for target in Target::ALL {
        assert!(target.regression_dir().is_dir(), "{} is missing", target.regression_dir().display());
        for case in target.regressions() {
            let name = case.path.display();
            target.check(&case.data).unwrap_or_else(|b| panic!("{name}: {b}"));
            let got = answer(target, &String::from_utf8_lossy(&case.data));
            match (&case.expect, &got) {
                (None, _) | (Some(Expect::Ok), Ok(())) => {}
                (Some(Expect::Error(text)), Err(e)) => {
                    assert!(e.contains(text.as_str()), "{name}: {e:?} lacks {text:?}");
                }
                (Some(expect), got) => panic!("{name}: expected {expect:?}, got {got:?}"),
            }
            replayed += 1;
        }
    }
    // The cases of issue 17 and the ones found since are there (a folder emptied by mistake
    // would pass the loop above).
    assert!(replayed >= 20, "only {replayed} kept cases");
}

/// A text of `len` bytes: `head`, then lines of `fill` up to the length.
fn sized(head: &str, fill: &str, len: usize) -> String {
    let mut text = String::with_capacity(len);
    text.push_str(head);
    while text.len() + fill.len() <= len {
        text.push_str(fill);
    }
    text.push_str(&" ".repeat(len - text.len()));
    text
}

#[test]
fn issue_17_a_62_914_564_byte_scen_is_read_under_its_own_64_mib_limit() {
    // Refused before as over the map limit of 8388608. Now read: its problems are all there.
    let line = "0\tm.map\t4\t1\t0\t0\t3\t0\t3\n";
    let text = sized("version 1\n", line, 62_914_564);
    assert_eq!(text.len(), 62_914_564);
    Target::MovingAiScen.check(text.as_bytes()).unwrap();
    let problems = pathlab_core::formats::movingai::parse_scen(&text).unwrap();
    assert_eq!(problems.len(), (62_914_564 - "version 1\n".len()) / line.len());
}

#[test]
fn issue_17_files_over_each_limit_are_refused_naming_the_limit() {
    let map_head = "type octile\nheight 1\nwidth 4\nmap\n";
    for (target, head, fill, limit) in [
        (Target::MovingAiMap, map_head, "....\n", MAX_FILE_BYTES),
        (Target::Course, "1\n4\n", "0000\n", MAX_FILE_BYTES),
        (Target::MovingAiScen, "version 1\n", "0\tm.map\t4\t1\t0\t0\t3\t0\t3\n", MAX_SCEN_BYTES),
        (Target::GraphMatrix, "", "0 1\n1 0\n", MAX_GRAPH_FILE_BYTES),
        (Target::GraphJson, "{\"nodes\": [", "{\"id\": \"A\", \"x\": 0, \"y\": 0},\n", MAX_GRAPH_FILE_BYTES),
    ] {
        let text = sized(head, fill, limit + 1);
        target.check(text.as_bytes()).unwrap();
        let e = answer(target, &text).unwrap_err();
        assert!(e.contains("over the limit") && e.contains(&limit.to_string()), "{target}: {e}");
        assert!(!e.contains("ends"), "{target}: {e}");
    }
}
