//! Boards and placements across the boundary as NumPy arrays, without a Python object per
//! cell: a board is a 2-D array of shape `(height, width)` (row `y` is `array[y]`, top row
//! first, as in the library's text format), read from `bool` or integer 0/1 cells and
//! returned as `bool`; a placement is a 1-D array of 0-based columns, one per row.

use damier::board::{Board, Size};
use damier::queens::Placement;
use numpy::ndarray::ArrayView2;
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
    dtype,
};
use pyo3::prelude::*;

use crate::errors::{self, OrRaise};

/// `object` as an array: itself when it is one, else `numpy.asarray(object)` (nested lists).
fn as_array<'py>(object: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyUntypedArray>> {
    if let Ok(a) = object.cast::<PyUntypedArray>() {
        return Ok(a.clone());
    }
    let a = object.py().import("numpy")?.call_method1("asarray", (object,))?;
    a.cast_into::<PyUntypedArray>().map_err(|_| errors::type_error("numpy.asarray did not return an array"))
}

/// The board held by a 2-D array of cells (`bool`, or integers that are 0 or 1). `what` names
/// the argument in errors.
pub fn board(object: &Bound<'_, PyAny>, what: &str) -> PyResult<Board> {
    let py = object.py();
    let array = as_array(object)?;
    if array.ndim() != 2 {
        return Err(errors::value(format!(
            "{what} must be a 2-D array (rows of cells), got {} dimension(s)",
            array.ndim()
        )));
    }
    let (height, width) = (array.shape()[0], array.shape()[1]);
    let size = Size::new(width, height).or_raise()?;
    let mut board = Board::new(size);
    let dt = array.dtype();
    // bool cells are bytes 0 and 1: read them as uint8, without a copy.
    let array = if dt.is_equiv_to(&dtype::<bool>(py)) {
        array.call_method1("view", (dtype::<u8>(py),))?.cast_into::<PyUntypedArray>()?
    } else {
        array
    };
    if let Ok(a) = array.cast::<PyArray2<u8>>() {
        let cells = a.try_readonly().map_err(errors::value)?;
        fill_bytes_rows(&mut board, cells.as_array(), what)?;
        return Ok(board);
    }
    macro_rules! integer_cells {
        ($($t:ty),*) => {
            $(if let Ok(a) = array.cast::<PyArray2<$t>>() {
                let cells = a.try_readonly().map_err(errors::value)?;
                fill(&mut board, cells.as_array(), what)?;
                return Ok(board);
            })*
        };
    }
    integer_cells!(i8, i16, u16, i32, u32, i64, u64);
    Err(errors::type_error(format!(
        "{what} must hold bool or integer cells (0 or 1), got dtype {}: threshold an image first (image > 0.5)",
        array.dtype()
    )))
}

/// The cell value that is neither 0 nor 1.
fn bad_cell(what: &str, y: usize, x: usize, value: impl std::fmt::Display) -> PyErr {
    errors::value(format!("{what}: cell (row {y}, column {x}) is {value}: cells are 0 or 1 (or bool)"))
}

/// Copies 0/1 cells of any integer type into `board` (same shape), cell by cell.
fn fill<T>(board: &mut Board, cells: ArrayView2<'_, T>, what: &str) -> PyResult<()>
where
    T: Copy + Into<i128> + std::fmt::Display,
{
    for (y, row) in cells.rows().into_iter().enumerate() {
        let words = board.row_mut(y);
        for (x, &c) in row.iter().enumerate() {
            match c.into() {
                0 => {}
                1 => words[x / 64] |= 1 << (x % 64),
                _ => return Err(bad_cell(what, y, x, c)),
            }
        }
    }
    Ok(())
}

/// Copies 0/1 byte cells into `board` (same shape): contiguous rows 8 cells at a time.
fn fill_bytes_rows(board: &mut Board, cells: ArrayView2<'_, u8>, what: &str) -> PyResult<()> {
    for (y, row) in cells.rows().into_iter().enumerate() {
        match row.as_slice() {
            Some(bytes) => {
                if let Some(x) = pack_row(bytes, board.row_mut(y)) {
                    return Err(bad_cell(what, y, x, bytes[x]));
                }
            }
            None => {
                let words = board.row_mut(y);
                for (x, &c) in row.iter().enumerate() {
                    match c {
                        0 => {}
                        1 => words[x / 64] |= 1 << (x % 64),
                        _ => return Err(bad_cell(what, y, x, c)),
                    }
                }
            }
        }
    }
    Ok(())
}

/// Packs a row of 0/1 bytes into words (bit `x % 64` of word `x / 64`); the index of the first
/// byte that is neither 0 nor 1, if any.
fn pack_row(bytes: &[u8], words: &mut [u64]) -> Option<usize> {
    for (i, (word, cells)) in words.iter_mut().zip(bytes.chunks(64)).enumerate() {
        let mut packed = 0u64;
        let mut stray = 0u64;
        for (k, eight) in cells.chunks(8).enumerate() {
            let mut b = [0u8; 8];
            b[..eight.len()].copy_from_slice(eight);
            let v = u64::from_le_bytes(b);
            stray |= v & 0xFEFE_FEFE_FEFE_FEFE;
            // PERF: byte j of v (0 or 1) times the constant lands on bit 56 + j and no two
            // partial products collide, so the top byte holds the 8 cells in order.
            packed |= (v.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
        }
        if stray != 0 {
            return cells.iter().position(|&c| c > 1).map(|x| 64 * i + x);
        }
        *word = packed;
    }
    None
}

/// Unpacks a row of words into 0/1 bytes (the inverse of [`pack_row`]).
fn unpack_row(words: &[u64], bytes: &mut [u8]) {
    for (word, cells) in words.iter().zip(bytes.chunks_mut(64)) {
        for (k, eight) in cells.chunks_mut(8).enumerate() {
            let b = (word >> (8 * k)) & 0xFF;
            // PERF: b copied into every byte, byte i keeps bit i (0 or 2^i), and adding 0x7F
            // to each byte carries into its top bit exactly when it is not 0.
            let spread =
                (b.wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201) + 0x7F7F_7F7F_7F7F_7F7F;
            let v = (spread & 0x8080_8080_8080_8080) >> 7;
            eight.copy_from_slice(&v.to_le_bytes()[..eight.len()]);
        }
    }
}

/// `board` as a `bool` array of shape `(height, width)`.
pub fn from_board<'py>(py: Python<'py>, board: &Board) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyArray2::<u8>::zeros(py, [board.height(), board.width()], false);
    fill_bytes(&bytes, std::slice::from_ref(board))?;
    bytes.call_method1("view", (dtype::<bool>(py),))
}

