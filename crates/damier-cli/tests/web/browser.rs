//! The pages in a real headless Chromium, driven over WebDriver (Debian's `chromium` and
//! `chromium-driver`): open each page, win a Lights Out game by clicks, move the pawn, run the
//! automaton a few hundred steps, check a placement, count with progress; no console error;
//! a screenshot of every page in `target/web-screenshots/`.
//!
//! Ignored by `cargo test` (it needs Chromium and chromedriver); run with `--ignored` (as
//! `.ci/run` does, after installing them), it fails naming what is missing rather than pass
//! unrun.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

/// A child process killed when dropped.
pub(super) struct Guard(pub(super) Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The key under which WebDriver returns an element's reference (the W3C specification's).
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// An element of the page: its WebDriver reference.
pub(super) struct Element(String);

/// A WebDriver session, driven by blocking HTTP requests (ureq) to chromedriver: the W3C
/// WebDriver commands this test uses, and Chromium's browser log. (A WebDriver crate would
/// bring an async HTTP client and a URL parser, whose dependencies changed the features of
/// crates the CLI shares and made `cargo test` rebuild them: README, the cost paragraph.)
pub(super) struct Browser {
    agent: ureq::Agent,
    /// `http://127.0.0.1:PORT/session/ID`.
    session: String,
}

impl Browser {
    /// Sends a WebDriver command (`body` `None`: GET, `Some`: POST) and returns its `value`;
    /// an error names the command and the driver's message.
    fn command(&self, path: &str, body: Option<Value>) -> Result<Value, String> {
        send(&self.agent, &format!("{}{path}", self.session), body)
    }

    fn element_path(e: &Element) -> String {
        format!("/element/{}", e.0)
    }

    pub(super) fn goto(&self, url: &str) {
        self.command("/url", Some(json!({ "url": url }))).unwrap_or_else(|e| panic!("goto {url}: {e}"));
    }

