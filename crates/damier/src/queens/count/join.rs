//! The quarters engine's matching step, handed to another device: the stored keys of one batch
//! of a task, grouped and packed, their blocks listed, and the queries grouped against them
//! ([`Sealed`]), as [`super::tasks::count_tasks_with_matching`] gives them to a caller that
//! slices the blocks and counts the matches itself (damier-gpu's join kernel, docs/gpu.md).
//! Assembling the halves and grouping and packing both sides stay in the library, on the
//! CPU; the device bit-slices the blocks (8 bytes a stored key to send, not the 28 to 44 of
//! its rows). With
//! [`super::tasks::count_tasks_sealing_ahead`] the caller answers each batch with a
//! [`Pending`] count instead, taken later, so that the worker seals on meanwhile.
//!
//! The layout the device makes ([`Sealed::rows`] makes it on the CPU): for each block of at
//! most [`BLOCK`] stored keys and each [`CHUNK`]-bit chunk `c` of a (packed) key, 32 rows of
//! 512 bits; row `c * 32 + v` of a block marks the block's keys that
//! hold none of the bits of `v` in chunk `c`. A query with chunk values `v_c` matches the keys
//! marked in every row `c * 32 + v_c`: the AND of its chunks' rows, counted by popcount. Keys
//! of a group too few for a block (its *tail*) are tested one by one (`key & query == 0`).
//! Each match counts `2^(shift + e)`, `e` the query's weight exponent (its bits from
//! [`WEIGHT_AT`]).
//!
//! ```
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use damier::control::Control;
//! use damier::cpu::Isa;
//! use damier::queens::count::tasks::{TaskError, TaskList, count_tasks_with_matching};
//!
//! // q(10) with every batch's matching done by the plain reference, as a device would do it.
//! let list = TaskList::new(10).unwrap();
//! let all: Vec<u32> = (0..list.len()).collect();
//! let total = AtomicU64::new(0);
//! count_tasks_with_matching::<TaskError>(
//!     &list,
//!     Isa::Portable,
//!     None,
//!     &all,
//!     &Control::new(),
//!     &|sealed| Ok(sealed.count()),
//!     &|done| {
//!         total.fetch_add(done.count, Ordering::Relaxed);
//!     },
//! )
//! .unwrap();
//! assert_eq!(total.into_inner(), 724);
//! ```

use std::ops::Range;

/// The count of a sealed batch handed to another device, taken later: what the matching of
/// [`super::tasks::count_tasks_sealing_ahead`] answers, so that the worker that sealed the
/// batch goes on sealing while the device matches it. The worker takes it
/// ([`Pending::wait`]) once it has handed out more batches than the run's `ahead`, or at the
/// end of its run; a pending count dropped untaken (the run stopped) is never waited for.
pub struct Pending<'p, E>(Later<'p, E>);

/// What a [`Pending`] holds.
enum Later<'p, E> {
    Ready(u64),
    Wait(Box<dyn FnOnce() -> Result<u64, E> + Send + 'p>),
}

impl<'p, E> Pending<'p, E> {
    /// A count known at once (a batch counted on the spot, or one with nothing to match).
    pub fn ready(count: u64) -> Self {
        Pending(Later::Ready(count))
    }

    /// A count that `wait` gives (blocking until the device has it), called once, on the
    /// worker that handed the batch out.
    pub fn later(wait: impl FnOnce() -> Result<u64, E> + Send + 'p) -> Self {
        Pending(Later::Wait(Box::new(wait)))
    }

    /// The count, waited for.
    pub fn wait(self) -> Result<u64, E> {
        match self.0 {
            Later::Ready(c) => Ok(c),
            Later::Wait(f) => f(),
        }
    }

    /// The same count with its error mapped by `f`.
    pub fn map_err<F>(self, f: impl FnOnce(E) -> F + Send + 'p) -> Pending<'p, F>
    where
        E: 'p,
    {
        match self.0 {
            Later::Ready(c) => Pending(Later::Ready(c)),
            Later::Wait(w) => Pending::later(move || w().map_err(f)),
        }
    }
}

impl<E> std::fmt::Debug for Pending<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Later::Ready(c) => write!(f, "Pending::ready({c})"),
            Later::Wait(_) => f.write_str("Pending::later(..)"),
        }
    }
}

