//! A board read in either format: PBM bitmap or text.

use std::io::{self, BufRead, Read};

use super::pbm::{self, PbmError};
use super::{Board, BoardError, MAX_CELLS};

/// What went wrong reading a board in either format ([`read_board`]).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A malformed text board.
    #[error(transparent)]
    Text(#[from] BoardError),
    /// A malformed PBM bitmap.
    #[error(transparent)]
    Pbm(#[from] PbmError),
    /// A text board that is not UTF-8.
    #[error("byte {offset}: not UTF-8 text (a text board is rows of 0/1, ./# or _/#)")]
    NotText {
        /// 0-based offset of the first invalid byte.
        offset: usize,
    },
    /// A text board longer than the largest board's text.
    #[error("the text is longer than the largest board's ({limit} bytes)")]
    TooLong {
        /// The limit in bytes.
        limit: u64,
    },
    /// The input could not be read.
    #[error("cannot read: {0}")]
    Io(#[from] io::Error),
}

/// The longest text [`read_board`] accepts: two bytes per cell (a symbol and a separator) of
/// the largest board, plus slack for line ends.
pub const MAX_TEXT_BYTES: u64 = 2 * MAX_CELLS + (1 << 20);

/// Reads a board as a PBM bitmap (when the input starts with `P`, see [`pbm`]) or in the text
/// format. A PBM board streams row by row; a text board is read whole, up to
/// [`MAX_TEXT_BYTES`].
pub fn read_board<R: BufRead>(mut reader: R) -> Result<Board, ReadError> {
    if pbm::looks_like_pbm(reader.fill_buf()?) {
        return Ok(Board::read_pbm(reader)?);
    }
    let mut bytes = Vec::new();
    reader.take(MAX_TEXT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(ReadError::TooLong { limit: MAX_TEXT_BYTES });
    }
    let text =
        String::from_utf8(bytes).map_err(|e| ReadError::NotText { offset: e.utf8_error().valid_up_to() })?;
    Ok(Board::parse(&text)?)
}
