//! libFuzzer entry of the `moves` target; the check is `damier_fuzz::moves` (`src/moves.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| damier_fuzz::moves::check(data));
