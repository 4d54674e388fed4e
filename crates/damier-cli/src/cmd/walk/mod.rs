//! `damier walk`: the pawn walk ("promenade binaire") — solve, count, table, replay, export,
//! bench.
//!
//! This file is the command line (the argument structs, parsed by clap) and the helpers the
//! commands share; each command runs in its own file: `solve.rs`, `count.rs` (count, table),
//! `replay.rs`, `export.rs`, `bench.rs`.

mod bench;
mod count;
mod export;
mod replay;
mod solve;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use damier::board::{Board, Size};
use damier::walk::{self, Method, Solutions, path, picture};

use crate::util::OutputPath;
use crate::util::output::outln;
use crate::util::{board_io, exit, interrupt, output};

/// Subcommands of `damier walk`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// One solution (or all) of a board: the activation picture and a move string.
    Solve(SolveArgs),
    /// The number of solutions, 2^nullity.
    Count(CountArgs),
    /// Solution counts of the square boards 1 x 1 .. N x N (the blog post's table).
    Table(TableArgs),
    /// Replay a move string from the bottom-left cell: exit 0 if all black, 1 otherwise.
    Replay(ReplayArgs),
    /// Write one solution file per board size L x C, 1 <= L, C <= N (the blog post's archive).
    Export(ExportArgs),
    /// Time the fast solver and the path on large boards (up to 2000 x 2000).
    Bench(BenchArgs),
}

/// Solver choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum MethodArg {
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

/// Arguments of `damier walk solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Rows (L), at least 1; rows * cols at most 2^24 (2^30 with --out).
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Solver.
    #[arg(long, value_enum, default_value = "fast")]
    method: MethodArg,
    /// List every solution (at most 2^16 of them, Lights Out's limit), each with its path.
    #[arg(long, conflicts_with = "out")]
    all: bool,
    /// Write the path (one line of moves) to this file instead of printing it and the picture;
    /// boards up to 2^30 cells (use --method poly beyond 4096 cells across).
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

/// Arguments of `damier walk export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Largest side [range: 1..=64].
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u32).range(1..=64))]
    to: u32,
    /// Directory to write into (created if missing).
    dir: OutputPath,
    /// Print JSON (keys: dir, files).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier walk bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Largest square side timed [range: 1..=4096].
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max: u32,
    /// Solver timed: fast or poly (brute and rows cannot reach these sizes).
    #[arg(long, value_enum, default_value = "fast")]
    method: MethodArg,
    /// Print JSON (a list of {rows, cols, solve_seconds, path_seconds, total_seconds,
    /// replay_seconds, activated, path_length}).
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Solve(a) => solve::solve(a),
        Command::Count(a) => count::count(a),
        Command::Table(a) => count::table(a),
        Command::Replay(a) => replay::replay(a),
        Command::Export(a) => export::export(a),
        Command::Bench(a) => bench::bench(a),
    }
}

/// Solves with the process-wide control (Ctrl-C interrupts).
fn solutions(board: Size, method: Method) -> anyhow::Result<Solutions> {
    Ok(walk::solve(board, method, interrupt::control())?)
}

/// The path of `activation`, checked by replaying it cell by cell.
fn checked_path(board: Size, activation: &Board) -> anyhow::Result<String> {
    let moves = path::path_for(board, activation)?;
    let replay = path::replay(board, &moves);
    anyhow::ensure!(
        replay.all_black() && replay.landings == *activation,
        "internal error: the path built for this {} x {} solution does not replay to all black",
        board.height(),
        board.width()
    );
    Ok(path::moves_to_string(&moves))
}
