//! The neural evaluation (NNUE): what the network sees, its file format, and its reference
//! evaluation.
//!
//! The network is `(K x 768 -> HIDDEN) x 2 -> 1` with output buckets:
//! - **Inputs**: one per (piece colour relative to the perspective, piece type, square seen from
//!   the perspective), [`feature`], in one of `K` sets chosen by the perspective's own king
//!   square, the squares mirrored a<->h when the layout says so ([`layout`]; `K = 1` and no
//!   mirroring is the flat layout of format version 1). Each side's perspective has its own
//!   accumulator, the same weights: the side to move's accumulator comes first in the output
//!   layer.
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
//! QB) and one `u32` SCALE; in version 2 then the input layout, one byte `mirror` (0 or 1) and
//! the 64 bytes `buckets` ([`InputLayout`]; `inputs` is their bucket count times 768; version 1
//! is the flat layout); then the feature weights `[inputs][HIDDEN]` i16, the feature biases
//! `[HIDDEN]` i16, the output weights `[BUCKETS][2 * HIDDEN]` i16, the output biases `[BUCKETS]`
//! i32, and last an FNV-1a 64-bit checksum of every byte before it. The flat layout is written
//! as version 1 (so N7's bytes stay what they were), every other as version 2.

pub mod accumulator;
pub mod inference;
pub mod layout;
pub mod source;

pub use accumulator::AccumulatorStack;
pub use inference::Nnue;
pub use layout::InputLayout;

use crate::chess::{Bitboard, Color, Piece, PieceType, Position, Square};
use std::fmt;

/// Inputs per perspective and king bucket: 2 colours x 6 piece types x 64 squares.
pub const INPUTS: usize = 768;
/// Neurons per perspective in the hidden layer.
pub const HIDDEN: usize = 512;
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
/// The file format's version for the flat layout (no layout in the header).
const VERSION_FLAT: u32 = 1;
/// The file format's version with the input layout in the header.
const VERSION_LAYOUT: u32 = 2;

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
    /// A version 1 file whose inputs are not 768, or a version 2 file whose inputs are not a
    /// multiple of 768 within 1..=64 king buckets.
    Inputs { version: u32, found: u32 },
    /// The layout's mirror byte is neither 0 nor 1.
    MirrorFlag(u8),
    /// The layout sends a king square to a bucket the file has no weights for.
    KingBucket { square: u8, bucket: u8, buckets: u32 },
    /// The file has weights for more king buckets than its layout uses.
    UnusedKingBuckets { used: u32, buckets: u32 },
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
                write!(f, "network format version {v} not supported (this build reads {VERSION_FLAT} and {VERSION_LAYOUT})")
            }
            NetworkError::Inputs { version, found } => write!(
                f,
                "network inputs {found} do not fit format version {version} (768, or in version 2 768 x 1..=64 king buckets)"
            ),
            NetworkError::MirrorFlag(b) => write!(f, "network input layout: mirror byte is {b}, must be 0 or 1"),
            NetworkError::KingBucket { square, bucket, buckets } => write!(
                f,
                "network input layout: king square {square} is in bucket {bucket}, but the file has {buckets} king buckets"
            ),
            NetworkError::UnusedKingBuckets { used, buckets } => write!(
                f,
                "network input layout uses {used} king buckets, but the file has weights for {buckets}"
            ),
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
            NetworkError::Inputs { .. } => "the network file to embed has inputs that do not fit its version",
            NetworkError::MirrorFlag(_) | NetworkError::KingBucket { .. } | NetworkError::UnusedKingBuckets { .. } => {
                "the network file to embed has a bad input layout"
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
    /// How the king squares choose the inputs.
    pub layout: InputLayout,
    /// `[layout.inputs() * HIDDEN]`, feature-major: the column of input `f` is `f * HIDDEN ..`.
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
        let inputs = self.layout.inputs();
        let sum = fnv1a(&self.to_bytes());
        if self.layout.is_flat() {
            write!(f, "Network({inputs}->{HIDDEN}x2->1, {BUCKETS} buckets, checksum {sum:016x})")
        } else {
            let name = self.layout.name();
            write!(f, "Network({inputs}->{HIDDEN}x2->1, input layout {name}, {BUCKETS} buckets, checksum {sum:016x})")
        }
    }
}

