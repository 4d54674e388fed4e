#!/usr/bin/env python3
"""The server's memory under big answers and clients that never read (docs/reliability.md,
"The server's memory, whatever the client does").

    scripts/measure-server-memory.py DAMIER streams [K]
        K streams (default 3) of `queens list 14` read to their end, at once
    scripts/measure-server-memory.py DAMIER list15
        one stream of `queens list 15` with `limit` 900 000
    scripts/measure-server-memory.py DAMIER silent [K]
        K plain calls of `queens list 14` (default 20) whose clients never read, watched 60 s

Starts `DAMIER serve --port 0` (its own temporary folder), samples the server's VmRSS every
50 ms, asks for `GET /` every 200 ms, and prints the peak (VmRSS sampled and VmHWM), the
resident memory afterwards, and the slowest `GET /`. A measurement, not a test: needs python3
and Linux's /proc."""
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time


def main(exe, scenario, k=None):
    tmp = tempfile.mkdtemp(prefix="damier-measure-")
    server = subprocess.Popen([exe, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=dict(os.environ, TMPDIR=tmp))
    addr = re.search(r"http://([0-9.:]+)", server.stdout.readline().decode()).group(1)
    host, port = addr.split(":")

    def mib(key):
        for line in open(f"/proc/{server.pid}/status"):
            if line.startswith(key):
                return int(line.split()[1]) // 1024

    def send(path, body):
        s = socket.create_connection((host, int(port)))
        s.sendall((f"POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}").encode())
        return s

    def read_all(s):
        data = bytearray()
        while chunk := s.recv(1 << 20):
            data += chunk
        return bytes(data)

    peak, pages, done = [0], [], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], mib("VmRSS:"))
            time.sleep(0.05)

    def page():
        while not done.is_set():
            t = time.perf_counter()
            s = socket.create_connection((host, int(port)))
            s.sendall(f"GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n".encode())
            status = read_all(s)[:12].decode()
            pages.append((time.perf_counter() - t, status))
            time.sleep(0.2)

    threading.Thread(target=sample, daemon=True).start()
    threading.Thread(target=page, daemon=True).start()
    start = time.perf_counter()
    if scenario == "streams":
        sizes = []
        one = lambda: sizes.append(len(read_all(send("/api/queens/list?stream", '{"n": 14}'))))
        threads = [threading.Thread(target=one) for _ in range(int(k or 3))]
        [t.start() for t in threads]
        [t.join() for t in threads]
        print("bytes of each stream:", sizes)
    elif scenario == "list15":
        answer = read_all(send("/api/queens/list?stream", '{"n": 15, "limit": 900000}'))
        print("bytes of the stream:", len(answer))
    elif scenario == "silent":
        held = [send("/api/queens/list", '{"n": 14}') for _ in range(int(k or 20))]
        for _ in range(6):
            time.sleep(10)
            print(f"{time.perf_counter() - start:.0f} s: VmRSS {mib('VmRSS:')} MB")
        del held
    else:
        sys.exit(f"unknown scenario {scenario}")
    print(f"{time.perf_counter() - start:.1f} s; peak VmRSS {peak[0]} MB (sampled), VmHWM "
          f"{mib('VmHWM:')} MB, VmRSS now {mib('VmRSS:')} MB")
    time.sleep(2)
    print(f"VmRSS 2 s later: {mib('VmRSS:')} MB")
    done.set()
    times = sorted(t for t, _ in pages)
    print(f"GET /: {len(times)} answers {sorted(set(s for _, s in pages))}, median "
          f"{times[len(times) // 2] * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms")
    server.send_signal(2)
    server.wait()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(*sys.argv[1:4])
