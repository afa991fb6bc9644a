//! The wasm-bindgen layer in headless Chromium: the `Lab` handle's results match hand-worked
//! values, every refusal is a `JsError` with a specific message that leaves the old state in
//! place, and the zero-copy pointers give views of wasm memory that match the getters.
//!
//! Run with:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p pathlab-wasm --target wasm32-unknown-unknown`
//! (the runner is set in `.cargo/config.toml`).

#![cfg(target_arch = "wasm32")]

mod browser;

use browser::{field, memory, ok, refused, COURSE_5X5};
use js_sys::{Float64Array, Uint32Array, Uint8Array};
use pathlab_wasm::{algorithms, names, status_name, Lab, Status};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn setting(lab: &Lab, name: &str) -> JsValue {
    field(&ok(lab.settings()), name)
}

fn course_lab() -> Lab {
    let mut lab = ok(Lab::new(8, 8));
    ok(lab.load_course(COURSE_5X5));
    lab
}

// Each reader allocates its Vec first and only then builds the view: an allocation may grow
// the memory, which detaches every view made before it (the page rebuilds its views each frame
// for the same reason).

fn bytes(ptr: *const u8, len: usize) -> Vec<u8> {
    let mut out = vec![0; len];
    Uint8Array::new_with_byte_offset_and_length(&memory(), ptr as usize as u32, len as u32).copy_to(&mut out);
    out
}

fn words(ptr: *const u32, len: usize) -> Vec<u32> {
    let mut out = vec![0; len];
    Uint32Array::new_with_byte_offset_and_length(&memory(), ptr as usize as u32, len as u32).copy_to(&mut out);
    out
}

fn floats(ptr: *const f64, len: usize) -> Vec<f64> {
    let mut out = vec![0.0; len];
    Float64Array::new_with_byte_offset_and_length(&memory(), ptr as usize as u32, len as u32).copy_to(&mut out);
    out
}

#[wasm_bindgen_test]
fn new_lab_is_an_open_grid_ready_to_search() {
    let lab = ok(Lab::new(20, 10));
    assert_eq!((lab.width(), lab.height()), (20, 10));
    assert_eq!(lab.status(), Status::Ready);
    assert_eq!((lab.steps(), lab.expanded(), lab.open_count()), (0, 0, 1));
    assert_eq!(lab.cost(), None);
    assert_eq!(setting(&lab, "algo").as_string().as_deref(), Some("astar"));
    assert_eq!(status_name(Status::NoPath), "no-path");
    assert_eq!(status_name(Status::Found), "found");
    let algos = ok(names("algo"));
    assert!(algos.iter().any(|a| a == "astar") && algos.iter().any(|a| a == "bfs"), "{algos:?}");
    assert!(refused(names("colour")).contains("colour"));
}

#[wasm_bindgen_test]
fn the_registry_lists_every_algorithm_with_its_label_first_a_star() {
    let rows: js_sys::Array = ok(algorithms()).unchecked_into();
    let algos = ok(names("algo"));
    assert_eq!(rows.length() as usize, algos.len());
    let first = rows.get(0);
    assert_eq!(field(&first, "name").as_string().as_deref(), Some("astar"));
    assert_eq!(field(&first, "label").as_string().as_deref(), Some("A*"));
    assert_eq!(field(&first, "order").as_string().as_deref(), Some("f"));
    for row in rows.iter() {
        let name = field(&row, "name").as_string().unwrap_or_default();
        assert!(algos.contains(&name), "{name}");
        assert!(js_sys::Array::is_array(&field(&row, "settings")), "{name}");
    }
}

