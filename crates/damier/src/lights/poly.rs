//! The polynomial view of the chased system `P_H(T) x_0 = r` (see [`super::chase`]).
//!
//! `T = I + A` with `A` the adjacency matrix of the path on `W` cells. `A` is cyclic: with
//! `e_0` the first cell, `p_k(A) e_0 = e_k` for `k < W` (`p_k` the Chebyshev-like polynomials
//! of [`Gf2Poly::chebyshev`]) and `p_W(A) = 0`. So `u ↦ u(A) e_0` is an isomorphism from
//! `GF(2)[x] / p_W(x)` onto the rows, under which `P_H(T) = p_H(A + I)` is multiplication by
//! `g(x) = p_H(x + 1) mod p_W(x)`. The system becomes `g u ≡ R (mod p_W)` with
//! `R = sum r_k p_k`; with `d = gcd(g, p_W)` and `s g ≡ d`: solvable iff `d | R`, and then
//! `u = s R / d`; the kernel is `{ (p_W / d) v : deg v < deg d }`, so the nullity of the
//! `W x H` board is `deg gcd(p_W(x), p_H(x + 1))`.
//!
//! ```
//! use damier::board::Size;
//! use damier::control::Control;
//! use damier::lights::poly;
//!
//! assert_eq!(poly::nullity(Size::new(5, 5).unwrap()), 2);
//! assert_eq!(poly::nullity(Size::new(14, 3).unwrap()), 2); // 4 ways to turn 14 x 3 off
//! let squares = poly::square_nullities(19, &Control::new()).unwrap(); // n = 1..=19
//! assert_eq!((squares[3], squares[18]), (4, 16)); // 4 x 4 and 19 x 19 (OEIS A159257)
//! ```

use rayon::prelude::*;

use crate::board::Size;
use crate::control::{Control, Interrupted};
use crate::gf2::{Gf2Poly, words_for};

/// The solved polynomial form of the chased system of one board size (`width <= height` is
/// cheapest: the work is `O(W^2 / 64)` word operations plus the chases).
#[derive(Clone, Debug)]
pub struct PolySystem {
    width: usize,
    /// `p_W`.
    pw: Gf2Poly,
    /// `d = gcd(p_H(x + 1), p_W)`.
    d: Gf2Poly,
    /// `s` with `s g ≡ d (mod p_W)`.
    s: Gf2Poly,
}

impl PolySystem {
    /// Sets up the system for a `width x height` board.
    pub fn new(size: Size) -> PolySystem {
        let (width, height) = (size.width(), size.height());
        let pw = Gf2Poly::chebyshev(width);
        let g = if height <= 4 * width {
            &Gf2Poly::chebyshev(height).compose_x_plus_one() % &pw
        } else {
            Gf2Poly::chebyshev_mod(height, true, &pw)
        };
        let (d, s) = pw.gcd_cofactor(&g);
        PolySystem { width, pw, d, s }
    }

    /// The nullity: `deg gcd(p_W(x), p_H(x + 1))`.
    pub fn nullity(&self) -> usize {
        self.d.degree().expect("the gcd divides p_W, which is nonzero")
    }

    /// A first row `x_0` with `P_H(T) x_0 = r`, or `None` if there is none.
    pub fn solve_first_row(&self, r: &[u64]) -> Option<Vec<u64>> {
        let big_r = row_to_poly(r, self.width);
        let (q, rem) = big_r.div_rem(&self.d);
        if !rem.is_zero() {
            return None;
        }
        let u = &(&q * &self.s) % &self.pw;
        Some(poly_to_row(&u, self.width))
    }

    /// A basis of the first rows of the kernel: `(p_W / d) x^j`, `j < deg d`.
    pub fn kernel_first_rows(&self) -> Vec<Vec<u64>> {
        let m = self.pw.div_rem(&self.d).0;
        (0..self.nullity()).map(|j| poly_to_row(&m.shl(j), self.width)).collect()
    }
}

crate::cpu::avx2_dispatch! {
    /// `R = sum_k r_k p_k(x)` for a row `r` of `width` cells (`O(W^2 / 128)` word operations).
    pub fn row_to_poly(r: &[u64], width: usize) -> Gf2Poly => row_to_poly_impl
}

