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
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, post};
use serde_json::json;
use tokio::sync::{Semaphore, mpsc};

use crate::budget::{Budget, Chunk};

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

/// Longest a connection may wait for its client to take the next bytes of an answer: a client
/// that reads nothing for this long is disconnected, and what it held goes back (the default
/// of [`Settings::send_timeout`]).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Largest buffer of one connection (hyper's, for reading and for writing): request headers
/// above it are refused (431), and N connections hold at most N times this.
pub const CONNECTION_BUFFER: usize = 64 << 10;

/// How long [`serve`] lets the requests in flight end once it is told to stop.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// Longest a request's body may take to arrive whole, from the request's headers on, 408
/// beyond: with [`HEADER_TIMEOUT`], a client holds a connection slot for at most 20 s with one
/// request however slowly it sends it (a deadline on each piece alone let a body sent a byte at
/// a time hold a slot until the job's time limit); a whole request may take this much beyond
/// its job's time limit (the default of [`Settings::body_timeout`]).
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
    /// Longest a request's body may take to arrive whole, from its headers on (408 beyond,
    /// however steadily it trickles); a whole request, body included, takes at most `timeout
    /// + body_timeout` (408 beyond). [default: [`BODY_TIMEOUT`]]
    pub body_timeout: Duration,
    /// Most connections served at once; further ones wait in the listening socket's backlog
    /// until one ends (a silent one ends at `header_timeout`), so that clients cannot spend
    /// the server's file descriptors. [default: [`MAX_CONNECTIONS`]]
    pub max_connections: usize,
    /// Longest wait for a client to take the next bytes of an answer (the connection is
    /// closed beyond, and the job of a stream killed). [default: [`SEND_TIMEOUT`]]
    pub send_timeout: Duration,
    /// Most bytes the whole server holds for answers not yet sent and request bodies being
    /// read, whatever the number of clients ([`crate::budget`]); a job whose answer finds no
    /// room waits for it, within its time limit. [default: [`crate::budget::ANSWER_MEMORY`]]
    pub answer_memory: usize,
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
            send_timeout: SEND_TIMEOUT,
            answer_memory: crate::budget::ANSWER_MEMORY,
            slots: None,
        }
    }
}

