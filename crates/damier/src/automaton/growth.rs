//! Growth of a search's cost with n: per-n means with bootstrap intervals, and two fitted
//! growth laws with their intervals.
//!
//! The exponential law `mean(n) = A r^n` is a straight line of `ln mean` against `n`, fitted
//! by least squares; `r = e^slope` is the factor by which one more queen multiplies the mean
//! cost ([`fit`]). The power law `mean(n) = A n^k` is a straight line of `ln mean` against
//! `ln n`; `k` is the exponent ([`fit_power`]). Both have two parameters and are fitted to the
//! same values, so their residual sums of squares (of `ln mean`) say which law the data
//! follow better. The intervals come from a seeded bootstrap over the runs: every resample
//! draws, at each n independently, as many runs as were made, with replacement, and refits;
//! the 2.5% and 97.5% quantiles of the refitted `r` (or `k`) bound it. Same samples and seed,
//! same numbers on any machine.
//!
//! Censored runs (stopped at a budget) make a mean a lower bound, so a point with any
//! censored run is reported but left out of the fit (a fit through lower bounds would
//! understate the growth); the fit needs at least two complete points. A point with a single
//! run adds no spread to the bootstrap, so callers should fit only points with several runs.
//!
//! The experiment behind `damier automaton growth` is here too: [`measure`] runs the three
//! models and min-conflicts local search over their sizes, [`analyse`] fits every
//! [`Quantity`].
//!
//! ```
//! use damier::automaton::growth::{RunCost, fit};
//!
//! // Costs that double with each n: the fitted growth factor per n is 2.
//! let runs: Vec<RunCost> = (4..=9)
//!     .flat_map(|n| [0.9, 1.1].map(|k| RunCost { n, cost: k * 2f64.powi(n as i32), censored: false }))
//!     .collect();
//! let f = fit(&runs, 200, 1).unwrap();
//! assert!((f.rate - 2.0).abs() < 1e-9);
//! assert!(f.rate_interval.0 <= f.rate && f.rate <= f.rate_interval.1);
//! ```

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;
use rayon::prelude::*;

use super::row::RuleName;
use super::{Automaton, Model, Params, Stop};
use crate::control::Control;
use crate::queens::local;
use crate::stats;
use crate::util::thread_cpu_seconds;

/// One run: its board side and its cost (steps, moves...), or the budget it hit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RunCost {
    /// Board side.
    pub n: u32,
    /// Cost of the run (for a censored run, what it had spent when stopped).
    pub cost: f64,
    /// The run was stopped before a solution.
    pub censored: bool,
}

/// The runs of one n, summarised.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Point {
    /// Board side.
    pub n: u32,
    /// Runs made.
    pub runs: usize,
    /// Runs stopped before a solution.
    pub censored: usize,
    /// Mean cost over the solved runs (a lower bound of the true mean when some are censored).
    pub mean: Option<f64>,
    /// 95% bootstrap interval of the mean (solved runs), `None` with fewer than 2 of them.
    pub interval: Option<(f64, f64)>,
    /// Median cost, censored runs counted as longer than every solved one (`None` when half or
    /// more are censored: the median is then unknown).
    pub median: Option<f64>,
}

/// The fitted growth `mean(n) = A r^n` of a series.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Fit {
    /// Factor per n: `e^slope` of `ln mean` against n.
    pub rate: f64,
    /// 95% bootstrap interval of `rate`.
    pub rate_interval: (f64, f64),
    /// `ln A`: the fitted `ln mean` at n = 0.
    pub intercept: f64,
    /// The n used (every point with at least one run and none censored).
    pub ns: Vec<u32>,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Seed of the bootstrap generator.
    pub seed: u64,
    /// Residual sum of squares of `ln mean` (compare with [`PowerFit::rss`]).
    pub rss: f64,
}

/// The fitted power law `mean(n) = A n^k` of a series.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PowerFit {
    /// The exponent `k`: slope of `ln mean` against `ln n`.
    pub exponent: f64,
    /// 95% bootstrap interval of `k`.
    pub exponent_interval: (f64, f64),
    /// `ln A`: the fitted `ln mean` at n = 1.
    pub intercept: f64,
    /// The n used (as [`Fit::ns`]).
    pub ns: Vec<u32>,
    /// Residual sum of squares of `ln mean` (compare with [`Fit::rss`]).
    pub rss: f64,
}

impl PowerFit {
    /// The fitted mean at `n`.
    pub fn at(&self, n: f64) -> f64 {
        (self.intercept + n.ln() * self.exponent).exp()
    }
}

impl Fit {
    /// The fitted mean at `n`.
    pub fn at(&self, n: f64) -> f64 {
        (self.intercept + n * self.rate.ln()).exp()
    }
}

/// Why a series cannot be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GrowthError {
    /// Fewer than two n without censored runs.
    #[error("a growth fit needs at least two values of n whose runs all solved; got {0}")]
    TooFewPoints(usize),
    /// A cost that is not a positive finite number (the log scale needs one).
    #[error("run at n = {n} has cost {cost}: costs must be positive and finite")]
    BadCost {
        /// Board side of the run.
        n: u32,
        /// The cost.
        cost: f64,
    },
}

