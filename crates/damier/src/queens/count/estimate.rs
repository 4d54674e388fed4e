//! What a count will cost before it runs: time a random sample of its tasks and project.
//!
//! The tasks of one n differ a lot in cost, but they are a fixed, finite population, so the
//! mean time of `K` tasks drawn without replacement estimates the mean of all `N` of them
//! without bias, and the total cost is `N` times it, plus the one-off building of the quarter
//! table. The interval is the 95% one for a mean (Student's t with `K - 1` degrees of freedom,
//! with the finite-population correction `sqrt((N - K) / (N - 1))`), scaled the same way; with
//! heavy-tailed task times it is only as good as the sample is large.
//!
//! **Sub-task sampling** (optional: [`EstimateOptions::queries`]). From n = 25 up a task takes
//! seconds to minutes (about 4-7x more per n), so whole tasks leave small samples. A sampled
//! task instead runs in full what every query needs (assembling its top and bottom halves,
//! sealing the stored keys) and matches only a uniform random sample of its top halves
//! (queries; where a count makes them in chunks, each chunk's share of the sample), twice (the
//! first eighth alone, then the whole sample), on the count's own code and in its bounded
//! memory. A query's cost depends on
//! the others (only the first read of a row in a matcher call misses the cache), so the
//! matching time is not scaled by the number of queries but priced: the matcher counts rows
//! read and distinct rows read per call for both samples and for all of the task's queries,
//! the two timings price both, and the prices apply to all queries. Measured against whole
//! tasks (docs/performance.md) this is within 3% at n = 23 but still 1.3x high at n = 24 and
//! 1.6x at 25, so it is a fast mode that leans high, not the default. The same scaling of the
//! sampled queries' solutions estimates each task's count without bias; summed like the
//! times, it projects the total number of solutions, which can be held against the known
//! totals (OEIS A000170) to check the sampling. With sub-sampled tasks the interval is two-stage
//! sampling's: the spread of the per-task estimates already holds the within-task noise, and
//! leaving out the finite-population correction (the "ultimate cluster" variance estimator)
//! makes it conservative.
//!
//! **Cost per solution.** From n = 26 up a task's time follows its number of solutions far more
//! closely than it varies from task to task (the engine's work is mostly the join that finds
//! them), so the ratio of the sample's total time to its total solutions, CPU time per
//! solution, is known more tightly than the mean task time (at n = 27, +-12% from 60 tasks
//! where the mean's interval is +-25%): its interval is the ratio estimator's, from the
//! spread of each task's time about the ratio times its solutions. Where q(n) is known (OEIS
//! A000170, n <= 27) that ratio times q(n) projects the whole count's cost with that tighter
//! interval ([`KnownCheck::core_hours`]); past it, the ratio still says how fast the engine
//! runs at n, whatever the total.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::count::estimate::{EstimateOptions, estimate_cost};
//!
//! let options = EstimateOptions { samples: 5, seed: 1, ..EstimateOptions::default() };
//! let e = estimate_cost(10, &options, &Control::new()).unwrap();
//! assert_eq!((e.n, e.samples), (10, 5));
//! assert!(e.low <= e.core_hours && e.core_hours <= e.high);
//! ```

use std::sync::Mutex;
use std::time::Instant;

use super::CountError;
use super::devices::TaskCounter;
use super::quarters::{self, TaskSample};
use super::tasks::{TaskDone, TaskEngine, TaskError, TaskList, sample_tasks};
use crate::control::{Control, Interrupted};
use crate::cpu::Isa;
use crate::stats::{mean_interval, ratio_interval};
use crate::util::thread_cpu_seconds;

/// The most tasks an estimate is asked to time: `samples` is 1 to this in every front end
/// (a sample larger than n's task list times every task).
pub const MAX_SAMPLES: u32 = 1_000_000;

/// How [`estimate_cost`] samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstimateOptions {
    /// Tasks timed, drawn at random without replacement. [default: 200] [range: 1..]
    pub samples: u32,
    /// Seed of the draws (of the tasks, and of the queries inside each task).
    pub seed: u64,
    /// The vector unit of the kernels (one this CPU lacks is refused). [default: `Isa::best()`]
    pub isa: Isa,
    /// Most queries (top halves) matched per task: a task with more matches a uniform random
    /// sample this large and its matching time is extrapolated (see the module docs; it
    /// leans high, by a factor measured to grow with n). `None`: whole tasks. [default: `None`]
    /// [range: 1..]
    pub queries: Option<u32>,
    /// Threads timing tasks at once, each task on one thread and timed by that thread's CPU
    /// time (so the figures stay per core; with every core busy, as in a count, they include
    /// the cores' contention for memory). [default: 1] [range: 1..]
    pub threads: usize,
}

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions { samples: 200, seed: 0, isa: Isa::best(), queries: None, threads: 1 }
    }
}

/// The projected cost of a count, in time of one core.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Estimate {
    /// Board size.
    pub n: u32,
    /// Tasks of the whole count.
    pub tasks: u64,
    /// Tasks timed.
    pub samples: u64,
    /// The engine timed.
    pub engine: TaskEngine,
    /// Projected core hours of the whole count (point estimate).
    pub core_hours: f64,
    /// Lower end of the 95% interval, core hours.
    pub low: f64,
    /// Upper end of the 95% interval, core hours.
    pub high: f64,
    /// Mean seconds per task in the sample (matching scaled up where it was sampled).
    pub task_seconds: f64,
    /// Standard deviation of the sampled task times, seconds.
    pub task_seconds_sd: f64,
    /// Seconds of set-up paid once per process (building the quarter table).
    pub setup_seconds: f64,
    /// How tasks were timed: `thread cpu` (immune to other programs) or `wall`.
    pub clock: &'static str,
    /// Most queries matched per task (`None`: whole tasks).
    pub queries_per_task: Option<u64>,
    /// Sampled tasks whose queries were sub-sampled (more than `queries_per_task`).
    pub subsampled_tasks: u64,
    /// Share of the sampled tasks' matching that actually ran (1: whole tasks).
    pub matched_fraction: f64,
    /// Projected number of solutions of n (point estimate, from the same sample): a check of
    /// the sampling against the known totals.
    pub solutions: f64,
    /// Lower end of the 95% interval of `solutions`.
    pub solutions_low: f64,
    /// Upper end of the 95% interval of `solutions`.
    pub solutions_high: f64,
    /// CPU (or wall) nanoseconds per solution found: the sampled tasks' time over their
    /// solutions (NaN without counts, or without solutions in the sample).
    pub ns_per_solution: f64,
    /// Lower end of the 95% interval of `ns_per_solution` (the ratio estimator's).
    pub ns_per_solution_low: f64,
    /// Upper end of the 95% interval of `ns_per_solution`.
    pub ns_per_solution_high: f64,
    /// The timed tasks, in the order of the task list: what the projection was made from.
    pub timed_tasks: Vec<TimedTask>,
    /// Interrupted before every sampled task finished ([`estimate_cost_with`]): the
    /// projection is made from the tasks that did. Tasks run in a random order and a task in
    /// flight runs to its end (so Ctrl-C can take one task's time), so these are still a
    /// random sample of n's tasks, only a smaller one.
    pub stopped_early: bool,
}

