//! Ctrl-C: the first press asks the running engine to stop (it returns `Interrupted`, the
//! command cleans up and exits 130); a second press exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

use damier::control::Control;

static CONTROL: Control = Control::new();
static PRESSED: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler (once; later calls do nothing).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if PRESSED.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(super::exit::INTERRUPTED));
        }
        CONTROL.cancel();
    });
}

/// The process-wide control that Ctrl-C cancels; pass it to long-running engines.
pub fn control() -> &'static Control {
    &CONTROL
}

/// `Err(Interrupted)` once Ctrl-C was pressed.
pub fn check() -> Result<(), damier::control::Interrupted> {
    if CONTROL.cancelled() { Err(damier::control::Interrupted) } else { Ok(()) }
}
