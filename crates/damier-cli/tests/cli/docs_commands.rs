//! Every `damier` command the README and `docs/*.md` show in a code block is run by this test,
//! through `bash` as a reader would paste it (pipes, redirections and `&&` included), and fails
//! when one errors (issue 52 §1: `damier watch --model row -n 1000`, documented, was refused).
//! A command is expected to exit 0, or the code its comment names (`# ... (exit 1)`), or 2 when
//! the block shows it answering `damier: error: ...`; a line ending in `echo $?` must print the
//! code its comment starts with. The commands not run here
//! are in [`NOT_RUN`], each with why; an entry that matches no documented command fails the
//! test too, so the list cannot go stale.
//!
//! The commands written inline in the prose, in backticks, are checked too (issue 52, third
//! pass), by [`every_inline_command_in_the_docs_runs_or_parses`]: a synopsis (a placeholder in
//! capitals such as `N` or `FILE`, `WxH`, an optional part `[...]`, alternatives `a|b`, `...`)
//! is not a command and is left out; every other is run as a reader would paste it and must exit
//! 0 (or the code [`INLINE_EXITS`] gives it), except those of [`INLINE_PARSED_ONLY`] (minutes of
//! computing, servers, terminal programs, a command's name in a sentence) and every one of the
//! history files (`docs/*-history.md`, the commands of figures measured then, minutes to
//! hours), which are parsed only: each `damier` in them is run with `--help` appended, so that
//! its subcommand and options must exist and its values parse. [`INLINE_NOT_COMMANDS`] are
//! named as commands that do not exist. Both lists are checked for stale entries.

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

/// The README and `docs/*.md`, in order.
fn doc_files() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Every command of the code blocks of the README and `docs/*.md`.
fn documented_commands() -> Vec<DocCommand> {
    let root = root();
    let mut found = Vec::new();
    for file in doc_files() {
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

/// The CPU seconds each process of a documented command may use: the documented commands run
/// here take seconds of CPU in the test profile (`damier factor 14363581 --seed 2`, once in
/// docs/factor.md, 5.8 s; it now shows a 20-bit number, 0.2 s), so a command that spins (a
/// hang that computes) is stopped by the kernel (SIGXCPU) after this, whatever the load.
const CPU_LIMIT_S: u32 = 120;

/// The wall-clock limit of a command on an idle machine; it grows with the load per core
/// (a shared core runs a command that much slower: that `damier factor`, 5.8 s of CPU, took
/// 17.9 s of wall time at a load of 10 on 2 cores, and more than 120 s once at a load of 20),
/// up to [`WALL_LIMIT_MAX_S`].
/// A command that hangs without computing (a lock, a read that never ends) still fails.
const WALL_LIMIT_S: f64 = 120.0;

/// The most a wall-clock limit grows to, however loaded the machine.
const WALL_LIMIT_MAX_S: f64 = 1200.0;

/// The wall-clock limit for a command started now: [`WALL_LIMIT_S`] times the load per core
/// (the 1-minute load average over the cores this process may use), when above 1.
fn wall_limit_s() -> u64 {
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().and_then(|w| w.parse::<f64>().ok()))
        .unwrap_or(0.0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    (WALL_LIMIT_S * (load / cores).max(1.0)).min(WALL_LIMIT_MAX_S).ceil() as u64
}

/// A pasted command's outcome: its output, and why it was stopped (a limit) or crashed (a
/// panic), if it was.
struct Pasted {
    out: std::process::Output,
    broken: Option<String>,
}

/// Runs `text` as a reader pastes it into a shell: `bash -c` in `dir`, with `PATH` and `HOME`
/// the sandbox's, stdin closed, each process limited to [`CPU_LIMIT_S`] of CPU and the whole
/// to [`wall_limit_s`] of wall time.
fn pasted(dir: &Path, path: &str, text: &str) -> Pasted {
    limited(dir, path, text, CPU_LIMIT_S, wall_limit_s())
}

/// [`pasted`] with the limits given. `pipefail`: a pipeline fails when any of its commands
/// does (a `damier` stopped in the middle of a pipe included; `damier ... | head` exits 0,
/// quietly, so the docs' pipes are not changed by it).
fn limited(dir: &Path, path: &str, text: &str, cpu_s: u32, wall_s: u64) -> Pasted {
    // The soft limit only: the kernel sends SIGXCPU (24): the command's end by that signal, or
    // exit 152 from bash, which reports "CPU time limit exceeded" on stderr when the command was
    // not the last of its line.
    let out = Command::new("timeout")
        .args([&wall_s.to_string(), "bash", "-c", &format!("set -o pipefail; ulimit -S -t {cpu_s}\n{text}")])
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let broken = if out.status.code() == Some(124) {
        Some(format!("stopped after {wall_s} s of wall time (the limit at this load)"))
    } else if out.status.code() == Some(152)
        || std::os::unix::process::ExitStatusExt::signal(&out.status) == Some(24)
        || stderr.contains("CPU time limit exceeded")
    {
        Some(format!("stopped after {cpu_s} s of CPU (SIGXCPU)"))
    } else if stderr.contains("panicked") {
        Some("panicked".to_string())
    } else {
        None
    };
    Pasted { out, broken }
}

/// A command that spins is stopped by its CPU limit, alone, before `;` or in the middle of a
/// pipe, and one that waits forever by the wall-clock limit: each said as such, never a pass.
#[test]
fn a_spinning_or_hung_command_is_stopped_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    let spin = "bash -c 'while :; do :; done'";
    for text in [spin.to_string(), format!("{spin}; echo after"), format!("{spin} | cat")] {
        let r = limited(dir.path(), &path, &text, 1, 60);
        let broken = r.broken.unwrap_or_default();
        assert!(broken.contains("s of CPU (SIGXCPU)"), "{text}: {broken:?} {:?}", r.out);
    }
    let r = limited(dir.path(), &path, "sleep 30", 60, 1);
    assert!(r.broken.is_some_and(|b| b.contains("s of wall time")), "{:?}", r.out);
    let r = limited(dir.path(), &path, "true | cat", 60, 60);
    assert!(r.broken.is_none() && r.out.status.success(), "{:?}", r.out);
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
        let Pasted { out, broken } = pasted(dir.path(), &path, &c.text);
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let want = expected_exit(c);
        let mut wrong = out.status.code() != Some(want) || broken.is_some();
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
                broken.as_deref().unwrap_or_else(|| stderr.lines().last().unwrap_or(""))
            ));
        }
    }
    assert!(ran > 20, "only {ran} documented commands ran");
    assert!(failures.is_empty(), "documented commands that fail:\n{}", failures.join("\n"));
}

