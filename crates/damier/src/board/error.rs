//! What can be wrong with a board's size or text, and the largest board (kept apart so that
//! the size and format modules and `Board` import them one way).

/// The largest board: 2^34 cells (2 GiB as bits), so that a start, a target and a press
/// pattern of the largest board fit in memory together.
pub const MAX_CELLS: u64 = 1 << 34;

/// What was wrong with a board description or size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// No row at all.
    #[error("empty board: no rows")]
    Empty,
    /// A character that is not a cell symbol.
    #[error("line {line}, column {column}: unexpected character {found:?} (cells are 0/1, ./# or _/#)")]
    BadChar {
        /// 1-based line number.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// The character found.
        found: char,
    },
    /// A row whose length differs from the first row's.
    #[error("line {line}: {found} cells, but the first row (line {first_line}) has {expected}")]
    Ragged {
        /// 1-based line number of the short or long row.
        line: usize,
        /// Its number of cells.
        found: usize,
        /// Line of the first row.
        first_line: usize,
        /// Cells in the first row.
        expected: usize,
    },
    /// A zero dimension.
    #[error("a board needs at least one row and one column, got {width}x{height}")]
    ZeroSize {
        /// Width asked for.
        width: u64,
        /// Height asked for.
        height: u64,
    },
    /// More cells than [`MAX_CELLS`], each row counted in whole 64-cell words.
    #[error(
        "a {width}x{height} board is too large: at most {max} cells (2 GiB as bits, each row rounded up to \
         64 cells) are supported"
    )]
    TooLarge {
        /// Width asked for.
        width: u64,
        /// Height asked for.
        height: u64,
        /// The limit.
        max: u64,
    },
    /// A board the allocator refused (an address-space limit, a machine out of memory).
    #[error(transparent)]
    OutOfMemory(#[from] crate::util::OutOfMemory),
    /// A size that is not `WxH`.
    #[error("bad board size {0:?}: expected WIDTHxHEIGHT, for example 5x5")]
    BadSize(String),
}
