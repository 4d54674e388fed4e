//! Runs and the automaton report's experiments: one run to its first solution, many independent runs in
//! parallel, the ε sweep (fig. 5) and the scale over n (figs. 6 and 8).
//!
//! Reproducibility: sample `i` of an experiment seeded with `s` starts from
//! [`Automaton::from_seed`] with seed [`stream_seed`]`(s, i)`, whatever thread runs it, so the
//! results never depend on the number of threads; `damier automaton run --seed` with that
//! seed replays the sample. Every point of an experiment uses the same sample seeds (common
//! random numbers: the points differ by their parameters only).
//!
//! ```
//! use damier::automaton::{Model, Params, Stop};
//! use damier::automaton::experiment::run_samples;
//! use damier::control::Control;
//!
//! let params = Params::new(Model::Pair, 6).unwrap();
//! let runs = run_samples(&params, 1, 4, 10_000_000, &Stop::new(&Control::new())).unwrap();
//! assert_eq!(runs.len(), 4);
//! assert!(runs.iter().all(|r| r.solved && r.placement.as_ref().unwrap().is_valid()));
//! ```

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::row::RuleName;
use super::{Automaton, AutomatonError, Model, Params, StartSignals};
use crate::control::{Control, Interrupted};
use crate::queens::Placement;
use crate::queens::count::known::known_total;
use crate::queens::max::{self, MaxError};
use crate::stats;

pub use crate::control::{CHUNK, Censored, Stop, stream_seed};

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RunResult {
    /// The seed of the run's generator.
    pub seed: u64,
    /// Updates made: the step of the first solution when solved.
    pub steps: u64,
    /// Effective queen moves.
    pub moves: u64,
    /// The queens form a solution.
    pub solved: bool,
    /// Solved and every signal true: nothing can ever move again.
    pub absorbing: bool,
    /// The solution (0-based column of each row's queen) when solved.
    pub placement: Option<Placement>,
    /// Why the run stopped unsolved.
    pub censored: Option<Censored>,
}

/// One run with its parameters and wall time (serialised with the placement as 1-based
/// columns).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RunRecord {
    /// Model, board side and probabilities.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub params: Params,
    /// Model 3's rule, by its name (`None` for models 1 and 2, which have none).
    #[cfg_attr(feature = "serde", serde(serialize_with = "rule_name"))]
    pub rule: Option<RuleName>,
    /// The seed of the run's generator.
    pub seed: u64,
    /// Updates made: the step of the first solution when solved.
    pub steps: u64,
    /// Effective queen moves.
    pub moves: u64,
    /// The queens form a solution.
    pub solved: bool,
    /// Solved and every signal true: nothing can ever move again.
    pub absorbing: bool,
    /// The solution when solved.
    #[cfg_attr(feature = "serde", serde(serialize_with = "crate::queens::placement::serialize_one_based"))]
    pub placement: Option<Placement>,
    /// Why the run stopped unsolved.
    pub censored: Option<Censored>,
    /// Wall time, seconds.
    pub seconds: f64,
}

impl RunRecord {
    /// The record of `result`, a run of `aut` (its parameters and model 3's rule) that took
    /// `seconds`.
    pub fn new(aut: &Automaton, result: RunResult, seconds: f64) -> RunRecord {
        let RunResult { seed, steps, moves, solved, absorbing, placement, censored } = result;
        let (params, rule) = (*aut.params(), aut.row_rule());
        RunRecord { params, rule, seed, steps, moves, solved, absorbing, placement, censored, seconds }
    }
}

/// Model 3's rule as its name, `null` for the models without one.
#[cfg(feature = "serde")]
fn rule_name<S: serde::Serializer>(rule: &Option<RuleName>, s: S) -> Result<S::Ok, S::Error> {
    match rule {
        Some(r) => s.serialize_str(r.name()),
        None => s.serialize_none(),
    }
}

