//! The join kernel's pipeline (docs/gpu.md, "The pipeline"): a ring of device buffer sets
//! (*slots*) kept across batches, and one submitting thread fed by all the sealing workers.
//!
//! A worker that has sealed a batch takes a free slot (growing its buffers when the batch is
//! larger than any before: buffers and bind groups are made only then), writes the batch into
//! it, and hands the submitter *jobs* of at most [`JOB_DISPATCHES`] dispatches each. The
//! submitter encodes a job's dispatches in one compute pass, submits it, maps its read-back
//! buffer asynchronously and goes on taking jobs while the GPU runs; it polls the device for
//! the oldest job in flight, checks each finished job (fault bits, units done) and answers
//! its worker. As many jobs are in flight as workers hold slots.
//!
//! Every dispatch of a job has its own 512-byte *record* in the slot's parameter and state
//! buffers, bound at that offset by the record's bind group (made with the slot's buffers),
//! so the kernel and its checks are the same as for one dispatch at a time.
//!
//! It also keeps the count's [`Breakdown`]: where the time went.

use std::cell::Cell;
use std::collections::VecDeque;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use damier::control::{Control, Interrupted};

use crate::engine::{DISPATCH_TIMEOUT, FAULT_CUT, FAULT_OVERFLOW, Gpu, one_line};
use crate::error::GpuError;

/// Most dispatches of one job. A job's dispatches are submitted together, so a worker sees
/// Ctrl-C within about this many dispatches (of about 50 ms each).
pub(crate) const JOB_DISPATCHES: usize = 8;

/// Partial sums of a dispatch: the kernel's `SUM_SLOTS` (each a `Control` of 4 words).
const SUM_SLOTS: usize = 32;

/// Bytes of one dispatch's record in the parameter and state buffers: a multiple of the
/// largest offset alignment of a binding that wgpu allows (256, so of every adapter's), and
/// room for the kernel's partial sums.
const RECORD: u64 = 512;

/// Bytes of the kernel's `Params` and its `control` array as bound.
const PARAM_BYTES: u64 = 32;
const STATE_BYTES: u64 = 16 * SUM_SLOTS as u64;

/// Where the read-back buffer holds the timestamps of a job's pass (two `u64`).
const STAMPS_AT: u64 = JOB_DISPATCHES as u64 * RECORD;

/// Where the time of the join kernel's counts went, summed over every count since the
/// [`Gpu`] was opened ([`Gpu::breakdown`]; zero for the search kernel). The sealing workers
/// are the CPU threads that assemble and seal the tasks' halves.
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
    /// Bytes written to the device: rows, queries, tails, pairs, parameters.
    pub bytes_uploaded: u64,
    /// Seconds the GPU was busy with the join's dispatches: measured by timestamp queries
    /// when [`Breakdown::busy_from_timestamps`], else the wall time from a job's submission
    /// (or the end of the one before, whichever is later) to its end as the submitter saw it.
    pub gpu_busy_seconds: f64,
    /// Whether [`Breakdown::gpu_busy_seconds`] came from the adapter's timestamp queries.
    pub busy_from_timestamps: bool,
    /// Jobs submitted (a job is up to [`JOB_DISPATCHES`] dispatches of one batch's tiles).
    pub jobs: u64,
    /// Submissions to the device: the jobs waiting when the submitter takes them go in one.
    pub submissions: u64,
    /// Dispatches run.
    pub dispatches: u64,
    /// Most jobs in flight at once.
    pub most_in_flight: u32,
    /// Slots of the ring (of the last count).
    pub ring: u32,
}

/// The running sums of a [`Breakdown`], added to by the workers and the submitter.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    sealing_ns: AtomicU64,
    upload_ns: AtomicU64,
    wait_ns: AtomicU64,
    bytes: AtomicU64,
    busy_ns: AtomicU64,
    jobs: AtomicU64,
    submissions: AtomicU64,
    dispatches: AtomicU64,
    most_in_flight: AtomicU32,
    ring: AtomicU32,
}

fn add_time(to: &AtomicU64, d: Duration) {
    to.fetch_add(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX), Ordering::Relaxed);
}

