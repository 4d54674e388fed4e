//! Counting a task list on several devices: [`TaskCounter`], the trait every engine that
//! counts tasks implements (the CPU's engines here, [`CpuCounter`]; the GPU's in the crate
//! damier-gpu), and [`count_together`], the scheduler that lets two of them take tasks from one
//! queue (a GPU beside the CPU cores), and [`GpuKernel`], the GPU engine's kernel by name (a
//! plain setting, here so that a front end built without the GPU still reads it). A front end
//! only picks the devices.
//!
//! ```
//! use damier::control::Control;
//! use damier::cpu::Isa;
//! use damier::queens::count::devices::{CpuCounter, TaskCounter, count_together};
//! use damier::queens::count::tasks::{TaskEngine, TaskList};
//! use std::sync::atomic::{AtomicU64, Ordering};
//!
//! let list = TaskList::new(10)?;
//! let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
//! let quarters = CpuCounter::new(TaskEngine::Quarters, Isa::Portable, None, &pool);
//! let backtrack = CpuCounter::new(TaskEngine::Backtrack, Isa::Portable, None, &pool);
//! let total = AtomicU64::new(0);
//! let all: Vec<u32> = (0..list.len()).collect();
//! count_together(&quarters, &backtrack, &list, &all, &Control::new(), &|d| {
//!     total.fetch_add(d.count, Ordering::Relaxed);
//! })
//! .map_err(|e| e.to_string())?;
//! assert_eq!(total.into_inner(), 724);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};

use super::tasks::{self, TaskDone, TaskEngine, TaskError, TaskList};
use crate::control::Control;
use crate::cpu::Isa;

/// The GPU engine's kernel (crate damier-gpu, docs/gpu.md): the join, the only one since the
/// search kernel (the backtracker's search, all on the GPU) was retired on 2026-12-06
/// (docs/gpu.md, "The search kernel, retired"). Its name and engine head journals and reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GpuKernel {
    /// The quarters engine's join: its halves assembled and sealed on the CPU cores (a pool
    /// of its own, as many workers as the current rayon pool), the matching of each sealed
    /// batch on the GPU.
    #[default]
    Join,
}

impl GpuKernel {
    /// Every kernel.
    pub const ALL: [GpuKernel; 1] = [GpuKernel::Join];

    /// The kernel's name (`--gpu-kernel`).
    pub fn name(self) -> &'static str {
        match self {
            GpuKernel::Join => "join",
        }
    }

    /// The task engine whose algorithm the kernel runs: the one a journal of its counts is
    /// headed with, and whose other engine rechecks them.
    pub fn engine(self) -> TaskEngine {
        match self {
            GpuKernel::Join => TaskEngine::Quarters,
        }
    }
}

impl std::str::FromStr for GpuKernel {
    type Err = String;

    /// A kernel by its [`GpuKernel::name`].
    fn from_str(s: &str) -> Result<GpuKernel, String> {
        GpuKernel::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| format!("invalid value {s:?}: join"))
    }
}

/// An engine that counts tasks of a [`TaskList`], on whatever device it drives.
pub trait TaskCounter: Sync {
    /// Why a count fails.
    type Error: Send;

    /// Counts the tasks `indices` of `list`, calling `on_done` (from any thread) as each
    /// finishes, and polling `control`. On an error the tasks already reported are complete
    /// and no other was reported: a caller that records the reports loses only those in
    /// flight.
    fn count_tasks(
        &self,
        list: &TaskList,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), Self::Error>;

    /// Whether `e` only says that the count stopped because `control` was cancelled.
    fn interrupted(e: &Self::Error) -> bool;

    /// How many tasks it takes at a time from a queue of `left` tasks shared with another
    /// counter ([`count_together`]).
    fn chunk(&self, left: usize) -> usize;
}

/// The CPU's engines ([`tasks::count_tasks`]) on the workers of a thread pool.
#[derive(Clone, Copy, Debug)]
pub struct CpuCounter<'p> {
    engine: TaskEngine,
    isa: Isa,
    memory: Option<u64>,
    pool: &'p rayon::ThreadPool,
}

