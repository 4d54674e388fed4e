use super::words_for;

/// A vector over GF(2), packed 64 entries to a word; unused high bits are kept zero.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct BitVec {
    len: usize,
    words: Vec<u64>,
}

impl BitVec {
    /// The zero vector of length `len`.
    pub fn zeros(len: usize) -> Self {
        BitVec { len, words: vec![0; words_for(len)] }
    }

    /// The all-ones vector of length `len`.
    pub fn ones(len: usize) -> Self {
        let mut v = BitVec { len, words: vec![!0; words_for(len)] };
        v.clear_tail();
        v
    }

    /// A vector from its entries.
    pub fn from_bools(bits: &[bool]) -> Self {
        let mut v = BitVec::zeros(bits.len());
        for (i, &b) in bits.iter().enumerate() {
            v.set(i, b);
        }
        v
    }

    /// The entries, in order.
    pub fn to_bools(&self) -> Vec<bool> {
        (0..self.len).map(|i| self.get(i)).collect()
    }

    /// A vector of length `len` from packed words (extra words and high bits are dropped).
    pub fn from_words(len: usize, words: &[u64]) -> Self {
        let mut v = BitVec::zeros(len);
        let n = v.words.len().min(words.len());
        v.words[..n].copy_from_slice(&words[..n]);
        v.clear_tail();
        v
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for the vector of length 0.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry `i`. Panics if `i >= len`.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        assert!(i < self.len, "bit index {i} out of range for length {}", self.len);
        (self.words[i / 64] >> (i % 64)) & 1 == 1
    }

    /// Sets entry `i`. Panics if `i >= len`.
    #[inline]
    pub fn set(&mut self, i: usize, value: bool) {
        assert!(i < self.len, "bit index {i} out of range for length {}", self.len);
        let mask = 1u64 << (i % 64);
        if value {
            self.words[i / 64] |= mask;
        } else {
            self.words[i / 64] &= !mask;
        }
    }

    /// Flips entry `i`. Panics if `i >= len`.
    #[inline]
    pub fn flip(&mut self, i: usize) {
        assert!(i < self.len, "bit index {i} out of range for length {}", self.len);
        self.words[i / 64] ^= 1u64 << (i % 64);
    }

    /// `self += other` over GF(2). Panics if the lengths differ.
    #[inline]
    pub fn xor_assign(&mut self, other: &BitVec) {
        assert_eq!(self.len, other.len, "length mismatch");
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a ^= b;
        }
    }

    /// The dot product over GF(2): the parity of the overlap.
    pub fn dot(&self, other: &BitVec) -> bool {
        assert_eq!(self.len, other.len, "length mismatch");
        let ones: u32 = self.words.iter().zip(&other.words).map(|(a, b)| (a & b).count_ones()).sum();
        ones % 2 == 1
    }

    /// Number of entries equal to 1.
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when every entry is 0.
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Indices of the entries equal to 1, increasing.
    pub fn ones_indices(&self) -> impl Iterator<Item = usize> + '_ {
        super::ones_in(&self.words)
    }

    /// The packed words (high bits of the last word are zero).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The packed words, mutable. Callers must keep the high bits of the last word zero
    /// (or call [`BitVec::clear_tail`]).
    #[inline]
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// Zeroes the unused high bits of the last word.
    pub fn clear_tail(&mut self) {
        let r = self.len % 64;
        if r != 0
            && let Some(last) = self.words.last_mut()
        {
            *last &= (1u64 << r) - 1;
        }
    }
}

impl std::fmt::Debug for BitVec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BitVec[")?;
        for i in 0..self.len {
            write!(f, "{}", u8::from(self.get(i)))?;
        }
        write!(f, "]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_flip_and_count() {
        let mut v = BitVec::zeros(130);
        v.set(0, true);
        v.set(64, true);
        v.flip(129);
        assert!(v.get(0) && v.get(64) && v.get(129) && !v.get(1));
        assert_eq!(v.count_ones(), 3);
        assert_eq!(v.ones_indices().collect::<Vec<_>>(), vec![0, 64, 129]);
        v.flip(129);
        assert_eq!(v.count_ones(), 2);
    }

    #[test]
    fn ones_keeps_tail_clear() {
        let v = BitVec::ones(70);
        assert_eq!(v.count_ones(), 70);
        assert_eq!(v.words()[1], (1 << 6) - 1);
    }

    #[test]
    fn dot_is_overlap_parity() {
        let a = BitVec::from_bools(&[true, true, false, true]);
        let b = BitVec::from_bools(&[true, false, false, true]);
        assert!(!a.dot(&b));
        let c = BitVec::from_bools(&[true, false, false, false]);
        assert!(a.dot(&c));
    }
}
