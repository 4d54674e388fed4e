//! The task list of a long count: the unit of work that shares, journals, MPI work queues,
//! estimates and cross-checks all speak about.
//!
//! A task is a column set `C` of the top half (rows `0..ceil(n / 2)`) that is not larger than
//! its mirror image. Its *weighted count* is, over the solutions whose top half uses exactly
//! the columns `C` and whose bottom half avoids both long diagonals, `2^e` per solution, `e`
//! being the number of top-half queens on a long diagonal other than the centre of an odd
//! board; the whole is doubled when `C` differs from its mirror image (which stands for it).
//! The weighted counts of all tasks add up to the number of solutions (see the quarters
//! engine's module docs for why).
//!
//! The list is the column sets in increasing order of their bit masks: the same on every
//! machine and for every engine, so task `i` means the same thing everywhere, and
//! [`TaskList::fingerprint`] pins it down in files that outlive a process.
//!
//! Two independent engines count a task ([`TaskEngine`]): the quarter-board matcher and a
//! plain backtracker over the task's rows, so any share can be recounted by the other.
//!
//! ```
//! use damier::queens::count::tasks::TaskList;
//!
//! let tasks = TaskList::new(12).unwrap();
//! assert!(tasks.len() > 0);
//! // The same list on every machine: the fingerprint shares and journals are checked against.
//! assert_eq!(tasks.fingerprint(), TaskList::new(12).unwrap().fingerprint());
//! assert!(TaskList::new(3).is_err()); // the task list starts at n = 4
//! ```

use std::time::Duration;

use rayon::prelude::*;

use super::{Share, quarters};
use crate::control::{Control, Interrupted};
use crate::cpu::Isa;
use crate::util::Fnv1a;

/// Smallest n with a task list (the top half needs two rows).
pub const MIN_TASK_N: u32 = 4;

/// Largest n with a task list: column sets are `u32` masks, task indices `u32`, and every
/// total through n = 28 fits a `u64` (q(28) is expected near 2.5e18, below 1.8e19); q(29),
/// near 4e19, would not.
pub const MAX_TASK_N: u32 = 28;

/// Version of the task definition and its weighting; files that record per-task results
/// (journals) carry it and refuse another.
pub const TASK_FORMAT_VERSION: u32 = 1;

/// Which engine counts a task. Both give the same weighted count for every task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum TaskEngine {
    /// Half boards assembled from quarter placements and matched by bit-sliced tables: the
    /// fast engine, for n up to [`TaskEngine::max_n`].
    Quarters,
    /// Backtracking row by row over the task's column set, then over the other columns: the
    /// independent check, for every n with a task list (slow: the whole search tree).
    Backtrack,
}

impl TaskEngine {
    /// Both engines, fast first.
    pub const ALL: [TaskEngine; 2] = [TaskEngine::Quarters, TaskEngine::Backtrack];

