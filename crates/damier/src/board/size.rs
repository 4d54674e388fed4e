//! [`Size`]: the checked dimensions of a board, shared by Lights Out and the pawn walk.

use std::fmt;
use std::str::FromStr;

use super::{BoardError, MAX_CELLS};

/// The dimensions of a board: `width` columns by `height` rows, both at least 1, at most
/// [`MAX_CELLS`] cells, each row counted in whole 64-cell words (as a [`Board`](super::Board)
/// stores it: a `1 x 2^34` board would hold 128 GiB). Checked once, when made, so whatever takes a `Size` allocates its
/// boards without failing.
///
/// Written and parsed as `WxH`, width first (`7x3` is seven columns by three rows; `×` and `*`
/// are accepted for `x`). The pawn walk counts the other way, `L` rows by `C` columns, row
/// first: its `L x C` board is `Size::new(C, L)`, so `L` is the [`height`](Size::height) and
/// `C` the [`width`](Size::width) ([`crate::walk::board_size`] makes that mapping in one place).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Size {
    // Set only by the checks below, or from a board's own (checked) dimensions.
    pub(super) width: usize,
    pub(super) height: usize,
}

impl Size {
    /// The size `width x height`, or why not: a zero side ([`BoardError::ZeroSize`]) or more
    /// than [`MAX_CELLS`] cells, each row rounded up to a multiple of 64 ([`BoardError::TooLarge`]).
    pub fn new(width: usize, height: usize) -> Result<Size, BoardError> {
        check_size(width as u64, height as u64)?;
        Ok(Size { width, height })
    }

    /// Cells per row (columns).
    #[inline]
    pub fn width(self) -> usize {
        self.width
    }

    /// Rows.
    #[inline]
    pub fn height(self) -> usize {
        self.height
    }

    /// `width * height` (at most [`MAX_CELLS`], so it never overflows).
    #[inline]
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// Width and height swapped: the size of the transposed board. Unchecked: a board stores
    /// each row in whole words, so the transpose of a wide, short board can be far larger than
    /// the board (`10^9 x 2` holds 250 MB, `2 x 10^9` 16 GB); what allocates one checks it
    /// with [`Size::checked_transposed`].
    #[inline]
    pub fn transposed(self) -> Size {
        Size { width: self.height, height: self.width }
    }

    /// [`Size::transposed`], checked against [`MAX_CELLS`] as every size is.
    pub fn checked_transposed(self) -> Result<Size, BoardError> {
        Size::new(self.height, self.width)
    }

    /// The bytes a board of this size holds: `height` rows of `ceil(width / 64)` words.
    #[inline]
    pub fn bytes(self) -> u64 {
        // At most MAX_CELLS / 8: no overflow.
        8 * self.width.div_ceil(64) as u64 * self.height as u64
    }
}

/// Checks a size given as two `u64` (a PBM header, a text board being read) against the
/// limits, before anything is allocated.
pub(crate) fn check_size(width: u64, height: u64) -> Result<(), BoardError> {
    if width == 0 || height == 0 {
        return Err(BoardError::ZeroSize { width, height });
    }
    // Each row is stored in whole 64-bit words: a 1-wide board holds 64 bits a cell.
    match width
        .checked_mul(height)
        .zip(width.div_ceil(64).checked_mul(64).and_then(|w| w.checked_mul(height)))
    {
        Some((cells, bits)) if cells <= MAX_CELLS && bits <= MAX_CELLS => Ok(()),
        _ => Err(BoardError::TooLarge { width, height, max: MAX_CELLS }),
    }
}

impl fmt::Display for Size {
    /// `WxH`, the form [`FromStr`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Size {
    type Err = BoardError;

    /// Parses `WxH` (also `W×H` or `W*H`, spaces around the numbers allowed) and checks it
    /// against the limits: [`BoardError::BadSize`] when it is not two numbers, else as
    /// [`Size::new`].
    fn from_str(s: &str) -> Result<Size, BoardError> {
        let bad = || BoardError::BadSize(s.to_string());
        let (w, h) = s.trim().split_once(['x', 'X', '×', '*']).ok_or_else(bad)?;
        let w: u64 = w.trim().parse().map_err(|_| bad())?;
        let h: u64 = h.trim().parse().map_err(|_| bad())?;
        check_size(w, h)?;
        // Both fit in usize: their product does, at most MAX_CELLS.
        Ok(Size { width: w as usize, height: h as usize })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Every valid size prints as `WxH` and parses back to itself; any other text is an
        /// error, never a panic, and a parsed size is always within the limits.
        #[test]
        fn sizes_round_trip_and_any_text_is_safe(w in 1usize..=1 << 17, h in 1usize..=1 << 17, text in ".{0,24}") {
            let s = Size::new(w, h).unwrap();
            prop_assert_eq!(s.to_string().parse::<Size>(), Ok(s));
            if let Ok(t) = text.parse::<Size>() {
                prop_assert!(t.width() >= 1 && t.height() >= 1 && t.cells() as u64 <= MAX_CELLS);
            }
        }
    }

    #[test]
    fn sizes_parse_print_and_are_checked_before_allocating() {
        let s: Size = "5x4".parse().unwrap();
        assert_eq!((s.width(), s.height(), s.cells()), (5, 4, 20));
        assert_eq!(s.to_string(), "5x4");
        assert_eq!(s.transposed(), Size::new(4, 5).unwrap());
        assert_eq!(" 7 × 3 ".parse::<Size>(), Size::new(7, 3));
        assert_eq!("7*3".parse::<Size>(), Size::new(7, 3));
        for text in ["1x1", "4096x4096", "131072x131072"] {
            assert_eq!(text.parse::<Size>().unwrap().to_string(), text);
        }
        assert!(matches!("0x4".parse::<Size>(), Err(BoardError::ZeroSize { width: 0, height: 4 })));
        assert!(matches!(Size::new(3, 0), Err(BoardError::ZeroSize { .. })));
        assert!(matches!("1000000x1000000".parse::<Size>(), Err(BoardError::TooLarge { .. })));
        assert!(matches!("18446744073709551615x3".parse::<Size>(), Err(BoardError::TooLarge { .. })));
        assert!(matches!(Size::new(usize::MAX, 2), Err(BoardError::TooLarge { .. })));
        // Rows are whole words: 2^28 one-cell rows hold 2^34 bits, one more row is too many.
        assert!(Size::new(1, 1 << 28).is_ok() && Size::new(64, 1 << 28).is_ok());
        assert!(matches!(Size::new(1, (1 << 28) + 1), Err(BoardError::TooLarge { .. })));
        assert!(matches!("65x268435456".parse::<Size>(), Err(BoardError::TooLarge { .. })));
        for bad in ["5by4", "5x", "x5", "", "-1x3", "5x4x3", "ax4"] {
            assert_eq!(bad.parse::<Size>(), Err(BoardError::BadSize(bad.to_string())), "{bad:?}");
        }
    }
}
