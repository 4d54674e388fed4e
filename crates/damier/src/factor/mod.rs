//! Factoring N by a stochastic, asynchronous cellular automaton with local signals: the
//! closing idea of the automaton report (its fig. 9), built and measured.
//!
//! The binary multiplication `a × b` is a grid of shifted copies of `a`, one row per bit of
//! `b`. Border cells hold the bits of `a` and `b`; every interior cell carries signals
//! computed from its neighbours only (the bits along its row and diagonal, their product, the
//! running column sum, the carries along the column feet, and a verdict sent back up each
//! column). Border cells flip their bit at random, guided by the verdict they read. The only
//! absorbing configurations are correct factorizations `N = a × b`, `1 < a ≤ b < N`. The
//! model, its parameters and what it adds to the automaton report are in `docs/factor.md`.
//!
//! ## Contents
//!
//! - [`FactorAutomaton`]: the state and its update rule ([`FactorAutomaton::step`]), absorption, the
//!   signals of each cell for a live view;
//! - [`run`]: one run with a step cap and a [`Control`](crate::control::Control), many
//!   independent seeded runs in parallel;
//! - [`sweep`]: the sweep over sizes with its baselines, its statistics and figure points;
//! - [`arith`]: the deterministic primality test, trial division and Pollard's rho
//!   baselines, random balanced semiprimes;
//! - [`sat`]: the same multiplication grid as clauses for the CDCL solver `varisat` (a third
//!   baseline).
//!
//! ```
//! use damier::factor::{FactorAutomaton, FactorParams};
//!
//! let mut au = FactorAutomaton::new(143, &FactorParams::default(), 7).unwrap();
//! while !au.run_steps(1_000_000) {}
//! assert_eq!(au.factors(), Some((11, 13)));
//! ```

pub mod arith;
mod grid;
pub mod run;
pub mod sat;
pub mod sweep;

pub use grid::{ECHO_A, ECHO_B, FactorAutomaton, LOW, STUCK, Signals, Site, is_factorization};
pub use run::{FactorRun, run_samples};

use crate::control::Interrupted;

/// Default probability that a border cell flips its bit when its column is the lowest wrong
/// one. [range: (0, 1]]
pub const DEFAULT_Q: f64 = 0.5;

/// Default noise: probability that a border cell flips its bit when the lowest wrong column
/// cannot be fixed by its own border bits (the verdict "stuck"). [range: (0, 1]]
pub const DEFAULT_EPS: f64 = 0.02;

/// Default step cap of one run.
pub const DEFAULT_MAX_STEPS: u64 = 2_000_000_000;

/// The automaton's two probabilities.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FactorParams {
    /// Flip probability on the verdict "this column is the lowest wrong one".
    /// [default: 0.5] [range: (0, 1]]
    pub q: f64,
    /// Flip probability on the verdict "stuck" (the lowest wrong column has no bit to fix it).
    /// [default: 0.02] [range: (0, 1]]; 0 would let a wrong configuration freeze.
    pub eps: f64,
}

impl Default for FactorParams {
    fn default() -> FactorParams {
        FactorParams { q: DEFAULT_Q, eps: DEFAULT_EPS }
    }
}

impl FactorParams {
    /// Checks both probabilities are in `(0, 1]`.
    pub fn validated(self) -> Result<FactorParams, FactorError> {
        for (name, value) in [("q", self.q), ("eps", self.eps)] {
            if !(value > 0.0 && value <= 1.0) {
                return Err(FactorError::Probability { name, value });
            }
        }
        Ok(self)
    }
}

/// Why there is nothing to run, or why a run stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FactorError {
    /// 0 and 1 have no factorization into two factors above 1, and are not prime either.
    #[error("{0} has no factorization to look for: the number must be at least 2")]
    TooSmall(u64),
    /// A prime has no factorization `a × b` with `1 < a ≤ b`.
    #[error("{0} is prime: it has no factorization a x b with 1 < a <= b")]
    Prime(u64),
    /// A probability outside `(0, 1]` (or not a number).
    #[error("{name} = {} is not a probability in (0, 1]", crate::util::given(*value))]
    Probability {
        /// `q` or `eps`.
        name: &'static str,
        /// The rejected value.
        value: f64,
    },
    /// Border bits wider than the grid.
    #[error("border a = {a}, b = {b} does not fit the grid of {la} and {lb} bits")]
    Border {
        /// Requested a.
        a: u64,
        /// Requested b.
        b: u64,
        /// Bits of a.
        la: usize,
        /// Bits of b.
        lb: usize,
    },
    /// A sweep size outside the supported range.
    #[error("semiprime size {0} bits is out of range: 6 to 64 is supported")]
    Bits(u32),
    /// Cancelled.
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
}
