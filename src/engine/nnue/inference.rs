//! The network as the search evaluates it: the weights of a [`Network`] laid out in aligned
//! columns, accumulators updated by adding and subtracting columns, and a fast output layer.
//! Every result is bit-identical to [`Network::evaluate`] (tests below and in
//! `accumulator.rs`).

use super::accumulator::Board;
use super::layout::{InputLayout, KingView};
use super::{feature, output_bucket, Network, BUCKETS, HIDDEN, QA, QB, SCALE};
use crate::chess::{Color, Piece, Position, Square};

/// One perspective's hidden layer (or one feature's weight column): aligned for full-width
/// vector loads and stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Column(pub [i16; HIDDEN]);

/// Both perspectives' hidden layers of one position, indexed by [`Color::index`] (White's
/// first, whoever is to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator(pub [Column; 2]);

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator([Column([0; HIDDEN]); 2])
    }
}

/// The largest output weight magnitude for which [`Nnue::output`] takes the fast `i16`/`i32`
/// path (the bound is proved at [`screlu_dot`]); a file with larger weights is evaluated
/// exactly too, through the `i64` reference.
const NARROW_OUTPUT_WEIGHT: i16 = 128;

/// A network ready for the search (shared read-only by all threads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nnue {
    /// `[layout.inputs()]`: the weight column of each input.
    ft: Box<[Column]>,
    /// How the king squares choose the inputs.
    layout: InputLayout,
    /// The layout is flat: no king square changes the inputs, so the updates skip looking.
    flat: bool,
    ft_bias: Column,
    /// `[BUCKETS][2]`: per bucket, the side to move's weights, then the other side's.
    out: Box<[[Column; 2]]>,
    out_bias: [i32; BUCKETS],
    /// Every output weight is within ±[`NARROW_OUTPUT_WEIGHT`].
    narrow: bool,
    /// The CPU runs AVX2: the output layer takes [`avx2::screlu_dot`] (looked up once here).
    avx2: bool,
    /// The network as read, for the exact fallback of the output layer.
    net: Network,
}

/// A column as a fixed-size array (the slices come from a [`Network`], whose lengths are
/// fixed by its constructors and [`Network::from_bytes`]).
fn column(values: &[i16]) -> Column {
    let mut c = Column([0; HIDDEN]);
    c.0.copy_from_slice(values);
    c
}

impl Nnue {
    pub fn new(net: Network) -> Nnue {
        let ft = net.ft_weights.chunks_exact(HIDDEN).map(column).collect::<Vec<_>>().into_boxed_slice();
        debug_assert_eq!(ft.len(), net.layout.inputs());
        let out = net
            .out_weights
            .chunks_exact(2 * HIDDEN)
            .map(|b| [column(&b[..HIDDEN]), column(&b[HIDDEN..])])
            .collect::<Vec<_>>()
            .into_boxed_slice();
        debug_assert_eq!(out.len(), BUCKETS);
        let narrow = net.out_weights.iter().all(|w| w.unsigned_abs() <= NARROW_OUTPUT_WEIGHT as u16);
        let (layout, flat) = (net.layout, net.layout.is_flat());
        let avx2 = avx2::available();
        Nnue { ft, layout, flat, ft_bias: column(&net.ft_bias), out, out_bias: net.out_bias, narrow, avx2, net }
    }

    /// The network this was made from.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// Does the output layer take the fast path (every output weight within
    /// ±[`NARROW_OUTPUT_WEIGHT`])?
    pub fn has_narrow_output(&self) -> bool {
        self.narrow
    }

    /// The weight column of input `f`.
    #[inline(always)]
    fn col(&self, f: usize) -> &Column {
        &self.ft[f]
    }

    /// What `perspective`'s own king chooses on `board` (the identity for a flat layout).
    #[inline(always)]
    fn view(&self, perspective: Color, board: &Board) -> KingView {
        if self.flat {
            KingView::IDENTITY
        } else {
            self.layout.view(perspective, board.king(perspective))
        }
    }

    /// Both perspectives from scratch.
    pub fn refresh(&self, board: &Board, acc: &mut Accumulator) {
        for c in Color::ALL {
            self.refresh_perspective(c, board, &mut acc.0[c.index()]);
        }
    }

    /// One perspective from scratch: the bias plus the column of every piece.
    fn refresh_perspective(&self, perspective: Color, board: &Board, out: &mut Column) {
        let view = self.view(perspective, board);
        *out = self.ft_bias;
        for (piece, sq) in board.pieces() {
            add_assign(out, self.col(view.index(feature(perspective, piece, sq))));
        }
    }

