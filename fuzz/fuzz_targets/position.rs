//! libFuzzer entry of the `position` target; the check is `damier_fuzz::position` (`src/position.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| damier_fuzz::position::check(data));
