//! `damier queens count`: total and unique counts in one run.

use std::process::ExitCode;
use std::time::Instant;

use damier::queens;

use crate::util::output;

/// Arguments of `damier queens count`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (1..=32).
    n: u32,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Print JSON (keys: n, total, unique, seconds).
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct CountReport {
    n: u32,
    total: u64,
    unique: u64,
    seconds: f64,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(a.n >= 1, "n must be at least 1");
    anyhow::ensure!(
        a.n <= queens::count::MAX_N,
        "n = {} is too large: at most {} is supported",
        a.n,
        queens::count::MAX_N
    );
    let pool = super::pool(a.threads.unwrap_or(0) as usize)?;
    let start = Instant::now();
    let counts = pool.install(|| super::count(a.n))?;
    let report = CountReport {
        n: counts.n,
        total: counts.total,
        unique: counts.unique,
        seconds: start.elapsed().as_secs_f64(),
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        println!(
            "n = {}: {} solutions, {} unique up to symmetry ({:.3} s)",
            report.n, report.total, report.unique, report.seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}
