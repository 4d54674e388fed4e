//! The device side: the kernel's pipeline, the batches of prefixes, the dispatch loop.

use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use damier::control::{Control, Interrupted};
use damier::queens::count::estimate::{self, Estimate, TimedTask};
use damier::queens::count::tasks::{Task, TaskDone, TaskEngine, TaskError, TaskList, sample_tasks};

use crate::adapters::{self, AdapterDescription};
use crate::error::GpuError;
use crate::prefix::{Expander, MAX_LEVELS, Prefix, Rows};

/// The kernel (`src/kernel.wgsl`).
const KERNEL: &str = include_str!("kernel.wgsl");

/// Invocations per workgroup (`@workgroup_size` in the kernel).
const WORKGROUP: u32 = 64;

/// Bytes of one slot's state: 4 words, then `MAX_LEVELS` levels of 4 words.
const SLOT_BYTES: u64 = 16 + 16 * MAX_LEVELS as u64;

/// Bytes of one prefix.
const PREFIX_BYTES: u64 = 16;

/// Fault bits the kernel sets (`FAULT_CUT`, `FAULT_OVERFLOW`).
pub(crate) const FAULT_CUT: u32 = 1;
pub(crate) const FAULT_OVERFLOW: u32 = 2;

/// Longest wait for one dispatch before the device is declared hung.
pub(crate) const DISPATCH_TIMEOUT: Duration = Duration::from_secs(60);

/// Most loop iterations per slot and dispatch on a software driver: lavapipe stops a shader's
/// loop after about 65 536 iterations without an error (the kernel notices, see
/// [`GpuError::LoopCut`]).
const SOFTWARE_MAX_BUDGET: u32 = 1 << 15;

/// How the engine cuts the work. `None` fields take defaults from the adapter and n.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuSettings {
    /// Rows placed on the host before the kernel takes over (default: about n / 2 - 1).
    pub start_row: Option<u32>,
    /// Invocations (slots) per dispatch (default: 1 024 on a software driver, 131 072 on a
    /// GPU, within the adapter's buffer limits).
    pub slots: Option<u32>,
    /// Loop iterations per slot and dispatch: fixed when given; otherwise adapted so that a
    /// dispatch takes about [`GpuSettings::dispatch_ms`] (capped at 32 768 on a software
    /// driver).
    pub budget: Option<u32>,
    /// Target wall time of one dispatch, milliseconds (default 50: far below the 2 s of an OS
    /// watchdog, and Ctrl-C is seen between dispatches).
    pub dispatch_ms: Option<u32>,
    /// Which kernel counts (default: [`GpuKernel::Join`]).
    pub kernel: GpuKernel,
    /// The join kernel's batches in flight at most: slots of its ring of device buffers
    /// (default: `ahead + 1` per sealing worker, so that no worker waits for a slot; each
    /// slot keeps the buffers of the largest batch it has held).
    pub ring: Option<u32>,
    /// The join kernel's batches a sealing worker leaves in flight while it seals on (the
    /// rest of its task or the next tasks; `count_tasks_sealing_ahead` in
    /// [`damier::queens::count::tasks`]): default 1; 0 makes each worker wait for every
    /// batch's count before it seals the next.
    pub ahead: Option<u32>,
}

/// The two kernel designs (docs/gpu.md). Both give every task the same count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GpuKernel {
    /// The backtracker's search, prefixes of each task finished by a bounded, resumable
    /// depth-first search per slot: all the work on the GPU.
    Search,
    /// The quarters engine's join: its halves assembled and sealed on the CPU cores (a pool
    /// of its own, as many workers as the current rayon pool), the matching of each sealed
    /// batch on the GPU. In the settings, `budget` is then the tiles (of 64 query-block
    /// matches) per dispatch, `slots` and `start_row` are unused. The default: 2.7 to 19 times
    /// faster than `Search` per solution on an NVIDIA H200 at n = 23 to 27 (docs/gpu.md).
    #[default]
    Join,
}

impl GpuKernel {
    /// The kernel's name (`--gpu-kernel`).
    pub fn name(self) -> &'static str {
        match self {
            GpuKernel::Search => "search",
            GpuKernel::Join => "join",
        }
    }

    /// The task engine whose algorithm the kernel runs: the one a journal of its counts is
    /// headed with, and whose other engine rechecks them.
    pub fn engine(self) -> TaskEngine {
        match self {
            GpuKernel::Search => TaskEngine::Backtrack,
            GpuKernel::Join => TaskEngine::Quarters,
        }
    }
}

/// What a device error handler saw (wgpu reports errors through callbacks).
type Problems = Arc<Mutex<Option<(bool, String)>>>;

