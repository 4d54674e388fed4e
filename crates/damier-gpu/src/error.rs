//! Why the GPU engine could not count.

use damier::control::Interrupted;
use damier::queens::count::tasks::TaskError;

/// Why a GPU count failed. No task of a failed batch is reported: a caller that records the
/// reports never records a count the device did not finish.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter (GPU, or a software driver such as lavapipe) was found.
    #[error(
        "no GPU adapter found (Vulkan, Metal or DX12): install the GPU's driver, or mesa-vulkan-drivers for a software one (docs/gpu.md)"
    )]
    NoAdapter,
    /// The adapter asked for does not exist.
    #[error("no GPU adapter {index}: this machine has {count} (`damier gpu` lists them)")]
    NoSuchAdapter {
        /// The index asked for.
        index: usize,
        /// Adapters found.
        count: usize,
    },
    /// The device could not be opened.
    #[error("GPU {adapter}: cannot open the device: {why}")]
    Open {
        /// The adapter's name.
        adapter: String,
        /// What the driver said.
        why: String,
    },
    /// The device was lost (a driver reset, a watchdog timeout) or failed a command.
    #[error("GPU {adapter}: device fault: {why}")]
    Device {
        /// The adapter's name.
        adapter: String,
        /// What the driver said.
        why: String,
    },
    /// The device ran out of memory.
    #[error("GPU {adapter}: out of device memory ({what})")]
    OutOfMemory {
        /// The adapter's name.
        adapter: String,
        /// What was being allocated.
        what: String,
    },
    /// The driver stopped a shader loop before it finished (lavapipe does so silently after
    /// about 65 536 iterations): the kernel saw it, and the batch is not counted.
    #[error(
        "GPU {adapter}: the driver cut a shader loop short (a dispatch of {budget} tiles): no task of its batch is counted; a smaller --gpu-budget may help"
    )]
    LoopCut {
        /// The adapter's name.
        adapter: String,
        /// The tiles of the dispatch.
        budget: u32,
    },
    /// A count passed 64 bits (not possible for a task of n <= 28: a device fault).
    #[error("GPU {adapter}: a task's count overflowed 64 bits")]
    Overflow {
        /// The adapter's name.
        adapter: String,
    },
    /// A setting outside what the kernel supports.
    #[error("{0}")]
    Setting(String),
    /// The task list or a task index was refused.
    #[error(transparent)]
    Tasks(#[from] TaskError),
    /// The count was cancelled.
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
}

impl GpuError {
    /// Whether the error is the machine's rather than the request's: a device fault, lost
    /// device or out-of-memory (the CLI's exit 74), against no adapter or a bad setting (2).
    pub fn is_device_fault(&self) -> bool {
        matches!(
            self,
            GpuError::Open { .. }
                | GpuError::Device { .. }
                | GpuError::OutOfMemory { .. }
                | GpuError::LoopCut { .. }
                | GpuError::Overflow { .. }
        )
    }
}