/// A run not made because no solution exists for its n (n = 2, 3: at most `most` < n queens
/// fit), so the automaton could only go on to its step cap. Serialised, it is the run's record
/// at its start.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(transparent))]
pub struct UnsolvableRun {
    /// The run's record, no step made.
    pub record: RunRecord,
    /// R(n), the most non-attacking queens that fit.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub most: u64,
}

impl UnsolvableRun {
    /// The run of `aut` not made when no solution exists for its n; `None` when one does.
    pub fn of(aut: &Automaton) -> Result<Option<UnsolvableRun>, MaxError> {
        let Some(most) = max::unsolvable(aut.n())? else { return Ok(None) };
        Ok(Some(UnsolvableRun { record: RunRecord::new(aut, aut.result(None), 0.0), most }))
    }

    /// Why nothing is run, in words: what the CLI says on stderr and Python as a warning.
    pub fn reason(&self) -> String {
        let n = self.record.params.n;
        format!(
            "n = {n} has no solution (at most {} non-attacking queens fit on {n} x {n}): the automaton \
             cannot succeed, nothing is run",
            self.most
        )
    }
}

impl Automaton {
    /// Runs to the first solution or until the step counter reaches `max_steps` (a total,
    /// counting the updates already made; [`Automaton::run_steps`] counts from now), polling
    /// `stop` every [`Automaton::poll_steps`] updates.
    pub fn run_until(&mut self, max_steps: u64, stop: &Stop) -> Result<RunResult, Interrupted> {
        self.run_until_observed(max_steps, stop, Duration::MAX, |_| Ok::<(), Interrupted>(()))
    }

    /// As [`Automaton::run_until`], calling `observe` whenever `period` has passed since its last
    /// call, between chunks of [`Automaton::poll_steps`] updates (so it sees a consistent state, and the
    /// trajectory is the same as without it); an error from `observe` stops the run. For
    /// progress reports and periodic checkpoints of long runs.
    pub fn run_until_observed<E: From<Interrupted>>(
        &mut self,
        max_steps: u64,
        stop: &Stop,
        period: Duration,
        mut observe: impl FnMut(&Automaton) -> Result<(), E>,
    ) -> Result<RunResult, E> {
        let mut censored = None;
        // The clock is read only for an observer or a deadline: a run without them (the
        // browser's, where `wasm32-unknown-unknown` has no `Instant`) never reads it.
        let mut last = (period != Duration::MAX).then(Instant::now);
        while !self.is_solution() {
            if self.steps() >= max_steps {
                censored = Some(Censored::StepCap);
                break;
            }
            if stop.control.cancelled() {
                return Err(Interrupted.into());
            }
            if stop.deadline.is_some_and(|d| Instant::now() >= d) {
                censored = Some(Censored::Budget);
                break;
            }
            self.run_steps(self.poll_steps().min(max_steps - self.steps()));
            if last.is_some_and(|t| t.elapsed() >= period) {
                observe(self)?;
                last = Some(Instant::now());
            }
        }
        Ok(self.result(censored))
    }

    /// As [`Automaton::run_until`], but after every queen move all signals are reset to the true
    /// field: instantaneous propagation, the automaton report's "signals properly propagated" reading of
    /// fig. 7. One update at a time and O(n^2) per move: for small demonstrations only.
    pub fn run_ideal(&mut self, max_steps: u64, stop: &Stop) -> Result<RunResult, Interrupted> {
        let mut censored = None;
        while !self.is_solution() {
            if self.steps() >= max_steps {
                censored = Some(Censored::StepCap);
                break;
            }
            if self.steps().is_multiple_of(self.poll_steps()) {
                if stop.control.cancelled() {
                    return Err(Interrupted);
                }
                if stop.deadline.is_some_and(|d| Instant::now() >= d) {
                    censored = Some(Censored::Budget);
                    break;
                }
            }
            if self.step() {
                self.set_true_signals();
            }
        }
        Ok(self.result(censored))
    }

