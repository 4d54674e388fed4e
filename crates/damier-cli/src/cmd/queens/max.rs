//! `damier queens max N`: R(N) with a witness placement.

use std::process::ExitCode;

use damier::queens::max::{self, Max, Method};

use super::shared::BOARD_MAX;
use crate::util::interrupt;
use crate::util::output::{Report, outln};

/// Arguments of `damier queens max`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (0..=10000000).
    n: u32,
    /// Print JSON (keys: n, max, columns (1-based, 0 for an empty row), method).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let m = max::max_queens_checked(a.n, interrupt::control())?;
    m.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

impl Report for Max {
    fn print_text(&self) -> anyhow::Result<()> {
        let m = self;
        let how = match m.method {
            Method::Search => "by exhaustive branch-and-bound search",
            Method::Construction => "by construction (a full solution; R(n) <= n)",
        };
        outln!("R({}) = {} ({how})", m.n, m.max)?;
        if m.n <= 1000 {
            if m.max == u64::from(m.n) {
                // A full placement, printed as `queens check` reads it back.
                let p = damier::queens::Placement::new(m.witness.iter().map(|c| c.unwrap_or(0)).collect())?;
                outln!("witness S = {p}")?;
            } else {
                let cols: Vec<String> =
                    m.witness.iter().map(|c| c.map_or(0, |c| u64::from(c) + 1).to_string()).collect();
                outln!("{} {}", damier::queens::placement::EMPTY_ROW_WITNESS, cols.join(" "))?;
            }
        }
        if m.n <= BOARD_MAX {
            for c in &m.witness {
                let row: Vec<&str> = (0..m.n).map(|j| if *c == Some(j) { "Q" } else { "." }).collect();
                outln!("{}", row.join(" "))?;
            }
        }
        Ok(())
    }
}
