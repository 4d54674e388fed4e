//! A newcomer's first hour (issue 52 §5): each cause said once, one prefix for every error,
//! limits as they are with the way around them, tables with their header.

use super::util::{damier, fails_with};

/// `automaton run -n 3` said its cause twice and printed a random seed for a run never made.
#[test]
fn a_run_that_cannot_succeed_says_so_once() {
    let out = damier().args(["automaton", "run", "-n", "3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("n = 3 has no solution"), "{err}");
    assert!(out.stdout.is_empty(), "nothing on stdout: {}", String::from_utf8_lossy(&out.stdout));
    // With --json, the record on stdout and the same one line on stderr (as `queens solve 3
    // --json` says its cause): the record has no field for it.
    let out = damier().args(["automaton", "run", "-n", "3", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("n = 3 has no solution"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solved"], false);
}

/// The option parser's errors and the program's own begin the same way.
#[test]
fn every_error_has_one_prefix() {
    for args in [
        &["queens", "count", "--bogus"][..],
        &["queens", "solve", "x"],
        &["walk", "solve", "0", "3"],
        &["bogus"],
    ] {
        let err = fails_with(args, 2);
        assert!(err.starts_with("damier: error: "), "{args:?}: {err}");
    }
    // A missing command prints the help, which is no error.
    let err = fails_with(&[], 2);
    assert!(err.starts_with("The damier command-line tool"), "{err}");
}

/// Limits are the real ones, with the way around them when there is one.
#[test]
fn limits_are_the_real_ones_with_the_way_around() {
    let err = fails_with(&["queens", "solve", "20000000000"], 2);
    assert!(err.contains("1 to 1000000000 is supported"), "{err}");
    assert!(!err.contains("4294967295"), "{err}");
    let err = fails_with(&["walk", "solve", "5000", "5000"], 2);
    assert!(err.contains("--out FILE writes the path of boards up to 2^30 cells"), "{err}");
    // Past 2^30 cells, no way around: none is offered.
    let err = fails_with(&["walk", "solve", "40000", "40000"], 2);
    assert!(!err.contains("--out"), "{err}");
    // The automaton's sides: each model's own limit, and models 1 and 2 name model 3's (watch
    // said only "1 to 2048 is supported", though `--model row` watches up to 16384); model 3
    // past its limit offers nothing more.
    for args in [&["watch", "-n", "5000"][..], &["automaton", "run", "-n", "100000"]] {
        let err = fails_with(args, 2);
        assert!(
            err.contains("1 to 2048 is supported for model 1 (pair)")
                && err.contains("model 3 (row) takes sides up to 16384"),
            "{args:?}: {err}"
        );
    }
    // `queens count` past 32 named 32 as the limit, though 29 to 32 are refused too.
    let err = fails_with(&["queens", "count", "33"], 2);
    assert!(err.contains("at most 32 is supported, and past n = 28 only by the backtracker"), "{err}");
    let err = fails_with(&["watch", "--model", "row", "-n", "16385"], 2);
    assert!(
        err.contains("1 to 16384 is supported for model 3 (row)") && !err.contains("takes sides"),
        "{err}"
    );
}

#[test]
fn the_lights_table_has_a_header() {
    let out = damier().args(["lights", "table", "--to", "4"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("    L  solutions (from all on to all off, on L x L)"));
    assert_eq!(lines.collect::<Vec<_>>(), ["    2  1", "    3  1", "    4  16"]);
}

/// On a terminal, bars print counts in full (the automaton's wrote `582,483,968`) and the time
/// left as the lines do, "about N s left" (the count's bar wrote indicatif's `eta 18m`).
#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn bars_print_counts_in_full_and_the_time_left_in_words_under_tmux() {
    let t = super::tmux::Tmux::start(
        &["automaton", "run", "--model", "cell", "-n", "40", "--seed", "1"],
        120,
        10,
    );
    let screen = t.wait_for("conflicts left");
    let bar = screen.lines().find(|l| l.contains("steps ")).expect("the bar");
    let counts = bar.split("steps ").nth(1).and_then(|r| r.split_whitespace().next()).expect("steps X/Y");
    let (done, cap) = counts.split_once('/').expect("steps X/Y");
    assert!(done.parse::<u64>().is_ok() && cap == "10000000000", "{bar}");
    t.send(&["C-c"]);
    t.wait_exit();
    let t = super::tmux::Tmux::start(&["queens", "count", "19", "--threads", "1"], 120, 10);
    let screen = t.wait_for(" s left)");
    assert!(!screen.contains("eta"), "{screen}");
    t.send(&["C-c"]);
    t.wait_exit();
}

/// Found on the walk through the README: a finished journal said "about 0 s left (0 h)".
#[test]
fn a_finished_journal_has_no_time_left_to_project() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("q10.journal");
    let out =
        damier().args(["queens", "count", "10", "--journal", journal.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = damier().args(["queens", "journal", journal.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("finished: 724 solutions"), "{text}");
    assert!(text.contains(", no task left") && !text.contains("s left"), "{text}");
}
