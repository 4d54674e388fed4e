//! What the walk's commands share: the solver argument, the solve under Ctrl-C, the path
//! checked by replaying it.

use damier::board::{Board, Size};
use damier::walk::{self, Method, Solutions};

use crate::util::interrupt;
use crate::util::progress::{self, Progress};

/// `--method`: the library's [`Method`], by its name, with what `--help` says of each.
pub(super) fn method() -> impl clap::builder::TypedValueParser<Value = Method> {
    crate::util::named(&Method::ALL, Method::name, |m| {
        Some(match m {
            Method::Brute => "Every activation set (at most 30 cells)",
            Method::Rows => "Every first row of the narrower side (at most 24 wide)",
            Method::Fast => {
                "First-row unknowns and a GF(2) system solved by elimination (Lights Out's chase engine; any size up to 2^24 cells)"
            }
            Method::Poly => "The same system solved with polynomials over GF(2) (Lights Out's poly engine)",
        })
    })
}

/// The progress of solving `board` by `method` for the command `label` (`walk count`,
/// `walk solve`): a board that takes seconds says so when the run starts and ends, and how far
/// it is ([`Progress::sized`]; measured in a release build on 2 loaded cores: brute at 30
/// cells 5.7 s, rows 24 wide 2.8 s, fast 2048 x 2048 1 s and 4096 x 4096 5.5 s); the brute
/// and rows engines report their units of work, the others none.
pub(super) fn progress(label: &str, board: Size, method: Method) -> Progress {
    let (cells, narrow) = (board.cells(), board.width().min(board.height()));
    let (units, long) = match method {
        Method::Brute => {
            (1u64 << cells.saturating_sub(12).min(63), (28..=walk::brute::MAX_CELLS).contains(&cells))
        }
        Method::Rows => (1u64 << narrow.min(63), (23..=walk::rows::MAX_WIDTH).contains(&narrow)),
        Method::Fast | Method::Poly => (0, cells >= 1 << 22),
    };
    let engine = method.name();
    // The projection where the time follows the size alone: brute doubles with each cell,
    // fast grows about as cells^1.23; rows and poly are left without one.
    let seconds = match method {
        Method::Brute => Some(5.7 * 2f64.powi(cells as i32 - 30)),
        Method::Fast => Some((cells as f64 / f64::from(1u32 << 22)).powf(1.23)),
        Method::Rows | Method::Poly => None,
    };
    Progress::sized(long, interrupt::control(), units, label, || {
        let time = seconds.map_or_else(String::new, |s| format!(": {}", progress::projected(s)));
        format!(
            "solving the {} x {} board ({cells} cells) by the {engine} method{time}",
            board.height(),
            board.width()
        )
    })
}

/// Solves with the process-wide control (Ctrl-C interrupts).
pub(super) fn solutions(board: Size, method: Method) -> anyhow::Result<Solutions> {
    Ok(walk::solve(board, method, interrupt::control())?)
}

/// The path of `activation`, checked by replaying it cell by cell (Ctrl-C interrupts).
pub(super) fn checked_path(board: Size, activation: &Board) -> anyhow::Result<String> {
    Ok(damier_api::walk::checked_path(board, activation, interrupt::control())?)
}
