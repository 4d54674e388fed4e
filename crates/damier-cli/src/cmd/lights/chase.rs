//! `damier lights chase` (step by step) and `damier lights chase-table`.

use std::process::ExitCode;

use damier::board::Size;
use damier::lights::chase::{ChaseTable, ExplainedChase};
use damier::lights::{self};

use crate::util::InputFile;
use crate::util::output::{Report, outln};
use crate::util::{exit, interrupt};

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

pub(super) fn chase(a: ChaseArgs) -> anyhow::Result<ExitCode> {
    let start = read_board(&a.file)?;
    anyhow::ensure!(
        start.width() * start.height() <= PRINT_MAX_CELLS && start.width() <= 100_000,
        "chase prints boards: up to {PRINT_MAX_CELLS} cells and 100000 columns"
    );
    let chase = lights::chase::explain(&start, interrupt::control())?;
    chase.print(a.json)?;
    Ok(if chase.first_row.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

impl Report for ExplainedChase {
    fn print_text(&self) -> anyhow::Result<()> {
        let w = self.down.width();
        let show = w <= CHASE_PRINT_MAX_WIDTH;
        let bits = |words: &[u64]| -> String {
            (0..w).map(|i| if (words[i / 64] >> (i % 64)) & 1 == 1 { '1' } else { '0' }).collect()
        };
        outln!("1. chase down (press under every light, row after row); presses:")?;
        if show {
            print_board(&self.down)?;
            outln!("   board after chasing:")?;
            print_board(&self.after)?;
        }
        outln!("   lights left on the last row: {}", bits(&self.last_row))?;
        match (&self.first_row, &self.presses) {
            (Some(f), Some(full)) => {
                outln!("2. press the first row {}, then chase again", bits(f))?;
                outln!("3. total presses ({}):", full.count_ones())?;
                if show {
                    print_board(full)?;
                }
            }
            _ => outln!("2. no first row fixes this last row: the board is not winnable")?,
        }
        Ok(())
    }
}

pub(super) fn chase_table(a: SizeArgs) -> anyhow::Result<ExitCode> {
    let size: Size = a.size.parse()?;
    lights::chase::chase_table(size)?.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

impl Report for ChaseTable {
    fn print_text(&self) -> anyhow::Result<()> {
        let (w, h) = (self.size.width(), self.size.height());
        let bits = |v: &damier::gf2::BitVec| -> String {
            v.to_bools().iter().map(|&b| if b { '1' } else { '0' }).collect()
        };
        outln!(
            "{w}x{h}: after chasing, {} nonzero last rows can be fixed (rank {}); any other last row means no solution",
            lights::power_of_two_minus_one_decimal(self.rank as u64),
            self.rank
        )?;
        match &self.entries {
            Some(e) => {
                outln!("last row -> press on the first row (fewest presses), then chase again")?;
                for (l, f) in e {
                    outln!("{}  ->  {}", bits(l), bits(f))?;
                }
            }
            None => {
                outln!(
                    "too many to list; generators (first-row press -> last row it changes; combine by XOR):"
                )?;
                for (j, g) in self.generators.iter().enumerate() {
                    let mut f = damier::gf2::BitVec::zeros(w);
                    f.set(j, true);
                    outln!("{}  ->  {}", bits(&f), bits(g))?;
                }
            }
        }
        Ok(())
    }
}
