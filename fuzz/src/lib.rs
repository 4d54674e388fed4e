//! The fuzz targets' checks, one module per parser: each `check` panics on a fault. The
//! cargo-fuzz binaries (`fuzz_targets/`) call them under libFuzzer; the unit test in
//! `corpus.rs` runs them on the committed corpora, on the stable compiler (CI does).

pub mod board_text;
pub mod journal;
pub mod moves;
pub mod pbm;
pub mod placement;
pub mod position;
pub mod share;

#[cfg(test)]
mod corpus;
