//! `damier automaton bench`: updates per second of both models, one thread and all threads.

use std::process::ExitCode;
use std::time::Instant;

use damier::automaton::experiment;
use damier::automaton::{Model, Params};

use super::{BenchArgs, check_n};
use crate::util::output::outln;
use crate::util::{interrupt, output};

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
    for model in [Model::Pair, Model::Cell] {
        for &n in &a.n {
            interrupt::check()?;
            let params = Params::new(model, n)?;
            // Calibrate: the updates one thread makes in about `seconds`.
            let (u, s) = experiment::measure(&params, 1, 2_000_000)?;
            let target = ((u as f64 / s.max(1e-9)) * a.seconds) as u64;
            for threads in [1, all] {
                if threads == 1 || all > 1 {
                    let pool = crate::util::pool(Some(threads as u32))?;
                    let clock = Instant::now();
                    let total: u64 = pool.install(|| {
                        use rayon::prelude::*;
                        (0..threads as u64)
                            .into_par_iter()
                            .map(|t| experiment::measure(&params, 100 + t, target).map(|r| r.0).unwrap_or(0))
                            .sum()
                    });
                    let seconds = clock.elapsed().as_secs_f64();
                    rows.push(BenchRow {
                        model,
                        n,
                        threads,
                        updates: total,
                        seconds,
                        updates_per_second: total as f64 / seconds,
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
