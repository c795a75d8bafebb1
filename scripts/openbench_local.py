#!/usr/bin/env python3
"""Arbiter on OpenBench, the whole chain on one machine and offline (docs/openbench.md).

    scripts/openbench_local.py --openbench OB --fastchess FC sprt --dev a90456c --base 1d8e8e6
    scripts/openbench_local.py --openbench OB --fastchess FC spsa --ref TUNE_BRANCH --params rfp_margin,fp_base

OB and FC are git directories (or clones) of OpenBench and of fastchess, wherever the user keeps
them: nothing of either goes into this repository. Each run, in --state (default target/openbench):

 1. extracts OpenBench's HEAD into a fresh instance directory and adds Engines/Arbiter.json
    (scripts/openbench/Arbiter.json) and the book's Books/NAME.json; a Python venv gets
    OpenBench's and its client's requirements from PyPI (once);
 2. starts, on 127.0.0.1 only: a static file server for what the client downloads (a zip of each
    commit made by `git archive`, the book, a zip of fastchess's HEAD), and OpenBench's server
    through this script's `_serve` wrapper, which migrates the SQLite database, registers an
    enabled approver account, restricts the configuration to Arbiter and the book, replaces the
    GitHub lookups of test creation by lookups in this repository, and runs Django's server;
 3. creates the workload through OpenBench: an SPRT through its scripting API (/scripts/), an
    SPSA tune through its form (/tune/new/); the benches are read from the commit messages;
 4. runs one OpenBench client (niced) until the workload ends: it builds fastchess and both
    engines with `make EXE=...` from the zips, checks their benches, plays with fastchess and
    reports to the server;
 5. prints the result (W/D/L, pentanomial, Elo, LLR; for a tune every parameter's start and end)
    and, with --selfplay ARBITER, plays the same pair with `arbiter selfplay --sprt --json`;
 6. stops every process it started, by its PID (each runs in its own process group).

Before anything starts it checks what it can: the commits exist, a tune commit has the tune
feature and the README's bench in its message, --selfplay is an arbiter with selfplay, --openbench
and --fastchess are git directories, cargo is there; and it warns when cargo's cache lacks a crate
a commit needs (the client's build would then download it: not offline). While the client works,
its steps (building fastchess and the engines, the benches, the scale factor and the time control
it gives) are shown on screen.

Logs: STATE/server.log, STATE/static.log, STATE/client.log. Python 3; the venv holds the rest.
"""

import argparse
import hashlib
import http.cookiejar
import json
import os
import pathlib
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
ENGINE = "Arbiter"
ENGINE_JSON = HERE / "openbench" / "Arbiter.json"
USER = "arbiter"
# OpenBench's test defaults (Scripts/create_test.py and the engines' presets).
WIN_ADJ = "movecount=3 score=400"
DRAW_ADJ = "movenumber=40 movecount=8 score=10"
POLL_SECONDS = 10


class Failure(Exception):
    """Reported in one line; exit status 1."""


def log(message):
    print(f"[openbench_local] {message}", flush=True)


def git(repo, *args):
    out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True)
    if out.returncode != 0:
        raise Failure(f"git {' '.join(args)}: {out.stderr.decode(errors='replace').strip()}")
    return out.stdout.decode().strip()


def git_dir(path):
    """The git directory of a clone or of a bare repository (what `fetch`-style mirrors are)."""
    return pathlib.Path(git(path, "rev-parse", "--absolute-git-dir"))


def extract_head(repo_git_dir, dest):
    """HEAD of a git directory as files in dest (no work tree needed)."""
    archive = subprocess.run(["git", f"--git-dir={repo_git_dir}", "archive", "--format=tar", "HEAD"],
                             capture_output=True, check=True).stdout
    dest.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def zip_of_head(repo_git_dir, prefix, dest):
    """A GitHub-style archive: every file under one top directory."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", f"--git-dir={repo_git_dir}", "archive", "--format=zip", f"--prefix={prefix}/",
                    "-o", str(dest), "HEAD"], check=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- processes -----------------------------------------------------------------------------------


class Processes:
    """Every process this script starts: each the leader of its own process group, so that
    stopping it by its PID also stops what it started (the client's cargo, fastchess, engines)."""

    def __init__(self):
        self.running = []

    def start(self, name, cmd, logfile, cwd=None, env=None, nice=0):
        out = open(logfile, "wb")
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True,
                                preexec_fn=(lambda: os.nice(nice)) if nice else None)
        out.close()
        self.running.append((name, proc))
        log(f"started {name} (pid {proc.pid}), log {logfile}")
        return proc

    def stop(self, proc, grace=15, exit_first=0):
        """Waits up to exit_first seconds for the process to end by itself, then sends its group
        SIGTERM, and SIGKILL after grace seconds."""
        name = next((n for n, p in self.running if p is proc), "?")
        try:
            proc.wait(exit_first)
        except subprocess.TimeoutExpired:
            pass
        if proc.poll() is None:
            for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5)):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    proc.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        # The group may outlive its leader (a child still running): end it too.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.running = [(n, p) for n, p in self.running if p is not proc]
        log(f"stopped {name} (pid {proc.pid})")

    def stop_all(self):
        for _, proc in reversed(list(self.running)):
            self.stop(proc)


