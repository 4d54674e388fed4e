//! `damier walk replay`: a move string played from the bottom-left cell.

use std::process::ExitCode;

use damier::walk::path::{self, ReplayRecord};
use damier::walk::{self, picture};

use crate::report::walk::Replay;
use crate::util::exit;
use crate::util::output::Report;

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
    let record = ReplayRecord::new(board, moves.len(), &r);
    Replay { record, board: a.show.then(|| picture(&r.black)) }.print(a.json)?;
    Ok(code)
}