    /// Short lowercase name (`quarters`, `backtrack`), as written in journals.
    pub fn name(self) -> &'static str {
        match self {
            TaskEngine::Quarters => "quarters",
            TaskEngine::Backtrack => "backtrack",
        }
    }

    /// The engine with this [`TaskEngine::name`].
    pub fn from_name(name: &str) -> Option<TaskEngine> {
        TaskEngine::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Largest n this engine can count tasks of on this build (the quarters engine keeps the
    /// whole quarter table in memory).
    pub fn max_n(self) -> u32 {
        match self {
            TaskEngine::Quarters => quarters::MAX_N,
            TaskEngine::Backtrack => MAX_TASK_N,
        }
    }

    /// The engine a count of n uses by default: the fastest one that runs n.
    pub fn best_for(n: u32) -> TaskEngine {
        if n <= TaskEngine::Quarters.max_n() { TaskEngine::Quarters } else { TaskEngine::Backtrack }
    }
}

/// Why tasks could not be listed or counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    /// n has no task list.
    #[error("n = {0} has no task list: tasks are defined for n = {MIN_TASK_N} to {MAX_TASK_N}")]
    OutOfRange(u32),
    /// The engine cannot run tasks of this n on this build.
    #[error("the {} engine cannot run tasks of n = {n} yet (it runs n <= {max})", engine.name())]
    EngineCannotRun {
        /// The engine asked for.
        engine: TaskEngine,
        /// Board size.
        n: u32,
        /// Largest n it runs.
        max: u32,
    },
    /// A task index past the end of the list.
    #[error("task {index} does not exist: n = {n} has {len} tasks")]
    NoSuchTask {
        /// Board size.
        n: u32,
        /// The index given.
        index: u32,
        /// Tasks in the list.
        len: u32,
    },
    /// The vector unit asked for is missing on this CPU.
    #[error("{}", crate::cpu::IsaUnavailable(*.0))]
    IsaUnavailable(Isa),
    /// The computation was cancelled (the source, so that callers find it in the chain).
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// The count needs more memory than it is allowed.
    #[error(transparent)]
    MemoryLimit(#[from] super::MemoryLimit),
}

impl TaskError {
    /// The error of a run of the quarters engine: it is refused for memory or interrupted.
    fn from_count(e: super::CountError) -> TaskError {
        match e {
            super::CountError::MemoryLimit(m) => TaskError::MemoryLimit(m),
            // Not reached (the engine fails in no other way), but an error, not a panic.
            _ => TaskError::Interrupted(Interrupted),
        }
    }
}

/// One task: a column set of the top half and its mirror weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// The top half's columns (bit c = column c).
    pub cols: u32,
    /// 2 when the column set stands for its mirror image too, else 1.
    pub weight: u64,
}

/// The task list of one n (see the module docs).
#[derive(Clone, Debug)]
pub struct TaskList {
    n: u32,
    /// The column sets, increasing; the weights follow from them ([`TaskList::get`]).
    ///
    /// PERF: 4 bytes a task: n = 27 has 10 million tasks, and every MPI process lists them.
    cols: Vec<u32>,
}

/// A finished task, as reported to the caller of [`count_tasks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskDone {
    /// Its index in the [`TaskList`].
    pub index: u32,
    /// Its weighted count.
    pub count: u64,
    /// Time the worker spent on it.
    pub elapsed: Duration,
}

impl TaskList {
    /// The task list of n.
    pub fn new(n: u32) -> Result<TaskList, TaskError> {
        if !(MIN_TASK_N..=MAX_TASK_N).contains(&n) {
            return Err(TaskError::OutOfRange(n));
        }
        let q = n - n / 2;
        let reverse = |m: u32| m.reverse_bits() >> (32 - n);
        let mut tasks = Vec::new();
        // Column sets with q columns in increasing order: Gosper's next-combination step.
        let mut cols: u32 = (1 << q) - 1;
        while cols < 1 << n {
            let mirror = reverse(cols);
            if cols <= mirror {
                tasks.push(cols);
            }
            let low = cols & cols.wrapping_neg();
            let ripple = cols + low;
            cols = ripple | (((cols ^ ripple) >> 2) / low);
        }
        Ok(TaskList { n, cols: tasks })
    }

    /// Board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The task of a listed column set, with its mirror weight.
    fn task(&self, cols: u32) -> Task {
        let mirror = cols.reverse_bits() >> (32 - self.n);
        Task { cols, weight: if cols == mirror { 1 } else { 2 } }
    }

    /// Number of tasks.
    pub fn len(&self) -> u32 {
        self.cols.len() as u32
    }

    /// Always false: every n with a task list has tasks.
    pub fn is_empty(&self) -> bool {
        self.cols.is_empty()
    }

    /// Task `index`, if it exists.
    pub fn get(&self, index: u32) -> Option<Task> {
        self.cols.get(index as usize).map(|&cols| self.task(cols))
    }

    /// The indices of one share's tasks (`i % of == index`, interleaved so that shares cost
    /// about the same), in increasing order.
    pub fn share_indices(&self, share: Share) -> Vec<u32> {
        (share.index()..self.len()).step_by(share.of() as usize).collect()
    }

