#!/usr/bin/env python3
"""SPSA tuning of the search parameters on this machine, the way OpenBench's SPSA runs it.

    make tune EXE=arbiter-tune
    nice -n 10 scripts/spsa.py --engine ./arbiter-tune --params rfp_margin,fp_base \\
        --iterations 2000 --nodes 5000 --openings tests/data/openings.epd --out spsa.json
    scripts/spsa.py --out spsa.json --resume          # continue a stopped run

The parameters are read from the tune build itself (`uci`: every spin option with a lower
snake_case name is a search parameter, src/engine/params.rs), so their list, defaults and ranges
have one source. Each iteration k = 1..N:

    c_k = max(c / k^gamma, 0.5)        c = C_end * N^gamma   (so c_N = C_end)
    a_k = a / (A + k)^alpha            a = R_end * C_end^2 * (A + N)^alpha,  A = a_ratio * N
    flip = +-1 per parameter at random
    theta+ = theta + flip * c_k,  theta- = theta - flip * c_k    (each rounded, clipped to its range)
    W, D, L = results of theta+ against theta-: --pairs-per-iteration game pairs
    theta += a_k / c_k * (W - L) * flip                          (clipped to the range; kept as floats)

Defaults as OpenBench's: alpha 0.602, gamma 0.101, a_ratio 0.1, R_end 0.002; C_end = (max - min)
/ 20, at least 0.5, unless --c-end says otherwise. The rounding is OpenBench's: floor(x + u) with one uniform u
per parameter and iteration shared by both sides, so theta+ and theta- differ whenever c_k >= 0.5
and the rounding carries no bias. Each game is `arbiter selfplay` with both players as separate
processes of the tune build (its parameters are process-global). Flips, rounding and opening order
come from --seed and k, so a resumed run plays what an unstopped one would have.

The state (settings, theta, every iteration's flips, values sent and results) is written to --out
after every iteration. theta is printed, as `setoption` lines and as OpenBench's SPSA input block,
every --report-every iterations and at the end. Pure Python 3, no packages.
"""

import argparse
import json
import math
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import time

ALPHA = 0.602
GAMMA = 0.101
A_RATIO = 0.1
R_END = 0.002
C_END_FRACTION = 20  # default C_end = (max - min) / 20, at least MIN_INT_C
MIN_INT_C = 0.5  # an integer parameter's perturbation never shrinks below half a unit
STATE_VERSION = 1

# A search parameter in the tune build's `uci` output; the engine's own options (Hash, UCI_Elo,
# Move Overhead, ...) are not lower snake_case (a test in params.rs keeps it so).
PARAM_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
SPIN = re.compile(r"option name (.+?) type spin default (-?\d+) min (-?\d+) max (-?\d+)\s*\Z")
# Settings of a run: fixed when it starts, taken from the state file by --resume.
RUN_SETTINGS = (
    "params", "iterations", "pairs_per_iteration", "nodes", "tc", "openings", "seed", "c_end", "r_end",
    "alpha", "gamma", "a_ratio", "options", "selfplay_args",
)


class UserError(Exception):
    """A mistake in the arguments or the environment: reported in one line, exit status 2."""


class EngineError(Exception):
    """The engine or the match failed: reported with what it said, exit status 1."""


# --- the algorithm ----------------------------------------------------------------------------


def gains(param, k, settings):
    """(c_k, a_k) of one parameter at iteration k (1-based)."""
    n = settings["iterations"]
    big_a = settings["a_ratio"] * n
    c = param["c_end"] * n ** settings["gamma"]
    a = param["r_end"] * param["c_end"] ** 2 * (big_a + n) ** settings["alpha"]
    return max(c / k ** settings["gamma"], MIN_INT_C), a / (big_a + k) ** settings["alpha"]


def clip(x, param):
    return min(max(x, param["min"]), param["max"])


def perturbation(params, seed, k):
    """Flips (+-1) and rounding offsets for iteration k, and the seed of its opening order: a pure
    function of (seed, k), so a resumed run repeats them exactly."""
    rng = random.Random(f"arbiter-spsa:{seed}:{k}")
    flips = {p["name"]: rng.choice((-1, 1)) for p in params}
    offsets = {p["name"]: rng.random() for p in params}
    return flips, offsets, rng.randrange(2**63)


def sides(params, theta, flips, offsets, k, settings):
    """The integer values theta+ (player A) and theta- (player B) play with."""
    plus, minus = {}, {}
    for p in params:
        name = p["name"]
        c_k, _ = gains(p, k, settings)
        shift = flips[name] * c_k
        plus[name] = int(clip(math.floor(theta[name] + shift + offsets[name]), p))
        minus[name] = int(clip(math.floor(theta[name] - shift + offsets[name]), p))
    return plus, minus


