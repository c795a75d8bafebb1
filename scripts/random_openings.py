#!/usr/bin/env python3
"""Random openings for training-data generation: N distinct positions reached by random
legal moves from the initial position (seeded, so the file is reproducible).

Self-play at a fixed node count is deterministic, so the variety of the data comes from
the openings alone; a few random plies give millions of distinct games.

  scripts/random_openings.py --count 200000 --plies 8 --seed 1 > openings-random.epd
"""
import argparse
import random

import chess


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=100000)
    p.add_argument("--plies", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    seen = set()
    while len(seen) < a.count:
        board = chess.Board()
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