    /// A 64-bit fingerprint of n, the task format and every task: two lists with the same
    /// fingerprint are, beyond reasonable doubt, the same list.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv1a::new();
        h.write(&self.n.to_le_bytes());
        h.write(&TASK_FORMAT_VERSION.to_le_bytes());
        for t in self.cols.iter().map(|&c| self.task(c)) {
            h.write(&t.cols.to_le_bytes());
            h.write(&[t.weight as u8]);
        }
        h.finish()
    }

    fn check(&self, engine: TaskEngine, isa: Isa, indices: &[u32]) -> Result<(), TaskError> {
        if !isa.is_available() {
            return Err(TaskError::IsaUnavailable(isa));
        }
        if self.n > engine.max_n() {
            return Err(TaskError::EngineCannotRun { engine, n: self.n, max: engine.max_n() });
        }
        match indices.iter().find(|&&i| i >= self.len()) {
            Some(&index) => Err(TaskError::NoSuchTask { n: self.n, index, len: self.len() }),
            None => Ok(()),
        }
    }
}

/// `count` distinct tasks drawn from `indices` with `seed` (all of them if fewer), in
/// increasing order: the same draw on every machine for the same seed.
pub fn sample_tasks(indices: &[u32], count: u32, seed: u64) -> Vec<u32> {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let amount = (count as usize).min(indices.len());
    let mut picked: Vec<u32> =
        rand::seq::index::sample(&mut rng, indices.len(), amount).into_iter().map(|i| indices[i]).collect();
    picked.sort_unstable();
    picked
}

/// Counts the tasks `indices` of `list` with `engine`, in parallel on the current rayon pool,
/// calling `on_done` (from the worker threads) as each task finishes. The quarters engine
/// stays within `memory` bytes (`None`: no limit) and is refused with
/// [`TaskError::MemoryLimit`] when it cannot; it builds the whole quarter table only for runs
/// of many tasks that it fits (see [`super::CountOptions::memory`]).
///
/// The quarters engine runs its kernels on `isa` (every unit gives the same counts; one this
/// CPU lacks is refused with [`TaskError::IsaUnavailable`], by both engines, so that a forced
/// unit never passes silently); the backtracker has no vector kernels.
///
/// Polls `control` between tasks (and inside long backtracking tasks) and advances it by one
/// per task. On [`TaskError::Interrupted`] the tasks already reported are complete and the
/// others were not reported: a caller that records the reports loses only the tasks in flight.
/// Consecutive indices are best run together: the quarters engine reuses work between
/// neighbouring column sets.
pub fn count_tasks(
    list: &TaskList,
    engine: TaskEngine,
    isa: Isa,
    memory: Option<u64>,
    indices: &[u32],
    control: &Control,
    on_done: &(dyn Fn(TaskDone) + Sync),
) -> Result<(), TaskError> {
    list.check(engine, isa, indices)?;
    if indices.is_empty() {
        return Ok(());
    }
    let tasks: Vec<Task> = indices.iter().map(|&i| list.task(list.cols[i as usize])).collect();
    match engine {
        TaskEngine::Quarters => {
            let column_sets: Vec<(u32, u64)> = tasks.iter().map(|t| (t.cols, t.weight)).collect();
            quarters::count_column_sets(list.n, &column_sets, isa, memory, control, &|i, count, elapsed| {
                on_done(TaskDone { index: indices[i], count, elapsed })
            })
            .map_err(TaskError::from_count)?;
        }
        TaskEngine::Backtrack => {
            tasks.par_iter().zip(indices).try_for_each(|(&task, &index)| {
                if control.cancelled() {
                    return Err(Interrupted);
                }
                let start = crate::clock::Stopwatch::start();
                let count = backtrack_task(list.n, task, control)?;
                on_done(TaskDone { index, count, elapsed: start.elapsed() });
                control.advance(1);
                Ok(())
            })?;
        }
    }
    if control.cancelled() {
        return Err(Interrupted.into());
    }
    Ok(())
}

