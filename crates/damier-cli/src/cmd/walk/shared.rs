//! What the walk's commands share: the solver argument, the solve under Ctrl-C, the path
//! checked by replaying it.

use clap::ValueEnum;
use damier::board::{Board, Size};
use damier::walk::{self, Method, Solutions, path};

use crate::util::interrupt;

/// Solver choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum MethodArg {
    /// Every activation set (at most 30 cells).
    Brute,
    /// Every first row of the narrower side (at most 24 wide).
    Rows,
    /// First-row unknowns and a GF(2) system solved by elimination (Lights Out's chase
    /// engine; any size up to 2^24 cells).
    Fast,
    /// The same system solved with polynomials over GF(2) (Lights Out's poly engine).
    Poly,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Brute => Method::Brute,
            MethodArg::Rows => Method::Rows,
            MethodArg::Fast => Method::Fast,
            MethodArg::Poly => Method::Poly,
        }
    }
}

/// Solves with the process-wide control (Ctrl-C interrupts).
pub(super) fn solutions(board: Size, method: Method) -> anyhow::Result<Solutions> {
    Ok(walk::solve(board, method, interrupt::control())?)
}

/// The path of `activation`, checked by replaying it cell by cell.
pub(super) fn checked_path(board: Size, activation: &Board) -> anyhow::Result<String> {
    Ok(path::moves_to_string(&path::solution_path(board, activation, interrupt::control())?))
}
