//! `damier walk export`: one solution file per board size.

use std::process::ExitCode;

use damier::walk::{self, picture};

use crate::report::walk::Archive;
use crate::util::OutputPath;
use crate::util::output::Report;
use crate::util::{interrupt, output};

use super::shared::*;

/// Arguments of `damier walk export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Largest side [range: 1 to 64].
    #[arg(long, default_value_t = 19, value_parser = crate::util::ranged::<u32>(1, 64))]
    to: u32,
    /// Directory to write into (created if missing).
    dir: OutputPath,
    /// Print JSON (keys: dir, files).
    #[arg(long)]
    json: bool,
}

pub(super) fn export(a: ExportArgs) -> anyhow::Result<ExitCode> {
    if output::ensure_last_dir(&a.dir)? {
        crate::util::output::errln!("created the folder {}", a.dir.display());
    }
    let mut files = 0;
    for rows in 1..=a.to as usize {
        for cols in 1..=a.to as usize {
            interrupt::check()?;
            let board = walk::board_size(rows, cols)?;
            let sols = walk::fast::solve(board, interrupt::control())?;
            let path = checked_path(board, &sols.particular)?;
            let mut text = format!(
                "# damier walk: {rows} x {cols} board, {} solution{}; one shown, '#' = cell landed on an odd number of times, top row first\n",
                sols.count_decimal(),
                if sols.count_decimal() == "1" { "" } else { "s" }
            );
            for line in picture(&sols.particular) {
                text.push_str(&line);
                text.push('\n');
            }
            text.push_str(&format!(
                "# path from the bottom-left cell, {} moves (N, S, E, W)\n{path}\n",
                path.len()
            ));
            let file = a.dir.join(format!("{rows}x{cols}.txt"));
            output::write_bytes(&file, output::Durability::Renamed, text.as_bytes())?;
            files += 1;
        }
    }
    Archive { dir: a.dir.display().to_string(), files }.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
