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
    // The Lights Out text's 2x2 example: cell 0 lit; presses 0, 1, 2.
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
fn explain_shows_the_steps() {
    let f = board_file("10\n00\n");
    let out = damier().args(["lights", "solve", f.path().to_str().unwrap(), "--explain"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // Equations counted from 1 (issue 21: one convention for everything a person reads).
    assert!(text.contains("L2 <-> L3"), "{text}");
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

/// Decodes a raw PBM (P4) file pixel by pixel (independent of the library's reader).
fn decode_p4(bytes: &[u8]) -> Vec<Vec<bool>> {
    let mut pos = 2;
    assert_eq!(&bytes[..2], b"P4");
    let mut fields = Vec::new();
    while fields.len() < 2 {
        match bytes[pos] {
            b'#' => {
                while bytes[pos] != b'\n' {
                    pos += 1;
                }
            }
            c if c.is_ascii_whitespace() => pos += 1,
            _ => {
                let start = pos;
                while bytes[pos].is_ascii_digit() {
                    pos += 1;
                }
                fields.push(std::str::from_utf8(&bytes[start..pos]).unwrap().parse::<usize>().unwrap());
            }
        }
    }
    pos += 1; // the one whitespace byte before the raster
    let (w, h) = (fields[0], fields[1]);
    let stride = w.div_ceil(8);
    assert_eq!(bytes.len() - pos, stride * h, "raster size");
    (0..h)
        .map(|y| (0..w).map(|x| bytes[pos + y * stride + x / 8] & (0x80 >> (x % 8)) != 0).collect())
        .collect()
}

fn as_rows(b: &[Vec<bool>]) -> Vec<String> {
    b.iter().map(|r| r.iter().map(|&c| if c { '1' } else { '0' }).collect()).collect()
}

#[test]
fn pbm_in_presses_out_as_pbm_and_text() {
    // A 70 x 9 start (wider than a word) as plain PBM, with a comment.
    let start: Vec<Vec<bool>> = (0..9).map(|y| (0..70).map(|x| (x * 7 + y * 3) % 5 == 0).collect()).collect();
    let mut text = String::from("P1\n# a test board\n70 9\n");
    for r in &start {
        text.push_str(&r.iter().map(|&c| if c { "1 " } else { "0 " }).collect::<String>());
        text.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("start.pbm");
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("presses.pbm");
    let v = json(&["lights", "solve", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--json"]);
    assert_eq!(v["width"], 70);
    assert!(v["presses"].is_null(), "presses go to the file, not stdout");
    let solvable = v["solvable"].as_bool().unwrap();
    assert_eq!(out.exists(), solvable);
    if solvable {
        let p = decode_p4(&std::fs::read(&out).unwrap());
        assert_eq!(p.iter().flatten().filter(|&&c| c).count() as u64, v["press_count"].as_u64().unwrap());
        assert!(
            apply(&start, &as_rows(&p)).iter().flatten().all(|&c| !c),
            "the presses turn every light off"
        );
    }
    // The same board as a target: from all-off, reach it; presses written as text.
    let txt = dir.path().join("presses.txt");
    let all_off = board_file(&format!("{}\n", "0".repeat(70)).repeat(9));
    let args = ["lights", "solve", all_off.path().to_str().unwrap(), "--target", input.to_str().unwrap()];
    let v = json(&[&args[..], &["--out", txt.to_str().unwrap(), "--json"]].concat());
    if v["solvable"] == true {
        let rows: Vec<String> = std::fs::read_to_string(&txt).unwrap().lines().map(String::from).collect();
        assert_eq!(apply(&vec![vec![false; 70]; 9], &rows), start);
    }
}

#[test]
fn big_random_board_presses_as_pbm() {
    // 10^4 x 10^4 has nullity 0: every start is solvable. A 1000 x 1000 board is enough here.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.pbm");
    let v = json(&[
        "lights",
        "solve",
        "--random",
        "1000x1000",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    if v["solvable"] == true {
        let p = decode_p4(&std::fs::read(&out).unwrap());
        assert_eq!((p.len(), p[0].len()), (1000, 1000));
        assert_eq!(p.iter().flatten().filter(|&&c| c).count() as u64, v["press_count"].as_u64().unwrap());
    }
}

#[test]
fn kernel_basis_as_bitmaps() {
    let dir = tempfile::tempdir().unwrap();
    let v = json(&["lights", "kernel", "5x5", "--out", dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(v["nullity"], 2);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    for f in files {
        let k = decode_p4(&std::fs::read(f.as_str().unwrap()).unwrap());
        assert!(k.iter().flatten().any(|&c| c), "a basis vector is nonzero");
        assert!(apply(&vec![vec![false; 5]; 5], &as_rows(&k)).iter().flatten().all(|&c| !c), "neutral");
    }
}

#[test]
fn malformed_bitmaps_and_bad_out_files_are_refused() {
    let bad = board_file("P1\n3 2\n1 0 1\n0 7 0\n");
    let err = fails_with(&["lights", "solve", bad.path().to_str().unwrap()], 2);
    assert!(err.contains("byte") && err.lines().count() == 1, "{err}");
    let short = board_file("P4\n9 2\n\u{0}\u{0}");
    let err = fails_with(&["lights", "solve", short.path().to_str().unwrap()], 2);
    // Rows counted from 1, as everywhere (it said "row 1 of 2 (0-based row)").
    assert!(err.contains("row 2 of 2") && !err.contains("0-based"), "{err}");
    let huge = board_file("P4\n4000000000 4000000000\n");
    let err = fails_with(&["lights", "solve", huge.path().to_str().unwrap()], 2);
    assert!(err.contains("too large"), "{err}");
    let err = fails_with(&["lights", "solve", "--all-on", "3x3", "--out", "presses.png"], 2);
    assert!(err.contains(".pbm"), "{err}");
}

#[test]
fn random_start_written_to_files_is_not_printed() {
    // Issue 38: `--random 2000x2000 --winnable --save-start big.pbm --out presses.pbm` printed
    // the whole start (4 MB) on stdout, then five lines. With a file written, the start is not
    // printed (its seed is), nor in the JSON; the summary is one line (what was solved, where
    // it was written, the number of presses); the presses follow unless written to --out.
    let dir = tempfile::tempdir().unwrap();
    let (start, out) = (dir.path().join("big.pbm"), dir.path().join("presses.pbm"));
    let (start, out) = (start.to_str().unwrap(), out.to_str().unwrap());
    let base = ["lights", "solve", "--random", "300x300", "--winnable", "--seed", "5"];
    for files in [&["--save-start", start, "--out", out][..], &["--save-start", start], &["--out", out]] {
        let args = [&base[..], files].concat();
        let o = damier().args(&args).output().unwrap();
        assert!(o.status.success(), "{args:?}");
        let text = String::from_utf8(o.stdout).unwrap();
        let v = json(&[&args[..], &["--json"]].concat());
        assert!(v.get("start").is_none(), "{args:?}");
        assert_eq!(v["seed"], 5);
        let mut lines = text.lines();
        let summary = lines.next().unwrap();
        let presses = format!("{} presses", v["press_count"]);
        assert!(summary.contains("300x300 board, nullity 0: 1 solution"), "{summary}");
        assert!(summary.contains(&presses), "{summary}");
        if files.contains(&"--save-start") {
            let said = format!("random winnable start, seed 5, written to {start}");
            assert!(summary.starts_with(&said), "{summary}");
        } else {
            assert!(!summary.contains("seed 5"), "no file, no seed: {summary}");
        }
        let rest: Vec<&str> = lines.collect();
        if files.contains(&"--out") {
            assert!(summary.ends_with(&format!("{presses} written to {out}")), "{summary}");
            assert!(rest.is_empty(), "{args:?}: one line only:\n{text}");
            assert!(v["presses"].is_null());
        } else {
            // The presses are the answer, printed under the line.
            assert_eq!(rest.len(), 300, "{args:?}");
            assert!(rest.iter().all(|r| r.len() == 300 && r.bytes().all(|b| b == b'0' || b == b'1')));
        }
    }
    // Without a file, the start is still printed.
    let v = json(&[&base[..], &["--summary", "--json"]].concat());
    assert!(v.get("start").is_none());
    let small = json(&["lights", "solve", "--random", "4x4", "--seed", "5", "--json"]);
    assert_eq!(small["start"].as_array().unwrap().len(), 4);
}
