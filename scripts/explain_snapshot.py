#!/usr/bin/env python3
"""Everything `arbiter explain` says over many inputs, as one text file, so that two builds
can be compared byte for byte (a refactoring must not change a word):

  scripts/explain_snapshot.py OLD_BINARY > old.txt
  scripts/explain_snapshot.py NEW_BINARY > new.txt
  cmp old.txt new.txt

Inputs: every position of tests/data/perft.epd (plus a few games with a history), each
with all its legal moves (SAN and UCI), square pairs that are illegal for many reasons,
and hand-written notation (castling, en passant, promotions, nonsense). Text in English
and Chinese goes through one UCI session (`explain MOVE en|zh`, the same renderer as the
CLI); JSON for every input, and SVG and the CLI's own text for some, go through
`arbiter explain` (a few minutes: each is a process).
"""
import random
import subprocess
import sys

import chess

EXTRA = ["O-O", "O-O-O", "0-0", "Nf3", "nf3", "e4", "exd6 e.p.", "e8=Q", "e8Q", "Nbd7", "N3e4", "Kxe2",
         "a1a1", "c1c1", "hello", "Qxz9", "bc4", "Bc4", "e7e8k", "e2e3q", ""]
GAMES = [  # (fen or None, moves)
    (None, "e4 e5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"),
    ("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d5 Kd2 Ke7"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Kf1 Kf8 Ke1 Ke8"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Rh2 Rh7 Rh1 Rh8"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 149 100", ""),
    ("8/8/3k4/p1p1p1p1/P1P1P3/3K2P1/8/8 w - - 0 1", "g4"),
    ("7k/6Q1/5K2/8/8/8/8/8 b - - 0 1", ""),
    ("8/8/8/8/kb2R3/8/3n4/4K3 w - - 0 1", ""),
    ("4k3/8/8/8/8/8/3N1N2/4K3 w - - 0 1", ""),
]


def positions():
    with open("tests/data/perft.epd") as f:
        for line in f:
            fen = line.split(";")[0].strip()
            if fen:
                yield fen, ""
    yield from ((fen or chess.STARTING_FEN, moves) for fen, moves in GAMES)


def move_texts(fen, moves, rng):
    board = chess.Board(fen)
    for m in moves.split():
        board.push_san(m)
    texts = []
    for m in board.legal_moves:
        texts.append(board.san(m))
        texts.append(m.uci())
    squares = [chess.square_name(s) for s in chess.SQUARES]
    texts += [rng.choice(squares) + rng.choice(squares) for _ in range(25)]
    texts += [chess.square_name(s) + chess.square_name(t) for s in board.pieces(chess.KING, board.turn)
              for t in chess.SQUARES if chess.square_distance(s, t) <= 2]
    return texts + EXTRA


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    return f"rc={p.returncode}\n{p.stdout}{p.stderr}"


def main():
    binary = sys.argv[1]
    rng = random.Random(20240601)
    out = sys.stdout
    for n, (fen, moves) in enumerate(positions()):
        texts = move_texts(fen, moves, rng)
        base = ["--fen", fen] + (["--moves", moves] if moves else [])
        # Text, both languages, through one UCI session.
        pos = f"position fen {fen}" + (f" moves {moves}" if moves else "")
        script = [pos]
        for t in texts:
            script += [f"explain {t} en", f"explain {t} zh"]
        out.write(f"### uci {fen} | {moves}\n")
        out.write(run([binary], "\n".join(script + ["quit"]) + "\n"))
        # The CLI: the position report in every form, JSON for a sample of the moves, SVG for a few.
        for lang in ("en", "zh"):
            out.write(f"### report {lang} {fen} | {moves}\n")
            out.write(run([binary, "explain", *base, "--lang", lang]))
            out.write(run([binary, "explain", *base, "--lang", lang, "--json"]))
            out.write(run([binary, "explain", *base, "--lang", lang, "--svg", "/dev/stdout"]))
        for i, t in enumerate(texts):
            lang = "en" if i % 2 == 0 else "zh"
            out.write(f"### json {lang} {t} {fen} | {moves}\n")
            out.write(run([binary, "explain", *base, "--lang", lang, "--json", *t.split()]))
            if i % 4 == 0:
                out.write(run([binary, "explain", *base, "--lang", lang, *t.split()]))
            if i % 6 == 0:
                out.write(run([binary, "explain", *base, "--lang", lang, "--svg", "/dev/stdout", *t.split()]))
        print(f"{n + 1} positions", file=sys.stderr, end="\r")


if __name__ == "__main__":
    main()