/// Shared state of the handlers.
pub struct AppState {
    settings: Settings,
    jobs: Arc<Semaphore>,
    /// Answers not yet sent ([`Settings::answer_memory`]).
    budget: Budget,
    /// Request bodies being read ([`crate::budget::REQUEST_MEMORY`]).
    requests: Budget,
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
            budget: &self.budget,
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
/// once), a whole-request limit (`timeout + body_timeout`, 408) and the trust guard
/// ([`crate::trust::guard`]); every handler reads its body through `body_bytes`, whole
/// within `body_timeout` (408).
pub fn router(settings: Settings) -> Router {
    let jobs = settings.slots.clone().unwrap_or_else(|| Arc::new(Semaphore::new(settings.max_jobs.max(1))));
    let request_limit = settings.timeout.saturating_add(settings.body_timeout);
    let state = Arc::new(AppState {
        jobs,
        budget: Budget::new(settings.answer_memory),
        requests: Budget::new(crate::budget::REQUEST_MEMORY),
        runs: Mutex::new(crate::live::Runs::default()),
        factor_runs: Mutex::new(crate::live::Runs::default()),
        journal: settings.journal.clone().map(|p| Mutex::new(crate::live::journal::JournalSource::new(p))),
        settings,
    });
    let api =
        routes().into_iter().fold(Router::new(), |r, (path, route)| r.route(path, route.fallback(post_only)));
    api.fallback(fallback)
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
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
    // A target in absolute form (`POST http://name:port/api/...`) names a host too.
    let target = crate::trust::Target { path, authority: request.uri().authority().map(|a| a.as_str()) };
    match crate::trust::guard(&hosts, method, &target, request.headers()) {
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
/// disconnected; so is a client that takes none of an answer's bytes for
/// [`Settings::send_timeout`]; its buffers hold at most [`CONNECTION_BUFFER`] bytes.
pub async fn serve(
    listeners: Vec<tokio::net::TcpListener>,
    mut settings: Settings,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use futures_util::FutureExt;
    use hyper_util::rt::{TokioIo, TokioTimer};

    crate::budget::keep_chunks_mapped();
    settings.listen = listeners.iter().map(tokio::net::TcpListener::local_addr).collect::<Result<_, _>>()?;
    if listeners.is_empty() {
        return Err(std::io::Error::other("no address to listen on"));
    }
    let (header_timeout, send_timeout) = (settings.header_timeout, settings.send_timeout);
    let connections = Arc::new(Semaphore::new(settings.max_connections.max(1)));
    let app = router(settings);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_buf_size(CONNECTION_BUFFER)
        .max_header_size(CONNECTION_BUFFER);
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
        let stream = crate::deadline::WriteDeadline::new(stream, send_timeout);
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

/// Reads the body up to [`MAX_BODY`], its bytes taken from the server's budget of request
/// bodies as they come, whole within [`Settings::body_timeout`] of reading (the handlers call
/// this first, as the headers arrive; waits for room in the budget not counted): a body that
/// trickles is answered 408 and its connection closed, its slot freed.
async fn body_bytes(state: &AppState, body: Body) -> Result<Chunk, Response> {
    use crate::budget::BodyError;
    let limit = state.settings.body_timeout;
    state.requests.read_body(body, MAX_BODY, limit).await.map_err(|e| match e {
        BodyError::TimedOut => error(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive whole within {} s (this server's time limit)",
                damier::util::number(limit.as_secs_f64())
            ),
        ),
        BodyError::TooLarge => too_large(),
        BodyError::Hold(e) => error(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        BodyError::Read(e) => {
            let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&e);
            while let Some(s) = source {
                if s.is::<http_body_util::LengthLimitError>() {
                    return too_large();
                }
                source = s.source();
            }
            error(StatusCode::BAD_REQUEST, format!("the request body could not be read: {e}"))
        }
    })
}

/// The body as JSON text: an empty body (or only whitespace) is `{}`.
fn or_empty_object(bytes: &[u8]) -> &[u8] {
    if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { bytes }
}

/// Checks that `bytes` are one JSON object, without building it: any keys and values, read
/// and dropped as they come (a megabyte of small values would be tens of megabytes as a tree).
fn check_object(bytes: &[u8]) -> Result<(), Refusal> {
    struct Object;
    impl<'de> serde::de::Visitor<'de> for Object {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
            // A key given twice is refused: `{"n": 10, "n": 11}` was answered for n = 11, the
            // first value dropped unsaid. A field's name is short and no command has 64
            // fields, so only the first 64 keys of at most 64 bytes are kept (a few KB): a
            // longer key, or a body past 64 keys, holds one the request layer refuses by name.
            let mut seen: Vec<String> = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<serde::de::IgnoredAny>()?;
                if key.len() <= 64 && seen.len() < 64 {
                    if seen.contains(&key) {
                        return Err(serde::de::Error::custom(format!("the key `{key}` is given twice")));
                    }
                    seen.push(key);
                }
            }
            Ok(true)
        }
    }
    impl<'de> serde::de::DeserializeSeed<'de> for Object {
        type Value = bool;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_any(Either)
        }
    }
    /// Any JSON value: `true` for an object, `false` for anything else.
    struct Either;
    impl<'de> serde::de::Visitor<'de> for Either {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<bool, A::Error> {
            Object.visit_map(map)
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
            while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(false)
        }
        fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_str<E>(self, _: &str) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_unit<E>(self) -> Result<bool, E> {
            Ok(false)
        }
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let object = serde::de::DeserializeSeed::deserialize(Object, &mut de).and_then(|o| de.end().map(|()| o));
    match object {
        Ok(true) => Ok(()),
        Ok(false) => Err((
            StatusCode::BAD_REQUEST,
            "the request body must be a JSON object of the command's options".into(),
        )),
        Err(e) => Err((StatusCode::BAD_REQUEST, format!("malformed JSON: {e}"))),
    }
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
    let bytes = match body_bytes(&state, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let body = or_empty_object(bytes.as_slice());
    // The bounds are checked by the child, on the arguments it parsed; the body goes to it as
    // it came.
    if let Err((status, m)) = check_object(body) {
        return error(status, m);
    }
    let stream = query.is_some_and(|q| q.split('&').any(|p| p == "stream" || p.starts_with("stream=")));
    if stream {
        let body = body.to_vec();
        drop(bytes);
        return streamed(state, group, command, body);
    }
    let outcome = crate::jobs::run(&state.runner(), &group, &command, body, None).await;
    drop(bytes);
    answer(&group, &command, outcome)
}

/// The answer of a job: a command's output as it was read (chunks held in the server's
/// budget), or a message.
enum Answered {
    Output(Vec<Chunk>),
    Message(Vec<u8>),
}

/// The HTTP status and JSON body of a job's outcome. A failure on the server's side answers a
/// short message; its detail goes to the server's stderr.
fn outcome_parts(group: &str, command: &str, o: crate::jobs::Outcome) -> (StatusCode, Option<i32>, Answered) {
    use crate::jobs::Outcome;
    let msg = |m: String| Answered::Message(json!({ "error": m }).to_string().into_bytes());
    match o {
        Outcome::Answer { json, exit } => (StatusCode::OK, Some(exit), Answered::Output(json)),
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
    let body = match body {
        Answered::Output(chunks) => {
            Body::new(Frames::new(chunks.into_iter().map(Chunk::into_bytes).collect()))
        }
        Answered::Message(m) => Body::from(m),
    };
    let mut r = (status, body).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Some(code) = exit {
        r.headers_mut().insert("x-damier-exit", HeaderValue::from(code));
    }
    r
}

/// A body of frames already made, its length known (sent with a `content-length`): each
/// frame's memory goes when the connection has written it.
struct Frames {
    frames: std::collections::VecDeque<Bytes>,
    left: u64,
}

impl Frames {
    fn new(frames: std::collections::VecDeque<Bytes>) -> Frames {
        let left = frames.iter().map(|f| f.len() as u64).sum();
        Frames { frames, left }
    }
}

impl hyper::body::Body for Frames {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
        let frame = self.frames.pop_front();
        if let Some(f) = &frame {
            self.left -= f.len() as u64;
        }
        std::task::Poll::Ready(frame.map(|f| Ok(hyper::body::Frame::data(f))))
    }

    fn is_end_stream(&self) -> bool {
        self.frames.is_empty()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        hyper::body::SizeHint::with_exact(self.left)
    }
}

/// One server-sent event whose data is one line (a line break in `data` would end it early:
/// JSON has none but as white space, which a space replaces).
fn event(name: &str, data: &[u8]) -> Bytes {
    let mut e = Vec::with_capacity(name.len() + data.len() + 16);
    e.extend_from_slice(b"event: ");
    e.extend_from_slice(name.as_bytes());
    e.extend_from_slice(b"\ndata: ");
    e.extend(data.iter().map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b }));
    e.extend_from_slice(b"\n\n");
    Bytes::from(e)
}

/// How often a stream with nothing to say sends a comment, so that proxies and browsers keep
/// it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Server-sent events: `progress` lines while the job runs, then one `result`
/// (`{"status", "exit", "body"}`), written around the command's output as it was read, never
/// parsed (its line breaks, white space in JSON, become spaces: the event is one line). When
/// the page closes the stream, or reads nothing for the send deadline, the job's future is
/// dropped, which kills the child.
fn streamed(state: Arc<AppState>, group: String, command: String, body: Vec<u8>) -> Response {
    let (events, rx) = mpsc::channel::<Bytes>(16);
    tokio::spawn(async move {
        let (progress, mut lines) = mpsc::channel::<String>(64);
        let runner = state.runner();
        let job = crate::jobs::run(&runner, &group, &command, &body, Some(&progress));
        tokio::pin!(job);
        let mut keep_alive = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        let outcome = loop {
            tokio::select! {
                o = &mut job => break o,
                Some(p) = lines.recv() => {
                    if events.send(event("progress", p.as_bytes())).await.is_err() {
                        return;
                    }
                }
                _ = keep_alive.tick() => {
                    if events.send(Bytes::from_static(b":\n\n")).await.is_err() {
                        return;
                    }
                }
                () = events.closed() => return,
            }
        };
        let (status, exit, body) = outcome_parts(&group, &command, outcome);
        let open = format!(
            "{{\"status\":{},\"exit\":{},\"body\":",
            status.as_u16(),
            exit.map_or("null".to_string(), |e| e.to_string())
        );
        let chunks = match body {
            Answered::Output(chunks) => chunks,
            Answered::Message(m) => {
                let _ = events.send(event("result", &[open.as_bytes(), &m, b"}"].concat())).await;
                return;
            }
        };
        if events.send(Bytes::from(format!("event: result\ndata: {open}"))).await.is_err() {
            return;
        }
        for mut chunk in chunks {
            // PERF: in place, in the chunk the budget holds: no copy of the answer.
            for b in chunk.as_mut_slice() {
                if *b == b'\n' || *b == b'\r' {
                    *b = b' ';
                }
            }
            if events.send(chunk.into_bytes()).await.is_err() {
                return;
            }
        }
        let _ = events.send(Bytes::from_static(b"}\n\n")).await;
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|e| (Ok::<_, Infallible>(e), rx))
    });
    let mut r = Body::from_stream(stream).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

/// A refusal or failure of a live view: its status and one line.
type Refusal = (StatusCode, String);

/// A live view's refusal as the server answers it: the statuses of the request layer's
/// (the static lab answers the same).
fn refused(r: crate::live::Refusal) -> Refusal {
    use crate::live::Refusal as R;
    match r {
        R::Input(m) | R::No(m) => (StatusCode::BAD_REQUEST, m),
        R::Bound(m) => (StatusCode::UNPROCESSABLE_ENTITY, m),
        R::NotHere(m) => (StatusCode::NOT_FOUND, m),
        R::Fault(m) => (StatusCode::INTERNAL_SERVER_ERROR, m),
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
    let (slots, budget) = (state.jobs.clone(), state.budget.clone());
    let run = async move {
        let Ok(slot) = slots.acquire_owned().await else {
            return Err((StatusCode::SERVICE_UNAVAILABLE, "the server is stopping".to_string()));
        };
        let failed = || (StatusCode::INTERNAL_SERVER_ERROR, "the computation failed".to_string());
        // The answer is written in the slot, and held in the server's budget before the slot
        // goes: computations waiting for room hold no more than the slots allow.
        let done = tokio::task::spawn_blocking(move || {
            let answer = work(&control).and_then(|v| serde_json::to_vec(&v).map_err(|_| failed()));
            (slot, answer)
        })
        .await;
        let Ok((slot, answer)) = done else { return Err(failed()) };
        let held = budget.hold(answer?).await.map_err(|e| match e {
            crate::budget::HoldError::TooLarge(_) => (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
            crate::budget::HoldError::Closed => (StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        });
        drop(slot);
        held
    };
    let answer = tokio::time::timeout(limit, run).await;
    drop(cancel);
    match answer {
        Ok(Ok(v)) => {
            let mut r = Body::new(Frames::new([v.into_bytes()].into())).into_response();
            r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
            r
        }
        Ok(Err((status, m))) => error(status, m),
        Err(_) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("no answer within {} s, this server's time limit", limit.as_secs()),
        ),
    }
}

async fn automaton_new(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let req: crate::live::NewRun = match typed_body(&state, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let heavy = state.settings.allow_heavy;
    in_slot(&state.clone(), move |_| {
        // The bound is checked before anything of the run's size is made.
        let mut runs = state.runs.lock().map_err(|_| unavailable("run table"))?;
        runs.create(&req, heavy).map_err(refused)
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
    let req: crate::live::factor::NewFactor = match typed_body(&state, body).await {
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
    let req: crate::live::Step = match typed_body(&state, body).await {
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
    let req: crate::live::lights::SolveBig = match typed_body(&state, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let heavy = state.settings.allow_heavy;
    in_slot(&state, move |control| {
        let (board, seed) = crate::live::lights::start_board(&req, heavy).map_err(refused)?;
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
    if let Err(r) = typed_body::<crate::live::journal::JournalRequest>(&state, body).await {
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
    let req: crate::live::WalkPlan = match typed_body(&state, body).await {
        Ok(r) => r,
        Err(r) => return r,
    };
    let heavy = state.settings.allow_heavy;
    in_slot(&state, move |control| crate::live::walk_plan(&req, heavy, control).map_err(refused)).await
}

/// A body parsed into `T` (unknown fields refused; an empty body is `{}`), or the 4xx answer.
async fn typed_body<T: serde::de::DeserializeOwned>(state: &AppState, body: Body) -> Result<T, Response> {
    let bytes = body_bytes(state, body).await?;
    serde_json::from_slice(or_empty_object(bytes.as_slice())).map_err(|e| {
        let what = if e.is_data() { "bad request" } else { "malformed JSON" };
        error(StatusCode::BAD_REQUEST, format!("{what}: {e}"))
    })
}
