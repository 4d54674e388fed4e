//! `damier.queens`: counts, the first solution, one solution of a huge board, checks and the
//! projected cost of a count.

use damier::cpu::Isa;
use damier::queens::count::cost;
use damier::queens::count::estimate::{self, EstimateOptions, EstimateRecord};
use damier::queens::count::request::CountRequest;
use damier::queens::count::tasks::{MAX_TASK_N, MIN_TASK_N};
use damier::queens::count::{self, CountOptions};
use damier::queens::placement::Occupancy;
use damier::queens::search;
use damier::queens::solve::{self as request, Method};
use damier::queens::{construct, local};
use damier::util::POOL_MAX_THREADS;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{self, OrRaise};
use crate::{arrays, numbers, records, worker};

/// Registers `damier.queens`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = crate::submodule::submodule(
        parent,
        "queens",
        "The n-queens problem (\"Algorithmique III — Le problème des 8 reines\"): counts, the first \
         solution, one solution of a huge board, checks. Placements are 1-D arrays of 0-based \
         columns, one per row.",
    )?;
    m.add_function(wrap_pyfunction!(count_py, &m)?)?;
    m.add_function(wrap_pyfunction!(first, &m)?)?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(check, &m)?)?;
    m.add_function(wrap_pyfunction!(estimate_py, &m)?)?;
    m.add("MAX_N", count::MAX_N)?;
    Ok(())
}

/// All solutions of n queens and the classes up to the 8 symmetries of the square, in one run:
/// (total, unique); count(8) == (92, 12). n in 1..=28 (the fast engine's reach; 29..=32
/// are refused, as by the CLI: only the backtracker is left there, for core years). A count
/// projected past one core hour (from n = 23 or so) issues a UserWarning with the projection
/// first, as the CLI does on stderr (under warnings.simplefilter("error") it raises instead,
/// before anything is counted). threads: worker threads (default: all cores). Releases the
/// GIL; Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction(name = "count")]
#[pyo3(signature = (n, *, threads=None))]
fn count_py(py: Python<'_>, n: i128, threads: Option<i128>) -> PyResult<(u64, u64)> {
    let n = u32::try_from(n.max(0))
        .map_err(|_| errors::value(format!("n = {n} is too large: at most {} is supported", count::MAX_N)))?;
    // The CLI's request: past the fast engine only the backtracker is left, for core years.
    let request = CountRequest::new(n, CountOptions::on_this_machine(Isa::best(), None)).or_raise()?;
    let threads = threads.map(|t| numbers::u32_in("threads", t, 1..=POOL_MAX_THREADS)).transpose()?;
    let pool = damier::util::thread_pool(threads.map(|t| t as usize)).map_err(errors::internal)?;
    let seed = numbers::seed(None)?;
    let warning =
        worker::run(py, move |control| request.warning(cost::WARN_CORE_HOURS, seed, control))?.or_raise()?;
    if let Some(w) = warning {
        let cores = threads.map_or_else(|| pool.current_num_threads(), |t| t as usize);
        errors::warn(
            py,
            &format!(
                "n = {n}: projected {} core hours ({}), about {} h on {cores} threads",
                damier::util::number(w.core_hours),
                w.reason(),
                damier::util::number(w.core_hours / cores as f64)
            ),
        )?;
    }
    let counts = worker::run(py, move |control| pool.install(|| request.count(control)))?.or_raise()?;
    Ok((counts.total, counts.unique))
}

/// The first solution in backtracking order (the course chapter's "stop at the first solution"), as
/// 0-based columns; None for n = 2 and 3. n in 1..=64. first(8) + 1 == [1, 5, 8, 6, 3, 7, 2, 4].
/// Up to n = 35 it comes within seconds; past it the backtracking may take hours or years, and
/// a UserWarning says so first, as the CLI does on stderr (under
/// warnings.simplefilter("error") it raises instead, before anything runs): solve(n)
/// constructs a solution of any n at once. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
fn first<'py>(py: Python<'py>, n: i128) -> PyResult<Option<Bound<'py, PyArray1<u32>>>> {
    // The library's check (below 1: no board); past 2^64 - 1, out of any range.
    let n = search::check_first(numbers::u64_in("n", n.max(0), 0..=u64::MAX)?).map_err(|e| match e {
        search::FirstRefused::TooLarge(n) => {
            errors::value(format!("{e} (damier.queens.solve({n}) constructs one)"))
        }
        e => errors::value(e),
    })?;
    let max = search::FIRST_MEASURED_MAX;
    if n > max {
        errors::warn(
            py,
            &format!(
                "n = {n}: backtracking to the first solution may take hours or years (measured up to n = {max}: seconds); damier.queens.solve({n}) constructs one at once"
            ),
        )?;
    }
    let found = worker::run(py, move |control| search::first(n, control))?.or_raise()?;
    Ok(found.map(|p| arrays::from_placement(py, &p)))
}

