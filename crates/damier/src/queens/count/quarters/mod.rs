//! Quarter boards: half boards assembled from a table of quarter placements, matched by
//! bit-sliced tables.
//!
//! The board is cut into a top half (rows `0..q`, `q = ceil(n / 2)`) and a bottom half, and
//! into a left part (columns `0..q`) and a right part: four quarters, each inside a `q x q`
//! square. Every partial placement of a `q x q` square — any rows, at most one queen per row
//! and column, no two on a diagonal — is listed once in a [`QuarterTable`], grouped by its
//! (column set, row set) cell. Then, for every column set `C` of the top half:
//!
//! 1. the **top halves** on `C` are assembled from a top-left and a top-right cell list (the
//!    rows split every possible way) and reduced to their *key* (the diagonals they share with
//!    the other half), and so are the **bottom halves** on the other columns;
//! 2. one side is stored in a [`Matcher`] (the bottom halves, or the top halves when they far
//!    outnumber them) and each key of the other side is matched against every stored key at
//!    once: the matcher keeps, per block of 512 stored keys and per 5-bit chunk of the key
//!    (6-bit on the portable unit), the 32 (64) masks "stored keys that avoid these bits", so
//!    one query costs a handful of 512-bit ANDs and a popcount per block.
//!
//! Symmetry, nearly 8x in all: the mirror maps column set `C` to its image with the same
//! count, so one of the two is counted, twice. The reflection in the anti-diagonal maps the
//! solutions with their main-diagonal queen in the bottom half one to one onto those with it
//! in the top half (off the centre), and keeps the anti-diagonal as it is; the transpose does
//! the same for the anti-diagonal's queen and keeps the main diagonal. So the total is the
//! sum, over the solutions whose bottom half avoids both long diagonals, of 2 per
//! long-diagonal queen of the top half (the centre of odd boards, on both, counts once): only
//! such bottom halves are stored, and each top half carries its weight.

use rayon::prelude::*;

use super::{CountError, MemoryLimit, Share};
use crate::control::{Control, Interrupted};
use crate::cpu::Isa;
use crate::queens::count::join::{self, Pending, Sealed};

mod geometry;
mod kernel;
mod matcher;
mod sliced;
mod table;

use geometry::{Geometry, WEIGHT_AT};
use matcher::Matcher;
use table::{PlacedCells, QuarterTable, SharedCells, Source};

/// Smallest n this engine takes.
pub(crate) const MIN_N: u32 = 4;

/// Largest n this engine takes: keys of `2 (n - 1)` bits stay below [`WEIGHT_AT`], quarter
/// entries of `2q - 1 <= 27` bits fit their 32-bit halves, and the total of n = 28 (expected
/// near 2.5e18) fits a `u64`.
pub(crate) const MAX_N: u32 = 28;

/// Largest `q` whose whole quarter table may be built: 4.9 GB at q = 12 (n = 23, 24); at
/// q = 13 it would hold more entries than its `u32` offsets count (about 45 GB). Above it, and
/// whenever the table does not fit the memory limit, tasks search their quarters.
const TABLE_MAX_Q: u32 = 12;

/// Whether a task with `top` top halves and `bottom` bottom halves stores its top halves, under
/// the thresholds `(ratio, min)` of [`Work::swap`] (see [`count_task`]).
fn stores_top((ratio, min): (usize, usize), top: usize, bottom: usize) -> bool {
    top >= ratio.saturating_mul(bottom) && bottom >= min
}

/// One unit of parallel work: a column set of the top half (whole-board column mask: the
/// left part's local columns in the low `q` bits, the right part's above), with its weight.
#[derive(Clone, Copy, Debug)]
struct Task {
    cols: u32,
    weight: u64,
}

/// Every task of n: the column sets with as many columns as the top half has rows, in
/// increasing order, each or its mirror image (the tests' and the measures' list; a count
/// lists its share only, [`share_tasks`]).
#[cfg(any(test, feature = "measure"))]
fn tasks(g: &Geometry) -> Vec<Task> {
    let mut all = Vec::with_capacity(column_sets(g.n) as usize);
    all.extend(each_task(g));
    all
}

/// The tasks of one share of n, picked as they are made: a share of n = 28 never holds the
/// 20 M tasks (320 MB) of the whole list.
fn share_tasks(g: &Geometry, share: Share) -> Vec<Task> {
    let mut picked = Vec::with_capacity(share.len_of(column_sets(g.n)) as usize);
    picked.extend(share.pick(each_task(g)));
    picked
}

/// The tasks of [`tasks`], made one by one.
fn each_task(g: &Geometry) -> impl Iterator<Item = Task> {
    let n = g.n;
    let reverse = move |m: u32| m.reverse_bits() >> (32 - n);
    // Every column set with as many columns as the top half has rows.
    subsets((1 << n) - 1, g.q).filter_map(move |cols| {
        // PERF: a column set and its mirror image have the same count.
        let weight = match cols.cmp(&reverse(cols)) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => return None,
        };
        Some(Task { cols, weight })
    })
}

/// How many tasks n has, counted without listing them: of the `C(n, q)` column sets of
/// `q = ceil(n / 2)` columns, those that are their own mirror image, and one of each other
/// pair. A set is its own mirror image when it holds both or neither columns of each of the
/// `n / 2` mirrored pairs, and the middle column of an odd board when `q` is odd.
fn column_sets(n: u32) -> u64 {
    let q = n - n / 2;
    let own = if n.is_multiple_of(2) && !q.is_multiple_of(2) { 0 } else { binomial(n / 2, q / 2) };
    (binomial(n, q) + own) / 2
}

/// `C(n, k)` for `n <= 32` (at most `C(32, 16)`, about 6e8).
fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    // Each partial product `C(n - k + i, i)` is a whole number.
    (1..=u64::from(k.min(n - k))).fold(1, |c, i| c * (u64::from(n - k.min(n - k)) + i) / i)
}

/// Buffers of one worker.
struct Work {
    top_left: PlacedCells,
    top_right: PlacedCells,
    bottom_left: PlacedCells,
    bottom_right: PlacedCells,
    matcher: Matcher,
    /// The vector unit the kernels run on.
    isa: Isa,
    /// Keys stored per batch ([`STORED_KEYS`] or fewer for the memory limit; tests make it
    /// small).
    batch: usize,
    /// Query keys matched at once when the query side is made in pieces ([`QUERY_CHUNK`];
    /// tests make it small).
    query_chunk: usize,
    /// When the top halves are stored: at least `swap.0` times as many as the bottom halves,
    /// and at least `swap.1` bottom halves ([`SWAP_RATIO`], [`SWAP_MIN`]; tests force either
    /// side).
    swap: (usize, usize),
    /// Keys of the task's top halves, each with its weight exponent in the bits from
    /// [`WEIGHT_AT`], and of its bottom halves: the larger side is stored in the matcher batch
    /// by batch, the smaller one queries it.
    top: Vec<u64>,
    bottom: Vec<u64>,
}

impl Work {
    fn new(g: &Geometry, isa: Isa) -> Self {
        let (q, rest) = (g.q, g.n - g.q);
        let mut matcher = Matcher::new(g.key_bits(), g.cut_candidates());
        if wide_tables(isa) {
            matcher.width = sliced::WIDE_CHUNK;
        }
        Work {
            top_left: PlacedCells::quarter(g, false, false),
            top_right: PlacedCells::quarter(g, false, true),
            // Only bottom halves off both long diagonals are stored (see the module docs).
            bottom_left: PlacedCells::quarter(g, true, false),
            bottom_right: PlacedCells::quarter(g, true, true),
            matcher,
            isa,
            batch: STORED_KEYS,
            query_chunk: QUERY_CHUNK,
            swap: if q > rest && isa == Isa::Avx512 { SWAP_TALL_TOP } else { (SWAP_RATIO, SWAP_MIN) },
            top: Vec::new(),
            bottom: Vec::new(),
        }
    }
}

