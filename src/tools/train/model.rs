//! The network of [`crate::engine::nnue`] in `f32`, for training: forward pass, loss,
//! backward pass over the active features only, weight clipping, quantisation to a
//! [`Network`], and the float checkpoint file.
//!
//! In float terms the network is `y = ob[b] + sum_j ow[b][j] * clamp(acc_j, 0, 1)^2` over both
//! perspectives' accumulators `acc = fb + sum of the active features' columns`; `y * SCALE`
//! is centipawns for the side to move. Quantising multiplies the feature transformer by `QA`,
//! the output weights by `QB` and the output bias by `QA * QB`, which is exactly the integer
//! arithmetic of `Network::output`.
//!
//! Every sum runs in a fixed order (the dot products in eight fixed lanes), so a given build
//! computes the same bits on any machine and thread count.

use super::data::{Dataset, Sample, MAX_PIECES};
use crate::chess::Position;
use crate::engine::nnue::{layout, InputLayout, Network, BUCKETS, HIDDEN, INPUTS, QA, QB, SCALE};
use crate::rng::Rng;
use rayon::prelude::*;
use std::fmt;

/// Offset of the feature weights in [`Model::params`]; the other blocks follow
/// ([`Blocks`]), in the order of [`Network`]'s fields.
pub const FT_WEIGHTS: usize = 0;

/// Offsets of the parameter blocks in [`Model::params`] after the feature weights, which
/// have `layout.inputs() * HIDDEN` of them; `params` is the number of parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocks {
    pub ft_bias: usize,
    pub out_weights: usize,
    pub out_bias: usize,
    pub params: usize,
}

impl Blocks {
    pub const fn of(layout: &InputLayout) -> Blocks {
        let ft_bias = FT_WEIGHTS + layout.inputs() * HIDDEN;
        let out_weights = ft_bias + HIDDEN;
        let out_bias = out_weights + BUCKETS * 2 * HIDDEN;
        Blocks { ft_bias, out_weights, out_bias, params: out_bias + BUCKETS }
    }
}

/// The inputs of the largest layout fit the `u16` feature indices of [`Sample`].
const _: () = assert!(layout::MAX_KING_BUCKETS * INPUTS <= u16::MAX as usize + 1);

/// Bound on every feature weight, feature bias and output weight. Quantised, a feature-
/// transformer value is at most `1.98 * QA` = 505, so an accumulator of the bias and
/// [`MAX_PIECES`] features stays within `33 * 505` = 16,665 of zero, inside `i16`; an
/// output weight is at most `1.98 * QB` = 127, so `clamp(x) * w` fits `i16` too (what a
/// vectorised output layer may rely on).
pub const CLIP: f32 = 1.98;
const _: () = assert!((MAX_PIECES as f32 + 1.0) * CLIP * QA as f32 <= i16::MAX as f32);
const _: () = assert!(CLIP * (QB as f32) < 127.5);

/// The float network, parameters in one vector (blocks at [`FT_WEIGHTS`] and [`Blocks`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub params: Vec<f32>,
    /// How the king squares choose the inputs (the samples' indices are in this layout).
    pub layout: InputLayout,
    /// Where the blocks of `params` are, for `layout`.
    pub blocks: Blocks,
}

/// One position's accumulators before activation (side to move's first), kept from the
/// forward pass for the backward pass.
pub struct Activations {
    acc: [[f32; HIDDEN]; 2],
}

impl Default for Activations {
    fn default() -> Self {
        Activations { acc: [[0.0; HIDDEN]; 2] }
    }
}

/// What the training minimises, per position.
#[derive(Clone, Copy, Debug)]
pub struct LossSpec {
    /// Weight of the game result in the target; the rest is the search score.
    pub lambda: f32,
    /// The loss is `|p - t|^power`.
    pub power: f32,
    /// Centipawns per unit of the sigmoid's argument: a win probability `sigmoid(cp / S)`, for
    /// the prediction and the search score alike. Fitted to the game results
    /// ([`fit_sigmoid_cp`]), the result and the score in the target agree, and the network's
    /// centipawns are the search's own (the scale its pruning margins were set for).
    pub sigmoid_cp: f32,
}

