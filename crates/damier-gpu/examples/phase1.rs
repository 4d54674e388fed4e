//! What the join kernel's host side (phase 1: assembling, grouping and packing the halves of
//! each task, the pairs listed) costs per solution, in CPU seconds, without a GPU: random
//! tasks of n run through the library's sealing loop on one thread, every batch's matching
//! skipped (answered 0), the process's CPU time counted; the tasks' solutions then counted by
//! the CPU quarters engine (untimed) to divide by. Also the bytes the batches would upload,
//! and their pairs' (packed, and as they were before: 32 bytes a pair).
//! `cargo run --release -p damier-gpu --example phase1 -- N [TASKS]` (tasks drawn with seed N).
//!
//! The set-up (the CPU seconds until the first batch is handed out: the whole quarter table,
//! built once per run, and the first task's halves) is printed apart from phase 1 proper (the
//! seconds after it), which is divided by the solutions. A run of at least `2^q` tasks
//! (`q = n - n / 2`: 2 048 at n = 21 and 22, 4 096 at 23 and 24) builds the table, as a whole
//! count does; fewer search their quarters task by task, which costs about twice as much per
//! solution (the line says which).
//!
//! With `--expected`, the tasks are not counted: their solutions are taken as the uniform
//! sample's expected share of q(n) (`TASKS / tasks of n` of A000170's value), for n whose
//! sample the CPU counts too slowly here (about 1.3 CPU-ns a solution, 5 times phase 1); the
//! line says "about". 4 096 tasks of n = 24 hold about 7e11 solutions.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use damier::control::Control;
use damier::cpu::Isa;
use damier::queens::count::join::Pending;
use damier::queens::count::known::known_total;
use damier::queens::count::tasks::{
    TaskEngine, TaskError, TaskList, count_tasks, count_tasks_sealing_ahead, sample_tasks,
};
use damier::util::process_cpu_seconds;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: phase1 N [TASKS] [--expected]";
    let n: u32 = args.next().ok_or(usage)?.parse()?;
    let k: u32 = args.next().map_or(Ok(4), |t| t.parse())?;
    let expected = match args.next().as_deref() {
        None => false,
        Some("--expected") => true,
        Some(_) => return Err(usage.into()),
    };
    let list = TaskList::new(n)?;
    let all: Vec<u32> = (0..list.len()).collect();
    let tasks = sample_tasks(&all, k, u64::from(n));
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let (bytes, batches) = (AtomicU64::new(0), AtomicU64::new(0));
    let (pairs, pair_bytes) = (AtomicU64::new(0), AtomicU64::new(0));
    let cpu = || process_cpu_seconds().unwrap_or(f64::NAN);
    let start = cpu();
    // The CPU seconds when the first batch was handed out (the end of the set-up).
    let first = std::sync::OnceLock::new();
    one.install(|| {
        count_tasks_sealing_ahead::<TaskError>(
            &list,
            Isa::best(),
            None,
            &tasks,
            &Control::new(),
            0,
            None,
            &|s| {
                first.get_or_init(cpu);
                // What the GPU gets: the stored keys and queries packed, the blocks, the pairs.
                bytes.fetch_add(damier_gpu::batch_bytes(s), Relaxed);
                let (p, b) = damier_gpu::batch_pairs(s);
                pairs.fetch_add(p as u64, Relaxed);
                pair_bytes.fetch_add(b, Relaxed);
                batches.fetch_add(1, Relaxed);
                Ok(Pending::ready(0))
            },
            &|_| {},
        )
    })?;
    let end = cpu();
    let first = first.get().copied().unwrap_or(end);
    let (setup, seconds) = (first - start, end - first);
    let solutions = if expected {
        let total = known_total(n).ok_or("--expected needs a known q(n)")?;
        total as f64 * tasks.len() as f64 / list.len() as f64
    } else {
        let solutions = AtomicU64::new(0);
        count_tasks(&list, TaskEngine::Quarters, Isa::best(), None, &tasks, &Control::new(), &|d| {
            solutions.fetch_add(d.count, Relaxed);
        })?;
        solutions.into_inner() as f64
    };
    let about = if expected { "about " } else { "" };
    let q = n - n / 2;
    // As the library plans a run: the table needs 2^q tasks, q <= 12 and the memory for it.
    let quarters = if tasks.len() < 1 << q {
        "fewer than 2^q: quarters searched per task"
    } else if q > 12 {
        "q > 12: quarters searched per task"
    } else {
        "the quarter table, where it fits in memory"
    };
    let (pairs, pair_bytes) = (pairs.into_inner(), pair_bytes.into_inner());
    println!(
        "n = {n}: {} tasks ({quarters}), {} batches, {about}{solutions:.4e} solutions; set-up {setup:.3} CPU-s; phase 1 {seconds:.3} CPU-s, {:.3} CPU-ns a solution; {:.4} bytes uploaded a solution; {pairs} pairs, {:.2} bytes a pair, {:.4} bytes a solution (32 bytes a pair unpacked: {:.4})",
        tasks.len(),
        batches.into_inner(),
        seconds / solutions * 1e9,
        bytes.into_inner() as f64 / solutions,
        pair_bytes as f64 / pairs.max(1) as f64,
        pair_bytes as f64 / solutions,
        32.0 * pairs as f64 / solutions,
    );
    Ok(())
}
