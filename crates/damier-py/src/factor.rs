//! `damier.factor`: factoring N by the cellular automaton of local signals.

use std::time::Instant;

use damier::control::Stop;
use damier::factor::run::{CapWarning, Factoring};
use damier::factor::{DEFAULT_EPS, DEFAULT_MAX_STEPS, DEFAULT_Q, FactorAutomaton, FactorError, FactorParams};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{self, OrRaise};
use crate::{numbers, records, worker};

/// Factors n (2..=2**64-1) with the automaton whose cells exchange local signals along the
/// grid of a binary multiplication: the dict `damier factor N --json` prints (n, factors as
/// two decimal strings or None, steps, seconds, seed, flips, prime, censored, q, eps). seed:
/// drawn at random when None (the dict carries it); q, eps: the flip probabilities, in (0, 1];
/// max_steps: the step cap. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (n, *, seed=None, q=DEFAULT_Q, eps=DEFAULT_EPS, max_steps=DEFAULT_MAX_STEPS as i128))]
pub fn factor<'py>(
    py: Python<'py>,
    n: i128,
    seed: Option<i128>,
    q: f64,
    eps: f64,
    max_steps: i128,
) -> PyResult<Bound<'py, PyDict>> {
    let n = u64::try_from(n).map_err(|_| {
        errors::value(format!("n = {n} is out of range: 2..=18446744073709551615 (2^64 - 1)"))
    })?;
    let params = FactorParams { q, eps }.validated().or_raise()?;
    let max_steps = numbers::u64_in("max_steps", max_steps, 0..=u64::MAX)?;
    let seed = numbers::seed(seed)?;
    let clock = Instant::now();
    let record = match FactorAutomaton::new(n, &params, seed) {
        Err(FactorError::Prime(_)) => Factoring::prime(n, &params, seed, clock.elapsed().as_secs_f64()),
        Err(e) => return Err(errors::value(format!("nothing to factor: {e}"))),
        Ok(mut automaton) => {
            if let Some(warning) = CapWarning::of(n, max_steps) {
                // The CLI's warning.
                errors::warn(py, &warning.to_string())?;
            }
            let run = worker::run(py, move |control| automaton.run_until(max_steps, &Stop::new(control)))?
                .or_raise()?;
            Factoring::of_run(&run, &params, clock.elapsed().as_secs_f64())
        }
    };
    records::dict(py, &record)
}
