//! libFuzzer entry of the `placement` target; the check is `damier_fuzz::placement` (`src/placement.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| damier_fuzz::placement::check(data));
