//! The damier web lab: an HTTP server whose API is the command line's JSON, and the pages
//! that play and watch every problem (Lights Out, the walk, the queens automaton, n queens,
//! factoring, huge boards, counting).
//!
//! - [`router`] builds the whole application: the embedded pages ([`assets`]), the API and
//!   the live views. [`serve`] runs it on a listener until a shutdown signal.
//! - `POST /api/<group>/<command>` with a JSON object answers exactly what
//!   `damier <group> <command> ... --json` prints: the server runs the `damier` executable
//!   ([`Settings::executable`]) as a child with the object on stdin, and the child maps the
//!   object onto its own clap arguments ([`fields`]). Exit 0 and 1 answer 200 with the JSON
//!   (header `x-damier-exit` says which), exit 2 (the input was wrong) answers 400 with
//!   `{"error": "one line"}`, a size beyond the server's bounds 422 with the bound, and a
//!   failure on the server's side (a write error, a crash) 500 with a short message, the
//!   detail going to the server's stderr.
//!   Add `?stream` to get server-sent events instead: `progress` events while it runs, then
//!   one `result` (`{"status", "exit", "body"}`); closing the stream kills the job.
//! - Trust ([`trust`]): only requests naming the server's own address in `Host`, and API calls
//!   with a JSON body from no other origin than the server's, are served; no argument that
//!   writes or names a file on the server can be given.
//! - Bounds ([`limits`], [`jobs`]): bodies up to [`MAX_BODY`], heavy sizes refused unless
//!   `allow_heavy` (checked by the child on the arguments it parsed), at most `max_jobs`
//!   children at once (others wait), each within `timeout`; every refusal is a 4xx with a
//!   one-line JSON message, and the server keeps serving.
//! - Live views ([`live`]) use the library directly: automaton and factoring runs stepped by
//!   the page, the walk's plan from any position, huge Lights Out boards in and out as PBM,
//!   and the read-only view of the journal named by [`Settings::journal`].
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! // What `damier serve` does: its own executable answers the API calls.
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! let settings = damier_web::Settings::new(std::env::current_exe()?);
//! damier_web::serve(listener, settings, std::future::pending()).await
//! # }
//! ```

#![deny(missing_docs)]

use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use tokio::sync::{Semaphore, mpsc};

/// The HTTP framework, re-exported for tests that drive [`router`] directly.
pub use axum;

pub mod assets;
pub mod fields;
pub mod jobs;
pub mod limits;
pub mod live;
pub mod trust;

/// Largest request body accepted.
pub const MAX_BODY: usize = 1 << 20;

/// How the server runs its jobs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The `damier` executable run for each API call (the server's own, normally).
    pub executable: PathBuf,
    /// Lift the per-request bounds of [`limits`] (the time limit still holds).
    pub allow_heavy: bool,
    /// Most commands running at once; further requests wait for a slot. [default: one per core]
    pub max_jobs: usize,
    /// Time limit of one request, waiting included. [default: 60 s]
    pub timeout: Duration,
    /// The address the server listens on: requests must name it in `Host` ([`trust::guard`]).
    /// [`serve`] sets it from its listener. [default: 127.0.0.1:8080]
    pub listen: SocketAddr,
    /// The long count's journal the counting page shows, read-only (`damier serve
    /// --journal FILE`); never a path from a request. [default: none]
    pub journal: Option<PathBuf>,
}

impl Settings {
    /// Default bounds for `executable`.
    pub fn new(executable: PathBuf) -> Settings {
        Settings {
            executable,
            allow_heavy: false,
            max_jobs: jobs::default_jobs(),
            timeout: jobs::DEFAULT_TIMEOUT,
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            journal: None,
        }
    }
}

/// Shared state of the handlers.
pub struct AppState {
    settings: Settings,
    jobs: Semaphore,
    runs: Mutex<live::Runs<damier::automaton::Automaton>>,
    factor_runs: Mutex<live::Runs<damier::factor::FactorAutomaton>>,
    journal: Option<Mutex<live::journal::JournalSource>>,
}

impl AppState {
    /// What [`jobs::run`] needs of the state.
    fn runner(&self) -> jobs::Runner<'_> {
        jobs::Runner {
            executable: &self.settings.executable,
            allow_heavy: self.settings.allow_heavy,
            timeout: self.settings.timeout,
            slots: &self.jobs,
        }
    }
}

