//! libFuzzer on the course's data file: every rule of `pathlab_fuzz::check` on every input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pathlab_fuzz::Target::Course.assert_holds(data));