/// The runs grouped by n, in increasing n, each group in input order.
fn by_n(runs: &[RunCost]) -> Vec<(u32, Vec<RunCost>)> {
    let mut ns: Vec<u32> = runs.iter().map(|r| r.n).collect();
    ns.sort_unstable();
    ns.dedup();
    ns.into_iter().map(|n| (n, runs.iter().filter(|r| r.n == n).copied().collect())).collect()
}

fn check_costs(runs: &[RunCost]) -> Result<(), GrowthError> {
    match runs.iter().find(|r| !(r.cost.is_finite() && r.cost > 0.0)) {
        Some(r) => Err(GrowthError::BadCost { n: r.n, cost: r.cost }),
        None => Ok(()),
    }
}

/// Per-n summaries of `runs` (any order), in increasing n; intervals from `resamples`
/// bootstrap resamples drawn from `seed`.
pub fn points(runs: &[RunCost], resamples: usize, seed: u64) -> Result<Vec<Point>, GrowthError> {
    check_costs(runs)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    Ok(by_n(runs)
        .into_iter()
        .map(|(n, group)| {
            let solved: Vec<f64> = group.iter().filter(|r| !r.censored).map(|r| r.cost).collect();
            let censored = group.len() - solved.len();
            let interval = (solved.len() >= 2 && resamples > 0).then(|| {
                let mut means: Vec<f64> =
                    (0..resamples).map(|_| stats::resampled_mean(&mut rng, &solved)).collect();
                stats::central95(&mut means)
            });
            Point {
                n,
                runs: group.len(),
                censored,
                mean: stats::mean(&solved),
                interval,
                median: stats::censored_median(group.iter().map(|r| (!r.censored).then_some(r.cost))),
            }
        })
        .collect())
}

/// Fits `mean(n) = A r^n` to the points of `runs` without censored runs, with a 95%
/// bootstrap interval of `r` from `resamples` resamples drawn from `seed`.
pub fn fit(runs: &[RunCost], resamples: usize, seed: u64) -> Result<Fit, GrowthError> {
    let line = fit_line(runs, resamples, seed, f64::from)?;
    let rate = line.slope.exp();
    Ok(Fit {
        rate,
        rate_interval: (line.interval.0.exp(), line.interval.1.exp()),
        intercept: line.intercept,
        ns: line.ns,
        resamples,
        seed,
        rss: line.rss,
    })
}

/// Fits `mean(n) = A n^k` to the points of `runs` without censored runs, with a 95%
/// bootstrap interval of `k` from `resamples` resamples drawn from `seed`.
pub fn fit_power(runs: &[RunCost], resamples: usize, seed: u64) -> Result<PowerFit, GrowthError> {
    let line = fit_line(runs, resamples, seed, |n| f64::from(n).ln())?;
    Ok(PowerFit {
        exponent: line.slope,
        exponent_interval: line.interval,
        intercept: line.intercept,
        ns: line.ns,
        rss: line.rss,
    })
}

/// A least-squares line of `ln mean` against `x(n)` with the bootstrap interval of its slope.
struct Line {
    slope: f64,
    interval: (f64, f64),
    intercept: f64,
    ns: Vec<u32>,
    rss: f64,
}

fn fit_line(runs: &[RunCost], resamples: usize, seed: u64, x: fn(u32) -> f64) -> Result<Line, GrowthError> {
    check_costs(runs)?;
    let complete: Vec<(u32, Vec<f64>)> = by_n(runs)
        .into_iter()
        .filter(|(_, g)| g.iter().all(|r| !r.censored))
        .map(|(n, g)| (n, g.iter().map(|r| r.cost).collect()))
        .collect();
    if complete.len() < 2 {
        return Err(GrowthError::TooFewPoints(complete.len()));
    }
    let xs: Vec<f64> = complete.iter().map(|(n, _)| x(*n)).collect();
    let line = |means: &mut dyn FnMut(&[f64]) -> f64| {
        let ys: Vec<f64> = complete.iter().map(|(_, c)| means(c).ln()).collect();
        stats::least_squares(&xs, &ys)
    };
    // Every group holds at least one run (`by_n`).
    let mean = |c: &[f64]| stats::mean(c).unwrap_or(f64::NAN);
    let (slope, intercept) = line(&mut |c| mean(c));
    let rss =
        complete.iter().zip(&xs).map(|((_, c), x)| (mean(c).ln() - intercept - slope * x).powi(2)).sum();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut slopes: Vec<f64> =
        (0..resamples).map(|_| line(&mut |c| stats::resampled_mean(&mut rng, c)).0).collect();
    let interval = if slopes.is_empty() { (slope, slope) } else { stats::central95(&mut slopes) };
    Ok(Line { slope, interval, intercept, ns: complete.iter().map(|(n, _)| *n).collect(), rss })
}

/// The searches the growth experiment compares (the `series` of its per-run CSV).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Series {
    /// The automaton, model 1 (adjacent pairs).
    Pair,
    /// The automaton, model 2 (cells).
    Cell,
    /// The automaton, model 3 (queens walking along their rows).
    Row,
    /// Min-conflicts local search ([`crate::queens::local`]).
    Local,
}

