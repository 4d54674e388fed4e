//! `damier walk count` and `damier walk table`: the number of solutions.

use std::io::Write;
use std::process::ExitCode;

use damier::walk::{self, Method};

use crate::util::output::outln;
use crate::util::{interrupt, output};

use super::shared::*;

/// Arguments of `damier walk count`.
#[derive(Debug, clap::Args)]
pub struct CountArgs {
    /// Rows (L), at least 1.
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Solver.
    #[arg(long, value_enum, default_value = "fast")]
    method: MethodArg,
    /// Print JSON (keys: rows, cols, solutions, nullity).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier walk table`.
#[derive(Debug, clap::Args)]
pub struct TableArgs {
    /// Largest square side [range: 1..=300].
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=300))]
    to: u32,
    /// Print JSON (a list of {rows, cols, solutions, nullity}).
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct CountReport {
    rows: usize,
    cols: usize,
    solutions: String,
    nullity: usize,
}

pub(super) fn count(a: CountArgs) -> anyhow::Result<ExitCode> {
    let board = walk::board_size(a.rows, a.cols)?;
    let sols = solutions(board, a.method.into())?;
    let report = CountReport {
        rows: board.height(),
        cols: board.width(),
        solutions: sols.count_decimal(),
        nullity: sols.nullity(),
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        let plural = if report.solutions == "1" { "" } else { "s" };
        outln!(
            "{} x {}: {} solution{plural} (2^{})",
            report.rows,
            report.cols,
            report.solutions,
            report.nullity
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn table(a: TableArgs) -> anyhow::Result<ExitCode> {
    let mut rows = Vec::new();
    for n in 1..=a.to as usize {
        let board = walk::board_size(n, n)?;
        // Counts only: the polynomial engine is the fastest, and the nullity is the same.
        let sols = walk::solve(board, Method::Poly, interrupt::control())?;
        rows.push(CountReport { rows: n, cols: n, solutions: sols.count_decimal(), nullity: sols.nullity() });
    }
    if a.json {
        output::print_json(&rows)?;
    } else {
        let mut out = output::stdout();
        writeln!(out, "{:>9}  {:>7}  solutions", "board", "nullity")?;
        for r in &rows {
            writeln!(out, "{:>9}  {:>7}  {}", format!("{}x{}", r.rows, r.cols), r.nullity, r.solutions)?;
        }
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}
