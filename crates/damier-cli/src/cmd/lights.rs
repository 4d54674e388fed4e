//! `damier lights`: not implemented yet.

use std::process::ExitCode;

use clap::Subcommand;

/// Subcommands of `damier lights`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Placeholder until the lights commands land.
    Todo,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Todo => anyhow::bail!("`damier lights` is not implemented yet"),
    }
}