// Hand calculation (see crates/pathlab-core/tests/course_5x5_worked_by_hand.rs): with no
// corner cutting, the diagonals past the wall corners are illegal and the best route is
// (3,1) (3,0) (2,0) (1,0) (0,1) (0,2) (0,3) = 10+10+10+14+10+10 = 64.
#[wasm_bindgen_test]
fn course_5x5_with_integer_costs_costs_64_without_corner_cutting() {
    let mut lab = course_lab();
    assert_eq!((lab.width(), lab.height()), (5, 5));
    assert_eq!((lab.start_x(), lab.start_y(), lab.goal_x(), lab.goal_y()), (3, 1, 0, 3));
    ok(lab.set_costs("integer"));
    assert_eq!(setting(&lab, "diagonal").as_string().as_deref(), Some("no-corner-cutting"));
    assert_eq!(lab.run(), Status::Found);
    assert_eq!(lab.cost(), Some(64.0));
    assert_eq!(lab.path_length(), 7);
    // The other rules' hand values: 52 (always, at-most-one-blocked), 70 (never). Changing
    // the rule of a finished search re-runs it to the end.
    for (rule, want) in [("always", 52.0), ("at-most-one-blocked", 52.0), ("never", 70.0)] {
        ok(lab.set_diagonal(rule));
        assert_eq!((lab.status(), lab.cost()), (Status::Found, Some(want)), "{rule}");
    }
    assert_eq!(ok(lab.cell(2, 1)), 0);
    assert!(lab.to_course().unwrap().starts_with("5\n5\n00000\n001A0\n"), "{}", lab.to_course().unwrap());
}

// A*, Manhattan, 4-connected, integer costs, step 1 expands A (3,1) (h = 10*(3+2) = 50) and
// opens N (3,0): g 10, h 10*(3+3) = 60, f 70, and E (4,1): g 10, h 60, f 70.
#[wasm_bindgen_test]
fn cell_info_and_last_step_show_the_hand_worked_first_expansion() {
    let mut lab = course_lab();
    ok(lab.set_heuristic("manhattan"));
    ok(lab.set_diagonal("never"));
    ok(lab.set_costs("integer"));
    assert_eq!(lab.step(), Status::Searching);
    let info = ok(lab.cell_info(3, 0));
    assert_eq!(field(&info, "g").as_f64(), Some(10.0));
    assert_eq!(field(&info, "h").as_f64(), Some(60.0));
    assert_eq!(field(&info, "f").as_f64(), Some(70.0));
    assert_eq!(field(&info, "state").as_string().as_deref(), Some("open"));
    let parent: js_sys::Array = field(&info, "parent").dyn_into().unwrap();
    assert_eq!((parent.get(0).as_f64(), parent.get(1).as_f64()), (Some(3.0), Some(1.0)));
    let start = ok(lab.cell_info(3, 1));
    assert_eq!((field(&start, "g").as_f64(), field(&start, "h").as_f64()), (Some(0.0), Some(50.0)));
    assert_eq!(field(&start, "state").as_string().as_deref(), Some("current"));
    // The h view: h(x, y) = 10 * (x + |y - 3|) for every cell, walls included.
    let hs = floats(lab.h_ptr(), 25);
    for y in 0..5usize {
        for x in 0..5usize {
            assert_eq!(hs[y * 5 + x], 10.0 * (x + y.abs_diff(3)) as f64, "h of ({x},{y})");
        }
    }
    let unseen = ok(lab.cell_info(0, 0));
    assert!(field(&unseen, "g").is_null() || field(&unseen, "g").is_undefined());

    let last = ok(lab.last_step());
    assert_eq!(field(&last, "kind").as_string().as_deref(), Some("expanded"));
    let opened: js_sys::Array = field(&last, "opened").dyn_into().unwrap();
    assert_eq!(opened.length(), 2);
    let first_at: js_sys::Array = field(&opened.get(0), "at").dyn_into().unwrap();
    assert_eq!((first_at.get(0).as_f64(), first_at.get(1).as_f64()), (Some(3.0), Some(0.0)));
    assert_eq!(field(&opened.get(1), "g").as_f64(), Some(10.0));
    assert!(refused(lab.cell_info(5, 0)).contains("outside"));
}

#[wasm_bindgen_test]
fn step_back_advance_and_seek_count_steps() {
    let mut lab = ok(Lab::new(20, 10));
    for k in 1..=5 {
        assert_eq!(lab.step(), Status::Searching);
        assert_eq!((lab.steps(), lab.expanded()), (k, k));
    }
    lab.back();
    assert_eq!((lab.steps(), lab.expanded()), (4, 4));
    assert_eq!(lab.advance(3), 3);
    assert_eq!(lab.steps(), 7);
    lab.seek(2);
    assert_eq!((lab.steps(), lab.expanded()), (2, 2));
    // Default ends on a fresh 20x10 grid: (4,5) and (15,5); A* octile walks the row:
    // 11 expansions, then the goal pop. Cost 11.
    assert_eq!(lab.run(), Status::Found);
    assert_eq!((lab.steps(), lab.expanded(), lab.cost()), (12, 11, Some(11.0)));
    assert_eq!(lab.advance(5), 0);
    lab.back();
    assert_eq!((lab.status(), lab.steps()), (Status::Searching, 11));
    lab.reset();
    assert_eq!((lab.status(), lab.steps(), lab.open_count()), (Status::Ready, 0, 1));
}

