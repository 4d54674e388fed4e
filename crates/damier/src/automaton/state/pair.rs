//! Model 1, the automaton report's rule: one adjacent pair updated at a time — the two
//! cells' moves (MOVE with SAFESTAY and SAFEGO), then their signals along the pair — and the
//! table of pairs it draws from.

use super::super::dir::opposite;
use super::Automaton;
use super::word::{EMIT, EMIT_SHIFT, QUEEN, Rand, SIGNALS, draw, pair_cells, with_emit};
use crate::random::below;

impl Automaton {
    /// MOVE(from, to) given the two cells' words and δ(from, to) = `back` (the direction of
    /// `from` seen from `to`). Draws ε only when the random branch is reached.
    #[inline(always)]
    pub(super) fn wants_move(&self, rng: &mut Rand, from: u32, to: u32, back: usize) -> bool {
        // Erratum: no queen, no move. SAFESTAY(from): at most one queen and no signal.
        if from < QUEEN || from < 2 * QUEEN && from & SIGNALS == 0 {
            return false;
        }
        // SAFEGO(to, back): no queen and no signal except possibly the one from `back`.
        to & !EMIT & !(1 << back) == 0 || draw(rng, self.eps_t)
    }

    /// Model 1: one uniformly chosen adjacent pair. Returns true if a queen moved.
    #[inline(always)]
    pub(super) fn pair_update(&mut self, rng: &mut Rand) -> bool {
        let n_pairs = self.pairs.len() as u64;
        if n_pairs == 0 {
            return false;
        }
        let k = below(rng, n_pairs) as usize;
        self.pair_at(rng, k)
    }

    /// Model 1 on the pair numbered `k` ([`pairs::pair`]): moves, then signals.
    #[inline(always)]
    pub(super) fn pair_at(&mut self, rng: &mut Rand, k: usize) -> bool {
        debug_assert!(k < self.pairs.len());
        // SAFETY: k < pairs.len(): `pair_update` draws it below that length, and the test-only
        // `update_pair` asserts it (the only two callers).
        let (a, b, bit_ab, bit_ba) = pair_cells(unsafe { *self.pairs.get_unchecked(k) });
        debug_assert!(a < self.st.len() && b < self.st.len());
        // SAFETY: the table holds board cells whose neighbour along d is a board cell, both
        // inside the padded array.
        let (sa, sb) = unsafe { (*self.st.get_unchecked(a), *self.st.get_unchecked(b)) };
        // PERF: most pairs hold no queen at all: one test skips the whole move logic, and
        // both cells then emit their own signals, so each facing bit is copied to the
        // signal and the emitted byte at once.
        if (sa | sb) < QUEEN {
            // PERF: the table holds the two bits as masks: no variable shift. An empty cell
            // emits its signals, so b's bit d is a's new signal d and emitted bit d.
            let both = |bit: u32| bit | bit << EMIT_SHIFT;
            // SAFETY: as above.
            unsafe {
                *self.st.get_unchecked_mut(a) = (sa & !both(bit_ab)) | both(sb & bit_ab);
                *self.st.get_unchecked_mut(b) = (sb & !both(bit_ba)) | both(sa & bit_ba);
            }
            return false;
        }
        let d = bit_ab.trailing_zeros() as usize;
        let od = opposite(d);
        let mut moved = false;
        {
            // δ(a, b) = od (a lies opposite to d, seen from b); δ(b, a) = d.
            let ab = self.wants_move(rng, sa, sb, od);
            let ba = self.wants_move(rng, sb, sa, d);
            if ab != ba {
                let (from, to) = if ab { (a, b) } else { (b, a) };
                self.move_queen(from, to);
                moved = true;
            }
        }
        self.pair_signals(a, b, d);
        moved
    }

    /// Model 1's signal rule on the pair `a`, `b = a + DIRECTIONS[d]`, on the current
    /// configuration: the bit of `a` towards `b` becomes "b holds a queen or b's bit in the
    /// same direction", symmetrically for `b`; no memory of the old bits. The two updated bits
    /// differ (`d` in `a`, `opposite(d)` in `b`), so the order does not matter.
    #[inline(always)]
    pub(super) fn pair_signals(&mut self, a: usize, b: usize, d: usize) {
        let od = opposite(d);
        debug_assert!(a < self.st.len() && b < self.st.len());
        // SAFETY: callers pass a pair of board cells, inside the padded array.
        unsafe {
            let (sa, sb) = (*self.st.get_unchecked(a), *self.st.get_unchecked(b));
            // PERF: "b holds a queen or b's bit d" is bit d of b's emitted byte.
            let from_b = sb >> (EMIT_SHIFT as usize + d) & 1;
            let from_a = sa >> (EMIT_SHIFT as usize + od) & 1;
            *self.st.get_unchecked_mut(a) = with_emit((sa & !(1 << d)) | (from_b << d));
            *self.st.get_unchecked_mut(b) = with_emit((sb & !(1 << od)) | (from_a << od));
        }
    }
}
