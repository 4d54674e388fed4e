//! The checkpoint format's marks and the errors of reading it: what the automaton's state
//! needs when it restores itself (kept below `checkpoint.rs`, which reads the state, so that
//! imports point one way).

use crate::automaton::AutomatonError;

/// First bytes of every checkpoint.
pub const MAGIC: &[u8; 8] = b"DMRAUTO\0";
/// The format version written (and the only one read).
pub const VERSION: u32 = 1;
/// Why bytes are not a usable checkpoint.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CheckpointError {
    /// Not a checkpoint of this program (wrong magic).
    #[error("not a damier automaton checkpoint")]
    Foreign,
    /// A version this build does not read.
    #[error("checkpoint format version {0}; this build reads version {VERSION}")]
    Version(u32),
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
