//! Towards q(28): sums that cannot wrap, counts refused past the engine, journals audited by
//! the other engine, the warning before a long count, the estimate checked against A000170.

use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

use super::util::{damier, fails_with, hooked, json};

/// The checksum of journal lines (FNV-1a over the chain and the text), as the format defines.
fn fnv(chain: u64, text: &str) -> u64 {
    let mut h = damier::util::Fnv1a::new();
    h.write(&chain.to_le_bytes());
    h.write(text.as_bytes());
    h.finish()
}

/// A journal of `damier queens count N --journal` whose task records are forged with these
/// counts (tasks 0, 1, ...), checksums and all: the header comes from a real run of n.
fn forged_journal(dir: &tempfile::TempDir, n: u32, counts: &[u64]) -> String {
    let path = dir.path().join(format!("forged-{n}-{}.journal", counts[0]));
    let p = path.to_str().unwrap().to_string();
    json(&["queens", "count", &n.to_string(), "--json", "--journal", &p]);
    let text = std::fs::read_to_string(&path).unwrap();
    let header = text.lines().next().unwrap();
    let chain = fnv(0, header);
    let mut out = format!("{header}\n");
    let mut line = |body: String| out.push_str(&format!("{body}\t{:016x}\n", fnv(chain, &body)));
    line("S\t1000\t1".to_string());
    for (i, c) in counts.iter().enumerate() {
        line(format!("T\t{i}\t{c}\t10\t{}", 1001 + i));
    }
    std::fs::write(&path, out).unwrap();
    p
}

