#!/usr/bin/env python3
"""Measures `stop` -> `bestmove` latency over many searches (raw pipes, no client library).

  scripts/lab/stop_latency.py [ENGINE] [SEARCHES] [THREADS ...]
  scripts/lab/stop_latency.py target/release/arbiter 300 1 2 3

For each thread count: `setoption name Threads`, then SEARCHES times `position` /
`go infinite` / a random pause of 0-80 ms / `stop`, timing `stop` -> `bestmove`.
With THREADS >= the number of cores every core is busy searching when `stop` arrives:
the case that tests how fast the engine's input thread gets a CPU.
"""
import random
import subprocess
import sys
import time

path = sys.argv[1] if len(sys.argv) > 1 else "target/release/arbiter"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
thread_counts = [int(t) for t in sys.argv[3:]] or [1]
fens = ["startpos", "startpos moves e2e4 e7e5 g1f3",
        "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
rng = random.Random(1)
p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()
    return time.perf_counter()


def wait(prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("engine exited")
        if line.startswith(prefix):
            return time.perf_counter()


send("uci")
wait("uciok")
for threads in thread_counts:
    send(f"setoption name Threads value {threads}")
    send("isready")
    wait("readyok")
    lat = []
    for i in range(n):
        send(f"position {fens[i % len(fens)]}")
        send("go infinite")
        time.sleep(rng.uniform(0, 0.08))
        t0 = send("stop")
        lat.append((wait("bestmove") - t0) * 1000)
    lat.sort()
    print(f"Threads {threads}: stop->bestmove over {n} searches: p50 {lat[n // 2]:.2f} ms, "
          f"p90 {lat[int(0.9 * (n - 1))]:.2f} ms, p99 {lat[int(0.99 * (n - 1))]:.2f} ms, max {lat[-1]:.2f} ms")
send("quit")
p.wait()
