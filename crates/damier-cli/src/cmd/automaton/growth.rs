//! `damier automaton growth`: mean cost against n for the three models and for min-conflicts
//! local search, with two fitted growth laws (exponential: the factor per n; power law: the
//! exponent of n) and their bootstrap intervals; runs the experiments, or redraws the table
//! and figure from per-run CSVs already measured.
//!
//! Per-run CSV (written by `--runs-out`, read by `--from`): the header
//! `series,n,seed,steps,moves,solved,cpu_s`, one line per run. `series` is `pair` (model 1),
//! `cell` (model 2), `row` (model 3: `steps` are generations) or `local` (min-conflicts); for
//! `local`, `steps` is the swaps evaluated
//! and `moves` counts every queen a greedy start places as one move and every swap made as
//! two. `cpu_s` is the run's CPU time in seconds, to the microsecond (empty when unknown;
//! files written before 2026-11-28 give milliseconds).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use damier::automaton::growth::{self, Analysis, GrowthPlan, GrowthResult, Measured, QuantityGrowth, Series};
use damier::automaton::{DEFAULT_ETA, Model};

use crate::report::automaton::{fit_text, power_text};
use crate::util::OutputArgs;
use crate::util::OutputPath;
use crate::util::chart::{Axis, Chart, Curve, Interval, Point, Scale};
use crate::util::csv_file::{self, Invalid, format};
use crate::util::output::{self, Report};
use crate::util::{interrupt, progress::Progress};

use super::scale::{parse_ns, parse_ns_up_to};
use super::shared::{check_probability, eta_for, eta_help, model, parse_rule};

/// The default sides of each model's runs (`--pair-n`, `--cell-n`, `--row-n`).
const PAIR_N: &str = "8,10,12,14";
const CELL_N: &str = "12,16,20,24";
const ROW_N: &str = "16,32,64,128,256";

/// Arguments of `damier automaton growth`.
#[derive(Debug, Args)]
pub struct GrowthArgs {
    /// Redraw from these per-run CSVs (repeatable) instead of running anything.
    #[arg(long, value_name = "F")]
    from: Vec<PathBuf>,
    /// Models to run, comma separated.
    #[arg(long, value_parser = model(), value_delimiter = ',', default_value = "pair,cell")]
    model: Vec<Model>,
    /// Board sides for model 1 (`A..B` or a list).
    #[arg(long, default_value = PAIR_N)]
    pair_n: String,
    /// Board sides for model 2.
    #[arg(long, default_value = CELL_N)]
    cell_n: String,
    /// Board sides for model 3 (run with `--model row`).
    #[arg(long, default_value = ROW_N)]
    row_n: String,
    /// Board sides for min-conflicts local search (none: empty string).
    #[arg(long, default_value = "12,16,20,24")]
    local_n: String,
    /// Runs per (series, n); run i has seed i (1-based), as `automaton run --seed i`.
    #[arg(long, default_value_t = 10, value_parser = crate::util::ranged::<u64>(1, 100_000))]
    samples: u64,
    /// ε [range: 0 to 1].
    #[arg(long, default_value_t = damier::automaton::DEFAULT_EPS)]
    eps: f64,
    #[arg(long, help = eta_help())]
    eta: Option<f64>,
    /// Model 3's rule, by name (the names of `automaton run --rule`) [default: kept]. The
    /// runs file does not record it: keep one file per rule.
    #[arg(long, value_name = "NAME", value_parser = parse_rule)]
    rule: Option<damier::automaton::row::RuleName>,
    /// Step cap of an automaton run (it is censored beyond); also applied to runs read with
    /// --from (a run that needed more is counted as censored).
    #[arg(long, default_value_t = super::shared::DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Step cap of model 1 runs [default: --max-steps] (one budget of CPU time is a different
    /// number of steps for each model).
    #[arg(long)]
    pair_max_steps: Option<u64>,
    /// Step cap of model 2 runs [default: --max-steps].
    #[arg(long)]
    cell_max_steps: Option<u64>,
    /// Step cap of model 3 runs, in generations [default: --max-steps].
    #[arg(long)]
    row_max_steps: Option<u64>,
    /// Worker threads, running runs side by side, each run on one thread (so its CPU time is
    /// its own) [default: all cores].
    #[arg(long, value_parser = crate::util::ranged::<u32>(1, damier::util::POOL_MAX_THREADS))]
    threads: Option<u32>,
    /// Write the per-run CSV (after running).
    #[arg(long, value_name = "F")]
    runs_out: Option<OutputPath>,
    /// Bootstrap resamples of the intervals (20 to 1000000: with none the fits printed their
    /// estimate as a 95% interval of zero width, with one an interval beside it).
    #[arg(long, default_value_t = 2000, value_parser = crate::util::ranged::<u64>(20, 1_000_000))]
    resamples: u64,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    boot_seed: u64,
    /// Fit only the n with at least this many runs (a single run adds no spread to the
    /// bootstrap, so it would make the interval look tighter than it is).
    #[arg(long, default_value_t = 3, value_parser = crate::util::ranged::<u64>(1, 100_000))]
    min_runs: u64,
    #[command(flatten)]
    out: OutputArgs,
}