/// `boards` (all of `size`) as a `bool` array of shape `(len, height, width)`.
pub fn from_boards<'py>(py: Python<'py>, size: Size, boards: &[Board]) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyArray3::<u8>::zeros(py, [boards.len(), size.height(), size.width()], false);
    fill_bytes(&bytes, boards)?;
    bytes.call_method1("view", (dtype::<bool>(py),))
}

/// Writes the cells of `boards`, one after the other, into a fresh C-ordered `uint8` array.
fn fill_bytes<D: numpy::ndarray::Dimension>(
    array: &Bound<'_, numpy::PyArray<u8, D>>,
    boards: &[Board],
) -> PyResult<()> {
    let mut view = array.try_readwrite().map_err(errors::internal)?;
    let bytes = view.as_slice_mut().map_err(errors::internal)?;
    let mut rows = bytes.chunks_mut(boards.first().map_or(1, Board::width).max(1));
    for b in boards {
        for y in 0..b.height() {
            unpack_row(b.row(y), rows.next().expect("one row of bytes per board row"));
        }
    }
    Ok(())
}

/// A placement as a 1-D array of its 0-based columns.
pub fn from_placement<'py>(py: Python<'py>, p: &Placement) -> Bound<'py, PyArray1<u32>> {
    PyArray1::from_slice(py, p.columns())
}

/// 0-based columns from a 1-D array of any integer type, each below the array's length.
fn columns<T: Copy + Into<i128> + std::fmt::Display>(
    values: numpy::ndarray::ArrayView1<'_, T>,
) -> PyResult<Vec<u32>> {
    let n = values.len();
    let mut cols = Vec::with_capacity(n);
    for (row, &c) in values.iter().enumerate() {
        match u32::try_from(c.into()) {
            Ok(col) if (col as usize) < n => cols.push(col),
            _ => {
                return Err(errors::value(format!(
                    "column {c} (row {row}) is out of range: 0 to {} (0-based columns)",
                    n.saturating_sub(1)
                )));
            }
        }
    }
    Ok(cols)
}

/// A placement from a 1-D sequence of 0-based columns (any integer dtype). Out-of-range
/// columns are refused with 0-based numbers.
pub fn placement(object: &Bound<'_, PyAny>) -> PyResult<Placement> {
    let array = as_array(object)?;
    if array.ndim() != 1 {
        return Err(errors::value(format!(
            "columns must be a 1-D array (the 0-based column of each row's queen), got {} dimension(s)",
            array.ndim()
        )));
    }
    if array.len() == 0 {
        // (`numpy.asarray([])` is float64: refused for being empty, not for its dtype.)
        return Err(errors::value("empty placement: give one column per row"));
    }
    macro_rules! integer_columns {
        ($($t:ty),*) => {
            $(if let Ok(a) = array.cast::<PyArray1<$t>>() {
                let r = a.try_readonly().map_err(errors::value)?;
                return Placement::new(columns(r.as_array())?).or_raise();
            })*
        };
    }
    integer_columns!(i64, i32, u32, u64, i16, u16, i8, u8);
    Err(errors::type_error(format!("columns must be integers (0-based), got dtype {}", array.dtype())))
}
