//! The join kernel's pipeline (docs/gpu.md, "The pipeline"): a ring of device buffer sets
//! (*slots*) kept across batches, and one submitting thread fed by all the sealing workers.
//!
//! A worker that has sealed a batch takes a free slot (growing its buffers when the batch is
//! larger than any before: buffers and bind groups are made only then), writes the batch into
//! it (the stored keys as grouped and packed, their blocks, the queries and pairs: the rows
//! are made on the device), and hands the submitter *jobs* of at most [`JOB_DISPATCHES`]
//! dispatches each, the first job of a batch with its *seal*: a pass of `seal.wgsl` that
//! bit-slices the blocks into the slot's rows before the join's dispatches, in the same
//! submission. The submitter encodes a job's dispatches in one compute pass, submits it, maps its read-back
//! buffer asynchronously and goes on taking jobs while the GPU runs; it polls the device for
//! the oldest job in flight, checks each finished job (fault bits, units done) and answers
//! its worker. As many jobs are in flight as workers hold slots.
//!
//! Every dispatch of a job has its own 512-byte *record* in the slot's parameter and state
//! buffers, bound at that offset by the record's bind group (made with the slot's buffers),
//! so the kernel and its checks are the same as for one dispatch at a time. With a slot per
//! tile (the default: [`crate::JoinKernel::tile_sums`]) each join dispatch is followed, in
//! the same pass, by a reduce dispatch (`join_reduce.wgsl`) that adds its tiles' slots (the
//! slot's `partials`, reused by each dispatch) into its record's partial sums: one range of
//! tiles each, a merged batch's tiles each in a merge.
//!
//! It also adds to the count's [`Breakdown`](crate::Breakdown): where the time went.

use std::collections::VecDeque;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use damier::control::{Control, Interrupted};
use damier::queens::count::join::{BLOCK, ROWS_PER_CHUNK};

use crate::device::{DISPATCH_TIMEOUT, FAULT_CUT, FAULT_OVERFLOW, Gpu, one_line};
use crate::error::GpuError;
use crate::packing::{ENTRY_BYTES, Packing};
pub(crate) use crate::pairs::PAIR_WORDS;
use crate::pairs::{PAIR_PARAM_BYTES, PairPacking};
use crate::stats::{Sent, add_time};

/// Most dispatches of one job. A job's dispatches are submitted together, so a worker sees
/// Ctrl-C within about this many dispatches (of about 50 ms each).
pub(crate) const JOB_DISPATCHES: usize = 8;

/// Partial sums of a dispatch: the kernels' `SUM_SLOTS` (each a `Control` of 4 words; both in
/// `src/prelude.wgsl`).
pub(crate) const SUM_SLOTS: usize = 32;

/// Chunks of a key at most (the kernels' `MAX_CHUNKS`): 60 key bits in chunks of 5.
pub(crate) const MAX_CHUNKS: usize = 12;

/// Bytes of one dispatch's record in the parameter and state buffers: a multiple of the
/// largest offset alignment of a binding that wgpu allows (256, so of every adapter's), and
/// room for the kernel's partial sums.
const RECORD: u64 = 512;

/// Bytes of the kernel's `Params` and its `control` array as bound.
const PARAM_BYTES: u64 = 32;
const STATE_BYTES: u64 = 16 * SUM_SLOTS as u64;

/// Where the reduce pass's parameters lie in a record of the parameter buffer (the end of
/// each partial sum's range of tiles: one `u32` each), and their bytes.
const RANGES_AT: u64 = 256;
const RANGES_BYTES: u64 = 4 * SUM_SLOTS as u64;

/// Bytes of a tile's slot (`join_out_tile.wgsl`: its sum, its units and faults).
const TILE_SLOT_BYTES: u64 = 8;

/// Usage of a slot's data buffers: bound, written, and copied from into a merge slot.
const DATA_USAGE: wgpu::BufferUsages =
    wgpu::BufferUsages::STORAGE.union(wgpu::BufferUsages::COPY_DST).union(wgpu::BufferUsages::COPY_SRC);

/// Slots of the submitter's own in which small batches are gathered, one dispatch for all
/// (each busy until its dispatch is read back).
const MERGE_SLOTS: usize = 3;

/// The word of a pair holding its weight exponent (bits 0-7) and, for a batch gathered with
/// others, its place among them (bits 8-15) and the mark [`MERGED`].
const SHIFT_WORD: usize = 6;
pub(crate) const MERGED: u32 = 1 << 16;

/// Where the read-back buffer holds the timestamps of a job's pass (two `u64`).
const STAMPS_AT: u64 = JOB_DISPATCHES as u64 * RECORD;

/// A device buffer and its size, grown when a batch needs more.
#[derive(Debug)]
struct Grown {
    buffer: wgpu::Buffer,
    size: u64,
}

/// The device buffers of one batch in flight, and the bind group of each dispatch record.
#[derive(Debug)]
pub(crate) struct Slot {
    /// The blocks' rows, written by the seal pass (never uploaded).
    rows: Grown,
    /// The queries, written out by the unpack pass (never uploaded).
    queries: Grown,
    /// The stored keys, written out by the unpack pass (never uploaded; the seal pass reads
    /// the blocks', the join kernel the tails').
    keys: Grown,
    /// The stored keys and queries as uploaded, packed (`packing`), and the unpack pass's
    /// entries.
    packed: Grown,
    unpacks: Grown,
    /// The packed bytes made on the host before their upload (kept: no allocation a batch).
    packing: Vec<u8>,
    /// The blocks: `[first key, keys | partial sum << 16]`.
    blocks: Grown,
    /// The pairs as the kernel reads them, written out by the pairs pass (uploaded only by
    /// a merge).
    pairs: Grown,
    /// The pairs as uploaded, packed (`pairs.rs`), the words made on the host before their
    /// upload (kept: no allocation a batch), and the pairs pass's parameters and bind group.
    packed_pairs: Grown,
    pair_words: Vec<u32>,
    pair_params: wgpu::Buffer,
    pairs_bind: Option<wgpu::BindGroup>,
    /// A slot per tile of a dispatch (with [`crate::JoinKernel::tile_sums`]; unused and small
    /// otherwise), reused by each dispatch after its reduce has read it and cleared it, and
    /// cleared before each job (a reduce that failed cleared nothing).
    partials: Grown,
    params: wgpu::Buffer,
    state: wgpu::Buffer,
    /// The seal pass's parameters (`seal.wgsl`'s `Params`), and its bind group (the state of
    /// record 0: its units and faults go with the first dispatch's).
    seal_params: wgpu::Buffer,
    seal_bind: Option<wgpu::BindGroup>,
    /// The unpack pass's bind group (its parameters in the seal's, the state of record 0).
    unpack_bind: Option<wgpu::BindGroup>,
    readback: wgpu::Buffer,
    /// Two timestamps (a job's pass begins, ends) and the buffer they resolve into.
    stamps: Option<(wgpu::QuerySet, wgpu::Buffer)>,
    binds: Vec<wgpu::BindGroup>,
    /// The reduce pass's bind group of every record (with tile sums).
    reduce_binds: Vec<wgpu::BindGroup>,
}

