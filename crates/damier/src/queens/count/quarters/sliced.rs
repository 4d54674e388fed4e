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

/// [`slice_block`] in plain Rust, in chunks of `width` bits ([`CHUNK`] or [`WIDE_CHUNK`]).
///
/// PERF: the 8 words of the block transposed together (`L` = 8): as fast at q(18) as one
/// word at a time once both transpose only the chunks' bits (the samples within 2%), with
/// no columns copied out of 8 matrices.
pub(super) fn slice_block_as(width: u32, keys: &[u64], chunks: usize, rows: &mut Vec<Row>) {
    debug_assert!(keys.len() <= BLOCK && chunks <= MAX_CHUNKS);
    let bits = (chunks * width as usize).min(64);
    // Row i, word w: key `64 w + i` (zero past the keys); once transposed, bit i of row j,
    // word w says key `64 w + i` has bit j (for j below `bits`).
    let mut cols: [[u64; 8]; 64] =
        std::array::from_fn(|i| std::array::from_fn(|w| keys.get(64 * w + i).copied().unwrap_or(0)));
    transpose_first(&mut cols, bits);
    let valid: [u64; 8] = std::array::from_fn(|w| low_bits(keys.len().saturating_sub(64 * w).min(64)));
    match width {
        CHUNK => push_rows::<{ CHUNK as usize }>(&cols, bits, valid, chunks, rows),
        WIDE_CHUNK => push_rows::<{ WIDE_CHUNK as usize }>(&cols, bits, valid, chunks, rows),
        _ => panic!("chunks of {width} bits: the tables take {CHUNK} or {WIDE_CHUNK}"),
    }
}

/// The mask of a word's first `len` keys (`len` <= 64).
#[inline(always)]
fn low_bits(len: usize) -> u64 {
    if len == 64 { u64::MAX } else { (1u64 << len) - 1 }
}

/// Appends the `chunks << W` rows of a block from its columns (`cols[j]`: the keys holding
/// bit j, for j below `bits`; no key holds the others) and its `valid` keys.
///
/// PERF: row `v` of a chunk is the row of `v`'s low `W / 2` bits (made once, each its parent
/// less one column) less the union of the columns of its high bits (made once the same way):
/// one operation a row word, every input at hand; each row written once, into the spare
/// room (each row was pushed, its parent less one column). With the 8 words transposed
/// together, only up to the chunks' bits ([`transpose_first`]), and no zeroed matrix: the
/// portable slicer took 0.46x its instructions at n = 16 (110 M against 209 M and a 32 M
/// memset; callgrind, the `count` aid) and about 0.6x its samples at q(18) (`perf record`;
/// docs/performance.md, issue 54's sixth pass).
fn push_rows<const W: usize>(
    cols: &[[u64; 8]; 64],
    bits: usize,
    valid: [u64; 8],
    chunks: usize,
    rows: &mut Vec<Row>,
) {
    let (lo, hi) = (W / 2, W - W / 2);
    let per = 1 << W;
    rows.reserve(chunks * per);
    let out = &mut rows.spare_capacity_mut()[..chunks * per];
    for (c, out) in out.chunks_exact_mut(per).enumerate() {
        let col = |b: usize| {
            let bit = c * W + b;
            if bit < bits { cols[bit] } else { [0; 8] }
        };
        let mut low = [valid; 8];
        for v in 1..1 << lo {
            let (parent, col) = (low[v & (v - 1)], col(v.trailing_zeros() as usize));
            low[v] = std::array::from_fn(|i| parent[i] & !col[i]);
        }
        let mut high = [[0u64; 8]; 8];
        for v in 1..1 << hi {
            let (parent, col) = (high[v & (v - 1)], col(lo + v.trailing_zeros() as usize));
            high[v] = std::array::from_fn(|i| parent[i] | col[i]);
        }
        for (h, union) in high.iter().enumerate().take(1 << hi) {
            for (l, row) in low.iter().enumerate().take(1 << lo) {
                out[h << lo | l].write(Row(std::array::from_fn(|i| row[i] & !union[i])));
            }
        }
    }
    // SAFETY: the `chunks * per` rows after the length were written above (each chunk's `per`
    // rows: `h << lo | l` for every `h` below `2^hi` and `l` below `2^lo`, `lo + hi = W`).
    unsafe { rows.set_len(rows.len() + chunks * per) };
}

