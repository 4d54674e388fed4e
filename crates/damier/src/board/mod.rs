//! Bit boards: a `width x height` grid of on/off cells, one bit per cell, and their text format.
//!
//! Rows are stored one after the other, each packed into [`Board::stride`] `u64` words (cell
//! `(x, y)` at bit `x % 64` of word `y * stride + x / 64`; the unused high bits of a row's last
//! word stay 0), so a whole row is a word slice that row-at-a-time algorithms (light chasing,
//! press verification, the pawn walk) XOR and shift directly.
//!
//! Text format ([`Board::parse`]): one line per row, top row first; a cell is `1` or `#` (on)
//! and `0`, `.` or `_` (off); spaces and tabs between cells are ignored, blank lines are skipped;
//! a line ends at `\n`, `\r\n` or a lone `\r`.
//! Big boards go in and out as PBM bitmaps ([`pbm`]); [`read_board`] takes either format.
//!
//! ```
//! use damier::board::{Board, Size};
//!
//! let b = Board::parse("#.#\n.#.").unwrap();
//! assert_eq!((b.width(), b.height(), b.count_ones()), (3, 2, 3));
//! assert!(b.get(0, 0) && !b.get(1, 0) && b.get(1, 1));
//! assert_eq!(b.size(), Size::new(3, 2).unwrap());
//! assert!(Board::parse("#.\n#").is_err()); // a short row
//! ```

use std::fmt;

use rand::Rng;

use crate::gf2::{BitVec, words_for};
use crate::util::{OutOfMemory, try_filled, try_with_capacity};

mod error;
pub mod pbm;
mod read;
mod size;
mod text;

pub use error::{BoardError, MAX_CELLS};
pub use pbm::{PbmError, PbmKind};
pub use read::{MAX_BOARD_BYTES, ReadError, read_board};
pub use size::Size;
pub(crate) use size::check_size;

/// A `width x height` board of on/off cells.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    words: Vec<u64>,
}

impl Board {
    /// The all-off board of this size (checked when the size was made, so this cannot fail).
    pub fn new(size: Size) -> Board {
        let (width, height) = (size.width(), size.height());
        let stride = words_for(width);
        Board { width, height, stride, words: vec![0; stride * height] }
    }

    /// [`Board::new`], or [`OutOfMemory`] when the allocator refuses its [`Size::bytes`]: for
    /// the boards of a request, which may be as large as [`MAX_CELLS`] bits.
    pub fn try_new(size: Size) -> Result<Board, OutOfMemory> {
        let (width, height) = (size.width(), size.height());
        let stride = words_for(width);
        Ok(Board { width, height, stride, words: try_filled(0, stride * height)? })
    }

    /// The all-on board.
    pub fn ones(size: Size) -> Board {
        let mut b = Board::new(size);
        b.fill_ones();
        b
    }

    /// [`Board::ones`], or [`OutOfMemory`].
    pub fn try_ones(size: Size) -> Result<Board, OutOfMemory> {
        let mut b = Board::try_new(size)?;
        b.fill_ones();
        Ok(b)
    }

    fn fill_ones(&mut self) {
        self.words.fill(!0);
        self.clear_tails();
    }

    /// A copy ([`Clone`]), or [`OutOfMemory`].
    pub fn try_clone(&self) -> Result<Board, OutOfMemory> {
        let mut words = try_with_capacity(self.words.len())?;
        words.extend_from_slice(&self.words);
        Ok(Board { words, ..*self })
    }

    /// A uniformly random board.
    pub fn random<R: Rng + ?Sized>(size: Size, rng: &mut R) -> Board {
        let mut b = Board::new(size);
        b.fill_random(rng);
        b
    }

    /// [`Board::random`], or [`OutOfMemory`].
    pub fn try_random<R: Rng + ?Sized>(size: Size, rng: &mut R) -> Result<Board, OutOfMemory> {
        let mut b = Board::try_new(size)?;
        b.fill_random(rng);
        Ok(b)
    }

