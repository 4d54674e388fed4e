//! Polynomials over GF(2), bit-packed: the coefficient of `x^i` is bit `i % 64` of word `i / 64`.
//!
//! Multiplication is carry-less: one `pclmulqdq` (x86-64) or `pmull` (aarch64) per pair of
//! words when the CPU has it (checked at run time), a 4-bit window table otherwise, and
//! Karatsuba above [`KARATSUBA_THRESHOLD`] words. Division works a quotient word at a time (64 quotient bits
//! from the top word, then one carry-less product of that word by the divisor). The gcd is the
//! bit-step Euclid (one shifted XOR per step), which keeps every step a straight word loop.

use std::fmt;

use super::{BitMatrix, words_for};

/// Below this many words (per factor) multiplication is schoolbook on carry-less word
/// products; above, Karatsuba. [default: 24] [range: 2..]
pub const KARATSUBA_THRESHOLD: usize = 24;

/// A polynomial over GF(2). The zero polynomial has no words; otherwise the last word is
/// nonzero.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Gf2Poly {
    words: Vec<u64>,
}

impl Gf2Poly {
    /// The zero polynomial.
    pub fn zero() -> Self {
        Gf2Poly { words: Vec::new() }
    }

    /// The constant 1.
    pub fn one() -> Self {
        Gf2Poly { words: vec![1] }
    }

    /// The polynomial `x`.
    pub fn x() -> Self {
        Gf2Poly { words: vec![2] }
    }

    /// `x^k`.
    pub fn monomial(k: usize) -> Self {
        let mut w = vec![0; k / 64 + 1];
        w[k / 64] = 1 << (k % 64);
        Gf2Poly { words: w }
    }

    /// The polynomial with these packed coefficients (trailing zero words are dropped).
    pub fn from_words(words: Vec<u64>) -> Self {
        let mut p = Gf2Poly { words };
        p.normalize();
        p
    }

    /// The polynomial `sum coeffs[i] x^i`.
    pub fn from_coeffs(coeffs: &[bool]) -> Self {
        let mut w = vec![0u64; words_for(coeffs.len())];
        for (i, &c) in coeffs.iter().enumerate() {
            if c {
                w[i / 64] |= 1 << (i % 64);
            }
        }
        Gf2Poly::from_words(w)
    }

    /// The polynomial `sum x^e` over the given exponents (repeated exponents cancel).
    pub fn from_exponents(exponents: &[usize]) -> Self {
        let mut p = Gf2Poly::zero();
        for &e in exponents {
            p.flip_coeff(e);
        }
        p
    }

    /// The packed coefficients (no trailing zero word).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The packed coefficients, by value.
    pub fn into_words(self) -> Vec<u64> {
        self.words
    }

    /// The degree, or `None` for the zero polynomial.
    #[inline]
    pub fn degree(&self) -> Option<usize> {
        degree_of(&self.words)
    }

