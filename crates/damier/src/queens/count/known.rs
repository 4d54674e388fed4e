//! The known terms of OEIS A000170 (all solutions of n queens), kept in one place so that the
//! library can hold its own projections against them: the estimate's self-check, and the
//! size of the counts past the table (q(28), the first term no one has computed, and the
//! terms from q(29) on, which no longer fit the `u64` of a count).
//!
//! `tests/known_answers.rs` checks this table against the data file every solver runs
//! against, so the two cannot drift apart.
//!
//! ```
//! use damier::queens::count::known::{A000170, known_total};
//!
//! assert_eq!(known_total(8), Some(92));
//! assert_eq!(A000170.len(), 28); // n = 0..=27
//! assert_eq!(known_total(40), None);
//! ```

/// q(n) for n = 0..=27 (q(0) = 1: the empty board is one placement). Source: OEIS A000170;
/// q(27) was computed in 2016 (Preußer and Engelhardt, FPGAs) and confirmed in 2025 on GPUs.
pub const A000170: [u64; 28] = [
    1,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
    314_666_222_712,
    2_691_008_701_644,
    24_233_937_684_440,
    227_514_171_973_736,
    2_207_893_435_808_352,
    22_317_699_616_364_044,
    234_907_967_154_122_528,
];

/// Largest n whose number of solutions is known.
pub const LAST_KNOWN_N: u32 = A000170.len() as u32 - 1;

/// q(n), where it is known (n <= [`LAST_KNOWN_N`]).
pub fn known_total(n: u32) -> Option<u64> {
    A000170.get(n as usize).copied()
}

/// q(n): the known term, or past the table a rough projection (for messages about cost and
/// size, not a claim about the term).
///
/// The ratio q(n + 1) / q(n) grows nearly linearly at the end of the table (9.70, 10.11,
/// 10.53 from n = 24 to 27: about +0.41 per step), so the projection continues that line:
/// q(28) about 2.6e18 (inside a `u64`, whose largest value is 1.8e19), q(29) about 2.9e19
/// (beyond it).
pub fn projected_total(n: u32) -> f64 {
    if let Some(q) = known_total(n) {
        return q as f64;
    }
    let last = LAST_KNOWN_N as usize;
    let ratio = |m: usize| A000170[m] as f64 / A000170[m - 1] as f64;
    let (r, step) = (ratio(last), ratio(last) - ratio(last - 1));
    (1..=n - LAST_KNOWN_N).fold(A000170[last] as f64, |q, k| q * (r + step * f64::from(k)))
}

/// Whether every total of n fits the `u64` of a count: known (n <= [`LAST_KNOWN_N`]) or
/// projected well inside it (q(28), by a factor of 7); not from n = 29 on.
pub fn total_fits_u64(n: u32) -> bool {
    // A 2x margin: the projection is only an extrapolation.
    n <= LAST_KNOWN_N || 2.0 * projected_total(n) < u64::MAX as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projections_continue_the_table() {
        assert_eq!(LAST_KNOWN_N, 27);
        assert_eq!(projected_total(27), A000170[27] as f64);
        let q28 = projected_total(28);
        assert!((2.3e18..2.9e18).contains(&q28), "{q28:e}");
        assert!(projected_total(29) > u64::MAX as f64);
        assert!(total_fits_u64(28) && !total_fits_u64(29) && !total_fits_u64(32));
        assert_eq!(known_total(28), None);
        assert_eq!(known_total(8), Some(92));
    }
}
