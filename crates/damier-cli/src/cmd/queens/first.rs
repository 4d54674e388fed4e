//! `damier queens first N`: the first solution in backtracking order (the course chapter's
//! "stop at the first solution" exercise), with the number of queens placed to reach it.

use std::process::ExitCode;

use crate::util::exit;
use crate::util::layer::{self, Process};
use crate::util::output::{Report, errln, outln};

/// Arguments of `damier queens first`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (1 to 64). Up to 35 the first solution comes within seconds (n = 34 is the
    /// slowest: 2.3 billion queens placed); past 35 the backtracking may take hours or years,
    /// and it says so before it starts: `damier queens solve N` constructs a solution of any N
    /// at once.
    n: u32,
    /// Print JSON (keys: n, columns (1-based, null if none), nodes, seconds).
    #[arg(long)]
    json: bool,
    /// Print only the 1-based columns on one line (for pipes: `| damier queens check`).
    #[arg(long, conflicts_with = "json")]
    columns: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let max = damier::queens::search::FIRST_MEASURED_MAX;
    if (max + 1..=damier::queens::search::MAX_N).contains(&a.n) {
        errln!(
            "damier: queens first: backtracking to the first solution of n = {n} may take hours or years \
             (measured up to n = {max}: seconds); `damier queens solve {n}` constructs one at once; Ctrl-C stops",
            n = a.n
        );
    }
    let report =
        damier_api::queens::first(&damier_api::queens::First { n: a.n }, &Process).map_err(layer::error)?;
    match (&report.placement, a.columns) {
        (Some(p), true) => outln!("{}", super::shared::columns_line(&p.one_based()))?,
        (None, true) => errln!("n = {}: no solution", a.n),
        (_, false) => report.print(a.json)?,
    }
    Ok(if report.placement.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
