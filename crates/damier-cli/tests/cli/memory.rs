//! Memory bounds: every reader of a user's file and every listing is refused (exit 2, one line
//! naming the limit) before it holds memory in proportion to the input or to the listing.
//! Each command runs under an address-space limit (`setrlimit(RLIMIT_AS)` before `exec`), where
//! an allocation past it aborts the process: a signal, not an exit code. Before the fixes of
//! issue 35, each of them read or built gigabytes (`lights solve /dev/zero` read 8.4 GB; `lights
//! solve --all-on 1991x1991 --all --json` aborted at 5.8 GB; `walk solve 237 237 --all` climbed
//! past 1.6 GB).

#![cfg(target_os = "linux")]

use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};

/// The address space each command may take: room for a debug build, its threads and their
/// stacks, far below what any of the refused commands took before.
const LIMIT: u64 = 1 << 30;

/// `damier ARGS` under [`LIMIT`], with `stdin` (glibc's malloc held to one arena, so that
/// threads reserve no address space of their own).
fn limited(args: &[&str], stdin: Stdio) -> Output {
    limited_to(LIMIT, args, stdin)
}

/// `damier ARGS` under an address-space limit of `bytes`.
fn limited_to(bytes: u64, args: &[&str], stdin: Stdio) -> Output {
    limited_command(bytes, args, stdin).output().expect("runs")
}

/// The command of [`limited_to`], not started.
fn limited_command(bytes: u64, args: &[&str], stdin: Stdio) -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("damier"));
    c.args(args).stdin(stdin).env("MALLOC_ARENA_MAX", "1");
    // SAFETY: between fork and exec, only `setrlimit` (async-signal-safe) runs; it takes a
    // plain struct on the stack and allocates nothing.
    unsafe {
        c.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c
}

/// Asserts that `out` is a clean refusal: exit 2, one line on stderr that contains `says`.
fn refused(out: &Output, what: &str, says: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {:?}, stderr {err}", out.status);
    assert_eq!(err.lines().count(), 1, "{what}: one line: {err}");
    assert!(err.contains(says), "{what}: {err} does not say {says:?}");
}

fn zeros() -> Stdio {
    Stdio::from(std::fs::File::open("/dev/zero").expect("/dev/zero"))
}

#[test]
fn listings_are_refused_before_they_are_made() {
    for args in [
        &["lights", "solve", "--all-on", "1991x1991", "--all", "--json"][..],
        &["lights", "solve", "--all-on", "1991x1991", "--all"],
        &["lights", "solve", "--random", "1991x1991", "--seed", "1", "--all"],
        &["walk", "solve", "237", "237", "--all"],
        &["walk", "solve", "237", "237", "--all", "--json"],
    ] {
        refused(
            &limited(args, Stdio::null()),
            &args.join(" "),
            "too many to list: at most 2^16 solutions and 10000000 cells",
        );
    }
    let args = ["queens", "list", "1000", "--random", "1000000", "--seed", "1"];
    refused(&limited(&args, Stdio::null()), "queens list --random", "at most 16777216 queens in all");
}

#[test]
fn every_board_reader_refuses_an_endless_input_at_once() {
    let bad = "line 1, column 1: unexpected character '\\0'";
    for args in [
        &["lights", "solve", "/dev/zero"][..],
        &["lights", "solve", "/dev/zero", "--json"],
        &["lights", "winnable", "/dev/zero"],
        &["lights", "chase", "/dev/zero"],
        &["lights", "solve", "--all-on", "5x5", "--target", "/dev/zero"],
        &["lights", "winnable", "/dev/zero", "--target", "/dev/zero"],
        &["play", "lights", "--from", "/dev/zero"],
    ] {
        refused(&limited(args, Stdio::null()), &args.join(" "), bad);
    }
    refused(&limited(&["lights", "solve", "-"], zeros()), "lights solve - < /dev/zero", bad);
    refused(&limited(&["lights", "winnable", "-"], zeros()), "lights winnable - < /dev/zero", bad);
}

#[test]
fn every_other_reader_stops_at_its_cap() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("f.svg");
    let replot = ["factor", "sweep", "--replot", "/dev/zero", "--plot", plot.to_str().unwrap()];
    for (args, says) in [
        (
            &["automaton", "run", "--from", "/dev/zero"][..],
            "/dev/zero: larger than 64 MiB, the most a position takes",
        ),
        // The header is read first and says how long the file must be: refused at once.
        (&["automaton", "run", "--checkpoint", "/dev/zero"], "/dev/zero: not a damier automaton checkpoint"),
        (
            &["queens", "sum", "/dev/zero"],
            "/dev/zero: larger than 256 MiB, the most a file of shares' reports takes",
        ),
        (&replot[..], "/dev/zero: larger than 256 MiB, the most a CSV file takes"),
    ] {
        refused(&limited(args, Stdio::null()), &args.join(" "), says);
    }
    refused(
        &limited(&["queens", "check"], zeros()),
        "queens check < /dev/zero",
        "stdin: larger than 256 MiB, the most a placement takes",
    );
    refused(&limited(&["queens", "sum"], zeros()), "queens sum < /dev/zero", "stdin: larger than 256 MiB");
}

