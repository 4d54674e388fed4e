//! Cosets `particular + span(basis)` over GF(2): every solution of a linear system with a
//! kernel (Lights Out presses, first rows, walk activation sets), walked in Gray-code order so
//! that each step adds one basis vector.

use std::ops::ControlFlow;

use super::BitVec;

/// A vector over GF(2) that a [`Coset`] can hold: XOR in place and a weight.
pub trait XorVector: Clone {
    /// `self += other` (XOR). Both have the same length.
    fn xor_with(&mut self, other: &Self);
    /// Number of ones.
    fn weight(&self) -> u64;
}

impl XorVector for BitVec {
    fn xor_with(&mut self, other: &BitVec) {
        self.xor_assign(other);
    }

    fn weight(&self) -> u64 {
        self.count_ones() as u64
    }
}

impl XorVector for Vec<u64> {
    fn xor_with(&mut self, other: &Vec<u64>) {
        for (a, b) in self.iter_mut().zip(other) {
            *a ^= b;
        }
    }

    fn weight(&self) -> u64 {
        self.iter().map(|w| u64::from(w.count_ones())).sum()
    }
}

/// The set `particular + span(basis)`: `2^basis.len()` elements when the basis is independent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coset<V> {
    /// One element.
    pub particular: V,
    /// Independent vectors whose sums, added to `particular`, give every element.
    pub basis: Vec<V>,
}

/// The largest dimension [`Coset::for_each`] walks: `2^63` steps would never finish anyway.
pub const MAX_WALK_DIMENSION: usize = 63;

impl<V: XorVector> Coset<V> {
    /// The coset `particular + span(basis)`.
    pub fn new(particular: V, basis: Vec<V>) -> Coset<V> {
        Coset { particular, basis }
    }

    /// The dimension `k` (the number of basis vectors).
    pub fn dimension(&self) -> usize {
        self.basis.len()
    }

    /// The number of elements, `2^k`, in decimal.
    pub fn count_decimal(&self) -> String {
        power_of_two_decimal(self.basis.len() as u64)
    }

    /// Calls `f(mask, element)` for every element in Gray-code order (element `mask` is
    /// `particular + sum of basis[j] for the bits j of mask`), until `f` breaks. Panics above
    /// [`MAX_WALK_DIMENSION`].
    pub fn for_each<B>(&self, mut f: impl FnMut(u64, &V) -> ControlFlow<B>) -> ControlFlow<B> {
        let k = self.basis.len();
        assert!(k <= MAX_WALK_DIMENSION, "a coset of dimension {k} is too large to walk");
        let mut cur = self.particular.clone();
        f(0, &cur)?;
        for i in 1u64..(1u64 << k) {
            // PERF: Gray code: step i adds the basis vector of i's lowest set bit, one XOR.
            cur.xor_with(&self.basis[i.trailing_zeros() as usize]);
            f(i ^ (i >> 1), &cur)?;
        }
        ControlFlow::Continue(())
    }

    /// Every element, in Gray-code order.
    pub fn elements(&self) -> Vec<V> {
        let mut out = Vec::with_capacity(1 << self.basis.len().min(20));
        let _ = self.for_each(|_, v| {
            out.push(v.clone());
            ControlFlow::<()>::Continue(())
        });
        out
    }

    /// The element with the smallest `key` (the first one met on ties) and its mask, by walking
    /// all of them; `stop` is asked every 65536 steps and ends the walk with its error.
    pub fn smallest_by<K: Ord, E>(
        &self,
        key: impl Fn(&V) -> K,
        mut stop: impl FnMut() -> Result<(), E>,
    ) -> Result<(u64, V), E> {
        let mut best: Option<(K, u64)> = None;
        let flow = self.for_each(|mask, v| {
            if mask & 0xffff == 0
                && let Err(e) = stop()
            {
                return ControlFlow::Break(e);
            }
            let k = key(v);
            if best.as_ref().is_none_or(|(b, _)| k < *b) {
                best = Some((k, mask));
            }
            ControlFlow::Continue(())
        });
        if let ControlFlow::Break(e) = flow {
            return Err(e);
        }
        let mask = best.map_or(0, |(_, m)| m);
        Ok((mask, self.element(mask)))
    }

