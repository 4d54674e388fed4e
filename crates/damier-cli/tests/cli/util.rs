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
    let out = damier().args(args).output().expect("runs");
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
