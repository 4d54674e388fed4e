//! Helpers for driving the executable.

use assert_cmd::Command;

/// The `damier` executable with stdin closed.
pub fn damier() -> Command {
    let mut c = Command::cargo_bin("damier").expect("binary builds");
    c.write_stdin("");
    c
}

/// Runs `damier ARGS --json`-style commands and parses stdout as JSON, asserting exit 0.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = damier().args(args).output().expect("runs");
    assert!(out.status.success(), "damier {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

/// Asserts that `damier ARGS` exits with `code` and prints a one-line error on stderr.
pub fn fails_with(args: &[&str], code: i32) -> String {
    fails_with_hooks(args, &[], code)
}

/// `damier` with the test hooks `hooks` set (`DAMIER_TEST_*` variables, read by debug builds
/// only: see the CLI's `util::test_hooks`).
pub fn hooked(hooks: &[(&str, &str)]) -> Command {
    let mut c = damier();
    c.envs(hooks.iter().copied());
    c
}

/// [`fails_with`] with the test hooks `hooks` set.
pub fn fails_with_hooks(args: &[&str], hooks: &[(&str, &str)], code: i32) -> String {
    let out = hooked(hooks).args(args).output().expect("runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "damier {args:?}: stderr {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "damier {args:?} panicked: {err}");
    err
}

/// Runs `damier ARGS` with stdout a pipe whose reader is already closed (as in `damier ... |
/// head` once head has exited) and asserts a quiet exit 0: no panic, no message. (A child
/// spawned at the same moment by another test may briefly hold the reader too, so a short
/// output can still get through: the commands tested succeed either way, and the long ones
/// overflow the pipe's buffer.)
pub fn quiet_on_closed_pipe(args: &[&str]) {
    use std::process::{Command, Stdio};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("damier"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // Closing the only reader makes every write of the child fail with a broken pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "damier {args:?} panicked: {err}");
    assert_eq!(out.status.code(), Some(0), "damier {args:?}: stderr {err}");
    assert!(err.is_empty(), "damier {args:?} printed on stderr: {err}");
}

/// An `mpirun` job, ended (SIGTERM to `mpirun`, which ends its processes) if the test stops
/// before the job does: a held job (`DAMIER_TEST_HOLD_TASK`) would otherwise wait on.
#[cfg(all(feature = "mpi", debug_assertions))]
pub struct MpiJob(pub std::process::Child);

#[cfg(all(feature = "mpi", debug_assertions))]
impl Drop for MpiJob {
    fn drop(&mut self) {
        if !matches!(self.0.try_wait(), Ok(None)) {
            return;
        }
        let _ = std::process::Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        let start = std::time::Instant::now();
        while matches!(self.0.try_wait(), Ok(None)) && start.elapsed() < std::time::Duration::from_secs(20) {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
