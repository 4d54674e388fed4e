//! Runs: one run to absorption under a step cap, and independent seeded runs in parallel
//! (the sweep over sizes is in [`super::sweep`]).
//!
//! Reproducibility: run `i` of [`run_samples`] seeded with `s` uses the generator seed
//! [`stream_seed`]`(s, i)`, whatever thread runs it, so results never depend on the number of
//! threads; `damier factor N --seed` with that seed replays it.
//!
//! ```
//! use damier::control::{Control, Stop};
//! use damier::factor::{FactorParams, run_samples};
//!
//! let runs = run_samples(143, &FactorParams::default(), 1, 3, 10_000_000, &Stop::new(&Control::new())).unwrap();
//! assert!(runs.iter().all(|r| r.factors == Some((11, 13))));
//! ```

use std::time::Instant;

use rayon::prelude::*;

use super::{FactorAutomaton, FactorError, FactorParams};
use crate::control::Interrupted;
use crate::control::{CHUNK, Censored, Stop, stream_seed};

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FactorRun {
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

impl FactorAutomaton {
    /// Runs to the first absorbing configuration or until the step counter reaches
    /// `max_steps` (a total, counting the updates already made; [`FactorAutomaton::run_steps`]
    /// counts from now), polling `stop` every [`CHUNK`] updates and reporting
    /// the updates made to `stop.control`.
    pub fn run_until(&mut self, max_steps: u64, stop: &Stop) -> Result<FactorRun, Interrupted> {
        self.run_inner(max_steps, stop, true)
    }

    pub(super) fn run_inner(
        &mut self,
        max_steps: u64,
        stop: &Stop,
        report_steps: bool,
    ) -> Result<FactorRun, Interrupted> {
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

    /// The current state as a [`FactorRun`].
    pub fn result(&self, censored: Option<Censored>) -> FactorRun {
        let factors = self.factors();
        FactorRun {
            n: self.n(),
            seed: self.seed(),
            steps: self.steps(),
            flips: self.flips(),
            factors,
            censored: if factors.is_some() { None } else { censored },
        }
    }
}

/// One number put to the automaton: its run, or that it is prime (serialised with the
/// factors as decimal strings, since JSON numbers beyond 2^53 lose precision in many readers).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Factoring {
    /// The number.
    pub n: u64,
    /// The factorization `(min, max)`, checked by multiplication, when found.
    #[cfg_attr(feature = "serde", serde(serialize_with = "pair_as_strings"))]
    pub factors: Option<(u64, u64)>,
    /// Updates made.
    pub steps: u64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// The seed of the run's generator.
    pub seed: u64,
    /// Border bits flipped.
    pub flips: u64,
    /// n is prime: there was nothing to run.
    pub prime: bool,
    /// Why the run stopped without a factorization.
    pub censored: Option<Censored>,
    /// The run's parameter q.
    pub q: f64,
    /// The run's parameter eps.
    pub eps: f64,
}

impl Factoring {
    /// The record of `run`, made with `params` in `seconds`.
    pub fn of_run(run: &FactorRun, params: &FactorParams, seconds: f64) -> Factoring {
        Factoring {
            n: run.n,
            factors: run.factors,
            steps: run.steps,
            seconds,
            seed: run.seed,
            flips: run.flips,
            prime: false,
            censored: run.censored,
            q: params.q,
            eps: params.eps,
        }
    }

    /// The record of a prime n: no run.
    pub fn prime(n: u64, params: &FactorParams, seed: u64, seconds: f64) -> Factoring {
        let none = FactorRun { n, seed, steps: 0, flips: 0, factors: None, censored: None };
        Factoring { prime: true, ..Factoring::of_run(&none, params, seconds) }
    }
}

/// Writes a pair of numbers as two decimal strings.
#[cfg(feature = "serde")]
fn pair_as_strings<S: serde::Serializer>(pair: &Option<(u64, u64)>, s: S) -> Result<S::Ok, S::Error> {
    match pair {
        Some((lo, hi)) => s.collect_seq([lo.to_string(), hi.to_string()]),
        None => s.serialize_none(),
    }
}

/// `samples` independent runs on `n` from the random start, in parallel on the current rayon
/// pool, run `i` seeded with [`stream_seed`]`(seed, i)`; results in sample order. Advances
/// `stop.control` by one per finished run.
pub fn run_samples(
    n: u64,
    params: &FactorParams,
    seed: u64,
    samples: usize,
    max_steps: u64,
    stop: &Stop,
) -> Result<Vec<FactorRun>, FactorError> {
    FactorAutomaton::new(n, params, 0)?;
    let out: Result<Vec<FactorRun>, Interrupted> = (0..samples)
        .into_par_iter()
        .map(|i| {
            let mut au = FactorAutomaton::new(n, params, stream_seed(seed, i as u64)).expect("checked");
            let r = au.run_inner(max_steps, stop, false)?;
            stop.control.advance(1);
            Ok(r)
        })
        .collect();
    Ok(out?)
}

/// The automaton's median steps to a factorization, projected for a `bits`-bit semiprime from
/// the sweep of docs/factor.md: measured up to 26 bits (2 × 10^8 updates there), growing about
/// × 1.76 per bit (least squares over 8 to 26 bits). A rough guide for warnings, not a bound:
/// single runs vary by orders of magnitude.
pub fn projected_median_steps(bits: u32) -> f64 {
    MEDIAN_STEPS_AT_26_BITS * GROWTH_PER_BIT.powi(bits as i32 - 26)
}

/// A run of N expected to stop at its step cap: the projected median steps of N's size pass a
/// tenth of the cap. Said before the run starts (the CLI's warning on stderr, the Python
/// package's `UserWarning`), as its `Display`:
///
/// ```
/// use damier::factor::run::CapWarning;
///
/// let w = CapWarning::of(1_152_921_515_344_265_237, 1000).unwrap(); // 61 bits
/// assert!(w.to_string().starts_with("N has 61 bits: runs of that size need about"));
/// assert!(w.to_string().ends_with("most likely stop at its cap without a factorization"));
/// assert_eq!(CapWarning::of(143, 1_000_000), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CapWarning {
    /// Bits of N.
    pub bits: u32,
    /// [`projected_median_steps`] of that many bits.
    pub projected_steps: f64,
    /// The run's step cap.
    pub max_steps: u64,
}

