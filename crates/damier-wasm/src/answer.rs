//! An answer, as the server gives it, and the refusals.

use serde::Serialize;
use serde_json::{Value, json};

/// One answer, as the server's stream gives it: the HTTP status the server would answer, the
/// exit code of the command (1: a "no" answer, with its JSON), and the body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// 200, 400 (bad input), 404 (not answered here), 422 (beyond the bounds).
    pub status: u16,
    /// The command's exit code: 0, 1 (a "no" answer), 2 (bad input).
    pub exit: u8,
    /// The JSON of `--json`, or `{"error": "one line"}`.
    pub body: Value,
}

impl Answer {
    pub(crate) fn ok(body: impl Serialize, yes: bool) -> Answer {
        match serde_json::to_value(body) {
            Ok(body) => Answer { status: 200, exit: if yes { 0 } else { 1 }, body },
            Err(e) => Answer::refused(Refusal::Input(e.to_string())),
        }
    }

    pub(crate) fn refused(r: Refusal) -> Answer {
        let (status, message) = match r {
            Refusal::Input(m) => (400, m),
            Refusal::Bound(m) => (422, m),
            Refusal::NotHere(m) => (404, m),
        };
        Answer { status, exit: 2, body: json!({ "error": message }) }
    }
}

/// Why a request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Malformed or invalid (400, exit 2).
    Input(String),
    /// Beyond the server's bounds (422).
    Bound(String),
    /// Not answered in the browser (404).
    NotHere(String),
}

impl<E: std::fmt::Display> From<E> for Refusal {
    fn from(e: E) -> Refusal {
        Refusal::Input(e.to_string())
    }
}

pub(crate) type Reply = Result<Answer, Refusal>;

/// The request's body as `T` (unknown keys refused, as the server refuses them).
pub(crate) fn fields<T: serde::de::DeserializeOwned>(body: &Value) -> Result<T, Refusal> {
    let empty = json!({});
    let body = if body.is_null() { &empty } else { body };
    T::deserialize(body).map_err(|e| Refusal::Input(e.to_string()))
}
