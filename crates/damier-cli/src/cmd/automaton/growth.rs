//! `damier automaton growth`: mean cost against n for both models and for min-conflicts local
//! search, with the fitted growth factor per n and its bootstrap interval; runs the
//! experiments, or redraws the table and figure from per-run CSVs already measured.
//!
//! Per-run CSV (written by `--runs-out`, read by `--from`): the header
//! `series,n,seed,steps,moves,solved,cpu_s`, one line per run. `series` is `pair` (model 1),
//! `cell` (model 2) or `local` (min-conflicts); for `local`, `steps` is the swaps evaluated
//! and `moves` counts every queen a greedy start places as one move and every swap made as
//! two. `cpu_s` is the run's CPU time in seconds (empty when unknown).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use damier::automaton::growth::{self, Fit, Run};
use damier::automaton::{Automaton, Params, Stop};
use damier::queens::local;
use rayon::prelude::*;

use super::scale::parse_ns;
use super::{ModelArg, OutputArgs, check_probability};
use crate::util::OutputPath;
use crate::util::output::{self, outln};
use crate::util::plot::{Axis, Chart, Curve, Interval, Point, Scale};
use crate::util::{interrupt, progress::Progress};

/// Arguments of `damier automaton growth`.
#[derive(Debug, Args)]
pub struct GrowthArgs {
    /// Redraw from these per-run CSVs (repeatable) instead of running anything.
    #[arg(long, value_name = "F")]
    from: Vec<PathBuf>,
    /// Models to run, comma separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "pair,cell")]
    model: Vec<ModelArg>,
    /// Board sides for model 1 (`A..B` or a list).
    #[arg(long, default_value = "8,10,12,14")]
    pair_n: String,
    /// Board sides for model 2.
    #[arg(long, default_value = "12,16,20,24")]
    cell_n: String,
    /// Board sides for min-conflicts local search (none: empty string).
    #[arg(long, default_value = "12,16,20,24")]
    local_n: String,
    /// Runs per (series, n); run i has seed i (1-based), as `automaton run --seed i`.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    samples: u64,
    /// ε [range: 0..=1].
    #[arg(long, default_value_t = damier::automaton::DEFAULT_EPS)]
    eps: f64,
    /// Model 2: η [range: 0..=1].
    #[arg(long, default_value_t = damier::automaton::DEFAULT_ETA)]
    eta: f64,
    /// Step cap of an automaton run (it is censored beyond); also applied to runs read with
    /// --from (a run that needed more is counted as censored).
    #[arg(long, default_value_t = super::DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Step cap of model 1 runs [default: --max-steps] (one budget of CPU time is a different
    /// number of steps for each model).
    #[arg(long)]
    pair_max_steps: Option<u64>,
    /// Step cap of model 2 runs [default: --max-steps].
    #[arg(long)]
    cell_max_steps: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Write the per-run CSV (after running).
    #[arg(long, value_name = "F")]
    runs_out: Option<OutputPath>,
    /// Bootstrap resamples of the intervals.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    resamples: u64,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    boot_seed: u64,
    /// Fit only the n with at least this many runs (a single run adds no spread to the
    /// bootstrap, so it would make the interval look tighter than it is).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    min_runs: u64,
    #[command(flatten)]
    out: OutputArgs,
}

impl GrowthArgs {
    /// The step cap of an automaton series.
    fn cap(&self, series: &str) -> u64 {
        match series {
            "pair" => self.pair_max_steps.unwrap_or(self.max_steps),
            _ => self.cell_max_steps.unwrap_or(self.max_steps),
        }
    }
}

/// One run as the per-run CSV holds it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
struct RunRow {
    series: String,
    n: u32,
    seed: u64,
    steps: u64,
    moves: u64,
    solved: bool,
    cpu_s: Option<f64>,
}

const RUNS_HEADER: &str = "series,n,seed,steps,moves,solved,cpu_s";

/// A cost to fit: which runs, which counter.
struct Quantity {
    series: &'static str,
    label: &'static str,
    moves: bool,
}

const QUANTITIES: [Quantity; 6] = [
    Quantity { series: "pair", label: "model 1 (pair): steps", moves: false },
    Quantity { series: "cell", label: "model 2 (cell): steps", moves: false },
    Quantity { series: "pair", label: "model 1 (pair): moves", moves: true },
    Quantity { series: "cell", label: "model 2 (cell): moves", moves: true },
    Quantity { series: "local", label: "min-conflicts: swaps evaluated", moves: false },
    Quantity { series: "local", label: "min-conflicts: moves", moves: true },
];