impl Slot {
    fn new(gpu: &Gpu) -> Slot {
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let grown = |label: &str| Grown { buffer: gpu.blank(label, 64, DATA_USAGE), size: 64 };
        let records = JOB_DISPATCHES as u64 * RECORD;
        let stamps = gpu.timestamps.then(|| {
            let set = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("join pass times"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            });
            let resolve = gpu.blank(
                "join pass times resolved",
                16,
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            );
            (set, resolve)
        });
        let mut slot = Slot {
            rows: grown("join rows"),
            queries: grown("join queries"),
            keys: grown("join keys"),
            packed: grown("join packed keys"),
            unpacks: grown("join unpacking"),
            packing: Vec::new(),
            blocks: grown("join blocks"),
            pairs: grown("join pairs"),
            packed_pairs: grown("join packed pairs"),
            pair_words: Vec::new(),
            pair_params: gpu.blank(
                "join pairs params",
                PAIR_PARAM_BYTES,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            pairs_bind: None,
            partials: grown("join tile sums"),
            params: gpu.blank(
                "join params",
                records,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            state: gpu.blank("join control", records, storage | wgpu::BufferUsages::COPY_SRC),
            seal_params: gpu.blank(
                "join seal params",
                PARAM_BYTES,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            seal_bind: None,
            unpack_bind: None,
            readback: gpu.blank(
                "join readback",
                records + 16,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            stamps,
            binds: Vec::new(),
            reduce_binds: Vec::new(),
        };
        slot.rebind(gpu);
        slot
    }

    /// The bind group of every record: the parameters and state at its offset, the data whole.
    fn rebind(&mut self, gpu: &Gpu) {
        let layout = gpu.join_pipeline.get_bind_group_layout(0);
        let part = |buffer, offset, size| {
            wgpu::BindingResource::Buffer(wgpu::BufferBinding { buffer, offset, size: NonZeroU64::new(size) })
        };
        let tile_sums = gpu.join_kernel.tile_sums;
        self.binds = (0..JOB_DISPATCHES as u64)
            .map(|k| {
                let out = if tile_sums {
                    self.partials.buffer.as_entire_binding()
                } else {
                    part(&self.state, k * RECORD, STATE_BYTES)
                };
                let entries = [
                    part(&self.params, k * RECORD, PARAM_BYTES),
                    self.rows.buffer.as_entire_binding(),
                    self.queries.buffer.as_entire_binding(),
                    // The tails are read where the keys lie.
                    self.keys.buffer.as_entire_binding(),
                    self.pairs.buffer.as_entire_binding(),
                    out,
                ];
                gpu.bind_resources("join", &layout, entries)
            })
            .collect();
        self.reduce_binds = match &gpu.reduce_pipeline {
            Some(reduce) => {
                let layout = reduce.get_bind_group_layout(0);
                (0..JOB_DISPATCHES as u64)
                    .map(|k| {
                        let entries = [
                            part(&self.params, k * RECORD + RANGES_AT, RANGES_BYTES),
                            self.partials.buffer.as_entire_binding(),
                            part(&self.state, k * RECORD, STATE_BYTES),
                        ];
                        gpu.bind_resources("join sums", &layout, entries)
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        let layout = gpu.seal_pipeline.get_bind_group_layout(0);
        let entries = [
            self.seal_params.as_entire_binding(),
            self.keys.buffer.as_entire_binding(),
            self.blocks.buffer.as_entire_binding(),
            self.rows.buffer.as_entire_binding(),
            part(&self.state, 0, STATE_BYTES),
        ];
        self.seal_bind = Some(gpu.bind_resources("join seal", &layout, entries));
        let layout = gpu.unpack_pipeline.get_bind_group_layout(0);
        let entries = [
            self.seal_params.as_entire_binding(),
            self.packed.buffer.as_entire_binding(),
            self.unpacks.buffer.as_entire_binding(),
            self.keys.buffer.as_entire_binding(),
            self.queries.buffer.as_entire_binding(),
            part(&self.state, 0, STATE_BYTES),
        ];
        self.unpack_bind = Some(gpu.bind_resources("join unpack", &layout, entries));
        let layout = gpu.pairs_pipeline.get_bind_group_layout(0);
        let entries = [
            self.pair_params.as_entire_binding(),
            self.packed_pairs.buffer.as_entire_binding(),
            self.pairs.buffer.as_entire_binding(),
            part(&self.state, 0, STATE_BYTES),
        ];
        self.pairs_bind = Some(gpu.bind_resources("join pairs", &layout, entries));
    }

    /// Writes a batch's data: its stored keys `keys` and queries `queries` packed (`packing`,
    /// theirs) with their unpacking entries, and its blocks (`blocks`, whole words); grows the
    /// buffers it outgrows, the rows buffer to `rows` bytes (the seal pass fills it), the keys
    /// and queries buffers to hold them unpacked (the unpack pass fills them). The bytes are
    /// counted by what they are. Returns the unpacking entries. (Its pairs: [`Slot::load_pairs`].)
    pub(crate) fn load(
        &mut self,
        gpu: &Gpu,
        rows: u64,
        packing: &Packing,
        (keys, queries): (&[u64], &[u64]),
        blocks: &[u8],
    ) -> u32 {
        let unpacks = packing.entries(0, (0, 0), 0);
        let packed = packing.bytes();
        let unpacked = |n: usize| 8 * n as u64;
        // The packed bytes with a word to spare: the unpack pass reads an element's words.
        self.reserve(
            gpu,
            [
                rows,
                unpacked(queries.len()),
                unpacked(keys.len()),
                blocks.len() as u64,
                0,
                0,
                packed + 8,
                ENTRY_BYTES * unpacks.len() as u64,
                0,
            ],
        );
        self.packing.resize(packed as usize, 0);
        packing.write(&mut self.packing, keys, queries);
        let writes = [
            (&self.packed, &self.packing[..]),
            (&self.unpacks, bytemuck::cast_slice(&unpacks)),
            (&self.blocks, blocks),
        ];
        for (g, d) in writes {
            if !d.is_empty() {
                gpu.queue.write_buffer(&g.buffer, 0, d);
            }
        }
        gpu.stats.sent(Sent::Keys, packing.key_bytes());
        gpu.stats.sent(Sent::Queries, packing.query_bytes());
        gpu.stats.sent(Sent::Blocks, blocks.len() as u64 + ENTRY_BYTES * unpacks.len() as u64);
        unpacks.len() as u32
    }

    /// Writes a group of a batch's pairs (`group`, as the kernel reads them, checked by
    /// [`check_group`]) over the last group's (whose jobs are done): packed, with the pairs
    /// pass's parameters (the batch's `bounds`: the rows of its window, its queries, its
    /// stored keys, the rows of a block, which the pass holds each pair against), or as they
    /// are when that is fewer bytes (a group of a few pairs). Returns the pass's entries (0:
    /// no pass); `Err` when a value does not fit the packing (a fault of the host).
    pub(crate) fn load_pairs(
        &mut self,
        gpu: &Gpu,
        group: &[[u32; PAIR_WORDS]],
        bounds: [usize; 4],
    ) -> Result<u32, String> {
        let p = PairPacking::of(group);
        let packed = p.worth_it() || gpu.pack_every_group && !group.is_empty();
        if !packed {
            let bytes = 32 * group.len() as u64;
            self.reserve(gpu, [0, 0, 0, 0, bytes, 0, 0, 0, 0]);
            if bytes > 0 {
                gpu.queue.write_buffer(&self.pairs.buffer, 0, bytemuck::cast_slice(group));
            }
            gpu.stats.sent(Sent::Pairs, bytes);
            gpu.stats.pairs_sent(group.len());
            return Ok(0);
        }
        self.load_packed_pairs(gpu, group, bounds, &p)
    }

    /// [`Slot::load_pairs`], packed as `p`.
    fn load_packed_pairs(
        &mut self,
        gpu: &Gpu,
        group: &[[u32; PAIR_WORDS]],
        bounds: [usize; 4],
        p: &PairPacking,
    ) -> Result<u32, String> {
        p.write(group, &mut self.pair_words)?;
        let params = pair_params(gpu, p, bounds)?;
        let words = 4 * u64::from(p.words);
        self.reserve(gpu, [0, 0, 0, 0, 32 * group.len() as u64, 0, 0, 0, words]);
        gpu.queue.write_buffer(&self.packed_pairs.buffer, 0, bytemuck::cast_slice(&self.pair_words));
        let entries = p.entries();
        gpu.queue.write_buffer(&self.pair_params, 0, bytemuck::cast_slice(&params));
        gpu.stats.sent(Sent::Pairs, words);
        gpu.stats.sent(Sent::Params, PAIR_PARAM_BYTES);
        gpu.stats.pairs_sent(group.len());
        Ok(entries)
    }

    /// Writes the parameters of the seal pass (blocks `blocks` of the slot's, of `chunks`
    /// chunks) and of the unpack pass before it (`unpacks` entries), and returns the pass
    /// (with the pairs pass of `pairs` entries, loaded by [`Slot::load_pairs`]).
    pub(crate) fn load_seal(
        &self,
        gpu: &Gpu,
        blocks: (u32, u32),
        chunks: u32,
        unpacks: u32,
        pairs: u32,
    ) -> SealPass {
        let count = blocks.1 - blocks.0;
        let max_dim = gpu.limits.max_compute_workgroups_per_dimension.max(1);
        let width = count.clamp(1, max_dim);
        let unpack_width = unpacks.clamp(1, max_dim);
        let params = [blocks.0, blocks.1, chunks, width, unpacks, unpack_width, 0, 0];
        gpu.queue.write_buffer(&self.seal_params, 0, bytemuck::cast_slice(&params));
        gpu.stats.sent(Sent::Params, PARAM_BYTES);
        SealPass {
            groups: (width, count.div_ceil(width)),
            blocks: count,
            unpack_groups: (unpack_width, unpacks.div_ceil(unpack_width)),
            unpacks,
            ..SealPass::pairs(gpu, pairs)
        }
    }

    /// Encodes `seal` (loaded into this slot) into `pass`: the keys and queries written out,
    /// then the blocks sliced (the dispatches of a pass are ordered, each seeing what the
    /// ones before wrote).
    fn seal_in(&self, gpu: &Gpu, pass: &mut wgpu::ComputePass<'_>, seal: SealPass) {
        if seal.unpacks > 0 {
            pass.set_pipeline(&gpu.unpack_pipeline);
            pass.set_bind_group(0, self.unpack_bind.as_ref(), &[]);
            pass.dispatch_workgroups(seal.unpack_groups.0, seal.unpack_groups.1, 1);
        }
        if seal.blocks > 0 {
            pass.set_pipeline(&gpu.seal_pipeline);
            pass.set_bind_group(0, self.seal_bind.as_ref(), &[]);
            pass.dispatch_workgroups(seal.groups.0, seal.groups.1, 1);
        }
        if seal.pairs > 0 {
            pass.set_pipeline(&gpu.pairs_pipeline);
            pass.set_bind_group(0, self.pairs_bind.as_ref(), &[]);
            pass.dispatch_workgroups(seal.pair_groups.0, seal.pair_groups.1, 1);
        }
    }

    /// Grows the rows, queries, keys, blocks, pairs, tile sums, packed keys, unpacking and
    /// packed pairs buffers to hold `bytes` each (their bind groups made again when one grew).
    fn reserve(&mut self, gpu: &Gpu, bytes: [u64; 9]) {
        let binding = gpu.limits.max_storage_buffer_binding_size.min(gpu.limits.max_buffer_size);
        let mut grew = false;
        for ((g, label), len) in [
            (&mut self.rows, "join rows"),
            (&mut self.queries, "join queries"),
            (&mut self.keys, "join keys"),
            (&mut self.blocks, "join blocks"),
            (&mut self.pairs, "join pairs"),
            (&mut self.partials, "join tile sums"),
            (&mut self.packed, "join packed keys"),
            (&mut self.unpacks, "join unpacking"),
            (&mut self.packed_pairs, "join packed pairs"),
        ]
        .into_iter()
        .zip(bytes)
        {
            if len > g.size {
                // PERF: powers of two, so that a few growths serve a whole count.
                let size = len.next_power_of_two().min(binding).max(len);
                g.buffer = gpu.blank(label, size, DATA_USAGE);
                g.size = size;
                grew = true;
            }
        }
        if grew {
            self.rebind(gpu);
        }
    }

    /// Writes the parameters of a job's dispatches, one record each: the join kernel's
    /// `Params` (tiles `p[0]..p[1]`) and the end of each partial sum's range of the
    /// dispatch's tiles (with tile sums: the reduce pass's), growing the tile sums buffer to
    /// hold every tile of each dispatch (what the trusted kernel's stores rely on); their
    /// state is cleared on the device, by the job's submission.
    pub(crate) fn load_params(&mut self, gpu: &Gpu, params: &[([u32; 8], Ranges)]) {
        debug_assert!(params.len() <= JOB_DISPATCHES);
        if gpu.join_kernel.tile_sums {
            let tiles = params.iter().map(|(p, _)| p[1].saturating_sub(p[0])).max().unwrap_or(0);
            self.reserve(gpu, [0, 0, 0, 0, 0, TILE_SLOT_BYTES * u64::from(tiles), 0, 0, 0]);
        }
        // PERF: only the words read (the kernel's parameters, and with tile sums the reduce
        // pass's ranges), not each record's 512 bytes.
        let mut sent = 0;
        for (k, (p, ends)) in params.iter().enumerate() {
            debug_assert_eq!(ends[SUM_SLOTS - 1], p[1] - p[0], "the ranges cover the dispatch's tiles");
            let at = k as u64 * RECORD;
            gpu.queue.write_buffer(&self.params, at, bytemuck::cast_slice(p));
            sent += PARAM_BYTES;
            if gpu.join_kernel.tile_sums {
                gpu.queue.write_buffer(&self.params, at + RANGES_AT, bytemuck::cast_slice(ends));
                sent += RANGES_BYTES;
            }
        }
        gpu.stats.sent(Sent::Params, sent);
    }
}

/// The pairs pass's parameters (`pairs.wgsl`'s `Params`) for a group packed as `p`, in a
/// batch of `bounds` (rows of its window, queries, stored keys, rows of a block).
fn pair_params(gpu: &Gpu, p: &PairPacking, bounds: [usize; 4]) -> Result<[u32; 12], String> {
    let checked = bounds.map(u32::try_from);
    let [Ok(rows), Ok(queries), Ok(tails), Ok(rows_per_block)] = checked else {
        return Err(format!("a batch past the pairs pass's u32 bounds: {bounds:?}"));
    };
    let max_dim = gpu.limits.max_compute_workgroups_per_dimension.max(1);
    let [rb, qb, cb] = p.widths;
    Ok([
        p.pairs,
        p.entries().clamp(1, max_dim),
        (rb | qb << 8 | cb << 16) ^ gpu.pair_widths_flip,
        p.runs,
        p.runs_at,
        p.stream_at,
        rows,
        queries,
        tails,
        rows_per_block,
        0,
        0,
    ])
}

/// The end of each partial sum's range of a dispatch's tiles (range c: `ends[c - 1]..ends[c]`,
/// from 0), the last the dispatch's tiles: what the reduce pass adds into each partial sum.
pub(crate) type Ranges = [u32; SUM_SLOTS];

/// A dispatch's `tiles` cut into [`SUM_SLOTS`] ranges as even as can be (PERF: the reduce
/// pass's 32 workgroups share the work).
pub(crate) fn even_ranges(tiles: u32) -> Ranges {
    std::array::from_fn(|c| (u64::from(tiles) * (c as u64 + 1) / SUM_SLOTS as u64) as u32)
}

/// The slots, and which are free.
#[derive(Debug)]
pub(crate) struct Ring {
    pub(crate) slots: Vec<Mutex<Slot>>,
    free: Mutex<Vec<usize>>,
    freed: Condvar,
    /// Set when the submitter has stopped: nobody answers jobs any more.
    closed: AtomicBool,
    /// The submitter's own slots, into which it gathers small batches (see [`Whole`]).
    merges: Vec<Mutex<Slot>>,
}

impl Ring {
    pub(crate) fn new(gpu: &Gpu, slots: usize) -> Ring {
        let slots = slots.max(1);
        gpu.stats.ring.store(slots as u32, Ordering::Relaxed);
        Ring {
            slots: (0..slots).map(|_| Mutex::new(Slot::new(gpu))).collect(),
            free: Mutex::new((0..slots).rev().collect()),
            freed: Condvar::new(),
            closed: AtomicBool::new(false),
            merges: (0..MERGE_SLOTS).map(|_| Mutex::new(Slot::new(gpu))).collect(),
        }
    }

    /// A free slot, waited for (the wait counted); `None` when cancelled or the submitter
    /// has stopped. The slot is given back when the guard drops.
    pub(crate) fn take<'a>(&'a self, gpu: &Gpu, control: &Control) -> Result<Taken<'a>, GpuError> {
        let start = Instant::now();
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        let slot = loop {
            if let Some(s) = free.pop() {
                break s;
            }
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            if self.closed.load(Ordering::Relaxed) {
                return Err(gpu.fault("the join's submitting thread has stopped".into()));
            }
            free =
                self.freed.wait_timeout(free, Duration::from_millis(50)).unwrap_or_else(|e| e.into_inner()).0;
        };
        add_time(&gpu.stats.wait_ns, start.elapsed());
        Ok(Taken { ring: self, slot })
    }
}

/// A slot taken from the ring, given back on drop.
pub(crate) struct Taken<'a> {
    ring: &'a Ring,
    pub(crate) slot: usize,
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        self.ring.free.lock().unwrap_or_else(|e| e.into_inner()).push(self.slot);
        self.ring.freed.notify_one();
    }
}

/// The seal pass of a job (the first after its slot was loaded): its workgroups (one a
/// block) and its blocks, and before it the unpack pass's workgroups (one an entry) and its
/// entries, then the pairs pass's workgroups (one an entry of up to 512 pairs) and its
/// entries, each block and entry adding one unit to the job's first dispatch (checked with
/// the join's). The first job of a batch's later group of pairs has the pairs pass alone.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SealPass {
    pub(crate) groups: (u32, u32),
    pub(crate) blocks: u32,
    pub(crate) unpack_groups: (u32, u32),
    pub(crate) unpacks: u32,
    pub(crate) pair_groups: (u32, u32),
    pub(crate) pairs: u32,
}

impl SealPass {
    /// The pairs pass of `entries` entries alone.
    pub(crate) fn pairs(gpu: &Gpu, entries: u32) -> SealPass {
        let max_dim = gpu.limits.max_compute_workgroups_per_dimension.max(1);
        let width = entries.clamp(1, max_dim);
        SealPass { pair_groups: (width, entries.div_ceil(width)), pairs: entries, ..SealPass::default() }
    }

    /// Units its workgroups add.
    pub(crate) fn units(&self) -> u64 {
        u64::from(self.blocks) + u64::from(self.unpacks) + u64::from(self.pairs)
    }
}

/// One dispatch of a job: its workgroups, and the units its tiles hold (checked).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dispatch {
    pub(crate) groups: (u32, u32),
    pub(crate) units: u64,
    /// Its tiles, for the messages.
    pub(crate) tiles: (u64, u64),
}

/// A whole batch in one dispatch, small enough that the submitter may gather it with others
/// into one dispatch (issue 50: many tasks per dispatch at small n): what the submitter needs
/// to copy it out of its slot and to rewrite its pairs.
#[derive(Clone, Debug)]
pub(crate) struct Whole {
    /// The pairs as uploaded (running sums of tiles from 0).
    pub(crate) pairs: Vec<[u32; 8]>,
    /// Units and tiles of the batch.
    pub(crate) units: u64,
    pub(crate) tiles: u64,
    /// The kernel's chunks (only batches of the same chunks go together).
    pub(crate) chunks: u32,
    /// Bytes of its rows, queries and keys in its slot (unpacked: 8 bytes a key or query).
    pub(crate) bytes: [u64; 3],
    /// Its keys and queries as packed in its slot (copied into the merge slot, unpacked
    /// there).
    pub(crate) packing: Packing,
    /// Its blocks as uploaded (sealed again in the merge slot, where they are gathered).
    pub(crate) blocks: Vec<[u32; 2]>,
}

/// Up to [`JOB_DISPATCHES`] dispatches of a slot's batch, their records written.
pub(crate) struct Job<'r> {
    pub(crate) slot: usize,
    /// The seal pass run before the dispatches (the first job after the slot was loaded),
    /// its blocks' units counted in the first dispatch's.
    pub(crate) seal: Option<SealPass>,
    pub(crate) dispatches: Vec<Dispatch>,
    pub(crate) reply: SyncSender<Result<u64, GpuError>>,
    /// Set when the job is its whole batch in one dispatch of at most [`MERGE_TILES`] tiles.
    pub(crate) whole: Option<Whole>,
    /// The slot, when the job is its batch's last: given back by the submitter as soon as
    /// the job is read back (its worker may be sealing on, its count pending).
    pub(crate) release: Option<Taken<'r>>,
}

