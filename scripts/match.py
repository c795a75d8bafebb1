#!/usr/bin/env python3
"""Play a match between Arbiter and another UCI engine (or itself) with python-chess.

Counts wins/draws/losses from Arbiter's point of view, time losses, illegal moves and
disconnects. Clocks are kept here (base + increment, wall time of each `go`), so a
time loss is what a GUI would declare. Openings: one FEN per line, each played with
both colours.

Examples:
  scripts/match.py --games 20 --tc 2+0.05 --opponent /usr/games/stockfish \
      --opp-option UCI_LimitStrength=true --opp-option UCI_Elo=1800
  scripts/match.py --games 100 --tc 1+0.01 --self      # self-play, checks robustness
"""
import argparse
import sys
import time

import chess
import chess.engine


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--engine", default="target/release/arbiter")
    p.add_argument("--opponent", default=None)
    p.add_argument("--opp-args", default="", help="extra argv for the opponent, e.g. --uci")
    p.add_argument("--self", action="store_true", help="play Arbiter against itself")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--tc", default="2+0.05", help="base+increment in seconds")
    p.add_argument("--hash", type=int, default=64)
    p.add_argument("--opp-option", action="append", default=[])
    p.add_argument("--openings", default="tests/data/openings.epd")
    p.add_argument("--max-plies", type=int, default=400)
    return p.parse_args()


def start(cmd, options):
    eng = chess.engine.SimpleEngine.popen_uci(cmd)
    if options:
        eng.configure(options)
    return eng


def main():
    a = parse_args()
    base, inc = (float(x) for x in a.tc.split("+"))
    openings = [l.strip() for l in open(a.openings) if l.strip()]
    opp_opts = {}
    for o in a.opp_option:
        k, v = o.split("=", 1)
        opp_opts[k] = v
    opp_cmd = [a.engine] if a.self else [a.opponent] + a.opp_args.split()
    stats = {"w": 0, "d": 0, "l": 0, "time_losses": 0, "opp_time_losses": 0, "illegal": 0, "disconnects": 0}
    arb = start([a.engine], {"Hash": a.hash})
    opp = start(opp_cmd, {"Hash": a.hash} if a.self else opp_opts)
    for g in range(a.games):
        fen = openings[(g // 2) % len(openings)]
        arb_white = g % 2 == 0
        board = chess.Board(fen)
        clocks = {chess.WHITE: base, chess.BLACK: base}
        result = None
        reason = ""
        for e in (arb, opp):
            try:
                e.protocol.send_line("ucinewgame")
            except Exception:
                pass
        while result is None:
            if board.is_game_over(claim_draw=True):
                result = board.result(claim_draw=True)
                reason = "rules"
                break
            if len(board.move_stack) >= a.max_plies:
                result, reason = "1/2-1/2", "max plies"
                break
            side = board.turn
            is_arb = (side == chess.WHITE) == arb_white
            eng = arb if is_arb else opp
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=inc, black_inc=inc)
            t0 = time.monotonic()
            try:
                res = eng.play(board, limit)
            except chess.engine.EngineTerminatedError:
                stats["disconnects"] += 1
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = "disconnect"
                if is_arb:
                    arb = start([a.engine], {"Hash": a.hash})
                else:
                    opp = start(opp_cmd, {"Hash": a.hash} if a.self else opp_opts)
                break
            except chess.engine.EngineError as ex:  # includes illegal moves
                stats["illegal"] += 1 if is_arb else 0
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = f"engine error {ex}"
                break
            used = time.monotonic() - t0
            clocks[side] -= used
            if clocks[side] < 0:
                stats["time_losses" if is_arb else "opp_time_losses"] += 1
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = f"time ({clocks[side]:.3f})"
                break
            clocks[side] += inc
            if res.move is None or res.move not in board.legal_moves:
                stats["illegal"] += 1 if is_arb else 0
                result = "0-1" if side == chess.WHITE else "1-0"
                reason = f"illegal move {res.move}"
                break
            board.push(res.move)
        arb_score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        if not arb_white:
            arb_score = 1.0 - arb_score if result != "1/2-1/2" else 0.5
        stats["w" if arb_score == 1 else "l" if arb_score == 0 else "d"] += 1
        n = g + 1
        pts = stats["w"] + stats["d"] / 2
        print(f"game {n}: arbiter {'white' if arb_white else 'black'} {result} ({reason}, {len(board.move_stack)} plies)"
              f"  total +{stats['w']} ={stats['d']} -{stats['l']}  {100 * pts / n:.1f}%", flush=True)
    for e in (arb, opp):
        try:
            e.quit()
        except Exception:
            pass
    n = a.games
    pts = stats["w"] + stats["d"] / 2
    print(f"RESULT games {n} +{stats['w']} ={stats['d']} -{stats['l']} score {100 * pts / n:.1f}% "
          f"arbiter_time_losses {stats['time_losses']} opponent_time_losses {stats['opp_time_losses']} "
          f"illegal {stats['illegal']} disconnects {stats['disconnects']}")


if __name__ == "__main__":
    sys.exit(main())
