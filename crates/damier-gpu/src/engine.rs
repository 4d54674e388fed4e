//! The counting engine: [`Gpu::count_tasks`] (the join kernel's count in module `join`, the
//! search kernel's here: the batches of prefixes, the dispatch loop) and [`Gpu::estimate`].

use std::sync::Mutex;
use std::time::{Duration, Instant};

use damier::control::{Control, Interrupted};
use damier::queens::count::estimate::{self, Estimate, TimedTask};
use damier::queens::count::tasks::{Task, TaskDone, TaskError, TaskList, sample_tasks};

use crate::device::{FAULT_CUT, FAULT_OVERFLOW, Gpu, GpuKernel, words_to_bytes};
use crate::error::GpuError;
use crate::prefix::{Expander, MAX_LEVELS, Prefix, Rows};

/// Invocations per workgroup (`@workgroup_size` in the kernel).
const WORKGROUP: u32 = 64;

/// Bytes of one slot's state: 4 words, then `MAX_LEVELS` levels of 4 words.
const SLOT_BYTES: u64 = 16 + 16 * MAX_LEVELS as u64;

/// Bytes of one prefix.
const PREFIX_BYTES: u64 = 16;

/// Most loop iterations per slot and dispatch on a software driver: lavapipe stops a shader's
/// loop after about 65 536 iterations without an error (the kernel notices, see
/// [`GpuError::LoopCut`]).
const SOFTWARE_MAX_BUDGET: u32 = 1 << 15;

impl Gpu {
    /// The slots per dispatch: the setting, or the default of the adapter's kind, within the
    /// adapter's limits.
    fn slots(&self) -> u32 {
        let wanted =
            self.settings.slots.unwrap_or(if self.adapter.is_software() { 1 << 10 } else { 1 << 17 });
        let by_binding =
            self.limits.max_storage_buffer_binding_size.min(self.limits.max_buffer_size) / SLOT_BYTES;
        let by_dispatch = u64::from(self.limits.max_compute_workgroups_per_dimension) * u64::from(WORKGROUP);
        let slots = u64::from(wanted).min(by_binding).min(by_dispatch).max(u64::from(WORKGROUP));
        (slots as u32) / WORKGROUP * WORKGROUP
    }

    /// The start row for n: the setting (refused outside what the kernel runs) or the default.
    fn start_row(&self, rows: &Rows) -> Result<u32, GpuError> {
        let range = rows.start_rows();
        match self.settings.start_row {
            None => Ok(rows.default_start_row()),
            Some(r) if range.contains(&r) => Ok(r),
            Some(r) => Err(GpuError::Setting(format!(
                "--gpu-rows {r}: n = {} takes {} rows placed on the host",
                rows.n,
                damier::util::range(u64::from(*range.start()), u64::from(*range.end()))
            ))),
        }
    }

