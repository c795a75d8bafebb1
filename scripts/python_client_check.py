#!/usr/bin/env python3
"""A real UCI client session with python-chess: configure every option, analyse with
MultiPV 3, play a short game against itself with a clock, ponder, and quit cleanly.
Exit status 0 on success. Used by tests/it/python_client.rs.

  scripts/python_client_check.py target/release/arbiter
"""
import sys

import chess
import chess.engine


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "target/release/arbiter"
    eng = chess.engine.SimpleEngine.popen_uci([path])
    assert eng.id.get("name", "").startswith("Arbiter"), eng.id
    names = set(eng.options)
    for want in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash"]:
        assert want in names, (want, names)
    # python-chess manages MultiPV and Ponder itself; configure the rest.
    eng.configure({"Hash": 32, "Threads": 2, "Move Overhead": 20, "Clear Hash": None})
    eng.configure({"Threads": 1})

    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = eng.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    assert len(infos) == 3, infos
    firsts = {i["pv"][0] for i in infos}
    assert len(firsts) == 3 and all(m in board.legal_moves for m in firsts), infos
    print("analyse multipv 3:", [(board.san(i["pv"][0]), str(i["score"].white())) for i in infos])

    # A short game with clocks (and pondering on for White).
    board = chess.Board()
    clocks = [3.0, 3.0]
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < 40:
        limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1], white_inc=0.02, black_inc=0.02)
        r = eng.play(board, limit, ponder=board.turn == chess.WHITE)
        assert r.move in board.legal_moves, r
        board.push(r.move)
    print("game:", board.fen(), len(board.move_stack), "plies")

    # Mate in 2 is found.
    board = chess.Board("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1")
    info = eng.analyse(board, chess.engine.Limit(depth=8))
    assert info["score"].white() == chess.engine.Mate(2), info
    eng.quit()
    print("python-chess session OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
