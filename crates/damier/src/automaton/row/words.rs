//! A model 3 board as words: the checkpoint's cell words ([`RowBoard::word`],
//! [`RowBoard::from_words`]), and the queens and planes that an engine computing the fields
//! elsewhere (the GPU's) reads and puts back, each checked against what a run can reach.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::board::RowBoard;
use super::layout::{
    EAST, EAST_P, FAR, LINE_DIRS, PATIENCE_SHIFT, PLANES, REST_SHIFT, SAFE, WALKING, WEST, WORD_EAST,
    WORD_PATIENCE_SHIFT, WORD_QUEEN, WORD_REST_SHIFT, WORD_SAFE, WORD_WALKING,
};
use super::rule::Rule;
use crate::automaton::dir::DIRECTIONS;
use crate::util::SPREAD;

/// Why cell words are not a model 3 state.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RowStateError {
    /// A row without exactly one queen.
    #[error("row {row} holds {queens} queens; model 3 keeps exactly one per row")]
    Row {
        /// 0-based row.
        row: usize,
        /// Queens found on it.
        queens: u32,
    },
    /// Planes ([`RowBoard::set_planes`]) of the wrong length.
    #[error("{found} plane words for n = {n}; model 3 takes {expected}")]
    Planes {
        /// Board side.
        n: usize,
        /// Words expected.
        expected: usize,
        /// Words given.
        found: usize,
    },
    /// A field out of its range, or a count from off the board.
    #[error("cell ({x}, {y}): {what}")]
    Cell {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// What is wrong.
        what: &'static str,
    },
}

impl RowBoard {
    /// Cell `(x, y)` as one word (the checkpoint's layout): bits `2k..2k+2` the count along
    /// `LINE_DIRS[k]`, 12..16 the west wave, 16..20 the east wave, bit 20 the queen, 21
    /// walking, 22 walking east, 23..27 the settled queen's patience count, 27..31 its rest
    /// count (with [`Rule::backoff`](super::Rule::backoff), the queen's level, walking or
    /// settled), bit 31 the settled queen was out of danger
    /// ([`Rule::backoff_hits`](super::Rule::backoff_hits)).
    pub fn word(&self, x: usize, y: usize) -> u32 {
        let mut word = self.fields(x, y);
        if self.col[y] as usize == x {
            let q = self.qs[y];
            word |= WORD_QUEEN;
            if q & WALKING != 0 {
                word |= WORD_WALKING;
            }
            if q & EAST != 0 {
                word |= WORD_EAST;
            }
            word |= u32::from(q >> PATIENCE_SHIFT & 15) << WORD_PATIENCE_SHIFT;
            word |= u32::from(q >> REST_SHIFT & 15) << WORD_REST_SHIFT;
            if q & SAFE != 0 {
                word |= WORD_SAFE;
            }
        }
        word
    }

    /// The words of row `y` ([`RowBoard::word`] of each cell) as the checkpoint stores them:
    /// cell `x`'s word little-endian in `out[4 x..4 x + 4]` (`out` holds 4 n bytes).
    ///
    /// PERF: `word` gathers a cell's 20 bits from 20 planes, a bit at a time (68% of a
    /// checkpoint's CPU time at n = 8 192, measured with perf); here each plane's word is read
    /// once for 64 cells and its bytes spread by a table: 8 cells' bits of 8 planes in one
    /// `u64`, byte `j` of it the byte of cell `j` (the word's low, middle or high byte), the
    /// queen's cell patched after. Plain loops: the default profile builds at opt-level 1.
    pub fn row_bytes(&self, y: usize, out: &mut [u8]) {
        const { assert!(PLANES > 16 && PLANES <= 24, "three bytes of field bits a cell") };
        assert_eq!(out.len(), 4 * self.n, "four bytes per cell of the row");
        let ww = self.wpp + 2;
        let base = y * PLANES * ww + 1;
        let mut planes = [0u64; PLANES];
        for (w, cells) in out.chunks_mut(4 * 64).enumerate() {
            for (p, plane) in planes.iter_mut().enumerate() {
                *plane = self.cur[base + p * ww + w];
            }
            for (k, eight) in cells.chunks_mut(4 * 8).enumerate() {
                let shift = 8 * k;
                let (mut low, mut mid, mut high) = (0u64, 0u64, 0u64);
                for p in 0..8 {
                    low |= SPREAD[(planes[p] >> shift) as u8 as usize] << p;
                    mid |= SPREAD[(planes[p + 8] >> shift) as u8 as usize] << p;
                }
                for p in 16..PLANES {
                    high |= SPREAD[(planes[p] >> shift) as u8 as usize] << (p - 16);
                }
                for cell in eight.chunks_exact_mut(4) {
                    cell[0] = low as u8;
                    cell[1] = mid as u8;
                    cell[2] = high as u8;
                    cell[3] = 0;
                    (low, mid, high) = (low >> 8, mid >> 8, high >> 8);
                }
            }
        }
        let x = self.col[y] as usize;
        out[4 * x..4 * x + 4].copy_from_slice(&self.word(x, y).to_le_bytes());
    }