impl GrowthArgs {
    /// Refuses a model's sides or step cap given without the model among those to run:
    /// `--model pair --cell-n 5` or `--row-max-steps 5` ran model 1 alone, the option
    /// silently ignored (where `--rule` without row was refused). Sides equal to the default,
    /// or none (`--cell-n ""`), are taken as not given.
    fn check_model_options(&self) -> anyhow::Result<()> {
        let sides = |given: &str, default: &str| !given.trim().is_empty() && given != default;
        let given = [
            (Model::Pair, "--pair-n", sides(&self.pair_n, PAIR_N)),
            (Model::Pair, "--pair-max-steps", self.pair_max_steps.is_some()),
            (Model::Cell, "--cell-n", sides(&self.cell_n, CELL_N)),
            (Model::Cell, "--cell-max-steps", self.cell_max_steps.is_some()),
            (Model::Row, "--row-n", sides(&self.row_n, ROW_N)),
            (Model::Row, "--row-max-steps", self.row_max_steps.is_some()),
        ];
        match given.into_iter().find(|&(m, _, g)| g && !self.model.contains(&m)) {
            Some((m, flag, _)) => {
                anyhow::bail!("{flag} sets the runs of {}: add {} to --model", m.label(), m.name())
            }
            None => Ok(()),
        }
    }

    /// The step cap of an automaton series.
    fn cap(&self, series: Series) -> u64 {
        match series {
            Series::Pair => self.pair_max_steps.unwrap_or(self.max_steps),
            Series::Row => self.row_max_steps.unwrap_or(self.max_steps),
            _ => self.cell_max_steps.unwrap_or(self.max_steps),
        }
    }
}

/// One run as the per-run CSV holds it.
#[derive(serde::Serialize, serde::Deserialize)]
struct RunRow {
    series: String,
    n: u32,
    seed: u64,
    steps: u64,
    moves: u64,
    /// `true` or `false` (`1` and `0` are read too).
    solved: String,
    #[serde(serialize_with = "format::micro_opt")]
    cpu_s: Option<f64>,
}

const RUNS_HEADER: [&str; 7] = ["series", "n", "seed", "steps", "moves", "solved", "cpu_s"];

impl From<&Measured> for RunRow {
    fn from(r: &Measured) -> RunRow {
        RunRow {
            series: r.series.name().into(),
            n: r.n,
            seed: r.seed,
            steps: r.steps,
            moves: r.moves,
            solved: r.solved.to_string(),
            cpu_s: r.cpu_s,
        }
    }
}

impl TryFrom<RunRow> for Measured {
    type Error = Invalid;

