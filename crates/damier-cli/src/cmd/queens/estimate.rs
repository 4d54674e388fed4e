//! `damier queens estimate N`: the projected cost of counting n, from a timed random sample
//! of its tasks.

use std::process::ExitCode;

use damier::queens::count::estimate;
use damier::queens::count::tasks::{MAX_TASK_N, MIN_TASK_N};

use crate::util::output::outln;
use crate::util::{interrupt, output, progress::Progress};

/// Arguments of `damier queens estimate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (4..=27).
    #[arg(value_parser = clap::value_parser!(u32).range(i64::from(MIN_TASK_N)..=i64::from(MAX_TASK_N)))]
    n: u32,
    /// Tasks to time (drawn at random, without replacement).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    samples: u32,
    /// Seed of the draw [default: random, printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Print JSON (keys: n, tasks, core_hours, low, high (the 95% interval, core hours),
    /// samples, engine, task_seconds, task_seconds_sd, setup_seconds, clock, seed).
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Report {
    #[serde(flatten)]
    estimate: estimate::Estimate,
    seed: u64,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let seed = a.seed.unwrap_or_else(rand::random);
    let control = interrupt::control();
    // One more than the sample: the first task also runs once as a warm-up.
    let bar = Progress::start(control, u64::from(a.samples) + 1, "timing tasks");
    let e = estimate::estimate_cost(a.n, a.samples, seed, control)?;
    drop(bar);
    if a.json {
        output::print_json(&Report { estimate: e, seed })?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "n = {}: {} tasks; {} timed (seed {seed}, {} clock) at {:.6} s each on average (sd {:.6} s), set-up {:.2} s",
        e.n,
        e.tasks,
        e.samples,
        e.clock,
        e.task_seconds,
        e.task_seconds_sd,
        e.setup_seconds
    )?;
    outln!(
        "projected: {:.1} core seconds = {:.4} core hours (95% interval {:.4} to {:.4} h), {:.4} h on 2 cores",
        e.core_hours * 3600.0,
        e.core_hours,
        e.low,
        e.high,
        e.core_hours / 2.0
    )?;
    Ok(ExitCode::SUCCESS)
}