    /// The state that [`RowBoard::word`] wrote (`words` row-major), with its counters and
    /// generator; every field is checked against what a run can reach.
    pub fn from_words(
        rule: Rule,
        n: usize,
        words: &[u32],
        steps: u64,
        moves: u64,
        rng: Xoshiro256PlusPlus,
    ) -> Result<RowBoard, RowStateError> {
        assert_eq!(words.len(), n * n, "one word per cell");
        let mut cols = vec![0u32; n];
        for y in 0..n {
            let row = &words[y * n..(y + 1) * n];
            let queens = row.iter().filter(|&&w| w & WORD_QUEEN != 0).count() as u32;
            let Some(x) = row.iter().position(|&w| w & WORD_QUEEN != 0).filter(|_| queens == 1) else {
                return Err(RowStateError::Row { row: y, queens });
            };
            cols[y] = x as u32;
        }
        let mut b = RowBoard::with_rng(rule, &cols, rng);
        for (i, &word) in words.iter().enumerate() {
            let (x, y) = (i % n, i / n);
            let bad = |what| Err(RowStateError::Cell { x, y, what });
            let patience = (word >> WORD_PATIENCE_SHIFT & 15) as u16;
            let rest = (word >> WORD_REST_SHIFT & 15) as u16;
            if word & (WORD_WALKING | WORD_EAST) != 0 && word & WORD_QUEEN == 0 {
                return bad("a walk without a queen");
            }
            let settled = word & (WORD_QUEEN | WORD_WALKING) == WORD_QUEEN;
            // With backoff the rest bits hold the queen's level, walking or settled.
            if patience > u16::from(rule.patience)
                || rest > u16::from(rule.rest.max(rule.backoff))
                || (patience > 0 || rest > 0 && rule.backoff == 0) && !settled
                || rest > 0 && word & WORD_QUEEN == 0
                || word & WORD_SAFE != 0 && !(settled && rule.backoff_hits)
            {
                return bad("a patience or rest count this rule never reaches, or off a settled queen");
            }
            if word & WORD_EAST != 0 && word & WORD_WALKING == 0
                || word & WORD_WALKING != 0 && !rule.hide_walkers
            {
                return bad("a walking flag this rule never sets");
            }
            for (k, &d) in LINE_DIRS.iter().enumerate() {
                let v = (word >> (2 * k) & 3) as u8;
                let (dx, dy) = DIRECTIONS[d];
                let inside =
                    (0..n as i32).contains(&(x as i32 + dx)) && (0..n as i32).contains(&(y as i32 + dy));
                if v > rule.cap || v > 0 && !inside {
                    return bad("a count above the cap or from off the board");
                }
                b.set_count(k, x, y, v);
            }
            let (west, east) = ((word >> 12 & 15) as u8, (word >> 16 & 15) as u8);
            if west > FAR || east > FAR || x == 0 && west != FAR || x == n - 1 && east != FAR {
                return bad("a wave value from off the board");
            }
            b.set_field(WEST, 4, x, y, west);
            b.set_field(EAST_P, 4, x, y, east);
            if word & WORD_WALKING != 0 {
                b.qs[y] |= WALKING;
            }
            if word & WORD_EAST != 0 {
                b.qs[y] |= EAST;
            }
            if word & WORD_QUEEN != 0 {
                b.qs[y] |= patience << PATIENCE_SHIFT | rest << REST_SHIFT;
                if word & WORD_SAFE != 0 {
                    b.qs[y] |= SAFE;
                }
            }
        }
        b.steps = steps;
        b.moves = moves;
        Ok(b)
    }

    /// The state bits of row `y`'s queen: [`RowBoard::word`]'s bits from 20 shifted down
    /// (bit 0 the queen, 1 walking, 2 walking east, 3..7 the patience count, 7..11 the rest
    /// count or backoff level, 11 safe). What an engine that runs the queens elsewhere starts from.
    pub fn queen_state(&self, y: usize) -> u32 {
        u32::from(self.qs[y])
    }

