//! `damier queens corners N`: the course chapter's corner exercises between N + 1 and N.

use std::process::ExitCode;

use damier::queens::corners;

use crate::util::output::Report;
use crate::util::{interrupt, progress::Progress};

/// Arguments of `damier queens corners`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size n (1 to 14): solutions of n+1 are reduced to n, solutions of n extended.
    n: u32,
    /// Examples shown per exercise.
    #[arg(long, default_value_t = 3, value_name = "K")]
    examples: usize,
    /// Print JSON (keys: n, reduce, extend, each with solutions, per_corner, any, examples,
    /// condition).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(a.n >= 1, "n must be at least 1");
    anyhow::ensure!(
        a.n <= corners::MAX_N,
        "n = {} is too large: at most {} (every solution of n+1 is enumerated)",
        a.n,
        corners::MAX_N
    );
    let control = interrupt::control();
    let result = {
        let _bar = Progress::start(control, u64::from(2 * a.n + 1), "corners");
        corners::exercises(a.n, a.examples, control)?
    };
    result.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
