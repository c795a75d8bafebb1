//! FIDE 5.2.2: the game is drawn when a position has arisen in which neither player can
//! checkmate the opponent's king with any series of legal moves (a "dead position").
//!
//! The question for each player is [`unwinnable::decide`]'s, the one place that answers it
//! for 5.1.2, 5.2.2 and 6.9: dead means both players' verdicts are "unwinnable", each with
//! its proof. "Undetermined" (the budget ran out) is not dead: the game goes on.
//!
//! [`frozen_pawn_wall`] is the search's cheap test (kings and pawns only, every pawn blocked
//! for good): it asks at every node and must cost next to nothing.

use super::unwinnable::{self, Budget, Decision, Reason, Verdict};
use crate::chess::movegen::{has_legal_move, legal_moves};
use crate::chess::{Bitboard, Color, PieceType, Position};

/// Why a position is dead (5.2.2): each player's proof that it can never checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadReason {
    pub white: Reason,
    pub black: Reason,
}

impl DeadReason {
    /// Both proofs come from material alone (bare kings, a lone minor piece, bishops of one
    /// colour): the classic "insufficient material".
    pub fn is_material(self) -> bool {
        let material = |r: Reason| matches!(r, Reason::BareKing | Reason::InsufficientMaterial);
        material(self.white) && material(self.black)
    }

