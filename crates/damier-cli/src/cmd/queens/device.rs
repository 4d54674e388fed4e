//! `damier queens count --device gpu|all`: the task list counted on a GPU (the crate
//! damier-gpu), alone or beside the CPU cores, recorded in the same journal as a CPU count.
//!
//! The journal's header names one engine for all its tasks. The default kernel (`join`) runs
//! the quarters engine (its matching on the GPU), so a `--device gpu` count is headed
//! `quarters`, and `journal --recheck` recounts its tasks with the backtracker on the CPU;
//! the `search` kernel runs the backtracker's search (row by row over the task's columns,
//! then the other columns), so its `--device gpu` journals are headed `backtrack` and
//! rechecked by the quarters engine. A `--device all` count is headed with the CPU's engine
//! (quarters), and the recheck recounts every task, GPU ones included, with the CPU's
//! backtracker.

use std::process::ExitCode;

use damier::queens::count::devices::GpuKernel;
use damier::queens::count::journal::JournalDevice;
use damier::queens::count::tasks::TaskEngine;
#[cfg(feature = "mpi")]
use damier::queens::count::{long::LongRun, tasks::TaskDone};

use super::long::Run;
use crate::gpu::GpuArgs;
#[cfg(not(feature = "gpu"))]
use crate::gpu::NO_GPU_FEATURE;

/// `--device`: where the tasks are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Device {
    /// The CPU cores (every count without the task list runs here).
    Cpu,
    /// The GPU (the default adapter; `damier gpu` lists them).
    Gpu,
    /// The GPU and the CPU cores together, taking tasks from one queue.
    All,
    /// List the GPU adapters and exit.
    List,
}

/// Counts `r` over the task list on `device` (gpu or all).
pub(super) fn run(mut r: Run, device: Device, g: GpuArgs) -> anyhow::Result<ExitCode> {
    plan(&mut r, device, g.gpu_kernel.unwrap_or_default())?;
    imp::run(r, device, g)
}

/// Refuses an n outside the task list, and sets the engine a journal of `device` is headed
/// with (see the module's docs): for `--device gpu`, the engine whose algorithm `kernel` runs.
pub(super) fn plan(r: &mut Run, device: Device, kernel: GpuKernel) -> anyhow::Result<()> {
    if device == Device::Cpu {
        return Ok(());
    }
    anyhow::ensure!(
        (damier::queens::count::tasks::MIN_TASK_N..=damier::queens::count::tasks::MAX_TASK_N)
            .contains(&r.plan.n),
        "--device {} counts the task list: n = {} to {}",
        if device == Device::Gpu { "gpu" } else { "all" },
        damier::queens::count::tasks::MIN_TASK_N,
        damier::queens::count::tasks::MAX_TASK_N
    );
    if device == Device::Gpu {
        anyhow::ensure!(
            r.plan.engine.is_none(),
            "--strategy picks the CPU's engine: --device gpu counts every task on the GPU (use --device all for both)"
        );
        r.plan.engine = Some(kernel.engine());
        r.plan.device = JournalDevice::Gpu;
    } else {
        r.plan.engine = Some(r.plan.engine.unwrap_or(TaskEngine::best_for(r.plan.n)));
        r.plan.device = JournalDevice::CpuAndGpu;
    }
    Ok(())
}

/// What one process of an MPI job (`--mpi`) counts its batches on: the CPU pool, its GPU, or
/// both.
#[cfg(feature = "mpi")]
pub(super) struct Counter {
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    device: Device,
    #[cfg(feature = "gpu")]
    gpu: Option<damier_gpu::Gpu>,
}

#[cfg(feature = "mpi")]
impl Counter {
    /// The counter of `device` for the process of rank `local_rank` on its machine: the GPU
    /// `--gpu-adapter` names, else the adapters of the default one's kind (the discrete GPUs,
    /// say) taken in turn by local rank, so that each process of a machine gets its own.
    pub(super) fn open(device: Device, g: GpuArgs, local_rank: usize) -> anyhow::Result<Counter> {
        if device == Device::Cpu {
            return Ok(Counter {
                device,
                #[cfg(feature = "gpu")]
                gpu: None,
            });
        }
        imp::open_counter(device, g, local_rank)
    }

