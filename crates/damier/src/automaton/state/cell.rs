//! Model 2: one cell updated at a time — an empty cell takes the signals its neighbours emit,
//! a threatened queen picks a destination (with probability η at random among the in-board
//! neighbours, else among the least signalled) and tries MOVE — and the gathering of the 8
//! neighbours' bits in one step.

use super::super::dir::opposite;
use super::{Automaton, EMIT, EMIT_SHIFT, QUEEN, Rand, SIGNALS, draw};
use crate::random::below;

impl Automaton {
    /// Model 2: one uniformly chosen cell. Returns true if a queen moved.
    #[inline(always)]
    pub(super) fn cell_update(&mut self, rng: &mut Rand) -> bool {
        let k = below(rng, self.cells.len() as u64) as usize;
        // SAFETY: k < cells.len().
        let c = unsafe { *self.cells.get_unchecked(k) } as usize;
        self.cell_at(rng, c)
    }

    /// Model 2 on padded cell `c`: signals, then a possible move.
    #[inline(always)]
    pub(super) fn cell_at(&mut self, rng: &mut Rand, c: usize) -> bool {
        // SAFETY: c is a board cell of the padded array (callers draw it from `cells`).
        match unsafe { refresh_empty(self.st.as_mut_ptr(), c, self.w) } {
            Ok(()) => false,
            Err(e) => self.queen_update(rng, c, e),
        }
    }

    /// Model 2 on padded cell `c` holding a queen, given the bits its neighbours emit
    /// ([`gather_emit`]): new signals, then, for a threatened queen, a destination and MOVE.
    #[inline(never)]
    pub(super) fn queen_update(&mut self, rng: &mut Rand, c: usize, e: u32) -> bool {
        // 1. Every signal from the neighbours; a queen's cell emits every direction.
        let sig = e >> EMIT_SHIFT;
        let s = (self.st[c] & !(SIGNALS | EMIT)) | EMIT | sig;
        self.st[c] = s;
        // 2. A threatened queen (not SAFESTAY) picks a destination and tries MOVE.
        debug_assert!(s >= QUEEN);
        if s < 2 * QUEEN && sig == 0 {
            return false;
        }
        let around = u32::from(self.inboard[c]);
        let choice = if draw(rng, self.eta_t) {
            around
        } else {
            // The neighbours minimising ω (∞ on a queen, else the number of signals).
            let (mut best, mut set) = (u32::MAX, 0u32);
            let mut m = around;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let t = self.st[c.wrapping_add(self.off[d])];
                let w = if t >= QUEEN { 9 } else { (t & SIGNALS).count_ones() };
                if w < best {
                    best = w;
                    set = 0;
                }
                if w == best {
                    set |= 1 << d;
                }
            }
            set
        };
        let Some(d) = pick_bit(rng, choice) else { return false };
        let to = c.wrapping_add(self.off[d]);
        let to_word = self.st[to];
        // MOVE(c, to): c holds a threatened queen; SAFEGO(to, δ(c, to)) or ε.
        if to_word & !EMIT & !(1 << opposite(d)) == 0 || draw(rng, self.eps_t) {
            self.move_queen(c, to);
            return true;
        }
        false
    }
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

/// A uniformly chosen set bit of `mask` (`None` if empty: a 1 × 1 board).
#[inline(always)]
pub(super) fn pick_bit(rng: &mut Rand, mask: u32) -> Option<usize> {
    let ones = mask.count_ones();
    if ones == 0 {
        return None;
    }
    let mut m = mask;
    if ones > 1 {
        for _ in 0..below(rng, u64::from(ones)) {
            m &= m - 1;
        }
    }
    Some(m.trailing_zeros() as usize)
}
