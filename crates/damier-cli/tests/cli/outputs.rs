//! Issue 21, "outputs are inputs": every placement the tool prints reads back with `queens
//! check`, `--columns` prints lines for pipes, every outcome of `--json` is JSON on stdout,
//! and the same fact ("no solution") has the same exit code everywhere.

use super::util::damier;

/// stdout of `damier ARGS` (its exit code ignored: the pipe's reader judges it).
fn printed(args: &[&str]) -> Vec<u8> {
    damier().args(args).output().expect("runs").stdout
}

/// `damier queens check` fed `input`: exit code, stdout.
fn check(input: &[u8], extra: &[&str]) -> (i32, String) {
    let out = damier().args(["queens", "check"]).args(extra).write_stdin(input).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn every_printed_placement_reads_back_with_check() {
    // (command, number of placements it prints): text, --columns and --json forms.
    let cases: &[(&[&str], usize)] = &[
        (&["queens", "first", "8"], 1),
        (&["queens", "first", "8", "--columns"], 1),
        (&["queens", "first", "8", "--json"], 1),
        (&["queens", "list", "6"], 4),
        (&["queens", "list", "6", "--columns"], 4),
        (&["queens", "list", "8", "--json"], 92),
        (&["queens", "list", "8", "--unique", "--no-boards"], 12),
        (&["queens", "list", "8", "--unique", "--columns"], 12),
        (&["queens", "list", "7", "--random", "3", "--seed", "2"], 3),
        (&["queens", "list", "7", "--random", "3", "--seed", "2", "--json"], 3),
        (&["queens", "list", "7", "--random", "3", "--seed", "2", "--columns"], 3),
        (&["queens", "solve", "8"], 1),
        (&["queens", "solve", "40"], 1),
        (&["queens", "solve", "40", "--columns"], 1),
        (&["queens", "solve", "40", "--json"], 1),
        (&["queens", "solve", "12", "--method", "local", "--seed", "4"], 1),
        (&["queens", "max", "6"], 1),
        (&["queens", "max", "40"], 1),
    ];
    for (args, count) in cases {
        let text = printed(args);
        let (code, out) = check(&text, &[]);
        assert_eq!(code, 0, "damier {args:?} | damier queens check: {out}");
        if *count == 1 {
            assert!(out.starts_with("valid:"), "{args:?}: {out}");
        } else {
            assert!(out.ends_with(&format!("{count} placements, all valid\n")), "{args:?}: {out}");
        }
        let (_, js) = check(&text, &["--json"]);
        let v: serde_json::Value = serde_json::from_str(&js).unwrap();
        assert_eq!(v["valid"], true, "{args:?}");
    }
    // The printed form as an argument, brackets and all (docs/fuzzing.md says it parses back).
    let out = damier().args(["queens", "check", "(1, 5, 8, 6, 3, 7, 2, 4)"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // --columns is exactly the columns, one line.
    assert_eq!(printed(&["queens", "first", "8", "--columns"]), b"1 5 8 6 3 7 2 4\n");
}

#[test]
fn check_finds_the_invalid_placement_of_a_listing() {
    let (code, out) = check(b"1 5 8 6 3 7 2 4\n1 2 3 4 5 6 7 8\n", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("2: invalid") && out.ends_with("2 placements, 1 invalid\n"), "{out}");
    // A board drawn by hand with a row of two queens: refused, naming the line.
    let out = damier().args(["queens", "check"]).write_stdin("Q .\nQ Q\n").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 2"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A "no solution" answer piped in is not a placement: exit 2 and why.
    let none = printed(&["queens", "first", "3", "--json"]);
    let out = damier().args(["queens", "check"]).write_stdin(none).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no placement"));
}

/// Every "no" outcome with `--json`: exit 1 and a JSON document on stdout.
#[test]
fn json_on_every_outcome_and_one_exit_code_for_no_solution() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.txt");
    std::fs::write(&board, "#...\n....\n....\n....\n").unwrap();
    let board = board.to_str().unwrap();
    let no: &[&[&str]] = &[
        &["queens", "count", "3"],
        &["queens", "list", "3"],
        &["queens", "list", "3", "--random", "2", "--seed", "1"],
        &["queens", "first", "3"],
        &["queens", "solve", "3"],
        &["queens", "solve", "2", "--method", "local", "--seed", "1"],
        &["queens", "check", "1", "2"],
        &["lights", "solve", board],
        &["lights", "winnable", board],
        &["lights", "chase", board],
        &["walk", "replay", "3", "3", "N"],
        &["factor", "13"],
        &["automaton", "run", "-n", "6", "--max-steps", "10", "--seed", "1"],
    ];
    for args in no {
        let out = damier().args(*args).arg("--json").output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{args:?}: stdout is not JSON ({e}): {:?}", String::from_utf8_lossy(&out.stdout))
        });
        assert!(v.is_object() || v.is_array(), "{args:?}: {v}");
        // And the text form says the same with the same exit code.
        let text = damier().args(*args).output().unwrap();
        assert_eq!(text.status.code(), Some(1), "{args:?} without --json");
    }
    // The same fact, the same code: a count of 0 is "no solution" (exit 1), a count > 0 is 0.
    assert_eq!(damier().args(["queens", "count", "4"]).output().unwrap().status.code(), Some(0));
    let out = damier().args(["queens", "count", "1"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("n = 1: 1 solution, "), "plural agrees");
}

#[test]
fn lights_random_start_is_shown_saved_and_can_be_winnable() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("start.txt");
    for seed in 1..=8u64 {
        let seed = seed.to_string();
        let args = ["lights", "solve", "--random", "4x4", "--seed", &seed, "--winnable", "--json"];
        let out = damier().args(args).arg("--save-start").arg(&saved).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "--winnable is always solvable (seed {seed})");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // A start written to a file is not printed; the same seed without the file prints it,
        // and it is the saved one.
        assert!(v.get("start").is_none(), "seed {seed}: {v}");
        let shown = damier().args(args).output().unwrap();
        let shown: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();
        let start: Vec<String> =
            shown["start"].as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
        let file: Vec<String> = std::fs::read_to_string(&saved).unwrap().lines().map(String::from).collect();
        assert_eq!(start, file, "seed {seed}");
        // Solving the saved start again gives the same answer.
        let again = damier().args(["lights", "solve", "--json"]).arg(&saved).output().unwrap();
        let again: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
        assert_eq!(again["presses"], v["presses"], "seed {seed}");
        // Without --json (nor a file) the start is printed too, under the seed.
        let text = damier().args(&args[..args.len() - 1]).output().unwrap();
        let text = String::from_utf8_lossy(&text.stdout).into_owned();
        assert!(
            text.starts_with(&format!("random winnable start, seed {seed}:\n{}\n", start.join("\n"))),
            "{text}"
        );
    }
    // A folder that does not exist is refused before anything runs.
    let out = damier()
        .args(["lights", "solve", "--random", "4x4", "--save-start", "/nonexistent/dir/s.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
