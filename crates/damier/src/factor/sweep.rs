//! The sweep over sizes: random balanced semiprimes of each size, the automaton beside trial
//! division, Pollard's rho and (optionally) the SAT solver on the same numbers; the per-size
//! budget and the rule that stops the sweep, the statistics per size, the growth fits, and
//! the figures' points ([`summaries`] also redraws them from runs read back).
//!
//! Reproducibility: sample `i` of size `b` in a sweep seeded with `s` draws its semiprime and
//! its automaton seed from [`sweep_input`]`(b, s, i)`, whatever thread runs it.
//!
//! ```
//! use damier::control::Control;
//! use damier::factor::FactorParams;
//! use damier::factor::sweep::{SweepPlan, sweep};
//!
//! let plan = SweepPlan {
//!     bits: vec![8, 10],
//!     samples: 3,
//!     seed: 1,
//!     params: FactorParams::default(),
//!     max_steps: 100_000_000,
//!     with_sat: false,
//!     budget: None,
//! };
//! let s = sweep(&plan, &Control::new(), |_| {}).unwrap();
//! assert_eq!(s.points.iter().map(|p| (p.bits, p.runs)).collect::<Vec<_>>(), [(8, 3), (10, 3)]);
//! assert_eq!(s.runs.len(), 6);
//! ```

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use super::{FactorAutomaton, FactorError, FactorParams, FactorRun, arith, sat};
use crate::control::{Censored, Control, Stop, stream_seed};
use crate::stats;

/// One semiprime of a sweep: the automaton's run and the two baselines on the same number.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SweepSample {
    /// Size of `n` in bits.
    pub bits: u32,
    /// The semiprime.
    pub n: u64,
    /// Its smaller prime factor.
    pub p: u64,
    /// Its larger prime factor.
    pub q: u64,
    /// The automaton's run.
    pub run: FactorRun,
    /// Wall time of the automaton's run, seconds.
    pub seconds: f64,
    /// Wall time of trial division on `n`, seconds (mean over repetitions).
    pub trial_seconds: f64,
    /// Wall time of Pollard's rho on `n`, seconds (mean over repetitions).
    pub rho_seconds: f64,
    /// Wall time of the SAT solver on the same multiplication grid, seconds (one solve),
    /// when asked for.
    pub sat_seconds: Option<f64>,
}

/// The semiprime and the automaton seed of sample `i` of size `bits` in a sweep seeded with
/// `seed`: `(n, p, q, automaton seed)`.
pub fn sweep_input(bits: u32, seed: u64, i: u64) -> Result<(u64, u64, u64, u64), FactorError> {
    if !arith::SEMIPRIME_BITS.contains(&bits) {
        return Err(FactorError::Bits(bits));
    }
    let point = stream_seed(seed, u64::from(bits));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(stream_seed(!point, i));
    let (n, p, q) = arith::balanced_semiprime(bits, &mut rng);
    Ok((n, p, q, stream_seed(point, i)))
}

/// Mean wall time of `f` over enough repetitions to last about a millisecond.
fn time_it(mut f: impl FnMut() -> u64) -> f64 {
    let start = Instant::now();
    let mut reps = 0u32;
    let mut sink = 0u64;
    while reps == 0 || (start.elapsed().as_secs_f64() < 1e-3 && reps < 1_000_000) {
        sink = sink.wrapping_add(std::hint::black_box(f()));
        reps += 1;
    }
    std::hint::black_box(sink);
    start.elapsed().as_secs_f64() / f64::from(reps)
}

