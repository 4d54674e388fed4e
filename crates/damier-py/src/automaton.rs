//! `damier.automaton`: the queens cellular automaton, run to a solution or stepped for a plot.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use damier::automaton::experiment::{RunRecord, UnsolvableRun};
use damier::automaton::{self, Model, Params, Stop, dir, text};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{self, OrRaise};
use crate::{arrays, numbers, records, worker};

/// Registers `damier.automaton`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = crate::submodule::submodule(
        parent,
        "automaton",
        "n queens solved by a stochastic, asynchronous cellular automaton whose cells exchange \
         local signals (\"Le problème des n reines\"): model \"pair\" (1), \"cell\" (2) or \"row\" (3).",
    )?;
    m.add_function(wrap_pyfunction!(run, &m)?)?;
    m.add_class::<Automaton>()?;
    m.add("DIRECTIONS", dir::DIRECTIONS.to_vec())?;
    m.add("DIRECTION_NAMES", dir::NAMES.to_vec())?;
    m.add("DEFAULT_EPS", automaton::DEFAULT_EPS)?;
    m.add("DEFAULT_ETA", automaton::DEFAULT_ETA)?;
    Ok(())
}

/// The model named by `model`: "pair", "cell", "row", or 1, 2, 3.
fn model(model: &Bound<'_, PyAny>) -> PyResult<Model> {
    if let Ok(name) = model.extract::<String>() {
        return name.parse::<Model>().map_err(|_| {
            errors::value(format!("model = {name:?}: expected \"pair\", \"cell\" or \"row\" (or 1, 2, 3)"))
        });
    }
    match model.extract::<i128>() {
        Ok(k) => Model::ALL.into_iter().find(|m| i128::from(m.number()) == k).ok_or_else(|| {
            errors::value(format!("model = {k}: expected 1, 2 or 3 (or \"pair\", \"cell\", \"row\")"))
        }),
        Err(_) => {
            Err(errors::type_error("model must be a str (\"pair\", \"cell\", \"row\") or an int (1, 2, 3)"))
        }
    }
}

/// Checked parameters; `eta` is refused for a model that does not use it, as by the CLI
/// (the library's one check, `automaton::eta_for`).
fn params(model: &Bound<'_, PyAny>, n: i128, eps: f64, eta: Option<f64>) -> PyResult<Params> {
    let model = self::model(model)?;
    let n = numbers::u32_in("board side n", n, 1..=model.max_n())?;
    let eta = automaton::eta_for(&[model], eta).or_raise()?.unwrap_or(automaton::DEFAULT_ETA);
    Params { model, n, eps, eta }.validated().or_raise()
}

/// The step cap: None is no cap (the run ends at a solution, or on Ctrl-C).
fn cap(max_steps: Option<i128>) -> PyResult<u64> {
    max_steps.map_or(Ok(u64::MAX), |m| numbers::u64_in("max_steps", m, 0..=u64::MAX))
}

/// One run from a random start (seed: drawn at random when None) to the first solution or
/// max_steps updates: the dict `damier automaton run --json` prints (model, n, eps, eta,
/// rule (model 3's, None for the others), seed, steps, moves, solved, absorbing, placement (a uint32 array of 0-based columns, as
/// everywhere in the package, or None), censored,
/// seconds). eta (model "cell" only; None: DEFAULT_ETA) is refused for the other models,
/// which do not use it. n = 2 and 3 have no solution: a UserWarning says so and nothing is
/// run, as in the CLI. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (model, n, *, seed=None, eps=automaton::DEFAULT_EPS, eta=None, max_steps=None))]
fn run<'py>(
    py: Python<'py>,
    model: &Bound<'py, PyAny>,
    n: i128,
    seed: Option<i128>,
    eps: f64,
    eta: Option<f64>,
    max_steps: Option<i128>,
) -> PyResult<Bound<'py, PyDict>> {
    let a = Automaton::new(model, n, seed, eps, eta)?;
    a.run(py, max_steps)
}

/// A run in progress, to step and look at: the exact state `damier automaton run --seed S`
/// starts from, advanced by step() or run(); counts() and signals() read the cells as arrays
/// (row y is array[y]).
#[pyclass(module = "damier.automaton")]
pub struct Automaton {
    /// Shared with the worker of a step: after Ctrl-C the worker stops at its next poll
    /// (between chunks of updates, a consistent state) and releases it.
    inner: Arc<Mutex<automaton::Automaton>>,
}

impl Automaton {
    /// `f` of the state, once no worker holds it (waited for without the GIL).
    fn with<R: Send>(&self, py: Python<'_>, f: impl FnOnce(&automaton::Automaton) -> R + Send) -> R {
        py.detach(|| f(&self.inner.lock().unwrap_or_else(PoisonError::into_inner)))
    }

    /// Runs until `max_steps` updates in all, on a worker.
    fn advance(&self, py: Python<'_>, max_steps: u64) -> PyResult<automaton::RunResult> {
        let state = Arc::clone(&self.inner);
        worker::run(py, move |control| {
            state.lock().unwrap_or_else(PoisonError::into_inner).run_until(max_steps, &Stop::new(control))
        })?
        .or_raise()
    }
}

