//! The neural evaluation (NNUE): what the network sees, its file format, and its reference
//! evaluation.
//!
//! The network is `(768 -> HIDDEN) x 2 -> 1` with output buckets:
//! - **Inputs**: one per (piece colour relative to the perspective, piece type, square seen from
//!   the perspective), [`feature`]. Each side's perspective has its own accumulator, the same
//!   weights: the side to move's accumulator comes first in the output layer.
//! - **Hidden layer** (the feature transformer): `i16` weights scaled by [`QA`], summed per
//!   perspective. Activation SCReLU: `clamp(x, 0, QA)^2`.
//! - **Output**: one of [`BUCKETS`] linear layers, chosen by the number of pieces on the board
//!   ([`output_bucket`]); `i16` weights scaled by [`QB`], `i32` bias scaled by `QA * QB`; the
//!   result times [`SCALE`] / (`QA * QB`) is centipawns for the side to move.
//!
//! One source of truth: the trainer (`arbiter train`) writes what [`Network::read`] reads,
//! through [`Network::write`], and indexes features with the same [`feature`].
//!
//! File layout (little-endian), [`MAGIC`] then six `u32` (version, inputs, hidden, buckets, QA,
//! QB) and one `u32` SCALE, then the feature weights `[INPUTS][HIDDEN]` i16, the feature biases
//! `[HIDDEN]` i16, the output weights `[BUCKETS][2 * HIDDEN]` i16, the output biases `[BUCKETS]`
//! i32, and last an FNV-1a 64-bit checksum of every byte before it.

pub mod accumulator;
pub mod inference;
pub mod source;

pub use accumulator::AccumulatorStack;
pub use inference::Nnue;

use crate::chess::{Bitboard, Color, Piece, PieceType, Position, Square};
use std::fmt;

/// Inputs per perspective: 2 colours x 6 piece types x 64 squares.
pub const INPUTS: usize = 768;
/// Neurons per perspective in the hidden layer.
pub const HIDDEN: usize = 384;
/// Output layers, chosen by the piece count.
pub const BUCKETS: usize = 8;
/// Quantisation of the feature transformer: 1.0 is `QA`. Also the activation's ceiling.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;
/// The network's output 1.0 is `SCALE` centipawns.
pub const SCALE: i32 = 400;
/// The first bytes of a network file.
const MAGIC: [u8; 8] = *b"ARBNNUE\0";
/// The file format's version.
const VERSION: u32 = 1;

/// The input index of `piece` on `sq` seen from `perspective`: its own pieces first, the board
/// flipped vertically for Black, so both perspectives share one set of weights.
#[inline(always)]
pub const fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color as usize) ^ (perspective as usize);
    let sq = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    theirs * 384 + piece.kind.index() * 64 + sq
}

/// The input index of the same piece on the same square seen from the other perspective:
/// [`feature`] for the other side, worked out from the index alone (own and their pieces swap
/// halves, the board turns over). The trainer keeps one perspective per position and makes
/// the other with this.
#[inline(always)]
pub const fn other_perspective(f: usize) -> usize {
    ((f + INPUTS / 2) % INPUTS) ^ 56
}

/// The output bucket: pieces on the board (kings included), 2..=32, in eight bands of four.
#[inline(always)]
pub fn output_bucket(occupied: Bitboard) -> usize {
    ((occupied.count() as usize).saturating_sub(2) / 4).min(BUCKETS - 1)
}

/// Every active feature of a position from one perspective.
pub fn active_features(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    Color::ALL.into_iter().flat_map(move |color| {
        PieceType::ALL.into_iter().flat_map(move |kind| {
            let piece = Piece::new(color, kind);
            pos.pieces_of(color, kind).squares().map(move |sq| feature(perspective, piece, sq))
        })
    })
}

/// A network file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// Shorter than its header says it must be.
    Truncated { expected: usize, found: usize },
    /// Longer than its header says it must be.
    TrailingBytes { expected: usize, found: usize },
    /// Not a network file of ours.
    BadMagic,
    /// A format version this build does not read.
    UnsupportedVersion(u32),
    /// A network of another shape or quantisation than this build evaluates.
    Shape { field: &'static str, expected: u32, found: u32 },
    /// The checksum does not match the contents.
    Checksum { stored: u64, computed: u64 },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Truncated { expected, found } => {
                write!(f, "network file truncated: {found} bytes, expected {expected}")
            }
            NetworkError::TrailingBytes { expected, found } => {
                write!(f, "network file has trailing bytes: {found} bytes, expected {expected}")
            }
            NetworkError::BadMagic => write!(f, "not an Arbiter network file (bad magic)"),
            NetworkError::UnsupportedVersion(v) => {
                write!(f, "network format version {v} not supported (this build reads {VERSION})")
            }
            NetworkError::Shape { field, expected, found } => {
                write!(f, "network {field} is {found}, this build needs {expected}")
            }
            NetworkError::Checksum { stored, computed } => {
                write!(f, "network checksum mismatch: stored {stored:016x}, computed {computed:016x}")
            }
        }
    }
}

