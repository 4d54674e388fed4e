//! `damier queens solve N`: one solution for any N >= 4 by explicit construction.
//!
//! The construction is verified in O(N) before anything is printed; its columns are then
//! streamed from the formula, never stored, so N = 10^9 needs only the verifier's 5N bits.
//! On a terminal, more than [`TERMINAL_MAX`] columns are summarised (use `--out` or a pipe).

use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use damier::queens::construct;

use super::BOARD_MAX;
use crate::util::output::outln;
use crate::util::{exit, interrupt, output, progress::Progress};

/// Most columns printed to a terminal; pipes and files get them all.
const TERMINAL_MAX: u64 = 10_000;

/// Arguments of `damier queens solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (1..=1000000000; 2 and 3 have no solution).
    n: u64,
    /// Write the solution to FILE (atomically): 1-based columns one per line, or JSON with --json.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print JSON (keys: n, columns (1-based), seconds).
    #[arg(long)]
    json: bool,
}

/// Writes the columns for `n` as text (one per line) or as a JSON object.
fn write_columns(w: &mut impl Write, n: u64, json: bool, seconds: f64) -> anyhow::Result<()> {
    let control = interrupt::control();
    if json {
        write!(w, "{{\n  \"n\": {n},\n  \"seconds\": {seconds},\n  \"columns\": [")?;
    }
    for row in 0..n {
        if row.is_multiple_of(1 << 20) {
            interrupt::check()?;
            control.advance((n - row).min(1 << 20));
        }
        let c = if n == 1 { 1 } else { construct::column(n, row) + 1 };
        if json {
            if row > 0 {
                w.write_all(b", ")?;
            }
            write!(w, "{c}")?;
        } else {
            writeln!(w, "{c}")?;
        }
    }
    if json {
        w.write_all(b"]\n}\n")?;
    }
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let n = a.n;
    anyhow::ensure!(n >= 1, "n must be at least 1");
    if n == 2 || n == 3 {
        eprintln!("n = {n}: no solution (no two queens fit on a {n}x{n} board without attacking)");
        return Ok(ExitCode::from(exit::NO));
    }
    let start = Instant::now();
    if n >= 4 {
        let _bar = Progress::start(interrupt::control(), n, "verifying");
        construct::verify_with(n, interrupt::control())?;
    }
    let seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &a.out {
        let tmp = output::temp_path(path);
        let _bar = Progress::start(interrupt::control(), n, "writing");
        let result = (|| -> anyhow::Result<()> {
            let file =
                std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", path.display()))?;
            let mut w = BufWriter::with_capacity(1 << 20, file);
            write_columns(&mut w, n, a.json, seconds)?;
            w.flush().with_context(|| format!("cannot write {}", path.display()))?;
            Ok(())
        })();
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        output::commit(&tmp, path)?;
        eprintln!("n = {n}: verified solution written to {} ({seconds:.3} s to verify)", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let stdout = std::io::stdout();
    if stdout.is_terminal() && n > TERMINAL_MAX {
        let head: Vec<String> = (0..10).map(|r| (construct::column(n, r) + 1).to_string()).collect();
        outln!(
            "n = {n}: solution verified in {seconds:.3} s; S begins {} …\n\
             ({n} columns are too many for a terminal: use --out FILE or a pipe)",
            head.join(" ")
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut w = BufWriter::with_capacity(1 << 20, stdout.lock());
    if a.json {
        write_columns(&mut w, n, true, seconds)?;
    } else {
        let cols: Vec<u32> = if n <= BOARD_MAX as u64 {
            (0..n).map(|r| if n == 1 { 0 } else { construct::column(n, r) as u32 }).collect()
        } else {
            Vec::new()
        };
        if n <= BOARD_MAX as u64 {
            let p = damier::queens::Placement::new(cols)?;
            // Small boards also go through the independent checker (n = 1 has no formula).
            anyhow::ensure!(p.is_valid(), "internal error: constructed placement {p} is invalid");
            writeln!(w, "n = {n}: S = {p} (verified)")?;
            write!(w, "{}", p.board())?;
        } else {
            write_columns(&mut w, n, false, seconds)?;
        }
    }
    w.flush()?;
    Ok(ExitCode::SUCCESS)
}
