//! Material signatures and table names (`KRPvKR`: White's pieces, `v`, Black's).

use crate::chess::{Color, PieceType, Position};
use std::fmt;

/// How many pawns, knights, bishops, rooks and queens one side has (its king is implied).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Side(pub [u8; 5]);

impl Side {
    pub fn count(&self) -> u32 {
        1 + self.0.iter().map(|&n| n as u32).sum::<u32>()
    }
    pub fn pawns(&self) -> u8 {
        self.0[PieceType::Pawn.index()]
    }
    fn of(pos: &Position, c: Color) -> Side {
        let mut s = [0u8; 5];
        for (i, n) in s.iter_mut().enumerate() {
            *n = pos.pieces_of(c, PieceType::from_index(i)).count() as u8;
        }
        Side(s)
    }
}

/// The material of a position or a table: White's side and Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Material {
    pub white: Side,
    pub black: Side,
}

/// Letters in the order a table name lists them.
const LETTERS: [(char, Option<PieceType>); 6] = [
    ('K', None),
    ('Q', Some(PieceType::Queen)),
    ('R', Some(PieceType::Rook)),
    ('B', Some(PieceType::Bishop)),
    ('N', Some(PieceType::Knight)),
    ('P', Some(PieceType::Pawn)),
];

impl Material {
    pub fn of(pos: &Position) -> Material {
        Material { white: Side::of(pos, Color::White), black: Side::of(pos, Color::Black) }
    }

    /// The same material with the colours exchanged.
    pub fn flipped(self) -> Material {
        Material { white: self.black, black: self.white }
    }

    pub fn pieces(&self) -> u32 {
        self.white.count() + self.black.count()
    }

    pub fn has_pawns(&self) -> bool {
        self.white.pawns() + self.black.pawns() > 0
    }

    /// Reads a table name such as `KRPvKR`: one king a side, letters in the usual
    /// order (K Q R B N P), the side with more pieces first. None for anything else.
    pub fn parse_name(name: &str) -> Option<Material> {
        let (w, b) = name.split_once('v')?;
        let m = Material { white: parse_side(w)?, black: parse_side(b)? };
        (m.to_string() == name && m.canonical() == m).then_some(m)
    }

    /// The orientation tables are named in: the side with more pieces first, then the
    /// side with the stronger pieces.
    pub fn canonical(self) -> Material {
        let key = |s: &Side| (s.count(), [s.0[4], s.0[3], s.0[2], s.0[1], s.0[0]]);
        if key(&self.black) > key(&self.white) {
            self.flipped()
        } else {
            self
        }
    }
}

fn parse_side(text: &str) -> Option<Side> {
    let mut chars = text.chars();
    if chars.next()? != 'K' {
        return None;
    }
    let mut s = [0u8; 5];
    for c in chars {
        let pt = LETTERS.iter().find(|(l, _)| *l == c)?.1?;
        s[pt.index()] += 1;
        if s[pt.index()] > 8 {
            return None;
        }
    }
    Some(Side(s))
}

impl fmt::Display for Material {
    /// The table name of this material, colours as they are (`KRvK`, or `KvKR`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, side) in [self.white, self.black].iter().enumerate() {
            if i == 1 {
                f.write_str("v")?;
            }
            f.write_str("K")?;
            for (letter, pt) in LETTERS.iter().skip(1) {
                let n = pt.map_or(0, |p| side.0[p.index()]);
                for _ in 0..n {
                    write!(f, "{letter}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_and_write_back() {
        let m = Material::parse_name("KRPvKR").expect("a table name");
        assert_eq!(m.pieces(), 5);
        assert!(m.has_pawns());
        assert_eq!(m.flipped().to_string(), "KRvKRP");
        assert_eq!(m.flipped().canonical(), m);
        assert_eq!(Material::parse_name("KQvKR").map(|m| m.to_string()).as_deref(), Some("KQvKR"));
        for bad in ["KRvKQ", "KvKR", "KRPvKRR", "RKvK", "KRv", "KXvK", "KRK", "KRvKvK"] {
            assert_eq!(Material::parse_name(bad), None, "{bad}");
        }
        assert!(Material::parse_name("KBvKN").is_some());
        assert!(Material::parse_name("KNvKB").is_none());
    }
}