#[wasm_bindgen_test]
fn a_grid_over_the_size_limit_is_a_js_error_naming_the_limit() {
    let msg = refused(Lab::new(100_000, 100_000));
    assert!(msg.contains("limit") && msg.contains("2048"), "{msg}");
    assert!(refused(Lab::new(0, 5)).contains("no cells"));
    let mut lab = ok(Lab::new(6, 4));
    assert!(refused(lab.resize(4096, 4)).contains("limit"));
    assert_eq!((lab.width(), lab.height()), (6, 4));
}

#[wasm_bindgen_test]
fn bad_weights_are_refused_and_the_old_weight_kept() {
    let mut lab = ok(Lab::new(10, 10));
    ok(lab.set_weight(1.5));
    for bad in [f64::NAN, 0.5, 0.0, -3.0, f64::INFINITY] {
        let msg = refused(lab.set_weight(bad));
        assert!(msg.contains("weight"), "{bad}: {msg}");
        assert_eq!(setting(&lab, "weight").as_f64(), Some(1.5), "after {bad}");
    }
}

#[wasm_bindgen_test]
fn unknown_names_are_refused_and_the_settings_kept() {
    let mut lab = ok(Lab::new(10, 10));
    let msg = refused(lab.set_algorithm("nonsense"));
    assert!(msg.contains("algorithm") && msg.contains("nonsense") && msg.contains("astar"), "{msg}");
    assert_eq!(setting(&lab, "algo").as_string().as_deref(), Some("astar"));
    ok(lab.set_algorithm("astar"));
    assert!(refused(lab.set_heuristic("taxicab")).contains("heuristic"));
    assert!(refused(lab.set_diagonal("sometimes")).contains("diagonal"));
    assert!(refused(lab.set_costs("free")).contains("cost"));
    assert_eq!(setting(&lab, "heuristic").as_string().as_deref(), Some("octile"));
    ok(lab.set_algorithm("bfs"));
    assert_eq!(setting(&lab, "algo").as_string().as_deref(), Some("bfs"));
}

#[wasm_bindgen_test]
fn start_or_goal_on_a_wall_or_outside_is_refused_and_kept() {
    let mut lab = course_lab();
    let msg = refused(lab.set_start(2, 1));
    assert!(msg.contains("start") && msg.contains("wall"), "{msg}");
    assert_eq!((lab.start_x(), lab.start_y()), (3, 1));
    assert!(refused(lab.set_goal(3, 2)).contains("wall"));
    assert!(refused(lab.set_goal(-1, 0)).contains("outside"));
    assert!(refused(lab.set_start(5, 0)).contains("outside"));
    assert_eq!((lab.goal_x(), lab.goal_y()), (0, 3));
    ok(lab.set_start(4, 4));
    assert_eq!((lab.start_x(), lab.start_y()), (4, 4));
}

#[wasm_bindgen_test]
fn a_bad_file_is_refused_and_the_current_map_kept() {
    let mut lab = course_lab();
    let before = lab.to_course().unwrap();
    let msg = refused(lab.load_course("5\n5\n00000\n001A0\n"));
    assert!(msg.contains("line 5") && msg.contains("2 of 5 rows"), "{msg}");
    assert_eq!((lab.width(), lab.height()), (5, 5));
    assert_eq!(lab.to_course().unwrap(), before);
    assert!(refused(lab.load_course("3\n3\n000\n0Z0\n000\n")).contains("line 4"));
    assert!(refused(lab.load_course("100000\n100000\n")).contains("2048"));
    assert!(refused(lab.load_moving_ai("type octile\nheight 2\nmap\n..\n..\n")).contains("no width"));
    assert_eq!(lab.to_course().unwrap(), before);
    ok(lab.load_moving_ai("type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n"));
    assert_eq!((lab.width(), lab.height()), (3, 2));
}

