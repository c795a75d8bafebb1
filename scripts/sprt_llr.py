#!/usr/bin/env python3
"""Reference log-likelihood ratio of the GSPRT that `arbiter selfplay --sprt` runs, for checking it.

    scripts/sprt_llr.py --elo0 0 --elo1 10 0 0 0 1 0     # pentanomial: pairs scoring 0, .5, 1, 1.5, 2
    scripts/sprt_llr.py --elo0 0 --elo1 5 40 20 60       # trinomial: losses, draws, wins

The model is Michel Van den Bergh's multinomial GSPRT ("Comments on Normalized Elo", proposition
1.1): for each hypothesis the maximum-likelihood distribution over the observed outcome values with
expected score s = 1 / (1 + 10^(-elo/400)); empty categories count 1e-3 (as fishtest, OpenBench
and fastchess regularise). The LLR is the number of samples times the difference of the two profile
log-likelihoods per sample. The engine solves for the Lagrange multiplier by bisection on the
stationarity equation; this script instead maximises the concave dual function
g(theta) = sum p_i ln(1 + theta (a_i - s)) by golden-section search and takes LLR = N (g0 - g1),
so the two do not share an algorithm.
"""
import argparse
import math


def expected_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def dual_max(probs, values, s):
    """max over theta of sum p_i ln(1 + theta (a_i - s)): the log-likelihood lost by forcing mean s."""
    lo = -1.0 / (max(values) - s)
    hi = -1.0 / (min(values) - s)

    def g(theta):
        return sum(p * math.log(1.0 + theta * (a - s)) for p, a in zip(probs, values))

    # g is concave on (lo, hi) and tends to -inf at both ends: golden-section search.
    inv_phi = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = lo, hi
    c, d = b - inv_phi * (b - a), a + inv_phi * (b - a)
    gc, gd = g(c), g(d)
    for _ in range(200):
        if gc > gd:
            b, d, gd = d, c, gc
            c = b - inv_phi * (b - a)
            gc = g(c)
        else:
            a, c, gc = c, d, gd
            d = a + inv_phi * (b - a)
            gd = g(d)
    return max(gc, gd)


def llr(counts, elo0, elo1):
    n = sum(counts)
    if n == 0:
        return 0.0
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    reg = [c if c > 0 else 1e-3 for c in counts]
    total = sum(reg)
    probs = [c / total for c in reg]
    g0 = dual_max(probs, values, expected_score(elo0))
    g1 = dual_max(probs, values, expected_score(elo1))
    return n * (g0 - g1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elo0", type=float, required=True)
    ap.add_argument("--elo1", type=float, required=True)
    ap.add_argument("counts", type=int, nargs="+", help="3 (L D W) or 5 (pair scores 0..2) counts")
    args = ap.parse_args()
    if len(args.counts) not in (3, 5):
        ap.error("give 3 or 5 counts")
    print(f"{llr(args.counts, args.elo0, args.elo1):.12f}")


if __name__ == "__main__":
    main()