    /// The reason for `color`.
    pub fn of(self, color: Color) -> Reason {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// Dead position (5.2.2) as far as proved within the default budget, and why.
pub fn dead_position(pos: &Position) -> Option<DeadReason> {
    // Most positions: a helpmate at once. Otherwise stop at the first player who can still mate.
    if helpmate_found_quickly(pos) {
        return None;
    }
    let white = unwinnable_reason(&unwinnable::decide(pos, Color::White, Budget::default()))?;
    let black = unwinnable_reason(&unwinnable::decide(pos, Color::Black, Budget::default()))?;
    Some(DeadReason { white, black })
}

/// Nodes per player for [`quick_helpmate`]: the helpmate of most positions of real games is
/// found within a few thousand.
const PROBE: Budget = Budget(10_000);

/// `side`'s helpmate (or its mate on the board) is found within [`PROBE`] nodes. Then the
/// full decision for `side` is as quick, and small: it begins with the same searches.
pub fn quick_helpmate(pos: &Position, side: Color) -> bool {
    matches!(unwinnable::decide(pos, side, PROBE).verdict, Verdict::Winnable { .. })
}

/// Either player's helpmate is found quickly: the position is not dead, however long the
/// other player's decision would take (K+B against a queen and rooks: the queen's side
/// mates at once, the bishop's needs a long search). The side with more material is asked
/// first: the other one's probe is often the one that runs out (a king and a pawn against a
/// rook), and self-play asks this at every move.
fn helpmate_found_quickly(pos: &Position) -> bool {
    let material = |side: Color| {
        PieceType::ALL
            .into_iter()
            .map(|kind| unwinnable::piece_value(kind) * pos.pieces_of(side, kind).count() as i32)
            .sum::<i32>()
    };
    let first = if material(Color::Black) > material(Color::White) { Color::Black } else { Color::White };
    [first, first.flip()].into_iter().any(|side| quick_helpmate(pos, side))
}

/// The first dead position (5.2.2) of a game, by index into `positions`: the game's positions
/// in order, each reached by a legal move from the one before, none of them but the last
/// ended by the board (checkmate, stalemate, seventy-five moves). `None` when none is dead.
///
/// The same answers as [`dead_position`] on every position, with far fewer decisions. Once a
/// position is known to allow a checkmate (a helpmate by either player, or a mate on the
/// board), so does every earlier one: the game's moves lead to it, the clock never reaching
/// 150 half-moves on the way, so no sound decision calls an earlier one dead. So the
/// positions are examined from the last one backwards, as [`dead_position`] examines them,
/// until one allows a mate. In most games the last position does.
pub fn first_dead_position(positions: &[Position]) -> Option<usize> {
    let mut first = None;
    for (i, pos) in positions.iter().enumerate().rev() {
        if !has_legal_move(pos) && !pos.in_check() {
            continue; // stalemate: ended by the board, not dead
        }
        if helpmate_found_quickly(pos) {
            break;
        }
        let white = unwinnable::decide(pos, Color::White, Budget::default());
        match white.verdict {
            Verdict::Winnable { .. } => break,
            Verdict::Undetermined => continue, // not dead, and no mate known
            Verdict::Unwinnable { .. } => {}
        }
        let black = unwinnable::decide(pos, Color::Black, Budget::default());
        if matches!(black.verdict, Verdict::Winnable { .. }) {
            break;
        }
        if dead_from(&[white, black]).is_some() {
            first = Some(i);
        }
    }
    first
}

/// Dead position from both players' decisions already made (White first).
pub fn dead_from(decisions: &[Decision; 2]) -> Option<DeadReason> {
    Some(DeadReason { white: unwinnable_reason(&decisions[0])?, black: unwinnable_reason(&decisions[1])? })
}

/// The proof that a player can never checkmate, unless it is that the game has already ended
/// on the board (mate, stalemate, seventy-five moves): that end is reported as itself, not as
/// a dead position.
fn unwinnable_reason(d: &Decision) -> Option<Reason> {
    match d.verdict {
        Verdict::Unwinnable { reason } if !reason.game_over() => Some(reason),
        _ => None,
    }
}

/// Only kings and pawns; every pawn stands directly behind another pawn (so it can never
/// advance, as that pawn never leaves); no pawn can capture now (then none ever can: the
/// pawns never move, and a king may not step onto a square a pawn attacks); the side to
/// move is not in check; and neither king can reach a square next to an enemy pawn that
/// no other enemy pawn defends (so no pawn is ever taken). The pawns are then fixed for
/// ever, only pawns could give check, and a fixed pawn gives none: no checkmate is possible.
///
/// Each king's reachable squares are over-approximated (the other king is ignored), which
/// can only make the answer "not dead" more often, never wrongly "dead".
///
/// Inline quick reject (not king-and-pawn only), since the search asks at every node.
#[inline]
pub fn frozen_pawn_wall(pos: &Position) -> bool {
    let pawns = pos.pieces(PieceType::Pawn);
    if pawns.is_empty() || (pos.occupied() & !pawns & !pos.pieces(PieceType::King)).nonempty() {
        return false;
    }
    kings_and_pawns_frozen(pos, pawns)
}

/// [`frozen_pawn_wall`] once only kings and `pawns` are on the board.
#[inline(never)]
fn kings_and_pawns_frozen(pos: &Position, pawns: Bitboard) -> bool {
    if pos.in_check() {
        return false;
    }
    // Every pawn has a pawn directly in front of it.
    for color in Color::ALL {
        let ours = pos.pieces_of(color, PieceType::Pawn);
        if (ours.forward(color) & !pawns).nonempty() {
            return false;
        }
    }
    // No pawn move at all now: no capture, no en passant (pushes are blocked already).
    // With only kings and pawns there are no pins, so "pseudo-legal" and "legal" agree.
    if legal_moves(pos).iter().any(|m| pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceType::Pawn)) {
        return false;
    }
    for color in Color::ALL {
        let enemy = color.flip();
        let enemy_pawns = pos.pieces_of(enemy, PieceType::Pawn);
        let guarded = enemy_pawns.pawn_attacks(enemy);
        // Squares this king may ever stand on: free of pawns and of enemy pawn attacks.
        let walkable = !pawns & !guarded;
        let region = flood(Bitboard::from_square(pos.king_square(color)), walkable);
        if (region.grown() & enemy_pawns & !guarded).nonempty() {
            return false; // an undefended enemy pawn within reach: it could be taken
        }
    }
    true
}

/// The squares of `allowed` a king can walk to from `start` (start itself included).
fn flood(start: Bitboard, allowed: Bitboard) -> Bitboard {
    let mut region = start;
    loop {
        let next = region | (region.grown() & allowed);
        if next == region {
            return region;
        }
        region = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dead(fen: &str) -> bool {
        crate::chess::attacks::init();
        dead_position(&Position::from_fen(fen).expect("test FEN")).is_some()
    }

    #[test]
    fn a_closed_wall_with_the_kings_on_either_side_is_dead() {
        assert!(dead("8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/8 w - - 0 1"));
        assert!(dead("8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/8 b - - 0 1"));
        // A chain with pawns behind pawns of their own colour.
        assert!(dead("4k3/8/8/p1p1p1p1/P1P1P1P1/P7/8/4K3 w - - 0 1"));
    }

    #[test]
    fn an_open_file_or_a_weak_pawn_is_not_dead() {
        // No g/h pawns: the kings walk round and can reach e5/e4.
        assert!(!dead("8/8/3k4/p1p1p3/P1P1P3/3K4/8/8 w - - 0 1"));
        // A pawn that can still advance.
        assert!(!dead("8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/7P/8 w - - 0 1"));
        // A capture is available now.
        assert!(!dead("8/8/3k4/p1p1p2p/P1P1P1P1/3K4/8/8 w - - 0 1"));
        // Any piece besides kings and pawns: not for the cheap test, but the decision proves
        // this one dead (the light bishop can never cross the light squares the pawns hold).
        let bishop = "8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/7B w - - 0 1";
        assert!(!frozen_pawn_wall(&Position::from_fen(bishop).expect("test FEN")));
        assert!(dead(bishop));
    }

    #[test]
    fn a_king_inside_the_enemy_camp_may_take_an_undefended_pawn() {
        // The white king on h6 has crossed: g5 is defended by nothing, so Kxg5 is possible.
        assert!(!dead("8/8/3k3K/p1p1p1p1/P1P1P1P1/8/8/8 w - - 0 1"));
        // A blocked K+P v K+P: either king walks round and takes the other pawn.
        assert!(!dead("4k3/8/8/1p6/1P6/8/8/K7 w - - 0 1"));
    }

    #[test]
    fn en_passant_now_is_a_pawn_move() {
        // White has just played c2-c4; without the e.p. chance the wall is closed.
        assert!(!dead("8/8/3k4/p1p1p1p1/PpP1P1P1/1P6/4K3/8 b - c3 0 1"));
        assert!(dead("8/8/3k4/p1p1p1p1/PpP1P1P1/1P6/4K3/8 b - - 0 1"));
    }

    #[test]
    fn material_cases_are_still_dead() {
        assert!(dead("8/8/4k3/8/8/4K3/8/8 w - - 0 1"));
        assert!(dead("8/8/4k3/8/8/4KB2/8/8 w - - 0 1"));
        let p = |f: &str| Position::from_fen(f).expect("test FEN");
        let bare = dead_position(&p("8/8/4k3/8/8/4K3/8/8 w - - 0 1")).expect("dead");
        assert!(bare.is_material() && bare.white == Reason::BareKing);
        let wall = dead_position(&p("8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/8 w - - 0 1")).expect("dead");
        assert_eq!(wall, DeadReason { white: Reason::NoCheck, black: Reason::NoCheck });
        assert_eq!(dead_position(&Position::startpos()), None);
    }

    #[test]
    fn the_cheap_test_never_says_dead_when_the_decision_does_not() {
        for fen in [
            "8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/8 w - - 0 1",
            "4k3/8/8/p1p1p1p1/P1P1P1P1/P7/8/4K3 w - - 0 1",
            "8/8/3k4/p1p1p1p1/PpP1P1P1/1P6/4K3/8 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("test FEN");
            assert!(frozen_pawn_wall(&pos), "{fen}");
            assert!(dead_position(&pos).is_some(), "{fen}");
        }
    }

    /// Random games through positions that die on the way (a capture leaving too little, a
    /// wall closing, the clock running out): [`first_dead_position`] finds the position
    /// [`dead_position`] finds first when asked about every position in turn.
    #[test]
    fn the_first_dead_position_is_the_first_that_dead_position_finds() {
        crate::chess::attacks::init();
        let starts = [
            "4k3/8/8/8/8/8/3n4/R3K3 w - - 0 1",
            "4k3/8/8/3n4/8/8/8/4KB2 b - - 0 1",
            "8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/7P/8 w - - 0 1",
            "8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/8/8/Q3K3 w - - 144 100",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut dead_found = 0;
        for fen in starts {
            for _ in 0..3 {
                let mut pos = Position::from_fen(fen).expect("test FEN");
                let mut positions = vec![pos];
                while positions.len() < 40 && crate::rules::referee::board_outcome(&pos).is_none() {
                    let moves = legal_moves(&pos);
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos = pos.make_move(moves.iter().copied().nth(seed as usize % moves.len()).expect("a move"));
                    positions.push(pos);
                }
                let expected = positions.iter().position(|p| has_legal_move(p) && dead_position(p).is_some());
                assert_eq!(first_dead_position(&positions), expected, "from {fen}");
                dead_found += usize::from(expected.is_some_and(|i| i > 0));
            }
        }
        assert!(dead_found >= 4, "only {dead_found} games died on the way");
    }
}
