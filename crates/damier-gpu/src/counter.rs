//! The GPU engine as one of the library's task counters
//! ([`damier::queens::count::devices::TaskCounter`]), so that the library's scheduler mixes it
//! with the CPU's engines.

use damier::control::Control;
use damier::queens::count::devices::TaskCounter;
use damier::queens::count::tasks::{TaskDone, TaskList};

use crate::{Gpu, GpuError};

impl Gpu {
    /// Most GPU time per solution of a count, nanoseconds: above lavapipe's on 2 CPU cores
    /// (6 µs, q(15) in 13.5 s), so that a count known to be cheap on any adapter pays for no
    /// estimate before it runs (below n = 18 for a whole count;
    /// [`damier::queens::count::cost::CounterCostQuery::ceiling_ns_per_solution`]).
    pub const CEILING_NS_PER_SOLUTION: f64 = 20_000.0;
}

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
