//! The second kernel, `join`: the quarters engine's matching on the GPU (docs/gpu.md). The
//! library's quarters engine assembles and seals each task's halves on the CPU cores (a pool
//! of as many workers as the current rayon pool, with stacks for the driver:
//! [`count_tasks_with_matching`]) and hands every sealed batch ([`Sealed`]) to the pipeline
//! (module `pipeline`): the batch is written into a free slot of a ring of device buffers,
//! its pairs cut into tiles (one block against up to 256 of the pair's queries: block-major,
//! the block in the workgroup's memory), and the tiles run in bounded
//! dispatches by one submitting thread. A worker does not wait for its batch's count: it
//! hands the library a pending count ([`Pending`]) and seals on, up to
//! [`crate::GpuSettings::ahead`] batches ahead ([`count_tasks_sealing_ahead`]).

use std::sync::atomic::Ordering;
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use damier::control::{Control, Interrupted};
use damier::queens::count::join::{Pending, Sealed};
use damier::queens::count::tasks::{TaskDone, TaskError, TaskList, count_tasks_sealing_ahead};

use crate::device::Gpu;
use crate::device::MAX_PAIRS;
use crate::error::GpuError;
use crate::packing::{ENTRY_BYTES, Packing};
use crate::pairs::PairPacking;
use crate::pipeline::{
    Dispatch, JOB_DISPATCHES, Job, MERGE_TILES, PAIR_WORDS, Ranges, Ring, SealPass, Taken, Whole,
    check_blocks, check_group, even_ranges,
};
use crate::stats::{reset_mark, timed_matching};

/// Batches a sealing worker leaves in flight while it seals on, by default
/// ([`crate::GpuSettings::ahead`]); at most [`MAX_AHEAD`].
const AHEAD: usize = 1;
const MAX_AHEAD: usize = 16;

/// Queries of a tile, at most (the kernel's `TILE_QUERIES`): a tile is one block (or a tail)
/// against up to this many of its pair's queries, each a *unit*.
pub(crate) const TILE_QUERIES: u64 = 256;

/// Words of the kernel's `Params`.
const PARAM_WORDS: usize = 8;

/// Most slots of a ring (a slot holds the device buffers of the largest batch it has seen).
const MAX_RING: usize = 256;

const MAX_TILES: u64 = 1 << 31;

/// Most tiles of one dispatch (at least 64, and the budget adapts between): the units'
/// counter of a dispatch stays below 2^30.
const MAX_DISPATCH_TILES: u32 = 1 << 22;

/// Stack of each thread that seals and matches in the join kernel's pipeline: they all call
/// the GPU driver. On an NVIDIA H200 (driver 580.159.04, 16 threads) a join count aborted
/// with a stack overflow in an unnamed rayon worker (2 MiB, Rust's default for spawned
/// threads) in 2 of 15 runs, at n = 18 and 21, never with the search kernel, which calls the
/// driver from one thread; the driver's stack needs are its own, so the workers get 4 times
/// a main thread's 8 MiB (address space only: untouched pages cost no memory).
const DRIVER_STACK: usize = 32 << 20;

/// A pool of as many workers as the current rayon pool, with [`DRIVER_STACK`] each and named
/// `damier-gpu-join-I` (a fault names the thread). Threads the system will not start are a
/// fault of the machine (exit 74), not a setting.
fn driver_pool(adapter: &str) -> Result<rayon::ThreadPool, GpuError> {
    let threads = rayon::current_num_threads();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(DRIVER_STACK)
        .thread_name(|i| format!("damier-gpu-join-{i}"))
        .build()
        .map_err(|e| GpuError::Device {
            adapter: adapter.to_string(),
            why: format!("cannot start the join kernel's {threads} threads: {e}"),
        })
}

impl Gpu {
    /// Counts the tasks `indices` of `list` with the join kernel, calling `on_done` as each
    /// finishes, in order of completion; polls `control` between dispatches (every ~50 ms)
    /// and advances it by one per task. The tasks' halves are assembled and sealed by a pool
    /// of as many workers as the current rayon pool (each call starts one), each batch matched
    /// on the GPU through the pipeline (module `pipeline`: a ring of `ahead + 1` slots per
    /// worker, or [`crate::GpuSettings::ring`], and one submitting thread; docs/gpu.md, "The
    /// pipeline"; [`Gpu::breakdown`] says where the time went), each worker sealing on while
    /// up to `ahead` of its batches are matched. A task is reported once all its batches are
    /// matched, its count checked against overflow. On an error no task with a batch that
    /// failed, or still in flight, is reported.
    pub fn count_tasks(
        &self,
        list: &TaskList,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), GpuError> {
        let isa = damier::cpu::Isa::best();
        let pool = driver_pool(&self.adapter.name)?;
        let workers = pool.current_num_threads();
        let ahead = self.settings.ahead.map_or(AHEAD, |a| a as usize).min(MAX_AHEAD);
        let slots = self.settings.ring.map_or(workers * (ahead + 1), |r| r as usize);
        let ring = Ring::new(self, slots.clamp(1, MAX_RING));
        self.stats.workers.store(workers as u32, Ordering::Relaxed);
        self.stats.ahead.store(ahead as u32, Ordering::Relaxed);
        self.check("allocating the join's buffers")?;
        pool.broadcast(|_| reset_mark());
        let start = Instant::now();
        self.with_submitter(&ring, |jobs| {
            pool.install(|| {
                count_tasks_sealing_ahead::<GpuError>(
                    list,
                    isa,
                    None,
                    indices,
                    control,
                    ahead,
                    self.settings.batch_keys.map(|b| b as usize),
                    &|sealed| {
                        timed_matching(&self.stats, start, || {
                            self.match_on(&ring, jobs, sealed, control, start)
                        })
                    },
                    on_done,
                )
            })
        })?
        .map_err(|e| match e {
            // Cancelled while sealing: the same error as when cancelled on the device.
            GpuError::Tasks(TaskError::Interrupted(i)) => GpuError::Interrupted(i),
            e => e,
        })
    }

