//! Progress bars for long runs, drawn only when stderr is a terminal. Off a terminal a run
//! that lasts longer than [`LONG_RUN`] prints one line then (what runs, how far it is) and one
//! at its end, so a log or a pipe still shows that something long happened.
//!
//! The runs that can last long ([`Progress::long_run`]: `queens estimate`, large counts,
//! `automaton growth/sweep/scale`, `factor sweep`; by their size ([`Progress::sized`]) large
//! `lights table`, `walk count`, `queens timing` and `queens bench` runs) say they are alive
//! on a terminal or not: a
//! line when they start (what they do, and their projected time where the command can project
//! it from its size: [`projected`]), then on a terminal the bar, off it a line of progress
//! at most every [`LINE_EVERY`], and a line at the end (issue 38, section 6). `--quiet`
//! silences every bar and line ([`set_quiet`]).
//!
//! Engines report work through [`damier::control::Control::advance`]; a [`Progress`] polls
//! that counter from a background thread, so hot loops never touch the terminal.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use damier::control::Control;
use indicatif::{ProgressBar, ProgressStyle};

use super::output::errln;

/// How long a run goes before, off a terminal, it says so on stderr.
pub const LONG_RUN: Duration = Duration::from_secs(10);

/// Off a terminal, a long run's progress lines come at most this often (a log stays short).
pub const LINE_EVERY: Duration = Duration::from_secs(60);

/// `--quiet`: no bar, no progress line.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences every bar and progress line of this process (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn is_quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// [`LONG_RUN`], or the test hook's `DAMIER_TEST_LONG_RUN_MS` (debug builds): how long a run
/// goes off a terminal before it says so, and (for the hook) how often it says so then.
pub fn long_run_after() -> Duration {
    super::test_hooks::read().ok().and_then(|h| h.long_run_ms).map_or(LONG_RUN, Duration::from_millis)
}

/// [`LINE_EVERY`], or the test hook's `DAMIER_TEST_LONG_RUN_MS` (debug builds).
pub fn line_every() -> Duration {
    super::test_hooks::read().ok().and_then(|h| h.long_run_ms).map_or(LINE_EVERY, Duration::from_millis)
}

/// A bar following a [`Control`]'s counter; finishes and clears when dropped.
pub struct Progress {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// Off a terminal: the line to print at the end, once the start was announced.
    end: Option<EndLine>,
}

/// What the last line of a long run says: off a terminal once it was announced, and always
/// for a [`Progress::long_run`].
struct EndLine {
    announced: Arc<AtomicBool>,
    label: String,
    started: Instant,
    control: &'static Control,
    base: u64,
    total: u64,
}

impl Progress {
    /// Starts a bar of `total` units labelled `label`, if stderr is a terminal.
    /// Counts from the control's current value, so one control can drive successive bars.
    pub fn start(control: &'static Control, total: u64, label: &str) -> Progress {
        let stop = Arc::new(AtomicBool::new(false));
        if std::env::var_os("DAMIER_PROGRESS").is_some_and(|v| v == "lines") {
            return Progress::lines(control, total, label, stop);
        }
        if is_quiet() || std::env::var_os("DAMIER_PROGRESS").is_some_and(|v| v == "none") {
            return Progress { stop, thread: None, end: None };
        }
        if !std::io::stderr().is_terminal() {
            return Progress::announced(control, total, label, stop);
        }
        Progress::bar(control, total, label, stop, None)
    }

