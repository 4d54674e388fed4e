//! Exit codes and error reporting.
//!
//! - 0: success (for `check`-style commands: the answer is "yes");
//! - 1: the computation succeeded and its answer is "no" (no solution, invalid placement);
//! - 2: usage or input error (bad arguments, malformed files, sizes beyond the limits);
//! - 74: a fault of the system, not of the input: a write that failed (a full disk, a file
//!   too large, a read-only file system), or a resource the run needs that it could not get
//!   (`EX_IOERR` of `sysexits.h`);
//! - 77: (`damier __api` only, the web lab's child) the request is beyond the server's bounds;
//! - 130: interrupted by Ctrl-C.

use std::io::Write;
use std::process::ExitCode;

use damier::control::Interrupted;

/// Exit code for a "no" answer.
pub const NO: u8 = 1;
/// Exit code for usage and input errors.
pub const USAGE: u8 = 2;
/// Exit code for a fault of the system (a failed write, a missing resource).
pub const FAULT: u8 = 74;
/// Exit code after Ctrl-C (128 + SIGINT).
pub const INTERRUPTED: u8 = 130;

/// A fault of the system rather than of the input: reported with exit code [`FAULT`].
#[derive(Debug)]
pub struct Fault(String);

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Fault {}

/// The error for a fault of the system, with its message.
pub fn fault(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Fault(message.into()))
}

/// Whether `err` is a fault of the system: a [`Fault`], a failed write
/// ([`super::output::WriteError`], whatever its cause), or an I/O error that says the disk or
/// the file system failed (full, quota, file too large, read-only, a write of zero bytes).
pub fn is_fault(err: &anyhow::Error) -> bool {
    use std::io::ErrorKind as K;
    err.chain().any(|e| {
        let kind = e
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            .or_else(|| e.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind));
        e.is::<Fault>()
            || super::output::is_write_error(e)
            || matches!(
                kind,
                Some(
                    K::StorageFull
                        | K::QuotaExceeded
                        | K::FileTooLarge
                        | K::ReadOnlyFilesystem
                        | K::WriteZero
                )
            )
    })
}

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
    let _ = writeln!(std::io::stderr(), "damier: error: {}", message(err));
    ExitCode::from(if is_fault(err) { FAULT } else { USAGE })
}

/// The error and its causes on one line, each said once: a cause whose text its parent
/// already holds (a context that quotes its source) is left out.
pub fn message(err: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if text.is_empty() || parts.iter().any(|p| p.contains(&text)) {
            continue;
        }
        parts.push(text);
    }
    parts.join(": ")
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    let pipe = Some(std::io::ErrorKind::BrokenPipe);
    err.chain().any(|e| {
        // JSON is written through serde_json, which wraps the io error in its own.
        e.downcast_ref::<std::io::Error>().map(std::io::Error::kind) == pipe
            || e.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind) == pipe
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_cause_is_said_once() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let text = io.to_string();
        let err = anyhow::Error::new(io).context(format!("cannot read x.txt: {text}"));
        assert_eq!(super::message(&err), format!("cannot read x.txt: {text}"));
        let err = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::NotFound))
            .context("cannot read x.txt");
        assert_eq!(super::message(&err), format!("cannot read x.txt: {text}"));
    }
}
