//! The one door between self-play and the Laws: every question the game loop asks about
//! how a game ends goes through here.
//!
//! STAND-IN: until the `explain` branch's referee (`rules::referee`) and SAN land, the
//! bodies below are minimal placeholders so the match machinery can be built and tested.
//! They are replaced by calls to the referee at the merge; do not grow them.

use crate::chess::{movegen, Color, Move, Position};
use std::fmt;

/// How a game ended without anyone's help (FIDE 5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutomaticEnd {
    /// The side to move is checkmated.
    Checkmate,
    Stalemate,
    DeadPosition,
    FivefoldRepetition,
    SeventyFiveMoves,
}

/// A draw the player having the move may claim (FIDE 9.2, 9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    ThreefoldRepetition,
    FiftyMoves,
}

impl fmt::Display for AutomaticEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AutomaticEnd::Checkmate => "checkmate (FIDE 5.1.1)",
            AutomaticEnd::Stalemate => "stalemate (FIDE 5.2.1)",
            AutomaticEnd::DeadPosition => "dead position (FIDE 5.2.2)",
            AutomaticEnd::FivefoldRepetition => "fivefold repetition (FIDE 9.6.1)",
            AutomaticEnd::SeventyFiveMoves => "seventy-five-move rule (FIDE 9.6.2)",
        })
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Claim::ThreefoldRepetition => "threefold repetition claimed (FIDE 9.2)",
            Claim::FiftyMoves => "fifty-move rule claimed (FIDE 9.3)",
        })
    }
}

/// The game's automatic end in `pos`, if any. `history` holds the keys of every position of
/// the game, `pos` last.
pub fn automatic_end(pos: &Position, history: &[u64]) -> Option<AutomaticEnd> {
    let repeats = history.iter().filter(|&&k| k == pos.key()).count();
    if !movegen::has_legal_move(pos) {
        return Some(if pos.in_check() { AutomaticEnd::Checkmate } else { AutomaticEnd::Stalemate });
    }
    if pos.insufficient_material() {
        return Some(AutomaticEnd::DeadPosition);
    }
    if repeats >= 5 {
        return Some(AutomaticEnd::FivefoldRepetition);
    }
    if pos.halfmove_clock() >= 150 {
        return Some(AutomaticEnd::SeventyFiveMoves);
    }
    None
}

/// A draw the player to move may claim now, on the position on the board.
pub fn claimable(pos: &Position, history: &[u64]) -> Option<Claim> {
    if history.iter().filter(|&&k| k == pos.key()).count() >= 3 {
        return Some(Claim::ThreefoldRepetition);
    }
    if pos.halfmove_clock() >= 100 {
        return Some(Claim::FiftyMoves);
    }
    None
}

/// FIDE 6.9: can `color` still possibly checkmate?
pub fn can_possibly_mate(pos: &Position, color: Color) -> bool {
    crate::rules::mating::can_possibly_mate(pos, color)
}

/// Standard algebraic notation of a legal move.
pub fn san(pos: &Position, m: Move) -> String {
    use crate::chess::PieceType;
    let after = pos.make_move(m);
    let suffix = if after.in_check() {
        if movegen::has_legal_move(&after) {
            "+"
        } else {
            "#"
        }
    } else {
        ""
    };
    if m.is_castling() {
        let side = if m.to().file().index() > m.from().file().index() { "O-O" } else { "O-O-O" };
        return format!("{side}{suffix}");
    }
    let Some(piece) = pos.piece_at(m.from()) else { return m.to_string() };
    let to = m.to().to_string();
    let from = m.from().to_string();
    let mut s = String::new();
    if piece.kind == PieceType::Pawn {
        if m.is_capture() {
            s.push_str(&from[0..1]);
            s.push('x');
        }
        s.push_str(&to);
        if let Some(p) = m.promotion() {
            s.push('=');
            s.push(p.char().to_ascii_uppercase());
        }
    } else {
        s.push(piece.kind.char().to_ascii_uppercase());
        let rivals: Vec<Move> = movegen::legal_moves(pos)
            .iter()
            .copied()
            .filter(|o| *o != m && o.to() == m.to() && pos.piece_at(o.from()).map(|p| p.kind) == Some(piece.kind))
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|o| o.from().file() == m.from().file());
            let same_rank = rivals.iter().any(|o| o.from().rank() == m.from().rank());
            if !same_file {
                s.push_str(&from[0..1]);
            } else if !same_rank {
                s.push_str(&from[1..2]);
            } else {
                s.push_str(&from);
            }
        }
        if m.is_capture() {
            s.push('x');
        }
        s.push_str(&to);
    }
    s.push_str(suffix);
    s
}
