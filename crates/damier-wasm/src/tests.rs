//! The answers of the browser's build, natively: the same keys and values as the CLI's JSON
//! (the browser tests compare them with the CLI itself: crates/damier-cli/tests/web/).

use serde_json::json;

use super::*;

fn ask(session: &mut Session, path: &str, body: Value) -> Answer {
    call(session, path, &body)
}

#[test]
fn lights_fewest_presses_switch_the_board_off() {
    let mut s = Session::default();
    let a =
        ask(&mut s, "lights/solve", json!({ "file": "11000\n10000\n00000\n00000\n00000\n", "min": true }));
    assert_eq!((a.status, a.exit), (200, 0), "{a:?}");
    assert_eq!(a.body["press_count"], 1);
    assert_eq!(a.body["presses"][0], "10000");
    assert_eq!(a.body["exact_min"], true);
    let keys: Vec<&str> = a.body.as_object().unwrap().keys().map(String::as_str).collect();
    for k in ["width", "height", "nullity", "solvable", "solutions", "presses", "press_count", "seconds"] {
        assert!(keys.contains(&k), "{k} missing from {keys:?}");
    }
    // A board that cannot be switched off is a "no" (exit 1), with its JSON.
    let a = ask(&mut s, "lights/solve", json!({ "file": "10000\n00000\n00000\n00000\n00000\n" }));
    assert_eq!((a.status, a.exit, a.body["solvable"].clone()), (200, 1, json!(false)));
}

#[test]
fn lights_kernel_and_chase() {
    let mut s = Session::default();
    let a = ask(&mut s, "lights/kernel", json!({ "size": "5x5" }));
    assert_eq!((a.status, a.body["nullity"].clone()), (200, json!(2)));
    assert_eq!(a.body["basis"].as_array().unwrap().len(), 2);
    let a = ask(&mut s, "lights/chase", json!({ "file": "010\n111\n010\n" }));
    assert_eq!(a.status, 200, "{a:?}");
    assert_eq!(a.body["solvable"], true);
}

#[test]
fn queens_check_list_count() {
    let mut s = Session::default();
    let a = ask(&mut s, "queens/check", json!({ "columns": [1, 2, 3, 4] }));
    assert_eq!((a.status, a.exit, a.body["valid"].clone()), (200, 1, json!(false)));
    assert!(!a.body["attacks"].as_array().unwrap().is_empty());
    let a = ask(&mut s, "queens/list", json!({ "n": 6, "no_boards": true }));
    assert_eq!(a.body.as_array().unwrap().len(), 4);
    let a = ask(&mut s, "queens/list", json!({ "n": 8, "unique": true }));
    assert_eq!(a.body.as_array().unwrap().len(), 12);
    let a = ask(&mut s, "queens/count", json!({ "n": 10 }));
    assert_eq!((a.body["total"].clone(), a.body["unique"].clone()), (json!(724), json!(92)));
    // Each side of the engines' boundary: the backtracker, then the quarter-board engine.
    let a = ask(&mut s, "queens/count", json!({ "n": 13 }));
    assert_eq!((a.body["total"].clone(), a.body["unique"].clone()), (json!(73712), json!(9233)));
    let a = ask(&mut s, "queens/count", json!({ "n": 14 }));
    assert_eq!((a.body["total"].clone(), a.body["unique"].clone()), (json!(365596), json!(45752)));
    let a = ask(&mut s, "queens/count", json!({ "n": 3 }));
    assert_eq!((a.exit, a.body["total"].clone()), (1, json!(0)));
}

