//! Cancellation and progress for long computations.
//!
//! The library never draws progress bars itself: an engine that may run for long takes a
//! [`Control`], polls [`Control::cancelled`] at a coarse grain and reports work done through
//! [`Control::advance`]. The CLI wires these to Ctrl-C and to an indicatif bar.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Shared cancellation flag and progress counter; cheap to poll from many threads.
#[derive(Debug, Default)]
pub struct Control {
    cancel: AtomicBool,
    done: AtomicU64,
}

impl Control {
    /// A control that is never cancelled unless [`Control::cancel`] is called.
    pub const fn new() -> Self {
        Control { cancel: AtomicBool::new(false), done: AtomicU64::new(0) }
    }

    /// Asks every engine polling this control to stop as soon as it can.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// True once [`Control::cancel`] has been called.
    #[inline]
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Records `units` of work done (the unit is the engine's: tasks, samples, steps).
    #[inline]
    pub fn advance(&self, units: u64) {
        self.done.fetch_add(units, Ordering::Relaxed);
    }

    /// Work done so far, in the engine's units.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
}

/// Returned by an engine stopped through [`Control::cancel`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancel_and_progress_are_visible() {
        let c = Control::new();
        assert!(!c.cancelled());
        c.advance(3);
        c.advance(4);
        assert_eq!(c.done(), 7);
        c.cancel();
        assert!(c.cancelled());
    }
}
