//! Zobrist keys, generated at compile time from a fixed seed (so keys, and bench
//! node counts, are the same on every machine).

use super::types::{Color, File, Piece, Square};
use crate::rng::Rng;

struct Keys {
    pieces: [[u64; 64]; 12],
    /// One key per castling rook: colour and file (Chess960 rooks start on any file).
    castling_rook: [[u64; 8]; 2],
    en_passant: [u64; 8],
    side: u64,
}

const KEYS: Keys = {
    let mut rng = Rng::new(0x4172_6269_7465_7221); // "Arbiter!"
    let mut pieces = [[0u64; 64]; 12];
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let k = rng.next_u64();
            pieces[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    // The four standard rights (a- and h-file rooks) take the first four keys, as they
    // did before Chess960, so that standard keys (and the bench) did not change; the
    // other files are drawn after the side key below.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let k = rng.next_u64();
        single[i] = k;
        i += 1;
    }
    let mut en_passant = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let k = rng.next_u64();
        en_passant[f] = k;
        f += 1;
    }
    let side = rng.next_u64();
    let mut castling_rook = [[0u64; 8]; 2];
    let mut c = 0;
    while c < 2 {
        let mut f = 0;
        while f < 8 {
            // Rights in bit order: white king side (h), white queen side (a), black h, black a.
            castling_rook[c][f] = if f == 7 {
                single[c * 2]
            } else if f == 0 {
                single[c * 2 + 1]
            } else {
                rng.next_u64()
            };
            f += 1;
        }
        c += 1;
    }
    Keys { pieces, castling_rook, en_passant, side }
};

#[inline(always)]
pub fn piece(p: Piece, sq: Square) -> u64 {
    KEYS.pieces[p.index()][sq.index()]
}
/// Xored in for each castling right held, by the colour and file of its rook.
#[inline(always)]
pub fn castling_rook(color: Color, rook: Square) -> u64 {
    KEYS.castling_rook[color.index()][rook.file().index()]
}
#[inline(always)]
pub fn en_passant(file: File) -> u64 {
    KEYS.en_passant[file.index()]
}
/// Xored in when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}