#[test]
fn sums_past_a_u64_are_refused_and_sums_at_the_top_still_add() {
    let report = |k: u32, total: u64| {
        format!(r#"{{"n": 12, "share": {k}, "shares": 2, "share_total": {total}, "seconds": 1.0}}"#)
    };
    let sum = |a: u64, b: u64| {
        damier().args(["queens", "sum", "--json"]).write_stdin(report(1, a) + &report(2, b)).output().unwrap()
    };
    // At n = 12, total + F180 + 2 F90 = total + 96 must be a multiple of 8: u64::MAX - 7 is.
    let top = u64::MAX - 7;
    let out = sum(top - 1000, 1000);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["total"].as_u64(), v["unique"].as_u64()), (Some(top), Some((u64::MAX >> 3) + 12)));
    // One past the top: refused with the exact sum, never wrapped to a small number.
    for (a, b) in [(top, 8), (u64::MAX, u64::MAX), (u64::MAX / 2 + 1, u64::MAX / 2 + 1)] {
        let out = sum(a, b);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        let exact = (u128::from(a) + u128::from(b)).to_string();
        assert!(err.contains(&exact) && err.contains("more than the largest total"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn journals_whose_counts_pass_a_u64_are_refused_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    // n = 5 has 6 tasks; their forged counts add up to 3 * 2^64.
    let huge = forged_journal(&dir, 5, &[u64::MAX / 2 + 1; 6]);
    let err = fails_with(&["queens", "journal", &huge, "--json"], 2);
    assert!(err.contains("55340232221128654848") && err.contains("more than the largest total"), "{err}");
    // The count that reads it back (every task held) adds the tasks in a u128 and refuses.
    let err = fails_with(&["queens", "count", "5", "--journal", &huge, "--json"], 2);
    assert!(err.contains("more than the largest total"), "{err}");
    // Near the top of a u64 the journal's sum is read as it is, and checked by Burnside's
    // lemma (at n = 5, total + F180 + 2 F90 = total + 6 must be a multiple of 8).
    let top = forged_journal(&dir, 5, &[u64::MAX - 10, 1, 1, 1, 1, 1]);
    let v = json(&["queens", "journal", &top, "--json"]);
    assert_eq!((v["share_total"].as_u64(), v["left"].as_u64()), (Some(u64::MAX - 5), Some(0)));
    assert_eq!((v["total"].as_u64(), v["unique"].as_u64()), (Some(u64::MAX - 5), Some(1 << 61)));
}

/// Read from the engine, not written here: the day it takes n = 28, 28 is counted (and not
/// tried by these tests, which would then run for days).
#[test]
fn counts_past_the_engine_are_refused_with_the_reason() {
    use damier::queens::count::{known, tasks::TaskEngine};
    let max = TaskEngine::Quarters.max_n();
    let start = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("x.journal");
    let journal = journal.to_str().unwrap();
    for n in (max + 1..=32).map(|n| n.to_string()) {
        for extra in [&[][..], &["--share", "1/1000"], &["--json"], &["--journal", journal]] {
            let args: Vec<&str> = ["queens", "count", &n].into_iter().chain(extra.iter().copied()).collect();
            let err = fails_with(&args, 2);
            assert!(err.contains(&format!("the fast engine counts n <= {max}")), "{err}");
            assert!(err.contains("core years"), "{err}");
            let n: u32 = n.parse().unwrap();
            assert_eq!(err.contains("open term"), n == known::LAST_KNOWN_N + 1, "{err}");
            assert_eq!(err.contains("64-bit"), !known::total_fits_u64(n), "{err}");
        }
    }
    assert!(!std::path::Path::new(journal).exists(), "nothing written");
    assert!(start.elapsed() < Duration::from_secs(60), "refused at once");
    // Small n count as before.
    for (n, total) in [(1, 1), (8, 92), (12, 14200)] {
        assert_eq!(json(&["queens", "count", &n.to_string(), "--json"])["total"].as_u64(), Some(total));
    }
    // No solution is a "no" answer (exit 1), its count still the JSON on stdout.
    let out = damier().args(["queens", "count", "2", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"].as_u64(), Some(0));
}

#[test]
fn journal_recheck_recounts_with_the_other_engine_and_names_a_tampered_task() {
    let dir = tempfile::tempdir().unwrap();
    let fast = dir.path().join("fast.journal");
    let fast = fast.to_str().unwrap();
    json(&["queens", "count", "10", "--json", "--journal", fast]);
    let v = json(&["queens", "journal", fast, "--recheck", "6", "--seed", "3", "--json"]);
    let r = &v["recheck"];
    assert_eq!(
        (r["engine"].as_str(), r["seed"].as_u64(), r["agree"].as_bool()),
        (Some("backtrack"), Some(3), Some(true))
    );
    assert_eq!(r["tasks"].as_array().map(Vec::len), Some(6));
    assert_eq!(v["total"].as_u64(), Some(724));
    // The seed is printed when not given; a journal of the backtracker (a partial share)
    // is recounted by the quarters engine.
    let slow = dir.path().join("slow.journal");
    let slow = slow.to_str().unwrap();
    json(&[
        "queens",
        "count",
        "11",
        "--share",
        "2/3",
        "--strategy",
        "backtrack",
        "--json",
        "--journal",
        slow,
    ]);
    let out = damier().args(["queens", "journal", slow, "--recheck", "1000"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("quarters engine (seed ") && text.contains("all agree"),
        "{text}"
    );

    // A journal with a task miscounted (a test hook: debug builds only) fails the audit,
    // which names the task and both counts.
    if !cfg!(debug_assertions) {
        return;
    }
    let bad = dir.path().join("bad.journal");
    let bad = bad.to_str().unwrap();
    let out = hooked(&[("DAMIER_TEST_MISCOUNT_TASK", "7")])
        .args(["queens", "count", "10", "--share", "1/1", "--json", "--journal", bad])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = fails_with(&["queens", "journal", bad, "--recheck", "1000", "--seed", "1"], 1);
    assert!(
        err.contains("MISMATCH") && err.contains("task 7 ") && err.contains("journal (quarters)"),
        "{err}"
    );
    assert!(err.contains("1 of ") && err.contains("seed 1"), "{err}");
    let out = damier().args(["queens", "journal", bad, "--recheck", "1000", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["recheck"]["mismatches"];
    assert_eq!((m.as_array().map(Vec::len), m[0]["task"].as_u64()), (Some(1), Some(7)));
    let (recount, recorded) =
        (m[0]["counts"]["backtrack"].as_u64(), m[0]["counts"]["journal (quarters)"].as_u64());
    assert_eq!(recorded.zip(recount).map(|(a, b)| a - b), Some(1), "{m}");
    // A sample that misses task 7 agrees, but a whole count still has Burnside's check of its
    // total, which this one fails (exit 2); a sample that hits it names it (exit 1).
    let out = damier().args(["queens", "journal", bad, "--recheck", "1", "--seed", "5"]).output().unwrap();
    let (text, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if err.contains("MISMATCH") {
        assert_eq!(out.status.code(), Some(1));
    } else {
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(err.contains("not a possible total"), "{err}");
    }
}

/// Reads `child`'s stderr until a line holds `what`, then kills it (at most `limit`).
fn wait_for_stderr(mut child: std::process::Child, what: &str, limit: Duration) -> String {
    let start = Instant::now();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let found = loop {
        match lines.next() {
            Some(Ok(line)) if line.contains(what) => break line,
            Some(Ok(_)) if start.elapsed() < limit => {}
            _ => {
                let _ = child.kill();
                panic!("no {what:?} on stderr within {limit:?}");
            }
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    found
}

#[test]
fn a_long_count_is_announced_on_stderr_and_a_small_one_is_not() {
    // n = 23 is projected at tens of core hours: the warning comes before the count (which
    // is then stopped), with the projection and the ways to split it, even through a pipe.
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("damier"))
        .args(["queens", "count", "23", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let line = wait_for_stderr(child, "core hours", Duration::from_secs(300));
    for part in ["n = 23", "quarters engine", "95% interval", "--share", "--mpi", "--journal", "seed"] {
        assert!(line.contains(part), "{part}: {line}");
    }
    // A small count estimates nothing and says nothing.
    let start = Instant::now();
    let out = damier().args(["queens", "count", "12", "--share", "1/2", "--json"]).output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(start.elapsed() < Duration::from_secs(20));
    // With the threshold lowered (a test hook, debug builds), the same count is announced
    // once, and --json keeps stdout to the report.
    if !cfg!(debug_assertions) {
        return;
    }
    for extra in [&["--share", "1/2"][..], &["--strategy", "backtrack"]] {
        let args: Vec<&str> =
            ["queens", "count", "12", "--json"].into_iter().chain(extra.iter().copied()).collect();
        let out = hooked(&[("DAMIER_TEST_COST_WARNING_HOURS", "0")]).args(&args).output().unwrap();
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!((err.lines().count(), err.matches("To split it").count()), (1, 1), "{err}");
        assert!(err.contains("--share") && err.contains("--journal"), "{err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON report");
        assert!(v["tasks"].as_u64().is_some());
    }
    // A journal that holds every task leaves nothing to announce.
    let dir = tempfile::tempdir().unwrap();
    let j = dir.path().join("done.journal");
    let j = j.to_str().unwrap();
    json(&["queens", "count", "12", "--json", "--journal", j]);
    let out = hooked(&[("DAMIER_TEST_COST_WARNING_HOURS", "0")])
        .args(["queens", "count", "12", "--json", "--journal", j])
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// From n = 27 on, a quick estimate would cost minutes and gigabytes: the warning projects
/// from the cost per solution measured on whole tasks, at once, and says so.
#[test]
fn the_open_term_is_announced_from_measured_costs_at_once() {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("damier"))
        .args(["queens", "count", "28", "--share", "1/1000000", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let line = wait_for_stderr(child, "core hours", Duration::from_secs(120));
    for part in ["n = 28", "quarters engine", "ns each", "measured on whole tasks", "--share", "--journal"] {
        assert!(line.contains(part), "{part}: {line}");
    }
    assert!(!line.contains("quick estimate"), "{line}");
}

#[test]
fn the_estimate_checks_itself_against_the_known_term() {
    // Every task of 12: the projection is the count, inside its (empty) interval.
    let out = damier()
        .args(["queens", "estimate", "12", "--samples", "1000000", "--json", "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["known_solutions"].as_u64(), v["known_inside"].as_bool()), (Some(14200), Some(true)));
    // Two tasks of 14 with seed 4 project 8.6e5 solutions, 4.9e5 at the least: q(14) =
    // 365596 is outside, and the estimate says so on stderr and in the JSON.
    let out = damier()
        .args(["queens", "estimate", "14", "--samples", "2", "--seed", "4", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["known_solutions"].as_u64(), v["known_inside"].as_bool()), (Some(365_596), Some(false)));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning") && err.contains("q(14) = 365596"), "{err}");
    let out = damier().args(["queens", "estimate", "14", "--samples", "2", "--seed", "4"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("known q(14) = 365596") && text.contains("OUTSIDE"), "{text}");
    let past = (damier::queens::count::tasks::MAX_TASK_N + 1).to_string();
    fails_with(&["queens", "estimate", &past], 2);
}