    /// True for the zero polynomial.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.words.is_empty()
    }

    /// True for the constant 1.
    pub fn is_one(&self) -> bool {
        self.words == [1]
    }

    /// The coefficient of `x^k`.
    #[inline]
    pub fn coeff(&self, k: usize) -> bool {
        self.words.get(k / 64).is_some_and(|w| (w >> (k % 64)) & 1 == 1)
    }

    /// Flips the coefficient of `x^k`.
    pub fn flip_coeff(&mut self, k: usize) {
        if self.words.len() <= k / 64 {
            self.words.resize(k / 64 + 1, 0);
        }
        self.words[k / 64] ^= 1 << (k % 64);
        self.normalize();
    }

    /// Sets the coefficient of `x^k`.
    pub fn set_coeff(&mut self, k: usize, value: bool) {
        if self.coeff(k) != value {
            self.flip_coeff(k);
        }
    }

    /// Number of nonzero coefficients.
    pub fn weight(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn normalize(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }

    /// `self += other` (also `+=`).
    fn add_in_place(&mut self, other: &Gf2Poly) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a ^= b;
        }
        self.normalize();
    }

    /// `self += other * x^shift`.
    pub fn add_shifted(&mut self, other: &Gf2Poly, shift: usize) {
        let Some(d) = other.degree() else { return };
        let need = (d + shift) / 64 + 1;
        if self.words.len() < need {
            self.words.resize(need, 0);
        }
        xor_shifted(&mut self.words, &other.words, shift);
        self.normalize();
    }

    /// `self * x^k`.
    pub fn shl(&self, k: usize) -> Gf2Poly {
        let mut p = Gf2Poly::zero();
        p.add_shifted(self, k);
        p
    }

    /// The product (also `*`).
    fn product(&self, other: &Gf2Poly) -> Gf2Poly {
        if self.is_zero() || other.is_zero() {
            return Gf2Poly::zero();
        }
        let mut out = vec![0u64; self.words.len() + other.words.len()];
        mul_into(&self.words, &other.words, &mut out, has_clmul());
        Gf2Poly::from_words(out)
    }

    /// The square: over GF(2) it only spreads the bits (`(sum a_i x^i)^2 = sum a_i x^{2i}`).
    pub fn square(&self) -> Gf2Poly {
        let mut out = Vec::with_capacity(2 * self.words.len());
        for &w in &self.words {
            out.push(spread(w as u32));
            out.push(spread((w >> 32) as u32));
        }
        Gf2Poly::from_words(out)
    }

    /// Quotient and remainder: `self = q * d + r` with `deg r < deg d`. Panics if `d` is zero.
    pub fn div_rem(&self, d: &Gf2Poly) -> (Gf2Poly, Gf2Poly) {
        let dd = d.degree().expect("division by the zero polynomial");
        let Some(da) = self.degree() else { return (Gf2Poly::zero(), Gf2Poly::zero()) };
        if da < dd {
            return (Gf2Poly::zero(), self.clone());
        }
        let mut r = self.words.clone();
        r.resize(r.len() + d.words.len() + 2, 0);
        let q = div_rem_words(&mut r, da, &d.words, dd, has_clmul());
        (Gf2Poly::from_words(q), Gf2Poly::from_words(r))
    }

    /// `self * other mod m`. Panics if `m` is zero.
    pub fn mul_mod(&self, other: &Gf2Poly, m: &Gf2Poly) -> Gf2Poly {
        &(self * other) % m
    }

    /// The greatest common divisor (monic, so unique; zero only if both are zero).
    pub fn gcd(&self, other: &Gf2Poly) -> Gf2Poly {
        let mut a = self.words.clone();
        let mut b = other.words.clone();
        let n = a.len().max(b.len());
        a.resize(n, 0);
        b.resize(n, 0);
        Gf2Poly::from_words(gcd_words(a, b))
    }

    /// The extended gcd: `(g, s, t)` with `s * self + t * other = g = gcd(self, other)`.
    pub fn ext_gcd(&self, other: &Gf2Poly) -> (Gf2Poly, Gf2Poly, Gf2Poly) {
        if self.is_zero() {
            let t = if other.is_zero() { Gf2Poly::zero() } else { Gf2Poly::one() };
            return (other.clone(), Gf2Poly::zero(), t);
        }
        let (g, t) = half_ext_gcd(self, other);
        // s = (g - t * other) / self, exact by construction.
        let (s, rest) = (&g + &(&t * other)).div_rem(self);
        debug_assert!(rest.is_zero());
        (g, s, t)
    }

    /// `(g, t)` with `t * b ≡ g = gcd(self, b) (mod self)`: the extended gcd carrying only the
    /// cofactor of `b` (half the work of [`Gf2Poly::ext_gcd`]). Panics if `self` is zero.
    pub fn gcd_cofactor(&self, b: &Gf2Poly) -> (Gf2Poly, Gf2Poly) {
        half_ext_gcd(self, b)
    }

    /// The inverse of `self` modulo `m`, if `gcd(self, m) = 1`.
    pub fn inverse_mod(&self, m: &Gf2Poly) -> Option<Gf2Poly> {
        let (g, t) = half_ext_gcd(m, &(self % m));
        g.is_one().then(|| &t % m)
    }

    /// `self(x + 1)`: the Taylor shift, in `O(n log n)` word XORs since `(x+1)^(2^k) = x^(2^k) + 1`.
    pub fn compose_x_plus_one(&self) -> Gf2Poly {
        let n = self.words.len().next_power_of_two();
        let mut w = self.words.clone();
        w.resize(n, 0);
        // Within each word: blocks of s bits, low half += high half, s = 1, 2, ..., 32.
        const MASKS: [u64; 6] = [
            0x5555_5555_5555_5555,
            0x3333_3333_3333_3333,
            0x0f0f_0f0f_0f0f_0f0f,
            0x00ff_00ff_00ff_00ff,
            0x0000_ffff_0000_ffff,
            0x0000_0000_ffff_ffff,
        ];
        for x in w.iter_mut() {
            for (i, m) in MASKS.iter().enumerate() {
                *x ^= (*x >> (1 << i)) & m;
            }
        }
        // Across words: blocks of b words, low half += high half.
        let mut b = 1;
        while b < n {
            for chunk in w.chunks_mut(2 * b) {
                let (lo, hi) = chunk.split_at_mut(b);
                for (l, h) in lo.iter_mut().zip(hi.iter()) {
                    *l ^= h;
                }
            }
            b *= 2;
        }
        Gf2Poly::from_words(w)
    }

    /// The Chebyshev-like polynomial `p_n` of Lights Out: `p_0 = 1`, `p_1 = x`,
    /// `p_{n+1} = x p_n + p_{n-1}`; `p_n` is the characteristic polynomial of the adjacency
    /// matrix of the path on `n` vertices, over GF(2).
    ///
    /// Computed by doubling in `O(n)` bit operations: with `F_k = p_{k-1}`,
    /// `F_{2j} = x F_j^2` and `F_{2j+1} = (F_j + F_{j+1})^2` (squaring is free over GF(2)).
    pub fn chebyshev(n: usize) -> Gf2Poly {
        chebyshev_pair(n + 1, |p| p, Gf2Poly::x()).0
    }

    /// `p_n(y) mod m` with `y = x` or `y = x + 1` (`shift_one`), by the same doubling, reducing
    /// after each step; for `n` much larger than `deg m`. Panics if `m` is zero.
    pub fn chebyshev_mod(n: usize, shift_one: bool, m: &Gf2Poly) -> Gf2Poly {
        let y = if shift_one { Gf2Poly::from_words(vec![3]) } else { Gf2Poly::x() };
        chebyshev_pair(n + 1, |p| &p % m, &y % m).0
    }

    /// `self(M)` for a square matrix `M`, by Horner's rule (small matrices: `O(deg * n^3 / 64)`).
    pub fn eval_matrix(&self, m: &BitMatrix) -> BitMatrix {
        let n = m.rows();
        assert_eq!(n, m.cols(), "eval_matrix needs a square matrix");
        let mut acc = BitMatrix::zeros(n, n);
        let Some(d) = self.degree() else { return acc };
        for k in (0..=d).rev() {
            acc = acc.mul(m);
            if self.coeff(k) {
                for i in 0..n {
                    acc.flip(i, i);
                }
            }
        }
        acc
    }
}

