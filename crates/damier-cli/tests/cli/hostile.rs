//! Hostile inputs across the whole command line, each the reproduction of a defect found by
//! a sweep of every command and option with extreme values (the charter's "never crash, never
//! lie"): no panic on a huge number, no option silently ignored, no run that cannot be
//! stopped or that runs for years without saying so.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::util::{damier, fails_with, fails_with_hooks};

/// Runs `damier ARGS` (with the test hooks `hooks`), sends it SIGINT after `after`, and
/// returns its output once it has stopped (failing if it runs on for 20 s).
#[cfg(unix)]
fn interrupted(args: &[&str], hooks: &[(&str, &str)], after: Duration) -> std::process::Output {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("damier"))
        .args(args)
        .envs(hooks.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(20), "damier {args:?} did not stop on SIGINT");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Numbers at the edge of what the options parse: each refused with exit 2 and one line,
/// where some panicked (an overflow, a `Duration` from 1e300 seconds).
#[test]
fn huge_numbers_are_refused_not_panicked_on() {
    let cases: &[&[&str]] = &[
        // `(sizes + naive) * min_ms` overflowed.
        &["queens", "timing", "--to", "3", "--min-ms", "18446744073709551615"],
        // `Duration::from_secs_f64(1e300)` panicked.
        &["automaton", "scale", "-n", "4..5", "--samples", "1", "--budget", "1e300"],
        &["factor", "sweep", "--bits", "8", "--samples", "1", "--budget", "1e300"],
        // The nullities' loop to n + 1 overflowed.
        &["lights", "bench", "--sizes", "10", "--nullities-to", "18446744073709551615"],
    ];
    for args in cases {
        let err = fails_with(args, 2);
        assert_eq!(
            err.trim_end().lines().filter(|l| !l.is_empty() && !l.starts_with("For more")).count(),
            1,
            "{args:?}: {err}"
        );
    }
    let err = fails_with(&["automaton", "scale", "-n", "4", "--budget", "31557601"], 2);
    assert!(err.contains("a year"), "{err}");
}

/// `queens bench` and `queens timing` took n up to 32, where `queens count` refuses n > 28:
/// a count of q(29) takes core years and its total passes 64 bits.
#[test]
fn bench_and_timing_refuse_the_counts_that_count_refuses() {
    for args in [&["queens", "bench", "29"][..], &["queens", "timing", "--to", "30"]] {
        let err = fails_with(args, 2);
        assert!(err.contains("is refused: the fast engine counts n <= 28"), "{args:?}: {err}");
    }
}

/// clap lets `requires = "X"` pass when X conflicts with an argument given (clap issue 4520):
/// each of these ran with the option silently ignored, exit 0 (`--save-start` wrote nothing).
#[test]
fn options_of_another_mode_are_refused_not_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let start = dir.path().join("start.txt");
    let start = start.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["lights", "solve", "--all-on", "5x5", "--seed", "3"],
        &["lights", "solve", "--all-on", "5x5", "--winnable"],
        &["lights", "solve", "--all-on", "5x5", "--save-start", start],
        &["queens", "list", "8", "--seed", "3", "--unique"],
        &["queens", "list", "8", "--seed", "3", "--limit", "2"],
        &["queens", "solve", "8", "--format", "binary", "--columns"],
        &["automaton", "run", "-n", "6", "--checkpoint-every", "5", "--trace", "100"],
        // --replot runs nothing: the options of a run are refused beside it.
        &["factor", "sweep", "--replot", "runs.csv", "--plot", "f.svg", "--bits", "8"],
        &["factor", "sweep", "--replot", "runs.csv", "--plot", "f.svg", "--q", "0.3"],
    ];
    for args in cases {
        let err = fails_with(args, 2);
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
    }
    assert!(!std::path::Path::new(start).exists());
}

/// A bad token is repeated in the error, but not whole: a line of 10^6 brackets came back as a
/// message of a megabyte.
#[test]
fn a_huge_bad_token_is_not_echoed_whole() {
    let line = "[".repeat(1_000_000);
    let out = damier().args(["queens", "check"]).write_stdin(line).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.len() < 200 && err.lines().count() == 1,
        "{} bytes: {}",
        err.len(),
        &err[..200.min(err.len())]
    );
    let long = "x".repeat(100_000);
    let err = fails_with(&["queens", "check", &long], 2);
    assert!(err.len() < 400, "{} bytes", err.len());
}

