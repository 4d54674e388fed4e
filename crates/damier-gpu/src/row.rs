//! Model 3 of the queens automaton on the GPU: each synchronous generation's fields (counts,
//! dangers, waves: no randomness, n² cells) computed by a WGSL kernel (`src/row.wgsl`), the
//! queens' phase (random, one generator, in row order) on the host with the library's own
//! [`RowBoard::queens_generation`]. The kernel computes the bits the CPU's row kernel
//! computes, and the host draws what the CPU draws, so a run follows the CPU's trajectory bit
//! for bit (the lavapipe tests compare every cell).
//!
//! The planes live on the device, two buffers swapped each generation (the current and the
//! next, as on the CPU), as `u32` words of 32 cells. Per generation the host uploads each row's
//! queen column (marked when the counts do not see it), dispatches one invocation per (word,
//! row), and reads back the n queen cells' field bits: one round trip, n words each way.

use damier::automaton::row::{PLANES, RowBoard, Schedule};

use crate::engine::Gpu;
use crate::error::GpuError;

/// The kernel (`src/row.wgsl`).
const ROW_KERNEL: &str = include_str!("row.wgsl");

/// Invocations per workgroup along the words and the rows (`@workgroup_size` in the kernel).
const GROUP: (u32, u32) = (32, 4);

/// The mark on a queen column that the counts do not see (`HIDDEN` in the kernel).
const HIDDEN: u32 = 1 << 31;

/// First plane of the waves (they hold 15, all ones, beyond the board).
const WAVES: usize = 12;

/// A model 3 run whose fields the GPU computes. The board it holds is the host's mirror: its
/// queens, generator and counters are always current, its planes only after
/// [`RowEngine::board`] downloaded them.
pub struct RowEngine<'a> {
    gpu: &'a Gpu,
    board: RowBoard,
    pipeline: wgpu::ComputePipeline,
    /// The two plane buffers: `planes[current]` holds the current generation.
    planes: [wgpu::Buffer; 2],
    /// `binds[i]` reads `planes[i]` and writes the other.
    binds: [wgpu::BindGroup; 2],
    current: usize,
    queens: wgpu::Buffer,
    /// The host's side of `queens`, refilled each generation (no allocation per generation).
    queens_up: Vec<u32>,
    fields: wgpu::Buffer,
    fields_read: wgpu::Buffer,
    /// Words per plane row (32 cells each).
    words: usize,
    /// Whether the mirror's planes are the device's current ones.
    synced: bool,
}

impl std::fmt::Debug for RowEngine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowEngine")
            .field("adapter", &self.gpu.adapter().name)
            .field("n", &self.board.n())
            .field("steps", &self.board.steps())
            .finish_non_exhaustive()
    }
}

