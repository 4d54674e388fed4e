//! Every way `damier serve` stops leaves nothing behind: SIGTERM and SIGHUP, like Ctrl-C, end
//! the running jobs before the server exits, and so does a server that fails (a panic of its
//! main thread); a server killed by SIGKILL cannot clean up, but its jobs end with it (the
//! parent-death signal). Jobs make no folder: nothing is left in the temporary folder either.

#![cfg(target_os = "linux")]

use std::process::Command;
use std::time::{Duration, Instant};

use super::faults::{Server, raw, send_only, slow_job, wait_for_job};
use super::serve::children;

/// Sends `signal` (`TERM`, `HUP`, `KILL`...) to `pid` with the shell's own `kill`.
fn signal(pid: u32, signal: &str) {
    let status = Command::new("sh").args(["-c", &format!("kill -{signal} {pid}")]).status().unwrap();
    assert!(status.success(), "kill -{signal} {pid}");
}

/// Whether process `pid` is gone (a zombie counts as gone: it runs nothing).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()) == Some("Z"),
    }
}

/// Waits (up to `within`) until process `pid` is gone.
fn wait_until_gone(pid: u32, within: Duration, what: &str) {
    let start = Instant::now();
    while !gone(pid) {
        assert!(start.elapsed() < within, "{what} ({pid}) still runs after {within:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (up to 20 s) for `child` to exit: its status.
fn wait_for_exit(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "{what} did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A server with `--allow-heavy` running one job of minutes ([`slow_job`]), its client still
/// waiting: the server, the client's connection and the
/// job's process.
fn server_with_a_job() -> (Server, std::net::TcpStream, u32) {
    let server = Server::start(&["--allow-heavy"], &[]);
    let client = send_only(&server.addr, "/api/automaton/run", &slow_job());
    let job = wait_for_job(&server);
    let jobs = children(server.pid());
    assert_eq!(jobs, [job], "one job runs");
    (server, client, job)
}

/// `signal` to a server running a job: the server exits 0 (within 20 s), its job's process is
/// gone, and nothing was made in the temporary folder.
fn stops_cleanly_on(name: &str) {
    let (mut server, _client, job) = server_with_a_job();
    signal(server.pid(), name);
    let status = wait_for_exit(&mut server.child, &format!("SIG{name}: the server"));
    assert!(status.success(), "SIG{name}: {status:?}");
    server.made_nothing();
    wait_until_gone(job, Duration::from_secs(5), &format!("SIG{name}: the job"));
}

#[test]
fn sigterm_ends_the_jobs() {
    stops_cleanly_on("TERM");
}

#[test]
fn sigint_ends_the_jobs() {
    // Ctrl-C reaches the server alone here (`kill -INT`, not the terminal's process group).
    stops_cleanly_on("INT");
}

#[test]
fn sighup_ends_the_jobs() {
    stops_cleanly_on("HUP");
}

#[test]
fn a_server_that_fails_ends_its_jobs() {
    // A fatal error: the server's main thread panics while a job runs (a debug-build hook; 4 s
    // leaves the job time to start on a loaded machine).
    let server = Server::start(&["--allow-heavy"], &[("DAMIER_TEST_SERVER_PANIC_MS", "4000")]);
    let _client = send_only(&server.addr, "/api/automaton/run", &slow_job());
    wait_for_job(&server);
    let jobs = children(server.pid());
    assert_eq!(jobs.len(), 1, "one job runs: {jobs:?}");
    let Server { mut child, tmp, .. } = server;
    let status = wait_for_exit(&mut child, "the failing server");
    assert_eq!(status.code(), Some(101), "a panic: {status:?}");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "left: {left:?}");
    wait_until_gone(jobs[0], Duration::from_secs(5), "the job of a failed server");
}

#[test]
fn a_server_killed_by_sigkill_takes_its_jobs_with_it() {
    let (mut server, _client, job) = server_with_a_job();
    signal(server.pid(), "KILL");
    server.child.wait().unwrap();
    wait_until_gone(job, Duration::from_secs(5), "the job of a killed server");
    // Nobody was left to clean up, and nothing needed it.
    server.made_nothing();
}

#[test]
fn a_server_started_ignoring_sighup_keeps_serving() {
    // `nohup damier serve`: the ignored SIGHUP stays ignored.
    let mut nohup = Command::new("sh");
    nohup.args(["-c", "trap '' HUP && exec \"$0\" serve --port 0"]).arg(env!("CARGO_BIN_EXE_damier"));
    let server = Server::launch(nohup, tempfile::tempdir().unwrap());
    signal(server.pid(), "HUP");
    std::thread::sleep(Duration::from_millis(300));
    let (status, page) = raw(&server.addr, &server.addr, "GET / HTTP/1.1", b"");
    assert_eq!(status, 200, "SIGHUP stopped a server started ignoring it: {page}");
    server.stop();
}
