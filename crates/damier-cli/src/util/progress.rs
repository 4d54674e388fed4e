//! Progress bars for long runs, drawn only when stderr is a terminal.
//!
//! Engines report work through [`damier::control::Control::advance`]; a [`Progress`] polls
//! that counter from a background thread, so hot loops never touch the terminal.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use damier::control::Control;
use indicatif::{ProgressBar, ProgressStyle};

use super::output::errln;

/// A bar following a [`Control`]'s counter; finishes and clears when dropped.
pub struct Progress {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts a bar of `total` units labelled `label`, if stderr is a terminal.
    /// Counts from the control's current value, so one control can drive successive bars.
    pub fn start(control: &'static Control, total: u64, label: &str) -> Progress {
        let stop = Arc::new(AtomicBool::new(false));
        if std::env::var_os("DAMIER_PROGRESS").is_some_and(|v| v == "lines") {
            return Progress::lines(control, total, label, stop);
        }
        if !std::io::stderr().is_terminal() {
            return Progress { stop, thread: None };
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
        Progress { stop, thread: Some(thread) }
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
        Progress { stop, thread: Some(thread) }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
