//! The n-queens problem, exhaustive and constructive (SPEC §1, seed 004).
//!
//! - [`placement`]: the seed's permutation `S` ([`Placement`]) and an independent checker
//!   that says which queens attack which;
//! - [`naive`]: the seed's `EstLibre` / `PlacerReine`, the readable reference;
//! - [`search`]: bit-vector backtracking with the seed's `V`, `G`, `D` vectors: every
//!   solution in backtracking order, or the first, without collecting them;
//! - [`symmetry`]: the 8 symmetries of the square, canonical forms, one solution per class;
//! - [`count`]: the fast counter (total and unique in one run);
//! - [`construct`]: one solution for any n >= 4 up to 10^9 by an explicit formula;
//! - [`max`]: R(n), the most non-attacking queens on n x n, with a witness;
//! - [`corners`]: the seed's exercises on adding or removing a corner queen.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::{search, symmetry, Placement};
//!
//! let first = search::first(8, &Control::new()).unwrap().unwrap();
//! assert_eq!(first.to_string(), "(1, 5, 8, 6, 3, 7, 2, 4)");
//! let (canon, _) = symmetry::canonical(&first);
//! assert!(canon.is_valid());
//! assert!(!Placement::parse("1 2 3 4").unwrap().is_valid());
//! ```

pub mod construct;
pub mod corners;
pub mod count;
pub mod max;
pub mod naive;
pub mod placement;
pub mod search;
pub mod symmetry;

pub use count::{CountError, Counts, count};
pub use placement::Placement;
