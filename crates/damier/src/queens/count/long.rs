//! A long count, run task by task over the [task list](super::tasks): one share of it, by a
//! chosen engine, with a journal that survives kills (a rerun resumes where it stopped), a
//! sampled recount by both engines, and the totals at the end.
//!
//! The steps, for a front end (the CLI's `queens count`, its MPI work queue) that draws the
//! progress and prints the result: [`LongCount::prepare`] lists the tasks, checks the engines
//! and opens the journal (reading back what it holds); [`LongRun::count_left`] counts the tasks
//! left and records them (or, for a work queue, [`LongRun::count`] and [`LongRun::record`]
//! batch by batch); [`LongRun::recount_sample`] recounts random tasks with both engines;
//! [`LongRun::conclude`] adds the share up into a [`LongCountResult`]. Every step runs on the
//! current rayon pool and polls the `Control` it is given. [`recheck_journal`] audits a journal
//! after the fact with the engine that did not write it.
//!
//! ```
//! use damier::control::Control;
//! use damier::cpu::Isa;
//! use damier::queens::count::journal::JournalDevice;
//! use damier::queens::count::long::{LongCount, LongTotal};
//!
//! // A whole count of n = 10 over the task list (no journal here; with one, a rerun resumes).
//! let plan = LongCount {
//!     n: 10,
//!     share: None,
//!     engine: None,
//!     isa: Isa::Portable,
//!     memory: None,
//!     journal: None,
//!     recount_sample: None,
//!     device: JournalDevice::Cpu,
//! };
//! let run = plan.prepare().unwrap();
//! run.count_left(&Control::new(), &|_| {}).unwrap();
//! match run.conclude(None).unwrap().total {
//!     LongTotal::Whole { total, unique } => assert_eq!((total, unique), (724, 92)),
//!     other => panic!("a whole count, not {other:?}"),
//! }
//! ```

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use super::devices::{CpuCounter, TaskCounter};
use super::journal::{Journal, JournalContents, JournalDevice, JournalError, JournalHeader, JournalProgress};
use super::recount::{self, Detection, Mismatch, SampleSize, ShareTotalError};
use super::tasks::{self, MAX_TASK_N, MIN_TASK_N, TaskDone, TaskEngine, TaskError, TaskList};
use super::{CountError, Share, counts_from_total};
use crate::control::Control;
use crate::cpu::Isa;

/// What a long count is asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongCount {
    /// Board size (the task list has n in [`MIN_TASK_N`]`..=`[`tasks::MAX_TASK_N`]).
    pub n: u32,
    /// The share counted; `None`: the whole count (the result then has the unique count too).
    pub share: Option<Share>,
    /// The engine counting each task; `None`: [`TaskEngine::best_for`] n.
    pub engine: Option<TaskEngine>,
    /// The vector unit of the quarters engine's kernels (one this CPU lacks is refused).
    pub isa: Isa,
    /// Most bytes the quarters engine may take (`None`: no limit).
    pub memory: Option<u64>,
    /// The journal recording every finished task; a rerun with the same file skips them.
    pub journal: Option<PathBuf>,
    /// Tasks recounted by both engines at the end ([`LongRun::recount_sample`]), if any:
    /// checked runnable before the count, not after it.
    pub recount_sample: Option<u32>,
    /// What counts the tasks, as the journal's header records it (the GPU engine runs
    /// outside this crate, recording through [`LongRun::record`]).
    pub device: JournalDevice,
}

impl LongCount {
    /// Whether this count needs the task list: an engine, a journal or a recount asked for,
    /// or a share of an n whose tasks the fast engine runs (other counts run
    /// [`super::count_share_with`] directly).
    pub fn needs_task_list(&self) -> bool {
        self.engine.is_some()
            || self.journal.is_some()
            || self.recount_sample.is_some()
            || (self.share.is_some() && (MIN_TASK_N..=TaskEngine::Quarters.max_n()).contains(&self.n))
    }

