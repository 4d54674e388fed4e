//! Where the join kernel's time goes: the [`Breakdown`] of its counts, the running sums the
//! sealing workers and the submitter add to, and each worker's mark of when it last left the
//! GPU's hands.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Where the time of the join kernel's counts went, summed over every count since the
/// [`Gpu`](crate::Gpu) was opened ([`Gpu::breakdown`](crate::Gpu::breakdown); zero for the
/// search kernel). The sealing workers are the CPU threads that assemble and seal the tasks'
/// halves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Breakdown {
    /// Seconds the sealing workers spent outside the GPU's hands: assembling and sealing
    /// (the quarters engine's phase 1), summed over the workers (wall time of each, so CPU
    /// seconds when the workers do not outnumber the cores).
    pub sealing_seconds: f64,
    /// Seconds the sealing workers spent preparing their batches for the GPU: packing the
    /// pairs and copying the batch into the upload (wgpu's staging memory).
    pub upload_seconds: f64,
    /// Seconds the sealing workers waited: for a free slot of the ring, then for their
    /// batches' counts (the host waiting on the GPU), summed over the workers.
    pub wait_seconds: f64,
    /// Bytes written to the device: stored keys, queries, blocks, pairs, parameters (the
    /// sum of [`Breakdown::uploaded`]).
    pub bytes_uploaded: u64,
    /// The bytes written to the device by what they were, and the keys they carried.
    pub uploaded: Uploaded,
    /// Seconds the GPU was busy with the join's dispatches: measured by timestamp queries
    /// when [`Breakdown::busy_from_timestamps`], else the wall time from a job's submission
    /// (or the end of the one before, whichever is later) to its end as the submitter saw it.
    pub gpu_busy_seconds: f64,
    /// Whether [`Breakdown::gpu_busy_seconds`] came from the adapter's timestamp queries.
    pub busy_from_timestamps: bool,
    /// Jobs submitted (a job is up to `JOB_DISPATCHES` (8) dispatches of one batch's tiles).
    pub jobs: u64,
    /// Submissions to the device: the jobs waiting when the submitter takes them go in one.
    pub submissions: u64,
    /// Batches the submitter gathered with others into one dispatch (small whole batches:
    /// many tasks per dispatch at small n).
    pub merged: u64,
    /// Dispatches run.
    pub dispatches: u64,
    /// Most jobs in flight at once.
    pub most_in_flight: u32,
    /// Slots of the ring (of the last count).
    pub ring: u32,
    /// Sealing workers (of the last count): [`Breakdown::wait_seconds`] over them and the
    /// count's wall time is the fraction of their time spent waiting.
    pub workers: u32,
    /// Batches a worker left in flight while it sealed on (of the last count;
    /// [`crate::GpuSettings::ahead`]).
    pub ahead: u32,
}

/// The bytes a count wrote to the device, by what they were ([`Breakdown::uploaded`]), and
/// the stored keys and queries they carried (docs/gpu.md, "Sealing on the GPU").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Uploaded {
    /// The stored keys (the blocks' and the tails').
    pub keys: u64,
    /// The queries.
    pub queries: u64,
    /// The blocks (first key, keys).
    pub blocks: u64,
    /// The pairs, packed (their runs of key sides, each pair's fields in the group's
    /// widths, an entry's checksum).
    pub pairs: u64,
    /// The parameters written for each pass: each dispatch's (the join kernel's `Params`,
    /// 32 bytes, and with tile sums the reduce pass's ranges), each seal pass's (the unpack
    /// pass's with them, 32 bytes) and, for each group of packed pairs, the pairs pass's
    /// (48 bytes). Only the words the kernels read, not each record's whole slot.
    pub params: u64,
    /// The blocks and pairs of batches gathered into one dispatch, written again at their
    /// places there.
    pub gathered: u64,
    /// Stored keys sent (with a batch's every load).
    pub stored_keys: u64,
    /// Queries sent (with a batch's every load).
    pub query_count: u64,
    /// Pairs sent (packed: [`Uploaded::pairs`] over them is the bytes a pair; 32 before
    /// they were packed, docs/gpu.md).
    pub pair_count: u64,
}