    /// The count of one sealed batch, matched on the GPU: the sum over its pairs of the
    /// weighted matches (what [`Sealed::count`] gives on the CPU), every dispatch's units and
    /// faults checked. (A count matches its batches through one pipeline; this makes one for
    /// the batch.)
    pub fn match_sealed(&self, sealed: &Sealed<'_>, control: &Control) -> Result<u64, GpuError> {
        let ring = Ring::new(self, 1);
        self.check("allocating the join's buffers")?;
        self.with_submitter(&ring, |jobs| {
            self.match_on(&ring, jobs, sealed, control, Instant::now())?.wait()
        })?
    }

    /// Runs `f` with a submitting thread (its own stack, named `damier-gpu-submit`) taking
    /// the jobs `f` sends; the thread ends when `f` has returned and its jobs are answered.
    fn with_submitter<'r, T>(
        &self,
        ring: &'r Ring,
        f: impl FnOnce(&SyncSender<Job<'r>>) -> T,
    ) -> Result<T, GpuError> {
        std::thread::scope(|s| {
            let (jobs, taken) = std::sync::mpsc::sync_channel(ring.slots.len());
            let submitter = std::thread::Builder::new()
                .name("damier-gpu-submit".into())
                .stack_size(DRIVER_STACK)
                .spawn_scoped(s, move || self.submitter(ring, taken))
                .map_err(|e| self.fault(format!("cannot start the join's submitting thread: {e}")))?;
            let r = f(&jobs);
            drop(jobs);
            submitter.join().map_err(|_| self.fault("the join's submitting thread failed".into()))?;
            Ok(r)
        })
    }

