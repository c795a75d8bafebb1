#!/usr/bin/env python3
"""Calibrate Arbiter's strength levels (UCI_LimitStrength / UCI_Elo) against engines with published
CCRL Blitz ratings, and refit the level-to-skill map.

    scripts/calibrate_levels.py [--games 100] [--tc 10+0.1] [--concurrency 2] [--passes 2] [--write]

For every level in --levels, cutechess-cli plays --games games (openings from tests/data/openings.epd,
each played with both colours) against the anchors rated nearest to it, split evenly. A level's Elo
is the maximum-likelihood rating given the anchors' fixed CCRL Blitz ratings; its 95% interval
comes from the games' observed variance. The measured (skill, Elo) points, made monotone, become
the new map (src/engine/strength_fit.rs): each level is then played at the skill the map gives
for its label. With --passes 2 (the default) the first pass fits the map and the second plays
the refitted levels: its table is the one that shows each label against its measured Elo. Passes
stop early once every level is within --tolerance (100) of its label.

--write updates src/engine/strength_fit.rs and the table in docs/levels.md (between the
`calibration` markers). Everything it played stays in --out (PGN, cutechess logs, results.json).

Reference engines (Debian packages; their CCRL Blitz ratings, see ANCHORS) speak xboard except where
noted; each game uses one core per engine and no pondering, so with --concurrency at most the
number of cores, each side of a game has one core. Run it on an otherwise idle machine: the
anchors play by the clock, while a level's strength is set by nodes (load weakens only them).
"""

import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# CCRL Blitz (2'+1", single CPU, https://computerchess.org.uk/ccrl/404/), the list's best-version
# table as scraped on 2026-01-18 by the Elox rating aggregator (github.com/op12no2/chess-archive,
# elox/data.js). Only engines whose rated version is the Debian package's, or plays the same
# chess, are anchors.
HOI_RC = "hash size 32M\npawnhash size 4M\nevalcache size 4M\n"  # hoichess.rc without its book


@dataclass
class Anchor:
    name: str
    rating: float  # None for a derived anchor until it is rated in the run
    note: str
    args: list = field(default_factory=list)
    base: list = field(default_factory=list)  # a derived anchor is rated against these first
    ci: float = 0.0  # 95% half-width of a derived anchor's rating
    # True: the list's rating is not this program's (a proxy). The engine is then rated in every run,
    # jointly with the levels, from the games the levels play against it and against the exactly
    # rated anchors; `rating` only chooses which levels play it.
    rated_in_run: bool = False


ANCHORS = [
    Anchor("HoiChess 0.22.0", 1798, "HoiChess 0.22.0 (Debian 0.22.0-3), own book off",
           ["cmd=/usr/games/hoichess", "proto=xboard", "arg=--norc", "arg=--source", "arg={hoi_rc}", "arg=-x"]),
    # The list rates Micro-Max 4.8 (1853), not Fairy-Max 5.0b. Played as if it were 1853, it disagreed
    # with HoiChess and Phalanx by 200 to 300 Elo in every pass (docs/levels.md), so it is rated in the
    # run; 2110 is its rating from the pass of 2026-11-30 at 6+0.06 (only used to pick opponents).
    Anchor("Fairy-Max 5.0b", 2110, "rated in the run (the list's 1853 is Micro-Max 4.8's)",
           ["cmd=/usr/games/fairymax", "proto=xboard"], rated_in_run=True),
    Anchor("Phalanx XXV", 2644, "Phalanx XXV (Debian 25-1), book and learning off",
           ["cmd=/usr/games/phalanx", "proto=xboard", "arg=-l-", "arg=-b-"]),
    # Below the weakest rated engine: Fairy-Max held to a fixed depth, rated in every run against
    # the engines above (so the chain is real engines only, never Arbiter against itself).
    Anchor("Fairy-Max 5.0b depth 2", None, "Fairy-Max 5.0b searching 2 plies, rated in the run",
           ["cmd=/usr/games/fairymax", "proto=xboard", "depth=2"], base=["HoiChess 0.22.0", "Fairy-Max 5.0b"]),
    Anchor("Fairy-Max 5.0b depth 1", None, "Fairy-Max 5.0b searching 1 ply, rated in the run",
           ["cmd=/usr/games/fairymax", "proto=xboard", "depth=1"],
           base=["Fairy-Max 5.0b depth 2", "HoiChess 0.22.0"]),
]


