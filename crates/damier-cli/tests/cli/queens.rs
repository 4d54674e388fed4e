use super::util::{damier, fails_with, json, quiet_on_closed_pipe};

#[test]
fn count_json_has_the_contract_keys() {
    let v = json(&["queens", "count", "8", "--json"]);
    assert_eq!(v["n"], 8);
    assert_eq!(v["total"], 92);
    assert_eq!(v["unique"], 12);
    assert!(v["seconds"].as_f64().is_some());
}

#[test]
fn count_rejects_bad_sizes() {
    for bad in [
        ["queens", "count", "0"],
        ["queens", "count", "33"],
        ["queens", "count", "-3"],
        ["queens", "count", "x"],
    ] {
        fails_with(&bad, 2);
    }
}

fn stdout(args: &[&str]) -> (i32, String) {
    let out = damier().args(args).output().expect("runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn columns(v: &serde_json::Value) -> Vec<u64> {
    v.as_array().expect("columns is a list").iter().map(|c| c.as_u64().expect("column")).collect()
}

/// Independent check of 1-based columns: a permutation with distinct diagonals.
fn is_solution(cols: &[u64]) -> bool {
    let n = cols.len();
    let mut seen = std::collections::HashSet::new();
    cols.iter().all(|&c| c >= 1 && c as usize <= n)
        && cols.iter().enumerate().all(|(r, &c)| {
            let (r, c) = (r as i64, c as i64);
            seen.insert(("col", c)) && seen.insert(("diag", r - c)) && seen.insert(("anti", r + c))
        })
}

#[test]
fn list_json_gives_every_solution_once() {
    let v = json(&["queens", "list", "8", "--json"]);
    let all: Vec<Vec<u64>> = v.as_array().unwrap().iter().map(|o| columns(&o["columns"])).collect();
    assert_eq!(all.len(), 92);
    assert!(all.iter().all(|c| is_solution(c)));
    assert!(all.windows(2).all(|w| w[0] < w[1]), "backtracking order is lexicographic");
    assert_eq!(all[0], vec![1, 5, 8, 6, 3, 7, 2, 4]);
    let u = json(&["queens", "list", "8", "--unique", "--json"]);
    let u = u.as_array().unwrap();
    assert_eq!(u.len(), 12);
    let sizes: u64 = u.iter().map(|o| o["class_size"].as_u64().unwrap()).sum();
    assert_eq!(sizes, 92);
}

#[test]
fn list_text_draws_boards_and_respects_limit() {
    let (code, out) = stdout(&["queens", "list", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("1: (2, 4, 1, 3)"));
    assert!(out.contains(". Q . .\n. . . Q\nQ . . .\n. . Q .\n"));
    let v = json(&["queens", "list", "10", "--limit", "3", "--json"]);
    assert_eq!(v.as_array().unwrap().len(), 3);
    let (code, out) = stdout(&["queens", "list", "20", "--limit", "2", "--no-boards"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())).count(), 2);
    let (code, _) = stdout(&["queens", "list", "3"]);
    assert_eq!(code, 1, "no solution is a 'no' answer");
}

#[test]
fn list_refuses_huge_listings_and_bad_sizes() {
    let err = fails_with(&["queens", "list", "16"], 2);
    assert!(err.contains("--limit"), "{err}");
    for bad in [
        &["queens", "list", "0"][..],
        &["queens", "list", "65", "--limit", "1"],
        &["queens", "list", "-1"],
        &["queens", "list", "8", "--limit", "0"],
    ] {
        fails_with(bad, 2);
    }
}

#[test]
fn first_and_its_no_answer() {
    let v = json(&["queens", "first", "8", "--json"]);
    assert_eq!(columns(&v["columns"]), vec![1, 5, 8, 6, 3, 7, 2, 4]);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    let (code, out) = stdout(&["queens", "first", "3", "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["columns"].is_null());
    fails_with(&["queens", "first", "0"], 2);
    fails_with(&["queens", "first", "65"], 2);
}

#[test]
fn solve_constructs_checked_solutions() {
    for n in ["4", "8", "9", "14", "15", "100", "1001"] {
        let v = json(&["queens", "solve", n, "--json"]);
        let c = columns(&v["columns"]);
        assert_eq!(c.len().to_string(), n);
        assert!(is_solution(&c), "n = {n}");
    }
    let (code, _) = stdout(&["queens", "solve", "3"]);
    assert_eq!(code, 1);
    fails_with(&["queens", "solve", "0"], 2);
    // The real limit, in words (issue 52 §5).
    let err = fails_with(&["queens", "solve", "1000000001"], 2);
    assert!(err.contains("1 to 1000000000"), "{err}");
    fails_with(&["queens", "solve", "many"], 2);
    // The library's refusal, in the words Python raises and the lab answers.
    let err = fails_with(&["queens", "solve", "8", "--seed", "3"], 2);
    assert!(
        err.contains(": a seed applies to method local only (the construction has no randomness)"),
        "{err}"
    );
}

#[test]
fn solve_writes_a_file_that_check_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.txt");
    let out = damier().args(["queens", "solve", "5000", "--out"]).arg(&path).output().unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 5000);
    let out = damier().args(["queens", "check"]).write_stdin(text).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    // Nothing but the result is left in the directory (the temporary file was renamed).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// A bracketed list of columns on stdin is also JSON: it was read as a JSON answer without a
/// `columns` key and refused ("no placement in the JSON").
#[test]
fn check_reads_a_json_list_of_columns_as_one_placement() {
    for (text, code) in [("[1, 5, 8, 6, 3, 7, 2, 4]\n", 0), ("[1,2,3,4]", 1)] {
        let out = damier().args(["queens", "check"]).write_stdin(text).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{text}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // A JSON answer without solution still says so.
    let out =
        damier().args(["queens", "check"]).write_stdin(r#"{"columns": null, "n": 3}"#).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no placement in the JSON"));
}

#[test]
fn solve_local_gives_random_checked_solutions() {
    for n in ["1", "4", "8", "30", "1000", "20011"] {
        let v = json(&["queens", "solve", n, "--method", "local", "--seed", "7", "--json"]);
        assert_eq!(v["method"], "local");
        assert_eq!(v["seed"], 7);
        let c = columns(&v["columns"]);
        assert_eq!(c.len().to_string(), n);
        assert!(is_solution(&c), "n = {n}");
    }
    let a = json(&["queens", "solve", "500", "--method", "local", "--seed", "1", "--json"]);
    let b = json(&["queens", "solve", "500", "--method", "local", "--seed", "1", "--json"]);
    let c = json(&["queens", "solve", "500", "--method", "local", "--seed", "2", "--json"]);
    assert_eq!(a["columns"], b["columns"], "same seed, same solution");
    assert_ne!(a["columns"], c["columns"], "seeds differ");
    // Without --seed, the seed drawn is printed so the run can be repeated.
    let v = json(&["queens", "solve", "50", "--method", "local", "--json"]);
    let seed = v["seed"].as_u64().expect("seed printed").to_string();
    let again = json(&["queens", "solve", "50", "--method", "local", "--seed", &seed, "--json"]);
    assert_eq!(v["columns"], again["columns"]);
    for n in ["2", "3"] {
        let (code, _) = stdout(&["queens", "solve", n, "--method", "local"]);
        assert_eq!(code, 1, "n = {n}");
    }
    let err = fails_with(&["queens", "solve", "100000001", "--method", "local"], 2);
    assert!(err.contains("at most 100000000"), "{err}");
    // The library's refusal, in the words Python raises and the lab answers.
    let err = fails_with(&["queens", "solve", "10", "--seed", "1"], 2);
    assert!(
        err.ends_with(": a seed applies to method local only (the construction has no randomness)\n"),
        "{err}"
    );
    fails_with(&["queens", "solve", "10", "--method", "annealing"], 2);
    fails_with(&["queens", "solve", "10", "--format", "binary"], 2);
}

/// Issue 38: `queens check` refused the file of `queens solve --format binary` (not UTF-8) and
/// what `queens max 3` prints, text or JSON (its empty row, 0, is out of range), although the
/// README says it reads whatever `max` prints.
#[test]
fn check_reads_binary_solutions_and_every_max_witness() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.bin");
    let out = damier()
        .args(["queens", "solve", "1000", "--format", "binary", "--out"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let bytes = std::fs::read(&path).unwrap();
    let out = damier().args(["queens", "check"]).write_stdin(bytes.clone()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Two rows swapped attack; a truncated file is refused with its length.
    let mut swapped = bytes.clone();
    swapped[..8].rotate_left(4);
    let out = damier().args(["queens", "check"]).write_stdin(swapped).output().unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)));
    let out = damier().args(["queens", "check"]).write_stdin(bytes[..3999].to_vec()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 bytes per row"));
    for n in ["2", "3", "5", "8"] {
        for json in [false, true] {
            let mut args = vec!["queens", "max", n];
            if json {
                args.push("--json");
            }
            let printed = damier().args(&args).output().unwrap();
            assert!(printed.status.success());
            let out = damier().args(["queens", "check"]).write_stdin(printed.stdout).output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{args:?}: {text}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            if n == "3" && !json {
                assert!(text.contains("valid: 2 queens on the 3x3 board"), "{text}");
            }
        }
    }
    // A witness whose queens attack is invalid.
    let out = damier()
        .args(["queens", "check"])
        .write_stdin("witness (column per row, 0 = empty row): 1 2 0\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// Issue 38, section 2, second pass: a newcomer gives the file as an argument (`queens check
/// q8.bin`, `queens check -`) and got only "'q8.bin' is not a column number". `-` reads stdin,
/// and a word that is no column says how a file is read.
#[test]
fn check_reads_stdin_for_a_dash_and_says_how_a_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q8.bin");
    let out =
        damier().args(["queens", "solve", "8", "--format", "binary", "--out"]).arg(&path).output().unwrap();
    assert!(out.status.success());
    let bytes = std::fs::read(&path).unwrap();
    let out = damier().args(["queens", "check", "-"]).write_stdin(bytes).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let out = damier().args(["queens", "check"]).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a column number") && err.contains("damier queens check < FILE"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // On stdin, the message is the reader's own.
    let out = damier().args(["queens", "check"]).write_stdin("1 x 3").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && !err.contains("< FILE"), "{err}");
}

#[test]
fn solve_binary_files_hold_u32_little_endian_columns() {
    let dir = tempfile::tempdir().unwrap();
    for method in ["construct", "local"] {
        let path = dir.path().join(format!("{method}.bin"));
        let out = damier()
            .args(["queens", "solve", "3001", "--method", method, "--format", "binary", "--out"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), 4 * 3001);
        let cols: Vec<u64> =
            bytes.chunks(4).map(|b| u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))).collect();
        assert!(is_solution(&cols), "{method}");
        // The text file of the same run holds the same columns.
        let text = dir.path().join(format!("{method}.txt"));
        let mut args = vec!["queens", "solve", "3001", "--method", method];
        if method == "local" {
            args.extend(["--seed", "0"]);
        }
        assert!(damier().args(&args).arg("--out").arg(&text).output().unwrap().status.success());
        let from_text: Vec<u64> =
            std::fs::read_to_string(&text).unwrap().lines().map(|l| l.parse().unwrap()).collect();
        assert!(is_solution(&from_text));
        if method == "construct" {
            assert_eq!(from_text, cols);
        }
    }
}

#[test]
fn list_random_draws_checked_solutions_per_seed() {
    for n in ["8", "20"] {
        let v = json(&["queens", "list", n, "--random", "5", "--seed", "9", "--json"]);
        assert_eq!(v["seed"], 9);
        let drawn = v["solutions"].as_array().unwrap();
        assert_eq!(drawn.len(), 5);
        assert!(drawn.iter().all(|s| is_solution(&columns(s))), "n = {n}");
        let again = json(&["queens", "list", n, "--random", "5", "--seed", "9", "--json"]);
        assert_eq!(v, again, "n = {n}: same seed, same draws");
    }
    let v = json(&["queens", "list", "8", "--random", "3", "--json"]);
    assert_eq!(v["sampler"], "uniform");
    assert!(v["seed"].is_u64(), "the seed drawn is printed");
    let (code, _) = stdout(&["queens", "list", "3", "--random", "2"]);
    assert_eq!(code, 1);
    fails_with(&["queens", "list", "1001", "--random", "2"], 2);
    fails_with(&["queens", "list", "8", "--random", "0"], 2);
    fails_with(&["queens", "list", "8", "--random", "2", "--unique"], 2);
    fails_with(&["queens", "list", "8", "--seed", "2"], 2);
}

/// n = 0: `queens count 0` and `queens first 0` refuse it alike, in one line, exit 2 (the
/// request layer's check, which the lab's server goes through too); `queens max 0` answers
/// R(0) = 0, the value the product specification lists, with an empty witness.
#[test]
fn count_and_first_refuse_n_0_and_max_answers_it() {
    let v = json(&["queens", "max", "0", "--json"]);
    assert_eq!((v["n"].as_u64(), v["max"].as_u64()), (Some(0), Some(0)));
    assert!(columns(&v["columns"]).is_empty());
    for command in ["count", "first"] {
        let err = fails_with(&["queens", command, "0"], 2);
        assert_eq!(err, "damier: error: n must be at least 1\n", "queens {command} 0");
        let out = damier().args(["queens", command, "0", "--json"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "queens {command} 0 --json");
        assert!(out.stdout.is_empty(), "queens {command} 0 --json");
    }
}

#[test]
fn max_small_and_large() {
    let v = json(&["queens", "max", "3", "--json"]);
    assert_eq!(v["n"], 3);
    assert_eq!(v["max"], 2);
    let c = columns(&v["columns"]);
    assert_eq!(c.len(), 3);
    assert_eq!(c.iter().filter(|&&x| x == 0).count(), 1, "one empty row");
    for (n, r) in [(1, 1), (2, 1), (6, 6)] {
        let v = json(&["queens", "max", &n.to_string(), "--json"]);
        assert_eq!(v["max"], r, "n = {n}");
    }
    let v = json(&["queens", "max", "50", "--json"]);
    assert_eq!(v["max"], 50);
    assert!(is_solution(&columns(&v["columns"])));
    fails_with(&["queens", "max", "-2"], 2);
    fails_with(&["queens", "max", "10000001"], 2);
}

#[test]
fn corners_counts_agree_both_ways() {
    let v = json(&["queens", "corners", "4", "--json"]);
    assert_eq!(v["reduce"]["solutions"], 10);
    assert_eq!(v["extend"]["solutions"], 2);
    assert_eq!(v["reduce"]["per_corner"], v["extend"]["per_corner"]);
    for e in v["extend"]["examples"].as_array().unwrap() {
        assert!(is_solution(&columns(&e["from"])) && is_solution(&columns(&e["to"])));
    }
    let (code, out) = stdout(&["queens", "corners", "7"]);
    assert_eq!(code, 0);
    assert!(out.contains("main diagonal is empty"));
    fails_with(&["queens", "corners", "0"], 2);
    fails_with(&["queens", "corners", "15"], 2);
}

#[test]
fn check_valid_invalid_and_malformed() {
    let (code, _) = stdout(&["queens", "check", "2", "4", "1", "3"]);
    assert_eq!(code, 0);
    let (code, out) = stdout(&["queens", "check", "1,2,4,4"]);
    assert_eq!(code, 1);
    assert!(out.contains("same column") && out.contains("same diagonal"), "{out}");
    let out = damier().args(["queens", "check", "--json"]).write_stdin("1 3\n2\n").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
    assert_eq!(v["attacks"][0]["line"], "anti-diagonal");
    assert_eq!(v["attacks"][0]["a"], serde_json::json!([2, 3]));
    for bad in [
        &["queens", "check", "1", "5"][..],
        &["queens", "check", "0", "1"],
        &["queens", "check", "a", "b"],
        &["queens", "check", "-1", "2"],
        &["queens", "check", "1.5"],
    ] {
        fails_with(bad, 2);
    }
    // Empty stdin is malformed too.
    fails_with(&["queens", "check"], 2);
}

#[test]
fn timing_writes_csv_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg) = (dir.path().join("t.csv"), dir.path().join("t.svg"));
    let out = damier()
        .args(["queens", "timing", "--to", "7", "--naive-max", "6", "--min-ms", "1", "--csv"])
        .arg(&csv)
        .arg("--plot")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "n,naive_seconds,fast_seconds,total");
    assert_eq!(lines.len(), 8);
    assert!(lines[7].starts_with("7,,"), "naive stops at 6: {}", lines[7]);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    fails_with(&["queens", "timing", "--to", "33"], 2);
    fails_with(&["queens", "timing", "--to", "5", "--plot", "x.gif"], 2);
}

