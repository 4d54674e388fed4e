//! Bit-packed linear algebra over GF(2), shared by Lights Out and the pawn walk.
//!
//! Vectors and matrix rows are packed 64 entries to a `u64` word, entry `i` at bit `i % 64`
//! of word `i / 64`; addition is XOR, a whole row at a time. Polynomials ([`Gf2Poly`]) use the
//! same packing for their coefficients.
//!
//! ```
//! use damier::gf2::{BitMatrix, BitVec};
//!
//! // x0 + x1 = 1 and x1 + x2 = 0 over GF(2): two solutions, a kernel of dimension 1.
//! let mut m = BitMatrix::zeros(2, 3);
//! for (r, c) in [(0, 0), (0, 1), (1, 1), (1, 2)] {
//!     m.set(r, c, true);
//! }
//! let x = m.solve(&BitVec::from_bools(&[true, false])).unwrap().to_bools();
//! assert!(x[0] ^ x[1] && !(x[1] ^ x[2]));
//! assert_eq!(m.kernel_basis().len(), 1);
//! ```

mod coset;
mod matrix;
mod poly;
mod vector;

pub use coset::{Coset, MAX_WALK_DIMENSION, XorVector, power_of_two_decimal, power_of_two_minus_one_decimal};

pub use matrix::{BitMatrix, Echelon, EliminationStep, RowOp};
pub use poly::{Gf2Poly, KARATSUBA_THRESHOLD};
pub use vector::BitVec;

/// Number of `u64` words needed for `bits` bits.
#[inline]
pub const fn words_for(bits: usize) -> usize {
    bits.div_ceil(64)
}

/// Indices of the bits set in packed words (bit `i` at bit `i % 64` of word `i / 64`),
/// increasing.
pub fn ones_in(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            // PERF: lowest set bit, then clear it: one step per set bit, not per bit.
            let t = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(k * 64 + t)
        })
    })
}