    fn try_from(r: RunRow) -> Result<Measured, Invalid> {
        let series = Series::from_name(&r.series).ok_or_else(|| {
            Invalid::column("series", format!("{:?} is not pair, cell, row or local", r.series))
        })?;
        let solved = match r.solved.as_str() {
            "true" | "1" => true,
            "false" | "0" => false,
            v => return Err(Invalid::column("solved", format!("{v:?} is neither true nor false"))),
        };
        // The sides the command line takes for the series (a run of n = 2^32 - 1 was read).
        let max = match series {
            Series::Row | Series::Local => damier::automaton::ROW_MAX_N,
            _ => damier::automaton::MAX_N,
        };
        if !(1..=max).contains(&r.n) {
            return Err(Invalid::column(
                "n",
                format!(
                    "{} is out of range: {} is supported for {}",
                    r.n,
                    damier::util::range(1, u64::from(max)),
                    series.name()
                ),
            ));
        }
        let cpu_s = r.cpu_s.map(|v| csv_file::seconds("cpu_s", v)).transpose()?;
        Ok(Measured { series, n: r.n, seed: r.seed, steps: r.steps, moves: r.moves, solved, cpu_s })
    }
}

/// One line of the summary CSV (`--csv`): one n of one quantity.
#[derive(serde::Serialize)]
struct SummaryRow<'a> {
    series: &'a str,
    n: u32,
    runs: usize,
    censored: usize,
    #[serde(serialize_with = "format::sci6_opt")]
    mean: Option<f64>,
    #[serde(serialize_with = "format::sci6_opt")]
    ci_low: Option<f64>,
    #[serde(serialize_with = "format::sci6_opt")]
    ci_high: Option<f64>,
    #[serde(serialize_with = "format::sci6_opt")]
    median: Option<f64>,
    #[serde(serialize_with = "format::micro_opt")]
    mean_cpu_s: Option<f64>,
}

/// Reads one per-run CSV; every field checked, errors name the file, line and column.
fn read_runs(path: &std::path::Path) -> anyhow::Result<Vec<Measured>> {
    csv_file::read(path, "a growth runs file", &[&RUNS_HEADER], |r: RunRow| Measured::try_from(r))
}

/// What to run, from the arguments (`eta`: checked by [`eta_for`]).
fn plan(a: &GrowthArgs, eta: f64) -> anyhow::Result<GrowthPlan> {
    let sides = |spec: &str, flag: &str| -> anyhow::Result<Vec<u32>> {
        if spec.trim().is_empty() {
            return Ok(Vec::new());
        }
        // Model 3 and min-conflicts run far past models 1 and 2.
        match flag {
            "--row-n" | "--local-n" => parse_ns_up_to(spec, flag, damier::automaton::ROW_MAX_N),
            _ => parse_ns(spec, flag),
        }
    };
    let mut sizes = Vec::new();
    if a.model.contains(&Model::Pair) {
        sizes.push((Series::Pair, sides(&a.pair_n, "--pair-n")?));
    }
    if a.model.contains(&Model::Cell) {
        sizes.push((Series::Cell, sides(&a.cell_n, "--cell-n")?));
    }
    if a.model.contains(&Model::Row) {
        sizes.push((Series::Row, sides(&a.row_n, "--row-n")?));
    }
    let local_ns = sides(&a.local_n, "--local-n")?;
    if let Some(&n) = local_ns.iter().find(|&&n| n == 2 || n == 3) {
        anyhow::bail!("--local-n: n = {n} has no solution");
    }
    sizes.push((Series::Local, local_ns));
    Ok(GrowthPlan {
        sizes,
        samples: a.samples,
        eps: a.eps,
        eta,
        pair_max_steps: a.cap(Series::Pair),
        cell_max_steps: a.cap(Series::Cell),
        row_max_steps: a.cap(Series::Row),
        row_rule: a.rule.unwrap_or(damier::automaton::row::RuleName::Kept),
    })
}

