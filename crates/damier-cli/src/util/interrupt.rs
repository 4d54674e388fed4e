//! Ctrl-C: the first press asks the running engine to stop (it returns `Interrupted`, the
//! command cleans up and exits 130), a checkpoint being written finished first, as said at
//! once ([`Saving`]); a second press exits at once, abandoning a file being
//! written (its temporary file removed, the target left as it was: [`Temporary`]). SIGTERM
//! (`kill`, a batch system's end of job) is a Ctrl-C that a process which does not stop does
//! not outlive ([`install`]); `damier serve` and the terminal views take it as a first Ctrl-C
//! only ([`install_stop_signals`], [`install_sigterm`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use damier::control::Control;

/// Exit code after Ctrl-C (128 + SIGINT); `exit::INTERRUPTED` to the commands.
pub const INTERRUPTED: u8 = 130;

static CONTROL: Control = Control::new();
static PRESSED: AtomicBool = AtomicBool::new(false);
/// Whether a SIGTERM came (set by its handler before it sends the SIGINT).
static TERMINATED: AtomicBool = AtomicBool::new(false);
/// Writes ended so far ([`Temporary`]'s drop), for [`exit_unless_writing`].
static WRITES: AtomicU64 = AtomicU64::new(0);
/// The files being written (temporary file, target) that a second Ctrl-C removes.
static TEMPORARIES: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());
/// The checkpoints being written ([`Saving`]), which a first Ctrl-C lets finish.
static SAVING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How long a process may go on after a SIGTERM with no file being written before it exits
/// anyway: what a stopped engine takes to return many times over, and what supervisors give
/// before they kill (docker 10 s; systemd 90 s, Slurm 30 s), so that a run's own wind-down
/// (a journal's last append, the ranks of an MPI run agreeing to stop) is not cut short.
const TERMINATION_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Whether "interrupted" was said: the main thread's report and the SIGTERM watchdog may both
/// reach it, and it is said once.
static SAID: AtomicBool = AtomicBool::new(false);

/// Says on stderr that the run was interrupted, once per process.
pub fn say_interrupted() {
    if !SAID.swap(true, Ordering::SeqCst) {
        let _ = writeln!(std::io::stderr(), "damier: interrupted");
    }
}

/// Installs the Ctrl-C handler (once; later calls do nothing), and makes SIGTERM a Ctrl-C:
/// the run stops cleanly, its checkpoint saved, and a second one abandons the file being
/// written. SIGTERM killed the process at once, leaving the temporary file of a checkpoint
/// being written beside it. A process that has not ended after a SIGTERM exits 130 once a
/// whole [`TERMINATION_GRACE`] passes with no file written (one blocked reading a pipe polls
/// no control: SIGTERM still ends it). A SIGTERM the process was started ignoring stays
/// ignored.
pub fn install() {
    // ctrlc runs this on a thread of its own, not in the signal handler: it may lock and
    // remove files.
    let _ = ctrlc::set_handler(|| {
        if PRESSED.swap(true, Ordering::SeqCst) {
            abandon_temporaries_and_exit();
        }
        say_saves_finish_first();
        CONTROL.cancel();
        if TERMINATED.load(Ordering::SeqCst) {
            std::thread::spawn(exit_unless_writing);
        }
    });
    #[cfg(unix)]
    handle(&[libc::SIGTERM], as_ctrl_c);
}

/// After a SIGTERM: exits 130 once a whole [`TERMINATION_GRACE`] has passed with no file
/// written (a write under way or begun meanwhile, a final checkpoint, gives the process
/// another grace after it), the lock held as [`abandon_temporaries_and_exit`] holds it.
fn exit_unless_writing() {
    let mut writes = WRITES.load(Ordering::SeqCst);
    loop {
        std::thread::sleep(TERMINATION_GRACE);
        let files = TEMPORARIES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = WRITES.load(Ordering::SeqCst);
        if files.is_empty() && now == writes {
            say_interrupted();
            std::process::exit(i32::from(INTERRUPTED));
        }
        writes = now;
    }
}

