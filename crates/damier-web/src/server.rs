//! The server itself (feature `server`): settings, router, handlers, the connection loop.

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
use axum::routing::{MethodRouter, post};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, mpsc};

/// The HTTP framework, re-exported for tests that drive [`router`] directly.
pub use axum;

/// Connections served at once by default ([`Settings::max_connections`]): far more than a
/// classroom's browsers keep open (about six each), far below a process's file descriptors.
pub const MAX_CONNECTIONS: usize = 512;

/// Largest request body accepted: a larger declared `Content-Length` is refused (413) before
/// any of the body is read.
pub const MAX_BODY: usize = 1 << 20;

/// Longest a client may take to send a request's headers, from the connection's start (or the
/// end of its previous request) on: a slow or silent client is disconnected then (the default
/// of [`Settings::header_timeout`]).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long [`serve`] lets the requests in flight end once it is told to stop.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// Longest wait for the next piece of a request's body, 408 beyond; a whole request may take
/// this much beyond its job's time limit (the default of [`Settings::body_timeout`]).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// How the server runs its jobs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The `damier` executable run for each API call (the server's own, normally).
    pub executable: PathBuf,
    /// The commands `POST /api/<group>/<command>` runs, as `(group, command)`; any other is
    /// 404 before anything runs. The CLI derives them from its own list of served commands,
    /// which carries their bounds. [default: none]
    pub served: Vec<(String, String)>,
    /// Lift the per-request bounds, which the child applies (the time limit still holds).
    pub allow_heavy: bool,
    /// Most commands running at once; further requests wait for a slot. [default: one per core]
    pub max_jobs: usize,
    /// Time limit of one request, waiting included. [default: 60 s]
    pub timeout: Duration,
    /// The addresses the server listens on: requests must name one of them in `Host`
    /// ([`crate::trust::guard`]). [`serve`] sets them from its listeners. [default: 127.0.0.1:8080]
    pub listen: Vec<SocketAddr>,
    /// Host names requests may also use in `Host` (`damier serve --allow-host NAME`), with a
    /// listening port; any other name is refused (421), the defence against DNS rebinding.
    /// [default: none]
    pub allowed_hosts: Vec<String>,
    /// The long count's journal the counting page shows, read-only (`damier serve
    /// --journal FILE`); never a path from a request. [default: none]
    pub journal: Option<PathBuf>,
    /// Longest a client may take to send a request's headers (the connection is closed
    /// beyond). [default: [`HEADER_TIMEOUT`]]
    pub header_timeout: Duration,
    /// Longest wait for the next piece of a request's body (408 beyond); a whole request,
    /// body included, takes at most `timeout + body_timeout` (408 beyond). [default:
    /// [`BODY_TIMEOUT`]]
    pub body_timeout: Duration,
    /// Most connections served at once; further ones wait in the listening socket's backlog
    /// until one ends (a silent one ends at `header_timeout`), so that clients cannot spend
    /// the server's file descriptors. [default: [`MAX_CONNECTIONS`]]
    pub max_connections: usize,
    /// The job slots, when the caller holds them (shared by several routers, or held by a
    /// test); otherwise [`router`] makes `max_jobs` new ones. [default: none]
    pub slots: Option<Arc<Semaphore>>,
}

impl Settings {
    /// Default bounds for `executable`.
    pub fn new(executable: PathBuf) -> Settings {
        Settings {
            executable,
            served: Vec::new(),
            allow_heavy: false,
            max_jobs: crate::jobs::default_jobs(),
            timeout: crate::jobs::DEFAULT_TIMEOUT,
            listen: vec![SocketAddr::from(([127, 0, 0, 1], 8080))],
            allowed_hosts: Vec::new(),
            journal: None,
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            slots: None,
        }
    }
}

/// Shared state of the handlers.
pub struct AppState {
    settings: Settings,
    jobs: Arc<Semaphore>,
    runs: Mutex<crate::live::Runs<damier::automaton::Automaton>>,
    factor_runs: Mutex<crate::live::Runs<damier::factor::FactorAutomaton>>,
    journal: Option<Mutex<crate::live::journal::JournalSource>>,
}

impl AppState {
    /// What [`crate::jobs::run`] needs of the state.
    fn runner(&self) -> crate::jobs::Runner<'_> {
        crate::jobs::Runner {
            executable: &self.settings.executable,
            allow_heavy: self.settings.allow_heavy,
            timeout: self.settings.timeout,
            slots: &self.jobs,
        }
    }
}

