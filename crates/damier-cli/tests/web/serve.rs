//! `damier serve` as a process: the printed URL, the warning for a non-loopback address,
//! Ctrl-C, and refused flags.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_damier");

/// An HTTP client that returns every status as an answer (the tests check them).
fn client() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// `GET path` on `addr`: the status and the body.
fn get(addr: &str, path: &str) -> (u16, String) {
    get_as(addr, addr, path)
}

/// `GET path` on `addr`, naming `host` in the `Host` header.
fn get_as(addr: &str, host: &str, path: &str) -> (u16, String) {
    let mut r = client().get(format!("http://{addr}{path}")).header("host", host).call().unwrap();
    (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
}

/// `POST path` on `addr` with `body` as JSON: the status and the answer, still to be read.
fn post(addr: &str, path: &str, body: &[u8]) -> ureq::http::Response<ureq::Body> {
    client()
        .post(format!("http://{addr}{path}"))
        .header("content-type", "application/json")
        .send(body)
        .unwrap_or_else(|e| panic!("POST {path}: no answer: {e}"))
}

#[test]
fn serves_prints_the_url_and_stops_on_ctrl_c() {
    let (mut child, addr) = spawn_server(&["--host", "0.0.0.0"], Stdio::piped());
    let (status, page) = get(&addr, "/");
    assert!(status == 200 && page.contains("damier lab"), "{status} {page}");
    // The listening address is the only Host served (a DNS-rebinding page names its own).
    let port = addr.rsplit(':').next().unwrap();
    let rebound = get_as(&addr, &format!("rebind.example:{port}"), "/");
    assert_eq!(rebound.0, 421, "{rebound:?}");
    assert_eq!(get_as(&addr, &format!("localhost:{port}"), "/").0, 200);
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
    // The warning says how to let people use a name.
    assert!(err.contains("--allow-host NAME"), "{err}");
}

#[test]
fn allowed_host_names_are_answered_and_no_other() {
    let args = ["--host", "0.0.0.0", "--allow-host", "lab.school", "--allow-host", "Salle-12.local."];
    let (mut child, addr) = spawn_server(&args, Stdio::piped());
    let port = addr.rsplit(':').next().unwrap().to_string();
    for host in
        [format!("lab.school:{port}"), format!("LAB.school.:{port}"), format!("salle-12.local:{port}")]
    {
        let (status, page) = get_as(&addr, &host, "/lights");
        assert!(status == 200 && page.contains("Lights Out"), "{host}: {status}");
    }
    // The API from a page opened under that name: its origin is the server's own.
    let mut answer = client()
        .post(format!("http://{addr}/api/queens/count"))
        .header("host", format!("lab.school:{port}"))
        .header("origin", format!("http://lab.school:{port}"))
        .header("content-type", "application/json")
        .send(br#"{"n": 6}"#)
        .unwrap();
    let body = answer.body_mut().read_to_string().unwrap();
    assert!(answer.status() == 200 && body.contains("\"total\": 4"), "{body}");
    // Any other name is still refused (DNS rebinding), and so is the right name on another port.
    for host in
        [format!("other.school:{port}"), format!("lab.school.evil.example:{port}"), "lab.school:1".into()]
    {
        assert_eq!(get_as(&addr, &host, "/").0, 421, "{host}");
    }
    let mut stderr = child.stderr.take().unwrap();
    stop_server(child);
    let mut err = String::new();
    stderr.read_to_string(&mut err).unwrap();
    assert!(err.contains("http://lab.school:") && err.contains("421"), "{err}");
}

#[test]
fn bad_flags_are_usage_errors() {
    for args in [
        &["serve", "--port", "70000"][..],
        &["serve", "--host", "nowhere"],
        &["serve", "--jobs", "0"],
        &["serve", "--allow-host", "lab.school:8080"],
        &["serve", "--allow-host", "*.school"],
        &["serve", "--allow-host", "http://lab.school"],
        &["serve", "--allow-host", ""],
    ] {
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
    spawn_server(args, Stdio::null())
}

/// Starts `damier serve --port 0 ARGS` with its stderr to `stderr`; the child and the loopback
/// address it prints.
fn spawn_server(args: &[&str], stderr: Stdio) -> (std::process::Child, String) {
    let mut child = Command::new(EXE)
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://127.0.0.1:")).expect("a loopback URL");
    (child, url.trim_start_matches("http://").trim_end_matches('/').to_string())
}

/// The processes whose parent is `pid` (Linux: `/proc/PID/task/*/children`).
pub fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|s| s.split_whitespace().filter_map(|p| p.parse().ok()).collect::<Vec<u32>>())
        .collect()
}

/// Waits (up to 20 s) until `pid` has no child process left.
pub fn wait_for_no_children(pid: u32) {
    let start = Instant::now();
    while !children(pid).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "children left: {:?}", children(pid));
        std::thread::sleep(Duration::from_millis(50));
    }
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
        let answer = post(&addr, "/api/queens/count?stream", br#"{"n": 20}"#);
        assert_eq!(answer.status(), 200);
        let mut stream = answer.into_body().into_reader();
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&seen).contains("event: progress") {
            let k = stream.read(&mut buf).unwrap();
            assert!(k > 0, "the stream ended: {}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&buf[..k]);
        }
        assert_eq!(children(pid).len(), 1, "the job runs as a child");
        drop(stream);
        wait_for_no_children(pid);
    }
    assert_eq!(get(&addr, "/").0, 200, "still answering");
    stop_server(server);
}

/// A malformed body: bytes that are not JSON, JSON that is cut short or not an object, or an
/// object whose fields are wrong in name, type or range.
pub fn malformed_body() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
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
    let statuses = std::cell::RefCell::new(std::collections::BTreeMap::<u16, u32>::new());
    let answered = std::cell::Cell::new(0);
    let config = ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() };
    let command = prop::sample::select(super::served());
    proptest!(config, |((group, name) in command, body in malformed_body())| {
        let mut answer = post(&addr, &format!("/api/{group}/{name}"), &body);
        let status = answer.status().as_u16();
        let out = answer.body_mut().read_to_string().unwrap();
        // The client's fault (4xx) or an answer; only the time limit (503) is the server's.
        prop_assert!(
            status < 500 || status == 503,
            "{group} {name} {:?}: {status} {out}", String::from_utf8_lossy(&body)
        );
        *statuses.borrow_mut().entry(status).or_default() += 1;
        answered.set(answered.get() + 1);
    });
    assert_eq!(answered.get(), 1000);
    assert_eq!(get(&addr, "/").0, 200, "still answering");
    let mut ok = post(&addr, "/api/queens/count", br#"{"n": 8}"#);
    let out = ok.body_mut().read_to_string().unwrap();
    assert!(ok.status() == 200 && out.contains("\"total\": 92"), "{out}");
    wait_for_no_children(pid);
    stop_server(server);
    println!("1000 malformed bodies, statuses: {:?}", statuses.borrow());
}