/// Runs the automaton and the baselines (trial division, Pollard's rho, and with `with_sat`
/// the SAT solver) on `samples` random balanced semiprimes of `bits` bits (in parallel,
/// sample order kept; see [`sweep_input`] for the seeds). Advances `stop.control` by one per
/// finished sample. A SAT solve cannot be interrupted: cancellation waits for it.
pub fn sweep_point(
    bits: u32,
    samples: usize,
    seed: u64,
    params: &FactorParams,
    max_steps: u64,
    with_sat: bool,
    stop: &Stop,
) -> Result<Vec<SweepSample>, FactorError> {
    params.validated()?;
    sweep_input(bits, seed, 0)?;
    let out: Result<Vec<SweepSample>, FactorError> = (0..samples as u64)
        .into_par_iter()
        .map(|i| {
            let (n, p, q, s) = sweep_input(bits, seed, i)?;
            let mut au = FactorAutomaton::new(n, params, s)?;
            let start = Instant::now();
            let run = au.run_inner(max_steps, stop, false)?;
            let seconds = start.elapsed().as_secs_f64();
            let trial_seconds = time_it(|| arith::trial_division(n));
            let rho_seconds = time_it(|| arith::pollard_rho(n, 1));
            let sat_seconds = if with_sat {
                let start = Instant::now();
                let found = sat::factor(n)?;
                // Verified by multiplication inside, and a semiprime has one factorization.
                debug_assert_eq!(found, Some((p, q)), "the SAT model of {n} is its factorization");
                Some(start.elapsed().as_secs_f64())
            } else {
                None
            };
            stop.control.advance(1);
            Ok(SweepSample { bits, n, p, q, run, seconds, trial_seconds, rho_seconds, sat_seconds })
        })
        .collect();
    out
}

/// Statistics of one sweep point. Means are over the factored runs only (a lower bound when
/// some are censored); the median counts censored runs as longer than every factored one, so
/// it is exact while fewer than half are censored.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SweepSummary {
    /// Size in bits.
    pub bits: u32,
    /// Runs made.
    pub runs: usize,
    /// Runs stopped by the step cap or the budget.
    pub censored: usize,
    /// Mean steps of the factored runs.
    pub mean_steps: Option<f64>,
    /// Median steps (censored runs count as longest).
    pub median_steps: Option<f64>,
    /// Mean seconds of the factored runs.
    pub mean_seconds: Option<f64>,
    /// Mean seconds of trial division.
    pub trial_seconds: f64,
    /// Mean seconds of Pollard's rho.
    pub rho_seconds: f64,
    /// Mean seconds of the SAT solver, when it ran.
    pub sat_seconds: Option<f64>,
}

/// Summarizes one point (see [`SweepSummary`]); `samples` must share one size.
pub fn summarize(bits: u32, samples: &[SweepSample]) -> SweepSummary {
    let solved: Vec<&SweepSample> = samples.iter().filter(|s| s.run.factors.is_some()).collect();
    let k = solved.len();
    let mean =
        |f: &dyn Fn(&SweepSample) -> f64| stats::mean(&solved.iter().map(|s| f(s)).collect::<Vec<_>>());
    let median_steps =
        stats::censored_median(samples.iter().map(|s| s.run.factors.is_some().then_some(s.run.steps as f64)));
    let all = |f: &dyn Fn(&SweepSample) -> f64| {
        stats::mean(&samples.iter().map(f).collect::<Vec<_>>()).unwrap_or(0.0)
    };
    SweepSummary {
        bits,
        runs: samples.len(),
        censored: samples.len() - k,
        mean_steps: mean(&|s| s.run.steps as f64),
        median_steps,
        mean_seconds: mean(&|s| s.seconds),
        trial_seconds: all(&|s| s.trial_seconds),
        rho_seconds: all(&|s| s.rho_seconds),
        sat_seconds: samples
            .iter()
            .all(|s| s.sat_seconds.is_some())
            .then(|| all(&|s| s.sat_seconds.unwrap_or(0.0))),
    }
}

/// Least-squares fit of `log2(y) = slope × x + intercept` over the points with `y > 0`:
/// `slope` is the growth in doublings per bit. `None` with fewer than two points.
pub fn fit_log2(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let (xs, ys): (Vec<f64>, Vec<f64>) =
        points.iter().filter(|p| p.1 > 0.0).map(|&(x, y)| (x, y.log2())).unzip();
    // The line needs two distinct x.
    if !xs.iter().any(|&x| x != xs.first().copied().unwrap_or(x)) {
        return None;
    }
    Some(stats::least_squares(&xs, &ys))
}

/// What a sweep runs: [`sweep`]'s settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlan {
    /// Sizes in bits, in the order they run (each in [`arith::SEMIPRIME_BITS`]).
    pub bits: Vec<u32>,
    /// Semiprimes per size.
    pub samples: u64,
    /// Seed of the sweep: numbers and runs derive from it.
    pub seed: u64,
    /// The automaton's probabilities.
    pub params: FactorParams,
    /// Step cap of each run (censored beyond).
    pub max_steps: u64,
    /// Also time the SAT solver on each number.
    pub with_sat: bool,
    /// Wall-clock budget per size: runs still going then are censored, and the sweep stops
    /// after the first size where every run is censored by it.
    pub budget: Option<Duration>,
}