/// The API's routes, all `POST` (any other method answers 405): the router is built from this
/// list, and the tests walk it (every route takes a job slot and obeys the time limit).
fn routes() -> Vec<(&'static str, MethodRouter<Arc<AppState>>)> {
    vec![
        ("/api/live/automaton", post(automaton_new)),
        ("/api/live/automaton/models", post(automaton_models)),
        ("/api/live/automaton/{id}/step", post(automaton_step)),
        ("/api/live/factor", post(factor_new)),
        ("/api/live/factor/{id}/step", post(factor_step)),
        ("/api/live/lights/solve", post(lights_solve)),
        ("/api/live/journal", post(journal_view)),
        ("/api/live/walk/plan", post(walk_plan)),
        ("/api/{group}/{command}", post(api)),
    ]
}

/// The paths of the API's routes, as the router has them (`{id}`, `{group}` and `{command}`
/// are path parameters); everything else is a page or a 404.
pub fn route_paths() -> Vec<&'static str> {
    routes().into_iter().map(|(path, _)| path).collect()
}

/// The application: pages, API and live views.
///
/// Around every route: the body's bound ([`MAX_BODY`]: a larger declared length is 413 at
/// once), a body read timeout (`body_timeout` between two pieces, 408), a whole-request limit
/// (`timeout + body_timeout`, 408) and the trust guard ([`crate::trust::guard`]).
pub fn router(settings: Settings) -> Router {
    let jobs = settings.slots.clone().unwrap_or_else(|| Arc::new(Semaphore::new(settings.max_jobs.max(1))));
    let (body_timeout, request_limit) =
        (settings.body_timeout, settings.timeout.saturating_add(settings.body_timeout));
    let state = Arc::new(AppState {
        jobs,
        runs: Mutex::new(crate::live::Runs::default()),
        factor_runs: Mutex::new(crate::live::Runs::default()),
        journal: settings.journal.clone().map(|p| Mutex::new(crate::live::journal::JournalSource::new(p))),
        settings,
    });
    let api =
        routes().into_iter().fold(Router::new(), |r, (path, route)| r.route(path, route.fallback(post_only)));
    api.fallback(fallback)
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(body_timeout))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(MAX_BODY))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            request_limit,
        ))
        .layer(axum::middleware::map_response(json_refusals))
        .with_state(state)
}

/// The refusals of the layers above (413, 408) carry a text body: they answer one JSON line
/// like every other refusal.
async fn json_refusals(response: Response) -> Response {
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|c| c.as_bytes().starts_with(b"application/json"));
    match response.status() {
        StatusCode::PAYLOAD_TOO_LARGE if !json => too_large(),
        StatusCode::REQUEST_TIMEOUT if !json => error(
            StatusCode::REQUEST_TIMEOUT,
            "the request did not arrive in time (this server's time limit)",
        ),
        _ => response,
    }
}

fn too_large() -> Response {
    error(StatusCode::PAYLOAD_TOO_LARGE, format!("the request body is larger than {MAX_BODY} bytes"))
}

/// [`crate::trust::guard`] in front of every route: a refused request never reaches a handler.
async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let (method, path) = (request.method(), request.uri().path());
    let hosts = crate::trust::Hosts { listen: &state.settings.listen, names: &state.settings.allowed_hosts };
    match crate::trust::guard(&hosts, method, path, request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => error(refusal.status(), refusal.to_string()),
    }
}

