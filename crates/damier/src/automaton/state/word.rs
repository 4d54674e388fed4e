//! A cell's word and what both rules read of it: the layout (signals, emitted byte, queen
//! count), the generator and its Bernoulli draws, model 1's table entries and model 2's gather
//! of the neighbours' emitted bits. Below `state/mod.rs`, `pair.rs` and `cell.rs`, so that imports
//! point one way.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::Rng;

use super::super::dir::opposite;

/// The generator of every run (portable, fast).
pub(super) type Rand = Xoshiro256PlusPlus;

/// One queen in the count field of a cell's word.
pub(super) const QUEEN: u32 = 1 << 16;
/// The signal bits of a cell's word.
pub(super) const SIGNALS: u32 = 0xFF;
/// Where the emitted byte sits in a cell's word.
pub(super) const EMIT_SHIFT: u32 = 8;
/// The emitted byte of a cell's word: `0xFF` on a queen, else a copy of the signals.
pub(super) const EMIT: u32 = 0xFF << EMIT_SHIFT;

/// `word` with its emitted byte recomputed from its count and signals.
#[inline(always)]
pub(super) fn with_emit(word: u32) -> u32 {
    // PERF: branch-free: an occupied cell emits every direction, an empty one its signals.
    let occupied = u32::from(word >= QUEEN).wrapping_neg() & EMIT;
    (word & !EMIT) | ((word & SIGNALS) << EMIT_SHIFT) | occupied
}

/// A probability as a threshold on 53 random bits: `(r >> 11) < t` holds with probability
/// `t / 2^53`, which is `p` rounded to 2^-53 (exact for 0 and 1).
pub(super) fn threshold(p: f64) -> u64 {
    (p * (1u64 << 53) as f64).round() as u64
}

/// One Bernoulli draw against a [`threshold`].
#[inline(always)]
pub(super) fn draw(rng: &mut Rand, t: u64) -> bool {
    // PERF: compare 53 random bits with a precomputed integer threshold, no float.
    (rng.next_u64() >> 11) < t
}

/// A model 1 table entry: padded cells `a` and `b = a + DIRECTIONS[d]` (24 bits each: the
/// padded board of the largest n has under 2^23 cells), then the signal bit `d` that `a`'s
/// update touches and the bit `opposite(d)` of `b`'s, as masks.
pub(super) fn pair_entry(a: usize, b: usize, d: usize) -> u64 {
    debug_assert!(a < 1 << 24 && b < 1 << 24);
    a as u64 | (b as u64) << 24 | 1u64 << (48 + d) | 1u64 << (56 + opposite(d))
}

/// The fields of a [`pair_entry`]: `(a, b, bit d of a, bit opposite(d) of b)`.
#[inline(always)]
pub(super) fn pair_cells(e: u64) -> (usize, usize, u32, u32) {
    ((e & 0xFF_FFFF) as usize, (e >> 24 & 0xFF_FFFF) as usize, (e >> 48) as u32 & 0xFF, (e >> 56) as u32)
}

/// Model 2 on padded board cell `c` when it holds no queen: it takes its new signals and
/// emits them. Otherwise nothing is written and the gathered bits ([`gather_emit`]) are
/// returned for the queen update.
///
/// # Safety
/// As [`gather_emit`]: `st` is the padded board of row width `w` and `c` a board cell.
#[inline(always)]
pub(super) unsafe fn refresh_empty(st: *mut u32, c: usize, w: usize) -> Result<(), u32> {
    // SAFETY: the caller's contract.
    unsafe {
        let e = gather_emit(st, c, w);
        let cell = &mut *st.add(c);
        // PERF: n of the n^2 cells hold a queen: an empty one is this test and one store
        // (its word is its signals and the same byte emitted), inline in the loop.
        if *cell < QUEEN {
            *cell = e | e >> EMIT_SHIFT;
            Ok(())
        } else {
            Err(e)
        }
    }
}

/// The bits the 8 neighbours of padded board cell `c` emit towards it, each in its own
/// direction's place: bit `8 + d` is bit `8 + d` of the neighbour along [`DIRECTIONS`]`[d]`,
/// i.e. model 2's new signal `d` of `c` (frame neighbours emit nothing). `w` is the padded
/// row width.
///
/// # Safety
/// `st` points to the padded board of row width `w` with its spare word (`w * w + 1` words)
/// and `c` is a board cell (not on the frame).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) unsafe fn gather_emit(st: *const u32, c: usize, w: usize) -> u32 {
    use std::arch::x86_64::*;
    // PERF: the 3 x 3 block around c is three unaligned 4-word loads (SSE2, always there on
    // x86_64), each masked to the bit its neighbours contribute, then OR-ed across lanes:
    // 13 instructions instead of 8 loads, 8 masks and 7 ORs.
    // SAFETY: c is a board cell, so c - w - 1 >= 0 and c + w + 2 <= w * w, the spare word;
    // SSE2 is part of the x86_64 baseline.
    unsafe {
        // Lanes of the rows above, at and below c: [x - 1, x, x + 1, x + 2].
        let up = _mm_loadu_si128(st.add(c - w - 1).cast());
        let mid = _mm_loadu_si128(st.add(c - 1).cast());
        let down = _mm_loadu_si128(st.add(c + w - 1).cast());
        // Directions (bit d at 8 + d): N 0, NE 1, E 2, SE 3, S 4, SW 5, W 6, NW 7.
        let m_up = _mm_setr_epi32(1 << 15, 1 << 8, 1 << 9, 0);
        let m_mid = _mm_setr_epi32(1 << 14, 0, 1 << 10, 0);
        let m_down = _mm_setr_epi32(1 << 13, 1 << 12, 1 << 11, 0);
        let v = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(up, m_up), _mm_and_si128(mid, m_mid)),
            _mm_and_si128(down, m_down),
        );
        let v = _mm_or_si128(v, _mm_shuffle_epi32::<0b01_00_11_10>(v));
        let v = _mm_or_si128(v, _mm_shuffle_epi32::<0b10_11_00_01>(v));
        _mm_cvtsi128_si32(v) as u32
    }
}

/// As the x86_64 version, one neighbour at a time.
///
/// # Safety
/// As the x86_64 version.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) unsafe fn gather_emit(st: *const u32, c: usize, w: usize) -> u32 {
    // SAFETY: the caller's contract.
    unsafe { gather_emit_scalar(st, c, w) }
}

/// [`gather_emit`] one neighbour at a time: the portable version and the tests' reference.
///
/// # Safety
/// As [`gather_emit`].
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
pub(super) unsafe fn gather_emit_scalar(st: *const u32, c: usize, w: usize) -> u32 {
    // PERF: signal d of c is bit d of the byte its neighbour along d emits, so each neighbour
    // is one load masked to its own bit: no compare, no variable shift.
    // SAFETY: c is a board cell, so c ± 1, c ± w and c ± w ± 1 are inside the padded array.
    let at = |i: usize| unsafe { *st.add(i) };
    let (up, down) = (c - w, c + w);
    (at(up) & 1 << 8)
        | (at(up + 1) & 1 << 9)
        | (at(c + 1) & 1 << 10)
        | (at(down + 1) & 1 << 11)
        | (at(down) & 1 << 12)
        | (at(down - 1) & 1 << 13)
        | (at(c - 1) & 1 << 14)
        | (at(up - 1) & 1 << 15)
}