/// `queens first 40` backtracks for a long time (n = 34 already takes minutes): it says so
/// (a spinner on a terminal, a line off one once it runs long) and stops on Ctrl-C, where it
/// printed nothing at all.
#[cfg(unix)]
#[test]
fn a_long_first_solution_says_it_runs_and_stops_on_ctrl_c() {
    let out = interrupted(
        &["queens", "first", "40"],
        &[("DAMIER_TEST_LONG_RUN_MS", "0")],
        Duration::from_millis(800),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("damier: queens first:"), "no progress line: {err}");
    assert!(out.stdout.is_empty());
}

/// Refusals with the hooks that make every run long still refuse before any start line.
#[test]
fn a_refused_budget_prints_no_start_line() {
    let err = fails_with_hooks(
        &["factor", "sweep", "--bits", "8", "--samples", "1", "--budget", "inf"],
        &[("DAMIER_TEST_LONG_RUN_MS", "0")],
        2,
    );
    assert!(!err.contains("semiprimes"), "{err}");
}

/// `lights chase-table 30x30` (nullity 20: 2^30 first rows for its 1023 entries) ran for
/// hours and ignored Ctrl-C; the entries now take seconds, and a tall board (one chase of the
/// whole board per column) stops on Ctrl-C.
#[cfg(unix)]
#[test]
fn the_chase_table_of_a_large_kernel_ends_and_a_tall_one_stops_on_ctrl_c() {
    let v = super::util::json(&["lights", "chase-table", "30x30", "--json"]);
    assert_eq!(v["rank"], 10);
    assert_eq!(v["entries"].as_array().map(Vec::len), Some(1023));
    let out = interrupted(&["lights", "chase-table", "4096x40000"], &[], Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `automaton growth --resamples 0` printed each fit's estimate as its 95% interval
/// (`×6.47 per n [6.47, 6.47]`), and `--resamples 1` an interval that missed the estimate:
/// too few resamples for a 95% interval are refused.
#[test]
fn growth_refuses_too_few_resamples_for_an_interval() {
    for k in ["0", "1", "19"] {
        let err =
            fails_with(&["automaton", "growth", "--model", "pair", "--pair-n", "4,5", "--resamples", k], 2);
        assert!(err.contains("20 to 1000000"), "{k}: {err}");
    }
}

/// `walk solve --out` writes the path of boards up to 2^30 cells, and `walk replay --from`
/// says it reads what `--out` writes; it refused every board above 2^24 cells.
#[test]
fn walk_replay_replays_what_solve_out_wrote_past_2_24_cells() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("path.txt");
    let path = path.to_str().unwrap();
    damier().args(["walk", "solve", "4097", "4096", "--method", "poly", "--out", path]).assert().success();
    let v = super::util::json(&["walk", "replay", "4097", "4096", "--from", path, "--json"]);
    assert_eq!(v["all_black"], true, "{v}");
    let err = fails_with(&["walk", "replay", "4097", "4096", "--from", path, "--show"], 2);
    assert!(err.contains("16777216"), "{err}");
}

/// `queens count 20 --memory 1K` printed its start and end lines (`counting q(20): 92504
/// tasks`, `ended after 0.03 s, 0 of 92504 done`) before refusing for memory: the refusal now
/// comes first, alone, naming the limit and the need, and no journal is created.
#[test]
fn a_count_that_cannot_fit_its_memory_is_refused_before_any_line() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("20.journal");
    let journal = journal.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &[],
        &["--share", "1/2"],
        &["--strategy", "quarters"],
        &["--journal", journal],
        &["--share", "2/3", "--verify-sample", "2"],
    ];
    for extra in cases {
        let mut args = vec!["queens", "count", "20", "--memory", "1K"];
        args.extend_from_slice(extra);
        let err = fails_with_hooks(&args, &[("DAMIER_TEST_LONG_RUN_MS", "0")], 2);
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
        assert!(
            err.contains("needs about") && err.contains("more than the 1 KB allowed"),
            "{extra:?}: {err}"
        );
    }
    assert!(!std::path::Path::new(journal).exists());
}

