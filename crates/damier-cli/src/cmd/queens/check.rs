//! `damier queens check`: is a placement valid, and if not which queens attack which.
//!
//! Columns are 1-based, one per row, as arguments (`damier queens check 2 4 1 3`) or on
//! stdin, separated by whitespace and/or commas. Whatever `queens first|list|solve` prints,
//! as text, `--columns` or `--json`, reads back (`damier queens first 8 | damier queens
//! check`): see `Placement::read_all`. Several placements (a listing) are checked one by
//! one. Exit 0 all valid, 1 one invalid, 2 malformed.

use std::process::ExitCode;

use damier::queens::Placement;
use damier::queens::placement::{CheckReport, CheckedListing};

use crate::util::output::{Report, outln};
use crate::util::{exit, input};

/// Largest placement checked (the checker keeps a hash map entry per queen and line).
const CHECK_MAX: usize = 10_000_000;
/// Most attacking pairs printed as text (JSON lists them all).
const PRINT_MAX: usize = 50;

/// Arguments of `damier queens check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// 1-based columns, one per row (read from stdin when absent). Also read: what `queens
    /// first`, `list` and `solve` print (with or without the header and brackets, boards,
    /// `--columns` lines, `--json`); a listing is checked placement by placement.
    #[arg(allow_negative_numbers = true, value_name = "COLUMN")]
    columns: Vec<String>,
    /// Print JSON (keys: n, valid, attacks: [{a, b, line}] with 1-based [row, column]; for
    /// several placements: count, valid, placements: [those objects]).
    #[arg(long)]
    json: bool,
}

impl Report for CheckReport {
    fn print_text(&self) -> anyhow::Result<()> {
        print_report(self, "")
    }
}

impl Report for CheckedListing {
    fn print_text(&self) -> anyhow::Result<()> {
        for (i, r) in self.placements.iter().enumerate() {
            print_report(r, &format!("{}: ", i + 1))?;
        }
        match self.placements.iter().filter(|r| !r.is_valid()).count() {
            0 => outln!("{} placements, all valid", self.count)?,
            bad => outln!("{} placements, {bad} invalid", self.count)?,
        }
        Ok(())
    }
}

/// The text lines of one report; `prefix` names the placement when there are several.
fn print_report(report: &CheckReport, prefix: &str) -> anyhow::Result<()> {
    let n = report.n;
    if report.is_valid() {
        outln!("{prefix}valid: {n} queens on a {n}x{n} board, no two attack each other")?;
        return Ok(());
    }
    let pairs = report.attacks.len();
    outln!(
        "{prefix}invalid: {pairs} attacking {} on a {n}x{n} board",
        if pairs == 1 { "pair" } else { "pairs" }
    )?;
    for x in report.attacks.iter().take(PRINT_MAX) {
        outln!(
            "  queen at row {}, column {} and queen at row {}, column {}: {}",
            x.a.0 + 1,
            x.a.1 + 1,
            x.b.0 + 1,
            x.b.1 + 1,
            x.line
        )?;
    }
    if pairs > PRINT_MAX {
        outln!("  … and {} more (--json lists them all)", pairs - PRINT_MAX)?;
    }
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let text = if a.columns.is_empty() {
        input::read_text(input::Source::Stdin, input::PLACEMENTS_MAX_BYTES, "a placement")?
    } else {
        a.columns.join(" ")
    };
    let tokens = text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).count();
    anyhow::ensure!(tokens <= CHECK_MAX, "placement of {tokens} rows is too large: at most {CHECK_MAX}");
    let placements = Placement::read_all(&text)?;
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
