//! `damier play`: not implemented yet.

use std::process::ExitCode;

use clap::Subcommand;

/// Subcommands of `damier play`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Placeholder until the play commands land.
    Todo,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Todo => anyhow::bail!("`damier play` is not implemented yet"),
    }
}
