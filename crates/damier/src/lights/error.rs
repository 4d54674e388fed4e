//! What went wrong in a Lights Out computation (kept apart so that the engines and the
//! module that calls them import it one way).

use crate::board::{BoardError, MAX_CELLS, Size};
use crate::control::Interrupted;
use crate::util::{OutOfMemory, bytes_text};

use super::method::Method;

/// What went wrong in a Lights Out computation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LightsError {
    /// A bad board or size.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// Start and target of different sizes.
    #[error("the target is {target} but the start is {start}")]
    SizeMismatch {
        /// The start's size.
        start: Size,
        /// The target's size.
        target: Size,
    },
    /// The board is too large for the chosen engine (the poly engine takes any board).
    #[error("{engine} handles at most {limit} {unit}, this board has {got}: use the poly engine")]
    TooLarge {
        /// The engine or table that refused.
        engine: &'static str,
        /// What is counted: `cells` or `columns`.
        unit: &'static str,
        /// The limit.
        limit: usize,
        /// The board's count.
        got: usize,
    },
    /// Listing every solution was asked for, but there are too many: more than `2^max`, or
    /// more than `max_cells` cells in all (refused before anything is enumerated).
    #[error(
        "{count} solutions of {cells} cells (nullity {nullity}) are too many to list: at most 2^{max} \
         solutions and {max_cells} cells in all"
    )]
    TooManySolutions {
        /// The nullity.
        nullity: usize,
        /// `2^nullity` in decimal.
        count: String,
        /// Cells of one solution.
        cells: usize,
        /// The limit on the nullity.
        max: usize,
        /// The limit on the cells of all solutions together.
        max_cells: u64,
    },
    /// The kernel basis was needed, but it would hold too many cells (refused before it is
    /// computed).
    #[error(
        "{size} has nullity {nullity}: its kernel basis, {nullity} boards, would hold {} (each row in whole \
         64-cell words, with the board it is chased on and the transposes of a wide board): at most {}",
        bytes_text(*bytes),
        bytes_text(*max / 8)
    )]
    KernelTooLarge {
        /// The board's size.
        size: Size,
        /// The nullity.
        nullity: usize,
        /// What the basis would hold, in bytes ([`super::kernel_bits`] / 8).
        bytes: u64,
        /// The limit on [`super::kernel_bits`].
        max: u64,
    },
    /// A wide board is solved on its transpose (along the long side), and that transpose passes
    /// the largest board: each of its rows is stored in whole 64-cell words.
    #[error(
        "{size} is solved on its transpose, {}, which would hold {} (each of its {} rows in whole 64-cell \
         words): at most {} a board",
        size.transposed(),
        bytes_text(size.transposed().bytes()),
        size.width(),
        bytes_text(MAX_CELLS / 8)
    )]
    TransposeTooLarge {
        /// The board's size.
        size: Size,
    },
    /// The allocator refused a board (an address-space limit, a machine out of memory): what
    /// the computation holds in all, and what was refused.
    #[error("{what} a {size} board holds {} of boards at once: {source}", bytes_text(*need))]
    OutOfMemory {
        /// What was being done (`solving`, `the kernel of`).
        what: &'static str,
        /// The board's size.
        size: Size,
        /// The bytes it holds at once ([`super::solve_bytes`], [`super::kernel_bits`]).
        need: u64,
        /// The allocation refused.
        source: OutOfMemory,
    },
    /// The elimination step by step was asked for a board too large to show it.
    #[error("--explain shows the {cells} x {cells} matrix at each step: boards up to {max} cells only")]
    ExplainTooLarge {
        /// The board's cells.
        cells: usize,
        /// The most cells explained ([`super::dense::EXPLAIN_MAX_CELLS`]).
        max: usize,
    },
    /// Stopped through the control.
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// The orthogonality test and the solve disagree on whether a board is winnable (a bug;
    /// never expected).
    #[error("internal error: the two winnability tests disagree")]
    WinnabilityDisagrees,
    /// An engine returned a press pattern that does not check (a bug; never expected).
    #[error("internal error: the {0:?} engine returned a press pattern that does not verify")]
    Unverified(Method),
}