/// Most tiles of a batch the submitter gathers with others, and of one gathered dispatch.
pub(crate) const MERGE_TILES: u64 = 1 << 12;

/// Most batches gathered into one dispatch: the kernel's partial sums, one per batch.
const MERGE_BATCHES: usize = SUM_SLOTS;

/// The slot a submitted job's results are in.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// A worker's slot of the ring: one job.
    Ring(usize),
    /// One of the submitter's merge slots: several whole batches in one dispatch.
    Merge(usize),
}

/// Jobs submitted, their read-back buffer being mapped.
struct Flying<'r> {
    jobs: Vec<Job<'r>>,
    place: Place,
    index: wgpu::SubmissionIndex,
    submitted: Instant,
    mapped: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
}

impl Ring {
    fn slot(&self, place: Place) -> std::sync::MutexGuard<'_, Slot> {
        let m = match place {
            Place::Ring(i) => &self.slots[i],
            Place::Merge(i) => &self.merges[i],
        };
        m.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Gpu {
    /// Hands the submitter a job (its records written); its count comes on the receiver
    /// returned ([`Gpu::job_count`]).
    pub(crate) fn send_job<'r>(
        &self,
        jobs: &SyncSender<Job<'r>>,
        slot: usize,
        seal: Option<SealPass>,
        dispatches: Vec<Dispatch>,
        whole: Option<Whole>,
        release: Option<Taken<'r>>,
    ) -> Result<Receiver<Result<u64, GpuError>>, GpuError> {
        let (reply, answer) = std::sync::mpsc::sync_channel(1);
        jobs.send(Job { slot, seal, dispatches, reply, whole, release }).map_err(|_| self.gone())?;
        Ok(answer)
    }

