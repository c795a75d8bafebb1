#!/usr/bin/env python3
"""Final positions of the games in PGN files, one FEN per line, each distinct position once.

    scripts/final_positions.py OUT.epd FILE.pgn...

Games are replayed with python-chess (Chess960 games by their Variant tag); a game that does
not replay is skipped. Positions count as the same when their first four FEN fields agree.
Prints how many games were read and how many distinct final positions were written.
"""
import sys

import chess.pgn


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    seen, fens, games = set(), [], 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                try:
                    game = chess.pgn.read_game(f)
                except (ValueError, OSError) as e:
                    # The reader could not resynchronise: retrying would read the same bytes
                    # for ever, so the rest of this file is skipped, and said so.
                    print(f"{path}: unreadable after {games} games ({e}); rest of file skipped", file=sys.stderr)
                    break
                if game is None:
                    break
                if game.errors:
                    continue
                games += 1
                board = game.end().board()
                fen = board.fen()
                key = " ".join(fen.split()[:4])
                if key not in seen:
                    seen.add(key)
                    fens.append(fen)
    with open(out, "w") as f:
        f.write("\n".join(fens) + "\n")
    print(f"{games} games, {len(fens)} distinct final positions -> {out}")


if __name__ == "__main__":
    main()
