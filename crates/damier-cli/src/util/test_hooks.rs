//! Faults and slowness injected by the CLI's own tests, read from environment variables.
//!
//! Only debug builds (the ones `cargo test` runs) read them: a release `damier` has no such
//! knob at all, so neither a user nor a web request can reach one (no hidden flag to list or
//! send). Each variable is named after what it fakes:
//!
//! - `DAMIER_TEST_TASK_DELAY_MS=K`: sleep K ms after each counted or estimated task (a slow
//!   process);
//! - `DAMIER_TEST_CPU_LACKS=ISA`: pretend the CPU lacks this vector unit and every wider one;
//! - `DAMIER_TEST_MISCOUNT_TASK=T`: add one to task T's count (what `--verify-sample` catches);
//! - `DAMIER_TEST_SLOW_RANK=R`: with `--mpi`, only process R sleeps the task delay;
//! - `DAMIER_TEST_HOLD_TASK=T`: with `--mpi`, process 0 hands task T out to no one (whoever
//!   asks for it waits, until Ctrl-C, at most 2 minutes): a job that cannot end before a
//!   test kills it;
//! - `DAMIER_TEST_COST_WARNING_HOURS=H`: warn before counts projected past H core hours
//!   instead of one (0: before every count on the task list, so a test sees the warning on a
//!   count of seconds);
//! - `DAMIER_TEST_BENCH_TINY=1`: `damier bench` measures its toy-sized suite (every kind of
//!   row in seconds of a debug build; the figures mean nothing);
//! - `DAMIER_TEST_LONG_RUN_MS=K`: off a terminal, a run is announced as long after K ms
//!   instead of `util::progress::LONG_RUN`;
//! - `DAMIER_TEST_ALL_RUNS_LONG=1`: every run whose size decides whether it is a long one
//!   (`util::progress::Progress::sized`) is one, so a test sees its lines on a small input;
//! - `DAMIER_TEST_CHECKPOINT_WRITE_MS=K`: an automaton checkpoint sleeps K ms before each
//!   write into its file (a write long enough for a test to press Ctrl-C twice during it);
//! - `DAMIER_TEST_SERVER_PANIC_MS=K`: `damier serve` panics on its main thread K ms after it
//!   starts serving (a fatal error of the server: a test checks that it still ends its jobs).

use damier::cpu::Isa;

/// The injected behaviour; all off in release builds.
#[derive(Debug, Default, Clone, Copy)]
pub struct TestHooks {
    /// Milliseconds slept after each counted task.
    pub task_delay_ms: u64,
    /// The vector unit (and every wider one) the CPU pretends to lack.
    pub cpu_lacks: Option<Isa>,
    /// The task whose count is off by one.
    pub miscount_task: Option<u32>,
    /// With `--mpi`, the task process 0 hands out to no one.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub hold_task: Option<u32>,
    /// With `--mpi`, the one process that sleeps the delay (all of them when unset).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub slow_rank: Option<u32>,
    /// The core hours past which a count is announced (one when unset).
    pub cost_warning_hours: Option<f64>,
    /// `damier bench` runs `damier_bench::Suite::Tiny`.
    pub bench_tiny: bool,
    /// Milliseconds after which a run off a terminal is announced as long.
    pub long_run_ms: Option<u64>,
    /// Every run sized by `Progress::sized` says it is alive, whatever its size.
    pub all_runs_long: bool,
    /// Milliseconds after which `damier serve` panics.
    pub server_panic_ms: Option<u64>,
    /// Milliseconds slept before each write of an automaton checkpoint.
    pub checkpoint_write_ms: u64,
}

/// The hooks set in the environment (debug builds), or none (release builds).
pub fn read() -> anyhow::Result<TestHooks> {
    #[cfg(debug_assertions)]
    {
        Ok(TestHooks {
            task_delay_ms: var("DAMIER_TEST_TASK_DELAY_MS")?.unwrap_or(0),
            cpu_lacks: var("DAMIER_TEST_CPU_LACKS")?,
            miscount_task: var("DAMIER_TEST_MISCOUNT_TASK")?,
            hold_task: var("DAMIER_TEST_HOLD_TASK")?,
            slow_rank: var("DAMIER_TEST_SLOW_RANK")?,
            cost_warning_hours: var("DAMIER_TEST_COST_WARNING_HOURS")?,
            bench_tiny: var::<u8>("DAMIER_TEST_BENCH_TINY")?.is_some_and(|v| v != 0),
            long_run_ms: var("DAMIER_TEST_LONG_RUN_MS")?,
            all_runs_long: var::<u8>("DAMIER_TEST_ALL_RUNS_LONG")?.is_some_and(|v| v != 0),
            server_panic_ms: var("DAMIER_TEST_SERVER_PANIC_MS")?,
            checkpoint_write_ms: var("DAMIER_TEST_CHECKPOINT_WRITE_MS")?.unwrap_or(0),
        })
    }
    #[cfg(not(debug_assertions))]
    {
        Ok(TestHooks::default())
    }
}

/// One variable, parsed; a value that does not parse is an error, not a silent default.
#[cfg(debug_assertions)]
fn var<T: std::str::FromStr>(name: &str) -> anyhow::Result<Option<T>>
where
    T::Err: std::fmt::Display,
{
    match std::env::var(name) {
        Ok(text) => text.parse().map(Some).map_err(|e| anyhow::anyhow!("{name} = {text:?}: {e}")),
        Err(_) => Ok(None),
    }
}
