//! libFuzzer entry of the `journal` target; the check is `damier_fuzz::journal` (`src/journal.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| damier_fuzz::journal::check(data));
