//! Exit codes and error reporting.
//!
//! - 0: success (for `check`-style commands: the answer is "yes");
//! - 1: the computation succeeded and its answer is "no" (no solution, invalid placement);
//! - 2: usage or input error (bad arguments, malformed files, sizes beyond the limits);
//! - 130: interrupted by Ctrl-C.

use std::io::Write;
use std::process::ExitCode;

use damier::control::Interrupted;

/// Exit code for a "no" answer.
pub const NO: u8 = 1;
/// Exit code for usage and input errors.
pub const USAGE: u8 = 2;
/// Exit code after Ctrl-C (128 + SIGINT).
pub const INTERRUPTED: u8 = 130;

/// Prints `err` as one line on stderr and picks the exit code.
pub fn report(err: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(err) {
        // The reader went away (`damier ... | head`): not an error worth a message.
        return ExitCode::SUCCESS;
    }
    if err.chain().any(|e| e.downcast_ref::<Interrupted>().is_some()) {
        let _ = writeln!(std::io::stderr(), "damier: interrupted");
        return ExitCode::from(INTERRUPTED);
    }
    let _ = writeln!(std::io::stderr(), "damier: error: {err:#}");
    ExitCode::from(USAGE)
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    let pipe = Some(std::io::ErrorKind::BrokenPipe);
    err.chain().any(|e| {
        // JSON is written through serde_json, which wraps the io error in its own.
        e.downcast_ref::<std::io::Error>().map(std::io::Error::kind) == pipe
            || e.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind) == pipe
    })
}
