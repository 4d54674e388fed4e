//! The n-queens problem, exhaustive and constructive (SPEC §1, seed 004).

pub mod count;

pub use count::{CountError, Counts, count};