    /// The current state as a [`RunResult`].
    pub fn result(&self, censored: Option<Censored>) -> RunResult {
        let solved = self.is_solution();
        RunResult {
            seed: self.seed(),
            steps: self.steps(),
            moves: self.moves(),
            solved,
            absorbing: solved && self.is_absorbing(),
            placement: if solved { self.placement() } else { None },
            censored: if solved { None } else { censored },
        }
    }
}

/// `samples` independent runs from the automaton report's random start, in parallel on the current rayon
/// pool, sample `i` seeded with [`stream_seed`]`(seed, i)`; results in sample order.
/// Advances `stop.control` by one per finished run.
pub fn run_samples(
    params: &Params,
    seed: u64,
    samples: usize,
    max_steps: u64,
    stop: &Stop,
) -> Result<Vec<RunResult>, ExperimentError> {
    run_samples_from(params, None, seed, samples, max_steps, stop)
}

/// A given start for [`run_samples_from`].
#[derive(Clone, Copy, Debug)]
pub struct Start<'a> {
    /// Queen counts, row-major.
    pub counts: &'a [u32],
    /// How the signals start.
    pub signals: StartSignals,
    /// Run with [`Automaton::run_ideal`] (signals reset to the true field after each move).
    pub ideal: bool,
}

/// As [`run_samples`], every run starting from `start` instead of the random start when given.
pub fn run_samples_from(
    params: &Params,
    start: Option<Start>,
    seed: u64,
    samples: usize,
    max_steps: u64,
    stop: &Stop,
) -> Result<Vec<RunResult>, ExperimentError> {
    let params = params.validated()?;
    // Each of the pool's threads holds a run: refused before any is made when they cannot fit.
    params.check_memory_of(samples.min(rayon::current_num_threads()).max(1) as u64)?;
    if let Some(st) = start {
        Automaton::from_position(&params, st.counts, st.signals, 0)?;
    }
    let out: Result<Vec<RunResult>, ExperimentError> = (0..samples)
        .into_par_iter()
        .map(|i| {
            let s = stream_seed(seed, i as u64);
            let mut a = match start {
                None => Automaton::from_seed(&params, s),
                Some(st) => Automaton::from_position(&params, st.counts, st.signals, s),
            }?;
            let r = if start.is_some_and(|st| st.ideal) {
                a.run_ideal(max_steps, stop)?
            } else {
                a.run_until(max_steps, stop)?
            };
            stop.control.advance(1);
            Ok(r)
        })
        .collect();
    out
}

/// Errors of the experiments.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExperimentError {
    /// Bad parameters.
    #[error(transparent)]
    Params(#[from] AutomatonError),
    /// Cancelled.
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// An empty list of values to sweep.
    #[error("nothing to run: the list of values is empty")]
    Empty,
}

/// Statistics over the runs of one point. Means are over the solved runs only (a lower
/// bound of the true mean when some runs are censored); the median counts censored runs as
/// longer than any solved one, so it is exact while fewer than half are censored.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Summary {
    /// Runs made.
    pub runs: usize,
    /// Runs that reached a solution.
    pub solved: usize,
    /// Runs stopped by the step cap or the budget.
    pub censored: usize,
    /// Solved runs that were absorbing at their first solution.
    pub absorbing: usize,
    /// Mean steps to the first solution.
    pub mean_steps: Option<f64>,
    /// 95% confidence interval of the mean (normal approximation, mean ± 1.96 s / √k).
    pub ci95: Option<(f64, f64)>,
    /// Median steps to the first solution.
    pub median_steps: Option<f64>,
    /// Mean effective moves of the solved runs.
    pub mean_moves: Option<f64>,
}