    /// Counts the tasks `indices` of `list`, calling `on_done` as each finishes, in order of
    /// completion; polls `control` between dispatches (every ~50 ms) and advances it by one
    /// per task. Tasks are cut into prefixes and the prefixes of many tasks run in one batch;
    /// a task is reported only once all its prefixes are counted, its count checked against
    /// overflow. On an error no task of the failed batch is reported.
    ///
    /// With [`GpuKernel::Join`], the tasks' halves are assembled and sealed by a pool of as
    /// many workers as the current rayon pool (each call starts one) and each sealed batch is
    /// matched on the GPU through the pipeline (a ring of device buffers, one submitting
    /// thread; docs/gpu.md, "The pipeline"; [`Gpu::breakdown`] says where the time went); a
    /// task is reported once all its batches are matched.
    pub fn count_tasks(
        &self,
        list: &TaskList,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), GpuError> {
        if self.settings.kernel == GpuKernel::Join {
            return self.count_tasks_join(list, indices, control, on_done);
        }
        let tasks: Vec<(u32, Task)> = indices
            .iter()
            .map(|&i| {
                list.get(i).map(|t| (i, t)).ok_or(TaskError::NoSuchTask {
                    n: list.n(),
                    index: i,
                    len: list.len(),
                })
            })
            .collect::<Result<_, _>>()?;
        if tasks.is_empty() {
            return Ok(());
        }
        let rows = Rows::new(list.n());
        let start_row = self.start_row(&rows)?;
        let slots = self.slots();
        let max_prefixes = (self.limits.max_storage_buffer_binding_size.min(self.limits.max_buffer_size)
            / PREFIX_BYTES)
            .min(1 << 22) as usize;
        let target = (8 * slots as usize).clamp(1 << 12, max_prefixes);
        let mut runner = Runner::new(self, slots)?;
        let mut next = 0;
        // The task whose prefixes did not all fit the last batch, with its count so far.
        let mut open: Option<OpenTask> = None;
        while next < tasks.len() || open.is_some() {
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            let mut prefixes: Vec<Prefix> = Vec::with_capacity(target);
            let mut batch: Vec<OpenTask> = Vec::new();
            let mut complete = Vec::new();
            while prefixes.len() < target {
                let mut t = match open.take() {
                    Some(t) => t,
                    None if next < tasks.len() => {
                        let (index, task) = tasks[next];
                        next += 1;
                        OpenTask::new(index, task, Expander::new(&rows, task, start_row))
                    }
                    None => break,
                };
                let before = prefixes.len();
                let finished = t.expander.fill(&rows, batch.len() as u32, &mut prefixes, target);
                t.prefixes_now = (prefixes.len() - before) as u64;
                complete.push(finished);
                batch.push(t);
                if !finished {
                    break;
                }
            }
            let start = Instant::now();
            let cols: Vec<u32> = batch.iter().map(|t| t.task.cols).collect();
            let counts = runner.run(&rows, start_row, &cols, &prefixes, control)?;
            let elapsed = start.elapsed();
            let total_prefixes = prefixes.len().max(1) as f64;
            for ((mut t, finished), count) in batch.into_iter().zip(complete).zip(counts) {
                t.count = t
                    .count
                    .checked_add(count)
                    .ok_or(GpuError::Overflow { adapter: self.adapter.name.clone() })?;
                t.elapsed += elapsed.mul_f64(t.prefixes_now as f64 / total_prefixes);
                if finished {
                    let count = t
                        .count
                        .checked_mul(t.task.weight)
                        .ok_or(GpuError::Overflow { adapter: self.adapter.name.clone() })?;
                    on_done(TaskDone { index: t.index, count, elapsed: t.elapsed });
                    control.advance(1);
                } else {
                    open = Some(t);
                }
            }
        }
        Ok(())
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
    /// the run's wall time, split by the prefixes it had in each batch (tasks of one batch run
    /// together). `on_done` sees each sampled task's count (the tests compare them with the
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
        // The tasks' GPU time, scaled to the run's wall time (the host's prefixes included).
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

/// A task being counted: its prefixes made so far, its count so far.
struct OpenTask {
    index: u32,
    task: Task,
    expander: Expander,
    /// Prefixes in the current batch.
    prefixes_now: u64,
    count: u64,
    elapsed: Duration,
}

impl OpenTask {
    fn new(index: u32, task: Task, expander: Expander) -> OpenTask {
        OpenTask { index, task, expander, prefixes_now: 0, count: 0, elapsed: Duration::ZERO }
    }
}

/// The buffers of one count and its dispatch loop.
struct Runner<'a> {
    gpu: &'a Gpu,
    slots: u32,
    slot_buffer: wgpu::Buffer,
    params: wgpu::Buffer,
    control: wgpu::Buffer,
    control_read: wgpu::Buffer,
    budget: u32,
}

/// Words of the kernel's `Params`.
const PARAM_WORDS: usize = 8;

impl<'a> Runner<'a> {
    fn new(gpu: &'a Gpu, slots: u32) -> Result<Runner<'a>, GpuError> {
        let storage =
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
        let slot_buffer = gpu.blank("slots", u64::from(slots) * SLOT_BYTES, storage);
        let params = gpu.blank(
            "params",
            (PARAM_WORDS * 4) as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let control = gpu.blank("control", 16, storage);
        let control_read =
            gpu.blank("control readback", 16, wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
        gpu.check("allocating the slots")?;
        let budget = gpu.settings.budget.unwrap_or(if gpu.adapter.is_software() { 1 << 13 } else { 1 << 12 });
        Ok(Runner { gpu, slots, slot_buffer, params, control, control_read, budget })
    }

    fn buffer(&self, label: &str, words: &[u32], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        use wgpu::util::DeviceExt;
        // A binding may not be empty: one word at the least.
        let bytes: Vec<u8> =
            if words.is_empty() { vec![0; 4] } else { words.iter().flat_map(|w| w.to_le_bytes()).collect() };
        self.gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: &bytes,
            usage,
        })
    }

    /// Counts one batch: the count of each of its tasks (`cols`), from `prefixes` (tagged with
    /// their task's position in `cols`), without the tasks' mirror weights.
    fn run(
        &mut self,
        rows: &Rows,
        start_row: u32,
        cols: &[u32],
        prefixes: &[Prefix],
        control: &Control,
    ) -> Result<Vec<u64>, GpuError> {
        let gpu = self.gpu;
        let storage = wgpu::BufferUsages::STORAGE;
        let row_words: Vec<u32> = rows.masks.iter().flatten().copied().collect();
        let prefix_words: Vec<u32> = prefixes.iter().flatten().copied().collect();
        let row_buffer = self.buffer("rows", &row_words, storage);
        let task_buffer = self.buffer("task columns", cols, storage);
        let prefix_buffer = self.buffer("prefixes", &prefix_words, storage);
        let counts = self.buffer("counts", &vec![0; 2 * cols.len()], storage | wgpu::BufferUsages::COPY_SRC);
        let counts_read = gpu.blank(
            "counts readback",
            (8 * cols.len().max(1)) as u64,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        gpu.check("allocating a batch")?;
        let bind = gpu.bind(
            "queens",
            &gpu.pipeline,
            &[
                &self.params,
                &row_buffer,
                &task_buffer,
                &prefix_buffer,
                &self.slot_buffer,
                &self.control,
                &counts,
            ],
        );
        gpu.queue.write_buffer(&self.control, 0, &[0; 16]);
        let target = Duration::from_millis(u64::from(gpu.settings.dispatch_ms.unwrap_or(50).max(1)));
        let max_budget = if gpu.adapter.is_software() { SOFTWARE_MAX_BUDGET } else { 1 << 22 };
        let mut fresh = 1;
        loop {
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            let params: [u32; PARAM_WORDS] =
                [start_row, rows.n - 1, self.budget, prefixes.len() as u32, rows.full, self.slots, fresh, 0];
            fresh = 0;
            gpu.queue.write_buffer(&self.params, 0, &words_to_bytes(&params));
            // `active` (word 1) counts this dispatch's slots with work left.
            gpu.queue.write_buffer(&self.control, 4, &[0; 4]);
            let (words, took) = gpu.dispatch_and_read(
                "queens",
                &gpu.pipeline,
                &bind,
                (self.slots / WORKGROUP, 1),
                &self.control,
                &self.control_read,
            )?;
            let (next, active, fault) = (words[0], words[1], words[2]);
            if fault & FAULT_CUT != 0 {
                return Err(GpuError::LoopCut { adapter: gpu.adapter.name.clone(), budget: self.budget });
            }
            if fault & FAULT_OVERFLOW != 0 {
                return Err(GpuError::Overflow { adapter: gpu.adapter.name.clone() });
            }
            if active == 0 {
                if (next as usize) < prefixes.len() {
                    return Err(gpu.fault(format!(
                        "the kernel stopped with prefixes left ({next} of {})",
                        prefixes.len()
                    )));
                }
                break;
            }
            if gpu.settings.budget.is_none() {
                if took < target / 2 {
                    self.budget = (self.budget * 2).min(max_budget);
                } else if took > target * 2 {
                    self.budget = (self.budget / 2).max(256);
                }
            }
        }
        let mut enc =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("counts") });
        enc.copy_buffer_to_buffer(&counts, 0, &counts_read, 0, (8 * cols.len()) as u64);
        let index = gpu.queue.submit([enc.finish()]);
        let words = gpu.read_words(&counts_read, index, 2 * cols.len())?;
        Ok(words.chunks_exact(2).map(|w| u64::from(w[1]) << 32 | u64::from(w[0])).collect())
    }
}