#[test]
fn live_automaton_and_walk() {
    let mut s = Session::default();
    let f = ask(&mut s, "live/automaton", json!({ "model": "pair", "n": 6, "seed": 7 }));
    assert_eq!(f.status, 200, "{f:?}");
    let id = f.body["id"].as_u64().unwrap();
    let mut last = f;
    for _ in 0..10_000 {
        last = ask(&mut s, &format!("live/automaton/{id}/step"), json!({ "updates": 1000 }));
        if last.body["solved"] == true {
            break;
        }
    }
    assert_eq!(last.body["solved"], true);
    // The same seed, the same run as the library's (and so as `damier automaton run`).
    let params = damier::automaton::Params::new(damier::automaton::Model::Pair, 6).unwrap();
    let mut whole = damier::automaton::Automaton::from_seed(&params, 7).unwrap();
    whole.run_steps(u64::MAX);
    assert_eq!(last.body["steps"], whole.steps());
    let models = ask(&mut s, "live/automaton/models", json!({}));
    assert!(models.body.as_array().unwrap().len() >= 3);
    // Above 64 cells a side, the frame carries blocks, as the server's.
    let f = ask(&mut s, "live/automaton", json!({ "model": "row", "n": 512, "seed": 1 }));
    assert_eq!(f.status, 200, "{f:?}");
    assert_eq!(
        (f.body["blocks"]["side"].clone(), f.body["blocks"]["across"].clone()),
        (json!(4), json!(128))
    );
    assert_eq!(
        f.body["conflicts"].as_u64(),
        Some(u64::from(
            damier::automaton::Automaton::from_seed(
                &damier::automaton::Params::new(damier::automaton::Model::Row, 512).unwrap(),
                1
            )
            .unwrap()
            .conflicts()
        ))
    );
    let p = ask(&mut s, "live/walk/plan", json!({ "rows": 3, "cols": 3, "moves": "" }));
    assert_eq!(p.status, 200, "{p:?}");
    let plan = p.body["plan"].as_str().unwrap().to_string();
    let done = ask(&mut s, "live/walk/plan", json!({ "rows": 3, "cols": 3, "moves": plan }));
    assert_eq!(done.body["solved"], true);
}

#[test]
fn refusals_say_why_in_one_line() {
    let mut s = Session::default();
    let a = ask(&mut s, "factor/run", json!({}));
    assert_eq!(a.status, 404);
    assert!(a.body["error"].as_str().unwrap().contains("damier serve"));
    let a = ask(&mut s, "queens/count", json!({ "n": 19 }));
    assert_eq!(a.status, 422);
    let a = ask(&mut s, "lights/solve", json!({ "file": "01\n10\n", "bogus": 1 }));
    assert_eq!(a.status, 400);
    let a = ask(&mut s, "live/automaton/99/step", json!({ "updates": 1 }));
    assert_eq!(a.status, 404);
    let a = ask(&mut s, "live/automaton", json!({ "n": 65 }));
    assert_eq!(a.status, 422);
    assert!(!a.body["error"].as_str().unwrap().contains('\n'));
    // Model 3 runs up to 2048, as on the server.
    let a = ask(&mut s, "live/automaton", json!({ "model": "row", "n": 2049 }));
    assert_eq!(a.status, 422);
    assert!(a.body["error"].as_str().unwrap().contains("above 2048"), "{a:?}");
}

#[test]
fn every_listed_path_is_answered_here() {
    let mut s = Session::default();
    for path in paths() {
        let a = ask(&mut s, &path.replace("{id}", "1"), json!({}));
        // Refused for its missing fields (or the unknown run), never as not answered here.
        assert!(!a.body.to_string().contains(NOT_HERE), "{path}: {a:?}");
    }
}

#[test]
fn live_factoring_and_huge_boards() {
    let mut s = Session::default();
    let f = ask(&mut s, "live/factor", json!({ "n": "143", "seed": 3 }));
    assert_eq!(f.status, 200, "{f:?}");
    let id = f.body["id"].as_u64().unwrap();
    let mut last = f;
    for _ in 0..1000 {
        last = ask(&mut s, &format!("live/factor/{id}/step"), json!({ "updates": 100_000 }));
        if last.body["factors"].is_array() {
            break;
        }
    }
    let factors = last.body["factors"].as_array().expect("143 factored").clone();
    let factor = |i: usize| factors[i].as_str().unwrap().parse::<u64>().unwrap();
    assert_eq!(factor(0) * factor(1), 143);
    let b = ask(&mut s, "live/lights/solve", json!({ "start": "random", "size": "300x200", "seed": 5 }));
    assert_eq!(
        (b.status, b.body["width"].clone(), b.body["seed"].clone()),
        (200, json!(300), json!(5)),
        "{b:?}"
    );
    assert_eq!(b.body["solvable"], true);
    let b = ask(&mut s, "live/lights/solve", json!({ "start": "all_on", "size": "2001x2" }));
    assert_eq!(b.status, 422);
}