/// One checked solution as 0-based columns, None for n = 2 and 3. method="construct": the
/// explicit construction, n <= 10**9 (no randomness: a seed is refused, ValueError "a seed
/// applies to method local only"); method="local": a
/// random solution by local search from seed (drawn at random when None), n <= 10**8.
/// Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (n, *, method="construct", seed=None))]
fn solve<'py>(
    py: Python<'py>,
    n: i128,
    method: &str,
    seed: Option<i128>,
) -> PyResult<Option<Bound<'py, PyArray1<u32>>>> {
    // The library's names; the message in Python's words.
    let method: Method = method
        .parse()
        .map_err(|_| errors::value(format!("method = {method:?}: expected \"construct\" or \"local\"")))?;
    // The library's refusal, as the command line and the lab give it.
    request::check_seed(method, seed.is_some()).or_raise()?;
    let limit = if method == Method::Local { local::MAX_N } else { construct::MAX_N };
    // Below 1: the library's check of the request refuses n = 0 (no board).
    let n = u32::try_from(n.max(0))
        .map_err(|_| errors::value(format!("n = {n} is too large: at most {limit}")))?;
    let seed = if method == Method::Local { numbers::seed(seed)? } else { 0 };
    // The library's request: the n = 2, 3 answer, the limits, the check of what it found.
    let found = worker::run(py, move |control| request::solve(n, method, seed, control))?.or_raise()?;
    Ok(found.placement().map(|p| arrays::from_placement(py, &p)))
}

/// True when no two queens attack each other; columns: the 0-based column of each row's
/// queen (any 1-D integer sequence or array). Releases the GIL (10**8 rows: seconds).
#[pyfunction]
fn check(py: Python<'_>, columns: &Bound<'_, PyAny>) -> PyResult<bool> {
    let p = arrays::placement(columns)?;
    // The streaming checker: 5 bits per row, so a placement of 10^8 rows is checked in memory.
    worker::run(py, move |_| {
        let mut occupancy = Occupancy::new(p.n());
        occupancy.push_all(p.columns()).and_then(|()| occupancy.finish()).is_ok()
    })
}

/// The projected cost of counting n (4..=28) from a timed random sample of its tasks: the
/// dict `damier queens estimate --json` prints (core_hours, low, high, solutions, ...; known_solutions
/// and known_inside for n <= 27). queries: most queries matched per task (None: whole tasks);
/// threads: tasks timed at once. Releases the GIL; Ctrl-C stops it.
#[pyfunction(name = "estimate")]
#[pyo3(signature = (n, *, samples=200, seed=None, queries=None, threads=1))]
fn estimate_py<'py>(
    py: Python<'py>,
    n: i128,
    samples: i128,
    seed: Option<i128>,
    queries: Option<i128>,
    threads: i128,
) -> PyResult<Bound<'py, PyDict>> {
    let n = numbers::u32_in("n", n, MIN_TASK_N..=MAX_TASK_N)?;
    let samples = numbers::u32_in("samples", samples, 1..=estimate::MAX_SAMPLES)?;
    let queries = queries.map(|q| numbers::u32_in("queries", q, 1..=u32::MAX)).transpose()?;
    let seed = numbers::seed(seed)?;
    let isa = Isa::best();
    let threads = numbers::u32_in("threads", threads, 1..=POOL_MAX_THREADS)? as usize;
    let options = EstimateOptions { samples, seed, isa, queries, threads };
    let e = worker::run(py, move |control| estimate::estimate_cost(n, &options, control))?.or_raise()?;
    records::dict(py, &EstimateRecord::new(e, isa, seed))
}