    /// [`Gpu::match_sealed`] through `ring` and the submitter of `jobs`: the batch written
    /// into a free slot (in windows of blocks that one rows binding holds, in groups of
    /// pairs the kernel's sums hold), its tiles handed over in jobs of at most
    /// [`JOB_DISPATCHES`] dispatches of the adapted budget. Its count is pending: the last
    /// job is handed over with the slot, which the submitter gives back once it is read
    /// back, and the worker takes its count later (the wait timed as the count's, from
    /// `start`); the jobs before it (a batch of more than one job: more than
    /// [`JOB_DISPATCHES`] dispatches, or several windows or groups) are waited for here,
    /// since they share the slot.
    fn match_on<'r>(
        &'r self,
        ring: &'r Ring,
        jobs: &SyncSender<Job<'r>>,
        sealed: &Sealed<'_>,
        control: &Control,
        start: Instant,
    ) -> Result<Pending<'r, GpuError>, GpuError> {
        if sealed.pairs.is_empty() {
            return Ok(Pending::ready(0));
        }
        // The start of the preparation not yet counted (packing, copying into the upload).
        let mut packed = Instant::now();
        let rows_per_block = sealed.rows_per_block();
        let block_bytes = (rows_per_block * 64) as u64;
        let binding = self.limits.max_storage_buffer_binding_size.min(self.limits.max_buffer_size);
        let window = (binding / block_bytes).max(1) as usize;
        for (what, len) in [("queries", sealed.queries.len()), ("stored keys", sealed.keys.len())] {
            if 8 * len as u64 > binding {
                return Err(GpuError::Setting(format!(
                    "GPU {}: a batch of {len} {what} passes the adapter's {} MiB storage binding",
                    self.adapter.name,
                    binding >> 20
                )));
            }
        }
        check_blocks(sealed.blocks, sealed.keys.len())
            .map_err(|why| self.fault(format!("a join batch the kernel cannot run: {why}")))?;
        // PERF: keys and queries are uploaded in their packed width (4 to 8 bytes each: the
        // unpack pass writes them out as the kernels read them), the stored ones unsliced
        // (the seal pass makes their rows).
        let widths = Packing::of(sealed.keys, sealed.queries);
        let block_list: &[u8] = bytemuck::cast_slice(sealed.blocks);
        let blocks = sealed.blocks.len();
        let mut total = 0u64;
        // Windows of blocks that one rows binding holds (one window but for huge batches).
        let mut w0 = 0;
        loop {
            let w1 = (w0 + window).min(blocks);
            let entries = window_pairs(sealed, w0, w1);
            // The window's rows, made on the device by the seal pass.
            let rows = (w1 - w0) * rows_per_block;
            // The window's slot, taken for its first group and kept for the others (their
            // jobs waited for before the next group's pairs are written): PERF: the keys,
            // queries and blocks uploaded and sealed once a window, each group writing only
            // its pairs (at n = 27 a batch has 1 to 4 M pairs, 1 M a group).
            let mut taken: Option<Taken<'r>> = None;
            let mut at = 0;
            while at < entries.len() {
                let (group, units, tiles) = next_group(&entries, &mut at, self.group_pairs);
                check_group(
                    &group,
                    rows,
                    sealed.queries.len(),
                    sealed.keys.len(),
                    sealed.chunks,
                    rows_per_block,
                )
                .map_err(|why| self.fault(format!("a join batch the kernel cannot run: {why}")))?;
                let packing = packed.elapsed();
                let fresh = taken.is_none();
                if fresh {
                    taken = Some(ring.take(self, control)?);
                }
                let slot = taken.as_ref().map_or(0, |t| t.slot);
                let since = Instant::now();
                let mut seal = {
                    let mut slot = ring.slots[slot].lock().unwrap_or_else(|e| e.into_inner());
                    // PERF: the pairs packed (pairs.rs: a run's key side once, each pair's
                    // fields in the group's widths), written out on the device.
                    let bounds = [rows, sealed.queries.len(), sealed.keys.len(), rows_per_block];
                    let pairs = slot
                        .load_pairs(self, &group, bounds)
                        .map_err(|why| self.fault(format!("a join batch the kernel cannot run: {why}")))?;
                    if fresh {
                        let data = (sealed.keys, sealed.queries);
                        let unpacks = slot.load(self, 64 * rows as u64, &widths, data, block_list);
                        self.stats.carried(sealed.keys.len(), sealed.queries.len());
                        // The keys and queries unpacked, the window's blocks sealed and the
                        // pairs written out by the slot's next job.
                        slot.load_seal(self, (w0 as u32, w1 as u32), sealed.chunks as u32, unpacks, pairs)
                    } else {
                        SealPass::pairs(self, pairs)
                    }
                };
                self.upload_time(packing + since.elapsed());
                self.check("allocating a join batch")?;
                let mut begin = 0u64;
                while begin < tiles {
                    if control.cancelled() {
                        return Err(Interrupted.into());
                    }
                    let since = Instant::now();
                    let budget = u64::from(self.join_budget());
                    let max_dim = self.limits.max_compute_workgroups_per_dimension.max(1);
                    let mut dispatches = Vec::with_capacity(JOB_DISPATCHES);
                    let mut params: Vec<([u32; PARAM_WORDS], Ranges)> = Vec::with_capacity(JOB_DISPATCHES);
                    while dispatches.len() < JOB_DISPATCHES && begin < tiles {
                        let end = (begin + budget).min(tiles);
                        let count = (end - begin) as u32;
                        let width = count.min(max_dim);
                        let height = count.div_ceil(width);
                        params.push((
                            [
                                begin as u32,
                                end as u32,
                                group.len() as u32,
                                sealed.chunks as u32,
                                width,
                                0,
                                0,
                                0,
                            ],
                            even_ranges(count),
                        ));
                        dispatches.push(Dispatch {
                            groups: (width, height),
                            units: units_between(&group, begin, end),
                            tiles: (begin, end),
                        });
                        begin = end;
                    }
                    ring.slots[slot].lock().unwrap_or_else(|e| e.into_inner()).load_params(self, &params);
                    self.upload_time(since.elapsed());
                    // The seal's blocks (and entries) each add a unit to the first dispatch
                    // after it.
                    let seal = std::mem::take(&mut seal);
                    let seal = (seal.units() > 0).then_some(seal);
                    if let Some(s) = seal {
                        dispatches[0].units += s.units();
                    }
                    // The whole batch in this one dispatch, and small: the submitter may run it
                    // with others in one dispatch.
                    let whole = (w0 == 0
                        && w1 == blocks
                        && group.len() == entries.len()
                        && dispatches.len() == 1
                        && dispatches[0].tiles == (0, tiles)
                        && tiles <= MERGE_TILES)
                        .then(|| Whole {
                            pairs: group.clone(),
                            units: units.iter().sum(),
                            tiles,
                            chunks: sealed.chunks as u32,
                            bytes: [
                                64 * rows as u64,
                                8 * sealed.queries.len() as u64,
                                8 * sealed.keys.len() as u64,
                            ],
                            packing: widths,
                            blocks: sealed.blocks.to_vec(),
                        });
                    if begin >= tiles && at >= entries.len() && w1 >= blocks {
                        // The batch's last job: its count taken later, the slot given back by
                        // the submitter.
                        let answer = self.send_job(jobs, slot, seal, dispatches, whole, taken.take())?;
                        return Ok(Pending::later(move || {
                            timed_matching(&self.stats, start, || {
                                total
                                    .checked_add(self.job_count(&answer)?)
                                    .ok_or(GpuError::Overflow { adapter: self.adapter.name.clone() })
                            })
                        }));
                    }
                    let answer = self.send_job(jobs, slot, seal, dispatches, whole, None)?;
                    total = total
                        .checked_add(self.job_count(&answer)?)
                        .ok_or(GpuError::Overflow { adapter: self.adapter.name.clone() })?;
                }
                packed = Instant::now();
            }
            w0 = w1;
            if w0 >= blocks {
                return Ok(Pending::ready(total));
            }
        }
    }

    /// Tiles per join dispatch: the setting, or the adapted budget.
    pub(crate) fn join_budget(&self) -> u32 {
        match self.settings.budget {
            Some(b) => b.clamp(1, MAX_DISPATCH_TILES),
            None => self.join_tiles.load(Ordering::Relaxed),
        }
    }

    /// Adapts the join's tiles per dispatch to the target wall time of a dispatch.
    pub(crate) fn adapt_join_budget(&self, took: Duration) {
        if self.settings.budget.is_some() {
            return;
        }
        let target = Duration::from_millis(u64::from(self.settings.dispatch_ms.unwrap_or(50).max(1)));
        let b = self.join_tiles.load(Ordering::Relaxed);
        let next = if took < target / 2 {
            (b.saturating_mul(2)).min(MAX_DISPATCH_TILES)
        } else if took > target * 2 {
            (b / 2).max(64)
        } else {
            b
        };
        self.join_tiles.store(next, Ordering::Relaxed);
    }
}

/// The pairs of `sealed` as the kernel reads them for the window of blocks `w0..w1` (its
/// rows from the window's first), their running sums of tiles not yet set (word 7: see
/// [`next_group`]): each pair's blocks inside the window, its tail with the window of its
/// last block (or of its place), its queries in pieces whose units fit the kernel's `u32`
/// arithmetic.
fn window_pairs(sealed: &Sealed<'_>, w0: usize, w1: usize) -> Vec<[u32; PAIR_WORDS]> {
    let rows_per_block = sealed.rows_per_block();
    let blocks = sealed.blocks.len();
    let mut entries: Vec<[u32; PAIR_WORDS]> = Vec::with_capacity(sealed.pairs.len());
    for p in &sealed.pairs {
        let (x, y) = (p.blocks.start.max(w0), p.blocks.end.min(w1));
        // A pair's tail goes with the window of its last block (or of its place).
        let owner =
            if p.blocks.is_empty() { p.blocks.start.min(blocks.saturating_sub(1)) } else { p.blocks.end - 1 };
        let with_tail = !p.tail.is_empty() && (owner >= w0 && owner < w1.max(w0 + 1));
        if x >= y && !with_tail {
            continue;
        }
        let nb = y.saturating_sub(x);
        let per = (nb + usize::from(with_tail)) as u64;
        // Queries in pieces whose units fit the kernel's u32 arithmetic.
        let piece = ((1u64 << 31) / per).max(1) as usize;
        let mut q = p.queries.start;
        while q < p.queries.end {
            let len = piece.min(p.queries.end - q);
            entries.push([
                ((x.max(w0) - w0) * rows_per_block) as u32,
                nb as u32,
                q as u32,
                len as u32,
                p.tail.start as u32,
                if with_tail { p.tail.len() as u32 } else { 0 },
                p.shift,
                0,
            ]);
            q += len;
        }
    }
    entries
}