/// [`slice_block`] with AVX2: the block's 8 words of 64 keys are transposed together, word `w`
/// in lane `w` of each row, 4 words a vector operation.
///
/// PERF: the keys are moved into their rows by 4 x 4 transposes of words from plain loads
/// (they were stored one word at a time into a zeroed matrix), only the columns that the
/// chunks read are transposed ([`transpose_first`]), and each chunk's rows are made in
/// registers and stored once, where they go ([`store_chunk_avx2`]; they were made in a local
/// array and copied). n = 16: 40 M instructions against 90 M and a 31 M memset (callgrind);
/// q(18): 0.48x the slicer's samples (`perf record`; docs/performance.md, issue 54's sixth
/// pass). The portable slicer's code compiled for AVX2 took 1.45x these samples. Written
/// past the caches (non-temporal stores) on an n = 23 share, whose rows outgrow the caches,
/// the count took 1.5x the CPU time: a seal's rows are read back from the last-level cache.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn slice_block_avx2(keys: &[u64], chunks: usize, rows: &mut Vec<Row>) {
    let len = keys.len();
    // Four keys from `at`, zero past the block's end.
    let load = |at: usize| -> __m256i {
        if at + 4 <= len {
            // SAFETY: keys `at..at + 4` are in `keys`.
            unsafe { _mm256_loadu_si256(keys.as_ptr().add(at).cast()) }
        } else if at >= len {
            _mm256_setzero_si256()
        } else {
            let lanes = _mm256_setr_epi64x(0, 1, 2, 3);
            let inside = _mm256_cmpgt_epi64(_mm256_set1_epi64x((len - at) as i64), lanes);
            // SAFETY: the masked load reads only the lanes below `len - at`, keys in `keys`
            // (masked-off lanes do not fault and read as zero).
            unsafe { _mm256_maskload_epi64(keys.as_ptr().add(at).cast(), inside) }
        }
    };
    // Row i, vector h: lanes w = 4 h .. 4 h + 4 hold key `64 w + i` (made by rows of 4, each
    // written once: a matrix zeroed first was a memset of 4 KB a block).
    let mut quads: [[[__m256i; 2]; 4]; 16] = std::array::from_fn(|q| {
        let a = 4 * q;
        let half: [[__m256i; 4]; 2] = std::array::from_fn(|h| {
            let r: [__m256i; 4] = std::array::from_fn(|t| load(64 * (4 * h + t) + a));
            // A 4 x 4 transpose of words: lane s of r[t] to lane t of row a + s.
            let t0 = _mm256_unpacklo_epi64(r[0], r[1]);
            let t1 = _mm256_unpackhi_epi64(r[0], r[1]);
            let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
            let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
            [
                _mm256_permute2x128_si256::<0x20>(t0, t2),
                _mm256_permute2x128_si256::<0x20>(t1, t3),
                _mm256_permute2x128_si256::<0x31>(t0, t2),
                _mm256_permute2x128_si256::<0x31>(t1, t3),
            ]
        });
        std::array::from_fn(|s| [half[0][s], half[1][s]])
    });
    let m: &mut [[__m256i; 2]; 64] = quads.as_flattened_mut().try_into().expect("16 rows of 4");
    // Now row j, lane w: bit i says key `64 w + i` has bit j.
    let bits = (chunks * CHUNK as usize).min(64);
    // SAFETY: two 256-bit vectors are 8 words, of a stricter alignment: the same 64 rows.
    transpose_first(unsafe { &mut *(m as *mut [[__m256i; 2]; 64]).cast::<[[u64; 8]; 64]>() }, bits);
    let valid: [u64; 8] = std::array::from_fn(|w| low_bits(len.saturating_sub(64 * w).min(64)));
    // SAFETY: 8 words are 64 bytes, as two 256-bit (unaligned) loads read.
    let valid = unsafe {
        [_mm256_loadu_si256(valid.as_ptr().cast()), _mm256_loadu_si256(valid.as_ptr().add(4).cast())]
    };
    const WIDTH: usize = 1 << CHUNK;
    rows.reserve(chunks * WIDTH);
    let out = rows.spare_capacity_mut().as_mut_ptr();
    for c in 0..chunks {
        for (h, &valid) in valid.iter().enumerate() {
            // Bits past the transposed ones are in no key.
            let col = |b: usize| {
                let bit = c * CHUNK as usize + b;
                if bit < bits { m[bit][h] } else { _mm256_setzero_si256() }
            };
            // SAFETY: `rows` has room for `chunks * WIDTH` more rows (reserved above): chunk c's
            // rows are `c * WIDTH..(c + 1) * WIDTH` of them.
            unsafe { store_chunk_avx2(out.add(c * WIDTH).cast(), h, valid, std::array::from_fn(col)) };
        }
    }
    // SAFETY: the `chunks * WIDTH` rows after the length were written above, both halves of
    // each.
    unsafe { rows.set_len(rows.len() + chunks * WIDTH) };
}

