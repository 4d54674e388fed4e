//! The damier web lab: an HTTP server whose API is the command line's JSON, and the pages
//! that play and watch every problem (Lights Out, the walk, the queens automaton, n queens,
//! factoring, huge boards, counting).
//!
//! - [`router`] builds the whole application: the embedded pages ([`assets`]), the API and
//!   the live views. [`serve`] runs it on a listener until a shutdown signal.
//! - `POST /api/<group>/<command>` with a JSON object answers exactly what
//!   `damier <group> <command> ... --json` prints, for the commands of [`Settings::served`]
//!   (404 for any other): the server runs the `damier` executable ([`Settings::executable`])
//!   as a child with the object on stdin ([`jobs`]), and the child reads it as a typed request
//!   of the request layer (`damier-api`), bounds it and runs it (this crate knows no command's
//!   arguments: the request layer owns the fields and the bounds, the CLI hands over the list
//!   of served commands). Exit 0
//!   and 1 answer 200 with the JSON (header `x-damier-exit` says which), exit 2 (the input was
//!   wrong) answers 400 with `{"error": "one line"}`, a size beyond the server's bounds 422
//!   with the bound, and a failure on the server's side (a write error, a crash) 500 with a
//!   short message, the detail going to the server's stderr.
//!   Add `?stream` to get server-sent events instead: `progress` events while it runs, then
//!   one `result` (`{"status", "exit", "body"}`, written around the command's output, never
//!   parsed); closing the stream kills the job.
//! - Trust ([`trust`]): only requests naming the server's own address (or a name of
//!   [`Settings::allowed_hosts`]) in `Host`, and API calls with a JSON body from no other
//!   origin than the server's, are served.
//! - Bounds ([`jobs`]): bodies up to [`MAX_BODY`], at most `max_jobs` jobs at once (others
//!   wait), each within `timeout`; the child refuses heavy sizes unless `allow_heavy`; every
//!   refusal is a 4xx with a one-line JSON message, and the server keeps serving. The bytes of
//!   answers not yet sent and of request bodies come from server-wide budgets ([`budget`]),
//!   and a client that reads nothing for [`Settings::send_timeout`] is dropped: the server's
//!   memory stays bounded whatever the number of clients.
//! - Live views ([`live`]) use the library directly: automaton and factoring runs stepped by
//!   the page, the walk's plan from any position, huge Lights Out boards in and out as PBM,
//!   and the read-only view of the journal named by [`Settings::journal`].
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! // What `damier serve` does: its own executable answers the API calls.
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! let mut settings = damier_web::Settings::new(std::env::current_exe()?);
//! settings.served = vec![("queens".into(), "count".into())];
//! damier_web::serve(vec![listener], settings, std::future::pending()).await
//! # }
//! ```

#![deny(missing_docs)]

pub mod assets;
#[cfg(feature = "server")]
pub mod budget;
#[cfg(feature = "server")]
mod deadline;
#[cfg(feature = "server")]
pub mod jobs;
pub mod live;
#[cfg(feature = "server")]
pub mod trust;

// The server (HTTP, jobs, trust) is the default feature `server`; without it the crate is the
// pages ([`assets`]) and the live views' logic ([`live`]), which build for WebAssembly
// (crates/damier-wasm runs them in the browser).
#[cfg(feature = "server")]
mod server;
#[cfg(feature = "server")]
pub use server::*;
