use serde_json::json;

use super::*;

fn parse(path: &str, body: Value) -> Result<Request, Refusal> {
    Request::parse(path, &body)
}

#[test]
fn fields_are_read_as_the_server_read_them() {
    // A number as a number or as a string of digits; null is "not given".
    let a = parse("queens/count", json!({"n": 8, "threads": "2", "share": null})).unwrap();
    let Request::QueensCount(c) = a else { panic!() };
    assert_eq!((c.n, c.threads, c.share), (8, Some(2), None));
    let Request::QueensCheck(c) = parse("queens/check", json!({"columns": [2, "-1", 3]})).unwrap() else {
        panic!()
    };
    assert_eq!(c.columns, ["2", "-1", "3"]);
    let Request::QueensCheck(c) = parse("queens/check", json!({"columns": 3})).unwrap() else { panic!() };
    assert_eq!(c.columns, ["3"]);
    let Request::QueensList(l) = parse("queens/list", json!({"n": 8, "unique": null, "all": false})).unwrap()
    else {
        panic!()
    };
    assert!(!l.unique && !l.all);
}

#[test]
fn bad_fields_are_refused_by_name() {
    let input = |path: &str, body: Value| match parse(path, body.clone()) {
        Err(Refusal::Input(m)) => m,
        other => panic!("{path} {body}: {other:?}"),
    };
    let m = input("queens/count", json!({"n": 8, "colour": "red"}));
    assert!(m.contains("unknown field `colour`") && m.contains("n, threads"), "{m}");
    assert!(input("queens/count", json!({"n": "eight"})).contains("eight"));
    assert!(input("queens/count", json!({"n": {"x": 1}})).contains("field `n`"));
    assert!(input("queens/count", json!({"n": [8, 9]})).contains("field `n`"));
    assert!(input("queens/count", json!({"n": true})).contains("field `n`"));
    assert!(input("queens/count", json!({"n": 8.5})).contains("field `n`"));
    assert!(input("queens/count", json!({"n": -5})).contains("field `n`"));
    assert!(input("queens/count", json!({"n": "--help"})).contains("--help"));
    assert!(input("queens/count", json!({})).contains("missing field `n`"));
    assert!(input("queens/count", json!([8])).contains("JSON object"));
    assert!(input("queens/count", json!({"n": 8, "journal": "/tmp/j"})).contains("writes a file"));
    for path in ["queens/first", "queens/list", "queens/solve"] {
        let m = input(path, json!({"n": 8, "columns": true}));
        assert!(m.contains("field `columns`") && m.contains("always answers JSON"), "{path}: {m}");
        let m = input(path, json!({"n": 8, "colour": 1}));
        assert!(!m.contains("columns"), "{path}: a refused field is not offered: {m}");
    }
    assert!(input("queens/check", json!({"columns": [1, [2]]})).contains("columns"));
    assert!(matches!(parse("queens/bench", json!({})), Err(Refusal::NotHere(_))));
}

#[test]
fn bounds_hold_unless_heavy() {
    let bound = |path: &str, body: Value| parse(path, body).unwrap().bound(false);
    assert!(bound("queens/count", json!({"n": 18})).is_ok());
    let e = bound("queens/count", json!({"n": 19})).unwrap_err();
    assert!(matches!(&e, Refusal::Bound(m) if m.contains("18")), "{e:?}");
    assert!(parse("queens/count", json!({"n": 19})).unwrap().bound(true).is_ok());
    assert!(bound("queens/count", json!({"n": 8, "threads": 65})).is_err());
    assert!(bound("queens/count", json!({"n": 8, "device": "gpu"})).is_err());
    assert!(bound("queens/count", json!({"n": 8, "device": "cpu"})).is_ok());
    assert!(bound("queens/list", json!({"n": 15})).is_err());
    assert!(bound("queens/list", json!({"n": 15, "limit": 10})).is_ok());
    assert!(bound("queens/list", json!({"n": 8, "all": true})).is_err());
    assert!(bound("queens/list", json!({"n": 8, "limit": 1_000_001})).is_err());
    assert!(bound("queens/solve", json!({"n": 1_000_001})).is_err());
    assert!(bound("queens/corners", json!({"n": 13})).is_err());
    assert!(bound("queens/estimate", json!({"n": 12, "samples": 5})).is_ok());
    assert!(bound("queens/estimate", json!({"n": 12, "samples": 1001})).is_err());
    let e = bound("queens/estimate", json!({"n": 25})).unwrap_err();
    assert!(matches!(&e, Refusal::Bound(m) if m.contains("samples") && m.contains("default")), "{e:?}");
    assert!(bound("queens/estimate", json!({"n": 25, "samples": 10})).is_err());
    assert!(bound("queens/estimate", json!({"n": 26, "samples": 10, "queries": 32768})).is_ok());
    assert!(bound("queens/estimate", json!({"n": 27, "samples": 10, "queries": 32768})).is_err());
}

