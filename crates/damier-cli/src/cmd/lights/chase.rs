//! `damier lights chase` (step by step) and `damier lights chase-table`.

use std::process::ExitCode;

use damier::board::Size;
use damier::lights::{self};

use crate::util::InputFile;
use crate::util::output::Report;
use crate::util::{exit, interrupt};

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
    anyhow::ensure!(
        start.width() * start.height() <= PRINT_MAX_CELLS && start.width() <= 100_000,
        "chase prints boards: up to {PRINT_MAX_CELLS} cells and 100000 columns"
    );
    let chase = lights::chase::explain(&start, interrupt::control())?;
    chase.print(a.json)?;
    Ok(if chase.first_row.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

pub(super) fn chase_table(a: SizeArgs) -> anyhow::Result<ExitCode> {
    let size: Size = a.size.parse()?;
    lights::chase::chase_table(size)?.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