    /// The lightest element (fewest ones) and its mask.
    pub fn lightest(&self) -> (u64, V) {
        match self.smallest_by(XorVector::weight, || Ok::<(), std::convert::Infallible>(())) {
            Ok(found) => found,
        }
    }

    /// The element `particular + sum of basis[j] for the bits j of mask`.
    pub fn element(&self, mask: u64) -> V {
        let mut v = self.particular.clone();
        for (j, b) in self.basis.iter().enumerate() {
            if (mask >> j) & 1 == 1 {
                v.xor_with(b);
            }
        }
        v
    }
}

/// `2^k` in decimal (it exceeds `u64` for `k >= 64`): the size of a coset of dimension `k`.
pub fn power_of_two_decimal(k: u64) -> String {
    if k < 128 {
        return (1u128 << k).to_string();
    }
    // Little-endian base 10^9 limbs, doubled k times in chunks of 29 bits.
    let mut limbs: Vec<u64> = vec![1];
    let mut left = k;
    while left > 0 {
        let step = left.min(29);
        left -= step;
        let mut carry = 0u64;
        for l in limbs.iter_mut() {
            let v = (*l << step) + carry;
            *l = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push(carry % 1_000_000_000);
            carry /= 1_000_000_000;
        }
    }
    let mut s = limbs.last().expect("nonempty").to_string();
    for l in limbs.iter().rev().skip(1) {
        s.push_str(&format!("{l:09}"));
    }
    s
}

/// `2^k - 1` in decimal, exact for any `k` (the number of nonzero vectors of a k-dimensional
/// space over GF(2)).
pub fn power_of_two_minus_one_decimal(k: u64) -> String {
    let mut digits = power_of_two_decimal(k).into_bytes();
    // 2^k ends in 1, 2, 4, 6 or 8, never 0: subtracting 1 touches the last digit only.
    let last = digits.last_mut().expect("nonempty");
    debug_assert!(*last > b'0');
    *last -= 1;
    String::from_utf8(digits).expect("ASCII digits")
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every element by the obvious loop over masks (no Gray code).
    fn by_masks(c: &Coset<Vec<u64>>) -> Vec<Vec<u64>> {
        (0..1u64 << c.dimension()).map(|m| c.element(m)).collect()
    }

    proptest! {
        #[test]
        fn gray_walk_meets_every_element_once_with_its_mask(
            p in proptest::collection::vec(any::<u64>(), 2),
            basis in proptest::collection::vec(proptest::collection::vec(any::<u64>(), 2), 0..8),
        ) {
            let c = Coset::new(p, basis);
            let mut seen = Vec::new();
            let _ = c.for_each(|mask, v| {
                assert_eq!(&c.element(mask), v, "mask {mask}");
                seen.push(mask);
                ControlFlow::<()>::Continue(())
            });
            seen.sort_unstable();
            prop_assert_eq!(seen, (0..1u64 << c.dimension()).collect::<Vec<_>>());
            let mut all = c.elements();
            let mut slow = by_masks(&c);
            all.sort();
            slow.sort();
            prop_assert_eq!(all, slow);
            let (mask, light) = c.lightest();
            prop_assert_eq!(&c.element(mask), &light);
            prop_assert_eq!(light.weight(), by_masks(&c).iter().map(XorVector::weight).min().unwrap());
        }
    }

    #[test]
    fn the_walk_stops_when_asked() {
        let c = Coset::new(vec![0u64], (0..20).map(|j| vec![1u64 << j]).collect());
        let mut calls = 0;
        let r = c.smallest_by(XorVector::weight, || {
            calls += 1;
            if calls > 2 { Err("stop") } else { Ok(()) }
        });
        assert_eq!(r, Err("stop"));
        assert_eq!(c.count_decimal(), "1048576");
    }

    #[test]
    fn powers_of_two_in_decimal() {
        for k in 0..128 {
            assert_eq!(power_of_two_decimal(k), (1u128 << k).to_string());
            assert_eq!(power_of_two_minus_one_decimal(k), ((1u128 << k) - 1).to_string());
        }
        assert_eq!(power_of_two_decimal(130), "1361129467683753853853498429727072845824");
        assert_eq!(power_of_two_minus_one_decimal(130), "1361129467683753853853498429727072845823");
    }
}
