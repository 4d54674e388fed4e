//! `damier queens solve N`: one solution for huge N, by explicit construction (default) or as a
//! random solution by local search (`--method local --seed S`).
//!
//! Every solution is checked in O(N) before anything is printed. The construction's columns
//! are then streamed from the formula, never stored, so N = 10^9 needs only the verifier's 5N
//! bits; local search stores its N columns (4 bytes each, N <= 10^8). On a terminal, more than
//! [`TERMINAL_MAX`] columns are summarised (use `--out` or a pipe). `--out FILE --format
//! binary` writes the 1-based columns as `u32` little-endian, 4 bytes per row.

use std::io::{IsTerminal, Write};

use std::process::ExitCode;

use damier::queens::Placement;
use damier::queens::solve::{self, NoSolution, Solution};
use damier_api::Solved;

use super::shared::BOARD_MAX;
use crate::util::OutputPath;
use crate::util::layer::{self, Process};
use crate::util::output::{Durability, Report, errln, outln};
use crate::util::{exit, interrupt, output, progress::Progress};

/// Most columns printed to a terminal; pipes and files get them all.
const TERMINAL_MAX: u64 = 10_000;

/// `--method`: the library's [`solve::Method`], by its name, with what `--help` says of each.
fn method() -> impl clap::builder::TypedValueParser<Value = solve::Method> {
    crate::util::named(&solve::Method::ALL, solve::Method::name, |m| {
        Some(match m {
            solve::Method::Construct => {
                "The explicit construction (Hoffman, Loessi and Moore): one fixed solution, N <= 10^9"
            }
            solve::Method::Local => {
                "Conflict-minimising local search from a random start: a random solution, N <= 10^8"
            }
        })
    })
}

/// How `--out` stores the columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// 1-based columns, one per line (what `damier queens check` reads).
    Text,
    /// 1-based columns as u32 little-endian, 4 bytes per row, no header.
    Binary,
}

/// Arguments of `damier queens solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (1 to 1000000000 by construction, 1 to 100000000 by local search; 2 and 3
    /// have no solution).
    // The real limit in the parser's message (issue 52 §5: past 2^32 it said "not in
    // 0..=4294967295"); local search's lower one is the library's.
    #[arg(value_parser = crate::util::ranged::<u32>(1, damier::queens::construct::MAX_N))]
    n: u32,
    /// construct: one fixed solution by formula; local: a random one by local search.
    #[arg(long, value_parser = method(), default_value = "construct")]
    method: solve::Method,
    /// Seed of the local search (the same seed gives the same solution on every machine);
    /// without it a seed is drawn from the clock and printed.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Write the solution to FILE (atomically): 1-based columns one per line, or JSON with
    /// --json; `-` writes them alone on stdout (for `| damier queens check -`).
    #[arg(long, value_name = "FILE")]
    out: Option<OutputPath>,
    /// File format of --out: text (one column per line) or binary (u32 little-endian).
    #[arg(long, value_enum, default_value_t = Format::Text, requires = "out", conflicts_with_all = ["json", "columns"])]
    format: Format,
    /// Print JSON (keys: n, method, seed (local), seconds, columns (1-based; null when N has
    /// no solution), search (local)).
    #[arg(long)]
    json: bool,
    /// Print only the 1-based columns on one line (for pipes: `| damier queens check`).
    #[arg(long, conflicts_with_all = ["json", "out"])]
    columns: bool,
}

/// The 1-based column of 0-based `row` of a found solution.
#[inline]
fn one_based(found: &Solution, row: u32) -> u64 {
    found.column(row).map_or(0, |c| u64::from(c) + 1)
}