/// Stored keys per block: one 512-bit row per (chunk, chunk value).
pub const BLOCK: usize = 512;

/// Key bits per chunk: 32 rows per chunk and block.
pub const CHUNK: u32 = 5;

/// Rows of a block per chunk (`2^CHUNK`).
pub const ROWS_PER_CHUNK: usize = 1 << CHUNK;

/// The bit of a query from which its weight exponent is stored (0 to 3); the bits below are
/// its key.
pub const WEIGHT_AT: u32 = 60;

/// One pair of groups to match: every query of [`Sealed::queries`]`[queries]` against the
/// stored keys of the blocks `blocks` and the keys `tail`, each match counting `2^(shift + e)`
/// (`e` the query's weight exponent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinPair {
    /// Blocks of [`Sealed::blocks`] (sliced, block `b` is rows `b * rows_per_block..(b + 1) *
    /// rows_per_block`).
    pub blocks: Range<usize>,
    /// Stored keys tested one by one: [`Sealed::keys`]`[tail]`.
    pub tail: Range<usize>,
    /// The queries, a range of [`Sealed::queries`].
    pub queries: Range<usize>,
    /// The stored keys' weight exponent.
    pub shift: u32,
}

/// One batch of a task's stored keys, sealed (grouped and packed, cut into blocks), with the
/// queries to match against it: the count of the batch is the sum over [`Sealed::pairs`]
/// (see the module docs).
#[derive(Clone, Debug)]
pub struct Sealed<'a> {
    /// Chunks of a packed key (1 to 12): a sliced block has `chunks * 32` rows.
    pub chunks: usize,
    /// The stored keys, grouped and packed (weight bits cleared: the pairs say the weight):
    /// every block's keys and every tail's.
    pub keys: &'a [u64],
    /// The blocks, each `[first key, keys]` of [`Sealed::keys`] (1 to [`BLOCK`] keys): block
    /// `b`'s key `i` is bit `i % 64` of word `i / 64` of its rows.
    pub blocks: &'a [[u32; 2]],
    /// The queries, grouped and packed as the keys are: key bits below [`WEIGHT_AT`], weight
    /// exponent above.
    pub queries: &'a [u64],
    /// The pairs of (stored, query) groups to match; a query or a block appears in several.
    pub pairs: Vec<JoinPair>,
}

impl Sealed<'_> {
    /// Rows of one block.
    pub fn rows_per_block(&self) -> usize {
        self.chunks * ROWS_PER_CHUNK
    }

    /// The row of `block` that query `q` reads for chunk `c`.
    pub fn row_of(&self, block: usize, c: usize, q: u64) -> usize {
        block * self.rows_per_block() + c * ROWS_PER_CHUNK + ((q >> (c as u32 * CHUNK)) & 31) as usize
    }

    /// The keys of block `b`.
    pub fn block_keys(&self, b: usize) -> &[u64] {
        let [at, len] = self.blocks[b];
        &self.keys[at as usize..(at + len) as usize]
    }

    /// The matches of one pair, counted plainly on the CPU, key by key (the reference the
    /// tests and the GPU's checks hold a device's count against).
    pub fn count_pair(&self, p: &JoinPair) -> u64 {
        let key_mask = (1u64 << WEIGHT_AT) - 1;
        let keys = p.blocks.clone().flat_map(|b| self.block_keys(b)).chain(&self.keys[p.tail.clone()]);
        let keys: Vec<u64> = keys.copied().collect();
        self.queries[p.queries.clone()]
            .iter()
            .map(|&q| {
                let hits: u64 = keys.iter().map(|&k| u64::from(k & q & key_mask == 0)).sum();
                hits << (p.shift + (q >> WEIGHT_AT) as u32)
            })
            .sum()
    }

    /// The batch's count, plainly on the CPU: the sum of [`Sealed::count_pair`].
    pub fn count(&self) -> u64 {
        self.pairs.iter().map(|p| self.count_pair(p)).sum()
    }

    /// (query, block) visits and (query, tail key) tests of the batch: the work a device does.
    pub fn work(&self) -> (u64, u64) {
        self.pairs.iter().fold((0, 0), |(v, t), p| {
            let q = p.queries.len() as u64;
            (v + q * p.blocks.len() as u64, t + q * p.tail.len() as u64)
        })
    }
}
