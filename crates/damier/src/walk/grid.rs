//! [`Grid`]: one bit per cell of a board, rows packed into `u64` words.
//!
//! Row 0 is the **top** row, as in the seed's pictures (printed top row first); the pawn starts
//! on the bottom-left cell, `(rows - 1, 0)`. Column 0 is the left edge.

use crate::gf2::{BitVec, words_for};

use super::WalkError;

/// A rows x cols array of bits (an activation set, or which cells are black).
///
/// Row `r` occupies `stride` words; column `c` is bit `c % 64` of word `c / 64`; the unused
/// high bits of each row's last word are kept zero.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    rows: usize,
    cols: usize,
    stride: usize,
    words: Vec<u64>,
}

impl Grid {
    /// The all-zero grid (no cell activated / every cell white).
    pub fn zeros(rows: usize, cols: usize) -> Self {
        let stride = words_for(cols);
        Grid { rows, cols, stride, words: vec![0; rows * stride] }
    }

    /// The all-one grid.
    pub fn ones(rows: usize, cols: usize) -> Self {
        let mut g = Grid::zeros(rows, cols);
        for r in 0..rows {
            for w in g.row_mut(r) {
                *w = !0;
            }
            g.clear_row_tail(r);
        }
        g
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Words per row.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Cell `(r, c)` (row 0 on top). Panics out of range.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> bool {
        assert!(r < self.rows && c < self.cols, "cell ({r}, {c}) out of range");
        (self.words[r * self.stride + c / 64] >> (c % 64)) & 1 == 1
    }

    /// Sets cell `(r, c)`. Panics out of range.
    #[inline]
    pub fn set(&mut self, r: usize, c: usize, value: bool) {
        assert!(r < self.rows && c < self.cols, "cell ({r}, {c}) out of range");
        let mask = 1u64 << (c % 64);
        let w = &mut self.words[r * self.stride + c / 64];
        if value {
            *w |= mask;
        } else {
            *w &= !mask;
        }
    }

    /// Flips cell `(r, c)`. Panics out of range.
    #[inline]
    pub fn flip(&mut self, r: usize, c: usize) {
        assert!(r < self.rows && c < self.cols, "cell ({r}, {c}) out of range");
        self.words[r * self.stride + c / 64] ^= 1u64 << (c % 64);
    }

    /// Flips cell `(r, c)` and its orthogonal neighbours inside the grid: one landing.
    /// Panics out of range.
    #[inline]
    pub fn flip_plus(&mut self, r: usize, c: usize) {
        assert!(r < self.rows && c < self.cols, "cell ({r}, {c}) out of range");
        let (k, bit) = (c / 64, 1u64 << (c % 64));
        let base = r * self.stride;
        // PERF: word operations without per-cell range checks (the one assert covers them):
        // the cell and its east/west neighbours are one three-bit mask, split at word edges.
        let mut mask = bit | (bit << 1) | (bit >> 1);
        if c + 1 == self.cols {
            mask &= !(bit << 1);
        }
        self.words[base + k] ^= mask;
        if c % 64 == 63 && c + 1 < self.cols {
            self.words[base + k + 1] ^= 1;
        }
        if c.is_multiple_of(64) && c > 0 {
            self.words[base + k - 1] ^= 1 << 63;
        }
        if r > 0 {
            self.words[base - self.stride + k] ^= bit;
        }
        if r + 1 < self.rows {
            self.words[base + self.stride + k] ^= bit;
        }
    }

    /// Row `r` as packed words.
    #[inline]
    pub fn row(&self, r: usize) -> &[u64] {
        &self.words[r * self.stride..(r + 1) * self.stride]
    }

    /// Row `r` as packed words, mutable; keep the high bits of the last word zero.
    #[inline]
    pub fn row_mut(&mut self, r: usize) -> &mut [u64] {
        &mut self.words[r * self.stride..(r + 1) * self.stride]
    }

    /// Zeroes the unused high bits of row `r`'s last word.
    pub fn clear_row_tail(&mut self, r: usize) {
        let rem = self.cols % 64;
        if rem != 0 && self.stride > 0 {
            let last = (r + 1) * self.stride - 1;
            self.words[last] &= (1u64 << rem) - 1;
        }
    }

    /// Number of cells set.
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when no cell is set.
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// True when every cell is set.
    pub fn is_full(&self) -> bool {
        self.count_ones() == self.rows * self.cols
    }

    /// `self += other` cell by cell over GF(2). Panics if the shapes differ.
    pub fn xor_assign(&mut self, other: &Grid) {
        assert!(self.rows == other.rows && self.cols == other.cols, "grid shape mismatch");
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a ^= b;
        }
    }

