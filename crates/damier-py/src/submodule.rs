//! The Python submodules (`damier.queens`, ...): made here, below the files that fill them, so
//! that every import of the crate points one way (`lib.rs` registers the files, the files use
//! this one).

use pyo3::prelude::*;

/// Adds the submodule `name` (with its docstring) to `parent`.
pub(crate) fn submodule<'py>(
    parent: &Bound<'py, PyModule>,
    name: &str,
    doc: &str,
) -> PyResult<Bound<'py, PyModule>> {
    let m = PyModule::new(parent.py(), name)?;
    m.setattr("__doc__", doc)?;
    parent.add_submodule(&m)?;
    Ok(m)
}
