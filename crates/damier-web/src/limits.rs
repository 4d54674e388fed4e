//! Per-request bounds on heavy jobs, checked before anything runs.
//!
//! The library's own checks (board sizes, `n` ranges) still apply in the command; these are the
//! server's tighter bounds so that one page cannot keep the machine busy for hours. They are
//! lifted by `damier serve --allow-heavy` (the time limit and the job count still hold).

use serde_json::Value;

/// Largest `n` counted (`queens count`): n = 18 takes seconds on two cores.
pub const COUNT_MAX_N: u64 = 18;
/// Largest `n` listed in full (`queens list` without `limit`); 365,596 solutions at 14.
pub const LIST_MAX_N: u64 = 14;
/// Most solutions listed with `limit`.
pub const LIST_MAX_LIMIT: u64 = 1_000_000;
/// Largest `n` for the construction and R(n) (the answer is `n` numbers).
pub const SOLVE_MAX_N: u64 = 1_000_000;
/// Largest `n` for the corner exercises (they list the solutions of n + 1).
pub const CORNERS_MAX_N: u64 = 12;
/// Largest automaton side.
pub const AUTOMATON_MAX_N: u64 = 64;
/// Most automaton updates of one run.
pub const AUTOMATON_MAX_STEPS: u64 = 100_000_000;
/// Largest board side for Lights Out and the walk.
pub const BOARD_MAX_SIDE: u64 = 2000;
/// Most worker threads one request may ask for (`threads` of the counters).
pub const MAX_THREADS: u64 = 64;

/// Refuses `fields` for `group command` when they exceed the bounds above; the message names
/// the bound.
pub fn check(group: &str, command: &str, fields: &Value) -> Result<(), String> {
    let number = |key: &str| fields.get(key).and_then(number_of);
    let at_most = |key: &str, max: u64, why: &str| match number(key) {
        Some(v) if v > max => Err(format!("{key} = {v} is above {max}, this server's bound {why}")),
        _ => Ok(()),
    };
    let heavy = "(start the server with --allow-heavy for more)";
    at_most("threads", MAX_THREADS, heavy)?;
    match (group, command) {
        ("queens", "count") => at_most("n", COUNT_MAX_N, heavy)?,
        ("queens", "list") => {
            if fields.get("all").is_some_and(|v| v == &Value::Bool(true)) {
                return Err(format!("all = true lists millions of solutions {heavy}"));
            }
            at_most("limit", LIST_MAX_LIMIT, heavy)?;
            if number("limit").is_none() {
                at_most(
                    "n",
                    LIST_MAX_N,
                    "for a full list (give a limit, or start the server with --allow-heavy)",
                )?;
            }
        }
        ("queens", "solve" | "max") => at_most("n", SOLVE_MAX_N, heavy)?,
        ("queens", "corners") => at_most("n", CORNERS_MAX_N, heavy)?,
        ("automaton", "run") => {
            at_most("n", AUTOMATON_MAX_N, heavy)?;
            at_most("max_steps", AUTOMATON_MAX_STEPS, heavy)?;
        }
        ("lights", _) => {
            at_most("to", BOARD_MAX_SIDE, heavy)?;
            for key in ["size", "all_on", "random"] {
                if let Some(Value::String(s)) = fields.get(key) {
                    check_size(key, s)?;
                }
            }
        }
        ("walk", _) => {
            for key in ["rows", "cols"] {
                at_most(key, BOARD_MAX_SIDE, heavy)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A `WxH` value within [`BOARD_MAX_SIDE`], read by the commands' own parser
/// ([`damier::board::Size`]); one it refuses is left to the command, which says why.
fn check_size(key: &str, s: &str) -> Result<(), String> {
    let Ok(size) = s.parse::<damier::board::Size>() else { return Ok(()) };
    if size.width() as u64 > BOARD_MAX_SIDE || size.height() as u64 > BOARD_MAX_SIDE {
        return Err(format!(
            "{key} = {s}: sides above {BOARD_MAX_SIDE} are beyond this server's bound \
             (start the server with --allow-heavy for more)"
        ));
    }
    Ok(())
}

/// A JSON number or a numeric string, as an unsigned integer (others are left to the command).
fn number_of(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bounds_hold_and_name_the_limit() {
        assert!(check("queens", "count", &json!({"n": 18})).is_ok());
        let e = check("queens", "count", &json!({"n": 19})).unwrap_err();
        assert!(e.contains("18") && e.contains("--allow-heavy"), "{e}");
        assert!(check("queens", "count", &json!({"n": "25"})).is_err());
        assert!(check("queens", "count", &json!({"n": 8, "threads": 65})).is_err());
        assert!(check("queens", "count", &json!({"n": 8, "threads": 2})).is_ok());
        assert!(check("queens", "list", &json!({"n": 15})).is_err());
        assert!(check("queens", "list", &json!({"n": 15, "limit": 10})).is_ok());
        assert!(check("queens", "list", &json!({"n": 8, "all": true})).is_err());
        assert!(check("lights", "solve", &json!({"random": "2000x2000"})).is_ok());
        assert!(check("lights", "solve", &json!({"random": "2001x5"})).is_err());
        assert!(check("lights", "kernel", &json!({"size": "5X3000"})).is_err());
        // Every spelling the commands accept is bounded (the same parser).
        assert!(check("lights", "kernel", &json!({"size": "3000*5"})).is_err());
        assert!(check("lights", "kernel", &json!({"size": " 5 × 3000 "})).is_err());
        assert!(check("walk", "solve", &json!({"rows": 3, "cols": 2001})).is_err());
        assert!(check("automaton", "run", &json!({"n": 65})).is_err());
        // Malformed values are the command's to refuse, with its own message.
        assert!(check("lights", "solve", &json!({"random": "axb"})).is_ok());
    }
}
