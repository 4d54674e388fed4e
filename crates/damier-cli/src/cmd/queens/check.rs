//! `damier queens check`: is a placement valid, and if not which queens attack which.
//!
//! Columns are 1-based, one per row, as arguments (`damier queens check 2 4 1 3`) or on
//! stdin, separated by whitespace and/or commas. Exit 0 valid, 1 invalid, 2 malformed.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use damier::queens::Placement;
use damier::queens::placement::Line;

use crate::util::output::outln;
use crate::util::{exit, output};

/// Largest placement checked (the checker keeps a hash map entry per queen and line).
const CHECK_MAX: usize = 10_000_000;
/// Most bytes read from stdin (ample for CHECK_MAX columns and separators).
const INPUT_MAX_BYTES: u64 = 256 << 20;
/// Most attacking pairs printed as text (JSON lists them all).
const PRINT_MAX: usize = 50;

/// Arguments of `damier queens check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// 1-based columns, one per row (read from stdin when absent).
    #[arg(allow_negative_numbers = true, value_name = "COLUMN")]
    columns: Vec<String>,
    /// Print JSON (keys: n, valid, attacks: [{a, b, line}] with 1-based [row, column]).
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct AttackOut {
    a: [u64; 2],
    b: [u64; 2],
    line: Line,
}

#[derive(serde::Serialize)]
struct Report {
    n: u32,
    valid: bool,
    attacks: Vec<AttackOut>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let text = if a.columns.is_empty() {
        let mut s = String::new();
        std::io::stdin()
            .take(INPUT_MAX_BYTES + 1)
            .read_to_string(&mut s)
            .context("cannot read the placement from stdin")?;
        anyhow::ensure!(
            s.len() as u64 <= INPUT_MAX_BYTES,
            "input too large: at most {} MB ({CHECK_MAX} rows)",
            INPUT_MAX_BYTES >> 20
        );
        s
    } else {
        a.columns.join(" ")
    };
    let tokens = text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).count();
    anyhow::ensure!(tokens <= CHECK_MAX, "placement of {tokens} rows is too large: at most {CHECK_MAX}");
    let p = Placement::parse(&text)?;
    let r = p.check();
    let one = |(r, c): (u32, u32)| [u64::from(r) + 1, u64::from(c) + 1];
    let report = Report {
        n: p.n(),
        valid: r.is_valid(),
        attacks: r.attacks.iter().map(|x| AttackOut { a: one(x.a), b: one(x.b), line: x.line }).collect(),
    };
    if a.json {
        output::print_json(&report)?;
    } else if report.valid {
        outln!("valid: {} queens on a {0}x{0} board, no two attack each other", p.n())?;
    } else {
        outln!("invalid: {} attacking pair(s) on a {}x{} board", report.attacks.len(), p.n(), p.n())?;
        for x in report.attacks.iter().take(PRINT_MAX) {
            outln!(
                "  queen at row {}, column {} and queen at row {}, column {}: {}",
                x.a[0],
                x.a[1],
                x.b[0],
                x.b[1],
                x.line
            )?;
        }
        if report.attacks.len() > PRINT_MAX {
            outln!("  … and {} more (--json lists them all)", report.attacks.len() - PRINT_MAX)?;
        }
    }
    Ok(if report.valid { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
