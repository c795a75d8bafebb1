//! The input layout: how a perspective's own king square chooses its feature set.
//!
//! A perspective sees the board as today's 768 features do ([`super::feature`]: Black's board
//! flipped vertically). Its own king's square *in that view* picks a king bucket,
//! `buckets[king]`, and, with `mirror`, a king on files e–h mirrors every square of that
//! perspective's features a↔h (`sq ^ 7`), so the king is always on files a–d. The input index
//! is `bucket * 768 + feature768` with `feature768` the (possibly mirrored) 768-feature.
//!
//! To add a layout: a `const` here and a line in [`NAMED`] (the file format, the inference and
//! `arbiter train --input-layout` take it from there).

use super::{feature, INPUTS};
use crate::chess::{Color, Piece, Square};

/// The most king buckets a layout may have (one per square).
pub const MAX_KING_BUCKETS: usize = 64;

/// How a perspective's own king square chooses its features (see the module's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct InputLayout {
    /// The king bucket of each square of the perspective's own king, the square seen from the
    /// perspective (Black's flipped vertically), before any mirroring.
    pub buckets: [u8; 64],
    /// A perspective whose own king stands on files e–h sees every square mirrored a↔h.
    pub mirror: bool,
}

impl Default for InputLayout {
    /// The flat layout (format version 1).
    fn default() -> Self {
        FLAT
    }
}

/// What a perspective's king chooses: the offset of its bucket's features and the `xor` of
/// its mirroring (7 or 0), applied to a 768-feature (whose low three bits are the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingView {
    pub offset: usize,
    pub flip: usize,
}

impl KingView {
    /// The view of a layout without buckets or mirroring: every feature as it is.
    pub const IDENTITY: KingView = KingView { offset: 0, flip: 0 };

    /// The input index of a 768-feature of this perspective.
    #[inline(always)]
    pub const fn index(self, feature768: usize) -> usize {
        self.offset + (feature768 ^ self.flip)
    }
}

/// One bucket, no mirroring: exactly the 768 features of format version 1 (N7).
pub const FLAT: InputLayout = InputLayout { buckets: [0; 64], mirror: false };

/// One bucket, mirrored: the king always on files a–d. The Laws are symmetric a↔h but for
/// castling, so this loses little and lets every king square train the same weights twice as
/// often.
pub const MIRROR: InputLayout = InputLayout { buckets: [0; 64], mirror: true };

/// Mirrored, four buckets over the 32 squares of files a–d by the king's rank: 1, 2, 3–4,
/// 5–8. Where the king stands changes most with the rank: on the back rank (castled or not
/// yet) it is sheltered, on the second it has stepped up (often a luft or a broken shelter),
/// on the third and fourth it is exposed or marching in an endgame, beyond it is an endgame
/// king. The files matter less once mirrored (castled short and long both land on a–d), and
/// few buckets keep the extra weights trainable on our few million positions.
pub const MIRROR4: InputLayout = InputLayout { buckets: by_rank([0, 1, 2, 2, 3, 3, 3, 3]), mirror: true };

/// Every named layout: `arbiter train --input-layout NAME` and the name in messages.
pub const NAMED: [(&str, InputLayout); 3] = [("flat", FLAT), ("mirror", MIRROR), ("mirror4", MIRROR4)];

/// A bucket table that depends on the rank alone.
const fn by_rank(ranks: [u8; 8]) -> [u8; 64] {
    let mut b = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        b[sq] = ranks[sq / 8];
        sq += 1;
    }
    b
}

impl InputLayout {
    /// The named layout, if any.
    pub fn by_name(name: &str) -> Option<InputLayout> {
        NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|&(_, l)| l)
    }

    /// The layout's name, or "custom" for one that is not in [`NAMED`] (a file may hold any).
    pub fn name(&self) -> &'static str {
        NAMED.iter().find(|(_, l)| l == self).map_or("custom", |&(n, _)| n)
    }

    /// King buckets: the largest bucket in the table plus one.
    pub const fn bucket_count(&self) -> usize {
        let mut max = 0;
        let mut sq = 0;
        while sq < 64 {
            if self.buckets[sq] > max {
                max = self.buckets[sq];
            }
            sq += 1;
        }
        max as usize + 1
    }

    /// Inputs per perspective: `bucket_count() * 768`.
    pub const fn inputs(&self) -> usize {
        self.bucket_count() * INPUTS
    }

    /// Is this the layout of format version 1 (every king square the same features)?
    pub const fn is_flat(&self) -> bool {
        !self.mirror && self.bucket_count() == 1
    }

    /// What the perspective's own king on `king` (a board square) chooses.
    #[inline(always)]
    pub fn view(&self, perspective: Color, king: Square) -> KingView {
        let oriented = match perspective {
            Color::White => king.index(),
            Color::Black => king.index() ^ 56,
        };
        self.view_oriented(oriented)
    }

    /// [`InputLayout::view`] for the king's square seen from the perspective (0..64).
    #[inline(always)]
    pub fn view_oriented(&self, oriented_king: usize) -> KingView {
        let sq = oriented_king & 63;
        let flip = if self.mirror && sq & 7 >= 4 { 7 } else { 0 };
        KingView { offset: self.buckets[sq] as usize * INPUTS, flip }
    }

    /// The input index of `piece` on `sq` from `perspective`, whose own king is on `king`.
    #[inline(always)]
    pub fn feature(&self, perspective: Color, king: Square, piece: Piece, sq: Square) -> usize {
        self.view(perspective, king).index(feature(perspective, piece, sq))
    }
}

