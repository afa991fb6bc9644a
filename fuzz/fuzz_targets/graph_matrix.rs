//! libFuzzer on a graph file as a weight matrix: every rule of `pathlab_fuzz::check` on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pathlab_fuzz::Target::GraphMatrix.assert_holds(data));
