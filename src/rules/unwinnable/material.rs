//! Material that can never checkmate, whatever the position.
//!
//! - A bare king never gives check.
//! - A lone knight against a king with nothing but queens: the knight mates only with the
//!   opponent's own pieces blocking the king's flight squares, and a queen next to the king
//!   always reaches the checking knight or the line (the rule python-chess and CHA use).
//! - Bishops all on one square colour against a king whose other pieces are rooks, queens
//!   and bishops of that colour: a bishop checks only on its colour, so the king's
//!   orthogonal neighbours (the other colour) must be taken by the winner's king (at most
//!   one of them: two such squares share no neighbour at distance two from the king) or
//!   blocked by rooks or queens; a rook or queen beside the king is adjacent along a line to
//!   every diagonal neighbour next to it, so it takes a checking bishop there or steps into
//!   a distant bishop's line, and two bishops cannot give a double check by discovery (a
//!   bishop leaving one diagonal of the king never lands on the other). No mate.

use crate::chess::{Bitboard, Color, PieceType, Position};

/// Why the material alone rules a mate out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaterialProof {
    /// Nothing but the king.
    BareKing,
    /// A lone knight, or bishops of one colour, with nothing on the other side to block.
    Insufficient,
}

/// A proof from material that `winner` can never checkmate, if there is one.
pub fn prove(pos: &Position, winner: Color) -> Option<MaterialProof> {
    prove_without(pos, winner, Bitboard::EMPTY)
}

/// [`prove`] on the board with the men on `gone` taken off. The proof reads only each side's
/// men by kind and the colour of the bishops' squares, and a capture that does not promote
/// changes nothing else of them (the capturer keeps its kind, and a bishop the colour of its
/// squares): so with `gone` the man such a capture takes, this is the proof for the position
/// after it.
pub fn prove_without(pos: &Position, winner: Color, gone: Bitboard) -> Option<MaterialProof> {
    let kings = pos.pieces(PieceType::King);
    let ours = pos.color(winner) & !kings & !gone;
    if ours.is_empty() {
        return Some(MaterialProof::BareKing);
    }
    let theirs = pos.color(winner.flip()) & !kings & !gone;
    let pawns = pos.pieces(PieceType::Pawn);
    let knights = pos.pieces(PieceType::Knight);
    let bishops = pos.pieces(PieceType::Bishop);
    let rooks = pos.pieces(PieceType::Rook);
    if (ours & (pawns | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen))).nonempty() {
        return None;
    }
    if ours == (ours & knights) && !ours.more_than_one() {
        let blockers = theirs & (pawns | knights | bishops | rooks);
        return blockers.is_empty().then_some(MaterialProof::Insufficient);
    }
    if ours == (ours & bishops) {
        let colour =
            if (ours & Bitboard::LIGHT_SQUARES).is_empty() { Bitboard::DARK_SQUARES } else { Bitboard::LIGHT_SQUARES };
        if (ours & !colour).nonempty() {
            return None; // bishops of both colours
        }
        let helpers = theirs & (pawns | knights | (bishops & !colour));
        return helpers.is_empty().then_some(MaterialProof::Insufficient);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;

    fn can(fen: &str, c: Color) -> bool {
        attacks::init();
        prove(&Position::from_fen(fen).expect("test FEN"), c).is_none()
    }

    #[test]
    fn per_side() {
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
        // K+B v K+R: the rook can never be a blocker that holds.
        assert!(!can("4k2r/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White));
        // K+B v K+B of the other colour: a mate exists.
        assert!(can("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White));
        // K+N+N v K: a mate exists (with help).
        assert!(can("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", Color::White));
        assert_eq!(
            prove(&Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap(), Color::Black),
            Some(MaterialProof::BareKing)
        );
    }
}
