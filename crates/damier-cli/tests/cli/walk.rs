//! CLI tests of `damier walk`.
use super::util::{damier, fails_with, json, quiet_on_closed_pipe};

/// `damier walk replay ROWS COLS MOVES`: exit code and stdout.
fn replay(rows: usize, cols: usize, moves: &str) -> (i32, String) {
    let out =
        damier().args(["walk", "replay", &rows.to_string(), &cols.to_string(), moves]).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn solve_json_has_the_contract_keys_and_its_path_replays() {
    for (rows, cols) in [(1, 1), (4, 4), (3, 7), (9, 2), (20, 20)] {
        let v = json(&["walk", "solve", &rows.to_string(), &cols.to_string(), "--json"]);
        assert_eq!(v["rows"], rows);
        assert_eq!(v["cols"], cols);
        assert!(v["solutions"].is_string());
        let pattern = v["pattern"].as_array().unwrap();
        assert_eq!(pattern.len(), rows);
        assert!(pattern.iter().all(|l| l.as_str().unwrap().len() == cols));
        let path = v["path"].as_str().unwrap();
        assert_eq!(v["path_length"], path.len());
        let (code, out) = replay(rows, cols, path);
        assert_eq!(code, 0, "{rows} x {cols}: {out}");
        assert!(out.contains("all black"));
        // The path lands oddly on exactly the printed pattern.
        let moves = damier::walk::path::parse_moves(path).unwrap();
        let board = damier::walk::board_size(rows, cols).unwrap();
        let landed = damier::walk::picture(&damier::walk::path::replay(board, &moves).landings);
        let printed: Vec<String> = pattern.iter().map(|l| l.as_str().unwrap().to_string()).collect();
        assert_eq!(landed, printed);
    }
}

#[test]
fn the_three_methods_agree_and_all_lists_every_solution() {
    for method in ["brute", "rows", "fast", "poly"] {
        let v = json(&["walk", "solve", "4", "4", "--method", method, "--all", "--json"]);
        assert_eq!(v["solutions"], "16", "{method}");
        let all = v["all"].as_array().unwrap();
        assert_eq!(all.len(), 16);
        let mut patterns: Vec<String> = all.iter().map(|s| s["pattern"].to_string()).collect();
        patterns.sort();
        patterns.dedup();
        assert_eq!(patterns.len(), 16, "{method}: distinct solutions");
        for s in all {
            let (code, _) = replay(4, 4, s["path"].as_str().unwrap());
            assert_eq!(code, 0);
        }
    }
    let text = damier().args(["walk", "solve", "5", "5", "--all"]).output().unwrap();
    assert!(text.status.success());
    assert_eq!(String::from_utf8_lossy(&text.stdout).matches("solution ").count(), 4);
}

#[test]
fn count_and_table_agree_with_the_seed() {
    let v = json(&["walk", "count", "19", "19", "--json"]);
    assert_eq!((v["solutions"].as_str(), v["nullity"].as_u64()), (Some("65536"), Some(16)));
    let big = json(&["walk", "count", "1", "500", "--json"]);
    assert!(big["solutions"].as_str().unwrap().chars().all(|c| c.is_ascii_digit()));
    let t = json(&["walk", "table", "--to", "20", "--json"]);
    let t = t.as_array().unwrap();
    assert_eq!(t.len(), 20);
    for row in t {
        let n = row["rows"].as_u64().unwrap().to_string();
        let c = json(&["walk", "count", &n, &n, "--method", "rows", "--json"]);
        assert_eq!(row["solutions"], c["solutions"], "{n} x {n}");
    }
    // Seed 003's values for 4x4, 9x9 and 19x19.
    assert_eq!((t[3]["solutions"].as_str(), t[8]["solutions"].as_str()), (Some("16"), Some("256")));
    let text = damier().args(["walk", "table"]).output().unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).contains("19x19"));
}