    /// A run that can last long (issue 38, section 6): says `what` it does at once, on
    /// stderr, terminal or not; then draws the bar on a terminal, or off one prints how far it
    /// is at most every [`LINE_EVERY`] (when a unit of work has finished since the last line);
    /// and says when it ends. stdout is untouched.
    pub fn long_run(control: &'static Control, total: u64, label: &str, what: &str) -> Progress {
        let stop = Arc::new(AtomicBool::new(false));
        if std::env::var_os("DAMIER_PROGRESS").is_some_and(|v| v == "lines") {
            return Progress::lines(control, total, label, stop);
        }
        if is_quiet() || std::env::var_os("DAMIER_PROGRESS").is_some_and(|v| v == "none") {
            return Progress { stop, thread: None, end: None };
        }
        errln!("damier: {label}: {what}");
        let end = EndLine {
            announced: Arc::new(AtomicBool::new(true)),
            label: label.to_string(),
            started: Instant::now(),
            control,
            base: control.done(),
            total,
        };
        if std::io::stderr().is_terminal() {
            return Progress::bar(control, total, label, stop, Some(end));
        }
        let every = line_every();
        let (flag, label, started, base) = (Arc::clone(&stop), end.label.clone(), end.started, end.base);
        let thread = std::thread::spawn(move || {
            let (mut said, mut last) = (started, 0);
            while !flag.load(Ordering::Relaxed) {
                let done = control.done().saturating_sub(base);
                // A run without units of work (total 0) says it is still running.
                if said.elapsed() >= every && (done != last || total == 0) {
                    errln!("damier: {label}: {}", how_far(done, total, started.elapsed()));
                    (said, last) = (Instant::now(), done);
                }
                // Short sleeps: the drop that stops this thread waits for at most one.
                std::thread::sleep(Duration::from_millis(25));
            }
        });
        Progress { stop, thread: Some(thread), end: Some(end) }
    }

    /// A run whose size says whether it can last long: [`Progress::long_run`] when `long`
    /// (saying `what()` at the start), else [`Progress::start`] (a bar on a terminal only).
    /// `total` is 0 where the engine reports no units of work (the lines then say the time
    /// only).
    pub fn sized(
        long: bool,
        control: &'static Control,
        total: u64,
        label: &str,
        what: impl FnOnce() -> String,
    ) -> Progress {
        let long = long || super::test_hooks::read().is_ok_and(|h| h.all_runs_long);
        if long {
            Progress::long_run(control, total, label, &what())
        } else {
            Progress::start(control, total, label)
        }
    }

    /// The bar on a terminal, with the end line of a long run when `end` is given.
    fn bar(
        control: &'static Control,
        total: u64,
        label: &str,
        stop: Arc<AtomicBool>,
        end: Option<EndLine>,
    ) -> Progress {
        let bar = ProgressBar::new(total);
        // Without units of work (total 0), the time only.
        let template = if total == 0 {
            "{msg} [{elapsed_precise}] {spinner}"
        } else {
            "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} {left}"
        };
        // The time left as the lines off a terminal say it, from the same average pace ("about
        // 950 s left"; indicatif's `{eta}` wrote "18m" from its own recent rate: issue 52 §5).
        let left = |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            if let Some(left) = time_left(s.pos(), s.len().unwrap_or(0), s.elapsed()) {
                let _ = write!(w, "({left})");
            }
        };
        bar.set_style(ProgressStyle::with_template(template).expect("valid template").with_key("left", left));
        bar.set_message(label.to_string());
        let base = control.done();
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                bar.set_position(control.done().saturating_sub(base));
                if total == 0 {
                    bar.tick();
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        Progress { stop, thread: Some(thread), end }
    }