#[derive(serde::Serialize)]
struct PointReport {
    #[serde(flatten)]
    point: growth::Point,
    /// Mean CPU seconds per run (all runs with a known time).
    mean_cpu_s: Option<f64>,
}

#[derive(serde::Serialize)]
struct SeriesReport {
    name: &'static str,
    points: Vec<PointReport>,
    fit: Option<Fit>,
    /// Why there is no fit.
    fit_error: Option<String>,
}

#[derive(serde::Serialize)]
struct GrowthReport {
    eps: f64,
    eta: f64,
    pair_max_steps: u64,
    cell_max_steps: u64,
    runs: usize,
    resamples: u64,
    boot_seed: u64,
    series: Vec<SeriesReport>,
    seconds: f64,
}

/// CPU time of the calling thread, seconds (Linux; `None` elsewhere).
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

/// Reads one per-run CSV; every line checked, errors name the file and line.
fn read_runs(path: &PathBuf) -> anyhow::Result<Vec<RunRow>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, l)| l.trim());
    anyhow::ensure!(
        header == Some(RUNS_HEADER),
        "{}: not a growth runs file (the first line must be {RUNS_HEADER})",
        path.display()
    );
    let mut rows = Vec::new();
    for (i, line) in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = |what: &str| anyhow::anyhow!("{}:{}: {what}: {line:?}", path.display(), i + 1);
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 7 {
            return Err(bad("expected 7 fields"));
        }
        let series = f[0].to_string();
        if !matches!(series.as_str(), "pair" | "cell" | "local") {
            return Err(bad("series must be pair, cell or local"));
        }
        let num = |s: &str, what: &str| s.parse::<u64>().map_err(|_| bad(what));
        let n = u32::try_from(num(f[1], "bad n")?).map_err(|_| bad("n too large"))?;
        let cpu_s = match f[6] {
            "" => None,
            s => Some(
                s.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| bad("bad cpu_s"))?,
            ),
        };
        rows.push(RunRow {
            series,
            n,
            seed: num(f[2], "bad seed")?,
            steps: num(f[3], "bad steps")?,
            moves: num(f[4], "bad moves")?,
            solved: parse_bool(f[5]).ok_or_else(|| bad("solved must be true or false"))?,
            cpu_s,
        });
    }
    Ok(rows)
}

/// Runs the experiments: every (series, n, seed) job in parallel, results in job order.
fn measure(a: &GrowthArgs) -> anyhow::Result<Vec<RunRow>> {
    let mut jobs: Vec<(&'static str, u32, u64)> = Vec::new();
    let sides = |spec: &str| -> anyhow::Result<Vec<u32>> {
        if spec.trim().is_empty() {
            return Ok(Vec::new());
        }
        parse_ns(spec)
    };
    let mut add = |series: &'static str, ns: Vec<u32>| {
        for n in ns {
            jobs.extend((1..=a.samples).map(|s| (series, n, s)));
        }
    };
    if a.model.contains(&ModelArg::Pair) {
        add("pair", sides(&a.pair_n)?);
    }
    if a.model.contains(&ModelArg::Cell) {
        add("cell", sides(&a.cell_n)?);
    }
    let local_ns = sides(&a.local_n)?;
    if let Some(&n) = local_ns.iter().find(|&&n| n == 2 || n == 3) {
        anyhow::bail!("--local-n: n = {n} has no solution");
    }
    add("local", local_ns);
    anyhow::ensure!(!jobs.is_empty(), "nothing to run: every list of sizes is empty");
    let control = interrupt::control();
    let _bar = Progress::start(control, jobs.len() as u64, "growth");
    let pool = crate::util::pool(a.threads)?;
    let rows: anyhow::Result<Vec<RunRow>> = pool.install(|| {
        jobs.par_iter()
            .map(|&(series, n, seed)| -> anyhow::Result<RunRow> {
                let start = thread_cpu_seconds();
                let (steps, moves, solved) = if series == "local" {
                    let s = local::solve(n, seed, control)?.stats;
                    (s.swaps_tried, (u64::from(s.restarts) + 1) * u64::from(n) + 2 * s.swaps_made, true)
                } else {
                    let model = if series == "pair" { ModelArg::Pair } else { ModelArg::Cell };
                    let params = Params { eps: a.eps, eta: a.eta, ..Params::new(model.into(), n)? };
                    let mut aut = Automaton::from_seed(&params, seed)?;
                    let r = aut.run(a.cap(series), &Stop::new(control))?;
                    (r.steps, r.moves, r.solved)
                };
                control.advance(1);
                // Milliseconds, as the runs file stores them, so a redraw gives the same table.
                let cpu_s = start.zip(thread_cpu_seconds()).map(|(t0, t1)| ((t1 - t0) * 1e3).round() / 1e3);
                Ok(RunRow { series: series.to_string(), n, seed, steps, moves, solved, cpu_s })
            })
            .collect()
    });
    rows
}

