//! `damier automaton trap`: the trap positions of figs. 1 and 7 and how the models leave them.

use std::process::ExitCode;

use clap::Args;
use damier::automaton::Stop;
use damier::automaton::trap;

use crate::report::automaton::TrapText;
use crate::util::interrupt;
use crate::util::output::Report;
use crate::util::progress::Progress;

/// Arguments of `damier automaton trap`.
#[derive(Debug, Args)]
pub struct TrapArgs {
    /// Which figure of the automaton report: 1 (model 1, every move blocked) or 7 (model 2, η = 0 loop).
    #[arg(long, value_parser = figure())]
    figure: u8,
    /// Random seed of the search (the report's fig. 1 position) and of the demonstration runs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Demonstration runs per setting.
    #[arg(long, default_value_t = 20, value_parser = crate::util::ranged::<u64>(1, 100_000))]
    samples: u64,
    /// Step cap of the demonstration runs.
    #[arg(long, default_value_t = 10_000_000)]
    max_steps: u64,
    /// Print JSON (keys: figure, n, position, triangle (the report's fig. 7: [row, column] from 1), robust,
    /// cases).
    #[arg(long)]
    json: bool,
}

/// `--figure`: 1 or 7, the report's trap positions (a range of 1 to 7 said that 2 to 6 were
/// supported, then refused them).
fn figure() -> impl clap::builder::TypedValueParser<Value = u8> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["1", "7"]).try_map(|s| s.parse::<u8>())
}

pub(super) fn trap_cmd(a: TrapArgs) -> anyhow::Result<ExitCode> {
    let stop = Stop::new(interrupt::control());
    // The default (20 runs per setting, 10^7 steps each) took 7 s for fig. 1 and 12 s for fig. 7
    // in a release build on 2 loaded cores: from 10^8 steps in all it says it is alive.
    let long = a.samples.saturating_mul(a.max_steps) >= 100_000_000;
    let progress = Progress::sized(long, interrupt::control(), 0, "automaton trap", || {
        format!(
            "searching the position of fig. {} (seed {}), then {} per setting of at most {} steps",
            a.figure,
            a.seed,
            crate::util::plural(a.samples, "run"),
            a.max_steps
        )
    });
    let report =
        trap::experiment(a.figure, a.seed, a.samples as usize, a.max_steps, &stop).map_err(|e| match e {
            trap::TrapError::Figure1NotFound => {
                anyhow::anyhow!("no fig. 1 position found for n <= 8 with this seed; try another --seed")
            }
            e => e.into(),
        })?;
    drop(progress);
    TrapText { report: &report, samples: a.samples, max_steps: a.max_steps }.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