/// A whole sweep: its settings, the statistics per size, the growth fits and every run.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Sweep {
    /// Seed of the sweep.
    pub seed: u64,
    /// Semiprimes per size.
    pub samples: u64,
    /// Step cap of each run.
    pub max_steps: u64,
    /// Wall-clock budget per size, seconds.
    pub budget: Option<f64>,
    /// The automaton's `q`.
    pub q: f64,
    /// The automaton's `eps`.
    pub eps: f64,
    /// Statistics per size, sizes in the order they ran.
    pub points: Vec<SweepSummary>,
    /// Least-squares slope of log2(median steps) against bits: doublings per bit.
    pub steps_doublings_per_bit: Option<f64>,
    /// The same for the mean time of trial division.
    pub trial_doublings_per_bit: Option<f64>,
    /// The same for the mean time of Pollard's rho.
    pub rho_doublings_per_bit: Option<f64>,
    /// The same for the mean time of the SAT solver.
    pub sat_doublings_per_bit: Option<f64>,
    /// Every run, sizes in order, samples in order within a size.
    pub runs: Vec<SweepSample>,
    /// Wall time of the sweep, seconds.
    pub seconds: f64,
}

/// Runs the sweep of `plan` on the current rayon pool, size after size, calling `on_point`
/// with each size's statistics as soon as it is done. Advances `control` by one per finished
/// sample; cancellation surfaces as [`FactorError::Interrupted`].
pub fn sweep(
    plan: &SweepPlan,
    control: &Control,
    mut on_point: impl FnMut(&SweepSummary),
) -> Result<Sweep, FactorError> {
    let params = plan.params.validated()?;
    let clock = Instant::now();
    let mut runs: Vec<SweepSample> = Vec::new();
    let mut points = Vec::new();
    for &b in &plan.bits {
        let deadline = plan.budget.map(|d| Instant::now() + d);
        let stop = Stop { control, deadline };
        let samples =
            sweep_point(b, plan.samples as usize, plan.seed, &params, plan.max_steps, plan.with_sat, &stop)?;
        let summary = summarize(b, &samples);
        on_point(&summary);
        let all_censored = samples.iter().all(|s| s.run.censored == Some(Censored::Budget));
        points.push(summary);
        runs.extend(samples);
        // Every run of this size ran out of time: larger sizes would too.
        if all_censored {
            break;
        }
    }
    let fit = |f: &dyn Fn(&SweepSummary) -> Option<f64>| {
        let pts: Vec<(f64, f64)> =
            points.iter().filter_map(|p| f(p).map(|v| (f64::from(p.bits), v))).collect();
        fit_log2(&pts).map(|(slope, _)| slope)
    };
    Ok(Sweep {
        seed: plan.seed,
        samples: plan.samples,
        max_steps: plan.max_steps,
        budget: plan.budget.map(|d| d.as_secs_f64()),
        q: params.q,
        eps: params.eps,
        steps_doublings_per_bit: fit(&|p| p.median_steps),
        trial_doublings_per_bit: fit(&|p| Some(p.trial_seconds)),
        rho_doublings_per_bit: fit(&|p| Some(p.rho_seconds)),
        sat_doublings_per_bit: fit(&|p| p.sat_seconds),
        points,
        runs,
        seconds: clock.elapsed().as_secs_f64(),
    })
}

/// The runs grouped by size, sizes increasing, runs in their given order.
pub fn by_bits(runs: &[SweepSample]) -> BTreeMap<u32, Vec<SweepSample>> {
    let mut groups: BTreeMap<u32, Vec<SweepSample>> = BTreeMap::new();
    for r in runs {
        groups.entry(r.bits).or_default().push(r.clone());
    }
    groups
}

/// The statistics of each size present in `runs`, sizes increasing.
pub fn summaries(runs: &[SweepSample]) -> Vec<SweepSummary> {
    by_bits(runs).into_iter().map(|(b, s)| summarize(b, &s)).collect()
}

