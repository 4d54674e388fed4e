//! `damier automaton trap`: the trap positions of figs. 1 and 7 and how the models leave them.

use std::process::ExitCode;

use anyhow::Context;
use damier::automaton::experiment::{self, Summary};
use damier::automaton::{self as engine, Automaton, Model, Params, StartSignals, Stop, text, trap};

use clap::Args;

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

use crate::util::output::{out, outln};
use crate::util::{interrupt, output};

#[derive(serde::Serialize)]
struct TrapCase {
    model: Model,
    eps: f64,
    eta: f64,
    /// Signals reset to the true field after every move (instant propagation).
    ideal_signals: bool,
    summary: Summary,
}

#[derive(serde::Serialize)]
struct TrapReport {
    figure: u8,
    n: u32,
    position: String,
    /// Fig. 7: the triangle's cells as [row, column], from 1.
    triangle: Vec<[usize; 2]>,
    /// Fig. 7: the layout satisfies the robust trap condition (not only with true signals).
    robust: Option<bool>,
    cases: Vec<TrapCase>,
}

pub(super) fn trap_cmd(a: TrapArgs) -> anyhow::Result<ExitCode> {
    let control = interrupt::control();
    let stop = Stop::new(control);
    type Settings = Vec<(f64, f64, bool)>;
    let (t, robust, model, settings): (trap::Trap, Option<bool>, Model, Settings) = match a.figure {
        1 => {
            let t = trap::find_figure1(a.seed, 1_000_000)
                .context("no fig. 1 position found for n <= 8 with this seed; try another --seed")?;
            (t, None, Model::Pair, vec![(0.0, 0.0, false), (engine::DEFAULT_EPS, 0.0, false)])
        }
        7 => {
            let (t, robust) = trap::find_figure7().context("no fig. 7 layout exists on 6 x 6")?;
            let e = engine::DEFAULT_EPS;
            (
                t,
                Some(robust),
                Model::Cell,
                vec![(e, 0.0, true), (e, 0.0, false), (e, engine::DEFAULT_ETA, false)],
            )
        }
        f => anyhow::bail!("--figure {f}: only figures 1 and 7 are trap positions"),
    };
    let mut cases = Vec::new();
    for (eps, eta, ideal) in settings {
        let params = Params { model, n: t.n, eps, eta }.validated()?;
        let start = experiment::Start { counts: &t.counts, signals: StartSignals::True, ideal };
        let runs = experiment::run_samples_from(
            &params,
            Some(start),
            a.seed,
            a.samples as usize,
            a.max_steps,
            &stop,
        )?;
        cases.push(TrapCase { model, eps, eta, ideal_signals: ideal, summary: experiment::summarize(&runs) });
    }
    let report = TrapReport {
        figure: a.figure,
        n: t.n,
        position: text::format_position(t.n, &t.counts),
        triangle: t.triangle.iter().map(|&(x, y)| [y + 1, x + 1]).collect(),
        robust,
        cases,
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        match a.figure {
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
            a.samples,
            a.max_steps
        )?;
        for c in &report.cases {
            outln!(
                "  model {} eps = {}{}{}: {} solved, {} censored, mean steps {}",
                c.model,
                c.eps,
                if c.model == Model::Cell { format!(" eta = {}", c.eta) } else { String::new() },
                if c.ideal_signals { " (signals reset to the truth after each move)" } else { "" },
                c.summary.solved,
                c.summary.censored,
                show(c.summary.mean_steps)
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
