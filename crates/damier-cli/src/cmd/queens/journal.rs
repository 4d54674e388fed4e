//! `damier queens journal FILE`: how far a journalled count is (tasks done and left, the
//! counts so far, rate and ETA), and with `--recheck K` (or `P%`) an audit of it: random
//! recorded tasks recounted by the other engine, with the chance that such a sample catches
//! wrong or forged records (docs/queens.md, "What a journal proves").

use std::path::PathBuf;
use std::process::ExitCode;

use damier::queens::count::journal::{self, JournalContents};
use damier::queens::count::long::{self, JournalStatus, Recheck};
use damier::queens::count::recount::SampleSize;

use crate::util::output::{Report, errln};
use crate::util::{exit, interrupt, progress::Progress};

/// Arguments of `damier queens journal`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A journal written by `damier queens count N --journal FILE`.
    file: PathBuf,
    /// Recount K random recorded tasks, or P% of them (`5%`; `100%`: every one), with the
    /// other engine than the one that recorded them (the backtracker for a journal of the
    /// quarters engine, and the other way round); exit 1 naming every task whose counts
    /// differ. Prints the chance that a sample this size catches one wrong or forged record,
    /// and how many it catches 99 % of the time: only 100% proves the total.
    #[arg(long, value_name = "K|P%", value_parser = parse_sample)]
    recheck: Option<SampleSize>,
    /// Seed of --recheck's draw [default: random, printed].
    #[arg(long, requires = "recheck")]
    seed: Option<u64>,
    /// Print JSON (keys: n, share, shares, strategy, device (cpu, gpu, cpu+gpu; null in a
    /// journal written before headers recorded it), version, fingerprint, tasks, done, left,
    /// share_total, total and unique once a whole count is done, sessions, task_seconds, rate,
    /// eta_seconds, torn_lines; with --recheck, recheck: engine, seed, tasks, agree,
    /// mismatches (task, columns, counts by engine and by the journal), population, sampled,
    /// catch_one, forged_for_99).
    #[arg(long)]
    json: bool,
}

/// `--recheck`'s value: a number of tasks up to a million, or a percentage.
fn parse_sample(text: &str) -> Result<SampleSize, String> {
    match text.parse()? {
        SampleSize::Tasks(k) if k > 1_000_000 => Err(format!("{k} tasks: at most 1000000 (or a percentage)")),
        size => Ok(size),
    }
}

/// Recounts a random sample of `size` recorded tasks of `c` with the other engine, with a
/// progress bar.
fn recheck(c: &JournalContents, size: SampleSize, seed: u64) -> anyhow::Result<Recheck> {
    let control = interrupt::control();
    let _bar = Progress::start(control, size.of(c.records.len() as u64), "recounting");
    Ok(long::recheck_journal(c, size, seed, control)?)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // A journal of another task list is refused: its total is not this build's to vouch for.
    let report = match a.recheck {
        // The audit draws from the records: the journal is read whole.
        Some(k) => {
            let c = journal::read(&a.file)?;
            long::journal_task_list(&c.header)?;
            let recheck = recheck(&c, k, crate::util::pick_seed(a.seed))?;
            JournalStatus::of(&c, Some(recheck))?
        }
        // PERF: the progress alone is folded as the journal is read, in memory independent
        // of its length (a bit per task: 2.5 MB at n = 28, where the records take GBs).
        None => {
            let s = journal::summarize(&a.file, 0)?;
            long::journal_task_list(&s.header)?;
            JournalStatus::of(&s, None)?
        }
    };
    if let Some(e) = &report.total_error {
        // An impossible total the audit explains (exit 1 below).
        errln!("damier: {e}");
    }
    let code = match &report.recheck {
        Some(r) if !r.agree => ExitCode::from(exit::NO),
        _ => ExitCode::SUCCESS,
    };
    if let Some(r) = report.recheck.as_ref().filter(|r| !r.agree) {
        for m in &r.mismatches {
            errln!("damier: MISMATCH: n = {}, {m}", report.n);
        }
        errln!(
            "damier: {} of {} recounted tasks disagree with the journal (seed {}): do not trust its total",
            r.mismatches.len(),
            r.tasks.len(),
            r.seed
        );
    }
    report.print(a.json)?;
    Ok(code)
}
