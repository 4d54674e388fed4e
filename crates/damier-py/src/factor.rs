//! `damier.factor`: factoring N by the cellular automaton of local signals.

use damier::factor::run::FactorRequest;
use damier::factor::{DEFAULT_EPS, DEFAULT_MAX_STEPS, DEFAULT_Q, FactorParams};
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
        errors::value(format!("n = {n} is out of range: {} is supported", damier::util::range(2, u64::MAX)))
    })?;
    let params = FactorParams { q, eps }.validated().or_raise()?;
    let max_steps = numbers::u64_in("max_steps", max_steps, 0..=u64::MAX)?;
    let seed = numbers::seed(seed)?;
    let record = match FactorRequest::new(n, &params, seed, max_steps)
        .map_err(|e| errors::value(format!("nothing to factor: {e}")))?
    {
        FactorRequest::Prime(record) => record,
        FactorRequest::Run(run) => {
            if let Some(warning) = &run.warning {
                // The CLI's warning.
                errors::warn(py, &warning.to_string())?;
            }
            worker::run(py, move |control| run.run(control))?.or_raise()?
        }
    };
    records::dict(py, &record)
}
