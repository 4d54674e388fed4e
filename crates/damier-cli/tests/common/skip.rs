//! A test that cannot run on this machine (no tmux, no mpirun, no browser, no GPU adapter)
//! says so where `cargo test` shows it, and fails under CI, where `.ci/run` installs the tools.

use std::io::Write;

/// Skips the test `test` for `reason` ("tmux is not installed"): a line "test TEST ... skipped,
/// because REASON" written past the test harness's output capture, so it shows beside the
/// summary; a failure when the environment variable `CI` is set.
pub fn skip(test: &str, reason: &str) {
    assert!(std::env::var_os("CI").is_none(), "{test}: {reason}, and CI must run it (.ci/run installs it)");
    // `eprintln!` would be captured (shown only when the test fails); a write straight
    // to the stderr handle is not.
    let _ = writeln!(std::io::stderr(), "test {test} ... skipped, because {reason}");
}