/// The application: pages, API and live views.
pub fn router(settings: Settings) -> Router {
    let state = Arc::new(AppState {
        jobs: Semaphore::new(settings.max_jobs.max(1)),
        runs: Mutex::new(live::Runs::default()),
        factor_runs: Mutex::new(live::Runs::default()),
        journal: settings.journal.clone().map(|p| Mutex::new(live::journal::JournalSource::new(p))),
        settings,
    });
    Router::new()
        .route("/api/live/automaton", post(automaton_new).fallback(post_only))
        .route("/api/live/automaton/models", post(automaton_models).fallback(post_only))
        .route("/api/live/automaton/{id}/step", post(automaton_step).fallback(post_only))
        .route("/api/live/factor", post(factor_new).fallback(post_only))
        .route("/api/live/factor/{id}/step", post(factor_step).fallback(post_only))
        .route("/api/live/lights/solve", post(lights_solve).fallback(post_only))
        .route("/api/live/journal", post(journal_view).fallback(post_only))
        .route("/api/live/walk/plan", post(walk_plan).fallback(post_only))
        .route("/api/{group}/{command}", post(api).fallback(post_only))
        .fallback(fallback)
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// [`trust::guard`] in front of every route: a refused request never reaches a handler.
async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let (method, path) = (request.method(), request.uri().path());
    match trust::guard(state.settings.listen, method, path, request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => error(refusal.status(), refusal.to_string()),
    }
}

/// Serves `router(settings)` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    mut settings: Settings,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    settings.listen = listener.local_addr()?;
    axum::serve(listener, router(settings).into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown)
        .await
}

/// A JSON error answer: `{"error": message}`.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, axum::Json(json!({ "error": message.into() }))).into_response()
}

async fn post_only() -> Response {
    error(StatusCode::METHOD_NOT_ALLOWED, "the API is called with POST and a JSON object")
}

/// Pages for GET, a JSON 404 under `/api/`, 405 otherwise.
async fn fallback(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") || uri.path() == "/api" {
        return error(
            StatusCode::NOT_FOUND,
            "no such API: use POST /api/<group>/<command> (see docs/web.md)",
        );
    }
    if method != axum::http::Method::GET && method != axum::http::Method::HEAD {
        return error(StatusCode::METHOD_NOT_ALLOWED, "pages are read with GET");
    }
    assets::serve(uri).await
}

/// Reads the body up to [`MAX_BODY`] and parses it as JSON (an empty body is `{}`).
async fn json_body(body: Body) -> Result<Value, Response> {
    let bytes: Bytes = axum::body::to_bytes(body, MAX_BODY).await.map_err(|_| {
        error(StatusCode::PAYLOAD_TOO_LARGE, format!("the request body is larger than {MAX_BODY} bytes"))
    })?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(&bytes).map_err(|e| error(StatusCode::BAD_REQUEST, format!("malformed JSON: {e}")))
}

