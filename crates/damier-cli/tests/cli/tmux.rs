//! Drives a terminal program as a person would: a detached tmux session, keys sent with
//! `send-keys`, the screen read with `capture-pane`.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Sessions started by this test process, numbering their tmux servers.
static STARTED: AtomicUsize = AtomicUsize::new(0);

/// A detached tmux session running one command, on a tmux server of its own; killed when
/// dropped.
///
/// Each session has its own server (`tmux -L SOCKET`): on the one default server, a test whose
/// session ended as another test's `new-session` connected took the server down under it
/// ("server exited unexpectedly": a CI run of 2026-12-06).
pub struct Tmux {
    name: String,
    socket: String,
    /// The server's socket file, removed when dropped (tmux leaves it behind).
    socket_path: Option<std::path::PathBuf>,
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
        // Short: the socket's path must fit a Unix socket address (108 bytes).
        let socket =
            format!("damier-test-{}-{}", std::process::id(), STARTED.fetch_add(1, Ordering::Relaxed));
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                &cols.to_string(),
                "-y",
                &rows.to_string(),
            ])
            .arg(cmd.join(" "))
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session failed");
        let mut tmux = Tmux { name, socket, socket_path: None };
        let out = tmux.tmux().args(["display-message", "-p", "#{socket_path}"]).output();
        tmux.socket_path = out
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().into())
            .filter(|p: &std::path::PathBuf| p.is_absolute());
        tmux
    }

    /// `tmux` on this session's server.
    fn tmux(&self) -> Command {
        let mut tmux = Command::new("tmux");
        tmux.args(["-L", &self.socket]);
        tmux
    }

    /// Sends keys, in tmux `send-keys` syntax (`"Space"`, `"Up"`, `"q"`, …).
    pub fn send(&self, keys: &[&str]) {
        let status = self.tmux().args(["send-keys", "-t", &self.name]).args(keys).status().unwrap();
        assert!(status.success(), "tmux send-keys failed");
    }

    /// The visible screen, as text.
    pub fn screen(&self) -> String {
        let out = self.tmux().args(["capture-pane", "-p", "-t", &self.name]).output().unwrap();
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
        let out =
            self.tmux().args(["display-message", "-p", "-t", &self.name, "#{pane_pid}"]).output().unwrap();
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
        let _ = self.tmux().args(["kill-session", "-t", &self.name]).output();
    }

    /// True while the session (the program) is still running.
    pub fn alive(&self) -> bool {
        self.tmux().args(["has-session", "-t", &self.name]).output().is_ok_and(|o| o.status.success())
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
        let _ = self.tmux().args(["kill-session", "-t", &self.name]).output();
        let _ = self.tmux().arg("kill-server").output();
        if let Some(path) = &self.socket_path {
            let _ = std::fs::remove_file(path);
        }
    }
}