/// Inline commands parsed only (`--help` appended), each with why it is not run whole; the
/// whole inline command, exactly.
const INLINE_PARSED_ONLY: &[(&str, &str)] = &[
    // A command or group named in a sentence.
    ("damier automaton", "a command group's name (its help)"),
    ("damier factor", "a command group's name"),
    ("damier queens count", "a command's name in a sentence"),
    ("damier queens estimate", "a command's name in a sentence"),
    ("damier queens estimate --json", "a command's JSON named in a sentence"),
    ("damier queens sum", "a command's name: it reads shares on stdin"),
    ("damier queens sum share-*.json", "the shares of the count the sentence runs before"),
    ("damier automaton run --json", "a command's JSON named in a sentence (run without -n: refused)"),
    ("damier automaton growth", "the growth experiment: hours"),
    ("damier lights winnable", "a command's name: it needs a board"),
    // Terminal programs, servers, other tools.
    ("damier watch", "a terminal program (tests/cli/play.rs runs it under tmux)"),
    ("damier watch factor", "a terminal program (tests/cli/factor.rs runs it under tmux)"),
    ("damier watch --model row", "a terminal program"),
    ("damier play walk", "a terminal program (tests/cli/play.rs)"),
    ("damier serve", "a server that runs until stopped (tests/web/)"),
    ("damier serve --port 8742", "a server"),
    ("damier serve --journal /dev/zero", "a server (the journal is read per request: tests/web/)"),
    (
        "damier man | man -l -",
        "needs man(1), which a build machine may lack (man pages: tests/cli/conventions.rs)",
    ),
    ("damier gpu", "needs --features gpu (tests/cli/gpu.rs)"),
    ("damier gpu --bench 15 --tasks 8 --seed 15", "needs --features gpu and a GPU"),
    ("damier automaton run --model row --device gpu", "needs --features gpu"),
    // The benchmark steps on a machine with a GPU (docs/gpu.md, Benchmark).
    ("target/release/damier queens count 22 --device gpu --json", "needs --features gpu and a GPU: q(22)"),
    ("target/release/damier queens estimate 22 --samples 64", "minutes of sampling in a debug build"),
    ("target/release/damier queens estimate 23 --device gpu --samples 256", "needs --features gpu and a GPU"),
    (
        "target/release/damier queens count 23 --device gpu --journal q23.journal --json",
        "needs --features gpu and a GPU: q(23), minutes to hours",
    ),
    // Minutes of computing in a debug build.
    ("damier bench", "the performance report: minutes"),
    ("damier automaton bench", "times for seconds per row"),
    ("damier automaton bench -n 8", "times for seconds"),
    (
        "damier automaton scale --model cell -n 16 --samples 10 --seed 2",
        "a figure's experiment: seconds to minutes",
    ),
    ("damier automaton trap --figure 7", "30 s of demonstration runs in a debug build (fig. 1 is run)"),
    (
        "damier factor sweep --bits 8,12,16,20,24,28,32,36 --samples 5 --seed 1 --sat --max-steps 100000 --threads 2",
        "the factoring sweep: minutes",
    ),
    ("damier lights bench", "a benchmark: a minute"),
    ("damier walk bench", "a benchmark"),
    ("damier queens bench", "a benchmark: minutes"),
    ("damier queens bench 16 17 18 --repeat 3", "q(16) to q(18) timed three times: minutes"),
    ("damier queens count 18 --threads 1 --isa neon", "an aarch64 machine's kernel (CI runs it under qemu)"),
    ("damier queens count 20 --threads 2", "q(20): minutes"),
    ("damier queens count 21 --threads 2 --json", "q(21): an hour"),
    ("damier queens estimate 22", "a minute of sampling in a debug build"),
    ("damier queens estimate 27 --samples 12 --seed 13", "minutes of sampling"),
    ("damier queens estimate 28 --samples 3 --seed 28 --json", "minutes of sampling"),
    ("damier queens estimate 28 --samples 40 --seed 28 --json", "an hour of sampling"),
    (
        "target/release/damier queens timing --to 18 --naive-max 13 --csv docs/figures/queens_timing.csv --plot \
         docs/figures/queens_timing.svg",
        "times every n to 18: minutes",
    ),
    ("damier queens solve 1000000000 --out s.txt", "writes 10 GB"),
];