/// `queens count 28 --memory 1K` listed the 20 million tasks of n = 28 (a peak of 321 MB in a
/// release build) before it refused, to learn how many there were (and a share or a journal,
/// 80 MB more of the long count's own list): the refusal counts them without listing them,
/// and still names the memory needed and the limit.
#[cfg(target_os = "linux")]
#[test]
fn a_count_of_28_past_its_memory_is_refused_without_listing_its_tasks() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("28.journal");
    let journal = journal.to_str().unwrap();
    let cases: &[&[&str]] = &[&[], &["--share", "1/1000"], &["--share", "3/7", "--journal", journal]];
    for extra in cases {
        #[allow(clippy::zombie_processes, reason = "reaped by wait4, which reads its peak memory")]
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("damier"))
            .args(["queens", "count", "28", "--memory", "1K"])
            .args(*extra)
            .env("DAMIER_TEST_LONG_RUN_MS", "0")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: `rusage` is plain integers, zero a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child, writing its status and usage into locals we own.
        assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
        let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
        assert_eq!(code, Some(2), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
        assert!(
            err.contains("n = 28 needs about") && err.contains("more than the 1 KB allowed"),
            "{extra:?}: {err}"
        );
        // Linux counts `ru_maxrss` in KiB. The list alone is 321 MB; the program itself some.
        let peak_mib = usage.ru_maxrss / 1024;
        assert!(peak_mib < 64, "{extra:?}: a peak of {peak_mib} MiB to refuse");
    }
    assert!(!std::path::Path::new(journal).exists());
}

/// `--eta 1e308` was refused with its 309-digit expansion (f64's Display writes no exponent):
/// every float option's refusal quotes the value compactly.
#[test]
fn a_huge_float_is_quoted_compactly_in_its_refusal() {
    let cases: &[&[&str]] = &[
        &["automaton", "run", "-n", "6", "--model", "cell", "--eta", "1e308"],
        &["automaton", "run", "-n", "6", "--eps", "1e308"],
        &["automaton", "run", "-n", "6", "--eps", "-1e300"],
        &["automaton", "scale", "-n", "4", "--eps", "1e308"],
        &["automaton", "scale", "-n", "4", "--model", "cell", "--eta", "1e308"],
        &["automaton", "sweep", "-n", "4", "--eps", "1e308"],
        &["automaton", "sweep", "-n", "4", "--model", "cell", "--eta", "1e308"],
        &["automaton", "growth", "--model", "pair", "--pair-n", "4,5", "--eps", "1e308"],
        &["factor", "sweep", "--bits", "8", "--q", "1e308"],
        &["factor", "sweep", "--bits", "8", "--eps", "1e308"],
        &["watch", "--eps", "1e308"],
    ];
    for args in cases {
        let err = fails_with(args, 2);
        assert!(err.len() < 200 && err.contains("e30"), "{args:?}: {} bytes: {err:.300}", err.len());
    }
}

/// `queens first N` takes N up to 64, and past 35 the backtracking may run for years: it says
/// so before it starts, naming the command that constructs a solution at once; below, nothing.
#[cfg(unix)]
#[test]
fn a_first_solution_past_the_measured_sizes_is_announced_with_the_fast_command() {
    let out = interrupted(&["queens", "first", "44"], &[], Duration::from_millis(800));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains("may take hours or years") && first.contains("`damier queens solve 44`"), "{err}");
    let out = damier().args(["queens", "first", "20"]).output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// An automaton run of model 3 at n = 64 resuming from a checkpoint of step 10 in `dir`, each
/// of its checkpoints slowed to about 2 s (25 ms before each of its 80 writes), its stderr
/// read line by line: what the tests of a signal during a checkpoint's write watch.
#[cfg(unix)]
struct SlowCheckpoints {
    dir: tempfile::TempDir,
    path: std::path::PathBuf,
    /// The checkpoint the run resumes from, as it was.
    before: Vec<u8>,
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    /// The stderr lines read so far.
    err: Vec<String>,
}

#[cfg(unix)]
impl SlowCheckpoints {
    /// Most time any awaited event may take: generous for a loaded machine (each is expected
    /// within about 2 s).
    const DEADLINE: Duration = Duration::from_secs(60);

