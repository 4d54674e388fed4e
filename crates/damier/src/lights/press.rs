//! Pressing cells: the rule itself, a cell-by-cell simulator, the bit-parallel one used to
//! verify every press pattern, and the `N x N` press matrix.
//!
//! ```
//! use damier::board::{Board, Size};
//! use damier::lights::press::{apply_presses, press_cell, verify};
//!
//! let size = Size::new(3, 3).unwrap();
//! let mut lit = Board::new(size);
//! press_cell(&mut lit, 1, 1); // the centre and its four neighbours
//! assert_eq!(lit.count_ones(), 5);
//! let mut presses = Board::new(size);
//! presses.set(1, 1, true);
//! assert!(apply_presses(&lit, &presses).is_zero());
//! assert!(verify(&lit, None, &presses));
//! ```

use crate::board::{Board, Size};
use crate::gf2::BitMatrix;
use crate::util::{OutOfMemory, try_filled};

/// Presses cell `(x, y)`: flips it and its orthogonal neighbours inside the board.
pub fn press_cell(board: &mut Board, x: usize, y: usize) {
    board.flip(x, y);
    if x > 0 {
        board.flip(x - 1, y);
    }
    if x + 1 < board.width() {
        board.flip(x + 1, y);
    }
    if y > 0 {
        board.flip(x, y - 1);
    }
    if y + 1 < board.height() {
        board.flip(x, y + 1);
    }
}

/// `start` after pressing every cell lit in `presses`, one cell at a time (the obvious
/// simulator: independent of every solver, `O(cells)`; for tests and small boards).
pub fn apply_presses_naive(start: &Board, presses: &Board) -> Board {
    assert_eq!((start.width(), start.height()), (presses.width(), presses.height()), "board sizes differ");
    let mut b = start.clone();
    for y in 0..presses.height() {
        for x in presses.row_ones(y).collect::<Vec<_>>() {
            press_cell(&mut b, x, y);
        }
    }
    b
}

/// The lights flipped by pressing row `p` with rows `above`/`below` pressed too, XORed into
/// `out`: `out ^= p ^ (p << 1) ^ (p >> 1) ^ above ^ below`, masked to the width.
#[inline(always)]
pub(crate) fn effect_xor(out: &mut [u64], p: &[u64], above: &[u64], below: &[u64], mask: u64) {
    let n = p.len();
    assert!(n >= 1 && out.len() == n && above.len() == n && below.len() == n);
    if n == 1 {
        out[0] ^= (p[0] ^ (p[0] << 1) ^ (p[0] >> 1) ^ above[0] ^ below[0]) & mask;
        return;
    }
    // PERF: a cell's left/right neighbours are the row shifted by one bit; carries between
    // words come from the neighbouring words, so the middle loop is branch-free.
    out[0] ^= p[0] ^ (p[0] << 1) ^ ((p[0] >> 1) | (p[1] << 63)) ^ above[0] ^ below[0];
    for i in 1..n - 1 {
        out[i] ^=
            p[i] ^ ((p[i] << 1) | (p[i - 1] >> 63)) ^ ((p[i] >> 1) | (p[i + 1] << 63)) ^ above[i] ^ below[i];
    }
    let l = n - 1;
    out[l] ^= (p[l] ^ ((p[l] << 1) | (p[l - 1] >> 63)) ^ (p[l] >> 1) ^ above[l] ^ below[l]) & mask;
}

/// Mask of the valid bits of a row's last word.
#[inline]
pub(crate) fn tail_mask(width: usize) -> u64 {
    if width.is_multiple_of(64) { !0 } else { (1u64 << (width % 64)) - 1 }
}

/// `start` after the presses, computed a row at a time with word operations. For the small
/// boards of games and tests; a board of a request goes through [`try_apply_presses`].
pub fn apply_presses(start: &Board, presses: &Board) -> Board {
    try_apply_presses(start, presses).unwrap_or_else(|e| panic!("{e}"))
}

