#!/usr/bin/env python3
"""Final positions of games, one FEN per line, each distinct position once.

    scripts/final_positions.py [--sample N] [--add FEN]... OUT.epd FILE...

A FILE is PGN, or game records as `arbiter selfplay --records` writes them (`.games`, or
`.games.xz` read as it is: `START-FEN | RESULT | MOVE SCORE MOVE SCORE ...`, docs/nnue.md).
Games are replayed with python-chess (PGN Chess960 games by their Variant tag; a record whose
moves do not replay in standard chess is tried as Chess960); a game that does not replay is
skipped. Positions count as the same when their first four FEN fields agree. `--sample N`
keeps N of the distinct positions, evenly spaced in reading order (the first, then every
len/N-th), so the same files give the same sample; `--add FEN` appends a position after the
sample (once, if not already in it). The file's first line is a comment with the command that
made it. Prints how many games were read and how many distinct final positions were written.
"""
import argparse
import lzma
import shlex
import sys

import chess
import chess.pgn


def pgn_finals(path):
    """The final boards of the PGN games in `path` (those that replay)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        games = 0
        while True:
            try:
                game = chess.pgn.read_game(f)
            except (ValueError, OSError) as e:
                # The reader could not resynchronise: retrying would read the same bytes
                # for ever, so the rest of this file is skipped, and said so.
                print(f"{path}: unreadable after {games} games ({e}); rest of file skipped", file=sys.stderr)
                return
            if game is None:
                return
            if game.errors:
                continue
            games += 1
            yield game.end().board()


def replay(start, moves, chess960):
    board = chess.Board(start, chess960=chess960)
    for uci in moves:
        board.push(board.parse_uci(uci))
    return board


def record_finals(path):
    """The final boards of the game records in `path` (those that replay)."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.split("|")
            if len(fields) < 3:
                continue
            # Moves and scores alternate.
            moves = fields[2].split()[0::2]
            for chess960 in (False, True):
                try:
                    yield replay(fields[0].strip(), moves, chess960)
                    break
                except ValueError:
                    continue


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, help="keep this many distinct positions, evenly spaced")
    ap.add_argument("--add", action="append", default=[], help="a FEN appended after the sample")
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    seen, fens, games = set(), [], 0
    for path in args.files:
        finals = record_finals(path) if path.endswith((".games", ".games.xz")) else pgn_finals(path)
        for board in finals:
            games += 1
            fen = board.fen()
            key = " ".join(fen.split()[:4])
            if key not in seen:
                seen.add(key)
                fens.append(fen)
    if args.sample and args.sample < len(fens):
        fens = [fens[i * len(fens) // args.sample] for i in range(args.sample)]
    keys = {" ".join(fen.split()[:4]) for fen in fens}
    for fen in args.add:
        fen = chess.Board(fen).fen()  # checked, and written as the others are
        if " ".join(fen.split()[:4]) not in keys:
            keys.add(" ".join(fen.split()[:4]))
            fens.append(fen)
    with open(args.out, "w") as f:
        f.write("# made by: scripts/final_positions.py " + shlex.join(sys.argv[1:]) + "\n")
        f.write("\n".join(fens) + "\n")
    print(f"{games} games, {len(seen)} distinct final positions, {len(fens)} written -> {args.out}")


if __name__ == "__main__":
    main()
