//! `damier queens list N`: the solutions, streamed in backtracking order.
//!
//! Nothing is collected: each solution is printed as the search finds it. Without `--limit`
//! the listing is refused above N = 14 (365 596 solutions; 15 has 2.3 million), since
//! nobody reads millions of boards; `--limit K` or `--all` lift the refusal.

use std::io::Write;
use std::process::ExitCode;

use damier_api::queens::Listing;

use super::shared::BOARD_MAX;
use crate::report::queens::DrawnText;
use crate::util::layer::{self, Process};
use crate::util::output::{Report, errln};
use crate::util::{interrupt, output, progress::Progress};

/// Arguments of `damier queens list`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (1 to 64).
    n: u32,
    /// One representative per class up to the 8 symmetries (the smallest S of its class).
    #[arg(long)]
    unique: bool,
    /// Print at most K solutions (K >= 1).
    #[arg(long, value_name = "K", value_parser = crate::util::ranged::<u64>(1, u64::MAX))]
    limit: Option<u64>,
    /// List everything even when N > 14 (millions of lines).
    #[arg(long, conflicts_with = "limit")]
    all: bool,
    /// K solutions drawn at random instead (with replacement): exactly uniform for N <= 14,
    /// one local search each (random, not uniform) for 15 <= N <= 1000; K * N at most 2^24.
    #[arg(long, value_name = "K", value_parser = crate::util::ranged::<u64>(1, damier_api::queens::RANDOM_MAX),
          conflicts_with_all = ["unique", "limit", "all"])]
    random: Option<u64>,
    /// Seed of --random (the same seed gives the same draws); without it one is drawn and printed.
    // The conflicts of --random repeated: clap lets `requires` pass when the required
    // argument conflicts with one given (clap issue 4520).
    #[arg(long, value_name = "S", requires = "random", conflicts_with_all = ["unique", "limit", "all"])]
    seed: Option<u64>,
    /// Do not draw the boards, only S.
    #[arg(long)]
    no_boards: bool,
    /// Print a JSON list of objects with key `columns` (1-based).
    #[arg(long)]
    json: bool,
    /// Print only the 1-based columns, one solution per line (for pipes: `| damier queens
    /// check`); the header and the notes go to stderr.
    #[arg(long, conflicts_with = "json")]
    columns: bool,
}

/// `--random K`: K solutions drawn at random, printed like the listing.
fn run_random(a: &Args, k: u64) -> anyhow::Result<ExitCode> {
    let drawn = damier_api::queens::draw(a.n, k, a.seed, &Process).map_err(layer::error)?;
    let boards = !a.no_boards && a.n <= BOARD_MAX;
    DrawnText { drawn: &drawn, columns: a.columns, boards }.print(a.json)?;
    Ok(if drawn.solutions.is_empty() { ExitCode::from(crate::util::exit::NO) } else { ExitCode::SUCCESS })
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(k) = a.random {
        return run_random(&a, k);
    }
    let mut listing = Listing::new(a.n, a.unique, a.limit, a.all).map_err(layer::error)?;
    let limit = a.limit.unwrap_or(u64::MAX);
    let control = interrupt::control();
    let mut out = output::stdout();
    let boards = !a.no_boards && a.n <= BOARD_MAX;
    let mut printed = 0u64;
    // The bar counts the first row's columns whose subtrees are finished.
    let _bar = Progress::start(control, u64::from(a.n), "listing");
    if a.json {
        out.write_all(b"[")?;
    }
    while let Some(listed) = listing.next(control).map_err(layer::error)? {
        printed += 1;
        let p = &listed.placement;
        if a.json {
            out.write_all(if printed == 1 { b"\n  " } else { b",\n  " })?;
            serde_json::to_writer(&mut out, &listed)?;
        } else if a.columns {
            writeln!(out, "{}", super::shared::columns_line(&p.one_based()))?;
        } else {
            match listed.class_size {
                Some(k) => writeln!(out, "{printed}: {p}  (class of {k})")?,
                None => writeln!(out, "{printed}: {p}")?,
            }
            if boards {
                writeln!(out, "{}", p.board())?;
            }
        }
    }
    if a.json {
        out.write_all(if printed == 0 { b"]\n" } else { b"\n]\n" })?;
    } else if printed == 0 && a.columns {
        errln!("n = {}: no solution", a.n);
    } else if printed == 0 {
        writeln!(out, "n = {}: no solution", a.n)?;
    } else if printed == limit {
        let note = format!("(stopped at --limit {limit}; `damier queens count {}` counts them all)", a.n);
        if a.columns {
            errln!("{note}");
        } else {
            writeln!(out, "{note}")?;
        }
    }
    out.flush()?;
    Ok(if printed == 0 { ExitCode::from(crate::util::exit::NO) } else { ExitCode::SUCCESS })
}
