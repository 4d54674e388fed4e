//! Counting all solutions and the classes up to the 8 symmetries of the square.
//!
//! Placeholder engine: a plain bitboard backtracker; unique classes by Burnside's lemma
//! (no solution with n >= 2 is fixed by a reflection, so
//! `unique = (total + F180 + 2 F90) / 8`, F90 and F180 counting the solutions fixed by
//! a quarter turn and a half turn).

use crate::control::{Control, Interrupted};

/// Largest n accepted: rows are bits of a `u32`-sized mask and counts fit a `u64` well past
/// the largest n anyone can count.
pub const MAX_N: u32 = 32;

/// Total and unique solution counts for one n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Board size.
    pub n: u32,
    /// All solutions (OEIS A000170).
    pub total: u64,
    /// Solutions distinct up to rotation and reflection (OEIS A002562).
    pub unique: u64,
}

/// Why a count could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// n is larger than [`MAX_N`].
    #[error("n = {0} is too large: at most {MAX_N} is supported")]
    TooLarge(u32),
    /// The computation was cancelled.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
}

/// Counts the solutions of n queens, total and up to symmetry, in one run.
pub fn count(n: u32, control: &Control) -> Result<Counts, CountError> {
    if n > MAX_N {
        return Err(CountError::TooLarge(n));
    }
    if n == 0 {
        return Ok(Counts { n, total: 1, unique: 1 });
    }
    let n = n as usize;
    let mut cols = vec![0usize; n];
    let (mut total, mut f90, mut f180) = (0u64, 0u64, 0u64);
    let mut cancelled = false;
    walk(n, 0, 0, 0, 0, &mut cols, &mut |c| {
        total += 1;
        let r180 = (0..n).all(|i| c[n - 1 - i] == n - 1 - c[i]);
        if r180 {
            f180 += 1;
            if (0..n).all(|i| c[c[i]] == n - 1 - i) {
                f90 += 1;
            }
        }
        if total % (1 << 20) == 0 && control.cancelled() {
            cancelled = true;
        }
    });
    if cancelled || control.cancelled() {
        return Err(Interrupted.into());
    }
    let unique = if n == 1 { 1 } else { (total + f180 + 2 * f90) / 8 };
    Ok(Counts { n: n as u32, total, unique })
}

fn walk(n: usize, row: usize, cols: u64, d1: u64, d2: u64, out: &mut [usize], f: &mut impl FnMut(&[usize])) {
    if row == n {
        f(out);
        return;
    }
    let full = (1u64 << n) - 1;
    let mut free = full & !(cols | d1 | d2);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        out[row] = bit.trailing_zeros() as usize;
        walk(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1, out, f);
    }
}