def engine_args(a: Anchor, hoi_rc: str):
    return [x.format(hoi_rc=hoi_rc) for x in a.args] + [f"name={a.name}"]


def level_table(binary):
    """{elo: skill} from `arbiter levels` (the engine's own map)."""
    out = subprocess.run([binary, "levels"] + [str(e) for e in range(1000, 2801, 50)],
                         capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines()[1:]:
        f = line.split()
        table[int(f[0])] = float(f[1])
    return table


def anchors_for(level, window):
    rated = [a for a in ANCHORS if a.rating is not None]
    near = [a for a in rated if abs(a.rating - level) <= window]
    if not near:
        near = sorted(rated, key=lambda a: abs(a.rating - level))[:1]
    return near


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def arbiter_args(binary, level):
    return [f"cmd={os.path.abspath(binary)}", f"name=Arbiter {level}", "proto=uci",
            "option.UCI_LimitStrength=true", f"option.UCI_Elo={level}", "option.Threads=1", "option.Hash=16"]


def play(first, name, anchor, games, args, outdir, hoi_rc, seed):
    """Plays `games` games of the engine `first` (cutechess-cli engine arguments, named `name`)
    against `anchor`; returns (wins, draws, losses) for `name`."""
    tag = f"{slug(name)}-vs-{slug(anchor.name)}"
    pgn = os.path.join(outdir, f"{tag}.pgn")
    log = os.path.join(outdir, f"{tag}.log")
    cmd = ["cutechess-cli", "-engine"] + first + ["-engine"] + engine_args(anchor, hoi_rc) + [
           "-each", f"tc={args.tc}", "timemargin=200",
           "-games", "2", "-rounds", str(max(1, games // 2)), "-repeat",
           "-openings", f"file={args.openings}", "format=epd", "order=random",
           "-srand", str(seed),
           "-draw", "movenumber=40", "movecount=8", "score=10",
           "-resign", "movecount=4", "score=1000", "twosided=true",
           "-concurrency", str(args.concurrency), "-recover", "-pgnout", pgn]
    if os.path.exists(pgn):
        os.remove(pgn)
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n")
        f.flush()
        subprocess.run(["nice", "-n", str(args.nice)] + cmd, stdout=f, stderr=subprocess.STDOUT, check=False)
    return score_pgn(pgn, name)


def score_pgn(path, name):
    w = d = l = 0
    white = black = None
    if not os.path.exists(path):
        print(f"no games in {path}: see its .log", flush=True)
        return w, d, l
    with open(path) as f:
        for line in f:
            m = re.match(r'\[(White|Black|Result) "(.*)"\]', line)
            if not m:
                continue
            if m.group(1) == "White":
                white = m.group(2)
            elif m.group(1) == "Black":
                black = m.group(2)
            else:
                r = m.group(2)
                ours = 0 if white == name else (1 if black == name else None)
                if ours is None or r not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                if r == "1/2-1/2":
                    d += 1
                elif (r == "1-0") == (ours == 0):
                    w += 1
                else:
                    l += 1
    return w, d, l


def expected(diff):
    return 1.0 / (1.0 + 10 ** (-diff / 400.0))


def rating(rows):
    """ML rating against fixed opponent ratings, and its 95% half-width. rows: (opp_rating, w, d, l)."""
    rows = [r for r in rows if sum(r[1:]) > 0]
    if not rows:
        return None, None
    n = sum(sum(r[1:]) for r in rows)
    points = sum(w + d / 2 for _, w, d, _ in rows)
    # Perfect scores have no finite ML rating: count them as half a game short of perfect.
    points = min(max(points, 0.25), n - 0.25)
    lo, hi = -1000.0, 5000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if sum(sum(r[1:]) * expected(mid - r[0]) for r in rows) < points:
            lo = mid
        else:
            hi = mid
    est = (lo + hi) / 2
    c = math.log(10) / 400
    info = sum(sum(r[1:]) * expected(est - r[0]) * (1 - expected(est - r[0])) for r in rows) * c
    var = 0.0
    for _, w, d, l in rows:
        g = w + d + l
        s = (w + d / 2) / g
        var += g * (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / g
    var = max(var, 0.25 * 0.25 * n)  # no less than a game's worth of spread when scores are one-sided
    return est, 1.96 * math.sqrt(var) / info


def joint_fit(results):
    """Rates every level of `results` (dicts with "games": [(anchor, rating, w, d, l)]) against the
    anchors, the anchors rated in the run included: their ratings and the levels' are fitted together
    (alternating maximum likelihood until nothing moves), the exactly rated anchors held fixed.
    Sets each result's "elo" and "ci"; returns {anchor: (rating, ci)} for the anchors rated in the run."""
    by_name = {a.name: a for a in ANCHORS}
    free = {a.name: [a.rating, 0.0] for a in ANCHORS if a.rated_in_run
            and any(g[0] == a.name for r in results for g in r["games"])}

    def opp_rating(name):
        return free[name][0] if name in free else by_name[name].rating

    def opp_ci(name):
        return free[name][1] if name in free else by_name[name].ci

    for _ in range(200):
        moved = 0.0
        for r in results:
            r["elo"], r["ci"] = rating([(opp_rating(g[0]), g[2], g[3], g[4]) for g in r["games"]])
        for name in free:
            rows = [(r["elo"], g[4], g[3], g[2]) for r in results for g in r["games"] if g[0] == name]
            est, ci = rating(rows)
            moved = max(moved, abs(est - free[name][0]))
            free[name] = [est, ci]
        if moved < 0.05:
            break
    for r in results:
        n = sum(g[2] + g[3] + g[4] for g in r["games"])
        anchor_ci = sum((g[2] + g[3] + g[4]) * opp_ci(g[0]) for g in r["games"]) / max(n, 1)
        r["ci"] = math.hypot(r["ci"], anchor_ci)
        r["games"] = [(g[0], opp_rating(g[0])) + tuple(g[2:]) for g in r["games"]]
    return {k: tuple(v) for k, v in free.items()}


def linear_map(results):
    """The map: Elo = a + b * skill, least squares weighted by each point's 1/ci^2 (points whose
    interval is wider than 400 Elo, i.e. one-sided scores, carry no weight). Returned as its two
    ends at the lowest and highest skill measured; the engine extends the end segments."""
    pts = [(r["skill"], r["elo"], 1.0 / r["ci"] ** 2) for r in results if r["ci"] and r["ci"] <= 400]
    if len({s for s, _, _ in pts}) < 2:
        sys.exit("calibrate_levels: a line needs measured points (interval <= 400 Elo) at two or more "
                 f"levels; got {len(pts)}: play more games or more levels")
    sw = sum(w for _, _, w in pts)
    ms = sum(s * w for s, _, w in pts) / sw
    me = sum(e * w for _, e, w in pts) / sw
    b = sum(w * (s - ms) * (e - me) for s, e, w in pts) / sum(w * (s - ms) ** 2 for s, _, w in pts)
    lo, hi = min(s for s, _, _ in pts), max(s for s, _, _ in pts)
    return [(round(lo, 2), round(me + b * (lo - ms), 1)), (round(hi, 2), round(me + b * (hi - ms), 1))]


def write_fit(points, provenance):
    path = os.path.join(ROOT, "src/engine/strength_fit.rs")
    with open(path, "w") as f:
        f.write("//! The measured strength of the levels: written by `scripts/calibrate_levels.py`, do not\n"
                "//! edit by hand (see docs/levels.md). Each point is (skill, Elo on the CCRL Blitz scale).\n"
                "//!\n")
        for line in provenance:
            f.write(f"//! {line}\n")
        f.write("\npub const POINTS: &[(f64, f64)] = &[\n")
        for s, e in points:
            f.write(f"    ({s:.2f}, {e:.1f}),\n")
        f.write("];\n")
    subprocess.run(["rustfmt", "--edition", "2021", path], check=False)  # the repository's layout


def rate_derived(args, hoi_rc, outdir):
    """Rates each derived anchor against its base anchors (in list order); returns table lines."""
    by_name = {a.name: a for a in ANCHORS}
    lines = []
    for i, a in enumerate(ANCHORS):
        if not a.base:
            continue
        rows = []
        for b in (by_name[n] for n in a.base):
            w, d, l = play(engine_args(a, hoi_rc), a.name, b, args.derived_games // len(a.base), args, outdir,
                           hoi_rc, args.seed + 7 * i)
            rows.append((b.rating, w, d, l))
            lines.append(f"| {a.name} | {b.name} ({b.rating:.0f}) | {w} / {d} / {l} |")
            print(f"{a.name} vs {b.name}: +{w} ={d} -{l}", flush=True)
        a.rating, ci = rating(rows)
        base_ci = max((by_name[n].ci for n in a.base), default=0.0)
        a.ci = math.hypot(ci, base_ci)
        lines.append(f"| **{a.name}** | all | rated **{a.rating:.0f} ± {a.ci:.0f}** |")
        print(f"{a.name}: {a.rating:.0f} ± {a.ci:.0f}", flush=True)
    return lines


def markdown(results, header, derived, in_run=None):
    lines = header
    for name, (r, ci) in (in_run or {}).items():
        lines += [f"{name}, rated in the run from all games of the levels: **{r:.0f} ± {ci:.0f}**."]
    if derived:
        lines += ["", "Anchors below the rated engines, rated in this run:", "",
                  "| anchor | against | W / D / L |", "|---|---|---|"] + derived
    lines += ["", "| level | skill | opponent (rating) | W / D / L | measured Elo ± 95% |",
              "|---|---|---|---|---|"]
    by_name = {a.name: a for a in ANCHORS}
    for r in results:
        for opp, orating, w, d, l in r["games"]:
            est, ci = rating([(orating, w, d, l)])
            ci = math.hypot(ci, (in_run or {}).get(opp, (0, by_name[opp].ci))[1])
            lines.append(f"| {r['level']} | {r['skill']:.1f} | {opp} ({orating:.0f}) | {w} / {d} / {l} | "
                         f"{est:.0f} ± {ci:.0f} |")
        ok = "within ±100" if abs(r["elo"] - r["level"]) <= 100 else "**off by more than 100**"
        lines.append(f"| **{r['level']}** | | all | {r['w']} / {r['d']} / {r['l']} | "
                     f"**{r['elo']:.0f} ± {r['ci']:.0f}** ({ok}) |")
    return "\n".join(lines)


def update_docs(text):
    path = os.path.join(ROOT, "docs/levels.md")
    doc = open(path).read()
    begin, end = "<!-- calibration:begin -->", "<!-- calibration:end -->"
    i, j = doc.index(begin) + len(begin), doc.index(end)
    open(path, "w").write(doc[:i] + "\n" + text + "\n" + doc[j:])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target/release/arbiter"))
    ap.add_argument("--levels", default="1000,1400,1800,2200,2600,2800")
    ap.add_argument("--games", type=int, default=100, help="games per level (even)")
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--tolerance", type=float, default=100)
    ap.add_argument("--window", type=float, default=450, help="anchors within this many Elo of a level")
    ap.add_argument("--derived-games", type=int, default=100,
                    help="games to rate each derived anchor (0: no derived anchors)")
    ap.add_argument("--openings", default=os.path.join(ROOT, "tests/data/openings.epd"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--out", default=os.path.join(ROOT, "target/levels"))
    ap.add_argument("--write", action="store_true", help="update strength_fit.rs and docs/levels.md")
    ap.add_argument("--rebuild", action="store_true", help="cargo build --release after refitting (with --write)")
    ap.add_argument("--refit", nargs="+", metavar="RESULTS_JSON",
                    help="play nothing: write the map fitted to the points of these results-pass*.json files")
    args = ap.parse_args()
    if args.refit:
        results = [r for path in args.refit for r in json.load(open(path))["results"]]
        in_run = joint_fit(results)
        fitted = linear_map(results)
        write_fit(fitted, [f"Source: `scripts/calibrate_levels.py --refit {' '.join(args.refit)}`,",
                           f"{datetime.date.today().isoformat()}: the line fitted to the measured points of those runs."])
        for r in sorted(results, key=lambda r: r["skill"]):
            print(f"skill {r['skill']:6.2f}: {r['elo']:.0f} ± {r['ci']:.0f}")
        print(f"rated in the run: {in_run}\nnew map: {fitted}")
        return
    levels = [int(x) for x in args.levels.split(",")]
    args.out = os.path.abspath(args.out)  # the engines do not run in this directory
    os.makedirs(args.out, exist_ok=True)
    hoi_rc = os.path.join(args.out, "hoichess.rc")
    open(hoi_rc, "w").write(HOI_RC)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    command = "scripts/calibrate_levels.py " + " ".join(sys.argv[1:])
    if args.derived_games == 0:
        ANCHORS[:] = [a for a in ANCHORS if not a.base]
    derived = rate_derived(args, hoi_rc, args.out)
    played = []  # every level of every pass of this run: the map is fitted to all of them
    for p in range(1, args.passes + 1):
        skills = level_table(args.binary)
        results = []
        for level in levels:
            opps = anchors_for(level, args.window)
            per = max(2, (args.games // len(opps)) // 2 * 2)
            games = []
            for a in opps:
                w, d, l = play(arbiter_args(args.binary, level), f"Arbiter {level}", a, per, args, args.out,
                               hoi_rc, args.seed + level + 10000 * p)
                games.append((a.name, a.rating, w, d, l))
                print(f"pass {p}: {level} vs {a.name}: +{w} ={d} -{l}", flush=True)
            skill = skills[min(skills, key=lambda e: abs(e - level))]
            results.append({"level": level, "skill": skill, "games": games,
                            "w": sum(g[2] for g in games), "d": sum(g[3] for g in games),
                            "l": sum(g[4] for g in games)})
        in_run = joint_fit(results)
        for r in results:
            print(f"pass {p}: level {r['level']} (skill {r['skill']:.1f}) measures {r['elo']:.0f} ± {r['ci']:.0f}",
                  flush=True)
        json.dump({"pass": p, "tc": args.tc, "commit": commit, "results": results, "rated_in_run": in_run},
                  open(os.path.join(args.out, f"results-pass{p}.json"), "w"), indent=1)
        header = [f"Measured {datetime.date.today().isoformat()} at commit `{commit}`, pass {p} of "
                  f"`{command}` (tc {args.tc}, {args.games} games per level, concurrency {args.concurrency}).",
                  f"Anchors: CCRL Blitz ratings as listed in `scripts/calibrate_levels.py`."]
        table = markdown(results, header, derived, in_run)
        print(table, flush=True)
        open(os.path.join(args.out, f"table-pass{p}.md"), "w").write(table + "\n")
        played += [dict(r, games=list(r["games"])) for r in results]
        within = all(abs(r["elo"] - r["level"]) <= args.tolerance for r in results)
        if not args.write:
            continue
        update_docs(table)
        if within:
            print("every level is within tolerance: the map stays as measured", flush=True)
            break
        joint_fit(played)  # the anchors rated in the run, from every game of the run
        points = linear_map(played)
        write_fit(points, [f"Source: passes 1-{p} of `{command}`,", f"{datetime.date.today().isoformat()}, commit {commit}, "
                           f"tc {args.tc}, {args.games} games per level: the line fitted to the measured points."])
        print(f"new map: {points}", flush=True)
        if args.rebuild and p < args.passes:
            subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)

if __name__ == "__main__":
    main()
