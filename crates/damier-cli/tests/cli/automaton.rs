//! CLI tests of `damier automaton`.
use super::util::{damier, fails_with, json, quiet_on_closed_pipe};

fn check_placement(n: usize, cols: &[usize]) -> bool {
    // Independent checker, 1-based columns per row.
    cols.len() == n
        && cols.iter().all(|&c| (1..=n).contains(&c))
        && (0..n).all(|i| (i + 1..n).all(|j| cols[i] != cols[j] && cols[i].abs_diff(cols[j]) != j - i))
}

#[test]
fn run_json_has_the_contract_keys_and_a_valid_placement() {
    for model in ["pair", "cell", "row"] {
        let v = json(&["automaton", "run", "--model", model, "-n", "6", "--seed", "7", "--json"]);
        for key in ["model", "n", "eps", "eta", "seed", "steps", "moves", "solved", "absorbing", "placement"]
        {
            assert!(v.get(key).is_some(), "missing {key}: {v}");
        }
        assert_eq!(v["model"], model);
        assert_eq!(v["n"], 6);
        assert_eq!(v["seed"], 7);
        assert_eq!(v["eps"], 0.01);
        assert_eq!(v["solved"], true);
        let cols: Vec<usize> =
            v["placement"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap() as usize).collect();
        assert!(check_placement(6, &cols), "{v}");
        // Same seed, same run.
        let w = json(&["automaton", "run", "--model", model, "-n", "6", "--seed", "7", "--json"]);
        assert_eq!((v["steps"].clone(), v["moves"].clone()), (w["steps"].clone(), w["moves"].clone()));
    }
}