    /// Off a terminal: one line once the run has lasted [`LONG_RUN`], one at its end.
    fn announced(control: &'static Control, total: u64, label: &str, stop: Arc<AtomicBool>) -> Progress {
        let end = EndLine {
            announced: Arc::new(AtomicBool::new(false)),
            label: label.to_string(),
            started: Instant::now(),
            control,
            base: control.done(),
            total,
        };
        let long = long_run_after();
        let (flag, announced, label, started, base) =
            (Arc::clone(&stop), Arc::clone(&end.announced), end.label.clone(), end.started, end.base);
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                if started.elapsed() >= long {
                    let done = control.done().saturating_sub(base);
                    errln!(
                        "damier: {label}: running for {} s, {done} of {total} done (a progress bar is drawn on a terminal)",
                        crate::util::number(started.elapsed().as_secs_f64())
                    );
                    announced.store(true, Ordering::Relaxed);
                    return;
                }
                // Short sleeps: the drop that stops this thread waits for at most one.
                std::thread::sleep(Duration::from_millis(25));
            }
        });
        Progress { stop, thread: Some(thread), end: Some(end) }
    }

    /// For `damier serve`'s child processes: the progress as `damier-progress {"label", "done",
    /// "total"}` lines on stderr, four times a second, which the server streams to the page.
    fn lines(control: &'static Control, total: u64, label: &str, stop: Arc<AtomicBool>) -> Progress {
        let base = control.done();
        let flag = Arc::clone(&stop);
        let label = serde_json::to_string(label).unwrap_or_else(|_| "\"\"".into());
        let thread = std::thread::spawn(move || {
            let mut tick = 0u32;
            while !flag.load(Ordering::Relaxed) {
                if tick.is_multiple_of(10) {
                    let done = control.done().saturating_sub(base);
                    errln!("damier-progress {{\"label\":{label},\"done\":{done},\"total\":{total}}}");
                }
                tick = tick.wrapping_add(1);
                // Short sleeps: the drop that stops this thread waits for at most one.
                std::thread::sleep(Duration::from_millis(25));
            }
        });
        Progress { stop, thread: Some(thread), end: None }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if let Some(e) = &self.end
            && e.announced.load(Ordering::Relaxed)
        {
            let done = e.control.done().saturating_sub(e.base);
            let seconds = crate::util::number(e.started.elapsed().as_secs_f64());
            if e.total == 0 {
                errln!("damier: {}: ended after {seconds} s", e.label);
            } else {
                errln!("damier: {}: ended after {seconds} s, {done} of {} done", e.label, e.total);
            }
        }
    }
}

/// A start line's projected time, from the figures measured for the command (a release build
/// on 2 loaded cores): "about 13 s (as measured on 2 loaded cores, release build)".
pub fn projected(seconds: f64) -> String {
    format!("about {} s (as measured on 2 loaded cores, release build)", crate::util::number(seconds))
}

/// "12 of 200 done after 61 s, about 950 s left"; "running for 61 s" without units of work.
fn how_far(done: u64, total: u64, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    if total == 0 {
        return format!("running for {} s", crate::util::number(seconds));
    }
    let left = time_left(done, total, elapsed).map(|l| format!(", {l}")).unwrap_or_default();
    format!("{done} of {total} done after {} s{left}", crate::util::number(seconds))
}

/// "about 950 s left" at the average pace so far, `None` before the first unit or after the
/// last: the one estimate and format of the time left, bar and lines alike.
pub fn time_left(done: u64, total: u64, elapsed: Duration) -> Option<String> {
    (done > 0 && done < total).then(|| {
        let seconds = elapsed.as_secs_f64() * (total - done) as f64 / done as f64;
        format!("about {} s left", crate::util::number(seconds))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn how_far_projects_the_time_left_from_the_pace() {
        assert_eq!(how_far(10, 40, Duration::from_secs(60)), "10 of 40 done after 60 s, about 180 s left");
        assert_eq!(how_far(0, 40, Duration::from_secs(60)), "0 of 40 done after 60 s");
        assert_eq!(how_far(40, 40, Duration::from_millis(1500)), "40 of 40 done after 1.5 s");
        assert_eq!(how_far(0, 0, Duration::from_secs(60)), "running for 60 s");
        // The bar's time left is the same estimate in the same words.
        assert_eq!(time_left(10, 40, Duration::from_secs(60)).as_deref(), Some("about 180 s left"));
        assert_eq!(time_left(0, 40, Duration::from_secs(60)), None);
    }

    #[test]
    fn projected_times_follow_the_number_rule() {
        assert_eq!(projected(12.62), "about 12.6 s (as measured on 2 loaded cores, release build)");
    }
}