/// The bytes a batch's load writes to the device, as the library hands it over (parameters
/// aside: they go with each dispatch): its stored keys and queries packed, their unpacking
/// entries, its blocks and its pairs packed ([`batch_pairs`]).
pub fn batch_bytes(sealed: &damier::queens::count::join::Sealed<'_>) -> u64 {
    let p = Packing::of(sealed.keys, sealed.queries);
    p.bytes() + ENTRY_BYTES * p.entry_count() as u64 + 8 * sealed.blocks.len() as u64 + batch_pairs(sealed).1
}

/// A batch's pairs as the pipeline uploads them (one window of blocks, groups of
/// `MAX_PAIRS`): how many, and their bytes (packed, pairs.rs, but for groups of a few
/// pairs, sent as they lie: 32 bytes a pair, as every pair was before).
pub fn batch_pairs(sealed: &Sealed<'_>) -> (usize, u64) {
    let pairs = window_pairs(sealed, 0, sealed.blocks.len());
    let (mut at, mut bytes) = (0, 0);
    while at < pairs.len() {
        let (group, _, _) = next_group(&pairs, &mut at, MAX_PAIRS);
        bytes += PairPacking::of(&group).sent_bytes();
    }
    (pairs.len(), bytes)
}

/// The next group of `entries` from `at` (moved past it): at most `most` pairs and
/// [`MAX_TILES`] tiles (but one pair at the least), their running sums of tiles set in word 7;
/// with each pair's units and the group's tiles.
fn next_group(
    entries: &[[u32; PAIR_WORDS]],
    at: &mut usize,
    most: usize,
) -> (Vec<[u32; PAIR_WORDS]>, Vec<u64>, u64) {
    let mut group: Vec<[u32; PAIR_WORDS]> = Vec::new();
    let mut units: Vec<u64> = Vec::new();
    let mut tiles = 0u64;
    while *at < entries.len() && (group.len() < most || group.is_empty()) {
        let mut e = entries[*at];
        let per = u64::from(e[1]) + u64::from(e[5] > 0);
        let u = per * u64::from(e[3]);
        let t = per * u64::from(e[3]).div_ceil(TILE_QUERIES);
        if tiles + t > MAX_TILES && !group.is_empty() {
            break;
        }
        tiles += t;
        e[7] = tiles as u32;
        group.push(e);
        units.push(u);
        *at += 1;
    }
    (group, units, tiles)
}

/// Units of the tiles `begin..end` of a group of pairs (running sums of tiles in word 7).
fn units_between(group: &[[u32; PAIR_WORDS]], begin: u64, end: u64) -> u64 {
    let first = group.partition_point(|e| u64::from(e[7]) <= begin);
    let mut total = 0;
    for i in first..group.len() {
        let start = if i == 0 { 0 } else { u64::from(group[i - 1][7]) };
        if start >= end {
            break;
        }
        let from = begin.max(start) - start;
        let to = end.min(u64::from(group[i][7])) - start;
        total += units_before(&group[i], to) - units_before(&group[i], from);
    }
    total
}

