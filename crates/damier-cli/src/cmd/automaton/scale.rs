//! `damier automaton scale`: steps to a solution against n, for each model, beside 1/d
//! (figs. 6 and 8).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use damier::automaton::experiment::{self, ScaleRecord};
use damier::automaton::{self as engine};
use damier::automaton::{Model, Params};

use crate::util::OutputArgs;
use crate::util::chart::{Axis, Chart, Curve, Interval, Point, Scale};
use crate::util::csv_file::{self, format};
use crate::util::output::Report;
use crate::util::progress::Progress;
use crate::util::{interrupt, output};

use super::shared::*;

/// Arguments of `damier automaton scale`.
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// Models, comma separated.
    #[arg(long, value_parser = model(), value_delimiter = ',', default_value = "pair,cell")]
    model: Vec<Model>,
    /// Board sides: `A..B` (inclusive) or a comma list, or both (`4..8,10`).
    #[arg(short = 'n', long = "n", default_value = "4..12")]
    n: String,
    /// ε [range: 0 to 1].
    #[arg(long, default_value_t = engine::DEFAULT_EPS)]
    eps: f64,
    #[arg(long, help = eta_help())]
    eta: Option<f64>,
    /// Runs per (model, n).
    #[arg(long, default_value_t = 30, value_parser = crate::util::ranged::<u64>(1, 1_000_000))]
    samples: u64,
    /// Wall-clock budget per (model, n) point, seconds (at most a year); runs still going
    /// are censored.
    #[arg(long, value_name = "SECONDS", value_parser = crate::util::budget_seconds)]
    budget: Option<f64>,
    #[command(flatten)]
    exp: ExperimentArgs,
    /// Leave 1/d out (it comes from the known number of solutions, OEIS A000170, so it is
    /// known up to n = 27 and unknown beyond).
    #[arg(long)]
    no_density: bool,
    #[command(flatten)]
    out: OutputArgs,
}

/// Parses the board sides given to `flag`: `4..16`, `4,6,8` or a mix.
pub(super) fn parse_ns(spec: &str, flag: &str) -> anyhow::Result<Vec<u32>> {
    parse_ns_up_to(spec, flag, damier::automaton::MAX_N)
}

/// [`parse_ns`] with the largest side `max`.
pub(super) fn parse_ns_up_to(spec: &str, flag: &str, max: u32) -> anyhow::Result<Vec<u32>> {
    crate::util::parse_sizes(spec, flag, "board size", 1..=max)
}

pub(super) fn scale(a: ScaleArgs) -> anyhow::Result<ExitCode> {
    let ns = parse_ns(&a.n, "-n")?;
    anyhow::ensure!(!a.model.is_empty(), "--model: the list is empty");
    check_probability("eps", a.eps)?;
    let mut models: Vec<Model> = a.model.clone();
    models.dedup();
    let eta = eta_for(&models, a.eta)?;
    a.out.check()?;
    let seed = crate::util::pick_seed(a.exp.seed);
    let control = interrupt::control();
    let clock = Instant::now();
    let pool = crate::util::pool(a.exp.threads)?;
    // The largest runs the pool holds at once are refused before the start line when they
    // cannot fit.
    if let Some(&largest) = ns.iter().max() {
        for &m in &models {
            pool.install(|| {
                Params::new(m, largest)?
                    .check_memory_of(a.samples.min(rayon::current_num_threads() as u64).max(1))
            })?;
        }
    }
    let inv = if a.no_density { Vec::new() } else { experiment::inverse_densities(&ns) };
    let points = {
        let runs = a.samples * (ns.len() * models.len()) as u64;
        let what = format!(
            "{runs} runs ({} per model and n, {} sizes, {} models, seed {seed})",
            a.samples,
            ns.len(),
            models.len()
        );
        let _bar = Progress::long_run(control, runs, "automaton scale", &what);
        pool.install(|| {
            experiment::scale(
                &models,
                &ns,
                a.eps,
                eta.unwrap_or(engine::DEFAULT_ETA),
                a.samples as usize,
                seed,
                a.exp.max_steps,
                a.budget.map(Duration::from_secs_f64),
                control,
            )
        })?
    };
    let report = ScaleRecord {
        eps: a.eps,
        eta,
        seed,
        samples: a.samples,
        max_steps: a.exp.max_steps,
        budget: a.budget,
        positions: experiment::DENSITY_POSITIONS,
        points,
        inverse_density: inv,
        density_left_out: a.no_density,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if let Some(path) = &a.out.csv {
        #[derive(serde::Serialize)]
        struct Line(
            String,
            u32,
            SummaryCells,
            #[serde(serialize_with = "format::milli")] f64,
            #[serde(serialize_with = "format::sci6_opt")] Option<f64>,
        );
        let header: Vec<&str> =
            ["model", "n"].into_iter().chain(SUMMARY_HEADER).chain(["seconds", "inverse_density"]).collect();
        let lines: Vec<Line> = report
            .points
            .iter()
            .map(|p| {
                let d = report.inverse_density_at(p.n);
                Line(p.model.to_string(), p.n, (&p.summary).into(), p.seconds, d)
            })
            .collect();
        output::write_bytes(path, output::Durability::Synced, &csv_file::to_bytes_headed(&header, &lines)?)?;
    }
    if let Some(path) = &a.out.plot {
        let mut curves = Vec::new();
        for &m in &models {
            let label = m.label();
            let points = report
                .points
                .iter()
                .filter(|p| p.model == m)
                .filter_map(|p| {
                    let y = p.summary.mean_steps?;
                    Some(Point {
                        x: p.n as f64,
                        y,
                        interval: p.summary.ci95,
                        censored: p.summary.censored > 0,
                    })
                })
                .collect();
            curves.push(Curve {
                name: format!("{label}: mean steps (over the solved runs)"),
                points,
                interval: Interval::Bars(format!("{label}: 95% confidence interval of the mean")),
                line: true,
            });
        }
        curves.push(Curve {
            name: "1/d, d = solutions / C(n², n): the expected steps of a blind search".into(),
            points: report.inverse_density.iter().map(|&(n, v)| Point::new(n as f64, v)).collect(),
            interval: Interval::None,
            line: true,
        });
        let names: Vec<&str> = models.iter().map(|m| m.label()).collect();
        let (n0, n1) = (ns.iter().min().copied().unwrap_or(0), ns.iter().max().copied().unwrap_or(0));
        let budget = a.budget.map(|b| format!(", at most {b} s of runs per point")).unwrap_or_default();
        let chart = Chart {
            title: format!("steps to a first solution against n: {}, n = {n0}..{n1}", names.join(" and ")),
            subtitle: vec![format!(
                "ε = {},{} {} runs per point, seed {seed}, each run capped at {} steps{budget}",
                damier::util::given(a.eps),
                eta.map(|e| format!(" η = {},", damier::util::given(e))).unwrap_or_default(),
                a.samples,
                crate::util::chart::label(a.exp.max_steps as f64)
            )],
            x: Axis { label: "n (board side, queens)".into(), scale: Scale::Integer },
            y: Axis { label: "steps".into(), scale: Scale::Log },
            curves,
            censored_note: "censored: some runs hit the cap or the budget, so the mean is a lower bound"
                .into(),
        };
        chart.draw(path)?;
    }
    report.print(a.out.json)?;
    Ok(ExitCode::SUCCESS)
}
