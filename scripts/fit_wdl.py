#!/usr/bin/env python3
"""Fit the win/draw/loss model of `UCI_ShowWDL` to Arbiter's own self-play results.

    scripts/fit_wdl.py DATA [DATA...] [--write src/engine/wdl_fit.rs] [--command "..."]

DATA is what `arbiter selfplay --datagen` writes: `FEN | score-cp-from-white | result` per quiet
position (result 1.0 / 0.5 / 0.0 for White). Each position becomes (v, m, outcome) from the side
to move's view: v the search score in centipawns, m the material (P=1, N=B=3, R=5, Q=9, both
sides, clamped to 17..78) and the game's outcome.

The model (src/engine/wdl.rs): P(win) = 1/(1+exp((a-v)/b)), P(loss) = 1/(1+exp((a+v)/b)),
P(draw) = the rest, with a and b quadratic in x = m/58. The six coefficients maximise the
likelihood of the observed outcomes (Nelder-Mead on counts binned by material and 10 cp of score;
scores beyond +-1500 are left out). Pure Python, no packages: it runs wherever the repository's
tests do. `scripts/wdl_refit.sh` makes the data and runs this in one command.
"""

import argparse
import datetime
import math
import subprocess
import sys
from collections import defaultdict

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}
SCORE_BIN = 10
SCORE_CAP = 1500


def material(board: str) -> int:
    return sum(VALUES.get(c.lower(), 0) for c in board)


def read(paths):
    """Weights per (material, score bin): [wins, draws, losses] from the side to move's view, each
    game weighing the same (a long drawn endgame would otherwise outweigh many short games).
    A game ends where the move number drops (--datagen writes each game's positions in order)."""
    bins = defaultdict(lambda: [0.0, 0.0, 0.0])
    games = []
    for path in paths:
        game, last_move = [], None
        with open(path) as f:
            for line in f:
                parts = [p.strip() for p in line.split("|")]
                if len(parts) != 3:
                    continue
                fen, score, result = parts
                fields = fen.split()
                try:
                    v, r, move = int(score), float(result), int(fields[5])
                except (ValueError, IndexError):
                    continue
                if last_move is not None and move < last_move:
                    games.append(game)
                    game = []
                last_move = move
                if abs(v) > SCORE_CAP:
                    continue
                if fields[1] == "b":
                    v, r = -v, 1.0 - r
                m = min(max(material(fields[0]), 17), 78)
                outcome = 0 if r > 0.75 else (1 if r > 0.25 else 2)
                game.append((m, SCORE_BIN * round(v / SCORE_BIN), outcome))
        games.append(game)
    games = [g for g in games if g]
    positions = sum(len(g) for g in games)
    mean = positions / max(len(games), 1)
    for g in games:
        for m, v, outcome in g:
            bins[(m, v)][outcome] += mean / len(g)
    return bins, positions, len(games)


def probabilities(theta, v, m):
    x = m / 58.0
    a = theta[0] + x * (theta[1] + x * theta[2])
    b = max(theta[3] + x * (theta[4] + x * theta[5]), 1.0)
    w = 1.0 / (1.0 + math.exp(min((a - v) / b, 700.0)))
    l = 1.0 / (1.0 + math.exp(min((a + v) / b, 700.0)))
    return w, max(1.0 - w - l, 1e-12), l


def neg_log_likelihood(theta, data):
    total = 0.0
    for (m, v), (nw, nd, nl) in data:
        w, d, l = probabilities(theta, v, m)
        total -= nw * math.log(max(w, 1e-12)) + nd * math.log(d) + nl * math.log(max(l, 1e-12))
    return total


