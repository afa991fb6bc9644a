//! `search::refusal` (asked without building) must give exactly what building the search
//! gives: for every algorithm, on grids with and without terrain and teleports, under every
//! diagonal rule, heuristic and cost model and with weights 1 and 2, it refuses when and only
//! when `build_linked` does, with the same message. The builders are the truth.

use pathlab_core::grid::{Costs, Diagonal, Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{build_linked, refusal, Algorithm, GridLinks, SearchConfig};
use pathlab_core::space::{Teleport, TeleportHeuristic};

/// An 8 x 6 grid with a wall down column 3 (a gap at row 4) and, with `mud`, two mud cells.
fn grid(mud: bool) -> Grid {
    let Ok(mut grid) = Grid::new(8, 6) else { panic!("an 8x6 grid") };
    for y in 0..4 {
        assert!(grid.set(Point::new(3, y), 0).is_ok());
    }
    if mud {
        assert!(grid.set(Point::new(5, 2), 3).is_ok());
        assert!(grid.set(Point::new(6, 3), 5).is_ok());
    }
    grid
}

fn teleports() -> GridLinks {
    let jump = Teleport { from: Point::new(1, 1), to: Point::new(6, 1), cost: 2.0, both_ways: false };
    GridLinks::Teleports { list: vec![jump], heuristic: TeleportHeuristic::Teleports }
}

/// Every algorithm under every diagonal rule, heuristic and cost model, with weights 1 and 2.
fn configs() -> Vec<SearchConfig> {
    let mut out = Vec::new();
    for &algorithm in Algorithm::ALL {
        for &diagonal in Diagonal::ALL {
            for &heuristic in Heuristic::ALL {
                for &costs in Costs::ALL {
                    for weight in [1.0, 2.0] {
                        out.push(
                            SearchConfig::new(algorithm)
                                .diagonal(diagonal)
                                .heuristic(heuristic)
                                .costs(costs)
                                .weight(weight),
                        );
                    }
                }
            }
        }
    }
    out
}

#[test]
fn refusal_agrees_with_the_builders_for_every_algorithm_and_setting() {
    let (start, goal) = (Point::new(0, 0), Point::new(7, 5));
    let mut refused = 0;
    let mut accepted = 0;
    for config in configs() {
        for mud in [false, true] {
            for links in [GridLinks::None, teleports()] {
                let g = grid(mud);
                let asked = refusal(&g, &config, &links).map(|e| e.to_string());
                let built = build_linked(g, start, goal, config, &links).err().map(|e| e.to_string());
                assert_eq!(asked, built, "{config:?} mud={mud} links={links:?}");
                if built.is_some() {
                    refused += 1;
                } else {
                    accepted += 1;
                }
            }
        }
    }
    // Both answers occur often: the sweep is not trivially one-sided.
    assert!(refused > 100 && accepted > 100, "refused {refused}, accepted {accepted}");
}

#[test]
fn terrain_refuses_jps_and_the_any_angle_searches_and_nothing_else() {
    let config = |a| SearchConfig::new(a);
    let mut names: Vec<&str> = Algorithm::ALL
        .iter()
        .filter(|a| a.info().on_page)
        .filter(|&&a| refusal(&grid(true), &config(a), &GridLinks::None).is_some())
        .map(|a| a.name())
        .collect();
    names.sort_unstable();
    // By the course's rules: jumps assume uniform cost, and straight segments do not weigh terrain.
    assert_eq!(names, ["astar-smoothed", "jps", "jps-plus", "jps-plus-pruned", "lazy-theta", "theta"]);
    for &a in Algorithm::ALL.iter().filter(|a| a.info().on_page) {
        assert!(refusal(&grid(false), &config(a), &GridLinks::None).is_none(), "{a} on a plain grid");
    }
}