impl Work {
    /// Bytes held by the buffers: the quarter cells, the matcher, both sides' keys.
    #[cfg(feature = "measure")]
    fn bytes(&self) -> [usize; 3] {
        let cells = [&self.top_left, &self.top_right, &self.bottom_left, &self.bottom_right];
        [
            cells.iter().map(|c| c.bytes()).sum::<usize>(),
            self.matcher.bytes(),
            8 * (self.top.capacity() + self.bottom.capacity()),
        ]
    }
}

/// What every task reads: where the quarter placements come from, the left quarters' cells
/// when they are converted once for all tasks, and the row subsets by size.
struct Quarters {
    source: Source,
    /// The cells of the top-left and the bottom-left quarter on every column set, when the
    /// table is built and they fit ([`SHARED_CELLS_MAX_BYTES`]).
    left: Option<[SharedCells; 2]>,
    /// `top_rows[k]`: the subsets of the top half's rows with k rows (same for bottom).
    top_rows: Vec<Vec<u32>>,
    bottom_rows: Vec<Vec<u32>>,
}

/// Most bytes of the left quarters' cells converted once for all tasks ([`SharedCells`]):
/// by [`SharedCells::bytes_at_most`], 0.25 GB at n = 19 and 0.37 GB at n = 20 (q = 10), where
/// q = 11 would take 2.15 GB at n = 21 and 3.24 GB at n = 22 beside its 0.55 GB table.
const SHARED_CELLS_MAX_BYTES: u64 = 1 << 30;

impl Quarters {
    /// The shared data, with the whole quarter table when `table` is true and it fits in
    /// `room` bytes, else with per-task searches; with the left quarters' cells converted once
    /// when the table is built and they fit beside it. Building them polls `control`.
    fn new(g: &Geometry, table: bool, room: u64, control: &Control) -> Result<Self, Interrupted> {
        let by_size = |mask: u32| (0..=g.q).map(|k| subsets(mask, k).collect()).collect();
        let (source, left) = match table.then(|| QuarterTable::size(g.q, control)).transpose()? {
            Some((bytes, start)) if bytes <= room => {
                let table = QuarterTable::fill(g.q, start, control)?;
                let shared =
                    SharedCells::bytes_at_most(&table, g.q) + SharedCells::bytes_at_most(&table, g.n - g.q);
                let left = if shared <= SHARED_CELLS_MAX_BYTES.min(room - bytes) {
                    let [top, bottom] =
                        [false, true].map(|bottom| SharedCells::new(g, &table, bottom, control));
                    Some([top?, bottom?])
                } else {
                    None
                };
                (Source::Table(table), left)
            }
            _ => (Source::Search { q: g.q }, None),
        };
        Ok(Quarters { source, left, top_rows: by_size(g.top_rows()), bottom_rows: by_size(g.bottom_rows()) })
    }

    /// The cells on column set `cols` of the left quarter of the bottom half or of the top
    /// half: the shared ones when there are, else `own`'s, loaded (polling `control`).
    fn left_cells<'a>(
        &'a self,
        g: &Geometry,
        bottom: bool,
        own: &'a mut PlacedCells,
        cols: u32,
        control: &Control,
    ) -> Result<&'a PlacedCells, Interrupted> {
        match &self.left {
            Some(shared) => Ok(shared[bottom as usize].get(cols)),
            None => {
                own.load(g, &self.source, cols, control)?;
                Ok(own)
            }
        }
    }
}

/// The top halves are stored instead of the bottom ones when they are at least this many
/// times more, and the bottom halves at least [`SWAP_MIN`] (see [`count_task`]).
/// [default: 4; storing the larger side whatever the sizes cost 1.8x at n = 18]
const SWAP_RATIO: usize = 4;

/// [`SWAP_RATIO`] and [`SWAP_MIN`] with AVX-512 at odd n, where the top half has a row more
/// than the bottom one. [default: 8 and 2048]
///
/// PERF: the AVX-512 kernel matches a query against stored keys fastest, so storing the
/// smaller side pays sooner. Once the seal cost less (session 12), ratio 8 matched in 0.95x
/// the CPU of 4 at n = 19 and 21 and 0.98x at 23, but 1.04x at 20 and 22 (6: 0.95-0.98x at odd
/// n, 1.02-1.03x at even n); with AVX2 it cost 1.025x at 19 and 21, portable 0.97-1.02x
/// (`settings-sweep` of examples/quarters.rs, docs/performance.md). With it, from 2048 bottom halves
/// (not 4096): 0.93x at n = 19, 0.96-0.98x at 21, 1.00x at 23 (1024: 0.91x, 0.97x, 1.02x).
const SWAP_TALL_TOP: (usize, usize) = (8, 2048);

/// Fewest bottom halves for the top halves to be stored ([`SWAP_RATIO`]). [default: 4096]
///
/// PERF: was 16384; 4096 matched 11 to 13% faster at n = 21, 2 to 10% at 20, 22 and 23, and
/// within 2% at 18 and 19 (2048 and below: up to 1.3x slower there); `settings-sweep` of examples/quarters.rs,
/// docs/performance.md, session 11.
const SWAP_MIN: usize = 4096;

/// Stored keys per batch of the stored side at most (see [`count_task`]): about 1.3 GB of
/// buffers ([`BATCH_KEY_BYTES`] a key) at n >= 25, where tasks have more keys than that.
///
/// PERF: 4 M keys per batch were 1.3 to 1.6 times slower at n = 25 (fewer cut bits: 10
/// instead of 12; `profile-tasks` of examples/quarters.rs).
const STORED_KEYS: usize = 1 << 24;

/// Fewest stored keys per batch a memory limit may bring a count down to.
const MIN_STORED_KEYS: usize = 1 << 18;

/// Bytes a worker holds per key of a batch, at most: both sides' keys (8 + 8), the stored
/// keys' grouped copy, group and sliced rows (8 + 2 + 44 at 11 chunks), the queries' grouped
/// copy (8), rounded up.
const BATCH_KEY_BYTES: u64 = 80;

/// [`BATCH_KEY_BYTES`] with the portable unit's tables ([`sliced::WIDE_CHUNK`]): sliced rows
/// of 72 bytes a key at 9 chunks of 6 bits instead of 44.
const WIDE_BATCH_KEY_BYTES: u64 = 108;

/// Whether a worker on `isa` slices its stored keys in [`sliced::WIDE_CHUNK`]-bit chunks (the
/// portable unit; the others, and a device's layout, in [`CHUNK`]).
pub(crate) fn wide_tables(isa: Isa) -> bool {
    isa == Isa::Portable
}

/// Bytes of a worker's query buffers per query key, at most: the query side's keys (8, up to
/// twice that in a vector grown by doubling) and the matcher's grouped copy (8) and group (2),
/// rounded up. A worker holds up to [`QUERY_CHUNK`] queries whatever its batch.
const QUERY_KEY_BYTES: u64 = 32;

/// Bytes of a worker's four quarters' cells at n = 25, at most: 138 MB measured (the largest
/// of 6 random tasks, `worker-buffer-peaks` of examples/quarters.rs), with a margin of 1.45x;
/// they grow about 2.2 times per n (7 MB at n = 21, 9 at 22, 30 at 23, 41 at 24).
const CELLS_BYTES_AT_25: f64 = 200e6;

