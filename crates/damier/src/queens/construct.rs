//! One solution for any n >= 4 by an explicit formula, checked before use.
//!
//! The construction of Hoffman, Loessi and Moore (1969), in the form popularised by
//! Bernhardsson (1991): write the even columns `2, 4, …` then the odd ones `1, 3, …`
//! (1-based), one per row, with two repairs:
//! - n mod 6 = 2: swap 1 and 3 in the odd list and move 5 to its end
//!   (`2 4 … n, 3 1 7 9 … n-1 5`);
//! - n mod 6 = 3: move 2 to the end of the even list and 1, 3 to the end of the odd list
//!   (`4 6 … n-1 2, 5 7 … n 1 3`).
//!
//! [`column()`] gives the queen of any row in O(1), so a huge solution can be verified
//! ([`check`], O(n) time, 5n bits of occupancy) and then streamed without ever storing its
//! columns; [`solve`] stores them as `u32` for callers that want a [`Placement`].
//!
//! ```
//! use damier::queens::construct;
//!
//! let p = construct::solve(1000).unwrap(); // checked before it is returned
//! assert!(p.is_valid());
//! assert_eq!(construct::column(1000, 0), p.columns()[0]);
//! construct::check(1_000_000).unwrap(); // the formula for n = 10^6, checked in O(n)
//! assert!(construct::solve(3).is_err());
//! ```

use crate::control::{Control, Interrupted};
use crate::queens::Placement;
use crate::queens::placement::{Occupancy, OccupancyError};

/// Largest n accepted (10^9): verifying it takes 5n bits ≈ 625 MB of occupancy; storing it
/// with [`solve`] takes 4 more bytes per row.
pub const MAX_N: u32 = 1_000_000_000;

/// Why no construction was produced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConstructError {
    /// n = 2 or 3 have no solution; n = 0 and 1 are trivial and not covered by the formula.
    #[error("n = {0}: the construction covers n >= 4 (n = 2 and 3 have no solution)")]
    TooSmall(u32),
    /// Above [`MAX_N`].
    #[error("n = {n} is too large: at most {MAX_N} (verification needs 5n bits, {mb} MB here)", mb = Occupancy::bytes_for(*n) / 1_000_000)]
    TooLarge {
        /// The n asked for.
        n: u32,
    },
    /// The verification's occupancy (5n bits) cannot fit the address-space limit.
    #[error("n = {n}: verifying the construction holds {} (5n bits): {source}", crate::util::bytes_text(Occupancy::bytes_for(*n)))]
    OutOfMemory {
        /// The n asked for.
        n: u32,
        /// The refusal.
        source: crate::util::OutOfMemory,
    },
    /// Cancelled through the [`Control`].
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// The verifier rejected the formula's output: a bug, reported rather than printed.
    #[error("internal error: the construction for n = {n} failed its check: {source}")]
    Invalid {
        /// The board size.
        n: u32,
        /// What the verifier found.
        source: OccupancyError,
    },
}

fn validate(n: u32) -> Result<(), ConstructError> {
    if n < 4 {
        return Err(ConstructError::TooSmall(n));
    }
    if n > MAX_N {
        return Err(ConstructError::TooLarge { n });
    }
    Ok(())
}

/// The 0-based column of the queen on 0-based row `row` of the construction for `n`
/// (requires `4 <= n` and `row < n`).
pub fn column(n: u32, row: u32) -> u32 {
    debug_assert!(n >= 4 && row < n);
    // In u64: 2 (row + 1) may pass u32::MAX for n near it.
    let (n, row) = (u64::from(n), u64::from(row));
    let evens = n / 2;
    let odds = n - evens;
    // 1-based column from the two lists.
    let one_based = match n % 6 {
        2 => {
            if row < evens {
                2 * (row + 1)
            } else {
                match row - evens {
                    0 => 3,
                    1 => 1,
                    j if j == odds - 1 => 5,
                    j => 2 * j + 3,
                }
            }
        }
        3 => {
            if row < evens {
                if row == evens - 1 { 2 } else { 2 * row + 4 }
            } else {
                match row - evens {
                    j if j == odds - 2 => 1,
                    j if j == odds - 1 => 3,
                    j => 2 * j + 5,
                }
            }
        }
        _ => {
            if row < evens {
                2 * (row + 1)
            } else {
                2 * (row - evens) + 1
            }
        }
    };
    // Below n: fits a u32.
    (one_based - 1) as u32
}

/// Checks the construction for `n` row by row with an [`Occupancy`] (O(n) time).
pub fn check(n: u32) -> Result<(), ConstructError> {
    check_with(n, &Control::new())
}

/// [`check`], polling `control` and advancing it by one unit per row (in blocks of 2^20).
pub fn check_with(n: u32, control: &Control) -> Result<(), ConstructError> {
    const BLOCK: u32 = 1 << 20;
    validate(n)?;
    crate::util::check_fits(Occupancy::bytes_for(n))
        .map_err(|source| ConstructError::OutOfMemory { n, source })?;
    let mut occ = Occupancy::new(n);
    let mut start = 0;
    while start < n {
        if control.cancelled() {
            return Err(Interrupted.into());
        }
        let end = n.min(start.saturating_add(BLOCK));
        for row in start..end {
            occ.push(u64::from(column(n, row))).map_err(|source| ConstructError::Invalid { n, source })?;
        }
        control.advance(u64::from(end - start));
        start = end;
    }
    occ.finish().map_err(|source| ConstructError::Invalid { n, source })
}

/// The verified construction for `n` as a [`Placement`] (4 bytes per row).
pub fn solve(n: u32) -> Result<Placement, ConstructError> {
    check(n)?;
    let p = Placement::from_trusted((0..n).map(|r| column(n, r)).collect());
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_textbook_examples() {
        assert_eq!(solve(4).unwrap().to_string(), "(2, 4, 1, 3)");
        assert_eq!(solve(8).unwrap().to_string(), "(2, 4, 6, 8, 3, 1, 7, 5)");
        assert_eq!(solve(9).unwrap().to_string(), "(4, 6, 8, 2, 5, 7, 9, 1, 3)");
        for n in [0, 1, 2, 3] {
            assert_eq!(check(n), Err(ConstructError::TooSmall(n)));
        }
        assert!(matches!(check(MAX_N + 1), Err(ConstructError::TooLarge { .. })));
    }

    #[test]
    fn every_n_up_to_2000_passes_both_checkers() {
        for n in 4..=2000 {
            check(n).unwrap_or_else(|e| panic!("{e}"));
            if n <= 300 {
                assert!(solve(n).unwrap().is_valid(), "n = {n}");
            }
        }
    }

    #[test]
    fn a_million() {
        check(1_000_000).unwrap();
        check(1_000_003).unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        #[test]
        fn random_n(n in 4u32..200_000) {
            prop_assert!(check(n).is_ok());
        }
    }
}
