//! `damier queens journal FILE`: how far a journalled count is (tasks done and left, the
//! counts so far, rate and ETA).

use std::path::PathBuf;
use std::process::ExitCode;

use damier::queens::count::counts_from_total;
use damier::queens::count::journal;

use crate::util::output;
use crate::util::output::outln;

/// Arguments of `damier queens journal`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A journal written by `damier queens count N --journal FILE`.
    file: PathBuf,
    /// Print JSON (keys: n, share, shares, strategy, version, tasks, done, left, share_total,
    /// total and unique once a whole count is done, sessions, task_seconds, rate, eta_seconds,
    /// torn_lines).
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct JournalReport {
    n: u32,
    /// 1-based.
    share: u32,
    shares: u32,
    strategy: &'static str,
    version: String,
    /// Tasks of the share.
    tasks: u64,
    done: u64,
    left: u64,
    /// Sum of the finished tasks' counts.
    share_total: u64,
    /// The counts of n, when the journal holds a whole count, finished.
    total: Option<u64>,
    unique: Option<u64>,
    sessions: usize,
    /// Worker seconds spent on the finished tasks.
    task_seconds: f64,
    /// Tasks per wall-clock second over the sessions.
    rate: Option<f64>,
    eta_seconds: Option<f64>,
    /// Lines of a torn tail, dropped (they run again).
    torn_lines: usize,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let c = journal::read(&a.file)?;
    let h = &c.header;
    let (done, left) = (c.records.len() as u64, c.left());
    let finished_whole = left == 0 && h.share.of() == 1;
    let counts = if finished_whole { Some(counts_from_total(h.n, c.total())?) } else { None };
    let report = JournalReport {
        n: h.n,
        share: h.share.index() + 1,
        shares: h.share.of(),
        strategy: h.engine.name(),
        version: h.version.clone(),
        tasks: u64::from(h.share_tasks()),
        done,
        left,
        share_total: c.total(),
        total: counts.map(|c| c.total),
        unique: counts.map(|c| c.unique),
        sessions: c.sessions.len(),
        task_seconds: c.task_seconds(),
        rate: c.rate(),
        eta_seconds: if left == 0 { Some(0.0) } else { c.eta_seconds() },
        torn_lines: c.torn_lines,
    };
    if a.json {
        output::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let r = &report;
    outln!(
        "n = {}, share {} of {}, {} engine (damier {}): {} of {} tasks done, {} left",
        r.n,
        r.share,
        r.shares,
        r.strategy,
        r.version,
        r.done,
        r.tasks,
        r.left
    )?;
    match (r.total, r.unique) {
        (Some(t), Some(u)) => outln!("finished: {t} solutions, {u} unique up to symmetry")?,
        _ => outln!("solutions so far in this share: {}", r.share_total)?,
    }
    let rate = r.rate.map_or("unknown".to_string(), |x| format!("{x:.2} tasks/s"));
    let eta = r.eta_seconds.map_or("unknown".to_string(), |s| format!("{s:.0} s ({:.2} h)", s / 3600.0));
    outln!(
        "{} sessions, {:.1} worker seconds on finished tasks, rate {rate}, ETA {eta}",
        r.sessions,
        r.task_seconds
    )?;
    if r.torn_lines > 0 {
        outln!("{} torn line(s) at the end are dropped: those tasks run again", r.torn_lines)?;
    }
    Ok(ExitCode::SUCCESS)
}