/// `(F_n(y), F_{n+1}(y))` with `F_k = p_{k-1}` in the variable `y`, each result passed through
/// `reduce`. `n >= 1`.
fn chebyshev_pair(n: usize, reduce: impl Fn(Gf2Poly) -> Gf2Poly, y: Gf2Poly) -> (Gf2Poly, Gf2Poly) {
    assert!(n >= 1);
    // Start at j = 1: (F_1, F_2) = (1, y); walk the bits of n below the top one.
    let mut a = reduce(Gf2Poly::one());
    let mut b = y.clone();
    let top = usize::BITS - 1 - n.leading_zeros();
    for i in (0..top).rev() {
        let mid = (&a + &b).square();
        if (n >> i) & 1 == 0 {
            // (F_{2j}, F_{2j+1}) = (y F_j^2, (F_j + F_{j+1})^2)
            a = reduce(&y * &a.square());
            b = reduce(mid);
        } else {
            // (F_{2j+1}, F_{2j+2}) = ((F_j + F_{j+1})^2, y F_{j+1}^2)
            a = reduce(mid);
            b = reduce(&y * &b.square());
        }
    }
    (a, b)
}

/// `p` with its bits moved to the even positions: bit `i` goes to bit `2i`.
#[inline]
fn spread(x: u32) -> u64 {
    // PERF: the classic interleave by masks, 5 steps instead of 32.
    let mut x = x as u64;
    x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
    x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    (x | (x << 1)) & 0x5555_5555_5555_5555
}

