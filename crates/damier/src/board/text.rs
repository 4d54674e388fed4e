//! The text format read a chunk at a time ([`TextReader`]): each cell goes straight into the
//! board's words, so that reading a board holds its bits and nothing proportional to its text
//! (a row of `bool`s, the whole file). [`Board::parse`] feeds it a string, [`read_board`](super::read_board)
//! a stream.

use super::{Board, BoardError, MAX_CELLS, check_size};
use crate::gf2::words_for;
use crate::util::OutOfMemory;

/// The words of the largest board: the most a [`TextReader`] reserves.
const MAX_WORDS: usize = (MAX_CELLS / 64) as usize;

/// A board being read in the text format (see the module documentation of `board`).
#[derive(Debug)]
pub(super) struct TextReader {
    /// 1-based line of the next byte.
    line: usize,
    /// Characters already seen on this line.
    column: usize,
    /// Cells of the row being read.
    cells: usize,
    /// The first row's cells, once it ended.
    width: Option<usize>,
    /// Line of the first row.
    first_line: usize,
    /// Rows ended.
    height: usize,
    /// Where the row being read starts in `words`.
    row_start: usize,
    /// The rows ended, then the row being read.
    words: Vec<u64>,
    /// The last byte read was `\r`, which ended its line: a `\n` next is the same break.
    after_cr: bool,
}

impl TextReader {
    pub(super) fn new() -> TextReader {
        TextReader {
            line: 1,
            column: 0,
            cells: 0,
            width: None,
            first_line: 0,
            height: 0,
            row_start: 0,
            words: Vec::new(),
            after_cr: false,
        }
    }

    /// Reads `bytes`, the next part of the text. `Ok(Some(i))`: byte `i` is not ASCII, so not
    /// a cell symbol; the caller decodes the character there ([`TextReader::bad_char`]) or
    /// says the text is not UTF-8. Nothing after it was read.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Result<Option<usize>, BoardError> {
        for (i, &b) in bytes.iter().enumerate() {
            // A line ends at `\n`, `\r\n` or a lone `\r` (a lone `\r` was skipped as a space,
            // and a file of `\r` breaks read as one long row).
            let after_cr = std::mem::replace(&mut self.after_cr, b == b'\r');
            match b {
                b'1' | b'#' => self.cell(true)?,
                b'0' | b'.' | b'_' => self.cell(false)?,
                b' ' | b'\t' => {}
                b'\n' if after_cr => continue,
                b'\n' | b'\r' => {
                    self.end_row()?;
                    self.line += 1;
                    self.column = 0;
                    continue;
                }
                _ if b.is_ascii() => return Err(self.bad_char(char::from(b))),
                _ => return Ok(Some(i)),
            }
            self.column += 1;
        }
        Ok(None)
    }

    /// The error for `found`, the character after the ones read on this line.
    pub(super) fn bad_char(&self, found: char) -> BoardError {
        BoardError::BadChar { line: self.line, column: self.column + 1, found }
    }

    /// The board read, once the text has ended.
    pub(super) fn finish(mut self) -> Result<Board, BoardError> {
        self.end_row()?;
        let width = self.width.ok_or(BoardError::Empty)?;
        Ok(Board { width, height: self.height, stride: words_for(width), words: self.words })
    }

    fn cell(&mut self, on: bool) -> Result<(), BoardError> {
        let x = self.cells;
        match self.width {
            // The first row grows a word at a time, within the largest board.
            None if x.is_multiple_of(64) => {
                check_size(x as u64 + 1, 1)?;
                self.grow(1)?;
            }
            None => {}
            Some(width) if x == 0 => {
                // A new row: checked, then made, as a whole.
                check_size(width as u64, self.height as u64 + 1)?;
                self.row_start = self.words.len();
                self.grow(words_for(width))?;
            }
            // Past the first row's width: counted for the error at the row's end, not stored.
            Some(width) if x >= width => {
                self.cells += 1;
                return Ok(());
            }
            Some(_) => {}
        }
        if on {
            self.words[self.row_start + x / 64] |= 1 << (x % 64);
        }
        self.cells += 1;
        Ok(())
    }

    /// Appends `n` zero words, reserving no more than the largest board's words (a vector
    /// that doubles could reserve twice the board); a reservation the allocator refuses is
    /// [`BoardError::OutOfMemory`].
    fn grow(&mut self, n: usize) -> Result<(), BoardError> {
        Ok(grow_words(&mut self.words, n, MAX_WORDS)?)
    }

    fn end_row(&mut self) -> Result<(), BoardError> {
        let cells = std::mem::take(&mut self.cells);
        if cells == 0 {
            // A blank line (or spaces only): skipped.
            return Ok(());
        }
        match self.width {
            None => {
                self.width = Some(cells);
                self.first_line = self.line;
            }
            Some(expected) if expected != cells => {
                return Err(BoardError::Ragged {
                    line: self.line,
                    found: cells,
                    first_line: self.first_line,
                    expected,
                });
            }
            Some(_) => {}
        }
        self.height += 1;
        Ok(())
    }
}