/// [`apply_presses`], its new board (and one row of zeros) allocated without aborting:
/// [`OutOfMemory`] when the allocator refuses it. Panics when the sizes differ.
pub fn try_apply_presses(start: &Board, presses: &Board) -> Result<Board, OutOfMemory> {
    assert_eq!((start.width(), start.height()), (presses.width(), presses.height()), "board sizes differ");
    let mut out = start.try_clone()?;
    let zero = try_filled(0u64, start.stride())?;
    let mask = tail_mask(start.width());
    for y in 0..start.height() {
        let above = if y > 0 { presses.row(y - 1) } else { &zero };
        let below = if y + 1 < start.height() { presses.row(y + 1) } else { &zero };
        effect_xor(out.row_mut(y), presses.row(y), above, below, mask);
    }
    Ok(out)
}

crate::cpu::avx2_dispatch! {
    /// True when pressing `presses` turns `start` into `target` (all off when `None`). Checked a
    /// row at a time without allocating a board.
    pub fn verify(start: &Board, target: Option<&Board>, presses: &Board) -> bool => verify_impl
}

#[inline(always)]
fn verify_impl(start: &Board, target: Option<&Board>, presses: &Board) -> bool {
    let (w, h) = (start.width(), start.height());
    if (presses.width(), presses.height()) != (w, h)
        || target.is_some_and(|t| (t.width(), t.height()) != (w, h))
    {
        return false;
    }
    let zero = vec![0u64; start.stride()];
    let mut row = vec![0u64; start.stride()];
    let mask = tail_mask(w);
    for y in 0..h {
        row.copy_from_slice(start.row(y));
        if let Some(t) = target {
            for (r, x) in row.iter_mut().zip(t.row(y)) {
                *r ^= x;
            }
        }
        let above = if y > 0 { presses.row(y - 1) } else { &zero };
        let below = if y + 1 < h { presses.row(y + 1) } else { &zero };
        effect_xor(&mut row, presses.row(y), above, below, mask);
        if row.iter().any(|&x| x != 0) {
            return false;
        }
    }
    true
}

/// The `N x N` press matrix, `N = width * height`: column `i` is what pressing cell `i`
/// flips (cells numbered row by row, `i = y * width + x`). Symmetric, ones on the diagonal.
pub fn press_matrix(size: Size) -> BitMatrix {
    let (width, height) = (size.width(), size.height());
    let n = size.cells();
    let mut m = BitMatrix::zeros(n, n);
    for y in 0..height {
        for x in 0..width {
            let i = y * width + x;
            m.set(i, i, true);
            if x > 0 {
                m.set(i, i - 1, true);
            }
            if x + 1 < width {
                m.set(i, i + 1, true);
            }
            if y > 0 {
                m.set(i, i - width, true);
            }
            if y + 1 < height {
                m.set(i, i + width, true);
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn seed_two_by_two_example() {
        // The Lights Out text: B = cell 0 lit; pressing cells 0, 1, 2 turns everything off.
        let start = Board::parse("10\n00").unwrap();
        let presses = Board::parse("11\n10").unwrap();
        assert!(apply_presses_naive(&start, &presses).is_zero());
        assert!(verify(&start, None, &presses));
    }

    #[test]
    fn bit_parallel_simulator_matches_cell_by_cell() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for (w, h) in [(1, 1), (1, 5), (5, 1), (63, 3), (64, 4), (65, 5), (130, 7), (7, 7)] {
            let start = Board::random(Size::new(w, h).unwrap(), &mut rng);
            let presses = Board::random(Size::new(w, h).unwrap(), &mut rng);
            let fast = apply_presses(&start, &presses);
            assert_eq!(fast, apply_presses_naive(&start, &presses), "{w}x{h}");
            assert!(verify(&start, Some(&fast), &presses));
            // And the matrix view agrees: M x = B + result.
            let m = press_matrix(Size::new(w, h).unwrap());
            let mut diff = start.clone();
            diff.xor_assign(&fast);
            assert_eq!(m.mul_vec(&presses.to_bitvec()), diff.to_bitvec());
        }
    }
}
