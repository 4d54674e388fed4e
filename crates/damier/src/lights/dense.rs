//! Dense elimination on the `N x N` press matrix: the Lights Out text's method, for small boards and for
//! checking the fast methods.
//!
//! ```
//! use damier::board::{Board, Size};
//! use damier::lights::{apply_presses, dense};
//!
//! let start = Board::ones(Size::new(5, 5).unwrap());
//! let (nullity, presses) = dense::solve(&start);
//! assert_eq!(nullity, 2);
//! assert!(apply_presses(&start, &presses.unwrap()).is_zero());
//! assert_eq!(dense::kernel(start.size()).len(), 2);
//! ```

use crate::board::{Board, Size};
use crate::gf2::{Echelon, EliminationStep};

use super::press::press_matrix;

/// Dense elimination is refused above this many cells (`O(N^3 / 64)` work, `N^2` bits).
/// [default: 4096 (64 x 64)]
pub const DENSE_MAX_CELLS: usize = 4096;

/// Step-by-step elimination is shown up to this many cells (one `N x (N+1)` matrix per step).
/// [default: 64]
pub const EXPLAIN_MAX_CELLS: usize = 64;

/// Nullity and one solution of `M x = b` by dense elimination (`None`: no solution).
pub fn solve(b: &Board) -> (usize, Option<Board>) {
    let e = press_matrix(b.size()).echelon(Some(&b.to_bitvec()));
    let nullity = b.size().cells() - e.rank();
    let x = e.particular_solution().map(|x| Board::from_bitvec(b.size(), &x));
    (nullity, x)
}

/// A basis of the neutral configurations by dense elimination.
pub fn kernel(size: Size) -> Vec<Board> {
    press_matrix(size).kernel_basis().iter().map(|v| Board::from_bitvec(size, v)).collect()
}

/// The elimination of `M x = b` step by step.
pub fn explain(b: &Board) -> (Echelon, Vec<EliminationStep>) {
    press_matrix(b.size()).echelon_steps(Some(&b.to_bitvec()))
}