    fn fill_random<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        for w in self.words.iter_mut() {
            *w = rng.next_u64();
        }
        self.clear_tails();
    }

    /// A board from a vector of `width * height` cells, row by row (cell `(x, y)` at `y * width + x`).
    pub fn from_bitvec(size: Size, v: &BitVec) -> Board {
        assert_eq!(v.len(), size.cells(), "vector length is not width * height");
        let mut b = Board::new(size);
        for i in v.ones_indices() {
            b.set(i % size.width(), i / size.width(), true);
        }
        b
    }

    /// The cells as one vector, row by row (cell `(x, y)` at `y * width + x`).
    pub fn to_bitvec(&self) -> BitVec {
        let mut v = BitVec::zeros(self.width * self.height);
        for y in 0..self.height {
            for x in self.row_ones(y) {
                v.set(y * self.width + x, true);
            }
        }
        v
    }

    /// Width and height.
    #[inline]
    pub fn size(&self) -> Size {
        // The fields were checked when the board was made.
        Size { width: self.width, height: self.height }
    }

    /// Width (cells per row).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height (rows).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Words per row.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Cell `(x, y)`, `x` the column, `y` the row (0 = top). Panics out of range.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        assert!(x < self.width && y < self.height, "cell ({x}, {y}) outside the board");
        (self.words[y * self.stride + x / 64] >> (x % 64)) & 1 == 1
    }

    /// Sets cell `(x, y)`.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, on: bool) {
        assert!(x < self.width && y < self.height, "cell ({x}, {y}) outside the board");
        let w = &mut self.words[y * self.stride + x / 64];
        if on {
            *w |= 1 << (x % 64);
        } else {
            *w &= !(1 << (x % 64));
        }
    }

    /// Flips cell `(x, y)`.
    #[inline]
    pub fn flip(&mut self, x: usize, y: usize) {
        assert!(x < self.width && y < self.height, "cell ({x}, {y}) outside the board");
        self.words[y * self.stride + x / 64] ^= 1 << (x % 64);
    }

    /// Row `y` as packed words.
    #[inline]
    pub fn row(&self, y: usize) -> &[u64] {
        &self.words[y * self.stride..(y + 1) * self.stride]
    }

    /// Row `y` as packed words, mutable (keep the bits past the width 0).
    #[inline]
    pub fn row_mut(&mut self, y: usize) -> &mut [u64] {
        &mut self.words[y * self.stride..(y + 1) * self.stride]
    }

    /// All words, row after row.
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// All words, row after row, mutable (keep the bits past the width 0).
    #[inline]
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// Columns of the lit cells of row `y`, increasing.
    pub fn row_ones(&self, y: usize) -> impl Iterator<Item = usize> + '_ {
        crate::gf2::ones_in(self.row(y))
    }

    /// Number of lit cells.
    pub fn count_ones(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// True when every cell is off.
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// `self += other` cell by cell (XOR). Panics if the sizes differ.
    pub fn xor_assign(&mut self, other: &Board) {
        assert_eq!((self.width, self.height), (other.width, other.height), "board sizes differ");
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a ^= b;
        }
    }

    /// The number of cells lit on both boards, mod 2 (the GF(2) dot product).
    pub fn dot(&self, other: &Board) -> bool {
        assert_eq!((self.width, self.height), (other.width, other.height), "board sizes differ");
        let ones: u64 =
            self.words.iter().zip(&other.words).map(|(a, b)| u64::from((a & b).count_ones())).sum();
        ones % 2 == 1
    }

    /// The transpose: cell `(x, y)` goes to `(y, x)`. Panics when the transposed size passes
    /// [`MAX_CELLS`] (a board of width 1 holds 64 bits a cell): boards of a request go
    /// through [`Board::try_transpose`].
    pub fn transpose(&self) -> Board {
        self.try_transpose().expect("the transposed board fits")
    }

    /// The transpose, or why not: its size checked ([`Size::checked_transposed`]) and its
    /// words allocated without aborting ([`BoardError::OutOfMemory`]).
    pub fn try_transpose(&self) -> Result<Board, BoardError> {
        let mut t = Board::try_new(self.size().checked_transposed()?)?;
        for y in 0..self.height {
            for x in self.row_ones(y) {
                t.words[x * t.stride + y / 64] |= 1 << (y % 64);
            }
        }
        Ok(t)
    }

    /// The rows as strings of `on`/`off` characters.
    pub fn to_rows(&self, on: char, off: char) -> Vec<String> {
        (0..self.height)
            .map(|y| (0..self.width).map(|x| if self.get(x, y) { on } else { off }).collect())
            .collect()
    }

    /// Zeroes the bits past the width in every row.
    pub fn clear_tails(&mut self) {
        let r = self.width % 64;
        if r == 0 {
            return;
        }
        let mask = (1u64 << r) - 1;
        for row in self.words.chunks_mut(self.stride) {
            if let Some(last) = row.last_mut() {
                *last &= mask;
            }
        }
    }
}

impl crate::gf2::XorVector for Board {
    fn xor_with(&mut self, other: &Board) {
        self.xor_assign(other);
    }

    fn weight(&self) -> u64 {
        self.count_ones()
    }

    fn as_words(&self) -> &[u64] {
        self.words()
    }
}

impl std::str::FromStr for Board {
    type Err = BoardError;

    /// Parses the text format, as [`Board::parse`].
    fn from_str(text: &str) -> Result<Board, BoardError> {
        Board::parse(text)
    }
}

