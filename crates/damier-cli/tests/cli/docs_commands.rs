//! Every `damier` command the README and `docs/*.md` show in a code block is run by this test,
//! through `bash` as a reader would paste it (pipes, redirections and `&&` included), and fails
//! when one errors (issue 52 §1: `damier watch --model row -n 1000`, documented, was refused).
//! A command is expected to exit 0, or the code its comment names (`# ... (exit 1)`), or 2 when
//! the block shows it answering `damier: error: ...`; a line ending in `echo $?` must print the
//! code its comment starts with. The commands not run here
//! are in [`NOT_RUN`], each with why; an entry that matches no documented command fails the
//! test too, so the list cannot go stale. Commands written inline in the prose (`damier queens
//! count N`) are synopses with placeholders, not examples, and are not collected.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Documented commands not run here: a part of the command (matching at least one), and why.
const NOT_RUN: &[(&str, &str)] = &[
    // Placeholders a reader replaces.
    ("--csv F --plot F.svg", "placeholders F"),
    ("--eps E --eta H --seed S", "placeholders E, H, S"),
    ("--model cell -n N --seed S", "placeholders N, S"),
    ("--model pair -n N --seed S", "placeholders N, S"),
    ("-n 20 --eta H", "placeholder H"),
    (
        "--samples 30 --seed 1 --csv F.csv --plot F.svg [--budget 480] [--sat]",
        "placeholders F, optional parts",
    ),
    // Files the reader has: the position and the board of the text around them.
    ("--from start.txt", "the reader's own start.txt (`--from` is tested in tests/cli/automaton.rs)"),
    ("lights solve start.pbm", "the reader's own start.pbm (a timing example)"),
    // Terminal programs: run under tmux by tests/cli/play.rs and factor.rs.
    ("damier watch --model row -n 24", "a terminal program: watch_under_tmux_* in tests/cli/play.rs"),
    (
        "damier watch --model row -n 1000",
        "a terminal program: watch_draws_1000_in_blocks_under_tmux in tests/cli/play.rs",
    ),
    ("damier watch factor 3599", "a terminal program: watch_factor_under_tmux_* in tests/cli/factor.rs"),
    // Writes into the reader's home.
    ("completions bash >", "writes into ~/.local (completions: tests/cli/conventions.rs)"),
    ("completions zsh >", "writes into ~/.zfunc"),
    ("completions fish >", "writes into ~/.config"),
    ("damier man --out ~", "writes into ~/.local (man pages: tests/cli/conventions.rs)"),
    // Builds with features, other machines, servers.
    ("--mpi", "needs --features mpi and mpirun (tests/cli/gpu.rs, long_counts.rs run MPI under CI)"),
    ("damier gpu", "needs --features gpu (tests/cli/gpu.rs, on lavapipe)"),
    ("--device", "needs --features gpu (tests/cli/gpu.rs, on lavapipe)"),
    ("damier serve", "a server that runs until stopped (the lab's tests: tests/web/)"),
    // Minutes to days of computing: the figures' own runs.
    ("queens solve 1000000000", "writes 10 GB"),
    ("queens estimate 28", "minutes of sampling at n = 28"),
    ("queens count 28", "a share of q(28): hours"),
    ("queens journal s1.journal", "reads the journal of the q(28) share above"),
    ("queens sum s*.json", "sums the q(28) shares above"),
    ("queens count 22", "q(22): hours"),
    ("queens timing --to 16", "times every n to 16: minutes in a debug build"),
    ("queens bench 16 17 18", "q(16) to q(19) timed: minutes"),
    ("queens bench 17 18 --isa", "q(17), q(18) timed: minutes"),
    ("damier bench", "the performance report: minutes"),
    ("automaton bench", "updates per second, timed for seconds per row"),
    ("automaton sweep", "the figures' experiments: minutes to hours"),
    ("automaton scale", "the figures' experiments: minutes to hours"),
    ("automaton growth --pair-n", "the growth experiment: hours"),
    ("automaton growth --model row", "the growth experiment: hours"),
    ("--max-steps 10000000000", "a run of up to 10^10 steps"),
    ("--max-steps 30000000000", "a run of up to 3 x 10^10 steps"),
    ("automaton run --model row -n 1000 --seed $s", "ten runs at n = 1 000: minutes"),
    ("automaton run --model row -n 4096", "n = 4 096 for 5 x 10^6 generations: hours"),
    ("automaton run --model cell -n 30", "model 2 at n = 30: minutes"),
    ("factor sweep --bits 8..30", "the factoring sweep: hours"),
];

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A documented command: where it is, its text (continued lines joined, comment removed) and
/// its comment.
#[derive(Debug)]
struct DocCommand {
    place: String,
    text: String,
    comment: String,
    /// The block shows the command answering an error (`$ damier ...` then `damier: error:`).
    shown_error: bool,
}

