//! # damier — board problems, exactly and fast
//!
//! `damier` (French for *checkerboard*) solves the board problems of four French documents
//! (the README's Sources name them by title and say what was taken from each):
//!
//! - [`queens`]: the n-queens problem, exhaustive (counts, symmetry classes, listing),
//!   constructive (one solution for huge n) and checking;
//! - [`automaton`]: n queens solved by a stochastic, asynchronous cellular automaton whose
//!   cells exchange local signals (two models);
//! - [`lights`]: Lights Out over GF(2): solve, count, kernel, winnable boards, light chasing;
//! - [`factor`]: factoring N by a cellular automaton whose cells exchange local signals
//!   along the grid of a binary multiplication (the closing idea of the report "Le problème des n reines");
//! - [`walk`]: the pawn walk ("promenade binaire"): turn a board all black by walking a pawn.
//!
//! The shared pieces are [`gf2`] (bit-packed linear algebra over GF(2)) and [`control`]
//! (cancellation and progress for long computations, without any terminal dependency);
//! [`util`] holds the glue lent to the front ends (thread pools, the format of numbers in
//! messages, the checksums' hash), which is not puzzle API.
//!
//! ## Example
//!
//! ```
//! use damier::gf2::{BitMatrix, BitVec};
//!
//! // x0 + x1 = 1, x1 = 1 over GF(2): x0 = 0, x1 = 1.
//! let mut m = BitMatrix::zeros(2, 2);
//! m.set(0, 0, true);
//! m.set(0, 1, true);
//! m.set(1, 1, true);
//! let rhs = BitVec::from_bools(&[true, true]);
//! let solution = m.solve(&rhs).expect("the system is solvable");
//! assert_eq!(solution.to_bools(), vec![false, true]);
//! ```
#![deny(missing_docs)]

pub mod automaton;
pub mod board;
mod clock;
pub mod control;
pub mod cpu;
pub mod factor;
pub mod gf2;
pub mod lights;
pub mod queens;
mod random;
pub mod stats;
pub mod util;
pub mod walk;

/// The crate's README (its front page on a registry), whose example runs with the doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
