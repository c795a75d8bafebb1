#!/usr/bin/env python3
"""The speed baseline of `arbiter referee` (docs/referee.md): python-chess reads every game of
a PGN file and asks board.is_game_over() at every ply (checkmate, stalemate, insufficient
material, seventy-five moves, fivefold repetition).

    python3 scripts/referee_baseline.py games.pgn

Prints the games, plies and games that ended on the board, and the seconds taken.

    python3 scripts/referee_baseline.py --random 2000 --seed 1 > random.pgn

writes N random-play games instead (uniform random legal moves until the board ends the game).
"""
import argparse
import random
import sys
import time

import chess
import chess.pgn


def replay(path):
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


def random_games(count, seed):
    rng = random.Random(seed)
    for i in range(count):
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = "random play"
        game.headers["Round"] = str(i + 1)
        print(game, end="\n\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pgn", nargs="?", help="the PGN file to replay")
    p.add_argument("--random", type=int, metavar="N", help="write N random-play games to stdout")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.random is not None:
        random_games(a.random, a.seed)
    elif a.pgn:
        replay(a.pgn)
    else:
        p.error("a PGN file or --random N")


if __name__ == "__main__":
    main()
