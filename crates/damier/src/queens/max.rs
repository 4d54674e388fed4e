//! R(n): the largest number of non-attacking queens on an n x n board, with a witness.
//!
//! One queen per row at most, so R(n) <= n. For n <= [`SEARCH_MAX`], R(n) is computed by a
//! branch-and-bound search where a row may stay empty (the bound: queens placed + rows left
//! must beat the best so far); it finds R(0..3) = 0, 1, 1, 2 and R(n) = n above. Beyond that,
//! a full solution from the explicit construction is the witness that R(n) = n, up to
//! [`MAX_N`].
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::max::max_queens;
//!
//! assert_eq!(max_queens(3, &Control::new()).unwrap().max, 2);
//! assert_eq!(max_queens(8, &Control::new()).unwrap().max, 8);
//! ```

use crate::control::{Control, Interrupted};
use crate::queens::construct::{self, ConstructError};
use crate::queens::placement::try_check_owned;
use crate::util::{OutOfMemory, check_fits, try_with_capacity};

/// Largest n decided by exhaustive branch-and-bound search [default: 10].
pub const SEARCH_MAX: u32 = 10;

/// Largest n accepted: 160 MB at the limit ([`BYTES_PER_ROW`]).
pub const MAX_N: u32 = 10_000_000;

/// Bytes held per row at once: the witness (an `Option<u32>`, 8 bytes) and the independent
/// checker's copy of the queens (8 bytes); the construction's own 4 bytes a row and 5 bits of
/// occupancy come and go before the check.
pub const BYTES_PER_ROW: u64 = 16;

/// How R(n) was established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum Method {
    /// Branch-and-bound search over all placements (rows may be empty).
    Search,
    /// A full solution from the explicit construction (R(n) <= n is the bound).
    Construction,
}

/// R(n) and a placement reaching it (serialised with the witness as `columns`, 1-based, 0 for
/// an empty row).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Max {
    /// Board size.
    pub n: u32,
    /// R(n).
    pub max: u64,
    /// For each row, the 0-based column of its queen, or `None` for an empty row.
    #[cfg_attr(feature = "serde", serde(rename = "columns", serialize_with = "one_based_or_zero"))]
    pub witness: Vec<Option<u32>>,
    /// How it was found.
    pub method: Method,
}