/// The records' JSON, as `--json` prints it (pinned against the executable by the CLI's
/// tests; here the forms this crate writes by hand).
#[test]
fn records_write_the_command_lines_json() {
    let native = Native::default();
    let run_json = |path: &str, body: Value| {
        let r = run(&parse(path, body).unwrap(), &native).unwrap();
        (r.yes(), r.to_json())
    };
    let (yes, text) = run_json("queens/list", json!({"n": 4}));
    assert!(yes);
    assert_eq!(text, "[\n  {\"index\":1,\"columns\":[2,4,1,3]},\n  {\"index\":2,\"columns\":[3,1,4,2]}\n]\n");
    assert_eq!(run_json("queens/list", json!({"n": 3})), (false, "[]\n".to_string()));
    let (yes, text) = run_json("queens/solve", json!({"n": 4}));
    assert!(yes);
    assert!(text.starts_with("{\n  \"n\": 4,\n  \"method\": \"construct\",\n  \"seconds\": "), "{text}");
    assert!(text.ends_with("\"columns\": [2, 4, 1, 3]\n}\n"), "{text}");
    let solved: Value = serde_json::from_str(&text).unwrap();
    let r = run(&parse("queens/solve", json!({"n": 4})).unwrap(), &native).unwrap();
    let mut via_serde = serde_json::to_value(&r).unwrap();
    via_serde["seconds"] = solved["seconds"].clone();
    assert_eq!(via_serde, solved);
    let (yes, _) = run_json("queens/solve", json!({"n": 3}));
    assert!(!yes);
    // A seed for the construction: the library's refusal, as the CLI and Python give it.
    let seeded = run(&parse("queens/solve", json!({"n": 8, "seed": 3})).unwrap(), &native);
    assert!(
        matches!(&seeded, Err(Refusal::Input(m)) if m == "a seed applies to method local only (the construction has no randomness)"),
        "{seeded:?}"
    );
    let (yes, text) = run_json("queens/count", json!({"n": 8}));
    assert!(yes && text.contains("\"total\": 92"), "{text}");
    let (yes, _) = run_json("queens/check", json!({"columns": [1, 2]}));
    assert!(!yes);
}