const HEADER_U32S: usize = 7;
const HEADER_BYTES: usize = MAGIC.len() + 4 * HEADER_U32S;
/// The input layout of a version 2 file: the mirror byte and the 64 bucket bytes.
const LAYOUT_BYTES: usize = 1 + 64;

/// The size of a file of a network with `king_buckets` king buckets, written as version 1
/// (flat) or 2.
pub const fn file_bytes(king_buckets: usize, version2: bool) -> usize {
    let header = HEADER_BYTES + if version2 { LAYOUT_BYTES } else { 0 };
    header + 2 * (king_buckets * INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN) + 4 * BUCKETS + 8
}

/// The exact size of a version 1 (flat) file.
pub const FILE_BYTES: usize = file_bytes(1, false);

/// The `i`-th `u32` of the header (0: the version), of a file at least [`HEADER_BYTES`] long.
const fn header_u32(bytes: &[u8], i: usize) -> u32 {
    let at = MAGIC.len() + 4 * i;
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Checks everything of a network file but its checksum: the magic, the format version, the
/// input layout, the shape and quantisation (this build's) and the size; gives the layout. A
/// `const fn`, so the network built into the binary is checked when it is compiled
/// (`source::EMBEDDED`).
pub const fn check_file(bytes: &[u8]) -> Result<InputLayout, NetworkError> {
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
    let version = header_u32(bytes, 0);
    if version != VERSION_FLAT && version != VERSION_LAYOUT {
        return Err(NetworkError::UnsupportedVersion(version));
    }
    let inputs = header_u32(bytes, 1);
    let buckets = inputs as usize / INPUTS;
    let fits = match version {
        VERSION_FLAT => inputs as usize == INPUTS,
        _ => (inputs as usize).is_multiple_of(INPUTS) && buckets >= 1 && buckets <= layout::MAX_KING_BUCKETS,
    };
    if !fits {
        return Err(NetworkError::Inputs { version, found: inputs });
    }
    let expected = [HIDDEN as u32, BUCKETS as u32, QA as u32, QB as u32, SCALE as u32];
    let names = ["hidden size", "output buckets", "QA", "QB", "scale"];
    let mut field = 0;
    while field < expected.len() {
        let found = header_u32(bytes, field + 2);
        if found != expected[field] {
            return Err(NetworkError::Shape { field: names[field], expected: expected[field], found });
        }
        field += 1;
    }
    let layout = if version == VERSION_FLAT {
        layout::FLAT
    } else {
        if bytes.len() < HEADER_BYTES + LAYOUT_BYTES {
            return Err(NetworkError::Truncated { expected: HEADER_BYTES + LAYOUT_BYTES, found: bytes.len() });
        }
        let mirror = match bytes[HEADER_BYTES] {
            0 => false,
            1 => true,
            b => return Err(NetworkError::MirrorFlag(b)),
        };
        let mut table = [0u8; 64];
        let mut sq = 0;
        while sq < 64 {
            let bucket = bytes[HEADER_BYTES + 1 + sq];
            if bucket as usize >= buckets {
                return Err(NetworkError::KingBucket { square: sq as u8, bucket, buckets: buckets as u32 });
            }
            table[sq] = bucket;
            sq += 1;
        }
        let layout = InputLayout { buckets: table, mirror };
        if layout.bucket_count() != buckets {
            return Err(NetworkError::UnusedKingBuckets {
                used: layout.bucket_count() as u32,
                buckets: buckets as u32,
            });
        }
        layout
    };
    let size = file_bytes(buckets, version == VERSION_LAYOUT);
    if bytes.len() < size {
        return Err(NetworkError::Truncated { expected: size, found: bytes.len() });
    }
    if bytes.len() > size {
        return Err(NetworkError::TrailingBytes { expected: size, found: bytes.len() });
    }
    Ok(layout)
}

impl Network {
    /// A flat network of all zeros (evaluates every position as 0).
    pub fn zeroed() -> Network {
        Network::zeroed_with(layout::FLAT)
    }

    /// A network of all zeros with this input layout.
    pub fn zeroed_with(layout: InputLayout) -> Network {
        Network {
            layout,
            ft_weights: vec![0; layout.inputs() * HIDDEN].into_boxed_slice(),
            ft_bias: vec![0; HIDDEN].into_boxed_slice(),
            out_weights: vec![0; BUCKETS * 2 * HIDDEN].into_boxed_slice(),
            out_bias: [0; BUCKETS],
        }
    }

    /// The file's bytes: version 1 for the flat layout, 2 (with the layout) for any other.
    pub fn to_bytes(&self) -> Vec<u8> {
        let flat = self.layout.is_flat();
        let mut out = Vec::with_capacity(file_bytes(self.layout.bucket_count(), !flat));
        out.extend_from_slice(&MAGIC);
        let version = if flat { VERSION_FLAT } else { VERSION_LAYOUT };
        let inputs = self.layout.inputs() as u32;
        for v in [version, inputs, HIDDEN as u32, BUCKETS as u32, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if !flat {
            out.push(u8::from(self.layout.mirror));
            out.extend_from_slice(&self.layout.buckets);
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
        let layout = check_file(bytes)?;
        // check_file has checked the size: the checksum is the last 8 bytes.
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut tail = [0u8; 8];
        tail.copy_from_slice(sum);
        let stored = u64::from_le_bytes(tail);
        let computed = fnv1a(body);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let mut at = HEADER_BYTES + if layout.is_flat() { 0 } else { LAYOUT_BYTES };
        let mut i16s = |n: usize| -> Box<[i16]> {
            let v: Vec<i16> = bytes[at..at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
            at += 2 * n;
            v.into_boxed_slice()
        };
        let ft_weights = i16s(layout.inputs() * HIDDEN);
        let ft_bias = i16s(HIDDEN);
        let out_weights = i16s(BUCKETS * 2 * HIDDEN);
        let mut out_bias = [0i32; BUCKETS];
        for b in out_bias.iter_mut() {
            *b = i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
            at += 4;
        }
        Ok(Network { layout, ft_weights, ft_bias, out_weights, out_bias })
    }

    /// Reads a network file.
    pub fn read(path: &std::path::Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// One perspective's hidden layer before activation, from scratch.
    pub fn accumulate(&self, pos: &Position, perspective: Color) -> Vec<i16> {
        let view = self.layout.view(perspective, pos.king_square(perspective));
        self.accumulate_inputs(active_features(pos, perspective).map(|f| view.index(f)))
    }

    /// A hidden layer before activation from its active inputs (indices of this network's
    /// input layout): the bias plus their weight columns, wrapping as `i16`.
    pub fn accumulate_inputs(&self, inputs: impl IntoIterator<Item = usize>) -> Vec<i16> {
        let mut acc = self.ft_bias.to_vec();
        for f in inputs {
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
        test_net_with(seed, layout::FLAT)
    }

    /// [`test_net`] with this input layout.
    pub(crate) fn test_net_with(seed: u64, layout: InputLayout) -> Network {
        let mut rng = crate::rng::Rng::new(seed);
        let mut next = move || rng.next_u64();
        let mut net = Network::zeroed_with(layout);
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
    fn every_layout_round_trips_as_its_version() {
        for (name, layout) in layout::NAMED {
            let net = test_net_with(8, layout);
            let bytes = net.to_bytes();
            let version2 = !layout.is_flat();
            assert_eq!(bytes.len(), file_bytes(layout.bucket_count(), version2), "{name}");
            assert_eq!(header_u32(&bytes, 0), if version2 { 2 } else { 1 }, "{name}");
            assert_eq!(header_u32(&bytes, 1) as usize, layout.bucket_count() * INPUTS, "{name}");
            assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()), "{name}");
            assert_eq!(check_file(&bytes), Ok(layout), "{name}");
        }
        // A layout that is no named one round-trips too: two buckets by file, not mirrored.
        let mut buckets = [0u8; 64];
        buckets.iter_mut().enumerate().for_each(|(sq, b)| *b = u8::from(sq % 8 >= 4));
        let custom = test_net_with(9, InputLayout { buckets, mirror: false });
        assert_eq!(Network::from_bytes(&custom.to_bytes()), Ok(custom.clone()));
        assert!(format!("{custom:?}").contains("input layout custom"));
    }

    #[test]
    fn a_bad_layout_is_refused_with_its_reason() {
        let bytes = test_net_with(10, layout::MIRROR4).to_bytes();
        let with = |at: usize, value: u8| {
            let mut b = bytes.clone();
            b[at] = value;
            Network::from_bytes(&b)
        };
        assert_eq!(with(HEADER_BYTES, 2), Err(NetworkError::MirrorFlag(2)));
        // Square 9 (b2) sent to bucket 4 of a file with 4 buckets.
        assert_eq!(with(HEADER_BYTES + 1 + 9, 4), Err(NetworkError::KingBucket { square: 9, bucket: 4, buckets: 4 }));
        let e = with(HEADER_BYTES + 1 + 9, 200).expect_err("bucket 200");
        assert_eq!(
            e.to_string(),
            "network input layout: king square 9 is in bucket 200, but the file has 4 king buckets"
        );
        // Ranks 5-8 (bucket 3) moved to bucket 2: the file's weights for bucket 3 unused.
        let mut b = bytes.clone();
        b[HEADER_BYTES + 1 + 32..HEADER_BYTES + 1 + 64].fill(2);
        assert_eq!(Network::from_bytes(&b), Err(NetworkError::UnusedKingBuckets { used: 3, buckets: 4 }));
        // Inputs that are no whole number of buckets, or not 768 in version 1.
        let mut b = bytes.clone();
        b[MAGIC.len() + 4..MAGIC.len() + 8].copy_from_slice(&1000u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&b), Err(NetworkError::Inputs { version: 2, found: 1000 }));
        let mut v1 = test_net(10).to_bytes();
        v1[MAGIC.len() + 4..MAGIC.len() + 8].copy_from_slice(&(4 * 768u32).to_le_bytes());
        assert_eq!(Network::from_bytes(&v1), Err(NetworkError::Inputs { version: 1, found: 3072 }));
        // Version 3 does not exist; a cut layout is truncated; damage behind it fails the checksum.
        assert_eq!(with(MAGIC.len(), 3), Err(NetworkError::UnsupportedVersion(3)));
        assert!(matches!(Network::from_bytes(&bytes[..HEADER_BYTES + 20]), Err(NetworkError::Truncated { .. })));
        assert!(matches!(with(HEADER_BYTES + 70, 0x55), Err(NetworkError::Checksum { .. })));
    }

    #[test]
    fn features_mirror_between_perspectives() {
        crate::chess::attacks::init();
        // The evaluation of a position equals that of its colour-flipped mirror, in any layout.
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        let mirror = "rnb1k1nr/pppp1ppp/8/2b1p3/4P2q/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4";
        let a = Position::from_fen(fen).unwrap();
        let b = Position::from_fen(mirror).unwrap();
        for (_, layout) in layout::NAMED {
            let net = test_net_with(3, layout);
            assert_eq!(net.evaluate(&a), net.evaluate(&b));
        }
        // In a mirrored layout, so does that of its a<->h mirror image (no castling rights).
        let kings = "8/2k5/1p6/8/4P3/5N2/6K1/8 w - - 0 1";
        let image = "8/5k2/6p1/8/3P4/2N5/1K6/8 w - - 0 1";
        let (a, b) = (Position::from_fen(kings).unwrap(), Position::from_fen(image).unwrap());
        for layout in [layout::MIRROR, layout::MIRROR4] {
            let net = test_net_with(4, layout);
            assert_eq!(net.evaluate(&a), net.evaluate(&b));
        }
        let flat = test_net(4);
        assert_ne!(flat.evaluate(&a), flat.evaluate(&b), "the flat layout tells the wings apart");
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
