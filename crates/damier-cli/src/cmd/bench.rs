//! `damier bench [--quick] [--json]`: every row of docs/performance.md's summary, measured in
//! one run and printed as one table with the machine, the date and the commit.
//!
//! The rows and their timed calls are the bench crate's (`damier_bench`), shared with the
//! per-problem `bench` commands; this file only shows progress and prints.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use damier_bench::{self as bench, BenchRow, Machine, Report, Suite};

use crate::util::output::{self, Report as _, outln};
use crate::util::progress::Progress;
use crate::util::{interrupt, number, test_hooks};

/// The commit this binary was built from (`git describe --always --dirty`, by build.rs).
const COMMIT: &str = env!("DAMIER_COMMIT");

/// Arguments of `damier bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One row per engine at smaller sizes: under about a minute (the default is the full
    /// report, a few minutes on 2 cores).
    #[arg(long)]
    quick: bool,
    /// Print JSON: {suite, commit, date, machine {cpu, cores, memory_bytes, vector_units,
    /// load_average}, load_average_end, seconds, rows [{group, task, command, value, unit,
    /// target, higher_is_better, ratio, detail}]}.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let suite = if test_hooks::read()?.bench_tiny {
        Suite::Tiny
    } else if a.quick {
        Suite::Quick
    } else {
        Suite::Full
    };
    let date = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .context("the clock")?
        .format(&time::format_description::well_known::Rfc3339)
        .context("the date")?;
    let machine = Machine::detect();
    let items = bench::items(suite);
    let control = interrupt::control();
    // The rows done, for the progress (the timed calls report in their own units).
    static ROWS: damier::control::Control = damier::control::Control::new();
    // A few minutes (about one with --quick): it says so, piped or not (issue 38, section 6).
    let what = format!(
        "{} rows of the {} suite, one after the other ({})",
        items.len(),
        suite_name(suite),
        match suite {
            Suite::Full => "a few minutes on 2 cores",
            Suite::Quick => "about a minute on 2 cores",
            Suite::Tiny => "seconds",
        }
    );
    let progress = Progress::long_run(&ROWS, items.len() as u64, "bench", &what);
    let clock = Instant::now();
    let mut rows = Vec::with_capacity(items.len());
    for item in &items {
        let row = item.run(control).with_context(|| item.task())?;
        ROWS.advance(1);
        rows.push(row);
    }
    drop(progress);
    let report = Report {
        suite,
        commit: COMMIT.to_string(),
        date,
        machine,
        load_average_end: bench::load_average(),
        seconds: clock.elapsed().as_secs_f64(),
        rows,
    };
    report.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

/// The suite's name in messages.
fn suite_name(suite: Suite) -> &'static str {
    match suite {
        Suite::Full => "full",
        Suite::Quick => "quick",
        Suite::Tiny => "tiny",
    }
}

/// The figure with its unit, at a precision that fits it.
fn figure(value: f64, unit: &str) -> String {
    format!("{} {unit}", number(value))
}

impl output::Report for Report {
    fn print_text(&self) -> anyhow::Result<()> {
        let r = self;
        let m = &r.machine;
        let suite = match r.suite {
            Suite::Tiny => "tiny (test sizes: the figures mean nothing)",
            other => suite_name(other),
        };
        outln!("damier bench, {suite} report: commit {}, {} (UTC)", r.commit, r.date)?;
        let memory = m
            .memory_bytes
            .map_or("memory unknown".into(), |b| format!("{} GiB", number(b as f64 / f64::from(1u32 << 30))));
        outln!("machine: {}, {} cores, {memory}, vector units {}", m.cpu, m.cores, m.vector_units.join(" "))?;
        let load = |l: Option<[f64; 3]>| {
            l.map_or("unknown".into(), |[a, b, c]| format!("{} {} {}", number(a), number(b), number(c)))
        };
        outln!(
            "load average (1, 5, 15 min): {} at the start, {} at the end",
            load(m.load_average),
            load(r.load_average_end)
        )?;
        outln!()?;
        let width = r.rows.iter().map(|row| row.task.chars().count()).max().unwrap_or(4).max(4);
        outln!("{:<width$}  {:>18}  {:>12}  {:>6}  detail", "task", "measured", "target", "ratio")?;
        for row in &r.rows {
            let target = row.target.map_or("-".into(), |t| {
                format!("{} {}", if row.higher_is_better { ">=" } else { "<=" }, figure(t, row.unit))
            });
            let ratio = row.ratio.map_or("-".into(), number);
            outln!(
                "{:<width$}  {:>18}  {:>12}  {:>6}  {}",
                row.task,
                figure(row.value, row.unit),
                target,
                ratio,
                row.detail
            )?;
        }
        outln!()?;
        outln!(
            "ratio: time / target, or target / rate: below 1 meets the target. {} s in all.",
            number(r.seconds)
        )?;
        outln!("each row alone:")?;
        let mut seen = Vec::new();
        for row in &r.rows {
            if !seen.contains(&&row.command) {
                outln!("  {}    # {}", row.command, short(row))?;
                seen.push(&row.command);
            }
        }
        Ok(())
    }
}

/// The row's task without its thread count, for the list of commands.
fn short(row: &BenchRow) -> &str {
    row.task.split(", ").next().unwrap_or(&row.task)
}