/// Address space a count takes besides its workers' buffers, the task list and the quarter
/// table: the program, its threads' stacks and the allocator's slack. Taken off the room that
/// an address-space limit gives ([`super::CountOptions::on_this_machine`]), not counted in a
/// `--memory` room, which is the count's own (`queens count 15 --memory 4M` runs).
pub(crate) const PROCESS_BYTES: u64 = 64 << 20;

/// Address space each worker thread takes besides its buffers, taken off that room too:
/// glibc's malloc reserves 64 MiB for each thread's arena (under `ulimit -v 1000000`, `queens
/// count 25 --share 1/2000` aborted on 2 threads with the buffers planned to fit, and ran with
/// `MALLOC_ARENA_MAX=1`, which the CLI now sets under a limit; other callers may not).
pub(crate) const THREAD_BYTES: u64 = 64 << 20;

/// Bytes one worker's buffers may reach for n with batches of `batch` keys, its tables `wide`
/// or not ([`wide_tables`]): an upper bound from the largest tasks measured, with a margin (see
/// docs/performance.md). Address space, not resident memory: the matcher's rows are taken
/// with room to grow (up to twice a seal's), which an address-space limit counts.
///
/// PERF: three parts, each bounded apart, so that the bound holds at small batches too (until
/// 2026-12-06 it was the batch's part alone: 185 MB a worker planned at n = 25 with 2 M keys a
/// batch, where a worker held 407 MB): the quarter cells and the queries do not shrink with
/// the batch. Measured against the bound (`DAMIER_PEAK_BATCH`
/// of `worker-buffer-peaks`): at n = 25, 407 MB against 519 MB with 2 M keys a batch, 585
/// against 703 with 4 M, 936 against 1.81 GB with 16 M; at n = 24, 220 against 410 (2 M); at
/// n = 23, 179 against 342 (2 M). Without a limit the batch stays [`STORED_KEYS`]: the bound
/// only decides how far a limit shrinks it.
fn worker_bytes(n: u32, batch: usize, wide: bool) -> u64 {
    // The top halves of the largest task: 0.5 M at n = 21 (from 200 random tasks), about 2.7x
    // more per n (12.6 M measured at n = 25, 193 M at 27); a side larger than a batch is made
    // in pieces ([`count_task`]), so a worker holds at most a batch's worth of stored keys and
    // a query chunk's worth of queries, and 8 bytes more a stored key cover slack.
    let halves = 0.5e6 * 2.7f64.powi(n as i32 - 21);
    let key_bytes = if wide { WIDE_BATCH_KEY_BYTES } else { BATCH_KEY_BYTES };
    let stored = halves.min(batch as f64) * (key_bytes + 8) as f64;
    let queries = halves.min(QUERY_CHUNK as f64) * QUERY_KEY_BYTES as f64;
    let cells = CELLS_BYTES_AT_25 * 2.2f64.powi(n as i32 - 25);
    (stored + queries + cells) as u64
}

/// Bytes a count of n needs besides the quarter table: the task list and the workers.
fn base_bytes(n: u32, tasks: usize, threads: usize, batch: usize, wide: bool) -> u64 {
    (tasks * std::mem::size_of::<Task>()) as u64 + threads as u64 * worker_bytes(n, batch, wide)
}

/// The largest batch (a power of two from [`STORED_KEYS`] down to [`MIN_STORED_KEYS`]) whose
/// count fits `limit` bytes, with the bytes it needs; the smallest one's when none fits.
fn batch_for(n: u32, tasks: usize, threads: usize, limit: u64, wide: bool) -> (usize, u64) {
    let mut batch = STORED_KEYS;
    while batch > MIN_STORED_KEYS && base_bytes(n, tasks, threads, batch, wide) > limit {
        batch /= 2;
    }
    (batch, base_bytes(n, tasks, threads, batch, wide))
}

/// Refuses a run of `tasks` tasks of n on the current rayon pool, its tables `wide` or not
/// ([`wide_tables`]; a device's sealing workers' are narrow), that cannot fit `memory` bytes
/// (`None`: no limit) even with the smallest batches: the check [`plan`] makes when the run
/// starts, for a front end to make before it announces the run.
pub(crate) fn check_memory(n: u32, tasks: usize, memory: Option<u64>, wide: bool) -> Result<(), MemoryLimit> {
    let Some(limit) = memory else { return Ok(()) };
    let (_, need) = batch_for(n, tasks, rayon::current_num_threads(), limit, wide);
    check_need(n, need, limit)
}

/// [`MemoryLimit`] when `need` bytes pass `limit`.
fn check_need(n: u32, need: u64, limit: u64) -> Result<(), MemoryLimit> {
    if need > limit { Err(MemoryLimit { n, need, limit }) } else { Ok(()) }
}

// The CPU's slicing of a sealed batch lives here, beside the slicer, rather than in join.rs:
// the join module describes the batch and must not import the engine that makes it.
impl Sealed<'_> {
    /// The rows of every block, block after block, bit-sliced on the CPU: what a device
    /// makes of [`Sealed::keys`] and [`Sealed::blocks`] (a row is 512 bits, 8 words, key
    /// `64 w + i` of the block in bit `i` of word `w`; the bits of keys past a short block's
    /// end are clear).
    pub fn rows(&self) -> Vec<[u64; 8]> {
        let mut rows = Vec::with_capacity(self.blocks.len() * (self.chunks << join::CHUNK));
        for &[at, len] in self.blocks {
            sliced::slice_block_as(
                join::CHUNK,
                &self.keys[at as usize..(at + len) as usize],
                self.chunks,
                &mut rows,
            );
        }
        rows.into_iter().map(|r| r.0).collect()
    }
}

/// The subsets of `mask` (the lowest bits: `2^m - 1`) with `k` elements, in increasing order.
///
/// PERF: each subset from the one before (the next number with as many bits: Gosper's hack),
/// not every subset of `mask` filtered by its size: the task list of n = 20 walked 2^20
/// subsets for 184 756 tasks (31 M instructions, 2% of a share of 1 000).
fn subsets(mask: u32, k: u32) -> impl Iterator<Item = u32> {
    debug_assert_eq!(mask & mask.wrapping_add(1), 0, "the lowest bits");
    let end = u64::from(mask) + 1;
    let mut next = (k <= mask.count_ones()).then(|| (1u64 << k) - 1);
    std::iter::from_fn(move || {
        let x = next?;
        next = (x != 0)
            .then(|| {
                // The lowest run of ones moves up by one, the rest of it back to the bottom.
                let low = x & x.wrapping_neg();
                let up = x + low;
                (((up ^ x) >> 2) >> low.trailing_zeros()) | up
            })
            .filter(|&y| y < end);
        Some(x as u32)
    })
}

/// Appends the keys of every half board on the column sets `cols` (left part, right part):
/// for each way to split the half's `rows` between the two quarters (`splits`: the left
/// quarter's row sets, as many rows as its columns), the pairs of the two cells that share no
/// diagonal. For the measurement aids and tests: a count makes its halves through [`Side`].
#[cfg(any(test, feature = "measure"))]
#[allow(clippy::too_many_arguments)]
fn assemble(
    isa: Isa,
    g: &Geometry,
    source: &Source,
    (left, right): (&mut PlacedCells, &mut PlacedCells),
    cols: (u32, u32),
    rows: u32,
    splits: &[u32],
    keep: u64,
    out: &mut Vec<u64>,
    control: &Control,
) -> Result<(), Interrupted> {
    left.load(g, source, cols.0, control)?;
    right.load(g, source, cols.1, control)?;
    Side { left, right, rows, splits, keep, control }.fill(isa, 0, usize::MAX, out)?;
    Ok(())
}

