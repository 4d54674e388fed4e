//! `damier.lights`: Lights Out over GF(2) on boards given as 2-D arrays.

use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;

use damier::board::{Board, PbmKind, Size};
use damier::lights::{self, Method};
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::errors::{self, OrRaise};
use crate::{arrays, numbers, worker};

/// Registers `damier.lights`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = crate::submodule::submodule(
        parent,
        "lights",
        "Lights Out over GF(2) (\"Le jeu du tout éteint\"): pressing a cell flips it and its \
         orthogonal neighbours. Boards are 2-D arrays of shape (height, width), bool or 0/1 \
         integers; results are bool arrays.",
    )?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(press, &m)?)?;
    m.add_function(wrap_pyfunction!(nullity, &m)?)?;
    m.add_function(wrap_pyfunction!(square_nullities, &m)?)?;
    m.add_function(wrap_pyfunction!(kernel, &m)?)?;
    m.add_function(wrap_pyfunction!(read_pbm, &m)?)?;
    m.add_function(wrap_pyfunction!(write_pbm, &m)?)?;
    Ok(())
}

/// The engine named `method`.
fn method(name: &str) -> PyResult<Method> {
    // The library's names; the message in Python's words.
    name.parse()
        .map_err(|_| errors::value(format!("method = {name:?}: expected \"poly\", \"chase\" or \"dense\"")))
}

/// Presses that turn `board` into `target` (all off when None), as a bool array of the
/// board's shape, verified by the library before it is returned; None when the target cannot
/// be reached. method: "poly" (default, any size), "chase" or "dense" (small boards).
/// Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (board, *, target=None, method="poly"))]
fn solve<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    target: Option<&Bound<'py, PyAny>>,
    method: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let method = self::method(method)?;
    let start = arrays::board(board, "board")?;
    let target = target.map(|t| arrays::board(t, "target")).transpose()?;
    let solution = worker::run(py, move |control| lights::solve(&start, target.as_ref(), method, control))?
        .or_raise()?;
    solution.presses.map(|p| arrays::from_board(py, &p)).transpose()
}

/// The board after pressing every cell that is on in `presses` (same shape), as a bool array.
#[pyfunction]
fn press<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    presses: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let start = arrays::board(board, "board")?;
    let presses = arrays::board(presses, "presses")?;
    if start.size() != presses.size() {
        return Err(errors::value(lights::LightsError::SizeMismatch {
            start: start.size(),
            target: presses.size(),
        }));
    }
    let after = py.detach(|| lights::apply_presses(&start, &presses));
    arrays::from_board(py, &after)
}

/// The nullity k of the press matrix of a width x height board: a winnable board has 2**k
/// solutions. nullity(5, 5) == 2.
#[pyfunction]
fn nullity(py: Python<'_>, width: i128, height: i128) -> PyResult<usize> {
    let size = size(width, height)?;
    Ok(py.detach(|| lights::nullity(size)))
}

/// The nullities of the n x n boards for n = 1..=n_max, as a 1-D int64 array (index n - 1):
/// the table of "Le jeu du tout éteint" (2**k solutions from all-on to all-off), up to 25 000
/// in seconds; n_max <= 100 000, as the CLI's `lights table`. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
fn square_nullities<'py>(py: Python<'py>, n_max: i128) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let n_max = numbers::u64_in("n_max", n_max, 1..=lights::TABLE_MAX_N)? as usize;
    let table = worker::run(py, move |control| lights::square_nullities(n_max, control))?.or_raise()?;
    Ok(PyArray1::from_iter(py, table.into_iter().map(|k| k as i64)))
}

/// A width x height size, checked by the library.
fn size(width: i128, height: i128) -> PyResult<Size> {
    Size::new(numbers::side("width", width)?, numbers::side("height", height)?).or_raise()
}

/// The most cells a kernel array may hold (`nullity · width · height`, a byte each in NumPy):
/// 2**30, 1 GiB.
const KERNEL_ARRAY_MAX_CELLS: u64 = 1 << 30;

/// A basis of the neutral configurations (presses that change nothing) of a width x height
/// board: a bool array of shape (nullity, height, width), one basis vector per layer; at most
/// 2**30 cells in all (refused before any work). Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (width, height, *, method="poly"))]
fn kernel<'py>(py: Python<'py>, width: i128, height: i128, method: &str) -> PyResult<Bound<'py, PyAny>> {
    let size = size(width, height)?;
    let method = self::method(method)?;
    let k = py.detach(|| lights::nullity(size));
    let cells = (k as u64).saturating_mul(size.cells() as u64);
    if cells > KERNEL_ARRAY_MAX_CELLS {
        return Err(errors::value(format!(
            "{}x{} has nullity {k}: a basis of {k} boards of {} cells is too large for an array \
             ({KERNEL_ARRAY_MAX_CELLS} cells at most)",
            size.width(),
            size.height(),
            size.cells()
        )));
    }
    let basis = worker::run(py, move |control| lights::kernel(size, method, control))?.or_raise()?;
    arrays::from_boards(py, size, &basis)
}

/// A PBM bitmap (plain P1 or raw P4) as a bool array; lit cells are 1 (black).
#[pyfunction]
fn read_pbm<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let file = std::fs::File::open(&path).map_err(|e| os_error(&path, "cannot read", e))?;
    let board = py
        .detach(|| Board::read_pbm(BufReader::with_capacity(1 << 20, file)))
        .map_err(|e| errors::value(format!("{}: {e}", path.display())))?;
    arrays::from_board(py, &board)
}

/// Writes a board as a PBM bitmap (raw P4, or plain P1 with plain=True), lit cells black;
/// written to a temporary file beside `path`, then renamed over it.
#[pyfunction]
#[pyo3(signature = (path, board, *, plain=false))]
fn write_pbm(py: Python<'_>, path: PathBuf, board: &Bound<'_, PyAny>, plain: bool) -> PyResult<()> {
    let board = arrays::board(board, "board")?;
    let kind = if plain { PbmKind::Plain } else { PbmKind::Raw };
    py.detach(|| -> std::io::Result<()> {
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => std::path::Path::new("."),
        };
        let mut file = tempfile::NamedTempFile::new_in(folder)?;
        {
            let mut out = BufWriter::with_capacity(1 << 20, file.as_file_mut());
            board.write_pbm(&mut out, kind)?;
            out.flush()?;
        }
        file.persist(&path).map_err(|e| e.error)?;
        Ok(())
    })
    .map_err(|e| os_error(&path, "cannot write", e))
}

/// An `OSError` (its subclass for `error`'s kind: `FileNotFoundError`, ...) naming the file.
fn os_error(path: &std::path::Path, doing: &str, error: std::io::Error) -> PyErr {
    PyErr::from(std::io::Error::new(error.kind(), format!("{doing} {}: {error}", path.display())))
}
