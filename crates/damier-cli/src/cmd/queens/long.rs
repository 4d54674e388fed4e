//! `damier queens count` over the task list (shares by task, a choice of engine, a journal that
//! survives kills, a sampled recount by both engines): the library's
//! [`damier::queens::count::long`] runs it; this file adds the progress bars, the cost warning,
//! the test hooks and the printing.

use std::process::ExitCode;
use std::time::Duration;

use damier::queens::count::journal::{JournalDevice, JournalError, JournalHeader};
use damier::queens::count::long::{LongCount, LongCountError, LongCountResult, LongRun};
use damier::queens::count::tasks::{TaskDone, TaskEngine, TaskError};

use damier_api::Refusal;

use crate::util::layer::{self, Process};
use crate::util::output::{Report, errln};
use crate::util::progress::Progress;
use crate::util::{exit, interrupt};

/// A long count as the CLI runs it: the library's plan, and what the CLI adds.
pub(super) struct Run {
    pub plan: LongCount,
    /// Seed of the recount's draw (`None`: random, printed).
    pub seed: Option<u64>,
    /// Worker threads (`None`: all cores).
    pub threads: Option<u32>,
    pub json: bool,
    /// Extra wall time per task (tests: a slow process, a run long enough to be killed).
    pub delay: Duration,
    /// A task whose count this run gets wrong by one (tests: what --verify-sample catches).
    pub miscount: Option<u32>,
}

/// Prepares `r` on `pool` (its journal records the pool's threads), the errors naming the
/// flags that would help.
pub(super) fn prepare(r: &Run, pool: &rayon::ThreadPool) -> anyhow::Result<LongRun> {
    pool.install(|| r.plan.prepare()).map_err(|e| match e {
        LongCountError::Tasks(TaskError::OutOfRange(_)) => anyhow::Error::new(e)
            .context("--share with --strategy, --journal, --verify-sample or --mpi works on the task list"),
        LongCountError::Tasks(TaskError::EngineCannotRun { engine: TaskEngine::Quarters, .. }) => {
            anyhow::anyhow!("{e}; --strategy backtrack can (slowly)")
        }
        LongCountError::Journal(JournalError::Foreign { ref found, ref wanted, .. }) => {
            if retired_search_journal(found, wanted) {
                anyhow::anyhow!(
                    "{e}; it was written by the GPU's search kernel, retired on 2026-12-06 (docs/gpu.md): its recorded tasks stay valid for queens journal, --recheck and queens sum; count the rest with a damier from before then"
                )
            } else {
                e.into()
            }
        }
        e => e.into(),
    })
}

/// Whether a journal headed `found` is the retired search kernel's (`backtrack` on a GPU)
/// and differs from this `--device gpu` run's header `wanted` by the engine alone.
fn retired_search_journal(found: &JournalHeader, wanted: &JournalHeader) -> bool {
    let only_the_engine_differs =
        found.engine != wanted.engine && JournalHeader { engine: wanted.engine, ..found.clone() } == *wanted;
    only_the_engine_differs
        && found.device == Some(JournalDevice::Gpu)
        && found.engine == TaskEngine::Backtrack
}

impl Run {
    /// The test hooks on a finished task: the extra wall time, the task miscounted.
    pub(super) fn hook(&self, d: &mut TaskDone) {
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        if self.miscount == Some(d.index) {
            d.count = d.count.wrapping_add(1);
        }
    }
}

/// The progress of counting `tasks` tasks of `p`.
fn bar(p: &LongRun, tasks: usize) -> Progress {
    let of = if tasks < p.tasks().len() { " (the tasks not yet in the journal)" } else { "" };
    super::shared::counting_bar(interrupt::control(), p.n(), tasks as u64, of)
}

/// Counts `indices` of `p` on `pool` with a progress bar, calling `on_done` per task after
/// sleeping `delay` (a test hook).
#[cfg(feature = "mpi")]
pub(super) fn count_with_bar(
    p: &LongRun,
    pool: &rayon::ThreadPool,
    indices: &[u32],
    delay: Duration,
    on_done: &(dyn Fn(TaskDone) + Sync),
) -> anyhow::Result<()> {
    let control = interrupt::control();
    let _bar = bar(p, indices.len());
    pool.install(|| {
        p.count(indices, control, &|d| {
            if !delay.is_zero() {
                std::thread::sleep(delay);
            }
            on_done(d)
        })
    })?;
    Ok(())
}

/// Announces the count of `left` tasks of `p` if it is projected to be long ([`super::cost`]).
pub(super) fn warn_if_costly(p: &LongRun, left: usize) -> anyhow::Result<()> {
    super::cost::warn_if_costly(&damier::queens::count::cost::CostQuery {
        n: p.list().n(),
        engine: p.engine(),
        tasks: left as u64,
        all_tasks: u64::from(p.list().len()),
        isa: p.isa(),
    })
}

pub(super) fn run(r: Run) -> anyhow::Result<ExitCode> {
    let pool = crate::util::pool(r.threads)?;
    let p = prepare(&r, &pool)?;
    let left = p.left();
    warn_if_costly(&p, left.len())?;
    let counted = {
        let _bar = bar(&p, left.len());
        // Also after Ctrl-C: what finished is on the disk (the journal's error first).
        p.count_left_on(&p.cpu(&pool), interrupt::control(), &|d| r.hook(d))?
    };
    counted?;
    conclude(&r, p, &pool, |_| {})
}

/// Runs --verify-sample (exit 1 naming the tasks that disagree) and adds up the share (the
/// request layer's end of a long count), lets `complete` fill in what the caller knows (the
/// processes of an MPI job), and prints.
pub(super) fn conclude(
    r: &Run,
    p: LongRun,
    pool: &rayon::ThreadPool,
    complete: impl FnOnce(&mut LongCountResult),
) -> anyhow::Result<ExitCode> {
    let concluded =
        pool.install(|| damier_api::queens::conclude_long(p, r.plan.recount_sample, r.seed, &Process));
    let mut result = match concluded {
        Err(Refusal::No(lines)) => {
            for line in lines.lines() {
                errln!("damier: {line}");
            }
            return Ok(ExitCode::from(exit::NO));
        }
        concluded => concluded.map_err(layer::error)?,
    };
    complete(&mut result);
    result.print(r.json)?;
    Ok(ExitCode::SUCCESS)
}