# --- the OpenBench instance --------------------------------------------------------------------


def venv_python(state, instance, base_python):
    """A venv with OpenBench's and its client's requirements (installed once per requirements)."""
    venv = state / "venv"
    requirements = [instance / "requirements.txt", instance / "Client" / "requirements.txt"]
    stamp_text = hashlib.sha256(b"".join(p.read_bytes() for p in requirements)).hexdigest()
    stamp = venv / "openbench-requirements.sha256"
    python = venv / "bin" / "python"
    if not (stamp.exists() and stamp.read_text() == stamp_text):
        wanted = [line.strip() for p in requirements for line in p.read_text().splitlines()
                  if line.strip() and not line.startswith("#")]
        log(f"creating the venv {venv}: pip install from PyPI {', '.join(wanted)}")
        subprocess.run([base_python, "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "--quiet"]
        subprocess.run(pip + sum((["-r", str(p)] for p in requirements), []), check=True)
        stamp.write_text(stamp_text)
    return python


def book_files(book, www, static_url):
    """The book as OpenBench's client downloads it (a zip holding the one file), and its config."""
    name = book.name
    data = book.read_bytes()
    with zipfile.ZipFile(www / "books" / f"{name}.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, data)
    # The client hashes the book as text read and encoded again: plain UTF-8 is the same bytes.
    return name, {"sha": hashlib.sha256(data.decode("utf-8").encode("utf-8")).hexdigest(),
                  "source": f"{static_url}/books/{name}.zip"}


def prepare(args, state):
    """Fresh instance, static files and client directory; returns their paths and settings."""
    ob_git, fc_git = git_dir(args.openbench), git_dir(args.fastchess)
    instance = state / "openbench"
    www = state / "www"
    for d in (instance, www):
        shutil.rmtree(d, ignore_errors=True)
    extract_head(ob_git, instance)
    for d in ("src", "books", "fastchess/archive"):
        (www / d).mkdir(parents=True)
    static_port, server_port = free_port(), free_port()
    static_url = f"http://127.0.0.1:{static_port}"
    # fastchess as the client asks for it: REPO_URL/archive/REF.zip
    zip_of_head(fc_git, "fastchess-master", www / "fastchess" / "archive" / "master.zip")
    book_name, book_conf = book_files(args.book, www, static_url)
    (instance / "Books" / f"{book_name}.json").write_text(json.dumps(book_conf, indent=4))
    shutil.copy(ENGINE_JSON, instance / "Engines" / f"{ENGINE}.json")
    # The client runs from its own directory, kept between runs (fastchess-ob, built engines).
    client = state / "client"
    client.mkdir(exist_ok=True)
    for f in (instance / "Client").iterdir():
        if f.is_file():
            shutil.copy(f, client / f.name)
    for stale in (client / "Books" / book_name, client / "openbench.exit"):
        stale.unlink(missing_ok=True)
    return {"instance": instance, "www": www, "client": client, "static_port": static_port,
            "static_url": static_url, "server_port": server_port,
            "server_url": f"http://127.0.0.1:{server_port}", "book": book_name}


# --- talking to the server ---------------------------------------------------------------------


class Server:
    def __init__(self, url):
        self.url = url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def request(self, path, data=None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        with self.opener.open(self.url + path, body, timeout=60) as r:
            return r.geturl(), r.read().decode("utf-8", errors="replace")

    def api(self, path):
        return json.loads(self.request(path)[1])

    def csrf(self):
        """Django's CSRF token (the cookie; renewed at login)."""
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), None)
        if token is None:
            raise Failure("no CSRF cookie from the server")
        return token

    def login(self, user, password):
        self.request("/login/")
        final, _ = self.request("/login/", {"csrfmiddlewaretoken": self.csrf(), "username": user,
                                            "password": password})
        if not final.endswith("/index/"):
            raise Failure(f"cannot log in as {user}")

    def wait_ready(self, proc, seconds=180):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if proc.poll() is not None:
                raise Failure("the OpenBench server exited at start (see server.log)")
            try:
                self.request("/login/")
                return
            except OSError:
                time.sleep(1)
        raise Failure("the OpenBench server did not answer (see server.log)")

    def submit(self, path, data, what):
        """Posts a workload form; OpenBench redirects to /index/ on success, back to the form
        with the errors in the page otherwise."""
        final, page = self.request(path, data)
        if final.rstrip("/").endswith("/index"):
            return
        errors = re.findall(r"<pre>(.*?)</pre>", page, re.S)
        raise Failure(f"OpenBench refused the {what}: {' / '.join(errors) or final}")

    def latest_workload(self):
        """The newest workload's id (the instance is fresh: ids count from 1)."""
        wid = 0
        while "error" not in self.api(f"/api/workload/{wid + 1}/info/"):
            wid += 1
        if wid == 0:
            raise Failure("no workload was created")
        return wid


def common_fields(args, book):
    return {
        "book_name": book, "upload_pgns": "FALSE", "priority": "0", "throughput": "1000",
        "syzygy_wdl": "DISABLED", "syzygy_adj": "DISABLED", "win_adj": WIN_ADJ, "draw_adj": DRAW_ADJ,
        "scale_method": "BASE", "scale_nps": str(args.scale_nps), "info": "",
    }


def engine_fields(side, ref, repo_url, options, tc):
    return {f"{side}_engine": ENGINE, f"{side}_repo": repo_url, f"{side}_branch": ref, f"{side}_bench": "",
            f"{side}_network": "", f"{side}_options": options, f"{side}_time_control": tc}


# --- the SPSA input from params.rs -------------------------------------------------------------

PARAM = re.compile(r"^\s*([a-z][a-z0-9_]*) = (-?\d+), (-?\d+), (-?\d+);$", re.M)


def spsa_inputs(repo, ref, names, r_end):
    """OpenBench's SPSA input block for the named parameters, as src/engine/params.rs at ref
    declares them (C_end and R_end: scripts/spsa.py's defaults, which are OpenBench's)."""
    sys.path.insert(0, str(HERE))
    import spsa  # noqa: E402 (the one place of the defaults)

    declared = {m[0]: tuple(map(int, m[1:])) for m in PARAM.findall(git(repo, "show", f"{ref}:src/engine/params.rs"))}
    lines = []
    for name in names or declared:
        if name not in declared:
            raise Failure(f"{name} is not a parameter in src/engine/params.rs at {ref}")
        value, lo, hi = declared[name]
        c_end = max((hi - lo) / spsa.C_END_FRACTION, spsa.MIN_INT_C)
        lines.append(f"{name}, int, {value}, {lo}, {hi}, {c_end:g}, {r_end if r_end else spsa.R_END:g}")
    return "\n".join(lines), spsa


def check_tune_ref(repo, ref):
    """The tune branch's contract: Cargo.toml's default features include `tune`, so OpenBench's
    `make EXE=` builds the parameters as UCI options (without it fastchess only warns, and the
    tune would move the parameters by noise); and its commit message carries the bench of the
    search it builds, which the tune feature does not change: the README's `Bench:` (held to the
    binary by .ci/bench-check). A stale one would stop the run at the client's bench check, after
    the builds."""
    cargo = git(repo, "show", f"{ref}:Cargo.toml")
    m = re.search(r"^default\s*=\s*\[([^\]]*)\]", cargo, re.M)
    if not (m and '"tune"' in m.group(1)):
        raise Failure(f"{ref}: Cargo.toml's default features do not include \"tune\" "
                      "(make the tune branch first: docs/openbench.md#spsa)")
    said = re.findall(r"Bench: (\d+)", git(repo, "log", "-1", "--format=%B", ref))
    if not said:
        raise Failure(f"{ref}: the commit message has no 'Bench: N' (OpenBench reads the bench there; "
                      "docs/openbench.md#spsa)")
    readme = set(re.findall(r"Bench: (\d+)", git(repo, "show", f"{ref}:README.md")))
    if len(readme) == 1 and said[-1] not in readme:
        raise Failure(f"{ref}: the commit message says Bench: {said[-1]}, but README.md there says Bench: "
                      f"{readme.pop()}, the bench of the search it builds (amend the message: "
                      "docs/openbench.md#spsa)")


def check_selfplay(binary):
    """--selfplay is used after the whole run: an arbiter with `selfplay`, checked before it."""
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        raise Failure(f"--selfplay {binary}: no such program (build it first: `cargo build --release` makes "
                      "target/release/arbiter)")
    try:
        out = subprocess.run([str(binary), "selfplay", "--help"], capture_output=True, text=True, timeout=30)
        ok = out.returncode == 0 and "--sprt" in out.stdout
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        raise Failure(f"--selfplay {binary}: `{binary} selfplay --help` names no --sprt: not an arbiter with "
                      "selfplay")


def check_crates(repo, refs, state):
    """The client builds each commit with cargo: offline, that needs every crate of its Cargo.lock
    in cargo's cache already. Warns (the client would download them from crates.io) when not."""
    rustc = subprocess.run(["rustc", "-vV"], capture_output=True, text=True) if shutil.which("rustc") else None
    host = re.search(r"^host: (\S+)", rustc.stdout, re.M) if rustc else None
    for ref in refs:
        # The commit as the client gets it (OpenBench's zip is `git archive`'s), fetched as it builds:
        # for this machine only (other platforms' crates are never downloaded by a build here).
        with tempfile.TemporaryDirectory(dir=state) as tree:
            archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", ref],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
            target = ["--target", host[1]] if host else []
            out = subprocess.run(["cargo", "fetch", "--offline", *target, "--manifest-path", f"{tree}/Cargo.toml"],
                                 capture_output=True, text=True)
        if out.returncode != 0:
            why = next((l.strip() for l in out.stderr.splitlines() if l.startswith("error")), "cargo fetch failed")
            log(f"warning: cargo's cache lacks crates {ref} needs ({why}): the client's build will download "
                "them from crates.io, so this run is not offline. Fill the cache once with network: "
                f"`cargo fetch` in a checkout of {ref}.")


def preflight(args):
    """Everything that can be checked before anything starts (the run then takes minutes to hours)."""
    if args.command == "spsa":
        check_tune_ref(args.repo, args.ref)
    refs = [args.ref] if args.command == "spsa" else [args.dev, args.base]
    for ref in refs:
        try:
            git(args.repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
        except Failure:
            raise Failure(f"{ref}: no such commit or branch in {args.repo}") from None
    if args.command == "sprt" and args.selfplay:
        check_selfplay(args.selfplay)
    for option, path in (("--openbench", args.openbench), ("--fastchess", args.fastchess)):
        try:
            git_dir(path)
        except Failure as e:
            raise Failure(f"{option} {path}: not a git directory or clone ({e})") from None
    if shutil.which("cargo") is None:
        raise Failure("cargo is not on PATH: the client builds the engines with it (make EXE=...)")
    return refs


# --- results -------------------------------------------------------------------------------------


def client_log_lines(client_log, pattern):
    if not client_log.exists():
        return []
    rx = re.compile(pattern)
    return [l.rstrip() for l in client_log.read_text(errors="replace").splitlines() if rx.search(l)]


# What the client says it is doing (its log), shown on screen until the games begin: its first
# run builds fastchess for a long time with nothing else to show.
CLIENT_STEPS = re.compile(r"^(> (Downloading|Extracting and building|Finished building|Found)|Workload \[|"
                          r"Found \[|Building \[|Running \d+x Benchmarks|Bench for |Speed for |Scale Factor|"
                          r"\[#\d+\] Launching match runner)")
QUIET_MINUTES = 5


def played_tc(tc, factor):
    """The time control the client plays for a nominal `base+inc` (as its scale_time_control
    writes it: each figure times the factor, to 2 decimals); None for other forms."""
    m = re.fullmatch(r"(\d*\.?\d+)(?:\+(\d*\.?\d+))?", tc)
    if not m:
        return None
    return f"{float(m[1]) * factor:.2f}+{float(m[2] or 0) * factor:.2f}"


class ClientSteps:
    """Follows the client's log and shows its steps; says so when it has been quiet a while."""

    def __init__(self, client_log, tc, scale_nps):
        self.log, self.tc, self.scale_nps = client_log, tc, scale_nps
        self.offset, self.last, self.since, self.speed = 0, None, time.time(), None

    def poll(self, games_started):
        if self.log.exists():
            with open(self.log, "rb") as f:
                f.seek(self.offset)
                data = f.read()
            complete = data[:data.rfind(b"\n") + 1]
            self.offset += len(complete)
            for line in complete.decode(errors="replace").splitlines():
                self.step(line.strip())
        quiet = (time.time() - self.since) / 60
        if not games_started and self.last and quiet >= QUIET_MINUTES:
            log(f"client: still at \"{self.last}\" ({quiet:.0f} minutes; details in {self.log})")
            self.since = time.time()

    def step(self, line):
        if not CLIENT_STEPS.search(line):
            return
        self.last, self.since = line, time.time()
        log(f"client: {line}")
        if line.startswith("> Extracting and building fastchess"):
            log("  (the client's first run builds fastchess, `make -j`, showing nothing until it ends: about 20 "
                "to 35 minutes on a shared 2-core machine; it is kept in the client directory for later runs)")
        elif line.startswith("Building ["):
            log("  (each commit is built once with `make EXE=...`, fat LTO: minutes; kept for later runs)")
        elif line.startswith("Speed for "):
            self.speed = int(line.split()[-1])
        elif line.startswith("Scale Factor") and self.speed:
            factor = float(line.split(":")[-1])
            played = played_tc(self.tc, factor) or "the time control scaled"
            log(f"  (played at {played}: {self.tc} x {factor:.4f}, that is --scale-nps {self.scale_nps} / "
                f"{self.speed} nps, the base's bench speed here; each figure to 2 decimals)")


def watch(server, wid, client, client_log, spsa_mode, steps):
    """Polls the workload until it ends; fails if the client dies or reports a broken build."""
    shown = -1
    while True:
        steps.poll(shown > 0)
        info = server.api(f"/api/workload/{wid}/info/")["info"]
        if info["games"] != shown:
            shown = info["games"]
            losses, draws, wins = info["tri"]
            line = f"games {info['games']}  W-D-L {wins}-{draws}-{losses}  " \
                   f"pentanomial {' '.join(map(str, info['penta']))}"
            if not spsa_mode:
                line += f"  LLR {info['currentllr']:.2f} [{info['lowerllr']:.2f}, {info['upperllr']:.2f}]"
            log(line)
        if info["finished"]:
            return info
        if client.poll() is not None:
            raise Failure(f"the client exited (status {client.returncode}); see {client_log}")
        problems = client_log_lines(client_log, r"build failed|Wrong Bench|Non-Deterministic|Bench Exceeded|"
                                                r"doesn't have option|Unable to locate|^Arbiter +\| Missing")
        if problems:
            raise Failure(f"the client reports: {problems[-1].strip()} (see {client_log})")
        time.sleep(POLL_SECONDS)


def report_test(server, wid, info, client_log):
    summary = server.api(f"/api/workload/{wid}/summary/")["summary"]["user"]
    elo = summary[0]["elo"] if summary else "-"
    verdict = "H1 accepted (passed)" if info["passed"] else "H0 accepted (failed)" if info["failed"] else "stopped"
    print(f"\nOpenBench test {wid}: {ENGINE} {info['dev']['name']} ({info['dev']['sha'][:10]}, bench "
          f"{info['dev']['bench']}) vs {info['base']['name']} ({info['base']['sha'][:10]}, bench "
          f"{info['base']['bench']}), {info['dev_time_control']}, bounds [{info['elolower']}, {info['eloupper']}]")
    losses, draws, wins = info["tri"]
    print(f"  games {info['games']}: W {wins} D {draws} L {losses} (dev's view)")
    print(f"  pentanomial (LL LD DD DW WW): {' '.join(map(str, info['penta']))}")
    print(f"  Elo {elo} (OpenBench's figure)")
    print(f"  LLR {info['currentllr']:.3f} [{info['lowerllr']:.3f}, {info['upperllr']:.3f}]: {verdict}")
    results = server.api(f"/api/workload/{wid}/results/")["results"]
    print(f"  time losses {sum(r['timeloss'] for r in results)}, crashes or stalls "
          f"{sum(r['crashes'] for r in results)}, illegal moves or crashes flagged: {'yes' if info['error'] else 'no'}")
    for line in client_log_lines(client_log, r"^Bench for |^Speed for |Scale Factor \(Using Base\)"):
        print(f"  client: {line}")


def report_tune(server, wid, info):
    digest = server.request(f"/api/spsa/{wid}/digest/")[1].splitlines()
    losses, draws, wins = info["tri"]
    print(f"\nOpenBench tune {wid}: {ENGINE} {info['dev']['name']} ({info['dev']['sha'][:10]}, bench "
          f"{info['dev']['bench']}), {info['dev_time_control']}, {info['games']} games, "
          f"W-D-L {wins}-{draws}-{losses} (the perturbed sides' pairs)")
    rows = [r.split(",") for r in digest]
    moved = 0
    for row in rows[1:]:
        name, curr, start = row[0], float(row[1]), float(row[2])
        moved += curr != start
        print(f"  {name}: {start:g} -> {curr:.4f} ({curr - start:+.4f})")
    print(f"  {moved} of {len(rows) - 1} parameters moved")


def selfplay_pair(args, info, client_dir, client_log):
    """The same pair with `arbiter selfplay --sprt --json`, the client's own builds, at the time
    control the client played (the nominal one times its NPS scale factor)."""
    factors = client_log_lines(client_log, r"Scale Factor \(Using Base\): ")
    factor = float(factors[-1].split(":")[-1]) if factors else 1.0
    tc = played_tc(info["dev_time_control"], factor)
    if tc is None:
        raise Failure(f"--selfplay plays base+inc time controls only, not {info['dev_time_control']}")
    dev, base_bin = (client_dir / "Engines" / f"{ENGINE}-{info[s]['sha'].upper()[:8]}" for s in ("dev", "base"))
    lo, hi = info["elolower"], info["eloupper"]
    cmd = ["nice", "-n", str(args.nice), str(args.selfplay), "selfplay", "--a-cmd", str(dev), "--b-cmd",
           str(base_bin), "--a", "Threads=1 Hash=16", "--b", "Threads=1 Hash=16", "--tc", tc,
           "--openings", str(args.book), "--seed", "1", "--repeat", "--games", "20000",
           "--concurrency", str(args.threads), "--resign-score", "400", "--resign-moves", "3",
           "--draw-score", "10", "--draw-moves", "8", "--draw-from", "40",
           "--sprt", f"elo0={lo} elo1={hi} alpha=0.05 beta=0.05", "--quiet", "--json"]
    log("the same pair through arbiter selfplay: " + " ".join(cmd))
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise Failure(f"selfplay failed: {out.stderr.strip()}")
    s = json.loads(out.stdout)
    sp = s["sprt"]
    print(f"\narbiter selfplay, {s['a']} (A, dev) vs {s['b']} (B, base) at {tc}:")
    print(f"  games {s['games']}: W {s['wins']} D {s['draws']} L {s['losses']} (A's view)")
    print(f"  pentanomial (0, 0.5, 1, 1.5, 2 points for A): {' '.join(map(str, s['pentanomial'] or []))}")
    print(f"  Elo {s['elo']:+.1f} [{s['elo_low']:+.1f}, {s['elo_high']:+.1f}]" if s["elo_low"] is not None
          else f"  Elo {s['elo']}")
    print(f"  LLR {sp['llr']:.3f} [{sp['lower']:.3f}, {sp['upper']:.3f}] ({sp['model']}): {sp['decision'] or 'none'}")
    print(f"  time losses {s['time_losses']}, illegal moves {s['illegal_moves']}, disconnects {s['disconnects']}")


# --- the run -------------------------------------------------------------------------------------


def run(args):
    repo = pathlib.Path(git(args.repo, "rev-parse", "--show-toplevel"))
    state = (args.state or repo / "target" / "openbench").resolve()
    state.mkdir(parents=True, exist_ok=True)
    check_crates(repo, args.refs, state)
    paths = prepare(args, state)
    python = venv_python(state, paths["instance"], args.python)
    password = secrets.token_hex(12)
    repo_url = json.loads(ENGINE_JSON.read_text())["source"]
    procs = Processes()

    def on_sigterm(*_):
        raise KeyboardInterrupt

    # SIGTERM stops a run as Ctrl-C does: everything started is stopped on the way out.
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        procs.start("static file server", [sys.executable, str(pathlib.Path(__file__).resolve()), "_static",
                                           "--port", str(paths["static_port"]), "--www", str(paths["www"])],
                    state / "static.log")
        server_proc = procs.start(
            "OpenBench server",
            [str(python), str(pathlib.Path(__file__).resolve()), "_serve", "--instance", str(paths["instance"]),
             "--repo", str(repo), "--www", str(paths["www"]), "--static-url", paths["static_url"],
             "--port", str(paths["server_port"]), "--book", paths["book"], "--user", USER],
            state / "server.log", env={**os.environ, "OPENBENCH_LOCAL_PASSWORD": password})
        server = Server(paths["server_url"])
        server.wait_ready(server_proc)
        log(f"OpenBench at {paths['server_url']} (user {USER})")
        server.login(USER, password)
        options = "Threads=1 Hash=16"
        if args.command == "sprt":
            fields = {**common_fields(args, paths["book"]),
                      **engine_fields("dev", args.dev, repo_url, options, args.tc),
                      **engine_fields("base", args.base, repo_url, options, args.tc),
                      "test_mode": "SPRT", "test_bounds": args.bounds, "test_confidence": "[0.05, 0.05]",
                      "test_max_games": "", "workload_size": str(args.workload_size),
                      "username": USER, "password": password, "action": "CREATE_TEST"}
            server.submit("/scripts/", fields, "test")
        else:
            inputs, spsa = spsa_inputs(repo, args.ref, args.params.split(","), args.r_end)
            log("SPSA input:\n" + inputs)
            fields = {**common_fields(args, paths["book"]),
                      **engine_fields("dev", args.ref, repo_url, options, args.tc),
                      "spsa_inputs": inputs, "spsa_reporting_type": "BATCHED", "spsa_distribution_type": "SINGLE",
                      "spsa_alpha": str(spsa.ALPHA), "spsa_gamma": str(spsa.GAMMA),
                      "spsa_A_ratio": str(spsa.A_RATIO), "spsa_iterations": str(args.iterations),
                      "spsa_pairs_per": str(args.pairs_per), "csrfmiddlewaretoken": server.csrf()}
            server.submit("/tune/new/", fields, "tune")
        wid = server.latest_workload()
        log(f"workload {wid} created: {server.url}/{'test' if args.command == 'sprt' else 'tune'}/{wid}/")
        client_log = state / "client.log"
        client_log.unlink(missing_ok=True)
        if not (paths["client"] / "fastchess-ob").exists():
            log(f"no fastchess in {paths['client']} yet: the client builds it first (20 to 35 minutes on a "
                "shared 2-core machine, once), then each engine; its steps are shown below")
        client = procs.start(
            "OpenBench client",
            [str(python), "client.py", "-U", USER, "-P", password, "-S", paths["server_url"], "-T",
             str(args.threads), "-N", "1", "--no-client-downloads"],
            # Unbuffered: its log shows each step as it happens, not 8 KiB later.
            client_log, cwd=paths["client"], env={**os.environ, "PYTHONUNBUFFERED": "1"}, nice=args.nice)
        steps = ClientSteps(client_log, args.tc, args.scale_nps)
        info = watch(server, wid, client, client_log, args.command == "spsa", steps)
        # The client leaves when it next looks for work (or is stopped below).
        (paths["client"] / "openbench.exit").touch()
        if args.command == "sprt":
            report_test(server, wid, info, client_log)
        else:
            report_tune(server, wid, info)
        procs.stop(client, exit_first=90)
        if args.command == "sprt" and args.selfplay:
            selfplay_pair(args, info, paths["client"], client_log)
        return 0
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        procs.stop_all()


# --- inside the venv: OpenBench's server, configured for this run --------------------------------


def serve(args):
    """Runs OpenBench's Django server on 127.0.0.1 with this run's configuration. OpenBench's
    files are not changed: its functions are replaced in memory before the server starts."""
    instance = pathlib.Path(args.instance)
    sys.path.insert(0, str(instance))
    os.chdir(instance)
    os.environ["DJANGO_SETTINGS_MODULE"] = "OpenSite.settings"
    import django
    import OpenBench.config as obconfig

    original_config = obconfig.create_openbench_config

    def local_config():
        # OpenBench's own loaders and checks, on its config with only Arbiter and the book.
        conf, checksum = original_config()
        conf["engines"] = {ENGINE: obconfig.load_engine_config(ENGINE)}
        conf["books"] = {args.book: obconfig.load_book_config(args.book)}
        conf["fastchess_repo_url"], conf["fastchess_repo_ref"] = f"{args.static_url}/fastchess", "master"
        return conf, checksum

    obconfig.create_openbench_config = local_config
    # OpenBench's app starts its PGN watcher when Django starts, before this script can create
    # the database: held back here, started below once the tables exist.
    import OpenBench.apps as obapps

    acquire_watcher_lockfile = obapps.acquire_watcher_lockfile
    obapps.acquire_watcher_lockfile = lambda: None
    django.setup()

    from django.apps import apps
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from OpenBench.models import Profile
    import OpenBench.views  # noqa: F401 (first, as Django's URL loading does: the workload modules import it)
    import OpenBench.workloads.create_workload as create_workload
    import OpenBench.workloads.verify_workload as verify_workload

    call_command("migrate", verbosity=0)
    obapps.acquire_watcher_lockfile = acquire_watcher_lockfile
    apps.get_app_config("OpenBench").ready()
    user = User.objects.filter(username=args.user).first() or User.objects.create_user(args.user, "", "x")
    user.set_password(os.environ["OPENBENCH_LOCAL_PASSWORD"])
    user.save()
    Profile.objects.update_or_create(user=user, defaults={"enabled": True, "approver": True})

    www = pathlib.Path(args.www)

    def local_commit_info(errors, request, field):
        # What collect_github_info returns, from this repository: (source, branch, sha, bench, info).
        branch = request.POST[f"{field}_branch"]
        try:
            sha = git(args.repo, "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}")
        except Failure:
            errors.append(f"{branch or 'Branch'} could not be found")
            return None
        message = git(args.repo, "log", "-1", "--format=%B", sha)
        bench = verify_workload.determine_bench(request, field, message)
        if not bench:
            errors.append(f"Unable to parse a Bench for {branch}")
            return None
        source = www / "src" / f"{sha}.zip"
        if not source.exists():
            subprocess.run(["git", "-C", args.repo, "archive", "--format=zip", f"--prefix=arbiter-{sha[:12]}/",
                            "-o", str(source), sha], check=True)
        info = request.POST["info"] or verify_workload.strip_message(message)
        return (f"{args.static_url}/src/{sha}.zip", branch, sha, bench, info)

    def local_out_of_date(workload):
        # GitHub's compare: the base has commits the dev branch lacks.
        return workload.dev_engine == workload.base_engine and \
            git(args.repo, "rev-list", "--count", f"{workload.dev.sha}..{workload.base.sha}") != "0"

    verify_workload.collect_github_info = local_commit_info
    create_workload.branch_is_out_of_date = local_out_of_date
    call_command("runserver", f"127.0.0.1:{args.port}", use_reloader=False)


def serve_static(args):
    """The client's downloads, on 127.0.0.1 only."""
    import functools
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path):
            # OpenBench's client asks for fastchess at ".../master.zip/", which GitHub takes as the file.
            return super().translate_path(path.rstrip("/") or "/")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(args.port)),
                                             functools.partial(Handler, directory=args.www))
    server.serve_forever()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    ap.add_argument("--openbench", type=pathlib.Path, help="a git directory or clone of OpenBench")
    ap.add_argument("--fastchess", type=pathlib.Path, help="a git directory or clone of fastchess")
    ap.add_argument("--repo", type=pathlib.Path, default=HERE, help="this repository (default: the script's)")
    ap.add_argument("--state", type=pathlib.Path, help="working directory (default: REPO/target/openbench)")
    ap.add_argument("--book", type=pathlib.Path, help="EPD openings (default: REPO/tests/data/openings.epd)")
    ap.add_argument("--tc", default="4.0+0.04",
                    help="OpenBench time control; the games are played at TC x SCALE_NPS / the base engine's bench "
                         "speed on the client")
    ap.add_argument("--threads", type=int, default=2, help="the client's concurrency (-T)")
    ap.add_argument("--scale-nps", type=int,
                    help="the nodes/second TC is meant for (default: Arbiter.json's nps). The client benches the "
                         "base engine (-T copies at once) and plays TC's base and increment each times SCALE_NPS / "
                         "that speed, written to 2 decimals (an increment under 0.005 s becomes 0)")
    ap.add_argument("--nice", type=int, default=10, help="niceness of the client and its games")
    ap.add_argument("--python", default=sys.executable, help="the interpreter the venv is made from")
    t = sub.add_parser("sprt", help="an SPRT between two commits")
    t.add_argument("--dev", required=True, help="commit or branch tested")
    t.add_argument("--base", required=True, help="commit or branch it is tested against")
    t.add_argument("--bounds", default="[0.00, 10.00]", help="SPRT Elo bounds, OpenBench's syntax")
    t.add_argument("--workload-size", type=int, default=16, help="game pairs per game slot in one workload")
    t.add_argument("--selfplay", type=pathlib.Path,
                   help="then play the same pair with this arbiter's `selfplay --sprt --json`")
    s = sub.add_parser("spsa", help="an SPSA tune of a tune branch (docs/openbench.md#spsa)")
    s.add_argument("--ref", required=True, help="the tune commit or branch")
    s.add_argument("--params", required=True, help="comma-separated names from src/engine/params.rs")
    s.add_argument("--iterations", type=int, default=8)
    s.add_argument("--pairs-per", type=int, default=1, help="game pairs per SPSA iteration")
    s.add_argument("--r-end", type=float, help="R_end of every parameter (default OpenBench's 0.002)")
    i = sub.add_parser("spsa-input", help="print OpenBench's SPSA input block for a commit's parameters "
                                          "(for any instance; needs neither OpenBench nor fastchess)")
    i.add_argument("--ref", default="HEAD", help="the commit whose src/engine/params.rs is read")
    i.add_argument("--params", help="comma-separated names (default: every parameter)")
    i.add_argument("--r-end", type=float, help="R_end of every parameter (default OpenBench's 0.002)")
    w = sub.add_parser("_serve")  # internal: the server process, run by the venv's python
    for name in ("instance", "repo", "www", "static-url", "port", "book", "user"):
        w.add_argument(f"--{name}", required=True)
    f = sub.add_parser("_static")  # internal: the static file server
    for name in ("www", "port"):
        f.add_argument(f"--{name}", required=True)
    args = ap.parse_args()
    if args.command == "_serve":
        return serve(args)
    if args.command == "_static":
        return serve_static(args)
    if args.command != "spsa-input" and not (args.openbench and args.fastchess):
        ap.error("--openbench and --fastchess are required")
    try:
        args.repo = pathlib.Path(git(args.repo, "rev-parse", "--show-toplevel"))
        if args.command == "spsa-input":
            print(spsa_inputs(args.repo, args.ref, args.params and args.params.split(","), args.r_end)[0])
            return 0
        args.book = (args.book or args.repo / "tests" / "data" / "openings.epd").resolve()
        args.scale_nps = args.scale_nps or json.loads(ENGINE_JSON.read_text())["nps"]
        if getattr(args, "selfplay", None):
            args.selfplay = args.selfplay.resolve()
        args.refs = preflight(args)
        return run(args)
    except (Failure, subprocess.CalledProcessError) as e:
        print(f"openbench_local: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