    /// Announces the count of `left` tasks of `p` if it is projected to be long.
    pub(super) fn warn_if_costly(&self, p: &LongRun, left: usize) -> anyhow::Result<()> {
        #[cfg(feature = "gpu")]
        if let Some(gpu) = &self.gpu {
            return imp::warn_if_costly(gpu, p, left, self.device);
        }
        super::long::warn_if_costly(p, left)
    }

    /// Counts `batch` of `p` with a progress bar, calling `on_done` per task after sleeping
    /// `delay` (a test hook).
    pub(super) fn count(
        &self,
        p: &LongRun,
        pool: &rayon::ThreadPool,
        batch: &[u32],
        delay: std::time::Duration,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> anyhow::Result<()> {
        #[cfg(feature = "gpu")]
        if let Some(gpu) = &self.gpu {
            return imp::count_batch(gpu, self.device, p, pool, batch, delay, on_done);
        }
        super::long::count_with_bar(p, pool, batch, delay, on_done)
    }
}

#[cfg(not(feature = "gpu"))]
mod imp {
    use super::*;

    pub(super) fn run(_: Run, _: Device, _: GpuArgs) -> anyhow::Result<ExitCode> {
        anyhow::bail!(NO_GPU_FEATURE)
    }

    #[cfg(feature = "mpi")]
    pub(super) fn open_counter(_: Device, _: GpuArgs, _: usize) -> anyhow::Result<Counter> {
        anyhow::bail!(NO_GPU_FEATURE)
    }
}

#[cfg(feature = "gpu")]
mod imp {
    use damier::queens::count::cost::{CounterCost, CounterCostBasis, CounterCostQuery, projected_cost_on};
    #[cfg(feature = "mpi")]
    use damier::queens::count::devices::count_together;
    use damier::queens::count::devices::{Both, Together};
    use damier::queens::count::long::LongRun;
    use damier::queens::count::tasks::{TaskDone, TaskError};
    use damier_gpu::{Gpu, GpuError};

    use super::*;
    use crate::gpu::{error, open};
    use crate::util::output::errln;
    use crate::util::{interrupt, progress::Progress};

    #[cfg(feature = "mpi")]
    pub(super) fn open_counter(device: Device, g: GpuArgs, local_rank: usize) -> anyhow::Result<Counter> {
        let index = match g.gpu_adapter {
            Some(i) => i,
            None => {
                let all = damier_gpu::adapters();
                let kind = all.iter().find(|a| a.default).map(|a| a.kind.clone());
                let same: Vec<usize> =
                    all.iter().filter(|a| Some(&a.kind) == kind.as_ref()).map(|a| a.index).collect();
                if same.is_empty() {
                    return Err(error(GpuError::NoAdapter));
                }
                same[local_rank % same.len()]
            }
        };
        let gpu = open(GpuArgs { gpu_adapter: Some(index), ..g })?;
        errln!(
            "damier: process {local_rank} of this machine counts on GPU {index}: {} ({}){}",
            gpu.adapter().name,
            gpu.adapter().backend,
            if device == Device::All { " and the CPU cores" } else { "" }
        );
        Ok(Counter { device, gpu: Some(gpu) })
    }

