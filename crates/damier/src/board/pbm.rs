//! Netpbm bitmaps (PBM): big boards as images any viewer opens.
//!
//! The format: a magic number (`P1` plain, `P4` raw), whitespace, the width, whitespace, the
//! height, then the raster, one row after the other from the top; `1` is black and means a lit
//! (on) cell, `0` white and off. In the header, `#` starts a comment that runs to the end of
//! the line. After the height:
//! - `P1` (plain): the pixels as the characters `0` and `1`, whitespace between them ignored;
//! - `P4` (raw): exactly one whitespace byte, then each row packed 8 pixels to a byte, the
//!   leftmost pixel in the most significant bit, the row padded to a whole byte (the padding
//!   bits are ignored).
//!
//! Reading is strict: one image per file (anything but whitespace after it is an error), the
//! size is checked against [`MAX_CELLS`](super::MAX_CELLS) before any allocation, and every
//! error says at which byte of the input it was found. Reading streams row by row, so a board
//! never needs its file in memory as well.
//!
//! ```
//! use damier::board::{Board, PbmKind};
//!
//! let b = Board::parse("#..\n.##").unwrap();
//! for kind in [PbmKind::Raw, PbmKind::Plain] {
//!     let mut bytes = Vec::new();
//!     b.write_pbm(&mut bytes, kind).unwrap();
//!     assert_eq!(Board::read_pbm(&bytes[..]).unwrap(), b);
//! }
//! assert!(Board::read_pbm(&b"P4\n8 2\n\xff"[..]).is_err()); // one row of two
//! ```

use std::io::{self, BufRead, Write};

use super::{Board, BoardError, check_size};

/// Which of the two PBM encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PbmKind {
    /// `P1`: ASCII `0`/`1` (8 bytes or more per 8 cells; readable, for small boards).
    Plain,
    /// `P4`: 8 cells per byte (for big boards).
    Raw,
}