/// One task of an estimate's sample.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TimedTask {
    /// Its index in the task list ([`TaskList`]).
    pub index: u32,
    /// Its time, seconds (matching scaled up where its queries were sampled).
    pub seconds: f64,
    /// Its weighted number of solutions (scaled up where its queries were sampled).
    pub solutions: f64,
}

/// An estimate held against the known number of solutions (OEIS A000170, n <= 27): the
/// projected solutions come from the same sample as the projected time, so a known term
/// outside their interval says the sample is unrepresentative (a small sample at n = 27 once
/// projected a tenth of the true count), and the time projected from it should not be quoted.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct KnownCheck {
    /// q(n), from [`super::known::A000170`].
    pub known: u64,
    /// Whether `known` lies in the 95% interval of the projected solutions.
    pub inside: bool,
    /// The projected solutions over the known term.
    pub ratio: f64,
    /// Core hours of the whole count from the cost per solution: `q(n)` times
    /// [`Estimate::ns_per_solution`], plus the set-up (NaN when the sample found no solutions).
    pub core_hours: f64,
    /// Lower end of the 95% interval of `core_hours`.
    pub core_hours_low: f64,
    /// Upper end of the 95% interval of `core_hours`.
    pub core_hours_high: f64,
}

/// An estimate with the run's random seed and vector unit, and its check against q(n) where
/// q(n) is known (serialised as the estimate's fields, `isa`, `seed`, and `known_solutions`,
/// `known_inside` for a known n).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EstimateRecord {
    /// The estimate.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub estimate: Estimate,
    /// The vector unit the kernels ran on ([`Isa::name`]).
    pub isa: &'static str,
    /// The random seed of the sample.
    pub seed: u64,
    /// q(n) where it is known (n <= 27): the check of the sample.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub known_solutions: Option<u64>,
    /// Whether `known_solutions` lies in the projected solutions' 95 % interval.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub known_inside: Option<bool>,
    /// Core hours of the whole count from the cost per solution and `known_solutions`
    /// ([`KnownCheck::core_hours`]): the tighter projection where q(n) is known.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub known_core_hours: Option<f64>,
    /// Lower end of the 95% interval of `known_core_hours`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub known_core_hours_low: Option<f64>,
    /// Upper end of the 95% interval of `known_core_hours`.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub known_core_hours_high: Option<f64>,
    /// The device of a sample counted on a counter other than the CPU's cores (a GPU):
    /// serialised as its fields after the others, nothing for the CPU.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub device: Option<SampledDevice>,
}

/// The device a counter's sample ran on, as an [`EstimateRecord`] names it (`queens estimate
/// --device gpu`: which GPU, which kernel).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SampledDevice {
    /// The kind of device (`gpu`).
    pub device: &'static str,
    /// The adapter's name.
    pub adapter: String,
    /// The API it was driven through (`vulkan`, `metal`, `dx12`).
    pub backend: String,
    /// The driver's name and version.
    pub driver: String,
    /// The kernel that counted (the GPU's `--gpu-kernel`).
    pub kernel: &'static str,
}

impl EstimateRecord {
    /// The record of `estimate`, sampled with `seed` on `isa`.
    pub fn new(estimate: Estimate, isa: Isa, seed: u64) -> EstimateRecord {
        EstimateRecord::on(estimate, isa.name(), seed, None)
    }

    /// The record of `estimate`, sampled with `seed` by kernels in `isa` (a vector unit's
    /// name, or a GPU's language) on `device` (`None`: the CPU's cores).
    fn on(estimate: Estimate, isa: &'static str, seed: u64, device: Option<SampledDevice>) -> EstimateRecord {
        let check = estimate.known_check();
        EstimateRecord {
            estimate,
            isa,
            seed,
            known_solutions: check.map(|c| c.known),
            known_inside: check.map(|c| c.inside),
            known_core_hours: check.map(|c| c.core_hours),
            known_core_hours_low: check.map(|c| c.core_hours_low),
            known_core_hours_high: check.map(|c| c.core_hours_high),
            device,
        }
    }
}

impl Estimate {
    /// This estimate's projected solutions against the known term of n: `None` past the
    /// known terms, or when the estimate projects no solutions ([`project`] from bare times).
    pub fn known_check(&self) -> Option<KnownCheck> {
        let known = super::known::known_total(self.n)?;
        if self.solutions.is_nan() {
            return None;
        }
        let k = known as f64;
        let hours = |ns: f64| (ns * 1e-9 * k + self.setup_seconds) / 3600.0;
        Some(KnownCheck {
            known,
            inside: self.solutions_low <= k && k <= self.solutions_high,
            ratio: self.solutions / k,
            core_hours: hours(self.ns_per_solution),
            core_hours_low: hours(self.ns_per_solution_low),
            core_hours_high: hours(self.ns_per_solution_high),
        })
    }
}

/// Projects the cost of `tasks` tasks from the times of a sample of them (seconds each, drawn
/// without replacement, each exact) and a one-off set-up time. `None` for an empty sample.
pub fn project(
    n: u32,
    tasks: u64,
    engine: TaskEngine,
    sample: &[f64],
    setup_seconds: f64,
) -> Option<Estimate> {
    project_sampled(n, tasks, engine, sample, true, setup_seconds)
}

