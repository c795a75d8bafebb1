#!/usr/bin/env python3
"""Measures `stop` -> `bestmove` latency over many searches (raw pipes, no client library).

  scripts/stop_latency.py target/release/arbiter 30
"""
import statistics
import subprocess
import sys
import time

path = sys.argv[1] if len(sys.argv) > 1 else "target/release/arbiter"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 30
p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()


def wait(prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("engine exited")
        if line.startswith(prefix):
            return line


send("uci")
wait("uciok")
lat = []
fens = ["startpos", "startpos moves e2e4 e7e5 g1f3", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]
for i in range(n):
    send(f"position {fens[i % len(fens)]}")
    send("go infinite")
    time.sleep(0.15)
    t0 = time.perf_counter()
    send("stop")
    wait("bestmove")
    lat.append((time.perf_counter() - t0) * 1000)
send("quit")
lat.sort()
print(f"stop->bestmove over {n} searches: median {statistics.median(lat):.2f} ms, "
      f"p90 {lat[int(0.9 * (n - 1))]:.2f} ms, max {lat[-1]:.2f} ms")
