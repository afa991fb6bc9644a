//! The street with path-finders: every route an agent plans is legal on the street's cells as
//! this file defines them (pavements, each way's half of the crossing, each lane), the optimal
//! planners cost what a Dijkstra written here says, nobody is hit and no car passes the line
//! on red whichever planner runs, and the comparison counts what the planners count.

use std::collections::BinaryHeap;

use pathlab_core::boids::Vec2;
use pathlab_core::crowd::scene::{build, Scene, SceneConfig, SceneError};
use pathlab_core::crowd::street::{StreetScene, CAR_LENGTH, CAR_WIDTH, PED_RADIUS, STOP_LINE};
use pathlab_core::crowd::street_compare::{compare, CompareRun, Comparison};
use pathlab_core::crowd::street_plan::{Heading, Plan, Planner, Traveller};
use pathlab_core::grid::{Grid, Point};
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{build as build_search, Algorithm, SearchConfig, Status};

const W: usize = 60;
const H: usize = 30;

/// Which cells a traveller may use, from the street's layout as documented: the road is rows
/// 12 to 17, the crossing columns 28 to 31 (southbound walkers keep to 28-29, northbound to
/// 30-31), lane 0 is rows 15-17 and lane 1 rows 12-14.
fn free(traveller: Traveller, x: i64, y: i64) -> bool {
    if !(0..W as i64).contains(&x) || !(0..H as i64).contains(&y) {
        return false;
    }
    let road = (12..18).contains(&y);
    match traveller {
        Traveller::Pedestrian(Heading::South) => !road || (28..30).contains(&x),
        Traveller::Pedestrian(Heading::North) => !road || (30..32).contains(&x),
        Traveller::Car(0) => (15..18).contains(&y),
        Traveller::Car(_) => (12..15).contains(&y),
    }
}

fn open_for(plan: &Plan, x: i64, y: i64) -> bool {
    free(plan.traveller, x, y) && !plan.blocked.iter().any(|b| b.x as i64 == x && b.y as i64 == y)
}

/// 8-connected moves without corner cutting, costs 1 and sqrt 2: the cheapest cost from
/// `start` to `goal` over the cells `open` allows (a plain Dijkstra with a binary heap).
fn dijkstra(open: impl Fn(i64, i64) -> bool, start: Point, goal: Point) -> Option<f64> {
    #[derive(PartialEq)]
    struct Entry(f64, usize);
    impl Eq for Entry {}
    impl PartialOrd for Entry {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Entry {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            o.0.total_cmp(&self.0)
        }
    }
    let mut dist = vec![f64::INFINITY; W * H];
    let s = start.y * W + start.x;
    dist[s] = 0.0;
    let mut heap = BinaryHeap::from([Entry(0.0, s)]);
    while let Some(Entry(d, i)) = heap.pop() {
        if d > dist[i] {
            continue;
        }
        let (x, y) = ((i % W) as i64, (i / W) as i64);
        if x as usize == goal.x && y as usize == goal.y {
            return Some(d);
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (nx, ny) = (x + dx, y + dy);
                if (dx, dy) == (0, 0) || !open(nx, ny) {
                    continue;
                }
                if dx != 0 && dy != 0 && !(open(x + dx, y) && open(x, y + dy)) {
                    continue;
                }
                let c = if dx != 0 && dy != 0 { std::f64::consts::SQRT_2 } else { 1.0 };
                let j = ny as usize * W + nx as usize;
                if d + c < dist[j] {
                    dist[j] = d + c;
                    heap.push(Entry(d + c, j));
                }
            }
        }
    }
    None
}

/// The segment between two cell centres crosses only open cells (sampled finely).
fn in_sight(plan: &Plan, a: Point, b: Point) -> bool {
    let (ax, ay) = (a.x as f64 + 0.5, a.y as f64 + 0.5);
    let (bx, by) = (b.x as f64 + 0.5, b.y as f64 + 0.5);
    let n = (((bx - ax).abs() + (by - ay).abs()) * 64.0).ceil().max(1.0) as usize;
    (0..=n).all(|k| {
        let t = k as f64 / n as f64;
        open_for(plan, (ax + (bx - ax) * t).floor() as i64, (ay + (by - ay) * t).floor() as i64)
    })
}