impl Series {
    /// The name in files: `pair`, `cell`, `row` or `local`.
    pub fn name(self) -> &'static str {
        match self {
            Series::Pair => "pair",
            Series::Cell => "cell",
            Series::Row => "row",
            Series::Local => "local",
        }
    }

    /// The series called `name` ([`Series::name`]).
    pub fn from_name(name: &str) -> Option<Series> {
        [Series::Pair, Series::Cell, Series::Row, Series::Local].into_iter().find(|s| s.name() == name)
    }

    /// The automaton model of an automaton series.
    pub fn model(self) -> Option<Model> {
        match self {
            Series::Pair => Some(Model::Pair),
            Series::Cell => Some(Model::Cell),
            Series::Row => Some(Model::Row),
            Series::Local => None,
        }
    }
}

/// One measured run of the growth experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The search.
    pub series: Series,
    /// Board side.
    pub n: u32,
    /// Seed of the run (1, 2, ...: the automaton's `run --seed`).
    pub seed: u64,
    /// Updates made (automaton: generations for model 3), or swaps evaluated (local search).
    pub steps: u64,
    /// Effective queen moves (automaton); for local search every queen its greedy starts
    /// place counts as one move and every swap made as two.
    pub moves: u64,
    /// The run reached a solution.
    pub solved: bool,
    /// CPU time of the run's thread, seconds, rounded to microseconds (`None` where unknown).
    pub cpu_s: Option<f64>,
}

/// What the growth experiment runs: [`measure`]'s settings.
#[derive(Clone, Debug, PartialEq)]
pub struct GrowthPlan {
    /// The board sides of each search to run.
    pub sizes: Vec<(Series, Vec<u32>)>,
    /// Runs per (series, n); run `i` has seed `i` (1-based).
    pub samples: u64,
    /// ε of the models.
    pub eps: f64,
    /// η of model 2.
    pub eta: f64,
    /// Step cap of a model 1 run.
    pub pair_max_steps: u64,
    /// Step cap of a model 2 run.
    pub cell_max_steps: u64,
    /// Step cap (generations) of a model 3 run.
    pub row_max_steps: u64,
    /// Model 3's rule.
    pub row_rule: RuleName,
}

impl GrowthPlan {
    /// Refuses, before any run, a plan whose largest automaton runs cannot fit the address
    /// space side by side, one on each of the current rayon pool's threads
    /// ([`Params::check_memory_of`]): model 3 at n = 16 384 aborted the process under a 1 GB
    /// limit once the smaller runs were done.
    pub fn check_memory(&self) -> Result<(), MeasureError> {
        let automata: usize =
            self.sizes.iter().filter(|(series, _)| series.model().is_some()).map(|(_, ns)| ns.len()).sum();
        let at_once = (self.samples as usize * automata).min(rayon::current_num_threads()).max(1) as u64;
        for (series, ns) in &self.sizes {
            if let (Some(model), Some(&n)) = (series.model(), ns.iter().max()) {
                Params::new(model, n)?.check_memory_of(at_once)?;
            }
        }
        Ok(())
    }

    /// The step cap of an automaton series (local search has none: `u64::MAX`).
    pub fn cap(&self, series: Series) -> u64 {
        match series {
            Series::Pair => self.pair_max_steps,
            Series::Cell => self.cell_max_steps,
            Series::Row => self.row_max_steps,
            Series::Local => u64::MAX,
        }
    }
}

