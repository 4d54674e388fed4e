//! CLI tests of `damier lights`.

use std::io::Write;

use super::util::{damier, fails_with, json, quiet_on_closed_pipe};

/// A temporary board file.
fn board_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

/// Applies `presses` to `start` cell by cell (an independent check of the CLI's answers).
fn apply(start: &[Vec<bool>], presses: &[String]) -> Vec<Vec<bool>> {
    let h = start.len();
    let w = start[0].len();
    let mut b = start.to_vec();
    for (y, row) in presses.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c == '1' {
                for (dx, dy) in [(0i64, 0i64), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h {
                        b[ny as usize][nx as usize] ^= true;
                    }
                }
            }
        }
    }
    b
}

fn presses(v: &serde_json::Value) -> Vec<String> {
    v["presses"].as_array().expect("presses").iter().map(|r| r.as_str().unwrap().to_string()).collect()
}

#[test]
fn solve_all_on_5x5_json_contract() {
    let v = json(&["lights", "solve", "--all-on", "5x5", "--json"]);
    assert_eq!(v["width"], 5);
    assert_eq!(v["height"], 5);
    assert_eq!(v["nullity"], 2);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["solutions"], "4");
    let p = presses(&v);
    assert_eq!(
        v["press_count"].as_u64().unwrap() as usize,
        p.iter().map(|r| r.matches('1').count()).sum::<usize>()
    );
    let after = apply(&vec![vec![true; 5]; 5], &p);
    assert!(after.iter().flatten().all(|&c| !c));
}

#[test]
fn solve_min_and_all() {
    let v = json(&["lights", "solve", "--all-on", "5x5", "--min", "--json"]);
    assert_eq!(v["press_count"], 15);
    assert_eq!(v["exact_min"], true);
    let v = json(&["lights", "solve", "--all-on", "4x4", "--all", "--json"]);
    let all = v["all"].as_array().unwrap();
    assert_eq!(all.len(), 16);
    for s in all {
        let p: Vec<String> = s.as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
        assert!(apply(&vec![vec![true; 4]; 4], &p).iter().flatten().all(|&c| !c));
    }
    // 30x30 has nullity 20: listing all is refused with the count.
    let err = fails_with(&["lights", "solve", "--all-on", "30x30", "--all"], 2);
    assert!(err.contains("1048576"), "{err}");
}