    /// Waits for a job's count (the wait counted).
    pub(crate) fn job_count(&self, answer: &Receiver<Result<u64, GpuError>>) -> Result<u64, GpuError> {
        let start = Instant::now();
        let r = answer.recv().map_err(|_| self.gone());
        add_time(&self.stats.wait_ns, start.elapsed());
        r?
    }

    /// The error of a job nobody will answer.
    fn gone(&self) -> GpuError {
        self.fault("the join's submitting thread has stopped".into())
    }

    /// Counts the time of a worker's preparation of a batch (packing, copying into the
    /// upload).
    pub(crate) fn upload_time(&self, d: Duration) {
        add_time(&self.stats.upload_ns, d);
    }

    /// The submitting thread: takes jobs from the workers until they have all gone, submits
    /// each at once, and answers each as the GPU finishes it (in submission order).
    pub(crate) fn submitter<'r>(&self, ring: &'r Ring, jobs: Receiver<Job<'r>>) {
        let mut flying: VecDeque<Flying<'r>> = VecDeque::new();
        let mut open = true;
        let mut last_end = Instant::now();
        let mut merge_busy = [false; MERGE_SLOTS];
        // A fault that ended the device for this count: every later job gets it too.
        let mut dead: Option<String> = None;
        loop {
            // Take what the workers have sent (PERF: all of it in one submission); wait for a
            // job only when none is in flight.
            let mut fresh = Vec::new();
            while open {
                let job = if flying.is_empty() && fresh.is_empty() {
                    match jobs.recv() {
                        Ok(j) => j,
                        Err(_) => {
                            open = false;
                            break;
                        }
                    }
                } else {
                    match jobs.try_recv() {
                        Ok(j) => j,
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => {
                            open = false;
                            break;
                        }
                    }
                };
                match &dead {
                    Some(why) => {
                        let _ = job.reply.send(Err(self.fault(why.clone())));
                    }
                    None => fresh.push(job),
                }
            }
            if !fresh.is_empty() {
                let units = self.gather(fresh, &mut merge_busy);
                flying.extend(self.submit(ring, units));
                let jobs_in_flight: usize = flying.iter().map(|f| f.jobs.len()).sum();
                self.stats.most_in_flight.fetch_max(jobs_in_flight as u32, Ordering::Relaxed);
            }
            let Some(head) = flying.front() else {
                if open {
                    continue;
                }
                ring.closed.store(true, Ordering::Relaxed);
                return;
            };
            // Wait for the oldest job, briefly, so that new jobs are taken meanwhile.
            let waited = self.device.poll(wgpu::PollType::Wait {
                submission_index: Some(head.index.clone()),
                timeout: Some(Duration::from_millis(20)),
            });
            let most = head.jobs.iter().map(|j| j.dispatches.len()).max().unwrap_or(1);
            let overdue = head.submitted.elapsed() > DISPATCH_TIMEOUT * most as u32;
            let fault = match waited {
                Ok(_) => None,
                Err(wgpu::PollError::Timeout) if !overdue => continue,
                Err(e) => Some(format!("waiting for a dispatch: {}", one_line(&e.to_string()))),
            };
            let fault = fault.or_else(|| {
                let unmapped = head.mapped.lock().unwrap_or_else(|e| e.into_inner()).is_none();
                (unmapped && overdue).then(|| "reading results back: the map never completed".to_string())
            });
            if let Some(why) = fault {
                for f in flying.drain(..) {
                    for j in f.jobs {
                        let _ = j.reply.send(Err(self.fault(why.clone())));
                    }
                }
                dead = Some(why);
                continue;
            }
            while let Some(f) = flying.front() {
                if f.mapped.lock().unwrap_or_else(|e| e.into_inner()).is_none() {
                    break;
                }
                let f = flying.pop_front().expect("a front");
                if let Place::Merge(m) = f.place {
                    merge_busy[m] = false;
                }
                let answers = self.finish(ring, &f, &mut last_end);
                for (j, r) in f.jobs.into_iter().zip(answers) {
                    // The slot first: its worker may take it at once for its next batch.
                    drop(j.release);
                    let _ = j.reply.send(r);
                }
            }
        }
    }

    /// Cuts the jobs taken at once into what is submitted: the whole small batches of the
    /// same chunks gathered into merge slots that are free (up to [`MERGE_BATCHES`] batches
    /// and [`MERGE_TILES`] tiles each; at least two, else not worth the copies), every other
    /// job on its own. A fixed tile budget (`--gpu-budget`) gathers nothing.
    fn gather<'r>(
        &self,
        fresh: Vec<Job<'r>>,
        merge_busy: &mut [bool; MERGE_SLOTS],
    ) -> Vec<(Place, Vec<Job<'r>>)> {
        let mut out = Vec::new();
        let mut small: Vec<Job<'r>> = Vec::new();
        for j in fresh {
            if j.whole.is_some() && self.settings.budget.is_none() {
                small.push(j);
            } else {
                out.push((Place::Ring(j.slot), vec![j]));
            }
        }
        // Same chunks together (stable: the workers' order otherwise); a gathered dispatch no
        // longer than one of the adapted budget.
        small.sort_by_key(|j| j.whole.as_ref().map_or(0, |w| w.chunks));
        let cap = MERGE_TILES.min(u64::from(self.join_budget()));
        let mut small = small.into_iter().peekable();
        while let Some(first) = small.next() {
            let chunks = first.whole.as_ref().map_or(0, |w| w.chunks);
            let mut tiles = first.whole.as_ref().map_or(0, |w| w.tiles);
            let mut batch = vec![first];
            while let Some(next) = small.peek() {
                let w = next.whole.as_ref().expect("a whole batch");
                if w.chunks != chunks || batch.len() == MERGE_BATCHES || tiles + w.tiles > cap {
                    break;
                }
                tiles += w.tiles;
                batch.push(small.next().expect("peeked"));
            }
            match merge_busy.iter().position(|b| !b) {
                Some(m) if batch.len() >= 2 => {
                    merge_busy[m] = true;
                    self.stats.merged.fetch_add(batch.len() as u64, Ordering::Relaxed);
                    out.push((Place::Merge(m), batch));
                }
                _ => out.extend(batch.into_iter().map(|j| (Place::Ring(j.slot), vec![j]))),
            }
        }
        out
    }

    /// Encodes and submits jobs, in one submission: each job's seal pass (when it has one)
    /// and dispatches in two passes (timed together when the adapter can), its state records
    /// and timestamps copied to its read-back buffer, which is then mapped. A merge first
    /// copies its batches' keys and queries out of their slots into the merge slot (their
    /// blocks and pairs rewritten to the new places, each batch's sums in a partial sum of its
    /// own), seals all their blocks there, then runs them in one dispatch.
    fn submit<'r>(&self, ring: &Ring, units: Vec<(Place, Vec<Job<'r>>)>) -> Vec<Flying<'r>> {
        let mut enc =
            self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("join") });
        for (place, jobs) in &units {
            let mut slot = ring.slot(*place);
            // The dispatches: a ring job's own, or the one of a merge.
            let merged;
            let (seal, dispatches): (Option<SealPass>, &[Dispatch]) = match place {
                Place::Ring(_) => (jobs[0].seal, &jobs[0].dispatches),
                Place::Merge(_) => {
                    let (seal, dispatch) = self.merge(ring, &mut slot, jobs, &mut enc);
                    merged = [dispatch];
                    (Some(seal), &merged)
                }
            };
            let records = dispatches.len() as u64 * RECORD;
            // PERF: the partial sums cleared on the device, not uploaded as zeros.
            enc.clear_buffer(&slot.state, 0, Some(records));
            // The tile sums that the dispatches use, cleared too: a reduce cut short (a fault
            // that fails its job, whose slot is then reused) leaves its tiles' sums in place,
            // which a later job's skipped workgroup would otherwise pass off as its own.
            let tiles = dispatches.iter().map(|d| d.tiles.1 - d.tiles.0).max().unwrap_or(0);
            let tile_bytes = (TILE_SLOT_BYTES * tiles).min(slot.partials.size);
            if self.join_kernel.tile_sums && tile_bytes > 0 {
                enc.clear_buffer(&slot.partials.buffer, 0, Some(tile_bytes));
            }
            if let Some(seal) = seal {
                let timestamp_writes =
                    slot.stamps.as_ref().map(|(set, _)| wgpu::ComputePassTimestampWrites {
                        query_set: set,
                        beginning_of_pass_write_index: Some(0),
                        end_of_pass_write_index: None,
                    });
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("join seal"),
                    timestamp_writes,
                });
                slot.seal_in(self, &mut pass, seal);
            }
            {
                let timestamp_writes =
                    slot.stamps.as_ref().map(|(set, _)| wgpu::ComputePassTimestampWrites {
                        query_set: set,
                        beginning_of_pass_write_index: seal.is_none().then_some(0),
                        end_of_pass_write_index: Some(1),
                    });
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("join"),
                    timestamp_writes,
                });
                for (k, d) in dispatches.iter().enumerate() {
                    pass.set_pipeline(&self.join_pipeline);
                    pass.set_bind_group(0, &slot.binds[k], &[]);
                    pass.dispatch_workgroups(d.groups.0, d.groups.1, 1);
                    // The dispatch's tile slots added into its record's partial sums (and
                    // cleared for the next dispatch) before the next dispatch writes them.
                    if let Some(reduce) = &self.reduce_pipeline {
                        pass.set_pipeline(reduce);
                        pass.set_bind_group(0, &slot.reduce_binds[k], &[]);
                        pass.dispatch_workgroups(SUM_SLOTS as u32, 1, 1);
                    }
                }
            }
            enc.copy_buffer_to_buffer(&slot.state, 0, &slot.readback, 0, records);
            if let Some((set, resolve)) = &slot.stamps {
                enc.resolve_query_set(set, 0..2, resolve, 0);
                enc.copy_buffer_to_buffer(resolve, 0, &slot.readback, STAMPS_AT, 16);
            }
            self.stats.dispatches.fetch_add(dispatches.len() as u64, Ordering::Relaxed);
        }
        let submitted = Instant::now();
        let index = self.queue.submit([enc.finish()]);
        self.stats.submissions.fetch_add(1, Ordering::Relaxed);
        units
            .into_iter()
            .map(|(place, jobs)| {
                let mapped = Arc::new(Mutex::new(None));
                let m = mapped.clone();
                ring.slot(place).readback.map_async(wgpu::MapMode::Read, .., move |r| {
                    *m.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                });
                self.stats.jobs.fetch_add(jobs.len() as u64, Ordering::Relaxed);
                Flying { jobs, place, index: index.clone(), submitted, mapped }
            })
            .collect()
    }

    /// Gathers whole batches into merge slot `slot` (encoded into `enc`: copies of their
    /// packed keys and queries; their blocks, pairs, unpacking entries and the passes'
    /// parameters written), and returns the seal pass that unpacks their keys and queries and
    /// makes all their rows there, and the dispatch that runs them all.
    fn merge(
        &self,
        ring: &Ring,
        slot: &mut Slot,
        jobs: &[Job<'_>],
        enc: &mut wgpu::CommandEncoder,
    ) -> (SealPass, Dispatch) {
        let wholes: Vec<&Whole> = jobs.iter().map(|j| j.whole.as_ref().expect("a whole batch")).collect();
        let sum = |i: usize| wholes.iter().map(|w| w.bytes[i]).sum::<u64>();
        let pair_count: usize = wholes.iter().map(|w| w.pairs.len()).sum();
        let block_count: usize = wholes.iter().map(|w| w.blocks.len()).sum();
        let packed: u64 = wholes.iter().map(|w| w.packing.bytes()).sum();
        let unpack_count: u64 = wholes.iter().map(|w| w.packing.entry_count() as u64).sum();
        let reserve = [
            sum(0),
            sum(1),
            sum(2),
            (block_count * 8) as u64,
            (pair_count * 32) as u64,
            0,
            packed + 8,
            ENTRY_BYTES * unpack_count,
            0,
        ];
        slot.reserve(self, reserve);
        let mut at_packed = 0;
        let mut unpacks: Vec<[u32; 4]> = Vec::with_capacity(unpack_count as usize);
        let (mut at, mut tiles, mut units) = ([0u64; 3], 0u64, 0u64);
        // Each batch's tiles the range of its own partial sum (the ones after: empty).
        let mut ends: Ranges = [0; SUM_SLOTS];
        let mut pairs: Vec<[u32; 8]> = Vec::with_capacity(pair_count);
        let mut blocks: Vec<[u32; 2]> = Vec::with_capacity(block_count);
        for (k, (job, w)) in jobs.iter().zip(&wholes).enumerate() {
            let from = ring.slot(Place::Ring(job.slot));
            let bytes = w.packing.bytes();
            if bytes > 0 {
                enc.copy_buffer_to_buffer(&from.packed.buffer, 0, &slot.packed.buffer, at_packed, bytes);
            }
            drop(from);
            let first_key = (at[2] / 8) as u32;
            // Its keys and queries unpacked where its pairs will read them, the entries' units
            // in its own partial sum.
            unpacks.extend(w.packing.entries(at_packed, (first_key, (at[1] / 8) as u32), k as u32));
            at_packed += bytes;
            // Each batch's seal units in its own partial sum, as its join's.
            blocks.extend(w.blocks.iter().map(|&[key, len]| [key + first_key, len | (k as u32) << 16]));
            for p in &w.pairs {
                let mut p = *p;
                p[0] += (at[0] / 64) as u32;
                p[2] += (at[1] / 8) as u32;
                p[4] += first_key;
                p[SHIFT_WORD] |= MERGED | (k as u32) << 8;
                p[7] += tiles as u32;
                pairs.push(p);
            }
            for (a, b) in at.iter_mut().zip(w.bytes) {
                *a += b;
            }
            tiles += w.tiles;
            units += w.units + w.blocks.len() as u64 + w.packing.entry_count() as u64;
            ends[k..].fill(tiles as u32);
        }
        self.queue.write_buffer(&slot.blocks.buffer, 0, bytemuck::cast_slice(&blocks));
        self.queue.write_buffer(&slot.unpacks.buffer, 0, bytemuck::cast_slice(&unpacks));
        self.queue.write_buffer(&slot.pairs.buffer, 0, bytemuck::cast_slice(&pairs));
        let max_dim = self.limits.max_compute_workgroups_per_dimension.max(1);
        let width = (tiles as u32).min(max_dim);
        let height = (tiles as u32).div_ceil(width);
        let chunks = wholes[0].chunks;
        let params = [0, tiles as u32, pairs.len() as u32, chunks, width, 0, 0, 0];
        debug_assert_eq!(
            check_group(
                &pairs,
                (at[0] / 64) as usize,
                (at[1] / 8) as usize,
                (at[2] / 8) as usize,
                chunks as usize,
                ROWS_PER_CHUNK * chunks as usize
            ),
            Ok(())
        );
        // The pairs written as the kernel reads them (no pairs pass).
        let seal = slot.load_seal(self, (0, blocks.len() as u32), chunks, unpacks.len() as u32, 0);
        slot.load_params(self, &[(params, ends)]);
        let again = 32 * pairs.len() as u64 + 8 * blocks.len() as u64 + ENTRY_BYTES * unpacks.len() as u64;
        self.stats.sent(Sent::Gathered, again);
        (seal, Dispatch { groups: (width, height), units, tiles: (0, tiles) })
    }

    /// The counts of finished jobs, one answer each: each dispatch's faults and units
    /// checked (of a merge, each batch's in its own partial sum), the time counted (and the
    /// dispatch budget adapted to it).
    fn finish(&self, ring: &Ring, f: &Flying<'_>, last_end: &mut Instant) -> Vec<Result<u64, GpuError>> {
        let now = Instant::now();
        let wall = now.saturating_duration_since(f.submitted.max(*last_end));
        *last_end = now;
        let dispatches = match f.place {
            Place::Ring(_) => f.jobs[0].dispatches.len(),
            Place::Merge(_) => 1,
        };
        let mapped = f.mapped.lock().unwrap_or_else(|e| e.into_inner()).take();
        let slot = ring.slot(f.place);
        let read = match mapped {
            Some(Ok(())) => {
                let read = slot
                    .readback
                    .get_mapped_range(..)
                    .map(|view| {
                        let word = |at: usize| {
                            u32::from_le_bytes([view[at], view[at + 1], view[at + 2], view[at + 3]])
                        };
                        // Each dispatch's partial sums: (lo, hi, fault, units) words.
                        let records: Vec<Vec<[u32; 4]>> = (0..dispatches)
                            .map(|k| {
                                (0..SUM_SLOTS)
                                    .map(|i| {
                                        let at = k * RECORD as usize + 16 * i;
                                        [word(at), word(at + 4), word(at + 8), word(at + 12)]
                                    })
                                    .collect()
                            })
                            .collect();
                        let at = STAMPS_AT as usize;
                        let stamp = |at: usize| u64::from(word(at)) | u64::from(word(at + 4)) << 32;
                        (records, (stamp(at), stamp(at + 8)))
                    })
                    .map_err(|e| self.fault(format!("reading results back: {e}")));
                // Unmapped in every case: the slot serves the next batch.
                slot.readback.unmap();
                read
            }
            Some(Err(e)) => Err(self.fault(format!("reading results back: {e}"))),
            None => Err(self.fault("reading results back: the map never completed".into())),
        };
        drop(slot);
        let (records, stamps) = match self.check("running the join kernel").and(read) {
            Ok(r) => r,
            Err(e) => {
                let why = e.to_string();
                return f.jobs.iter().map(|_| Err(self.fault(why.clone()))).collect();
            }
        };
        let busy = if self.timestamps {
            let ticks = stamps.1.saturating_sub(stamps.0);
            Duration::from_nanos((ticks as f64 * f64::from(self.queue.get_timestamp_period())) as u64)
        } else {
            wall
        };
        add_time(&self.stats.busy_ns, busy);
        self.adapt_join_budget(busy / dispatches.max(1) as u32);
        match f.place {
            Place::Ring(_) => {
                let mut total = Ok(0u64);
                for (d, sums) in f.jobs[0].dispatches.iter().zip(&records) {
                    total = total.and_then(|t: u64| {
                        let c = self.tally(sums, d.units, d.tiles)?;
                        t.checked_add(c).ok_or(GpuError::Overflow { adapter: self.adapter.name.clone() })
                    });
                }
                vec![total]
            }
            Place::Merge(_) => f
                .jobs
                .iter()
                .enumerate()
                .map(|(k, j)| {
                    let w = j.whole.as_ref().expect("a whole batch");
                    let units = w.units + w.blocks.len() as u64 + w.packing.entry_count() as u64;
                    self.tally(&records[0][k..k + 1], units, (0, w.tiles))
                })
                .collect(),
        }
    }

    /// The count in partial sums `sums` of a dispatch (or of one batch of a merge) that
    /// should have done `units` units: its fault bits and units checked.
    fn tally(&self, sums: &[[u32; 4]], units: u64, tiles: (u64, u64)) -> Result<u64, GpuError> {
        let fault = sums.iter().fold(0, |f, s| f | s[2]);
        let done: u64 = sums.iter().map(|s| u64::from(s[3])).sum();
        if fault & FAULT_CUT != 0 {
            return Err(GpuError::LoopCut {
                adapter: self.adapter.name.clone(),
                budget: (tiles.1 - tiles.0) as u32,
            });
        }
        if fault & FAULT_OVERFLOW != 0 {
            return Err(GpuError::Overflow { adapter: self.adapter.name.clone() });
        }
        if done != units {
            return Err(self.fault(format!(
                "the join kernel did {done} of {units} units of a dispatch (tiles {}..{})",
                tiles.0, tiles.1
            )));
        }
        let mut total = 0u64;
        for s in sums {
            total = total
                .checked_add(u64::from(s[1]) << 32 | u64::from(s[0]))
                .ok_or(GpuError::Overflow { adapter: self.adapter.name.clone() })?;
        }
        Ok(total)
    }
}

