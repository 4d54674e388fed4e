//! Long counts: shares by task, both engines, journals that survive kills, sampled checks.

use std::time::Duration;

#[cfg(all(feature = "mpi", debug_assertions))]
use super::util::MpiJob;
use super::util::{damier, fails_with, fails_with_hooks, hooked, json};

const Q13: u64 = 73712;
/// The task list of n = 13.
#[cfg(all(feature = "mpi", debug_assertions))]
const Q13_TASKS: u64 = 868;

#[test]
fn shares_report_their_tasks_and_both_strategies_agree() {
    let whole = json(&["queens", "count", "13", "--strategy", "quarters", "--json"]);
    let all_tasks = whole["tasks"].as_u64().expect("tasks");
    assert_eq!(whole["total"].as_u64(), Some(Q13));
    let (mut tasks, mut total) = (0, 0);
    for k in 1..=3 {
        let share = format!("{k}/3");
        let fast = json(&["queens", "count", "13", "--share", &share, "--json"]);
        let slow = json(&["queens", "count", "13", "--share", &share, "--strategy", "backtrack", "--json"]);
        assert_eq!(fast["share_total"], slow["share_total"], "share {share}");
        assert_eq!(fast["tasks"], slow["tasks"], "share {share}");
        assert_eq!(
            (fast["strategy"].as_str(), slow["strategy"].as_str()),
            (Some("quarters"), Some("backtrack"))
        );
        tasks += fast["tasks"].as_u64().expect("tasks");
        total += fast["share_total"].as_u64().expect("share_total");
    }
    assert_eq!((tasks, total), (all_tasks, Q13));
    fails_with(&["queens", "count", "3", "--strategy", "backtrack"], 2);
}

#[test]
fn verify_sample_agrees_and_catches_a_miscount() {
    let v = json(&["queens", "count", "12", "--verify-sample", "40", "--seed", "7", "--json"]);
    assert_eq!(
        (v["total"].as_u64(), v["verified_tasks"].as_u64(), v["seed"].as_u64()),
        (Some(14200), Some(40), Some(7))
    );
    // The seed is printed when not given.
    let out =
        damier().args(["queens", "count", "10", "--share", "1/2", "--verify-sample", "3"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("seed "));
    // Every task sampled, one of them miscounted: exit 1 naming it and both counts.
    // (The miscount is a test hook: debug builds only.)
    if !cfg!(debug_assertions) {
        return;
    }
    let err = fails_with_hooks(
        &["queens", "count", "9", "--verify-sample", "1000", "--seed", "1"],
        &[("DAMIER_TEST_MISCOUNT_TASK", "5")],
        1,
    );
    assert!(err.contains("task 5 ") && err.contains("quarters") && err.contains("backtrack"), "{err}");
}

/// `damier queens journal FILE --json`.
fn journal_state(path: &str) -> serde_json::Value {
    json(&["queens", "journal", path, "--json"])
}

#[test]
fn a_journal_resumes_and_refuses_another_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q13.journal");
    let p = path.to_str().unwrap();
    let first = json(&["queens", "count", "13", "--share", "2/3", "--journal", p, "--json"]);
    assert_eq!(first["resumed_tasks"].as_u64(), Some(0));
    let again = json(&["queens", "count", "13", "--share", "2/3", "--journal", p, "--json"]);
    assert_eq!(again["resumed_tasks"], first["tasks"]);
    assert_eq!(again["share_total"], first["share_total"]);
    let state = journal_state(p);
    assert_eq!(
        (state["left"].as_u64(), state["done"].clone(), state["sessions"].as_u64()),
        (Some(0), first["tasks"].clone(), Some(2))
    );
    for other in [
        vec!["queens", "count", "12", "--share", "2/3"],
        vec!["queens", "count", "13", "--share", "1/3"],
        vec!["queens", "count", "13", "--share", "2/4"],
        vec!["queens", "count", "13", "--share", "2/3", "--strategy", "backtrack"],
    ] {
        let mut args = other.clone();
        args.extend(["--journal", p]);
        let err = fails_with(&args, 2);
        assert!(err.contains("was written for") && err.lines().count() == 1, "{err}");
    }
    std::fs::write(&path, "not a journal\n").unwrap();
    fails_with(&["queens", "count", "13", "--journal", p], 2);
    fails_with(&["queens", "journal", p], 2);
    fails_with(&["queens", "journal", dir.path().join("missing").to_str().unwrap()], 2);
}