// A 20x10 open grid, ends (4,5) and (15,5), integer costs, no corner cutting: 11 straight
// moves = 110. A wall down x = 10 from y = 0 to 8 leaves only (10,9): entering and leaving it
// diagonally would cut the wall's corner (10,8), so the path goes (9,9) (10,9) (11,9):
//   (4,5) -> (9,9): dx 5, dy 4 = 4 diagonals + 1 straight = 66
//   (9,9) -> (11,9): 2 straight = 20
//   (11,9) -> (15,5): 4 diagonals = 56            total 142.
// Closing (10,9) too leaves no path.
#[wasm_bindgen_test]
fn painting_a_wall_across_the_path_changes_the_cost_then_blocks_it() {
    let mut lab = ok(Lab::new(20, 10));
    ok(lab.set_costs("integer"));
    assert_eq!(lab.run(), Status::Found);
    assert_eq!(lab.cost(), Some(110.0));
    assert_eq!(ok(lab.paint_line(10, 0, 10, 8, 0)), 9);
    assert_eq!((lab.status(), lab.cost()), (Status::Found, Some(142.0)));
    assert_eq!(ok(lab.paint_line(10, 0, 10, 8, 0)), 0, "painting walls on walls changes nothing");
    assert_eq!(ok(lab.paint_line(10, 9, 10, 9, 0)), 1);
    assert_eq!((lab.status(), lab.cost()), (Status::NoPath, None));
    // Erasing re-opens the way.
    assert_eq!(ok(lab.paint_line(10, 9, 10, 9, 1)), 1);
    assert_eq!(lab.cost(), Some(142.0));
    // Walls never cover the start or goal, and cells outside the grid are skipped.
    // Row 5 has 20 cells: minus the start (4,5), the goal (15,5) and the wall already at (10,5).
    assert_eq!(ok(lab.paint_line(-5, 5, 30, 5, 0)), 17);
    assert_eq!((ok(lab.cell(4, 5)), ok(lab.cell(15, 5)), ok(lab.cell(5, 5))), (1, 1, 0));
}

#[wasm_bindgen_test]
fn an_edit_mid_search_reruns_to_the_same_step() {
    let mut lab = ok(Lab::new(20, 10));
    lab.advance(4);
    assert_eq!(ok(lab.paint_line(0, 0, 1, 0, 0)), 2);
    assert_eq!((lab.steps(), lab.status()), (4, Status::Searching));
    ok(lab.set_heuristic("zero"));
    assert_eq!(lab.steps(), 4);
    ok(lab.clear());
    assert_eq!((ok(lab.cell(0, 0)), lab.steps()), (1, 4));
}

#[wasm_bindgen_test]
fn pointer_views_match_the_getters() {
    let mut lab = course_lab();
    ok(lab.set_costs("integer"));
    assert_eq!(lab.run(), Status::Found);
    let (w, h) = (lab.width() as usize, lab.height() as usize);
    let n = w * h;

    let cells = bytes(lab.cells_ptr(), n);
    for y in 0..h {
        for x in 0..w {
            assert_eq!(cells[y * w + x], ok(lab.cell(x as i32, y as i32)), "cell ({x},{y})");
        }
    }
    let walls: Vec<usize> = (0..n).filter(|&i| cells[i] == 0).collect();
    assert_eq!(walls, vec![7, 12, 13]); // (2,1), (2,2), (3,2)

    let path = words(lab.path_ptr(), lab.path_length() as usize);
    assert_eq!(path.len(), 7);
    assert_eq!((path[0], path[6]), (8, 15)); // (3,1) and (0,3) on a 5-wide grid
    let states = bytes(lab.states_ptr(), n);
    for (i, &s) in states.iter().enumerate() {
        assert_eq!(s == 4, path.contains(&(i as u32)), "state of cell {i}");
    }
    let g = floats(lab.g_ptr(), n);
    assert_eq!((g[path[0] as usize], g[path[6] as usize]), (0.0, 64.0));
    assert!(g[7].is_infinite());
    let parents = words(lab.parents_ptr(), n);
    let mut back = vec![path[6]];
    while parents[*back.last().unwrap() as usize] != u32::MAX {
        back.push(parents[*back.last().unwrap() as usize]);
    }
    back.reverse();
    assert_eq!(back, path);
    // g along the path rises by 10 or 14 per move.
    for pair in path.windows(2) {
        let step = g[pair[1] as usize] - g[pair[0] as usize];
        assert!(step == 10.0 || step == 14.0, "step {step}");
    }

    // After growing the map the old views are stale: fresh pointers give the new sizes.
    ok(lab.resize(300, 200));
    let cells = bytes(lab.cells_ptr(), 300 * 200);
    assert!(cells.iter().all(|&c| c == 1));
    let states = bytes(lab.states_ptr(), 300 * 200);
    let open: Vec<usize> = (0..states.len()).filter(|&i| states[i] == 1).collect();
    assert_eq!(open.len(), 1, "only the start is open after a resize");
}

