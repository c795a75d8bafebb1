//! Endgames the evaluation is told rather than taught: a bare king against mating material.
//!
//! Self-play data hardly holds these positions (games are adjudicated long before), so a
//! network learns nothing of driving a lone king to the edge; at a few hundred nodes a move
//! it may shuffle until the fifty-move rule. Here the score is a won position's, plus a slope
//! the search can climb: the lone king towards the edge (for bishop and knight, towards a
//! corner of the bishop's colour) and the kings together. Both evaluations (network and
//! hand-crafted) go through it, so the search sees one rule.

use crate::chess::{Bitboard, Color, PieceType, Position, Square};

/// Above any ordinary evaluation, far below the mate scores.
const KNOWN_WIN: i32 = 10_000;

/// Material as this rule counts it (the winning side's, so promotions are progress).
const VALUES: [(PieceType, i32); 5] = [
    (PieceType::Pawn, 100),
    (PieceType::Knight, 320),
    (PieceType::Bishop, 330),
    (PieceType::Rook, 500),
    (PieceType::Queen, 900),
];

/// Per step of the lone king away from the centre (Manhattan, 0 ..= 6).
const EDGE_WEIGHT: i32 = 15;
/// Per step of the lone king towards a corner of the bishop's colour (B+N only).
const CORNER_WEIGHT: i32 = 40;
/// Per step the kings are closer than 7 (Chebyshev).
const CLOSE_WEIGHT: i32 = 20;

/// The score for the side to move when one side has a bare king and the other has pieces that
/// force mate (a queen, a rook, bishops on both colours, or bishop and knight); `None`
/// otherwise, the evaluation's business.
#[inline]
pub fn bare_king(pos: &Position) -> Option<i32> {
    let lone = if !pos.color(Color::Black).more_than_one() {
        Color::Black
    } else if !pos.color(Color::White).more_than_one() {
        Color::White
    } else {
        return None;
    };
    let strong = lone.flip();
    let of = |pt| pos.pieces_of(strong, pt);
    let bishops = of(PieceType::Bishop);
    let both_colours = (bishops & Bitboard::LIGHT_SQUARES).nonempty() && (bishops & Bitboard::DARK_SQUARES).nonempty();
    let heavy = of(PieceType::Queen).nonempty() || of(PieceType::Rook).nonempty();
    let bishop_and_knight = bishops.nonempty() && of(PieceType::Knight).nonempty();
    if !(heavy || both_colours || bishop_and_knight) {
        return None;
    }
    let loser = pos.king_square(lone);
    let winner = pos.king_square(strong);
    let material: i32 = VALUES.iter().map(|&(pt, v)| of(pt).count() as i32 * v).sum();
    // Only bishop and knight (bishops of one colour) mate just in the bishop's corners.
    let slope = if !heavy && !both_colours {
        let light = (bishops & Bitboard::LIGHT_SQUARES).nonempty();
        let corners = if light { [Square::H1, Square::A8] } else { [Square::A1, Square::H8] };
        let near = corners.iter().map(|&c| loser.manhattan_distance(c)).min().unwrap_or(0);
        CORNER_WEIGHT * (14 - near)
    } else {
        EDGE_WEIGHT * centre_distance(loser)
    };
    let close = CLOSE_WEIGHT * (7 - winner.distance(loser));
    let score = KNOWN_WIN + material + slope + close;
    Some(if pos.side_to_move() == strong { score } else { -score })
}

fn centre_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(fen: &str) -> Option<i32> {
        bare_king(&Position::from_fen(fen).expect("fen"))
    }

    #[test]
    fn only_a_bare_king_against_mating_material() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/4k3/8/8/3NK3/3N4/8 w - - 0 1", // two knights: no forced mate
            "8/8/4k3/8/8/3BK3/4B3/8 w - - 0 1", // bishops of one colour (d3, e2: both light)
            "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1",  // pawns only: the evaluation's business
            "8/8/4k3/3p4/8/3QK3/8/8 w - - 0 1", // the defender has a pawn
        ] {
            assert_eq!(score(fen), None, "{fen}");
        }
        for fen in [
            "8/8/4k3/8/8/3QK3/8/8 w - - 0 1",
            "8/8/4k3/8/8/3RK3/8/8 b - - 0 1",
            "8/8/4k3/8/8/3BK3/3B4/8 w - - 0 1",
            "8/8/4k3/8/8/3BK3/3N4/8 w - - 0 1",
            "8/8/4K3/8/8/3qk3/8/8 w - - 0 1",
        ] {
            assert!(score(fen).is_some_and(|s| s.abs() > KNOWN_WIN), "{fen}");
        }
    }

    #[test]
    fn the_side_to_move_sees_its_own_sign_and_colours_are_symmetric() {
        let w = score("8/8/4k3/8/8/3QK3/8/8 w - - 0 1").unwrap();
        assert!(w > 0);
        assert_eq!(score("8/8/4k3/8/8/3QK3/8/8 b - - 0 1"), Some(-w));
        assert_eq!(score("8/8/3qk3/8/8/4K3/8/8 b - - 0 1"), Some(w));
    }

    #[test]
    fn the_lone_king_is_worse_off_at_the_edge_and_near_the_other_king() {
        let centre = score("8/8/8/4k3/8/8/Q7/K7 w - - 0 1").unwrap();
        let edge = score("4k3/8/8/8/4K3/8/Q7/8 w - - 0 1").unwrap();
        assert!(edge > centre, "{edge} {centre}");
        let near = score("4k3/8/4K3/8/8/8/1Q6/8 w - - 0 1").unwrap();
        assert!(near > edge);
        // Light-squared bishop and knight: h1 and a8 are the corners to mate in.
        let right = score("k7/8/8/8/8/8/2B5/K1N5 w - - 0 1").unwrap();
        let wrong = score("7k/8/8/8/8/8/2B5/K1N5 w - - 0 1").unwrap();
        assert!(right > wrong + 200, "{right} {wrong}");
    }

    #[test]
    fn a_promotion_raises_the_score() {
        let before = score("4k3/8/8/8/8/8/1Q4P1/K7 w - - 0 1").unwrap();
        let after = score("4k3/8/8/8/8/8/1Q6/K5Q1 w - - 0 1").unwrap();
        assert!(after > before + 700);
    }
}
