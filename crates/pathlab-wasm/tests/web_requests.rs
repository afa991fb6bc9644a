//! The `Requests` handle in headless Chromium: refusals are `JsError`s with specific messages
//! that change nothing, ticks keep to their budget and hand out the finished ids through the
//! zero-copy pointer, the queue read-out is an array of plain objects in the order of service,
//! and paths are row-major cell indices matching a hand-worked corridor.
//!
//! Run with:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p pathlab-wasm --target wasm32-unknown-unknown --test web_requests`

#![cfg(target_arch = "wasm32")]

mod browser;

use browser::{field, memory, ok, refused, COURSE_5X5};
use js_sys::{Array, Uint32Array, Uint8Array};
use pathlab_wasm::Requests;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn bad_requests_and_budgets_are_refused_by_name_and_queue_nothing() {
    let mut r = ok(Requests::new(5, 5));
    ok(r.load_course(COURSE_5X5));
    let wall = refused(r.submit(0, 0, 2, 1, 1.0));
    assert_eq!(wall, "the goal (2,1) is on a wall");
    let off = refused(r.submit(-1, 0, 0, 0, 1.0));
    assert!(off.starts_with("start (-1,0) is outside the 5x5 grid"), "{off}");
    let urgency = refused(r.submit(0, 0, 4, 4, f64::NAN));
    assert!(urgency.starts_with("urgency must be a number from 0 to"), "{urgency}");
    assert_eq!(r.open_count(), 0);
    for bad in [-1.0, 2.5, f64::INFINITY, 2_000_000.0] {
        let msg = refused(r.set_budget(bad));
        assert!(msg.starts_with("the budget must be a whole number of steps from 0 to 1000000"), "{msg}");
        assert!(r.tick(Some(bad)).is_err());
    }
    assert_eq!(r.budget(), 200, "the budget is unchanged");
    let bad_map = refused(r.load_course("2\n2\n0x\n00\n"));
    assert!(!bad_map.is_empty());
    assert_eq!((r.width(), r.height()), (5, 5), "the map is kept");
    let paint = refused(r.paint_line(0, 0, 1, 0, 200));
    assert!(paint.contains("up to 9"), "{paint}");
}

#[wasm_bindgen_test]
fn ticks_keep_the_budget_and_report_finished_ids_through_the_pointer() {
    // A 12 x 1 corridor: a request k cells long is k expansions and the pop of the goal.
    let mut r = ok(Requests::new(12, 1));
    ok(r.set_aging(false));
    assert!(!r.aging());
    let calm = ok(r.submit(0, 0, 5, 0, 1.0)); // 6 steps
    let urgent = ok(r.submit(11, 0, 8, 0, 7.0)); // 4 steps
    let queue = ok(r.queue());
    let first = Array::from(&queue).get(0);
    assert_eq!(field(&first, "id").as_f64(), Some(f64::from(urgent)));
    assert_eq!(field(&first, "status").as_string().as_deref(), Some("queued"));
    assert_eq!(ok(r.tick(Some(5.0))), 5);
    assert_eq!(r.finished_count(), 1);
    let ids = Uint32Array::new_with_byte_offset_and_length(&memory(), r.finished_ptr() as usize as u32, 1);
    assert_eq!(ids.get_index(0), urgent);
    assert_eq!(r.path(urgent), vec![11, 10, 9, 8]);
    let calm_view = ok(r.request(calm));
    assert_eq!(field(&calm_view, "status").as_string().as_deref(), Some("searching"));
    assert_eq!(field(&calm_view, "expanded").as_f64(), Some(1.0));
    ok(r.set_budget(100.0));
    assert_eq!(ok(r.tick(None)), 5, "the rest of the calm request, under the handle's budget");
    assert_eq!(r.spent(), 5);
    let tick = ok(r.last_tick());
    assert_eq!(field(&tick, "spent").as_f64(), Some(5.0));
    let calm_view = ok(r.request(calm));
    assert_eq!(field(&calm_view, "ticksToFinish").as_f64(), Some(2.0));
    assert_eq!(field(&calm_view, "cost").as_f64(), Some(5.0));
    assert!(r.forget(calm) && ok(r.request(calm)).is_null());
    assert_eq!(r.ticks(), 2.0);
}

#[wasm_bindgen_test]
fn painting_walls_restarts_requests_and_the_cells_view_shows_them() {
    let mut r = ok(Requests::new(6, 3));
    let id = ok(r.submit(0, 1, 5, 1, 1.0));
    assert_eq!(ok(r.paint_line(2, 0, 2, 2, 0)), 3);
    let cells = Uint8Array::new_with_byte_offset_and_length(&memory(), r.cells_ptr() as usize as u32, 18).to_vec();
    assert_eq!(&cells[..6], &[1, 1, 0, 1, 1, 1]);
    ok(r.tick(Some(1000.0)));
    let view = ok(r.request(id));
    assert_eq!(field(&view, "status").as_string().as_deref(), Some("no-path"));
    // The request's ends are never walled over.
    assert_eq!(ok(r.paint_line(0, 1, 5, 1, 0)), 3);
    assert_eq!(ok(r.cell(0, 1)), 1);
}
