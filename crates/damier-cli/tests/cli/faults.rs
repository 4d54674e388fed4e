//! Failed writes are errors (exit 74, one line naming what could not be written), never a
//! success; a broken pipe stays quiet; a full stderr never crashes a run. Every family of
//! commands that writes is run with its stdout on `/dev/full` (writes fail with "No space left
//! on device"), with its output files on `/dev/full` (through a link, so that a regression
//! could never replace the device itself), and under a file-size limit of 0 (`ulimit -f 0`:
//! every write to a regular file fails with "File too large"), which exercises the atomic
//! write's temporary file and rename: the target keeps its old content and no temporary file
//! is left behind.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use super::util::damier;

/// The exit code of a failed write (`EX_IOERR`).
const FAULT: i32 = 74;

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("damier")
}

/// Asserts that `out` is exit 74 with one line on stderr that names `target`.
fn assert_fault(out: &Output, what: &str, target: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(FAULT), "{what}: stderr {err}");
    assert!(!err.contains("panicked"), "{what} panicked: {err}");
    let wanted = format!("cannot write {target}: ");
    assert!(err.contains(&wanted), "{what}: {err} does not say {wanted:?}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("damier: error")).collect();
    assert_eq!(errors.len(), 1, "{what}: one error line: {err}");
    assert!(err.trim_end().ends_with(errors[0]), "{what}: the error comes last: {err}");
}

/// `damier ARGS` with stdout on `/dev/full`.
fn with_stdout_full(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    Command::new(bin()).args(args).stdin(Stdio::null()).stdout(full).output().expect("runs")
}

