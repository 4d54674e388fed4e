//! The device: the adapter opened, the join kernel compiled ([`Gpu::open`]), and what every
//! kernel's host code does with it (buffers, bind groups, one dispatch and its read-back,
//! the device's errors). Below the kernels' modules (`engine`, `join`, `pipeline`, `row`), so
//! that imports point one way.

use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use damier::queens::count::devices::GpuKernel;

use crate::adapters::{self, AdapterDescription};
use crate::error::GpuError;
use crate::prelude::{JOIN_PRELUDE, join_module};
use crate::stats::{Breakdown, Stats};

/// The join kernel (`src/join.wgsl`), and the parts that [`join_source`] assembles with it
/// (after the join passes' prelude, `src/prelude.wgsl`): keys as two u32 words or as u64,
/// workgroup sums by atomics or by subgroups, a tile's sum stored in its own slot or added
/// into shared partial sums.
const JOIN_KERNEL: &str = include_str!("join.wgsl");
const JOIN_KEY32: &str = include_str!("join_key32.wgsl");
const JOIN_KEY64: &str = include_str!("join_key64.wgsl");
const JOIN_SUM_ATOMIC: &str = include_str!("join_sum_atomic.wgsl");
const JOIN_SUM_SUBGROUP: &str = include_str!("join_sum_subgroup.wgsl");
const JOIN_OUT_TILE: &str = include_str!("join_out_tile.wgsl");
const JOIN_OUT_SHARED: &str = include_str!("join_out_shared.wgsl");

/// The pass that adds the join kernel's tile slots into each dispatch's partial sums (with
/// [`JOIN_OUT_TILE`]).
pub(crate) const REDUCE_KERNEL: &str = join_module!("join_reduce.wgsl");

/// Bytes of one chunk of a block in the join kernel's workgroup memory (32 rows of 64 bytes),
/// and the most chunks it copies (the library's keys have at most 11).
const CHUNK_BYTES: u32 = damier::queens::count::join::ROWS_PER_CHUNK as u32 * 64;
const MAX_STAGED_CHUNKS: u32 = 11;

/// The pass that bit-slices the join's stored keys on the GPU (module `pipeline`), with the
/// join's portable key part appended for its `chunk_of` (WGSL has no imports: one extraction
/// of a chunk for both kernels).
const SEAL_KERNEL: &str = join_module!("seal.wgsl", "join_key32.wgsl");

/// The pass that writes out the join's keys and queries, uploaded packed (module `packing`).
const UNPACK_KERNEL: &str = join_module!("unpack.wgsl");

/// The pass that writes out the join's pairs, uploaded packed (module `pairs`).
const PAIRS_KERNEL: &str = join_module!("pairs.wgsl");

/// Fault bits the kernels set (`FAULT_CUT`, `FAULT_OVERFLOW` in `src/prelude.wgsl`).
pub(crate) const FAULT_CUT: u32 = 1;
pub(crate) const FAULT_OVERFLOW: u32 = 2;

/// Longest wait for one dispatch before the device is declared hung.
pub(crate) const DISPATCH_TIMEOUT: Duration = Duration::from_secs(60);

/// Most pairs uploaded at once (32 MB as the kernel reads them, about 5 to 8 MB packed:
/// module `pairs`; `Gpu::group_pairs`), and most tiles under one running sum (the kernel's
/// `u32`). Here rather than in `join`, which reads it: `join` uses the device, not the other
/// way round.
pub(crate) const MAX_PAIRS: usize = 1 << 20;