#[test]
fn replay_reports_all_black_white_cells_and_leaving_the_board() {
    for (n, moves) in [
        (2, "NES"),
        (3, "NNSEENSS"),
        (4, "EEENNNOOOSSEEESNSOOOEEOEE"),
        (4, "EEENNOOOS"),
        (5, "NNNESSOESNSENNESSENSNONSNNNESSOE"),
    ] {
        let (code, out) = replay(n, n, moves);
        assert_eq!(code, 0, "{n} x {n} {moves}: {out}");
        assert!(out.contains("all black"));
    }
    let (code, out) = replay(2, 2, "NE");
    assert_eq!(code, 1);
    assert!(out.contains("3 cells stay white"), "{out}");
    let (code, out) = replay(2, 2, "NN");
    assert_eq!(code, 1);
    assert!(out.contains("move 2 (N) leaves the board"), "{out}");
    let out = damier().args(["walk", "replay", "2", "2", "NN", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["all_black"], false);
    assert_eq!(v["left_board"]["step"], 2);
    assert_eq!(v["left_board"]["move"], "N");
    let v = json(&["walk", "replay", "2", "2", "nes", "--json", "--show"]);
    assert_eq!(
        (v["all_black"].as_bool(), v["white"].as_u64(), v["moves"].as_u64()),
        (Some(true), Some(0), Some(3))
    );
}

#[test]
fn export_writes_one_checked_file_per_size() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("walks");
    let v = json(&["walk", "export", "--to", "4", out.to_str().unwrap(), "--json"]);
    assert_eq!(v["files"], 16);
    for rows in 1..=4 {
        for cols in 1..=4 {
            let text = std::fs::read_to_string(out.join(format!("{rows}x{cols}.txt"))).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), rows + 3, "{rows}x{cols}: {text}");
            assert!(
                lines[1..=rows].iter().all(|l| l.len() == cols && l.chars().all(|c| c == '#' || c == '_'))
            );
            let (code, _) = replay(rows, cols, lines[rows + 2]);
            assert_eq!(code, 0, "{rows}x{cols}");
        }
    }
}

#[test]
fn bench_prints_its_table() {
    let v = json(&["walk", "bench", "--max", "64", "--json"]);
    let rows = v.as_array().unwrap();
    assert!(rows.iter().any(|r| r["rows"] == 64 && r["cols"] == 64));
    assert!(rows.iter().all(|r| r["path_length"].as_u64().unwrap() < 3 * 64 * 64 + 3));
}

#[test]
fn bad_input_is_refused_with_exit_2() {
    for bad in [
        &["walk", "solve", "0", "3"][..],
        &["walk", "solve", "3", "0"],
        &["walk", "solve", "x", "3"],
        &["walk", "solve", "-1", "3"],
        &["walk", "solve", "3", "3", "--method", "slow"],
        &["walk", "count", "99999999999999999999999", "3"],
        &["walk", "replay", "0", "2", "NES"],
        &["walk", "replay", "2", "2", "NEX"],
        &["walk", "table", "--to", "0"],
        &["walk", "export", "--to", "65", "/tmp/never-written"],
    ] {
        fails_with(bad, 2);
    }
    let err = fails_with(&["walk", "solve", "5000", "5000"], 2);
    assert!(err.contains("at most 16777216 cells"), "{err}");
    let err = fails_with(&["walk", "solve", "6", "6", "--method", "brute"], 2);
    assert!(err.contains("at most 30 cells"), "{err}");
    let err = fails_with(&["walk", "count", "30", "30", "--method", "rows"], 2);
    assert!(err.contains("at most 24"), "{err}");
    let err = fails_with(&["walk", "replay", "2", "2", "NEX"], 2);
    assert!(err.contains("illegal move 'X' at position 3"), "{err}");
    let err = fails_with(&["walk", "solve", "39", "39", "--all"], 2);
    assert!(err.contains("too many solutions") || err.contains("2^"), "{err}");
}