    /// Lists the tasks, checks the engines (the count's, and both when a recount is asked for),
    /// opens the journal (recording a session of [`rayon::current_num_threads`] workers) and
    /// reads back the counts it holds. The clock of [`LongCountResult::seconds`] starts here.
    pub fn prepare(&self) -> Result<LongRun, LongCountError> {
        if !(MIN_TASK_N..=MAX_TASK_N).contains(&self.n) {
            return Err(TaskError::OutOfRange(self.n).into());
        }
        let engine = self.engine.unwrap_or_else(|| TaskEngine::best_for(self.n));
        if self.n > engine.max_n() {
            return Err(TaskError::EngineCannotRun { engine, n: self.n, max: engine.max_n() }.into());
        }
        if self.recount_sample.is_some() {
            check_recount(self.n, &TaskEngine::ALL)?;
        }
        let share = self.share.unwrap_or(Share::WHOLE);
        if engine == TaskEngine::Quarters {
            // Refused before the task list is made (80 MB at n = 28), before the journal is
            // opened and before any line announces the count (all the share's tasks: at most
            // the few bytes a task more than those left). A GPU's sealing workers plan narrow
            // tables whatever the unit.
            let wide = self.device != JournalDevice::Gpu && super::quarters::wide_tables(self.isa);
            let tasks = super::quarters::task_count(self.n, share) as usize;
            super::quarters::check_memory(self.n, tasks, self.memory, wide)
                .map_err(TaskError::MemoryLimit)?;
        }
        let list = TaskList::new(self.n)?;
        let indices = list.share_indices(share);
        let start = Instant::now();
        // Tasks already in the journal are skipped; their counts are read back.
        let mut known: HashMap<u32, u64> = HashMap::new();
        let journal = match &self.journal {
            Some(path) => {
                let header = JournalHeader::new(&list, share, engine).on(self.device);
                let (journal, held) = Journal::open(path, &header, rayon::current_num_threads() as u32)?;
                known.extend(held.records.iter().map(|r| (r.index, r.count)));
                Some(journal)
            }
            None => None,
        };
        let resumed = journal.as_ref().map(|_| known.len() as u64);
        Ok(LongRun {
            n: self.n,
            share: self.share,
            list,
            engine,
            isa: self.isa,
            memory: self.memory,
            indices,
            journal,
            known: Mutex::new(known),
            resumed,
            start,
        })
    }
}

