//! Cancellation and progress for long computations.
//!
//! The library never draws progress bars itself: an engine that may run for long takes a
//! [`Control`], polls [`Control::cancelled`] at a coarse grain and reports work done through
//! [`Control::advance`]. The CLI wires these to Ctrl-C and to an indicatif bar.
//! [`set_host_clock`] gives the library a clock where the standard library has none
//! (WebAssembly in a browser), for the task timings of a count.
//!
//! The experiments of both automata share the rest: a [`Stop`] (cancellation or a wall-clock
//! budget), why a run was [`Censored`], the polling grain [`CHUNK`], and [`stream_seed`], the
//! seed of each sample of a seeded experiment.
//!
//! ```
//! use damier::control::{Control, stream_seed};
//!
//! let control = Control::new();
//! control.advance(3);
//! assert_eq!(control.done(), 3);
//! control.cancel(); // an engine polling it stops with `Interrupted`
//! assert!(control.cancelled());
//! assert_ne!(stream_seed(7, 0), stream_seed(7, 1));
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

pub use crate::clock::{Stopwatch, set_host_clock};

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

/// Updates between two polls of the cancel flag and the deadline in the automata's runs
/// (about a millisecond).
pub const CHUNK: u64 = 1 << 16;

/// When to give up a run early: Ctrl-C (an error) or a wall-clock deadline (a censored run).
#[derive(Clone, Copy, Debug)]
pub struct Stop<'a> {
    /// Cancellation (the run returns `Interrupted`).
    pub control: &'a Control,
    /// Stop and report the run as censored by the budget once this instant has passed.
    pub deadline: Option<Instant>,
}

impl<'a> Stop<'a> {
    /// Stops only on cancellation.
    pub fn new(control: &'a Control) -> Stop<'a> {
        Stop { control, deadline: None }
    }
}

/// Why a run ended without a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum Censored {
    /// The step cap was reached.
    StepCap,
    /// The wall-clock budget ran out.
    Budget,
}

/// The seed of stream `i` of an experiment seeded with `seed` (SplitMix64 finalizer of both:
/// distinct streams get unrelated generator states).
pub fn stream_seed(seed: u64, i: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    mix(seed ^ mix(i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

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

    /// Every error that wraps [`Interrupted`] gives it as its source, so that a front end
    /// finds it in the chain (the CLI exits 130 on it): `automaton growth` stopped by Ctrl-C
    /// exited 2, "error: interrupted", when its error was transparent.
    #[test]
    fn errors_wrapping_an_interruption_give_it_as_their_source() {
        fn source_is_interrupted(e: &dyn std::error::Error) -> bool {
            e.source().is_some_and(|s| s.downcast_ref::<Interrupted>().is_some())
                && e.to_string() == "interrupted"
        }
        assert!(source_is_interrupted(&crate::automaton::growth::MeasureError::from(Interrupted)));
        assert!(source_is_interrupted(&crate::automaton::experiment::ExperimentError::from(Interrupted)));
        assert!(source_is_interrupted(&crate::factor::FactorError::from(Interrupted)));
        assert!(source_is_interrupted(&crate::lights::LightsError::from(Interrupted)));
        assert!(source_is_interrupted(&crate::queens::count::CountError::from(Interrupted)));
    }
}
