//! `queens count --device gpu|all|list` and `damier gpu`. Built without the `gpu` feature the
//! commands say so (exit 2); with it (`cargo test -p damier-cli --features gpu --test cli
//! gpu`, a step of .ci/run) they run the real kernel on the machine's adapter (lavapipe in
//! CI), and fail naming what is missing where there is none.

use super::util::fails_with;
#[cfg(feature = "gpu")]
use super::util::{damier, hooked, json};

#[cfg(not(feature = "gpu"))]
#[test]
fn without_the_feature_the_gpu_options_say_how_to_build_it() {
    for args in [
        &["queens", "count", "10", "--device", "gpu"][..],
        &["queens", "count", "10", "--device", "list"],
        &["queens", "estimate", "10", "--device", "gpu"],
        &["automaton", "run", "--model", "row", "-n", "8", "--device", "gpu"],
        &["gpu"],
    ] {
        let err = fails_with(args, 2);
        assert!(err.contains("built without GPU support") && err.contains("--features gpu"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Fails the test unless the machine has an adapter (these tests run in the `--features gpu`
/// build only, which CI runs with lavapipe installed).
#[cfg(feature = "gpu")]
pub(super) fn needs_adapter() {
    // `damier gpu` exits 2 without an adapter, after the empty list.
    let out = damier().args(["gpu", "--json"]).output().expect("runs");
    let adapters: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let found = !adapters.as_array().expect("a list").is_empty();
    assert_eq!(out.status.code(), Some(if found { 0 } else { 2 }), "{adapters}");
    if !found {
        super::needs::missing(
            "a GPU test",
            "a Vulkan adapter (apt-get install mesa-vulkan-drivers libvulkan1)",
        );
    }
}

#[cfg(feature = "gpu")]
#[test]
fn counts_on_the_gpu_and_beside_the_cpu_are_the_known_totals() {
    needs_adapter();
    // The default kernel is the join (the quarters engine's matching on the GPU).
    let r = json(&["queens", "count", "12", "--device", "gpu", "--json"]);
    assert_eq!((r["total"].as_u64(), r["unique"].as_u64()), (Some(14_200), Some(1_787)), "{r}");
    assert_eq!(r["strategy"], "quarters");
    let r = json(&["queens", "count", "13", "--device", "all", "--threads", "2", "--json"]);
    assert_eq!(r["total"].as_u64(), Some(73_712), "{r}");
    // Shares on the GPU add up.
    let total: u64 = (1..=3)
        .map(|k| {
            let r =
                json(&["queens", "count", "11", "--device", "gpu", "--share", &format!("{k}/3"), "--json"]);
            r["share_total"].as_u64().unwrap()
        })
        .sum();
    assert_eq!(total, 2_680);
    let out = damier().args(["queens", "count", "10", "--device", "list"]).output().unwrap();
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("* 0: "));
}

/// A journal of the retired search kernel (headed `backtrack` on a GPU) is still read and
/// rechecked, but not resumed: the line says why. The journal is written as that kernel wrote
/// them, through the library: 30 tasks of n = 10 counted by the backtracker, headed for a GPU.
#[cfg(feature = "gpu")]
#[test]
fn a_retired_search_kernels_journal_is_read_and_rechecked_not_resumed() {
    use damier::control::Control;
    use damier::queens::count::Share;
    use damier::queens::count::journal::{Journal, JournalDevice, JournalHeader};
    use damier::queens::count::tasks::{TaskEngine, TaskList, count_tasks};
    needs_adapter();
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("search.journal");
    let list = TaskList::new(10).unwrap();
    let header = JournalHeader::new(&list, Share::WHOLE, TaskEngine::Backtrack).on(JournalDevice::Gpu);
    let (written, _) = Journal::open(&journal, &header, 1).unwrap();
    let some: Vec<u32> = (0..30).collect();
    count_tasks(
        &list,
        TaskEngine::Backtrack,
        damier::cpu::Isa::Portable,
        None,
        &some,
        &Control::new(),
        &|d| written.record(d),
    )
    .unwrap();
    written.finish().unwrap();
    drop(written);
    let journal = journal.to_str().unwrap();
    let audit = json(&["queens", "journal", journal, "--recheck", "100%", "--seed", "1", "--json"]);
    assert_eq!(
        (audit["strategy"].as_str(), audit["device"].as_str()),
        (Some("backtrack"), Some("gpu")),
        "{audit}"
    );
    assert_eq!(audit["recheck"]["engine"], "quarters", "{audit}");
    assert_eq!(
        (audit["recheck"]["agree"].as_bool(), audit["recheck"]["sampled"].as_u64()),
        (Some(true), Some(30)),
        "{audit}"
    );
    let err = fails_with(&["queens", "count", "10", "--device", "gpu", "--journal", journal], 2);
    let ours: Vec<&str> = err.lines().filter(|l| !l.contains("XDG_RUNTIME_DIR")).collect();
    assert_eq!(ours.len(), 1, "{err}");
    assert!(ours[0].contains("written by the GPU's search kernel, retired on 2026-12-06"), "{err}");
    // The CPU's default engine refuses it too, without the kernel's story.
    let err = fails_with(&["queens", "count", "10", "--journal", journal], 2);
    assert!(!err.contains("search kernel"), "{err}");
}

/// `--gpu-kernel join` (the quarters engine, its matching on the GPU; the only value since
/// the search kernel's retirement): the known totals alone and beside the CPU, its journals
/// headed `quarters` on a GPU, resumed and rechecked by the backtracker, and its estimate and
/// bench say which kernel ran; the retired kernel's options are refused.
#[cfg(feature = "gpu")]
#[test]
fn the_join_kernel_counts_journals_and_estimates() {
    needs_adapter();
    let r = json(&["queens", "count", "13", "--device", "gpu", "--gpu-kernel", "join", "--json"]);
    assert_eq!(r["total"].as_u64(), Some(73_712), "{r}");
    assert_eq!(r["strategy"], "quarters", "{r}");
    let r = json(&[
        "queens",
        "count",
        "12",
        "--device",
        "all",
        "--gpu-kernel",
        "join",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(r["total"].as_u64(), Some(14_200), "{r}");
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("join.journal");
    let journal = journal.to_str().unwrap();
    let args: Vec<&str> = "queens count 12 --device gpu --gpu-kernel join --json --journal"
        .split(' ')
        .chain([journal])
        .collect();
    assert_eq!(json(&args)["total"].as_u64(), Some(14_200));
    let again = json(&args);
    assert_eq!(again["resumed_tasks"], again["tasks"], "{again}");
    let audit = json(&["queens", "journal", journal, "--recheck", "20", "--seed", "1", "--json"]);
    assert_eq!((audit["strategy"].as_str(), audit["device"].as_str()), (Some("quarters"), Some("gpu")));
    assert_eq!(audit["recheck"]["engine"], "backtrack", "{audit}");
    assert_eq!(audit["recheck"]["agree"], true, "{audit}");
    // The CPU's default engine refuses the GPU's journal rather than mixing devices.
    fails_with(&["queens", "count", "12", "--journal", journal], 2);
    for args in [&["--gpu-kernel", "search"][..], &["--gpu-rows", "11"], &["--gpu-slots", "64"]] {
        let all: Vec<&str> =
            ["queens", "count", "12", "--device", "gpu"].iter().chain(args).copied().collect();
        fails_with(&all, 2);
    }
    let r = json(&[
        "queens",
        "estimate",
        "13",
        "--device",
        "gpu",
        "--gpu-kernel",
        "join",
        "--samples",
        "40",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!((r["kernel"].as_str(), r["engine"].as_str()), (Some("join"), Some("quarters")), "{r}");
    assert!(r["core_hours"].as_f64().unwrap() > 0.0, "{r}");
    let r = json(&["gpu", "--bench", "12", "--tasks", "20", "--gpu-kernel", "join", "--json"]);
    assert_eq!((r["kernel"].as_str(), r["tasks"].as_u64()), (Some("join"), Some(20)), "{r}");
    // The kernel's portable path, blocks in global memory and the sums shared by atomics
    // count the same (the bench checks every task against the CPU, exit 1 when one differs).
    for args in [
        &["--gpu-portable"][..],
        &["--gpu-workgroup-bytes", "0"],
        &["--gpu-portable", "--gpu-workgroup-bytes", "4096"],
        &["--gpu-shared-sums"],
    ] {
        let all: Vec<&str> = ["gpu", "--bench", "13", "--tasks", "12", "--seed", "4", "--json"]
            .iter()
            .chain(args)
            .copied()
            .collect();
        let r = json(&all);
        assert!(r["cores_per_gpu"].as_f64().is_some(), "{args:?}: {r}");
    }
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_errors_are_one_line_with_their_exit_codes() {
    // No adapter (the loader pointed at no driver): exit 2.
    let out = damier()
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
        .args(["queens", "count", "10", "--device", "gpu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("damier: error: no GPU adapter found"), "{err}");
    // `damier gpu` and `--device list` too (scripts/gpu-bench.sh stops on it); `--json`
    // prints the empty list first.
    for (args, stdout) in [
        (&["gpu"][..], ""),
        (&["gpu", "--json"], "[]\n"),
        (&["queens", "count", "10", "--device", "list"], ""),
    ] {
        let out = damier().env("VK_ICD_FILENAMES", "/nonexistent/icd.json").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        let err: Vec<&str> = err.lines().filter(|l| !l.contains("XDG_RUNTIME_DIR")).collect();
        assert_eq!(err.len(), 1, "{args:?}: {err:?}");
        assert!(err[0].starts_with("damier: error: no GPU adapter found"), "{args:?}: {err:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), stdout, "{args:?}");
    }
    let err = fails_with(&["queens", "count", "12", "--device", "gpu", "--strategy", "quarters"], 2);
    assert!(err.contains("--strategy picks the CPU's engine"), "{err}");
    fails_with(&["queens", "count", "3", "--device", "gpu"], 2);
}

/// `scripts/gpu-bench.sh`, the one command for a machine with a GPU (docs/gpu.md, "Benchmark";
/// issue 50 §6): without an adapter it stops at once, exit 2, with one line on stderr saying
/// where it looked, damier's own refusal folded into it (the review: "one line" was not
/// checked, and damier's refusal was a second line), and no step run (its stdout the header
/// and the adapter step's title only); on the machine's adapter (lavapipe in CI) its quick run
/// (`QUICK=1`) runs every step to the end, exit 0, each q(n) agreeing with A000170, the CPU
/// with the same counts, model 3's runs with the CPU's.
#[cfg(feature = "gpu")]
#[test]
fn the_bench_script_stops_without_an_adapter_and_runs_its_quick_steps() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/gpu-bench.sh");
    let run = |icd: Option<&str>| {
        let mut c = std::process::Command::new("bash");
        c.arg(&script).env("DAMIER", env!("CARGO_BIN_EXE_damier")).env("QUICK", "1");
        if let Some(icd) = icd {
            c.env("VK_DRIVER_FILES", icd);
        }
        let out = c.output().expect("bash runs");
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        (out.status.code(), stdout.into_owned(), stderr.into_owned())
    };
    let (code, stdout, stderr) = run(Some("/nonexistent/icd.json"));
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("gpu-bench: no usable GPU adapter (damier gpu exited 2: damier: error: ")
            && stderr.contains("ICD /nonexistent/icd.json")
            && stderr.ends_with("): stopped\n"),
        "{stderr}"
    );
    // The header (the binary and the ICD, the CPU), then the adapter step's title: no step ran.
    let titles: Vec<&str> = stdout.lines().filter(|l| l.starts_with("== ")).collect();
    assert_eq!(titles, ["== adapters"], "{stdout}");
    needs_adapter();
    let (code, stdout, stderr) = run(None);
    let text = stdout + &stderr;
    assert_eq!(code, Some(0), "{text}");
    // q(10), q(11), then q(12) after the random tasks.
    assert_eq!(text.matches("(A000170: agrees)").count(), 3, "{text}");
    assert_eq!(text.matches("the same counts").count(), 2, "n = 13 and 14 on the CPU too: {text}");
    assert!(
        text.contains("(the CPU's: 2697, 113: agrees)") && text.matches("moves agree").count() == 2,
        "{text}"
    );
    assert!(
        !text.contains("MISMATCH") && !text.contains("stopped or failed") && !text.contains("skipped"),
        "{text}"
    );
    assert!(text.contains("gpu-bench: done in"), "{text}");
}

#[cfg(feature = "gpu")]
#[test]
fn the_bench_compares_the_gpu_with_the_cpu() {
    needs_adapter();
    let r = json(&["gpu", "--bench", "13", "--tasks", "30", "--seed", "2", "--json"]);
    assert_eq!(r["tasks"].as_u64(), Some(30), "{r}");
    assert!(r["solutions"].as_u64().unwrap() > 0, "{r}");
    assert_eq!(r["cpu_engine"], "quarters", "{r}");
    assert!(r["gpu_ns_per_solution"].as_f64().unwrap() > 0.0, "{r}");
    // The CPU's time is its tasks' own, not the wall time x threads: 2 tasks on 8 threads
    // keep at most 2 busy (each task's time is within the wall time).
    let r = json(&["gpu", "--bench", "13", "--tasks", "2", "--threads", "8", "--seed", "2", "--json"]);
    let busy = r["cpu_core_ns_per_solution"].as_f64().unwrap() * r["solutions"].as_f64().unwrap() * 1e-9;
    let wall = r["cpu_seconds"].as_f64().unwrap();
    assert_eq!(r["cpu_threads"].as_u64(), Some(8), "{r}");
    assert!(busy > 0.0 && busy <= 2.0 * wall * 1.000_001, "{r}");
}

/// Issue 50 §5: the bench says where the GPU run's time went (the join kernel), figures that
/// agree with each other.
#[cfg(feature = "gpu")]
#[test]
fn the_bench_says_where_the_time_goes() {
    needs_adapter();
    let r = json(&["gpu", "--bench", "12", "--tasks", "12", "--seed", "3", "--no-cpu", "--json"]);
    let f = |k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k}: {r}"));
    let u = |k: &str| r[k].as_u64().unwrap_or_else(|| panic!("{k}: {r}"));
    assert!(u("bytes_uploaded") > 0, "{r}");
    // The parts of the upload add up to it, and the keys and queries carried are counted.
    let parts = ["keys", "queries", "blocks", "pairs", "params", "gathered"];
    let part = |k: &str| r["uploaded"][k].as_u64().unwrap_or_else(|| panic!("uploaded.{k}: {r}"));
    assert_eq!(parts.iter().map(|k| part(k)).sum::<u64>(), u("bytes_uploaded"), "{r}");
    assert!(part("stored_keys") > 0 && part("query_count") > 0 && part("keys") > 0, "{r}");
    let rate = u("bytes_uploaded") as f64 / f("gpu_seconds") / 1e9;
    assert!((f("upload_gb_per_s") - rate).abs() <= 1e-9 * rate.max(1.0), "{r}");
    assert!((0.0..=1.0).contains(&f("gpu_busy_fraction")), "{r}");
    assert!(["timestamps", "dispatch wall times"].contains(&r["gpu_busy_from"].as_str().unwrap()), "{r}");
    for k in ["sealing_cpu_seconds", "upload_prep_seconds", "host_wait_seconds"] {
        assert!(f(k) >= 0.0, "{k}: {r}");
    }
    // Every job has a dispatch of its own but the gathered ones, which share theirs.
    assert!(u("jobs") >= 1 && u("dispatches") >= 1, "{r}");
    assert!(u("dispatches") + u("merged_batches") >= u("jobs"), "{r}");
    assert!(u("submissions") >= 1 && u("submissions") <= u("jobs"), "{r}");
    assert!(u("merged_batches") <= u("jobs"), "{r}");
    assert!(u("most_in_flight") >= 1 && u("most_in_flight") <= u("ring"), "{r}");
    let text = damier().args(["gpu", "--bench", "12", "--tasks", "4", "--no-cpu"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("where the time went: sealing") && text.contains("bytes uploaded (keys "),
        "{text}"
    );
    // Issue 52 §5: the text's measured quantities have three significant digits (the bench
    // printed `0.012818022 s`), beside the CPU's too.
    let text = damier().args(["gpu", "--bench", "12", "--tasks", "4", "--threads", "2"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("; CPU ") && over_three_digits(&text).is_empty(),
        "{:?}: {text}",
        over_three_digits(&text)
    );
}

/// The decimal numbers of `text` written with more than three significant digits (the
/// README's rule for measured quantities in messages).
#[cfg(feature = "gpu")]
fn over_three_digits(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || "(),;:%".contains(c))
        .filter(|w| w.contains('.') && w.parse::<f64>().is_ok())
        .filter(|w| {
            let mantissa = w.split(['e', 'E']).next().unwrap_or("");
            let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
            digits.trim_start_matches('0').len() > 3
        })
        .collect()
}

/// `queens estimate --device gpu`: the sample counted on the GPU, the projection in GPU hours,
/// its solutions bracketing q(n) as the CPU's estimate does.
#[cfg(feature = "gpu")]
#[test]
fn the_estimate_on_the_gpu_projects_gpu_hours_and_brackets_the_known_total() {
    let err = fails_with(&["queens", "estimate", "12", "--device", "gpu", "--queries", "16"], 2);
    assert!(err.contains("--device gpu counts whole tasks"), "{err}");
    needs_adapter();
    let r =
        json(&["queens", "estimate", "13", "--device", "gpu", "--samples", "60", "--seed", "3", "--json"]);
    assert_eq!((r["device"].as_str(), r["isa"].as_str()), (Some("gpu"), Some("wgsl")), "{r}");
    assert_eq!((r["samples"].as_u64(), r["seed"].as_u64()), (Some(60), Some(3)), "{r}");
    assert_eq!((r["engine"].as_str(), r["clock"].as_str()), (Some("quarters"), Some("wall")), "{r}");
    assert_eq!(r["known_inside"], true, "{r}");
    assert!(r["core_hours"].as_f64().unwrap() > 0.0 && r["ns_per_solution"].as_f64().unwrap() > 0.0, "{r}");
    assert!(!r["adapter"].as_str().unwrap().is_empty(), "{r}");
    let out =
        damier().args(["queens", "estimate", "12", "--device", "gpu", "--samples", "20"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("GPU hours") && text.contains("GPU ns") && !text.contains("core"), "{text}");
}

/// The cost warning before a long GPU count quotes GPU hours (the threshold lowered by a test
/// hook, debug builds); stdout stays the report.
#[cfg(all(feature = "gpu", debug_assertions))]
#[test]
fn a_long_gpu_count_is_announced_in_gpu_hours() {
    needs_adapter();
    for device in ["gpu", "all"] {
        let out = hooked(&[("DAMIER_TEST_COST_WARNING_HOURS", "0")])
            .args(["queens", "count", "12", "--device", device, "--json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.matches("To split it").count(), 1, "{err}");
        assert!(err.contains("GPU hours") && err.contains("--device gpu` projects it"), "{err}");
        // The library's quick estimate, in its words: an interval, or a lower bound.
        assert!(
            err.contains("(a quick estimate from ") && err.contains("s): 95% interval ")
                || err.contains("(at least: ") && err.contains(" random tasks (seed "),
            "{err}"
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the JSON report");
        assert_eq!(v["total"].as_u64(), Some(14_200));
    }
    // Without the hook a small count is not announced.
    let out = damier().args(["queens", "count", "12", "--device", "gpu", "--json"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("To split it"));
}

/// `cargo test -p damier-cli --features mpi,gpu --test cli -- mpi gpu` (Open MPI's `mpirun`
/// and an adapter): every process of the job counts its batches on its own GPU (lavapipe on
/// each here), the total exact, the journal headed `quarters` (the default join kernel) and
/// rechecked on the CPU by the backtracker.
#[cfg(all(feature = "gpu", feature = "mpi"))]
#[test]
fn mpi_processes_count_on_their_gpus() {
    needs_adapter();
    if std::process::Command::new("mpirun").arg("--version").output().is_err() {
        super::needs::missing("mpi_processes_count_on_their_gpus", "mpirun (apt-get install openmpi-bin)");
    }
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("mpi-gpu.journal");
    let journal = journal.to_str().unwrap();
    let mpirun = |device: &str| {
        std::process::Command::new("mpirun")
            .args(["--allow-run-as-root", "--oversubscribe", "-n", "2"])
            .arg(assert_cmd::cargo::cargo_bin("damier"))
            .args(["queens", "count", "12", "--mpi", "--device", device, "--threads", "1", "--json"])
            .args(["--journal", journal])
            .output()
            .unwrap()
    };
    let out = mpirun("gpu");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "mpirun failed: {err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report, from process 0");
    assert_eq!((v["total"].as_u64(), v["processes"].as_u64()), (Some(14_200), Some(2)), "{v}");
    assert_eq!(v["strategy"], "quarters", "{v}");
    let by: Vec<u64> =
        v["tasks_by_process"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(by.iter().sum::<u64>(), v["tasks"].as_u64().unwrap(), "{v}");
    // Both processes opened a GPU: the first adapter of the default's kind for both here.
    for p in ["process 0 of this machine counts on GPU", "process 1 of this machine counts on GPU"] {
        assert!(err.contains(p), "{err}");
    }
    let audit = json(&["queens", "journal", journal, "--recheck", "10", "--seed", "2", "--json"]);
    assert_eq!(
        (audit["recheck"]["engine"].as_str(), audit["recheck"]["agree"].as_bool()),
        (Some("backtrack"), Some(true))
    );
    // The rerun resumes every task from the journal.
    let again = mpirun("gpu");
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    let v: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        (v["total"].as_u64(), v["resumed_tasks"].as_u64()),
        (Some(14_200), v["tasks"].as_u64()),
        "{v}"
    );
    // GPU and CPU cores in every process.
    let dir = tempfile::tempdir().unwrap();
    let journal2 = dir.path().join("mpi-all.journal");
    let out = std::process::Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-n", "2"])
        .arg(assert_cmd::cargo::cargo_bin("damier"))
        .args(["queens", "count", "13", "--mpi", "--device", "all", "--threads", "1", "--json", "--journal"])
        .arg(&journal2)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["total"].as_u64(), v["strategy"].as_str()), (Some(73_712), Some("quarters")), "{v}");
    let status = json(&["queens", "journal", journal2.to_str().unwrap(), "--json"]);
    assert_eq!(status["device"], "cpu+gpu", "{status}");
}

#[cfg(feature = "gpu")]
#[test]
fn model3_on_the_gpu_runs_the_cpus_trajectory_and_checkpoints_it() {
    needs_adapter();
    let run = ["automaton", "run", "--model", "row", "-n", "16", "--seed", "1", "--json"];
    let cpu = json(&run);
    let gpu = json(&[&run[..], &["--device", "gpu"]].concat());
    assert_eq!(cpu["solved"], true);
    for key in ["steps", "moves", "solved", "absorbing", "placement"] {
        assert_eq!(gpu[key], cpu[key], "{key}");
    }
    // Stopped on the GPU after 500 generations into a checkpoint, resumed on the CPU: the
    // same run (the file holds the device's planes, downloaded).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("row.ckpt");
    let path = path.to_str().unwrap();
    let out = damier()
        .args(&run[..run.len() - 1])
        .args(["--device", "gpu", "--max-steps", "500", "--checkpoint", path, "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed = json(&["automaton", "run", "--checkpoint", path, "--json"]);
    for key in ["steps", "moves", "solved", "placement"] {
        assert_eq!(resumed[key], cpu[key], "{key}");
    }
    // The other way: stopped on the CPU, resumed on the GPU (the file's planes uploaded).
    let path = dir.path().join("row-cpu.ckpt");
    let path = path.to_str().unwrap();
    let out = damier()
        .args(&run[..run.len() - 1])
        .args(["--max-steps", "700", "--checkpoint", path, "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed = json(&["automaton", "run", "--checkpoint", path, "--device", "gpu", "--json"]);
    for key in ["steps", "moves", "solved", "placement"] {
        assert_eq!(resumed[key], cpu[key], "{key}");
    }
    // Models 1 and 2, and --trace, stay on the CPU.
    let err = fails_with(&["automaton", "run", "-n", "8", "--device", "gpu"], 2);
    assert!(err.contains("--model row"), "{err}");
    let err =
        fails_with(&["automaton", "run", "--model", "row", "-n", "8", "--device", "gpu", "--trace", "5"], 2);
    assert!(err.contains("--trace"), "{err}");
}

/// Issue 53: every rule the GPU runs gives the CPU's run from the CLI (small n, a few hundred
/// generations), a checkpoint written on the GPU under a rule resumes on the CPU under it, and
/// the rules without waves or on the random-cell schedule are refused on the GPU in one line.
#[cfg(feature = "gpu")]
#[test]
fn model3_rules_run_alike_on_both_devices() {
    needs_adapter();
    let names = ["kept", "v1", "patience", "slow", "rare-south", "strict", "patience-reset", "patience-rest"];
    for rule in names.iter().chain(&[
        "memoryless",
        "memoryless-slow",
        "committed",
        "committed-slow",
        "yes-no",
        "backoff",
        "backoff-walks",
    ]) {
        let run = ["automaton", "run", "--model", "row", "-n", "11", "--seed", "4", "--max-steps", "400"];
        let cpu = damier().args(run).args(["--rule", rule, "--json"]).output().unwrap();
        let gpu = damier().args(run).args(["--rule", rule, "--json", "--device", "gpu"]).output().unwrap();
        assert_eq!(cpu.status.code(), gpu.status.code(), "{rule}: {}", String::from_utf8_lossy(&gpu.stderr));
        let (cpu, gpu): (serde_json::Value, serde_json::Value) =
            (serde_json::from_slice(&cpu.stdout).unwrap(), serde_json::from_slice(&gpu.stdout).unwrap());
        for key in ["steps", "moves", "solved", "absorbing", "placement"] {
            assert_eq!(gpu[key], cpu[key], "{rule}: {key}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.ckpt");
    let path = path.to_str().unwrap();
    let run = ["automaton", "run", "--model", "row", "-n", "12", "--seed", "1", "--rule", "patience"];
    let straight = json(&[&run[..], &["--json"]].concat());
    let out = damier()
        .args(run)
        .args(["--device", "gpu", "--max-steps", "40", "--checkpoint", path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed = json(&["automaton", "run", "--checkpoint", path, "--json"]);
    for key in ["steps", "moves", "solved", "placement"] {
        assert_eq!(resumed[key], straight[key], "{key}");
    }
    for rule in ["gradient", "no-waves", "random-cells"] {
        let err = fails_with(
            &["automaton", "run", "--model", "row", "-n", "8", "--rule", rule, "--device", "gpu"],
            2,
        );
        assert!(err.contains("CPU only") && err.lines().count() == 1, "{err}");
    }
}

/// A GPU run of model 3 saves the device's state every second and on Ctrl-C (exit 130), and
/// the file goes on to the same state as a run that was never interrupted.
#[cfg(all(feature = "gpu", unix))]
#[test]
fn ctrl_c_on_a_gpu_run_saves_a_checkpoint_that_resumes_bit_exactly() {
    needs_adapter();
    let dir = tempfile::tempdir().unwrap();
    let (cut, whole) = (dir.path().join("cut.ckpt"), dir.path().join("whole.ckpt"));
    let args = ["automaton", "run", "--model", "row", "-n", "200", "--seed", "1"];
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("damier"))
        .args(args)
        .args(["--device", "gpu", "--max-steps", "100000000000", "--checkpoint-every", "1", "--checkpoint"])
        .arg(&cut)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Steps in a checkpoint (little-endian u64 after magic, version, model, n, ε, η, seed).
    let steps_in = |bytes: &[u8]| bytes.get(41..49).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap()));
    // A periodic save with steps done (the device's planes downloaded mid-run) says the run is
    // under way, however slowly the adapter started; Ctrl-C then.
    let start = std::time::Instant::now();
    while steps_in(&std::fs::read(&cut).unwrap_or_default()) == 0
        && start.elapsed() < std::time::Duration::from_secs(120)
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let steps = steps_in(&std::fs::read(&cut).expect("checkpoint written on Ctrl-C"));
    assert!(steps > 0, "{stderr}");
    // On to a later cap on the CPU, and the same cap in one CPU run: the same file.
    let target = (steps + 300).to_string();
    let resumed = damier()
        .args(["automaton", "run", "--max-steps", &target, "--checkpoint"])
        .arg(&cut)
        .output()
        .unwrap();
    let straight =
        damier().args(args).args(["--max-steps", &target, "--checkpoint"]).arg(&whole).output().unwrap();
    assert_eq!(resumed.status.code(), straight.status.code(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap());
}