/// Whether the kernel's every read for `group` lies inside the batch's buffers (the proof
/// its trusted module relies on, see `Gpu::open`): each pair's blocks inside the `rows` rows
/// of its window, its queries inside the `queries` keys, its tail inside the `tails` stored keys,
/// and a block's rows the 32 of each of its `chunks` (the kernel's stride); the pair count
/// fits the kernel's `u32`, every pair has units. `Err` names the first pair that does not (a
/// fault of the host, never of the data).
pub(crate) fn check_group(
    group: &[[u32; PAIR_WORDS]],
    rows: usize,
    queries: usize,
    tails: usize,
    chunks: usize,
    rows_per_block: usize,
) -> Result<(), String> {
    if rows_per_block != ROWS_PER_CHUNK * chunks || chunks > MAX_CHUNKS || u32::try_from(group.len()).is_err()
    {
        return Err(format!("{rows_per_block} rows a block of {chunks} chunks, {} pairs", group.len()));
    }
    for (i, e) in group.iter().enumerate() {
        let [row, blocks, query, query_count, tail, tail_len, _, _] = e.map(|w| w as usize);
        let inside = row + blocks * rows_per_block <= rows
            && query + query_count <= queries
            && tail + tail_len <= tails
            && (blocks > 0 || tail_len > 0);
        if !inside {
            return Err(format!(
                "pair {i} {e:?} of a batch of {rows} rows, {queries} queries, {tails} tail keys"
            ));
        }
    }
    Ok(())
}