fn length(cells: &[Point]) -> f64 {
    cells.windows(2).map(|w| (w[0].x as f64 - w[1].x as f64).hypot(w[0].y as f64 - w[1].y as f64)).sum()
}

/// Checks one plan; returns the independent Dijkstra's cost (None: no route, and the plan
/// found none either).
fn check_plan(plan: &Plan) -> Option<f64> {
    let Some(best) = dijkstra(|x, y| open_for(plan, x, y), plan.start, plan.goal) else {
        assert!(plan.cells.is_empty() && plan.cost.is_none(), "a route where there is none: {plan:?}");
        return None;
    };
    assert!(!plan.cells.is_empty(), "{:?} found nothing where a route costs {best}: {plan:?}", plan.planner);
    assert_eq!(plan.cells.first(), Some(&plan.start));
    assert_eq!(plan.cells.last(), Some(&plan.goal));
    for c in &plan.cells {
        assert!(open_for(plan, c.x as i64, c.y as i64), "{:?} route on a closed cell {c:?}", plan.planner);
    }
    let cost = plan.cost.expect("a cost with the route");
    assert!(
        (cost - length(&plan.cells)).abs() < 1e-6,
        "{:?}: cost {cost} but the route is {} long",
        plan.planner,
        length(&plan.cells)
    );
    for w in plan.cells.windows(2) {
        let (a, b) = (w[0], w[1]);
        if plan.planner.any_angle() {
            assert!(in_sight(plan, a, b), "{:?}: {a:?} -> {b:?} crosses a closed cell", plan.planner);
        } else {
            let (dx, dy) = (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64);
            assert!(
                dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
                "{:?}: {a:?} -> {b:?} is not a move",
                plan.planner
            );
            if dx != 0 && dy != 0 {
                let sides = open_for(plan, a.x as i64 + dx, a.y as i64) && open_for(plan, a.x as i64, a.y as i64 + dy);
                assert!(sides, "{:?}: {a:?} -> {b:?} cuts a corner", plan.planner);
            }
        }
    }
    match plan.planner {
        Planner::AStar | Planner::Dijkstra => {
            assert!((cost - best).abs() < 1e-9, "{:?} costs {cost}, the cheapest is {best}", plan.planner);
        }
        // Straightened routes are never longer than the cheapest grid route.
        Planner::Theta | Planner::AStarSmoothed => {
            assert!(cost <= best + 1e-9, "{:?} costs {cost}, more than the grid's {best}", plan.planner);
        }
        // A walk that learns costs at least the cheapest route.
        Planner::Lrta => assert!(cost >= best - 1e-9, "LRTA* walked {cost}, less than {best}"),
    }
    Some(best)
}

#[test]
fn every_planned_route_is_legal_and_the_optimal_ones_cost_what_dijkstra_says() {
    for planner in Planner::ALL {
        // Boxed in: every way blocked by others at the moment of planning. How often that
        // happens follows the crowd's chaotic motion, so the bar is over both seeds together.
        let (mut all_plans, mut all_boxed_in) = (0, 0);
        for seed in [1, 2] {
            let config = SceneConfig { agents: Some(30), seed };
            let mut s = StreetScene::with_planner_recorded(&config, planner).expect("street builds");
            for _ in 0..900 {
                s.step();
            }
            let plans = s.plans();
            let (mut walkers, mut cars, mut replans, mut boxed_in) = (0, 0, 0, 0);
            for p in plans {
                assert_eq!(p.planner, planner);
                boxed_in += usize::from(check_plan(p).is_none());
                match p.traveller {
                    Traveller::Pedestrian(_) => walkers += 1,
                    Traveller::Car(_) => cars += 1,
                }
                replans += usize::from(!p.blocked.is_empty());
            }
            assert!(walkers >= 30 && cars >= 6, "{planner:?} seed {seed}: {walkers} walks, {cars} drives planned");
            (all_plans, all_boxed_in) = (all_plans + plans.len(), all_boxed_in + boxed_in);
            println!(
                "{planner:?} seed {seed}: {} plans ({walkers} walking, {cars} driving, {replans} around others, {boxed_in} boxed in)",
                plans.len()
            );
        }
        assert!(all_boxed_in * 10 < all_plans, "{planner:?}: {all_boxed_in} of {all_plans} plans had no way");
    }
}

