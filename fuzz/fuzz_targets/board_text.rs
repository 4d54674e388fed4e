//! libFuzzer entry of the `board_text` target; the check is `damier_fuzz::board_text` (`src/board_text.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| damier_fuzz::board_text::check(data));
