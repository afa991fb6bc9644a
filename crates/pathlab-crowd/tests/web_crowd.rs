//! The crowd layer in a real browser: every registered scene builds, steps, fills a frame whose
//! vectors have the sizes the contract gives (one agent per count, one layer value per cell,
//! four numbers per line, ...), and every bad request comes back as a `JsError` that names the
//! problem. Run with
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p pathlab-crowd --target wasm32-unknown-unknown --profile ci`.
#![cfg(target_arch = "wasm32")]

#[path = "../../pathlab-wasm/tests/browser/mod.rs"]
mod browser;

use browser::{field, message};
use pathlab_crowd::CrowdScene;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn names() -> Vec<String> {
    let list: Vec<String> = pathlab_core::crowd::scene::SCENES.iter().map(|(n, _)| (*n).to_string()).collect();
    assert!(!list.is_empty());
    list
}

#[wasm_bindgen_test]
fn every_scene_steps_and_its_frame_has_the_contract_sizes() {
    for name in names() {
        let mut s = CrowdScene::new(&name, None, 7.0).unwrap_or_else(|e| panic!("{name}: {}", message(e)));
        assert_eq!(s.step(5), 5, "{name}");
        assert_eq!(s.steps(), 5.0);
        s.frame(0);
        let l = s.layout();
        let len = |k: usize| l[2 * k + 1] as usize;
        let n = s.count() as usize;
        for k in 0..6 {
            assert_eq!(len(k), n, "{name}: agent vector {k}");
        }
        let cells = (s.grid_width() * s.grid_height()) as usize;
        for k in [6, 7, 8] {
            assert!(len(k) == 0 || len(k) == cells, "{name}: per-cell vector {k}");
        }
        assert_eq!(len(9), 4 * len(10), "{name}: four numbers per line");
        assert_eq!(len(11), 3 * len(12), "{name}: three numbers per circle");
        assert_eq!(len(14), len(15), "{name}: one ink per polygon");
        let metrics: js_sys::Array = s.metrics().unwrap_or_else(|e| panic!("{}", message(e))).unchecked_into();
        assert!(metrics.length() > 0, "{name} measures something");
        assert!(field(&metrics.get(0), "name").is_string());
        let kinds = s.kinds();
        assert!(!kinds.is_empty(), "{name} names its kinds");
        let params: js_sys::Array = s.params().unwrap_or_else(|e| panic!("{}", message(e))).unchecked_into();
        for p in params.iter() {
            assert!(field(&p, "min").as_f64() <= field(&p, "max").as_f64());
        }
    }
}

#[wasm_bindgen_test]
fn the_same_seed_replays_the_same_frames() {
    for name in names() {
        let mut a = CrowdScene::new(&name, None, 11.0).unwrap_or_else(|e| panic!("{}", message(e)));
        let mut b = CrowdScene::new(&name, None, 11.0).unwrap_or_else(|e| panic!("{}", message(e)));
        a.step(20);
        b.step(20);
        a.frame(-1);
        b.frame(-1);
        assert_eq!(a.last_frame().x, b.last_frame().x, "{name}");
        assert_eq!(a.last_frame().y, b.last_frame().y, "{name}");
    }
}

#[wasm_bindgen_test]
fn picking_at_an_agent_finds_it() {
    for name in names() {
        let mut s = CrowdScene::new(&name, None, 3.0).unwrap_or_else(|e| panic!("{}", message(e)));
        s.frame(-1);
        let f = s.last_frame();
        if f.x.is_empty() {
            continue;
        }
        let picked = s.pick(f64::from(f.x[0]), f64::from(f.y[0]));
        assert!(picked >= 0, "{name}: an agent is under its own centre");
        let i = picked as usize;
        assert!((f.x[i] - f.x[0]).hypot(f.y[i] - f.y[0]) <= 2.0 * f.radius[i].max(0.25));
        assert_eq!(s.pick(f64::NAN, 0.0), -1);
    }
}

#[wasm_bindgen_test]
fn bad_requests_are_errors_that_name_the_problem() {
    let Err(e) = CrowdScene::new("<script>", None, 1.0) else { panic!("unknown scene") };
    assert!(message(e).contains("<script>"));
    let Err(e) = CrowdScene::new("circle", Some(-5.0), 1.0) else { panic!("negative agents") };
    assert!(message(e).contains("agents"));
    let Err(e) = CrowdScene::new("circle", Some(1e9), 1.0) else { panic!("too many agents") };
    assert!(message(e).contains("100000"));
    let Err(e) = CrowdScene::new("circle", None, f64::NAN) else { panic!("NaN seed") };
    assert!(message(e).contains("seed"));
    for name in names() {
        let mut s = CrowdScene::new(&name, None, 1.0).unwrap_or_else(|e| panic!("{}", message(e)));
        let Err(e) = s.set_param("no-such-param", 1.0) else { panic!("{name}: unknown param") };
        assert!(message(e).contains("no-such-param"));
        let Err(e) = s.set_param("x", f64::NAN) else { panic!("{name}: NaN param") };
        assert!(message(e).contains("finite"));
        let Err(e) = s.act("no-such-action", 1.0, 1.0) else { panic!("{name}: unknown action") };
        assert!(message(e).contains("no-such-action"));
        // A failed reset keeps the scene.
        let before = s.count();
        assert!(s.reset("nope", None, 1.0).is_err());
        assert_eq!(s.count(), before);
        assert_eq!(s.name(), name);
    }
}
