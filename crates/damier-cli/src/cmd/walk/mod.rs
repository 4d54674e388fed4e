//! `damier walk`: the pawn walk ("promenade binaire") — solve, count, table, replay, export,
//! bench.
//!
//! This file is the list of commands and the dispatch; each command's arguments and run are in
//! its own file (`solve.rs`, `count.rs` (count, table), `replay.rs`, `export.rs`, `bench.rs`),
//! what they share in `shared.rs`, so that imports point one way: here -> commands -> shared.

mod bench;
mod count;
mod export;
mod replay;
mod shared;
mod solve;

use std::process::ExitCode;

use clap::Subcommand;

/// Subcommands of `damier walk`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// One solution (or all) of a board: the activation picture and a move string.
    Solve(solve::SolveArgs),
    /// The number of solutions, 2^nullity.
    Count(count::CountArgs),
    /// Solution counts of the square boards 1 x 1 .. N x N (the blog post's table).
    Table(count::TableArgs),
    /// Replay a move string from the bottom-left cell: exit 0 if all black, 1 otherwise.
    Replay(replay::ReplayArgs),
    /// Write one solution file per board size L x C, 1 <= L, C <= N (the blog post's archive).
    Export(export::ExportArgs),
    /// Time the fast solver and the path on large boards (up to 2000 x 2000).
    Bench(bench::BenchArgs),
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