impl Stats {
    pub(crate) fn breakdown(&self, timestamps: bool) -> Breakdown {
        let s = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64 * 1e-9;
        Breakdown {
            sealing_seconds: s(&self.sealing_ns),
            upload_seconds: s(&self.upload_ns),
            wait_seconds: s(&self.wait_ns),
            bytes_uploaded: self.bytes.load(Ordering::Relaxed),
            gpu_busy_seconds: s(&self.busy_ns),
            busy_from_timestamps: timestamps,
            jobs: self.jobs.load(Ordering::Relaxed),
            submissions: self.submissions.load(Ordering::Relaxed),
            dispatches: self.dispatches.load(Ordering::Relaxed),
            most_in_flight: self.most_in_flight.load(Ordering::Relaxed),
            ring: self.ring.load(Ordering::Relaxed),
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

/// A device buffer and its size, grown when a batch needs more.
#[derive(Debug)]
struct Grown {
    buffer: wgpu::Buffer,
    size: u64,
}

/// The device buffers of one batch in flight, and the bind group of each dispatch record.
#[derive(Debug)]
pub(crate) struct Slot {
    rows: Grown,
    queries: Grown,
    tails: Grown,
    pairs: Grown,
    params: wgpu::Buffer,
    state: wgpu::Buffer,
    readback: wgpu::Buffer,
    /// Two timestamps (a job's pass begins, ends) and the buffer they resolve into.
    stamps: Option<(wgpu::QuerySet, wgpu::Buffer)>,
    binds: Vec<wgpu::BindGroup>,
}

impl Slot {
    fn new(gpu: &Gpu) -> Slot {
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let grown = |label: &str| Grown { buffer: gpu.blank(label, 64, storage), size: 64 };
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
            tails: grown("join tails"),
            pairs: grown("join pairs"),
            params: gpu.blank(
                "join params",
                records,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            state: gpu.blank("join control", records, storage | wgpu::BufferUsages::COPY_SRC),
            readback: gpu.blank(
                "join readback",
                records + 16,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            stamps,
            binds: Vec::new(),
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
        self.binds = (0..JOB_DISPATCHES as u64)
            .map(|k| {
                let entries = [
                    part(&self.params, k * RECORD, PARAM_BYTES),
                    self.rows.buffer.as_entire_binding(),
                    self.queries.buffer.as_entire_binding(),
                    self.tails.buffer.as_entire_binding(),
                    self.pairs.buffer.as_entire_binding(),
                    part(&self.state, k * RECORD, STATE_BYTES),
                ];
                let entries: Vec<wgpu::BindGroupEntry> = entries
                    .into_iter()
                    .enumerate()
                    .map(|(i, resource)| wgpu::BindGroupEntry { binding: i as u32, resource })
                    .collect();
                gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("join"),
                    layout: &layout,
                    entries: &entries,
                })
            })
            .collect();
    }

    /// Writes a batch's data (each a whole number of words), growing the buffers it
    /// outgrows; returns the bytes written.
    pub(crate) fn load(&mut self, gpu: &Gpu, rows: &[u8], queries: &[u8], tails: &[u8], pairs: &[u8]) -> u64 {
        let binding = gpu.limits.max_storage_buffer_binding_size.min(gpu.limits.max_buffer_size);
        let mut grew = false;
        for (g, data, label) in [
            (&mut self.rows, rows, "join rows"),
            (&mut self.queries, queries, "join queries"),
            (&mut self.tails, tails, "join tails"),
            (&mut self.pairs, pairs, "join pairs"),
        ] {
            let len = data.len() as u64;
            if len > g.size {
                // PERF: powers of two, so that a few growths serve a whole count.
                let size = len.next_power_of_two().min(binding).max(len);
                g.buffer = gpu.blank(label, size, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST);
                g.size = size;
                grew = true;
            }
            if !data.is_empty() {
                gpu.queue.write_buffer(&g.buffer, 0, data);
            }
        }
        if grew {
            self.rebind(gpu);
        }
        (rows.len() + queries.len() + tails.len() + pairs.len()) as u64
    }

    /// Writes the parameters of a job's dispatches (one record each; their state is cleared
    /// on the device, by the job's submission); returns the bytes written.
    pub(crate) fn load_params(&self, gpu: &Gpu, params: &[[u32; 8]]) -> u64 {
        debug_assert!(params.len() <= JOB_DISPATCHES);
        let mut bytes = vec![0u8; params.len() * RECORD as usize];
        for (k, p) in params.iter().enumerate() {
            let at = k * RECORD as usize;
            bytes[at..at + PARAM_BYTES as usize].copy_from_slice(bytemuck::cast_slice(p));
        }
        gpu.queue.write_buffer(&self.params, 0, &bytes);
        bytes.len() as u64
    }
}

/// The slots, and which are free.
#[derive(Debug)]
pub(crate) struct Ring {
    pub(crate) slots: Vec<Mutex<Slot>>,
    free: Mutex<Vec<usize>>,
    freed: Condvar,
    /// Set when the submitter has stopped: nobody answers jobs any more.
    closed: AtomicBool,
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

/// One dispatch of a job: its workgroups, and the units its tiles hold (checked).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dispatch {
    pub(crate) groups: (u32, u32),
    pub(crate) units: u64,
    /// Its tiles, for the messages.
    pub(crate) tiles: (u64, u64),
}

/// Up to [`JOB_DISPATCHES`] dispatches of a slot's batch, their records written.
pub(crate) struct Job {
    pub(crate) slot: usize,
    pub(crate) dispatches: Vec<Dispatch>,
    pub(crate) reply: SyncSender<Result<u64, GpuError>>,
}

/// A job submitted, its read-back buffer being mapped.
struct Flying {
    job: Job,
    index: wgpu::SubmissionIndex,
    submitted: Instant,
    mapped: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
}

impl Gpu {
    /// Hands the submitter the dispatches of `slot` (their records written) and waits for
    /// their count (the wait counted).
    pub(crate) fn run_job(
        &self,
        jobs: &SyncSender<Job>,
        slot: usize,
        dispatches: Vec<Dispatch>,
    ) -> Result<u64, GpuError> {
        let (reply, answer) = std::sync::mpsc::sync_channel(1);
        let start = Instant::now();
        let gone = || self.fault("the join's submitting thread has stopped".into());
        jobs.send(Job { slot, dispatches, reply }).map_err(|_| gone())?;
        let r = answer.recv().map_err(|_| gone())?;
        add_time(&self.stats.wait_ns, start.elapsed());
        r
    }

    /// Counts the time of a worker's preparation of a batch (packing, copying into the
    /// upload).
    pub(crate) fn upload_time(&self, d: Duration, bytes: u64) {
        add_time(&self.stats.upload_ns, d);
        self.stats.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    /// The submitting thread: takes jobs from the workers until they have all gone, submits
    /// each at once, and answers each as the GPU finishes it (in submission order).
    pub(crate) fn submitter(&self, ring: &Ring, jobs: Receiver<Job>) {
        let mut flying: VecDeque<Flying> = VecDeque::new();
        let mut open = true;
        let mut last_end = Instant::now();
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
                flying.extend(self.submit(ring, fresh));
                self.stats.most_in_flight.fetch_max(flying.len() as u32, Ordering::Relaxed);
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
            let overdue = head.submitted.elapsed() > DISPATCH_TIMEOUT * head.job.dispatches.len() as u32;
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
                    let _ = f.job.reply.send(Err(self.fault(why.clone())));
                }
                dead = Some(why);
                continue;
            }
            while let Some(f) = flying.front() {
                if f.mapped.lock().unwrap_or_else(|e| e.into_inner()).is_none() {
                    break;
                }
                let f = flying.pop_front().expect("a front");
                let r = self.finish(ring, &f, &mut last_end);
                let _ = f.job.reply.send(r);
            }
        }
    }

    /// Encodes and submits jobs, in one submission: each job's dispatches in one pass (timed
    /// when the adapter can), its state records and timestamps copied to its read-back
    /// buffer, which is then mapped.
    fn submit(&self, ring: &Ring, jobs: Vec<Job>) -> Vec<Flying> {
        let slots: Vec<_> =
            jobs.iter().map(|j| ring.slots[j.slot].lock().unwrap_or_else(|e| e.into_inner())).collect();
        let mut enc =
            self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("join") });
        for (job, slot) in jobs.iter().zip(&slots) {
            let records = job.dispatches.len() as u64 * RECORD;
            // PERF: the partial sums cleared on the device, not uploaded as zeros.
            enc.clear_buffer(&slot.state, 0, Some(records));
            {
                let timestamp_writes =
                    slot.stamps.as_ref().map(|(set, _)| wgpu::ComputePassTimestampWrites {
                        query_set: set,
                        beginning_of_pass_write_index: Some(0),
                        end_of_pass_write_index: Some(1),
                    });
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("join"),
                    timestamp_writes,
                });
                pass.set_pipeline(&self.join_pipeline);
                for (k, d) in job.dispatches.iter().enumerate() {
                    pass.set_bind_group(0, &slot.binds[k], &[]);
                    pass.dispatch_workgroups(d.groups.0, d.groups.1, 1);
                }
            }
            enc.copy_buffer_to_buffer(&slot.state, 0, &slot.readback, 0, records);
            if let Some((set, resolve)) = &slot.stamps {
                enc.resolve_query_set(set, 0..2, resolve, 0);
                enc.copy_buffer_to_buffer(resolve, 0, &slot.readback, STAMPS_AT, 16);
            }
        }
        let submitted = Instant::now();
        let index = self.queue.submit([enc.finish()]);
        let mapped: Vec<_> = slots
            .iter()
            .map(|slot| {
                let mapped = Arc::new(Mutex::new(None));
                let m = mapped.clone();
                slot.readback.map_async(wgpu::MapMode::Read, .., move |r| {
                    *m.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                });
                mapped
            })
            .collect();
        drop(slots);
        self.stats.jobs.fetch_add(jobs.len() as u64, Ordering::Relaxed);
        let dispatches: usize = jobs.iter().map(|j| j.dispatches.len()).sum();
        self.stats.dispatches.fetch_add(dispatches as u64, Ordering::Relaxed);
        self.stats.submissions.fetch_add(1, Ordering::Relaxed);
        jobs.into_iter()
            .zip(mapped)
            .map(|(job, mapped)| Flying { job, index: index.clone(), submitted, mapped })
            .collect()
    }

    /// A finished job's count: each dispatch's faults and units checked, its time counted
    /// (and the dispatch budget adapted to it).
    fn finish(&self, ring: &Ring, f: &Flying, last_end: &mut Instant) -> Result<u64, GpuError> {
        let now = Instant::now();
        let wall = now.saturating_duration_since(f.submitted.max(*last_end));
        *last_end = now;
        let mapped = f.mapped.lock().unwrap_or_else(|e| e.into_inner()).take();
        let slot = ring.slots[f.job.slot].lock().unwrap_or_else(|e| e.into_inner());
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
                        let records: Vec<Vec<[u32; 4]>> = (0..f.job.dispatches.len())
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
        self.check("running the join kernel")?;
        let (records, stamps) = read?;
        let busy = if self.timestamps {
            let ticks = stamps.1.saturating_sub(stamps.0);
            Duration::from_nanos((ticks as f64 * f64::from(self.queue.get_timestamp_period())) as u64)
        } else {
            wall
        };
        add_time(&self.stats.busy_ns, busy);
        self.adapt_join_budget(busy / f.job.dispatches.len().max(1) as u32);
        let mut total = 0u64;
        for (d, sums) in f.job.dispatches.iter().zip(records) {
            let fault = sums.iter().fold(0, |f, s| f | s[2]);
            let done: u64 = sums.iter().map(|s| u64::from(s[3])).sum();
            if fault & FAULT_CUT != 0 {
                return Err(GpuError::LoopCut {
                    adapter: self.adapter.name.clone(),
                    budget: (d.tiles.1 - d.tiles.0) as u32,
                });
            }
            if fault & FAULT_OVERFLOW != 0 {
                return Err(GpuError::Overflow { adapter: self.adapter.name.clone() });
            }
            if done != d.units {
                return Err(self.fault(format!(
                    "the join kernel did {done} of {} units of a dispatch (tiles {}..{})",
                    d.units, d.tiles.0, d.tiles.1
                )));
            }
            for s in sums {
                total = total
                    .checked_add(u64::from(s[1]) << 32 | u64::from(s[0]))
                    .ok_or(GpuError::Overflow { adapter: self.adapter.name.clone() })?;
            }
        }
        Ok(total)
    }
}