/// One half board of a task, its two quarters' cells loaded: its keys are produced split by
/// split, so that a side too large to hold is made in pieces ([`count_task`]).
struct Side<'a> {
    left: &'a PlacedCells,
    right: &'a PlacedCells,
    /// The half's rows (local mask).
    rows: u32,
    /// The left quarter's row sets.
    splits: &'a [u32],
    /// The key bits kept (the top halves keep their weight exponent, the bottom ones drop it).
    keep: u64,
    /// Polled before each split.
    control: &'a Control,
}

impl Side<'_> {
    /// Appends the keys of the splits from `from` on, stopping after the split that brings
    /// `out` to `cap` keys or more; returns the next split (`splits.len()` when all are in).
    fn fill(&self, isa: Isa, from: usize, cap: usize, out: &mut Vec<u64>) -> Result<usize, Interrupted> {
        for (i, &r) in self.splits.iter().enumerate().skip(from) {
            if out.len() >= cap {
                return Ok(i);
            }
            self.join(isa, r, out)?;
        }
        Ok(self.splits.len())
    }

    /// Appends the keys of the split giving the left quarter the rows `r`; polls `control`
    /// first.
    #[inline(always)]
    fn join(&self, isa: Isa, r: u32, out: &mut Vec<u64>) -> Result<(), Interrupted> {
        if self.control.cancelled() {
            return Err(Interrupted);
        }
        let l = self.left.cell(r);
        if !l.is_empty() {
            kernel::join(isa, l, self.right.cell(self.rows & !r), self.keep, out);
        }
        Ok(())
    }

    /// Number of keys of the whole side and the key bits any of them holds, made split by
    /// split in `scratch`.
    fn measure(&self, isa: Isa, scratch: &mut Vec<u64>) -> Result<(usize, u64), Interrupted> {
        let (mut total, mut bits) = (0, 0);
        for &r in self.splits {
            scratch.clear();
            self.join(isa, r, scratch)?;
            total += scratch.len();
            bits |= key_bits_of(scratch);
        }
        Ok((total, bits))
    }
}

/// The key bits any of `keys` holds (weight exponents left out).
fn key_bits_of(keys: &[u64]) -> u64 {
    keys.iter().fold(0, |m, &k| m | k) & ((1 << WEIGHT_AT) - 1)
}

/// Most query keys matched at once when the query side of a task does not fit a batch (32 MB
/// of keys; the matcher groups a copy of them).
const QUERY_CHUNK: usize = 1 << 22;

/// Weighted count of the solutions of one task, in bounded memory: both halves are made whole
/// when each fits a batch ([`Work::batch`] keys: nearly every task up to n = 24), else the
/// stored side is made, sealed and matched batch by batch, and the query side made again for
/// each batch, in chunks of [`QUERY_CHUNK`] keys when it is larger than that.
///
/// PERF: making a half (joining the quarters' cells) is about 2% of a task at n = 25, so
/// making the queries again for every batch costs little, and holding neither side whole
/// frees the memory for larger batches: more keys per batch allow more cut bits (25-37% less
/// matching at n = 25 with 16 M keys per batch instead of 4 M).
///
/// Polls `control` all along (between the splits of a half, the groups of a seal, and every
/// few thousand queries of a match: every few milliseconds), so that Ctrl-C stops the largest
/// tasks (minutes each at n = 28) at once, not at their end.
fn count_task(
    g: &Geometry,
    quarters: &Quarters,
    task: Task,
    w: &mut Work,
    control: &Control,
) -> Result<u64, Interrupted> {
    run_task(g, quarters, task, w, &mut Plain, control)
}

/// What the one pipeline of a task ([`run_task`]) lets its caller see and choose: in a count
/// nothing ([`Plain`]: every call compiles away), in an estimate's sampled task which queries
/// are matched and the clock of each part ([`Probe`]).
trait Hook {
    /// The task starts.
    fn start(&mut self) {}
    /// A set of query keys is made: `queries`, the keys from `offset` on of the `total` keys
    /// of the task's query side (all of them, or one chunk; a chunk is made again for each
    /// batch of stored keys, and announced again).
    fn queries(&mut self, _task: Task, _queries: &[u64], _offset: usize, _total: usize) {}
    /// Matches the queries of the last [`Hook::queries`], `queries`, against the sealed batch
    /// of `matcher`: their count, unweighted.
    fn count(
        &mut self,
        isa: Isa,
        matcher: &mut Matcher,
        queries: &[u64],
        control: &Control,
    ) -> Result<u64, Interrupted>;
    /// The task ends with this weighted count (not called when it is interrupted).
    fn finish(&mut self, _count: u64) {}
}

/// The hook of a count: every query matched, nothing timed.
struct Plain;

impl Hook for Plain {
    #[inline(always)]
    fn count(
        &mut self,
        isa: Isa,
        matcher: &mut Matcher,
        queries: &[u64],
        control: &Control,
    ) -> Result<u64, Interrupted> {
        matcher.count(isa, queries, control)
    }
}

/// [`count_task`] with a [`Hook`]: the one pipeline of a task, run by a count ([`Plain`]) and
/// by an estimate's sampled tasks ([`Probe`]) alike, so that a sample is timed on the count's
/// own code and memory path.
fn run_task<H: Hook>(
    g: &Geometry,
    quarters: &Quarters,
    task: Task,
    w: &mut Work,
    hook: &mut H,
    control: &Control,
) -> Result<u64, Interrupted> {
    hook.start();
    let count = match_halves(g, quarters, task, w, hook, control)?;
    hook.finish(count);
    Ok(count)
}