#[test]
fn run_without_solution_exits_1_at_the_cap() {
    let out = damier()
        .args(["automaton", "run", "-n", "6", "--max-steps", "10", "--seed", "1", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solved"], false);
    assert_eq!(v["steps"], 10);
    assert!(v["placement"].is_null());
}

#[test]
fn run_from_a_file_and_trace() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("start.txt");
    std::fs::write(&f, "# two queens share a cell\n2...\n....\n1...\n...1\n").unwrap();
    let out = damier()
        .args(["automaton", "run", "--from", f.to_str().unwrap(), "--seed", "3", "--trace", "1000"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("step 0 moves 0"), "{text}");
    assert!(text.contains("solved at step"), "{text}");
    // The first picture: 3 text lines per row, the doubled cell shows "2".
    let first: Vec<&str> = text.lines().skip(2).take(12).collect();
    assert_eq!(first.len(), 12);
    assert!(first[1].starts_with(" 2 "), "{first:?}");
    // A solved start is reported at step 0.
    std::fs::write(&f, ".1..\n...1\n1...\n..1.\n").unwrap();
    let v = json(&["automaton", "run", "--from", f.to_str().unwrap(), "--json"]);
    assert_eq!((v["steps"].as_u64(), v["solved"].as_bool()), (Some(0), Some(true)));
    assert_eq!(v["placement"], serde_json::json!([2, 4, 1, 3]));
}

#[test]
fn sweep_writes_csv_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg) = (dir.path().join("s.csv"), dir.path().join("s.svg"));
    let v = json(&[
        "automaton",
        "sweep",
        "--model",
        "pair",
        "-n",
        "5",
        "--eps",
        "0.01,0.1",
        "--samples",
        "4",
        "--seed",
        "2",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["points"].as_array().unwrap().len(), 2);
    assert_eq!(v["points"][0]["summary"]["runs"], 4);
    let body = std::fs::read_to_string(&csv).unwrap();
    assert!(body.starts_with("eps,runs,solved,censored,mean_steps"));
    assert_eq!(body.lines().count(), 3);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

#[test]
fn scale_reports_censored_runs() {
    let v = json(&[
        "automaton",
        "scale",
        "--model",
        "pair,cell",
        "-n",
        "3..5",
        "--samples",
        "3",
        "--seed",
        "4",
        "--max-steps",
        "200000",
        "--json",
    ]);
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 6);
    // n = 3 has no solution: every run censored, none dropped.
    let three = pts.iter().find(|p| p["n"] == 3 && p["model"] == "pair").unwrap();
    assert_eq!(
        (three["summary"]["runs"].as_u64(), three["summary"]["censored"].as_u64()),
        (Some(3), Some(3))
    );
    let inv = v["inverse_density"].as_array().unwrap();
    // 1/d at n = 4: C(16, 4) / 2 = 910.
    assert_eq!(inv[0][0], 4);
    assert!((inv[0][1].as_f64().unwrap() - 910.0).abs() < 1e-6);
}

/// 1/d comes from the known number of solutions (OEIS A000170), so it is there at n = 20 at
/// once, and past the last known term (n = 27) it is said to be unknown, never projected.
#[test]
fn scale_has_1_over_d_up_to_27_and_says_unknown_beyond() {
    let args = ["automaton", "scale", "--model", "pair", "-n", "20,27,28", "--samples", "1", "--seed", "1"];
    let capped = [&args[..], &["--max-steps", "1000"]].concat();
    let v = json(&[&capped[..], &["--json"]].concat());
    let inv = v["inverse_density"].as_array().unwrap();
    assert_eq!(inv.len(), 2, "{v}");
    // C(400, 20) / q(20), q(20) = 39 029 188 884; C(400, 20) = 2.788e33 (exact integers).
    let binomial = |m: u128, k: u128| (0..k).fold(1u128, |c, i| c * (m - i) / (i + 1));
    let expected = binomial(400, 20) as f64 / 39_029_188_884.0;
    assert_eq!(inv[0][0], 20);
    assert!((inv[0][1].as_f64().unwrap() / expected - 1.0).abs() < 1e-9, "{v}");
    assert_eq!(inv[1][0], 27);
    let text = damier().args(&capped).output().unwrap();
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    let row = |n: &str| text.lines().find(|l| l.split_whitespace().nth(1) == Some(n)).unwrap().to_string();
    assert!(row("28").contains("unknown") && !row("20").contains("unknown"), "{text}");
    assert!(row("20").contains("7.14e22"), "{text}");
    // Left out on request: no size claims an unknown 1/d.
    let left_out = damier().args([&capped[..], &["--no-density"]].concat()).output().unwrap();
    assert!(!String::from_utf8(left_out.stdout).unwrap().contains("unknown"));
}

#[test]
fn trap_figures() {
    let v =
        json(&["automaton", "trap", "--figure", "1", "--samples", "3", "--max-steps", "200000", "--json"]);
    let cases = v["cases"].as_array().unwrap();
    assert_eq!(cases[0]["eps"], 0.0);
    assert_eq!(cases[0]["summary"]["solved"], 0);
    assert_eq!(cases[1]["summary"]["solved"], 3);
    let v =
        json(&["automaton", "trap", "--figure", "7", "--samples", "3", "--max-steps", "2000000", "--json"]);
    let cases = v["cases"].as_array().unwrap();
    assert_eq!((cases[0]["eta"].as_f64(), cases[0]["ideal_signals"].as_bool()), (Some(0.0), Some(true)));
    assert_eq!(cases[0]["summary"]["solved"], 0);
    assert_eq!(cases[1]["ideal_signals"], false);
    assert_eq!(cases[2]["summary"]["solved"], 3);
}

#[test]
fn bench_prints_a_table() {
    let v = json(&["automaton", "bench", "-n", "5", "--seconds", "0.02", "--json"]);
    assert!(v.as_array().unwrap().len() >= 2);
    assert!(v[0]["updates_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "..\n.x\n").unwrap();
    let err = fails_with(&["automaton", "run", "--from", bad.to_str().unwrap()], 2);
    assert!(err.contains("line 2, column 2"), "{err}");
    std::fs::write(&bad, "1..\n...\n...\n").unwrap();
    let err = fails_with(&["automaton", "run", "--from", bad.to_str().unwrap()], 2);
    assert!(err.contains("exactly 3"), "{err}");
    // Model 3 keeps one queen per row.
    std::fs::write(&bad, "11.\n...\n..1\n").unwrap();
    let err = fails_with(&["automaton", "run", "--model", "row", "--from", bad.to_str().unwrap()], 2);
    assert!(err.contains("row 0 holds 2"), "{err}");
    for args in [
        &["automaton", "run", "-n", "8", "--eps", "1.5"][..],
        &["automaton", "run", "-n", "8", "--eta", "-0.1"],
        &["automaton", "run", "-n", "8", "--eps", "nan"],
        &["automaton", "run", "-n", "8", "--model", "row", "--eps", "0"],
        &["automaton", "run", "-n", "0"],
        &["automaton", "run", "-n", "100000"],
        &["automaton", "run"],
        &["automaton", "run", "--from", "/nonexistent/file"],
        &["automaton", "run", "-n", "8", "--model", "triple"],
        &["automaton", "sweep", "--eps", ""],
        &["automaton", "sweep", "--eps", "0.1,2"],
        &["automaton", "sweep", "--model", "cell", "--eta", "1.5"],
        &["automaton", "sweep", "--plot", "x.txt"],
        &["automaton", "scale", "-n", "9..4"],
        &["automaton", "scale", "-n", "4..x"],
        &["automaton", "scale", "-n", "4..99999"],
        &["automaton", "scale", "--budget", "-1"],
        &["automaton", "trap", "--figure", "3"],
        &["automaton", "bench", "-n", "0"],
    ] {
        let err = fails_with(args, 2);
        assert_eq!(err.trim().lines().count().min(1), 1, "{args:?}: {err}");
    }
}

#[test]
fn automaton_commands_exit_quietly_on_a_closed_pipe() {
    quiet_on_closed_pipe(&["automaton", "run", "--model", "pair", "-n", "6", "--seed", "1"]);
    quiet_on_closed_pipe(&["automaton", "run", "--model", "pair", "-n", "6", "--seed", "1", "--json"]);
}

/// η given to a command whose models all ignore it (model 3, and model 1) is bad input, in
/// every command that runs the automaton: one line naming the models, exit 2, before anything
/// runs. With model 2 among the models it applies to model 2, and the reports give η only
/// where a model used it.
#[test]
fn eta_is_refused_for_the_models_that_ignore_it() {
    const QUICK: [&str; 6] = ["--samples", "2", "--seed", "1", "--max-steps", "100000"];
    type Args = Vec<&'static str>;
    fn sweep(more: &[&'static str]) -> Args {
        [&["automaton", "sweep", "-n", "5", "--eps", "0.1"][..], more, &QUICK].concat()
    }
    fn scale(more: &[&'static str]) -> Args {
        [&["automaton", "scale", "-n", "5"][..], more, &QUICK].concat()
    }
    fn run(more: &[&'static str]) -> Args {
        [&["automaton", "run", "-n", "6", "--seed", "1"][..], more].concat()
    }
    // Small sides for the models of `--model` only: growth refuses the sides of a model it
    // does not run.
    fn growth(more: &[&'static str]) -> Args {
        let models = more.iter().position(|&a| a == "--model").map_or("", |i| more[i + 1]);
        let sides = [("pair", "--pair-n", "5"), ("cell", "--cell-n", "5"), ("row", "--row-n", "6")];
        let small = sides.iter().filter(|(m, ..)| models.contains(m)).flat_map(|&(_, o, n)| [o, n]);
        let rest = ["--local-n", "", "--samples", "3"];
        [&["automaton", "growth", "--resamples", "20"][..], &small.collect::<Vec<_>>(), &rest, more].concat()
    }
    let (one, two) = ("model 1 (pair) does not", "model 1 (pair) and model 3 (row) do not");
    for (args, named) in [
        (sweep(&["--model", "row", "--eta", "0.1"]), "model 3 (row) does not"),
        (sweep(&["--model", "pair", "--eta", "0.1"]), one),
        (scale(&["--model", "row", "--eta", "0.1"]), "model 3 (row) does not"),
        (scale(&["--model", "pair,row", "--eta", "0.1"]), two),
        // Model 1 is run's default.
        (run(&["--eta", "0.1"]), one),
        (run(&["--model", "row", "--eta", "0.1"]), "model 3 (row) does not"),
        (growth(&["--model", "pair,row", "--eta", "0.1"]), two),
        (growth(&["--model", "pair", "--eta", "0.1"]), one),
        // Model 1 is watch's default; refused before the terminal is looked for.
        (vec!["watch", "--eta", "0.1"], one),
        (vec!["watch", "--model", "row", "--eta", "0.1"], "model 3 (row) does not"),
    ] {
        let err = fails_with(&args, 2);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("eta = 0.1 is refused") && err.contains(named) && err.contains("use η"),
            "{err}"
        );
        assert!(err.contains("only model 2 (cell) does"), "{err}");
    }
    // Model 2 among the models: η applies to it, and the report says so.
    let eta = |args: Vec<&str>| json(&[&args[..], &["--json"]].concat())["eta"].clone();
    assert_eq!(eta(scale(&["--model", "row,cell", "--eta", "0.1"])), 0.1);
    assert_eq!(eta(sweep(&["--model", "cell", "--eta", "0.2"])), 0.2);
    assert_eq!(eta(run(&["--model", "cell", "--eta", "0.2"])), 0.2);
    assert_eq!(eta(growth(&["--model", "pair,cell", "--eta", "0.2"])), 0.2);
    let err = fails_with(&["watch", "--model", "cell", "--eta", "0.2"], 2);
    assert!(err.contains("interactive terminal"), "accepted, then no terminal: {err}");
    // The η given reaches model 2's run: the same seed makes another run.
    let steps = |e: &'static str| {
        json(&[&run(&["--model", "cell", "--eta", e])[..], &["--json"]].concat())["steps"].clone()
    };
    assert_ne!(steps("0.5"), steps("0.03"));
    // Without --eta, models 1 and 3 run, and their reports claim no η.
    assert!(eta(sweep(&["--model", "row"])).is_null());
    assert!(eta(scale(&["--model", "pair,row"])).is_null());
    assert!(eta(run(&["--model", "row"])).is_null());
    assert!(eta(growth(&["--model", "pair,row"])).is_null());
    for args in [sweep(&["--model", "row"]), run(&[]), growth(&["--model", "pair"])] {
        let out = damier().args(&args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && !text.contains("eta"), "{args:?}: {text}");
    }
    // Redrawn from per-run files, η is checked against the models the files hold.
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs.csv");
    let header = "series,n,seed,steps,moves,solved,cpu_s\n";
    std::fs::write(&runs, format!("{header}pair,5,1,90,9,true,\nrow,6,1,40,7,true,\n")).unwrap();
    let from = ["automaton", "growth", "--from", runs.to_str().unwrap()];
    let err = fails_with(&[&from[..], &["--eta", "0.1"]].concat(), 2);
    assert!(err.contains(two), "{err}");
    assert!(json(&[&from[..], &["--json"]].concat())["eta"].is_null());
    std::fs::write(&runs, format!("{header}cell,5,1,90,9,true,\n")).unwrap();
    assert_eq!(json(&[&from[..], &["--eta", "0.2", "--json"]].concat())["eta"], 0.2);
}

/// Issue 53: `--rule NAME` picks model 3's rule; a typo lists the names; the checkpoint
/// records the rule, a resumed run keeps it, and a `--rule` that disagrees is refused.
#[test]
fn model3_rules_by_name_and_in_checkpoints() {
    let run = ["automaton", "run", "--model", "row", "-n", "12", "--seed", "1", "--json"];
    let kept = json(&run);
    let explicit = json(&[&run[..], &["--rule", "kept"]].concat());
    assert_eq!((&explicit["steps"], &explicit["moves"]), (&kept["steps"], &kept["moves"]));
    assert_eq!((&kept["rule"], &explicit["rule"]), (&serde_json::json!("kept"), &serde_json::json!("kept")));
    assert!(json(&["automaton", "run", "-n", "8", "--seed", "1", "--json"])["rule"].is_null());
    let mut differ = 0;
    for rule in [
        "v1",
        "patience",
        "slow",
        "rare-south",
        "strict",
        "patience-reset",
        "patience-rest",
        "gradient",
        "memoryless",
        "memoryless-slow",
        "committed",
        "committed-slow",
        "yes-no",
        "no-waves",
        "random-cells",
        "backoff",
        "backoff-walks",
    ] {
        let out = damier().args(run).args(["--rule", rule, "--max-steps", "3000"]).output().unwrap();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{rule}: {}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // The record names the rule it ran (null for models 1 and 2, which have none).
        assert_eq!(v["rule"], rule);
        differ += usize::from(v["steps"] != kept["steps"] || v["moves"] != kept["moves"]);
    }
    assert!(differ >= 12, "the rules run the same trajectory: {differ}");
    let text = damier().args(&run[..run.len() - 1]).args(["--rule", "patience"]).output().unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).contains("rule = patience"));
    let err = fails_with(&[&run[..], &["--rule", "kep"]].concat(), 2);
    assert!(err.contains("kep") && err.contains("patience") && err.contains("random-cells"), "{err}");
    let err = fails_with(&["automaton", "run", "-n", "8", "--rule", "kept"], 2);
    assert!(err.contains("--model row") && err.lines().count() == 1, "{err}");
    let err = fails_with(&["automaton", "growth", "--model", "pair", "--rule", "v1"], 2);
    assert!(err.contains("row"), "{err}");
    // Stopped under patience, resumed with no --rule: the patience run, not the kept one.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.ckpt");
    let path = path.to_str().unwrap();
    let patience = json(&[&run[..], &["--rule", "patience"]].concat());
    assert_ne!((&patience["steps"], &patience["moves"]), (&kept["steps"], &kept["moves"]));
    let out = damier()
        .args(&run[..run.len() - 1])
        .args(["--rule", "patience", "--max-steps", "40", "--checkpoint", path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let err = fails_with(&["automaton", "run", "--checkpoint", path, "--rule", "kept"], 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("under rule patience") && err.contains("drop --rule"), "{err}");
    let resumed = json(&["automaton", "run", "--checkpoint", path, "--json"]);
    for key in ["steps", "moves", "solved", "placement"] {
        assert_eq!(resumed[key], patience[key], "{key}");
    }
    let again = json(&["automaton", "run", "--checkpoint", path, "--rule", "patience", "--json"]);
    assert_eq!(again["steps"], patience["steps"]);
    // The growth study takes the rule too: its model 3 runs are the CLI's runs under it.
    let runs = dir.path().join("runs.csv");
    let out = damier()
        .args(["automaton", "growth", "--model", "row", "--row-n", "12", "--local-n", "", "--samples", "1"])
        .args(["--rule", "patience", "--runs-out", runs.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let line = format!("row,12,1,{},{},true,", patience["steps"], patience["moves"]);
    let csv = std::fs::read_to_string(&runs).unwrap();
    assert!(csv.lines().any(|l| l.starts_with(&line)), "{line} not in {csv}");
}

#[test]
fn checkpoint_resume_equals_an_uninterrupted_run() {
    checkpoint_resume("cell", "10", "100");
    checkpoint_resume("row", "24", "50");
}

/// A run stopped at `cut` steps into a checkpoint and resumed equals the run never stopped.
fn checkpoint_resume(model: &str, n: &str, cut: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let path_arg = path.to_str().unwrap();
    let straight = json(&["automaton", "run", "--model", model, "-n", n, "--seed", "3", "--json"]);
    assert_eq!(straight["solved"], true);
    // Stop after `cut` updates (censored, exit 1), then resume from the file to the end.
    let out = damier()
        .args(["automaton", "run", "--model", model, "-n", n, "--seed", "3", "--max-steps", cut])
        .args(["--checkpoint", path_arg, "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed = json(&["automaton", "run", "--checkpoint", path_arg, "--json"]);
    for key in ["model", "n", "eps", "eta", "seed", "steps", "moves", "solved", "placement"] {
        assert_eq!(resumed[key], straight[key], "{key}");
    }
    // The file now holds the solved state: running again reports the same solution at once.
    let again = json(&["automaton", "run", "--checkpoint", path_arg, "--json"]);
    assert_eq!(again["steps"], straight["steps"]);
    let err = fails_with(&["automaton", "run", "--checkpoint", path_arg, "-n", "11"], 2);
    assert!(err.contains(&format!("n = {n}")), "{err}");
    // --eta is checked against the file's model, and for model 2 against its η.
    let err = fails_with(&["automaton", "run", "--checkpoint", path_arg, "--eta", "0.5"], 2);
    let expected = if model == "cell" { "holds a run with eta = 0.03" } else { "eta = 0.5 is refused" };
    assert!(err.contains(expected), "{err}");
    if model == "cell" {
        let again = json(&["automaton", "run", "--checkpoint", path_arg, "--eta", "0.03", "--json"]);
        assert_eq!(again["eta"], 0.03);
    }
    // --model and --eps too: another value is refused (it was once silently replaced by the
    // file's), the file's own value is accepted.
    let other = if model == "cell" { "row" } else { "cell" };
    let err = fails_with(&["automaton", "run", "--checkpoint", path_arg, "--model", other], 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("holds a run of model") && err.contains("drop --model"), "{err}");
    let err = fails_with(&["automaton", "run", "--checkpoint", path_arg, "--eps", "0.5"], 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("holds a run with eps = {}", straight["eps"])), "{err}");
    let eps = straight["eps"].to_string();
    let same =
        json(&["automaton", "run", "--checkpoint", path_arg, "--model", model, "--eps", &eps, "--json"]);
    assert_eq!(same["steps"], straight["steps"]);
}

#[test]
fn corrupt_or_foreign_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let path_arg = path.to_str().unwrap();
    std::fs::write(&path, "model cell\nn 8\n").unwrap();
    let err = fails_with(&["automaton", "run", "--checkpoint", path_arg], 2);
    assert!(err.contains("not a damier automaton checkpoint"), "{err}");
    let out = damier()
        .args(["automaton", "run", "-n", "8", "--seed", "1", "--max-steps", "10", "--checkpoint", path_arg])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "the foreign file is not overwritten");
    std::fs::remove_file(&path).unwrap();
    let out = damier()
        .args(["automaton", "run", "-n", "8", "--seed", "1", "--max-steps", "10", "--checkpoint", path_arg])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = fails_with(&["automaton", "run", "--checkpoint", path_arg], 2);
    assert!(err.contains("checksum"), "{err}");
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let err = fails_with(&["automaton", "run", "--checkpoint", path_arg], 2);
    assert!(err.contains("bytes long"), "{err}");
    fails_with(&["automaton", "run", "-n", "8", "--checkpoint-every", "5"], 2);
    let missing = dir.path().join("no-such-dir").join("run.ckpt");
    let err = fails_with(&["automaton", "run", "-n", "30", "--checkpoint", missing.to_str().unwrap()], 2);
    assert!(err.contains("cannot write"), "{err}");
}

/// The checkpoint at `path` with `field` written at byte `at` and its checksum (FNV-1a 64 of
/// every byte before it, the last 8 bytes) redone: a file altered on purpose.
fn forge(path: &std::path::Path, at: usize, field: &[u8]) {
    let mut bytes = std::fs::read(path).unwrap();
    let body = bytes.len() - 8;
    bytes[at..at + field.len()].copy_from_slice(field);
    let sum = damier::util::fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(path, bytes).unwrap();
}

/// Issue 49: a checkpoint whose generator state is all zeros (checksum redone) made `automaton
/// run --checkpoint` spin forever, deaf to --max-steps and Ctrl-C; counters near 2^64 wrapped
/// silently. Each is refused at once: exit 2, one line naming the file and what is wrong (a
/// regression is killed after 20 s instead of hanging the suite).
#[test]
fn forged_generator_states_and_counters_are_refused_at_once() {
    // Byte offsets of the steps, the moves and the generator's four words (the library's
    // checkpoint format: magic 8, version 4, model 1, n 4, eps 8, eta 8, seed 8 bytes first).
    let (steps_at, moves_at, rng_at) = (41, 49, 57);
    let dir = tempfile::tempdir().unwrap();
    let refused = |path: &std::path::Path, what: &str| {
        let out = damier()
            .args(["automaton", "run", "--max-steps", "1000", "--checkpoint"])
            .arg(path)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.contains(path.to_str().unwrap()), "{what}: {err}");
        err.into_owned()
    };
    for model in ["pair", "cell", "row"] {
        let path = dir.path().join(format!("{model}.ckpt"));
        let out = damier()
            .args(["automaton", "run", "--model", model, "-n", "9", "--seed", "1", "--max-steps", "100"])
            .arg("--checkpoint")
            .arg(&path)
            .output()
            .unwrap();
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
        let good = std::fs::read(&path).unwrap();
        let steps = u64::from_le_bytes(good[steps_at..steps_at + 8].try_into().unwrap());
        forge(&path, rng_at, &[0; 32]);
        let err = refused(&path, model);
        assert!(err.contains("generator state") && err.contains("zero"), "{err}");
        std::fs::write(&path, &good).unwrap();
        forge(&path, steps_at, &(u64::MAX - 5).to_le_bytes());
        let err = refused(&path, model);
        assert!(err.contains(&format!("steps = {}", u64::MAX - 5)) && err.contains("2^63"), "{err}");
        std::fs::write(&path, &good).unwrap();
        forge(&path, moves_at, &u64::MAX.to_le_bytes());
        let err = refused(&path, model);
        assert!(err.contains(&format!("moves = {}", u64::MAX)), "{err}");
        std::fs::write(&path, &good).unwrap();
        // More moves than the steps can make (one a step; model 3: one a row a generation).
        let moves = steps * if model == "row" { 9 } else { 1 } + 1;
        forge(&path, moves_at, &moves.to_le_bytes());
        let err = refused(&path, model);
        assert!(err.contains(&format!("{moves} moves after {steps} steps")), "{err}");
        // The untouched file still resumes.
        std::fs::write(&path, &good).unwrap();
        let out =
            damier().args(["automaton", "run", "--max-steps", "200", "--checkpoint"]).arg(&path).output();
        assert!(matches!(out.unwrap().status.code(), Some(0 | 1)), "{model}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_saves_a_checkpoint_that_resumes_bit_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let (cut, whole) = (dir.path().join("cut.ckpt"), dir.path().join("whole.ckpt"));
    let args = ["automaton", "run", "--model", "pair", "-n", "40", "--seed", "5"];
    let bin = assert_cmd::cargo::cargo_bin("damier");
    let child = std::process::Command::new(&bin)
        .args(args)
        .args(["--max-steps", "100000000000", "--checkpoint"])
        .arg(&cut)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&cut).expect("checkpoint written on Ctrl-C");
    // Steps at the interruption (little-endian u64 after magic, version, model, n, ε, η, seed).
    let steps = u64::from_le_bytes(bytes[41..49].try_into().unwrap());
    assert!(steps > 0);
    let target = (steps + 12_345).to_string();
    // Resume to a later step cap, and run the same cap uninterrupted: identical end states.
    let resumed = damier()
        .args(["automaton", "run", "--max-steps", &target, "--checkpoint"])
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(resumed.status.code(), Some(1), "{}", String::from_utf8_lossy(&resumed.stderr));
    let straight =
        damier().args(args).args(["--max-steps", &target, "--checkpoint"]).arg(&whole).output().unwrap();
    assert_eq!(straight.status.code(), Some(1));
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap());
}
