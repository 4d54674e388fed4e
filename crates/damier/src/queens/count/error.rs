//! Why a count could not be made, and the largest n accepted: shared by the counter and its
//! engines (kept out of `mod.rs` so that the engines' imports point one way).

use crate::control::Interrupted;
use crate::cpu::Isa;

/// Largest n accepted: rows are bits of a `u32`-sized mask and counts fit a `u64` well past
/// the largest n anyone can count.
pub const MAX_N: u32 = 32;

/// Why a count could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// n is larger than [`MAX_N`].
    #[error("n = {0} is too large: at most {MAX_N} is supported")]
    TooLarge(u32),
    /// The computation was cancelled.
    ///
    /// Not `transparent`: the [`Interrupted`] must be this error's `source`, so that callers
    /// walking the error chain (the CLI's exit code 130) find it.
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// A total (for instance a sum of shares) that no count of n can have.
    #[error(
        "{total} is not a possible total for n = {n} (the Burnside sum is not a multiple of 8): a share is missing or counted twice?"
    )]
    ImpossibleTotal {
        /// Board size.
        n: u32,
        /// The total given.
        total: u64,
    },
    /// A sum of counts (shares, tasks) larger than a count holds: refused, never wrapped.
    #[error(
        "the counts add up to {total}, more than the largest total a count holds ({max}): a share or task is counted wrong, or n is past q(28)",
        max = crate::util::bound(u64::MAX)
    )]
    TotalTooLarge {
        /// The sum, exact.
        total: u128,
    },
    /// The vector unit asked for is missing on this CPU.
    #[error("{}", crate::cpu::IsaUnavailable(*.0))]
    IsaUnavailable(Isa),
    /// The count needs more memory than it is allowed.
    #[error(transparent)]
    MemoryLimit(#[from] MemoryLimit),
}

/// A count refused for memory: what it needs besides the quarter table, and what it may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "n = {n} needs about {} besides the quarter table, more than the {} allowed",
    crate::util::bytes_text(*need), crate::util::bytes_text(*limit)
)]
pub struct MemoryLimit {
    /// Board size.
    pub n: u32,
    /// Bytes needed (an estimate: the task list and every worker's buffers).
    pub need: u64,
    /// Bytes allowed.
    pub limit: u64,
}
