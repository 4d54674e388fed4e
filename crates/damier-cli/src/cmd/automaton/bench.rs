//! `damier automaton bench`: cell updates per second of the three models (a model 3 step
//! updates all n^2 cells), one thread and all threads.
//! The timed call is the library's (`damier::bench::timers`), shared with `damier bench`.

use std::process::ExitCode;

use clap::Args;
use damier::automaton::{Model, Params};
use damier::bench;

use crate::util::output::outln;
use crate::util::{interrupt, output};

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

#[derive(serde::Serialize)]
struct BenchRow {
    model: Model,
    n: u32,
    threads: usize,
    updates: u64,
    seconds: f64,
    updates_per_second: f64,
}

pub(super) fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 600.0,
        "--seconds: expected 0 < s <= 600"
    );
    for &n in &a.n {
        check_n(n)?;
    }
    let all = std::thread::available_parallelism().map(|p| p.get()).unwrap_or(1);
    let mut rows = Vec::new();
    for model in [Model::Pair, Model::Cell, Model::Row] {
        for &n in &a.n {
            interrupt::check()?;
            let params = Params::new(model, n)?;
            for threads in [1, all] {
                if threads == 1 || all > 1 {
                    let (updates, seconds) = bench::timers::automaton_throughput(
                        &params,
                        threads,
                        a.seconds,
                        interrupt::control(),
                    )?;
                    rows.push(BenchRow {
                        model,
                        n,
                        threads,
                        updates,
                        seconds,
                        updates_per_second: updates as f64 / seconds,
                    });
                }
            }
        }
    }
    if a.json {
        output::print_json(&rows)?;
    } else {
        outln!(
            "{:>5} {:>4} {:>7} {:>14} {:>9} {:>16}",
            "model",
            "n",
            "threads",
            "updates",
            "seconds",
            "M updates/s"
        )?;
        for r in &rows {
            outln!(
                "{:>5} {:>4} {:>7} {:>14} {:>9.3} {:>16.1}",
                r.model.name(),
                r.n,
                r.threads,
                r.updates,
                r.seconds,
                r.updates_per_second / 1e6
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
