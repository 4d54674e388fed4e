//! Which counts of n queens the library will start: past the fast engine's range (n = 28 on
//! this build is its last) only the backtracker is left, and it would take core years, so a
//! count there is refused before it runs, with the projection (the CLI's `queens count` and
//! the Python package's `queens.count` refuse it alike).
//!
//! ```
//! use damier::queens::reach::{BeyondTheEngine, refuse_beyond_the_engine};
//!
//! assert_eq!(refuse_beyond_the_engine(27), Ok(()));
//! let refused: BeyondTheEngine = refuse_beyond_the_engine(29).unwrap_err();
//! assert!(refused.to_string().starts_with("n = 29 is refused: the fast engine counts n <= 28"));
//! ```

use crate::queens::count::known;
use crate::queens::count::tasks::TaskEngine;

/// The backtracker's measured CPU time per solution, in nanoseconds (175 to 240 at n = 15..17,
/// 213 on a share of n = 23): what the refusal projects with.
pub const BACKTRACK_NS_PER_SOLUTION: f64 = 200.0;

/// A count past the fast engine's range, which only the backtracker could make: refused.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error(
    "n = {n} is refused: the fast engine counts n <= {max} on this build, and the backtracker \
     would take about {years} core years (about {solutions} solutions at {BACKTRACK_NS_PER_SOLUTION} ns \
     each, its speed measured at n = 15..17){fits}{open} (see docs/queens.md, \"Counting q(28)\")",
    years = crate::util::number(*years),
    solutions = crate::util::number(*solutions),
    fits = past_u64(*n),
    open = open_term(*n)
)]
pub struct BeyondTheEngine {
    /// Board size.
    pub n: u32,
    /// The fast engine's largest n on this build.
    pub max: u32,
    /// q(n), known or projected ([`known::projected_total`]).
    pub solutions: f64,
    /// The backtracker's projected CPU years for it.
    pub years: f64,
}

/// A count refused before it runs ([`check_count`]).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum CountRefused {
    /// n = 0: no board.
    #[error("n must be at least 1")]
    NoBoard,
    /// n past [`MAX_N`](crate::queens::count::MAX_N); the message says too that the counts
    /// past the fast engine's range are refused unless the backtracker is forced (issue 52 §5:
    /// "at most 32 is supported" read as a promise that `queens count 32` runs).
    #[error(
        "n = {0} is too large: at most {max} is supported, and past n = {fast} only by the backtracker, \
         for core years",
        max = crate::queens::count::MAX_N,
        fast = TaskEngine::Quarters.max_n()
    )]
    TooLarge(u32),
    /// Past the fast engine, with no engine forced.
    #[error(transparent)]
    BeyondTheEngine(#[from] BeyondTheEngine),
}

/// The checks every front end makes before a count of n starts (the CLI's `queens count`,
/// the Python package's `queens.count`): n in 1..=[`MAX_N`](crate::queens::count::MAX_N), and
/// past the fast engine's range only with an engine forced (`engine_forced`: a cross-check by
/// the backtracker is the caller's choice), else [`refuse_beyond_the_engine`].
///
/// ```
/// use damier::queens::reach::{CountRefused, check_count};
///
/// assert_eq!(check_count(8, false), Ok(()));
/// assert_eq!(check_count(0, false), Err(CountRefused::NoBoard));
/// assert_eq!(check_count(33, true), Err(CountRefused::TooLarge(33)));
/// assert!(matches!(check_count(29, false), Err(CountRefused::BeyondTheEngine(_))));
/// assert_eq!(check_count(29, true), Ok(()));
/// ```
pub fn check_count(n: u32, engine_forced: bool) -> Result<(), CountRefused> {
    if n == 0 {
        return Err(CountRefused::NoBoard);
    }
    if n > crate::queens::count::MAX_N {
        return Err(CountRefused::TooLarge(n));
    }
    if !engine_forced {
        refuse_beyond_the_engine(n)?;
    }
    Ok(())
}

/// Refuses n past the fast engine ([`TaskEngine::Quarters`]'s `max_n`, so that raising it
/// lets the count run): only the backtracker is left there, for years.
pub fn refuse_beyond_the_engine(n: u32) -> Result<(), BeyondTheEngine> {
    let max = TaskEngine::Quarters.max_n();
    if n <= max {
        return Ok(());
    }
    let solutions = known::projected_total(n);
    let years = solutions * BACKTRACK_NS_PER_SOLUTION * 1e-9 / (3600.0 * 24.0 * 365.25);
    Err(BeyondTheEngine { n, max, solutions, years })
}

/// The refusal's note when q(n) would not fit a count.
fn past_u64(n: u32) -> String {
    if known::total_fits_u64(n) {
        String::new()
    } else {
        format!(", and its total would not fit the 64-bit count ({} at most)", crate::util::bound(u64::MAX))
    }
}

/// The refusal's note when q(n) is the first unknown term.
fn open_term(n: u32) -> String {
    if n == known::LAST_KNOWN_N + 1 {
        format!("; q({n}) is the open term of A000170, computed by no one yet")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_past_the_fast_engine_are_refused_with_the_projection() {
        let max = TaskEngine::Quarters.max_n();
        for n in 1..=max {
            assert_eq!(refuse_beyond_the_engine(n), Ok(()), "n = {n}");
        }
        for n in max + 1..=crate::queens::count::MAX_N {
            let e = refuse_beyond_the_engine(n).unwrap_err();
            assert_eq!((e.n, e.max), (n, max));
            // Years: q(n) solutions at 200 ns each; more than a core century at 29.
            let years = e.solutions * 200e-9 / 31_557_600.0;
            assert!((e.years / years - 1.0).abs() < 1e-12 && e.years > 100.0, "n = {n}: {e}");
            let text = e.to_string();
            assert!(text.starts_with(&format!("n = {n} is refused: the fast engine counts n <= {max}")));
            assert_eq!(text.contains("would not fit the 64-bit count"), n >= 29, "{text}");
            assert_eq!(text.contains("the open term of A000170"), n == 28, "{text}");
        }
    }
}