/// Whether every block of a batch is 1 to 512 of its `keys` stored keys (what the seal pass
/// reads). `Err` names the first block that is not (a fault of the host).
pub(crate) fn check_blocks(blocks: &[[u32; 2]], keys: usize) -> Result<(), String> {
    match blocks
        .iter()
        .position(|&[at, len]| !(1..=BLOCK as u32).contains(&len) || at as usize + len as usize > keys)
    {
        Some(i) => Err(format!("block {i} {:?} of a batch of {keys} stored keys", blocks[i])),
        None => Ok(()),
    }
}

/// What the unpack and seal passes made of a batch, read back (a test's).
#[cfg(test)]
pub(crate) struct OnDevice {
    /// The blocks' rows.
    pub(crate) rows: Vec<[u64; 8]>,
    /// The stored keys and queries written out.
    pub(crate) keys: Vec<u64>,
    pub(crate) queries: Vec<u64>,
    /// The units and fault bits the passes left in the partial sums of record 0.
    pub(crate) units: u64,
    pub(crate) faults: u32,
}

#[cfg(test)]
impl Gpu {
    /// What the unpack and seal passes make of `keys` cut into `blocks` of `chunks` chunks
    /// and of `queries`, uploaded as a batch's are, read back.
    pub(crate) fn sealed_on_device(
        &self,
        keys: &[u64],
        queries: &[u64],
        blocks: &[[u32; 2]],
        chunks: u32,
    ) -> OnDevice {
        let mut slot = Slot::new(self);
        let rows = 64 * 32 * u64::from(chunks) * blocks.len() as u64;
        let packing = Packing::of(keys, queries);
        let unpacks = slot.load(self, rows, &packing, (keys, queries), bytemuck::cast_slice(blocks));
        let seal = slot.load_seal(self, (0, blocks.len() as u32), chunks, unpacks, 0);
        let (k, q) = (8 * keys.len() as u64, 8 * queries.len() as u64);
        let parts = [(&slot.rows.buffer, rows), (&slot.keys.buffer, k), (&slot.queries.buffer, q)];
        let (view, units, faults) = self.passes_read_back(&slot, seal, &parts);
        // (The bytes copied out of the mapping: aligned to 1 only.)
        let words: Vec<u64> = bytemuck::pod_collect_to_vec(&view);
        let (made, rest) = words.split_at(rows as usize / 8);
        let (keys, queries) = rest.split_at(keys.len());
        OnDevice {
            rows: made.chunks(8).map(|r| std::array::from_fn(|i| r[i])).collect(),
            keys: keys.to_vec(),
            queries: queries.to_vec(),
            units,
            faults,
        }
    }

