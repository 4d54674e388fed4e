//! What a count will cost, said before it runs: [`projected_cost`] prices a run of the task
//! list and returns a [`CostWarning`] when it is projected past a threshold (one core hour for
//! the CLI's `queens count` and the Python package's `queens.count`); each front end says it
//! its own way (the CLI on stderr with the ways to split the count, Python as a
//! `UserWarning`). A count that only the backtracker could make past the fast engine's range
//! is refused instead ([`crate::queens::reach`]).
//!
//! ```
//! use damier::control::Control;
//! use damier::cpu::Isa;
//! use damier::queens::count::cost::{CostQuery, projected_cost};
//! use damier::queens::count::tasks::TaskEngine;
//!
//! // n = 12 is known to be cheap: no estimate runs, no warning.
//! let small = CostQuery { n: 12, engine: TaskEngine::Quarters, tasks: 10, all_tasks: 10, isa: Isa::best() };
//! assert_eq!(projected_cost(&small, 1.0, 1, &Control::new()).unwrap(), None);
//! // n = 27 is projected from the cost per solution measured on whole tasks: days.
//! let big = CostQuery { n: 27, ..small };
//! let warning = projected_cost(&big, 1.0, 1, &Control::new()).unwrap().unwrap();
//! assert!(warning.core_hours > 24.0);
//! ```

use std::time::{Duration, Instant};

use super::devices::TaskCounter;
use super::estimate::{self, CounterSample, Estimate, EstimateOptions};
use super::known;
use super::tasks::{MAX_TASK_N, MIN_TASK_N, TaskEngine, TaskError, TaskList};
use crate::control::{Control, Interrupted};
use crate::cpu::Isa;
use crate::util::number;

/// The threshold of the front ends' warning: counts projected past this many core hours are
/// announced first.
pub const WARN_CORE_HOURS: f64 = 1.0;

/// Most CPU time per solution of a whole count by each engine, in nanoseconds: above every
/// figure measured, with a margin (the quarters engine: 2.1 to 5.8 ns at n = 18..27 in
/// docs/performance.md, 0.9 to 2.2 ns on whole tasks of n = 25..27 in November 2026; the
/// backtracker: 175 to 240 ns at n = 15..17 (one thread, `count N --strategy backtrack`) and
/// 213 ns on a share of n = 23). Below `q(n)` times this, a count is known to be cheaper than
/// the warning's threshold and no estimate runs (it would cost more than the count: seconds
/// at n = 21).
fn ceiling_ns_per_solution(engine: TaskEngine) -> f64 {
    match engine {
        TaskEngine::Quarters => 10.0,
        TaskEngine::Backtrack => 1000.0,
    }
}

/// Tasks timed by the quick estimate.
const QUICK_SAMPLES: u32 = 6;

/// From this n on the quarters engine's quick estimate is not quick (a whole task takes about
/// a minute of CPU at n = 27 and several at 28, and matching part of each task's queries leans
/// low: 0.09x at n = 27), so the warning projects from
/// the cost per solution measured on whole tasks instead ([`measured_ns_per_solution`]).
const MEASURED_FROM: u32 = 27;

/// The range of CPU time per solution, in nanoseconds, that `damier queens estimate` measured
/// on whole tasks with each vector unit (November 2026, docs/performance.md), widened: AVX-512
/// 0.98 to 2.38 ns at n = 20..27 (quiet and under load), AVX2 1.5 to 3.5 ns and portable 2.3 to
/// 5.7 ns at n = 20..25. What a count of n >= [`MEASURED_FROM`] is projected with.
fn measured_ns_per_solution(isa: Isa) -> (f64, f64) {
    match isa {
        Isa::Avx512 => (1.0, 2.5),
        Isa::Avx2 => (1.5, 3.5),
        // NEON's speed is unmeasured (no ARM machine has run `damier queens bench` yet):
        // the portable range, which its 128-bit vectors should not be slower than.
        Isa::Portable | Isa::Neon => (2.3, 6.0),
    }
}

/// Wall time the quick estimate of the backtracker may take (a task of it can take hours).
const QUICK_BACKTRACK_BUDGET: Duration = Duration::from_secs(3);

/// The count to price: `tasks` of the task list of n by `engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostQuery {
    /// Board size.
    pub n: u32,
    /// The engine that will count.
    pub engine: TaskEngine,
    /// Tasks the run counts (a share's, less those a journal holds).
    pub tasks: u64,
    /// Tasks of the whole count of n.
    pub all_tasks: u64,
    /// The vector unit the quarters engine runs on.
    pub isa: Isa,
}

