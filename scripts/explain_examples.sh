#!/usr/bin/env bash
# Regenerates docs/examples/ (the explain mode's text, JSON and SVG examples) with a built binary.
# Usage: bash scripts/explain_examples.sh [BINARY]   (default target/release/arbiter)
set -euo pipefail
cd "$(dirname "$0")/.."
ARB=${1:-target/release/arbiter}
D=docs/examples
PIN="4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"
ex() { "$ARB" explain "$@"; }
ex --fen "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1" O-O-O > $D/castling-b1-attacked.en.txt
ex --fen "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1" --lang zh --svg $D/castling-through-check.zh.svg O-O \
    > $D/castling-through-check.zh.txt
ex --fen "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1" --moves "d5 Kd2 Ke7" --svg $D/en-passant-expired.svg exd6 \
    > $D/en-passant-expired.en.txt
ex --fen "7k/8/5KQ1/8/8/8/8/8 w - - 0 1" --lang zh --svg $D/mate.zh.svg Qg7 > $D/mate.zh.txt
ex --fen "8/8/8/8/kb2R3/8/3n4/4K3 w - - 0 1" Kxd2 > $D/pinned-defender.en.txt
ex --fen "$PIN" --json Rxe8 > $D/pinned-rook-captures.json
ex --fen "$PIN" --lang zh Rxe8 > $D/pinned-rook-captures.zh.txt
ex --fen "$PIN" --svg $D/pinned-rook.svg Re2f2 > $D/pinned-rook.en.txt
ex --fen "$PIN" --json Re2f2 > $D/pinned-rook.json
ex --fen "$PIN" --lang zh Re2f2 > $D/pinned-rook.zh.txt
ex --fen "8/k1P5/2K5/8/8/8/8/8 w - - 0 1" c8=Q > $D/promotion-stalemate.en.txt
ex --fen "8/k1P5/2K5/8/8/8/8/8 w - - 0 1" --lang zh c8=Q > $D/promotion-stalemate.zh.txt
DANCE="Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
ex --moves "$DANCE" > $D/threefold-report.en.txt
ex --moves "$DANCE" --lang zh > $D/threefold-report.zh.txt
ex --moves "$DANCE" --json > $D/threefold-report.json
