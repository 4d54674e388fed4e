//! `damier automaton trap`: the trap positions of figs. 1 and 7 and how the models leave them.

use std::process::ExitCode;

use clap::Args;
use damier::automaton::trap::{self, TrapExperiment};
use damier::automaton::{Automaton, Params, StartSignals, Stop, text};

use crate::util::interrupt;
use crate::util::output::{Report, out, outln};

use super::shared::*;

/// Arguments of `damier automaton trap`.
#[derive(Debug, Args)]
pub struct TrapArgs {
    /// Which figure of the automaton report: 1 (model 1, every move blocked) or 7 (model 2, η = 0 loop).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=7))]
    figure: u8,
    /// Random seed of the search (the report's fig. 1 position) and of the demonstration runs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Demonstration runs per setting.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    samples: u64,
    /// Step cap of the demonstration runs.
    #[arg(long, default_value_t = 10_000_000)]
    max_steps: u64,
    /// Print JSON (keys: figure, n, position, triangle (the report's fig. 7: [row, column] from 1), robust,
    /// cases).
    #[arg(long)]
    json: bool,
}

pub(super) fn trap_cmd(a: TrapArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        matches!(a.figure, 1 | 7),
        "--figure {}: only figures 1 and 7 are trap positions",
        a.figure
    );
    let stop = Stop::new(interrupt::control());
    let report =
        trap::experiment(a.figure, a.seed, a.samples as usize, a.max_steps, &stop).map_err(|e| match e {
            trap::TrapError::Figure1NotFound => {
                anyhow::anyhow!("no fig. 1 position found for n <= 8 with this seed; try another --seed")
            }
            e => e.into(),
        })?;
    TrapText { report: &report, samples: a.samples, max_steps: a.max_steps }.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

/// The text of a trap experiment also says the runs' number and cap.
#[derive(serde::Serialize)]
#[serde(transparent)]
struct TrapText<'a> {
    report: &'a TrapExperiment,
    #[serde(skip)]
    samples: u64,
    #[serde(skip)]
    max_steps: u64,
}

impl Report for TrapText<'_> {
    fn print_text(&self) -> anyhow::Result<()> {
        let report = self.report;
        let (t, robust, model) = (report, report.robust, report.model);
        match report.figure {
            1 => outln!(
                "fig. 1 ({0} x {0}): not a solution, every queen threatened, and no queen has a \
                 neighbour where SAFEGO holds (so no one-cell move reaches a safe cell)",
                t.n
            )?,
            _ => outln!(
                "fig. 7 (6 x 6): 4 fixed queens in columns c..f (3 to 6), 2 queens in the triangle of \
                 cells {}; the fixed queens never share a line with the triangle{}",
                report
                    .triangle
                    .iter()
                    .map(|[r, c]| format!("(row {r}, column {c})"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if robust == Some(true) {
                    " and the trap holds whatever the signals do"
                } else {
                    ";\nwith true signals the free triangle cell is the unique least-signalled destination \
                     (no layout is a trap whatever the signals: stale signals can let a queen out)"
                }
            )?,
        }
        out!("{}", report.position)?;
        let mut aut = Automaton::from_position(&Params::new(model, t.n)?, &t.counts, StartSignals::True, 0)?;
        aut.set_true_signals();
        outln!("with its true signals:")?;
        out!("{}", text::render(&aut))?;
        outln!(
            "{} runs per setting from this position with true signals, cap {} steps:",
            self.samples,
            self.max_steps
        )?;
        for c in &report.cases {
            outln!(
                "  model {} eps = {}{}{}: {} solved, {} censored, mean steps {}",
                c.model,
                c.eps,
                if c.model.uses_eta() { format!(" eta = {}", c.eta) } else { String::new() },
                if c.ideal_signals { " (signals reset to the truth after each move)" } else { "" },
                c.summary.solved,
                c.summary.censored,
                show(c.summary.mean_steps)
            )?;
        }
        Ok(())
    }
}
