//! The library's errors as Python exceptions: bad input is a `ValueError` carrying the
//! library's message (the one the CLI prints after `damier: `), a bug of the library a
//! `RuntimeError`.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;

/// A `ValueError` with `error`'s message.
pub fn value(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A `TypeError` with `message`.
pub fn type_error(message: impl Into<String>) -> PyErr {
    PyTypeError::new_err(message.into())
}

/// A `RuntimeError`: the library checked its own answer and found it wrong (never expected).
pub fn internal(error: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(error.to_string())
}

/// Issues a `UserWarning` (what the CLI prints on stderr before a run it expects to fail),
/// pointing at the caller's line.
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let text = std::ffi::CString::new(message.replace('\0', " ")).map_err(internal)?;
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 2)
}

/// The library's errors, each to the exception its variant calls for.
pub trait ToPyErr {
    /// The exception to raise.
    fn to_py(self) -> PyErr;
}

impl ToPyErr for damier::lights::LightsError {
    fn to_py(self) -> PyErr {
        match self {
            damier::lights::LightsError::Unverified(_)
            | damier::lights::LightsError::WinnabilityDisagrees => internal(self),
            _ => value(self),
        }
    }
}

impl ToPyErr for damier::queens::construct::ConstructError {
    fn to_py(self) -> PyErr {
        match self {
            damier::queens::construct::ConstructError::Invalid { .. } => internal(self),
            _ => value(self),
        }
    }
}

impl ToPyErr for damier::queens::local::LocalError {
    fn to_py(self) -> PyErr {
        match self {
            damier::queens::local::LocalError::Invalid { .. } => internal(self),
            _ => value(self),
        }
    }
}

impl ToPyErr for damier::queens::solve::SolveError {
    fn to_py(self) -> PyErr {
        match self {
            damier::queens::solve::SolveError::Construct(e) => e.to_py(),
            damier::queens::solve::SolveError::Local(e) => e.to_py(),
            _ => value(self),
        }
    }
}

impl ToPyErr for damier::walk::WalkError {
    fn to_py(self) -> PyErr {
        match self {
            damier::walk::WalkError::PathUnverified { .. } => internal(self),
            _ => value(self),
        }
    }
}

/// Errors whose every variant is about the input (or an interruption, which the caller turns
/// into `KeyboardInterrupt` before it looks at the result).
macro_rules! input_errors {
    ($($t:ty),* $(,)?) => {
        $(impl ToPyErr for $t {
            fn to_py(self) -> PyErr {
                value(self)
            }
        })*
    };
}

input_errors!(
    damier::board::BoardError,
    damier::queens::CountError,
    damier::queens::reach::BeyondTheEngine,
    damier::queens::reach::CountRefused,
    damier::queens::search::SearchError,
    damier::queens::placement::PlacementError,
    damier::queens::count::tasks::TaskError,
    damier::automaton::AutomatonError,
    damier::factor::FactorError,
    damier::control::Interrupted,
);

/// `Result<T, E>` to `PyResult<T>` through [`ToPyErr`].
pub trait OrRaise<T> {
    /// The value, or the exception for the error.
    fn or_raise(self) -> pyo3::PyResult<T>;
}

impl<T, E: ToPyErr> OrRaise<T> for Result<T, E> {
    fn or_raise(self) -> pyo3::PyResult<T> {
        self.map_err(ToPyErr::to_py)
    }
}
