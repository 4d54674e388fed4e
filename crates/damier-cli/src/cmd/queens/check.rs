//! `damier queens check`: is a placement valid, and if not which queens attack which.
//!
//! Columns are 1-based, one per row, as arguments (`damier queens check 2 4 1 3`) or on
//! stdin (no argument, or `-`), separated by whitespace and/or commas. Whatever `queens first|list|solve|max`
//! prints, as text, `--columns` or `--json`, reads back (`damier queens first 8 | damier
//! queens check`): see `Placement::read_all`; so does the file of `queens solve --format
//! binary` on stdin (`Placement::from_binary`), and the witness of `queens max` when R(n) < n,
//! whose empty rows are 0 (`Placement::read_witness`: its queens are checked). Several
//! placements (a listing) are checked one by one. Exit 0 all valid, 1 one invalid, 2
//! malformed.

use std::process::ExitCode;

use damier::queens::Placement;
use damier::queens::placement::{
    CheckedListing, PlacementError, READ_BYTES_PER_PLACEMENT, READ_BYTES_PER_ROW, ReadSize, try_check_owned,
};
use damier::util::{bytes_text, check_fits};
// Largest placement checked, in rows (columns read), as the web lab's: reading and
// checking holds `READ_BYTES_PER_ROW` a row and `READ_BYTES_PER_PLACEMENT` a placement
// of a listing (`ReadSize::bytes`), besides the input read (at most
// `input::PLACEMENTS_MAX_BYTES`) and 20 bytes per attacking pair found.
use damier_api::queens::CHECK_MAX;

use crate::report::queens::WitnessCheck;
use crate::util::output::Report;
use crate::util::{exit, input};

/// Refuses a size beyond [`CHECK_MAX`] rows, and a need (the `input` bytes read and what
/// reading and checking `size` holds) that cannot fit the address space, before anything is
/// parsed.
fn check_size(size: ReadSize, input: usize) -> anyhow::Result<u64> {
    let rows = size.rows;
    anyhow::ensure!(
        rows <= CHECK_MAX,
        "placement of {rows} rows is too large: at most {CHECK_MAX} ({READ_BYTES_PER_ROW} bytes a row)"
    );
    let need = (input as u64).saturating_add(size.bytes());
    check_fits(need).map_err(|e| out_of_memory(size, need, e))?;
    Ok(need)
}

/// The error of a check that ran out of memory: its size and what it needs.
fn out_of_memory(size: ReadSize, need: u64, e: impl std::fmt::Display) -> anyhow::Error {
    let placements = match size.placements {
        1 => "1 placement".to_string(),
        p => format!("{p} placements"),
    };
    anyhow::anyhow!(
        "checking {} rows, {placements}, holds {} ({READ_BYTES_PER_ROW} bytes a row and \
         {READ_BYTES_PER_PLACEMENT} a placement besides the input): {e}",
        size.rows,
        bytes_text(need)
    )
}

/// A [`PlacementError`] of a reading that ran out of memory, said as [`out_of_memory`].
fn read_error(e: PlacementError, size: ReadSize, need: u64, from_arguments: bool) -> anyhow::Error {
    match e {
        PlacementError::OutOfMemory(e) => out_of_memory(size, need, e),
        e => explained(e, from_arguments),
    }
}

/// Arguments of `damier queens check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// 1-based columns, one per row (read from stdin when absent or `-`). Also read: what `queens
    /// first`, `list`, `solve` and `max` print (with or without the header and brackets,
    /// boards, `--columns` lines, `--json`; a witness of `max` with empty rows, 0, has its
    /// queens checked), and on stdin the file of `queens solve --format binary`; a listing is
    /// checked placement by placement. At most 10^7 columns; memory: the input (at most 256
    /// MiB), 12 bytes a row and 136 a placement of a listing, 20 more per attacking pair found.
    #[arg(allow_negative_numbers = true, value_name = "COLUMN")]
    columns: Vec<String>,
    /// Print JSON (keys: n, valid, attacks: [{a, b, line}] with 1-based [row, column]; for
    /// several placements: count, valid, placements: [those objects]).
    #[arg(long)]
    json: bool,
}

/// A token of the arguments that is no column: a file name, most likely (issue 38: `queens
/// check q8.bin` said only "'q8.bin' is not a column number"), so the message says how a file
/// is read.
fn explained(e: PlacementError, from_arguments: bool) -> anyhow::Error {
    match e {
        PlacementError::NotANumber { .. } if from_arguments => anyhow::anyhow!(
            "{e}: the arguments are columns; a placement in a file (text, --json or --format binary) is \
             read on stdin: damier queens check < FILE"
        ),
        e => e.into(),
    }
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let from_arguments = !(a.columns.is_empty() || a.columns == ["-"]);
    let bytes = if !from_arguments {
        input::read(input::Source::Stdin, input::PLACEMENTS_MAX_BYTES, "a placement")?
    } else {
        a.columns.join(" ").into_bytes()
    };
    let (placements, size, need) = if Placement::is_binary(&bytes) {
        // `queens solve --format binary`: 4 bytes per row.
        let rows = bytes.len() / 4;
        let size = ReadSize { rows, placements: 1 };
        let need = check_size(size, bytes.len())?;
        let placement = Placement::from_binary(&bytes).map_err(|e| read_error(e, size, need, false))?;
        drop(bytes);
        (vec![placement], size, need)
    } else {
        let text = input::text_of(bytes, input::Source::Stdin)?;
        let size = Placement::read_size(&text);
        let need = check_size(size, text.len())?;
        if let Some(witness) = Placement::read_witness(&text) {
            let (n, queens) = witness.map_err(|e| read_error(e, size, need, from_arguments))?;
            let count = queens.len() as u64;
            let checked = try_check_owned(n, queens).map_err(|e| out_of_memory(size, need, e))?;
            let report = WitnessCheck { report: checked, queens: count };
            report.print(a.json)?;
            return Ok(if report.report.is_valid() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) });
        }
        let placements = Placement::read_all(&text).map_err(|e| read_error(e, size, need, from_arguments))?;
        (placements, size, need)
    };
    let valid = match &placements[..] {
        [one] => {
            let report = one.try_check().map_err(|e| out_of_memory(size, need, e))?;
            report.print(a.json)?;
            report.is_valid()
        }
        _ => {
            let listing = CheckedListing::try_of(&placements).map_err(|e| out_of_memory(size, need, e))?;
            listing.print(a.json)?;
            listing.valid
        }
    };
    Ok(if valid { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
