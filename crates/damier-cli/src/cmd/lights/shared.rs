//! What Lights Out's commands share: the printing limit, the solver argument, the size
//! argument, boards read.

use damier::board::Board;
use damier::lights::Method;

use crate::util::board_io;

/// Press patterns are printed up to this many cells; beyond, only the summary (the request
/// layer's limit, which its records follow).
pub(super) use damier_api::lights::PRINT_MAX_CELLS;

/// `--method`: the library's [`Method`], by its name, with what `--help` says of each.
pub(super) fn method() -> impl clap::builder::TypedValueParser<Value = Method> {
    crate::util::named(&Method::ALL, Method::name, |m| {
        Some(match m {
            Method::Dense => "Elimination on the N x N press matrix (up to 4096 cells)",
            Method::Chase => "Light chasing, then elimination on the W x W system (width up to 4096)",
            Method::Poly => "Light chasing, then polynomials over GF(2) (any size)",
        })
    })
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