impl CapWarning {
    /// The warning for a run of `n` capped at `max_steps`, or `None` when its size's projected
    /// median is within a tenth of the cap.
    pub fn of(n: u64, max_steps: u64) -> Option<CapWarning> {
        let bits = 64 - n.leading_zeros();
        let projected_steps = projected_median_steps(bits);
        (projected_steps > max_steps as f64 / 10.0).then_some(CapWarning { bits, projected_steps, max_steps })
    }
}

impl std::fmt::Display for CapWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "N has {} bits: runs of that size need about {} steps (median projected from the \
             measured sizes, × {GROWTH_PER_BIT} per bit, docs/factor.md), against a cap of {} steps: {}",
            self.bits,
            crate::util::number(self.projected_steps),
            self.max_steps,
            if self.projected_steps > self.max_steps as f64 {
                "this run will most likely stop at its cap without a factorization"
            } else {
                "it may well stop at its cap"
            }
        )
    }
}

/// One run of the automaton on N as `damier factor N` and the Python package's
/// `damier.factor` ask for it, prepared: a prime needs no run (its record is ready), any other
/// N gets its automaton at its start and the warning to give before the run, if any.
///
/// ```
/// use damier::control::Control;
/// use damier::factor::FactorParams;
/// use damier::factor::run::FactorRequest;
///
/// let params = FactorParams::default();
/// match FactorRequest::new(13, &params, 1, 1000).unwrap() {
///     FactorRequest::Prime(record) => assert!(record.prime),
///     FactorRequest::Run(_) => unreachable!("13 is prime"),
/// }
/// let FactorRequest::Run(run) = FactorRequest::new(143, &params, 1, 1_000_000).unwrap() else { panic!() };
/// assert_eq!(run.warning, None);
/// let record = run.run(&Control::new()).unwrap();
/// assert_eq!(record.factors.map(|(p, q)| p * q), Some(143));
/// ```
#[derive(Debug)]
pub enum FactorRequest {
    /// N is prime: nothing to run.
    Prime(Factoring),
    /// The run to make.
    Run(Box<PendingRun>),
}

