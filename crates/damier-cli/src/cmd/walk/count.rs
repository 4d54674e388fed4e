//! `damier walk count` and `damier walk table`: the number of solutions.

use std::process::ExitCode;

use damier::walk;

use crate::util::interrupt;
use crate::util::output::Report;

use super::shared::*;

/// Arguments of `damier walk count`.
#[derive(Debug, clap::Args)]
pub struct CountArgs {
    /// Rows (L), at least 1.
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Solver.
    #[arg(long, value_parser = method(), default_value = "fast")]
    method: walk::Method,
    /// Print JSON (keys: rows, cols, solutions, nullity).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier walk table`.
#[derive(Debug, clap::Args)]
pub struct TableArgs {
    /// Largest square side [range: 1 to 300].
    #[arg(long, default_value_t = 20, value_parser = crate::util::ranged::<u32>(1, 300))]
    to: u32,
    /// Print JSON (a list of {rows, cols, solutions, nullity}).
    #[arg(long)]
    json: bool,
}

pub(super) fn count(a: CountArgs) -> anyhow::Result<ExitCode> {
    let board = walk::board_size(a.rows, a.cols)?;
    let sols = {
        let _progress = progress("walk count", board, a.method);
        solutions(board, a.method)?
    };
    sols.counted().print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn table(a: TableArgs) -> anyhow::Result<ExitCode> {
    walk::square_counts(a.to as usize, interrupt::control())?.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
