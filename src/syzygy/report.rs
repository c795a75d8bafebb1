//! The tablebase value of a position, as facts for the position reports (`d` in UCI,
//! `arbiter explain --syzygy`, in words or JSON; the words are the explain mode's, in
//! each of its languages). It says what best play by both sides leads to, which is not a
//! verdict of the Laws: "can still checkmate" asks whether any series of legal moves
//! mates, a tablebase win whether best play does.

use super::{rank_moves, Tablebases, Wdl};
use crate::chess::notation::to_san;
use crate::chess::{Color, Position};

/// What the tables say about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablebaseReport {
    /// More pieces than the largest table loaded.
    NotInTables {
        pieces: u32,
        largest: u32,
    },
    /// The tables cannot tell (a table missing or damaged, castling rights), and why.
    Unknown {
        why: String,
    },
    Known(Known),
}

/// A position's value by the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub side: Color,
    /// With the fifty-move counter at 0, as the tables count.
    pub value: Wdl,
    /// Plies to the next capture or pawn move with best play (signed as the value), or why
    /// it is unknown.
    pub dtz: Result<i32, String>,
    pub halfmove_clock: u32,
    /// Every legal move, best first, with the counter as it stands (or why unknown).
    pub moves: Result<Vec<MoveValue>, String>,
}

/// One legal move by the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    pub san: String,
    pub uci: String,
    /// The result after the move with the counter as it stands.
    pub value: Wdl,
    /// DTZ after the move, in plies from before it (positive: the mover wins).
    pub dtz: i32,
    /// Among the moves the tables rank best.
    pub best: bool,
}

impl Known {
    /// The best result with the counter as it stands (`None`: no legal move, or unknown).
    pub fn result(&self) -> Option<Wdl> {
        self.moves.as_ref().ok()?.first().map(|m| m.value)
    }
}

/// What the tables say about `pos` (`None` when no tables are loaded); `history`: keys of
/// the game's earlier positions (for repetitions).
pub fn value(tb: &Tablebases, pos: &Position, history: &[u64]) -> Option<TablebaseReport> {
    if tb.is_empty() {
        return None;
    }
    let pieces = pos.occupied().count();
    if pieces > tb.max_pieces() {
        return Some(TablebaseReport::NotInTables { pieces, largest: tb.max_pieces() });
    }
    // The moves first: their check of the root's value may find the tables damaged.
    let moves = rank_moves(tb, pos, history, true).map_err(|e| e.to_string());
    let value = match tb.probe_wdl(pos) {
        Ok(w) => w,
        Err(e) => return Some(TablebaseReport::Unknown { why: e.to_string() }),
    };
    let moves = moves.map(|mut ranked| {
        // Moves the tables rank alike are shown quickest win first, longest defence first
        // (DTZ ascending within a rank): the order a reader looks for. The search keeps its
        // own order; the sort is stable, so equal DTZs keep move order.
        ranked.sort_by_key(|r| (std::cmp::Reverse(r.rank), r.dtz));
        let best = ranked.first().map(|r| r.rank);
        ranked
            .iter()
            .map(|r| MoveValue {
                san: to_san(pos, r.mv),
                uci: r.mv.to_uci(),
                value: r.wdl,
                dtz: r.dtz,
                best: Some(r.rank) == best,
            })
            .collect()
    });
    Some(TablebaseReport::Known(Known {
        side: pos.side_to_move(),
        value,
        dtz: tb.probe_dtz(pos).map_err(|e| e.to_string()),
        halfmove_clock: pos.halfmove_clock() as u32,
        moves,
    }))
}
