//! `damier queens corners N`: the course chapter's corner exercises between N + 1 and N.

use std::process::ExitCode;

use crate::util::layer::{self, Process};
use crate::util::output::Report;

/// Arguments of `damier queens corners`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size n (1 to 14): solutions of n+1 are reduced to n, solutions of n extended.
    n: u32,
    /// Examples shown per exercise.
    #[arg(long, default_value_t = 3, value_name = "K")]
    examples: usize,
    /// Print JSON (keys: n, reduce, extend, each with solutions, per_corner, any, examples,
    /// condition).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let request = damier_api::queens::Corners { n: a.n, examples: Some(a.examples) };
    let result = damier_api::queens::corners(&request, &Process).map_err(layer::error)?;
    result.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
