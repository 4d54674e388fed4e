//! `damier queens count` over the task list: shares by task, a choice of engine, a journal
//! that survives kills, and a sampled recount by both engines.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use damier::cpu::Isa;
use damier::queens::count::journal::{Journal, JournalHeader};
use damier::queens::count::tasks::{self, MIN_TASK_N, TaskDone, TaskEngine, TaskList};
use damier::queens::count::{Share, counts_from_total, recount};

use crate::util::output::{errln, outln};
use crate::util::{exit, interrupt, output, progress::Progress};

/// A count run task by task.
pub(super) struct LongCount {
    pub n: u32,
    pub share: Option<Share>,
    pub engine: Option<TaskEngine>,
    /// The vector unit of the quarters engine's kernels (checked available by the caller).
    pub isa: Isa,
    /// Most bytes the quarters engine may take (`None`: no limit).
    pub memory: Option<u64>,
    pub journal: Option<PathBuf>,
    pub verify_sample: Option<u32>,
    pub seed: Option<u64>,
    pub threads: usize,
    pub json: bool,
    /// Extra wall time per task (tests: a slow process, a run long enough to be killed).
    pub delay: Duration,
    /// A task whose count this run gets wrong by one (tests: what --verify-sample catches).
    pub miscount: Option<u32>,
}

impl LongCount {
    /// Whether the count needs the task list (a flag about tasks, or a share of an n whose
    /// tasks the fast engine runs).
    pub fn applies(&self) -> bool {
        self.engine.is_some()
            || self.journal.is_some()
            || self.verify_sample.is_some()
            || (self.share.is_some() && (MIN_TASK_N..=TaskEngine::Quarters.max_n()).contains(&self.n))
    }
}

/// The sampled tasks that disagree.
pub(super) type Mismatches = Vec<damier::queens::count::recount::Mismatch>;

/// Counts `indices` of `list` on the current pool with a progress bar, calling `on_done` per
/// task (after the optional delay).
pub(super) fn count_indices(
    list: &TaskList,
    engine: TaskEngine,
    isa: Isa,
    memory: Option<u64>,
    indices: &[u32],
    delay: Duration,
    on_done: &(dyn Fn(TaskDone) + Sync),
) -> anyhow::Result<()> {
    let control = interrupt::control();
    let _bar = Progress::start(control, indices.len() as u64, "counting");
    tasks::count_tasks(list, engine, isa, memory, indices, control, &|d| {
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
        on_done(d)
    })?;
    Ok(())
}

/// Refuses a recount by `engines` where one of them cannot run n (before a long count, not
/// after).
fn check_verifiable(n: u32, engines: &[TaskEngine]) -> anyhow::Result<()> {
    if let Some(e) = engines.iter().find(|e| n > e.max_n()) {
        bail!("the recount needs the {} engine, and it runs n <= {} on this build", e.name(), e.max_n());
    }
    Ok(())
}

/// Recounts `sample` with each of `engines` and compares with the counts `known` (from the run
/// or a journal, named `recorded_by`): one mismatch per disagreeing task. `--verify-sample`
/// recounts with both engines, `journal --recheck` with the one that did not record the tasks.
pub(super) fn verify(
    list: &TaskList,
    isa: Isa,
    memory: Option<u64>,
    sample: &[u32],
    engines: &[TaskEngine],
    known: &HashMap<u32, u64>,
    recorded_by: &str,
) -> anyhow::Result<Mismatches> {
    check_verifiable(list.n(), engines)?;
    let control = interrupt::control();
    let _bar = Progress::start(control, (sample.len() * engines.len()) as u64, "recounting");
    Ok(recount::recount(list, engines, isa, memory, sample, known, recorded_by, control)?)
}

/// A count ready to run: its tasks, its journal, and what the journal already holds.
pub(super) struct Prepared {
    pub list: TaskList,
    pub engine: TaskEngine,
    /// The vector unit of the quarters engine's kernels.
    pub isa: Isa,
    /// Most bytes the quarters engine may take (`None`: no limit).
    pub memory: Option<u64>,
    /// The share's task indices.
    pub indices: Vec<u32>,
    pub pool: rayon::ThreadPool,
    pub journal: Option<Journal>,
    /// Counts of finished tasks (read back from the journal, then added as tasks finish).
    pub known: Mutex<HashMap<u32, u64>>,
    /// Tasks read back from the journal.
    pub resumed: u64,
    pub start: Instant,
}

impl Prepared {
    /// The share's tasks not finished yet.
    pub fn left(&self) -> Vec<u32> {
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        self.indices.iter().copied().filter(|i| !known.contains_key(i)).collect()
    }

    /// Announces the count of `left` tasks if it is projected to be long ([`super::cost`]).
    pub fn warn_if_costly(&self, left: usize) -> anyhow::Result<()> {
        super::cost::warn_if_costly(&super::cost::Run {
            n: self.list.n(),
            engine: self.engine,
            tasks: left as u64,
            all_tasks: u64::from(self.list.len()),
            isa: self.isa,
        })
    }

    /// Records a finished task (in the journal too).
    pub fn record(&self, d: TaskDone) {
        if let Some(j) = &self.journal {
            j.record(d);
        }
        self.known.lock().unwrap_or_else(|e| e.into_inner()).insert(d.index, d.count);
    }
}

