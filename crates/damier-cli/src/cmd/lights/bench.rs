//! `damier lights bench`: the performance table. Its rows are measured by the bench crate
//! (`damier_bench::tables`), with the timers of `damier bench`.

use std::process::ExitCode;

use damier_bench::tables::{self, LightsRow};

use crate::util::output::{Report, errln, outln};
use crate::util::progress::Progress;
use crate::util::{interrupt, number};

/// Arguments of `damier lights bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Square sides to solve from a random start, comma-separated.
    #[arg(long, default_value = "10000,100000", value_delimiter = ',')]
    sizes: Vec<usize>,
    /// Compute the nullities of all n x n boards up to this n (0: skip; at most 100000, as
    /// `lights table`).
    #[arg(long, default_value_t = 25_000, value_parser = crate::util::ranged::<u64>(0, damier::lights::TABLE_MAX_N))]
    nullities_to: u64,
    /// Also time the phases of the polynomial method (on stderr).
    #[arg(long)]
    breakdown: bool,
    /// Seed of the random boards.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// The rows done, for the progress (the timed calls report in their own units).
static ROWS: damier::control::Control = damier::control::Control::new();

pub(super) fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    // Every size is refused (too large, or beyond the memory) before the start line.
    for &n in &a.sizes {
        damier_bench::timers::check_random_square(n)?;
    }
    let control = interrupt::control();
    let units = a.sizes.len() as u64 + u64::from(a.nullities_to > 0);
    // The default (10 000 and 100 000, nullities to 25 000) took 16 s in a release build on 2
    // loaded cores; from 2048 x 2048 boards or nullities to 10 000 a run takes seconds.
    let long = a.sizes.iter().any(|&n| n >= 2048) || a.nullities_to >= 10_000;
    let progress = Progress::sized(long, &ROWS, units, "lights bench", || {
        let sizes: Vec<String> = a.sizes.iter().map(|n| format!("{n} x {n}")).collect();
        let nullities = if a.nullities_to > 0 {
            format!(", then the nullities of the n x n boards to n = {}", a.nullities_to)
        } else {
            String::new()
        };
        format!("solving random boards of {} (seed {}){nullities}", sizes.join(", "), a.seed)
    });
    let mut rows = Vec::new();
    for &n in &a.sizes {
        let row = tables::lights_solve_row(n, a.seed, a.breakdown, control)?;
        ROWS.advance(1);
        if let Some(p) = &row.phases {
            errln!(
                "{n}x{n}: polynomial setup (p_W, p_H(x+1) mod p_W, gcd with cofactor) {} s; \
                 chase for the last row {} s; first row (conversions, division, product) {} s; \
                 chase writing the presses in place {} s",
                number(p.setup_seconds),
                number(p.last_row_seconds),
                number(p.first_row_seconds),
                number(p.chase_seconds)
            );
        }
        rows.push(row);
    }
    if a.nullities_to > 0 {
        rows.push(tables::lights_nullities_row(a.nullities_to as usize, control)?);
        ROWS.advance(1);
    }
    drop(progress);
    rows.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

/// The table (its JSON: the list of rows).
impl Report for Vec<LightsRow> {
    fn print_text(&self) -> anyhow::Result<()> {
        let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        outln!("{:<80} {:>10} {:>10} {:>10} {:>8}", "task", "seconds", "verify s", "target s", "ratio")?;
        for r in self {
            outln!(
                "{:<80} {:>10} {:>10} {:>10} {:>8}",
                r.task,
                number(r.seconds),
                or_dash(r.verify_seconds.map(number)),
                or_dash(r.target_seconds.map(number)),
                or_dash(r.ratio().map(number)),
            )?;
        }
        outln!("(ratio = measured / target; below 1 meets the target)")?;
        Ok(())
    }
}
