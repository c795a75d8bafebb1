//! The tablebase value of a position in words, for the position reports (`d` in UCI,
//! `arbiter explain --syzygy`). It says what best play by both sides leads to, which is
//! not a verdict of the Laws: "can still checkmate" asks whether any series of legal
//! moves mates, a tablebase win whether best play does.

use super::{rank_moves, Tablebases, Wdl};
use crate::chess::notation::to_san;
use crate::chess::Position;

/// Lines describing `pos` by the tables (empty when no tables are loaded); `history`:
/// keys of the game's earlier positions (for repetitions).
pub fn describe(tb: &Tablebases, pos: &Position, history: &[u64]) -> Vec<String> {
    if tb.is_empty() {
        return Vec::new();
    }
    let head = "Tablebase (Syzygy; best play by both sides, not a ruling under the Laws):";
    let pieces = pos.occupied().count();
    if pieces > tb.max_pieces() {
        return vec![format!("{head} not in the tables ({pieces} pieces, tables up to {})", tb.max_pieces())];
    }
    let side = pos.side_to_move().name();
    let wdl = match tb.probe_wdl(pos) {
        Ok(w) => w,
        Err(e) => return vec![format!("{head} unknown: {e}")],
    };
    let mut lines = vec![head.to_string()];
    let dtz = match tb.probe_dtz(pos) {
        Ok(0) => String::new(),
        Ok(d) => format!(", {} plies to the next capture or pawn move (DTZ {d})", d.abs()),
        Err(e) => format!(" (DTZ unknown: {e})"),
    };
    lines.push(format!(
        "  {side} to move: {}{dtz}, if the fifty-move counter were 0 (it is {})",
        wdl.name(),
        pos.halfmove_clock()
    ));
    match rank_moves(tb, pos, history, true) {
        Ok(ranked) if !ranked.is_empty() => {
            let best = ranked[0].rank;
            let keep: Vec<String> = ranked
                .iter()
                .filter(|r| r.rank == best)
                .map(|r| if r.dtz == 0 { to_san(pos, r.mv) } else { format!("{} (DTZ {})", to_san(pos, r.mv), r.dtz) })
                .collect();
            let result = match ranked[0].wdl {
                Wdl::Win => "win within the fifty-move rule",
                Wdl::CursedWin => "win, too slow for the fifty-move rule",
                Wdl::Draw => "draw",
                Wdl::BlessedLoss => "loss the fifty-move rule saves",
                Wdl::Loss => "loss",
            };
            lines.push(format!("  best result with the counter as it stands: {result}; moves: {}", keep.join(", ")));
        }
        Ok(_) => {}
        Err(e) => lines.push(format!("  moves unknown: {e}")),
    }
    lines
}
