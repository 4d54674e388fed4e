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

/// Starts `damier serve --port 0 ARGS`; the child and the address it listens on.
fn start_server(args: &[&str]) -> (std::process::Child, String) {
    let mut child = Command::new(EXE)
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://127.0.0.1:")).expect("a loopback URL");
    (child, url.trim_start_matches("http://").trim_end_matches('/').to_string())
}

/// The processes whose parent is `pid` (Linux: `/proc/PID/task/*/children`).
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|s| s.split_whitespace().filter_map(|p| p.parse().ok()).collect::<Vec<u32>>())
        .collect()
}

/// Waits (up to 20 s) until `pid` has no child process left.
fn wait_for_no_children(pid: u32) {
    let start = Instant::now();
    while !children(pid).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "children left: {:?}", children(pid));
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends `POST path` with `body` as JSON over a fresh connection (HTTP/1.0); the stream.
fn send_post(addr: &str, path: &str, body: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "POST {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    s
}

/// Stops the server with Ctrl-C and waits for it.
fn stop_server(mut child: std::process::Child) {
    let status = Command::new("sh").args(["-c", &format!("kill -INT {}", child.id())]).status().unwrap();
    assert!(status.success());
    assert!(child.wait().unwrap().success());
}

#[cfg(target_os = "linux")]
#[test]
fn a_client_gone_mid_stream_leaves_no_job_behind() {
    // (--allow-heavy: a count of n = 20 is beyond the default bounds.)
    let (server, addr) = start_server(&["--allow-heavy"]);
    let pid = server.id();
    for _ in 0..3 {
        // A count of minutes, streamed: read until its first progress event, then hang up.
        let mut s = send_post(&addr, "/api/queens/count?stream", br#"{"n": 20}"#);
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&seen).contains("event: progress") {
            let k = s.read(&mut buf).unwrap();
            assert!(k > 0, "the stream ended: {}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&buf[..k]);
        }
        assert!(seen.starts_with(b"HTTP/1.0 200"), "{}", String::from_utf8_lossy(&seen));
        assert_eq!(children(pid).len(), 1, "the job runs as a child");
        drop(s);
        wait_for_no_children(pid);
    }
    assert!(get(&addr, "/").starts_with("HTTP/1.0 200"), "still answering");
    stop_server(server);
}

/// A malformed body: bytes that are not JSON, JSON that is cut short or not an object, or an
/// object whose fields are wrong in name, type or range.
fn malformed_body() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let value = prop_oneof![
        Just("null".to_string()),
        any::<bool>().prop_map(|b| b.to_string()),
        any::<i64>().prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| format!("{v:e}")),
        Just("1e999".to_string()),
        Just("18446744073709551616".to_string()),
        "[a-z0-9 ./x-]{0,12}".prop_map(|s| format!("{s:?}")),
        Just("[1, 2, 3]".to_string()),
        Just("{\"a\": {}}".to_string()),
    ];
    let key = prop_oneof![
        Just("n".to_string()),
        Just("seed".to_string()),
        Just("limit".to_string()),
        Just("file".to_string()),
        Just("out".to_string()),
        Just("max_steps".to_string()),
        "[a-z_-]{1,10}",
    ];
    let object = prop::collection::vec((key, value.clone()), 0..4).prop_map(|fields| {
        let inner: Vec<String> = fields.iter().map(|(k, v)| format!("{k:?}: {v}")).collect();
        format!("{{{}}}", inner.join(", ")).into_bytes()
    });
    prop_oneof![
        3 => prop::collection::vec(any::<u8>(), 1..300),
        1 => value.prop_map(String::into_bytes),
        1 => (object.clone(), any::<prop::sample::Index>()).prop_map(|(b, i)| b[..i.index(b.len())].to_vec()),
        1 => object,
    ]
}

#[cfg(target_os = "linux")]
#[test]
fn a_thousand_malformed_bodies_leave_the_server_answering_and_no_child() {
    use proptest::prelude::*;
    let (server, addr) = start_server(&["--timeout", "10"]);
    let pid = server.id();
    // (The test body is a `Fn`: the tallies live in cells.)
    let statuses = std::cell::RefCell::new(std::collections::BTreeMap::<String, u32>::new());
    let answered = std::cell::Cell::new(0);
    let config = ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() };
    let command = prop::sample::select(damier_web::fields::EXPOSED.to_vec());
    proptest!(config, |((group, name) in command, body in malformed_body())| {
        let mut s = send_post(&addr, &format!("/api/{group}/{name}"), &body);
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        let head = String::from_utf8_lossy(&out[..out.len().min(12)]).to_string();
        prop_assert!(head.starts_with("HTTP/1.0 "), "{group} {name} {:?}: no answer", String::from_utf8_lossy(&body));
        let status = head[9..].trim().to_string();
        // The client's fault (4xx) or an answer; only the time limit (503) is the server's.
        prop_assert!(
            !status.starts_with('5') || status == "503",
            "{group} {name} {:?}: {}", String::from_utf8_lossy(&body), String::from_utf8_lossy(&out)
        );
        *statuses.borrow_mut().entry(status).or_default() += 1;
        answered.set(answered.get() + 1);
    });
    assert_eq!(answered.get(), 1000);
    assert!(get(&addr, "/").starts_with("HTTP/1.0 200"), "still answering");
    let ok = send_post(&addr, "/api/queens/count", br#"{"n": 8}"#);
    let mut out = String::new();
    { ok }.read_to_string(&mut out).unwrap();
    assert!(out.starts_with("HTTP/1.0 200") && out.contains("\"total\": 92"), "{out}");
    wait_for_no_children(pid);
    stop_server(server);
    println!("1000 malformed bodies, statuses: {:?}", statuses.borrow());
}