/// Inline commands that answer with another exit code than 0, and that code.
const INLINE_EXITS: &[(&str, i32)] = &[
    ("damier --help >/dev/full", 74),
    ("damier queens count --help >/dev/full", 74),
    ("damier queens solve 1000000 --out /dev/full", 74),
    ("damier queens count 12 --journal j >&-", 74),
];

/// Inline `damier ...` that the docs name as commands that do not exist, with why.
const INLINE_NOT_COMMANDS: &[(&str, &str)] =
    &[("damier lab export", "docs/web.md says why the export is a script rather than this command")];

/// Whether an inline command is a synopsis: a placeholder in capitals (`N`, `FILE`, `K/M`),
/// `WxH`, an optional part, alternatives without spaces (`--figure 1|7`), `...` or `<...>`.
fn is_synopsis(command: &str) -> bool {
    let bytes = command.as_bytes();
    let alternatives = bytes.windows(3).any(|w| w[1] == b'|' && w[0] != b' ' && w[2] != b' ');
    alternatives
        || ["[", "...", "\u{2026}", "<", "WxH"].iter().any(|s| command.contains(s))
        || command.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            w.starts_with(|c: char| c.is_ascii_uppercase())
                && w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        })
}

/// Every inline command (in single backticks, outside code blocks) of the README and
/// `docs/*.md` that is not a synopsis: where it is, its text (`\|` of the tables read as `|`),
/// and whether its file is a history (parsed only).
fn inline_commands() -> Vec<(String, String, bool)> {
    let root = root();
    let mut found = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(&root).unwrap().display().to_string();
        let history = name.ends_with("-history.md");
        // The paragraphs outside code blocks (a span may go on to the next line, never past a
        // blank line), each with the number of its first line.
        let mut paragraphs: Vec<(usize, String)> = Vec::new();
        let (mut in_block, mut open) = (false, None::<(usize, String)>);
        for (i, line) in text.lines().enumerate() {
            let fence = line.trim_start().starts_with("```");
            if in_block || fence || line.trim().is_empty() {
                paragraphs.extend(open.take());
                in_block ^= fence;
                continue;
            }
            let (_, para) = open.get_or_insert_with(|| (i + 1, String::new()));
            para.push_str(line);
            para.push('\n');
        }
        paragraphs.extend(open);
        for (first, para) in paragraphs {
            let mut line = first;
            for (k, piece) in para.split('`').enumerate() {
                if k % 2 == 1 {
                    let command = piece.split_whitespace().collect::<Vec<_>>().join(" ").replace("\\|", "|");
                    let words: Vec<&str> = command.split_whitespace().collect();
                    let is_damier = words.first().is_some_and(|w| *w == "damier" || w.ends_with("/damier"));
                    // `damier = { path = ... }` is a dependency line, not a command.
                    let second_ok = words
                        .get(1)
                        .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase() || c == '-'));
                    if is_damier && second_ok && !is_synopsis(&command) {
                        found.push((format!("{name}:{line}"), command, history));
                    }
                }
                line += piece.matches('\n').count();
            }
        }
    }
    found
}