/// Starts a slow journalled count of 13 (about 868 tasks at 4 ms each on 2 threads).
#[cfg_attr(not(debug_assertions), allow(dead_code))]
fn slow_count(p: &str) -> std::process::Child {
    let bin = assert_cmd::cargo::cargo_bin("damier");
    std::process::Command::new(bin)
        .env("DAMIER_TEST_TASK_DELAY_MS", "4")
        .args("queens count 13 --threads 2 --json --journal".split(' '))
        .arg(p)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts")
}

/// Waits until the journal holds some tasks (so the kill lands mid-run); the bound (a start
/// of 3 MPI processes on a loaded machine takes seconds) only keeps a broken run from hanging.
#[cfg_attr(not(debug_assertions), allow(dead_code))]
fn wait_for_tasks(p: &str) {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
        let lines = std::fs::read_to_string(p).map(|t| t.lines().filter(|l| l.starts_with("T\t")).count());
        if lines.unwrap_or(0) >= 20 {
            return;
        }
    }
    panic!("the count never journalled 20 tasks");
}

// The slow count is a test hook (debug builds only).
#[cfg(all(unix, debug_assertions))]
#[test]
fn a_count_killed_mid_run_resumes_to_the_right_total() {
    let dir = tempfile::tempdir().unwrap();
    for signal in ["KILL", "INT"] {
        let path = dir.path().join(format!("{signal}.journal"));
        let p = path.to_str().unwrap();
        let child = slow_count(p);
        wait_for_tasks(p);
        let status = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status();
        assert!(status.unwrap().success());
        let out = child.wait_with_output().unwrap();
        if signal == "INT" {
            // Ctrl-C: a clean stop (exit 130) with the journal flushed.
            assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
        } else {
            assert_eq!(out.status.code(), None, "killed by the signal");
        }
        let state = journal_state(p);
        let (done, left) = (state["done"].as_u64().unwrap(), state["left"].as_u64().unwrap());
        assert!(done >= 20 && left > 0, "{signal}: {done} done, {left} left");
        let resumed = json(&["queens", "count", "13", "--journal", p, "--json"]);
        assert_eq!(
            (resumed["total"].as_u64(), resumed["unique"].as_u64()),
            (Some(Q13), Some(9233)),
            "{signal}"
        );
        assert!(resumed["resumed_tasks"].as_u64().unwrap() >= done, "{signal}");
        let state = journal_state(p);
        assert_eq!((state["left"].as_u64(), state["total"].as_u64()), (Some(0), Some(Q13)), "{signal}");
    }
}

#[test]
fn estimate_projects_with_an_interval_and_refuses_what_it_cannot_run() {
    let v = json(&["queens", "estimate", "13", "--samples", "50", "--seed", "4", "--json"]);
    for key in ["n", "tasks", "core_hours", "low", "high", "samples", "seed"] {
        assert!(!v[key].is_null(), "key {key} in {v}");
    }
    let (low, mid, high) =
        (v["low"].as_f64().unwrap(), v["core_hours"].as_f64().unwrap(), v["high"].as_f64().unwrap());
    assert!(0.0 <= low && low <= mid && mid <= high, "{v}");
    let whole = json(&["queens", "count", "13", "--strategy", "quarters", "--json"]);
    assert_eq!(
        (v["n"].as_u64(), v["tasks"].clone(), v["samples"].as_u64()),
        (Some(13), whole["tasks"].clone(), Some(50))
    );
    fails_with(&["queens", "estimate", "3"], 2);
    fails_with(&["queens", "estimate", "29"], 2);
    fails_with(&["queens", "estimate", "12", "--samples", "0"], 2);
    // Whole tasks, every one of them: the projected count is the count.
    let all = json(&["queens", "estimate", "12", "--samples", "1000000", "--queries", "all", "--json"]);
    assert_eq!((all["solutions"].as_f64(), all["subsampled_tasks"].as_u64()), (Some(14200.0), Some(0)));
    // Two queries per task: nearly every task sub-sampled, the interval still around the count.
    let sub =
        json(&["queens", "estimate", "13", "--samples", "300", "--queries", "2", "--seed", "5", "--json"]);
    assert!(
        sub["subsampled_tasks"].as_u64() > Some(0) && sub["matched_fraction"].as_f64() < Some(1.0),
        "{sub}"
    );
    assert!(sub["solutions_low"].as_f64() <= sub["solutions_high"].as_f64(), "{sub}");
    fails_with(&["queens", "estimate", "12", "--queries", "0"], 2);
    fails_with(&["queens", "estimate", "12", "--queries", "some"], 2);
    // Every task of 12 on two threads: each timed task is listed, their solutions add up to
    // q(12), and the cost per solution and its projection of q(12)'s cost are bracketed.
    let two = json(&["queens", "estimate", "12", "--samples", "1000000", "--threads", "2", "--json"]);
    let timed = two["timed_tasks"].as_array().unwrap();
    assert_eq!(Some(timed.len() as u64), two["tasks"].as_u64());
    assert_eq!(timed.iter().map(|t| t["solutions"].as_f64().unwrap()).sum::<f64>(), 14200.0);
    for (low, mid, high) in [
        ("ns_per_solution_low", "ns_per_solution", "ns_per_solution_high"),
        ("known_core_hours_low", "known_core_hours", "known_core_hours_high"),
    ] {
        let [l, m, h] = [low, mid, high].map(|k| two[k].as_f64().unwrap_or_else(|| panic!("{k} in {two}")));
        assert!(0.0 < l && l <= m && m <= h, "{two}");
    }
    assert_eq!(two["stopped_early"].as_bool(), Some(false));
    fails_with(&["queens", "estimate", "12", "--threads", "0"], 2);
}

