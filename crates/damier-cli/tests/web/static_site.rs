//! The lab without a server: the exported static site (`scripts/export-lab.sh DIR`) served by
//! `python3 -m http.server`, played in headless Chromium with every answer computed by the
//! library in the page's Web Worker (WebAssembly), and checked against the CLI's answer for the
//! same board, seed or placement.
//!
//! The site is the folder named by `DAMIER_STATIC_SITE` (`.ci/run` exports it first). The test
//! is `#[ignore]`d with what it needs, and `.ci/run` runs it; run by name without them, it fails
//! saying which is missing.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::browser::{Browser, Guard, free_port, no_errors, with_browser};

/// The CLI's JSON answer to `args` (with `--json` added).
fn cli(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_damier")).args(args).arg("--json").output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// `python3 -m http.server` on the site, and its address, once it answers.
fn static_server(site: &Path) -> (Guard, String) {
    let port = free_port();
    let child = Command::new("python3")
        .args(["-m", "http.server", &port.to_string(), "--bind", "127.0.0.1", "--directory"])
        .arg(site)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 runs");
    let base = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    while ureq::get(format!("{base}/index.html")).call().is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "the static server did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    (Guard(child), base)
}

#[test]
#[ignore = "needs Chromium, chromedriver and an exported site in DAMIER_STATIC_SITE: .ci/run runs it"]
fn the_static_site_plays_every_ported_page_with_the_cli_answers() {
    let site = std::env::var_os("DAMIER_STATIC_SITE")
        .expect("DAMIER_STATIC_SITE is not set (scripts/export-lab.sh DIR, then DAMIER_STATIC_SITE=DIR)");
    let site = std::path::PathBuf::from(site);
    assert!(site.join("damier.wasm").is_file(), "{} holds no exported site", site.display());
    let (_server, base) = static_server(&site);
    with_browser("static site test", |b, shots| {
        lights(b, &base);
        b.screenshot(shots, "static-lights");
        walk(b, &base);
        queens(b, &base);
        b.screenshot(shots, "static-queens");
        automaton(b, &base);
        b.screenshot(shots, "static-automaton");
        // No page asked a server for anything but files.
        let api = b.run(
            "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/api/'));",
        );
        assert_eq!(api, json!([]), "requests to a server");
        factoring(b, &base);
        huge(b, &base);
        b.screenshot(shots, "static-big");
        // The Counting page offers only what this build can do (issue 52 §6: it offered an
        // estimate the worker refuses, and said "This server follows no count."): no estimate
        // and no journal shown, the count is, and the opening says what needs the server.
        b.goto(&format!("{base}/count.html"));
        let shown = b.run(
            "return ['estimate', 'journal-none', 'journal-view', 'count'].map((id) => document.getElementById(id).offsetParent !== null);",
        );
        assert_eq!(shown, json!([false, false, false, true]), "estimate, journal, journal, count shown");
        assert!(b.text(".lead.static-only").contains("damier serve"), "{}", b.text(".lead.static-only"));
    });
}

/// Lights Out: a seeded 5 x 5 board, switched off by following the page's hints: as many
/// presses as the CLI's fewest for that board.
fn lights(b: &Browser, base: &str) {
    b.goto(&format!("{base}/lights.html?w=5&h=5&seed=7"));
    b.wait("the board", "document.querySelectorAll('#board .cell').length === 25");
    b.wait("the kernel (from the worker)", "document.getElementById('nullity').textContent === '2'");
    no_errors(b, "lights");
    let rows = b.run(
        "return [...Array(5).keys()].map((r) => [...document.querySelectorAll('#board .cell')].slice(r * 5, r * 5 + 5).map((c) => c.classList.contains('on') ? '1' : '0').join(''));",
    );
    let text: String =
        rows.as_array().unwrap().iter().map(|r| format!("{}\n", r.as_str().unwrap())).collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.txt");
    std::fs::write(&file, &text).unwrap();
    let fewest = cli(&["lights", "solve", file.to_str().unwrap(), "--min"])["press_count"].as_u64().unwrap();
    for _ in 0..25 {
        if b.text("#status").starts_with("Solved in") || fewest == 0 {
            break;
        }
        b.click("#hint");
        b.wait("a hint", "document.querySelector('#board .cell.hint')");
        b.click("#board .cell.hint");
        b.wait("the press", "!document.querySelector('#board .cell.hint')");
    }
    b.wait("the solved board", "document.getElementById('status').textContent.startsWith('Solved in')");
    assert_eq!(b.text("#presses").parse::<u64>().unwrap(), fewest, "hints follow a fewest-presses solution");
}

/// The walk: solved by the page's animation (the library's plan), and the moves it made
/// replayed by the CLI: all black.
fn walk(b: &Browser, base: &str) {
    b.goto(&format!("{base}/walk.html?rows=4&cols=5"));
    b.wait(
        "the walk",
        "document.getElementById('left').textContent !== '' && document.querySelector('#board .pawn')",
    );
    b.click("#solve");
    b.wait("the solved walk", "document.getElementById('status').textContent.startsWith('All black')");
    no_errors(b, "walk");
    let moves = b.run("return new URLSearchParams(location.search).get('moves');");
    let moves = moves.as_str().expect("the moves in the link");
    let replay = cli(&["walk", "replay", "4", "5", moves]);
    assert_eq!(replay["all_black"], json!(true), "{replay}");
}

/// n queens: a placement checked (valid, then one with attacks, as many as the CLI finds),
/// and a count of n = 10 with the CLI's totals.
fn queens(b: &Browser, base: &str) {
    b.goto(&format!("{base}/queens.html?n=8&queens=1-5-8-6-3-7-2-4"));
    b.wait("the check", "document.getElementById('place-status').textContent.startsWith('A solution')");
    assert_eq!(cli(&["queens", "check", "1", "5", "8", "6", "3", "7", "2", "4"])["valid"], json!(true));
    b.goto(&format!("{base}/queens.html?n=6&queens=1-2-3-4-5-6"));
    b.wait("the attacks", "document.querySelectorAll('#place .attacked').length > 0");
    let attacks =
        cli(&["queens", "check", "1", "2", "3", "4", "5", "6"])["attacks"].as_array().unwrap().len();
    assert!(
        b.text("#place-status").starts_with(&format!("{attacks} attacking pairs")),
        "{}",
        b.text("#place-status")
    );
    b.wait("the listing", "document.getElementById('total').textContent === '4'");
    // n = 10 by the backtracker, n = 14 by the quarter-board engine (which times its tasks by
    // the worker's clock: std's panics in WebAssembly).
    for n in ["10", "14"] {
        b.clear("#count-n");
        b.keys("#count-n", n);
        b.click("#count");
        b.wait_for(
            "the count",
            &format!(
                "document.getElementById('count-status').classList.contains('ok') && document.getElementById('count-status').textContent.startsWith('n = {n}:')"
            ),
            Duration::from_secs(60),
        );
        let expected = cli(&["queens", "count", n]);
        let shown = b.text("#count-status");
        assert!(shown.starts_with(&format!("n = {n}: {} solutions", expected["total"])), "{shown}");
    }
    no_errors(b, "queens");
}

/// Opens a live page at `url`, waits for its first frame (its seed shown), sets the speed to
/// 10^`speed` and plays.
fn play(b: &Browser, url: &str, seed: &str, speed: u32) {
    b.goto(url);
    b.wait("the first frame", &format!("document.getElementById('s-seed').textContent === '{seed}'"));
    b.run(&format!(
        "const s = document.getElementById('speed'); s.value = '{speed}'; s.dispatchEvent(new Event('input'));"
    ));
    b.click("#play");
}

/// The automaton: a seeded run played to its solution, after as many updates as the CLI's run
/// of the same seed.
fn automaton(b: &Browser, base: &str) {
    // 10^4 updates a frame: the run is over in a few seconds.
    play(b, &format!("{base}/automaton.html?model=pair&n=6&eps=0.01&seed=7"), "7", 4);
    b.wait("the solution", "document.getElementById('s-solved').textContent === 'yes'");
    no_errors(b, "automaton");
    let steps: u64 = b.text("#s-steps").replace([',', '\u{202f}', '\u{a0}'], "").parse().unwrap();
    let run = cli(&["automaton", "run", "--model", "pair", "-n", "6", "--eps", "0.01", "--seed", "7"]);
    assert_eq!(json!(steps), run["steps"], "{run}");
}

/// The factoring automaton: 143 played to its factors.
fn factoring(b: &Browser, base: &str) {
    play(b, &format!("{base}/factor.html?n=143&seed=3"), "3", 5);
    b.wait("the factors", "document.getElementById('status').textContent.startsWith('Factored')");
    assert!(b.text("#status").contains("143 = 11 × 13"), "{}", b.text("#status"));
    no_errors(b, "factor");
}

/// 1-based columns with no two queens on a column or a diagonal: the test's own O(n) check
/// (sets), independent of the library's.
fn non_attacking(cols: &[u64]) -> bool {
    let n = cols.len() as i64;
    let mut seen = std::collections::HashSet::new();
    cols.iter().enumerate().all(|(r, &c)| {
        let (r, c) = (r as i64, c as i64);
        (1..=n).contains(&c)
            && seen.insert(('c', c))
            && seen.insert(('u', r + c))
            && seen.insert(('d', r - c))
    })
}

/// The CLI's columns of `queens solve n --method local --seed seed`.
fn cli_local(n: u32, seed: u64) -> Vec<u64> {
    let out = cli(&["queens", "solve", &n.to_string(), "--method", "local", "--seed", &seed.to_string()]);
    out["columns"].as_array().expect("columns").iter().map(|c| c.as_u64().unwrap()).collect()
}

/// Huge boards: the page's Lights Out board solved, then n queens by local search. At n = 300
/// the canvas has one pixel per cell: the queens read back from its pixels are the CLI's for
/// the same seed, and non-attacking. At n = 100 000 (the most the page offers) the page
/// answers, and the worker's columns for its seed are the CLI's.
fn huge(b: &Browser, base: &str) {
    b.goto(&format!("{base}/big.html?qn=300&qseed=7"));
    b.wait_for(
        "the Lights Out board",
        "document.getElementById('status').textContent.startsWith('Solved')",
        Duration::from_secs(60),
    );
    b.wait_for(
        "300 queens",
        "document.getElementById('queens-status').textContent.includes('a solution')",
        Duration::from_secs(60),
    );
    assert!(b.text("#queens-status").contains("seed 7"), "{}", b.text("#queens-status"));
    let drawn = b.run(
        "const c = document.getElementById('queens-view'); const d = c.getContext('2d').getImageData(0, 0, 300, 300).data;
         return [...Array(300).keys()].map((y) => [...Array(300).keys()].filter((x) => d[4 * (300 * y + x)] < 128).map((x) => x + 1));",
    );
    let rows: Vec<Vec<u64>> = serde_json::from_value(drawn).unwrap();
    assert!(rows.iter().all(|r| r.len() == 1), "one queen drawn in each row");
    let shown: Vec<u64> = rows.iter().map(|r| r[0]).collect();
    assert!(non_attacking(&shown), "the queens drawn attack each other");
    assert_eq!(shown, cli_local(300, 7), "the page's queens are the CLI's for seed 7");
    no_errors(b, "big");

    b.run("const q = document.getElementById('qn'); q.value = '100000'; return 0;");
    b.click("#queens");
    b.wait_for(
        "100 000 queens",
        "(t => t.includes('a solution') && t.replace(/\\D/g, '').startsWith('100000'))(document.getElementById('queens-status').textContent)",
        Duration::from_secs(120),
    );
    let columns = b.run(
        "return import('./common.js').then((m) => m.api('queens/solve', { n: 100000, method: 'local', seed: 7 })).then((a) => a.data.columns);",
    );
    let columns: Vec<u64> = serde_json::from_value(columns).unwrap();
    assert_eq!(columns.len(), 100_000);
    assert!(non_attacking(&columns));
    assert_eq!(columns, cli_local(100_000, 7), "the worker's queens are the CLI's for seed 7");
    no_errors(b, "big");
}
