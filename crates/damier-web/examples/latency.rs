//! Latency of the lab's interactive actions, measured against a real `damier serve` on
//! 127.0.0.1 with a bounded loop of plain HTTP requests (one client, one request at a time):
//! a walk move, an automaton step, a factoring step, a placement check and a Lights Out hint.
//!
//! ```sh
//! cargo build --release -p damier-cli
//! cargo run --release -p damier-web --example latency -- target/release/damier [REQUESTS]
//! ```
//!
//! Each action is sent REQUESTS times (default 300, at most 10 000) after 10 warm-up requests,
//! and stops early after 60 s; the server is stopped at the end. Prints the 50th, 95th and 99th
//! percentiles and the largest time per action, in milliseconds.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The server, stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let exe = args.next().ok_or("usage: latency PATH/TO/damier [REQUESTS]")?;
    let requests: usize = args.next().map_or(Ok(300), |s| s.parse())?.clamp(1, 10_000);
    let mut child = Command::new(&exe).args(["serve", "--port", "0"]).stdout(Stdio::piped()).spawn()?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().ok_or("no stdout")?).read_line(&mut line)?;
    let _server = Server(child);
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or("the server printed no URL")?
        .trim_end_matches('/')
        .to_string();
    let agent: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(Duration::from_secs(30))).build().into();
    let post = |path: &str, body: &Value| -> Result<Value, Box<dyn std::error::Error>> {
        let mut r = agent
            .post(format!("{base}{path}"))
            .header("content-type", "application/json")
            .send(body.to_string())?;
        Ok(serde_json::from_str(&r.body_mut().read_to_string()?)?)
    };
    let automaton = post("/api/live/automaton", &json!({"n": 16, "seed": 1}))?["id"].clone();
    let factor = post("/api/live/factor", &json!({"bits": 40, "seed": 1}))?["id"].clone();
    let actions: Vec<(&str, String, Value)> = vec![
        (
            "walk move (live/walk/plan, 10 x 10)",
            "/api/live/walk/plan".into(),
            json!({"rows": 10, "cols": 10, "moves": "NNEENN"}),
        ),
        (
            "automaton step (1 update, n = 16)",
            format!("/api/live/automaton/{automaton}/step"),
            json!({"updates": 1}),
        ),
        (
            "factoring step (1 update, 40 bits)",
            format!("/api/live/factor/{factor}/step"),
            json!({"updates": 1}),
        ),
        (
            "placement check (queens/check, n = 8)",
            "/api/queens/check".into(),
            json!({"columns": [1, 5, 8, 6, 3, 7, 2, 4]}),
        ),
        (
            "Lights Out hint (lights/solve --min, 5 x 5)",
            "/api/lights/solve".into(),
            json!({"file": "10101\n01010\n11011\n00100\n10001", "min": true}),
        ),
    ];
    println!("{requests} requests per action, one at a time, against {base} ({exe})");
    println!("{:<46} {:>8} {:>8} {:>8} {:>8}", "action", "p50 ms", "p95 ms", "p99 ms", "max ms");
    for (name, path, body) in &actions {
        for _ in 0..10 {
            post(path, body)?;
        }
        let start = Instant::now();
        let mut times = Vec::with_capacity(requests);
        while times.len() < requests && start.elapsed() < Duration::from_secs(60) {
            let t = Instant::now();
            post(path, body)?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
        println!(
            "{name:<46} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
            at(0.50),
            at(0.95),
            at(0.99),
            times[times.len() - 1]
        );
    }
    Ok(())
}