/// The Lights Out bounds read what runs: every spelling of a size the commands accept (the
/// same parser), and the sides of a board given as content (the library's reader); a value
/// neither reads is the command's to refuse, with its message.
#[test]
fn lights_bounds_read_sizes_and_boards() {
    let bound = |path: &str, body: Value| parse(path, body).unwrap().bound(false);
    assert!(bound("lights/solve", json!({"random": "2000x2000"})).is_ok());
    assert!(bound("lights/solve", json!({"random": "2001x5"})).is_err());
    assert!(bound("lights/solve", json!({"all_on": "5x2001"})).is_err());
    assert!(bound("lights/kernel", json!({"size": "3000*5"})).is_err());
    assert!(bound("lights/kernel", json!({"size": " 5 × 3000 "})).is_err());
    assert!(bound("lights/table", json!({"to": 2001})).is_err());
    assert!(bound("lights/solve", json!({"random": "axb"})).is_ok());
    let mut pbm = b"P4\n2001 1\n".to_vec();
    pbm.extend(std::iter::repeat_n(0u8, 251));
    let pbm = String::from_utf8(pbm).unwrap();
    let e = bound("lights/solve", json!({ "file": pbm })).unwrap_err();
    assert!(matches!(&e, Refusal::Bound(m) if m.contains("2001x1")), "{e:?}");
    assert!(bound("lights/winnable", json!({"file": "101\n010\n", "target": pbm})).is_err());
    assert!(bound("lights/chase", json!({"file": "101\n010\n"})).is_ok());
    // Bad input is refused before the bounds, by name.
    let e = parse("lights/solve", json!({"file": ["01"]})).unwrap_err();
    assert!(matches!(&e, Refusal::Input(m) if m.contains("field `file`") && m.contains("content")), "{e:?}");
    let e = parse("lights/solve", json!({"random": "3x3", "out": "/tmp/x"})).unwrap_err();
    assert!(matches!(&e, Refusal::Input(m) if m.contains("writes a file")), "{e:?}");
    assert!(parse("lights/solve", json!({"file": "01", "random": "3x3"})).is_err());
    assert!(parse("lights/solve", json!({"file": "01", "min": true, "all": true})).is_err());
    assert!(parse("lights/table", json!({"to": 1})).is_err());
    let native = Native::default();
    let e = run(&parse("lights/solve", json!({"file": "01\n1x"})).unwrap(), &native).unwrap_err();
    assert!(matches!(&e, Refusal::Input(m) if m.starts_with("file: line 2")), "{e:?}");
}

/// Issue 49: the `winnable` draw (three boards) goes through the library's one bound
/// (`SolveRequest::check_start`, which counts them) and its fallible drawing: a largest board
/// of the bound is drawn winnable and solved.
#[test]
fn a_winnable_random_start_is_drawn_within_the_library_bound() {
    use damier::lights::request::{SolveRequest, Start};
    let size: damier::board::Size = "2000x2000".parse().unwrap();
    let request = SolveRequest {
        method: damier::lights::Method::Poly,
        target: false,
        all: false,
        min: false,
        explain: false,
    };
    assert_eq!(request.check_start(&Start::Random { size, seed: 1, winnable: true }), Ok(3 * size.bytes()));
    let r = json!({"random": "2000x2000", "winnable": true, "seed": 1, "summary": true});
    match run(&parse("lights/solve", r).unwrap(), &Native::default()) {
        Ok(Record::LightsSolve(s)) => assert!(s.solvable && s.seed == Some(1)),
        other => panic!("{other:?}"),
    }
}

/// Issue 49: a Lights Out request within the sides is checked by the library's own bound
/// before the job. Each refusal the run met part way (the elimination of a large board shown:
/// after the solve; a winnability test's kernel: after the solve) or at its start (a listing,
/// a basis to print) comes from `bound`, with the run's message, and the run
/// refuses the same at once; the memory the library counts (`SolveRequest::bytes`: the fewest
/// presses of 1983x1983 hold a basis of 630 MB and its squeezed copy) is refused beyond
/// `MEMORY_MAX_BYTES`, unless heavy.
#[test]
fn lights_requests_are_refused_by_what_they_hold_before_the_job() {
    use damier::lights::request::SolveRequest;
    let bound = |path: &str, body: Value| parse(path, body).unwrap().bound(false);
    let native = Native::default();
    let board = |w: usize, h: usize| format!("{}\n", "1".repeat(w)).repeat(h);
    for (path, body, what) in [
        (
            "lights/solve",
            json!({"all_on": "2000x2000", "explain": true}),
            "--explain shows the 4000000 x 4000000",
        ),
        ("lights/solve", json!({"random": "9x9", "explain": true, "min": true}), "boards up to 64 cells"),
        ("lights/solve", json!({"file": board(9, 9), "explain": true}), "--explain shows the 81 x 81"),
        ("lights/solve", json!({"all_on": "1999x1999", "all": true}), "nullity 64"),
        ("lights/winnable", json!({"file": board(1365, 1365)}), "nullity 264: the orthogonality test"),
        ("lights/kernel", json!({"size": "1999x1999"}), "too large to print"),
    ] {
        let e = bound(path, body.clone()).expect_err(what);
        assert!(matches!(&e, Refusal::Input(m) if m.contains(what)), "{path} {what}: {e:?}");
        assert_eq!(run(&parse(path, body).unwrap(), &native).unwrap_err(), e, "{path} {what}");
    }
    let size = "1983x1983".parse().unwrap();
    let min = SolveRequest { min: true, ..SolveRequest::default() };
    let (bytes, words) = (1_260_442_392, 8 * 31 * 1983);
    assert_eq!(min.bytes(size), Ok(bytes));
    assert_eq!(bytes, 2 * words + 1281 * words + 1280 * words, "start, presses; basis and board; its copy");
    let body = json!({"all_on": "1983x1983", "min": true});
    let e = bound("lights/solve", body.clone()).unwrap_err();
    assert_eq!(
        e,
        Refusal::Bound("this request holds 1.17 GB at most, above this server's bound of 512 MB".into())
    );
    assert!(parse("lights/solve", body).unwrap().bound(true).is_ok());
    for body in [
        json!({"all_on": "1365x1365", "min": true}),
        json!({"random": "2000x2000", "winnable": true}),
        json!({"all_on": "5x5", "all": true, "explain": true}),
        json!({"file": board(2000, 1), "target": board(2000, 1)}),
    ] {
        assert_eq!(bound("lights/solve", body.clone()), Ok(()), "{body}");
    }
    assert_eq!(bound("lights/winnable", json!({"file": board(2000, 2000)})), Ok(()));
    assert_eq!(bound("lights/chase", json!({"file": board(2000, 2000)})), Ok(()));
}