/// The summaries and fits of every quantity present in `rows`.
fn analyse(rows: &[RunRow], a: &GrowthArgs) -> anyhow::Result<Vec<SeriesReport>> {
    let mut out = Vec::new();
    for q in &QUANTITIES {
        let mine: Vec<&RunRow> = rows.iter().filter(|r| r.series == q.series).collect();
        if mine.is_empty() {
            continue;
        }
        let runs: Vec<Run> = mine
            .iter()
            .map(|r| Run {
                n: r.n,
                // A run with no move (already a solution) still cost one unit of work.
                cost: (if q.moves { r.moves } else { r.steps }).max(1) as f64,
                censored: !r.solved || (q.series != "local" && r.steps > a.cap(q.series)),
            })
            .collect();
        let points = growth::points(&runs, a.resamples as usize, a.boot_seed)?;
        let count = |n: u32| runs.iter().filter(|r| r.n == n).count() as u64;
        let fitted: Vec<Run> = runs.iter().filter(|r| count(r.n) >= a.min_runs).copied().collect();
        let (fit, fit_error) = match growth::fit(&fitted, a.resamples as usize, a.boot_seed) {
            Ok(f) => (Some(f), None),
            Err(e) => (None, Some(format!("{e} (among the n with at least {} runs)", a.min_runs))),
        };
        let points = points
            .into_iter()
            .map(|p| {
                let times: Vec<f64> = mine.iter().filter(|r| r.n == p.n).filter_map(|r| r.cpu_s).collect();
                let mean_cpu_s = (!times.is_empty()).then(|| times.iter().sum::<f64>() / times.len() as f64);
                PointReport { point: p, mean_cpu_s }
            })
            .collect();
        out.push(SeriesReport { name: q.label, points, fit, fit_error });
    }
    Ok(out)
}

fn opt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.6e}")).unwrap_or_default()
}

fn short(v: Option<f64>) -> String {
    v.map(crate::util::plot::number).unwrap_or_else(|| "-".into())
}

fn fit_text(f: &Fit) -> String {
    format!("×{:.3} per n [{:.3}, {:.3}]", f.rate, f.rate_interval.0, f.rate_interval.1)
}

fn draw(report: &GrowthReport, path: &std::path::Path, a: &GrowthArgs) -> anyhow::Result<()> {
    let curves = report
        .series
        .iter()
        .map(|s| {
            let fit = s.fit.as_ref().map(|f| format!(", fit {}", fit_text(f))).unwrap_or_default();
            Curve {
                name: format!("{}{fit}", s.name),
                points: s
                    .points
                    .iter()
                    .filter_map(|p| {
                        Some(Point {
                            x: f64::from(p.point.n),
                            y: p.point.mean?,
                            interval: p.point.interval,
                            censored: p.point.censored > 0,
                        })
                    })
                    .collect(),
                interval: Interval::Bars(format!("{}: 95% interval of the mean", s.name)),
                line: true,
            }
        })
        .collect();
    Chart {
        title: "cost of a first solution against n: the automaton (both models) and min-conflicts".into(),
        subtitle: vec![
            format!(
                "mean over the runs (seeds 1, 2, ...); ε = {}, η = {}; runs capped at {} steps (model 1), {} (model 2)",
                a.eps,
                a.eta,
                crate::util::plot::number(a.cap("pair") as f64),
                crate::util::plot::number(a.cap("cell") as f64)
            ),
            format!(
                "fit: ln mean = a + n ln r over the uncensored n; r with its 95% bootstrap interval ({} resamples, seed {})",
                a.resamples, a.boot_seed
            ),
        ],
        x: Axis { label: "n (board side, queens)".into(), scale: Scale::Integer },
        y: Axis { label: "steps (updates), moves, swaps evaluated".into(), scale: Scale::Log },
        curves,
        censored_note: "censored: some runs hit the cap, so the mean is a lower bound (not fitted)".into(),
    }
    .draw(path)
}

