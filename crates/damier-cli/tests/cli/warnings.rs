//! Issue 21, "say so before a long or hopeless run": runs that cannot succeed are told at
//! once, a huge factoring is announced, output paths are checked before any work, long runs
//! leave a start and an end line off a terminal, and the small ones (negative values, host
//! names, error chains, --memory, --all --summary).

use super::util::{damier, fails_with, hooked};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = damier().args(args).output().expect("runs");
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    (out.status.code().unwrap_or(-1), o, e)
}

#[test]
fn automaton_without_a_solution_is_told_at_once() {
    for n in ["2", "3"] {
        // The default cap is 10^10 steps: the run used to go on for minutes.
        let (code, out, err) = run(&["automaton", "run", "-n", n, "--seed", "1", "--json"]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("has no solution") && err.contains("nothing is run"), "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!((v["solved"].as_bool(), v["steps"].as_u64()), (Some(false), Some(0)));
    }
    // n = 1 and 4 still run (and solve).
    assert_eq!(run(&["automaton", "run", "-n", "4", "--seed", "1"]).0, 0);
    // The pair model has no η: none printed, null in the JSON.
    let (_, out, _) = run(&["automaton", "run", "-n", "5", "--seed", "1"]);
    assert!(!out.contains("eta"), "{out}");
    let (_, out, _) = run(&["automaton", "run", "-n", "5", "--seed", "1", "--json"]);
    assert!(serde_json::from_str::<serde_json::Value>(&out).unwrap()["eta"].is_null());
    let (_, out, _) = run(&["automaton", "run", "--model", "cell", "-n", "5", "--seed", "1"]);
    assert!(out.contains("eta = 0.03"), "{out}");
}

#[test]
fn a_huge_factoring_is_announced_before_it_runs() {
    // A 61-bit semiprime: projected far past the cap.
    let (code, _, err) = run(&["factor", "1152921515344265237", "--seed", "1", "--max-steps", "1000"]);
    assert_eq!(code, 1);
    assert!(err.contains("warning: N has 61 bits") && err.contains("most likely stop at its cap"), "{err}");
    // A small one says nothing; a prime is told at once.
    let (code, _, err) = run(&["factor", "143", "--seed", "1"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, out, _) = run(&["factor", "2305843009213693951"]);
    assert_eq!(code, 1);
    assert!(out.contains("is prime"), "{out}");
}

#[test]
fn output_paths_are_checked_before_the_work() {
    let missing = "/nonexistent/dir/t.svg";
    for args in [
        &["queens", "timing", "--to", "13", "--plot", missing][..],
        &["queens", "timing", "--to", "13", "--csv", "/nonexistent/dir/t.csv"],
        &["automaton", "sweep", "-n", "8", "--samples", "100", "--plot", missing],
        &["walk", "solve", "3", "3", "--out", "/nonexistent/dir/p.txt"],
        &["queens", "solve", "8", "--out", "/nonexistent/dir/s.txt"],
        &["queens", "count", "12", "--journal", "/nonexistent/dir/q.journal"],
        &["walk", "export", "/nonexistent/dir/out"],
    ] {
        let err = fails_with(args, 2);
        assert!(err.contains("/nonexistent/dir"), "{args:?}: {err}");
    }
    // A folder argument: only its last part may be missing, and it is created and said so.
    let dir = tempfile::tempdir().unwrap();
    let kernel = dir.path().join("kernel");
    let (code, _, err) = run(&["lights", "kernel", "4x4", "--out", kernel.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(err.contains("created the folder") && kernel.join("kernel-4x4-1.pbm").is_file(), "{err}");
    let deep = dir.path().join("a/b/c");
    let err = fails_with(&["lights", "kernel", "4x4", "--out", deep.to_str().unwrap()], 2);
    assert!(!dir.path().join("a").exists(), "{err}");
}

/// Runs `command` (`args`, for messages): it succeeds, its stderr is a start line and an end
/// line of the run `label`, and its stdout is JSON alone, returned.
fn starts_and_ends(command: &mut assert_cmd::Command, args: &[&str], label: &str) -> serde_json::Value {
    let out = command.output().unwrap();
    assert!(out.status.success(), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{args:?}: {err}");
    assert!(lines[0].starts_with(&format!("damier: {label}: ")), "{err}");
    assert!(lines[1].starts_with(&format!("damier: {label}: ended after ")), "{err}");
    serde_json::from_slice(&out.stdout).expect("stdout is the JSON alone")
}

/// Issue 38, section 6: `queens estimate 28 --samples 2` ran 45 minutes printing nothing.
/// The runs that can last long say on stderr, piped too, what they start, how far they are
/// (at most once a minute off a terminal; every finished unit with the interval at 0 ms, a
/// test hook), and when they end; stdout keeps the JSON alone, and `--quiet` silences them.
#[test]
fn long_runs_say_when_they_start_how_far_they_are_and_when_they_end() {
    let runs: &[(&[&str], &str)] = &[
        (&["queens", "estimate", "13", "--samples", "3", "--seed", "1", "--json"], "queens estimate"),
        (
            &["automaton", "sweep", "-n", "5", "--eps", "0.1", "--samples", "2", "--seed", "1", "--json"],
            "automaton sweep",
        ),
        (&["automaton", "scale", "-n", "4..5", "--samples", "2", "--seed", "1", "--json"], "automaton scale"),
        (
            &[
                "automaton",
                "growth",
                "--pair-n",
                "5",
                "--cell-n",
                "",
                "--local-n",
                "",
                "--samples",
                "2",
                "--json",
            ],
            "automaton growth",
        ),
        (&["factor", "sweep", "--bits", "8", "--samples", "2", "--seed", "1", "--json"], "factor sweep"),
        (&["queens", "count", "19", "--share", "1/400", "--json"], "queens count"),
    ];
    for &(args, label) in runs {
        let v = starts_and_ends(damier().args(args), args, label);
        let quiet = damier().args(args).arg("--quiet").output().unwrap();
        assert!(
            quiet.status.success() && quiet.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&quiet.stderr)
        );
        let w: serde_json::Value = serde_json::from_slice(&quiet.stdout).unwrap();
        // The same report (its keys; the timings differ from run to run).
        let keys = |v: &serde_json::Value| v.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>());
        assert_eq!(keys(&v), keys(&w), "{args:?}");
    }
    // Every finished unit is reported once the interval is past (0 ms here).
    let out = hooked(&[("DAMIER_TEST_LONG_RUN_MS", "0"), ("DAMIER_TEST_TASK_DELAY_MS", "50")])
        .args(["queens", "estimate", "13", "--samples", "3", "--seed", "1", "--json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("damier: queens estimate: 1 of 4 done after "), "{err}");
    assert!(err.contains("s left"), "{err}");
    // A small count is no long run: nothing on stderr.
    let out = damier().args(["queens", "count", "12", "--json"]).output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Issue 38, section 6, continued: `lights table`, `walk count`, `walk solve`, `queens timing`,
/// `queens bench`, `lights bench`, `automaton bench` and `automaton trap` run for seconds to
/// minutes on large inputs and said nothing off a terminal for 10 s. From the size where they
/// take seconds (here on small inputs, a test hook making every sized run a long one) they say
/// what they start and when they end, stdout keeps the JSON alone, `--quiet` silences them;
/// small runs stay silent.
#[test]
fn large_runs_of_every_command_say_when_they_start_and_end() {
    let runs: &[(&[&str], &str)] = &[
        (&["lights", "table", "--to", "12", "--json"], "lights table"),
        (&["walk", "count", "19", "19", "--json"], "walk count"),
        (&["walk", "count", "4", "5", "--method", "brute", "--json"], "walk count"),
        (&["walk", "solve", "6", "7", "--json"], "walk solve"),
        (&["queens", "timing", "--to", "6", "--naive-max", "5", "--min-ms", "1", "--json"], "queens timing"),
        (&["queens", "bench", "7", "--json"], "queens bench"),
        (&["lights", "bench", "--sizes", "64", "--nullities-to", "40", "--json"], "lights bench"),
        (&["automaton", "bench", "-n", "5", "--seconds", "0.02", "--json"], "automaton bench"),
        (
            &["automaton", "trap", "--figure", "1", "--samples", "2", "--max-steps", "1000", "--json"],
            "automaton trap",
        ),
    ];
    let long = [("DAMIER_TEST_ALL_RUNS_LONG", "1")];
    for &(args, label) in runs {
        starts_and_ends(hooked(&long).args(args), args, label);
        for quiet in
            [hooked(&long).args(args).arg("--quiet").output().unwrap(), damier().args(args).output().unwrap()]
        {
            assert!(
                quiet.status.success() && quiet.stderr.is_empty(),
                "{args:?}: {}",
                String::from_utf8_lossy(&quiet.stderr)
            );
            assert!(serde_json::from_slice::<serde_json::Value>(&quiet.stdout).is_ok(), "{args:?}");
        }
    }
}

/// Issue 38, section 6: a long run's start line says its projected time. Only `automaton
/// bench` and the count's cost warning did; `lights table`, `walk count` (brute, fast) and
/// `queens timing` project theirs from their size (here on small inputs, a test hook making
/// every sized run a long one).
#[test]
fn start_lines_say_the_projected_time() {
    let runs: &[(&[&str], &str, &str)] = &[
        (&["lights", "table", "--to", "12", "--json"], "lights table", "L = 2 to 12: about "),
        (&["walk", "count", "4", "5", "--method", "brute", "--json"], "walk count", "brute method: about "),
        (&["walk", "count", "40", "40", "--method", "fast", "--json"], "walk count", "fast method: about "),
        (
            &[
                "queens",
                "timing",
                "--from",
                "5",
                "--to",
                "6",
                "--naive-max",
                "5",
                "--min-ms",
                "100",
                "--json",
            ],
            "queens timing",
            "each for at least 100 ms: at least 0.3 s in all",
        ),
    ];
    for &(args, label, says) in runs {
        let out = hooked(&[("DAMIER_TEST_ALL_RUNS_LONG", "1")]).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        let start = err.lines().next().unwrap_or("");
        assert!(start.starts_with(&format!("damier: {label}: ")) && start.contains(says), "{args:?}: {err}");
        if says.ends_with("about ") {
            assert!(start.ends_with(" s (as measured on 2 loaded cores, release build)"), "{err}");
        }
    }
}

/// Issue 38, section 6, continued: a model 3 `automaton run` of minutes printed nothing when
/// piped (its bar was drawn on a terminal only, and `--quiet` did not silence it). Off a
/// terminal a run that lasts (here at once, a test hook) says how far it is, at most once a
/// minute, and when it ends; stdout keeps the JSON; `--quiet` and short runs say nothing.
#[test]
fn a_long_automaton_run_says_how_far_it_is() {
    let args = ["automaton", "run", "-n", "8", "--seed", "1", "--json"];
    let out = hooked(&[("DAMIER_TEST_LONG_RUN_MS", "0")]).args(args).output().unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() >= 2, "{err}");
    assert!(
        lines[0].starts_with("damier: automaton run: running for ") && lines[0].contains("conflicts left"),
        "{err}"
    );
    assert!(lines[lines.len() - 1].starts_with("damier: automaton run: ended after "), "{err}");
    let _: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON alone");
    let quiet = hooked(&[("DAMIER_TEST_LONG_RUN_MS", "0")]).args(args).arg("--quiet").output().unwrap();
    assert!(quiet.status.success() && quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
    let short = damier().args(args).output().unwrap();
    assert!(short.status.success() && short.stderr.is_empty(), "{}", String::from_utf8_lossy(&short.stderr));
}

#[test]
fn long_runs_off_a_terminal_leave_one_start_and_one_end_line() {
    // A run shorter than the threshold says nothing on stderr.
    let (code, _, err) = run(&["queens", "count", "11"]);
    assert_eq!((code, err.as_str()), (0, ""));
    // With the threshold at 0 ms (a test hook), the same kind of run is announced: one line
    // once it counts as long, one at its end.
    let out = hooked(&[("DAMIER_TEST_LONG_RUN_MS", "0")])
        .args(["queens", "list", "12", "--no-boards"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("damier: listing: running for")
            && lines[1].starts_with("damier: listing: ended after"),
        "{err}"
    );
}

#[test]
fn small_ones() {
    // A negative value is a value, refused for its range.
    let err = fails_with(&["automaton", "run", "-n", "6", "--eps", "-0.1"], 2);
    assert!(err.contains("--eps -0.1 is not a probability"), "{err}");
    // --memory below a megabyte is said in bytes, not "0 MB".
    let err = fails_with(&["queens", "count", "12", "--memory", "10"], 2);
    assert!(err.contains("10 bytes") && !err.contains(" 0 MB"), "{err}");
    // --summary means counts only: not with --all.
    fails_with(&["lights", "solve", "--all-on", "4x4", "--all", "--summary"], 2);
    // estimate: no "0.0000 core hours".
    let (_, out, _) = run(&["queens", "estimate", "10", "--samples", "2", "--seed", "1"]);
    assert!(!out.contains("0.0000") && out.contains("core hours"), "{out}");
    // Each cause of an error once.
    for args in
        [&["lights", "solve", "/nonexistent/board.txt"][..], &["queens", "journal", "/nonexistent/q.journal"]]
    {
        let err = fails_with(args, 2);
        assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    }
}

#[test]
fn serve_takes_a_host_name() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("damier"))
        .args(["serve", "--host", "localhost", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("damier lab at http://127.0.0.1:"), "{line:?}");
    fails_with(&["serve", "--host", "no such host.invalid", "--port", "0"], 2);
}