/// On the first Ctrl-C (or SIGTERM) during the write of a checkpoint ([`Saving`]): says at
/// once that the write is finished first, and how to abandon it. The write goes on (the first
/// Ctrl-C stops the run, not its checkpoint), and at n = 16 384 it takes tens of seconds: the
/// run said nothing until it ended (the review). Said once, the first press being handled
/// once.
fn say_saves_finish_first() {
    let targets: Vec<String> = SAVING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .iter()
        .map(|target| target.display().to_string())
        .collect();
    if targets.is_empty() {
        return;
    }
    // On a terminal, below the line the press leaves (a progress bar, the `^C` echoed).
    let below = if std::io::IsTerminal::is_terminal(&std::io::stderr()) { "\n" } else { "" };
    let _ = writeln!(
        std::io::stderr(),
        "{below}damier: the checkpoint being written to {} is finished first (Ctrl-C again \
         abandons it: the file keeps the last one)",
        targets.join(", ")
    );
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
        WRITES.fetch_add(1, Ordering::SeqCst);
    }
}

/// A checkpoint being written to its file, from [`Saving::new`] to the drop: a first Ctrl-C
/// lets the write finish (the run stops once it has), and says so at once. (A file whose
/// writer stops on a first Ctrl-C, such as `queens solve --out`, is not one.)
pub struct Saving(PathBuf);

impl Saving {
    /// Registers the write of the checkpoint `target`.
    pub fn new(target: &Path) -> Saving {
        SAVING.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(target.to_path_buf());
        Saving(target.to_path_buf())
    }
}

impl Drop for Saving {
    fn drop(&mut self) {
        let mut saving = SAVING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(i) = saving.iter().position(|target| *target == self.0) {
            saving.swap_remove(i);
        }
    }
}

/// Makes SIGTERM and SIGHUP stop the run as a first Ctrl-C does (`damier serve`: a service
/// manager's stop, the terminal closed), so that it ends its children and removes their files
/// instead of dying at once. A signal the process was started ignoring (`nohup` ignores
/// SIGHUP) stays ignored.
pub fn install_stop_signals() {
    #[cfg(unix)]
    handle(&[libc::SIGTERM, libc::SIGHUP], on_stop_signal);
}

/// Makes SIGTERM stop the run as a first Ctrl-C does, SIGHUP left to its default (the
/// terminal games and live views: their event loop looks at the control between two reads of
/// the terminal, but once the terminal is gone crossterm's read spins without returning,
/// crossterm issue 793, so a caught SIGHUP left them running at 100 % of a core; the default
/// action ends them).
pub fn install_sigterm() {
    #[cfg(unix)]
    handle(&[libc::SIGTERM], on_stop_signal);
}

/// Installs `handler` for `signals`, except those the process was started ignoring.
#[cfg(unix)]
fn handle(signals: &[libc::c_int], handler: extern "C" fn(libc::c_int)) {
    for &signal in signals {
        // SAFETY: `sigaction` with a null new action only reads the current one into `old`, a
        // zeroed `sigaction` it may write; the handlers installed next ([`on_stop_signal`],
        // [`as_ctrl_c`]) only store an atomic flag or call `kill`, both async-signal-safe;
        // `sigemptyset` fills the mask of a struct we own.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The handler of SIGTERM and SIGHUP in `damier serve` and the terminal views: only an
/// atomic store.
#[cfg(unix)]
extern "C" fn on_stop_signal(_: libc::c_int) {
    CONTROL.cancel();
}

/// The handler of SIGTERM elsewhere: notes it and sends the process a SIGINT, which Ctrl-C's
/// handler (on its own thread) takes as a press.
#[cfg(unix)]
extern "C" fn as_ctrl_c(_: libc::c_int) {
    TERMINATED.store(true, Ordering::SeqCst);
    // SAFETY: `getpid` and `kill` are async-signal-safe and touch no memory of ours.
    unsafe {
        libc::kill(libc::getpid(), libc::SIGINT);
    }
}

/// The process-wide control that Ctrl-C cancels; pass it to long-running engines.
pub fn control() -> &'static Control {
    &CONTROL
}

/// `Err(Interrupted)` once Ctrl-C was pressed.
pub fn check() -> Result<(), damier::control::Interrupted> {
    if CONTROL.cancelled() { Err(damier::control::Interrupted) } else { Ok(()) }
}