def nelder_mead(f, x0, steps, iterations=4000, tol=1e-7):
    n = len(x0)
    simplex = [list(x0)] + [[x0[j] + (steps[j] if j == i else 0.0) for j in range(n)] for i in range(n)]
    values = [f(p) for p in simplex]
    for _ in range(iterations):
        order = sorted(range(n + 1), key=lambda i: values[i])
        simplex = [simplex[i] for i in order]
        values = [values[i] for i in order]
        if abs(values[-1] - values[0]) <= tol * (abs(values[0]) + 1e-12):
            break
        centroid = [sum(p[j] for p in simplex[:-1]) / n for j in range(n)]
        worst = simplex[-1]
        reflected = [centroid[j] + (centroid[j] - worst[j]) for j in range(n)]
        fr = f(reflected)
        if fr < values[0]:
            expanded = [centroid[j] + 2.0 * (centroid[j] - worst[j]) for j in range(n)]
            fe = f(expanded)
            simplex[-1], values[-1] = (expanded, fe) if fe < fr else (reflected, fr)
        elif fr < values[-2]:
            simplex[-1], values[-1] = reflected, fr
        else:
            contracted = [centroid[j] + 0.5 * (worst[j] - centroid[j]) for j in range(n)]
            fc = f(contracted)
            if fc < values[-1]:
                simplex[-1], values[-1] = contracted, fc
            else:
                best = simplex[0]
                simplex = [best] + [[best[j] + 0.5 * (p[j] - best[j]) for j in range(n)] for p in simplex[1:]]
                values = [values[0]] + [f(p) for p in simplex[1:]]
    i = min(range(n + 1), key=lambda k: values[k])
    return simplex[i], values[i]


def fit(bins):
    data = list(bins.items())
    f = lambda t: neg_log_likelihood(t, data)
    theta = [150.0, 0.0, 0.0, 70.0, 0.0, 0.0]
    best = f(theta)
    # Restarts from the optimum found so far, with shrinking steps, until it stops improving.
    for scale in (1.0, 0.3, 0.1, 0.03):
        theta, value = nelder_mead(f, theta, [100 * scale, 100 * scale, 100 * scale, 40 * scale, 40 * scale, 40 * scale])
        if best - value < 1e-3 and scale < 1.0:
            best = min(best, value)
            break
        best = min(best, value)
    return theta, best


def calibration_table(theta, bins):
    """Predicted vs observed outcome share by score band, pooled over material (a check)."""
    rows = []
    for lo in range(-600, 600, 100):
        n = [0, 0, 0]
        pred = [0.0, 0.0, 0.0]
        for (m, v), counts in bins.items():
            if lo <= v < lo + 100:
                for k in range(3):
                    n[k] += counts[k]
                p = probabilities(theta, v, m)
                c = sum(counts)
                for k in range(3):
                    pred[k] += p[k] * c
        total = sum(n)
        if total:
            rows.append((lo, round(total), [x / total for x in n], [x / total for x in pred]))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+")
    ap.add_argument("--write", help="write the coefficients to this Rust file (src/engine/wdl_fit.rs)")
    ap.add_argument("--command", default="", help="the command that made the data, recorded in the file")
    args = ap.parse_args()
    bins, positions, games = read(args.data)
    if positions < 1000:
        sys.exit(f"only {positions} usable positions: too few to fit")
    theta, nll = fit(bins)
    print(f"{positions} positions from {games} games, {len(bins)} bins, mean -log L {nll / positions:.4f}")
    print("a(x) = %.2f + %.2f x + %.2f x^2" % tuple(theta[:3]))
    print("b(x) = %.2f + %.2f x + %.2f x^2" % tuple(theta[3:]))
    print("score band   weight      observed W/D/L      predicted W/D/L")
    for lo, n, obs, pred in calibration_table(theta, bins):
        print(
            f"[{lo:5},{lo + 100:5})  {n:9}   {obs[0]:.3f}/{obs[1]:.3f}/{obs[2]:.3f}   "
            f"{pred[0]:.3f}/{pred[1]:.3f}/{pred[2]:.3f}"
        )
    if args.write:
        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        except OSError:
            commit = "?"
        today = datetime.date.today().isoformat()
        with open(args.write, "w") as f:
            f.write(
                "//! The fitted win/draw/loss model: written by `scripts/fit_wdl.py`, do not edit by hand\n"
                "//! (see docs/engine.md#win-draw-loss). `a` and `b` are quadratic in material / 58.\n"
                "//!\n"
                f"//! Fitted {today} at commit {commit} on {positions} positions from {games} games:\n"
                f"//! `{args.command}`\n\n"
                f"pub const A: [f64; 3] = [{theta[0]:.3f}, {theta[1]:.3f}, {theta[2]:.3f}];\n"
                f"pub const B: [f64; 3] = [{theta[3]:.3f}, {theta[4]:.3f}, {theta[5]:.3f}];\n"
            )
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
