//! The blog post's "le truand": enumerate the first row, deduce the rest row by row.
//!
//! Cell `(r, c)` must see an odd number of activated cells among itself and its neighbours,
//! so once rows `r - 1` and `r` are known, row `r + 1` is forced:
//! `a[r+1] = 1 + a[r] + (a[r] << 1) + (a[r] >> 1) + a[r-1]` (each row one machine word,
//! side edges exact because the shifted-out bits are masked away). A first row is a solution
//! when the fictitious row below the board comes out zero. Cost `O(2^w · h)` word operations.
//!
//! The enumerated row is the board's narrower side (the board is transposed when it has more
//! columns than rows, and the solutions transposed back), so a 3 x 40 board costs `2^3` rows.
//!
//! ```
//! use damier::control::Control;
//! use damier::walk::{board_size, rows};
//!
//! assert_eq!(rows::solutions(board_size(4, 4).unwrap(), &Control::new()).unwrap().len(), 16);
//! ```

use crate::control::{Control, Interrupted};

use crate::board::{Board, Size};

use super::error::WalkError;

/// Widest first row enumerated: 24 cells (`2^24` first rows).
pub const MAX_WIDTH: usize = 24;

/// Most row steps (`2^w · h`) accepted: `2^32`, a few seconds in a release build.
pub const MAX_WORK: u64 = 1 << 32;

/// Every solution of the board of this size, in increasing order of the enumerated first row (as a number,
/// bit `c` = column `c` of the top row, or row `c` of the left column when transposed).
pub fn solutions(size: Size, control: &Control) -> Result<Vec<Board>, WalkError> {
    let transpose = size.width() > size.height();
    let (w, h) = if transpose { (size.height(), size.width()) } else { (size.width(), size.height()) };
    let too_large =
        WalkError::RowsTooLarge { width: w, max_width: MAX_WIDTH, max_log_work: MAX_WORK.trailing_zeros() };
    if w > MAX_WIDTH || (1u64 << w).saturating_mul(h as u64) > MAX_WORK {
        return Err(too_large);
    }
    let mask = (1u64 << w) - 1;
    let mut found = Vec::new();
    for first in 0..(1u64 << w) {
        if first % 4096 == 0 {
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            control.advance(4096.min(1u64 << w));
        }
        let (mut above, mut cur) = (0u64, first);
        for _ in 0..h {
            // PERF: the whole row at once; `mask` removes the bits shifted past either edge.
            let next = (mask ^ cur ^ (cur << 1) ^ (cur >> 1) ^ above) & mask;
            above = cur;
            cur = next;
        }
        if cur == 0 {
            found.push(complete(first, w, h));
        }
    }
    Ok(found.into_iter().map(|g| if transpose { g.transpose() } else { g }).collect())
}

/// The `h x w` activation grid grown from `first` (a solution's first row).
fn complete(first: u64, w: usize, h: usize) -> Board {
    let mask = (1u64 << w) - 1;
    let mut g = Board::new(Size::new(w, h).expect("the sides of a checked size"));
    let (mut above, mut cur) = (0u64, first);
    for r in 0..h {
        g.row_mut(r)[0] = cur;
        let next = (mask ^ cur ^ (cur << 1) ^ (cur >> 1) ^ above) & mask;
        above = cur;
        cur = next;
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::board_size;
    use crate::walk::press_image;

    #[test]
    fn solutions_check_and_transposed_boards_work() {
        let c = Control::new();
        for (l, w) in [(1, 1), (3, 3), (4, 4), (3, 17), (17, 3), (5, 2)] {
            let b = board_size(l, w).unwrap();
            let all = solutions(b, &c).unwrap();
            assert!(!all.is_empty());
            for g in &all {
                assert_eq!((g.height(), g.width()), (l, w));
                assert_eq!(press_image(g), Board::ones(b), "{l} x {w}");
            }
        }
    }

    #[test]
    fn limits_are_stated() {
        let c = Control::new();
        let err = solutions(board_size(25, 25).unwrap(), &c).unwrap_err().to_string();
        assert!(err.contains("at most 24"), "{err}");
        assert!(solutions(board_size(24, 300).unwrap(), &c).is_err());
    }
}