/// Why a long count, its recount or a journal's audit could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LongCountError {
    /// n has no task list, the engine cannot run it, a task does not exist, the vector unit
    /// is missing, the memory cap is too small, or the count was interrupted.
    #[error(transparent)]
    Tasks(#[from] TaskError),
    /// The journal could not be opened, read or written, or records another count.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A recount needs an engine that cannot run n on this build.
    #[error("the recount needs the {} engine, and it runs n <= {max} on this build", engine.name())]
    RecountCannotRun {
        /// The engine.
        engine: TaskEngine,
        /// Largest n it runs.
        max: u32,
    },
    /// A journal's task list is not the one this build lists for its n.
    #[error(
        "this journal's task list (fingerprint {found:016x}) is not this damier's for n = {n} ({expected:016x}): it cannot be recounted here"
    )]
    ForeignTaskList {
        /// Board size.
        n: u32,
        /// The journal's fingerprint.
        found: u64,
        /// This build's.
        expected: u64,
    },
    /// The share's counts do not add up to a total (a task missing, or past a `u64`).
    #[error(transparent)]
    ShareTotal(#[from] ShareTotalError),
    /// The total is not one a count of n can have.
    #[error(transparent)]
    Count(#[from] CountError),
}

/// Refuses a recount by `engines` where one of them cannot run n (before a long count, not
/// after).
fn check_recount(n: u32, engines: &[TaskEngine]) -> Result<(), LongCountError> {
    match engines.iter().find(|e| n > e.max_n()) {
        Some(&engine) => Err(LongCountError::RecountCannotRun { engine, max: engine.max_n() }),
        None => Ok(()),
    }
}

/// A long count ready to run ([`LongCount::prepare`]): its tasks, its journal, and the counts
/// known so far (read back, then added as tasks finish, from any thread).
#[derive(Debug)]
pub struct LongRun {
    n: u32,
    share: Option<Share>,
    list: TaskList,
    engine: TaskEngine,
    isa: Isa,
    memory: Option<u64>,
    /// The share's task indices, increasing.
    indices: Vec<u32>,
    journal: Option<Journal>,
    known: Mutex<HashMap<u32, u64>>,
    /// Tasks read back from the journal (`None` without one).
    resumed: Option<u64>,
    start: Instant,
}

impl LongRun {
    /// The board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The task list.
    pub fn list(&self) -> &TaskList {
        &self.list
    }

    /// The engine counting the tasks.
    pub fn engine(&self) -> TaskEngine {
        self.engine
    }

    /// The vector unit of the quarters engine's kernels.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// The share's tasks not finished yet, increasing.
    pub fn left(&self) -> Vec<u32> {
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        self.indices.iter().copied().filter(|i| !known.contains_key(i)).collect()
    }

    /// Counts the tasks `indices` (on the current pool, `control` advanced by one per task),
    /// calling `on_done` from the worker threads as each finishes; records nothing (a work
    /// queue's process sends the counts to the one that records them).
    pub fn count(
        &self,
        indices: &[u32],
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<(), TaskError> {
        tasks::count_tasks(&self.list, self.engine, self.isa, self.memory, indices, control, on_done)
    }

    /// The CPU's engine of this count on the workers of `pool`, as a [`TaskCounter`] (beside
    /// another device: [`super::devices::count_together`]).
    pub fn cpu<'p>(&self, pool: &'p rayon::ThreadPool) -> CpuCounter<'p> {
        CpuCounter::new(self.engine, self.isa, self.memory, pool)
    }

    /// Records a finished task: its count, and a line in the journal (whose write errors
    /// [`LongRun::finish_journal`] reports).
    pub fn record(&self, done: TaskDone) {
        if let Some(j) = &self.journal {
            j.record(done);
        }
        self.known.lock().unwrap_or_else(|e| e.into_inner()).insert(done.index, done.count);
    }

    /// Counts the tasks [left](LongRun::left) and records each; `on_done` sees each task
    /// first (a front end's hooks; it may change what is recorded). The journal is flushed
    /// also when the count fails or is interrupted: what finished is on the disk.
    pub fn count_left(
        &self,
        control: &Control,
        on_done: &(dyn Fn(&mut TaskDone) + Sync),
    ) -> Result<(), LongCountError> {
        let counted = self.count(&self.left(), control, &|mut d| {
            on_done(&mut d);
            self.record(d);
        });
        self.finish_journal()?;
        Ok(counted?)
    }

    /// [`LongRun::count_left`] on `counter` (a device, or two together:
    /// [`Both`](super::devices::Both)): the journal's write error first, then the count's
    /// result. The journal is flushed also when the count fails or is interrupted.
    pub fn count_left_on<C: TaskCounter>(
        &self,
        counter: &C,
        control: &Control,
        on_done: &(dyn Fn(&mut TaskDone) + Sync),
    ) -> Result<Result<(), C::Error>, JournalError> {
        let counted = counter.count_tasks(&self.list, &self.left(), control, &|mut d| {
            on_done(&mut d);
            self.record(d);
        });
        self.finish_journal()?;
        Ok(counted)
    }

    /// Flushes the journal to the disk (nothing without one); fails with the first write
    /// error any record met.
    pub fn finish_journal(&self) -> Result<(), JournalError> {
        self.journal.as_ref().map_or(Ok(()), Journal::finish)
    }

    /// Recounts `k` random tasks of the share (drawn with `seed`; all of them if fewer) with
    /// both engines, on the current pool, and compares with the counts recorded.
    pub fn recount_sample(
        &self,
        k: u32,
        seed: u64,
        control: &Control,
    ) -> Result<SampleRecount, LongCountError> {
        let tasks = tasks::sample_tasks(&self.indices, k, seed);
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mismatches = recount::recount(
            &self.list,
            &TaskEngine::ALL,
            self.isa,
            self.memory,
            &tasks,
            &known,
            "this run",
            control,
        )?;
        Ok(SampleRecount { seed, tasks, mismatches })
    }

    /// The share's tasks, increasing.
    pub fn tasks(&self) -> &[u32] {
        &self.indices
    }

    /// The result: the share's total from its tasks' counts (all must be known), the unique
    /// count too for a whole count, and what `recount` checked. A whole count whose total no
    /// count of n can have fails with [`CountError::ImpossibleTotal`]: look at the recount's
    /// mismatches first, they name the tasks behind it.
    pub fn conclude(self, recount: Option<&SampleRecount>) -> Result<LongCountResult, LongCountError> {
        let known = self.known.into_inner().unwrap_or_else(|e| e.into_inner());
        let share_total = recount::share_total(&self.indices, &known)?;
        let total = match self.share {
            Some(share) => LongTotal::Share { share: share.index() + 1, shares: share.of(), share_total },
            None => {
                let counts = counts_from_total(self.n, share_total)?;
                LongTotal::Whole { total: counts.total, unique: counts.unique }
            }
        };
        Ok(LongCountResult {
            n: self.n,
            total,
            seconds: self.start.elapsed().as_secs_f64(),
            tasks: self.indices.len() as u64,
            strategy: self.engine,
            processes: None,
            tasks_by_process: None,
            resumed_tasks: self.resumed,
            verified_tasks: recount.map(|r| r.tasks.len() as u64),
            seed: recount.map(|r| r.seed),
            fingerprint: format!("{:016x}", self.list.fingerprint()),
        })
    }
}

