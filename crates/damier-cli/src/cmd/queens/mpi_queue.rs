//! `count --mpi`: the task list as a work queue over the processes of an MPI job.
//!
//! Process 0 holds the queue (and the journal, if any): every other process asks for a batch
//! of tasks, counts it on all its threads, and sends the counts back with its next request, so
//! a slow or late process simply takes fewer batches. Batches shrink as the queue empties
//! (guided scheduling: a quarter of the remaining share per process, at most
//! [`MAX_BATCH`]), so the job ends nearly together. Process 0 also counts batches, on a thread
//! of its own, while its main thread answers requests (MPI is called from that thread only).

use std::collections::VecDeque;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;
use damier::queens::count::tasks::TaskDone;
use mpi::Tag;
use mpi::traits::*;

use super::device::{self, Counter, Device};
use super::long::{self, Run};
use crate::gpu::GpuArgs;
use crate::util::{exit, interrupt};

/// A request for work, carrying the counts of the last batch: `index, count, micros` triples.
const REQUEST: Tag = 1;
/// A batch of task indices; an empty batch means "no more work".
const WORK: Tag = 2;

/// Most tasks in one batch.
const MAX_BATCH: usize = 1024;

/// Longest wait for a held task ([`next_batch`]): a held job that no test killed (a test that
/// failed first) then ends by itself.
const HOLD_LIMIT: Duration = Duration::from_secs(120);

/// Takes the next batch off the queue: a quarter of the remaining tasks per process, between
/// 1 and [`MAX_BATCH`]. `hold` (a test hook) is a task that ends a batch and is handed out to
/// no one: whoever asks for it waits (until Ctrl-C, at most [`HOLD_LIMIT`]), and so does every
/// process after it, waiting for work as between two batches, so that the job cannot end
/// before a test kills it, whatever the load.
fn next_batch(queue: &Mutex<VecDeque<u32>>, processes: usize, hold: Option<u32>) -> Vec<u32> {
    let start = Instant::now();
    loop {
        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
        let size = (q.len() / (4 * processes)).clamp(1, MAX_BATCH).min(q.len());
        let held = hold.and_then(|t| q.iter().take(size).position(|&i| i == t));
        let size = match held {
            Some(0) if !interrupt::control().cancelled() && start.elapsed() < HOLD_LIMIT => {
                drop(q);
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            Some(k) if k > 0 => k,
            _ => size,
        };
        return q.drain(..size).collect();
    }
}

/// Stops the whole job after an error on this process (the others wait for messages).
fn abort(world: &impl Communicator, err: &anyhow::Error) -> ! {
    let interrupted = err.chain().any(|e| e.downcast_ref::<damier::control::Interrupted>().is_some());
    let _ = exit::report(err);
    let code = if interrupted {
        exit::INTERRUPTED
    } else if exit::is_fault(err) {
        exit::FAULT
    } else {
        exit::USAGE
    };
    world.abort(i32::from(code))
}

/// Runs `count --mpi` on `device` (each process its own GPU, by its rank on its machine, for
/// gpu and all); `slow_rank`: the process that sleeps `c.delay` per task (tests), or every
/// process when `None`; `hold`: a task never handed out (tests, [`next_batch`]).
pub(super) fn run(
    mut c: Run,
    slow_rank: Option<u32>,
    hold: Option<u32>,
    device: Device,
    g: GpuArgs,
) -> anyhow::Result<ExitCode> {
    let (universe, _) =
        mpi::initialize_with_threading(mpi::Threading::Funneled).context("MPI is already initialised")?;
    let world = universe.world();
    let (rank, size) = (world.rank() as u32, world.size() as usize);
    anyhow::ensure!(c.plan.share.is_none(), "--mpi splits the whole count: --share does not apply");
    // The processes of this machine (a collective call: every process makes it).
    let local_rank = world.split_shared(world.rank()).rank() as usize;
    device::plan(&mut c, device, g.gpu_kernel.unwrap_or_default()).unwrap_or_else(|e| abort(&world, &e));
    let counter = Counter::open(device, g, local_rank).unwrap_or_else(|e| abort(&world, &e));
    let pool = crate::util::pool(c.threads).unwrap_or_else(|e| abort(&world, &e));
    let delay = if slow_rank.is_none_or(|r| r == rank) { c.delay } else { Duration::ZERO };
    if rank != 0 {
        // Workers keep no journal: process 0 does.
        let mine = Run { plan: damier::queens::count::long::LongCount { journal: None, ..c.plan }, ..c };
        let p = long::prepare(&mine, &pool).unwrap_or_else(|e| abort(&world, &e));
        let root = world.process_at_rank(0);
        let mut results: Vec<u64> = Vec::new();
        loop {
            root.send_with_tag(&results[..], REQUEST);
            let (batch, _) = root.receive_vec_with_tag::<u32>(WORK);
            if batch.is_empty() {
                return Ok(ExitCode::SUCCESS);
            }
            let found = Mutex::new(Vec::with_capacity(3 * batch.len()));
            counter
                .count(&p, &pool, &batch, delay, &|d| {
                    let micros = d.elapsed.as_micros() as u64;
                    found.lock().unwrap_or_else(|e| e.into_inner()).extend([
                        u64::from(d.index),
                        d.count,
                        micros,
                    ]);
                })
                .unwrap_or_else(|e| abort(&world, &e));
            results = found.into_inner().unwrap_or_else(|e| e.into_inner());
        }
    }

    let p = long::prepare(&c, &pool).unwrap_or_else(|e| abort(&world, &e));
    let left = p.left();
    // Process 0 alone announces a long count (the workers wait for their first batch).
    counter.warn_if_costly(&p, left.len()).unwrap_or_else(|e| abort(&world, &e));
    let queue = Mutex::new(left.into_iter().collect::<VecDeque<u32>>());
    let mut by_process = vec![0u64; size];
    let local_done = std::thread::scope(|s| -> anyhow::Result<u64> {
        // Process 0's own share of the work, on its pool.
        let local = s.spawn(|| -> anyhow::Result<u64> {
            let mut done = 0;
            loop {
                let batch = next_batch(&queue, size, hold);
                if batch.is_empty() {
                    return Ok(done);
                }
                counter.count(&p, &pool, &batch, delay, &|d| p.record(d))?;
                done += batch.len() as u64;
            }
        });
        let mut active = size - 1;
        while active > 0 {
            let (results, status) = world.any_process().receive_vec_with_tag::<u64>(REQUEST);
            let from = status.source_rank() as usize;
            for r in results.chunks_exact(3) {
                let index = u32::try_from(r[0]).context("a worker sent a task index out of range")?;
                p.record(TaskDone { index, count: r[1], elapsed: Duration::from_micros(r[2]) });
            }
            by_process[from] += (results.len() / 3) as u64;
            let batch =
                if interrupt::control().cancelled() { Vec::new() } else { next_batch(&queue, size, hold) };
            if batch.is_empty() {
                active -= 1;
            }
            world.process_at_rank(from as i32).send_with_tag(&batch[..], WORK);
        }
        local.join().unwrap_or_else(|_| Err(anyhow::anyhow!("process 0's counting thread panicked")))
    });
    // Also after an error or Ctrl-C: what finished is on the disk.
    p.finish_journal().unwrap_or_else(|e| abort(&world, &e.into()));
    by_process[0] = local_done.unwrap_or_else(|e| abort(&world, &e));
    long::conclude(&c, p, &pool, |result| {
        result.processes = Some(size);
        result.tasks_by_process = Some(by_process);
    })
}
