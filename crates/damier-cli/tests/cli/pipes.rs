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

/// `damier first | damier second` where `first` must fail with exit 2 in one line saying `says`.
fn refused(first: &[&str], second: &[&str], says: &str) {
    let (code, out) = pipe(first, second);
    let line = format!("damier {} | damier {}: {out}", first.join(" "), second.join(" "));
    assert_eq!(code, Some(2), "{line}");
    assert!(out.contains(says) && out.lines().count() == 1, "{line}");
}

/// Issue 52: `lights solve --random ... | lights solve -` said "unexpected character 'r'" (and
/// `'{'` with `--json`): the report's start is read, in both forms, by every command taking a
/// board, which answers as for the same board saved and given as a file.
#[test]
fn lights_solve_reports_pipe_into_the_board_commands() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("start.txt");
    let saved = saved.to_str().unwrap();
    for (size, seed) in [("5x5", "3"), ("4x7", "1"), ("1x1", "2")] {
        let random = ["lights", "solve", "--random", size, "--winnable", "--seed", seed];
        stdout_of(&[&random[..], &["--save-start", saved]].concat());
        for second in [
            &["lights", "solve"][..],
            &["lights", "solve", "--json"],
            &["lights", "winnable"],
            &["lights", "chase"],
        ] {
            let by_file = damier().args(second).arg(saved).output().unwrap();
            assert!(by_file.status.success(), "{second:?} {saved}");
            let by_file = String::from_utf8(by_file.stdout).unwrap();
            // `seconds` differs from run to run: compared without it.
            let timeless =
                |s: &str| s.lines().filter(|l| !l.contains("\"seconds\"")).collect::<Vec<_>>().join("\n");
            for form in [&[][..], &["--json"], &["--explain"], &["--all"], &["--json", "--min"]] {
                if form.contains(&"--explain") && size == "4x7" {
                    continue;
                }
                let first = [&random[..], form].concat();
                let (code, out) = pipe(&first, &[second, &["-"]].concat());
                let shown = format!("damier {} | damier {} -", first.join(" "), second.join(" "));
                assert_eq!(code, Some(0), "{shown}: {out}");
                assert_eq!(timeless(&out), timeless(&by_file), "{shown}");
            }
        }
    }
    // `--target -` reads a report too: the start solved into itself needs no press.
    let random = ["lights", "solve", "--random", "5x5", "--winnable", "--seed", "3"];
    stdout_of(&[&random[..], &["--save-start", saved]].concat());
    pipes(&random, &["lights", "solve", saved, "--target", "-"], "presses: 0");
}

/// A report without a start (the start given as a file, written to a file, or only summed up)
/// is refused in one line saying so, exit 2; so are malformed JSON and a bad start.
#[test]
fn lights_reports_without_their_start_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("s.txt");
    let saved = saved.to_str().unwrap();
    let random = ["lights", "solve", "--random", "5x5", "--winnable", "--seed", "3"];
    let no_start = "holds no start board";
    for first in [
        &["lights", "solve", "--all-on", "5x5"][..],
        &["lights", "solve", "--all-on", "5x5", "--json"],
        &[&random[..], &["--summary"]].concat(),
        &[&random[..], &["--summary", "--json"]].concat(),
        &[&random[..], &["--out", saved]].concat(),
    ] {
        refused(first, &["lights", "solve", "-"], no_start);
        refused(first, &["lights", "winnable", "-"], no_start);
    }
    refused(&[&random[..], &["--save-start", saved]].concat(), &["lights", "solve", "-"], "written to");
    let fed = |input: &str| {
        let out = damier().args(["lights", "solve", "-"]).write_stdin(input.to_string()).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    for (input, says) in [
        ("{\"start\": 3}", "nor the JSON of `lights solve`"),
        ("{\"start\": [\"01x\"]}", "unexpected character 'x'"),
        ("{\"sta", "nor the JSON of `lights solve`"),
        ("random start, seed 1:\nhello\n", "no board after"),
        // A board, not a report: the board reader's own message.
        ("0a1\n", "unexpected character 'a'"),
    ] {
        let (code, err) = fed(input);
        assert_eq!(code, Some(2), "{input:?}: {err}");
        assert!(err.contains(says) && err.lines().count() == 1, "{input:?}: {err}");
    }
}

/// A report is read whole, within a cap: an endless one (`{` then spaces) is refused at the
/// cap, in one line naming it, exit 2.
#[test]
fn an_endless_report_on_stdin_is_refused_at_the_cap() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    for (head, second) in [("{", "solve"), ("random start, seed 1:\n", "winnable")] {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("damier"))
            .args(["lights", second, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let head = head.as_bytes().to_vec();
        let writer = std::thread::spawn(move || {
            // Until the reader stops (a broken pipe), or well past the cap.
            let spaces = vec![b' '; 1 << 20];
            let _ = stdin.write_all(&head);
            for _ in 0..1024 {
                if stdin.write_all(&spaces).is_err() {
                    return;
                }
            }
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(
            err.trim_end(),
            "damier: error: stdin: larger than 256 MiB, the most a report of `lights solve` takes"
        );
    }
}

/// `automaton trap` shows a position; `| automaton run --from -` runs from it, text or JSON,
/// as from the same position in a file.
#[test]
fn automaton_trap_positions_pipe_into_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("trap.txt");
    for (figure, model) in [("1", "pair"), ("7", "cell")] {
        let trap = ["automaton", "trap", "--figure", figure, "--samples", "1", "--max-steps", "1000"];
        let json: serde_json::Value =
            serde_json::from_slice(&stdout_of(&[&trap[..], &["--json"]].concat())).unwrap();
        std::fs::write(&file, json["position"].as_str().unwrap()).unwrap();
        let run = ["automaton", "run", "--model", model, "--seed", "1", "--json"];
        let by_file: serde_json::Value =
            serde_json::from_slice(&stdout_of(&[&run[..], &["--from", file.to_str().unwrap()]].concat()))
                .unwrap();
        for form in [&[][..], &["--json"]] {
            let (code, out) = pipe(&[&trap[..], form].concat(), &[&run[..], &["--from", "-"]].concat());
            assert_eq!(code, Some(0), "{out}");
            let piped: serde_json::Value = serde_json::from_str(&out).unwrap();
            for key in ["n", "steps", "moves", "placement"] {
                assert_eq!(piped[key], by_file[key], "fig. {figure} {form:?}: {key}");
            }
        }
    }
    let out = damier().args(["automaton", "run", "--from", "-"]).write_stdin("{}").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("nor the JSON of `automaton trap`") && err.lines().count() == 1, "{err}");
}

/// `queens count --share K/M --json`, each share, `| queens sum`: the whole count. The shares'
/// text is refused in one line saying to add --json (it read as a JSON parse error).
#[test]
fn count_shares_pipe_into_sum() {
    let shares = |json: bool| -> Vec<u8> {
        (1..=3)
            .flat_map(|k| {
                let share = format!("{k}/3");
                let mut args = vec!["queens", "count", "10", "--share", share.as_str()];
                if json {
                    args.push("--json");
                }
                stdout_of(&args)
            })
            .collect()
    };
    for second in [&["queens", "sum"][..], &["queens", "sum", "-"]] {
        let out = damier().args(second).write_stdin(shares(true)).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("n = 10: 724 solutions, 92 unique"));
        let out = damier().args(second).write_stdin(shares(false)).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("give `queens count --share K/M` --json") && err.lines().count() == 1, "{err}");
    }
}
