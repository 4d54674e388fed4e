//! The seed's "le bon", made exact: first-row unknowns chased down the board.
//!
//! Give the `w` cells of the first row unknown values `x_0 .. x_{w-1}`. Every later cell is
//! then an affine function of `x` (light chasing): `a[r+1][c] = t[r][c] + a[r][c-1] + a[r][c] +
//! a[r][c+1] + a[r-1][c]`, with the terms for cells outside the board simply absent — this is
//! where the seed's coefficient triangle (which ignores the side edges) would go wrong. Each
//! cell is carried as a vector of `w + 1` bits (coefficients of `x`, then the constant), so a
//! row of the chase is `w` XORs of four packed vectors. The fictitious row `h` below the board
//! must vanish: `w` equations in `w` unknowns, solved by Gauss–Jordan elimination
//! ([`crate::gf2::BitMatrix::echelon`]). Its solutions are exactly the first rows of the
//! board's solutions, and its kernel gives the kernel of the walk: `2^nullity` solutions.
//!
//! The board is transposed when it has more columns than rows, so `w = min(L, C)` and
//! `h = max(L, C)`: cost `O(w²·h / 64)` word operations for the chase and `O(w³ / 64)` for
//! the elimination, memory `3·w·(w + 1)` bits for the chase plus the `w x w` system.

use crate::control::{Control, Interrupted};
use crate::gf2::{BitMatrix, BitVec, words_for};

use super::grid::spread_row;
use super::{Board, Grid, Solutions, WalkError};

/// Solves the walk: activation sets `a` with `M a = 1` (all black from all white).
pub fn solve(board: Board, control: &Control) -> Result<Solutions, WalkError> {
    // All-ones is always in the image of a symmetric matrix with ones on the diagonal
    // (Sutner's theorem), so `None` would be a bug; report it rather than panic.
    solve_target(board, &Grid::ones(board.rows(), board.cols()), control)?.ok_or(WalkError::Unsolvable)
}

/// Solves `M a = target` for any target (the cells whose colour must change), or `None` when
/// the target is not reachable. `target` must have the board's shape.
pub fn solve_target(board: Board, target: &Grid, control: &Control) -> Result<Option<Solutions>, WalkError> {
    board.check(target)?;
    let transpose = board.cols() > board.rows();
    let t = if transpose { target.transpose() } else { target.clone() };
    let (h, w) = (t.rows(), t.cols());
    let (m, b) = chase(&t, control)?;
    let ech = m.echelon(Some(&b));
    let Some(x) = ech.particular_solution() else { return Ok(None) };
    let back = |g: Grid| if transpose { g.transpose() } else { g };
    let particular = back(grow(&x, Some(&t), h, w));
    Ok(Some(Solutions::from_first_rows(board, particular, ech.kernel_basis(), transpose)))
}

/// The kernel grid of `board` whose first row (in the solver's orientation: the board
/// transposed when `transposed`) is `first`.
pub(crate) fn grow_kernel(board: Board, first: &BitVec, transposed: bool) -> Grid {
    let (h, w) = if transposed { (board.cols(), board.rows()) } else { (board.rows(), board.cols()) };
    let g = grow(first, None, h, w);
    if transposed { g.transpose() } else { g }
}

/// The `w x w` system on the first row for target `t` (`h x w`): the fictitious row below
/// the board, as coefficient rows and constants, must be zero.
fn chase(t: &Grid, control: &Control) -> Result<(BitMatrix, BitVec), WalkError> {
    let (h, w) = (t.rows(), t.cols());
    let s = words_for(w + 1);
    let (const_word, const_bit) = (w / 64, 1u64 << (w % 64));
    let mut above = vec![0u64; w * s];
    let mut cur = vec![0u64; w * s];
    let mut next = vec![0u64; w * s];
    for c in 0..w {
        cur[c * s + c / 64] |= 1 << (c % 64);
    }
    for r in 0..h {
        if control.cancelled() {
            return Err(Interrupted.into());
        }
        chase_row(&above, &cur, &mut next, w, s, r);
        for (k, &word) in t.row(r).iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let c = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                next[c * s + const_word] ^= const_bit;
            }
        }
        // Rotate: row r becomes "above", r + 1 "current"; the old "above" is overwritten next.
        std::mem::swap(&mut above, &mut cur);
        std::mem::swap(&mut cur, &mut next);
        control.advance(1);
    }
    let mut m = BitMatrix::zeros(w, w);
    let mut b = BitVec::zeros(w);
    for c in 0..w {
        let cell = &cur[c * s..(c + 1) * s];
        m.set_row(c, &BitVec::from_words(w, cell));
        if cell[const_word] & const_bit != 0 {
            b.set(c, true);
        }
    }
    Ok((m, b))
}

