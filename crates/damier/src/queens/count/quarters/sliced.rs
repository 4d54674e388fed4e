//! The bit-sliced layout of a block of stored keys: the matcher writes it
//! ([`slice_block`]), the kernels read it.

/// Key bits per chunk of the matcher's tables: 32 masks per chunk and block. [default: 5]
pub(super) const CHUNK: u32 = 5;

/// Stored keys per block: one 512-bit mask per table row.
pub(super) const BLOCK: usize = 512;

/// One table row: a mask over the 512 keys of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(super) struct Row(pub(super) [u64; 8]);

/// Most chunks of a key (52 bits at n = 27, in chunks of [`CHUNK`]).
pub(super) const MAX_CHUNKS: usize = 16;

/// Appends the rows of one block of at most [`BLOCK`] keys (`chunks << CHUNK` rows) to `rows`.
///
/// PERF: appended row by row rather than written over zeroed rows: the tables are most of the
/// bytes a seal writes, and zeroing them first wrote them twice.
pub(super) fn slice_block(keys: &[u64], chunks: usize, rows: &mut Vec<Row>) {
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
        let first = rows.len();
        rows.push(Row(valid));
        for v in 1..width {
            let bit = c * CHUNK as usize + v.trailing_zeros() as usize;
            // Row v is row v less its lowest bit, ANDed with that bit's column.
            let prev = rows[first + (v & (v - 1))].0;
            let col = if bit < 64 { cols[bit] } else { [u64::MAX; 8] };
            rows.push(Row(std::array::from_fn(|i| prev[i] & col[i])));
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
