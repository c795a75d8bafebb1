"""Oracle for tests/it/syzygy.rs: python-chess's chess.syzygy probes the positions Arbiter probed.

Usage: syzygy_probe.py TABLE_DIR CASES_FILE
CASES_FILE has one case a line: FEN;WDL;DTZ (Arbiter's values, or ERR when Arbiter's probe failed).
Prints one MISMATCH line per disagreement, then `checked N`.
"""
import sys

import chess
import chess.syzygy


def main() -> None:
    table_dir, cases = sys.argv[1], sys.argv[2]
    checked = 0
    with chess.syzygy.open_tablebase(table_dir) as tb, open(cases, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            fen, wdl, dtz = line.split(";")
            board = chess.Board(fen)
            try:
                want = (str(tb.probe_wdl(board)), str(tb.probe_dtz(board)))
            except KeyError as e:
                want = ("ERR", f"ERR ({e})")
            if (wdl, dtz) != want[:1] + (want[1].split(" ")[0],):
                print(f"MISMATCH {fen}: Arbiter wdl {wdl} dtz {dtz}, python-chess wdl {want[0]} dtz {want[1]}")
            checked += 1
    print(f"checked {checked}")


if __name__ == "__main__":
    main()
