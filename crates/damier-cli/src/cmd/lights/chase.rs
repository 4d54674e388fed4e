//! `damier lights chase` (step by step) and `damier lights chase-table`.

use std::process::ExitCode;

use damier_api::lights::Sized;

use crate::util::InputFile;
use crate::util::output::Report;
use crate::util::{exit, interrupt, layer};

use super::shared::*;

/// Arguments of `damier lights chase`.
#[derive(Debug, clap::Args)]
pub struct ChaseArgs {
    /// Board file, text or PBM; `-` reads stdin.
    file: InputFile,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub(super) fn chase(a: ChaseArgs) -> anyhow::Result<ExitCode> {
    let start = read_board(&a.file)?;
    let chase = damier_api::lights::chase_of(&start, interrupt::control()).map_err(layer::error)?;
    chase.print(a.json)?;
    Ok(if chase.first_row.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

pub(super) fn chase_table(a: SizeArgs) -> anyhow::Result<ExitCode> {
    let table =
        damier_api::lights::chase_table(&Sized { size: a.size }, &layer::Process).map_err(layer::error)?;
    table.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
