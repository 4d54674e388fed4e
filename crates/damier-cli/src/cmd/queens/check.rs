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
use damier::queens::placement::{CheckedListing, PlacementError, check_queens};

use crate::report::queens::WitnessCheck;
use crate::util::output::Report;
use crate::util::{exit, input};

/// Largest placement checked (the checker keeps a hash map entry per queen and line).
const CHECK_MAX: usize = 10_000_000;
/// Arguments of `damier queens check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// 1-based columns, one per row (read from stdin when absent or `-`). Also read: what `queens
    /// first`, `list`, `solve` and `max` print (with or without the header and brackets,
    /// boards, `--columns` lines, `--json`; a witness of `max` with empty rows, 0, has its
    /// queens checked), and on stdin the file of `queens solve --format binary`; a listing is
    /// checked placement by placement.
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
    let placements = if Placement::is_binary(&bytes) {
        // `queens solve --format binary`: 4 bytes per row.
        let rows = bytes.len() / 4;
        anyhow::ensure!(rows <= CHECK_MAX, "placement of {rows} rows is too large: at most {CHECK_MAX}");
        vec![Placement::from_binary(&bytes)?]
    } else {
        let text = input::text_of(bytes, input::Source::Stdin)?;
        let tokens = text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).count();
        anyhow::ensure!(tokens <= CHECK_MAX, "placement of {tokens} rows is too large: at most {CHECK_MAX}");
        if let Some(witness) = Placement::read_witness(&text) {
            let (n, queens) = witness.map_err(|e| explained(e, from_arguments))?;
            let report = WitnessCheck { report: check_queens(n, &queens), queens: queens.len() as u64 };
            report.print(a.json)?;
            return Ok(if report.report.is_valid() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) });
        }
        Placement::read_all(&text).map_err(|e| explained(e, from_arguments))?
    };
    let valid = match &placements[..] {
        [one] => {
            let report = one.check();
            report.print(a.json)?;
            report.is_valid()
        }
        _ => {
            let listing = CheckedListing::of(&placements);
            listing.print(a.json)?;
            listing.valid
        }
    };
    Ok(if valid { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