/// The body of [`run_task`]: makes the task's halves and matches them.
fn match_halves<H: Hook>(
    g: &Geometry,
    quarters: &Quarters,
    task: Task,
    w: &mut Work,
    hook: &mut H,
    control: &Control,
) -> Result<u64, Interrupted> {
    let ((top_left, top_right), (bottom_left, bottom_right)) = g.quarter_columns(task.cols);
    let source = &quarters.source;
    let Work {
        top_left: tl,
        top_right: tr,
        bottom_left: bl,
        bottom_right: br,
        matcher,
        top,
        bottom,
        isa,
        batch,
        query_chunk,
        swap,
    } = w;
    let (isa, batch, query_chunk, swap) = (*isa, *batch, *query_chunk, *swap);
    let tl = quarters.left_cells(g, false, tl, top_left, control)?;
    tr.load(g, source, top_right, control)?;
    let top_side = Side {
        left: tl,
        right: tr,
        rows: g.top_rows(),
        splits: &quarters.top_rows[top_left.count_ones() as usize],
        keep: u64::MAX,
        control,
    };
    top.clear();
    let top_whole = top_side.fill(isa, 0, batch, top)? == top_side.splits.len();
    if top.is_empty() && top_whole {
        return Ok(0);
    }
    // Only bottom halves off both long diagonals, without weight (see the module docs).
    let bl = quarters.left_cells(g, true, bl, bottom_left, control)?;
    br.load(g, source, bottom_right, control)?;
    let bottom_side = Side {
        left: bl,
        right: br,
        rows: g.bottom_rows(),
        splits: &quarters.bottom_rows[bottom_left.count_ones() as usize],
        keep: (1 << WEIGHT_AT) - 1,
        control,
    };
    bottom.clear();
    let bottom_whole = bottom_side.fill(isa, 0, batch, bottom)? == bottom_side.splits.len();
    if bottom.is_empty() && bottom_whole {
        return Ok(0);
    }
    // PERF: when the top halves far outnumber the bottom ones (10 to 40 times at odd n, where
    // the top half has one row more), the top halves are stored and the bottom ones query
    // them: more stored keys per batch allow more cut bits, so each query visits a smaller
    // share of the blocks. Otherwise the bottom halves are stored: sealing costs per stored
    // key, and the top halves' weights split their groups.
    if top_whole && bottom_whole {
        let (stored, queries) =
            if stores_top(swap, top.len(), bottom.len()) { (&*top, &*bottom) } else { (&*bottom, &*top) };
        // PERF: the queries' bits only where the tables may be packed on them: most seals of
        // q(18) have too few keys (the OR of its 159 M queries was 0.8% of its samples on AVX2).
        let query_bits = if matcher.may_pack(stored.len()) { key_bits_of(queries) } else { u64::MAX };
        matcher.order_cuts(stored, queries, queries.len(), query_bits);
        hook.queries(task, queries, 0, queries.len());
        matcher.seal(isa, stored, control)?;
        return Ok(hook.count(isa, matcher, queries, control)? * task.weight);
    }
    // A side does not fit a batch: sizes first, then the stored side batch by batch (`top`
    // holds the batch, `bottom` the queries).
    let (top_len, top_bits) = top_side.measure(isa, bottom)?;
    let (bottom_len, bottom_bits) = bottom_side.measure(isa, bottom)?;
    let (stored_side, query_side, queries_len, query_bits) = if stores_top(swap, top_len, bottom_len) {
        (&top_side, &bottom_side, bottom_len, bottom_bits)
    } else {
        (&bottom_side, &top_side, top_len, top_bits)
    };
    let queries_whole = queries_len <= query_chunk;
    // The queries whole, or their first chunk (a sample for ordering the cut bits).
    bottom.clear();
    query_side.fill(isa, 0, if queries_whole { usize::MAX } else { query_chunk }, bottom)?;
    if queries_whole {
        hook.queries(task, bottom, 0, queries_len);
    }
    let (mut total, mut next) = (0, 0);
    while next < stored_side.splits.len() {
        top.clear();
        next = stored_side.fill(isa, next, batch, top)?;
        if top.is_empty() {
            continue;
        }
        matcher.order_cuts(top, bottom, queries_len, query_bits);
        matcher.seal(isa, top, control)?;
        if queries_whole {
            total += hook.count(isa, matcher, bottom, control)?;
            continue;
        }
        let (mut next_query, mut offset) = (0, 0);
        while next_query < query_side.splits.len() {
            bottom.clear();
            next_query = query_side.fill(isa, next_query, query_chunk, bottom)?;
            hook.queries(task, bottom, offset, queries_len);
            offset += bottom.len();
            total += hook.count(isa, matcher, bottom, control)?;
        }
    }
    Ok(total * task.weight)
}

/// What one task's sampled run measured ([`sample_column_sets`]): the parts every query
/// needs run in full, the matching runs for a random sample of the queries.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct TaskSample {
    /// Top halves (queries) of the task.
    pub queries: u64,
    /// Queries matched: all of them when at most the limit, else a random sample that size.
    pub matched: u64,
    /// Clock seconds of the parts run in full: assembling both halves, sealing the stored
    /// keys, drawing the sample.
    pub fixed_seconds: f64,
    /// Clock seconds matching the matched queries against every stored key.
    pub match_seconds: f64,
    /// When the queries were sampled: a first, smaller sample (the first `probe_queries` of
    /// the matched ones, itself uniform) matched alone first, so that the matching time can be
    /// extrapolated along a line rather than scaled (see [`Probe`]); 0 otherwise.
    pub probe_queries: u64,
    /// Clock seconds matching the smaller sample.
    pub probe_seconds: f64,
    /// The matcher's work (rows read, distinct rows read per call; see `Matcher::work`) for the
    /// smaller sample, the sample and all of the task's queries, summed over its batches
    /// (only when the queries were sampled).
    pub work: [(f64, f64); 3],
    /// Weighted count of the matched queries' solutions (times the task's mirror weight).
    pub matched_count: u64,
    /// The order in which the task started among the run's tasks (0 first, the warm-up):
    /// after an interruption, which stops the tasks in flight, the tasks started before the
    /// first that did not finish are a sample that does not lean to short tasks.
    pub started: u64,
}

/// The [`Hook`] of an estimate's sampled task: matches only a uniform random sample of at
/// most `limit` queries, and times the parts run in full and the matching apart (the count of
/// the task is then the sample's).
///
/// A sample's matching time cannot simply be scaled up: only the first read of a row in a
/// matcher call misses the cache, so a sparse sample pays more misses per query (measured at
/// n = 22: 1.7x too much with 4096 of about 250 000 queries, 1.2x with 32 768). So a sampled
/// task also matches the first eighth of its sample alone, and the matcher's work (rows read,
/// distinct rows read per call) is counted for both samples and for all queries, for the
/// estimate to price.
///
/// Where the query side is made in chunks ([`QUERY_CHUNK`]), each chunk gets its share of
/// the sample (a stratified sample, drawn alike each time the chunk is made again).
struct Probe<'a> {
    /// Most queries matched.
    limit: usize,
    /// Seed of the draw (mixed with the task's column set and the chunk's offset, so a draw
    /// does not depend on which thread runs it or what ran before).
    seed: u64,
    /// The clock (seconds, any origin).
    clock: &'a (dyn Fn() -> f64 + Sync),
    found: TaskSample,
    /// The clock when the task started.
    started: f64,
    /// Clock seconds of the probe's own book-keeping (left out of every part).
    bookkeeping: f64,
    /// Whether the task's queries are sampled (more than `limit`).
    sampling: bool,
    /// The sampled queries of the current query set, the smaller sample first (`probe` keys).
    sample: Vec<u64>,
    probe: usize,
    /// Where the query keys announced so far end (a chunk made again is not counted again).
    seen: usize,
}

impl<'a> Probe<'a> {
    fn new(limit: usize, seed: u64, clock: &'a (dyn Fn() -> f64 + Sync), found: TaskSample) -> Self {
        Probe {
            limit,
            seed,
            clock,
            found,
            started: 0.0,
            bookkeeping: 0.0,
            sampling: false,
            sample: Vec::new(),
            probe: 0,
            seen: 0,
        }
    }
}

