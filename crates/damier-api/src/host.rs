//! What a request needs of its surroundings: the cancel flag and progress counter the engines
//! poll, a clock for the `seconds` of the answers, randomness for the seeds a request did not
//! choose, a way to show progress, and whether threads may be started. The server's job
//! process has its own (Ctrl-C, progress lines), the browser's worker its own (JavaScript's
//! clock and randomness, one thread); [`Native`] serves tests and scripts.

use std::any::Any;

use damier::control::Control;

/// The surroundings of a request.
pub trait Host: Sync {
    /// The control every engine of the request polls (cancel) and advances (progress).
    fn control(&self) -> &Control;
    /// A monotonic clock, in seconds.
    fn seconds(&self) -> f64;
    /// A fresh random seed, below 2^53 where it goes to a page (exact as a JavaScript number).
    fn seed(&self) -> u64;
    /// Whether the request may start threads (false in a browser's worker: the counts run
    /// share by share, saying how far they are through [`Host::step`]).
    fn parallel(&self) -> bool {
        true
    }
    /// Shows the control's counter under `label`, out of `total` units, while the returned
    /// guard lives (a progress bar, or progress lines for the server).
    fn watch(&self, label: &str, total: u64) -> Box<dyn Any> {
        let _ = (label, total);
        Box::new(())
    }
    /// `done` of `total` parts of a request run share by share are finished.
    fn step(&self, done: u64, total: u64) {
        let _ = (done, total);
    }
}

/// This machine's surroundings: a control of its own, std's clock and hasher keys, progress
/// not shown, threads allowed.
#[derive(Debug, Default)]
pub struct Native {
    control: Control,
}

impl Host for Native {
    fn control(&self) -> &Control {
        &self.control
    }

    fn seconds(&self) -> f64 {
        static EPOCH: std::sync::OnceLock<damier::control::Stopwatch> = std::sync::OnceLock::new();
        EPOCH.get_or_init(damier::control::Stopwatch::start).elapsed().as_secs_f64()
    }

    fn seed(&self) -> u64 {
        use std::hash::BuildHasher;
        std::collections::hash_map::RandomState::new().hash_one(0u64) >> 11
    }
}