/// Whether a code line runs the `damier` executable (not cargo building it, nor a path).
fn runs_damier(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    !line.starts_with('#')
        && !words
            .first()
            .is_some_and(|w| *w == "cargo" || w.contains("examples/") || w.starts_with("DAMIER_"))
        && words.iter().enumerate().any(|(i, w)| {
            let w = w.trim_start_matches('(');
            (w == "damier" || w.ends_with("/damier")) && (i == 0 || words[i - 1] != "-p")
        })
}

/// Splits `line` at its comment (a `#` after a space, outside quotes).
fn split_comment(line: &str) -> (&str, &str) {
    let mut quoted = None;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match (quoted, b) {
            (None, b'"' | b'\'') => quoted = Some(b),
            (Some(q), _) if q == b => quoted = None,
            (None, b'#') if i > 0 && bytes[i - 1] == b' ' => {
                return (line[..i].trim_end(), line[i + 1..].trim());
            }
            _ => {}
        }
    }
    (line.trim_end(), "")
}

/// Every command of the code blocks of the README and `docs/*.md`.
fn documented_commands() -> Vec<DocCommand> {
    let root = root();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(&root).unwrap().display().to_string();
        let (mut in_block, mut shell) = (false, false);
        let mut lines = text.lines().enumerate();
        while let Some((i, line)) = lines.next() {
            if let Some(lang) = line.trim_start().strip_prefix("```") {
                in_block = !in_block;
                shell = in_block && matches!(lang.trim(), "" | "sh" | "console");
                continue;
            }
            let prompted = line.trim().starts_with("$ ");
            let line = line.trim().strip_prefix("$ ").unwrap_or(line.trim());
            if !shell || !runs_damier(line) {
                continue;
            }
            let shown_error =
                prompted && lines.clone().next().is_some_and(|(_, next)| next.starts_with("damier: error:"));
            let (mut text, mut comment) = split_comment(line);
            let mut joined = String::new();
            while let Some(head) = text.strip_suffix('\\') {
                joined.push_str(head.trim());
                joined.push(' ');
                let (_, next) = lines.next().expect("a continued line has a next line");
                (text, comment) = split_comment(next.trim());
            }
            joined.push_str(text);
            found.push(DocCommand {
                place: format!("{name}:{}", i + 1),
                text: joined,
                comment: comment.to_string(),
                shown_error,
            });
        }
    }
    found
}

/// The exit code a command's comment promises: `exit N` in it, else 2 for an error shown, else 0.
fn expected_exit(c: &DocCommand) -> i32 {
    c.comment
        .split("exit ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|code| code.parse().ok())
        .unwrap_or(if c.shown_error { 2 } else { 0 })
}

/// A folder to run the commands in: `damier` and `target/release/damier` the executable under
/// test, `docs/figures` a copy (some commands redraw figures in place).
fn sandbox() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let exe = assert_cmd::cargo::cargo_bin("damier");
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(&exe, bin.join("damier")).unwrap();
    std::fs::create_dir_all(dir.path().join("target/release")).unwrap();
    std::os::unix::fs::symlink(&exe, dir.path().join("target/release/damier")).unwrap();
    let figures = dir.path().join("docs/figures");
    std::fs::create_dir_all(&figures).unwrap();
    for e in std::fs::read_dir(root().join("docs/figures")).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), figures.join(e.file_name())).unwrap();
        }
    }
    (dir, bin)
}

#[test]
fn every_command_in_the_docs_runs() {
    let commands = documented_commands();
    assert!(commands.len() > 50, "the docs' code blocks were not read: {commands:?}");
    let unused: Vec<&str> = NOT_RUN
        .iter()
        .map(|(part, _)| *part)
        .filter(|p| !commands.iter().any(|c| c.text.contains(p)))
        .collect();
    assert!(unused.is_empty(), "NOT_RUN entries that match no documented command: {unused:?}");
    let (dir, bin) = sandbox();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut failures = Vec::new();
    let mut ran = 0;
    for c in &commands {
        if NOT_RUN.iter().any(|(part, _)| c.text.contains(part)) {
            continue;
        }
        ran += 1;
        let out = Command::new("timeout")
            .args(["120", "bash", "-c", &c.text])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("HOME", dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let want = expected_exit(c);
        let mut wrong = out.status.code() != Some(want) || stderr.contains("panicked");
        if c.text.trim_end().ends_with("echo $?") || c.text.contains("echo $?;") {
            let code = c.comment.split(|ch: char| !ch.is_ascii_digit()).next().unwrap_or("");
            wrong |= !code.is_empty() && !stdout.lines().any(|l| l.trim() == code);
        }
        if wrong {
            failures.push(format!(
                "{}: `{}` exited {:?} (expected {want}): {}",
                c.place,
                c.text,
                out.status.code(),
                stderr.lines().last().unwrap_or("")
            ));
        }
    }
    assert!(ran > 20, "only {ran} documented commands ran");
    assert!(failures.is_empty(), "documented commands that fail:\n{}", failures.join("\n"));
}
