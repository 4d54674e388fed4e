//! Bit-packed linear algebra over GF(2), shared by Lights Out and the pawn walk.
//!
//! Vectors and matrix rows are packed 64 entries to a `u64` word, entry `i` at bit `i % 64`
//! of word `i / 64`; addition is XOR, a whole row at a time. Polynomials ([`Gf2Poly`]) use the
//! same packing for their coefficients.

mod matrix;
mod poly;
mod vector;

pub use matrix::{BitMatrix, Echelon, EliminationStep, RowOp};
pub use poly::{Gf2Poly, KARATSUBA_THRESHOLD};
pub use vector::BitVec;

/// Number of `u64` words needed for `bits` bits.
#[inline]
pub const fn words_for(bits: usize) -> usize {
    bits.div_ceil(64)
}