def update(params, theta, flips, k, settings, wins, losses):
    """theta after an iteration in which theta+ scored wins and losses against theta-."""
    new = {}
    for p in params:
        c_k, a_k = gains(p, k, settings)
        new[p["name"]] = clip(theta[p["name"]] + a_k / c_k * (wins - losses) * flips[p["name"]], p)
    return new


# --- the engine and the games -----------------------------------------------------------------


def run_process(cmd, stdin=None, timeout=None):
    try:
        return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    except FileNotFoundError:
        raise UserError(f"cannot run {cmd[0]}: no such file")
    except PermissionError:
        raise UserError(f"cannot run {cmd[0]}: not executable")
    except OSError as e:
        raise UserError(f"cannot run {cmd[0]}: {e.strerror or e}")
    except subprocess.TimeoutExpired:
        raise EngineError(f"{cmd[0]} did not answer within {timeout} s")


def engine_params(engine):
    """The search parameters a tune build lists: [{name, default, min, max}] in its order."""
    out = run_process([engine], stdin="uci\nquit\n", timeout=60)
    if "uciok" not in out.stdout.split():
        raise EngineError(f"{engine} does not speak UCI (no uciok; exit status {out.returncode})\n{out.stderr.strip()}")
    params = []
    for line in out.stdout.splitlines():
        m = SPIN.match(line.strip())
        if m and PARAM_NAME.match(m.group(1)):
            d, lo, hi = map(int, m.group(2, 3, 4))
            params.append({"name": m.group(1), "default": d, "min": lo, "max": hi})
    if not params:
        raise UserError(f"{engine} lists no search parameters: give a tune build (make tune EXE=arbiter-tune)")
    return params


def option_text(fixed, values):
    return " ".join(([fixed] if fixed else []) + [f"{name}={v}" for name, v in values.items()])


def play(state, engine, runner, concurrency, plus, minus, opening_seed):
    """Plays theta+ (A) against theta- (B); returns the parsed summary."""
    s = state["settings"]
    games = 2 * s["pairs_per_iteration"]
    cmd = [runner, "selfplay", "--a-cmd", engine, "--b-cmd", engine,
           "--a", option_text(s["options"], plus), "--b", option_text(s["options"], minus),
           "--openings", s["openings"], "--seed", str(opening_seed), "--repeat", "--games", str(games),
           "--concurrency", str(concurrency), "--quiet", "--json"]
    cmd += ["--nodes", str(s["nodes"])] if s["nodes"] is not None else ["--tc", s["tc"]]
    cmd += s["selfplay_args"]
    out = run_process(cmd)
    if out.returncode != 0:
        if out.returncode in (130, 143):
            raise KeyboardInterrupt
        raise EngineError(f"`{shlex.join(cmd)}` failed (exit status {out.returncode}):\n{out.stderr.strip()}")
    return parse_summary(out.stdout, games)


def parse_summary(text, games):
    """W, D, L, the pentanomial counts and the time losses of one `arbiter selfplay --json` run
    (its summary object, docs/selfplay.md), checked against each other so that a summary that is
    not what was asked for stops the tuning, not skews it."""
    try:
        summary = json.loads(text)
        if summary["interrupted"]:
            raise KeyboardInterrupt
        w, d, l = (int(summary[k]) for k in ("wins", "draws", "losses"))
        penta = [int(x) for x in summary["pentanomial"] or [0] * 5]
        illegal, time_losses, crashes = (summary[k] for k in ("illegal_moves", "time_losses", "disconnects"))
    except (ValueError, KeyError, TypeError) as e:
        raise EngineError(f"cannot read the selfplay summary ({e!r}; a build without `selfplay --json`?):\n{text}")
    if w + d + l != games or 2 * sum(penta) != games or w - l != 2 * (penta[4] - penta[0]) + penta[3] - penta[1]:
        raise EngineError(f"the selfplay summary does not add up to {games} games:\n{text}")
    if sum(illegal) + sum(crashes):
        raise EngineError(f"an engine played an illegal move, crashed or stalled:\n{text}")
    return {"w": w, "d": d, "l": l, "penta": penta, "time_losses": sum(time_losses)}


# --- the state file ---------------------------------------------------------------------------


def save(state, path):
    """Written whole and renamed into place (a stopped run never leaves half a file); one line per
    iteration in `history`."""
    head = json.dumps({k: v for k, v in state.items() if k != "history"}, indent=1)
    lines = ",\n".join("  " + json.dumps(h) for h in state["history"])
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(head[: -len("\n}")] + ',\n "history": [\n' + lines + "\n ]\n}\n")
    os.replace(tmp, path)


