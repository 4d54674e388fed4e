//! The clock of the durations the library reports (each counting task's time), on every
//! target: `std::time::Instant` panics on `wasm32-unknown-unknown`, where WebAssembly in a
//! browser has no clock of its own. [`Stopwatch`] is `Instant` everywhere else; there it reads
//! the clock its host gave ([`set_host_clock`]: the browser's `performance.now()`), or reads
//! zero without one. Deadlines and estimates still read `Instant` (they are not run there).

use std::time::Duration;

/// Gives the library a clock where the standard library has none (`wasm32-unknown-unknown`):
/// `now_ms` answers milliseconds from any fixed origin, never going back (JavaScript's
/// `performance.now()`). The first clock given stays; on other targets it is not read (they
/// keep the system's monotonic clock).
pub fn set_host_clock(now_ms: fn() -> f64) {
    let _ = HOST.set(now_ms);
}

static HOST: std::sync::OnceLock<fn() -> f64> = std::sync::OnceLock::new();

/// A started stopwatch: `Instant::now()` and `elapsed()`, or the host's clock.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    start: std::time::Instant,
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    start_ms: f64,
}

impl Stopwatch {
    /// Starts now.
    #[inline]
    pub fn start() -> Stopwatch {
        #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
        return Stopwatch { start: std::time::Instant::now() };
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        return Stopwatch { start_ms: host_ms() };
    }

    /// The time since [`Stopwatch::start`].
    #[inline]
    pub fn elapsed(&self) -> Duration {
        #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
        return self.start.elapsed();
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        return Duration::try_from_secs_f64((host_ms() - self.start_ms).max(0.0) / 1000.0)
            .unwrap_or(Duration::ZERO);
    }
}

/// The host's clock, or 0 without one.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
fn host_ms() -> f64 {
    HOST.get().map_or(0.0, |now| now())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopwatch_reads_the_time_since_its_start() {
        // A host clock given here is not read: this target has the system's.
        set_host_clock(|| f64::NAN);
        let s = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(5));
        assert!(s.elapsed() >= Duration::from_millis(5));
    }
}
