//! Pathlab's crowd page in the browser: a thin `wasm-bindgen` layer over
//! `pathlab_core::crowd` (every crowd scene through one handle, [`CrowdScene`]) and the crowd
//! benchmarks ([`FlowBench`], [`OrcaBench`]).
//!
//! This is a module of its own, so the path-finding and boid pages do not download the crowd
//! scenes. Every fallible call returns a `JsError` whose message names the problem; none
//! panics.

mod bench;
mod crowd;
pub use bench::{FlowBench, OrcaBench};
pub use crowd::{CrowdScene, MAX_AGENT_STEPS_PER_CALL, MAX_CROWD_AGENTS, MAX_CROWD_STEPS_PER_CALL};

/// Installs the panic hook that forwards a Rust panic's message to the browser console.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