/// [`project`], the sampled times exact or themselves estimates (sub-task sampling).
fn project_sampled(
    n: u32,
    tasks: u64,
    engine: TaskEngine,
    sample: &[f64],
    exact: bool,
    setup_seconds: f64,
) -> Option<Estimate> {
    if sample.is_empty() || tasks == 0 {
        return None;
    }
    let (mean, sd, half) = mean_interval(sample, tasks, exact);
    let big_n = tasks as f64;
    let hours = |per_task: f64| (big_n * per_task.max(0.0) + setup_seconds) / 3600.0;
    Some(Estimate {
        n,
        tasks,
        samples: sample.len() as u64,
        engine,
        core_hours: hours(mean),
        low: hours(mean - half),
        high: hours(mean + half),
        task_seconds: mean,
        task_seconds_sd: sd,
        setup_seconds,
        clock: "given",
        queries_per_task: None,
        subsampled_tasks: 0,
        matched_fraction: 1.0,
        solutions: f64::NAN,
        solutions_low: f64::NAN,
        solutions_high: f64::NAN,
        ns_per_solution: f64::NAN,
        ns_per_solution_low: f64::NAN,
        ns_per_solution_high: f64::NAN,
        timed_tasks: Vec::new(),
        stopped_early: false,
    })
}

/// Times `options.samples` random tasks of n (drawn with `options.seed`) with the fastest
/// engine, its kernels on `options.isa`, matching at most `options.queries` queries per task,
/// on a pool of one thread (the figures are per core), and projects the whole count. Fails
/// with [`TaskError::EngineCannotRun`] where the fast engine cannot run n's tasks: a
/// projection from the backtracker would not say what a real count costs.
///
/// Where the system tells a thread's CPU time (Unix), tasks are timed by it, so that other
/// programs sharing the cores do not inflate the projection; elsewhere by the wall clock.
pub fn estimate_cost(n: u32, options: &EstimateOptions, control: &Control) -> Result<Estimate, TaskError> {
    match estimate_cost_with(n, options, control, &|_| {})? {
        e if e.stopped_early => Err(Interrupted.into()),
        e => Ok(e),
    }
}

/// [`estimate_cost`], calling `on_task` (from the worker threads) as each sampled task
/// finishes, and keeping the work of an interrupted run: cancelled through `control`, the
/// tasks in flight stop within milliseconds, and the projection is made from the tasks
/// started before the first one that did not finish, marked [`Estimate::stopped_early`]
/// ([`TaskError::Interrupted`] when there is none). Tasks start in a random order, so these
/// are a random sample too; the tasks that finished after it started are left out, as they
/// lean to short ones (the stopped tasks are more likely long). For estimates of many minutes
/// a task (n = 28), which a user may stop when the interval is narrow enough.
pub fn estimate_cost_with(
    n: u32,
    options: &EstimateOptions,
    control: &Control,
    on_task: &(dyn Fn(&TimedTask) + Sync),
) -> Result<Estimate, TaskError> {
    estimate_cost_of(&TaskList::new(n)?, options, control, on_task)
}

/// [`estimate_cost_with`] on n's task list, `list`.
fn estimate_cost_of(
    list: &TaskList,
    options: &EstimateOptions,
    control: &Control,
    on_task: &(dyn Fn(&TimedTask) + Sync),
) -> Result<Estimate, TaskError> {
    let n = list.n();
    let engine = TaskEngine::Quarters;
    if n > engine.max_n() {
        return Err(TaskError::EngineCannotRun { engine, n, max: engine.max_n() });
    }
    if !options.isa.is_available() {
        return Err(TaskError::IsaUnavailable(options.isa));
    }
    let picked = sample_in_random_order(list, options.samples, options.seed);
    let limit = options.queries.map_or(usize::MAX, |q| q.max(1) as usize);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(options.threads.max(1)).build();
    let start = Instant::now();
    let thread_clock = thread_cpu_seconds().is_some();
    let clock =
        || if thread_clock { thread_cpu_seconds().unwrap_or(0.0) } else { start.elapsed().as_secs_f64() };
    // (the warm-up's seconds, the sampled tasks with their index in the task list)
    let found = Mutex::new((0.0, Vec::with_capacity(picked.len())));
    let run = || -> Result<f64, CountError> {
        // PERF: the first task runs twice, the first time alone, as a warm-up whose cost
        // (first touches of memory) is set-up.
        let warmed: Vec<quarters::SampledTask> = picked
            .first()
            .into_iter()
            .chain(&picked)
            .map(|&i| {
                let t = list.get(i).expect("a listed task");
                let previous = i.checked_sub(1).and_then(|p| list.get(p)).map(|p| p.cols);
                quarters::SampledTask { cols: t.cols, weight: t.weight, previous }
            })
            .collect();
        quarters::sample_column_sets(
            n,
            &warmed,
            options.isa,
            limit,
            options.seed,
            &clock,
            control,
            &|i, s| {
                let mut f = found.lock().unwrap_or_else(|e| e.into_inner());
                match i.checked_sub(1) {
                    None => f.0 = s.fixed_seconds + s.match_seconds,
                    Some(k) => {
                        on_task(&timed_task(picked[k], &s));
                        f.1.push((picked[k], s));
                    }
                }
            },
        )
    };
    // Without a pool of its own (the system refused a thread), the current one.
    let ran = match &pool {
        Ok(p) => p.install(run),
        Err(_) => run(),
    };
    let (warm_up, mut samples) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    let table_seconds = match ran {
        Ok(seconds) if !control.cancelled() => seconds,
        // Refused before any task ran (the sample cannot fit the address space).
        Err(CountError::MemoryLimit(m)) => return Err(m.into()),
        // Interrupted: the tasks started before the first one stopped are kept, if any.
        _ => {
            keep_started_before_a_stopped_one(&mut samples);
            if samples.is_empty() {
                return Err(Interrupted.into());
            }
            0.0
        }
    };
    samples.sort_by_key(|&(index, _)| index);
    let setup = table_seconds + warm_up;
    let mut e = project_samples(n, u64::from(list.len()), &samples, options.queries, setup, thread_clock);
    e.stopped_early = samples.len() < picked.len() || control.cancelled();
    Ok(e)
}

/// `samples` random tasks of `list` (at least one), drawn with `seed` as [`sample_tasks`]
/// draws, in a random order, not the list's: the tasks that finished before an interruption
/// are then still a random sample of n's tasks (the list's order follows the column masks,
/// and the cost of a task with them). The order comes from the next stream of the seed, so
/// the draw stays the same.
fn sample_in_random_order(list: &TaskList, samples: u32, seed: u64) -> Vec<u32> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let all: Vec<u32> = (0..list.len()).collect();
    let mut picked = sample_tasks(&all, samples.max(1), seed);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(crate::control::stream_seed(seed, 1));
    picked.shuffle(&mut rng);
    picked
}

