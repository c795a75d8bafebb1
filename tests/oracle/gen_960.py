#!/usr/bin/env python3
"""Chess960 test oracle for Arbiter, using python-chess's Chess960 support (`chess960=True`).

Prints every Chess960 start position by number (python-chess's Scharnagl numbering), then
plays seeded random games from random start positions (castling favoured) and prints, for
every half-move, what python-chess says. The Rust test `tests/oracle960.rs` replays the same
games and compares. python-chess is a test oracle only, never a runtime dependency.

Output (tab-separated):
  S <number> <x-fen>                      (all 960 start positions)
  G <x-fen>                               (a game starts; Chess960 mode)
  P <legal moves, UCI king-takes-rook, space-separated, sorted> <x-fen with the e.p. square as FEN records it>
  M <uci> <san> <probe-uci> <probe-legal>  (the move played, and a probe move asked about in the same position)
"""
import argparse
import random

import chess


def probe_move(board, rng):
    """A move text to ask about: often a castling attempt (the king onto one of its own rooks
    on its first rank), otherwise a random move of one of the mover's pieces."""
    king = board.king(board.turn)
    rooks = [sq for sq in board.pieces(chess.ROOK, board.turn) if chess.square_rank(sq) == chess.square_rank(king)]
    if rooks and rng.random() < 0.5:
        return chess.square_name(king) + chess.square_name(rng.choice(rooks))
    own = [sq for sq in chess.SQUARES if board.color_at(sq) == board.turn]
    frm = rng.choice(own)
    return chess.square_name(frm) + chess.square_name(rng.randrange(64))


def is_legal_uci(board, text):
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        return False
    return move in board.legal_moves


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = []
    for n in range(960):
        out.append(f"S\t{n}\t{chess.Board.from_chess960_pos(n).fen()}")
    for _ in range(args.games):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        out.append(f"G\t{board.fen()}")
        for _ply in range(rng.choice([40, 80, 160])):
            moves = list(board.legal_moves)
            if not moves or board.is_insufficient_material() or board.halfmove_clock >= 150:
                break
            texts = sorted(board.uci(m, chess960=True) for m in moves)
            out.append(f"P\t{' '.join(texts)}\t{board.fen(en_passant='fen')}")
            castles = [m for m in moves if board.is_castling(m)]
            move = rng.choice(castles) if castles and rng.random() < 0.6 else rng.choice(moves)
            probe = probe_move(board, rng)
            out.append(
                f"M\t{board.uci(move, chess960=True)}\t{board.san(move)}\t{probe}\t{int(is_legal_uci(board, probe))}"
            )
            board.push(move)
    print("\n".join(out))


if __name__ == "__main__":
    main()