/// Whether a car body (centre, heading along x) overlaps a pedestrian's disc.
fn car_hits(centre: Vec2, ped: Vec2) -> bool {
    let dx = (ped.x - centre.x).abs() - CAR_LENGTH / 2.0;
    let dy = (ped.y - centre.y).abs() - CAR_WIDTH / 2.0;
    let (ox, oy) = (dx.max(0.0), dy.max(0.0));
    ox * ox + oy * oy < PED_RADIUS * PED_RADIUS
}

fn metric(s: &dyn Scene, name: &str) -> f64 {
    s.metrics().into_iter().find(|m| m.name == name).map_or(f64::NAN, |m| m.value)
}

#[test]
fn with_every_planner_no_car_touches_a_pedestrian_or_passes_the_line_on_red() {
    for planner in Planner::ALL {
        for (agents, seed, steps) in [(30, 1, 2400), (30, 2, 2400), (30, 3, 2400), (200, 4, 900)] {
            let mut s =
                StreetScene::with_planner(&SceneConfig { agents: Some(agents), seed }, planner).expect("builds");
            let cars = s.len() - s.pedestrians();
            // Each car's front (x) and the x of its stop line: eastbound cars (heading +x) stop
            // at x = 26 and pass it going up, westbound ones at x = 34 going down.
            let front = |s: &StreetScene, c: usize| {
                let (centre, heading) = s.car_body(c).expect("car");
                (centre.x + heading.x * CAR_LENGTH / 2.0, heading.x > 0.0)
            };
            let mut before: Vec<f32> = (0..cars).map(|c| front(&s, c).0).collect();
            for k in 0..steps {
                s.step();
                for (c, was) in before.iter_mut().enumerate() {
                    let (now, east) = front(&s, c);
                    let over = if east {
                        *was <= STOP_LINE && now > STOP_LINE
                    } else {
                        *was >= 60.0 - STOP_LINE && now < 60.0 - STOP_LINE
                    };
                    assert!(!(over && s.car_red()), "{planner:?} seed {seed} step {k}: car {c} passed the line on red");
                    *was = now;
                    let (centre, _) = s.car_body(c).expect("car");
                    for i in 0..s.pedestrians() {
                        let p = s.ped_position(i).expect("pedestrian");
                        assert!(!car_hits(centre, p), "{planner:?} seed {seed} step {k}: car {c} hits pedestrian {i}");
                    }
                }
            }
            assert_eq!(metric(&s, "car_ped_collisions"), 0.0);
            let (crossed, passed) = (metric(&s, "crossings"), metric(&s, "cars_passed"));
            println!("{planner:?} {agents} agents seed {seed}: {crossed} crossings, {passed} cars passed");
            if agents == 30 {
                assert!(
                    crossed >= 10.0 && passed >= 10.0,
                    "{planner:?} seed {seed}: {crossed} crossings, {passed} cars"
                );
                assert!(metric(&s, "arrivals") >= 5.0 && metric(&s, "arrival_time") > 0.0);
            }
        }
    }
}

/// The settings the street documents for each planner, written out here.
fn settings(planner: Planner) -> SearchConfig {
    let (algorithm, heuristic) = match planner {
        Planner::AStar => (Algorithm::AStar, Heuristic::Octile),
        Planner::Dijkstra => (Algorithm::Dijkstra, Heuristic::Octile),
        Planner::Theta => (Algorithm::Theta, Heuristic::Euclidean),
        Planner::AStarSmoothed => (Algorithm::AStarSmoothed, Heuristic::Octile),
        Planner::Lrta => (Algorithm::Lrta, Heuristic::Octile),
    };
    SearchConfig::new(algorithm).heuristic(heuristic)
}

