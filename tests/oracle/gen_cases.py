#!/usr/bin/env python3
"""Test oracle for Arbiter's referee, SAN and explain verdicts, using python-chess.

Plays seeded random games (biased towards repetitions, long quiet phases, promotions and
endgames) and prints, for every half-move, what python-chess says about it. The Rust test
`tests/oracle.rs` replays the same games and compares. python-chess is a test oracle only,
never a runtime dependency.

Output (tab-separated):
  G <start-fen>
  M <uci> <san> <check> <checkmate> <stalemate> <insufficient> <fivefold> <seventyfive> <legal-count> <probe-uci> <probe-legal>
where the flags describe the position after the move and the probe is a random (often
illegal) move text asked about in that position.
"""
import argparse
import random
import sys

import chess

STARTS = [
    chess.STARTING_FEN,
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 130 90",
    "4k3/8/3n4/8/8/2B5/8/4K3 w - - 140 100",
    "6k1/8/8/8/8/8/5Q2/6K1 w - - 145 100",
    "8/8/4k3/8/2q5/8/3K4/1R6 b - - 120 80",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
    "8/8/8/3k4/8/8/1BN5/4K3 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "k7/8/1K6/8/8/8/8/2R5 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
]


def probe_move(board, rng):
    """A random move text: mostly plausible (a piece of the side to move), sometimes nonsense."""
    own = [sq for sq in chess.SQUARES if board.color_at(sq) == board.turn]
    r = rng.random()
    if r < 0.25:
        frm = rng.randrange(64)
    else:
        frm = rng.choice(own)
    piece = board.piece_at(frm)
    if r > 0.6 and piece is not None:
        # Somewhere this kind of piece could reach on an empty board (or nearby for pawns).
        bb = chess.BB_EMPTY
        if piece.piece_type == chess.PAWN:
            step = 8 if piece.color == chess.WHITE else -8
            cands = [frm + d for d in (step, 2 * step, step - 1, step + 1, -step) if 0 <= frm + d < 64]
            to = rng.choice(cands)
        else:
            bb = chess.Board.empty()
            bb.set_piece_at(frm, piece)
            targets = list(bb.attacks(frm))
            if piece.piece_type == chess.KING:
                targets += [frm + 2, frm - 2] if 2 <= frm <= 61 else []
            to = rng.choice(targets) if targets else rng.randrange(64)
    else:
        to = rng.randrange(64)
    if to == frm:
        to = (to + 1) % 64
    promo = None
    if piece is not None and piece.piece_type == chess.PAWN and chess.square_rank(to) in (0, 7) and rng.random() < 0.8:
        promo = rng.choice([chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT])
    return chess.Move(frm, to, promo)


def _mates(board, move):
    board.push(move)
    try:
        return board.is_checkmate() or board.is_stalemate()
    finally:
        board.pop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    produced = 0
    while produced < args.positions:
        fen = rng.choice(STARTS)
        board = chess.Board(fen)
        out.write(f"G\t{board.fen()}\n")
        for _ in range(rng.randrange(10, 200)):
            legal = list(board.legal_moves)
            if not legal or board.is_fivefold_repetition() or board.is_seventyfive_moves():
                break
            move = None
            # Go back and forth to make repetitions (the move that undoes our last one).
            if len(board.move_stack) >= 2 and rng.random() < 0.35:
                last = board.move_stack[-2]
                back = chess.Move(last.to_square, last.from_square)
                if back in legal:
                    move = back
            if move is None:
                captures = [m for m in legal if board.is_capture(m)]
                checks = [m for m in legal if board.gives_check(m)] if rng.random() < 0.3 else []
                mates = [m for m in checks if board.is_into_check(m) is False and _mates(board, m)]
                if mates:
                    move = rng.choice(mates)
                elif checks:
                    move = rng.choice(checks)
                elif captures and rng.random() < 0.3:
                    move = rng.choice(captures)
                else:
                    move = rng.choice(legal)
            san = board.san(move)
            board.push(move)
            probe = probe_move(board, rng)
            probe_legal = probe in set(board.legal_moves)
            flags = [
                board.is_check(),
                board.is_checkmate(),
                board.is_stalemate(),
                board.is_insufficient_material(),
                board.is_fivefold_repetition(),
                board.is_seventyfive_moves(),
            ]
            fields = [move.uci(), san] + [str(int(f)) for f in flags]
            fields += [str(board.legal_moves.count()), probe.uci(), str(int(probe_legal))]
            out.write("M\t" + "\t".join(fields) + "\n")
            produced += 1
            if produced >= args.positions:
                break


if __name__ == "__main__":
    main()
