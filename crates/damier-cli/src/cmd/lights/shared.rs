//! What Lights Out's commands share: the printing limit, the solver argument, the size
//! argument, boards read.

use clap::ValueEnum;
use damier::board::Board;
use damier::lights::Method;

use crate::util::board_io;

/// Press patterns are printed up to this many cells; beyond, only the summary (the request
/// layer's limit, which its records follow).
pub(super) use damier_api::lights::PRINT_MAX_CELLS;

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