async fn api(
    State(state): State<Arc<AppState>>,
    Path((group, command)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    body: Body,
) -> Response {
    if !fields::is_exposed(&group, &command) {
        return error(StatusCode::NOT_FOUND, format!("no command `{group} {command}` here"));
    }
    let value = match json_body(body).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    if !value.is_object() {
        return error(StatusCode::BAD_REQUEST, fields::FieldError::NotAnObject.to_string());
    }
    // The bounds ([`limits`]) are checked by the child, on the arguments it parsed.
    let body = value.to_string().into_bytes();
    let stream = query.is_some_and(|q| q.split('&').any(|p| p == "stream" || p.starts_with("stream=")));
    if stream {
        return streamed(state, group, command, body);
    }
    answer(&group, &command, jobs::run(&state.runner(), &group, &command, &body, None).await)
}

/// The HTTP status and JSON body of a job's outcome. A failure on the server's side answers a
/// short message; its detail goes to the server's stderr.
fn outcome_parts(group: &str, command: &str, o: jobs::Outcome) -> (StatusCode, Option<i32>, Vec<u8>) {
    use jobs::Outcome;
    let msg = |m: String| json!({ "error": m }).to_string().into_bytes();
    match o {
        Outcome::Answer { json, exit } => (StatusCode::OK, Some(exit), json),
        Outcome::Refused(m) => (StatusCode::BAD_REQUEST, None, msg(m)),
        Outcome::BeyondBound(m) => (StatusCode::UNPROCESSABLE_ENTITY, None, msg(m)),
        Outcome::TimedOut(d) => (
            StatusCode::SERVICE_UNAVAILABLE,
            None,
            msg(format!("no answer within {} s, this server's time limit", d.as_secs())),
        ),
        Outcome::TooLarge => (
            StatusCode::UNPROCESSABLE_ENTITY,
            None,
            msg(format!(
                "the answer is larger than {} MiB, this server's bound: ask for less (a limit, a smaller size)",
                jobs::MAX_OUTPUT >> 20
            )),
        ),
        Outcome::Failed(detail) => {
            // The server's log; a closed or full stderr must not take a request down with it.
            let _ = writeln!(std::io::stderr(), "damier serve: {group} {command} failed: {detail}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                None,
                msg("the command failed on the server (the server's log says why)".into()),
            )
        }
    }
}

fn answer(group: &str, command: &str, o: jobs::Outcome) -> Response {
    let (status, exit, body) = outcome_parts(group, command, o);
    let mut r = (status, body).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Some(code) = exit {
        r.headers_mut().insert("x-damier-exit", HeaderValue::from(code));
    }
    r
}

/// Server-sent events: `progress` lines while the job runs, then one `result`. When the page
/// closes the stream, the job's future is dropped, which kills the child.
fn streamed(state: Arc<AppState>, group: String, command: String, body: Vec<u8>) -> Response {
    let (events, rx) = mpsc::channel::<Event>(64);
    tokio::spawn(async move {
        let (progress, mut lines) = mpsc::channel::<String>(64);
        let runner = state.runner();
        let job = jobs::run(&runner, &group, &command, &body, Some(&progress));
        tokio::pin!(job);
        let outcome = loop {
            tokio::select! {
                o = &mut job => break o,
                Some(p) = lines.recv() => {
                    if events.send(Event::default().event("progress").data(p)).await.is_err() {
                        return;
                    }
                }
                () = events.closed() => return,
            }
        };
        let (status, exit, body) = outcome_parts(&group, &command, outcome);
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let result = json!({ "status": status.as_u16(), "exit": exit, "body": body }).to_string();
        let _ = events.send(Event::default().event("result").data(result)).await;
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|e| (Ok::<_, Infallible>(e), rx))
    });
    Sse::new(stream).keep_alive(axum::response::sse::KeepAlive::default()).into_response()
}

async fn automaton_new(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: live::NewRun = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let created = match state.runs.lock() {
        Ok(mut runs) => runs.create(&req, state.settings.allow_heavy),
        Err(_) => Err("the run table is unavailable".into()),
    };
    match created {
        Ok(f) => axum::Json(f).into_response(),
        Err(m) => error(StatusCode::BAD_REQUEST, m),
    }
}

async fn automaton_step(State(state): State<Arc<AppState>>, Path(id): Path<String>, body: Body) -> Response {
    step_run(&state.runs, "automaton", id, body, live::step).await
}

async fn automaton_models() -> Response {
    axum::Json(live::models()).into_response()
}

async fn factor_new(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: live::factor::NewFactor = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let created = match state.factor_runs.lock() {
        Ok(mut runs) => runs.create(&req),
        Err(_) => Err("the run table is unavailable".into()),
    };
    match created {
        Ok(f) => axum::Json(f).into_response(),
        Err(m) => error(StatusCode::BAD_REQUEST, m),
    }
}

async fn factor_step(State(state): State<Arc<AppState>>, Path(id): Path<String>, body: Body) -> Response {
    step_run(&state.factor_runs, "factoring", id, body, live::factor::step).await
}

