//! The walk's errors, shared by its solvers (kept out of `mod.rs` so that the solvers'
//! imports point one way: they use this file, `mod.rs` uses them).

use crate::control::Interrupted;
use crate::lights::LightsError;

/// Errors of the walk.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    /// A side of 0.
    #[error("board sizes must be at least 1 (got {rows} x {cols})")]
    EmptyBoard {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// More cells than [`MAX_CELLS`](super::MAX_CELLS).
    #[error("board {rows} x {cols} is too large: at most {max} cells are supported here")]
    TooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// The limit ([`MAX_CELLS`](super::MAX_CELLS), or the one given to [`board_size_with_limit`](super::board_size_with_limit)).
        max: usize,
    },
    /// Brute force beyond [`brute::MAX_CELLS`](super::brute::MAX_CELLS).
    #[error("brute force tries all 2^(rows*cols) sets: at most {max} cells, this board has {cells}")]
    BruteTooLarge {
        /// Cells of the board.
        cells: usize,
        /// The limit.
        max: usize,
    },
    /// First-row enumeration beyond its limits.
    #[error(
        "first-row enumeration tries 2^w first rows (w = the narrower side, here {width}, at most {max_width}) \
         of h rows each (2^w * h at most 2^{max_log_work}); use --method fast"
    )]
    RowsTooLarge {
        /// The narrower side.
        width: usize,
        /// [`rows::MAX_WIDTH`](super::rows::MAX_WIDTH).
        max_width: usize,
        /// log2 of [`rows::MAX_WORK`](super::rows::MAX_WORK).
        max_log_work: u32,
    },
    /// A letter that is not a move.
    #[error("illegal move {letter:?} at position {position}: moves are N, S, E, W (O for west)")]
    BadMove {
        /// The offending character.
        letter: char,
        /// 1-based position in the string.
        position: usize,
    },
    /// A grid whose size does not match the board's.
    #[error("grid is {got_rows} x {got_cols}, the board is {rows} x {cols}")]
    SizeMismatch {
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
        /// The grid's rows.
        got_rows: usize,
        /// The grid's columns.
        got_cols: usize,
    },
    /// A picture that does not parse.
    #[error("picture line {line}: {reason}")]
    BadPicture {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// No walk realises the requested activation set (only the 1 x 1 board with the empty set).
    #[error("no walk lands on exactly these cells an odd number of times on the {rows} x {cols} board")]
    NoWalk {
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
    },
    /// A board state from which all black cannot be reached.
    #[error("this board state cannot be turned all black")]
    Unsolvable,
    /// A move that leaves the board.
    /// Shown as people count cells: from 1, rows from the top, columns from the left.
    #[error("move {mv} from row {}, column {} leaves the board", .row + 1, .col + 1)]
    OffBoard {
        /// The move letter.
        mv: char,
        /// Pawn row (0 = top).
        row: usize,
        /// Pawn column (0 = left).
        col: usize,
    },
    /// A pawn position outside the board.
    #[error("pawn position ({row}, {col}) is outside the board")]
    PawnOutside {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
    /// A path built for a solution that does not replay to all black (a bug; never expected).
    #[error("internal error: the path built for this {rows} x {cols} solution does not replay to all black")]
    PathUnverified {
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
    },
    /// Stopped through [`Control::cancel`](crate::control::Control::cancel).
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// An error of the Lights Out engine the fast solver runs on.
    #[error(transparent)]
    Lights(#[from] LightsError),
    /// The allocator refused the path or a board ([`super::path::path_bytes`] is what it
    /// holds).
    #[error(
        "the path of the {rows} x {cols} board holds {} (at most 2·L·C + L + 3·C moves, a byte each, and three \
         boards): {source}",
        crate::util::bytes_text(*need)
    )]
    OutOfMemory {
        /// The board's rows.
        rows: usize,
        /// The board's columns.
        cols: usize,
        /// Bytes held at once.
        need: u64,
        /// What was refused.
        source: crate::util::OutOfMemory,
    },
}

impl WalkError {
    /// The walk's view of a Lights Out error (interruptions stay interruptions).
    pub(crate) fn from_lights(e: LightsError) -> WalkError {
        match e {
            LightsError::Interrupted(i) => WalkError::Interrupted(i),
            other => WalkError::Lights(other),
        }
    }
}