/// Serves `router(settings)` on `listeners` until `shutdown` completes, then lets the requests
/// in flight end for at most [`SHUTDOWN_GRACE`] (running jobs are killed when the caller drops
/// the runtime).
///
/// Each connection is hyper's HTTP/1 server with a header read timeout
/// ([`Settings::header_timeout`]): a client that sends its headers slowly, or nothing, is
/// disconnected.
pub async fn serve(
    listeners: Vec<tokio::net::TcpListener>,
    mut settings: Settings,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use futures_util::FutureExt;
    use hyper_util::rt::{TokioIo, TokioTimer};

    settings.listen = listeners.iter().map(tokio::net::TcpListener::local_addr).collect::<Result<_, _>>()?;
    if listeners.is_empty() {
        return Err(std::io::Error::other("no address to listen on"));
    }
    let header_timeout = settings.header_timeout;
    let connections = Arc::new(Semaphore::new(settings.max_connections.max(1)));
    let app = router(settings);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(header_timeout);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown.fuse());
    loop {
        // A connection is accepted once a slot is free; the slot goes with it.
        let slot = tokio::select! {
            () = &mut shutdown => break,
            slot = Arc::clone(&connections).acquire_owned() => slot.expect("the semaphore is never closed"),
        };
        let accept = futures_util::future::select_all(listeners.iter().map(|l| Box::pin(l.accept())));
        let stream = tokio::select! {
            () = &mut shutdown => break,
            (accepted, _, _) = accept => accepted,
        };
        let stream = match stream {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, a connection reset before accept: wait a little and go
                // on (as axum's own loop does).
                let _ = writeln!(std::io::stderr(), "damier serve: accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client gone or too slow ends its connection only.
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listeners);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
    Ok(())
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
    crate::assets::serve(uri).await
}

/// Reads the body up to [`MAX_BODY`] and parses it as JSON (an empty body is `{}`).
async fn json_body(body: Body) -> Result<Value, Response> {
    let bytes: Bytes = axum::body::to_bytes(body, MAX_BODY).await.map_err(|e| {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&e);
        while let Some(s) = source {
            if s.is::<http_body_util::LengthLimitError>() {
                return too_large();
            }
            if s.is::<tower_http::timeout::TimeoutError>() {
                return error(
                    StatusCode::REQUEST_TIMEOUT,
                    "the request body stopped arriving (this server's time limit)",
                );
            }
            source = s.source();
        }
        error(StatusCode::BAD_REQUEST, format!("the request body could not be read: {e}"))
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
    if !state.settings.served.iter().any(|(g, c)| *g == group && *c == command) {
        return error(StatusCode::NOT_FOUND, format!("no command `{group} {command}` here"));
    }
    let value = match json_body(body).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    if !value.is_object() {
        return error(
            StatusCode::BAD_REQUEST,
            "the request body must be a JSON object of the command's options",
        );
    }
    // The bounds are checked by the child, on the arguments it parsed.
    let body = value.to_string().into_bytes();
    let stream = query.is_some_and(|q| q.split('&').any(|p| p == "stream" || p.starts_with("stream=")));
    if stream {
        return streamed(state, group, command, body);
    }
    answer(&group, &command, crate::jobs::run(&state.runner(), &group, &command, &body, None).await)
}

/// The HTTP status and JSON body of a job's outcome. A failure on the server's side answers a
/// short message; its detail goes to the server's stderr.
fn outcome_parts(group: &str, command: &str, o: crate::jobs::Outcome) -> (StatusCode, Option<i32>, Vec<u8>) {
    use crate::jobs::Outcome;
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
                crate::jobs::MAX_OUTPUT >> 20
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

fn answer(group: &str, command: &str, o: crate::jobs::Outcome) -> Response {
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
        let job = crate::jobs::run(&runner, &group, &command, &body, Some(&progress));
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

/// A refusal or failure of a live view: its status and one line.
type Refusal = (StatusCode, String);

impl From<crate::live::Refused> for (StatusCode, String) {
    fn from(r: crate::live::Refused) -> Refusal {
        match r {
            crate::live::Refused::Input(m) => (StatusCode::BAD_REQUEST, m),
            crate::live::Refused::Bound(m) => (StatusCode::UNPROCESSABLE_ENTITY, m),
        }
    }
}

/// Runs `work` for a live view the way every computation of the server runs: in a job slot
/// (`--jobs`), on a blocking thread (never on the server's async threads), within the time
/// limit (waiting for the slot included; 503 beyond). The slot is held until `work` returns,
/// even past the limit, so the slots count every computation still running; `work` gets a
/// `Control` that is cancelled when the limit passes or the request is dropped (the library's
/// long computations poll it and stop).
async fn in_slot<T: serde::Serialize + Send + 'static>(
    state: &Arc<AppState>,
    work: impl FnOnce(&damier::control::Control) -> Result<T, Refusal> + Send + 'static,
) -> Response {
    let limit = state.settings.timeout;
    let control = Arc::new(damier::control::Control::new());
    let cancel = CancelOnDrop(control.clone());
    let slots = state.jobs.clone();
    let run = async move {
        let Ok(slot) = slots.acquire_owned().await else {
            return Err((StatusCode::SERVICE_UNAVAILABLE, "the server is stopping".to_string()));
        };
        let done = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            work(&control)
        })
        .await;
        done.unwrap_or_else(|_| {
            Err((StatusCode::INTERNAL_SERVER_ERROR, "the computation failed".to_string()))
        })
    };
    let answer = tokio::time::timeout(limit, run).await;
    drop(cancel);
    match answer {
        Ok(Ok(v)) => axum::Json(v).into_response(),
        Ok(Err((status, m))) => error(status, m),
        Err(_) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("no answer within {} s, this server's time limit", limit.as_secs()),
        ),
    }
}

