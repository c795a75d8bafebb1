#!/usr/bin/env python3
"""Elo of one or two gauntlets (scripts/gauntlet.sh output) and the difference between them.

    scripts/gauntlet_diff.py gauntlet-a0accca gauntlet-new        # old, then new
    scripts/gauntlet_diff.py a0accca gauntlet-new                 # old as recorded in bench/gauntlets.tsv
    scripts/gauntlet_diff.py gauntlet-new                         # one gauntlet alone
    scripts/gauntlet_diff.py --record gauntlet-new >> bench/gauntlets.tsv

A gauntlet is a directory of PGNs or the label of a build recorded in bench/gauntlets.tsv (one row a
pairing: W-D-L, pentanomial, endings, PGN md5), so a bar measured once stays comparable after its
PGNs are gone; `--record DIR` prints a directory's rows in that form.

For every opponent PGN in the directories (`OPPONENT.pgn`): Arbiter's W-D-L, score, the game pairs
(pentanomial: the two games of one opening, cutechess-cli's `Round`), Elo with its 95 % interval
from the pentanomial variance, and how the games ended (time forfeits, illegal moves and
disconnections are counted by the `Termination` tag and the result comment, Arbiter's as `on time`,
`illegal`, `disconnect` and the opponent's as `opponent on time` and so on). With two directories,
per opponent and over the opponents both played: new minus old, with the 95 % interval of the
difference of two independent estimates (delta method; games in pairs). Python 3, no packages.
"""
import hashlib
import math
import os
import pathlib
import re
import sys
from collections import Counter, defaultdict

Z95 = 1.959963984540054
TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
# cutechess-cli writes how a game ended as the comment of the result, e.g. {White loses on time}.
ENDING_KINDS = {"on time": ("on time", "time forfeit"), "illegal": ("illegal",),
                "disconnect": ("disconnect", "stalls", "crash")}
# GAUNTLET_RECORD names another record file (tests).
RECORD = pathlib.Path(os.environ.get("GAUNTLET_RECORD")
                      or pathlib.Path(__file__).resolve().parent.parent / "bench" / "gauntlets.tsv")
RECORD_COLUMNS = ["date", "build", "opponent", "tc", "games", "wins", "draws", "losses", "pairs",
                  "endings", "pgn_md5"]
ENDING = re.compile(r"\{([^{}]*)\}\s*(1-0|0-1|1/2-1/2|\*)\s*$")


def games(pgn_path):
    """Yields (tags, movetext on one line) for every game of a PGN file (also used by gauntlet_evals.py)."""
    tags, movetext = {}, []
    for line in pgn_path.read_text(encoding="utf-8", errors="replace").splitlines() + ["[End \"\"]"]:
        m = TAG.match(line)
        if m and movetext:
            yield tags, " ".join(movetext)
            tags, movetext = {}, []
        if m:
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            movetext.append(line.strip())


def result_comment(movetext):
    """The comment of a game's result: how it ended, or ""."""
    e = ENDING.search(movetext)
    return e.group(1) if e else ""


class Tally:
    def __init__(self):
        self.wdl = [0, 0, 0]
        self.pairs = defaultdict(list)
        self.endings = Counter()

    def add(self, tags, ending, engine_prefix):
        white, black, result = tags.get("White", ""), tags.get("Black", ""), tags.get("Result", "*")
        if white.startswith(engine_prefix):
            ours = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
        elif black.startswith(engine_prefix):
            ours = {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}.get(result)
        else:
            raise SystemExit(f"a game without {engine_prefix}: {white} - {black}")
        if ours is None:
            self.endings["unfinished"] += 1
            return
        self.wdl[{1.0: 0, 0.5: 1, 0.0: 2}[ours]] += 1
        self.pairs[tags.get("Round", str(sum(self.wdl)))].append(ours)
        low = (ending + " " + tags.get("Termination", "")).lower()
        # The comment names the side at fault ("Black loses on time", "White makes an illegal move"),
        # after the move's score where there is one; the opponent's faults are counted apart from ours,
        # which the bar requires to be none. A fault without a side named is counted as ours.
        m = re.search(r"\b(White|Black)\b(?:'s)? (?:loses|makes|disconnects|connection)", ending)
        ours_colour = "White" if white.startswith(engine_prefix) else "Black"
        whose = "opponent " if m and m.group(1) != ours_colour else ""
        # cutechess-cli says a time loss twice (the comment and `Termination "time forfeit"`): one count a game.
        for kind, words in ENDING_KINDS.items():
            if any(w in low for w in words):
                self.endings[whose + kind] += 1

    @classmethod
    def recorded(cls, row):
        """A pairing as bench/gauntlets.tsv records it. The pairs keep only their points, all the
        variance needs; each pair of k half-points is stood in for by two game scores summing to k/2."""
        t = cls()
        t.wdl = [int(row["wins"]), int(row["draws"]), int(row["losses"])]
        counts = [int(c) for c in row["pairs"].split()]
        if len(counts) != 5:
            raise SystemExit(f"{RECORD}: pairs of {row['build']} vs {row['opponent']} are not five counts")
        halves = [(0.0, 0.0), (0.5, 0.0), (0.5, 0.5), (1.0, 0.5), (1.0, 1.0)]
        for k, c in enumerate(counts):
            for _ in range(c):
                t.pairs[f"r{len(t.pairs)}"] = list(halves[k])
        if sum(counts) * 2 != t.games():
            raise SystemExit(f"{RECORD}: {row['build']} vs {row['opponent']}: pairs do not add up to its games")
        if row["endings"] != "none":
            for item in row["endings"].split(", "):
                kind, _, n = item.rpartition(" ")
                t.endings[kind] = int(n)
        return t

    def games(self):
        return sum(self.wdl)

    def pentanomial(self):
        """How many complete pairs scored 0, 0.5, 1, 1.5 and 2 points."""
        pent = Counter(round(sum(p) * 2) for p in self.pairs.values() if len(p) == 2)
        return [pent.get(k, 0) for k in range(5)]

    def endings_text(self):
        """`on time 2, opponent illegal 1`, or `none`: the form describe prints and the record stores."""
        return ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items())) or "none"

    def score(self):
        w, d, _ = self.wdl
        return (w + d / 2) / self.games()

    def score_variance(self):
        """Variance of the mean score, from the game pairs (pentanomial) where every round has two games."""
        pairs = list(self.pairs.values())
        if pairs and all(len(p) == 2 for p in pairs):
            s = [sum(p) / 2 for p in pairs]
            mean = sum(s) / len(s)
            return sum((x - mean) ** 2 for x in s) / len(s) / len(s)
        n = self.games()
        mean = self.score()
        w, d, l = self.wdl
        return (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + l * mean**2) / n / n

    def elo(self):
        """(Elo, low, high, standard error in Elo by the delta method)."""
        s = min(max(self.score(), 1e-6), 1 - 1e-6)
        se = math.sqrt(self.score_variance())
        slope = 400 / math.log(10) / (s * (1 - s))
        return elo(s), elo(s - Z95 * se), elo(s + Z95 * se), se * slope


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0.0" at 50 %


