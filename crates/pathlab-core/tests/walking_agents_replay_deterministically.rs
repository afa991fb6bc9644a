//! LRTA*, RTA* and crash and turn go back by replay: on random small grids (up to 10x10, up to
//! 35% walls, terrain on half of them, every diagonal rule), stepping k times and then back
//! leaves exactly what stepping k - 1 times from a fresh search does, and seeking to any step
//! matches stepping there: every buffer, the learned estimates, the agent, the overlay and
//! the status. The walks include learning, dead ends, loops (crash and turn) and unreachable
//! goals.

mod cases;

use cases::{configured, shown, Configured, Shown};
use pathlab_core::grid::{Costs, Diagonal, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{build, Algorithm, Hand, Overlay, SearchConfig, Status, Stepper};
use proptest::prelude::*;
use proptest::sample::{select, Index};

/// Everything a stepper shows, with floats compared bit for bit.
#[derive(Debug, PartialEq)]
struct Snapshot {
    shown: Shown,
    values: Option<Vec<u64>>,
    agent: Option<(Point, usize, u64, usize)>,
    overlay: Overlay,
    gave_up: Option<String>,
}

fn snapshot(s: &dyn Stepper) -> Snapshot {
    Snapshot {
        shown: shown(s),
        values: s.cell_values().map(|c| c.values.iter().map(|x| x.to_bits()).collect()),
        agent: s.agent().map(|a| (a.at, a.moves, a.travelled.to_bits(), a.revisits)),
        overlay: s.overlay(),
        gave_up: s.gave_up(),
    }
}

fn case() -> impl Strategy<Value = Configured> {
    let settings = (
        select(vec![Algorithm::Lrta, Algorithm::Rta, Algorithm::CrashTurn]),
        (select(Diagonal::ALL.to_vec()), select(Costs::ALL.to_vec()), select(Heuristic::ALL.to_vec())),
        (1u32..=3, select(vec![1.0, 2.0]), select(vec![Hand::Left, Hand::Right])),
    );
    configured(1..=10, 0..=35, 1u8..=3, settings, |(algorithm, (rule, costs, heuristic), (look, weight, hand))| {
        SearchConfig::new(algorithm)
            .diagonal(rule)
            .costs(costs)
            .heuristic(heuristic)
            .weight(weight)
            .lookahead(look)
            .hand(hand)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn stepping_k_then_back_equals_stepping_k_minus_1(case in case(), pick in any::<Index>(), seek in any::<Index>()) {
        let make = || build(case.grid.clone(), case.start, case.goal, case.config).unwrap();
        let mut full = make();
        full.run();
        let n = full.steps();
        prop_assert!(n >= 1);
        let k = 1 + pick.index(n);
        // Step k, then back.
        let mut s = make();
        s.advance(k);
        prop_assert_eq!(s.steps(), k);
        s.back();
        let mut fresh = make();
        fresh.advance(k - 1);
        prop_assert_eq!(snapshot(s.as_ref()), snapshot(fresh.as_ref()), "k = {} of {}", k, n);
        // Seek anywhere, from wherever the search stands.
        let j = seek.index(n + 1);
        s.seek(j);
        let mut fresh = make();
        fresh.advance(j);
        prop_assert_eq!(snapshot(s.as_ref()), snapshot(fresh.as_ref()), "seek {} of {}", j, n);
        // Reset is step 0.
        s.reset();
        prop_assert_eq!(snapshot(s.as_ref()), snapshot(make().as_ref()));
        prop_assert_eq!(s.status(), Status::Ready);
        // And the end is the same end.
        s.run();
        prop_assert_eq!(snapshot(s.as_ref()), snapshot(full.as_ref()));
    }
}
