//! What a count will cost, said before it runs: the library's projection
//! ([`cost::projected_cost`]), announced on stderr with the ways to split the count (a count
//! that only the backtracker could make past the fast engine's range is refused by the
//! library, `queens::reach`).

use damier::queens::count::cost::{self, CostQuery, CostWarning};
use damier::queens::count::tasks::TaskEngine;

use crate::util::output::errln;
use crate::util::{interrupt, test_hooks};

/// Prints to stderr, once, the projected cost of `query` and the ways to split it when it is
/// projected past one core hour (or `DAMIER_TEST_COST_WARNING_HOURS`, debug builds). Small
/// counts pay nothing (no estimate runs). Stdout (and so `--json`) is left alone.
pub(super) fn warn_if_costly(query: &CostQuery) -> anyhow::Result<()> {
    if let Some(warning) = cost::projected_cost(query, threshold()?, rand::random(), interrupt::control())? {
        announce(&warning);
    }
    Ok(())
}

/// Says on stderr, before `command` (`queens bench`, `queens timing`) counts q(`n`) whole on
/// `isa`, what that count is projected to cost when it passes the threshold
/// ([`threshold`]): they counted q(28) (1.79e6 core hours projected) saying only its tasks,
/// or "at least 1.4 s in all".
pub(super) fn warn_if_whole_count_costly(command: &str, n: u32, isa: damier::cpu::Isa) -> anyhow::Result<()> {
    let Some(tasks) = damier::queens::count::task_count(n) else { return Ok(()) };
    let query = CostQuery { n, engine: TaskEngine::Quarters, tasks, all_tasks: tasks, isa };
    if let Some(w) = cost::projected_cost(&query, threshold()?, rand::random(), interrupt::control())? {
        // No wall time: `bench` counts on one thread first (and again on all, `--repeat` times),
        // `timing` on its `--threads`; core hours are what each of its counts costs.
        errln!(
            "damier: {command}: counting q({n}) once is projected at {} core hours ({}): as many \
             hours on one thread; Ctrl-C stops it",
            crate::util::number(w.core_hours),
            w.reason(),
        );
    }
    Ok(())
}

/// Prints `warning` to stderr with the ways to split the count.
pub(super) fn announce(warning: &CostWarning) {
    let query = &warning.query;
    let closer = match query.engine {
        TaskEngine::Quarters => format!("; `damier queens estimate {}` projects it more closely", query.n),
        TaskEngine::Backtrack => String::new(),
    };
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    errln!(
        "damier: n = {}, {} tasks by the {} engine: projected {} core hours ({}), about \
         {} h on the {cores} cores here. {}",
        query.n,
        query.tasks,
        query.engine.name(),
        crate::util::number(warning.core_hours),
        warning.reason(),
        crate::util::number(warning.core_hours / cores as f64),
        ways_to_split(&closer),
    );
}

/// The projected hours (of one core, or of one GPU) past which a count is announced: one, or
/// `DAMIER_TEST_COST_WARNING_HOURS` (debug builds).
pub(super) fn threshold() -> anyhow::Result<f64> {
    Ok(test_hooks::read()?.cost_warning_hours.unwrap_or(cost::WARN_CORE_HOURS))
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
