//! The checkpoint format's marks and the errors of reading it: what the automaton's state
//! needs when it restores itself (kept below `checkpoint/mod.rs`, which reads the state, so that
//! imports point one way).

use crate::automaton::AutomatonError;

/// First bytes of every checkpoint.
pub const MAGIC: &[u8; 8] = b"DMRAUTO\0";
/// The format version written. Version 3 (issue 53) adds a byte after the cells: model 3's
/// rule (`RuleName::code`). Version 2 (since 2026-11-28) has version 1's layout and says that
/// a model 3 state was written under model 3's rule of issue 40 (`Rule::model3`, the rule
/// `kept`): still read, as that rule. Version 1 is still read for models 1 and 2, whose rules
/// have not changed.
pub const VERSION: u32 = 3;
/// The oldest format version read (models 1 and 2 only).
pub const OLDEST_VERSION: u32 = 1;
/// Largest step or move count a checkpoint may hold: 2^63. A run resumed from it has 2^63
/// (9.2 x 10^18) more updates before a `u64` counter could wrap, 730 years at the fastest
/// rate measured (model 2, 4 x 10^8 updates a CPU-second; a move takes at least one update,
/// and a model 3 generation of n rows far longer than n updates): the counters' `+=` never
/// wraps, and a file claiming more (forged, or damaged with its checksum redone) is refused
/// instead of wrapping silently.
pub const MAX_COUNTER: u64 = 1 << 63;
/// Why bytes are not a usable checkpoint.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CheckpointError {
    /// Not a checkpoint of this program (wrong magic).
    #[error("not a damier automaton checkpoint")]
    Foreign,
    /// A version this build does not read.
    #[error("checkpoint format version {0}; this build reads versions {OLDEST_VERSION} to {VERSION}")]
    Version(u32),
    /// A model 3 state of format version 1, which does not say which of model 3's rules wrote
    /// it: resumed under today's rule, its run would not be the one its seed gives.
    #[error(
        "checkpoint of model 3 (row) in format version 1, written before 2026-11-28: it does not say which of model 3's rules made it (the rule changed with issue 40), so it cannot resume bit-exactly; start the run again (models 1 and 2 resume)"
    )]
    RuleUnknown,
    /// Shorter or longer than its header says.
    #[error("checkpoint is {got} bytes long; {expected} expected (truncated or damaged)")]
    Length {
        /// Expected length.
        expected: u64,
        /// Actual length.
        got: u64,
    },
    /// The checksum does not match: the bytes were altered.
    #[error("checkpoint checksum mismatch: the file is damaged")]
    Checksum,
    /// The generator's state is all zeros, a state xoshiro256++ never reaches and never
    /// leaves (it would draw only zeros, and a draw that rejects a value would never end).
    #[error(
        "checkpoint holds an impossible generator state: all four words are zero, which no run reaches (xoshiro256++ would draw only zeros from it); the file was altered"
    )]
    ZeroGenerator,
    /// A step or move count above [`MAX_COUNTER`].
    #[error(
        "checkpoint holds {what} = {value}, above the largest this build resumes ({MAX_COUNTER} = 2^63, which leaves the count room to go on without wrapping); the file was altered"
    )]
    Counter {
        /// `steps` or `moves`.
        what: &'static str,
        /// The value it holds.
        value: u64,
    },
    /// More moves than its steps can make (a model 1 or 2 step moves one queen at most, a
    /// model 3 generation one queen a row).
    #[error(
        "checkpoint holds {moves} moves after {steps} steps, more than the {per_step} a step this model can make; the file was altered"
    )]
    Moves {
        /// Moves recorded.
        moves: u64,
        /// Steps recorded.
        steps: u64,
        /// Most moves one step makes.
        per_step: u64,
    },
    /// A field out of range (model code, signal bits, queen total).
    #[error("checkpoint holds an impossible state: {0}")]
    State(String),
    /// Parameters the automaton refuses.
    #[error("checkpoint parameters: {0}")]
    Params(#[from] AutomatonError),
}
