//! libFuzzer on a graph file in Pathlab's JSON format: every rule of `pathlab_fuzz::check` on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pathlab_fuzz::Target::GraphJson.assert_holds(data));
