#!/usr/bin/env bash
# Soak test (issue 6, item 4): self-play games at 1 s + 0.01 s with two games at once,
# sampling the resident memory of the arbiter process every few seconds.
#
#   scripts/soak.sh [GAMES] [OUTDIR] [SELFPLAY ARGS...]   # defaults: 2000 games, soak-out/
#   ARBITER_BIN=target/release/arbiter TC=1+0.01 INTERVAL=5 scripts/soak.sh 2000
#   scripts/soak.sh 2000 tb-soak --a "SyzygyPath=TABLES Threads=2" --b "SyzygyPath=TABLES" --seed 7
#
# Needs a release build (cargo build --release). Both players are in-process Arbiter
# engines in one process, so that process's VmRSS / VmHWM (/proc/PID/status) is the
# memory of the whole match. Writes OUTDIR/games.pgn, summary.txt (selfplay's stdout:
# W/D/L, illegal moves / time losses / crashes per player), stderr.log, rss.tsv
# (seconds, games finished, VmRSS kB, VmHWM kB) and prints a verdict. Exit status 1 if
# the match failed or a game ended other than normally on the board.
set -uo pipefail

GAMES=${1:-2000}
OUT=${2:-soak-out}
shift $(($# < 2 ? $# : 2)) # the rest goes to selfplay as it is (player options, --seed ...)
BIN=${ARBITER_BIN:-target/release/arbiter}
TC=${TC:-1+0.01}
INTERVAL=${INTERVAL:-5}
OPENINGS=${OPENINGS:-$(dirname "$0")/../tests/data/openings.epd}

mkdir -p "$OUT"
rm -f "$OUT/games.pgn"
"$BIN" selfplay --tc "$TC" --concurrency 2 --games "$GAMES" --repeat --openings "$OPENINGS" \
    --pgn "$OUT/games.pgn" --quiet "$@" >"$OUT/summary.txt" 2>"$OUT/stderr.log" &
PID=$!
START=$(date +%s)
printf 'seconds\tgames\tvmrss_kb\tvmhwm_kb\n' >"$OUT/rss.tsv"
while kill -0 "$PID" 2>/dev/null; do
    if [ -r "/proc/$PID/status" ]; then
        RSS=$(awk '/^VmRSS:/{print $2}' "/proc/$PID/status" 2>/dev/null)
        HWM=$(awk '/^VmHWM:/{print $2}' "/proc/$PID/status" 2>/dev/null)
        DONE=$(grep -c '^\[Event ' "$OUT/games.pgn" 2>/dev/null || true)
        [ -n "$RSS" ] && printf '%s\t%s\t%s\t%s\n' "$(($(date +%s) - START))" "${DONE:-0}" "$RSS" "$HWM" >>"$OUT/rss.tsv"
    fi
    sleep "$INTERVAL"
done
wait "$PID"
RC=$?

echo "== selfplay exit status: $RC ($(($(date +%s) - START)) s)"
echo "== summary (stdout of selfplay)"
cat "$OUT/summary.txt"
echo "== games in PGN: $(grep -c '^\[Event ' "$OUT/games.pgn" 2>/dev/null || echo 0)"
echo "== terminations:"
grep -h '^\[Termination ' "$OUT/games.pgn" | sort | uniq -c
echo "== resident memory (kB): first sample, last sample, min, max VmRSS; peak VmHWM"
awk -F'\t' 'NR>1 { if (n==0) first=$3; last=$3; if (min==""||$3<min) min=$3; if ($3>max) max=$3; if ($4>hwm) hwm=$4; n++ }
    END { printf "samples %d  first %d  last %d  min %d  max %d  VmHWM %d\n", n, first, last, min, max, hwm }' "$OUT/rss.tsv"
echo "== RSS by quarter of the samples (mean kB): flat means no growth across games"
awk -F'\t' 'NR>1 { v[n++]=$3 } END { for (q=0;q<4;q++) { s=0; c=0; for (i=int(q*n/4); i<int((q+1)*n/4); i++) { s+=v[i]; c++ } if (c) printf "Q%d %d  ", q+1, s/c } print "" }' "$OUT/rss.tsv"

BAD=$(grep -h '^\[Termination ' "$OUT/games.pgn" | grep -vc '"normal"' || true)
if [ "$RC" -ne 0 ] || [ "${BAD:-0}" -ne 0 ]; then
    echo "SOAK FAILED: exit $RC, $BAD game(s) not ended normally on the board"
    exit 1
fi
echo "SOAK OK"
