//! `damier queens journal FILE`: how far a journalled count is (tasks done and left, the
//! counts so far, rate and ETA), and with `--recheck K` (or `P%`) an audit of it: random
//! recorded tasks recounted by the other engine, with the chance that such a sample catches
//! wrong or forged records (docs/queens.md, "What a journal proves").

use std::path::PathBuf;
use std::process::ExitCode;

use damier::queens::count::journal::{self, JournalContents};
use damier::queens::count::long::{self, JournalStatus, Recheck};
use damier::queens::count::recount::{Detection, SampleSize};

use crate::util::output::{Report, errln, outln};
use crate::util::{exit, interrupt, number, plural, progress::Progress};

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
    let c = journal::read(&a.file)?;
    // A journal of another task list is refused: its total is not this build's to vouch for.
    long::journal_task_list(&c.header)?;
    let recheck = match a.recheck {
        Some(k) => Some(recheck(&c, k, crate::util::pick_seed(a.seed))?),
        None => None,
    };
    let report = JournalStatus::of(&c, recheck)?;
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

/// What a recheck of this size proves, in a sentence.
fn detection_text(d: &Detection) -> String {
    if d.sampled > 0 && d.sampled == d.population {
        return "every recorded task recounted: a recheck that agrees proves the total".to_string();
    }
    let ninety_nine = match d.forged_for_99 {
        Some(k) => format!("{} or more 99 % of the time", plural(k, "wrong record")),
        None => "none for sure".to_string(),
    };
    format!(
        "a sample this size catches a single wrong or forged record with probability {}, {ninety_nine}; \
         --recheck 100% proves the total",
        percent(d.catch_one)
    )
}

/// A probability as a percentage, with enough digits to tell small ones apart.
fn percent(p: f64) -> String {
    let x = 100.0 * p;
    format!("{} %", number(x))
}

impl Report for JournalStatus {
    fn print_text(&self) -> anyhow::Result<()> {
        let r = self;
        outln!(
            "n = {}, share {} of {}, {} engine{} (damier {}): {} of {} tasks done, {} left",
            r.n,
            r.share,
            r.shares,
            r.strategy.name(),
            r.device.map_or(String::new(), |d| format!(" on {}", d.name())),
            r.version,
            r.done,
            r.tasks,
            r.left
        )?;
        match (r.total, r.unique) {
            (Some(t), Some(u)) => {
                outln!("finished: {}, {u} unique up to symmetry", crate::util::plural(t, "solution"))?
            }
            _ => outln!("solutions so far in this share: {}", r.share_total)?,
        }
        let rate = r.rate.map_or("unknown".to_string(), |x| format!("{} tasks/s", number(x)));
        let eta = r
            .eta_seconds
            .map_or("unknown".to_string(), |s| format!("{} s ({} h)", number(s), number(s / 3600.0)));
        outln!(
            "{}, {} worker seconds on finished tasks, rate {rate}, ETA {eta}",
            crate::util::plural(r.sessions as u64, "session"),
            number(r.task_seconds)
        )?;
        if r.torn_lines > 0 {
            outln!(
                "{} at the end dropped: those tasks run again",
                crate::util::plural(r.torn_lines as u64, "torn line")
            )?;
        }
        if let Some(c) = &r.recheck {
            outln!(
                "recheck: {} of the {} recorded tasks recounted by the {} engine (seed {}): {}",
                c.tasks.len(),
                r.done,
                c.engine.name(),
                c.seed,
                if c.agree { "all agree".to_string() } else { format!("{} disagree", c.mismatches.len()) }
            )?;
            outln!("{}", detection_text(&c.detection))?;
        }
        Ok(())
    }
}
