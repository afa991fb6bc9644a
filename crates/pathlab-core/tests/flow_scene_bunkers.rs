//! The bunkers scene (the course's flowing river) against independent truth: the field it
//! builds, animates and edits is checked against the reference Dijkstra run from each bunker;
//! its agents head for the nearest standing bunker by that reference, stay out of walls, and
//! stop cleanly when every bunker is gone; the cheap wall update marks exactly the cells the
//! reference says it left too dear; a seed fixes the whole run.

mod flow_support;
mod oracle;

use flow_support::{check_field, reference_per_goal};
use oracle::same;
use pathlab_core::boids::Vec2;
use pathlab_core::crowd::flow_scene::BunkersScene;
use pathlab_core::crowd::scene::{self, Frame, Ink, Scene, SceneConfig, SceneError};
use pathlab_core::crowd::FlowField;
use pathlab_core::grid::{Grid, Point, WALL};

fn config(seed: u64, agents: usize) -> SceneConfig {
    SceneConfig { agents: Some(agents), seed }
}

/// A scene whose field is complete (the build animation turned off).
fn ready(seed: u64, agents: usize) -> BunkersScene {
    let mut s = BunkersScene::new(&config(seed, agents)).unwrap();
    s.set_param("animate build", 0.0).unwrap();
    assert!(!s.is_building());
    s
}

fn centre(p: Point) -> Vec2 {
    Vec2::new(p.x as f32 + 0.5, p.y as f32 + 0.5)
}

fn metric(s: &BunkersScene, name: &str) -> f64 {
    s.metrics().into_iter().find(|m| m.name == name).unwrap().value
}

/// The field's goal indices that still stand.
fn standing_goals(field: &FlowField) -> Vec<usize> {
    (0..field.goals().len()).filter(|&k| field.is_standing(k)).collect()
}

/// The cells of an agent, by its centre.
fn cell_of(grid: &Grid, p: Vec2) -> usize {
    let (x, y) = (p.x.floor() as usize, p.y.floor() as usize);
    y * grid.width() + x
}

/// The reference cheapest cost from every cell to the nearest standing bunker of the scene.
fn reference_nearest(s: &BunkersScene) -> Vec<f64> {
    let bunkers = s.bunkers();
    let field = s.field();
    let per = reference_per_goal(s.grid(), &bunkers, field.rule(), field.costs());
    (0..s.grid().len())
        .map(|i| (0..bunkers.len()).filter(|&b| s.is_standing(b)).map(|b| per[b][i]).fold(f64::INFINITY, f64::min))
        .collect()
}