/// Issue 49: a count journal on a device was read up to the journal's own bound, 2 GiB, before
/// it was refused. Now anything but a regular file is refused before a byte is read, by every
/// command that reads or continues a journal (under the 1 GiB limit, a read of the bound would
/// abort).
#[test]
fn count_journals_that_are_not_files_are_refused_unread() {
    let says = "journal /dev/zero is a character device, not a regular file";
    for args in [
        &["queens", "journal", "/dev/zero"][..],
        &["queens", "journal", "/dev/zero", "--json"],
        &["queens", "count", "8", "--journal", "/dev/zero"],
        &["queens", "count", "8", "--journal", "/dev/zero", "--share", "1/2"],
    ] {
        refused(&limited(args, Stdio::null()), &args.join(" "), says);
    }
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    refused(
        &limited(&["queens", "journal", folder], Stdio::null()),
        "a folder",
        "is a folder, not a regular file",
    );
}
/// Issue 49: sizes inside each command's bound aborted (signal 6) under `prlimit
/// --as=3000000000`, each past a check that counted one buffer of several: every board the
/// solve holds, the transpose of a wide board, the checker's hash map. Each now runs, or is
/// refused at once (exit 2, one line with what it needs and the limit).
#[test]
fn sizes_inside_the_bounds_run_or_are_refused_never_abort() {
    const ISSUE_CAP: u64 = 3_000_000_000;
    // Their boards together (4 GB) do not fit the cap: refused before the start is made.
    for args in [
        &["lights", "solve", "--all-on", "131072x131072"][..],
        &["lights", "solve", "--all-on", "1x268435456"],
        &["lights", "solve", "--all-on", "1x268435456", "--json"],
    ] {
        refused(
            &limited_to(ISSUE_CAP, args, Stdio::null()),
            &args.join(" "),
            "board holds 4 GB of boards at once: out of memory: more than the address-space limit, 2.79 GB",
        );
    }
    // A random winnable start is drawn on three boards at once (1.5 GB here): counted too.
    refused(
        &limited(
            &["lights", "solve", "--random", "65536x65536", "--winnable", "--seed", "1", "--summary"],
            Stdio::null(),
        ),
        "lights solve --random 65536x65536 --winnable",
        "holds 1.5 GB of boards at once: out of memory: more than the address-space limit, 1 GB",
    );
    // `lights winnable` holds the start, the presses and the lights to change after its solve
    // (three boards of 48 MB here, nullity 0): counted before the solve, refused under a cap
    // below them, run under one above.
    let dir = tempfile::tempdir().unwrap();
    let pbm = dir.path().join("b.pbm");
    let mut bytes = b"P4\n20000 20000\n".to_vec();
    bytes.resize(bytes.len() + 2500 * 20000, 0xff);
    std::fs::write(&pbm, bytes).unwrap();
    let args = ["lights", "winnable", pbm.to_str().unwrap()];
    refused(
        &limited_to(150_000_000, &args, Stdio::null()),
        "lights winnable 20000x20000",
        "the winnability test of a 20000x20000 board holds 144 MB of boards at once: out of memory",
    );
    let out = limited(&args, Stdio::null());
    assert_eq!(out.status.code(), Some(0), "lights winnable 20000x20000: {out:?}");
    // The random winnable start of the same size (three boards) is drawn under the 1 GiB cap.
    let out = limited(
        &["lights", "solve", "--random", "20000x20000", "--winnable", "--seed", "1", "--summary"],
        Stdio::null(),
    );
    assert_eq!(out.status.code(), Some(0), "lights solve --random 20000x20000 --winnable: {out:?}");
    // Solved on their transpose, whose rows are whole words: 128 GB and 7.45 GB, refused.
    for (args, says) in [
        (&["lights", "solve", "--all-on", "17179869184x1"][..], "which would hold 128 GB"),
        (&["lights", "solve", "--all-on", "1000000000x2", "--summary"], "which would hold 7.45 GB"),
        (
            &["lights", "solve", "--random", "1000000000x2", "--seed", "1", "--summary"],
            "which would hold 7.45 GB",
        ),
    ] {
        let out = limited_to(ISSUE_CAP, args, Stdio::null());
        refused(&out, &args.join(" "), says);
        refused(&out, &args.join(" "), "at most 2 GB a board");
    }
    // Nullity 0: the kernel is empty, and its transpose (8 GB) is never made.
    let out = limited_to(ISSUE_CAP, &["lights", "kernel", "1000000000x2"], Stdio::null());
    assert_eq!(out.status.code(), Some(0), "lights kernel 1000000000x2: {out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("nullity 0"));
    // Nullity 4: four boards and their transposes, 5.31 GB, refused before the folder is made.
    let dir = tempfile::tempdir().unwrap();
    let kernel_dir = dir.path().join("k");
    let args = ["lights", "kernel", "134217729x4", "--out", kernel_dir.to_str().unwrap()];
    refused(&limited(&args, Stdio::null()), "lights kernel 134217729x4 --out", "would hold 5.31 GB");
    assert!(!kernel_dir.exists(), "no folder made for a refused kernel");
    refused(
        &limited(&["lights", "solve", "--all-on", "134217729x4", "--min", "--summary"], Stdio::null()),
        "lights solve --min",
        "its kernel basis, 4 boards, would hold 5.31 GB",
    );
}

#[test]
fn queens_max_and_check_hold_16_and_12_bytes_a_row() {
    // Under a cap below what they hold: refused at once, with the need and the limit.
    const SMALL: u64 = 150_000_000;
    refused(
        &limited_to(SMALL, &["queens", "max", "10000000"], Stdio::null()),
        "queens max 10000000",
        "n = 10000000 holds 153 MB (16 bytes per row): out of memory: more than the address-space limit",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.bin");
    let big = |rows: u32| {
        let bytes: Vec<u8> = (1..=rows).flat_map(u32::to_le_bytes).collect();
        std::fs::write(&file, bytes).unwrap();
        Stdio::from(std::fs::File::open(&file).unwrap())
    };
    refused(
        &limited_to(SMALL, &["queens", "check"], big(10_000_000)),
        "queens check < 10^7 rows",
        "checking 10000000 rows, 1 placement, holds 153 MB (12 bytes a row and 136 a placement besides \
         the input): out of memory",
    );
    // 3 * 10^6 rows took about 2 GB (a hash map entry per queen and line): now about 50 MB,
    // run to the end under the 1 GiB cap. One column per row, all in column order: every
    // queen attacks along the diagonal, 3 * 10^6 - 1 pairs reported (20 bytes each).
    let out = limited(&["queens", "check"], big(3_000_000));
    assert_eq!(out.status.code(), Some(1), "queens check < 3 * 10^6 rows: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("invalid: 2999999 attacking pairs on the 3000000x3000000 board"), "{text}");
    // A JSON answer was parsed into a tree of values, about 600 bytes a column (5.5 GB for
    // `queens solve 9000000 --json`, signal 6 under the issue's 3 GB cap): now read as it
    // goes by, 4 bytes a column, 3 * 10^6 rows checked under the 1 GiB cap.
    let n = 3_000_001u32; // n mod 6 = 1: the even columns, then the odd ones, is a solution.
    let columns: Vec<String> = (2..=n).step_by(2).chain((1..=n).step_by(2)).map(|c| c.to_string()).collect();
    let json = format!("{{\"n\": {n}, \"method\": \"construct\", \"columns\": [{}]}}", columns.join(", "));
    let out = limited(&["queens", "check"], text_file(&file, &json));
    assert_eq!(out.status.code(), Some(0), "queens check < solve 3000001 --json: {out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("valid: 3000001 queens"), "{out:?}");
    // A listing of 10^6 placements of one row each (JSON, bracketed text with no space to
    // count as tokens): 136 bytes a placement besides its row, 153 MB, refused at once.
    let json = format!("{{\"n\": 1, \"solutions\": [{}]}}", vec!["[1]"; 1_000_000].join(","));
    for (what, text) in [("JSON", json), ("text", "(1)".repeat(1_000_000))] {
        refused(
            &limited_to(SMALL, &["queens", "check"], text_file(&file, &text)),
            &format!("queens check < 10^6 placements ({what})"),
            " placements, holds 14",
        );
    }
    // Local search at its limit holds 501 MB: refused at once under a smaller cap.
    refused(
        &limited_to(300_000_000, &["queens", "solve", "100000000", "--method", "local"], Stdio::null()),
        "queens solve 10^8 --method local",
        "n = 100000000: local search holds 501 MB (4 bytes a row and 10 bits of bitmaps): out of memory",
    );
    // The construction's check at its limit holds 5n bits (597 MB at 10^9): checked too.
    refused(
        &limited_to(300_000_000, &["queens", "solve", "1000000000", "--out", "/dev/null"], Stdio::null()),
        "queens solve 10^9",
        "n = 1000000000: verifying the construction holds 597 MB (5n bits): out of memory",
    );
    let out = limited(&["queens", "max", "3000000"], Stdio::null());
    assert_eq!(out.status.code(), Some(0), "queens max 3000000: {out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("R(3000000) = 3000000"));
}

/// `text` written to `file`, opened for reading.
fn text_file(file: &std::path::Path, text: &str) -> Stdio {
    std::fs::write(file, text).unwrap();
    Stdio::from(std::fs::File::open(file).unwrap())
}

/// A legal board larger than the address space lets the reader hold: refused when its words
/// cannot be reserved (exit 2, one line), where the reader's growth aborted (signal 6).
#[test]
fn a_board_reader_refused_memory_says_so() {
    use std::io::Write;
    // A 65536 x 65536 raw PBM, 512 MiB of bits, under a 300 MB limit; the pixels stream in
    // until the reader gives up (the writer then meets a closed pipe).
    let mut child = limited_command(300_000_000, &["lights", "solve", "-", "--summary"], Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let zeros = vec![0u8; 1 << 20];
        let _ = stdin.write_all(b"P4\n65536 65536\n");
        for _ in 0..600 {
            if stdin.write_all(&zeros).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().expect("runs");
    writer.join().unwrap();
    refused(
        &out,
        "lights solve - < a 65536x65536 PBM",
        "stdin: out of memory: 256 MB could not be allocated",
    );
}

/// The walk's path to a file (up to 2^30 cells) was built in a vector left to double and
/// then copied into its text: `walk solve 32768 32768 --method poly --out FILE` was signal 6
/// after 37 s under a 3 GB limit. What it holds is now computed from the size (2.38 GB here:
/// the longest path, a byte a move, and three boards) and refused at once when it cannot fit.
#[test]
fn the_walks_path_is_refused_when_it_cannot_fit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let args = ["walk", "solve", "32768", "32768", "--method", "poly", "--out", file.to_str().unwrap()];
    refused(
        &limited(&args, Stdio::null()),
        "walk solve 32768 32768 --out",
        "the path of the 32768 x 32768 board holds 2.38 GB",
    );
    refused(
        &limited(&args, Stdio::null()),
        "walk solve 32768 32768 --out",
        "more than the address-space limit, 1 GB",
    );
    assert!(!file.exists());
}

/// A checkpoint is streamed to its file: it was made in memory first (its bytes and every cell
/// word again, twice the board on top of the run: 3.1 GB peak at n = 16 384 where the run
/// holds 1 GB). At n = 4096 the run fits in about 130 MiB of address space; the checkpoint in
/// memory needed 128 MB more.
#[test]
fn an_automaton_checkpoint_is_streamed_not_held() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ck.bin");
    let args = ["automaton", "run", "--model", "row", "-n", "4096", "--seed", "2", "--max-steps", "0"];
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--checkpoint", file.to_str().unwrap()]);
    let out = limited_to(176 << 20, &all, Stdio::null());
    // Exit 1: no solution within 0 steps; the checkpoint written whole.
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 4 * 4096 * 4096 + 98);
}

/// Probe of 2026-12-06: sizes inside their commands' ranges aborted (signal 6, a backtrace)
/// under the 1 GiB limit, each allocating before any check: model 3's board at n = 16 384
/// (its planes, 1.26 GB), and `lights bench`'s random start of 100 000 x 100 000 (two boards,
/// 2.33 GB), the latter after its start line. Each is now refused at once, one line naming
/// what it holds and the limit.
#[test]
fn automaton_boards_and_lights_bench_boards_are_refused_not_aborted_on() {
    for args in [
        &["automaton", "run", "--model", "row", "-n", "16384", "--max-steps", "1"][..],
        &["automaton", "run", "--model", "row", "-n", "16384", "--max-steps", "1", "--json"],
        // An experiment's runs: one on a pool of one thread, before the start line.
        &[
            "automaton",
            "sweep",
            "--model",
            "row",
            "-n",
            "16384",
            "--samples",
            "1",
            "--eps",
            "0.1",
            "--threads",
            "1",
        ],
        &["automaton", "growth", "--model", "row", "--row-n", "16384", "--samples", "1", "--threads", "1"],
    ] {
        refused(
            &limited(args, Stdio::null()),
            &args.join(" "),
            "a run of model 3 at n = 16384 holds 1.26 GB: out of memory: more than the address-space limit, 1 GB",
        );
    }
    let args = ["lights", "bench", "--sizes", "10,100000", "--nullities-to", "0"];
    refused(
        &limited(&args, Stdio::null()),
        "lights bench --sizes 100000",
        "solving a 100000x100000 board holds 2.33 GB of boards at once: out of memory",
    );
    // A size beyond any board, after one that runs: refused before the start line too.
    let err =
        super::util::fails_with(&["lights", "bench", "--sizes", "10,4294967296", "--nullities-to", "0"], 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("4294967296x4294967296 board is too large"), "{err}");
}

/// Runs `command` for `seconds`, then sends it Ctrl-C (SIGINT) unless it has ended: whether it
/// ended before, and its output.
fn interrupted_after(mut command: Command, seconds: u64) -> (bool, Output) {
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_secs(seconds));
    let early = child.try_wait().unwrap().is_some();
    if !early {
        let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
        assert!(status.success());
    }
    (early, child.wait_with_output().unwrap())
}

/// Probe of 2026-12-06: a count took the memory available now (22 GB on the project machine)
/// as its room whatever the address-space limit, so under the 1 GiB cap `queens count 23
/// --share 1/100` asked for the 4.9 GB quarter table and aborted (signal 6) at once. Its room
/// is now at most the limit: it searches each task's quarters instead, runs, and stops on
/// Ctrl-C.
#[test]
fn a_count_keeps_within_the_address_space_limit() {
    // The table was asked for as the count started, well within 3 s.
    let (early, out) = interrupted_after(
        limited_command(LIMIT, &["queens", "count", "23", "--share", "1/100"], Stdio::null()),
        3,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!early, "ended within 3 s: {:?}, stderr {err}", out.status);
    assert_eq!(out.status.code(), Some(130), "stderr {err}");
    assert!(!err.contains("memory allocation"), "{err}");
}

/// Probe of 2026-12-06: `queens estimate` sampled its tasks with the largest batches whatever
/// the address-space limit (a count's batches shrink to its room): `queens estimate 25
/// --samples 1 --seed 1` aborted (signal 6) under a 614 MB limit, and so did 26 under 1 GB
/// and the projection a count of them makes first. The sample's batches now fit the limit.
#[test]
fn an_estimate_keeps_within_the_address_space_limit() {
    for extra in [&[][..], &["--queries", "100"]] {
        let mut args = vec!["queens", "estimate", "25", "--samples", "1", "--seed", "1", "--json"];
        args.extend_from_slice(extra);
        let out = limited_to(614_400_000, &args, Stdio::null());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {:?}, stderr {err}", out.status);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["n"], 25, "{v}");
    }
}

/// Probe of 2026-12-06: a count's plan bounded only its batches' bytes (185 MB a worker with
/// 2 M keys at n = 25) while a worker held 407 MB (its quarter cells and queries do not
/// shrink with the batch), and each thread's malloc arena took address space of its own:
/// `queens count 25 --share 1/2000` aborted (signal 6) under a 1 GB address-space limit,
/// `queens count 26` and `queens estimate 26` under 1 GB and 600 MB. Now n = 25 plans within
/// 1 GB and runs (stopped by Ctrl-C here), and n = 26 is refused in one line where it cannot
/// fit (count 26 under 1 GB; estimate 26, which needs about 570 MB, under 440 MB: under 600 MB
/// it now runs, in about 90 s).
#[test]
fn a_large_count_plans_its_buffers_within_the_address_space_limit() {
    let mut count =
        limited_command(1_000_000_000, &["queens", "count", "25", "--share", "1/2000"], Stdio::null());
    count.env_remove("MALLOC_ARENA_MAX");
    // The quarter cells and the first batches are taken as the first tasks start.
    let (early, out) = interrupted_after(count, 4);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("memory allocation"), "{err}");
    match out.status.code() {
        Some(130) => assert!(!early, "{err}"),
        // A machine with more cores than the limit holds workers for: refused in one line.
        _ => refused(&out, "queens count 25 under 1 GB", "needs about"),
    }
    for (args, limit) in [
        (&["queens", "count", "26", "--share", "1/2000"][..], 1_000_000_000),
        (&["queens", "estimate", "26", "--samples", "1", "--seed", "1"][..], 450_000_000),
    ] {
        let out = limited_to(limit, args, Stdio::null());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("memory allocation"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {:?}, stderr {err}", out.status);
        let last = err.lines().last().unwrap_or("");
        assert!(last.contains("n = 26 needs about") && last.contains("allowed"), "{args:?}: {err}");
    }
}
