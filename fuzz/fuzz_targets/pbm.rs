//! libFuzzer entry of the `pbm` target; the check is `damier_fuzz::pbm` (`src/pbm.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| damier_fuzz::pbm::check(data));