/// How a [`CostWarning`]'s projection was made.
#[derive(Clone, Debug, PartialEq)]
pub enum CostBasis {
    /// From the cost per solution measured on whole tasks (n >= 27 by the quarters engine).
    Measured {
        /// Core hours at the lowest cost per solution measured.
        low: f64,
        /// Core hours at the highest (the projection).
        high: f64,
        /// Solutions in this run (projected).
        solutions: f64,
        /// The lowest cost per solution measured, nanoseconds.
        low_ns: f64,
        /// The highest, nanoseconds.
        high_ns: f64,
    },
    /// From a quick estimate on a few random tasks.
    Quick {
        /// The estimate, scaled to this run's part of the tasks.
        estimate: Estimate,
        /// Seed of the tasks drawn.
        seed: u64,
        /// Seconds the estimate took.
        seconds: f64,
        /// The timed tasks did not all finish in the time allowed (a lower bound).
        cut_short: bool,
    },
}

/// A count projected past the threshold: what the front ends announce before it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct CostWarning {
    /// The count priced.
    pub query: CostQuery,
    /// Projected core hours.
    pub core_hours: f64,
    /// How it was projected.
    pub basis: CostBasis,
}

impl CostWarning {
    /// How the projection was made, in words: `"{low} to {high}: about … solutions …"` or
    /// `"a quick estimate from k random tasks (seed S, t s): …"`.
    pub fn reason(&self) -> String {
        match &self.basis {
            CostBasis::Measured { low, high, solutions, low_ns, high_ns } => format!(
                "{} to {}: about {} solutions in this run at {} to {} ns \
                 each, the cost per solution `damier queens estimate` measured on whole tasks with {}",
                number(*low),
                number(*high),
                number(*solutions),
                number(*low_ns),
                number(*high_ns),
                self.query.isa.name(),
            ),
            CostBasis::Quick { estimate: e, seed, seconds, cut_short } => format!(
                "a quick estimate from {} random tasks (seed {seed}, {} s): {} core hours, {}",
                e.samples,
                number(*seconds),
                number(e.core_hours),
                if *cut_short {
                    "at least (the timed tasks did not all finish in the time allowed)".to_string()
                } else {
                    format!("95% interval {} to {}", number(e.low), number(e.high))
                }
            ),
        }
    }
}

/// The projected cost of `query` when it passes `threshold_hours` (else `None`): from a quick
/// estimate ([`estimate::estimate_cost`] on a few whole tasks for the quarters engine up to
/// n = 26, a few seconds of [`estimate::estimate_backtrack_cost`] for the backtracker, its
/// tasks drawn from `seed`), and from the cost per solution measured on whole tasks from
/// n = 27 on. Runs no estimate when the count is known to be cheaper (`q(n)` times a ceiling
/// of the cost per solution above every figure measured), so small counts pay nothing; n
/// without a task list is not priced.
pub fn projected_cost(
    query: &CostQuery,
    threshold_hours: f64,
    seed: u64,
    control: &Control,
) -> Result<Option<CostWarning>, TaskError> {
    if !(MIN_TASK_N..=MAX_TASK_N).contains(&query.n) || query.tasks == 0 || query.all_tasks == 0 {
        return Ok(None);
    }
    let fraction = query.tasks as f64 / query.all_tasks as f64;
    let solutions = known::projected_total(query.n);
    let hours_at = |ns: f64| solutions * fraction * ns * 1e-9 / 3600.0;
    if hours_at(ceiling_ns_per_solution(query.engine)) < threshold_hours {
        return Ok(None);
    }
    let (core_hours, basis) = if query.engine == TaskEngine::Quarters && query.n >= MEASURED_FROM {
        let (low_ns, high_ns) = measured_ns_per_solution(query.isa);
        let (low, high) = (hours_at(low_ns), hours_at(high_ns));
        (high, CostBasis::Measured { low, high, solutions: solutions * fraction, low_ns, high_ns })
    } else {
        let start = Instant::now();
        let (estimate, cut_short) = match query.engine {
            TaskEngine::Quarters => {
                let options = EstimateOptions {
                    samples: QUICK_SAMPLES,
                    seed,
                    isa: query.isa,
                    queries: None,
                    threads: 1,
                };
                let e = estimate::estimate_cost(query.n, &options, control)?;
                // This run's part of the tasks; the set-up is paid once per process.
                let setup = e.setup_seconds / 3600.0;
                let part = |h: f64| (h - setup).max(0.0) * fraction + setup;
                let (core_hours, low, high) = (part(e.core_hours), part(e.low), part(e.high));
                (Estimate { core_hours, low, high, ..e }, false)
            }
            TaskEngine::Backtrack => estimate::estimate_backtrack_cost(
                query.n,
                query.tasks,
                QUICK_SAMPLES,
                seed,
                QUICK_BACKTRACK_BUDGET,
                control,
            )?,
        };
        let seconds = start.elapsed().as_secs_f64();
        (estimate.core_hours, CostBasis::Quick { estimate, seed, seconds, cut_short })
    };
    Ok((core_hours >= threshold_hours).then_some(CostWarning { query: *query, core_hours, basis }))
}

