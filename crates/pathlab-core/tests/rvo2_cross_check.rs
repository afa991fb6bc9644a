//! The crowd against RVO2, the reference ORCA library, on its two examples.
//!
//! - Blocks: 100 agents in four groups of 25 cross diagonally between four square obstacles
//!   (RVO2's `examples/Blocks.cc`: time step 0.25, neighbour distance 15, 10 neighbours, time
//!   horizons 5 and 5, radius 2, top speed 2). The crowd runs with [`CrowdRules::PLAIN`] and
//!   RVO2's preferred velocities, so it should move exactly as RVO2 does; `tests/rvo2/`
//!   holds RVO2's own positions (see its README) and the test demands the same bits at every
//!   sampled step up to step 850. (Later the runs part: at step 710 one agent has two
//!   neighbours at exactly the same distance, which RVO2 orders by its k-d tree and the crowd
//!   by its grid, and the crowd's dynamics amplify that last-bit difference.)
//! - Circle: 250 agents on a circle of radius 200 swap to the antipodes (`examples/Circle.cc`:
//!   time step 0.25, neighbour distance 15, 10 neighbours, horizons 10 and 10, radius 1.5,
//!   top speed 2).
//!
//! Both check what RVO2 guarantees, measured here independently of the crowd: no agent
//! deeper into an obstacle than 1% of its radius after any step (the depth computed from the
//! four squares themselves), and everyone arrives (by the examples' own stopping rules:
//! within 20 units of the goal for Blocks, within the radius for Circle) within a bound: RVO2
//! itself needed 3576 steps on Blocks and 3547 on Circle; the bounds are 12,000 and 5000
//! ([`BLOCKS_BOUND`], [`CIRCLE_BOUND`]).
//!
//! Blocks is also run on a grid of 10-unit cells (the squares as 3 x 3 wall cells): the
//! outlines traced from the cells must keep everyone as far out of the walls.

use pathlab_core::boids::Vec2;
use pathlab_core::crowd::avoid::{AvoidParams, Crowd, CrowdRules, Method};
use pathlab_core::grid::Grid;

/// The most steps Circle may take before everyone has arrived (RVO2: 3547).
const CIRCLE_BOUND: u32 = 5000;

/// The most steps Blocks may take before everyone has arrived (RVO2: 3576 in its run; once
/// the runs part, two of the crowd's agents may slide along a square's face at a crawl for
/// thousands of steps, as ORCA without a roadmap can, which RVO2's example notes).
const BLOCKS_BOUND: u32 = 12_000;

/// The deepest an agent may reach into an obstacle, as a fraction of its radius.
const DEPTH_LIMIT: f32 = 0.01;

/// A multiple of 1/1024 in [-1, 1) from the step, the agent and a salt: the deterministic
/// stand-in for the `std::rand()` perturbation of RVO2's Blocks example (the reference driver
/// computes the same integer hash).
fn perturbation(step: u32, i: u32, salt: u32) -> f32 {
    let mut h = step.wrapping_mul(1000).wrapping_add(i).wrapping_mul(2_654_435_761) ^ salt;
    h ^= h >> 15;
    h = h.wrapping_mul(2_246_822_519);
    h ^= h >> 13;
    ((h >> 21) as i32 - 1024) as f32 / 1024.0
}

/// RVO2's examples' preferred velocity: toward the goal, normalised when farther than 1 (as
/// RVO2's `normalize`, a multiplication by the reciprocal of the length).
fn toward(goal: Vec2, pos: Vec2) -> Vec2 {
    let g = goal - pos;
    if g.length_sq() > 1.0 {
        g * (1.0 / g.length())
    } else {
        g
    }
}

fn params(horizon: f32, radius: f32) -> AvoidParams {
    AvoidParams {
        method: Method::Orca,
        neighbour_dist: 15.0,
        max_neighbours: 10,
        time_horizon: horizon,
        obstacle_horizon: horizon,
        radius,
        max_speed: 2.0,
        dt: 0.25,
        margin: 0.0,
        ..AvoidParams::default()
    }
}

/// The four squares of Blocks as (min x, min y, max x, max y).
const SQUARES: [[f32; 4]; 4] =
    [[-40.0, 10.0, -10.0, 40.0], [10.0, 10.0, 40.0, 40.0], [10.0, -40.0, 40.0, -10.0], [-40.0, -40.0, -10.0, -10.0]];

/// How deep a disc of radius `r` at `p` reaches into the squares, moved by `offset`.
fn depth_in_squares(p: Vec2, r: f32, offset: f32) -> f32 {
    let mut worst = 0.0_f32;
    for [x0, y0, x1, y1] in SQUARES.map(|s| s.map(|v| v + offset)) {
        let inside = p.x > x0 && p.x < x1 && p.y > y0 && p.y < y1;
        let d = if inside {
            -(p.x - x0).min(x1 - p.x).min(p.y - y0).min(y1 - p.y)
        } else {
            Vec2::new(p.x.clamp(x0, x1), p.y.clamp(y0, y1)).distance(p)
        };
        worst = worst.max(r - d);
    }
    worst
}

