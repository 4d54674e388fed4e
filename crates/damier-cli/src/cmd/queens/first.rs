//! `damier queens first N`: the first solution in backtracking order (the course chapter's
//! "stop at the first solution" exercise), with the number of queens placed to reach it.

use std::process::ExitCode;
use std::time::Instant;

use damier::queens::Placement;
use damier::queens::search::{self, Solutions};

use super::shared::BOARD_MAX;
use crate::util::output::{errln, out, outln};
use crate::util::{exit, interrupt, output};

/// Arguments of `damier queens first`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (1..=64).
    n: u32,
    /// Print JSON (keys: n, columns (1-based, null if none), nodes, seconds).
    #[arg(long)]
    json: bool,
    /// Print only the 1-based columns on one line (for pipes: `| damier queens check`).
    #[arg(long, conflicts_with = "json")]
    columns: bool,
}

#[derive(serde::Serialize)]
struct Report {
    n: u32,
    columns: Option<Vec<u64>>,
    nodes: u64,
    seconds: f64,
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
    let start = Instant::now();
    let mut s = Solutions::new(a.n)?;
    let found = s.next_with(interrupt::control())?.map(|c| Placement::new(c.to_vec())).transpose()?;
    if let Some(p) = &found {
        anyhow::ensure!(p.is_valid(), "internal error: the search returned an invalid placement {p}");
    }
    let report = Report {
        n: a.n,
        columns: found.as_ref().map(Placement::one_based),
        nodes: s.nodes(),
        seconds: start.elapsed().as_secs_f64(),
    };
    if a.json {
        output::print_json(&report)?;
    } else if a.columns {
        match &report.columns {
            Some(cols) => outln!("{}", super::shared::columns_line(cols))?,
            None => errln!("n = {}: no solution", a.n),
        }
    } else {
        match &found {
            Some(p) => {
                outln!(
                    "n = {}: first solution S = {p} ({} placed, {:.3} s)",
                    a.n,
                    crate::util::plural(report.nodes, "queen"),
                    report.seconds
                )?;
                if p.n() <= BOARD_MAX {
                    out!("{}", p.board())?;
                }
            }
            None => outln!("n = {}: no solution ({} queens placed)", a.n, report.nodes)?,
        }
    }
    Ok(if found.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
