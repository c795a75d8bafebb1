#!/usr/bin/env bash
# Whole-process timing of `arbiter perft` against Stockfish's `go perft`, run alternately,
# median of N pairs (default 5), on startpos depth 6 and Kiwipete depth 5; then Arbiter
# with 2 threads against 1. Usage: bash bench/perft-vs-stockfish.sh [PAIRS]
# Needs /usr/games/stockfish (apt-get install stockfish) and a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-5}
ARB=./target/release/arbiter
SF=${STOCKFISH:-/usr/games/stockfish}
[ -x "$ARB" ] || cargo build --release
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
run_pair() { # name depth fen-or-empty
  local name=$1 depth=$2 fen=$3 sf_t=() ar_t=() ar2_t=() t0 t1
  local sfpos="position startpos" arfen=()
  if [ -n "$fen" ]; then sfpos="position fen $fen"; arfen=(--fen "$fen"); fi
  for _ in $(seq "$PAIRS"); do
    t0=$(now); printf '%s\ngo perft %s\nquit\n' "$sfpos" "$depth" | "$SF" >/dev/null; t1=$(now)
    sf_t+=("$(echo "$t1 - $t0" | bc -l)")
    t0=$(now); "$ARB" perft "$depth" "${arfen[@]}" >/dev/null 2>&1; t1=$(now)
    ar_t+=("$(echo "$t1 - $t0" | bc -l)")
    t0=$(now); "$ARB" perft "$depth" "${arfen[@]}" --threads 2 >/dev/null 2>&1; t1=$(now)
    ar2_t+=("$(echo "$t1 - $t0" | bc -l)")
  done
  local sf ar ar2
  sf=$(printf '%s\n' "${sf_t[@]}" | median)
  ar=$(printf '%s\n' "${ar_t[@]}" | median)
  ar2=$(printf '%s\n' "${ar2_t[@]}" | median)
  printf '%-14s stockfish %.3f s | arbiter 1T %.3f s (%.2fx stockfish) | arbiter 2T %.3f s (%.2fx 1T)\n' \
    "$name" "$sf" "$ar" "$(echo "$sf / $ar" | bc -l)" "$ar2" "$(echo "$ar / $ar2" | bc -l)"
}
run_pair "startpos d6" 6 ""
run_pair "kiwipete d5" 5 "$KIWI"