/// Lists the tasks, checks the engine, opens the journal.
pub(super) fn prepare(c: &LongCount) -> anyhow::Result<Prepared> {
    let list = TaskList::new(c.n).with_context(|| {
        "--share with --strategy, --journal, --verify-sample or --mpi works on the task list".to_string()
    })?;
    let engine = c.engine.unwrap_or_else(|| TaskEngine::best_for(c.n));
    if c.n > engine.max_n() {
        bail!(
            "the {} engine cannot run tasks of n = {} yet (it runs n <= {}){}",
            engine.name(),
            c.n,
            engine.max_n(),
            if engine == TaskEngine::Quarters { "; --strategy backtrack can (slowly)" } else { "" }
        );
    }
    if c.verify_sample.is_some() {
        check_verifiable(c.n, &TaskEngine::ALL)?;
    }
    let share = c.share.unwrap_or(Share::WHOLE);
    let indices = list.share_indices(share);
    let pool = crate::util::pool(Some(c.threads as u32))?;
    let start = Instant::now();
    // Tasks already in the journal are skipped; their counts are read back.
    let mut known: HashMap<u32, u64> = HashMap::new();
    let journal = match &c.journal {
        Some(path) => {
            let header = JournalHeader::new(&list, share, engine);
            let (journal, held) = Journal::open(path, &header, pool.current_num_threads() as u32)?;
            known.extend(held.records.iter().map(|r| (r.index, r.count)));
            Some(journal)
        }
        None => None,
    };
    let resumed = known.len() as u64;
    Ok(Prepared {
        list,
        engine,
        isa: c.isa,
        memory: c.memory,
        indices,
        pool,
        journal,
        known: Mutex::new(known),
        resumed,
        start,
    })
}

pub(super) fn run(c: LongCount) -> anyhow::Result<ExitCode> {
    let p = prepare(&c)?;
    let left = p.left();
    p.warn_if_costly(left.len())?;
    let counted = p.pool.install(|| {
        count_indices(&p.list, p.engine, p.isa, p.memory, &left, c.delay, &|mut d| {
            if c.miscount == Some(d.index) {
                d.count = d.count.wrapping_add(1);
            }
            p.record(d);
        })
    });
    if let Some(j) = &p.journal {
        // Also after Ctrl-C: what finished is on the disk.
        j.finish()?;
    }
    counted?;
    conclude(&c, p, serde_json::Map::new())
}

/// Adds up the share, runs --verify-sample, prints the report (with `extra` JSON keys).
pub(super) fn conclude(
    c: &LongCount,
    p: Prepared,
    extra: serde_json::Map<String, serde_json::Value>,
) -> anyhow::Result<ExitCode> {
    let Prepared { list, engine, isa, memory, indices, pool, known, resumed, start, .. } = p;
    let known = known.into_inner().unwrap_or_else(|e| e.into_inner());
    let total = recount::share_total(&indices, &known)?;

    let seed = crate::util::pick_seed(c.seed);
    let mut verified = None;
    if let Some(k) = c.verify_sample {
        let picked = tasks::sample_tasks(&indices, k, seed);
        let bad =
            pool.install(|| verify(&list, isa, memory, &picked, &TaskEngine::ALL, &known, "this run"))?;
        if !bad.is_empty() {
            for b in &bad {
                errln!("damier: MISMATCH: n = {}, {b}", c.n);
            }
            errln!(
                "damier: {} of {} sampled tasks disagree (seed {seed}): do not trust this count",
                bad.len(),
                picked.len()
            );
            return Ok(ExitCode::from(exit::NO));
        }
        verified = Some(picked.len());
    }

    let seconds = start.elapsed().as_secs_f64();
    let mut report = match c.share {
        Some(share) => serde_json::to_value(damier::queens::count::ShareCount {
            n: c.n,
            share: share.index() + 1,
            shares: share.of(),
            share_total: total,
            seconds,
            tasks: indices.len() as u64,
        })?,
        None => {
            let counts = counts_from_total(c.n, total)?;
            serde_json::json!({
                "n": c.n, "total": counts.total, "unique": counts.unique, "seconds": seconds,
                "tasks": indices.len(),
            })
        }
    };
    let fields = report.as_object_mut().context("a report is an object")?;
    fields.insert("strategy".into(), engine.name().into());
    let notes_extra: Vec<String> = extra.iter().map(|(k, v)| format!("{k} {v}")).collect();
    fields.extend(extra);
    if c.journal.is_some() {
        fields.insert("resumed_tasks".into(), resumed.into());
    }
    if let Some(v) = verified {
        fields.insert("verified_tasks".into(), v.into());
        fields.insert("seed".into(), seed.into());
    }
    if c.json {
        output::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let what = match c.share {
        Some(share) => {
            format!("share {} of {}: {total} solutions in this share", share.index() + 1, share.of())
        }
        None => {
            let counts = counts_from_total(c.n, total)?;
            format!("{} solutions, {} unique up to symmetry", counts.total, counts.unique)
        }
    };
    let mut notes = vec![format!("{} tasks, {} engine", indices.len(), engine.name())];
    if c.journal.is_some() {
        notes.push(format!("{resumed} read back from the journal"));
    }
    if let Some(v) = verified {
        notes.push(format!("{v} sampled tasks recounted by both engines, all agree (seed {seed})"));
    }
    notes.extend(notes_extra);
    outln!("n = {}, {what} ({}; {seconds:.3} s)", c.n, notes.join("; "))?;
    Ok(ExitCode::SUCCESS)
}
