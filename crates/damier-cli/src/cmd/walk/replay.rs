//! `damier walk replay`: a move string played from the bottom-left cell.

use std::io::Write;
use std::process::ExitCode;

use damier::walk::path::{self, ReplayRecord};
use damier::walk::{self, picture};

use crate::util::{exit, output};

/// Arguments of `damier walk replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// Rows (L), at least 1.
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Moves: N, S, E, W (O accepted for W), either case; spaces ignored.
    moves: String,
    /// Also print the final board ('#' black, '_' white, top row first).
    #[arg(long)]
    show: bool,
    /// Print JSON (keys: rows, cols, moves, all_black, white, left_board).
    #[arg(long)]
    json: bool,
}

pub(super) fn replay(a: ReplayArgs) -> anyhow::Result<ExitCode> {
    let board = walk::board_size(a.rows, a.cols)?;
    let moves = path::parse_moves(&a.moves)?;
    let r = path::replay(board, &moves);
    let code = if r.all_black() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) };
    if a.json {
        output::print_json(&ReplayRecord::new(board, moves.len(), &r))?;
        return Ok(code);
    }
    let mut out = output::stdout();
    match r.outcome {
        path::Outcome::AllBlack => {
            writeln!(out, "all black after {}", crate::util::plural(moves.len() as u64, "move"))?
        }
        path::Outcome::White { count } => writeln!(
            out,
            "{} white after {}",
            if count == 1 { "1 cell stays".to_string() } else { format!("{count} cells stay") },
            crate::util::plural(moves.len() as u64, "move")
        )?,
        path::Outcome::LeftBoard { step, mv, row, col } => writeln!(
            out,
            "move {step} ({}) leaves the board from row {}, column {}",
            mv.letter(),
            row + 1,
            col + 1
        )?,
    }
    if a.show {
        for line in picture(&r.black) {
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    Ok(code)
}
