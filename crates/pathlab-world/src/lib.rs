//! Pathlab's boids in the browser: a thin `wasm-bindgen` layer over `pathlab_core::boids`
//! ([`Boids`]).
//!
//! The package keeps the name `pathlab-world` although the thing is called boids everywhere
//! else in the Rust code: the pages load its output as `pkg/pathlab_world.js`, and the size
//! and module-graph checks name that file.
//!
//! This is a module of its own, separate from the path-finding page's `pathlab-wasm` and the
//! crowd page's `pathlab-crowd`, so each page downloads only the Rust it runs. Agents are read
//! by JavaScript through typed-array views on the module's memory at the pointers given here,
//! rebuilt every frame. Every fallible call returns a `JsError` whose message names the
//! problem; none panics.

mod boids;
pub use boids::{Boids, MAX_STEPS_PER_CALL};

/// Installs the panic hook that forwards a Rust panic's message to the browser console.
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
