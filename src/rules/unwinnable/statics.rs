//! Static proofs that a side can never checkmate, read off the reachability fixpoint
//! ([`Reach`]): for every square X the opponent's king may ever stand on, a mate there needs
//! 1. a piece of the side (not its king) that can attack X, and
//! 2. every flight square of X that the king may ever stand on either taken by one of the
//!    opponent's own pieces (distinct pieces for distinct squares) or attacked by the side
//!    (by a piece other than the king, or by the king from a square not next to X).
//!
//! A flight square the king can never stand on is no flight: the king's set is closed under
//! its legal steps, so a legal step from X lands inside it. If no X meets both conditions the
//! side cannot checkmate. Either condition failing everywhere gives its own reason.

use super::reach::{Reach, Unit};
use crate::chess::attacks::{bishop_attacks, king_attacks, rook_attacks};
use crate::chess::{Bitboard, Color, PieceType, Position, Square};

/// Which static argument proved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticProof {
    /// No piece of the side can ever attack a square the opponent's king can reach.
    NoCheck,
    /// Checks are possible, but wherever the king stands a flight square stays free.
    NoMatingSquare,
}

/// A proof that `winner` can never checkmate from `pos`, if the fixpoint gives one.
pub fn prove(pos: &Position, winner: Color) -> Option<StaticProof> {
    let reach = Reach::new(pos);
    prove_with(&reach, winner)
}

/// [`prove`] on a fixpoint already computed.
pub fn prove_with(reach: &Reach, winner: Color) -> Option<StaticProof> {
    let loser = winner.flip();
    let region = reach.king(loser)?.reach;
    let attackers: Vec<&Unit> =
        reach.units().iter().filter(|u| u.color == winner && u.kind != PieceType::King).collect();
    let blockers: Vec<Bitboard> =
        reach.units().iter().filter(|u| u.color == loser && u.kind != PieceType::King).map(|u| u.anywhere()).collect();
    let winner_king = reach.king(winner).map_or(Bitboard::EMPTY, |u| covering_squares(reach, u, region));
    let mut any_check = false;
    for x in region {
        let xb = Bitboard::from_square(x);
        if !attackers.iter().any(|u| reach.can_attack(u, x, Bitboard::EMPTY)) {
            continue;
        }
        any_check = true;
        let flights = king_attacks(x) & region;
        let mut need = Bitboard::EMPTY;
        for y in flights {
            if !attackers.iter().any(|u| reach.can_attack(u, y, xb)) {
                need = need.with(y);
            }
        }
        if coverable(need, x, winner_king, &blockers) {
            return None;
        }
    }
    Some(if any_check { StaticProof::NoMatingSquare } else { StaticProof::NoCheck })
}

/// The squares from which the winner's `king` may help to mate a king on `region`. Dead ends
/// ([`Reach::dead_ends`]) come from the loser's king being confined to two squares A and B
/// (`region`): the winner's king steps next to A, not next to B, and the game ends with the
/// loser's king on B. A mate then only if that step discovers a check: a slider's line from B
/// through the square the king left. Where no such line can exist, the dead ends do not count.
fn covering_squares(reach: &Reach, king: &Unit, region: Bitboard) -> Bitboard {
    let dead = reach.dead_ends(king.color);
    if dead.is_empty() {
        return king.reach;
    }
    let (mut diagonal, mut straight) = (false, false);
    for u in reach.units().iter().filter(|u| u.color == king.color) {
        let promotes = u.promoted.nonempty();
        diagonal |= promotes || matches!(u.kind, PieceType::Bishop | PieceType::Queen);
        straight |= promotes || matches!(u.kind, PieceType::Rook | PieceType::Queen);
    }
    let occ = reach.never_empty();
    let discovers = region.squares().any(|b| {
        let ends = dead & king_attacks_of(region.without(b)) & !king_attacks(b);
        let left_from = king.reach & !dead & king_attacks_of(ends);
        (diagonal && (bishop_attacks(b, occ) & left_from).nonempty())
            || (straight && (rook_attacks(b, occ) & left_from).nonempty())
    });
    if discovers {
        king.reach
    } else {
        king.reach & !dead
    }
}

fn king_attacks_of(set: Bitboard) -> Bitboard {
    set.squares().fold(Bitboard::EMPTY, |b, s| b | king_attacks(s))
}

/// Can the squares of `need` all be taken away from a king on `x`: some by the winner's king
/// (standing on a square of `winner_king` not next to `x`), the rest each by a distinct
/// blocker whose set contains it?
fn coverable(need: Bitboard, x: Square, winner_king: Bitboard, blockers: &[Bitboard]) -> bool {
    if need.is_empty() {
        return true;
    }
    if matchable(need, blockers) {
        return true;
    }
    let king_squares = winner_king & !king_attacks(x) & !Bitboard::from_square(x);
    let mut tried: Vec<Bitboard> = Vec::new();
    for k in king_squares {
        let rest = need & !king_attacks(k);
        if rest == need || tried.contains(&rest) {
            continue;
        }
        if matchable(rest, blockers) {
            return true;
        }
        tried.push(rest);
    }
    false
}

/// A distinct blocker for every square of `need` (bipartite matching, augmenting paths).
fn matchable(need: Bitboard, blockers: &[Bitboard]) -> bool {
    if need.count() as usize > blockers.len() {
        return false;
    }
    let squares: Vec<Square> = need.squares().collect();
    let mut owner: Vec<Option<usize>> = vec![None; blockers.len()]; // blocker -> square index
    for i in 0..squares.len() {
        let mut seen = vec![false; blockers.len()];
        if !augment(i, &squares, blockers, &mut owner, &mut seen) {
            return false;
        }
    }
    true
}

fn augment(
    i: usize,
    squares: &[Square],
    blockers: &[Bitboard],
    owner: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for b in 0..blockers.len() {
        if seen[b] || !blockers[b].contains(squares[i]) {
            continue;
        }
        seen[b] = true;
        match owner[b] {
            None => {
                owner[b] = Some(i);
                return true;
            }
            Some(j) => {
                if augment(j, squares, blockers, owner, seen) {
                    owner[b] = Some(i);
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;

    fn proof(fen: &str, winner: Color) -> Option<StaticProof> {
        attacks::init();
        prove(&Position::from_fen(fen).expect("test FEN"), winner)
    }

    #[test]
    fn a_frozen_wall_admits_no_check() {
        let fen = "8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/8 w - - 0 1";
        assert_eq!(proof(fen, Color::White), Some(StaticProof::NoCheck));
        assert_eq!(proof(fen, Color::Black), Some(StaticProof::NoCheck));
    }

    #[test]
    fn bishops_behind_a_wall_never_check() {
        // Both bishops stay on their own side of the closed wall.
        let fen = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1";
        assert!(proof(fen, Color::White).is_some());
        assert!(proof(fen, Color::Black).is_some());
    }

    #[test]
    fn open_positions_are_not_proved() {
        assert_eq!(proof("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Color::White), None);
        assert_eq!(proof(crate::chess::STARTPOS_FEN, Color::Black), None);
        // K+B v K+N: a mate exists (the knight blocks).
        assert_eq!(proof("4k3/8/8/8/8/8/8/2B1K1n1 w - - 0 1", Color::White), None);
    }

    #[test]
    fn one_coloured_bishops_against_a_bare_king() {
        // Light bishops cannot cover the dark flight squares and nothing can block them.
        assert_eq!(proof("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1", Color::White), Some(StaticProof::NoMatingSquare));
    }
}
