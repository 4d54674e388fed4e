//! `damier lights`: solve, count, kernel, winnable, table, chase, chase-table, bench.
//!
//! This file is the command line (the argument structs, parsed by clap) and the helpers the
//! commands share; each command runs in its own file: `solve.rs` (solve, winnable), `table.rs`
//! (count, kernel, table), `chase.rs` (chase, chase-table), `bench.rs`.

mod bench;
mod chase;
mod solve;
mod table;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Subcommand, ValueEnum};
use damier::board::{Board, Size};
use damier::control::Control;
use damier::gf2::RowOp;
use damier::lights::{self, Method, dense};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

use crate::util::output::{errln, outln};
use crate::util::{InputFile, OutputPath};
use crate::util::{board_io, exit, interrupt, output, progress::Progress};

/// Press patterns are printed up to this many cells; beyond, only the summary.
const PRINT_MAX_CELLS: usize = 10_000_000;

/// Boards are printed in the step-by-step chase up to this width.
const CHASE_PRINT_MAX_WIDTH: usize = 80;

/// Subcommands of `damier lights`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a board: no solution, or 2^k (k = nullity); one, all, or the fewest presses.
    Solve(SolveArgs),
    /// Nullity, number of ways from all-on to all-off, fraction of winnable starts.
    Count(SizeArgs),
    /// A basis of the neutral configurations (presses that change nothing).
    Kernel(KernelArgs),
    /// Is a board winnable? By the orthogonality criterion and by solving (exit 1 if not).
    Winnable(WinnableArgs),
    /// The Lights Out text's table: solutions from all-on to all-off on L x L boards, L = 2..=N.
    Table(TableArgs),
    /// Light chasing step by step: chase down, fix the first row, chase again.
    Chase(ChaseArgs),
    /// Which first-row presses fix which last row after chasing.
    ChaseTable(SizeArgs),
    /// Time the engines on big random boards and the square nullities (the performance table).
    Bench(BenchArgs),
}

/// The engine that solves the system.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum MethodArg {
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

/// Arguments of `damier lights solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Board file: rows of 0/1, ./# or _/#, or a PBM bitmap (P1 or P4, black = on); `-`
    /// reads stdin.
    #[arg(required_unless_present_any = ["all_on", "random"], conflicts_with_all = ["all_on", "random"])]
    file: Option<InputFile>,
    /// Start from the all-on WxH board.
    #[arg(long, value_name = "WxH", conflicts_with = "random")]
    all_on: Option<String>,
    /// Start from a random WxH board (each light on with probability 1/2; on most sizes most
    /// such boards cannot be solved: add --winnable). The start is printed (and in the JSON).
    #[arg(long, value_name = "WxH")]
    random: Option<String>,
    /// With --random: draw a random winnable board (the lights left by random presses on a
    /// dark board, every winnable board equally likely), as the games do.
    #[arg(long, requires = "random")]
    winnable: bool,
    /// With --random: also write the start to FILE (`.pbm` or `.txt`), to solve it again or
    /// play it (`damier play lights --from FILE`).
    #[arg(long, value_name = "FILE", requires = "random")]
    save_start: Option<OutputPath>,
    /// Seed of the random board [default: from the OS, printed].
    #[arg(long, requires = "random")]
    seed: Option<u64>,
    /// Target board file, text or PBM [default: all off].
    #[arg(long)]
    target: Option<InputFile>,
    /// Write the presses to this file instead of printing them: `.pbm` (raw PBM bitmap, any
    /// size) or `.txt` (rows of 0/1).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "summary"])]
    out: Option<OutputPath>,
    /// List every solution (refused above nullity 16).
    #[arg(long, conflicts_with = "min")]
    all: bool,
    /// The solution with the fewest presses (exact up to nullity 30, a labelled heuristic above).
    #[arg(long)]
    min: bool,
    /// Show the elimination step by step (boards up to 64 cells).
    #[arg(long)]
    explain: bool,
    /// Engine.
    #[arg(long, value_enum, default_value = "poly")]
    method: MethodArg,
    /// Omit the press pattern (only the counts); not with --all, which lists patterns.
    #[arg(long, conflicts_with = "all")]
    summary: bool,
    /// Print JSON (keys: width, height, nullity, solvable, solutions, presses, press_count;
    /// `out` with --out; `seed` and `start` with --random).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights kernel`.
#[derive(Debug, clap::Args)]
pub struct KernelArgs {
    /// Board size, WIDTHxHEIGHT (e.g. 5x5).
    size: String,
    /// Write each basis vector to DIR/kernel-WxH-K.pbm (K = 1..nullity) instead of printing.
    #[arg(long, value_name = "DIR")]
    out: Option<OutputPath>,
    /// Print JSON (keys: width, height, nullity, basis; `files` instead of `basis` with --out).
    #[arg(long)]
    json: bool,
}

/// A board size argument.
#[derive(Debug, clap::Args)]
pub struct SizeArgs {
    /// Board size, WIDTHxHEIGHT (e.g. 5x5).
    size: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights winnable`.
#[derive(Debug, clap::Args)]
pub struct WinnableArgs {
    /// Board file, text or PBM; `-` reads stdin.
    file: InputFile,
    /// Target board file, text or PBM [default: all off].
    #[arg(long)]
    target: Option<InputFile>,
    /// Print JSON (keys: width, height, nullity, winnable, by_orthogonality, by_solving).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights table`.
#[derive(Debug, clap::Args)]
pub struct TableArgs {
    /// Largest side L (2..=100000).
    #[arg(long, default_value_t = 39, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    to: u64,
    /// Print JSON (a list of {size, nullity, solutions}).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights chase`.
#[derive(Debug, clap::Args)]
pub struct ChaseArgs {
    /// Board file, text or PBM; `-` reads stdin.
    file: InputFile,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Square sides to solve from a random start, comma-separated.
    #[arg(long, default_value = "10000,100000", value_delimiter = ',')]
    sizes: Vec<usize>,
    /// Compute the nullities of all n x n boards up to this n (0: skip).
    #[arg(long, default_value_t = 25_000)]
    nullities_to: usize,
    /// Also time the phases of the polynomial method (on stderr).
    #[arg(long)]
    breakdown: bool,
    /// Seed of the random boards.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Solve(a) => solve::solve(a),
        Command::Count(a) => table::count(a),
        Command::Kernel(a) => table::kernel(a),
        Command::Winnable(a) => solve::winnable(a),
        Command::Table(a) => table::table(a),
        Command::Chase(a) => chase::chase(a),
        Command::ChaseTable(a) => chase::chase_table(a),
        Command::Bench(a) => bench::bench(a),
    }
}

/// Reads a board file, text or PBM (`-`: stdin).
fn read_board(path: &std::path::Path) -> anyhow::Result<Board> {
    board_io::read(path)
}

fn rows(b: &Board) -> Vec<String> {
    b.to_rows('1', '0')
}

fn print_board(b: &Board) -> std::io::Result<()> {
    for r in rows(b) {
        outln!("{r}")?;
    }
    Ok(())
}
