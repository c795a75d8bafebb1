#!/usr/bin/env python3
"""How long each UCI command keeps the engine from answering `isready`.

    python3 scripts/lab/isready_latency.py ENGINE "CMD" ["CMD" ...]

Sends `uci`, then for each CMD: CMD, `isready`, and waits for `readyok`; prints the
wall time and the engine process's CPU time (user + system, from /proc) per command.
Example (issue 12's bar: Hash 4096 + isready under 2 s):

    python3 scripts/lab/isready_latency.py target/release/arbiter "setoption name Hash value 4096" \\
        "ucinewgame" "position startpos" "go depth 12" "stop" "ucinewgame"
"""
import os
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    p = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    tick = os.sysconf("SC_CLK_TCK")

    def cpu():
        fields = open("/proc/%d/stat" % p.pid).read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick

    def send(c, wait=None):
        p.stdin.write(c + "\n")
        p.stdin.flush()
        while wait:
            line = p.stdout.readline()
            if not line:
                sys.exit("engine exited")
            if line.strip() == wait:
                break

    send("uci", "uciok")
    for c in sys.argv[2:]:
        c0, t0 = cpu(), time.time()
        send(c)
        send("isready", "readyok")
        print("%-40s wall %.2f s, cpu %.2f s" % (c, time.time() - t0, cpu() - c0))
    send("quit")
    p.wait()


if __name__ == "__main__":
    main()
