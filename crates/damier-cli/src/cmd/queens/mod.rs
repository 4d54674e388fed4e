//! `damier queens`: count, list, construct and check n-queens placements.
//!
//! One file per subcommand (its arguments and its run); this file holds the clap enum and the
//! dispatch, `shared.rs` what the subcommands share, so that imports point one way.

use std::process::ExitCode;

use clap::Subcommand;

mod bench;
mod check;
mod corners;
mod cost;
mod count;
mod device;
mod estimate;
mod first;
mod journal;
mod list;
mod long;
mod max;
#[cfg(feature = "mpi")]
mod mpi_queue;
mod shared;
mod solve;
mod speed;
mod sum;
mod timing;

/// Subcommands of `damier queens`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count all solutions and the classes up to the 8 symmetries, in one run.
    Count(count::Args),
    /// List the solutions (S as 1-based columns, and drawn boards), streaming.
    List(list::Args),
    /// The first solution in backtracking order.
    First(first::Args),
    /// One checked solution: by explicit construction (N <= 10^9) or a random one by local
    /// search (--method local, N <= 10^8).
    Solve(solve::Args),
    /// R(N), the most non-attacking queens on N x N, with a witness.
    Max(max::Args),
    /// The course chapter's corner exercises between solutions of N + 1 and of N.
    Corners(corners::Args),
    /// Check a placement (1-based columns as arguments or on stdin).
    Check(check::Args),
    /// Time the naive and the fast counter against n (CSV, log-scale plot).
    Timing(timing::Args),
    /// Benchmark table: the counter on 1 thread and on all threads.
    Bench(bench::Args),
    /// Add the shares of a split count (`count --share K/M --json` outputs) into the counts.
    Sum(sum::Args),
    /// How far a journalled count is (`count --journal FILE`): tasks done and left, rate, ETA.
    Journal(journal::Args),
    /// Project the cost of counting N from a timed random sample of its tasks.
    Estimate(estimate::Args),
    /// The speed figure: CPU time to count q(n) beside another counter, and CPU time per
    /// solution, from a CSV of hand measurements (docs/figures/counting_speed.csv).
    Speed(speed::Args),
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Count(a) => count::run(a),
        Command::List(a) => list::run(a),
        Command::First(a) => first::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Max(a) => max::run(a),
        Command::Corners(a) => corners::run(a),
        Command::Check(a) => check::run(a),
        Command::Timing(a) => timing::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Sum(a) => sum::run(a),
        Command::Journal(a) => journal::run(a),
        Command::Estimate(a) => estimate::run(a),
        Command::Speed(a) => speed::run(a),
    }
}
