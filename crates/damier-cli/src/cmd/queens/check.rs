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
use damier::queens::placement::{CHECK_BYTES_PER_QUEEN, CheckedListing, PlacementError, try_check_queens};
use damier::util::{OutOfMemory, bytes_text, check_fits};

use crate::report::queens::WitnessCheck;
use crate::util::output::Report;
use crate::util::{exit, input};

/// Largest placement checked, in rows (columns read): the placement holds 4 bytes a row, the
/// checker's copy [`CHECK_BYTES_PER_QUEEN`], besides the input read (at most
/// [`input::PLACEMENTS_MAX_BYTES`]) and 20 bytes per attacking pair found.
const CHECK_MAX: usize = 10_000_000;

/// Bytes held per row checked: the placement's column and the checker's copy of the queen.
const BYTES_PER_ROW: u64 = 4 + CHECK_BYTES_PER_QUEEN;

/// Refuses `rows` beyond [`CHECK_MAX`], and a need (the `input` bytes read and [`BYTES_PER_ROW`]
/// a row) that cannot fit the address space, before the placement is made.
fn check_rows(rows: usize, input: usize) -> anyhow::Result<u64> {
    anyhow::ensure!(
        rows <= CHECK_MAX,
        "placement of {rows} rows is too large: at most {CHECK_MAX} ({BYTES_PER_ROW} bytes a row)"
    );
    let need = input as u64 + rows as u64 * BYTES_PER_ROW;
    check_fits(need).map_err(|e| out_of_memory(rows, need, e))?;
    Ok(need)
}

/// The error of a check that ran out of memory: its rows and what it needs.
fn out_of_memory(rows: usize, need: u64, e: OutOfMemory) -> anyhow::Error {
    anyhow::anyhow!(
        "checking {rows} rows holds {} ({BYTES_PER_ROW} bytes a row besides the input): {e}",
        bytes_text(need)
    )
}
/// Arguments of `damier queens check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// 1-based columns, one per row (read from stdin when absent or `-`). Also read: what `queens
    /// first`, `list`, `solve` and `max` print (with or without the header and brackets,
    /// boards, `--columns` lines, `--json`; a witness of `max` with empty rows, 0, has its
    /// queens checked), and on stdin the file of `queens solve --format binary`; a listing is
    /// checked placement by placement. At most 10^7 columns; memory: the input (at most 256
    /// MiB) and 12 bytes a row, 20 more per attacking pair found.
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
    let (placements, rows, need) = if Placement::is_binary(&bytes) {
        // `queens solve --format binary`: 4 bytes per row.
        let rows = bytes.len() / 4;
        let need = check_rows(rows, bytes.len())?;
        let placement = Placement::from_binary(&bytes)?;
        drop(bytes);
        (vec![placement], rows, need)
    } else {
        let text = input::text_of(bytes, input::Source::Stdin)?;
        let tokens = text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).count();
        let need = check_rows(tokens, text.len())?;
        if let Some(witness) = Placement::read_witness(&text) {
            let (n, queens) = witness.map_err(|e| explained(e, from_arguments))?;
            let checked = try_check_queens(n, &queens).map_err(|e| out_of_memory(tokens, need, e))?;
            let report = WitnessCheck { report: checked, queens: queens.len() as u64 };
            report.print(a.json)?;
            return Ok(if report.report.is_valid() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) });
        }
        (Placement::read_all(&text).map_err(|e| explained(e, from_arguments))?, tokens, need)
    };
    let valid = match &placements[..] {
        [one] => {
            let report = one.try_check().map_err(|e| out_of_memory(rows, need, e))?;
            report.print(a.json)?;
            report.is_valid()
        }
        _ => {
            let listing = CheckedListing::try_of(&placements).map_err(|e| out_of_memory(rows, need, e))?;
            listing.print(a.json)?;
            listing.valid
        }
    };
    Ok(if valid { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