/// Random tasks recounted by other engines ([`LongRun::recount_sample`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleRecount {
    /// The seed of the draw.
    pub seed: u64,
    /// The tasks recounted, increasing.
    pub tasks: Vec<u32>,
    /// The tasks whose counts disagree.
    pub mismatches: Vec<Mismatch>,
}

/// What a long count found: the total of a whole count or of a share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum LongTotal {
    /// The whole count.
    Whole {
        /// Solutions (OEIS A000170).
        total: u64,
        /// Solutions up to symmetry (OEIS A002562).
        unique: u64,
    },
    /// One share (serialised, it reads back as a [`super::ShareCount`] for
    /// [`super::sum_shares`]).
    Share {
        /// The share, 1-based.
        share: u32,
        /// The number of shares.
        shares: u32,
        /// Solutions in this share.
        share_total: u64,
    },
}

/// The result of a long count over the task list.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LongCountResult {
    /// Board size.
    pub n: u32,
    /// The counts (JSON: `total` and `unique`, or `share`, `shares` and `share_total`).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub total: LongTotal,
    /// Wall time since [`LongCount::prepare`], seconds.
    pub seconds: f64,
    /// Tasks of the share.
    pub tasks: u64,
    /// The engine that counted the tasks.
    pub strategy: TaskEngine,
    /// Processes of a work queue (MPI), if one ran.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub processes: Option<usize>,
    /// Tasks counted by each process of a work queue, by rank.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tasks_by_process: Option<Vec<u64>>,
    /// Tasks read back from the journal, if the count has one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub resumed_tasks: Option<u64>,
    /// Tasks recounted by both engines, if a recount ran.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub verified_tasks: Option<u64>,
    /// The seed of the recount's draw.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seed: Option<u64>,
    /// The task list's fingerprint ([`TaskList::fingerprint`], 16 hex digits): [`super::sum_shares`]
    /// adds up only shares of one task list.
    pub fingerprint: String,
}

/// The audit of a journal: recorded tasks recounted by the other engine ([`recheck_journal`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Recheck {
    /// The engine that recounted.
    pub engine: TaskEngine,
    /// The seed of the draw.
    pub seed: u64,
    /// The tasks recounted, increasing.
    pub tasks: Vec<u32>,
    /// Whether every recounted task agrees with the journal.
    pub agree: bool,
    /// The tasks that disagree.
    pub mismatches: Vec<Mismatch>,
    /// What a sample this size catches: the chance of drawing a single wrong record, and the
    /// fewest wrong records it draws one of 99 % of the time (all of them are caught by a
    /// recount of every task). JSON: `population`, `sampled`, `catch_one`, `forged_for_99`.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub detection: Detection,
}

/// This build's task list for the journal header `h`; refused when this build lists other
/// tasks for its n (another task format, or another list): its counts are of tasks this build
/// cannot recount, and its total cannot be checked here.
pub fn journal_task_list(h: &JournalHeader) -> Result<TaskList, LongCountError> {
    let list = TaskList::new(h.n)?;
    if list.fingerprint() != h.fingerprint {
        return Err(LongCountError::ForeignTaskList {
            n: h.n,
            found: h.fingerprint,
            expected: list.fingerprint(),
        });
    }
    Ok(list)
}