/// The `sigmoid_cp` that makes `sigmoid(score / sigmoid_cp)` predict the game results of
/// `data` best (least squares; golden-section search over 50..1000 cp, sums in a fixed order).
pub fn fit_sigmoid_cp(data: &Dataset) -> f32 {
    let idx: Vec<usize> = (0..data.len()).collect();
    let error = |cp: f64| {
        let parts: Vec<f64> = idx
            .par_chunks(8192)
            .map(|chunk| {
                chunk.iter().fold(0.0, |sum, &i| {
                    let s = data.sample(i);
                    let d = f64::from(s.result) - 1.0 / (1.0 + (-f64::from(s.score) / cp).exp());
                    sum + d * d
                })
            })
            .collect();
        parts.iter().sum::<f64>()
    };
    crate::data::minimise::golden_section(50.0, 1000.0, 40, error) as f32
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl LossSpec {
    /// The target: `lambda * result + (1 - lambda) * sigmoid(score / sigmoid_cp)`.
    pub fn target(&self, s: &Sample) -> f32 {
        self.lambda * s.result + (1.0 - self.lambda) * sigmoid(s.score / self.sigmoid_cp)
    }

    /// The loss for network output `y` (in units of SCALE) and its slope d loss / d y.
    pub fn loss_and_slope(&self, y: f32, s: &Sample) -> (f32, f32) {
        let p = sigmoid(y * SCALE as f32 / self.sigmoid_cp);
        let d = p - self.target(s);
        let a = d.abs();
        let loss = a.powf(self.power);
        let slope = self.power * a.powf(self.power - 1.0) * d.signum() * p * (1.0 - p) * SCALE as f32 / self.sigmoid_cp;
        (loss, if a == 0.0 { 0.0 } else { slope })
    }
}

/// `sum a[i] * b[i]` in eight fixed lanes (vectorises; the same bits everywhere).
fn dot(a: &[f32; HIDDEN], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for l in 0..8 {
            lanes[l] += x[l] * y[l];
        }
    }
    let s = [lanes[0] + lanes[4], lanes[1] + lanes[5], lanes[2] + lanes[6], lanes[3] + lanes[7]];
    (s[0] + s[2]) + (s[1] + s[3])
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// A float checkpoint that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    BadMagic,
    Size {
        expected: usize,
        found: usize,
    },
    /// A checkpoint of another input layout than the run's.
    Layout {
        expected: &'static str,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::BadMagic => write!(f, "not an Arbiter float checkpoint (bad magic)"),
            CheckpointError::Size { expected, found } => {
                write!(f, "checkpoint is {found} bytes, this build's network needs {expected}")
            }
            CheckpointError::Layout { expected } => {
                write!(f, "checkpoint is of another input layout than --input-layout {expected}")
            }
        }
    }
}

impl std::error::Error for CheckpointError {}

/// The first bytes of a float checkpoint of the flat layout (then every parameter as `f32`,
/// little-endian).
const CHECKPOINT_MAGIC: [u8; 8] = *b"ARBFLT1\0";
/// The first bytes of a float checkpoint of any other layout, followed by the layout (the
/// mirror byte and the 64 bucket bytes, as in a network file), then the parameters.
const CHECKPOINT_MAGIC_LAYOUT: [u8; 8] = *b"ARBFLT2\0";

impl Model {
    /// Seeded initialisation: feature weights uniform in ±0.06 (standard deviation about
    /// `1 / sqrt(INPUTS)`), so the accumulators of ~30 features start mostly inside the
    /// activation's range, the same in every king bucket (the network starts as one without
    /// buckets, which the data then tells apart); output weights uniform in
    /// `±1 / sqrt(2 * HIDDEN)`; biases zero.
    pub fn random(seed: u64, layout: InputLayout) -> Model {
        let b = Blocks::of(&layout);
        let mut rng = Rng::new(seed);
        let mut uniform = |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut params = vec![0.0; b.params];
        let bucket = INPUTS * HIDDEN;
        for w in &mut params[FT_WEIGHTS..FT_WEIGHTS + bucket] {
            *w = uniform(0.06);
        }
        for k in FT_WEIGHTS + bucket..b.ft_bias {
            params[k] = params[k - bucket];
        }
        let out = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        for w in &mut params[b.out_weights..b.out_bias] {
            *w = uniform(out);
        }
        Model { params, layout, blocks: b }
    }

