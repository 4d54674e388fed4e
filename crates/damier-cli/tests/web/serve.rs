//! `damier serve` as a process: the printed URL, the warning for a non-loopback address,
//! Ctrl-C, and refused flags.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_damier");

/// `GET path` on `addr` with a plain HTTP/1.0 request; the whole answer.
fn get(addr: &str, path: &str) -> String {
    get_as(addr, addr, path)
}

/// `GET path` on `addr`, naming `host` in the `Host` header.
fn get_as(addr: &str, host: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serves_prints_the_url_and_stops_on_ctrl_c() {
    let mut child = Command::new(EXE)
        .args(["serve", "--port", "0", "--host", "0.0.0.0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://127.0.0.1:")).expect("a loopback URL");
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let page = get(&addr, "/");
    assert!(page.starts_with("HTTP/1.0 200") && page.contains("damier lab"), "{page}");
    // The listening address is the only Host served (a DNS-rebinding page names its own).
    let port = addr.rsplit(':').next().unwrap();
    let rebound = get_as(&addr, &format!("rebind.example:{port}"), "/");
    assert!(rebound.starts_with("HTTP/1.0 421"), "{rebound}");
    assert!(get_as(&addr, &format!("localhost:{port}"), "/").starts_with("HTTP/1.0 200"));
    // Ctrl-C (SIGINT) stops the server: exit 0, promptly.
    // The shell's own `kill`: no procps needed.
    let status = Command::new("sh").args(["-c", &format!("kill -INT {}", child.id())]).status().unwrap();
    assert!(status.success());
    let start = Instant::now();
    let code = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the server did not stop");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(code.success(), "{code:?}");
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(err.contains("warning") && err.contains("0.0.0.0") && err.contains("anyone"), "{err}");
}

#[test]
fn bad_flags_are_usage_errors() {
    for args in
        [&["serve", "--port", "70000"][..], &["serve", "--host", "nowhere"], &["serve", "--jobs", "0"]]
    {
        let out = Command::new(EXE).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // A port already taken: one line, exit 2.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = Command::new(EXE).args(["serve", "--port", &port]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen") && err.lines().count() == 1, "{err}");
}