    /// Runs `seal` (loaded into `slot`) on a cleared state, and reads back the first bytes
    /// of each of `parts` (`(buffer, bytes)`, one after the other) and the units and fault
    /// bits the passes left in the partial sums of record 0.
    fn passes_read_back(
        &self,
        slot: &Slot,
        seal: SealPass,
        parts: &[(&wgpu::Buffer, u64)],
    ) -> (Vec<u8>, u64, u32) {
        let bytes: u64 = parts.iter().map(|p| p.1).sum();
        let usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        let back = self.blank("read back", bytes + STATE_BYTES, usage);
        let mut enc = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        enc.clear_buffer(&slot.state, 0, None);
        {
            let mut pass =
                enc.begin_compute_pass(&wgpu::ComputePassDescriptor { label: None, timestamp_writes: None });
            slot.seal_in(self, &mut pass, seal);
        }
        let mut at = 0;
        for &(from, len) in parts {
            if len > 0 {
                enc.copy_buffer_to_buffer(from, 0, &back, at, len);
            }
            at += len;
        }
        enc.copy_buffer_to_buffer(&slot.state, 0, &back, bytes, STATE_BYTES);
        self.queue.submit([enc.finish()]);
        back.map_async(wgpu::MapMode::Read, .., |r| r.expect("mapped"));
        self.device.poll(wgpu::PollType::wait_indefinitely()).expect("the passes ran");
        self.check("running the passes").expect("no device error");
        let view = back.get_mapped_range(..).expect("a mapped view");
        let state: &[u32] = bytemuck::cast_slice(&view[bytes as usize..]);
        let units = state.chunks(4).map(|c| u64::from(c[3])).sum();
        let faults = state.chunks(4).fold(0, |f, c| f | c[2]);
        (view[..bytes as usize].to_vec(), units, faults)
    }
}

/// What the pairs pass made of a group, read back (a test's).
#[cfg(test)]
pub(crate) struct PairsOnDevice {
    /// The pairs written out.
    pub(crate) pairs: Vec<[u32; PAIR_WORDS]>,
    /// The units and fault bits the pass left in the partial sums.
    pub(crate) units: u64,
    pub(crate) faults: u32,
}