#[test]
fn solve_file_stdin_target_and_no_solution() {
    // The seed's 2x2 example: cell 0 lit; presses 0, 1, 2.
    let f = board_file("10\n00\n");
    let v = json(&["lights", "solve", f.path().to_str().unwrap(), "--json"]);
    assert_eq!(presses(&v), vec!["11", "10"]);
    let out = damier().args(["lights", "solve", "-", "--json"]).write_stdin("#.\n..\n").output().unwrap();
    assert!(out.status.success());
    // 5x5 with one corner lit is not winnable: exit 1.
    let f = board_file("10000\n00000\n00000\n00000\n00000\n");
    let out = damier().args(["lights", "solve", f.path().to_str().unwrap(), "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solvable"], false);
    assert_eq!(v["solutions"], "0");
    // ...but it reaches a target that differs from it by a winnable pattern.
    let t = board_file("01000\n10000\n00000\n00000\n00000\n");
    let v = json(&[
        "lights",
        "solve",
        f.path().to_str().unwrap(),
        "--target",
        t.path().to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["solvable"], true);
}

#[test]
fn solve_random_prints_seed_and_methods_agree() {
    for m in ["dense", "chase", "poly"] {
        let v = json(&["lights", "solve", "--random", "9x7", "--seed", "42", "--method", m, "--json"]);
        assert_eq!(v["seed"], 42);
        assert_eq!(v["nullity"], 0);
        assert_eq!(v["solvable"], true);
    }
}

#[test]
fn explain_shows_the_seed_steps() {
    let f = board_file("10\n00\n");
    let out = damier().args(["lights", "solve", f.path().to_str().unwrap(), "--explain"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("L1 <-> L2"), "{text}");
    assert!(text.contains("1110 | 1"), "{text}");
    fails_with(&["lights", "solve", "--all-on", "9x9", "--explain"], 2);
}

#[test]
fn count_kernel_winnable() {
    let v = json(&["lights", "count", "14x3", "--json"]);
    assert_eq!(v["nullity"], 2);
    assert_eq!(v["solutions"], "4");
    assert_eq!(v["width"], 14);
    assert_eq!(v["height"], 3);
    let v = json(&["lights", "count", "39x39", "--json"]);
    assert_eq!(v["solutions"], "4294967296");
    let v = json(&["lights", "kernel", "5x5", "--json"]);
    assert_eq!(v["basis"].as_array().unwrap().len(), 2);
    for b in v["basis"].as_array().unwrap() {
        let p: Vec<String> = b.as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
        assert!(apply(&vec![vec![false; 5]; 5], &p).iter().flatten().all(|&c| !c));
    }
    let corners = board_file("10001\n00000\n00000\n00000\n10001\n");
    let v = json(&["lights", "winnable", corners.path().to_str().unwrap(), "--json"]);
    assert_eq!(v["winnable"], true);
    assert_eq!(v["by_orthogonality"], true);
    assert_eq!(v["by_solving"], true);
    let one = board_file("10000\n00000\n00000\n00000\n00000\n");
    fails_with(&["lights", "winnable", one.path().to_str().unwrap()], 1);
}

#[test]
fn table_matches_the_seed_head() {
    let v = json(&["lights", "table", "--to", "12", "--json"]);
    let sols: Vec<&str> = v.as_array().unwrap().iter().map(|r| r["solutions"].as_str().unwrap()).collect();
    assert_eq!(sols, vec!["1", "1", "16", "4", "1", "1", "1", "256", "1", "64", "1"]);
}

#[test]
fn chase_and_chase_table() {
    let v = json(&["lights", "chase-table", "5x5", "--json"]);
    assert_eq!(v["rank"], 3);
    assert_eq!(v["entries"].as_array().unwrap().len(), 7);
    let f = board_file("11111\n11111\n11111\n11111\n11111\n");
    let v = json(&["lights", "chase", f.path().to_str().unwrap(), "--json"]);
    assert_eq!(v["solvable"], true);
    let p: Vec<String> =
        v["presses"].as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
    assert!(apply(&vec![vec![true; 5]; 5], &p).iter().flatten().all(|&c| !c));
    let one = board_file("10000\n00000\n00000\n00000\n00000\n");
    fails_with(&["lights", "chase", one.path().to_str().unwrap()], 1);
}

#[test]
fn bad_inputs_exit_2_with_line_and_column() {
    let ragged = board_file("101\n10\n");
    let err = fails_with(&["lights", "solve", ragged.path().to_str().unwrap()], 2);
    assert!(err.contains("line 2"), "{err}");
    let bad = board_file("101\n1x1\n");
    let err = fails_with(&["lights", "solve", bad.path().to_str().unwrap()], 2);
    assert!(err.contains("line 2, column 2"), "{err}");
    let empty = board_file("\n\n");
    let err = fails_with(&["lights", "solve", empty.path().to_str().unwrap()], 2);
    assert!(err.contains("empty"), "{err}");
    fails_with(&["lights", "solve", "/nonexistent/board"], 2);
    let err = fails_with(&["lights", "solve", "--all-on", "1000000x1000000"], 2);
    assert!(err.contains("at most"), "{err}");
    fails_with(&["lights", "count", "0x5"], 2);
    fails_with(&["lights", "count", "5by5"], 2);
    fails_with(&["lights", "solve", "--all-on", "100x100", "--method", "dense"], 2);
    let small = board_file("11\n11\n");
    let big = board_file("111\n111\n");
    fails_with(
        &["lights", "solve", small.path().to_str().unwrap(), "--target", big.path().to_str().unwrap()],
        2,
    );
    fails_with(&["lights", "table", "--to", "1"], 2);
    fails_with(&["lights", "chase-table", "5000x3"], 2);
}

#[test]
fn lights_commands_exit_quietly_on_a_closed_pipe() {
    quiet_on_closed_pipe(&["lights", "chase-table", "200x200"]);
    quiet_on_closed_pipe(&["lights", "kernel", "30x30"]);
    quiet_on_closed_pipe(&["lights", "solve", "--random", "300x300", "--seed", "1"]);
    quiet_on_closed_pipe(&["lights", "table", "--to", "10"]);
    quiet_on_closed_pipe(&["lights", "count", "5x5"]);
}

/// `2^k - 1` in decimal by repeated doubling of a digit string (independent of the library).
fn two_pow_minus_one(k: u64) -> String {
    let mut digits = vec![1u8]; // little-endian decimal digits
    for _ in 0..k {
        let mut carry = 0;
        for d in digits.iter_mut() {
            let v = *d * 2 + carry;
            *d = v % 10;
            carry = v / 10;
        }
        if carry > 0 {
            digits.push(carry);
        }
    }
    digits[0] -= 1; // 2^k never ends in 0
    while digits.len() > 1 && digits.last() == Some(&0) {
        digits.pop();
    }
    digits.iter().rev().map(|d| char::from(b'0' + d)).collect()
}

#[test]
fn chase_table_prints_the_exact_count_beyond_u128() {
    // Regression: above rank 127 the count was parsed into u128 and silently dropped.
    let rank = json(&["lights", "chase-table", "200x200", "--json"])["rank"].as_u64().unwrap();
    assert!(rank >= 128, "the test needs a rank beyond u128, got {rank}");
    let out = damier().args(["lights", "chase-table", "200x200"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = format!("after chasing, {} nonzero last rows", two_pow_minus_one(rank));
    assert!(text.contains(&expected), "{}", text.lines().next().unwrap_or(""));
}
