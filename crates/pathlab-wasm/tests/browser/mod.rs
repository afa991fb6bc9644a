//! What the wasm crates' tests in headless Chromium share: reading a `JsError`'s message,
//! unwrapping results that must succeed or must be refused, a field of a plain JS object, the
//! wasm memory behind the zero-copy views, and the course's 5x5 example.
//!
//! `pathlab-wasm`'s tests take it in with `mod browser;`, the other wasm crates with
//! `#[path = "../../pathlab-wasm/tests/browser/mod.rs"] mod browser;`.

#![allow(dead_code)]

use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The course's 5x5 example: start A (3,1), goal B (0,3), walls (2,1) (2,2) (3,2).
pub const COURSE_5X5: &str = "5\n5\n00000\n001A0\n00110\nB0000\n00000\n";

/// The message of a `JsError`, read back from the JS `Error` object it becomes.
pub fn message(e: JsError) -> String {
    let value = JsValue::from(e);
    let error = value.dyn_into::<js_sys::Error>().expect("a JsError is a JS Error");
    String::from(error.message())
}

/// The value of a result that must succeed; panics with the refusal's message otherwise.
pub fn ok<T>(r: Result<T, JsError>) -> T {
    r.unwrap_or_else(|e| panic!("unexpected error: {}", message(e)))
}

/// The message of a result that must be refused; panics when it succeeds.
pub fn refused<T>(r: Result<T, JsError>) -> String {
    match r {
        Ok(_) => panic!("expected a refusal"),
        Err(e) => message(e),
    }
}

/// A field of a plain JS object.
pub fn field(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).expect("an object")
}

/// The buffer of the wasm memory, which the zero-copy pointers index.
pub fn memory() -> js_sys::ArrayBuffer {
    wasm_bindgen::memory().dyn_into::<js_sys::WebAssembly::Memory>().unwrap().buffer().dyn_into().unwrap()
}