/// Whatever numbers JavaScript passes (they arrive as i32), painting does not panic.
#[wasm_bindgen_test]
fn painting_with_extreme_coordinates_does_not_panic() {
    let mut lab = ok(Lab::new(10, 10));
    for (x0, y0, x1, y1) in [
        (i32::MIN, i32::MIN, i32::MAX, i32::MAX),
        (i32::MAX, 0, i32::MIN, 0),
        (0, i32::MIN, 0, i32::MAX),
        (-1, -1, i32::MAX, 3),
    ] {
        let _ = lab.paint_line(x0, y0, x1, y1, 0);
    }
    assert!(lab.cell(i32::MIN, i32::MAX).is_err());
    assert_eq!((lab.width(), lab.height()), (10, 10));
}

#[wasm_bindgen_test]
fn lpa_keeps_its_steps_when_painted_and_reports_the_repair() {
    // An open 12x5 room; LPA* from (0,2) to (11,2) runs to the end, then a wall goes up
    // across the middle, leaving a gap in the top row.
    let mut lab = ok(Lab::new(12, 5));
    ok(lab.set_algorithm("lpa"));
    ok(lab.set_start(0, 2));
    ok(lab.set_goal(11, 2));
    assert_eq!(lab.run(), Status::Found);
    assert_eq!(lab.cost(), Some(11.0));
    assert!(ok(lab.repair()).is_undefined(), "no edit yet");
    let steps = lab.steps();
    let expanded = lab.expanded();
    assert_eq!(ok(lab.paint_line(6, 1, 6, 4, 0)), 4);
    assert_eq!(lab.steps(), steps, "the search keeps its steps");
    assert_eq!(lab.status(), Status::Searching, "and waits to repair");
    assert_eq!(lab.run(), Status::Found);
    let repair = ok(lab.repair());
    let re_expanded = field(&repair, "re_expanded").as_f64().unwrap();
    assert_eq!(re_expanded, f64::from(lab.expanded() - expanded));
    assert!(field(&repair, "fresh_expanded").as_f64().unwrap() > 0.0);
    // Through the gap at (6,0): two diagonal moves up to row 0 and two back down to row 2
    // (none beside the wall: no corner cutting), seven straight ones.
    let want = 7.0 + 4.0 * std::f64::consts::SQRT_2;
    assert!((lab.cost().unwrap() - want).abs() < 1e-9, "{:?}", lab.cost());
    assert_eq!(lab.cell_values_label().as_deref(), Some("rhs"));
    assert!(!lab.cell_values_ptr().is_null());
}

#[wasm_bindgen_test]
fn walking_agents_report_where_they_are() {
    let mut lab = ok(Lab::new(9, 3));
    ok(lab.set_start(0, 1));
    ok(lab.set_goal(8, 1));
    for algo in ["dstar-lite", "lrta", "rta", "crash-turn"] {
        ok(lab.set_algorithm(algo));
        assert!(setting(&lab, "has_agent").as_bool().unwrap(), "{algo}");
        assert_eq!(lab.run(), Status::Found, "{algo}");
        let agent = ok(lab.agent());
        let at = js_sys::Array::from(&field(&agent, "at"));
        assert_eq!((at.get(0).as_f64(), at.get(1).as_f64()), (Some(8.0), Some(1.0)), "{algo}");
        assert_eq!(field(&agent, "travelled").as_f64(), lab.cost(), "{algo}");
    }
    ok(lab.set_algorithm("lrta"));
    assert!(lab.cell_values_heat(), "LRTA*'s learned h is a heat map");
    ok(lab.set_algorithm("astar"));
    assert!(ok(lab.agent()).is_undefined());
    assert!(lab.cell_values_ptr().is_null());
}

