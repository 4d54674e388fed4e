//! The bit-sliced layout of a block of stored keys: the matcher writes it
//! ([`slice_block`]), the kernels read it.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use crate::cpu::Isa;
#[cfg(target_arch = "x86_64")]
use crate::cpu::features;

/// Key bits per chunk of the tables: 32 masks per chunk and block, the layout a device makes
/// too ([`crate::queens::count::join::CHUNK`]). [default: 5]
pub(super) const CHUNK: u32 = 5;

/// Key bits per chunk of the portable unit's tables: 64 masks per chunk and block.
/// [default: 6]
///
/// PERF: a block of 35 key bits is 6 ANDs a query instead of 7, for tables 1.7x as large
/// (384 rows a block instead of 224): with 64-bit words and `popcnt` the ANDs are most of a
/// block's work (4 a chunk). q(18), one thread: 0.96x the CPU time of 5-bit chunks; an n = 23
/// share: 0.97-1.00x (docs/performance.md, issue 54's fourth pass). The vector units keep
/// [`CHUNK`]: AVX2 lost 4-5% on the n = 23 share with 6 bits (the tables' size, likely), and
/// their slicers and a device's layout are 5-bit ones. 7 bits (5 chunks at 35 key bits,
/// tables 2x larger again) gained 0.97x at q(18) but lost 1.08-1.10x on the n = 23 share
/// (the fifth pass).
pub(super) const WIDE_CHUNK: u32 = 6;

/// Stored keys per block: one 512-bit mask per table row.
pub(super) const BLOCK: usize = 512;

/// One table row: a mask over the 512 keys of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(super) struct Row(pub(super) [u64; 8]);

/// Most chunks of a key (52 bits at n = 27, in chunks of [`CHUNK`]).
pub(super) const MAX_CHUNKS: usize = 16;

/// Appends the rows of one block of at most [`BLOCK`] keys in chunks of `width` bits
/// (`chunks << width` rows) to `rows`. The rows are the same on every ISA; `isa` only chooses
/// how they are made (the vector units' ways for [`CHUNK`] only).
pub(super) fn slice_block(isa: Isa, width: u32, keys: &[u64], chunks: usize, rows: &mut Vec<Row>) {
    debug_assert!(keys.len() <= BLOCK && chunks <= MAX_CHUNKS);
    if width != CHUNK {
        return slice_block_as(width, keys, chunks, rows);
    }
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx512 && features().avx512_bit_matrix {
        // SAFETY: the CPU has AVX-512 F, BW and VBMI and GFNI (`cpu::features`), all that
        // `slice_block_avx512` is compiled with.
        return unsafe { slice_block_avx512(keys, chunks, rows) };
    }
    #[cfg(target_arch = "x86_64")]
    if isa >= Isa::Avx2 {
        // SAFETY: `isa` is AVX2 or wider only where the CPU has AVX2 (every caller checks
        // `Isa::is_available` first), all that `slice_block_avx2` is compiled with.
        return unsafe { slice_block_avx2(keys, chunks, rows) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    slice_block_as(CHUNK, keys, chunks, rows);
}

/// [`slice_block`] one word at a time, in chunks of `width` bits.
pub(super) fn slice_block_as(width: u32, keys: &[u64], chunks: usize, rows: &mut Vec<Row>) {
    debug_assert!(keys.len() <= BLOCK && chunks <= MAX_CHUNKS);
    // Columns: bit i of `cols[j][w]` says key `64 w + i` has bit j clear.
    let mut cols = [[0u64; 8]; 64];
    let mut valid = [0u64; 8];
    for (w, group) in keys.chunks(64).enumerate() {
        let mut m = [[0u64; 1]; 64];
        for (i, &k) in group.iter().enumerate() {
            m[i] = [!k];
        }
        // PERF: one word at a time: the baseline's 128-bit vectors ran the 8 words of
        // `transpose` slower (with `append_rows`: 1.04-1.1x the CPU of a count at
        // n = 20 and 21).
        transpose(&mut m);
        for j in 0..64 {
            cols[j][w] = m[j][0];
        }
        valid[w] = low_bits(group.len());
    }
    push_rows(width, &cols, valid, chunks, rows);
}

/// The mask of a word's first `len` keys (`len` <= 64).
#[inline(always)]
fn low_bits(len: usize) -> u64 {
    if len == 64 { u64::MAX } else { (1u64 << len) - 1 }
}

/// Appends the `chunks << width` rows of a block from its columns (`cols[j]`: the keys with
/// bit j clear) and its `valid` keys, one by one.
///
/// PERF: appended row by row rather than written over zeroed rows: the tables are most of the
/// bytes a seal writes, and zeroing them first wrote them twice. (On the baseline, the
/// 128-bit vectors of [`append_rows`] were no faster: 0.97-1.05x.)
fn push_rows(width: u32, cols: &[[u64; 8]; 64], valid: [u64; 8], chunks: usize, rows: &mut Vec<Row>) {
    for c in 0..chunks {
        let first = rows.len();
        rows.push(Row(valid));
        for v in 1..1usize << width {
            let bit = c * width as usize + v.trailing_zeros() as usize;
            // Row v is row v less its lowest bit, ANDed with that bit's column.
            let prev = rows[first + (v & (v - 1))].0;
            let col = if bit < 64 { cols[bit] } else { [u64::MAX; 8] };
            rows.push(Row(std::array::from_fn(|i| prev[i] & col[i])));
        }
    }
}

/// [`slice_block`] with AVX2: the block's 8 words of 64 keys are transposed together, word `w`
/// in lane `w` of each row ([`transpose`]), 4 words a vector operation.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn slice_block_avx2(keys: &[u64], chunks: usize, rows: &mut Vec<Row>) {
    // Row i, lane w: key `64 w + i`, complemented (a set bit: the key has that bit clear).
    let mut m = [[0u64; 8]; 64];
    let mut valid = [0u64; 8];
    for (w, group) in keys.chunks(64).enumerate() {
        for (i, &k) in group.iter().enumerate() {
            m[i][w] = !k;
        }
        valid[w] = low_bits(group.len());
    }
    // Now row j, lane w: bit i says key `64 w + i` has bit j clear.
    transpose(&mut m);
    append_rows(&m, valid, chunks, rows);
}

/// Appends the `chunks << CHUNK` rows of a block from its columns (`cols[j]`: the keys with
/// bit j clear) and its `valid` keys.
///
/// PERF: a chunk's rows are made in a local array (vector registers), each one its parent's
/// (the row of its value less the highest bit) ANDed with one column, and appended at once:
/// made in the vector itself ([`push_rows`]), each row waited for the one just stored.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn append_rows(cols: &[[u64; 8]; 64], valid: [u64; 8], chunks: usize, rows: &mut Vec<Row>) {
    const WIDTH: usize = 1 << CHUNK;
    rows.reserve(chunks * WIDTH);
    for c in 0..chunks {
        let mut chunk_rows = [Row(valid); WIDTH];
        for b in 0..CHUNK as usize {
            let bit = c * CHUNK as usize + b;
            let col = if bit < 64 { cols[bit] } else { [u64::MAX; 8] };
            for v in 0..1 << b {
                chunk_rows[v | 1 << b] = Row(std::array::from_fn(|i| chunk_rows[v].0[i] & col[i]));
            }
        }
        rows.extend_from_slice(&chunk_rows);
    }
}