/// Writes the columns as text (one per line), as a JSON object, or as binary u32.
fn write_columns(w: &mut impl Write, solved: &Solved, format: Format, json: bool) -> anyhow::Result<()> {
    let control = interrupt::control();
    let cols = &solved.solution;
    let n = cols.n();
    if json {
        solved.write_json_head(w)?;
    }
    for row in 0..n {
        if row.is_multiple_of(1 << 20) {
            interrupt::check()?;
            control.advance(u64::from((n - row).min(1 << 20)));
        }
        let c = one_based(cols, row);
        match (format, json) {
            (Format::Binary, _) => w.write_all(&(c as u32).to_le_bytes())?,
            (Format::Text, true) => {
                if row > 0 {
                    w.write_all(b", ")?;
                }
                write!(w, "{c}")?;
            }
            (Format::Text, false) => writeln!(w, "{c}")?,
        }
    }
    if json {
        w.write_all(b"]\n}\n")?;
    }
    Ok(())
}

/// Finds and checks the solution (the request layer's `queens solve`), or says that there is
/// none (N = 2, 3).
fn find(a: &Args) -> anyhow::Result<Result<Solved, NoSolution>> {
    let method = a.method;
    let request = damier_api::queens::Solve { n: a.n, method: Some(method.name().into()), seed: a.seed };
    damier_api::queens::solve(&request, &Process).map_err(layer::error)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = &a.out {
        output::check_folder(path)?;
    }
    let solved = match find(&a)? {
        Ok(found) => found,
        Err(none) => {
            // Every outcome is JSON on stdout with --json, "no solution" included (the text
            // says it on stderr); --out writes no file.
            if a.out.is_none() {
                none.print(a.json)?;
            }
            errln!("n = {0}: no solution (no {0} queens fit on a {0}x{0} board without attacking)", none.n);
            return Ok(ExitCode::from(exit::NO));
        }
    };
    let cols = &solved.solution;
    let n = cols.n();
    let seconds = solved.seconds;
    let seed_note = solved.seed.map(|s| format!(", seed {s}")).unwrap_or_default();
    if let Some(path) = &a.out {
        let _bar = Progress::start(interrupt::control(), u64::from(n), "writing");
        let to = if output::is_stdout(path) {
            // `--out -`: the columns alone on stdout, as `queens check -` reads them.
            let mut w = output::stdout();
            write_columns(&mut w, &solved, a.format, a.json)?;
            w.flush()?;
            "standard output".to_string()
        } else {
            // A solution of 10^9 queens takes a while to find: pushed to the disk before it is named.
            output::write_file(path, Durability::Synced, |w| write_columns(w, &solved, a.format, a.json))?;
            path.display().to_string()
        };
        errln!(
            "n = {n}{seed_note}: checked solution written to {to} ({} s to find and check)",
            crate::util::number(seconds)
        );
        return Ok(ExitCode::SUCCESS);
    }
    if std::io::stdout().is_terminal() && u64::from(n) > TERMINAL_MAX {
        let head: Vec<String> = (0..10).map(|r| one_based(cols, r).to_string()).collect();
        outln!(
            "n = {n}{seed_note}: solution found and checked in {} s; S begins {} …\n\
             ({n} columns are too many for a terminal: use --out FILE or a pipe)",
            crate::util::number(seconds),
            head.join(" ")
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut w = output::stdout();
    if a.columns {
        for row in 0..n {
            if row.is_multiple_of(1 << 20) {
                interrupt::check()?;
            }
            write!(w, "{}{}", if row == 0 { "" } else { " " }, one_based(cols, row))?;
        }
        writeln!(w)?;
    } else if a.json {
        write_columns(&mut w, &solved, Format::Text, true)?;
    } else if n <= BOARD_MAX {
        let p = Placement::new((0..n).map(|r| (one_based(cols, r) - 1) as u32).collect())?;
        // Small boards also go through the hash-map checker (n = 1 has no formula).
        anyhow::ensure!(p.is_valid(), "internal error: placement {p} is invalid");
        writeln!(w, "n = {n}{seed_note}: S = {p} (checked)")?;
        write!(w, "{}", p.board())?;
    } else {
        write_columns(&mut w, &solved, Format::Text, false)?;
    }
    w.flush()?;
    Ok(ExitCode::SUCCESS)
}