/// What [`estimate_on`] times: `samples` random tasks (drawn with `seed`) of a counter that
/// runs `engine`'s algorithm, whose one-off set-up took `setup_seconds`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CounterSample {
    /// The algorithm the counter runs (the estimate's [`Estimate::engine`]).
    pub engine: TaskEngine,
    /// Tasks to time.
    pub samples: u32,
    /// Seed of the draw.
    pub seed: u64,
    /// The counter's set-up (opening a device, say), seconds.
    pub setup_seconds: f64,
}

/// Times `sample.samples` random tasks of `list` counted on `counter` as a count counts them
/// (in one call of [`TaskCounter::count_tasks`], so as many at a time as the counter takes),
/// and projects the whole count of n ([`project_timed`]): its time on that counter (wall time
/// of this process, so the host's share of the work is in it; [`Estimate::core_hours`] is
/// then hours of that device), the number of solutions and the time per solution. Each task's
/// time is its share of the run's wall time, in proportion to the time the counter reports
/// for it ([`TaskDone::elapsed`]). `on_done` sees each sampled task. Cancelled through
/// `control`, the projection is made from the tasks finished, marked
/// [`Estimate::stopped_early`] (tasks run in a random order, so they are a random sample too);
/// the counter's interruption error when none did. The GPU engine's estimate (crate
/// damier-gpu), and any device's a front end picks.
pub fn estimate_on<C: TaskCounter>(
    counter: &C,
    list: &TaskList,
    sample: &CounterSample,
    control: &Control,
    on_done: &(dyn Fn(TaskDone) + Sync),
) -> Result<Estimate, C::Error>
where
    C::Error: From<Interrupted>,
{
    let picked = sample_in_random_order(list, sample.samples, sample.seed);
    let done = Mutex::new(Vec::with_capacity(picked.len()));
    let start = Instant::now();
    let counted = counter.count_tasks(list, &picked, control, &|d| {
        on_done(d);
        done.lock().unwrap_or_else(|e| e.into_inner()).push(d);
    });
    let wall = start.elapsed().as_secs_f64();
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    match counted {
        Ok(()) => {}
        Err(e) if C::interrupted(&e) && !done.is_empty() => {}
        Err(e) => return Err(e),
    }
    done.sort_by_key(|d| d.index);
    // The tasks' times, scaled to the run's wall time (the host's work included).
    let counter_seconds: f64 = done.iter().map(|d| d.elapsed.as_secs_f64()).sum();
    let scale = if counter_seconds > 0.0 { wall / counter_seconds } else { 0.0 };
    let timed: Vec<TimedTask> = done
        .iter()
        .map(|d| TimedTask {
            index: d.index,
            seconds: d.elapsed.as_secs_f64() * scale,
            solutions: d.count as f64,
        })
        .collect();
    let stopped_early = timed.len() < picked.len();
    let mut e = project_timed(list.n(), u64::from(list.len()), sample.engine, timed, sample.setup_seconds)
        .ok_or(Interrupted)?;
    e.stopped_early = stopped_early;
    Ok(e)
}

/// What `queens estimate` times its sample on: the CPU's cores ([`EstimateOptions`]) or a
/// task counter ([`CounterEstimator`], the GPU's), one entry for both, so that a front end
/// only picks the device and runs one progress bar and one record path.
pub trait Estimator {
    /// Why an estimate fails.
    type Error;

    /// The tasks it times, as `control`'s progress counts them: the sample, and the CPU's
    /// warm-up task.
    fn tasks_timed(&self, list: &TaskList) -> u64;

    /// Times its sample of `list`'s tasks, calling `on_task` (from any thread) with each
    /// sampled task's index as it finishes, and returns the record of the projection:
    /// cancelled through `control`, the one of the tasks that finished, marked
    /// [`Estimate::stopped_early`] (an error when none did).
    fn estimate(
        &self,
        list: &TaskList,
        control: &Control,
        on_task: &(dyn Fn(u32) + Sync),
    ) -> Result<EstimateRecord, Self::Error>;
}

/// The CPU's estimate ([`estimate_cost_with`]): each task on one core timed by its CPU time,
/// after a warm-up task, its queries sampled or whole.
impl Estimator for EstimateOptions {
    type Error = TaskError;

    fn tasks_timed(&self, list: &TaskList) -> u64 {
        u64::from(self.samples.max(1).min(list.len())) + 1
    }

    fn estimate(
        &self,
        list: &TaskList,
        control: &Control,
        on_task: &(dyn Fn(u32) + Sync),
    ) -> Result<EstimateRecord, TaskError> {
        let e = estimate_cost_of(list, self, control, &|t| on_task(t.index))?;
        Ok(EstimateRecord::new(e, self.isa, self.seed))
    }
}

/// A task counter's estimate ([`estimate_on`]): the sample counted as a count counts it,
/// timed by the wall clock, the record naming the counter's `device`.
#[derive(Clone, Debug)]
pub struct CounterEstimator<'c, C> {
    /// The counter.
    pub counter: &'c C,
    /// What it times.
    pub sample: CounterSample,
    /// The language of its kernels, the record's `isa` (`wgsl` on a GPU).
    pub isa: &'static str,
    /// The device, as the record names it.
    pub device: SampledDevice,
}

impl<C: TaskCounter> Estimator for CounterEstimator<'_, C>
where
    C::Error: From<Interrupted>,
{
    type Error = C::Error;

    fn tasks_timed(&self, list: &TaskList) -> u64 {
        u64::from(self.sample.samples.max(1).min(list.len()))
    }

    fn estimate(
        &self,
        list: &TaskList,
        control: &Control,
        on_task: &(dyn Fn(u32) + Sync),
    ) -> Result<EstimateRecord, C::Error> {
        let e = estimate_on(self.counter, list, &self.sample, control, &|d| on_task(d.index))?;
        Ok(EstimateRecord::on(e, self.isa, self.sample.seed, Some(self.device.clone())))
    }
}

