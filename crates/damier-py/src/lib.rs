//! `import damier`: the damier library from Python.
//!
//! This crate only converts: Python arguments into the library's types, the library's results
//! into Python objects (NumPy arrays for boards and placements, dicts for the records the CLI
//! prints with `--json`). Every computation is the library's. Long calls run on a worker
//! thread with the GIL released while the calling thread watches for Ctrl-C (`worker.rs`).
//!
//! The Python package around this module (`python/damier`: submodules, type stubs) and its
//! tests (`tests/`, pytest) are described in `docs/python.md`.
#![deny(missing_docs)]

mod arrays;
mod automaton;
mod errors;
mod factor;
mod lights;
mod numbers;
mod queens;
mod records;
mod submodule;
mod walk;
mod worker;

use pyo3::prelude::*;

/// The compiled module `damier._damier`; `damier/__init__.py` re-exports its submodules.
#[pymodule]
fn _damier(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    queens::register(m)?;
    lights::register(m)?;
    automaton::register(m)?;
    walk::register(m)?;
    m.add_function(wrap_pyfunction!(factor::factor, m)?)?;
    Ok(())
}
