//! The counting engine: [`Gpu::count_tasks`] (the join kernel's count, module `join`) and
//! [`Gpu::estimate`].

use std::sync::Mutex;
use std::time::Instant;

use damier::control::{Control, Interrupted};
use damier::queens::count::estimate::{self, Estimate, TimedTask};
use damier::queens::count::tasks::{TaskDone, TaskList, sample_tasks};

use crate::device::Gpu;
use crate::error::GpuError;

impl Gpu {
    /// Counts the tasks `indices` of `list`, calling `on_done` as each finishes, in order of
    /// completion; polls `control` between dispatches (every ~50 ms) and advances it by one
    /// per task. The tasks' halves are assembled and sealed by a pool of as many workers as
    /// the current rayon pool (each call starts one) and each sealed batch is matched on the
    /// GPU through the pipeline (a ring of device buffers, one submitting thread; docs/gpu.md,
    /// "The pipeline"; [`Gpu::breakdown`] says where the time went); a task is reported once
    /// all its batches are matched, its count checked against overflow. On an error no task
    /// with a batch that failed, or still in flight, is reported.
    pub fn count_tasks(
        &self,
        list: &TaskList,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), GpuError> {
        self.count_tasks_join(list, indices, control, on_done)
    }
}

impl Gpu {
    /// Times `samples` random tasks of `list` (drawn with `seed`, as
    /// [`damier::queens::count::tasks::sample_tasks`] draws) counted on this GPU as a count
    /// counts them (in one run of [`Gpu::count_tasks`]), and projects the whole count of n
    /// ([`estimate::project_timed`]): its GPU time (wall time of this process, so the host's
    /// share of the work is in it; [`Estimate::core_hours`] is then hours of this GPU), the
    /// number of solutions (a check of the sample against the known totals) and the time per
    /// solution. The set-up is the time [`Gpu::open`] took. Each task's time is its share of
    /// the run's wall time, in proportion to its sealing worker's time on it (sealing it and
    /// waiting for its batches). `on_done` sees each sampled task's count (the tests compare them with the
    /// CPU's). Cancelled through `control`, the projection is made from the tasks finished,
    /// marked [`Estimate::stopped_early`] (tasks run in a random order, so they are a random
    /// sample too); [`GpuError::Interrupted`] when none did.
    pub fn estimate(
        &self,
        list: &TaskList,
        samples: u32,
        seed: u64,
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<Estimate, GpuError> {
        let all: Vec<u32> = (0..list.len()).collect();
        let mut picked = sample_tasks(&all, samples.max(1), seed);
        {
            // A random order, so that the tasks finished before an interruption are a random
            // sample (the list's order follows the column sets, and the cost with them).
            use rand::SeedableRng;
            use rand::seq::SliceRandom;
            let mut rng =
                rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(damier::control::stream_seed(seed, 1));
            picked.shuffle(&mut rng);
        }
        let done = Mutex::new(Vec::with_capacity(picked.len()));
        let start = Instant::now();
        let counted = self.count_tasks(list, &picked, control, &|d| {
            on_done(d);
            done.lock().unwrap_or_else(|e| e.into_inner()).push(d);
        });
        let wall = start.elapsed().as_secs_f64();
        let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
        match counted {
            Ok(()) => {}
            Err(GpuError::Interrupted(_)) if !done.is_empty() => {}
            Err(e) => return Err(e),
        }
        done.sort_by_key(|d| d.index);
        // The tasks' times, scaled to the run's wall time (the host's sealing included).
        let gpu_seconds: f64 = done.iter().map(|d| d.elapsed.as_secs_f64()).sum();
        let scale = if gpu_seconds > 0.0 { wall / gpu_seconds } else { 0.0 };
        let timed: Vec<TimedTask> = done
            .iter()
            .map(|d| TimedTask {
                index: d.index,
                seconds: d.elapsed.as_secs_f64() * scale,
                solutions: d.count as f64,
            })
            .collect();
        let stopped_early = timed.len() < picked.len();
        let mut e = estimate::project_timed(
            list.n(),
            u64::from(list.len()),
            self.settings.kernel.engine(),
            timed,
            self.opened_in.as_secs_f64(),
        )
        .ok_or(GpuError::Interrupted(Interrupted))?;
        e.stopped_early = stopped_early;
        Ok(e)
    }
}