/// Summarizes runs (see [`Summary`]).
pub fn summarize(runs: &[RunResult]) -> Summary {
    let solved: Vec<&RunResult> = runs.iter().filter(|r| r.solved).collect();
    let k = solved.len();
    let steps: Vec<f64> = solved.iter().map(|r| r.steps as f64).collect();
    let moves: Vec<f64> = solved.iter().map(|r| r.moves as f64).collect();
    let (mean_steps, ci95) = match stats::mean_ci95(&steps) {
        Some((m, ci)) => (Some(m), ci),
        None => (None, None),
    };
    // Censored runs sort after every solved run.
    let median_steps = stats::censored_median(runs.iter().map(|r| r.solved.then_some(r.steps as f64)));
    Summary {
        runs: runs.len(),
        solved: k,
        censored: runs.len() - k,
        absorbing: solved.iter().filter(|r| r.absorbing).count(),
        mean_steps,
        ci95,
        median_steps,
        mean_moves: stats::mean(&moves),
    }
}

/// One ε of a sweep.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SweepPoint {
    /// ε of this point.
    pub eps: f64,
    /// Statistics of its runs.
    pub summary: Summary,
}

/// A sweep over ε: its settings and each ε's statistics.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SweepRecord {
    /// The update rule.
    pub model: Model,
    /// Board side.
    pub n: u32,
    /// η of every run when the model uses it ([`Model::uses_eta`]: model 2), else `None`.
    pub eta: Option<f64>,
    /// The experiment's random seed.
    pub seed: u64,
    /// Runs per ε.
    pub samples: u64,
    /// Step cap per run.
    pub max_steps: u64,
    /// One point per ε.
    pub points: Vec<SweepPoint>,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// Fig. 5: `samples` runs of `params` for each ε of `eps` (in parallel).
pub fn sweep(
    params: &Params,
    eps: &[f64],
    samples: usize,
    seed: u64,
    max_steps: u64,
    stop: &Stop,
) -> Result<Vec<SweepPoint>, ExperimentError> {
    if eps.is_empty() {
        return Err(ExperimentError::Empty);
    }
    let mut out = Vec::with_capacity(eps.len());
    for &e in eps {
        let p = Params { eps: e, ..*params };
        let runs = run_samples(&p, seed, samples, max_steps, stop)?;
        out.push(SweepPoint { eps: e, summary: summarize(&runs) });
    }
    Ok(out)
}

/// One (model, n) of a scale experiment.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ScalePoint {
    /// The model.
    pub model: Model,
    /// Board side.
    pub n: u32,
    /// Statistics of its runs.
    pub summary: Summary,
    /// Wall time of the point, seconds.
    pub seconds: f64,
}

/// The placement count behind 1/d in [`ScaleRecord`]: sets of n distinct cells.
pub const DENSITY_POSITIONS: &str = "C(n^2, n): sets of n distinct cells";

/// A scale experiment: its settings and each n's statistics.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ScaleRecord {
    /// ε of every run.
    pub eps: f64,
    /// η of the runs of model 2, `None` when no model of the experiment uses it
    /// ([`Model::uses_eta`]).
    pub eta: Option<f64>,
    /// The experiment's random seed.
    pub seed: u64,
    /// Runs per point.
    pub samples: u64,
    /// Step cap per run.
    pub max_steps: u64,
    /// Wall-time budget per point, seconds.
    pub budget: Option<f64>,
    /// The placement count behind 1/d ([`DENSITY_POSITIONS`]).
    pub positions: &'static str,
    /// One point per model and n.
    pub points: Vec<ScalePoint>,
    /// `(n, 1/d)` for the sizes with at least one solution whose number of solutions is
    /// known ([`inverse_densities`]: n <= 27); the sizes past it are left out, their 1/d
    /// unknown. Empty when 1/d was left out ([`ScaleRecord::density_left_out`]).
    pub inverse_density: Vec<(u32, f64)>,
    /// 1/d was not asked for (`scale --no-density`), so no size has it (the text says `-`,
    /// not "unknown"; not serialised, where the empty `inverse_density` says it).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub density_left_out: bool,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// Figs. 6 and 8: `samples` runs for each model and each n; each point gets `budget` of wall
