//! A soak of the web lab: a real `damier serve` on 127.0.0.1 under a mix of every route and
//! every served command, with a few hostile requests (a body declared of 10^12 bytes, a board
//! far past the bounds, a client gone mid-job, a streamed count closed early), for a given time.
//! Linux only (it reads `/proc`). Not part of CI.
//!
//! ```sh
//! cargo build --release -p damier-cli
//! cargo run --release -p damier-web --example soak -- target/release/damier [SECONDS] [CLIENTS]
//! ```
//!
//! SECONDS defaults to 600 (at most 86 400), CLIENTS (threads, each sending one request at a
//! time) to 4 (at most 32); each client also stops after 10^6 requests. The server runs with
//! `--jobs 2 --timeout 30`, a journal of its own (`queens count 10 --journal`) and a temporary
//! folder of its own (`TMPDIR`), so that leaked job folders can be counted. Every 250 ms the
//! server's resident memory and that of its children are read from `/proc`.
//!
//! Prints, per request kind and for all: count, statuses, p50 / p95 / max latency in
//! milliseconds; then the peak RSS of the server (`VmHWM`) and of its children (the largest
//! child, and all children at once), the most children at once; and what is left once the
//! load stops: child processes, job folders, the server's open file descriptors against the
//! start (the soak's own kept-alive connections count there, up to CLIENTS). Exits 1 if
//! anything leaked or a request got an unexpected status.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Most requests one client sends, whatever the duration.
const MAX_REQUESTS_PER_CLIENT: u64 = 1_000_000;

/// The server, stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One kind of request of the mix: a name, the path, the body and the statuses it may get.
#[derive(Clone)]
struct Kind {
    name: String,
    path: String,
    body: Value,
    ok: &'static [u16],
    /// Raw hostile requests instead of a plain POST.
    special: Special,
}

#[derive(Clone, Copy, PartialEq)]
enum Special {
    None,
    /// `Content-Length: 10^12`, two bytes sent.
    HugeDeclared,
    /// The request sent, the connection closed after 300 ms.
    GoneMidJob,
    /// `?stream`, closed after the first event.
    StreamClosed,
}

fn kind(name: &str, path: &str, body: Value, ok: &'static [u16]) -> Kind {
    Kind { name: name.into(), path: path.into(), body, ok, special: Special::None }
}

