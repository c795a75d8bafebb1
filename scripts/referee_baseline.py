#!/usr/bin/env python3
"""The speed baseline of `arbiter referee` (docs/referee.md): python-chess reads every game of
a PGN file and asks board.is_game_over() at every ply (checkmate, stalemate, insufficient
material, seventy-five moves, fivefold repetition).

    python3 scripts/referee_baseline.py games.pgn

Prints the games, plies and games that ended on the board, and the seconds taken.
"""
import sys
import time

import chess.pgn


def main(path):
    start = time.perf_counter()
    games = plies = over = 0
    with open(path, encoding="utf-8-sig") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            board = game.board()
            ended = board.is_game_over()
            for move in game.mainline_moves():
                board.push(move)
                plies += 1
                ended = board.is_game_over()
            over += ended
    seconds = time.perf_counter() - start
    print(f"games {games}, plies {plies}, ended on the board {over}, {seconds:.2f} s, "
          f"{games / seconds:.1f} games/s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
