//! The web API against the router (no network): every exposed command answers what the
//! command line prints, bad requests get a 4xx with one line of JSON, limits hold, and 200
//! concurrent requests are all answered.

use std::process::Command;
use std::time::Duration;

use damier_web::axum;
use damier_web::axum::body::Body;
use damier_web::axum::http::{Request, StatusCode};
use damier_web::{Settings, router};
use serde_json::{Value, json};
use tower::ServiceExt;

const EXE: &str = env!("CARGO_BIN_EXE_damier");

fn settings() -> Settings {
    super::settings_for(EXE)
}

/// A request as the lab's pages send it: to the server's own address, with a JSON body.
pub fn request(method: &str, path: &str, body: impl Into<Body>) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .body(body.into())
        .unwrap()
}

/// One request through a fresh router: status, the `x-damier-exit` header, body bytes.
pub async fn call_with(
    s: Settings,
    method: &str,
    path: &str,
    body: impl Into<Body>,
) -> (StatusCode, Option<String>, Vec<u8>) {
    send(s, request(method, path, body)).await
}

/// `req` through a fresh router: status, the `x-damier-exit` header, body bytes.
pub async fn send(s: Settings, req: Request<Body>) -> (StatusCode, Option<String>, Vec<u8>) {
    let resp = router(s).oneshot(req).await.unwrap();
    let status = resp.status();
    let exit = resp.headers().get("x-damier-exit").map(|v| v.to_str().unwrap().to_string());
    let bytes = axum::body::to_bytes(resp.into_body(), 256 << 20).await.unwrap();
    (status, exit, bytes.to_vec())
}

async fn post(path: &str, body: Value) -> (StatusCode, Value) {
    let (s, _, b) = call_with(settings(), "POST", path, body.to_string()).await;
    (
        s,
        serde_json::from_slice(&b)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {}", String::from_utf8_lossy(&b))),
    )
}

/// `POST path` with `body` through `app` (a router kept across calls, for the live views'
/// runs): the status and the JSON answer.
async fn post_to(app: &damier_web::axum::Router, path: &str, body: Value) -> (StatusCode, Value) {
    let resp = app.clone().oneshot(request("POST", path, body.to_string())).await.unwrap();
    let status = resp.status();
    let b = axum::body::to_bytes(resp.into_body(), 1 << 20).await.unwrap();
    (status, serde_json::from_slice(&b).unwrap_or_else(|e| panic!("{path}: not JSON ({e})")))
}

/// A 4xx whose body is `{"error": one line}`; returns the line.
async fn refused(path: &str, body: &str, status: StatusCode) -> String {
    let (s, _, b) = call_with(settings(), "POST", path, body.to_string()).await;
    assert_eq!(s, status, "{path} {body}: {}", String::from_utf8_lossy(&b));
    let v: Value = serde_json::from_slice(&b).unwrap();
    let msg = v["error"].as_str().unwrap().to_string();
    assert!(!msg.is_empty() && !msg.contains('\n'), "{msg:?}");
    msg
}

/// Drops the timing fields, which differ between two runs.
fn without_seconds(mut v: Value) -> Value {
    match &mut v {
        Value::Object(m) => {
            m.remove("seconds");
            for x in m.values_mut() {
                *x = without_seconds(x.take());
            }
        }
        Value::Array(a) => {
            for x in a.iter_mut() {
                *x = without_seconds(x.take());
            }
        }
        _ => {}
    }
    v
}