/// RVO2's Blocks agents (in its order) and goals, every point moved by `offset`.
fn blocks_agents(offset: f32) -> Vec<(Vec2, Vec2)> {
    let mut out = Vec::new();
    for i in 0..5 {
        for j in 0..5 {
            let (a, b) = (i as f32 * 10.0, j as f32 * 10.0);
            for (p, g) in [
                (Vec2::new(55.0 + a, 55.0 + b), Vec2::new(-75.0, -75.0)),
                (Vec2::new(-55.0 - a, 55.0 + b), Vec2::new(75.0, -75.0)),
                (Vec2::new(55.0 + a, -55.0 - b), Vec2::new(-75.0, 75.0)),
                (Vec2::new(-55.0 - a, -55.0 - b), Vec2::new(75.0, 75.0)),
            ] {
                let shift = Vec2::new(offset, offset);
                out.push((p + shift, g + shift));
            }
        }
    }
    out
}

/// Blocks with RVO2's obstacle polygons, in RVO2's coordinates (the crowd's spatial grid
/// files the agents at negative coordinates in its edge cells, which only costs time).
fn blocks() -> (Crowd, Vec<Vec2>) {
    let mut crowd = Crowd::new(params(5.0, 2.0), 200.0, 200.0).expect("valid parameters");
    crowd.set_rules(CrowdRules::PLAIN);
    let agents = blocks_agents(0.0);
    for &(p, g) in &agents {
        crowd.add(p, g);
    }
    let v = Vec2::new;
    // RVO2's four obstacles, vertices in its order (counterclockwise with y up).
    for polygon in [
        [v(-10.0, 40.0), v(-40.0, 40.0), v(-40.0, 10.0), v(-10.0, 10.0)],
        [v(10.0, 40.0), v(10.0, 10.0), v(40.0, 10.0), v(40.0, 40.0)],
        [v(10.0, -40.0), v(40.0, -40.0), v(40.0, -10.0), v(10.0, -10.0)],
        [v(-10.0, -40.0), v(-10.0, -10.0), v(-40.0, -10.0), v(-40.0, -40.0)],
    ] {
        crowd.add_obstacle(&polygon).expect("a valid polygon");
    }
    (crowd, agents.iter().map(|&(_, g)| g).collect())
}

/// One step of Blocks as the reference driver runs it: preferred velocities, then the step.
fn blocks_step(crowd: &mut Crowd, goals: &[Vec2], step: u32) {
    for (i, &goal) in goals.iter().enumerate() {
        let jiggle =
            Vec2::new(0.0001 * perturbation(step, i as u32, 0x1234), 0.0001 * perturbation(step, i as u32, 0xabcd));
        crowd.set_preferred(i, Some(toward(goal, crowd.position(i)) + jiggle));
    }
    crowd.step();
}

/// Runs until everyone is within `arrive` of its goal or the bound; returns the steps taken
/// and the deepest reach into the squares (moved by `offset`) as a fraction of the radius.
fn run_blocks(crowd: &mut Crowd, goals: &[Vec2], arrive: f32, offset: f32) -> (u32, f32) {
    let r = crowd.params().radius;
    let mut worst = 0.0_f32;
    for step in 0..BLOCKS_BOUND {
        if (0..crowd.len()).all(|i| crowd.position(i).distance(goals[i]) <= arrive) {
            return (step, worst);
        }
        blocks_step(crowd, goals, step);
        for i in 0..crowd.len() {
            worst = worst.max(depth_in_squares(crowd.position(i), r, offset) / r);
        }
    }
    (BLOCKS_BOUND, worst)
}

fn reference() -> Vec<(u32, Vec<Vec2>)> {
    let text = include_str!("rvo2/blocks_positions.txt");
    text.lines()
        .map(|line| {
            let mut words = line.split(' ');
            let step: u32 = words.next().and_then(|w| w.parse().ok()).expect("a step number");
            let xs: Vec<f32> = words.map(|w| w.parse().expect("a number")).collect();
            (step, xs.chunks(2).map(|c| Vec2::new(c[0], c[1])).collect())
        })
        .collect()
}

