//! `damier queens max N`: R(N) with a witness placement.

use std::process::ExitCode;

use crate::util::layer::{self, Process};
use crate::util::output::Report;

/// Arguments of `damier queens max`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (0 to 10000000; R(0) = 0). Holds 16 bytes a row (the witness and its independent check):
    /// 160 MB at the limit.
    n: u32,
    /// Print JSON (keys: n, max, columns (1-based, 0 for an empty row), method).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let m = damier_api::queens::max(&damier_api::queens::Max { n: a.n }, &Process).map_err(layer::error)?;
    m.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
