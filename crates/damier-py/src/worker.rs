//! Long calls: the library works on a worker thread while the calling thread, without the GIL,
//! waits for it and runs Python's signal handlers every [`SIGNAL_POLL`]. On Ctrl-C the call
//! cancels the library's [`Control`], waits (without the GIL) for the worker to stop at the
//! engine's next poll (every few milliseconds of work: inside a task of a count, between
//! chunks of automaton updates), drops its result and raises `KeyboardInterrupt`: no work goes
//! on behind the interpreter's back. A panic of the worker becomes a Python exception instead
//! of crossing the boundary.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use damier::control::Control;
use pyo3::panic::PanicException;
use pyo3::prelude::*;

/// How often the waiting thread runs Python's signal handlers: Ctrl-C is answered within this.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Stack of the worker: the size of a main thread's, which the CLI runs the library on.
const WORKER_STACK: usize = 8 << 20;

/// What the worker and the waiting thread share.
struct Shared<T> {
    control: Control,
    /// The worker's result (`Err`: it panicked), once it is ready.
    result: Mutex<Option<std::thread::Result<T>>>,
    ready: Condvar,
}

/// Runs `work` with a fresh [`Control`] on a worker thread, the GIL released. A pending
/// signal (Ctrl-C: `KeyboardInterrupt`) cancels the control and is raised once the worker has
/// stopped; a panic is raised as `pyo3_runtime.PanicException`.
pub fn run<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(&Control) -> T + Send + 'static,
{
    let shared =
        Arc::new(Shared { control: Control::new(), result: Mutex::new(None), ready: Condvar::new() });
    let theirs = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("damier worker".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let out = catch_unwind(AssertUnwindSafe(|| work(&theirs.control)));
            *theirs.result.lock().unwrap_or_else(PoisonError::into_inner) = Some(out);
            theirs.ready.notify_all();
        })
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("cannot start a worker thread: {e}")))?;
    // The worker's result, waited for at most `wait` (`None`: until it comes).
    let result = |wait: Option<Duration>| {
        py.detach(|| {
            let guard = shared.result.lock().unwrap_or_else(PoisonError::into_inner);
            let mut guard = match wait {
                Some(wait) => shared
                    .ready
                    .wait_timeout_while(guard, wait, |v| v.is_none())
                    .map_or_else(|e| e.into_inner().0, |(g, _)| g),
                None => {
                    shared.ready.wait_while(guard, |v| v.is_none()).unwrap_or_else(PoisonError::into_inner)
                }
            };
            guard.take()
        })
    };
    loop {
        match result(Some(SIGNAL_POLL)) {
            Some(Ok(value)) => return Ok(value),
            Some(Err(payload)) => return Err(panic_error(payload)),
            None => {
                if let Err(e) = py.check_signals() {
                    shared.control.cancel();
                    // The worker stops at its engine's next poll; its result (or panic) is
                    // dropped for the signal's exception.
                    let _stopped = result(None);
                    return Err(e);
                }
            }
        }
    }
}

/// A panic's message as a Python exception.
fn panic_error(payload: Box<dyn std::any::Any + Send>) -> PyErr {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    PanicException::new_err(format!("internal error in damier: {message}"))
}
