//! libFuzzer on a MovingAI .map file: every rule of `pathlab_fuzz::check` on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pathlab_fuzz::Target::MovingAiMap.assert_holds(data));