    /// The network's output (1.0 = SCALE centipawns for the side to move), keeping the
    /// accumulators in `act`.
    pub fn forward(&self, s: &Sample, act: &mut Activations) -> f32 {
        let b = self.blocks;
        let p = &self.params;
        for (acc, feats) in act.acc.iter_mut().zip([s.us(), s.them()]) {
            acc.copy_from_slice(&p[b.ft_bias..b.out_weights]);
            for &f in feats {
                let col = FT_WEIGHTS + f as usize * HIDDEN;
                for (a, &w) in acc.iter_mut().zip(&p[col..col + HIDDEN]) {
                    *a += w;
                }
            }
        }
        let w = &p[b.out_weights + s.bucket * 2 * HIDDEN..b.out_weights + (s.bucket + 1) * 2 * HIDDEN];
        let mut a = [[0.0f32; HIDDEN]; 2];
        for (a, acc) in a.iter_mut().zip(&act.acc) {
            for (y, &x) in a.iter_mut().zip(acc) {
                *y = screlu(x);
            }
        }
        dot(&a[0], &w[..HIDDEN]) + dot(&a[1], &w[HIDDEN..]) + p[b.out_bias + s.bucket]
    }

    /// Adds `slope` x the gradient of the output for this position to `grad` (the layout of
    /// `params`): only the active features' columns are touched.
    pub fn backward(&self, s: &Sample, act: &Activations, slope: f32, grad: &mut [f32]) {
        let b = self.blocks;
        let p = &self.params;
        let ow = b.out_weights + s.bucket * 2 * HIDDEN;
        grad[b.out_bias + s.bucket] += slope;
        let mut d = [[0.0f32; HIDDEN]; 2];
        for (half, (acc, d)) in act.acc.iter().zip(d.iter_mut()).enumerate() {
            let w = &p[ow + half * HIDDEN..ow + (half + 1) * HIDDEN];
            let gw = &mut grad[ow + half * HIDDEN..ow + (half + 1) * HIDDEN];
            for j in 0..HIDDEN {
                let x = acc[j];
                let c = x.clamp(0.0, 1.0);
                gw[j] += slope * c * c;
                // d clamp(x)^2 / dx = 2x inside (0, 1), zero outside.
                d[j] = if x > 0.0 && x < 1.0 { slope * w[j] * 2.0 * x } else { 0.0 };
            }
        }
        for (g, (a, b)) in grad[b.ft_bias..b.out_weights].iter_mut().zip(d[0].iter().zip(&d[1])) {
            *g += a + b;
        }
        for (feats, d) in [s.us(), s.them()].into_iter().zip(&d) {
            for &f in feats {
                let col = FT_WEIGHTS + f as usize * HIDDEN;
                for (g, &x) in grad[col..col + HIDDEN].iter_mut().zip(d) {
                    *g += x;
                }
            }
        }
    }

    /// Keeps every clipped parameter within ±[`CLIP`].
    pub fn clip(&mut self) {
        let b = self.blocks;
        for w in &mut self.params[FT_WEIGHTS..b.out_bias] {
            *w = w.clamp(-CLIP, CLIP);
        }
    }

    /// Puts the feature transformer and the output weights on the quantisation grid (the
    /// values [`Model::quantise`] gives them, so that quantising changes only the arithmetic).
    pub fn round_to_grid(&mut self) {
        let b = self.blocks;
        let on_grid = |w: &mut [f32], k: i32| w.iter_mut().for_each(|w| *w = (*w * k as f32).round() / k as f32);
        on_grid(&mut self.params[FT_WEIGHTS..b.out_weights], QA);
        on_grid(&mut self.params[b.out_weights..b.out_bias], QB);
    }