/// The mix: every route of the router and every served command, with valid bodies, plus the
/// hostile requests. `automaton` and `factor` are the ids of runs to step.
fn mix(automaton: &Value, factor: &Value) -> Vec<Kind> {
    let board = "10101\n01010\n11011\n00100\n10001";
    let ok: &[u16] = &[200, 503];
    let mut kinds = vec![
        kind("live automaton new", "/api/live/automaton", json!({"n": 12}), ok),
        kind(
            "live automaton step",
            &format!("/api/live/automaton/{automaton}/step"),
            json!({"updates": 200}),
            &[200, 409, 503],
        ),
        kind("live automaton models", "/api/live/automaton/models", json!({}), ok),
        kind("live factor new", "/api/live/factor", json!({"bits": 30}), ok),
        kind(
            "live factor step",
            &format!("/api/live/factor/{factor}/step"),
            json!({"updates": 200}),
            &[200, 409, 503],
        ),
        kind(
            "live lights solve 300x300",
            "/api/live/lights/solve",
            json!({"start": "random", "size": "300x300"}),
            ok,
        ),
        kind("live journal", "/api/live/journal", json!({}), ok),
        kind(
            "live walk plan 30x30",
            "/api/live/walk/plan",
            json!({"rows": 30, "cols": 30, "moves": "NNEE"}),
            ok,
        ),
        kind(
            "live lights 131072 (422)",
            "/api/live/lights/solve",
            json!({"start": "random", "size": "131072x131072"}),
            &[422],
        ),
    ];
    let commands: Vec<(&str, Value)> = vec![
        ("queens/count", json!({"n": 9})),
        ("queens/list", json!({"n": 6})),
        ("queens/first", json!({"n": 12})),
        ("queens/solve", json!({"n": 1000})),
        ("queens/max", json!({"n": 3})),
        ("queens/corners", json!({"n": 6})),
        ("queens/check", json!({"columns": [2, 4, 1, 3]})),
        ("queens/estimate", json!({"n": 12, "samples": 4})),
        ("automaton/run", json!({"n": 8, "max_steps": 1_000_000})),
        ("automaton/trap", json!({"figure": 1, "samples": 2, "max_steps": 100_000})),
        ("lights/solve", json!({"file": board, "min": true})),
        ("lights/count", json!({"size": "50x50"})),
        ("lights/kernel", json!({"size": "5x5"})),
        ("lights/winnable", json!({"file": board})),
        ("lights/table", json!({"to": 9})),
        ("lights/chase", json!({"file": board})),
        ("lights/chase-table", json!({"size": "4x3"})),
        ("walk/solve", json!({"rows": 4, "cols": 5})),
        ("walk/count", json!({"rows": 5, "cols": 5})),
        ("walk/table", json!({"to": 6})),
        ("walk/replay", json!({"rows": 2, "cols": 2, "moves": "NE"})),
    ];
    for (command, body) in commands {
        kinds.push(kind(command, &format!("/api/{command}"), body, ok));
    }
    let mut hostile = kind("Content-Length 10^12 (413)", "/api/queens/count", json!({}), &[413]);
    hostile.special = Special::HugeDeclared;
    kinds.push(hostile);
    let mut gone = kind("client gone mid-job", "/api/queens/count", json!({"n": 16}), &[0]);
    gone.special = Special::GoneMidJob;
    kinds.push(gone);
    let mut stream = kind("stream closed early", "/api/queens/count?stream", json!({"n": 15}), &[200]);
    stream.special = Special::StreamClosed;
    kinds.push(stream);
    kinds
}

/// What was measured for one kind.
#[derive(Default)]
struct Measured {
    millis: Vec<f64>,
    statuses: BTreeMap<u16, u64>,
    unexpected: u64,
}

/// Every process below `pid` (children, grandchildren, ...).
fn descendants(pid: u32) -> Vec<u32> {
    let mut all = Vec::new();
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else { continue };
        for t in tasks.flatten() {
            if let Ok(s) = std::fs::read_to_string(t.path().join("children")) {
                for c in s.split_whitespace().filter_map(|c| c.parse().ok()) {
                    all.push(c);
                    todo.push(c);
                }
            }
        }
    }
    all
}

/// A field of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`).
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

fn job_folders(tmp: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(tmp)
        .map(|d| {
            d.flatten().map(|e| e.path()).filter(|p| p.to_string_lossy().contains("damier-job-")).collect()
        })
        .unwrap_or_default()
}