#[inline(always)]
fn row_to_poly_impl(r: &[u64], width: usize) -> Gf2Poly {
    let n = width / 64 + 3;
    let mut acc = vec![0u64; n];
    let mut prev = vec![0u64; n];
    let mut cur = vec![0u64; n];
    cur[0] = 1;
    for k in 0..width {
        let len = k / 64 + 1;
        if (r[k / 64] >> (k % 64)) & 1 == 1 {
            for (a, c) in acc[..len].iter_mut().zip(&cur[..len]) {
                *a ^= c;
            }
        }
        // p_{k+1} = x p_k + p_{k-1}, written over p_{k-1}.
        // PERF: only the live words of p_k (degree k); `cur[len] = 0` guards the top carry,
        // and the windowed loop has no bounds checks, so it vectorises.
        prev[0] ^= cur[0] << 1;
        for (p, w) in prev[1..=len].iter_mut().zip(cur[..=len].windows(2)) {
            *p ^= (w[1] << 1) | (w[0] >> 63);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    Gf2Poly::from_words(acc)
}

crate::cpu::avx2_dispatch! {
    /// The row `u(A) e_0` for `deg u < width`, by Horner's rule: `v ← A v + u_j e_0`.
    pub fn poly_to_row(u: &Gf2Poly, width: usize) -> Vec<u64> => poly_to_row_impl
}

#[inline(always)]
fn poly_to_row_impl(u: &Gf2Poly, width: usize) -> Vec<u64> {
    let s = words_for(width);
    let Some(du) = u.degree() else { return vec![0u64; s] };
    assert!(du < width, "poly_to_row: degree {du} >= width {width}");
    let mask = super::press::tail_mask(width);
    // Words 1..=s hold the row; words 0 and s + 1 stay zero as guards.
    let mut v = vec![0u64; s + 2];
    let mut t = vec![0u64; s + 2];
    for (steps, j) in (0..=du).rev().enumerate() {
        // After `steps` steps v lives in cells 0..steps: only those words (and one more) change.
        let live = (steps / 64 + 2).min(s);
        // v ← A v: each cell becomes the sum of its two neighbours.
        // PERF: out of place over a guarded buffer: a branch-free windowed loop.
        for (d, w) in t[1..=live].iter_mut().zip(v[..live + 2].windows(3)) {
            *d = ((w[1] << 1) | (w[0] >> 63)) ^ ((w[1] >> 1) | (w[2] << 63));
        }
        t[s] &= mask;
        std::mem::swap(&mut v, &mut t);
        if u.coeff(j) {
            v[1] ^= 1;
        }
    }
    v[1..=s].to_vec()
}

/// The nullity of the `width x height` board: `deg gcd(p_W(x), p_H(x + 1))`.
pub fn nullity(size: Size) -> usize {
    // PERF: the system of the narrower side is the cheaper one; the nullity is the same.
    let narrow = if size.width() > size.height() { size.transposed() } else { size };
    PolySystem::new(narrow).nullity()
}

/// The nullities of the `n x n` boards for `n = 1..=n_max` (index `n - 1`).
///
/// With `n + 1 = 2^a m`, `m` odd: `p_n = x^(2^a - 1) G_m^(2^(a+1))` where
/// `G_m = p_{(m-1)/2} + p_{(m-3)/2}` is squarefree with roots `z + 1/z` (`z^m = 1, z ≠ 1`), so
///
/// `nullity(n) = 2^(a+1) deg gcd(G_m(x), G_m(x + 1)) + [3 | m] (2^(a+1) - 2)`
///
/// (the last term: `x + 1 | G_m` exactly when `3 | m`, and then `x | G_m(x + 1)`). One gcd of
/// degree `(m - 1)/2` per odd `m`, in parallel, instead of one of degree `n` per `n`.
pub fn square_nullities(n_max: usize, control: &Control) -> Result<Vec<usize>, Interrupted> {
    let odd: Vec<usize> = (1..=n_max + 1).filter(|m| m % 2 == 1).rev().collect();
    let d: Vec<(usize, usize)> = odd
        .par_iter()
        .map(|&m| {
            if control.cancelled() {
                return Err(Interrupted);
            }
            control.advance(1);
            Ok((m, half_gcd_degree(m)))
        })
        .collect::<Result<_, _>>()?;
    let mut dm = vec![0usize; n_max + 2];
    for (m, v) in d {
        dm[m] = v;
    }
    Ok((1..=n_max)
        .map(|n| {
            let a = (n + 1).trailing_zeros();
            let m = (n + 1) >> a;
            let e = 1usize << (a + 1);
            e * dm[m] + if m % 3 == 0 { e - 2 } else { 0 }
        })
        .collect())
}

/// `deg gcd(G_m(x), G_m(x + 1))` for odd `m`.
fn half_gcd_degree(m: usize) -> usize {
    if m < 3 {
        return 0;
    }
    let j = (m - 1) / 2;
    let g = &Gf2Poly::chebyshev(j) + &Gf2Poly::chebyshev(j - 1);
    let gs = g.compose_x_plus_one();
    g.gcd(&gs).degree().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_invert_each_other() {
        for w in [1, 2, 5, 63, 64, 65, 130] {
            let pw = Gf2Poly::chebyshev(w);
            for k in 0..w.min(70) {
                let mut r = vec![0u64; words_for(w)];
                r[k / 64] |= 1 << (k % 64);
                let u = row_to_poly(&r, w);
                assert_eq!(u, Gf2Poly::chebyshev(k));
                assert_eq!(poly_to_row(&(&u % &pw), w), r, "w = {w}, k = {k}");
            }
        }
    }

    #[test]
    fn square_formula_matches_direct_gcd() {
        let fast = square_nullities(300, &Control::new()).unwrap();
        for n in 1..=300 {
            assert_eq!(fast[n - 1], nullity(Size::new(n, n).unwrap()), "n = {n}");
        }
    }
}
