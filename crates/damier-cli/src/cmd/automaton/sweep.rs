//! `damier automaton sweep`: steps and moves to a solution against ε (fig. 5).

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use damier::automaton::experiment::{self, Summary, SweepPoint, SweepRecord};
use damier::automaton::{self as engine};
use damier::automaton::{Model, Params, Stop};

use crate::util::OutputArgs;
use crate::util::chart::{Axis, Chart, Curve, Interval, Point, Scale};
use crate::util::csv_file::{self, format};
use crate::util::output::Report;
use crate::util::progress::Progress;
use crate::util::{interrupt, output};

use super::shared::*;

/// Arguments of `damier automaton sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Update rule.
    #[arg(long, value_parser = model(), default_value = "pair")]
    model: Model,
    /// Board side.
    #[arg(short = 'n', long = "n", default_value_t = 8)]
    n: u32,
    /// The ε values, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "0.001,0.003,0.01,0.03,0.1,0.3")]
    eps: Vec<f64>,
    #[arg(long, help = eta_help())]
    eta: Option<f64>,
    /// Runs per ε.
    #[arg(long, default_value_t = 100, value_parser = crate::util::ranged::<u64>(1, 1_000_000))]
    samples: u64,
    #[command(flatten)]
    exp: ExperimentArgs,
    #[command(flatten)]
    out: OutputArgs,
}

pub(super) fn sweep(a: SweepArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(!a.eps.is_empty(), "--eps: the list of values is empty");
    for &e in &a.eps {
        check_probability("eps", e)?;
    }
    let eta = eta_for(&[a.model], a.eta)?;
    check_n(a.model, a.n)?;
    a.out.check()?;
    let seed = crate::util::pick_seed(a.exp.seed);
    let params = Params { model: a.model, n: a.n, eps: a.eps[0], eta: eta.unwrap_or(engine::DEFAULT_ETA) }
        .validated()?;
    let pool = crate::util::pool(a.exp.threads)?;
    // The runs the pool holds at once are refused before the start line when they cannot fit.
    pool.install(|| params.check_memory_of(a.samples.min(rayon::current_num_threads() as u64).max(1)))?;
    let control = interrupt::control();
    let clock = Instant::now();
    let points = {
        let runs = a.samples * a.eps.len() as u64;
        let what = format!(
            "{runs} runs of model {} at n = {} ({} per ε over {} values of ε, seed {seed})",
            params.model.number(),
            a.n,
            a.samples,
            a.eps.len()
        );
        let _bar = Progress::long_run(control, runs, "automaton sweep", &what);
        pool.install(|| {
            experiment::sweep(&params, &a.eps, a.samples as usize, seed, a.exp.max_steps, &Stop::new(control))
        })?
    };
    let report = SweepRecord {
        model: params.model,
        n: a.n,
        eta,
        seed,
        samples: a.samples,
        max_steps: a.exp.max_steps,
        points,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if let Some(path) = &a.out.csv {
        #[derive(serde::Serialize)]
        struct Line(#[serde(serialize_with = "format::plain")] f64, SummaryCells);
        let header: Vec<&str> = ["eps"].into_iter().chain(SUMMARY_HEADER).collect();
        let lines: Vec<Line> = report.points.iter().map(|p| Line(p.eps, (&p.summary).into())).collect();
        output::write_bytes(path, output::Durability::Synced, &csv_file::to_bytes_headed(&header, &lines)?)?;
    }
    if let Some(path) = &a.out.plot {
        // Censored runs (stopped at the step cap) make a point a lower bound: marked as such.
        let pick = |f: &dyn Fn(&Summary) -> Option<f64>, bars: bool| -> Vec<Point> {
            let point = |p: &SweepPoint, v: f64| Point {
                x: p.eps,
                y: v,
                interval: if bars { p.summary.ci95 } else { None },
                censored: p.summary.censored > 0,
            };
            report.points.iter().filter_map(|p| f(&p.summary).map(|v| point(p, v))).collect()
        };
        let curve = |name: &str, points: Vec<Point>, interval: Interval| Curve {
            name: name.into(),
            points,
            interval,
            line: true,
        };
        let chart = Chart {
            title: format!(
                "{} (n = {}): steps and moves to a first solution against ε",
                params.model.label(),
                a.n
            ),
            subtitle: vec![format!(
                "{} runs per ε,{} seed {seed}, each run capped at {} steps",
                a.samples,
                eta.map(|e| format!(" η = {},", damier::util::given(e))).unwrap_or_default(),
                crate::util::chart::label(a.exp.max_steps as f64)
            )],
            x: Axis { label: "ε (probability of a move to a dangerous cell)".into(), scale: Scale::Log },
            y: Axis { label: "steps, moves".into(), scale: Scale::Log },
            curves: vec![
                curve(
                    "mean steps (over the solved runs)",
                    pick(&|s| s.mean_steps, true),
                    Interval::Bars("95% confidence interval of the mean steps".into()),
                ),
                curve("median steps", pick(&|s| s.median_steps, false), Interval::None),
                curve("mean moves (over the solved runs)", pick(&|s| s.mean_moves, false), Interval::None),
            ],
            censored_note: "censored: some runs hit the step cap, so the value is a lower bound".into(),
        };
        chart.draw(path)?;
    }
    report.print(a.out.json)?;
    Ok(ExitCode::SUCCESS)
}