/// The degree of a packed polynomial, or `None` if it is zero.
#[inline]
pub(crate) fn degree_of(words: &[u64]) -> Option<usize> {
    let i = words.iter().rposition(|&w| w != 0)?;
    Some(i * 64 + 63 - words[i].leading_zeros() as usize)
}

/// Degree of `words` knowing it is at most `bound` (scans down from there).
#[inline]
fn degree_below(words: &[u64], bound: usize) -> Option<usize> {
    if words.is_empty() {
        return None;
    }
    let top = (bound / 64).min(words.len() - 1);
    degree_of(&words[..=top])
}

/// `dst += src * x^shift`. `dst` must hold every nonzero bit of the result.
#[inline(always)]
pub(crate) fn xor_shifted(dst: &mut [u64], src: &[u64], shift: usize) {
    let q = shift / 64;
    let r = (shift % 64) as u32;
    let n = src.len();
    if n == 0 {
        return;
    }
    if r == 0 {
        for (d, s) in dst[q..q + n].iter_mut().zip(src) {
            *d ^= s;
        }
        return;
    }
    let l = 64 - r;
    dst[q] ^= src[0] << r;
    // PERF: three equal-length slices, so the loop has no bounds checks and vectorises.
    let d = &mut dst[q + 1..q + n];
    for ((d, &hi), &lo) in d.iter_mut().zip(&src[1..]).zip(&src[..n - 1]) {
        *d ^= (hi << r) | (lo >> l);
    }
    let spill = src[n - 1] >> l;
    if q + n < dst.len() {
        dst[q + n] ^= spill;
    } else {
        debug_assert_eq!(spill, 0, "xor_shifted: destination too short");
    }
}

/// The 64 bits of `words` starting at bit `pos` (bits past the end read as 0).
#[inline]
fn bits_at(words: &[u64], pos: usize) -> u64 {
    let (q, r) = (pos / 64, pos % 64);
    let lo = words.get(q).copied().unwrap_or(0);
    if r == 0 {
        return lo;
    }
    let hi = words.get(q + 1).copied().unwrap_or(0);
    (lo >> r) | (hi << (64 - r))
}

/// Long division in place: on return `r` holds the remainder (degree < `dd`); returns the
/// quotient. `da` is the degree of `r`, `dd` that of `d`; `r` must have `d.len() + 1` spare
/// words past bit `da`.
fn div_rem_words(r: &mut [u64], da: usize, d: &[u64], dd: usize, hw: bool) -> Vec<u64> {
    let qdeg = da - dd;
    let mut q = vec![0u64; qdeg / 64 + 1];
    // The top 64 coefficients of d, x^dd at bit 63.
    let dtop = if dd >= 63 { bits_at(d, dd - 63) } else { d[0] << (63 - dd) };
    let dlen = dd / 64 + 1;
    for k in (0..=qdeg / 64).rev() {
        // PERF: find 64 quotient bits from the top 64 bits of d alone, then remove them all
        // with one carry-less word-by-polynomial product, instead of 64 shifted XORs.
        let base = dd + 64 * k;
        let mut w = bits_at(r, base);
        let mut qb = 0u64;
        while w != 0 {
            let j = 63 - w.leading_zeros();
            qb |= 1 << j;
            w ^= dtop >> (63 - j);
        }
        if qb != 0 {
            mul_word_xor(qb, &d[..dlen], &mut r[k..], hw);
        }
        q[k] = qb;
    }
    q
}

crate::cpu::avx2_dispatch! {
    /// Bit-step Euclid on equal-length buffers; returns the gcd's words.
    fn gcd_words(a: Vec<u64>, b: Vec<u64>) -> Vec<u64> => gcd_words_impl
}

#[inline(always)]
fn gcd_words_impl(mut a: Vec<u64>, mut b: Vec<u64>) -> Vec<u64> {
    let mut da = degree_of(&a);
    let mut db = degree_of(&b);
    loop {
        let Some(dbv) = db else { return a };
        let Some(dav) = da else { return b };
        if dav < dbv {
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut da, &mut db);
            continue;
        }
        // PERF: one shifted XOR of b's live words kills a's leading term.
        xor_shifted(&mut a, &b[..=dbv / 64], dav - dbv);
        da = degree_below(&a, dav);
    }
}

