//! `damier automaton bench`: cell updates per second of the three models (a model 3 step
//! updates all n^2 cells), one thread and all threads.
//! The rows are measured by the bench crate (`damier_bench::tables`), with the timers of
//! `damier bench`.

use std::process::ExitCode;

use clap::Args;
use damier_bench::tables;

use crate::util::interrupt;
use crate::util::output::Report;

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
    tables::automaton_rates(&a.n, a.seconds, interrupt::control())?.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