/// Runs each `damier` of `command` (its parts between `|`, `&&` and `;`, redirections left out)
/// with `--help` appended: the error, if one fails to parse.
fn parses(exe: &Path, command: &str) -> Result<(), String> {
    for part in command.split(['|', ';']).flat_map(|p| p.split("&&")) {
        let words: Vec<&str> = part.split_whitespace().collect();
        if !words.first().is_some_and(|w| *w == "damier" || w.ends_with("/damier")) {
            continue;
        }
        let args: Vec<&str> = words[1..]
            .iter()
            .copied()
            .filter(|w| !w.starts_with(['>', '<']) && !w.starts_with("2>"))
            .collect();
        let out =
            Command::new(exe).args(&args).arg("--help").stdin(std::process::Stdio::null()).output().unwrap();
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("").to_string());
        }
    }
    Ok(())
}

#[test]
fn every_inline_command_in_the_docs_runs_or_parses() {
    let commands = inline_commands();
    assert!(commands.len() > 50, "the docs' inline commands were not read: {commands:?}");
    let lists = INLINE_PARSED_ONLY
        .iter()
        .chain(INLINE_NOT_COMMANDS)
        .map(|(c, _)| *c)
        .chain(INLINE_EXITS.iter().map(|(c, _)| *c));
    let stale: Vec<&str> = lists.filter(|l| !commands.iter().any(|(_, c, _)| c == l)).collect();
    assert!(stale.is_empty(), "inline entries that match no documented command: {stale:?}");
    let exe = assert_cmd::cargo::cargo_bin("damier");
    let (dir, bin) = sandbox();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut failures = Vec::new();
    let (mut ran, mut parsed) = (0, 0);
    let mut seen = std::collections::HashSet::new();
    for (place, command, history) in &commands {
        if !seen.insert(command.clone()) || INLINE_NOT_COMMANDS.iter().any(|(c, _)| c == command) {
            continue;
        }
        if *history || INLINE_PARSED_ONLY.iter().any(|(c, _)| c == command) {
            parsed += 1;
            if let Err(e) = parses(&exe, command) {
                failures.push(format!("{place}: `{command} --help` does not parse: {e}"));
            }
            continue;
        }
        ran += 1;
        let want = INLINE_EXITS.iter().find(|(c, _)| c == command).map_or(0, |(_, code)| *code);
        let Pasted { out, broken } = pasted(dir.path(), &path, command);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(want) || broken.is_some() {
            failures.push(format!(
                "{place}: `{command}` exited {:?} (expected {want}): {}",
                out.status.code(),
                broken.as_deref().unwrap_or_else(|| stderr.lines().last().unwrap_or(""))
            ));
        }
    }
    assert!(ran > 15 && parsed > 50, "only {ran} inline commands ran and {parsed} parsed");
    assert!(failures.is_empty(), "documented inline commands that fail:\n{}", failures.join("\n"));
}

/// Every static server the README and docs tell a reader to start listens on the loopback only
/// (issue 52 §6: the README's `python3 -m http.server -d site/ 8000` listened on every
/// interface), as the lab's own server does: each code-block line that runs `http.server`
/// names `--bind 127.0.0.1`.
#[test]
fn the_docs_static_servers_listen_on_the_loopback() {
    let mut found = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut in_block = false;
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_block = !in_block;
            } else if in_block && line.contains("-m http.server") {
                found += 1;
                assert!(line.contains("--bind 127.0.0.1"), "{}:{}: {line}", file.display(), i + 1);
            }
        }
    }
    assert!(found >= 2, "the README's and docs/web.md's static servers were not read");
}

/// Every `cargo install` of the workspace's own code that the README and docs give is
/// `--locked` (issue 52 §3: without it Cargo resolved 294 packages afresh and built newer
/// versions than `Cargo.lock` pins, the ones tested), inline or in a block, across lines.
#[test]
fn the_docs_install_the_locked_versions() {
    let mut found = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
        for (at, _) in text.match_indices("cargo install") {
            let command = text[at..].split(['`', '#']).next().unwrap_or("");
            if command.contains("--path") {
                found += 1;
                assert!(command.contains("--locked"), "{}: {command}", file.display());
            }
        }
    }
    assert!(found >= 1, "the README's install command was not read");
}
