//! Ranking the legal moves of a position by their tablebase result, so that a won
//! ending is converted within the fifty-move rule and a lost one is held longest.
//!
//! Every move gets the DTZ of the position after it, counted from before the move.
//! Wins that still zero in time (DTZ plus the fifty-move counter within 99 plies) all
//! rank first and equally (the search chooses among them) until a position repeats,
//! and by DTZ from then on to the next zeroing move. A win that would not zero in time
//! ranks by how close it comes; losses rank equally while the fifty-move rule is out of
//! reach, and after it by how long they last.
//!
//! Repetitions, which the tables know nothing of: a move that makes a position occur a
//! third time counts as a draw; among wins of equal rank, those that go back into a
//! position of the game come after those that do not, and those after which the
//! opponent can make a position occur a third time last.

use super::probe::is_zeroing;
use super::{ProbeError, Tablebases, Wdl};
use crate::chess::movegen::has_legal_move;
use crate::chess::{legal_moves, Move, Position};

/// The primary rank of a certain win (and, negated, of a certain loss); a move's rank
/// is four times its primary rank less the repetition risk (0-2) of a winning move.
const RANK_WIN: i32 = 1 << 18;

/// One legal move with its tablebase result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// DTZ after this move, in plies from before it (positive: the mover wins).
    pub dtz: i32,
    /// The result of the move with the fifty-move counter as it stands.
    pub wdl: Wdl,
    /// Higher is better; moves of equal rank are equally good for the tables.
    pub rank: i32,
}

/// The legal moves of `pos` ranked best first (stable: equal ranks keep move order).
/// `history`: keys of the game's earlier positions, oldest first (for repetitions).
/// `rule50`: whether the fifty-move rule counts (`Syzygy50MoveRule`); without it a
/// cursed win counts as a win and a blessed loss as a loss.
pub fn rank_moves(
    tb: &Tablebases,
    pos: &Position,
    history: &[u64],
    rule50: bool,
) -> Result<Vec<RankedMove>, ProbeError> {
    let counter = pos.halfmove_clock() as i32;
    let since_zeroing = &history[history.len().saturating_sub(pos.halfmove_clock() as usize)..];
    // Occurrences of a position since the last zeroing move, the root included.
    let seen = |key: u64| since_zeroing.iter().filter(|&&k| k == key).count() + (key == pos.key()) as usize;
    // Once any position has repeated since the last zeroing move, wins rank by DTZ: the
    // distance to zeroing then only shrinks, so no position comes back.
    let repeated = seen(pos.key()) > 1 || since_zeroing.iter().any(|&k| seen(k) > 1);
    let mut ranked = Vec::new();
    // The best of the moves' values by the tables (repetitions aside), to check the root's.
    let mut best_sign = -1;
    for &mv in legal_moves(pos).iter() {
        let child = pos.make_move(mv);
        let repeats = !is_zeroing(pos, mv) && seen(child.key()) >= 2;
        let mut dtz = if is_zeroing(pos, mv) {
            match tb.probe_wdl(&child)?.negate() {
                Wdl::Win => 1,
                Wdl::CursedWin => 101,
                Wdl::Draw => 0,
                Wdl::BlessedLoss => -101,
                Wdl::Loss => -1,
            }
        } else if repeats {
            // The move repeats a position for the third time: a draw (its value by the
            // tables still counts for the check below).
            best_sign = best_sign.max(-(tb.probe_wdl(&child)? as i32).signum());
            0
        } else {
            let d = -tb.probe_dtz(&child)?;
            d + d.signum()
        };
        if !repeats {
            best_sign = best_sign.max(dtz.signum());
        }
        // A mating move counts 1, whatever the rounding.
        if dtz == 2 && child.in_check() && !has_legal_move(&child) {
            dtz = 1;
        }
        let primary = if dtz > 0 {
            if dtz + counter <= 99 && !repeated {
                RANK_WIN
            } else {
                RANK_WIN - (dtz + counter)
            }
        } else if dtz < 0 {
            if -dtz * 2 + counter < 100 {
                -RANK_WIN
            } else {
                -RANK_WIN + (-dtz + counter)
            }
        } else {
            0
        };
        let wdl = if primary >= RANK_WIN - 100 || (!rule50 && primary > 0) {
            Wdl::Win
        } else if primary > 0 {
            Wdl::CursedWin
        } else if primary == 0 {
            Wdl::Draw
        } else if primary > -RANK_WIN + 100 && rule50 {
            Wdl::BlessedLoss
        } else {
            Wdl::Loss
        };
        // Among wins of the same primary rank, the repetitions they risk order them: none;
        // back into a position of the game (moves wasted); then one after which the
        // opponent can make a position occur a third time (a draw it may claim, and one a
        // GUI adjudicates at once). Measured against Stockfish (60 won endings, 1+0.01):
        // by the primary rank alone, 1 win was drawn by a threefold repetition.
        let risk = if dtz <= 0 {
            0
        } else if legal_moves(&child).iter().any(|&r| !is_zeroing(&child, r) && seen(child.make_move(r).key()) >= 2) {
            2
        } else {
            (seen(child.key()) > 0) as i32
        };
        let rank = 4 * primary - risk;
        ranked.push(RankedMove { mv, dtz, wdl, rank });
    }
    // A cheap check where a damaged header would otherwise speak: the root's value must
    // be that of its best move (by sign: the fifty-move counter, 0 at the root and 1 after
    // a quiet move, may turn a cursed win into a win one ply on).
    if !ranked.is_empty() {
        let value = tb.probe_wdl(pos)?;
        if (value as i32).signum() != best_sign {
            let best = match best_sign {
                1 => Wdl::Win,
                0 => Wdl::Draw,
                _ => Wdl::Loss,
            };
            return Err(tb.contradiction(pos, value, best));
        }
    }
    ranked.sort_by_key(|r| std::cmp::Reverse(r.rank));
    Ok(ranked)
}
