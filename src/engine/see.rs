//! Static exchange evaluation: does a capture sequence on one square win at least a
//! threshold? Used to order captures and to prune losing ones in quiescence.

use crate::chess::attacks::{bishop_attacks, rook_attacks};
use crate::chess::{Bitboard, Move, PieceType, Position};

/// Exchange values (centipawns); the king is large so it is never "captured".
const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20000];

#[inline]
pub fn value(pt: PieceType) -> i32 {
    SEE_VALUE[pt.index()]
}

/// True if playing `m` and then exchanging on its target square optimally (each side
/// may stop at any time) gains at least `threshold` for the mover. Pins are ignored,
/// x-rays through the exchanged pieces are not.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castling() {
        return threshold <= 0;
    }
    let from = m.from();
    let to = m.to();
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let mut swap = pos.captured_piece(m).map_or(0, value) - threshold;
    if let Some(p) = m.promotion() {
        swap += value(p) - value(PieceType::Pawn);
    }
    if swap < 0 {
        return false;
    }
    let first = m.promotion().unwrap_or(mover.kind);
    swap = value(first) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occ = pos.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if m.is_en_passant() {
        let cap = crate::chess::Square::new((to.index() as i8 - mover.color.forward()) as u8);
        occ ^= Bitboard::from_square(cap);
    }
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let mut stm = mover.color;
    let mut res = true;
    let diag = pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen);
    let orth = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);

    loop {
        stm = stm.flip();
        attackers &= occ;
        let ours = attackers & pos.color(stm);
        if ours.is_empty() {
            break;
        }
        res = !res;
        // Least valuable attacker.
        let mut found = None;
        for pt in PieceType::ALL {
            let b = ours & pos.pieces(pt);
            if let Some(sq) = b.lsb() {
                found = Some((pt, sq));
                break;
            }
        }
        let Some((pt, sq)) = found else { break };
        if pt == PieceType::King {
            // The king may only take last: if the other side still attacks, the
            // capture is illegal and the previous result stands.
            return if (attackers & pos.color(stm.flip())).nonempty() { !res } else { res };
        }
        swap = value(pt) - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= Bitboard::from_square(sq);
        if matches!(pt, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
            attackers |= bishop_attacks(to, occ) & diag;
        }
        if matches!(pt, PieceType::Rook | PieceType::Queen) {
            attackers |= rook_attacks(to, occ) & orth;
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci_move;

    fn see(fen: &str, m: &str, t: i32) -> bool {
        crate::chess::attacks::init();
        let pos = Position::from_fen(fen).unwrap();
        let mv = parse_uci_move(&pos, m).unwrap();
        see_ge(&pos, mv, t)
    }

    #[test]
    fn classic_exchanges() {
        // Rxe5 wins a pawn (undefended).
        assert!(see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100));
        assert!(!see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 101));
        // Nxe5 in the well-known x-ray position loses material.
        assert!(!see("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 0));
        // Quiet move to an attacked square loses the piece.
        assert!(!see("7k/8/8/3p4/8/8/4Q3/4K3 w - - 0 1", "e2e4", 0));
        assert!(see("7k/8/8/3p4/8/8/4Q3/4K3 w - - 0 1", "e2e3", 0));
        // Qxd5 takes an undefended pawn.
        assert!(see("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 100));
    }
}