/// The fewest and the most runs of one size, `(0, 0)` without runs.
pub fn runs_per_size(runs: &[SweepSample]) -> (usize, usize) {
    let counts: Vec<usize> = by_bits(runs).values().map(Vec::len).collect();
    (counts.iter().min().copied().unwrap_or(0), counts.iter().max().copied().unwrap_or(0))
}

/// What stopped the unfactored runs of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Censoring {
    /// Runs in all.
    pub runs: usize,
    /// Runs stopped by the step cap.
    pub step_cap: usize,
    /// The most steps among them (the cap they reached), 0 when none.
    pub step_cap_steps: u64,
    /// Runs stopped by the time budget of their size.
    pub budget: usize,
}

/// Counts the censored runs by cause.
pub fn censoring(runs: &[SweepSample]) -> Censoring {
    let capped = || runs.iter().filter(|r| r.run.censored == Some(Censored::StepCap));
    Censoring {
        runs: runs.len(),
        step_cap: capped().count(),
        step_cap_steps: capped().map(|r| r.run.steps).max().unwrap_or(0),
        budget: runs.iter().filter(|r| r.run.censored == Some(Censored::Budget)).count(),
    }
}

/// The automaton's time at one size of a sweep's figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePoint {
    /// Size in bits.
    pub bits: u32,
    /// Mean wall time of the factored runs, seconds.
    pub mean: f64,
    /// Its 95 % interval ([`stats::ci95`]), with at least two factored runs.
    pub ci95: Option<(f64, f64)>,
    /// The fastest factored run, seconds.
    pub fastest: f64,
    /// Some runs of this size were not factored: the mean is a lower bound.
    pub censored: bool,
}

/// The automaton's mean time per size over the factored runs (sizes without one left out).
pub fn automaton_times(runs: &[SweepSample]) -> Vec<TimePoint> {
    by_bits(runs)
        .into_iter()
        .filter_map(|(bits, samples)| {
            let times: Vec<f64> =
                samples.iter().filter(|s| s.run.factors.is_some()).map(|s| s.seconds).collect();
            let (mean, ci95) = stats::mean_ci95(&times)?;
            let fastest = times.iter().copied().fold(f64::INFINITY, f64::min);
            Some(TimePoint { bits, mean, ci95, fastest, censored: times.len() < samples.len() })
        })
        .collect()
}

