//! Integer arguments checked into the library's types. Python integers arrive as `i128` (any
//! `int`, or an object with `__index__` such as a NumPy integer), so that a negative or huge
//! value is a `ValueError` naming the argument, not an `OverflowError`.

use pyo3::PyResult;

use crate::errors;

/// `value` as a `u32` in `range`, or a `ValueError` naming `name`.
pub fn u32_in(name: &str, value: i128, range: std::ops::RangeInclusive<u32>) -> PyResult<u32> {
    let v = u64_in(name, value, u64::from(*range.start())..=u64::from(*range.end()))?;
    Ok(u32::try_from(v).unwrap_or(u32::MAX))
}

/// `value` as a `u64` in `range`, or a `ValueError` naming `name`.
pub fn u64_in(name: &str, value: i128, range: std::ops::RangeInclusive<u64>) -> PyResult<u64> {
    match u64::try_from(value) {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(errors::value(format!(
            "{name} = {value} is out of range: {} is supported",
            damier::util::range(*range.start(), *range.end())
        ))),
    }
}

/// A board side (`usize`, at least 1; the library checks the cell count).
pub fn side(name: &str, value: i128) -> PyResult<usize> {
    // Not "1 to 2^64 - 1 is supported": a side is bounded by the cell count (issue 38, section 3).
    if value < 1 {
        return Err(errors::value(format!("{name} = {value} is out of range: a side is at least 1")));
    }
    usize::try_from(value)
        .map_err(|_| errors::value(format!("{name} = {value} is too large for this machine")))
}

/// A generator seed: the one given, or one drawn at random as the CLI does (the records
/// returned carry it, so any run can be replayed).
pub fn seed(value: Option<i128>) -> PyResult<u64> {
    match value {
        Some(v) => u64_in("seed", v, 0..=u64::MAX),
        None => Ok(rand::random::<u64>()),
    }
}
