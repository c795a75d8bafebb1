//! Castling geometry for any initial king and rook files: standard chess (e1, a1/h1) and
//! Chess960 alike. The king always ends on the g- or c-file and the rook beside it on the
//! f- or d-file (FIDE Laws 3.8.2; Guidelines II, Chess960 rules, II.3).

use super::bitboard::Bitboard;
use super::types::{File, Square};

/// Files `a..=b` (in either order) as bits of one rank.
const fn span(a: usize, b: usize) -> u8 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    ((0xFFu16 >> (7 - hi)) as u8) & (0xFFu8 << lo)
}

/// For a king on file `k` and its castling rook on file `r` (of one rank): the files that
/// must be empty (all squares between king and destination and between rook and
/// destination, except those two pieces), and the files the king passes over or lands on.
const fn files(k: usize, r: usize) -> (u8, u8) {
    let (king_to, rook_to) =
        if r > k { (File::G as usize, File::F as usize) } else { (File::C as usize, File::D as usize) };
    let travelled = span(k, king_to) | span(r, rook_to);
    let clear = travelled & !(1 << k) & !(1 << r);
    let king_path = (span(k, king_to) & !(1 << k)) | (1 << king_to);
    (clear, king_path)
}

const TABLE: [[(u8, u8); 8]; 8] = {
    let mut t = [[(0u8, 0u8); 8]; 8];
    let mut k = 0;
    while k < 8 {
        let mut r = 0;
        while r < 8 {
            t[k][r] = files(k, r);
            r += 1;
        }
        k += 1;
    }
    t
};

#[inline(always)]
fn on_rank_of(bits: u8, sq: Square) -> Bitboard {
    Bitboard((bits as u64) << (sq.rank().index() * 8))
}

/// Squares that must be empty for the king on `king` to castle with the rook on `rook`
/// (same rank): every square between each piece and its destination, destinations
/// included, except the squares of that king and that rook.
#[inline(always)]
pub fn squares_to_clear(king: Square, rook: Square) -> Bitboard {
    on_rank_of(TABLE[king.file().index()][rook.file().index()].0, king)
}

/// Squares that must not be attacked besides the king's own: those it passes over and
/// its destination (which may be its start square in Chess960).
#[inline(always)]
pub fn king_path(king: Square, rook: Square) -> Bitboard {
    on_rank_of(TABLE[king.file().index()][rook.file().index()].1, king)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }
    fn set(squares: &[&str]) -> Bitboard {
        squares.iter().fold(Bitboard::EMPTY, |b, s| b.with(sq(s)))
    }

    #[test]
    fn standard_castling_squares() {
        assert_eq!(squares_to_clear(sq("e1"), sq("h1")), set(&["f1", "g1"]));
        assert_eq!(king_path(sq("e1"), sq("h1")), set(&["f1", "g1"]));
        assert_eq!(squares_to_clear(sq("e8"), sq("a8")), set(&["b8", "c8", "d8"]));
        assert_eq!(king_path(sq("e8"), sq("a8")), set(&["c8", "d8"]));
    }

    #[test]
    fn chess960_castling_squares() {
        // King b1, rook a1: the rook jumps over the king to d1, the king goes to c1.
        assert_eq!(squares_to_clear(sq("b1"), sq("a1")), set(&["c1", "d1"]));
        assert_eq!(king_path(sq("b1"), sq("a1")), set(&["c1"]));
        // King g1, rook h1: only the rook moves; the king's square must still be safe.
        assert_eq!(squares_to_clear(sq("g1"), sq("h1")), set(&["f1"]));
        assert_eq!(king_path(sq("g1"), sq("h1")), set(&["g1"]));
        // King f1, rook g1: they swap.
        assert_eq!(squares_to_clear(sq("f1"), sq("g1")), Bitboard::EMPTY);
        // King d8, rook c8: the king goes to c8, the rook to d8.
        assert_eq!(squares_to_clear(sq("d8"), sq("c8")), Bitboard::EMPTY);
        assert_eq!(king_path(sq("d8"), sq("c8")), set(&["c8"]));
        // King b1, rook h1: everything from c1 to g1 but nothing else.
        assert_eq!(squares_to_clear(sq("b1"), sq("h1")), set(&["c1", "d1", "e1", "f1", "g1"]));
    }
}