impl<'a> RowEngine<'a> {
    /// Puts `board` (any state a run reaches: a start, or a checkpoint's) on `gpu` and compiles
    /// the kernel. Refused: a rule the kernel does not run (the random-cell schedule, or no
    /// waves: those read more than the queen's cell), and a board whose planes pass the
    /// adapter's buffer limits (said with the limit).
    pub fn new(gpu: &'a Gpu, board: RowBoard) -> Result<RowEngine<'a>, GpuError> {
        let rule = *board.rule();
        if rule.schedule != Schedule::Synchronous || !rule.wave {
            return Err(GpuError::Setting(
                "the GPU runs model 3's synchronous rules with waves (the random-cell schedule and the rules without waves run on the CPU)".into(),
            ));
        }
        let n = board.n();
        let words = n.div_ceil(32);
        let bytes = (n * PLANES * words * 4) as u64;
        let limits = &gpu.limits;
        let binding = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        if bytes > binding {
            return Err(GpuError::Setting(format!(
                "GPU {}: model 3's planes at n = {n} take {} MiB, more than the adapter's {} MiB storage binding",
                gpu.adapter.name,
                bytes.div_ceil(1 << 20),
                binding >> 20
            )));
        }
        let groups = n.div_ceil(GROUP.1 as usize) as u64;
        if groups > u64::from(limits.max_compute_workgroups_per_dimension) {
            return Err(GpuError::Setting(format!(
                "GPU {}: n = {n} takes {groups} workgroups, more than the adapter's {} per dispatch",
                gpu.adapter.name, limits.max_compute_workgroups_per_dimension
            )));
        }
        let module = gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("model 3 fields"),
            source: wgpu::ShaderSource::Wgsl(ROW_KERNEL.into()),
        });
        let pipeline = gpu.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("model 3 fields"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let storage =
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
        // A binding may not be empty: one word at the least (n = 0).
        let size = |b: u64| b.max(4);
        let planes = [
            gpu.blank("model 3 planes", size(bytes), storage),
            gpu.blank("model 3 planes", size(bytes), storage),
        ];
        let row_bytes = size(4 * n as u64);
        let queens = gpu.blank("model 3 queens", row_bytes, storage);
        let fields = gpu.blank("model 3 queen fields", row_bytes, storage);
        let fields_read = gpu.blank(
            "model 3 queen fields readback",
            row_bytes,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let params =
            gpu.blank("model 3 params", 16, wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST);
        gpu.check("allocating model 3's planes")?;
        let pad = if n.is_multiple_of(32) { 0 } else { u32::MAX << (n % 32) };
        gpu.queue.write_buffer(
            &params,
            0,
            bytemuck::cast_slice(&[n as u32, words as u32, u32::from(rule.cap), pad]),
        );
        gpu.queue.write_buffer(&planes[0], 0, bytemuck::cast_slice(&to_device(&board, words)));
        let bind = |from: usize| {
            gpu.bind(
                "model 3 fields",
                &pipeline,
                &[&params, &planes[from], &planes[1 - from], &queens, &fields],
            )
        };
        let binds = [bind(0), bind(1)];
        gpu.check("uploading model 3's planes")?;
        Ok(RowEngine {
            gpu,
            board,
            pipeline,
            planes,
            binds,
            current: 0,
            queens,
            queens_up: Vec::with_capacity(n),
            fields,
            fields_read,
            words,
            synced: true,
        })
    }

    /// One generation: the fields on the device, the queens on the host.
    pub fn step(&mut self) -> Result<(), GpuError> {
        let (gpu, n) = (self.gpu, self.board.n());
        if n == 0 {
            self.board.queens_generation(&[]);
            return Ok(());
        }
        let hide = self.board.rule().hide_walkers;
        let board = &self.board;
        self.queens_up.clear();
        self.queens_up.extend((0..n).map(|y| {
            let x = board.columns()[y];
            x | if hide && board.walking(x as usize, y) { HIDDEN } else { 0 }
        }));
        gpu.queue.write_buffer(&self.queens, 0, bytemuck::cast_slice(&self.queens_up));
        let mut enc = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("model 3 generation") });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("model 3 generation"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.binds[self.current], &[]);
            pass.dispatch_workgroups(
                self.words.div_ceil(GROUP.0 as usize) as u32,
                n.div_ceil(GROUP.1 as usize) as u32,
                1,
            );
        }
        enc.copy_buffer_to_buffer(&self.fields, 0, &self.fields_read, 0, 4 * n as u64);
        let index = gpu.queue.submit([enc.finish()]);
        let fields = gpu.read_words(&self.fields_read, index, n)?;
        self.board.queens_generation(&fields);
        self.current = 1 - self.current;
        self.synced = false;
        Ok(())
    }

    /// Up to `limit` generations, stopping at a solution (as [`RowBoard::run_steps`]);
    /// returns whether the queens form one.
    pub fn run_steps(&mut self, limit: u64) -> Result<bool, GpuError> {
        for _ in 0..limit {
            if self.board.is_solution() {
                break;
            }
            self.step()?;
        }
        Ok(self.board.is_solution())
    }

    /// The whole state, the device's planes downloaded into the mirror (checkpoints, final
    /// results, the CPU's checks).
    pub fn board(&mut self) -> Result<&RowBoard, GpuError> {
        if !self.synced {
            let planes = self.download()?;
            self.board.set_planes(&planes).map_err(|e| {
                self.gpu.fault(format!("the device's model 3 planes are not a state of the rule: {e}"))
            })?;
            self.synced = true;
        }
        Ok(&self.board)
    }

    /// [`RowEngine::board`], given up.
    pub fn into_board(mut self) -> Result<RowBoard, GpuError> {
        self.board()?;
        Ok(self.board)
    }

    /// The host's mirror as it stands: queens, generator and counters current, planes
    /// possibly older (see [`RowEngine::board`]).
    pub fn mirror(&self) -> &RowBoard {
        &self.board
    }

    /// The current planes in [`RowBoard::set_planes`]'s layout (64 cells a word).
    fn download(&self) -> Result<Vec<u64>, GpuError> {
        let (gpu, n, words) = (self.gpu, self.board.n(), self.words);
        let total = n * PLANES * words;
        if total == 0 {
            return Ok(Vec::new());
        }
        let read = gpu.blank(
            "model 3 planes readback",
            4 * total as u64,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let mut enc = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("model 3 planes") });
        enc.copy_buffer_to_buffer(&self.planes[self.current], 0, &read, 0, 4 * total as u64);
        let index = gpu.queue.submit([enc.finish()]);
        gpu.check("allocating model 3's planes readback")?;
        let device = gpu.read_words(&read, index, total)?;
        Ok(from_device(&device, n, words))
    }
}

/// `board`'s planes as the kernel holds them: row `y`'s plane `p` at `(y PLANES + p) words`,
/// 32 cells a word (the halves of the board's 64-cell words).
fn to_device(board: &RowBoard, words: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(board.n() * PLANES * words);
    for y in 0..board.n() {
        for p in 0..PLANES {
            let plane = board.plane(p, y);
            out.extend((0..words).map(|w| (plane[w / 2] >> (32 * (w % 2))) as u32));
        }
    }
    out
}

/// The kernel's planes back in [`RowBoard::set_planes`]'s layout: a 64-cell word's upper half
/// beyond the last 32-cell word is all beyond the board (count 0, wave 15).
fn from_device(device: &[u32], n: usize, words: usize) -> Vec<u64> {
    let m = n.div_ceil(64);
    let mut out = Vec::with_capacity(n * PLANES * m);
    for (i, plane) in device.chunks_exact(words).enumerate() {
        let beyond = if i % PLANES >= WAVES { u32::MAX } else { 0 };
        out.extend((0..m).map(|j| {
            let hi = plane.get(2 * j + 1).copied().unwrap_or(beyond);
            u64::from(hi) << 32 | u64::from(plane[2 * j])
        }));
    }
    out
}
