//! Model 2: one cell updated at a time — an empty cell takes the signals its neighbours emit,
//! a threatened queen picks a destination (with probability η at random among the in-board
//! neighbours, else among the least signalled) and tries MOVE — and the gathering of the 8
//! neighbours' bits in one step.

use super::super::dir::opposite;
use super::Automaton;
use super::word::{EMIT, EMIT_SHIFT, QUEEN, Rand, SIGNALS, draw, refresh_empty};
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