#[test]
fn bench_prints_a_row_per_n() {
    let v = json(&["queens", "bench", "6", "8", "--json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["total"], 92);
    assert!(rows[1]["seconds_1_thread"].as_f64().is_some());
    fails_with(&["queens", "bench", "33"], 2);
}

#[test]
fn shares_of_a_count_add_up_through_sum() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    let mut added = 0;
    for k in 1..=4 {
        let v = json(&["queens", "count", "13", "--share", &format!("{k}/4"), "--json"]);
        assert_eq!(
            (v["n"].as_u64(), v["share"].as_u64(), v["shares"].as_u64()),
            (Some(13), Some(k), Some(4))
        );
        added += v["share_total"].as_u64().expect("share_total");
        let path = dir.path().join(format!("share{k}.json"));
        std::fs::write(&path, v.to_string()).expect("write");
        files.push(path.to_string_lossy().into_owned());
    }
    assert_eq!(added, 73712);
    let mut args = vec!["queens", "sum", "--json"];
    args.extend(files.iter().map(String::as_str));
    let v = json(&args);
    assert_eq!(
        (v["n"].as_u64(), v["total"].as_u64(), v["unique"].as_u64()),
        (Some(13), Some(73712), Some(9233))
    );
    // A missing share, a share given twice, and bad --share values are usage errors.
    fails_with(&["queens", "sum", &files[0], &files[1], &files[2]], 2);
    fails_with(&["queens", "sum", &files[0], &files[0], &files[1], &files[2], &files[3]], 2);
    for bad in ["0/4", "5/4", "4", "a/b", "1/0"] {
        fails_with(&["queens", "count", "13", "--share", bad], 2);
    }
}

/// `cargo test -p damier-cli --features mpi` (needs Open MPI): a singleton MPI run counts the
/// whole board, and two processes under `mpirun` split it (without `mpirun` the test fails
/// naming it: it never passes with its second half unrun).
#[cfg(feature = "mpi")]
#[test]
fn mpi_count_matches_the_known_answer() {
    if std::process::Command::new("mpirun").arg("--version").output().is_err() {
        super::needs::missing("mpi_count_matches_the_known_answer", "mpirun (apt-get install openmpi-bin)");
    }
    let v = json(&["queens", "count", "12", "--mpi", "--json"]);
    assert_eq!(
        (v["total"].as_u64(), v["unique"].as_u64(), v["processes"].as_u64()),
        (Some(14200), Some(1787), Some(1))
    );
    let bin = assert_cmd::cargo::cargo_bin("damier");
    let out = std::process::Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-n", "2"])
        .arg(&bin)
        .args(["queens", "count", "13", "--mpi", "--json"])
        .output()
        .expect("mpirun runs");
    assert!(out.status.success(), "mpirun failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON report, from process 0");
    assert_eq!((v["total"].as_u64(), v["processes"].as_u64()), (Some(73712), Some(2)));
}

#[test]
fn queens_commands_exit_quietly_on_a_closed_pipe() {
    quiet_on_closed_pipe(&["queens", "count", "8"]);
    quiet_on_closed_pipe(&["queens", "list", "10"]);
    quiet_on_closed_pipe(&["queens", "first", "8"]);
    quiet_on_closed_pipe(&["queens", "solve", "1000"]);
    quiet_on_closed_pipe(&["queens", "max", "6"]);
    quiet_on_closed_pipe(&["queens", "corners", "6"]);
    quiet_on_closed_pipe(&["queens", "check", "2", "4", "1", "3"]);
    quiet_on_closed_pipe(&["queens", "count", "8", "--json"]);
}

#[test]
fn count_on_every_isa_this_cpu_has_and_refuses_the_others() {
    let mut covered = Vec::new();
    for isa in damier::cpu::Isa::ALL {
        let args = ["queens", "count", "12", "--isa", isa.name(), "--json"];
        if isa.is_available() {
            let v = json(&args);
            assert_eq!((v["total"].as_u64(), v["unique"].as_u64()), (Some(14200), Some(1787)), "{isa}");
            covered.push(isa.name());
        } else {
            let err = fails_with(&args, 2);
            assert!(err.contains(isa.name()), "the refusal names the missing unit: {err}");
        }
    }
    println!("queens count --isa tested on: {}", covered.join(", "));
    fails_with(&["queens", "count", "12", "--isa", "sse"], 2);
}

#[test]
fn count_memory_limit_switches_layout_or_refuses() {
    // 4 MB cannot hold n = 15's quarter table with the workers: the tasks search their
    // quarters instead, with the same counts.
    let v = json(&["queens", "count", "15", "--memory", "4M", "--threads", "1", "--json"]);
    assert_eq!((v["total"].as_u64(), v["unique"].as_u64()), (Some(2279184), Some(285053)));
    let err = fails_with(&["queens", "count", "15", "--memory", "1K"], 2);
    assert!(err.contains("KB allowed"), "the refusal names the sizes in their unit: {err}");
    // The task-list path (a share, a journal) honours the limit too.
    let v = json(&["queens", "count", "15", "--share", "1/2", "--memory", "4M", "--threads", "1", "--json"]);
    let other = json(&["queens", "count", "15", "--share", "2/2", "--threads", "1", "--json"]);
    assert_eq!(v["share_total"].as_u64().unwrap() + other["share_total"].as_u64().unwrap(), 2279184);
    let err = fails_with(&["queens", "count", "15", "--share", "1/2", "--memory", "1K"], 2);
    assert!(err.contains("KB allowed"), "the refusal names the sizes in their unit: {err}");
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j").display().to_string();
    fails_with(&["queens", "count", "15", "--journal", &journal, "--memory", "1K"], 2);
    for bad in ["0", "abc", "12Q", "-5M", "1e30T"] {
        fails_with(&["queens", "count", "12", "--memory", bad], 2);
    }
}
