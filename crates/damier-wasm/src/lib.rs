//! The damier web lab in the browser: the pages' requests answered by the library compiled to
//! WebAssembly, in a Web Worker, with no server (docs/web.md, "The lab without a server").
//!
//! A page calls `api(path, body)` (crates/damier-web/assets/common.js); served by
//! `damier serve` that is `POST /api/<path>`, in the static site it is a message to the worker
//! (`assets/worker.js`), which calls [`call`] through the exports of `abi` and answers what the
//! server answers: `{"status", "exit", "body"}`, the body being the JSON of
//! `damier <group> <command> --json` (the same keys), or `{"error": "one line"}`.
//!
//! Every answer comes from the library's functions, the ones the CLI and the server call: the
//! commands through the request layer ([`damier_api`]: the very requests, bounds, runs and
//! records of the server's job process, on one thread; all but those that start threads of
//! their own, [`damier_api::NEEDS_THREADS`]), and the live automaton, factoring and the walk's
//! plan of `damier_web::live`. This crate computes nothing itself. The bounds are the server's
//! (`damier serve` without `--allow-heavy`): a page offers the same sizes either way.
//!
//! ```
//! use damier_wasm::{Session, call};
//! let mut session = Session::default();
//! let a = call(&mut session, "queens/check", &serde_json::json!({ "columns": [2, 4, 1, 3] }));
//! assert_eq!((a.status, a.exit), (200, 0));
//! assert_eq!(a.body["valid"], true);
//! ```

#![deny(missing_docs)]

mod answer;
mod host;
mod layer;
mod live;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod abi;

use serde_json::Value;

pub use answer::Answer;
use answer::Refusal;
pub use host::Host;
pub use live::Session;

/// The live views answered in the browser (`damier_web::live`'s, run in the worker).
pub const LIVE_PATHS: &[&str] = &[
    "live/automaton/models",
    "live/automaton",
    "live/automaton/{id}/step",
    "live/walk/plan",
    "live/factor",
    "live/factor/{id}/step",
    "live/lights/solve",
];

/// The paths answered in the browser: every command of the request layer
/// ([`damier_api::PATHS`]) but those that start threads ([`damier_api::NEEDS_THREADS`]), and
/// the live views ([`LIVE_PATHS`]). Any other is answered 404 with [`NOT_HERE`]: the pages
/// that need it say so (they need `damier serve`).
pub fn paths() -> Vec<&'static str> {
    let layer = damier_api::PATHS.iter().filter(|p| !damier_api::NEEDS_THREADS.contains(p));
    layer.chain(LIVE_PATHS).copied().collect()
}

/// The message of a path the browser build does not answer.
/// (Plain words: a page shows it as written, backticks included.)
pub const NOT_HERE: &str = "not in the browser's build of the lab: this needs the lab's server, damier serve";

/// Answers `path` (as after `/api/`) with `body`, as `damier serve` would (without
/// `--allow-heavy`), on this machine's clock and randomness.
pub fn call(session: &mut Session, path: &str, body: &Value) -> Answer {
    call_with(session, path, body, &host::Native)
}

/// [`call`] with the host's clock, randomness and progress (the browser's, in the worker).
pub fn call_with(session: &mut Session, path: &str, body: &Value, host: &dyn Host) -> Answer {
    let reply = match path {
        _ if damier_api::PATHS.contains(&path) => layer::answer(path, body, host),
        "live/automaton/models" => Ok(Answer::ok(damier_web::live::models(false), true)),
        "live/automaton" => live::new_run(session, body, host),
        "live/walk/plan" => live::walk_plan(body),
        "live/factor" => live::new_factor(session, body, host),
        "live/lights/solve" => live::solve_big(body, host),
        _ => match live::step_path(path) {
            Some((kind, id)) => live::step(session, kind, id, body),
            None => Err(Refusal::NotHere(format!("{path}: {NOT_HERE}"))),
        },
    };
    reply.unwrap_or_else(Answer::refused)
}

#[cfg(test)]
mod tests;
