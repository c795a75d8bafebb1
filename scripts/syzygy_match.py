#!/usr/bin/env python3
"""Tablebase conversion matches (docs/syzygy.md): start positions from the tables, and the
verdict on the games `arbiter selfplay` played from them. Needs python-chess.

  syzygy_match.py positions --tables DIR --materials KBNvK,KQvKR --count 60 --result win [--seed 1]
      EPD lines of random legal positions of these materials (colours at random) that the
      tables give as a win for the side to move with DTZ of at least --min-dtz plies (3
      with pawns), or
      (--result draw) as a draw in which some legal move loses.
  syzygy_match.py score --tables DIR --pgn games.pgn [--player A]
      For every game: the start position's value, which side the player had, the result.
      Prints one line per game that is not as the tables say, then a summary: wins converted
      (and in how many moves), draws held, losses.
"""
import argparse
import random
import sys

import chess
import chess.pgn
import chess.syzygy


def random_board(rng: random.Random, name: str) -> chess.Board:
    white, black = name.split("v")
    if rng.random() < 0.5:
        white, black = black, white
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        ok = True
        for color, side in ((chess.WHITE, white), (chess.BLACK, black)):
            for letter in side:
                piece = chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())
                sq = squares.pop()
                if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, piece)
        board.turn = rng.random() < 0.5
        if ok and board.is_valid():
            return board


def positions(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    names = args.materials.split(",")
    out = []
    with chess.syzygy.open_tablebase(args.tables) as tb:
        i = 0
        while len(out) < args.count:
            name = names[i % len(names)]
            i += 1
            # A few thousand tries a material and turn: some results are rare in some tables.
            for _ in range(3000):
                board = random_board(rng, name)
                if board.is_game_over() or (board.ep_square and board.has_legal_en_passant()):
                    continue
                wdl = tb.probe_wdl(board)
                if args.result == "win":
                    # Pawn moves zero the count: short DTZs are the rule there.
                    wanted = wdl == 2 and tb.probe_dtz(board) >= (args.min_dtz if "P" not in name else 3)
                else:
                    def loses(m: chess.Move) -> bool:
                        board.push(m)
                        try:
                            return tb.probe_wdl(board) == 2
                        finally:
                            board.pop()
                    wanted = wdl == 0 and any(loses(m) for m in board.legal_moves)
                if wanted:
                    out.append(board.fen())
                    break
            else:
                print(f"no position found in {name} this turn", file=sys.stderr)
    print("\n".join(out))


def score(args: argparse.Namespace) -> None:
    counts = {"win": [0, 0, 0], "draw": [0, 0, 0], "loss": [0, 0, 0]}  # player's W, D, L by TB value
    moves_to_win = []
    with chess.syzygy.open_tablebase(args.tables) as tb, open(args.pgn, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            wdl = tb.probe_wdl(board)
            white = args.player in game.headers.get("White", "").split()
            player = chess.WHITE if white else chess.BLACK
            value = wdl if board.turn == player else -wdl
            kind = "win" if value == 2 else "loss" if value == -2 else "draw"
            result = game.headers["Result"]
            points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            points = points if player == chess.WHITE else 1.0 - points
            counts[kind][0 if points == 1.0 else 1 if points == 0.5 else 2] += 1
            plies = sum(1 for _ in game.mainline_moves())
            if kind == "win" and points == 1.0:
                moves_to_win.append((plies + 1) // 2)
            expected = {"win": 1.0, "draw": 0.5, "loss": 0.0}[kind]
            if (kind == "loss" and points < 0.5) or points == expected:
                continue
            print(f"{game.headers.get('Round', '?')}: {board.fen()} {kind} for {args.player}: "
                  f"{result} ({game.headers.get('Termination', '')}, {plies} plies)")
    for kind, (w, d, l) in counts.items():
        print(f"{args.player} in tablebase {kind}s: {w} won, {d} drawn, {l} lost")
    if moves_to_win:
        moves_to_win.sort()
        print(f"wins took {moves_to_win[0]}-{moves_to_win[-1]} moves, median {moves_to_win[len(moves_to_win) // 2]}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("positions")
    a.add_argument("--tables", required=True)
    a.add_argument("--materials", required=True)
    a.add_argument("--count", type=int, default=60)
    a.add_argument("--result", choices=["win", "draw"], default="win")
    a.add_argument("--min-dtz", type=int, default=20)
    a.add_argument("--seed", type=int, default=1)
    b = sub.add_parser("score")
    b.add_argument("--tables", required=True)
    b.add_argument("--pgn", required=True)
    b.add_argument("--player", default="A")
    args = p.parse_args()
    positions(args) if args.cmd == "positions" else score(args)


if __name__ == "__main__":
    sys.exit(main())
