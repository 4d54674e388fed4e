//! Ctrl-C: the first press asks the running engine to stop (it returns `Interrupted`, the
//! command cleans up and exits 130); a second press exits at once, abandoning a file being
//! written (its temporary file removed, the target left as it was: [`Temporary`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use damier::control::Control;

/// Exit code after Ctrl-C (128 + SIGINT); `exit::INTERRUPTED` to the commands.
pub const INTERRUPTED: u8 = 130;

static CONTROL: Control = Control::new();
static PRESSED: AtomicBool = AtomicBool::new(false);
/// The files being written (temporary file, target) that a second Ctrl-C removes.
static TEMPORARIES: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

/// Installs the Ctrl-C handler (once; later calls do nothing).
pub fn install() {
    // ctrlc runs this on a thread of its own, not in the signal handler: it may lock and
    // remove files.
    let _ = ctrlc::set_handler(|| {
        if PRESSED.swap(true, Ordering::SeqCst) {
            abandon_temporaries_and_exit();
        }
        CONTROL.cancel();
    });
}

/// Removes the temporary files of the writes under way (a second Ctrl-C during the final
/// checkpoint of a run of n = 16 384, a gigabyte), saying which targets keep what they held.
/// Exits 130 with the lock held, so that no write registers or finishes meanwhile.
fn abandon_temporaries_and_exit() -> ! {
    let files = TEMPORARIES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for (temp, target) in files.iter() {
        // Not found: the write had just finished and renamed it into place.
        if std::fs::remove_file(temp).is_ok() {
            let _ = writeln!(
                std::io::stderr(),
                "damier: interrupted again: {} was not written (it keeps what it held)",
                target.display()
            );
        }
    }
    std::process::exit(i32::from(INTERRUPTED));
}

/// A temporary file being written for `target`, removed by a second Ctrl-C until dropped (the
/// write finished or failed: the writer removes or renames it itself).
pub struct Temporary(PathBuf);

impl Temporary {
    /// Registers `temp`, written for `target`.
    pub fn new(temp: &Path, target: &Path) -> Temporary {
        let mut files = TEMPORARIES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        files.push((temp.to_path_buf(), target.to_path_buf()));
        Temporary(temp.to_path_buf())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let mut files = TEMPORARIES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(i) = files.iter().position(|(temp, _)| *temp == self.0) {
            files.swap_remove(i);
        }
    }
}

/// Makes SIGTERM and SIGHUP stop the run as a first Ctrl-C does (`damier serve`: a service
/// manager's stop, the terminal closed), so that it ends its children and removes their files
/// instead of dying at once. A signal the process was started ignoring (`nohup` ignores
/// SIGHUP) stays ignored.
pub fn install_stop_signals() {
    #[cfg(unix)]
    stop_on(&[libc::SIGTERM, libc::SIGHUP]);
}

/// Makes SIGTERM stop the run as a first Ctrl-C does, SIGHUP left to its default (the
/// terminal games and live views: their event loop looks at the control between two reads of
/// the terminal, but once the terminal is gone crossterm's read spins without returning,
/// crossterm issue 793, so a caught SIGHUP left them running at 100 % of a core; the default
/// action ends them).
pub fn install_sigterm() {
    #[cfg(unix)]
    stop_on(&[libc::SIGTERM]);
}

/// Installs [`on_stop_signal`] for `signals`, except those the process was started ignoring.
#[cfg(unix)]
fn stop_on(signals: &[libc::c_int]) {
    for &signal in signals {
        // SAFETY: `sigaction` with a null new action only reads the current one into `old`, a
        // zeroed `sigaction` it may write; the handler installed next only stores an atomic
        // flag (`Control::cancel`), which is async-signal-safe; `sigemptyset` fills the mask
        // of a struct we own.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_stop_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The handler of SIGTERM and SIGHUP: only an atomic store.
#[cfg(unix)]
extern "C" fn on_stop_signal(_: libc::c_int) {
    CONTROL.cancel();
}

/// The process-wide control that Ctrl-C cancels; pass it to long-running engines.
pub fn control() -> &'static Control {
    &CONTROL
}

/// `Err(Interrupted)` once Ctrl-C was pressed.
pub fn check() -> Result<(), damier::control::Interrupted> {
    if CONTROL.cancelled() { Err(damier::control::Interrupted) } else { Ok(()) }
}