    fn start() -> SlowCheckpoints {
        use std::io::BufRead;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ck");
        let file = path.to_str().unwrap();
        let run = ["automaton", "run", "--model", "row", "-n", "64", "--seed", "1", "--checkpoint", file];
        let mut first = run.to_vec();
        first.extend(["--max-steps", "10"]);
        damier().args(&first).assert().code(1);
        let before = std::fs::read(&path).unwrap();
        // The run resumes from the file, saves at once, runs, and saves again when stopped.
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("damier"))
            .args(run)
            .env("DAMIER_TEST_CHECKPOINT_WRITE_MS", "25")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || stderr.lines().map_while(Result::ok).try_for_each(|l| send.send(l)));
        SlowCheckpoints { dir, path, before, child, lines, err: Vec::new() }
    }

    /// The names of the files in the run's folder.
    fn names(&self) -> Vec<std::ffi::OsString> {
        std::fs::read_dir(self.dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect()
    }

    /// Waits until a checkpoint is being written (its temporary file beside the checkpoint):
    /// the handlers are installed by then, and a signal now comes during a write.
    fn await_a_write(&mut self) {
        let start = Instant::now();
        while self.names().len() < 2 {
            assert!(start.elapsed() < Self::DEADLINE, "no checkpoint write began: {:?}", self.err);
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits for a stderr line holding `text`.
    fn await_line(&mut self, text: &str) {
        let start = Instant::now();
        while !self.err.iter().any(|l| l.contains(text)) {
            let left = Self::DEADLINE.checked_sub(start.elapsed()).unwrap_or_default();
            match self.lines.recv_timeout(left) {
                Ok(line) => self.err.push(line),
                Err(_) => panic!("no line with {text:?} on stderr: {:?}", self.err),
            }
        }
    }

    /// Sends `signal` (`INT`, `TERM`) with the shell's own `kill`.
    fn signal(&self, signal: &str) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args([&format!("-{signal}"), &pid]).status().unwrap().success());
    }

    /// Waits for the run to end; its exit code and its whole stderr.
    fn end(mut self) -> (Option<i32>, String, Self) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(start.elapsed() < Self::DEADLINE, "the run did not stop: {:?}", self.err);
            std::thread::sleep(Duration::from_millis(20));
        };
        // The reader ends with the pipe.
        self.err.extend(self.lines.iter());
        let err = self.err.join("\n");
        (status.code(), err, self)
    }
}

/// A failed assertion must not leave the run going (it runs until stopped, writing checkpoints
/// into a removed folder): it is killed and reaped here, before the folder is removed. After
/// `end` the run has been reaped already and nothing is sent.
#[cfg(unix)]
impl Drop for SlowCheckpoints {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A second Ctrl-C during an automaton checkpoint's write (a gigabyte at n = 16 384, tens of
/// seconds) exited at once and left the half-written temporary file beside the checkpoint: it
/// now removes it, the checkpoint keeps the previous state, and the run exits 130. So does a
/// second SIGTERM (the first killed the run, leaving the temporary file of the write under
/// way). Each signal is sent once what it must meet is seen (a write under way, the line that
/// says the final checkpoint is saved), not after a fixed wait.
#[cfg(unix)]
#[test]
fn a_second_ctrl_c_abandons_a_checkpoint_write_and_keeps_the_previous_one() {
    for signal in ["INT", "TERM"] {
        let mut run = SlowCheckpoints::start();
        // The first signal comes during the write the run makes at once, which ends; the run
        // then stops and says it saves the checkpoint: the second comes during that write.
        run.await_a_write();
        run.signal(signal);
        run.await_line("saving the checkpoint to");
        run.await_a_write();
        run.signal(signal);
        let (code, err, run) = run.end();
        assert_eq!(code, Some(130), "SIG{signal}: {err}");
        assert!(err.contains("was not written (it keeps what it held)"), "SIG{signal}: {err}");
        assert_eq!(run.names(), ["run.ck"], "SIG{signal}: {err}");
        assert!(
            std::fs::read(&run.path).unwrap() == run.before,
            "SIG{signal}: the checkpoint changed: {err}"
        );
    }
}

/// A first Ctrl-C during an automaton checkpoint's write (tens of seconds at n = 16 384) was
/// met with silence until the write ended: the run now says at once, in one line, that the
/// write is finished first and how to abandon it, before it says it saves the final state;
/// each said once, then the run's 'damier: interrupted', exit 130, the checkpoint whole.
#[cfg(unix)]
#[test]
fn a_ctrl_c_during_a_checkpoint_write_says_the_write_is_finished_first() {
    let mut run = SlowCheckpoints::start();
    run.await_a_write();
    run.signal("INT");
    let (code, err, run) = run.end();
    assert_eq!(code, Some(130), "{err}");
    let file = run.path.display().to_string();
    let finishing = format!(
        "damier: the checkpoint being written to {file} is finished first (Ctrl-C again abandons \
         it: the file keeps the last one)"
    );
    let lines: Vec<&str> = err.lines().collect();
    let at = |text: &str| {
        assert_eq!(lines.iter().filter(|l| l.contains(text)).count(), 1, "{text:?} once: {err}");
        lines.iter().position(|l| l.contains(text)).unwrap()
    };
    let (said, saving, saved) = (at(&finishing), at("saving the checkpoint to"), at("checkpoint saved to"));
    assert!(said < saving && saving < saved, "{err}");
    assert_eq!(lines.last(), Some(&"damier: interrupted"), "{err}");
    assert_eq!(run.names(), ["run.ck"], "{err}");
}

/// SIGTERM during an automaton checkpoint's write killed the run and left the temporary file
/// beside the checkpoint: it now stops the run as Ctrl-C does, the write finished, the final
/// checkpoint saved (exit 130), and nothing else left in the folder.
#[cfg(unix)]
#[test]
fn sigterm_during_a_checkpoint_write_stops_the_run_cleanly() {
    let mut run = SlowCheckpoints::start();
    run.await_a_write();
    run.signal("TERM");
    let (code, err, run) = run.end();
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("saving the checkpoint to") && err.contains("checkpoint saved to"), "{err}");
    assert_eq!(run.names(), ["run.ck"], "{err}");
    // The checkpoint saved reads back: the run resumes from it and goes on.
    let file = run.path.to_str().unwrap();
    damier()
        .args(["automaton", "run", "--model", "row", "-n", "64", "--seed", "1", "--checkpoint", file])
        .args(["--max-steps", "20"])
        .assert()
        .code(1);
}

