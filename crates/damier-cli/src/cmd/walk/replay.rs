//! `damier walk replay`: a move string played from the bottom-left cell.

use std::io::Write;
use std::process::ExitCode;

use damier::walk::path::{self, LeftBoard, ReplayRecord};
use damier::walk::{self, picture};

use crate::util::output::Report;
use crate::util::{exit, output, plural};

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
    let mut record = ReplayRecord::new(board, moves.len(), &r);
    record.board = a.show.then(|| picture(&r.black));
    record.print(a.json)?;
    Ok(code)
}

impl Report for ReplayRecord {
    fn print_text(&self) -> anyhow::Result<()> {
        let mut out = output::stdout();
        let moves = plural(self.moves as u64, "move");
        match &self.left_board {
            Some(LeftBoard { step, mv, row, col }) => {
                writeln!(out, "move {step} ({mv}) leaves the board from row {row}, column {col}")?
            }
            None if self.all_black => writeln!(out, "all black after {moves}")?,
            None => {
                let stay = if self.white == 1 {
                    "1 cell stays".to_string()
                } else {
                    format!("{} cells stay", self.white)
                };
                writeln!(out, "{stay} white after {moves}")?
            }
        }
        for line in self.board.iter().flatten() {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        Ok(())
    }
}
