#!/usr/bin/env bash
# Refit the UCI_ShowWDL model to the current engine: self-play data, then the fit, written to
# src/engine/wdl_fit.rs (commit it). Deterministic up to thread timing: node-limited games,
# openings in the order of --seed. Runs niced; about 45 min on one idle core for the default.
#
#   scripts/wdl_refit.sh [GAMES=1000] [NODES=10000] [OUT_DIR=target/wdl]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
nodes=${2:-10000}
out=${3:-target/wdl}
mkdir -p "$out"
cargo build --release --quiet
cmd="arbiter selfplay --nodes $nodes --games $games --repeat --openings tests/data/openings.epd --seed 1 --concurrency 1 --datagen $out/data.txt"
rm -f "$out/data.txt"
nice -n 10 ./target/release/$cmd --quiet | tee "$out/selfplay.txt"
python3 scripts/fit_wdl.py "$out/data.txt" --command "$cmd" --write src/engine/wdl_fit.rs \
    | tee "$out/fit.txt"
