//! `damier walk`: not implemented yet.

use std::process::ExitCode;

use clap::Subcommand;

/// Subcommands of `damier walk`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Placeholder until the walk commands land.
    Todo,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Todo => anyhow::bail!("`damier walk` is not implemented yet"),
    }
}