impl fmt::Display for Board {
    /// Rows of `0`/`1`, one per line (the text format).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.to_rows('1', '0') {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.width, self.height)?;
        for row in self.to_rows('#', '.') {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transpose_is_checked_and_counted_in_whole_words() {
        let wide = Size::new(1_000_000_000, 2).unwrap();
        assert_eq!(wide.bytes(), 2 * 15_625_000 * 8);
        // Each of the transpose's 10^9 rows takes a word: 8 GB, past the largest board.
        assert_eq!(wide.transposed().bytes(), 8_000_000_000);
        assert!(matches!(wide.checked_transposed(), Err(BoardError::TooLarge { .. })));
        let b = Board::parse("10\n01\n11").unwrap();
        let t = b.try_transpose().unwrap();
        assert_eq!(t, b.transpose());
        assert_eq!(t.to_rows('1', '0'), ["101", "011"]);
        assert_eq!(b.try_clone().unwrap(), b);
        assert_eq!(Board::try_ones(b.size()).unwrap(), Board::ones(b.size()));
    }

    #[test]
    fn parse_formats_and_round_trip() {
        let b = Board::parse("#.#\n_#_\n\n1 0 1\n").unwrap();
        assert_eq!((b.width(), b.height()), (3, 3));
        assert!(b.get(0, 0) && !b.get(1, 0) && b.get(1, 1) && b.get(2, 2));
        assert_eq!(Board::parse(&b.to_string()).unwrap(), b);
        assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
        assert_eq!(b.transpose().transpose(), b);
        assert_eq!(b.count_ones(), 5);
    }

    #[test]
    fn parse_errors_name_line_and_column() {
        assert_eq!(Board::parse(""), Err(BoardError::Empty));
        assert_eq!(Board::parse("\n  \n"), Err(BoardError::Empty));
        assert_eq!(Board::parse("01\n0x\n"), Err(BoardError::BadChar { line: 2, column: 2, found: 'x' }));
        assert_eq!(
            Board::parse("01\n\n011\n"),
            Err(BoardError::Ragged { line: 3, found: 3, first_line: 1, expected: 2 })
        );
    }

    #[test]
    fn read_board_takes_text_or_pbm() {
        let b = Board::parse("10\n01\n11\n").unwrap();
        assert_eq!(read_board(&b"10\n01\n11\n"[..]).unwrap(), b);
        assert_eq!(read_board(&b"P1 2 3 1 0 0 1 1 1"[..]).unwrap(), b);
        let mut raw = Vec::new();
        b.write_pbm(&mut raw, PbmKind::Raw).unwrap();
        assert_eq!(read_board(&raw[..]).unwrap(), b);
        assert!(matches!(read_board(&b"10\n\xff1\n"[..]), Err(ReadError::NotText { offset: 3 })));
        assert!(matches!(read_board(&b"P1 2 3 1"[..]), Err(ReadError::Pbm(PbmError::Truncated { .. }))));
        assert!(matches!(read_board(&b""[..]), Err(ReadError::Text(BoardError::Empty))));
    }

    #[test]
    fn read_board_streams_and_stops_at_the_first_bad_byte() {
        use std::io::BufReader;
        // An endless input (`/dev/zero`) is refused at its first byte; it was once read whole.
        let zeros = BufReader::new(std::io::repeat(0));
        let bad = BoardError::BadChar { line: 1, column: 1, found: '\0' };
        assert!(matches!(read_board(zeros), Err(ReadError::Text(e)) if e == bad));
        // Buffers of one byte: the same board, and a character cut between two buffers.
        let b = read_board(BufReader::with_capacity(1, &b"10\n01\n11\n"[..])).unwrap();
        assert_eq!(b, Board::parse("10\n01\n11").unwrap());
        let cut = read_board(BufReader::with_capacity(1, "01\n0\u{e9}".as_bytes()));
        let bad = BoardError::BadChar { line: 2, column: 2, found: '\u{e9}' };
        assert!(matches!(cut, Err(ReadError::Text(e)) if e == bad));
        let cut = read_board(BufReader::with_capacity(1, &b"01\n0\xc3"[..]));
        assert!(matches!(cut, Err(ReadError::NotText { offset: 4 })));
    }

    #[test]
    fn wide_rows_keep_tails_clear() {
        let b = Board::ones(Size::new(70, 2).unwrap());
        assert_eq!(b.count_ones(), 140);
        assert_eq!(b.row(1)[1], (1 << 6) - 1);
        let v = b.to_bitvec();
        assert_eq!(Board::from_bitvec(Size::new(70, 2).unwrap(), &v), b);
    }
}