/// Runs the experiments on `--threads` workers, with a progress bar.
fn measure(a: &GrowthArgs, eta: f64) -> anyhow::Result<Vec<Measured>> {
    let plan = plan(a, eta)?;
    let jobs: usize = plan.sizes.iter().map(|(_, ns)| ns.len()).sum::<usize>() * a.samples as usize;
    anyhow::ensure!(jobs > 0, "nothing to run: every list of sizes is empty");
    let pool = crate::util::pool(a.threads)?;
    // The runs held at once are refused before the start line when they cannot fit.
    pool.install(|| plan.check_memory())?;
    let control = interrupt::control();
    let what = format!(
        "{jobs} runs ({} per series and n, {} series, seeds 1, 2, ...)",
        a.samples,
        plan.sizes.iter().filter(|(_, ns)| !ns.is_empty()).count()
    );
    let _bar = Progress::long_run(control, jobs as u64, "automaton growth", &what);
    Ok(pool.install(|| growth::measure(&plan, control))?)
}

/// The fit a figure's legend names: the better of the two laws (the exponential one when
/// they cannot be told apart).
fn legend_fit(s: &QuantityGrowth) -> String {
    match (s.better_fit, &s.fit, &s.power_fit) {
        (Some("power"), _, Some(p)) => format!(", fit {}", power_text(p)),
        (_, Some(f), _) => format!(", fit {}", fit_text(f)),
        _ => String::new(),
    }
}

/// The series a report holds, in the order of [`growth::QUANTITIES`].
fn series_ran(report: &GrowthResult) -> Vec<Series> {
    let mut ran: Vec<Series> = Vec::new();
    for q in growth::QUANTITIES {
        if !ran.contains(&q.series) && report.series.iter().any(|s| s.name == q.label) {
            ran.push(q.series);
        }
    }
    ran
}