/// Sends one request of `kind` to `addr`; the status (0 when the client hung up itself).
fn send(agent: &ureq::Agent, addr: &str, kind: &Kind) -> Result<u16, Box<dyn std::error::Error>> {
    match kind.special {
        Special::None => {
            let mut r = agent
                .post(format!("http://{addr}{}", kind.path))
                .header("content-type", "application/json")
                .send(kind.body.to_string())?;
            let _ = r.body_mut().read_to_vec()?;
            Ok(r.status().as_u16())
        }
        Special::HugeDeclared | Special::GoneMidJob => {
            let mut s = TcpStream::connect(addr)?;
            s.set_read_timeout(Some(Duration::from_secs(30)))?;
            let body = kind.body.to_string();
            let length = if kind.special == Special::HugeDeclared {
                "1000000000000".to_string()
            } else {
                body.len().to_string()
            };
            let head = format!(
                "POST {} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n",
                kind.path
            );
            s.write_all(head.as_bytes())?;
            let _ = s.write_all(if kind.special == Special::HugeDeclared { b"{\"" } else { body.as_bytes() });
            if kind.special == Special::GoneMidJob {
                std::thread::sleep(Duration::from_millis(300));
                return Ok(0);
            }
            let mut answer = Vec::new();
            let _ = s.read_to_end(&mut answer);
            let text = String::from_utf8_lossy(&answer);
            Ok(text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0))
        }
        Special::StreamClosed => {
            let r = agent
                .post(format!("http://{addr}{}", kind.path))
                .header("content-type", "application/json")
                .send(kind.body.to_string())?;
            let status = r.status().as_u16();
            let mut reader = r.into_body().into_reader();
            let mut buf = [0u8; 256];
            let _ = reader.read(&mut buf)?;
            Ok(status)
        }
    }
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: soak PATH/TO/damier [SECONDS] [CLIENTS]";
    let exe = args.next().ok_or(usage)?;
    let seconds: u64 = args.next().map_or(Ok(600), |s| s.parse())?.clamp(1, 86_400);
    let clients: usize = args.next().map_or(Ok(4), |s| s.parse())?.clamp(1, 32);
    let tmp = tempfile::tempdir()?;
    let journal = tmp.path().join("count.journal");
    let made = Command::new(&exe)
        .args(["queens", "count", "10", "--journal"])
        .arg(&journal)
        .stdout(Stdio::null())
        .status()?;
    if !made.success() {
        return Err("cannot write the journal".into());
    }
    let jobs_tmp = tmp.path().join("tmp");
    std::fs::create_dir(&jobs_tmp)?;
    let mut child = Command::new(&exe)
        .args(["serve", "--port", "0", "--host", "127.0.0.1", "--jobs", "2", "--timeout", "30", "--journal"])
        .arg(&journal)
        .env("TMPDIR", &jobs_tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().ok_or("no stdout")?).read_line(&mut line)?;
    let server = Server(child);
    let pid = server.0.id();
    let addr = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .ok_or("the server printed no loopback URL")?
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(90)))
        .build()
        .into();
    let post = |path: &str, body: Value| -> Result<Value, Box<dyn std::error::Error>> {
        let mut r = agent
            .post(format!("http://{addr}{path}"))
            .header("content-type", "application/json")
            .send(body.to_string())?;
        Ok(serde_json::from_str(&r.body_mut().read_to_string()?)?)
    };
    let automaton = post("/api/live/automaton", json!({"n": 16, "seed": 1}))?["id"].clone();
    let factor = post("/api/live/factor", json!({"bits": 40, "seed": 1}))?["id"].clone();
    let kinds = mix(&automaton, &factor);
    // Every route of the router is in the mix.
    for route in damier_web::route_paths() {
        let prefix = route.split('{').next().unwrap_or(route);
        if !kinds.iter().any(|k| k.path.starts_with(prefix)) {
            return Err(format!("the mix has no request for {route}").into());
        }
    }
    let fds_at_start = open_fds(pid);
    println!(
        "soak: {seconds} s, {clients} clients, {} kinds of request, against {addr} ({exe}), server pid {pid}",
        kinds.len()
    );

    let stop = Arc::new(AtomicBool::new(false));
    let peaks = Arc::new([AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)]);
    let sampler = {
        let (stop, peaks) = (stop.clone(), peaks.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let below = descendants(pid);
                let rss: Vec<u64> = below.iter().filter_map(|&c| status_kib(c, "VmRSS:")).collect();
                peaks[0].fetch_max(status_kib(pid, "VmRSS:").unwrap_or(0), Ordering::Relaxed);
                peaks[1].fetch_max(rss.iter().copied().max().unwrap_or(0), Ordering::Relaxed);
                peaks[2].fetch_max(rss.iter().sum(), Ordering::Relaxed);
                peaks[3].fetch_max(below.len() as u64, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(250));
            }
        })
    };
    let measured: Arc<Mutex<BTreeMap<String, Measured>>> = Arc::default();
    let errors = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let workers: Vec<_> = (0..clients)
        .map(|c| {
            let (kinds, measured, errors, addr, agent) =
                (kinds.clone(), measured.clone(), errors.clone(), addr.clone(), agent.clone());
            std::thread::spawn(move || {
                let mut sent = 0u64;
                while Instant::now() < deadline && sent < MAX_REQUESTS_PER_CLIENT {
                    // Each client walks the mix from its own offset, so every kind runs beside
                    // every other one.
                    let kind = &kinds[(sent as usize * 7 + c * 5) % kinds.len()];
                    sent += 1;
                    let t = Instant::now();
                    let result = send(&agent, &addr, kind);
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    let mut m = measured.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    let entry = m.entry(kind.name.clone()).or_default();
                    match result {
                        Ok(status) => {
                            if kind.special != Special::GoneMidJob {
                                entry.millis.push(ms);
                            }
                            *entry.statuses.entry(status).or_default() += 1;
                            if !kind.ok.contains(&status) {
                                entry.unexpected += 1;
                            }
                        }
                        Err(e) => {
                            entry.unexpected += 1;
                            if errors.fetch_add(1, Ordering::Relaxed) < 10 {
                                eprintln!("{}: {e}", kind.name);
                            }
                        }
                    }
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    // The load is over: whatever is still running or lying around now is a leak.
    let settle = Instant::now();
    while (!descendants(pid).is_empty() || !job_folders(&jobs_tmp).is_empty())
        && settle.elapsed() < Duration::from_secs(30)
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::Relaxed);
    let _ = sampler.join();
    let left_children = descendants(pid);
    let left_folders = job_folders(&jobs_tmp);
    let fds_at_end = open_fds(pid);
    let server_hwm = status_kib(pid, "VmHWM:").unwrap_or(0);

    let measured = measured.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    println!("{:<30} {:>7} {:>9} {:>9} {:>9}  statuses", "request", "count", "p50 ms", "p95 ms", "max ms");
    let mut all = Vec::new();
    let mut unexpected = 0;
    for (name, m) in measured.iter() {
        let mut t = m.millis.clone();
        t.sort_by(f64::total_cmp);
        all.extend_from_slice(&t);
        unexpected += m.unexpected;
        let count: u64 = m.statuses.values().sum();
        println!(
            "{name:<30} {count:>7} {:>9.1} {:>9.1} {:>9.1}  {:?}{}",
            percentile(&t, 0.5),
            percentile(&t, 0.95),
            t.last().copied().unwrap_or(f64::NAN),
            m.statuses,
            if m.unexpected > 0 { format!("  UNEXPECTED {}", m.unexpected) } else { String::new() }
        );
    }
    all.sort_by(f64::total_cmp);
    println!(
        "{:<30} {:>7} {:>9.1} {:>9.1} {:>9.1}",
        "all",
        all.len(),
        percentile(&all, 0.5),
        percentile(&all, 0.95),
        all.last().copied().unwrap_or(f64::NAN)
    );
    let mib = |kib: u64| kib as f64 / 1024.0;
    println!(
        "peak RSS: server {:.1} MiB (VmHWM; {:.1} MiB sampled), largest child {:.1} MiB, children together {:.1} MiB; \
         at most {} children at once",
        mib(server_hwm),
        mib(peaks[0].load(Ordering::Relaxed)),
        mib(peaks[1].load(Ordering::Relaxed)),
        mib(peaks[2].load(Ordering::Relaxed)),
        peaks[3].load(Ordering::Relaxed)
    );
    println!(
        "left after the load: {} child processes, {} job folders, open descriptors {} at start and {} at the end",
        left_children.len(),
        left_folders.len(),
        fds_at_start,
        fds_at_end
    );
    println!("unexpected answers or errors: {unexpected}");
    let leaked = !left_children.is_empty() || !left_folders.is_empty() || fds_at_end > fds_at_start + clients;
    drop(server);
    if leaked || unexpected > 0 {
        std::process::exit(1);
    }
    Ok(())
}