async fn automaton_new(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: crate::live::NewRun = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let heavy = state.settings.allow_heavy;
    in_slot(&state.clone(), move |_| {
        // The bound is checked before anything of the run's size is made.
        let mut runs = state.runs.lock().map_err(|_| unavailable("run table"))?;
        Ok(runs.create(&req, heavy)?)
    })
    .await
}

/// The answer when a lock of the server is poisoned (a handler panicked while holding it).
fn unavailable(what: &str) -> Refusal {
    (StatusCode::SERVICE_UNAVAILABLE, format!("the {what} is unavailable"))
}

async fn automaton_step(State(state): State<Arc<AppState>>, Path(id): Path<String>, body: Body) -> Response {
    step_run(state, |s| &s.runs, "automaton", id, body, crate::live::step).await
}

async fn automaton_models(State(state): State<Arc<AppState>>) -> Response {
    let heavy = state.settings.allow_heavy;
    in_slot(&state, move |_| Ok(crate::live::models(heavy))).await
}

async fn factor_new(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: crate::live::factor::NewFactor = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    in_slot(&state.clone(), move |_| {
        let mut runs = state.factor_runs.lock().map_err(|_| unavailable("run table"))?;
        runs.create(&req).map_err(|m| (StatusCode::BAD_REQUEST, m))
    })
    .await
}

async fn factor_step(State(state): State<Arc<AppState>>, Path(id): Path<String>, body: Body) -> Response {
    step_run(state, |s| &s.factor_runs, "factoring", id, body, crate::live::factor::step).await
}

/// Steps the run `id` of `runs(state)` by the body's `updates` with `step`, in a job slot (a
/// run stepped by another request at the same time answers 409).
async fn step_run<T: Send + 'static, F: serde::Serialize + Send + 'static>(
    state: Arc<AppState>,
    runs: fn(&AppState) -> &Mutex<crate::live::Runs<T>>,
    kind: &'static str,
    id: String,
    body: Body,
    step: fn(u64, &mut T, u64) -> F,
) -> Response {
    let req: crate::live::Step = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Ok(id) = id.parse::<u64>() else {
        return error(StatusCode::NOT_FOUND, format!("no {kind} run `{id}`"));
    };
    in_slot(&state.clone(), move |_| {
        let run = runs(&state).lock().map_err(|_| unavailable("run table"))?.get(id);
        let Some(run) = run else {
            return Err((
                StatusCode::NOT_FOUND,
                format!("no {kind} run {id} (runs are dropped after {} newer ones)", crate::live::MAX_RUNS),
            ));
        };
        let Ok(mut a) = run.try_lock() else {
            return Err((StatusCode::CONFLICT, "this run is being stepped by another request".to_string()));
        };
        Ok(step(id, &mut a, req.updates))
    })
    .await
}

/// A huge Lights Out board made and solved in a job slot, within the time limit (the solve is
/// cancelled through its `Control` when the limit passes). The size is checked against the
/// bound before the board is made.
async fn lights_solve(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: crate::live::lights::SolveBig = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let heavy = state.settings.allow_heavy;
    in_slot(&state, move |control| {
        let (board, seed) = crate::live::lights::start_board(&req, heavy)?;
        crate::live::lights::solve(&board, seed, control).map_err(|m| (StatusCode::BAD_REQUEST, m))
    })
    .await
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
    if let Err(r) = typed_body::<crate::live::journal::JournalRequest>(body).await {
        return r;
    }
    if state.journal.is_none() {
        return error(
            StatusCode::NOT_FOUND,
            "this server shows no journal: start it with `damier serve --journal FILE`",
        );
    }
    in_slot(&state.clone(), move |_| {
        let Some(source) = state.journal.as_ref() else {
            return Err((StatusCode::NOT_FOUND, "this server shows no journal".to_string()));
        };
        source.lock().map_err(|_| unavailable("journal reader"))?.view().map_err(|m| {
            // The operator's file is missing (a count not started yet), unreadable or not a
            // journal: the server's side; the detail (the path) only in the server's log.
            let _ = writeln!(std::io::stderr(), "damier serve: --journal: {m}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the journal cannot be read now (the server's log says why)".to_string(),
            )
        })
    })
    .await
}

async fn walk_plan(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: crate::live::WalkPlan = match typed_body(body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let heavy = state.settings.allow_heavy;
    in_slot(&state, move |control| Ok(crate::live::walk_plan(&req, heavy, control)?)).await
}

/// A body parsed into `T` (unknown fields refused), or the 4xx answer.
async fn typed_body<T: serde::de::DeserializeOwned>(body: Body) -> Result<T, Response> {
    let value = json_body(body).await?;
    serde_json::from_value(value).map_err(|e| error(StatusCode::BAD_REQUEST, format!("bad request: {e}")))
}
