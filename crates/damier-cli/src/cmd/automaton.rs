//! `damier automaton`: not implemented yet.

use std::process::ExitCode;

use clap::Subcommand;

/// Subcommands of `damier automaton`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Placeholder until the automaton commands land.
    Todo,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Todo => anyhow::bail!("`damier automaton` is not implemented yet"),
    }
}
