//! The library's records (the JSON objects `damier ... --json` prints) as Python dicts:
//! serialized by the library's own `serde` form and read back by Python's `json`, so Python,
//! the CLI and the web lab return the same keys and values.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;

/// `record` as a dict with the keys of its JSON form.
pub fn dict<'py>(py: Python<'py>, record: &impl serde::Serialize) -> PyResult<Bound<'py, PyDict>> {
    let text = serde_json::to_string(record).map_err(errors::internal)?;
    let value = py.import("json")?.call_method1("loads", (text,))?;
    Ok(value.cast_into::<PyDict>()?)
}