/// SIGTERM is a Ctrl-C, but a command that polls no control (blocked reading a pipe that
/// never ends) must still end on it, as it did when SIGTERM killed it: it exits 130 after
/// the grace a stopping run is given (10 s), where it would read on forever.
#[cfg(target_os = "linux")]
#[test]
fn sigterm_ends_a_command_blocked_reading_its_input() {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("damier"))
        .args(["queens", "check"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Sent once the process catches SIGTERM (bit 14 of the mask in /proc), not before its
    // handler is installed.
    let status = format!("/proc/{}/status", child.id());
    let start = Instant::now();
    let caught = || {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let mask = text.lines().find_map(|l| l.strip_prefix("SigCgt:")).unwrap_or("0");
        u64::from_str_radix(mask.trim(), 16).unwrap_or(0) & (1 << (libc::SIGTERM - 1)) != 0
    };
    while !caught() {
        assert!(start.elapsed() < Duration::from_secs(60), "SIGTERM never caught");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(60), "a blocked read outlived SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Its input still open: the command ended on the signal, not at the input's end.
    let stdin = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert_eq!(err.trim_end(), "damier: interrupted");
}

/// A number of 100 000 digits came back whole, twice in clap's refusals (`invalid value
/// '999...' for '--threads': 999... is out of range`) and once in `factor`'s (`N = 999... is
/// too large`): every message cuts a word that long to its ends and its length.
#[test]
fn a_huge_typed_number_is_not_echoed_whole() {
    let big = "9".repeat(100_000);
    let cases: &[&[&str]] = &[
        &["factor", &big],
        &["queens", "count", &big],
        &["queens", "count", "8", "--threads", &big],
        &["queens", "count", "8", "--memory", &big],
        &["automaton", "scale", "-n", "4", "--budget", &big],
        &["factor", "sweep", "--bits", &big],
        &["lights", "solve", "--all-on", &big],
    ];
    for args in cases {
        let err = fails_with(args, 2);
        assert!(
            err.len() < 600 && err.contains("...9") && err.contains(" bytes)"),
            "{:?}: {} bytes: {err:.300}",
            &args[..2],
            err.len()
        );
    }
}

/// A board size of 100 000 digits got clap's refusal in Rust's words (`number too large to fit
/// in target type`) over three lines (a blank one and clap's tip); so did a size past 2^32 - 1
/// (`is not in 0..=4294967295`) and one that is no number: each is one short line, the long
/// value cut, exit 2.
#[test]
fn a_board_size_past_any_is_one_short_line() {
    let big = "9".repeat(100_000);
    let cases: &[(&[&str], &str)] = &[
        (&["queens", "count", &big], "for '<N>': too large"),
        (&["queens", "first", &big], "for '<N>': too large"),
        (&["queens", "max", &big], "for '<N>': too large"),
        (&["queens", "count", "5000000000"], "5000000000 is out of range: 0 to 2^32 - 1 is supported"),
        (&["queens", "count", "eight"], "'eight' for '<N>': not a whole number"),
    ];
    for (args, says) in cases {
        let err = fails_with(args, 2);
        assert_eq!(err.lines().count(), 1, "{:?}: {err:.300}", &args[..2]);
        assert!(err.len() < 200 && err.contains(says), "{:?}: {} bytes: {err:.300}", &args[..2], err.len());
        assert!(!err.contains("target type") && !err.contains("..="), "{:?}: {err:.300}", &args[..2]);
    }
}

/// `automaton growth --from` read a run of n = 2^32 - 1 for model 1 (its sides stop at 2048)
/// and summarized it; a side outside the series' range is refused with the file's line, and a
/// huge negative time is quoted compactly.
#[test]
fn growth_runs_files_are_held_to_the_command_lines_sides() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.csv");
    let file = path.to_str().unwrap();
    let header = "series,n,seed,steps,moves,solved,cpu_s\n";
    for (rows, wanted) in [
        (
            "pair,4294967295,1,3,35,true,0.1\npair,5,1,3,35,true,0.1\n",
            "column n: 4294967295 is out of range: 1 to 2048",
        ),
        ("pair,0,1,3,35,true,0.1\n", "column n: 0 is out of range"),
        ("row,16385,1,3,35,true,0.1\n", "column n: 16385 is out of range: 1 to 16384"),
        ("pair,4,1,3,35,true,-1e308\n", "not a number of seconds: -1e308"),
    ] {
        std::fs::write(&path, format!("{header}{rows}")).unwrap();
        let err = fails_with(&["automaton", "growth", "--from", file], 2);
        assert!(err.contains(wanted) && err.len() < 300, "{rows}: {err:.300}");
    }
}

/// A checkpoint with bytes past its declared length was refused as `larger than 16393 bytes`,
/// the size of what follows its header, neither the file's size nor the checkpoint's.
#[test]
fn a_checkpoint_too_long_is_refused_with_its_declared_length() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ck");
    let file = path.to_str().unwrap();
    damier()
        .args(["automaton", "run", "--model", "row", "-n", "64", "--max-steps", "5", "--checkpoint", file])
        .assert()
        .code(1);
    let mut bytes = std::fs::read(&path).unwrap();
    let len = bytes.len();
    bytes.extend_from_slice(b"xx");
    std::fs::write(&path, &bytes).unwrap();
    let err = fails_with(&["automaton", "run", "--checkpoint", file], 2);
    assert!(err.contains(&format!("larger than {len} bytes")), "{len}: {err}");
}

