//! CLI tests of `damier factor` and `damier watch factor`.
use super::tmux::Tmux;
use super::util::{damier, fails_with, json};

fn factors(v: &serde_json::Value) -> (u64, u64) {
    let f = v["factors"].as_array().expect("two factors");
    assert_eq!(f.len(), 2);
    let p = |i: usize| f[i].as_str().expect("decimal string").parse::<u64>().unwrap();
    (p(0), p(1))
}

#[test]
fn factor_json_has_the_contract_keys_and_checked_factors() {
    for (n, seed) in [(143u64, "1"), (3599, "2"), (1024, "3"), (9, "4")] {
        let v = json(&["factor", &n.to_string(), "--seed", seed, "--json"]);
        for key in ["n", "factors", "steps", "seconds", "seed"] {
            assert!(v.get(key).is_some(), "missing {key}: {v}");
        }
        assert_eq!(v["n"], n);
        assert_eq!(v["seed"], seed.parse::<u64>().unwrap());
        let (a, b) = factors(&v);
        // Independent check.
        assert!(1 < a && a <= b && b < n && a * b == n, "{v}");
        // Same seed, same run.
        let w = json(&["factor", &n.to_string(), "--seed", seed, "--json"]);
        assert_eq!(v["steps"], w["steps"]);
    }
}

#[test]
fn factor_human_output_names_the_factors_and_the_seed() {
    let out = damier().args(["factor", "221", "--seed", "5"]).output().unwrap();
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("221 = 13 x 17") && s.contains("seed = 5"), "{s}");
}

#[test]
fn primes_and_the_step_cap_exit_1() {
    for p in ["2", "13", "18446744073709551557"] {
        let out = damier().args(["factor", p, "--json"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{p}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["prime"], true);
        assert!(v["factors"].is_null());
    }
    let out = damier()
        .args(["factor", "14363581", "--max-steps", "1000", "--seed", "1", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["steps"].as_u64(), v["censored"].as_str()), (Some(1000), Some("step-cap")));
    assert!(v["factors"].is_null());
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for (arg, says) in [
        ("0", "at least 2"),
        ("1", "at least 2"),
        ("-7", "negative"),
        ("abc", "not a whole number"),
        ("", "not a whole number"),
        ("18446744073709551616", "too large"),
        ("99999999999999999999999", "too large"),
    ] {
        let err = fails_with(&["factor", arg], 2);
        assert!(err.contains(says) && err.lines().count() == 1, "{arg}: {err}");
    }
    fails_with(&["factor"], 2);
    fails_with(&["factor", "15", "--q", "0"], 2);
    fails_with(&["factor", "15", "--eps", "1.5"], 2);
    fails_with(&["factor", "15", "--max-steps", "-1"], 2);
    for bits in ["5..8", "8..70", "12..8", "x", "8,"] {
        fails_with(&["factor", "sweep", "--bits", bits, "--samples", "1"], 2);
    }
    fails_with(&["factor", "sweep", "--bits", "8", "--plot", "f.txt"], 2);
    fails_with(&["factor", "sweep", "--bits", "8", "--csv", "/no/such/dir/f.csv"], 2);
    fails_with(&["factor", "sweep", "--bits", "8", "--budget", "-1"], 2);
    fails_with(&["watch", "factor", "1099511627776"], 2);
}

#[test]
fn sweep_writes_csv_plot_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("s.csv");
    let plot = dir.path().join("s.svg");
    let args = [
        "factor",
        "sweep",
        "--bits",
        "8..10",
        "--samples",
        "3",
        "--seed",
        "4",
        "--sat",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ];
    let v = json(&args);
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    for p in points {
        assert_eq!((p["runs"].as_u64(), p["censored"].as_u64()), (Some(3), Some(0)));
        assert!(p["rho_seconds"].as_f64().unwrap() > 0.0);
        assert!(p["sat_seconds"].as_f64().unwrap() > 0.0);
    }
    let runs = v["runs"].as_array().unwrap();
    for r in runs {
        let (n, p, q) = (r["n"].as_u64().unwrap(), r["p"].as_u64().unwrap(), r["q"].as_u64().unwrap());
        assert_eq!(p * q, n);
        assert_eq!(r["run"]["factors"], serde_json::json!([p, q]));
    }
    let table = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(table.lines().count(), 1 + 9);
    assert!(table.starts_with("bits,n,p,q,seed,steps"));
    // The thirteen of a run, then the sweep's setting (seed, q, eps, step cap).
    assert!(table.lines().nth(1).unwrap().split(',').count() == 17);
    assert!(std::fs::read_to_string(&plot).unwrap().contains("<svg"));
    // Same seed, same numbers and runs (timings aside).
    let again = json(&args);
    let key = |v: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value)> {
        v["runs"].as_array().unwrap().iter().map(|r| (r["n"].clone(), r["run"].clone())).collect()
    };
    assert_eq!(key(&again), key(&v));
}

