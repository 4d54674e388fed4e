//! CLI tests of `damier automaton growth`: runs, redraw from the per-run CSV, bad files.
use super::util::{damier, fails_with, json};

const SMALL: [&str; 12] = [
    "automaton",
    "growth",
    "--pair-n",
    "5,6",
    "--cell-n",
    "5,6",
    "--local-n",
    "8,10",
    "--samples",
    "4",
    "--resamples",
    "200",
];

fn with(extra: &[&str]) -> Vec<String> {
    SMALL.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn runs_replay_and_redraw_gives_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs.csv");
    let plot = dir.path().join("growth.svg");
    let table = dir.path().join("table.csv");
    let args = with(&[
        "--runs-out",
        runs.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
        "--csv",
        table.to_str().unwrap(),
        "--json",
    ]);
    let v = json(&strs(&args));
    let text = std::fs::read_to_string(&runs).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "series,n,seed,steps,moves,solved,cpu_s");
    assert_eq!(lines.len(), 1 + 4 * 6, "{text}");
    // Every automaton run is the run `automaton run --seed S` makes.
    for line in lines.iter().skip(1).filter(|l| !l.starts_with("local")) {
        let f: Vec<&str> = line.split(',').collect();
        let r = json(&["automaton", "run", "--model", f[0], "-n", f[1], "--seed", f[2], "--json"]);
        assert_eq!(r["steps"].to_string(), f[3], "{line}");
        assert_eq!(r["moves"].to_string(), f[4], "{line}");
    }
    assert!(std::fs::read_to_string(&plot).unwrap().contains("<svg"));
    assert!(std::fs::read_to_string(&table).unwrap().starts_with("series,n,runs,censored,mean"));
    let series = v["series"].as_array().unwrap();
    // Steps and moves of each of the three series, and their CPU seconds.
    assert_eq!(series.len(), 9, "{v}");
    for s in series {
        let f = &s["fit"];
        let (r, lo, hi) = (
            f["rate"].as_f64().unwrap(),
            f["rate_interval"][0].as_f64().unwrap(),
            f["rate_interval"][1].as_f64().unwrap(),
        );
        assert!(r > 0.0 && lo <= r && r <= hi, "{s}");
    }
    // Redrawing from the runs file gives the same summaries and fits.
    let w = json(&["automaton", "growth", "--from", runs.to_str().unwrap(), "--resamples", "200", "--json"]);
    assert_eq!(w["series"], v["series"]);
}

#[test]
fn model3_runs_replay_and_get_both_fits() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs.csv");
    let v = json(&[
        "automaton",
        "growth",
        "--model",
        "row",
        "--row-n",
        "8,12,16",
        "--local-n",
        "",
        "--samples",
        "3",
        "--resamples",
        "100",
        "--runs-out",
        runs.to_str().unwrap(),
        "--json",
    ]);
    let text = std::fs::read_to_string(&runs).unwrap();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines.len(), 9, "{text}");
    for line in &lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[0], "row");
        let r = json(&["automaton", "run", "--model", "row", "-n", f[1], "--seed", f[2], "--json"]);
        assert_eq!(r["steps"].to_string(), f[3], "{line}");
        assert_eq!(r["moves"].to_string(), f[4], "{line}");
    }
    let series = v["series"].as_array().unwrap();
    let names: Vec<&str> = series.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "model 3 (row): cell updates",
            "model 3 (row): moves",
            "model 3 (row): generations",
            "model 3 (row): CPU seconds"
        ]
    );
    for s in series {
        let (e, p) = (&s["fit"], &s["power_fit"]);
        let k = p["exponent"].as_f64().unwrap();
        assert!(
            p["exponent_interval"][0].as_f64().unwrap() <= k
                && k <= p["exponent_interval"][1].as_f64().unwrap()
        );
        assert!(e["rss"].as_f64().unwrap() >= 0.0 && p["rss"].as_f64().unwrap() >= 0.0, "{s}");
        assert!(["power", "exponential"].contains(&s["better_fit"].as_str().unwrap()), "{s}");
    }
    // A cell update count is the generations times n^2.
    let gens = series[2]["points"][0]["mean"].as_f64().unwrap();
    let cells = series[0]["points"][0]["mean"].as_f64().unwrap();
    assert!((cells / (gens * 64.0) - 1.0).abs() < 1e-9);
}

#[test]
fn bad_runs_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.csv");
    let p = path.to_str().unwrap();
    for (content, needle) in [
        ("model,n\npair,5\n", "not a growth runs file"),
        ("series,n,seed,steps,moves,solved,cpu_s\npair,5,1,10,2\n", "line 2: 5 fields"),
        ("series,n,seed,steps,moves,solved,cpu_s\nqueen,5,1,10,2,true,\n", "series"),
        ("series,n,seed,steps,moves,solved,cpu_s\npair,5,1,-3,2,true,\n", "steps"),
        ("series,n,seed,steps,moves,solved,cpu_s\npair,5,1,10,2,yes,\n", "solved"),
        ("series,n,seed,steps,moves,solved,cpu_s\n", "no runs"),
    ] {
        std::fs::write(&path, content).unwrap();
        let err = fails_with(&["automaton", "growth", "--from", p], 2);
        assert!(err.contains(needle), "{content:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    fails_with(&["automaton", "growth", "--from", "/nonexistent/runs.csv"], 2);
    fails_with(&["automaton", "growth", "--from", p, "--runs-out", p], 2);
    fails_with(&["automaton", "growth", "--pair-n", "", "--cell-n", "", "--local-n", "3"], 2);
    fails_with(&["automaton", "growth", "--pair-n", "", "--cell-n", "", "--local-n", ""], 2);
    fails_with(&["automaton", "growth", "--eps", "2"], 2);
    // A series with a single n has no fit: reported, not an error.
    std::fs::write(&path, "series,n,seed,steps,moves,solved,cpu_s\ncell,9,1,100,5,true,0.1\n").unwrap();
    let out = damier().args(["automaton", "growth", "--from", p]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("no fit"));
}

/// Issue 38, section 3: the figure's title said "the automaton (three models)" and its
/// subtitle gave model 3's cap when models 1 and 2 ran: both say what ran.
#[test]
fn the_figure_names_the_models_that_ran() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("growth.svg");
    let args = with(&["--plot", svg.to_str().unwrap()]);
    let out = damier().args(strs(&args)).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains("the automaton (models 1 and 2) and min-conflicts"), "{picture}");
    assert!(!picture.contains("three models") && !picture.contains("model 3"), "{picture}");
    assert!(picture.contains("steps (model 1) and ") && picture.contains("steps (model 2)"), "{picture}");
}