/// `automaton trap --figure 0` said `1 to 7 is supported`, then `--figure 3` was refused (only
/// figures 1 and 7 are trap positions): the two figures are the values listed.
#[test]
fn trap_figures_are_the_two_it_runs() {
    for figure in ["0", "3", "8"] {
        let err = fails_with(&["automaton", "trap", "--figure", figure], 2);
        assert!(err.contains("[possible values: 1, 7]") && !err.contains("1 to 7"), "{figure}: {err}");
    }
}

/// A CSV with `\r\n` line breaks (a spreadsheet's) had its errors one line early, and one with
/// `\r` breaks had every error on line 1: the line is counted from the file's own breaks.
#[test]
fn csv_errors_name_the_line_whatever_its_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.csv");
    let file = path.to_str().unwrap();
    let lines =
        ["series,n,seed,steps,moves,solved,cpu_s", "pair,4,1,3,35,true,0.1", "", "pair,5,1,3,35,true,-3"];
    for newline in ["\n", "\r\n", "\r"] {
        std::fs::write(&path, lines.join(newline) + newline).unwrap();
        let err = fails_with(&["automaton", "growth", "--from", file], 2);
        assert!(err.contains("line 4, column cpu_s"), "{newline:?}: {err}");
    }
}

/// Text whose lines end at a lone `\r` was read as one line: `queens check` of two 4-queen
/// placements checked one of 8 queens (`invalid: 6 attacking pairs on the 8x8 board`), a
/// Lights Out board of 3 rows was solved as one row of 9, a position was refused (`row has 16
/// cells`). A lone `\r` ends a line as `\n` and `\r\n` do.
#[test]
fn lines_may_end_at_a_lone_carriage_return() {
    let out = damier().args(["queens", "check"]).write_stdin("2 4 1 3\r3 1 4 2\r").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("2 placements") || text.contains("2 of 2"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.txt");
    std::fs::write(&board, "101\r010\r101\r").unwrap();
    let v = super::util::json(&["lights", "solve", board.to_str().unwrap(), "--json"]);
    assert_eq!((v["width"].as_u64(), v["height"].as_u64()), (Some(3), Some(3)), "{v}");
    let position = dir.path().join("p.txt");
    std::fs::write(&position, "1...\r..1.\r.1..\r...1\r").unwrap();
    let out = damier()
        .args(["automaton", "run", "--from", position.to_str().unwrap(), "--max-steps", "10", "--json"])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 4, "{v}");
}

