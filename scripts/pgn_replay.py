#!/usr/bin/env python3
"""Replays every game of a PGN file with python-chess (a Chess960 board when the Variant tag
says so: Chess960, fischerandom, ...) and checks that each move is legal there.

    python3 scripts/pgn_replay.py games.pgn

Prints the number of games and plies, the variants, the castlings by player and every
problem (a parse error, an illegal move); exit status 1 if there is any problem.
"""
import collections
import sys

import chess.pgn


def main(path):
    games = plies = 0
    variants = collections.Counter()
    castlings = collections.Counter()
    problems = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            variants[game.headers.get("Variant", "standard")] += 1
            board = game.board()
            problems += [f"game {games}: {e}" for e in game.errors]
            for move in game.mainline_moves():
                if not board.is_legal(move):
                    problems.append(f"game {games}: illegal {move.uci()} in {board.fen()}")
                    break
                if board.is_castling(move):
                    castlings[game.headers.get("White" if board.turn else "Black", "?")] += 1
                board.push(move)
                plies += 1
    print(f"games {games}, plies {plies}, variants {dict(variants)}, castlings {dict(castlings)}")
    for p in problems:
        print(p)
    print(f"problems {len(problems)}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