    /// The accumulator of `board` from that of `prev_board`, one move (or null move) before:
    /// `prev + added columns - removed columns` per perspective, except that a perspective
    /// whose own king changed bucket or mirror side is refreshed from scratch (the other keeps
    /// its incremental update). Wrapping `i16` arithmetic, as the reference sums: addition
    /// modulo 2^16 does not depend on the order, so the result equals the from-scratch sum.
    #[inline]
    pub fn update(
        &self,
        (prev_board, prev): (&Board, &Accumulator),
        board: &Board,
        added: &[(Piece, Square)],
        removed: &[(Piece, Square)],
        out: &mut Accumulator,
    ) {
        if self.flat {
            // The identity view, a constant here, so this is the path of a network without
            // king buckets exactly.
            for c in Color::ALL {
                self.update_perspective(
                    c,
                    KingView::IDENTITY,
                    &prev.0[c.index()],
                    added,
                    removed,
                    &mut out.0[c.index()],
                );
            }
            return;
        }
        for c in Color::ALL {
            let view = self.view(c, board);
            if view != self.view(c, prev_board) {
                self.refresh_perspective(c, board, &mut out.0[c.index()]);
            } else {
                self.update_perspective(c, view, &prev.0[c.index()], added, removed, &mut out.0[c.index()]);
            }
        }
    }

    /// One perspective's incremental update, in one pass for the moves' usual shapes.
    #[inline(always)]
    fn update_perspective(
        &self,
        c: Color,
        view: KingView,
        p: &Column,
        added: &[(Piece, Square)],
        removed: &[(Piece, Square)],
        o: &mut Column,
    ) {
        let col = |&(piece, sq): &(Piece, Square)| self.col(view.index(feature(c, piece, sq)));
        match (added, removed) {
            ([], []) => *o = *p,
            ([a], [r]) => add_sub(o, p, col(a), col(r)),
            ([a], [r1, r2]) => add_sub_sub(o, p, col(a), col(r1), col(r2)),
            ([a1, a2], [r1, r2]) => add_add_sub_sub(o, p, col(a1), col(a2), col(r1), col(r2)),
            _ => {
                *o = *p;
                for a in added {
                    add_assign(o, col(a));
                }
                for r in removed {
                    sub_assign(o, col(r));
                }
            }
        }
    }

