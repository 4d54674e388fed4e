//! Drives a terminal program as a person would: a detached tmux session, keys sent with
//! `send-keys`, the screen read with `capture-pane`.

use std::process::Command;
use std::time::{Duration, Instant};

/// A detached tmux session running one command; killed when dropped.
pub struct Tmux {
    name: String,
}

impl Tmux {
    /// Starts `damier ARGS` in a `cols x rows` session; the test fails, naming what is missing,
    /// when tmux is not installed (the tests that use it are ignored by `cargo test`, each
    /// `#[ignore = "needs tmux: ..."]`, and run by `.ci/run`, which installs it).
    pub fn start(args: &[&str], cols: u16, rows: u16) -> Tmux {
        if !Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success()) {
            super::needs::missing(
                &format!("damier {} under tmux", args.join(" ")),
                "tmux (apt-get install tmux)",
            );
        }
        let bin = assert_cmd::cargo::cargo_bin("damier");
        let name = format!("damier-test-{}-{}", std::process::id(), args.join("-").replace(['.', ':'], "_"));
        let mut cmd = vec![bin.display().to_string()];
        cmd.extend(args.iter().map(|a| a.to_string()));
        let status = Command::new("tmux")
            .args(["new-session", "-d", "-s", &name, "-x", &cols.to_string(), "-y", &rows.to_string()])
            .arg(cmd.join(" "))
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session failed");
        Tmux { name }
    }

    /// Sends keys, in tmux `send-keys` syntax (`"Space"`, `"Up"`, `"q"`, …).
    pub fn send(&self, keys: &[&str]) {
        let status = Command::new("tmux").args(["send-keys", "-t", &self.name]).args(keys).status().unwrap();
        assert!(status.success(), "tmux send-keys failed");
    }

    /// The visible screen, as text.
    pub fn screen(&self) -> String {
        let out = Command::new("tmux").args(["capture-pane", "-p", "-t", &self.name]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits until the screen contains `text` (or panics after 10 s with the screen).
    pub fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "timed out waiting for {text:?}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The pane's process group: the program, and the shell that may have started it.
    pub fn group(&self) -> u32 {
        let out = Command::new("tmux")
            .args(["display-message", "-p", "-t", &self.name, "#{pane_pid}"])
            .output()
            .unwrap();
        let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
        pid.parse().unwrap_or_else(|_| panic!("no pane pid: {pid:?}"))
    }

    /// Sends `signal` (`"INT"`, `"TERM"`) to the pane's process [`group`](Tmux::group) from
    /// outside, as `kill` would.
    pub fn signal(&self, signal: &str) {
        let group = self.group();
        let status = Command::new("kill").args(["-s", signal, "--", &format!("-{group}")]).status().unwrap();
        assert!(status.success(), "kill -s {signal} -{group} failed");
    }

    /// Closes the session, and with it the program's terminal (what closing a terminal window
    /// does).
    pub fn close(&self) {
        let _ = Command::new("tmux").args(["kill-session", "-t", &self.name]).output();
    }

    /// True while the session (the program) is still running.
    pub fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["has-session", "-t", &self.name])
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// Waits for the program to exit (or panics after 10 s).
    pub fn wait_exit(&self) {
        let start = Instant::now();
        while self.alive() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "program did not exit; screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Waits until no process of `group` is left (or panics after 10 s): the program has ended,
/// not only its tmux session.
pub fn wait_group_gone(group: u32) {
    let start = Instant::now();
    while Command::new("kill")
        .args(["-0", "--", &format!("-{group}")])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        assert!(start.elapsed() < Duration::from_secs(10), "process group {group} still runs");
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["kill-session", "-t", &self.name]).output();
    }
}