/// What was wrong with a PBM file.
#[derive(Debug, thiserror::Error)]
pub enum PbmError {
    /// The file does not start with `P1` or `P4`.
    #[error("not a PBM bitmap: it starts with {found:?}, expected P1 (plain) or P4 (raw)")]
    BadMagic {
        /// The first bytes, as text.
        found: String,
    },
    /// A header field that is not a decimal number.
    #[error("byte {offset}: expected the {field} as a decimal number, found {found:?}")]
    BadNumber {
        /// 0-based byte offset of the field.
        offset: u64,
        /// `width` or `height`.
        field: &'static str,
        /// What was there (at most 20 characters).
        found: String,
    },
    /// A size refused by the board (zero, or too many cells).
    #[error("PBM header: {0}")]
    Size(#[from] BoardError),
    /// The allocator refused the board's words (an address-space limit, a machine out of
    /// memory).
    #[error(transparent)]
    OutOfMemory(#[from] crate::util::OutOfMemory),
    /// A plain-PBM pixel that is not `0` or `1`.
    #[error("byte {offset}: {found:?} is not a pixel (plain PBM pixels are 0 and 1)")]
    BadPixel {
        /// 0-based byte offset.
        offset: u64,
        /// The character found.
        found: char,
    },
    /// The raster stops early.
    #[error("the bitmap ends at byte {offset}, in row {} of {height}", .row + 1)]
    Truncated {
        /// 0-based byte offset of the end of the input.
        offset: u64,
        /// The row being read, 0-based (the message counts from 1).
        row: usize,
        /// The height the header announced.
        height: usize,
    },
    /// Something other than whitespace after the image.
    #[error("byte {offset}: unexpected data after the image (one image per file)")]
    TrailingData {
        /// 0-based byte offset.
        offset: u64,
    },
    /// The input could not be read.
    #[error("byte {offset}: cannot read: {source}")]
    Io {
        /// 0-based byte offset where reading failed.
        offset: u64,
        /// The underlying error.
        source: io::Error,
    },
}

/// True when `bytes` (the start of an input) look like a PBM file rather than the text format:
/// a text board cannot start with `P`.
pub fn looks_like_pbm(bytes: &[u8]) -> bool {
    bytes.first() == Some(&b'P')
}

/// Largest piece of a raw row read at once (a multiple of 8 bytes): a row of a very wide board
/// is read piece by piece, so its buffer stays small whatever the header says.
const RAW_CHUNK_BYTES: usize = 1 << 16;

/// A byte reader that counts its position, for error messages.
struct Cursor<R> {
    inner: R,
    offset: u64,
}

impl<R: BufRead> Cursor<R> {
    fn io(&self, source: io::Error) -> PbmError {
        PbmError::Io { offset: self.offset, source }
    }

    fn peek(&mut self) -> Result<Option<u8>, PbmError> {
        loop {
            match self.inner.fill_buf() {
                Ok(buf) => return Ok(buf.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io(e)),
            }
        }
    }

    fn bump(&mut self) {
        self.inner.consume(1);
        self.offset += 1;
    }

    fn next(&mut self) -> Result<Option<u8>, PbmError> {
        let b = self.peek()?;
        if b.is_some() {
            self.bump();
        }
        Ok(b)
    }

    /// Skips whitespace and, when `comments`, `#` comments to the end of their line.
    fn skip_space(&mut self, comments: bool) -> Result<(), PbmError> {
        while let Some(b) = self.peek()? {
            if b.is_ascii_whitespace() {
                self.bump();
            } else if comments && b == b'#' {
                while let Some(c) = self.next()? {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    /// A header number: whitespace and comments, then decimal digits.
    fn number(&mut self, field: &'static str) -> Result<u64, PbmError> {
        self.skip_space(true)?;
        let offset = self.offset;
        let mut text = String::new();
        let mut value: Option<u64> = Some(0);
        while let Some(b) = self.peek()? {
            if !b.is_ascii_digit() {
                break;
            }
            self.bump();
            if text.len() < 20 {
                text.push(char::from(b));
            }
            value = value.and_then(|v| v.checked_mul(10)).and_then(|v| v.checked_add(u64::from(b - b'0')));
        }
        if text.is_empty() {
            let found =
                self.peek()?.map(|b| char::from(b).to_string()).unwrap_or_else(|| "end of file".into());
            return Err(PbmError::BadNumber { offset, field, found });
        }
        // An overflowing number is larger than any board: report it as too large.
        Ok(value.unwrap_or(u64::MAX))
    }

    /// Reads exactly `buf.len()` bytes, or reports how far it got.
    fn read_exact(&mut self, buf: &mut [u8]) -> Result<bool, PbmError> {
        let mut filled = 0;
        while filled < buf.len() {
            let avail = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.io(e)),
            };
            if avail.is_empty() {
                return Ok(false);
            }
            let n = avail.len().min(buf.len() - filled);
            buf[filled..filled + n].copy_from_slice(&avail[..n]);
            self.inner.consume(n);
            self.offset += n as u64;
            filled += n;
        }
        Ok(true)
    }
}

/// Converts `bytes.len()` PBM bytes (leftmost pixel in the high bit) into board words (leftmost
/// cell in the low bit), 8 bytes per word; `words` holds `bytes.len().div_ceil(8)` words.
#[inline]
fn bytes_to_words(bytes: &[u8], words: &mut [u64]) {
    let mut chunks = bytes.chunks_exact(8);
    for (w, c) in words.iter_mut().zip(&mut chunks) {
        // PERF: one load per 8 bytes; reversing all 64 bits then the byte order reverses the
        // bits inside each byte, which turns MSB-first pixels into LSB-first cells.
        *w = u64::from_le_bytes(c.try_into().expect("8 bytes")).reverse_bits().swap_bytes();
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        words[bytes.len() / 8] = u64::from_le_bytes(last).reverse_bits().swap_bytes();
    }
}

/// The inverse of [`bytes_to_words`]: fills `bytes` from the first words.
#[inline]
fn words_to_bytes(words: &[u64], bytes: &mut [u8]) {
    let full = bytes.len() / 8;
    let mut chunks = bytes.chunks_exact_mut(8);
    for (c, &w) in (&mut chunks).zip(words) {
        // PERF: the same per-byte bit reversal as reading, one store per 8 bytes.
        c.copy_from_slice(&w.swap_bytes().reverse_bits().to_le_bytes());
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let n = rest.len();
        let w = words[full];
        rest.copy_from_slice(&w.swap_bytes().reverse_bits().to_le_bytes()[..n]);
    }
}

impl Board {
    /// Reads a PBM bitmap, plain (`P1`) or raw (`P4`); see the module documentation.
    pub fn read_pbm<R: BufRead>(reader: R) -> Result<Board, PbmError> {
        let mut cur = Cursor { inner: reader, offset: 0 };
        let mut magic = [0u8; 2];
        let complete = cur.read_exact(&mut magic)?;
        let kind = match (complete, &magic) {
            (true, b"P1") => PbmKind::Plain,
            (true, b"P4") => PbmKind::Raw,
            _ => {
                let n = if complete { 2 } else { cur.offset as usize };
                return Err(PbmError::BadMagic { found: String::from_utf8_lossy(&magic[..n]).into_owned() });
            }
        };
        let width = cur.number("width")?;
        let height = cur.number("height")?;
        check_size(width, height)?;
        let (w, h) = (width as usize, height as usize);
        let stride = crate::gf2::words_for(w);
        // The board grows as its rows arrive, so a short file announcing a huge size fails
        // with `Truncated` having allocated no more than its own length (times a constant).
        let mut words: Vec<u64> = Vec::new();
        match kind {
            PbmKind::Raw => {
                // Exactly one whitespace byte ends the header.
                match cur.next()? {
                    Some(b) if b.is_ascii_whitespace() => {}
                    Some(b) => {
                        return Err(PbmError::BadPixel { offset: cur.offset - 1, found: char::from(b) });
                    }
                    None => return Err(PbmError::Truncated { offset: cur.offset, row: 0, height: h }),
                }
                let row_bytes = w.div_ceil(8);
                // A whole number of words per chunk, so the chunks of a row fill whole words.
                let mut chunk = vec![0u8; row_bytes.min(RAW_CHUNK_BYTES)];
                for y in 0..h {
                    let mut done = 0;
                    while done < row_bytes {
                        let buf = &mut chunk[..(row_bytes - done).min(RAW_CHUNK_BYTES)];
                        if !cur.read_exact(buf)? {
                            return Err(PbmError::Truncated { offset: cur.offset, row: y, height: h });
                        }
                        let start = words.len();
                        super::text::grow_words(&mut words, buf.len().div_ceil(8), stride * h)?;
                        bytes_to_words(buf, &mut words[start..]);
                        done += buf.len();
                    }
                }
            }
            PbmKind::Plain => {
                for y in 0..h {
                    let mut word = 0u64;
                    for x in 0..w {
                        cur.skip_space(false)?;
                        match cur.next()? {
                            Some(b'1') => word |= 1 << (x % 64),
                            Some(b'0') => {}
                            Some(b) => {
                                return Err(PbmError::BadPixel {
                                    offset: cur.offset - 1,
                                    found: char::from(b),
                                });
                            }
                            None => {
                                return Err(PbmError::Truncated { offset: cur.offset, row: y, height: h });
                            }
                        }
                        if x % 64 == 63 || x + 1 == w {
                            super::text::grow_words(&mut words, 1, stride * h)?;
                            *words.last_mut().expect("a word was just added") = word;
                            word = 0;
                        }
                    }
                }
            }
        }
        debug_assert_eq!(words.len(), stride * h);
        let mut board = Board { width: w, height: h, stride, words };
        board.clear_tails();
        cur.skip_space(false)?;
        if cur.peek()?.is_some() {
            return Err(PbmError::TrailingData { offset: cur.offset });
        }
        Ok(board)
    }

    /// Writes the board as a PBM bitmap (lit cells black), with a comment line naming the tool.
    pub fn write_pbm<W: Write>(&self, mut out: W, kind: PbmKind) -> io::Result<()> {
        let magic = match kind {
            PbmKind::Plain => "P1",
            PbmKind::Raw => "P4",
        };
        write!(out, "{magic}\n# damier board, 1 = lit\n{} {}\n", self.width, self.height)?;
        match kind {
            PbmKind::Raw => {
                let mut row = vec![0u8; self.width.div_ceil(8)];
                for y in 0..self.height {
                    words_to_bytes(self.row(y), &mut row);
                    out.write_all(&row)?;
                }
            }
            PbmKind::Plain => {
                // Lines of at most 70 characters, as the format asks: 35 pixels and spaces.
                let mut line = Vec::with_capacity(72);
                for y in 0..self.height {
                    for x in 0..self.width {
                        if x > 0 && x % 35 == 0 {
                            line.push(b'\n');
                            out.write_all(&line)?;
                            line.clear();
                        } else if x > 0 {
                            line.push(b' ');
                        }
                        line.push(if self.get(x, y) { b'1' } else { b'0' });
                    }
                    line.push(b'\n');
                    out.write_all(&line)?;
                    line.clear();
                }
            }
        }
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::board::Size;

    fn read(bytes: &[u8]) -> Result<Board, PbmError> {
        Board::read_pbm(bytes)
    }

    fn write(b: &Board, kind: PbmKind) -> Vec<u8> {
        let mut v = Vec::new();
        b.write_pbm(&mut v, kind).unwrap();
        v
    }

    /// The slow, obvious raw encoder: pixel by pixel, MSB first.
    fn raw_naive(b: &Board) -> Vec<u8> {
        let mut v = format!("P4\n{} {}\n", b.width(), b.height()).into_bytes();
        for y in 0..b.height() {
            let mut row = vec![0u8; b.width().div_ceil(8)];
            for x in 0..b.width() {
                if b.get(x, y) {
                    row[x / 8] |= 0x80 >> (x % 8);
                }
            }
            v.extend(row);
        }
        v
    }

    #[test]
    fn reads_the_netpbm_example_with_comments() {
        // The letter J, as in the format's documentation, with comments in the header.
        let text = "P1\n# This is an example bitmap of the letter \"J\"\n6 # width\n10\n\
                    0 0 0 0 1 0\n0 0 0 0 1 0\n0 0 0 0 1 0\n0 0 0 0 1 0\n0 0 0 0 1 0\n\
                    0 0 0 0 1 0\n1 0 0 0 1 0\n0 1 1 1 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n";
        let b = read(text.as_bytes()).unwrap();
        assert_eq!((b.width(), b.height()), (6, 10));
        assert_eq!(b.count_ones(), 11);
        assert!(b.get(4, 0) && b.get(0, 6) && !b.get(0, 7) && b.get(3, 7));
        // The same pixels packed: no spaces needed between plain pixels either.
        let packed = "P1 6 10 000010000010000010000010000010000010100010011100000000000000";
        assert_eq!(read(packed.as_bytes()).unwrap(), b);
        let raw = write(&b, PbmKind::Raw);
        assert_eq!(read(&raw).unwrap(), b);
        assert_eq!(raw[raw.len() - 10..], [8, 8, 8, 8, 8, 8, 0x88, 0x70, 0, 0]);
    }

    #[test]
    fn raw_padding_bits_are_ignored() {
        let b = read(b"P4\n3 2\n\xff\xe0").unwrap();
        assert_eq!(b.count_ones(), 6);
        assert_eq!(b.row(0)[0], 0b111);
    }

    #[test]
    fn malformed_files_name_the_byte() {
        assert!(matches!(read(b""), Err(PbmError::BadMagic { found }) if found.is_empty()));
        assert!(matches!(read(b"P2\n1 1\n0"), Err(PbmError::BadMagic { found }) if found == "P2"));
        assert!(matches!(read(b"P1\nx 1\n0"), Err(PbmError::BadNumber { offset: 3, field: "width", .. })));
        assert!(matches!(read(b"P1 2"), Err(PbmError::BadNumber { field: "height", .. })));
        assert!(matches!(read(b"P1 0 3"), Err(PbmError::Size(BoardError::ZeroSize { .. }))));
        assert!(matches!(
            read(b"P4 99999999999999999999999 2\n"),
            Err(PbmError::Size(BoardError::TooLarge { .. }))
        ));
        assert!(matches!(read(b"P4 1000000 1000000\n"), Err(PbmError::Size(BoardError::TooLarge { .. }))));
        assert!(matches!(read(b"P1 2 2\n1 0\n0 2\n"), Err(PbmError::BadPixel { offset: 13, found: '2' })));
        assert!(matches!(
            read(b"P1 2 2\n1 0\n0"),
            Err(PbmError::Truncated { offset: 12, row: 1, height: 2 })
        ));
        assert!(matches!(read(b"P4 9 2\n\x00\x00\x00"), Err(PbmError::Truncated { row: 1, .. })));
        assert!(matches!(read(b"P4 9 2"), Err(PbmError::Truncated { row: 0, .. })));
        assert!(matches!(read(b"P4 8 1x\x00"), Err(PbmError::BadPixel { offset: 6, found: 'x' })));
        assert!(matches!(read(b"P1 1 1 1 1"), Err(PbmError::TrailingData { offset: 9 })));
        assert!(matches!(read(b"P4 8 1\n\x00P4 8 1\n\x00"), Err(PbmError::TrailingData { offset: 8 })));
        // A comment inside the raster of a plain file is not a pixel.
        assert!(matches!(read(b"P1 1 1\n# c\n1"), Err(PbmError::BadPixel { found: '#', .. })));
        let e = read(b"P1 2 2\n1 0\n0 2\n").unwrap_err().to_string();
        assert!(e.contains("byte 13"), "{e}");
    }

    #[test]
    fn big_random_board_round_trips_through_raw() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let b = Board::random(Size::new(1000, 300).unwrap(), &mut rng);
        let raw = write(&b, PbmKind::Raw);
        let naive = raw_naive(&b);
        // Same raster as the pixel-by-pixel encoder (the headers differ by the comment).
        assert_eq!(raw[raw.len() - 125 * 300..], naive[naive.len() - 125 * 300..]);
        assert_eq!(read(&raw).unwrap(), b);
        assert_eq!(read(&naive).unwrap(), b);
    }

    proptest! {
        #[test]
        fn plain_raw_and_text_round_trip(w in 1usize..140, h in 1usize..6, seed: u64) {
            let b = Board::random(Size::new(w, h).unwrap(), &mut Xoshiro256PlusPlus::seed_from_u64(seed));
            let plain = write(&b, PbmKind::Plain);
            prop_assert!(plain.split(|&c| c == b'\n').all(|l| l.len() <= 70));
            prop_assert_eq!(&read(&plain).unwrap(), &b);
            let raw = write(&b, PbmKind::Raw);
            prop_assert_eq!(&read(&raw).unwrap(), &b);
            let (raster, naive) = (w.div_ceil(8) * h, raw_naive(&b));
            prop_assert_eq!(&raw[raw.len() - raster..], &naive[naive.len() - raster..]);
            prop_assert_eq!(&Board::parse(&b.to_string()).unwrap(), &b);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64), prefix in 0usize..3) {
            let mut input = [&b"P1 "[..], b"P4 ", b""][prefix].to_vec();
            input.extend(bytes);
            let _ = read(&input);
        }
    }
}