#[test]
fn the_comparison_counts_the_nodes_the_planners_expand_themselves() {
    let c = compare(&[5, 20], &Planner::ALL, 200, 3).expect("compares");
    assert_eq!(c.runs.len(), 10);
    let bins = 6;
    let width = c.bin_width(bins);
    for planner in Planner::ALL {
        let mut mine = vec![0u32; bins];
        for n in [5, 20] {
            let run = c.run(planner, n).expect("a run per count");
            assert_eq!(run.agents, n + 6);
            assert!(run.plans.len() >= run.agents, "every agent plans at the start");
            let mut total = 0u64;
            for p in &run.plans {
                let mut cells = vec![0u8; W * H];
                for y in 0..H {
                    for x in 0..W {
                        cells[y * W + x] = u8::from(open_for(p, x as i64, y as i64));
                    }
                }
                let grid = Grid::from_cells(W, H, cells).expect("grid");
                let mut s = build_search(grid, p.start, p.goal, settings(planner)).expect("search builds");
                assert_eq!(s.run(), Status::Found);
                assert_eq!(
                    s.expanded(),
                    p.expanded,
                    "{planner:?}: the comparison's count for {:?} -> {:?}",
                    p.start,
                    p.goal
                );
                let path: Vec<u32> = p.cells.iter().map(|q| (q.y * W + q.x) as u32).collect();
                assert_eq!(s.path_indices(), path.as_slice());
                total += s.expanded() as u64;
                mine[((s.expanded() as u32) / width).min(bins as u32 - 1) as usize] += 1;
            }
            assert_eq!(run.expanded(), total);
        }
        assert_eq!(c.histogram(planner, bins).counts, mine, "{planner:?} histogram");
    }
    // Dijkstra, with no estimate, expands more per plan than A* on the same street.
    let per = |p| c.expansions_of(p).iter().map(|&e| f64::from(e)).sum::<f64>() / c.plans_of(p) as f64;
    assert!(per(Planner::Dijkstra) > 2.0 * per(Planner::AStar));
    assert!(c.table().lines().count() == 4, "header, rule and one row per count:\n{}", c.table());
    // Run three times, a street makes the same plans; only their times may shrink.
    let mut thrice = Comparison::new(200, 3).repeated(3);
    let again = thrice.add_run(Planner::Theta, 20).expect("runs");
    let once = c.run(Planner::Theta, 20).expect("the run");
    let counts = |r: &CompareRun| r.plans.iter().map(|p| (p.start, p.goal, p.expanded)).collect::<Vec<_>>();
    assert_eq!(counts(again), counts(once));
}

#[test]
fn the_planner_parameter_is_checked_and_changes_who_plans_how() {
    let mut s = build("street-paths", &SceneConfig { agents: Some(10), seed: 1 }).expect("builds");
    let p = s.params().into_iter().find(|p| p.name == "method").expect("a path-finder choice");
    let names: Vec<&str> = Planner::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(p.choices, names);
    assert_eq!(p.choices, ["astar", "dijkstra", "theta", "astar-smoothed", "lrta"]);
    assert!(matches!(s.set_param("method", f64::NAN), Err(SceneError::Invalid(_))));
    let msg = s.set_param("method", 9.0).expect("clamped").expect("a message");
    assert!(msg.contains("clamped"), "{msg}");
    assert_eq!(s.params()[0].value, 4.0);
    // Before the first step, a new path-finder starts the counts afresh: 10 walkers, 6 cars.
    assert_eq!(metric(s.as_ref(), "plans"), 16.0);
    s.step();
    let before = metric(s.as_ref(), "plans");
    s.set_param("method", 4.0).expect("the same again");
    assert_eq!(metric(s.as_ref(), "plans"), before, "the same path-finder again changes nothing");
    s.set_param("method", 1.0).expect("Dijkstra");
    assert!(metric(s.as_ref(), "plans") > before, "walkers plan again with the new path-finder");
    let clock: Vec<&str> = s.clock_metrics().iter().map(|m| m.name).collect();
    assert_eq!(clock, ["planning_ms", "planning_ms_per_plan"]);
    assert!(s.metrics().iter().all(|m| m.name != "planning_ms"), "a replay cannot reproduce a clock");
    assert_eq!(Planner::from_name("theta"), Some(Planner::Theta));
    assert_eq!(Planner::from_name("jps"), None);
    let big = build("street-paths", &SceneConfig { agents: Some(10_000), seed: 0 }).expect("builds");
    assert_eq!(big.len(), 200 + 6);
    // The plain street has no planner.
    let plain = build("street", &SceneConfig::default()).expect("builds");
    assert!(plain.params().iter().all(|p| p.name != "method"));
    assert!(plain.clock_metrics().is_empty());
    assert!(metric(plain.as_ref(), "plans").is_nan());
}
