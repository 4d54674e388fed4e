//! What went wrong in a Lights Out computation (kept apart so that the engines and the
//! module that calls them import it one way).

use crate::board::{BoardError, Size};
use crate::control::Interrupted;

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
        "{size} has nullity {nullity}: its kernel basis, {nullity} boards, would hold more than {max} cells \
         (1 GiB as bits)"
    )]
    KernelTooLarge {
        /// The board's size.
        size: Size,
        /// The nullity.
        nullity: usize,
        /// The limit on `nullity · W · H`.
        max: u64,
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