crate::cpu::avx2_dispatch! {
    /// `(g, t)` with `t * b = g = gcd(a, b) mod a`, by the bit-step Euclid carrying the cofactor
    /// of `b` only. `a` must be nonzero.
    pub(crate) fn half_ext_gcd(a: &Gf2Poly, b: &Gf2Poly) -> (Gf2Poly, Gf2Poly) => half_ext_gcd_impl
}

#[inline(always)]
fn half_ext_gcd_impl(a: &Gf2Poly, b: &Gf2Poly) -> (Gf2Poly, Gf2Poly) {
    let da0 = a.degree().expect("half_ext_gcd: a must be nonzero");
    let db0 = b.degree().unwrap_or(0);
    let n = words_for(da0.max(db0) + 1) + 1;
    let cn = words_for(da0 + db0 + 2) + 1;
    let (mut x, mut y) = (a.words.clone(), b.words.clone());
    x.resize(n, 0);
    y.resize(n, 0);
    // Invariants: x = tx * b (mod a), y = ty * b (mod a).
    let (mut tx, mut ty) = (vec![0u64; cn], vec![0u64; cn]);
    ty[0] = 1;
    let (mut dx, mut dy) = (degree_of(&x), degree_of(&y));
    let (mut dtx, mut dty): (Option<usize>, Option<usize>) = (None, Some(0));
    while let Some(dyv) = dy {
        let dxv = dx.expect("x stays nonzero while y is");
        if dxv < dyv {
            std::mem::swap(&mut x, &mut y);
            std::mem::swap(&mut dx, &mut dy);
            std::mem::swap(&mut tx, &mut ty);
            std::mem::swap(&mut dtx, &mut dty);
            continue;
        }
        let s = dxv - dyv;
        xor_shifted(&mut x, &y[..=dyv / 64], s);
        dx = degree_below(&x, dxv);
        if let Some(dt) = dty {
            xor_shifted(&mut tx, &ty[..=dt / 64], s);
            let bound = dtx.unwrap_or(0).max(dt + s);
            dtx = degree_below(&tx, bound);
        }
        if dx.is_none() {
            // y divides x: y is the gcd.
            std::mem::swap(&mut x, &mut y);
            std::mem::swap(&mut tx, &mut ty);
            break;
        }
    }
    let g = Gf2Poly::from_words(x);
    let t = Gf2Poly::from_words(tx);
    (g, t)
}

/// True when the CPU has a carry-less multiply instruction (see [`crate::cpu`]).
#[inline]
pub(crate) fn has_clmul() -> bool {
    crate::cpu::features().clmul
}

/// Carry-less 64 x 64 -> 128 product in software (4-bit windows).
#[inline]
fn clmul_soft(a: u64, b: u64) -> u128 {
    let mut table = [0u128; 16];
    let a = a as u128;
    for i in 1..16 {
        table[i] = if i & 1 == 1 { table[i - 1] ^ a } else { table[i / 2] << 1 };
    }
    let mut r = 0u128;
    for k in (0..16).rev() {
        r = (r << 4) ^ table[((b >> (4 * k)) & 15) as usize];
    }
    r
}

/// `out += q * d` (one word times a polynomial); `out` has at least `d.len() + 1` words.
fn mul_word_xor(q: u64, d: &[u64], out: &mut [u64], hw: bool) {
    #[cfg(target_arch = "x86_64")]
    if hw {
        // SAFETY: every caller passes `hw = has_clmul()` (or false), so the CPU has pclmulqdq,
        // the one feature `x86::mul_word_xor` is compiled with; it asserts its length contract.
        unsafe { x86::mul_word_xor(q, d, out) };
        return;
    }
    #[cfg(target_arch = "aarch64")]
    if hw {
        // SAFETY: as above, `has_clmul()` on aarch64 says the CPU has NEON, `aes` and `pmull`
        // (`cpu::features`), what `arm::mul_word_xor` is compiled with and runs; it asserts
        // its length contract.
        unsafe { arm::mul_word_xor(q, d, out) };
        return;
    }
    let _ = hw;
    for (i, &dw) in d.iter().enumerate() {
        let p = clmul_soft(q, dw);
        out[i] ^= p as u64;
        out[i + 1] ^= (p >> 64) as u64;
    }
}

/// `out += a * b`, schoolbook on word products. `out.len() >= a.len() + b.len()`.
fn mul_basecase(a: &[u64], b: &[u64], out: &mut [u64], hw: bool) {
    for (i, &x) in a.iter().enumerate() {
        if x != 0 {
            mul_word_xor(x, b, &mut out[i..], hw);
        }
    }
}