/// Why the growth experiment could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeasureError {
    /// Every list of sizes is empty.
    #[error("nothing to run: every list of sizes is empty")]
    Empty,
    /// Bad parameters of an automaton run.
    #[error(transparent)]
    Params(#[from] super::AutomatonError),
    /// A local search that cannot run (no solution, too large) or was cancelled.
    #[error(transparent)]
    Local(#[from] crate::queens::local::LocalError),
    /// Cancelled.
    #[error("interrupted")]
    Interrupted(#[from] crate::control::Interrupted),
}

/// Runs the experiment of `plan` on the current rayon pool: every (series, n, seed) job in
/// parallel, results in job order (series, then n, then seed). Advances `control` by one per
/// finished run.
pub fn measure(plan: &GrowthPlan, control: &Control) -> Result<Vec<Measured>, MeasureError> {
    let jobs: Vec<(Series, u32, u64)> = plan
        .sizes
        .iter()
        .flat_map(|(series, ns)| {
            ns.iter().flat_map(move |&n| (1..=plan.samples).map(move |s| (*series, n, s)))
        })
        .collect();
    if jobs.is_empty() {
        return Err(MeasureError::Empty);
    }
    plan.check_memory()?;
    jobs.par_iter()
        .map(|&(series, n, seed)| -> Result<Measured, MeasureError> {
            // A run and its thread's CPU time, in microseconds as the runs file stores them,
            // so a redraw gives the same table (milliseconds made min-conflicts' runs below
            // n = 1 000 cost 0).
            let timed = |run: &dyn Fn() -> Result<(u64, u64, bool), MeasureError>| {
                let start = thread_cpu_seconds();
                let r = run()?;
                let cpu_s = start.zip(thread_cpu_seconds()).map(|(t0, t1)| ((t1 - t0) * 1e6).round() / 1e6);
                Ok::<_, MeasureError>((r, cpu_s))
            };
            let ((steps, moves, solved), cpu_s) = match series {
                Series::Local => timed(&|| {
                    // `local::solve` advances its control by rows, and the growth's progress
                    // counts runs: the search reports into a control of its own, and Ctrl-C
                    // is seen between runs (a run at the CLI's largest n, ROW_MAX_N, takes
                    // about a millisecond).
                    if control.cancelled() {
                        return Err(crate::control::Interrupted.into());
                    }
                    let s = local::solve(n, seed, &Control::new())?.stats;
                    Ok((s.swaps_tried, (u64::from(s.restarts) + 1) * u64::from(n) + 2 * s.swaps_made, true))
                })?,
                Series::Pair | Series::Cell | Series::Row => {
                    let model = series.model().expect("an automaton series");
                    let params = Params { eps: plan.eps, eta: plan.eta, ..Params::new(model, n)? };
                    let run = || {
                        let mut aut = Automaton::from_seed_under(&params, plan.row_rule, seed)?;
                        let r = aut.run_until(plan.cap(series), &Stop::new(control))?;
                        Ok((r.steps, r.moves, r.solved))
                    };
                    // A run's time is its thread's, and from n = PARALLEL_N model 3 would
                    // share each generation's rows with the pool's other workers, their time
                    // uncounted: each run keeps to a pool of one thread (the same trajectory
                    // on any thread count), and the cores run the runs side by side instead.
                    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                        Ok(solo) => solo.install(|| timed(&run))?,
                        // No thread to be had: on the calling one (model 3's time may then
                        // leave out the other workers' share).
                        Err(_) => timed(&run)?,
                    }
                }
            };
            control.advance(1);
            Ok(Measured { series, n, seed, steps, moves, solved, cpu_s })
        })
        .collect()
}

/// Which counter of a run a [`Quantity`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// Steps (updates; generations for model 3; swaps evaluated for local search).
    Steps,
    /// Effective moves.
    Moves,
    /// Cell updates: steps times the cells one step updates (`n^2` for model 3, 1 otherwise),
    /// the unit models 1 and 2 count their steps in.
    CellUpdates,
    /// The run's CPU seconds (runs without a time, or with a time of 0, below the resolution
    /// it was kept at, are left out): the one unit in which the models and min-conflicts
    /// compare.
    CpuSeconds,
}

/// A cost to fit: which runs, which counter.
#[derive(Clone, Copy, Debug)]
pub struct Quantity {
    /// The runs.
    pub series: Series,
    /// Its name in tables and figures.
    pub label: &'static str,
    /// The counter.
    pub counter: Counter,
}

/// The quantities of the growth experiment, in the order they are reported.
pub const QUANTITIES: [Quantity; 13] = [
    Quantity { series: Series::Pair, label: "model 1 (pair): steps", counter: Counter::Steps },
    Quantity { series: Series::Cell, label: "model 2 (cell): steps", counter: Counter::Steps },
    Quantity { series: Series::Row, label: "model 3 (row): cell updates", counter: Counter::CellUpdates },
    Quantity { series: Series::Pair, label: "model 1 (pair): moves", counter: Counter::Moves },
    Quantity { series: Series::Cell, label: "model 2 (cell): moves", counter: Counter::Moves },
    Quantity { series: Series::Row, label: "model 3 (row): moves", counter: Counter::Moves },
    Quantity { series: Series::Row, label: "model 3 (row): generations", counter: Counter::Steps },
    Quantity { series: Series::Local, label: "min-conflicts: swaps evaluated", counter: Counter::Steps },
    Quantity { series: Series::Local, label: "min-conflicts: moves", counter: Counter::Moves },
    Quantity { series: Series::Pair, label: "model 1 (pair): CPU seconds", counter: Counter::CpuSeconds },
    Quantity { series: Series::Cell, label: "model 2 (cell): CPU seconds", counter: Counter::CpuSeconds },
    Quantity { series: Series::Row, label: "model 3 (row): CPU seconds", counter: Counter::CpuSeconds },
    Quantity { series: Series::Local, label: "min-conflicts: CPU seconds", counter: Counter::CpuSeconds },
];

/// One n of a quantity: its [`Point`] and the mean CPU time of its runs.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CostPoint {
    /// The cost's statistics.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub point: Point,
    /// Mean CPU seconds per run (all runs with a known time).
    pub mean_cpu_s: Option<f64>,
}

/// One quantity analysed: its points and its growth fit.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct QuantityGrowth {
    /// The quantity's label ([`Quantity::label`]).
    pub name: &'static str,
    /// Per n, increasing.
    pub points: Vec<CostPoint>,
    /// The exponential fit over the n with enough runs.
    pub fit: Option<Fit>,
    /// The power-law fit over the same n.
    pub power_fit: Option<PowerFit>,
    /// The law with the smaller residuals ([`better_fit`]).
    pub better_fit: Option<&'static str>,
    /// Why there is no fit.
    pub fit_error: Option<String>,
}

/// The law with the smaller residual sum of squares: `"power"` or `"exponential"` (`None`
/// without both fits, or with fewer than three points, where both lines are exact).
pub fn better_fit(fit: Option<&Fit>, power: Option<&PowerFit>) -> Option<&'static str> {
    let (e, p) = (fit?, power?);
    (e.ns.len() >= 3).then_some(if p.rss < e.rss { "power" } else { "exponential" })
}

