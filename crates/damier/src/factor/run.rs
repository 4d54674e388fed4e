//! Runs: one run to absorption under a step cap, independent seeded runs in parallel, and
//! the sweep over sizes of random balanced semiprimes beside the two baselines.
//!
//! Reproducibility: run `i` of [`run_samples`] seeded with `s` uses the generator seed
//! [`stream_seed`]`(s, i)`, whatever thread runs it, so results never depend on the number of
//! threads; `damier factor N --seed` with that seed replays it.

use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

use super::{Automaton, FactorError, Params, arith, sat};
use crate::automaton::experiment::{CHUNK, Censored, Stop, stream_seed};
use crate::control::Interrupted;

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RunResult {
    /// The number factored.
    pub n: u64,
    /// The seed of the run's generator.
    pub seed: u64,
    /// Updates made: the step at which the configuration became absorbing, when it did.
    pub steps: u64,
    /// Border bits flipped.
    pub flips: u64,
    /// The factorization `(min, max)`, checked by multiplication, when absorbed.
    pub factors: Option<(u64, u64)>,
    /// Why the run stopped without a factorization.
    pub censored: Option<Censored>,
}

impl Automaton {
    /// Runs to the first absorbing configuration, at most `max_steps` updates in all
    /// (counting those already made), polling `stop` every [`CHUNK`] updates and reporting
    /// the updates made to `stop.control`.
    pub fn run(&mut self, max_steps: u64, stop: &Stop) -> Result<RunResult, Interrupted> {
        self.run_inner(max_steps, stop, true)
    }

    fn run_inner(
        &mut self,
        max_steps: u64,
        stop: &Stop,
        report_steps: bool,
    ) -> Result<RunResult, Interrupted> {
        let mut censored = None;
        while !self.is_absorbing() {
            if self.steps() >= max_steps {
                censored = Some(Censored::StepCap);
                break;
            }
            if stop.control.cancelled() {
                return Err(Interrupted);
            }
            if stop.deadline.is_some_and(|d| Instant::now() >= d) {
                censored = Some(Censored::Budget);
                break;
            }
            let before = self.steps();
            self.run_steps(CHUNK.min(max_steps - before));
            if report_steps {
                stop.control.advance(self.steps() - before);
            }
        }
        Ok(self.result(censored))
    }

    /// The current state as a [`RunResult`].
    pub fn result(&self, censored: Option<Censored>) -> RunResult {
        let factors = self.factors();
        RunResult {
            n: self.n(),
            seed: self.seed(),
            steps: self.steps(),
            flips: self.flips(),
            factors,
            censored: if factors.is_some() { None } else { censored },
        }
    }
}

/// `samples` independent runs on `n` from the random start, in parallel on the current rayon
/// pool, run `i` seeded with [`stream_seed`]`(seed, i)`; results in sample order. Advances
/// `stop.control` by one per finished run.
pub fn run_samples(
    n: u64,
    params: &Params,
    seed: u64,
    samples: usize,
    max_steps: u64,
    stop: &Stop,
) -> Result<Vec<RunResult>, FactorError> {
    Automaton::new(n, params, 0)?;
    let out: Result<Vec<RunResult>, Interrupted> = (0..samples)
        .into_par_iter()
        .map(|i| {
            let mut au = Automaton::new(n, params, stream_seed(seed, i as u64)).expect("checked");
            let r = au.run_inner(max_steps, stop, false)?;
            stop.control.advance(1);
            Ok(r)
        })
        .collect();
    Ok(out?)
}

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
    pub run: RunResult,
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
    params: &Params,
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
            let mut au = Automaton::new(n, params, s)?;
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
    let mean = |f: &dyn Fn(&SweepSample) -> f64| {
        (k > 0).then(|| solved.iter().map(|s| f(s)).sum::<f64>() / k as f64)
    };
    let mut keys: Vec<Option<u64>> =
        samples.iter().map(|s| s.run.factors.is_some().then_some(s.run.steps)).collect();
    keys.sort_by_key(|k| (k.is_none(), *k));
    let len = keys.len();
    let median_steps = match len {
        0 => None,
        _ if len % 2 == 1 => keys[len / 2].map(|v| v as f64),
        _ => keys[len / 2 - 1].zip(keys[len / 2]).map(|(a, b)| (a as f64 + b as f64) / 2.0),
    };
    let all = |f: &dyn Fn(&SweepSample) -> f64| {
        if samples.is_empty() { 0.0 } else { samples.iter().map(f).sum::<f64>() / samples.len() as f64 }
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
    // The line needs two distinct x; the fit itself is the automaton growth's least squares.
    if !xs.iter().any(|&x| x != xs.first().copied().unwrap_or(x)) {
        return None;
    }
    Some(crate::automaton::growth::least_squares(&xs, &ys))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;

    #[test]
    fn samples_do_not_depend_on_the_thread_count() {
        let control = Control::new();
        let stop = Stop::new(&control);
        let p = Params::default();
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| run_samples(3599, &p, 11, 6, 10_000_000, &stop)).unwrap()
        };
        let one = run(1);
        assert_eq!(one, run(3));
        assert_eq!(control.done(), 12);
        for (i, r) in one.iter().enumerate() {
            assert_eq!(r.seed, stream_seed(11, i as u64));
            assert_eq!(r.factors, Some((59, 61)));
            // The sample replays alone from its seed.
            let mut au = Automaton::new(3599, &p, r.seed).unwrap();
            assert_eq!(&au.run(u64::MAX, &stop).unwrap(), r);
        }
    }

    #[test]
    fn the_cap_censors_and_cancel_interrupts() {
        let control = Control::new();
        let stop = Stop::new(&control);
        let mut au = Automaton::new(14_363_581, &Params::default(), 1).unwrap();
        let r = au.run(1000, &stop).unwrap();
        assert_eq!((r.steps, r.factors, r.censored), (1000, None, Some(Censored::StepCap)));
        assert_eq!(control.done(), 1000);
        control.cancel();
        assert_eq!(au.run(u64::MAX, &stop), Err(Interrupted));
        assert!(matches!(
            run_samples(15, &Params::default(), 1, 3, 100, &stop),
            Err(FactorError::Interrupted(_))
        ));
        assert_eq!(run_samples(13, &Params::default(), 1, 3, 100, &stop), Err(FactorError::Prime(13)));
    }

    #[test]
    fn sweep_points_are_reproducible_and_checked() {
        let control = Control::new();
        let stop = Stop::new(&control);
        let p = Params::default();
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
}
