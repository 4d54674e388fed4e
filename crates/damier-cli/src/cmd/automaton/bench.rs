//! `damier automaton bench`: cell updates per second of the three models (a model 3 step
//! updates all n^2 cells), one thread and all threads.
//! The rows are measured by the bench crate (`damier_bench::tables`), with the timers of
//! `damier bench`.

use std::process::ExitCode;

use clap::Args;
use damier_bench::tables;

use crate::util::interrupt;
use crate::util::output::Report;
use crate::util::progress::Progress;

use super::shared::*;

/// Arguments of `damier automaton bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Board sides, comma separated.
    #[arg(short = 'n', long = "n", value_delimiter = ',', default_value = "8,12,16")]
    n: Vec<u32>,
    /// Seconds per measurement (about).
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 600.0,
        "--seconds: expected 0 < s <= 600"
    );
    for &n in &a.n {
        check_n(damier::automaton::Model::Pair, n)?;
    }
    // Three models, each n, on 1 thread and on all: as many measurements of --seconds each
    // (the default 18 s on 2 cores), so the run says so when it is more than a few seconds.
    let threads = if std::thread::available_parallelism().map_or(1, |p| p.get()) > 1 { 2 } else { 1 };
    let projected = a.seconds * (3 * a.n.len() * threads) as f64;
    let progress = Progress::sized(projected >= 5.0, interrupt::control(), 0, "automaton bench", || {
        format!(
            "{} measurements of about {} s (3 models, n = {}, on 1 thread{}): about {} s",
            3 * a.n.len() * threads,
            crate::util::number(a.seconds),
            a.n.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
            if threads > 1 { " and on all" } else { "" },
            crate::util::number(projected)
        )
    });
    let rates = tables::automaton_rates(&a.n, a.seconds, interrupt::control())?;
    drop(progress);
    rates.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