/// Recounts a random sample of the tasks the journal `c` records (`size` of them, drawn with
/// `seed`), on the current pool, with the engine that did not record them, by the same code as
/// [`LongRun::recount_sample`]. Refused when this build lists other tasks for the journal's n
/// ([`journal_task_list`]).
///
/// What it proves: a journal's checksums detect damage, not forgery (anyone can rewrite a
/// count and recompute them), so the recorded total is only as good as the records. A recount
/// of every task (`SampleSize::Percent(100.0)`) that agrees proves the total; a sample that
/// agrees shows, with the confidence of [`Recheck::detection`], that fewer than so many
/// records are wrong. A third party draws the sample with a seed of their own choosing, after
/// the journal is published.
pub fn recheck_journal(
    c: &JournalContents,
    size: SampleSize,
    seed: u64,
    control: &Control,
) -> Result<Recheck, LongCountError> {
    let h = &c.header;
    let list = journal_task_list(h)?;
    let engine = match h.engine {
        TaskEngine::Quarters => TaskEngine::Backtrack,
        TaskEngine::Backtrack => TaskEngine::Quarters,
    };
    check_recount(h.n, &[engine])?;
    let mut recorded: Vec<u32> = c.records.iter().map(|r| r.index).collect();
    recorded.sort_unstable();
    let population = recorded.len() as u64;
    // At most 2^32 records (one per task index).
    let sampled = u32::try_from(size.of(population)).unwrap_or(u32::MAX);
    let tasks = tasks::sample_tasks(&recorded, sampled, seed);
    let known: HashMap<u32, u64> = c.records.iter().map(|r| (r.index, r.count)).collect();
    let by = format!("journal ({})", h.engine.name());
    let mismatches = recount::recount(&list, &[engine], Isa::best(), None, &tasks, &known, &by, control)?;
    let detection = Detection::of(population, tasks.len() as u64);
    Ok(Recheck { engine, seed, agree: mismatches.is_empty(), tasks, mismatches, detection })
}

/// How far a journalled count is, and its audit if one ran.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct JournalStatus {
    /// Board size.
    pub n: u32,
    /// The share, 1-based.
    pub share: u32,
    /// The number of shares.
    pub shares: u32,
    /// The engine counting the tasks.
    pub strategy: TaskEngine,
    /// What runs it (`None`: a journal written before headers recorded it).
    pub device: Option<JournalDevice>,
    /// The damier version that wrote the journal.
    pub version: String,
    /// Its task list's fingerprint (16 hex digits), this build's (see [`journal_task_list`]).
    pub fingerprint: String,
    /// Tasks of the share.
    pub tasks: u64,
    /// Tasks finished.
    pub done: u64,
    /// Tasks left.
    pub left: u64,
    /// Sum of the finished tasks' counts.
    pub share_total: u64,
    /// The counts of n, when the journal holds a whole count, finished.
    pub total: Option<u64>,
    /// Solutions up to symmetry, likewise.
    pub unique: Option<u64>,
    /// Runs that wrote to the journal.
    pub sessions: usize,
    /// Worker seconds spent on the finished tasks.
    pub task_seconds: f64,
    /// Tasks per wall-clock second over the sessions.
    pub rate: Option<f64>,
    /// Seconds left at that rate (0 when done).
    pub eta_seconds: Option<f64>,
    /// Lines of a torn tail, dropped (they run again).
    pub torn_lines: usize,
    /// The audit, if one ran ([`recheck_journal`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub recheck: Option<Recheck>,
    /// Why a finished whole count has no `total`: its sum is no possible total. Kept (rather
    /// than failing) only when the audit found tasks that disagree, which explain it.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub total_error: Option<CountError>,
}

