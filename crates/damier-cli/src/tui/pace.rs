//! Pacing shared by the live views: the offered speeds, pause, and how many updates each
//! frame owes to the clock.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::KeyCode;

/// Speeds offered by `+` and `-`, in updates per second.
pub const SPEEDS: [u64; 9] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/// Pause state, chosen speed and measured rate of a live view.
#[derive(Debug, Clone)]
pub struct Pace {
    /// No updates run while paused.
    pub paused: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Updates per second actually achieved, smoothed.
    pub rate: f64,
    last: Option<Instant>,
    /// Fractional updates owed by the clock between ticks.
    owed: f64,
}

impl Pace {
    /// Paused or running at `speed` updates per second (rounded up to an offered speed).
    pub fn new(speed: u64, paused: bool) -> Pace {
        let speed = SPEEDS.iter().position(|&s| s >= speed).unwrap_or(SPEEDS.len() - 1);
        Pace { paused, speed, rate: 0.0, last: None, owed: 0.0 }
    }

    /// The chosen speed, updates per second.
    pub fn per_second(&self) -> u64 {
        SPEEDS[self.speed]
    }

    /// Handles space (pause/run), `+`/`=` and `-` (speed); false for any other key.
    pub fn on_key(&mut self, code: KeyCode) -> bool {
        match code {
            KeyCode::Char(' ') => {
                self.paused = !self.paused;
                self.last = None;
            }
            KeyCode::Char('+') | KeyCode::Char('=') => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            KeyCode::Char('-') => self.speed = self.speed.saturating_sub(1),
            _ => return false,
        }
        true
    }

    /// Runs the updates owed since the last tick through `advance(k)` (which performs `k`
    /// updates and returns true to pause, e.g. at a solution); returns how long the event
    /// loop may wait before the next frame.
    pub fn tick(&mut self, now: Instant, mut advance: impl FnMut(u64) -> bool) -> Duration {
        let frame = Duration::from_millis(50);
        if self.paused {
            self.last = None;
            self.rate = 0.0;
            return Duration::from_millis(250);
        }
        let Some(last) = self.last.replace(now) else { return frame };
        let dt = now.duration_since(last).as_secs_f64();
        // PERF: slices of at most 100 000 updates and ~40 ms of stepping per frame, so keys
        // stay responsive at any speed.
        let budget = Instant::now() + Duration::from_millis(40);
        self.owed += dt * SPEEDS[self.speed] as f64;
        let mut done = 0u64;
        while self.owed >= 1.0 && !self.paused {
            let k = (self.owed as u64).min(100_000);
            self.paused = advance(k);
            done += k;
            self.owed -= k as f64;
            if Instant::now() > budget {
                self.owed = 0.0;
                break;
            }
        }
        if dt > 0.0 {
            self.rate = 0.7 * self.rate + 0.3 * (done as f64 / dt);
        }
        frame
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_owed_updates() {
        let mut p = Pace::new(1000, false);
        assert_eq!(p.per_second(), 1000);
        assert!(p.on_key(KeyCode::Char('+')) && p.per_second() == 10_000);
        assert!(p.on_key(KeyCode::Char('-')) && p.on_key(KeyCode::Char('-')) && p.per_second() == 100);
        assert!(!p.on_key(KeyCode::Char('x')));
        let t0 = Instant::now();
        let mut total = 0;
        p.tick(t0, |k| {
            total += k;
            false
        });
        assert_eq!(total, 0, "the first tick only starts the clock");
        p.tick(t0 + Duration::from_millis(100), |k| {
            total += k;
            false
        });
        assert_eq!(total, 10, "100 ms at 100 updates per second");
        p.tick(t0 + Duration::from_millis(200), |_| true);
        assert!(p.paused, "advance asked to pause");
        assert!(p.on_key(KeyCode::Char(' ')) && !p.paused);
    }
}
