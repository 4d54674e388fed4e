#!/usr/bin/env python3
"""Times the lab's live automaton at a board side (docs/web.md, "The automaton at large n").

    scripts/measure-live-automaton.py api BASE MODEL N [REQUESTS] [SEEDS]
        a new run, then REQUESTS step requests of 10^7 updates (each cut by the 200 ms
        budget), per seed (default 10 and 1,2,3), against a running `damier serve` at BASE
        (http://127.0.0.1:8080): the worst new run, the median and worst step, the largest frame.
    scripts/measure-live-automaton.py page URL N
        the automaton page at URL (the server's /automaton or a static site's automaton.html)
        in headless Chromium through chromedriver: model 3, seed 1, stepped to 3000 by its
        link, screenshots at 1280 and 390 px wide (automaton-rowN-WIDTH.png here), then played
        at 10^6 updates a frame for 6 s: the longest wait between two frames.

A measurement, not a test: needs python3 (and chromium and chromedriver for `page`)."""
import base64
import importlib.util
import json
import sys
import time
import urllib.request
from pathlib import Path


def api(base, model, n, requests=10, seeds=(1, 2, 3)):
    def post(path, body):
        t = time.perf_counter()
        r = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
        data = urllib.request.urlopen(r, timeout=60).read()
        return time.perf_counter() - t, json.loads(data), len(data)

    creates, steps, sizes = [], [], []
    for seed in seeds:
        dt, f, size = post("/api/live/automaton", {"model": model, "n": n, "seed": seed})
        creates.append(dt)
        sizes.append(size)
        for _ in range(requests):
            dt, f, size = post(f"/api/live/automaton/{f['id']}/step", {"updates": 10**7})
            steps.append(dt)
            sizes.append(size)
        print(f"seed {seed}: steps {f['steps']}, conflicts left {f['conflicts']}", file=sys.stderr)
    steps.sort()
    print(
        f"{model} n = {n}: new run worst {max(creates) * 1e3:.0f} ms (of {len(creates)}); step of 10^7 updates: "
        f"median {steps[len(steps) // 2] * 1e3:.0f} ms, worst {steps[-1] * 1e3:.0f} ms (of {len(steps)}); "
        f"largest frame {max(sizes) / 1024:.0f} KiB"
    )


def page(url, n):
    spec = importlib.util.spec_from_file_location("lab", Path(__file__).with_name("measure-static-lab.py"))
    lab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lab)
    d = lab.Driver()
    steps = "Number(document.getElementById('s-steps').textContent.replace(/\\D/g, ''))"
    try:
        s = d.session
        for width in (1280, 390):
            d.call("POST", f"/session/{s}/window/rect", {"width": width, "height": 1400 if width > 500 else 2300})
            d.go(f"{url}?model=row&n={n}&seed=1&steps=3000")
            d.wait(f"{steps} >= 3000", 120)
            Path(f"automaton-row{n}-{width}.png").write_bytes(base64.b64decode(d.call("GET", f"/session/{s}/screenshot")))
            shown = d.js(
                "return ['s-steps', 's-conflicts', 'legend-blocks'].map((id) => document.getElementById(id).textContent)"
                ".concat([document.documentElement.scrollWidth])"
            )
            print(f"{width} px: steps, conflicts left, blocks, page width: {shown}")
        d.js("document.getElementById('speed').value = 6; document.getElementById('speed').oninput();")
        frames, worst, last = d.js_async(
            """const done = arguments[0], el = document.getElementById('s-steps');
            let last = performance.now(), worst = 0, frames = 0;
            new MutationObserver(() => { const t = performance.now(); worst = Math.max(worst, t - last); last = t; frames++; })
              .observe(el, { childList: true, characterData: true, subtree: true });
            document.getElementById('play').click();
            setTimeout(() => { document.getElementById('play').click(); done([frames, worst, el.textContent]); }, 6000);"""
        )
        print(f"n = {n}: played at 10^6 updates a frame for 6 s: {frames} frames, longest wait {worst:.0f} ms, steps {last}")
    finally:
        d.close()


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) >= 4 and a[0] == "api":
        api(a[1], a[2], int(a[3]), int(a[4]) if len(a) > 4 else 10,
            tuple(int(x) for x in a[5].split(",")) if len(a) > 5 else (1, 2, 3))
    elif len(a) == 3 and a[0] == "page":
        page(a[1], int(a[2]))
    else:
        sys.exit(__doc__)
