//! damier's GPU engine: the tasks of a long n queens count ([`damier::queens::count::tasks`])
//! counted by a WGSL compute kernel through `wgpu` (Vulkan, Metal, DX12), with the same
//! weighted count per task as the CPU engines, so that one journal, share or work queue can
//! mix tasks counted on GPUs and on CPUs (docs/gpu.md).
//!
//! The kernel ([`GpuKernel`]), the join, runs the quarters engine with its matching on the GPU
//! (module `join`): the library seals each task's halves on the CPU cores into blocks of bit
//! rows, and the GPU matches the other half's keys against them, through a pipeline of device
//! buffers kept across batches (module `pipeline`). Every loop of the kernel has a constant
//! bound and counts its iterations, so neither an OS watchdog nor a driver's cap on a loop
//! (lavapipe stops a loop after about 65 536 iterations, silently) can cut a count short
//! unnoticed ([`GpuError::LoopCut`]), and every dispatch's units done are checked. Counts are
//! pairs of `u32` words with carries, every overflow reported. (A second kernel, the
//! backtracker's search wholly on the GPU, was retired on 2026-12-06: docs/gpu.md.)
//!
//! [`RowEngine`] runs the queens automaton's model 3 wholly on the GPU, each generation's
//! fields and its queens' phase (the CPU's generator in one invocation), bit for bit the CPU's
//! trajectory (module `row`).
//!
//! ```no_run
//! use damier::control::Control;
//! use damier::queens::count::tasks::TaskList;
//! use damier_gpu::{Gpu, GpuSettings};
//!
//! let gpu = Gpu::open(None, GpuSettings::default())?;
//! let list = TaskList::new(12)?;
//! let all: Vec<u32> = (0..list.len()).collect();
//! let total = std::sync::atomic::AtomicU64::new(0);
//! gpu.count_tasks(&list, &all, &Control::new(), &|done| {
//!     total.fetch_add(done.count, std::sync::atomic::Ordering::Relaxed);
//! })?;
//! assert_eq!(total.into_inner(), 14_200);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod adapters;
mod counter;
mod device;
mod engine;
mod error;
mod join;
mod packing;
mod pairs;
mod pipeline;
mod prelude;
mod row;
mod stats;
#[cfg(test)]
mod test_adapter;

pub use adapters::{AdapterDescription, adapters};
pub use damier::queens::count::devices::GpuKernel;
pub use device::{Gpu, GpuSettings, JoinKernel};
pub use error::GpuError;
pub use join::{batch_bytes, batch_pairs};
pub use row::RowEngine;
pub use stats::{Breakdown, Uploaded};
