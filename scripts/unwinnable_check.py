#!/usr/bin/env python3
"""Checks `arbiter unwinnable --epd --json` against CHA's test vectors or any position file.

    scripts/unwinnable_check.py ARBITER VECTORS|POSITIONS [--budget N] [--positions] [--undetermined OUT]

With CHA vectors (lines `WB|W-|-B|-- FEN`): per side decided / undetermined / wrong against the expected class.
With --positions (one FEN per line): verdict counts, undetermined rate, median / p99 / max micros per position.
Either way every helpmate is replayed with python-chess (legal, and ends in that side's checkmate).
--undetermined OUT writes every undetermined side verdict to OUT (`CLASS FEN SIDE`, a vector line plus the side).
"""
import json, statistics, subprocess, sys, tempfile

import chess


def replay(fen, side, line):
    """Standard or Chess960 reading (castling written king-takes-rook, as Arbiter does in 960)."""
    return any(replay_as(fen, side, line, c960) for c960 in (False, True))


def replay_as(fen, side, line, chess960):
    b = chess.Board(fen, chess960=chess960)
    for m in line:
        mv = chess.Move.from_uci(m)
        if mv not in b.legal_moves:
            return False
        b.push(mv)
    winner = chess.WHITE if side == "white" else chess.BLACK
    return b.is_checkmate() and b.turn != winner


def main():
    args = sys.argv[1:]
    arbiter, path = args[0], args[1]
    budget = args[args.index("--budget") + 1] if "--budget" in args else None
    positions_mode = "--positions" in args
    undetermined_out = args[args.index("--undetermined") + 1] if "--undetermined" in args else None
    classes, fens = [], []
    for l in open(path):
        l = l.strip()
        if not l or l.startswith("#"):
            continue
        if positions_mode:
            classes.append(None)
            fens.append(l)
        else:
            classes.append(l[:2])
            fen = l[3:].split()
            # CHA's file has one FEN with only placement and side: its castling and en passant are none.
            fens.append(" ".join(fen + ["-"] * (4 - len(fen))))
    with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as f:
        f.write("\n".join(fens) + "\n")
    cmd = [arbiter, "unwinnable", "--json", "--epd", f.name] + (["--budget", budget] if budget else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(fens), (len(out), len(fens))
    counts = {"winnable": 0, "unwinnable": 0, "undetermined": 0}
    wrong, bad_helpmates, helpmates, micros, undetermined = [], [], 0, [], []
    reasons = {}
    for a, cls in zip(map(json.loads, out), classes):
        if "error" in a:
            print("error", a)
            continue
        micros.append(a["micros"])
        for i, side in enumerate(["white", "black"]):
            v = a[side]
            counts[v["verdict"]] += 1
            if v["verdict"] == "winnable":
                helpmates += 1
                if not replay(a["fen"], side, v["helpmate"]):
                    bad_helpmates.append((a["fen"], side))
                if cls is not None and cls[i] == "-":
                    wrong.append((cls, a["fen"], side, "winnable"))
            elif v["verdict"] == "unwinnable":
                reasons[v["reason"]] = reasons.get(v["reason"], 0) + 1
                if cls is not None and cls[i] != "-":
                    wrong.append((cls, a["fen"], side, v["reason"]))
            else:
                undetermined.append((cls, a["fen"], side))
    sides = 2 * len(micros)
    decided = counts["winnable"] + counts["unwinnable"]
    micros.sort()
    print(f"positions {len(micros)}, side verdicts {sides}: decided {decided}, undetermined {counts['undetermined']}"
          f" ({100.0 * counts['undetermined'] / max(sides, 1):.3f} %), wrong {len(wrong)}")
    print(f"winnable {counts['winnable']} (helpmates replayed by python-chess: {helpmates}, invalid {len(bad_helpmates)}),"
          f" unwinnable {counts['unwinnable']} {reasons}")
    if micros:
        p99 = micros[min(len(micros) - 1, int(0.99 * len(micros)))]
        print(f"micros per position (both sides): median {statistics.median(micros)}, p99 {p99}, max {micros[-1]},"
              f" mean {statistics.mean(micros):.1f}")
    for w in wrong:
        print("WRONG", *w)
    for b in bad_helpmates:
        print("INVALID HELPMATE", *b)
    if undetermined_out:
        with open(undetermined_out, "w") as f:
            for cls, fen, side in undetermined:
                f.write(f"{cls or '??'} {fen} {side}\n")
    for u in undetermined[:40]:
        print("undetermined", *u)
    sys.exit(1 if wrong or bad_helpmates else 0)


if __name__ == "__main__":
    main()