    /// The output layer: centipawns for `stm`, equal to [`Network::output`] on the same
    /// accumulators.
    #[inline]
    pub fn output(&self, acc: &Accumulator, stm: Color, bucket: usize) -> i32 {
        let (us, them) = (&acc.0[stm.index()], &acc.0[stm.flip().index()]);
        if !self.narrow {
            return self.net.output(&us.0, &them.0, bucket);
        }
        let [w_us, w_them] = &self.out[bucket];
        let sum = if self.avx2 {
            // SAFETY: `avx2` is true only where the CPU runs AVX2 (`avx2::available`).
            unsafe { avx2::screlu_dot(us, w_us) + avx2::screlu_dot(them, w_them) }
        } else {
            screlu_dot(us, w_us) + screlu_dot(them, w_them)
        };
        // The rest as in `Network::output`, on the same exact sum.
        let out = sum / i64::from(QA) + i64::from(self.out_bias[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` from scratch, centipawns for the side to move (equal to
    /// [`Network::evaluate`]).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(&Board::of(pos), &mut acc);
        self.output(&acc, pos.side_to_move(), output_bucket(pos.occupied()))
    }

    /// How the king squares choose the inputs.
    pub fn layout(&self) -> &InputLayout {
        &self.layout
    }
}

#[inline(always)]
fn add_assign(o: &mut Column, a: &Column) {
    for (o, &a) in o.0.iter_mut().zip(&a.0) {
        *o = o.wrapping_add(a);
    }
}

#[inline(always)]
fn sub_assign(o: &mut Column, r: &Column) {
    for (o, &r) in o.0.iter_mut().zip(&r.0) {
        *o = o.wrapping_sub(r);
    }
}

#[inline(always)]
fn add_sub(o: &mut Column, p: &Column, a: &Column, r: &Column) {
    for i in 0..HIDDEN {
        o.0[i] = p.0[i].wrapping_add(a.0[i]).wrapping_sub(r.0[i]);
    }
}

#[inline(always)]
fn add_sub_sub(o: &mut Column, p: &Column, a: &Column, r1: &Column, r2: &Column) {
    for i in 0..HIDDEN {
        o.0[i] = p.0[i].wrapping_add(a.0[i]).wrapping_sub(r1.0[i]).wrapping_sub(r2.0[i]);
    }
}

#[inline(always)]
fn add_add_sub_sub(o: &mut Column, p: &Column, a1: &Column, a2: &Column, r1: &Column, r2: &Column) {
    for i in 0..HIDDEN {
        o.0[i] = p.0[i].wrapping_add(a1.0[i]).wrapping_add(a2.0[i]).wrapping_sub(r1.0[i]).wrapping_sub(r2.0[i]);
    }
}

/// Neurons whose products one `i32` sum holds exactly ([`screlu_dot`]).
const DOT_CHUNK: usize = 256;

/// `sum(clamp(x, 0, QA)^2 * w)` over one perspective, exactly, for weights within
/// ±[`NARROW_OUTPUT_WEIGHT`]. Written so that it vectorises as `vpmullw` (the `i16` product
/// `c * w`) and `vpmaddwd` (times `c`, adjacent pairs summed into `i32`):
///
/// - `c = clamp(x, 0, 255)` and `|w| <= 128`, so `|c * w| <= 32_640`: exact in `i16`.
/// - `|(c * w) * c| <= 32_640 * 255 = 8_323_200` per neuron, and over a chunk of 256 neurons
///   `|sum| <= 2_130_739_200 < 2^31 - 1 = 2_147_483_647`.
///
/// So each chunk's true sum fits in `i32`; the wrapping `i32` additions compute it modulo 2^32
/// in whatever order, hence exactly; the chunks are added in `i64`.
#[inline(always)]
fn screlu_dot(x: &Column, w: &Column) -> i64 {
    const _: () = assert!(DOT_CHUNK as i64 * 255 * 255 * NARROW_OUTPUT_WEIGHT as i64 <= i32::MAX as i64);
    const _: () = assert!(255 * NARROW_OUTPUT_WEIGHT as i32 <= i16::MAX as i32 && QA == 255);
    let mut total = 0i64;
    for (x, w) in x.0.chunks(DOT_CHUNK).zip(w.0.chunks(DOT_CHUNK)) {
        let mut sum = 0i32;
        for (&x, &w) in x.iter().zip(w) {
            let c = x.clamp(0, QA as i16);
            sum = sum.wrapping_add(i32::from(c.wrapping_mul(w)) * i32::from(c));
        }
        total += i64::from(sum);
    }
    total
}

/// [`screlu_dot`] 256 bits at a time, as the compiler does not write it: it vectorises the
/// plain loop for the `i32` sum's width, so `vpmaddwd` runs on 128 bits (docs/nnue.md). Same
/// arithmetic, so the same exact result: per lane `vpmaddwd` adds two neurons' `(c * w) * c`
/// (each within ±8_323_200, so no overflow in `i32`), the lanes add up modulo 2^32, and a
/// chunk's true sum fits in `i32`.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Column, DOT_CHUNK, HIDDEN, QA};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16,
        _mm256_min_epi16, _mm256_mullo_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm_add_epi32,
        _mm_cvtsi128_si32, _mm_shuffle_epi32,
    };

    /// Sixteen `i16` neurons a vector.
    const WIDTH: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(WIDTH) && DOT_CHUNK.is_multiple_of(WIDTH));

    /// Does this CPU run AVX2? (Known at compile time where the build targets it.)
    pub fn available() -> bool {
        cfg!(target_feature = "avx2") || std::arch::is_x86_feature_detected!("avx2")
    }

    /// [`super::screlu_dot`], exactly.
    ///
    /// # Safety
    /// The CPU must run AVX2 ([`available`]).
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(x: &Column, w: &Column) -> i64 {
        // Index loops, not iterators: generic code is not inlined into a function with more
        // target features in every build, and a call per chunk would cost more than it saves.
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let (x, w) = (x.0.as_ptr(), w.0.as_ptr());
        let mut total = 0i64;
        let mut start = 0;
        while start < HIDDEN {
            let end = if HIDDEN - start > DOT_CHUNK { start + DOT_CHUNK } else { HIDDEN };
            let mut sum = _mm256_setzero_si256();
            let mut i = start;
            while i < end {
                // SAFETY: i + WIDTH <= HIDDEN (both bounds are multiples of WIDTH), so the
                // 32 bytes read from i lie inside each column.
                let (x, w) = unsafe {
                    (_mm256_loadu_si256(x.add(i).cast::<__m256i>()), _mm256_loadu_si256(w.add(i).cast::<__m256i>()))
                };
                let c = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, w), c));
                i += WIDTH;
            }
            // The eight lanes added (modulo 2^32, as the plain loop's wrapping sum).
            let half = _mm_add_epi32(_mm256_extracti128_si256::<0>(sum), _mm256_extracti128_si256::<1>(sum));
            let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
            let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
            total += i64::from(_mm_cvtsi128_si32(one));
            start = end;
        }
        total
    }
}

/// Elsewhere the plain loop only.
#[cfg(not(target_arch = "x86_64"))]
mod avx2 {
    use super::Column;

    pub fn available() -> bool {
        false
    }

    /// Never called ([`available`] is false).
    ///
    /// # Safety
    /// None needed: the plain loop.
    pub unsafe fn screlu_dot(x: &Column, w: &Column) -> i64 {
        super::screlu_dot(x, w)
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout;
    use super::super::tests::{test_net, test_net_with};
    use super::*;
    use crate::rng::Rng;

    /// Uniform in `lo..=hi`.
    fn range(r: &mut Rng, lo: i64, hi: i64) -> i64 {
        lo + r.below((hi - lo + 1) as u64) as i64
    }

    fn random_column(r: &mut Rng, lo: i64, hi: i64) -> Column {
        let mut c = Column([0; HIDDEN]);
        for v in c.0.iter_mut() {
            *v = range(r, lo, hi) as i16;
        }
        c
    }

    #[test]
    fn output_equals_the_reference_on_extreme_values() {
        let mut r = Rng::new(0x9e37_79b9_7f4a_7c15);
        for trial in 0..400 {
            let mut net = test_net(trial + 1);
            // Extreme output weights: all at a bound, random at the bounds, or random.
            for (i, w) in net.out_weights.iter_mut().enumerate() {
                *w = match trial % 4 {
                    0 => 128,
                    1 => -128,
                    2 => [-128, 128][r.below(2) as usize],
                    _ => *w,
                };
                if trial % 8 == 7 && i % 3 == 0 {
                    *w = range(&mut r, -32768, 32767) as i16; // too wide: the reference path
                }
            }
            net.out_bias[0] = [i32::MIN / 2, i32::MAX / 2, 0, -1][(trial % 4) as usize];
            let nnue = Nnue::new(net.clone());
            assert_eq!(nnue.has_narrow_output(), trial % 8 != 7, "trial {trial}");
            // The plain loop too where the CPU runs AVX2 (the vector path is taken there).
            let mut plain = nnue.clone();
            plain.avx2 = false;
            let mut acc = Accumulator::default();
            for c in acc.0.iter_mut() {
                *c = match trial % 5 {
                    0 => Column([QA as i16; HIDDEN]), // every neuron saturated
                    1 => random_column(&mut r, -32768, 32767),
                    2 => random_column(&mut r, 200, 300),
                    _ => random_column(&mut r, -50, 260),
                };
            }
            for bucket in 0..BUCKETS {
                for stm in Color::ALL {
                    let (us, them) = (&acc.0[stm.index()].0, &acc.0[stm.flip().index()].0);
                    let reference = net.output(us, them, bucket);
                    assert_eq!(nnue.output(&acc, stm, bucket), reference, "trial {trial} bucket {bucket}");
                    assert_eq!(plain.output(&acc, stm, bucket), reference, "trial {trial} bucket {bucket}");
                }
            }
        }
    }

    #[test]
    fn from_scratch_equals_the_reference() {
        crate::chess::attacks::init();
        for (name, layout) in layout::NAMED {
            let net = test_net_with(11, layout);
            let nnue = Nnue::new(net.clone());
            for fen in [
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                "8/8/8/5k2/8/8/4K3/3R4 w - - 0 1",
                "8/8/2k5/8/8/8/1K4Q1/8 b - - 0 1",
            ] {
                let pos = Position::from_fen(fen).expect("fen");
                assert_eq!(nnue.evaluate(&pos), net.evaluate(&pos), "{name} {fen}");
            }
        }
        // Saturating feature weights: the i16 sums wrap the same way in both.
        let mut wide = test_net(12);
        wide.ft_weights.iter_mut().for_each(|w| *w = w.wrapping_mul(1000));
        wide.ft_bias.iter_mut().for_each(|b| *b = i16::MAX);
        let nnue = Nnue::new(wide.clone());
        let pos = Position::startpos();
        assert_eq!(nnue.evaluate(&pos), wide.evaluate(&pos));
    }
}