#[test]
fn replot_redraws_a_sweep_from_its_csv() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (csv, first, redrawn) = (path("s.csv"), path("s.svg"), path("r.svg"));
    let sweep = json(&[
        "factor",
        "sweep",
        "--bits",
        "8..9",
        "--samples",
        "2",
        "--seed",
        "3",
        "--json",
        "--csv",
        &csv,
        "--plot",
        &first,
    ]);
    let replot = json(&["factor", "sweep", "--replot", &csv, "--plot", &redrawn, "--json"]);
    assert_eq!(replot["runs"], 4);
    // The same statistics as the sweep itself (the CSV rounds seconds, so steps are compared).
    let steps = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                serde_json::json!([p["bits"], p["runs"], p["censored"], p["mean_steps"], p["median_steps"]])
            })
            .collect()
    };
    assert_eq!(steps(&replot), steps(&sweep));
    let svg = std::fs::read_to_string(&redrawn).unwrap();
    assert!(svg.contains("<svg") && svg.contains("redrawn from s.csv"), "the subtitle names the CSV");
    // Issue 38, section 3: the redrawn figure dropped q, ε and the seed; it keeps them, as
    // the first figure states them.
    let setting = "seed 3, q = 0.5, ε = 0.02, each run capped at";
    assert!(std::fs::read_to_string(&first).unwrap().contains(setting));
    assert!(svg.contains(setting), "the setting kept: {svg}");
    // A PNG too.
    let png = path("r.png");
    json(&["factor", "sweep", "--replot", &csv, "--plot", &png, "--json"]);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn replot_refuses_a_bad_csv_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bad.csv");
    let plot = dir.path().join("p.svg");
    let (c, p) = (csv.to_str().unwrap(), plot.to_str().unwrap());
    let header = "bits,n,p,q,seed,steps,flips,factored,censored,seconds,trial_seconds,rho_seconds";
    for (text, says) in [
        ("", "empty file"),
        ("x,y\n", "line 1: not a factor sweep CSV header"),
        ("bits,n,p,q,seed,steps,flips,factored,censored,seconds,trial_seconds,rho_seconds\n", "no runs"),
        (
            "bits,n,p,q,seed,steps,flips,factored,censored,seconds,trial_seconds,rho_seconds\n8,143,11,13,1,2,3,true,,1e-3,1e-6\n",
            "line 2: 11 fields",
        ),
        (
            "bits,n,p,q,seed,steps,flips,factored,censored,seconds,trial_seconds,rho_seconds\n8,143,11,13,1,two,3,true,,1e-3,1e-6,1e-6\n",
            "line 2, column steps",
        ),
    ] {
        assert!(text.is_empty() || text.starts_with("x,y") || text.starts_with(header));
        std::fs::write(&csv, text).unwrap();
        let err = fails_with(&["factor", "sweep", "--replot", c, "--plot", p], 2);
        assert!(err.contains(says) && err.lines().count() == 1, "{says}: {err}");
        assert!(!plot.exists(), "no figure from a bad CSV");
    }
    fails_with(&["factor", "sweep", "--replot", "/no/such/file.csv", "--plot", p], 2);
    // --replot needs --plot, and runs nothing: no sweep options beside it.
    fails_with(&["factor", "sweep", "--replot", c], 2);
    fails_with(&["factor", "sweep", "--replot", c, "--plot", p, "--sat"], 2);
    fails_with(&["factor", "sweep", "--replot", c, "--plot", "f.txt"], 2);
}

#[test]
fn sweep_budget_censors_and_stops() {
    let v = json(&[
        "factor",
        "sweep",
        "--bits",
        "40,44",
        "--samples",
        "2",
        "--seed",
        "1",
        "--budget",
        "0.2",
        "--json",
    ]);
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 1, "stops after the first size where every run is censored");
    assert_eq!(points[0]["censored"], 2);
    assert!(points[0]["median_steps"].is_null());
}

#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn watch_factor_under_tmux_runs_to_the_factorization_and_quits() {
    let t = Tmux::start(&["watch", "factor", "143", "--seed", "3", "--speed", "1000000"], 100, 30);
    t.wait_for("N = 143");
    t.wait_for("143 = 11 x 13");
    t.send(&["q"]);
    t.wait_exit();
}
