//! What a count will cost before it runs: time a random sample of its tasks and project.
//!
//! The tasks of one n differ a lot in cost, but they are a fixed, finite population, so the
//! mean time of `K` tasks drawn without replacement estimates the mean of all `N` of them
//! without bias, and the total cost is `N` times it, plus the one-off building of the quarter
//! table. The interval is the usual 95% one for a mean (normal approximation, `1.96`
//! standard errors, with the finite-population correction `sqrt((N - K) / (N - 1))`), scaled
//! the same way; with heavy-tailed task times it is only as good as the sample is large.

use std::sync::Mutex;
use std::time::Instant;

use super::tasks::{TaskEngine, TaskError, TaskList, count_tasks, sample_tasks};
use crate::control::Control;

/// The projected cost of a count, in time of one core.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
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
    /// Mean seconds per task in the sample.
    pub task_seconds: f64,
    /// Standard deviation of the sampled task times, seconds.
    pub task_seconds_sd: f64,
    /// Seconds of set-up paid once per process (building the quarter table).
    pub setup_seconds: f64,
    /// How tasks were timed: `thread cpu` (immune to other programs) or `wall`.
    pub clock: &'static str,
}

/// Projects the cost of `tasks` tasks from the times of a sample of them (seconds each, drawn
/// without replacement) and a one-off set-up time. `None` for an empty sample.
pub fn project(
    n: u32,
    tasks: u64,
    engine: TaskEngine,
    sample: &[f64],
    setup_seconds: f64,
) -> Option<Estimate> {
    let k = sample.len() as f64;
    if sample.is_empty() || tasks == 0 {
        return None;
    }
    let big_n = tasks as f64;
    let mean = sample.iter().sum::<f64>() / k;
    let var = if sample.len() > 1 {
        sample.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0)
    } else {
        0.0
    };
    let sd = var.sqrt();
    let fpc = if tasks > 1 { ((big_n - k).max(0.0) / (big_n - 1.0)).sqrt() } else { 0.0 };
    let half = 1.96 * sd / k.sqrt() * fpc;
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
    })
}

/// Times `samples` random tasks of n (drawn with `seed`) with the fastest engine that runs n,
/// on a pool of one thread (the figures are per core), and projects the whole count. Fails
/// with [`TaskError::EngineCannotRun`] where the fast engine cannot run n's tasks yet: a
/// projection from the backtracker would not say what a real count costs.
///
/// Where the system tells a thread's CPU time (Unix), tasks are timed by it, so that other
/// programs sharing the cores do not inflate the projection; elsewhere by the wall clock.
pub fn estimate_cost(n: u32, samples: u32, seed: u64, control: &Control) -> Result<Estimate, TaskError> {
    let list = TaskList::new(n)?;
    let engine = TaskEngine::Quarters;
    if n > engine.max_n() {
        return Err(TaskError::EngineCannotRun { engine, n, max: engine.max_n() });
    }
    let all: Vec<u32> = (0..list.len()).collect();
    let picked = sample_tasks(&all, samples.max(1), seed);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
    let run = || -> Result<(Vec<f64>, f64, &'static str), TaskError> {
        let start = Instant::now();
        let cpu_start = thread_cpu_seconds();
        // (time of the previous report on the one worker thread, set-up seconds, task seconds)
        let times = Mutex::new((cpu_start, None::<f64>, Vec::with_capacity(picked.len())));
        // PERF: the first task runs twice, the first time as a warm-up whose cost is set-up.
        let warmed: Vec<u32> = picked.first().into_iter().chain(&picked).copied().collect();
        count_tasks(&list, engine, &warmed, control, &|d| {
            let mut t = times.lock().unwrap_or_else(|e| e.into_inner());
            let wall = d.elapsed.as_secs_f64();
            let (seconds, since_start) = match (t.0, thread_cpu_seconds()) {
                (Some(before), Some(now)) => {
                    t.0 = Some(now);
                    ((now - before).min(wall), now - cpu_start.unwrap_or(now))
                }
                _ => (wall, start.elapsed().as_secs_f64()),
            };
            if t.1.is_none() {
                // The warm-up run of the first task and everything before it (the quarter
                // table, first touches of memory) is set-up.
                t.1 = Some(since_start.max(0.0));
            } else {
                t.2.push(seconds);
            }
        })?;
        let (_, setup, times) = times.into_inner().unwrap_or_else(|e| e.into_inner());
        let clock = if cpu_start.is_some() { "thread cpu" } else { "wall" };
        Ok((times, setup.unwrap_or(0.0), clock))
    };
    // Without a pool of its own (the system refused a thread), the current one.
    let (times, setup, clock) = match &pool {
        Ok(p) => p.install(run)?,
        Err(_) => run()?,
    };
    let mut e = project(n, u64::from(list.len()), engine, &times, setup).expect("at least one task timed");
    e.clock = clock;
    Ok(e)
}

/// CPU time of the calling thread, in seconds, where the system tells it.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the duration of the call.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| t.tv_sec as f64 + t.tv_nsec as f64 / 1e9)
}

/// CPU time of the calling thread: not available here.
#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
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
        // Symmetric around the point estimate, of half-width 1.96 sd / sqrt(k) * fpc * N.
        let half = 1.96 * (2.0f64 / 3.0).sqrt() / 2.0 * (996.0f64 / 999.0).sqrt() * 1000.0 / 3600.0;
        assert!((e.high - e.core_hours - half).abs() < 1e-9);
        assert!((e.core_hours - e.low - half).abs() < 1e-9);
        // The whole population timed: no uncertainty left.
        let all = project(20, 4, TaskEngine::Quarters, &[1.0, 2.0, 3.0, 2.0], 0.0).unwrap();
        assert_eq!((all.low, all.high), (all.core_hours, all.core_hours));
        assert_eq!(project(20, 4, TaskEngine::Quarters, &[], 0.0), None);
    }

    #[test]
    fn estimates_run_where_the_engine_does_and_say_so_elsewhere() {
        let e = estimate_cost(12, 30, 1, &Control::new()).unwrap();
        assert_eq!((e.n, e.tasks, e.samples), (12, u64::from(TaskList::new(12).unwrap().len()), 30));
        assert!(e.low <= e.core_hours && e.core_hours <= e.high && e.low >= 0.0);
        let big = estimate_cost(12, 1_000_000, 1, &Control::new()).unwrap();
        assert_eq!(big.samples, big.tasks, "at most every task");
        assert_eq!(estimate_cost(28, 10, 1, &Control::new()), Err(TaskError::OutOfRange(28)));
    }
}
