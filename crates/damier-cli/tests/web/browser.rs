//! The pages in a real headless Chromium, driven over WebDriver (Debian's `chromium` and
//! `chromium-driver`): open each page, win a Lights Out game by clicks, move the pawn, run the
//! automaton a few hundred steps, check a placement, count with progress; no console error;
//! a screenshot of every page in `target/web-screenshots/`.
//!
//! Without chromium this test prints why and passes, except under CI (`CI` set), where
//! `.ci/run` installs it and its absence is a failure.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

/// A child process killed when dropped.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 request to `127.0.0.1:port` (the driver speaks plain JSON over HTTP).
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> std::io::Result<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    // The driver keeps the connection open: read the head, then exactly the body.
    let mut r = BufReader::new(s);
    let mut status = 0;
    let mut length = None;
    let mut chunked = false;
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if lower.starts_with("http/") {
            status = lower.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        } else if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        } else if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
            chunked = true;
        }
    }
    let mut raw = Vec::new();
    match length {
        Some(n) => {
            raw.resize(n, 0);
            r.read_exact(&mut raw)?;
        }
        None => {
            r.read_to_end(&mut raw)?;
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let text = if chunked { unchunk(&text) } else { text };
    Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A WebDriver session.
struct Browser {
    port: u16,
    session: String,
}

impl Browser {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("/session/{}{path}", self.session);
        let (status, v) = http(self.port, method, &url, body.as_ref()).expect("the driver answers");
        assert_eq!(status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn run(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    fn find(&self, css: &str) -> String {
        let v = self.call("POST", "/element", Some(json!({ "using": "css selector", "value": css })));
        v.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).expect("an element").to_string()
    }

    fn find_all(&self, css: &str) -> Vec<String> {
        let v = self.call("POST", "/elements", Some(json!({ "using": "css selector", "value": css })));
        v.as_array()
            .unwrap()
            .iter()
            .filter_map(|e| {
                e.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).map(String::from)
            })
            .collect()
    }

    /// A real click on the element (the driver moves the pointer there).
    fn click(&self, css: &str) {
        let id = self.find(css);
        self.click_id(&id);
    }

    fn click_id(&self, id: &str) {
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn keys(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/value"), Some(json!({ "text": text })));
    }

    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        self.call("GET", &format!("/element/{id}/text"), None).as_str().unwrap_or("").to_string()
    }

    /// Waits until `script` (an expression) is truthy.
    fn wait(&self, what: &str, script: &str) {
        let start = Instant::now();
        loop {
            if self.run(&format!("return !!({script});")) == json!(true) {
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn screenshot(&self, dir: &Path, name: &str) {
        let b64 = self.call("GET", "/screenshot", None);
        let png = base64_decode(b64.as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    /// Console messages at level SEVERE since the last call.
    fn console_errors(&self) -> Vec<String> {
        let url = format!("/session/{}/se/log", self.session);
        let (_, v) = http(self.port, "POST", &url, Some(&json!({ "type": "browser" }))).unwrap();
        v["value"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .map(|e| e["message"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn resize(&self, w: u32, h: u32) {
        self.call("POST", "/window/rect", Some(json!({ "width": w, "height": h })));
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= u32::from(val(c)) << (18 - 6 * i);
        }
        out.extend_from_slice(&acc.to_be_bytes()[1..chunk.len()]);
    }
    out
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts `damier serve --port 0` and returns it with the URL it prints.
fn start_server() -> (Guard, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damier"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url =
        line.split_whitespace().find(|w| w.starts_with("http://")).expect("the URL is printed").to_string();
    (Guard(child), url.trim_end_matches('/').to_string())
}

fn screenshot_dir() -> PathBuf {
    // target/web-screenshots beside the test executable's target folder.
    let exe = std::env::current_exe().unwrap();
    let target =
        exe.ancestors().find(|p| p.file_name().is_some_and(|n| n == "target")).map(Path::to_path_buf);
    let dir = target.unwrap_or_else(std::env::temp_dir).join("web-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn pages_work_in_headless_chromium() {
    if !Path::new(CHROMIUM).exists() || !Path::new(DRIVER).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have {CHROMIUM} and {DRIVER} (.ci/run installs them)"
        );
        println!("skipped: {CHROMIUM} or {DRIVER} is missing (apt-get install chromium chromium-driver)");
        return;
    }
    let started = Instant::now();
    let (_server, base) = start_server();
    let port = free_port();
    let _driver = Guard(
        Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let ready = Instant::now();
    while http(port, "GET", "/status", None).map(|(_, v)| v["value"]["ready"] != json!(true)).unwrap_or(true)
    {
        assert!(ready.elapsed() < Duration::from_secs(20), "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = tempfile::tempdir().unwrap();
    let caps = json!({ "capabilities": { "alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,900",
                format!("--user-data-dir={}", profile.path().display())],
        },
        "goog:loggingPrefs": { "browser": "ALL" },
    }}});
    let (status, v) = http(port, "POST", "/session", Some(&caps)).unwrap();
    assert_eq!(status, 200, "new session: {v}");
    let b = Browser { port, session: v["value"]["sessionId"].as_str().unwrap().to_string() };
    let shots = screenshot_dir();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drive(&b, &base, &shots)));
    let _ = http(port, "DELETE", &format!("/session/{}", b.session), None);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
    println!("browser test: {:.1} s, screenshots in {}", started.elapsed().as_secs_f64(), shots.display());
}

fn drive(b: &Browser, base: &str, shots: &Path) {
    let no_errors = |page: &str| {
        let errors = b.console_errors();
        assert!(errors.is_empty(), "{page}: console errors: {errors:?}");
    };

    // Home: four cards, each linking to its page.
    b.goto(&format!("{base}/"));
    // The console check sees errors (a probe), so an empty list below means none.
    b.run("console.error('probe');");
    assert!(b.console_errors().iter().any(|e| e.contains("probe")), "the browser log is readable");
    assert_eq!(b.find_all(".card").len(), 4);
    b.screenshot(shots, "home");
    b.click("a.card[href='/lights']");
    b.wait("the Lights Out page", "location.pathname === '/lights'");

    // Lights Out: a random winnable 5 x 5, won by clicking a fewest-presses solution.
    b.wait("the board", "document.querySelectorAll('#board .cell').length === 25");
    b.wait("the kernel", "document.getElementById('nullity').textContent === '2'");
    b.click("#solution");
    b.wait("the solution marks", "document.querySelectorAll('#board .cell.mark').length > 0");
    let marked = b.find_all("#board .cell.mark");
    b.screenshot(shots, "lights");
    for id in &marked {
        b.click_id(id);
    }
    b.wait("the win", "document.getElementById('status').textContent.includes('Solved')");
    assert_eq!(b.run("return document.querySelectorAll('#board .cell.on').length"), json!(0));
    assert_eq!(b.text("#presses"), marked.len().to_string());
    // Undo, then hints: following hints wins again.
    b.click("#undo");
    b.wait("one light group back", "document.querySelectorAll('#board .cell.on').length > 0");
    for _ in 0..30 {
        if b.run("return document.querySelectorAll('#board .cell.on').length") == json!(0) {
            break;
        }
        b.click("#hint");
        b.wait("a hint", "document.querySelector('#board .cell.hint')");
        b.click("#board .cell.hint");
    }
    b.wait("the win after hints", "document.getElementById('status').textContent.includes('Solved')");
    // Chasing on a fresh board switches everything off, animated.
    b.click("#random");
    b.click("#chase");
    b.wait("the chase", "document.getElementById('status').textContent.includes('Solved')");
    // The keyboard: the board takes the focus, arrows move the cursor, Space presses.
    b.keys("#board", "\u{E014}\u{E015}\u{E00D}");
    b.wait("a press by keyboard", "document.getElementById('presses').textContent !== '0'");
    b.wait("the cursor", "document.querySelector('#board .cell.cursor[data-r=\"1\"][data-c=\"1\"]')");
    b.click("#undo");
    // The elimination steps of a small board.
    b.click("#explain");
    b.wait("the steps", "document.getElementById('matrix').textContent.includes('|')");
    b.click("#step-next");
    no_errors("lights");

    // The walk: keys and buttons move the pawn, the animated plan finishes it.
    b.goto(&format!("{base}/walk"));
    b.wait("the walk board", "document.querySelector('#board .cell.pawn')");
    b.click("#mv-N");
    b.wait("one move", "document.getElementById('count').textContent === '1'");
    b.keys("body", "d");
    b.wait("a second move by key", "document.getElementById('count').textContent === '2'");
    b.click("#hint");
    b.wait("a hinted cell", "document.querySelector('#board .cell.next')");
    b.screenshot(shots, "walk");
    b.click("#solve");
    b.wait("all black", "document.getElementById('status').textContent.includes('All black')");
    assert_eq!(b.text("#white"), "0");
    no_errors("walk");

    // The automaton: a seeded run, played for a few hundred steps, then stepped.
    b.goto(&format!("{base}/automaton"));
    b.wait("the first frame", "document.getElementById('s-seed').textContent !== '–'");
    b.run("document.getElementById('seed').value = '3'; document.getElementById('n').value = '10';");
    b.click("#new");
    b.wait("the seeded run", "document.getElementById('s-seed').textContent === '3'");
    b.click("#play");
    b.wait(
        "a few hundred steps",
        "Number(document.getElementById('s-steps').textContent.replace(/\\D/g, '')) >= 300",
    );
    b.click("#play");
    b.click("#step");
    b.screenshot(shots, "automaton");
    no_errors("automaton");

    // n queens: a placement by clicks, checked; the listing; a streamed count.
    b.goto(&format!("{base}/queens"));
    b.wait("the listing", "document.querySelectorAll('#solutions figure').length === 12");
    for (row, col) in [1, 5, 8, 6, 3, 7, 2, 4].iter().enumerate() {
        b.click(&format!("#place .cell[data-r='{row}'][data-c='{}']", col - 1));
    }
    b.wait("the check", "document.getElementById('place-status').textContent.includes('A solution')");
    b.click("#place .cell[data-r='7'][data-c='0']");
    b.wait("an attack", "document.querySelector('#place .cell.attacked')");
    b.click("input[value='unique']");
    b.click("#list");
    b.wait("the classes", "document.getElementById('classes').textContent === '12'");
    assert!(b.text("#solutions").contains("fixed by"));
    b.run("document.getElementById('count-n').value = '14';");
    b.click("#count");
    b.wait(
        "the count",
        "document.getElementById('count-status').textContent.replace(/\\D/g, '').includes('365596')",
    );
    b.screenshot(shots, "queens");
    no_errors("queens");

    // The largest board: 50 x 50, with its fewest presses.
    b.goto(&format!("{base}/lights"));
    b.run("document.getElementById('w').value = '50'; document.getElementById('h').value = '50';");
    b.click("#random");
    b.wait("2500 cells", "document.querySelectorAll('#board .cell').length === 2500");
    b.click("#solution");
    b.wait("the 50 x 50 solution", "document.querySelectorAll('#board .cell.mark').length > 0");
    b.screenshot(shots, "lights-50");
    no_errors("lights 50 x 50");

    // A phone width: the layout stacks and the board still fits.
    b.resize(390, 844);
    b.goto(&format!("{base}/lights"));
    b.wait("the board", "document.querySelectorAll('#board .cell').length === 25");
    let fits =
        b.run("return document.getElementById('board').getBoundingClientRect().right <= window.innerWidth");
    assert_eq!(fits, json!(true));
    b.screenshot(shots, "lights-phone");
    no_errors("lights on a phone");
}
