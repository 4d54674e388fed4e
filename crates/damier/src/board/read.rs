//! A board read in either format: PBM bitmap or text, within a byte cap.

use std::io::{self, BufRead};

use super::pbm::{self, PbmError};
use super::text::TextReader;
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
        offset: u64,
    },
    /// An input longer than the largest board's file.
    #[error("more than {limit} bytes, the most a board's file takes (the largest board's text)")]
    TooLong {
        /// The limit in bytes ([`MAX_BOARD_BYTES`]).
        limit: u64,
    },
    /// The input could not be read.
    #[error("cannot read: {0}")]
    Io(#[from] io::Error),
}

/// The most bytes [`read_board`] reads, in either format: two bytes per cell (a symbol and a
/// separator) of the largest board, plus 1 MiB for line ends and comments. What it holds is
/// less: the board's bits, at most 2 GiB however long the input.
pub const MAX_BOARD_BYTES: u64 = 2 * MAX_CELLS + (1 << 20);

/// Reads a board as a PBM bitmap (when the input starts with `P`, see [`pbm`]) or in the text
/// format, streaming either way: each row goes into the board's words as it arrives, and the
/// size is checked against [`MAX_CELLS`] before a row is stored, so that what is held is the
/// board's bits, never the text (`/dev/zero` is refused at its first byte). At most
/// [`MAX_BOARD_BYTES`] are read ([`ReadError::TooLong`] beyond).
pub fn read_board<R: BufRead>(reader: R) -> Result<Board, ReadError> {
    let mut reader = reader.take(MAX_BOARD_BYTES + 1);
    let read = if pbm::looks_like_pbm(fill_buf(&mut reader)?) {
        Board::read_pbm(&mut reader).map_err(ReadError::from)
    } else {
        read_text(&mut reader)
    };
    // Whatever the error, the cap is the reason once it is reached.
    if reader.limit() == 0 {
        return Err(ReadError::TooLong { limit: MAX_BOARD_BYTES });
    }
    read
}

/// `fill_buf`, tried again when interrupted by a signal.
fn fill_buf<R: BufRead>(reader: &mut R) -> io::Result<&[u8]> {
    while let Err(e) = reader.fill_buf() {
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    // Filled: this returns the buffer (returning it from the loop would borrow `reader` for
    // the whole loop).
    reader.fill_buf()
}

/// The text format, a buffer at a time.
fn read_text<R: BufRead>(mut reader: R) -> Result<Board, ReadError> {
    let mut text = TextReader::new();
    let mut offset = 0u64;
    loop {
        let chunk = fill_buf(&mut reader)?;
        if chunk.is_empty() {
            return Ok(text.finish()?);
        }
        let n = chunk.len();
        let Some(i) = text.feed(chunk)? else {
            reader.consume(n);
            offset += n as u64;
            continue;
        };
        // Byte `i` is past ASCII: the character there is not a cell symbol, or it is not
        // UTF-8 at all. Its at most 4 bytes tell which.
        let mut bytes: Vec<u8> = chunk[i..].iter().take(4).copied().collect();
        reader.consume(i + bytes.len());
        while bytes.len() < 4 {
            let more = fill_buf(&mut reader)?;
            if more.is_empty() {
                break;
            }
            let k = more.len().min(4 - bytes.len());
            bytes.extend_from_slice(&more[..k]);
            reader.consume(k);
        }
        let valid = match std::str::from_utf8(&bytes) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
        };
        return Err(match valid.chars().next() {
            Some(found) => text.bad_char(found).into(),
            None => ReadError::NotText { offset: offset + i as u64 },
        });
    }
}
