//! Pathlab's crowd page in the browser: a thin `wasm-bindgen` layer over
//! `pathlab_core::crowd` (every crowd scene through one handle, [`CrowdScene`]), the street's
//! path-finders compared ([`StreetComparison`]) and the crowd benchmarks ([`FlowBench`],
//! [`OrcaBench`]).
//!
//! This is a module of its own, so the path-finding and boid pages do not download the crowd
//! scenes. Every fallible call returns a `JsError` whose message names the problem; none
//! panics.

mod bench;
mod crowd;
mod street;
pub use bench::{FlowBench, OrcaBench};
pub use crowd::{CrowdScene, MAX_AGENT_STEPS_PER_CALL, MAX_CROWD_AGENTS, MAX_CROWD_STEPS_PER_CALL};
pub use street::StreetComparison;

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The page's clock, in milliseconds.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Installs the panic hook that forwards a Rust panic's message to the browser console, and
/// gives the street's planners the page's clock (`performance.now`; WebAssembly has none).
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    pathlab_core::crowd::street_plan::set_clock(performance_now);
}
