//! Zobrist keys, generated at compile time from a fixed seed (so keys, and bench
//! node counts, are the same on every machine).

use super::types::{CastlingRights, File, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 16],
    en_passant: [u64; 8],
    side: u64,
}

const KEYS: Keys = {
    let mut state = 0x4172_6269_7465_7221u64; // "Arbiter!"
    let mut pieces = [[0u64; 64]; 12];
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            let (ns, k) = splitmix(state);
            state = ns;
            pieces[p][s] = k;
            s += 1;
        }
        p += 1;
    }
    // Castling keys: one per right, combined by xor so that any subset has a key.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (ns, k) = splitmix(state);
        state = ns;
        single[i] = k;
        i += 1;
    }
    let mut castling = [0u64; 16];
    let mut c = 0;
    while c < 16 {
        let mut bit = 0;
        while bit < 4 {
            if c & (1 << bit) != 0 {
                castling[c] ^= single[bit];
            }
            bit += 1;
        }
        c += 1;
    }
    let mut en_passant = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let (ns, k) = splitmix(state);
        state = ns;
        en_passant[f] = k;
        f += 1;
    }
    let (_, side) = splitmix(state);
    Keys { pieces, castling, en_passant, side }
};

#[inline(always)]
pub fn piece(p: Piece, sq: Square) -> u64 {
    KEYS.pieces[p.index()][sq.index()]
}
#[inline(always)]
pub fn castling(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.bits() as usize]
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