impl NetworkError {
    /// What is wrong, without the figures: for the compile-time check of the built-in network.
    pub const fn kind(&self) -> &'static str {
        match self {
            NetworkError::Truncated { .. } => "the network file to embed is truncated",
            NetworkError::TrailingBytes { .. } => "the network file to embed has trailing bytes",
            NetworkError::BadMagic => "the file to embed is not an Arbiter network file (bad magic)",
            NetworkError::UnsupportedVersion(_) => {
                "the network file to embed has a format version this build does not read"
            }
            NetworkError::Shape { .. } => "the network file to embed has another shape or quantisation than this build",
            NetworkError::Checksum { .. } => "the network file to embed fails its checksum",
        }
    }
}

impl std::error::Error for NetworkError {}

/// FNV-1a, 64 bits: the file's checksum (guards against truncation and corruption, not attack).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A quantised network, as read from a file.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `[INPUTS * HIDDEN]`, feature-major: the column of feature `f` is `f * HIDDEN ..`.
    pub ft_weights: Box<[i16]>,
    /// `[HIDDEN]`.
    pub ft_bias: Box<[i16]>,
    /// `[BUCKETS * 2 * HIDDEN]`: per bucket, the side to move's half then the other's.
    pub out_weights: Box<[i16]>,
    /// `[BUCKETS]`, scaled by `QA * QB`.
    pub out_bias: [i32; BUCKETS],
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}x2->1, {BUCKETS} buckets, checksum {:016x})", fnv1a(&self.to_bytes()))
    }
}

const HEADER_U32S: usize = 7;
const HEADER_BYTES: usize = MAGIC.len() + 4 * HEADER_U32S;

/// The exact size of a file of this build's shape.
pub const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN) + 4 * BUCKETS + 8;