/// Tasks of a counter's quick estimate ([`projected_cost_on`]), counted together as a count
/// would count them, and its longest wall time.
const QUICK_COUNTER_SAMPLES: u32 = 256;
const QUICK_COUNTER_BUDGET: Duration = Duration::from_secs(3);

/// A run on a [`TaskCounter`] to price ([`projected_cost_on`]): the `left` tasks of `list` it
/// counts.
#[derive(Clone, Copy, Debug)]
pub struct CounterCostQuery<'a> {
    /// The task list of n.
    pub list: &'a TaskList,
    /// Tasks the run counts (a share's, less those a journal holds).
    pub left: usize,
    /// The algorithm the counter runs.
    pub engine: TaskEngine,
    /// Most time per solution the counter takes on any device of its kind, nanoseconds:
    /// below `q(n)` times it the count is known to be cheap and no estimate runs.
    pub ceiling_ns_per_solution: f64,
}

/// How a [`CounterCost`] was projected.
#[derive(Clone, Debug, PartialEq)]
pub enum CounterCostBasis {
    /// From the sampled tasks that finished in the time allowed.
    Timed {
        /// Tasks timed.
        samples: u64,
        /// The 95% interval, hours of this run.
        low: f64,
        /// Its high end.
        high: f64,
    },
    /// Not one of the `sampled` tasks, counted together, finished in the time allowed: the
    /// projection is a lower bound.
    NoneFinished {
        /// Tasks sampled.
        sampled: u32,
    },
}

/// A run on a counter projected past the threshold ([`projected_cost_on`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CounterCost {
    /// Projected hours of the counter for this run (its set-up left out: it is paid).
    pub hours: f64,
    /// Seed of the tasks drawn.
    pub seed: u64,
    /// Seconds the quick estimate took.
    pub seconds: f64,
    /// How it was projected.
    pub basis: CounterCostBasis,
}

