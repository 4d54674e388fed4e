//! Model 3 of the queens automaton wholly on the GPU: each synchronous generation's fields
//! (counts, dangers, waves: no randomness, n² cells) computed by one WGSL kernel
//! (`src/row.wgsl`), its queens' phase by another (`src/row_queens.wgsl`): the CPU's
//! [`RowBoard`] queens' phase, row after row with the run's one xoshiro256++ generator (in
//! `u32` pairs), so that a run follows the CPU's trajectory bit for bit (the lavapipe tests
//! compare every cell, the queens, the counters and the generator).
//!
//! The whole state lives on the device: the planes in two buffers swapped each generation
//! (the current and the next, as on the CPU), as `u32` words of 32 cells; each row's queen
//! column and state, the line counts, and a status of 13 words (conflicts left, steps,
//! moves, the generator's state). A submission runs many generations (as many as take about
//! [`TARGET`] of device time, adapted as the run goes) and reads back the status alone; a
//! generation that starts on a solution changes nothing, so the run stops where the CPU's
//! stops. The whole state comes back only when asked ([`RowEngine::board`]: checkpoints, the
//! result).
//!
//! The queens' phase is one thread's work: the generator is one stream, and how many draws a
//! row makes depends on the rows before it. It costs n steps of one thread per generation
//! (a few draws for each queen in danger, nothing for the others), beside the fields' n²
//! cells on every core of the device; its workgroup of 256 brings the rows' words into
//! workgroup memory 256 at a time for it.

use std::time::{Duration, Instant};

use damier::automaton::checkpoint::{generator_from_words, generator_words};
use damier::automaton::row::{PLANES, RowBoard, Schedule};

use crate::device::Gpu;
use crate::error::GpuError;
use crate::prelude::row_module;

/// The fields kernel (`src/row.wgsl`), after model 3's prelude (`src/row_prelude.wgsl`).
const ROW_KERNEL: &str = row_module!("row.wgsl");
/// The queens' kernel (`src/row_queens.wgsl`), after the prelude.
const QUEENS_KERNEL: &str = row_module!("row_queens.wgsl");

/// Invocations per workgroup along the words and the rows (`@workgroup_size` in the kernel).
const GROUP: (u32, u32) = (32, 4);

/// The mark on a queen column that the counts do not see (`HIDDEN` in the kernels' prelude).
pub(crate) const HIDDEN: u32 = 1 << 31;

/// First plane of the waves (they hold 15, all ones, beyond the board).
pub(crate) const WAVES: usize = 12;

/// Words of the status: conflicts left, steps and moves (low, high), the generator's four
/// words (low, high each).
pub(crate) const STATUS: usize = 13;

/// Device time a submission aims at: long enough that the round trip is a small share, short
/// enough that progress, Ctrl-C and checkpoints are seen at once.
pub const TARGET: Duration = Duration::from_millis(50);

/// Most generations in one submission.
const MOST: u64 = 4096;

/// A model 3 run on the GPU. The board it holds is the host's copy, current only after
/// [`RowEngine::board`] downloaded the device's state; the counters ([`RowEngine::steps`],
/// [`RowEngine::moves`], [`RowEngine::conflicts`]) are read after every submission.
pub struct RowEngine<'a> {
    gpu: &'a Gpu,
    board: RowBoard,
    fields_pipeline: wgpu::ComputePipeline,
    queens_pipeline: wgpu::ComputePipeline,
    /// The two plane buffers: `planes[current]` holds the current generation.
    planes: [wgpu::Buffer; 2],
    /// `binds[i]` reads `planes[i]` and writes the other.
    binds: [wgpu::BindGroup; 2],
    queens_bind: wgpu::BindGroup,
    current: usize,
    queens: wgpu::Buffer,
    qs: wgpu::Buffer,
    status: wgpu::Buffer,
    status_read: wgpu::Buffer,
    /// Words per plane row (32 cells each).
    words: usize,
    /// The status as last read.
    last: [u32; STATUS],
    /// Generations of the next submission.
    batch: u64,
    /// Whether the host's board is the device's state.
    synced: bool,
}

impl std::fmt::Debug for RowEngine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowEngine")
            .field("adapter", &self.gpu.adapter().name)
            .field("n", &self.board.n())
            .field("steps", &self.steps())
            .finish_non_exhaustive()
    }
}