/// An open GPU with the kernel compiled: counts tasks of the task list.
#[derive(Debug)]
pub struct Gpu {
    pub(crate) adapter: AdapterDescription,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    /// The join kernel's pipeline.
    pub(crate) join_pipeline: wgpu::ComputePipeline,
    /// The join kernel's tiles per dispatch, adapted (shared by the workers submitting).
    pub(crate) join_tiles: AtomicU32,
    /// Whether the device writes timestamps at the join's passes (`TIMESTAMP_QUERY`).
    pub(crate) timestamps: bool,
    /// Where the join's time went (summed over its counts).
    pub(crate) stats: crate::pipeline::Stats,
    /// The first error the device reported (out of memory?, message), or its loss.
    problems: Problems,
    pub(crate) settings: GpuSettings,
    pub(crate) limits: wgpu::Limits,
    /// Wall time of [`Gpu::open`]: the device opened and the kernel compiled, paid once per
    /// process.
    opened_in: Duration,
}

impl Gpu {
    /// Opens adapter `index` (`None`: the default one, see [`crate::adapters`]) and compiles
    /// the kernel.
    pub fn open(index: Option<usize>, settings: GpuSettings) -> Result<Gpu, GpuError> {
        let start = Instant::now();
        let instance = adapters::instance();
        let mut all = adapters::enumerate(&instance);
        if all.is_empty() {
            return Err(GpuError::NoAdapter);
        }
        let pos = match index {
            Some(i) if i < all.len() => i,
            Some(i) => return Err(GpuError::NoSuchAdapter { index: i, count: all.len() }),
            None => all.iter().position(|(d, _)| d.default).unwrap_or(0),
        };
        let (description, adapter) = all.swap_remove(pos);
        let name = description.name.clone();
        let limits = adapter.limits();
        // Timestamps where the adapter has them: the GPU's busy time (`Gpu::breakdown`).
        let features = adapter.features() & wgpu::Features::TIMESTAMP_QUERY;
        let desc = wgpu::DeviceDescriptor {
            label: Some("damier queens"),
            required_features: features,
            // The adapter's own limits: the largest buffers it allows.
            required_limits: limits.clone(),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&desc))
            .map_err(|e| GpuError::Open { adapter: name.clone(), why: e.to_string() })?;
        let problems: Problems = Arc::new(Mutex::new(None));
        let p = problems.clone();
        // wgpu's default handler panics: errors are kept and reported by the next check.
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            let oom = matches!(e, wgpu::Error::OutOfMemory { .. });
            let mut slot = p.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert((oom, one_line(&e.to_string())));
        }));
        let p = problems.clone();
        device.set_device_lost_callback(move |reason, message| {
            let mut slot = p.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert((false, format!("device lost ({reason:?}): {}", one_line(&message))));
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("queens kernel"),
            source: wgpu::ShaderSource::Wgsl(KERNEL.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("queens kernel"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        // PERF: the join kernel without the checks naga would add (a counter on every loop,
        // a clamp on every index, a test on every division: about 6 instructions a loop
        // iteration of its inner loops).
        let trusted = wgpu::ShaderRuntimeChecks {
            bounds_checks: false,
            force_loop_bounding: false,
            int_div_checks: false,
            ..wgpu::ShaderRuntimeChecks::checked()
        };
        // SAFETY: every loop of join.wgsl ends (the pair search after at most 40 steps, the
        // others after `params.chunks` or a pair's `tail_len` steps, each counted: a loop the
        // driver cuts short still raises the fault bit); every index is in its binding, as the
        // host checks before each upload (`join::check_group`: a pair's rows, queries and
        // tail inside the batch's, the pair count the group's, the chunks the rows' per
        // block) and the kernel reads pairs below `pair_count` only; every division is by a
        // constant or by a pair's units per query, taken only when the pair has units.
        let join_module = unsafe {
            device.create_shader_module_trusted(
                wgpu::ShaderModuleDescriptor {
                    label: Some("queens join kernel"),
                    source: wgpu::ShaderSource::Wgsl(crate::join::JOIN_KERNEL.into()),
                },
                trusted,
            )
        };
        let join_pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("queens join kernel"),
            layout: None,
            module: &join_module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let join_tiles = AtomicU32::new(if description.is_software() { 1 << 8 } else { 1 << 14 });
        let mut gpu = Gpu {
            adapter: description,
            device,
            queue,
            pipeline,
            join_pipeline,
            join_tiles,
            timestamps: features.contains(wgpu::Features::TIMESTAMP_QUERY),
            stats: Default::default(),
            problems,
            settings,
            limits,
            opened_in: Duration::ZERO,
        };
        gpu.check("compiling the kernel")?;
        gpu.opened_in = start.elapsed();
        Ok(gpu)
    }

    /// The adapter counting.
    pub fn adapter(&self) -> &AdapterDescription {
        &self.adapter
    }

    /// The kernel counting.
    pub fn kernel(&self) -> GpuKernel {
        self.settings.kernel
    }

    /// Where the join kernel's time went, summed over every count since [`Gpu::open`]
    /// (all zero for the search kernel): the sealing workers' time sealing, preparing the
    /// upload and waiting, the bytes uploaded, the GPU's busy time, jobs and dispatches.
    pub fn breakdown(&self) -> crate::Breakdown {
        self.stats.breakdown(self.timestamps)
    }

    /// The error the device reported since the last check, if any.
    pub(crate) fn check(&self, what: &str) -> Result<(), GpuError> {
        let problem = self.problems.lock().unwrap_or_else(|e| e.into_inner()).clone();
        match problem {
            None => Ok(()),
            Some((true, _)) => {
                Err(GpuError::OutOfMemory { adapter: self.adapter.name.clone(), what: what.into() })
            }
            Some((false, why)) => Err(self.fault(format!("{what}: {why}"))),
        }
    }

    pub(crate) fn fault(&self, why: String) -> GpuError {
        GpuError::Device { adapter: self.adapter.name.clone(), why }
    }

    /// A buffer of `size` bytes, not mapped.
    pub(crate) fn blank(&self, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    }

    /// The bind group of `pipeline`'s group 0: `buffers` bound in order, binding i to the i-th.
    pub(crate) fn bind(
        &self,
        label: &str,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let layout = pipeline.get_bind_group_layout(0);
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry { binding: i as u32, resource: b.as_entire_binding() })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &layout,
            entries: &entries,
        })
    }

    /// One dispatch of `pipeline` over `groups` workgroups, then the first four words of
    /// `state` copied to `readback` and read: what each kernel does once per dispatch. Returns
    /// the words and the time from submission to read-back (the dispatch's budget adapts to it).
    pub(crate) fn dispatch_and_read(
        &self,
        label: &str,
        pipeline: &wgpu::ComputePipeline,
        bind: &wgpu::BindGroup,
        groups: (u32, u32),
        state: &wgpu::Buffer,
        readback: &wgpu::Buffer,
    ) -> Result<(Vec<u32>, Duration), GpuError> {
        let mut enc =
            self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind, &[]);
            pass.dispatch_workgroups(groups.0, groups.1, 1);
        }
        enc.copy_buffer_to_buffer(state, 0, readback, 0, 16);
        let start = Instant::now();
        let index = self.queue.submit([enc.finish()]);
        let words = self.read_words(readback, index, 4)?;
        Ok((words, start.elapsed()))
    }

    /// Waits for submission `index` and reads the first `words` words of the readback buffer
    /// `buffer`. Safe with several threads submitting: the wait is for this submission, and
    /// the map's callback (run by whichever thread polls) is awaited, not assumed.
    pub(crate) fn read_words(
        &self,
        buffer: &wgpu::Buffer,
        index: wgpu::SubmissionIndex,
        words: usize,
    ) -> Result<Vec<u32>, GpuError> {
        let (tx, rx) = std::sync::mpsc::channel();
        buffer.map_async(wgpu::MapMode::Read, .., move |r| {
            // The receiver waits below; a send to a dropped one has nobody to tell.
            let _ = tx.send(r);
        });
        let start = Instant::now();
        let mapped = loop {
            self.device
                .poll(wgpu::PollType::Wait {
                    submission_index: Some(index.clone()),
                    timeout: Some(DISPATCH_TIMEOUT),
                })
                .map_err(|e| self.fault(format!("waiting for a dispatch: {}", one_line(&e.to_string()))))?;
            match rx.recv_timeout(Duration::from_millis(10)) {
                Ok(r) => break r,
                Err(_) if start.elapsed() < DISPATCH_TIMEOUT => continue,
                Err(_) => return Err(self.fault("reading results back: the map never completed".into())),
            }
        };
        self.check("running the kernel")?;
        mapped.map_err(|e| self.fault(format!("reading results back: {e}")))?;
        let out = {
            let view =
                buffer.get_mapped_range(..).map_err(|e| self.fault(format!("reading results back: {e}")))?;
            view.chunks_exact(4).take(words).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
        };
        buffer.unmap();
        Ok(out)
    }

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

pub(crate) fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A driver's message on one line.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