/// [`count_tasks`] with the quarters engine, the matching of each sealed batch of stored keys
/// done by `matching` (another device: see [`super::join`]) while the workers of the current
/// rayon pool assemble and seal the tasks' halves on `isa`; `matching` returns the batch's
/// count ([`super::join::Sealed::count`] is the CPU's reference), and the worker waits for
/// it before it seals on ([`count_tasks_sealing_ahead`] lets it seal ahead). The tasks'
/// counts are the quarters engine's when `matching` counts right, reported as [`count_tasks`]
/// reports them, and an error of `matching` stops the run (no task whose batch failed is
/// reported).
pub fn count_tasks_with_matching<E: From<TaskError> + Send>(
    list: &TaskList,
    isa: Isa,
    memory: Option<u64>,
    indices: &[u32],
    control: &Control,
    matching: &(dyn Fn(&super::join::Sealed<'_>) -> Result<u64, E> + Sync),
    on_done: &(dyn Fn(TaskDone) + Sync),
) -> Result<(), E> {
    let now = |sealed: &super::join::Sealed<'_>| matching(sealed).map(super::join::Pending::ready);
    count_tasks_sealing_ahead(list, isa, memory, indices, control, 0, None, &now, on_done)
}

/// [`count_tasks_with_matching`] with the counts taken later: `matching` hands each sealed
/// batch to the device and answers at once with its [`Pending`](super::join::Pending)
/// count, and the worker goes on sealing (the rest of its task, or the next task) while
/// the device matches; it waits for the oldest pending count only once it has handed out
/// more than `ahead` batches (so each worker has at most `ahead + 1` batches out, and
/// `ahead = 0` is [`count_tasks_with_matching`]), and for all of them at the end of its
/// share of the tasks. Each batch's count is added to its own task: a task is reported once
/// its halves are sealed and its batches' counts are all in, with the quarters engine's count
/// when `matching` counts right, and its `elapsed` the worker's time on it (sealing it, and
/// waiting for its batches). The first error of `matching` or of a pending count stops the
/// run (no task whose batch failed, or that was still in flight, is reported).
/// `batch_keys` caps the stored keys of a batch below the engine's own batch (tests cut a
/// task's stored side into several batches with it; `None` in a count).
#[allow(clippy::too_many_arguments)]
pub fn count_tasks_sealing_ahead<'p, E: From<TaskError> + Send>(
    list: &TaskList,
    isa: Isa,
    memory: Option<u64>,
    indices: &[u32],
    control: &Control,
    ahead: usize,
    batch_keys: Option<usize>,
    matching: &(dyn Fn(&super::join::Sealed<'_>) -> Result<super::join::Pending<'p, E>, E> + Sync),
    on_done: &(dyn Fn(TaskDone) + Sync),
) -> Result<(), E> {
    list.check(TaskEngine::Quarters, isa, indices)?;
    if indices.is_empty() {
        return Ok(());
    }
    /// `E`, built from the library's errors as [`count_tasks`] reports them.
    struct Wrapped<E>(E);
    impl<E: From<TaskError>> From<Interrupted> for Wrapped<E> {
        fn from(i: Interrupted) -> Self {
            Wrapped(E::from(TaskError::from(i)))
        }
    }
    impl<E: From<TaskError>> From<super::CountError> for Wrapped<E> {
        fn from(e: super::CountError) -> Self {
            Wrapped(E::from(TaskError::from_count(e)))
        }
    }
    let column_sets: Vec<(u32, u64)> = indices
        .iter()
        .map(|&i| {
            let t = list.task(list.cols[i as usize]);
            (t.cols, t.weight)
        })
        .collect();
    let wrapped =
        |sealed: &super::join::Sealed<'_>| matching(sealed).map(|p| p.map_err(Wrapped)).map_err(Wrapped);
    quarters::count_column_sets_matched(
        list.n,
        &column_sets,
        isa,
        memory,
        control,
        ahead,
        batch_keys,
        &wrapped,
        &|i, count, elapsed| on_done(TaskDone { index: indices[i], count, elapsed }),
    )
    .map_err(|w| w.0)?;
    if control.cancelled() {
        return Err(TaskError::from(Interrupted).into());
    }
    Ok(())
}

/// The sum of [`count_tasks`]' counts, for callers that need only the total: a `u128`, so
/// that no sum of tasks can wrap (see [`super::total_from_sum`] for the `u64` of a count).
pub fn total_of_tasks(
    list: &TaskList,
    engine: TaskEngine,
    isa: Isa,
    memory: Option<u64>,
    indices: &[u32],
    control: &Control,
) -> Result<u128, TaskError> {
    // PERF: one lock per finished task, which takes microseconds at the least.
    let total = std::sync::Mutex::new(0u128);
    count_tasks(list, engine, isa, memory, indices, control, &|d| {
        *total.lock().unwrap_or_else(|e| e.into_inner()) += u128::from(d.count);
    })?;
    Ok(total.into_inner().unwrap_or_else(|e| e.into_inner()))
}

/// The weighted count of one task by backtracking: the top half's rows take the task's
/// columns, each queen on a long diagonal (but the centre) doubling the weight; the bottom
/// half's rows take the other columns, off both long diagonals.
///
/// Independent of the quarters engine on purpose: nothing but the definition is shared.
pub fn backtrack_task(n: u32, task: Task, control: &Control) -> Result<u64, Interrupted> {
    let search = Search { n, q: n - n / 2, full: (1u64 << n) - 1, top_cols: u64::from(task.cols) };
    Ok(search.top(0, 0, 0, 0, control)? * task.weight)
}

/// The fixed data of one backtracking task.
struct Search {
    n: u32,
    /// Rows of the top half.
    q: u32,
    full: u64,
    top_cols: u64,
}

impl Search {
    /// Weighted completions of a top-half placement of rows `0..row` (columns `cols` taken,
    /// diagonals `ld`, `rd` projected onto row `row`).
    fn top(&self, row: u32, cols: u64, ld: u64, rd: u64, control: &Control) -> Result<u64, Interrupted> {
        if row == self.q {
            if control.cancelled() {
                return Err(Interrupted);
            }
            return Ok(self.bottom(row, cols, ld, rd));
        }
        let mut free = self.top_cols & !(cols | ld | rd);
        let mut total = 0;
        while free != 0 {
            let b = free & free.wrapping_neg();
            free ^= b;
            let c = b.trailing_zeros();
            let long = c == row || c == self.n - 1 - row;
            let centre = 2 * row + 1 == self.n && c == row;
            let below = self.top(row + 1, cols | b, ((ld | b) << 1) & self.full, (rd | b) >> 1, control)?;
            total += below << u32::from(long && !centre);
        }
        Ok(total)
    }

    /// Completions of the bottom half from row `row`, off both long diagonals.
    fn bottom(&self, row: u32, cols: u64, ld: u64, rd: u64) -> u64 {
        if row == self.n {
            return 1;
        }
        let long = 1u64 << row | 1u64 << (self.n - 1 - row);
        // PERF: plain bitboard step; the top half's columns are already in `cols`.
        let mut free = self.full & !(cols | ld | rd | long);
        let mut total = 0;
        while free != 0 {
            let b = free & free.wrapping_neg();
            free ^= b;
            total += self.bottom(row + 1, cols | b, ((ld | b) << 1) & self.full, (rd | b) >> 1);
        }
        total
    }
}

impl std::str::FromStr for TaskEngine {
    type Err = String;

    /// `quarters` or `backtrack`, as [`TaskEngine::name`] writes them.
    fn from_str(s: &str) -> Result<TaskEngine, String> {
        TaskEngine::from_name(s).ok_or_else(|| format!("invalid value {s:?}: quarters or backtrack"))
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::count::{CountOptions, Strategy, task_count_with, total_plain, total_with};

    /// The matching handed to a caller (here the CPU's reference, `Sealed::count`) gives every
    /// task the quarters engine's count, and the caller's error stops the run.
    #[test]
    fn matching_handed_out_gives_every_task_its_count() {
        use std::sync::Mutex;
        for n in MIN_TASK_N..=13 {
            let list = TaskList::new(n).unwrap();
            let all: Vec<u32> = (0..list.len()).collect();
            let want = Mutex::new(vec![0; all.len()]);
            count_tasks(&list, TaskEngine::Quarters, Isa::Portable, None, &all, &Control::new(), &|d| {
                want.lock().unwrap()[d.index as usize] = d.count;
            })
            .unwrap();
            let got = Mutex::new(vec![u64::MAX; all.len()]);
            count_tasks_with_matching::<TaskError>(
                &list,
                Isa::Portable,
                None,
                &all,
                &Control::new(),
                &|sealed| Ok(sealed.count()),
                &|d| got.lock().unwrap()[d.index as usize] = d.count,
            )
            .unwrap();
            assert_eq!(got.into_inner().unwrap(), want.into_inner().unwrap(), "n = {n}");
        }
        let list = TaskList::new(10).unwrap();
        let refused = count_tasks_with_matching(
            &list,
            Isa::Portable,
            None,
            &[3, 4],
            &Control::new(),
            &|_| Err(TaskError::OutOfRange(99)),
            &|d| panic!("task {} reported after its matching failed", d.index),
        );
        assert_eq!(refused, Err(TaskError::OutOfRange(99)));
    }

    /// Sealing ahead: the matching answers each batch with a count taken later (here the
    /// CPU's reference, computed at hand-off), and every task still gets the quarters
    /// engine's count, on one worker and on three, leaving 0, 1 or 3 batches pending. On one
    /// worker the order is fixed: the run hands out up to `ahead + 1` batches before it
    /// takes the oldest, and takes them oldest first. With batches of at most 100 stored
    /// keys, a task's stored side is cut into several batches, each counted apart.
    #[test]
    fn sealing_ahead_gives_every_task_its_count() {
        use super::super::join::Pending;
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicUsize, Ordering};
        for n in [8, 10, 12] {
            let list = TaskList::new(n).unwrap();
            let all: Vec<u32> = (0..list.len()).collect();
            let want = per_task_on(&list, TaskEngine::Quarters, Isa::Portable, &all);
            let settings = [(1, 0, None), (1, 1, None), (1, 3, Some(100)), (3, 1, Some(100)), (3, 3, None)];
            for (threads, ahead, batch_keys) in settings {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                // Batch numbers handed out and taken, in order (one worker: one order).
                let handed = AtomicUsize::new(0);
                let events = Mutex::new(Vec::new());
                let got = Mutex::new(vec![u64::MAX; list.len() as usize]);
                pool.install(|| {
                    count_tasks_sealing_ahead::<TaskError>(
                        &list,
                        Isa::Portable,
                        None,
                        &all,
                        &Control::new(),
                        ahead,
                        batch_keys,
                        &|sealed| {
                            let (count, b) = (sealed.count(), handed.fetch_add(1, Ordering::Relaxed));
                            events.lock().unwrap().push((b, true));
                            let events = &events;
                            Ok(Pending::later(move || {
                                events.lock().unwrap().push((b, false));
                                Ok(count)
                            }))
                        },
                        &|d| {
                            let mut got = got.lock().unwrap();
                            assert_eq!(got[d.index as usize], u64::MAX, "task {} reported twice", d.index);
                            got[d.index as usize] = d.count;
                        },
                    )
                })
                .unwrap();
                let at = format!("n = {n}, {threads} threads, ahead {ahead}, batches of {batch_keys:?} keys");
                assert_eq!(got.into_inner().unwrap(), want, "{at}");
                let events = events.into_inner().unwrap();
                let batches = handed.into_inner();
                assert_eq!(events.len(), 2 * batches, "every count taken once");
                if threads == 1 {
                    let taken: Vec<usize> = events.iter().filter(|e| !e.1).map(|e| e.0).collect();
                    assert_eq!(taken, (0..batches).collect::<Vec<_>>(), "oldest first");
                    let mut out = 0usize;
                    let mut most = 0;
                    for &(_, hand) in &events {
                        out = if hand { out + 1 } else { out - 1 };
                        most = most.max(out);
                    }
                    assert!(batches > ahead + 1, "n = {n}: {batches} batches");
                    assert_eq!(most, ahead + 1, "n = {n}: batches out at once, ahead {ahead}");
                }
            }
        }
    }

    /// A pending count that fails stops a run that seals ahead with its error: no task whose
    /// count it was is reported, every task reported has its right count, and the counts
    /// still pending are dropped, not waited for.
    #[test]
    fn a_failed_pending_count_stops_the_run() {
        use super::super::join::Pending;
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let list = TaskList::new(11).unwrap();
        let all: Vec<u32> = (0..list.len()).collect();
        let want = per_task_on(&list, TaskEngine::Quarters, Isa::Portable, &all);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let (handed, waited) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let got = Mutex::new(Vec::new());
        let r = pool.install(|| {
            count_tasks_sealing_ahead(
                &list,
                Isa::Portable,
                None,
                &all,
                &Control::new(),
                2,
                None,
                &|sealed| {
                    let (count, b) = (sealed.count(), handed.fetch_add(1, Ordering::Relaxed));
                    let waited = &waited;
                    Ok(Pending::later(move || {
                        waited.fetch_add(1, Ordering::Relaxed);
                        if b == 30 { Err(TaskError::OutOfRange(99)) } else { Ok(count) }
                    }))
                },
                &|d| got.lock().unwrap().push((d.index, d.count)),
            )
        });
        assert_eq!(r, Err(TaskError::OutOfRange(99)));
        let got = got.into_inner().unwrap();
        assert!(!got.is_empty() && got.len() < all.len(), "{} of {} tasks", got.len(), all.len());
        for (i, c) in got {
            assert_eq!(c, want[i as usize], "task {i}");
        }
        // Batch 30 was taken with 2 more handed out after it, never taken.
        assert_eq!((handed.into_inner(), waited.into_inner()), (33, 31));
    }

    #[test]
    fn task_lists_cover_every_column_set_once() {
        task_lists_cover(MIN_TASK_N..=26);
    }

    #[test]
    #[ignore = "slow: 40 million column sets at n = 28; run with --release -- --ignored"]
    fn task_lists_cover_every_column_set_once_up_to_max() {
        task_lists_cover(27..=MAX_TASK_N);
    }

    fn task_lists_cover(ns: std::ops::RangeInclusive<u32>) {
        for n in ns {
            let list = TaskList::new(n).unwrap();
            let q = u64::from(n - n / 2);
            let binomial = (0..q).fold(1u64, |acc, i| acc * (u64::from(n) - i) / (i + 1));
            assert_eq!(
                (0..list.len()).map(|i| list.get(i).unwrap().weight).sum::<u64>(),
                binomial,
                "n = {n}"
            );
            assert!(list.cols.windows(2).all(|w| w[0] < w[1]), "n = {n}: increasing");
            if n <= 22 {
                assert_eq!(
                    u64::from(list.len()),
                    task_count_with(n, Strategy::Quarters, Share::WHOLE).unwrap(),
                    "n = {n}"
                );
            }
        }
        assert_eq!(TaskList::new(3).unwrap_err(), TaskError::OutOfRange(3));
        assert_eq!(TaskList::new(MAX_TASK_N + 1).unwrap_err(), TaskError::OutOfRange(MAX_TASK_N + 1));
    }

    #[test]
    fn fingerprints_tell_lists_apart() {
        let prints: Vec<u64> = (4..=14).map(|n| TaskList::new(n).unwrap().fingerprint()).collect();
        let mut unique = prints.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), prints.len());
        assert_eq!(prints[3], TaskList::new(7).unwrap().fingerprint(), "deterministic");
    }

    /// Per-task counts of the tasks `indices` of `list` by one engine (`u64::MAX` elsewhere).
    fn per_task(list: &TaskList, engine: TaskEngine, indices: &[u32]) -> Vec<u64> {
        per_task_on(list, engine, Isa::best(), indices)
    }

    /// [`per_task`] with the kernels on a chosen vector unit.
    fn per_task_on(list: &TaskList, engine: TaskEngine, isa: Isa, indices: &[u32]) -> Vec<u64> {
        let counts = std::sync::Mutex::new(vec![u64::MAX; list.len() as usize]);
        count_tasks(list, engine, isa, None, indices, &Control::new(), &|d| {
            let mut c = counts.lock().unwrap();
            assert_eq!(c[d.index as usize], u64::MAX, "task {} reported twice", d.index);
            c[d.index as usize] = d.count;
        })
        .unwrap();
        counts.into_inner().unwrap()
    }

    #[test]
    fn both_engines_agree_on_every_task_to_12() {
        for n in 4..=12 {
            let list = TaskList::new(n).unwrap();
            let all: Vec<u32> = (0..list.len()).collect();
            let fast = per_task(&list, TaskEngine::Quarters, &all);
            let slow = per_task(&list, TaskEngine::Backtrack, &all);
            assert_eq!(fast, slow, "n = {n}");
            assert_eq!(fast.iter().sum::<u64>(), total_plain(n), "n = {n}");
        }
    }

    #[test]
    fn shares_of_the_task_list_add_up_for_every_engine_and_strategy() {
        let control = Control::new();
        for n in [4, 7, 10, 12] {
            let list = TaskList::new(n).unwrap();
            for of in [1, 2, 5] {
                let mut sums = std::collections::HashMap::new();
                for index in 0..of {
                    let share = Share::new(index, of).unwrap();
                    let indices = list.share_indices(share);
                    assert_eq!(indices.len() as u64, task_count_with(n, Strategy::Quarters, share).unwrap());
                    for engine in TaskEngine::ALL {
                        let t = total_of_tasks(&list, engine, Isa::best(), None, &indices, &control).unwrap();
                        let t = u64::try_from(t).unwrap();
                        *sums.entry(format!("task engine {}", engine.name())).or_insert(0) += t;
                        // The quarters engine's own share total is the same split.
                        if engine == TaskEngine::Quarters {
                            assert_eq!(
                                t,
                                total_with(n, Strategy::Quarters, share, &CountOptions::default(), &control)
                                    .unwrap(),
                                "n = {n} {index}/{of}"
                            );
                        }
                    }
                    for s in Strategy::ALL {
                        *sums.entry(format!("strategy {}", s.name())).or_insert(0) +=
                            total_with(n, s, share, &CountOptions::default(), &control).unwrap();
                    }
                }
                for (name, sum) in sums {
                    assert_eq!(sum, total_plain(n), "{name}, n = {n}, {of} shares");
                }
            }
        }
    }

    #[test]
    fn every_vector_unit_gives_the_same_task_counts_and_a_missing_one_is_refused() {
        // n = 12: every task; n = 18: random tasks large enough for the matcher's cuts.
        let cases: Vec<(TaskList, Vec<u32>)> = [(12, None), (18, Some(12))]
            .into_iter()
            .map(|(n, sample)| {
                let list = TaskList::new(n).unwrap();
                let all: Vec<u32> = (0..list.len()).collect();
                let indices = match sample {
                    Some(k) => sample_tasks(&all, k, u64::from(n)),
                    None => all,
                };
                (list, indices)
            })
            .collect();
        let mut covered = Vec::new();
        for isa in Isa::ALL {
            for (list, indices) in &cases {
                if isa.is_available() {
                    let slow = per_task(list, TaskEngine::Backtrack, indices);
                    assert_eq!(
                        per_task_on(list, TaskEngine::Quarters, isa, indices),
                        slow,
                        "{isa}, n = {}",
                        list.n()
                    );
                } else {
                    for engine in TaskEngine::ALL {
                        let e = count_tasks(list, engine, isa, None, indices, &Control::new(), &|_| {
                            panic!("nothing runs")
                        });
                        assert_eq!(e, Err(TaskError::IsaUnavailable(isa)));
                    }
                }
            }
            covered.push(format!("{isa}: {}", if isa.is_available() { "counted" } else { "refused" }));
        }
        println!("task-list path on every vector unit: {}", covered.join(", "));
    }

    #[test]
    fn errors_name_the_problem() {
        let list = TaskList::new(6).unwrap();
        let e = count_tasks(
            &list,
            TaskEngine::Backtrack,
            Isa::best(),
            None,
            &[list.len()],
            &Control::new(),
            &|_| (),
        )
        .unwrap_err();
        assert_eq!(e, TaskError::NoSuchTask { n: 6, index: list.len(), len: list.len() });
        let stop = Control::new();
        stop.cancel();
        for engine in TaskEngine::ALL {
            let e =
                count_tasks(&list, engine, Isa::best(), None, &[0, 1], &stop, &|_| panic!("nothing runs"))
                    .unwrap_err();
            assert_eq!(e, TaskError::Interrupted(Interrupted));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(6))]

        /// A random sample of the tasks of n = 13 and 14: both engines agree task by task.
        #[test]
        fn both_engines_agree_on_sampled_tasks(n in 13u32..=14, picks in proptest::collection::vec(0u32..u32::MAX, 8)) {
            let list = TaskList::new(n).unwrap();
            let mut indices: Vec<u32> = picks.iter().map(|p| p % list.len()).collect();
            indices.sort_unstable();
            indices.dedup();
            let fast = per_task(&list, TaskEngine::Quarters, &indices);
            let slow = per_task(&list, TaskEngine::Backtrack, &indices);
            proptest::prop_assert_eq!(fast, slow);
        }
    }
}
