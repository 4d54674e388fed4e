//! The commands of the request layer ([`damier_api`]): the same typed requests, bounds, runs
//! and records as the server's job process, in the worker's surroundings (its clock,
//! randomness and progress; one thread: a count runs share by share).

use damier::control::Control;
use damier_api::{Record, Request};
use serde_json::json;

use crate::answer::{Answer, Refusal, Reply};
use crate::host::Host;

/// A request's surroundings in the browser: the host's clock, seeds and progress, a control of
/// its own, no threads.
struct Layer<'a> {
    host: &'a dyn Host,
    control: Control,
}

impl damier_api::Host for Layer<'_> {
    fn control(&self) -> &Control {
        &self.control
    }

    fn seconds(&self) -> f64 {
        self.host.seconds()
    }

    fn seed(&self) -> u64 {
        self.host.seed()
    }

    fn parallel(&self) -> bool {
        false
    }

    fn step(&self, done: u64, total: u64) {
        self.host.progress(done, total);
    }
}

/// Answers the request at `path` (one of [`damier_api::PATHS`]) with the fields `body`, within
/// the server's bounds.
pub(crate) fn answer(path: &str, body: &serde_json::Value, host: &dyn Host) -> Reply {
    let request = Request::parse(path, body)?;
    request.bound(false)?;
    let layer = Layer { host, control: Control::new() };
    match damier_api::run(&request, &layer) {
        Ok(record) => Ok(answered(&record)),
        // A "no" with messages only: the server's answer to a command that printed no JSON.
        Err(Refusal::No(message)) => {
            Ok(Answer { status: 200, exit: 1, body: json!({ "exit": 1, "message": message }) })
        }
        Err(e) => Err(e),
    }
}

/// The record's answer: its JSON, exit 0 for a "yes", 1 for a "no".
fn answered(record: &Record) -> Answer {
    Answer::ok(record, record.yes())
}