/// The projected cost of `query` on `counter` when it passes `threshold_hours` (else `None`),
/// from a quick estimate ([`estimate::estimate_on`]): up to 256 random tasks (drawn with
/// `seed`) counted together for at most 3 seconds; when none finishes in that time, the
/// projection is a lower bound ([`CounterCostBasis::NoneFinished`]). Runs none when the count
/// is known to be cheap (`q(n)` times [`CounterCostQuery::ceiling_ns_per_solution`]) or has
/// no task left. The warning before a GPU count (crate damier-gpu) is this on the GPU.
pub fn projected_cost_on<C: TaskCounter>(
    counter: &C,
    query: &CounterCostQuery,
    threshold_hours: f64,
    seed: u64,
    control: &Control,
) -> Result<Option<CounterCost>, C::Error>
where
    C::Error: From<Interrupted>,
{
    let list = query.list;
    if query.left == 0 || list.is_empty() {
        return Ok(None);
    }
    let fraction = query.left as f64 / f64::from(list.len());
    let at_ceiling =
        known::projected_total(list.n()) * fraction * query.ceiling_ns_per_solution * 1e-9 / 3600.0;
    if at_ceiling < threshold_hours {
        return Ok(None);
    }
    let start = Instant::now();
    // The set-up is left out: the device is open already.
    let sample =
        CounterSample { engine: query.engine, samples: QUICK_COUNTER_SAMPLES, seed, setup_seconds: 0.0 };
    let estimate = estimate::within_budget(QUICK_COUNTER_BUDGET, control, |inner| {
        estimate::estimate_on(counter, list, &sample, inner, &|_| {})
    });
    let seconds = start.elapsed().as_secs_f64();
    let (hours, basis) = match estimate {
        Ok(e) => {
            // This run's part of the tasks.
            let part = |h: f64| h.max(0.0) * fraction;
            (
                part(e.core_hours),
                CounterCostBasis::Timed { samples: e.samples, low: part(e.low), high: part(e.high) },
            )
        }
        Err(e) if C::interrupted(&e) && !control.cancelled() => {
            // Not one task finished in the budget: together they take longer.
            let sampled = QUICK_COUNTER_SAMPLES.min(list.len());
            (
                seconds / f64::from(sampled) * query.left as f64 / 3600.0,
                CounterCostBasis::NoneFinished { sampled },
            )
        }
        Err(e) => return Err(e),
    };
    Ok((hours >= threshold_hours).then_some(CounterCost { hours, seed, seconds, basis }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(n: u32, engine: TaskEngine) -> CostQuery {
        CostQuery { n, engine, tasks: 100, all_tasks: 100, isa: Isa::Avx2 }
    }

    #[test]
    fn counts_known_to_be_cheap_are_not_priced() {
        let control = Control::new();
        for n in [1, 3, 12, 20, 33] {
            assert_eq!(
                projected_cost(&query(n, TaskEngine::Quarters), WARN_CORE_HOURS, 1, &control),
                Ok(None)
            );
        }
        let none = CostQuery { tasks: 0, ..query(27, TaskEngine::Quarters) };
        assert_eq!(projected_cost(&none, WARN_CORE_HOURS, 1, &control), Ok(None));
    }

    #[test]
    fn large_counts_are_projected_from_the_measured_cost_per_solution() {
        let w = projected_cost(&query(28, TaskEngine::Quarters), WARN_CORE_HOURS, 1, &Control::new())
            .unwrap()
            .expect("q(28) takes core years");
        let hours = known::projected_total(28) * 3.5e-9 / 3600.0;
        assert!((w.core_hours / hours - 1.0).abs() < 1e-12, "{w:?}");
        assert!(
            w.reason().contains("at 1.5 to 3.5 ns each") && w.reason().contains("avx2"),
            "{}",
            w.reason()
        );
        // Half the tasks: half the hours.
        let half = CostQuery { tasks: 50, ..query(28, TaskEngine::Quarters) };
        let h = projected_cost(&half, WARN_CORE_HOURS, 1, &Control::new()).unwrap().unwrap();
        assert!((h.core_hours * 2.0 / w.core_hours - 1.0).abs() < 1e-12);
        // Below the threshold: no warning.
        assert_eq!(projected_cost(&half, 1e12, 1, &Control::new()), Ok(None));
    }

    /// A counter whose tasks never finish: they wait for the control.
    struct Stuck;

    impl TaskCounter for Stuck {
        type Error = TaskError;

        fn count_tasks(
            &self,
            _: &TaskList,
            _: &[u32],
            control: &Control,
            _: &(dyn Fn(crate::queens::count::tasks::TaskDone) + Sync),
        ) -> Result<(), TaskError> {
            while !control.cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(Interrupted.into())
        }

        fn interrupted(e: &TaskError) -> bool {
            matches!(e, TaskError::Interrupted(_))
        }

        fn chunk(&self, _: usize) -> usize {
            1
        }
    }

    #[test]
    fn a_counter_is_priced_by_its_quick_estimate_or_its_budget() {
        let list = TaskList::new(10).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let cpu = super::super::devices::CpuCounter::new(TaskEngine::Backtrack, Isa::Portable, None, &pool);
        let control = Control::new();
        let all = list.len() as usize;
        let query = CounterCostQuery {
            list: &list,
            left: all,
            engine: TaskEngine::Backtrack,
            ceiling_ns_per_solution: 1e9,
        };
        // Known to be cheap, or nothing left: no estimate runs.
        let cheap = CounterCostQuery { ceiling_ns_per_solution: 1.0, ..query };
        assert_eq!(projected_cost_on(&cpu, &cheap, WARN_CORE_HOURS, 1, &control), Ok(None));
        assert_eq!(
            projected_cost_on(&Stuck, &CounterCostQuery { left: 0, ..query }, 0.0, 1, &control),
            Ok(None)
        );
        // Every task of n = 10 timed (fewer than the quick sample), projected for all of them.
        let c = projected_cost_on(&cpu, &query, 0.0, 7, &control).unwrap().expect("past a zero threshold");
        assert_eq!(c.seed, 7);
        let CounterCostBasis::Timed { samples, low, high } = c.basis else { panic!("{c:?}") };
        assert_eq!(samples, u64::from(list.len()));
        assert!(low <= c.hours && c.hours <= high, "{c:?}");
        // Half the tasks left: half the hours.
        let half =
            projected_cost_on(&cpu, &CounterCostQuery { left: all / 2, ..query }, 0.0, 7, &control).unwrap();
        assert!(half.is_some());
        // Nothing finishes in the budget: a lower bound from the time waited.
        let stuck = projected_cost_on(&Stuck, &query, 0.0, 1, &control).unwrap().expect("a lower bound");
        assert_eq!(stuck.basis, CounterCostBasis::NoneFinished { sampled: list.len() });
        assert!(stuck.seconds >= QUICK_COUNTER_BUDGET.as_secs_f64());
        assert!(stuck.hours > 0.0);
        // Cancelled by the caller: the counter's interruption, not a projection.
        control.cancel();
        assert!(matches!(
            projected_cost_on(&Stuck, &query, 0.0, 1, &control),
            Err(TaskError::Interrupted(_))
        ));
    }
}