/// A baseline's mean time per size: `(bits, mean seconds)` for the sizes where `seconds`
/// gives a time for every run.
pub fn baseline_times(
    runs: &[SweepSample],
    seconds: impl Fn(&SweepSample) -> Option<f64>,
) -> Vec<(u32, f64)> {
    by_bits(runs)
        .into_iter()
        .filter_map(|(b, s)| {
            let v: Option<Vec<f64>> = s.iter().map(&seconds).collect();
            stats::mean(&v?).map(|m| (b, m))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_points_are_reproducible_and_checked() {
        let control = Control::new();
        let stop = Stop::new(&control);
        let p = FactorParams::default();
        let a = sweep_point(12, 4, 5, &p, 100_000_000, true, &stop).unwrap();
        let b = sweep_point(12, 4, 5, &p, 100_000_000, false, &stop).unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.n, &x.run), (y.n, &y.run));
            assert_eq!(x.run.factors, Some((x.p, x.q)));
            assert_eq!(64 - x.n.leading_zeros(), 12);
        }
        let s = summarize(12, &a);
        assert_eq!((s.runs, s.censored), (4, 0));
        let mut steps: Vec<u64> = a.iter().map(|x| x.run.steps).collect();
        steps.sort();
        assert_eq!(s.median_steps, Some((steps[1] + steps[2]) as f64 / 2.0));
        assert!(s.rho_seconds > 0.0 && s.trial_seconds > 0.0 && s.sat_seconds.is_some());
        assert!(b.iter().all(|x| x.sat_seconds.is_none()));
        assert_eq!(sweep_point(5, 1, 0, &p, 10, false, &stop), Err(FactorError::Bits(5)));
        // Censored runs sort last in the median.
        let capped = sweep_point(20, 3, 5, &p, 10, false, &stop).unwrap();
        let s = summarize(20, &capped);
        assert_eq!((s.censored, s.median_steps, s.mean_steps), (3, None, None));
    }

    #[test]
    fn log_fit_recovers_a_known_line() {
        let pts: Vec<(f64, f64)> = (8..20).map(|b| (b as f64, 3.0 * 2f64.powf(0.75 * b as f64))).collect();
        let (slope, icpt) = fit_log2(&pts).unwrap();
        assert!((slope - 0.75).abs() < 1e-9 && (icpt - 3f64.log2()).abs() < 1e-9);
        assert_eq!(fit_log2(&pts[..1]), None);
    }

    fn sample(bits: u32, n: u64, p: u64, q: u64, censored: Option<Censored>, seconds: f64) -> SweepSample {
        SweepSample {
            bits,
            n,
            p,
            q,
            run: FactorRun {
                n,
                seed: 7,
                steps: 1234,
                flips: 56,
                factors: censored.is_none().then_some((p, q)),
                censored,
            },
            seconds,
            trial_seconds: 1.5e-6,
            rho_seconds: 2.5e-7,
            sat_seconds: None,
        }
    }

    #[test]
    fn the_figure_points_group_by_size_and_skip_censored_runs() {
        let runs = vec![
            sample(9, 323, 17, 19, None, 0.5),
            sample(8, 143, 11, 13, None, 0.25),
            sample(8, 169, 13, 13, Some(Censored::StepCap), 9.0),
            sample(9, 323, 17, 19, None, 0.25),
            sample(10, 899, 29, 31, Some(Censored::Budget), 1.0),
        ];
        let times = automaton_times(&runs);
        assert_eq!(
            times.iter().map(|t| (t.bits, t.mean, t.censored)).collect::<Vec<_>>(),
            [(8, 0.25, true), (9, 0.375, false)]
        );
        assert_eq!((times[0].ci95, times[1].fastest), (None, 0.25));
        let (lo, hi) = times[1].ci95.unwrap();
        assert!((hi - 0.375 - 1.96 * 0.125).abs() < 1e-12 && (0.375 - lo - 1.96 * 0.125).abs() < 1e-12);
        assert_eq!(baseline_times(&runs, |s| Some(s.trial_seconds)).len(), 3);
        assert!(baseline_times(&runs, |s| s.sat_seconds).is_empty());
        assert_eq!(runs_per_size(&runs), (1, 2));
        assert_eq!(
            summaries(&runs).iter().map(|p| (p.bits, p.runs)).collect::<Vec<_>>(),
            [(8, 2), (9, 2), (10, 1)]
        );
        assert_eq!(censoring(&runs), Censoring { runs: 5, step_cap: 1, step_cap_steps: 1234, budget: 1 });
    }

    #[test]
    fn a_sweep_stops_after_the_first_size_its_budget_censors_whole() {
        let control = Control::new();
        let plan = SweepPlan {
            bits: vec![10, 40, 41],
            samples: 2,
            seed: 3,
            params: FactorParams::default(),
            max_steps: u64::MAX,
            with_sat: false,
            // Wall time: generous enough that the 10-bit size (microseconds) finishes on a
            // loaded machine (20 ms did not, once, under CI load; 0.5 s failed twice at load 8
            // with four builds beside it), far below a 40-bit run.
            budget: Some(Duration::from_secs(2)),
        };
        let mut seen = Vec::new();
        let s = sweep(&plan, &control, |p| seen.push(p.bits)).unwrap();
        // 40-bit semiprimes take far longer than 2 s: that size is censored whole, 41 never runs.
        assert_eq!(seen, [10, 40]);
        assert_eq!(s.points.iter().map(|p| (p.bits, p.censored)).collect::<Vec<_>>(), [(10, 0), (40, 2)]);
        assert_eq!(s.runs.len(), 4);
        assert_eq!(control.done(), 4);
        assert_eq!(s.budget, Some(2.0));
        // The runs are those of the points alone.
        let alone = sweep_point(10, 2, 3, &plan.params, u64::MAX, false, &Stop::new(&control)).unwrap();
        assert!(s.runs.iter().zip(&alone).all(|(a, b)| (a.n, &a.run) == (b.n, &b.run)));
        let without = SweepPlan { bits: vec![10, 11, 12], budget: None, ..plan };
        let s = sweep(&without, &control, |_| {}).unwrap();
        assert_eq!(s.points.len(), 3);
        assert!(s.steps_doublings_per_bit.is_some() && s.sat_doublings_per_bit.is_none());
    }
}