/// `queens solve`: local search answers the library's solution for the seed (the CLI's, which
/// calls the same function), valid; the construction; the "no"
/// answers and the refusals. (The browser's build answered 404 before: the huge-boards page
/// needed the server for its queens.)
#[test]
fn queens_solve_by_local_search_and_construction() {
    let mut s = Session::default();
    let a = ask(&mut s, "queens/solve", json!({ "n": 20_000, "method": "local", "seed": 7 }));
    assert_eq!((a.status, a.exit), (200, 0), "{:?}", a.body.get("error"));
    assert_eq!(
        (a.body["n"].clone(), a.body["method"].clone(), a.body["seed"].clone()),
        (json!(20_000), json!("local"), json!(7))
    );
    assert!(a.body["search"]["greedy_rows"].is_u64());
    let cols: Vec<u64> = a.body["columns"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    let library = damier::queens::local::solve(20_000, 7, &damier::control::Control::new()).unwrap();
    let expected: Vec<u64> = library.placement.columns().iter().map(|&c| u64::from(c) + 1).collect();
    assert_eq!(cols, expected);
    assert!(non_attacking(&cols));
    let c = ask(&mut s, "queens/solve", json!({ "n": 1000 }));
    assert_eq!((c.status, c.body["method"].clone(), c.body.get("seed")), (200, json!("construct"), None));
    let cols: Vec<u64> = c.body["columns"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    assert!(cols.len() == 1000 && non_attacking(&cols));
    // A seed drawn by the host when the page gives none, and said.
    let d = ask(&mut s, "queens/solve", json!({ "n": 50, "method": "local" }));
    assert!(d.body["seed"].is_u64(), "{d:?}");
    let none = ask(&mut s, "queens/solve", json!({ "n": 3, "method": "local", "seed": 1 }));
    assert_eq!((none.status, none.exit, none.body["columns"].clone()), (200, 1, Value::Null));
    for (body, status) in [
        (json!({ "n": 0 }), 400),
        (json!({ "n": 10, "seed": 1 }), 400),
        (json!({ "n": 10, "method": "guess" }), 400),
        (json!({ "n": 1_000_001, "method": "local", "seed": 1 }), 422),
        (json!({ "n": -5 }), 400),
    ] {
        let a = ask(&mut s, "queens/solve", body.clone());
        assert_eq!((a.status, a.exit), (status, 2), "{body}: {a:?}");
        assert!(!a.body["error"].as_str().unwrap().contains('\n'));
    }
}

/// 1-based columns of a valid placement, by the library's checker (the browser test checks the
/// page's with one of its own).
fn non_attacking(cols: &[u64]) -> bool {
    let zero_based = cols.iter().map(|&c| u32::try_from(c.wrapping_sub(1)).unwrap_or(u32::MAX)).collect();
    damier::queens::Placement::new(zero_based).is_ok_and(|p| p.is_valid())
}

/// `v` without its `seconds` keys, at any depth (timings differ between runs).
fn without_seconds(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter().filter(|(k, _)| *k != "seconds").map(|(k, x)| (k.clone(), without_seconds(x))).collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_seconds).collect()),
        other => other.clone(),
    }
}

/// The browser's answers equal the command line's `--json` (and its exit code), recorded in
/// `tests/data/cli_answers.json` (each case: the request, the command's arguments with `@file`
/// for a board file holding the body's `file`, the exit code and the JSON); the CLI's web tests check that the executable still prints
/// exactly what that file holds (crates/damier-cli/tests/web/api.rs), so both ends are pinned
/// to the same answers.
#[test]
fn the_browsers_answers_are_the_command_lines() {
    let cases: Vec<Value> = serde_json::from_str(include_str!("../tests/data/cli_answers.json")).unwrap();
    assert!(cases.len() >= 10);
    let mut s = Session::default();
    for case in &cases {
        let path = case["path"].as_str().unwrap();
        let a = ask(&mut s, path, case["body"].clone());
        assert_eq!((a.status, u64::from(a.exit)), (200, case["exit"].as_u64().unwrap()), "{path}: {a:?}");
        assert_eq!(without_seconds(&a.body), without_seconds(&case["json"]), "{path} {}", case["body"]);
    }
}

/// Every command of the request layer that needs no threads is answered in the browser: 20 of
/// the 21 served commands (all but `queens estimate`).
#[test]
fn the_request_layers_commands_are_listed() {
    for path in damier_api::PATHS {
        let listed = paths().contains(path);
        assert_eq!(listed, !damier_api::NEEDS_THREADS.contains(path), "{path}");
    }
    assert_eq!((damier_api::PATHS.len(), paths().len() - LIVE_PATHS.len()), (21, 20));
    let a = ask(&mut Session::default(), "queens/estimate", json!({ "n": 12 }));
    assert_eq!(a.status, 404, "{a:?}");
}