/// How [`analyse`] judges and fits the runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Analysis {
    /// Step cap of model 1: a run that needed more counts as censored.
    pub pair_max_steps: u64,
    /// Step cap of model 2.
    pub cell_max_steps: u64,
    /// Step cap (generations) of model 3.
    pub row_max_steps: u64,
    /// Bootstrap resamples of the intervals.
    pub resamples: usize,
    /// Seed of the bootstrap.
    pub boot_seed: u64,
    /// Fit only the n with at least this many runs.
    pub min_runs: u64,
}

/// The statistics and growth fits of every quantity present in `rows`. A run is censored
/// when unsolved or, for the automaton, when it needed more steps than its series' cap (so
/// runs measured with a higher cap are judged by the same one); a run with no move still
/// cost one unit of work.
pub fn analyse(rows: &[Measured], a: &Analysis) -> Result<Vec<QuantityGrowth>, GrowthError> {
    let cap = |s: Series| match s {
        Series::Pair => a.pair_max_steps,
        Series::Cell => a.cell_max_steps,
        Series::Row => a.row_max_steps,
        Series::Local => u64::MAX,
    };
    let mut out = Vec::new();
    for q in &QUANTITIES {
        // A time of 0 is below the clock's or the file's resolution (files before 2026-11-28
        // kept milliseconds): not a measurement, so it is left out of the CPU seconds.
        let timed = |r: &Measured| q.counter != Counter::CpuSeconds || r.cpu_s.is_some_and(|t| t > 0.0);
        let mine: Vec<&Measured> = rows.iter().filter(|r| r.series == q.series && timed(r)).collect();
        if mine.is_empty() {
            continue;
        }
        let runs: Vec<RunCost> = mine
            .iter()
            .map(|r| {
                let cells = if q.series == Series::Row { f64::from(r.n) * f64::from(r.n) } else { 1.0 };
                let cost = match q.counter {
                    Counter::Steps => r.steps.max(1) as f64,
                    Counter::Moves => r.moves.max(1) as f64,
                    Counter::CellUpdates => r.steps.max(1) as f64 * cells,
                    Counter::CpuSeconds => r.cpu_s.unwrap_or(0.0),
                };
                RunCost { n: r.n, cost, censored: !r.solved || r.steps > cap(q.series) }
            })
            .collect();
        let points = points(&runs, a.resamples, a.boot_seed)?;
        let count = |n: u32| runs.iter().filter(|r| r.n == n).count() as u64;
        let fitted: Vec<RunCost> = runs.iter().filter(|r| count(r.n) >= a.min_runs).copied().collect();
        let (fit, fit_error) = match fit(&fitted, a.resamples, a.boot_seed) {
            Ok(f) => (Some(f), None),
            Err(e) => (None, Some(format!("{e} (among the n with at least {} runs)", a.min_runs))),
        };
        let power_fit = fit_power(&fitted, a.resamples, a.boot_seed).ok();
        let points = points
            .into_iter()
            .map(|p| {
                let times: Vec<f64> = mine.iter().filter(|r| r.n == p.n).filter_map(|r| r.cpu_s).collect();
                CostPoint { mean_cpu_s: stats::mean(&times), point: p }
            })
            .collect();
        let better_fit = better_fit(fit.as_ref(), power_fit.as_ref());
        out.push(QuantityGrowth { name: q.label, points, fit, power_fit, better_fit, fit_error });
    }
    Ok(out)
}