/// The `i`-th `u32` of the header (0: the version), of a file at least [`HEADER_BYTES`] long.
const fn header_u32(bytes: &[u8], i: usize) -> u32 {
    let at = MAGIC.len() + 4 * i;
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Checks everything of a network file but its checksum: the magic, the format version, the
/// shape and quantisation (this build's) and the size. A `const fn`, so the network built into
/// the binary is checked when it is compiled (`source::EMBEDDED`).
pub const fn check_layout(bytes: &[u8]) -> Result<(), NetworkError> {
    if bytes.len() < HEADER_BYTES {
        return Err(NetworkError::Truncated { expected: HEADER_BYTES, found: bytes.len() });
    }
    let mut i = 0;
    while i < MAGIC.len() {
        if bytes[i] != MAGIC[i] {
            return Err(NetworkError::BadMagic);
        }
        i += 1;
    }
    if header_u32(bytes, 0) != VERSION {
        return Err(NetworkError::UnsupportedVersion(header_u32(bytes, 0)));
    }
    let expected = [INPUTS as u32, HIDDEN as u32, BUCKETS as u32, QA as u32, QB as u32, SCALE as u32];
    let names = ["inputs", "hidden size", "output buckets", "QA", "QB", "scale"];
    let mut field = 0;
    while field < expected.len() {
        let found = header_u32(bytes, field + 1);
        if found != expected[field] {
            return Err(NetworkError::Shape { field: names[field], expected: expected[field], found });
        }
        field += 1;
    }
    if bytes.len() < FILE_BYTES {
        return Err(NetworkError::Truncated { expected: FILE_BYTES, found: bytes.len() });
    }
    if bytes.len() > FILE_BYTES {
        return Err(NetworkError::TrailingBytes { expected: FILE_BYTES, found: bytes.len() });
    }
    Ok(())
}

impl Network {
    /// A network of all zeros (evaluates every position as 0).
    pub fn zeroed() -> Network {
        Network {
            ft_weights: vec![0; INPUTS * HIDDEN].into_boxed_slice(),
            ft_bias: vec![0; HIDDEN].into_boxed_slice(),
            out_weights: vec![0; BUCKETS * 2 * HIDDEN].into_boxed_slice(),
            out_bias: [0; BUCKETS],
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(&MAGIC);
        for v in [VERSION, INPUTS as u32, HIDDEN as u32, BUCKETS as u32, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for w in self.ft_weights.iter().chain(self.ft_bias.iter()).chain(self.out_weights.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the file.
    pub fn write(&self, path: &std::path::Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// Reads a network file's bytes: its shape and quantisation must be this build's.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        check_layout(bytes)?;
        let body = &bytes[..FILE_BYTES - 8];
        let mut tail = [0u8; 8];
        tail.copy_from_slice(&bytes[FILE_BYTES - 8..]);
        let stored = u64::from_le_bytes(tail);
        let computed = fnv1a(body);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let mut at = HEADER_BYTES;
        let mut i16s = |n: usize| -> Box<[i16]> {
            let v: Vec<i16> = bytes[at..at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            at += 2 * n;
            v.into_boxed_slice()
        };
        let ft_weights = i16s(INPUTS * HIDDEN);
        let ft_bias = i16s(HIDDEN);
        let out_weights = i16s(BUCKETS * 2 * HIDDEN);
        let mut out_bias = [0i32; BUCKETS];
        for b in out_bias.iter_mut() {
            *b = i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            at += 4;
        }
        Ok(Network { ft_weights, ft_bias, out_weights, out_bias })
    }

    /// Reads a network file.
    pub fn read(path: &std::path::Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// One perspective's hidden layer before activation, from scratch.
    pub fn accumulate(&self, pos: &Position, perspective: Color) -> Vec<i16> {
        let mut acc = self.ft_bias.to_vec();
        for f in active_features(pos, perspective) {
            for (a, &w) in acc.iter_mut().zip(&self.ft_weights[f * HIDDEN..(f + 1) * HIDDEN]) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    }

    /// The output layer on two accumulators (side to move's first): centipawns for the side to
    /// move. Exact integer arithmetic in `i64`: the reference every faster path must equal.
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let w = &self.out_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let screlu = |x: i16| {
            let c = i64::from(x).clamp(0, i64::from(QA));
            c * c
        };
        let sum: i64 = us.iter().chain(them.iter()).zip(w).map(|(&x, &w)| screlu(x) * i64::from(w)).sum();
        let out = sum / i64::from(QA) + i64::from(self.out_bias[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation from scratch, centipawns for the side to move (the reference the
    /// incremental evaluation is tested against).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let us = self.accumulate(pos, stm);
        let them = self.accumulate(pos, stm.flip());
        self.output(&us, &them, output_bucket(pos.occupied()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn the_other_perspective_from_the_index_alone() {
        for color in Color::ALL {
            for kind in PieceType::ALL {
                let piece = Piece::new(color, kind);
                for sq in (0..64).map(Square::new) {
                    for view in Color::ALL {
                        assert_eq!(other_perspective(feature(view, piece, sq)), feature(view.flip(), piece, sq));
                    }
                }
            }
        }
    }

    /// A seeded random network with a trained one's weight ranges (also used by the
    /// inference tests).
    pub(crate) fn test_net(seed: u64) -> Network {
        let mut rng = crate::rng::Rng::new(seed);
        let mut next = move || rng.next_u64();
        let mut net = Network::zeroed();
        for w in net.ft_weights.iter_mut() {
            *w = (next() % 61) as i16 - 30;
        }
        for w in net.ft_bias.iter_mut() {
            *w = (next() % 101) as i16;
        }
        for w in net.out_weights.iter_mut() {
            *w = (next() % 255) as i16 - 127;
        }
        for b in net.out_bias.iter_mut() {
            *b = (next() % 20001) as i32 - 10000;
        }
        net
    }

    #[test]
    fn file_round_trips_and_rejects_damage() {
        let net = test_net(7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        let mut bad = bytes.clone();
        bad[HEADER_BYTES + 5] ^= 1;
        assert!(matches!(Network::from_bytes(&bad), Err(NetworkError::Checksum { .. })));
        assert!(matches!(Network::from_bytes(&bytes[..100]), Err(NetworkError::Truncated { .. })));
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(Network::from_bytes(&long), Err(NetworkError::TrailingBytes { .. })));
        let mut other = bytes.clone();
        other[MAGIC.len() + 9] = 0; // hidden size 256 -> 0
        assert!(matches!(Network::from_bytes(&other), Err(NetworkError::Shape { field: "hidden size", .. })));
        assert_eq!(Network::from_bytes(&[b'x'; 64]), Err(NetworkError::BadMagic));
    }

    #[test]
    fn features_mirror_between_perspectives() {
        crate::chess::attacks::init();
        // The evaluation of a position equals that of its colour-flipped mirror.
        let net = test_net(3);
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        let mirror = "rnb1k1nr/pppp1ppp/8/2b1p3/4P2q/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4";
        let a = Position::from_fen(fen).unwrap();
        let b = Position::from_fen(mirror).unwrap();
        assert_eq!(net.evaluate(&a), net.evaluate(&b));
        let wk = Piece::new(Color::White, PieceType::King);
        assert_eq!(feature(Color::White, wk, Square::E1), 5 * 64 + 4);
        assert_eq!(feature(Color::Black, wk, Square::E1), 384 + 5 * 64 + 60);
    }

    #[test]
    fn buckets_cover_two_to_thirty_two_pieces() {
        crate::chess::attacks::init();
        assert_eq!(output_bucket(Position::startpos().occupied()), BUCKETS - 1);
        let kk = Position::from_fen("8/8/4k3/8/8/4K3/8/8 w - - 0 1").unwrap();
        assert_eq!(output_bucket(kk.occupied()), 0);
    }
}
