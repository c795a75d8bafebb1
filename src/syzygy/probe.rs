//! Win/draw/loss and distance to zeroing of a position.
//!
//! The tables leave some work to the prober: a WDL table may store any value where a
//! capture is at least as good (so captures are searched first, as a small alpha-beta
//! over captures only), positions with an en-passant right are not stored (the
//! capture is tried on top), and a DTZ table stores one side to move only (for the
//! other, one ply is searched). This follows the algorithm of the format's author, so
//! that the values agree with every other Syzygy prober to the last ply.
//!
//! All values are from the side to move's point of view and assume the fifty-move
//! counter is zero (the position was just reached by a capture or pawn move).

use super::table::Stored;
use super::{ProbeError, Tablebases};
use crate::chess::movegen::has_legal_move;
use crate::chess::{legal_moves, Move, PieceType, Position};

/// The result with best play, counting the fifty-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = -2,
    /// A loss that the fifty-move rule turns into a draw.
    BlessedLoss = -1,
    Draw = 0,
    /// A win that the fifty-move rule turns into a draw.
    CursedWin = 1,
    Win = 2,
}

impl Wdl {
    fn from_i32(v: i32) -> Wdl {
        match v {
            i32::MIN..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }
    pub fn negate(self) -> Wdl {
        Wdl::from_i32(-(self as i32))
    }
    /// The name in JSON.
    pub fn code(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed_loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed_win",
            Wdl::Win => "win",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "loss, but a draw by the fifty-move rule (blessed loss)",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "win, but a draw by the fifty-move rule (cursed win)",
            Wdl::Win => "win",
        }
    }
}

fn is_pawn_move(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceType::Pawn)
}

/// A zeroing move: a capture or a pawn move (the fifty-move counter starts again).
pub(super) fn is_zeroing(pos: &Position, m: Move) -> bool {
    m.is_capture() || is_pawn_move(pos, m)
}

/// The DTZ a zeroing move into a position of result `wdl` (for the mover) counts.
fn dtz_before_zeroing(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

/// Where a capture settled a probe: `Table` if the table value stands, `Capture` if a
/// capture (or en passant) is at least as good.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Table,
    Capture,
}

impl Tablebases {
    /// WDL of `pos` for the side to move.
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        if !pos.castling_rights().is_empty() {
            return Err(ProbeError::CastlingRights);
        }
        self.wdl_with_ep(pos).map(Wdl::from_i32)
    }

    /// DTZ of `pos` for the side to move: plies to the next zeroing move with best play
    /// (positive: winning, negative: losing, 0: draw; beyond ±100 the fifty-move rule
    /// draws first). As the tables round, a value may be one ply more than the truth,
    /// never where it would change the result.
    pub fn probe_dtz(&self, pos: &Position) -> Result<i32, ProbeError> {
        if !pos.castling_rights().is_empty() {
            return Err(ProbeError::CastlingRights);
        }
        self.dtz_with_ep(pos)
    }

    /// The raw WDL table value (the bare kings need none).
    fn wdl_table(&self, pos: &Position) -> Result<i32, ProbeError> {
        if pos.occupied() == pos.pieces(PieceType::King) {
            return Ok(0);
        }
        match self.stored(pos, false, 0)? {
            Stored::Value(v) => Ok(v),
            Stored::OtherSide => Ok(0), // WDL tables hold both sides: never happens
        }
    }

    /// Alpha-beta over captures (not en passant), the table's value on top.
    fn probe_ab(&self, pos: &Position, mut alpha: i32, beta: i32) -> Result<(i32, Source), ProbeError> {
        for &m in legal_moves(pos).iter().filter(|m| m.is_capture() && !m.is_en_passant()) {
            let v = -self.probe_ab(&pos.make_move(m), -beta, -alpha)?.0;
            if v > alpha {
                if v >= beta {
                    return Ok((v, Source::Capture));
                }
                alpha = v;
            }
        }
        let v = self.wdl_table(pos)?;
        if alpha >= v {
            Ok((alpha, if alpha > 0 { Source::Capture } else { Source::Table }))
        } else {
            Ok((v, Source::Table))
        }
    }

    /// The best result of the legal en-passant captures, if there is any.
    fn best_en_passant(&self, pos: &Position) -> Result<Option<i32>, ProbeError> {
        let mut best = None;
        for &m in legal_moves(pos).iter().filter(|m| m.is_en_passant()) {
            let v = -self.probe_ab(&pos.make_move(m), -2, 2)?.0;
            best = Some(best.map_or(v, |b: i32| b.max(v)));
        }
        Ok(best)
    }

    /// Only en-passant captures are legal.
    fn only_en_passant(pos: &Position) -> bool {
        legal_moves(pos).iter().all(|m| m.is_en_passant())
    }

    fn wdl_with_ep(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (mut v, _) = self.probe_ab(pos, -2, 2)?;
        if pos.ep_square().is_none() {
            return Ok(v);
        }
        if let Some(ep) = self.best_en_passant(pos)? {
            if ep >= v || (v == 0 && Self::only_en_passant(pos)) {
                v = ep;
            }
        }
        Ok(v)
    }

    /// DTZ from the table, `None` when it stores the other side to move.
    fn dtz_table(&self, pos: &Position, wdl: i32) -> Result<Option<i32>, ProbeError> {
        match self.stored(pos, true, wdl)? {
            Stored::Value(v) => Ok(Some(v)),
            Stored::OtherSide => Ok(None),
        }
    }

    fn dtz_no_ep(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (wdl, source) = self.probe_ab(pos, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if source == Source::Capture {
            return Ok(dtz_before_zeroing(wdl));
        }
        let moves = legal_moves(pos);
        if wdl > 0 {
            // A pawn move that keeps the result zeroes at once.
            for &m in moves.iter().filter(|&&m| is_pawn_move(pos, m) && !m.is_capture()) {
                if -self.wdl_with_ep(&pos.make_move(m))? == wdl {
                    return Ok(dtz_before_zeroing(wdl));
                }
            }
        }
        if let Some(dtz) = self.dtz_table(pos, wdl)? {
            return Ok(dtz_before_zeroing(wdl) + if wdl > 0 { dtz } else { -dtz });
        }
        // The table has the other side to move: one ply deeper.
        if wdl > 0 {
            let mut best = 0xFFFF;
            for &m in moves.iter().filter(|&&m| !is_pawn_move(pos, m) && !m.is_capture()) {
                let child = pos.make_move(m);
                let v = -self.dtz_with_ep(&child)?;
                if v == 1 && child.in_check() && !has_legal_move(&child) {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for &m in moves.iter() {
                let child = pos.make_move(m);
                let v = if is_zeroing(pos, m) {
                    if wdl == -2 {
                        -1
                    } else {
                        let (v, _) = self.probe_ab(&child, 1, 2)?;
                        if v == 2 {
                            0
                        } else {
                            -101
                        }
                    }
                } else {
                    -self.dtz_with_ep(&child)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }

    fn dtz_with_ep(&self, pos: &Position) -> Result<i32, ProbeError> {
        let mut v = self.dtz_no_ep(pos)?;
        if pos.ep_square().is_none() {
            return Ok(v);
        }
        let Some(ep) = self.best_en_passant(pos)? else { return Ok(v) };
        let ep = dtz_before_zeroing(ep);
        let better = if v < -100 {
            ep >= 0
        } else if v < 0 {
            !(-100..0).contains(&ep)
        } else if v > 100 {
            ep > 0
        } else if v > 0 {
            ep == 1
        } else {
            ep >= 0 || Self::only_en_passant(pos)
        };
        if better {
            v = ep;
        }
        Ok(v)
    }
}
