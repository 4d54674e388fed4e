//! The checkpoint format's marks and the errors of reading it: what the automaton's state
//! needs when it restores itself (kept below `checkpoint.rs`, which reads the state, so that
//! imports point one way).

use crate::automaton::AutomatonError;

/// First bytes of every checkpoint.
pub const MAGIC: &[u8; 8] = b"DMRAUTO\0";
/// The format version written. Version 2 (since 2026-11-28) has version 1's layout and says
/// that a model 3 state was written under model 3's rule of issue 40 (`Rule::model3`);
/// version 1 is still read for models 1 and 2, whose rules have not changed.
pub const VERSION: u32 = 2;
/// The oldest format version read (models 1 and 2 only).
pub const OLDEST_VERSION: u32 = 1;
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
    /// A field out of range (model code, signal bits, queen total).
    #[error("checkpoint holds an impossible state: {0}")]
    State(String),
    /// Parameters the automaton refuses.
    #[error("checkpoint parameters: {0}")]
    Params(#[from] AutomatonError),
}
