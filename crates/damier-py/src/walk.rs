//! `damier.walk`: the pawn walk ("Promenade binaire").

use damier::walk::{self, Method, path};
use pyo3::prelude::*;

use crate::errors::{self, OrRaise};
use crate::{arrays, numbers, worker};

/// Registers `damier.walk`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = crate::submodule::submodule(
        parent,
        "walk",
        "The pawn walk (\"Promenade binaire\"): a pawn lands first on the bottom-left cell of an \
         all-white board of rows x cols, each landing flips that cell and its N/S/E/W neighbours; \
         walk it so that the board ends all black.",
    )?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    Ok(())
}

/// One solution of the rows x cols board: (activation, moves). activation is a bool array of
/// shape (rows, cols), top row first: the cells landed on an odd number of times; moves is
/// the walk as letters N, S, E, W from the bottom-left cell, checked by replaying it.
/// method: "fast" (default), "poly", "rows" or "brute" (small boards). rows * cols <= 2**24.
/// Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (rows, cols, *, method="fast"))]
fn solve<'py>(
    py: Python<'py>,
    rows: i128,
    cols: i128,
    method: &str,
) -> PyResult<(Bound<'py, PyAny>, String)> {
    // The library's names; the message in Python's words.
    let method: Method = method.parse().map_err(|_| {
        errors::value(format!("method = {method:?}: expected \"fast\", \"poly\", \"rows\" or \"brute\""))
    })?;
    let size = walk::board_size(numbers::side("rows", rows)?, numbers::side("cols", cols)?).or_raise()?;
    let (activation, moves) = worker::run(py, move |control| -> PyResult<_> {
        let solutions = walk::solve(size, method, control).or_raise()?;
        let moves = path::solution_path(size, &solutions.particular, control).or_raise()?;
        Ok((solutions.particular, path::moves_to_string(&moves)))
    })??;
    Ok((arrays::from_board(py, &activation)?, moves))
}