/// Checks that every agent heads for a standing bunker that is the nearest by the reference
/// (or for none when no bunker can be reached from its cell).
fn check_targets(s: &BunkersScene) -> Result<(), String> {
    let bunkers = s.bunkers();
    let field = s.field();
    let per = reference_per_goal(s.grid(), &bunkers, field.rule(), field.costs());
    for i in 0..s.len() {
        let c = cell_of(s.grid(), s.position(i).unwrap());
        let truth = (0..bunkers.len()).filter(|&b| s.is_standing(b)).map(|b| per[b][c]).fold(f64::INFINITY, f64::min);
        match s.target(i) {
            None if truth.is_infinite() => {}
            None => return Err(format!("agent {i} has no bunker but one is {truth} away")),
            Some(b) if !s.is_standing(b) => return Err(format!("agent {i} heads for destroyed bunker {b}")),
            Some(b) if !same(per[b][c], truth) => {
                return Err(format!("agent {i} heads for bunker {b} at {}, the nearest is {truth} away", per[b][c]))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

#[test]
fn the_directions_from_every_cell_reach_the_nearest_standing_bunker_at_the_reference_cost() {
    for seed in [1, 2, 3, 11] {
        let mut s = ready(seed, 20);
        check_field(s.field(), &standing_goals(s.field())).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let b = s.bunkers()[1];
        s.act("destroy-bunker", centre(b)).unwrap();
        assert!(!s.is_standing(1));
        check_field(s.field(), &standing_goals(s.field()))
            .unwrap_or_else(|e| panic!("seed {seed}, after destroying: {e}"));
    }
}

#[test]
fn after_a_bunker_falls_every_agent_heads_for_the_next_nearest() {
    for seed in [4, 5] {
        let mut s = ready(seed, 300);
        for _ in 0..40 {
            s.step();
        }
        check_targets(&s).unwrap_or_else(|e| panic!("seed {seed}, before: {e}"));
        // Destroy the bunker agent 0 is heading for, so that agents have to turn.
        let b = s.target(0).unwrap();
        let heading_there = (0..s.len()).filter(|&i| s.target(i) == Some(b)).count();
        assert!(heading_there > 0);
        let said = s.act("destroy-bunker", centre(s.bunkers()[b]) + Vec2::new(0.3, 0.2)).unwrap();
        assert!(said.contains("destroyed"), "{said}");
        assert!(!s.is_standing(b));
        assert!((0..s.len()).all(|i| s.target(i) != Some(b)));
        assert_eq!(metric(&s, "rerouted") as usize, heading_there, "every agent of the fallen bunker turned, no other");
        assert_eq!(metric(&s, "standing_bunkers"), 2.0);
        check_targets(&s).unwrap_or_else(|e| panic!("seed {seed}, after: {e}"));
        // And they keep doing so while they walk.
        for _ in 0..30 {
            s.step();
        }
        check_targets(&s).unwrap_or_else(|e| panic!("seed {seed}, walking on: {e}"));
    }
}

/// Wall cells with open cells on two opposite sides (walls between rooms or corridors).
fn thin_walls(grid: &Grid) -> Vec<Point> {
    let open = |x: i64, y: i64| grid.contains(x, y) && grid.cells()[y as usize * grid.width() + x as usize] != WALL;
    (0..grid.len())
        .filter(|&i| grid.cells()[i] == WALL)
        .map(|i| grid.point_at(i))
        .filter(|p| {
            let (x, y) = (p.x as i64, p.y as i64);
            (open(x - 1, y) && open(x + 1, y)) || (open(x, y - 1) && open(x, y + 1))
        })
        .collect()
}

#[test]
fn an_exact_wall_break_leaves_the_field_of_a_full_recompute() {
    let base = ready(6, 10);
    let walls = thin_walls(base.grid());
    assert!(walls.len() > 20);
    let mut changed_somewhere = false;
    for &w in walls.iter().step_by(7) {
        let mut s = base.clone();
        s.act("break-wall", centre(w)).unwrap();
        assert_eq!(s.grid().get(w), Some(1));
        let fresh = FlowField::new(s.grid().clone(), s.field().goals(), s.field().rule(), s.field().costs()).unwrap();
        let (a, b) = (s.field().distances(), fresh.distances());
        assert!(
            (0..a.len()).all(|i| a[i].to_bits() == b[i].to_bits()),
            "break at {w}: distances differ from a fresh build"
        );
        check_field(s.field(), &standing_goals(s.field())).unwrap_or_else(|e| panic!("break at {w}: {e}"));
        assert!(s.suboptimal_cells().is_empty());
        assert_eq!(metric(&s, "suboptimal"), 0.0);
        changed_somewhere |= !s.changed_cells().is_empty();
    }
    assert!(changed_somewhere, "some break must shorten some route");
}

/// The cells whose field distance is dearer than the reference's nearest standing bunker.
fn too_dear(s: &BunkersScene) -> Vec<usize> {
    let truth = reference_nearest(s);
    let d = s.field().distances();
    (0..d.len()).filter(|&i| d[i] != truth[i] && !same(d[i], truth[i])).collect()
}

fn marked(s: &BunkersScene, ink: Ink) -> Vec<usize> {
    let mut f = Frame::default();
    s.frame(None, &mut f);
    (0..f.cell_marks.len()).filter(|&i| f.cell_marks[i] == ink as u8).collect()
}

#[test]
fn a_cheap_wall_break_marks_exactly_the_cells_the_reference_finds_too_dear() {
    let mut base = ready(6, 10);
    base.set_param("update", 1.0).unwrap();
    let walls = thin_walls(base.grid());
    let mut left_dear = 0;
    for &w in walls.iter().step_by(3).take(60) {
        let mut s = base.clone();
        s.act("break-wall", centre(w)).unwrap();
        let dear = too_dear(&s);
        assert_eq!(s.suboptimal_cells(), &dear[..], "break at {w}");
        assert_eq!(marked(&s, Ink::Suboptimal), dear, "break at {w}");
        assert_eq!(metric(&s, "suboptimal") as usize, dear.len());
        // Changed cells are those around the break (the cheap update does not spread).
        assert!(s.changed_cells().iter().all(|&c| {
            let p = s.grid().point_at(c);
            p.x.abs_diff(w.x) <= 1 && p.y.abs_diff(w.y) <= 1
        }));
        if !dear.is_empty() {
            left_dear += 1;
            // Later edits keep the marks true, and a recompute clears them.
            let b = s.bunkers()[0];
            s.act("destroy-bunker", centre(b)).unwrap();
            assert_eq!(marked(&s, Ink::Suboptimal), too_dear(&s), "break at {w}, then a bunker destroyed");
            s.act("recompute", Vec2::ZERO).unwrap();
            assert!(too_dear(&s).is_empty());
            assert!(marked(&s, Ink::Suboptimal).is_empty());
            assert_eq!(metric(&s, "suboptimal"), 0.0);
            check_field(s.field(), &standing_goals(s.field())).unwrap();
        }
    }
    assert!(left_dear > 0, "no cheap break left any cell too dear: the test proves nothing");
}

#[test]
fn the_animated_build_settles_final_distances_in_order_and_ends_in_the_one_shot_field() {
    let mut s = BunkersScene::new(&config(8, 50)).unwrap();
    assert!(s.is_building());
    let goals = s.bunkers();
    let fresh = FlowField::new(s.grid().clone(), &goals, s.field().rule(), s.field().costs()).unwrap();
    let start: Vec<Vec2> = (0..s.len()).map(|i| s.position(i).unwrap()).collect();
    let mut frame = Frame::default();
    let mut last_max = 0.0f32;
    let mut steps = 0;
    while s.is_building() {
        s.step();
        steps += 1;
        assert!(steps < 10_000);
        s.frame(Some(0), &mut frame);
        let mut max = 0.0f32;
        for i in 0..frame.layer.len() {
            let v = frame.layer[i];
            if v >= 0.0 {
                // A settled cell shows its final distance (and direction).
                assert_eq!(v, fresh.distances()[i] as f32);
                assert_eq!(frame.directions[i], fresh.directions()[i]);
                max = max.max(v);
            } else {
                assert_eq!(frame.directions[i], 255);
            }
            if frame.cell_marks[i] == Ink::Wavefront as u8 {
                assert!(v < 0.0, "a wavefront cell is not settled");
            }
        }
        assert!(max >= last_max, "the wavefront moves outward");
        last_max = max;
        // The agents wait for the field.
        if s.is_building() {
            assert!(frame.kind.iter().all(|&k| k == 1));
        }
    }
    assert!(steps > 5, "the build took {steps} steps");
    assert_eq!(metric(&s, "build_steps"), f64::from(steps));
    assert_eq!(s.field(), &fresh);
    assert!((0..s.len()).all(|i| s.position(i) == Some(start[i])));
    check_field(s.field(), &[0, 1, 2]).unwrap();
    // Watching it again ends in the same field.
    s.act("rebuild", Vec2::ZERO).unwrap();
    assert!(s.is_building());
    while s.is_building() {
        s.step();
    }
    assert_eq!(s.field(), &fresh);
}

#[test]
fn agents_never_stand_in_walls_and_reach_bunkers() {
    let mut s = ready(9, 300);
    let mut walled = 0;
    for step in 0..700 {
        s.step();
        if step % 50 == 25 {
            // Wall in the cell of an agent, and break a wall elsewhere.
            let p = s.position(step % s.len()).unwrap();
            if s.act("add-wall", p).is_ok() {
                walled += 1;
            }
            let w = thin_walls(s.grid())[step % 5];
            s.act("break-wall", centre(w)).unwrap();
        }
        for i in 0..s.len() {
            let p = s.position(i).unwrap();
            assert!(p.is_finite());
            let c = cell_of(s.grid(), p);
            assert!(p.x >= 0.0 && p.y >= 0.0 && c < s.grid().len(), "agent {i} off the map at step {step}");
            assert_ne!(s.grid().cells()[c], WALL, "agent {i} in a wall at step {step}");
        }
    }
    assert!(walled > 5);
    check_targets(&s).unwrap();
    assert!(metric(&s, "arrived") > 50.0, "arrived {}", metric(&s, "arrived"));
    let mean = metric(&s, "mean_arrival_time");
    assert!(mean.is_finite() && mean > 0.0 && mean < 35.0, "mean time {mean}");
}

#[test]
fn destroying_every_bunker_stops_the_agents_and_refuses_further_destruction() {
    let mut s = ready(10, 100);
    for _ in 0..20 {
        s.step();
    }
    let bunkers = s.bunkers();
    let mut said = String::new();
    for &b in &bunkers {
        said = s.act("destroy-bunker", centre(b)).unwrap();
    }
    assert!(said.contains("last") && said.contains("stops"), "{said}");
    assert_eq!(metric(&s, "standing_bunkers"), 0.0);
    assert!(matches!(s.act("destroy-bunker", centre(bunkers[0])), Err(SceneError::Refused(_))));
    assert!(s.field().distances().iter().all(|d| d.is_infinite()));
    let before: Vec<Vec2> = (0..s.len()).map(|i| s.position(i).unwrap()).collect();
    for _ in 0..50 {
        s.step();
    }
    assert!((0..s.len()).all(|i| s.position(i) == Some(before[i]) && s.target(i).is_none()));
    let mut frame = Frame::default();
    s.frame(Some(3), &mut frame);
    assert!(frame.line_ink.iter().all(|&k| k != Ink::Route as u8));
    assert!(frame.layer.iter().all(|&v| v < 0.0));
    assert!(frame.kind.iter().all(|&k| k == 2));
    assert_eq!(frame.circle_ink, vec![Ink::Stop as u8; 3]);
    assert!(s.act("recompute", Vec2::ZERO).is_ok());
    assert!(matches!(s.act("rebuild", Vec2::ZERO), Err(SceneError::Refused(_))));
    let w = thin_walls(s.grid())[0];
    assert!(s.act("break-wall", centre(w)).is_ok());
    // A new bunker gives them somewhere to go again.
    s.act("add-bunker", centre(bunkers[1])).unwrap();
    assert!(s.is_standing(1));
    check_targets(&s).unwrap();
    assert!((0..s.len()).any(|i| s.target(i) == Some(1)));
    for _ in 0..20 {
        s.step();
    }
    assert!((0..s.len()).any(|i| s.position(i) != Some(before[i])));
}

fn run(seed: u64) -> (Frame, Vec<String>) {
    let mut s = scene::build("bunkers", &config(seed, 200)).unwrap();
    let mut said = Vec::new();
    let mut frame = Frame::default();
    for step in 0..260 {
        s.step();
        if step == 120 {
            said.push(s.act("destroy-bunker", Vec2::new(10.0, 10.0)).unwrap());
            s.set_param("update", 1.0).unwrap();
        }
        if step == 180 {
            said.push(format!("{:?}", s.act("break-wall", Vec2::new(7.5, 9.5))));
        }
    }
    s.frame(Some(5), &mut frame);
    (frame, said)
}

#[test]
fn a_seed_fixes_the_whole_run() {
    let a = run(12);
    assert_eq!(a, run(12));
    assert_ne!(a.0, run(13).0);
}

#[test]
fn bad_input_is_refused_in_words_and_nothing_panics() {
    assert!(scene::SCENES.iter().any(|&(name, _)| name == "bunkers"));
    let mut s = ready(14, 30);
    let nan = Vec2::new(f32::NAN, 1.0);
    for action in ["destroy-bunker", "break-wall", "add-wall", "add-bunker"] {
        assert!(matches!(s.act(action, nan), Err(SceneError::Invalid(_))), "{action}");
    }
    for action in ["break-wall", "add-wall", "add-bunker"] {
        assert!(matches!(s.act(action, Vec2::new(-3.0, 2.0)), Err(SceneError::Refused(_))), "{action}");
        assert!(matches!(s.act(action, Vec2::new(1e9, 2.0)), Err(SceneError::Refused(_))), "{action}");
    }
    assert_eq!(s.act("fly", Vec2::ZERO), Err(SceneError::UnknownAction("fly".into())));
    let b = s.bunkers()[0];
    assert!(matches!(s.act("add-wall", centre(b)), Err(SceneError::Refused(_))));
    assert!(matches!(s.act("add-bunker", centre(b)), Err(SceneError::Refused(_))));
    let open = (0..s.grid().len())
        .find(|&i| s.grid().cells()[i] != WALL && !s.bunkers().contains(&s.grid().point_at(i)))
        .unwrap();
    assert!(matches!(s.act("break-wall", centre(s.grid().point_at(open))), Err(SceneError::Refused(_))));
    assert!(matches!(s.set_param("speed", f64::NAN), Err(SceneError::Invalid(_))));
    assert!(s.set_param("speed", 1e9).unwrap().is_some());
    assert!(s.set_param("separation", -4.0).unwrap().is_some());
    assert!(s.set_param("update", 7.0).unwrap().is_some());
    assert!(matches!(s.set_param("gravity", 1.0), Err(SceneError::UnknownParam(_))));
    for _ in 0..20 {
        s.step();
    }
    // Hand-made maps: bad bunkers are named.
    let grid = Grid::from_cells(3, 1, vec![1, 0, 1]).unwrap();
    let c = config(1, 5);
    assert!(matches!(BunkersScene::with_map(grid.clone(), &[], &c), Err(SceneError::Invalid(_))));
    assert!(matches!(BunkersScene::with_map(grid.clone(), &[Point::new(1, 0)], &c), Err(SceneError::Invalid(_))));
    assert!(matches!(BunkersScene::with_map(grid.clone(), &[Point::new(5, 0)], &c), Err(SceneError::Invalid(_))));
    let tiny = Grid::new(1, 1).unwrap();
    assert!(matches!(BunkersScene::with_map(tiny, &[Point::new(0, 0)], &c), Err(SceneError::Invalid(_))));
    // A cell cut off from every bunker: its agents have no target and stay put.
    let mut cut = BunkersScene::with_map(grid, &[Point::new(0, 0)], &config(2, 8)).unwrap();
    cut.set_param("animate build", 0.0).unwrap();
    for _ in 0..30 {
        cut.step();
    }
    assert!((0..cut.len()).all(|i| cut.target(i).is_none() && cut.position(i).unwrap().x > 2.0));
    // The most agents packed onto one open cell next to a bunker: bounded steps, no panic.
    let mut packed =
        BunkersScene::with_map(Grid::new(2, 1).unwrap(), &[Point::new(0, 0)], &config(5, 1_000_000)).unwrap();
    assert_eq!(packed.len(), 2000, "agents are clamped to 2000");
    for _ in 0..40 {
        packed.step();
    }
    assert!(metric(&packed, "arrived") > 0.0);
    assert!((0..packed.len()).all(|i| packed.position(i).unwrap().x >= 1.0));
}

#[test]
fn the_course_figure_agents_west_of_bunker_two_turn_to_bunker_one_when_it_falls() {
    // Five by five open squares, bunker 1 at the course's (3,0) and bunker 2 at its (0,3);
    // y grows downward here, so they are (3,4) and (0,1). Fifty agents cover the squares.
    let grid = Grid::new(5, 5).unwrap();
    let mut s = BunkersScene::with_map(grid, &[Point::new(3, 4), Point::new(0, 1)], &config(3, 50)).unwrap();
    s.set_param("animate build", 0.0).unwrap();
    let at_square = |s: &BunkersScene| -> Vec<usize> {
        (0..s.len()).filter(|&i| cell_of(s.grid(), s.position(i).unwrap()) == 6).collect()
        // (1,1)
    };
    let there = at_square(&s);
    assert!(!there.is_empty(), "no agent on the course's square (1,3)");
    assert!(there.iter().all(|&i| s.target(i) == Some(1)));
    assert_eq!(s.field().directions()[6], 3, "west");
    s.act("destroy-bunker", Vec2::new(0.5, 1.5)).unwrap();
    assert!(there.iter().all(|&i| s.target(i) == Some(0)));
    check_targets(&s).unwrap();
}
