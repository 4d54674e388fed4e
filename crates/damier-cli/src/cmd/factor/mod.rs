//! `damier factor`: factoring N with the local-signal automaton (one run), and the sweep over
//! sizes of random balanced semiprimes beside trial division and Pollard's rho.
//!
//! This file is the arguments and the dispatch; each command is in its own file (`one.rs`
//! `damier factor N`, `sweep.rs` with its CSV in `csv.rs`, `watch.rs` `damier watch factor`),
//! what they share in `shared.rs`, so that imports point one way: here -> commands -> shared.

mod csv;
mod one;
mod shared;
mod sweep;
mod watch;

use std::process::ExitCode;

use clap::{Args, Subcommand};

pub use watch::{WatchArgs, watch};

/// Arguments of `damier factor`: either a number to factor or a subcommand.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, allow_negative_numbers = true)]
pub struct FactorArgs {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    one: one::OneArgs,
}

/// Subcommands of `damier factor`.
#[derive(Debug, Subcommand)]
enum Command {
    /// Steps and time against size on random balanced semiprimes, beside trial division and
    /// Pollard's rho on the same numbers.
    Sweep(sweep::SweepArgs),
}

pub fn run(a: FactorArgs) -> anyhow::Result<ExitCode> {
    match a.command {
        Some(Command::Sweep(s)) => sweep::sweep(s),
        None => one::run_one(a.one),
    }
}