#[test]
fn poly_method_solves_and_its_path_replays() {
    // 19 x 19 has 2^16 solutions: poly may pick another one than fast, but a valid one.
    let fast = json(&["walk", "count", "19", "19", "--json"]);
    let v = json(&["walk", "solve", "19", "19", "--method", "poly", "--json"]);
    assert_eq!(v["solutions"], fast["solutions"]);
    let (code, out) = replay(19, 19, v["path"].as_str().unwrap());
    assert_eq!(code, 0, "{out}");
    let bench = json(&["walk", "bench", "--max", "40", "--method", "poly", "--json"]);
    assert!(bench.as_array().is_some_and(|rows| !rows.is_empty()));
    fails_with(&["walk", "bench", "--max", "40", "--method", "brute"], 2);
}

#[test]
fn walk_commands_exit_quietly_on_a_closed_pipe() {
    quiet_on_closed_pipe(&["walk", "solve", "4", "4"]);
    quiet_on_closed_pipe(&["walk", "count", "3", "3"]);
    quiet_on_closed_pipe(&["walk", "table", "--to", "5"]);
    quiet_on_closed_pipe(&["walk", "solve", "300", "300"]);
}

#[test]
fn path_and_activation_set_to_files() {
    let dir = tempfile::tempdir().unwrap();
    let (out, pattern) = (dir.path().join("path.txt"), dir.path().join("a.pbm"));
    let v = json(&[
        "walk",
        "solve",
        "5",
        "7",
        "--out",
        out.to_str().unwrap(),
        "--pattern",
        pattern.to_str().unwrap(),
        "--json",
    ]);
    assert!(v["path"].is_null() && v["pattern"].is_null(), "the path goes to the file");
    let moves = std::fs::read_to_string(&out).unwrap();
    assert_eq!(moves.trim_end().len() as u64, v["path_length"].as_u64().unwrap());
    // The written path replays to all black (an independent check by the replay command).
    damier().args(["walk", "replay", "5", "7", moves.trim_end()]).assert().success();
    let bitmap = std::fs::read(&pattern).unwrap();
    assert!(bitmap.starts_with(b"P4"), "a raw PBM bitmap");
    // Beyond 2^24 cells only with the path in a file.
    fails_with(&["walk", "solve", "4097", "4097"], 2);
    fails_with(&["walk", "solve", "3", "3", "--pattern", "a.png"], 2);
}

/// A path `walk solve --out` wrote is an input of `walk replay`, from the file or from stdin,
/// however long (it was an argument only: "Argument list too long" for a 2000 x 2000 path).
#[test]
fn replay_reads_a_path_from_a_file_or_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("path.txt");
    let f = file.to_str().unwrap();
    let solved = json(&["walk", "solve", "300", "300", "--out", f, "--json"]);
    let length = solved["path_length"].as_u64().unwrap();
    assert!(length > 100_000, "{length} moves");
    let v = json(&["walk", "replay", "300", "300", "--from", f, "--json"]);
    assert_eq!((v["moves"].as_u64(), v["all_black"].as_bool()), (Some(length), Some(true)));
    let mut piped = damier();
    piped.args(["walk", "replay", "300", "300", "-", "--json"]).pipe_stdin(&file).unwrap();
    let out = piped.output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["moves"].as_u64(), Some(length));
    // Line breaks are whitespace; a wrong character is named with its 1-based position.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "NE\nSx").unwrap();
    let err = fails_with(&["walk", "replay", "2", "2", "--from", bad.to_str().unwrap()], 2);
    assert!(err.contains("illegal move 'x' at position 5") && !err.contains("--from FILE"), "{err}");
    // Issue 38, second pass: the file given as the moves said only "illegal move 'p'"; the
    // message says how a file is replayed.
    let err = fails_with(&["walk", "replay", "2", "2", bad.to_str().unwrap()], 2);
    assert!(err.contains("illegal move") && err.contains("is replayed with --from FILE"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::write(&bad, "NE\nS").unwrap();
    let v = json(&["walk", "replay", "2", "2", "--from", bad.to_str().unwrap(), "--json"]);
    assert_eq!(v["moves"], 3);
    fails_with(&["walk", "replay", "2", "2", "NES", "--from", bad.to_str().unwrap()], 2);
    fails_with(&["walk", "replay", "2", "2", "--from", dir.path().join("none").to_str().unwrap()], 2);
}
