//! Stored keys, bit-sliced by blocks so that one query tests 512 of them in a few ANDs.

use super::kernel;
use crate::cpu::Isa;

/// Key bits per chunk of the matcher's tables: 32 masks per chunk and block. [default: 5]
pub(super) const CHUNK: u32 = 5;

/// Stored keys per block: one 512-bit mask per table row.
const BLOCK: usize = 512;

/// Below this many keys, a partial block costs more than testing the keys one query at a
/// time ([`kernel::scan`]). [default: 12]
const SMALL: usize = 12;

/// One table row: a mask over the 512 keys of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(super) struct Row(pub(super) [u64; 8]);

/// Stored keys, ready to count how many avoid a query key.
///
/// PERF: the keys are bit-sliced by blocks of [`BLOCK`]: for each [`CHUNK`]-bit chunk of the
/// key and each value `v` of that chunk, a row holds the mask of the block's keys that have
/// none of `v`'s bits. A query ANDs one row per chunk and counts the ones: 512 pairs for
/// `key_bits / CHUNK` ANDs of 512 bits. Keys past the last full block, when few, are scanned.
pub(super) struct Matcher {
    pub(super) chunks: usize,
    pub(super) keys: Vec<u64>,
    pub(super) rows: Vec<Row>,
    /// Keys in `rows` (a multiple of BLOCK, or all of them).
    pub(super) sliced: usize,
}

impl Matcher {
    pub(super) fn new(key_bits: u32) -> Self {
        Matcher { chunks: key_bits.div_ceil(CHUNK) as usize, keys: Vec::new(), rows: Vec::new(), sliced: 0 }
    }

    pub(super) fn clear(&mut self) {
        self.keys.clear();
        self.rows.clear();
        self.sliced = 0;
    }

    pub(super) fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Bytes held by the buffers.
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        8 * self.keys.capacity() + std::mem::size_of::<Row>() * self.rows.capacity()
    }

    /// Builds the tables of every full block, and of the last partial block unless it is
    /// small enough to scan.
    pub(super) fn seal(&mut self) {
        let rows_per_block = self.chunks << CHUNK;
        let mut at = 0;
        while at < self.keys.len() {
            let len = (self.keys.len() - at).min(BLOCK);
            if len < SMALL {
                break;
            }
            let first = self.rows.len();
            self.rows.resize(first + rows_per_block, Row([0; 8]));
            slice_block(&self.keys[at..at + len], self.chunks, &mut self.rows[first..]);
            at += len;
        }
        self.sliced = at;
    }

    /// Pairs (query, stored key) with disjoint key bits, each counted `2^e` times for the
    /// exponent `e` in the query's bits from [`WEIGHT_AT`].
    pub(super) fn count(&self, isa: Isa, queries: &[u64]) -> u64 {
        let tail = &self.keys[self.sliced..];
        let mut total = kernel::count(isa, &self.rows, self.chunks, queries);
        if !tail.is_empty() {
            total += kernel::scan(isa, tail, queries);
        }
        total
    }
}

/// Writes the rows of one block of at most [`BLOCK`] keys (`chunks << CHUNK` rows).
fn slice_block(keys: &[u64], chunks: usize, rows: &mut [Row]) {
    // Columns: bit i of `cols[j][w]` says key `64 w + i` has bit j clear.
    let mut cols = [[0u64; 8]; 64];
    let mut valid = [0u64; 8];
    for (w, group) in keys.chunks(64).enumerate() {
        let mut m = [0u64; 64];
        for (i, &k) in group.iter().enumerate() {
            m[i] = !k;
        }
        transpose64(&mut m);
        for j in 0..64 {
            cols[j][w] = m[j];
        }
        valid[w] = if group.len() == 64 { u64::MAX } else { (1u64 << group.len()) - 1 };
    }
    let width = 1usize << CHUNK;
    for c in 0..chunks {
        let r = &mut rows[c * width..(c + 1) * width];
        r[0] = Row(valid);
        for v in 1..width {
            let bit = c * CHUNK as usize + v.trailing_zeros() as usize;
            let prev = r[v & (v - 1)].0;
            let col = if bit < 64 { cols[bit] } else { [u64::MAX; 8] };
            r[v] = Row(std::array::from_fn(|i| prev[i] & col[i]));
        }
    }
}

/// Transposes a 64 x 64 bit matrix in place: bit j of word i goes to bit i of word j.
///
/// PERF: six rounds of block swaps (32 x 32 blocks, then 16 x 16, ...), each a few word
/// operations per row, instead of 4096 single-bit moves.
pub(super) fn transpose64(m: &mut [u64; 64]) {
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            // Row k's high block (bits j..) trades places with row k + j's low block.
            let t = ((m[k] >> j) ^ m[k + j]) & mask;
            m[k] ^= t << j;
            m[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}