/// Runs `f` with a control of its own, cancelled when `control` is or once `budget` of wall
/// time has passed (checked every 5 ms).
pub(super) fn within_budget<T>(
    budget: std::time::Duration,
    control: &Control,
    f: impl FnOnce(&Control) -> T,
) -> T {
    let inner = Control::new();
    let start = Instant::now();
    let finished = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !finished.load(std::sync::atomic::Ordering::Relaxed) {
                if control.cancelled() || start.elapsed() >= budget {
                    inner.cancel();
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        });
        let out = f(&inner);
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        out
    })
}

/// Keeps the samples of the tasks started before the first one that did not finish (tasks
/// are numbered from 1 in the order they started; 0 was the warm-up).
fn keep_started_before_a_stopped_one(samples: &mut Vec<(u32, quarters::TaskSample)>) {
    let mut started: Vec<u64> = samples.iter().map(|(_, s)| s.started).collect();
    started.sort_unstable();
    let first_missing = started
        .iter()
        .zip(1..)
        .find(|&(&s, want)| s != want)
        .map_or(started.len() as u64 + 1, |(_, want)| want);
    samples.retain(|(_, s)| s.started < first_missing);
}

/// Times up to `samples` random tasks of n (drawn with `seed`) with the backtracker, one
/// after the other on one thread, for at most `budget` of wall time, and projects `tasks` tasks
/// (the run's, not necessarily all of n's). For the warning before a `--strategy backtrack`
/// count, where a task can take minutes: whatever finished in the budget is timed, and the
/// task still running when the budget ends counts with the time it has had, which can only
/// lean low; the `bool` says so (the projection is then a lower bound). Errors as
/// [`super::tasks::count_tasks`]; [`TaskError::Interrupted`] only when `control` is cancelled.
pub fn estimate_backtrack_cost(
    n: u32,
    tasks: u64,
    samples: u32,
    seed: u64,
    budget: std::time::Duration,
    control: &Control,
) -> Result<(Estimate, bool), TaskError> {
    let list = TaskList::new(n)?;
    let all: Vec<u32> = (0..list.len()).collect();
    let picked = sample_tasks(&all, samples.max(1), seed);
    let times = Mutex::new(Vec::with_capacity(picked.len()));
    let start = Instant::now();
    // A control of its own, cancelled at the end of the budget or with the caller's.
    let counted = within_budget(budget, control, |inner| {
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build();
        let run = || {
            super::tasks::count_tasks(
                &list,
                TaskEngine::Backtrack,
                Isa::Portable,
                None,
                &picked,
                inner,
                &|d| {
                    times.lock().unwrap_or_else(|e| e.into_inner()).push(d.elapsed.as_secs_f64());
                },
            )
        };
        match &one {
            Ok(p) => p.install(run),
            Err(_) => run(),
        }
    });
    if control.cancelled() {
        return Err(Interrupted.into());
    }
    let mut times = times.into_inner().unwrap_or_else(|e| e.into_inner());
    let cut_short = match counted {
        Ok(()) => false,
        Err(TaskError::Interrupted(_)) => {
            // The task in flight, censored at the time it has had.
            times.push((start.elapsed().as_secs_f64() - times.iter().sum::<f64>()).max(0.0));
            true
        }
        Err(e) => return Err(e),
    };
    let mut e = project(n, tasks, TaskEngine::Backtrack, &times, 0.0).ok_or(TaskError::OutOfRange(n))?;
    e.clock = "wall";
    Ok((e, cut_short))
}

/// A sampled task's matching time, extrapolated to all of its queries (see the module docs):
/// the two nested samples' times fit `a * reads + b * distinct` (the matcher's rows read, and
/// rows read for the first time in a call: counted exactly for every sample and for all
/// queries), which then prices all queries' work. Without
/// the work counts, the line through the two samples; without a smaller sample, in
/// proportion.
fn matching_seconds(s: &TaskSample) -> f64 {
    if s.matched >= s.queries || s.matched == 0 {
        return s.match_seconds;
    }
    let (q, m) = (s.queries as f64, s.matched as f64);
    if s.probe_queries == 0 || s.probe_queries >= s.matched {
        return s.match_seconds * q / m;
    }
    let (t1, t2) = (s.probe_seconds, s.match_seconds);
    let [(w1, c1), (w2, c2), (wf, cf)] = s.work;
    let det = w1 * c2 - w2 * c1;
    if det.abs() > 1e-9 * (w2 * c2).abs() {
        let a = (t1 * c2 - t2 * c1) / det;
        let b = (w1 * t2 - w2 * t1) / det;
        // Timing noise can push one price below 0: the other alone then carries the time.
        let (a, b) = match (a >= 0.0, b >= 0.0) {
            (true, true) => (a, b),
            (false, _) => (0.0, t2 / c2),
            (true, false) => (t2 / w2, 0.0),
        };
        return a * wf + b * cf;
    }
    let slope = (t2 - t1).max(0.0) / (m - s.probe_queries as f64);
    t2 + slope * (q - m)
}

/// The projection from sub-sampled tasks: each task's time and count scaled up by its
/// queries over those matched.
fn project_samples(
    n: u32,
    tasks: u64,
    samples: &[(u32, TaskSample)],
    queries: Option<u32>,
    setup: f64,
    thread_clock: bool,
) -> Estimate {
    let timed: Vec<TimedTask> = samples.iter().map(|(index, s)| timed_task(*index, s)).collect();
    let subsampled = samples.iter().filter(|(_, s)| s.matched < s.queries).count() as u64;
    let mut e = project_timed_sampled(n, tasks, TaskEngine::Quarters, timed, subsampled == 0, setup)
        .expect("at least one task");
    let (matched, all) =
        samples.iter().fold((0.0, 0.0), |(m, a), (_, s)| (m + s.match_seconds, a + matching_seconds(s)));
    e.clock = if thread_clock { "thread cpu" } else { "wall" };
    e.queries_per_task = queries.map(u64::from);
    e.subsampled_tasks = subsampled;
    e.matched_fraction = if all > 0.0 { matched / all } else { 1.0 };
    e
}

/// Projects the cost of `tasks` tasks of n and their number of solutions from a sample of
/// them drawn without replacement, each task timed and counted (exactly) by `engine` on any
/// device, and a one-off set-up time: the estimate of [`estimate_cost`] for a device this
/// module does not drive (the GPU engine, crate damier-gpu). The time is wall time
/// ([`Estimate::clock`]); `None` for an empty sample.
pub fn project_timed(
    n: u32,
    tasks: u64,
    engine: TaskEngine,
    timed: Vec<TimedTask>,
    setup_seconds: f64,
) -> Option<Estimate> {
    let mut e = project_timed_sampled(n, tasks, engine, timed, true, setup_seconds)?;
    e.clock = "wall";
    Some(e)
}

