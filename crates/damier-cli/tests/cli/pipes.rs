//! Every output is the next command's input (issue 52 §4): each pair of commands a user would
//! pipe, `A | B`, in each of A's forms (text, `--columns`, `--json`, `--out -`, a file A
//! wrote), B answering as it would for the same input typed by hand.

use super::util::damier;

/// Runs `damier first`, asserting exit 0, and returns its stdout.
fn stdout_of(first: &[&str]) -> Vec<u8> {
    let out = damier().args(first).output().unwrap();
    assert!(out.status.success(), "damier {first:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// `damier first | damier second`: the exit code and stdout of `second`.
fn pipe(first: &[&str], second: &[&str]) -> (Option<i32>, String) {
    let input = stdout_of(first);
    let out = damier().args(second).write_stdin(input).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{first:?} | {second:?}: {err}");
    (out.status.code(), format!("{}{err}", String::from_utf8_lossy(&out.stdout)))
}

/// Asserts that `damier first | damier second` exits 0, its output containing `says`.
fn pipes(first: &[&str], second: &[&str], says: &str) {
    let (code, out) = pipe(first, second);
    assert_eq!(code, Some(0), "damier {} | damier {}: {out}", first.join(" "), second.join(" "));
    assert!(out.contains(says), "damier {} | damier {}: {out}", first.join(" "), second.join(" "));
}

#[test]
fn queens_answers_pipe_into_check_in_every_form() {
    let check = ["queens", "check"];
    for form in [&[][..], &["--columns"], &["--json"]] {
        for cmd in [
            &["queens", "first", "8"][..],
            &["queens", "solve", "50"],
            &["queens", "solve", "20", "--method", "local", "--seed", "3"],
        ] {
            pipes(&[cmd, form].concat(), &check, "valid: ");
        }
        pipes(&[&["queens", "list", "6"][..], form].concat(), &check, "4 placements, all valid");
        pipes(&[&["queens", "list", "8", "--unique"][..], form].concat(), &check, "12 placements, all valid");
        pipes(
            &[&["queens", "list", "10", "--random", "3", "--seed", "1"][..], form].concat(),
            &check,
            "3 placements, all valid",
        );
    }
    // `queens max`: its witness, empty rows included, as text and JSON.
    for form in [&[][..], &["--json"]] {
        pipes(&[&["queens", "max", "3"][..], form].concat(), &check, "valid");
        pipes(&[&["queens", "max", "8"][..], form].concat(), &check, "valid: 8 queens");
    }
}

#[test]
fn queens_solve_files_are_checked_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["text", "binary"] {
        let file = dir.path().join(format!("s.{format}"));
        stdout_of(&["queens", "solve", "1000", "--out", file.to_str().unwrap(), "--format", format]);
        let out =
            damier().args(["queens", "check"]).write_stdin(std::fs::read(&file).unwrap()).output().unwrap();
        assert!(out.status.success(), "{format}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("valid: 1000 queens"));
    }
}

/// Issue 52 §4: `automaton run ... | queens check` said "'model' is not a column number", and
/// with `--json` found no `columns`; the run prints its solution as `S = (...)` now.
#[test]
fn automaton_runs_pipe_into_check() {
    let text = String::from_utf8(stdout_of(&["automaton", "run", "-n", "8", "--seed", "1"])).unwrap();
    assert!(text.contains("solution S = (2, 7, 3, 6, 8, 5, 1, 4)"), "{text}");
    for model in ["pair", "cell", "row"] {
        for form in [&[][..], &["--json"]] {
            let run = [&["automaton", "run", "--model", model, "-n", "10", "--seed", "2"][..], form].concat();
            pipes(&run, &["queens", "check"], "valid: 10 queens");
        }
    }
}

/// Issue 52 §4: `walk solve 4 4 | walk replay 4 4 -` failed on the picture's lines, with
/// `--json` on the `{`, and `walk export` files on their `#` header; `--out -` wrote a file `-`.
#[test]
fn walk_solutions_pipe_into_replay() {
    for (rows, cols) in [("4", "4"), ("3", "5"), ("1", "1"), ("7", "2")] {
        let solve = ["walk", "solve", rows, cols];
        for form in [&[][..], &["--json"], &["--out", "-"], &["--method", "rows", "--json"]] {
            let first = [&solve[..], form].concat();
            pipes(&first, &["walk", "replay", rows, cols, "-"], "all black after");
            pipes(&first, &["walk", "replay", rows, cols, "--from", "-"], "all black after");
        }
    }
    // `--out -`: the path alone, what `--out FILE` writes; no file named `-`.
    let dir = tempfile::tempdir().unwrap();
    let out =
        damier().current_dir(dir.path()).args(["walk", "solve", "4", "4", "--out", "-"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "EEENWWEWWNEEE\n");
    assert!(!dir.path().join("-").exists());
    let file = dir.path().join("p.txt");
    stdout_of(&["walk", "solve", "4", "4", "--out", file.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "EEENWWEWWNEEE\n");
    super::util::fails_with(&["walk", "solve", "4", "4", "--out", "-", "--json"], 2);
    // `walk export`'s files replay, each on its own size.
    let walks = dir.path().join("walks");
    stdout_of(&["walk", "export", "--to", "4", walks.to_str().unwrap()]);
    for (r, c) in [(1, 1), (2, 3), (4, 4), (4, 1)] {
        let f = walks.join(format!("{r}x{c}.txt"));
        let out = damier()
            .args(["walk", "replay", &r.to_string(), &c.to_string(), "--from", f.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{r}x{c}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("all black after"));
    }
}

/// What cannot be replayed says why in one line, exit 2: another size than the input names,
/// several paths (`--all`), a JSON without a path, junk.
#[test]
fn walk_replay_refuses_what_it_cannot_replay() {
    let cases: [(&[&str], &[&str], &str); 4] = [
        (
            &["walk", "solve", "4", "4"],
            &["walk", "replay", "5", "4", "-"],
            "the path is of a 4 x 4 board (its first line), not 5 x 4",
        ),
        (
            &["walk", "solve", "4", "4", "--json"],
            &["walk", "replay", "4", "5", "-"],
            "the path is of a 4 x 4 board",
        ),
        (&["walk", "solve", "4", "4", "--all"], &["walk", "replay", "4", "4", "-"], "several paths"),
        (
            &["walk", "solve", "4", "4", "--all", "--json"],
            &["walk", "replay", "4", "4", "-"],
            "several paths",
        ),
    ];
    for (first, second, says) in cases {
        let (code, out) = pipe(first, second);
        assert_eq!(code, Some(2), "{first:?} | {second:?}: {out}");
        assert!(out.contains(says) && out.lines().count() == 1, "{first:?} | {second:?}: {out}");
    }
    for (input, says) in [
        ("{\"rows\": 2}", "holds no path"),
        ("hello", "illegal move 'h' at position 1"),
        ("  NEX", "illegal move 'X' at position 5"),
        ("2 x 2\nfoo", "no path in the input"),
    ] {
        let out = damier().args(["walk", "replay", "2", "2", "-"]).write_stdin(input).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input:?}: {err}");
        assert!(err.contains(says), "{input:?}: {err}");
    }
}

/// Runs `damier args` in an empty folder: its exit code, stdout, stderr, and whether it left a
/// file named `-` there.
fn in_empty_folder(args: &[&str]) -> (Option<i32>, String, String, bool) {
    let dir = tempfile::tempdir().unwrap();
    let out = damier().current_dir(dir.path()).args(args).output().unwrap();
    let stray = dir.path().join("-").exists();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (out.status.code(), stdout.into_owned(), stderr.into_owned(), stray)
}

#[test]
fn queens_solve_out_dash_is_stdout() {
    let (code, stdout, stderr, stray) = in_empty_folder(&["queens", "solve", "8", "--out", "-"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stray, "queens solve --out - wrote a file named -");
    assert_eq!(stdout.lines().count(), 8, "one column per line: {stdout}");
    assert!(stderr.contains("written to standard output"), "{stderr}");
    pipes(&["queens", "solve", "8", "--out", "-"], &["queens", "check", "-"], "valid: ");
    pipes(&["queens", "solve", "9", "--out", "-", "--json"], &["queens", "check", "-"], "valid: ");
}

#[test]
fn lights_solve_writes_its_boards_to_stdout_with_dash() {
    let random = ["lights", "solve", "--random", "4x4", "--winnable", "--seed", "3"];
    // The start alone on stdout: the next solve reads it, and answers as for the same board.
    let (code, start, stderr, stray) = in_empty_folder(&[&random[..], &["--save-start", "-"]].concat());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stray, "--save-start - wrote a file named -");
    assert_eq!(start.lines().collect::<Vec<_>>().len(), 4, "{start}");
    assert!(start.lines().all(|l| l.len() == 4 && l.bytes().all(|b| b == b'0' || b == b'1')), "{start}");
    pipes(&[&random[..], &["--save-start", "-"]].concat(), &["lights", "solve", "-"], "4x4 board");
    // The presses alone on stdout: the very presses the report prints.
    let (code, presses, stderr, stray) = in_empty_folder(&[&random[..], &["--out", "-"]].concat());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stray, "--out - wrote a file named -");
    let report = String::from_utf8(stdout_of(&random)).unwrap();
    assert!(report.contains(&presses), "presses {presses:?} not in the report {report}");
    // Refused, clearly: two outputs on stdout, or a board and JSON on it.
    for (extra, says) in [
        (&["--save-start", "-", "--out", "-"][..], "both write to standard output"),
        (&["--save-start", "-", "--json"], "takes no --json"),
        (&["--out", "-", "--json"], "takes no --json"),
    ] {
        let (code, stdout, stderr, stray) = in_empty_folder(&[&random[..], extra].concat());
        assert_eq!((code, stdout.as_str(), stray), (Some(2), "", false), "{extra:?}: {stderr}");
        assert!(stderr.contains(says) && stderr.lines().count() == 1, "{extra:?}: {stderr}");
    }
}

#[test]
fn output_options_that_cannot_be_stdout_refuse_dash() {
    for args in [
        &["queens", "count", "6", "--journal", "-"][..],
        &["lights", "kernel", "5x5", "--out", "-"],
        &["walk", "solve", "4", "4", "--pattern", "-"],
    ] {
        let (code, stdout, stderr, stray) = in_empty_folder(args);
        assert_eq!((code, stdout.as_str(), stray), (Some(2), "", false), "{args:?}: {stderr}");
        assert!(stderr.contains("standard output is not offered here"), "{args:?}: {stderr}");
    }
}
