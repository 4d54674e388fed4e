//! Cosets `particular + span(basis)` over GF(2): every solution of a linear system with a
//! kernel (Lights Out presses, first rows, walk activation sets), walked in Gray-code order so
//! that each step adds one basis vector.

use std::ops::ControlFlow;

use super::BitVec;

/// A vector over GF(2) that a [`Coset`] can hold: XOR in place, a weight, and its bits as words
/// (for the elimination of [`Coset::affine_hull`]).
pub trait XorVector: Clone {
    /// `self += other` (XOR). Both have the same length.
    fn xor_with(&mut self, other: &Self);
    /// Number of ones.
    fn weight(&self) -> u64;
    /// The bits packed in words, in a layout fixed for vectors of one length (bit `i` at bit
    /// `i % 64` of word `i / 64`; padding bits 0).
    fn as_words(&self) -> &[u64];
}

impl XorVector for BitVec {
    fn xor_with(&mut self, other: &BitVec) {
        self.xor_assign(other);
    }

    fn weight(&self) -> u64 {
        self.count_ones() as u64
    }

    fn as_words(&self) -> &[u64] {
        self.words()
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

    fn as_words(&self) -> &[u64] {
        self
    }
}

/// Bit `i` of packed words.
fn word_bit(words: &[u64], i: usize) -> bool {
    (words[i / 64] >> (i % 64)) & 1 == 1
}

/// The index of the lowest set bit of packed words, `None` when all are 0.
fn lowest_one(words: &[u64]) -> Option<usize> {
    let (i, w) = words.iter().enumerate().find(|(_, w)| **w != 0)?;
    Some(i * 64 + w.trailing_zeros() as usize)
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

    /// The smallest coset holding every one of `elements` (their affine hull), `None` when
    /// there is none. The particular element is the first one; the basis is, in the order
    /// met, each difference `element - first` that is independent of the earlier ones (kept
    /// as the difference itself, so a complete list of solutions gives back its own members).
    pub fn affine_hull(elements: &[V]) -> Option<Coset<V>> {
        let (first, rest) = elements.split_first()?;
        // The basis in echelon form beside it: each reduced vector with its lowest set bit,
        // that bit cleared in every later one.
        let mut echelon: Vec<(usize, V)> = Vec::new();
        let mut basis = Vec::new();
        for e in rest {
            let mut difference = e.clone();
            difference.xor_with(first);
            let mut reduced = difference.clone();
            for (lead, b) in &echelon {
                if word_bit(reduced.as_words(), *lead) {
                    reduced.xor_with(b);
                }
            }
            if let Some(lead) = lowest_one(reduced.as_words()) {
                echelon.push((lead, reduced));
                basis.push(difference);
            }
        }
        Some(Coset::new(first.clone(), basis))
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

    /// Every sum of a subset of `vectors`, by brute force over the subsets.
    fn all_sums(vectors: &[Vec<u64>], len: usize) -> Vec<Vec<u64>> {
        let mut sums: Vec<Vec<u64>> = (0..1u64 << vectors.len())
            .map(|mask| {
                let mut s = vec![0u64; len];
                for (_, v) in vectors.iter().enumerate().filter(|(j, _)| (mask >> j) & 1 == 1) {
                    s.xor_with(v);
                }
                s
            })
            .collect();
        sums.sort();
        sums.dedup();
        sums
    }

    proptest! {
        /// The hull holds exactly the first element plus every sum of differences (the span,
        /// by brute force over all subsets), its basis is independent (2^k distinct
        /// elements), and every basis vector is one of the given differences.
        #[test]
        fn affine_hull_is_the_span_of_the_differences(
            elements in proptest::collection::vec(
                proptest::collection::vec(prop_oneof![Just(0u64), Just(1), Just(6), Just(1 << 63), any::<u64>()], 2),
                1..9,
            ),
        ) {
            let c = Coset::affine_hull(&elements).unwrap();
            prop_assert_eq!(&c.particular, &elements[0]);
            let differences: Vec<Vec<u64>> = elements[1..]
                .iter()
                .map(|e| e.iter().zip(&elements[0]).map(|(a, b)| a ^ b).collect())
                .collect();
            let expected: Vec<Vec<u64>> = all_sums(&differences, 2)
                .into_iter()
                .map(|d| d.iter().zip(&elements[0]).map(|(a, b)| a ^ b).collect())
                .collect();
            let mut got = c.elements();
            got.sort();
            let before = got.len();
            got.dedup();
            prop_assert_eq!(before, got.len(), "the basis is independent");
            let mut expected = expected;
            expected.sort();
            prop_assert_eq!(got, expected);
            for b in &c.basis {
                prop_assert!(differences.contains(b));
            }
        }
    }

    #[test]
    fn affine_hull_of_nothing_is_none() {
        assert_eq!(Coset::<Vec<u64>>::affine_hull(&[]), None);
        let one = Coset::affine_hull(&[vec![5u64]]).unwrap();
        assert_eq!((one.particular, one.basis.len()), (vec![5], 0));
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