    /// The queens' side of a state computed elsewhere (the GPU's queens' phase): each row's
    /// queen column and state bits ([`RowBoard::queen_state`]), the generator and the
    /// counters; the line counts are counted again. Checked as [`RowBoard::from_words`]
    /// checks the queen bits of a cell; on an error the board is unchanged. The planes come
    /// back with [`RowBoard::set_planes`].
    pub fn set_queens(
        &mut self,
        cols: &[u32],
        states: &[u32],
        rng: Xoshiro256PlusPlus,
        steps: u64,
        moves: u64,
    ) -> Result<(), RowStateError> {
        let n = self.n;
        if cols.len() != n || states.len() != n {
            return Err(RowStateError::Planes { n, expected: n, found: cols.len().min(states.len()) });
        }
        let rule = self.rule;
        for (y, (&x, &s)) in cols.iter().zip(states).enumerate() {
            let bad = |what| Err(RowStateError::Cell { x: x as usize, y, what });
            if x as usize >= n {
                return Err(RowStateError::Row { row: y, queens: 0 });
            }
            let (walking, patience, rest) = (s & 2 != 0, s >> 3 & 15, s >> 7 & 15);
            let safe = s & u32::from(SAFE) != 0;
            if s & 1 == 0 || s >> 12 != 0 || safe && (walking || !rule.backoff_hits) {
                return bad("a queen state this rule never reaches");
            }
            if s & 4 != 0 && !walking || walking && !rule.hide_walkers {
                return bad("a walking flag this rule never sets");
            }
            if patience > u32::from(rule.patience)
                || rest > u32::from(rule.rest.max(rule.backoff))
                || (patience > 0 || rest > 0 && rule.backoff == 0) && walking
            {
                return bad("a patience or rest count this rule never reaches, or off a settled queen");
            }
        }
        self.col.copy_from_slice(cols);
        for (q, &s) in self.qs.iter_mut().zip(states) {
            *q = s as u16;
        }
        self.lines.fill(0);
        self.crowded = 0;
        for y in 0..n {
            self.add_lines(self.col[y] as usize, y, 1);
        }
        self.rng = rng;
        self.steps = steps;
        self.moves = moves;
        Ok(())
    }

    /// Row `y`'s plane `p` ([`PLANES`]): `n.div_ceil(64)` words, cell `x` in bit `x % 64` of
    /// word `x / 64`; bits beyond the board hold count 0 and wave [`FAR`] (all ones). The
    /// state an engine that computes the fields elsewhere starts from.
    pub fn plane(&self, p: usize, y: usize) -> &[u64] {
        let start = (y * PLANES + p) * (self.wpp + 2) + 1;
        &self.cur[start..start + self.n.div_ceil(64)]
    }

    /// Every plane set from `planes`: row `y`'s plane `p` ([`RowBoard::plane`]'s layout) at
    /// `(y PLANES + p) n.div_ceil(64)`. Checked as [`RowBoard::from_words`] checks cells
    /// (counts within the cap and none from off the board, waves [`FAR`] at the ends) and
    /// the bits beyond the board as [`RowBoard::plane`] has them; on an error the board is
    /// unchanged. How planes computed elsewhere come back into a board.
    pub fn set_planes(&mut self, planes: &[u64]) -> Result<(), RowStateError> {
        let (n, m, ww) = (self.n, self.n.div_ceil(64), self.wpp + 2);
        if planes.len() != n * PLANES * m {
            return Err(RowStateError::Planes { n, expected: n * PLANES * m, found: planes.len() });
        }
        // The board's cells in word j.
        let inside = |j: usize| if 64 * (j + 1) <= n { !0u64 } else { !(!0u64 << (n - 64 * j)) };
        let last = 1u64 << (n.saturating_sub(1) % 64);
        for (y, row) in planes.chunks_exact(PLANES * m).enumerate() {
            for j in 0..m {
                let cells = inside(j);
                let bad = |bits: u64, what| {
                    Err(RowStateError::Cell { x: 64 * j + bits.trailing_zeros() as usize, y, what })
                };
                for (k, &d) in LINE_DIRS.iter().enumerate() {
                    let (dx, dy) = DIRECTIONS[d];
                    // The cells whose source along the direction lies on the board.
                    let mut may = if (0..n as i32).contains(&(y as i32 + dy)) { cells } else { 0 };
                    if dx < 0 && j == 0 {
                        may &= !1;
                    }
                    if dx > 0 && j == m - 1 {
                        may &= !last;
                    }
                    let (lo, hi) = (row[2 * k * m + j], row[(2 * k + 1) * m + j]);
                    let over = (if self.rule.cap < 2 { hi } else { lo & hi }) | (lo | hi) & !may;
                    if over != 0 {
                        return bad(over, "a count above the cap or from off the board");
                    }
                }
                for w in [WEST, EAST_P] {
                    // The cells whose wave must be FAR: the board's end on its side, and beyond.
                    let mut edge = !cells;
                    if w == WEST && j == 0 {
                        edge |= 1;
                    }
                    if w == EAST_P && j == m - 1 {
                        edge |= last;
                    }
                    let far = (0..4).fold(!0u64, |a, i| a & row[(w + i) * m + j]);
                    if edge & !far != 0 {
                        return bad(edge & !far, "a wave value from off the board");
                    }
                }
            }
        }
        for (y, row) in planes.chunks_exact(PLANES * m).enumerate() {
            for p in 0..PLANES {
                let start = (y * PLANES + p) * ww + 1;
                self.cur[start..start + m].copy_from_slice(&row[p * m..(p + 1) * m]);
            }
        }
        Ok(())
    }
}
