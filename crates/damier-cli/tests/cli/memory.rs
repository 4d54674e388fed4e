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
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("damier"));
    c.args(args).stdin(stdin).env("MALLOC_ARENA_MAX", "1");
    // SAFETY: between fork and exec, only `setrlimit` (async-signal-safe) runs; it takes a
    // plain struct on the stack and allocates nothing.
    unsafe {
        c.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: LIMIT, rlim_max: LIMIT };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c.output().expect("runs")
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