#[cfg(test)]
impl Gpu {
    /// What the pairs pass makes of `group` loaded as a batch's (in a batch of `bounds`),
    /// read back; `tamper` first changes the packed words and the pass's parameters that are
    /// uploaded (a test of the pass's checks).
    pub(crate) fn pairs_on_device(
        &self,
        group: &[[u32; PAIR_WORDS]],
        bounds: [usize; 4],
        tamper: impl FnOnce(&mut Vec<u32>, &mut [u32; 12]),
    ) -> PairsOnDevice {
        let mut slot = Slot::new(self);
        let p = PairPacking::of(group);
        let entries = slot.load_packed_pairs(self, group, bounds, &p).expect("a group that packs");
        let mut params = pair_params(self, &p, bounds).expect("bounds in u32");
        tamper(&mut slot.pair_words, &mut params);
        self.queue.write_buffer(&slot.packed_pairs.buffer, 0, bytemuck::cast_slice(&slot.pair_words));
        self.queue.write_buffer(&slot.pair_params, 0, bytemuck::cast_slice(&params));
        let parts = [(&slot.pairs.buffer, 32 * group.len() as u64)];
        let (view, units, faults) = self.passes_read_back(&slot, SealPass::pairs(self, entries), &parts);
        let words: Vec<u32> = bytemuck::pod_collect_to_vec(&view);
        PairsOnDevice {
            pairs: words.chunks(PAIR_WORDS).map(|p| std::array::from_fn(|i| p[i])).collect(),
            units,
            faults,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs with running sums of tiles (word 7) as the join sets them: `(key side [row,
    /// blocks, tail, tail_len, shift], first query, query count)` each.
    fn with_tiles(pairs: impl IntoIterator<Item = ([u32; 5], u32, u32)>) -> Vec<[u32; PAIR_WORDS]> {
        let mut tiles = 0u32;
        pairs
            .into_iter()
            .map(|([row, blocks, tail, tail_len, shift], q, c)| {
                tiles += (blocks + u32::from(tail_len > 0)) * c.div_ceil(256);
                [row, blocks, q, c, tail, tail_len, shift, tiles]
            })
            .collect()
    }

    /// The pairs pass writes out what the host packed, at the edges of the widths: fields of
    /// 0 bits (one run, every first query 0), of 32 bits (first queries, rows and tails near
    /// 2^32, counts of 2^31), strides that straddle words (a run index of 11 bits against
    /// fields of 32), entries of 1 to 512 pairs; one unit an entry, no fault.
    #[test]
    fn the_gpu_writes_out_the_pairs_the_host_packed() {
        let gpu = crate::test_adapter::adapter(crate::GpuSettings::default());
        let mut next = crate::test_adapter::stream(0x5851_f42d_4c95_7f2d);
        let wide = [u32::MAX as usize; 3];
        let bounds = |rpb: usize| [wide[0], wide[1], wide[2], rpb];
        let groups: Vec<(Vec<[u32; PAIR_WORDS]>, [usize; 4])> = vec![
            // One run, first queries 0, one query each: widths [0, 0, 1].
            (with_tiles((0..700).map(|_| ([0, 3, 0, 0, 0], 0, 1))), [96, 1, 1, 32]),
            // The widest values: 32 bits each but the run index.
            (
                with_tiles([
                    ([u32::MAX - 64, 1, u32::MAX - 512, 512, 2], u32::MAX - 300, 300),
                    ([0, 0, 1 << 31, 7, 0xffff], 0, 1 << 31),
                    ([1 << 31, 2, 0, 0, 1], 1 << 31, (1 << 31) - 1),
                ]),
                bounds(32),
            ),
            // Each pair its own run (11 bits), first queries of 32 bits: a stride of 56 bits.
            (
                with_tiles((0..1100u32).map(|i| {
                    let q = (next() as u32 | 1 << 31).min(u32::MAX - 5001);
                    ([i * 64, 1 + i % 3, i, (i % 5) * 100, i % 3], q, 1 + (next() % 5000) as u32)
                })),
                [2000 * 64, wide[1], 1600, 64],
            ),
            // Runs of 1 to 9 pairs, widths below 32.
            (
                with_tiles(
                    (0..)
                        .flat_map(|run: u32| {
                            let side = [run * 96, 1 + run % 4, run, run % 2 * 200, 0];
                            let mut next = crate::test_adapter::stream(u64::from(run) + 1);
                            (0..1 + run % 9)
                                .map(move |_| (side, (next() % 100_000) as u32, 1 + (next() % 700) as u32))
                        })
                        .take(2049),
                ),
                [1 << 24, 200_000, 1 << 20, 96],
            ),
        ];
        for (g, bounds) in groups {
            let made = gpu.pairs_on_device(&g, bounds, |_, _| {});
            let p = PairPacking::of(&g);
            assert_eq!(made.pairs, g, "widths {:?}", p.widths);
            assert_eq!((made.units, made.faults), (u64::from(p.entries()), 0), "widths {:?}", p.widths);
        }
    }

    /// Wrong widths, a corrupted stream or entry, and a pair reading past its batch fail the
    /// pass (its fault bit, which fails the count), never write out other pairs silently; a
    /// pair past its batch is written out empty (no reads, no tiles).
    #[test]
    fn wrong_widths_or_a_pair_outside_its_batch_fail_the_pairs_pass() {
        let gpu = crate::test_adapter::adapter(crate::GpuSettings::default());
        let g = with_tiles(
            (0..600u32).map(|i| ([i / 4 * 64, 1, i / 4, (i / 4 % 3) * 100, 1], 7 * i, 1 + i % 300)),
        );
        let bounds = [150 * 64, 5000, 600, 64];
        let ok = gpu.pairs_on_device(&g, bounds, |_, _| {});
        assert_eq!((ok.pairs.as_slice(), ok.units, ok.faults), (g.as_slice(), 2, 0));
        let p = PairPacking::of(&g);
        for field in 0..3 {
            for delta in [-1i32, 1] {
                let made = gpu.pairs_on_device(&g, bounds, |_, params| {
                    let w = (params[2] >> (8 * field)) & 0xff;
                    let w = w.checked_add_signed(delta).unwrap();
                    params[2] = params[2] & !(0xff << (8 * field)) | w << (8 * field);
                });
                assert_eq!(made.faults & FAULT_CUT, FAULT_CUT, "width {field} {delta:+}");
                assert_ne!(made.pairs, g);
            }
        }
        // A bit of the stream, of a run, of an entry's running sum or checksum flipped.
        let at = [p.stream_at as usize + 3, p.runs_at as usize + 5, 0, 1, 3];
        for w in at {
            let made = gpu.pairs_on_device(&g, bounds, |words, _| words[w] ^= 1 << 4);
            assert_eq!(made.faults & FAULT_CUT, FAULT_CUT, "word {w} flipped");
        }
        // Bounds one short of a pair's reads (its rows, queries, tail): written out empty.
        for (k, short) in [(0, 150 * 64 - 1), (1, 7 * 599 + 299), (2, 348)] {
            let mut b = bounds;
            b[k] = short;
            let made = gpu.pairs_on_device(&g, b, |_, _| {});
            assert_eq!(made.faults & FAULT_CUT, FAULT_CUT, "bound {k}");
            // No reads, no tiles: its running sum that of the pair before.
            assert_eq!(made.pairs[599][..7], [0; 7], "bound {k}");
            assert_eq!(made.pairs[599][7], made.pairs[598][7], "bound {k}");
        }
    }

    /// Structured corruptions of the upload that leave every pair inside its batch and every
    /// running sum of tiles right, so that only the entries' checksum can catch them, fail
    /// the pass: the same bit flipped in two words (the top bit of two runs' rows, bit 24 of
    /// two runs' tails), two runs' rows swapped, a run's row and tail swapped. The linear
    /// checksum that the current one replaced let each of these through (its changes cancel
    /// modulo 2^32: 2^31 times an even number, 2^23 times a multiple of 2^9).
    #[test]
    fn structured_corruptions_fail_the_pairs_pass() {
        let gpu = crate::test_adapter::adapter(crate::GpuSettings::default());
        // Every pair its own run (run k = pair k: 600 pairs, two entries): rows k * 64 but
        // run 256's, 2^23; tails k but run 256's, 0; no tail (tail length 0). The bounds
        // wide, so that every corrupted pair still reads inside them.
        let g = with_tiles((0..600u32).map(|k| {
            let (row, tail) = if k == 256 { (1 << 23, 0) } else { (k * 64, k) };
            ([row, 1, tail, 0, 1], 7 * k, 1 + k % 300)
        }));
        let wide = u32::MAX as usize;
        let bounds = [wide, wide, wide, 64];
        let ok = gpu.pairs_on_device(&g, bounds, |_, _| {});
        assert_eq!((ok.pairs.as_slice(), ok.units, ok.faults), (g.as_slice(), 2, 0));
        let runs = PairPacking::of(&g).runs_at as usize;
        // Word w of run r: [row, blocks, tail, tail_len | shift << 16].
        let at = |r: usize, w: usize| runs + 4 * r + w;
        // (What, the words flipped at a bit, or swapped.)
        let corruptions = [
            ("bit 31 of runs 1 and 2's rows", [at(1, 0), at(2, 0)], Some(31)),
            ("bit 24 of runs 0 and 255's tails", [at(0, 2), at(255, 2)], Some(24)),
            ("runs 0 and 256's rows swapped", [at(0, 0), at(256, 0)], None),
            ("run 256's row and tail swapped", [at(256, 0), at(256, 2)], None),
        ];
        let mut missed = Vec::new();
        for (what, [a, b], bit) in corruptions {
            let made = gpu.pairs_on_device(&g, bounds, |words, _| match bit {
                Some(bit) => [a, b].into_iter().for_each(|i| words[i] ^= 1 << bit),
                None => words.swap(a, b),
            });
            assert_ne!(made.pairs, g, "{what}: the pairs written out differ");
            if made.faults & FAULT_CUT == 0 {
                missed.push(what);
            }
        }
        assert!(missed.is_empty(), "not caught: {missed:?}");
    }

    /// The seal pass makes the rows the library's CPU slicing makes (the layout the join
    /// kernel reads), on random keys of every chunk count, in blocks of 1 to 512 keys, with
    /// one unit per block and no fault; and on the batches of real tasks.
    #[test]
    fn the_gpu_seals_the_rows_the_cpu_seals() {
        use damier::queens::count::join::Sealed;
        let gpu = crate::test_adapter::adapter(crate::GpuSettings::default());
        let mut next = crate::test_adapter::stream(0x9e37_79b9_7f4a_7c15);
        for chunks in 1..=12u32 {
            let bits = (5 * chunks).min(60);
            let keys: Vec<u64> = (0..3000).map(|_| next() & next() & ((1u64 << bits) - 1)).collect();
            let mut blocks = Vec::new();
            let mut at = 5u32;
            for len in [512u32, 1, 12, 511, 64, 65, 300, 512] {
                blocks.push([at, len]);
                at += len;
            }
            let sealed =
                Sealed { chunks: chunks as usize, keys: &keys, blocks: &blocks, queries: &[], pairs: vec![] };
            let made = gpu.sealed_on_device(&keys, &[], &blocks, chunks);
            assert_eq!(made.rows, sealed.rows(), "{chunks} chunks");
            assert_eq!(made.keys, keys, "{chunks} chunks");
            let entries = keys.len().div_ceil(512) as u64;
            assert_eq!((made.units, made.faults), (blocks.len() as u64 + entries, 0), "{chunks} chunks");
        }
        let list = damier::queens::count::tasks::TaskList::new(13).unwrap();
        let all: Vec<u32> = (0..list.len()).collect();
        let checked = std::sync::atomic::AtomicUsize::new(0);
        damier::queens::count::tasks::count_tasks_with_matching::<GpuError>(
            &list,
            damier::cpu::Isa::Portable,
            None,
            &all,
            &damier::control::Control::new(),
            &|s| {
                if !s.blocks.is_empty() {
                    let made = gpu.sealed_on_device(s.keys, s.queries, s.blocks, s.chunks as u32);
                    assert_eq!(made.rows, s.rows());
                    assert_eq!((made.keys.as_slice(), made.queries.as_slice()), (s.keys, s.queries));
                    let entries = Packing::of(s.keys, s.queries).entry_count() as u64;
                    assert_eq!((made.units, made.faults), (s.blocks.len() as u64 + entries, 0));
                    checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                Ok(s.count())
            },
            &|_| {},
        )
        .unwrap();
        assert!(checked.into_inner() > 10);
    }

    /// The unpack pass writes out every packed width (4 to 8 bytes: every byte alignment of
    /// an element in the words), the widest key of each (all its bits set), queries of every
    /// weight exponent with the widest key of their width, counts that cross an entry's 512
    /// and leave padding, and queries with an exponent past 3 (sent as they lie): each key
    /// and query as it was, one unit an entry, no fault.
    #[test]
    fn the_gpu_unpacks_every_width_and_exponent() {
        use damier::queens::count::join::WEIGHT_AT;
        let gpu = crate::test_adapter::adapter(crate::GpuSettings::default());
        let mut next = crate::test_adapter::stream(0x2545_f491_4f6c_dd1d);
        let key_bits = (1u64 << WEIGHT_AT) - 1;
        for width in 4..=8u32 {
            let widest = u64::MAX >> (64 - 8 * width);
            for count in [1, 3, 513, 1030] {
                let mut keys: Vec<u64> = (0..count).map(|_| next() & widest).collect();
                for at in [0, count / 2, count - 1] {
                    keys[at] = widest;
                }
                // A query's key and 2 bits of exponent in the width (the key's bits below 60).
                let query_widest = (widest >> 2).min(key_bits);
                let mut queries: Vec<u64> =
                    (0..count + 2).map(|i| next() & query_widest | (i as u64 % 4) << WEIGHT_AT).collect();
                queries[count / 2] = query_widest | 3 << WEIGHT_AT;
                let p = Packing::of(&keys, &queries);
                assert_eq!((p.key_width, p.query_width, p.coded), (width, width, true));
                let made = gpu.sealed_on_device(&keys, &queries, &[], 1);
                assert_eq!((made.keys, made.queries), (keys, queries), "width {width}, {count}");
                assert_eq!((made.units, made.faults), (p.entry_count() as u64, 0));
            }
        }
        let queries: Vec<u64> = (0..700u64).map(|i| next() & key_bits | (i % 16) << WEIGHT_AT).collect();
        let p = Packing::of(&[], &queries);
        assert_eq!((p.query_width, p.coded), (8, false));
        let made = gpu.sealed_on_device(&[], &queries, &[], 1);
        assert_eq!((made.queries, made.units, made.faults), (queries, 2, 0));
    }

    /// The host refuses a block the seal pass would read past its batch's keys for.
    #[test]
    fn a_block_outside_its_batch_is_refused() {
        assert_eq!(check_blocks(&[[0, 512], [512, 12]], 524), Ok(()));
        for bad in [[0, 0], [0, 513], [520, 5]] {
            assert!(check_blocks(&[[0, 4], bad], 524).unwrap_err().starts_with("block 1"), "{bad:?}");
        }
    }

    /// The host's proof for the trusted kernel refuses a pair reading past its batch.
    #[test]
    fn a_pair_outside_its_batch_is_refused() {
        // Blocks of 2 chunks (64 rows); a batch of 3 blocks, 10 queries, 4 tail keys.
        let ok = [0u32, 3, 0, 10, 0, 4, 0, 1];
        assert_eq!(check_group(&[ok], 192, 10, 4, 2, 64), Ok(()));
        for (word, value) in [(0, 1), (1, 4), (2, 1), (3, 11), (4, 1), (5, 5)] {
            let mut bad = ok;
            bad[word] = value;
            assert!(check_group(&[ok, bad], 192, 10, 4, 2, 64).unwrap_err().starts_with("pair 1"), "{bad:?}");
        }
        assert!(check_group(&[[0, 0, 0, 10, 0, 0, 0, 1]], 192, 10, 4, 2, 64).is_err(), "no units");
        assert!(check_group(&[ok], 192, 10, 4, 3, 64).is_err(), "a stride other than the rows'");
    }
}
