//! `damier walk bench`: solve and path timed on large boards. The boards and their rows are
//! the bench crate's (`damier_bench::tables`), timed as in `damier bench`.

use std::process::ExitCode;

use damier::walk::Method;
use damier_bench::tables;

use crate::util::output::outln;
use crate::util::{interrupt, output};

use super::shared::*;

/// Arguments of `damier walk bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Largest square side timed [range: 1 to 4096].
    #[arg(long, default_value_t = 2000, value_parser = crate::util::ranged::<u32>(1, 4096))]
    max: u32,
    /// Solver timed: fast or poly (brute and rows cannot reach these sizes).
    #[arg(long, value_parser = method(), default_value = "fast")]
    method: Method,
    /// Print JSON (a list of {rows, cols, solve_seconds, path_seconds, total_seconds,
    /// replay_seconds, activated, path_length}).
    #[arg(long)]
    json: bool,
}

pub(super) fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    let method = a.method;
    anyhow::ensure!(
        matches!(method, Method::Fast | Method::Poly),
        "walk bench times the fast and poly methods only"
    );
    // The text prints each row as it is measured (a large board takes seconds).
    let mut rows = Vec::new();
    for (r, c) in tables::walk_boards(a.max as usize) {
        let row = tables::walk_row(r, c, method, interrupt::control())?;
        if !a.json {
            if rows.is_empty() {
                outln!(
                    "{:>11}  {:>8}  {:>8}  {:>8}  {:>9}  {:>10}  {:>10}  {:>6}",
                    "board",
                    "solve s",
                    "path s",
                    "total s",
                    "replay s",
                    "activated",
                    "moves",
                    "ratio"
                )?;
            }
            outln!(
                "{:>11}  {:>8}  {:>8}  {:>8}  {:>9}  {:>10}  {:>10}  {:>6}",
                format!("{r}x{c}"),
                crate::util::number(row.solve_seconds),
                crate::util::number(row.path_seconds),
                crate::util::number(row.total_seconds),
                crate::util::number(row.replay_seconds),
                row.activated,
                row.path_length,
                crate::util::number(row.moves_per_activated())
            )?;
        }
        rows.push(row);
    }
    if a.json {
        output::print_json(&rows)?;
    } else {
        outln!("(total = solve + path; the target is 2000x2000 in at most 1 s with a release build)")?;
    }
    Ok(ExitCode::SUCCESS)
}