#[test]
fn blocks_matches_rvo2_bit_for_bit_at_every_sampled_step() {
    let reference = reference();
    assert!(reference.len() >= 17, "the reference trace is complete");
    let (mut crowd, goals) = blocks();
    let mut done = 0;
    let mut deviation = 0.0_f32;
    for (step, positions) in &reference {
        while done < *step {
            blocks_step(&mut crowd, &goals, done);
            done += 1;
        }
        assert_eq!(positions.len(), crowd.len());
        for (i, &p) in positions.iter().enumerate() {
            deviation = deviation.max(crowd.position(i).distance(p));
            assert_eq!(
                (crowd.position(i).x.to_bits(), crowd.position(i).y.to_bits()),
                (p.x.to_bits(), p.y.to_bits()),
                "agent {i} after step {step}: {:?} against RVO2's {p:?}",
                crowd.position(i)
            );
        }
    }
    eprintln!("Blocks: largest distance from RVO2's positions up to step {done}: {deviation}");
}

#[test]
fn blocks_with_rvo2_polygons_keeps_out_of_the_squares_and_everyone_arrives() {
    let (mut crowd, goals) = blocks();
    let (steps, worst) = run_blocks(&mut crowd, &goals, 20.0, 0.0);
    eprintln!("Blocks (polygons): everyone within 20 of the goal after {steps} steps; deepest {worst} r");
    assert!(steps < BLOCKS_BOUND, "not everyone arrived within {BLOCKS_BOUND} steps");
    assert!(worst <= DEPTH_LIMIT, "an agent reached {worst} radii into a square");
}

#[test]
fn blocks_on_ten_unit_wall_cells_keeps_out_of_the_walls_and_everyone_arrives() {
    // The world moved by 100 so that it lies on a 20 x 20 grid of 10-unit cells; the squares
    // are the cells [3, 6) and [11, 14) in each direction.
    let offset = 100.0;
    let mut cells = vec![1u8; 20 * 20];
    for [x0, y0, x1, y1] in SQUARES {
        for cy in ((y0 + offset) / 10.0) as usize..((y1 + offset) / 10.0) as usize {
            for cx in ((x0 + offset) / 10.0) as usize..((x1 + offset) / 10.0) as usize {
                cells[cy * 20 + cx] = 0;
            }
        }
    }
    let grid = Grid::from_cells(20, 20, cells).expect("a valid grid");
    let mut crowd = Crowd::new(params(5.0, 2.0), 200.0, 200.0).expect("valid parameters");
    crowd.set_rules(CrowdRules::PLAIN);
    crowd.set_walls(&grid, 10.0).expect("valid walls");
    assert_eq!(crowd.obstacles().rings().len(), 4, "one outline per square");
    assert_eq!(crowd.obstacles().vertices().len(), 16, "four corners per square");
    let agents = blocks_agents(offset);
    for &(p, g) in &agents {
        crowd.add(p, g);
    }
    let goals: Vec<Vec2> = agents.iter().map(|&(_, g)| g).collect();
    let (steps, worst) = run_blocks(&mut crowd, &goals, 20.0, offset);
    let m = crowd.metrics();
    eprintln!(
        "Blocks (10-unit cells): arrived after {steps} steps; deepest {worst} r; wall hits {}; crowd's own worst {}",
        m.wall_hits, m.worst_wall_overlap
    );
    assert!(steps < BLOCKS_BOUND, "not everyone arrived within {BLOCKS_BOUND} steps");
    assert!(worst <= DEPTH_LIMIT, "an agent reached {worst} radii into a wall");
    assert_eq!(m.wall_hits, 0, "the crowd counted agents in walls");
}

#[test]
fn circle_of_250_swaps_and_everyone_arrives() {
    let mut crowd = Crowd::new(params(10.0, 1.5), 400.0, 400.0).expect("valid parameters");
    crowd.set_rules(CrowdRules::PLAIN);
    let two_pi = 6.283_185_5_f32;
    let mut goals = Vec::new();
    for i in 0..250 {
        let a = i as f32 * two_pi * 0.004;
        let p = Vec2::new(a.cos(), a.sin()) * 200.0;
        crowd.add(p, -p);
        goals.push(-p);
    }
    let r = 1.5_f32;
    let mut worst_overlap = 0.0_f32;
    let mut steps = CIRCLE_BOUND;
    for step in 0..CIRCLE_BOUND {
        if (0..crowd.len()).all(|i| (crowd.position(i) - goals[i]).length_sq() <= r * r) {
            steps = step;
            break;
        }
        for (i, &goal) in goals.iter().enumerate() {
            crowd.set_preferred(i, Some(toward(goal, crowd.position(i))));
        }
        crowd.step();
        worst_overlap = worst_overlap.max(crowd.metrics().worst_overlap);
    }
    eprintln!("Circle: everyone within the radius of the goal after {steps} steps; worst overlap {worst_overlap} r");
    assert!(steps < CIRCLE_BOUND, "not everyone arrived within {CIRCLE_BOUND} steps");
}
