//! Ranking the legal moves of a position by their tablebase result, so that a won
//! ending is converted within the fifty-move rule and a lost one is held longest.
//!
//! Every move gets the DTZ of the position after it, counted from before the move.
//! Wins that still zero in time (DTZ plus the fifty-move counter within 99 plies, and
//! no repetition yet) all rank first and equally: the search chooses among them. A win
//! that would not zero in time ranks by how close it comes; losses rank equally while
//! the fifty-move rule is out of reach, and after it by how long they last.
//!
//! Repetitions, which the tables know nothing of: a move that makes a position occur a
//! third time, or after which the opponent can, counts as a draw; a winning move into a
//! position already seen since the last zeroing move ranks after those that are not.

use super::probe::is_zeroing;
use super::{ProbeError, Tablebases, Wdl};
use crate::chess::movegen::has_legal_move;
use crate::chess::{legal_moves, Move, Position};

/// The primary rank of a certain win (and, negated, of a certain loss); a move's rank is
/// twice its primary rank, less one for a winning move that repeats a position.
pub const RANK_WIN: i32 = 1 << 18;

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
    let repeated = since_zeroing.contains(&pos.key());
    // Occurrences of a position since the last zeroing move, the root included.
    let seen = |key: u64| since_zeroing.iter().filter(|&&k| k == key).count() + (key == pos.key()) as usize;
    let mut ranked = Vec::new();
    for &mv in legal_moves(pos).iter() {
        let child = pos.make_move(mv);
        let mut dtz = if is_zeroing(pos, mv) {
            match tb.probe_wdl(&child)?.negate() {
                Wdl::Win => 1,
                Wdl::CursedWin => 101,
                Wdl::Draw => 0,
                Wdl::BlessedLoss => -101,
                Wdl::Loss => -1,
            }
        } else if seen(child.key()) >= 2 {
            0 // the move repeats a position for the third time: a draw
        } else if legal_moves(&child).iter().any(|&r| !is_zeroing(&child, r) && seen(child.make_move(r).key()) >= 2) {
            // The reply can repeat a position for the third time: a draw the opponent
            // may claim (and a GUI may adjudicate at once), whatever the tables say.
            0
        } else {
            let d = -tb.probe_dtz(&child)?;
            d + d.signum()
        };
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
        // A winning move back into a position of the game wastes moves (and risks a
        // repetition draw): it ranks after the winning moves that do not, at the same
        // primary rank. (Measured against Stockfish, 60 won endings at 1+0.01: without
        // these two rules about repetitions, 1 win was drawn by a threefold repetition,
        // with the first alone 1 again, the repeat coming after the opponent's reply.)
        let repeats = dtz > 0 && seen(child.key()) > 0;
        let rank = 2 * primary - repeats as i32;
        ranked.push(RankedMove { mv, dtz, wdl, rank });
    }
    ranked.sort_by(|a, b| b.rank.cmp(&a.rank));
    Ok(ranked)
}
