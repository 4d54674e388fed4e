//! What the requests need of their surroundings: a clock, randomness for the seeds a page did
//! not choose, and a place to say how far a long request got. The browser's are JavaScript's
//! (`abi`); the native ones serve the tests.

/// The surroundings of a request.
pub trait Host: Sync {
    /// A monotonic clock, in seconds (the `seconds` of the answers).
    fn seconds(&self) -> f64;
    /// A random seed below 2^53 (exact as a JavaScript number), for a run without one.
    fn seed(&self) -> u64;
    /// `done` of `total` parts of a long request are finished.
    fn progress(&self, done: u64, total: u64);
}

/// The native host: std's clock and hasher keys, progress ignored.
pub(crate) struct Native;

impl Host for Native {
    fn seconds(&self) -> f64 {
        static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        EPOCH.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
    }

    fn seed(&self) -> u64 {
        use std::hash::BuildHasher;
        std::collections::hash_map::RandomState::new().hash_one(0u64) >> 11
    }

    fn progress(&self, _done: u64, _total: u64) {}
}