def recorded(build):
    rows = []
    if RECORD.exists():
        lines = [l for l in RECORD.read_text(encoding="utf-8").splitlines() if l and not l.startswith("#")]
        header = lines[0].split("\t") if lines else []
        if header != RECORD_COLUMNS:
            raise SystemExit(f"{RECORD}: the first line must be the columns {RECORD_COLUMNS}")
        rows = [dict(zip(header, l.split("\t"))) for l in lines[1:]]
    out = {r["opponent"]: Tally.recorded(r) for r in rows if r["build"] == build}
    if not out:
        raise SystemExit(f"{build}: neither a gauntlet directory nor a build recorded in {RECORD}")
    return out


def gauntlet(directory):
    """A gauntlet's pairings by opponent: the PGNs of a directory, or a recorded build's rows."""
    d = pathlib.Path(directory)
    if not d.is_dir():
        return recorded(directory)
    pgns = sorted(d.glob("*.pgn"))
    if not pgns:
        raise SystemExit(f"no PGN files in {d}")
    out = {}
    for pgn in pgns:
        tally = Tally()
        label = "Arbiter-" + d.name.removeprefix("gauntlet-")
        for tags, movetext in games(pgn):
            tally.add(tags, result_comment(movetext), label)
        if tally.games() == 0:
            raise SystemExit(f"no finished games of {label} in {pgn}")
        out[pgn.stem] = tally
    return out


def record_rows(directory):
    """The rows of bench/gauntlets.tsv for a gauntlet directory (tab-separated, no header)."""
    d = pathlib.Path(directory)
    build = d.name.removeprefix("gauntlet-")
    for opp, t in gauntlet(d).items():
        pgn = d / f"{opp}.pgn"
        first = next(games(pgn))[0]
        yield "\t".join([first.get("Date", "?").replace(".", "-"), build, opp, first.get("TimeControl", "?"),
                         str(t.games()), *map(str, t.wdl), " ".join(map(str, t.pentanomial())),
                         t.endings_text(), hashlib.md5(pgn.read_bytes()).hexdigest()])


def describe(name, t):
    e, lo, hi, _ = t.elo()
    w, d, l = t.wdl
    pent_s = " ".join(map(str, t.pentanomial()))
    return (f"{name}: {t.games()} games, W-D-L {w}-{d}-{l}, score {100 * t.score():.1f} %, "
            f"Elo {e:+.1f} [{lo:+.1f}, {hi:+.1f}], pairs (0 .. 2 points) {pent_s}; "
            f"time losses, illegal moves, disconnections: {t.endings_text()}")


def main(argv):
    if len(argv) == 3 and argv[1] == "--record":
        for row in record_rows(argv[2]):
            print(row)
        return 0
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    runs = [gauntlet(a) for a in argv[1:]]
    for path, run in zip(argv[1:], runs):
        print(f"== {path}")
        for name, t in run.items():
            print("  " + describe(name, t))
    if len(runs) == 2:
        old, new = runs
        common = [k for k in new if k in old]
        if not common:
            print("no opponent in both gauntlets", file=sys.stderr)
            return 1
        print("== difference (new - old)")
        diffs, variances = [], []
        for k in common:
            eo, _, _, so = old[k].elo()
            en, _, _, sn = new[k].elo()
            dse = math.hypot(so, sn)
            diffs.append(en - eo)
            variances.append(dse**2)
            print(f"  {k}: {en - eo:+.1f} [{en - eo - Z95 * dse:+.1f}, {en - eo + Z95 * dse:+.1f}]")
        mean = sum(diffs) / len(diffs)
        mse = math.sqrt(sum(variances)) / len(diffs)
        print(f"  mean over {len(common)} opponents: {mean:+.1f} [{mean - Z95 * mse:+.1f}, {mean + Z95 * mse:+.1f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