/// [`project_timed`], the sampled times and counts exact or themselves estimates (sub-task
/// sampling).
fn project_timed_sampled(
    n: u32,
    tasks: u64,
    engine: TaskEngine,
    timed: Vec<TimedTask>,
    exact: bool,
    setup: f64,
) -> Option<Estimate> {
    let times: Vec<f64> = timed.iter().map(|t| t.seconds).collect();
    let counts: Vec<f64> = timed.iter().map(|t| t.solutions).collect();
    let mut e = project_sampled(n, tasks, engine, &times, exact, setup)?;
    let (mean, _, half) = mean_interval(&counts, tasks, exact);
    let big_n = tasks as f64;
    e.solutions = big_n * mean;
    e.solutions_low = big_n * (mean - half).max(0.0);
    e.solutions_high = big_n * (mean + half);
    let (ratio, half) = ratio_interval(&counts, &times, tasks, exact);
    e.ns_per_solution = 1e9 * ratio;
    e.ns_per_solution_low = 1e9 * (ratio - half).max(0.0);
    e.ns_per_solution_high = 1e9 * (ratio + half);
    e.timed_tasks = timed;
    Some(e)
}

/// Task `index`'s time and solutions from its sample, scaled up where its queries were
/// sampled (see [`matching_seconds`]).
fn timed_task(index: u32, s: &TaskSample) -> TimedTask {
    let scale = if s.matched == 0 { 1.0 } else { s.queries as f64 / s.matched as f64 };
    TimedTask {
        index,
        seconds: s.fixed_seconds + matching_seconds(s),
        solutions: s.matched_count as f64 * scale,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projection_scales_the_mean_and_brackets_it() {
        let e = project(20, 1000, TaskEngine::Quarters, &[1.0, 2.0, 3.0, 2.0], 36.0).unwrap();
        assert!((e.task_seconds - 2.0).abs() < 1e-12);
        assert!((e.core_hours - (2000.0 + 36.0) / 3600.0).abs() < 1e-12);
        assert!(e.low < e.core_hours && e.core_hours < e.high);
        // Symmetric around the point estimate, of half-width t(3) sd / sqrt(k) * fpc * N.
        let half = 3.182 * (2.0f64 / 3.0).sqrt() / 2.0 * (996.0f64 / 999.0).sqrt() * 1000.0 / 3600.0;
        assert!((e.high - e.core_hours - half).abs() < 1e-9);
        assert!((e.core_hours - e.low - half).abs() < 1e-9);
        // The whole population timed: no uncertainty left.
        let all = project(20, 4, TaskEngine::Quarters, &[1.0, 2.0, 3.0, 2.0], 0.0).unwrap();
        assert_eq!((all.low, all.high), (all.core_hours, all.core_hours));
        assert_eq!(project(20, 4, TaskEngine::Quarters, &[], 0.0), None);
        // One task of many: nothing known about the spread.
        let one = project(20, 4, TaskEngine::Quarters, &[1.0], 0.0).unwrap();
        assert_eq!(one.high, f64::INFINITY);
    }

    #[test]
    fn sub_sampled_tasks_scale_their_matching_and_keep_an_interval() {
        let s = |queries, matched, fixed, matching, count| TaskSample {
            queries,
            matched,
            fixed_seconds: fixed,
            match_seconds: matching,
            matched_count: count,
            ..TaskSample::default()
        };
        let samples = [(0, s(100, 10, 1.0, 0.5, 3)), (5, s(10, 10, 1.0, 1.0, 7))];
        let e = project_samples(20, 2, &samples, Some(10), 0.0, true);
        // Task times 1 + 0.5 * 10 = 6 and 2; counts 30 and 7.
        assert!((e.task_seconds - 4.0).abs() < 1e-12 && (e.solutions - 37.0).abs() < 1e-9);
        assert_eq!((e.subsampled_tasks, e.queries_per_task), (1, Some(10)));
        assert!((e.matched_fraction - 1.5 / 6.0).abs() < 1e-12);
        // Every task sampled, but one of them only in part: the interval stays open.
        assert!(e.low < e.core_hours && e.core_hours < e.high);
        assert!(e.solutions_low < e.solutions && e.solutions < e.solutions_high);
        // With a nested smaller sample, the matching time follows the line through both:
        // slope (1.0 - 0.3) / (16 - 2) = 0.05 s a query, so 1.0 + 0.05 * (100 - 16).
        let two = TaskSample { probe_queries: 2, probe_seconds: 0.3, ..s(100, 16, 0.0, 1.0, 0) };
        assert!((matching_seconds(&two) - 5.2).abs() < 1e-12);
        let flat = TaskSample { probe_seconds: 1.5, ..two };
        assert_eq!(matching_seconds(&flat), 1.0, "never a negative slope");
        // With the work counted: times 0.6 and 1.8 s for (reads, distinct) (10, 5) and (80, 10)
        // price a read 0.01 s and a first read 0.1 s; all queries' (1000, 12) then cost 11.2 s.
        let priced = TaskSample {
            probe_seconds: 0.6,
            match_seconds: 1.8,
            work: [(10.0, 5.0), (80.0, 10.0), (1000.0, 12.0)],
            ..two
        };
        assert!((matching_seconds(&priced) - 11.2).abs() < 1e-9);
    }

    /// After an interruption, the tasks started after the first stopped one are left out
    /// even if they finished: the stopped task is more likely a long one, the later ones that
    /// finished short ones.
    #[test]
    fn an_interrupted_estimate_keeps_the_tasks_started_before_a_stopped_one() {
        let started = |order: &[u64]| -> Vec<(u32, TaskSample)> {
            order.iter().map(|&s| (s as u32, TaskSample { started: s, ..TaskSample::default() })).collect()
        };
        let kept = |order: &[u64]| {
            let mut s = started(order);
            keep_started_before_a_stopped_one(&mut s);
            s.iter().map(|(_, t)| t.started).collect::<Vec<_>>()
        };
        // Task 3 was stopped (long): 4 and 5, finished after it started, are dropped.
        assert_eq!(kept(&[5, 1, 2, 4]), [1, 2]);
        assert_eq!(kept(&[2, 3, 1]), [2, 3, 1], "none stopped before the last start");
        assert_eq!(kept(&[2, 3]), Vec::<u64>::new(), "the first task stopped");
        assert_eq!(kept(&[]), Vec::<u64>::new());
    }

    #[test]
    fn tasks_timed_on_several_threads_are_the_same_tasks_with_the_same_counts() {
        let counted = |threads| {
            let o = EstimateOptions { threads, ..options(40, 3, None) };
            estimate_cost(13, &o, &Control::new()).unwrap()
        };
        let (one, two) = (counted(1), counted(2));
        let tasks = |e: &Estimate| e.timed_tasks.iter().map(|t| (t.index, t.solutions)).collect::<Vec<_>>();
        assert_eq!(tasks(&one), tasks(&two));
        assert_eq!(one.timed_tasks.len(), 40);
        assert!(one.timed_tasks.windows(2).all(|w| w[0].index < w[1].index), "in task-list order");
        for e in [&one, &two] {
            assert!(
                e.ns_per_solution_low <= e.ns_per_solution && e.ns_per_solution <= e.ns_per_solution_high
            );
            let c = e.known_check().unwrap();
            assert!(c.core_hours_low <= c.core_hours && c.core_hours <= c.core_hours_high);
        }
        // Every task of 12: the timed tasks hold every solution, and the ratio is exact.
        let all = estimate_cost(
            12,
            &EstimateOptions { threads: 2, ..options(1_000_000, 1, None) },
            &Control::new(),
        )
        .unwrap();
        assert_eq!(all.timed_tasks.iter().map(|t| t.solutions).sum::<f64>(), 14200.0);
        assert_eq!(
            (all.ns_per_solution_low, all.ns_per_solution_high),
            (all.ns_per_solution, all.ns_per_solution)
        );
    }

    #[test]
    fn an_interrupted_estimate_keeps_the_tasks_that_finished() {
        let control = Control::new();
        let seen = std::sync::atomic::AtomicUsize::new(0);
        let stop_after_three = |_: &TimedTask| {
            if seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 2 {
                control.cancel();
            }
        };
        let e = estimate_cost_with(14, &options(50, 2, None), &control, &stop_after_three).unwrap();
        assert!(e.stopped_early);
        assert_eq!((e.samples, e.timed_tasks.len()), (3, 3));
        assert!(e.low <= e.core_hours && e.core_hours <= e.high);
        // The plain call reports the interruption; so does one stopped before any task ended.
        assert_eq!(
            estimate_cost(14, &options(50, 2, None), &control),
            Err(TaskError::Interrupted(Interrupted))
        );
        assert_eq!(
            estimate_cost_with(14, &options(50, 2, None), &control, &|_| {}),
            Err(TaskError::Interrupted(Interrupted))
        );
        let whole = estimate_cost_with(14, &options(50, 2, None), &Control::new(), &|_| {}).unwrap();
        assert!(!whole.stopped_early && whole.samples == 50);
    }

    fn options(samples: u32, seed: u64, queries: Option<u32>) -> EstimateOptions {
        EstimateOptions { samples, seed, queries, ..EstimateOptions::default() }
    }

    #[test]
    fn estimates_run_where_the_engine_does_and_say_so_elsewhere() {
        let e = estimate_cost(12, &options(30, 1, None), &Control::new()).unwrap();
        assert_eq!((e.n, e.tasks, e.samples), (12, u64::from(TaskList::new(12).unwrap().len()), 30));
        assert!(e.low <= e.core_hours && e.core_hours <= e.high && e.low >= 0.0);
        assert_eq!((e.subsampled_tasks, e.matched_fraction), (0, 1.0));
        let big = estimate_cost(12, &options(1_000_000, 1, None), &Control::new()).unwrap();
        assert_eq!(big.samples, big.tasks, "at most every task");
        // Every task, whole: the projected count is the count.
        assert_eq!((big.solutions, big.solutions_low, big.solutions_high), (14200.0, 14200.0, 14200.0));
        let past = super::super::tasks::MAX_TASK_N + 1;
        assert_eq!(
            estimate_cost(past, &options(10, 1, None), &Control::new()),
            Err(TaskError::OutOfRange(past))
        );
    }

    #[test]
    fn the_known_term_is_checked_against_the_projected_solutions() {
        // Every task of 12: the projection is exact, so the known term is inside.
        let all = estimate_cost(12, &options(1_000_000, 1, None), &Control::new()).unwrap();
        let c = all.known_check().unwrap();
        assert_eq!((c.known, c.inside, c.ratio), (14200, true, 1.0));
        // Two tasks of 14: the interval of some random seed misses the known term, and says so.
        let missed = (1..200)
            .map(|seed| estimate_cost(14, &options(2, seed, None), &Control::new()).unwrap())
            .find(|e| !e.known_check().unwrap().inside)
            .expect("a tiny sample that misses");
        assert!(!(missed.solutions_low..=missed.solutions_high).contains(&365_596.0), "{missed:?}");
        // Bare times project no solutions, and past the known terms there is nothing to check.
        assert_eq!(project(12, 10, TaskEngine::Quarters, &[1.0], 0.0).unwrap().known_check(), None);
        let past = Estimate { n: 28, ..all };
        assert_eq!(past.known_check(), None);
    }

    #[test]
    fn a_backtrack_estimate_keeps_to_its_budget() {
        let tasks = u64::from(TaskList::new(12).unwrap().len());
        let (e, short) =
            estimate_backtrack_cost(12, tasks, 5, 1, std::time::Duration::from_secs(60), &Control::new())
                .unwrap();
        assert_eq!((e.samples, e.engine, short), (5, TaskEngine::Backtrack, false));
        // A budget too short for one task of 20: the task in flight is its only sample.
        let start = Instant::now();
        let (e, short) =
            estimate_backtrack_cost(20, 1000, 3, 1, std::time::Duration::from_millis(50), &Control::new())
                .unwrap();
        assert!(short && e.samples >= 1 && e.core_hours > 0.0, "{e:?}");
        assert!(start.elapsed().as_secs_f64() < 10.0);
        let stop = Control::new();
        stop.cancel();
        let e = estimate_backtrack_cost(12, tasks, 5, 1, std::time::Duration::from_secs(60), &stop);
        assert_eq!(e.unwrap_err(), TaskError::Interrupted(crate::control::Interrupted));
    }

    /// The sub-sampled projection checked where the truth is known: the projected number of
    /// solutions (the same sampling as the time, on a quantity that does not depend on the
    /// machine's load) must fall within its 95% interval for nearly every seed, with the
    /// queries of most tasks sub-sampled.
    #[test]
    fn sub_sampled_projections_bracket_the_known_totals() {
        let known = [(12, 14_200.0), (13, 73_712.0), (14, 365_596.0), (15, 2_279_184.0), (16, 14_772_512.0)];
        let (mut inside, mut tried) = (0, 0);
        for (n, total) in known {
            for seed in 1..=4 {
                let e = estimate_cost(n, &options(60, seed, Some(16)), &Control::new()).unwrap();
                assert!(e.subsampled_tasks * 2 > e.samples, "n = {n}: most tasks sub-sampled");
                assert!(e.solutions_low <= e.solutions && e.solutions <= e.solutions_high);
                tried += 1;
                if (e.solutions_low..=e.solutions_high).contains(&total) {
                    inside += 1;
                }
                // And never far off: within a factor 2 of the total.
                assert!((e.solutions / total - 1.0).abs() < 1.0, "n = {n} seed {seed}: {e:?}");
            }
        }
        println!("sub-sampled projections: {inside} of {tried} intervals hold the known total");
        // 95% intervals: at most 2 misses in 20 (a fixed draw, so the test is repeatable).
        assert!(inside + 2 >= tried, "{inside} of {tried} intervals hold the total");
    }

    /// Any counter's estimate: every task of n = 10 sampled projects q(10) exactly, the same
    /// draw as the CPU's estimate, and a cancelled one is the counter's interruption.
    #[test]
    fn an_estimate_on_a_counter_counts_its_sample_as_a_count_does() {
        let list = TaskList::new(10).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let cpu = super::super::devices::CpuCounter::new(TaskEngine::Backtrack, Isa::Portable, None, &pool);
        let sample =
            CounterSample { engine: TaskEngine::Backtrack, samples: 1000, seed: 5, setup_seconds: 0.5 };
        let seen = std::sync::atomic::AtomicU64::new(0);
        let e = estimate_on(&cpu, &list, &sample, &Control::new(), &|d| {
            seen.fetch_add(d.count, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(
            (e.n, e.samples, e.engine, e.clock),
            (10, u64::from(list.len()), TaskEngine::Backtrack, "wall")
        );
        assert_eq!((seen.into_inner(), e.solutions), (724, 724.0));
        assert!(!e.stopped_early && e.setup_seconds == 0.5);
        let few = CounterSample { samples: 3, ..sample };
        let e = estimate_on(&cpu, &list, &few, &Control::new(), &|_| {}).unwrap();
        let mut picked = sample_in_random_order(&list, 3, 5);
        picked.sort_unstable();
        let timed: Vec<u32> = e.timed_tasks.iter().map(|t| t.index).collect();
        assert_eq!(timed, picked);
        let stopped = Control::new();
        stopped.cancel();
        assert!(matches!(estimate_on(&cpu, &list, &few, &stopped, &|_| {}), Err(TaskError::Interrupted(_))));
    }

    #[test]
    fn either_estimator_times_its_sample_and_records_its_device() {
        let list = TaskList::new(10).unwrap();
        let cpu = EstimateOptions { samples: 5, seed: 1, isa: Isa::Portable, ..EstimateOptions::default() };
        let seen = Mutex::new(Vec::new());
        let r = cpu.estimate(&list, &Control::new(), &|i| seen.lock().unwrap().push(i)).unwrap();
        // The sample and the warm-up task.
        assert_eq!(cpu.tasks_timed(&list), 6);
        assert_eq!((r.estimate.samples, r.isa, r.seed, &r.device), (5, "portable", 1, &None));
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, r.estimate.timed_tasks.iter().map(|t| t.index).collect::<Vec<_>>());
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let counter =
            super::super::devices::CpuCounter::new(TaskEngine::Backtrack, Isa::Portable, None, &pool);
        let device = SampledDevice {
            device: "gpu",
            adapter: "a".into(),
            backend: "b".into(),
            driver: "d".into(),
            kernel: "join",
        };
        let on = CounterEstimator {
            counter: &counter,
            sample: CounterSample {
                engine: TaskEngine::Backtrack,
                samples: 1000,
                seed: 2,
                setup_seconds: 0.0,
            },
            isa: "wgsl",
            device: device.clone(),
        };
        assert_eq!(on.tasks_timed(&list), u64::from(list.len()));
        let seen = std::sync::atomic::AtomicU32::new(0);
        let r = on
            .estimate(&list, &Control::new(), &|_| {
                seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            })
            .unwrap();
        assert_eq!((seen.into_inner(), r.isa, r.seed, r.device), (list.len(), "wgsl", 2, Some(device)));
        assert_eq!((r.known_solutions, r.known_inside), (Some(724), Some(true)));
    }

    #[test]
    fn tasks_timed_elsewhere_project_their_time_solutions_and_cost_per_solution() {
        let timed = |v: &[(f64, f64)]| -> Vec<TimedTask> {
            v.iter()
                .zip(0..)
                .map(|(&(seconds, solutions), index)| TimedTask { index, seconds, solutions })
                .collect()
        };
        let e =
            project_timed(12, 100, TaskEngine::Backtrack, timed(&[(1.0, 10.0), (3.0, 30.0)]), 36.0).unwrap();
        assert_eq!((e.samples, e.clock, e.engine), (2, "wall", TaskEngine::Backtrack));
        // 100 tasks of 2 s on average, and the set-up: 236 s.
        assert!(
            (e.core_hours - 236.0 / 3600.0).abs() < 1e-12 && e.low < e.core_hours && e.core_hours < e.high
        );
        assert!((e.solutions - 2000.0).abs() < 1e-9 && e.solutions_low < 2000.0 && 2000.0 < e.solutions_high);
        // Times proportional to the solutions: 0.1 s each, known without spread.
        assert_eq!((e.ns_per_solution, e.ns_per_solution_low, e.ns_per_solution_high), (1e8, 1e8, 1e8));
        assert_eq!(e.timed_tasks.len(), 2);
        assert!(project_timed(12, 100, TaskEngine::Backtrack, Vec::new(), 0.0).is_none());
    }
}