/// How the engine cuts the work. `None` fields take defaults from the adapter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuSettings {
    /// Tiles (a block against up to 256 queries) per dispatch: fixed when given; otherwise
    /// adapted so that a dispatch takes about [`GpuSettings::dispatch_ms`].
    pub budget: Option<u32>,
    /// Target wall time of one dispatch, milliseconds (default 50: far below the 2 s of an OS
    /// watchdog, and Ctrl-C is seen between dispatches).
    pub dispatch_ms: Option<u32>,
    /// Which kernel counts: the join, the only one since 2026-12-06.
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
    /// The join kernel without the adapter's optional features (64-bit integers, subgroups):
    /// the portable path every adapter runs, as compiled where the adapter lacks them.
    pub portable: bool,
    /// Workgroup memory the join kernel may take for a tile's block, bytes (default: the
    /// adapter's limit, up to the 22.5 KB of a block of 11 chunks; a block of more chunks than
    /// fit, 2 KB a chunk, is read from global memory; 0 reads every block there).
    pub workgroup_bytes: Option<u32>,
    /// The join kernel's stored keys per sealed batch at most (default: the quarters
    /// engine's batch, 16 M keys): a smaller one cuts a task's stored side into several
    /// batches (the tests' batch boundaries in the middle of a task).
    pub batch_keys: Option<u32>,
    /// The join kernel's sums as before the slot per tile (to compare; the same counts): each
    /// workgroup adds its sum atomically into one of the 32 partial sums of its dispatch,
    /// instead of storing it in a slot of its own that a reduce pass adds up (the default).
    pub shared_sums: bool,
}

/// How the join kernel was compiled for the adapter ([`Gpu::join_kernel`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct JoinKernel {
    /// Keys as u64 (the adapter's `SHADER_INT64`), else as two u32 words.
    pub int64: bool,
    /// Workgroup sums by subgroup reductions (`SUBGROUP`), else by workgroup atomics.
    pub subgroups: bool,
    /// The most chunks of a block copied into workgroup memory (batches of more chunks read
    /// their blocks from global memory; 0: every batch).
    pub staged_chunks: u32,
    /// Each tile's sum stored in a slot of its own and the slots added by a reduce pass after
    /// each dispatch (the default), else added atomically into 32 shared partial sums
    /// ([`GpuSettings::shared_sums`]).
    pub tile_sums: bool,
}

/// The join kernel's source for `kernel`: the prelude, join.wgsl with its key, sum and output
/// parts.
pub(crate) fn join_source(kernel: JoinKernel) -> String {
    let key = if kernel.int64 { JOIN_KEY64 } else { JOIN_KEY32 };
    let sum = if kernel.subgroups { JOIN_SUM_SUBGROUP } else { JOIN_SUM_ATOMIC };
    let out = if kernel.tile_sums { JOIN_OUT_TILE } else { JOIN_OUT_SHARED };
    format!(
        "{JOIN_PRELUDE}\n{JOIN_KERNEL}\n{key}\n{sum}\n{out}\n// Chunks of a block copied into workgroup memory (the host's).\nconst WG_CHUNKS: u32 = {}u;\n",
        kernel.staged_chunks
    )
}

/// The compute pipeline of the WGSL `source` (entry point `main`), its module compiled with
/// naga's run-time checks.
pub(crate) fn checked_pipeline(device: &wgpu::Device, label: &str, source: &str) -> wgpu::ComputePipeline {
    checked_pipeline_with(device, label, source, &[])
}

/// [`checked_pipeline`] with those of the pipeline constants `constants` that `source`
/// declares (its `override`s).
pub(crate) fn checked_pipeline_with(
    device: &wgpu::Device,
    label: &str,
    source: &str,
    constants: &[(&str, f64)],
) -> wgpu::ComputePipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants: &constants_in(source, constants),
            ..Default::default()
        },
        cache: None,
    })
}

/// Those of `constants` that `source` declares (`override NAME`): wgpu refuses a pipeline
/// given a constant its module lacks, and the tests' constants are shared by the join kernel
/// and its reduce pass.
fn constants_in<'a>(source: &str, constants: &[(&'a str, f64)]) -> Vec<(&'a str, f64)> {
    constants.iter().copied().filter(|(name, _)| source.contains(&format!("override {name}:"))).collect()
}

/// What a device error handler saw (wgpu reports errors through callbacks).
type Problems = Arc<Mutex<Option<(bool, String)>>>;

