#!/usr/bin/env python3
"""A bounded load test of `arbiter serve` on loopback: CLIENTS threads, each making REQUESTS
requests of every kind the page makes, good and bad (clicks, typed moves, previews, confirms,
claims, resignations, take-backs, drills, PGN reviews, positions, exports, the stateless
explain API, unknown boards, broken JSON, wrong methods, oversized bodies), with its own
board. It reports the answers by status, latency percentiles, and the server's resident
memory sampled once a second (flat memory: the last third's mean against the first third's).

    scripts/serve_load.py --binary target/release/arbiter [--clients 20] [--requests 500]

Starts the server itself (on a free port, `--move-time 50`) and stops it at the end. A
"failure" is an answer of 5xx or no answer at all; 4xx answers to bad requests are expected
and counted apart. Exit status 1 when there was a failure or the server died.
"""

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

PGN = """[Event "load"]
[White "A"]
[Black "B"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
"""

GOOD = [
    {"action": "click", "square": "e2"},
    {"action": "click", "square": "e4"},
    {"action": "move", "text": "Nf3"},
    {"action": "confirm"},
    {"action": "cancel"},
    {"action": "click", "square": "g8"},
    {"action": "click", "square": "f6"},
    {"action": "confirm"},
    {"action": "claim", "draw": "threefold"},
    {"action": "claim", "draw": "fifty"},
    {"action": "undo"},
    {"action": "drill", "id": "threefold"},
    {"action": "drill", "id": "promotion"},
    {"action": "branch", "which": 1},
    {"action": "reset"},
    {"action": "set-position", "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"},
    {"action": "resign"},
    {"action": "flag", "side": "black"},
    {"action": "load-pgn", "pgn": PGN},
    {"action": "goto", "ply": 3},
    {"action": "play-on"},
    {"action": "new-game", "mode": "two-players"},
]

BAD = [
    (b'{"action": "click", "square": "z9"}', "application/json"),
    (b'{"action": "teleport"}', "application/json"),
    (b'{"action": "set-position", "fen": "8/8/8/8 w"}', "application/json"),
    (b"{broken json", "application/json"),
    (b'{"action": "undo"}', "text/plain"),
    (b'{"action": "load-pgn", "pgn": "' + b"1. e4 " * 60000 + b'"}', "application/json"),
]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.by_status = {}
        self.latency = []
        self.failures = []

    def add(self, status, seconds, what):
        with self.lock:
            self.by_status[status] = self.by_status.get(status, 0) + 1
            self.latency.append(seconds)
            if status == 0 or status >= 500:
                self.failures.append(f"{status} {what}")


def call(base, method, path, body=None, content_type="application/json"):
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except Exception as e:  # noqa: BLE001 - no answer at all
        return 0, str(e).encode()


def client(base, n, requests, stats, seed):
    rng = random.Random(seed)
    status, body = call(base, "POST", "/api/boards", {})
    board = json.loads(body)["id"] if status == 201 else "none"
    for i in range(requests):
        kind = rng.random()
        start = time.perf_counter()
        if kind < 0.6:
            action = rng.choice(GOOD)
            lang = rng.choice(["en", "zh"])
            status, _ = call(base, "POST", f"/api/boards/{board}?lang={lang}&flip={i % 2}", action)
            what = action["action"]
        elif kind < 0.7:
            status, _ = call(base, "GET", f"/api/boards/{board}")
            what = "view"
        elif kind < 0.75:
            status, _ = call(base, "GET", f"/api/boards/{board}/pgn")
            what = "pgn"
        elif kind < 0.8:
            status, _ = call(base, "POST", "/api/explain", {"position": {"fen": "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"}, "move": "Rf2"})
            what = "explain"
        elif kind < 0.83:
            status, _ = call(base, "GET", rng.choice(["/", "/app.js", "/app.css", "/api/words?lang=zh"]))
            what = "page"
        elif kind < 0.95:
            body, content_type = rng.choice(BAD)
            status, _ = call(base, "POST", f"/api/boards/{board}", body, content_type)
            what = "bad body"
        else:
            status, _ = call(base, rng.choice(["GET", "DELETE"]), rng.choice(["/api/boards/nope", "/../etc/passwd"]))
            what = "bad path"
        stats.add(status, time.perf_counter() - start, what)


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))
    except (OSError, AttributeError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default="target/release/arbiter")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--requests", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    server = subprocess.Popen([args.binary, "serve", "--port", "0", "--move-time", "50"],
                              stderr=subprocess.PIPE, text=True)
    base = None
    for line in server.stderr:
        m = re.match(r"Arbiter's board: (http://\S+)/", line)
        if m:
            base = m.group(1)
            break
    if base is None:
        print("the server did not start", file=sys.stderr)
        return 1
    threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
    memory = []
    done = threading.Event()

    def sample():
        while not done.is_set():
            kib = rss_kib(server.pid)
            if kib:
                memory.append(kib)
            done.wait(1.0)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stats = Stats()
    start = time.time()
    threads = [threading.Thread(target=client, args=(base, i, args.requests, stats, args.seed * 1000 + i))
               for i in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.time() - start
    done.set()
    sampler.join()
    alive = server.poll() is None
    server.terminate()
    server.wait()
    lat = sorted(stats.latency)
    pct = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    third = max(1, len(memory) // 3)
    print(f"requests: {len(lat)} in {elapsed:.1f} s ({len(lat) / elapsed:.0f}/s), "
          f"{args.clients} clients x {args.requests}")
    print("answers by status: " + ", ".join(f"{k}: {v}" for k, v in sorted(stats.by_status.items())))
    print(f"latency ms: p50 {pct(0.5):.1f}, p95 {pct(0.95):.1f}, p99 {pct(0.99):.1f}, max {lat[-1] * 1000:.1f}, "
          f"mean {statistics.mean(lat) * 1000:.1f}")
    if memory:
        print(f"server RSS MiB: first third {statistics.mean(memory[:third]) / 1024:.1f}, "
              f"last third {statistics.mean(memory[-third:]) / 1024:.1f}, peak {max(memory) / 1024:.1f} "
              f"({len(memory)} samples)")
    print(f"failures (5xx or no answer): {len(stats.failures)}; server alive at the end: {alive}")
    for f in stats.failures[:10]:
        print("  " + f)
    return 0 if not stats.failures and alive else 1


if __name__ == "__main__":
    sys.exit(main())
