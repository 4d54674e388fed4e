//! Times q(n) on the default adapter with chosen settings, to tune the engine's defaults:
//! `cargo run --release -p damier-gpu --example tune -- N [ROWS] [SLOTS] [BUDGET]` (0 or
//! nothing: the default); `DAMIER_GPU_KERNEL=join` times the join kernel (BUDGET: its tiles
//! per dispatch), `DAMIER_GPU_PORTABLE=1` its portable path (no 64-bit keys, no subgroups),
//! `DAMIER_GPU_WORKGROUP_BYTES=B` its workgroup memory for a block (0: blocks read from
//! global memory); `DAMIER_GPU_TASKS=K` counts K random tasks of n (seed n) instead of all.

use damier::control::Control;
use damier::queens::count::tasks::TaskList;
use damier_gpu::{Gpu, GpuKernel, GpuSettings};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse()).collect::<Result<_, _>>()?;
    let n = *args.first().ok_or("usage: tune N [ROWS] [SLOTS] [BUDGET]")?;
    let opt = |i: usize| args.get(i).copied().filter(|&v| v != 0);
    let kernel = match std::env::var("DAMIER_GPU_KERNEL").as_deref() {
        Ok("join") => GpuKernel::Join,
        Ok("search") | Err(_) => GpuKernel::Search,
        Ok(k) => return Err(format!("DAMIER_GPU_KERNEL={k}: search or join").into()),
    };
    let settings = GpuSettings {
        start_row: opt(1),
        slots: opt(2),
        budget: opt(3),
        dispatch_ms: None,
        kernel,
        ring: None,
        ahead: None,
        portable: std::env::var("DAMIER_GPU_PORTABLE").is_ok_and(|v| v == "1"),
        workgroup_bytes: std::env::var("DAMIER_GPU_WORKGROUP_BYTES").ok().map(|v| v.parse()).transpose()?,
        batch_keys: None,
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