/// A run prepared by [`FactorRequest::new`], not yet made.
#[derive(Debug)]
pub struct PendingRun {
    /// The automaton at its start (its grid size is `lb() x la()`).
    pub automaton: FactorAutomaton,
    /// What to say before the run when it will likely stop at its cap.
    pub warning: Option<CapWarning>,
    params: FactorParams,
    max_steps: u64,
    started: Instant,
}

impl FactorRequest {
    /// Prepares the run of N from `seed` capped at `max_steps`; the record's seconds count from
    /// now. Refuses N without a run to make other than a prime (0, 1, ...:
    /// [`FactorAutomaton::new`]'s errors but [`FactorError::Prime`]).
    pub fn new(
        n: u64,
        params: &FactorParams,
        seed: u64,
        max_steps: u64,
    ) -> Result<FactorRequest, FactorError> {
        let started = Instant::now();
        match FactorAutomaton::new(n, params, seed) {
            Err(FactorError::Prime(_)) => {
                Ok(FactorRequest::Prime(Factoring::prime(n, params, seed, started.elapsed().as_secs_f64())))
            }
            Err(e) => Err(e),
            Ok(automaton) => Ok(FactorRequest::Run(Box::new(PendingRun {
                automaton,
                warning: CapWarning::of(n, max_steps),
                params: *params,
                max_steps,
                started,
            }))),
        }
    }
}

impl PendingRun {
    /// The step cap.
    pub fn max_steps(&self) -> u64 {
        self.max_steps
    }

    /// Runs to a factorization or the cap, polling `control` (advanced by the steps made):
    /// the record of the run.
    pub fn run(mut self, control: &crate::control::Control) -> Result<Factoring, Interrupted> {
        let run = self.automaton.run_until(self.max_steps, &Stop::new(control))?;
        Ok(Factoring::of_run(&run, &self.params, self.started.elapsed().as_secs_f64()))
    }
}

/// Measured median steps at 26 bits (docs/factor.md, Results).
const MEDIAN_STEPS_AT_26_BITS: f64 = 2e8;
/// Fitted growth of the median steps per bit (docs/factor.md, Results).
const GROWTH_PER_BIT: f64 = 1.76;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;

    #[test]
    fn samples_do_not_depend_on_the_thread_count() {
        let control = Control::new();
        let stop = Stop::new(&control);
        let p = FactorParams::default();
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
            let mut au = FactorAutomaton::new(3599, &p, r.seed).unwrap();
            assert_eq!(&au.run_until(u64::MAX, &stop).unwrap(), r);
        }
    }

    #[test]
    fn the_cap_censors_and_cancel_interrupts() {
        let control = Control::new();
        let stop = Stop::new(&control);
        let mut au = FactorAutomaton::new(14_363_581, &FactorParams::default(), 1).unwrap();
        let r = au.run_until(1000, &stop).unwrap();
        assert_eq!((r.steps, r.factors, r.censored), (1000, None, Some(Censored::StepCap)));
        assert_eq!(control.done(), 1000);
        control.cancel();
        assert_eq!(au.run_until(u64::MAX, &stop), Err(Interrupted));
        assert!(matches!(
            run_samples(15, &FactorParams::default(), 1, 3, 100, &stop),
            Err(FactorError::Interrupted(_))
        ));
        assert_eq!(run_samples(13, &FactorParams::default(), 1, 3, 100, &stop), Err(FactorError::Prime(13)));
    }
}