/// Stores vector `h` (words `4 h..4 h + 4`) of the `2^CHUNK` rows of one chunk at `out`: row
/// `v` is `valid` less the keys holding any of `v`'s bits, `cols[b]` the keys holding the
/// chunk's bit `b`.
///
/// PERF: row `4 h' + l` is the row of `l`'s two low bits (4 made, in registers) less the keys
/// holding any of `h'`'s three high bits (7 unions): 35 operations a vector of 32 rows, every
/// input in a register, no row stored then loaded again.
///
/// # Safety
/// `out` is aligned to 64 bytes and valid for writing `2^CHUNK` rows.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_chunk_avx2(out: *mut Row, h: usize, valid: __m256i, cols: [__m256i; CHUNK as usize]) {
    let l1 = _mm256_andnot_si256(cols[0], valid);
    let low = [valid, l1, _mm256_andnot_si256(cols[1], valid), _mm256_andnot_si256(cols[1], l1)];
    let h3 = _mm256_or_si256(cols[2], cols[3]);
    let high = [
        cols[2],
        cols[3],
        h3,
        cols[4],
        _mm256_or_si256(cols[2], cols[4]),
        _mm256_or_si256(cols[3], cols[4]),
        _mm256_or_si256(h3, cols[4]),
    ];
    for (l, &row) in low.iter().enumerate() {
        // SAFETY: row l is in the `2^CHUNK` rows at `out`, aligned to 64 bytes, so its half
        // at 32 h is aligned to 32, as an aligned 256-bit store needs.
        unsafe { _mm256_store_si256(out.add(l).cast::<__m256i>().add(h), row) };
    }
    for (i, &union) in high.iter().enumerate() {
        for (l, &row) in low.iter().enumerate() {
            // SAFETY: as above, for row `4 (i + 1) + l` < 32.
            unsafe {
                _mm256_store_si256(
                    out.add(4 * (i + 1) + l).cast::<__m256i>().add(h),
                    _mm256_andnot_si256(union, row),
                )
            };
        }
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
    // PERF: each word made once where it goes (the matrices were zeroed first: a memset of
    // 4 KB a block, 0.6% of q(18) on AVX-512), and the columns only as far as the chunks'
    // bits: 5 of the 8 groups of 8 at 35 bits.
    let len_of = |w: usize| keys.len().saturating_sub(64 * w).min(64);
    let valid: [u64; 8] = std::array::from_fn(|w| low_bits(len_of(w)));
    let by_word: [[__m512i; 8]; 8] = std::array::from_fn(|w| {
        let len = len_of(w);
        if len == 0 {
            return [_mm512_setzero_si512(); 8];
        }
        let regs = std::array::from_fn(|i| {
            let lanes = len.saturating_sub(8 * i).min(8);
            let mask = ((1u16 << lanes) - 1) as __mmask8;
            // SAFETY: the masked load reads only the `lanes` keys at `64 w + 8 i`, which are
            // in `keys` (masked-off lanes do not fault); lanes past them are zero, no key.
            let k =
                unsafe { _mm512_maskz_loadu_epi64(mask, keys.as_ptr().wrapping_add(64 * w + 8 * i).cast()) };
            let clear = _mm512_maskz_xor_epi64(mask, k, ones);
            _mm512_gf2p8affine_epi64_epi8::<0>(unit_bytes, _mm512_permutexvar_epi8(to_byte_rows, clear))
        });
        transpose_qwords(regs).map(|reg| _mm512_permutexvar_epi8(byte_transpose, reg))
    });
    let groups = (chunks * CHUNK as usize).min(64).div_ceil(8);
    let cols: [[__m512i; 8]; 8] = std::array::from_fn(|b| {
        if b < groups { transpose_qwords(std::array::from_fn(|w| by_word[w][b])) } else { [ones; 8] }
    });
    // SAFETY: 8 words are 64 bytes, as a 512-bit (unaligned) load reads.
    let valid = unsafe { _mm512_loadu_si512(valid.as_ptr().cast()) };
    // The rows as `store_chunk_avx2` makes them (here each one its parent less one column), in
    // registers, stored once each.
    const WIDTH: usize = 1 << CHUNK;
    rows.reserve(chunks * WIDTH);
    let out = rows.spare_capacity_mut().as_mut_ptr();
    for c in 0..chunks {
        let mut chunk_rows = [valid; WIDTH];
        for b in 0..CHUNK as usize {
            // Bits past 63 are in no key: every key has them clear.
            let bit = c * CHUNK as usize + b;
            let col = if bit < 64 { cols[bit / 8][bit % 8] } else { ones };
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
#[cfg(test)]
pub(super) fn transpose<const L: usize>(m: &mut [[u64; L]; 64]) {
    transpose_first(m, 64);
}

/// [`transpose`], keeping only rows `0..bits` of the result right (the others are left as
/// they fall).
///
/// PERF: six rounds of block swaps (32 x 32 blocks, then 16 x 16, ...), each a few word
/// operations per row, instead of 4096 single-bit moves; the lanes take the same operations,
/// so AVX2 runs 4 of them at once (with `L` = 8). The rows a chunk reads are the key's low
/// `width * chunks` bits, 30 to 40 of 64 at n = 16 to 23: a round on pairs (k, k + j) within
/// groups of `2 j` rows visits only the groups that lead to rows below `bits`, and of a group
/// whose upper row leads to none, makes the lower row only (at 35 bits, 0.73x the
/// operations).
#[inline(always)]
pub(super) fn transpose_first<const L: usize>(m: &mut [[u64; L]; 64], bits: usize) {
    /// One round: rows k and k + J trade their blocks of J bits (k with bit J clear).
    #[inline(always)]
    fn round<const L: usize, const J: usize>(m: &mut [[u64; L]; 64], bits: usize, mask: u64) {
        // Rows needed after this round: those of the groups of J rows below `bits`.
        let after = bits.next_multiple_of(J);
        for base in (0..bits.next_multiple_of(2 * J)).step_by(2 * J) {
            let both = base + 2 * J <= after;
            for k in base..base + J {
                // Row k's high block (bits J..) trades places with row k + J's low block.
                let (low, high) = (m[k], m[k + J]);
                let t: [u64; L] = std::array::from_fn(|w| ((low[w] >> J) ^ high[w]) & mask);
                m[k] = std::array::from_fn(|w| low[w] ^ t[w] << J);
                if both {
                    m[k + J] = std::array::from_fn(|w| high[w] ^ t[w]);
                }
            }
        }
    }
    round::<L, 32>(m, bits, 0x0000_0000_FFFF_FFFF);
    round::<L, 16>(m, bits, 0x0000_FFFF_0000_FFFF);
    round::<L, 8>(m, bits, 0x00FF_00FF_00FF_00FF);
    round::<L, 4>(m, bits, 0x0F0F_0F0F_0F0F_0F0F);
    round::<L, 2>(m, bits, 0x3333_3333_3333_3333);
    round::<L, 1>(m, bits, 0x5555_5555_5555_5555);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Every ISA's rows are the obvious ones: row `v` of chunk `c` holds the block's keys
        /// whose chunk `c` (bits `c * width..`, none past bit 63) shares no bit with `v`, for
        /// any number of keys and chunks (the transpose stops at the chunks' bits).
        #[test]
        fn rows_hold_the_keys_without_the_value_bits(
            keys in proptest::collection::vec(any::<u64>(), 0..=BLOCK),
            chunks in 1usize..=MAX_CHUNKS,
            wide in any::<bool>(),
        ) {
            let width = if wide { WIDE_CHUNK } else { CHUNK };
            let per = 1usize << width;
            for isa in Isa::available() {
                let mut rows = vec![Row([7; 8])];
                slice_block(isa, width, &keys, chunks, &mut rows);
                prop_assert_eq!(rows.len(), 1 + chunks * per);
                for (c, chunk_rows) in rows[1..].chunks(per).enumerate() {
                    for (v, row) in chunk_rows.iter().enumerate() {
                        let want: [u64; 8] = std::array::from_fn(|w| {
                            (0..64).filter(|&i| {
                                keys.get(64 * w + i).is_some_and(|&k| {
                                    let value = k.checked_shr((c * width as usize) as u32).unwrap_or(0);
                                    value & v as u64 & (per as u64 - 1) == 0
                                })
                            }).fold(0, |m, i| m | 1 << i)
                        });
                        prop_assert_eq!(row.0, want, "{}, {} keys, chunk {} of {}, row {}, {}-bit chunks", isa, keys.len(), c, chunks, v, width);
                    }
                }
            }
        }

        /// The transpose's rows below `bits` are the full transpose's.
        #[test]
        fn transposing_the_first_rows(words in proptest::collection::vec(any::<u64>(), 128), bits in 1usize..=64) {
            let mut full: [[u64; 2]; 64] = std::array::from_fn(|i| [words[2 * i], words[2 * i + 1]]);
            let mut first = full;
            transpose(&mut full);
            transpose_first(&mut first, bits);
            prop_assert_eq!(&first[..bits], &full[..bits]);
        }
    }
}
