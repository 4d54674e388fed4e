//! Arithmetic around the automaton: a deterministic primality test (so the automaton never
//! runs on a prime), the two baselines it is measured against (trial division and Pollard's
//! rho with Brent's cycle finding) and random balanced semiprimes for the sweep.
//!
//! ```
//! use damier::factor::arith::{is_prime, pollard_rho, trial_division};
//!
//! assert!(is_prime(18_446_744_073_709_551_557)); // the largest prime below 2^64
//! assert_eq!(trial_division(1009 * 1013), 1009);
//! let f = pollard_rho(1_000_003 * 1_000_033, 1);
//! assert!(f == 1_000_003 || f == 1_000_033);
//! ```

use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// `a × b mod m` without overflow.
#[inline]
fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

/// `base^exp mod m`.
fn pow_mod(mut base: u64, mut exp: u64, m: u64) -> u64 {
    let mut acc = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul_mod(acc, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    acc
}

/// The first 12 primes: as Miller–Rabin bases they decide primality exactly for every
/// `n < 3.3 × 10^24`, so for every `u64` (Sorenson and Webster, 2015).
const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/// Whether `n` is prime; deterministic and exact for every `u64`.
pub fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    // n - 1 = d 2^s with d odd.
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'bases: for a in BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// The smallest prime factor of `n ≥ 2` by trial division (2, then odd divisors up to √n):
/// the obvious baseline, `O(√p)` divisions for a smallest factor `p`.
pub fn trial_division(n: u64) -> u64 {
    assert!(n >= 2, "trial division needs n >= 2");
    if n.is_multiple_of(2) {
        return 2;
    }
    let mut d = 3u64;
    while d.checked_mul(d).is_some_and(|sq| sq <= n) {
        if n.is_multiple_of(d) {
            return d;
        }
        d += 2;
    }
    n
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A non-trivial factor of the composite `n` by Pollard's rho with Brent's cycle finding and
/// batched gcds (Brent, 1980); `seed` picks the polynomial `x² + c` and the start, and a
/// failed attempt retries with the next one. Expected `O(n^{1/4})` multiplications.
///
/// # Panics
/// If `n` is prime or below 4 (there is no non-trivial factor to find).
pub fn pollard_rho(n: u64, seed: u64) -> u64 {
    assert!(n >= 4 && !is_prime(n), "pollard_rho needs a composite n, got {n}");
    if n.is_multiple_of(2) {
        return 2;
    }
    // PERF: the gcd is taken once per 128 steps on the product of the differences.
    const BATCH: u64 = 128;
    let mut attempt = seed;
    loop {
        attempt = attempt.wrapping_add(1);
        let c = 1 + attempt % (n - 1);
        let f = |x: u64| ((mul_mod(x, x, n) as u128 + c as u128) % n as u128) as u64;
        let mut y = (attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % n;
        let (mut r, mut q, mut g) = (1u64, 1u64, 1u64);
        let (mut x, mut ys) = (y, y);
        while g == 1 {
            x = y;
            for _ in 0..r {
                y = f(y);
            }
            let mut k = 0;
            while k < r && g == 1 {
                ys = y;
                for _ in 0..BATCH.min(r - k) {
                    y = f(y);
                    q = mul_mod(q, x.abs_diff(y), n);
                }
                g = gcd(q, n);
                k += BATCH;
            }
            r *= 2;
        }
        if g == n {
            // The batch overshot: redo it one step at a time.
            loop {
                ys = f(ys);
                g = gcd(x.abs_diff(ys), n);
                if g > 1 {
                    break;
                }
            }
        }
        if g != n {
            return g;
        }
    }
}

/// A random prime with exactly `bits` bits (top bit set), `2 ≤ bits ≤ 63`.
pub fn random_prime(bits: u32, rng: &mut Xoshiro256PlusPlus) -> u64 {
    assert!((2..=63).contains(&bits), "prime size {bits} out of 2..=63");
    loop {
        let p = rng.random_range((1u64 << (bits - 1))..(1u64 << bits));
        if is_prime(p) {
            return p;
        }
    }
}

/// Smallest and largest sizes accepted by [`balanced_semiprime`].
pub const SEMIPRIME_BITS: std::ops::RangeInclusive<u32> = 6..=64;

/// A random semiprime `p × q` with exactly `bits` bits and two factors of equal size
/// (`⌈bits/2⌉` and `⌊bits/2⌋` bits, redrawn until the product has `bits` bits); returns
/// `(p × q, min, max)`. `bits` in [`SEMIPRIME_BITS`].
pub fn balanced_semiprime(bits: u32, rng: &mut Xoshiro256PlusPlus) -> (u64, u64, u64) {
    assert!(SEMIPRIME_BITS.contains(&bits), "semiprime size {bits} out of {SEMIPRIME_BITS:?}");
    loop {
        let p = random_prime(bits.div_ceil(2), rng);
        let q = random_prime(bits / 2, rng);
        let n = p as u128 * q as u128;
        if n >> (bits - 1) == 1 {
            return (n as u64, p.min(q), p.max(q));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;

    fn sieve(limit: usize) -> Vec<bool> {
        let mut p = vec![true; limit + 1];
        p[0] = false;
        p[1] = false;
        let mut i = 2;
        while i * i <= limit {
            if p[i] {
                for k in (i * i..=limit).step_by(i) {
                    p[k] = false;
                }
            }
            i += 1;
        }
        p
    }

    #[test]
    fn primality_matches_a_sieve_to_a_million() {
        let s = sieve(1_000_000);
        for (n, &p) in s.iter().enumerate() {
            assert_eq!(is_prime(n as u64), p, "n = {n}");
        }
    }

    #[test]
    fn known_large_primes_and_pseudoprimes() {
        for p in [
            u64::MAX - 58, // 2^64 - 59, the largest u64 prime
            (1 << 61) - 1, // Mersenne prime
            4_294_967_291, // largest 32-bit prime
            1_000_000_000_000_000_003,
        ] {
            assert!(is_prime(p), "{p} is prime");
        }
        for c in [561u64, 1105, 1729, 2465, 2821, 6601, 8911, 3_215_031_751] {
            // Carmichael numbers, then a strong pseudoprime to bases 2, 3, 5 and 7.
            assert_ne!(trial_division(c), c, "{c} is composite");
            assert!(!is_prime(c), "{c}");
        }
        // A strong pseudoprime to the prime bases 2 to 23, a product of two large primes,
        // and 2^64 - 1.
        for c in [3_825_123_056_546_413_051u64, 4_294_967_291 * 4_294_967_279, u64::MAX] {
            assert!(!is_prime(c), "{c}");
        }
        assert!(!is_prime(3_825_123_056_546_413_051));
        assert!(!is_prime(0) && !is_prime(1) && is_prime(2) && is_prime(3) && !is_prime(4));
    }

    #[test]
    fn semiprimes_have_the_asked_size() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for bits in SEMIPRIME_BITS {
            let (n, p, q) = balanced_semiprime(bits, &mut rng);
            assert_eq!(64 - n.leading_zeros(), bits);
            assert_eq!(p as u128 * q as u128, n as u128);
            assert!(is_prime(p) && is_prime(q) && p <= q);
            assert!(q.ilog2() - p.ilog2() <= 1, "balanced: {p} x {q}");
        }
    }

    proptest! {
        #[test]
        fn trial_division_finds_the_smallest_factor(n in 2u64..2_000_000) {
            let d = trial_division(n);
            prop_assert!(n % d == 0 && d >= 2);
            prop_assert!((2..d).all(|k| n % k != 0));
        }

        #[test]
        fn rho_finds_a_proper_factor(p in 2u64..100_000, q in 2u64..100_000_000, seed: u64) {
            let n = p * q;
            let d = pollard_rho(n, seed);
            prop_assert!(d > 1 && d < n && n % d == 0);
        }

        #[test]
        fn rho_on_balanced_semiprimes(bits in 6u32..=64, seed: u64) {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let (n, p, q) = balanced_semiprime(bits, &mut rng);
            let d = pollard_rho(n, seed);
            prop_assert!(d == p || d == q);
        }
    }
}