/// One random JSON value: numbers around and past the bounds, sizes, words, lists, objects.
fn any_value() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u64..40).prop_map(|n| json!(n)),
        (0u64..3000).prop_map(|n| json!(n)),
        (0u64..2_000_000_000).prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        prop::sample::select(vec![
            "5x5",
            "2000x2000",
            "2001x3",
            "3x3000",
            "1/4",
            "all",
            "cpu",
            "gpu",
            "local",
            "-5",
            "19",
            "0101\n1010\n",
            "--help",
            "P4\n2001 1\n",
            "0.5",
            "row",
            "patience",
            "NNES",
            ".1\n1.\n",
        ])
        .prop_map(|s| json!(s)),
        "[ -~]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(1, 6, 3, |inner| prop::collection::vec(inner, 0..3).prop_map(Value::Array))
}

/// The independent reading of the bounds, for the property (none of the bounds' code): the
/// largest value each bounded field may reach on a request that passed.
fn within_bounds(request: &Request) -> Result<(), String> {
    let side = |text: &Option<String>| {
        text.as_deref()
            .and_then(|t| t.parse::<damier::board::Size>().ok())
            .is_some_and(|s| s.width() > 2000 || s.height() > 2000)
    };
    let board = |text: &Option<String>| {
        text.as_deref()
            .and_then(|t| damier::board::read_board(t.as_bytes()).ok())
            .is_some_and(|b| b.width() > 2000 || b.height() > 2000)
    };
    let bad = match request {
        Request::QueensCount(r) => {
            r.n > 18 || r.threads.unwrap_or(1) > 64 || r.device.as_deref().is_some_and(|d| d != "cpu")
        }
        Request::QueensList(r) => {
            r.all
                || r.limit.unwrap_or(0) > 1_000_000
                || (r.limit.is_none() && r.random.is_none() && r.n > 14)
                || (r.random.is_some() && r.n > 1_000_000)
        }
        Request::QueensSolve(r) => r.n > 1_000_000,
        Request::QueensMax(r) => r.n > 1_000_000,
        Request::QueensCorners(r) => r.n > 12,
        Request::QueensEstimate(r) => {
            let samples = r.samples.unwrap_or(200);
            let queries = r.queries.as_deref().unwrap_or("all").parse::<u64>().ok();
            samples > 1000
                || r.n > 26
                || r.threads.unwrap_or(1) > 64
                || (r.n > 22 && (samples > 20 || queries.is_none_or(|q| q > 32_768)))
        }
        Request::LightsSolve(r) => side(&r.all_on) || side(&r.random) || board(&r.file) || board(&r.target),
        Request::LightsCount(r) | Request::LightsKernel(r) | Request::LightsChaseTable(r) => {
            side(&Some(r.size.clone()))
        }
        Request::LightsWinnable(r) => board(&Some(r.file.clone())) || board(&r.target),
        Request::LightsTable(r) => r.to.unwrap_or(39) > 2000,
        Request::LightsChase(r) => board(&Some(r.file.clone())),
        Request::QueensFirst(_) | Request::QueensCheck(_) | Request::WalkTable(_) => false,
        Request::WalkSolve(r) => r.rows > 2000 || r.cols > 2000,
        Request::WalkCount(walk::Count(r)) => r.rows > 2000 || r.cols > 2000,
        Request::WalkReplay(r) => r.rows > 2000 || r.cols > 2000,
        Request::AutomatonRun(r) => {
            let steps = r.max_steps.unwrap_or(10_000_000_000);
            let from = r.from.as_deref().and_then(|t| damier::automaton::text::parse_position(t).ok());
            r.n.unwrap_or(0) > 64
                || from.is_some_and(|(n, _)| n > 64)
                || r.device.as_deref().is_some_and(|d| d != "cpu")
                || r.gpu_adapter.is_some()
                || steps > 100_000_000
                || r.trace.is_some_and(|k| steps / k > 10_000)
        }
        Request::AutomatonTrap(r) => {
            r.samples.unwrap_or(20).saturating_mul(r.max_steps.unwrap_or(10_000_000)) > 1_000_000_000
        }
    };
    if bad { Err(format!("{request:?} is past a bound")) } else { Ok(()) }
}

