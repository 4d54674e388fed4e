//! One solution for a given n, as `damier queens solve` and the Python package's
//! `queens.solve` ask for it: [`solve`] by the explicit construction ([`construct`]) or by
//! local search ([`local`]) as [`Method`] says, checked, or for the n without solution (2 and
//! 3) the record [`NoSolution`].
//!
//! A constructed solution is not stored: its columns come from the formula
//! ([`Solution::column`]), so that 10^9 of them are streamed, never held in memory.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::solve::{Method, NoSolution, Solution, solve};
//!
//! let found = solve(8, Method::Local, 7, &Control::new()).unwrap();
//! assert!(found.placement().unwrap().is_valid());
//! assert_eq!(solve(10, Method::Construct, 0, &Control::new()).unwrap(), Solution::Constructed { n: 10 });
//! assert!(NoSolution::of(8, Method::Construct).unwrap().is_none());
//! let none = NoSolution::of(3, Method::Local).unwrap().unwrap();
//! assert_eq!((none.n, none.method, none.most), (3, Method::Local, 2));
//! ```

use super::Placement;
use super::construct::{self, ConstructError};
use super::local::{self, LocalError, SearchStats};
use super::max::{self, MaxError};
use crate::control::Control;

/// How the solution is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Method {
    /// The explicit construction (Hoffman, Loessi and Moore): one fixed solution, n <= 10^9.
    Construct,
    /// Conflict-minimising local search from a random start: a random solution, n <= 10^8.
    Local,
}

impl Method {
    /// Every method, in the order of their names' list.
    pub const ALL: [Method; 2] = [Method::Construct, Method::Local];

    /// The method's name: `construct` or `local`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Construct => "construct",
            Method::Local => "local",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    /// `construct` or `local`, as [`Method::name`] writes them.
    fn from_str(s: &str) -> Result<Method, String> {
        crate::util::named(s, &Method::ALL, Method::name, "construct or local")
    }
}

/// The answer for an n without solution. Serialised as `columns` (null: no solution), `method`
/// and `n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoSolution {
    /// The method asked for.
    pub method: Method,
    /// Board size.
    pub n: u32,
    /// R(n), the most non-attacking queens that fit (fewer than n); not serialised.
    pub most: u64,
}

#[cfg(feature = "serde")]
impl serde::Serialize for NoSolution {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut record = s.serialize_struct("NoSolution", 3)?;
        record.serialize_field("columns", &None::<Vec<u64>>)?;
        record.serialize_field("method", &self.method)?;
        record.serialize_field("n", &self.n)?;
        record.end()
    }
}

impl NoSolution {
    /// The answer for `n` when no solution exists (n = 2, 3); `None` when one does.
    pub fn of(n: u32, method: Method) -> Result<Option<NoSolution>, MaxError> {
        Ok(max::unsolvable(n)?.map(|most| NoSolution { method, n, most }))
    }
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq)]
pub enum Solution {
    /// The construction for n, checked row by row; its columns come from the formula.
    Constructed {
        /// Board size.
        n: u32,
    },
    /// A random solution by local search, checked.
    Searched {
        /// The solution.
        placement: Placement,
        /// The seed it was searched from.
        seed: u64,
        /// Search statistics.
        stats: SearchStats,
    },
    /// n has no solution (2, 3).
    None(NoSolution),
}

impl Solution {
    /// Board size.
    pub fn n(&self) -> u32 {
        match self {
            Solution::Constructed { n } => *n,
            Solution::Searched { placement, .. } => placement.n(),
            Solution::None(none) => none.n,
        }
    }

    /// The 0-based column of 0-based `row` (`row < n`) of a solution; `None` without one.
    #[inline]
    pub fn column(&self, row: u32) -> Option<u32> {
        match self {
            Solution::Constructed { n: 1 } => Some(0),
            Solution::Constructed { n } => Some(construct::column(*n, row)),
            Solution::Searched { placement, .. } => placement.columns().get(row as usize).copied(),
            Solution::None(_) => None,
        }
    }