def load(path):
    try:
        with open(path) as f:
            state = json.load(f)
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}")
    except ValueError as e:
        raise UserError(f"{path} is not a state file of this script: {e}")
    if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
        raise UserError(f"{path} is not a state file of this script (version {STATE_VERSION})")
    return state


def report(state, out=sys.stdout):
    s = state["settings"]
    print(f"# theta after {state['k']}/{s['iterations']} iterations (seed {s['seed']})", file=out)
    for p in state["params"]:
        print(f"setoption name {p['name']} value {round(state['theta'][p['name']])}", file=out)
    print("# OpenBench SPSA input: name, int, value, min, max, C_end, R_end", file=out)
    for p in state["params"]:
        print(f"{p['name']}, int, {round(state['theta'][p['name']])}, {p['min']}, {p['max']}, "
              f"{p['c_end']:g}, {p['r_end']:g}", file=out)
    out.flush()


# --- the command line -------------------------------------------------------------------------


def positive(kind):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}")
        if not v > 0:
            raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
        return v
    return parse


def name_values(text):
    """`name=value,name=value` -> {name: float}."""
    out = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, eq, value = item.partition("=")
        try:
            out[name.strip()] = float(value)
        except ValueError:
            eq = ""
        if not eq or not out[name.strip()] > 0:
            raise argparse.ArgumentTypeError(f"expected name=positive number, got {item!r}")
    return out


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", help="the tune build (make tune EXE=arbiter-tune); with --resume: the run's")
    ap.add_argument("--arbiter", help="the binary whose `selfplay` plays the games (default: --engine)")
    ap.add_argument("--out", required=True, help="state file, written after every iteration")
    ap.add_argument("--resume", action="store_true", help="continue the run in --out with its settings")
    ap.add_argument("--params", help="parameters to tune, comma-separated (default: all the engine lists)")
    ap.add_argument("--iterations", type=positive(int), help="N, the length of the run (default 1000)")
    ap.add_argument("--pairs-per-iteration", type=positive(int), help="game pairs per iteration (default 1)")
    ap.add_argument("--nodes", type=positive(int), help="nodes per move")
    ap.add_argument("--tc", help="clock per side instead of --nodes, selfplay's syntax: 8+0.08")
    ap.add_argument("--openings", help="EPD/FEN/PGN openings, shuffled afresh each iteration (required)")
    ap.add_argument("--seed", type=int, help="seed of flips, rounding and opening order (default 1)")
    ap.add_argument("--c-end", type=name_values,
                    help=f"C_end per parameter, name=v,... (default (max-min)/{C_END_FRACTION}, at least {MIN_INT_C})")
    ap.add_argument("--r-end", type=positive(float), help=f"R_end of every parameter (default {R_END})")
    ap.add_argument("--alpha", type=positive(float), help=f"a_k's decay exponent (default {ALPHA})")
    ap.add_argument("--gamma", type=positive(float), help=f"c_k's decay exponent (default {GAMMA})")
    ap.add_argument("--a-ratio", type=float, help=f"A = a_ratio * N, the stability constant (default {A_RATIO})")
    ap.add_argument("--options", help='UCI options for both players besides the parameters, e.g. "Hash=16"')
    ap.add_argument("--selfplay-args", help='more selfplay flags, e.g. "--resign-score 1000 --draw-score 5"')
    ap.add_argument("--concurrency", type=positive(int), default=1, help="games at once (default 1)")
    ap.add_argument("--report-every", type=positive(int), default=50, help="print theta this often (default 50)")
    ap.add_argument("--quiet", action="store_true", help="no line per iteration on stderr")
    return ap.parse_args(argv)