/// A valid tiny probability was echoed in full in the reports: `automaton run --eps 1e-300`
/// printed `eps = 0.000...` with 300 zeros, as did factor's `q = ...` and the sweep's rows.
#[test]
fn a_tiny_probability_is_printed_as_given() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["automaton", "run", "-n", "6", "--eps", "1e-300", "--seed", "1", "--max-steps", "100"],
            "eps = 1e-300",
        ),
        (
            &[
                "automaton",
                "run",
                "-n",
                "6",
                "--model",
                "cell",
                "--eta",
                "1e-300",
                "--seed",
                "1",
                "--max-steps",
                "100",
            ],
            "eta = 1e-300",
        ),
        (&["factor", "143", "--q", "1e-300", "--seed", "1", "--max-steps", "10"], "q = 1e-300"),
        (
            &[
                "automaton",
                "sweep",
                "-n",
                "5",
                "--eps",
                "1e-300",
                "--samples",
                "1",
                "--max-steps",
                "100",
                "--seed",
                "1",
            ],
            "1e-300",
        ),
    ];
    for (args, says) in cases {
        let out = damier().args(*args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(says) && !text.contains("0.0000000000"), "{args:?}: {text:.300}");
    }
}

/// `--share 1/18446744073709551615` said `share count "18446744073709551615" is not a positive
/// integer`, and `--memory 16E` that 16E is `not a size between 1 byte and 16 EiB`: the
/// refusals say what the bound is.
#[test]
fn out_of_range_shares_and_sizes_say_the_bound() {
    let err = fails_with(&["queens", "count", "12", "--share", "1/18446744073709551615"], 2);
    assert!(err.contains("the share count must be 1 to 1000000"), "{err}");
    let err = fails_with(&["queens", "count", "12", "--share", "99999999999/4"], 2);
    assert!(err.contains("share 99999999999 of 4: K must be 1 to 4"), "{err}");
    let err = fails_with(&["queens", "count", "12", "--memory", "16E"], 2);
    assert!(err.contains("below 16 EiB"), "{err}");
}

/// Probe of 2026-12-06: the `--gpu-*` options were silently ignored where no GPU runs
/// (`queens count 8 --gpu-adapter 3`: counted on the CPU, exit 0), where `automaton run`
/// refused its `--gpu-adapter` without `--device gpu`. Refused now, in every build, naming the
/// option and what runs the GPU.
#[test]
fn gpu_options_without_a_gpu_are_refused_not_ignored() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["queens", "count", "8", "--gpu-adapter", "3"],
            "--gpu-adapter sets the GPU's count: it needs --device gpu or all",
        ),
        (&["queens", "count", "8", "--device", "cpu", "--gpu-budget", "3"], "--gpu-budget"),
        (&["queens", "count", "8", "--device", "list", "--gpu-portable"], "--gpu-portable"),
        (
            &["queens", "estimate", "10", "--samples", "3", "--gpu-kernel", "join"],
            "--gpu-kernel sets the GPU's count: it needs --device gpu",
        ),
        (&["gpu", "--gpu-ahead", "1"], "--gpu-ahead sets the GPU's count: it needs --bench N"),
    ];
    for (args, says) in cases {
        let err = fails_with(args, 2);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Probe of 2026-12-06: `queens sum` took a share report's seconds as they were, so an edited
/// report made it print "-0.998 s of counting in all", or "inf s" (and `"seconds": null` with
/// --json) for two reports of 1e308 s. Refused now, naming the share.
#[test]
fn share_reports_with_impossible_seconds_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let report = |k: u32, seconds: &str| {
        let mut v = super::util::json(&["queens", "count", "8", "--share", &format!("{k}/2"), "--json"]);
        v["seconds"] = serde_json::from_str(seconds).unwrap();
        let path = dir.path().join(format!("{k}-{seconds}.json"));
        std::fs::write(&path, v.to_string()).unwrap();
        path.to_str().unwrap().to_owned()
    };
    for (first, second, says) in
        [("0.5", "-1", "share 2 of 2: seconds = -1"), ("1e308", "1e308", "seconds = 1e308")]
    {
        let err = fails_with(&["queens", "sum", &report(1, first), &report(2, second)], 2);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says) && err.contains("is not a wall time"), "{err}");
    }
}