/// Steps the run `id` of `runs` by the body's `updates` with `step` (on a blocking thread; a
/// run stepped by another request at the same time answers 409).
async fn step_run<T: Send + 'static, F: serde::Serialize + Send + 'static>(
    runs: &Mutex<live::Runs<T>>,
    kind: &str,
    id: String,
    body: Body,
    step: fn(u64, &mut T, u64) -> F,
) -> Response {
    let req: live::Step = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Ok(id) = id.parse::<u64>() else {
        return error(StatusCode::NOT_FOUND, format!("no {kind} run `{id}`"));
    };
    let run = runs.lock().ok().and_then(|mut runs| runs.get(id));
    let Some(run) = run else {
        return error(
            StatusCode::NOT_FOUND,
            format!("no {kind} run {id} (runs are dropped after {} newer ones)", live::MAX_RUNS),
        );
    };
    let stepped = tokio::task::spawn_blocking(move || {
        let Ok(mut a) = run.try_lock() else {
            return Err("this run is being stepped by another request".to_string());
        };
        Ok(step(id, &mut a, req.updates))
    })
    .await;
    match stepped {
        Ok(Ok(f)) => axum::Json(f).into_response(),
        Ok(Err(m)) => error(StatusCode::CONFLICT, m),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the step failed"),
    }
}

/// A huge Lights Out board solved in a job slot, within the time limit (the solve is
/// cancelled through its `Control` when the limit passes).
async fn lights_solve(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: live::lights::SolveBig = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let timeout = state.settings.timeout;
    let solved = tokio::time::timeout(timeout, async {
        let Ok(_slot) = state.jobs.acquire().await else {
            return Err((StatusCode::SERVICE_UNAVAILABLE, "the server is stopping".to_string()));
        };
        let heavy = state.settings.allow_heavy;
        let (board, seed) = live::lights::start_board(&req, heavy).map_err(|r| match r {
            live::lights::Refused::Input(m) => (StatusCode::BAD_REQUEST, m),
            live::lights::Refused::Bound(m) => (StatusCode::UNPROCESSABLE_ENTITY, m),
        })?;
        let control = Arc::new(damier::control::Control::new());
        let cancel = CancelOnDrop(control.clone());
        let answer = tokio::task::spawn_blocking(move || live::lights::solve(&board, seed, &control)).await;
        drop(cancel);
        match answer {
            Ok(Ok(a)) => Ok(a),
            Ok(Err(m)) => Err((StatusCode::BAD_REQUEST, m)),
            Err(_) => Err((StatusCode::INTERNAL_SERVER_ERROR, "the solve failed".to_string())),
        }
    })
    .await;
    match solved {
        Ok(Ok(a)) => axum::Json(a).into_response(),
        Ok(Err((status, m))) => error(status, m),
        Err(_) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("no answer within {} s, this server's time limit", timeout.as_secs()),
        ),
    }
}

/// Cancels a library computation when the request that started it is dropped (its time
/// limit passed, or the page went away).
struct CancelOnDrop(Arc<damier::control::Control>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The journal named on the server's command line, read-only; 404 without one.
async fn journal_view(State(state): State<Arc<AppState>>, body: Body) -> Response {
    if let Err(r) = typed_body::<live::journal::JournalRequest>(body).await {
        return r;
    }
    if state.journal.is_none() {
        return error(
            StatusCode::NOT_FOUND,
            "this server shows no journal: start it with `damier serve --journal FILE`",
        );
    }
    let read = tokio::task::spawn_blocking(move || {
        let source = state.journal.as_ref().expect("checked above");
        source.lock().map_err(|_| "the journal reader is unavailable".to_string())?.view()
    })
    .await;
    match read {
        Ok(Ok(v)) => axum::Json(v).into_response(),
        // The operator's file is missing (a count not started yet), unreadable or not a
        // journal: the server's side; the detail (the path) only in the server's log.
        Ok(Err(m)) => {
            let _ = writeln!(std::io::stderr(), "damier serve: --journal: {m}");
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the journal cannot be read now (the server's log says why)",
            )
        }
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the journal read failed"),
    }
}

async fn walk_plan(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: live::WalkPlan = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let heavy = state.settings.allow_heavy;
    match tokio::task::spawn_blocking(move || live::walk_plan(&req, heavy)).await {
        Ok(Ok(a)) => axum::Json(a).into_response(),
        Ok(Err(m)) => error(StatusCode::BAD_REQUEST, m),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the plan failed"),
    }
}

/// A body parsed into `T` (unknown fields refused), or the 4xx answer.
async fn typed_body<T: serde::de::DeserializeOwned>(body: Body) -> Result<T, Response> {
    let value = json_body(body).await?;
    serde_json::from_value(value).map_err(|e| error(StatusCode::BAD_REQUEST, format!("bad request: {e}")))
}