/// `out += a * b` (Karatsuba above the threshold). `out.len() >= a.len() + b.len()`.
fn mul_into(a: &[u64], b: &[u64], out: &mut [u64], hw: bool) {
    let (a, b) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    if b.is_empty() {
        return;
    }
    if b.len() < KARATSUBA_THRESHOLD {
        mul_basecase(b, a, out, hw);
        return;
    }
    if a.len() >= 2 * b.len() {
        // Unbalanced: cut the long factor into pieces the size of the short one.
        for (k, chunk) in a.chunks(b.len()).enumerate() {
            mul_into(chunk, b, &mut out[k * b.len()..], hw);
        }
        return;
    }
    let h = a.len().div_ceil(2);
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h.min(b.len()));
    if b1.is_empty() {
        mul_into(a0, b, out, hw);
        mul_into(a1, b, &mut out[h..], hw);
        return;
    }
    // z0 = a0 b0, z2 = a1 b1, z1 = (a0 + a1)(b0 + b1) + z0 + z2.
    let mut z0 = vec![0u64; a0.len() + b0.len()];
    mul_into(a0, b0, &mut z0, hw);
    let mut z2 = vec![0u64; a1.len() + b1.len()];
    mul_into(a1, b1, &mut z2, hw);
    let mut sa = a0.to_vec();
    for (s, x) in sa.iter_mut().zip(a1) {
        *s ^= x;
    }
    let mut sb = b0.to_vec();
    for (s, x) in sb.iter_mut().zip(b1) {
        *s ^= x;
    }
    let mut z1 = vec![0u64; sa.len() + sb.len()];
    mul_into(&sa, &sb, &mut z1, hw);
    for (z, x) in z1.iter_mut().zip(&z0) {
        *z ^= x;
    }
    for (z, x) in z1.iter_mut().zip(&z2) {
        *z ^= x;
    }
    for (o, x) in out.iter_mut().zip(&z0) {
        *o ^= x;
    }
    for (o, x) in out[h..].iter_mut().zip(&z1) {
        *o ^= x;
    }
    for (o, x) in out[2 * h..].iter_mut().zip(&z2) {
        *o ^= x;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::{
        __m128i, _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_unpackhi_epi64,
    };

    /// `out += q * d` with one `pclmulqdq` per word of `d`.
    ///
    /// # Safety
    /// The CPU must support `pclmulqdq`; `out.len() >= d.len() + 1`.
    #[target_feature(enable = "pclmulqdq")]
    pub(super) unsafe fn mul_word_xor(q: u64, d: &[u64], out: &mut [u64]) {
        assert!(out.len() > d.len());
        let qv: __m128i = _mm_set_epi64x(0, q as i64);
        let mut carry = 0u64;
        for (i, &dw) in d.iter().enumerate() {
            let p = _mm_clmulepi64_si128(qv, _mm_set_epi64x(0, dw as i64), 0x00);
            let lo = _mm_cvtsi128_si64(p) as u64;
            let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(p, p)) as u64;
            out[i] ^= lo ^ carry;
            carry = hi;
        }
        out[d.len()] ^= carry;
    }
}

#[cfg(target_arch = "aarch64")]
mod arm {
    use std::arch::aarch64::vmull_p64;

    /// `out += q * d` with one `pmull` per word of `d`.
    ///
    /// PERF: the software product (`clmul_soft`: a 16-entry table built, then 16 lookups and
    /// 128-bit shifts) is one instruction here; on x86-64, forcing the software path made the
    /// Lights Out nullities of every n x n to 25 000 1.3-1.7x slower (docs/lights.md).
    ///
    /// # Safety
    /// The CPU must support NEON and `aes`; `out.len() >= d.len() + 1`.
    #[target_feature(enable = "neon,aes")]
    pub(super) unsafe fn mul_word_xor(q: u64, d: &[u64], out: &mut [u64]) {
        assert!(out.len() > d.len());
        let mut carry = 0u64;
        for (i, &dw) in d.iter().enumerate() {
            let p = vmull_p64(q, dw);
            out[i] ^= p as u64 ^ carry;
            carry = (p >> 64) as u64;
        }
        out[d.len()] ^= carry;
    }
}

impl fmt::Debug for Gf2Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gf2Poly({self})")
    }
}