pub fn run(a: GrowthArgs) -> anyhow::Result<ExitCode> {
    check_probability("eps", a.eps)?;
    check_probability("eta", a.eta)?;
    a.out.check()?;
    let clock = Instant::now();
    let rows = if a.from.is_empty() {
        let rows = measure(&a)?;
        if let Some(path) = &a.runs_out {
            let mut s = format!("{RUNS_HEADER}\n");
            for r in &rows {
                let cpu = r.cpu_s.map(|t| format!("{t:.3}")).unwrap_or_default();
                s += &format!("{},{},{},{},{},{},{cpu}\n", r.series, r.n, r.seed, r.steps, r.moves, r.solved);
            }
            output::write_atomic(path, s.as_bytes())?;
        }
        rows
    } else {
        anyhow::ensure!(a.runs_out.is_none(), "--runs-out writes measured runs: it does not go with --from");
        let mut rows = Vec::new();
        for p in &a.from {
            rows.extend(read_runs(p)?);
        }
        anyhow::ensure!(!rows.is_empty(), "the --from files hold no runs");
        rows
    };
    let report = GrowthReport {
        eps: a.eps,
        eta: a.eta,
        pair_max_steps: a.cap("pair"),
        cell_max_steps: a.cap("cell"),
        runs: rows.len(),
        resamples: a.resamples,
        boot_seed: a.boot_seed,
        series: analyse(&rows, &a)?,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if let Some(path) = &a.out.csv {
        let mut s = String::from("series,n,runs,censored,mean,ci_low,ci_high,median,mean_cpu_s\n");
        for sr in &report.series {
            for p in &sr.points {
                let (lo, hi) = (p.point.interval.map(|i| i.0), p.point.interval.map(|i| i.1));
                s += &format!(
                    "{},{},{},{},{},{},{},{},{}\n",
                    sr.name,
                    p.point.n,
                    p.point.runs,
                    p.point.censored,
                    opt(p.point.mean),
                    opt(lo),
                    opt(hi),
                    opt(p.point.median),
                    p.mean_cpu_s.map(|t| format!("{t:.3}")).unwrap_or_default()
                );
            }
        }
        output::write_atomic(path, s.as_bytes())?;
    }
    if let Some(path) = &a.out.plot {
        draw(&report, path, &a)?;
    }
    if a.out.json {
        output::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} runs; eps = {} eta = {}; censored beyond {} steps (model 1), {} (model 2); intervals: 95% bootstrap, {} resamples, seed {}",
        report.runs,
        a.eps,
        a.eta,
        report.pair_max_steps,
        report.cell_max_steps,
        a.resamples,
        a.boot_seed
    )?;
    for s in &report.series {
        outln!("\n{}", s.name)?;
        outln!(
            "{:>5} {:>5} {:>8} {:>10} {:>24} {:>10} {:>10}",
            "n",
            "runs",
            "censored",
            "mean",
            "95% interval",
            "median",
            "cpu s/run"
        )?;
        for p in &s.points {
            let ci = p.point.interval.map(|(l, h)| format!("[{}, {}]", short(Some(l)), short(Some(h))));
            outln!(
                "{:>5} {:>5} {:>8} {:>10} {:>24} {:>10} {:>10}",
                p.point.n,
                p.point.runs,
                p.point.censored,
                short(p.point.mean),
                ci.unwrap_or_else(|| "-".into()),
                short(p.point.median),
                p.mean_cpu_s.map(|t| format!("{t:.2}")).unwrap_or_else(|| "-".into())
            )?;
        }
        match (&s.fit, &s.fit_error) {
            (Some(f), _) => outln!("growth: {} (fitted on n = {:?})", fit_text(f), f.ns)?,
            (None, Some(e)) => outln!("growth: no fit: {e}")?,
            (None, None) => {}
        }
    }
    Ok(ExitCode::SUCCESS)
}
