#!/usr/bin/env python3
"""Measures the exported static lab (scripts/export-lab.sh DIR) in headless Chromium.

    scripts/measure-static-lab.py DIR

Serves DIR with Python's http.server on the loopback, drives Chromium through chromedriver's
WebDriver (plain HTTP, the standard library only) and prints, in docs/web.md's table:
the bundle's size (raw, gzip -9, brotli where the `brotli` command exists), each page's load
(navigation start to the load event, and to the first answer of the WebAssembly worker), and
the latency of interactions (click to answer shown, the median of 20), all measured in the page
with performance.now(). Needs chromium, chromedriver and python3; a measurement, not a test.
"""

import gzip
import json
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"


def free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]
        caps = {"browserName": "chrome", "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}
        self.session = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]
        # Counts of n = 18 take a minute in the worker: longer than WebDriver's 30 s for a script.
        self.call("POST", f"/session/{self.session}/timeouts", {"script": 600_000})

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        r = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", method=method, data=data, headers={"content-type": "application/json"}
        )
        return json.loads(urllib.request.urlopen(r, timeout=600).read())["value"]

    def go(self, url):
        self.call("POST", f"/session/{self.session}/url", {"url": url})

    def js(self, script):
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": script, "args": []})

    def js_async(self, script):
        return self.call("POST", f"/session/{self.session}/execute/async", {"script": script, "args": []})

    def wait(self, expr, limit=60):
        start = time.time()
        while time.time() - start < limit:
            if self.js(f"return !!({expr});"):
                return
            time.sleep(0.02)
        raise TimeoutError(expr)

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        finally:
            self.proc.kill()


# In the page: clicks `button` (a CSS selector) and resolves with the milliseconds until
# `done` (an expression) holds, polled on every animation frame.
TIMED_CLICK = """
const [button, done, prepare] = [arguments[0], arguments[1], arguments[2]];
const finish = arguments[arguments.length - 1];
if (prepare) eval(prepare);
const t = performance.now();
document.querySelector(button).click();
const poll = () => (eval(done) ? finish(performance.now() - t) : setTimeout(poll, 0));
poll();
"""


# A Lights Out hint is answered once the status names the cell and the cell is marked (the
# status is cleared before each click: the page redraws only what changed, so the mark of the
# same hint stays).
HINT_SHOWN = "document.getElementById('status').textContent.startsWith('Hint') && document.querySelector('#board .cell.hint')"
CLEAR_STATUS = "document.getElementById('status').textContent = '';"


def timed_click(d, button, done, prepare="", times=20):
    out = []
    for _ in range(times):
        out.append(
            d.call(
                "POST",
                f"/session/{d.session}/execute/async",
                {"script": TIMED_CLICK, "args": [button, done, prepare]},
            )
        )
    return statistics.median(out), max(out)


def sizes(site):
    wasm = (site / "damier.wasm").read_bytes()
    every = b"".join(p.read_bytes() for p in sorted(site.iterdir()) if p.is_file())
    rows = [("damier.wasm", wasm), ("the whole site", every)]
    for name, data in rows:
        line = f"{name}: {len(data):,} bytes, gzip -9 {len(gzip.compress(data, 9)):,}"
        if shutil.which("brotli"):
            br = subprocess.run(["brotli", "-c", "-q", "11"], input=data, capture_output=True, check=True).stdout
            line += f", brotli -q 11 {len(br):,}"
        print(line)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/measure-static-lab.py DIR (a folder written by scripts/export-lab.sh)")
    site = Path(sys.argv[1])
    sizes(site)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    time.sleep(0.5)
    d = Driver()
    try:
        # Loads: the load event, then the first answer from the worker (which fetched and
        # compiled damier.wasm), from the navigation's start. The first visit of each page
        # (the browser's cache empty of it), then the median of 5 reloads.
        firsts = {
            "lights.html?w=5&h=5&seed=7": "document.getElementById('nullity').textContent === '2'",
            "walk.html?rows=4&cols=5": "document.querySelector('#board .pawn')",
            "queens.html?n=8": "document.getElementById('total').textContent === '92'",
            "automaton.html?model=pair&n=8&seed=7": "document.getElementById('s-seed').textContent === '7'",
        }
        for page, ready in firsts.items():
            loads, answers = [], []
            for _ in range(6):
                d.go(f"{base}/{page}")
                d.wait(ready)
                d.js(f"window.__answered = performance.now(); return 0;")
                nav = d.js("return performance.getEntriesByType('navigation')[0].loadEventEnd;")
                loads.append(nav)
                answers.append(d.js("return window.__answered;"))
            print(
                f"load {page}: first visit load event {loads[0]:.0f} ms, first answer <= {answers[0]:.0f} ms; "
                f"reloads: load event {statistics.median(loads[1:]):.0f} ms, first answer <= {statistics.median(answers[1:]):.0f} ms"
            )
        # Interactions: click to answer shown.
        d.go(f"{base}/lights.html?w=5&h=5&seed=7")
        d.wait("document.getElementById('nullity').textContent === '2'")
        med, worst = timed_click(d, "#hint", HINT_SHOWN, CLEAR_STATUS)
        print(f"lights 5x5 hint (fewest presses): median {med:.1f} ms, worst {worst:.1f} ms")
        d.go(f"{base}/lights.html?w=20&h=20&seed=7")
        d.wait("document.getElementById('nullity').textContent !== '–'")
        med, worst = timed_click(d, "#hint", HINT_SHOWN, CLEAR_STATUS)
        print(f"lights 20x20 hint (fewest presses): median {med:.1f} ms, worst {worst:.1f} ms")
        d.go(f"{base}/walk.html?rows=8&cols=8")
        d.wait("document.querySelector('#board .pawn')")
        med, worst = timed_click(
            d,
            "#mv-E",
            "document.getElementById('count').textContent === String(window.__before + 1)",
            "window.__before = Number(document.getElementById('count').textContent); if (document.querySelector('#board .pawn') === [...document.querySelectorAll('#board .cell')].at(-1)) document.getElementById('new').click();",
            times=7,
        )
        print(f"walk 8x8 move (replay + plan): median {med:.1f} ms, worst {worst:.1f} ms")
        d.go(f"{base}/queens.html?n=8&queens=1-5-8-6-3-7-2-4")
        d.wait("document.getElementById('place-status').textContent.startsWith('A solution')")
        med, worst = timed_click(
            d,
            "#place .cell",
            "document.getElementById('place-status').textContent !== window.__before",
            "window.__before = document.getElementById('place-status').textContent;",
        )
        print(f"queens 8x8 placement checked: median {med:.1f} ms, worst {worst:.1f} ms")
        d.go(f"{base}/automaton.html?model=pair&n=32&seed=7")
        d.wait("document.getElementById('s-seed').textContent === '7'")
        med, worst = timed_click(
            d,
            "#step",
            "document.getElementById('s-steps').textContent !== window.__before",
            "window.__before = document.getElementById('s-steps').textContent;",
        )
        print(f"automaton 32x32 one update and its frame: median {med:.1f} ms, worst {worst:.1f} ms")
        for n in (12, 14, 16, 18):
            d.go(f"{base}/queens.html?n=4")
            d.wait("document.getElementById('total').textContent === '2'")
            d.js(f"document.getElementById('count-n').value = '{n}'; return 0;")
            med, _ = timed_click(d, "#count", "document.getElementById('count-status').classList.contains('ok')", times=1)
            print(f"queens count n = {n} in the worker: {med / 1000:.2f} s")
    finally:
        d.close()
        server.kill()


if __name__ == "__main__":
    main()