/// An open GPU with the kernel compiled: counts tasks of the task list.
#[derive(Debug)]
pub struct Gpu {
    pub(crate) adapter: AdapterDescription,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    /// The join kernel's pipeline, and how it was compiled.
    pub(crate) join_pipeline: wgpu::ComputePipeline,
    pub(crate) join_kernel: JoinKernel,
    /// The pass that adds the tile slots of each dispatch into its partial sums (with
    /// [`JoinKernel::tile_sums`]).
    pub(crate) reduce_pipeline: Option<wgpu::ComputePipeline>,
    /// The pipeline that bit-slices the join's stored keys into its rows.
    pub(crate) seal_pipeline: wgpu::ComputePipeline,
    /// The pipeline that writes out the join's packed keys and queries.
    pub(crate) unpack_pipeline: wgpu::ComputePipeline,
    /// The pipeline that writes out the join's packed pairs.
    pub(crate) pairs_pipeline: wgpu::ComputePipeline,
    /// The join kernel's tiles per dispatch, adapted (shared by the workers submitting).
    pub(crate) join_tiles: AtomicU32,
    /// Most pairs of a batch uploaded at once ([`MAX_PAIRS`]; a test sets fewer, to cut
    /// batches into several groups).
    pub(crate) group_pairs: usize,
    /// Bits flipped in the widths the pairs pass is told (0; a test sets others, to check
    /// that wrong widths fail the count rather than change it).
    pub(crate) pair_widths_flip: u32,
    /// Whether every group of pairs is sent packed, even a few pairs (false; a test sets it,
    /// so that the pairs pass runs on every batch).
    pub(crate) pack_every_group: bool,
    /// Whether the device writes timestamps at the join's passes (`TIMESTAMP_QUERY`).
    pub(crate) timestamps: bool,
    /// Where the join's time went (summed over its counts).
    pub(crate) stats: Stats,
    /// The first error the device reported (out of memory?, message), or its loss.
    problems: Problems,
    pub(crate) settings: GpuSettings,
    pub(crate) limits: wgpu::Limits,
    /// Wall time of [`Gpu::open`]: the device opened and the kernel compiled, paid once per
    /// process.
    pub(crate) opened_in: Duration,
}

impl Gpu {
    /// Opens adapter `index` (`None`: the default one, see [`crate::adapters`]) and compiles
    /// the join kernel.
    pub fn open(index: Option<usize>, settings: GpuSettings) -> Result<Gpu, GpuError> {
        Gpu::open_with(index, settings, &[])
    }