impl Hook for Probe<'_> {
    fn start(&mut self) {
        self.started = (self.clock)();
    }

    fn queries(&mut self, task: Task, queries: &[u64], offset: usize, total: usize) {
        use rand::SeedableRng;
        self.found.queries = total as u64;
        self.sampling = total > self.limit;
        let (matched, probe) = if self.sampling {
            // This set's share of the `limit` slots of the sample (those before its first key
            // and before its end, in proportion), and of the smaller sample's (the first eighth
            // of the slots, in proportion again: within the set's share, and uniform too).
            let slots = |i: usize| (self.limit as u128 * i as u128 / total as u128) as usize;
            let smaller = |s: usize| (s as u128 * (self.limit / 8) as u128 / self.limit as u128) as usize;
            let (from, to) = (slots(offset), slots(offset + queries.len()));
            let mix = u64::from(task.cols).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ offset as u64;
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(self.seed ^ mix);
            let picked = rand::seq::index::sample(&mut rng, queries.len(), to - from);
            self.sample.clear();
            self.sample.extend(picked.iter().map(|i| queries[i]));
            (to - from, smaller(to) - smaller(from))
        } else {
            (queries.len(), 0)
        };
        self.probe = probe;
        if offset >= self.seen {
            self.seen = offset + queries.len();
            self.found.matched += matched as u64;
            self.found.probe_queries += probe as u64;
        }
    }

    fn count(
        &mut self,
        isa: Isa,
        matcher: &mut Matcher,
        queries: &[u64],
        control: &Control,
    ) -> Result<u64, Interrupted> {
        let matched = if self.sampling { &self.sample[..] } else { queries };
        if self.sampling && self.limit / 8 > 0 {
            // The classes of both samples and of all queries, as this batch's tables pack them.
            let t = (self.clock)();
            let smaller = &matched[..self.probe];
            let classes = [smaller, matched, queries].map(|q| matcher.classes(q));
            for (w, c) in self.found.work.iter_mut().zip(&classes) {
                let (visits, loads) = matcher.work(c);
                *w = (w.0 + visits, w.1 + loads);
            }
            let t2 = (self.clock)();
            self.bookkeeping += t2 - t;
            matcher.count(isa, smaller, control)?;
            self.found.probe_seconds += (self.clock)() - t2;
        }
        let t = (self.clock)();
        let count = matcher.count(isa, matched, control)?;
        self.found.match_seconds += (self.clock)() - t;
        Ok(count)
    }

    fn finish(&mut self, count: u64) {
        let f = &mut self.found;
        let whole = (self.clock)() - self.started;
        f.fixed_seconds = whole - f.match_seconds - f.probe_seconds - self.bookkeeping;
        f.matched_count = count;
    }
}

/// Loads the four quarters' cells of the task on column set `cols` into `w` (the right ones
/// only when `quarters` holds the left ones), as running that task would leave them (see
/// [`SampledTask::previous`]); polls `control`.
fn load_quarters(
    g: &Geometry,
    quarters: &Quarters,
    cols: u32,
    w: &mut Work,
    control: &Control,
) -> Result<(), Interrupted> {
    let ((top_left, top_right), (bottom_left, bottom_right)) = g.quarter_columns(cols);
    quarters.left_cells(g, false, &mut w.top_left, top_left, control)?;
    w.top_right.load(g, &quarters.source, top_right, control)?;
    quarters.left_cells(g, true, &mut w.bottom_left, bottom_left, control)?;
    w.bottom_right.load(g, &quarters.source, bottom_right, control)
}

/// The solutions of n queens (`MIN_N..=MAX_N`) in one share of the tasks, in parallel on the
/// current rayon pool, in at most `memory` bytes (`None`: no limit) besides the program.
pub(crate) fn total(
    n: u32,
    share: Share,
    isa: Isa,
    memory: Option<u64>,
    control: &Control,
) -> Result<u64, CountError> {
    total_in(n, share, isa, memory, true, control)
}

/// [`total`], with the whole quarter table allowed or not (tests force per-task searches).
fn total_in(
    n: u32,
    share: Share,
    isa: Isa,
    memory: Option<u64>,
    table: bool,
    control: &Control,
) -> Result<u64, CountError> {
    debug_assert!((MIN_N..=MAX_N).contains(&n));
    let g = Geometry::new(n);
    let tasks = share_tasks(&g, share);
    let (batch, quarters) = plan(&g, tasks.len(), memory, table, wide_tables(isa), control)?;
    let total = std::sync::atomic::AtomicU64::new(0);
    let run = |t, w: &mut Work| count_task(&g, &quarters, t, w, control);
    for_each_task(&g, isa, batch, &tasks, control, &run, &|_, c, _| {
        total.fetch_add(c, std::sync::atomic::Ordering::Relaxed);
    })?;
    Ok(total.into_inner())
}

/// The batch size and the quarter placements of a run of `tasks` tasks of n on the current
/// rayon pool in `memory` bytes (`None`: no limit) besides the program: the largest batch the
/// workers fit in ([`batch_for`]), and the whole quarter table when `table` allows it, it fits
/// beside them, and the run has at least `2^q` tasks ([`TABLE_MAX_Q`]); else per-task
/// searches. Refused when even the smallest batches do not fit.
///
/// PERF: building the table enumerates every placement of the `q x q` square twice (about 3
/// CPU-s at q = 11 and 30 at q = 12, spread over the pool's workers), while a task's searches
/// enumerate those of its four column sets only, about `4 / 2^q` of them: a run of fewer than
/// `2^q` tasks (a small share, an MPI batch, a sample) is faster without the table.
///
/// Building the table polls `control`.
fn plan(
    g: &Geometry,
    tasks: usize,
    memory: Option<u64>,
    table: bool,
    wide: bool,
    control: &Control,
) -> Result<(usize, Quarters), CountError> {
    let limit = memory.unwrap_or(u64::MAX);
    let (batch, need) = batch_for(g.n, tasks, rayon::current_num_threads(), limit, wide);
    check_need(g.n, need, limit)?;
    let table = table && g.q <= TABLE_MAX_Q && tasks >= 1 << g.q;
    Ok((batch, Quarters::new(g, table, limit - need, control)?))
}

/// Runs `run` on each of `tasks` in parallel on the current rayon pool (one [`Work`] per
/// worker), calling `on_done(i, result, elapsed)` as task `i` finishes; polls `control` between
/// tasks (`run` may poll it within them) and advances it by one per task. The one task loop of
/// [`total`], [`count_column_sets`] and [`sample_column_sets`].
#[allow(clippy::too_many_arguments)]
fn for_each_task<T: Copy + Sync, R>(
    g: &Geometry,
    isa: Isa,
    batch: usize,
    tasks: &[T],
    control: &Control,
    run: &(dyn Fn(T, &mut Work) -> Result<R, Interrupted> + Sync),
    on_done: &(dyn Fn(usize, R, std::time::Duration) + Sync),
) -> Result<(), Interrupted> {
    tasks.par_iter().enumerate().try_for_each_init(
        || {
            let mut w = Work::new(g, isa);
            w.batch = batch;
            w
        },
        |w, (i, &t)| {
            if control.cancelled() {
                return Err(Interrupted);
            }
            let start = crate::clock::Stopwatch::start();
            let r = run(t, w)?;
            on_done(i, r, start.elapsed());
            control.advance(1);
            Ok(())
        },
    )
}

/// Weighted counts of the given column sets `(cols, mirror weight)` of n (`MIN_N..=MAX_N`), in
/// parallel on the current rayon pool with the kernels of `isa`, in `memory` bytes (`None`: no
/// limit; see [`plan`]): `on_done(i, count, elapsed)` as item `i` finishes. Polls `control`
/// between items and advances it by one per item.
pub(crate) fn count_column_sets(
    n: u32,
    column_sets: &[(u32, u64)],
    isa: Isa,
    memory: Option<u64>,
    control: &Control,
    on_done: &(dyn Fn(usize, u64, std::time::Duration) + Sync),
) -> Result<(), CountError> {
    debug_assert!((MIN_N..=MAX_N).contains(&n));
    let g = Geometry::new(n);
    let (batch, quarters) = plan(&g, column_sets.len(), memory, true, wide_tables(isa), control)?;
    let tasks: Vec<Task> = column_sets.iter().map(|&(cols, weight)| Task { cols, weight }).collect();
    let run = |t, w: &mut Work| count_task(&g, &quarters, t, w, control);
    Ok(for_each_task(&g, isa, batch, &tasks, control, &run, on_done)?)
}

