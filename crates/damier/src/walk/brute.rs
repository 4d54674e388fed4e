//! The blog post's "la brute": try every one of the `2^(L·C)` activation sets.
//!
//! The obvious oracle for the other solvers. Each set's effect on the board is the XOR of the
//! press masks of its cells (one `u64`, since `L·C <= 30`); a set is a solution when that XOR
//! is all ones. The sets are split into a low part (the first `LOW` cells, whose `2^LOW`
//! combined masks are tabulated) and a high part walked in Gray-code order, so each of the
//! `2^(L·C)` sets costs one table read and one comparison.
//!
//! ```
//! use damier::control::Control;
//! use damier::walk::{board_size, brute};
//!
//! assert_eq!(brute::solutions(board_size(3, 3).unwrap(), &Control::new()).unwrap().len(), 1);
//! ```

use crate::control::{Control, Interrupted};

use crate::board::{Board, Size};

use super::error::WalkError;

/// Largest board brute force accepts, in cells: 30 (`2^30` sets, seconds in a release build).
pub const MAX_CELLS: usize = 30;

/// Cells in the tabulated low part (at most; fewer on small boards).
const LOW: usize = 12;

/// Every solution of the board of this size, in increasing order of the set read as a number (bit
/// `r * cols + c`). Refused above [`MAX_CELLS`] cells.
pub fn solutions(size: Size, control: &Control) -> Result<Vec<Board>, WalkError> {
    let n = size.cells();
    if n > MAX_CELLS {
        return Err(WalkError::BruteTooLarge { cells: n, max: MAX_CELLS });
    }
    let (rows, cols) = (size.height(), size.width());
    let press: Vec<u64> = (0..n)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            let mut m = 1u64 << i;
            if r > 0 {
                m |= 1 << (i - cols);
            }
            if r + 1 < rows {
                m |= 1 << (i + cols);
            }
            if c > 0 {
                m |= 1 << (i - 1);
            }
            if c + 1 < cols {
                m |= 1 << (i + 1);
            }
            m
        })
        .collect();
    let full = (1u64 << n) - 1;
    let low = n.min(LOW);
    let mut table = vec![0u32; 1 << low];
    for x in 1..table.len() {
        table[x] = table[x & (x - 1)] ^ press[x.trailing_zeros() as usize] as u32;
    }
    let high = n - low;
    let mut found: Vec<u64> = Vec::new();
    let mut state = 0u64; // the effect of the current high part
    for g in 0u64..(1u64 << high) {
        if g > 0 {
            state ^= press[low + g.trailing_zeros() as usize];
        }
        if g % 1024 == 0 {
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            control.advance(1024.min(1u64 << high));
        }
        let need = (full ^ state) as u32;
        // PERF: a plain scan of the table, branch almost never taken; no allocation.
        for (x, &t) in table.iter().enumerate() {
            if t == need {
                found.push(((g ^ (g >> 1)) << low) | x as u64);
            }
        }
    }
    found.sort_unstable();
    Ok(found
        .into_iter()
        .map(|s| {
            let mut g = Board::new(size);
            for i in (0..n).filter(|i| (s >> i) & 1 == 1) {
                g.set(i % cols, i / cols, true);
            }
            g
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::board_size;
    use crate::walk::{picture, press_image};

    #[test]
    fn small_boards_by_hand() {
        let c = Control::new();
        // 1 x 1: land once. 1 x 2: either cell alone. 2 x 2: all four.
        assert_eq!(solutions(board_size(1, 1).unwrap(), &c).unwrap().len(), 1);
        let two = solutions(board_size(1, 2).unwrap(), &c).unwrap();
        assert_eq!(two.iter().map(|g| picture(g)[0].clone()).collect::<Vec<_>>(), vec!["#_", "_#"]);
        let four = solutions(board_size(2, 2).unwrap(), &c).unwrap();
        assert_eq!(four.len(), 1);
        assert_eq!(four[0].count_ones(), 4);
    }

    #[test]
    fn every_solution_checks_and_limit_is_stated() {
        let c = Control::new();
        let b = board_size(4, 4).unwrap();
        let all = solutions(b, &c).unwrap();
        assert_eq!(all.len(), 16);
        assert!(all.iter().all(|g| press_image(g) == Board::ones(b)));
        let err = solutions(board_size(4, 8).unwrap(), &c).unwrap_err();
        assert!(err.to_string().contains("at most 30 cells"), "{err}");
    }
}
