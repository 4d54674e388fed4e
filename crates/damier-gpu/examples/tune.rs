//! Times q(n) on the default adapter with chosen settings, to tune the engine's defaults:
//! `cargo run --release -p damier-gpu --example tune -- N [BUDGET]` (BUDGET: tiles per
//! dispatch; 0 or nothing: adapted); `DAMIER_GPU_PORTABLE=1` runs the join kernel's portable
//! path (no 64-bit keys, no subgroups), `DAMIER_GPU_WORKGROUP_BYTES=B` caps its workgroup
//! memory for a block (0: blocks read from global memory), `DAMIER_GPU_SHARED_SUMS=1` adds
//! the tiles' sums into 32 shared partial sums by atomics (the way before the slot per tile);
//! `DAMIER_GPU_TASKS=K` counts K
//! random tasks of n (seed n) instead of all.

use damier::control::Control;
use damier::queens::count::tasks::TaskList;
use damier_gpu::{Gpu, GpuSettings};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse()).collect::<Result<_, _>>()?;
    let n = *args.first().ok_or("usage: tune N [BUDGET]")?;
    let settings = GpuSettings {
        budget: args.get(1).copied().filter(|&v| v != 0),
        portable: std::env::var("DAMIER_GPU_PORTABLE").is_ok_and(|v| v == "1"),
        workgroup_bytes: std::env::var("DAMIER_GPU_WORKGROUP_BYTES").ok().map(|v| v.parse()).transpose()?,
        shared_sums: std::env::var("DAMIER_GPU_SHARED_SUMS").is_ok_and(|v| v == "1"),
        ..GpuSettings::default()
    };
    let gpu = Gpu::open(None, settings)?;
    let list = TaskList::new(n)?;
    let mut all: Vec<u32> = (0..list.len()).collect();
    if let Ok(k) = std::env::var("DAMIER_GPU_TASKS") {
        all = damier::queens::count::tasks::sample_tasks(&all, k.parse()?, u64::from(n));
    }
    let total = std::sync::atomic::AtomicU64::new(0);
    let start = std::time::Instant::now();
    gpu.count_tasks(&list, &all, &Control::new(), &|d| {
        total.fetch_add(d.count, std::sync::atomic::Ordering::Relaxed);
    })?;
    println!(
        "q({n}) = {} in {:.3} s on {} ({settings:?}, {} tasks, {:?})",
        total.into_inner(),
        start.elapsed().as_secs_f64(),
        gpu.adapter().name,
        all.len(),
        gpu.join_kernel()
    );
    Ok(())
}
