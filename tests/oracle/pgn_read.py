#!/usr/bin/env python3
"""Test oracle for Arbiter's PGN reader (tests/pgn.rs): python-chess reads a PGN file and
prints, per game in file order:

  G <errors> <result>
  T <name> <value, UTF-8 in hex>      (one line per tag)
  M <uci> <uci> ...                   (the main line)

The tags are those written in the file (not the seven-tag roster python-chess fills in), with
the PGN standard's string escapes `\\"` and `\\\\` undone (python-chess keeps them as written);
the result is python-chess's (the Result tag, else the movetext's marker); Chess960 castling
is written king takes rook; errors counts what python-chess could not read.

    pgn_read.py FILE.pgn
"""
import re
import sys

import chess.pgn

def unescape(value):
    return re.sub(r'\\(["\\])', r"\1", value)


class Recorder(chess.pgn.GameBuilder):
    """Notes which tags the file itself gave."""

    def begin_headers(self):
        self.written = set()
        return super().begin_headers()

    def visit_header(self, tagname, tagvalue):
        self.written.add(tagname)
        super().visit_header(tagname, tagvalue)

    def result(self):
        game = super().result()
        game.written = self.written
        return game


def main(path):
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f, Visitor=Recorder)) is not None:
            print(f"G {len(game.errors)} {game.headers['Result']}")
            for k, v in game.headers.items():
                if k in game.written:
                    print(f"T {k} {unescape(v).encode().hex()}")
            board = game.board()
            moves = []
            for move in game.mainline_moves():
                moves.append(board.uci(move, chess960=board.chess960))
                board.push(move)
            print("M " + " ".join(moves))


if __name__ == "__main__":
    main(sys.argv[1])