impl fmt::Display for Gf2Poly {
    /// Terms from the highest degree down: `x^3 + x + 1`; `0` for the zero polynomial.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(d) = self.degree() else { return write!(f, "0") };
        let mut first = true;
        for k in (0..=d).rev().filter(|&k| self.coeff(k)) {
            if !first {
                write!(f, " + ")?;
            }
            first = false;
            match k {
                0 => write!(f, "1")?,
                1 => write!(f, "x")?,
                _ => write!(f, "x^{k}")?,
            }
        }
        Ok(())
    }
}

impl std::ops::AddAssign<&Gf2Poly> for Gf2Poly {
    fn add_assign(&mut self, other: &Gf2Poly) {
        self.add_in_place(other);
    }
}

impl std::ops::Add for &Gf2Poly {
    type Output = Gf2Poly;

    /// The sum (XOR of the coefficients).
    fn add(self, other: &Gf2Poly) -> Gf2Poly {
        let mut s = self.clone();
        s.add_in_place(other);
        s
    }
}

impl std::ops::Mul for &Gf2Poly {
    type Output = Gf2Poly;

    /// The product: carry-less (`pclmulqdq` or `pmull` when present), Karatsuba on large operands.
    fn mul(self, other: &Gf2Poly) -> Gf2Poly {
        self.product(other)
    }
}

impl std::ops::Rem for &Gf2Poly {
    type Output = Gf2Poly;

