//! What a count will cost, said before it runs: a count projected past one core hour is
//! announced on stderr with the ways to split it (a count that only the backtracker could
//! make past the fast engine's range is refused by the library, `queens::reach`).

use std::time::{Duration, Instant};

use damier::cpu::Isa;
use damier::queens::count::estimate::{self, EstimateOptions};
use damier::queens::count::known;
use damier::queens::count::tasks::{MAX_TASK_N, MIN_TASK_N, TaskEngine};

use crate::util::output::errln;
use crate::util::{interrupt, test_hooks};

/// Counts projected to cost more than this many core hours are announced first.
const WARN_CORE_HOURS: f64 = 1.0;

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

/// Tasks timed by the warning's quick estimate.
const QUICK_SAMPLES: u32 = 6;

/// From this n on the quarters engine's quick estimate is not quick (a whole task takes about
/// a minute of CPU at n = 27 and several at 28, and matching part of each task's queries leans
/// low: 0.09x at n = 27, and holds both halves whole, about 3 GB), so the warning projects from
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
        Isa::Portable => (2.3, 6.0),
    }
}

/// Wall time the quick estimate of the backtracker may take (a task of it can take hours).
const QUICK_BACKTRACK_BUDGET: Duration = Duration::from_secs(3);

/// The run to announce: `tasks` of the task list of n by `engine`.
pub(super) struct Run {
    pub n: u32,
    pub engine: TaskEngine,
    /// Tasks this run counts (the share's, less those a journal holds).
    pub tasks: u64,
    /// Tasks of the whole count of n.
    pub all_tasks: u64,
    pub isa: Isa,
}

/// Prints to stderr, once, the projected cost of `run` and the ways to split it when it is
/// projected past one core hour (or `DAMIER_TEST_COST_WARNING_HOURS`, debug builds): from a
/// quick estimate ([`estimate::estimate_cost`] on a few whole tasks for the quarters engine up
/// to n = 26, a few seconds of [`estimate::estimate_backtrack_cost`] for the backtracker), and
/// from the cost per solution measured on whole tasks from n = [`MEASURED_FROM`] on. Runs no
/// estimate when the count is known to be cheaper (`q(n)` times [`ceiling_ns_per_solution`]),
/// so small counts pay nothing. Stdout (and so `--json`) is left alone.
pub(super) fn warn_if_costly(run: &Run) -> anyhow::Result<()> {
    let threshold = threshold()?;
    if !(MIN_TASK_N..=MAX_TASK_N).contains(&run.n) || run.tasks == 0 || run.all_tasks == 0 {
        return Ok(());
    }
    let fraction = run.tasks as f64 / run.all_tasks as f64;
    let solutions = known::projected_total(run.n);
    let hours_at = |ns: f64| solutions * fraction * ns * 1e-9 / 3600.0;
    if hours_at(ceiling_ns_per_solution(run.engine)) < threshold {
        return Ok(());
    }
    let (projected, why) = if run.engine == TaskEngine::Quarters && run.n >= MEASURED_FROM {
        let (low, high) = measured_ns_per_solution(run.isa);
        let why = format!(
            "{:.3} to {:.3}: about {:.2e} solutions in this run at {low} to {high} ns each, the cost \
             per solution `damier queens estimate` measured on whole tasks with {}",
            hours_at(low),
            hours_at(high),
            solutions * fraction,
            run.isa.name(),
        );
        (hours_at(high), why)
    } else {
        let start = Instant::now();
        let seed: u64 = rand::random();
        let control = interrupt::control();
        let (e, cut_short) = match run.engine {
            TaskEngine::Quarters => {
                let options =
                    EstimateOptions { samples: QUICK_SAMPLES, seed, isa: run.isa, queries: None, threads: 1 };
                let e = estimate::estimate_cost(run.n, &options, control)?;
                // This run's part of the tasks; the set-up is paid once per process.
                let setup = e.setup_seconds / 3600.0;
                let part = |h: f64| (h - setup).max(0.0) * fraction + setup;
                let (core_hours, low, high) = (part(e.core_hours), part(e.low), part(e.high));
                (estimate::Estimate { core_hours, low, high, ..e }, false)
            }
            TaskEngine::Backtrack => estimate::estimate_backtrack_cost(
                run.n,
                run.tasks,
                QUICK_SAMPLES,
                seed,
                QUICK_BACKTRACK_BUDGET,
                control,
            )?,
        };
        let why = format!(
            "a quick estimate from {} random tasks (seed {seed}, {:.1} s): {:.3} core hours, {}",
            e.samples,
            start.elapsed().as_secs_f64(),
            e.core_hours,
            if cut_short {
                "at least (the timed tasks did not all finish in the time allowed)".to_string()
            } else {
                format!("95% interval {:.3} to {:.3}", e.low, e.high)
            }
        );
        (e.core_hours, why)
    };
    if projected < threshold {
        return Ok(());
    }
    let closer = match run.engine {
        TaskEngine::Quarters => format!("; `damier queens estimate {}` projects it more closely", run.n),
        TaskEngine::Backtrack => String::new(),
    };
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    errln!(
        "damier: n = {}, {} tasks by the {} engine: projected {projected:.3} core hours ({why}), about \
         {:.3} h on the {cores} cores here. {}",
        run.n,
        run.tasks,
        run.engine.name(),
        projected / cores as f64,
        ways_to_split(&closer),
    );
    Ok(())
}

/// The projected hours (of one core, or of one GPU) past which a count is announced: one, or
/// `DAMIER_TEST_COST_WARNING_HOURS` (debug builds).
pub(super) fn threshold() -> anyhow::Result<f64> {
    Ok(test_hooks::read()?.cost_warning_hours.unwrap_or(WARN_CORE_HOURS))
}

/// The end of a cost warning: the ways to split a long count, then `closer`.
pub(super) fn ways_to_split(closer: &str) -> String {
    let mpi = if cfg!(feature = "mpi") { "" } else { " (in a build with the Cargo feature mpi)" };
    format!(
        "To split it: --share K/M runs share K of M on as many processes or machines (add them with \
         `damier queens sum`), --mpi runs it under mpirun{mpi}, --journal FILE keeps every finished \
         task so that a rerun resumes{closer}."
    )
}