    /// Runs `script` (a function body: `return` gives the value).
    pub(super) fn run(&self, script: &str) -> Value {
        self.command("/execute/sync", Some(json!({ "script": script, "args": [] })))
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    pub(super) fn find(&self, css: &str) -> Element {
        let v = self
            .command("/element", Some(json!({ "using": "css selector", "value": css })))
            .unwrap_or_else(|e| panic!("find {css}: {e}"));
        element(&v).unwrap_or_else(|| panic!("find {css}: no element reference in {v}"))
    }

    pub(super) fn find_all(&self, css: &str) -> Vec<Element> {
        let v = self
            .command("/elements", Some(json!({ "using": "css selector", "value": css })))
            .unwrap_or_else(|e| panic!("find {css}: {e}"));
        let list = v.as_array().unwrap_or_else(|| panic!("find {css}: not a list: {v}"));
        list.iter().map(|e| element(e).unwrap_or_else(|| panic!("find {css}: {e}"))).collect()
    }

    /// A real click on the element (the driver moves the pointer there).
    pub(super) fn click(&self, css: &str) {
        let e = self.find(css);
        self.click_on(&e);
    }

    pub(super) fn click_on(&self, e: &Element) {
        self.command(&format!("{}/click", Self::element_path(e)), Some(json!({})))
            .unwrap_or_else(|err| panic!("click: {err}"));
    }

    /// Types `text` into the element (WebDriver key codes for arrows and the like).
    pub(super) fn keys(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.command(&format!("{}/value", Self::element_path(&e)), Some(json!({ "text": text })))
            .unwrap_or_else(|err| panic!("keys into {css}: {err}"));
    }

    /// Empties the input `css`.
    pub(super) fn clear(&self, css: &str) {
        let e = self.find(css);
        self.command(&format!("{}/clear", Self::element_path(&e)), Some(json!({})))
            .unwrap_or_else(|err| panic!("clear {css}: {err}"));
    }

    pub(super) fn text(&self, css: &str) -> String {
        let e = self.find(css);
        let v = self
            .command(&format!("{}/text", Self::element_path(&e)), None)
            .unwrap_or_else(|err| panic!("text of {css}: {err}"));
        v.as_str().unwrap_or_else(|| panic!("text of {css}: {v}")).to_string()
    }

    /// Waits (up to 30 s) until `script` (an expression) is truthy.
    pub(super) fn wait(&self, what: &str, script: &str) {
        self.wait_for(what, script, Duration::from_secs(30));
    }

    /// Waits up to `limit` until `script` (an expression) is truthy.
    pub(super) fn wait_for(&self, what: &str, script: &str, limit: Duration) {
        let start = Instant::now();
        loop {
            if self.run(&format!("return !!({script});")) == json!(true) {
                return;
            }
            assert!(start.elapsed() < limit, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub(super) fn screenshot(&self, dir: &Path, name: &str) {
        use base64::Engine as _;
        let v = self.command("/screenshot", None).expect("a screenshot");
        let png = base64::engine::general_purpose::STANDARD
            .decode(v.as_str().expect("a screenshot in base64"))
            .expect("a screenshot in base64");
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    /// Console messages at level SEVERE since the last call (Chromium's extension of
    /// WebDriver).
    pub(super) fn console_errors(&self) -> Vec<String> {
        let v = self.command("/se/log", Some(json!({ "type": "browser" }))).expect("the browser log");
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .map(|e| e["message"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    pub(super) fn resize(&self, w: u32, h: u32) {
        self.command("/window/rect", Some(json!({ "width": w, "height": h }))).expect("a window size");
    }

    /// Ends the session (the browser closes).
    fn close(&self) {
        let _ = self.agent.delete(&self.session).call();
    }
}

/// The element reference in a WebDriver answer.
fn element(v: &Value) -> Option<Element> {
    v[ELEMENT_KEY].as_str().map(|id| Element(id.to_string()))
}

/// One WebDriver request: GET without a body, POST with one; the answer's `value`, or the
/// driver's error.
fn send(agent: &ureq::Agent, url: &str, body: Option<Value>) -> Result<Value, String> {
    let answer = match body {
        None => agent.get(url).call(),
        Some(b) => agent.post(url).content_type("application/json").send(b.to_string()),
    };
    let mut answer = answer.map_err(|e| format!("{url}: {e}"))?;
    let status = answer.status();
    let text = answer
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .map_err(|e| format!("{url}: {e}"))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{url}: {e}: {text}"))?;
    if !status.is_success() {
        return Err(format!("{url}: {status}: {} {}", v["value"]["error"], v["value"]["message"]));
    }
    Ok(v["value"].clone())
}

pub(super) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts `damier serve --port 0 ARGS` and returns it with the URL it prints.
pub(super) fn start_server(args: &[&str]) -> (Guard, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damier"))
        .args(["serve", "--port", "0"])
        .args(args)
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

/// chromedriver and a headless Chromium session. The tests that need them are `#[ignore]`d
/// with the reason (`cargo test` lists them as ignored), and `.ci/run` runs them: run by name
/// where the browser is missing, they fail saying so, never pass unrun.
fn open_browser() -> (Guard, Browser, tempfile::TempDir) {
    assert!(
        Path::new(CHROMIUM).exists() && Path::new(DRIVER).exists(),
        "{CHROMIUM} or {DRIVER} is missing (apt-get install chromium chromium-driver): this test needs them"
    );
    let port = free_port();
    let driver = Guard(
        Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let base = format!("http://127.0.0.1:{port}");
    let ready = Instant::now();
    let is_ready = || {
        let mut r = ureq::get(format!("{base}/status")).call().ok()?;
        let v: Value = serde_json::from_str(&r.body_mut().read_to_string().ok()?).ok()?;
        Some(v["value"]["ready"] == json!(true))
    };
    while is_ready() != Some(true) {
        assert!(ready.elapsed() < Duration::from_secs(20), "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = tempfile::tempdir().unwrap();
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,900",
                format!("--user-data-dir={}", profile.path().display())],
        },
        "goog:loggingPrefs": { "browser": "ALL" },
    });
    // No status code is an error: a failed command's body says why.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into();
    let v =
        send(&agent, &format!("{base}/session"), Some(json!({ "capabilities": { "alwaysMatch": caps } })))
            .unwrap_or_else(|e| panic!("a new WebDriver session: {e}"));
    let id = v["sessionId"].as_str().unwrap_or_else(|| panic!("a new WebDriver session: {v}"));
    let session = format!("{base}/session/{id}");
    (driver, Browser { agent, session }, profile)
}

/// Runs `drive` in a fresh browser session against `base`, closing the session even when
/// `drive` fails.
pub(super) fn with_browser(name: &str, drive: impl FnOnce(&Browser, &Path)) {
    let (_driver, b, _profile) = open_browser();
    let started = Instant::now();
    let shots = screenshot_dir();
    // The console check sees errors (a probe), so an empty list later means none.
    b.goto("about:blank");
    b.run("console.error('probe');");
    assert!(b.console_errors().iter().any(|e| e.contains("probe")), "the browser log is readable");
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drive(&b, &shots)));
    b.close();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
    println!("{name}: {:.1} s, screenshots in {}", started.elapsed().as_secs_f64(), shots.display());
}

/// Asserts the browser logged no error since the last check.
pub(super) fn no_errors(b: &Browser, page: &str) {
    let errors = b.console_errors();
    assert!(errors.is_empty(), "{page}: console errors: {errors:?}");
}

#[test]
#[ignore = "needs Chromium and chromedriver: .ci/run runs it (cargo test --test web -- --ignored)"]
fn pages_work_in_headless_chromium() {
    let (_server, base) = start_server(&[]);
    with_browser("browser test", |b, shots| drive(b, &base, shots));
}

fn drive(b: &Browser, base: &str, shots: &Path) {
    // Home: four cards, each linking to its page.
    b.goto(&format!("{base}/"));
    assert_eq!(b.find_all(".card").len(), 7, "one card per page");
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
        b.click_on(id);
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
    // The chase step by step, one row per click, from the library's explained chase: 4 rows
    // chased down, the first row fixed, 4 rows chased again.
    b.click("#random");
    b.click("#chase-step");
    b.wait("the first step", "document.getElementById('status').textContent.startsWith('Chase down, row 2')");
    let mut clicks = 1;
    while b.run("return document.getElementById('status').textContent.includes('Solved')") != json!(true) {
        assert!(clicks < 9, "a 5 x 5 chase takes 9 steps");
        b.click("#chase-step");
        clicks += 1;
    }
    assert_eq!(clicks, 9);
    assert_eq!(b.run("return document.querySelectorAll('#board .cell.on').length"), json!(0));
    // The keyboard: the board takes the focus, arrows move the cursor, Space presses.
    b.keys("#board", "\u{E014}\u{E015}\u{E00D}");
    b.wait("a press by keyboard", "document.getElementById('presses').textContent !== '0'");
    b.wait("the cursor", "document.querySelector('#board .cell.cursor[data-r=\"1\"][data-c=\"1\"]')");
    b.click("#undo");
    // The elimination steps of a small board.
    b.click("#explain");
    b.wait("the steps", "document.getElementById('matrix').textContent.includes('|')");
    b.click("#step-next");
    no_errors(b, "lights");

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
    no_errors(b, "walk");

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
    no_errors(b, "automaton");

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
    no_errors(b, "queens");

    // The largest board: 50 x 50, with its fewest presses.
    b.goto(&format!("{base}/lights"));
    b.run("document.getElementById('w').value = '50'; document.getElementById('h').value = '50';");
    b.click("#random");
    b.wait("2500 cells", "document.querySelectorAll('#board .cell').length === 2500");
    b.click("#solution");
    b.wait("the 50 x 50 solution", "document.querySelectorAll('#board .cell.mark').length > 0");
    b.screenshot(shots, "lights-50");
    no_errors(b, "lights 50 x 50");

    // A phone width: the layout stacks and the board still fits.
    b.resize(390, 844);
    b.goto(&format!("{base}/lights"));
    b.wait("the board", "document.querySelectorAll('#board .cell').length === 25");
    let fits =
        b.run("return document.getElementById('board').getBoundingClientRect().right <= window.innerWidth");
    assert_eq!(fits, json!(true));
    b.screenshot(shots, "lights-phone");
    no_errors(b, "lights on a phone");
}

/// Sets the input `id` to `value` as a person would leave it (the page reads it on use).
fn set_value(b: &Browser, id: &str, value: &str) {
    b.run(&format!(
        "const e = document.getElementById('{id}'); e.value = '{value}'; e.dispatchEvent(new Event('input'));"
    ));
}

/// The number in the text of element `id` (digits only).
fn number_in(b: &Browser, id: &str) -> u64 {
    let v = b.run(&format!("return document.getElementById('{id}').textContent.replace(/\\D/g, '');"));
    v.as_str().and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// The bytes behind a download link of the page (a blob URL), read in the page.
fn download(b: &Browser, id: &str) -> Vec<u8> {
    use base64::Engine;
    let v = b.run(&format!(
        "const a = document.getElementById('{id}');
         return fetch(a.href).then((r) => r.arrayBuffer()).then((buf) => {{
           const bytes = new Uint8Array(buf); let text = '';
           for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
           return btoa(text);
         }});"
    ));
    base64::engine::general_purpose::STANDARD.decode(v.as_str().expect("base64")).expect("base64")
}

/// The page fits a phone's width (nothing to scroll sideways); a screenshot.
fn fits_a_phone(b: &Browser, base: &str, page: &str, ready: &str, shots: &Path) {
    b.goto(&format!("{base}{page}"));
    b.wait(&format!("{page} on a phone"), ready);
    let overflow = b.run("return document.documentElement.scrollWidth - window.innerWidth");
    let wide = b.run(
        "return [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
           .slice(0, 5).map((e) => e.tagName + '#' + e.id + '.' + e.className)",
    );
    assert!(
        overflow.as_i64().is_some_and(|o| o <= 0),
        "{page} scrolls sideways on a phone by {overflow} px: {wide}"
    );
    let name = match page.trim_start_matches('/') {
        "" => "home",
        p => p,
    };
    b.screenshot(shots, &format!("{name}-phone"));
    no_errors(b, &format!("{page} on a phone"));
}

#[test]
#[ignore = "needs Chromium and chromedriver: .ci/run runs it (cargo test --test web -- --ignored)"]
fn new_pages_work_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("q19.journal");
    let (_server, base) = start_server(&["--journal", journal.to_str().unwrap()]);
    with_browser("new pages", |b, shots| {
        // The automaton page offers every model of the library.
        b.goto(&format!("{base}/automaton"));
        b.wait("the models", "document.querySelectorAll('#model option').length >= 2");
        let models = b.run("return [...document.querySelectorAll('#model option')].map((o) => o.value)");
        let expected: Vec<&str> = damier_web::live::MODELS.iter().map(|m| m.name()).collect();
        assert_eq!(models, json!(expected));
        b.run("const m = document.getElementById('model'); m.value = 'cell'; m.dispatchEvent(new Event('change'));");
        b.click("#new");
        b.wait("a model 2 run", "document.getElementById('s-seed').textContent !== '–'");
        no_errors(b, "automaton models");

        // Factoring: 143 watched to its end, the factors checked.
        b.goto(&format!("{base}/factor"));
        b.wait("the grid", "document.getElementById('s-n').textContent === '143'");
        set_value(b, "seed", "1");
        b.click("#new");
        b.wait("the seeded run", "document.getElementById('s-seed').textContent === '1'");
        // The keyboard alone: `.` steps, Space plays.
        b.keys("body", ".");
        b.wait("one step", "document.getElementById('s-steps').textContent === '1'");
        set_value(b, "speed", "4");
        b.keys("body", " ");
        b.wait("playing", "document.getElementById('play').textContent === 'Pause'");
        b.wait_for(
            "the factors",
            "document.getElementById('s-factors').textContent === '11 × 13'",
            Duration::from_secs(90),
        );
        assert!(b.text("#status").contains("checked"));
        b.click("input[value='verdict']");
        b.screenshot(shots, "factor");
        no_errors(b, "factor");

        // Huge boards: a random 1000 x 1000 board solved, both PBM downloads read back by the
        // library and checked: the presses switch the board off.
        b.goto(&format!("{base}/big"));
        b.wait("the board of the start", "document.getElementById('s-size').textContent === '500 × 500'");
        // Issue 38, section 3: the inputs said 1000 x 1000 beside the 500 x 500 board shown.
        assert_eq!(
            (
                b.run("return document.getElementById('w').value"),
                b.run("return document.getElementById('h').value")
            ),
            (json!("500"), json!("500"))
        );
        set_value(b, "w", "1000");
        set_value(b, "h", "1000");
        set_value(b, "seed", "7");
        b.click("#solve");
        b.wait_for(
            "the solve",
            "document.getElementById('s-size').textContent === '1000 × 1000' \
             && document.getElementById('status').textContent.startsWith('Solved')",
            Duration::from_secs(60),
        );
        let board =
            damier::board::Board::read_pbm(download(b, "dl-board").as_slice()).expect("the board's PBM");
        let presses =
            damier::board::Board::read_pbm(download(b, "dl-presses").as_slice()).expect("the presses' PBM");
        assert_eq!((board.width(), board.height()), (1000, 1000));
        assert!(!board.is_zero());
        assert!(
            damier::lights::apply_presses(&board, &presses).is_zero(),
            "the downloaded presses solve the downloaded board"
        );
        assert_eq!(number_in(b, "s-presses"), presses.count_ones());
        // Zoom by keyboard on the focused canvas, then the press pattern.
        let before = b.text("#zoom-label");
        b.keys("#view", "++");
        b.wait("a zoom", &format!("document.getElementById('zoom-label').textContent !== {before:?}"));
        b.click("input[value='presses']");
        // An uploaded PBM file (written by the library) is solved too.
        let upload = dir.path().join("upload.pbm");
        let mut small = damier::board::Board::new("300x200".parse().unwrap());
        small.set(5, 7, true);
        small.set(299, 199, true);
        small.write_pbm(std::fs::File::create(&upload).unwrap(), damier::board::pbm::PbmKind::Plain).unwrap();
        b.keys("#upload", upload.to_str().unwrap());
        b.wait("the uploaded board", "document.getElementById('s-size').textContent === '300 × 200'");
        b.wait("its answer", "document.getElementById('s-lights').textContent === '2'");
        // One solution of 100 000 queens by local search, drawn.
        b.click("#queens");
        b.wait_for(
            "100 000 queens",
            "document.getElementById('queens-status').textContent.includes('a solution')",
            Duration::from_secs(60),
        );
        b.screenshot(shots, "big");
        no_errors(b, "big");

        // Counting: an estimate, a count with progress, and the journal of a count running now.
        let mut count = Guard(
            Command::new(env!("CARGO_BIN_EXE_damier"))
                .args(["queens", "count", "19", "--threads", "1", "--journal"])
                .arg(&journal)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        // The count creates its journal a moment after it starts (seconds on a loaded machine),
        // and until then the server answers 503, which the page would log as an error: the
        // page is opened once the server reads the journal.
        let started = Instant::now();
        let readable = || {
            ureq::post(format!("{base}/api/live/journal"))
                .header("Content-Type", "application/json")
                .send("{}")
                .is_ok_and(|r| r.status() == 200)
        };
        while !readable() {
            assert!(started.elapsed() < Duration::from_secs(60), "the count's journal never became readable");
            std::thread::sleep(Duration::from_millis(100));
        }
        b.goto(&format!("{base}/count"));
        b.wait("the journal", "/^[1-9]/.test(document.getElementById('j-done').textContent)");
        let first = b.text("#j-done");
        b.wait_for(
            "the journal refreshing",
            &format!("document.getElementById('j-done').textContent !== {first:?}"),
            Duration::from_secs(30),
        );
        assert!(b.text("#j-n") == "19" && b.text("#j-rate").contains("tasks/s"), "{}", b.text("#j-rate"));
        let _ = count.0.kill();
        set_value(b, "e-n", "14");
        set_value(b, "e-samples", "20");
        b.click("#estimate");
        b.wait_for(
            "the estimate",
            "document.getElementById('e-tasks').textContent !== '–'",
            Duration::from_secs(60),
        );
        assert!(b.text("#e-known").contains("365596 ("), "{}", b.text("#e-known"));
        set_value(b, "count-n", "12");
        b.click("#count");
        b.wait(
            "the count",
            "document.getElementById('count-status').textContent.includes('14200 solutions')",
        );
        b.screenshot(shots, "count");
        no_errors(b, "count");

        // Every page at a phone's width.
        b.resize(390, 844);
        for (page, ready) in [
            ("/", "document.querySelectorAll('.card').length === 7"),
            ("/lights", "document.querySelectorAll('#board .cell').length === 25"),
            ("/walk", "document.querySelector('#board .cell.pawn')"),
            ("/automaton", "document.getElementById('s-seed').textContent !== '–'"),
            ("/queens", "document.querySelectorAll('#solutions figure').length === 12"),
            ("/factor", "document.getElementById('s-n').textContent === '143'"),
            ("/big", "document.getElementById('s-size').textContent === '500 × 500'"),
            ("/count", "document.getElementById('j-n').textContent === '19'"),
        ] {
            fits_a_phone(b, &base, page, ready, shots);
        }
    });
}

/// What the page shows, as one string: the text of the elements `ids` and the classes of the
/// cells under `cells` (a CSS selector), for comparing two loads of one link.
fn shown(b: &Browser, ids: &[&str], cells: &str) -> String {
    let ids = serde_json::to_string(ids).unwrap();
    let v = b.run(&format!(
        "return JSON.stringify([{ids}.map((id) => document.getElementById(id).textContent),
           [...document.querySelectorAll({cells:?})].map((e) => e.className)]);"
    ));
    v.as_str().unwrap_or_default().to_string()
}

#[test]
#[ignore = "needs Chromium and chromedriver: .ci/run runs it (cargo test --test web -- --ignored)"]
fn a_link_reproduces_each_page() {
    let (_server, base) = start_server(&[]);
    with_browser("links", |b, shots| {
        // Each page, opened from a link with its state, shows that state; the address it then
        // writes (history.replaceState) opens the same thing again.
        let pages: [(&str, &str, &[&str], &str); 6] = [
            (
                "/lights?w=6&h=4&seed=42&p=0-7-23",
                "document.getElementById('presses').textContent === '3'",
                &["on", "presses"],
                "#board .cell",
            ),
            (
                "/walk?rows=3&cols=5&moves=NEE",
                "document.getElementById('path').textContent === 'NEE'",
                &["count", "white", "path"],
                "#board .cell",
            ),
            (
                "/automaton?model=cell&n=9&eps=0.02&eta=0.05&seed=5&steps=400",
                "document.getElementById('s-steps').textContent.replace(/\\D/g, '') === '400' \
                 || document.getElementById('s-solved').textContent === 'yes'",
                &["s-seed", "s-steps", "s-moves", "s-solved"],
                "#nothing",
            ),
            (
                "/queens?n=8&queens=1-5-8-6-3-7-2-4&which=unique&page=1",
                "document.getElementById('place-status').textContent.includes('A solution') \
                 && document.getElementById('classes').textContent === '12'",
                &["place-status", "classes", "list-title"],
                "#place .cell",
            ),
            (
                "/factor?n=143&q=0.5&eps=0.02&seed=3&steps=40&view=sum",
                "document.getElementById('s-steps').textContent === '40'",
                &["s-n", "s-seed", "s-steps", "s-flips", "s-ab"],
                "#nothing",
            ),
            (
                "/big?start=random&w=300&h=200&seed=9",
                "document.getElementById('s-size').textContent === '300 × 200' \
                 && document.getElementById('s-seed').textContent === '9'",
                &["s-size", "s-lights", "s-nullity", "s-presses", "s-seed"],
                "#nothing",
            ),
        ];
        for (link, ready, ids, cells) in pages {
            b.goto(&format!("{base}{link}"));
            b.wait(link, ready);
            let first = shown(b, ids, cells);
            let written = b.run("return location.href").as_str().unwrap().to_string();
            assert!(written.contains('?'), "{link}: the page writes its state in its address: {written}");
            b.goto(&written);
            b.wait(&written, ready);
            assert_eq!(shown(b, ids, cells), first, "{link} and {written} show the same");
            // Each page explains its problem, and links to the explanation.
            assert!(
                b.run("return !!document.querySelector('details#about summary')") == json!(true),
                "{link}"
            );
            assert!(
                b.run("return !!document.querySelector('footer a[href=\"#about\"]')") == json!(true),
                "{link}"
            );
            no_errors(b, link);
        }
        // A press and a move are in the address at once.
        b.goto(&format!("{base}/lights?w=3&h=3&seed=1"));
        b.wait("the board", "document.querySelectorAll('#board .cell').length === 9");
        b.click("#board .cell[data-r='1'][data-c='2']");
        b.wait("the press in the address", "new URLSearchParams(location.search).get('p') === '5'");
        b.goto(&format!("{base}/walk?rows=4&cols=4"));
        b.wait("the walk", "document.querySelector('#board .cell.pawn')");
        b.click("#mv-N");
        b.wait("the move in the address", "new URLSearchParams(location.search).get('moves') === 'N'");
        // The estimate of a link runs again with its seed.
        b.goto(&format!("{base}/count?n=10&samples=5&seed=3"));
        b.wait("the estimate", "document.getElementById('estimate-status').textContent.includes('seed 3')");
        // This server shows no journal: the page's request for one is a 404, nothing else.
        let errors: Vec<String> =
            b.console_errors().into_iter().filter(|e| !e.contains("/api/live/journal - ")).collect();
        assert!(errors.is_empty(), "count: console errors: {errors:?}");
        // Issue 38, section 3: the page's largest panel was an empty journal box; without a
        // journal it says how to get one, and the empty figures are hidden.
        b.wait("the sentence", "!document.getElementById('journal-none').hidden");
        assert_eq!(b.run("return document.getElementById('journal-view').offsetHeight"), json!(0));
        assert!(b.text("#journal-none").contains("damier serve --journal"), "{}", b.text("#journal-none"));
        b.screenshot(shots, "count-without-journal");
    });
}
