//! `damier queens first N`: the first solution in backtracking order (the course chapter's
//! "stop at the first solution" exercise), with the number of queens placed to reach it.

use damier::queens::search;
use std::process::ExitCode;

use crate::util::output::{Report, errln, outln};
use crate::util::{exit, interrupt};

/// Arguments of `damier queens first`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (1 to 64).
    n: u32,
    /// Print JSON (keys: n, columns (1-based, null if none), nodes, seconds).
    #[arg(long)]
    json: bool,
    /// Print only the 1-based columns on one line (for pipes: `| damier queens check`).
    #[arg(long, conflicts_with = "json")]
    columns: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(a.n >= 1, "n must be at least 1");
    anyhow::ensure!(
        a.n <= search::MAX_N,
        "n = {} is too large for backtracking: at most {} (`damier queens solve {}` constructs one)",
        a.n,
        search::MAX_N,
        a.n
    );
    let report = search::first_timed(a.n, interrupt::control())?;
    match (&report.placement, a.columns) {
        (Some(p), true) => outln!("{}", super::shared::columns_line(&p.one_based()))?,
        (None, true) => errln!("n = {}: no solution", a.n),
        (_, false) => report.print(a.json)?,
    }
    Ok(if report.placement.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
