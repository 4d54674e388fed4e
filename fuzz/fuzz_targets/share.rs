//! libFuzzer entry of the `share` target; the check is `damier_fuzz::share` (`src/share.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| damier_fuzz::share::check(data));