/// [`slice_block`] with AVX-512 byte permutes and GFNI.
///
/// PERF: each 64 x 64 bit transpose in about 50 vector instructions ([`transpose`] takes about
/// 1 150 word operations a matrix): 0.93-0.97x the CPU of a count at n = 20 and 21.
///
/// Key `k = 8 i + r` of a word of 64 keys has its bit `j = 8 b + c` at qword `r`, byte `b`,
/// bit `c` of register `i`; the column `j` wants it at bit `r` of byte `i`. Four moves get it
/// there, each one instruction per register or a few per 8 registers:
/// 1. bytes within each register: qword `b`, byte `7 - r`;
/// 2. GFNI's affine transform, with the matrix taken from the data, transposes the 8 x 8 bits
///    of each qword: byte `c`, bit `r`;
/// 3. qwords across the 8 registers: register `b`, qword `i`;
/// 4. bytes within each register: qword `c`, byte `i`: register `b`'s qword `c` is column
///    `8 b + c`.
///
/// A fifth move, qwords across the block's 8 words, makes each column one 512-bit row.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn slice_block_avx512(keys: &[u64], chunks: usize, rows: &mut Vec<Row>) {
    // Move 1: output byte 8 b + s takes input byte 8 (7 - s) + b.
    const TO_BYTE_ROWS: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut p = 0;
        while p < 64 {
            t[p] = (8 * (7 - p % 8) + p / 8) as u8;
            p += 1;
        }
        t
    };
    // Move 4: the 8 x 8 byte transpose, output byte 8 c + i takes input byte 8 i + c.
    const BYTE_TRANSPOSE: [u8; 64] = {
        let mut t = [0u8; 64];
        let mut p = 0;
        while p < 64 {
            t[p] = (8 * (p % 8) + p / 8) as u8;
            p += 1;
        }
        t
    };
    // SAFETY: both tables are 64 bytes, as a 512-bit load reads.
    let (to_byte_rows, byte_transpose) = unsafe {
        (_mm512_loadu_si512(TO_BYTE_ROWS.as_ptr().cast()), _mm512_loadu_si512(BYTE_TRANSPOSE.as_ptr().cast()))
    };
    // Move 2: byte i of the vector transformed is 1 << i, so output bit r of byte c is bit c of
    // the matrix's byte 7 - r.
    let unit_bytes = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
    let ones = _mm512_set1_epi64(-1);
    let mut by_word = [[_mm512_setzero_si512(); 8]; 8];
    let mut valid = [0u64; 8];
    for (w, words) in by_word.iter_mut().enumerate() {
        let len = keys.len().saturating_sub(64 * w).min(64);
        valid[w] = low_bits(len);
        if len == 0 {
            continue;
        }
        let mut regs = [_mm512_setzero_si512(); 8];
        for (i, reg) in regs.iter_mut().enumerate() {
            let lanes = len.saturating_sub(8 * i).min(8);
            let mask = ((1u16 << lanes) - 1) as __mmask8;
            // SAFETY: the masked load reads only the `lanes` keys at `64 w + 8 i`, which are
            // in `keys` (masked-off lanes do not fault); lanes past them are zero, no key.
            let k =
                unsafe { _mm512_maskz_loadu_epi64(mask, keys.as_ptr().wrapping_add(64 * w + 8 * i).cast()) };
            let clear = _mm512_maskz_xor_epi64(mask, k, ones);
            *reg =
                _mm512_gf2p8affine_epi64_epi8::<0>(unit_bytes, _mm512_permutexvar_epi8(to_byte_rows, clear));
        }
        let regs = transpose_qwords(regs);
        for (word, reg) in words.iter_mut().zip(regs) {
            *word = _mm512_permutexvar_epi8(byte_transpose, reg);
        }
    }
    let mut cols = [ones; 65];
    for b in 0..8 {
        let columns = transpose_qwords(std::array::from_fn(|w| by_word[w][b]));
        cols[8 * b..8 * b + 8].copy_from_slice(&columns);
    }
    // SAFETY: 8 words are 64 bytes, as a 512-bit (unaligned) load reads.
    let valid = unsafe { _mm512_loadu_si512(valid.as_ptr().cast()) };
    // The rows as `append_rows` makes them, in registers, stored once each.
    const WIDTH: usize = 1 << CHUNK;
    rows.reserve(chunks * WIDTH);
    let out = rows.spare_capacity_mut().as_mut_ptr();
    for c in 0..chunks {
        let mut chunk_rows = [valid; WIDTH];
        for b in 0..CHUNK as usize {
            // Bits past 63 are in no key: every key has them clear.
            let col = cols[(c * CHUNK as usize + b).min(64)];
            for v in 0..1 << b {
                chunk_rows[v | 1 << b] = _mm512_and_si512(chunk_rows[v], col);
            }
        }
        for (v, row) in chunk_rows.into_iter().enumerate() {
            // SAFETY: `rows` has room for `chunks * WIDTH` more rows (reserved above), and
            // rows are aligned to 64 bytes, as an aligned 512-bit store needs.
            unsafe { _mm512_store_si512(out.add(c * WIDTH + v).cast(), row) };
        }
    }
    // SAFETY: the `chunks * WIDTH` rows after the length were written above.
    unsafe { rows.set_len(rows.len() + chunks * WIDTH) };
}