    /// The transposed grid (cols x rows).
    pub fn transpose(&self) -> Grid {
        let mut t = Grid::zeros(self.cols, self.rows);
        for r in 0..self.rows {
            for c in BitVec::from_words(self.cols, self.row(r)).ones_indices() {
                t.set(c, r, true);
            }
        }
        t
    }

    /// The cells as one vector, row-major (index `r * cols + c`): the Lights Out ordering.
    pub fn to_bitvec(&self) -> BitVec {
        let mut v = BitVec::zeros(self.rows * self.cols);
        for r in 0..self.rows {
            for c in BitVec::from_words(self.cols, self.row(r)).ones_indices() {
                v.set(r * self.cols + c, true);
            }
        }
        v
    }

    /// The grid from a row-major vector. Panics if the length is not `rows * cols`.
    pub fn from_bitvec(rows: usize, cols: usize, v: &BitVec) -> Grid {
        assert_eq!(v.len(), rows * cols, "vector length mismatch");
        let mut g = Grid::zeros(rows, cols);
        for i in v.ones_indices() {
            g.set(i / cols, i % cols, true);
        }
        g
    }

    /// The seed's picture: one line per row, top row first, `#` for a set cell, `_` otherwise.
    pub fn picture(&self) -> Vec<String> {
        (0..self.rows)
            .map(|r| (0..self.cols).map(|c| if self.get(r, c) { '#' } else { '_' }).collect())
            .collect()
    }

    /// Parses a picture (top row first; `#` set, `_` or `.` clear). All lines must have the
    /// same non-zero length.
    pub fn from_picture<S: AsRef<str>>(lines: &[S]) -> Result<Grid, WalkError> {
        let rows = lines.len();
        let cols = lines.first().map_or(0, |l| l.as_ref().chars().count());
        if rows == 0 || cols == 0 {
            return Err(WalkError::BadPicture { line: 1, reason: "the picture is empty".into() });
        }
        let mut g = Grid::zeros(rows, cols);
        for (r, line) in lines.iter().enumerate() {
            let line = line.as_ref();
            if line.chars().count() != cols {
                return Err(WalkError::BadPicture {
                    line: r + 1,
                    reason: format!("{} cells, expected {cols}", line.chars().count()),
                });
            }
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '#' => g.set(r, c, true),
                    '_' | '.' => {}
                    other => {
                        return Err(WalkError::BadPicture {
                            line: r + 1,
                            reason: format!("unexpected character {other:?} (use '#' and '_')"),
                        });
                    }
                }
            }
        }
        Ok(g)
    }

    /// The board colours produced by landing on every set cell once: `M a` (black = 1).
    pub fn press_image(&self) -> Grid {
        let mut out = Grid::zeros(self.rows, self.cols);
        let mut tmp = vec![0u64; self.stride];
        for r in 0..self.rows {
            // Horizontal part: a ^ (a << 1) ^ (a >> 1) within the row.
            spread_row(self.row(r), &mut tmp, self.cols);
            let dst = &mut out.words[r * self.stride..(r + 1) * self.stride];
            dst.copy_from_slice(&tmp);
            if r > 0 {
                for (d, s) in dst.iter_mut().zip(&self.words[(r - 1) * self.stride..r * self.stride]) {
                    *d ^= s;
                }
            }
            if r + 1 < self.rows {
                for (d, s) in dst.iter_mut().zip(&self.words[(r + 1) * self.stride..(r + 2) * self.stride]) {
                    *d ^= s;
                }
            }
        }
        out
    }
}