    /// [`Counter::count`] on `gpu` (and the CPU pool for `all`).
    #[cfg(feature = "mpi")]
    pub(super) fn count_batch(
        gpu: &Gpu,
        device: Device,
        p: &LongRun,
        pool: &rayon::ThreadPool,
        batch: &[u32],
        delay: std::time::Duration,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> anyhow::Result<()> {
        let control = interrupt::control();
        let _bar = Progress::start(control, batch.len() as u64, "counting");
        let record = |d: TaskDone| {
            if !delay.is_zero() {
                std::thread::sleep(delay);
            }
            on_done(d);
        };
        match device {
            // The library's scheduler: the GPU's and the CPU pool's chunks from one queue.
            Device::All => {
                count_together(gpu, &p.cpu(pool), p.list(), batch, control, &record).map_err(together)
            }
            // The join kernel seals on the pool's workers (--threads).
            _ => pool.install(|| gpu.count_tasks(p.list(), batch, control, &record)).map_err(error),
        }
    }

    pub(super) fn run(r: Run, device: Device, g: GpuArgs) -> anyhow::Result<ExitCode> {
        let gpu = open(g)?;
        let pool = crate::util::pool(r.threads)?;
        let p = super::super::long::prepare(&r, &pool)?;
        let left = p.left();
        warn_if_costly(&gpu, &p, left.len(), device)?;
        errln!(
            "damier: counting {} on GPU {} ({}){}",
            crate::util::plural(left.len() as u64, "task"),
            gpu.adapter().name,
            gpu.adapter().backend,
            if device == Device::All { " and the CPU cores" } else { "" }
        );
        let control = interrupt::control();
        let counted = {
            let _bar = Progress::start(control, left.len() as u64, "counting");
            let hook = |d: &mut TaskDone| r.hook(d);
            // Also after Ctrl-C or a device fault: what finished is on the disk (the
            // journal's error first).
            match device {
                // The library's scheduler: the GPU side seals its tasks on a pool of its own
                // per chunk (as many workers as rayon's global pool), beside the CPU pool (the
                // cores oversubscribed: a worker waiting for the GPU sleeps, and a worker of
                // the CPU pool blocked on the GPU would idle a core). A device fault stops the
                // CPU side too: the run exits 74 and a rerun with the journal resumes.
                Device::All => p.count_left_on(&Both(&gpu, p.cpu(&pool)), control, &hook)?.map_err(together),
                // The join kernel seals on the pool's workers (--threads).
                _ => pool.install(|| p.count_left_on(&gpu, control, &hook))?.map_err(error),
            }
        };
        counted?;
        super::super::long::conclude(&r, p, &pool, |_| {})
    }

    /// Announces on stderr a count of `left` tasks of `p` projected past one GPU hour (the
    /// threshold of [`super::super::cost`]), from the library's quick estimate on `gpu`
    /// ([`projected_cost_on`]; a lower bound, said so, when no task finishes in its time).
    pub(super) fn warn_if_costly(gpu: &Gpu, p: &LongRun, left: usize, device: Device) -> anyhow::Result<()> {
        let query = CounterCostQuery {
            list: p.list(),
            left,
            engine: gpu.kernel().engine(),
            ceiling_ns_per_solution: Gpu::CEILING_NS_PER_SOLUTION,
        };
        let threshold = super::super::cost::threshold()?;
        let cost =
            projected_cost_on(gpu, &query, threshold, rand::random(), interrupt::control()).map_err(error)?;
        let Some(CounterCost { hours, seed, seconds, basis }) = cost else { return Ok(()) };
        let seconds = crate::util::number(seconds);
        let why = match basis {
            CounterCostBasis::Timed { samples, low, high } => format!(
                "a quick estimate from {samples} random tasks (seed {seed}, {seconds} s): 95% interval {} to {}",
                crate::util::number(low),
                crate::util::number(high)
            ),
            CounterCostBasis::NoneFinished { sampled } => {
                format!("at least: {sampled} random tasks (seed {seed}) had not finished in {seconds} s")
            }
        };
        let n = p.list().n();
        let beside =
            if device == Device::All { " (the GPU alone: the CPU cores take some of the tasks)" } else { "" };
        errln!(
            "damier: n = {n}, {left} tasks on GPU {}: projected {} GPU hours{beside} ({why}). {}",
            gpu.adapter().name,
            crate::util::number(hours),
            super::super::cost::ways_to_split(&format!(
                "; `damier queens estimate {n} --device gpu` projects it more closely"
            )),
        );
        Ok(())
    }

    /// The error of the GPU (its exit code) or of the CPU side.
    fn together(e: Together<GpuError, TaskError>) -> anyhow::Error {
        match e {
            Together::First(e) => error(e),
            Together::Second(e) => e.into(),
        }
    }
}