/// Writes a witness as 1-based columns, 0 for an empty row.
#[cfg(feature = "serde")]
fn one_based_or_zero<S: serde::Serializer>(witness: &[Option<u32>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(witness.iter().map(|c| c.map_or(0, |c| u64::from(c) + 1)))
}

impl Max {
    /// True when the witness passes the independent checker
    /// ([`check_queens`](crate::queens::placement::check_queens)): `max` queens
    /// on the n x n board, at most one per row, no two attacking.
    pub fn is_valid(&self) -> bool {
        self.try_is_valid().unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Max::is_valid`], or [`OutOfMemory`] when the checker's copy cannot be allocated.
    pub fn try_is_valid(&self) -> Result<bool, OutOfMemory> {
        let mut queens = try_with_capacity(self.witness.iter().flatten().count())?;
        queens.extend(self.witness.iter().enumerate().filter_map(|(r, c)| c.map(|c| (r as u32, c))));
        Ok(queens.len() as u64 == self.max
            && self.witness.len() == self.n as usize
            && try_check_owned(self.n, queens)?.is_valid())
    }
}

/// Why R(n) could not be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaxError {
    /// Above [`MAX_N`].
    #[error(
        "n = {0} is too large: at most {MAX_N} (the witness is stored and checked, {BYTES_PER_ROW} bytes per row)"
    )]
    TooLarge(u32),
    /// The allocator refused the witness or its check: what `n` needs ([`BYTES_PER_ROW`]).
    #[error("n = {n} holds {} ({BYTES_PER_ROW} bytes per row): {source}", crate::util::bytes_text(*need))]
    OutOfMemory {
        /// The board size.
        n: u32,
        /// Bytes needed.
        need: u64,
        /// What was refused.
        source: OutOfMemory,
    },
    /// The construction refused n (too large).
    #[error(transparent)]
    Construct(#[from] ConstructError),
    /// Cancelled.
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// The witness failed the independent checker: a bug, reported rather than printed.
    #[error("internal error: the witness for n = {0} does not check")]
    Invalid(u32),
}

/// R(n) when it is less than n, that is when no n queens fit without attacking (n = 2, 3):
/// `Some(R(n))`; `None` when R(n) = n. Searched below n = 4 (instantly), R(n) = n from 4 on.
pub fn unsolvable(n: u32) -> Result<Option<u64>, MaxError> {
    if n >= 4 {
        return Ok(None);
    }
    let most = max_queens(n, &Control::new())?.max;
    Ok((most < u64::from(n)).then_some(most))
}

struct Bnb<'a> {
    n: u32,
    full: u64,
    cur: Vec<Option<u32>>,
    best: Vec<Option<u32>>,
    best_len: u32,
    control: &'a Control,
    nodes: u64,
}

impl Bnb<'_> {
    fn go(&mut self, row: u32, placed: u32, v: u64, g: u64, d: u64) -> Result<(), Interrupted> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1 << 14) && self.control.cancelled() {
            return Err(Interrupted);
        }
        if row == self.n {
            if placed > self.best_len {
                self.best_len = placed;
                self.best = self.cur.clone();
            }
            return Ok(());
        }
        // Even filling every remaining row cannot beat the best: prune.
        if placed + (self.n - row) <= self.best_len {
            return Ok(());
        }
        let mut free = self.full & !(v | g | d);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.cur[row as usize] = Some(bit.trailing_zeros());
            self.go(row + 1, placed + 1, v | bit, (g | bit) << 1, (d | bit) >> 1)?;
            self.cur[row as usize] = None;
            if self.best_len == self.n {
                return Ok(());
            }
        }
        // Leave this row empty: the diagonals still move on by one row.
        self.go(row + 1, placed, v, g << 1, d >> 1)
    }
}

/// R(n) with a witness: by search for n <= [`SEARCH_MAX`], by construction above.
pub fn max_queens(n: u32, control: &Control) -> Result<Max, MaxError> {
    if n <= SEARCH_MAX {
        let mut b = Bnb {
            n,
            full: (1u64 << n) - 1,
            cur: vec![None; n as usize],
            best: vec![None; n as usize],
            best_len: 0,
            control,
            nodes: 0,
        };
        b.go(0, 0, 0, 0, 0)?;
        return Ok(Max { n, max: u64::from(b.best_len), witness: b.best, method: Method::Search });
    }
    if n > MAX_N {
        return Err(MaxError::TooLarge(n));
    }
    let need = u64::from(n) * BYTES_PER_ROW;
    let oom = |source| MaxError::OutOfMemory { n, need, source };
    check_fits(need).map_err(oom)?;
    // Checked by the occupancy (5n bits), then written straight into the witness.
    construct::check_with(n, control)?;
    let mut witness = try_with_capacity(n as usize).map_err(oom)?;
    witness.extend((0..n).map(|r| Some(construct::column(n, r))));
    Ok(Max { n, max: u64::from(n), witness, method: Method::Construction })
}

/// [`max_queens`], its witness checked by the independent checker ([`Max::is_valid`]) before
/// it is returned.
pub fn max_queens_checked(n: u32, control: &Control) -> Result<Max, MaxError> {
    let m = max_queens(n, control)?;
    let need = u64::from(n) * BYTES_PER_ROW;
    if !m.try_is_valid().map_err(|source| MaxError::OutOfMemory { n, need, source })? {
        return Err(MaxError::Invalid(n));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::placement::check_queens;

    /// Brute force over every subset of squares, for tiny boards.
    fn brute(n: u32) -> u64 {
        let cells = n * n;
        (0u32..1 << cells)
            .filter_map(|mask| {
                let qs: Vec<(u32, u32)> =
                    (0..cells).filter(|i| mask >> i & 1 == 1).map(|i| (i / n, i % n)).collect();
                check_queens(n, &qs).is_valid().then_some(qs.len() as u64)
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn small_values_by_search_with_checked_witnesses() {
        let c = Control::new();
        let expect = [0, 1, 1, 2, 4, 5, 6, 7, 8, 9, 10];
        for n in 0..=SEARCH_MAX {
            let m = max_queens(n, &c).unwrap();
            assert_eq!(m.max, expect[n as usize], "n = {n}");
            assert_eq!(m.method, Method::Search);
            assert!(m.is_valid(), "n = {n}");
        }
        for n in 0..=4 {
            assert_eq!(max_queens(n, &c).unwrap().max, brute(n), "n = {n}");
        }
    }

    #[test]
    fn large_n_by_construction() {
        let m = max_queens(1000, &Control::new()).unwrap();
        assert_eq!((m.max, m.method), (1000, Method::Construction));
        assert!(m.is_valid());
        assert_eq!(max_queens_checked(1000, &Control::new()), Ok(m.clone()));
        // A witness that is wrong is caught: two queens on one diagonal, or one queen short.
        let mut attacking = m.clone();
        attacking.witness.swap(0, 1);
        attacking.witness[1] = attacking.witness[0].map(|c| c + 1);
        assert!(!attacking.is_valid());
        let short = Max { max: m.max + 1, ..m };
        assert!(!short.is_valid());
    }

    #[test]
    fn the_limit_states_what_is_held() {
        // Issue 49: n = 10^7 took 5.6 GB (a hash map entry per queen and line); the witness and
        // the checker's copy now hold 16 bytes a row, 160 MB at the limit.
        assert_eq!(u64::from(MAX_N) * BYTES_PER_ROW, 160_000_000);
        assert_eq!(
            BYTES_PER_ROW,
            size_of::<Option<u32>>() as u64 + crate::queens::placement::CHECK_BYTES_PER_QUEEN
        );
        let m = max_queens_checked(100_003, &Control::new()).unwrap();
        assert_eq!((m.max, m.witness.len()), (100_003, 100_003));
        assert_eq!(max_queens(MAX_N + 1, &Control::new()), Err(MaxError::TooLarge(MAX_N + 1)));
        assert!(MaxError::TooLarge(MAX_N + 1).to_string().contains("16 bytes per row"));
    }
}
