//! `damier lights`: solve, count, kernel, winnable, table, chase, chase-table, bench.
//!
//! This file is the list of commands and the dispatch; each command's arguments and run are in
//! its own file (`solve.rs` (solve, winnable), `table.rs` (count, kernel, table), `chase.rs`
//! (chase, chase-table), `bench.rs`), what they share in `shared.rs`, so that imports point
//! one way: here -> commands -> shared.

mod bench;
mod chase;
mod shared;
mod solve;
mod table;

use std::process::ExitCode;

use clap::Subcommand;

/// Subcommands of `damier lights`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a board: no solution, or 2^k (k = nullity); one, all, or the fewest presses.
    ///
    /// Memory: a W x H board holds ceil(W / 64) * 8 * H bytes (each row in whole 64-bit words;
    /// at most 2 GB). The solve holds the start, the target, a working copy and, when it chases
    /// along the long side of a wide board, its transpose (H rows become W rows): refused at
    /// once when the transpose passes 2 GB or the whole cannot fit the address-space limit.
    Solve(solve::SolveArgs),
    /// Nullity, number of ways from all-on to all-off, fraction of winnable starts.
    Count(shared::SizeArgs),
    /// A basis of the neutral configurations (presses that change nothing).
    ///
    /// Memory: nullity + 1 boards of ceil(W / 64) * 8 * H bytes, as many of the transpose for a
    /// board wider than tall: at most 1 GB in all, refused before anything is made.
    Kernel(table::KernelArgs),
    /// Is a board winnable? By the orthogonality criterion and by solving (exit 1 if not).
    Winnable(solve::WinnableArgs),
    /// The Lights Out text's table: solutions from all-on to all-off on L x L boards, L = 2 to N.
    Table(table::TableArgs),
    /// Light chasing step by step: chase down, fix the first row, chase again.
    Chase(chase::ChaseArgs),
    /// Which first-row presses fix which last row after chasing.
    ChaseTable(shared::SizeArgs),
    /// Time the engines on big random boards and the square nullities (the performance table).
    Bench(bench::BenchArgs),
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
