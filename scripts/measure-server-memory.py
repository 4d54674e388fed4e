#!/usr/bin/env python3
"""The server's memory under big answers and clients that never read (docs/reliability.md,
"The server's memory, whatever the client does").

    scripts/measure-server-memory.py DAMIER streams [K]
        K streams (default 3) of `queens list 14` read to their end, at once
    scripts/measure-server-memory.py DAMIER list15
        one stream of `queens list 15` with `limit` 900 000
    scripts/measure-server-memory.py DAMIER silent [K]
        K plain calls of `queens list 14` (default 20) whose clients never read, watched 60 s
    scripts/measure-server-memory.py DAMIER bodies [K]
        K connections (default 300) each sending a body of 1 MiB but its last byte, held 5 s
    scripts/measure-server-memory.py DAMIER arrays [K]
        K requests (default 40) at once whose bodies are 1 MiB of small JSON values
    scripts/measure-server-memory.py DAMIER headers [K]
        K connections (default 500) each holding 60 KB of headers that never end
    scripts/measure-server-memory.py DAMIER trickle [K]
        K plain calls of `queens list 14` (default 6) read 1 KiB every 2 s, for 40 s

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
    elif scenario == "bodies":
        body = (b'{"n": [' + b"0," * 524000)[: 1 << 20]
        head = (f"POST /api/queens/count HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body) + 1}\r\n\r\n").encode()
        held = [socket.create_connection((host, int(port))) for _ in range(int(k or 300))]
        push = lambda s: (s.sendall(head), s.sendall(body))
        threads = [threading.Thread(target=push, args=(s,), daemon=True) for s in held]
        [t.start() for t in threads]
        time.sleep(5)
        del held
    elif scenario == "arrays":
        body = b'{"x": [' + b"0," * 520000 + b"0]}"
        statuses = []

        def one(path):
            s = send(path, body.decode())
            statuses.append(read_all(s)[:12].decode())
        paths = ["/api/queens/count", "/api/live/walk/plan"]
        threads = [threading.Thread(target=one, args=(paths[i % 2],)) for i in range(int(k or 40))]
        [t.start() for t in threads]
        [t.join() for t in threads]
        print("answers:", sorted(set(statuses)))
    elif scenario == "headers":
        held = []
        for _ in range(int(k or 500)):
            s = socket.create_connection((host, int(port)))
            s.sendall(f"GET / HTTP/1.1\r\nHost: {addr}\r\nX-A: {'a' * 60000}".encode())
            held.append(s)
        time.sleep(2)
        del held
    elif scenario == "trickle":
        held = []
        for _ in range(int(k or 6)):
            s = socket.create_connection((host, int(port)))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall((f"POST /api/queens/list HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n"
                       f"Content-Length: 9\r\n\r\n{{\"n\": 14}}").encode())
            s.settimeout(0.1)
            held.append(s)
        got = [0] * len(held)
        for _ in range(20):
            for i, s in enumerate(held):
                try:
                    got[i] += len(s.recv(1024))
                except OSError:
                    pass
            time.sleep(2)
        print("bytes each slow reader got:", got)
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
