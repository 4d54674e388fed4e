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

    /// The refusal as the server answers it: its status, exit 2, the message as the body's
    /// `error` (a "no" without a record and a fault are a bad request here: the browser has
    /// no job process whose exit code would tell them apart).
    pub(crate) fn refused(r: Refusal) -> Answer {
        let (status, message) = match r {
            Refusal::Input(m) | Refusal::No(m) | Refusal::Fault(m) => (400, m),
            Refusal::Bound(m) => (422, m),
            Refusal::NotHere(m) => (404, m),
        };
        Answer { status, exit: 2, body: json!({ "error": message }) }
    }
}

/// Why a request is refused: the request layer's refusal, for the live views too.
pub(crate) use damier_api::Refusal;

pub(crate) type Reply = Result<Answer, Refusal>;

/// The request's body as `T` (unknown keys refused, as the server refuses them).
pub(crate) fn fields<T: serde::de::DeserializeOwned>(body: &Value) -> Result<T, Refusal> {
    let empty = json!({});
    let body = if body.is_null() { &empty } else { body };
    T::deserialize(body).map_err(|e| Refusal::Input(e.to_string()))
}
