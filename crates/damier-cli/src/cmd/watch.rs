//! `damier watch`: not implemented yet.

use std::process::ExitCode;

/// Arguments of `damier watch`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`damier watch` is not implemented yet")
}
