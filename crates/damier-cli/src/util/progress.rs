//! Progress bars for long runs, drawn only when stderr is a terminal. Off a terminal a run
//! that lasts longer than [`LONG_RUN`] prints one line then (what runs, how far it is) and one
//! at its end, so a log or a pipe still shows that something long happened.
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

/// A bar following a [`Control`]'s counter; finishes and clears when dropped.
pub struct Progress {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// Off a terminal: the line to print at the end, once the start was announced.
    end: Option<EndLine>,
}

/// What the last line of a long run off a terminal says.
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
        if std::env::var_os("DAMIER_PROGRESS").is_some_and(|v| v == "none") {
            return Progress { stop, thread: None, end: None };
        }
        if !std::io::stderr().is_terminal() {
            return Progress::announced(control, total, label, stop);
        }
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template("{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta})")
                .expect("valid template"),
        );
        bar.set_message(label.to_string());
        let base = control.done();
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                bar.set_position(control.done().saturating_sub(base));
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        Progress { stop, thread: Some(thread), end: None }
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
        let long = super::test_hooks::read()
            .ok()
            .and_then(|h| h.long_run_ms)
            .map_or(LONG_RUN, Duration::from_millis);
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
            errln!(
                "damier: {}: ended after {} s, {done} of {} done",
                e.label,
                crate::util::number(e.started.elapsed().as_secs_f64()),
                e.total
            );
        }
    }
}
