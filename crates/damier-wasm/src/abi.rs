//! The module's exports and imports (no generated glue: `assets/worker.js` is the other side).
//!
//! The worker asks for an input buffer of the request's length ([`damier_input`]), writes the
//! request there (`{"path": "lights/solve", "body": {...}}`, UTF-8 JSON), calls
//! [`damier_call`], which answers the output's length, and reads that many bytes at
//! [`damier_output`] (the [`crate::Answer`] as JSON). The buffers are Rust's own vectors: no
//! pointer crosses into Rust. The imports (module `damier`) are the worker's clock, its
//! randomness and its progress messages.

use std::cell::RefCell;

use serde_json::Value;

use crate::answer::{Answer, Refusal};
use crate::{Host, Session};

#[link(wasm_import_module = "damier")]
unsafe extern "C" {
    /// `performance.now()`, in milliseconds.
    safe fn now_ms() -> f64;
    /// A random integer below 2^53 (from `crypto.getRandomValues`).
    safe fn random53() -> f64;
    /// Posts a progress message to the page.
    safe fn progress(done: f64, total: f64);
}

struct Browser;

impl Host for Browser {
    fn seconds(&self) -> f64 {
        now_ms() / 1000.0
    }

    fn seed(&self) -> u64 {
        // An integer below 2^53 by the import's contract; clamped all the same.
        random53().clamp(0.0, 9_007_199_254_740_991.0) as u64
    }

    fn progress(&self, done: u64, total: u64) {
        progress(done as f64, total as f64);
    }
}

thread_local! {
    static SESSION: RefCell<Session> = RefCell::new(Session::default());
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the next request; its address.
#[unsafe(no_mangle)]
pub extern "C" fn damier_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|v| {
        v.clear();
        v.resize(len, 0);
        v.as_mut_ptr()
    })
}

/// The worker's clock as the library takes it (its counts time their tasks).
fn now() -> f64 {
    now_ms()
}

/// Answers the request in the input buffer; the length of the answer at [`damier_output`].
#[unsafe(no_mangle)]
pub extern "C" fn damier_call() -> usize {
    damier::control::set_host_clock(now);
    let request = INPUT.with_borrow(|v| serde_json::from_slice::<Value>(v));
    let answer = match request {
        Ok(r) => match (r.get("path").and_then(Value::as_str), r.get("body")) {
            (Some(path), body) => {
                SESSION.with_borrow_mut(|s| crate::call_with(s, path, body.unwrap_or(&Value::Null), &Browser))
            }
            (None, _) => Answer::refused(Refusal::Input("the request has no path".into())),
        },
        Err(e) => Answer::refused(Refusal::Input(format!("the request is not JSON: {e}"))),
    };
    // An answer of plain JSON values always serializes; an empty one reads as a fault.
    let bytes = serde_json::to_vec(&answer).unwrap_or_default();
    OUTPUT.with_borrow_mut(|v| {
        *v = bytes;
        v.len()
    })
}

/// The address of the last answer.
#[unsafe(no_mangle)]
pub extern "C" fn damier_output() -> *const u8 {
    OUTPUT.with_borrow(|v| v.as_ptr())
}
