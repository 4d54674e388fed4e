//! What Lights Out's commands share: the printing limits, the solver argument, the size
//! argument, boards read and printed.

use clap::ValueEnum;
use damier::board::Board;
use damier::lights::{self, Method};

use crate::util::board_io;

/// Press patterns are printed up to this many cells; beyond, only the summary. The limit of
/// a listing of every solution too ([`lights::ALL_MAX_CELLS`]).
pub(super) const PRINT_MAX_CELLS: usize = lights::ALL_MAX_CELLS as usize;

/// The engine that solves the system.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum MethodArg {
    /// Elimination on the N x N press matrix (up to 4096 cells).
    Dense,
    /// Light chasing, then elimination on the W x W system (width up to 4096).
    Chase,
    /// Light chasing, then polynomials over GF(2) (any size).
    Poly,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Dense => Method::Dense,
            MethodArg::Chase => Method::Chase,
            MethodArg::Poly => Method::Poly,
        }
    }
}

/// A board size argument.
#[derive(Debug, clap::Args)]
pub struct SizeArgs {
    /// Board size, WIDTHxHEIGHT (e.g. 5x5).
    pub(super) size: String,
    /// Print JSON.
    #[arg(long)]
    pub(super) json: bool,
}

/// Reads a board file, text or PBM (`-`: stdin).
pub(super) fn read_board(path: &std::path::Path) -> anyhow::Result<Board> {
    board_io::read(path)
}

pub(super) fn rows(b: &Board) -> Vec<String> {
    b.to_rows('1', '0')
}
