//! `damier lights chase` (step by step) and `damier lights chase-table`.

use std::process::ExitCode;

use damier::board::{Board, Size};
use damier::lights::{self};
use serde::Serialize;

use crate::util::InputFile;
use crate::util::output::outln;
use crate::util::{exit, interrupt, output};

use super::shared::*;

/// Arguments of `damier lights chase`.
#[derive(Debug, clap::Args)]
pub struct ChaseArgs {
    /// Board file, text or PBM; `-` reads stdin.
    file: InputFile,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct ChaseReport {
    width: usize,
    height: usize,
    chase_presses: Vec<String>,
    last_row: String,
    solvable: bool,
    first_row: Option<String>,
    presses: Option<Vec<String>>,
    press_count: Option<u64>,
}

fn row_string(words: &[u64], w: usize) -> String {
    (0..w).map(|i| if (words[i / 64] >> (i % 64)) & 1 == 1 { '1' } else { '0' }).collect()
}

pub(super) fn chase(a: ChaseArgs) -> anyhow::Result<ExitCode> {
    let start = read_board(&a.file)?;
    anyhow::ensure!(
        start.width() * start.height() <= PRINT_MAX_CELLS && start.width() <= 100_000,
        "chase prints boards: up to {PRINT_MAX_CELLS} cells and 100000 columns"
    );
    let (w, h) = (start.width(), start.height());
    let lights::chase::ExplainedChase { down, after, last_row: last, first_row: first, presses: full } =
        lights::chase::explain(&start, interrupt::control())?;
    // Checked independently of the chase: the presses turn every light off.
    anyhow::ensure!(full.as_ref().is_none_or(|p| lights::verify(&start, None, p)), "internal error");
    let report = ChaseReport {
        width: w,
        height: h,
        chase_presses: rows(&down),
        last_row: row_string(&last, w),
        solvable: first.is_some(),
        first_row: first.as_ref().map(|x| row_string(x, w)),
        press_count: full.as_ref().map(Board::count_ones),
        presses: full.as_ref().map(rows),
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        let show = w <= CHASE_PRINT_MAX_WIDTH;
        outln!("1. chase down (press under every light, row after row); presses:")?;
        if show {
            print_board(&down)?;
            outln!("   board after chasing:")?;
            print_board(&after)?;
        }
        outln!("   lights left on the last row: {}", report.last_row)?;
        match &report.first_row {
            None => outln!("2. no first row fixes this last row: the board is not winnable")?,
            Some(f) => {
                outln!("2. press the first row {f}, then chase again")?;
                outln!("3. total presses ({}):", report.press_count.unwrap_or(0))?;
                if show {
                    print_board(full.as_ref().expect("solvable"))?;
                }
            }
        }
    }
    Ok(if report.solvable { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

#[derive(Serialize)]
struct ChaseTableReport {
    width: usize,
    height: usize,
    rank: usize,
    entries: Option<Vec<ChaseEntry>>,
    generators: Vec<ChaseEntry>,
}

#[derive(Serialize)]
struct ChaseEntry {
    last_row: String,
    first_row: String,
}

fn bits_string(v: &damier::gf2::BitVec) -> String {
    v.to_bools().iter().map(|&b| if b { '1' } else { '0' }).collect()
}

pub(super) fn chase_table(a: SizeArgs) -> anyhow::Result<ExitCode> {
    let size: Size = a.size.parse()?;
    let (w, h) = (size.width(), size.height());
    let t = lights::chase::chase_table(size)?;
    let generators = (0..w)
        .map(|j| {
            let mut f = damier::gf2::BitVec::zeros(w);
            f.set(j, true);
            ChaseEntry { last_row: bits_string(&t.generators[j]), first_row: bits_string(&f) }
        })
        .collect();
    let entries = t.entries.as_ref().map(|e| {
        e.iter()
            .map(|(l, f)| ChaseEntry { last_row: bits_string(l), first_row: bits_string(f) })
            .collect::<Vec<_>>()
    });
    let report = ChaseTableReport { width: w, height: h, rank: t.rank, entries, generators };
    if a.json {
        output::print_json(&report)?;
    } else {
        outln!(
            "{w}x{h}: after chasing, {} nonzero last rows can be fixed (rank {}); any other last row means no solution",
            lights::power_of_two_minus_one_decimal(t.rank as u64),
            t.rank
        )?;
        match &report.entries {
            Some(e) => {
                outln!("last row -> press on the first row (fewest presses), then chase again")?;
                for x in e {
                    outln!("{}  ->  {}", x.last_row, x.first_row)?;
                }
            }
            None => {
                outln!(
                    "too many to list; generators (first-row press -> last row it changes; combine by XOR):"
                )?;
                for x in &report.generators {
                    outln!("{}  ->  {}", x.first_row, x.last_row)?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
