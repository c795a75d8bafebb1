#!/usr/bin/env python3
"""Tactics/positional test suites: how many best moves Arbiter finds at a fixed time.

A position counts as solved when the engine's move is one of the EPD `bm` moves. For
STS files the STS points (opcodes c8/c9: 10 for the best move, less for others) are
summed as well.

  scripts/lab/tactics.py tests/data/bratko-kopec.epd --time 1
  scripts/lab/tactics.py sts.epd --time 1 --limit 300

sts.epd is not in the repository: docs/performance.md says where to get it.
"""
import argparse

import chess
import chess.engine


def main():
    p = argparse.ArgumentParser()
    p.add_argument("epd")
    p.add_argument("--engine", default="target/release/arbiter")
    p.add_argument("--time", type=float, default=1.0)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--hash", type=int, default=64)
    a = p.parse_args()
    lines = [l.strip() for l in open(a.epd) if l.strip()]
    if a.limit:
        lines = lines[: a.limit]
    eng = chess.engine.SimpleEngine.popen_uci([a.engine])
    eng.configure({"Hash": a.hash})
    solved = points = max_points = 0
    for i, line in enumerate(lines):
        board, ops = chess.Board.from_epd(line)
        best = ops.get("bm", [])
        eng.protocol.send_line("ucinewgame")
        res = eng.play(board, chess.engine.Limit(time=a.time))
        ok = res.move in best
        solved += ok
        if "c9" in ops and "c8" in ops:
            moves = str(ops["c9"]).split()
            pts = [int(x) for x in str(ops["c8"]).split()]
            table = dict(zip(moves, pts))
            points += table.get(res.move.uci(), 0)
            max_points += 10
        print(f"{i + 1:4} {ops.get('id', '')}: {board.san(res.move)} {'ok' if ok else 'no'} "
              f"(bm {' '.join(board.san(m) for m in best)})", flush=True)
    eng.quit()
    msg = f"RESULT solved {solved}/{len(lines)} at {a.time}s per position"
    if max_points:
        msg += f"; STS points {points}/{max_points}"
    print(msg)


if __name__ == "__main__":
    main()