// The slow tasks are a test hook (debug builds only).
#[cfg(all(unix, debug_assertions))]
#[test]
fn an_interrupted_estimate_projects_from_the_tasks_that_finished() {
    use std::io::BufRead;
    let bin = assert_cmd::cargo::cargo_bin("damier");
    let mut child = std::process::Command::new(bin)
        .env("DAMIER_TEST_TASK_DELAY_MS", "20")
        .env("DAMIER_PROGRESS", "lines")
        .args("queens estimate 13 --samples 5000 --seed 2 --json".split(' '))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    // Waits for a progress line past 5 tasks (the warm-up included), then presses Ctrl-C.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the estimate ended before its signal");
        let progress: Option<serde_json::Value> =
            line.strip_prefix("damier-progress ").and_then(|l| serde_json::from_str(l).ok());
        if progress.is_some_and(|p| p["done"].as_u64() > Some(5)) {
            break;
        }
    }
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(status.unwrap().success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{rest}");
    assert!(rest.contains("interrupted after") && rest.contains("smaller random sample"), "{rest}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let samples = v["samples"].as_u64().unwrap();
    assert!((5..5000).contains(&samples), "{v}");
    assert_eq!(v["timed_tasks"].as_array().map(|t| t.len() as u64), Some(samples));
    assert_eq!(v["stopped_early"].as_bool(), Some(true));
    assert!(v["low"].as_f64() <= v["core_hours"].as_f64() && v["core_hours"].as_f64() <= v["high"].as_f64());
}

/// `mpirun -n 3 damier ARGS` (oversubscribed: this machine has 2 cores).
#[cfg(feature = "mpi")]
fn mpirun(args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe", "-n", "3"])
        .arg(assert_cmd::cargo::cargo_bin("damier"))
        .args(args);
    c
}

/// `cargo test -p damier-cli --features mpi long_counts` (needs Open MPI's `mpirun`): the work
/// queue gives a slowed process fewer tasks and still counts right, and a job killed mid-run
/// resumes from process 0's journal.
#[cfg(all(feature = "mpi", debug_assertions))]
#[test]
fn mpi_work_queue_balances_a_slow_process_and_resumes() {
    if std::process::Command::new("mpirun").arg("--version").output().is_err() {
        super::needs::missing(
            "mpi_work_queue_balances_a_slow_process_and_resumes",
            "mpirun (apt-get install openmpi-bin)",
        );
    }
    let out = mpirun(&["queens", "count", "13", "--mpi", "--threads", "1", "--json"])
        .env("DAMIER_TEST_TASK_DELAY_MS", "6")
        .env("DAMIER_TEST_SLOW_RANK", "2")
        .output()
        .unwrap();
    assert!(out.status.success(), "mpirun failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report, from process 0");
    assert_eq!((v["total"].as_u64(), v["processes"].as_u64()), (Some(Q13), Some(3)));
    let by: Vec<u64> =
        v["tasks_by_process"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(by.iter().sum::<u64>(), v["tasks"].as_u64().unwrap());
    assert!(by[2] < by[1], "the slowed process 2 took fewer tasks: {by:?}");

    // Killed mid-run (SIGTERM to mpirun ends every process), then restarted with the journal.
    // Process 0 holds the last task back (a test hook), so the job cannot end before the kill.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mpi.journal");
    let p = path.to_str().unwrap();
    let slow = "queens count 13 --mpi --threads 1 --json --journal";
    let mut child = MpiJob(
        mpirun(&slow.split(' ').chain([p]).collect::<Vec<_>>())
            .env("DAMIER_TEST_TASK_DELAY_MS", "4")
            .env("DAMIER_TEST_HOLD_TASK", (Q13_TASKS - 1).to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for_tasks(p);
    assert!(
        std::process::Command::new("kill")
            .args(["-TERM", &child.0.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let _ = child.0.wait();
    let state = journal_state(p);
    assert_eq!(state["tasks"].as_u64(), Some(Q13_TASKS), "the held task is the last of the list");
    assert!(state["left"].as_u64().unwrap() > 0, "killed before the end: {state}");
    let out = mpirun(&["queens", "count", "13", "--mpi", "--threads", "1", "--json", "--journal", p])
        .output()
        .unwrap();
    assert!(out.status.success(), "restart failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"].as_u64(), Some(Q13));
    assert!(v["resumed_tasks"].as_u64().unwrap() >= state["done"].as_u64().unwrap());
    assert_eq!(journal_state(p)["total"].as_u64(), Some(Q13));
}

#[test]
fn the_task_list_path_honours_isa_and_refuses_a_missing_unit() {
    let dir = tempfile::tempdir().unwrap();
    let share = ["queens", "count", "14", "--share", "2/5"];
    let backtrack = json(&[&share[..], &["--strategy", "backtrack", "--json"]].concat());
    let mut covered = Vec::new();
    for isa in damier::cpu::Isa::available() {
        let journal = dir.path().join(format!("{isa}.journal"));
        let journal = journal.to_str().unwrap();
        for extra in [
            &["--strategy", "quarters"][..],
            &["--journal", journal],
            &["--verify-sample", "5", "--seed", "3"],
        ] {
            let v = json(&[&share[..], extra, &["--isa", isa.name(), "--json"]].concat());
            assert_eq!(v["share_total"], backtrack["share_total"], "{isa} {extra:?}");
        }
        let e = json(&[
            "queens",
            "estimate",
            "12",
            "--samples",
            "5",
            "--seed",
            "1",
            "--isa",
            isa.name(),
            "--json",
        ]);
        assert_eq!(e["isa"].as_str(), Some(isa.name()));
        covered.push(isa.name());
    }
    if !cfg!(debug_assertions) {
        return; // the pretended CPU below is a test hook: debug builds only
    }
    // A unit this CPU lacks (pretended, so that the refusal is tested on every CPU): exit 2
    // naming it, before anything runs, on every task-list path.
    let journal = dir.path().join("refused.journal");
    let journal = journal.to_str().unwrap();
    for (lacks, asked) in [("avx2", "avx2"), ("avx512", "avx512"), ("avx2", "avx512")] {
        for args in [
            &[&share[..], &["--strategy", "quarters"]].concat(),
            &[&share[..], &["--strategy", "backtrack"]].concat(),
            &["queens", "count", "14", "--journal", journal][..],
            &["queens", "count", "14", "--verify-sample", "3"],
            &["queens", "estimate", "14", "--samples", "3"],
        ] {
            let args = [args, &["--isa", asked]].concat();
            let err = fails_with_hooks(&args, &[("DAMIER_TEST_CPU_LACKS", lacks)], 2);
            assert!(err.contains(asked) && err.contains("lacks"), "{args:?}: {err}");
        }
    }
    assert!(!std::path::Path::new(journal).exists(), "a refused count writes no journal");
    // Auto picks the widest unit left.
    let out = hooked(&[("DAMIER_TEST_CPU_LACKS", "avx2")])
        .args(["queens", "estimate", "12", "--samples", "3", "--seed", "1", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(e["isa"].as_str(), Some("portable"));
    println!("task-list path --isa tested on: {}", covered.join(", "));
}

/// Ctrl-C stops a count of n = 28 (tasks of minutes, batches of 16 M stored keys) within about a
/// second: the delay between SIGINT and the exit is printed, not asserted (a timing). By hand,
/// in a release build (gigabytes, minutes):
/// `cargo test -p damier-cli --release --test cli -- --ignored --nocapture ctrl_c_stops_a_count_of_28`;
/// `DAMIER_SIGINT_AFTER_S` sets the seconds of counting before the signal (default 60, when
/// the first tasks are deep in their matching), `DAMIER_SIGINT_N` another n.
#[cfg(unix)]
#[test]
#[ignore = "a count of n = 28 (gigabytes): run by hand in a release build"]
fn ctrl_c_stops_a_count_of_28_promptly() {
    let number =
        |key: &str, default: u64| std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (after, n) = (number("DAMIER_SIGINT_AFTER_S", 60), number("DAMIER_SIGINT_N", 28));
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("damier"))
        .args(["queens", "count", &n.to_string(), "--threads", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(Duration::from_secs(after));
    assert!(child.try_wait().unwrap().is_none(), "the count of {n} ended before its signal");
    let sent = std::time::Instant::now();
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(status.unwrap().success());
    let out = child.wait_with_output().unwrap();
    let delay = sent.elapsed();
    println!(
        "queens count {n} --threads 2: stopped {:.3} s after SIGINT ({after} s in)",
        delay.as_secs_f64()
    );
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Raises the count of the first task record of the journal at `path` by `add` and recomputes
/// its checksum (FNV-1a of the line, chained to the header's), as a forger would; returns the
/// forged task's index.
fn forge(path: &std::path::Path, add: u64) -> u64 {
    use damier::util::Fnv1a;
    let checksum = |chain: u64, text: &str| {
        let mut h = Fnv1a::new();
        h.write(&chain.to_le_bytes());
        h.write(text.as_bytes());
        h.finish()
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let chain = checksum(0, &lines[0]);
    let at = lines.iter().position(|l| l.starts_with("T\t")).expect("a task record");
    let mut fields: Vec<String> = lines[at].split('\t').map(str::to_string).collect();
    let count: u64 = fields[2].parse().unwrap();
    fields[2] = (count + add).to_string();
    let body = fields[..fields.len() - 1].join("\t");
    lines[at] = format!("{body}\t{:016x}", checksum(chain, &body));
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
    fields[1].parse().unwrap()
}

/// A forged record (a count raised by 1000, its checksum recomputed) passes every check a
/// journal has of itself: checksums detect damage, not forgery. `queens journal` and a
/// resumed count accept it; a sample may miss it (the probability printed says how likely);
/// only a recheck of every task (`--recheck 100%`) is sure to catch it.
#[test]
fn a_forged_record_is_caught_only_by_a_full_recheck() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("12.journal");
    let p = path.to_str().unwrap();
    // Share 1 of 1: the whole task list, without Burnside's check of a whole count's total.
    let honest = json(&["queens", "count", "12", "--share", "1/1", "--journal", p, "--json"]);
    assert_eq!(honest["share_total"].as_u64(), Some(14_200));
    let tasks = honest["tasks"].as_u64().unwrap();
    let forged = forge(&path, 1000);
    // Accepted as it is, and by a count resuming it.
    let state = json(&["queens", "journal", p, "--json"]);
    assert_eq!((state["share_total"].as_u64(), state["done"].as_u64()), (Some(15_200), Some(tasks)));
    let resumed = json(&["queens", "count", "12", "--share", "1/1", "--journal", p, "--json"]);
    assert_eq!(resumed["share_total"].as_u64(), Some(15_200));
    // Every task recounted: caught, named, exit 1.
    let err = fails_with(&["queens", "journal", p, "--recheck", "100%", "--seed", "1"], 1);
    assert!(err.contains("MISMATCH") && err.contains(&format!("task {forged} ")), "{err}");
    let out = damier().args(["queens", "journal", p, "--recheck", "100%", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &v["recheck"];
    assert_eq!((r["population"].as_u64(), r["sampled"].as_u64()), (Some(tasks), Some(tasks)));
    assert_eq!((r["catch_one"].as_f64(), r["forged_for_99"].as_u64()), (Some(1.0), Some(1)));
    // One task of N: catches one forged record with probability 1 / N, printed; 10% of them
    // is ceil(N / 10) tasks.
    let one =
        damier().args(["queens", "journal", p, "--recheck", "1", "--seed", "2", "--json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(v["recheck"]["sampled"].as_u64(), Some(1));
    assert!((v["recheck"]["catch_one"].as_f64().unwrap() - 1.0 / tasks as f64).abs() < 1e-15, "{v}");
    let tenth = damier().args(["queens", "journal", p, "--recheck", "10%", "--seed", "2"]).output().unwrap();
    let text = String::from_utf8_lossy(&tenth.stdout);
    let want = format!("{} of the {tasks} recorded tasks recounted", tasks.div_ceil(10));
    assert!(
        text.contains(&want) && text.contains("catches a single wrong or forged record with probability"),
        "{text}"
    );
    for bad in ["0%", "101%", "0", "five"] {
        fails_with(&["queens", "journal", p, "--recheck", bad], 2);
    }
}