    /// The solution as a stored placement (a constructed one is written out: 4n bytes);
    /// `None` without one.
    pub fn placement(&self) -> Option<Placement> {
        match self {
            Solution::Constructed { n: 1 } => Some(Placement::from_trusted(vec![0])),
            // Checked by `solve`.
            Solution::Constructed { n } => {
                Some(Placement::from_trusted((0..*n).map(|r| construct::column(*n, r)).collect()))
            }
            Solution::Searched { placement, .. } => Some(placement.clone()),
            Solution::None(_) => None,
        }
    }
}

/// Why [`solve`] found no solution where one exists.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// n = 0.
    #[error("n must be at least 1")]
    NoBoard,
    /// A seed given for the construction ([`check_seed`]).
    #[error("a seed applies to method local only (the construction has no randomness)")]
    SeededConstruction,
    /// The construction failed (n too large, interrupted, or a bug: its check failed).
    #[error(transparent)]
    Construct(#[from] ConstructError),
    /// Local search failed (n too large, interrupted, or a bug: its check failed).
    #[error(transparent)]
    Local(#[from] LocalError),
    /// R(n) of n = 2, 3 could not be computed.
    #[error(transparent)]
    Max(#[from] MaxError),
}

/// Work units [`solve`] reports through its control for n by `method` (a progress bar's
/// total): the construction's check, one per row (none below n = 4); the search's, one per
/// row searched and one per row checked ([`local::progress_units`]).
pub fn progress_units(n: u32, method: Method) -> u64 {
    match method {
        Method::Construct if n >= 4 => u64::from(n),
        Method::Construct => 0,
        Method::Local => local::progress_units(n),
    }
}

/// One checked solution of n queens by `method`: the construction (n <= 10^9, checked row by
/// row in 5n bits; `seed` unused) or local search from `seed` (n <= 10^8); for n = 2, 3
/// [`Solution::None`]. Polls `control` and advances it by [`progress_units`]. A front end
/// that takes a seed refuses one given for the construction by [`check_seed`].
pub fn solve(n: u32, method: Method, seed: u64, control: &Control) -> Result<Solution, SolveError> {
    if n == 0 {
        return Err(SolveError::NoBoard);
    }
    if let Some(none) = NoSolution::of(n, method)? {
        return Ok(Solution::None(none));
    }
    match method {
        Method::Construct => {
            if n >= 4 {
                construct::check_with(n, control)?;
            }
            Ok(Solution::Constructed { n })
        }
        Method::Local => {
            let found = local::solve(n, seed, control)?;
            Ok(Solution::Searched { placement: found.placement, seed, stats: found.stats })
        }
    }
}

/// Refuses a seed given (`seeded`) for `method` when the method draws nothing: the
/// construction ([`SolveError::SeededConstruction`]), the one text of every front end.
pub fn check_seed(method: Method, seeded: bool) -> Result<(), SolveError> {
    match method {
        Method::Construct if seeded => Err(SolveError::SeededConstruction),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_gives_a_checked_solution_or_says_there_is_none() {
        let control = Control::new();
        for n in 1..=12 {
            for method in [Method::Construct, Method::Local] {
                let s = solve(n, method, 5, &control).unwrap();
                assert_eq!(s.n(), n);
                match s.placement() {
                    Some(p) => {
                        assert!(p.is_valid(), "n = {n}, {method:?}: {p}");
                        assert!((0..n).all(|r| s.column(r) == Some(p.columns()[r as usize])));
                    }
                    None => assert!(n == 2 || n == 3, "n = {n}"),
                }
            }
        }
        assert_eq!(solve(0, Method::Local, 1, &control), Err(SolveError::NoBoard));
        let local = |seed| solve(40, Method::Local, seed, &control).unwrap().placement();
        assert_eq!(local(9), local(9), "the same seed, the same solution");
        assert!(matches!(
            solve(construct::MAX_N + 1, Method::Construct, 0, &control),
            Err(SolveError::Construct(ConstructError::TooLarge { .. }))
        ));
        assert!(matches!(
            solve(local::MAX_N + 1, Method::Local, 0, &control),
            Err(SolveError::Local(LocalError::TooLarge { .. }))
        ));
        assert_eq!(check_seed(Method::Construct, true), Err(SolveError::SeededConstruction));
        assert_eq!((check_seed(Method::Construct, false), check_seed(Method::Local, true)), (Ok(()), Ok(())));
        assert_eq!(progress_units(3, Method::Construct), 0);
        assert_eq!(progress_units(10, Method::Local), local::progress_units(10));
    }
}