def new_state(args):
    if args.engine is None:
        raise UserError("--engine is required (the tune build: make tune EXE=arbiter-tune)")
    if (args.nodes is None) == (args.tc is None):
        raise UserError("give exactly one of --nodes and --tc")
    if args.openings is None:
        raise UserError("--openings is required (node-limited games from one position repeat themselves)")
    if not os.path.isfile(args.openings):
        raise UserError(f"no such openings file: {args.openings}")
    if args.a_ratio is not None and args.a_ratio < 0:
        raise UserError("--a-ratio must not be negative")
    if os.path.exists(args.out):
        raise UserError(f"{args.out} exists: --resume continues it, or choose another --out")
    listed = engine_params(args.engine)
    by_name = {p["name"]: p for p in listed}
    names = [n.strip() for n in args.params.split(",") if n.strip()] if args.params else list(by_name)
    unknown = [n for n in names if n not in by_name] + [n for n in (args.c_end or {}) if n not in names]
    if unknown:
        raise UserError(f"not a parameter being tuned: {', '.join(unknown)} (the engine lists: {', '.join(by_name)})")
    if len(set(names)) != len(names) or not names:
        raise UserError("--params must name each parameter once")
    params = []
    for n in names:
        p = dict(by_name[n])
        if p["max"] <= p["min"]:
            raise UserError(f"{n} cannot move: its range is {p['min']}..{p['max']}")
        p["c_end"] = (args.c_end or {}).get(n, max((p["max"] - p["min"]) / C_END_FRACTION, MIN_INT_C))
        p["r_end"] = args.r_end if args.r_end is not None else R_END
        params.append(p)
    settings = {
        "params": names,
        "iterations": args.iterations or 1000,
        "pairs_per_iteration": args.pairs_per_iteration or 1,
        "nodes": args.nodes,
        "tc": args.tc,
        "openings": os.path.abspath(args.openings),
        "seed": args.seed if args.seed is not None else 1,
        "alpha": args.alpha or ALPHA,
        "gamma": args.gamma or GAMMA,
        "a_ratio": args.a_ratio if args.a_ratio is not None else A_RATIO,
        "options": args.options or "",
        "selfplay_args": shlex.split(args.selfplay_args or ""),
    }
    return {
        "version": STATE_VERSION,
        "engine": os.path.abspath(args.engine),
        "settings": settings,
        "params": params,
        "k": 0,
        "theta": {p["name"]: float(p["default"]) for p in params},
        "history": [],
    }


def resumed_state(args):
    given = [f"--{name.replace('_', '-')}" for name in RUN_SETTINGS
             if name not in ("selfplay_args", "params") and getattr(args, name) is not None]
    given += ["--params"] * (args.params is not None) + ["--selfplay-args"] * (args.selfplay_args is not None)
    if given:
        raise UserError(f"--resume continues {args.out} with its own settings: drop {' '.join(given)}")
    state = load(args.out)
    engine = args.engine or state["engine"]
    listed = {p["name"]: (p["min"], p["max"]) for p in engine_params(engine)}
    changed = [p["name"] for p in state["params"] if listed.get(p["name"]) != (p["min"], p["max"])]
    if changed:
        raise UserError(f"{engine} does not list {', '.join(changed)} with the ranges of the run in {args.out}")
    state["engine"] = os.path.abspath(engine)
    return state


def tune(state, args):
    s = state["settings"]
    runner = args.arbiter or state["engine"]
    params = state["params"]
    played = 0
    while state["k"] < s["iterations"]:
        k = state["k"] + 1
        flips, offsets, opening_seed = perturbation(params, s["seed"], k)
        plus, minus = sides(params, state["theta"], flips, offsets, k, s)
        started = time.monotonic()
        result = play(state, state["engine"], runner, args.concurrency, plus, minus, opening_seed)
        seconds = time.monotonic() - started
        state["theta"] = update(params, state["theta"], flips, k, s, result["w"], result["l"])
        state["k"] = k
        state["history"].append(dict(k=k, flip=flips, plus=plus, minus=minus, seconds=round(seconds, 2), **result,
                                     theta=state["theta"]))
        save(state, args.out)
        if not args.quiet:
            moved = " ".join(f"{p['name']}={state['theta'][p['name']]:.2f}" for p in params[:6])
            more = " ..." if len(params) > 6 else ""
            print(f"spsa: {k}/{s['iterations']}  W {result['w']} D {result['d']} L {result['l']}  {seconds:.1f} s  "
                  f"{moved}{more}", file=sys.stderr, flush=True)
        played += 1
        if k % args.report_every == 0 or k == s["iterations"]:
            report(state)
    return played


def stop(signum, frame):
    raise KeyboardInterrupt


def main(argv):
    args = parse_args(argv)
    # SIGTERM stops a run as Ctrl-C does: the game in progress is abandoned (its selfplay killed),
    # the state file keeps every completed iteration.
    signal.signal(signal.SIGTERM, stop)
    try:
        # A new run's state is first written after its first iteration: a run that cannot play
        # (a bad --tc, say) leaves no file in the way of the corrected command.
        state = resumed_state(args) if args.resume else new_state(args)
        if tune(state, args) == 0:
            report(state)
        return 0
    except UserError as e:
        print(f"spsa: error: {e}", file=sys.stderr)
        return 2
    except EngineError as e:
        print(f"spsa: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"spsa: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"spsa: interrupted; {args.out} holds the completed iterations: continue with --resume",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