impl<'p> CpuCounter<'p> {
    /// `engine` on `isa` within `memory` bytes (the quarters engine's tables; `None`: what
    /// is available), on the workers of `pool`.
    pub fn new(engine: TaskEngine, isa: Isa, memory: Option<u64>, pool: &'p rayon::ThreadPool) -> Self {
        CpuCounter { engine, isa, memory, pool }
    }
}

impl TaskCounter for CpuCounter<'_> {
    type Error = TaskError;

    fn count_tasks(
        &self,
        list: &TaskList,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), TaskError> {
        self.pool.install(|| {
            tasks::count_tasks(list, self.engine, self.isa, self.memory, indices, control, on_done)
        })
    }

    fn interrupted(e: &TaskError) -> bool {
        matches!(e, TaskError::Interrupted(_))
    }

    /// PERF: a few tasks per worker, so that every core stays busy and the queue's two sides
    /// finish close together.
    fn chunk(&self, _left: usize) -> usize {
        2 * self.pool.current_num_threads()
    }
}

impl<T: TaskCounter> TaskCounter for &T {
    type Error = T::Error;

    fn count_tasks(
        &self,
        list: &TaskList,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), T::Error> {
        (**self).count_tasks(list, indices, control, on_done)
    }

    fn interrupted(e: &T::Error) -> bool {
        T::interrupted(e)
    }

    fn chunk(&self, left: usize) -> usize {
        (**self).chunk(left)
    }
}

/// Two counters as one ([`count_together`]): a GPU beside the CPU cores, say.
#[derive(Clone, Copy, Debug)]
pub struct Both<A, B>(pub A, pub B);

impl<A: TaskCounter, B: TaskCounter> TaskCounter for Both<A, B> {
    type Error = Together<A::Error, B::Error>;

    fn count_tasks(
        &self,
        list: &TaskList,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), Self::Error> {
        count_together(&self.0, &self.1, list, indices, control, on_done)
    }

    fn interrupted(e: &Self::Error) -> bool {
        match e {
            Together::First(e) => A::interrupted(e),
            Together::Second(e) => B::interrupted(e),
        }
    }

    fn chunk(&self, left: usize) -> usize {
        self.0.chunk(left) + self.1.chunk(left)
    }
}

/// Why [`count_together`] failed: the error of one of its two counters.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Together<A, B> {
    /// The first counter's error.
    #[error(transparent)]
    First(A),
    /// The second counter's error.
    #[error(transparent)]
    Second(B),
}