    /// The float evaluation of a position, centipawns for the side to move.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let mut d = Dataset::with_layout(self.layout);
        if !d.push(pos, 0.0, 0.5) {
            return 0.0;
        }
        self.forward(&d.sample(0), &mut Activations::default()) * SCALE as f32
    }

    /// The quantised network: round to nearest, feature transformer x QA, output weights x QB,
    /// output biases x QA x QB.
    pub fn quantise(&self) -> Network {
        let b = self.blocks;
        let q16 = |x: f32, k: i32| (x * k as f32).round() as i16;
        let p = &self.params;
        let mut net = Network::zeroed_with(self.layout);
        for (q, &w) in net.ft_weights.iter_mut().zip(&p[FT_WEIGHTS..b.ft_bias]) {
            *q = q16(w, QA);
        }
        for (q, &w) in net.ft_bias.iter_mut().zip(&p[b.ft_bias..b.out_weights]) {
            *q = q16(w, QA);
        }
        for (q, &w) in net.out_weights.iter_mut().zip(&p[b.out_weights..b.out_bias]) {
            *q = q16(w, QB);
        }
        for (q, &bias) in net.out_bias.iter_mut().zip(&p[b.out_bias..b.params]) {
            *q = (f64::from(bias) * f64::from(QA * QB)).round() as i32;
        }
        net
    }

    /// The float checkpoint's header: the magic, and the layout unless it is flat.
    fn checkpoint_header(layout: &InputLayout) -> Vec<u8> {
        if layout.is_flat() {
            return CHECKPOINT_MAGIC.to_vec();
        }
        let mut h = CHECKPOINT_MAGIC_LAYOUT.to_vec();
        h.push(u8::from(layout.mirror));
        h.extend_from_slice(&layout.buckets);
        h
    }

    /// The float checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let b = self.blocks;
        let mut out = Self::checkpoint_header(&self.layout);
        out.reserve(4 * b.params);
        for w in &self.params {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// A float checkpoint of a model with input layout `layout`. One without king buckets but
    /// of the same mirroring grows into `layout`'s buckets, every bucket starting with its
    /// feature weights (so the model evaluates as the checkpoint did); any other layout is
    /// refused.
    pub fn from_bytes(bytes: &[u8], layout: InputLayout) -> Result<Model, CheckpointError> {
        if !bytes.starts_with(&CHECKPOINT_MAGIC) && !bytes.starts_with(&CHECKPOINT_MAGIC_LAYOUT) {
            return Err(CheckpointError::BadMagic);
        }
        let one_bucket = InputLayout { buckets: [0; 64], mirror: layout.mirror };
        if layout.bucket_count() > 1 && bytes.starts_with(&Self::checkpoint_header(&one_bucket)) {
            return Self::read(bytes, one_bucket).map(|m| m.grown_into(layout));
        }
        Self::read(bytes, layout)
    }

    /// The checkpoint's parameters, if it is of exactly `layout`.
    fn read(bytes: &[u8], layout: InputLayout) -> Result<Model, CheckpointError> {
        let header = Self::checkpoint_header(&layout);
        if !bytes.starts_with(&header) {
            return Err(CheckpointError::Layout { expected: layout.name() });
        }
        let b = Blocks::of(&layout);
        let expected = header.len() + 4 * b.params;
        if bytes.len() != expected {
            return Err(CheckpointError::Size { expected, found: bytes.len() });
        }
        let params =
            bytes[header.len()..].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        Ok(Model { params, layout, blocks: b })
    }

    /// This one-bucket model in `layout`: its feature weights in every bucket, the rest as is.
    fn grown_into(&self, layout: InputLayout) -> Model {
        let b = Blocks::of(&layout);
        let ft = &self.params[FT_WEIGHTS..self.blocks.ft_bias];
        let mut params = Vec::with_capacity(b.params);
        params.extend_from_slice(&self.params[..FT_WEIGHTS]);
        for _ in 0..layout.bucket_count() {
            params.extend_from_slice(ft);
        }
        params.extend_from_slice(&self.params[self.blocks.ft_bias..]);
        debug_assert_eq!(params.len(), b.params);
        Model { params, layout, blocks: b }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks of the flat layout's models, which these tests use.
    const B: Blocks = Blocks::of(&layout::FLAT);

    const FENS: [&str; 6] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
        "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
        "8/8/8/5k2/8/8/4K3/3R4 b - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ];

    fn sample_data(layout: InputLayout) -> Dataset {
        crate::chess::attacks::init();
        let mut d = Dataset::with_layout(layout);
        for (i, fen) in FENS.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            assert!(d.push(&pos, 80.0 * i as f32 - 200.0, [1.0, 0.5, 0.0][i % 3]));
        }
        d
    }

    /// A model with larger weights than the initial ones, so most hidden units are in the
    /// activation's curved part and the output is far from zero.
    fn busy_model(seed: u64, layout: InputLayout) -> Model {
        let mut m = Model::random(seed, layout);
        let b = m.blocks;
        for w in &mut m.params[FT_WEIGHTS..b.ft_bias] {
            *w *= 2.0;
        }
        for w in &mut m.params[b.ft_bias..b.out_weights] {
            *w = 0.3;
        }
        for w in &mut m.params[b.out_weights..b.out_bias] {
            *w *= 8.0;
        }
        m.params[b.out_bias..].iter_mut().enumerate().for_each(|(i, b)| *b = 0.05 * i as f32);
        m
    }

    fn mean_loss(m: &Model, d: &Dataset, spec: &LossSpec) -> f64 {
        let mut act = Activations::default();
        (0..d.len())
            .map(|i| f64::from(spec.loss_and_slope(m.forward(&d.sample(i), &mut act), &d.sample(i)).0))
            .sum::<f64>()
            / d.len() as f64
    }

    #[test]
    fn the_fitted_sigmoid_scale_is_the_one_the_results_follow() {
        // At each score, wins in proportion sigmoid(score / 250), the rest losses.
        crate::chess::attacks::init();
        let pos = Position::startpos();
        let mut d = Dataset::default();
        for score in (-1200..=1200).step_by(40) {
            let wins = (1000.0 * sigmoid(score as f32 / 250.0)).round() as usize;
            for k in 0..1000 {
                d.push(&pos, score as f32, if k < wins { 1.0 } else { 0.0 });
            }
        }
        let cp = fit_sigmoid_cp(&d);
        assert!((cp - 250.0).abs() < 2.0, "{cp}");
    }

    #[test]
    fn the_gradient_is_the_losss_slope() {
        gradient_is_the_slope(layout::FLAT);
    }

    #[test]
    fn the_gradient_is_the_losss_slope_with_king_buckets() {
        gradient_is_the_slope(layout::MIRROR4);
    }

    fn gradient_is_the_slope(layout: InputLayout) {
        let d = sample_data(layout);
        let m = busy_model(5, layout);
        let b = m.blocks;
        for spec in [
            LossSpec { lambda: 0.5, power: 2.0, sigmoid_cp: 400.0 },
            LossSpec { lambda: 0.2, power: 2.5, sigmoid_cp: 230.0 },
        ] {
            let mut grad = vec![0.0f32; b.params];
            let mut act = Activations::default();
            for i in 0..d.len() {
                let s = d.sample(i);
                let y = m.forward(&s, &mut act);
                let (_, slope) = spec.loss_and_slope(y, &s);
                m.backward(&s, &act, slope / d.len() as f32, &mut grad);
            }
            // Parameters with a real gradient in every block: columns of active features,
            // biases, both halves of the output layer, the output biases in use.
            let s0 = d.sample(1);
            let mut check = vec![b.out_bias + s0.bucket, b.out_bias + d.sample(2).bucket];
            for j in [0, 17, 100, 255] {
                check.push(FT_WEIGHTS + s0.us()[3] as usize * HIDDEN + j);
                check.push(FT_WEIGHTS + s0.them()[5] as usize * HIDDEN + j);
                check.push(b.ft_bias + j);
                check.push(b.out_weights + s0.bucket * 2 * HIDDEN + j);
                check.push(b.out_weights + s0.bucket * 2 * HIDDEN + HIDDEN + j);
            }
            let mut nonzero = 0;
            for &k in &check {
                let h = 1e-3;
                let (mut up, mut down) = (m.clone(), m.clone());
                up.params[k] += h;
                down.params[k] -= h;
                let slope = (mean_loss(&up, &d, &spec) - mean_loss(&down, &d, &spec)) / (2.0 * f64::from(h));
                let g = f64::from(grad[k]);
                assert!((slope - g).abs() <= 2e-3 * slope.abs().max(g.abs()) + 2e-5, "parameter {k}: {slope} vs {g}");
                nonzero += usize::from(g.abs() > 1e-4);
            }
            assert!(nonzero * 4 >= check.len() * 3, "too few parameters with a gradient: {nonzero}");
            // A parameter no position uses has no gradient.
            let unused = FT_WEIGHTS; // feature 0, one's own pawn on a1: never active
            assert_eq!(grad[unused], 0.0);
        }
    }

    #[test]
    fn quantised_evaluation_is_the_float_one() {
        crate::chess::attacks::init();
        for (seed, layout) in (1..4).flat_map(|seed| layout::NAMED.map(|(_, l)| (seed, l))) {
            // On the quantisation grid, rounding changes nothing: what is left is the float
            // arithmetic and the integer divisions' truncation (under 1 cp each), so any
            // difference in meaning (perspectives, buckets, scales) would show.
            let mut m = busy_model(seed, layout);
            let b = m.blocks;
            let grid = |w: &mut [f32], k: f32| w.iter_mut().for_each(|w| *w = (*w * k).round() / k);
            grid(&mut m.params[FT_WEIGHTS..b.out_weights], QA as f32);
            grid(&mut m.params[b.out_weights..b.out_bias], QB as f32);
            grid(&mut m.params[b.out_bias..], (QA * QB) as f32);
            let net = m.quantise();
            assert_eq!(net.layout, layout);
            let mut size = 0.0;
            for fen in FENS {
                let pos = Position::from_fen(fen).unwrap();
                let (f, q) = (m.evaluate(&pos), net.evaluate(&pos) as f32);
                size += f.abs() / FENS.len() as f32;
                assert!((f - q).abs() < 2.0, "{fen}: float {f} vs quantised {q}");
            }
            assert!(size > 50.0, "a test needs evaluations far from zero (mean {size})");
            // Off the grid, rounding moves it by a few centipawns at most. (The bound was set on
            // these seeds in the flat layout; rounding noise is no matter of the layout, whose
            // meaning the grid check above has tested.)
            if !layout.is_flat() {
                continue;
            }
            let m = busy_model(seed, layout);
            let net = m.quantise();
            for fen in FENS {
                let pos = Position::from_fen(fen).unwrap();
                let (f, q) = (m.evaluate(&pos), net.evaluate(&pos) as f32);
                assert!((f - q).abs() < 0.1 * f.abs() + 25.0, "{} {fen}: float {f} vs quantised {q}", layout.name());
            }
        }
    }

    #[test]
    fn clipped_weights_quantise_without_overflow() {
        let mut m = busy_model(9, layout::MIRROR4);
        m.params.iter_mut().for_each(|w| *w *= 100.0);
        m.clip();
        let net = m.quantise();
        assert!(net.ft_weights.iter().chain(net.ft_bias.iter()).all(|&w| w.abs() <= 505));
        assert!(net.out_weights.iter().all(|&w| w.abs() <= 127));
    }

    #[test]
    fn checkpoints_round_trip() {
        let m = Model::random(2, layout::FLAT);
        assert_eq!(Model::from_bytes(&m.to_bytes(), layout::FLAT), Ok(m.clone()));
        assert_eq!(
            Model::from_bytes(&m.to_bytes()[..100], layout::FLAT),
            Err(CheckpointError::Size { expected: 8 + 4 * B.params, found: 100 })
        );
        assert_eq!(Model::from_bytes(b"nonsense", layout::FLAT), Err(CheckpointError::BadMagic));
        // A checkpoint of another layout is refused, even of the same size (flat and mirror).
        let mirrored = Model::random(2, layout::MIRROR);
        assert_eq!(Model::from_bytes(&mirrored.to_bytes(), layout::MIRROR), Ok(mirrored.clone()));
        assert_eq!(
            Model::from_bytes(&mirrored.to_bytes(), layout::FLAT),
            Err(CheckpointError::Layout { expected: "flat" })
        );
        assert_eq!(
            Model::from_bytes(&m.to_bytes(), layout::MIRROR),
            Err(CheckpointError::Layout { expected: "mirror" })
        );
        let buckets = Model::random(2, layout::MIRROR4);
        assert_eq!(Model::from_bytes(&buckets.to_bytes(), layout::MIRROR4), Ok(buckets.clone()));
        // A bucketed checkpoint does not shrink into one bucket.
        assert_eq!(
            Model::from_bytes(&buckets.to_bytes(), layout::MIRROR),
            Err(CheckpointError::Layout { expected: "mirror" })
        );
    }

    /// A one-bucket checkpoint of the same mirroring grows into king buckets and evaluates as
    /// before; one of another mirroring does not.
    #[test]
    fn a_one_bucket_checkpoint_grows_into_king_buckets() {
        let mirrored = busy_model(6, layout::MIRROR);
        let grown = Model::from_bytes(&mirrored.to_bytes(), layout::MIRROR4).expect("grows");
        assert_eq!(grown.layout, layout::MIRROR4);
        assert_eq!(grown.params.len(), Blocks::of(&layout::MIRROR4).params);
        // The kings of these positions stand in every one of the four buckets.
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(grown.evaluate(&pos), mirrored.evaluate(&pos), "{fen}");
        }
        let flat = Model::random(2, layout::FLAT);
        assert_eq!(
            Model::from_bytes(&flat.to_bytes(), layout::MIRROR4),
            Err(CheckpointError::Layout { expected: "mirror4" })
        );
    }
}