/// A request: a path and an object of its own fields (each present or not), now and then
/// with an unknown one.
fn any_request() -> impl proptest::strategy::Strategy<Value = (&'static str, Value)> {
    use proptest::prelude::*;
    prop::sample::select(PATHS.to_vec()).prop_flat_map(|path| {
        let (fields, _) = Request::fields(path).unwrap();
        let mut each: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
            .iter()
            .map(|&f| prop::option::weighted(0.6, any_value().prop_map(move |v| (f.to_string(), v))).boxed())
            .collect();
        each.push(prop::option::weighted(0.05, any_value().prop_map(|v| ("colour".to_string(), v))).boxed());
        (Just(path), each).prop_map(|(p, kv)| (p, Value::Object(kv.into_iter().flatten().collect())))
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 4000, ..Default::default() })]

    /// Whatever the body, a request that parses and passes its bound is within the bounds, and
    /// a refusal is one line.
    #[test]
    fn any_body_is_parsed_and_bounded((path, body) in any_request()) {
        match Request::parse(path, &body).and_then(|r| r.bound(false).map(|()| r)) {
            Ok(r) => proptest::prop_assert_eq!(within_bounds(&r), Ok(()), "{}", body),
            Err(e) => proptest::prop_assert!(!e.to_string().contains('\n'), "{}: {:?}", body, e),
        }
    }
}

/// The engines' names read back through `FromStr` (the library's), as the requests read them.
#[test]
fn engine_names_round_trip() {
    use damier::queens::count::tasks::TaskEngine;
    for m in damier::lights::Method::ALL {
        assert_eq!(m.name().parse::<damier::lights::Method>(), Ok(m));
    }
    for e in TaskEngine::ALL {
        assert_eq!(e.name().parse::<TaskEngine>(), Ok(e));
    }
    for m in [damier::queens::solve::Method::Construct, damier::queens::solve::Method::Local] {
        assert_eq!(m.name().parse::<damier::queens::solve::Method>(), Ok(m));
    }
    assert!("fast".parse::<damier::lights::Method>().unwrap_err().contains("dense, chase or poly"));
    let e = parse("lights/solve", json!({"all_on": "3x3", "method": "fast"})).unwrap_err();
    assert!(matches!(&e, Refusal::Input(m) if m.contains("field `method`")), "{e:?}");
    let e = parse("queens/count", json!({"n": 8, "strategy": "fast"})).unwrap_err();
    assert!(matches!(&e, Refusal::Input(m) if m.contains("quarters or backtrack")), "{e:?}");
}

