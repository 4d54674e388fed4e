//! The GPU engine as one of the library's task counters
//! ([`damier::queens::count::devices::TaskCounter`]), so that the library's scheduler mixes it
//! with the CPU's engines.

use damier::control::Control;
use damier::queens::count::devices::TaskCounter;
use damier::queens::count::tasks::{TaskDone, TaskList};

use crate::{Gpu, GpuError};

impl TaskCounter for Gpu {
    type Error = GpuError;

    /// [`Gpu::count_tasks`]: the join kernel seals on the workers of the current rayon pool.
    fn count_tasks(
        &self,
        list: &TaskList,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), GpuError> {
        Gpu::count_tasks(self, list, indices, control, on_done)
    }

    fn interrupted(e: &GpuError) -> bool {
        matches!(e, GpuError::Interrupted(_))
    }

    /// PERF: chunks large enough to fill a batch (a 64th of the queue, at most 4 096 tasks).
    fn chunk(&self, left: usize) -> usize {
        (left / 64).clamp(1, 4096)
    }
}
