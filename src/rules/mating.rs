//! FIDE 6.9 (and 5.2.2 seen from one side): can a player still possibly checkmate the
//! opponent, by any series of legal moves (the opponent "helping")? Used when a flag falls:
//! the game is drawn instead of lost if the opponent cannot possibly mate.
//!
//! Decided from material only, conservatively (a "true" may include positions where mate is
//! in fact impossible, e.g. blocked pawns; a "false" is always right):
//! - a pawn, rook or queen can mate;
//! - a lone knight (one knight, nothing else) can mate only with the help of enemy pieces
//!   other than the king and queens (they block the king's flight squares);
//! - bishops alone can mate unless every bishop on the board stands on one square colour
//!   and there are no pawns or knights on the board (which could block);
//! - a bare king cannot mate.
//!
//! This is the same rule as python-chess's `has_insufficient_material(color)`.

use crate::chess::{Bitboard, Color, PieceType, Position};

/// False when `color` cannot possibly checkmate the opponent whatever is played.
pub fn can_possibly_mate(pos: &Position, color: Color) -> bool {
    let ours = pos.color(color);
    let theirs = pos.color(color.flip());
    let heavy = pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    if (ours & heavy).nonempty() {
        return true;
    }
    let knights = pos.pieces(PieceType::Knight);
    if (ours & knights).nonempty() {
        let lone_knight = ours.count() <= 2;
        let blockers = theirs & !pos.pieces(PieceType::King) & !pos.pieces(PieceType::Queen);
        return !(lone_knight && blockers.is_empty());
    }
    let bishops = pos.pieces(PieceType::Bishop);
    if (ours & bishops).nonempty() {
        let one_colour =
            (bishops & Bitboard::DARK_SQUARES).is_empty() || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
        let blockers = pos.pieces(PieceType::Pawn) | knights;
        return !(one_colour && blockers.is_empty());
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn can(fen: &str, c: Color) -> bool {
        can_possibly_mate(&Position::from_fen(fen).unwrap(), c)
    }

    #[test]
    fn per_side() {
        crate::chess::attacks::init();
        // K+Q v K: White can, Black cannot.
        assert!(can("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Color::White));
        assert!(!can("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Color::Black));
        // K+N v K+R: the knight can mate with the rook's help.
        assert!(can("4k2r/8/8/8/8/8/8/3NK3 w - - 0 1", Color::White));
        // K+N v K+Q: the knight cannot.
        assert!(!can("4k2q/8/8/8/8/8/8/3NK3 w - - 0 1", Color::White));
        // K+B v K+P: a pawn can block.
        assert!(can("4k3/7p/8/8/8/8/8/3BK3 w - - 0 1", Color::White));
        // K+B v K+B same colour squares: nobody can.
        assert!(!can("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White));
        // K+N+N v K: a mate exists (with help).
        assert!(can("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", Color::White));
    }
}
