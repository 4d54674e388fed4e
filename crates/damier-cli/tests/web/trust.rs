//! The lab's trust boundary from outside: only its own pages drive it, no request writes a
//! file or passes a bound, and failures say whose fault they are.

use std::time::Duration;

use damier_web::Settings;
use damier_web::axum::body::Body;
use damier_web::axum::http::{Request, StatusCode};
use proptest::prelude::*;
use serde_json::{Value, json};

use super::api::{call_with, request, send};

const EXE: &str = env!("CARGO_BIN_EXE_damier");

fn settings() -> Settings {
    super::settings_for(EXE)
}

/// The error line of a refused answer.
fn message(body: &[u8]) -> String {
    let v: Value =
        serde_json::from_slice(body).unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(body)));
    v["error"].as_str().unwrap().to_string()
}

/// A count request with `headers` instead of the lab's own.
fn count_with(headers: &[(&str, &str)]) -> Request<Body> {
    let mut b = Request::builder().method("POST").uri("/api/queens/count");
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Body::from(r#"{"n": 6}"#)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_labs_own_pages_drive_it() {
    let host = ("host", "127.0.0.1:8080");
    let json = ("content-type", "application/json");
    // What a page on any site can send without a preflight: refused.
    for ct in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
        let (s, _, b) = send(settings(), count_with(&[host, ("content-type", ct)])).await;
        assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct}: {}", message(&b));
    }
    let (s, _, _) = send(settings(), count_with(&[host])).await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    for origin in ["http://evil.example", "null", "http://127.0.0.1:9999", "http://localhost:8080"] {
        let (s, _, b) = send(settings(), count_with(&[host, json, ("origin", origin)])).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{origin}");
        assert!(message(&b).contains("own pages"), "{}", message(&b));
    }
    // DNS rebinding: the page's own domain in Host.
    for h in ["evil.example:8080", "127.0.0.1:9999", "10.0.0.1:8080"] {
        let (s, _, _) = send(settings(), count_with(&[("host", h), json])).await;
        assert_eq!(s, StatusCode::MISDIRECTED_REQUEST, "{h}");
    }
    let (s, _, _) = send(settings(), count_with(&[json])).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // Pages and live views are behind the same Host check.
    let page = Request::builder().uri("/").header("host", "evil.example:8080").body(Body::empty()).unwrap();
    assert_eq!(send(settings(), page).await.0, StatusCode::MISDIRECTED_REQUEST);
    let live = Request::builder()
        .method("POST")
        .uri("/api/live/automaton")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "text/plain")
        .body(Body::from(r#"{"n": 6}"#))
        .unwrap();
    assert_eq!(send(settings(), live).await.0, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // The lab's pages (same origin, by either name) and curl (no Origin) are served.
    let (s, _, _) = send(settings(), count_with(&[host, json, ("origin", "http://127.0.0.1:8080")])).await;
    assert_eq!(s, StatusCode::OK);
    let local = [("host", "localhost:8080"), json, ("origin", "http://localhost:8080")];
    assert_eq!(send(settings(), count_with(&local)).await.0, StatusCode::OK);
    assert_eq!(send(settings(), count_with(&[host, json])).await.0, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_request_writes_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).display().to_string();
    let cases = [
        ("queens/count", json!({"n": 10, "journal": at("journal")})),
        ("automaton/run", json!({"model": "pair", "n": 6, "checkpoint": at("checkpoint")})),
        ("queens/solve", json!({"n": 8, "out": at("out")})),
        ("walk/solve", json!({"rows": 3, "cols": 3, "pattern": at("pattern.txt")})),
        ("walk/solve", json!({"rows": 3, "cols": 3, "out": at("path")})),
        ("lights/solve", json!({"random": "4x4", "out": at("presses.txt")})),
        ("lights/kernel", json!({"size": "5x5", "out": at("kernel")})),
    ];
    for (path, body) in cases {
        let (s, _, b) = call_with(settings(), "POST", &format!("/api/{path}"), body.to_string()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{path} {body}");
        assert!(message(&b).contains("writes a file on the server"), "{}", message(&b));
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files written: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_of_the_wrong_shape_or_looking_like_options_are_refused() {
    let bad = StatusCode::BAD_REQUEST;
    for (path, body) in [
        ("queens/count", json!({"n": [8]})),
        ("queens/count", json!({"n": {"value": 8}})),
        ("queens/count", json!({"n": true})),
        ("queens/count", json!({"n": 8, "json": false})),
        ("queens/count", json!({"n": "--help"})),
        ("queens/count", json!({"n": 8, "threads": "--allow-heavy"})),
        ("queens/count", json!({"n": "9".repeat(100_000)})),
        ("queens/check", json!({"columns": [1, [2]]})),
        ("lights/count", json!({"size": ["5x5", "6x6"]})),
        ("lights/solve", json!({"file": ["0101"]})),
        ("walk/replay", json!({"rows": 2, "cols": 2, "moves": "-NE"})),
        ("queens/count", json!({"n": 8, "test_task_delay_ms": 1000})),
    ] {
        let (s, _, b) = call_with(settings(), "POST", &format!("/api/{path}"), body.to_string()).await;
        let line = message(&b);
        let shown: String = format!("{path} {body}: {line}").chars().take(400).collect();
        assert_eq!(s, bad, "{shown}");
        assert!(!line.contains('\n') && line.len() < 1000, "one short line: {shown}");
        let listed = line.split("(fields:").nth(1).unwrap_or("");
        assert!(!listed.contains("test_") && !listed.contains("journal"), "not offered: {shown}");
    }
    // Negative columns are values, not options: a "no" answer.
    let (s, exit, _) = call_with(settings(), "POST", "/api/queens/check", r#"{"columns": ["-1", 2]}"#).await;
    assert!(s == StatusCode::BAD_REQUEST || exit.as_deref() == Some("1"), "{s}");
}

/// A stand-in `damier` that fails as a full disk would (exit 74), or dies of a signal.
fn failing_executable(dir: &std::path::Path, script: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("damier");
    std::fs::write(&path, format!("#!/bin/sh\ncat >/dev/null\n{script}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_say_whose_fault() {
    let dir = tempfile::tempdir().unwrap();
    for script in [
        "echo 'damier: error: cannot write standard output: No space left on device' >&2; exit 74",
        "kill -9 $$",
    ] {
        let s = super::settings_for(failing_executable(dir.path(), script));
        let (status, _, b) = call_with(s, "POST", "/api/queens/count", r#"{"n": 8}"#).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{script}");
        let line = message(&b);
        assert!(line.contains("failed on the server") && !line.contains("No space"), "{line}");
    }
    let s = super::settings_for(dir.path().join("missing"));
    assert_eq!(
        call_with(s, "POST", "/api/queens/count", r#"{"n": 8}"#).await.0,
        StatusCode::INTERNAL_SERVER_ERROR
    );
    // The user's input: 400; a size past the bounds: 422 naming the bound.
    assert_eq!(
        call_with(settings(), "POST", "/api/queens/count", r#"{"n": 0}"#).await.0,
        StatusCode::BAD_REQUEST
    );
    let (s, _, b) =
        call_with(settings(), "POST", "/api/automaton/run", r#"{"n": 8, "max_steps": 1000000000}"#).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(message(&b).contains("100000000"), "{}", message(&b));
}

/// A request body for one served command whose string values are paths in `root`.
fn any_body(root: String) -> impl Strategy<Value = (String, Value)> {
    let value = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u64..24).prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        Just(json!([1, 2, 3])),
        Just(json!({"a": 1})),
        Just(json!("6x4")),
        Just(json!("-1")),
        prop::sample::select(vec!["a", "b.txt", "c.pbm", "d.csv"])
            .prop_map(move |f| json!(format!("{root}/{f}"))),
    ];
    let fields = prop::sample::subsequence(
        vec![
            "n",
            "size",
            "rows",
            "cols",
            "file",
            "out",
            "journal",
            "checkpoint",
            "pattern",
            "random",
            "seed",
            "limit",
        ],
        0..5,
    );
    (prop::sample::select(super::served()), fields, prop::collection::vec(value, 5)).prop_map(
        |((g, c), keys, values)| {
            let body: serde_json::Map<String, Value> =
                keys.into_iter().map(String::from).zip(values).collect();
            (format!("{g}/{c}"), Value::Object(body))
        },
    )
}

#[test]
fn random_bodies_write_nothing_and_the_server_keeps_answering() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().display().to_string();
    let mut s = settings();
    s.timeout = Duration::from_secs(20);
    let app = damier_web::router(s);
    let config = ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() };
    proptest!(config, |((path, body) in any_body(root.clone()))| {
        let (status, b) = runtime.block_on(async {
            use tower::ServiceExt;
            let resp = app.clone().oneshot(request("POST", &format!("/api/{path}"), body.to_string())).await.unwrap();
            let status = resp.status();
            (status, damier_web::axum::body::to_bytes(resp.into_body(), 64 << 20).await.unwrap())
        });
        // A bad body is the client's fault (4xx); only the time limit (503) is the server's.
        prop_assert!(
            !status.is_server_error() || status == StatusCode::SERVICE_UNAVAILABLE,
            "{} {}: {} {}", path, body, status, String::from_utf8_lossy(&b)
        );
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        prop_assert!(left.is_empty(), "{} {} wrote {:?}", path, body, left);
    });
    let ok = runtime.block_on(call_with(settings(), "POST", "/api/queens/count", r#"{"n": 8}"#));
    assert_eq!(ok.0, StatusCode::OK);
}
