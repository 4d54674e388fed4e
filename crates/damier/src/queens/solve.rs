//! One solution for a given n, as `damier queens solve` reports it: by the explicit
//! [`construct`](super::construct)ion or by [`local`](super::local) search ([`Method`]); for the
//! n without solution (2 and 3), the record [`NoSolution`].
//!
//! The solution itself is streamed from the formula or the stored placement by the caller
//! (10^9 columns are never held as JSON in memory), so only the answer without one is a record.
//!
//! ```
//! use damier::queens::solve::{Method, NoSolution};
//!
//! assert!(NoSolution::of(8, Method::Construct).unwrap().is_none());
//! let none = NoSolution::of(3, Method::Local).unwrap().unwrap();
//! assert_eq!((none.n, none.method, none.most), (3, Method::Local, 2));
//! ```

use super::max::{self, MaxError};

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
    /// The method's name: `construct` or `local`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Construct => "construct",
            Method::Local => "local",
        }
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
