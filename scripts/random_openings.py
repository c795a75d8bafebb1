#!/usr/bin/env python3
"""Random openings for training-data generation: N distinct positions reached by random
legal moves from the initial position (seeded, so the file is reproducible).

Self-play at a fixed node count is deterministic, so the variety of the data comes from
the openings alone; a few random plies give millions of distinct games.

  scripts/random_openings.py --count 200000 --plies 8 --seed 1 > openings-random.epd

A book for node-limited SPRTs (such games repeat once the openings are used up): two random plies
from each of a book's positions, picked at random:

  scripts/random_openings.py --from tests/data/openings.epd --plies 2 --count 20000 --seed 24 > book.epd
"""
import argparse
import random

import chess


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=100000)
    p.add_argument("--plies", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="start from a random position of this EPD/FEN file instead of the initial position")
    a = p.parse_args()
    rng = random.Random(a.seed)
    starts = None
    if a.source:
        starts = []
        for line in open(a.source):
            fen = line.split(";")[0].strip()
            if fen and not fen.startswith("#"):
                starts.append(fen if len(fen.split()) >= 6 else fen + " 0 1")
    seen = set()
    while len(seen) < a.count:
        board = chess.Board(starts[rng.randrange(len(starts))]) if starts else chess.Board()
        for _ in range(a.plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or board.is_check():
            continue
        epd = board.epd()
        if epd not in seen:
            seen.add(epd)
            print(epd)


if __name__ == "__main__":
    main()