/// Transposes 8 x 8 qwords across 8 registers: qword `j` of register `i` goes to qword `i` of
/// register `j`, in three rounds of 8 two-register permutes.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_qwords(mut r: [__m512i; 8]) -> [__m512i; 8] {
    // Round `k` trades bit k of the register's index for bit k of the qword's: `LOW[k]` makes
    // the register with the bit clear, `HIGH[k]` its partner with the bit set.
    const LOW: [[i64; 8]; 3] =
        [[0, 8, 2, 10, 4, 12, 6, 14], [0, 1, 8, 9, 4, 5, 12, 13], [0, 1, 2, 3, 8, 9, 10, 11]];
    const HIGH: [[i64; 8]; 3] =
        [[1, 9, 3, 11, 5, 13, 7, 15], [2, 3, 10, 11, 6, 7, 14, 15], [4, 5, 6, 7, 12, 13, 14, 15]];
    for k in 0..3 {
        // SAFETY: each table is 8 qwords, as a 512-bit load reads.
        let (low, high) = unsafe {
            (_mm512_loadu_si512(LOW[k].as_ptr().cast()), _mm512_loadu_si512(HIGH[k].as_ptr().cast()))
        };
        let bit = 1 << k;
        for i in (0..8).filter(|i| i & bit == 0) {
            let (a, b) = (r[i], r[i | bit]);
            r[i] = _mm512_permutex2var_epi64(a, low, b);
            r[i | bit] = _mm512_permutex2var_epi64(a, high, b);
        }
    }
    r
}

/// Transposes `L` matrices of 64 x 64 bits in place, matrix `w` in lane `w` of the rows: bit
/// j of row i goes to bit i of row j, in every lane.
///
/// PERF: six rounds of block swaps (32 x 32 blocks, then 16 x 16, ...), each a few word
/// operations per row, instead of 4096 single-bit moves; the lanes take the same operations,
/// so AVX2 runs 4 of them at once (with `L` = 8).
#[inline(always)]
pub(super) fn transpose<const L: usize>(m: &mut [[u64; L]; 64]) {
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            // Row k's high block (bits j..) trades places with row k + j's low block.
            let (low, high) = (m[k], m[k + j]);
            let t: [u64; L] = std::array::from_fn(|w| ((low[w] >> j) ^ high[w]) & mask);
            m[k] = std::array::from_fn(|w| low[w] ^ t[w] << j);
            m[k + j] = std::array::from_fn(|w| high[w] ^ t[w]);
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}