/// Cells per parallel task in [`chase_row`]; rows narrower than two tasks stay sequential.
const CELLS_PER_TASK: usize = 128;

/// One step of the chase over cell vectors of `s` words, computing row `r + 1`:
/// `next[c] = cur[c-1] ^ cur[c] ^ cur[c+1] ^ above[c]` (missing neighbours omitted).
///
/// Only the words that can be non-zero are touched: the coefficients of row `r + 1`, column
/// `c` lie in columns `c - r - 1 ..= c + r + 1` of the first row (the chase spreads one
/// column per row), plus the constant bit at index `w`. Words outside that band are zero in
/// all three buffers (a buffer only ever held rows with narrower bands).
// PERF: the hot loop of the solver. (1) The band skips about a third of the words of a
// square board. (2) The four operands of a cell are equal-length slices zipped together,
// which compiles to straight vector XORs without bounds checks. (3) Cells are split across
// threads (rayon) in chunks of `CELLS_PER_TASK`; each cell is written by exactly one task.
#[inline(never)]
fn chase_row(above: &[u64], cur: &[u64], next: &mut [u64], w: usize, s: usize, r: usize) {
    use rayon::prelude::*;
    let cell = |c: usize, out: &mut [u64]| {
        let lo = c.saturating_sub(r + 1) / 64;
        let hi = (c + r + 1).min(w - 1) / 64;
        let base = c * s;
        let mut xor_words = |from: usize, to: usize| {
            let a = &above[base + from..base + to];
            let m = &cur[base + from..base + to];
            let o = &mut out[from..to];
            match (c > 0, c + 1 < w) {
                (true, true) => {
                    let l = &cur[base - s + from..base - s + to];
                    let rt = &cur[base + s + from..base + s + to];
                    for ((((o, a), m), l), rt) in o.iter_mut().zip(a).zip(m).zip(l).zip(rt) {
                        *o = a ^ m ^ l ^ rt;
                    }
                }
                (true, false) | (false, true) => {
                    let x = if c > 0 {
                        &cur[base - s + from..base - s + to]
                    } else {
                        &cur[base + s + from..base + s + to]
                    };
                    for (((o, a), m), x) in o.iter_mut().zip(a).zip(m).zip(x) {
                        *o = a ^ m ^ x;
                    }
                }
                (false, false) => {
                    for ((o, a), m) in o.iter_mut().zip(a).zip(m) {
                        *o = a ^ m;
                    }
                }
            }
        };
        xor_words(lo, hi + 1);
        if s - 1 > hi {
            xor_words(s - 1, s);
        }
    };
    if w >= 2 * CELLS_PER_TASK {
        next.par_chunks_mut(s * CELLS_PER_TASK).enumerate().for_each(|(k, chunk)| {
            for (j, out) in chunk.chunks_exact_mut(s).enumerate() {
                cell(k * CELLS_PER_TASK + j, out);
            }
        });
    } else {
        for (c, out) in next.chunks_exact_mut(s).enumerate() {
            cell(c, out);
        }
    }
}