impl Board {
    /// Parses the text format (see the module documentation).
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let mut reader = TextReader::new();
        if let Some(i) = reader.feed(text.as_bytes())? {
            // `i` starts a character of the string: one past ASCII, so no cell symbol.
            let found = text[i..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
            return Err(reader.bad_char(found));
        }
        reader.finish()
    }
}

/// Appends `n` zero words to `words`, its capacity doubling up to `most` words at most (never
/// twice a board), each reservation fallible: the one growth of the board readers.
pub(super) fn grow_words(words: &mut Vec<u64>, n: usize, most: usize) -> Result<(), OutOfMemory> {
    let len = words.len();
    if words.capacity() - len < n {
        let want = (2 * len).min(most).max(len + n);
        words.try_reserve_exact(want - len).map_err(|_| OutOfMemory::refused(8 * (want - len) as u64))?;
    }
    words.resize(len + n, 0);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_read_straight_into_words_across_chunks() {
        let text = "1 0 1\r\n\n#.#\n\t_#_";
        let whole = Board::parse(text).unwrap();
        assert_eq!((whole.width(), whole.height(), whole.count_ones()), (3, 3, 5));
        // Fed a byte at a time: the same board.
        let mut r = TextReader::new();
        for b in text.as_bytes() {
            assert_eq!(r.feed(std::slice::from_ref(b)).unwrap(), None);
        }
        assert_eq!(r.finish().unwrap(), whole);
        // Rows wider than a word, the last without its newline.
        let wide = format!("{}\n{}", "1".repeat(130), "0".repeat(129) + "1");
        let b = Board::parse(&wide).unwrap();
        assert_eq!((b.width(), b.height(), b.count_ones()), (130, 2, 131));
        assert!(b.get(129, 1) && !b.get(128, 1));
    }

    #[test]
    fn a_line_ends_at_a_newline_a_crlf_or_a_lone_cr() {
        let want = Board::parse("101\n010\n101\n").unwrap();
        for text in ["101\r\n010\r\n101\r\n", "101\r010\r101\r", "101\r\n010\r101\n"] {
            assert_eq!(Board::parse(text).unwrap(), want, "{text:?}");
            // Fed a byte at a time (a `\r\n` split between two reads): the same board.
            let mut r = TextReader::new();
            for b in text.as_bytes() {
                assert_eq!(r.feed(std::slice::from_ref(b)).unwrap(), None);
            }
            assert_eq!(r.finish().unwrap(), want, "{text:?}");
        }
        assert_eq!(Board::parse("01\r0é"), Err(BoardError::BadChar { line: 2, column: 2, found: 'é' }));
    }

    #[test]
    fn errors_name_the_line_and_column() {
        assert_eq!(Board::parse("01\n 0é"), Err(BoardError::BadChar { line: 2, column: 3, found: 'é' }));
        assert_eq!(Board::parse("\0"), Err(BoardError::BadChar { line: 1, column: 1, found: '\0' }));
        // A long row is counted to its end, though not stored.
        assert_eq!(
            Board::parse("01\n0101010\n"),
            Err(BoardError::Ragged { line: 2, found: 7, first_line: 1, expected: 2 })
        );
        assert_eq!(
            Board::parse("\n01\n0\n"),
            Err(BoardError::Ragged { line: 3, found: 1, first_line: 2, expected: 2 })
        );
        let mut r = TextReader::new();
        assert_eq!(r.feed("0é".as_bytes()).unwrap(), Some(1));
    }
}