/// time (runs still going are censored) besides the step cap.
#[allow(clippy::too_many_arguments)]
pub fn scale(
    models: &[Model],
    ns: &[u32],
    eps: f64,
    eta: f64,
    samples: usize,
    seed: u64,
    max_steps: u64,
    budget: Option<Duration>,
    control: &Control,
) -> Result<Vec<ScalePoint>, ExperimentError> {
    if models.is_empty() || ns.is_empty() {
        return Err(ExperimentError::Empty);
    }
    let mut out = Vec::new();
    for &model in models {
        for &n in ns {
            let params = Params { model, n, eps, eta }.validated()?;
            let start = Instant::now();
            let stop = Stop { control, deadline: budget.map(|b| start + b) };
            let runs = run_samples(&params, seed, samples, max_steps, &stop)?;
            out.push(ScalePoint {
                model,
                n,
                summary: summarize(&runs),
                seconds: start.elapsed().as_secs_f64(),
            });
        }
    }
    Ok(out)
}

/// The number of positions used for the density `d = solutions / positions`: `C(n^2, n)`,
/// the sets of `n` distinct cells (every solution is one). As an `f64`.
pub fn positions(n: u32) -> f64 {
    let m = f64::from(n) * f64::from(n);
    (0..n).map(|k| (m - k as f64) / (k as f64 + 1.0)).product()
}

/// `(n, 1/d)` for each n of `ns` whose 1/d is known, in the order of `ns` (the
/// `inverse_density` of a [`ScaleRecord`]): the sizes with a solution up to
/// [`LAST_KNOWN_N`](crate::queens::count::known::LAST_KNOWN_N) = 27 (see [`inverse_density`]).
pub fn inverse_densities(ns: &[u32]) -> Vec<(u32, f64)> {
    ns.iter().filter_map(|&n| Some((n, inverse_density(n)?))).collect()
}

impl ScaleRecord {
    /// 1/d at `n`, where it is known.
    pub fn inverse_density_at(&self, n: u32) -> Option<f64> {
        self.inverse_density.iter().find(|x| x.0 == n).map(|x| x.1)
    }
}

/// `1/d = C(n^2, n) / Q(n)`, `Q(n)` the known term of OEIS A000170 ([`known_total`], which
/// the known-answer tests hold against the exact counters): nothing to count, so every n up
/// to 27 has it at once. `None` when there is no solution (n = 2, 3) or when `Q(n)` is
/// unknown (n > 27: no one has counted it, and a projection is not a density).
pub fn inverse_density(n: u32) -> Option<f64> {
    known_total(n).filter(|&q| q > 0).map(|q| positions(n) / q as f64)
}