    /// The remainder of the division by `d`. Panics if `d` is zero.
    fn rem(self, d: &Gf2Poly) -> Gf2Poly {
        self.div_rem(d).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Slow, obvious product: one shifted add per term.
    fn mul_slow(a: &Gf2Poly, b: &Gf2Poly) -> Gf2Poly {
        let mut r = Gf2Poly::zero();
        for k in 0..=a.degree().unwrap_or(0) {
            if a.coeff(k) {
                r.add_shifted(b, k);
            }
        }
        r
    }

    /// Slow, obvious p_n by the three-term recurrence.
    fn chebyshev_slow(n: usize) -> Gf2Poly {
        let (mut prev, mut cur) = (Gf2Poly::zero(), Gf2Poly::one());
        for _ in 0..n {
            let next = &cur.shl(1) + &prev;
            prev = cur;
            cur = next;
        }
        cur
    }

    fn poly(words: Vec<u64>) -> Gf2Poly {
        Gf2Poly::from_words(words)
    }

    #[test]
    fn display_and_small_chebyshev() {
        assert_eq!(Gf2Poly::chebyshev(0).to_string(), "1");
        assert_eq!(Gf2Poly::chebyshev(2).to_string(), "x^2 + 1");
        assert_eq!(Gf2Poly::chebyshev(3).to_string(), "x^3");
        assert_eq!(Gf2Poly::chebyshev(4).to_string(), "x^4 + x^2 + 1");
        assert_eq!(Gf2Poly::chebyshev(5).to_string(), "x^5 + x");
        for n in 0..300 {
            assert_eq!(Gf2Poly::chebyshev(n), chebyshev_slow(n), "n = {n}");
        }
    }

    #[test]
    fn chebyshev_mod_matches_reduction() {
        let m = chebyshev_slow(37);
        for n in [0, 1, 5, 64, 200, 777] {
            let direct = chebyshev_slow(n);
            assert_eq!(Gf2Poly::chebyshev_mod(n, false, &m), &direct % &m);
            assert_eq!(Gf2Poly::chebyshev_mod(n, true, &m), &direct.compose_x_plus_one() % &m);
        }
    }

    #[test]
    fn soft_and_hardware_clmul_agree() {
        let (a, b) = (0xdead_beef_0123_4567u64, 0xfedc_ba98_7654_3210u64);
        let soft = clmul_soft(a, b);
        let mut slow = 0u128;
        for i in 0..64 {
            if (b >> i) & 1 == 1 {
                slow ^= (a as u128) << i;
            }
        }
        assert_eq!(soft, slow);
        let mut out = [0u64; 2];
        mul_word_xor(a, &[b], &mut out, has_clmul());
        assert_eq!(out, [slow as u64, (slow >> 64) as u64]);
    }

    /// The hardware product (`pclmulqdq` or `pmull`, where the CPU has it) against the
    /// software one, word by word with the carries between words, on random operands.
    #[test]
    fn hardware_and_software_word_products_agree() {
        // Where the CPU is known to have the instruction (CI's qemu aarch64 step sets
        // DAMIER_EXPECT_CLMUL), the hardware path must be the one compared.
        if std::env::var_os("DAMIER_EXPECT_CLMUL").is_some() {
            assert!(has_clmul(), "DAMIER_EXPECT_CLMUL is set but no carry-less multiply was detected");
        }
        let mut next = random_words(0x2545_f491_4f6c_dd1d);
        for len in [1, 2, 3, 7, 64] {
            for _ in 0..50 {
                let q = next();
                let d: Vec<u64> = (0..len).map(|_| next()).collect();
                let start: Vec<u64> = (0..=len).map(|_| next()).collect();
                let (mut hw, mut soft) = (start.clone(), start);
                mul_word_xor(q, &d, &mut hw, has_clmul());
                mul_word_xor(q, &d, &mut soft, false);
                assert_eq!(hw, soft, "{len} words");
            }
        }
    }

    /// Random words from `seed` (xorshift64).
    fn random_words(mut s: u64) -> impl FnMut() -> u64 {
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    #[test]
    fn big_products_karatsuba_vs_schoolbook() {
        let mut next = random_words(0x9e37_79b9_7f4a_7c15);
        for (la, lb) in [(100, 100), (150, 31), (200, 70), (64, 25)] {
            let a = poly((0..la).map(|_| next()).collect());
            let b = poly((0..lb).map(|_| next()).collect());
            let mut school = vec![0u64; la + lb];
            mul_basecase(a.words(), b.words(), &mut school, false);
            assert_eq!(&a * &b, poly(school));
        }
    }

    proptest! {
        #[test]
        fn ring_laws_and_division(a in prop::collection::vec(any::<u64>(), 0..5),
                                  b in prop::collection::vec(any::<u64>(), 0..4),
                                  c in prop::collection::vec(any::<u64>(), 1..3)) {
            let (a, b, c) = (poly(a), poly(b), poly(c));
            prop_assert_eq!(&a * &b, mul_slow(&a, &b));
            prop_assert_eq!(a.square(), mul_slow(&a, &a));
            if !c.is_zero() {
                let (q, r) = a.div_rem(&c);
                prop_assert!(r.degree().is_none_or(|d| d < c.degree().unwrap()));
                prop_assert_eq!(&(&q * &c) + &r, a.clone());
            }
            let (g, s, t) = a.ext_gcd(&b);
            prop_assert_eq!(&(&s * &a) + &(&t * &b), g.clone());
            if !g.is_zero() {
                prop_assert!((&a % &g).is_zero() && (&b % &g).is_zero());
            }
            prop_assert_eq!(a.gcd(&b), g);
            // f(x+1) by the slow route: sum over terms of (x+1)^k.
            let mut slow = Gf2Poly::zero();
            let mut pw = Gf2Poly::one();
            for k in 0..=a.degree().unwrap_or(0) {
                if a.coeff(k) { slow += &pw; }
                pw = mul_slow(&pw, &Gf2Poly::from_words(vec![3]));
            }
            prop_assert_eq!(a.compose_x_plus_one(), slow);
        }

        #[test]
        fn inverse_mod_is_an_inverse(a in prop::collection::vec(any::<u64>(), 1..4), m in prop::collection::vec(any::<u64>(), 1..3)) {
            let (a, m) = (poly(a), poly(m));
            prop_assume!(m.degree().is_some_and(|d| d > 0));
            match a.inverse_mod(&m) {
                Some(inv) => prop_assert!(inv.mul_mod(&a, &m).is_one()),
                None => prop_assert!(!a.gcd(&m).is_one()),
            }
        }
    }

    #[test]
    fn eval_matrix_is_cayley_hamilton_for_the_path() {
        // p_n is the characteristic polynomial of the path adjacency: p_n(A) = 0.
        for n in 1..20 {
            let mut a = BitMatrix::zeros(n, n);
            for i in 0..n.saturating_sub(1) {
                a.set(i, i + 1, true);
                a.set(i + 1, i, true);
            }
            let z = Gf2Poly::chebyshev(n).eval_matrix(&a);
            assert_eq!(z, BitMatrix::zeros(n, n), "n = {n}");
        }
    }
}