impl Uploaded {
    /// Bytes written in all.
    pub fn bytes(&self) -> u64 {
        self.keys + self.queries + self.blocks + self.pairs + self.params + self.gathered
    }
}

/// What bytes written to the device were (an [`Uploaded`] field).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sent {
    Keys,
    Queries,
    Blocks,
    Pairs,
    Params,
    Gathered,
}

/// The running sums of a [`Breakdown`], added to by the workers and the submitter.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    pub(crate) sealing_ns: AtomicU64,
    pub(crate) upload_ns: AtomicU64,
    pub(crate) wait_ns: AtomicU64,
    /// Bytes written by [`Sent`], then the stored keys, the queries and the pairs they
    /// carried.
    pub(crate) sent: [AtomicU64; 9],
    pub(crate) busy_ns: AtomicU64,
    pub(crate) jobs: AtomicU64,
    pub(crate) submissions: AtomicU64,
    pub(crate) merged: AtomicU64,
    pub(crate) dispatches: AtomicU64,
    pub(crate) most_in_flight: AtomicU32,
    pub(crate) ring: AtomicU32,
    pub(crate) workers: AtomicU32,
    pub(crate) ahead: AtomicU32,
}

/// Adds `d` to the nanoseconds of `to`.
pub(crate) fn add_time(to: &AtomicU64, d: Duration) {
    to.fetch_add(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX), Ordering::Relaxed);
}

impl Stats {
    /// Counts `bytes` written to the device as `what`.
    pub(crate) fn sent(&self, what: Sent, bytes: u64) {
        self.sent[what as usize].fetch_add(bytes, Ordering::Relaxed);
    }

    /// Counts the stored keys and queries of a batch's load.
    pub(crate) fn carried(&self, keys: usize, queries: usize) {
        self.sent[6].fetch_add(keys as u64, Ordering::Relaxed);
        self.sent[7].fetch_add(queries as u64, Ordering::Relaxed);
    }

    /// Counts the pairs of a group's load.
    pub(crate) fn pairs_sent(&self, pairs: usize) {
        self.sent[8].fetch_add(pairs as u64, Ordering::Relaxed);
    }

    pub(crate) fn breakdown(&self, timestamps: bool) -> Breakdown {
        let s = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64 * 1e-9;
        let [keys, queries, blocks, pairs, params, gathered, stored_keys, query_count, pair_count] =
            std::array::from_fn(|i| self.sent[i].load(Ordering::Relaxed));
        let uploaded =
            Uploaded { keys, queries, blocks, pairs, params, gathered, stored_keys, query_count, pair_count };
        Breakdown {
            sealing_seconds: s(&self.sealing_ns),
            upload_seconds: s(&self.upload_ns),
            wait_seconds: s(&self.wait_ns),
            bytes_uploaded: uploaded.bytes(),
            uploaded,
            gpu_busy_seconds: s(&self.busy_ns),
            busy_from_timestamps: timestamps,
            jobs: self.jobs.load(Ordering::Relaxed),
            submissions: self.submissions.load(Ordering::Relaxed),
            merged: self.merged.load(Ordering::Relaxed),
            dispatches: self.dispatches.load(Ordering::Relaxed),
            most_in_flight: self.most_in_flight.load(Ordering::Relaxed),
            ring: self.ring.load(Ordering::Relaxed),
            workers: self.workers.load(Ordering::Relaxed),
            ahead: self.ahead.load(Ordering::Relaxed),
        }
    }
}

thread_local! {
    /// When this sealing worker last left the GPU's hands (`None`: not yet in this count).
    static LEFT_GPU: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Times one call of the matching callback on a sealing worker: the time since the worker
/// last left it (or since `start`, the count's start) is sealing.
pub(crate) fn timed_matching<T>(stats: &Stats, start: Instant, f: impl FnOnce() -> T) -> T {
    let entered = Instant::now();
    let since = LEFT_GPU.with(Cell::get).unwrap_or(start);
    add_time(&stats.sealing_ns, entered.saturating_duration_since(since));
    let r = f();
    LEFT_GPU.with(|c| c.set(Some(Instant::now())));
    r
}

/// Forgets this thread's mark (a worker starting a count).
pub(crate) fn reset_mark() {
    LEFT_GPU.with(|c| c.set(None));
}