/// The command line's JSON for `args` (`--json` added), with the exit code.
fn cli_json(args: &[&str], stdin_files: &[(&str, &str)]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<String> = args
        .iter()
        .map(|a| match stdin_files.iter().find(|(k, _)| a == &format!("@{k}")) {
            Some((k, content)) => {
                let p = dir.path().join(k);
                std::fs::write(&p, content).unwrap();
                p.display().to_string()
            }
            None => a.to_string(),
        })
        .collect();
    let out = Command::new(EXE).args(&args).arg("--json").output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    (out.status.code().unwrap(), v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_exposed_command_answers_what_the_cli_prints() {
    let board = "10101\n01010\n11011\n00100\n10001";
    let files = [("file", board)];
    // (path, body, the same command line with @file for the board file)
    let cases: Vec<(&str, Value, Vec<&str>)> = vec![
        ("queens/count", json!({"n": 9}), vec!["queens", "count", "9"]),
        ("queens/list", json!({"n": 6}), vec!["queens", "list", "6"]),
        (
            "queens/list",
            json!({"n": 8, "unique": true, "limit": 5}),
            vec!["queens", "list", "8", "--unique", "--limit", "5"],
        ),
        ("queens/first", json!({"n": 12}), vec!["queens", "first", "12"]),
        ("queens/solve", json!({"n": 20}), vec!["queens", "solve", "20"]),
        ("queens/max", json!({"n": 3}), vec!["queens", "max", "3"]),
        ("queens/corners", json!({"n": 6, "examples": 1}), vec!["queens", "corners", "6", "--examples", "1"]),
        ("queens/check", json!({"columns": [2, 4, 1, 3]}), vec!["queens", "check", "2", "4", "1", "3"]),
        ("queens/check", json!({"columns": ["1", 2, 3]}), vec!["queens", "check", "1", "2", "3"]),
        (
            "automaton/run",
            json!({"n": 6, "seed": 3, "max_steps": 1_000_000}),
            vec!["automaton", "run", "-n", "6", "--seed", "3", "--max-steps", "1000000"],
        ),
        ("automaton/trap", json!({"figure": 1}), vec!["automaton", "trap", "--figure", "1"]),
        ("lights/solve", json!({"file": board, "min": true}), vec!["lights", "solve", "@file", "--min"]),
        (
            "lights/solve",
            json!({"random": "6x4", "seed": 5, "all": true}),
            vec!["lights", "solve", "--random", "6x4", "--seed", "5", "--all"],
        ),
        (
            "lights/solve",
            json!({"file": board, "explain": true}),
            vec!["lights", "solve", "@file", "--explain"],
        ),
        ("lights/count", json!({"size": "5x5"}), vec!["lights", "count", "5x5"]),
        ("lights/kernel", json!({"size": "5x5"}), vec!["lights", "kernel", "5x5"]),
        ("lights/winnable", json!({"file": board}), vec!["lights", "winnable", "@file"]),
        ("lights/table", json!({"to": 9}), vec!["lights", "table", "--to", "9"]),
        ("lights/chase", json!({"file": board}), vec!["lights", "chase", "@file"]),
        ("lights/chase-table", json!({"size": "4x3"}), vec!["lights", "chase-table", "4x3"]),
        ("walk/solve", json!({"rows": 4, "cols": 5}), vec!["walk", "solve", "4", "5"]),
        ("walk/count", json!({"rows": 5, "cols": 5}), vec!["walk", "count", "5", "5"]),
        ("walk/table", json!({"to": 6}), vec!["walk", "table", "--to", "6"]),
        ("walk/replay", json!({"rows": 2, "cols": 2, "moves": "NE"}), vec!["walk", "replay", "2", "2", "NE"]),
    ];
    let exposed: std::collections::BTreeSet<String> =
        super::served().iter().map(|(g, c)| format!("{g}/{c}")).collect();
    let mut tested: std::collections::BTreeSet<String> = cases.iter().map(|c| c.0.to_string()).collect();
    // Its answer holds timings throughout: compared field by field in
    // `estimate_is_served_within_bounds`.
    tested.insert("queens/estimate".into());
    assert_eq!(exposed, tested, "every exposed command has a case");
    for (path, body, args) in cases {
        let (s, exit, b) = call_with(settings(), "POST", &format!("/api/{path}"), body.to_string()).await;
        assert_eq!(s, StatusCode::OK, "{path}: {}", String::from_utf8_lossy(&b));
        let web: Value = serde_json::from_slice(&b).unwrap();
        let (code, cli) = cli_json(&args, &files);
        assert_eq!(exit.as_deref(), Some(code.to_string().as_str()), "{path}: exit code");
        assert_eq!(without_seconds(web), without_seconds(cli), "{path} {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_one_line_4xx_and_the_server_keeps_serving() {
    let bad = StatusCode::BAD_REQUEST;
    assert!(refused("/api/queens/count", "{\"n\": ", bad).await.contains("malformed JSON"));
    assert!(refused("/api/queens/count", "[8]", bad).await.contains("JSON object"));
    // Probe of 2026-12-06: a key given twice was answered for its last value (n = 11 here).
    let m = refused("/api/queens/count", r#"{"n": 10, "threads": 1, "n": 11}"#, bad).await;
    assert!(m.contains("malformed JSON: the key `n` is given twice"), "{m}");
    let m = refused("/api/queens/count", r#"{"n": 8, "colour": "red"}"#, bad).await;
    assert!(m.contains("unknown field `colour`") && m.contains("n, threads"), "{m}");
    assert!(refused("/api/queens/count", r#"{"n": "eight"}"#, bad).await.contains("eight"));
    assert!(refused("/api/queens/count", r#"{"n": {"x": 1}}"#, bad).await.contains("field `n`"));
    assert!(refused("/api/queens/count", r#"{}"#, bad).await.contains("missing field `n`"));
    assert!(
        refused("/api/queens/solve", r#"{"n": 8, "out": "/tmp/x"}"#, bad).await.contains("writes a file")
    );
    // Every call runs with --json: a text form chosen by a field is refused, not a clap conflict.
    for path in ["/api/queens/first", "/api/queens/list", "/api/queens/solve"] {
        let m = refused(path, r#"{"n": 8, "columns": true}"#, bad).await;
        assert!(m.contains("field `columns`") && m.contains("always answers JSON"), "{path}: {m}");
        let m = refused(path, r#"{"n": 8, "colour": 1}"#, bad).await;
        assert!(!m.contains("columns"), "{path}: a refused field is not offered: {m}");
    }
    let beyond = StatusCode::UNPROCESSABLE_ENTITY;
    // A bound holds on what runs, a command's default included.
    let m = refused("/api/automaton/run", r#"{"n": 6}"#, beyond).await;
    assert!(m.contains("default") && m.contains("max_steps"), "{m}");
    assert!(refused("/api/queens/count", r#"{"n": 19}"#, beyond).await.contains("--allow-heavy"));
    assert!(refused("/api/lights/solve", r#"{"random": "3000x3"}"#, beyond).await.contains("2000"));
    let m = refused("/api/lights/solve", r#"{"file": "01\n1x"}"#, bad).await;
    assert!(m.starts_with("file: line 2"), "the temporary path is not shown: {m}");
    assert!(refused("/api/lights/solve", r#"{"file": ["01"]}"#, bad).await.contains("content"));
    refused("/api/queens/bench", "{}", StatusCode::NOT_FOUND).await;
    refused("/api/play/lights", "{}", StatusCode::NOT_FOUND).await;
    refused("/api/nothing", "{}", StatusCode::NOT_FOUND).await;
    refused("/api/live/automaton/99999/step", r#"{"updates": 1}"#, StatusCode::NOT_FOUND).await;
    refused("/api/live/automaton", r#"{"n": 8, "speed": 2}"#, bad).await;
    refused("/api/live/automaton", r#"{"n": 0}"#, bad).await;
    refused("/api/live/automaton", r#"{"n": 8, "eps": 2}"#, bad).await;
    refused("/api/live/walk/plan", r#"{"rows": 2, "cols": 2, "moves": "SS"}"#, bad).await;
    let big = format!(r#"{{"file": "{}"}}"#, "0".repeat(damier_web::MAX_BODY));
    assert!(refused("/api/lights/solve", &big, StatusCode::PAYLOAD_TOO_LARGE).await.contains("larger"));
    let (s, _, _) = call_with(settings(), "DELETE", "/lights", "").await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    let (s, _, b) = call_with(settings(), "GET", "/api/queens/count", "").await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    assert!(String::from_utf8_lossy(&b).contains("POST"));
    // Still serving.
    let (s, v) = post("/api/queens/count", json!({"n": 8})).await;
    assert_eq!((s, &v["total"]), (StatusCode::OK, &json!(92)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_no_answer_is_200_with_exit_1() {
    let (s, exit, b) = call_with(settings(), "POST", "/api/queens/check", r#"{"columns": [1, 2]}"#).await;
    assert_eq!((s, exit.as_deref()), (StatusCode::OK, Some("1")));
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(v["valid"], json!(false));
    assert_eq!(v["attacks"].as_array().unwrap().len(), 1);
}

/// Issue 21: "no solution" is a JSON body too (it was an empty 200 for `queens solve 3`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_solution_answers_a_json_body() {
    for (path, body) in [
        ("/api/queens/solve", json!({"n": 3})),
        ("/api/queens/first", json!({"n": 3})),
        ("/api/queens/list", json!({"n": 3})),
        ("/api/queens/count", json!({"n": 3})),
    ] {
        let (s, exit, b) = call_with(settings(), "POST", path, body.to_string()).await;
        assert_eq!((s, exit.as_deref()), (StatusCode::OK, Some("1")), "{path}");
        let v: Value = serde_json::from_slice(&b)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {:?}", String::from_utf8_lossy(&b)));
        assert!(v.is_object() || v.is_array(), "{path}: {v}");
    }
    // A command that says "no" on stderr only still answers a JSON body: its exit and message.
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("damier");
    std::fs::write(&exe, "#!/bin/sh\ncat >/dev/null\necho 'n = 3: no solution' >&2\nexit 1\n").unwrap();
    std::fs::set_permissions(&exe, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (s, exit, b) = call_with(super::settings_for(exe), "POST", "/api/queens/solve", r#"{"n": 3}"#).await;
    assert_eq!((s, exit.as_deref()), (StatusCode::OK, Some("1")));
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(v, json!({"exit": 1, "message": "n = 3: no solution"}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_limit_and_heavy_switch() {
    let mut s = settings();
    s.timeout = Duration::from_millis(1);
    let (status, _, b) = call_with(s, "POST", "/api/queens/count", r#"{"n": 12}"#).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(String::from_utf8_lossy(&b).contains("time limit"));
    let mut s = settings();
    s.allow_heavy = true;
    let (status, _, b) = call_with(s, "POST", "/api/lights/count", r#"{"size": "2500x3"}"#).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_concurrent_requests_are_all_answered() {
    let app = router(settings());
    let tasks: Vec<_> = (0..200)
        .map(|i| {
            let app = app.clone();
            tokio::spawn(async move {
                let body = json!({"size": format!("{}x{}", 1 + i % 30, 1 + i / 30)}).to_string();
                let req = request("POST", "/api/lights/count", body);
                let resp = app.oneshot(req).await.unwrap();
                let status = resp.status();
                let b = axum::body::to_bytes(resp.into_body(), 1 << 20).await.unwrap();
                let v: Value = serde_json::from_slice(&b).unwrap();
                (i, status, v)
            })
        })
        .collect();
    for t in tasks {
        let (i, status, v) = t.await.unwrap();
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["width"], json!(1 + i % 30));
        let want = damier::lights::nullity(damier::board::Size::new(1 + i % 30, 1 + i / 30).unwrap());
        assert_eq!(v["nullity"], json!(want), "request {i}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_count_reports_progress_then_the_result() {
    let (s, _, b) = call_with(settings(), "POST", "/api/queens/count?stream", r#"{"n": 16}"#).await;
    assert_eq!(s, StatusCode::OK);
    let text = String::from_utf8(b).unwrap();
    assert!(text.contains("event: progress"), "{text}");
    let result = text.split("event: result\ndata: ").nth(1).expect("a result event").lines().next().unwrap();
    let v: Value = serde_json::from_str(result).unwrap();
    assert_eq!((v["status"].clone(), v["exit"].clone()), (json!(200), json!(0)));
    assert_eq!((v["body"]["total"].clone(), v["body"]["unique"].clone()), (json!(14772512), json!(1846955)));
    let (_, _, b) = call_with(settings(), "POST", "/api/queens/count?stream", r#"{"n": "x"}"#).await;
    let text = String::from_utf8(b).unwrap();
    assert!(text.contains(r#""status":400"#), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_a_stream_cancels_its_job() {
    use futures_util::StreamExt;
    // One job slot: the second request can only run once the first job is gone.
    let mut s = settings();
    s.max_jobs = 1;
    s.allow_heavy = true;
    s.timeout = Duration::from_secs(120);
    let app = router(s);
    let req = request("POST", "/api/queens/count?stream", r#"{"n": 20}"#);
    let resp = app.clone().oneshot(req).await.unwrap();
    let mut frames = resp.into_body().into_data_stream();
    let first = frames.next().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("progress"), "{first:?}");
    drop(frames);
    let start = std::time::Instant::now();
    let req = request("POST", "/api/queens/count", r#"{"n": 8}"#);
    let resp = tokio::time::timeout(Duration::from_secs(30), app.oneshot(req))
        .await
        .expect("the slot was freed")
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_automaton_follows_the_cli_trajectory() {
    let app = router(settings());
    let send = |path: String, body: Value| {
        let app = app.clone();
        async move {
            let (status, v) = post_to(&app, &path, body).await;
            assert_eq!(status, StatusCode::OK, "{path}: {v}");
            v
        }
    };
    for (model, n, seed) in [("pair", 6, 3u64), ("cell", 7, 11)] {
        let mut f = send("/api/live/automaton".into(), json!({"model": model, "n": n, "seed": seed})).await;
        assert_eq!(f["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum::<u64>(), n);
        let id = f["id"].as_u64().unwrap();
        while f["solved"] != json!(true) {
            f = send(format!("/api/live/automaton/{id}/step"), json!({"updates": 5000})).await;
        }
        let (_, cli) = cli_json(
            &["automaton", "run", "--model", model, "-n", &n.to_string(), "--seed", &seed.to_string()],
            &[],
        );
        assert_eq!((&f["steps"], &f["moves"]), (&cli["steps"], &cli["moves"]), "{model} n={n} seed={seed}");
        // The frame's queens are the CLI's placement (1-based column per row).
        let counts: Vec<u64> = f["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
        for (row, col) in cli["placement"].as_array().unwrap().iter().enumerate() {
            assert_eq!(counts[row * n as usize + col.as_u64().unwrap() as usize - 1], 1);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_walk_plan_finishes_and_replays_black() {
    let (s, v) = post("/api/live/walk/plan", json!({"rows": 5, "cols": 4, "moves": "NNE"})).await;
    assert_eq!(s, StatusCode::OK);
    let all = format!("NNE{}", v["plan"].as_str().unwrap());
    let (code, replay) = cli_json(&["walk", "replay", "5", "4", &all], &[]);
    assert_eq!((code, &replay["all_black"]), (0, &json!(true)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_are_embedded() {
    for a in damier_web::assets::ASSETS.iter() {
        let (s, _, b) = call_with(settings(), "GET", a.path, "").await;
        assert_eq!(s, StatusCode::OK, "{}", a.path);
        assert_eq!(b, a.body.as_bytes());
        let outside = a.body.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !outside.contains("http://") && !outside.contains("https://"),
            "{} fetches nothing from outside",
            a.path
        );
    }
    let (s, _, _) = call_with(settings(), "GET", "/nothing-here", "").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

/// `post` with other settings.
async fn post_with(s: Settings, path: &str, body: Value) -> (StatusCode, Value) {
    let (status, _, b) = call_with(s, "POST", path, body.to_string()).await;
    (status, serde_json::from_slice(&b).unwrap_or_else(|e| panic!("{path}: not JSON ({e})")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_factor_is_the_cli_run_and_refuses_bad_numbers() {
    // One router for the whole run: its runs live in its state.
    let app = router(settings());
    let send = |path: String, body: Value| {
        let app = app.clone();
        async move { post_to(&app, &path, body).await }
    };
    let (s, mut f) = send("/api/live/factor".into(), json!({"n": "143", "seed": 9})).await;
    assert_eq!(s, StatusCode::OK, "{f}");
    let id = f["id"].as_u64().unwrap();
    while f["absorbing"] != json!(true) {
        let (s, next) = send(format!("/api/live/factor/{id}/step"), json!({"updates": 10_000_000})).await;
        assert_eq!(s, StatusCode::OK);
        f = next;
    }
    let (code, cli) = cli_json(&["factor", "143", "--seed", "9"], &[]);
    assert_eq!(code, 0);
    assert_eq!((&f["steps"], &f["flips"]), (&cli["steps"], &cli["flips"]));
    assert_eq!(f["factors"], json!(["11", "13"]));
    // Hostile or wrong values: one line, 4xx, nothing run.
    let bad = StatusCode::BAD_REQUEST;
    assert!(refused("/api/live/factor", r#"{"n": 13}"#, bad).await.contains("prime"));
    refused("/api/live/factor", r#"{"n": "99999999999999999999999"}"#, bad).await;
    refused("/api/live/factor", r#"{"n": "-5"}"#, bad).await;
    refused("/api/live/factor", r#"{"n": [143]}"#, bad).await;
    refused("/api/live/factor", r#"{"bits": 65}"#, bad).await;
    refused("/api/live/factor", r#"{"n": 143, "bits": 8}"#, bad).await;
    refused("/api/live/factor", r#"{"n": 143, "q": 2}"#, bad).await;
    refused("/api/live/factor", r#"{"n": 143, "eps": 0}"#, bad).await;
    refused("/api/live/factor", r#"{"n": 143, "max_steps": 5}"#, bad).await;
    refused("/api/live/factor/1/step", r#"{"updates": -1}"#, bad).await;
    refused("/api/live/factor/77777/step", r#"{"updates": 1}"#, StatusCode::NOT_FOUND).await;
    refused("/api/live/factor/x/step", r#"{"updates": 1}"#, StatusCode::NOT_FOUND).await;
    // A step asks for at most MAX_UPDATES, whatever the body says.
    let (_, f) = send("/api/live/factor".into(), json!({"bits": 40, "seed": 2})).await;
    let (s, f) = send(format!("/api/live/factor/{}/step", f["id"]), json!({"updates": u64::MAX})).await;
    assert_eq!(s, StatusCode::OK);
    assert!(f["steps"].as_u64().unwrap() <= damier_web::live::MAX_UPDATES);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn huge_lights_out_boards_are_solved_within_bounds() {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD;
    let (s, v) = post("/api/live/lights/solve", json!({"start": "all_on", "size": "2000x2000"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let read =
        |key: &str| damier::board::Board::read_pbm(b64.decode(v[key].as_str().unwrap()).unwrap().as_slice());
    let (board, presses) = (read("board_pbm").unwrap(), read("presses_pbm").unwrap());
    assert_eq!((board.width(), board.height(), board.count_ones()), (2000, 2000, 4_000_000));
    assert!(damier::lights::apply_presses(&board, &presses).is_zero());
    // The nullity is the CLI's.
    let (_, cli) = cli_json(&["lights", "count", "2000x2000"], &[]);
    assert_eq!(v["nullity"], cli["nullity"]);
    // Beyond the bound: 422, also for an uploaded file; lifted by --allow-heavy.
    let beyond = StatusCode::UNPROCESSABLE_ENTITY;
    assert!(
        refused("/api/live/lights/solve", r#"{"start": "random", "size": "2001x5"}"#, beyond)
            .await
            .contains("2000")
    );
    let mut wide = Vec::from(&b"P4 2001 1\n"[..]);
    wide.extend(std::iter::repeat_n(0u8, 251));
    let body = json!({"start": "pbm", "pbm": b64.encode(&wide)}).to_string();
    assert!(refused("/api/live/lights/solve", &body, beyond).await.contains("2001x1"));
    let mut heavy = settings();
    heavy.allow_heavy = true;
    let (s, _) =
        post_with(heavy, "/api/live/lights/solve", json!({"start": "pbm", "pbm": b64.encode(&wide)})).await;
    assert_eq!(s, StatusCode::OK);
    // Malformed requests: 400 with one line.
    let bad = StatusCode::BAD_REQUEST;
    for body in [
        r#"{"start": "all_on"}"#,
        r#"{"start": "all_on", "size": "0x5"}"#,
        r#"{"start": "all_on", "size": "5x5", "path": "/etc/passwd"}"#,
        r#"{"start": "file", "size": "5x5"}"#,
        r#"{"start": "pbm"}"#,
        r#"{"start": "pbm", "pbm": "***"}"#,
        r#"{"start": "pbm", "pbm": "UDEKMyAy"}"#,
        r#"{"start": "random", "size": "5x5", "seed": -1}"#,
    ] {
        refused("/api/live/lights/solve", body, bad).await;
    }
    let big = json!({"start": "pbm", "pbm": "A".repeat(damier_web::MAX_BODY)}).to_string();
    refused("/api/live/lights/solve", &big, StatusCode::PAYLOAD_TOO_LARGE).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_journal_view_reads_only_the_file_named_at_start() {
    // Without --journal: 404, whatever the request names.
    let m = refused("/api/live/journal", "{}", StatusCode::NOT_FOUND).await;
    assert!(m.contains("--journal"), "{m}");
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("count.journal");
    let elsewhere = dir.path().join("elsewhere.journal");
    let mut s = settings();
    s.journal = Some(journal.clone());
    // A request cannot name a file: any field is refused.
    for body in [
        json!({"journal": elsewhere.display().to_string()}),
        json!({"path": "/etc/passwd"}),
        json!({"file": journal.display().to_string()}),
    ] {
        let (status, v) = post_with(s.clone(), "/api/live/journal", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    }
    // Before the count starts, the file does not exist: 503, and reading creates nothing.
    let (status, v) = post_with(s.clone(), "/api/live/journal", json!({})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(!v["error"].as_str().unwrap().contains(dir.path().to_str().unwrap()), "no path in the answer");
    assert!(!journal.exists() && std::fs::read_dir(dir.path()).unwrap().count() == 0);
    // A finished count: the view agrees with `queens journal --json`.
    let out = Command::new(EXE).args(["queens", "count", "13", "--journal"]).arg(&journal).output().unwrap();
    assert!(out.status.success());
    let before = std::fs::read(&journal).unwrap();
    let (status, v) = post_with(s.clone(), "/api/live/journal", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, cli) = cli_json(&["queens", "journal", journal.to_str().unwrap()], &[]);
    assert_eq!(
        (&v["n"], &v["tasks"], &v["done"], &v["left"]),
        (&cli["n"], &cli["tasks"], &cli["done"], &cli["left"])
    );
    assert_eq!(v["partial_total"], json!(cli["share_total"].to_string()));
    assert_eq!(v["file"], json!("count.journal"));
    assert_eq!(std::fs::read(&journal).unwrap(), before, "read-only");
    // A file that is not a journal: 503, detail only in the log.
    std::fs::write(&journal, "not a journal\n").unwrap();
    let (status, _) = post_with(s, "/api/live/journal", json!({})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn estimate_is_served_within_bounds() {
    let (s, v) = post("/api/queens/estimate", json!({"n": 12, "samples": 5, "seed": 3})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, cli) = cli_json(&["queens", "estimate", "12", "--samples", "5", "--seed", "3"], &[]);
    assert_eq!((&v["tasks"], &v["samples"], &v["seed"]), (&cli["tasks"], &cli["samples"], &cli["seed"]));
    let beyond = StatusCode::UNPROCESSABLE_ENTITY;
    assert!(refused("/api/queens/estimate", r#"{"n": 12, "samples": 1001}"#, beyond).await.contains("1000"));
    // Above n = 22 whole tasks take too long: queries must be given, and bounded.
    assert!(refused("/api/queens/estimate", r#"{"n": 25}"#, beyond).await.contains("samples"));
    assert!(refused("/api/queens/estimate", r#"{"n": 25, "samples": 10}"#, beyond).await.contains("queries"));
    refused("/api/queens/estimate", r#"{"n": 25, "queries": "all"}"#, beyond).await;
    refused("/api/queens/estimate", r#"{"n": 25, "queries": 40000}"#, beyond).await;
    refused("/api/queens/estimate", r#"{"n": 25, "queries": 1000, "samples": 21}"#, beyond).await;
    // Above n = 26 a sampled task holds gigabytes.
    let big = r#"{"n": 27, "queries": 1000, "samples": 10}"#;
    assert!(refused("/api/queens/estimate", big, beyond).await.contains("26"));
    let bad = StatusCode::BAD_REQUEST;
    refused("/api/queens/estimate", r#"{"n": 29}"#, bad).await;
    refused("/api/queens/estimate", r#"{"n": 12, "queries": "some"}"#, bad).await;
    refused("/api/queens/estimate", r#"{"n": 12, "samples": 0}"#, bad).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_automaton_models_are_the_librarys() {
    let (s, v) = post("/api/live/automaton/models", json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let names: Vec<&str> = v.as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    let expected: Vec<&str> = damier_web::live::MODELS.iter().map(|m| m.name()).collect();
    assert_eq!(names, expected);
    // Each one runs; η is taken by the model that uses it and refused by the others, as
    // `damier automaton run` refuses `--eta` (one check, the library's), and a frame gives η
    // only where the model uses it.
    for (name, info) in names.into_iter().zip(v.as_array().unwrap()) {
        let (s, f) = post("/api/live/automaton", json!({"model": name, "n": 6, "seed": 1})).await;
        assert_eq!((s, &f["model"]), (StatusCode::OK, &json!(name)));
        let with_eta = json!({"model": name, "n": 6, "seed": 1, "eta": 0.25});
        if info["uses_eta"] == json!(true) {
            assert_eq!(f["eta"], json!(damier::automaton::DEFAULT_ETA));
            let (s, f) = post("/api/live/automaton", with_eta).await;
            assert_eq!((s, &f["eta"]), (StatusCode::OK, &json!(0.25)));
        } else {
            assert!(f["eta"].is_null(), "{name}: {f}");
            let m = refused("/api/live/automaton", &with_eta.to_string(), StatusCode::BAD_REQUEST).await;
            assert!(
                m.contains("eta = 0.25 is refused") && m.contains(&format!("({name}) does not use η")),
                "{m}"
            );
        }
    }
    // The commands the API runs refuse it the same way.
    let m =
        refused("/api/automaton/run", r#"{"n": 6, "eta": 0.25, "max_steps": 1000}"#, StatusCode::BAD_REQUEST)
            .await;
    assert!(m.contains("eta = 0.25 is refused") && m.contains("model 1 (pair)"), "{m}");
    assert!(
        refused("/api/live/automaton", r#"{"model": "x", "n": 6}"#, StatusCode::BAD_REQUEST)
            .await
            .contains("pair")
    );
}

/// Every API route of the router (its own list, `damier_web::route_paths`), with a path that
/// reaches its handler: `{id}` a run made by `app`, `{group}/{command}` a served command.
async fn every_route(app: &axum::Router) -> Vec<(String, Value)> {
    let (_, automaton) = post_to(app, "/api/live/automaton", json!({"n": 6, "seed": 1})).await;
    let (_, factor) = post_to(app, "/api/live/factor", json!({"n": "143", "seed": 1})).await;
    damier_web::route_paths()
        .into_iter()
        .map(|path| {
            let body = match path {
                "/api/live/automaton" => json!({"n": 6, "seed": 1}),
                "/api/live/factor" => json!({"n": "143", "seed": 1}),
                "/api/live/lights/solve" => json!({"start": "all_on", "size": "5x5"}),
                "/api/live/walk/plan" => json!({"rows": 4, "cols": 5}),
                p if p.ends_with("/step") => json!({"updates": 10}),
                "/api/{group}/{command}" => json!({"n": 6}),
                _ => json!({}),
            };
            let id = if path.starts_with("/api/live/factor") { &factor["id"] } else { &automaton["id"] };
            let path = path
                .replace("{id}", &id.to_string())
                .replace("{group}", "queens")
                .replace("{command}", "count");
            assert!(!path.contains('{'), "a route with a parameter this test does not fill: {path}");
            (path, body)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_takes_a_job_slot_and_obeys_the_time_limit() {
    // One slot, held by the test: every route waits for it, and gives up at the time limit.
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("count.journal");
    let (_, _) = cli_json(&["queens", "count", "8", "--journal", journal.to_str().unwrap()], &[]);
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(1));
    let mut s = settings();
    s.journal = Some(journal);
    s.slots = Some(slots.clone());
    s.timeout = Duration::from_secs(1);
    let app = router(s);
    let routes = every_route(&app).await;
    assert!(routes.len() >= 9, "{routes:?}");
    let held = slots.clone().acquire_owned().await.unwrap();
    let waits: Vec<_> = routes
        .iter()
        .map(|(path, body)| {
            let (app, path, body) = (app.clone(), path.clone(), body.clone());
            tokio::spawn(async move { (post_to(&app, &path, body).await, path) })
        })
        .collect();
    for w in waits {
        let ((status, v), path) = w.await.unwrap();
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{path} answered without a slot: {v}");
        assert!(v["error"].as_str().unwrap().contains("time limit"), "{path}: {v}");
    }
    // With the slot free, every route answers (and gives it back).
    drop(held);
    for (path, body) in &routes {
        let (status, v) = post_to(&app, path, body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{path}: {v}");
    }
    assert_eq!(slots.available_permits(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_sizes_are_bounded_before_anything_is_made() {
    let beyond = StatusCode::UNPROCESSABLE_ENTITY;
    // 131072 x 131072 would be a 2 GiB board made on the server before this answer.
    for start in ["random", "all_on"] {
        let body = json!({"start": start, "size": "131072x131072", "seed": 1}).to_string();
        assert!(refused("/api/live/lights/solve", &body, beyond).await.contains("2000"));
    }
    let m = refused("/api/live/automaton", r#"{"n": 65}"#, beyond).await;
    assert!(m.contains("64") && m.contains("--allow-heavy"), "{m}");
    let m = refused("/api/live/walk/plan", r#"{"rows": 2001, "cols": 3}"#, beyond).await;
    assert!(m.contains("2000"), "{m}");
    refused("/api/live/walk/plan", r#"{"rows": 3, "cols": 1000000000000}"#, beyond).await;
}

/// A request body that sends `first` and then nothing, ever.
fn stalled_body(first: &'static [u8]) -> Body {
    let chunks = futures_util::stream::iter([Ok::<_, std::io::Error>(axum::body::Bytes::from_static(first))]);
    Body::from_stream(futures_util::StreamExt::chain(chunks, futures_util::stream::pending()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_declared_body_is_refused_at_once_and_a_stalled_one_in_time() {
    // A declared length of 10^12 is refused before one byte of the body is read.
    let mut req = request("POST", "/api/queens/count", stalled_body(b"{"));
    req.headers_mut().insert("content-length", "1000000000000".parse().unwrap());
    let answer = tokio::time::timeout(Duration::from_secs(30), send(settings(), req)).await;
    let (status, _, b) = answer.expect("refused without reading the body");
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert!(v["error"].as_str().unwrap().contains("larger than"), "{v}");
    // A body that stops arriving: 408 after the body timeout, on every route.
    let mut s = settings();
    s.body_timeout = Duration::from_millis(300);
    for path in ["/api/queens/count", "/api/live/walk/plan", "/api/live/lights/solve"] {
        let answer = tokio::time::timeout(
            Duration::from_secs(30),
            send(s.clone(), request("POST", path, stalled_body(b"{\"n\": "))),
        )
        .await;
        let (status, _, b) = answer.expect("timed out by the server");
        assert_eq!(status, StatusCode::REQUEST_TIMEOUT, "{path}: {}", String::from_utf8_lossy(&b));
        let v: Value = serde_json::from_slice(&b).unwrap();
        assert!(v["error"].as_str().is_some(), "{v}");
    }
}

/// `text` with every `"seconds": <number>` (pretty JSON) replaced by `"seconds": S`.
fn seconds_masked(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\"seconds\": ") {
        let (head, tail) = rest.split_at(i + "\"seconds\": ".len());
        out.push_str(head);
        out.push('S');
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit() || ".-+eE".contains(c));
    }
    out.push_str(rest);
    out
}

/// Every served command (the request layer's) answers byte for byte what `--json` prints (the
/// timings masked): the job process prints the record itself, no command line in between.
#[test]
fn the_request_layers_answers_are_the_command_lines_bytes() {
    use std::io::Write;
    use std::process::Stdio;
    let cases: &[(&str, &str, &[&str])] = &[
        ("queens count", r#"{"n": 8}"#, &["queens", "count", "8"]),
        ("queens count", r#"{"n": 10, "share": "2/3"}"#, &["queens", "count", "10", "--share", "2/3"]),
        ("queens count", r#"{"n": 3}"#, &["queens", "count", "3"]),
        ("queens list", r#"{"n": 6}"#, &["queens", "list", "6"]),
        ("queens list", r#"{"n": 3}"#, &["queens", "list", "3"]),
        (
            "queens list",
            r#"{"n": 8, "unique": true, "limit": 3}"#,
            &["queens", "list", "8", "--unique", "--limit", "3"],
        ),
        (
            "queens list",
            r#"{"n": 9, "random": 2, "seed": 5}"#,
            &["queens", "list", "9", "--random", "2", "--seed", "5"],
        ),
        ("queens first", r#"{"n": 3}"#, &["queens", "first", "3"]),
        ("queens first", r#"{"n": 10}"#, &["queens", "first", "10"]),
        ("queens solve", r#"{"n": 30}"#, &["queens", "solve", "30"]),
        ("queens solve", r#"{"n": 3}"#, &["queens", "solve", "3"]),
        (
            "queens solve",
            r#"{"n": 50, "method": "local", "seed": 7}"#,
            &["queens", "solve", "50", "--method", "local", "--seed", "7"],
        ),
        ("queens max", r#"{"n": 5}"#, &["queens", "max", "5"]),
        ("queens corners", r#"{"n": 5, "examples": 2}"#, &["queens", "corners", "5", "--examples", "2"]),
        ("queens check", r#"{"columns": [2, 4, 1, 3]}"#, &["queens", "check", "2", "4", "1", "3"]),
        ("queens check", r#"{"columns": ["1", 3, 2]}"#, &["queens", "check", "1", "3", "2"]),
        (
            "queens check",
            r#"{"columns": "[2, 4, 1, 3] [3, 1, 4, 2]"}"#,
            &["queens", "check", "[2, 4, 1, 3] [3, 1, 4, 2]"],
        ),
        (
            "queens check",
            r#"{"columns": "witness (column per row, 0 = empty row): 1 3 0"}"#,
            &["queens", "check", "witness (column per row, 0 = empty row): 1 3 0"],
        ),
    ];
    let board = "10101\n01010\n11011\n00100\n10001\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.txt");
    std::fs::write(&file, board).unwrap();
    let file = file.to_str().unwrap();
    let with_board = |extra: &str| format!(r#"{{"file": {}{extra}}}"#, serde_json::to_string(board).unwrap());
    let lights: Vec<(&str, String, Vec<&str>)> = vec![
        ("lights solve", with_board(r#", "min": true"#), vec!["lights", "solve", file, "--min"]),
        ("lights solve", with_board(r#", "explain": true"#), vec!["lights", "solve", file, "--explain"]),
        (
            "lights solve",
            r#"{"random": "6x4", "seed": 5, "all": true}"#.into(),
            vec!["lights", "solve", "--random", "6x4", "--seed", "5", "--all"],
        ),
        ("lights solve", r#"{"all_on": "3x2"}"#.into(), vec!["lights", "solve", "--all-on", "3x2"]),
        ("lights count", r#"{"size": "5x5"}"#.into(), vec!["lights", "count", "5x5"]),
        ("lights kernel", r#"{"size": "5x5"}"#.into(), vec!["lights", "kernel", "5x5"]),
        ("lights winnable", with_board(""), vec!["lights", "winnable", file]),
        ("lights table", r#"{"to": 7}"#.into(), vec!["lights", "table", "--to", "7"]),
        ("lights chase", with_board(""), vec!["lights", "chase", file]),
        ("lights chase-table", r#"{"size": "4x3"}"#.into(), vec!["lights", "chase-table", "4x3"]),
    ];
    // The walk and the automaton: a path given as moves or as a file's content (what `walk
    // solve` prints), a start position's content, a run of each model, a rule by name.
    let printed = Command::new(EXE).args(["walk", "solve", "4", "5"]).output().unwrap().stdout;
    let printed = String::from_utf8(printed).unwrap();
    let solved = dir.path().join("solved.txt");
    std::fs::write(&solved, &printed).unwrap();
    let solved = solved.to_str().unwrap();
    let position = ".1....\n...1..\n.....1\n1.....\n..1...\n....1.\n";
    let start = dir.path().join("position.txt");
    std::fs::write(&start, position).unwrap();
    let start = start.to_str().unwrap();
    let with = |key: &str, content: &str, extra: &str| {
        format!(r#"{{"{key}": {}{extra}}}"#, serde_json::to_string(content).unwrap())
    };
    let walk_and_automaton: Vec<(&str, String, Vec<&str>)> = vec![
        ("walk solve", r#"{"rows": 4, "cols": 5}"#.into(), vec!["walk", "solve", "4", "5"]),
        (
            "walk solve",
            r#"{"rows": 2, "cols": 3, "all": true, "method": "brute"}"#.into(),
            vec!["walk", "solve", "2", "3", "--all", "--method", "brute"],
        ),
        (
            "walk count",
            r#"{"rows": 5, "cols": 5, "method": "rows"}"#.into(),
            vec!["walk", "count", "5", "5", "--method", "rows"],
        ),
        ("walk table", r#"{"to": 6}"#.into(), vec!["walk", "table", "--to", "6"]),
        ("walk table", "{}".into(), vec!["walk", "table"]),
        (
            "walk replay",
            r#"{"rows": 2, "cols": 2, "moves": "NE"}"#.into(),
            vec!["walk", "replay", "2", "2", "NE"],
        ),
        (
            "walk replay",
            r#"{"rows": 2, "cols": 2, "moves": "NN"}"#.into(),
            vec!["walk", "replay", "2", "2", "NN"],
        ),
        (
            "walk replay",
            with("from", &printed, r#", "rows": 4, "cols": 5"#),
            vec!["walk", "replay", "4", "5", "--from", solved],
        ),
        (
            "automaton run",
            r#"{"n": 6, "seed": 3, "max_steps": 1000000}"#.into(),
            vec!["automaton", "run", "-n", "6", "--seed", "3", "--max-steps", "1000000"],
        ),
        (
            "automaton run",
            r#"{"model": "cell", "n": 7, "seed": 2, "eta": 0.1, "max_steps": "1000000"}"#.into(),
            vec![
                "automaton",
                "run",
                "--model",
                "cell",
                "-n",
                "7",
                "--seed",
                "2",
                "--eta",
                "0.1",
                "--max-steps",
                "1000000",
            ],
        ),
        (
            "automaton run",
            r#"{"model": "row", "n": 12, "seed": 1, "rule": "patience", "max_steps": 100000}"#.into(),
            vec![
                "automaton",
                "run",
                "--model",
                "row",
                "-n",
                "12",
                "--seed",
                "1",
                "--rule",
                "patience",
                "--max-steps",
                "100000",
            ],
        ),
        (
            "automaton run",
            r#"{"n": 8, "seed": 1, "max_steps": 3}"#.into(),
            vec!["automaton", "run", "-n", "8", "--seed", "1", "--max-steps", "3"],
        ),
        (
            "automaton run",
            r#"{"n": 3, "seed": 1, "max_steps": 1000}"#.into(),
            vec!["automaton", "run", "-n", "3", "--seed", "1", "--max-steps", "1000"],
        ),
        (
            "automaton run",
            with("from", position, r#", "seed": 4, "max_steps": 100000"#),
            vec!["automaton", "run", "--from", start, "--seed", "4", "--max-steps", "100000"],
        ),
        (
            "automaton trap",
            r#"{"figure": 1, "samples": 2, "max_steps": 10000}"#.into(),
            vec!["automaton", "trap", "--figure", "1", "--samples", "2", "--max-steps", "10000"],
        ),
        (
            "automaton trap",
            r#"{"figure": 7, "samples": 2, "max_steps": 10000, "seed": 3}"#.into(),
            vec![
                "automaton",
                "trap",
                "--figure",
                "7",
                "--samples",
                "2",
                "--max-steps",
                "10000",
                "--seed",
                "3",
            ],
        ),
    ];
    let cases =
        cases.iter().map(|&(c, b, a)| (c, b.to_string(), a.to_vec())).chain(lights).chain(walk_and_automaton);
    for (command, body, args) in cases {
        let mut child = Command::new(EXE)
            .arg("__api")
            .args(command.split(' '))
            .env("DAMIER_PROGRESS", "none")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(body.as_bytes()).unwrap();
        let web = child.wait_with_output().unwrap();
        let cli = Command::new(EXE).args(&args).arg("--json").output().unwrap();
        let shown = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(
            web.status.code(),
            cli.status.code(),
            "{command} {body}: {}",
            String::from_utf8_lossy(&web.stderr)
        );
        assert!(!cli.stdout.is_empty(), "{command} {body}: the command line printed JSON");
        assert_eq!(seconds_masked(&shown(&web)), seconds_masked(&shown(&cli)), "{command} {body}");
    }
}

/// The command line still prints what the static lab's tests expect of it
/// (crates/damier-wasm/tests/data/cli_answers.json, whose answers the browser's build must
/// equal): the two ends are pinned to the same answers.
#[test]
fn the_static_labs_expected_answers_are_the_command_lines() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../damier-wasm/tests/data/cli_answers.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in &cases {
        let args: Vec<&str> = case["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        let file = case["body"]["file"].as_str().unwrap_or_default();
        let command = args.join(" ");
        let (code, cli) = cli_json(&args, &[("file", file)]);
        assert_eq!(code as u64, case["exit"].as_u64().unwrap(), "{command}");
        assert_eq!(without_seconds(cli), without_seconds(case["json"].clone()), "{command}");
    }
}