/// Updates per second of one thread: runs from successive seeds (restarting after each
/// solution) until `updates` updates were made; returns (updates made, seconds).
pub fn measure(params: &Params, seed: u64, updates: u64) -> Result<(u64, f64), AutomatonError> {
    let start = Instant::now();
    let mut done = 0;
    let mut i = 0;
    while done < updates {
        let mut a = Automaton::from_seed(params, stream_seed(seed, i))?;
        a.run_steps(updates - done);
        done += a.steps().max(1);
        i += 1;
    }
    Ok((done, start.elapsed().as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::count::known::LAST_KNOWN_N;

    fn check_placement(n: usize, placement: &Placement) -> bool {
        // Independent checker: n queens, pairwise not on a row, column or diagonal.
        let cols: Vec<usize> = placement.columns().iter().map(|&c| c as usize).collect();
        cols.len() == n
            && cols.iter().all(|&c| c < n)
            && (0..n).all(|i| (i + 1..n).all(|j| cols[i] != cols[j] && cols[i].abs_diff(cols[j]) != j - i))
    }

    #[test]
    fn inverse_densities_skip_the_sizes_without_solution_and_past_the_known_terms() {
        let inv = inverse_densities(&[5, 1, 2, 3, 4, LAST_KNOWN_N + 1, 40]);
        // C(25, 5) / 10, C(1, 1) / 1, C(16, 4) / 2.
        assert_eq!(inv, [(5, 5313.0), (1, 1.0), (4, 910.0)]);
    }

    /// The binomial C(m, k) in exact integers, the independent reference of `positions`.
    fn binomial(m: u128, k: u128) -> u128 {
        (0..k).fold(1, |c, i| c * (m - i) / (i + 1))
    }

    #[test]
    fn inverse_density_uses_the_known_term_up_to_27() {
        // n = 20: C(400, 20) / q(20), q(20) = 39 029 188 884 (OEIS A000170): the counter
        // would take minutes; the known term is there at once.
        let expected = binomial(400, 20) as f64 / 39_029_188_884.0;
        let got = inverse_density(20).unwrap();
        assert!((got / expected - 1.0).abs() < 1e-12, "{got} against {expected}");
        // Every n up to the last known term with a solution has one, consistent with the
        // counter where counting is quick.
        for n in (1..=LAST_KNOWN_N).filter(|&n| n != 2 && n != 3) {
            assert!(inverse_density(n).is_some_and(|v| v.is_finite() && v >= 1.0), "n = {n}");
        }
        for n in 4..=10 {
            let q = crate::queens::count_solutions(n, &Control::new()).unwrap().total;
            assert!((inverse_density(n).unwrap() - positions(n) / q as f64).abs() < 1e-6, "n = {n}");
        }
        // Past the table: unknown, not projected.
        assert_eq!(inverse_density(LAST_KNOWN_N + 1), None);
        assert_eq!(inverse_density(2), None);
    }

    #[test]
    fn a_run_is_not_made_where_no_solution_exists() {
        for (n, most) in [(1, None), (2, Some(1)), (3, Some(2)), (4, None), (5, None)] {
            let aut = Automaton::from_seed(&Params::new(Model::Cell, n).unwrap(), 3).unwrap();
            let not_made = UnsolvableRun::of(&aut).unwrap();
            assert_eq!(not_made.as_ref().map(|u| u.most), most, "n = {n}");
            if let Some(u) = not_made {
                assert_eq!((u.record.params.n, u.record.seed, u.record.steps), (n, 3, 0));
                assert!(!u.record.solved && u.record.placement.is_none() && u.record.censored.is_none());
            }
        }
    }

    #[test]
    fn same_seed_same_results_whatever_the_thread_count() {
        let control = Control::new();
        let params = Params::new(Model::Pair, 5).unwrap();
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| run_samples(&params, 7, 12, 2_000_000, &Stop::new(&control)).unwrap())
        };
        let one = run(1);
        assert_eq!(one, run(3));
        let p2 = Params::new(Model::Cell, 5).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let a = pool.install(|| run_samples(&p2, 9, 6, 2_000_000, &Stop::new(&control)).unwrap());
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        let b = pool.install(|| run_samples(&p2, 9, 6, 2_000_000, &Stop::new(&control)).unwrap());
        assert_eq!(a, b);
    }

    #[test]
    fn a_sample_replays_from_its_seed() {
        let control = Control::new();
        let params = Params::new(Model::Cell, 6).unwrap();
        let runs = run_samples(&params, 3, 3, 5_000_000, &Stop::new(&control)).unwrap();
        for r in &runs {
            let mut a = Automaton::from_seed(&params, r.seed).unwrap();
            assert_eq!(&a.run_until(5_000_000, &Stop::new(&control)).unwrap(), r);
            // Chunked stepping reaches the same first solution.
            let mut b = Automaton::from_seed(&params, r.seed).unwrap();
            while !b.run_steps(997) && b.steps() < 5_000_000 {}
            assert_eq!(b.result(None).steps, r.steps);
        }
    }

    #[test]
    fn solved_runs_pass_an_independent_checker() {
        let control = Control::new();
        for model in [Model::Pair, Model::Cell, Model::Row] {
            for n in [1, 4, 5, 6] {
                let params = Params::new(model, n).unwrap();
                let runs = run_samples(&params, 11, 8, 20_000_000, &Stop::new(&control)).unwrap();
                for r in runs {
                    assert!(r.solved, "{model} n = {n} seed {} unsolved", r.seed);
                    assert!(check_placement(n as usize, r.placement.as_ref().unwrap()), "{r:?}");
                }
            }
        }
    }

    #[test]
    fn no_solution_means_censored_by_the_step_cap() {
        let control = Control::new();
        for n in [2, 3] {
            let params = Params::new(Model::Pair, n).unwrap();
            let runs = run_samples(&params, 1, 2, 10_000, &Stop::new(&control)).unwrap();
            assert!(
                runs.iter().all(|r| !r.solved && r.censored == Some(Censored::StepCap) && r.steps == 10_000)
            );
            let s = summarize(&runs);
            assert_eq!((s.solved, s.censored, s.mean_steps, s.median_steps), (0, 2, None, None));
        }
    }

    #[test]
    fn cancel_interrupts_and_deadline_censors() {
        let control = Control::new();
        control.cancel();
        let params = Params::new(Model::Pair, 3).unwrap();
        let mut a = Automaton::from_seed(&params, 1).unwrap();
        assert_eq!(a.run_until(u64::MAX, &Stop::new(&control)), Err(Interrupted));
        let fresh = Control::new();
        let stop = Stop { control: &fresh, deadline: Some(Instant::now()) };
        let r = a.run_until(u64::MAX, &stop).unwrap();
        assert_eq!(r.censored, Some(Censored::Budget));
    }

    #[test]
    fn summary_statistics() {
        let r = |steps, solved| RunResult {
            seed: 0,
            steps,
            moves: steps / 10,
            solved,
            absorbing: solved,
            placement: None,
            censored: (!solved).then_some(Censored::StepCap),
        };
        let s = summarize(&[r(10, true), r(30, true), r(20, true), r(99, false)]);
        assert_eq!((s.runs, s.solved, s.censored), (4, 3, 1));
        assert_eq!(s.mean_steps, Some(20.0));
        assert_eq!(s.median_steps, Some(25.0));
        let (lo, hi) = s.ci95.unwrap();
        assert!(
            (hi - 20.0 - 1.96 * (100.0f64 / 3.0).sqrt()).abs() < 1e-9
                && (20.0 - lo - (hi - 20.0)).abs() < 1e-9
        );
        let s = summarize(&[r(10, true), r(99, false), r(99, false)]);
        assert_eq!(s.median_steps, None);
    }

    #[test]
    fn positions_is_the_binomial() {
        assert_eq!(positions(2), 6.0);
        assert_eq!(positions(4), 1820.0);
        assert!((positions(8) - 4_426_165_368.0).abs() < 1.0);
        assert_eq!(inverse_density(3), None);
        assert!((inverse_density(4).unwrap() - 910.0).abs() < 1e-9);
    }

    /// The automaton report's fig. 5 trend, with fixed seeds (deterministic): more moves at large ε.
    #[test]
    fn moves_grow_with_eps() {
        let control = Control::new();
        let base = Params::new(Model::Pair, 5).unwrap();
        let pts = sweep(&base, &[0.003, 0.3], 30, 5, 50_000_000, &Stop::new(&control)).unwrap();
        let (lo, hi) = (&pts[0].summary, &pts[1].summary);
        assert_eq!((lo.solved, hi.solved), (30, 30));
        assert!(hi.mean_moves.unwrap() > 2.0 * lo.mean_moves.unwrap(), "{pts:?}");
        assert!(matches!(sweep(&base, &[], 1, 0, 1, &Stop::new(&control)), Err(ExperimentError::Empty)));
    }
}