/// `a`, `a and b`, `a, b and c`.
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What the figure shows, in its title: the models and searches that ran (issue 38,
/// section 3: it said "three models" when two ran).
fn what_ran(ran: &[Series]) -> String {
    let models: Vec<String> = ran.iter().filter_map(|s| s.model()).map(|m| m.number().to_string()).collect();
    let mut parts = Vec::new();
    match models.len() {
        0 => {}
        1 => parts.push(format!("the automaton (model {})", models[0])),
        _ => parts.push(format!("the automaton (models {})", listed(&models))),
    }
    if ran.contains(&Series::Local) {
        parts.push("min-conflicts".to_string());
    }
    listed(&parts)
}

/// The x axis of n: logarithmic when the sizes span a factor of 10 or more (model 3 and
/// min-conflicts from 16 to 10 000: a linear axis crushes every n below 1 000 against the
/// origin), else linear with integer ticks (models 1 and 2, n = 8 to 32).
fn n_axis(ns: impl Iterator<Item = u32>) -> Axis {
    let (low, high) = ns.fold((u32::MAX, 0), |(l, h), n| (l.min(n), h.max(n)));
    if low > 0 && high >= low.saturating_mul(10) {
        Axis { label: "n (board side, queens; log scale)".into(), scale: Scale::Log }
    } else {
        Axis { label: "n (board side, queens)".into(), scale: Scale::Integer }
    }
}

fn draw(report: &GrowthResult, path: &std::path::Path, a: &GrowthArgs) -> anyhow::Result<()> {
    let ran = series_ran(report);
    let caps: Vec<String> = ran
        .iter()
        .filter_map(|&s| {
            let cap = crate::util::chart::label(a.cap(s) as f64);
            Some(match s.model()? {
                Model::Row => format!("{cap} generations (model 3)"),
                m => format!("{cap} steps (model {})", m.number()),
            })
        })
        .collect();
    let curves = report
        .series
        .iter()
        .map(|s| {
            let fit = legend_fit(s);
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
        title: format!("cost of a first solution against n: {}", what_ran(&ran)),
        subtitle: vec![
            format!(
                "mean over the runs (seeds 1, 2, ...); ε = {}{}{}",
                damier::util::given(report.eps),
                report.eta.map(|e| format!(", η = {}", damier::util::given(e))).unwrap_or_default(),
                if caps.is_empty() { String::new() } else { format!("; runs capped at {}", listed(&caps)) }
            ),
            format!(
                "fit over the uncensored n, the better of ln mean = a + n ln r and a + k ln n; 95% bootstrap intervals ({} resamples, seed {})",
                a.resamples, a.boot_seed
            ),
        ],
        x: n_axis(report.series.iter().flat_map(|s| s.points.iter().map(|p| p.point.n))),
        y: Axis { label: "cell updates (steps), moves, swaps evaluated, CPU seconds".into(), scale: Scale::Log },
        curves,
        censored_note: "censored: some runs hit the cap, so the mean is a lower bound (not fitted)".into(),
    }
    .draw(path)
}

pub fn run(a: GrowthArgs) -> anyhow::Result<ExitCode> {
    check_probability("eps", a.eps)?;
    a.out.check()?;
    let clock = Instant::now();
    // η is checked against the models of the runs: those to run, or those the files hold.
    let (rows, eta) = if a.from.is_empty() {
        anyhow::ensure!(
            a.rule.is_none() || a.model.contains(&Model::Row),
            "--rule chooses model 3's rule: add row to --model"
        );
        a.check_model_options()?;
        let models: Vec<Model> = a.model.clone();
        let eta = eta_for(&models, a.eta)?;
        let rows = measure(&a, eta.unwrap_or(DEFAULT_ETA))?;
        if let Some(path) = &a.runs_out {
            let lines: Vec<RunRow> = rows.iter().map(RunRow::from).collect();
            output::write_bytes(path, output::Durability::Synced, &csv_file::to_bytes(&lines)?)?;
        }
        (rows, eta)
    } else {
        anyhow::ensure!(a.runs_out.is_none(), "--runs-out writes measured runs: it does not go with --from");
        anyhow::ensure!(
            a.rule.is_none(),
            "--rule chooses the rule of runs to make: it does not go with --from"
        );
        let mut rows = Vec::new();
        for p in &a.from {
            rows.extend(read_runs(p)?);
        }
        anyhow::ensure!(!rows.is_empty(), "the --from files hold no runs");
        let models: Vec<Model> = rows.iter().filter_map(|r| r.series.model()).collect();
        let eta = eta_for(&models, a.eta)?;
        (rows, eta)
    };
    let analysis = Analysis {
        pair_max_steps: a.cap(Series::Pair),
        cell_max_steps: a.cap(Series::Cell),
        row_max_steps: a.cap(Series::Row),
        resamples: a.resamples as usize,
        boot_seed: a.boot_seed,
        min_runs: a.min_runs,
    };
    let report = GrowthResult {
        eps: a.eps,
        eta,
        pair_max_steps: a.cap(Series::Pair),
        cell_max_steps: a.cap(Series::Cell),
        row_max_steps: a.cap(Series::Row),
        runs: rows.len(),
        resamples: a.resamples,
        boot_seed: a.boot_seed,
        series: growth::analyse(&rows, &analysis)?,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if let Some(path) = &a.out.csv {
        let mut lines = Vec::new();
        for sr in &report.series {
            for p in &sr.points {
                lines.push(SummaryRow {
                    series: sr.name,
                    n: p.point.n,
                    runs: p.point.runs,
                    censored: p.point.censored,
                    mean: p.point.mean,
                    ci_low: p.point.interval.map(|i| i.0),
                    ci_high: p.point.interval.map(|i| i.1),
                    median: p.point.median,
                    mean_cpu_s: p.mean_cpu_s,
                });
            }
        }
        output::write_bytes(path, output::Durability::Synced, &csv_file::to_bytes(&lines)?)?;
    }
    if let Some(path) = &a.out.plot {
        draw(&report, path, &a)?;
    }
    report.print(a.out.json)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_spanning_a_factor_of_ten_are_drawn_on_a_log_axis() {
        assert_eq!(n_axis([16, 32, 10_000].into_iter()).scale, Scale::Log);
        assert_eq!(n_axis([16, 160].into_iter()).scale, Scale::Log);
        assert_eq!(n_axis([8, 10, 12, 32].into_iter()).scale, Scale::Integer);
        assert_eq!(n_axis(std::iter::empty()).scale, Scale::Integer);
    }
}