/// `damier ARGS` run by `sh` after `ulimit -f 0`, with stdout on a pipe.
fn with_no_file_size(args: &[&str]) -> Output {
    Command::new("sh")
        .args(["-c", "ulimit -f 0 && exec \"$0\" \"$@\""])
        .arg(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn every_family_fails_with_74_when_stdout_is_full() {
    for args in [
        &["queens", "count", "10"][..],
        &["queens", "count", "10", "--json"],
        &["queens", "list", "8"],
        &["queens", "list", "8", "--json"],
        &["queens", "first", "8"],
        &["queens", "solve", "1000"],
        &["queens", "solve", "20", "--json"],
        &["queens", "max", "5"],
        &["queens", "corners", "6"],
        &["queens", "check", "2", "4", "1", "3"],
        &["queens", "timing", "--to", "6"],
        &["queens", "estimate", "10", "--samples", "3", "--seed", "1"],
        &["lights", "solve", "--all-on", "5x5"],
        &["lights", "count", "5x5"],
        &["lights", "kernel", "5x5", "--json"],
        &["walk", "solve", "3", "3"],
        &["walk", "count", "5", "5"],
        &["walk", "replay", "2", "2", "NE"],
        &["automaton", "run", "-n", "6", "--seed", "1"],
        &["automaton", "run", "-n", "6", "--seed", "1", "--trace", "10"],
        &["automaton", "sweep", "-n", "5", "--eps", "0.1", "--samples", "2", "--seed", "1", "--json"],
        &["factor", "15"],
        &["factor", "15", "--json"],
        &["serve", "--port", "0"],
    ] {
        assert_fault(&with_stdout_full(args), &args.join(" "), "standard output");
    }
}

/// A file argument and the commands that write it, `{}` standing for the path.
const FILE_COMMANDS: &[(&str, &[&str])] = &[
    ("out.txt", &["queens", "solve", "1000", "--out", "{}"]),
    (
        "out.bin",
        &["queens", "solve", "1000", "--method", "local", "--seed", "1", "--out", "{}", "--format", "binary"],
    ),
    ("out.json", &["queens", "solve", "1000", "--out", "{}", "--json"]),
    ("t.csv", &["queens", "timing", "--to", "6", "--csv", "{}"]),
    ("t.svg", &["queens", "timing", "--to", "6", "--plot", "{}"]),
    ("t.png", &["queens", "timing", "--to", "6", "--plot", "{}"]),
    ("presses.txt", &["lights", "solve", "--all-on", "5x5", "--out", "{}"]),
    ("presses.pbm", &["lights", "solve", "--all-on", "5x5", "--out", "{}"]),
    ("path.txt", &["walk", "solve", "3", "3", "--out", "{}"]),
    ("pattern.pbm", &["walk", "solve", "3", "3", "--pattern", "{}"]),
    ("run.ckpt", &["automaton", "run", "-n", "8", "--seed", "1", "--max-steps", "50", "--checkpoint", "{}"]),
    (
        "s.csv",
        &["automaton", "sweep", "-n", "5", "--eps", "0.1", "--samples", "2", "--seed", "1", "--csv", "{}"],
    ),
    (
        "s.svg",
        &["automaton", "sweep", "-n", "5", "--eps", "0.1", "--samples", "2", "--seed", "1", "--plot", "{}"],
    ),
    ("sc.csv", &["automaton", "scale", "-n", "4..5", "--samples", "2", "--seed", "1", "--csv", "{}"]),
    (
        "runs.csv",
        &[
            "automaton",
            "growth",
            "--pair-n",
            "5",
            "--cell-n",
            "5",
            "--local-n",
            "8",
            "--samples",
            "2",
            "--resamples",
            "20",
            "--runs-out",
            "{}",
        ],
    ),
    ("f.csv", &["factor", "sweep", "--bits", "8", "--samples", "1", "--seed", "1", "--csv", "{}"]),
    ("f.svg", &["factor", "sweep", "--bits", "8", "--samples", "1", "--seed", "1", "--plot", "{}"]),
];

fn with_path(args: &[&str], path: &Path) -> Vec<String> {
    let p = path.to_str().unwrap();
    args.iter().map(|a| if *a == "{}" { p.to_string() } else { a.to_string() }).collect()
}

#[test]
fn every_file_write_fails_with_74_on_a_full_device() {
    let dir = tempfile::tempdir().unwrap();
    // (A checkpoint is read before it is written: /dev/full reads as zeros, not a checkpoint.)
    for (name, args) in FILE_COMMANDS.iter().filter(|(name, _)| !name.ends_with(".ckpt")) {
        // A link to /dev/full: written in place (a device is never replaced).
        let link = dir.path().join(name);
        std::os::unix::fs::symlink("/dev/full", &link).unwrap();
        let args = with_path(args, &link);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = damier().args(&args).output().unwrap();
        assert_fault(&out, &args.join(" "), &link.display().to_string());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    }
    assert!(!std::fs::metadata("/dev/full").unwrap().is_file(), "/dev/full is still a device");
}

#[test]
fn a_file_size_limit_leaves_the_old_file_and_no_temporary_one() {
    for (name, args) in FILE_COMMANDS {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        // (A checkpoint file is read back, so it cannot hold anything but a checkpoint.)
        let resumed = name.ends_with(".ckpt");
        if !resumed {
            std::fs::write(&path, "old").unwrap();
        }
        let args = with_path(args, &path);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let what = args.join(" ");
        let out = with_no_file_size(&args);
        assert_fault(&out, &what, &path.display().to_string());
        assert!(String::from_utf8_lossy(&out.stderr).contains("File too large"), "{what}");
        if resumed {
            assert!(names(dir.path()).is_empty(), "{what}: {:?} left", names(dir.path()));
        } else {
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "old", "{what}: the old file is kept");
            assert_eq!(names(dir.path()), [*name], "{what}: no temporary file left");
        }
    }
    // Folders of files, and the count journal (appended in place, by the library).
    for (args, folder) in [
        (&["walk", "export", "--to", "2", "{}"][..], true),
        (&["lights", "kernel", "5x5", "--out", "{}"], true),
        (&["queens", "count", "10", "--journal", "{}"], false),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        if folder {
            std::fs::create_dir(&path).unwrap();
        }
        let args = with_path(args, &path);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = with_no_file_size(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(FAULT), "{args:?}: {err}");
        assert!(err.contains("File too large") && err.lines().count() == 1, "{args:?}: {err}");
        if folder {
            assert!(names(&path).is_empty(), "{args:?}: {:?} left", names(&path));
        }
    }
}

/// `damier ARGS` run by `sh` with stdout closed (`>&-`), in `dir`.
fn with_stdout_closed(args: &[&str], dir: &Path) -> Output {
    Command::new("sh")
        .args(["-c", "exec \"$0\" \"$@\" >&-"])
        .arg(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

#[test]
fn a_closed_stdout_fails_with_74_like_any_failed_write() {
    // Rust's runtime puts /dev/null where a closed stdout was: the result was lost, exit 0.
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["queens", "count", "12", "--journal", "j"][..],
        &["queens", "count", "8", "--json"],
        &["lights", "solve", "--all-on", "5x5"],
        &["walk", "solve", "3", "3"],
        &["queens", "list", "6"],
    ] {
        let out = with_stdout_closed(args, dir.path());
        assert_fault(&out, &args.join(" "), "standard output");
        assert!(String::from_utf8_lossy(&out.stderr).contains("Bad file descriptor"), "{args:?}");
    }
    // The file written before the result is kept; the result on stdout is what failed.
    let out =
        with_stdout_closed(&["lights", "solve", "--all-on", "5x5", "--out", "p.txt", "--json"], dir.path());
    assert_fault(&out, "lights solve --out --json", "standard output");
    assert!(dir.path().join("p.txt").exists());
}

/// Probe of 2026-12-06: a closed stdin read as an empty input (the runtime's `/dev/null` in
/// its place): `walk replay 3 3 - <&-` answered "6 cells stay white after 0 moves", exit 1,
/// `queens check <&-` "empty placement", `queens sum <&-` "no share report given". Every
/// reader of stdin now fails as a read of the closed descriptor: exit 2, one line.
#[test]
fn a_closed_stdin_is_a_failed_read_not_an_empty_input() {
    for args in [
        &["walk", "replay", "3", "3", "-"][..],
        &["walk", "replay", "3", "3", "--from", "-"],
        &["queens", "check"],
        &["queens", "sum"],
        &["lights", "solve", "-"],
        &["automaton", "run", "-n", "6", "--from", "-"],
        &["__api", "queens", "count"],
    ] {
        let out =
            Command::new("sh").args(["-c", "exec \"$0\" \"$@\" <&-"]).arg(bin()).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("Bad file descriptor") && err.lines().count() == 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_and_version_on_a_failed_stdout_fail_with_74() {
    // clap printed them and the run ended 0 whatever became of the text.
    let dir = tempfile::tempdir().unwrap();
    for args in
        [&["--help"][..], &["queens", "count", "--help"], &["-V"], &["--version"], &["help", "queens"]]
    {
        let what = args.join(" ");
        assert_fault(&with_stdout_full(args), &format!("{what} >/dev/full"), "standard output");
        let out = with_stdout_closed(args, dir.path());
        assert_fault(&out, &format!("{what} >&-"), "standard output");
        assert!(String::from_utf8_lossy(&out.stderr).contains("Bad file descriptor"), "{what}");
        // A reader gone stays quiet (exit 0), and a stdout that works gets the text.
        super::util::quiet_on_closed_pipe(args);
        let out = Command::new(bin()).args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{what}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("damier"), "{what}");
    }
}

#[test]
fn a_full_or_closed_stderr_never_crashes_a_run() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    // A message on stderr (no solution), progress lines, a warning: the answer is unchanged.
    for (args, code, env) in [
        (&["queens", "solve", "3"][..], 1, None),
        (&["queens", "count", "12", "--json"], 0, Some(("DAMIER_PROGRESS", "lines"))),
        (&["queens", "solve", "100", "--out", "{}"], 0, None),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let args = with_path(args, &dir.path().join("s.txt"));
        let mut c = Command::new(bin());
        c.args(&args).stdin(Stdio::null()).stderr(full());
        if let Some((k, v)) = env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        // Stderr closed at the other end of a pipe.
        let mut c = Command::new(bin());
        c.args(&args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some((k, v)) = env {
            c.env(k, v);
        }
        let mut child = c.spawn().unwrap();
        drop(child.stderr.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?} with stderr closed");
    }
}

#[test]
fn a_missing_folder_is_refused_before_the_run() {
    for args in [
        &["queens", "solve", "10", "--out", "/no/such/dir/s.txt"][..],
        &["queens", "timing", "--to", "6", "--csv", "/no/such/dir/t.csv"],
        &["automaton", "run", "-n", "8", "--checkpoint", "/no/such/dir/r.ckpt"],
    ] {
        let out = damier().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("no directory /no/such/dir"), "{args:?}: {err}");
    }
}

#[test]
fn endless_input_files_are_refused_at_once() {
    // /dev/zero never ends: read up to the largest valid file, then refused (exit 2).
    for args in
        [&["automaton", "run", "--from", "/dev/zero"][..], &["automaton", "run", "--checkpoint", "/dev/zero"]]
    {
        let out = damier().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