/// `dst = src ^ (src << 1) ^ (src >> 1)` over a packed row of `cols` bits (bit c moves to
/// c + 1 and c - 1), tail bits cleared.
// PERF: whole words with the carry bit from the neighbouring word, no per-bit loop.
#[inline]
pub(crate) fn spread_row(src: &[u64], dst: &mut [u64], cols: usize) {
    let n = src.len();
    for i in 0..n {
        let w = src[i];
        let from_lower = if i > 0 { src[i - 1] >> 63 } else { 0 };
        let from_upper = if i + 1 < n { src[i + 1] << 63 } else { 0 };
        dst[i] = w ^ ((w << 1) | from_lower) ^ ((w >> 1) | from_upper);
    }
    let rem = cols % 64;
    if rem != 0 && n > 0 {
        dst[n - 1] &= (1u64 << rem) - 1;
    }
}

impl std::fmt::Debug for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Grid {}x{}", self.rows, self.cols)?;
        for line in self.picture() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picture_round_trip_and_transpose() {
        let g = Grid::from_picture(&["#__", "_##"]).unwrap();
        assert_eq!(g.picture(), vec!["#__", "_##"]);
        assert_eq!(g.transpose().picture(), vec!["#_", "_#", "_#"]);
        assert_eq!(g.count_ones(), 3);
        assert!(Grid::from_picture(&["#_", "#"]).is_err());
        assert!(Grid::from_picture(&["#x"]).is_err());
        assert!(Grid::from_picture::<&str>(&[]).is_err());
    }

    #[test]
    fn press_image_matches_cell_by_cell_flips() {
        // Across a word boundary, with every cell pattern of a small band.
        for cols in [1, 2, 63, 64, 65, 130] {
            let mut a = Grid::zeros(3, cols);
            for c in (0..cols).filter(|c| c % 3 != 1) {
                a.set(c % 3, c, true);
            }
            a.set(1, cols - 1, true);
            let mut slow = Grid::zeros(3, cols);
            for r in 0..3 {
                for c in 0..cols {
                    if a.get(r, c) {
                        slow.flip_plus(r, c);
                    }
                }
            }
            assert_eq!(a.press_image(), slow, "cols = {cols}");
        }
    }

    #[test]
    fn flip_plus_matches_single_flips_at_word_edges() {
        for cols in [1, 2, 63, 64, 65, 128, 129] {
            for c in [0, 1, 62, 63, 64, 65, 127, 128].into_iter().filter(|&c| c < cols) {
                for r in 0..3 {
                    let mut fast = Grid::zeros(3, cols);
                    fast.flip_plus(r, c);
                    let mut slow = Grid::zeros(3, cols);
                    for (dr, dc) in [(0i64, 0i64), (-1, 0), (1, 0), (0, -1), (0, 1)] {
                        let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                        if (0..3).contains(&rr) && (0..cols as i64).contains(&cc) {
                            slow.flip(rr as usize, cc as usize);
                        }
                    }
                    assert_eq!(fast, slow, "cols {cols}, cell ({r}, {c})");
                }
            }
        }
    }

    #[test]
    fn bitvec_round_trip() {
        let g = Grid::from_picture(&["#_#", "__#"]).unwrap();
        let v = g.to_bitvec();
        assert_eq!(v.ones_indices().collect::<Vec<_>>(), vec![0, 2, 5]);
        assert_eq!(Grid::from_bitvec(2, 3, &v), g);
    }
}
