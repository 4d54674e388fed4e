//! `damier walk solve`: one solution (or all), its picture and path, or the path to a file.

use std::io::Write;
use std::process::ExitCode;

use damier::walk::{self, picture};

use damier_api::WalkSolved;

use crate::util::OutputPath;
use crate::util::output::Report;
use crate::util::{board_io, interrupt, output};

use super::shared::*;

/// Arguments of `damier walk solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Rows (L), at least 1; rows * cols at most 2^24 (2^30 with --out).
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Solver.
    #[arg(long, value_parser = method(), default_value = "fast")]
    method: walk::Method,
    /// List every solution, each with its path: at most 2^16 of them and 10^7 cells in all
    /// (Lights Out's limits), refused before the solve.
    #[arg(long, conflicts_with = "out")]
    all: bool,
    /// Write the path (one line of moves) to this file instead of printing it and the picture
    /// (`-`: the path alone on stdout); boards up to 2^30 cells (use --method poly beyond 4096
    /// cells across).
    #[arg(long, value_name = "FILE")]
    out: Option<OutputPath>,
    /// Write the activation set (landed on an odd number of times = 1) to this file: `.pbm`
    /// (raw PBM bitmap) or `.txt` (rows of 0/1).
    #[arg(long, value_name = "FILE")]
    pattern: Option<OutputPath>,
    /// Print JSON (keys: rows, cols, solutions, pattern, path, path_length; with --all also
    /// `all`, a list of {pattern, path, path_length}; with --out no pattern and path).
    #[arg(long)]
    json: bool,
}

pub(super) fn solve(a: SolveArgs) -> anyhow::Result<ExitCode> {
    // `--out -`: the path is stdout's only content, as `walk replay - ` reads it.
    let path_to_stdout = a.out.as_deref().is_some_and(|p| p == std::path::Path::new("-"));
    anyhow::ensure!(
        !(path_to_stdout && a.json),
        "--out - writes the path alone on standard output: it takes no --json"
    );
    let limit = if a.out.is_some() { walk::MAX_CELLS_PATH_TO_FILE } else { walk::MAX_CELLS };
    let board = walk::board_size_with_limit(a.rows, a.cols, limit).map_err(|e| match e {
        // The way around the screen's limit, when there is one (issue 52 §5).
        walk::WalkError::TooLarge { rows, cols, .. }
            if a.out.is_none()
                && rows.checked_mul(cols).is_some_and(|c| c <= walk::MAX_CELLS_PATH_TO_FILE) =>
        {
            anyhow::anyhow!("{e}; --out FILE writes the path of boards up to 2^30 cells")
        }
        e => e.into(),
    })?;
    if let Some(p) = &a.pattern {
        board_io::format_of(p)?; // refuse a bad extension before the work
    }
    if a.all {
        // The listing's size is known from the board's: refused before the solve.
        walk::check_listing(board)?;
    }
    // What the path holds at once is known from the size: refused before the solve.
    walk::path::check_path_memory(board)?;
    // Until the report is printed: a large board's solve, path and file take seconds.
    let progress = progress("walk solve", board, a.method);
    let sols = solutions(board, a.method)?;
    let path = checked_path(board, &sols.particular)?;
    if let Some(p) = &a.pattern {
        board_io::write(p, &sols.particular)?;
    }
    // A path to a file can be a gigabyte: Ctrl-C is heard between chunks.
    let write_path = |w: &mut dyn Write| -> anyhow::Result<()> {
        for chunk in path.as_bytes().chunks(1 << 22) {
            interrupt::check()?;
            w.write_all(chunk)?;
        }
        Ok(w.write_all(b"\n")?)
    };
    if path_to_stdout {
        drop(progress);
        let mut out = output::stdout();
        write_path(&mut out)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(f) = &a.out {
        output::write_file(f, output::Durability::Renamed, |w| write_path(w))?;
    }
    let to_screen = a.out.is_none();
    let all = if a.all {
        Some(damier_api::walk::pathed_solutions(board, &sols, interrupt::control())?)
    } else {
        None
    };
    let report = WalkSolved {
        rows: board.height(),
        cols: board.width(),
        solutions: sols.count_decimal(),
        pattern: to_screen.then(|| picture(&sols.particular)),
        path_length: path.len(),
        path: to_screen.then_some(path),
        out: a.out.as_deref().map(std::path::Path::to_path_buf),
        pattern_file: a.pattern.as_deref().map(std::path::Path::to_path_buf),
        all,
        nullity: sols.nullity(),
        activated: sols.particular.count_ones(),
    };
    drop(progress);
    report.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