/// A `u64` as its low and high words.
fn halves(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// The status of `board`: conflicts left, steps, moves, generator.
fn status_of(board: &RowBoard) -> [u32; STATUS] {
    let mut s = [0u32; STATUS];
    s[0] = board.conflicts();
    s[1..3].copy_from_slice(&halves(board.steps()));
    s[3..5].copy_from_slice(&halves(board.moves()));
    for (i, w) in generator_words(board.generator()).into_iter().enumerate() {
        s[5 + 2 * i..7 + 2 * i].copy_from_slice(&halves(w));
    }
    s
}

/// A probability as the queens' kernel's threshold (`threshold` in the library's row/rule.rs):
/// low and high words of round(p 2^53).
fn threshold(p: f64) -> [u32; 2] {
    halves((p * (1u64 << 53) as f64).round() as u64)
}

impl<'a> RowEngine<'a> {
    /// Puts `board` (any state a run reaches: a start, or a checkpoint's) on `gpu` and compiles
    /// the kernels. Refused: a rule the kernels do not run (the random-cell schedule, or no
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
        let pipeline =
            |label: &str, source: &str| crate::device::checked_pipeline(&gpu.device, label, source);
        let fields_pipeline = pipeline("model 3 fields", ROW_KERNEL);
        let queens_pipeline = pipeline("model 3 queens", QUEENS_KERNEL);
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
        let qs = gpu.blank("model 3 queen states", row_bytes, storage);
        let fields = gpu.blank("model 3 queen fields", row_bytes, storage);
        let line_count = n + 2 * (2 * n).saturating_sub(1);
        let lines = gpu.blank("model 3 lines", size(4 * line_count as u64), storage);
        let status = gpu.blank("model 3 status", 4 * STATUS as u64, storage);
        let status_read = gpu.blank(
            "model 3 status readback",
            4 * STATUS as u64,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let params =
            gpu.blank("model 3 params", 16, wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST);
        let rule_buf = gpu.blank("model 3 rule", 4 * 22, storage);
        gpu.check("allocating model 3's state")?;
        let pad = if n.is_multiple_of(32) { 0 } else { u32::MAX << (n % 32) };
        let write = |buffer: &wgpu::Buffer, data: &[u32]| {
            if !data.is_empty() {
                gpu.queue.write_buffer(buffer, 0, bytemuck::cast_slice(data));
            }
        };
        write(&params, &[n as u32, words as u32, u32::from(rule.cap), pad]);
        let mut rule_words = vec![
            n as u32,
            u32::from(rule.hide_walkers),
            u32::from(rule.patience),
            u32::from(rule.patience_keeps),
            u32::from(rule.rest),
            u32::from(rule.backoff),
            u32::from(rule.backoff_hits),
            0,
        ];
        for p in [
            rule.eps,
            rule.plateau,
            rule.activity,
            rule.south_activity,
            rule.patience_rate,
            rule.rest_rate,
            rule.backoff_rate,
        ] {
            rule_words.extend(threshold(p));
        }
        write(&rule_buf, &rule_words);
        write(&planes[0], &to_device(&board, words));
        let hide = rule.hide_walkers;
        let cols = board.columns();
        write(
            &queens,
            &(0..n)
                .map(|y| cols[y] | if hide && board.walking(cols[y] as usize, y) { HIDDEN } else { 0 })
                .collect::<Vec<_>>(),
        );
        write(&qs, &(0..n).map(|y| board.queen_state(y)).collect::<Vec<_>>());
        let mut line_words = vec![0u32; line_count];
        for (y, &x) in cols.iter().enumerate() {
            let x = x as usize;
            for l in [x, n + x + n - 1 - y, 3 * n - 1 + x + y] {
                line_words[l] += 1;
            }
        }
        write(&lines, &line_words);
        let last = status_of(&board);
        write(&status, &last);
        let bind = |from: usize| {
            gpu.bind(
                "model 3 fields",
                &fields_pipeline,
                &[&params, &planes[from], &planes[1 - from], &queens, &fields, &status],
            )
        };
        let binds = [bind(0), bind(1)];
        let queens_bind = gpu.bind(
            "model 3 queens",
            &queens_pipeline,
            &[&rule_buf, &fields, &queens, &qs, &lines, &status],
        );
        gpu.check("uploading model 3's state")?;
        Ok(RowEngine {
            gpu,
            board,
            fields_pipeline,
            queens_pipeline,
            planes,
            binds,
            queens_bind,
            current: 0,
            queens,
            qs,
            status,
            status_read,
            words,
            last,
            batch: 1,
            synced: true,
        })
    }

    /// Generations made.
    pub fn steps(&self) -> u64 {
        u64::from(self.last[1]) | u64::from(self.last[2]) << 32
    }

    /// Queen moves made.
    pub fn moves(&self) -> u64 {
        u64::from(self.last[3]) | u64::from(self.last[4]) << 32
    }

    /// Lines (columns and diagonals) holding two queens or more.
    pub fn conflicts(&self) -> u32 {
        self.last[0]
    }

    /// True when the queens form a solution.
    pub fn is_solution(&self) -> bool {
        self.conflicts() == 0
    }

    /// One submission: up to `limit` generations (as many as take about `TARGET` (50 ms)), fewer
    /// when the queens reach a solution first. Returns the generations made.
    pub fn advance(&mut self, limit: u64) -> Result<u64, GpuError> {
        let gpu = self.gpu;
        let (n, before) = (self.board.n(), self.steps());
        let k = limit.min(self.batch);
        if k == 0 || self.is_solution() {
            return Ok(0);
        }
        let mut enc = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("model 3 generations") });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("model 3 generations"),
                timestamp_writes: None,
            });
            let groups = (self.words.div_ceil(GROUP.0 as usize) as u32, n.div_ceil(GROUP.1 as usize) as u32);
            for _ in 0..k {
                pass.set_pipeline(&self.fields_pipeline);
                pass.set_bind_group(0, &self.binds[self.current], &[]);
                pass.dispatch_workgroups(groups.0, groups.1, 1);
                pass.set_pipeline(&self.queens_pipeline);
                pass.set_bind_group(0, &self.queens_bind, &[]);
                pass.dispatch_workgroups(1, 1, 1);
                self.current = 1 - self.current;
            }
        }
        enc.copy_buffer_to_buffer(&self.status, 0, &self.status_read, 0, 4 * STATUS as u64);
        let start = Instant::now();
        let index = gpu.queue.submit([enc.finish()]);
        let status = gpu.read_words(&self.status_read, index, STATUS)?;
        let took = start.elapsed();
        self.last.copy_from_slice(&status);
        self.synced = false;
        // PERF: the next submission sized to take about TARGET (doubling at most, so that a
        // slow adapter is not handed a submission it cannot finish in time).
        if k == self.batch {
            let per = took.as_secs_f64() / k as f64;
            let fit = (TARGET.as_secs_f64() / per.max(1e-9)) as u64;
            self.batch = fit.clamp(1, (2 * self.batch).min(MOST));
        }
        let made = self.steps().wrapping_sub(before);
        if made > k {
            return Err(gpu.fault(format!("model 3's status says {made} generations of the {k} submitted")));
        }
        Ok(made)
    }

    /// Up to `limit` generations, stopping at a solution (as [`RowBoard::run_steps`]);
    /// returns whether the queens form one.
    pub fn run_steps(&mut self, limit: u64) -> Result<bool, GpuError> {
        let end = self.steps().saturating_add(limit);
        while !self.is_solution() && self.steps() < end {
            self.advance(end - self.steps())?;
        }
        Ok(self.is_solution())
    }

    /// The whole state, downloaded from the device into the host's board (checkpoints, final
    /// results, the CPU's checks).
    pub fn board(&mut self) -> Result<&RowBoard, GpuError> {
        if !self.synced {
            let n = self.board.n();
            let planes = self.download(&self.planes[self.current], n * PLANES * self.words)?;
            let queens = self.download(&self.queens, n)?;
            let states = self.download(&self.qs, n)?;
            let words = std::array::from_fn(|i| {
                u64::from(self.last[5 + 2 * i]) | u64::from(self.last[6 + 2 * i]) << 32
            });
            let rng = generator_from_words(words)
                .map_err(|e| self.gpu.fault(format!("the device's model 3 generator: {e}")))?;
            let cols: Vec<u32> = queens.iter().map(|&q| q & !HIDDEN).collect();
            let (steps, moves) = (self.steps(), self.moves());
            let bad = |e: damier::automaton::row::RowStateError| {
                self.gpu.fault(format!("the device's model 3 state is not a state of the rule: {e}"))
            };
            let mut board = self.board.clone();
            board.set_planes(&from_device(&planes, n, self.words)).map_err(bad)?;
            board.set_queens(&cols, &states, rng, steps, moves).map_err(bad)?;
            if board.conflicts() != self.conflicts() {
                return Err(self.gpu.fault(format!(
                    "the device counts {} conflicts, its queens make {}",
                    self.conflicts(),
                    board.conflicts()
                )));
            }
            self.board = board;
            self.synced = true;
        }
        Ok(&self.board)
    }

    /// [`RowEngine::board`], given up.
    pub fn into_board(mut self) -> Result<RowBoard, GpuError> {
        self.board()?;
        Ok(self.board)
    }

    /// The first `words` words of `buffer`.
    fn download(&self, buffer: &wgpu::Buffer, words: usize) -> Result<Vec<u32>, GpuError> {
        let gpu = self.gpu;
        if words == 0 {
            return Ok(Vec::new());
        }
        let read = gpu.blank(
            "model 3 readback",
            4 * words as u64,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let mut enc = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("model 3 readback") });
        enc.copy_buffer_to_buffer(buffer, 0, &read, 0, 4 * words as u64);
        let index = gpu.queue.submit([enc.finish()]);
        gpu.check("allocating model 3's readback")?;
        gpu.read_words(&read, index, words)
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