    /// [`Gpu::open`] with the pipeline constants `constants` of the join kernel and its
    /// reduce pass (their `override`s: only tests set them, to cut a loop short or to make the
    /// partial sums carry and overflow), each given to the modules that declare it.
    pub(crate) fn open_with(
        index: Option<usize>,
        settings: GpuSettings,
        constants: &[(&str, f64)],
    ) -> Result<Gpu, GpuError> {
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
        // Timestamps where the adapter has them: the GPU's busy time (`Gpu::breakdown`); the
        // join kernel's optional features, unless the settings ask for the portable path.
        let mut wanted = wgpu::Features::TIMESTAMP_QUERY;
        if !settings.portable {
            wanted |= wgpu::Features::SHADER_INT64 | wgpu::Features::SUBGROUP;
        }
        let features = adapter.features() & wanted;
        let staged_chunks =
            (limits.max_compute_workgroup_storage_size.min(settings.workgroup_bytes.unwrap_or(u32::MAX))
                / CHUNK_BYTES)
                .min(MAX_STAGED_CHUNKS);
        let join_kernel = JoinKernel {
            int64: features.contains(wgpu::Features::SHADER_INT64),
            subgroups: features.contains(wgpu::Features::SUBGROUP),
            staged_chunks,
            tile_sums: !settings.shared_sums,
        };
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
        // PERF: the join kernel without the checks naga would add (a counter on every loop,
        // a clamp on every index, a test on every division: about 6 instructions a loop
        // iteration of its inner loops).
        let trusted = wgpu::ShaderRuntimeChecks {
            bounds_checks: false,
            force_loop_bounding: false,
            int_div_checks: false,
            ..wgpu::ShaderRuntimeChecks::checked()
        };
        let source = join_source(join_kernel);
        // SAFETY: every loop of the join kernel has a constant bound (the pair search at most
        // 40 steps, fewer only where a test sets `PAIR_STEPS`, the query rounds 4, the chunks
        // 12, the block's copy 2 loads a staged chunk, a tail 512 keys), each counted against
        // what it should do (a loop the driver cuts short, or a tail longer than its bound,
        // raises the fault bit); every index is in its binding, as the host checks before
        // each upload (`pipeline::check_group`: a pair's rows, queries and tail inside the
        // batch's, the pair count the group's, the chunks at most 12 and the rows' per block)
        // and the kernel reads pairs below `pair_count` only, and a block in workgroup memory
        // at rows below its chunks' (at most `staged_chunks`, the array's size) after copying
        // them all; a tile's slot (join_out_tile.wgsl) is below its dispatch's tiles, which
        // the slots' buffer holds (`Slot::load_params` grows it for every dispatch it writes);
        // every division is by a constant or by a pair's query groups, at least 1.
        let join_module = unsafe {
            device.create_shader_module_trusted(
                wgpu::ShaderModuleDescriptor {
                    label: Some("queens join kernel"),
                    source: wgpu::ShaderSource::Wgsl(source.as_str().into()),
                },
                trusted,
            )
        };
        let join_pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("queens join kernel"),
            layout: None,
            module: &join_module,
            entry_point: Some("main"),
            // PERF: no zeroing of the workgroup memory (a tile's block): the kernel sets what
            // it reads before reading it.
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants_in(&source, constants),
                zero_initialize_workgroup_memory: false,
            },
            cache: None,
        });
        // Checked (naga's bounds checks and loop bounding kept): the pass is a small part of
        // the work, so it needs no proof of its own.
        let seal_pipeline = checked_pipeline(&device, "queens join sealing", SEAL_KERNEL);
        let unpack_pipeline = checked_pipeline(&device, "queens join unpacking", UNPACK_KERNEL);
        let pairs_pipeline = checked_pipeline(&device, "queens join pairs", PAIRS_KERNEL);
        let reduce_pipeline = join_kernel
            .tile_sums
            .then(|| checked_pipeline_with(&device, "queens join sums", REDUCE_KERNEL, constants));
        let join_tiles = AtomicU32::new(if description.is_software() { 1 << 6 } else { 1 << 12 });
        let mut gpu = Gpu {
            adapter: description,
            device,
            queue,
            join_pipeline,
            join_kernel,
            reduce_pipeline,
            seal_pipeline,
            unpack_pipeline,
            pairs_pipeline,
            join_tiles,
            group_pairs: MAX_PAIRS,
            pair_widths_flip: 0,
            pack_every_group: false,
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

    /// How the join kernel was compiled for this adapter (its optional features, the
    /// chunks of a block it copies into workgroup memory).
    pub fn join_kernel(&self) -> JoinKernel {
        self.join_kernel
    }

    /// Where the join kernel's time went, summed over every count since [`Gpu::open`]: the sealing workers' time sealing, preparing the
    /// upload and waiting, the bytes uploaded, the GPU's busy time, jobs and dispatches.
    pub fn breakdown(&self) -> Breakdown {
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
        self.bind_resources(
            label,
            &pipeline.get_bind_group_layout(0),
            buffers.iter().map(|b| b.as_entire_binding()),
        )
    }

    /// The bind group of `layout`: `resources` bound in order, binding i to the i-th.
    pub(crate) fn bind_resources<'a>(
        &self,
        label: &str,
        layout: &wgpu::BindGroupLayout,
        resources: impl IntoIterator<Item = wgpu::BindingResource<'a>>,
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry> = resources
            .into_iter()
            .enumerate()
            .map(|(i, resource)| wgpu::BindGroupEntry { binding: i as u32, resource })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout,
            entries: &entries,
        })
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
}

/// A driver's message on one line.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