/// The whole growth experiment: settings, runs counted, each quantity analysed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GrowthResult {
    /// ε of the models.
    pub eps: f64,
    /// η of model 2's runs, `None` when the experiment has none ([`Model::uses_eta`]).
    pub eta: Option<f64>,
    /// Step cap of model 1.
    pub pair_max_steps: u64,
    /// Step cap of model 2.
    pub cell_max_steps: u64,
    /// Step cap (generations) of model 3.
    pub row_max_steps: u64,
    /// Runs analysed.
    pub runs: usize,
    /// Bootstrap resamples.
    pub resamples: u64,
    /// Seed of the bootstrap.
    pub boot_seed: u64,
    /// Each quantity present, in the order of [`QUANTITIES`].
    pub series: Vec<QuantityGrowth>,
    /// Wall time, seconds.
    pub seconds: f64,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand_xoshiro::rand_core::Rng;

    use super::*;

    fn run(n: u32, cost: f64) -> RunCost {
        RunCost { n, cost, censored: false }
    }

    /// Exact exponential data: every run at n costs `a r^n`.
    fn exact(a: f64, r: f64, ns: &[u32], per_n: usize) -> Vec<RunCost> {
        ns.iter().flat_map(|&n| (0..per_n).map(move |_| run(n, a * r.powi(n as i32)))).collect()
    }

    /// Seeded noisy data: exponentially distributed costs (the law of a memoryless search's
    /// time) with mean `a r^n`, `per_n` runs per n.
    fn noisy(a: f64, r: f64, ns: &[u32], per_n: usize, seed: u64) -> Vec<RunCost> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut out = Vec::new();
        for &n in ns {
            for _ in 0..per_n {
                let u = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
                out.push(run(n, -a * r.powi(n as i32) * u.ln()));
            }
        }
        out
    }

    #[test]
    fn exact_exponential_data_gives_the_exact_rate() {
        let runs = exact(3.0, 1.7, &[10, 12, 14, 16, 18], 10);
        let f = fit(&runs, 200, 1).unwrap();
        assert!((f.rate - 1.7).abs() < 1e-12, "{f:?}");
        assert!((f.rate_interval.0 - 1.7).abs() < 1e-12 && (f.rate_interval.1 - 1.7).abs() < 1e-12);
        assert!((f.intercept - 3f64.ln()).abs() < 1e-9);
        assert!((f.at(20.0) / (3.0 * 1.7f64.powi(20)) - 1.0).abs() < 1e-9);
        assert_eq!(f.ns, vec![10, 12, 14, 16, 18]);
    }

    #[test]
    fn the_interval_covers_the_truth_on_seeded_noisy_data() {
        // 10 runs per n, as in the experiments; 40 independent data sets. A 95% interval
        // should miss a few at most (the percentile bootstrap runs a little narrow with 10
        // runs, so the bound is loose); every estimate lands near the truth.
        let ns = [20, 22, 24, 26, 28, 30, 32];
        let mut covered = 0;
        for seed in 0..40 {
            let f = fit(&noisy(50.0, 1.5, &ns, 10, seed), 400, 7).unwrap();
            assert!(f.rate_interval.0 <= f.rate && f.rate <= f.rate_interval.1, "{f:?}");
            assert!((f.rate / 1.5 - 1.0).abs() < 0.15, "{f:?}");
            covered += usize::from(f.rate_interval.0 <= 1.5 && 1.5 <= f.rate_interval.1);
        }
        assert!(covered >= 32, "the interval covered the true rate in {covered} of 40 data sets");
    }

    #[test]
    fn the_same_seed_gives_the_same_interval() {
        let runs = noisy(1.0, 2.0, &[4, 5, 6, 7], 10, 3);
        assert_eq!(fit(&runs, 300, 9).unwrap(), fit(&runs, 300, 9).unwrap());
        assert_eq!(points(&runs, 300, 9).unwrap(), points(&runs, 300, 9).unwrap());
        assert_ne!(fit(&runs, 300, 9).unwrap().rate_interval, fit(&runs, 300, 10).unwrap().rate_interval);
    }

    #[test]
    fn censored_points_are_reported_but_not_fitted() {
        let mut runs = exact(1.0, 2.0, &[4, 6, 8], 4);
        runs.push(RunCost { n: 10, cost: 300.0, censored: true });
        runs.push(run(10, 2000.0));
        let f = fit(&runs, 100, 1).unwrap();
        assert_eq!(f.ns, vec![4, 6, 8]);
        assert!((f.rate - 2.0).abs() < 1e-12);
        let p = points(&runs, 100, 1).unwrap();
        let last = p.last().unwrap();
        assert_eq!((last.n, last.runs, last.censored, last.mean), (10, 2, 1, Some(2000.0)));
        // One censored run of two: the median is unknown.
        assert_eq!(last.median, None);
        assert_eq!(p[0].median, Some(16.0));
    }

    #[test]
    fn medians_count_censored_runs_as_the_longest() {
        let mut runs: Vec<RunCost> = [5.0, 1.0, 3.0, 2.0].iter().map(|&c| run(7, c)).collect();
        runs.push(RunCost { n: 7, cost: 0.5, censored: true });
        // Order: 1, 2, 3, 5, censored: the median is 3.
        assert_eq!(points(&runs, 0, 1).unwrap()[0].median, Some(3.0));
    }

    #[test]
    fn bad_input_is_refused() {
        assert_eq!(fit(&exact(1.0, 2.0, &[5], 3), 10, 1), Err(GrowthError::TooFewPoints(1)));
        let mut runs = exact(1.0, 2.0, &[5, 6], 3);
        runs[0].cost = 0.0;
        assert_eq!(fit(&runs, 10, 1), Err(GrowthError::BadCost { n: 5, cost: 0.0 }));
        runs[0].cost = f64::NAN;
        assert!(points(&runs, 10, 1).is_err());
        assert_eq!(fit(&[], 10, 1), Err(GrowthError::TooFewPoints(0)));
    }

    proptest! {
        /// With two points the fit is the line through them (the two-point growth ratio),
        /// whatever the data.
        #[test]
        fn two_points_give_the_two_point_ratio(a in proptest::collection::vec(1.0f64..1e9, 1..6), b in proptest::collection::vec(1.0f64..1e9, 1..6), n in 1u32..40, gap in 1u32..5) {
            let runs: Vec<RunCost> = a.iter().map(|&c| run(n, c)).chain(b.iter().map(|&c| run(n + gap, c))).collect();
            let f = fit(&runs, 0, 1).unwrap();
            let want = (stats::mean(&b).unwrap() / stats::mean(&a).unwrap()).powf(1.0 / f64::from(gap));
            prop_assert!((f.rate / want - 1.0).abs() < 1e-9, "{} vs {}", f.rate, want);
            prop_assert_eq!(f.rate_interval, (f.rate, f.rate));
        }

        /// The order of the runs does not matter, and scaling every cost scales A only.
        #[test]
        fn order_and_scale_do_not_change_the_rate(seed in any::<u64>(), k in 0.001f64..1000.0) {
            let runs = noisy(2.0, 1.3, &[8, 9, 10, 11], 5, seed);
            let f = fit(&runs, 0, 1).unwrap();
            let mut reversed = runs.clone();
            reversed.reverse();
            prop_assert!((fit(&reversed, 0, 1).unwrap().rate / f.rate - 1.0).abs() < 1e-12);
            let scaled: Vec<RunCost> = runs.iter().map(|r| RunCost { cost: r.cost * k, ..*r }).collect();
            let g = fit(&scaled, 0, 1).unwrap();
            prop_assert!((g.rate / f.rate - 1.0).abs() < 1e-9);
            prop_assert!((g.intercept - f.intercept - k.ln()).abs() < 1e-9);
        }
    }

    fn measured(series: Series, n: u32, seed: u64, steps: u64, moves: u64, solved: bool) -> Measured {
        Measured { series, n, seed, steps, moves, solved, cpu_s: Some(0.5) }
    }

    #[test]
    fn measure_runs_every_job_in_order_and_replays_each_run() {
        let plan = GrowthPlan {
            sizes: vec![(Series::Pair, vec![6]), (Series::Local, vec![8, 10])],
            samples: 2,
            eps: super::super::DEFAULT_EPS,
            eta: super::super::DEFAULT_ETA,
            pair_max_steps: 100_000_000,
            cell_max_steps: 1,
            row_max_steps: 1_000_000,
            row_rule: RuleName::Kept,
        };
        let control = Control::new();
        let rows = measure(&plan, &control).unwrap();
        let jobs: Vec<(Series, u32, u64)> = rows.iter().map(|r| (r.series, r.n, r.seed)).collect();
        assert_eq!(
            jobs,
            [
                (Series::Pair, 6, 1),
                (Series::Pair, 6, 2),
                (Series::Local, 8, 1),
                (Series::Local, 8, 2),
                (Series::Local, 10, 1),
                (Series::Local, 10, 2)
            ]
        );
        assert!(rows.iter().all(|r| r.solved));
        // One unit of progress per run, not the search's rows too (it was 78 here: 6 runs and
        // 2n rows for each of the 4 min-conflicts runs).
        assert_eq!(control.done(), 6);
        // The automaton run is `automaton run --seed` replayed; the local search counts a
        // greedy start's queens and two moves per swap made.
        let params = Params { eps: plan.eps, eta: plan.eta, ..Params::new(Model::Pair, 6).unwrap() };
        let r = Automaton::from_seed(&params, 2).unwrap().run_until(u64::MAX, &Stop::new(&control)).unwrap();
        assert_eq!((rows[1].steps, rows[1].moves), (r.steps, r.moves));
        let s = local::solve(10, 1, &control).unwrap().stats;
        assert_eq!(rows[4].steps, s.swaps_tried);
        assert_eq!(rows[4].moves, (u64::from(s.restarts) + 1) * 10 + 2 * s.swaps_made);
        let none = GrowthPlan { sizes: vec![(Series::Cell, vec![])], ..plan.clone() };
        assert_eq!(measure(&none, &control), Err(MeasureError::Empty));
        let three = GrowthPlan { sizes: vec![(Series::Local, vec![3])], ..plan };
        assert!(matches!(measure(&three, &control), Err(MeasureError::Local(_))));
    }

    #[test]
    fn analyse_judges_runs_by_the_cap_and_fits_each_quantity() {
        let mut rows = Vec::new();
        for (n, steps) in [(6, 100), (7, 300), (8, 900)] {
            for seed in 1..=3 {
                rows.push(measured(Series::Pair, n, seed, steps, steps / 10, true));
                rows.push(measured(Series::Local, n, seed, steps, 0, true));
            }
        }
        let a = Analysis {
            pair_max_steps: 500,
            cell_max_steps: 1,
            row_max_steps: 1,
            resamples: 0,
            boot_seed: 1,
            min_runs: 3,
        };
        let out = analyse(&rows, &a).unwrap();
        let names: Vec<&str> = out.iter().map(|q| q.name).collect();
        assert_eq!(
            names,
            [
                "model 1 (pair): steps",
                "model 1 (pair): moves",
                "min-conflicts: swaps evaluated",
                "min-conflicts: moves",
                "model 1 (pair): CPU seconds",
                "min-conflicts: CPU seconds"
            ]
        );
        // Every run took 0.5 CPU-s: a flat CPU cost, its n = 8 censored with its steps.
        assert_eq!(out[4].points[0].point.mean, Some(0.5));
        assert_eq!(out[4].fit.as_ref().unwrap().ns, [6, 7]);
        assert!((out[5].fit.as_ref().unwrap().rate - 1.0).abs() < 1e-9);
        // n = 8 needed 900 steps, beyond the cap of 500: censored, out of the fit.
        let censored: Vec<usize> = out[0].points.iter().map(|p| p.point.censored).collect();
        assert_eq!(censored, [0, 0, 3]);
        let fit = out[0].fit.as_ref().unwrap();
        assert_eq!(fit.ns, [6, 7]);
        assert!((fit.rate - 3.0).abs() < 1e-9);
        // Local search has no cap; a run without a move still cost one unit.
        assert_eq!(out[2].fit.as_ref().unwrap().ns, [6, 7, 8]);
        assert_eq!(out[3].points[0].point.mean, Some(1.0));
        assert_eq!(out[3].points[0].mean_cpu_s, Some(0.5));
        let strict = Analysis { min_runs: 4, ..a };
        let e = analyse(&rows, &strict).unwrap()[0].fit_error.clone().unwrap();
        assert!(e.contains("at least 4 runs"), "{e}");
    }

    /// A time of 0 (below a file's millisecond resolution) or none is not a measurement: left
    /// out of the CPU seconds, kept in the steps and moves.
    #[test]
    fn runs_without_a_measured_time_are_left_out_of_the_cpu_seconds() {
        let mut rows = Vec::new();
        for n in [6, 7, 8] {
            for (seed, cpu_s) in [(1, Some(0.0)), (2, None), (3, Some(0.25)), (4, Some(0.75))] {
                rows.push(Measured { cpu_s, ..measured(Series::Local, n, seed, 10, 2, true) });
            }
        }
        let a = Analysis {
            pair_max_steps: 1,
            cell_max_steps: 1,
            row_max_steps: 1,
            resamples: 0,
            boot_seed: 1,
            min_runs: 2,
        };
        let out = analyse(&rows, &a).unwrap();
        assert_eq!(out[0].points[0].point.runs, 4, "{:?}", out[0]);
        let cpu = out.iter().find(|q| q.name == "min-conflicts: CPU seconds").unwrap();
        assert!(cpu.points.iter().all(|p| p.point.runs == 2 && p.point.mean == Some(0.5)), "{cpu:?}");
    }

    #[test]
    fn exact_power_data_gives_the_exact_exponent_and_the_better_fit() {
        let runs: Vec<RunCost> = [16u32, 32, 64, 128, 256]
            .iter()
            .flat_map(|&n| (0..5).map(move |_| run(n, 7.0 * f64::from(n).powf(2.5))))
            .collect();
        let p = fit_power(&runs, 100, 1).unwrap();
        assert!((p.exponent - 2.5).abs() < 1e-9, "{p:?}");
        assert_eq!(p.exponent_interval, (p.exponent, p.exponent));
        assert!(p.rss < 1e-18);
        assert!((p.at(100.0) / (7.0 * 100f64.powf(2.5)) - 1.0).abs() < 1e-9);
        let e = fit(&runs, 100, 1).unwrap();
        assert!(e.rss > 0.1, "an exponential bends away from a power law: {e:?}");
        assert_eq!(better_fit(Some(&e), Some(&p)), Some("power"));
        // And the other way round on exponential data.
        let runs = exact(3.0, 1.7, &[10, 12, 14, 16, 18], 4);
        let (e, p) = (fit(&runs, 0, 1).unwrap(), fit_power(&runs, 0, 1).unwrap());
        assert_eq!(better_fit(Some(&e), Some(&p)), Some("exponential"));
        // Two points: both lines pass through them.
        let two = exact(3.0, 1.7, &[10, 12], 4);
        assert_eq!(better_fit(Some(&fit(&two, 0, 1).unwrap()), Some(&fit_power(&two, 0, 1).unwrap())), None);
    }

    #[test]
    fn model3_runs_cost_cell_updates_and_replay() {
        let plan = GrowthPlan {
            sizes: vec![(Series::Row, vec![8, 12])],
            samples: 3,
            eps: super::super::DEFAULT_EPS,
            eta: super::super::DEFAULT_ETA,
            pair_max_steps: 1,
            cell_max_steps: 1,
            row_max_steps: 10_000_000,
            row_rule: RuleName::Kept,
        };
        let control = Control::new();
        let rows = measure(&plan, &control).unwrap();
        assert_eq!(rows.len(), 6);
        assert!(rows.iter().all(|r| r.solved && r.series == Series::Row));
        let params = Params::new(Model::Row, 12).unwrap();
        let r = Automaton::from_seed(&params, 2).unwrap().run_until(u64::MAX, &Stop::new(&control)).unwrap();
        assert_eq!((rows[4].steps, rows[4].moves), (r.steps, r.moves));
        let a = Analysis {
            pair_max_steps: 1,
            cell_max_steps: 1,
            row_max_steps: 10_000_000,
            resamples: 50,
            boot_seed: 1,
            min_runs: 3,
        };
        let out = analyse(&rows, &a).unwrap();
        let names: Vec<&str> = out.iter().map(|q| q.name).collect();
        assert_eq!(
            names,
            [
                "model 3 (row): cell updates",
                "model 3 (row): moves",
                "model 3 (row): generations",
                "model 3 (row): CPU seconds"
            ]
        );
        // Times are kept to the microsecond, at least one: every run has its own.
        assert!(
            rows.iter()
                .all(|r| r.cpu_s.is_some_and(|t| t >= 0.0 && ((t * 1e6).round() - t * 1e6).abs() < 1e-6))
        );
        assert!(out[3].points.iter().all(|p| p.point.mean.is_some_and(|m| m > 0.0)));
        let gens = out[2].points[1].point.mean.unwrap();
        assert_eq!(out[0].points[1].point.mean.unwrap(), gens * 144.0);
        assert!(out[0].power_fit.is_some() && out[0].fit.is_some());
    }
}