/// [`count_column_sets`], the matching of every sealed batch done by `matching` (on another
/// device: [`crate::queens::count::join`]) while the workers of the current rayon pool
/// assemble and seal the tasks' halves: the count's own pipeline ([`run_task`]) with the
/// [`Device`] hook. `matching` answers each batch with a [`Pending`] count, which the worker
/// takes only once it has handed out more than `ahead` batches (the oldest first), or at the
/// end of its share of the tasks: with `ahead` > 0 it seals the next batches (of its task or
/// the next ones) while the device matches the last ones. A task is reported
/// (`on_done(i, count, elapsed)`, the sum of its batches' counts times its weight) once its
/// halves are sealed and all its batches' counts are taken; its `elapsed` is the worker's
/// time on it: sealing it (less the waits for other tasks' batches meanwhile) and waiting
/// for its own batches. The first error of `matching` or of a pending count stops the run
/// and is returned; no task whose matching failed, or that was stopped by another's failure,
/// is reported. The batches hold the stored keys grouped and packed, not sliced (the device
/// slices them: [`Sealed`]), at most `batch_keys` of them when given (tests cut a task's
/// stored side into several batches that way).
#[allow(clippy::too_many_arguments)]
pub(crate) fn count_column_sets_matched<'p, E: From<Interrupted> + From<CountError> + Send>(
    n: u32,
    column_sets: &[(u32, u64)],
    isa: Isa,
    memory: Option<u64>,
    control: &Control,
    ahead: usize,
    batch_keys: Option<usize>,
    matching: &(dyn Fn(&Sealed<'_>) -> Result<Pending<'p, E>, E> + Sync),
    on_done: &(dyn Fn(usize, u64, std::time::Duration) + Sync),
) -> Result<(), E> {
    debug_assert!((MIN_N..=MAX_N).contains(&n));
    let g = Geometry::new(n);
    // The workers hold no sliced rows (the device slices the blocks in `join::CHUNK`-bit
    // chunks), so the narrow tables' bytes bound them whatever `isa`.
    let (batch, quarters) = plan(&g, column_sets.len(), memory, true, false, control)?;
    let tasks: Vec<Task> = column_sets.iter().map(|&(cols, weight)| Task { cols, weight }).collect();
    let failed = std::sync::Mutex::new(None);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let run = Shared { matching, failed: &failed, stop: &stop, ahead, on_done, control };
    // PERF: one fold state per rayon split, as `for_each_task`'s init: a worker's `Work` and
    // the batches it has handed out; each split ends by taking its last counts.
    let counted = tasks
        .par_iter()
        .enumerate()
        .try_fold(
            || {
                let mut work = Work::new(&g, isa);
                work.batch = batch_keys.map_or(batch, |b| b.clamp(1, batch));
                // PERF: the device slices the blocks itself (8 bytes a stored key to send
                // rather than 28 to 44 of rows): the workers only group and pack them.
                work.matcher.slicing = false;
                (work, Flight::default())
            },
            |(mut work, mut flight), (i, &t)| {
                if control.cancelled() {
                    return Err(Interrupted);
                }
                flight.run_task(&g, &quarters, i, t, &mut work, &run)?;
                Ok((work, flight))
            },
        )
        .try_for_each(|state| state.and_then(|(_, mut flight)| flight.finish(&run)));
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(counted?),
    }
}

/// What the workers of [`count_column_sets_matched`] share.
struct Shared<'a, 'p, E> {
    matching: &'a (dyn Fn(&Sealed<'_>) -> Result<Pending<'p, E>, E> + Sync),
    /// The first error, which raises `stop`: every task in flight then ends at its next batch
    /// (as interrupted: the pipeline's error type), so that the run stops soon and reports
    /// none of them.
    failed: &'a std::sync::Mutex<Option<E>>,
    stop: &'a std::sync::atomic::AtomicBool,
    /// Batches a worker leaves pending while it seals on.
    ahead: usize,
    on_done: &'a (dyn Fn(usize, u64, std::time::Duration) + Sync),
    control: &'a Control,
}

impl<E> Shared<'_, '_, E> {
    /// Keeps the first error and stops the run.
    fn fail(&self, e: E) -> Interrupted {
        self.failed.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        Interrupted
    }
}

/// A task of a worker of [`count_column_sets_matched`] not yet reported.
struct Open {
    /// Its place in the run's tasks, and its weight.
    item: usize,
    weight: u64,
    /// Its weighted count so far.
    count: u64,
    /// Its batches handed out whose counts are not yet taken.
    left: usize,
    /// Whether its halves are all made and sealed (no batch of it is to come).
    sealed: bool,
    /// The worker's time on it so far.
    elapsed: std::time::Duration,
}

/// One worker's batches handed out and its tasks not yet reported, oldest first (a batch
/// names its task by a number that counts the worker's tasks).
struct Flight<'p, E> {
    batches: std::collections::VecDeque<(u64, Pending<'p, E>)>,
    tasks: std::collections::VecDeque<Open>,
    /// The number of the first task of `tasks` (or of the next task when it is empty).
    first: u64,
    /// The worker's time spent waiting for counts, in all.
    waited: std::time::Duration,
}

impl<E> Default for Flight<'_, E> {
    fn default() -> Self {
        Flight {
            batches: Default::default(),
            tasks: Default::default(),
            first: 0,
            waited: std::time::Duration::ZERO,
        }
    }
}

impl<'p, E> Flight<'p, E> {
    /// Makes and seals the halves of `task` (item `item`), its batches handed to the device
    /// ([`Device`]), and reports the tasks whose counts are all in.
    fn run_task(
        &mut self,
        g: &Geometry,
        quarters: &Quarters,
        item: usize,
        task: Task,
        work: &mut Work,
        run: &Shared<'_, 'p, E>,
    ) -> Result<(), Interrupted> {
        let start = crate::clock::Stopwatch::start();
        let waited = self.waited;
        self.tasks.push_back(Open {
            item,
            weight: task.weight,
            count: 0,
            left: 0,
            sealed: false,
            elapsed: std::time::Duration::ZERO,
        });
        let own = run_task(g, quarters, task, work, &mut Device { flight: self, run }, run.control)?;
        let sealing = start.elapsed().saturating_sub(self.waited - waited);
        let open = self.tasks.back_mut().expect("the task just opened");
        open.count += own;
        open.sealed = true;
        open.elapsed += sealing;
        self.report(run);
        Ok(())
    }

    /// Hands out a sealed batch of the last task, then takes the oldest counts until at most
    /// `ahead` are pending.
    fn hand_out(&mut self, sealed: &Sealed<'_>, run: &Shared<'_, 'p, E>) -> Result<(), Interrupted> {
        let pending = (run.matching)(sealed).map_err(|e| run.fail(e))?;
        let task = self.first + self.tasks.len() as u64 - 1;
        self.tasks.back_mut().expect("a task in progress").left += 1;
        self.batches.push_back((task, pending));
        while self.batches.len() > run.ahead {
            self.take_oldest(run)?;
        }
        Ok(())
    }

    /// Waits for the oldest pending count and adds it to its task (reporting the tasks then
    /// complete).
    fn take_oldest(&mut self, run: &Shared<'_, 'p, E>) -> Result<(), Interrupted> {
        let Some((task, pending)) = self.batches.pop_front() else { return Ok(()) };
        let start = crate::clock::Stopwatch::start();
        let count = pending.wait();
        let waited = start.elapsed();
        self.waited += waited;
        let count = count.map_err(|e| run.fail(e))?;
        let open = &mut self.tasks[(task - self.first) as usize];
        open.count += count * open.weight;
        open.left -= 1;
        open.elapsed += waited;
        self.report(run);
        Ok(())
    }