/// Counts the tasks `left` of `list` with `first` and `second` together: each takes chunks of
/// its own size ([`TaskCounter::chunk`]) from one queue until none is left, `first` on a thread
/// of its own, `second` on this one. `on_done` sees every task once, from either side. When
/// one side fails, `control` is cancelled so that the other stops too, and the error returned
/// is a fault rather than an interruption: `first`'s fault, else `second`'s error, else
/// `first`'s interruption. Every task reported is complete, as with one counter.
pub fn count_together<A: TaskCounter, B: TaskCounter>(
    first: &A,
    second: &B,
    list: &TaskList,
    left: &[u32],
    control: &Control,
    on_done: &(dyn Fn(TaskDone) + Sync),
) -> Result<(), Together<A::Error, B::Error>> {
    let cursor = AtomicUsize::new(0);
    let take = |size: usize| {
        let start = cursor.fetch_add(size, Ordering::Relaxed).min(left.len());
        &left[start..(start + size).min(left.len())]
    };
    let side = |counter: &dyn Fn(&[u32]) -> Result<(), ()>, size: usize| loop {
        let chunk = take(size);
        if chunk.is_empty() {
            return;
        }
        if counter(chunk).is_err() {
            // A failing side stops the other.
            control.cancel();
            return;
        }
    };
    let (first_size, second_size) = (first.chunk(left.len()).max(1), second.chunk(left.len()).max(1));
    let first_error = std::sync::Mutex::new(None);
    let second_error = std::cell::Cell::new(None);
    std::thread::scope(|s| {
        let first_side = s.spawn(|| {
            side(
                &|chunk| {
                    first.count_tasks(list, chunk, control, on_done).map_err(|e| {
                        *first_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    })
                },
                first_size,
            )
        });
        side(
            &|chunk| second.count_tasks(list, chunk, control, on_done).map_err(|e| second_error.set(Some(e))),
            second_size,
        );
        if let Err(panic) = first_side.join() {
            std::panic::resume_unwind(panic);
        }
    });
    let first_error = first_error.into_inner().unwrap_or_else(|p| p.into_inner());
    match (first_error, second_error.into_inner()) {
        (Some(e), _) if !A::interrupted(&e) => Err(Together::First(e)),
        (_, Some(e)) => Err(Together::Second(e)),
        (Some(e), None) => Err(Together::First(e)),
        (None, None) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counter that fails on its first task (`fails`), or counts each task as its index in
    /// a millisecond, interrupted once the control is cancelled.
    struct Test {
        fails: bool,
    }

    impl TaskCounter for Test {
        /// Whether the error is an interruption, and the task.
        type Error = (bool, u32);

        fn count_tasks(
            &self,
            _: &TaskList,
            indices: &[u32],
            control: &Control,
            on_done: &(dyn Fn(TaskDone) + Sync),
        ) -> Result<(), (bool, u32)> {
            for &index in indices {
                if self.fails {
                    return Err((false, index));
                }
                if control.cancelled() {
                    return Err((true, index));
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
                on_done(TaskDone { index, count: u64::from(index), elapsed: Default::default() });
            }
            Ok(())
        }

        fn interrupted(e: &(bool, u32)) -> bool {
            e.0
        }

        fn chunk(&self, _: usize) -> usize {
            3
        }
    }

    #[test]
    fn a_gpu_kernel_reads_back_from_its_name() {
        for k in GpuKernel::ALL {
            assert_eq!(k.name().parse::<GpuKernel>(), Ok(k));
        }
        assert_eq!("JOIN".parse::<GpuKernel>(), Err("invalid value \"JOIN\": join".to_string()));
        assert_eq!(GpuKernel::default().engine(), TaskEngine::Quarters);
    }

    #[test]
    fn two_counters_share_the_queue_and_every_task_is_reported_once() {
        let list = TaskList::new(12).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let backtrack = CpuCounter::new(TaskEngine::Backtrack, Isa::Portable, None, &pool);
        let quarters = CpuCounter::new(TaskEngine::Quarters, Isa::Portable, None, &pool);
        let all: Vec<u32> = (0..list.len()).collect();
        let seen = std::sync::Mutex::new(Vec::new());
        count_together(&quarters, &backtrack, &list, &all, &Control::new(), &|d| {
            seen.lock().unwrap().push((d.index, d.count))
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), all);
        assert_eq!(seen.iter().map(|s| s.1).sum::<u64>(), 14_200);
    }

    #[test]
    fn a_fault_stops_both_sides_and_is_the_error_returned() {
        let list = TaskList::new(12).unwrap();
        // A second of work for one side alone: both sides take some of it.
        let left: Vec<u32> = (0..1000).collect();
        let (works, fails) = (Test { fails: false }, Test { fails: true });
        let control = Control::new();
        let r = count_together(&works, &fails, &list, &left, &control, &|_| {});
        assert!(control.cancelled());
        assert!(matches!(r, Err(Together::Second((false, _)))), "{r:?}");
        // The first side's fault comes before the second side's interruption.
        let control = Control::new();
        let r = count_together(&fails, &works, &list, &left, &control, &|_| {});
        assert!(control.cancelled());
        assert!(matches!(r, Err(Together::First((false, _)))), "{r:?}");
        // Nothing left: no count, no error.
        assert_eq!(count_together(&fails, &works, &list, &[], &Control::new(), &|_| {}), Ok(()));
    }
}
