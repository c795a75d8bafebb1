#!/usr/bin/env python3
"""Where a gauntlet's games turn, read from the two engines' own scores in its PGNs.

    scripts/gauntlet_evals.py gauntlet-2cda9c0            # every OPPONENT.pgn in the directory
    scripts/gauntlet_evals.py gauntlet-2cda9c0/ethereal.pgn

Needs the move comments cutechess-cli and fastchess write (`{+0.31/16 0.352s}`: the mover's score in
pawns, then its depth). For every decisive game the winner's **turning point** is its first score of at
least +1.50 after which its scores never fall below +0.75. Printed per side (Arbiter's losses, then its
wins): how many plies after the opening position the turning point came (median and quartiles), how
many pieces were left on the board (captures counted from the SAN), what the loser's next score said
about the same position (the winner's lead as the loser saw it, median), and how many plies later the
loser's own score first fell to -1.50 (median and quartiles; games where it never did are counted apart).

Then the **scale** of Arbiter's scores against the opponent's: each pair of consecutive scores by the
two engines, both from White's view, banded by the opponent's |score|; per band the share where Arbiter
agrees on the sign and the median ratio Arbiter / opponent where it does. A ratio below 1 means
Arbiter's centipawns are smaller than the opponent's for the same position (one ply apart).
Python 3, no packages.
"""
import pathlib
import re
import statistics
import sys

from gauntlet_diff import games  # the same PGN reading as the bar's arithmetic

TOKEN = re.compile(r"\{([^}]*)\}|(\S+)")
NOT_MOVE = re.compile(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*|\$\d+)$")
SCORE = re.compile(r"^\s*([+-]?)(M)?(\d+(?:\.\d+)?)/\d+")
LEAD, HOLD = 150, 75
MATE_CP = 10000
ENGINE = "Arbiter"


def plies(tags, movetext):
    """[(mover is White, cp from the mover's view or None, pieces on the board after the move)]."""
    fen = tags.get("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    board, side = fen.split()[:2]
    pieces = sum(c.isalpha() for c in board)
    white = side == "w"
    out = []
    for m in TOKEN.finditer(movetext):
        comment, token = m.groups()
        if comment is not None:
            s = SCORE.match(comment)
            if s and out and out[-1][1] is None:
                sign = -1 if s.group(1) == "-" else 1
                out[-1][1] = sign * (MATE_CP if s.group(2) else round(float(s.group(3)) * 100))
        elif not NOT_MOVE.match(token):
            if "x" in token:
                pieces -= 1
            out.append([white, None, pieces])
            white = not white
    return out


def turning(seq, winner_white):
    """Index in seq of the winner's turning point, or None."""
    own = [i for i, (w, cp, _) in enumerate(seq) if w == winner_white and cp is not None]
    for k, i in enumerate(own):
        if seq[i][1] >= LEAD and all(seq[j][1] >= HOLD for j in own[k:]):
            return i
    return None


def quartiles(xs):
    if not xs:
        return "-"
    if len(xs) == 1:
        return f"{xs[0]}"
    q = statistics.quantiles(xs, n=4)
    return f"{statistics.median(xs):g} ({q[0]:g} .. {q[2]:g})"


def report(path):
    turns = {"losses": [], "wins": []}
    bands = [(50, 100), (100, 200), (200, 400), (400, 800)]
    scale = {b: [] for b in bands}
    decisive = {"losses": 0, "wins": 0}
    for tags, movetext in games(path):
        white, black, result = tags.get("White", ""), tags.get("Black", ""), tags.get("Result", "*")
        if not (white.startswith(ENGINE) or black.startswith(ENGINE)):
            continue
        ours_white = white.startswith(ENGINE)
        seq = plies(tags, movetext)
        for a, b in zip(seq, seq[1:]):
            if a[1] is None or b[1] is None or abs(a[1]) >= MATE_CP or abs(b[1]) >= MATE_CP:
                continue
            # Both from White's view; which of the two is Arbiter's.
            va = a[1] if a[0] else -a[1]
            vb = b[1] if b[0] else -b[1]
            arb, opp = (va, vb) if a[0] == ours_white else (vb, va)
            for lo, hi in bands:
                if lo <= abs(opp) < hi:
                    scale[(lo, hi)].append(arb / opp)
        if result not in ("1-0", "0-1"):
            continue
        winner_white = result == "1-0"
        kind = "wins" if winner_white == ours_white else "losses"
        decisive[kind] += 1
        i = turning(seq, winner_white)
        if i is None:
            continue
        loser_next = next((cp for w, cp, _ in seq[i + 1:] if w != winner_white and cp is not None), None)
        agree = next((j - i for j in range(i + 1, len(seq))
                      if seq[j][0] != winner_white and seq[j][1] is not None and seq[j][1] <= -LEAD), None)
        turns[kind].append((i + 1, seq[i][2], None if loser_next is None else -loser_next, agree))
    print(f"== {path}")
    for kind in ("losses", "wins"):
        t = turns[kind]
        seen = [x[2] for x in t if x[2] is not None]
        lags = [x[3] for x in t if x[3] is not None]
        who = "Arbiter" if kind == "losses" else "the opponent"
        print(f"{ENGINE}'s {kind}: {decisive[kind]}, a turning point in {len(t)}: ply {quartiles([x[0] for x in t])}, "
              f"pieces {quartiles([x[1] for x in t])} (<= 12: {sum(x[1] <= 12 for x in t)}, "
              f"13-20: {sum(13 <= x[1] <= 20 for x in t)}, > 20: {sum(x[1] > 20 for x in t)}); "
              f"the lead as {who} saw it: {statistics.median(seen) if seen else '-'} cp; "
              f"{who} at -{LEAD} after {quartiles(lags)} plies (never: {len(t) - len(lags)})")
    for (lo, hi), ratios in scale.items():
        same = [r for r in ratios if r > 0]
        if ratios:
            print(f"scale, opponent |score| {lo}-{hi} cp: {len(ratios)} pairs, same sign {len(same) / len(ratios):.2f}, "
                  f"median {ENGINE} / opponent {statistics.median(same) if same else float('nan'):.2f}")


def main(args):
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    for arg in args:
        p = pathlib.Path(arg)
        files = sorted(p.glob("*.pgn")) if p.is_dir() else [p]
        if not files or not all(f.is_file() for f in files):
            print(f"no PGN files: {arg}", file=sys.stderr)
            return 2
        for f in files:
            report(f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