/// The 768-feature of the perspective's own king among a perspective's active 768-features:
/// its square seen from the perspective (own pieces are `0..384`, kings `5 * 64..6 * 64`).
pub fn own_king_oriented(features768: impl IntoIterator<Item = usize>) -> Option<usize> {
    const OWN_KING: usize = 5 * 64;
    features768.into_iter().find(|f| (OWN_KING..OWN_KING + 64).contains(f)).map(|f| f - OWN_KING)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::PieceType;

    /// The input index written out from the definition, with nothing shared with the code
    /// under test but the board's square numbering (a1 = 0, b1 = 1, ..., h8 = 63).
    fn direct(name: &str, perspective: Color, king: usize, color: Color, kind: usize, sq: usize) -> usize {
        let (mut king_file, mut king_rank) = (king % 8, king / 8);
        let (mut file, mut rank) = (sq % 8, sq / 8);
        if perspective == Color::Black {
            king_rank = 7 - king_rank;
            rank = 7 - rank;
        }
        let mirrored = name != "flat" && king_file >= 4;
        if mirrored {
            king_file = 7 - king_file;
            file = 7 - file;
        }
        assert!(name == "flat" || king_file <= 3);
        let bucket = match name {
            "mirror4" => match king_rank {
                0 => 0,
                1 => 1,
                2 | 3 => 2,
                _ => 3,
            },
            _ => 0,
        };
        let theirs = usize::from(color != perspective);
        bucket * 768 + theirs * 384 + kind * 64 + rank * 8 + file
    }

    #[test]
    fn every_feature_index_is_the_direct_computation() {
        for (name, layout) in NAMED {
            let mut seen = std::collections::HashSet::new();
            for perspective in Color::ALL {
                for king in 0..64 {
                    for color in Color::ALL {
                        for (kind, &piece_type) in PieceType::ALL.iter().enumerate() {
                            for sq in 0..64 {
                                let got = layout.feature(
                                    perspective,
                                    Square::new(king),
                                    Piece::new(color, piece_type),
                                    Square::new(sq),
                                );
                                let want = direct(name, perspective, king as usize, color, kind, sq as usize);
                                assert_eq!(got, want, "{name} {perspective:?} king {king} {color:?} {kind} on {sq}");
                                assert!(got < layout.inputs());
                                seen.insert(got);
                            }
                        }
                    }
                }
            }
            // Every input is used by some king square.
            assert_eq!(seen.len(), layout.inputs(), "{name}");
        }
        assert_eq!([FLAT.bucket_count(), MIRROR.bucket_count(), MIRROR4.bucket_count()], [1, 1, 4]);
        assert!(FLAT.is_flat() && !MIRROR.is_flat() && !MIRROR4.is_flat());
        assert_eq!(InputLayout::by_name("Mirror4"), Some(MIRROR4));
        assert_eq!(MIRROR4.name(), "mirror4");
    }

    #[test]
    fn flat_is_the_version_1_features() {
        for perspective in Color::ALL {
            for king in (0..64).map(Square::new) {
                for sq in (0..64).map(Square::new) {
                    let piece = Piece::new(Color::Black, PieceType::Rook);
                    assert_eq!(FLAT.feature(perspective, king, piece, sq), feature(perspective, piece, sq));
                }
            }
        }
    }

    #[test]
    fn the_own_king_is_found_among_the_features() {
        crate::chess::attacks::init();
        let pos = crate::chess::Position::from_fen("8/8/2k5/8/8/8/6K1/8 w - - 0 1").expect("fen");
        let of = |c| own_king_oriented(super::super::active_features(&pos, c));
        assert_eq!(of(Color::White), Some(14) /* g2 */);
        assert_eq!(of(Color::Black), Some(42 ^ 56) /* c6, flipped */);
    }
}