#[pymethods]
impl Automaton {
    /// Automaton(model, n, *, seed=None, eps=0.01, eta=None): model "pair", "cell", "row"
    /// (or 1, 2, 3), n x n board, n queens placed at random from seed; eta (model "cell"
    /// only; None: DEFAULT_ETA) is refused for the other models, which do not use it.
    #[new]
    #[pyo3(signature = (model, n, *, seed=None, eps=automaton::DEFAULT_EPS, eta=None))]
    fn new(
        model: &Bound<'_, PyAny>,
        n: i128,
        seed: Option<i128>,
        eps: f64,
        eta: Option<f64>,
    ) -> PyResult<Automaton> {
        let params = params(model, n, eps, eta)?;
        let seed = numbers::seed(seed)?;
        let a = automaton::Automaton::from_seed(&params, seed).or_raise()?;
        Ok(Automaton { inner: Arc::new(Mutex::new(a)) })
    }

    /// Performs up to `updates` more updates (one pair, one cell, or a generation of model
    /// "row" each), stopping at a solution; True when the queens form a solution.
    #[pyo3(signature = (updates=1))]
    fn step(&self, py: Python<'_>, updates: i128) -> PyResult<bool> {
        let updates = numbers::u64_in("updates", updates, 0..=u64::MAX)?;
        let total = self.with(py, |a| a.steps()).saturating_add(updates);
        Ok(self.advance(py, total)?.solved)
    }

    /// Runs to the first solution or until max_steps updates in all (None: no cap); returns
    /// the record of damier.automaton.run. Ctrl-C stops it between two chunks of updates:
    /// the automaton keeps the state reached, and can be stepped on.
    #[pyo3(signature = (max_steps=None))]
    fn run<'py>(&self, py: Python<'py>, max_steps: Option<i128>) -> PyResult<Bound<'py, PyDict>> {
        let cap = cap(max_steps)?;
        let clock = Instant::now();
        if let Some(not_made) = self.with(py, UnsolvableRun::of).map_err(errors::internal)? {
            // As the CLI: no solution exists, so the run could only go on to its step cap.
            errors::warn(py, &not_made.reason())?;
            return records::dict(py, &not_made);
        }
        let result = self.advance(py, cap)?;
        let seconds = clock.elapsed().as_secs_f64();
        let record = self.with(py, |a| RunRecord::new(a, result, seconds));
        let dict = records::dict(py, &record)?;
        // The package's one convention (issue 38, section 2): a placement is an array of
        // 0-based columns, here as from `queens` and `Automaton.placement()`, where the CLI's
        // JSON prints 1-based columns.
        if let Some(p) = &record.placement {
            dict.set_item("placement", arrays::from_placement(py, p))?;
        }
        Ok(dict)
    }

    /// Queen counts, shape (n, n), dtype uint32: counts()[y, x] queens on cell (x, y).
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let (n, counts) = self.with(py, |a| (a.n() as usize, a.counts()));
        PyArray1::from_vec(py, counts).reshape([n, n])
    }

    /// Signal bits, shape (n, n), dtype uint8: bit d of signals()[y, x] set when cell (x, y)
    /// believes a queen lies further along DIRECTIONS[d].
    fn signals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let (n, bits) = self.with(py, |a| {
            let n = a.n() as usize;
            (n, (0..n * n).map(|i| a.signals(i % n, i / n)).collect::<Vec<u8>>())
        });
        PyArray1::from_vec(py, bits).reshape([n, n])
    }

    /// The queens as 0-based columns (one per row) when they stand one per row and column,
    /// else None.
    fn placement<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray1<u32>>>> {
        Ok(self.with(py, |a| a.placement()).map(|p| arrays::from_placement(py, &p)))
    }

    /// The board and its signals drawn as text.
    fn render(&self, py: Python<'_>) -> String {
        self.with(py, text::render)
    }

    /// Board side.
    #[getter]
    fn n(&self, py: Python<'_>) -> u32 {
        self.with(py, |a| a.n())
    }

    /// The model's name: "pair", "cell" or "row".
    #[getter]
    fn model(&self, py: Python<'_>) -> &'static str {
        self.with(py, |a| a.params().model.name())
    }

    /// The seed of the run's generator.
    #[getter]
    fn seed(&self, py: Python<'_>) -> u64 {
        self.with(py, |a| a.seed())
    }

    /// Updates made so far.
    #[getter]
    fn steps(&self, py: Python<'_>) -> u64 {
        self.with(py, |a| a.steps())
    }

    /// Effective queen moves so far.
    #[getter]
    fn moves(&self, py: Python<'_>) -> u64 {
        self.with(py, |a| a.moves())
    }

    /// Rows, columns and diagonals holding two queens or more (0 exactly on a solution).
    #[getter]
    fn conflicts(&self, py: Python<'_>) -> u32 {
        self.with(py, |a| a.conflicts())
    }

    /// True when the queens form a solution.
    #[getter]
    fn solved(&self, py: Python<'_>) -> bool {
        self.with(py, |a| a.is_solution())
    }

    /// True when every signal is true, so nothing can ever move again.
    #[getter]
    fn absorbing(&self, py: Python<'_>) -> bool {
        self.with(py, |a| a.is_absorbing())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        self.with(py, |a| {
            format!(
                "Automaton(model={:?}, n={}, seed={}, steps={}, moves={}, solved={})",
                a.params().model.name(),
                a.n(),
                a.seed(),
                a.steps(),
                a.moves(),
                if a.is_solution() { "True" } else { "False" }
            )
        })
    }
}