/// Probe of 2026-12-06: `automaton growth` ran without the sides or step cap given for a
/// model it did not run (`--model pair --cell-n 5`, `--row-max-steps 5`: exit 0, model 1
/// alone), where `--rule` without row was refused. Refused now, naming the model to add; an
/// empty list of sides (`--cell-n ""`) still means none.
#[test]
fn growth_refuses_the_options_of_a_model_it_does_not_run() {
    let base = ["automaton", "growth", "--model", "pair", "--pair-n", "4", "--local-n", "", "--samples", "1"];
    for (extra, says) in [
        (&["--cell-n", "5"][..], "--cell-n sets the runs of model 2 (cell): add cell to --model"),
        (&["--cell-max-steps", "5"], "--cell-max-steps sets the runs of model 2 (cell)"),
        (&["--row-n", "16"], "--row-n sets the runs of model 3 (row): add row to --model"),
        (&["--row-max-steps", "5"], "--row-max-steps sets the runs of model 3 (row)"),
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let err = fails_with(&args, 2);
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
    }
    let mut args = base.to_vec();
    args.extend_from_slice(&["--cell-n", "", "--max-steps", "1000"]);
    super::util::damier().args(&args).assert().success();
}

/// Probe of 2026-12-06: `queens bench 28` and `queens timing --to 28` counted q(28) (1.79e6
/// core hours projected) saying only its tasks, or "at least 1.4 s in all", where `queens count
/// 28` says its projection first. They now say it too, past the same threshold (lowered to 0
/// here by the test hook, so that q(12) is announced; unannounced without it).
#[test]
fn bench_and_timing_announce_a_long_count() {
    let says = "counting q(12) once is projected at";
    for args in [
        &["queens", "bench", "12"][..],
        &["queens", "timing", "--to", "12", "--naive-max", "0", "--min-ms", "1"],
    ] {
        let out =
            super::util::hooked(&[("DAMIER_TEST_COST_WARNING_HOURS", "0")]).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.contains(says) && err.contains("core hours"), "{args:?}: {err}");
        let out = damier().args(args).output().unwrap();
        assert!(!String::from_utf8_lossy(&out.stderr).contains(says), "{args:?}");
    }
}

/// Probe of 2026-12-06: an empty file argument was taken as a path: `queens solve 10 --out ""`
/// and `automaton sweep --csv ""` ran the whole command, then failed their write with exit 74
/// ("cannot write : No such file or directory"), as a system fault. Refused as it is parsed
/// now, exit 2, before anything runs.
#[test]
fn an_empty_file_argument_is_refused_before_the_run() {
    for args in [
        &["queens", "solve", "10", "--out", ""][..],
        &[
            "automaton",
            "sweep",
            "-n",
            "5",
            "--samples",
            "2",
            "--eps",
            "0.1",
            "--max-steps",
            "100",
            "--csv",
            "",
        ],
        &["automaton", "run", "-n", "6", "--max-steps", "100", "--checkpoint", ""],
        &["queens", "count", "12", "--journal", ""],
        &["walk", "export", "", "--to", "2"],
        &["lights", "solve", ""],
    ] {
        let err = fails_with(args, 2);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("an empty path names no file"), "{args:?}: {err}");
        assert!(!err.contains("damier: automaton sweep:"), "{args:?}: a start line: {err}");
    }
}
