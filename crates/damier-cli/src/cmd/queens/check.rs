//! `damier queens check`: is a placement valid, and if not which queens attack which.
//!
//! Columns are 1-based, one per row, as arguments (`damier queens check 2 4 1 3`) or on
//! stdin (no argument, or `-`), separated by whitespace and/or commas. Whatever `queens first|list|solve|max`
//! prints, as text, `--columns` or `--json`, reads back (`damier queens first 8 | damier
//! queens check`): see `damier_api::answers::read_placements`; so does the file of `queens solve --format
//! binary` on stdin (`Placement::from_binary`), and the witness of `queens max` when R(n) < n,
//! whose empty rows are 0 (`damier_api::answers::read_witness`: its queens are checked). Several
//! placements (a listing) are checked one by one. Exit 0 all valid, 1 one invalid, 2
//! malformed. The reading, its bounds and the check are the request layer's
//! (`damier_api::queens::check_placements`, which the web lab's `queens check` runs too);
//! this file reads the input and prints.

use std::process::ExitCode;

use damier_api::queens::{CheckInput, Checked, check_placements};

use crate::report::queens::WitnessCheck;
use crate::util::output::Report;
use crate::util::{exit, input, layer};

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

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let from_arguments = !(a.columns.is_empty() || a.columns == ["-"]);
    let mut bytes = if !from_arguments {
        input::read(input::Source::Stdin, input::PLACEMENTS_MAX_BYTES, "a placement")?
    } else {
        a.columns.join(" ").into_bytes()
    };
    if !damier::queens::Placement::is_binary(&bytes) {
        input::lone_cr_as_newline(&mut bytes);
    }
    let read = CheckInput::of(&bytes, |b| input::str_of(b, input::Source::Stdin))?;
    // The request layer's run: the size and memory checks, the reading, the check.
    let checked = check_placements(read, from_arguments).map_err(layer::error)?;
    let valid = checked.is_valid();
    match checked {
        Checked::Witness { report, queens } => WitnessCheck { report, queens }.print(a.json)?,
        Checked::One(report) => report.print(a.json)?,
        Checked::Listing(listing) => listing.print(a.json)?,
    }
    Ok(if valid { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
