//! Bit-packed linear algebra over GF(2), shared by Lights Out and the pawn walk.
//!
//! Vectors and matrix rows are packed 64 entries to a `u64` word, entry `i` at bit `i % 64`
//! of word `i / 64`; addition is XOR, a whole row at a time. Polynomials ([`Gf2Poly`]) use the
//! same packing for their coefficients.

/// Defines `fn $name(args) -> ret` running `$imp` compiled for AVX2 when the CPU has it (checked
/// once per call, at run time), and the baseline build otherwise. `$imp` must be
/// `#[inline(always)]` (and so must its hot helpers) for the AVX2 copy to be vectorised.
macro_rules! avx2_dispatch {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty => $imp:path) => {
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) -> $ret {
                    $imp($($arg),*)
                }
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU supports AVX2, checked on the line above.
                    return unsafe { avx2($($arg),*) };
                }
            }
            $imp($($arg),*)
        }
    };
}
pub(crate) use avx2_dispatch;

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
