#!/usr/bin/env bash
# A gauntlet of one Arbiter build against the Debian engines of the strength ladder (docs/strength.md),
# played by cutechess-cli or fastchess: every opening of tests/data/openings.epd (or of the file OPENINGS
# names) in order, each with both colours, one thread and 64 MB per engine, no pondering.
#
#   scripts/gauntlet.sh BINARY LABEL GAMES TC [OPPONENT...]
#   scripts/gauntlet.sh ./arbiter-new new 200 10+0.1 sf2850 ethereal
#
# OPPONENT: sf2850 (Stockfish 15.1, UCI_LimitStrength UCI_Elo 2850), ethereal (Ethereal 12), glaurung
# (Glaurung 2.2), toga (Toga II 3.0), gnuchess (GNU Chess 6.2.7), sf (Stockfish 15.1 full strength).
# Default: sf2850 ethereal. Needs cutechess-cli or fastchess on PATH (RUNNER=fastchess or RUNNER=cutechess-cli
# chooses; default: cutechess-cli when there is one) and `apt-get install stockfish ethereal-chess glaurung toga2
# gnuchess`. Build them from their sources (https://github.com/cutechess/cutechess, about 15 minutes for Qt;
# https://github.com/Disservin/fastchess, about a minute: `make -j2`).
#
# Output in gauntlet-LABEL/: one PGN and one runner log per opponent; the last lines of each log are the score
# and Elo with its interval; scripts/gauntlet_diff.py reads the PGNs of either runner. CONCURRENCY (default 2)
# games at once: each engine thinks only on its own move, so two games fit two cores. Adjudication: resign after 4 moves of both engines >= 1000 cp
# against one side; draw from move 40 after 8 moves of both |score| <= 10 cp.
set -euo pipefail
bin=${1:?binary}; label=${2:?label}; games=${3:?games}; tc=${4:?time control, e.g. 10+0.1}
shift 4
opponents=("$@")
[ ${#opponents[@]} -eq 0 ] && opponents=(sf2850 ethereal)
here=$(cd "$(dirname "$0")/.." && pwd)
openings=${OPENINGS:-$here/tests/data/openings.epd}
[ -f "$openings" ] || { echo "no openings file: $openings" >&2; exit 2; }
concurrency=${CONCURRENCY:-2}
out=gauntlet-$label
mkdir -p "$out"
runner=${RUNNER:-$(command -v cutechess-cli >/dev/null && echo cutechess-cli || echo fastchess)}
case "$runner" in
  cutechess-cli) pgnout=("$out/OPP.pgn"); summary="^Score of|^Elo difference|Finished match" ;;
  fastchess) pgnout=(file="$out/OPP.pgn"); summary="^Results of|^Elo:|^Games:|^Finished match" ;;
  *) echo "RUNNER must be cutechess-cli or fastchess, not $runner" >&2; exit 2 ;;
esac
command -v "$runner" >/dev/null || { echo "$runner not on PATH" >&2; exit 2; }
[ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }

engine_args() {
  case "$1" in
    sf2850) echo "cmd=/usr/games/stockfish name=Stockfish-15.1-2850 option.UCI_LimitStrength=true option.UCI_Elo=2850" ;;
    sf) echo "cmd=/usr/games/stockfish name=Stockfish-15.1" ;;
    ethereal) echo "cmd=/usr/games/ethereal-chess name=Ethereal-12" ;;
    glaurung) echo "cmd=/usr/games/glaurung name=Glaurung-2.2" ;;
    toga) echo "cmd=/usr/games/toga2 name=Toga-II-3.0" ;;
    # cutechess-cli takes an engine's arguments one by one, fastchess as one string.
    gnuchess) echo "cmd=/usr/games/gnuchess $([ "$runner" = fastchess ] && echo args || echo arg)=--uci name=GNU-Chess-6.2.7" ;;
    *) echo "unknown opponent: $1" >&2; exit 2 ;;
  esac
}

for opp in "${opponents[@]}"; do
  args=$(engine_args "$opp")
  # shellcheck disable=SC2086 # the engine arguments are words on purpose
  "$runner" \
    -engine cmd="$bin" name="Arbiter-$label" \
    -engine $args \
    -each proto=uci tc="$tc" option.Hash=64 option.Threads=1 \
    -openings file="$openings" format=epd order=sequential \
    -repeat -games 2 -rounds $(((games + 1) / 2)) -concurrency "$concurrency" \
    -resign movecount=4 score=1000 twosided=true -draw movenumber=40 movecount=8 score=10 \
    -recover -ratinginterval 20 -pgnout "${pgnout[@]/OPP/$opp}" \
    > "$out/$opp.log" 2>&1
  echo "== $label vs $opp ($games games, $tc)"
  grep -E "$summary" "$out/$opp.log" | tail -3
done