    /// Reports the oldest tasks while they are complete.
    fn report(&mut self, run: &Shared<'_, 'p, E>) {
        while self.tasks.front().is_some_and(|t| t.sealed && t.left == 0) {
            let t = self.tasks.pop_front().expect("a front task");
            self.first += 1;
            (run.on_done)(t.item, t.count, t.elapsed);
            run.control.advance(1);
        }
    }

    /// Takes every pending count (the end of a worker's share of the tasks).
    fn finish(&mut self, run: &Shared<'_, 'p, E>) -> Result<(), Interrupted> {
        while !self.batches.is_empty() {
            self.take_oldest(run)?;
        }
        debug_assert!(self.tasks.is_empty(), "every task reported");
        Ok(())
    }
}

/// The [`Hook`] of [`count_column_sets_matched`]: each sealed batch handed, with its queries
/// ([`Matcher::sealed`]), to the run's matching, its count pending in the worker's
/// [`Flight`] (so the task's own count, as [`run_task`] adds it, stays 0).
struct Device<'f, 'a, 'p, E> {
    flight: &'f mut Flight<'p, E>,
    run: &'f Shared<'a, 'p, E>,
}

impl<E> Hook for Device<'_, '_, '_, E> {
    fn count(
        &mut self,
        isa: Isa,
        matcher: &mut Matcher,
        queries: &[u64],
        _control: &Control,
    ) -> Result<u64, Interrupted> {
        if self.run.stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(Interrupted);
        }
        self.flight.hand_out(&matcher.sealed(isa, queries), self.run)?;
        Ok(0)
    }
}

/// One task for [`sample_column_sets`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct SampledTask {
    /// The task's column set.
    pub cols: u32,
    /// Its mirror weight.
    pub weight: u64,
    /// The column set of the task before it in the task list, if any: a count's worker runs
    /// neighbouring tasks one after the other and still holds that task's quarter cells, the
    /// ones they share need no loading, and a sampled task starts from the same state.
    pub previous: Option<u32>,
}

/// Sub-task sampling of the given tasks of n, as
/// [`count_column_sets`] runs them but matching at most `limit` random queries (top halves)
/// per task, drawn with `seed`: `on_done(i, sample)` as item `i` finishes, with the seconds of
/// `clock` spent in each part ([`TaskSample`]). For projecting the cost of tasks too long to
/// run whole: the matching (nearly all of a large task's time) scales with the number of
/// queries, each query costing the same whichever others run with it. A sampled task runs
/// the count's own pipeline ([`run_task`] with a [`Probe`]), in the same bounded memory, its
/// halves made batch by batch where a count makes them so; with `limit = usize::MAX` every
/// task runs whole as [`count_column_sets`] runs it, timed as one part (`match_seconds`).
///
/// The first item runs alone, before the others start in parallel on the current rayon pool
/// (a warm-up a caller can count as set-up, timed on one thread even on a larger pool).
/// Before each item, untimed, the worker loads the quarter cells of its `previous` task.
/// Returns the `clock` seconds of building the quarter table, on the calling thread.
///
/// PERF (of the measure): a count runs its tasks in the list's order, and neighbours share
/// quarter column sets, whose cells stay loaded; sampled tasks are far apart. Without the
/// previous task loaded, a sampled task of n = 18 cost 1.2x what it costs in a count (its
/// four quarters converted every time), and the sample's order changed the figure (sorted
/// samples share more quarters than shuffled ones).
#[allow(clippy::too_many_arguments)]
pub(crate) fn sample_column_sets(
    n: u32,
    column_sets: &[SampledTask],
    isa: Isa,
    limit: usize,
    seed: u64,
    clock: &(dyn Fn() -> f64 + Sync),
    control: &Control,
    on_done: &(dyn Fn(usize, TaskSample) + Sync),
) -> Result<f64, CountError> {
    debug_assert!((MIN_N..=MAX_N).contains(&n));
    let g = Geometry::new(n);
    // Within the address-space limit where one is set, as a count plans within its room: the
    // batches shrink to fit it, and a sample that cannot fit even so is refused (with batches
    // of STORED_KEYS whatever the limit, `queens estimate 25` aborted under a 600 MB one, 26
    // under 1 GB, and so did the projection before a count).
    let (batch, room) = match crate::util::address_space_limit() {
        Some(limit) => {
            let (batch, need) =
                batch_for(n, column_sets.len(), rayon::current_num_threads(), limit, wide_tables(isa));
            check_need(n, need, limit)?;
            (batch, limit - need)
        }
        None => (STORED_KEYS, u64::MAX),
    };
    let table_start = clock();
    // The whole table up to q = 11 (0.55 GB), as a whole count uses it, so that the sample
    // is timed as the count would run; beyond, per-task searches (the 4.9 GB table of q = 12
    // would dwarf a sample of a few tasks).
    let quarters = Quarters::new(&g, g.q <= 11, room, control)?;
    let table_seconds = (clock() - table_start).max(0.0);
    // Tasks in flight stop at `control`'s next poll, within milliseconds; they are more likely
    // long ones, so a caller keeping the tasks that finished keeps those started before the
    // first one that did not (see `TaskSample::started`).
    let started = std::sync::atomic::AtomicU64::new(0);
    let run = |item: SampledTask, w: &mut Work| {
        let order = started.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(previous) = item.previous {
            load_quarters(&g, &quarters, previous, w, control)?;
        }
        let t = Task { cols: item.cols, weight: item.weight };
        if limit == usize::MAX {
            // Whole tasks: timed as a count runs them, in its bounded memory (a task's halves
            // are made batch by batch when they do not fit one: 1.5 GB of top halves alone in
            // the largest tasks of n = 27, about 4 GB at 28).
            let start = clock();
            let count = count_task(&g, &quarters, t, w, control)?;
            return Ok(TaskSample {
                match_seconds: clock() - start,
                matched_count: count,
                started: order,
                ..TaskSample::default()
            });
        }
        let found = TaskSample { started: order, ..TaskSample::default() };
        let mut probe = Probe::new(limit, seed, clock, found);
        run_task(&g, &quarters, t, w, &mut probe, control)?;
        Ok(probe.found)
    };
    let (first, rest) = column_sets.split_at(column_sets.len().min(1));
    for_each_task(&g, isa, batch, first, control, &run, &|i, found, _| on_done(i, found))?;
    let rest_done = |i, found, _| on_done(i + first.len(), found);
    for_each_task(&g, isa, batch, rest, control, &run, &rest_done)?;
    Ok(table_seconds)
}

/// Number of tasks (progress units) for n and this share, counted without listing them: a
/// check of the memory a count needs costs nothing beside the count.
pub(crate) fn task_count(n: u32, share: Share) -> u64 {
    share.len_of(column_sets(n))
}

#[cfg(feature = "measure")]
pub mod measure;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod subset_tests {
    proptest::proptest! {
        /// The subsets of the lowest bits of each size, each from the one before, are those of
        /// a walk through every subset, in the same order.
        #[test]
        fn subsets_of_one_size_are_those_of_every_subset(bits in 0u32..=16, k in 0u32..=17) {
            let mask = (1u32 << bits) - 1;
            let want: Vec<u32> = (0..=mask).filter(|x| x.count_ones() == k).collect();
            proptest::prop_assert_eq!(super::subsets(mask, k).collect::<Vec<_>>(), want);
        }
    }
}
