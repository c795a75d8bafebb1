#!/bin/sh
# A Chess960 match in cutechess-cli (-variant fischerandom), then the PGN replayed by python-chess.
#   scripts/lab/chess960_match.sh OUT_DIR ROUNDS [cutechess-cli arguments for the opponent ...]
# ROUNDS start positions (numbers drawn with a fixed seed, FEN from python-chess), each played with
# both colours; 5+0.05, one game at a time, niced. Example (docs/chess960.md):
#   scripts/lab/chess960_match.sh m960 50 -engine cmd=/usr/games/stockfish name=Stockfish proto=uci nodes=5000
set -eu
out=$1 rounds=$2
shift 2
arbiter=${ARBITER:-target/release/arbiter}
mkdir -p "$out"
python3 -c "
import random, chess
for n in random.Random(960).sample(range(960), $rounds):
    print(chess.Board.from_chess960_pos(n).epd(), f'id \"{n}\";')" > "$out/starts.epd"
nice -n 10 cutechess-cli -variant fischerandom \
    -engine cmd="$arbiter" name=Arbiter proto=uci "$@" \
    -each tc=5+0.05 timemargin=300 option.Hash=16 option.Threads=1 "option.Move Overhead=50" \
    -openings file="$out/starts.epd" format=epd order=sequential -repeat -games 2 -rounds "$rounds" \
    -resign movecount=3 score=800 twosided=true -draw movenumber=40 movecount=8 score=10 \
    -concurrency 1 -pgnout "$out/games.pgn" | tee "$out/cutechess.log"
grep -ciE "illegal|disconnect|stall|crash" "$out/cutechess.log" | sed 's/^/lines naming an illegal move, disconnect, stall or crash: /' || true
python3 "$(dirname "$0")/../pgn_replay.py" "$out/games.pgn"