/// The walk's and the automaton's requests: read, bounded and answered as the command line
/// answers them (the bytes pinned against the executable by the CLI's web tests).
#[test]
fn walk_and_automaton_requests() {
    let native = Native::default();
    let answer = |path: &str, body: Value| {
        let r = parse(path, body).and_then(|r| r.bound(false).map(|()| r))?;
        run(&r, &native)
    };
    let solved = answer("walk/solve", json!({"rows": 4, "cols": 5})).unwrap();
    assert!(solved.yes());
    let text = solved.to_json();
    assert!(text.starts_with("{\n  \"rows\": 4,\n  \"cols\": 5,\n  \"solutions\": \"1\""), "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let path = v["path"].as_str().unwrap().to_string();
    // Its path replays all black, given as moves or as the JSON itself (a "from" content).
    let replayed = answer("walk/replay", json!({"rows": 4, "cols": 5, "moves": path})).unwrap();
    assert!(replayed.yes(), "{}", replayed.to_json());
    let from = answer("walk/replay", json!({"rows": 4, "cols": 5, "from": text})).unwrap();
    assert_eq!(from.to_json(), replayed.to_json());
    let e = answer("walk/replay", json!({"rows": 5, "cols": 4, "from": text})).unwrap_err();
    assert!(matches!(&e, Refusal::Input(m) if m.starts_with("from: the path is of a 4 x 5 board")), "{e:?}");
    let no = answer("walk/replay", json!({"rows": 2, "cols": 2, "moves": "NN"})).unwrap();
    assert!(!no.yes() && no.to_json().contains("\"left_board\": {"), "{}", no.to_json());
    for (body, what) in [
        (json!({"rows": 2, "cols": 2}), "give the moves"),
        (json!({"rows": 2, "cols": 2, "moves": "N", "from": "N"}), "not both"),
        (json!({"rows": 2, "cols": 2, "moves": "-"}), "standard input"),
        (json!({"rows": 2, "cols": 2, "moves": "NX"}), "field `from`"),
        (json!({"rows": 3, "cols": 3, "method": "quick"}), "brute, rows, fast or poly"),
        (json!({"rows": 3, "cols": 3, "pattern": "/tmp/p.txt"}), "writes a file"),
    ] {
        let path = if body.get("method").is_some() || body.get("pattern").is_some() {
            "walk/solve"
        } else {
            "walk/replay"
        };
        let e = answer(path, body.clone()).unwrap_err();
        assert!(matches!(&e, Refusal::Input(m) if m.contains(what)), "{body}: {e:?}");
    }
    assert!(matches!(answer("walk/count", json!({"rows": 2001, "cols": 1})), Err(Refusal::Bound(_))));
    assert!(matches!(answer("walk/table", json!({"to": 301})), Err(Refusal::Input(_))));
    // walk count reads walk solve's fields but `all`, refused by name as unknown; both tables
    // read `to` in their own range, with their own default.
    let e = answer("walk/count", json!({"rows": 2, "cols": 2, "all": true})).unwrap_err();
    assert_eq!(e, Refusal::Input("unknown field `all` for `walk count` (fields: rows, cols, method)".into()));
    let e = answer("walk/count", json!({"rows": 2, "cols": 2, "method": "quick"})).unwrap_err();
    assert!(matches!(&e, Refusal::Input(m) if m.contains("brute, rows, fast or poly")), "{e:?}");
    let e = answer("lights/table", json!({"to": 1})).unwrap_err();
    assert_eq!(e, Refusal::Input("field `to`: 1 is out of range: 2 to 100000 is supported".into()));
    let e = answer("walk/table", json!({"to": 0})).unwrap_err();
    assert_eq!(e, Refusal::Input("field `to`: 0 is out of range: 1 to 300 is supported".into()));
    assert_eq!(parse("walk/table", json!({})).unwrap(), Request::WalkTable(walk::Table { to: None }));
    // queens first: the library's check, with the command line's way to a solution past 64.
    let e = answer("queens/first", json!({"n": 65})).unwrap_err();
    assert_eq!(
        e,
        Refusal::Input(
            "n = 65 is too large for backtracking: at most 64 (`damier queens solve 65` constructs one)"
                .into()
        )
    );
    // n = 0 (no board) is refused alike by count and first; max answers R(0) = 0 (SPEC §1).
    for path in ["queens/count", "queens/first"] {
        assert_eq!(
            answer(path, json!({"n": 0})).unwrap_err(),
            Refusal::Input("n must be at least 1".into()),
            "{path}"
        );
    }
    let counted = answer("walk/count", json!({"rows": 5, "cols": 5})).unwrap();
    assert_eq!(
        counted.to_json(),
        "{\n  \"rows\": 5,\n  \"cols\": 5,\n  \"solutions\": \"4\",\n  \"nullity\": 2\n}\n"
    );

    // The automaton: the record names model 3's rule (issue 53), null for the other models.
    let row = answer(
        "automaton/run",
        json!({"model": "row", "n": 12, "seed": 1, "rule": "patience", "max_steps": 100000}),
    )
    .unwrap();
    let v: Value = serde_json::from_str(&row.to_json()).unwrap();
    assert_eq!((v["rule"].clone(), v["solved"].clone()), (json!("patience"), json!(row.yes())));
    let pair = answer("automaton/run", json!({"n": 6, "seed": 3, "max_steps": "1000000"})).unwrap();
    let v: Value = serde_json::from_str(&pair.to_json()).unwrap();
    assert!(v["rule"].is_null() && v["eta"].is_null() && pair.yes(), "{v}");
    let keys: Vec<String> = serde_json::from_str::<serde_json::Map<String, Value>>(&pair.to_json())
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys.len(), 13, "{keys:?}");
    // n = 3 has no solution: nothing is run, a "no" with the record of its start.
    let none = answer("automaton/run", json!({"n": 3, "seed": 1, "max_steps": 10})).unwrap();
    assert!(!none.yes() && none.to_json().contains("\"steps\": 0"));
    // A start position's content, and its bound.
    let from = answer("automaton/run", json!({"from": ".1\n1.\n", "seed": 1, "max_steps": 10})).unwrap();
    assert!(!from.yes());
    let big = format!("{}\n", ".".repeat(65)).repeat(65);
    let e = answer("automaton/run", json!({"from": big, "max_steps": 10})).unwrap_err();
    assert!(matches!(&e, Refusal::Bound(m) if m.contains("65 x 65")), "{e:?}");
    let e = answer("automaton/run", json!({"n": 6})).unwrap_err();
    assert!(matches!(&e, Refusal::Bound(m) if m.contains("default") && m.contains("max_steps")), "{e:?}");
    let e = answer("automaton/run", json!({"n": 8, "max_steps": 1000000, "trace": 1})).unwrap_err();
    assert!(matches!(&e, Refusal::Bound(m) if m.contains("boards")), "{e:?}");
    for (body, what) in [
        (json!({"n": 6, "eps": 2, "max_steps": 10}), "not a probability"),
        (json!({"n": 6, "eta": 0.25, "max_steps": 10}), "model 1 (pair)"),
        (json!({"n": 6, "rule": "patience", "max_steps": 10}), "model = row"),
        (json!({"n": 6, "rule": "kep", "max_steps": 10}), "patience"),
        (json!({"n": 6, "model": "queen", "max_steps": 10}), "field `model`"),
        (json!({"max_steps": 10}), "board side"),
        (json!({"n": 6, "checkpoint": "/tmp/c"}), "writes a file"),
    ] {
        let e = answer("automaton/run", body.clone()).unwrap_err();
        assert!(matches!(&e, Refusal::Input(m) if m.contains(what)), "{body}: {e:?}");
    }
    assert!(matches!(answer("automaton/run", json!({"n": 6, "device": "gpu"})), Err(Refusal::Bound(_))));
    let trap = answer("automaton/trap", json!({"figure": 1, "samples": 2, "max_steps": 10000})).unwrap();
    assert!(trap.yes() && trap.to_json().contains("\"figure\": 1"));
    assert!(matches!(answer("automaton/trap", json!({"figure": 3})), Err(Refusal::Input(_))));
    let e = answer("automaton/trap", json!({"figure": 1, "samples": 1000})).unwrap_err();
    assert!(matches!(&e, Refusal::Bound(m) if m.contains("samples x max_steps")), "{e:?}");
}