/// Units of a pair's tiles before its tile `t`: the tiles go block after block (the tail
/// last), each block's queries in groups of [`TILE_QUERIES`].
fn units_before(pair: &[u32; PAIR_WORDS], t: u64) -> u64 {
    let queries = u64::from(pair[3]);
    let groups = queries.div_ceil(TILE_QUERIES).max(1);
    (t / groups) * queries + ((t % groups) * TILE_QUERIES).min(queries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GpuSettings;
    use crate::test_adapter::adapter;
    use std::collections::HashMap;
    use std::sync::Mutex;

    /// A controlled schedule for the submitter: the first `keep` sealed batches with pairs
    /// of n's tasks with the chunks of the first one, handed over at once ([`hand_over`]).
    fn handed_over_at_once(gpu: &Gpu, n: u32, keep: usize) -> (Vec<Answer>, (u64, u64, u32, u64, u64)) {
        let all: Vec<u32> = (0..TaskList::new(n).unwrap().len()).collect();
        let mut batches = kept_batches(n, &all);
        let chunks = batches[0].chunks;
        batches.retain(|b| b.chunks == chunks);
        batches.truncate(keep);
        assert_eq!(batches.len(), keep, "batches of n = {n}");
        hand_over(gpu, &batches)
    }

    /// A controlled schedule for the submitter: `batches` handed to the pipeline (each its
    /// one job, into a ring of a slot each) before the submitter runs, so that it finds them
    /// all waiting and takes them at once; then it runs (on this thread) until they are all
    /// answered. Returns each batch's answer from the GPU with its count on the CPU and its
    /// tiles, and the breakdown's jobs, submissions, most jobs in flight, batches gathered and
    /// dispatches.
    fn hand_over(gpu: &Gpu, batches: &[Kept]) -> (Vec<Answer>, (u64, u64, u32, u64, u64)) {
        let ring = Ring::new(gpu, batches.len());
        let (jobs, taken) = std::sync::mpsc::sync_channel(batches.len());
        let (control, start) = (Control::new(), Instant::now());
        let handed: Vec<_> = batches
            .iter()
            .map(|b| {
                let s = b.sealed();
                // Sent into the channel, not yet taken: a pending count.
                (gpu.match_on(&ring, &jobs, &s, &control, start).unwrap(), count_of(&s), tiles_of(&s))
            })
            .collect();
        drop(jobs);
        gpu.submitter(&ring, taken);
        let answers =
            handed.into_iter().map(|(pending, count, tiles)| (pending.wait(), count, tiles)).collect();
        let b = gpu.breakdown();
        (answers, (b.jobs, b.submissions, b.most_in_flight, b.merged, b.dispatches))
    }

    /// The count of a batch on the CPU (of a batch of one pair repeated: one pair's, times
    /// the copies).
    fn count_of(s: &Sealed<'_>) -> u64 {
        match s.pairs.iter().all(|p| *p == s.pairs[0]) {
            true => s.count_pair(&s.pairs[0]) * s.pairs.len() as u64,
            false => s.count(),
        }
    }

    /// A batch's answer from the GPU, its count on the CPU, its tiles.
    type Answer = (Result<u64, GpuError>, u64, u64);

    /// Tiles of a sealed batch (one window, no pair cut): each pair's blocks and tail, each
    /// against its queries in groups of 256.
    fn tiles_of(s: &Sealed<'_>) -> u64 {
        s.pairs
            .iter()
            .map(|p| {
                (p.blocks.len() + usize::from(!p.tail.is_empty())) as u64
                    * (p.queries.len() as u64).div_ceil(256)
            })
            .sum()
    }

    /// Every answer is its batch's count.
    fn assert_counted(answers: &[Answer]) {
        for (got, want, _) in answers {
            assert_eq!(got.as_ref().ok(), Some(want), "{got:?}");
        }
    }

    /// Jobs that wait for the submitter together go in one submission and are in flight
    /// together, each answered with its own count (a fixed budget: no gathering).
    #[test]
    fn jobs_handed_over_together_are_in_flight_together() {
        let gpu = adapter(GpuSettings { budget: Some(1 << 20), ..GpuSettings::default() });
        let (answers, stats) = handed_over_at_once(&gpu, 10, 3);
        assert_counted(&answers);
        assert_eq!(stats, (3, 1, 3, 0, 3));
    }

    /// Small whole batches that wait for the submitter together are gathered into one
    /// dispatch, each answered with its own count (its own partial sum).
    #[test]
    fn small_batches_handed_over_together_share_one_dispatch() {
        let gpu = adapter(GpuSettings::default());
        let (answers, stats) = handed_over_at_once(&gpu, 10, 4);
        assert_counted(&answers);
        assert_eq!(stats, (4, 1, 4, 4, 1));
    }

    /// Each task's count of `tasks` of `list` on the GPU.
    fn on_gpu(gpu: &Gpu, list: &TaskList, tasks: &[u32]) -> Result<HashMap<u32, u64>, GpuError> {
        let got = Mutex::new(HashMap::new());
        gpu.count_tasks(list, tasks, &Control::new(), &|d| {
            got.lock().unwrap().insert(d.index, d.count);
        })
        .map(|()| got.into_inner().unwrap())
    }

    /// Each task's count of `tasks` of `list` by the CPU's quarters engine.
    fn on_cpu(list: &TaskList, tasks: &[u32]) -> HashMap<u32, u64> {
        use damier::queens::count::tasks::{TaskEngine, count_tasks};
        let want = Mutex::new(HashMap::new());
        let isa = damier::cpu::Isa::best();
        count_tasks(list, TaskEngine::Quarters, isa, None, tasks, &Control::new(), &|d| {
            want.lock().unwrap().insert(d.index, d.count);
        })
        .unwrap();
        want.into_inner().unwrap()
    }

    /// Without timestamp queries (an adapter that lacks `TIMESTAMP_QUERY`; lavapipe has them,
    /// so the test turns them off, as `Gpu::open` does for such an adapter) the GPU's busy time is the jobs' wall times as the
    /// submitter saw them: the breakdown says so, and that time is positive and within the
    /// count's wall time (the jobs' intervals do not overlap); the counts are the CPU's.
    #[test]
    fn without_timestamps_the_busy_time_is_the_jobs_wall_time() {
        let list = TaskList::new(11).unwrap();
        let all: Vec<u32> = (0..list.len()).collect();
        let mut gpu = adapter(GpuSettings::default());
        gpu.timestamps = false;
        let start = std::time::Instant::now();
        assert_eq!(on_gpu(&gpu, &list, &all).unwrap(), on_cpu(&list, &all));
        let wall = start.elapsed().as_secs_f64();
        let b = gpu.breakdown();
        assert!(!b.busy_from_timestamps, "{b:?}");
        assert!(
            b.jobs >= 1 && b.gpu_busy_seconds > 0.0 && b.gpu_busy_seconds <= wall,
            "{b:?}, wall {wall} s"
        );
    }

    /// A batch's pairs uploaded in several groups (1 M pairs a group: at n = 27 a batch has 1
    /// to 4 M; here 16 or 100, on batches of up to 243 pairs) share one upload of its keys,
    /// queries and blocks, each group writing only its pairs: 2 random tasks of n = 20 get
    /// the CPU's counts, and the keys and queries carried are the batches' own, once each.
    #[test]
    fn a_batchs_groups_of_pairs_share_one_upload_of_its_keys() {
        let list = TaskList::new(20).unwrap();
        let all: Vec<u32> = (0..list.len()).collect();
        let tasks = damier::queens::count::tasks::sample_tasks(&all, 2, 20);
        let want = on_cpu(&list, &tasks);
        let batches = kept_batches(20, &tasks);
        let keys: usize = batches.iter().map(|b| b.keys.len()).sum();
        let queries: usize = batches.iter().map(|b| b.queries.len()).sum();
        let most_pairs = batches.iter().map(|b| b.pairs.len()).max().unwrap();
        assert!(most_pairs > 200, "{most_pairs} pairs at most in a batch");
        for most in [16, 100] {
            let mut gpu = adapter(GpuSettings::default());
            gpu.group_pairs = most;
            assert_eq!(on_gpu(&gpu, &list, &tasks).unwrap(), want, "groups of {most} pairs");
            let u = gpu.breakdown().uploaded;
            assert_eq!((u.stored_keys, u.query_count), (keys as u64, queries as u64), "groups of {most}");
        }
    }

    /// A loop the driver cuts short fails the count with `GpuError::LoopCut` (the CLI's exit
    /// 74, its one line saying that no task of the batch is counted) and reports no task: the
    /// kernel's pair search given no steps (`PAIR_STEPS` = 0, a pipeline constant that only
    /// this test sets), so that every tile's search ends short, with each tile's sum in its
    /// own slot (the fault through the reduce pass) and with shared sums. The same settings
    /// with the constant at its bound count every task as the CPU does.
    #[test]
    fn a_loop_cut_short_fails_the_count_and_reports_no_task() {
        use crate::test_adapter::adapter_with;
        let list = TaskList::new(12).unwrap();
        let all: Vec<u32> = (0..list.len()).collect();
        let want = on_cpu(&list, &all);
        // The tasks with solutions: each has a batch with pairs, whose tiles all fail, so none
        // can be reported before the count stops (a task without any has nothing to fail).
        let some: Vec<u32> = all.iter().copied().filter(|i| want[i] > 0).collect();
        assert!(some.len() > 100);
        for shared_sums in [false, true] {
            let settings = GpuSettings { shared_sums, ..GpuSettings::default() };
            let gpu = adapter_with(settings, &[("PAIR_STEPS", 0.0)]);
            assert_eq!(gpu.join_kernel().tile_sums, !shared_sums);
            let reported = std::sync::atomic::AtomicUsize::new(0);
            let e = gpu
                .count_tasks(&list, &some, &Control::new(), &|_| {
                    reported.fetch_add(1, Ordering::Relaxed);
                })
                .unwrap_err();
            assert!(matches!(e, GpuError::LoopCut { .. }), "shared sums {shared_sums}: {e}");
            assert!(e.is_device_fault());
            let line = e.to_string();
            assert!(
                line.contains("cut a shader loop short") && line.contains("no task of its batch is counted"),
                "{line}"
            );
            assert_eq!(reported.into_inner(), 0, "shared sums {shared_sums}: tasks reported");
            let gpu = adapter_with(settings, &[("PAIR_STEPS", 40.0)]);
            assert_eq!(on_gpu(&gpu, &list, &all).unwrap(), want, "shared sums {shared_sums}");
        }
    }

    /// Pairs written out in other widths than they were packed in fail the count (the pairs
    /// pass's fault bit: `GpuError::LoopCut`), never give a wrong count: every width of the
    /// run index, first query and query count one bit off (each field's low bit flipped), on
    /// every task of n = 12 with solutions in batches of their own (a fixed budget gathers
    /// none), every group packed (most have too few pairs to be, otherwise). A task reported
    /// before the count stops has the CPU's count: a width one bit wider that reads the same
    /// pairs (the last field of a group's last pair, over the zero padding) changes nothing.
    /// With the widths right, the CPU's counts.
    #[test]
    fn pairs_in_wrong_widths_fail_the_count() {
        let list = TaskList::new(12).unwrap();
        let all: Vec<u32> = (0..list.len()).collect();
        let want = on_cpu(&list, &all);
        let some: Vec<u32> = all.iter().copied().filter(|i| want[i] > 0).collect();
        let settings = GpuSettings { budget: Some(64), ..GpuSettings::default() };
        let packing = |flip| {
            let mut gpu = adapter(settings);
            gpu.pack_every_group = true;
            gpu.pair_widths_flip = flip;
            gpu
        };
        for flip in [1, 1 << 8, 1 << 16] {
            let gpu = packing(flip);
            let reported = Mutex::new(Vec::new());
            let e = gpu
                .count_tasks(&list, &some, &Control::new(), &|d| {
                    reported.lock().unwrap().push((d.index, d.count));
                })
                .unwrap_err();
            assert!(matches!(e, GpuError::LoopCut { .. }), "flip {flip:#x}: {e}");
            let reported = reported.into_inner().unwrap();
            assert!(reported.len() < some.len(), "flip {flip:#x}");
            for (i, c) in reported {
                assert_eq!(c, want[&i], "flip {flip:#x}: task {i}");
            }
        }
        assert_eq!(on_gpu(&packing(0), &list, &all).unwrap(), want);
    }

    /// A sealed batch kept past its worker's callback (the library lends it).
    struct Kept {
        chunks: usize,
        keys: Vec<u64>,
        blocks: Vec<[u32; 2]>,
        queries: Vec<u64>,
        pairs: Vec<damier::queens::count::join::JoinPair>,
    }

    impl Kept {
        fn sealed(&self) -> Sealed<'_> {
            let (keys, blocks, queries) = (&self.keys[..], &self.blocks[..], &self.queries[..]);
            Sealed { chunks: self.chunks, keys, blocks, queries, pairs: self.pairs.clone() }
        }
    }

    /// The sealed batches with pairs of tasks `tasks` of n, kept.
    fn kept_batches(n: u32, tasks: &[u32]) -> Vec<Kept> {
        let list = TaskList::new(n).unwrap();
        let kept = Mutex::new(Vec::new());
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        one.install(|| {
            damier::queens::count::tasks::count_tasks_with_matching::<GpuError>(
                &list,
                damier::cpu::Isa::Portable,
                None,
                tasks,
                &Control::new(),
                &|s| {
                    if !s.pairs.is_empty() {
                        kept.lock().unwrap().push(Kept {
                            chunks: s.chunks,
                            keys: s.keys.to_vec(),
                            blocks: s.blocks.to_vec(),
                            queries: s.queries.to_vec(),
                            pairs: s.pairs.clone(),
                        });
                    }
                    Ok(s.count())
                },
                &|_| {},
            )
        })
        .unwrap();
        kept.into_inner().unwrap()
    }

    /// The tests' bias of each tile's sum (`TILE_BIAS`): the most that a tile's sum (at most
    /// 2^23) leaves room for in its 32 bits.
    const BIAS: u32 = u32::MAX - (1 << 23);

    /// The join kernel and its reduce pass with each tile's sum biased by [`BIAS`] and its
    /// value shifted left by `shift` into 64 bits (their pipeline constants).
    fn biased_adapter(settings: GpuSettings, shift: u32) -> Gpu {
        crate::test_adapter::adapter_with(
            settings,
            &[("TILE_BIAS", f64::from(BIAS)), ("TILE_SHIFT", f64::from(shift))],
        )
    }

    /// What a batch of `count` in `tiles` tiles comes to through [`biased_adapter`]:
    /// `(count + BIAS * tiles) << shift`, computed exactly, or `None` past 2^64 (an
    /// overflow).
    fn biased(count: u64, tiles: u64, shift: u32) -> Option<u64> {
        u64::try_from((u128::from(count) + u128::from(BIAS) * u128::from(tiles)) << shift).ok()
    }

    /// Whether a biased answer is right: the exact value, or the overflow error past 2^64.
    fn right(got: &Result<u64, GpuError>, count: u64, tiles: u64, shift: u32) -> bool {
        match (got, biased(count, tiles, shift)) {
            (Ok(g), Some(w)) => *g == w,
            (Err(GpuError::Overflow { .. }), None) => true,
            _ => false,
        }
    }

    /// Each batch matched alone (its own ring: one dispatch of all its tiles under the
    /// tests' budget): the GPU's answer, the CPU's count, the tiles.
    fn answers_alone(gpu: &Gpu, batches: &[Kept]) -> Vec<Answer> {
        batches
            .iter()
            .map(|b| {
                let s = b.sealed();
                (gpu.match_sealed(&s, &Control::new()), count_of(&s), tiles_of(&s))
            })
            .collect()
    }

    /// A batch of `copies` times the same pair: one block of 512 stored keys of 7 chunks
    /// against 256 queries (weight exponents 0 to 3), its keys weighing 2^2 (random keys,
    /// fixed by the seed `copies`): `copies` tiles of one unit a query.
    fn repeated(copies: usize) -> Kept {
        let mut next = crate::test_adapter::stream(0x9e37_79b9_7f4a_7c15 ^ copies as u64);
        let mask = (1u64 << 35) - 1;
        let keys: Vec<u64> = (0..512).map(|_| next() & next() & next() & mask).collect();
        let queries: Vec<u64> =
            (0..256u64).map(|i| (next() & next() & next() & mask) | (i % 4) << 60).collect();
        let pair =
            damier::queens::count::join::JoinPair { blocks: 0..1, tail: 0..0, queries: 0..256, shift: 2 };
        Kept { chunks: 7, keys, blocks: vec![[0, 512]], queries, pairs: vec![pair; copies] }
    }

    /// The batches the carry tests match alone: every task of n = 12 (many batches of a few
    /// tiles), and one pair repeated 1, 2, 3, 100 and 24 576 times (the last a batch whose
    /// every partial sum of the reduce adds 768 tiles, each of its lanes 3).
    fn carry_batches() -> Vec<Kept> {
        let all: Vec<u32> = (0..TaskList::new(12).unwrap().len()).collect();
        let mut batches = kept_batches(12, &all);
        batches.extend([1, 2, 3, 100, 3 * 32 * 256].map(repeated));
        batches
    }

    /// The batches the carry tests gather into one dispatch: one pair repeated 1, 2, 3, 5
    /// and 20 times (31 tiles, within the first adapted budget of lavapipe, 64 tiles).
    fn gathered() -> Vec<Kept> {
        [1, 2, 3, 5, 20].map(repeated).into()
    }

    /// The tests' fixed budget: every batch of [`carry_batches`] in one dispatch.
    const ONE_DISPATCH: u32 = 1 << 16;

    /// The 64-bit partial sums carry past 2^32 and raise their overflow bit past 2^64, on
    /// both sums paths (a slot per tile with its reduce pass; the shared atomics of
    /// `--gpu-shared-sums`), at the sizes lavapipe counts, where no real count comes near:
    /// the pipeline constants `TILE_BIAS` (added to each tile's sum: tiles of about 2^32)
    /// and `TILE_SHIFT` (each tile's value shifted into 64 bits), which only tests set, make
    /// every batch's count `(count + BIAS * tiles) << shift`, held against that value
    /// computed exactly on the CPU (past 2^64: the overflow error). Each batch is matched
    /// alone (one dispatch: a partial sum of the reduce adds up to hundreds of tiles, a
    /// reduce lane several), and small batches gathered into one dispatch (each batch one
    /// partial sum, whose overflow bit alone stops a wrapped count: at shift 31 a
    /// tile is about 2^63, so that a batch of 3 tiles or more overflows).
    #[test]
    fn the_partial_sums_carry_past_2_32_and_overflow_past_2_64() {
        let batches = carry_batches();
        let most = batches.iter().map(|b| tiles_of(&b.sealed())).max().unwrap();
        // A lane of the reduce adds several tiles: a range of more than its 256 lanes.
        assert!(most > 32 * 256 && most <= u64::from(ONE_DISPATCH), "{most} tiles");
        for shared_sums in [false, true] {
            let settings = GpuSettings { shared_sums, budget: Some(ONE_DISPATCH), ..GpuSettings::default() };
            for shift in [0, 12, 31] {
                let gpu = biased_adapter(settings, shift);
                let answers = answers_alone(&gpu, &batches);
                for (got, count, tiles) in &answers {
                    assert!(
                        right(got, *count, *tiles, shift),
                        "shared {shared_sums} shift {shift}: {got:?}, {count} in {tiles} tiles"
                    );
                }
                let over = answers.iter().filter(|a| a.0.is_err()).count();
                let exact = answers.len() - over;
                match shift {
                    // Every carry, no overflow: each tile's value is near 2^32 (0), 2^44 (12:
                    // the largest batch's count past 2^58).
                    0 | 12 => assert_eq!(over, 0, "shift {shift}"),
                    // Both: batches of a few tiles exact, the large ones past 2^64.
                    _ => assert!(over > 0 && exact > 0, "shift {shift}: {over} overflowed, {exact} exact"),
                }
            }
            // Gathered: each batch in one partial sum of one dispatch (the adapted budget).
            let gpu = biased_adapter(GpuSettings { shared_sums, ..GpuSettings::default() }, 31);
            let (answers, stats) = hand_over(&gpu, &gathered());
            assert_eq!((stats.3, stats.4), (5, 1), "gathered into one dispatch");
            for (got, count, tiles) in &answers {
                assert!(
                    right(got, *count, *tiles, 31),
                    "gathered, shared {shared_sums}: {got:?}, {count} in {tiles} tiles"
                );
            }
            assert!(answers.iter().any(|a| a.0.is_err()), "a gathered batch past 2^64: {answers:?}");
        }
    }

    /// The test above fails on a broken carry or overflow bit: the same checks against a
    /// reduce pass (or, with shared sums, a join kernel) compiled here from its source with
    /// the carry dropped or the overflow bit never set, one line changed, give wrong answers.
    #[test]
    fn a_broken_carry_or_overflow_bit_fails_the_carry_test() {
        use crate::device::{REDUCE_KERNEL, checked_pipeline_with, join_source};
        let batches = carry_batches();
        // (shared sums, the line, the broken line, the shift, gathered).
        let breaks = [
            (false, "let carry = select(0u, 1u, lo < a.x);", "let carry = 0u;", 0, false),
            (false, "let over = select(0u, 1u, h < a.y || hi < h);", "let over = 0u;", 31, true),
            (true, "let up = hi + select(0u, 1u, old + lo < old);", "let up = hi;", 0, false),
            (true, "if (old_hi + up < old_hi) {", "if (false) {", 31, true),
        ];
        for (shared_sums, line, broken, shift, together) in breaks {
            let budget = (!together).then_some(ONE_DISPATCH);
            let mut gpu =
                biased_adapter(GpuSettings { shared_sums, budget, ..GpuSettings::default() }, shift);
            let constants = [("TILE_BIAS", f64::from(BIAS)), ("TILE_SHIFT", f64::from(shift))];
            let source = if shared_sums { join_source(gpu.join_kernel) } else { REDUCE_KERNEL.to_string() };
            assert!(source.contains(line), "{line}");
            let pipeline =
                checked_pipeline_with(&gpu.device, "broken", &source.replace(line, broken), &constants);
            if shared_sums {
                gpu.join_pipeline = pipeline;
            } else {
                gpu.reduce_pipeline = Some(pipeline);
            }
            let answers =
                if together { hand_over(&gpu, &gathered()).0 } else { answers_alone(&gpu, &batches) };
            let wrong =
                answers.iter().filter(|(got, count, tiles)| !right(got, *count, *tiles, shift)).count();
            assert!(wrong > 0, "{broken}: every answer right");
        }
    }

    /// Stack used by `depth` frames of 64 KiB each.
    fn deep(depth: u32) -> u8 {
        let frame = std::hint::black_box([depth as u8; 1 << 16]);
        if depth == 0 { frame[0] } else { deep(depth - 1).wrapping_add(frame[std::hint::black_box(7)]) }
    }

    /// The join's workers run what overflowed a default worker's 2 MiB: 12 MiB of stack on
    /// every worker (on a default pool this test aborts with a stack overflow).
    #[test]
    fn the_join_workers_have_stacks_for_the_driver() {
        let outer = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let names = outer.install(|| {
            let pool = driver_pool("test").unwrap();
            assert_eq!(pool.current_num_threads(), 3);
            pool.broadcast(|_| {
                std::hint::black_box(deep(192));
                std::thread::current().name().map(str::to_owned)
            })
        });
        let mut names: Vec<String> = names.into_iter().map(Option::unwrap).collect();
        names.sort();
        assert_eq!(names, ["damier-gpu-join-0", "damier-gpu-join-1", "damier-gpu-join-2"]);
    }

    #[test]
    fn units_of_a_tile_range_add_up() {
        // A pair of 2 blocks and 300 queries (tiles of 256, 44, 256, 44 units), one of a tail
        // and 10 queries (a tile of 10), one of a block, a tail and 256 queries (2 tiles of
        // 256): running sums of tiles 4, 5, 7.
        let group: Vec<[u32; PAIR_WORDS]> =
            vec![[0, 2, 0, 300, 0, 0, 0, 4], [0, 0, 0, 10, 0, 5, 0, 5], [0, 1, 0, 256, 0, 3, 0, 7]];
        let mut at = 0;
        let mut unsummed = group.clone();
        for e in &mut unsummed {
            e[7] = 0;
        }
        let (summed, units, tiles) = next_group(&unsummed, &mut at, crate::device::MAX_PAIRS);
        assert_eq!((summed, units, tiles), (group.clone(), vec![600, 10, 512], 7));
        assert_eq!(units_between(&group, 0, 7), 1122);
        let split: u64 = (0..7).map(|t| units_between(&group, t, t + 1)).sum();
        assert_eq!(split, 1122);
        let each: Vec<u64> = (0..7).map(|t| units_between(&group, t, t + 1)).collect();
        assert_eq!(each, [256, 44, 256, 44, 10, 256, 256]);
        assert_eq!(units_between(&group, 1, 3), 300);
        assert_eq!(units_between(&group, 3, 6), 310);
    }
}