#[wasm_bindgen_test]
fn algorithm_settings_out_of_range_are_refused_and_kept() {
    let mut lab = ok(Lab::new(10, 10));
    ok(lab.set_algorithm("hpa"));
    ok(lab.set_cluster(5));
    assert!(refused(lab.set_cluster(2)).contains("cluster"));
    assert!(refused(lab.set_lookahead(0)).contains("lookahead"));
    assert!(refused(lab.set_sensor(65)).contains("sensor"));
    assert!(refused(lab.set_hand("middle")).contains("hand"));
    assert_eq!(setting(&lab, "cluster").as_f64(), Some(5.0));
    assert_eq!(setting(&lab, "hand").as_string().as_deref(), Some("left"));
    assert_eq!(lab.run(), Status::Found);
    // LPA* refuses a weight other than 1, and the old algorithm stays.
    ok(lab.set_algorithm("astar"));
    ok(lab.set_weight(2.0));
    assert!(!refused(lab.set_algorithm("lpa")).is_empty());
    assert_eq!(setting(&lab, "algo").as_string().as_deref(), Some("astar"));
}

/// The course's 5x5 under A* (Manhattan, 4-way, 10/14): the open list after the first
/// expansion is N (3,0) then E (4,1), both f 70 (a tie on f and g, first opened first); the
/// next step expands its first entry; a seek tells what its last step did, as a step does;
/// the timeline explores the whole run and the closed list counts the expanded cells.
#[wasm_bindgen_test]
fn open_list_seek_and_explore_agree_with_stepping() {
    let mut lab = course_lab();
    ok(lab.set_heuristic("manhattan"));
    ok(lab.set_diagonal("never"));
    ok(lab.set_costs("integer"));
    lab.step();
    let view = ok(lab.open_list(10));
    assert_eq!(field(&view, "key").as_string().as_deref(), Some("f"));
    assert_eq!(field(&view, "exact").as_bool(), Some(true));
    let entries: js_sys::Array = field(&view, "entries").dyn_into().unwrap();
    let at = |e: &JsValue| (field(e, "x").as_f64(), field(e, "y").as_f64());
    assert_eq!(entries.length(), 2);
    assert_eq!(at(&entries.get(0)), (Some(3.0), Some(0.0)));
    assert_eq!(at(&entries.get(1)), (Some(4.0), Some(1.0)));
    for e in entries.iter() {
        let numbers = (field(&e, "g").as_f64(), field(&e, "h").as_f64(), field(&e, "key").as_f64());
        assert_eq!(numbers, (Some(10.0), Some(60.0), Some(70.0)));
    }
    lab.step();
    let stepped = ok(lab.last_step());
    let expanded: js_sys::Array = field(&stepped, "expanded").dyn_into().unwrap();
    assert_eq!((expanded.get(0).as_f64(), expanded.get(1).as_f64()), (Some(3.0), Some(0.0)));
    let closed = ok(lab.closed_list(10));
    assert_eq!(field(&closed, "count").as_f64(), Some(2.0));

    // A seek to step 2 from elsewhere tells the same as the second step did.
    lab.seek(5);
    lab.seek(2);
    let sought = ok(lab.last_step());
    assert_eq!(js_sys::JSON::stringify(&sought).unwrap(), js_sys::JSON::stringify(&stepped).unwrap());

    // The timeline finds the run's length; running to the end agrees.
    let total = loop {
        if let Some(total) = lab.explore(3) {
            break total;
        }
    };
    assert!(!lab.exploring());
    assert_eq!(lab.total_steps(), Some(total));
    assert_eq!(lab.run(), Status::Found);
    assert_eq!(lab.steps(), total);
    assert_eq!(field(&ok(lab.last_step()), "kind").as_string().as_deref(), Some("found"));
}