/// The `h x w` activation grid whose first row is `x`, each next row forced by the target
/// `t`: `a[r+1] = t[r] ^ a[r] ^ (a[r] << 1) ^ (a[r] >> 1) ^ a[r-1]`.
fn grow(x: &BitVec, t: Option<&Grid>, h: usize, w: usize) -> Grid {
    let mut g = Grid::zeros(h, w);
    let stride = g.stride();
    g.row_mut(0).copy_from_slice(x.words());
    let mut spread = vec![0u64; stride];
    for r in 0..h.saturating_sub(1) {
        spread_row(g.row(r), &mut spread, w);
        if r > 0 {
            for (d, a) in spread.iter_mut().zip(g.row(r - 1)) {
                *d ^= a;
            }
        }
        if let Some(t) = t {
            for (d, a) in spread.iter_mut().zip(t.row(r)) {
                *d ^= a;
            }
        }
        g.row_mut(r + 1).copy_from_slice(&spread);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The dense `N x N` press matrix (N = rows * cols, row-major cells): the Lights Out
    /// matrix, built independently of the chase.
    pub(crate) fn press_matrix(rows: usize, cols: usize) -> BitMatrix {
        let n = rows * cols;
        let mut m = BitMatrix::zeros(n, n);
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                m.set(i, i, true);
                if r > 0 {
                    m.set(i, i - cols, true);
                }
                if r + 1 < rows {
                    m.set(i, i + cols, true);
                }
                if c > 0 {
                    m.set(i, i - 1, true);
                }
                if c + 1 < cols {
                    m.set(i, i + 1, true);
                }
            }
        }
        m
    }

    fn rank_of(grids: &[Grid]) -> usize {
        if grids.is_empty() {
            return 0;
        }
        let n = grids[0].rows() * grids[0].cols();
        let mut m = BitMatrix::zeros(grids.len(), n);
        for (i, g) in grids.iter().enumerate() {
            m.set_row(i, &g.to_bitvec());
        }
        m.rank()
    }

    /// Checks the fast solver's answer for `target` against dense elimination of the press
    /// matrix: same solvability, same nullity, solution and kernel verified by `M`.
    fn agrees_with_dense(rows: usize, cols: usize, target: &Grid) {
        let board = Board::new(rows, cols).unwrap();
        let dense = press_matrix(rows, cols);
        let ech = dense.echelon(Some(&target.to_bitvec()));
        let got = solve_target(board, target, &Control::new()).unwrap();
        let dense_nullity = rows * cols - ech.rank();
        match (ech.particular_solution(), got) {
            (None, None) => {}
            (Some(_), Some(sol)) => {
                assert_eq!(sol.nullity(), dense_nullity, "{rows} x {cols}");
                assert_eq!(dense.mul_vec(&sol.particular.to_bitvec()), target.to_bitvec());
                assert_eq!(sol.particular.press_image(), *target);
                for k in &sol.kernel() {
                    assert!(dense.mul_vec(&k.to_bitvec()).is_zero(), "{rows} x {cols}: kernel vector");
                }
                assert_eq!(rank_of(&sol.kernel()), sol.nullity(), "kernel vectors independent");
            }
            (dense_sol, fast_sol) => panic!(
                "{rows} x {cols}: dense solvable {}, fast solvable {}",
                dense_sol.is_some(),
                fast_sol.is_some()
            ),
        }
    }

    #[test]
    fn all_ones_small_boards_agree_with_dense() {
        for rows in 1..=9 {
            for cols in 1..=9 {
                agrees_with_dense(rows, cols, &Grid::ones(rows, cols));
            }
        }
    }

    #[test]
    fn wide_rows_cross_word_boundaries() {
        // w + 1 = 65 bits: the constant lands in a second word; 64 columns exactly too.
        for (rows, cols) in [(64, 64), (64, 3), (3, 64), (65, 65), (2, 70)] {
            agrees_with_dense(rows, cols, &Grid::ones(rows, cols));
        }
    }

    /// Boards wide enough for the parallel, banded chase (w >= 256): the answer is checked by
    /// the press image, and a board and its transpose have the same nullity.
    #[test]
    fn wide_boards_take_the_parallel_path() {
        let control = Control::new();
        for (rows, cols) in [(300, 260), (260, 300), (257, 257)] {
            let sol = solve(Board::new(rows, cols).unwrap(), &control).unwrap();
            assert!(sol.particular.press_image().is_full(), "{rows} x {cols}");
            assert!(sol.kernel().iter().all(|k| k.press_image().is_zero()));
            assert_eq!(rank_of(&sol.kernel()), sol.nullity());
        }
        let a = solve(Board::new(300, 260).unwrap(), &control).unwrap().nullity();
        let b = solve(Board::new(260, 300).unwrap(), &control).unwrap().nullity();
        assert_eq!(a, b);
    }

    // TODO(lights cross-check, for the coordinator after merging `wip/lights`): the walk is
    // Lights Out with target all-ones. Add a test that, for every board up to 60 x 60 (or a
    // proptest over random sizes in that range), the Lights Out solver's nullity equals
    // `fast::solve(board).nullity()` and that its all-ones solution `x` and ours both satisfy
    // `x.press_image().is_full()` (they may differ when the nullity is non-zero; compare the
    // solution sets via `Solutions::all` on boards whose nullity is small). Until then the
    // independent oracle is dense elimination of the full press matrix, below.

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn fast_agrees_with_dense_up_to_40(rows in 1usize..=40, cols in 1usize..=40) {
            agrees_with_dense(rows, cols, &Grid::ones(rows, cols));
        }

        #[test]
        fn any_target_agrees_with_dense(rows in 1usize..=12, cols in 1usize..=12, seed in any::<u64>()) {
            let mut s = seed | 1;
            let mut t = Grid::zeros(rows, cols);
            for r in 0..rows {
                for c in 0..cols {
                    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                    t.set(r, c, s & 1 == 1);
                }
            }
            agrees_with_dense(rows, cols, &t);
        }
    }
}