impl JournalStatus {
    /// The status of the journal `c`, with its audit. Fails when the finished tasks add up to
    /// more than a count holds, or a finished whole count to no possible total (unless the
    /// audit disagrees: see [`JournalStatus::total_error`]).
    /// `c` is the journal read whole ([`JournalContents`]) or summarized
    /// ([`super::journal::JournalSummary`]): the same status.
    pub fn of(c: &impl JournalProgress, recheck: Option<Recheck>) -> Result<JournalStatus, CountError> {
        let h = c.header();
        let (done, left) = (c.done(), c.left());
        // Exact in a u128; a sum past a u64 (tampered counts) is refused, not wrapped.
        let share_total = super::total_from_sum(c.total())?;
        let finished_whole = left == 0 && h.share.of() == 1;
        let (counts, total_error) = match finished_whole.then(|| counts_from_total(h.n, share_total)) {
            Some(Err(e)) if recheck.as_ref().is_some_and(|r| !r.agree) => (None, Some(e)),
            Some(Err(e)) => return Err(e),
            Some(Ok(counts)) => (Some(counts), None),
            None => (None, None),
        };
        Ok(JournalStatus {
            n: h.n,
            share: h.share.index() + 1,
            shares: h.share.of(),
            strategy: h.engine,
            device: h.device,
            version: h.version.clone(),
            fingerprint: format!("{:016x}", h.fingerprint),
            tasks: u64::from(h.share_tasks()),
            done,
            left,
            share_total,
            total: counts.map(|c| c.total),
            unique: counts.map(|c| c.unique),
            sessions: c.sessions(),
            task_seconds: c.task_seconds(),
            rate: c.rate(),
            eta_seconds: if left == 0 { Some(0.0) } else { c.eta_seconds() },
            torn_lines: c.torn_lines(),
            recheck,
            total_error,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::count::known;

    fn plan(n: u32) -> LongCount {
        LongCount {
            n,
            share: None,
            engine: None,
            isa: Isa::best(),
            memory: None,
            journal: None,
            recount_sample: None,
            device: JournalDevice::Cpu,
        }
    }

    #[test]
    fn whole_counts_and_shares_add_up_to_the_known_totals() {
        let control = Control::new();
        for n in [MIN_TASK_N, 8, 11, 12] {
            let run = plan(n).prepare().unwrap();
            run.count_left(&control, &|_| {}).unwrap();
            let r = run.conclude(None).unwrap();
            let counts = counts_from_total(n, known::known_total(n).unwrap()).unwrap();
            assert_eq!(r.total, LongTotal::Whole { total: counts.total, unique: counts.unique });
            assert_eq!(r.resumed_tasks, None);
            let mut sum = 0;
            for k in 0..3 {
                let share = Share::new(k, 3).unwrap();
                let c = LongCount { share: Some(share), engine: Some(TaskEngine::Backtrack), ..plan(n) };
                let run = c.prepare().unwrap();
                run.count_left(&control, &|_| {}).unwrap();
                match run.conclude(None).unwrap().total {
                    LongTotal::Share { share_total, share: s, shares: 3 } if s == k + 1 => sum += share_total,
                    other => panic!("not share {k} of 3: {other:?}"),
                }
            }
            assert_eq!(Some(sum), known::known_total(n), "n = {n}");
        }
    }

    #[test]
    fn a_journal_resumes_and_the_recounts_catch_a_wrong_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("12.journal");
        let control = Control::new();
        // Share 1 of 1: the whole task list, its total not checked by Burnside's lemma.
        let c = LongCount {
            share: Some(Share::WHOLE),
            journal: Some(path.clone()),
            recount_sample: Some(5),
            ..plan(12)
        };
        // A first run stopped after 10 tasks, one of them recorded wrong.
        let first = c.prepare().unwrap();
        let left = first.left();
        assert_eq!(left.len() as u32, first.list().len());
        first
            .count(&left[..10], &control, &|mut d| {
                if d.index == left[3] {
                    d.count += 1;
                }
                first.record(d)
            })
            .unwrap();
        first.finish_journal().unwrap();
        drop(first);
        // The rerun counts only the rest, and its total is off by the wrong record.
        let second = c.prepare().unwrap();
        assert_eq!(second.left(), left[10..]);
        second.count_left(&control, &|_| {}).unwrap();
        let all = second.recount_sample(u32::MAX, 7, &control).unwrap();
        assert_eq!(all.tasks, left);
        assert_eq!(all.mismatches.iter().map(|m| m.task).collect::<Vec<_>>(), [left[3]]);
        let r = second.conclude(Some(&all)).unwrap();
        assert_eq!(r.resumed_tasks, Some(10));
        assert_eq!(r.verified_tasks, Some(left.len() as u64));
        assert_eq!(r.total, LongTotal::Share { share: 1, shares: 1, share_total: 14_201 });
        let contents = crate::queens::count::journal::read(&path).unwrap();
        let audit = recheck_journal(&contents, SampleSize::Percent(100.0), 1, &control).unwrap();
        assert_eq!(audit.engine, TaskEngine::Backtrack);
        assert!(!audit.agree);
        assert_eq!(audit.mismatches.len(), 1);
        assert!(matches!(JournalStatus::of(&contents, None), Err(CountError::ImpossibleTotal { .. })));
        let status = JournalStatus::of(&contents, Some(audit)).unwrap();
        assert!(status.total_error.is_some());
        assert_eq!(
            (status.done, status.left, status.share_total),
            (u64::from(contents.header.share_tasks()), 0, 14_201)
        );
        assert_eq!((status.sessions, status.total, status.eta_seconds), (2, None, Some(0.0)));
    }

    #[test]
    fn a_wrong_total_is_refused_not_printed() {
        let control = Control::new();
        let run = plan(10).prepare().unwrap();
        let left = run.left();
        run.count_left(&control, &|d| d.count += u64::from(d.index == left[0])).unwrap();
        assert!(matches!(run.conclude(None), Err(LongCountError::Count(CountError::ImpossibleTotal { .. }))));
        assert!(matches!(plan(3).prepare(), Err(LongCountError::Tasks(TaskError::OutOfRange(3)))));
    }
}
